"""Numba kernels: cross-checks, cross-scores and GADDAG move generation.

Plain arrays in and out; :mod:`engine.movegen.generator` validates every input first.
The algorithm is Gordon's GADDAG generator (Gordon 1994, "A faster Scrabble
move generation algorithm") over anchors and cross-checks (Appel & Jacobson
1988, "The world's fastest Scrabble program"): for each anchor square of a
line, walk the GADDAG leftwards from the anchor, cross the separator and walk
rightwards, placing rack tiles allowed by the cross-check of each empty square
and following the tiles already on the board.

Anchors (across; down is the same on the transposed board):

* the rightmost tile of every horizontal run of tiles, and
* every empty square with no horizontal neighbour and a vertical neighbour,
* on an empty board only the centre square.

Every move is generated from its leftmost anchor only: the leftward walk never
steps onto the previous anchor of the line. A one-tile move that forms an
across word is generated in the across pass only, so each placement appears
once.

Board arrays are ``(15, 15)``; tile codes 1..29 (0 = empty square); rack and
value arrays are indexed by tile code (0 = blank).

Entry points (one call per request from :mod:`engine.movegen.generator`):
:func:`movegen_all` (every move; its own kernel in :mod:`engine.movegen._allmoves`,
re-exported here, with the same rows in the same order as
:func:`generate_checked`) and :func:`movegen_best` (best-first, bounds
in :func:`generate_best_checked`) take the board's tiles, blanks and premium
layout and work out tile values, open premiums and (unless given)
cross-checks themselves. Helpers that take arrays are written out inside hot
loops rather than called: a non-inlined Numba call with array arguments costs
~0.1 µs of reference counting, which on a dense board is more than the work.

Output rows (int32, ``OUT_WIDTH`` columns): score, row, col (of the first
square of the main word, 0-based), direction (0 across, 1 down), main word
length, tiles placed, then one column per square of the main word: the placed
letter code (``| BLANK_FLAG`` for a blank) or 0 for a tile already on the board.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from lexicon_tools import _numba_cache

_numba_cache.drop_stale_cache(__file__)  # callee kernels changed -> recompile

from lexicon_tools._kwg_kernels import child_arc as _child_arc
from lexicon_tools._kwg_nodes import node_accepts, node_arc, node_is_end, node_tile  # uint32 KWG or uint64 wide

from engine.leaves._kernels import sub_leave_arrays
from engine.movegen._wordmap import WM_RAND, wm_word_exists
from engine.movegen._allmoves import S_WIDTH, cross_checks_lines, line_tables
from engine.movegen._bestwalk import top_insert as _top_insert, walk_anchor_best

ARC_MASK = np.uint32(0x3FFFFF)
IS_END = np.uint32(0x400000)
ACCEPTS = np.uint32(0x800000)
from engine.position._rows import BLANK_FLAG, N, OUT_COL, OUT_DIR, OUT_LEN, OUT_NTILES, OUT_ROW, OUT_SCORE, OUT_TILES, OUT_WIDTH  # noqa: E402,F401

# rows of the per-line info array
I_TILE, I_VAL, I_CS, I_XS, I_HX, I_LM, I_WM = 0, 1, 2, 3, 4, 5, 6


@njit(cache=True)
def cross_checks_into(kwg, tiles, tvals, all_mask, cs, xs, hx, col_mask):
    """Recompute the across-direction cross-checks of the columns where ``col_mask`` is set.

    For each empty square with a vertical neighbour: the letters that make the
    vertical run through it a word (walk the tiles above in the DAWG, then each
    candidate letter and the tiles below), and the sum of the run's other
    tiles. Squares without vertical neighbours allow every letter.

    Args:
        kwg: uint32 node array (DAWG at node 0).
        tiles: uint8 (15, 15) tile codes, 0 = empty.
        tvals: int32 (15, 15) points of the tile on each square (0 for blanks).
        all_mask: uint32 with bits 1..n set (every letter allowed).
        cs, xs, hx: outputs, uint32 / int32 / uint8 (15, 15): letter bitmask
            (0 on occupied squares), cross-score, 1 where a vertical word forms.
        col_mask: uint8 (15,), which columns to recompute.
    """
    root = node_arc(kwg[0])
    groot = node_arc(kwg[1])
    for c in range(N):
        if not col_mask[c]:
            continue
        for r in range(N):
            cs[r, c] = 0
            xs[r, c] = 0
            hx[r, c] = 0
            if tiles[r, c] != 0:
                continue
            top = r
            while top > 0 and tiles[top - 1, c] != 0:
                top -= 1
            bot = r
            while bot < N - 1 and tiles[bot + 1, c] != 0:
                bot += 1
            if top == r and bot == r:
                cs[r, c] = all_mask
                continue
            hx[r, c] = 1
            s = 0
            for i in range(top, bot + 1):
                if i != r:
                    s += tvals[i, c]
            xs[r, c] = s
            if top == r:
                # tiles below only: the GADDAG holds reverse(L + below) = reverse(below) + L,
                # so walk the tiles below from the bottom up and read the accepting arcs
                p = groot
                for i in range(bot, r, -1):
                    a = _child_arc(kwg, p, tiles[i, c])
                    if a < 0:
                        p = 0
                        break
                    p = node_arc(kwg[a])
                mask = np.uint32(0)
                i = p
                while i != 0:
                    v = kwg[i]
                    if node_accepts(v):
                        mask |= np.uint32(1) << node_tile(v)
                    if node_is_end(v):
                        break
                    i += 1
                cs[r, c] = mask & all_mask
                continue
            p = root
            ok = True
            for i in range(top, r):
                a = _child_arc(kwg, p, tiles[i, c])
                if a < 0:
                    ok = False
                    break
                p = node_arc(kwg[a])
            if not ok or p == 0:
                continue
            mask = np.uint32(0)
            i = p
            while True:
                v = kwg[i]
                letter = node_tile(v)
                if bot == r:
                    if node_accepts(v):
                        mask |= np.uint32(1) << letter
                else:
                    q = node_arc(v)
                    acc = False
                    for j in range(r + 1, bot + 1):
                        a = _child_arc(kwg, q, tiles[j, c])
                        if a < 0:
                            acc = False
                            break
                        acc = node_accepts(kwg[a]) != 0
                        q = node_arc(kwg[a])
                    if acc:
                        mask |= np.uint32(1) << letter
                if node_is_end(v):
                    break
                i += 1
            cs[r, c] = mask & all_mask


@njit(cache=True)
def _record(info, placed, out, cnt, left, right, tp, score, line, direction, skip_single_cross):
    if skip_single_cross and tp == 1:
        for c in range(left, right + 1):
            if placed[c] != 0 and info[I_HX, c] != 0:
                return
    n = cnt[0]
    cnt[0] = n + 1
    if n >= out.shape[0]:
        return
    out[n, OUT_SCORE] = score
    if direction == 0:
        out[n, OUT_ROW] = line
        out[n, OUT_COL] = left
    else:
        out[n, OUT_ROW] = left
        out[n, OUT_COL] = line
    out[n, OUT_DIR] = direction
    out[n, OUT_LEN] = right - left + 1
    out[n, OUT_NTILES] = tp
    for c in range(left, right + 1):
        out[n, OUT_TILES + c - left] = placed[c]
    for k in range(right - left + 1, N):
        out[n, OUT_TILES + k] = 0


# stack frame fields of the iterative generator
F_COL, F_P, F_CUR, F_PH, F_AL, F_AB, F_TP, F_MAIN, F_WMUL, F_CROSS, F_LEFT = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
F_WIDTH = 11
STACK = 64


@njit(cache=True, inline="always")
def _push(stack, sp, col, p, tp, main, wmul, cross, left):
    stack[sp, F_COL] = col
    stack[sp, F_P] = p
    stack[sp, F_CUR] = p
    stack[sp, F_PH] = 0
    stack[sp, F_AL] = -1
    stack[sp, F_AB] = 0
    stack[sp, F_TP] = tp
    stack[sp, F_MAIN] = main
    stack[sp, F_WMUL] = wmul
    stack[sp, F_CROSS] = cross
    stack[sp, F_LEFT] = left
    return sp + 1


@njit(cache=True, inline="always")
def _insert_desc(a, j, v):
    """Insert ``v`` into the descending ``a[:j]`` (``a`` has room for ``j + 1``)."""
    i = j
    while i > 0 and a[i - 1] < v:
        a[i] = a[i - 1]
        i -= 1
    a[i] = v


@njit(cache=True, inline="always")
def _rank_into(placed, left, right, score, radix, lv, top):
    """Put a recorded move's rank (score + leave value of the tiles it uses) into ``top`` (ascending)."""
    u = 0
    for c in range(left, right + 1):
        t = placed[c]
        if t != 0:
            u += radix[0] if t & BLANK_FLAG else radix[t]
    _top_insert(top, score + lv[u])


