"""Numba kernels that build, walk and verify a KWG (DAWG + GADDAG) node array.

Plain arrays in and out; the Python API in :mod:`lexicon_tools.kwg` validates
everything before it calls these. Node layout: see ``docs/kwg-format.md``.

Building (Daciuk et al. 2000, "Incremental construction of minimal acyclic
finite-state automata", the sorted-input variant): strings arrive sorted; the
states on the path of the previous string that the new string does not share
are final, so each is looked up in a register of unique states (a hash table)
and replaced by its registered twin or registered itself. The DAWG and the
GADDAG (Gordon 1994) share one register. The GADDAG's part after the separator
is the DAWG itself (the state after ``rev(p) + separator`` is the DAWG state
after p), so only the distinct reversed prefixes are built, each separator arc
pointing at the DAWG state (as wolges' builder does); the register, and so the
bytes, are those of building every full GADDAG string.

A state is a list of arcs; an arc is (tile, accepts, child state). Words are
rows of a uint8 matrix holding ``tile + 1`` padded with 0, so that byte order
sorts exactly like tile order; reversed prefixes hold plain tile codes (no
separator inside them).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import _numba_cache

_numba_cache.drop_stale_cache(__file__)  # callee kernels changed -> recompile

from ._kwg_nodes import node_accepts, node_arc, node_is_end, node_tile

MAX_DEPTH = 16
MAX_ARCS = 32


# ---------------------------------------------------------------------------
# Sorting
# ---------------------------------------------------------------------------
@njit(cache=True)
def word_matrix(flat, lens, width, offset):
    """Words as rows: uint8 ``(n, width)`` with ``flat`` codes ``+ offset``, 0-padded.

    Args:
        flat: uint8 the tile codes of all words, concatenated.
        lens: int32 ``(n,)`` word lengths (each <= ``width``, sum = ``len(flat)``).
    """
    n = lens.shape[0]
    out = np.zeros((n, width), dtype=np.uint8)
    k = 0
    for r in range(n):
        for j in range(lens[r]):
            out[r, j] = flat[k] + offset
            k += 1
    return out


@njit(cache=True)
def pack_keys(rows):
    """Pack rows of up to 20 bytes (values < 64) into two uint64 sort keys.

    Returns:
        (hi, lo) uint64 arrays; sorting by (hi, lo) sorts the rows as byte strings.
    """
    m, width = rows.shape
    hi = np.zeros(m, dtype=np.uint64)
    lo = np.zeros(m, dtype=np.uint64)
    for r in range(m):
        a = np.uint64(0)
        b = np.uint64(0)
        for j in range(10):
            a = (a << np.uint64(6)) | np.uint64(rows[r, j] if j < width else 0)
        for j in range(10, 20):
            b = (b << np.uint64(6)) | np.uint64(rows[r, j] if j < width else 0)
        hi[r] = a
        lo[r] = b
    return hi, lo


@njit(cache=True)
def argsort_keys(hi, lo):
    """Stable order that sorts the key pairs ``(hi, lo)`` (uint64) ascending, like
    ``numpy.lexsort((lo, hi))``: least-significant-digit radix sort on 16-bit
    digits, low word first, skipping a digit that all keys share (the padding).

    Returns:
        int64 ``(m,)`` the permutation.
    """
    m = hi.shape[0]
    order = np.arange(m)
    tmp = np.empty(m, dtype=np.int64)
    count = np.empty(65537, dtype=np.int64)
    for k in range(8):
        key = lo if k < 4 else hi
        shift = np.uint64(16 * (k % 4))
        count[:] = 0
        for i in range(m):
            count[np.int64((key[i] >> shift) & np.uint64(0xFFFF)) + 1] += 1
        if m == 0 or count.max() == m:
            continue  # every key has the same digit here
        for d in range(1, 65537):
            count[d] += count[d - 1]
        for i in range(m):
            o = order[i]
            d = np.int64((key[o] >> shift) & np.uint64(0xFFFF))
            tmp[count[d]] = o
            count[d] += 1
        order, tmp = tmp, order
    return order


@njit(cache=True)
def sorted_word_rows(flat, lens):
    """The distinct words as uint8 ``(m, 17)`` rows of ``tile + 1``, 0-padded, in tile order.

    :func:`word_matrix`, :func:`pack_keys`, :func:`argsort_keys` and the removal
    of duplicates in one kernel call; words that arrive sorted and distinct
    (the builder's usual case: the normaliser sorts them) are returned as they are.
    """
    rows = word_matrix(flat, lens, 17, 1)
    hi, lo = pack_keys(rows)
    m = rows.shape[0]
    ascending = True
    for i in range(1, m):
        if hi[i] < hi[i - 1] or (hi[i] == hi[i - 1] and lo[i] <= lo[i - 1]):
            ascending = False
            break
    if ascending:
        return rows
    order = argsort_keys(hi, lo)
    keep = np.empty(m, dtype=np.int64)
    k = 0
    for i in range(m):
        o = order[i]
        if i == 0 or hi[o] != hi[order[i - 1]] or lo[o] != lo[order[i - 1]]:
            keep[k] = o
            k += 1
    return rows[keep[:k]]


# ---------------------------------------------------------------------------
# Register of unique states
# ---------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _arc_key(tile, acc, child):
    """One arc as 39 bits: tile (6), accepts (1), child state + 1 (32)."""
    return np.int64(tile) | (np.int64(acc) << 6) | (np.int64(child + 1) << 7)


@njit(cache=True, inline="always")
def _probe_key(n, first, h):
    """Arc count (6 bits), first arc (:func:`_arc_key`, 39 bits) and the top 18 bits of the hash ``h``."""
    return np.int64(n) | (first << 6) | (np.int64(h >> np.uint64(46)) << 45)


@njit(cache=True)
def _regrow(arc_tile, arc_acc, arc_child, st_start, st_count, st_hash, counters, table):
    """The hash table of the register (see :func:`_daciuk`) at twice the size."""
    size = table.shape[0] * 2
    new = np.empty((size, 2), dtype=np.int64)
    for slot in range(size):  # only the id column marks a free slot
        new[slot, 0] = -1
    mask = np.uint64(size - 1)
    for sid in range(counters[0]):
        h = st_hash[sid]
        n = st_count[sid]
        s = st_start[sid]
        slot = h & mask
        while new[slot, 0] >= 0:
            slot = (slot + np.uint64(1)) & mask
        new[slot, 0] = sid
        new[slot, 1] = _probe_key(n, _arc_key(arc_tile[s], arc_acc[s], arc_child[s]) if n > 0 else np.int64(0), h)
    return new


@njit(cache=True)
def _daciuk(rows, gaddag, key_acc, key_sep, reg, st_hash, table, key_word, key_len, key_out):
    """One sorted-input pass of Daciuk et al. (2000) over ``rows``, registering its states; the root's id.

    The strings arrive sorted; the states on the path of the previous string
    that the new one does not share are final, so each is looked up in the
    register of unique states and replaced by its registered twin, or
    registered. The register is an int64 ``(size, 2)`` open-addressing hash
    table (power-of-two size; ``[state id, probe key]``, state id -1 = free);
    the probe key packs the arc count, the first arc and 18 hash bits
    (:func:`_probe_key`), so a state of one arc is identified by the table row
    alone and only longer states compare their other arcs with the register's
    arrays. ``st_hash`` keeps each state's full hash for
    :func:`_regrow`. (The look-up is written out here, once, rather than in a
    helper: a Numba call or inlined helper taking the register's arrays costs
    reference-count updates of every array at every look-up, twice the work
    of the look-up itself.)

    DAWG pass (``gaddag`` false): ``rows`` hold ``tile + 1``; each distinct
    prefix gets a key (``key_word``, ``key_len``, ``key_out``: the DAWG state
    after it or -1), see :func:`build_dawg`. GADDAG pass: ``rows`` hold tile
    codes; the last arc of key ``k`` accepts when ``key_acc[k]``, and a
    separator arc to DAWG state ``key_sep[k]`` follows it when that is >= 0,
    see :func:`build_gaddag`.

    Returns:
        (root state id, table, number of keys recorded).
    """
    width = rows.shape[1]
    p_tile = np.zeros((MAX_DEPTH + 2, MAX_ARCS), dtype=np.uint8)
    p_acc = np.zeros((MAX_DEPTH + 2, MAX_ARCS), dtype=np.uint8)
    p_child = np.full((MAX_DEPTH + 2, MAX_ARCS), -1, dtype=np.int32)
    p_n = np.zeros(MAX_DEPTH + 2, dtype=np.int32)
    depth_key = np.zeros(MAX_DEPTH + 2, dtype=np.int64)
    arc_tile, arc_acc, arc_child, st_start, st_count, counters = reg
    n_before = counters[0]
    sep_state = np.full(n_before if gaddag else 0, -1, dtype=np.int64)  # one separator state per DAWG state
    nk = 0
    prev_len = 0
    root = -1
    m = rows.shape[0]
    for r in range(m + 1):
        if (counters[2] + MAX_DEPTH + 2) * 2 >= table.shape[0]:  # room for every state this row can close
            table = _regrow(arc_tile, arc_acc, arc_child, st_start, st_count, st_hash, counters, table)
        n = 0
        if r < m:
            while n < width and rows[r, n] != 0:
                n += 1
        lcp = 0
        while lcp < n and lcp < prev_len and rows[r, lcp] == rows[r - 1, lcp]:
            lcp += 1
        low = lcp if r < m else -1  # after the last string: close down to the root
        for d in range(prev_len, low, -1):
            nn = p_n[d]
            if nn == 0:
                continue
            sid = -1
            if gaddag and nn == 1 and p_tile[d, 0] == 0:
                sid = sep_state[p_child[d, 0]]
            if sid < 0:
                h = np.uint64(1469598103934665603)
                for i in range(nn):
                    v = np.uint64(p_tile[d, i]) | (np.uint64(p_acc[d, i]) << np.uint64(6)) \
                        | (np.uint64(p_child[d, i] + 1) << np.uint64(7))
                    h = (h ^ v) * np.uint64(1099511628211)
                    h ^= h >> np.uint64(29)
                pk = _probe_key(nn, _arc_key(p_tile[d, 0], p_acc[d, 0], p_child[d, 0]), h)
                mask = np.uint64(table.shape[0] - 1)
                slot = h & mask
                while True:
                    e = table[slot, 0]
                    if e < 0:
                        break
                    if table[slot, 1] == pk:
                        same = True
                        s = st_start[e]
                        for i in range(1, nn):
                            if arc_tile[s + i] != p_tile[d, i] or arc_acc[s + i] != p_acc[d, i] \
                                    or arc_child[s + i] != p_child[d, i]:
                                same = False
                                break
                        if same:
                            sid = e
                            break
                    slot = (slot + np.uint64(1)) & mask
                if sid < 0:  # a new state
                    sid = counters[0]
                    s = counters[1]
                    for i in range(nn):
                        arc_tile[s + i] = p_tile[d, i]
                        arc_acc[s + i] = p_acc[d, i]
                        arc_child[s + i] = p_child[d, i]
                    st_start[sid] = s
                    st_count[sid] = nn
                    st_hash[sid] = h
                    table[slot, 0] = sid
                    table[slot, 1] = pk
                    counters[0] = sid + 1
                    counters[1] = s + nn
                    counters[2] += 1
                if gaddag and nn == 1 and p_tile[d, 0] == 0:
                    sep_state[p_child[d, 0]] = sid
            p_n[d] = 0
            if d == 0:
                root = sid
            else:
                p_child[d - 1, p_n[d - 1] - 1] = sid
                if not gaddag:
                    key_out[depth_key[d]] = sid
        if r == m:
            break
        for i in range(lcp, n):
            k = p_n[i]
            p_tile[i, k] = rows[r, i] - (0 if gaddag else 1)
            p_acc[i, k] = (key_acc[r] if gaddag else 1) if i == n - 1 else 0
            p_child[i, k] = -1
            p_n[i] = k + 1
            p_n[i + 1] = 0
            if not gaddag:
                key_word[nk] = r
                key_len[nk] = i + 1
                key_out[nk] = -1
                depth_key[i + 1] = nk
                nk += 1
        if gaddag and key_sep[r] >= 0:
            p_tile[n, 0] = 0
            p_acc[n, 0] = 0
            p_child[n, 0] = key_sep[r]
            p_n[n] = 1
        prev_len = n
    return root, table, nk


@njit(cache=True)
def build_dawg(rows, reg, st_hash, table, key_word, key_len, key_sep):
    """Build the DAWG (Daciuk et al. 2000, sorted input) and record every distinct prefix.

    Besides registering the DAWG's states, each distinct non-empty prefix of
    the words gets one *key*, numbered in the order the sorted input creates it
    (prefix order): the word that created it, its length, and the DAWG state
    reached after reading it (-1 when no word extends the prefix). These keys
    are the GADDAG's strings before the separator (see :func:`build_gaddag`).

    Args:
        rows: uint8 (m, width) words as ``tile + 1``, 0-padded, sorted, unique.
        reg: register arrays (arc_tile, arc_acc, arc_child, st_start, st_count,
            counters = [n_states, n_arcs, n_table_used]).
        st_hash: uint64 (>= states,) each state's hash.
        table: int64 ``(size, 2)`` hash table (see :func:`_daciuk`), power-of-two size.
        key_word: int32 (>= total letters,) out: creating word's row index.
        key_len: uint8 (same,) out: prefix length.
        key_sep: int32 (same,) out: DAWG state after the prefix, or -1.

    Returns:
        (root state id, table, number of keys).
    """
    none_u8 = np.zeros(0, dtype=np.uint8)
    none_i32 = np.zeros(0, dtype=np.int32)
    return _daciuk(rows, False, none_u8, none_i32, reg, st_hash, table, key_word, key_len, key_sep)


@njit(cache=True)
def reversed_keys(rows, key_word, key_len, nk):
    """GADDAG key strings: each prefix reversed, as tile codes 0-padded to 16.

    Args:
        rows: uint8 (n_words, width >= 16) the DAWG rows (``tile + 1``, 0-padded).
        key_word, key_len: from :func:`build_dawg`; ``nk`` keys.

    Returns:
        (rows uint8 (nk, 16), acc uint8 (nk,)): reversed prefixes and whether
        the prefix is itself a word.
    """
    out = np.zeros((nk, 16), dtype=np.uint8)
    acc = np.zeros(nk, dtype=np.uint8)
    for k in range(nk):
        w = key_word[k]
        n = key_len[k]
        for j in range(n):
            out[k, j] = rows[w, n - 1 - j] - 1
        acc[k] = 1 if n == rows.shape[1] or rows[w, n] == 0 else 0
    return out, acc


@njit(cache=True)
def build_gaddag(krows, key_acc, key_sep, reg, st_hash, table):
    """Register the GADDAG's states from the sorted reversed prefixes.

    Gordon's GADDAG string for a word w split after i letters is rev(w[:i]), then
    (if i < len(w)) the separator and w[i:]. The state after ``rev(p) + separator``
    accepts exactly the suffixes that complete p to a word: it *is* the DAWG state
    after p, already in the shared register. So only the part before the
    separator is built here (Daciuk et al. 2000, sorted input), each key's
    separator arc pointing straight at that DAWG state; the states registered,
    and their order, are those of the full-string construction.

    Args:
        krows: uint8 (nk, 16) reversed prefixes (tile codes, 0-padded, from
            :func:`reversed_keys`), sorted as byte strings.
        key_acc: uint8 (nk,) 1 when the prefix is a word.
        key_sep: int32 (nk,) DAWG state after the prefix, -1 when none.
        reg, st_hash, table: the register (see :func:`build_dawg`).

    Returns:
        (root state id, table).
    """
    m = krows.shape[0]
    while (reg[5][2] + m + m // 2) * 2 > table.shape[0]:  # about 1.3 new states per key: grow once
        table = _regrow(reg[0], reg[1], reg[2], reg[3], reg[4], st_hash, reg[5], table)
    none_i32 = np.zeros(0, dtype=np.int32)
    root, table, _ = _daciuk(krows, True, key_acc, key_sep, reg, st_hash, table,
                             none_i32, np.zeros(0, dtype=np.uint8), none_i32)
    return root, table


@njit(cache=True, inline="always")
def _arc_mix(h, tile, acc, child):
    v = np.uint64(tile) | (np.uint64(acc) << np.uint64(6)) | (np.uint64(child + 1) << np.uint64(7))
    h = (h ^ v) * np.uint64(1099511628211)
    return h ^ (h >> np.uint64(29))


@njit(cache=True)
def share_suffixes(reg):
    """Find states whose arc list equals the tail of a longer state's list.

    Such a state needs no arcs of its own: its list starts inside the longer
    list (the IS_END of the host ends both). Hosts are chosen longest first
    (stable by state id); among equal tails the first host registered wins
    (linear probing without deletion meets equal entries in insertion order,
    so the result does not depend on the hash function or the table size).
    Tails are hashed from the end, so a state's tails cost one pass; a
    state's whole list is never a tail candidate (the register holds no two
    equal states).

    Returns:
        (host, offset) int32 arrays over states: ``host[s] == s`` for a state
        laid out on its own, else the state whose list contains it at ``offset``.
    """
    arc_tile, arc_acc, arc_child, st_start, st_count, counters = reg
    n_states = counters[0]
    host = np.arange(n_states).astype(np.int32)
    offset = np.zeros(n_states, dtype=np.int32)
    order = np.empty(n_states, dtype=np.int64)  # by decreasing arc count, stable: a counting sort
    first = np.zeros(MAX_ARCS + 2, dtype=np.int64)
    for sid in range(n_states):
        first[MAX_ARCS - st_count[sid] + 1] += 1
    for c in range(1, MAX_ARCS + 2):
        first[c] += first[c - 1]
    for sid in range(n_states):
        b = MAX_ARCS - st_count[sid]
        order[first[b]] = sid
        first[b] += 1
    size = 1
    while size < 2 * counters[1] + 16:
        size *= 2
    # entry: state | offset << 32 | tag << 40 (-1 = empty)
    table = np.full(size, -1, dtype=np.int64)
    mask = np.uint64(size - 1)
    seed = np.uint64(1469598103934665603)
    for q in range(n_states):
        sid = order[q]
        n = st_count[sid]
        s = st_start[sid]
        if n == 0:
            continue
        h = seed
        for i in range(n - 1, -1, -1):
            h = _arc_mix(h, arc_tile[s + i], arc_acc[s + i], arc_child[s + i])
        tag = np.int64(h >> np.uint64(41))
        slot = h & mask
        found = False
        while True:
            e = table[slot]
            if e < 0:
                break
            if (e >> 40) == tag:
                hs = e & 0xFFFFFFFF
                ho = (e >> 32) & 0xFF
                if st_count[hs] - ho == n:
                    b = st_start[hs] + ho
                    same = True
                    for i in range(n):
                        if arc_tile[b + i] != arc_tile[s + i] or arc_acc[b + i] != arc_acc[s + i] \
                                or arc_child[b + i] != arc_child[s + i]:
                            same = False
                            break
                    if same:
                        host[sid] = hs
                        offset[sid] = ho
                        found = True
                        break
            slot = (slot + np.uint64(1)) & mask
        if found:
            continue
        h = seed
        for o in range(n - 1, 0, -1):
            h = _arc_mix(h, arc_tile[s + o], arc_acc[s + o], arc_child[s + o])
            slot = h & mask
            while table[slot] >= 0:
                slot = (slot + np.uint64(1)) & mask
            table[slot] = np.int64(sid) | (np.int64(o) << 32) | (np.int64(h >> np.uint64(41)) << 40)
    return host, offset


@njit(cache=True)
def place(reg, dawg_root, gaddag_root):
    """Lay the registered states out breadth-first: where each state's arc list goes.

    Node 0 points at the DAWG root's arc list, node 1 at the GADDAG root's;
    lists follow from node 2 in breadth-first order from the DAWG root, then
    the GADDAG root. A state whose list is the tail of another's gets no nodes
    of its own (``share_suffixes``).

    Returns:
        ``(host, offset, pos, queue, n_queued, n_nodes)``: ``pos[s]`` the first
        node of state ``s``'s own list (-1 for a hosted state), ``queue[:n_queued]``
        the states with their own list in layout order.
    """
    arc_tile, arc_acc, arc_child, st_start, st_count, counters = reg
    n_states = counters[0]
    host, offset = share_suffixes(reg)
    pos = np.full(n_states, -1, dtype=np.int64)
    queue = np.empty(n_states, dtype=np.int32)
    qh = 0
    qt = 0
    nxt = 2
    roots = np.array([dawg_root, gaddag_root])
    for r in range(2):
        root = roots[r]
        h = host[root]
        if st_count[root] > 0 and pos[h] < 0:
            pos[h] = nxt
            nxt += st_count[h]
            queue[qt] = h
            qt += 1
    while qh < qt:
        sid = queue[qh]
        qh += 1
        s = st_start[sid]
        for i in range(st_count[sid]):
            c = arc_child[s + i]
            if c >= 0 and st_count[c] > 0:
                h = host[c]
                if pos[h] < 0:
                    pos[h] = nxt
                    nxt += st_count[h]
                    queue[qt] = h
                    qt += 1
    return host, offset, pos, queue, qt, nxt


@njit(cache=True)
def emit(nodes, reg, dawg_root, gaddag_root, host, offset, pos, queue, n_queued, tile_shift, accepts, is_end):
    """Write the node array laid out by :func:`place` (either layout: the field
    positions come in as ``tile_shift``, ``accepts``, ``is_end``).

    Each state's arcs are contiguous; the last one carries *is_end*; an arc
    with no child state has arc index 0.

    Args:
        nodes: uint32 or uint64 ``(n_nodes,)`` output, zeroed.
    """
    arc_tile, arc_acc, arc_child, st_start, st_count, counters = reg
    shift = np.uint64(tile_shift)
    acc_bit = np.uint64(accepts)
    end_bit = np.uint64(is_end)
    roots = np.array([dawg_root, gaddag_root])
    for r in range(2):
        root = roots[r]
        if st_count[root] > 0:
            nodes[r] = end_bit | np.uint64(pos[host[root]] + offset[root])
        else:
            nodes[r] = end_bit
    for q in range(n_queued):
        sid = queue[q]
        s = st_start[sid]
        base = pos[sid]
        m = st_count[sid]
        for i in range(m):
            v = np.uint64(arc_tile[s + i]) << shift
            if arc_acc[s + i]:
                v |= acc_bit
            if i == m - 1:
                v |= end_bit
            c = arc_child[s + i]
            if c >= 0 and st_count[c] > 0:
                v |= np.uint64(pos[host[c]] + offset[c])
            nodes[base + i] = v


@njit(cache=True)
def graph_states(dawg_rows):
    """The registered states of the KWG of ``dawg_rows`` and their layout: the whole build up to the node array.

    :func:`build_dawg`, :func:`reversed_keys`, the sort of the reversed prefixes
    (:func:`pack_keys`, :func:`argsort_keys`), :func:`build_gaddag` and
    :func:`place` in one call (one kernel to load, one signature to compile
    ahead of time, ``lexicon_tools._build_aot``).

    Args:
        dawg_rows: uint8 ``(m, 17)`` distinct words as ``tile + 1``, 0-padded, sorted
            (:func:`sorted_word_rows`).

    Returns:
        ``(arc_tile, arc_acc, arc_child, st_start, st_count, counters, dawg_root,
        gaddag_root, host, offset, pos, queue, n_queued, n_nodes)``: the
        register (see :func:`build_dawg`), the roots, and :func:`place`'s
        result; :func:`emit_nodes` writes the node array from them.
    """
    total = 0
    for r in range(dawg_rows.shape[0]):
        for j in range(dawg_rows.shape[1]):
            if dawg_rows[r, j] != 0:
                total += 1
    # every distinct state has at least one arc, and both automata together have
    # at most (letters of the words) + (letters of the GADDAG keys) arcs
    cap_arcs = 2 * total + 64 + (MAX_DEPTH) * total // 2
    # np.empty: an entry is written before it is read, and untouched pages cost no memory
    reg = (np.empty(cap_arcs, dtype=np.uint8), np.empty(cap_arcs, dtype=np.uint8),
           np.empty(cap_arcs, dtype=np.int32), np.empty(cap_arcs, dtype=np.int32),
           np.empty(cap_arcs, dtype=np.int32), np.zeros(3, dtype=np.int64))
    st_hash = np.empty(cap_arcs, dtype=np.uint64)
    table = np.full((1 << 16, 2), -1, dtype=np.int64)
    key_word = np.empty(total, dtype=np.int32)
    key_len = np.empty(total, dtype=np.uint8)
    key_sep = np.empty(total, dtype=np.int32)
    dawg_root, table, nk = build_dawg(dawg_rows, reg, st_hash, table, key_word, key_len, key_sep)
    krows, key_acc = reversed_keys(dawg_rows, key_word, key_len, nk)
    hi, lo = pack_keys(krows)
    order = argsort_keys(hi, lo)
    krows_s = np.empty_like(krows)  # sorted, for sequential reads in the GADDAG pass
    acc_s = np.empty(nk, dtype=np.uint8)
    sep_s = np.empty(nk, dtype=np.int32)
    for i in range(nk):
        o = order[i]
        krows_s[i] = krows[o]
        acc_s[i] = key_acc[o]
        sep_s[i] = key_sep[o]
    gaddag_root, table = build_gaddag(krows_s, acc_s, sep_s, reg, st_hash, table)
    host, offset, pos, queue, qt, n_nodes = place(reg, dawg_root, gaddag_root)
    return (reg[0], reg[1], reg[2], reg[3], reg[4], reg[5], np.int64(dawg_root), np.int64(gaddag_root),
            host, offset, pos, queue, np.int64(qt), np.int64(n_nodes))


@njit(cache=True)
def emit_nodes(nodes, arc_tile, arc_acc, arc_child, st_start, st_count, counters, dawg_root, gaddag_root,
               host, offset, pos, queue, n_queued, tile_shift, accepts, is_end):
    """:func:`emit` with the register as separate arrays (the result of :func:`graph_states`)."""
    emit(nodes, (arc_tile, arc_acc, arc_child, st_start, st_count, counters), dawg_root, gaddag_root,
         host, offset, pos, queue, n_queued, tile_shift, accepts, is_end)


def layout(reg, dawg_root, gaddag_root, node_layout=None):
    """:func:`place` and :func:`emit`: the node array (uint32 KWG unless ``node_layout``
    is :data:`lexicon_tools._kwg_nodes.WIDE`)."""
    from ._kwg_nodes import KWG

    lay = node_layout or KWG
    host, offset, pos, queue, qt, nxt = place(reg, dawg_root, gaddag_root)
    nodes = np.zeros(nxt, dtype=lay.dtype)
    emit(nodes, reg, dawg_root, gaddag_root, host, offset, pos, queue, qt, lay.tile_shift, lay.accepts, lay.is_end)
    return nodes


# ---------------------------------------------------------------------------
# Walking
# ---------------------------------------------------------------------------
@njit(cache=True, inline="always")
def child_arc(kwg, p, tile):
    """Index of the arc with ``tile`` in the arc list starting at ``p``, or -1."""
    if p == 0:
        return -1
    while True:
        v = kwg[p]
        if node_tile(v) == tile:
            return p
        if node_is_end(v):
            return -1
        p += 1


@njit(cache=True)
def accepts_path(kwg, start_node, tiles, n):
    """True when the tile path ``tiles[:n]`` from node ``start_node``'s list is accepted."""
    p = node_arc(kwg[start_node])
    a = -1
    for i in range(n):
        a = child_arc(kwg, p, tiles[i])
        if a < 0:
            return False
        p = node_arc(kwg[a])
    return a >= 0 and node_accepts(kwg[a]) != 0


