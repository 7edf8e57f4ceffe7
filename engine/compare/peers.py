"""Peers of the cross-generator checker: other move generators and how to read them.

A *peer* is any program that lists the legal placements of a position. The
checker (:mod:`engine.compare.checker`) runs it once per position, or reads outputs it
wrote earlier, and turns what it printed into :class:`PeerMove` objects: the
set of tiles the move places (``(row, col, LETTER, is_blank)``, 0-based) and
the score the peer gave it. Moves are compared as the golden lists compare
them: by the placed tiles (the ``PLACEMENTS`` key, ``H8:A,I8:b``) and score.

Output formats (adapters; exact shapes in docs/compare.md):

* ``quackle`` — text, one move a line: ``8H WO.D 24`` (``.`` = a tile already
  on the board; parentheses also accepted);
* ``wolges`` — text, ``8H WO(R)D 24`` (an equity before the move is skipped);
* ``magpie`` — MAGPIE's move strings, ``8H WO(R)D 24`` (``(exch ABC)``, ``pass``
  skipped): the same reader as ``wolges``;
* ``wolges-json`` — wolges' JSON plays ``{"action": "play", "down", "lane",
  "idx", "word": [tile numbers], "score"}``;
* ``scrabble-solver`` — scrabble-solver's JSON results (``cells`` with
  ``x``/``y``/``tile``, ``points``) or flat objects with ``x``, ``y``,
  ``direction``, ``tiles``, ``blanks`` (indices), ``points``;
* ``engine-json`` — this project's ``python -m engine moves --json``;
* ``tsv`` — the golden move-list format ``NOTATION<TAB>SCORE<TAB>PLACEMENTS``;
* ``auto`` — guess one of the above from the text.

A peer may report its own time for the position: a text line
``# time_ms: 1.23`` or a top-level JSON field ``"time_ms"``.

Everything that cannot be read raises :class:`PeerOutputError`, naming the
line (text) or the item (JSON) and what was expected.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from statistics import median

from lexicon_tools.alphabet import Alphabet

from engine.position.board import ACROSS, COLUMNS, DOWN, N, Board, format_start, square_name
from engine.position.scorer import IllegalMove, expand_dots, parse_move

__all__ = [
    "FORMATS",
    "CommandPeer",
    "DirectoryPeer",
    "PeerMove",
    "PeerOutput",
    "PeerOutputError",
    "PeerRun",
    "WOLGES_GERMAN",
    "notation_tiles",
    "parse_output",
    "parse_placements",
    "placements_string",
]

Tile = tuple  # (row, col, LETTER, is_blank)

WOLGES_GERMAN = "AÄBCDEFGHIJKLMNOÖPQRSTUÜVWXYZ"
"""wolges' German tile numbering: tile ``k`` (1-based) is ``WOLGES_GERMAN[k - 1]``
(``src/alphabets/german.txt`` of wolges: umlauts after their base letter), 0 = blank."""


class PeerOutputError(ValueError):
    """A peer's output that cannot be read.

    Attributes:
        reason: what is wrong.
        line: 1-based line number (text formats) or 1-based item number (JSON), or ``None``.
        text: the offending line or item, shortened.
    """

    def __init__(self, reason: str, line: int | None = None, text: str | None = None, where: str = "line"):
        self.reason = reason
        self.line = line
        self.text = text
        self.where = where
        msg = reason
        if line is not None:
            shown = text if text is None or len(text) <= 120 else text[:117] + "..."
            msg = f"{where} {line}: {reason}" + (f": {shown!r}" if shown is not None else "")
        super().__init__(msg)


@dataclass(frozen=True)
class PeerMove:
    """One placement as a peer reported it.

    Attributes:
        tiles: the newly placed tiles, ``frozenset`` of ``(row, col, LETTER, is_blank)``
            (0-based squares, letter uppercase).
        score: the peer's score.
        text: the move as the peer wrote it (a line, or a JSON item), for reports.
    """

    tiles: frozenset
    score: int
    text: str

    @property
    def placements(self) -> str:
        """Golden-list placement key (``H8:A,I8:b``, row-major)."""
        return placements_string(self.tiles)


@dataclass
class PeerOutput:
    """Everything read from one peer output: the moves and the peer's own time, if it gave one."""

    moves: list[PeerMove]
    time_ms: float | None = None


# ---------------------------------------------------------------------------
# placements and notation
# ---------------------------------------------------------------------------
def placements_string(tiles) -> str:
    """``SQUARE:LETTER`` comma-separated in row-major order, blanks lowercase (``H8:A,I8:b``).

    Args:
        tiles: iterable of ``(row, col, LETTER, is_blank)``, 0-based.
    """
    return ",".join(f"{square_name(r, c)}:{ch.lower() if b else ch.upper()}" for r, c, ch, b in sorted(tiles))


