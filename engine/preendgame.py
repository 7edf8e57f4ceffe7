"""Pre-endgame: 1 to 3 tiles in the bag, every draw enumerated, endgames solved.

For each candidate move (the ``top`` best by static equity):

* **The move empties the bag** (it plays at least as many tiles as the bag
  holds): every multiset ``D`` of bag tiles we can draw, weighted by the
  number of tile-level draws giving it (``prod C(pool[t], D[t])``); the
  opponent holds the rest of the unseen tiles (or the given opponent rack);
  the endgame that follows (opponent to move) is solved by
  :func:`engine.endgame.solve`. Exact, when each solve finishes within its
  share of the time budget.
* **Tiles stay in the bag** (a move of fewer tiles than the bag holds): every
  draw ``D`` for us and every opponent rack ``O`` from the remaining pool,
  weighted alike. *Approximation* (documented): the opponent answers with
  its top-scoring move, draws every possible way from what is left, and if
  that empties the bag the endgame (us to move) is solved; if tiles still
  remain, the line is scored by the two moves' points alone.

A candidate's result: the probability of winning (final spread > 0; a draw
counts half) and the mean final spread, both weighted over the scenarios.
The time budget is split evenly over candidates and then over each
candidate's scenarios; an endgame solve that runs out of its share returns
its deepest completed answer (:func:`engine.endgame.solve` with ``time_limit``).
"""

from __future__ import annotations

import time
from math import comb
from typing import Callable

import numpy as np

from lexicon_tools.bundle import Lexicon

from .board import Board
from .cgp import Position
from .endgame import solve

MAX_BAG = 3
DEFAULT_TIME = 30.0
TT_BITS = 16


def multisets(pool: np.ndarray, size: int):
    """Every sub-multiset of ``pool`` (counts array) with ``size`` tiles and its weight.

    Yields ``(counts, weight)`` with ``weight = prod C(pool[t], counts[t])``,
    the number of ways to draw it tile by tile; the weights sum to ``C(pool.sum(), size)``.
    """
    codes = [int(c) for c in np.nonzero(pool)[0]]
    cur = np.zeros_like(pool)

    def rec(i: int, left: int, w: int):
        if left == 0:
            yield cur.copy(), w
            return
        if i == len(codes):
            return
        c = codes[i]
        for k in range(min(int(pool[c]), left), -1, -1):
            cur[c] = k
            yield from rec(i + 1, left - k, w * comb(int(pool[c]), k))
        cur[c] = 0

    yield from rec(0, size, 1)


def _after(board: Board, move) -> Board:
    b = board.copy()
    a = b.alphabet
    b.place([(r, c, a.code(ch), bl) for r, c, ch, bl in move.tiles])
    return b


def _used(move, alphabet) -> np.ndarray:
    u = np.zeros(alphabet.size + 1, dtype=np.int32)
    for _r, _c, ch, bl in move.tiles:
        u[0 if bl else alphabet.code(ch)] += 1
    return u


