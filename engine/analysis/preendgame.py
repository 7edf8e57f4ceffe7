"""Pre-endgame: 1 to 3 tiles in the bag, draws enumerated, endgames solved within a time budget.

Method (docs/preendgame.md has the long form):

1. **Candidates**: the ``top`` placements by static equity, and passing (``passing``; exchanges
   need 7 tiles in the bag, so they are never legal here).
2. **Lines**: for each candidate every draw, weighted by the number of
   tile-level draws giving it (``prod C(pool[t], D[t])``, :func:`multisets`):

   * the move empties the bag (it plays at least as many tiles as the bag
     holds): we draw all of the bag, the opponent holds the rest of the unseen
     tiles (or its given rack); the endgame that follows has the opponent to
     move. With one tile in the bag these are the unseen tile types, each
     weighted by its count.
   * tiles stay in the bag (passing too): every draw ``D`` for us and every opponent rack
     ``O`` from the rest. *Model*: the opponent answers with its
     highest-equity move (MAGPIE's "rational" opponent); if that empties the bag, the
     endgame (us to move) is solved, otherwise the line is scored by the two moves' points alone.
   * with an inference of the opponent's last move (``opponent``), each opponent rack's weight
     is multiplied by its posterior over its prior probability (:func:`rack_ratio`).

   More than ``max_draws`` distinct lines of the second kind for a
   candidate: ``max_draws`` tile-level draws are sampled with a fixed seed
   instead (``sampled``); lines of the first kind are always enumerated.
3. **Cheap pass**: every distinct endgame (shared by all lines that reach it,
   cached by board and racks) gets a *greedy playout* value: each side plays
   its top-scoring move (going out counted with its settlement) until one
   goes out or both passed twice. Candidates are visited in turn, heaviest
   lines first, so a deadline leaves each one an estimate.
4. **Exact endgames for the candidates in contention**: rounds of
   :func:`engine.analysis.endgame.solve` with a node limit growing fourfold
   (``NODES0``, ``4 × NODES0``, ...) and the time left as its time limit,
   over the unsolved endgames of the candidates still in contention, the
   leader first (within a candidate the endgames with the fewest tiles
   first, then the heaviest). A solve that completes replaces the greedy value by the exact
   one; one that does not keeps the greedy value. A candidate is out of
   contention when its win rate is more than ``WIN_MARGIN × u`` below the
   leader's or its mean spread more than ``SPREAD_MARGIN × u`` below, where
   ``u`` is the mean of the two candidates' weight shares not yet exact (a
   heuristic: the greedy values carry no error bound); a round refines at
   most ``MAX_LIVE`` of those in contention, the best first. When every
   candidate in contention is exact the others are refined with the time
   left; when all are exact the search returns early.
5. **Deadline**: on ``clock`` (wall by default, ``time.process_time`` for CPU seconds), no new
   solve starts within ``SAFETY`` of the deadline (``time_limit``); a solve's own time limit is the time left, so the whole
   call returns within the budget plus one solve's overshoot (its first
   depth, always searched, or a pruned word list built between two depths).

A candidate's result: the probability of winning (final spread > 0; a tie
counts half) and the mean final spread (current scores included), weighted
over its lines; ``exact`` when every line was enumerated (not sampled), none
left tiles in the bag (no modelled reply) and every endgame was solved to the end;
``exact_share`` the weight share of its draws whose endgame was solved.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from math import comb
from typing import Callable

import numpy as np

from lexicon_tools.bundle import Lexicon

from engine.position.board import Board
from engine.position.cgp import Position
from engine.analysis.endgame import SearchInterrupted, solve
from engine.interrupt import on_ctrl_c

MAX_BAG = 3
DEFAULT_TIME = 10.0
TT_BITS = (14, 20)
"""log2 of the endgame table's entries, from the node limit (:func:`_tt_bits`), between these bounds."""
NODES0 = 2_000
"""Node limit of the first exact round; each further round allows four times as many."""
MAX_DRAWS = 48
"""Distinct lines per candidate above which draws are sampled (that many tile-level draws, fixed seed)."""
WIN_MARGIN = 0.25
SPREAD_MARGIN = 25.0
"""Contention margins per unit of weight not yet exact (win rate, points of mean spread)."""
SAFETY = 0.05
"""Seconds before the deadline at which no new solve starts."""
MAX_LIVE = 3
"""Candidates refined per round at most (the best by the current estimates among those in contention), so
that the node limits grow for the leaders instead of being spread over every candidate."""


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


