"""Numba kernel of the endgame's word pruning: every word a line of the board can still hold.

In an endgame (bag empty) every tile that will ever be placed comes from the
two racks. A word formed later on a line (a main word or a cross word, in
either direction) covers a span of squares whose occupied squares hold the
board's tiles now and whose empty squares are filled from the two racks, with
an empty square or the edge at both ends. :func:`line_words` lists every
lexicon word that fits a line that way with the tiles of the pool (both racks
together), so move generation over a graph of only these words gives exactly
the moves of the full lexicon on every board the endgame can reach (the idea
of MAGPIE's word pruning, ``src/impl/word_prune.c``; this is our own code).

Pool feasibility is checked greedily: a square takes a real tile of its
letter when the pool holds one, else a blank. That is exact for multisets
(a blank can stand for any letter, a real tile only for its own), so one walk
per word path suffices.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from lexicon_tools import _numba_cache

_numba_cache.drop_stale_cache(__file__)  # callee kernels changed -> recompile

from lexicon_tools._kwg_nodes import node_accepts, node_arc, node_is_end, node_tile  # uint32 KWG or uint64 wide

N = 15


@njit(cache=True)
def line_words(kwg, line, pool, out, cnt):
    """Append the words that fit ``line`` with tiles of ``pool`` to ``out``; count in ``cnt[0]``.

    Args:
        kwg: KWG node array, uint32 or the uint64 wide variant (its DAWG at node 0).
        line: uint8 (15,) letter codes of the line's tiles (blanks as their letter), 0 = empty.
        pool: int64 (n_letters + 1,) tile counts available (index 0 = blanks); restored on return.
        out: uint8 (cap, 16): a word's letter codes, 0-padded. When more than ``cap``
            words are found only ``cnt[0]`` keeps counting, so the caller grows ``out`` and calls again.
        cnt: int64 (1,) running count (not reset here).

    A word is listed once per start square it fits at (duplicates are for the caller to remove).
    """
    root = np.int64(node_arc(kwg[0]))
    word = np.zeros(N, dtype=np.uint8)
    # per depth: the arc being tried, whether a blank was used for it
    cur = np.zeros(N + 1, dtype=np.int64)
    used = np.zeros(N + 1, dtype=np.int64)  # 0 none, 1 real tile, 2 blank
    for s in range(N):
        if s > 0 and line[s - 1] != 0:
            continue
        d = 0
        cur[0] = root
        used[0] = 0
        while d >= 0:
            # undo the previous choice at depth d
            if used[d] == 1:
                pool[word[d]] += 1
            elif used[d] == 2:
                pool[0] += 1
            used[d] = 0
            p = cur[d]
            if p <= 0:
                d -= 1
                continue
            col = s + d
            t = line[col]
            a = np.int64(-1)
            if t != 0:
                # the board's tile: only its arc, tried once
                q = p
                while True:
                    v = kwg[q]
                    if node_tile(v) == t:
                        a = q
                        break
                    if node_is_end(v):
                        break
                    q += 1
                cur[d] = -1
                if a < 0:
                    d -= 1
                    continue
            else:
                while p > 0:
                    v = kwg[p]
                    letter = np.int64(node_tile(v))
                    nxt = -1 if node_is_end(v) else p + 1
                    if pool[letter] > 0:
                        pool[letter] -= 1
                        used[d] = 1
                        a = p
                    elif pool[0] > 0:
                        pool[0] -= 1
                        used[d] = 2
                        a = p
                    p = nxt
                    if a >= 0:
                        break
                cur[d] = p if p > 0 else -1
                if a < 0:
                    d -= 1
                    continue
            v = kwg[a]
            word[d] = np.uint8(node_tile(v))
            if node_accepts(v) and d >= 1 and (col == N - 1 or line[col + 1] == 0):
                n = cnt[0]
                if n < out.shape[0]:
                    for k in range(d + 1):
                        out[n, k] = word[k]
                    for k in range(d + 1, 16):
                        out[n, k] = 0
                cnt[0] = n + 1
            child = np.int64(node_arc(v))
            if child != 0 and col < N - 1:
                d += 1
                cur[d] = child
                used[d] = 0
