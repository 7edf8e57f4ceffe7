"""Simulation throughput: iterations per second per core (engine.analysis.simulation).

Run: ``.venv/bin/python -m pytest benchmarks/test_bench_simulation.py -q`` (pytest-benchmark).

One iteration = draw the opponent's rack, play the candidate, then 2 plies
(the opponent's reply and the mover's next move) by static players (best
score, or the default static equity of engine.game.equity), with incremental
cross-checks. ``engine="kernel"``: whole batches of iterations in the rollout
kernel (:func:`engine.game._kgame.sim_rollouts`, what ``simulate`` runs for these
players); ``engine="python"``: the same iterations move by move in Python
(the speed before the kernel; forced with a subclass of the player, which
the kernel does not take). The unit is MAGPIE's iteration; the side-by-side
figure is measured by ``benchmarks/bench_peers.py``. Positions: nine positions
from self-play on the 300,579-word golden list (early, middle and late game of
three games); 5 candidates each, 200 iterations per candidate, no early stop.

``extra_info``: ``iterations_per_second`` (wall, best round),
``iterations_per_cpu_second`` (process CPU time; robust when the machine is
shared) and, for the two-worker runs, the speed-up over one core. The machine
may be shared: compare the min, not the mean.
"""

from __future__ import annotations

import time

import pytest

from engine.position.cgp import parse_cgp
from engine.analysis.simulation import EquityPlayer, LeavePlayer, simulate

POSITIONS = [
    "15/15/15/15/15/15/15/4BUBE7/2F1Y10/2I1T10/2L1E10/2EISLER7/2T12/15/15 EIMOSUU/AEGINOR 48/56 0 lex golden;",
    "15/15/15/15/15/15/15/4BUBEN6/2F1Y3V6/1XI1T2MA6/GPL1E2E7/E1EISLER7/N1T4K7/UMSO3U7/A2HÖR1R7 "
    "AGHIINT/DEIORRU 132/157 0 lex golden;",
    "7H7/7I7/7N7/7H7/7A7/7U7/7T7/4BUBEN6/2F1Y3VII4/1XI1T2MAGD4/GPL1E2E2E4/E1EISLER3DIÄT/N1T4KONSUMS1/"
    "UMSO3U5E1/A2HÖR1R7 EENNSUW/AACORRS 271/234 0 lex golden;",
    "15/15/15/15/15/15/15/3S2JH7/2MÜTZE8/3S2TURNST3/3S11/3E11/15/15/15 EEMRTVX/DEGLMU? 32/48 0 lex golden;",
    "15/15/15/15/15/15/15/U2S2JH7/M1MÜTZE8/L2S2TURNST3/E2S3R1LAVA2/GENE3W7/EXTREM1E7/n4MILDE5/D6T7 "
    "ADGHINO/IKOQRUU 135/267 0 lex golden;",
    "15/15/3P11/2SH11/2AI11/2R12/2K12/U1OS2JH7/M1MÜTZE8/L1ES2TURNST3/E2S3R1LAVA2/GENE3W4IRQ/EXTREM1E7/"
    "nT3MILDE2CO1/D6T1GANDHI EENNOS?/AÄBFKUU 209/338 0 lex golden;",
    "15/15/15/1RAUBZUG7/4O10/4X4W5/4E4E5/3KRAMTEN5/9D5/9E5/15/15/15/15/15 INOSSTT/LNNÖSUU 58/57 0 lex golden;",
    "15/15/2JA11/1RAUBZUG7/4O10/4X4W5/4E4E5/3KRAMTEN5/3TNT3D2H2/9E2I2/9NÖLE2/8USD1S2/12S2/8RAUNeND/15 "
    "ÄDIOORU/GINQRSÜ 142/180 0 lex golden;",
    "7UMrANGST/7R7/2JA3I7/1RAUBZUG7/4O9S/3OXYDE1W4P/4E4E4Ä/3KRAMTEN4H/3TNT3D2HIE/9E2IQ1/9NÖLE1H/8USD1S1Ü/"
    "12S1R/8RAUNeND/14E EIKLOSV/BEFGMNN 245/379 0 lex golden;",
]
CANDIDATES = 5
ITERATIONS = 200
PLIES = 2