@njit(cache=True, inline="always")
def _gen_anchor(kwg, info, rack, vals, placed, out, cnt, params, stack, anchor, last_anchor, groot, line,
                spb, sfx, pfx, top, radix, lv, best):
    """All moves whose leftmost anchor is ``anchor`` (an explicit-stack GADDAG walk).

    A frame chooses the tile for one square from an arc list: the board's tile
    on an occupied square, else each rack tile (and the blank as each letter)
    allowed by the square's cross-check. After a choice the walk records the
    word when the GADDAG accepts it with free squares at both ends, then
    continues leftwards (never onto the previous anchor) and, across the
    separator, rightwards from the square after the anchor.

    With ``best`` (best-first mode) only moves whose main word covers a span
    ``[l, r]`` with bound ``spb[l, r]`` at least the live threshold ``top[0]``
    are walked and recorded (``sfx[l, c]``: the best bound of spans ``[l, r >= c]``;
    ``pfx[c]``: the best of spans starting at or before ``c``); each recorded
    move's rank (score + ``lv`` of the tiles used, numbered by ``radix``) goes
    into ``top`` (ascending, the ``top.shape[0]`` best so far), so the
    threshold rises during the walk. Without ``best`` every move is recorded.
    """
    direction = params[2]
    bingo_tiles = params[3]
    bingo_bonus = params[4]
    sp = _push(stack, 0, anchor, groot, 0, 0, 1, 0, anchor)
    while sp > 0:
        f = sp - 1
        col = stack[f, F_COL]
        al = stack[f, F_AL]
        if al >= 0:
            if stack[f, F_AB]:
                rack[0] += 1
            else:
                rack[al] += 1
                params[5] |= np.int64(1) << al
            params[1] += 1
            stack[f, F_AL] = -1
        tp = stack[f, F_TP]
        main = stack[f, F_MAIN]
        wmul = stack[f, F_WMUL]
        cross = stack[f, F_CROSS]
        t = info[I_TILE, col]
        a = -1
        if t != 0:
            if stack[f, F_CUR] >= 0:
                a = _child_arc(kwg, stack[f, F_P], t)
                stack[f, F_CUR] = -1
            if a < 0:
                sp -= 1
                continue
            main += info[I_VAL, col]
        else:
            cur = stack[f, F_CUR]
            ph = stack[f, F_PH]
            blank = False
            letter = 0
            if params[1] > 0:
                mask = info[I_CS, col]
                while cur >= 0:
                    v = kwg[cur]
                    letter = np.int64(node_tile(v))
                    ok = letter != 0 and ((mask >> letter) & 1) != 0
                    if ph == 0:
                        ph = 1
                        if ok and rack[letter] > 0:
                            a = cur
                            break
                    ph = 0
                    here = cur
                    if node_is_end(v):
                        cur = -1
                    else:
                        cur += 1
                    if ok and rack[0] > 0:
                        a = here
                        blank = True
                        break
            stack[f, F_CUR] = cur
            stack[f, F_PH] = ph
            if a < 0:
                placed[col] = 0
                sp -= 1
                continue
            lm = info[I_LM, col]
            wm = info[I_WM, col]
            if blank:
                rack[0] -= 1
                stack[f, F_AB] = 1
                placed[col] = letter | BLANK_FLAG
                ls = 0
            else:
                rack[letter] -= 1
                if rack[letter] == 0:
                    params[5] &= ~(np.int64(1) << letter)
                stack[f, F_AB] = 0
                placed[col] = letter
                ls = vals[letter] * lm
            params[1] -= 1
            stack[f, F_AL] = letter
            tp += 1
            main += ls
            wmul *= wm
            if info[I_HX, col]:
                cross += (info[I_XS, col] + ls) * wm
        v = kwg[a]
        child = node_arc(v)
        accepts = node_accepts(v) != 0
        # letters some rack tile can still be: a square whose cross-check holds none of them
        # (and no tile) is never pushed (it would only be popped again)
        fit = np.int64(0) if params[1] == 0 else (np.int64(-1) if rack[0] > 0 else params[5])
        if col <= anchor:
            no_left = col == 0 or info[I_TILE, col - 1] == 0
            if accepts and no_left and tp > 0 and (not best or spb[col, anchor] >= top[0]):
                score = main * wmul + cross
                if tp == bingo_tiles:
                    score += bingo_bonus
                n0 = cnt[0]
                # _record written out: a call per move costs ~0.1 µs of reference counting (a third of the walk)
                rec = not (direction == 1 and tp == 1)
                if not rec:
                    rec = True
                    for q in range(col, anchor + 1):
                        if placed[q] != 0 and info[I_HX, q] != 0:
                            rec = False
                if rec:
                    cnt[0] = n0 + 1
                    if n0 < out.shape[0]:
                        out[n0, OUT_SCORE] = score
                        if direction == 0:
                            out[n0, OUT_ROW] = line
                            out[n0, OUT_COL] = col
                        else:
                            out[n0, OUT_ROW] = col
                            out[n0, OUT_COL] = line
                        out[n0, OUT_DIR] = direction
                        out[n0, OUT_LEN] = anchor - col + 1
                        out[n0, OUT_NTILES] = tp
                        for q in range(col, anchor + 1):
                            out[n0, OUT_TILES + q - col] = placed[q]
                        for q in range(anchor - col + 1, N):
                            out[n0, OUT_TILES + q] = 0
                if best and cnt[0] > n0:
                    _rank_into(placed, col, anchor, score, radix, lv, top)
            if child != 0:
                if no_left and anchor < N - 1 and (not best or sfx[col, anchor + 1] >= top[0]) and (
                        info[I_TILE, anchor + 1] != 0 or (info[I_CS, anchor + 1] & fit) != 0):
                    s = _child_arc(kwg, child, 0)
                    if s >= 0:
                        sp = _push(stack, sp, anchor + 1, node_arc(kwg[s]), tp, main, wmul, cross, col)
                if col > 0 and col - 1 != last_anchor and (not best or pfx[col - 1] >= top[0]) and (
                        info[I_TILE, col - 1] != 0 or (info[I_CS, col - 1] & fit) != 0):
                    sp = _push(stack, sp, col - 1, child, tp, main, wmul, cross, col)
        else:
            no_right = col == N - 1 or info[I_TILE, col + 1] == 0
            if accepts and no_right and tp > 0 and (not best or spb[stack[f, F_LEFT], col] >= top[0]):
                score = main * wmul + cross
                if tp == bingo_tiles:
                    score += bingo_bonus
                rl = stack[f, F_LEFT]
                n0 = cnt[0]
                # _record written out: a call per move costs ~0.1 µs of reference counting (a third of the walk)
                rec = not (direction == 1 and tp == 1)
                if not rec:
                    rec = True
                    for q in range(rl, col + 1):
                        if placed[q] != 0 and info[I_HX, q] != 0:
                            rec = False
                if rec:
                    cnt[0] = n0 + 1
                    if n0 < out.shape[0]:
                        out[n0, OUT_SCORE] = score
                        if direction == 0:
                            out[n0, OUT_ROW] = line
                            out[n0, OUT_COL] = rl
                        else:
                            out[n0, OUT_ROW] = rl
                            out[n0, OUT_COL] = line
                        out[n0, OUT_DIR] = direction
                        out[n0, OUT_LEN] = col - rl + 1
                        out[n0, OUT_NTILES] = tp
                        for q in range(rl, col + 1):
                            out[n0, OUT_TILES + q - rl] = placed[q]
                        for q in range(col - rl + 1, N):
                            out[n0, OUT_TILES + q] = 0
                if best and cnt[0] > n0:
                    _rank_into(placed, stack[f, F_LEFT], col, score, radix, lv, top)
            if child != 0 and col < N - 1 and (not best or sfx[stack[f, F_LEFT], col + 1] >= top[0]) and (
                    info[I_TILE, col + 1] != 0 or (info[I_CS, col + 1] & fit) != 0):
                sp = _push(stack, sp, col + 1, child, tp, main, wmul, cross, stack[f, F_LEFT])


