"""Simultaneous Scrabble events: submissions, closing, scoring, standings, undo, bad input,
journal replay after a crash, the lock, exports."""

from __future__ import annotations

import csv
import json
import signal
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from engine.position.board import Board
from engine.director.event import (
    DirectorError,
    Event,
    Rejected,
    Round,
    Settings,
    percent,
    rank_standings,
)
from engine.director.export import write_exports
from engine.director.journal import Journal, JournalError, encode_record, event_lock
from engine.director.rules import SimultanRules
from engine.director.store import EventDir
from engine.director.topmove import TopCandidate
from engine.movegen.generator import generate_moves
from engine.position.moves import Move
from engine.position.scorer import IllegalMove, check_move
from lexicon_tools.alphabet import german

A = german()
ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ["Ana", "Ben", "Cal"]


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------
class Clock:
    """A fake clock: each call advances one second."""

    def __init__(self, t: float = 1_800_000_000.0):
        self.t = t

    def __call__(self) -> float:
        self.t += 1.0
        return self.t


def make_event(path, lexicon, players=PLAYERS, seed=42, rules=None, export=False) -> EventDir:
    return EventDir.create(path, players, seed=seed, rules=rules, lexicon=lexicon, now=Clock(), export=export,
                           notes=None)


def sorted_moves(ev: Event, lexicon) -> list[Move]:
    return generate_moves(ev.board, ev.rack, lexicon).sorted()


def lower_move(ev: Event, lexicon) -> Move:
    """A legal move scoring less than the top."""
    top = ev.current.top_score
    return next(m for m in sorted_moves(ev, lexicon) if m.score < top)


def invalid_word_move(ev: Event, lexicon) -> str:
    """A move on legal squares with tiles from the rack whose word is not in the list."""
    for m in sorted_moves(ev, lexicon):
        new = [i for i, t in enumerate(m.through) if not t]
        for i in new:
            for j in new:
                if i < j and m.word[i] != m.word[j]:
                    w = list(m.word)
                    w[i], w[j] = w[j], w[i]
                    text = Move(m.row, m.col, m.direction, "".join(w), m.through, 0, "").notation
                    try:
                        check_move(ev.board, text, lexicon, rack=ev.rack)
                    except IllegalMove as exc:
                        if "not in the word list" in exc.reason:
                            return text
    raise AssertionError("no invalid-word move found")


def letter_not_on_rack(ev: Event) -> str:
    return next(ch for ch in "QXYJVÖÄÜCPFKZWM" if not ev.rack[A.code(ch)])


@pytest.fixture
def lex(golden_lexicon):
    return golden_lexicon


# ---------------------------------------------------------------------------
# arithmetic by hand
# ---------------------------------------------------------------------------
def test_percent_by_hand():
    assert percent(20, 20) == 100.0
    assert percent(14, 20) == 70.0
    assert percent(110, 150) == 73.33
    assert percent(85, 150) == 56.67
    assert percent(1, 3) == 33.33
    assert percent(0, 0) == 0.0


def test_rank_standings_shares_ranks():
    assert rank_standings({"A": 50, "B": 50, "C": 30}, ["A", "B", "C"]) == [(1, "A"), (1, "B"), (3, "C")]
    assert rank_standings({"A": 10, "B": 50, "C": 30}, ["A", "B", "C"]) == [(1, "B"), (2, "C"), (3, "A")]
    assert rank_standings({"A": 0, "B": 0}, ["B", "A"]) == [(1, "B"), (1, "A")]


def _closed_round(n: int, top: int, scores: dict, bonus: dict | None = None) -> Round:
    t = TopCandidate(f"8H X{n}", top, 0, 0, 2, "")
    return Round(number=n, rack="AEINRST", rejected=[], tops=[t], decided_by=[], n_moves=1, bag=0, board=Board(A),
                 opened_at=0.0, closed=True, top=t, scores=scores, bonus=bonus or {})


