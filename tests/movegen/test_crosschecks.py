"""Cross-checks: hand-worked values, and incremental update == full recomputation."""

from __future__ import annotations

import numpy as np
import pytest

from engine.position.board import Board
from engine.position.cgp import parse_cgp
from engine.movegen.generator import CrossChecks, generate_moves
from lexicon_tools.alphabet import german
from lexicon_tools.bundle import build_bundle

from conftest import golden_positions

A = german()


def bits(letters: str) -> int:
    return sum(1 << A.code(ch) for ch in letters)


@pytest.fixture(scope="module")
def small_lexicon(tmp_path_factory):
    words = ["AB", "AN", "AU", "HA", "HAUS", "HAUT", "HAUSE", "EX", "XI", "AI", "ÄH", "OB"]
    return build_bundle(words, tmp_path_factory.mktemp("x") / "s.lex")


def test_hand_worked_cross_checks(small_lexicon):
    b = Board()
    # HAU across on row 8 (index 7), columns H-J; X on I9 below the A
    b.place([(7, 7, A.code("H"), False), (7, 8, A.code("A"), False), (7, 9, A.code("U"), False)])
    cc = CrossChecks(b, small_lexicon)
    # down moves through row 8: the square right of HAU (K8) must complete HAU? -> HAUS, HAUT
    assert cc.cs[1][10, 7] == bits("ST")
    assert cc.hx[1][10, 7] == 1
    assert cc.xs[1][10, 7] == 2 + 1 + 1  # H + A + U
    # the square left of HAU (G8): ?HAU is no word
    assert cc.cs[1][6, 7] == 0
    # across moves on row 9: below the A (I9) the vertical word A? must be AB, AN, AU or AI
    assert cc.cs[0][8, 8] == bits("BNUI")
    assert cc.xs[0][8, 8] == 1
    # above the H (H7): ?H -> ÄH
    assert cc.cs[0][6, 7] == bits("Ä")
    # far from tiles: every letter, no cross-word
    assert cc.cs[0][0, 0] == bits("".join(A.letters))
    assert cc.hx[0][0, 0] == 0
    # occupied squares allow nothing
    assert cc.cs[0][7, 8] == 0


@pytest.mark.parametrize("pid", ["p002", "p003", "p014", "p_ref3", "p019"])
def test_incremental_update_equals_full(golden_lexicon, pid):
    cgp = dict(golden_positions())[pid]
    pos = parse_cgp(cgp, allow_impossible=True)  # the golden set holds the composed p_ref3
    board = pos.board.copy()
    checks = CrossChecks(board, golden_lexicon)
    rng = np.random.default_rng(7)
    for _ in range(3):
        moves = generate_moves(board, pos.rack, golden_lexicon, checks=checks)
        if len(moves) == 0:
            break
        move = moves[int(rng.integers(len(moves)))]
        placed = [(r, c, A.code(ch), b) for r, c, ch, b in move.tiles]
        board.place(placed)
        checks.update(board, placed)
        full = CrossChecks(board, golden_lexicon)
        np.testing.assert_array_equal(checks.cs, full.cs)
        np.testing.assert_array_equal(checks.xs, full.xs)
        np.testing.assert_array_equal(checks.hx, full.hx)
        # generation with the maintained checks equals generation from scratch
        assert (generate_moves(board, pos.rack, golden_lexicon, checks=checks).placement_set()
                == generate_moves(board, pos.rack, golden_lexicon).placement_set())