@njit(cache=True)
def _gen_lines(kwg, tiles, tvals, cs, xs, hx, lm, wm, rack, vals, out, cnt, params, empty_board):
    """Generate all moves of one direction (params[2]) line by line."""
    info = np.zeros((7, N), dtype=np.int64)
    placed = np.zeros(N, dtype=np.int64)
    stack = np.zeros((STACK, F_WIDTH), dtype=np.int64)
    groot = node_arc(kwg[1])
    no_spb = np.zeros((1, 1), dtype=np.float64)
    no_pfx = np.zeros(1, dtype=np.float64)
    no_radix = np.zeros(1, dtype=np.int64)
    for line in range(N):
        if empty_board and line != N // 2:
            continue
        # written out (also in generate_best_checked): helper functions for the line copy
        # and the anchor test measured ~10 µs slower per position on small boards
        for c in range(N):
            info[I_TILE, c] = tiles[line, c]
            info[I_VAL, c] = tvals[line, c]
            info[I_CS, c] = cs[line, c]
            info[I_XS, c] = xs[line, c]
            info[I_HX, c] = hx[line, c]
            info[I_LM, c] = lm[line, c]
            info[I_WM, c] = wm[line, c]
        last_anchor = -2
        for c in range(N):
            if empty_board:
                is_anchor = c == N // 2
            elif tiles[line, c] != 0:
                is_anchor = c == N - 1 or tiles[line, c + 1] == 0
            else:
                is_anchor = (hx[line, c] != 0 and (c == 0 or tiles[line, c - 1] == 0)
                             and (c == N - 1 or tiles[line, c + 1] == 0))
            if is_anchor:
                # written out (a helper call costs ~0.1 µs of reference counting per anchor):
                # skip an anchor when no rack tile fits a square its moves must use
                fit = np.int64(0) if params[1] == 0 else (np.int64(-1) if rack[0] > 0 else params[5])
                if tiles[line, c] == 0:
                    open_ = (info[I_CS, c] & fit) != 0
                else:
                    open_ = c < N - 1 and (info[I_CS, c + 1] & fit) != 0
                    if not open_:
                        l0 = c
                        while l0 > 0 and tiles[line, l0 - 1] != 0:
                            l0 -= 1
                        open_ = l0 > 0 and l0 - 1 != last_anchor and (info[I_CS, l0 - 1] & fit) != 0
                if open_:
                    _gen_anchor(kwg, info, rack, vals, placed, out, cnt, params, stack, c, last_anchor, groot, line,
                                no_spb, no_spb, no_pfx, no_pfx, no_radix, no_pfx, False)
                last_anchor = c


@njit(cache=True)
def _is_empty(tiles):
    for r in range(N):
        for c in range(N):
            if tiles[r, c] != 0:
                return False
    return True


@njit(cache=True)
def _params(rack, bingo_tiles, bingo_bonus):
    params = np.zeros(8, dtype=np.int64)
    total = 0
    for i in range(rack.shape[0]):
        total += rack[i]
    params[1] = total
    mask = 0
    for i in range(1, rack.shape[0]):
        if rack[i] > 0:
            mask |= np.int64(1) << i
    params[5] = mask
    params[3] = bingo_tiles
    params[4] = bingo_bonus
    return params


@njit(cache=True)
def _mirror_opening(tiles, lm, wm):
    """True on an empty board whose premium layout is symmetric about the diagonal:
    then the down moves are exactly the across moves transposed, with the same scores."""
    if not _is_empty(tiles):
        return False
    for r in range(N):
        for c in range(r + 1, N):
            if lm[r, c] != lm[c, r] or wm[r, c] != wm[c, r]:
                return False
    return True


@njit(cache=True)
def _add_transposed(out, cnt):
    """Append the transpose (down version) of every recorded move (see :func:`_mirror_opening`).

    When the doubled list does not fit, only the count is doubled, so the
    caller allocates enough room and calls again.
    """
    n = cnt[0]
    if 2 * n > out.shape[0]:
        cnt[0] = 2 * n
        return
    for i in range(n):
        for k in range(OUT_WIDTH):
            out[n + i, k] = out[i, k]
        out[n + i, OUT_DIR] = 1
        out[n + i, OUT_ROW] = out[i, OUT_COL]
        out[n + i, OUT_COL] = out[i, OUT_ROW]
    cnt[0] = 2 * n


