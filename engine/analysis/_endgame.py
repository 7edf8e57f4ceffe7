"""Numba kernels of the endgame solver (bag empty, both racks known).

Exact negamax on spread (Knuth & Moore 1975, "An analysis of alpha-beta
pruning") with a transposition table keyed by a Zobrist hash (Zobrist 1970)
of board, both racks, the side to move and the consecutive passes, move
ordering (transposition-table move, killer moves, going out, score, tiles
played) and the German end rules (SPEC.md "End of game"):

* a player who plays out gains the opponent's rack value and the opponent
  loses it: ``+2 × value(opponent's rack)`` of spread for the player going out;
* after four consecutive passes (both players passed twice) each side loses
  its own rack: ``value(opponent) − value(own)`` for the side to move.

Moves come from the GADDAG kernels of :mod:`engine.movegen._movegen`
(``generate_checked`` into a preallocated per-ply buffer); a move is placed on
the board arrays, the cross-checks of the touched lines are recomputed with
``update_cross_checks`` and everything is restored from the per-ply copies on
the way back.

Speed-ups that never change a move list or a value (tested on and off):

* incremental move lists (``C_INC``): a node takes over the moves of the
  nearest ancestor of the same side that generated its whole list, on the
  lines whose tiles and cross-checks no move since changed, if the rack still
  holds their tiles (racks only shrink), and generates only the changed lines
  (:func:`generate_lines`); see :func:`_gen_node`;
* the history heuristic (Schaeffer 1989) in the move order: a move's key
  gains the count of cut-offs it caused anywhere (weighted by the tiles left
  squared), after the table's move and the killers;
* a staged killer: a node without a table move first tries the move that last
  cut at its ply, if it is legal here, before generating its moves; legality and
  score come from generating that move's one line (:func:`_stage_killer`), so
  the move is one of the full list's with the full list's score (most such
  nodes are cut by it and never generate their list);
* (in :mod:`engine.analysis.endgame`) a lexicon pruned to the words the two racks can
  still form on the board (:mod:`engine.analysis._wordprune`). :mod:`engine.analysis.endgame` validates the position and drives the
iterative deepening; these kernels see only checked arrays.

State arrays (shapes and dtypes):

* ``tiles`` uint8 (15, 15), ``tvals`` int32 (15, 15), ``lm``/``wm`` int32
  (15, 15) open premiums, ``cs`` uint32 / ``xs`` int32 / ``hx`` uint8
  (2, 15, 15) cross-checks as in :mod:`engine.movegen._movegen`;
* ``racks`` int64 (2, n_letters + 1): tile counts of player 0 and player 1;
* ``zb`` uint64 (15, 15, 128) board keys by square and placed code
  (letter | ``BLANK_FLAG``), ``zr`` uint64 (2, n_letters + 1, 8) rack keys by
  player, tile and count, ``zs`` uint64 (2, 5) side-to-move × passes keys;
* the transposition table ``tt_key`` uint64 (size,), ``tt_val`` int32 (size, 2) a lower and
  an upper bound of the state's value, ``tt_depth`` int16 (``EXACT_DEPTH`` = searched to the end of the game),
  ``tt_flag`` uint8 (1 exact, 2 lower bound, 3 upper bound, 4 both bounds), ``tt_move``
  uint64 (key of the best move, 0 none), ``tt_row`` int16 (size, OUT_WIDTH) the
  best move's generator row (tried before the node's moves are generated; a
  cut-off by it saves the generation); two slots per index (depth-preferred
  and always-replace). ``size = 1`` disables the table.
"""

from __future__ import annotations

import time
import warnings

import numpy as np
from numba import njit, objmode

# negamax reads the clock in an objmode block; Numba then warns at every load that the block
# holds the GIL despite nogil=True. It is taken once per 4,096 nodes, so the warning is noise.
warnings.filterwarnings("ignore", message="Code running in object mode won't allow parallel execution")

from lexicon_tools import _numba_cache

_numba_cache.drop_stale_cache(__file__)  # callee kernels changed -> recompile

from lexicon_tools._kwg_nodes import node_arc  # uint32 KWG or uint64 wide

from engine.movegen import _movegen as K

N = 15
W = K.OUT_WIDTH
BLANK_FLAG = K.BLANK_FLAG
EXACT_DEPTH = 255
PASS_KEY = np.uint64(1)
END_PASSES = 4
INF = 1 << 20
MAXPLY = 64
CAP = 4096

# counters: nodes, abort flag, node limit, depth-limited leaves, tt hits, deepest ply entered, move generations
C_NODES, C_ABORT, C_LIMIT, C_LEAVES, C_HITS, C_MAXPLY, C_GENS = 0, 1, 2, 3, 4, 5, 6
# move-ordering weights (read from the counters array): per point scored, per tile played,
# per point of the tiles played (dumping high-value tiles first)
C_W_SCORE, C_W_TILES, C_W_TVAL = 8, 9, 10
# history heuristic: weight of a move's history count in its ordering key (0 = off), the cap of a count
C_W_HIST, C_HIST_CAP = 11, 12
# 1 = incremental move lists (see _gen_node); moves taken over from the grandparent's list
C_INC, C_REUSED = 13, 14
# killers staged at nodes without a table move (0, 1, 2; see _stage_killer); nodes that tried one, found one
# legal, were cut by it
C_KSTAGE, C_KTRIED, C_KFOUND, C_KCUT = 15, 16, 17, 18
# 1 = after the opponent's pass, the pass is ordered first after the table's move (a quick end of the game by passes
# bounds the node at once); 1 = a ply whose staged killers seldom cut (below 1 in 4 of the last tries) stages one only
# at every 16th chance (the others generate their moves at once)
C_PASSFIRST, C_KADAPT = 19, 20
# conservation (MAGPIE's idea): the side ``counters[C_CONS_SIDE] - 1`` (none when 0), whose opponent holds stuck tiles,
# orders its moves that do not go out lower by C_W_CONS_T per tile and C_W_CONS_V per point of the tiles played
C_CONS_SIDE, C_W_CONS_T, C_W_CONS_V = 21, 22, 23
INC_BACK = 32
N_COUNTERS = 24
HIST_BITS = 16


