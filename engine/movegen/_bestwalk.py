"""The best-first walk of one anchor: the all-moves walk with the best-first cut-offs.

:func:`walk_anchor_best` is what :func:`engine.movegen._movegen.generate_best_checked` runs
for each anchor it takes from its heap. It walks the GADDAG from the anchor exactly as
the all-moves kernel (:func:`engine.movegen._allmoves.movegen_all`: Gordon 1994, "A
faster Scrabble move generation algorithm"; frames only for empty squares and only when
their arc list holds an arc a rack tile can take, tiles on the board followed in place,
the rack's count and letters as locals, the placed tiles a row of the square table) and
adds the cut-offs of the best-first search (the span bounds of
:func:`engine.movegen._movegen.generate_best_checked`, MAGPIE's "shadow" idea):

* a move covering the span ``[l, r]`` is recorded only while ``spb[l, r]``, the upper
  bound of what a move on that span can rank, reaches ``top[0]``, the ``n``-th best
  rank found so far (the threshold rises as moves are recorded);
* the walk steps left from a partial move starting at ``c`` only while ``pfx[c - 1]``
  (the best bound of the spans starting at or before ``c - 1``) reaches it, and right
  from a partial move starting at ``l`` to square ``c`` only while ``sfx[l, c]`` (the
  best bound of the spans ``[l, r >= c]``) reaches it.

So it records the same moves as the older frame-per-square walk
(:func:`engine.movegen._movegen._gen_anchor` in best-first mode), faster.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from lexicon_tools import _numba_cache

_numba_cache.drop_stale_cache(__file__)  # callee kernels changed -> recompile

from lexicon_tools._kwg_nodes import node_accepts, node_arc, node_is_end, node_tile  # uint32 KWG or uint64 wide

from engine.movegen._allmoves import (S_COL, S_CROSS, S_CUR, S_LEFT, S_MAIN, S_PH, S_TP, S_WMUL, T_CS,
                                      T_HX, T_LM, T_PL, T_ROWS, T_TILE, T_VAL, T_WM, T_XS)
from engine.position._rows import BLANK_FLAG, N, OUT_COL, OUT_DIR, OUT_LEN, OUT_NTILES, OUT_ROW, OUT_SCORE, OUT_TILES

assert T_ROWS == 8 and T_PL == 7


@njit(cache=True, inline="always")
def top_insert(top, s):
    """Put rank ``s`` into ``top`` (ascending, the ``top.shape[0]`` best so far) when it beats ``top[0]``."""
    if s > top[0]:
        j = 0
        while j + 1 < top.shape[0] and top[j + 1] < s:
            top[j] = top[j + 1]
            j += 1
        top[j] = s


@njit(cache=True)
def walk_anchor_best(kwg, info, rack, vals, out, n, stack, anchor, la, groot, line, d, bingo_tiles, bingo_bonus,
                     spb, sfx, pfx, top, radix, lv):
    """Walk the moves whose leftmost anchor is ``anchor``, with the best-first cut-offs.

    Args:
        kwg: uint32 or uint64 KWG node array (GADDAG root arc list at ``groot``).
        info: int64 (8, 15) the line's square table, rows as :mod:`engine.movegen._allmoves`
            (tile, tile value, cross-check, cross-score, cross-word flag, letter and word
            multiplier of open premiums); row ``T_PL`` must be zero (it is zero again on return).
        rack: int64 (n_letters + 1,) counts, index 0 = blanks (restored on return).
        vals: int64 points per tile code.
        out: int32 (capacity, OUT_WIDTH) output rows; ``n`` rows are already in it.
        stack: int64 (STACK, S_WIDTH) scratch.
        anchor, la: the anchor's square and the previous anchor's (the walk never steps onto it).
        line, d: the line and the direction (0 across, 1 down: a one-tile move that forms an
            across word is not recorded, the across pass has it).
        bingo_tiles, bingo_bonus: tiles for the bonus and its points.
        spb: float64 (15, 15) span bounds ``[l, r]``; sfx: float64 (15, 16) ``sfx[l, c]`` the best
            of ``spb[l, r >= c]``; pfx: float64 (15,) ``pfx[c]`` the best bound of the spans starting
            at or before ``c`` (only the entries of this anchor's spans are read).
        top: float64 (n_best,) ascending, the best ranks so far (``top[0]`` the threshold); updated.
        radix, lv: the leave numbering and values (rank = score + ``lv[sum(radix[t])]`` over the
            tiles used; the blank at index 0).

    Returns:
        the new number of moves (may exceed ``out``'s capacity: only the first rows were written).
    """
    cap = out.shape[0]
    total = np.int64(0)
    lmask = np.int64(0)  # letters the rack holds, blanks excluded
    for i in range(rack.shape[0]):
        k = rack[i]
        total += k
        if i > 0 and k > 0:
            lmask |= np.int64(1) << i
    ta = info[T_TILE, anchor]
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
        fit = np.int64(0) if total == 0 else (np.int64(-1) if rack[0] > 0 else lmask)
        avail = info[T_CS, np.uint64(anchor)] & fit
        if avail == 0:
            return n
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
        if rec:
            rec = spb[rec_l, rec_r] >= top[0]
        if rec and d == 1 and tp == 1:
            # a one-tile move that forms an across word was listed in the across pass
            for c in range(rec_l, rec_r + 1):
                if info[T_PL, np.uint64(c)] != 0 and info[T_HX, np.uint64(c)] != 0:
                    rec = False
        if rec:
            score = main * wmul + cross
            if tp == bingo_tiles:
                score += bingo_bonus
            u = np.int64(0)
            for c in range(rec_l, rec_r + 1):
                t = info[T_PL, np.uint64(c)]
                if t != 0:
                    u += radix[0] if t & BLANK_FLAG else radix[np.uint64(t)]
            if n < cap:
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
            top_insert(top, score + lv[u])
        if child == 0:
            continue
        if col <= anchor:
            avail = info[T_CS, np.uint64(anchor + 1)] & fit if anchor < N - 1 else np.int64(0)
            if no_left and avail != 0 and sfx[col, anchor + 1] >= top[0] and node_tile(kwg[np.uint64(child)]) == 0:
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
            if col > 0 and col - 1 != la and pfx[col - 1] >= top[0]:
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
        elif col < N - 1 and sfx[left, col + 1] >= top[0]:
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
    return n