def _is_letter(letter, alphabet: Alphabet) -> bool:
    """One character that is a letter of the tile set in either case (``ß`` is not: it uppercases to SS)."""
    return (isinstance(letter, str) and len(letter) == 1 and len(letter.upper()) == 1
            and alphabet.is_word_chars(letter.upper()))


_SQUARE = re.compile(r"^([A-Oa-o])(\d{1,2})$")


def parse_placements(text: str, alphabet: Alphabet) -> frozenset:
    """Read a golden-list ``PLACEMENTS`` field (``H8:A,I8:b``) into a tile set.

    Raises:
        ValueError: a square off the board, a letter outside the tile set, a
            square named twice, or no tile at all.
    """
    tiles = []
    for part in text.strip().split(","):
        sq, sep, letter = part.strip().partition(":")
        m = _SQUARE.match(sq)
        if not sep or not m or len(letter) != 1:
            raise ValueError(f"placement {part!r}: expected SQUARE:LETTER like H8:A")
        tiles.append((int(m.group(2)) - 1, COLUMNS.index(m.group(1).upper()), letter, letter.islower()))
    return _check_tiles(tiles, alphabet)


def notation_tiles(board: Board, text: str) -> frozenset:
    """The tiles a move in notation places, read against the board.

    Accepts ``8H WO(R)D`` (across, row first) and ``H8 WO(R)D`` (down, column
    first), Quackle's ``8H WO.D`` (``.`` = the tile already on that square), a
    word spelled fully over existing tiles (``8H WORD``), blanks in lowercase.
    Reading is done by :func:`engine.position.scorer.parse_move` (the word checker's
    reader); this only resolves the dots first.

    Raises:
        ValueError: unreadable notation, a square off the board, a letter
            that differs from the tile on its square, a ``.`` over an empty
            square, or no new tile.
    """
    parts = text.split()
    if len(parts) != 2:
        raise ValueError("expected a start square and a word, like '8H WO(R)D'")
    start, written = parts
    written = expand_dots(board, start, written)
    placement = parse_move(board, f"{start} {written}")
    return frozenset(placement.tiles)


# ---------------------------------------------------------------------------
# adapters
# ---------------------------------------------------------------------------
_START = re.compile(r"^(?:\d{1,2}[A-Oa-o]|[A-Oa-o]\d{1,2})$")
_TIME_LINE = re.compile(r"^(?:#|//)\s*time[_ ]?ms\s*[:=]\s*([0-9.eE+-]+)\s*$", re.I)
_NOT_PLACEMENT = re.compile(r"^\(?(?:pass\b|exch\b|exchange\b|xch\b|-)", re.I)
_SCORE = re.compile(r"^[(\[]?\s*(?:score\s*[:=]?\s*)?(-?\d+)(?![\d.])", re.I)


def _is_float(tok: str) -> bool:
    try:
        float(tok)
    except ValueError:
        return False
    return True


def _time_value(raw, where: str) -> float:
    try:
        v = float(raw)
    except (TypeError, ValueError):
        raise PeerOutputError(f"time_ms {raw!r} is not a number ({where})") from None
    if v < 0:
        raise PeerOutputError(f"time_ms {raw!r} is negative ({where})")
    return v


def parse_text(text: str, board: Board) -> PeerOutput:
    """Adapter for ``quackle`` and ``wolges`` text: one move a line, ``START WORD SCORE [...]``.

    ``START`` is ``8H`` (across) or ``H8`` (down); ``WORD`` marks tiles already on
    the board with ``.`` (Quackle) or parentheses (wolges) or spells them out;
    blanks lowercase. ``SCORE`` is the first integer after the word (``24``,
    ``(24)``, ``score=24``); anything after it (equity, leave) is ignored. A
    number before ``START`` (wolges prints the equity first) is skipped. Blank
    lines, ``#`` / ``//`` comments and exchanges or passes (``pass``,
    ``exch ...``, wolges' ``Exch. ABC`` / ``Pass`` after its equity, MAGPIE's
    ``(exch ABC)``, ``-ABC``, ``- ``) are skipped; ``# time_ms: X`` gives the
    peer's own time.

    Raises:
        PeerOutputError: a line that is none of those, naming the line.
    """
    moves = []
    time_ms = None
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        m = _TIME_LINE.match(line)
        if m:
            time_ms = _time_value(m.group(1), f"line {n}")
            continue
        if line.startswith("#") or line.startswith("//") or _NOT_PLACEMENT.match(line):
            continue
        toks = line.split()
        if len(toks) >= 2 and _is_float(toks[0]):
            # wolges prints its equity first, also before ``Exch. ABC`` and ``Pass``
            if _NOT_PLACEMENT.match(toks[1]):
                continue
            if _START.match(toks[1]):
                toks = toks[1:]
        if len(toks) < 3 or not _START.match(toks[0]):
            raise PeerOutputError("expected 'START WORD SCORE' like '8H WO(R)D 24' or 'H8 WO.D 24'", n, line)
        sm = _SCORE.match(" ".join(toks[2:]))
        if not sm:
            raise PeerOutputError(f"no score after the word (got {toks[2]!r})", n, line)
        try:
            tiles = notation_tiles(board, f"{toks[0]} {toks[1]}")
        except (IllegalMove, ValueError) as exc:
            raise PeerOutputError(f"cannot place {toks[0]} {toks[1]} on this board ({exc})", n, line) from None
        moves.append(PeerMove(tiles, int(sm.group(1)), line))
    return PeerOutput(moves, time_ms)


