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

from engine.analysis.endgame import solve

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


PRE_POSITIONS = Path(__file__).resolve().parent / "positions" / "preendgames.tsv"
PRE_TOP = 4
PRE_LIMIT = 10.0


def preendgame_positions() -> list[tuple[str, str, str]]:
    """``[(id, "bag N", cgp), ...]`` of the pre-endgame benchmark set (opponent's rack unknown)."""
    return [tuple(ln.split("\t")) for ln in PRE_POSITIONS.read_text(encoding="utf-8").splitlines() if ln.strip()]


@pytest.mark.parametrize("pid, bag, cgp", preendgame_positions(), ids=[p[0] for p in preendgame_positions()])
def test_preendgame_time_per_candidate(benchmark, default_lexicon, pid, bag, cgp):
    from engine.position.cgp import parse_cgp
    from engine.analysis.preendgame import preendgame

    solve(endgame_positions()[0][2], default_lexicon, max_depth=2)
    result = {}

    def run():
        result["r"] = preendgame(parse_cgp(cgp), default_lexicon, top=PRE_TOP, time_limit=PRE_LIMIT)

    benchmark.pedantic(run, rounds=1, iterations=1)
    r = result["r"]
    benchmark.extra_info.update({"bag": bag, "candidates": len(r["moves"]),
                                 "seconds_per_candidate": round(benchmark.stats.stats.min / len(r["moves"]), 3),
                                 "best": r["moves"][0]["move"], "win": round(r["moves"][0]["win"], 3),
                                 "all_exact": all(m["exact"] for m in r["moves"])})
    assert r["moves"]
