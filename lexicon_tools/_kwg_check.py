"""Numba kernels that check a KWG node array completely before it is used.

Plain arrays in, an error code out; :func:`lexicon_tools.kwg.check_graph`
turns the code into a message. The checks (node layout: ``docs/kwg-format.md``):

* structure: every arc index inside the array (and never 1, the GADDAG root
  pointer), the last node ends a list, tile codes inside the alphabet, the tiles
  of every reachable arc list strictly increasing (no arc twice);
* shape: no cycle (an arc list reachable from itself), no path longer than the
  longest word (15 letters in the DAWG, 15 letters and the separator in the
  GADDAG); the separator (tile 0) never in the DAWG, never in the GADDAG root
  list, at most once on a path, never accepting and never without a child;
  no one-letter word (an accepting arc in a root list);
* language: the DAWG holds at most ``max_words`` words, and the GADDAG holds
  exactly the GADDAG strings of the DAWG's words (Gordon 1994: for a word of
  ``n`` letters, ``n`` strings ``rev(w[:i]) + sep + w[i:]`` and ``rev(w)``).
  Every DAWG word's strings are walked and the GADDAG's accepted paths are
  counted: equal counts and full inclusion mean equal languages, so the move
  generator (GADDAG) and the word checker (DAWG) agree.

Every walk is iterative with a stack bounded by the word length, so a damaged
file can neither recurse without end nor run for ever.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import _numba_cache

_numba_cache.drop_stale_cache(__file__)  # callee kernels changed -> recompile

from ._kwg_kernels import child_arc, count_words
from ._kwg_nodes import node_accepts, node_arc, node_is_end, node_tile

OK = 0
E_SHORT = 1          # fewer than 2 nodes
E_ARC = 2            # arc index outside the array or == 1
E_UNTERMINATED = 3   # the last node does not end a list
E_TILE = 4           # tile code outside the alphabet
E_ORDER = 5          # tiles of an arc list not strictly increasing
E_CYCLE = 6          # an arc list reachable from itself
E_DEEP = 7           # a path longer than the longest word
E_SEP_DAWG = 8       # separator below the DAWG root
E_SEP_ROOT = 9       # separator in the GADDAG root list
E_SEP_TWICE = 10     # separator below a separator
E_SEP_ARC = 11       # separator arc that accepts or has no child
E_ONE_LETTER = 12    # accepting arc in a root list: a one-letter word
E_TOO_MANY = 13      # the DAWG holds more than max_words words
E_GADDAG_MISSING = 14  # a GADDAG string of a DAWG word is not in the GADDAG
E_GADDAG_EXTRA = 15    # the GADDAG accepts strings that belong to no DAWG word
E_LIST_LONG = 16     # an arc list longer than the alphabet allows

@njit(cache=True)
def _walk(kwg, root, n_letters, max_depth, state, height, hassep):
    """Depth-first over the arc lists below ``root`` (iterative, stack ≤ ``max_depth + 1``).

    Fills ``height[p]`` (longest path, in arcs, from list ``p``) and
    ``hassep[p]`` (a separator below ``p``) for every list reached;
    ``state[p]`` 0 new, 1 on the stack, 2 done.

    Returns:
        ``(code, node)``: ``OK`` or the first error and the node it concerns.
    """
    if root == 0:
        return OK, 0
    stack_p = np.empty(max_depth + 2, dtype=np.int64)
    stack_i = np.empty(max_depth + 2, dtype=np.int64)
    sp = 0
    if state[root] == 2:
        return OK, 0
    stack_p[0] = root
    stack_i[0] = -1
    sp = 1
    while sp > 0:
        p = stack_p[sp - 1]
        i = stack_i[sp - 1]
        if i < 0:  # first visit: check the list itself
            state[p] = 1
            last = -1
            k = p
            while True:
                t = np.int64(node_tile(kwg[k]))
                if t <= last:
                    return E_ORDER, k
                if k - p >= n_letters + 1:
                    return E_LIST_LONG, p
                last = t
                if node_is_end(kwg[k]):
                    break
                k += 1
            i = p
            stack_i[sp - 1] = i
        v = kwg[i]
        c = node_arc(v)
        if c != 0 and state[c] != 2:
            if state[c] == 1:
                return E_CYCLE, i
            if sp >= max_depth:
                return E_DEEP, i
            stack_p[sp] = c
            stack_i[sp] = -1
            sp += 1
            continue
        if node_is_end(v):  # every child done: combine
            h = 0
            s = False
            k = p
            while True:
                w = kwg[k]
                ck = node_arc(w)
                hk = 1 + (height[ck] if ck != 0 else 0)
                if hk > h:
                    h = hk
                if node_tile(w) == 0:
                    if ck == 0 or node_accepts(w):
                        return E_SEP_ARC, k
                    if hassep[ck]:
                        return E_SEP_TWICE, k
                    s = True
                elif ck != 0 and hassep[ck]:
                    s = True
                if node_is_end(w):
                    break
                k += 1
            height[p] = h
            hassep[p] = s
            state[p] = 2
            sp -= 1
        else:
            stack_i[sp - 1] = i + 1
    return OK, 0


@njit(cache=True)
def check_structure_full(kwg, n_letters, max_len):
    """Structure and shape checks (see the module docstring).

    Args:
        kwg: uint32 (n,) node array.
        n_letters: tile codes 1..n_letters are letters.
        max_len: the longest word (15).

    Returns:
        ``(code, node)``: ``OK`` (0) or the first error code and the node.
    """
    n = kwg.shape[0]
    if n < 2:
        return E_SHORT, 0
    for i in range(n):
        c = node_arc(kwg[i])
        if c >= n or c == 1:
            return E_ARC, i
        if i >= 2 and node_tile(kwg[i]) > n_letters:
            return E_TILE, i
    if not node_is_end(kwg[n - 1]):
        return E_UNTERMINATED, n - 1
    state = np.zeros(n, dtype=np.uint8)
    height = np.zeros(n, dtype=np.int16)
    hassep = np.zeros(n, dtype=np.bool_)
    droot = node_arc(kwg[0])
    groot = node_arc(kwg[1])
    code, node = _walk(kwg, droot, n_letters, max_len, state, height, hassep)
    if code != OK:
        return code, node
    if droot != 0:
        if hassep[droot]:
            return E_SEP_DAWG, droot
        if height[droot] > max_len:
            return E_DEEP, droot
    code, node = _walk(kwg, groot, n_letters, max_len + 1, state, height, hassep)
    if code != OK:
        return code, node
    if groot != 0 and height[groot] > max_len + 1:
        return E_DEEP, groot
    for r in range(2):
        p = droot if r == 0 else groot
        if p == 0:
            continue
        while True:
            v = kwg[p]
            if node_accepts(v):
                return E_ONE_LETTER, p
            if r == 1 and node_tile(v) == 0:
                return E_SEP_ROOT, p
            if node_is_end(v):
                break
            p += 1
    return OK, 0


@njit(cache=True)
def dawg_words(kwg, n_words, max_len):
    """Every DAWG word as tile codes: uint8 ``(n_words, max_len + 1)`` and int32 lengths.

    Only for graphs that passed :func:`check_structure_full`; ``n_words`` from
    :func:`lexicon_tools._kwg_kernels.count_words`.
    """
    codes = np.zeros((n_words, max_len + 1), dtype=np.uint8)
    lengths = np.zeros(n_words, dtype=np.int32)
    root = node_arc(kwg[0])
    if root == 0 or n_words == 0:
        return codes, lengths
    path = np.zeros(max_len + 1, dtype=np.uint8)
    pos = np.empty(max_len + 2, dtype=np.int64)
    pos[0] = root
    depth = 0
    w = 0
    while depth >= 0:
        i = pos[depth]
        v = kwg[i]
        path[depth] = np.uint8(node_tile(v))
        if node_accepts(v):
            if w < n_words:
                codes[w, :depth + 1] = path[:depth + 1]
                lengths[w] = depth + 1
            w += 1
        c = node_arc(v)
        if c != 0 and depth < max_len:
            depth += 1
            pos[depth] = c
            continue
        # next sibling, climbing while the list ends
        while depth >= 0:
            if node_is_end(kwg[pos[depth]]):
                depth -= 1
            else:
                pos[depth] += 1
                break
    return codes, lengths


@njit(cache=True)
def gaddag_missing(kwg, codes, lengths):
    """Index of the first word one of whose GADDAG strings the GADDAG rejects, or -1.

    For a word ``w`` of ``n`` letters the strings are ``rev(w[:i]) + sep + w[i:]``
    (``i < n``) and ``rev(w)``. Words come in DAWG order, so consecutive words
    share prefixes: the arc reached after ``rev(w[:i])`` and after
    ``rev(w[:i]) + sep + w[i:j]`` is kept per ``(i, j)`` and reused while
    ``j`` stays within the prefix shared with the previous word. The cost is
    then about (DAWG prefixes) × (their length) arc look-ups instead of
    (letters)² per word.
    """
    width = codes.shape[1]
    rev = np.zeros(width + 1, dtype=np.int64)          # rev[i]: arc after rev(w[:i])
    h = np.zeros((width + 1, width + 1), dtype=np.int64)  # h[i, j]: arc after rev(w[:i]) sep w[i:j]
    groot = node_arc(kwg[1])
    prev_n = 0
    for w in range(codes.shape[0]):
        n = lengths[w]
        common = 0
        if w > 0:
            m = min(n, prev_n)
            while common < m and codes[w, common] == codes[w - 1, common]:
                common += 1
        for i in range(common + 1, n + 1):  # rev(w[:i]) from the root
            p = groot
            a = np.int64(-1)
            for k in range(i - 1, -1, -1):
                a = child_arc(kwg, p, codes[w, k])
                if a < 0:
                    return w
                p = node_arc(kwg[a])
            rev[i] = a
        if not node_accepts(kwg[rev[n]]):  # rev(w)
            return w
        for i in range(1, n):
            start = max(i, common)  # h[i, j] for j <= common is still the previous word's
            if start == i:
                a = child_arc(kwg, node_arc(kwg[rev[i]]), 0)
                if a < 0:
                    return w
                h[i, i] = a
            for j in range(start + 1, n + 1):
                a = child_arc(kwg, node_arc(kwg[h[i, j - 1]]), codes[w, j - 1])
                if a < 0:
                    return w
                h[i, j] = a
            if not node_accepts(kwg[h[i, n]]):
                return w
        prev_n = n
    return -1
