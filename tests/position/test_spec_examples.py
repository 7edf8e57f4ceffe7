"""SPEC.md "Worked examples" 1-11, each as a test.

Every example is checked twice, independently: by the word checker
(:func:`engine.position.scorer.check_move` and :func:`engine.position.scorer.score_placement`)
and by the move generator (:func:`engine.movegen.generator.generate_moves` on the same
board and rack must list a move with exactly those placements and that score).

The boards hold only the tiles an example needs, placed so that the premium
squares of the standard layout (SPEC.md "Board") make the stated arithmetic
exact. Example 9's second half (HAUS over two double-word squares) cannot occur
on the standard layout (no two double-word squares lie within four squares of
each other in one line), so it is played on a layout with one extra ``2``.
"""

from __future__ import annotations

from importlib import resources

import pytest

from engine.position.board import ACROSS, Board, Layout, parse_start
from engine.movegen.generator import generate_moves
from engine.position.scorer import check_move, score_placement
from lexicon_tools.alphabet import german
from lexicon_tools.bundle import build_bundle

WORDS = [
    "SCORE", "ÜBER", "HA", "AI", "HAI", "GÖRE", "HAUSTÜR", "TRAUBEN", "EX", "XI",
    "SEE", "IN", "HEXE", "HAUS", "QUAL", "ZUHAUSE", "UR", "AB", "AH",
]


@pytest.fixture(scope="module")
def lex(tmp_path_factory):
    return build_bundle(WORDS, tmp_path_factory.mktemp("spec") / "x.lex")


def board_with(*words: str, layout: Layout | None = None) -> Board:
    """A board holding words written like moves (``"8G HAI"``; lowercase = blank)."""
    a = german()
    b = Board(a, layout)
    for w in words:
        start, letters = w.split()
        r, c, d = parse_start(start)
        dr, dc = (0, 1) if d == ACROSS else (1, 0)
        b.place([(r + dr * i, c + dc * i, a.code(ch.upper()), ch.islower()) for i, ch in enumerate(letters)])
    return b


def verify(board: Board, notation: str, rack: str, lex, score: int, words=None, bingo=False):
    """Check one example with the checker (both entry points) and the generator."""
    a = german()
    counts = a.parse_rack(rack)
    sm = check_move(board, notation, lex, counts)
    assert sm.score == score, f"{notation}: checker scores {sm.score}, SPEC says {score}"
    assert sm.bingo is bingo
    if words is not None:
        assert sm.words == words
    again = score_placement(board, sm.tiles, lexicon=lex, rack=counts)
    assert again == sm
    assert sm.move.notation == notation
    generated = generate_moves(board, counts, lex)
    found = [m for m in generated if m.placements == sm.move.placements]
    assert found, f"generator did not find {notation} ({sm.move.placements})"
    assert [m.score for m in found] == [score], f"generator scores {notation} as {[m.score for m in found]}"
    assert found[0] == sm.move  # same notation, score and leave
    return sm


def test_example_1_score_opening(lex):
    # S F8, C G8, O H8 (star), R I8, E J8: (1+4+2+1+1) x2
    verify(Board(), "8F SCORE", "CEORSTU", lex, 18, [("SCORE", 18)])


def test_example_2_ueber_down_onto_r(lex):
    board = board_with("8F SCORE")
    # Ü I5, B I6, E I7 (d), R I8 already there: 6 + 3 + 1x2 + 1
    sm = verify(board, "I5 ÜBE(R)", "BEÜNNST", lex, 12, [("ÜBER", 12)])
    assert [(r, c) for r, c, _l, _b in sm.tiles] == [(4, 8), (5, 8), (6, 8)]
    assert board.layout.letter_mult[6, 8] == 2


def test_example_3_two_tiles_three_words(lex):
    # HAI on row 8 (G8 H, H8 A, I8 I); new H on H7, new A on I7 (d)
    board = board_with("8G HAI")
    assert board.layout.letter_mult[6, 8] == 2 and board.layout.letter_mult[6, 7] == 1
    verify(board, "7H HA", "AHLNRST", lex, 10, [("HA", 4), ("HA", 3), ("AI", 3)])


def test_example_4_goere_with_blank(lex):
    # G E8, blank ö F8, R G8, E H8 (star): (2+0+1+1) x2
    sm = verify(Board(), "8E GöRE", "EGRT?", lex, 8, [("GÖRE", 8)])
    assert sm.tiles[1] == (7, 5, "Ö", True)
    assert sm.move.leave == "T"