@njit(cache=True)
def generate_checked(kwg, tiles, tvals, lm, wm, rack, vals, bingo_tiles, bingo_bonus, cs, xs, hx, out, cnt):
    """:func:`generate` with precomputed cross-checks.

    Args:
        cs, xs, hx: (2, 15, 15) cross-check bitmasks, cross-scores and
            cross-word flags; ``[0]`` for across moves in board coordinates,
            ``[1]`` for down moves in transposed coordinates (line = column).
        Other arguments as :func:`generate`.
    """
    empty_board = _is_empty(tiles)
    params = _params(rack, bingo_tiles, bingo_bonus)
    cnt[0] = 0
    params[2] = 0
    _gen_lines(kwg, tiles, tvals, cs[0], xs[0], hx[0], lm, wm, rack, vals, out, cnt, params, empty_board)
    if _mirror_opening(tiles, lm, wm):
        _add_transposed(out, cnt)
        return
    params[2] = 1
    _gen_lines(kwg, tiles.T.copy(), tvals.T.copy(), cs[1], xs[1], hx[1], lm.T.copy(), wm.T.copy(), rack, vals,
               out, cnt, params, empty_board)


@njit(cache=True)
def all_cross_checks(kwg, tiles, tvals, all_mask):
    """Cross-checks of both directions: (2, 15, 15) arrays cs, xs, hx (see :func:`generate_checked`)."""
    cs = np.zeros((2, N, N), dtype=np.uint32)
    xs = np.zeros((2, N, N), dtype=np.int32)
    hx = np.zeros((2, N, N), dtype=np.uint8)
    every = np.ones(N, dtype=np.uint8)
    cross_checks_into(kwg, tiles, tvals, all_mask, cs[0], xs[0], hx[0], every)
    cross_checks_into(kwg, tiles.T.copy(), tvals.T.copy(), all_mask, cs[1], xs[1], hx[1], every)
    return cs, xs, hx


@njit(cache=True)
def update_cross_checks(kwg, tiles, tvals, all_mask, cs, xs, hx, rows, cols):
    """Recompute the cross-checks of the lines a move touched.

    Args:
        rows, cols: uint8 (15,) masks of the board rows and columns that hold a
            newly placed tile. Across checks depend on vertical runs, so the
            touched columns are recomputed; down checks (transposed) the touched rows.
    """
    cross_checks_into(kwg, tiles, tvals, all_mask, cs[0], xs[0], hx[0], cols)
    cross_checks_into(kwg, tiles.T.copy(), tvals.T.copy(), all_mask, cs[1], xs[1], hx[1], rows)


@njit(cache=True)
def generate(kwg, tiles, tvals, lm, wm, rack, vals, all_mask, bingo_tiles, bingo_bonus, out, cnt):
    """Generate every legal placement of the rack on the board, scored.

    Args:
        kwg: uint32 (n,) KWG node array (validated).
        tiles: uint8 (15, 15) tile codes on the board, 0 = empty.
        tvals: int32 (15, 15) points of each board tile (0 for blanks and empty).
        lm, wm: int32 (15, 15) letter and word multipliers of still-uncovered
            premium squares (1 elsewhere).
        rack: int64 (n_letters + 1,) tile counts, index 0 = blanks (restored on return).
        vals: int64 (n_letters + 1,) points per tile code.
        all_mask: uint32 with bits 1..n_letters set.
        bingo_tiles, bingo_bonus: tiles for the bonus (7) and its points (50).
        out: int32 (capacity, OUT_WIDTH) output rows.
        cnt: int64 (1,) number of moves found (may exceed capacity: then call
            again with a larger ``out``).
    """
    cs, xs, hx = all_cross_checks(kwg, tiles, tvals, all_mask)
    generate_checked(kwg, tiles, tvals, lm, wm, rack, vals, bingo_tiles, bingo_bonus, cs, xs, hx, out, cnt)


# ---------------------------------------------------------------------------
# Best-first: anchors in order of an upper bound on their moves' scores
# ---------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _heap_push(hb, hi, n, bound, item):
    i = n
    hb[i] = bound
    hi[i] = item
    while i > 0:
        p = (i - 1) // 2
        if hb[p] >= hb[i]:
            break
        hb[p], hb[i] = hb[i], hb[p]
        hi[p], hi[i] = hi[i], hi[p]
        i = p
    return n + 1


@njit(cache=True, inline="always")
def _heap_pop(hb, hi, n):
    n -= 1
    hb[0] = hb[n]
    hi[0] = hi[n]
    i = 0
    while True:
        l = 2 * i + 1
        if l >= n:
            break
        c = l
        if l + 1 < n and hb[l + 1] > hb[l]:
            c = l + 1
        if hb[i] >= hb[c]:
            break
        hb[c], hb[i] = hb[i], hb[c]
        hi[c], hi[i] = hi[i], hi[c]
        i = c
    return n


@njit(cache=True)
def generate_best(kwg, tiles, tvals, lm, wm, rack, vals, all_mask, bingo_tiles, bingo_bonus, radix, lv, lvmax,
                  n_best, out, cnt, wmap, floor):
    """:func:`generate_best_checked` computing the cross-checks first."""
    cs, xs, hx = all_cross_checks(kwg, tiles, tvals, all_mask)
    return generate_best_checked(kwg, tiles, tvals, lm, wm, rack, vals, bingo_tiles, bingo_bonus, cs, xs, hx,
                                 radix, lv, lvmax, n_best, out, cnt, wmap, floor)


@njit(cache=True)
def _word_leaves(wmap, rack, radix, lv, lvmax, n_letters):
    """float64 (8,): for each number ``k`` of tiles played, the best leave value ``lv[...]`` over
    the sub-multisets of ``k`` rack tiles that form a word (word map), ``-inf`` when none does.

    ``lvmax`` itself (no pruning) without a word map, with two or more blanks on the rack
    (too many letter choices to try), and for ``k = 1`` (a one-tile main word is no word;
    such moves are the other direction's).
    """
    lvw = lvmax.copy()
    if wmap.shape[0] == 0 or rack[0] >= 2:
        return lvw
    for k in range(2, 8):
        lvw[k] = -np.inf
    T = rack.shape[0]
    codes = np.empty(T, dtype=np.int64)
    nd = 0
    total = 1
    for c in range(T):
        if rack[c] > 0:
            codes[nd] = c
            nd += 1
            total *= rack[c] + 1
    # the sub-racks of 2..7 tiles: size, leave index, letter hash, blanks; those without the blank
    # first (a query with a blank costs n_letters probes; the blank is the lowest mixed-radix digit)
    ks = np.empty(total, dtype=np.int64)
    lis = np.empty(total, dtype=np.int64)
    hs = np.empty(total, dtype=np.uint64)
    bs = np.empty(total, dtype=np.int64)
    key = np.empty(total, dtype=np.float64)
    m = 0
    b0 = rack[0] + 1
    for ps in range(2 if rack[0] > 0 else 1):
        for sub in range(1, total):
            if rack[0] > 0 and (sub % b0 == 0) != (ps == 0):
                continue
            rem = sub
            k = 0
            li = 0
            b = 0
            h = np.uint64(0)
            for j in range(nd):
                c = codes[j]
                base = rack[c] + 1
                u = rem % base
                rem //= base
                k += u
                li += u * radix[c]
                if c == 0:
                    b = u
                else:
                    for _ in range(u):
                        h += WM_RAND[c]
            if k < 2 or k > 7:
                continue
            ks[m] = k
            lis[m] = li
            hs[m] = h
            bs[m] = b
            key[m] = -lv[li]
            m += 1
    # probed best leave first (stable: blank-free first among equal leaves), so the first word
    # of each size settles it: every probe is a cache miss in a table of megabytes
    order = np.argsort(key[:m], kind="mergesort")
    settled = np.zeros(8, dtype=np.bool_)
    sizes = 0
    for i in range(m):
        if not settled[ks[i]]:
            settled[ks[i]] = True
            sizes += 1
    settled[:] = False
    for o in range(m):
        if sizes == 0:
            break
        i = order[o]
        k = ks[i]
        if settled[k]:
            continue
        if wm_word_exists(wmap, WM_RAND, hs[i], bs[i], n_letters):
            lvw[k] = lv[lis[i]]
            settled[k] = True
            sizes -= 1
    return lvw


