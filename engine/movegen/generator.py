"""Move generation API: validated inputs in, a :class:`~engine.position.moves.MoveList` out.

The work happens in the Numba kernels of :mod:`engine.movegen._allmoves` (every
move) and :mod:`engine.movegen._movegen` (best-first, cross-checks); both are GADDAG
walks (Gordon 1994) over anchors and cross-checks (Appel & Jacobson 1988). This
module checks the board, rack and lexicon (a few microseconds, before any
kernel runs) and makes one kernel call per request: tile values, open premiums
and cross-checks are worked out inside the kernel, the output rows go to a
per-thread buffer that is reused (grown when a position has more moves), and
the result is a :class:`MoveList` over those rows: a buffer at least half full
is handed to the list as it is (the next call takes a new one), otherwise the
rows are copied into an array of their own; :class:`Move` objects are made
only when asked for.
"""

from __future__ import annotations

import threading
from dataclasses import replace
from itertools import product
from typing import Callable

import numpy as np

from lexicon_tools.alphabet import Alphabet
from lexicon_tools.bundle import Lexicon

from engine.movegen import _dispatch as K  # engine.movegen._movegen (JIT), or its ahead-of-time build for the CLI
from engine.position.board import Board
from engine.position.cgp import Position
from engine.position.moves import MoveList

_INITIAL_CAPACITY = 4096  # output rows reserved per thread; grown (and kept) when a position has more
_COLUMNS = "ABCDEFGHIJKLMNO"


class _AlphabetConsts:
    """What validation and the kernels need of an alphabet, computed once per alphabet."""

    __slots__ = ("alphabet", "letters", "size", "rack_size", "rack_shape", "vals", "consts", "valid_bytes",
                 "all_mask")

    def __init__(self, a: Alphabet):
        self.alphabet = a
        self.letters = a.letters
        self.size = a.size
        self.rack_size = a.rack_size
        self.rack_shape = (a.size + 1,)
        self.vals = np.ascontiguousarray(a.values, dtype=np.int64)
        self.all_mask = np.uint32(((1 << (a.size + 1)) - 1) & ~1)
        self.consts = np.array([int(self.all_mask), a.rack_size, a.bingo_bonus], dtype=np.int64)
        self.valid_bytes = bytes(range(a.size + 1))  # tile codes 0 (empty) .. size


_CONSTS: dict[int, _AlphabetConsts] = {}


def _consts(a: Alphabet) -> _AlphabetConsts:
    hit = _CONSTS.get(id(a))
    if hit is None or hit.alphabet is not a:
        hit = _CONSTS[id(a)] = _AlphabetConsts(a)
    return hit


class _Workspace(threading.local):
    """Per-thread buffers reused by every call: output rows and scratch cross-checks."""

    def __init__(self):
        self.out = np.empty((_INITIAL_CAPACITY, K.OUT_WIDTH), dtype=np.int32)
        self.ranks = np.zeros(_INITIAL_CAPACITY, dtype=np.float64)  # best-first: rank of each kept row
        self.cs = np.zeros((2, K.N, K.N), dtype=np.uint32)
        self.xs = np.zeros((2, K.N, K.N), dtype=np.int32)
        self.hx = np.zeros((2, K.N, K.N), dtype=np.uint8)

    def grow(self, rows: int) -> np.ndarray:
        self.out = np.empty((max(rows, 2 * self.out.shape[0]), K.OUT_WIDTH), dtype=np.int32)
        self.ranks = np.zeros(self.out.shape[0], dtype=np.float64)
        return self.out


_WS = _Workspace()


def _bad_tile(tiles: np.ndarray, size: int) -> str:
    r, c = np.argwhere(tiles > size)[0]
    return f"board square {r + 1}{_COLUMNS[c]}: tile code {tiles[r, c]} is not a letter (1..{size})"


_SHAPE = (K.N, K.N)
_U8, _BOOL, _I32 = np.dtype(np.uint8), np.dtype(np.bool_), np.dtype(np.int32)