def test_standings_arithmetic_by_hand():
    settings = Settings("hand", PLAYERS, 1, SimultanRules(), None, "x")
    ev = Event(settings, None, A)
    # round 1: top 40 - Ana 40 (alone), Ben 30, Cal 0
    # round 2: top 60 - Ana 20, Ben 60, Cal 60
    # round 3: top 50 - Ana 50 (alone), Ben 0, Cal 25; Ana has a 10-point solo bonus here
    ev.rounds = [_closed_round(1, 40, {"Ana": 40, "Ben": 30, "Cal": 0}),
                 _closed_round(2, 60, {"Ana": 20, "Ben": 60, "Cal": 60}),
                 _closed_round(3, 50, {"Ana": 50, "Ben": 0, "Cal": 25}, {"Ana": 10})]
    st = {s.player: s for s in ev.standings()}
    assert [s.player for s in ev.standings()] == ["Ana", "Ben", "Cal"]
    assert (st["Ana"].total, st["Ana"].points, st["Ana"].bonus) == (120, 110, 10)
    assert (st["Ben"].total, st["Cal"].total) == (90, 85)
    assert st["Ana"].top_total == 150
    assert st["Ana"].percent == 80.0             # 120 / 150
    assert st["Ben"].percent == 60.0             # 90 / 150
    assert st["Cal"].percent == 56.67            # 85 / 150
    assert (st["Ana"].tops, st["Ben"].tops, st["Cal"].tops) == (2, 1, 1)
    assert (st["Ana"].solos, st["Ben"].solos, st["Cal"].solos) == (2, 0, 0)
    after2 = {s.player: s for s in ev.standings(upto=2)}
    assert (after2["Ana"].total, after2["Ben"].total, after2["Cal"].total) == (60, 90, 60)
    assert [s.rank for s in ev.standings(upto=2)] == [1, 2, 2]
    assert after2["Ben"].percent == 90.0         # 90 / 100


# ---------------------------------------------------------------------------
# a whole flow
# ---------------------------------------------------------------------------
def test_round_flow_scores_and_standings(tmp_path, lex):
    d = make_event(tmp_path / "ev", lex)
    ev = d.load()
    r1 = ev.current
    assert r1.number == 1 and len(r1.rack) == 7 and r1.tops
    top = r1.tops[0]
    low = lower_move(ev, lex)
    bad = invalid_word_move(ev, lex)
    d.start()
    s = d.submit("Ana", top.notation)
    assert s.valid and s.score == top.score
    s = d.submit("ben", low.notation)             # names match ignoring case
    assert s.player == "Ben" and s.valid and s.score == low.score
    s = d.submit("Cal", bad)
    assert not s.valid and s.score == 0 and "not in the word list" in s.reason and s.would_score > 0
    closed = d.close()
    assert closed.closed and closed.top == top
    assert closed.scores == {"Ana": top.score, "Ben": low.score, "Cal": 0}
    assert closed.bonus == {}                    # no solo bonus by default
    ev = d.load()
    assert ev.current.number == 2
    st = {x.player: x for x in ev.standings()}
    assert st["Ana"].percent == 100.0 and st["Ana"].rank == 1 and st["Ana"].tops == 1
    assert st["Ben"].percent == percent(low.score, top.score)
    assert st["Cal"].invalid == 1 and st["Cal"].total == 0
    # round 2: Ben resubmits; the latest counts; Cal hands in nothing
    ev2 = d.load()
    low2 = lower_move(ev2, lex)
    d.start()
    d.submit("Ben", low2.notation)
    d.submit("Ben", ev2.current.tops[0].notation)
    d.submit("Ana", "-")
    r2 = d.close()
    assert r2.scores == {"Ana": 0, "Ben": r2.top.score, "Cal": 0}
    assert len([h for h in r2.history if h.player == "Ben"]) == 2
    ev = d.load()
    st = {x.player: x for x in ev.standings()}
    assert st["Ana"].missing == 1 and st["Cal"].missing == 1 and st["Cal"].invalid == 1
    total = top.score + r2.top.score
    assert st["Ana"].percent == percent(top.score, total)
    assert st["Ben"].total == low.score + r2.top.score
    ev.tile_check()


def test_solo_bonus(tmp_path, lex):
    rules = SimultanRules.for_alphabet(A, solo_bonus=10, solo_min_players=3)
    d = make_event(tmp_path / "ev", lex, rules=rules)
    ev = d.load()
    d.start()
    d.submit("Ana", ev.current.tops[0].notation)
    d.submit("Ben", lower_move(ev, lex).notation)
    r1 = d.close()
    assert r1.bonus == {"Ana": 10} and r1.total("Ana") == r1.top.score + 10
    ev = d.load()
    d.start()
    d.submit("Ana", ev.current.tops[0].notation)
    d.submit("Ben", ev.current.tops[-1].notation)   # another top move: same score, no solo
    r2 = d.close()
    assert r2.bonus == {}
    st = {s.player: s for s in d.load().standings()}
    assert st["Ana"].bonus == 10 and st["Ana"].total == r1.top.score + r2.top.score + 10
    assert st["Ana"].percent == percent(st["Ana"].total, r1.top.score + r2.top.score)
    # too few players for the bonus
    few = make_event(tmp_path / "few", lex, rules=SimultanRules.for_alphabet(A, solo_bonus=10))
    few.start()
    few.submit("Ana", few.load().current.tops[0].notation)
    assert few.close().bonus == {}


