"""Best-first top-N equals the top N of the complete move list."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.position.board import Board
from engine.position.cgp import parse_cgp
from engine.movegen.generator import best_move_list, best_moves, generate_moves
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


# -- every benchmark board and rack, by score and by equity with the packaged leave table --------------
def _bench_positions():
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "positions" / "positions.tsv"
    return [tuple(line.split("\t")) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _ranked(ml, radix, lv, n):
    """Top ``n`` of a move list by score + leave value, ties by notation (independent of the kernel's order)."""
    if len(ml) == 0:
        return []
    eq = ml.scores + lv[ml.used_index(radix)]
    cutoff = np.sort(eq)[::-1][min(n, len(eq)) - 1]
    cand = [(-float(eq[i]), ml.notation(int(i))) for i in np.flatnonzero(eq >= cutoff)]
    return [(nt, -e) for e, nt in sorted(cand)[:n]]


def test_benchmark_positions_score_and_equity(golden_lexicon):
    """All 248 benchmark positions (boards and racks; the golden word list for all of them): the
    best-first top 1 and top 5 equal the full list's, by score and by equity with leave values."""
    from engine.game.equity import leave_arrays as table_leaves
    from engine.leaves.table import default_table

    table = default_table()
    for pid, cgp in _bench_positions():
        pos = parse_cgp(cgp, allow_impossible=True)
        full = generate_moves(pos.board, pos.rack, golden_lexicon)
        bag = pos.bag_count or 0
        radix, lv, lvmax = table_leaves(table, pos.rack, bag)
        zero = (np.zeros_like(radix), np.zeros(1), np.zeros(8))
        for leaves in (zero, (radix, lv, lvmax)):
            for n in (1, 5):
                want = _ranked(full, leaves[0], leaves[1], n)
                got = _ranked(best_move_list(pos.board, pos.rack, golden_lexicon, n, leaves=leaves),
                              leaves[0], leaves[1], n)
                assert got == want, f"{pid} top {n} {'equity' if leaves is not zero else 'score'}"


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(POSITIONS))), st.lists(st.integers(0, 99), min_size=0, max_size=7),
       st.integers(1, 4), st.booleans())
def test_random_racks_by_score_and_equity(golden_lexicon, pi, draws, n, by_equity):
    """Random racks (blanks included) on the golden boards: best_moves equals the full list's top n,
    by score and by equity with a toy leave function."""
    a = german()
    bag = np.repeat(np.arange(a.size + 1), a.counts).tolist()
    rack = np.zeros(a.size + 1, dtype=np.int32)
    for d in draws:
        rack[bag.pop(d % len(bag))] += 1
    board = parse_cgp(POSITIONS[pi][1], allow_impossible=True).board
    full = generate_moves(board, rack, golden_lexicon)
    if by_equity:
        want = sorted(((m.score + _toy_leave_value(a.parse_rack(m.leave)), m.notation) for m in full),
                      key=lambda en: (-en[0], en[1]))[:n]
        got = [(m.equity, m.notation) for m in best_moves(board, rack, golden_lexicon, n,
                                                          leave_value=_toy_leave_value)]
    else:
        want = [(m.notation, m.score) for m in full.top(n)]
        got = [(m.notation, m.score) for m in best_moves(board, rack, golden_lexicon, n)]
    assert got == want, f"{POSITIONS[pi][0]} rack {a.rack_string(rack)} n={n}"


def test_best_moves_with_checks_equal_without(golden_lexicon):
    """Passing the board's CrossChecks (as a game does) gives the same moves as computing them."""
    from engine.movegen.generator import CrossChecks

    for pid, cgp in POSITIONS[::6]:
        pos = parse_cgp(cgp, allow_impossible=True)
        checks = CrossChecks(pos.board, golden_lexicon)
        a = [(m.notation, m.score) for m in best_moves(pos.board, pos.rack, golden_lexicon, 3)]
        b = [(m.notation, m.score) for m in best_moves(pos.board, pos.rack, golden_lexicon, 3, checks)]
        assert a == b, pid
        assert (generate_moves(pos.board, pos.rack, golden_lexicon, checks).placement_set()
                == generate_moves(pos.board, pos.rack, golden_lexicon).placement_set()), pid