@njit(cache=True)
def _best_opening(kwg, lm, wm, rack, vals, bingo_tiles, bingo_bonus, radix, lv, n_best, out, cnt, both, floor):
    """Best-first on the empty board: the rack's words from the DAWG, each scored at every start.

    Every word the rack can spell (each blank as each letter) is found once by
    a depth-first walk of the DAWG with the rack's counts, instead of once per
    split point as a GADDAG walk from the centre finds it; each is then scored
    at every start on the centre row (and the centre column when ``both``, for
    a layout that is not symmetric) whose word covers the centre square. The
    moves whose rank (score + ``lv`` of the tiles used) reaches the
    ``n_best``-th best so far are recorded, so the rows reaching the final
    ``n_best``-th best rank are all in ``out`` (as :func:`generate_best_checked`).
    """
    centre = N // 2
    root = node_arc(kwg[0])
    if root == 0:
        return
    top = np.full(n_best, max(floor, -1e18))
    cur = np.empty(N, dtype=np.int64)
    ph = np.zeros(N, dtype=np.int64)
    chosen = np.full(N, -1, dtype=np.int64)  # letter taken at each depth (-1: none), blank in isblank
    isblank = np.zeros(N, dtype=np.int64)
    word = np.zeros(N, dtype=np.int64)
    tv = np.zeros(N, dtype=np.int64)
    left = 0
    for t in range(rack.shape[0]):
        left += rack[t]
    depth = 0
    cur[0] = root
    while depth >= 0:
        if chosen[depth] >= 0:
            if isblank[depth]:
                rack[0] += 1
            else:
                rack[chosen[depth]] += 1
            left += 1
            chosen[depth] = -1
        a = -1
        blank = False
        letter = 0
        while cur[depth] >= 0:
            v = kwg[cur[depth]]
            letter = np.int64(node_tile(v))
            if ph[depth] == 0:
                ph[depth] = 1
                if letter != 0 and rack[letter] > 0:
                    a = cur[depth]
                    break
            ph[depth] = 0
            here = cur[depth]
            cur[depth] = -1 if node_is_end(v) else cur[depth] + 1
            if letter != 0 and rack[0] > 0:
                a = here
                blank = True
                break
        if a < 0:
            depth -= 1
            continue
        chosen[depth] = letter
        isblank[depth] = 1 if blank else 0
        if blank:
            rack[0] -= 1
            word[depth] = letter | BLANK_FLAG
            tv[depth] = 0
        else:
            rack[letter] -= 1
            word[depth] = letter
            tv[depth] = vals[letter]
        left -= 1
        v = kwg[a]
        L = depth + 1
        if node_accepts(v) and L >= 2:
            u = 0
            for i in range(L):
                u += radix[0] if isblank[i] else radix[chosen[i]]
            leave = lv[u]
            for d in range(2 if both else 1):
                for st in range(max(0, centre - L + 1), min(centre, N - L) + 1):
                    main = 0
                    wmul = 1
                    for i in range(L):
                        r = centre if d == 0 else st + i
                        c = st + i if d == 0 else centre
                        main += tv[i] * lm[r, c]
                        wmul *= wm[r, c]
                    score = main * wmul
                    if L == bingo_tiles:
                        score += bingo_bonus
                    rank = score + leave
                    if rank < top[0]:
                        continue
                    n = cnt[0]
                    cnt[0] = n + 1
                    if n < out.shape[0]:
                        out[n, OUT_SCORE] = score
                        out[n, OUT_ROW] = centre if d == 0 else st
                        out[n, OUT_COL] = st if d == 0 else centre
                        out[n, OUT_DIR] = d
                        out[n, OUT_LEN] = L
                        out[n, OUT_NTILES] = L
                        for k in range(N):
                            out[n, OUT_TILES + k] = word[k] if k < L else 0
                    _top_insert(top, rank)
        child = node_arc(v)
        if child != 0 and left > 0 and depth + 1 < N:
            depth += 1
            cur[depth] = child
            ph[depth] = 0
            chosen[depth] = -1


# fields of the per-line square table of the best-first walk (the first seven as I_*)
I_MAXV = 7
L_WIDTH = 8
REFINE_MIN_TILES = 4  # refine (per-span bounds) from this many rack tiles on


