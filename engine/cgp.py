"""Positions in CGP notation (read and write).

CGP, as used by Macondo, wolges and the golden lists::

    <15 board rows separated by '/'> <rack>/<opponent rack> <score1>/<score2> <zero turns> [opcodes]

Board rows use digit runs for empty squares, uppercase letters for tiles and
lowercase for blanks (``ä ö ü`` included). Racks use ``?`` for a blank; the
opponent's rack may be empty (unknown). Opcodes are ``name value;`` pairs such
as ``lex NGERMAN; bag 88;``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

import numpy as np

from lexicon_tools.alphabet import Alphabet, german

from .board import N, Board


class CGPError(ValueError):
    """A malformed CGP string; the message says which field is wrong."""


@dataclass
class Position:
    """A position: the board, the rack to move, scores, scoreless turns, opcodes.

    Attributes:
        board: the :class:`~engine.board.Board`.
        rack: int32 (n_letters + 1,) counts of the rack to move (index 0 = blanks).
        opponent_rack: same for the opponent, or ``None`` when unknown.
        scores: points of the player to move and of the opponent.
        zero_turns: consecutive scoreless turns so far.
        opcodes: CGP opcodes in order, e.g. ``{"lex": "NGERMAN", "bag": "88"}``.
    """

    board: Board
    rack: np.ndarray
    opponent_rack: np.ndarray | None = None
    scores: tuple[int, int] = (0, 0)
    zero_turns: int = 0
    opcodes: dict[str, str] = field(default_factory=dict)

    @property
    def alphabet(self) -> Alphabet:
        return self.board.alphabet

    @property
    def rack_string(self) -> str:
        """The rack as letters in code order, blanks as ``?``."""
        return self.alphabet.rack_string(self.rack)

    @property
    def bag_count(self) -> int | None:
        """Tiles left in the bag from the ``bag`` opcode, else computed from what is seen
        (full set minus board, rack and known opponent rack, minus 7 for an unknown opponent rack)."""
        if "bag" in self.opcodes:
            return int(self.opcodes["bag"])
        unseen = self.alphabet.total_tiles - self.board.tile_count - int(self.rack.sum())
        if self.opponent_rack is not None:
            return max(0, unseen - int(self.opponent_rack.sum()))
        return max(0, unseen - self.alphabet.rack_size)

    def unseen(self) -> np.ndarray:
        """int32 (n_letters + 1,) counts of tiles not on the board or the rack to move."""
        a = self.alphabet
        on_board = np.bincount(np.where(self.board.blanks, 0, self.board.tiles)[self.board.tiles != 0],
                               minlength=a.size + 1)
        return (a.counts - on_board - self.rack).astype(np.int32)

    def to_cgp(self) -> str:
        """Format as a CGP string (inverse of :func:`parse_cgp`)."""
        return format_cgp(self)


def _parse_rack(text: str, alphabet: Alphabet, what: str) -> np.ndarray:
    try:
        return alphabet.parse_rack(text)
    except ValueError as exc:  # the message starts "rack '...'"
        raise CGPError(str(exc) if what == "rack" else f"{what}: {exc}") from None


def parse_cgp(cgp: str, alphabet: Alphabet | None = None, strict: bool = False) -> Position:
    """Parse a CGP string.

    Raises:
        CGPError: missing fields, a row that is not 15 squares, a letter outside
            the alphabet, a rack of more than 7 tiles or with more of a tile
            than the set holds, non-numeric scores (the message names the row,
            letter or field); with ``strict``, also more of a tile on the board
            and racks together than the set holds (hand-made study positions,
            such as the golden ``p_ref3``, may do that, so it is off by default).
    """
    alphabet = alphabet or german()
    text = unicodedata.normalize("NFC", cgp).strip()  # decomposed Ü (macOS input) -> Ü
    if not text:
        raise CGPError("empty CGP")
    parts = text.split(None, 4)
    if len(parts) < 2:
        raise CGPError("CGP needs at least the board and the rack")
    board_s = parts[0]
    rows = board_s.split("/")
    if len(rows) != N:
        raise CGPError(f"board has {len(rows)} rows, expected {N}")
    board = Board(alphabet)
    for r, row in enumerate(rows):
        c = 0
        for m in re.finditer(r"(\d+)|(\D)", row):
            if m.group(1):
                c += int(m.group(1))
                continue
            ch = m.group(2)
            up = ch.upper()
            if len(up) != 1 or not alphabet.is_word_chars(up):
                raise CGPError(f"board row {r + 1}: {ch!r} is not a letter of the {alphabet.name.capitalize()} set")
            if c >= N:
                raise CGPError(f"board row {r + 1}: more than {N} squares")
            board.tiles[r, c] = alphabet.code(up)
            board.blanks[r, c] = ch != up
            c += 1
        if c != N:
            raise CGPError(f"board row {r + 1} ({row!r}): {c} squares, expected {N}")
    rack_field = parts[1]
    if "/" in rack_field:
        mine, opp = rack_field.split("/", 1)
    else:
        mine, opp = rack_field, ""
    rack = _parse_rack(mine, alphabet, "rack")
    opp_rack = _parse_rack(opp, alphabet, "opponent rack") if opp else None
    scores = (0, 0)
    zero = 0
    opcodes: dict[str, str] = {}
    if len(parts) >= 3:
        sc = parts[2].split("/")
        if len(sc) != 2 or not all(re.fullmatch(r"-?\d+", s) for s in sc):
            raise CGPError(f"scores field {parts[2]!r}: expected two numbers like 120/95")
        scores = (int(sc[0]), int(sc[1]))
    if len(parts) >= 4:
        if not parts[3].isdigit():
            raise CGPError(f"scoreless-turn field {parts[3]!r}: expected a number")
        zero = int(parts[3])
    if len(parts) >= 5:
        for op in parts[4].split(";"):
            op = op.strip()
            if not op:
                continue
            name, _, value = op.partition(" ")
            opcodes[name] = value.strip()
        if "bag" in opcodes and not opcodes["bag"].isdigit():
            raise CGPError(f"opcode bag {opcodes['bag']!r}: expected a number of tiles")
    pos = Position(board, rack, opp_rack, scores, zero, opcodes)
    unseen = pos.unseen()
    if opp_rack is not None:
        unseen = unseen - opp_rack
    if "bag" in opcodes:
        free = int(unseen.sum())
        bag = int(opcodes["bag"])
        if bag > free:
            raise CGPError(f"opcode bag {bag}: only {free} tiles are not on the board or the racks")
        if free - bag > 3 * alphabet.rack_size:
            raise CGPError(f"opcode bag {bag}: that leaves {free - bag} tiles unaccounted for, but the other "
                           f"racks hold at most {3 * alphabet.rack_size}")
    if strict and (unseen < 0).any():
        c = int(np.nonzero(unseen < 0)[0][0])
        raise CGPError(
            f"more {alphabet.letter(c) if c else 'blank'} tiles on the board and racks than the "
            f"{alphabet.name.capitalize()} set holds ({alphabet.counts[c]})"
        )
    return pos


def format_cgp(pos: Position) -> str:
    """Format a :class:`Position` as CGP."""
    rows = []
    for line in pos.board.rows_text():
        out = []
        run = 0
        for ch in line:
            if ch == ".":
                run += 1
                continue
            if run:
                out.append(str(run))
                run = 0
            out.append(ch)
        if run:
            out.append(str(run))
        rows.append("".join(out))
    a = pos.alphabet
    opp = a.rack_string(pos.opponent_rack) if pos.opponent_rack is not None else ""
    s = f"{'/'.join(rows)} {a.rack_string(pos.rack)}/{opp} {pos.scores[0]}/{pos.scores[1]} {pos.zero_turns}"
    if pos.opcodes:
        s += " " + " ".join(f"{k} {v};" for k, v in pos.opcodes.items())
    return s