def parse_tsv(text: str, board: Board) -> PeerOutput:
    """Adapter for the golden move-list format: ``NOTATION<TAB>SCORE<TAB>PLACEMENTS`` per line.

    ``PLACEMENTS`` (``H8:A,I8:b``) is what is compared; when a line has only
    ``NOTATION<TAB>SCORE`` the tiles are read from the notation. A first line
    ``notation<TAB>score...`` (header), blank lines and ``#`` comments are skipped;
    ``# time_ms: X`` gives the peer's time.

    Raises:
        PeerOutputError: a line without a tab, a non-integer score, unreadable placements.
    """
    moves = []
    time_ms = None
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip("\r\n")
        if not line.strip():
            continue
        m = _TIME_LINE.match(line.strip())
        if m:
            time_ms = _time_value(m.group(1), f"line {n}")
            continue
        if line.lstrip().startswith("#"):
            continue
        fields = line.split("\t")
        if n == 1 and fields[0].strip().lower() in ("notation", "move"):
            continue
        if len(fields) not in (2, 3):
            raise PeerOutputError("expected NOTATION<TAB>SCORE<TAB>PLACEMENTS", n, line)
        if not re.fullmatch(r"-?\d+", fields[1].strip()):
            raise PeerOutputError(f"score {fields[1]!r} is not an integer", n, line)
        try:
            if len(fields) == 3 and fields[2].strip():
                tiles = parse_placements(fields[2], board.alphabet)
            else:
                tiles = notation_tiles(board, fields[0])
        except (IllegalMove, ValueError) as exc:
            raise PeerOutputError(str(exc), n, line) from None
        moves.append(PeerMove(tiles, int(fields[1]), line.replace("\t", "  ")))
    return PeerOutput(moves, time_ms)


def _load_json(text: str):
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        first = text.strip().splitlines()[0] if text.strip() else ""
        raise PeerOutputError(f"not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})",
                              exc.lineno, first if exc.lineno == 1 else None) from None


def _json_items(data, keys: tuple[str, ...], what: str) -> tuple[list, float | None]:
    """The list of move items and the top-level time of a JSON document."""
    time_ms = None
    if isinstance(data, dict):
        for tk in ("time_ms", "timeMs", "elapsed_ms"):
            if tk in data and data[tk] is not None:
                time_ms = _time_value(data[tk], f"field {tk!r}")
                break
        for k in keys:
            if k in data:
                data = data[k]
                break
        else:
            raise PeerOutputError(f"{what}: expected a list of moves or an object with one of "
                                  f"{', '.join(repr(k) for k in keys)}; got keys {sorted(data)[:8]}")
    if not isinstance(data, list):
        raise PeerOutputError(f"{what}: expected a list of moves, got {type(data).__name__}")
    return data, time_ms


def _get(item: dict, *names, default=KeyError):
    for k in names:
        if k in item:
            return item[k]
    if default is KeyError:
        raise KeyError(names[0])
    return default