def _n_multisets(pool: np.ndarray, size: int) -> int:
    """How many distinct sub-multisets of ``size`` tiles ``pool`` has (a small DP)."""
    ways = [1] + [0] * size
    for c in pool:
        new = [0] * (size + 1)
        for s in range(size + 1):
            if ways[s]:
                for k in range(min(int(c), size - s) + 1):
                    new[s + k] += ways[s]
        ways = new
    return ways[size]


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


def greedy_playout(board: Board, first: np.ndarray, second: np.ndarray, lexicon: Lexicon, passes: int = 0) -> int:
    """Spread the side to move gains to the end when both sides play greedily (bag empty).

    Each side plays the move of the highest score, a move that goes out
    counted with its settlement (``+ 2 × value`` of the other rack), or passes
    when it has none; the game ends when a side goes out or after four passes
    in a row (each side then loses its own rack's value), as in SPEC.md "End of game".

    Args:
        board: the board (not changed).
        first, second: int (n_letters + 1,) racks of the side to move and of the other side.
        lexicon: the word list.
        passes: consecutive passes so far.

    Returns:
        the final spread change for the side to move (an approximation of
        :func:`engine.analysis.endgame.solve`'s value; equal to it when neither side has a choice).
    """
    from engine.movegen import _movegen as K
    from engine.movegen.generator import generate_moves

    a = board.alphabet
    vals = a.values
    b = board.copy()
    racks = [np.asarray(first, dtype=np.int32).copy(), np.asarray(second, dtype=np.int32).copy()]
    diff = 0  # points of the side to move minus the other's
    side = 0
    while True:
        sign = 1 if side == 0 else -1
        if passes >= 4:
            return diff - int((racks[0][1:] * vals[1:]).sum()) + int((racks[1][1:] * vals[1:]).sum())
        me, other = racks[side], racks[1 - side]
        ml = generate_moves(b, me, lexicon)
        if len(ml) == 0:
            passes += 1
            side = 1 - side
            continue
        out_bonus = 2 * int((other[1:] * vals[1:]).sum())
        n_tiles = int(me.sum())
        keys = ml.scores.astype(np.int64) + np.where(ml.rows[:, K.OUT_NTILES] == n_tiles, out_bonus, 0)
        i = int(np.argmax(keys))
        diff += sign * int(keys[i])
        if int(ml.rows[i, K.OUT_NTILES]) == n_tiles:
            return diff
        m = ml.move(i, leave=False)
        b.place([(r, c, a.code(ch), bl) for r, c, ch, bl in m.tiles])
        for _r, _c, ch, bl in m.tiles:
            me[0 if bl else a.code(ch)] -= 1
        passes = 0
        side = 1 - side


@dataclass
class _Endgame:
    """One distinct endgame (side to move first), shared by every line reaching it."""

    pos: Position
    greedy: int | None = None
    exact: int | None = None
    tried: int = -1

    def value(self) -> int | None:
        return self.exact if self.exact is not None else self.greedy


@dataclass
class _Line:
    """A weighted line of a candidate: final spread = ``offset + sign × endgame value`` (or ``offset``)."""

    weight: float
    offset: float
    sign: int = 0
    eg: _Endgame | None = None
    approx: bool = False  # points only: tiles left in the bag after the reply, or the opponent had no move
    modelled: bool = False  # the opponent's reply before the endgame is modelled (its highest-equity move)

    def final(self) -> float | None:
        if self.eg is None:
            return self.offset
        v = self.eg.value()
        return None if v is None else self.offset + self.sign * v

    @property
    def solved(self) -> bool:
        """The line's endgame was solved to the end (or the line needs none and is not a points-only estimate)."""
        return not self.approx and (self.eg is None or self.eg.exact is not None)

    @property
    def exact(self) -> bool:
        return self.solved and not self.modelled


@dataclass
class _Cand:
    notation: str
    score: int
    tiles: int
    lines: list = field(default_factory=list)
    sampled: bool = False

    def estimate(self) -> dict:
        tw = sum(ln.weight for ln in self.lines)
        ew = win = spread = xw = 0.0
        for ln in self.lines:
            f = ln.final()
            if f is None:
                continue
            ew += ln.weight
            spread += ln.weight * f
            win += ln.weight * (1.0 if f > 0 else 0.5 if f == 0 else 0.0)
            if ln.solved:
                xw += ln.weight
        return {"win": win / ew if ew else 0.0, "spread": spread / ew if ew else 0.0,
                "evaluated": ew / tw if tw else 1.0, "exact_share": xw / tw if tw else 1.0}

    @property
    def exact(self) -> bool:
        return not self.sampled and all(ln.exact for ln in self.lines)

    @property
    def reply(self) -> bool:
        return any(ln.modelled or ln.approx for ln in self.lines)


