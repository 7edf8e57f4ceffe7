"""lexicon_tools._numba_cache: a kernel module's Numba cache is dropped when any kernel source changed."""

from __future__ import annotations

import os

from lexicon_tools import _numba_cache as NC


def make_module(tmp_path):
    mod = tmp_path / "_kern.py"
    mod.write_text("x = 1\n")
    cache = tmp_path / "__pycache__"
    cache.mkdir()
    files = [cache / "_kern.f-10.py311.nbi", cache / "_kern.f-10.py311.1.nbc"]
    other = cache / "_other.f-3.py311.nbi"  # another module's cache: never touched
    for f in files + [other]:
        f.write_bytes(b"cached")
    return mod, cache, files, other


def test_a_new_stamp_drops_only_this_modules_cache(tmp_path):
    mod, cache, files, other = make_module(tmp_path)
    assert NC.drop_stale_cache(str(mod), digest="a" * 64) is True
    assert not any(f.exists() for f in files) and other.exists()
    assert (cache / "_kern.deps").read_text() == "a" * 64 + "\n"
    # the same sources again: the cache made since is kept
    for f in files:
        f.write_bytes(b"recompiled")
    assert NC.drop_stale_cache(str(mod), digest="a" * 64) is False
    assert all(f.read_bytes() == b"recompiled" for f in files)
    # a callee changed: dropped again
    assert NC.drop_stale_cache(str(mod), digest="b" * 64) is True
    assert not any(f.exists() for f in files)
    assert not [p for p in os.listdir(cache) if p.endswith(".tmp")]


def test_digest_covers_the_kernel_sources_a_module_compiles_in(tmp_path, monkeypatch):
    """A kernel module's digest changes with itself and the ``_`` modules it imports (transitively),
    not with an API module or a kernel module it does not import."""
    pkg = tmp_path / "engine"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "_k1.py").write_text("from engine.sub import _k2\n@njit\ndef f(): pass\n")
    (pkg / "sub" / "_k2.py").write_text("from ._consts import X\nfrom engine import api\n")
    (pkg / "sub" / "_consts.py").write_text("X = 1\n")
    (pkg / "api.py").write_text("not kernel side\n")
    (pkg / "_other.py").write_text("@njit\ndef g(): pass\n")
    monkeypatch.setattr(NC, "_ROOT", tmp_path)
    monkeypatch.setattr(NC, "_PACKAGES", ("engine",))

    def digest():
        NC.kernel_sources_digest.cache_clear()
        NC.kernel_closure.cache_clear()
        return NC.kernel_sources_digest(str(pkg / "_k1.py"))

    try:
        assert [p.name for p in NC.kernel_closure(str(pkg / "_k1.py"))] == ["_k1.py", "_consts.py", "_k2.py"]
        assert [p.name for p in NC.kernel_modules()] == ["_k1.py", "_other.py"]
        d0 = digest()
        (pkg / "api.py").write_text("changed, but not kernel side\n")
        (pkg / "_other.py").write_text("@njit\ndef g(): return 1\n")
        assert digest() == d0
        (pkg / "sub" / "_consts.py").write_text("X = 2\n")  # a constant the kernel inlines
        d1 = digest()
        assert d1 != d0
        (pkg / "sub" / "_k2.py").write_text("from ._consts import X\n# edited\n")
        assert digest() not in (d0, d1)
    finally:
        NC.kernel_sources_digest.cache_clear()
        NC.kernel_closure.cache_clear()


def test_a_read_only_cache_is_left_alone(tmp_path, monkeypatch):
    mod, cache, files, other = make_module(tmp_path)

    def refuse(*a, **k):
        raise PermissionError("read-only")

    monkeypatch.setattr(NC.os, "unlink", refuse)
    assert NC.drop_stale_cache(str(mod), digest="c" * 64) is False
    assert all(f.exists() for f in files)


def test_the_installed_kernel_modules_carry_a_current_stamp():
    import engine.game._kgame  # noqa: F401  (imports the move generator and leave kernels too)

    stamp = os.path.join(os.path.dirname(engine.game._kgame.__file__), "__pycache__", "_kgame.deps")
    with open(stamp, encoding="ascii") as f:
        assert f.read().strip() == NC.kernel_sources_digest(os.path.abspath(engine.game._kgame.__file__))


KERNEL = '''import sys
from numba import njit
from lexicon_tools import _numba_cache
_numba_cache.drop_stale_cache(__file__, digest="d" * 64)  # what every kernel module does at import


@njit(cache=True)
def add_one(x):
    return x + 1


@njit(cache=True)
def twice(x):
    return 2 * x


print(add_one(41), twice(21))
'''


def _run_kernel(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    root = Path(NC.__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": f"{root}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    return subprocess.run([sys.executable, str(tmp_path / "_kern_cached.py")], capture_output=True, text=True,
                          env=env, timeout=600)


def test_a_truncated_cache_file_is_dropped_and_compiled_again(tmp_path):
    """Attack 26 item 9: half of a .nbc (or the .nbi) cut off made every run die with UnpicklingError."""
    (tmp_path / "_kern_cached.py").write_text(KERNEL)
    first = _run_kernel(tmp_path)
    assert first.returncode == 0 and first.stdout.split() == ["42", "42"], first.stderr[-2000:]
    cache = tmp_path / "__pycache__"
    nbc = sorted(cache.glob("_kern_cached.add_one-*.nbc"))
    nbi = sorted(cache.glob("_kern_cached.twice-*.nbi"))
    assert len(nbc) == 1 and len(nbi) == 1
    for f in nbc + nbi:
        data = f.read_bytes()
        f.write_bytes(data[:len(data) // 2])
    second = _run_kernel(tmp_path)
    assert second.returncode == 0 and second.stdout.split() == ["42", "42"], second.stderr[-2000:]
    assert "Traceback" not in second.stderr
    assert second.stderr.count("DamagedCacheWarning") == 2 and "add_one" in second.stderr and "twice" in second.stderr
    # the files were written again, whole: a third run loads them without a word
    third = _run_kernel(tmp_path)
    assert third.returncode == 0 and third.stdout.split() == ["42", "42"] and "Warning" not in third.stderr
    for f in nbc + nbi:
        assert f.stat().st_size > 0
