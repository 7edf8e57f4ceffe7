"""The word checker and scorer: one placement in, its words and points out.

This module is the independent check of the move generator
(:mod:`engine.movegen._movegen`): it shares no scoring code with it and works square by
square in plain Python, straight from SPEC.md "A legal placement" and
"Scoring". It is also what a user-facing "is this move legal, and what does it
score?" command calls.

Three entry points:

* :func:`parse_move` reads move notation (``8H HAUS``, ``H8 HA(U)S``, blanks in
  lowercase) against a board and returns a :class:`Placement`;
* :func:`score_placement` checks and scores a set of newly placed tiles;
* :func:`check_move` does both.

Every rule violation raises :class:`IllegalMove` whose ``reason`` says exactly
what is wrong (the word that is not in the list, the square of a gap, the tile
that is not on the rack, ...). Squares in messages are named column then row
(``J8``), as :func:`engine.position.board.square_name` and the golden move lists do.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

import numpy as np

from lexicon_tools.alphabet import BLANK, Alphabet

from engine.position.board import ACROSS, CENTER, COLUMNS, DOWN, N, Board, parse_start, square_name
from engine.position.moves import Move

__all__ = [
    "IllegalMove",
    "Placement",
    "ScoredMove",
    "check_move",
    "describe",
    "parse_move",
    "score_placement",
]


class IllegalMove(ValueError):
    """A placement that breaks a rule or cannot be read.

    Attributes:
        reason: the human-readable explanation (also ``str(exc)``), e.g.
            ``"HAUSX is not in the word list"`` or ``"gap at K8: ..."``.
    """

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Placement:
    """A move read from notation, not yet checked or scored (see :func:`parse_move`).

    Attributes:
        row, col: 0-based square of the first written letter.
        direction: ``ACROSS`` (0) or ``DOWN`` (1), from the notation.
        word: the written letters (parentheses removed): uppercase tiles,
            lowercase blanks; letters on occupied squares are the board's letters.
        through: per letter of ``word``, True when the square already holds a tile.
    """

    row: int
    col: int
    direction: int
    word: str
    through: tuple[bool, ...]

    @property
    def tiles(self) -> list[tuple[int, int, str, bool]]:
        """Newly placed tiles ``(row, col, LETTER, is_blank)`` in board order, letter uppercase."""
        dr, dc = (0, 1) if self.direction == ACROSS else (1, 0)
        return [(self.row + dr * i, self.col + dc * i, ch.upper(), ch.islower())
                for i, (ch, t) in enumerate(zip(self.word, self.through)) if not t]

    @property
    def notation(self) -> str:
        """The placement in standard notation (played-through tiles in parentheses)."""
        return Move(self.row, self.col, self.direction, self.word, self.through, 0, "").notation


@dataclass(frozen=True)
class ScoredMove:
    """A legal placement with its words and score (see :func:`score_placement`).

    Attributes:
        move: the :class:`engine.position.moves.Move` (main word, start square, score; the
            leave when a rack was given, else ``""``). A one-tile play is written
            across when it forms an across word, else down (the golden-list convention).
        tiles: newly placed tiles ``(row, col, LETTER, is_blank)`` in board order.
        words: every word formed, ``(WORD, points)``: the main word first, then the
            cross-words in board order; words in uppercase (blanks too).
        bingo: True when the whole rack (``alphabet.rack_size`` tiles) was placed.
        score: total points: the sum of ``words`` plus the bingo bonus.
    """

    move: Move
    tiles: list[tuple[int, int, str, bool]]
    words: list[tuple[str, int]]
    bingo: bool
    score: int


# ---------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------
def _is_letter(ch: str, alphabet: Alphabet) -> bool:
    """One character that is a tile letter in either case (``ß`` is not: its uppercase is ``SS``)."""
    up = ch.upper()
    return len(ch) == 1 and len(up) == 1 and alphabet.is_word_chars(up)


def expand_dots(board: Board, start: str, word: str) -> str:
    """Replace ``.`` (a tile already on the board, GCG and Quackle style) by that tile's letter.

    Args:
        board: the position's board.
        start: the start square, ``8H`` or ``H8``.
        word: the written word, e.g. ``WO.D`` (parentheses are passed through).

    Returns:
        the word with each ``.`` replaced by the board's letter in parentheses (``WO(R)D``).

    Raises:
        IllegalMove: the start square is not on the board, or a ``.`` lies
            beyond the edge or over an empty square (the message names it).
    """
    if "." not in word:
        return word
    try:
        row, col, direction = parse_start(start)
    except ValueError as exc:
        raise IllegalMove(str(exc)) from None
    dr, dc = (0, 1) if direction == ACROSS else (1, 0)
    out = []
    pos = 0
    for ch in word:
        if ch in "()":
            out.append(ch)
            continue
        if ch == ".":
            r, c = row + dr * pos, col + dc * pos
            if r >= N or c >= N:
                raise IllegalMove(f"{start} {word}: '.' at letter {pos + 1} lies beyond the edge of the board")
            on_board = board.letter_at(r, c)
            if not on_board:
                raise IllegalMove(f"{start} {word}: '.' at letter {pos + 1} marks an empty square "
                                  f"({square_name(r, c)})")
            out.append(f"({on_board})")
        else:
            out.append(ch)
        pos += 1
    return "".join(out).replace(")(", "")


def parse_move(board: Board, text: str) -> Placement:
    """Read move notation against a board.

    Accepted forms: ``8H HAUS`` (across, start square row first), ``H8 HAUS``
    (down, column first), played-through tiles in parentheses (``8H HA(U)S``) or
    written plainly (``8H HAUS`` with the U already on the board), blanks in
    lowercase (``8H HAuS``), German letters ``Ä Ö Ü`` / ``ä ö ü``. A letter on
    an occupied square must be the board's letter; a blank on the board may be
    written in either case. A one-tile play may be written in either direction.

    Args:
        board: the position's board (:class:`engine.position.board.Board`).
        text: the move, ``"<start> <word>"``.

    Returns:
        a :class:`Placement` (not yet checked against the rules: use
        :func:`score_placement` or :func:`check_move`).

    Raises:
        IllegalMove: unreadable text, a square off the board, a letter that is
            not in the tile set, a letter that differs from the tile already on
            its square (``"square J8 holds S, not T"``), parentheses around an
            empty square or unbalanced, or no new tile at all.
    """
    alphabet = board.alphabet
    parts = unicodedata.normalize("NFC", text).split()  # decomposed Ü (macOS input) -> Ü
    if len(parts) != 2:
        raise IllegalMove(f"cannot read {text!r}: expected a start square and a word, like '8H HAUS' or 'H8 HAUS'")
    start, written = parts
    try:
        row, col, direction = parse_start(start)
    except ValueError as exc:
        raise IllegalMove(str(exc)) from None
    dr, dc = (0, 1) if direction == ACROSS else (1, 0)

    letters: list[str] = []
    marked: list[bool] = []  # inside parentheses
    inside = False
    for k, ch in enumerate(written):
        prev = written[k - 1] if k else ""
        if ch == "(":
            if inside:
                raise IllegalMove(f"{written}: nested '(' (parentheses mark tiles already on the board)")
            inside = True
        elif ch == ")":
            if not inside:
                raise IllegalMove(f"{written}: ')' without '('")
            if prev == "(":
                raise IllegalMove(f"{written}: empty parentheses")
            inside = False
        else:
            if not _is_letter(ch, alphabet):
                raise IllegalMove(f"{written}: {alphabet.not_a_letter(ch)}")
            letters.append(ch)
            marked.append(inside)
    if inside:
        raise IllegalMove(f"{written}: '(' is not closed")
    if not letters:
        raise IllegalMove(f"{written}: no letters")

    word: list[str] = []
    through: list[bool] = []
    for i, (ch, in_parens) in enumerate(zip(letters, marked)):
        r, c = row + dr * i, col + dc * i
        if r >= N or c >= N:
            edge = f"column {COLUMNS[-1]}" if direction == ACROSS else f"row {N}"
            raise IllegalMove(
                f"{''.join(letters)} from {start.upper()} runs off the board: "
                f"letter {i + 1} ({ch}) would lie beyond {edge}")
        on_board = board.letter_at(r, c)
        if on_board:
            if ch.upper() != on_board.upper():
                raise IllegalMove(f"square {square_name(r, c)} holds {on_board}, not {ch}")
            word.append(on_board)
            through.append(True)
        else:
            if in_parens:
                raise IllegalMove(
                    f"square {square_name(r, c)} is empty, but ({ch}) marks a tile already on the board")
            word.append(ch)
            through.append(False)
    if all(through):
        raise IllegalMove(f"{text.strip()} places no tile: every square already holds its letter")
    return Placement(row, col, direction, "".join(word), tuple(through))


# ---------------------------------------------------------------------------
# Checking and scoring
# ---------------------------------------------------------------------------
def _normalise_tiles(tiles, alphabet: Alphabet) -> list[tuple[int, int, int, bool]]:
    """``(row, col, letter-or-code[, is_blank])`` -> ``(row, col, code, is_blank)``."""
    out = []
    for t in tiles:
        if len(t) not in (3, 4):
            raise IllegalMove(f"tile {t!r}: expected (row, col, letter, is_blank)")
        r, c, letter = int(t[0]), int(t[1]), t[2]
        if isinstance(letter, str):
            if not _is_letter(letter, alphabet):
                raise IllegalMove(f"tile {alphabet.not_a_letter(letter)}")
            code = alphabet.code(letter.upper())
            is_blank = bool(t[3]) if len(t) == 4 else letter.islower()
        else:
            code = int(letter)
            if not 1 <= code <= alphabet.size:
                raise IllegalMove(f"tile code {code} is not a letter of the {alphabet.set_label}")
            is_blank = bool(t[3]) if len(t) == 4 else False
        if not (0 <= r < N and 0 <= c < N):
            raise IllegalMove(f"square (row {r}, column {c}) is off the board (0-based rows and columns 0-{N - 1})")
        out.append((r, c, code, is_blank))
    return out


def _rack_counts(rack, alphabet: Alphabet) -> np.ndarray:
    if isinstance(rack, str):
        try:
            return alphabet.parse_rack(rack)
        except ValueError as exc:
            raise IllegalMove(str(exc)) from None
    arr = np.asarray(rack, dtype=np.int64)
    if arr.shape != (alphabet.size + 1,):
        raise ValueError(f"rack must be a counts array of shape ({alphabet.size + 1},) or a rack string")
    return arr.astype(np.int32)


def score_placement(board: Board, tiles, lexicon=None, rack=None,
                    alphabet: Alphabet | None = None) -> ScoredMove:
    """Check a placement against SPEC.md "A legal placement" and score it ("Scoring").

    Rules checked, in this order: tiles on the board, on empty squares, one per
    square; all in one row or column; gapless together with the board's tiles;
    first move: at least two tiles covering the centre star H8; later moves:
    touching a tile already on the board; tiles on the rack (when ``rack`` is
    given; a blank needs a ``?``); every word in the word list (when
    ``lexicon`` is given).

    The main word is the maximal run through the tiles along their line; for a
    single tile it is the across run when the tile has a left or right
    neighbour, else the down run. Cross-words are the maximal perpendicular runs
    of 2+ tiles through each new tile. Each word scores the face values of its
    tiles (blanks 0), letter premiums only under new tiles, times every word
    premium under new tiles (:meth:`Board.open_premiums`); placing
    ``alphabet.rack_size`` tiles adds ``alphabet.bingo_bonus`` once.

    Args:
        board: the position before the move (not modified).
        tiles: iterable of ``(row, col, letter, is_blank)`` (0-based squares;
            letter an uppercase string or a tile code). A 3-tuple
            ``(row, col, letter)`` takes a lowercase letter as a blank.
        lexicon: object supporting ``WORD in lexicon`` (e.g.
            :class:`lexicon_tools.bundle.Lexicon`); ``None`` skips the word check.
        rack: tile counts (int array of shape ``(n_letters + 1,)``, index 0 =
            blanks, as from :meth:`Alphabet.parse_rack`) or a rack string;
            ``None`` skips the rack check and leaves ``move.leave`` empty.
        alphabet: the tile set (default: the board's).

    Returns:
        a :class:`ScoredMove`.

    Raises:
        IllegalMove: the first rule broken, with the reason, e.g.
            ``"square H8 is already occupied (by S)"``,
            ``"the tiles are not in one row or column"``,
            ``"gap at K8: the new tiles and the board's tiles do not form one unbroken line"``,
            ``"the first move must cover the centre star H8"``,
            ``"the first move must place at least two tiles"``,
            ``"the move does not touch any tile on the board"``,
            ``"tile X is not on the rack (rack AEHINRS)"``,
            ``"HAUSX is not in the word list"``.
        ValueError: a rack array of the wrong shape.
    """
    alphabet = alphabet or board.alphabet
    placed = _normalise_tiles(tiles, alphabet)
    if not placed:
        raise IllegalMove("the move places no tile")

    seen: set[tuple[int, int]] = set()
    for r, c, _code, _b in placed:
        if (r, c) in seen:
            raise IllegalMove(f"two tiles on square {square_name(r, c)}")
        seen.add((r, c))
        if board.tiles[r, c]:
            raise IllegalMove(f"square {square_name(r, c)} is already occupied (by {board.letter_at(r, c)})")
    placed.sort()

    rows = {r for r, _c, _k, _b in placed}
    cols = {c for _r, c, _k, _b in placed}
    if len(rows) > 1 and len(cols) > 1:
        raise IllegalMove("the tiles are not in one row or column")

    # the combined grid after the move
    grid = board.tiles.copy()
    new = np.zeros((N, N), dtype=bool)
    blank = board.blanks.copy()
    for r, c, code, b in placed:
        grid[r, c] = code
        new[r, c] = True
        blank[r, c] = b

    def occupied(r: int, c: int) -> bool:
        return 0 <= r < N and 0 <= c < N and grid[r, c] != 0

    def run(r: int, c: int, d: int) -> list[tuple[int, int]]:
        dr, dc = (0, 1) if d == ACROSS else (1, 0)
        while occupied(r - dr, c - dc):
            r, c = r - dr, c - dc
        out = []
        while occupied(r, c):
            out.append((r, c))
            r, c = r + dr, c + dc
        return out

    # line direction and gaps
    if len(placed) > 1:
        direction = ACROSS if len(rows) == 1 else DOWN
        dr, dc = (0, 1) if direction == ACROSS else (1, 0)
        (r0, c0), (r1, c1) = placed[0][:2], placed[-1][:2]
        r, c = r0, c0
        while (r, c) != (r1, c1):
            if not grid[r, c]:
                raise IllegalMove(
                    f"gap at {square_name(r, c)}: the new tiles and the board's tiles "
                    f"do not form one unbroken line")
            r, c = r + dr, c + dc
    else:
        r, c = placed[0][:2]
        direction = ACROSS if (occupied(r, c - 1) or occupied(r, c + 1)) else DOWN

    # first move / connection
    if board.is_empty:
        if len(placed) < 2:
            raise IllegalMove("the first move must place at least two tiles")
        if not new[CENTER]:
            raise IllegalMove(f"the first move must cover the centre star {square_name(*CENTER)}")
    else:
        touches = any(
            0 <= r + dr < N and 0 <= c + dc < N and board.tiles[r + dr, c + dc]
            for r, c, _k, _b in placed
            for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))
        )
        if not touches:
            raise IllegalMove("the move does not touch any tile on the board")

    # rack
    leave = ""
    if rack is not None:
        have = _rack_counts(rack, alphabet)
        need = np.zeros(alphabet.size + 1, dtype=np.int32)
        for _r, _c, code, b in placed:
            need[BLANK if b else code] += 1
        rack_str = alphabet.rack_string(have)
        for _r, _c, code, b in placed:
            k = BLANK if b else code
            if need[k] > have[k]:
                name = "? (blank)" if k == BLANK else alphabet.letter(k)
                if have[k] == 0:
                    hint = (f"; to play the blank as {name}, write it lowercase"
                            if k != BLANK and have[BLANK] > need[BLANK] else "")
                    raise IllegalMove(f"tile {name} is not on the rack (rack {rack_str or 'empty'}){hint}")
                raise IllegalMove(
                    f"tile {name} is not on the rack {int(need[k])} times "
                    f"(rack {rack_str} holds {int(have[k])})")
        leave = alphabet.rack_string(have - need)

    # words
    lm, wm = board.open_premiums()
    face = board.tile_values()
    values = alphabet.values

    def word_of(squares: list[tuple[int, int]]) -> tuple[str, int]:
        total = 0
        mult = 1
        for r, c in squares:
            if new[r, c]:
                v = 0 if blank[r, c] else int(values[grid[r, c]])
                total += v * int(lm[r, c])
                mult *= int(wm[r, c])
            else:
                total += int(face[r, c])
        return "".join(alphabet.letters[int(grid[r, c]) - 1] for r, c in squares), total * mult

    r, c = placed[0][:2]
    main = run(r, c, direction)
    if len(main) < 2:  # a single tile with no neighbour along either line (board not empty)
        raise IllegalMove("the move does not touch any tile on the board")
    words = [word_of(main)]
    cross_dir = DOWN if direction == ACROSS else ACROSS
    for r, c, _k, _b in placed:
        cross = run(r, c, cross_dir)
        if len(cross) >= 2:
            words.append(word_of(cross))

    if lexicon is not None:
        bad = [w for w, _s in words if w not in lexicon]
        if bad:
            reason = f"{bad[0]} is not in the word list"
            if len(bad) > 1:
                reason += f" (nor {', '.join(dict.fromkeys(bad[1:]))})"
            raise IllegalMove(reason)

    bingo = len(placed) == alphabet.rack_size
    score = sum(s for _w, s in words) + (alphabet.bingo_bonus if bingo else 0)
    mr, mc = main[0]
    word_letters = []
    for r, c in main:
        ch = alphabet.letters[int(grid[r, c]) - 1]
        word_letters.append(ch.lower() if blank[r, c] else ch)
    move = Move(mr, mc, direction, "".join(word_letters), tuple(not new[r, c] for r, c in main), score, leave)
    out_tiles = [(r, c, alphabet.letters[code - 1], b) for r, c, code, b in placed]
    return ScoredMove(move=move, tiles=out_tiles, words=words, bingo=bingo, score=score)


def check_move(board: Board, text: str, lexicon=None, rack=None) -> ScoredMove:
    """Read, check and score a move written in notation: :func:`parse_move` + :func:`score_placement`.

    A one-tile play is accepted in either direction's notation (``8D Ö(L)`` or
    ``D8 Ö``); the returned ``move`` is always written the golden-list way
    (across when the tile forms an across word, else down). A notation that
    leaves out board tiles adjoining the written word is scored on the whole
    word the placement really forms.

    Args:
        board: the position before the move (not modified).
        text: the move, e.g. ``"8H HA(U)S"``, ``"H8 HAuS"``.
        lexicon: object supporting ``WORD in lexicon``; ``None`` skips the word check.
        rack: tile counts (index 0 = blanks) or a rack string; ``None`` skips the rack check.

    Returns:
        a :class:`ScoredMove` (SPEC.md "A legal placement", "Scoring").

    Raises:
        IllegalMove: unreadable notation or a broken rule, with the reason
            (see :func:`parse_move` and :func:`score_placement`).
    """
    placement = parse_move(board, text)
    return score_placement(board, placement.tiles, lexicon=lexicon, rack=rack)


def describe(scored: ScoredMove) -> str:
    """One line for people: ``8H HA(U)S 14 = HAUS 14`` (each word with its points, then the bingo bonus)."""
    parts = " + ".join(f"{w} {s}" for w, s in scored.words)
    if scored.bingo:
        parts += f" + bingo {scored.score - sum(s for _w, s in scored.words)}"
    return f"{scored.move.notation} {scored.score} = {parts}"

