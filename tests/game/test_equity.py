"""Static equity: leave terms, the end-of-bag correction, best-first ranking by equity, equity players, CLI."""

from __future__ import annotations

import json

import numpy as np
import pytest

from engine.game import equity as E
from engine.position.cgp import parse_cgp
from engine.cli.main import main
from engine.leaves.table import LeaveTable, default_table, leave_index
from engine.movegen.generator import best_moves, generate_moves
from engine.game.kernel_game import DecisionLog
from engine.game.selfplay import game_seed, play_equity_game

# A real position (score-player self-play, rack set to AEQRSTU): 13H RAUEST(E) 28
# keeps Q alone, 10C QUA(N)TS 15 keeps ER.
Q_VS_ER = ("15/15/12C2/12H1H/12E1O/5V3M2FÜR/5a3E1AI1D/5STRUDELN1E/5E3I1K1M1/5N3A1A1U1/10ÖLEN1/11I1D1/13E1/"
           "13S1/15 AEQRSTU/ÄEEERUZ 105/124 0 bag 48;")


def _table(values: dict[str, float]) -> LeaveTable:
    """A synthetic table: the given leaves have values, every other leave 0."""
    idx = leave_index()
    vals = np.zeros(idx.size, dtype=np.float32)
    for s, v in values.items():
        vals[idx.rank(s)] = v
    return LeaveTable(idx, vals, {"equity": {"bag_ramp": 10.0, "bag_floor": 0.0, "stuck_penalty": 10.0}})


def _by_notation(cands):
    return {c.notation: c for c in cands}


# ---------------------------------------------------------------------------
# Hand-built rankings
# ---------------------------------------------------------------------------
def test_q_alone_ranks_below_er_by_equity(golden_lexicon):
    pos = parse_cgp(Q_VS_ER)
    table = _table({"Q": -15.0, "ER": 5.0})
    cands = E.position_candidates(pos, golden_lexicon, None, table)
    by = _by_notation(cands)
    keep_q, keep_er = by["13H RAUEST(E)"], by["10C QUA(N)TS"]
    assert keep_q.leave == "Q" and keep_er.leave == "ER"
    assert keep_q.score == 28 and keep_er.score == 15
    assert keep_q.equity == pytest.approx(28 - 15.0) and keep_er.equity == pytest.approx(15 + 5.0)
    order = [c.notation for c in cands]
    assert order.index("10C QUA(N)TS") < order.index("13H RAUEST(E)")
    # by score alone the Q-keeping move is ahead
    by_score = [m.notation for m in generate_moves(pos.board, pos.rack, golden_lexicon).sorted()]
    assert by_score.index("13H RAUEST(E)") < by_score.index("10C QUA(N)TS")


def test_q_alone_ranks_below_er_with_the_shipped_table(golden_lexicon):
    pos = parse_cgp(Q_VS_ER)
    t = default_table()
    assert t.value("Q") < t.value("ER")
    by = _by_notation(E.position_candidates(pos, golden_lexicon, None, t))
    assert by["10C QUA(N)TS"].equity > by["13H RAUEST(E)"].equity
    top = E.position_candidates(pos, golden_lexicon, 1, t)[0]
    assert top.notation != "13H RAUEST(E)"


def test_equal_leave_values_rank_by_score(golden_lexicon):
    pos = parse_cgp(Q_VS_ER)
    cands = E.position_candidates(pos, golden_lexicon, None, _table({}))
    plays = [c for c in cands if c.kind == "play"]
    assert [c.score for c in plays] == sorted((c.score for c in plays), reverse=True)
    assert all(c.leave_value == 0 for c in cands)


# ---------------------------------------------------------------------------
# Best-first by equity equals the full list; precomputed leave arrays equal movegen's callable route
# ---------------------------------------------------------------------------
def _positions(lexicon, games=3, every=3):
    from engine.game.game import Game

    out = []
    for i in range(games):
        g = Game(2, lexicon, seed=game_seed(11, i), keep_undo=False)
        k = 0
        while not g.over:
            if k % every == 0:
                out.append((g.board.copy(), g.racks[g.to_move].copy(), len(g.bag)))
            ms = best_moves(g.board, g.racks[g.to_move], lexicon, 1, g.checks)
            if ms:
                g.play_generated(ms[0])
            else:
                g.pass_turn()
            k += 1
    return out