def preendgame(pos: Position, lexicon: Lexicon, *, top: int = 8, time_limit: float | None = None,
               endgame_depth: int | None = None, table=None,
               progress: Callable[[int, int, dict], None] | None = None) -> dict:
    """Rank candidate moves of a pre-endgame position by win rate over every draw.

    Args:
        pos: the position (1 to 3 tiles in the bag; the opponent's rack may be unknown).
        lexicon: the word list.
        top: candidates to evaluate, the best by static equity.
        time_limit: seconds for everything (default ``DEFAULT_TIME``).
        endgame_depth: plies per endgame solve (default: to the end, within its time share).
        table: leave table for choosing candidates (default: the packaged one).
        progress: called ``(i, n, candidate dict)`` after each candidate.

    Returns:
        ``{"bag": b, "unseen": "...", "method": "...", "moves": [...]}`` with
        moves best first (by win rate, then mean spread), each
        ``{"move", "win", "spread", "scenarios", "exact"}``; ``spread`` is the
        mean final spread (current scores included), ``exact`` False when an
        approximation or a cut-short solve entered.

    Raises:
        ValueError: the bag does not hold 1 to 3 tiles, the tiles do not fit
            the set, the rack is empty, or a bad ``top``/time limit.
    """
    from .equity import position_candidates
    from .leaves import default_table

    a = pos.alphabet
    if not pos.rack.any():
        raise ValueError("preendgame: the rack to move is empty")
    if top < 1:
        raise ValueError(f"top must be at least 1, got {top}")
    unseen = pos.unseen()
    if (unseen < 0).any():
        c = int(np.nonzero(unseen < 0)[0][0])
        raise ValueError(f"preendgame: more {a.letter(c) if c else 'blank'} tiles on the board and rack than the "
                         f"{a.name.capitalize()} set holds ({int(a.counts[c])})")
    if pos.opponent_rack is not None:
        bag_pool = unseen - pos.opponent_rack
        if (bag_pool < 0).any():
            raise ValueError("preendgame: the opponent's rack holds tiles that are not unseen")
        bag = int(bag_pool.sum())
    else:
        bag = int(unseen.sum()) - a.rack_size
    if "bag" in pos.opcodes and int(pos.opcodes["bag"]) != bag:
        raise ValueError(f"preendgame: opcode bag {pos.opcodes['bag']} but the tiles leave {bag} in the bag")
    if bag <= 0 and pos.game_over():
        raise ValueError(f"preendgame: {pos.game_over()}")
    if bag <= 0:
        raise ValueError("preendgame: the bag is empty (the unseen tiles are the opponent's rack): "
                         "this is an endgame, use `engine endgame`")
    if bag > MAX_BAG:
        raise ValueError(f"preendgame: the bag must hold 1 to {MAX_BAG} tiles, it holds {bag}")
    budget = DEFAULT_TIME if time_limit is None else time_limit
    if budget <= 0:
        raise ValueError(f"time limit must be positive, got {budget}")
    t0 = time.perf_counter()
    cands = [c for c in position_candidates(pos, lexicon, top, table or default_table()) if c.kind == "play"]
    if not cands:
        raise ValueError("preendgame: no placement on the board (only passing is possible)")
    cands = cands[:top]
    spread0 = pos.scores[0] - pos.scores[1]
    known = pos.opponent_rack
    out = []
    approx_any = False
    for ci, cand in enumerate(cands):
        share = (budget - (time.perf_counter() - t0)) / (len(cands) - ci)
        m = cand.move
        k = m.tiles_played
        board = _after(pos.board, m)
        leave = pos.rack - _used(m, a)
        draw_pool = bag_pool if known is not None else unseen
        scen = []  # (weight, kind, data)
        if k >= bag:
            for d, w in multisets(draw_pool, bag):
                opp = known if known is not None else unseen - d
                scen.append((w, leave + d, opp.astype(np.int32), None))
        else:
            for d, w in multisets(draw_pool, k):
                rest = draw_pool - d
                if known is not None:
                    scen.append((w, leave + d, known.astype(np.int32), rest))
                else:
                    for o, w2 in multisets(rest, a.rack_size):
                        scen.append((w * w2, leave + d, o.astype(np.int32), rest - o))
        per = max(share / max(len(scen), 1), 0.005)
        tw = win = spread = 0.0
        exact = True
        for w, mine, opp, rest in scen:
            if rest is None:
                r = solve(Position(board, opp, mine), lexicon, max_depth=endgame_depth, time_limit=per,
                          tt_bits=TT_BITS)
                exact &= r.complete
                outcomes = [(1.0, spread0 + cand.score - r.value)]
            else:
                exact = False
                outcomes = _opponent_reply(board, mine, opp, rest, lexicon, spread0 + cand.score, endgame_depth,
                                           per)
            for p, fin in outcomes:
                tw += w * p
                spread += w * p * fin
                win += w * p * (1.0 if fin > 0 else 0.5 if fin == 0 else 0.0)
        approx_any |= not exact
        res = {"move": m.notation, "win": win / tw, "spread": spread / tw, "scenarios": len(scen), "exact": exact}
        out.append(res)
        if progress is not None:
            progress(ci + 1, len(cands), res)
    out.sort(key=lambda c: (-c["win"], -c["spread"], c["move"]))
    method = ("every draw enumerated, endgames solved"
              + ("; some lines approximated (tiles left in the bag or a solve cut short)" if approx_any else ""))
    return {"bag": bag, "unseen": a.rack_string(unseen), "method": method, "moves": out}


def _opponent_reply(board, mine, opp, rest, lexicon, spread, endgame_depth, per):
    """Outcomes ``[(probability, final spread)]`` when the opponent moves with tiles in the bag.

    The opponent plays its top-scoring move (or passes), then draws every
    possible way from ``rest``; an emptied bag is solved (us to move), a
    non-empty one scored by the moves' points.
    """
    from .movegen import best_moves

    a = board.alphabet
    moves = best_moves(board, opp, lexicon, 1)
    if not moves:
        return [(1.0, spread)]
    m = moves[0]
    spread -= m.score
    k = m.tiles_played
    left = opp - _used(m, a)
    nrest = int(rest.sum())
    if k < nrest:
        return [(1.0, spread)]
    b2 = _after(board, m)
    total = comb(nrest, nrest)
    out = []
    for e, w in multisets(rest, nrest):
        theirs = left + e
        if not mine.any() or not theirs.any():  # pragma: no cover - a rack is never empty here
            out.append((w / total, spread))
            continue
        r = solve(Position(b2, mine.astype(np.int32), theirs.astype(np.int32)), lexicon, max_depth=endgame_depth,
                  time_limit=per, tt_bits=TT_BITS)
        out.append((w / total, spread + r.value))
    return out