def _int(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or int(value) != value:
        if isinstance(value, str) and re.fullmatch(r"-?\d+", value.strip()):
            return int(value)
        raise ValueError(f"{name} {value!r} is not an integer")
    return int(value)


def _short(item) -> str:
    return json.dumps(item, ensure_ascii=False, separators=(",", ":"))


def _check_tiles(tiles, alphabet: Alphabet) -> frozenset:
    out = []
    seen = set()
    for t in tiles:
        r, c, letter, blank = t
        if not (0 <= r < N and 0 <= c < N):
            raise ValueError(f"square (row {r}, col {c}) is off the board (0-based)")
        if not _is_letter(letter, alphabet):
            raise ValueError(alphabet.not_a_letter(letter))
        if (r, c) in seen:
            raise ValueError(f"two tiles on {square_name(r, c)}")
        seen.add((r, c))
        out.append((r, c, letter.upper(), bool(blank)))
    if not out:
        raise ValueError("the move places no tile")
    return frozenset(out)


def parse_engine_json(text: str, board: Board) -> PeerOutput:
    """Adapter for this project's ``python -m engine moves --json``.

    Shape: ``{"moves": [{"move": "8H WO(R)D", "score": 24, "tiles": [[7, 7, "W",
    false], ...], ...}, ...], "exchanges": [...], "pass": true}`` (a bare list of
    moves is accepted too; an optional top-level ``"time_ms"``). ``tiles`` (0-based
    row, column, letter, is-blank) is used when present, else ``move`` is read as
    notation.

    Raises:
        PeerOutputError: not JSON, or an item without a usable ``tiles``/``move`` and ``score``.
    """
    items, time_ms = _json_items(_load_json(text), ("moves",), "engine-json")
    moves = []
    for i, item in enumerate(items, 1):
        try:
            if not isinstance(item, dict):
                raise ValueError("expected an object")
            score = _int(_get(item, "score"), "score")
            if "tiles" in item:
                tiles = _check_tiles([(_int(t[0], "row"), _int(t[1], "col"), t[2], t[3] if len(t) > 3 else
                                       str(t[2]).islower()) for t in item["tiles"]], board.alphabet)
            else:
                tiles = notation_tiles(board, str(_get(item, "move", "notation")))
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            raise PeerOutputError(f"engine-json move: {exc!s} (need 'score' and 'tiles' or 'move')",
                                  i, _short(item), where="item") from None
        moves.append(PeerMove(tiles, score, str(item.get("move", _short(item)))))
    return PeerOutput(moves, time_ms)


def _wolges_tile(code: int) -> tuple[str, bool]:
    k = abs(code)
    if not 1 <= k <= len(WOLGES_GERMAN):
        raise ValueError(f"tile number {code} is not a wolges German tile (1..{len(WOLGES_GERMAN)})")
    return WOLGES_GERMAN[k - 1], code < 0


def parse_wolges_json(text: str, board: Board) -> PeerOutput:
    """Adapter for wolges' JSON plays (``kibitzer::JsonPlayWithEquity``).

    Shape: a list (or an object with ``"plays"`` or ``"moves"``, optional ``"time_ms"``)
    of ``{"equity": 12.5, "action": "play", "down": false, "lane": 7, "idx": 6,
    "word": [0, 15, -18], "score": 24}``: across plays have ``lane`` = row and
    ``idx`` = column, down plays ``lane`` = column and ``idx`` = row (0-based);
    ``word`` has one number per square from the start: 0 = the tile already on the
    board, ``k`` = wolges' German tile ``k`` (:data:`WOLGES_GERMAN`), ``-k`` = a
    blank as tile ``k``. ``word`` may also be a string in notation letters
    (``"WO(R)D"``, ``"WO.D"``). Items with ``"action"`` ``"exchange"`` or ``"pass"``
    are skipped.

    Raises:
        PeerOutputError: not JSON, or an item that does not fit, naming the item.
    """
    items, time_ms = _json_items(_load_json(text), ("plays", "moves"), "wolges-json")
    moves = []
    for i, item in enumerate(items, 1):
        try:
            if not isinstance(item, dict):
                raise ValueError("expected an object")
            action = item.get("action", "play")
            if action in ("exchange", "pass"):
                continue
            if action != "play":
                raise ValueError(f"unknown action {action!r}")
            down = item["down"]
            if not isinstance(down, bool):
                raise ValueError(f"'down' {down!r} is not true/false")
            lane, idx = _int(item["lane"], "lane"), _int(item["idx"], "idx")
            row, col = (idx, lane) if down else (lane, idx)
            if not (0 <= row < N and 0 <= col < N):
                raise ValueError(f"start (lane {lane}, idx {idx}) is off the board")
            score = _int(item["score"], "score")
            word = item["word"]
            direction = DOWN if down else ACROSS
            if isinstance(word, str):
                tiles = notation_tiles(board, f"{format_start(row, col, direction)} {word}")
            else:
                dr, dc = (1, 0) if down else (0, 1)
                raw = []
                for k, code in enumerate(word):
                    r, c = row + dr * k, col + dc * k
                    code = _int(code, "tile number")
                    if code == 0:
                        if not (r < N and c < N) or not board.tiles[r, c]:
                            raise ValueError(f"0 (played through) at {square_name(min(r, N - 1), min(c, N - 1))}"
                                             f"{'' if r < N and c < N else ' (off the board)'}, "
                                             f"but there is no tile there")
                        continue
                    if not (r < N and c < N):
                        raise ValueError("the word runs off the board")
                    letter, blank = _wolges_tile(code)
                    raw.append((r, c, letter, blank))
                tiles = _check_tiles(raw, board.alphabet)
        except (KeyError, TypeError, ValueError) as exc:
            msg = f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)
            raise PeerOutputError(f"wolges-json play: {msg}", i, _short(item), where="item") from None
        moves.append(PeerMove(tiles, score, _short(item)))
    return PeerOutput(moves, time_ms)