@njit(cache=True)
def rack_value(rack, vals):
    """Points of the tiles on a rack (blanks 0)."""
    s = 0
    for t in range(1, rack.shape[0]):
        s += rack[t] * vals[t]
    return s


@njit(cache=True)
def move_key(mv, i):
    """A 64-bit key of move row ``i`` (start, direction, placed tiles); ``PASS_KEY`` is the pass."""
    h = np.uint64(0x9E3779B97F4A7C15)
    h ^= np.uint64(mv[i, K.OUT_ROW] * 15 + mv[i, K.OUT_COL] + 225 * mv[i, K.OUT_DIR] + 1000 * mv[i, K.OUT_LEN])
    h *= np.uint64(0xBF58476D1CE4E5B9)
    for k in range(mv[i, K.OUT_LEN]):
        h ^= np.uint64(mv[i, K.OUT_TILES + k] + 1 + 131 * k)
        h *= np.uint64(0x94D049BB133111EB)
        h ^= h >> np.uint64(29)
    h |= np.uint64(2)  # never 0 (none) or 1 (pass)
    return h


@njit(cache=True)
def full_hash(tiles, blanks, racks, side, passes, zb, zr, zs):
    """Zobrist hash of a whole state (board codes with ``BLANK_FLAG`` for blanks)."""
    h = zs[side, passes]
    for r in range(N):
        for c in range(N):
            t = tiles[r, c]
            if t != 0:
                code = t | BLANK_FLAG if blanks[r, c] else t
                h ^= zb[r, c, code]
    for p in range(2):
        for t in range(racks.shape[1]):
            h ^= zr[p, t, racks[p, t]]
    return h


@njit(cache=True)
def apply_move(mv, i, tiles, tvals, lm, wm, cs, xs, hx, racks, side, vals, kwg, all_mask, zb, zr,
               save_cs, save_xs, save_hx, save_sq, rows, cols):
    """Place move row ``i`` for ``side``; returns the hash delta. Saves what :func:`undo_move` restores.

    ``save_sq`` int32 (8, 3): square index, old lm, old wm of each placed tile.
    """
    save_cs[:, :, :] = cs
    save_xs[:, :, :] = xs
    save_hx[:, :, :] = hx
    r0 = mv[i, K.OUT_ROW]
    c0 = mv[i, K.OUT_COL]
    dr = 1 if mv[i, K.OUT_DIR] == 1 else 0
    dc = 1 - dr
    rows[:] = 0
    cols[:] = 0
    d = np.uint64(0)
    n = 0
    for k in range(mv[i, K.OUT_LEN]):
        code = mv[i, K.OUT_TILES + k]
        if code == 0:
            continue
        r = r0 + dr * k
        c = c0 + dc * k
        letter = code & (BLANK_FLAG - 1)
        save_sq[n, 0] = r * N + c
        save_sq[n, 1] = lm[r, c]
        save_sq[n, 2] = wm[r, c]
        n += 1
        tiles[r, c] = letter
        if code & BLANK_FLAG:
            tvals[r, c] = 0
            t = 0
        else:
            tvals[r, c] = vals[letter]
            t = letter
        lm[r, c] = 1
        wm[r, c] = 1
        d ^= zb[r, c, code]
        d ^= zr[side, t, racks[side, t]]
        racks[side, t] -= 1
        d ^= zr[side, t, racks[side, t]]
        rows[r] = 1
        cols[c] = 1
    K.update_cross_checks(kwg, tiles, tvals, all_mask, cs, xs, hx, rows, cols)
    return d


@njit(cache=True)
def undo_move(mv, i, tiles, tvals, lm, wm, cs, xs, hx, racks, side, save_cs, save_xs, save_hx, save_sq):
    """Take move row ``i`` back (inverse of :func:`apply_move`)."""
    n = 0
    for k in range(mv[i, K.OUT_LEN]):
        code = mv[i, K.OUT_TILES + k]
        if code == 0:
            continue
        sq = save_sq[n, 0]
        r = sq // N
        c = sq % N
        tiles[r, c] = 0
        tvals[r, c] = 0
        lm[r, c] = save_sq[n, 1]
        wm[r, c] = save_sq[n, 2]
        n += 1
        t = 0 if code & BLANK_FLAG else code
        racks[side, t] += 1
    cs[:, :, :] = save_cs
    xs[:, :, :] = save_xs
    hx[:, :, :] = save_hx


@njit(cache=True)
def _tt_probe(tt_key, h):
    """Slot holding ``h`` (-1 if none)."""
    m = tt_key.shape[0]
    if m <= 2:
        return -1
    base = np.int64(h & np.uint64((m >> 1) - 1)) * 2
    if tt_key[base] == h:
        return base
    if tt_key[base + 1] == h:
        return base + 1
    return -1


@njit(cache=True)
def _tt_store(tt_key, tt_val, tt_depth, tt_flag, tt_move, h, value, depth, flag, mkey):
    """Store a search's result: ``flag`` 1 exact, 2 lower bound (failed high), 3 upper bound (failed low).

    ``tt_val[slot]`` = (lower bound, upper bound). A result for a state whose entry has the same
    depth (both searched to the end of the game: ``EXACT_DEPTH``) narrows the entry's bounds
    instead of replacing them, so a state reached with different windows (the same tiles played
    in another order score differently on the way) keeps what each search proved. Bounds that
    would cross (depth-limited values can depend on the path through the table) are replaced.
    """
    m = tt_key.shape[0]
    if m <= 2:
        return
    lo = np.int64(value) if flag != 3 else np.int64(-INF)
    hi = np.int64(value) if flag != 2 else np.int64(INF)
    slot = _tt_probe(tt_key, h)
    if slot >= 0 and tt_depth[slot] == depth:
        lo2 = max(lo, np.int64(tt_val[slot, 0]))
        hi2 = min(hi, np.int64(tt_val[slot, 1]))
        if lo2 <= hi2:
            lo = lo2
            hi = hi2
    base = np.int64(h & np.uint64((m >> 1) - 1)) * 2
    if not (slot == base + 1 and depth < tt_depth[base]):  # else: it stays in the always-replace slot
        slot = base if tt_key[base] == h or depth >= tt_depth[base] else base + 1
    if slot == base and tt_key[base + 1] == h:
        tt_key[base + 1] = 0  # no stale copy of the state in the other slot
    tt_key[slot] = h
    tt_val[slot, 0] = lo
    tt_val[slot, 1] = hi
    tt_depth[slot] = depth
    tt_flag[slot] = 1 if lo == hi else (2 if hi >= INF else (3 if lo <= -INF else 4))
    tt_move[slot] = mkey


