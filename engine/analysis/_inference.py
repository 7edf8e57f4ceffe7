"""Numba kernels of the rack inference (:mod:`engine.analysis.inference`).

For every possible *leave* (the tiles the opponent kept) drawn from the unseen
pool, the static equity player's best move from the full rack is found with
the game kernels (:func:`engine.game._kgame.decide`: the best-first GADDAG walk
ranked by score + leave term, and the best exchange), on the board as it was
before the opponent's move. The caller (:mod:`engine.analysis.inference`) validates
every input; these kernels see checked arrays only.

Arrays: racks and leaves are int64 counts ``(T,)`` with ``T = n_letters + 1``
(index 0 = blanks); the board arrays are those of :mod:`engine.game._kgame`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from lexicon_tools import _numba_cache

from engine.game import _kgame as KG


_numba_cache.drop_stale_cache(__file__)  # callee kernels changed -> recompile (lexicon_tools._numba_cache)


@njit(cache=True)
def _first(pool, k, cur):
    """Fill ``cur`` with the first ``k``-multiset of ``pool`` (lowest codes first); False if the pool is too small."""
    rem = k
    for c in range(pool.shape[0]):
        t = min(pool[c], rem)
        cur[c] = t
        rem -= t
    return rem == 0


@njit(cache=True)
def _next(pool, cur):
    """Advance ``cur`` to the next sub-multiset of ``pool`` of the same size; False after the last one."""
    T = pool.shape[0]
    free = 0  # room left in codes after j
    tail = 0  # tiles of cur in codes after j
    for j in range(T - 2, -1, -1):
        free += pool[j + 1] - cur[j + 1]
        tail += cur[j + 1]
        if cur[j] > 0 and free >= 1:
            cur[j] -= 1
            rem = tail + 1
            for c in range(j + 1, T):
                t = min(pool[c], rem)
                cur[c] = t
                rem -= t
            return True
    return False


@njit(cache=True)
def _choose(n, k):
    if k < 0 or k > n:
        return 0.0
    r = 1.0
    for i in range(k):
        r = r * (n - i) / (i + 1)
    return r


@njit(cache=True)
def sub_multisets(pool, k):
    """Every ``k``-tile sub-multiset of ``pool`` and the number of ways to draw it.

    Args:
        pool: int64 (T,) tile counts.
        k: tiles per multiset (0..7).

    Returns:
        ``(sets, ways)``: int64 (M, T) the multisets in a fixed order, float64
        (M,) ``prod_c C(pool[c], set[c])`` (the number of distinct ``k``-tile
        draws from the pool that give that multiset).
    """
    T = pool.shape[0]
    cur = np.zeros(T, dtype=np.int64)
    m = 0
    if _first(pool, k, cur):
        m = 1
        while _next(pool, cur):
            m += 1
    sets = np.zeros((m, T), dtype=np.int64)
    ways = np.zeros(m, dtype=np.float64)
    if m == 0:
        return sets, ways
    _first(pool, k, cur)
    for i in range(m):
        w = 1.0
        for c in range(T):
            sets[i, c] = cur[c]
            if cur[c] > 0:
                w *= _choose(pool[c], cur[c])
        ways[i] = w
        _next(pool, cur)
    return sets, ways


@njit(cache=True)
def best_values(kwg, vals, bingo_tiles, bingo_bonus, upper, lower, tiles, blanks, tvals, lm, wm, cs, xs, hx,
                base, leaves, bagn, allow_exchange, bonus, values, H, cap, P, eqp, tile_values, n_exchange,
                best, target, keep, wmap):
    """The static equity player's best value for each rack ``base + leaves[i]``, and the played move's value.

    Args:
        base: int64 (T,) tiles of the full rack that are known (the tiles the
            opponent placed; zeros for an exchange of unknown tiles).
        leaves: int64 (M, T) the unknown part of each rack.
        bagn: tiles in the bag before the move (the leave term's fade, exchanges allowed).
        allow_exchange: the static player may exchange (bag held at least 7 tiles).
        n_exchange: 0 for a placement (or an exchange of known tiles: ``base``);
            ``n > 0`` for an exchange of ``n`` unknown tiles.
        best: float64 (M,) out: the best equity (placement or exchange) of each rack.
        target: float64 (M,) out: for ``n_exchange == 0`` the leave term of
            ``leaves[i]`` (the caller adds the move's score); else the value of
            the best exchange of exactly ``n_exchange`` tiles (``-inf``: none).
        keep: int64 (M, T) out: for ``n_exchange > 0`` the tiles that best
            exchange keeps; else a copy of ``leaves``.
        wmap: the lexicon's word map for the best-first bounds (:func:`engine.movegen.generator.word_map`).
    """
    T = base.shape[0]
    rack = np.zeros(T, dtype=np.int64)
    out = np.empty((4096, KG.OUT_WIDTH), dtype=np.int32)
    cnt = np.zeros(1, dtype=np.int64)
    put = np.zeros(T, dtype=np.int64)
    kbest = np.zeros(64, dtype=np.int64)
    kcur = np.zeros(64, dtype=np.int64)
    leave = np.zeros(T, dtype=np.int64)
    scale = KG.leave_scale(bagn, eqp[KG.E_RAMP], eqp[KG.E_FLOOR])
    for i in range(leaves.shape[0]):
        for c in range(T):
            rack[c] = base[c] + leaves[i, c]
        bi, bv, xv, has_x, rows = KG.decide(KG.PLAYER_EQUITY, kwg, vals, bingo_tiles, bingo_bonus, upper, lower,
                                             tiles, blanks, tvals, lm, wm, cs, xs, hx, rack, bagn, allow_exchange,
                                             bonus, values, H, cap, P, eqp, tile_values, out, cnt, put, kbest, kcur,
                                             wmap)
        if rows.shape[0] > out.shape[0]:
            out = rows
        b = -np.inf
        if bi >= 0:
            b = bv
        if has_x and xv > b:
            b = xv
        best[i] = b
        if n_exchange == 0:
            for c in range(T):
                leave[c] = leaves[i, c]
                keep[i, c] = leaves[i, c]
            target[i] = KG.equity_leave_term(leave, bagn, bonus, values, H, cap, eqp, tile_values)
            continue
        # the best exchange of exactly n_exchange tiles: leave terms of every sub-multiset put back
        radix, lv, _ = KG.leave_arrays(rack, values, H, cap, P, scale, 1 if bagn <= 0 else 0, bonus,
                                       eqp[KG.E_STUCK], tile_values, eqp[KG.E_SEVEN])
        tv = -np.inf
        ti = -1
        for idx in range(1, lv.shape[0]):
            rem = idx
            n = 0
            for c in range(T):
                if rack[c] > 0:
                    base_c = rack[c] + 1
                    n += rem % base_c
                    rem //= base_c
            if n == n_exchange and lv[idx] > tv:
                tv = lv[idx]
                ti = idx
        target[i] = tv
        if ti >= 0:
            KG.exchange_counts(rack, ti, put)
            for c in range(T):
                keep[i, c] = rack[c] - put[c]
        else:
            for c in range(T):
                keep[i, c] = 0
    return out
