"""Numba kernels: cross-checks, cross-scores and GADDAG move generation.

Plain arrays in and out; :mod:`engine.movegen` validates every input first.
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

Output rows (int32, ``OUT_WIDTH`` columns): score, row, col (of the first
square of the main word, 0-based), direction (0 across, 1 down), main word
length, tiles placed, then one column per square of the main word: the placed
letter code (``| BLANK_FLAG`` for a blank) or 0 for a tile already on the board.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from lexicon_tools._kwg_kernels import child_arc as _child_arc

ARC_MASK = np.uint32(0x3FFFFF)
IS_END = np.uint32(0x400000)
ACCEPTS = np.uint32(0x800000)
from ._rows import BLANK_FLAG, N, OUT_COL, OUT_DIR, OUT_LEN, OUT_NTILES, OUT_ROW, OUT_SCORE, OUT_TILES, OUT_WIDTH  # noqa: E402,F401

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
    root = np.int64(kwg[0] & ARC_MASK)
    groot = np.int64(kwg[1] & ARC_MASK)
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
                    p = np.int64(kwg[a] & ARC_MASK)
                mask = np.uint32(0)
                i = p
                while i != 0:
                    v = kwg[i]
                    if v & ACCEPTS:
                        mask |= np.uint32(1) << (v >> 24)
                    if v & IS_END:
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
                p = np.int64(kwg[a] & ARC_MASK)
            if not ok or p == 0:
                continue
            mask = np.uint32(0)
            i = p
            while True:
                v = kwg[i]
                letter = v >> 24
                if bot == r:
                    if v & ACCEPTS:
                        mask |= np.uint32(1) << letter
                else:
                    q = np.int64(v & ARC_MASK)
                    acc = False
                    for j in range(r + 1, bot + 1):
                        a = _child_arc(kwg, q, tiles[j, c])
                        if a < 0:
                            acc = False
                            break
                        acc = (kwg[a] & ACCEPTS) != 0
                        q = np.int64(kwg[a] & ARC_MASK)
                    if acc:
                        mask |= np.uint32(1) << letter
                if v & IS_END:
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
def _gen_anchor(kwg, info, rack, vals, placed, out, cnt, params, stack, anchor, last_anchor, groot, line,
                spans, maxr, lmin):
    """All moves whose leftmost anchor is ``anchor`` (an explicit-stack GADDAG walk).

    A frame chooses the tile for one square from an arc list: the board's tile
    on an occupied square, else each rack tile (and the blank as each letter)
    allowed by the square's cross-check. After a choice the walk records the
    word when the GADDAG accepts it with free squares at both ends, then
    continues leftwards (never onto the previous anchor) and, across the
    separator, rightwards from the square after the anchor.

    With ``lmin >= 0`` (best-first mode) only moves whose main word covers
    exactly a span ``[l, r]`` with ``spans[l, r] != 0`` are walked and recorded;
    ``maxr[l]`` is the largest allowed ``r`` for a start ``l`` (-1: none) and
    ``lmin`` the smallest allowed ``l``. ``lmin = -1`` means every move.
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
                    letter = np.int64(v >> 24)
                    ok = letter != 0 and ((mask >> letter) & 1) != 0
                    if ph == 0:
                        ph = 1
                        if ok and rack[letter] > 0:
                            a = cur
                            break
                    ph = 0
                    here = cur
                    if v & IS_END:
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
        child = np.int64(v & ARC_MASK)
        accepts = (v & ACCEPTS) != 0
        if col <= anchor:
            no_left = col == 0 or info[I_TILE, col - 1] == 0
            if accepts and no_left and tp > 0 and (lmin < 0 or spans[col, anchor] != 0):
                score = main * wmul + cross
                if tp == bingo_tiles:
                    score += bingo_bonus
                _record(info, placed, out, cnt, col, anchor, tp, score, line, direction, direction == 1)
            if child != 0:
                if no_left and anchor < N - 1 and (lmin < 0 or maxr[col] > anchor):
                    s = _child_arc(kwg, child, 0)
                    if s >= 0:
                        sp = _push(stack, sp, anchor + 1, np.int64(kwg[s] & ARC_MASK), tp, main, wmul, cross, col)
                if col > 0 and col - 1 != last_anchor and col > lmin:
                    sp = _push(stack, sp, col - 1, child, tp, main, wmul, cross, col)
        else:
            no_right = col == N - 1 or info[I_TILE, col + 1] == 0
            if accepts and no_right and tp > 0 and (lmin < 0 or spans[stack[f, F_LEFT], col] != 0):
                score = main * wmul + cross
                if tp == bingo_tiles:
                    score += bingo_bonus
                _record(info, placed, out, cnt, stack[f, F_LEFT], col, tp, score, line, direction, direction == 1)
            if child != 0 and col < N - 1 and (lmin < 0 or maxr[stack[f, F_LEFT]] > col):
                sp = _push(stack, sp, col + 1, child, tp, main, wmul, cross, stack[f, F_LEFT])