# frame fields (int64) of the iterative search
FD_DEPTH, FD_ALPHA, FD_BETA, FD_A0, FD_SIDE, FD_PASSES, FD_N, FD_J, FD_BEST, FD_COMPLETE, FD_SCORE, FD_CUR, \
    FD_OFF, FD_NTILES, FD_OPVAL, FD_NULLW, FD_STAGE, FD_BESTI = range(18)
FD_WIDTH = 18
SKIP_KEY = -(1 << 60)
M_ENTER, M_NEXT, M_RETURN = 0, 1, 2


@njit(cache=True)
def _grow(arena, keys, order, need):
    size = arena.shape[0]
    while size < need:
        size *= 2
    a2 = np.zeros((size, W), dtype=np.int32)
    a2[: arena.shape[0]] = arena
    k2 = np.zeros(size, dtype=np.int64)
    k2[: keys.shape[0]] = keys
    o2 = np.zeros(size, dtype=np.int64)
    o2[: order.shape[0]] = order
    return a2, k2, o2

@njit(cache=True)
def _gen_lines_masked(kwg, tiles, tvals, cs, xs, hx, lm, wm, rack, vals, out, cnt, params, mask):
    """The moves of one direction (``params[2]``) on the lines where ``mask`` is set.

    The line loop of :func:`engine.movegen._movegen._gen_lines` (non-empty board) restricted to
    some lines; each anchor is walked by the generator's own ``_gen_anchor``.
    """
    info = np.zeros((7, N), dtype=np.int64)
    placed = np.zeros(N, dtype=np.int64)
    stack = np.zeros((K.STACK, K.F_WIDTH), dtype=np.int64)
    groot = node_arc(kwg[1])
    no_spb = np.zeros((1, 1), dtype=np.float64)
    no_pfx = np.zeros(1, dtype=np.float64)
    no_radix = np.zeros(1, dtype=np.int64)
    for line in range(N):
        if mask[line] == 0:
            continue
        for c in range(N):
            info[K.I_TILE, c] = tiles[line, c]
            info[K.I_VAL, c] = tvals[line, c]
            info[K.I_CS, c] = cs[line, c]
            info[K.I_XS, c] = xs[line, c]
            info[K.I_HX, c] = hx[line, c]
            info[K.I_LM, c] = lm[line, c]
            info[K.I_WM, c] = wm[line, c]
        last_anchor = -2
        for c in range(N):
            if tiles[line, c] != 0:
                is_anchor = c == N - 1 or tiles[line, c + 1] == 0
            else:
                is_anchor = (hx[line, c] != 0 and (c == 0 or tiles[line, c - 1] == 0)
                             and (c == N - 1 or tiles[line, c + 1] == 0))
            if is_anchor:
                fit = np.int64(0) if params[1] == 0 else (np.int64(-1) if rack[0] > 0 else params[5])
                if tiles[line, c] == 0:
                    open_ = (info[K.I_CS, c] & fit) != 0
                else:
                    open_ = c < N - 1 and (info[K.I_CS, c + 1] & fit) != 0
                    if not open_:
                        l0 = c
                        while l0 > 0 and tiles[line, l0 - 1] != 0:
                            l0 -= 1
                        open_ = l0 > 0 and l0 - 1 != last_anchor and (info[K.I_CS, l0 - 1] & fit) != 0
                if open_:
                    K._gen_anchor(kwg, info, rack, vals, placed, out, cnt, params, stack, c, last_anchor, groot,
                                  line, no_spb, no_spb, no_pfx, no_pfx, no_radix, no_pfx, False)
                last_anchor = c


@njit(cache=True)
def generate_lines(kwg, tiles, tvals, lm, wm, rack, vals, bingo_tiles, bingo_bonus, cs, xs, hx, out, cnt, dirty):
    """:func:`engine.movegen._movegen.generate_checked` on the lines of ``dirty`` only (non-empty board).

    ``dirty`` uint8 (2, 15): ``[0, r]`` across moves of row r, ``[1, c]`` down moves of column c.
    The moves of a line depend only on the line's tiles, premiums and cross-checks and on
    the rack, so a line whose arrays did not change keeps its moves.
    """
    params = K._params(rack, bingo_tiles, bingo_bonus)
    cnt[0] = 0
    for d in range(2):
        any_ = False
        for line in range(N):
            if dirty[d, line]:
                any_ = True
        if not any_:
            continue  # no line of this direction (saves the transposed copies)
        params[2] = d
        if d == 0:
            _gen_lines_masked(kwg, tiles, tvals, cs[0], xs[0], hx[0], lm, wm, rack, vals, out, cnt, params, dirty[0])
        else:
            _gen_lines_masked(kwg, tiles.T.copy(), tvals.T.copy(), cs[1], xs[1], hx[1], lm.T.copy(), wm.T.copy(),
                              rack, vals, out, cnt, params, dirty[1])


@njit(cache=True)
def _mark_move(arena, i, dirty):
    """Mark the lines of the squares move row ``i`` places tiles on (across row and down column)."""
    r0 = arena[i, K.OUT_ROW]
    c0 = arena[i, K.OUT_COL]
    dr = 1 if arena[i, K.OUT_DIR] == 1 else 0
    dc = 1 - dr
    for k in range(arena[i, K.OUT_LEN]):
        if arena[i, K.OUT_TILES + k] != 0:
            dirty[0, r0 + dr * k] = 1
            dirty[1, c0 + dc * k] = 1