@njit(cache=True)
def verify_sorted(kwg, rows):
    """Check that the graph's DAWG and GADDAG hold exactly the words of ``rows``.

    DAWG: every word is walked (each distinct prefix once, reusing the previous
    word's path) and must end on an accepting arc; the caller then compares
    :func:`count_words` with the number of words, so nothing else is accepted.
    GADDAG: for every distinct prefix p, the path rev(p) must exist, its last
    arc must accept exactly when p is a word, and the arc list it leads to must
    start with a separator arc exactly when some word extends p -- pointing at
    the very arc list the DAWG reaches after p (whose language the DAWG check
    proved right). The caller compares :func:`count_gaddag_keys` with the
    number of such accept/separator marks, so the GADDAG holds no other string.
    Together this is Gordon's (1994) GADDAG of the word set, every word from
    every split point, in time linear in the prefixes rather than quadratic
    in the word lengths.

    Args:
        kwg: uint32 (n_nodes,) validated node array.
        rows: uint8 (m, width) words as ``tile + 1``, 0-padded, sorted, unique.

    Returns:
        (bad, marks): ``bad`` is the index of the first failing word (-1: all
        pass), ``marks`` the number of accepting + separator arcs the GADDAG
        must hold before its separators.
    """
    m, width = rows.shape
    arc = np.zeros(MAX_DEPTH + 2, dtype=np.int64)  # arc taken at each depth of the current word
    tiles = np.zeros(MAX_DEPTH + 2, dtype=np.int64)
    prev_len = 0
    marks = 0
    droot = node_arc(kwg[0])
    groot = node_arc(kwg[1])
    g1 = np.full(256, -2, dtype=np.int64)  # arc of tile t in the GADDAG root list (-1: none, -2: not looked up)
    g2 = np.full((256, 256), -2, dtype=np.int64)  # arc of t2 in the list below g1[t1]
    for r in range(m):
        n = 0
        while n < width and rows[r, n] != 0:
            n += 1
        lcp = 0
        while lcp < n and lcp < prev_len and rows[r, lcp] == rows[r - 1, lcp]:
            lcp += 1
        for i in range(lcp, n):
            tiles[i] = rows[r, i] - 1
            p = droot if i == 0 else node_arc(kwg[arc[i - 1]])
            a = child_arc(kwg, p, tiles[i])
            if a < 0:
                return r, marks
            arc[i] = a
        if not node_accepts(kwg[arc[n - 1]]):
            return r, marks
        # the prefixes new with this word: rows[r, :i] for i in lcp+1..n
        for i in range(lcp + 1, n + 1):
            is_word = i == n
            extended = (i < n) or (r + 1 < m and n < width and rows[r + 1, n] != 0
                                   and _same_prefix(rows, r, r + 1, n))
            # a wrong extension of a whole word is the next word's fault (it is the one missing)
            ext_blame = r + 1 if (i == n and extended) else r
            dnode = node_arc(kwg[arc[i - 1]])
            if extended != (dnode != 0):
                return ext_blame, marks
            # rev(p) from the GADDAG root; its first two arcs from the memo (the root's lists are the longest)
            t1 = tiles[i - 1]
            a = g1[t1]
            if a == -2:
                a = child_arc(kwg, groot, t1)
                g1[t1] = a
            if a < 0:
                return r, marks
            if i >= 2:
                t2 = tiles[i - 2]
                b = g2[t1, t2]
                if b == -2:
                    b = child_arc(kwg, node_arc(kwg[a]), t2)
                    g2[t1, t2] = b
                a = b
                if a < 0:
                    return r, marks
            p = node_arc(kwg[a])
            for j in range(i - 3, -1, -1):
                a = child_arc(kwg, p, tiles[j])
                if a < 0:
                    return r, marks
                p = node_arc(kwg[a])
            if (node_accepts(kwg[a]) != 0) != is_word:
                return r, marks
            if is_word:
                marks += 1
            has_sep = p != 0 and node_tile(kwg[p]) == 0
            if has_sep != extended:
                return ext_blame, marks
            if extended:
                if node_arc(kwg[p]) != dnode:
                    return ext_blame, marks
                marks += 1
        prev_len = n
    return -1, marks


