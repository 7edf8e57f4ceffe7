"""Static equity players against pure score players: the measured margin of the leave table.

Run: ``.venv/bin/python -m pytest benchmarks/test_bench_equity.py -q -s`` (pytest-benchmark).

``GAMES`` games (2 players, home rules, the 300,579-word golden list): each
deal (bag seed) is played twice with the seats swapped, so both players see
the same first racks and who starts evens out. Player A uses static equity
with the packaged leave table (:func:`engine.leaves.table.default_table`, end-of-bag
correction included), player B plays the top-scoring move. ``extra_info``
holds games, A's mean spread with a 95% interval, A's win rate (draws half)
with a 95% Wilson interval, mean scores, and the speed of the equity games.
Override the number of games with ``BENCH_EQUITY_GAMES``.
"""

from __future__ import annotations

import os
import time

from engine.game.selfplay import match_summary, play_equity_game
from engine.leaves.table import default_table
from engine.game.selfplay import game_seed

GAMES = int(os.environ.get("BENCH_EQUITY_GAMES", "1000"))


def _match(lexicon, table, games):
    spreads, a, b = [], [], []
    for i in range(games):
        seats = (table, None) if i % 2 == 0 else (None, table)
        me = i % 2
        g = play_equity_game(lexicon, game_seed(31337, i // 2), seats)
        spreads.append(g.scores[me] - g.scores[1 - me])
        a.append(g.scores[me])
        b.append(g.scores[1 - me])
    return spreads, a, b


def test_equity_beats_score(benchmark, golden_lexicon):
    table = default_table()
    play_equity_game(golden_lexicon, 1, (table, None))  # warm-up: kernels compiled or loaded from cache
    out = {}

    def run():
        t0 = time.perf_counter()
        out["res"] = _match(golden_lexicon, table, GAMES)
        out["seconds"] = time.perf_counter() - t0

    benchmark.pedantic(run, rounds=1, iterations=1)
    s = match_summary(*out["res"])
    benchmark.extra_info.update(s)
    benchmark.extra_info["games_per_second"] = round(GAMES / out["seconds"], 1)
    benchmark.extra_info["table_games"] = table.meta.get("games_total")
    print(f"\nequity vs score: {s['games']} games, mean spread {s['mean_spread']:+.1f} {s['spread_ci95']}, "
          f"win rate {s['win_rate']:.3f} {s['win_ci95']}, mean scores {s['mean_score_a']} vs {s['mean_score_b']}")
    assert s["win_ci95"][0] > 0.5 and s["spread_ci95"][0] > 0
