"""Endgame solver and pre-endgame: against a brute-force minimax, the table on/off, settlement by hand, CLI.

Positions: tests/data/endgames_small.tsv (from seeded self-play,
scripts/make_endgame_positions.py --small, plus three of the benchmark set).
The lexicon is the golden-word fixture; the reference minimax below uses only
the slow public API (generate_moves, Board.place) and no search tricks.
"""

from __future__ import annotations

import json
from math import comb

import numpy as np
import pytest

from conftest import DATA
from engine.position.cgp import parse_cgp
from engine.cli.main import main
from engine.analysis.endgame import depth_schedule, endgame_position, solve
from engine.movegen.generator import generate_moves
from engine.analysis.preendgame import multisets, preendgame

POS = {}
for _line in (DATA / "endgames_small.tsv").read_text(encoding="utf-8").splitlines():
    if _line.strip():
        _pid, _cls, _cgp = _line.split("\t")
        POS[_pid] = _cgp


def _val(rack, alphabet) -> int:
    return int((rack[1:] * alphabet.values[1:]).sum())


def brute(board, racks, side, passes, lex, memo):
    """Plain minimax on spread for ``side`` (German settlement, four passes end the game)."""
    a = board.alphabet
    key = (board.tiles.tobytes(), board.blanks.tobytes(), racks[0].tobytes(), racks[1].tobytes(), side, passes)
    if key in memo:
        return memo[key]
    me, opp = racks[side], racks[1 - side]
    if passes >= 4:
        return _val(opp, a) - _val(me, a)
    best = -brute(board, racks, 1 - side, passes + 1, lex, memo)
    for m in generate_moves(board, me, lex):
        if m.tiles_played == int(me.sum()):
            v = m.score + 2 * _val(opp, a)
        else:
            placed = [(r, c, a.code(ch), b) for r, c, ch, b in m.tiles]
            board.place(placed)
            for _r, _c, ch, b in m.tiles:
                me[0 if b else a.code(ch)] -= 1
            v = m.score - brute(board, racks, 1 - side, 0, lex, memo)
            board.remove(placed)
            for _r, _c, ch, b in m.tiles:
                me[0 if b else a.code(ch)] += 1
        best = max(best, v)
    memo[key] = best
    return best


def brute_root(cgp, lex):
    """``(value, {notation: value of that first move})`` by the reference minimax."""
    pos = endgame_position(parse_cgp(cgp))
    a = pos.alphabet
    board = pos.board.copy()
    racks = [pos.rack.astype(np.int32).copy(), pos.opponent_rack.astype(np.int32).copy()]
    memo = {}
    first = {"pass": -brute(board, racks, 1, pos.zero_turns + 1, lex, memo)}
    for m in generate_moves(board, racks[0], lex):
        if m.tiles_played == int(racks[0].sum()):
            first[m.notation] = m.score + 2 * _val(racks[1], a)
            continue
        placed = [(r, c, a.code(ch), b) for r, c, ch, b in m.tiles]
        board.place(placed)
        for _r, _c, ch, b in m.tiles:
            racks[0][0 if b else a.code(ch)] -= 1
        first[m.notation] = m.score - brute(board, racks, 1, 0, lex, memo)
        board.remove(placed)
        for _r, _c, ch, b in m.tiles:
            racks[0][0 if b else a.code(ch)] += 1
    return max(first.values()), first


@pytest.mark.parametrize("pid", ["s11_0", "s11_1", "s21_0", "s21_1", "s12_0", "s12_1", "sstuck_0"])
def test_solver_matches_brute_force(pid, golden_lexicon):
    value, first = brute_root(POS[pid], golden_lexicon)
    r = solve(POS[pid], golden_lexicon)
    assert r.complete
    assert r.value == value
    assert first[r.move] == value  # the chosen first move achieves the optimum
    assert r.pv[0] == r.move


def test_transposition_table_never_changes_the_value(golden_lexicon):
    for pid in ["s21_0", "s12_1", "e22_0", "e22_1", "e33_1"]:
        with_tt = solve(POS[pid], golden_lexicon)
        without = solve(POS[pid], golden_lexicon, tt_bits=0)
        assert with_tt.complete and without.complete
        assert with_tt.value == without.value, pid