def rack_ratio(inference, unseen: np.ndarray, rack_size: int):
    """Posterior over prior probability of each opponent rack, from the inference of its last move.

    The inference (:func:`engine.analysis.inference.infer`) gives the distribution ``p(L)`` of the leave ``L``
    the opponent kept (``l`` tiles); it then drew ``rack_size - l`` tiles uniformly from the rest of
    the pool (the unseen tiles now, ``N`` of them). So a rack ``R`` has the probability
    ``P(R) = sum_L p(L) [L <= R] prod_t C(pool_t - L_t, R_t - L_t) / C(N - l, rack_size - l)``,
    and uniformly (no inference) ``P0(R) = prod_t C(pool_t, R_t) / C(N, rack_size)``; with every leave
    consistent the two are equal (Vandermonde), so the ratio is 1.

    Args:
        inference: an :class:`engine.analysis.inference.InferenceResult` whose ``pool`` is ``unseen``.
        unseen: int (T,) the tiles the mover cannot see (the opponent's rack and the bag).
        rack_size: tiles on a full rack (7).

    Returns:
        a function ``ratio(rack counts) -> float`` (0 for a rack no consistent leave fits).

    Raises:
        ValueError: the inference was made on other unseen tiles, or no leave is consistent.
    """
    pool = np.asarray(unseen, dtype=np.int64)
    if inference.pool.shape != pool.shape or (np.asarray(inference.pool) != pool).any():
        raise ValueError("the inference was made with other unseen tiles than this position's")
    if not len(inference.weights):
        raise ValueError("no leave is consistent with the opponent's last move: the inference cannot weight racks")
    leaves = np.asarray(inference.leaves, dtype=np.int64)
    p = np.asarray(inference.probabilities, dtype=np.float64)
    n = int(pool.sum())
    size = int(min(rack_size, n))
    cache: dict = {}

    def prob(rack) -> float:
        r = np.asarray(rack, dtype=np.int64)
        total = 0.0
        fits = (leaves <= r).all(axis=1)
        for li, pl in zip(leaves[fits], p[fits]):
            lsum = int(li.sum())
            ways = 1
            for t in np.nonzero(r - li)[0]:
                ways *= comb(int(pool[t] - li[t]), int(r[t] - li[t]))
            total += pl * ways / comb(n - lsum, size - lsum)
        return total

    def ratio(rack) -> float:
        key = np.asarray(rack, dtype=np.int64).tobytes()
        if key not in cache:
            r = np.asarray(rack, dtype=np.int64)
            prior = 1
            for t in np.nonzero(r)[0]:
                prior *= comb(int(pool[t]), int(r[t]))
            prior /= comb(n, size)
            cache[key] = prob(r) / prior if prior > 0 else 0.0
        return cache[key]

    return ratio


def preendgame_bag(pos) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None, int]:
    """Check that ``pos`` is a pre-endgame (1 to :data:`MAX_BAG` tiles in the bag) and count its tiles; the
    checks :func:`preendgame` makes first, for a caller that must refuse a position before compiling.

    Returns:
        ``(unseen, known, bag_pool, bag)``: the unseen counts (int array, one per letter, blank first), the
        opponent's rack if the CGP gives it (else ``None``), the bag's counts when the opponent's rack is
        known (else ``None``), and the number of tiles in the bag.

    Raises:
        ValueError: more tiles of a letter than the set holds; the opponent's rack holds tiles not unseen;
            opcode ``bag`` disagrees; the game is over; the bag is empty or holds more than :data:`MAX_BAG`.
    """
    a = pos.alphabet
    unseen = pos.unseen()
    if (unseen < 0).any():
        c = int(np.nonzero(unseen < 0)[0][0])
        raise ValueError(f"preendgame: more {a.letter(c) if c else 'blank'} tiles on the board and rack than the "
                         f"{a.name.capitalize()} set holds ({int(a.counts[c])})")
    known = pos.opponent_rack
    if known is not None:
        bag_pool = unseen - known
        if (bag_pool < 0).any():
            raise ValueError("preendgame: the opponent's rack holds tiles that are not unseen")
        bag = int(bag_pool.sum())
    else:
        bag_pool = None
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
    return unseen, known, bag_pool, bag