def test_choose_a_tied_top(tmp_path, lex):
    # seed 42 opens with six tied tops on the golden list
    d = make_event(tmp_path / "ev", lex)
    ev = d.load()
    tops = ev.current.tops
    assert len(tops) > 1
    d.start()
    with pytest.raises(DirectorError, match="is not one of the tied top moves"):
        d.close(choose=lower_move(ev, lex).notation)
    with pytest.raises(DirectorError, match="--choose"):
        d.close(choose="8H XYZ")
    r = d.close(choose=tops[1].notation)
    assert r.top == tops[1] and r.chosen_by == "director"


def test_close_with_expected_round(tmp_path, lex):
    d = make_event(tmp_path / "ev", lex)
    d.start()
    d.close(expect_round=1)
    with pytest.raises(DirectorError, match="round 1 is not the open round"):
        d.close(expect_round=1)


# ---------------------------------------------------------------------------
# bad input: clear message, nothing changes
# ---------------------------------------------------------------------------
def test_bad_submissions_change_nothing(tmp_path, lex):
    d = make_event(tmp_path / "ev", lex)
    ev = d.load()
    d.start()
    d.submit("Ana", ev.current.tops[0].notation)
    d.close()
    d.start()
    ev = d.load()
    journal = tmp_path / "ev" / "journal.jsonl"
    before = journal.read_bytes()
    snap = ev.snapshot()
    missing = letter_not_on_rack(ev)
    cases = [
        (("Dan", ev.current.tops[0].notation), "unknown player 'Dan'"),
        (("Ana", ev.current.tops[0].notation, 1), "round 1 is closed"),
        (("Ana", ev.current.tops[0].notation, 3), "round 3 is not open yet"),
        (("Ana", "8Z WORT"), "cannot read"),
        (("Ana", "WORT"), "cannot read"),
        (("Ana", "8H"), "cannot read"),
        (("Ana", "8H W-RT"), "cannot read"),
        (("Ana", "8H HA(US"), "cannot read"),
        (("Ana", f"8A {missing}E"), f"uses {missing}, but the round's rack is {ev.current.rack}"),
        (("Ana", "8A ee"), "lowercase letters stand for blanks"),
    ]
    for args, message in cases:
        with pytest.raises(Rejected, match=message):
            d.submit(*args)
        assert journal.read_bytes() == before
    assert d.load().snapshot() == snap


def test_twice_a_letter_not_on_rack(tmp_path, lex):
    d = make_event(tmp_path / "ev", lex)
    ev = d.load()
    single = next(A.letters[c - 1] for c in range(1, A.size + 1) if ev.rack[c] == 1)
    d.start()
    with pytest.raises(Rejected, match=f"uses {single} 2 times"):
        d.submit("Ana", f"H8 {single}{single}")


def test_event_over(tmp_path, lex):
    d = make_event(tmp_path / "ev", lex)
    ev = d.load()
    while not ev.over:
        d.start()
        d.close()
        ev = d.load()
    with pytest.raises(Rejected, match="the event is over"):
        d.submit("Ana", "8H AB")
    with pytest.raises(DirectorError, match="the event is over"):
        d.close()
    assert ev.end_reason


