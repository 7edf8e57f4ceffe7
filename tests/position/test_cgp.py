"""CGP positions and the plain board text: round trips and bad input."""

from __future__ import annotations

import numpy as np
import pytest

from engine.position.board import Board, parse_start
from engine.position.cgp import CGPError, format_cgp, parse_cgp
from lexicon_tools.alphabet import german

from conftest import golden_positions

EMPTY = "/".join(["15"] * 15)


@pytest.mark.parametrize("pid,cgp", golden_positions()[::5])
def test_round_trip(pid, cgp):
    pos = parse_cgp(cgp)
    again = parse_cgp(format_cgp(pos))
    assert again.board == pos.board
    assert np.array_equal(again.rack, pos.rack)
    assert again.scores == pos.scores and again.opcodes == pos.opcodes
    assert Board.from_text(pos.board.to_text()) == pos.board


def test_fields_by_hand():
    pos = parse_cgp("15/15/15/15/15/15/15/7HAuS4/15/15/15/15/15/15/15 ÄEN?/IJ 120/95 2 lex NGERMAN; bag 80;")
    a = german()
    assert pos.board.letter_at(7, 7) == "H" and pos.board.letter_at(7, 9) == "u"
    assert pos.board.blanks[7, 9] and not pos.board.blanks[7, 7]
    assert pos.rack_string == "ÄEN?"
    assert pos.rack[0] == 1 and pos.rack[a.code("Ä")] == 1
    assert pos.opponent_rack is not None and a.rack_string(pos.opponent_rack) == "IJ"
    assert pos.scores == (120, 95) and pos.zero_turns == 2
    assert pos.bag_count == 80


@pytest.mark.parametrize("bad,message", [
    ("15/15 AB/ 0/0 0", "2 rows, expected 15"),
    (EMPTY.replace("15", "16", 1) + " AB/ 0/0 0", "row 1"),
    (EMPTY[:-2] + "14X1 AB/ 0/0 0", "16 squares"),
    (EMPTY[:-2] + "14ß ABC/ 0/0 0", "board row 15: 'ß' is not a letter"),
    (EMPTY + " ABß/ 0/0 0", r"'ß' is not a letter of the German tile set \(write SS for ß\)"),
    (EMPTY + " ABCDEFGH/ 0/0 0", "8 tiles, at most 7"),
    (EMPTY + " QQ/ 0/0 0", "2 × Q, but the tile set has only 1"),
    (EMPTY + " AB/ x/0 0", "scores field"),
    (EMPTY + " AB/ 0/0 z", "scoreless-turn field"),
    (EMPTY + " AB/ 0/0 0 bag many;", "opcode bag"),
    ("", "empty CGP"),
])
def test_bad_cgp_names_the_problem(bad, message):
    with pytest.raises(CGPError, match=message):
        parse_cgp(bad)


def test_impossible_tile_counts_refused_unless_allowed():
    cgp = dict(golden_positions())["p_ref3"]  # a hand-made position with four L tiles (the set has 3)
    with pytest.raises(CGPError, match=r"4 × L \(4 on the board, 0 on the rack\), the German tile set has 3"):
        parse_cgp(cgp)
    assert parse_cgp(cgp, allow_impossible=True).board.tile_count > 0
    assert parse_cgp(cgp, strict=False).rack_string == "EINRSTU"  # the old spelling still works


@pytest.mark.parametrize("cgp,message", [
    # two X on the board (the set has one)
    (EMPTY.replace("15", "7EX6", 8).replace("7EX6", "15", 7) + " X/ 0/0 0",
     r"2 × X \(1 on the board, 1 on the rack\), the German tile set has 1"),
    # three blanks: two on the board (lowercase), one on the rack
    (EMPTY.replace("15", "7ab6", 1) + " ?/ 0/0 0", r"3 × blank \(2 on the board, 1 on the rack\), .* has 2"),
    # sixteen E on the board (15 in the set)
    (EMPTY.replace("15", "EEEEEEEEEEEEEEE", 1).replace("/15/", "/E14/", 1) + " A/ 0/0 0",
     r"16 × E \(16 on the board, 0 on the rack\), .* has 15"),
    # the opponent's rack counts too
    (EMPTY + " Q/Q 0/0 0", r"2 × Q \(0 on the board, 1 on the rack, 1 on the opponent's rack\)"),
])
def test_impossible_positions_name_the_tile_and_counts(cgp, message):
    with pytest.raises(CGPError, match=message):
        parse_cgp(cgp)
    parse_cgp(cgp, allow_impossible=True)


