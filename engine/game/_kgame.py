"""Numba kernels: the whole game as arrays (board, cross-checks, bag, racks, scores, static players).

A self-play game (:func:`play_game`) and a batch of simulation rollouts
(:func:`sim_rollouts`) run here from start to end without returning to
Python. :mod:`engine.game.kernel_game` validates the inputs, prepares the arrays and
turns the move record back into :class:`engine.game.game.Turn` objects; the
Python game (:class:`engine.game.game.Game`) stays the reference: a kernel game
started from the same seed plays the same moves (``tests/game/test_kgame.py``).

State arrays (the *position*; the same dtypes as :class:`engine.movegen.generator.CrossChecks`
and :mod:`engine.movegen._movegen` use, so its kernels run on them directly):

* ``tiles`` uint8 (15, 15) tile codes, 0 = empty; ``blanks`` uint8 (15, 15) 1 for a blank;
* ``tvals`` int32 (15, 15) points of the tile on each square (0 for blanks);
* ``lm``, ``wm`` int32 (15, 15) letter / word multipliers of squares still open
  (1 under tiles); ``lm0``, ``wm0`` the layout's multipliers (to undo);
* ``cs`` uint32, ``xs`` int32, ``hx`` uint8 (2, 15, 15) cross-checks,
  cross-scores and cross-word flags (``[0]`` across in board coordinates,
  ``[1]`` down in transposed coordinates), see :func:`engine.movegen._movegen.generate_checked`;
* ``racks`` int64 (n_players, n_letters + 1) tile counts (index 0 = blanks);
  ``scores`` int64 (n_players,).

Moves are given as *placements*: int64 (7, 3) rows ``(row, col, tile)`` with
``tile = code | BLANK_FLAG`` for a blank, ``n`` of them used. Generator output
rows (layout in :mod:`engine.movegen._movegen`) convert with :func:`row_placements`.

Play and undo (for search, e.g. an endgame solver): :func:`apply_placement`
puts the tiles on the board, takes them off the rack, recomputes the
cross-checks of the touched lines only (the columns of the new tiles for
across checks, their rows for down checks) and saves those lines first into an
undo slot (``ulines`` int64 (8, 2) ``(direction, line)``, ``ucs`` uint32
(8, 15), ``uxs`` int32 (8, 15), ``uhx`` uint8 (8, 15)); :func:`undo_placement`
restores board, rack and the saved lines exactly. Scores are the caller's:
add the move's score after playing, subtract it on undo. One undo slot per
search depth (e.g. ``ucs`` of shape (depth, 8, 15) and ``ucs[d]``) makes a
make/unmake search with no allocation per node.

All moves of a position held in these arrays (e.g. for an endgame search):
``engine.movegen._movegen.generate_checked(kwg, tiles, tvals, lm, wm, rack, vals,
rack_size, bingo_bonus, cs, xs, hx, out, cnt)``; the top move:
:func:`generate_into`.

Bags:

* the game bag (:func:`bag_draw`) reproduces :class:`engine.game.game.Bag` draw for
  draw: the tiles as a list, each draw picks position ``int(random() * len)``
  and swaps it with the last, and ``random()`` is CPython's Mersenne Twister
  (``random.Random``: MT19937 seeded by ``init_by_array`` with the seed's
  32-bit words, :func:`mt_seed`, and ``genrand_res53``); returned tiles are appended at the end.
  So "the same seed" means the same ``random.Random`` state and bag list;
* the simulation bag is a fixed order (a permutation drawn by numpy in
  :mod:`engine.analysis.simulation`), drawn from the front; an exchange puts the tiles
  back behind the rest and shuffles it (Fisher-Yates) with SplitMix64
  (:func:`splitmix_next`) seeded per iteration.

Numba caches these functions keyed by this file alone, but the cached code
contains the kernels of :mod:`engine.movegen._movegen`, :mod:`engine.leaves._kernels`
and :mod:`lexicon_tools._kwg_kernels` it calls. So at import this module
hashes those files and drops its own cache entries when they changed
(:func:`lexicon_tools._numba_cache.drop_stale_cache`, over all kernel sources); they are then recompiled on first use.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from lexicon_tools import _numba_cache

from lexicon_tools import _kwg_kernels as _KWG
from lexicon_tools import _kwg_nodes as _KWN

from engine.leaves import _kernels as LK
from engine.movegen import _movegen as K
from engine.movegen import _wordmap as _WM


_numba_cache.drop_stale_cache(__file__)  # callee kernels changed -> recompile (lexicon_tools._numba_cache)

N = 15
BLANK_FLAG = K.BLANK_FLAG
OUT_WIDTH = K.OUT_WIDTH
OUT_SCORE, OUT_ROW, OUT_COL, OUT_DIR, OUT_LEN, OUT_NTILES, OUT_TILES = (
    K.OUT_SCORE, K.OUT_ROW, K.OUT_COL, K.OUT_DIR, K.OUT_LEN, K.OUT_NTILES, K.OUT_TILES)

# game meta array (int64)
M_BAGN, M_TOMOVE, M_PASSES, M_SCORELESS, M_OVER, M_REASON, M_NREC, M_MTPOS, M_FIRST, M_NTURNS, M_NLOG = range(11)
META_SIZE = 12
REASON_NONE, REASON_OUT, REASON_PASSES, REASON_AGREEMENT = 0, 1, 2, 3

# record rows (int32): one per score-pad entry
KIND_PLAY, KIND_EXCHANGE, KIND_PASS, KIND_RACK, KIND_OUT = 0, 1, 2, 3, 4
R_KIND, R_PLAYER, R_SCORE, R_TOTAL = 0, 1, 2, 3
R_MOVE = 4                      # OUT_WIDTH columns: the generator row of a play
R_RACK = R_MOVE + OUT_WIDTH     # 32 columns: the rack before the entry (counts)
R_NDRAWN = R_RACK + 32          # tiles drawn after the entry
R_DRAWN = R_NDRAWN + 1          # 7 columns: their codes in draw order
R_EXCH = R_DRAWN + 7            # 32 columns: tiles put back by an exchange (counts)
REC_WIDTH = R_EXCH + 32

# decision log rows (int32, optional): one per decision, for the leave fit (engine.game.kernel_game.DecisionLog)
L_PLAYER, L_KIND, L_RANK, L_BAG, L_SCORE, L_FACE, L_BONUS = range(7)
LOG_WIDTH = 7

# player kinds
PLAYER_SCORE, PLAYER_EQUITY = 0, 1
# equity parameter columns
E_RAMP, E_FLOOR, E_STUCK, E_SEVEN = 0, 1, 2, 3

# decisions
DEC_PLAY, DEC_EXCHANGE, DEC_PASS = 0, 1, 2

_MT_N = 624
_MT_M = 397


# ---------------------------------------------------------------------------
# Random numbers
# ---------------------------------------------------------------------------
@njit(cache=True)
def _mt_twist(mt):
    for kk in range(_MT_N):
        y = (mt[kk] & 0x80000000) | (mt[(kk + 1) % _MT_N] & 0x7FFFFFFF)
        v = mt[(kk + _MT_M) % _MT_N] ^ (y >> 1)
        if y & 1:
            v ^= 0x9908B0DF
        mt[kk] = v


@njit(cache=True)
def mt_seed(mt, meta, key):
    """Seed MT19937 as CPython's ``random.Random(seed)`` does (``init_by_array`` with ``key``:
    the 32-bit words of ``abs(seed)``, least significant first, at least one)."""
    mt[0] = 19650218
    for i in range(1, _MT_N):
        mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & 0xFFFFFFFF
    i = 1
    j = 0
    nk = key.shape[0]
    for _ in range(max(_MT_N, nk)):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + key[j] + j) & 0xFFFFFFFF
        i += 1
        j += 1
        if i >= _MT_N:
            mt[0] = mt[_MT_N - 1]
            i = 1
        if j >= nk:
            j = 0
    for _ in range(_MT_N - 1):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & 0xFFFFFFFF
        i += 1
        if i >= _MT_N:
            mt[0] = mt[_MT_N - 1]
            i = 1
    mt[0] = 0x80000000
    meta[M_MTPOS] = _MT_N


@njit(cache=True)
def mt_uint32(mt, meta):
    """Next 32-bit output of MT19937 (state ``mt`` int64 (624,), position ``meta[M_MTPOS]``)."""
    if meta[M_MTPOS] >= _MT_N:
        _mt_twist(mt)
        meta[M_MTPOS] = 0
    y = mt[meta[M_MTPOS]]
    meta[M_MTPOS] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y & 0xFFFFFFFF


@njit(cache=True)
def mt_random(mt, meta):
    """CPython's ``random.random()``: a float in [0, 1) with 53 random bits."""
    a = mt_uint32(mt, meta) >> 5
    b = mt_uint32(mt, meta) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def splitmix_next(state):
    """SplitMix64 (Steele, Lea, Flood 2014): next uint64 of ``state`` (uint64 (1,), advanced)."""
    state[0] += np.uint64(0x9E3779B97F4A7C15)
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def shuffle_tiles(arr, n, state):
    """Fisher-Yates shuffle of ``arr[:n]`` in place with :func:`splitmix_next` (index = draw mod (i + 1))."""
    for i in range(n - 1, 0, -1):
        j = np.int64(splitmix_next(state) % np.uint64(i + 1))
        t = arr[i]
        arr[i] = arr[j]
        arr[j] = t


