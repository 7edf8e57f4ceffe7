"""Self-play throughput: games per second on one core, static best-score players.

Run: ``.venv/bin/python -m pytest benchmarks/test_bench_selfplay.py -q`` (pytest-benchmark).
One round plays ``GAMES`` complete games (2 players, home rules, the 300,579-word
golden list); ``extra_info["games_per_second"]`` is the figure to compare with the
target of 100 games/s per core. A warm-up game outside the timed region loads
the Numba kernels. The machine may be shared: compare the min, not the mean.
"""

from __future__ import annotations

import pytest

from engine.gcg import write_gcg
from engine.selfplay import game_seed, play_game

GAMES = 20


def _run(lexicon, players, write=False):
    moves = 0
    for i in range(GAMES):
        g = play_game(lexicon, game_seed(2024, i), players)
        moves += len(g.turns)
        if write:
            write_gcg(g)
    return moves


@pytest.mark.parametrize("players", [2, 4])
def test_selfplay_games_per_second(benchmark, golden_lexicon, players):
    play_game(golden_lexicon, 1, players)  # warm-up: kernels compiled or loaded from cache
    benchmark.pedantic(_run, args=(golden_lexicon, players), rounds=5, iterations=1, warmup_rounds=1)
    gps = GAMES / benchmark.stats.stats.min
    benchmark.extra_info["games_per_round"] = GAMES
    benchmark.extra_info["games_per_second"] = round(gps, 1)
    benchmark.extra_info["target_games_per_second"] = 100
    assert gps > 10  # a regression guard only; the target (100/s for 2 players) is reported above


def test_selfplay_with_gcg_output(benchmark, golden_lexicon):
    play_game(golden_lexicon, 1, 2)
    benchmark.pedantic(_run, args=(golden_lexicon, 2, True), rounds=3, iterations=1, warmup_rounds=1)
    benchmark.extra_info["games_per_second"] = round(GAMES / benchmark.stats.stats.min, 1)