@pytest.mark.parametrize("cgp,message", [
    (EMPTY + " aeinrst/ 0/0 0", r"rack 'aeinrst': lowercase 'a'"),
    (EMPTY + " AEINRST/ö 0/0 0", r"opponent rack 'ö': lowercase 'ö'"),
    (EMPTY + " AEINRST/ 0/0 0 foo", r"'foo' is not an opcode"),
    (EMPTY + " AEINRST/ 0/0 0 bag 88; foo", r"'foo' is not an opcode"),
    (EMPTY + " AEINRST/ 0/0 0 BAG 88;", r"'BAG' is not an opcode name"),
    (EMPTY + " AEINRST/ 0/0 0 bag 88; bag 80;", r"opcode 'bag' given twice"),
    (EMPTY + " AEINRST/ 0/0 0 " + "x" * 100_000, r"100,0\d\d characters: a position is at most 4,096"),
    (EMPTY + " AEINRST/ 0/0 ²", r"scoreless-turn field '²': expected a number \(digits 0-9\)"),
    (EMPTY + " AEINRST/ 0/0 0 bag ²;", r"opcode bag '²': expected a number of tiles \(digits 0-9\)"),
    (EMPTY + " AEINRST/ 0/² 0", r"scores field '0/²'"),
    (EMPTY.replace("15", "1²13", 1) + " AEINRST/ 0/0 0", r"board row 1: '²' is not a digit 0-9"),
    (EMPTY + " AB/CD/EF 0/0 0", r"rack field 'AB/CD/EF'"),
])
def test_cgp_junk_and_lowercase_racks_are_refused_naming_the_part(cgp, message):
    with pytest.raises(CGPError, match=message):
        parse_cgp(cgp)


def test_unknown_lexicon_name_or_opcode_is_a_note_not_an_error():
    from pathlib import Path

    from engine.position.cgp import position_notes

    def lexicon_note(pos, lex=None):
        notes = position_notes(pos, lex)
        assert len(notes) <= 1
        return notes[0] if notes else None

    class Lex:
        path = Path("/x/club.lex")

    pos = parse_cgp(EMPTY + " AEINRST/ 0/0 0 lex FOO;")
    assert pos.opcodes == {"lex": "FOO"}
    assert lexicon_note(pos).startswith("CGP opcode lex 'FOO': not a known German word list")
    assert lexicon_note(pos, Lex()).startswith("CGP opcode lex 'FOO'")
    for known in ("lex NGERMAN; bag 88;", "lex default-0123456789ab;", "lex club;", ""):
        assert lexicon_note(parse_cgp(EMPTY + " AEINRST/ 0/0 0 " + known), Lex()) is None, known
    pos = parse_cgp(EMPTY + " AEINRST/ 0/0 0 frob 1; tmr 0/0;")
    assert pos.opcodes == {"frob": "1", "tmr": "0/0"}
    assert lexicon_note(pos).startswith("CGP opcode 'frob' is not one this program knows")


@pytest.mark.parametrize("text,expected", [("8H", (7, 7, 0)), ("H8", (7, 7, 1)), ("15o", (14, 14, 0)),
                                           ("A1", (0, 0, 1))])
def test_start_squares(text, expected):
    assert parse_start(text) == expected


@pytest.mark.parametrize("text", ["16A", "P1", "8", "H", "", "8HH"])
def test_bad_start_squares(text):
    with pytest.raises(ValueError):
        parse_start(text)


def test_decomposed_umlauts_in_cgp():
    import unicodedata

    nfd = unicodedata.normalize("NFD", EMPTY.replace("15", "7Ü7", 1) + " ÄÖ/ 0/0 0")
    pos = parse_cgp(nfd)
    assert pos.board.letter_at(0, 7) == "Ü" and pos.rack_string == "ÄÖ"


@pytest.mark.parametrize("bag,message", [(200, "only 95 tiles"), (0, "leaves 95 tiles unaccounted")])
def test_bag_opcode_must_fit_the_tiles(bag, message):
    # empty board, 7 tiles on the rack: 95 tiles are elsewhere (bag and other racks)
    with pytest.raises(CGPError, match=message):
        parse_cgp(EMPTY + f" AEINRST/ 0/0 0 bag {bag};")
    assert parse_cgp(EMPTY + " AEINRST/ 0/0 0 bag 88;").bag_count == 88
