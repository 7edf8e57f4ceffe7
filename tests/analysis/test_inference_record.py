"""Inference from the whole record (issue 23 part 4), against racks counted by hand.

Each kind of tile the record makes known, in a game on a tiny word list (BAUMEN
and BAUMEN + any letter but X) whose racks are set by hand:

* a withdrawn play's tiles: on the turn right after it ``infer`` returns the
  opponent's whole rack (the withdrawn tiles plus one drawn tile, weighted by the
  draws); after their next play the leave must hold what that play did not use;
* the side to move's own exchange after the opponent's last draw: those tiles are
  not on the rack the opponent moved from (an exchange into a bag of exactly seven
  tiles, which makes the opponent's rack known: tests/analysis/test_inference.py).

The likelihood is switched off (margin 1000, zero leave table), so the weights are
the draw counts alone and can be counted by hand from the German tile set
(A 5, B 2, E 15, M 4, N 9, S 7, U 6, X 1, ...).
"""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

from lexicon_tools.alphabet import german
from lexicon_tools.bundle import build_bundle

from engine.analysis.inference import from_record, infer
from engine.game.game import Game, Kind
from engine.leaves.table import zero_table

A = german()
WIDE = 1000.0  # every rack consistent: the weights are the draw counts


def counts(text: str) -> np.ndarray:
    out = np.zeros(A.size + 1, dtype=np.int64)
    for ch in text:
        out[0 if ch == "?" else A.code(ch)] += 1
    return out


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    words = ["BAUMEN"] + ["BAUMEN" + ch for ch in A.letters if ch != "X"]
    return build_bundle(words, tmp_path_factory.mktemp("tiny") / "tiny.lex", source_name="tiny")


def _opening(tiny, seed: int) -> Game:
    """Player 0 (the opponent in every test) plays 8D BAUMEN from BAUMENX and draws AUMENS; player 1 holds EEEEEEE."""
    g = Game(2, tiny, seed=seed, first=0, keep_undo=False)
    g.set_rack(1, "EEEEEEE")  # first: its dealt rack may hold the X
    g.set_rack(0, "BAUMENX")
    g.play("8D BAUMEN")
    g.set_rack(0, "XAUMENS")  # the six tiles drawn, fixed so that the counts below hold
    return g


def _leaves(res) -> dict[str, Fraction]:
    w = {A.rack_string(x): int(round(v)) for x, v in zip(res.leaves, res.weights)}
    total = sum(w.values())
    return {k: Fraction(v, total) for k, v in w.items()}


def test_the_turn_after_a_withdrawn_play_returns_the_rack(tiny):
    g = _opening(tiny, 1)
    g.pass_turn()                                   # turn 1, player 1
    t = g.play("D8 (B)AUMENX", challenge=1)         # turn 2: BAUMENX is no word, challenged off
    assert t.kind == Kind.WITHDRAWN
    pos, last = from_record(g.record(), 3)
    assert last.kind == "withdrawn" and str(last) == "D8 (B)AUMENX (withdrawn)"
    res = infer(pos, last, tiny, table=zero_table(), margin=WIDE)
    assert res.leave_size == 7 and res.exact
    p = _leaves(res)
    # unseen for player 1: the set less BAUMEN on the board and EEEEEEE: A 4, U 5, M 3, E 7, N 8, X 1, S 7, ...
    # (89 tiles). The rack holds AUMENX and one more tile c, weighted C(pool, rack) tile by tile: relative to
    # the others, c outside AUMENX weighs pool[c], c in it (pool[c] - 1) / 2 (a second one), X none (only one).
    # Sum: (89 - 28) + (3 + 4 + 2 + 6 + 7 + 0) / 2 = 61 + 11 = 72; S is the likeliest: 7 / 72.
    assert len(p) == 24 + 5
    assert p["AEMNSUX"] == Fraction(7, 72)
    assert p["AAEMNUX"] == Fraction(3, 2 * 72)
    assert p["ABEMNUX"] == Fraction(1, 72)
    assert all(counts("AUMENX").__le__(x).all() for x in res.leaves)
    assert "withdrawn" in res.format() and "went back to the rack" in res.format()