@njit(cache=True)
def generate_best_checked(kwg, tiles, tvals, lm, wm, rack, vals, bingo_tiles, bingo_bonus, cs, xs, hx,
                          radix, lv, lvmax, n_best, out, cnt, wmap, floor):
    """Moves of the spans that can still hold one of the ``n_best`` top-ranked moves.

    The ranking is score plus a value that depends only on which rack tiles a
    move uses (the leave): ``lv[sum(radix[t] for each used tile t)]``, with
    ``radix`` a mixed-radix numbering of the sub-multisets of the rack (blank
    = index 0) and ``lvmax[k]`` the largest ``lv`` over moves of ``k`` tiles.
    Pass zeros (``lv`` of length 1) to rank by score alone, or leave values
    to rank by equity (score + leave value).

    Bounds (the "shadow" of MAGPIE and wolges: an upper bound of what any
    move from an anchor can rank, worked out from the squares alone, without
    the lexicon). A move from an anchor covers a span ``[l, r]`` of the line
    holding ``k`` empty squares, 1 <= k <= tiles on the rack, each of which
    some rack tile fits (cross-check). A new tile of value ``v`` on square
    ``s`` adds ``v * c_s`` with ``c_s = lm_s * W + lm_s * wm_s * [cross-word
    at s]`` (``W`` the product of the span's open word multipliers); tiles on
    the board, the cross-words' existing tiles and the bingo bonus are exact.
    The tiles' part is at most the smaller of (a) the ``k`` largest ``c_s``
    paired with the rack's ``k`` highest values (rearrangement inequality)
    and (b) the ``k`` largest ``c_s * v_s`` with ``v_s`` the highest value of a
    rack tile that fits square ``s``; the leave part is at most ``lvmax[k]``.

    Anchors wait in a max-heap: first with the bound of the whole region the
    anchor's spans can reach (all its word multipliers, tiles and cross-words
    at once, per ``k``); when an anchor comes to the top it gets the exact
    bound of every span and goes back with the best of them; when it comes to
    the top again it is walked once, restricted to the spans whose bound
    still reaches the ``n_best``-th best rank found so far. The search stops
    when the top bound is below that rank, so every move ranking at least as
    high as the ``n_best``-th best is in ``out`` (ties included) and the
    caller's top ``n_best`` equal those of the full list. Other arguments as
    :func:`generate_checked`.

    Word map (``wmap``, :func:`engine.movegen._wordmap.build_wordmap`; an empty array
    turns it off): a span in which a move would use every rack tile is dropped
    when no word consists of exactly the rack's letters and the span's board
    tiles (blanks: any letter; with two blanks only spans without board tiles
    are checked), and an anchor's region bound leaves out the whole-rack term
    when the region holds no board tile and no word uses exactly the rack.
    This takes the bingo bonus out of the bounds of racks that cannot bingo.

    ``floor`` (``-inf`` for none): a rank that the caller already holds
    another way, e.g. the ``n_best``-th best exchange: the search starts with
    it as the threshold, so only moves ranking at least ``floor`` are sure to
    be in ``out`` (those are the ones that can beat or tie it).

    Racks of fewer than ``REFINE_MIN_TILES`` tiles walk an anchor without
    per-span bounds (measured cheaper; not needed for correctness). The threshold also rises while an anchor
    is walked, cutting its remaining spans (see :func:`engine.movegen._bestwalk.walk_anchor_best`).

    Returns:
        number of anchors walked (for statistics).
    """
    empty_board = _is_empty(tiles)
    params = _params(rack, bingo_tiles, bingo_bonus)
    cnt[0] = 0
    rack_vals = np.zeros(8, dtype=np.int64)
    nv = 0
    for t in range(rack.shape[0]):
        for _ in range(rack[t]):
            v = vals[t] if t != 0 else 0
            j = nv
            while j > 0 and rack_vals[j - 1] < v:
                rack_vals[j] = rack_vals[j - 1]
                j -= 1
            rack_vals[j] = v
            nv += 1
    if nv == 0:
        return 0
    has_blank = rack[0] > 0
    # word map: the multiset hash of the rack's letters; is there a word of exactly the rack's tiles?
    n_letters = rack.shape[0] - 1
    hrack = np.uint64(0)
    for t in range(1, rack.shape[0]):
        for _ in range(rack[t]):
            hrack += WM_RAND[t]
    rack_word = wm_word_exists(wmap, WM_RAND, hrack, rack[0], n_letters)
    # spans without board tiles: the main word is made of the played tiles alone, so ``k`` tiles
    # need a word of some k of the rack's tiles; lvw[k] is the best leave of those (-inf: none)
    lvw = _word_leaves(wmap, rack, radix, lv, lvmax, n_letters)
    # the rack's distinct letters, highest value first
    letters = np.empty(8, dtype=np.int64)
    nl = 0
    for t in range(1, rack.shape[0]):
        if rack[t] > 0:
            j = nl
            while j > 0 and vals[letters[j - 1]] < vals[t]:
                letters[j] = letters[j - 1]
                j -= 1
            letters[j] = t
            nl += 1
    mirror = _mirror_opening(tiles, lm, wm)
    if empty_board:
        _best_opening(kwg, lm, wm, rack, vals, bingo_tiles, bingo_bonus, radix, lv, n_best, out, cnt, not mirror,
                      floor)
        if mirror:
            _add_transposed(out, cnt)
        return 1
    nd = 1 if mirror else 2
    # per direction and line, the square table: tile, value, cross-check, cross-score, hook,
    # open premiums and the highest value of a rack tile that fits (-1: none fits, or a tile)
    LI = np.empty((nd, N, L_WIDTH, N), dtype=np.int64)
    for d in range(nd):
        for line in range(N):
            for c in range(N):
                if d == 0:
                    r, cc = line, c
                else:
                    r, cc = c, line
                t = tiles[r, cc]
                LI[d, line, I_TILE, c] = t
                LI[d, line, I_VAL, c] = tvals[r, cc]
                m = np.int64(cs[d, line, c])
                LI[d, line, I_CS, c] = m
                LI[d, line, I_XS, c] = xs[d, line, c]
                LI[d, line, I_HX, c] = hx[d, line, c]
                LI[d, line, I_LM, c] = lm[r, cc]
                LI[d, line, I_WM, c] = wm[r, cc]
                best = np.int64(-1)
                if t == 0 and m != 0:
                    if has_blank:
                        best = 0
                    fit = m & params[5]
                    if fit != 0:
                        for q in range(nl):
                            if (fit >> letters[q]) & 1:
                                best = max(best, vals[letters[q]])
                                break  # letters are sorted by value, highest first
                LI[d, line, I_MAXV, c] = best
    # anchors: direction, line, col, last anchor, refined, first span, span count
    an = np.empty((2 * N * N, 7), dtype=np.int64)
    hb = np.empty(2 * N * N, dtype=np.float64)
    hi = np.empty(2 * N * N, dtype=np.int64)
    coef = np.empty(2 * N, dtype=np.int64)
    capv = np.empty(2 * N, dtype=np.int64)
    nh = 0
    na = 0
    for d in range(nd):
        for line in range(N):
            if empty_board and line != N // 2:
                continue
            L = LI[d, line]
            last_anchor = -2
            for c in range(N):
                if empty_board:
                    is_anchor = c == N // 2
                elif L[I_TILE, c] != 0:
                    is_anchor = c == N - 1 or L[I_TILE, c + 1] == 0
                else:
                    is_anchor = (L[I_HX, c] != 0 and (c == 0 or L[I_TILE, c - 1] == 0)
                                 and (c == N - 1 or L[I_TILE, c + 1] == 0))
                if not is_anchor:
                    continue
                la = last_anchor
                last_anchor = c
                # region bound (written out: helper calls cost reference counting per anchor)
                if L[I_TILE, c] == 0 and L[I_MAXV, c] < 0:
                    continue
                lo = max(la + 1, 0)
                left = c
                k = 1 if L[I_TILE, c] == 0 else 0
                while left > lo:
                    q = left - 1
                    if L[I_TILE, q] == 0:
                        if k >= nv or L[I_MAXV, q] < 0:
                            break
                        k += 1
                    left = q
                right = c
                k = 1 if L[I_TILE, c] == 0 else 0
                while right < N - 1:
                    q = right + 1
                    if L[I_TILE, q] == 0:
                        if k >= nv or L[I_MAXV, q] < 0:
                            break
                        k += 1
                    right = q
                wmul = 1
                fixed = 0
                cross_fixed = 0
                m = 0
                on_board = 0
                for q in range(left, right + 1):
                    if L[I_TILE, q] == 0:
                        wmul *= L[I_WM, q]
                        m += 1
                        if L[I_HX, q]:
                            cross_fixed += L[I_XS, q] * L[I_WM, q]
                    else:
                        fixed += L[I_VAL, q]
                        on_board += 1
                if m == 0:
                    continue
                j = 0
                for q in range(left, right + 1):
                    if L[I_TILE, q] == 0:
                        v = L[I_LM, q] * wmul
                        if L[I_HX, q]:
                            v += L[I_LM, q] * L[I_WM, q]
                        _insert_desc(coef, j, v)
                        _insert_desc(capv, j, v * L[I_MAXV, q])
                        j += 1
                base = fixed * wmul + cross_fixed
                pair = 0
                cap = 0
                bound = -1e18
                for q in range(min(m, nv)):
                    pair += coef[q] * rack_vals[q]
                    cap += capv[q]
                    if q + 1 == nv and on_board == 0 and not rack_word:
                        break  # no word of the whole rack's letters (word map)
                    b = base + min(pair, cap) + (lvmax[q + 1] if on_board else lvw[q + 1])
                    if q + 1 == bingo_tiles:
                        b += bingo_bonus
                    if b > bound:
                        bound = b
                an[na, 0] = d
                an[na, 1] = line
                an[na, 2] = c
                an[na, 3] = la
                an[na, 4] = 0
                nh = _heap_push(hb, hi, nh, bound, na)
                na += 1
    spcap = 4 * N * N
    sb = np.empty(spcap, dtype=np.float64)
    sl = np.empty(spcap, dtype=np.int64)
    sr = np.empty(spcap, dtype=np.int64)
    ns = 0
    spb = np.empty((N, N), dtype=np.float64)
    sfx = np.empty((N, N + 1), dtype=np.float64)
    pfx = np.empty(N, dtype=np.float64)
    sq_lm = np.zeros(8, dtype=np.int64)
    sq_x = np.zeros(8, dtype=np.int64)
    sq_v = np.zeros(8, dtype=np.int64)
    info = np.zeros((L_WIDTH, N), dtype=np.int64)
    stack = np.zeros((STACK, S_WIDTH), dtype=np.int64)
    groot = node_arc(kwg[1])
    top = np.full(n_best, max(floor, -1e18))  # ascending: top[0] is the n-th best so far (or the floor)
    walked = 0
    while nh > 0:
        if hb[0] < top[0]:
            break
        ai = hi[0]
        nh = _heap_pop(hb, hi, nh)
        d = an[ai, 0]
        line = an[ai, 1]
        anchor = an[ai, 2]
        L = LI[d, line]
        if an[ai, 4] == 0 and nv >= REFINE_MIN_TILES:
            # refine: the bound of every span, back into the heap with the best of them
            an[ai, 4] = 1
            if ns + N * N > spcap:
                spcap = 2 * spcap + N * N
                sb2 = np.empty(spcap, dtype=np.float64)
                sl2 = np.empty(spcap, dtype=np.int64)
                sr2 = np.empty(spcap, dtype=np.int64)
                sb2[:ns] = sb[:ns]
                sl2[:ns] = sl[:ns]
                sr2[:ns] = sr[:ns]
                sb, sl, sr = sb2, sl2, sr2
            first = ns
            best = -1e18
            lo = an[ai, 3] + 1
            for l in range(anchor, max(lo, 0) - 1, -1):
                if l > 0 and L[I_TILE, l - 1] != 0:
                    if l - 1 >= lo:
                        continue  # the word would extend further left
                    break
                if L[I_TILE, l] == 0 and L[I_MAXV, l] < 0:
                    break  # no span starts left of a square nothing fits
                k = 0
                wmul = 1
                fixed = 0
                cross_fixed = 0
                hbt = np.uint64(0)
                nb = 0
                for c in range(l, N):
                    if L[I_TILE, c] == 0:
                        if L[I_MAXV, c] < 0 or k == nv:
                            break
                        sq_lm[k] = L[I_LM, c]
                        sq_x[k] = L[I_LM, c] * L[I_WM, c] if L[I_HX, c] else 0
                        sq_v[k] = L[I_MAXV, c]
                        k += 1
                        if L[I_HX, c]:
                            cross_fixed += L[I_XS, c] * L[I_WM, c]
                        # keep coef / capv sorted (descending): insert the new square, or re-sort
                        # all when a word multiplier changes every coefficient
                        first_q = k - 1
                        if L[I_WM, c] != 1:
                            wmul *= L[I_WM, c]
                            first_q = 0
                        for q in range(first_q, k):
                            v = sq_lm[q] * wmul + sq_x[q]
                            _insert_desc(coef, q, v)
                            _insert_desc(capv, q, v * sq_v[q])
                    else:
                        fixed += L[I_VAL, c]
                        hbt += WM_RAND[L[I_TILE, c]]
                        nb += 1
                    if c < anchor or c == l or (c < N - 1 and L[I_TILE, c + 1] != 0) or k == 0:
                        continue
                    pair = 0
                    cap = 0
                    for q in range(k):
                        pair += coef[q] * rack_vals[q]
                        cap += capv[q]
                    b = fixed * wmul + cross_fixed + min(pair, cap) + (lvmax[k] if nb else lvw[k])
                    if k == bingo_tiles:
                        b += bingo_bonus
                    if b < top[0]:
                        continue  # cannot reach the threshold, which only rises (-inf: no word of k rack tiles)
                    if k == nv and not (rack_word if nb == 0 else wm_word_exists(
                            wmap, WM_RAND, hrack + hbt, rack[0] if rack[0] < 2 else 3, n_letters)):
                        continue  # every rack tile used, and no word of these letters (word map)
                    sb[ns] = b
                    sl[ns] = l
                    sr[ns] = c
                    ns += 1
                    if b > best:
                        best = b
            an[ai, 5] = first
            an[ai, 6] = ns - first
            if ns > first and best >= top[0]:
                nh = _heap_push(hb, hi, nh, best, ai)
            continue
        # walk once, restricted to the anchor's spans that can still reach the top n (the
        # threshold rises during the walk); an anchor walked without refinement has no span limits
        thr = top[0]
        # (only the entries the walk reads: starts after the previous anchor, ends at or after this one)
        fill = -np.inf if an[ai, 4] != 0 else np.inf
        l0 = max(an[ai, 3] + 1, 0)
        for l in range(l0, anchor + 1):
            for r in range(anchor, N):
                spb[l, r] = fill
        if an[ai, 4] != 0:
            for i in range(an[ai, 5], an[ai, 5] + an[ai, 6]):
                if sb[i] >= thr:
                    spb[sl[i], sr[i]] = sb[i]
        run = -np.inf
        for l in range(l0, anchor + 1):
            m = -np.inf
            for r in range(N - 1, anchor - 1, -1):
                m = max(m, spb[l, r])
                sfx[l, r] = m
            run = max(run, sfx[l, anchor])
            pfx[l] = run
        for f in range(I_MAXV):  # the walk's square table: row I_MAXV is its placed-tile row (zero)
            for c in range(N):
                info[f, c] = L[f, c]
        cnt[0] = walk_anchor_best(kwg, info, rack, vals, out, cnt[0], stack, anchor, an[ai, 3], groot, line, d,
                                  bingo_tiles, bingo_bonus, spb, sfx, pfx, top, radix, lv)
        walked += 1
    if mirror:
        _add_transposed(out, cnt)
    return walked


