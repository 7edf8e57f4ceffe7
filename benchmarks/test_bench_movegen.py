"""All-moves generation per golden position (cross-checks included, as the peers measure).

Run: ``.venv/bin/python -m pytest benchmarks -q`` (figures in benchmarks/README.md).
Each benchmark calls the generator once before timing, so Numba compilation or
cache loading is never inside a timed region.
"""

from __future__ import annotations

import pytest

from engine.position.cgp import parse_cgp
from engine.movegen.generator import generate_moves

from conftest import golden_positions, peer_timings

POSITIONS = golden_positions()
PEERS = peer_timings()


@pytest.mark.parametrize("pid,cgp", POSITIONS, ids=[p for p, _ in POSITIONS])
def test_all_moves(benchmark, golden_lexicon, pid, cgp):
    pos = parse_cgp(cgp, allow_impossible=True)  # the golden set holds the composed p_ref3
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
    parse_cgp(cgp, allow_impossible=True)
    pos = benchmark(parse_cgp, cgp, allow_impossible=True)
    assert pos.board.tile_count == 53


@pytest.mark.parametrize("pid", ["p001", "p004", "p011", "p029", "p_ref1", "p_ref2", "p_ref3"])
def test_best_first_top_move(benchmark, golden_lexicon, pid):
    from engine.movegen.generator import best_moves

    pos = parse_cgp(dict(POSITIONS)[pid], allow_impossible=True)
    want = generate_moves(pos.board, pos.rack, golden_lexicon).top(1)
    best_moves(pos.board, pos.rack, golden_lexicon, 1)
    if pid in PEERS:
        benchmark.extra_info["wolges_ms"] = PEERS[pid]["wolges_ms"]
    got = benchmark.pedantic(best_moves, args=(pos.board, pos.rack, golden_lexicon, 1), rounds=30, iterations=1,
                             warmup_rounds=2)
    assert [(m.notation, m.score) for m in got] == [(m.notation, m.score) for m in want]


def test_cross_check_update_after_move(benchmark, golden_lexicon):
    """Incremental cross-check update after the top move of p_ref3 (two lines recomputed)."""
    from engine.movegen.generator import CrossChecks

    pos = parse_cgp(dict(POSITIONS)["p_ref3"], allow_impossible=True)
    board = pos.board.copy()
    move = generate_moves(board, pos.rack, golden_lexicon).top(1)[0]
    a = board.alphabet
    placed = [(r, c, a.code(ch), b) for r, c, ch, b in move.tiles]
    board.place(placed)
    checks = CrossChecks(pos.board, golden_lexicon)
    checks.update(board, placed)
    benchmark(checks.update, board, placed)
    full = CrossChecks(board, golden_lexicon)
    assert (checks.cs == full.cs).all()


def test_cross_check_full(benchmark, golden_lexicon):
    """Full cross-check computation (both directions) on p_ref3, for comparison with the update."""
    from engine.movegen.generator import CrossChecks

    pos = parse_cgp(dict(POSITIONS)["p_ref3"], allow_impossible=True)
    CrossChecks(pos.board, golden_lexicon)
    benchmark(CrossChecks, pos.board, golden_lexicon)