_HORIZONTAL = {"horizontal", "across", "h", "x", "right", "row"}
_VERTICAL = {"vertical", "down", "v", "y", "col", "column"}


def _solver_letter(tile) -> tuple[str, bool | None]:
    """A scrabble-solver tile: ``"a"`` or ``{"character": "a", "isBlank": false}``."""
    if isinstance(tile, dict):
        ch = _get(tile, "character", "letter", "char")
        blank = _get(tile, "isBlank", "is_blank", "blank", default=False)
        return str(ch), bool(blank)
    return str(tile), None


def _solver_cells(item: dict, board: Board) -> frozenset:
    raw = []
    for cell in item["cells"]:
        x, y = _int(_get(cell, "x", "col", "column"), "x"), _int(_get(cell, "y", "row"), "y")
        if not (0 <= x < N and 0 <= y < N):
            raise ValueError(f"cell (x {x}, y {y}) is off the board")
        tile = cell.get("tile")
        if tile is None:
            raise ValueError(f"cell (x {x}, y {y}) has no tile")
        ch, blank = _solver_letter(tile)
        new = cell.get("isEmpty", cell.get("is_empty"))
        if new is None:
            new = not board.tiles[y, x]
        if not new:
            on_board = board.letter_at(y, x)
            if on_board and on_board.upper() != ch.upper():
                raise ValueError(f"cell {square_name(y, x)} holds {on_board}, not {ch}")
            continue
        raw.append((y, x, ch, bool(blank)))
    return _check_tiles(raw, board.alphabet)


def _solver_flat(item: dict, board: Board) -> frozenset:
    x, y = _int(_get(item, "x", "col", "column"), "x"), _int(_get(item, "y", "row"), "y")
    d = _get(item, "direction", "dir", "orientation", default=None)
    if d is None and "vertical" in item:
        d = "vertical" if item["vertical"] else "horizontal"
    if d is None and "down" in item:
        d = "vertical" if item["down"] else "horizontal"
    if isinstance(d, str) and d.lower() in _HORIZONTAL:
        dr, dc = 0, 1
    elif isinstance(d, str) and d.lower() in _VERTICAL:
        dr, dc = 1, 0
    else:
        raise ValueError(f"direction {d!r}: expected 'horizontal' or 'vertical'")
    tiles = _get(item, "tiles", "word", "letters")
    if isinstance(tiles, str):
        letters = [(ch, None) for ch in tiles]
    else:
        letters = [_solver_letter(t) for t in tiles]
    blank_idx = _get(item, "blanks", "blankIndices", "blank_indices", "blankIndexes", default=None)
    blanks = set()
    if blank_idx is not None:
        if isinstance(blank_idx, (int, float)) and not isinstance(blank_idx, bool):
            blank_idx = [blank_idx]
        for b in blank_idx:
            b = _int(b, "blank index")
            if not 0 <= b < len(letters):
                raise ValueError(f"blank index {b} outside tiles (0..{len(letters) - 1})")
            blanks.add(b)
    letters = [(ch, (i in blanks) or bool(flag)) for i, (ch, flag) in enumerate(letters)]
    if not (0 <= x < N and 0 <= y < N):
        raise ValueError(f"start (x {x}, y {y}) is off the board")

    def whole_word():
        # tiles = every letter of the word from (x, y); occupied squares must match
        raw = []
        for k, (ch, blank) in enumerate(letters):
            r, c = y + dr * k, x + dc * k
            if r >= N or c >= N:
                raise ValueError("the word runs off the board")
            on_board = board.letter_at(r, c)
            if on_board:
                if on_board.upper() != ch.upper():
                    raise ValueError(f"{square_name(r, c)} holds {on_board}, not {ch}")
                continue
            raw.append((r, c, ch, blank))
        return _check_tiles(raw, board.alphabet)

    def new_only():
        # tiles = only the placed letters, occupied squares skipped
        raw = []
        r, c = y, x
        for ch, blank in letters:
            while r < N and c < N and board.tiles[r, c]:
                r, c = r + dr, c + dc
            if r >= N or c >= N:
                raise ValueError("the tiles run off the board")
            raw.append((r, c, ch, blank))
            r, c = r + dr, c + dc
        return _check_tiles(raw, board.alphabet)

    try:
        return whole_word()
    except ValueError as first:
        try:
            return new_only()
        except ValueError:
            raise first from None