@pytest.mark.parametrize("n", [1, 5])
def test_best_first_equity_equals_full_ranking(golden_lexicon, n):
    table = default_table()
    for board, rack, bag in _positions(golden_lexicon):
        fast = E.best_equity(board, rack, golden_lexicon, bag=bag, n=n, table=table, exchanges=False)
        full = [c for c in E.rank_moves(board, rack, golden_lexicon, bag=bag, table=table, exchanges=False)]
        assert [round(c.equity, 4) for c in fast] == [round(c.equity, 4) for c in full[:n]]
        assert [c.notation for c in fast] == [c.notation for c in full[:n]]
        # the public movegen route with a Python leave function gives the same moves
        fn = E.leave_function(table, bag, E.out_bonus(board, rack) if bag <= 0 else 0.0)
        pub = best_moves(board, rack, golden_lexicon, n, leave_value=fn)
        assert [m.notation for m in pub] == [c.notation for c in fast if c.kind == "play"]
        assert [round(m.equity, 4) for m in pub] == [round(c.equity, 4) for c in fast if c.kind == "play"]


def test_leave_arrays_match_the_leave_function():
    table = default_table()
    a = table.alphabet
    for rack_s, bag in [("AEQRSTU", 50), ("EE??NRS", 3), ("QXYZÄÖÜ", 20), ("AB", 0), ("EEEEEEE", 80)]:
        rack = a.parse_rack(rack_s)
        radix, lv, lvmax = E.leave_arrays(table, rack, bag, 12.0)
        fn = E.leave_function(table, bag, 12.0)
        from engine.movegen.generator import leave_arrays as mg_leave_arrays

        r2, lv2, lvmax2 = mg_leave_arrays(rack, fn)
        assert np.array_equal(radix, r2)
        assert np.allclose(lv, lv2) and np.allclose(lvmax, lvmax2)


# ---------------------------------------------------------------------------
# The end-of-bag correction
# ---------------------------------------------------------------------------
def test_leave_scale():
    p = E.EquityParams(bag_ramp=10.0, bag_floor=0.5)
    assert E.leave_scale(0, p) == 0.0
    assert E.leave_scale(10, p) == 1.0 and E.leave_scale(80, p) == 1.0
    assert E.leave_scale(5, p) == pytest.approx(0.75)
    assert E.leave_scale(1, p) == pytest.approx(0.55)
    vals = [E.leave_scale(b, p) for b in range(1, 30)]
    assert vals == sorted(vals)
    assert E.leave_scale(3, E.EquityParams(bag_ramp=0)) == 1.0


def test_leave_term_end_game():
    t = _table({"ER": 4.0})
    p = E.EquityParams(bag_ramp=10.0, bag_floor=0.0, stuck_penalty=10.0)
    assert E.leave_term(t, "ER", 20, params=p) == 4.0
    assert E.leave_term(t, "ER", 5, params=p) == pytest.approx(2.0)
    assert E.leave_term(t, "", 5, params=p) == 0.0
    # bag empty: keeping E, R, Q costs 2 × (1 + 1 + 10) + 10; going out gains the bonus
    assert E.leave_term(t, "ERQ", 0, bonus=30.0, params=p) == -(2 * 12 + 10)
    assert E.leave_term(t, "", 0, bonus=30.0, params=p) == 30.0


def test_end_game_equity_in_a_position(golden_lexicon):
    """Bag empty: playing out earns twice the opponent's rack; any other move pays twice its leave + 10."""
    from engine.game.game import Game

    g = Game(2, golden_lexicon, seed=game_seed(4, 2), keep_undo=False)
    while len(g.bag) > 0 and not g.over:
        ms = best_moves(g.board, g.racks[g.to_move], golden_lexicon, 1, g.checks)
        g.play_generated(ms[0]) if ms else g.pass_turn()
    assert not g.over and len(g.bag) == 0
    me, opp = g.to_move, 1 - g.to_move
    rack = g.racks[me]
    vals = g.alphabet.values
    opp_value = int((g.racks[opp] * vals).sum())
    assert E.out_bonus(g.board, rack) == 2 * opp_value
    table = default_table()
    cands = E.rank_moves(g.board, rack, golden_lexicon, bag=0, table=table)
    assert all(c.kind != "exchange" for c in cands)
    for c in cands:
        if c.kind != "play":
            continue
        left = g.alphabet.parse_rack(c.leave)
        if not left.any():
            assert c.leave_value == 2 * opp_value
        else:
            assert c.leave_value == pytest.approx(-(2 * int((left * vals).sum()) + 10))
        assert c.equity == pytest.approx(c.score + c.leave_value)