# ---------------------------------------------------------------------------
# The game bag (engine.game.game.Bag, draw for draw)
# ---------------------------------------------------------------------------
@njit(cache=True)
def bag_draw(bag, meta, mt, n, rack, drawn):
    """Draw up to ``n`` tiles as :meth:`engine.game.game.Bag.draw` does; add them to ``rack``.

    Args:
        bag: int64 (>= 102,) the bag's tile list, ``meta[M_BAGN]`` of them used.
        meta, mt: game meta array and MT19937 state (see :func:`mt_random`).
        n: tiles wanted (fewer when the bag runs out).
        rack: int64 counts, incremented (pass a scratch array to only look).
        drawn: int64 (>= n,) receives the codes in draw order.

    Returns:
        the number of tiles drawn.
    """
    k = 0
    while k < n and meta[M_BAGN] > 0:
        ln = meta[M_BAGN]
        i = np.int64(mt_random(mt, meta) * ln)
        t = bag[i]
        bag[i] = bag[ln - 1]
        bag[ln - 1] = t
        meta[M_BAGN] = ln - 1
        rack[t] += 1
        drawn[k] = t
        k += 1
    return k


@njit(cache=True)
def bag_put_back(bag, meta, code):
    """Append one tile to the game bag (:meth:`engine.game.game.Bag.put_back`)."""
    bag[meta[M_BAGN]] = code
    meta[M_BAGN] += 1


# ---------------------------------------------------------------------------
# Play and undo
# ---------------------------------------------------------------------------
@njit(cache=True)
def row_placements(row, pl):
    """Placements ``(row, col, tile)`` of one generator output row into ``pl`` int64 (7, 3); returns their number."""
    r0 = row[OUT_ROW]
    c0 = row[OUT_COL]
    dr = 0 if row[OUT_DIR] == 0 else 1
    dc = 1 - dr
    n = 0
    for k in range(row[OUT_LEN]):
        t = row[OUT_TILES + k]
        if t != 0:
            pl[n, 0] = r0 + dr * k
            pl[n, 1] = c0 + dc * k
            pl[n, 2] = t
            n += 1
    return n