def _run(lexicon, positions, **kw):
    total = 0
    for p in positions:
        res = simulate(p, lexicon, n_candidates=CANDIDATES, plies=PLIES, iterations=ITERATIONS, seed=2024,
                       progress=False, stop_when_clearly_ahead=False, **kw)
        total += res.total_iterations
    return total


@pytest.fixture(scope="module")
def positions():
    return [parse_cgp(c) for c in POSITIONS]


class _PythonScore(LeavePlayer):
    """The best-score player, played move by move in Python (the kernel takes only LeavePlayer itself)."""


class _PythonEquity(EquityPlayer):
    """The equity player, played move by move in Python."""


PLAYERS = {("score", "kernel"): LeavePlayer, ("equity", "kernel"): EquityPlayer,
           ("score", "python"): _PythonScore, ("equity", "python"): _PythonEquity}


@pytest.mark.parametrize("engine", ["kernel", "python"])
@pytest.mark.parametrize("player", ["score", "equity"])
def test_sim_iterations_per_second_one_core(benchmark, golden_lexicon, positions, player, engine):
    """Iterations per second on one core (in-process backend): best-score players, and the default
    static equity players of engine.game.equity with the packaged leave table."""
    pl = PLAYERS[player, engine]()
    simulate(positions[0], golden_lexicon, n_candidates=2, plies=PLIES, iterations=5, seed=1, progress=False,
             player=pl)
    cpu = []

    def run():
        c0 = time.process_time()
        n = _run(golden_lexicon, positions, player=pl)
        cpu.append(time.process_time() - c0)
        return n

    n = CANDIDATES * ITERATIONS * len(POSITIONS)
    benchmark.pedantic(run, rounds=3 if engine == "kernel" else 1, iterations=1, warmup_rounds=0)
    ips = n / benchmark.stats.stats.min
    benchmark.extra_info["player"] = player
    benchmark.extra_info["engine"] = engine
    benchmark.extra_info["iterations_per_round"] = n
    benchmark.extra_info["plies"] = PLIES
    benchmark.extra_info["iterations_per_second"] = round(ips, 1)
    benchmark.extra_info["iterations_per_cpu_second"] = round(n / min(cpu), 1)
    assert ips > 200  # a regression guard only; the figure is reported above


BIG = dict(n_candidates=10, plies=PLIES, iterations=600, seed=7, progress=False, stop_when_clearly_ahead=False)


def _big(lexicon, position, **kw):
    return simulate(position, lexicon, **BIG, **kw).total_iterations


@pytest.mark.parametrize("backend", ["local", "process", "ray"])
def test_sim_large_run(benchmark, golden_lexicon, positions, backend):
    """One long simulation (10 candidates x 600 iterations = 6,000 iterations, default equity players):
    on one core (local), on a
    pool of 2 processes (``SimPool``, opened and warmed outside the timing) and on a local Ray with 2 CPUs
    (started and warmed outside the timing)."""
    from engine.analysis.simulation import SimPool

    kw, pool = {}, None
    if backend == "process":
        pool = SimPool(2)
        kw = {"pool": pool}
    elif backend == "ray":
        ray = pytest.importorskip("ray")
        if not ray.is_initialized():
            ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        kw = {"workers": 2, "backend": "ray"}
    try:
        if backend != "local":
            simulate(positions[1], golden_lexicon, n_candidates=2, plies=PLIES, iterations=20, seed=1,
                     progress=False, **kw)
        benchmark.pedantic(_big, args=(golden_lexicon, positions[1]), kwargs=kw, rounds=3, iterations=1,
                           warmup_rounds=0)
    finally:
        if pool is not None:
            pool.close()
        if backend == "ray":
            ray.shutdown()
    n = 10 * 600
    benchmark.extra_info["iterations"] = n
    benchmark.extra_info["workers"] = 1 if backend == "local" else 2
    benchmark.extra_info["iterations_per_second"] = round(n / benchmark.stats.stats.min, 1)
