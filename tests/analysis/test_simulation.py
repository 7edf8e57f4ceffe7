"""Monte Carlo simulation (engine.analysis.simulation): statistics on positions with known answers,
reproducibility across backends, early stopping, candidates, CLI.

The known answers come from an independent oracle: the position set up as an
:class:`engine.game.game.Game` (the colleague's rules engine: its own scoring,
draws and end-of-game settlement), the candidate played, then static
best-score players to the end of the game. Near the end of the game every
opponent rack can be enumerated, so the exact expected spread and win
probability are known too.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math

import numpy as np
import pytest

from engine.position.cgp import parse_cgp
from engine.game.game import Game
from engine.movegen.generator import best_moves
from engine.analysis.simulation import (
    LeavePlayer,
    WinModel,
    iteration_rng,
    normal_interval,
    prepare_candidates,
    simulate,
    wilson_interval,
)

# Bag empty, the opponent holds ETUU. 10F (Y)EN (12) wins by 1 point in the end; every other move loses.
ENDGAME = ("LCD2ZEHEN4C/2FRAU1DORTIGER/2Ü11E/11M2W/10KULIs/11SEX1/7HÄuFIG2/5BSP3KEHR/5O2JE5/5Y3IQ2A1/"
           "4VS3EU1IN1/2RAD1ENTSANNT1/1MAGENS3L1SUN/NDR4BÖHME1EO/10EM2T EINST/ETUU 300/319 0 lex golden;")
ENDGAME_SPREADS = {"10F (Y)EN": 20, "10F (Y)IN": 18, "15C EINST": 18, "3E IST": 17, "15C EINS": 14, "E2 (A)SIEN": 13}

# Three tiles in the bag, ten unseen (CDENNOUUU?). The bingo 12H VE(R)EISTE (90) wins against every
# possible opponent rack; the other moves win only sometimes.
NEAR_END = ("C3WOLF7/H4BAR7/RAM3M8/1KÜSSTEN7/HPS1Ä1EINHAUEND/A1S1T2L6A/B1E1Z1Y7M/E2JEDEN6M/1OFEN1N7S/"
            "1HIT5K5/2X1G4U5/ÖDERE4R5/2R1IRQ2I5/1USTG4E5/4TILGeN5 EEEISTV/DENOUU? 300/309 0 lex golden;")
BINGO = "12H VE(R)EISTE"

MIDGAME = ("15/15/15/15/15/15/3aNODE7/C3ISAR7/O3C10/L3KÖDERN5/T2JESU8/SUdELE9/2Ü12/2N12/2N12 "
           "ABHSUUX/EGINTUZ 64/106 0 lex golden;")

Z95 = 1.959963984540054
SCORE = LeavePlayer()  # best-score players, as the oracle plays


# ---------------------------------------------------------------------------
# The oracle
# ---------------------------------------------------------------------------
def playout(pos, notation: str, opp_rack: np.ndarray, lexicon) -> int:
    """Spread (side to move minus opponent, over the rest of the game) of ``notation`` followed by
    best-score players to the end, with the opponent holding ``opp_rack`` and the rest unseen in the bag."""
    a = pos.alphabet
    g = Game(2, lexicon, seed=0, first=0, keep_undo=False)
    g.bag.put_back(c for r in g.racks for c in range(a.size + 1) for _ in range(int(r[c])))
    for r in g.racks:
        r[:] = 0
    t, bl = pos.board.tiles, pos.board.blanks
    g.bag.remove(0 if bl[i, j] else int(t[i, j]) for i in range(15) for j in range(15) if t[i, j])
    g.board.tiles[:] = t
    g.board.blanks[:] = bl
    g.set_rack(0, a.rack_string(pos.rack))
    g.set_rack(1, a.rack_string(opp_rack))
    assert len(g.bag) == int(pos.unseen().sum() - opp_rack.sum())
    g.play(notation)
    while not g.over:
        ms = best_moves(g.board, g.racks[g.to_move], lexicon, 1, g.checks)
        if ms:
            g.play_generated(ms[0])
        elif len(g.bag) >= 7:
            g.exchange_all()
        else:
            g.pass_turn()
    return g.scores[0] - g.scores[1]


def opponent_racks(pool: np.ndarray, k: int = 7):
    """Every distinct k-tile rack drawn from ``pool`` (counts) with its probability."""
    codes = [c for c in range(pool.shape[0]) if pool[c]]
    total = math.comb(int(pool.sum()), k)
    for take in itertools.product(*(range(int(pool[c]) + 1) for c in codes)):
        if sum(take) != k:
            continue
        rack = np.zeros_like(pool)
        p = 1
        for c, n in zip(codes, take):
            rack[c] = n
            p *= math.comb(int(pool[c]), n)
        yield rack, p / total


def win_value(lead: int) -> float:
    return 1.0 if lead > 0 else (0.5 if lead == 0 else 0.0)


@pytest.fixture(scope="module")
def lex(golden_lexicon):
    return golden_lexicon


# ---------------------------------------------------------------------------
# Known answers
# ---------------------------------------------------------------------------
def test_endgame_exact_answer(lex):
    pos = parse_cgp(ENDGAME)
    res = simulate(pos, lex, n_candidates=6, plies=40, iterations=120, seed=5, progress=False,
                   stop_when_clearly_ahead=False, player=SCORE)
    lead0 = pos.scores[0] - pos.scores[1]
    assert {c.notation for c in res.candidates} == set(ENDGAME_SPREADS)
    for c in res.candidates:
        exact = playout(pos, c.notation, pos.unseen(), lex)
        assert exact == ENDGAME_SPREADS[c.notation]
        assert c.iterations == 120
        assert np.all(c.spreads == exact)
        assert c.mean_spread == exact and c.stderr == 0.0 and c.ci == (exact, exact)
        assert c.win_rate == win_value(lead0 + exact)
    best = res.best
    assert best.notation == "10F (Y)EN" and best.win_rate == 1.0
    # Wilson interval of 120 wins in 120: upper 1, lower n / (n + z^2)
    assert best.win_ci[1] == 1.0
    assert best.win_ci[0] == pytest.approx(120 / (120 + Z95 ** 2), abs=1e-12)
    losers = [c for c in res.candidates if c is not best]
    assert all(c.win_rate == 0.0 and c.win_ci[0] == 0.0 for c in losers)


def test_endgame_stops_when_one_move_is_clearly_ahead(lex):
    pos = parse_cgp(ENDGAME)
    res = simulate(pos, lex, n_candidates=6, plies=40, iterations=1000, seed=5, progress=False,
                   batch_size=25, min_iterations=50, player=SCORE)
    assert res.stop_reason == "one left"
    assert res.best.notation == "10F (Y)EN" and res.best.pruned_at is None
    assert all(c.pruned_at == 50 and c.iterations == 50 for c in res.candidates if c is not res.best)
    assert res.total_iterations == 6 * 50


def test_near_end_statistics_match_exhaustive_oracle(lex):
    """Every iteration equals the oracle's playout for the opponent rack that iteration drew; the sample
    means and win rates agree with the exact expectations over all possible opponent racks."""
    pos = parse_cgp(NEAR_END)
    lead0 = pos.scores[0] - pos.scores[1]
    pool = pos.unseen()
    assert int(pool.sum()) == 10  # 7 on the opponent's rack, 3 in the bag
    n, seed = 200, 11
    res = simulate(pos, lex, n_candidates=4, plies=40, iterations=n, seed=seed, progress=False,
                   stop_when_clearly_ahead=False, player=SCORE)
    racks = list(opponent_racks(pool))
    assert sum(p for _r, p in racks) == pytest.approx(1.0)
    codes = np.repeat(np.arange(pool.shape[0]), pool)
    for c in res.candidates:
        # each candidate plays >= 3 tiles, so the mover draws the whole bag: the outcome depends only
        # on the opponent's rack
        assert c.candidate.move.tiles_played >= 3
        outcome = {r.tobytes(): playout(pos, c.notation, r, lex) for r, _p in racks}
        for i in range(n):
            drawn = iteration_rng(seed, 0, i).permutation(codes)[:7]
            r = np.bincount(drawn, minlength=pool.shape[0]).astype(pool.dtype)
            assert c.spreads[i] == outcome[r.tobytes()]
            assert c.wins[i] == win_value(lead0 + outcome[r.tobytes()])
        exact_mean = sum(p * outcome[r.tobytes()] for r, p in racks)
        exact_win = sum(p * win_value(lead0 + outcome[r.tobytes()]) for r, p in racks)
        assert abs(c.mean_spread - exact_mean) <= 4 * c.stderr
        always = all(lead0 + o > 0 for o in outcome.values())
        if always:
            assert c.win_rate == 1.0
        else:
            assert abs(c.win_rate - exact_win) <= 4 * math.sqrt(exact_win * (1 - exact_win) / n)
        mean, se, lo, hi = normal_interval(c.spreads)
        assert (c.mean_spread, c.stderr, c.ci) == (mean, se, (lo, hi))
        assert c.stderr == pytest.approx(np.std(c.spreads, ddof=1) / math.sqrt(n))
        assert c.ci[1] - c.ci[0] == pytest.approx(2 * Z95 * c.stderr)
        if c.notation == BINGO:
            assert always and c.win_rate == 1.0
        else:
            assert not always and exact_win < 0.9
    assert res.best.notation == BINGO


def test_near_end_early_stop_keeps_the_winning_move(lex):
    pos = parse_cgp(NEAR_END)
    res = simulate(pos, lex, n_candidates=5, plies=2, iterations=2000, seed=3, progress=False,
                   stop_rule="overlap")  # equity players, the interval-overlap rule
    assert res.stop_reason == "one left"
    best = res.best
    assert best.notation == BINGO and best.pruned_at is None and best.win_rate > 0.95
    for c in res.candidates:
        if c is not best:
            assert c.pruned_at is not None
            # the rule: its upper bound at 99% was below the best one's lower bound at that point
            z = 2.5758293035489004
            n = c.pruned_at
            hi = c.spreads[:n].mean() + z * c.spreads[:n].std(ddof=1) / math.sqrt(n)
            b = best.spreads[:n]
            assert hi < b.mean() - z * b.std(ddof=1) / math.sqrt(n)
    assert res.total_iterations < 5 * 2000


# ---------------------------------------------------------------------------
# Reproducibility
# ---------------------------------------------------------------------------
def _same(r1, r2):
    assert [c.notation for c in r1.candidates] == [c.notation for c in r2.candidates]
    for a, b in zip(r1.candidates, r2.candidates):
        assert a.iterations == b.iterations and a.pruned_at == b.pruned_at
        assert np.array_equal(a.spreads, b.spreads) and np.array_equal(a.wins, b.wins)
        assert (a.mean_spread, a.stderr, a.ci, a.win_rate, a.win_ci) == (b.mean_spread, b.stderr, b.ci, b.win_rate,
                                                                          b.win_ci)
    assert r1.stop_reason == r2.stop_reason and r1.total_iterations == r2.total_iterations


SIM_ARGS = dict(n_candidates=4, plies=2, iterations=120, seed=42, progress=False, batch_size=30, min_iterations=60)


@pytest.fixture(scope="module")
def local_result(lex):
    return simulate(parse_cgp(MIDGAME), lex, **SIM_ARGS)


def test_same_seed_same_numbers(lex, local_result):
    _same(local_result, simulate(parse_cgp(MIDGAME), lex, **SIM_ARGS))


def test_process_backend_gives_the_same_numbers(lex, local_result):
    res = simulate(parse_cgp(MIDGAME), lex, workers=2, backend="process", **SIM_ARGS)
    assert res.backend == "process" and res.workers == 2
    _same(local_result, res)


def test_ray_backend_gives_the_same_numbers(lex, local_result):
    ray = pytest.importorskip("ray")
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        res = simulate(parse_cgp(MIDGAME), lex, workers=2, backend="ray", **SIM_ARGS)
    finally:
        if started:
            ray.shutdown()
    assert res.backend == "ray"
    _same(local_result, res)


def test_other_seed_other_numbers(lex, local_result):
    res = simulate(parse_cgp(MIDGAME), lex, **{**SIM_ARGS, "seed": 43})
    assert not np.array_equal(res.candidates[0].spreads, local_result.candidates[0].spreads)


def test_samples_do_not_depend_on_batching(lex):
    args = dict(n_candidates=2, plies=2, iterations=40, seed=9, progress=False, stop_when_clearly_ahead=False)
    r1 = simulate(parse_cgp(MIDGAME), lex, batch_size=7, **args)
    r2 = simulate(parse_cgp(MIDGAME), lex, batch_size=40, **args)
    for a, b in zip(r1.candidates, r2.candidates):
        assert np.array_equal(a.spreads, b.spreads) and np.array_equal(a.wins, b.wins)


def test_common_random_numbers_share_the_opponent_rack(lex):
    """With common random numbers, a candidate simulated alone gives the same samples as in a list;
    without them its samples depend on its index."""
    pos = parse_cgp(MIDGAME)
    moves = prepare_candidates(pos, lex, n_candidates=3)
    args = dict(plies=2, iterations=20, seed=1, progress=False, stop_when_clearly_ahead=False)
    both = simulate(pos, lex, candidates=moves, **args)
    alone = simulate(pos, lex, candidates=[moves[2]], **args)
    assert np.array_equal(both.candidates[2].spreads, alone.candidates[0].spreads)
    both_ind = simulate(pos, lex, candidates=moves, common_random_numbers=False, **args)
    alone_ind = simulate(pos, lex, candidates=[moves[2]], common_random_numbers=False, **args)
    assert not np.array_equal(both_ind.candidates[2].spreads, alone_ind.candidates[0].spreads)


# ---------------------------------------------------------------------------
# Definitions
# ---------------------------------------------------------------------------
VOWELS = None


def consonant_leave(leave) -> float:
    """A toy leave function (module level: picklable): -1.5 per vowel kept, +1 per blank."""
    global VOWELS
    if VOWELS is None:
        from lexicon_tools.alphabet import german

        a = german()
        VOWELS = np.array([a.code(v) for v in "AÄEIOÖUÜ"])
    return float(-1.5 * leave[VOWELS].sum() + leave[0])


def test_zero_plies_is_static_equity(lex):
    pos = parse_cgp(MIDGAME)
    a = pos.alphabet
    res = simulate(pos, lex, n_candidates=5, plies=0, iterations=10, seed=1, progress=False,
                   leave_value=consonant_leave, stop_when_clearly_ahead=False)
    for c in res.candidates:
        m = c.move
        expect = m.score + consonant_leave(a.parse_rack(m.leave))
        assert m.equity == pytest.approx(expect)
        assert np.all(c.spreads == expect)
    # ranked by equity, as the static player ranks them
    eq = [c.move.equity for c in res.candidates]
    assert eq == sorted(eq, reverse=True)


def test_leave_player_and_process_backend(lex):
    pos = parse_cgp(MIDGAME)
    args = dict(n_candidates=2, plies=2, iterations=30, seed=2, progress=False, leave_value=consonant_leave,
                stop_when_clearly_ahead=False)
    _same(simulate(pos, lex, **args), simulate(pos, lex, workers=2, **args))


def test_exchange_and_pass_candidates(lex):
    pos = parse_cgp(MIDGAME)
    res = simulate(pos, lex, candidates=["15A HA(N)S", "-UUX", "-"], plies=2, iterations=40, seed=4,
                   progress=False, stop_when_clearly_ahead=False)
    kinds = [c.candidate.kind for c in res.candidates]
    assert kinds == ["play", "exchange", "pass"]
    assert [c.notation for c in res.candidates] == ["15A HA(N)S", "-UUX", "-"]
    assert res.candidates[1].candidate.leave == "ABHS"
    assert res.best.notation == "15A HA(N)S"
    d = res.to_dict()
    assert d["candidates"][0]["move"] == "15A HA(N)S"


def test_bad_candidates(lex):
    pos = parse_cgp(MIDGAME)
    with pytest.raises(ValueError, match="not on the rack"):
        simulate(pos, lex, candidates=["-EEE"], progress=False)
    with pytest.raises(ValueError, match="twice"):
        simulate(pos, lex, candidates=["15A HA(N)S", "15A HA(N)S"], progress=False)
    with pytest.raises(ValueError):
        simulate(pos, lex, candidates=["8H QQQ"], progress=False)
    with pytest.raises(ValueError, match="7 tiles in the bag"):
        simulate(parse_cgp(NEAR_END), lex, candidates=["-EEV"], progress=False)


@pytest.mark.parametrize("kwargs, match", [
    (dict(plies=-1), "plies"),
    (dict(iterations=0), "iterations"),
    (dict(workers=2, backend="local"), "local backend"),
    (dict(backend="spark"), "backend"),
    (dict(leave_value=consonant_leave, player=LeavePlayer()), "either"),
    (dict(stop_on="equity"), "stop_on"),
    (dict(confidence=1.5), "confidence"),
    (dict(known_opponent_rack=True, seed=-1), "seed"),
])
def test_bad_arguments(lex, kwargs, match):
    with pytest.raises(ValueError, match=match):
        simulate(parse_cgp(MIDGAME), lex, progress=False, **kwargs)


def test_known_opponent_rack(lex):
    pos = parse_cgp(MIDGAME)
    res = simulate(pos, lex, n_candidates=2, plies=1, iterations=20, seed=3, progress=False,
                   known_opponent_rack=True, stop_when_clearly_ahead=False)
    # the opponent's rack is fixed and its reply does not depend on the bag: one outcome per candidate
    for c in res.candidates:
        assert len(set(c.spreads.tolist())) == 1
    with pytest.raises(ValueError, match="no opponent rack"):
        simulate(parse_cgp(MIDGAME.replace("ABHSUUX/EGINTUZ", "ABHSUUX/")), lex, known_opponent_rack=True,
                 progress=False)


# ---------------------------------------------------------------------------
# Statistics helpers and the win model
# ---------------------------------------------------------------------------
def test_wilson_interval():
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.27753, abs=1e-5)
    lo, hi = wilson_interval(5, 10)
    assert (lo, hi) == (pytest.approx(0.23659, abs=1e-5), pytest.approx(0.76341, abs=1e-5))
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = wilson_interval(50, 100, 0.99)
    assert lo < wilson_interval(50, 100)[0] and hi > wilson_interval(50, 100)[1]


def test_normal_interval():
    v = np.array([1.0, 2.0, 3.0, 4.0])
    mean, se, lo, hi = normal_interval(v)
    assert mean == 2.5 and se == pytest.approx(np.std(v, ddof=1) / 2)
    assert (lo, hi) == (pytest.approx(2.5 - Z95 * se), pytest.approx(2.5 + Z95 * se))
    assert normal_interval(np.array([3.0]))[1] == math.inf
    assert normal_interval(np.array([3.0, 3.0]))[1:] == (0.0, 3.0, 3.0)


def test_win_model():
    m = WinModel()
    assert m.probability(0, 50, True) > 0.5 > m.probability(0, 50, False)
    for lead in (-40, -5, 0, 7, 60):
        for t in (1, 10, 80):
            assert m.probability(lead, t, True) + m.probability(-lead, t, False) == pytest.approx(1.0)
            assert m.probability(lead + 10, t, True) >= m.probability(lead, t, True)
    assert m.probability(10, 30, True) > m.probability(0, 30, True)
    assert m.probability(30, 5, False) > m.probability(30, 80, False)
    assert m.probability(1, 0, False) == 1.0 and m.probability(0, 0, True) == 0.5


def test_unfinished_games_use_the_win_model(lex):
    pos = parse_cgp(MIDGAME)
    res = simulate(pos, lex, n_candidates=1, plies=2, iterations=30, seed=6, progress=False)
    w = res.candidates[0].wins
    assert np.all((w > 0) & (w < 1))  # early in the game nothing ends within two plies
    assert res.stop_reason == "single candidate"


def test_progress_bar_on_stderr(lex, capsys):
    simulate(parse_cgp(MIDGAME), lex, n_candidates=2, plies=1, iterations=10, seed=1, progress=True)
    assert "simulate" in capsys.readouterr().err


# ---------------------------------------------------------------------------
# Equity player (engine.game.equity) and the CLI
# ---------------------------------------------------------------------------
def test_equity_player_with_a_zero_table_plays_like_the_score_player(lex):
    pytest.importorskip("engine.game.equity")
    from engine.leaves.table import zero_table
    from engine.analysis.simulation import EquityPlayer

    pos = parse_cgp(MIDGAME)
    moves = prepare_candidates(pos, lex, n_candidates=2)
    args = dict(candidates=moves, plies=2, iterations=20, seed=8, progress=False, stop_when_clearly_ahead=False)
    r1 = simulate(pos, lex, player=SCORE, **args)
    r2 = simulate(pos, lex, player=EquityPlayer(zero_table()), **args)
    for a, b in zip(r1.candidates, r2.candidates):
        assert np.array_equal(a.spreads, b.spreads)


def test_cli_json(lex, capsys):
    from engine.cli.simulate import add_parser

    p = argparse.ArgumentParser()
    add_parser(p.add_subparsers(dest="command"))
    args = p.parse_args(["simulate", "--cgp", ENDGAME, "--lexicon", str(lex.path), "-n", "3", "--plies", "40",
                         "-i", "60", "--seed", "1", "-w", "1", "--json", "--no-progress", "--min-iterations", "50",
                         "--player", "score"])
    assert args.func(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["seed"] == 1 and out["stop_reason"] == "one left"
    assert out["candidates"][0]["move"] == "10F (Y)EN"
    assert out["candidates"][0]["win_rate"] == 1.0 and out["candidates"][0]["stderr"] == 0.0


def test_cli_table(lex, capsys):
    from engine.cli.simulate import main

    assert main(["--cgp", MIDGAME, "--lexicon", str(lex.path), "-n", "2", "-i", "20", "--seed", "1", "-w", "1",
                 "--no-progress", "--move", "15A HA(N)S", "--move=-UUX"]) == 0
    out = capsys.readouterr().out
    assert "15A HA(N)S" in out and "-UUX" in out and "seed 1" in out
    assert main(["--cgp", MIDGAME, "--lexicon", str(lex.path), "--move=-EEE", "--no-progress", "-w", "1"]) == 2


def test_sim_pool_is_reused_and_gives_the_same_numbers(lex, local_result):
    from engine.analysis.simulation import SimPool

    with SimPool(2) as pool:
        r1 = simulate(parse_cgp(MIDGAME), lex, pool=pool, **SIM_ARGS)
        r2 = simulate(parse_cgp(MIDGAME), lex, pool=pool, **{**SIM_ARGS, "seed": 43})
        r3 = simulate(parse_cgp(MIDGAME), lex, pool=pool, **SIM_ARGS)
    assert r1.backend == "process" and r1.workers == 2
    _same(local_result, r1)
    _same(local_result, r3)
    assert not np.array_equal(r2.candidates[0].spreads, r1.candidates[0].spreads)
    with pytest.raises(ValueError, match="closed"):
        simulate(parse_cgp(MIDGAME), lex, pool=pool, **SIM_ARGS)


def test_process_backend_needs_a_picklable_leave_function(lex):
    with pytest.raises(ValueError, match="picklable"):
        simulate(parse_cgp(MIDGAME), lex, n_candidates=2, iterations=10, workers=2, progress=False,
                 leave_value=lambda leave: 0.0)


def test_default_player_is_engine_equity(lex):
    from engine.analysis.simulation import EquityPlayer

    pos = parse_cgp(MIDGAME)
    res = simulate(pos, lex, n_candidates=3, plies=2, iterations=20, seed=1, progress=False,
                   stop_when_clearly_ahead=False)
    same = simulate(pos, lex, n_candidates=3, plies=2, iterations=20, seed=1, progress=False,
                    stop_when_clearly_ahead=False, player=EquityPlayer())
    _same(res, same)
    # the candidates are engine.game.equity's top 3, with their static equity
    from engine.game.equity import position_candidates

    top = position_candidates(pos, lex, n=3)
    assert [c.notation for c in res.candidates] == [c.notation for c in top]
    assert [c.candidate.equity for c in res.candidates] == pytest.approx([c.equity for c in top])
