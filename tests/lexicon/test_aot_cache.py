"""The compiled-kernel cache (lexicon_tools._aot): keyed by the project's version and the kernel sources,
and versions or checkouts sharing one cache directory never evict each other's modules."""

from __future__ import annotations

import hashlib
import os
import time

import pytest

from lexicon_tools import _aot, _build_aot
from engine.movegen import _aot as movegen_aot


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("GSE_CACHE_DIR", str(tmp_path))
    d = tmp_path / "aot"
    d.mkdir()
    return d


def _module(d, name, age_days=0.0, sig=True):
    """Fake files of a compiled module ``name`` last used ``age_days`` ago."""
    files = [d / f"{name}.cpython-311-x86_64-linux-gnu.so"] + ([d / f"{name}.json"] if sig else [])
    t = time.time() - age_days * 86400
    for f in files:
        f.write_bytes(b"x")
        os.utime(f, (t, t))
    return files


def test_module_name_names_the_version(monkeypatch):
    monkeypatch.setattr(_aot, "project_version", lambda: "1.2.3rc1")
    assert _aot.module_name("gse_kernels_", "abc") == "gse_kernels_v1_2_3rc1_abc"
    assert _aot.module_name("gse_kernels_", "abc").isidentifier()


def test_key_changes_with_the_version(monkeypatch):
    def digest():
        h = hashlib.sha256()
        _aot.toolchain_key(h)
        return h.hexdigest()

    a = digest()
    monkeypatch.setattr(_aot, "project_version", lambda: "9.9.9")
    assert digest() != a
    assert movegen_aot.key() != _build_aot.key()  # each builder hashes its own kernel sources


def test_prune_keeps_other_versions_in_use(cache):
    mine = "gse_kernels_v0_2_0_aaa"
    _module(cache, mine)
    other = _module(cache, "gse_kernels_v0_1_0_bbb", age_days=2)          # another install, used 2 days ago
    stale = _module(cache, "gse_kernels_v0_0_9_ccc", age_days=45)         # nobody used it for 45 days
    lexbuild = _module(cache, "gse_lexbuild_v0_1_0_ddd", age_days=45, sig=False)  # another builder's prefix
    (cache / "gse_kernels_v0_1_0_eee.lock").write_text("")                 # someone compiling right now
    removed = _aot.prune("gse_kernels_", mine)
    assert removed == ["gse_kernels_v0_0_9_ccc"]
    assert all(f.exists() for f in other) and not any(f.exists() for f in stale)
    assert all(f.exists() for f in lexbuild) and (cache / "gse_kernels_v0_1_0_eee.lock").exists()


def test_prune_bounds_the_count_by_last_use(cache):
    mine = "gse_kernels_v0_2_0_k0"
    _module(cache, mine, age_days=3)  # the module just compiled is never removed, whatever its time
    for i in range(1, 6):
        _module(cache, f"gse_kernels_v0_2_0_k{i}", age_days=i)
    removed = _aot.prune("gse_kernels_", mine, keep_latest=4)
    # kept: k0 (the new one) and the three most recently used others, k1..k3
    assert sorted(removed) == ["gse_kernels_v0_2_0_k4", "gse_kernels_v0_2_0_k5"]
    assert (cache / "gse_kernels_v0_2_0_k0.json").exists() and (cache / "gse_kernels_v0_2_0_k3.json").exists()


def test_mark_used_refreshes_old_times_only(cache):
    old = _module(cache, "gse_kernels_v0_2_0_old", age_days=5)
    new = _module(cache, "gse_kernels_v0_2_0_new", age_days=0.1)
    before_new = new[0].stat().st_mtime
    _aot.mark_used(*old, *new, cache / "missing.so")  # a missing file is not an error
    assert time.time() - old[0].stat().st_mtime < 60
    assert new[0].stat().st_mtime == before_new


def test_compiling_follows_a_fresh_lock(cache):
    assert not _aot.compiling("gse_kernels_v0_2_0_x")
    lock = cache / "gse_kernels_v0_2_0_x.lock"
    lock.write_text("")
    assert _aot.compiling("gse_kernels_v0_2_0_x")
    old = time.time() - _aot.LOCK_SECONDS - 5
    os.utime(lock, (old, old))
    assert not _aot.compiling("gse_kernels_v0_2_0_x")  # a stale lock (a killed build) does not count
