"""All-moves generation per golden position (cross-checks included, as the peers measure).

Run: ``.venv/bin/python -m pytest benchmarks -q`` (figures in benchmarks/README.md).
Each benchmark calls the generator once before timing, so Numba compilation or
cache loading is never inside a timed region.
"""

from __future__ import annotations

import pytest

from engine.cgp import parse_cgp
from engine.movegen import generate_moves

from conftest import golden_positions, peer_timings

POSITIONS = golden_positions()
PEERS = peer_timings()


@pytest.mark.parametrize("pid,cgp", POSITIONS, ids=[p for p, _ in POSITIONS])
def test_all_moves(benchmark, golden_lexicon, pid, cgp):
    pos = parse_cgp(cgp)
    expected = int(PEERS[pid]["moves"]) if pid in PEERS else None
    ml = generate_moves(pos.board, pos.rack, golden_lexicon)  # warm-up outside the timed region
    if expected is not None:
        assert len(ml) == expected
    benchmark.extra_info["moves"] = len(ml)
    if pid in PEERS:
        benchmark.extra_info["wolges_ms"] = PEERS[pid]["wolges_ms"]
    result = benchmark.pedantic(generate_moves, args=(pos.board, pos.rack, golden_lexicon),
                                rounds=30, iterations=1, warmup_rounds=2)
    assert len(result) == len(ml)


def test_cgp_parse(benchmark):
    cgp = dict(POSITIONS)["p_ref3"]
    parse_cgp(cgp)
    pos = benchmark(parse_cgp, cgp)
    assert pos.board.tile_count == 53
