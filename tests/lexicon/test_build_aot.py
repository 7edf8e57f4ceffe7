"""The lexicon builder's kernels compiled ahead of time (lexicon_tools._build_aot): same bytes, no Numba."""

from __future__ import annotations

import hashlib
import lzma
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from conftest import DATA
from lexicon_tools import _build_aot

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def aot_cache(tmp_path_factory):
    """The compiled module in a private cache (compiled once: about 20-30 s of CPU)."""
    cache = tmp_path_factory.mktemp("build-aot-cache")
    old = {k: os.environ.get(k) for k in ("GSE_AOT", "GSE_CACHE_DIR")}
    os.environ["GSE_AOT"], os.environ["GSE_CACHE_DIR"] = "1", str(cache)
    try:
        assert _build_aot.needs_build()
        notes: list[str] = []
        if not _build_aot.build(progress=notes.append):
            failed = _build_aot._paths(_build_aot.key())[2]
            assert failed.is_file() and not _build_aot.needs_build()  # remembered, not retried
            pytest.skip(f"ahead-of-time compilation not possible here: {failed.read_text().strip()}")
        assert not _build_aot.needs_build() and notes and "ahead of time" in notes[0]
        yield cache
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _build(tmp_path: Path, name: str, env: dict) -> subprocess.CompletedProcess:
    src = tmp_path / "words.txt"
    if not src.exists():
        words = lzma.decompress((DATA / "golden_words.txt.xz").read_bytes()).decode().split()
        src.write_text("\n".join(words[::7]) + "\n", encoding="utf-8")  # 42,940 real words
    cmd = [sys.executable, "-X", "importtime", "-m", "lexicon_tools", "build", str(src), "-o",
           str(tmp_path / name), "-q"]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **env})


def _imported(stderr: str) -> set[str]:
    return {line.split("|")[-1].strip().split(".")[0] for line in stderr.splitlines() if line.startswith("import time:")}


def test_build_with_the_compiled_kernels_never_imports_numba_and_writes_the_same_bytes(aot_cache, tmp_path):
    jit = _build(tmp_path, "jit.lex", {"GSE_AOT": "0"})
    assert jit.returncode == 0, jit.stderr[-2000:]
    assert "numba" in _imported(jit.stderr)
    aot = _build(tmp_path, "aot.lex", {"GSE_AOT": "1", "GSE_CACHE_DIR": str(aot_cache)})
    assert aot.returncode == 0, aot.stderr[-2000:]
    assert not {"numba", "llvmlite"} & _imported(aot.stderr)
    assert "note:" not in aot.stderr  # nothing left to compile
    sha = [hashlib.sha256((tmp_path / n / "lexicon.kwg").read_bytes()).hexdigest() for n in ("jit.lex", "aot.lex")]
    assert sha[0] == sha[1]


def test_the_guard_sends_other_types_to_the_jit_kernel(aot_cache, monkeypatch):
    monkeypatch.setenv("GSE_AOT", "1")
    monkeypatch.setenv("GSE_CACHE_DIR", str(aot_cache))
    mod = _build_aot._load_module()
    assert mod is not None
    k = _build_aot._Kernels(mod)
    flat = np.array([1, 2, 3, 1, 2], dtype=np.uint8)  # the words [1 2 3], [1 2] as tile codes
    lens = np.array([3, 2], dtype=np.int32)
    expect = np.array([[2, 3, 0], [2, 3, 4]], dtype=np.uint8)  # tile + 1, sorted: [1 2] before [1 2 3]
    assert _build_aot._fits((flat, lens), _build_aot.SIGNATURES["sorted_word_rows"][1][0][1])
    assert np.array_equal(k.sorted_word_rows(flat, lens)[:, :3], expect)
    ro = lens.copy()
    ro.flags.writeable = False
    assert not _build_aot._fits((flat, ro), _build_aot.SIGNATURES["sorted_word_rows"][1][0][1])
    assert not _build_aot._fits((flat, lens.astype(np.int64)), _build_aot.SIGNATURES["sorted_word_rows"][1][0][1])
    # both go to the JIT kernel, which answers the same
    assert np.array_equal(k.sorted_word_rows(flat, ro)[:, :3], expect)
    assert np.array_equal(k.sorted_word_rows(flat, lens.astype(np.int64))[:, :3], expect)


def test_disabled_or_failed_means_jit_and_no_retry(tmp_path, monkeypatch):
    monkeypatch.setenv("GSE_AOT", "1")
    monkeypatch.setenv("GSE_CACHE_DIR", str(tmp_path))
    assert _build_aot.needs_build()
    failed = _build_aot._paths(_build_aot.key())[2]
    failed.parent.mkdir(parents=True)
    failed.write_text("RuntimeError: no compiler\n")
    assert not _build_aot.needs_build() and _build_aot._load_module() is None
    monkeypatch.setenv("GSE_AOT", "0")
    failed.unlink()
    assert not _build_aot.needs_build() and _build_aot._load_module() is None
