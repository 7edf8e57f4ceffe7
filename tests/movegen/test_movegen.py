"""Move generator tests: golden move lists, a brute-force reference, property tests.

* golden: for all 43 positions of tests/data the generator's set of
  (placements, score) equals the golden list exactly, every move's notation
  equals the golden notation, and ``MoveList.sorted()`` gives the golden order
  (score descending, then notation in Python string order).
* reference: :mod:`reference_generator` (segment enumeration + regex word
  matching, no GADDAG) gives the same set as the generator on golden positions.
* properties (hypothesis): on boards reached by random legal play with a
  small lexicon, generator == reference, no duplicate moves, transposing the
  board transposes the move set, and every score equals an independent re-score.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import golden_moves, golden_positions
from engine.position.board import Board, square_name
from engine.position.cgp import parse_cgp
from engine.movegen.generator import generate_moves
from lexicon_tools.alphabet import german
from lexicon_tools.bundle import build_bundle
from reference_generator import parse_placements, reference_moves, rescore, word_index

POSITIONS = golden_positions()
POSITION_IDS = [pid for pid, _ in POSITIONS]
CGP = dict(POSITIONS)


def _diff_message(got: set, want: set, limit: int = 25) -> str:
    missing = sorted(want - got, key=lambda t: (-t[1], t[0]))
    extra = sorted(got - want, key=lambda t: (-t[1], t[0]))
    return (f"{len(missing)} missing, {len(extra)} extra\n"
            f"missing (in expected, not generated): {missing[:limit]}\n"
            f"extra (generated, not expected): {extra[:limit]}")


# -- golden move lists ----------------------------------------------------------------
@pytest.mark.parametrize("pid", POSITION_IDS)
def test_golden_placement_set(pid, golden_lexicon):
    pos = parse_cgp(CGP[pid], allow_impossible=True)
    moves = generate_moves(pos.board, pos.rack, golden_lexicon)
    want = {(p, s) for _n, s, p in golden_moves(pid)}
    got = moves.placement_set()
    assert got == want, f"{pid}: " + _diff_message(got, want)
    assert len(moves) == len(want), f"{pid}: {len(moves)} rows for {len(want)} distinct moves (duplicates)"


@pytest.mark.parametrize("pid", POSITION_IDS)
def test_golden_notation_and_order(pid, golden_lexicon):
    pos = parse_cgp(CGP[pid], allow_impossible=True)
    moves = generate_moves(pos.board, pos.rack, golden_lexicon)
    golden = golden_moves(pid)
    by_placement = {m.placements: m for m in moves}
    wrong = []
    for notation, score, placements in golden:
        m = by_placement.get(placements)
        assert m is not None, f"{pid}: golden move {notation} ({placements}) not generated"
        if m.notation != notation or m.score != score:
            wrong.append((placements, notation, score, m.notation, m.score))
    assert not wrong, f"{pid}: (placements, golden notation, score, generated notation, score): {wrong[:20]}"
    # the golden files are sorted by score descending, then notation; Python string order
    assert [(n, s) for n, s, _p in golden] == sorted(((n, s) for n, s, _p in golden), key=lambda t: (-t[1], t[0]))
    assert [m.notation for m in moves.sorted()] == [n for n, _s, _p in golden]
    top = moves.top(5)
    assert [m.notation for m in top] == [n for n, _s, _p in golden[:5]]


# -- reference generator on golden positions -----------------------------------------
# blank-free racks with few moves: the reference needs well under a second each
REFERENCE_POSITIONS = ["p002", "p004", "p005", "p033", "p064", "p_ref1", "p_ref3", "p018"]


@pytest.fixture(scope="session")
def golden_word_index(golden_words_list):
    return word_index(set(golden_words_list))


@pytest.mark.parametrize("pid", REFERENCE_POSITIONS)
def test_reference_matches_generator(pid, golden_lexicon, golden_word_index):
    pos = parse_cgp(CGP[pid], allow_impossible=True)
    assert pos.rack[0] == 0
    got = generate_moves(pos.board, pos.rack, golden_lexicon).placement_set()
    ref = reference_moves(pos.board, pos.rack, golden_word_index)
    assert got == ref, f"{pid} generator vs reference: " + _diff_message(got, ref)
    want = {(p, s) for _n, s, p in golden_moves(pid)}
    assert ref == want, f"{pid} reference vs golden: " + _diff_message(ref, want)


def test_reference_examples():
    """The reference itself on SPEC worked examples that the golden word list covers."""
    a = german()
    b = Board()
    moves = dict(reference_moves(b, a.parse_rack("SCORE"), {"SCORE"}))
    assert moves["F8:S,G8:C,H8:O,I8:R,J8:E"] == 18  # worked example 1
    assert moves["H7:S,H8:C,H9:O,H10:R,H11:E"] == 18
    assert moves["H4:S,H5:C,H6:O,H7:R,H8:E"] == 20  # S on the d of H4
    moves = dict(reference_moves(b, a.parse_rack("GRE?"), {"GÖRE"}))
    assert moves["G8:G,H8:ö,I8:R,J8:E"] == 8  # worked example 4
    moves = dict(reference_moves(b, a.parse_rack("HAUSTÜR"), {"HAUSTÜR"}))
    assert moves["D8:H,E8:A,F8:U,G8:S,H8:T,I8:Ü,J8:R"] == 80  # worked example 5
    # worked example 2: ÜBER down column I onto the R of SCORE
    b.place(parse_placements("F8:S,G8:C,H8:O,I8:R,J8:E", b))
    moves = dict(reference_moves(b, a.parse_rack("ÜBE"), {"SCORE", "ÜBER"}))
    assert moves["I5:Ü,I6:B,I7:E"] == 12
    assert rescore(b, parse_placements("I5:Ü,I6:B,I7:E", b), {"ÜBER"}) == 12


# -- property tests on random positions -------------------------------------------------
SMALL_BLOCKS = 300  # blocks of 10 consecutive words: 3,000 words of 4+ letters
BLOCK = 10


@pytest.fixture(scope="session")
def small_words(golden_words_list) -> frozenset[str]:
    """All 2- and 3-letter golden words plus 300 deterministic blocks of 10 consecutive longer words.

    Blocks (rather than 3,000 independent words) keep inflected families together
    (HAUS, HAUSE, HAUSES ...), which makes extension plays common. They also keep
    the graph small: a sample of 3,000 unrelated words overflows the arc arrays
    that lexicon_tools.kwg.build_kwg sizes as 2 x (number of strings) and
    crashes the Numba builder (see the report of this test file).
    """
    rng = random.Random(20240611)
    short = [w for w in golden_words_list if len(w) <= 3]
    longer = sorted(w for w in golden_words_list if len(w) > 3)
    starts = rng.sample(range(0, len(longer) - BLOCK, BLOCK), SMALL_BLOCKS)
    return frozenset(short) | frozenset(longer[s + k] for s in starts for k in range(BLOCK))


@pytest.fixture(scope="session")
def small_lexicon(tmp_path_factory, small_words):
    out = tmp_path_factory.mktemp("lex") / "small.lex"
    return build_bundle(sorted(small_words), out, source_name="golden sample")


@pytest.fixture(scope="session")
def small_index(small_words):
    return word_index(small_words)


def random_position(lexicon, seed: int, n_moves: int) -> Board:
    """Board after up to ``n_moves`` random legal placements (moves chosen from the generator)."""
    a = german()
    rng = random.Random(seed)
    bag = [code for code in range(a.size + 1) for _ in range(int(a.counts[code]))]
    rng.shuffle(bag)
    board = Board()
    rack = np.zeros(a.size + 1, dtype=np.int32)
    for _ in range(n_moves):
        while rack.sum() < a.rack_size and bag:
            rack[bag.pop()] += 1
        moves = generate_moves(board, rack, lexicon)
        if len(moves) == 0:
            # exchange everything (or stop when the bag is too small)
            if len(bag) < a.rack_size:
                break
            back = [c for c in range(a.size + 1) for _ in range(int(rack[c]))]
            rack[:] = 0
            while rack.sum() < a.rack_size:
                rack[bag.pop()] += 1
            bag.extend(back)
            rng.shuffle(bag)
            continue
        m = moves[rng.randrange(len(moves))]
        placed = [(r, c, a.code(ch), blank) for r, c, ch, blank in m.tiles]
        board.place(placed)
        for _r, _c, code, blank in placed:
            rack[0 if blank else code] -= 1
        assert (rack >= 0).all()
    return board


def _transpose_key(placements: str) -> str:
    if not placements:
        return placements
    cols = "ABCDEFGHIJKLMNO"
    tiles = []
    for part in placements.split(","):
        sq, ch = part.split(":")
        r, c = int(sq[1:]) - 1, cols.index(sq[0])
        tiles.append((c, r, ch))
    return ",".join(f"{square_name(r, c)}:{ch}" for r, c, ch in sorted(tiles))


_LETTERS = german().letters
_BAG_LETTERS = tuple(ch for i, ch in enumerate(_LETTERS) for _ in range(int(german().counts[i + 1])))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    n_moves=st.integers(0, 12),
    blanks=st.integers(0, 2),
    letters=st.lists(st.sampled_from(_BAG_LETTERS), min_size=1, max_size=7),
)
def test_random_positions(small_lexicon, small_index, small_words, seed, n_moves, blanks, letters):
    a = german()
    board = random_position(small_lexicon, seed, n_moves)
    letters = letters[: a.rack_size - blanks]
    rack = np.zeros(a.size + 1, dtype=np.int32)
    rack[0] = blanks
    for ch in letters:
        rack[a.code(ch)] += 1
    moves = generate_moves(board, rack, small_lexicon)
    got = moves.placement_set()
    where = f"\nrack {a.rack_string(rack)}\n{board.to_text()}"

    # no duplicates: every row is a distinct set of placed tiles
    keys = [m.placements for m in moves]
    assert len(keys) == len(set(keys)), f"duplicate moves: {len(keys) - len(set(keys))}" + where

    # the brute-force reference finds exactly the same moves and scores
    ref = reference_moves(board, rack, small_index)
    assert got == ref, _diff_message(got, ref) + where

    # transposing the board transposes the move set (the layout is symmetric)
    assert np.array_equal(board.layout.letter_mult, board.layout.letter_mult.T)
    assert np.array_equal(board.layout.word_mult, board.layout.word_mult.T)
    tb = Board()
    tb.tiles[:] = board.tiles.T
    tb.blanks[:] = board.blanks.T
    tgot = generate_moves(tb, rack, small_lexicon).placement_set()
    want_t = {(_transpose_key(p), s) for p, s in got}
    assert tgot == want_t, "transposed: " + _diff_message(tgot, want_t) + where

    # every move is legal and its score equals an independent re-score from the finished board
    for m in moves:
        assert rescore(board, parse_placements(m.placements, board), small_words) == m.score, \
            f"{m.notation} {m.placements} scored {m.score}" + where


def test_opening_down_moves_are_the_transposed_across_moves(golden_lexicon):
    """On an empty board with the symmetric standard layout the generator adds the down
    moves by transposing the across ones; the transposed board gives the same set."""
    from engine.position.board import Board

    a = golden_lexicon.alphabet
    rack = a.parse_rack("EEOVY??")
    ml = generate_moves(Board(), rack, golden_lexicon)
    across = {(m.placements, m.score) for m in ml if m.direction == 0}
    down = {(m.placements, m.score) for m in ml if m.direction == 1}
    assert len(across) == len(down) == len(ml) // 2 == 2021  # p001: 4042 placements in all

    def transpose(p):
        sq = []
        for item in p.split(","):
            s, letter = item.split(":")
            col, row = ord(s[0]) - ord("A"), int(s[1:]) - 1
            sq.append((col, row, letter))
        return ",".join(f"{'ABCDEFGHIJKLMNO'[c]}{r + 1}:{l}" for r, c, l in sorted(sq))

    assert {(transpose(p), s) for p, s in across} == down


def test_opening_on_an_asymmetric_layout_lists_both_directions(small_lexicon, small_index):
    """With a layout that is not symmetric about the diagonal the opening's down moves are
    generated, not copied from the across ones: a triple-letter square at 8J (across
    moves reach it) has no mirror at J8 (down moves), so equal words score differently."""
    from engine.position.board import Layout, standard_layout

    std = standard_layout()
    lm = std.letter_mult.copy()
    wm = std.word_mult.copy()
    assert lm[7, 9] == 1 and wm[7, 9] == 1 and lm[9, 7] == 1
    lm[7, 9] = 3
    board = Board(layout=Layout("skew", lm, wm))
    a = german()
    rack = a.parse_rack("AEHNRS?")
    moves = generate_moves(board, rack, small_lexicon)
    got = moves.placement_set()
    assert got == reference_moves(board, rack, small_index)
    across = {p: s for p, s in got if all(part.split(":")[0][1:] == "8" for part in p.split(","))}
    down = {(_transpose_key(p), s) for p, s in got if p not in across}
    assert across and len(across) + len(down) == len(got)
    # an across move through 8J (a tile of value v on a TL square) scores more than its mirror
    # down move through J8; every other across move has its mirror with the same score
    moved = {p for p, s in across.items() if (p, s) not in down}
    assert moved and all("J8:" in p for p in moved)
    assert all((p, s) in down for p, s in across.items() if "J8:" not in p)