def _check_inputs(board: Board, rack, lexicon: Lexicon):
    """Validate a request in a few microseconds; returns ``(alphabet constants, rack array)``.

    (Written for a cold call: few Python calls, dtypes compared by identity first.)

    Raises:
        ValueError: lexicon of another alphabet, board arrays of the wrong
            shape or dtype, a tile code that is not a letter (names the
            square), a rack that is not a counts array of 0..7 tiles.
    """
    a = board.alphabet
    k = _CONSTS.get(id(a))
    if k is None or k.alphabet is not a:
        k = _consts(a)
    la = getattr(lexicon, "alphabet", None)
    if la is None or getattr(lexicon, "graph", None) is None:
        raise ValueError(f"lexicon must be a loaded Lexicon, got {type(lexicon).__name__}")
    if la is not a and la.letters != k.letters:
        raise ValueError(f"lexicon {lexicon.path} uses the {la.name} alphabet, the board {a.name}")
    t = board.tiles
    if type(t) is not np.ndarray or t.shape != _SHAPE or (t.dtype is not _U8 and t.dtype != _U8):
        raise ValueError(f"board tiles must be a uint8 ({K.N}, {K.N}) array")
    if t.tobytes().translate(None, k.valid_bytes):
        raise ValueError(_bad_tile(t, k.size))
    bl = board.blanks
    if type(bl) is not np.ndarray or bl.shape != _SHAPE or (bl.dtype is not _BOOL and bl.dtype != _BOOL):
        raise ValueError(f"board blanks must be a bool ({K.N}, {K.N}) array")
    if type(rack) is not np.ndarray:
        rack = np.asarray(rack)
    if rack.shape != k.rack_shape or rack.dtype.kind not in "iu":
        raise ValueError(f"rack must be an integer counts array of shape ({k.size + 1},), "
                         f"got {rack.dtype} {rack.shape}")
    counts = rack.tolist()
    if min(counts) < 0 or sum(counts) > k.rack_size:
        raise ValueError(f"rack must hold 0..{k.rack_size} tiles (no negative counts), got {counts}")
    if rack.dtype is not _I32 and rack.dtype != _I32:
        rack = rack.astype(np.int32)
    return k, rack


_LAYOUTS: dict[int, tuple] = {}
"""Layouts already checked by :func:`_layout`: ``id -> (layout, letter_mult, word_mult)`` (a :class:`Layout` is
frozen, so its arrays' shape and dtype cannot change after the check)."""


def _layout(board: Board):
    """The premium layout's ``(letter_mult, word_mult)`` arrays, checked (15, 15) of multipliers 1..3."""
    lay = board.layout
    hit = _LAYOUTS.get(id(lay))
    if hit is not None and hit[0] is lay:
        return hit[1], hit[2]
    lm, wm = lay.letter_mult, lay.word_mult
    if (type(lm) is not np.ndarray or type(wm) is not np.ndarray or lm.shape != _SHAPE or wm.shape != _SHAPE
            or (lm.dtype is not _U8 and lm.dtype != _U8) or (wm.dtype is not _U8 and wm.dtype != _U8)):
        raise ValueError(f"board layout {getattr(lay, 'name', '?')!r}: premiums must be uint8 ({K.N}, {K.N}) arrays")
    if len(_LAYOUTS) >= 64:  # layouts made on the fly: keep the table small
        _LAYOUTS.clear()
    _LAYOUTS[id(lay)] = (lay, lm, wm)  # the reference keeps the id from being reused
    return lm, wm


def _checks_args(checks, ws):
    """``(cs, xs, hx, have_checks)`` for a kernel: the caller's checks or the scratch ones."""
    if checks is None:
        return ws.cs, ws.xs, ws.hx, False
    if not isinstance(checks, CrossChecks):
        raise ValueError(f"checks must be CrossChecks, got {type(checks).__name__}")
    return checks.cs, checks.xs, checks.hx, True


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
        k, _ = _check_inputs(board, np.zeros(board.alphabet.size + 1, dtype=np.int32), lexicon)
        self.lexicon = lexicon
        self._all = k.all_mask
        self.cs = np.zeros((2, K.N, K.N), dtype=np.uint32)
        self.xs = np.zeros((2, K.N, K.N), dtype=np.int32)
        self.hx = np.zeros((2, K.N, K.N), dtype=np.uint8)
        lmult, wmult = _layout(board)
        K.cross_checks_of(lexicon.graph, board.tiles, board.blanks, lmult, wmult, k.vals, k.consts, self.cs, self.xs,
                          self.hx)

    def update(self, board: Board, tiles) -> None:
        """Recompute after ``tiles`` (iterable of ``(row, col, ...)``) were placed on ``board``."""
        rows = np.zeros(K.N, dtype=np.uint8)
        cols = np.zeros(K.N, dtype=np.uint8)
        for t in tiles:
            rows[t[0]] = 1
            cols[t[1]] = 1
        K.update_checks_of(self.lexicon.graph, board.tiles, board.blanks, _consts(board.alphabet).vals,
                           _consts(board.alphabet).consts, self.cs, self.xs, self.hx, rows, cols)

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
    k, rack = _check_inputs(board, rack, lexicon)
    ws = _WS
    if checks is None:
        cs, xs, hx, have = ws.cs, ws.xs, ws.hx, False
    else:
        cs, xs, hx, have = _checks_args(checks, ws)
    lmult, wmult = _layout(board)
    return _all_moves(ws, lexicon.graph, board, k, rack, lmult, wmult, cs, xs, hx, have)