@njit(cache=True)
def _dirty_lines(g, sp, fr, arena, cs, xs, hx, save_cs, save_xs, save_hx, dirty):
    """Lines whose tiles or cross-checks changed since the state of ancestor frame ``g``.

    The moves made since are those of frames ``g .. sp - 1``. Returns False when none
    of them changed the board (all passes: every line clean).
    """
    dirty[:, :] = 0
    ref = -1
    for f in range(g, sp):
        if arena[fr[f, FD_CUR], K.OUT_LEN] != 0:
            if ref < 0:
                ref = f
            _mark_move(arena, fr[f, FD_CUR], dirty)
    if ref < 0:
        return False
    rcs = save_cs[ref]
    rxs = save_xs[ref]
    rhx = save_hx[ref]
    for d in range(2):
        for line in range(N):
            if dirty[d, line]:
                continue
            for q in range(N):
                if rcs[d, line, q] != cs[d, line, q] or rxs[d, line, q] != xs[d, line, q] or \
                        rhx[d, line, q] != hx[d, line, q]:
                    dirty[d, line] = 1
                    break
    return True


@njit(cache=True)
def _gen_node(off, start, sp, fr, kwg, tiles, tvals, lm, wm, racks, vals, bingo_tiles, bingo_bonus, cs, xs, hx,
              arena, keys, order, killers, hist, counters, ttm, side, save_cs, save_xs, save_hx, dirty, need):
    """Generate the moves of frame ``sp`` into ``arena[off + start:]`` with the pass last, order keys set.

    ``start = 1`` when the table's move was tried already at ``arena[off]``: its
    duplicate in the new list gets ``SKIP_KEY``. Sets ``FD_N``; returns the (maybe grown) arrays.

    Incremental lists (``counters[C_INC]``): the same side moved two plies up, from a
    board that differs only on the lines the two moves since changed, with a rack
    that holds a superset of this rack's tiles. So this node's moves are the
    grandparent's moves on unchanged lines whose tiles the rack still holds, plus
    the moves generated on the changed lines (:func:`generate_lines`).
    """
    base = off + start
    counters[C_GENS] += 1
    cnt = np.zeros(1, dtype=np.int64)
    rack = racks[side]
    # the nearest ancestor of the same side (at most INC_BACK moves of it up) with its whole list
    g = -1
    if counters[C_INC] != 0:
        k = sp - 2
        while k >= 0 and k >= sp - 2 * INC_BACK:
            if fr[k, FD_STAGE] == 0:
                g = k
                break
            k -= 2
    inc = g >= 0
    if inc:
        nf = 0
        if _dirty_lines(g, sp, fr, arena, cs, xs, hx, save_cs, save_xs, save_hx, dirty):
            g0 = fr[g, FD_OFF]
            g1 = g0 + fr[g, FD_N]
            if base + (g1 - g0) + 1 > arena.shape[0]:
                arena, keys, order = _grow(arena, keys, order, base + (g1 - g0) + 1)
            for i in range(g0, g1):
                ln = arena[i, K.OUT_LEN]
                if ln == 0 or keys[i] == SKIP_KEY:
                    continue
                line = arena[i, K.OUT_COL] if arena[i, K.OUT_DIR] == 1 else arena[i, K.OUT_ROW]
                if dirty[arena[i, K.OUT_DIR], line]:
                    continue
                ok = True
                for q in range(ln):
                    code = arena[i, K.OUT_TILES + q]
                    if code != 0:
                        t = 0 if code & BLANK_FLAG else code
                        need[t] += 1
                        if need[t] > rack[t]:
                            ok = False
                for q in range(ln):
                    code = arena[i, K.OUT_TILES + q]
                    if code != 0:
                        need[0 if code & BLANK_FLAG else code] = 0
                if ok:
                    for k in range(W):
                        arena[base + nf, k] = arena[i, k]
                    nf += 1
            counters[C_REUSED] += nf
            generate_lines(kwg, tiles, tvals, lm, wm, rack, vals, bingo_tiles, bingo_bonus, cs, xs, hx,
                           arena[base + nf:], cnt, dirty)
            if base + nf + cnt[0] + 1 > arena.shape[0]:
                arena, keys, order = _grow(arena, keys, order, base + nf + cnt[0] + 1)
                generate_lines(kwg, tiles, tvals, lm, wm, rack, vals, bingo_tiles, bingo_bonus, cs, xs, hx,
                               arena[base + nf:], cnt, dirty)
        else:
            inc = False
        n = np.int64(cnt[0]) + nf
    if not inc:
        K.generate_checked(kwg, tiles, tvals, lm, wm, rack, vals, bingo_tiles, bingo_bonus, cs, xs, hx,
                           arena[base:], cnt)
        n = np.int64(cnt[0])
        if base + n + 1 > arena.shape[0]:
            arena, keys, order = _grow(arena, keys, order, base + n + 1)
            K.generate_checked(kwg, tiles, tvals, lm, wm, rack, vals, bingo_tiles, bingo_bonus, cs, xs, hx,
                               arena[base:], cnt)
    for k in range(W):
        arena[base + n, k] = 0  # the pass: a row of length 0
    ntiles = fr[sp, FD_NTILES]
    op_val = fr[sp, FD_OPVAL]
    k1 = killers[sp, 0]
    k2 = killers[sp, 1]
    for i in range(base, base + n + 1):
        if i == base + n:
            mk = PASS_KEY
            key = np.int64(-1000)
            if counters[C_PASSFIRST] != 0 and fr[sp, FD_PASSES] >= 1:
                key = np.int64(1) << 31
        else:
            mk = move_key(arena, i)
            sc = np.int64(arena[i, K.OUT_SCORE])
            tp = np.int64(arena[i, K.OUT_NTILES])
            key = sc * counters[C_W_SCORE] + tp * counters[C_W_TILES]
            if counters[C_W_TVAL] != 0:
                tv = 0
                for q in range(arena[i, K.OUT_LEN]):
                    code = arena[i, K.OUT_TILES + q]
                    if code != 0 and (code & BLANK_FLAG) == 0:
                        tv += vals[code]
                key += tv * counters[C_W_TVAL]
            if tp == ntiles:
                key += (np.int64(1) << 28) + 8 * op_val
            elif counters[C_CONS_SIDE] == side + 1:
                tv = 0
                for q in range(arena[i, K.OUT_LEN]):
                    code = arena[i, K.OUT_TILES + q]
                    if code != 0 and (code & BLANK_FLAG) == 0:
                        tv += vals[code]
                key -= tp * counters[C_W_CONS_T] + tv * counters[C_W_CONS_V]
            if counters[C_W_HIST] != 0:
                hv = hist[np.int64(mk >> np.uint64(64 - HIST_BITS))]
                if hv > counters[C_HIST_CAP]:
                    hv = counters[C_HIST_CAP]
                key += hv * counters[C_W_HIST]
        if mk == ttm:
            key = SKIP_KEY if start == 1 else key + (np.int64(1) << 40)
        elif mk == k1:
            key += np.int64(1) << 30
        elif mk == k2:
            key += np.int64(1) << 29
        keys[i] = key
        order[i] = i
    fr[sp, FD_N] = start + n + 1
    return arena, keys, order