# ---------------------------------------------------------------------------
# undo
# ---------------------------------------------------------------------------
def test_undo(tmp_path, lex):
    d = make_event(tmp_path / "ev", lex)
    with pytest.raises(DirectorError, match="nothing to undo"):
        d.undo()
    ev = d.load()
    first, second = ev.current.tops[0].notation, lower_move(ev, lex).notation
    d.start()
    assert d.load().current.started_at is not None
    d.undo()
    assert d.load().current.started_at is None
    d.start()
    d.submit("Ana", second)
    d.submit("Ana", first)
    rec = d.undo()
    assert "Ana's move" in rec["what"]
    assert d.load().current.submissions["Ana"].notation == second   # the earlier one counts again
    d.undo()
    assert "Ana" not in d.load().current.submissions
    d.submit("Ana", first)
    before_close = d.load().snapshot()
    r1 = d.close()
    next_rack = d.load().current.rack
    d.undo()
    again = d.load()
    assert again.current.number == 1 and again.current.submissions["Ana"].notation == first
    assert again.snapshot()["board"] == before_close["board"]
    assert again.snapshot()["bag_order"] == before_close["bag_order"]
    assert again.snapshot()["rng"] == before_close["rng"]
    assert d.close().top == r1.top
    assert d.load().current.rack == next_rack              # the same seed draws the same next rack
    # a fresh director sees the same
    assert EventDir(tmp_path / "ev", lex, notes=None).load().snapshot() == d.load().snapshot()


# ---------------------------------------------------------------------------
# crash in the middle of a round, replay
# ---------------------------------------------------------------------------
def _mid_round(tmp_path, lex) -> tuple[EventDir, dict]:
    d = make_event(tmp_path / "ev", lex)
    ev = d.load()
    d.start()
    d.submit("Ana", ev.current.tops[0].notation)
    d.submit("Ben", invalid_word_move(ev, lex))
    d.close()
    ev = d.load()
    d.start()
    d.submit("Cal", lower_move(ev, lex).notation)
    d.submit("Ana", "-")
    return d, d._event.snapshot()          # the live state, applied record by record


def test_replay_after_torn_write_reproduces_the_state(tmp_path, lex):
    d, live = _mid_round(tmp_path, lex)
    path = tmp_path / "ev"
    journal = path / "journal.jsonl"
    good = journal.read_bytes()
    # a power cut in the middle of writing the next entry leaves half a line
    rec = {"seq": 99, "type": "submit", "time": 1.0, "round": 2, "player": "Ben", "move": "8H X", "result": {}}
    half = encode_record(rec)[:37]
    with open(journal, "ab") as f:
        f.write(half)
    notes = []
    fresh = EventDir(path, lex, notes=notes.append)
    assert fresh.load().snapshot() == live
    assert notes and "incomplete last journal entry" in notes[0]
    assert journal.read_bytes() == good + half                   # a reader leaves the file alone
    # the next command repairs the tail first, keeping the torn bytes aside
    ev = fresh.load()
    fresh.submit("Ben", ev.current.tops[0].notation)
    assert (path / "journal.torn").read_bytes().endswith(half + b"\n")
    records = Journal(path).read()
    assert [r["seq"] for r in records] == list(range(1, len(records) + 1))
    assert journal.read_bytes().startswith(good)


def test_replay_equals_live_state_with_recompute(tmp_path, lex):
    from engine.director.event import replay

    d, live = _mid_round(tmp_path, lex)
    again = replay(Journal(tmp_path / "ev").read(), lex, recompute=True)
    assert again.snapshot() == live


_CRASH = r"""
import os, signal, sys
from lexicon_tools.bundle import Lexicon
from engine.director.store import EventDir
lex = Lexicon.load(sys.argv[2])
d = EventDir(sys.argv[1], lexicon=lex, export=False, notes=None)
d.load()
real = os.write
def torn(fd, data):
    real(fd, bytes(data[: len(data) // 2]))
    os.kill(os.getpid(), signal.SIGKILL)      # power cut halfway through the write
os.write = torn
if sys.argv[3] == "close":
    d.close()
else:
    d.submit("Ben", sys.argv[3])
"""


