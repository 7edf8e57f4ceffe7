"""Tests for engine.position.scorer: notation parsing, rule checks with exact reasons, scoring,
and agreement with the golden move lists (SPEC.md "A legal placement", "Scoring")."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import golden_moves, golden_positions

from engine.position.board import ACROSS, DOWN, Board, parse_start
from engine.position.cgp import parse_cgp
from engine.position.moves import Move
from engine.position.scorer import (
    IllegalMove,
    Placement,
    ScoredMove,
    check_move,
    describe,
    parse_move,
    score_placement,
)
from lexicon_tools.alphabet import german
from lexicon_tools.bundle import build_bundle

A = german()
WORDS = ["HAUS", "HAUSE", "HA", "AI", "HAI", "ÖL", "ÖD", "ÜBER", "SCORE", "OB", "EH", "DA", "LAS", "AS", "TAL", "AH"]


@pytest.fixture(scope="module")
def lex(tmp_path_factory):
    return build_bundle(WORDS, tmp_path_factory.mktemp("scorer") / "x.lex")


def board_with(*words: str) -> Board:
    """A board holding words written like moves (``"8G HAUS"``; lowercase = blank)."""
    b = Board()
    for w in words:
        start, letters = w.split()
        r, c, d = parse_start(start)
        dr, dc = (0, 1) if d == ACROSS else (1, 0)
        b.place([(r + dr * i, c + dc * i, A.code(ch.upper()), ch.islower()) for i, ch in enumerate(letters)])
    return b


def reason(fn, *args, **kw) -> str:
    with pytest.raises(IllegalMove) as exc:
        fn(*args, **kw)
    assert str(exc.value) == exc.value.reason
    assert isinstance(exc.value, ValueError)
    return exc.value.reason


# ---------------------------------------------------------------------------
# parse_move
# ---------------------------------------------------------------------------
def test_parse_across_and_down():
    b = Board()
    p = parse_move(b, "8H HAUS")
    assert isinstance(p, Placement)
    assert (p.row, p.col, p.direction, p.word, p.through) == (7, 7, ACROSS, "HAUS", (False,) * 4)
    assert p.tiles == [(7, 7, "H", False), (7, 8, "A", False), (7, 9, "U", False), (7, 10, "S", False)]
    p = parse_move(b, "H8 HAUS")
    assert p.direction == DOWN
    assert p.tiles == [(7, 7, "H", False), (8, 7, "A", False), (9, 7, "U", False), (10, 7, "S", False)]
    assert p.notation == "H8 HAUS"


def test_parse_through_with_and_without_parentheses(lex):
    b = board_with("I6 OBU")  # U on I8
    with_parens = parse_move(b, "8G HA(U)S")
    without = parse_move(b, "8G HAUS")
    assert with_parens == without
    assert with_parens.through == (False, False, True, False)
    assert with_parens.tiles == [(7, 6, "H", False), (7, 7, "A", False), (7, 9, "S", False)]
    assert with_parens.notation == "8G HA(U)S"
    assert check_move(b, "8G HAUS", lex).move.notation == "8G HA(U)S"


def test_parse_lowercase_blank_and_german_letters():
    b = Board()
    p = parse_move(b, "8H HAuS")
    assert p.tiles[2] == (7, 9, "U", True)
    p = parse_move(b, "H8 ÜBER")
    assert p.tiles[0] == (7, 7, "Ü", False)
    p = parse_move(b, "8H öl")
    assert p.tiles == [(7, 7, "Ö", True), (7, 8, "L", True)]
    assert p.word == "öl"


def test_parse_board_blank_in_either_case():
    b = board_with("I6 OBu")  # blank u on I8
    for text in ("8G HA(u)S", "8G HA(U)S", "8G HAuS", "8G HAUS"):
        p = parse_move(b, text)
        assert p.word == "HAuS" and p.through == (False, False, True, False), text


def test_parse_start_square_case_and_spaces():
    assert parse_move(Board(), "  8h   HAUS ") == parse_move(Board(), "8H HAUS")


def test_parse_occupied_square_mismatch():
    b = board_with("8F SCORE")  # R on I8, E on J8
    assert reason(parse_move, b, "J6 ABT") == "square J8 holds E, not T"
    assert reason(parse_move, b, "I7 A(S)") == "square I8 holds R, not S"


def test_parse_off_board():
    b = Board()
    assert "8P" in reason(parse_move, b, "8P HAUS")
    assert "16A" in reason(parse_move, b, "16A HAUS")
    r = reason(parse_move, b, "8M HAUS")
    assert "runs off the board" in r and "column O" in r and "letter 4 (S)" in r
    r = reason(parse_move, b, "M13 HAUS")
    assert "runs off the board" in r and "row 15" in r


def test_parse_bad_parentheses_and_letters():
    b = board_with("8H HAUS")
    assert reason(parse_move, b, "7G (X)A") == "square G7 is empty, but (X) marks a tile already on the board"
    assert "not closed" in reason(parse_move, b, "H7 E(AUS")
    assert "without '('" in reason(parse_move, b, "H7 E)A")
    assert "nested" in reason(parse_move, b, "H7 E((A))")
    assert reason(parse_move, b, "8A STRAßE") == "STRAßE: 'ß' is not a letter of the German tile set (write SS for ß)"
    assert "places no tile" in reason(parse_move, b, "8H HAUS")
    assert "expected a start square and a word" in reason(parse_move, b, "HAUS")
    assert "expected a start square and a word" in reason(parse_move, b, "8H HA US")


# ---------------------------------------------------------------------------
# one-tile plays
# ---------------------------------------------------------------------------
def test_one_tile_play_in_both_notations(lex):
    b = board_with("E8 LA")  # L on E8, A on E9
    across = check_move(b, "8D Ö(L)", lex)
    down = check_move(b, "D8 Ö", lex)
    assert across == down
    assert across.move.notation == "8D Ö(L)"  # golden convention: across when it forms an across word
    assert across.words == [("ÖL", 18)]  # Ö on D8 (d): 8x2 + 2
    assert across.score == 18


def test_one_tile_play_forming_only_a_down_word_is_written_down(lex):
    b = board_with("8H HAUS")  # A on I8
    for text in ("I7 D(A)", "7I D"):
        sm = check_move(b, text, lex)
        assert sm.move.notation == "I7 D(A)", text
        assert sm.move.direction == DOWN
        assert sm.words == [("DA", 3)]  # D on I7 (d): 1x2 + 1


def test_one_tile_play_forming_two_words(lex):
    b = board_with("8H HAUS", "H9 A")  # A on I8 and A on H9
    sm = check_move(b, "9I H", lex)  # H on I9 forms AH across, AH down
    assert sm.move.notation == "9H (A)H"
    assert sm.words == [("AH", 5), ("AH", 5)]  # I9 is d: 1 + 2x2
    assert check_move(b, "I8 (A)H", lex) == sm


# ---------------------------------------------------------------------------
# score_placement: results
# ---------------------------------------------------------------------------
def test_scored_move_fields(lex):
    b = board_with("8G HAI")
    sm = check_move(b, "7H HA", lex, rack="AHINRST")
    assert isinstance(sm, ScoredMove)
    assert sm.tiles == [(6, 7, "H", False), (6, 8, "A", False)]
    assert sm.words == [("HA", 4), ("HA", 3), ("AI", 3)]  # main word, then cross-words left to right
    assert sm.bingo is False
    assert sm.score == 10
    assert sm.move == Move(6, 7, ACROSS, "HA", (False, False), 10, "INRST")
    assert describe(sm) == "7H HA 10 = HA 4 + HA 3 + AI 3"
    assert check_move(b, "7H HA", lex).move.leave == ""  # no rack: no leave


def test_rack_as_counts_array(lex):
    b = board_with("8G HAI")
    counts = A.parse_rack("AHINRS?")
    sm = check_move(b, "7H hA", lex, rack=counts)
    assert sm.move.leave == "HINRS"
    assert sm.score == 6  # blank h: HA 0+1x2, HA 0+1, AI 1x2+1
    assert counts.sum() == 7  # not modified


def test_score_placement_tile_forms(lex):
    b = board_with("8G HAI")
    full = score_placement(b, [(6, 7, "H", False), (6, 8, "A", False)], lex)
    assert score_placement(b, [(6, 8, "A"), (6, 7, "H")], lex) == full  # 3-tuples, any order
    assert score_placement(b, [(6, 7, A.code("H"), False), (6, 8, A.code("A"), False)], lex) == full
    blank = score_placement(b, [(6, 7, "h"), (6, 8, "A")], lex)
    assert blank.tiles[0] == (6, 7, "H", True) and blank.score == 6
    assert b == board_with("8G HAI")  # board not modified


def test_bingo_bonus_once_after_premiums(lex):
    words = ["HAUSTÜR"]
    sm = score_placement(Board(), [(7, 3 + i, ch, False) for i, ch in enumerate("HAUSTÜR")], words)
    assert sm.bingo and sm.words == [("HAUSTÜR", 30)] and sm.score == 80
    assert describe(sm) == "8D HAUSTÜR 80 = HAUSTÜR 30 + bingo 50"


def test_premiums_only_under_new_tiles(lex):
    b = board_with("8F SCORE")  # S F8, O on the star H8
    sm = check_move(b, "H8 (O)B", lex)  # B on H9: plain; star already covered
    assert sm.words == [("OB", 5)]
    sm = check_move(b, "I5 ÜBE(R)", lex)  # E on I7 (d)
    assert sm.words == [("ÜBER", 12)]


def test_word_premium_applies_to_cross_word_too(lex):
    # D on E5 (double word) forms DA across (A on F5) and DA down (A on E6): both doubled
    b = board_with("5F A", "E6 A")
    sm = check_move(b, "5E D(A)", lex)
    assert sm.words == [("DA", 4), ("DA", 4)]
    assert sm.score == 8


# ---------------------------------------------------------------------------
# score_placement: illegal placements, each with its reason
# ---------------------------------------------------------------------------
def test_word_not_in_list_names_the_word(lex):
    b = board_with("8H HAUS")
    assert reason(check_move, b, "8H (HAUS)ES", lex) == "HAUSES is not in the word list"
    # a cross-word: S under the H of HAUS makes HS down
    assert reason(check_move, b, "9H S", lex) == "HS is not in the word list"
    # several bad words: the first is named, the others follow
    r = reason(check_move, b, "9G TS", lex)
    assert r.startswith("TS is not in the word list") and "HS" in r


def test_gap():
    b = board_with("8H HAUS")
    r = reason(score_placement, b, [(8, 7, "A", False), (8, 9, "E", False)])
    assert r == "gap at I9: the new tiles and the board's tiles do not form one unbroken line"
    # board tiles may fill the gap
    assert score_placement(b, [(7, 6, "X", False), (7, 11, "E", False)]).move.word == "XHAUSE"


def test_not_in_one_line():
    b = board_with("8H HAUS")
    assert reason(score_placement, b, [(6, 7, "A", False), (8, 8, "E", False)]) == \
        "the tiles are not in one row or column"


def test_not_connected(lex):
    b = board_with("8H HAUS")
    assert reason(check_move, b, "2B HA", lex) == "the move does not touch any tile on the board"
    assert reason(score_placement, b, [(0, 0, "A", False)]) == "the move does not touch any tile on the board"
    # diagonal contact is no contact
    assert reason(score_placement, b, [(6, 6, "A", False)]) == "the move does not touch any tile on the board"


def test_tile_not_on_rack(lex):
    b = board_with("8G HAI")
    assert reason(check_move, b, "7H HA", lex, rack="AEINRST") == "tile H is not on the rack (rack AEINRST)"
    assert reason(check_move, b, "7H hA", lex, rack="AHINRST") == "tile ? (blank) is not on the rack (rack AHINRST)"
    assert reason(check_move, Board(), "8H HAUS", None, rack="") == "tile H is not on the rack (rack empty)"
    assert reason(check_move, Board(), "8H HAUS", None, rack="AUS?") == (
        "tile H is not on the rack (rack ASU?); to play the blank as H, write it lowercase")
    r = reason(check_move, Board(), "8G SCORE", None, rack="CORSTUV")
    assert r == "tile E is not on the rack (rack CORSTUV)"
    r = reason(check_move, Board(), "8H DADA", None, rack="ADDNRST")
    assert r == "tile A is not on the rack 2 times (rack ADDNRST holds 1)"
    # the blank may stand for the missing tile
    assert check_move(Board(), "8H DAdA", None, rack="AADNRS?").move.leave == "NRS"


def test_first_move_off_the_star(lex):
    assert reason(check_move, Board(), "7H HAUS", lex) == "the first move must cover the centre star H8"
    assert reason(check_move, Board(), "8A HAUS", lex) == "the first move must cover the centre star H8"


def test_first_move_single_tile():
    assert reason(score_placement, Board(), [(7, 7, "A", False)]) == "the first move must place at least two tiles"


def test_square_occupied():
    b = board_with("8H HAUS")
    r = reason(score_placement, b, [(7, 8, "E", False), (7, 11, "E", False)])
    assert r == "square I8 is already occupied (by A)"
    r = reason(score_placement, b, [(6, 7, "E", False), (6, 7, "A", False)])
    assert r == "two tiles on square H7"


def test_off_board_tile_and_bad_letter():
    r = reason(score_placement, Board(), [(7, 15, "A", False), (7, 14, "B", False)])
    assert "off the board" in r
    assert "not a letter" in reason(score_placement, Board(), [(7, 7, "ß", False), (7, 8, "A", False)])
    assert reason(score_placement, Board(), []) == "the move places no tile"


def test_rack_array_of_wrong_shape():
    with pytest.raises(ValueError, match="counts array"):
        score_placement(Board(), [(7, 7, "A"), (7, 8, "B")], rack=np.zeros(5, dtype=np.int32))


# ---------------------------------------------------------------------------
# agreement with the golden move lists
# ---------------------------------------------------------------------------
GOLDEN_IDS = ["p001", "p002", "p004", "p005", "p006"]  # empty board + blanks, mid-game, endgame, blank-rich


@pytest.mark.parametrize("pid", GOLDEN_IDS)
def test_golden_moves_rescore(pid, golden_lexicon):
    cgp = dict(golden_positions())[pid]
    pos = parse_cgp(cgp)
    moves = golden_moves(pid)
    assert moves
    for notation, score, placements in moves:
        sm = check_move(pos.board, notation, golden_lexicon, pos.rack)
        assert sm.score == score, notation
        assert sm.move.placements == placements, notation
        assert sm.move.notation == notation
        assert sm.move.score == score


def test_decomposed_umlauts_and_empty_parentheses(golden_lexicon):
    """NFD input (macOS keyboards: U + combining diaeresis) reads as Ü; '()' is refused."""
    import unicodedata

    from engine.position.board import Board
    from engine.position.scorer import IllegalMove, check_move

    b = Board()
    nfd = unicodedata.normalize("NFD", "8H ÜBER")
    assert nfd != "8H ÜBER"
    assert check_move(b, nfd, golden_lexicon).score == check_move(b, "8H ÜBER", golden_lexicon).score
    with pytest.raises(IllegalMove, match="empty parentheses"):
        check_move(b, "8H ÜB()ER", golden_lexicon)
