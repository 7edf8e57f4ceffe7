"""``python -m engine simultan ...``: commands, exit codes, messages; a whole event run as the
docs describe it, with the director's process killed mid-round and resumed."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.cli.main import main
from engine.director.journal import Journal
from engine.director.store import EventDir
from engine.movegen.generator import generate_moves

ROOT = Path(__file__).resolve().parents[2]


def run(capsys, *argv):
    code = main(["simultan", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def one_error_line(err: str, prefix: str = "error: ") -> str:
    lines = [ln for ln in err.splitlines() if not ln.startswith("note: ")]
    assert len(lines) == 1 and lines[0].startswith(prefix), err
    assert "Traceback" not in err
    return lines[0]


@pytest.fixture
def event(tmp_path, capsys, golden_lexicon):
    d = tmp_path / "club"
    code, out, _err = run(capsys, "new", d, "--players", "Ana", "Ben,Cal", "--seed", 42, "--round-time", "2:30",
                          "--lexicon", golden_lexicon.path)
    assert code == 0, out
    assert "3 players (Ana, Ben, Cal), seed 42, round time 2:30" in out
    return d


def test_new_round_submit_close_standings(event, capsys, golden_lexicon):
    code, out, _ = run(capsys, "round", event)
    assert code == 0
    assert "round 1" in out and "rack: " in out and "clock not started" in out
    ev = EventDir(event, golden_lexicon, notes=None).load()
    top = ev.current.tops[0]
    low = next(m for m in generate_moves(ev.board, ev.rack, golden_lexicon).sorted() if m.score < top.score)
    code, out, _ = run(capsys, "round", event, "--start")
    assert code == 0 and "left" in out
    code, out, _ = run(capsys, "submit", event, "Ana", top.notation)
    assert code == 0 and f"{top.notation} {top.score} points" in out
    start, word = low.notation.split()
    code, out, _ = run(capsys, "submit", "--event", event, "Ben", start, word)   # unquoted move, --event
    assert code == 0 and f"{low.score} points" in out
    code, out, _ = run(capsys, "submit", event, "Cal", "8H TRAEZE")
    assert code == 0 and "recorded as invalid, 0 points" in out
    code, out, _ = run(capsys, "round", event)
    assert "Ana" in out and top.notation in out and "invalid" in out
    code, out, _ = run(capsys, "close", event)
    assert code == 0
    assert f"round 1 closed. top: {top.notation} {top.score} points" in out
    assert "moves tie" in out                      # seed 42 opens with tied tops, all listed
    assert "100.00%" in out and "round 2: rack" in out
    code, out, _ = run(capsys, "standings", event)
    assert code == 0 and "after round 1" in out
    lines = [ln.split() for ln in out.splitlines()[2:]]
    assert lines[0][:4] == ["1", "Ana", str(top.score), "100.00%"]
    code, out, _ = run(capsys, "standings", event, "--json")
    data = json.loads(out)
    assert data["master_total"] == top.score and data["standings"][0]["player"] == "Ana"
    code, out, _ = run(capsys, "standings", event, "--round", 1, "--json")
    assert code == 0 and json.loads(out) == data                   # round 1 is the last closed one
    code, out, err = run(capsys, "standings", event, "--round", 99)
    assert code == 2 and out == "" and "rounds 1 to 1 are closed" in one_error_line(err)
    code, out, _ = run(capsys, "round", event, "--json")
    data = json.loads(out)
    assert data["round"] == 2 and len(data["rack"]) == 7 and data["submissions"]["Ana"] is None
    code, out, _ = run(capsys, "undo", event)
    assert code == 0 and out.startswith("undone: entry 6: closing round 1")  # new, start, 3 submits, close
    code, out, _ = run(capsys, "export", event, "--out", event.parent / "exp")
    assert code == 0
    assert (event.parent / "exp" / "master.gcg").exists() and (event.parent / "exp" / "current.html").exists()


def test_rejected_submissions_exit_1_and_change_nothing(event, capsys, golden_lexicon):
    journal = event / "journal.jsonl"
    assert run(capsys, "round", event, "--start")[0] == 0
    before = journal.read_bytes()
    ev = EventDir(event, golden_lexicon, notes=None).load()
    missing = next(ch for ch in "QXYJVÖÄÜ" if ch not in ev.current.rack)
    for args, message in [
        (("Dan", "8H AB"), "unknown player 'Dan'"),
        (("Ana", "8Z WORT"), "cannot read"),
        (("Ana", f"8H {missing}E"), f"uses {missing}"),
        (("Ana", "8H AB", "--round", 2), "round 2 is not open yet"),
    ]:
        code, out, err = run(capsys, "submit", event, *args)
        assert code == 2 and out == ""
        assert message in one_error_line(err)
    run(capsys, "close", event)
    before = journal.read_bytes()
    code, _out, err = run(capsys, "submit", event, "Ana", ev.current.tops[0].notation, "--round", 1)
    assert code == 2 and "round 1 is closed" in one_error_line(err)
    assert journal.read_bytes() == before


def test_errors_exit_2_with_one_line(tmp_path, event, capsys, golden_lexicon):
    cases = [
        (("round", tmp_path / "nowhere"), "no such event directory"),
        (("round", tmp_path), "not an event directory"),
        (("new", event, "--players", "X", "--lexicon", golden_lexicon.path), "already holds an event"),
        (("new", tmp_path / "dup", "--players", "Ana", "ana", "--lexicon", golden_lexicon.path), "given twice"),
        (("new", tmp_path / "t", "--players", "A", "--round-time", "soon", "--lexicon", golden_lexicon.path),
         "round time"),
        (("new", tmp_path / "tb", "--players", "A", "--tie-break", "luck", "--lexicon", golden_lexicon.path),
         "unknown tie-break"),
        (("submit", event, "Ana"), "submit needs a player and a move"),
        (("close", event), "round 1 has not started"),
        (("round", event, "--start"), None),
        (("close", event, "--choose", "8H XYZ"), "--choose"),
        (("close", event, "--round", 5), "round 5 is not the open round"),
        (("standings", event, "--round", 1), "no round is closed yet"),
        (("new", "", "--players", "A", "B", "--lexicon", golden_lexicon.path), "needs a name"),
        (("new", " ", "--players", "A", "B", "--lexicon", golden_lexicon.path), "needs a name"),
        (("round",), "name the event directory"),
        (("round", event, "extra"), "unexpected argument"),
        (("new", tmp_path / "lx", "--players", "A", "--lexicon", tmp_path / "missing.lex"), "no such lexicon"),
    ]
    for argv, message in cases:
        code, _out, err = run(capsys, *argv)
        if message is None:
            assert code == 0, err
            continue
        assert code == 2, (argv, err)
        assert message in one_error_line(err), (argv, err)
    assert not (tmp_path / "lock").exists()          # no lock file left in a directory without an event
    # nothing to undo right after `new`
    code, _out, err = run(capsys, "undo", event)
    assert code == 0  # takes back the `round --start` above
    code, _out, err = run(capsys, "undo", event)
    assert code == 2 and "nothing to undo" in one_error_line(err)
    # a damaged journal
    journal = event / "journal.jsonl"
    journal.write_bytes(journal.read_bytes().replace(b'"seed":42', b'"seed":43'))
    code, _out, err = run(capsys, "standings", event)
    assert code == 2 and "checksum mismatch" in one_error_line(err) and "simultan repair" in err


def test_auto_cli(tmp_path, capsys, golden_lexicon):
    code, out, _ = run(capsys, "auto", "--seed", 3, "--out", tmp_path / "m", "--lexicon", golden_lexicon.path,
                       "--json")
    assert code == 0
    data = json.loads(out)
    assert data["rounds"] >= 10 and data["master_total"] == sum(m["score"] for m in data["moves"])
    code, out, _ = run(capsys, "auto", "--seed", 3, "--out", tmp_path / "m2", "--lexicon", golden_lexicon.path)
    assert code == 0 and f"{data['rounds']} rounds, {data['master_total']} points" in out
    assert out.splitlines()[0].split()[0] == "1"
    # `new --seed` plays the same game
    run(capsys, "new", tmp_path / "e", "--players", "A", "--seed", 3, "--lexicon", golden_lexicon.path)
    ev = EventDir(tmp_path / "e", golden_lexicon, notes=None).load()
    assert ev.current.rack == data["moves"][0]["rack"] and ev.current.tops[0].notation == data["moves"][0]["top"]
    code, out, _ = run(capsys, "auto", "--seed", 3, "--out", tmp_path / "m", "--lexicon", golden_lexicon.path)
    assert code == 2


# ---------------------------------------------------------------------------
# the whole event as docs/director.md runs it, in separate processes
# ---------------------------------------------------------------------------
def cli(*argv, check=True):
    proc = subprocess.run([sys.executable, "-m", "engine", "simultan", *map(str, argv)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    if check:
        assert proc.returncode == 0, proc.stderr
    return proc


def test_event_with_kill_and_resume(tmp_path, golden_lexicon):
    lex = golden_lexicon.path
    club = tmp_path / "club"
    cli("new", club, "--players", "Ana", "Ben", "Cal", "--seed", 7, "--round-time", "3:00", "--lexicon", lex)
    expected = {"Ana": 0, "Ben": 0, "Cal": 0}
    master = 0
    for rnd in (1, 2, 3):
        ev = EventDir(club, golden_lexicon, notes=None).load()
        assert ev.current.number == rnd
        top = ev.current.tops[0]
        moves = generate_moves(ev.board, ev.rack, golden_lexicon).sorted()
        low = next(m for m in moves if m.score < top.score)
        cli("round", club, "--start")
        cli("submit", club, "Ana", top.notation)
        if rnd == 2:
            # the director's machine dies while Ben's move is being entered
            p = subprocess.Popen([sys.executable, "-m", "engine", "simultan", "submit", club, "Ben", low.notation],
                                 cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            time.sleep(0.3)
            os.kill(p.pid, signal.SIGKILL)
            p.wait()
            # resume: everything entered before is there; enter Ben's move again (a resubmission is harmless)
            shown = cli("round", club).stdout
            assert f"Ana  {top.notation} {top.score}" in shown
        cli("submit", club, "Ben", low.notation)
        bad = cli("submit", club, "Cal", "8H QQQ", check=False)
        assert bad.returncode == 2 and bad.stderr.startswith("error: ")
        cli("submit", club, "Cal", "-")
        out = cli("close", club, "--round", rnd).stdout
        assert f"round {rnd} closed. top: {top.notation} {top.score}" in out
        expected["Ana"] += top.score
        expected["Ben"] += low.score
        master += top.score
    data = json.loads(cli("standings", club, "--json").stdout)
    assert data["master_total"] == master
    got = {s["player"]: (s["rank"], s["total"], s["percent"]) for s in data["standings"]}
    assert got == {"Ana": (1, expected["Ana"], 100.0),
                   "Ben": (2, expected["Ben"], round(100 * expected["Ben"] / master, 2)),
                   "Cal": (3, 0, 0.0)}
    # exports and pictures were refreshed after every change
    exp = club / "export"
    for name in ("rounds.csv", "standings.csv", "results.json", "master.gcg", "round-01.svg", "round-03.html",
                 "current.html", "index.html"):
        assert (exp / name).exists(), name
    rows = list(csv.DictReader(open(exp / "standings.csv", encoding="utf-8")))
    assert [(r["player"], int(r["total"])) for r in rows] == [("Ana", expected["Ana"]), ("Ben", expected["Ben"]),
                                                              ("Cal", 0)]
    assert sum(1 for ln in (exp / "master.gcg").read_text(encoding="utf-8").splitlines()
               if ln.startswith(">Top:")) == 3
    records = Journal(club).read()
    assert [r["seq"] for r in records] == list(range(1, len(records) + 1))