@njit(cache=True)
def apply_placement(kwg, all_mask, vals, tiles, blanks, tvals, lm, wm, cs, xs, hx, rack, pl, n,
                    ulines, ucs, uxs, uhx):
    """Play placements ``pl[:n]``: tiles on the board, off ``rack``, cross-checks of the touched lines updated.

    The lines whose cross-checks change (``cs[0][:, col]`` for each column
    and ``cs[1][:, row]`` for each row holding a new tile, likewise ``xs``
    and ``hx``) are saved into the undo slot first. The squares must be
    empty and the tiles on the rack (the caller's move generator guarantees it).

    Returns:
        the number of saved lines (pass it to :func:`undo_placement`).
    """
    rows = np.zeros(N, dtype=np.uint8)
    cols = np.zeros(N, dtype=np.uint8)
    for i in range(n):
        rows[pl[i, 0]] = 1
        cols[pl[i, 1]] = 1
    nl = 0
    for d in range(2):
        mask = cols if d == 0 else rows
        for k in range(N):
            if mask[k]:
                ulines[nl, 0] = d
                ulines[nl, 1] = k
                for j in range(N):
                    ucs[nl, j] = cs[d, j, k]
                    uxs[nl, j] = xs[d, j, k]
                    uhx[nl, j] = hx[d, j, k]
                nl += 1
    for i in range(n):
        r = pl[i, 0]
        c = pl[i, 1]
        t = pl[i, 2]
        if t & BLANK_FLAG:
            code = t & ~BLANK_FLAG
            blanks[r, c] = 1
            tvals[r, c] = 0
            rack[0] -= 1
        else:
            code = t
            blanks[r, c] = 0
            tvals[r, c] = vals[code]
            rack[code] -= 1
        tiles[r, c] = code
        lm[r, c] = 1
        wm[r, c] = 1
    K.update_cross_checks(kwg, tiles, tvals, all_mask, cs, xs, hx, rows, cols)
    return nl


@njit(cache=True)
def undo_placement(lm0, wm0, tiles, blanks, tvals, lm, wm, cs, xs, hx, rack, pl, n, nl, ulines, ucs, uxs, uhx):
    """Take placements ``pl[:n]`` back: squares emptied (premiums open again), tiles back on ``rack``,
    the ``nl`` saved cross-check lines restored (inverse of :func:`apply_placement`)."""
    for i in range(n):
        r = pl[i, 0]
        c = pl[i, 1]
        t = pl[i, 2]
        if t & BLANK_FLAG:
            rack[0] += 1
        else:
            rack[t] += 1
        tiles[r, c] = 0
        blanks[r, c] = 0
        tvals[r, c] = 0
        lm[r, c] = lm0[r, c]
        wm[r, c] = wm0[r, c]
    for q in range(nl):
        d = ulines[q, 0]
        k = ulines[q, 1]
        for j in range(N):
            cs[d, j, k] = ucs[q, j]
            xs[d, j, k] = uxs[q, j]
            hx[d, j, k] = uhx[q, j]


# ---------------------------------------------------------------------------
# Choosing a move: ties by notation as engine.position.moves.MoveList.top does
# ---------------------------------------------------------------------------
@njit(cache=True)
def _put_number(key, m, v):
    if v >= 10:
        key[m] = 48 + v // 10
        m += 1
    key[m] = 48 + v % 10
    return m + 1


@njit(cache=True)
def notation_key(row, tiles, blanks, upper, lower, key):
    """Unicode code points of a generator row's notation (``8H WO(R)D``, ``H8 ...``) into ``key``; returns the length.

    ``upper[t]`` / ``lower[t]`` are the code points of tile code ``t``'s letter
    (lowercase for blanks and blanks on the board). Python compares
    notations by code points, so comparing keys gives the same order.
    """
    r0 = row[OUT_ROW]
    c0 = row[OUT_COL]
    m = 0
    if row[OUT_DIR] == 0:
        m = _put_number(key, m, r0 + 1)
        key[m] = 65 + c0
        m += 1
        dr, dc = 0, 1
    else:
        key[m] = 65 + c0
        m += 1
        m = _put_number(key, m, r0 + 1)
        dr, dc = 1, 0
    key[m] = 32
    m += 1
    inside = False
    for k in range(row[OUT_LEN]):
        t = row[OUT_TILES + k]
        if t == 0:
            if not inside:
                key[m] = 40
                m += 1
                inside = True
            r = r0 + dr * k
            c = c0 + dc * k
            key[m] = lower[tiles[r, c]] if blanks[r, c] else upper[tiles[r, c]]
        else:
            if inside:
                key[m] = 41
                m += 1
                inside = False
            key[m] = lower[t & ~BLANK_FLAG] if t & BLANK_FLAG else upper[t]
        m += 1
    if inside:
        key[m] = 41
        m += 1
    return m


@njit(cache=True)
def _key_less(a, na, b, nb):
    for i in range(min(na, nb)):
        if a[i] != b[i]:
            return a[i] < b[i]
    return na < nb


@njit(cache=True)
def _used_index(row, radix):
    u = 0
    for k in range(row[OUT_LEN]):
        t = row[OUT_TILES + k]
        if t != 0:
            u += radix[0] if t & BLANK_FLAG else radix[t]
    return u


