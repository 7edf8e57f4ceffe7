"""Best-first top-N equals the top N of the complete move list."""

from __future__ import annotations

import numpy as np
import pytest

from engine.board import Board
from engine.cgp import parse_cgp
from engine.movegen import best_move_list, best_moves, generate_moves
from lexicon_tools.alphabet import german

from conftest import golden_moves, golden_positions

POSITIONS = golden_positions()


@pytest.mark.parametrize("pid,cgp", POSITIONS, ids=[p for p, _ in POSITIONS])
def test_best_first_equals_full_top(golden_lexicon, pid, cgp):
    pos = parse_cgp(cgp, allow_impossible=True)  # the golden set holds the composed p_ref3
    full = generate_moves(pos.board, pos.rack, golden_lexicon)
    for n in (1, 3, 10):
        want = [(m.notation, m.score) for m in full.top(n)]
        got = [(m.notation, m.score) for m in best_moves(pos.board, pos.rack, golden_lexicon, n)]
        assert got == want, f"{pid} top {n}"
    # and the top move is the golden list's first line
    gold = golden_moves(pid)
    if gold:
        best = best_moves(pos.board, pos.rack, golden_lexicon, 1)[0]
        assert (best.notation, best.score) == (gold[0][0], gold[0][1])


def test_best_first_walks_less_than_everything(golden_lexicon):
    pos = parse_cgp(dict(POSITIONS)["p_ref2"])
    partial = best_move_list(pos.board, pos.rack, golden_lexicon, 1)
    full = generate_moves(pos.board, pos.rack, golden_lexicon)
    assert len(partial) < len(full) / 4  # 4314 moves in all; only the anchors that can beat 131 are walked


def test_random_racks_on_golden_boards(golden_lexicon):
    rng = np.random.default_rng(2026)
    a = german()
    bag = np.repeat(np.arange(a.size + 1), a.counts)
    for pid, cgp in POSITIONS[::4]:
        board = parse_cgp(cgp).board
        for _ in range(3):
            rack = np.bincount(rng.choice(bag, 7, replace=False), minlength=a.size + 1).astype(np.int32)
            full = generate_moves(board, rack, golden_lexicon)
            want = [(m.notation, m.score) for m in full.top(3)]
            got = [(m.notation, m.score) for m in best_moves(board, rack, golden_lexicon, 3)]
            assert got == want, f"{pid} rack {a.rack_string(rack)}"


def test_empty_rack_and_bad_n(golden_lexicon):
    b = Board()
    empty = np.zeros(30, dtype=np.int32)
    assert best_moves(b, empty, golden_lexicon, 1) == []
    with pytest.raises(ValueError):
        best_moves(b, empty, golden_lexicon, 0)


def _toy_leave_value(leave: np.ndarray) -> float:
    """An arbitrary but fixed leave function (independent of the engine): keeping
    an S or a blank is good, duplicates and heavy tiles are bad."""
    a = german()
    v = 0.0
    for code in range(a.size + 1):
        k = int(leave[code])
        if not k:
            continue
        if code == 0:
            v += 12.5 * k
        elif a.letters[code - 1] == "S":
            v += 7.25 * k
        else:
            v -= 0.5 * float(a.values[code]) * k + 2.0 * (k - 1)
    return v


@pytest.mark.parametrize("pid", ["p001", "p002", "p006", "p011", "p_ref1", "p_ref2", "p_ref3", "p050"])
def test_best_first_by_equity_equals_full_ranking(golden_lexicon, pid):
    a = german()
    pos = parse_cgp(dict(POSITIONS)[pid], allow_impossible=True)
    full = generate_moves(pos.board, pos.rack, golden_lexicon)
    ranked = sorted(((m.score + _toy_leave_value(a.parse_rack(m.leave)), m.notation) for m in full),
                    key=lambda en: (-en[0], en[1]))
    for n in (1, 5):
        got = best_moves(pos.board, pos.rack, golden_lexicon, n, leave_value=_toy_leave_value)
        assert [(m.equity, m.notation) for m in got] == ranked[:n]