def parse_scrabble_solver(text: str, board: Board) -> PeerOutput:
    """Adapter for scrabble-solver (kamilmielnik/scrabble-solver) JSON results.

    A list (or an object with ``"results"``, ``"moves"`` or ``"plays"``, optional
    ``"time_ms"``) of either

    * ``ResultJson``: ``{"cells": [{"x": 7, "y": 7, "isEmpty": true, "tile":
      {"character": "w", "isBlank": false}}, ...], "points": 24}`` — ``x`` column,
      ``y`` row, 0-based; ``isEmpty`` (the square was empty before the move) marks
      the placed tiles (when missing, the board decides);
    * or flat: ``{"x": 7, "y": 7, "direction": "horizontal" | "vertical",
      "tiles": "wo(r)d" | "word" | ["w", ...], "blanks": [1], "points": 24}`` —
      ``tiles`` spelling the whole word from ``(x, y)`` (letters on occupied
      squares must be the board's) or only the placed tiles (occupied squares
      skipped); ``blanks`` are indices into ``tiles``.

    Letter case never matters here (scrabble-solver writes lowercase);
    blanks come only from ``isBlank`` / the blank indices. Key variants accepted:
    ``col``/``row``, ``dir``/``orientation``, ``word``/``letters``,
    ``blankIndices``/``blank_indices``, ``score`` for ``points``.

    Raises:
        PeerOutputError: not JSON, or an item that fits neither shape, naming the item.
    """
    items, time_ms = _json_items(_load_json(text), ("results", "moves", "plays"), "scrabble-solver")
    moves = []
    for i, item in enumerate(items, 1):
        try:
            if not isinstance(item, dict):
                raise ValueError("expected an object")
            score = _int(_get(item, "points", "score"), "points")
            if "cells" in item:
                tiles = _solver_cells(item, board)
            else:
                flat = dict(item)
                if isinstance(flat.get("tiles"), str) and "(" in flat["tiles"]:
                    flat["tiles"] = flat["tiles"].replace("(", "").replace(")", "")
                tiles = _solver_flat(flat, board)
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            msg = f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)
            raise PeerOutputError(f"scrabble-solver result: {msg}", i, _short(item), where="item") from None
        moves.append(PeerMove(tiles, score, _short(item)))
    return PeerOutput(moves, time_ms)


def _guess_format(text: str) -> str:
    s = text.lstrip()
    if s[:1] in "[{":
        try:
            data = json.loads(s)
        except json.JSONDecodeError:
            return "engine-json"  # reports the JSON error
        items = data
        if isinstance(data, dict):
            for k in ("moves", "plays", "results"):
                if k in data:
                    items = data[k]
                    break
        first = items[0] if isinstance(items, list) and items else {}
        if isinstance(first, dict):
            if "lane" in first or "action" in first:
                return "wolges-json"
            if "cells" in first or "points" in first or "x" in first:
                return "scrabble-solver"
        return "engine-json"
    for line in s.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            return "tsv" if "\t" in line else "quackle"
    return "quackle"


def parse_auto(text: str, board: Board) -> PeerOutput:
    """Guess the format (JSON shape by its keys; TSV when lines hold tabs; else move text) and read it."""
    return FORMATS[_guess_format(text)](text, board)


FORMATS = {
    "quackle": parse_text,
    "wolges": parse_text,
    "magpie": parse_text,
    "wolges-json": parse_wolges_json,
    "scrabble-solver": parse_scrabble_solver,
    "engine-json": parse_engine_json,
    "tsv": parse_tsv,
    "auto": parse_auto,
}
"""Adapter name -> ``parse(text, board) -> PeerOutput``."""


def parse_output(fmt: str, text: str, board: Board) -> PeerOutput:
    """Read one peer output for a position with the adapter ``fmt`` (a key of :data:`FORMATS`).

    Raises:
        ValueError: unknown format.
        PeerOutputError: output the adapter cannot read.
    """
    try:
        parse = FORMATS[fmt]
    except KeyError:
        raise ValueError(f"unknown peer format {fmt!r}; known: {', '.join(FORMATS)}") from None
    return parse(text, board)


