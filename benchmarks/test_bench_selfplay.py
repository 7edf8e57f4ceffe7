"""Self-play throughput: games per second on one core, static best-score and equity players.

Run: ``.venv/bin/python -m pytest benchmarks/test_bench_selfplay.py -q`` (pytest-benchmark).
One round plays ``GAMES`` complete games (home rules, the 300,579-word golden
list) with :func:`engine.game.selfplay.selfplay`: ``engine="kernel"`` is the game
kernel (:mod:`engine.game.kernel_game`, what ``python -m engine selfplay`` runs),
``engine="python"`` the same games move by move in :class:`engine.game.game.Game`
(the reference, and the speed before the kernel). ``extra_info``:
``games_per_second`` (wall, best round) and ``games_per_cpu_second`` (process
CPU time; robust when the machine is shared). The side-by-side figure with
MAGPIE is measured by ``benchmarks/bench_peers.py``.
A warm-up round outside the timing loads the Numba kernels.
"""

from __future__ import annotations

import time

import pytest

from engine.game.selfplay import selfplay

GAMES = 40


def _bench(benchmark, lexicon, rounds=5, **kw):
    selfplay(lexicon, 2, seed=1, **kw)  # warm-up: kernels compiled or loaded from cache, leave table loaded
    cpu = []

    def run():
        c0 = time.process_time()
        selfplay(lexicon, GAMES, seed=2024, **kw)
        cpu.append(time.process_time() - c0)

    benchmark.pedantic(run, rounds=rounds, iterations=1, warmup_rounds=0)
    benchmark.extra_info["games_per_round"] = GAMES
    benchmark.extra_info["games_per_second"] = round(GAMES / benchmark.stats.stats.min, 1)
    benchmark.extra_info["games_per_cpu_second"] = round(GAMES / min(cpu), 1)
    return GAMES / min(cpu)


@pytest.mark.parametrize("engine", ["kernel", "python"])
@pytest.mark.parametrize("player", ["score", "equity"])
def test_selfplay_games_per_second(benchmark, golden_lexicon, player, engine):
    gps = _bench(benchmark, golden_lexicon, rounds=5 if engine == "kernel" else 2, player=player,
                 kernel=engine == "kernel")
    benchmark.extra_info["player"] = player
    benchmark.extra_info["engine"] = engine
    assert gps > 5  # a regression guard only; the figures are reported above


def test_selfplay_four_players(benchmark, golden_lexicon):
    _bench(benchmark, golden_lexicon, rounds=3, players=4)


def test_selfplay_with_gcg_output(benchmark, golden_lexicon, tmp_path):
    """Score players with one GCG file per game (built from the kernel's record, written atomically)."""
    _bench(benchmark, golden_lexicon, rounds=3, out_dir=tmp_path)
    assert len(list(tmp_path.glob("*.gcg"))) == GAMES