@njit(cache=True)
def _gen_lines(kwg, tiles, tvals, cs, xs, hx, lm, wm, rack, vals, out, cnt, params, empty_board):
    """Generate all moves of one direction (params[2]) line by line."""
    info = np.zeros((7, N), dtype=np.int64)
    placed = np.zeros(N, dtype=np.int64)
    stack = np.zeros((STACK, F_WIDTH), dtype=np.int64)
    groot = np.int64(kwg[1] & ARC_MASK)
    no_spans = np.zeros((1, 1), dtype=np.uint8)
    no_maxr = np.zeros(1, dtype=np.int64)
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
                _gen_anchor(kwg, info, rack, vals, placed, out, cnt, params, stack, c, last_anchor, groot, line,
                            no_spans, no_maxr, -1)
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
@njit(cache=True)
def _anchor_spans(tiles, tvals, cs, xs, hx, lm, wm, line, anchor, last_anchor, rack_vals, n_rack,
                  rack_mask, has_blank, bingo_tiles, bingo_bonus, lvmax, span_bound, span_l, span_r, ns):
    """Append every span an anchor's moves may cover, with an upper bound on their scores.

    A span ``[l, r]`` is the extent of a main word: it contains the anchor,
    starts after the previous anchor, has empty squares (or the edge) on both
    sides, holds 1..n_rack empty squares, and every empty square's
    cross-check admits some rack tile. Its bound (the "shadow" of wolges and
    Macondo, here per span) pairs the rack's highest tile values with the
    span's highest square coefficients (rearrangement inequality): a new tile
    on square s is worth ``lm_s * W`` in the main word (W = product of the
    span's open word multipliers) plus ``lm_s * wm_s`` in its cross-word, if
    any. Played-through tiles, cross-word tiles and the bingo bonus are exact.

    ``rack_vals`` holds the rack's tile values sorted in descending order (0 for blanks).
    ``lvmax[k]`` is the largest value the ranking adds for any leave after
    playing ``k`` tiles (0 when ranking by score; the best leave value when
    ranking by equity); it is added to the span's bound.

    Returns:
        the new number of spans ``ns`` (entries written to span_bound/l/r).
    """
    coef = np.zeros(8, dtype=np.int64)
    sq_lm = np.zeros(8, dtype=np.int64)
    sq_x = np.zeros(8, dtype=np.int64)
    lo = last_anchor + 1
    for l in range(anchor, max(lo, 0) - 1, -1):
        if l > 0 and tiles[line, l - 1] != 0:
            if l - 1 >= lo:
                continue  # the word would extend further left
            break
        k = 0
        wmul = 1
        fixed = 0
        cross_fixed = 0
        blocked = False
        for c in range(l, N):
            if tiles[line, c] == 0:
                if not has_blank and (cs[line, c] & rack_mask) == 0:
                    blocked = True
                    break
                if k == n_rack:
                    break
                sq_lm[k] = lm[line, c]
                sq_x[k] = lm[line, c] * wm[line, c] if hx[line, c] else 0
                k += 1
                wmul *= wm[line, c]
                if hx[line, c]:
                    cross_fixed += xs[line, c] * wm[line, c]
            else:
                fixed += tvals[line, c]
            if c < anchor or c == l or (c < N - 1 and tiles[line, c + 1] != 0) or k == 0:
                continue
            # coefficients of the span's empty squares, sorted descending (insertion sort, k <= 7)
            for m in range(k):
                v = sq_lm[m] * wmul + sq_x[m]
                q = m
                while q > 0 and coef[q - 1] < v:
                    coef[q] = coef[q - 1]
                    q -= 1
                coef[q] = v
            total = fixed * wmul + cross_fixed
            for q in range(k):
                total += coef[q] * rack_vals[q]
            if k == bingo_tiles:
                total += bingo_bonus
            span_bound[ns] = total + lvmax[k]
            span_l[ns] = l
            span_r[ns] = c
            ns += 1
        if blocked and k == 0 and l < anchor:
            pass
    return ns