# ---------------------------------------------------------------------------
# Exchanges and passes
# ---------------------------------------------------------------------------
def test_exchanges_only_with_seven_in_the_bag(golden_lexicon):
    pos = parse_cgp(Q_VS_ER)
    table = _table({"ER": 6.0, "AERSTU": 100.0})
    cands = E.rank_moves(pos.board, pos.rack, golden_lexicon, bag=48, table=table)
    ex = [c for c in cands if c.kind == "exchange"]
    assert len(ex) == 2 ** 7 - 1  # every non-empty subset of 7 distinct tiles
    top = ex[0]
    assert top.exchanged == "Q" and top.leave == "AERSTU" and top.equity == 100.0 and top.notation == "-Q"
    assert cands.index(top) < 10  # ahead of almost every play (a play of Q alone keeps AERSTU too)
    for c in ex:
        assert c.equity == E.leave_term(table, c.leave, 48) and c.score == 0
    few = E.rank_moves(pos.board, pos.rack, golden_lexicon, bag=6, table=table)
    assert not any(c.kind == "exchange" for c in few)
    best = E.best_equity(pos.board, pos.rack, golden_lexicon, bag=48, n=3, table=table)
    assert [c.notation for c in best] == [c.notation for c in cands[:3]]


def test_pass_only_when_nothing_else(golden_lexicon):
    from engine.position.board import Board

    board = Board()
    rack = board.alphabet.parse_rack("Q")
    out = E.best_equity(board, rack, golden_lexicon, bag=3, n=3, table=_table({}))
    assert [c.kind for c in out] == ["pass"] and out[0].notation == "-"


# ---------------------------------------------------------------------------
# Players and decision logs
# ---------------------------------------------------------------------------
def test_equity_game_is_reproducible_and_complete(golden_lexicon):
    t = default_table()
    g1, log1 = play_equity_game(golden_lexicon, 5, (t, None), record=True)
    g2, log2 = play_equity_game(golden_lexicon, 5, (t, None), record=True)
    assert g1.over and g1.scores == g2.scores
    assert np.array_equal(log1.rank, log2.rank)
    assert g1.tile_total() == g1.alphabet.total_tiles
    assert len(log1) == sum(1 for x in g1.turns if x.kind in ("play", "exchange", "pass"))
    # the log's scores are the score pad's
    plays = [x.score for x in g1.turns if x.kind in ("play", "exchange", "pass")]
    assert log1.score.tolist() == plays


def test_decision_log_targets():
    p = E.EquityParams(bag_ramp=10.0, bag_floor=0.0)
    vals = np.zeros(leave_index().size, dtype=np.float32)
    r_er = leave_index().rank("ER")
    vals[r_er] = 4.0
    log = DecisionLog(
        player=np.array([0, 1, 0, 1], dtype=np.int8), kind=np.array([0, 0, 0, 0], dtype=np.int8),
        rank=np.array([r_er, r_er, r_er, -1], dtype=np.int32), bag=np.array([50, 45, 5, 0], dtype=np.int16),
        score=np.array([10, 20, 30, 40], dtype=np.int16),
        fixed=np.array([np.nan, np.nan, np.nan, 24.0], dtype=np.float32),
        next=np.array([2, 3, -1, -1]), end=np.array([0, 0, -8.0, 0], dtype=np.float32))
    terms = log.terms(vals, p)
    assert terms.tolist() == [4.0, 4.0, 2.0, 24.0]
    assert log.targets(vals, p).tolist() == [32.0, 64.0, -8.0, 0.0]
    both = DecisionLog.concat([log, log])
    assert both.next.tolist() == [2, 3, -1, -1, 6, 7, -1, -1]


def test_choose_score_player_matches_selfplay(golden_lexicon):
    from engine.game.selfplay import play_game

    g = play_equity_game(golden_lexicon, 9, (None, None), kernel=False)  # engine.game.equity.choose
    h = play_game(golden_lexicon, 9, kernel=False)
    assert g.scores == h.scores


