"""Scrabble Together: the cooperative team side (seeds, "Scrabble Together oder Scrabble Teams").

The group builds one shared board and plays against goal cards: each fulfilled
card is one common point, 20 fulfilled cards win. Placements follow the usual
rules (one line, gapless, connected, first move across the centre, every new
word in the agreed list — or agreed at the table), but nothing is scored with
letter or word premiums: there are no points besides the goal cards.

The physical cards are read by the players, so a move is stored with a flag
saying whether it fulfilled the current card (as the seeds' score pad does).
For common card types the check can be automated with a :class:`Goal`
(:func:`word_length`, :func:`corner`, :func:`uses_letter`, :func:`words_formed`).

Decisions where the seeds are silent (docs/game.md): the team side uses the
same 15×15 geometry (the centre square starts the game); racks are physical
and not tracked, but the board may never hold more of a letter than the tile
set has (extra copies must be blanks, written in lowercase).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

import numpy as np

from lexicon_tools.alphabet import Alphabet, german

from engine.position.board import N, Board, Layout
from engine.position.moves import Move

__all__ = ["Goal", "TogetherMove", "TogetherGame", "word_length", "corner", "uses_letter", "words_formed"]


@dataclass(frozen=True)
class Goal:
    """A goal card with an automatic check.

    Attributes:
        text: what the card asks, for people.
        check: ``check(move) -> bool`` on the :class:`TogetherMove` just played.
    """

    text: str
    check: Callable[["TogetherMove"], bool]


def word_length(n: int) -> Goal:
    """Card "a word with ``n`` letters": some word the move forms has exactly ``n`` letters."""
    return Goal(f"a word with {n} letters", lambda m: any(len(w) == n for w in m.words))


def corner() -> Goal:
    """Card "a move onto a corner square": a new tile on A1, O1, A15 or O15."""
    corners = {(0, 0), (0, N - 1), (N - 1, 0), (N - 1, N - 1)}
    return Goal("a tile on a corner square", lambda m: any((r, c) in corners for r, c, _l, _b in m.tiles))


def uses_letter(letter: str) -> Goal:
    """Card "use the letter X": a new tile (not a blank) shows ``letter``."""
    up = letter.upper()
    return Goal(f"place the letter {up}", lambda m: any(ch == up and not b for _r, _c, ch, b in m.tiles))


def words_formed(k: int) -> Goal:
    """Card "form ``k`` words at once": the move forms at least ``k`` words."""
    return Goal(f"form {k} words in one move", lambda m: len(m.words) >= k)


@dataclass(frozen=True)
class TogetherMove:
    """One move on the shared board.

    Attributes:
        move: the placement (``move.score`` is 0: the team side is not scored).
        tiles: new tiles ``(row, col, LETTER, is_blank)``.
        words: every word formed (main word first), uppercase.
        goal_done: the move fulfilled the current goal card.
        agreed: a word not in the list was accepted at the table.
        goals: fulfilled cards after this move.
    """

    move: Move
    tiles: tuple
    words: tuple
    goal_done: bool
    agreed: bool
    goals: int

    @property
    def notation(self) -> str:
        """The move in standard notation (``8H HA(U)S``)."""
        return self.move.notation


class TogetherGame:
    """The shared board of Scrabble Together and its goal count.

    Args:
        lexicon: the agreed word list (``WORD in lexicon``); ``None`` loads the packaged default.
        target: fulfilled goal cards needed to win (20).
        alphabet, layout: tile set and board geometry (premiums are ignored).

    Attributes:
        board: the shared :class:`~engine.position.board.Board`.
        history: the :class:`TogetherMove` list.
        goals: fulfilled goal cards so far.
    """

    def __init__(self, lexicon=None, target: int = 20, alphabet: Alphabet | None = None,
                 layout: Layout | None = None):
        if lexicon is None:
            from lexicon_tools.bundle import load_lexicon

            lexicon = load_lexicon(None)
        if target < 1:
            raise ValueError(f"target must be at least 1 goal card, got {target}")
        self.lexicon = lexicon
        self.alphabet = alphabet or getattr(lexicon, "alphabet", None) or german()
        self.board = Board(self.alphabet, layout)
        self.target = target
        self.history: list[TogetherMove] = []
        self.goals = 0
        self._code = {ch: i + 1 for i, ch in enumerate(self.alphabet.letters)}

    @property
    def won(self) -> bool:
        """True once ``target`` goal cards are fulfilled."""
        return self.goals >= self.target

    def check(self, move, agreed: bool = False) -> TogetherMove:
        """Check a move without playing it (see :meth:`play` for arguments and errors)."""
        from engine.position.scorer import IllegalMove, check_move, score_placement

        if isinstance(move, str):
            scored = check_move(self.board, move, None)
        elif isinstance(move, Move):
            scored = score_placement(self.board, move.tiles, None)
        else:
            raise TypeError(f"play() takes notation or a Move, not {type(move).__name__}")
        words = tuple(w for w, _s in scored.words)
        bad = [w for w in words if w not in self.lexicon]
        if bad and not agreed:
            reason = f"{bad[0]} is not in the word list"
            if len(bad) > 1:
                reason += f" (nor {', '.join(dict.fromkeys(bad[1:]))})"
            raise IllegalMove(reason + " (agreed=True to accept it anyway)")
        a = self.alphabet
        used = np.bincount(np.where(self.board.blanks, 0, self.board.tiles)[self.board.tiles != 0],
                           minlength=a.size + 1)
        for _r, _c, ch, b in scored.tiles:
            k = 0 if b else self._code[ch]
            used[k] += 1
            if used[k] > a.counts[k]:
                what = "blank" if b else ch
                raise IllegalMove(f"the {a.set_label} has only {int(a.counts[k])} × {what}: "
                                  f"{'write extra copies as blanks (lowercase)' if not b else 'no blank left'}")
        return TogetherMove(replace(scored.move, score=0), tuple(scored.tiles), words, False, bool(bad), self.goals)

    def play(self, move, goal_done: bool | Goal = False, agreed: bool = False) -> TogetherMove:
        """Place a move on the shared board.

        Args:
            move: notation (``"8H HAUS"``, ``"H8 HA(U)S"``, blanks lowercase) or a
                :class:`~engine.position.moves.Move`.
            goal_done: True when the move fulfilled the current goal card, or a
                :class:`Goal` whose check decides.
            agreed: accept words missing from the list (agreed at the table).

        Returns:
            the :class:`TogetherMove` (``goals`` counts this move's card).

        Raises:
            IllegalMove: illegal placement (the scorer's reason), a word not in
                the list (without ``agreed``), more of a letter than the set holds.
            GameError: the game is already won.
        """
        from engine.game.game import GameError

        if self.won:
            raise GameError(f"the team has already won ({self.goals} goal cards)")
        tm = self.check(move, agreed)
        done = goal_done.check(tm) if isinstance(goal_done, Goal) else bool(goal_done)
        self.board.place([(r, c, self._code[ch], b) for r, c, ch, b in tm.tiles])
        self.goals += done
        tm = replace(tm, goal_done=done, goals=self.goals)
        self.history.append(tm)
        return tm

    def undo(self) -> TogetherMove:
        """Take back the last move (and its goal card).

        Raises:
            GameError: no move to take back.
        """
        from engine.game.game import GameError

        if not self.history:
            raise GameError("nothing to undo")
        tm = self.history.pop()
        self.board.remove([(r, c, 0, b) for r, c, _ch, b in tm.tiles])
        self.goals -= tm.goal_done
        return tm

    def summary(self) -> str:
        """The moves and the goal count as text."""
        lines = [f"{i + 1:>3} {tm.notation:<24} {'goal ' + str(tm.goals) if tm.goal_done else ''}"
                 f"{' (agreed)' if tm.agreed else ''}".rstrip() for i, tm in enumerate(self.history)]
        lines.append(f"goal cards: {self.goals}/{self.target}{' - won!' if self.won else ''}")
        return "\n".join(lines) + "\n"
