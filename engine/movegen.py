"""Move generation API: validated inputs in, a :class:`~engine.moves.MoveList` out.

The work happens in the Numba kernels of :mod:`engine._movegen` (GADDAG
traversal, Gordon 1994; anchors and cross-checks, Appel & Jacobson 1988). This
module checks the board, rack and lexicon, prepares plain arrays and wraps the
result.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import product
from typing import Callable

import numpy as np

from lexicon_tools.alphabet import Alphabet
from lexicon_tools.bundle import Lexicon

from . import _kernels as K  # engine._movegen (JIT), or its ahead-of-time build for the CLI
from .board import Board
from .cgp import Position
from .moves import MoveList

_INITIAL_CAPACITY = 32768


def _check_inputs(board: Board, rack: np.ndarray, lexicon: Lexicon) -> None:
    a = board.alphabet
    if lexicon.alphabet.letters != a.letters:
        raise ValueError(f"lexicon {lexicon.path} uses the {lexicon.alphabet.name} alphabet, the board {a.name}")
    if board.tiles.shape != (K.N, K.N) or board.tiles.dtype != np.uint8:
        raise ValueError(f"board tiles must be uint8 ({K.N}, {K.N})")
    if int(board.tiles.max(initial=0)) > a.size:
        r, c = np.argwhere(board.tiles > a.size)[0]
        raise ValueError(f"board square {r + 1}{'ABCDEFGHIJKLMNO'[c]}: tile code {board.tiles[r, c]} is not a letter")
    if rack.shape != (a.size + 1,):
        raise ValueError(f"rack must be a counts array of shape ({a.size + 1},)")
    if (rack < 0).any() or int(rack.sum()) > a.rack_size:
        raise ValueError(f"rack must hold 0..{a.rack_size} tiles")


class CrossChecks:
    """Cross-checks (cross-sets) and cross-scores of a board, both directions.

    Attributes:
        cs: uint32 (2, 15, 15) bit ``t`` set when tile code ``t`` may go on the
            square (forms a valid perpendicular word, or has no perpendicular
            neighbour); 0 on occupied squares.
        xs: int32 (2, 15, 15) points of the perpendicular neighbours' run.
        hx: uint8 (2, 15, 15) 1 where a perpendicular word is formed.

    Index 0 is for across moves (vertical cross-words) in board coordinates
    ``[row, col]``; index 1 for down moves in transposed coordinates ``[col, row]``.
    After a move, :meth:`update` recomputes only the lines the move touched.
    """

    def __init__(self, board: Board, lexicon: Lexicon):
        self.lexicon = lexicon
        self._all = np.uint32(((1 << (board.alphabet.size + 1)) - 1) & ~1)
        self.cs, self.xs, self.hx = K.all_cross_checks(lexicon.graph, board.tiles, board.tile_values(), self._all)

    def update(self, board: Board, tiles) -> None:
        """Recompute after ``tiles`` (iterable of ``(row, col, ...)``) were placed on ``board``."""
        rows = np.zeros(K.N, dtype=np.uint8)
        cols = np.zeros(K.N, dtype=np.uint8)
        for t in tiles:
            rows[t[0]] = 1
            cols[t[1]] = 1
        K.update_cross_checks(self.lexicon.graph, board.tiles, board.tile_values(), self._all,
                              self.cs, self.xs, self.hx, rows, cols)

    def copy(self) -> "CrossChecks":
        c = object.__new__(CrossChecks)
        c.lexicon, c._all = self.lexicon, self._all
        c.cs, c.xs, c.hx = self.cs.copy(), self.xs.copy(), self.hx.copy()
        return c


def generate_moves(board: Board, rack: np.ndarray, lexicon: Lexicon,
                   checks: CrossChecks | None = None) -> MoveList:
    """Every legal placement of ``rack`` on ``board``, scored (SPEC.md "A legal placement", "Scoring").

    Args:
        board: the position's board.
        rack: int32 (n_letters + 1,) tile counts (index 0 = blanks), as from
            :meth:`Alphabet.parse_rack`.
        lexicon: the word list's graph.
        checks: the board's cross-checks if already known (kept up to date
            by a game); computed here otherwise.

    Returns:
        a :class:`MoveList` in generation order (use ``.sorted()`` / ``.top()``).

    Raises:
        ValueError: board, rack or lexicon that does not fit (wrong alphabet,
            more than 7 tiles, unknown tile code).
    """
    _check_inputs(board, rack, lexicon)
    args = _kernel_args(board, rack, lexicon)
    out = np.empty((_INITIAL_CAPACITY, K.OUT_WIDTH), dtype=np.int32)
    cnt = np.zeros(1, dtype=np.int64)
    if checks is None:
        K.generate(*args, out, cnt)
        if cnt[0] > out.shape[0]:
            out = np.empty((int(cnt[0]), K.OUT_WIDTH), dtype=np.int32)
            K.generate(*args, out, cnt)
    else:
        kargs = args[:7] + args[8:] + (checks.cs, checks.xs, checks.hx)
        K.generate_checked(*kargs, out, cnt)
        if cnt[0] > out.shape[0]:
            out = np.empty((int(cnt[0]), K.OUT_WIDTH), dtype=np.int32)
            K.generate_checked(*kargs, out, cnt)
    return MoveList(out[: int(cnt[0])].copy(), board, rack.astype(np.int32))


_VALUES: dict[int, tuple] = {}


def _alphabet_consts(a: Alphabet) -> tuple:
    """``(values as int64, mask of every letter)`` of an alphabet, computed once."""
    key = id(a)
    hit = _VALUES.get(key)
    if hit is None or hit[0] is not a:
        hit = (a, a.values.astype(np.int64), np.uint32(((1 << (a.size + 1)) - 1) & ~1))
        _VALUES[key] = hit
    return hit[1], hit[2]


def _kernel_args(board: Board, rack: np.ndarray, lexicon: Lexicon):
    a = board.alphabet
    lm, wm = board.open_premiums()
    values, all_mask = _alphabet_consts(a)
    return (
        lexicon.graph,
        board.tiles,
        board.tile_values(),
        lm,
        wm,
        rack.astype(np.int64),
        values,
        all_mask,
        a.rack_size,
        a.bingo_bonus,
    )


LeaveValue = Callable[[np.ndarray], float]
"""A function from a leave (int32 counts array, index 0 = blanks) to its value in points."""


def leave_arrays(rack: np.ndarray, leave_value: LeaveValue | None):
    """Values of every leave of ``rack`` for the best-first kernel.

    Returns:
        ``(radix, lv, lvmax)``: int64 (n_letters + 1,) place values numbering
        the sub-multisets of the rack by the tiles a move uses; float64
        ``lv[index]`` the leave's value; float64 (8,) ``lvmax[k]`` the best
        leave value after playing ``k`` tiles. All zeros without ``leave_value``.
    """
    if leave_value is None:
        return np.zeros(rack.shape[0], dtype=np.int64), np.zeros(1), np.zeros(8)
    codes = [c for c in range(rack.shape[0]) if rack[c] > 0]
    radix = np.zeros(rack.shape[0], dtype=np.int64)
    size = 1
    for c in codes:
        radix[c] = size
        size *= int(rack[c]) + 1
    lv = np.zeros(size)
    lvmax = np.full(8, -np.inf)
    for used in product(*(range(int(rack[c]) + 1) for c in codes)):
        leave = rack.astype(np.int32).copy()
        idx = 0
        for c, u in zip(codes, used):
            leave[c] -= u
            idx += u * radix[c]
        val = float(leave_value(leave))
        lv[idx] = val
        k = sum(used)
        lvmax[k] = max(lvmax[k], val)
    lvmax[~np.isfinite(lvmax)] = 0.0
    return radix, lv, lvmax


def best_moves(board: Board, rack: np.ndarray, lexicon: Lexicon, n: int = 1,
               checks: CrossChecks | None = None, leave_value: LeaveValue | None = None) -> list:
    """The ``n`` top moves without generating every move (best-first).

    Ranked by score, or by equity = score + ``leave_value(leave)`` when a leave
    function is given. Spans of anchors are walked in the order of an upper
    bound on their moves' rank (the "shadow" idea of wolges and Macondo; bound
    in :func:`engine._movegen._anchor_spans`) until none can beat the ``n``-th
    best found. Ties are broken by notation, so with score ranking the result
    equals ``generate_moves(...).top(n)``.

    Returns:
        list of up to ``n`` :class:`~engine.moves.Move`, best first (with
        ``equity`` set when ranked by equity).

    Raises:
        ValueError: as :func:`generate_moves`, or ``n < 1``.
    """
    ml, radix, lv = _best_walk(board, rack, lexicon, n, checks, leave_arrays(rack, leave_value))
    if leave_value is None:
        return ml.top(n)
    eq = ml.scores + lv[ml.used_index(radix)]
    if len(ml) == 0:
        return []
    cutoff = np.sort(eq)[::-1][min(n, len(eq)) - 1]
    cand = [(float(eq[i]), ml.move(int(i))) for i in np.nonzero(eq >= cutoff)[0]]
    cand.sort(key=lambda em: (-em[0], em[1].notation))
    return [replace(m, equity=e) for e, m in cand[:n]]


def best_move_list(board: Board, rack: np.ndarray, lexicon: Lexicon, n: int = 1,
                   checks: CrossChecks | None = None, leaves: tuple | None = None) -> MoveList:
    """The moves best-first expansion walked: a superset of the top ``n``.

    Ranked by score, or with ``leaves = (radix, lv, lvmax)`` (as made by
    :func:`leave_arrays`, possibly from precomputed values) by score + leave
    value; a move's rank value is then ``score + lv[MoveList.used_index(radix)]``.
    Use this when the leave values of all sub-multisets of the rack are
    computed in one go (faster than a Python callback per leave).
    """
    if leaves is None:
        leaves = leave_arrays(rack, None)
    return _best_walk(board, rack, lexicon, n, checks, leaves)[0]


def _best_walk(board, rack, lexicon, n, checks, leaves):
    _check_inputs(board, rack, lexicon)
    if n < 1:
        raise ValueError(f"n must be at least 1, got {n}")
    args = _kernel_args(board, rack, lexicon)
    radix, lv, lvmax = leaves
    if radix.shape != (rack.shape[0],) or lv.ndim != 1 or lvmax.shape != (8,):
        raise ValueError("leaves must be (radix (n_letters + 1,), lv (k,), lvmax (8,)) as from leave_arrays")
    if int((radix * rack).sum()) >= lv.shape[0]:
        raise ValueError(f"lv has {lv.shape[0]} values, the rack's leaves need {int((radix * rack).sum()) + 1}")
    if checks is None:  # the kernel computes the cross-checks itself
        kernel = K.generate_best
        kargs = args + (radix, lv, lvmax, n)
    else:
        kernel = K.generate_best_checked
        kargs = args[:7] + args[8:] + (checks.cs, checks.xs, checks.hx, radix, lv, lvmax, n)
    out = np.empty((_INITIAL_CAPACITY, K.OUT_WIDTH), dtype=np.int32)
    cnt = np.zeros(1, dtype=np.int64)
    kernel(*kargs, out, cnt)
    if cnt[0] > out.shape[0]:
        out = np.empty((int(cnt[0]), K.OUT_WIDTH), dtype=np.int32)
        kernel(*kargs, out, cnt)
    return MoveList(out[: int(cnt[0])].copy(), board, rack.astype(np.int32)), radix, lv


def position_moves(position: Position, lexicon: Lexicon) -> MoveList:
    """:func:`generate_moves` for a parsed CGP position."""
    return generate_moves(position.board, position.rack, lexicon)


def exchanges(rack: np.ndarray, alphabet: Alphabet, bag_count: int | None) -> list[str]:
    """Every distinct non-empty sub-multiset of the rack that may be exchanged.

    Exchanges are allowed only while the bag holds at least 7 tiles
    (SPEC.md "Turns"); otherwise the list is empty.

    Returns:
        rack strings in code order (blanks as ``?``), shortest first.
    """
    if bag_count is not None and bag_count < alphabet.rack_size:
        return []
    codes = [c for c in range(alphabet.size + 1) if rack[c] > 0]
    out = []
    for combo in product(*(range(int(rack[c]) + 1) for c in codes)):
        if sum(combo) == 0:
            continue
        counts = np.zeros(alphabet.size + 1, dtype=np.int32)
        for c, k in zip(codes, combo):
            counts[c] = k
        out.append(alphabet.rack_string(counts))
    out.sort(key=lambda s: (len(s), [(-1 if ch == "?" else alphabet.code(ch)) for ch in s]))
    return out