def _all_moves(ws, graph, board, k, rack, lmult, wmult, cs, xs, hx, have) -> MoveList:
    """The all-moves kernel on checked arguments, into the thread's buffer (grown when short)."""
    out = ws.out
    n = K.movegen_all(graph, board.tiles, board.blanks, lmult, wmult, k.vals, k.consts, rack, cs, xs, hx, have, out)
    if n > out.shape[0]:
        out = ws.grow(n)
        n = K.movegen_all(graph, board.tiles, board.blanks, lmult, wmult, k.vals, k.consts, rack, cs, xs, hx, have,
                          out)
    if 2 * n >= out.shape[0]:
        # a well-filled buffer becomes the list's rows (no copy; copying 4,000 rows costs ~15 µs)
        # and the next call gets a new one
        ws.out = np.empty_like(out)
        return MoveList(out[:n], board, rack.copy())
    return MoveList(out[:n].copy(), board, rack.copy())


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
    function is given. Anchors (and their spans) are walked in the order of an
    upper bound on their moves' rank (MAGPIE's "shadow" idea; the bounds are
    described in :func:`engine.movegen._movegen.generate_best_checked`) until none can
    beat the ``n``-th best found. Ties are broken by notation, so the result
    equals the top ``n`` of the full list ranked the same way.

    Cost: one kernel call (cross-checks included unless ``checks`` is
    given); only the returned moves become Python objects.

    Returns:
        list of up to ``n`` :class:`~engine.position.moves.Move`, best first (with
        ``equity`` set when ranked by equity).

    Raises:
        ValueError: as :func:`generate_moves`, or ``n < 1``.
    """
    ml, eq = _best_walk(board, rack, lexicon, n, checks,
                        None if leave_value is None else leave_arrays(_check_inputs(board, rack, lexicon)[1],
                                                                      leave_value))
    if leave_value is None:
        if len(ml) <= 4 * n + 8:
            # the kept rows are the top n and the ties of the n-th (an empty board's across / down
            # twins, a blank as several letters): ties by notation, Move objects only for the n
            scores = ml.scores.tolist()
            order = list(range(len(scores)))
            if len(order) > 1:
                order.sort(key=lambda i: (-scores[i], ml.notation(i)))
            return [ml.move(i) for i in order[:n]]
        return ml.top(n)
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
    return _best_walk(board, rack, lexicon, n, checks, leaves)[0]


def best_move_list_ranked(board: Board, rack: np.ndarray, lexicon: Lexicon, n: int, checks, leaves: tuple,
                          floor: float = -np.inf):
    """:func:`best_move_list` for a rack already checked by :func:`_check_inputs` (its int32
    result, with the same board and lexicon) and leave arrays made by this package's kernels
    (neither is checked again).

    ``floor``: a rank the caller holds another way (the ``n``-th best
    exchange): only the moves ranking at least ``floor`` are sure to be
    found (see :func:`engine.movegen._movegen.generate_best_checked`).

    Returns:
        ``(MoveList, ranks)``: the kept moves (the top ``n`` and the moves tied
        with the last of them, of those reaching ``floor``) and float64 their
        rank values (score + leave value).
    """
    return _best_walk(board, rack, lexicon, n, checks, leaves, trusted=True, floor=float(floor))


_NO_LEAVES: dict[int, tuple] = {}
_NO_WORDMAP = np.zeros(0, dtype=np.uint64)
_NO_WORDMAP.setflags(write=False)
_WORDMAPS: dict[int, tuple] = {}


def word_map(lexicon: Lexicon) -> np.ndarray:
    """The word map of a lexicon's graph for the best-first bounds (:mod:`engine.movegen._wordmap`), built once.

    Built on the first call per graph (about 50 ms for the 480,788-word default
    list, 8 MiB) and kept for the process. With the ahead-of-time compiled
    kernels of the command line (no Numba in the process) it is the empty
    table, which turns the word-map bounds off (same moves, looser bounds).
    """
    g = lexicon.graph
    hit = _WORDMAPS.get(id(g))
    if hit is not None and hit[0] is g:
        return hit[1]
    if K.aot_active():
        return _NO_WORDMAP
    from engine.movegen._wordmap import WM_RAND, build_wordmap

    table = build_wordmap(g, WM_RAND)
    table.setflags(write=False)
    _WORDMAPS[id(g)] = (g, table)
    return table


def _no_leaves(size: int) -> tuple:
    """Zero leave arrays (rank by score) for racks of ``size`` tile codes, made once."""
    hit = _NO_LEAVES.get(size)
    if hit is None:
        hit = _NO_LEAVES[size] = (np.zeros(size, dtype=np.int64), np.zeros(1), np.zeros(8))
        for a in hit:
            a.setflags(write=False)
    return hit


def best_equity_rows(board: Board, rack: np.ndarray, lexicon: Lexicon, n: int, checks, table_args: tuple,
                     with_exchanges: bool):
    """The best-first walk ranked by equity with the leave arrays made in the same kernel call
    (:func:`engine.movegen._movegen.movegen_best_equity`), for :func:`engine.game.equity.best_equity`.

    Args:
        rack: int32 counts already checked by :func:`_check_inputs` (same board and lexicon).
        table_args: ``(values, H, cap, P, tile_values, scale, endgame, out_bonus,
            stuck_penalty, seven)`` of the leave table and the equity rules (``out_bonus``
            NaN: worked out from the board).
        with_exchanges: exchanges are allowed (the ``n``-th best is the search's floor).

    Returns:
        ``(MoveList, ranks, radix, lv)``: as :func:`best_move_list_ranked`, and the leave arrays.
    """
    k = _consts(board.alphabet)
    ws = _WS
    cs, xs, hx, have = _checks_args(checks, ws)
    lmult, wmult = _layout(board)
    values, H, cap, P, tv, scale, endgame, bonus, stuck, seven = table_args
    wmap = word_map(lexicon)
    counts = board.alphabet.counts
    out = ws.out
    cnt, radix, lv = K.movegen_best_equity(lexicon.graph, board.tiles, board.blanks, lmult, wmult, k.vals, k.consts,
                                           rack, cs, xs, hx, have, values, H, cap, P, tv, counts, scale, endgame,
                                           bonus, stuck, seven, n, with_exchanges, out, wmap, ws.ranks)
    if cnt > out.shape[0]:
        out = ws.grow(cnt)
        cnt, radix, lv = K.movegen_best_equity(lexicon.graph, board.tiles, board.blanks, lmult, wmult, k.vals,
                                               k.consts, rack, cs, xs, hx, have, values, H, cap, P, tv, counts,
                                               scale, endgame, bonus, stuck, seven, n, with_exchanges, out, wmap,
                                               ws.ranks)
    return MoveList(out[:cnt].copy(), board, rack.copy()), ws.ranks[:cnt].copy(), radix, lv


def _best_walk(board, rack, lexicon, n, checks, leaves, trusted=False, floor=-np.inf):
    """``(MoveList, ranks)``: the kept rows of the best-first walk and their rank values.

    ``trusted``: ``leaves`` come from this package's own kernels (int64 radix,
    float64 ``lv`` and ``lvmax`` of the right sizes) and ``rack`` from
    :func:`_check_inputs` (its int32 result); they are not checked again.
    """
    if trusted:
        k = _consts(board.alphabet)
    else:
        k, rack = _check_inputs(board, rack, lexicon)
    if type(n) is not int and not isinstance(n, (int, np.integer)):
        raise ValueError(f"n must be an integer, got {n!r}")
    if n < 1:
        raise ValueError(f"n must be at least 1, got {n}")
    if leaves is None:
        radix, lv, lvmax = _no_leaves(rack.shape[0])
    elif trusted:
        radix, lv, lvmax = leaves
    else:
        try:
            radix, lv, lvmax = leaves
            radix = np.ascontiguousarray(radix, dtype=np.int64)
            lv = np.ascontiguousarray(lv, dtype=np.float64)
            lvmax = np.ascontiguousarray(lvmax, dtype=np.float64)
        except (TypeError, ValueError):
            radix = lv = lvmax = None
        if radix is None or radix.shape != rack.shape or lv.ndim != 1 or lvmax.shape != (8,):
            raise ValueError("leaves must be (radix (n_letters + 1,), lv (k,), lvmax (8,)) as from leave_arrays")
        need = int((radix * rack).sum())
        if need >= lv.shape[0] or (radix < 0).any():
            raise ValueError(f"lv has {lv.shape[0]} values, the rack's leaves need {need + 1}")
    ws = _WS
    cs, xs, hx, have = _checks_args(checks, ws)
    lmult, wmult = _layout(board)
    out = ws.out
    wmap = word_map(lexicon)
    cnt = K.movegen_best(lexicon.graph, board.tiles, board.blanks, lmult, wmult, k.vals, k.consts, rack, cs, xs, hx,
                         have, radix, lv, lvmax, n, out, wmap, ws.ranks, floor)
    if cnt > out.shape[0]:
        out = ws.grow(cnt)
        cnt = K.movegen_best(lexicon.graph, board.tiles, board.blanks, lmult, wmult, k.vals, k.consts, rack, cs, xs,
                             hx, have, radix, lv, lvmax, n, out, wmap, ws.ranks, floor)
    return MoveList(out[:cnt].copy(), board, rack.copy()), ws.ranks[:cnt].copy()


def generate_moves_many(positions, lexicon: Lexicon) -> list[MoveList]:
    """Every legal placement for each of many ``(board, rack)`` pairs (or :class:`Position` objects).

    The batch form of :func:`generate_moves` for a caller with many positions (a benchmark, a
    director's table of racks, an analysis of a whole game): every input is checked first, so a bad
    one is refused (its index named) before any kernel runs, and the per-call look-ups (alphabet
    constants, layout, buffer) are shared.

    Args:
        positions: iterable of :class:`Position` or ``(board, rack)`` tuples (rack as in
            :func:`generate_moves`).
        lexicon: the word list, the same for all.

    Returns:
        one :class:`MoveList` per input, in order (rows equal to :func:`generate_moves`' for it).

    Raises:
        ValueError: ``position i: <reason>`` for the first bad board or rack, as :func:`generate_moves`.
    """
    items = []
    for i, p in enumerate(positions):
        board, rack = (p.board, p.rack) if isinstance(p, Position) else p
        try:
            k, r = _check_inputs(board, rack, lexicon)
            lm, wm = _layout(board)
        except ValueError as exc:
            raise ValueError(f"position {i}: {exc}") from None
        items.append((board, k, r, lm, wm))
    ws = _WS
    return [_all_moves(ws, lexicon.graph, board, k, rack, lm, wm, ws.cs, ws.xs, ws.hx, False)
            for board, k, rack, lm, wm in items]


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


def build_aot(lexicon: Lexicon, progress=None, force: bool = False) -> bool:
    """Compile the entry kernels ahead of time (:mod:`engine.movegen._aot`) for the types this wrapper passes.

    The two entry kernels are called once through :func:`generate_moves` and :func:`best_move_list` on
    an empty board with the rack ``AB`` (JIT, from Numba's cache) while their arguments are recorded, so
    the compiled signatures are exactly the ones used; then :func:`engine.movegen._aot.build` compiles them.

    Args:
        lexicon: the lexicon whose graph type (KWG or wide) the compiled kernels take.
        progress: prints one line for the user (announcement, failure), or ``None``.
        force: compile even when the module exists (``python -m engine warmup aot --force``).

    Returns:
        True when the module was written (False: disabled, present, failed, interrupted, or the cache
        directory cannot be written).
    """
    from engine.movegen import _aot, _movegen
    from lexicon_tools._aot import enabled

    if not (_aot.needs_build() or force and enabled()):
        return False
    captured: dict = {}
    saved = {name: K.__dict__.get(name) for name in _aot.KERNELS}

    def recorder(name, f):
        def call(*args):
            captured.setdefault(name, args)
            return f(*args)
        return call

    try:
        for name in _aot.KERNELS:
            setattr(K, name, recorder(name, getattr(_movegen, name)))
        board = Board(lexicon.alphabet)
        rack = lexicon.alphabet.parse_rack("AB")
        generate_moves(board, rack, lexicon)
        best_move_list(board, rack, lexicon, 1)
    finally:
        for name, v in saved.items():
            if v is None:
                K.__dict__.pop(name, None)
            else:
                setattr(K, name, v)
    return _aot.build(captured, progress=progress, force=force)
