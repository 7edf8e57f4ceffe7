"""Bad input to the move generator's public functions: a clear ValueError before any kernel runs;
the reused per-thread buffers never leak between results."""

from __future__ import annotations

import dataclasses
import threading

import numpy as np
import pytest

from engine.movegen import _movegen as K
from engine.movegen import generator as M
from engine.position.board import Board
from engine.position.cgp import parse_cgp
from lexicon_tools.alphabet import german

from conftest import golden_positions

POS = dict(golden_positions())


@pytest.fixture
def no_kernels(monkeypatch):
    """Every generation kernel raises if it is reached: validation must come first."""
    def boom(*_a, **_k):
        raise AssertionError("a kernel ran on unvalidated input")

    for name in ("movegen_all", "movegen_best", "cross_checks_of", "update_checks_of"):
        monkeypatch.setattr(K, name, boom)


def _calls(board, rack, lex):
    return [
        ("generate_moves", lambda: M.generate_moves(board, rack, lex)),
        ("best_moves", lambda: M.best_moves(board, rack, lex, 1)),
        ("best_moves/equity", lambda: M.best_moves(board, rack, lex, 1, leave_value=lambda leave: 0.0)),
        ("best_move_list", lambda: M.best_move_list(board, rack, lex, 2)),
    ]


def _expect(calls, match):
    for name, call in calls:
        with pytest.raises(ValueError, match=match):
            call()


def test_bad_board_tile_names_the_square(golden_lexicon, no_kernels):
    a = german()
    b = Board()
    b.tiles[3, 4] = a.size + 1  # not a tile code
    _expect(_calls(b, a.parse_rack("AB"), golden_lexicon), r"board square 4E: tile code 30 is not a letter")
    with pytest.raises(ValueError, match="board square 4E"):
        M.CrossChecks(b, golden_lexicon)


def test_bad_board_arrays(golden_lexicon, no_kernels):
    a = german()
    rack = a.parse_rack("AB")
    b = Board()
    b.tiles = np.zeros((15, 15), dtype=np.int64)
    _expect(_calls(b, rack, golden_lexicon), r"board tiles must be a uint8 \(15, 15\) array")
    b = Board()
    b.tiles = np.zeros((15, 14), dtype=np.uint8)
    _expect(_calls(b, rack, golden_lexicon), r"board tiles must be")
    b = Board()
    b.blanks = np.zeros((15, 15), dtype=np.uint8)
    _expect(_calls(b, rack, golden_lexicon), r"board blanks must be a bool")
    lay = dataclasses.replace(Board().layout, name="narrow", letter_mult=np.ones((15, 14), dtype=np.uint8))
    _expect(_calls(Board(layout=lay), rack, golden_lexicon), r"board layout 'narrow': premiums must be uint8")


@pytest.mark.parametrize("rack,match", [
    (np.zeros(29, dtype=np.int32), r"rack must be an integer counts array of shape \(30,\)"),
    (np.zeros(30, dtype=np.float64), r"rack must be an integer counts array"),
    (np.array([0, 8] + [0] * 28, dtype=np.int32), r"rack must hold 0..7 tiles"),
    (np.array([0, -1, 2] + [0] * 27, dtype=np.int32), r"no negative counts"),
])
def test_bad_rack(golden_lexicon, no_kernels, rack, match):
    _expect(_calls(Board(), rack, golden_lexicon), match)


def test_bad_lexicon(golden_lexicon, no_kernels):
    a = german()
    other = dataclasses.replace(a, name="reversed", letters=tuple(reversed(a.letters)), _code={})
    lex = dataclasses.replace(golden_lexicon, alphabet=other)
    _expect(_calls(Board(), a.parse_rack("AB"), lex), r"uses the reversed alphabet, the board german")
    _expect(_calls(Board(), a.parse_rack("AB"), "words.kwg"), r"lexicon must be a loaded Lexicon, got str")


