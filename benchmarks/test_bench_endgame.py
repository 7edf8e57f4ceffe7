"""Endgame solver: time to solve and nodes per second, by tiles on the racks (2+2 ... 7+7).

Run: ``.venv/bin/python -m pytest benchmarks/test_bench_endgame.py -q`` (pytest-benchmark),
or ``python benchmarks/endgame_table.py`` for the table in benchmarks/README.md.
Positions: benchmarks/positions/endgames.tsv (seeded self-play on the default
lexicon, scripts/make_endgame_positions.py), solved on the default lexicon with
a ``LIMIT`` s cap each; ``extra_info`` holds nodes, nodes/s, depth and whether
the solve reached the end of the game. The machine may be shared: compare the min.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.endgame import solve

POSITIONS = Path(__file__).resolve().parent / "positions" / "endgames.tsv"
LIMIT = 60.0


def endgame_positions() -> list[tuple[str, str, str]]:
    """``[(id, class, cgp), ...]`` of the endgame benchmark set."""
    return [tuple(ln.split("\t")) for ln in POSITIONS.read_text(encoding="utf-8").splitlines() if ln.strip()]


@pytest.fixture(scope="module")
def default_lexicon():
    from lexicon_tools.bundle import load_lexicon

    return load_lexicon(None)


@pytest.mark.parametrize("pid, cls, cgp", endgame_positions(), ids=[p[0] for p in endgame_positions()])
def test_endgame_solve(benchmark, default_lexicon, pid, cls, cgp):
    solve(endgame_positions()[0][2], default_lexicon, max_depth=2)  # warm-up: kernels loaded
    result = {}

    def run():
        result["r"] = solve(cgp, default_lexicon, time_limit=LIMIT)

    benchmark.pedantic(run, rounds=1, iterations=1)
    r = result["r"]
    benchmark.extra_info.update({"class": cls, "nodes": r.nodes, "nodes_per_second": round(r.nodes / r.seconds),
                                 "depth": r.depth, "complete": r.complete, "value": r.value, "move": r.move})
    assert r.pv and r.pv[0] == r.move
