"""The all-moves kernel: every legal placement of a rack in one Numba call.

:func:`movegen_all` is what :func:`engine.movegen.generator.generate_moves` calls. It
produces exactly the rows of :func:`engine.movegen._movegen.generate_checked` (same
moves, same scores, same order; the layout is in :mod:`engine.position._rows`) with
the same algorithm: Gordon's GADDAG walk (Gordon 1994, "A faster Scrabble move
generation algorithm") from the anchors of each line, over cross-checks
(Appel & Jacobson 1988). It is written for the cost of one call rather than
shared with the best-first and endgame paths:

* one function, no call with array arguments inside the walk: a non-inlined
  Numba call takes and releases a reference to each array argument (two
  atomic operations each), which per recorded move cost more than the
  recording itself;
* the rack count, the set of letters left and the move count are locals,
  not array cells, so the compiler keeps them in registers;
* tiles already on the board are followed in place (no stack frame for an
  occupied square): only empty squares get frames, and only when their arc
  list holds an arc some rack tile can take (about half of the frames found
  none); the frame starts at that arc;
* an arc list is scanned against one mask, the square's cross-check
  restricted to the letters the rack still holds (all of them with a blank);
* the tiles the walk placed are a row of the per-line square table and the
  walk's indices are unsigned: fewer arrays live in the loop and no
  negative-index wraparound code (measured 5 % and 2.5 %);
* the cross-checks of both directions are computed from the board's lines
  without transposed copies, only for empty squares next to a perpendicular
  tile;
* on an empty board with a layout symmetric about the diagonal only the
  across moves through the centre are generated; the down moves are their
  transposed copies (same scores).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from lexicon_tools import _numba_cache

_numba_cache.drop_stale_cache(__file__)  # callee kernels changed -> recompile

from lexicon_tools._kwg_nodes import node_accepts, node_arc, node_is_end, node_tile  # uint32 KWG or uint64 wide

from engine.position._rows import BLANK_FLAG, N, OUT_COL, OUT_DIR, OUT_LEN, OUT_NTILES, OUT_ROW, OUT_SCORE, OUT_TILES, OUT_WIDTH

# rows of the per-line square table
T_TILE, T_VAL, T_CS, T_XS, T_HX, T_LM, T_WM = 0, 1, 2, 3, 4, 5, 6
T_PL = 7  # the tile this walk placed on the square (letter | BLANK_FLAG), 0 for none
T_ROWS = 8
# fields of a stack frame (one per empty square being filled): the square, the arc being
# tried and its phase (0: the letter's own tile, 1: a blank), and the move's state before it
S_COL, S_CUR, S_PH, S_TP, S_MAIN, S_WMUL, S_CROSS, S_LEFT = 0, 1, 2, 3, 4, 5, 6, 7
S_WIDTH = 8
STACK = 64
C_ALL_MASK, C_BINGO_TILES, C_BINGO_BONUS = 0, 1, 2


@njit(cache=True)
def line_tables(tiles, blanks, vals):
    """The board's lines per direction: ``(lt, lv, busy, empty)``.

    ``lt[0]`` the rows, ``lt[1]`` the columns (int64 (2, 15, 15) tile codes), ``lv`` the same for
    the tiles' points (0 for blanks and empty squares), ``busy`` int64 (2, 15) the tiles on each
    line, ``empty`` True for an empty board.
    """
    lt = np.empty((2, N, N), dtype=np.int64)
    lv = np.empty((2, N, N), dtype=np.int64)
    busy = np.zeros((2, N), dtype=np.int64)  # tiles on each line
    empty = True
    for r in range(N):
        for c in range(N):
            t = np.int64(tiles[r, c])
            v = np.int64(0)
            if t != 0:
                empty = False
                if not blanks[r, c]:
                    v = vals[t]
                busy[0, r] += 1
                busy[1, c] += 1
            lt[0, r, c] = t
            lt[1, c, r] = t
            lv[0, r, c] = v
            lv[1, c, r] = v
    return lt, lv, busy, empty


@njit(cache=True)
def cross_checks_lines(kwg, lt, lv, busy, all_mask, cs, xs, hx):
    """Cross-checks, cross-scores and cross-word flags of both directions into ``cs, xs, hx``
    (uint32 / int32 / uint8 (2, 15, 15), layout as :func:`movegen_all`) from :func:`line_tables`.

    Computed from the board's lines without transposed copies, only for empty squares next to
    a perpendicular tile (Appel & Jacobson 1988: the letters that make the perpendicular run a
    word, and the run's points).
    """
    kroot = node_arc(kwg[0])
    groot = node_arc(kwg[1])
    # the arcs of the two roots by letter (0: none), so a word's first step is one look-up
    rootarc = np.zeros((2, 64), dtype=np.int64)
    for r in range(2):
        q = kroot if r == 0 else groot
        while q != 0:
            w = kwg[q]
            rootarc[r, np.int64(node_tile(w)) & 63] = q
            if node_is_end(w):
                break
            q += 1
    # moves of direction d cross the lines of direction 1 - d: the check of square
    # (line i, position k) in direction d comes from perpendicular line k at position i
    for d in range(2):
        for k in range(N):
            pl = 1 - d
            if busy[pl, k] == 0:
                for i in range(N):
                    cs[d, i, k] = all_mask
                    xs[d, i, k] = 0
                    hx[d, i, k] = 0
                continue
            for i in range(N):
                if lt[pl, k, i] != 0:
                    cs[d, i, k] = 0
                    xs[d, i, k] = 0
                    hx[d, i, k] = 0
                    continue
                up = i > 0 and lt[pl, k, i - 1] != 0
                down = i < N - 1 and lt[pl, k, i + 1] != 0
                if not up and not down:
                    cs[d, i, k] = all_mask
                    xs[d, i, k] = 0
                    hx[d, i, k] = 0
                    continue
                top = i
                while top > 0 and lt[pl, k, top - 1] != 0:
                    top -= 1
                bot = i
                while bot < N - 1 and lt[pl, k, bot + 1] != 0:
                    bot += 1
                s = np.int64(0)
                for j in range(top, bot + 1):
                    s += lv[pl, k, j]  # lv is 0 on the empty square i
                xs[d, i, k] = s
                hx[d, i, k] = 1
                mask = np.int64(0)
                if not up:
                    # tiles after i only: the GADDAG holds reverse(L + after) = reverse(after) + L,
                    # so walk the tiles from the far end back and read the accepting arcs
                    q = rootarc[1, lt[pl, k, bot]]
                    p = node_arc(kwg[q]) if q != 0 else np.int64(0)
                    for j in range(bot - 1, i, -1):
                        t = lt[pl, k, j]
                        q = p
                        if q != 0:
                            while True:
                                w = kwg[q]
                                if np.int64(node_tile(w)) == t:
                                    break
                                if node_is_end(w):
                                    q = 0
                                    break
                                q += 1
                        if q == 0:
                            p = 0
                            break
                        p = node_arc(kwg[q])
                    q = p
                    while q != 0:
                        w = kwg[q]
                        if node_accepts(w):
                            mask |= np.int64(1) << np.int64(node_tile(w))
                        if node_is_end(w):
                            break
                        q += 1
                else:
                    # tiles before i: walk them in the DAWG, then each letter and the tiles after
                    q = rootarc[0, lt[pl, k, top]]
                    p = node_arc(kwg[q]) if q != 0 else np.int64(0)
                    for j in range(top + 1, i):
                        t = lt[pl, k, j]
                        q = p
                        if q != 0:
                            while True:
                                w = kwg[q]
                                if np.int64(node_tile(w)) == t:
                                    break
                                if node_is_end(w):
                                    q = 0
                                    break
                                q += 1
                        if q == 0:
                            p = 0
                            break
                        p = node_arc(kwg[q])
                    q = p
                    while q != 0:
                        w = kwg[q]
                        if not down:
                            if node_accepts(w):
                                mask |= np.int64(1) << np.int64(node_tile(w))
                        else:
                            p2 = node_arc(w)
                            acc = False
                            for j in range(i + 1, bot + 1):
                                t = lt[pl, k, j]
                                q2 = p2
                                if q2 != 0:
                                    while True:
                                        w2 = kwg[q2]
                                        if np.int64(node_tile(w2)) == t:
                                            break
                                        if node_is_end(w2):
                                            q2 = 0
                                            break
                                        q2 += 1
                                if q2 == 0:
                                    acc = False
                                    break
                                acc = node_accepts(kwg[q2]) != 0
                                p2 = node_arc(kwg[q2])
                            if acc:
                                mask |= np.int64(1) << np.int64(node_tile(w))
                        if node_is_end(w):
                            break
                        q += 1
                cs[d, i, k] = mask & all_mask


@njit(cache=True)
def movegen_all(kwg, tiles, blanks, lmult, wmult, vals, consts, rack_in, cs, xs, hx, have_checks, out):
    """Every legal placement in one call: board arrays in, output rows out.

    Args:
        kwg: uint32 (n,) KWG or uint64 (n,) wide node array (DAWG root at node 0, GADDAG root at
            node 1; validated).
        tiles: uint8 (15, 15) tile codes, 0 = empty; blanks: bool (15, 15).
        lmult, wmult: uint8 (15, 15) premium layout (letter, word multipliers).
        vals: int64 (n_letters + 1,) points per tile code (0 = blank).
        consts: int64 (3,) ``[all_mask, bingo_tiles, bingo_bonus]``.
        rack_in: integer (n_letters + 1,) rack counts (not modified).
        cs, xs, hx: uint32 / int32 / uint8 (2, 15, 15) cross-checks, cross-scores and
            cross-word flags, ``[0]`` for across moves in board coordinates, ``[1]`` for
            down moves in transposed coordinates; read when ``have_checks``, else
            overwritten with the board's.
        out: int32 (capacity, OUT_WIDTH) output rows.

    Returns:
        the number of moves; when larger than ``out``'s capacity only the first
        rows were written (call again with a larger ``out``).
    """
    all_mask = np.int64(consts[C_ALL_MASK])
    bingo_tiles = np.int64(consts[C_BINGO_TILES])
    bingo_bonus = np.int64(consts[C_BINGO_BONUS])
    nr = rack_in.shape[0]
    rack = np.empty(nr, dtype=np.int64)
    total = np.int64(0)
    lmask = np.int64(0)  # letters (bit per code) the rack holds, blanks excluded
    for i in range(nr):
        k = np.int64(rack_in[i])
        rack[i] = k
        total += k
        if i > 0 and k > 0:
            lmask |= np.int64(1) << i
    lt, lv, busy, empty = line_tables(tiles, blanks, vals)
    groot = node_arc(kwg[1])
    if not have_checks:
        cross_checks_lines(kwg, lt, lv, busy, all_mask, cs, xs, hx)
    mirror = False
    if empty:
        mirror = True
        for r in range(N):
            for c in range(r + 1, N):
                if lmult[r, c] != lmult[c, r] or wmult[r, c] != wmult[c, r]:
                    mirror = False
    cap = out.shape[0]
    n = np.int64(0)
    info = np.zeros((T_ROWS, N), dtype=np.int64)
    stack = np.empty((STACK, S_WIDTH), dtype=np.int64)
    for d in range(1 if mirror else 2):
        for line in range(N):
            if empty:
                if line != N // 2:
                    continue
            for c in range(N):
                t = lt[d, line, c]
                if d == 0:
                    r0, c0 = line, c
                else:
                    r0, c0 = c, line
                info[T_TILE, c] = t
                info[T_VAL, c] = lv[d, line, c]
                info[T_CS, c] = np.int64(cs[d, line, c])
                info[T_XS, c] = np.int64(xs[d, line, c])
                info[T_HX, c] = np.int64(hx[d, line, c])
                if t == 0:
                    info[T_LM, c] = np.int64(lmult[r0, c0])
                    info[T_WM, c] = np.int64(wmult[r0, c0])
                else:
                    info[T_LM, c] = 1
                    info[T_WM, c] = 1
            last_anchor = -2
            for anchor in range(N):
                ta = info[T_TILE, anchor]
                if empty:
                    is_anchor = anchor == N // 2
                elif ta != 0:
                    is_anchor = anchor == N - 1 or info[T_TILE, anchor + 1] == 0
                else:
                    is_anchor = (info[T_HX, anchor] != 0 and (anchor == 0 or info[T_TILE, anchor - 1] == 0)
                                 and (anchor == N - 1 or info[T_TILE, anchor + 1] == 0))
                if not is_anchor:
                    continue
                la = last_anchor
                last_anchor = anchor
                # skip an anchor when no rack tile fits a square its moves must use
                fit = np.int64(0) if total == 0 else (np.int64(-1) if rack[0] > 0 else lmask)
                if ta == 0:
                    open_ = (info[T_CS, anchor] & fit) != 0
                else:
                    open_ = anchor < N - 1 and (info[T_CS, anchor + 1] & fit) != 0
                    if not open_:
                        l0 = anchor
                        while l0 > 0 and info[T_TILE, l0 - 1] != 0:
                            l0 -= 1
                        open_ = l0 > 0 and l0 - 1 != la and (info[T_CS, l0 - 1] & fit) != 0
                if not open_:
                    continue
                # ---- the walk of this anchor: an explicit stack of frames for empty squares;
                # a pending state (col, arc a and the move so far) is advanced in place
                sp = 0
                have = False
                col = anchor
                a = np.int64(-1)
                tp = np.int64(0)
                main = np.int64(0)
                wmul = np.int64(1)
                cross = np.int64(0)
                left = anchor
                if ta != 0:
                    q = groot
                    while True:
                        w = kwg[np.uint64(q)]
                        if np.int64(node_tile(w)) == ta:
                            a = q
                            break
                        if node_is_end(w):
                            break
                        q += 1
                    if a >= 0:
                        main = info[T_VAL, np.uint64(anchor)]
                        have = True
                else:
                    # the first arc some rack tile can take (the anchor is open, so one may exist)
                    avail = info[T_CS, np.uint64(anchor)] & fit
                    q = groot
                    while True:
                        w = kwg[np.uint64(q)]
                        if (avail >> np.int64(node_tile(w))) & 1:
                            break
                        if node_is_end(w):
                            q = -1
                            break
                        q += 1
                    stack[0, S_COL] = anchor
                    stack[0, S_CUR] = q
                    stack[0, S_PH] = 0
                    stack[0, S_TP] = 0
                    stack[0, S_MAIN] = 0
                    stack[0, S_WMUL] = 1
                    stack[0, S_CROSS] = 0
                    stack[0, S_LEFT] = anchor
                    sp = 1
                while have or sp > 0:
                    if not have:
                        f = sp - 1
                        col = stack[np.uint64(f), S_COL]
                        pt = info[T_PL, np.uint64(col)]
                        if pt != 0:  # take back the tile this frame placed last
                            if pt & BLANK_FLAG:
                                rack[0] += 1
                            else:
                                rack[np.uint64(pt)] += 1
                                lmask |= np.int64(1) << pt
                            info[T_PL, np.uint64(col)] = 0
                        cur = stack[np.uint64(f), S_CUR]
                        ph = stack[np.uint64(f), S_PH]
                        nb = rack[0] > 0
                        avail = info[T_CS, np.uint64(col)] if nb else info[T_CS, np.uint64(col)] & lmask
                        a = -1
                        blank = False
                        letter = np.int64(0)
                        while cur >= 0:
                            w = kwg[np.uint64(cur)]
                            letter = np.int64(node_tile(w))
                            nxt = np.int64(-1) if node_is_end(w) else cur + 1
                            if (avail >> letter) & 1:
                                if ph == 0 and rack[np.uint64(letter)] > 0:
                                    ph = 1
                                    a = cur
                                    break
                                if nb:
                                    ph = 0
                                    a = cur
                                    blank = True
                                    cur = nxt
                                    break
                            ph = 0
                            cur = nxt
                        if a < 0:
                            sp -= 1
                            continue
                        stack[np.uint64(f), S_CUR] = cur
                        stack[np.uint64(f), S_PH] = ph
                        wm = info[T_WM, np.uint64(col)]
                        if blank:
                            rack[0] -= 1
                            info[T_PL, np.uint64(col)] = letter | BLANK_FLAG
                            ls = np.int64(0)
                        else:
                            rack[np.uint64(letter)] -= 1
                            if rack[np.uint64(letter)] == 0:
                                lmask &= ~(np.int64(1) << letter)
                            info[T_PL, np.uint64(col)] = letter
                            ls = vals[np.uint64(letter)] * info[T_LM, np.uint64(col)]
                        tp = stack[np.uint64(f), S_TP] + 1
                        main = stack[np.uint64(f), S_MAIN] + ls
                        wmul = stack[np.uint64(f), S_WMUL] * wm
                        cross = stack[np.uint64(f), S_CROSS]
                        if info[T_HX, np.uint64(col)] != 0:
                            cross += (info[T_XS, np.uint64(col)] + ls) * wm
                        left = stack[np.uint64(f), S_LEFT]
                    have = False
                    w = kwg[np.uint64(a)]
                    child = node_arc(w)
                    accepts = node_accepts(w) != 0
                    # letters some rack tile can still be: a square whose cross-check holds none
                    # of them is never pushed (it would only be popped again)
                    fit = np.int64(0) if tp == total else (np.int64(-1) if rack[0] > 0 else lmask)
                    if col <= anchor:
                        no_left = col == 0 or info[T_TILE, np.uint64(col - 1)] == 0
                        rec_l = col
                        rec_r = anchor
                        rec = accepts and no_left and tp > 0
                    else:
                        no_right = col == N - 1 or info[T_TILE, np.uint64(col + 1)] == 0
                        rec_l = left
                        rec_r = col
                        rec = accepts and no_right and tp > 0
                    if rec and d == 1 and tp == 1:
                        # a one-tile move that forms an across word was listed in the across pass
                        for c in range(rec_l, rec_r + 1):
                            if info[T_PL, np.uint64(c)] != 0 and info[T_HX, np.uint64(c)] != 0:
                                rec = False
                    if rec:
                        if n < cap:
                            score = main * wmul + cross
                            if tp == bingo_tiles:
                                score += bingo_bonus
                            out[np.uint64(n), OUT_SCORE] = score
                            if d == 0:
                                out[np.uint64(n), OUT_ROW] = line
                                out[np.uint64(n), OUT_COL] = rec_l
                            else:
                                out[np.uint64(n), OUT_ROW] = rec_l
                                out[np.uint64(n), OUT_COL] = line
                            out[np.uint64(n), OUT_DIR] = d
                            out[np.uint64(n), OUT_LEN] = rec_r - rec_l + 1
                            out[np.uint64(n), OUT_NTILES] = tp
                            for c in range(rec_l, rec_r + 1):
                                out[np.uint64(n), OUT_TILES + c - rec_l] = info[T_PL, np.uint64(c)]
                            for j in range(rec_r - rec_l + 1, N):
                                out[np.uint64(n), OUT_TILES + j] = 0
                        n += 1
                    if child == 0:
                        continue
                    if col <= anchor:
                        avail = info[T_CS, np.uint64(anchor + 1)] & fit if anchor < N - 1 else np.int64(0)
                        if no_left and avail != 0 and node_tile(kwg[np.uint64(child)]) == 0:
                            # cross the separator (the first arc of a list, if any) and continue
                            # rightwards after the anchor, from the first arc a rack tile can take
                            q = node_arc(kwg[np.uint64(child)])
                            if q != 0:
                                while True:
                                    w = kwg[np.uint64(q)]
                                    if (avail >> np.int64(node_tile(w))) & 1:
                                        break
                                    if node_is_end(w):
                                        q = 0
                                        break
                                    q += 1
                            if q != 0:
                                stack[np.uint64(sp), S_COL] = anchor + 1
                                stack[np.uint64(sp), S_CUR] = q
                                stack[np.uint64(sp), S_PH] = 0
                                stack[np.uint64(sp), S_TP] = tp
                                stack[np.uint64(sp), S_MAIN] = main
                                stack[np.uint64(sp), S_WMUL] = wmul
                                stack[np.uint64(sp), S_CROSS] = cross
                                stack[np.uint64(sp), S_LEFT] = col
                                sp += 1
                        if col > 0 and col - 1 != la:
                            t = info[T_TILE, np.uint64(col - 1)]
                            if t != 0:
                                q = child
                                while True:
                                    w = kwg[np.uint64(q)]
                                    if np.int64(node_tile(w)) == t:
                                        col -= 1
                                        a = q
                                        main += info[T_VAL, np.uint64(col)]
                                        have = True
                                        break
                                    if node_is_end(w):
                                        break
                                    q += 1
                            else:
                                avail = info[T_CS, np.uint64(col - 1)] & fit
                                q = child
                                if avail != 0:
                                    while True:
                                        w = kwg[np.uint64(q)]
                                        if (avail >> np.int64(node_tile(w))) & 1:
                                            break
                                        if node_is_end(w):
                                            q = 0
                                            break
                                        q += 1
                                else:
                                    q = 0
                                if q != 0:
                                    stack[np.uint64(sp), S_COL] = col - 1
                                    stack[np.uint64(sp), S_CUR] = q
                                    stack[np.uint64(sp), S_PH] = 0
                                    stack[np.uint64(sp), S_TP] = tp
                                    stack[np.uint64(sp), S_MAIN] = main
                                    stack[np.uint64(sp), S_WMUL] = wmul
                                    stack[np.uint64(sp), S_CROSS] = cross
                                    stack[np.uint64(sp), S_LEFT] = col - 1
                                    sp += 1
                    elif col < N - 1:
                        t = info[T_TILE, np.uint64(col + 1)]
                        if t != 0:
                            q = child
                            while True:
                                w = kwg[np.uint64(q)]
                                if np.int64(node_tile(w)) == t:
                                    col += 1
                                    a = q
                                    main += info[T_VAL, np.uint64(col)]
                                    have = True
                                    break
                                if node_is_end(w):
                                    break
                                q += 1
                        else:
                            avail = info[T_CS, np.uint64(col + 1)] & fit
                            q = child
                            if avail != 0:
                                while True:
                                    w = kwg[np.uint64(q)]
                                    if (avail >> np.int64(node_tile(w))) & 1:
                                        break
                                    if node_is_end(w):
                                        q = 0
                                        break
                                    q += 1
                            else:
                                q = 0
                            if q != 0:
                                stack[np.uint64(sp), S_COL] = col + 1
                                stack[np.uint64(sp), S_CUR] = q
                                stack[np.uint64(sp), S_PH] = 0
                                stack[np.uint64(sp), S_TP] = tp
                                stack[np.uint64(sp), S_MAIN] = main
                                stack[np.uint64(sp), S_WMUL] = wmul
                                stack[np.uint64(sp), S_CROSS] = cross
                                stack[np.uint64(sp), S_LEFT] = left
                                sp += 1
    if mirror:
        # the down moves of a symmetric empty board: the across moves transposed
        if 2 * n <= cap:
            for i in range(n):
                for k in range(OUT_WIDTH):
                    out[n + i, k] = out[i, k]
                out[n + i, OUT_DIR] = 1
                out[n + i, OUT_ROW] = out[i, OUT_COL]
                out[n + i, OUT_COL] = out[i, OUT_ROW]
        n = 2 * n
    return n
