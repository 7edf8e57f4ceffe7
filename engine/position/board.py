"""The board: tiles, blanks and premium squares as numpy arrays; square notation.

Coordinates are 0-based ``(row, col)`` internally; in notation rows are 1–15
(top to bottom) and columns A–O (left to right). A move's start square is
written row first for across moves (``8H``) and column first for down moves
(``H8``), as in SPEC.md and the golden move lists.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from lexicon_tools.alphabet import Alphabet, german

N = 15
COLUMNS = "ABCDEFGHIJKLMNO"
ACROSS, DOWN = 0, 1
CENTER = (7, 7)
_DATA = Path(__file__).parents[1] / "data"
"""``engine/data``: the packaged layouts (``importlib.resources.files("engine")`` for the installed package,
without importing ``importlib.resources`` at every start)."""


@dataclass(frozen=True)
class Layout:
    """Premium squares of a board layout (a data file in ``engine/data``).

    Attributes:
        name: layout name (``"standard"``).
        letter_mult: uint8 (15, 15), 1, 2 (``d``) or 3 (``t``).
        word_mult: uint8 (15, 15), 1, 2 (``2``) or 3 (``3``); the centre star is 2.
    """

    name: str
    letter_mult: np.ndarray
    word_mult: np.ndarray

    @classmethod
    def load(cls, name_or_path: str | Path = "standard") -> "Layout":
        """Load a layout: 15 lines of 15 characters from ``. d t 2 3``; ``#`` comments.

        Raises:
            ValueError: missing file, wrong size or unknown character (names the line).
        """
        path = Path(name_or_path)
        try:
            if path.exists():
                text = path.read_text(encoding="utf-8")
            else:
                text = (_DATA / f"{name_or_path}.txt").read_text(encoding="utf-8")
        except OSError as exc:
            raise ValueError(f"board layout {name_or_path!r}: cannot read ({exc})") from None
        rows = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
        if len(rows) != N:
            raise ValueError(f"board layout {name_or_path!r}: {len(rows)} rows, expected {N}")
        lm = np.ones((N, N), dtype=np.uint8)
        wm = np.ones((N, N), dtype=np.uint8)
        codes = {".": (1, 1), "d": (2, 1), "t": (3, 1), "2": (1, 2), "3": (1, 3)}
        for r, line in enumerate(rows):
            if len(line) != N:
                raise ValueError(f"board layout {name_or_path!r}: row {r + 1} has {len(line)} squares, expected {N}")
            for c, ch in enumerate(line):
                if ch not in codes:
                    raise ValueError(f"board layout {name_or_path!r}: row {r + 1}: unknown square {ch!r}")
                lm[r, c], wm[r, c] = codes[ch]
        lm.setflags(write=False)
        wm.setflags(write=False)
        return cls(str(Path(str(name_or_path)).stem), lm, wm)


_LAYOUTS: dict[str, Layout] = {}


def standard_layout() -> Layout:
    """The standard 15×15 layout (SPEC.md "Board"), cached."""
    if "standard" not in _LAYOUTS:
        _LAYOUTS["standard"] = Layout.load("standard")
    return _LAYOUTS["standard"]


def square_name(row: int, col: int) -> str:
    """Golden-list square name: column letter then row number (``H8`` for (7, 7))."""
    return f"{COLUMNS[col]}{row + 1}"


def format_start(row: int, col: int, direction: int) -> str:
    """Start square in move notation: ``8H`` across, ``H8`` down."""
    return f"{row + 1}{COLUMNS[col]}" if direction == ACROSS else f"{COLUMNS[col]}{row + 1}"


def parse_start(text: str) -> tuple[int, int, int]:
    """Parse a start square: ``8H`` (across) or ``H8`` (down).

    Returns:
        ``(row, col, direction)``, 0-based.

    Raises:
        ValueError: not a square on the 15×15 board (the message names it).
    """
    t = text.strip().upper()
    if not t:
        raise ValueError("empty square")
    if t[0].isdigit():
        digits = t.rstrip(COLUMNS)
        letters = t[len(digits):]
        direction = ACROSS
    else:
        letters = t[0]
        digits = t[1:]
        direction = DOWN
    if len(letters) != 1 or letters not in COLUMNS or not digits.isdigit() or not 1 <= int(digits) <= N:
        raise ValueError(f"square {text!r} is not on the board (rows 1-15, columns A-O; 8H across, H8 down)")
    return int(digits) - 1, COLUMNS.index(letters), direction


class Board:
    """A 15×15 board.

    Attributes:
        tiles: uint8 (15, 15) tile codes (1..29 in the alphabet's order), 0 = empty.
        blanks: bool (15, 15), True where the tile is a blank (its letter in ``tiles``).
        layout: the premium squares.
        alphabet: the tile set.
    """

    def __init__(self, alphabet: Alphabet | None = None, layout: Layout | None = None):
        self.alphabet = alphabet or german()
        self.layout = layout or standard_layout()
        self.tiles = np.zeros((N, N), dtype=np.uint8)
        self.blanks = np.zeros((N, N), dtype=bool)

    def copy(self) -> "Board":
        """An independent copy."""
        b = Board(self.alphabet, self.layout)
        b.tiles[:] = self.tiles
        b.blanks[:] = self.blanks
        return b

    def __eq__(self, other) -> bool:
        return (isinstance(other, Board) and np.array_equal(self.tiles, other.tiles)
                and np.array_equal(self.blanks, other.blanks))

    @property
    def is_empty(self) -> bool:
        """True when no tile is on the board."""
        return not self.tiles.any()

    @property
    def tile_count(self) -> int:
        """Number of tiles on the board."""
        return int(np.count_nonzero(self.tiles))

    def tile_values(self) -> np.ndarray:
        """int32 (15, 15): points of the tile on each square (0 for blanks and empty squares)."""
        v = self.alphabet.values[self.tiles].astype(np.int32)
        v[self.blanks | (self.tiles == 0)] = 0
        return v

    def open_premiums(self) -> tuple[np.ndarray, np.ndarray]:
        """Letter and word multipliers of uncovered squares (1 under tiles): int32 (15, 15) each.

        Premiums count only in the move that first covers them (SPEC.md "Scoring").
        """
        covered = self.tiles != 0
        lm = self.layout.letter_mult.astype(np.int32)
        wm = self.layout.word_mult.astype(np.int32)
        lm[covered] = 1
        wm[covered] = 1
        return lm, wm

    def letter_at(self, row: int, col: int) -> str:
        """Letter on a square as written in notation (lowercase for a blank), '' if empty."""
        t = int(self.tiles[row, col])
        if t == 0:
            return ""
        ch = self.alphabet.letters[t - 1]
        return ch.lower() if self.blanks[row, col] else ch

    def place(self, placements) -> None:
        """Put tiles on the board: iterable of ``(row, col, code, is_blank)``.

        Raises:
            ValueError: a square is off the board or already occupied.
        """
        for row, col, code, is_blank in placements:
            if not (0 <= row < N and 0 <= col < N):
                raise ValueError(f"square ({row}, {col}) is off the board")
            if self.tiles[row, col]:
                raise ValueError(f"square {square_name(row, col)} is already occupied")
            self.tiles[row, col] = code
            self.blanks[row, col] = bool(is_blank)

    def remove(self, placements) -> None:
        """Take tiles off the board again (inverse of :meth:`place`)."""
        for row, col, _code, _b in placements:
            self.tiles[row, col] = 0
            self.blanks[row, col] = False

    # -- text ---------------------------------------------------------------
    def rows_text(self) -> list[str]:
        """15 strings of 15 characters: letters (lowercase blanks) and '.' for empty squares."""
        return ["".join(self.letter_at(r, c) or "." for c in range(N)) for r in range(N)]

    def to_text(self, coordinates: bool = True) -> str:
        """Plain board text: 15 lines, '.' for empty squares; with a header of columns."""
        lines = self.rows_text()
        if not coordinates:
            return "\n".join(lines) + "\n"
        out = ["   " + COLUMNS]
        out += [f"{r + 1:2d} {line}" for r, line in enumerate(lines)]
        return "\n".join(out) + "\n"

    @classmethod
    def from_text(cls, text: str, alphabet: Alphabet | None = None, layout: Layout | None = None) -> "Board":
        """Parse the plain 15-line board text ('.' or space-free empty squares, lowercase = blank).

        A column header line and row numbers as printed by :meth:`to_text` are accepted.

        Raises:
            ValueError: wrong number of rows or squares, or an unknown letter (names the line).
        """
        b = cls(alphabet, layout)
        lines = [ln.rstrip() for ln in text.splitlines() if ln.strip()]
        if lines and lines[0].strip() == COLUMNS:
            lines = lines[1:]
        if len(lines) != N:
            raise ValueError(f"board text has {len(lines)} rows, expected {N}")
        for r, line in enumerate(lines):
            body = line.strip()
            if body[:2].strip().isdigit() and len(body) > N:
                body = body.lstrip("0123456789").lstrip()
            if len(body) != N:
                raise ValueError(f"board text row {r + 1}: {len(body)} squares, expected {N}")
            for c, ch in enumerate(body):
                if ch == ".":
                    continue
                up = ch.upper()
                if len(up) != 1 or not b.alphabet.is_word_chars(up):
                    raise ValueError(f"board text row {r + 1}: {b.alphabet.not_a_letter(ch)}")
                b.tiles[r, c] = b.alphabet.code(up)
                b.blanks[r, c] = ch != up
        return b

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return f"<Board {self.tile_count} tiles>"
