"""Issue 17, director items: nothing wrong gets through the journal, the command order, a full
disk, a read-only event directory, a submit that loses the race with close; fault injection
(kill -9 at random points of a writer) that stays in the suite."""

from __future__ import annotations

import csv
import errno
import json
import os
import random
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cli.main import main
from engine.director.export import STAMP_FILE
from engine.director.journal import Journal, JournalError, encode_record, try_decode
from engine.director.repair import apply_repair, plan_repair
from engine.director.store import EventDir, OutputError, export_stamp
from engine.movegen.generator import generate_moves

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ["Ana", "Ben", "Cal"]


class Clock:
    """A fake clock: each call advances ``step`` seconds."""

    def __init__(self, t: float = 1_800_000_000.0, step: float = 1.0):
        self.t, self.step = t, step

    def __call__(self) -> float:
        self.t += self.step
        return self.t


def run(capsys, *argv):
    code = main(["simultan", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def error_lines(err: str) -> list[str]:
    assert "Traceback" not in err
    return [ln for ln in err.splitlines() if not ln.startswith("note: ")]


def low_move(ev, lex):
    top = ev.current.top_score
    return next(m for m in generate_moves(ev.board, ev.rack, lex).sorted() if m.score < top)


@pytest.fixture
def lex(golden_lexicon):
    return golden_lexicon


def new_event(path, lex, export=False, clock=None, players=PLAYERS) -> EventDir:
    return EventDir.create(path, players, seed=42, lexicon=lex, lexicon_path=str(lex.path), now=clock or Clock(),
                           export=export, notes=None)


# ---------------------------------------------------------------------------
# A. the journal: a verified line is never dropped
# ---------------------------------------------------------------------------
def test_a_verified_line_without_its_newline_is_kept(tmp_path, capsys, lex):
    """The issue's reproduction: a complete, checksummed entry whose newline is replaced by a
    space must count, and the next command must not move it to journal.torn."""
    ev_dir = tmp_path / "E"
    assert run(capsys, "new", ev_dir, "--players", "Ana", "Ben", "--seed", 2024, "--lexicon", lex.path)[0] == 0
    assert run(capsys, "round", ev_dir, "--start")[0] == 0
    ev = EventDir(ev_dir, lex, notes=None).load()
    top = ev.current.tops[0].notation
    assert run(capsys, "submit", ev_dir, "Ana", top)[0] == 0
    journal = ev_dir / "journal.jsonl"
    data = journal.read_bytes()
    journal.write_bytes(data[:-1] + b" ")          # truncate -s -1; printf ' ' >>
    code, out, err = run(capsys, "submit", ev_dir, "Ben", top)
    assert code == 0, err
    assert "removed" not in err and not (ev_dir / "journal.torn").exists()
    records = Journal(ev_dir).read()
    assert [r["seq"] for r in records] == [1, 2, 3, 4]
    assert [(r["type"], r.get("player")) for r in records[2:]] == [("submit", "Ana"), ("submit", "Ben")]
    assert set(EventDir(ev_dir, lex, notes=None).load().current.submissions) == {"Ana", "Ben"}


def test_an_unverified_unterminated_tail_is_an_interrupted_write(tmp_path, lex):
    d = new_event(tmp_path / "ev", lex)
    journal = tmp_path / "ev" / "journal.jsonl"
    good = journal.read_bytes()
    half = encode_record({"seq": 2, "type": "start", "time": 1.0, "round": 1})[:-9]
    journal.write_bytes(good + half)
    assert Journal(tmp_path / "ev").read()[-1]["seq"] == 1
    d.start()
    assert (tmp_path / "ev" / "journal.torn").read_bytes().endswith(half + b"\n")
    assert [r["type"] for r in Journal(tmp_path / "ev").read()] == ["new", "start"]


@pytest.mark.parametrize("damage", ["terminated", "wrong-seq-tail"])
def test_other_damage_is_an_error_naming_repair(tmp_path, lex, damage):
    d = new_event(tmp_path / "ev", lex)
    d.start()
    journal = tmp_path / "ev" / "journal.jsonl"
    data = journal.read_bytes()
    if damage == "terminated":
        journal.write_bytes(data.replace(b'"type":"start"', b'"type":"stArt"'))
        match = "line 2: checksum mismatch"
    else:  # a verified line without newline whose number does not follow
        journal.write_bytes(data + encode_record({"seq": 7, "type": "start", "time": 1.0, "round": 1})[:-1])
        match = "line 3: entry number 7, expected 3"
    with pytest.raises(JournalError, match=match) as info:
        EventDir(tmp_path / "ev", lex, notes=None).load()
    assert "simultan repair" in str(info.value)


def _submitted(path, lex) -> tuple[Path, bytes, dict]:
    """An event whose last journal entry is Ana's submission: (journal, its bytes, that entry)."""
    d = new_event(path, lex)
    ev = d.load()
    d.start()
    d.submit("Ana", ev.current.tops[0].notation)
    journal = path / "journal.jsonl"
    return journal, journal.read_bytes(), Journal(path).read()[-1]


def test_every_one_byte_change_of_the_last_4_bytes_keeps_or_refuses(tmp_path, lex):
    """Issue 26.1: a complete, acknowledged last entry whose final byte was changed is damage, not an
    interrupted write: the journal refuses (pointing to repair), never drops the entry silently."""
    journal, good, last = _submitted(tmp_path / "ev", lex)
    refused = kept = 0
    for pos in range(len(good) - 4, len(good)):
        for byte in range(256):
            if byte == good[pos]:
                continue
            data = bytearray(good)
            data[pos] = byte
            journal.write_bytes(bytes(data))
            j = Journal(tmp_path / "ev")
            try:
                records = j.read()
            except JournalError as exc:
                assert "simultan repair" in str(exc), (pos, byte)
                refused += 1
                continue
            assert records[-1] == last and not j.torn, (pos - len(good), byte)
            kept += 1
    assert refused + kept == 4 * 255
    assert kept == 3  # the newline replaced by JSON white space (" ", "\t", "\r"): verified, kept
    # the reproduction: x, \x0b, * in place of the newline; the next command refuses and repair keeps the entry
    for byte in b"x\x0b*":
        journal.write_bytes(good[:-1] + bytes([byte]))
        with pytest.raises(JournalError, match="line 3: the last entry is complete but its end is damaged"):
            EventDir(tmp_path / "ev", lex, notes=None).load()
        plan = plan_repair(tmp_path / "ev", lex)
        assert plan.records[-1] == last and not plan.torn and not plan.lost


@pytest.mark.parametrize("back", [1, 2, 3, 4])
@pytest.mark.parametrize("byte", [0x00, 0x0A, 0x0B, 0x20, 0x2A, 0x78, 0x7D, 0x22, 0xFF])
def test_repair_keeps_the_last_entry_after_any_one_byte_change_of_its_end(tmp_path, lex, back, byte):
    """Issue 26.1: `simultan repair` keeps the entry: one changed byte (even a newline put in or
    taken out) is found and mended because the mended line's checksum verifies."""
    journal, good, last = _submitted(tmp_path / "ev", lex)
    pos = len(good) - back
    if good[pos] == byte:
        pytest.skip("no change")
    data = bytearray(good)
    data[pos] = byte
    journal.write_bytes(bytes(data))
    plan = plan_repair(tmp_path / "ev", lex)
    assert [r["seq"] for r in plan.records] == [1, 2, 3] and plan.records[-1] == last
    if back == 1 and byte == 0x20:  # the newline became JSON white space: the line verifies as it is
        assert plan.intact
        return
    assert not plan.lost and not plan.torn and plan.mended == [(3, 3)]
    apply_repair(plan)
    assert Journal(tmp_path / "ev").read()[-1] == last
    assert journal.read_bytes() == good


def test_every_cut_of_an_acknowledged_last_entry_is_refused_and_repair_restores_it(tmp_path, capsys, lex):
    """report-attack26l: `truncate -s -3 journal.jsonl` after a submission that printed success made the
    entry look like an interrupted write, and the next command dropped it ("never acknowledged").
    journal.ack names the acknowledged entry: every cut of its line is refused, never dropped, and
    repair takes the entry back whole from journal.ack."""
    journal, good, last = _submitted(tmp_path / "ev", lex)
    line_len = len(good) - good.rstrip(b"\n").rfind(b"\n") - 1      # the last line with its newline
    assert json.loads((tmp_path / "ev" / "journal.ack").read_text())["seq"] == last["seq"] == 3
    for cut in range(1, line_len + 1):
        journal.write_bytes(good[:-cut])
        j = Journal(tmp_path / "ev")
        if cut == 1:                                # only the newline is gone: the line verifies and counts
            assert j.read()[-1] == last and not j.torn
            continue
        with pytest.raises(JournalError, match="entry 3 was acknowledged") as info:
            j.read()
        assert "simultan repair" in str(info.value) and "line 3" in str(info.value), cut
        plan = plan_repair(tmp_path / "ev", lex)
        assert plan.records[-1] == last and plan.from_ack == [3], cut
        assert not plan.torn and not plan.lost and "never acknowledged" not in "\n".join(plan.lines())
    # a changing command refuses too: the entry stays where it is, nothing goes to journal.torn
    cut = good[:-3]
    journal.write_bytes(cut)
    code, _out, err = run(capsys, "submit", tmp_path / "ev", "Ben", "-")
    assert code == 2 and "line 3: entry 3 was acknowledged (journal.ack) but its line is cut short" in err
    assert journal.read_bytes() == cut and not (tmp_path / "ev" / "journal.torn").exists()
    code, out, _err = run(capsys, "repair", tmp_path / "ev", "--lexicon", lex.path)
    assert code == 1 and "recovered from journal.ack (the last acknowledged entry): entry 3" in out
    assert "never acknowledged" not in out
    code, _out, err = run(capsys, "repair", tmp_path / "ev", "--lexicon", lex.path, "--apply")
    assert code == 0, err
    assert journal.read_bytes() == good and Journal(tmp_path / "ev").read()[-1] == last
    # the whole line gone: the journal ends before the acknowledged entry
    other = shutil.copytree(tmp_path / "ev", tmp_path / "ev2")
    (other / "journal.jsonl").write_bytes(good[:-line_len])
    with pytest.raises(JournalError, match="line 3: the journal ends after entry 2, but entry 3 was acknowledged"):
        Journal(other).read()
    plan = plan_repair(other, lex)
    assert plan.records[-1] == last and plan.from_ack == [3]
    apply_repair(plan)
    assert (other / "journal.jsonl").read_bytes() == good
    d = EventDir(other, lex, notes=None, export=False)              # the event goes on
    d.submit("Ben", "-")
    assert [r["seq"] for r in Journal(other).read()] == [1, 2, 3, 4]


def test_a_torn_write_after_the_acknowledged_entry_is_still_removed(tmp_path, capsys, lex):
    """A crash during the journal write leaves a cut-short line numbered one above journal.ack:
    an interrupted write, removed as before; a crash between the journal's fsync and the ack
    leaves a complete line, which counts."""
    journal, good, last = _submitted(tmp_path / "ev", lex)
    half = encode_record({"seq": 4, "type": "submit", "time": 9.0, "round": 1, "player": "Ben", "move": "-"})[:-30]
    journal.write_bytes(good + half)
    j = Journal(tmp_path / "ev")
    assert j.read()[-1] == last and j.torn == half
    plan = plan_repair(tmp_path / "ev", lex)
    assert plan.torn == half and not plan.from_ack and plan.records[-1] == last
    assert "interrupted write at the end (%d bytes, never acknowledged)" % len(half) in "\n".join(plan.lines())
    code, _out, err = run(capsys, "submit", tmp_path / "ev", "Ben", "-")
    assert code == 0 and "removed an interrupted write" in err, err
    assert (tmp_path / "ev" / "journal.torn").read_bytes().endswith(half + b"\n")
    records = Journal(tmp_path / "ev").read()
    assert [r["seq"] for r in records] == [1, 2, 3, 4] and records[2] == last
    assert (records[3]["seq"], records[3]["player"]) == (4, "Ben")
    assert json.loads((tmp_path / "ev" / "journal.ack").read_text())["seq"] == 4
    # killed after the journal's fsync, before the ack: the complete line counts
    whole = encode_record({**records[3], "seq": 5, "player": "Cal"})
    journal.write_bytes(journal.read_bytes() + whole)
    assert Journal(tmp_path / "ev").read()[-1]["player"] == "Cal"


def test_an_ack_that_cannot_be_written_records_nothing(tmp_path, lex, monkeypatch):
    import engine.director.journal as journal_mod

    journal, good, last = _submitted(tmp_path / "ev", lex)
    ack = (tmp_path / "ev" / "journal.ack").read_bytes()
    real = journal_mod.atomic_write

    def full(path, data, tmp_name=None):
        if Path(path).name == "journal.ack":
            raise OSError(errno.ENOSPC, f"{path}: not written (No space left on device)")
        return real(path, data, tmp_name)

    monkeypatch.setattr(journal_mod, "atomic_write", full)
    with pytest.raises(OSError, match=r"the entry was not recorded: .*journal.ack: not written"):
        EventDir(tmp_path / "ev", lex, notes=None, export=False).submit("Ben", "-")
    monkeypatch.undo()
    assert journal.read_bytes() == good and (tmp_path / "ev" / "journal.ack").read_bytes() == ack
    assert not [p.name for p in (tmp_path / "ev").iterdir() if p.name.endswith(".tmp")]


def test_an_event_without_an_ack_reads_as_before(tmp_path, capsys, lex):
    """An event made by an older version has no journal.ack: a cut-short last line is an interrupted
    write as before (nothing tells it apart), unless a copy in backup/ holds the entry."""
    journal, good, last = _submitted(tmp_path / "ev", lex)
    (tmp_path / "ev" / "journal.ack").unlink()
    assert Journal(tmp_path / "ev").read()[-1] == last             # intact: reads
    journal.write_bytes(good[:-3])
    j = Journal(tmp_path / "ev")
    assert j.read()[-1]["seq"] == 2 and j.torn == good[:-3].rsplit(b"\n", 1)[1]
    code, _out, err = run(capsys, "submit", tmp_path / "ev", "Ben", "-")
    assert code == 0 and "removed an interrupted write" in err, err
    records = Journal(tmp_path / "ev").read()
    assert [r["seq"] for r in records] == [1, 2, 3] and records[2]["player"] == "Ben"
    assert json.loads((tmp_path / "ev" / "journal.ack").read_text())["seq"] == 3   # acknowledged from now on
    # a close is in backup/: its cut-short line was acknowledged even without journal.ack
    d = EventDir(tmp_path / "ev", lex, notes=None, export=False)
    d.close()
    (tmp_path / "ev" / "journal.ack").unlink()
    closed = journal.read_bytes()
    journal.write_bytes(closed[:-3])
    with pytest.raises(JournalError, match=r"line 4: entry 4 was acknowledged \(a copy in backup/\)"):
        Journal(tmp_path / "ev").read()
    plan = plan_repair(tmp_path / "ev", lex)
    assert plan.recovered == [4] and not plan.torn and not plan.lost
    assert "never acknowledged" not in "\n".join(plan.lines())
    apply_repair(plan)
    assert journal.read_bytes() == closed


def _three_rounds(path, lex, clock=None) -> EventDir:
    d = new_event(path, lex, clock=clock)
    for _ in range(3):
        ev = d.load()
        d.start()
        d.submit("Ana", ev.current.tops[0].notation)
        d.submit("Ben", low_move(ev, lex).notation)
        d.close()
    return d


def test_backup_copy_per_closed_round_and_repair_recovers_a_damaged_line(tmp_path, capsys, lex):
    d = _three_rounds(tmp_path / "ev", lex)
    live = d.load().snapshot()
    backups = sorted((tmp_path / "ev" / "backup").iterdir())
    assert [b.name for b in backups] == ["journal-r001.jsonl", "journal-r002.jsonl", "journal-r003.jsonl"]
    journal = tmp_path / "ev" / "journal.jsonl"
    assert backups[-1].read_bytes() == journal.read_bytes()      # the copy after the last close is whole
    # two changed bytes in round 1's submission (line 3) blocks everything ...
    lines = journal.read_bytes().split(b"\n")
    lines[2] = lines[2].replace(b'"Ana"', b'"Xnb"')  # two bytes: beyond what repair can mend
    journal.write_bytes(b"\n".join(lines))
    code, _out, err = run(capsys, "standings", tmp_path / "ev")
    assert code == 2 and "line 3: checksum mismatch" in error_lines(err)[0]
    # ... repair shows what it would do and changes nothing without --apply
    damaged = journal.read_bytes()
    code, out, _err = run(capsys, "repair", tmp_path / "ev", "--lexicon", lex.path)
    assert code == 1 and "recovered from backup/: entry 3" in out and "lost:" not in out
    assert journal.read_bytes() == damaged
    code, out, err = run(capsys, "repair", tmp_path / "ev", "--lexicon", lex.path, "--apply")
    assert code == 0, err
    assert EventDir(tmp_path / "ev", lex, notes=None).load().snapshot() == live
    kept = [p for p in (tmp_path / "ev").iterdir() if p.name.startswith("journal.damaged-")]
    assert len(kept) == 1 and kept[0].read_bytes() == damaged
    code, out, _err = run(capsys, "repair", tmp_path / "ev", "--lexicon", lex.path)
    assert code == 0 and "nothing to repair" in out


def test_repair_without_a_copy_keeps_every_entry_that_still_fits(tmp_path, lex):
    clock = Clock()
    d = new_event(tmp_path / "ev", lex, clock=clock)
    ev = d.load()
    d.start()
    d.submit("Ana", ev.current.tops[0].notation)          # line 3: will be damaged
    d.submit("Ben", low_move(ev, lex).notation)            # line 4
    d.submit("Cal", "-")                                   # line 5
    journal = tmp_path / "ev" / "journal.jsonl"
    lines = journal.read_bytes().split(b"\n")
    lines[2] = lines[2][:20] + b"##" + lines[2][22:]     # two bytes: beyond what repair can mend
    journal.write_bytes(b"\n".join(lines))
    plan = plan_repair(tmp_path / "ev", lex)
    assert [w for w, _why in plan.lost] == ["line 3"]
    assert [(r["seq"], r["type"], r.get("player")) for r in plan.records] == [
        (1, "new", None), (2, "start", None), (3, "submit", "Ben"), (4, "submit", "Cal")]
    apply_repair(plan)
    ev = EventDir(tmp_path / "ev", lex, notes=None).load()
    assert set(ev.current.submissions) == {"Ben", "Cal"}
    d2 = EventDir(tmp_path / "ev", lex, notes=None, export=False)
    d2.submit("Ana", ev.current.tops[0].notation)          # the event goes on
    assert Journal(tmp_path / "ev").read()[-1]["seq"] == 5


def test_repair_drops_what_depends_on_a_lost_close_and_renumbers_undo(tmp_path, lex):
    d = new_event(tmp_path / "ev", lex)
    ev = d.load()
    d.start()                                   # 2
    d.submit("Ana", ev.current.tops[0].notation)   # 3
    d.close()                                   # 4: will be lost (no backup: removed below)
    d.start()                                   # 5 depends on round 2
    shutil.rmtree(tmp_path / "ev" / "backup")
    journal = tmp_path / "ev" / "journal.jsonl"
    lines = journal.read_bytes().split(b"\n")
    lines[3] = b"garbage"
    journal.write_bytes(b"\n".join(lines))
    plan = plan_repair(tmp_path / "ev", lex)
    lost = dict(plan.lost)
    assert set(lost) == {"line 4", "entry 5"} and "does not fit" in lost["entry 5"]
    assert [r["type"] for r in plan.records] == ["new", "start", "submit"]


# ---------------------------------------------------------------------------
# A. exports follow the journal; undo guard
# ---------------------------------------------------------------------------
def test_exports_are_rebuilt_on_the_next_read_after_a_kill(tmp_path, capsys, lex, monkeypatch):
    d = new_event(tmp_path / "ev", lex, export=True)
    d.start()
    exp = tmp_path / "ev" / "export"
    # the command dies after its journal entry, before the exports (simulated: the writer raises)
    import engine.director.export as export_mod

    def dies(*_a, **_k):
        raise KeyboardInterrupt

    monkeypatch.setattr(export_mod, "write_exports", dies)
    with pytest.raises(KeyboardInterrupt):
        d.close()
    monkeypatch.undo()
    records = Journal(tmp_path / "ev").read()
    assert records[-1]["type"] == "close"
    stale = json.loads((exp / "results.json").read_text(encoding="utf-8"))
    assert stale["status"]["open_round"] == 1                     # export/ still shows round 1
    code, out, err = run(capsys, "round", tmp_path / "ev")
    assert code == 0 and "rebuilt" in err, err
    res = json.loads((exp / "results.json").read_text(encoding="utf-8"))
    assert res["status"]["open_round"] == 2 and res["rounds"][0]["round"] == 1
    master = list(csv.DictReader(open(exp / "master.csv", encoding="utf-8")))
    assert [int(r["round"]) for r in master] == [1]               # master.csv and results.json agree
    assert json.loads((exp / STAMP_FILE).read_text()) == export_stamp(records)
    assert "projector page:" in out


def test_undo_expect_guards_a_retried_undo(tmp_path, capsys, lex):
    d = new_event(tmp_path / "ev", lex)
    ev = d.load()
    d.start()                                             # entry 2
    d.submit("Ana", ev.current.tops[0].notation)          # entry 3
    d.submit("Ben", low_move(ev, lex).notation)           # entry 4
    code, out, _ = run(capsys, "undo", tmp_path / "ev", "--show")
    assert code == 0 and "entry 4: Ben's move" in out and "--expect 4" in out
    code, out, err = run(capsys, "undo", tmp_path / "ev", "--expect", 4)
    assert code == 0 and out.startswith("undone: entry 4: Ben's move"), err
    journal = (tmp_path / "ev" / "journal.jsonl").read_bytes()
    # the same command again (it was killed after writing, the director retries): refused
    code, _out, err = run(capsys, "undo", tmp_path / "ev", "--expect", 4)
    assert code == 2 and "the last action is entry 3 (Ana's move" in error_lines(err)[0]
    assert (tmp_path / "ev" / "journal.jsonl").read_bytes() == journal
    assert set(EventDir(tmp_path / "ev", lex, notes=None).load().current.submissions) == {"Ana"}


# ---------------------------------------------------------------------------
# 3. commands in the wrong order
# ---------------------------------------------------------------------------
def test_submit_and_close_need_a_started_round(tmp_path, capsys, lex):
    ev_dir = tmp_path / "club"
    assert run(capsys, "new", ev_dir, "--players", "Ana", "Ben", "--seed", 42, "--lexicon", lex.path)[0] == 0
    journal = ev_dir / "journal.jsonl"
    before = journal.read_bytes()
    ev = EventDir(ev_dir, lex, notes=None).load()
    code, out, err = run(capsys, "submit", ev_dir, "Ana", ev.current.tops[0].notation)
    assert code == 2 and out == "" and "round 1 has not started" in error_lines(err)[0]
    code, _out, err = run(capsys, "close", ev_dir)
    assert code == 2 and "round 1 has not started" in error_lines(err)[0]
    assert journal.read_bytes() == before
    assert run(capsys, "round", ev_dir, "--start")[0] == 0
    assert run(capsys, "submit", ev_dir, "Ana", ev.current.tops[0].notation)[0] == 0
    assert run(capsys, "close", ev_dir)[0] == 0
    rack2 = EventDir(ev_dir, lex, notes=None).load().current.rack
    after_close = journal.read_bytes()
    # a second close without --round: round 2 has not started, so nothing happens
    code, _out, err = run(capsys, "close", ev_dir)
    assert code == 2 and "round 2 has not started" in error_lines(err)[0]
    code, _out, err = run(capsys, "submit", ev_dir, "Ben", "-")
    assert code == 2 and "round 2 has not started" in error_lines(err)[0]
    assert journal.read_bytes() == after_close
    ev = EventDir(ev_dir, lex, notes=None).load()
    assert ev.current.number == 2 and ev.current.rack == rack2 and len(ev.closed_rounds) == 1


@pytest.mark.parametrize("players, message", [
    (["", "Ben"], "empty player name"),
    (["Ana,,Ben"], "empty player name"),
    (["Ana", "ANA"], "given twice"),
])
def test_new_refuses_empty_and_duplicate_names(tmp_path, capsys, lex, players, message):
    code, _out, err = run(capsys, "new", tmp_path / "e", "--players", *players, "--lexicon", lex.path)
    assert code == 2 and message in error_lines(err)[0]
    assert not (tmp_path / "e" / "journal.jsonl").exists()


def test_late_submissions_are_recorded_and_flagged(tmp_path, lex):
    from engine.director.export import write_exports

    clock = Clock()
    d = new_event(tmp_path / "ev", lex, clock=clock)       # round time 180 s
    ev = d.load()
    d.start()
    started = clock.t
    d.submit("Ana", ev.current.tops[0].notation)          # 1 s after the start
    clock.t = started + 179.0                             # the next call is at 180 s: still in time
    d.submit("Ben", low_move(ev, lex).notation)
    clock.t = started + 199.5                             # the next call is 20.5 s past the round time
    late = d.submit("Cal", ev.current.tops[0].notation)
    assert late.late == 20.5 and late.time == started + 200.5
    assert late.score == ev.current.top_score                 # the move counts; the penalty is the director's
    d.close()
    ev = d.load()
    rnd = ev.closed_rounds[0]
    assert {p: s.late for p, s in rnd.submissions.items()} == {"Ana": None, "Ben": None, "Cal": 20.5}
    st = {s.player: s.late for s in ev.standings()}
    assert st == {"Ana": 0, "Ben": 0, "Cal": 1}
    write_exports(ev, tmp_path / "out")
    rows = {r["player"]: r for r in csv.DictReader(open(tmp_path / "out" / "rounds.csv", encoding="utf-8"))}
    assert (rows["Ana"]["late"], rows["Cal"]["late"]) == ("", "20.5")
    res = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    assert res["rounds"][0]["players"]["Cal"]["late"] == 20.5 and res["standings"][0]["late"] in (0, 1)
    srows = {r["player"]: r["late"] for r in csv.DictReader(open(tmp_path / "out" / "standings.csv",
                                                                  encoding="utf-8"))}
    assert srows == {"Ana": "0", "Ben": "0", "Cal": "1"}


# ---------------------------------------------------------------------------
# 8. a submit that loses the race with close
# ---------------------------------------------------------------------------
def test_submit_losing_the_race_with_close_says_the_round_is_closed(tmp_path, capsys, lex, monkeypatch):
    ev_dir = tmp_path / "club"
    assert run(capsys, "new", ev_dir, "--players", "Ana", "Ben", "--seed", 42, "--lexicon", lex.path)[0] == 0
    assert run(capsys, "round", ev_dir, "--start")[0] == 0
    ev = EventDir(ev_dir, lex, notes=None).load()
    move = ev.current.tops[0].notation
    real_load = EventDir.load
    raced = []

    def load_then_close(self, *a, **k):                  # the other director closes right after our read
        out = real_load(self, *a, **k)
        if not raced:
            raced.append(1)
            EventDir(ev_dir, lex, notes=None, export=False).close()
        return out

    monkeypatch.setattr(EventDir, "load", load_then_close)
    code, out, err = run(capsys, "submit", ev_dir, "Ben", move)
    assert raced and code == 2 and out == ""
    assert error_lines(err) == ["error: round 1 is closed (the open round is 2); nothing recorded"]
    assert all(r["type"] != "submit" for r in Journal(ev_dir).read())


# ---------------------------------------------------------------------------
# 5. a read-only event directory can be viewed
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("lock_file", [True, False])
def test_read_only_event_can_be_viewed(tmp_path, capsys, lex, monkeypatch, lock_file):
    d = new_event(tmp_path / "ev", lex, export=True)
    d.start()
    if not lock_file:                                   # copied without it: none can be made either
        (tmp_path / "ev" / "lock").unlink()
    root = str(tmp_path / "ev")
    real_open = os.open

    def read_only_open(path, flags, *a, **k):           # as a read-only mount answers (root ignores chmod)
        if str(path).startswith(root) and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            raise OSError(errno.EROFS, "Read-only file system", str(path))
        return real_open(path, flags, *a, **k)

    monkeypatch.setattr(os, "open", read_only_open)
    code, out, err = run(capsys, "round", tmp_path / "ev")
    assert code == 0 and "round 1" in out and not error_lines(err), err
    code, out, err = run(capsys, "standings", tmp_path / "ev", "--json")
    assert code == 0 and json.loads(out)["standings"][0]["player"] == "Ana"
    code, _out, err = run(capsys, "round", tmp_path / "ev", "--start")
    assert code == 2 and "read-only" in error_lines(err)[0]


# ---------------------------------------------------------------------------
# 4. a full disk is not reported as success
# ---------------------------------------------------------------------------
def _enospc_after(monkeypatch, n_ok: int, where: str):
    """os.write raises ENOSPC after ``n_ok`` successful writes into files under ``where``."""
    real = os.write
    count = [0]
    paths = {}
    real_open = os.open

    def tracking_open(path, flags, *a, **k):
        fd = real_open(path, flags, *a, **k)
        paths[fd] = str(path)
        return fd

    def write(fd, data):
        if paths.get(fd, "").startswith(where):
            count[0] += 1
            if count[0] > n_ok:
                raise OSError(errno.ENOSPC, "No space left on device")
        return real(fd, data)

    monkeypatch.setattr(os, "open", tracking_open)
    monkeypatch.setattr(os, "write", write)


def test_full_disk_during_exports_is_an_error_and_leaves_no_temp(tmp_path, capsys, lex, monkeypatch):
    ev_dir = tmp_path / "club"
    assert run(capsys, "new", ev_dir, "--players", "Ana", "--seed", 42, "--lexicon", lex.path)[0] == 0
    assert run(capsys, "round", ev_dir, "--start")[0] == 0
    shutil.rmtree(ev_dir / "export")
    _enospc_after(monkeypatch, 2, str(ev_dir / "export"))
    code, out, err = run(capsys, "close", ev_dir)
    monkeypatch.undo()
    lines = error_lines(err)
    assert code == 2 and len(lines) == 1
    assert "round 1 closed (recorded in the journal), but the exports were not written" in lines[0]
    assert "standings.csv: not written (No space left on device)" in lines[0]
    assert "projector page" not in out
    assert sorted(p.name for p in (ev_dir / "export").iterdir()) == ["master.csv", "rounds.csv"]
    assert Journal(ev_dir).read()[-1]["type"] == "close"
    # space again: the next command rebuilds everything
    code, out, err = run(capsys, "round", ev_dir)
    assert code == 0 and "projector page:" in out
    assert json.loads((ev_dir / "export" / "results.json").read_text())["status"]["open_round"] == 2


def test_full_disk_during_the_journal_write_records_nothing(tmp_path, capsys, lex, monkeypatch):
    ev_dir = tmp_path / "club"
    assert run(capsys, "new", ev_dir, "--players", "Ana", "--seed", 42, "--lexicon", lex.path)[0] == 0
    before = (ev_dir / "journal.jsonl").read_bytes()
    real = os.write

    def short_then_full(fd, data):          # half the line goes out, then the disk is full
        if len(data) > 40 and os.fstat(fd).st_size == len(before):
            real(fd, bytes(data[: len(data) // 2]))
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(fd, data)

    monkeypatch.setattr(os, "write", short_then_full)
    code, _out, err = run(capsys, "round", ev_dir, "--start")
    monkeypatch.undo()
    assert code == 2 and "journal.jsonl: the entry was not recorded (No space left on device)" in error_lines(err)[0]
    assert (ev_dir / "journal.jsonl").read_bytes() == before          # cut back: no partial entry


def test_tiny_tmpfs(tmp_path, capsys, lex):
    """A real full disk: a 192 KiB tmpfs (root only; skipped where mounting is not allowed): room
    for the event and one set of exports, then filled to the last byte."""
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=192k", "tmpfs", str(mnt)],
                                          capture_output=True).returncode != 0:
        pytest.skip("mounting a tmpfs is not allowed here")
    try:
        ev_dir = mnt / "club"
        code, out, err = run(capsys, "new", ev_dir, "--players", "Ana", "Ben", "--seed", 42, "--lexicon", lex.path)
        assert code in (0, 2) and "Traceback" not in err
        page = ev_dir / "export" / "current.html"
        assert ("projector page:" in out) == page.is_file(), (out, err)
        if code == 2:
            assert "(recorded in the journal), but" in error_lines(err)[0]
        assert Journal(ev_dir).read()[0]["type"] == "new"
        # fill the disk to the last byte, then try to change the event
        fd = os.open(mnt / "filler", os.O_WRONLY | os.O_CREAT)
        try:
            for _ in range(1_000_000):              # bounded: 512 MB at most
                os.write(fd, b"x" * 512)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
        finally:
            os.close(fd)
        before = (ev_dir / "journal.jsonl").read_bytes()
        code, out, err = run(capsys, "round", ev_dir, "--start")
        assert code == 2 and "No space left on device" in error_lines(err)[0]
        if (ev_dir / "journal.jsonl").read_bytes() != before:  # the entry fitted in the file's last page
            assert "(recorded in the journal), but" in error_lines(err)[0]
            assert Journal(ev_dir).read()[-1]["type"] == "start"
        for d in (ev_dir, ev_dir / "export", ev_dir / "backup"):
            if d.is_dir():
                assert not [p.name for p in d.iterdir() if p.name.endswith(".tmp")]
        assert "projector page:" not in out
        os.unlink(mnt / "filler")
        code, out, err = run(capsys, "round", ev_dir)
        assert code == 0 and "projector page:" in out, err
        stamp = json.loads((ev_dir / "export" / STAMP_FILE).read_text())
        assert stamp == export_stamp(Journal(ev_dir).read())
    finally:
        subprocess.run(["umount", str(mnt)], capture_output=True)


# ---------------------------------------------------------------------------
# fault injection: kill -9 at random points of a director writer
# ---------------------------------------------------------------------------
_KILLER = r"""
import os, signal, sys
from lexicon_tools.bundle import Lexicon
from engine.director.store import EventDir
lex = Lexicon.load(sys.argv[2])
k = int(sys.argv[3])
calls = [0]
def hooked(real):
    def f(*a, **kw):
        calls[0] += 1
        if calls[0] == k:
            os.kill(os.getpid(), signal.SIGKILL)
        return real(*a, **kw)
    return f
os.write, os.fsync, os.replace, os.unlink = (hooked(os.write), hooked(os.fsync), hooked(os.replace),
                                              hooked(os.unlink))
if sys.argv[4] == "new":
    EventDir.create(sys.argv[1], ["Ana", "Ben"], seed=42, lexicon=lex, lexicon_path=sys.argv[2], notes=None)
else:
    EventDir(sys.argv[1], lexicon=lex, notes=None).close()
print(calls[0])
"""


def test_kill_at_random_points_of_close_never_leaves_accepted_damage(tmp_path, lex):
    template = tmp_path / "template"
    d = new_event(template, lex, export=True)
    ev = d.load()
    d.start()
    d.submit("Ana", ev.current.tops[0].notation)
    d.submit("Ben", "-")

    def child(target: Path, k: int) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-c", _KILLER, str(target), str(lex.path), str(k), "close"],
                              cwd=ROOT, capture_output=True, text=True, timeout=300)

    full = child(shutil.copytree(template, tmp_path / "full"), 10 ** 9)
    assert full.returncode == 0, full.stderr
    n_calls = int(full.stdout)                # every write, fsync, rename and unlink a close makes
    assert n_calls > 20
    rng = random.Random(17)
    for k in [1, 2] + rng.sample(range(3, n_calls + 1), 3):
        target = shutil.copytree(template, tmp_path / f"k{k}")
        proc = child(target, k)
        assert proc.returncode == -signal.SIGKILL, proc.stderr
        reader = EventDir(target, lex, notes=None)            # the next reading command
        ev = reader.load()
        records = Journal(target).read()
        closed = records[-1]["type"] == "close"
        assert ev.current.number == (2 if closed else 1) and len(ev.closed_rounds) == int(closed)
        assert set(ev.closed_rounds[0].submissions if closed else ev.current.submissions) == {"Ana", "Ben"}
        exp = target / "export"
        assert json.loads((exp / STAMP_FILE).read_text()) == export_stamp(records)
        res = json.loads((exp / "results.json").read_text(encoding="utf-8"))
        assert res["status"]["open_round"] == ev.current.number
        assert len(list(csv.DictReader(open(exp / "rounds.csv", encoding="utf-8")))) == 3 * int(closed)
        assert (exp / "round-01.svg").exists() == closed
        assert not [p.name for p in exp.iterdir() if p.name.endswith(".tmp")]
        # and the event goes on
        if not closed:
            reader.close()
        assert reader.load().current.number == 2


def test_kill_at_random_points_of_new_never_leaves_accepted_damage(tmp_path, lex):
    def child(target: Path, k: int) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-c", _KILLER, str(target), str(lex.path), str(k), "new"],
                              cwd=ROOT, capture_output=True, text=True, timeout=300)

    full = child(tmp_path / "full", 10 ** 9)
    assert full.returncode == 0, full.stderr
    n_calls = int(full.stdout)
    reference = EventDir(tmp_path / "full", lex, notes=None).load().snapshot()
    rng = random.Random(5)
    for k in [1, 2] + rng.sample(range(3, n_calls + 1), 2):
        target = tmp_path / f"k{k}"
        proc = child(target, k)
        assert proc.returncode == -signal.SIGKILL, proc.stderr
        try:
            ev = EventDir(target, lex, notes=None).load()
        except JournalError as exc:        # killed before the `new` entry was on disk: no event
            assert "empty journal" in str(exc) or "not an event directory" in str(exc)
            ev = new_event(target, lex, export=True).load()   # and `new` can be run again
        assert ev.snapshot()["rounds"][0]["rack"] == reference["rounds"][0]["rack"]
        exp = target / "export"
        assert json.loads((exp / STAMP_FILE).read_text()) == export_stamp(Journal(target).read())
        assert json.loads((exp / "results.json").read_text(encoding="utf-8"))["status"]["open_round"] == 1
        assert not [p.name for p in exp.iterdir() if p.name.endswith(".tmp")]


# ---------------------------------------------------------------------------
# property: whatever one damaged byte does, no verified line is ever dropped
# ---------------------------------------------------------------------------
_RECORDS = [{"seq": 1, "type": "new", "time": 1.0, "settings": {"players": ["Ana", "Bön"]}},
            {"seq": 2, "type": "start", "time": 2.0, "round": 1},
            {"seq": 3, "type": "submit", "time": 3.0, "round": 1, "player": "Ana", "move": "8D KIEPE"},
            {"seq": 4, "type": "submit", "time": 4.0, "round": 1, "player": "Bön", "move": "8H KIEPE"}]
_GOOD = b"".join(encode_record(r) for r in _RECORDS)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(["flip", "delete", "insert", "truncate", "replace"]),
       pos=st.integers(0, len(_GOOD) - 1), byte=st.integers(0, 255))
def test_one_damaged_byte_never_drops_a_verified_line(tmp_path, kind, pos, byte):
    data = bytearray(_GOOD)
    if kind == "flip":
        data[pos] ^= 1 << (byte % 8)
    elif kind == "delete":
        del data[pos]
    elif kind == "insert":
        data.insert(pos, byte)
    elif kind == "truncate":
        del data[pos:]
    else:
        data[pos] = byte
    (tmp_path / "journal.jsonl").write_bytes(bytes(data))
    j = Journal(tmp_path)
    try:
        out = j.read()
    except JournalError as exc:
        assert "simultan repair" in str(exc)   # an error always points to the way out
        return
    terminated = bytes(data).count(b"\n")
    assert all(r == _RECORDS[r["seq"] - 1] for r in out)      # nothing read differs from what was written
    assert len(out) >= terminated                           # no newline-terminated line is dropped
    if j.torn:                                              # only a tail that does not verify is left out
        assert len(out) == terminated and not bytes(data).endswith(b"\n")
        assert try_decode(j.torn) is None


def test_api_raises_output_error_after_the_entry_is_recorded(tmp_path, lex, monkeypatch):
    import engine.director.export as export_mod

    d = new_event(tmp_path / "ev", lex, export=True)
    real = export_mod.atomic_write

    def full_at_index(path, data):
        if Path(path).name == "index.html":
            raise OSError(errno.ENOSPC, f"{path}: not written (No space left on device)")
        return real(path, data)

    monkeypatch.setattr(export_mod, "atomic_write", full_at_index)
    with pytest.raises(OutputError, match=r"round 1 started \(recorded in the journal\), but the exports were not "
                                          r"written: .*index.html: not written \(No space left on device\)"):
        d.start()
    assert Journal(tmp_path / "ev").read()[-1]["type"] == "start"
    assert not (tmp_path / "ev" / "export" / STAMP_FILE).exists()   # the next reader sees they are stale


def test_export_status_says_a_round_has_not_started_before_its_clock_runs(tmp_path, lex):
    """Issue 26.11: export/index.html said "Runde 1 läuft" before the round was started."""
    from engine.director.export import status_line

    d = new_event(tmp_path / "ev", lex)
    assert status_line(d.load()) == "Runde 1 noch nicht gestartet · 0 Runden gespielt"
    d.start()
    assert status_line(d.load()) == "Runde 1 läuft · 0 Runden gespielt"


def test_lost_lines_are_noticed_when_the_ack_is_damaged_too(tmp_path, lex):
    """report-attack26l F2: two entries cut off and a byte of journal.ack's line flipped: the journal read as
    whole ("nothing to repair"), the acknowledged entries gone without a word. The damaged ack's seq is
    still readable and says entries are missing."""
    journal, good, last = _submitted(tmp_path / "ev", lex)
    ack = tmp_path / "ev" / "journal.ack"
    data = json.loads(ack.read_text(encoding="utf-8"))
    data["line"] = data["line"].replace('"seq"', '"seQ"', 1)      # its entry no longer verifies
    ack.write_text(json.dumps(data), encoding="utf-8")
    first = good[:good.index(b"\n") + 1]
    journal.write_bytes(first)                                    # entries 2 and 3 gone
    with pytest.raises(JournalError, match=r"line 2: the journal ends after entry 1, and .*journal.ack: damaged "
                                           r"\(its entry does not verify\), but it names entry 3 as acknowledged") as info:
        Journal(tmp_path / "ev").read()
    from engine.lang import tr_in

    assert "Zeile 2: das Journal endet nach Eintrag 1, und " in tr_in("de", str(info.value))
    assert "beschädigt (sein Eintrag stimmt nicht), nennt aber Eintrag 3 als bestätigt" in tr_in("de", str(info.value))
    journal.write_bytes(good)                                     # the journal whole: a damaged ack hides nothing
    assert Journal(tmp_path / "ev").read()[-1] == last


def test_repair_mends_a_damaged_ack_and_names_the_entries_it_acknowledged(tmp_path, lex, capsys):
    """report-attack26l: journal.ack with a wrong crc (or unreadable) and lines lost: every command refused and
    `repair` said "every entry verifies; nothing to repair", so the director was locked out. Now repair names
    the acknowledged entries that are gone and `--apply` writes the ack again; an unreadable ack is refused."""
    journal, good, last = _submitted(tmp_path / "ev", lex)
    ack = tmp_path / "ev" / "journal.ack"
    data = json.loads(ack.read_text(encoding="utf-8"))
    ack.write_text(json.dumps(dict(data, crc="00000000")), encoding="utf-8")
    journal.write_bytes(good[:good.index(b"\n") + 1])                 # entries 2 and 3 gone
    with pytest.raises(JournalError, match="names entry 3 as acknowledged"):
        Journal(tmp_path / "ev").read()
    code, out, _err = run(capsys, "repair", tmp_path / "ev", "--lexicon", lex.path)
    assert code == 1 and "nothing to repair" not in out
    assert "lost: entry 2: acknowledged (journal.ack) but not in the journal or any copy" in out
    assert "lost: entry 3: acknowledged (journal.ack) but not in the journal or any copy" in out
    assert "journal.ack is damaged: written again for the last entry kept" in out
    code, _out, err = run(capsys, "repair", tmp_path / "ev", "--lexicon", lex.path, "--apply")
    assert code == 0, err
    assert [r["seq"] for r in Journal(tmp_path / "ev").read()] == [1]    # the director goes on
    # garbage in the ack, the journal whole: refused (nothing tells whether entries are missing), then mended
    journal.write_bytes(good)
    ack.write_text("garbage", encoding="utf-8")
    with pytest.raises(JournalError, match="journal.ack: damaged: it cannot tell whether acknowledged entries"):
        Journal(tmp_path / "ev").read()
    code, out, err = run(capsys, "repair", tmp_path / "ev", "--lexicon", lex.path, "--apply")
    assert code == 0, err
    assert Journal(tmp_path / "ev").read()[-1] == last


def test_a_repair_killed_before_the_new_journal_keeps_the_acknowledged_entry(tmp_path, lex, monkeypatch):
    """report-attack26l: `repair --apply` removed journal.ack before it wrote the journal; killed in between, the
    cut-short acknowledged entry looked like an interrupted write and the next command dropped it. The ack now
    stays until the new journal is in place; and a directory where the ack belongs is moved aside."""
    from engine.director import repair as repair_mod

    journal, good, last = _submitted(tmp_path / "ev", lex)
    journal.write_bytes(good[:-3])
    write = repair_mod.atomic_write

    def killed(path, data, **kw):
        if Path(path).name == "journal.jsonl":
            raise SystemExit("killed")                # the process ends before the new journal is written
        return write(path, data, **kw)

    monkeypatch.setattr(repair_mod, "atomic_write", killed)
    with pytest.raises(SystemExit):
        apply_repair(plan_repair(tmp_path / "ev", lex))
    monkeypatch.setattr(repair_mod, "atomic_write", write)
    with pytest.raises(JournalError, match="entry 3 was acknowledged"):   # main: read as an interrupted write
        Journal(tmp_path / "ev").read()
    apply_repair(plan_repair(tmp_path / "ev", lex))
    assert Journal(tmp_path / "ev").read()[-1] == last
    # the ack is a directory: refused, and repair --apply moves it aside and writes the ack
    ack = tmp_path / "ev" / "journal.ack"
    ack.unlink()
    ack.mkdir()
    with pytest.raises(JournalError, match="journal.ack"):
        Journal(tmp_path / "ev").read()
    apply_repair(plan_repair(tmp_path / "ev", lex))
    assert ack.is_file() and Journal(tmp_path / "ev").read()[-1] == last


def test_repair_killed_between_the_new_journal_and_the_new_ack_is_repaired_again(tmp_path, lex, capsys):
    """report-attack26m F1: `repair --apply` renumbered the journal and was killed before it wrote the new
    journal.ack; the old ack names the last entry by its old number. Every command said "run repair", and
    repair died with an UnboundLocalError. Now repair writes the ack again and the event goes on."""
    ev = tmp_path / "ev"
    journal, _good, _last = _submitted(ev, lex)
    assert run(capsys, "submit", ev, PLAYERS[1], "-")[0] == 0
    last = Journal(ev).read()[-1]
    lines = journal.read_bytes().splitlines(keepends=True)
    journal.write_bytes(b"".join(lines[:2]) + b"garbage beyond mending\n" + lines[3])   # Ana's entry 3 lost
    old_ack = (ev / "journal.ack").read_bytes()
    apply_repair(plan_repair(ev, lex))
    assert [r["seq"] for r in Journal(ev).read()] == [1, 2, 3]                          # renumbered
    (ev / "journal.ack").write_bytes(old_ack)          # as after a kill between the two renames
    with pytest.raises(JournalError, match="repair"):
        Journal(ev).read()
    code, out, err = run(capsys, "repair", ev, "--lexicon", lex.path)
    assert code == 1 and "Traceback" not in err and "internal error" not in err
    assert "journal.ack is damaged: written again for the last entry kept" in out and "lost:" not in out
    code, _out, err = run(capsys, "repair", ev, "--lexicon", lex.path, "--apply")
    assert code == 0, err
    records = Journal(ev).read()
    assert [r["seq"] for r in records] == [1, 2, 3]
    assert {k: v for k, v in records[-1].items() if k not in ("seq", "crc")} == \
        {k: v for k, v in last.items() if k not in ("seq", "crc")}


def test_a_deleted_journal_is_rebuilt_from_the_ack_and_new_refuses_its_remains(tmp_path, lex, capsys):
    """report-attack26m F2: with journal.jsonl deleted, every command called the folder "not an event
    directory" and advised `simultan new`, which was accepted there and overwrote journal.ack; repair refused
    although journal.ack held the last entry. Now the message says to run repair, repair rebuilds the journal
    from journal.ack and backup/ (naming what is lost), and `new` refuses the folder."""
    ev = tmp_path / "ev"
    assert run(capsys, "new", ev, "--players", *PLAYERS, "--seed", 2024, "--lexicon", lex.path)[0] == 0
    for argv in (("round", ev, "--start"), *(("submit", ev, p, "-") for p in PLAYERS), ("close", ev),
                 ("round", ev, "--start"), ("submit", ev, "Ana", "-"), ("submit", ev, "Ben", "-")):
        assert run(capsys, *argv)[0] == 0, argv
    journal = ev / "journal.jsonl"
    records = Journal(ev).read()
    last = records[-1]
    assert [r["type"] for r in records] == ["new", "start", "submit", "submit", "submit", "close", "start",
                                            "submit", "submit"]
    journal.unlink()
    code, _out, err = run(capsys, "round", ev)
    assert code == 2 and "journal.jsonl is missing" in err and "simultan repair" in err and "simultan new" not in err
    code, _out, err = run(capsys, "new", ev, "--players", "X", "Y", "--seed", 1, "--lexicon", lex.path)
    assert code == 2 and "journal.jsonl is missing" in err
    assert json.loads((ev / "journal.ack").read_text(encoding="utf-8"))["seq"] == last["seq"]   # untouched
    code, out, err = run(capsys, "repair", ev, "--lexicon", lex.path)
    assert code == 1, err
    assert "lost: entry 7" in out and "lost: entry 8" in out                     # after the backup, before the ack
    assert not journal.exists()                                                  # a plan writes nothing
    code, _out, err = run(capsys, "repair", ev, "--lexicon", lex.path, "--apply")
    assert code == 0, err
    kept = Journal(ev).read()
    assert [r["type"] for r in kept] == ["new", "start", "submit", "submit", "submit", "close", "submit"]
    assert {k: v for k, v in kept[-1].items() if k not in ("seq", "crc")} == \
        {k: v for k, v in last.items() if k not in ("seq", "crc")}               # Ben's, from the ack


def test_a_journal_cut_back_by_whole_lines_without_an_ack_is_refused_by_its_backup(tmp_path, lex, capsys):
    """report-attack26m F3: journal.ack gone and the journal cut back to before a round's close: the event was
    read as if the close had never been, and the next close overwrote the backup that still held it. The
    copies in backup/ now tell the entries were there; repair brings them back."""
    ev = tmp_path / "ev"
    assert run(capsys, "new", ev, "--players", *PLAYERS, "--seed", 2024, "--lexicon", lex.path)[0] == 0
    for argv in (("round", ev, "--start"), *(("submit", ev, p, "-") for p in PLAYERS), ("close", ev)):
        assert run(capsys, *argv)[0] == 0, argv
    journal = ev / "journal.jsonl"
    whole = Journal(ev).read()
    journal.write_bytes(b"".join(journal.read_bytes().splitlines(keepends=True)[:3]))
    (ev / "journal.ack").unlink()
    with pytest.raises(JournalError, match=r"ends after entry 3, but a copy in backup/ holds entry 6"):
        Journal(ev).read()
    code, _out, err = run(capsys, "close", ev)
    assert code == 2 and "simultan repair" in err
    code, _out, err = run(capsys, "repair", ev, "--lexicon", lex.path, "--apply")
    assert code == 0, err
    assert [r["type"] for r in Journal(ev).read()] == [r["type"] for r in whole]


@pytest.mark.parametrize("name", ["lock", ".journal.ack.tmp"])
def test_a_directory_in_place_of_the_lock_or_the_acks_temporary_file_is_named(tmp_path, lex, capsys, name):
    """report-attack26m F4: a directory `lock` was reported as "is the directory read-only?", a directory
    `.journal.ack.tmp` as journal.ack not written; the message now names it and says to remove it."""
    ev = tmp_path / "ev"
    assert run(capsys, "new", ev, "--players", *PLAYERS, "--seed", 2024, "--lexicon", lex.path)[0] == 0
    if (ev / name).exists():
        (ev / name).unlink()
    (ev / name).mkdir()
    code, _out, err = run(capsys, "round", ev, "--start")
    assert code == 2 and f"{ev / name} is a directory where" in err and "remove it (rmdir)" in err, err
    assert [r["type"] for r in Journal(ev).read()] == ["new"]         # nothing recorded
    (ev / name).rmdir()
    assert run(capsys, "round", ev, "--start")[0] == 0
