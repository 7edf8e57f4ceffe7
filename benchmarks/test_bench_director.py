"""Simultaneous Scrabble director: how long the director waits.

Run: ``.venv/bin/python -m pytest benchmarks/test_bench_director.py -q`` (pytest-benchmark).

* ``test_master_game`` — ``simultan auto``: a whole master game (every round
  solved, journalled with fsync, rebuilt and exported), the 300,579-word golden list;
* ``test_close_round`` — one ``close`` mid-game (next rack drawn and solved, record fsynced);
* ``test_rebuild_event`` — rebuilding a finished event from its journal, what every
  CLI command does first (racks re-drawn, top moves re-scored).

The machine may be shared: compare the min, not the mean.
"""

from __future__ import annotations

import itertools

from engine.director.journal import Journal
from engine.director.event import replay
from engine.director.store import EventDir, play_master

_count = itertools.count()


def test_master_game(benchmark, golden_lexicon, tmp_path):
    play_master(tmp_path / "warm", 1, lexicon=golden_lexicon)  # kernels loaded outside the timed region

    def run():
        return play_master(tmp_path / f"m{next(_count)}", 2024, lexicon=golden_lexicon)

    ev = benchmark.pedantic(run, rounds=3, iterations=1)
    rounds = len(ev.closed_rounds)
    benchmark.extra_info["rounds"] = rounds
    benchmark.extra_info["rounds_per_second"] = round(rounds / benchmark.stats.stats.min, 1)


def test_close_round(benchmark, golden_lexicon, tmp_path):
    def setup():
        d = EventDir.create(tmp_path / f"c{next(_count)}", ["Ana", "Ben", "Cal"], seed=2024, lexicon=golden_lexicon,
                            export=False, notes=None)
        for _ in range(8):
            d.start()
            d.close()
        d.start()
        d.load()
        return (d,), {}

    benchmark.pedantic(lambda d: d.close(), setup=setup, rounds=10, iterations=1)


def test_rebuild_event(benchmark, golden_lexicon, tmp_path):
    play_master(tmp_path / "ev", 2024, lexicon=golden_lexicon)
    records = Journal(tmp_path / "ev").read()
    ev = benchmark(replay, records, golden_lexicon)
    benchmark.extra_info["records"] = len(records)
    assert ev.over
