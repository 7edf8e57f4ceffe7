"""Partieanalyse (engine.analysis.review, ``python -m engine review``).

The record: a game between static equity players (engine.game.equity.choose) in which
one turn plays a clearly worse legal move instead. The review must mark exactly
that turn among the turns with tiles in the bag, with the loss equal to the
difference worked out independently: the best move by the best-first generator
(engine.game.equity.best_equity, another code path than the review's full move list)
minus the played move's score plus engine.game.equity.leave_term of its leave.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from review_support import BAD_TURN, _game_with_a_worse_move

from engine.analysis.review import MARKS, mark_for, review, win_svg
from engine.game.gcg import read_gcg

@pytest.fixture(scope="module")
def bad_game(golden_lexicon):
    text, injected = _game_with_a_worse_move(golden_lexicon)
    return read_gcg(text, golden_lexicon), text, injected


def test_exactly_the_replaced_turn_is_marked(golden_lexicon, bad_game):
    rec, _text, (played, loss, best) = bad_game
    rv = review(rec, golden_lexicon, endgame=False)
    assert len(rv.turns) == len(rec.moves)
    bagged = [t for t in rv.turns if t.bag > 0]
    assert len(bagged) > BAD_TURN + 3
    marked = [t.turn for t in bagged if t.mark]
    assert marked == [BAD_TURN]
    t = rv.turns[BAD_TURN]
    assert t.played == played and t.best == best
    assert t.loss == pytest.approx(loss, abs=1e-3)
    assert t.mark == mark_for(loss)
    # every other turn with tiles in the bag was the equity player's own choice: nothing lost
    assert all(x.loss == 0.0 for x in bagged if x.turn != BAD_TURN)
    s = rv.summary()
    mover = t.player
    n = s[mover]["turns"]
    assert s[mover]["average_loss"] == pytest.approx(round(sum(x.loss for x in rv.turns
                                                              if x.player == mover and x.loss is not None) / n, 2))


def test_marks_thresholds():
    assert [mark_for(x) for x in (0.0, 2.99, 3.0, 6.9, 7.0, 14.9, 15.0, None)] == \
        [None, None, "Ungenauigkeit", "Ungenauigkeit", "Fehler", "Fehler", "Patzer", None]
    assert mark_for(5.0, "win") == "Ungenauigkeit" and mark_for(4.9, "win") is None
    assert [m for _t, m in MARKS] == ["Patzer", "Fehler", "Ungenauigkeit"]


def test_endgame_turns_are_decided_by_the_solver(golden_lexicon, bad_game):
    from engine.analysis.endgame import endgame_position, solve
    from engine.game.game import Kind

    rec = bad_game[0]
    rv = review(rec, golden_lexicon, endgame=True, endgame_seconds=20.0)
    ends = [t for t in rv.turns if t.bag == 0]
    assert ends and all(t.method == "endgame" and t.unit == "spread" for t in ends)
    # the last turn of a game that ended by going out: the value of going out is exact and independent
    last = ends[-1]
    assert rec.end_reason == "out"
    k = last.turn
    pos = endgame_position(rec.position(k))
    ref = solve(pos, golden_lexicon)
    assert ref.complete and last.best_value == ref.value
    mv = rec.moves[k]
    assert mv.kind == Kind.PLAY
    # the last move went out: its value is what it changed on the pad, the settlement included
    before = rec.position(k).scores
    p = mv.player
    final = rec.scores
    assert last.value == (final[p] - final[1 - p]) - (before[0] - before[1])
    if last.exact:
        assert last.loss == max(0.0, ref.value - last.value)
    assert rv.summary()[last.player]["endgame_loss"] == pytest.approx(
        sum(t.loss for t in ends if t.player == last.player and t.loss is not None))


def test_unknown_racks_are_listed_not_reviewed(golden_lexicon, bad_game):
    text = bad_game[1]
    # a score pad's record: no racks
    lines = []
    for line in text.splitlines():
        if line.startswith(">") and "(" not in line.split(":", 1)[1].split()[0]:
            nick, rest = line.split(":", 1)
            parts = rest.split()
            if parts[0] != "...":
                parts[0] = "..."
            line = f"{nick}: {' '.join(parts)}"
        lines.append(line)
    rec = read_gcg("\n".join(lines[: 2 + 8 + 6]) + "\n", golden_lexicon)
    rv = review(rec, golden_lexicon)
    assert rv.turns and all(t.loss is None and t.note == "rack unknown" for t in rv.turns)
    assert rv.summary()[rec.players[0]]["average_loss"] is None


def test_win_curve_and_svg(golden_lexicon, bad_game):
    rec = bad_game[0]
    rv = review(rec, golden_lexicon, endgame=False)
    assert len(rv.win) == len(rec.moves) + 1
    assert all(0.0 <= p <= 1.0 for p in rv.win)
    s = rec.scores
    assert rv.win[-1] == (1.0 if s[0] > s[1] else 0.5 if s[0] == s[1] else 0.0)
    svg = win_svg(rv)
    assert svg.startswith("<svg") and svg.endswith("</svg>") and "<polyline" in svg
    import xml.dom.minidom

    xml.dom.minidom.parseString(svg)  # well-formed
    assert svg.count("<circle") == sum(1 for t in rv.turns if t.mark in ("Fehler", "Patzer"))


def test_player_filter(golden_lexicon, bad_game):
    rec = bad_game[0]
    rv = review(rec, golden_lexicon, endgame=False, player="ben")
    assert rv.turns and {t.player for t in rv.turns} == {"ben"}
    with pytest.raises(ValueError, match="not in the game"):
        review(rec, golden_lexicon, player="zoe")


def _cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "engine", "review", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=600)


def test_cli_json_is_stable_and_has_the_issue_shape(golden_lexicon, bad_game, tmp_path):
    path = tmp_path / "game.gcg"
    path.write_text(bad_game[1], encoding="utf-8")
    lexpath = str(golden_lexicon.path)
    runs = [_cli(str(path), "--json", "--no-endgame", "--lexicon", lexpath) for _ in range(2)]
    for r in runs:
        assert r.returncode == 0, r.stderr
    assert runs[0].stdout == runs[1].stdout
    out = json.loads(runs[0].stdout)
    t = out["turns"][BAD_TURN]
    assert list(t)[:6] == ["turn", "player", "played", "best", "loss", "mark"]
    assert t["turn"] == BAD_TURN and t["played"] == bad_game[2][0] and t["loss"] == pytest.approx(bad_game[2][1], abs=1e-3)
    assert set(out["players"]) == {"ana", "ben"}
    for s in out["players"].values():
        assert {"turns", "average_loss", "missed_bingos"} <= set(s)
    # the table and the picture
    svg = tmp_path / "win.svg"
    r = _cli(str(path), "--no-endgame", "--lexicon", lexpath, "--plot", str(svg))
    assert r.returncode == 0, r.stderr
    assert bad_game[2][0] in r.stdout and ("Fehler" in r.stdout or "Patzer" in r.stdout)
    assert svg.read_text(encoding="utf-8").startswith("<svg")


def test_cli_bad_input(tmp_path, golden_lexicon):
    bad = tmp_path / "x.gcg"
    bad.write_text("#player1 a A\n#player2 b B\n>a: ABC 8H XYZ +10 10\n", encoding="utf-8")
    r = _cli(str(bad), "--lexicon", str(golden_lexicon.path))
    assert r.returncode == 2 and r.stderr.startswith("error:") and "Traceback" not in r.stderr
    r = _cli(str(tmp_path / "missing.gcg"), "--lexicon", str(golden_lexicon.path))
    assert r.returncode == 2 and "error:" in r.stderr
    good = tmp_path / "g.gcg"
    good.write_text("#player1 a A\n#player2 b B\n", encoding="utf-8")
    r = _cli(str(good), "--plot", str(tmp_path / "w.png"), "--lexicon", str(golden_lexicon.path))
    assert r.returncode == 2 and "svg" in r.stderr.lower()


# A Punkteblock export with racks typed and two rows of points by hand (tests/game/test_gcg.py PAD_HAND):
# HAUS over the star (2+1+1+1) × 2 = 10, SEHR to the double word on K11 (1+1+2+1) × 2 = 10.
PAD_HAND = """#player1 Ana Ana
#player2 Ben Ben
>Ana: AHSUERT 8H HAUS +10 10
#note by hand: >Ben: ... +12 12
>Ana: EHRTNNO K8 .EHR +10 20
#note by hand: >Ben: EEILNRS +7 19
>Ana: NNOTAAB - +0 20
"""


def test_a_row_by_hand_and_the_turns_after_it_are_listed_not_reviewed(golden_lexicon):
    from engine.analysis.review import NOTE_BOARD, NOTE_HAND
    from engine.game import equity as E
    from engine.leaves.table import default_table

    rec = read_gcg(PAD_HAND, golden_lexicon)
    rv = review(rec, golden_lexicon, endgame=False)
    assert [t.note for t in rv.turns] == ["", NOTE_HAND, NOTE_BOARD, NOTE_HAND, NOTE_BOARD]
    assert [t.loss is None for t in rv.turns] == [False, True, True, True, True]
    assert [t.played for t in rv.turns][:2] == ["8H HAUS", "by hand"] and rv.turns[1].score == 12
    # the one turn before the row by hand is reviewed like any other: its loss against the best-first generator
    table = default_table()
    pos = rec.position(0)
    bag = int(pos.bag_count)
    best = E.best_equity(pos.board, pos.rack, golden_lexicon, bag=bag, n=1, table=table)[0]
    played = 10 + E.leave_term(table, rec.alphabet.parse_rack("ERT"), bag)
    assert rv.turns[0].loss == pytest.approx(max(0.0, best.equity - played), abs=1e-3)
    assert rv.turns[0].best == best.notation
    s = rv.summary()
    assert s["Ana"]["turns"] == 1 and s["Ben"]["turns"] == 0 and s["Ben"]["average_loss"] is None
    # the CLI's table lists them with the reason
    from engine.cli.review import format_review

    table_text = "\n".join(format_review(rv))
    assert "by hand" in table_text and f"({NOTE_BOARD})" in table_text and f"({NOTE_HAND})" in table_text


def test_the_web_review_of_a_pad_export_with_a_row_by_hand(golden_lexicon):
    # /api/review's payload (engine.web.play.review_payload): the row by hand has no tiles to draw, no traceback
    from engine.leaves.table import default_table
    from engine.web.play import review_payload

    out = review_payload(PAD_HAND, golden_lexicon, default_table())
    turns = out["turns"]
    assert [t["note"] for t in turns] == ["", "points by hand", "board incomplete", "points by hand",
                                          "board incomplete"]
    assert turns[1]["played_tiles"] == [] and turns[1]["best_tiles"] == [] and turns[1]["loss"] is None
    assert [r[7:11] for r in turns[2]["board"][7:8]] == ["HAUS"]      # the board before SEHR: HAUS only
    assert turns[0]["played_tiles"] == [[7, 7, "H", False], [7, 8, "A", False], [7, 9, "U", False], [7, 10, "S", False]]