@njit(cache=True)
def _stage_killer(krow, killers, sp, off, arena, keys, order, kwg, tiles, tvals, lm, wm, rack, vals, bingo_tiles,
                  bingo_bonus, cs, xs, hx, dirty, counters):
    """Put a killer move of ply ``sp`` at ``arena[off]`` if one is legal here; returns (arena, keys, order, key).

    ``krow`` int32 (plies, 2, OUT_WIDTH): ``krow[sp, q]`` is the row of killer ``q``
    (``killers[sp, q]``, a move that cut at this ply in a sibling's position); the second
    killer is tried only when ``counters[C_KSTAGE]`` is 2. Legality and present score come
    from the generator itself: the moves of the killers' lines (:func:`generate_lines` with only those lines marked) are
    generated into the arena after ``off`` and searched for the killers' keys (the first
    killer preferred), so a staged killer is always a move of the full list, with the score
    the full list gives it. The key is 0 when neither killer is legal.
    """
    dirty[:, :] = 0
    nk = 2 if counters[C_KSTAGE] > 1 else 1
    for q in range(nk):
        if killers[sp, q] > PASS_KEY:
            d = krow[sp, q, K.OUT_DIR]
            dirty[d, krow[sp, q, K.OUT_COL] if d == 1 else krow[sp, q, K.OUT_ROW]] = 1
    cnt = np.zeros(1, dtype=np.int64)
    if off + 64 > arena.shape[0]:
        arena, keys, order = _grow(arena, keys, order, off + 64)
    generate_lines(kwg, tiles, tvals, lm, wm, rack, vals, bingo_tiles, bingo_bonus, cs, xs, hx,
                   arena[off + 1:], cnt, dirty)
    if off + 1 + cnt[0] > arena.shape[0]:
        arena, keys, order = _grow(arena, keys, order, off + 1 + cnt[0])
        generate_lines(kwg, tiles, tvals, lm, wm, rack, vals, bingo_tiles, bingo_bonus, cs, xs, hx,
                       arena[off + 1:], cnt, dirty)
    found = -1
    for i in range(off + 1, off + 1 + cnt[0]):
        mk = move_key(arena, i)
        if mk == killers[sp, 0]:
            found = i
            break
        if nk == 2 and mk == killers[sp, 1] and found < 0:
            found = i
    if found < 0:
        return arena, keys, order, np.uint64(0)
    mk = move_key(arena, found)
    for k in range(W):
        arena[off, k] = arena[found, k]
    return arena, keys, order, mk


