"""Start-up: what each command imports, and the ahead-of-time compiled kernels (engine.movegen._aot)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from conftest import golden_moves, golden_positions
from engine.movegen import _aot
from engine.movegen import _dispatch as _kernels
from engine.movegen.generator import build_aot
from engine.position.cgp import parse_cgp

ROOT = Path(__file__).resolve().parents[2]
README_CGP = ("15/15/15/15/15/15/4H3F6/3WALZER6/4U1U1E6/4S1G1U6/8N6/5KIND6/5Ü9/5H9/5L9 AEINRST/ 0/0 0 "
              "lex NGERMAN; bag 66;")
HEAVY = ("fastapi", "uvicorn", "starlette", "pydantic", "engine.web", "engine.director", "engine.analysis.simulation",
         "engine.cli.game", "engine.compare.checker", "engine.cli.simulate", "engine.cli.analyze", "ray", "tqdm")


def _run(argv, env_extra, importtime=False):
    env = {**os.environ, **env_extra}
    cmd = [sys.executable] + (["-X", "importtime"] if importtime else []) + ["-m", "engine", *argv]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT, timeout=600)


def _imported(stderr: str) -> set[str]:
    return {line.split("|")[-1].strip() for line in stderr.splitlines() if line.startswith("import time:")}


def test_best_and_score_import_no_plugin(golden_lexicon, tmp_path):
    env = {"GSE_AOT": "0", "GSE_CACHE_DIR": str(tmp_path)}
    lexicon = str(golden_lexicon.path)
    r = _run(["best", "--cgp", README_CGP, "--lexicon", lexicon], env, importtime=True)
    assert r.returncode == 0 and r.stdout.split()[:3] == ["13I", "SANIERT", "77"], r.stderr[-2000:]
    mods = _imported(r.stderr)
    assert "engine.movegen.generator" in mods and "numba" in mods  # JIT: GSE_AOT=0
    assert not {m for m in mods if m.split(".")[0] in HEAVY or m.startswith(HEAVY)}
    r = _run(["score", "--cgp", README_CGP, "--lexicon", lexicon, "13I SANIERT"], env, importtime=True)
    assert r.returncode == 0 and r.stdout.startswith("13I SANIERT: 77 points"), r.stderr[-2000:]
    mods = _imported(r.stderr)
    assert "numba" not in mods and "engine.movegen._movegen" not in mods  # the word checker needs no kernel
    assert not {m for m in mods if m.startswith(HEAVY)}


def test_help_still_lists_every_command(capsys):
    from engine.cli.main import main

    with pytest.raises(SystemExit) as e:
        main(["--help"])
    out = capsys.readouterr().out
    assert e.value.code == 0
    for cmd in ("moves", "best", "score", "analyze", "practice", "simulate", "selfplay", "gcg", "compare",
                "baselines", "simultan", "web"):
        assert cmd in out, cmd
    with pytest.raises(SystemExit) as e:
        main(["frobnicate"])
    assert e.value.code == 2 and "invalid choice" in capsys.readouterr().err


@pytest.fixture(scope="module")
def aot_cache(tmp_path_factory, golden_lexicon):
    """An ahead-of-time build of the kernels in a private cache (built once: ~20 s)."""
    cache = tmp_path_factory.mktemp("aot-cache")
    old = {k: os.environ.get(k) for k in ("GSE_AOT", "GSE_CACHE_DIR")}
    os.environ["GSE_AOT"], os.environ["GSE_CACHE_DIR"] = "1", str(cache)
    try:
        assert _aot.needs_build()
        notes: list[str] = []
        if not build_aot(golden_lexicon, progress=notes.append):
            # e.g. no C compiler or no Python headers (python3-dev): the engine stays on the JIT kernels
            failed = _aot._paths(_aot.key())[3]
            assert failed.is_file() and not _aot.needs_build()  # remembered, not retried
            pytest.skip(f"ahead-of-time compilation not possible here: {failed.read_text().strip()}")
        assert not _aot.needs_build()
        yield cache
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _copy(args):
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def test_aot_kernels_give_the_golden_moves(aot_cache, golden_lexicon, monkeypatch):
    """engine.movegen.generator on the compiled kernels: every call takes the compiled path, and the moves
    are the golden lists (four independent generators)."""
    monkeypatch.setenv("GSE_AOT", "1")
    monkeypatch.setenv("GSE_CACHE_DIR", str(aot_cache))
    found = _aot.load()
    assert set(found) == set(_aot.KERNELS)
    from engine.movegen import generator as movegen

    calls = {name: 0 for name in found}

    def recording(name, fn):
        def call(*args):
            assert fn.accepts(*args), f"{name}: the wrapper's arguments do not fit the compiled signature"
            calls[name] += 1
            return fn(*args)
        return call

    for name, fn in found.items():
        monkeypatch.setattr(_kernels, name, recording(name, fn))
    for pid, cgp in golden_positions()[:12]:
        pos = parse_cgp(cgp)
        got = movegen.generate_moves(pos.board, pos.rack, golden_lexicon).placement_set()
        assert got == {(p, s) for _n, s, p in golden_moves(pid)}, pid
        top = movegen.best_move_list(pos.board, pos.rack, golden_lexicon, 1).top(1)
        best = max((s for _n, s, _p in golden_moves(pid)), default=None)
        assert (top[0].score if top else None) == best, pid
    assert all(n >= 12 for n in calls.values()), calls


def test_aot_guard_refuses_other_types(aot_cache, golden_lexicon, monkeypatch):
    """Compiled code does not check dtypes (an int32 rack where int64 was compiled crashed the
    process): the guard sends such calls to the JIT kernel. Compiled and JIT results agree."""
    monkeypatch.setenv("GSE_AOT", "1")
    monkeypatch.setenv("GSE_CACHE_DIR", str(aot_cache))
    from engine.movegen import _movegen
    from engine.movegen import generator as movegen

    found = _aot.load()
    seen = {}

    def capture(name, fn):
        def call(*args):
            seen.setdefault(name, _copy(args))
            return fn(*args)
        return call

    for name, fn in found.items():
        monkeypatch.setattr(_kernels, name, capture(name, fn))
    pos = parse_cgp(README_CGP)
    movegen.generate_moves(pos.board, pos.rack, golden_lexicon)
    movegen.best_move_list(pos.board, pos.rack, golden_lexicon, 3)
    for name, fn in found.items():
        args = seen[name]
        assert fn.accepts(*args)
        a1, a2 = _copy(args), _copy(args)
        r1, r2 = fn.aot(*a1), getattr(_movegen, name)(*a2)  # compiled and JIT on the same input
        assert r1 == r2 and r1 > 0
        assert all(np.array_equal(x, y) for x, y in zip(a1, a2) if isinstance(x, np.ndarray))
        spec = _aot._paths(_aot.key())[2]
        sig = __import__("json").loads(spec.read_text())["kernels"][name]
        arrays = [i for i, t in enumerate(sig) if t[0] == "a"]
        i = arrays[0]
        other = args[i].astype(np.float32 if args[i].dtype != np.float32 else np.float64)
        assert not fn.accepts(*args[:i], other, *args[i + 1:])  # another dtype
        w = next(i for i in arrays if not sig[i][3])  # an array the kernel writes into
        ro = args[w].copy()
        ro.flags.writeable = False
        assert not fn.accepts(*args[:w], ro, *args[w + 1:])
        strided = np.repeat(args[w], 2, axis=0)[::2]
        assert strided.shape == args[w].shape and not strided.flags.c_contiguous
        assert not fn.accepts(*args[:w], strided, *args[w + 1:])  # not contiguous
        assert not fn.accepts(*args[:-1])  # an argument short
        scal = next((i for i, t in enumerate(sig) if t[0] == "i"), None)
        if scal is not None:
            assert fn.accepts(*args[:scal], int(args[scal]), *args[scal + 1:])  # a Python int is fine
            assert not fn.accepts(*args[:scal], "3", *args[scal + 1:])


def test_cli_with_aot_never_imports_numba(aot_cache, golden_lexicon):
    env = {"GSE_AOT": "1", "GSE_CACHE_DIR": str(aot_cache)}
    r = _run(["best", "--cgp", README_CGP, "--lexicon", str(golden_lexicon.path)], env, importtime=True)
    assert r.returncode == 0 and r.stdout.split()[:3] == ["13I", "SANIERT", "77"], r.stderr[-2000:]
    mods = _imported(r.stderr)
    assert "numba" not in mods and "llvmlite" not in mods
    assert "note:" not in r.stderr  # nothing left to build


def test_remembered_failure_is_not_retried(tmp_path, monkeypatch):
    monkeypatch.setenv("GSE_AOT", "1")
    monkeypatch.setenv("GSE_CACHE_DIR", str(tmp_path))
    assert _aot.needs_build()
    _name, _so, _sig, failed = _aot._paths(_aot.key())
    failed.parent.mkdir(parents=True)
    failed.write_text("RuntimeError: no compiler\n")
    assert not _aot.needs_build()
    monkeypatch.setenv("GSE_AOT", "0")
    failed.unlink()
    assert not _aot.needs_build() and _aot.load() is None


@pytest.mark.parametrize("lang, said", [("en", "cannot be written"), ("de", "kann nicht geschrieben werden")])
def test_a_read_only_cache_is_said_once_and_no_build_starts(golden_lexicon, tmp_path, monkeypatch, capsys, lang, said):
    """report-attack26c A5: with a read-only cache every `best` promised a background build (20 s of CPU each
    time) that could never be written."""
    from engine.cli.main import main

    monkeypatch.setenv("GSE_AOT", "1")
    monkeypatch.setenv("GSE_CACHE_DIR", str(tmp_path))
    (tmp_path / "aot").write_text("")  # its aot folder cannot be made (as read-only; root ignores file modes)
    assert _aot.needs_build()
    started = []
    monkeypatch.setattr(subprocess, "Popen", lambda *a, **k: started.append(a))
    assert main(["--lang", lang, "best", "--cgp", README_CGP, "--lexicon", str(golden_lexicon.path)]) == 0
    out, err = capsys.readouterr()
    assert out.split()[:3] == ["13I", "SANIERT", "77"]
    assert started == []  # no build started
    notes = err.strip().splitlines()
    assert len(notes) == 1 and said in notes[0] and str(tmp_path / "aot") in notes[0], err
    assert "background" not in err and "Hintergrund" not in err


def test_a_truncated_module_falls_back_to_the_jit_with_a_note(aot_cache, golden_lexicon, tmp_path, monkeypatch):
    """Attack 26 item 8: a truncated module in the cache made every `best` die with "Bus error" (rc 135)."""
    import shutil

    cache = tmp_path / "cache"
    shutil.copytree(aot_cache, cache)
    env = {"GSE_AOT": "1", "GSE_CACHE_DIR": str(cache), "GSE_LANG": "en"}
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    name, so, _sig, _failed = _aot._paths(_aot.key())
    (so.parent / f"{name}.lock").write_text("")  # as if a rebuild were running: none starts in the background
    with open(so, "r+b") as f:
        f.truncate(10_000)
    r = _run(["best", "--cgp", README_CGP, "--lexicon", str(golden_lexicon.path)], env)
    assert r.returncode == 0 and r.stdout.split()[:3] == ["13I", "SANIERT", "77"], (r.returncode, r.stderr[-2000:])
    assert f"the compiled move generator {so} (10,000 bytes instead of" in r.stderr and "is damaged" in r.stderr
    assert _aot.needs_build() and _aot.load() is None


LAZY = ("numba", "llvmlite", "hashlib", "_hashlib", "tempfile", "importlib.resources", "importlib.readers",
        "lexicon_tools.kwg", "lexicon_tools.cli", "lexicon_tools._build_aot", "engine.analysis", "engine.leaves",
        "tqdm", "rich")
"""What a second ``best`` with the ahead-of-time kernels leaves unimported: Numba, the checksums of files that did
not change (OpenSSL's hashing), the writers' tempfile, importlib.resources, the lexicon builder, the analysis
and leave modules, the progress bars (issue 27 part 6)."""


def _modules_of(argv, env_extra) -> tuple[subprocess.CompletedProcess, set[str]]:
    """Run ``python -m engine argv`` in a child (through runpy, as ``-m`` does) and return it with the names in
    its ``sys.modules`` at the end."""
    code = ("import json, runpy, sys\n"
            "sys.argv = ['engine', *json.loads(sys.argv[1])]\n"
            "try:\n    runpy.run_module('engine', run_name='__main__', alter_sys=True)\n"
            "except SystemExit as e:\n    rc = e.code\n"
            "sys.stderr.write('\\nMODULES ' + json.dumps(sorted(sys.modules)) + '\\n')\n"
            "sys.exit(rc)\n")
    env = {**os.environ, **env_extra}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    r = subprocess.run([sys.executable, "-c", code, __import__("json").dumps(argv)], capture_output=True, text=True,
                       env=env, cwd=ROOT, timeout=600)
    line = [ln for ln in r.stderr.splitlines() if ln.startswith("MODULES ")]
    return r, set(__import__("json").loads(line[-1][8:])) if line else set()


def test_a_second_best_imports_only_what_it_needs(aot_cache, golden_lexicon, tmp_path):
    """Issue 27 part 6: the second `best` reads remembered checksums and keys instead of hashing files again, and
    imports none of the modules made lazy (:data:`LAZY`) nor a plug-in (:data:`HEAVY`)."""
    import shutil

    cache = tmp_path / "cache"
    shutil.copytree(aot_cache, cache)
    env = {"GSE_AOT": "1", "GSE_CACHE_DIR": str(cache), "GSE_LANG": "en"}
    argv = ["best", "--cgp", README_CGP, "--lexicon", str(golden_lexicon.path)]
    for _ in range(50):  # a file changed in the last 2 s is hashed every time (lexicon_tools._verified.SETTLE_NS)
        if _settled_module(cache):
            break
        time.sleep(0.1)
    first, _ = _modules_of(argv, env)  # hashes the copied module once and remembers its checksum
    assert first.returncode == 0 and first.stdout.split()[:3] == ["13I", "SANIERT", "77"], first.stderr[-2000:]
    r, mods = _modules_of(argv, env)
    assert r.returncode == 0 and r.stdout == first.stdout, r.stderr[-2000:]
    assert "engine.movegen._aot" in mods and "lexicon_tools.bundle" in mods  # what it does use
    lazy = set(LAZY)
    assert not {m for m in mods if m in lazy or m.startswith(tuple(x + "." for x in LAZY))}, sorted(mods & lazy)
    assert not {m for m in mods if m.startswith(HEAVY)}
    r, mods = _modules_of(["moves", "--cgp", README_CGP, "--lexicon", str(golden_lexicon.path), "--top", "3"], env)
    assert r.returncode == 0 and len(r.stdout.splitlines()) == 3
    assert not {m for m in mods if m in lazy}


def _settled_module(cache) -> bool:
    from lexicon_tools._verified import file_key, settled

    return all(settled({"f": file_key(p)}) for p in (cache / "aot").glob("*.so"))