@njit(cache=True)
def _same_prefix(rows, a, b, n):
    for j in range(n):
        if rows[a, j] != rows[b, j]:
            return False
    return True


_SATURATE = np.int64(1) << np.int64(62)


@njit(cache=True)
def count_below(kwg, start_node, gaddag_keys):
    """Accepted paths below node ``start_node``'s list, memoised per arc list and
    saturating at 2**62 (a crafted graph can hold more paths than an int64).

    With ``gaddag_keys``, separator arcs are not followed but counted as one
    each: accepting plus separator arcs on the paths that do not cross a
    separator, i.e. the GADDAG strings up to their separator
    (:func:`verify_sorted`).

    Only for acyclic graphs of in-range arc indices; returns -1 for a graph
    deeper than 60 arcs (a cycle: damaged file).
    """
    n = kwg.shape[0]
    root = node_arc(kwg[start_node])
    if root == 0:
        return np.int64(0)
    memo = np.full(n, -1, dtype=np.int64)
    stack = np.empty(64, dtype=np.int64)
    stack[0] = root
    sp = 1
    while sp > 0:  # iterative post-order over arc lists
        p = stack[sp - 1]
        if memo[p] >= 0:
            sp -= 1
            continue
        if sp >= 63:
            return np.int64(-1)
        ready = True
        i = p
        while True:
            c = node_arc(kwg[i])
            if c != 0 and memo[c] < 0 and not (gaddag_keys and node_tile(kwg[i]) == 0):
                stack[sp] = c
                sp += 1
                ready = False
                break
            if node_is_end(kwg[i]):
                break
            i += 1
        if ready:
            total = np.int64(0)
            i = p
            while True:
                v = kwg[i]
                if node_accepts(v):
                    total += 1
                c = node_arc(v)
                if gaddag_keys and node_tile(v) == 0:
                    total += 1
                elif c != 0:
                    total += memo[c]
                if total > _SATURATE:
                    total = _SATURATE
                if node_is_end(v):
                    break
                i += 1
            memo[p] = total
            sp -= 1
    return memo[root]


