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


def test_a_lock_left_by_a_killed_build_is_stale_at_once(cache):
    """Ctrl-C during a first run kills the warm-up's child (engine.analysis.warmup) in the middle of a build: its
    lock must not make every later build wait 15 minutes ("another process is compiling it")."""
    import platform
    import subprocess
    import sys

    lock = cache / "gse_kernels_v0_2_0_y.lock"
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    lock.write_text(f"{dead.pid} {platform.node()}")
    assert not _aot.compiling("gse_kernels_v0_2_0_y")  # its owner is gone
    lock.write_text(f"{os.getpid()} {platform.node()}")
    assert _aot.compiling("gse_kernels_v0_2_0_y")  # its owner is alive
    lock.write_text(f"{dead.pid} another-machine")
    assert _aot.compiling("gse_kernels_v0_2_0_y")  # another machine's process: only the age counts


def test_compile_module_takes_over_a_killed_builds_lock(cache, monkeypatch):
    import platform
    import subprocess
    import sys

    name = "gse_kernels_v0_2_0_z"
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    (cache / f"{name}.lock").write_text(f"{dead.pid} {platform.node()}")
    work = cache / f".{name}.abc"  # the killed build's work folder
    work.mkdir()
    old = time.time() - _aot.LOCK_SECONDS - 5
    os.utime(work, (old, old))
    seen = []

    def export(cc):
        seen.append((cache / f"{name}.lock").read_text())
        raise RuntimeError("no compiler in this test")

    assert _aot.compile_module(name, "gse_kernels_", export) is False
    assert seen == [f"{os.getpid()} {platform.node()}"]  # it took the lock and wrote its owner
    assert not (cache / f"{name}.lock").exists() and not work.exists()


def _fake_module(cache, monkeypatch, data=b"\x7fELF" + bytes(range(256)) * 40):
    """The move generator's module files for the current key: a fake shared object with its recorded check."""
    monkeypatch.setenv("GSE_AOT", "1")
    _name, so, sig, _failed = movegen_aot._paths(movegen_aot.key())
    so.write_bytes(data)
    sig.write_text('{"key": "x", "kernels": {}}')
    _aot.write_check(so, _aot.file_check(so))
    return so


def test_a_truncated_module_is_never_loaded_and_is_built_again(cache, monkeypatch):
    """Attack 26 item 8: a module cut short crashed every `best` with "Bus error" and counted as built."""
    so = _fake_module(cache, monkeypatch)
    assert _aot.problem(so) is None and not movegen_aot.needs_build() and movegen_aot.damaged() is None
    full = so.stat().st_size
    with open(so, "r+b") as f:
        f.truncate(1000)
    assert _aot.problem(so) == f"1,000 bytes instead of {full:,}"
    assert movegen_aot.needs_build() and movegen_aot.damaged() == f"{so} (1,000 bytes instead of {full:,})"

    def no_dlopen(*a, **k):
        raise AssertionError("a damaged module must not be opened")

    monkeypatch.setattr(_aot.importlib.util, "spec_from_file_location", no_dlopen)
    with pytest.raises(_aot.DamagedModule):
        _aot.load_module("x", so)
    assert movegen_aot.load() is None
    # same size, one byte changed: the checksum differs
    so.write_bytes(b"\x7fELF" + bytes(range(256)) * 39 + bytes(255) + b"\x01")
    assert so.stat().st_size == full and "checksum" in _aot.problem(so)
    # a module without its record (a crash between writing the module and the record) is not trusted either
    so.write_bytes(b"\x7fELF" + bytes(range(256)) * 40)
    assert _aot.problem(so) is None
    _aot.check_path(so).unlink()
    assert _aot.problem(so) == "no record of its size and checksum" and movegen_aot.needs_build()


def test_the_lexicon_builders_module_is_checked_too(cache, monkeypatch):
    monkeypatch.setenv("GSE_AOT", "1")
    _name, so, _failed = _build_aot._paths(_build_aot.key())
    so.write_bytes(b"y" * 5000)
    assert _build_aot.needs_build()  # no record
    _aot.write_check(so, _aot.file_check(so))
    assert not _build_aot.needs_build()
    so.write_bytes(b"y" * 4000)
    assert _build_aot.needs_build() and _build_aot._load_module() is None


def test_force_compiles_over_an_intact_module(cache, monkeypatch):
    """`warmup aot --force` replaced nothing (build returned at once when a module existed)."""
    so = _fake_module(cache, monkeypatch)
    calls = []

    def fake_compile(name, prefix, export, **kw):
        calls.append(name)
        return True

    monkeypatch.setattr(movegen_aot._shared, "compile_module", fake_compile)
    assert movegen_aot.build({}, force=False) is False and calls == []
    assert movegen_aot.build({}, force=True) is True and calls == [so.name.split(".")[0]]
    monkeypatch.setenv("GSE_AOT", "0")
    assert movegen_aot.build({}, force=True) is False and len(calls) == 1  # GSE_AOT=0: never


def test_write_check_is_atomic_and_readable(cache):
    so = cache / "m.cpython-311-x86_64-linux-gnu.so"
    so.write_bytes(b"abc")
    _aot.write_check(so, _aot.file_check(so))
    rec = _aot.check_path(so)
    assert rec.name == "m.check"
    assert __import__("json").loads(rec.read_text()) == {"size": 3, "sha256": hashlib.sha256(b"abc").hexdigest()}
    assert [p.name for p in cache.iterdir() if p.name.startswith(".")] == []  # no temp file left
