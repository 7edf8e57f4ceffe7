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
import warnings
from dataclasses import dataclass, field

import numpy as np

from lexicon_tools.alphabet import Alphabet, german

from engine.position.board import N, Board


class CGPError(ValueError):
    """A malformed CGP string; the message says which field is wrong."""


@dataclass
class Position:
    """A position: the board, the rack to move, scores, scoreless turns, opcodes.

    Attributes:
        board: the :class:`~engine.position.board.Board`.
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

    def game_over(self) -> str | None:
        """Why the game of this position has already ended, or None if a move is still to be made.

        With the bag empty the game is over when a rack is empty (that player went
        out) or after four scoreless turns in a row, every player having passed
        twice (SPEC "End of game"); an unknown opponent rack is then the unseen
        tiles. With tiles in the bag it is over only by passes (:meth:`passed_out`).
        """
        if (self.bag_count or 0) > 0:
            return self.passed_out()
        if not self.rack.any():
            return "the player to move has no tiles left: the game is over"
        opp = self.opponent_rack if self.opponent_rack is not None else self.unseen()
        if int(opp.sum()) <= 0:
            return "the opponent has played out their last tile: the game is over"
        if self.zero_turns >= 2 * 2:
            return f"{self.zero_turns} scoreless turns in a row with the bag empty: the game is over"
        return None

    def passed_out(self) -> str | None:
        """Why the game ended by passes, or None: four scoreless turns in a row when no exchange
        was possible (fewer than 7 tiles in the bag, so every scoreless turn was a pass; SPEC "End of game")."""
        bag = self.bag_count or 0
        if bag < self.alphabet.rack_size and self.zero_turns >= 2 * 2:
            return f"{self.zero_turns} passes in a row (the bag holds {bag}, too few to exchange): the game is over"
        return None

    def unseen(self) -> np.ndarray:
        """int32 (n_letters + 1,) counts of tiles not on the board or the rack to move."""
        a = self.alphabet
        on_board = np.bincount(np.where(self.board.blanks, 0, self.board.tiles)[self.board.tiles != 0],
                               minlength=a.size + 1)
        return (a.counts - on_board - self.rack).astype(np.int32)

    def to_cgp(self) -> str:
        """Format as a CGP string (inverse of :func:`parse_cgp`)."""
        return format_cgp(self)


MAX_CGP_CHARS = 4096
"""Longest CGP accepted (a full position with every opcode is under 400 characters)."""

KNOWN_OPCODES = frozenset({"bag", "bb", "bdn", "cs", "gid", "hr", "ld", "lex", "mcnt", "mn", "pi", "pn", "tmr",
                           "var"})
"""Opcodes used by CGP writers (Macondo, MAGPIE, wolges) and this project. Only ``bag`` and ``lex``
are read here; every well-formed opcode is kept as text in :attr:`Position.opcodes`, and the
commands note one not in this set (:func:`position_notes`)."""

KNOWN_LEXICONS = frozenset({"NGERMAN", "DEFAULT", "GERMAN", "NSF", "DEUTSCH"})
"""``lex`` opcode values that name a German list (also ``default-<checksum>``, the name engine games
write for the default lexicon); see :func:`lexicon_note` for any other name."""


def _known_lexicon(name: str) -> bool:
    up = name.upper()
    return up in KNOWN_LEXICONS or re.fullmatch(r"DEFAULT-[0-9A-F]{12}", up) is not None


class CGPWarning(UserWarning):
    """A CGP field that was read but may not mean what the writer intended (e.g. an unknown lexicon name)."""


def position_notes(pos: "Position", lexicon=None) -> list[str]:
    """Warnings about opcodes that were read but are not used as their writer may expect.

    * an opcode name not in :data:`KNOWN_OPCODES` (kept, not used);
    * a ``lex`` opcode naming a list that is neither a known German list
      (:data:`KNOWN_LEXICONS`) nor the lexicon in use (its bundle name, as engine
      games write it): the position is always checked against the lexicon in use.

    Returns:
        the messages (empty: nothing to say).
    """
    notes = [f"CGP opcode {name!r} is not one this program knows ({', '.join(sorted(KNOWN_OPCODES))}); "
             f"it is kept but not used" for name in pos.opcodes if name not in KNOWN_OPCODES]
    name = pos.opcodes.get("lex")
    if not name or _known_lexicon(name):
        return notes
    path = getattr(lexicon, "path", None)
    if path is not None:
        from lexicon_tools.bundle import lexicon_stem

        if lexicon_stem(path) == name:
            return notes
    notes.append(f"CGP opcode lex {name!r}: not a known German word list ({', '.join(sorted(KNOWN_LEXICONS))}); "
                 f"the position is checked against the lexicon given to the engine")
    return notes


def warn_notes(pos: "Position", lexicon=None) -> None:
    """Issue :func:`position_notes` as :class:`CGPWarning` s (the CLIs print each as one ``warning:`` line)."""
    for note in position_notes(pos, lexicon):
        warnings.warn(CGPWarning(note), stacklevel=2)


def _digits(text: str) -> bool:
    """True for ASCII digits only (``str.isdigit`` also accepts ``²`` and ``٣``, which ``int`` refuses)."""
    return bool(re.fullmatch(r"[0-9]+", text))


def _parse_rack(text: str, alphabet: Alphabet, what: str) -> np.ndarray:
    low = next((ch for ch in text if ch != "?" and ch != ch.upper() and len(ch.upper()) == 1), None)
    if low is not None:
        raise CGPError(f"{what} {text!r}: lowercase {low!r}: a CGP rack is written in capitals "
                       f"(a blank is '?'; lowercase marks a blank only on the board)")
    try:
        return alphabet.parse_rack(text)
    except ValueError as exc:  # the message starts "rack '...'"
        raise CGPError(str(exc) if what == "rack" else f"{what}: {exc}") from None


def check_tile_counts(pos: "Position", hint: bool = True) -> None:
    """Refuse a position that shows more of a tile than the set holds.

    Counts every tile on the board (a blank on the board counts as a blank, not
    as its letter), on the rack to move and on the opponent's rack when known.
    This is the one rule every entry point applies (``parse_cgp`` unless
    ``allow_impossible``, :func:`engine.analysis.simulation.simulate`, the web API).

    Args:
        pos: the position.
        hint: end the message with how to accept a composed puzzle
            (``--allow-impossible``); off where that cannot work (simulation).

    Raises:
        CGPError: naming the tile and the counts, e.g. ``impossible position:
            2 × X (2 on the board, 0 on the rack), the German tile set has 1``.
    """
    a = pos.alphabet
    tiles = pos.board.tiles
    on_board = np.bincount(np.where(pos.board.blanks, 0, tiles)[tiles != 0], minlength=a.size + 1)
    seen = on_board + pos.rack
    if pos.opponent_rack is not None:
        seen = seen + pos.opponent_rack
    over = np.nonzero(seen > a.counts)[0]
    if len(over):
        c = int(over[0])
        name = "blank" if c == 0 else a.letter(c)
        parts = [f"{int(on_board[c])} on the board", f"{int(pos.rack[c])} on the rack"]
        if pos.opponent_rack is not None:
            parts.append(f"{int(pos.opponent_rack[c])} on the opponent's rack")
        raise CGPError(
            f"impossible position: {int(seen[c])} × {name} ({', '.join(parts)}), the {a.set_label} "
            f"has {int(a.counts[c])}: more {name} tiles on the board and racks than the set holds"
            + (" (for a composed puzzle: --allow-impossible on the command line)" if hint else ""))


def parse_cgp(cgp: str, alphabet: Alphabet | None = None, strict: bool | None = None, *,
              allow_impossible: bool = False, impossible_hint: bool = True) -> Position:
    """Parse a CGP string.

    Args:
        cgp: the CGP text (at most :data:`MAX_CGP_CHARS` characters).
        alphabet: tile set (default German).
        strict: old spelling: ``strict=False`` is ``allow_impossible=True``.
        allow_impossible: accept a composed position with more of a tile on the
            board and racks than the set holds (the golden ``p_ref3`` has four L).
        impossible_hint: the refusal of an impossible position names ``--allow-impossible``; off
            for a command that does not have that option (``endgame``, ``preendgame``, ``infer``).

    Raises:
        CGPError: missing fields, a row that is not 15 squares, a letter outside
            the alphabet, a rack of more than 7 tiles, in lowercase or with more
            of a tile than the set holds, non-numeric scores or counts (also
            superscript digits such as ``²``), text after the fields that is not
            ``name value;`` opcodes (name: lowercase letters), an opcode given twice, a CGP longer than
            :data:`MAX_CGP_CHARS`; unless ``allow_impossible``, more of a tile on
            the board and racks together than the set holds
            (:func:`check_tile_counts`). The message names the row, letter or field.

    Any well-formed opcode is kept; the commands warn about an unknown opcode name or
    a ``lex`` naming an unknown list (:func:`warn_notes`), since the moves always
    come from the lexicon given.
    """
    if strict is not None:
        allow_impossible = not strict
    alphabet = alphabet or german()
    if len(cgp) > MAX_CGP_CHARS:
        raise CGPError(f"CGP of {len(cgp):,} characters: a position is at most {MAX_CGP_CHARS:,} "
                       f"(starts {cgp[:40]!r})")
    text = unicodedata.normalize("NFC", cgp).strip()  # decomposed Ü (macOS input) -> Ü
    if not text:
        raise CGPError("empty CGP")
    parts = text.split(None, 4)
    if len(parts) < 2:
        raise CGPError("CGP needs at least the board and the rack")
    board_s = parts[0]
    rows = board_s.split("/")
    if len(rows) != N:
        raise CGPError(f"board has {len(rows)} row{'' if len(rows) == 1 else 's'}, expected {N}")
    board = Board(alphabet)
    for r, row in enumerate(rows):
        c = 0
        for m in re.finditer(r"([0-9]+)|([^0-9])", row):
            if m.group(1):
                c += int(m.group(1))
                continue
            ch = m.group(2)
            if ch.isdigit() or ch.isnumeric():
                raise CGPError(f"board row {r + 1}: {ch!r} is not a digit 0-9 (empty squares are "
                               f"counted with 0-9)")
            up = ch.upper()
            if len(up) != 1 or not alphabet.is_word_chars(up):
                raise CGPError(f"board row {r + 1}: {alphabet.not_a_letter(ch)}")
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
    if "/" in opp:
        raise CGPError(f"rack field {rack_field!r}: expected RACK/OPPONENT-RACK (one '/')")
    rack = _parse_rack(mine, alphabet, "rack")
    opp_rack = _parse_rack(opp, alphabet, "opponent rack") if opp else None
    scores = (0, 0)
    zero = 0
    opcodes: dict[str, str] = {}
    if len(parts) >= 3:
        sc = parts[2].split("/")
        if len(sc) != 2 or not all(re.fullmatch(r"-?[0-9]+", s) for s in sc):
            raise CGPError(f"scores field {parts[2]!r}: expected two numbers like 120/95")
        scores = (int(sc[0]), int(sc[1]))
    if len(parts) >= 4:
        if not _digits(parts[3]):
            raise CGPError(f"scoreless-turn field {parts[3]!r}: expected a number (digits 0-9)")
        zero = int(parts[3])
    if len(parts) >= 5:
        rest = parts[4].strip()
        if not rest.endswith(";"):
            last = rest.rsplit(";", 1)[-1].strip()
            raise CGPError(f"text after the scoreless-turn field: {last[:40]!r} is not an opcode "
                           f"(opcodes are 'name value;', ending with ';')")
        for op in rest.split(";"):
            op = op.strip()
            if not op:
                continue
            name, _, value = op.partition(" ")
            if not re.fullmatch(r"[a-z][a-z0-9_.]*", name):
                raise CGPError(f"opcode {op[:40]!r}: {name[:20]!r} is not an opcode name (lowercase letters)")
            if name in opcodes:
                raise CGPError(f"opcode {name!r} given twice")
            opcodes[name] = value.strip()
        if "bag" in opcodes and not _digits(opcodes["bag"]):
            raise CGPError(f"opcode bag {opcodes['bag']!r}: expected a number of tiles (digits 0-9)")
    pos = Position(board, rack, opp_rack, scores, zero, opcodes)
    if not allow_impossible:
        check_tile_counts(pos, hint=impossible_hint)
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
    return pos


def add_allow_impossible(parser) -> None:
    """Add ``--allow-impossible`` to an argparse parser: the one switch, on every command that reads a
    position, that lets a composed position hold more of a tile than the set has (see
    :func:`check_tile_counts`; refused with exit 2 otherwise)."""
    parser.add_argument("--allow-impossible", action="store_true",
                        help="accept a composed position with more of a tile on the board and racks than "
                             "the set holds (refused by default)")


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