@njit(cache=True)
def best_row(out, n, radix, lv, tiles, blanks, upper, lower, kbest, kcur):
    """Index of the row of ``out[:n]`` with the highest ``score + lv[used tiles]``, ties by notation.

    Returns:
        ``(index, value)``; ``(-1, 0.0)`` for no rows.
    """
    best = -1
    bval = 0.0
    nb = 0
    for i in range(n):
        v = float(out[i, OUT_SCORE]) + lv[_used_index(out[i], radix)]
        if best < 0 or v > bval:
            best = i
            bval = v
            nb = -1
        elif v == bval:
            if nb < 0:
                nb = notation_key(out[best], tiles, blanks, upper, lower, kbest)
            nc = notation_key(out[i], tiles, blanks, upper, lower, kcur)
            if _key_less(kcur, nc, kbest, nb):
                best = i
                for j in range(nc):
                    kbest[j] = kcur[j]
                nb = nc
    return best, bval


@njit(cache=True)
def _exchange_key(rack, radix, idx, upper, key):
    rem = idx
    m = 0
    blanks = 0
    for c in range(rack.shape[0]):
        if rack[c] > 0:
            base = rack[c] + 1
            k = rem % base
            rem //= base
            if c == 0:
                blanks = k
            else:
                for _ in range(k):
                    key[m] = upper[c]
                    m += 1
    for _ in range(blanks):
        key[m] = 63
        m += 1
    return m


@njit(cache=True)
def best_exchange(rack, radix, lv, upper, kbest, kcur):
    """The exchange with the best leave term ``lv[put back]`` (index >= 1), ties by its notation ``-TILES``.

    Returns:
        ``(index, value)``; ``(-1, 0.0)`` when the rack is empty.
    """
    best = -1
    bval = 0.0
    nb = 0
    for idx in range(1, lv.shape[0]):
        v = lv[idx]
        if best < 0 or v > bval:
            best = idx
            bval = v
            nb = -1
        elif v == bval:
            if nb < 0:
                nb = _exchange_key(rack, radix, best, upper, kbest)
            nc = _exchange_key(rack, radix, idx, upper, kcur)
            if _key_less(kcur, nc, kbest, nb):
                best = idx
                for j in range(nc):
                    kbest[j] = kcur[j]
                nb = nc
    return best, bval


@njit(cache=True)
def exchange_counts(rack, idx, put):
    """Tiles put back by exchange ``idx`` (mixed-radix index of the leave arrays) into ``put``."""
    rem = idx
    for c in range(rack.shape[0]):
        put[c] = 0
        if rack[c] > 0:
            base = rack[c] + 1
            put[c] = rem % base
            rem //= base


@njit(cache=True)
def leave_scale(bag, ramp, floor):
    """:func:`engine.game.equity.leave_scale` (same floating-point operations)."""
    if bag <= 0:
        return 0.0
    if ramp <= 0:
        return 1.0
    return floor + (1.0 - floor) * min(1.0, bag / ramp)


rank_prefix = LK.rank_prefix  # the leave arrays' kernels live in engine.leaves._kernels
leave_arrays = LK.sub_leave_arrays


@njit(cache=True)
def generate_into(kwg, tiles, tvals, lm, wm, rack, vals, bingo_tiles, bingo_bonus, cs, xs, hx, radix, lv, lvmax,
                  out, cnt, wmap, floor):
    """:func:`engine.movegen._movegen.generate_best_checked` for the top move; returns the output rows
    (``out``, or a larger array when ``out`` was too small) and their number."""
    K.generate_best_checked(kwg, tiles, tvals, lm, wm, rack, vals, bingo_tiles, bingo_bonus, cs, xs, hx,
                            radix, lv, lvmax, 1, out, cnt, wmap, floor)
    n = cnt[0]
    if n > out.shape[0]:
        out = np.empty((n + 64, OUT_WIDTH), dtype=np.int32)
        K.generate_best_checked(kwg, tiles, tvals, lm, wm, rack, vals, bingo_tiles, bingo_bonus, cs, xs, hx,
                                radix, lv, lvmax, 1, out, cnt, wmap, floor)
        n = cnt[0]
    return out, n


@njit(cache=True)
def decide(kind, kwg, vals, bingo_tiles, bingo_bonus, upper, lower, tiles, blanks, tvals, lm, wm, cs, xs, hx,
           rack, bagn, allow_exchange, bonus, values, H, cap, P, eqp, tile_values, out, cnt, put, kbest, kcur, wmap):
    """A static player's choice for ``rack`` (no game-state rules: the caller applies them).

    ``kind`` :data:`PLAYER_SCORE`: the top-scoring placement (ties by
    notation). :data:`PLAYER_EQUITY`: the best of the top-equity placement
    (score + leave term of :mod:`engine.game.equity`, the leave table ``values``
    faded by :func:`leave_scale`, the end-of-bag rule with ``bonus`` when
    ``bagn == 0``) and, when ``allow_exchange``, the best exchange (its
    leave term); ties: placement first.

    Returns:
        ``(play_row, play_value, exch_value, has_exchange, rows)``: index of the
        best placement in ``rows`` (-1: none) and its value, the best exchange's
        value (tiles in ``put``; only for equity players). The score player's
        exchange (the whole rack) is the caller's rule. With an exchange the
        placements are searched only down to its value (the best-first
        ``floor``): ``play_row`` is then -1 or ``play_value`` below the
        exchange's only when no placement reaches it, so the choice is the same.
    """
    if kind == PLAYER_SCORE:
        radix = np.zeros(rack.shape[0], dtype=np.int64)
        lv = np.zeros(1)
        lvmax = np.zeros(8)
    else:
        scale = leave_scale(bagn, eqp[E_RAMP], eqp[E_FLOOR])
        radix, lv, lvmax = leave_arrays(rack, values, H, cap, P, scale, 1 if bagn <= 0 else 0, bonus,
                                        eqp[E_STUCK], tile_values, eqp[E_SEVEN])
    has_x = False
    xv = 0.0
    floor = -np.inf
    if kind == PLAYER_EQUITY and allow_exchange:
        xi, xv = best_exchange(rack, radix, lv, upper, kbest, kcur)
        if xi >= 1:
            has_x = True
            exchange_counts(rack, xi, put)
            floor = xv  # a placement below the best exchange is never chosen: the search starts there
    rows, n = generate_into(kwg, tiles, tvals, lm, wm, rack, vals, bingo_tiles, bingo_bonus, cs, xs, hx, radix, lv,
                            lvmax, out, cnt, wmap, floor)
    bi, bv = best_row(rows, n, radix, lv, tiles, blanks, upper, lower, kbest, kcur)
    return bi, bv, xv, has_x, rows