@njit(cache=True, nogil=True)  # nogil: engine.interrupt runs it in a thread so Ctrl-C can stop it
def negamax(depth, alpha, beta, side, passes, h, kwg, vals, all_mask, bingo_tiles, bingo_bonus,
            tiles, tvals, lm, wm, cs, xs, hx, racks, zb, zr, zs,
            tt_key, tt_val, tt_depth, tt_flag, tt_move, tt_row,
            arena, keys, order, save_cs, save_xs, save_hx, save_sq, rows, cols, killers, hist, counters, result,
            deadline):
    """Negamax with alpha-beta from the given state; iterative (an explicit stack of frames).

    Writes ``result[0]`` = value (spread gained by ``side`` from here to the
    end, fail-soft within ``(alpha, beta)``) and ``result[1]`` = 1 when it is
    exact to the end of the game (no depth-limited leaf or abort influenced
    it). ``depth`` counts plies, passes included. ``deadline`` float64 (3,): the time
    limit, like the node limit ``counters[C_LIMIT]`` (checked every 4,096 nodes):
    ``deadline[1]`` 0 = wall clock, ``deadline[0]`` the ``time.perf_counter()`` instant at
    which the search aborts; ``deadline[1]`` 1 = CPU clock, ``deadline[0]`` the CPU seconds
    this call may use (``time.thread_time()`` of the calling thread); ``deadline[0]`` 0 =
    no limit. On return ``deadline[2]`` holds the CPU seconds the call used (thread time). ``arena``/``keys``/``order``
    hold every ply's moves one after another (grown when needed); the grown
    arrays are returned ``(arena, keys, order)`` for reuse.
    """
    with objmode(cpu0="float64"):
        cpu0 = time.thread_time()
    cpu_clock = deadline[1] == 1.0
    limit = deadline[0] + cpu0 if cpu_clock else deadline[0]
    # the clock is read at the first node and then every 4,096: a warm-up search of a few nodes runs
    # (and so compiles) the object-mode blocks, which Numba compiles at their first run
    next_check = counters[C_NODES] + 1
    fr = np.zeros((MAXPLY + 2, FD_WIDTH), dtype=np.int64)
    dirty = np.zeros((2, N), dtype=np.uint8)
    need = np.zeros(racks.shape[1], dtype=np.int64)
    fh = np.zeros(MAXPLY + 2, dtype=np.uint64)
    fbk = np.zeros(MAXPLY + 2, dtype=np.uint64)
    fttm = np.zeros(MAXPLY + 2, dtype=np.uint64)
    krow = np.zeros((MAXPLY + 2, 2, W), dtype=np.int32)
    ktries = np.zeros(MAXPLY + 2, dtype=np.int64)
    kcuts = np.zeros(MAXPLY + 2, dtype=np.int64)
    kchance = np.zeros(MAXPLY + 2, dtype=np.int64)
    sp = 0
    fr[0, FD_DEPTH] = depth
    fr[0, FD_ALPHA] = alpha
    fr[0, FD_BETA] = beta
    fr[0, FD_SIDE] = side
    fr[0, FD_PASSES] = passes
    fr[0, FD_OFF] = 0
    fh[0] = h
    mode = M_ENTER
    rv = np.int64(0)
    rc = True
    while True:
        if mode == M_ENTER:
            counters[C_NODES] += 1
            if sp > counters[C_MAXPLY]:
                counters[C_MAXPLY] = sp
            if counters[C_NODES] >= counters[C_LIMIT]:
                counters[C_ABORT] = 1
            if deadline[0] > 0 and counters[C_NODES] >= next_check:
                next_check = counters[C_NODES] + 4096
                if cpu_clock:
                    with objmode(now="float64"):
                        now = time.thread_time()
                else:
                    with objmode(now="float64"):
                        now = time.perf_counter()
                if now > limit:
                    counters[C_ABORT] = 1
            s_ = fr[sp, FD_SIDE]
            op = 1 - s_
            my_val = rack_value(racks[s_], vals)
            op_val = rack_value(racks[op], vals)
            d = fr[sp, FD_DEPTH]
            hh = fh[sp]
            mode = M_RETURN
            if fr[sp, FD_PASSES] >= END_PASSES:
                rv = op_val - my_val
                rc = True
                continue
            if counters[C_ABORT] != 0:
                rv = 0
                rc = False
                continue
            ttm = np.uint64(0)
            slot = _tt_probe(tt_key, hh)
            if slot >= 0:
                ttm = tt_move[slot]
                td = tt_depth[slot]
                if td >= d:
                    lo = np.int64(tt_val[slot, 0])
                    hi = np.int64(tt_val[slot, 1])
                    if lo == hi or lo >= fr[sp, FD_BETA] or hi <= fr[sp, FD_ALPHA]:
                        counters[C_HITS] += 1
                        rv = lo if lo == hi or lo >= fr[sp, FD_BETA] else hi
                        rc = td == EXACT_DEPTH
                        continue
            if d <= 0:
                counters[C_LEAVES] += 1
                rv = op_val - my_val
                rc = False
                continue
            off = fr[sp, FD_OFF]
            fr[sp, FD_J] = 0
            fr[sp, FD_BEST] = -INF
            fr[sp, FD_BESTI] = -1
            fr[sp, FD_A0] = fr[sp, FD_ALPHA]
            fr[sp, FD_COMPLETE] = 1
            fr[sp, FD_OPVAL] = op_val
            ntiles = 0
            for t in range(racks.shape[1]):
                ntiles += racks[s_, t]
            fr[sp, FD_NTILES] = ntiles
            fbk[sp] = np.uint64(0)
            fttm[sp] = ttm
            if ttm != 0 and tt_row.shape[0] == tt_key.shape[0]:
                # staged: try the table's move before generating the others
                if off + 2 > arena.shape[0]:
                    arena, keys, order = _grow(arena, keys, order, off + 2)
                for k in range(W):
                    arena[off, k] = tt_row[slot, k]
                keys[off] = 0
                order[off] = off
                fr[sp, FD_N] = 1
                fr[sp, FD_STAGE] = 1
                mode = M_NEXT
                continue
            stage = counters[C_KSTAGE] != 0 and killers[sp, 0] > PASS_KEY
            if stage and counters[C_KADAPT] != 0:
                kchance[sp] += 1
                if ktries[sp] >= 64 and kcuts[sp] * 4 < ktries[sp] and (kchance[sp] & 15) != 0:
                    stage = False
            if stage:
                # staged: try a killer (a move that cut at this ply) before generating the others
                counters[C_KTRIED] += 1
                ktries[sp] += 1
                if ktries[sp] >= 1024:  # the rate of the recent tries
                    ktries[sp] >>= 1
                    kcuts[sp] >>= 1
                arena, keys, order, kk = _stage_killer(krow, killers, sp, off, arena, keys, order, kwg, tiles, tvals,
                                                       lm, wm, racks[s_], vals, bingo_tiles, bingo_bonus, cs, xs,
                                                       hx, dirty, counters)
                if kk != 0:
                    counters[C_KFOUND] += 1
                    fttm[sp] = kk
                    keys[off] = 0
                    order[off] = off
                    fr[sp, FD_N] = 1
                    fr[sp, FD_STAGE] = 2
                    mode = M_NEXT
                    continue
            fr[sp, FD_STAGE] = 0
            mode = M_NEXT
            arena, keys, order = _gen_node(off, 0, sp, fr, kwg, tiles, tvals, lm, wm, racks, vals, bingo_tiles,
                                                bingo_bonus, cs, xs, hx, arena, keys, order, killers, hist,
                                                counters, ttm, s_, save_cs, save_xs, save_hx, dirty, need)
            continue
        if mode == M_RETURN:
            if sp == 0:
                break
            sp -= 1
            cur = fr[sp, FD_CUR]
            s_ = fr[sp, FD_SIDE]
            is_pass = arena[cur, K.OUT_LEN] == 0
            v = -rv if is_pass else fr[sp, FD_SCORE] - rv
            if (fr[sp, FD_NULLW] != 0 and counters[C_ABORT] == 0 and v > fr[sp, FD_ALPHA]
                    and v < fr[sp, FD_BETA]):
                # the null-window test failed high inside the window: search again with the full window
                fr[sp, FD_NULLW] = 0
                c = sp + 1
                base = 0 if is_pass else fr[sp, FD_SCORE]
                fr[c, FD_ALPHA] = base - fr[sp, FD_BETA]
                fr[c, FD_BETA] = base - fr[sp, FD_ALPHA]
                sp = c
                mode = M_ENTER
                continue
            if is_pass:
                mk = PASS_KEY
            else:
                undo_move(arena, cur, tiles, tvals, lm, wm, cs, xs, hx, racks, s_, save_cs[sp], save_xs[sp],
                          save_hx[sp], save_sq[sp])
                mk = move_key(arena, cur)
            mode = M_NEXT
            if counters[C_ABORT] != 0:
                rv = fr[sp, FD_BEST] if fr[sp, FD_BEST] > -INF else 0
                rc = False
                mode = M_RETURN
                continue
            if not rc:
                fr[sp, FD_COMPLETE] = 0
            if v > fr[sp, FD_BEST]:
                fr[sp, FD_BEST] = v
                fr[sp, FD_BESTI] = cur
                fbk[sp] = mk
            if v > fr[sp, FD_ALPHA]:
                fr[sp, FD_ALPHA] = v
            if fr[sp, FD_ALPHA] >= fr[sp, FD_BETA]:
                if mk != PASS_KEY and mk != killers[sp, 0]:
                    killers[sp, 1] = killers[sp, 0]
                    killers[sp, 0] = mk
                    for k in range(W):
                        krow[sp, 1, k] = krow[sp, 0, k]
                        krow[sp, 0, k] = arena[cur, k]
                if mk != PASS_KEY:
                    hist[np.int64(mk >> np.uint64(64 - HIST_BITS))] += fr[sp, FD_NTILES] * fr[sp, FD_NTILES]
                if fr[sp, FD_STAGE] == 2:
                    counters[C_KCUT] += 1
                    kcuts[sp] += 1
                fr[sp, FD_J] = fr[sp, FD_N]  # cut
                fr[sp, FD_STAGE] = 0
            continue
        # M_NEXT: the next move of frame sp, or finish the node
        off = fr[sp, FD_OFF]
        j = fr[sp, FD_J]
        n = fr[sp, FD_N]
        s_ = fr[sp, FD_SIDE]
        op = 1 - s_
        if j >= n and fr[sp, FD_STAGE] != 0:
            # the table's move did not cut: generate the others
            fr[sp, FD_STAGE] = 0
            arena, keys, order = _gen_node(off, 1, sp, fr, kwg, tiles, tvals, lm, wm, racks, vals, bingo_tiles,
                                           bingo_bonus, cs, xs, hx, arena, keys, order, killers, hist,
                                           counters, fttm[sp], s_, save_cs, save_xs, save_hx, dirty, need)
            continue
        if j >= n:
            best = fr[sp, FD_BEST]
            if best <= fr[sp, FD_A0]:
                flag = 3
            elif best >= fr[sp, FD_BETA]:
                flag = 2
            else:
                flag = 1
            done = fr[sp, FD_COMPLETE] != 0
            _tt_store(tt_key, tt_val, tt_depth, tt_flag, tt_move, fh[sp], best,
                      EXACT_DEPTH if done else fr[sp, FD_DEPTH], flag, fbk[sp])
            bi = fr[sp, FD_BESTI]
            if bi >= 0 and tt_row.shape[0] == tt_key.shape[0]:
                slot = _tt_probe(tt_key, fh[sp])
                if slot >= 0:
                    for k in range(W):
                        tt_row[slot, k] = arena[bi, k]
            rv = best
            rc = done
            mode = M_RETURN
            continue
        # bring the best remaining move to position j (selection for the first few, then one sort)
        if j < 3:
            bi = j
            bk = keys[order[off + j]]
            for i in range(j + 1, n):
                kv = keys[order[off + i]]
                if kv > bk:
                    bk = kv
                    bi = i
            tmp = order[off + bi]
            order[off + bi] = order[off + j]
            order[off + j] = tmp
        elif j == 3 and n > 4:
            seg = order[off + j: off + n].copy()
            kseg = np.empty(seg.shape[0], dtype=np.int64)
            for i in range(seg.shape[0]):
                kseg[i] = -keys[seg[i]]
            idx = np.argsort(kseg, kind="mergesort")
            for i in range(seg.shape[0]):
                order[off + j + i] = seg[idx[i]]
        cur = order[off + j]
        fr[sp, FD_J] = j + 1
        if keys[cur] == SKIP_KEY:  # the table's move, tried first already
            continue
        fr[sp, FD_CUR] = cur
        passes_ = fr[sp, FD_PASSES]
        alpha_ = fr[sp, FD_ALPHA]
        beta_ = fr[sp, FD_BETA]
        c = sp + 1
        # principal variation search: after the first move, test with a null window (alpha, alpha + 1)
        nullw = fr[sp, FD_BEST] > -INF and beta_ - alpha_ > 1
        fr[sp, FD_NULLW] = 1 if nullw else 0
        if nullw:
            beta_ = alpha_ + 1
        if arena[cur, K.OUT_LEN] == 0:
            fr[c, FD_DEPTH] = fr[sp, FD_DEPTH] - 1
            fr[c, FD_ALPHA] = -beta_
            fr[c, FD_BETA] = -alpha_
            fr[c, FD_SIDE] = op
            fr[c, FD_PASSES] = passes_ + 1
            fr[c, FD_OFF] = off + n
            fh[c] = fh[sp] ^ zs[s_, passes_] ^ zs[op, passes_ + 1]
            sp = c
            mode = M_ENTER
            continue
        sc = np.int64(arena[cur, K.OUT_SCORE])
        if arena[cur, K.OUT_NTILES] == fr[sp, FD_NTILES]:
            # going out: the settlement ends the game
            v = sc + 2 * fr[sp, FD_OPVAL]
            mk = move_key(arena, cur)
            if v > fr[sp, FD_BEST]:
                fr[sp, FD_BEST] = v
                fr[sp, FD_BESTI] = cur
                fbk[sp] = mk
            if v > fr[sp, FD_ALPHA]:
                fr[sp, FD_ALPHA] = v
            if fr[sp, FD_ALPHA] >= fr[sp, FD_BETA]:
                if mk != killers[sp, 0]:
                    killers[sp, 1] = killers[sp, 0]
                    killers[sp, 0] = mk
                    for k in range(W):
                        krow[sp, 1, k] = krow[sp, 0, k]
                        krow[sp, 0, k] = arena[cur, k]
                hist[np.int64(mk >> np.uint64(64 - HIST_BITS))] += fr[sp, FD_NTILES] * fr[sp, FD_NTILES]
                if fr[sp, FD_STAGE] == 2:
                    counters[C_KCUT] += 1
                    kcuts[sp] += 1
                fr[sp, FD_J] = n
                fr[sp, FD_STAGE] = 0
            continue
        dh = apply_move(arena, cur, tiles, tvals, lm, wm, cs, xs, hx, racks, s_, vals, kwg, all_mask, zb, zr,
                        save_cs[sp], save_xs[sp], save_hx[sp], save_sq[sp], rows, cols)
        fr[sp, FD_SCORE] = sc
        fr[c, FD_DEPTH] = fr[sp, FD_DEPTH] - 1
        fr[c, FD_ALPHA] = sc - beta_
        fr[c, FD_BETA] = sc - alpha_
        fr[c, FD_SIDE] = op
        fr[c, FD_PASSES] = 0
        fr[c, FD_OFF] = off + n
        fh[c] = fh[sp] ^ dh ^ zs[s_, passes_] ^ zs[op, 0]
        sp = c
        mode = M_ENTER
    result[0] = rv
    result[1] = 1 if rc else 0
    with objmode(cpu1="float64"):
        cpu1 = time.thread_time()
    deadline[2] = cpu1 - cpu0
    return arena, keys, order