def preendgame(pos: Position, lexicon: Lexicon, *, top: int = 8, time_limit: float | None = None,
               endgame_depth: int | None = None, table=None, node_limit: int | None = None,
               max_draws: int = MAX_DRAWS, seed: int = 0, opponent=None, passing: bool = True,
               clock: Callable[[], float] = time.perf_counter,
               progress: Callable[[int, int, dict], None] | None = None) -> dict:
    """Rank candidate moves of a pre-endgame position by win rate over the draws (module doc).

    Args:
        pos: the position (1 to 3 tiles in the bag; the opponent's rack may be unknown).
        lexicon: the word list.
        top: candidates to evaluate, the best by static equity.
        time_limit: seconds for everything (default ``DEFAULT_TIME``); the call
            returns within it plus one endgame solve's first depth.
        endgame_depth: plies per endgame solve (default: to the end).
        table: leave table for choosing candidates (default: the packaged one).
        node_limit: largest node limit of one endgame solve (default: grow
            until the time is used up); ``0``: no solver, greedy playouts only
            (nothing is exact unless every line is forced).
        max_draws: distinct lines per candidate above which draws are sampled.
        seed: seed of that sampling.
        opponent: an :class:`engine.analysis.inference.InferenceResult` for this position (the opponent's
            last move): each opponent rack is weighted by its posterior probability over its
            prior one (:func:`rack_ratio`); ``None``: uniform over the unseen tiles. Ignored when
            the CGP gives the opponent's rack.
        clock: the clock of ``time_limit`` (default wall time, ``time.perf_counter``;
            ``time.process_time`` for a budget in CPU seconds of this process: each endgame
            solve is then given the CPU time left as its wall limit, which uses at most that much CPU).
        passing: evaluate passing as a candidate too (the opponent then answers with its
            highest-equity move, the "rational" reply; module doc, step 2).
        progress: called ``(round, rounds so far, {"exact": candidates exact, "of": n})`` after each exact round.

    Returns:
        ``{"bag", "unseen", "method", "seconds", "interrupted", "inferred", "moves": [...]}``
        (``interrupted``: Ctrl-C ended the search early, the figures are those reached;
        ``inferred``: the opponent's racks were weighted by the inference) with moves
        best first (by win rate, then mean spread), each ``{"move", "score",
        "win", "spread", "draws", "exact", "exact_share", "evaluated",
        "sampled", "reply"}``: ``spread`` is the mean final spread (current scores
        included), ``draws`` the distinct lines, ``exact`` True when the
        numbers are exact (every line enumerated, no opponent reply modelled and
        every endgame solved to the end), ``exact_share`` the weight share of the
        draws whose endgame was solved to the end ("x % of the draws solved"),
        ``evaluated`` the weight share that has any value (below 1 only when
        the deadline came in the cheap pass), ``reply`` True when the move leaves
        tiles in the bag, so that the opponent's reply before the endgame is
        modelled (its highest-equity move), never exact.

    Raises:
        ValueError: the bag does not hold 1 to 3 tiles, the tiles do not fit
            the set, the rack is empty, or a bad ``top``/time/node limit.
    """
    from engine.game.equity import position_candidates
    from engine.leaves.table import default_table

    a = pos.alphabet
    if not pos.rack.any():
        raise ValueError("preendgame: the rack to move is empty")
    if top < 1:
        raise ValueError(f"top must be at least 1, got {top}")
    if node_limit is not None and node_limit < 0:
        raise ValueError(f"node limit must be 0 or more, got {node_limit}")
    if max_draws < 1:
        raise ValueError(f"max_draws must be at least 1, got {max_draws}")
    unseen, known, bag_pool, bag = preendgame_bag(pos)
    budget = DEFAULT_TIME if time_limit is None else time_limit
    if not budget > 0:
        raise ValueError(f"time limit must be positive, got {budget}")
    t0 = clock()
    deadline = t0 + budget
    table = table if table is not None else default_table()
    cands_in = [c for c in position_candidates(pos, lexicon, top, table) if c.kind == "play"]
    if not cands_in and not passing:
        raise ValueError("preendgame: no placement on the board (only passing is possible)")
    ratio = None
    if opponent is not None and known is None:
        ratio = rack_ratio(opponent, unseen, a.rack_size)
    spread0 = pos.scores[0] - pos.scores[1]
    rng = np.random.default_rng(seed)
    cache: dict = {}

    def endgame(board: Board, first, second) -> _Endgame:
        first = np.asarray(first, dtype=np.int32)
        second = np.asarray(second, dtype=np.int32)
        key = (board.tiles.tobytes(), board.blanks.tobytes(), first.tobytes(), second.tobytes())
        eg = cache.get(key)
        if eg is None:
            eg = cache[key] = _Endgame(Position(board, first, second))
        return eg

    cands = []
    for cand in cands_in[:top]:
        m = cand.move
        k = m.tiles_played
        c = _Cand(m.notation, int(cand.score), k)
        board = _after(pos.board, m)
        leave = pos.rack - _used(m, a)
        pool = bag_pool if known is not None else unseen
        base = spread0 + cand.score
        if k >= bag:
            for d, w in multisets(pool, bag):
                opp = known if known is not None else unseen - d
                if ratio is not None:
                    w *= ratio(opp)
                    if w <= 0:
                        continue
                c.lines.append(_Line(w, base, -1, endgame(board, opp, leave + d)))
        else:
            c.lines = _reply_lines(c, board, leave, pool, known, k, a.rack_size, base, lexicon, endgame,
                                   max_draws, rng, ratio, table)
        c.lines.sort(key=lambda ln: -ln.weight)
        cands.append(c)
    if passing:  # keep all tiles; the opponent moves with the bag as it is (module doc, step 2)
        c = _Cand("-", 0, 0)
        c.lines = _reply_lines(c, pos.board, pos.rack.astype(np.int32), bag_pool if known is not None else unseen,
                               known, 0, a.rack_size, spread0, lexicon, endgame, max_draws, rng, ratio, table)
        c.lines.sort(key=lambda ln: -ln.weight)
        cands.append(c)

    limit_at = [deadline]  # Ctrl-C moves the deadline to now: the answer so far, marked not exact
    with on_ctrl_c(lambda: limit_at.__setitem__(0, 0.0)):
        # cheap pass: greedy playouts, candidates in turn, heaviest lines first
        depth = 0
        while True:
            any_left = False
            for c in cands:
                if depth >= len(c.lines):
                    continue
                any_left = True
                eg = c.lines[depth].eg
                if eg is not None and eg.greedy is None and (depth == 0 or
                                                             clock() < limit_at[0] - SAFETY):
                    eg.greedy = greedy_playout(eg.pos.board, eg.pos.rack, eg.pos.opponent_rack, lexicon)
            depth += 1
            if not any_left or clock() >= limit_at[0] - SAFETY:
                break

        # exact rounds for the candidates in contention
        nodes = NODES0
        rounds = 0
        cap = node_limit
        while cap != 0 and clock() < limit_at[0] - SAFETY:
            live = _contenders(cands)
            if not live:
                break
            lim = nodes if cap is None else min(nodes, cap)
            pending = []
            seen = set()
            for c in live:  # the leader first; within a candidate the smallest endgames first (likelier to finish)
                mine = []
                for ln in c.lines:
                    eg = ln.eg
                    if eg is not None and eg.exact is None and eg.tried < lim and id(eg) not in seen:
                        seen.add(id(eg))
                        mine.append((int(eg.pos.rack.sum() + eg.pos.opponent_rack.sum()), -ln.weight, len(mine), eg))
                pending += [t[-1] for t in sorted(mine)]
            if not pending:
                if cap is not None and lim >= cap:
                    break
                nodes *= 4
                continue
            for eg in pending:
                left = limit_at[0] - clock()
                if left < SAFETY:
                    break
                try:
                    r = solve(eg.pos, lexicon, max_depth=endgame_depth, time_limit=left, tt_bits=_tt_bits(lim),
                              node_limit=lim)
                except SearchInterrupted as stop:  # Ctrl-C inside the solve: its partial answer is not exact
                    r = stop.result
                    limit_at[0] = 0.0
                eg.tried = lim
                if r.complete:
                    eg.exact = int(r.value)
                elif endgame_depth is not None and r.depth >= endgame_depth:
                    eg.tried = 1 << 62  # its depth limit, not the node limit, stopped it: more nodes do not help
            rounds += 1
            if progress is not None:
                progress(rounds, lim, {"exact": sum(c.exact for c in cands), "of": len(cands)})
            nodes *= 4

    out = []
    for c in cands:
        e = c.estimate()
        out.append({"move": c.notation, "score": c.score, "win": e["win"], "spread": e["spread"],
                    "draws": len(c.lines), "exact": c.exact, "exact_share": e["exact_share"],
                    "evaluated": e["evaluated"], "sampled": c.sampled, "reply": c.reply})
    out.sort(key=lambda d: (-d["win"], -d["spread"], d["move"]))
    n_exact = sum(d["exact"] for d in out)
    method = (f"draws enumerated (sampled above {max_draws} per move), greedy playouts, then exact endgames for "
              f"the moves in contention; {n_exact} of {len(out)} moves exact")
    return {"bag": bag, "unseen": a.rack_string(unseen), "method": method, "inferred": ratio is not None,
            "seconds": clock() - t0, "moves": out, "interrupted": limit_at[0] == 0.0}