@njit(cache=True)
def rack_value(rack, vals):
    """Sum of the tile values of a rack (blanks 0)."""
    s = 0
    for c in range(rack.shape[0]):
        s += rack[c] * vals[c]
    return s


# ---------------------------------------------------------------------------
# The self-play game
# ---------------------------------------------------------------------------
@njit(cache=True)
def _record(rec, meta, kind, player, score, total, rack):
    i = meta[M_NREC]
    meta[M_NREC] = i + 1
    for j in range(REC_WIDTH):
        rec[i, j] = 0
    rec[i, R_KIND] = kind
    rec[i, R_PLAYER] = player
    rec[i, R_SCORE] = score
    rec[i, R_TOTAL] = total
    for c in range(rack.shape[0]):
        rec[i, R_RACK + c] = rack[c]
    return i


@njit(cache=True)
def _log(dlog, meta, player, kind, rank, bag, score, face, bonus):
    i = meta[M_NLOG]
    meta[M_NLOG] = i + 1
    dlog[i, L_PLAYER] = player
    dlog[i, L_KIND] = kind
    dlog[i, L_RANK] = rank
    dlog[i, L_BAG] = bag
    dlog[i, L_SCORE] = score
    dlog[i, L_FACE] = face
    dlog[i, L_BONUS] = int(bonus)


@njit(cache=True)
def _finish_out(rec, meta, racks, scores, vals, p):
    n = racks.shape[0]
    total = 0
    left = np.zeros(racks.shape[1], dtype=np.int64)
    for i in range(1, n):
        q = (p + i) % n
        v = rack_value(racks[q], vals)
        total += v
        scores[q] -= v
        _record(rec, meta, KIND_RACK, q, -v, scores[q], racks[q])
        for c in range(racks.shape[1]):
            left[c] += racks[q, c]
    scores[p] += total
    _record(rec, meta, KIND_OUT, p, total, scores[p], left)
    meta[M_OVER] = 1
    meta[M_REASON] = REASON_OUT


@njit(cache=True)
def _finish_passes(rec, meta, racks, scores, vals, reason):
    n = racks.shape[0]
    start = (meta[M_TOMOVE] + 1) % n
    for i in range(n):
        q = (start + i) % n
        v = rack_value(racks[q], vals)
        nt = 0
        for c in range(racks.shape[1]):
            nt += racks[q, c]
        if nt > 0:
            scores[q] -= v
            _record(rec, meta, KIND_RACK, q, -v, scores[q], racks[q])
    meta[M_OVER] = 1
    meta[M_REASON] = reason


@njit(cache=True)
def start_game(bag, meta, mt, racks, rack_size):
    """Who starts and the first racks, as :class:`engine.game.game.Game` does (:func:`engine.game.game.draw_for_start`,
    then racks refilled from the starting player on). Sets ``meta[M_FIRST]`` and ``meta[M_TOMOVE]``.

    Returns:
        False when the draw keeps tying for 10,000 rounds (Game raises then).
    """
    n = racks.shape[0]
    cont = np.arange(n)
    nc = n
    drawn = np.zeros(max(n, rack_size), dtype=np.int64)
    scratch = np.zeros(racks.shape[1], dtype=np.int64)
    first = -1
    for _ in range(10_000):
        k = bag_draw(bag, meta, mt, nc, scratch, drawn)
        for i in range(k):
            scratch[drawn[i]] -= 1
            bag_put_back(bag, meta, drawn[i])
        low = drawn[0]
        for i in range(k):
            low = min(low, drawn[i])
        m = 0
        for i in range(k):
            if drawn[i] == low:
                cont[m] = cont[i]
                m += 1
        nc = m
        if nc == 1:
            first = cont[0]
            break
    if first < 0:
        return False
    meta[M_FIRST] = first
    meta[M_TOMOVE] = first
    for i in range(n):
        p = (first + i) % n
        bag_draw(bag, meta, mt, rack_size, racks[p], drawn)
    return True