def test_bad_n_leaves_and_checks(golden_lexicon, no_kernels):
    a = german()
    b, rack = Board(), a.parse_rack("AB")
    for n in (0, -3):
        with pytest.raises(ValueError, match="n must be at least 1"):
            M.best_moves(b, rack, golden_lexicon, n)
    with pytest.raises(ValueError, match="n must be an integer"):
        M.best_move_list(b, rack, golden_lexicon, 1.5)
    radix = np.zeros(30, dtype=np.int64)
    radix[a.code("A")], radix[a.code("B")] = 1, 2  # four leaves: -, A, B, AB
    with pytest.raises(ValueError, match="lv has 3 values, the rack's leaves need 4"):
        M.best_move_list(b, rack, golden_lexicon, 1, leaves=(radix, np.zeros(3), np.zeros(8)))
    with pytest.raises(ValueError, match="leaves must be"):
        M.best_move_list(b, rack, golden_lexicon, 1, leaves=(radix[:5], np.zeros(4), np.zeros(8)))
    with pytest.raises(ValueError, match="checks must be CrossChecks"):
        M.generate_moves(b, rack, golden_lexicon, checks=np.zeros((2, 15, 15)))


def test_results_do_not_share_the_reused_buffer(golden_lexicon):
    """A MoveList keeps its rows when later calls reuse (and grow) the per-thread buffer."""
    p_small = parse_cgp(POS["p004"])
    p_big = parse_cgp(POS["p011"])  # 12,842 moves: more than the initial buffer holds
    first = M.generate_moves(p_small.board, p_small.rack, golden_lexicon)
    rows = first.rows.copy()
    best = M.best_move_list(p_small.board, p_small.rack, golden_lexicon, 1)
    best_rows = best.rows.copy()
    big = M.generate_moves(p_big.board, p_big.rack, golden_lexicon)
    assert len(big) == 12842
    assert np.array_equal(first.rows, rows) and np.array_equal(best.rows, best_rows)
    assert len(M.generate_moves(p_small.board, p_small.rack, golden_lexicon)) == 45


def test_threads_get_their_own_buffers(golden_lexicon):
    """Concurrent calls from threads give the same results as serial ones."""
    ids = ["p002", "p003", "p006", "p_ref1"]
    want = {pid: M.generate_moves(parse_cgp(POS[pid]).board, parse_cgp(POS[pid]).rack, golden_lexicon)
            .placement_set() for pid in ids}
    got: dict[str, list] = {pid: [] for pid in ids}

    def work(pid):
        pos = parse_cgp(POS[pid])
        for _ in range(5):
            got[pid].append(M.generate_moves(pos.board, pos.rack, golden_lexicon).placement_set())

    threads = [threading.Thread(target=work, args=(pid,)) for pid in ids]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for pid in ids:
        assert got[pid] == [want[pid]] * 5, pid


def test_generate_moves_many_equals_one_by_one_and_checks_everything_first(golden_lexicon):
    from engine.movegen.generator import generate_moves_many
    from engine.position.cgp import parse_cgp

    cgps = ["15/15/15/15/15/15/4H3F6/3WALZER6/4U1U1E6/4S1G1U6/8N6/5KIND6/5Ü9/5H9/5L9 AEINRST/ 0/0 0",
            "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 EEOVY??/ 0/0 0"]
    ps = [parse_cgp(c) for c in cgps]
    many = generate_moves_many([ps[0], (ps[1].board, ps[1].rack), ps[0]], golden_lexicon)
    for got, p in zip(many, [ps[0], ps[1], ps[0]]):
        want = M.generate_moves(p.board, p.rack, golden_lexicon)
        assert len(got) > 0 and np.array_equal(got.rows, want.rows)
    bad = np.zeros(golden_lexicon.alphabet.size + 1, dtype=np.int32)
    bad[1] = 8  # eight tiles
    with pytest.raises(ValueError, match=r"position 1: rack must hold 0\.\.7 tiles"):
        generate_moves_many([ps[0], (ps[1].board, bad)], golden_lexicon)
    assert generate_moves_many([], golden_lexicon) == []