def test_settlement_by_hand(golden_lexicon):
    a = parse_cgp(POS["sstuck_0"]).alphabet
    for pid in ["sstuck_0", "sstuck_1"]:
        pos = endgame_position(parse_cgp(POS[pid]))
        # neither side can place a tile: four passes, each side loses its own rack
        assert len(generate_moves(pos.board, pos.rack, golden_lexicon)) == 0
        assert len(generate_moves(pos.board, pos.opponent_rack, golden_lexicon)) == 0
        expect = _val(pos.opponent_rack, a) - _val(pos.rack, a)
        assert solve(pos, golden_lexicon).value == expect
        for passes in (1, 3):
            cgp = POS[pid].replace(" 0 lex", f" {passes} lex")
            assert parse_cgp(cgp).zero_turns == passes
            assert solve(cgp, golden_lexicon).value == expect
    # Y (10 points) against C (4): the side to move loses 10, the opponent 4
    g = parse_cgp(POS["sstuck_0"])
    assert (a.rack_string(g.rack), a.rack_string(g.opponent_rack)) == ("Y", "C")
    assert solve(g, golden_lexicon).value == 4 - 10
    # Y cannot be placed, the opponent's N can: Y passes, N goes out with its best
    # score and gains twice the Y's 10 points
    pos = endgame_position(parse_cgp(POS["s11_0"]))
    assert (a.rack_string(pos.rack), a.rack_string(pos.opponent_rack)) == ("Y", "N")
    assert len(generate_moves(pos.board, pos.rack, golden_lexicon)) == 0
    best_a = generate_moves(pos.board, pos.opponent_rack, golden_lexicon).top(1)[0].score
    r = solve(pos, golden_lexicon)
    assert r.value == -(best_a + 2 * 10)
    assert r.pv[0] == "pass" and len(r.pv) == 2
    # the other way round: N goes out at once, +2 × 10 for the opponent's Y
    r = solve(POS["s11_1"], golden_lexicon)
    assert r.value == best_a + 20 and r.pv == [r.move]


def test_limits_return_the_best_so_far(golden_lexicon):
    r = solve(POS["e33_1"], golden_lexicon, max_depth=2)
    assert r.depth == 2 and not r.complete and r.pv and r.pv[0] == r.move
    assert depth_schedule(13) == [1, 2, 3, 4, 6, 13] and depth_schedule(3) == [1, 2, 3]


def test_node_limit_returns_the_best_so_far(golden_lexicon):
    full = solve(POS["e33_1"], golden_lexicon)
    assert full.complete
    r = solve(POS["e33_1"], golden_lexicon, node_limit=0)    # depth 1 only: no reply searched
    assert r.depth == 1 and not r.complete and [it[0] for it in r.iterations] == [1]
    assert r.nodes == r.iterations[0][3]
    big = solve(POS["e33_1"], golden_lexicon, node_limit=10 * full.nodes)
    assert big.complete and big.value == full.value
    with pytest.raises(ValueError, match="node limit"):
        solve(POS["e33_1"], golden_lexicon, node_limit=-1)


def test_cli_json_shape(golden_lexicon, capsys):
    rc = main(["endgame", "--cgp", POS["s21_0"], "--lexicon", str(golden_lexicon.path), "--json"])
    assert rc == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"move", "value", "pv", "depth", "complete", "stopped", "nodes", "seconds", "cpu_seconds"}
    assert out["stopped"] is None and out["nodes"] > 0
    value, first = brute_root(POS["s21_0"], golden_lexicon)
    assert out["value"] == value and out["complete"] is True and out["pv"][0] == out["move"]
    assert isinstance(out["depth"], int) and all(isinstance(m, str) for m in out["pv"])


def test_opponent_rack_inferred_from_the_unseen_tiles(golden_lexicon):
    cgp = POS["s21_0"]
    board, racks, rest = cgp.split(" ", 2)
    mine = racks.split("/")[0]
    a = solve(cgp, golden_lexicon)
    b = solve(f"{board} {mine}/ {rest}", golden_lexicon)
    assert (a.value, a.move) == (b.value, b.move)