@njit(cache=True)
def play_game(kwg, vals, all_mask, bingo_tiles, bingo_bonus, upper, lower, lm0, wm0,
              tiles, blanks, tvals, lm, wm, cs, xs, hx, racks, scores, bag, meta, mt,
              kinds, values, H, cap, P, eqp, tile_values, min_bag, end_pass_rounds, max_turns, rec, wmap, dlog):
    """Play a game from its current state to the end with static players (German home/tournament rules).

    Seat ``p`` plays as ``kinds[p]``: :data:`PLAYER_SCORE` (the player of
    :func:`engine.game.selfplay.play_game`: top score, else exchange the whole rack
    while the bag holds ``min_bag`` tiles and the game is not stuck, else pass)
    or :data:`PLAYER_EQUITY` (:func:`engine.game.equity.choose` with leave values
    ``values[p]`` and parameters ``eqp[p]``; with the bag empty the going-out
    bonus is twice the other racks' value). Turns and settlement follow
    :class:`engine.game.game.Game`: an exchange draws first, then puts the tiles
    back; a player who goes out with the bag empty gains the others' rack
    values, which they lose; ``end_pass_rounds * n`` passes in a row end the
    game, each player losing their rack's value; after ``max_turns`` entries
    the players agree to end it (same settlement).

    Args:
        tiles .. mt: the game state (module docstring), modified in place;
            ``meta`` holds bag size, player to move, pass counters, the end.
        rec: int32 (max_turns + n + 1, REC_WIDTH) receives one row per
            score-pad entry (``meta[M_NREC]`` rows).
        wmap: uint64 word map of the lexicon (:func:`engine.movegen._wordmap.build_wordmap`;
            empty: none) for the best-first bounds.
        dlog: int32 (rows, LOG_WIDTH); with ``rows >= max_turns`` one row per
            decision (``meta[M_NLOG]`` rows) for the leave fit: mover, kind
            (:data:`DEC_PLAY` ...), rank of the leave kept (-1 empty, -3 pass),
            bag size before the move, score, face value of the tiles kept and
            the going-out bonus (twice the other racks' value, bag empty);
            ``rows == 0``: no log.
    """
    n = racks.shape[0]
    T = racks.shape[1]
    out = np.empty((4096, OUT_WIDTH), dtype=np.int32)
    cnt = np.zeros(1, dtype=np.int64)
    put = np.zeros(T, dtype=np.int64)
    kbest = np.zeros(64, dtype=np.int64)
    kcur = np.zeros(64, dtype=np.int64)
    pl = np.zeros((7, 3), dtype=np.int64)
    ulines = np.zeros((8, 2), dtype=np.int64)
    ucs = np.zeros((8, N), dtype=np.uint32)
    uxs = np.zeros((8, N), dtype=np.int32)
    uhx = np.zeros((8, N), dtype=np.uint8)
    drawn = np.zeros(8, dtype=np.int64)
    stuck = end_pass_rounds * n
    while meta[M_OVER] == 0:
        p = meta[M_TOMOVE]
        rack = racks[p]
        bagn = meta[M_BAGN]
        bonus = 0.0
        if bagn <= 0:
            s = 0
            for q in range(n):
                if q != p:
                    s += rack_value(racks[q], vals)
            bonus = 2.0 * s
        allow_x = bagn >= min_bag
        bi, bv, xv, has_x, rows = decide(kinds[p], kwg, vals, bingo_tiles, bingo_bonus, upper, lower, tiles, blanks,
                                         tvals, lm, wm, cs, xs, hx, rack, bagn, allow_x, bonus, values[p], H, cap,
                                         P, eqp[p], tile_values, out, cnt, put, kbest, kcur, wmap)
        dec = DEC_PASS
        if kinds[p] == PLAYER_SCORE:
            if bi >= 0:
                dec = DEC_PLAY
            elif allow_x and meta[M_SCORELESS] < stuck:
                dec = DEC_EXCHANGE
                for c in range(T):
                    put[c] = rack[c]
        else:
            if bi >= 0 and (not has_x or bv >= xv):
                dec = DEC_PLAY
            elif has_x:
                dec = DEC_EXCHANGE
                if meta[M_SCORELESS] >= stuck - 1:
                    dec = DEC_PLAY if bi >= 0 else DEC_PASS
        if dec == DEC_PLAY:
            score = rows[bi, OUT_SCORE]
            i = _record(rec, meta, KIND_PLAY, p, score, 0, rack)
            for j in range(OUT_WIDTH):
                rec[i, R_MOVE + j] = rows[bi, j]
            np_ = row_placements(rows[bi], pl)
            apply_placement(kwg, all_mask, vals, tiles, blanks, tvals, lm, wm, cs, xs, hx, rack, pl, np_,
                            ulines, ucs, uxs, uhx)
            if dlog.shape[0] > 0:
                _log(dlog, meta, p, DEC_PLAY, LK.rank_counts(rack, H, cap), bagn, score, rack_value(rack, vals), bonus)
            need = bingo_tiles
            for c in range(T):
                need -= rack[c]
            k = bag_draw(bag, meta, mt, need, rack, drawn)
            rec[i, R_NDRAWN] = k
            for j in range(k):
                rec[i, R_DRAWN + j] = drawn[j]
            scores[p] += score
            rec[i, R_TOTAL] = scores[p]
            meta[M_PASSES] = 0
            meta[M_SCORELESS] = 0 if score else meta[M_SCORELESS] + 1
            meta[M_NTURNS] += 1
            left = 0
            for c in range(T):
                left += rack[c]
            if meta[M_BAGN] == 0 and left == 0:
                _finish_out(rec, meta, racks, scores, vals, p)
            else:
                meta[M_TOMOVE] = (p + 1) % n
        elif dec == DEC_EXCHANGE:
            i = _record(rec, meta, KIND_EXCHANGE, p, 0, scores[p], rack)
            nput = 0
            for c in range(T):
                rec[i, R_EXCH + c] = put[c]
                nput += put[c]
            if dlog.shape[0] > 0:
                kept = rack - put
                _log(dlog, meta, p, DEC_EXCHANGE, LK.rank_counts(kept, H, cap), bagn, 0, rack_value(kept, vals), bonus)
            scratch = np.zeros(T, dtype=np.int64)
            k = bag_draw(bag, meta, mt, nput, scratch, drawn)
            rec[i, R_NDRAWN] = k
            for j in range(k):
                rec[i, R_DRAWN + j] = drawn[j]
            for c in range(T):
                rack[c] += scratch[c] - put[c]
                for _ in range(put[c]):
                    bag_put_back(bag, meta, c)
            meta[M_PASSES] = 0
            meta[M_SCORELESS] += 1
            meta[M_NTURNS] += 1
            meta[M_TOMOVE] = (p + 1) % n
        else:
            _record(rec, meta, KIND_PASS, p, 0, scores[p], rack)
            if dlog.shape[0] > 0:
                _log(dlog, meta, p, DEC_PASS, -3, bagn, 0, rack_value(rack, vals), bonus)
            meta[M_PASSES] += 1
            meta[M_SCORELESS] += 1
            meta[M_NTURNS] += 1
            if meta[M_PASSES] >= stuck:
                _finish_passes(rec, meta, racks, scores, vals, REASON_PASSES)
            else:
                meta[M_TOMOVE] = (p + 1) % n
        if meta[M_OVER] == 0 and meta[M_NREC] >= max_turns:
            _finish_passes(rec, meta, racks, scores, vals, REASON_AGREEMENT)


