"""Checksums and kernel-module keys remembered by file key (lexicon_tools._verified, lexicon_tools._aot):
computed once per change of the files, so that a second process does not hash them again, and never
trusted after a change, even one that keeps the size and sets the modification time back."""

from __future__ import annotations

import hashlib
import os
import sys

import pytest

from conftest import count_hashing
from lexicon_tools import _aot, _verified



@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("GSE_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture
def later(monkeypatch):
    """The clock a minute ahead: files written in this test count as settled."""
    import time

    real = time.time_ns
    monkeypatch.setattr(time, "time_ns", lambda: real() + 60 * 10**9)


def _counting(monkeypatch):
    return count_hashing(monkeypatch, _verified)


def test_a_digest_is_computed_once_per_change(cache, tmp_path, monkeypatch, later):
    f = tmp_path / "words.xz"
    f.write_bytes(b"HAUS\nMAUS\n")
    calls = _counting(monkeypatch)
    want = hashlib.sha256(b"HAUS\nMAUS\n").hexdigest()
    assert _verified.remembered_sha256(f) == want and calls == ["words.xz"]
    assert _verified.remembered_sha256(f) == want and calls == ["words.xz"]  # remembered: not read again
    records = list((cache / "verified").iterdir())
    assert len(records) == 1 and records[0].name.startswith("sha256-")
    # same size, one byte changed in place, modification time set back: the status-change time still moves
    st = f.stat()
    with open(f, "r+b") as fh:
        fh.write(b"L")
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert _verified.remembered_sha256(f) == hashlib.sha256(b"LAUS\nMAUS\n").hexdigest()
    assert calls == ["words.xz", "words.xz"]


def test_a_file_changed_just_now_is_not_remembered(cache, tmp_path, monkeypatch):
    """Two writes of the same size inside one tick of the file system's clock leave the key unchanged:
    such a file is hashed again until it settled (SETTLE_NS)."""
    f = tmp_path / "m.so"
    f.write_bytes(b"abc")
    calls = _counting(monkeypatch)
    _verified.remembered_sha256(f)
    f.write_bytes(b"abd")  # may well keep every time of the key
    assert _verified.remembered_sha256(f) == hashlib.sha256(b"abd").hexdigest()
    assert calls == ["m.so", "m.so"] and not (cache / "verified").exists()


def test_an_unwritable_record_only_costs_the_hashing(cache, tmp_path, monkeypatch, later):
    f = tmp_path / "w"
    f.write_bytes(b"x")
    cache.parent.joinpath("cache").write_text("not a directory")  # the record cannot be written
    calls = _counting(monkeypatch)
    for _ in range(2):
        assert _verified.remembered_sha256(f) == hashlib.sha256(b"x").hexdigest()
    assert calls == ["w", "w"]


def test_a_damaged_record_is_not_trusted(cache, tmp_path, monkeypatch, later):
    f = tmp_path / "w"
    f.write_bytes(b"x")
    rec = tmp_path / "w.verified"
    assert _verified.remembered_sha256(f, rec) == hashlib.sha256(b"x").hexdigest()
    rec.write_text('{"verifier": 2, "files": "garbage"')
    assert _verified.remembered_sha256(f, rec) == hashlib.sha256(b"x").hexdigest()
    data = __import__("json").loads(rec.read_text())
    data["payload"]["sha256"] = "0" * 64  # a forged digest under another context is ignored too
    data["context"] = {"path": "/elsewhere"}
    rec.write_text(__import__("json").dumps(data))
    assert _verified.remembered_sha256(f, rec) == hashlib.sha256(b"x").hexdigest()


def test_the_module_key_is_remembered_until_a_source_or_the_toolchain_changes(cache, tmp_path, monkeypatch, later):
    src = tmp_path / "k.py"
    src.write_text("x = 1\n")
    computed = []

    def compute():
        computed.append(1)
        return hashlib.sha256(src.read_bytes()).hexdigest()[:24]

    k1 = _aot.remembered_key("t", {"k.py": src}, compute)
    assert _aot.remembered_key("t", {"k.py": src}, compute) == k1 and len(computed) == 1
    src.write_text("x = 2\n")  # same size, other bytes
    k2 = _aot.remembered_key("t", {"k.py": src}, compute)
    assert k2 != k1 and k2 == hashlib.sha256(b"x = 2\n").hexdigest()[:24] and len(computed) == 2
    assert _aot.remembered_key("t", {"k.py": src}, compute) == k2 and len(computed) == 2
    monkeypatch.chdir(tmp_path)  # another working directory (sys.path[0] of `python -m`): still remembered
    monkeypatch.setattr(sys, "path", [str(tmp_path)] + sys.path[1:])
    assert _aot.remembered_key("t", {"k.py": src}, compute) == k2 and len(computed) == 2
    monkeypatch.setattr(_aot, "project_version", lambda: "9.9.9")  # another version: computed again
    assert _aot.remembered_key("t", {"k.py": src}, compute) == k2 and len(computed) == 3
    assert _aot.remembered_key("other", {"k.py": src}, compute) == k2 and len(computed) == 4  # another tag


def test_the_real_module_key_matches_a_fresh_computation(cache, monkeypatch, later):
    """engine.movegen._aot.key(): the remembered key is the one the sources give."""
    from engine.movegen import _aot as movegen_aot

    first = movegen_aot.key()
    assert any(p.name.startswith("aot-key-") for p in (cache / "verified").iterdir())
    monkeypatch.setattr(_aot, "remembered_key", lambda tag, files, compute: compute())
    assert movegen_aot.key() == first
