"""Moves and move lists.

A :class:`MoveList` keeps the generator's output as one int32 array (one row
per move, layout in :mod:`engine.movegen._movegen`), so millions of moves cost no Python
objects; :class:`Move` objects are made only when asked for.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from lexicon_tools.alphabet import Alphabet

from engine.position import _rows as K
from engine.position.board import ACROSS, Board, format_start, square_name


def _notation(row: int, col: int, direction: int, word: str, through) -> str:
    out = []
    inside = False
    for ch, t in zip(word, through):
        if t and not inside:
            out.append("(")
            inside = True
        elif not t and inside:
            out.append(")")
            inside = False
        out.append(ch)
    if inside:
        out.append(")")
    return f"{format_start(row, col, direction)} {''.join(out)}"


@dataclass(frozen=True)
class Move:
    """One tile placement.

    Attributes:
        row, col: 0-based start square of the main word.
        direction: ``ACROSS`` (0) or ``DOWN`` (1).
        word: the main word as written in notation letters: uppercase tiles,
            lowercase blanks (tiles already on the board included).
        through: per letter of ``word``, True when the tile was already on the board.
        score: points (premiums, cross-words and the bingo bonus included).
        leave: the tiles kept, as a rack string (``?`` = blank).
        equity: score + leave value when the move was ranked by equity, else ``None``.
    """

    row: int
    col: int
    direction: int
    word: str
    through: tuple[bool, ...]
    score: int
    leave: str
    equity: float | None = None

    @property
    def notation(self) -> str:
        """Standard notation: ``8H WO(R)D`` across, ``H8 WO(R)D`` down; blanks lowercase."""
        return _notation(self.row, self.col, self.direction, self.word, self.through)

    @property
    def tiles(self) -> list[tuple[int, int, str, bool]]:
        """Newly placed tiles: ``(row, col, LETTER, is_blank)`` in board order, letter uppercase."""
        dr, dc = (0, 1) if self.direction == ACROSS else (1, 0)
        out = []
        for i, (ch, t) in enumerate(zip(self.word, self.through)):
            if not t:
                out.append((self.row + dr * i, self.col + dc * i, ch.upper(), ch.islower()))
        return out

    @property
    def tiles_played(self) -> int:
        """Number of tiles taken from the rack."""
        return len(self.word) - sum(self.through)

    @property
    def placements(self) -> str:
        """Golden-list placement key: ``SQUARE:LETTER`` comma-separated in row-major order."""
        return ",".join(f"{square_name(r, c)}:{ch.lower() if b else ch}" for r, c, ch, b in sorted(self.tiles))

    def __str__(self) -> str:
        return f"{self.notation} {self.score}"


class MoveList:
    """All generated placements of one position, backed by an int32 array.

    Attributes:
        rows: int32 (n_moves, OUT_WIDTH) generator output (see :mod:`engine.movegen._movegen`).
        board: the position's board (needed to spell played-through tiles).
        rack: int32 (n_letters + 1,) rack counts the moves were generated from.
    """

    def __init__(self, rows: np.ndarray, board: Board, rack: np.ndarray):
        self.rows = rows
        self.board = board
        self.rack = rack

    @property
    def alphabet(self) -> Alphabet:
        return self.board.alphabet

    def __len__(self) -> int:
        return int(self.rows.shape[0])

    @property
    def scores(self) -> np.ndarray:
        """int32 (n_moves,) scores in list order."""
        return self.rows[:, K.OUT_SCORE]

    def __getitem__(self, i: int) -> Move:
        if not -len(self) <= i < len(self):
            raise IndexError(f"move {i} out of range ({len(self)} moves)")
        return self.move(int(i) % max(len(self), 1))

    def __iter__(self):
        for i in range(len(self)):
            yield self.move(i)

    def _spell(self, r) -> tuple[str, tuple[bool, ...]]:
        """Main word (lowercase blanks) and played-through flags of an output row (a list)."""
        row, col, d, length = r[K.OUT_ROW], r[K.OUT_COL], r[K.OUT_DIR], r[K.OUT_LEN]
        dr, dc = (0, 1) if d == ACROSS else (1, 0)
        letters = self.alphabet.letters
        word = []
        through = []
        board = None
        for k in range(length):
            t = r[K.OUT_TILES + k]
            if t == 0:
                if board is None:
                    board = self.board
                    bt, bb = board.tiles, board.blanks
                rr, cc = row + dr * k, col + dc * k
                ch = letters[bt.item(rr, cc) - 1]
                word.append(ch.lower() if bb.item(rr, cc) else ch)
                through.append(True)
            else:
                ch = letters[(t & ~K.BLANK_FLAG) - 1]
                word.append(ch.lower() if t & K.BLANK_FLAG else ch)
                through.append(False)
        return "".join(word), tuple(through)

    def _leave_of(self, r) -> str:
        counts = self.rack.tolist()
        for k in range(r[K.OUT_LEN]):
            t = r[K.OUT_TILES + k]
            if t:
                counts[0 if t & K.BLANK_FLAG else t] -= 1
        letters = self.alphabet.letters
        return "".join(letters[c - 1] * counts[c] for c in range(1, len(counts)) if counts[c]) + "?" * counts[0]

    def move(self, i: int, leave: bool = True, equity: float | None = None) -> Move:
        """The :class:`Move` for row ``i`` (with ``leave=False`` its ``leave`` is ``""``, which is faster;
        ``equity`` is stored in the move)."""
        r = self.rows[i].tolist()
        word, through = self._spell(r)
        return Move(r[K.OUT_ROW], r[K.OUT_COL], r[K.OUT_DIR], word, through, r[K.OUT_SCORE],
                    self._leave_of(r) if leave else "", equity)

    def placed_tiles(self, indices=None) -> list[list[list]]:
        """Newly placed tiles of moves, without building :class:`Move` objects.

        Args:
            indices: the rows wanted (default: all, in list order).

        Returns:
            per move, ``[row, col, LETTER, is_blank]`` lists in board order
            (the shape of :attr:`Move.tiles` and of the CLI's JSON).
        """
        letters = self.alphabet.letters
        rows = self.rows if indices is None else self.rows[np.asarray(indices, dtype=np.int64)]
        out = []
        for r in rows.tolist():
            row, col = r[K.OUT_ROW], r[K.OUT_COL]
            dr, dc = (0, 1) if r[K.OUT_DIR] == ACROSS else (1, 0)
            placed = []
            for k in range(r[K.OUT_LEN]):
                code = r[K.OUT_TILES + k]
                if code:
                    placed.append([row + dr * k, col + dc * k, letters[(code & ~K.BLANK_FLAG) - 1],
                                   bool(code & K.BLANK_FLAG)])
            out.append(placed)
        return out

    def leaves(self) -> list[str]:
        """The leave (rack string, ``?`` = blank) of every move in list order.

        Worked out once per distinct set of tiles used (a rack has at most a
        few hundred), so a long list costs one numpy pass.
        """
        n = len(self)
        if n == 0:
            return []
        tiles = self.rows[:, K.OUT_TILES:]
        codes = np.where(tiles & K.BLANK_FLAG, 0, tiles)
        used = np.zeros((n, self.rack.shape[0]), dtype=np.int32)
        np.add.at(used, (np.repeat(np.arange(n), codes.shape[1]), codes.ravel()),
                  (tiles != 0).ravel().astype(np.int32))
        place = np.cumprod(np.concatenate(([1], self.rack[:-1].astype(np.int64) + 1)))  # mixed radix: one key per set
        keys = used.astype(np.int64) @ place
        _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        names = [self.alphabet.rack_string(self.rack - used[i]) for i in first]
        return [names[k] for k in inverse.ravel().tolist()]

    def notation(self, i: int) -> str:
        """Notation of row ``i`` without building the :class:`Move` (no leave computed)."""
        r = self.rows[i].tolist()
        word, through = self._spell(r)
        return _notation(r[K.OUT_ROW], r[K.OUT_COL], r[K.OUT_DIR], word, through)

    @cached_property
    def order(self) -> np.ndarray:
        """Indices sorting the moves by score (descending), then notation."""
        notations = [self.notation(i) for i in range(len(self))]
        return np.array(sorted(range(len(self)), key=lambda i: (-int(self.rows[i, K.OUT_SCORE]), notations[i])),
                        dtype=np.int64)

    def sorted(self) -> list[Move]:
        """All moves as :class:`Move` objects, by score (descending) then notation."""
        return [self.move(int(i)) for i in self.order]

    def top(self, n: int = 1) -> list[Move]:
        """The ``n`` best moves by score (ties by notation), without sorting the whole list."""
        size = len(self)
        if size == 0 or n <= 0:
            return []
        if size == 1:
            return [self.move(0)]
        sc = self.scores
        if n < size:
            cutoff = np.partition(sc, size - n)[size - n]
            idx = np.flatnonzero(sc >= cutoff).tolist()
        else:
            idx = list(range(size))
        scores = sc.tolist()
        idx.sort(key=lambda i: -scores[i])
        # notation only decides between equal scores
        keyed = []
        j = 0
        while j < len(idx) and len(keyed) < n:
            k = j
            while k + 1 < len(idx) and scores[idx[k + 1]] == scores[idx[j]]:
                k += 1
            group = idx[j:k + 1]
            if len(group) > 1:
                group.sort(key=self.notation)
            keyed.extend(group)
            j = k + 1
        return [self.move(i) for i in keyed[:n]]

    def used_index(self, radix: np.ndarray) -> np.ndarray:
        """int64 (n_moves,) mixed-radix number of the rack tiles each move uses.

        ``radix[t]`` is the place value of tile code ``t`` (blank = 0), as made
        by :func:`engine.movegen.generator.leave_arrays`.
        """
        tiles = self.rows[:, K.OUT_TILES:]
        codes = np.where(tiles & K.BLANK_FLAG, 0, tiles)
        contrib = np.where(tiles != 0, radix[codes], 0)
        return contrib.sum(axis=1)

    def placement_set(self) -> set[tuple[str, int]]:
        """``{(placements, score)}``: the golden lists' comparison key."""
        return {(m.placements, m.score) for m in self}
