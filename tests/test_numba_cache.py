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


def test_digest_covers_every_kernel_module_of_both_packages(tmp_path, monkeypatch):
    a = tmp_path / "a"
    b = tmp_path / "b"
    a.mkdir()
    b.mkdir()
    (a / "_k1.py").write_text("one\n")
    (b / "_k2.py").write_text("two\n")
    (b / "api.py").write_text("not a kernel module\n")
    monkeypatch.setattr(NC, "_PACKAGES", (str(a), str(b)))
    NC.kernel_sources_digest.cache_clear()
    try:
        d0 = NC.kernel_sources_digest()
        (b / "api.py").write_text("changed, but not a kernel module\n")
        NC.kernel_sources_digest.cache_clear()
        assert NC.kernel_sources_digest() == d0
        (b / "_k2.py").write_text("two, edited\n")
        NC.kernel_sources_digest.cache_clear()
        assert NC.kernel_sources_digest() != d0
    finally:
        NC.kernel_sources_digest.cache_clear()


def test_a_read_only_cache_is_left_alone(tmp_path, monkeypatch):
    mod, cache, files, other = make_module(tmp_path)

    def refuse(*a, **k):
        raise PermissionError("read-only")

    monkeypatch.setattr(NC.os, "unlink", refuse)
    assert NC.drop_stale_cache(str(mod), digest="c" * 64) is False
    assert all(f.exists() for f in files)


def test_the_installed_kernel_modules_carry_a_current_stamp():
    import engine._kgame  # noqa: F401  (imports the move generator and leave kernels too)

    stamp = os.path.join(os.path.dirname(engine._kgame.__file__), "__pycache__", "_kgame.deps")
    with open(stamp, encoding="ascii") as f:
        assert f.read().strip() == NC.kernel_sources_digest()
