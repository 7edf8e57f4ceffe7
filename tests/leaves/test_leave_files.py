"""Leave files that must not get through: NaN/inf values, a damaged default cache, partial tables."""

from __future__ import annotations

import os
import struct
from pathlib import Path

import numpy as np
import pytest

from engine.leaves import table as L
from engine.leaves.table import LeaveError, LeaveTable, default_table, klv_bytes, leave_index, read_klv


@pytest.fixture(scope="module")
def idx():
    return leave_index()


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_leave_refused(idx, tmp_path, bad):
    vals = np.zeros(idx.size, dtype=np.float32)
    r = idx.rank("EN")
    vals[r] = bad
    vals[idx.rank("Q")] = bad
    p = tmp_path / "bad.klv2"
    p.write_bytes(klv_bytes(vals))
    with pytest.raises(LeaveError) as e:
        read_klv(p)
    msg = str(e.value)
    assert msg.startswith(f"{p}: ")
    assert "2 values are not a finite number" in msg
    first = min(r, idx.rank("Q"))
    assert repr(idx.string(first)) in msg  # the first bad leave by rank is named
    with pytest.raises(LeaveError):
        LeaveTable.load(p, mmap=False)


def test_analyze_refuses_nan_table(idx, tmp_path, capsys, golden_lexicon):
    from engine.cli.main import main

    vals = np.zeros(idx.size, dtype=np.float32)
    vals[idx.rank("EEIRS")] = np.nan
    p = tmp_path / "nan.klv2"
    p.write_bytes(klv_bytes(vals))
    cgp = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 EEIRSTV/ 0/0 0"
    code = main(["analyze", "--cgp", cgp, "--leaves", str(p), "--lexicon", str(golden_lexicon.path)])
    _, err = capsys.readouterr()
    assert code == 2 and err.startswith("error: ") and "'EEIRS'" in err and "nan.klv2" in err
    assert err.count("\n") == 1


def test_partial_table_says_how_many_leaves_are_missing(idx, tmp_path):
    from lexicon_tools.kwg import build_kwg

    words = ["ER", "EN", "ERS", "QU", "ZZ"]  # ZZ: not a leave (the set has one Z)
    nodes = build_kwg(words)
    order = sorted(words, key=lambda w: [idx.alphabet.code(c) for c in w])
    data = (struct.pack("<I", len(nodes)) + nodes.astype("<u4").tobytes() + struct.pack("<I", len(order))
            + np.arange(1, 6, dtype="<f4").tobytes())
    p = tmp_path / "part.klv2"
    p.write_bytes(data)
    notes: list[str] = []
    t = LeaveTable.load(p, note=notes.append)
    assert t.meta["klv"]["missing"] == 1_437_656 - 4
    assert notes == [f"{p}: 1,437,652 of 1,437,656 leaves are not in the table (valued 0); "
                     f"1 of its words are not leaves of the tile set (ignored)"]
    full = tmp_path / "full.klv2"
    full.write_bytes(klv_bytes(np.zeros(idx.size, dtype=np.float32)))
    LeaveTable.load(full, note=notes.append)
    assert len(notes) == 1  # a complete table: no note


def test_default_cache_is_checksummed_and_repaired(tmp_path, monkeypatch):
    monkeypatch.setenv("GSE_CACHE_DIR", str(tmp_path))
    L._DEFAULT.clear()
    try:
        notes: list[str] = []
        t = default_table(progress=notes.append)
        assert len(notes) == 1 and "first use" in notes[0]
        target = t.path
        pristine = np.array(t.values)
        sums = target.with_name(target.name + ".sha256")
        assert sums.read_text().split()[0] == L.sha256_file(target)
        del t
        L._DEFAULT.clear()
        # a bit flip in the node region (the DAWG of the leaves), as in issue 17 C
        data = bytearray(target.read_bytes())
        data[100] ^= 0x04
        target.write_bytes(bytes(data))
        t2 = default_table(progress=notes.append)
        assert len(notes) == 2 and "does not match its checksum" in notes[1]
        assert np.array_equal(np.asarray(t2.values), pristine)
        L._DEFAULT.clear()
        default_table(progress=notes.append)  # intact now: no note, no unpacking
        assert len(notes) == 2
    finally:
        L._DEFAULT.clear()


def test_default_table_is_rechecked_only_when_a_file_changes(tmp_path, monkeypatch):
    """Repeated calls do not hash the packaged table again; a changed packaged file or cached copy
    (size, mtime, inode) is noticed and the table is checked again."""
    import shutil

    monkeypatch.setenv("GSE_CACHE_DIR", str(tmp_path / "cache"))
    data = tmp_path / "data"
    data.mkdir()
    for f in ("leaves-german.klv2.xz", "leaves-german.json"):
        shutil.copy(L.data_path("leaves-german").with_name(f), data / f)
    monkeypatch.setattr(L, "data_path", lambda name: data / f"{name}.klv2.xz")
    calls = []
    real = L.sha256_file
    monkeypatch.setattr(L, "sha256_file", lambda p: calls.append(Path(p).name) or real(p))
    L._DEFAULT.clear()
    try:
        t = default_table()
        assert calls.count("leaves-german.klv2.xz") == 1
        for _ in range(5):
            assert default_table() is t
        assert calls.count("leaves-german.klv2.xz") == 1  # no re-hash while nothing changed
        os.utime(data / "leaves-german.klv2.xz", ns=(1, 1))  # the packaged file changed (mtime)
        t2 = default_table()
        assert calls.count("leaves-german.klv2.xz") == 2 and np.array_equal(t2.values, t.values)
        assert default_table() is t2
        target = Path(t2.path)  # the cached copy is damaged: noticed, unpacked again
        del t, t2
        raw = bytearray(target.read_bytes())
        raw[100] ^= 0x04
        target.unlink()
        target.write_bytes(bytes(raw))
        notes = []
        t3 = default_table(progress=notes.append)
        assert len(notes) == 1 and "does not match its checksum" in notes[0]
        assert default_table() is t3
    finally:
        L._DEFAULT.clear()
