"""Numba kernels of the word map: "is there a word made of exactly these letters?".

The best-first generator (:func:`engine.movegen._movegen.generate_best_checked`)
asks, for a span of a line in which a move would use every rack tile, whether
any word consists of exactly the rack's letters plus the board tiles inside
the span (blanks: any letter). When none does, the span holds no move and its
bound (with the bingo bonus when the rack is full) is dropped. The idea is
MAGPIE's word maps (anagram tables by letter multiset); this table is
smaller and built from the KWG in a few milliseconds when first needed.

Letter multisets are hashed as a sum of per-letter random 64-bit numbers
(``WM_RAND``, fixed), so the hash of rack + board tiles is the sum of the two
parts and needs no sorting. The table is an open-addressing hash set of the
multiset hashes of every word of the DAWG (uint64, power-of-two size, 0 =
empty slot). A hash collision can only make :func:`wm_has` answer True for a
multiset that is no word's: the bound then stays as it was without the map
(safe); a word's multiset is always found.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from lexicon_tools import _numba_cache

_numba_cache.drop_stale_cache(__file__)  # callee kernels changed -> recompile

from lexicon_tools._kwg_nodes import node_accepts, node_arc, node_is_end, node_tile  # uint32 KWG or uint64 wide

MAX_DEPTH = 32


def _splitmix(n: int) -> np.ndarray:
    """``n`` fixed pseudo-random uint64 (SplitMix64 from seed 0x9E3779B97F4A7C15)."""
    out = np.zeros(n, dtype=np.uint64)
    x = 0x9E3779B97F4A7C15
    m = (1 << 64) - 1
    for i in range(n):
        x = (x + 0x9E3779B97F4A7C15) & m
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & m
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & m
        out[i] = z ^ (z >> 31)
    return out


WM_RAND = _splitmix(64)
"""uint64 (64,): the hash term of each tile code (index 0, the blank, unused)."""
WM_RAND.setflags(write=False)
NO_WORDMAP = np.zeros(0, dtype=np.uint64)
"""An empty table: every query answers True (no pruning)."""
NO_WORDMAP.setflags(write=False)


@njit(cache=True)
def _word_hashes(kwg, rnd, out):
    """Multiset hashes of the DAWG's words (depth-first); writes up to ``out.shape[0]``, returns the count."""
    root = node_arc(kwg[0])
    if root == 0:
        return 0
    idx = np.empty(MAX_DEPTH, dtype=np.int64)
    hs = np.empty(MAX_DEPTH, dtype=np.uint64)
    depth = 0
    idx[0] = root
    hs[0] = np.uint64(0)
    n = 0
    while True:
        v = kwg[idx[depth]]
        h = hs[depth] + rnd[np.int64(node_tile(v))]
        if node_accepts(v):
            if n < out.shape[0]:
                out[n] = h
            n += 1
        child = node_arc(v)
        if child != 0 and depth + 1 < MAX_DEPTH:
            depth += 1
            idx[depth] = child
            hs[depth] = h
            continue
        while node_is_end(kwg[idx[depth]]):
            depth -= 1
            if depth < 0:
                return n
        idx[depth] += 1


@njit(cache=True, inline="always")
def _slot_key(h):
    return h if h != np.uint64(0) else np.uint64(1)


@njit(cache=True)
def build_wordmap(kwg, rnd):
    """The hash set of the letter multisets of every word of the KWG's DAWG.

    Args:
        kwg: validated node array (uint32 KWG or uint64 wide layout).
        rnd: uint64 per-tile-code hash terms (:data:`WM_RAND`).

    Returns:
        uint64 (2**p,) table with at least twice as many slots as words; 0 = empty.
    """
    count = _word_hashes(kwg, rnd, np.empty(0, dtype=np.uint64))
    hashes = np.empty(count, dtype=np.uint64)
    _word_hashes(kwg, rnd, hashes)
    size = 16
    while size < 2 * count:
        size *= 2
    table = np.zeros(size, dtype=np.uint64)
    mask = np.uint64(size - 1)
    for i in range(count):
        key = _slot_key(hashes[i])
        j = np.int64((key ^ (key >> np.uint64(29))) & mask)
        while table[j] != 0 and table[j] != key:
            j = (j + 1) & (size - 1)
        table[j] = key
    return table


@njit(cache=True, inline="always")
def wm_has(table, h):
    """True when the multiset hash ``h`` is in ``table`` (always True for an empty table)."""
    size = table.shape[0]
    if size == 0:
        return True
    key = _slot_key(h)
    j = np.int64((key ^ (key >> np.uint64(29))) & np.uint64(size - 1))
    while True:
        t = table[j]
        if t == key:
            return True
        if t == 0:
            return False
        j = (j + 1) & (size - 1)


@njit(cache=True)
def wm_word_exists(table, rnd, h, blanks, n_letters):
    """True when some word's letters are the multiset of hash ``h`` plus ``blanks`` blanks (each any letter).

    Racks with more than two blanks are not checked (True). Cost: one probe,
    ``n_letters`` with one blank, ``n_letters * (n_letters + 1) / 2`` with two.
    """
    if table.shape[0] == 0 or blanks > 2:
        return True
    if blanks == 0:
        return wm_has(table, h)
    for x in range(1, n_letters + 1):
        hx = h + rnd[x]
        if blanks == 1:
            if wm_has(table, hx):
                return True
        else:
            for y in range(x, n_letters + 1):
                if wm_has(table, hx + rnd[y]):
                    return True
    return False