def test_example_5_haustuer_bingo(lex):
    # H on D8 (d) ... T on H8 (star): (2x2+1+1+1+1+6+1) x2 + 50
    sm = verify(Board(), "8D HAUSTÜR", "AHRSTUÜ", lex, 80, [("HAUSTÜR", 30)], bingo=True)
    assert sm.move.leave == ""


def test_example_6_trauben_bingo(lex):
    # E8..K8 avoids both d squares (D8, L8): 9 x2 + 50
    verify(Board(), "8E TRAUBEN", "ABENRTU", lex, 68, [("TRAUBEN", 18)], bingo=True)


def test_example_7_lone_x_two_words(lex):
    # SEE down I8-I10 puts an E on I10; IN on row 11 puts an I on J11; X on J10 (t)
    board = board_with("I8 SEE", "11J IN")
    assert board.layout.letter_mult[9, 9] == 3
    sm = verify(board, "10I (E)X", "X", lex, 50, [("EX", 25), ("XI", 25)])
    # a one-tile play may also be written down
    assert check_move(board, "J10 X(I)", lex, "X") == sm


def test_example_8_hexe_with_blank(lex):
    # plain squares: HAI down column H gives the H on H8 (already covered); E I8, x J8, E K8
    board = board_with("H8 HAI")
    verify(board, "8H (H)ExE", "EENRST?", lex, 4, [("HEXE", 4)])
    # blank x on the double-word square K11: H on I11 already there
    board = board_with("I10 AH")
    assert board.layout.word_mult[10, 10] == 2
    verify(board, "11I (H)ExE", "EENRST?", lex, 8, [("HEXE", 8)])


def test_example_9_haus_on_premiums(lex):
    # H on A4 (d), S on D4 (double word), U already on C4: (2x2+1+1+1) x2
    board = board_with("C4 UR")
    assert board.layout.letter_mult[3, 0] == 2 and board.layout.word_mult[3, 3] == 2
    verify(board, "4A HA(U)S", "AHSTTEE", lex, 14, [("HAUS", 14)])


def test_example_9_haus_over_two_double_words(lex, tmp_path):
    # The standard layout has no two double-word squares within four squares of
    # each other in one line; add a "2" on G4 so HAUS on D4-G4 covers D4 and G4.
    wm = Board().layout.word_mult
    for line in list(wm) + list(wm.T):
        doubles = [i for i, m in enumerate(line) if m == 2]
        assert all(b - a > 3 for a, b in zip(doubles, doubles[1:]))
    lines = [ln for ln in (resources.files("engine") / "data" / "standard.txt").read_text(encoding="utf-8")
             .splitlines() if ln and not ln.startswith("#")]
    assert lines[3] == "d..2...d...2..d"
    lines[3] = lines[3][:6] + "2" + lines[3][7:]
    path = tmp_path / "two_doubles.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    layout = Layout.load(path)
    assert layout.word_mult[3, 3] == 2 and layout.word_mult[3, 6] == 2
    board = board_with("F4 UR", layout=layout)
    # H D4 (2), A E4, U F4 already there, S G4 (2): (2+1+1+1) x2 x2
    verify(board, "4D HA(U)S", "AHSTTEE", lex, 20, [("HAUS", 20)])


def test_example_10_qual_q_on_triple_letter(lex):
    # Q on B6 (t), A already on D6 (from AB down D6-D7): 10x3 + 1 + 1 + 2
    board = board_with("D6 AB")
    assert board.layout.letter_mult[5, 1] == 3
    verify(board, "6B QU(A)L", "LQUNRST", lex, 34, [("QUAL", 34)])


def test_example_11_extend_haus_at_both_ends(lex):
    # HAUS on G8-J8; Z E8, U F8 and E K8 in one move: the whole word scores
    board = board_with("8G HAUS")
    sm = verify(board, "8E ZU(HAUS)E", "EUZNRST", lex, 10, [("ZUHAUSE", 10)])
    assert len(sm.tiles) == 3
    assert sm.score == sum(int(german().values[german().code(ch)]) for ch in "ZUHAUSE")
    # written without parentheses it is the same move
    assert check_move(board, "8E ZUHAUSE", lex, "EUZNRST") == sm


def test_examples_use_only_listed_words(lex):
    """Guard: the fixture lexicon answers exactly the words the examples rely on."""
    for w in WORDS:
        assert w in lex
    assert "HAUSE" not in lex and "ZUHAUS" not in lex and "UEBER" not in lex