@njit(cache=True)
def _anchor_coarse_bound(tiles, tvals, cs, xs, hx, lm, wm, line, anchor, last_anchor, rack_vals, n_rack,
                         rack_mask, has_blank, bingo_tiles, bingo_bonus, lvmax_all):
    """A cheap bound at least as large as every span bound of the anchor.

    Takes the whole region the anchor's spans can reach (up to ``n_rack``
    empty squares each side, not past the previous anchor or a square no rack
    tile fits) with all its word multipliers, tiles and cross-words at once.
    """
    lo = max(last_anchor + 1, 0)
    left = anchor
    k = 1 if tiles[line, anchor] == 0 else 0
    if k and not has_blank and (cs[line, anchor] & rack_mask) == 0:
        return -1e18
    while left > lo:
        c = left - 1
        if tiles[line, c] == 0:
            if k >= n_rack or (not has_blank and (cs[line, c] & rack_mask) == 0):
                break
            k += 1
        left = c
    right = anchor
    k = 1 if tiles[line, anchor] == 0 else 0
    while right < N - 1:
        c = right + 1
        if tiles[line, c] == 0:
            if k >= n_rack or (not has_blank and (cs[line, c] & rack_mask) == 0):
                break
            k += 1
        right = c
    coef = np.zeros(2 * N, dtype=np.int64)
    wmul = 1
    fixed = 0
    cross_fixed = 0
    m = 0
    for c in range(left, right + 1):
        if tiles[line, c] == 0:
            wmul *= wm[line, c]
            m += 1
            if hx[line, c]:
                cross_fixed += xs[line, c] * wm[line, c]
        else:
            fixed += tvals[line, c]
    if m == 0:
        return -1e18
    q = 0
    for c in range(left, right + 1):
        if tiles[line, c] == 0:
            v = lm[line, c] * wmul
            if hx[line, c]:
                v += lm[line, c] * wm[line, c]
            j = q
            while j > 0 and coef[j - 1] < v:
                coef[j] = coef[j - 1]
                j -= 1
            coef[j] = v
            q += 1
    total = fixed * wmul + cross_fixed
    for j in range(min(m, n_rack)):
        total += coef[j] * rack_vals[j]
    if m >= bingo_tiles and n_rack >= bingo_tiles:
        total += bingo_bonus
    return total + lvmax_all


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
                  n_best, out, cnt):
    """:func:`generate_best_checked` computing the cross-checks first."""
    cs, xs, hx = all_cross_checks(kwg, tiles, tvals, all_mask)
    return generate_best_checked(kwg, tiles, tvals, lm, wm, rack, vals, bingo_tiles, bingo_bonus, cs, xs, hx,
                                 radix, lv, lvmax, n_best, out, cnt)