def _tt_bits(nodes: int) -> int:
    """Table size for a solve of at most ``nodes`` nodes: about half as many entries, within :data:`TT_BITS`."""
    return min(TT_BITS[1], max(TT_BITS[0], int(nodes).bit_length() - 1))


def _contenders(cands: list) -> list:
    """Candidates not yet exact that may still be the best, the current leader first (module doc, step 4)."""
    est = [(c, c.estimate()) for c in cands]
    est.sort(key=lambda ce: (-ce[1]["win"], -ce[1]["spread"], ce[0].notation))
    lead, le = est[0]
    live = []
    for c, e in est:
        if c.exact or not any(ln.eg is not None and ln.eg.exact is None for ln in c.lines):
            continue
        u = ((1.0 - e["exact_share"]) + (1.0 - le["exact_share"])) / 2
        if c is lead or (e["win"] >= le["win"] - WIN_MARGIN * u and e["spread"] >= le["spread"] - SPREAD_MARGIN * u):
            live.append(c)
    if live:
        return live[:MAX_LIVE]
    return [c for c, _e in est if any(ln.eg is not None and ln.eg.exact is None for ln in c.lines)]


def _reply_lines(c: _Cand, board, leave, pool, known, k, rack_size, base, lexicon, endgame, max_draws, rng,
                 ratio=None, table=None):
    """Lines of a candidate that leaves tiles in the bag (module doc, step 2: the opponent's highest-equity reply)."""
    from engine.game.equity import best_equity

    a = board.alphabet
    combos = []  # (weight, our draw, opponent rack)
    if known is not None:
        n = _n_multisets(pool, k)
        if n <= max_draws:
            combos = [(w, d, known) for d, w in multisets(pool, k)]
    else:
        n = sum(_n_multisets(pool - d, rack_size) for d, _w in multisets(pool, k))
        if n <= max_draws:
            for d, w in multisets(pool, k):
                for o, w2 in multisets(pool - d, rack_size):
                    combos.append((w * w2, d, o))
    if not combos:  # sample tile-level draws
        c.sampled = True
        tiles = np.repeat(np.arange(pool.shape[0]), pool)
        groups: dict = {}
        for _ in range(max_draws):
            perm = rng.permutation(tiles)
            d = np.bincount(perm[:k], minlength=pool.shape[0]).astype(pool.dtype)
            o = known if known is not None else np.bincount(perm[k:k + rack_size],
                                                              minlength=pool.shape[0]).astype(pool.dtype)
            key = (d.tobytes(), o.tobytes())
            if key in groups:
                groups[key][0] += 1
            else:
                groups[key] = [1, d, o]
        combos = [tuple(g) for g in groups.values()]
    lines = []
    replies: dict = {}
    for w, d, o in combos:
        if ratio is not None and known is None:
            w *= ratio(o)
            if w <= 0:
                continue
        rest = pool - d - (0 if known is not None else o)
        mine = (leave + d).astype(np.int32)
        o = np.asarray(o, dtype=np.int32)
        key = o.tobytes()
        if key not in replies:
            ms = best_equity(board, o, lexicon, bag=int(rest.sum()), n=1, table=table, exchanges=False)
            replies[key] = ms[0].move if ms and ms[0].kind == "play" else None
        m = replies[key]
        if m is None:  # the opponent passes with tiles in the bag: scored as it stands
            lines.append(_Line(w, base, approx=True))
            continue
        k2 = m.tiles_played
        if k2 < int(rest.sum()):
            lines.append(_Line(w, base - m.score, approx=True))
            continue
        theirs = o - _used(m, a) + rest
        lines.append(_Line(w, base - m.score, 1, endgame(_after(board, m), mine, theirs), modelled=True))
    return lines
