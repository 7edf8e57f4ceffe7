"""Best-first bounds and shortcuts: the word map (engine.movegen._wordmap), the empty board, the exchange floor.

The map is checked against a plain Python set of sorted letter tuples built
from the word list. The pruning rules are checked on small constructed
positions and word lists in which the best move is exactly in the branch a
wrong rule would drop: a bingo through a board tile whose rack alone forms no
word, the same with one and two blanks, a short rack that goes out through a
tile.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

import numpy as np
import pytest

from engine.movegen._wordmap import WM_RAND, build_wordmap, wm_word_exists
from engine.position.board import Board
from engine.position.cgp import parse_cgp
from engine.movegen.generator import best_moves, generate_moves, word_map
from lexicon_tools.alphabet import german
from lexicon_tools.bundle import build_bundle

A = german()


def _hash(codes) -> np.uint64:
    return np.uint64(sum(int(WM_RAND[c]) for c in codes) % (1 << 64))


def _exists_brute(keys: set, codes: list[int], blanks: int) -> bool:
    for extra in combinations_with_replacement(range(1, A.size + 1), blanks):
        if tuple(sorted(codes + list(extra))) in keys:
            return True
    return False


def test_word_map_agrees_with_a_set_of_sorted_words(golden_lexicon, golden_words_list):
    keys = {tuple(sorted(A.code(ch) for ch in w)) for w in golden_words_list}
    table = word_map(golden_lexicon)
    assert table.shape[0] >= 2 * len(keys) and table.shape[0] & (table.shape[0] - 1) == 0
    assert np.count_nonzero(table) == len(keys)  # one slot per distinct multiset (no collision here)
    rng = np.random.default_rng(7)
    words = rng.choice(np.array(golden_words_list, dtype=object), 150)
    checked = {0: [0, 0], 1: [0, 0], 2: [0, 0]}
    for w in words:
        codes = [A.code(ch) for ch in w]
        for blanks in (0, 1, 2):
            if len(codes) <= blanks:
                continue
            # a real word with ``blanks`` letters taken out: found
            kept = list(codes)
            for _ in range(blanks):
                kept.pop(int(rng.integers(len(kept))))
            assert wm_word_exists(table, WM_RAND, _hash(kept), blanks, A.size), (w, blanks)
            # the same with one letter changed at random: as the set says
            changed = list(kept)
            if changed:
                changed[int(rng.integers(len(changed)))] = int(rng.integers(1, A.size + 1))
            want = _exists_brute(keys, changed, blanks)
            got = wm_word_exists(table, WM_RAND, _hash(changed), blanks, A.size)
            assert got == want, (w, changed, blanks)
            checked[blanks][int(want)] += 1
    # both answers occurred for each blank count (the test is not one-sided)
    assert all(no > 0 for no, _ in checked.values()), checked
    # an empty table turns the map off
    assert wm_word_exists(np.zeros(0, dtype=np.uint64), WM_RAND, _hash([1, 2]), 0, A.size)


def _tiny_lexicon(tmp_path, words):
    return build_bundle(sorted(words), tmp_path / "tiny.lex")


def _rack(text: str) -> np.ndarray:
    return A.parse_rack(text)


def _check_top(board, rack, lex, tiles_of_best: int):
    full = generate_moves(board, rack, lex)
    for n in (1, 3):
        want = [(m.notation, m.score) for m in full.top(n)]
        got = [(m.notation, m.score) for m in best_moves(board, rack, lex, n)]
        assert got == want, n
    best = full.top(1)[0]
    assert sum(not t for t in best.through) == tiles_of_best, best  # the top move is in the branch the rule must keep
    return best


# ABENDROT through the T on the board; the rack's seven letters form no word of the list
WORDS = ["ABENDROT", "AB", "DA", "ORT", "ROT", "TAT", "BOT", "NA", "RAD", "ODE", "TOR"]


@pytest.mark.parametrize("rack", ["ABENDRO", "ABEND?O", "AB?ND?O"])
def test_bingo_through_a_board_tile_is_found(tmp_path, rack):
    lex = _tiny_lexicon(tmp_path, WORDS)
    b = Board()
    b.place([(7, 7, A.code("T"), False)])
    r = _rack(rack)
    table = word_map(lex)
    # the rack alone makes no word, with the T it does
    letters = [c for c in range(1, A.size + 1) for _ in range(int(r[c]))]
    assert not wm_word_exists(table, WM_RAND, _hash(letters), int(r[0]), A.size)
    assert wm_word_exists(table, WM_RAND, _hash(letters + [A.code("T")]), int(r[0]), A.size)
    best = _check_top(b, r, lex, 7)
    assert best.score > 50


def test_seven_letter_word_on_an_empty_board(tmp_path):
    lex = _tiny_lexicon(tmp_path, ["ABENDROT", "BRATEN", "BRATENS", "AB", "RAT"])
    b = Board()
    _check_top(b, _rack("BRATENS"), lex, 7)          # the whole rack is a word: the bingo bound stays
    best = _check_top(b, _rack("BRATENX"), lex, 6)  # no word of all seven: BRATEN
    assert best.word == "BRATEN"


def test_short_rack_going_out_through_a_tile(tmp_path):
    lex = _tiny_lexicon(tmp_path, ["QUARK", "QUA", "AR", "KA", "RAK"])
    b = Board()
    b.place([(7, 7, A.code("A"), False), (7, 8, A.code("R"), False)])
    _check_top(b, _rack("QUK"), lex, 3)  # QUARK: every rack tile used, through AR


def test_build_wordmap_on_an_empty_graph_answers_nothing_found(tmp_path):
    lex = _tiny_lexicon(tmp_path, ["AB"])
    table = build_wordmap(lex.graph, WM_RAND)
    assert wm_word_exists(table, WM_RAND, _hash([A.code("A"), A.code("B")]), 0, A.size)
    assert not wm_word_exists(table, WM_RAND, _hash([A.code("A")]), 0, A.size)
    assert not wm_word_exists(table, WM_RAND, _hash([A.code("A"), A.code("A")]), 0, A.size)


# ---------------------------------------------------------------------------
# The empty board: words from the DAWG, scored at every start (engine.movegen._movegen._best_opening)
# ---------------------------------------------------------------------------
def _asymmetric_layout():
    """The standard layout with a triple letter on G8 and a double word on H5: the down moves
    through H8 score differently from the across ones, so both lines are searched."""
    from engine.position.board import Layout, standard_layout

    std = standard_layout()
    lm = std.letter_mult.copy()
    wm = std.word_mult.copy()
    lm[7, 6] = 3
    wm[4, 7] = 2
    return Layout("asymmetric", lm, wm)


@pytest.mark.parametrize("rack", ["EEOVY??", "BRATENS", "QXYÄÖÜJ", "ENRTUU?", "AEINRST", "E"])
@pytest.mark.parametrize("asym", [False, True])
def test_empty_board_best_equals_full_top(golden_lexicon, rack, asym):
    from engine.game.equity import leave_arrays as table_leaves
    from engine.leaves.table import default_table
    from engine.movegen.generator import best_move_list
    from test_bestfirst import _ranked

    b = Board(layout=_asymmetric_layout()) if asym else Board()
    r = _rack(rack)
    full = generate_moves(b, r, golden_lexicon)
    for n in (1, 4, 10):
        want = [(m.notation, m.score) for m in full.top(n)]
        got = [(m.notation, m.score) for m in best_moves(b, r, golden_lexicon, n)]
        assert got == want, (rack, n)
    leaves = table_leaves(default_table(), r, 50)
    for n in (1, 5):
        assert (_ranked(best_move_list(b, r, golden_lexicon, n, leaves=leaves), leaves[0], leaves[1], n)
                == _ranked(full, leaves[0], leaves[1], n)), (rack, n)
    if asym and len(full):
        # the asymmetric premiums make some down move differ from its across twin
        scores = {(m.word, m.row, m.col, m.direction): m.score for m in full}
        assert any(scores.get((w, c, rr, 1 - d)) != s for (w, rr, c, d), s in scores.items())


# ---------------------------------------------------------------------------
# The exchange floor: best_equity searches placements only down to the n-th best exchange
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("rack", ["ÖÜQXYVJ", "EEOVY??", "AEINRST", "CCKÖUUU", "DDGGLLN", "IIUUÖVW"])
def test_best_equity_with_exchanges_equals_the_full_ranking(golden_lexicon, rack):
    from engine.game.equity import best_equity, rank_moves
    from engine.leaves.table import default_table

    from conftest import golden_positions

    table = default_table()
    r = _rack(rack)
    kinds = set()
    mixed = 0
    for pid, cgp in golden_positions()[::5]:
        board = parse_cgp(cgp, allow_impossible=True).board
        full = rank_moves(board, r, golden_lexicon, bag=40, table=table)
        for n in (1, 3, 8):
            want = [(c.kind, c.notation, c.equity) for c in full[:n]]
            got = [(c.kind, c.notation, c.equity) for c in best_equity(board, r, golden_lexicon, bag=40, n=n,
                                                                       table=table)]
            assert got == want, (pid, rack, n)
        kinds.add(full[0].kind)
        top8 = [c.kind for c in full[:8]]
        mixed += "exchange" in top8 and "play" in top8[top8.index("exchange"):]
    if rack == "ÖÜQXYVJ":
        assert "exchange" in kinds  # the floor decided something here (an exchange is the best)
    if rack == "IIUUÖVW":
        assert mixed >= 3  # plays ranked below exchanges inside the top 8


# ---------------------------------------------------------------------------
# Spans without board tiles: k tiles need a word of k rack tiles (engine.movegen._movegen._word_leaves)
# ---------------------------------------------------------------------------
SPARSE = ["ER", "ES", "EN", "DER", "DIE", "DAS", "NASE", "RASEN", "REISEN", "TEE", "SEE", "ARENA",
          "RAT", "RATE", "RATEN", "ENDE", "NEST", "RAST", "TANTE", "TRESEN", "SENDER"]


def test_plays_without_board_tiles_on_a_sparse_word_list(tmp_path):
    """A small list with few word lengths, so that many tile counts have no word of the rack's
    tiles: best_moves by score and by equity (a toy leave function) equal the full list's top n,
    and many of the top moves are parallel or hooking plays (no board tile in the main word)."""
    from test_bestfirst import _toy_leave_value

    lex = _tiny_lexicon(tmp_path, SPARSE)
    rng = np.random.default_rng(11)
    bag = np.repeat(np.arange(A.size + 1), A.counts)
    boards = []
    for words in ([(7, 5, "RASEN")], [(7, 5, "RASEN"), (8, 9, "TEE")], [(6, 3, "SENDER"), (9, 8, "NEST")]):
        b = Board()
        for row, col, w in words:
            b.place([(row, col + i, A.code(ch), False) for i, ch in enumerate(w)
                     if not b.tiles[row, col + i]])
        boards.append(b)
    no_board_tile = 0
    for b in boards:
        for _ in range(25):
            rack = np.bincount(rng.choice(bag, 7, replace=False), minlength=A.size + 1).astype(np.int32)
            full = generate_moves(b, rack, lex)
            for n in (1, 3):
                want = [(m.notation, m.score) for m in full.top(n)]
                got = [(m.notation, m.score) for m in best_moves(b, rack, lex, n)]
                assert got == want, (A.rack_string(rack), n)
                want_eq = sorted(((m.score + _toy_leave_value(A.parse_rack(m.leave)), m.notation) for m in full),
                                 key=lambda en: (-en[0], en[1]))[:n]
                got_eq = [(m.equity, m.notation) for m in best_moves(b, rack, lex, n, leave_value=_toy_leave_value)]
                assert got_eq == want_eq, (A.rack_string(rack), n)
            if len(full) and not any(full.top(1)[0].through):
                no_board_tile += 1
    assert no_board_tile >= 5, no_board_tile


# ---------------------------------------------------------------------------
# Every golden position: the one-call best move by equity and by score against the full list
# ---------------------------------------------------------------------------
def test_best_move_on_every_golden_position_and_random_racks(golden_lexicon):
    """On every golden position, with its own rack and bag and with two seeded random racks: the
    best-first top 1 and top 3 by equity (``best_equity``: leave arrays, exchange floor and the
    bounded walk in one kernel call) equal ``rank_moves`` (every move generated, each leave valued
    by the table), and by score (``best_moves``) the full move list's top (ties by notation)."""
    from engine.game.equity import best_equity, rank_moves
    from engine.leaves.table import default_table

    from conftest import golden_positions

    table = default_table()
    rng = np.random.default_rng(27)
    tiles = np.repeat(np.arange(A.size + 1), A.counts)
    checked = 0
    for pid, cgp in golden_positions():
        pos = parse_cgp(cgp, allow_impossible=True)
        bag = pos.bag_count if pos.bag_count is not None else 40
        racks = [pos.rack] + [np.bincount(rng.choice(tiles, 7, replace=False), minlength=A.size + 1).astype(np.int32)
                              for _ in range(2)]
        for rack in racks:
            full = rank_moves(pos.board, rack, golden_lexicon, bag=bag, table=table)
            for n in (1, 3):
                want = [(c.kind, c.notation, c.equity) for c in full[:n]]
                got = [(c.kind, c.notation, c.equity)
                       for c in best_equity(pos.board, rack, golden_lexicon, bag=bag, n=n, table=table)]
                assert got == want, (pid, A.rack_string(rack), n)
            top = generate_moves(pos.board, rack, golden_lexicon).top(1)
            got = best_moves(pos.board, rack, golden_lexicon, 1)
            assert [(m.notation, m.score) for m in got] == [(m.notation, m.score) for m in top], (pid, A.rack_string(rack))
            checked += 1
    assert checked == 3 * len(golden_positions())