@njit(cache=True)
def count_words(kwg, start_node):
    """Words (accepted paths) below node ``start_node``'s list: :func:`count_below`."""
    return count_below(kwg, start_node, False)


@njit(cache=True)
def count_gaddag_keys(kwg, start_node):
    """GADDAG strings up to the separator below ``start_node``'s list: :func:`count_below`."""
    return count_below(kwg, start_node, True)


@njit(cache=True)
def verify_graph(kwg, rows, non_codes, non_lens):
    """The whole verification in one kernel (one cache load).

    :func:`verify_sorted` on ``rows``, then :func:`count_words` of the DAWG
    against the number of rows, :func:`count_gaddag_keys` against the marks,
    and every non-word (``non_codes`` uint8 (k, 16) tile codes, ``non_lens``
    int32 (k,)) must be rejected by the DAWG.

    Returns:
        int64 (3,) ``[status, a, b]``: 0 all good; 1 row ``a`` fails; 2 the
        DAWG holds ``a`` words; 3 the GADDAG holds ``a`` marks, ``b`` expected;
        4 non-word ``a`` is accepted.
    """
    out = np.zeros(3, dtype=np.int64)
    bad, marks = verify_sorted(kwg, rows)
    if bad >= 0:
        out[0] = 1
        out[1] = bad
        return out
    n = count_words(kwg, 0)
    if n != rows.shape[0]:
        out[0] = 2
        out[1] = n
        return out
    g = count_gaddag_keys(kwg, 1)
    if g != marks:
        out[0] = 3
        out[1] = g
        out[2] = marks
        return out
    for i in range(non_codes.shape[0]):
        if accepts_path(kwg, 0, non_codes[i], non_lens[i]):
            out[0] = 4
            out[1] = i
            return out
    return out
