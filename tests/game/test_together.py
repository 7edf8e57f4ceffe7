"""Scrabble Together: shared board, legality without premium scoring, goal cards (20 win)."""

from __future__ import annotations

import numpy as np
import pytest

from engine.game.game import GameError
from engine.position.scorer import IllegalMove
from engine.game.together import Goal, TogetherGame, TogetherMove, corner, uses_letter, word_length, words_formed
from lexicon_tools.bundle import build_bundle

WORDS = ["HAUS", "HAUSE", "ZUHAUSE", "HEXE", "EX", "ES", "AB", "ZU", "DU", "SCORE", "SCORES"]


@pytest.fixture(scope="module")
def lex(tmp_path_factory):
    return build_bundle(WORDS, tmp_path_factory.mktemp("lex") / "together.lex", source_name="test")


def test_moves_checked_not_scored(lex):
    g = TogetherGame(lex)
    tm = g.play("8D HAUSE")  # would be 14 points with the d and the star; the team side is not scored
    assert tm.move.score == 0 and tm.words == ("HAUSE",) and not tm.goal_done and g.goals == 0
    assert g.board.tile_count == 5
    tm = g.play("8B ZU(HAUSE)")
    assert tm.words == ("ZUHAUSE",) and len(tm.tiles) == 2 and tm.move.score == 0


def test_illegal_moves(lex):
    g = TogetherGame(lex)
    with pytest.raises(IllegalMove, match="centre"):
        g.play("1A HAUS")
    g.play("8E HAUS")
    with pytest.raises(IllegalMove, match="does not touch"):
        g.play("1A AB")
    with pytest.raises(IllegalMove, match="HAUSX is not in the word list"):
        g.play("8E (HAUS)X")
    assert g.history and len(g.history) == 1


def test_agreed_word(lex):
    g = TogetherGame(lex)
    tm = g.play("8H HAUSX", agreed=True)
    assert tm.agreed and g.board.tile_count == 5


def test_tile_supply(lex):
    g = TogetherGame(lex)
    g.play("8G HEXE")
    with pytest.raises(IllegalMove, match="only 1 × X"):
        g.play("H8 (E)X")
    tm = g.play("H8 (E)x")  # a blank may stand for the second X
    assert tm.words == ("EX",) and tm.tiles == ((8, 7, "X", True),)


def test_goal_cards_count_and_twenty_win(lex):
    g = TogetherGame(lex, target=20)
    g.play("8E HAUS", goal_done=True)
    assert g.goals == 1 and not g.won
    g.goals = 19  # as if 18 more cards were done
    tm = g.play("H7 E(S)", goal_done=word_length(5))  # ES: no five-letter word
    assert not tm.goal_done and g.goals == 19 and not g.won
    tm = g.play("8I E", goal_done=word_length(5))  # HAUSE: a five-letter word
    assert tm.goal_done and tm.goals == 20 and g.won
    with pytest.raises(GameError, match="already won"):
        g.play("8C ZU")
    assert "won" in g.summary()


def test_undo(lex):
    g = TogetherGame(lex)
    g.play("8E HAUS", goal_done=True)
    before = g.board.tiles.copy()
    g.play("8I E", goal_done=True)
    assert g.goals == 2
    tm = g.undo()
    assert tm.notation == "8E (HAUS)E" and g.goals == 1 and np.array_equal(g.board.tiles, before)
    g.undo()
    assert g.board.is_empty and g.goals == 0
    with pytest.raises(GameError, match="nothing to undo"):
        g.undo()


def _tm(tiles, words):
    from engine.position.moves import Move

    return TogetherMove(Move(0, 0, 0, "X", (False,), 0, ""), tuple(tiles), tuple(words), False, False, 0)


def test_goal_helpers():
    assert word_length(5).check(_tm([], ["HAUSE"])) and not word_length(5).check(_tm([], ["HAUS", "ES"]))
    assert corner().check(_tm([(14, 14, "A", False)], ["AB"])) and not corner().check(_tm([(0, 1, "A", False)], []))
    assert uses_letter("x").check(_tm([(1, 1, "X", False)], [])) and not uses_letter("X").check(
        _tm([(1, 1, "X", True)], []))
    assert words_formed(2).check(_tm([], ["ES", "SCORES"]))
    assert isinstance(corner(), Goal) and "corner" in corner().text


def test_target_must_be_positive(lex):
    with pytest.raises(ValueError, match="at least 1"):
        TogetherGame(lex, target=0)