@pytest.mark.parametrize("change, msg", [
    (lambda c: c.replace("bag 0;", "bag 2;"), "bag"),
    (lambda c: c.replace(" LO/U ", " LO/UY ").replace("bag 0;", ""), "more Y tiles"),
    (lambda c: c.replace(" LO/U ", " L/U "), "not on the board or the racks"),
    (lambda c: c.replace(" LO/U 433/406 0", " LO/U 433/406 4"), "passes"),
    (lambda c: c.replace(" LO/U ", " LO/ ").replace("bag 0;", ""), None),
])
def test_bad_input(change, msg, golden_lexicon, capsys):
    cgp = change(POS["s21_0"])
    assert " LO/U " in POS["s21_0"]
    rc = main(["endgame", "--cgp", cgp, "--lexicon", str(golden_lexicon.path)])
    err = capsys.readouterr().err
    if msg is None:  # the opponent's rack left out: inferred, fine
        assert rc == 0
        return
    assert rc == 2
    lines = [ln for ln in err.splitlines() if ln.startswith("error:")]
    assert len(lines) == 1 and msg in lines[0]
    assert "Traceback" not in err


def test_cli_bad_limits(golden_lexicon, capsys):
    for extra in (["--time", "0"], ["--time", "abc"], ["--max-depth", "0"]):
        rc = main(["endgame", "--cgp", POS["s21_0"], "--lexicon", str(golden_lexicon.path), *extra])
        assert rc == 2
        assert capsys.readouterr().err.strip().startswith("error:")


def test_multiset_weights():
    pool = np.array([0, 2, 1, 0, 3], dtype=np.int32)  # AA B DDD
    got = {tuple(d): w for d, w in multisets(pool, 2)}
    # by hand: AA 1, AB 2, AD 6, BD 3, DD 3
    assert got == {(0, 2, 0, 0, 0): 1, (0, 1, 1, 0, 0): 2, (0, 1, 0, 0, 1): 6, (0, 0, 1, 0, 1): 3,
                   (0, 0, 0, 0, 2): 3}
    assert sum(got.values()) == comb(6, 2)


def test_preendgame_known_bag_equals_the_endgame(golden_lexicon):
    """Rack L, opponent U, the O back in the bag: every move draws it; the result
    must equal the endgame solved after that move by hand."""
    cgp = POS["s21_0"]
    board, racks, rest = cgp.split(" ", 2)
    pos = parse_cgp(f"{board} L/U {rest.replace('bag 0;', '')}")
    res = preendgame(pos, golden_lexicon, top=3, time_limit=60, passing=False)  # placements only: each is exact
    assert res["bag"] == 1 and "-" not in [m["move"] for m in res["moves"]]
    assert res["moves"] and all(0.0 <= m["win"] <= 1.0 for m in res["moves"])
    wins = [(m["win"], m["spread"]) for m in res["moves"]]
    assert wins == sorted(wins, reverse=True)
    top = res["moves"][0]
    mv = next(m for m in generate_moves(pos.board, pos.rack, golden_lexicon) if m.notation == top["move"])
    after = pos.board.copy()
    after.place([(r, c, pos.alphabet.code(ch), b) for r, c, ch, b in mv.tiles])
    from engine.position.cgp import Position

    a = pos.alphabet
    eg = solve(Position(after, a.parse_rack("U"), a.parse_rack("O")), golden_lexicon)
    final = pos.scores[0] - pos.scores[1] + mv.score - eg.value
    assert top["spread"] == pytest.approx(final)
    assert top["win"] == (1.0 if final > 0 else 0.5 if final == 0 else 0.0)
    assert top["draws"] == 1 and top["exact"] is True


def test_preendgame_cli(golden_lexicon, capsys):
    rc = main(["preendgame", "--cgp", POS["s21_0"], "--lexicon", str(golden_lexicon.path)])
    assert rc == 2 and "the bag is empty" in capsys.readouterr().err
    board, racks, rest = POS["s21_0"].split(" ", 2)
    cgp = f"{board} L/U {rest.replace('bag 0;', '')}"
    rc = main(["preendgame", "--cgp", cgp, "--lexicon", str(golden_lexicon.path), "--top", "2", "--json"])
    assert rc == 0
    out = json.loads(capsys.readouterr().out)
    placements = [m for m in out["moves"] if m["move"] != "-"]
    assert len(placements) <= 2 and out["bag"] == 1
    assert len(out["moves"]) == len(placements) + 1  # passing is evaluated beside the top placements
    assert all({"move", "win", "spread", "exact"} <= set(m) for m in out["moves"])


