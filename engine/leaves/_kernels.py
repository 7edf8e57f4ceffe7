"""Numba kernels for leave values: multiset ranking, leave enumeration, the
per-rack leave arrays of the best-first generator, KLV graph walks and the
accumulation of the normal equations used to fit leave values.

A leave is a multiset of tile codes (0 = blank, 1..n = letters) of 1..6 tiles,
no tile more often than the bag holds it. Its *rank* is its position among all
such multisets in the order of their sorted tile strings, shorter prefix first
(``?`` < ``??`` < ``??A`` < ... < ``A`` < ``AA`` ...). That is exactly the
depth-first word order of a DAWG whose arcs are sorted by tile, so the rank is
also the index of the leave's value in a KLV file (docs/leaves.md).

Counting tables (built by :func:`engine.leaves.table.LeaveIndex`):

* ``cap[c]``: most copies of tile ``c`` in a leave, ``min(bag count, 6)``;
* ``H[c, a, r]``: number of sorted strings, the empty one included, of length
  at most ``r`` over tiles ``>= c`` where tile ``c`` may appear at most ``a``
  times and every later tile ``d`` at most ``cap[d]`` times.

For a leave ``s`` of length ``n`` the rank is ``n - 1`` (its proper non-empty
prefixes) plus, for every position ``p`` and every tile ``c`` that could stand
at ``p`` instead of the smaller-or-equal ``s[p]`` (``s[p-1] <= c < s[p]``), the
number of strings starting with ``s[:p] + c``: ``H[c, a - 1, MAXLEN - 1 - p]``
with ``a`` the copies of ``c`` still available after ``s[:p]``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from lexicon_tools import _numba_cache

_numba_cache.drop_stale_cache(__file__)  # callee kernels changed -> recompile

MAXLEN = 6
"""Longest leave (a rack of 7 minus one tile played)."""

NO_TILE = 255
"""Padding in the (N, MAXLEN) tile matrix of :func:`enumerate_leaves`."""


@njit(cache=True)
def rank_counts(counts, H, cap):
    """Rank of the leave given as tile counts (array indexed by tile code).

    Returns:
        the rank ``0 .. N-1``; ``-1`` for the empty leave; ``-2`` when the
        counts are not a leave (more than 6 tiles or more of a tile than ``cap``).
    """
    T = cap.shape[0]
    tiles = np.empty(MAXLEN, dtype=np.int64)
    n = 0
    for t in range(T):
        k = counts[t]
        if k == 0:
            continue
        if k > cap[t] or n + k > MAXLEN:
            return -2
        for _ in range(k):
            tiles[n] = t
            n += 1
    if n == 0:
        return -1
    return rank_tiles(tiles, n, H, cap)


@njit(cache=True)
def rank_tiles(tiles, n, H, cap):
    """Rank of the leave given as ``n`` tile codes in ascending order (``-2`` if not a leave)."""
    T = cap.shape[0]
    if n > MAXLEN:
        return -2
    rank = 0
    prev = -1
    u = 0
    for p in range(n):
        t = tiles[p]
        if t >= T or t < prev:
            return -2
        lo = prev if prev >= 0 else 0
        for c in range(lo, t):
            a = cap[c] - (u if c == prev else 0)
            if a >= 1:
                rank += H[c, a - 1, MAXLEN - 1 - p]
        if t == prev:
            u += 1
        else:
            prev = t
            u = 1
        if u > cap[t]:
            return -2
    return rank + n - 1


@njit(cache=True)
def enumerate_leaves(cap, total):
    """Every leave in rank order as a (total, MAXLEN) uint8 matrix padded with NO_TILE.

    A depth-first walk over sorted tile strings: the next string after ``s`` is
    ``s`` extended by its smallest possible tile, else ``s`` with its last tile
    raised (dropping tiles from the end until one can be raised).
    """
    T = cap.shape[0]
    out = np.full((total, MAXLEN), NO_TILE, dtype=np.uint8)
    used = np.zeros(T, dtype=np.int64)
    s = np.zeros(MAXLEN, dtype=np.int64)
    n = 0
    i = 0
    while True:
        # extend: smallest tile >= last tile with a copy left
        advanced = False
        if n < MAXLEN:
            start = s[n - 1] if n > 0 else 0
            for c in range(start, T):
                if used[c] < cap[c]:
                    s[n] = c
                    used[c] += 1
                    n += 1
                    advanced = True
                    break
        if not advanced:
            # raise the last tile, popping when it cannot be raised
            while n > 0:
                last = s[n - 1]
                used[last] -= 1
                n -= 1
                found = False
                for c in range(last + 1, T):
                    if used[c] < cap[c]:
                        s[n] = c
                        used[c] += 1
                        n += 1
                        found = True
                        break
                if found:
                    advanced = True
                    break
            if not advanced:
                break
        if i >= total:
            return out, -1
        for k in range(n):
            out[i, k] = s[k]
        i += 1
    return out, i


@njit(cache=True)
def rank_prefix(H, cap):
    """Prefix sums of the ranking table for :func:`leave_arrays`: int64 (MAXLEN + 1, T + 1),
    ``P[r, t] = sum(H[c, cap[c] - 1, r] for c < t if cap[c] >= 1)``."""
    T = cap.shape[0]
    P = np.zeros((MAXLEN + 1, T + 1), dtype=np.int64)
    for r in range(MAXLEN + 1):
        for c in range(T):
            P[r, c + 1] = P[r, c] + (H[c, cap[c] - 1, r] if cap[c] >= 1 else 0)
    return P


@njit(cache=True)
def sub_leave_arrays(rack, values, H, cap, P, scale, endgame, out_bonus, stuck_penalty, tile_values, seven):
    """Leave terms of every sub-multiset of ``rack`` for the best-first kernel (the one
    builder of these arrays: :mod:`engine.game.equity`, :mod:`engine.game._kgame`).

    The layout is that of :func:`engine.movegen.generator.leave_arrays`: ``radix[c]`` is
    the place value of tile ``c`` among the rack's distinct tiles (code order),
    ``lv[used]`` the leave term when the tiles numbered ``used`` are played and
    ``lvmax[k]`` the best term after playing ``k`` tiles.

    Leave terms: ``scale * values[rank]`` (empty leave 0, a leave of 7 tiles
    ``seven``) while tiles are left to draw (``endgame == 0``); with the bag
    empty (``endgame == 1``) ``out_bonus`` for the empty leave and
    ``-(2 * face value + stuck_penalty)`` otherwise.

    The rank of each leave (the ranking of :func:`rank_counts`) is summed from
    the prefix table ``P`` of :func:`rank_prefix` in one step per tile instead
    of one per smaller tile code, and the leave's tiles come straight from the
    mixed-radix digits.

    Args:
        rack: int64 (T,) tile counts; values: float64 leave values by rank;
        H, cap: the leave index's ranking tables; P: ``rank_prefix(H, cap)``;
        tile_values: float64 (T,) face values.

    Returns:
        ``(radix, lv, lvmax)``: int64 (T,), float64 (size,), float64 (8,).
    """
    T = rack.shape[0]
    radix = np.zeros(T, dtype=np.int64)
    codes = np.zeros(T, dtype=np.int64)
    nd = 0
    size = 1
    for c in range(T):
        if rack[c] > 0:
            radix[c] = size
            size *= rack[c] + 1
            codes[nd] = c
            nd += 1
    lv = np.zeros(size, dtype=np.float64)
    lvmax = np.full(8, -np.inf)
    keep = np.zeros(T, dtype=np.int64)
    for idx in range(size):
        rem = idx
        k = 0
        n_left = 0
        face = 0.0
        for j in range(nd):
            c = codes[j]
            base = rack[c] + 1
            u = rem % base
            rem //= base
            k += u
            keep[j] = rack[c] - u
            n_left += keep[j]
            face += keep[j] * tile_values[c]
        if endgame:
            val = out_bonus if n_left == 0 else -(2.0 * face + stuck_penalty)
        elif n_left == 0:
            val = 0.0
        elif n_left > MAXLEN:
            val = seven
        else:
            rank = 0
            prev = -1
            ucount = 0
            p = 0
            ok = True
            for j in range(nd):
                c = codes[j]
                m = keep[j]
                if m == 0:
                    continue
                if m > cap[c]:
                    ok = False
                    break
                # first copy of c at position p: strings starting s[:p] + d for prev <= d < c
                r = MAXLEN - 1 - p
                if prev >= 0:
                    a = cap[prev] - ucount
                    if a >= 1:
                        rank += H[prev, a - 1, r]
                    rank += P[r, c] - P[r, prev + 1]
                else:
                    rank += P[r, c]
                p += 1
                # further copies of c: nothing smaller may stand there (d ranges over c..c-1)
                p += m - 1
                prev = c
                ucount = m
            val = scale * values[rank + n_left - 1] if ok else 0.0
        lv[idx] = val
        if k < 8 and val > lvmax[k]:
            lvmax[k] = val
    for k in range(8):
        if not np.isfinite(lvmax[k]):
            lvmax[k] = 0.0
    return radix, lv, lvmax


@njit(cache=True)
def dawg_word_ranks(nodes, root, H, cap, limit):
    """Walk a DAWG depth-first (arcs in stored order) and rank every accepted word.

    Args:
        nodes: uint32 KWG node array.
        root: index of the root's arc list (0: empty graph).
        limit: capacity of the output (number of words expected).

    Returns:
        ``(ranks, count, status)``: int64 ranks in DFS order (``-2`` for a word
        that is not a leave of this tile set), the number of words, and 0 (ok),
        1 (more words than ``limit``), 2 (a word longer than 15 / cycle guard),
        3 (an arc index outside the array).
    """
    ARC = 0x3FFFFF
    IS_END = 0x400000
    ACCEPTS = 0x800000
    nn = nodes.shape[0]
    ranks = np.full(limit, -2, dtype=np.int64)
    count = 0
    if root == 0:
        return ranks, 0, 0
    stack = np.zeros(17, dtype=np.int64)
    word = np.zeros(17, dtype=np.int64)
    depth = 0
    stack[0] = root
    while depth >= 0:
        p = stack[depth]
        if p <= 0 or p >= nn:
            return ranks, count, 3
        node = nodes[p]
        word[depth] = node >> 24
        if node & ACCEPTS:
            if count >= limit:
                return ranks, count, 1
            ranks[count] = rank_tiles(word, depth + 1, H, cap)
            count += 1
        child = node & ARC
        if child != 0:
            if depth + 1 >= 16:
                return ranks, count, 2
            if child >= nn:
                return ranks, count, 3
            depth += 1
            stack[depth] = child
            continue
        # advance to the next sibling, popping finished lists
        while depth >= 0:
            q = stack[depth]
            if nodes[q] & IS_END:
                depth -= 1
            else:
                stack[depth] = q + 1
                break
    return ranks, count, 0


# ---------------------------------------------------------------------------
# Fitting: features of a leave and the weighted normal equations
# ---------------------------------------------------------------------------
@njit(cache=True)
def leave_features(tiles, n, level_base, pair_index, is_vowel, vc_index, size_base, out):
    """Write the active feature indices of one leave into ``out``; returns how many.

    Features (all indicators, value 1):

    * size: one per leave length 1..6 (``size_base + n - 1``);
    * tile levels: "holds at least k copies of tile c" for k = 1..count
      (``level_base[c] + k - 1``), so duplicates get their own weights;
    * vowel/consonant balance: one per (vowels, consonants) pair, blanks
      counted in neither (``vc_index[v, c]``, -1 for none);
    * pairs: "holds both c and d" for distinct tiles c < d (``pair_index[c, d]``).
    """
    m = 0
    out[m] = size_base + n - 1
    m += 1
    nv = 0
    nc = 0
    prev = -1
    k = 0
    for i in range(n):
        t = tiles[i]
        if t == prev:
            k += 1
        else:
            prev = t
            k = 1
        out[m] = level_base[t] + k - 1
        m += 1
        if t != 0:
            if is_vowel[t]:
                nv += 1
            else:
                nc += 1
    vi = vc_index[nv, nc]
    if vi >= 0:
        out[m] = vi
        m += 1
    # distinct tiles
    prev = -1
    for i in range(n):
        a = tiles[i]
        if a == prev:
            continue
        prev = a
        prev2 = a
        for j in range(i + 1, n):
            b = tiles[j]
            if b == prev2:
                continue
            prev2 = b
            pi = pair_index[a, b]
            if pi >= 0:
                out[m] = pi
                m += 1
    return m


@njit(cache=True)
def accumulate_normal(leaf_tiles, ranks, weights, ybar, level_base, pair_index, is_vowel, vc_index,
                      size_base, n_features, mask):
    """Weighted normal equations ``X'WX`` and ``X'Wy`` over observed leaves.

    Column 0 is the intercept (present for every row, the empty leave included);
    feature ``f`` is column ``f + 1``. Features with ``mask[f] == 0`` are left out.
    """
    P = n_features + 1
    A = np.zeros((P, P))
    b = np.zeros(P)
    idx = np.zeros(64, dtype=np.int64)
    for i in range(ranks.shape[0]):
        w = weights[i]
        if w == 0:
            continue
        r = ranks[i]
        m = 0
        if r >= 0:
            tiles = leaf_tiles[r]
            n = 0
            while n < MAXLEN and tiles[n] != NO_TILE:
                n += 1
            m = leave_features(tiles, n, level_base, pair_index, is_vowel, vc_index, size_base, idx)
        # compact out masked features, shift by one for the intercept
        j = 1
        cols = np.zeros(m + 1, dtype=np.int64)
        cols[0] = 0
        for q in range(m):
            if mask[idx[q]]:
                cols[j] = idx[q] + 1
                j += 1
        y = ybar[i]
        for a in range(j):
            ca = cols[a]
            b[ca] += w * y
            for c in range(j):
                A[ca, cols[c]] += w
    return A, b


@njit(cache=True)
def predict_all(leaf_tiles, coef, level_base, pair_index, is_vowel, vc_index, size_base):
    """Model value of every leave (intercept excluded): sum of its features' weights."""
    N = leaf_tiles.shape[0]
    out = np.zeros(N, dtype=np.float64)
    idx = np.zeros(64, dtype=np.int64)
    for r in range(N):
        tiles = leaf_tiles[r]
        n = 0
        while n < MAXLEN and tiles[n] != NO_TILE:
            n += 1
        m = leave_features(tiles, n, level_base, pair_index, is_vowel, vc_index, size_base, idx)
        s = 0.0
        for q in range(m):
            s += coef[idx[q]]
        out[r] = s
    return out