@njit(cache=True)
def _all_moves(kwg, vals, bingo_tiles, bingo_bonus, tiles, tvals, lm, wm, cs, xs, hx, rack):
    """Every move of ``rack`` here: ``(rows, n)``, generator rows int32 (>= n, OUT_WIDTH) and their number."""
    cnt = np.zeros(1, dtype=np.int64)
    mv = np.zeros((CAP, W), dtype=np.int32)
    K.generate_checked(kwg, tiles, tvals, lm, wm, rack, vals, bingo_tiles, bingo_bonus, cs, xs, hx, mv, cnt)
    if cnt[0] > mv.shape[0]:
        mv = np.zeros((cnt[0], W), dtype=np.int32)
        K.generate_checked(kwg, tiles, tvals, lm, wm, rack, vals, bingo_tiles, bingo_bonus, cs, xs, hx, mv, cnt)
    return mv, np.int64(cnt[0])


@njit(cache=True)
def playable_tiles(kwg, vals, bingo_tiles, bingo_bonus, tiles, tvals, lm, wm, cs, xs, hx, rack):
    """int64 (n_letters + 1,): 1 for each tile of ``rack`` that some move of ``rack`` on this board plays, else 0.

    A tile of the rack with 0 here is *stuck* now (MAGPIE's term): no move places it (blanks at index 0).
    """
    mv, n = _all_moves(kwg, vals, bingo_tiles, bingo_bonus, tiles, tvals, lm, wm, cs, xs, hx, rack)
    out = np.zeros(rack.shape[0], dtype=np.int64)
    for i in range(n):
        for k in range(mv[i, K.OUT_LEN]):
            code = mv[i, K.OUT_TILES + k]
            if code != 0:
                out[0 if code & BLANK_FLAG else code] = 1
    return out