def test_analyze_uses_the_endgame_solver(golden_lexicon, capsys):
    rc = main(["analyze", "--cgp", POS["s21_0"], "--lexicon", str(golden_lexicon.path), "--json", "--time", "20"])
    assert rc == 0
    out = json.loads(capsys.readouterr().out)
    value, first = brute_root(POS["s21_0"], golden_lexicon)
    assert out["endgame"]["value"] == value and out["endgame"]["complete"] is True
    assert first[out["endgame"]["move"]] == value
    rc = main(["analyze", "--cgp", POS["s21_0"], "--lexicon", str(golden_lexicon.path), "--static", "--json"])
    assert rc == 0 and "endgame" not in json.loads(capsys.readouterr().out)


# benchmarks/positions/endgames.tsv e77_2: 7 tiles a side, minutes to the end (as tests/test_interrupt.py)
LONG = ("I6G7/N3H2A7/F1N1Y2SCHNUR2/OPIUM2T7/1eX1N1WO7/1REHE1ÖD7/ES1Ä2G8/T2MADEN6U/U2M2T7M/I2E10B/"
        "1ERRINGST5I/3E3ZULASSEN/2F4E6D/2Ü2JENER4e/KURVTE1E3SEKT DHILLNO/AABCEQS 347/334 0")


@pytest.mark.parametrize("clock", ["cpu", "wall"])
def test_a_time_limit_on_either_clock_stops_and_says_so(clock, golden_lexicon):
    solve(LONG, golden_lexicon, max_depth=1)  # kernels loaded before the limit starts
    r = solve(LONG, golden_lexicon, time_limit=0.5, clock=clock)
    assert not r.complete and r.stopped == "time" and r.clock == clock
    assert r.depth >= 1 and r.pv[0] == r.move and r.cpu_seconds > 0
    assert "NOT SOLVED" in r.status() and f"{clock} clock" in r.status()


def test_why_a_search_stopped(golden_lexicon):
    full = solve(POS["e33_1"], golden_lexicon)
    assert full.complete and full.stopped is None and "exact" in full.status()
    assert solve(POS["e33_1"], golden_lexicon, max_depth=2).stopped == "depth"
    assert solve(POS["e33_1"], golden_lexicon, node_limit=0).stopped == "nodes"
    assert solve(POS["e33_1"], golden_lexicon, node_limit=full.nodes // 3).stopped == "nodes"
    with pytest.raises(ValueError, match="clock"):
        solve(POS["e33_1"], golden_lexicon, clock="sundial")
    # the pruned lexicon from the first node on: the same exact value
    pruned = solve(POS["e33_1"], golden_lexicon, prune_after=0)
    assert pruned.pruned and not full.pruned and (pruned.value, pruned.complete) == (full.value, True)


def test_cli_a_stopped_search_is_not_presented_as_the_answer(golden_lexicon, capsys):
    lex = str(golden_lexicon.path)
    solve(LONG, golden_lexicon, max_depth=1)
    assert main(["endgame", "--cgp", LONG, "--lexicon", lex, "--time", "0.5", "--clock", "cpu"]) == 0
    out = capsys.readouterr().out
    assert "NOT SOLVED" in out and "cpu clock" in out and "(estimate" in out
    assert "\nbest move:" not in "\n" + out  # no unqualified answer line
    assert main(["endgame", "--cgp", LONG, "--lexicon", lex, "--nodes", "5000", "--json"]) == 0
    js = json.loads(capsys.readouterr().out)
    assert js["complete"] is False and js["stopped"] == "nodes"
    assert main(["endgame", "--cgp", POS["s21_0"], "--lexicon", lex, "--clock", "cpu", "--time", "30"]) == 0
    out = capsys.readouterr().out
    assert out.count("best move: ") == 1 and "NOT SOLVED" not in out and "complete (exact)" in out
    assert main(["endgame", "--cgp", POS["s21_0"], "--lexicon", lex, "--nodes", "0"]) == 2
    assert capsys.readouterr().err.startswith("error: --nodes")
    with pytest.raises(SystemExit) as bad:  # argparse refuses a clock it does not know
        main(["endgame", "--cgp", POS["s21_0"], "--lexicon", lex, "--clock", "sundial"])
    assert bad.value.code == 2 and "--clock" in capsys.readouterr().err