# ---------------------------------------------------------------------------
# running peers
# ---------------------------------------------------------------------------
@dataclass
class PeerRun:
    """The result of asking a peer about one position.

    Attributes:
        output: the moves read, or ``None`` when the position could not be compared.
        time_ms: the peer's time: its own report when it gave one, else the wall
            time of its process (start-up included), else ``None``.
        time_source: ``"reported"`` (by the peer), ``"wall"`` (its process), ``"file"``
            (a timings table given to :class:`DirectoryPeer`) or ``None``.
        error_kind: ``None``, or why there is no output: ``"timeout"``, ``"crash"``
            (non-zero exit or cannot start), ``"parse"`` (unreadable output or other
            notation), ``"missing"`` (no stored output).
        error: the reason in words (exit code and last stderr line, the
            unreadable line, ...).
    """

    output: PeerOutput | None
    time_ms: float | None = None
    time_source: str | None = None
    error_kind: str | None = None
    error: str | None = None


def _last_lines(text: str, n: int = 3) -> str:
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    return " | ".join(lines[-n:])


class CommandPeer:
    """A peer program run once per position, with a timeout.

    The command line is split like a shell would (:func:`shlex.split`, no shell
    is run) and these placeholders are replaced inside each argument:
    ``{cgp}`` (the position; one argument even though it holds spaces), ``{id}``,
    ``{python}`` (this interpreter), ``{lexicon}`` (see ``substitutions``). When
    the command has no ``{cgp}``, the CGP is written to the peer's standard input
    as one line. The peer's standard output is read with the adapter ``fmt``.

    Args:
        command: the command line.
        fmt: adapter name (:data:`FORMATS`).
        timeout: seconds per position; the peer's process group is killed after it.
        substitutions: extra placeholders, e.g. ``{"lexicon": "/path/to/lex"}``.
        repeat: runs per position; the moves come from the first run, the time is the
            median (of the peer's reports, or of the wall times).
    """

    def __init__(self, command: str, fmt: str, timeout: float = 60.0,
                 substitutions: dict[str, str] | None = None, repeat: int = 1):
        if fmt not in FORMATS:
            raise ValueError(f"unknown peer format {fmt!r}; known: {', '.join(FORMATS)}")
        if timeout <= 0:
            raise ValueError(f"timeout must be positive, got {timeout}")
        if repeat < 1:
            raise ValueError(f"peer repeat must be at least 1, got {repeat}")
        try:
            self.argv = shlex.split(command)
        except ValueError as exc:
            raise ValueError(f"peer command {command!r}: {exc}") from None
        if not self.argv:
            raise ValueError("empty peer command")
        self.command = command
        self.fmt = fmt
        self.timeout = timeout
        self.repeat = repeat
        self.subs = {"python": sys.executable, **(substitutions or {})}
        self.cgp_on_stdin = not any("{cgp}" in a for a in self.argv)

    @property
    def description(self) -> str:
        """One line for reports."""
        return f"command `{self.command}` ({self.fmt}, timeout {self.timeout:g} s per position)"

    def _argv(self, pid: str, cgp: str) -> list[str]:
        subs = {**self.subs, "cgp": cgp, "id": pid}
        out = []
        for a in self.argv:
            for k, v in subs.items():
                a = a.replace("{" + k + "}", str(v))
            out.append(a)
        return out

    def _once(self, pid: str, cgp: str) -> tuple[str | None, float, str | None, str | None]:
        """(stdout, wall ms, error kind, error)."""
        argv = self._argv(pid, cgp)
        t0 = time.perf_counter()
        try:
            proc = subprocess.Popen(
                argv, stdin=subprocess.PIPE if self.cgp_on_stdin else subprocess.DEVNULL,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=(os.name == "posix"))
        except OSError as exc:
            return None, 0.0, "crash", f"cannot start {argv[0]!r}: {exc.strerror or exc}"
        try:
            out, err = proc.communicate((cgp + "\n").encode() if self.cgp_on_stdin else None, timeout=self.timeout)
        except subprocess.TimeoutExpired:
            self._kill(proc)
            proc.communicate()
            return None, (time.perf_counter() - t0) * 1000, "timeout", f"timeout after {self.timeout:g} s"
        wall = (time.perf_counter() - t0) * 1000
        stderr = err.decode("utf-8", "replace")
        if proc.returncode != 0:
            how = (f"killed by signal {-proc.returncode}" if proc.returncode < 0
                   else f"exit code {proc.returncode}")
            tail = _last_lines(stderr)
            return None, wall, "crash", f"{how}" + (f"; stderr: {tail}" if tail else "")
        return out.decode("utf-8", "replace"), wall, None, None

    @staticmethod
    def _kill(proc: subprocess.Popen) -> None:
        try:
            if os.name == "posix":
                os.killpg(proc.pid, signal.SIGKILL)  # the peer's own process group (start_new_session)
            else:
                proc.kill()
        except (ProcessLookupError, PermissionError):
            proc.kill()

    def run(self, pid: str, cgp: str, board: Board) -> PeerRun:
        """Run the peer on one position and read its output (never raises for peer faults)."""
        output = None
        times: list[float] = []
        source = "wall"
        for k in range(self.repeat):
            text, wall, kind, err = self._once(pid, cgp)
            if kind:
                return PeerRun(None, None, None, kind, err)
            try:
                parsed = parse_output(self.fmt, text, board)
            except PeerOutputError as exc:
                return PeerRun(None, None, None, "parse", str(exc))
            if k == 0:
                output = parsed
            if parsed.time_ms is not None:
                times.append(parsed.time_ms)
                source = "reported"
            else:
                times.append(wall)
        return PeerRun(output, median(times), source)