@pytest.mark.parametrize("action", ["submit", "close"])
def test_process_killed_mid_write(tmp_path, lex, action):
    d, live = _mid_round(tmp_path, lex)
    ev = d.load()
    arg = ev.current.tops[0].notation if action == "submit" else "close"
    proc = subprocess.run([sys.executable, "-c", _CRASH, str(tmp_path / "ev"), str(lex.path), arg],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    assert (tmp_path / "ev" / "journal.jsonl").read_bytes()[-1:] != b"\n"   # half a line is on disk
    resumed = EventDir(tmp_path / "ev", lex, notes=None)
    assert resumed.load().snapshot() == live        # nothing entered before is lost, nothing half-done counts
    if action == "submit":
        assert resumed.submit("Ben", arg).score == ev.current.top_score
    else:
        assert resumed.close().number == 2
    resumed.load().tile_check()


def test_damaged_line_is_an_error(tmp_path, lex):
    _d, _live = _mid_round(tmp_path, lex)
    journal = tmp_path / "ev" / "journal.jsonl"
    lines = journal.read_bytes().split(b"\n")
    lines[2] = lines[2].replace(b'"Ana"', b'"Eve"')
    journal.write_bytes(b"\n".join(lines))
    with pytest.raises(JournalError, match="line 3: checksum mismatch"):
        EventDir(tmp_path / "ev", lex, notes=None).load()


def test_lexicon_must_match(tmp_path, lex):
    from lexicon_tools.bundle import build_bundle

    make_event(tmp_path / "ev", lex)
    other = build_bundle(["AB", "BA"], tmp_path / "other.lex", source_name="other")
    with pytest.raises(DirectorError, match="not the one this event was created with"):
        EventDir(tmp_path / "ev", other, notes=None).load()


# ---------------------------------------------------------------------------
# the lock
# ---------------------------------------------------------------------------
def test_lock_blocks_a_second_director(tmp_path, lex, monkeypatch):
    d = make_event(tmp_path / "ev", lex)
    ev = d.load()
    monkeypatch.setenv("SIMULTAN_LOCK_TIMEOUT", "0.2")
    with event_lock(tmp_path / "ev", exclusive=True):
        with pytest.raises(JournalError, match="busy"):
            EventDir(tmp_path / "ev", lex, notes=None).submit("Ana", ev.current.tops[0].notation)
    assert "Ana" not in d.load().current.submissions


_HAMMER = r"""
import sys
from lexicon_tools.bundle import Lexicon
from engine.director.store import EventDir
lex = Lexicon.load(sys.argv[2])
d = EventDir(sys.argv[1], lexicon=lex, export=False, notes=None)
moves = sys.argv[4].split("|")
for i in range(int(sys.argv[5])):
    d.submit(sys.argv[3], moves[i % len(moves)])
"""


def test_two_directors_at_once_never_corrupt(tmp_path, lex):
    d = make_event(tmp_path / "ev", lex)
    ev = d.load()
    moves = "|".join(m.notation for m in sorted_moves(ev, lex)[:5])
    d.start()
    n = 12
    procs = [subprocess.Popen([sys.executable, "-c", _HAMMER, str(tmp_path / "ev"), str(lex.path), p, moves, str(n)],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for p in ("Ana", "Ben", "Cal")]
    for p in procs:
        _out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
    records = Journal(tmp_path / "ev").read()
    assert len(records) == 2 + 3 * n
    assert [r["seq"] for r in records] == list(range(1, 3 * n + 3))
    ev = EventDir(tmp_path / "ev", lex, notes=None).load()
    assert len(ev.current.history) == 3 * n
    assert set(ev.current.submissions) == {"Ana", "Ben", "Cal"}


# ---------------------------------------------------------------------------
# exports
# ---------------------------------------------------------------------------
def test_exports(tmp_path, lex):
    d = make_event(tmp_path / "ev", lex)
    for _ in range(3):
        ev = d.load()
        d.start()
        d.submit("Ana", ev.current.tops[0].notation)
        d.submit("Ben", lower_move(ev, lex).notation)
        d.submit("Cal", invalid_word_move(ev, lex))
        d.close()
    ev = d.load()
    out = tmp_path / "out"
    write_exports(ev, out)
    closed = ev.closed_rounds
    # rounds.csv: one row per round and player
    rows = list(csv.DictReader(open(out / "rounds.csv", encoding="utf-8")))
    assert len(rows) == 3 * len(PLAYERS)
    for row in rows:
        rnd = closed[int(row["round"]) - 1]
        assert row["top_move"] == rnd.top.notation and int(row["top_score"]) == rnd.top.score
        assert float(row["percent_of_top"]) == percent(int(row["score"]), rnd.top.score)
    last = {r["player"]: r for r in rows if r["round"] == "3"}
    standings = {s.player: s for s in ev.standings()}
    for p in PLAYERS:
        assert int(last[p]["total"]) == standings[p].total
        assert float(last[p]["percent_total"]) == standings[p].percent
    assert last["Cal"]["valid"] == "no" and "not in the word list" in last["Cal"]["reason"]
    # standings.csv and results.json
    srows = list(csv.DictReader(open(out / "standings.csv", encoding="utf-8")))
    assert [r["player"] for r in srows] == [s.player for s in ev.standings()]
    assert srows[0]["rank"] == "1" and srows[0]["percent"] == "100.0"
    res = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert res["master_total"] == sum(r.top.score for r in closed)
    assert [r["top"]["notation"] for r in res["rounds"]] == [r.top.notation for r in closed]
    assert res["rounds"][0]["players"]["Cal"]["valid"] is False
    assert res["rounds"][2]["standings"] == res["standings"]
    assert res["status"]["open_round"] == 4
    mrows = list(csv.DictReader(open(out / "master.csv", encoding="utf-8")))
    assert [int(r["master_total"]) for r in mrows][-1] == res["master_total"]
    # master.gcg: every line re-scores on the board it was played on
    gcg = (out / "master.gcg").read_text(encoding="utf-8").splitlines()
    assert gcg[0] == "#character-encoding UTF-8" and gcg[1].startswith("#player1 Top")
    board = Board(A)
    total = 0
    plays = [ln for ln in gcg if ln.startswith(">Top:")]
    assert len(plays) == 3
    for ln, rnd in zip(plays, closed):
        _nick, rack, start, word, score, cum = ln.split()
        assert rack == rnd.rack
        text = start + " " + "".join(f"({board.letter_at(*_sq(start, i))})" if ch == "." else ch
                                     for i, ch in enumerate(word)).replace(")(", "")
        scored = check_move(board, text, lex, rack=rack)
        total += scored.score
        assert int(score) == scored.score == rnd.top.score and int(cum) == total
        board.place([(r, c, A.code(ch), b) for r, c, ch, b in scored.tiles])
    # pictures
    for rnd in closed:
        svg = (out / f"round-{rnd.number:02d}.svg").read_text(encoding="utf-8")
        root = ET.fromstring(svg.split("\n", 1)[1])
        texts = "".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
        assert f"Runde {rnd.number}" in texts
        page = (out / f"round-{rnd.number:02d}.html").read_text(encoding="utf-8")
        assert f"Runde {rnd.number}" in page and "Punkte" in page and "<svg" in page
    cur = (out / "current.html").read_text(encoding="utf-8")
    assert "Runde 4" in cur and 'data-len="180"' in cur and "location.reload" in cur
    assert "round-03.html" in (out / "index.html").read_text(encoding="utf-8")
    # after undoing a close, its pictures go
    d.undo()
    write_exports(d.load(), out)
    assert not (out / "round-03.svg").exists() and (out / "round-02.svg").exists()


def _sq(start: str, i: int) -> tuple[int, int]:
    from engine.position.board import ACROSS, parse_start

    r, c, direction = parse_start(start)
    return (r, c + i) if direction == ACROSS else (r + i, c)


def test_exports_written_after_each_change(tmp_path, lex):
    d = make_event(tmp_path / "ev", lex, export=True)
    exp = tmp_path / "ev" / "export"
    assert (exp / "current.html").exists() and not (exp / "round-01.svg").exists()
    d.start()
    d.close()
    assert (exp / "round-01.svg").exists() and (exp / "round-01.html").exists()
    assert "Runde 2" in (exp / "current.html").read_text(encoding="utf-8")


def test_event_ends_when_no_move_is_possible(tmp_path):
    from lexicon_tools.bundle import build_bundle

    qy = build_bundle(["QY"], tmp_path / "qy.lex", source_name="qy")
    d = EventDir.create(tmp_path / "ev", ["Ana"], seed=3, lexicon=qy, now=Clock(), export=True, notes=None)
    ev = d.load()
    assert ev.over and ev.rounds == []
    assert ev.end_reason == f"no move is possible with the rack {ev.end_rack}" and len(ev.end_rack) == 7
    assert len(ev.bag) == 102
    ev.tile_check()
    with pytest.raises(Rejected, match="the event is over"):
        d.submit("Ana", "8H QY")
    res = json.loads((tmp_path / "ev" / "export" / "results.json").read_text(encoding="utf-8"))
    assert res["status"]["over"] and res["status"]["end_rack"] == ev.end_rack


def test_new_after_an_interrupted_new(tmp_path, lex):
    (tmp_path / "ev").mkdir()
    (tmp_path / "ev" / "journal.jsonl").write_bytes(b'{"seq":1,"type":"ne')   # power cut during `new`
    d = make_event(tmp_path / "ev", lex)
    assert d.load().current.number == 1
    assert (tmp_path / "ev" / "journal.torn").exists()
    with pytest.raises(DirectorError, match="already holds an event"):
        make_event(tmp_path / "ev", lex)