@pytest.mark.parametrize("rack", ["AEINRST", "ERNST?Ö", "QXYÖÜVJ", "EEEIIUU", "DR?LLÄN", "AB"])
def test_word_leaves_equal_a_brute_force_over_sub_racks(golden_lexicon, golden_words_list, rack):
    """``_word_leaves`` (probes in the order of the best leave) equals, for each number k of tiles
    played, the best leave value over the k-tile sub-racks that some word of the list consists of
    (a blank: any letter), found by trying every sub-rack against a set of sorted words."""
    from itertools import product

    from engine.game.equity import leave_arrays as table_leaves
    from engine.leaves.table import default_table
    from engine.movegen import _movegen as K

    keys = {tuple(sorted(A.code(ch) for ch in w)) for w in golden_words_list}
    r = _rack(rack)
    radix, lv, lvmax = table_leaves(default_table(), r, 40)
    zero = (np.zeros_like(radix), np.zeros(1), np.zeros(8))
    codes = [c for c in range(A.size + 1) if r[c] > 0]
    for rdx, vals, vmax in (zero, (radix, lv, lvmax)):
        want = [-np.inf] * 8
        for used in product(*(range(int(r[c]) + 1) for c in codes)):
            k = sum(used)
            if not 2 <= k <= 7:
                continue
            letters = [c for c, u in zip(codes, used) if c != 0 for _ in range(u)]
            blanks = dict(zip(codes, used)).get(0, 0)
            if _exists_brute(keys, letters, blanks):
                want[k] = max(want[k], float(vals[sum(u * int(rdx[c]) for c, u in zip(codes, used))]))
        got = K._word_leaves(word_map(golden_lexicon), r.astype(np.int64), rdx, vals, vmax, A.size)
        assert list(got[2:]) == want[2:], (rack, "score" if vals is zero[1] else "equity")
        assert got[0] == vmax[0] and got[1] == vmax[1]