# ---------------------------------------------------------------------------
# CLI
# ---------------------------------------------------------------------------
def test_cli_analyze_table(golden_lexicon, capsys):
    rc = main(["analyze", "--cgp", Q_VS_ER, "--lexicon", str(golden_lexicon.path), "--top", "5"])
    out = capsys.readouterr().out.splitlines()
    assert rc == 0
    assert out[0].startswith("rack AEQRSTU  bag 48")
    assert out[1].split() == ["#", "move", "score", "leave", "leave", "value", "equity"]
    assert len(out) == 2 + 5
    eqs = [float(line.split()[-1]) for line in out[2:]]
    assert eqs == sorted(eqs, reverse=True)


def test_cli_analyze_json_all(golden_lexicon, capsys):
    rc = main(["analyze", "--cgp", Q_VS_ER, "--lexicon", str(golden_lexicon.path), "--all", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert rc == 0 and data["rack"] == "AEQRSTU" and data["bag"] == 48
    moves = data["moves"]
    n_plays = len(generate_moves(parse_cgp(Q_VS_ER).board, parse_cgp(Q_VS_ER).rack, golden_lexicon))
    assert len(moves) == n_plays + 127
    assert {"move", "score", "leave", "leave_value", "equity", "rank"} <= set(moves[0])
    for m in moves:
        assert m["equity"] == pytest.approx(m["score"] + m["leave_value"], abs=1e-3)


@pytest.mark.parametrize("argv, msg", [
    (["analyze", "--cgp", "garbage"], "error:"),
    (["analyze", "--cgp", Q_VS_ER, "--top", "0"], "--top must be at least 1"),
    (["analyze", "--cgp", Q_VS_ER, "--leaves", "/nonexistent.klv2"], "error:"),
    (["practice", "--seed", "1", "--move", "8H QQQ"], "error: illegal move"),
    (["practice", "--seed", "1", "--turns", "-1", "--move", "x"], "--turns must be at least 0"),
])
def test_cli_errors(golden_lexicon, capsys, argv, msg):
    rc = main(argv + ["--lexicon", str(golden_lexicon.path)])
    err = capsys.readouterr().err
    assert rc == 2 and msg in err
    assert len([ln for ln in err.splitlines() if ln.startswith("error:")]) == 1


def test_cli_practice(golden_lexicon, capsys):
    from engine.cli.analyze import deal

    g = deal(golden_lexicon, 7, 6, default_table())
    pos = g.position()
    best = E.position_candidates(pos, golden_lexicon, 1)[0]
    # play the best move: ranks first by equity
    rc = main(["practice", "--seed", "7", "--turns", "6", "--lexicon", str(golden_lexicon.path),
               f"--move={best.notation}", "--json", "--time", "1"])
    data = json.loads(capsys.readouterr().out)
    assert rc == 0 and data["rank_by_equity"] == 1 and data["equity_loss"] == 0
    # the deeper answer of a mid-game position: a simulation with intervals, the user's move among its candidates
    sim = data["search"]
    assert sim["phase"] == "simulation" and best.notation in [m["move"] for m in sim["moves"]]
    assert all(m["ci"][0] <= m["spread"] <= m["ci"][1] for m in sim["moves"] if m["iterations"] > 1)
    assert data["rack"] == pos.rack_string
    assert "/" in data["cgp"] and data["cgp"].split()[1].endswith("/")  # the opponent's rack is hidden
    assert len(data["best_by_equity"]) == 5 and len(data["best_by_score"]) == 5
    if best.kind == "play":
        assert data["rank_by_score"] >= 1 and data["of_score"] >= data["rank_by_score"]
        assert data["best_by_score"][0]["score"] >= best.score
    # the same seed deals the same position; text output names both rankings
    worst = E.position_candidates(pos, golden_lexicon, None)[-1]
    rc = main(["practice", "--seed", "7", "--turns", "6", "--lexicon", str(golden_lexicon.path),
               f"--move={worst.notation}", "--time", "1"])
    out = capsys.readouterr().out
    assert rc == 0 and f"your rack: {pos.rack_string}" in out
    assert "simulation (2 plies" in out and f"{worst.notation}" in out.split("simulation (2 plies")[1]
    rc = main(["practice", "--seed", "7", "--turns", "6", "--lexicon", str(golden_lexicon.path),
               f"--move={worst.notation}", "--static"])
    assert rc == 0 and "simulation" not in capsys.readouterr().out
    assert "by equity: #" in out and "best by equity:" in out and "best by score:" in out