@njit(cache=True)
def generate_best_checked(kwg, tiles, tvals, lm, wm, rack, vals, bingo_tiles, bingo_bonus, cs, xs, hx,
                          radix, lv, lvmax, n_best, out, cnt):
    """Moves of the spans that can still hold one of the ``n_best`` top-ranked moves.

    The ranking is score plus a value that depends only on which rack tiles a
    move uses (the leave): ``lv[sum(radix[t] for each used tile t)]``, with
    ``radix`` a mixed-radix numbering of the sub-multisets of the rack (blank
    = index 0) and ``lvmax[k]`` the largest ``lv`` over moves of ``k`` tiles.
    Pass zeros (``lv`` of length 1) to rank by score alone, or leave values
    to rank by equity (score + leave value).

    Anchors wait in a max-heap keyed by an upper bound on their moves' rank:
    first a cheap bound over the whole region the anchor reaches
    (:func:`_anchor_coarse_bound`); when an anchor comes to the top it gets the
    exact per-span bounds (:func:`_anchor_spans`) and goes back with the best
    of them; when it comes to the top again it is walked once, restricted to
    the spans whose bound still reaches the ``n_best``-th best found so far.
    The search stops when the top bound is below that. Every move ranking at
    least that high is in ``out`` (ties included), so the caller's top
    ``n_best`` equal those of the full list. Other arguments as
    :func:`generate_checked`.

    Returns:
        number of anchors walked (for statistics).
    """
    empty_board = _is_empty(tiles)
    params = _params(rack, bingo_tiles, bingo_bonus)
    cnt[0] = 0
    rack_vals = np.zeros(8, dtype=np.int64)
    nv = 0
    rack_mask = np.uint32(0)
    for t in range(rack.shape[0]):
        for _ in range(rack[t]):
            v = vals[t] if t != 0 else 0
            j = nv
            while j > 0 and rack_vals[j - 1] < v:
                rack_vals[j] = rack_vals[j - 1]
                j -= 1
            rack_vals[j] = v
            nv += 1
        if t != 0 and rack[t] > 0:
            rack_mask |= np.uint32(1) << np.uint32(t)
    has_blank = rack[0] > 0
    if nv == 0:
        return 0
    lvmax_all = lvmax[1]
    for k in range(2, nv + 1):
        lvmax_all = max(lvmax_all, lvmax[k])
    boards = (tiles, tiles.T.copy())
    vboards = (tvals, tvals.T.copy())
    lms = (lm, lm.T.copy())
    wms = (wm, wm.T.copy())
    # anchors: (direction, line, col, last_anchor, refined); heap of (bound, anchor)
    an = np.zeros((2 * N * N, 7), dtype=np.int64)  # ..., refined, first span, span count
    hb = np.zeros(2 * N * N, dtype=np.float64)
    hi = np.zeros(2 * N * N, dtype=np.int64)
    nh = 0
    na = 0
    mirror = _mirror_opening(tiles, lm, wm)
    for d in range(1 if mirror else 2):
        T = boards[d]
        HX = hx[d]
        for line in range(N):
            if empty_board and line != N // 2:
                continue
            last_anchor = -2
            for c in range(N):
                if empty_board:
                    is_anchor = c == N // 2
                elif T[line, c] != 0:
                    is_anchor = c == N - 1 or T[line, c + 1] == 0
                else:
                    is_anchor = (HX[line, c] != 0 and (c == 0 or T[line, c - 1] == 0)
                                 and (c == N - 1 or T[line, c + 1] == 0))
                if is_anchor:
                    an[na, 0] = d
                    an[na, 1] = line
                    an[na, 2] = c
                    an[na, 3] = last_anchor
                    b = _anchor_coarse_bound(T, vboards[d], cs[d], xs[d], HX, lms[d], wms[d], line, c, last_anchor,
                                             rack_vals, nv, rack_mask, has_blank, bingo_tiles, bingo_bonus,
                                             lvmax_all)
                    if b > -1e17:
                        nh = _heap_push(hb, hi, nh, b, na)
                    na += 1
                    last_anchor = c
    cap = 4 * N * N
    sb = np.zeros(cap, dtype=np.float64)
    sl = np.zeros(cap, dtype=np.int64)
    sr = np.zeros(cap, dtype=np.int64)
    ns = 0
    spans = np.zeros((N, N), dtype=np.uint8)
    maxr = np.full(N, -1, dtype=np.int64)
    info = np.zeros((7, N), dtype=np.int64)
    placed = np.zeros(N, dtype=np.int64)
    stack = np.zeros((STACK, F_WIDTH), dtype=np.int64)
    groot = np.int64(kwg[1] & ARC_MASK)
    top = np.full(n_best, -1e18)  # ascending: top[0] is the n-th best so far
    walked = 0
    seen = 0
    while nh > 0:
        bound = hb[0]
        ai = hi[0]
        if bound < top[0]:
            break
        nh = _heap_pop(hb, hi, nh)
        d = an[ai, 0]
        line = an[ai, 1]
        if an[ai, 4] == 0:
            # refine: exact per-span bounds, back into the heap with the best of them
            an[ai, 4] = 1
            if ns + N * N > cap:
                cap = 2 * cap + N * N
                sb2 = np.zeros(cap, dtype=np.float64)
                sl2 = np.zeros(cap, dtype=np.int64)
                sr2 = np.zeros(cap, dtype=np.int64)
                sb2[:ns] = sb[:ns]
                sl2[:ns] = sl[:ns]
                sr2[:ns] = sr[:ns]
                sb, sl, sr = sb2, sl2, sr2
            first = ns
            ns = _anchor_spans(boards[d], vboards[d], cs[d], xs[d], hx[d], lms[d], wms[d], line, an[ai, 2],
                               an[ai, 3], rack_vals, nv, rack_mask, has_blank, bingo_tiles, bingo_bonus,
                               lvmax, sb, sl, sr, ns)
            an[ai, 5] = first
            an[ai, 6] = ns - first
            best = -1e18
            for i in range(first, ns):
                if sb[i] > best:
                    best = sb[i]
            if ns > first and best >= top[0]:
                nh = _heap_push(hb, hi, nh, best, ai)
            continue
        # walk once, restricted to the anchor's spans that can still reach the top n
        T = boards[d]
        V = vboards[d]
        CS = cs[d]
        XS = xs[d]
        HX = hx[d]
        LM = lms[d]
        WM = wms[d]
        for c in range(N):  # as in _gen_lines (written out: faster than a helper call)
            info[I_TILE, c] = T[line, c]
            info[I_VAL, c] = V[line, c]
            info[I_CS, c] = CS[line, c]
            info[I_XS, c] = XS[line, c]
            info[I_HX, c] = HX[line, c]
            info[I_LM, c] = LM[line, c]
            info[I_WM, c] = WM[line, c]
            maxr[c] = -1
        spans[:, :] = 0
        lmin = N
        for i in range(an[ai, 5], an[ai, 5] + an[ai, 6]):
            if sb[i] >= top[0]:
                spans[sl[i], sr[i]] = 1
                if sr[i] > maxr[sl[i]]:
                    maxr[sl[i]] = sr[i]
                if sl[i] < lmin:
                    lmin = sl[i]
        params[2] = d
        _gen_anchor(kwg, info, rack, vals, placed, out, cnt, params, stack, an[ai, 2], an[ai, 3], groot, line,
                    spans, maxr, lmin)
        walked += 1
        stop = min(cnt[0], out.shape[0])
        for i in range(seen, stop):
            u = 0
            for j in range(out[i, OUT_LEN]):
                t = out[i, OUT_TILES + j]
                if t != 0:
                    u += radix[0] if t & BLANK_FLAG else radix[t]
            s = out[i, OUT_SCORE] + lv[u]
            if s > top[0]:
                j = 0
                while j + 1 < n_best and top[j + 1] < s:
                    top[j] = top[j + 1]
                    j += 1
                top[j] = s
        seen = stop
    if mirror:
        _add_transposed(out, cnt)
    return walked