# ---------------------------------------------------------------------------
# Simulation rollouts
# ---------------------------------------------------------------------------
@njit(cache=True)
def equity_leave_term(leave, bag, bonus, values, H, cap, eqp, tile_values):
    """:func:`engine.game.equity.leave_term` of a leave (int64 counts) kept with ``bag`` tiles left before the move."""
    n = 0
    for c in range(leave.shape[0]):
        n += leave[c]
    if bag <= 0:
        if n == 0:
            return bonus
        face = 0.0
        for c in range(leave.shape[0]):
            face += leave[c] * tile_values[c]
        return -(2.0 * face + eqp[E_STUCK])
    if n == 0:
        return 0.0
    if n > LK.MAXLEN:
        return eqp[E_SEVEN]
    r = LK.rank_counts(leave, H, cap)
    v = float(values[r]) if r >= 0 else 0.0
    return leave_scale(bag, eqp[E_RAMP], eqp[E_FLOOR]) * v


@njit(cache=True)
def sim_rollouts(kwg, vals, all_mask, bingo_tiles, bingo_bonus, upper, lower,
                 tiles0, blanks0, tvals0, lm0, wm0, cs0, xs0, hx0, rack0, opp0, known_opp,
                 perms, iters, seed, stream, cand_kind, cand_pl, cand_n, cand_score, cand_put, plies,
                 kind, values, H, cap, P, eqp, tile_values, min_bag, end_passes, res, wmap):
    """Simulation iterations of one candidate (:func:`engine.analysis.simulation.run_chunk`), each from the start position.

    Iteration ``i``: the bag is ``perms[i]`` (the unseen tiles in a random
    order); the opponent's rack is its first 7 tiles (or ``opp0`` when
    ``known_opp``); the candidate is played (``cand_kind`` :data:`DEC_PLAY`
    with placements ``cand_pl[:cand_n]`` worth ``cand_score``,
    :data:`DEC_EXCHANGE` putting back ``cand_put``, or :data:`DEC_PASS`); then
    ``plies`` moves by static players of ``kind`` (the simulation's players:
    no stuck rule; the score player exchanges its whole rack without a
    placement while ``min_bag`` tiles are in the bag). Tiles are drawn from
    the front of the bag; an exchange draws first, then the old tiles go
    behind the rest, which is shuffled with :func:`shuffle_tiles` seeded
    ``(seed, stream, iters[i])``. A player going out with the bag empty gains
    the other rack's value; ``end_passes`` passes in a row end the game (each
    loses their rack's value).

    Args:
        res: float64 (n, 5) per iteration: raw spread (mover minus opponent),
            spread with the leftover leave terms (equity players), 1.0 when the
            game ended, tiles left (bag and both racks), 1.0 when the mover is on turn.
        wmap: the word map, as :func:`play_game`.
    """
    T = rack0.shape[0]
    tiles = np.empty_like(tiles0)
    blanks = np.empty_like(blanks0)
    tvals = np.empty_like(tvals0)
    lm = np.empty_like(lm0)
    wm = np.empty_like(wm0)
    cs = np.empty_like(cs0)
    xs = np.empty_like(xs0)
    hx = np.empty_like(hx0)
    racks = np.zeros((2, T), dtype=np.int64)
    last = np.zeros((2, T), dtype=np.int64)
    has_last = np.zeros(2, dtype=np.int64)
    last_bag = np.zeros(2, dtype=np.int64)
    last_opp = np.zeros(2, dtype=np.int64)
    pool_n = perms.shape[1]
    bag = np.zeros(pool_n + 8, dtype=np.int64)
    tmp = np.zeros(pool_n + 8, dtype=np.int64)
    out = np.empty((4096, OUT_WIDTH), dtype=np.int32)
    cnt = np.zeros(1, dtype=np.int64)
    put = np.zeros(T, dtype=np.int64)
    kbest = np.zeros(64, dtype=np.int64)
    kcur = np.zeros(64, dtype=np.int64)
    pl = np.zeros((7, 3), dtype=np.int64)
    ulines = np.zeros((8, 2), dtype=np.int64)
    ucs = np.zeros((8, N), dtype=np.uint32)
    uxs = np.zeros((8, N), dtype=np.int32)
    uhx = np.zeros((8, N), dtype=np.uint8)
    rstate = np.zeros(1, dtype=np.uint64)
    pts = np.zeros(2, dtype=np.int64)
    for it in range(perms.shape[0]):
        tiles[:, :] = tiles0
        blanks[:, :] = blanks0
        tvals[:, :] = tvals0
        lm[:, :] = lm0
        wm[:, :] = wm0
        cs[:, :, :] = cs0
        xs[:, :, :] = xs0
        hx[:, :, :] = hx0
        rstate[0] = sim_seed(seed, stream, iters[it])
        nbag = pool_n
        for j in range(pool_n):
            bag[j] = perms[it, j]
        for c in range(T):
            racks[0, c] = rack0[c]
            racks[1, c] = 0
        if known_opp:
            for c in range(T):
                racks[1, c] = opp0[c]
            bp = 0
        else:
            k = min(bingo_tiles, nbag)
            for j in range(k):
                racks[1, bag[j]] += 1
            bp = k
        pts[0] = 0
        pts[1] = 0
        has_last[0] = 0
        has_last[1] = 0
        passes = 0
        over = False
        who = 0
        for ply in range(plies + 1):
            rack = racks[who]
            other = racks[1 - who]
            left = nbag - bp
            opp_value = rack_value(other, vals) if left == 0 else 0
            score = 0
            if ply == 0:
                dec = cand_kind
                score = cand_score
                np_ = cand_n
                for i in range(cand_n):
                    for j in range(3):
                        pl[i, j] = cand_pl[i, j]
                for c in range(T):
                    put[c] = cand_put[c]
            else:
                bonus = 2.0 * opp_value if left <= 0 else 0.0
                allow_x = left >= min_bag
                bi, bv, xv, has_x, rows = decide(kind, kwg, vals, bingo_tiles, bingo_bonus, upper, lower, tiles,
                                                 blanks, tvals, lm, wm, cs, xs, hx, rack, left, allow_x, bonus,
                                                 values, H, cap, P, eqp, tile_values, out, cnt, put, kbest, kcur,
                                                 wmap)
                dec = DEC_PASS
                if kind == PLAYER_SCORE:
                    if bi >= 0:
                        dec = DEC_PLAY
                    else:
                        nr = 0
                        for c in range(T):
                            nr += rack[c]
                        if allow_x and nr > 0:
                            dec = DEC_EXCHANGE
                            for c in range(T):
                                put[c] = rack[c]
                else:
                    if bi >= 0 and (not has_x or bv >= xv):
                        dec = DEC_PLAY
                    elif has_x:
                        dec = DEC_EXCHANGE
                if dec == DEC_PLAY:
                    score = rows[bi, OUT_SCORE]
                    np_ = row_placements(rows[bi], pl)
            if dec == DEC_PLAY:
                apply_placement(kwg, all_mask, vals, tiles, blanks, tvals, lm, wm, cs, xs, hx, rack, pl, np_,
                                ulines, ucs, uxs, uhx)
                for c in range(T):
                    last[who, c] = rack[c]
                has_last[who] = 1
                last_bag[who] = left
                last_opp[who] = opp_value
                pts[who] += score
                passes = 0
                need = bingo_tiles
                for c in range(T):
                    need -= rack[c]
                while need > 0 and bp < nbag:
                    rack[bag[bp]] += 1
                    bp += 1
                    need -= 1
                nr = 0
                for c in range(T):
                    nr += rack[c]
                if bp >= nbag and nr == 0:
                    v = rack_value(other, vals)
                    pts[who] += v
                    pts[1 - who] -= v
                    over = True
                    break
            elif dec == DEC_EXCHANGE:
                nput = 0
                for c in range(T):
                    nput += put[c]
                m = 0
                for j in range(bp + nput, nbag):
                    tmp[m] = bag[j]
                    m += 1
                for c in range(T):
                    for _ in range(put[c]):
                        tmp[m] = c
                        m += 1
                shuffle_tiles(tmp, m, rstate)
                for c in range(T):
                    rack[c] -= put[c]
                    last[who, c] = rack[c]
                for j in range(bp, min(bp + nput, nbag)):
                    rack[bag[j]] += 1
                has_last[who] = 1
                last_bag[who] = left
                last_opp[who] = opp_value
                for j in range(m):
                    bag[j] = tmp[j]
                nbag = m
                bp = 0
                passes = 0
            else:
                for c in range(T):
                    last[who, c] = rack[c]
                has_last[who] = 1
                last_bag[who] = left
                last_opp[who] = opp_value
                passes += 1
                if passes >= end_passes:
                    pts[0] -= rack_value(racks[0], vals)
                    pts[1] -= rack_value(racks[1], vals)
                    over = True
                    break
            who = 1 - who
        raw = pts[0] - pts[1]
        spread = float(raw)
        if not over and kind == PLAYER_EQUITY:
            for p in range(2):
                if has_last[p]:
                    b = last_bag[p]
                    bon = 2.0 * last_opp[p] if b <= 0 else 0.0
                    t = equity_leave_term(last[p], b, bon, values, H, cap, eqp, tile_values)
                    spread += t if p == 0 else -t
        tl = nbag - bp
        for c in range(T):
            tl += racks[0, c] + racks[1, c]
        res[it, 0] = raw
        res[it, 1] = spread
        res[it, 2] = 1.0 if over else 0.0
        res[it, 3] = tl
        res[it, 4] = 1.0 if who == 0 else 0.0


@njit(cache=True)
def sim_seed(seed, stream, iteration):
    """The SplitMix64 start state of one iteration's exchange shuffles (from the run seed, stream, iteration)."""
    s = np.zeros(1, dtype=np.uint64)
    s[0] = np.uint64(seed) ^ np.uint64(0x5DEECE66D)
    a = splitmix_next(s)
    s[0] = a ^ (np.uint64(stream) * np.uint64(0xD1B54A32D192ED03))
    b = splitmix_next(s)
    s[0] = b ^ (np.uint64(iteration) * np.uint64(0x9E3779B97F4A7C15))
    return splitmix_next(s)