# ---------------------------------------------------------------------------
# One call per request: the entry points of engine.movegen.generator
# ---------------------------------------------------------------------------
C_ALL_MASK, C_BINGO_TILES, C_BINGO_BONUS = 0, 1, 2

from engine.movegen._allmoves import movegen_all  # noqa: E402,F401  (every move: its own kernel, engine.movegen._allmoves)


@njit(cache=True)
def _prepare(tiles, blanks, lmult, wmult, vals, tvals, lm, wm):
    """Tile values (0 for blanks) and the premiums still open (1 under tiles) of a board."""
    for r in range(N):
        for c in range(N):
            t = tiles[r, c]
            if t != 0:
                tvals[r, c] = 0 if blanks[r, c] else vals[t]
                lm[r, c] = 1
                wm[r, c] = 1
            else:
                tvals[r, c] = 0
                lm[r, c] = lmult[r, c]
                wm[r, c] = wmult[r, c]


@njit(cache=True)
def _board_state(kwg, tiles, blanks, lmult, wmult, vals, all_mask, cs, xs, hx, have_checks):
    """``(tvals, lm, wm)`` of the board; the cross-checks into ``cs, xs, hx`` unless ``have_checks``."""
    tvals = np.empty((N, N), dtype=np.int32)
    lm = np.empty((N, N), dtype=np.int32)
    wm = np.empty((N, N), dtype=np.int32)
    _prepare(tiles, blanks, lmult, wmult, vals, tvals, lm, wm)
    if not have_checks:  # the all-moves kernel's cross-checks (no transposed copies)
        lt, lv, busy, _ = line_tables(tiles, blanks, vals)
        cross_checks_lines(kwg, lt, lv, busy, np.int64(all_mask), cs, xs, hx)
    return tvals, lm, wm