def test_after_a_withdrawn_play_the_next_leave_holds_its_unused_tiles(tiny):
    g = _opening(tiny, 1)
    g.pass_turn()                                   # turn 1
    g.play("D8 (B)AUMENX", challenge=1)             # turn 2, withdrawn: AUMENX back on the rack
    g.pass_turn()                                   # turn 3
    g.play("8D (BAUMEN)S")                          # turn 4: plays S from AUMENSX, keeps AUMENX
    pos, last = from_record(g.record(), 5)
    assert last.kind == "play" and A.rack_string(last.on_rack) == "AEMNUX"
    assert any("withdrawn play D8 (B)AUMENX" in k for k in last.known)
    res = infer(pos, last, tiny, table=zero_table(), margin=WIDE, max_racks=10 ** 6)
    # 6 tiles kept; they must hold AUMENX (the play used only its S): the leave is certain
    assert _leaves(res) == {"AEMNUX": 1}
    blind = infer(pos, str(last), tiny, table=zero_table(), margin=WIDE, max_racks=10)  # the string: no record
    assert len(blind.leaves) > 1


def test_our_exchange_after_their_draw_is_not_on_their_rack(tiny):
    g = _opening(tiny, 2)
    g.exchange("EEE")                               # turn 1, player 1 puts EEE into the bag
    g.play("D8 (B)AUMENS")                          # turn 2: plays AUMENS, keeps X
    pos, last = from_record(g.record(), 3)
    assert A.rack_string(last.not_on_rack) == "EEE" and not last.on_rack.any()
    known = _leaves(infer(pos, last, tiny, table=zero_table(), margin=WIDE))
    plain = infer(pos, str(last), tiny, table=zero_table(), margin=WIDE)
    pw = {A.rack_string(x): int(round(v)) for x, v in zip(plain.leaves, plain.weights)}
    # one tile kept. E: 15 in the set, 2 on the board (BAUMEN, AUMENS), ours now on our rack, and the 3 we
    # put back were in the bag when the opponent's rack was full: 15 - 2 - ours - 3 draws of E
    ours = int(pos.rack[A.code("E")])
    assert pw["E"] == 15 - 2 - ours
    n_known = sum(pw.values()) - 3
    assert known["E"] == Fraction(15 - 2 - ours - 3, n_known)
    assert known["S"] == Fraction(pw["S"], n_known) and known["X"] == Fraction(1, n_known)


def test_cli_infer_from_a_record_after_a_withdrawn_play(tiny, tmp_path, capsys):
    from engine.cli.main import main
    from engine.game.gcg import write_gcg_file

    g = _opening(tiny, 1)
    g.pass_turn()
    g.play("D8 (B)AUMENX", challenge=1)
    g.pass_turn()  # turn 3: the record then holds the mover's rack EEEEEEE on its line
    path = write_gcg_file(tmp_path / "w.gcg", g)
    assert main(["infer", "--gcg", str(path), "--turn", "3", "--lexicon", str(tiny.path), "--json",
                 "--margin", "1000"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["kind"] == "withdrawn" and out["leave_size"] == 7
    assert out["leaves"][0]["leave"] == "AEMNSUX" and out["leaves"][0]["probability"] == round(7 / 72, 6)
    assert any("withdrawn" in k for k in out["known"])


def test_cli_known_tiles_by_hand(tiny, capsys):
    """``--on-rack``/``--not-on-rack`` with ``--cgp``: the same leaves as the record's knowledge."""
    from engine.cli.main import main

    g = _opening(tiny, 2)
    g.exchange("EEE")
    g.play("D8 (B)AUMENS")
    pos, last = from_record(g.record(), 3)
    base = ["infer", "--cgp", pos.to_cgp(), "--move", str(last), "--lexicon", str(tiny.path), "--margin", "1000",
            "--json", "--top", "100"]
    assert main(base + ["--not-on-rack", "EEE"]) == 0
    by_hand = json.loads(capsys.readouterr().out)
    record = infer(pos, last, tiny, margin=WIDE)
    assert {x["leave"]: x["weight"] for x in by_hand["leaves"]} == \
        {A.rack_string(x): int(round(w)) for x, w in zip(record.leaves, record.weights)}
    assert main(base + ["--on-rack", "X"]) == 0         # X known: the one tile kept is the X
    assert [x["leave"] for x in json.loads(capsys.readouterr().out)["leaves"]] == ["X"]
    assert main(["infer", "--gcg", "x.gcg", "--on-rack", "X"]) == 2
    assert "--on-rack" in capsys.readouterr().err