class DirectoryPeer:
    """Outputs a peer wrote earlier: ``DIR/ID.tsv``, ``DIR/ID.json`` or ``DIR/ID.txt`` per position.

    Args:
        directory: the folder.
        fmt: adapter name; ``None`` or ``"auto"`` guesses per file.
        timings: optional ``{id: ms}`` (e.g. a column of golden ``peer_timings.tsv``),
            used when an output reports no ``time_ms``.
    """

    EXTENSIONS = (".tsv", ".json", ".txt")

    def __init__(self, directory: str | os.PathLike, fmt: str | None = None,
                 timings: dict[str, float] | None = None):
        self.directory = Path(directory)
        if not self.directory.is_dir():
            raise ValueError(f"peer directory {str(self.directory)!r} does not exist")
        self.fmt = fmt or "auto"
        if self.fmt not in FORMATS:
            raise ValueError(f"unknown peer format {fmt!r}; known: {', '.join(FORMATS)}")
        self.timings = timings or {}

    @property
    def description(self) -> str:
        """One line for reports."""
        return f"stored outputs in {self.directory} ({self.fmt})"

    def _summary_counts(self) -> dict[str, int]:
        """``{id: placements}`` from ``DIR/summary.tsv`` (as ``baselines`` writes it), ``{}`` if none."""
        if not hasattr(self, "_counts"):
            self._counts: dict[str, int] = {}
            try:
                lines = (self.directory / "summary.tsv").read_text(encoding="utf-8").splitlines()
            except (OSError, UnicodeDecodeError):
                lines = []
            if lines and "placements" in lines[0].split("\t"):
                k = lines[0].split("\t").index("placements")
                for ln in lines[1:]:
                    f = ln.split("\t")
                    if len(f) > k and f[k].isascii() and f[k].isdigit():
                        self._counts[f[0]] = int(f[k])
        return self._counts

    def run(self, pid: str, cgp: str, board: Board) -> PeerRun:
        """Read the stored output for one position (never raises for peer faults).

        A ``.tsv``/``.txt`` file whose last line has no line end, or a ``.tsv`` whose
        number of placements differs from the directory's ``summary.tsv``, is
        reported as truncated (error kind ``parse``), never compared as a short list."""
        path = next((self.directory / f"{pid}{e}" for e in self.EXTENSIONS
                     if (self.directory / f"{pid}{e}").is_file()), None)
        if path is None:
            return PeerRun(None, None, None, "missing",
                           f"no {pid}.tsv, {pid}.json or {pid}.txt in {self.directory}")
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            return PeerRun(None, None, None, "parse", f"{path.name}: cannot read ({exc})")
        if text and not text.endswith("\n") and path.suffix in (".tsv", ".txt"):
            last = text.rsplit("\n", 1)[-1]
            return PeerRun(None, None, None, "parse",
                           f"{path.name}: the last line ({text.count(chr(10)) + 1}: {last[:40]!r}) has no line end: "
                           f"the file is truncated or still being written; write it again")
        try:
            parsed = parse_output(self.fmt, text, board)
        except PeerOutputError as exc:
            return PeerRun(None, None, None, "parse", f"{path.name}: {exc}")
        expected = self._summary_counts().get(pid) if path.suffix == ".tsv" else None
        if expected is not None and len({m.placements for m in parsed.moves}) != expected:
            return PeerRun(None, None, None, "parse",
                           f"{path.name}: {len(parsed.moves)} moves, but summary.tsv lists {expected} placements "
                           f"for {pid}: the file is truncated or from another run; write the baselines again")
        if parsed.time_ms is not None:
            return PeerRun(parsed, parsed.time_ms, "reported")
        if pid in self.timings:
            return PeerRun(parsed, self.timings[pid], "file")
        return PeerRun(parsed, None, None)