@njit(cache=True)
def find_move(kwg, vals, bingo_tiles, bingo_bonus, tiles, tvals, lm, wm, cs, xs, hx, rack, mkey, out):
    """Generate the moves of ``rack`` and copy the one with key ``mkey`` to ``out[0]``.

    Returns 1 if found (``PASS_KEY``: a pass row of length 0), 0 if not.
    """
    for k in range(W):
        out[0, k] = 0
    if mkey == PASS_KEY:
        return 1
    mv, n = _all_moves(kwg, vals, bingo_tiles, bingo_bonus, tiles, tvals, lm, wm, cs, xs, hx, rack)
    for i in range(n):
        if move_key(mv, i) == mkey:
            for k in range(W):
                out[0, k] = mv[i, k]
            return 1
    return 0


@njit(cache=True)
def principal_variation(kwg, vals, all_mask, bingo_tiles, bingo_bonus, tiles, tvals, lm, wm, cs, xs, hx, racks,
                        side, passes, h, zb, zr, zs, tt_key, tt_move, out):
    """Follow the table's best moves from a state; rows into ``out`` (a pass has length 0).

    Works on copies of the state. Returns the number of moves written.
    """
    tiles = tiles.copy()
    tvals = tvals.copy()
    lm = lm.copy()
    wm = wm.copy()
    cs = cs.copy()
    xs = xs.copy()
    hx = hx.copy()
    racks = racks.copy()
    scs = cs.copy()
    sxs = xs.copy()
    shx = hx.copy()
    sq = np.zeros((8, 3), dtype=np.int32)
    rows = np.zeros(N, dtype=np.uint8)
    cols = np.zeros(N, dtype=np.uint8)
    one = np.zeros((1, W), dtype=np.int32)
    n = 0
    while n < out.shape[0] and passes < END_PASSES:
        slot = _tt_probe(tt_key, h)
        if slot < 0 or tt_move[slot] == 0:
            break
        if find_move(kwg, vals, bingo_tiles, bingo_bonus, tiles, tvals, lm, wm, cs, xs, hx, racks[side],
                     tt_move[slot], one) == 0:
            break
        for k in range(W):
            out[n, k] = one[0, k]
        n += 1
        op = 1 - side
        if one[0, K.OUT_LEN] == 0:
            h = h ^ zs[side, passes] ^ zs[op, passes + 1]
            passes += 1
        else:
            left = 0
            for t in range(racks.shape[1]):
                left += racks[side, t]
            if one[0, K.OUT_NTILES] == left:
                break
            d = apply_move(one, 0, tiles, tvals, lm, wm, cs, xs, hx, racks, side, vals, kwg, all_mask, zb, zr,
                           scs, sxs, shx, sq, rows, cols)
            h = h ^ d ^ zs[side, passes] ^ zs[op, 0]
            passes = 0
        side = op
    return n