@njit(cache=True)
def cross_checks_of(kwg, tiles, blanks, lmult, wmult, vals, consts, cs, xs, hx):
    """The board's cross-checks of both directions into ``cs, xs, hx`` (arguments as :func:`movegen_all`)."""
    _board_state(kwg, tiles, blanks, lmult, wmult, vals, np.uint32(consts[C_ALL_MASK]), cs, xs, hx, False)


@njit(cache=True)
def update_checks_of(kwg, tiles, blanks, vals, consts, cs, xs, hx, rows, cols):
    """:func:`update_cross_checks` from the board arrays (tile values worked out here)."""
    tvals = np.empty((N, N), dtype=np.int32)
    for r in range(N):
        for c in range(N):
            t = tiles[r, c]
            tvals[r, c] = 0 if t == 0 or blanks[r, c] else vals[t]
    update_cross_checks(kwg, tiles, tvals, np.uint32(consts[C_ALL_MASK]), cs, xs, hx, rows, cols)


@njit(cache=True)
def movegen_best(kwg, tiles, blanks, lmult, wmult, vals, consts, rack_in, cs, xs, hx, have_checks, radix, lv, lvmax,
                 n_best, out, wmap, ranks, floor):
    """Best-first generation (:func:`generate_best_checked`) in one call, arguments as :func:`movegen_all`.

    On return ``out[:count]`` holds exactly the walked moves whose rank
    (score + ``lv[...]`` of the tiles used) reaches the ``n_best``-th best
    rank: the top ``n_best`` and every move tied with the last of them, in
    generation order, and ``ranks[:count]`` (float64, at least as long as
    ``out``) their ranks. ``wmap``: the word map (:mod:`engine.movegen._wordmap`;
    empty: none). ``floor``: as :func:`generate_best_checked` (``-inf``: none).

    Returns:
        the count; when larger than ``out``'s capacity, call again with a larger ``out``.
    """
    rack = np.empty(rack_in.shape[0], dtype=np.int64)
    for i in range(rack_in.shape[0]):
        rack[i] = rack_in[i]
    tvals, lm, wm = _board_state(kwg, tiles, blanks, lmult, wmult, vals, np.uint32(consts[C_ALL_MASK]), cs, xs, hx,
                                 have_checks)
    cnt = np.zeros(1, dtype=np.int64)
    generate_best_checked(kwg, tiles, tvals, lm, wm, rack, vals, consts[C_BINGO_TILES], consts[C_BINGO_BONUS],
                          cs, xs, hx, radix, lv, lvmax, n_best, out, cnt, wmap, floor)
    n = cnt[0]
    if n > out.shape[0]:
        return n
    return _keep_top(out, n, radix, lv, n_best, ranks)


@njit(cache=True)
def movegen_best_equity(kwg, tiles, blanks, lmult, wmult, vals, consts, rack_in, cs, xs, hx, have_checks,
                        values, H, cap, P, tile_values, counts, scale, endgame, out_bonus, stuck_penalty, seven,
                        n_best, with_exchanges, out, wmap, ranks):
    """:func:`movegen_best` ranked by static equity, with the rack's leave terms worked out in the same call.

    The leave arrays are :func:`engine.leaves._kernels.sub_leave_arrays` (``values, H,
    cap, P, tile_values, scale, endgame, out_bonus, stuck_penalty, seven`` as there); with
    the bag empty (``endgame``) and ``out_bonus`` NaN the going-out bonus is twice the face
    value of the tiles neither on the board nor on the rack (``counts``: int64 tiles of
    each code in the set, as :func:`engine.game.equity.out_bonus`). With ``with_exchanges`` the ``n_best``-th best
    exchange (leave term of a non-empty put-back) is the search's floor. Other
    arguments as :func:`movegen_best`.

    Returns:
        ``(count, radix, lv)``: as :func:`movegen_best`, and the leave arrays.
    """
    T = rack_in.shape[0]
    rack = np.empty(T, dtype=np.int64)
    for i in range(T):
        rack[i] = rack_in[i]
    bonus = out_bonus
    if endgame and out_bonus != out_bonus:
        bonus = 0.0
        unseen = np.empty(T, dtype=np.int64)
        for c in range(T):
            unseen[c] = counts[c] - rack[c]
        for r in range(N):
            for c in range(N):
                t = tiles[r, c]
                if t != 0:
                    unseen[0 if blanks[r, c] else t] -= 1
        for c in range(T):
            if unseen[c] > 0:
                bonus += unseen[c] * vals[c]
        bonus *= 2.0
    radix, lv, lvmax = sub_leave_arrays(rack, values, H, cap, P, scale, endgame, bonus, stuck_penalty, tile_values,
                                        seven)
    floor = -np.inf
    size = lv.shape[0]
    if with_exchanges and size > n_best:
        floor = np.sort(lv[1:])[size - 1 - n_best]
    tvals, lm, wm = _board_state(kwg, tiles, blanks, lmult, wmult, vals, np.uint32(consts[C_ALL_MASK]), cs, xs, hx,
                                 have_checks)
    cnt = np.zeros(1, dtype=np.int64)
    generate_best_checked(kwg, tiles, tvals, lm, wm, rack, vals, consts[C_BINGO_TILES], consts[C_BINGO_BONUS],
                          cs, xs, hx, radix, lv, lvmax, n_best, out, cnt, wmap, floor)
    n = cnt[0]
    if n > out.shape[0]:
        return n, radix, lv
    return _keep_top(out, n, radix, lv, n_best, ranks), radix, lv


@njit(cache=True)
def _rank(out, i, radix, lv):
    u = 0
    for j in range(out[i, OUT_LEN]):
        t = out[i, OUT_TILES + j]
        if t != 0:
            u += radix[0] if t & BLANK_FLAG else radix[t]
    return out[i, OUT_SCORE] + lv[u]


@njit(cache=True)
def _keep_top(out, n, radix, lv, n_best, ranks):
    """Move the rows ranking at least the ``n_best``-th best to the front (order kept), their
    ranks into ``ranks``; their count."""
    for i in range(n):
        ranks[i] = _rank(out, i, radix, lv)
    if n <= n_best:
        return n
    cutoff = np.sort(ranks[:n])[n - n_best]
    k = 0
    for i in range(n):
        if ranks[i] >= cutoff:
            if k != i:
                for c in range(OUT_WIDTH):
                    out[k, c] = out[i, c]
                ranks[k] = ranks[i]
            k += 1
    return k
