"""Rack inference: which tiles did the opponent keep, given the move they just made?

Method (as MAGPIE's ``infer`` and Macondo's inference describe it; no code
copied): the opponent is modelled as the static equity player of
:mod:`engine.game.equity`. Their rack before the move was the tiles they played plus
a *leave* ``L`` of ``7 - tiles played`` tiles, and ``L`` came from the tiles
the side to move cannot see now (the *pool*: the opponent's current rack and
the bag; the tiles the opponent played are on the board, the ones we hold were
never on their rack). For **every** possible ``L`` (exact enumeration of the
sub-multisets of the pool):

* the prior weight is the number of ways to draw ``L`` from the pool,
  ``prod_c C(pool[c], L[c])`` (a uniform draw of tiles, so ``AA`` from five
  A's counts ``C(5, 2) = 10``);
* the likelihood is 1 when the move was a reasonable static choice from the
  full rack: ``equity(played move) >= equity(best move of the rack) - margin``,
  on the board before the move, with the bag as it was then; else 0. The
  margin (default 5 points, MAGPIE's default) allows for an opponent who does
  not play exactly like our static player.

The consistent leaves, weighted, are the posterior: per tile the expected
number kept and the probability of keeping at least one, and the list of
leaves with their probabilities. An **exchange** of ``n`` tiles whose tiles we
did not see (``-3``): every full rack ``R`` of 7 tiles is enumerated instead;
it is consistent when its best exchange of exactly ``n`` tiles is within the
margin of its best move, and the leave is what that exchange keeps. An
exchange whose tiles are known (``-ABC``) is treated like a placement of those
tiles with score 0.

**What the record shows** (:func:`from_record`) narrows the pool further, as the
side to move's tile tracking does at the table:

* tiles the side to move put back in an exchange *after* the opponent's last draw
  are in the bag or were drawn since, never on the rack the opponent moved from:
  they leave the pool of the leave (when the bag then held only those tiles, the
  leave is certain);
* the tiles of a play the opponent took back after a challenge (a withdrawn play)
  went back to their rack, and they draw nothing for it: until their next play or
  exchange their rack holds those tiles, so every candidate rack must hold them;
* on the turn right after a withdrawn play the opponent's whole rack is asked for:
  ``infer`` returns the racks that hold the withdrawn tiles plus the rest drawn
  from the unseen tiles (no likelihood: a phony is no static player's choice),
  weighted by their draws.

With tiles ``need`` known to be on the rack the prior is the uniform draw
conditioned on holding them: a leave ``L >= need`` weighs ``prod_c C(pool[c], L[c])``
as before (enumerated as ``need`` plus a sub-multiset of ``pool - need``).

Input convention: ``position`` is the position *now* (after the opponent's
move, the side to move's rack known), and the move is on its board; tiles that
were on the board before the move are written in parentheses (``8H WO(R)T``).

The hot loop (the best move of every candidate rack) is the Numba kernel
:func:`engine.analysis._inference.best_values`, on the game kernels' static player
(:func:`engine.game._kgame.decide`).

Example::

    from engine.position.cgp import parse_cgp
    from engine.analysis.inference import infer
    res = infer(parse_cgp(cgp), "8H WORT", lexicon)
    print(res.format())
"""

from __future__ import annotations

import math
import time
import unicodedata
from dataclasses import dataclass

import numpy as np

from engine.position.board import ACROSS, COLUMNS, N, Board, parse_start, square_name

__all__ = ["DEFAULT_MARGIN", "MAX_RACKS", "SAMPLES", "LastMove", "InferenceResult", "parse_last_move", "infer", "from_record"]

DEFAULT_MARGIN = 5.0
"""Equity margin in points (MAGPIE's default)."""

MAX_RACKS = 60_000
"""Most candidate racks enumerated exactly (``max_racks``; about 20-40 s on one loaded core). Beyond
that :func:`infer` checks :data:`SAMPLES` racks drawn at random from the pool instead (not exact)."""

CHUNK = 256
"""Candidate racks checked between two looks at the clock when :func:`infer` has a deadline."""

SAMPLES = 20_000
"""Racks drawn when the exact enumeration would be larger than ``max_racks``."""


@dataclass(frozen=True)
class LastMove:
    """The opponent's last move, read against the position after it.

    Attributes:
        kind: ``"play"`` or ``"exchange"``.
        notation: the move as given (normalised: ``8H WO(R)T``, ``-3``, ``-ABC``).
        board_before: the board before the move (a copy; the move's tiles removed).
        played: int64 (T,) tiles known to have left the rack: the tiles placed,
            or the tiles exchanged when they are known; zeros for ``-N``.
        score: points of the move (0 for an exchange).
        n_tiles: tiles placed or exchanged.
        tiles_known: False for an exchange of unseen tiles (``-N``).
        on_rack: int64 (T,) or None: tiles the record shows were on the opponent's rack
            before this move (a withdrawn play's tiles since their last draw).
        not_on_rack: int64 (T,) or None: unseen tiles the record shows were not on it
            (the side to move's exchange after the opponent's last draw).
        known: one line per fact the record added (for reports).

    ``kind`` ``"withdrawn"``: a play challenged off (``played`` = its tiles, which went
    back to the rack; ``board_before`` = the board now). ``str()`` is the notation.
    """

    kind: str
    notation: str
    board_before: Board
    played: np.ndarray
    score: int
    n_tiles: int
    tiles_known: bool
    on_rack: np.ndarray | None = None
    not_on_rack: np.ndarray | None = None
    known: tuple[str, ...] = ()

    def __str__(self) -> str:
        return self.notation


def _letters(written: str, alphabet) -> list[tuple[str, bool]]:
    """``(letter, in parentheses)`` of a written word; raises ValueError on bad characters."""
    out, inside = [], False
    for ch in written:
        if ch == "(":
            if inside:
                raise ValueError(f"{written}: nested '('")
            inside = True
        elif ch == ")":
            if not inside:
                raise ValueError(f"{written}: ')' without '('")
            inside = False
        else:
            if ch.upper() not in alphabet.letters or len(ch.upper()) != 1:
                raise ValueError(f"{written}: {alphabet.not_a_letter(ch)}")
            out.append((ch, inside))
    if inside:
        raise ValueError(f"{written}: '(' is not closed")
    if not out:
        raise ValueError(f"{written}: no letters")
    return out


def parse_last_move(board: Board, text: str, lexicon=None) -> LastMove:
    """Read the opponent's last move against the board *after* it (see the module doc).

    Args:
        board: the board now (the move's tiles on it).
        text: ``8H WO(R)T`` / ``H8 WO(R)T`` (tiles that were already there in
            parentheses, blanks in lowercase), ``-3`` (three unseen tiles
            exchanged) or ``-ABC`` (these tiles exchanged).
        lexicon: checks the move's words (``None``: no word check).

    Returns:
        a :class:`LastMove`.

    Raises:
        ValueError: unreadable notation; a new tile that is not on the board as
            written (names the square); a move that was not legal on the board
            before it; a pass (nothing to infer from).
    """
    from engine.position.scorer import IllegalMove, check_move

    a = board.alphabet
    t = unicodedata.normalize("NFC", text).strip()
    if not t:
        raise ValueError("the last move is empty")
    if t.startswith("-"):
        rest = t[1:].strip()
        if not rest:
            raise ValueError("the last move is a pass: a pass tells nothing about the tiles kept")
        if rest.isdigit():
            n = int(rest)
            if not 1 <= n <= a.rack_size:
                raise ValueError(f"exchange -{rest}: 1 to {a.rack_size} tiles")
            return LastMove("exchange", f"-{n}", board.copy(), np.zeros(a.size + 1, dtype=np.int64), 0, n, False)
        try:
            put = a.parse_rack(rest.upper()).astype(np.int64)
        except ValueError as exc:
            raise ValueError(f"exchange {t}: {exc}") from None
        n = int(put.sum())
        if n > a.rack_size:
            raise ValueError(f"exchange {t}: more than {a.rack_size} tiles")
        return LastMove("exchange", f"-{a.rack_string(put)}", board.copy(), put, 0, n, True)
    parts = t.split()
    if len(parts) != 2:
        raise ValueError(f"cannot read the last move {text!r}: expected '8H WO(R)T', 'H8 WORT', '-3' or '-ABC'")
    start, written = parts
    row, col, direction = parse_start(start)
    dr, dc = (0, 1) if direction == ACROSS else (1, 0)
    before = board.copy()
    new = []
    for i, (ch, old) in enumerate(_letters(written, a)):
        r, c = row + dr * i, col + dc * i
        if r >= N or c >= N:
            raise ValueError(f"last move {t}: runs off the board at letter {i + 1} ({ch})")
        on = board.letter_at(r, c)
        sq = square_name(r, c)
        if not on:
            raise ValueError(f"last move {t}: square {sq} is empty; the move must be on the board "
                             f"(--cgp is the position after it)")
        if on.upper() != ch.upper() or (not old and on.islower() != ch.islower()):
            raise ValueError(f"last move {t}: square {sq} holds {on}, not {ch}")
        if not old:
            new.append((r, c))
    if not new:
        raise ValueError(f"last move {t}: every letter is in parentheses, so no tile was placed")
    for r, c in new:
        before.tiles[r, c] = 0
        before.blanks[r, c] = False
    try:
        scored = check_move(before, t, lexicon)
    except IllegalMove as exc:
        raise ValueError(f"last move {t} was not legal on the board before it: {exc}") from None
    played = np.zeros(a.size + 1, dtype=np.int64)
    for _r, _c, letter, blank in scored.tiles:
        played[0 if blank else a.code(letter)] += 1
    return LastMove("play", scored.move.notation, before, played, int(scored.score), len(scored.tiles), True)


@dataclass
class InferenceResult:
    """The distribution of the opponent's kept tiles (see the module doc).

    Attributes:
        move: the :class:`LastMove`.
        alphabet: the tile set.
        leave_size: tiles kept.
        bag_before: tiles in the bag before the move.
        margin: the equity margin (points).
        racks: candidate racks enumerated.
        consistent: how many of them were consistent.
        prior_weight: total draw count of all candidate racks.
        leaves: int64 (K, T) the distinct consistent leaves, most probable first.
        weights: float64 (K,) their draw counts (summed over racks that keep the same leave).
        pool: int64 (T,) the unseen tiles the leaves were drawn from.
        exact: True for the exact enumeration; False when ``samples`` racks were
            drawn at random instead (``racks`` is then the number of distinct racks
            drawn, the weights count sampled racks, not draws).
        possible: the number of distinct candidate racks (enumerated or not).
    """

    move: LastMove
    alphabet: object
    leave_size: int
    bag_before: int
    margin: float
    racks: int
    consistent: int
    prior_weight: float
    leaves: np.ndarray
    weights: np.ndarray
    pool: np.ndarray
    exact: bool = True
    possible: int = 0

    @property
    def total_weight(self) -> float:
        return float(self.weights.sum())

    @property
    def probabilities(self) -> np.ndarray:
        """float64 (K,) posterior probability of each leave (empty when none is consistent)."""
        w = self.total_weight
        return self.weights / w if w > 0 else self.weights.copy()

    def tile_stats(self) -> list[dict]:
        """Per tile in the pool: ``expected`` count kept, ``at_least_one`` probability, and the ``prior`` expected
        count (a uniform draw of ``leave_size`` tiles from the pool), tiles in code order, blank last."""
        a = self.alphabet
        p = self.probabilities
        n_pool = int(self.pool.sum())
        codes = [c for c in range(1, a.size + 1)] + [0]
        out = []
        for c in codes:
            if self.pool[c] == 0:
                continue
            exp = float((p * self.leaves[:, c]).sum()) if len(p) else 0.0
            one = float(p[self.leaves[:, c] > 0].sum()) if len(p) else 0.0
            prior = self.leave_size * int(self.pool[c]) / n_pool if n_pool else 0.0
            out.append({"tile": "?" if c == 0 else a.letters[c - 1], "expected": exp, "at_least_one": one,
                        "prior": prior})
        return out

    def sampler(self) -> tuple[np.ndarray, np.ndarray]:
        """``(leaves int32 (K, T), cumulative probabilities float64 (K,))`` for drawing leaves
        (:func:`engine.analysis.simulation.simulate` ``opponent_leaves``)."""
        if not len(self.weights):
            raise ValueError("no leave is consistent with the last move: nothing to draw from")
        cum = np.cumsum(self.weights) / self.total_weight
        cum[-1] = 1.0
        return self.leaves.astype(np.int32), cum

    def to_json(self, top: int | None = 20) -> dict:
        """One JSON-ready object: the move, the counts, per-tile statistics and the ``top`` leaves."""
        a = self.alphabet
        p = self.probabilities
        k = len(p) if top is None else min(top, len(p))
        return {"move": self.move.notation, "kind": self.move.kind, "score": self.move.score,
                "known": list(self.move.known),
                "leave_size": self.leave_size, "bag_before": self.bag_before, "margin": self.margin,
                "exact": self.exact, "possible_racks": self.possible,
                "racks": self.racks, "consistent": self.consistent, "leaves_distinct": int(len(p)),
                "consistent_share": round(self.total_weight / self.prior_weight, 6) if self.prior_weight else 0.0,
                "tiles": [{"tile": s["tile"], "expected": round(s["expected"], 4),
                           "at_least_one": round(s["at_least_one"], 4), "prior": round(s["prior"], 4)}
                          for s in self.tile_stats()],
                "leaves": [{"leave": a.rack_string(self.leaves[i]), "weight": int(round(self.weights[i])),
                            "probability": round(float(p[i]), 6)} for i in range(k)]}

    def format(self, top: int = 20) -> str:
        """A text report: the counts, the per-tile table and the most probable leaves."""
        from engine.lang import num, tr  # the text in the run's language (the CLI's --lang)

        a = self.alphabet
        m = self.move
        if m.kind == "withdrawn":
            lines = [tr("last move {move}: withdrawn, its tiles {tiles} went back to the rack; the whole rack of {n} "
                        "tiles, bag {bag}", move=m.notation, tiles=a.rack_string(m.played), n=self.leave_size,
                        bag=self.bag_before),
                     tr("{racks:,} possible racks, weighted by their draws (no likelihood: a withdrawn play is no "
                        "static player's choice)", racks=self.racks)]
        else:
            what = (tr("{move} ({score} points)", move=m.notation, score=m.score) if m.kind == "play"
                    else tr("exchange {move}", move=m.notation))
            kept = (tr("last move {what}: 1 tile kept, bag {bag} before the move, margin {margin:g}", what=what,
                       bag=self.bag_before, margin=self.margin) if self.leave_size == 1 else
                    tr("last move {what}: {n} tiles kept, bag {bag} before the move, margin {margin:g}", what=what,
                       n=self.leave_size, bag=self.bag_before, margin=self.margin))
            share = 100.0 * self.total_weight / self.prior_weight if self.prior_weight else 0.0
            lines = [kept,
                     tr("{n:,} of {racks:,} possible racks consistent ({share:.1f} % of the draws), {leaves:,} distinct "
                        "leaves", n=self.consistent, racks=self.racks, share=share, leaves=len(self.weights))]
        lines[1:1] = [tr("from the record: {what}", what=tr(k)) for k in m.known]
        if not self.exact:
            lines.insert(1, tr("sampled, not exact: {n:,} possible racks, more than the exact limit; the weights count "
                               "sampled racks", n=self.possible))
        if not len(self.weights):
            lines.append(tr("no rack is consistent with the move within the margin (try a larger --margin)"))
            return "\n".join(lines)
        lines.append("")
        lines.append(f"{tr('tile'):<5} {tr('expected'):>8} {tr('P(>=1)'):>7} {tr('prior'):>7}")
        for s in self.tile_stats():
            if s["expected"] < 0.0005 and s["prior"] < 0.0005:
                continue
            lines.append(f"{s['tile']:<5} {num(s['expected'], '>8.3f')} {num(s['at_least_one'], '>7.3f')} "
                         f"{num(s['prior'], '>7.3f')}")
        lines.append("")
        lines.append(f"{tr('leave'):<9} {'P':>7} {tr('draws'):>8}")
        p = self.probabilities
        for i in range(min(top, len(p))):
            lines.append(f"{a.rack_string(self.leaves[i]) or '-':<9} {num(p[i], '>7.4f')} {int(round(self.weights[i])):>8}")
        if len(p) > top:
            lines.append(tr("... {n:,} more", n=len(p) - top))
        return "\n".join(lines)


def infer(position, last_move, lexicon, *, table=None, margin: float = DEFAULT_MARGIN, params=None,
          max_racks: int = MAX_RACKS, samples: int = SAMPLES, seed: int = 0, deadline: float | None = None,
          clock=time.perf_counter) -> InferenceResult:
    """The distribution of the tiles the opponent kept after their last move (module doc).

    Args:
        position: the position now (:class:`engine.position.cgp.Position`, the side to
            move's rack known; an opponent rack in the CGP is ignored).
        last_move: the opponent's last move, a string (see :func:`parse_last_move`)
            or a :class:`LastMove`.
        lexicon: the word list (the static player's moves).
        table: the leave table of the static player (default: the packaged one).
        margin: equity margin in points (>= 0).
        params: :class:`engine.game.equity.EquityParams` (default: the table's own).
        max_racks: enumerate exactly up to this many candidate racks; beyond it
            draw ``samples`` racks from the pool at random (seeded by ``seed``) and
            check those (``exact=False`` in the result).
        samples, seed: the random racks of that fallback.
        deadline: a ``clock()`` value; when given, the candidate racks are checked in a random
            order (seeded by ``seed``), :data:`CHUNK` at a time, and checking stops once the
            clock has passed it: the racks checked are then a random sample of the candidates
            (``exact=False``, ``racks`` < ``possible``). The first chunk is always checked (about
            40 ms), so a small inference is whole even when the budget is nearly spent.
        clock: the clock of ``deadline`` (seconds).

    Returns:
        an :class:`InferenceResult` (possibly with no consistent leave).

    Raises:
        ValueError: a bad move (see :func:`parse_last_move`), an empty bag (the
            opponent's rack is then the unseen tiles: nothing to infer), a
            negative or non-finite margin, an exchange with fewer than 7 tiles
            in the bag, ``max_racks`` or ``samples`` below 1, a position with more
            of a tile than the set holds.
    """
    from engine.analysis import _inference as KI
    from engine.position.cgp import check_tile_counts
    from engine.game.equity import EquityParams
    from engine.game.kernel_game import KernelConstants, KernelPlayers
    from engine.leaves.table import default_table
    from engine.movegen.generator import CrossChecks

    if not isinstance(margin, (int, float)) or not math.isfinite(margin) or margin < 0:
        raise ValueError(f"margin must be a finite number of points >= 0, got {margin!r}")
    check_tile_counts(position, hint=False)
    a = position.alphabet
    mv = last_move if isinstance(last_move, LastMove) else parse_last_move(position.board, str(last_move), lexicon)
    bag_now = position.bag_count or 0
    pool = position.unseen().astype(np.int64)
    rs = a.rack_size
    zero = np.zeros(a.size + 1, dtype=np.int64)
    on = zero if mv.on_rack is None else np.asarray(mv.on_rack, dtype=np.int64)
    off = zero if mv.not_on_rack is None else np.asarray(mv.not_on_rack, dtype=np.int64)
    if (off > pool).any() or (on > pool + mv.played).any():
        raise ValueError(f"the record's known tiles do not fit the unseen tiles {a.rack_string(pool)}: "
                         f"on the opponent's rack {a.rack_string(on) or '-'}, not on it {a.rack_string(off) or '-'}")
    if max_racks < 1 or samples < 1:
        raise ValueError(f"max_racks and samples must be at least 1, got {max_racks} and {samples}")
    if mv.kind == "withdrawn":
        return _withdrawn_rack(mv, a, pool, on, off, bag_now, max_racks, samples, seed)
    if bag_now <= 0:
        raise ValueError("the bag is empty: the opponent's rack is exactly the unseen tiles, nothing to infer")
    if mv.kind == "play":
        bag_before = bag_now + mv.n_tiles
    else:
        bag_before = bag_now
        if bag_before < rs:
            raise ValueError(f"exchange {mv.notation}: the bag holds {bag_now} tiles; exchanging needs {rs}")
    if mv.tiles_known:
        if mv.kind == "exchange":
            short = [a.rack_string(np.eye(a.size + 1, dtype=np.int64)[c]) for c in range(a.size + 1)
                     if mv.played[c] > pool[c]]
            if short:
                raise ValueError(f"exchange {mv.notation}: not that many {', '.join(short)} unseen")
            pool_l = pool - mv.played
        else:
            pool_l = pool
        k = rs - mv.n_tiles
        base, n_exch = mv.played.copy(), 0
    else:
        pool_l, k, base, n_exch = pool, rs, zero.copy(), mv.n_tiles
    pool_l = pool_l - off  # put back by the side to move after the opponent's last draw: never on that rack
    if (pool_l < 0).any():
        raise ValueError(f"the record's known tiles do not fit: {a.rack_string(off)} put back by you and "
                         f"{mv.notation} are more than the unseen tiles {a.rack_string(pool)}")
    need = np.maximum(on - base, 0)  # known on the rack before the move and not among the tiles it played
    if int(pool_l.sum()) < k:
        raise ValueError(f"only {int(pool_l.sum())} unseen tiles, but the opponent kept {k}")
    if (need > pool_l).any() or int(need.sum()) > k:
        raise ValueError(f"the record's known tiles {a.rack_string(need)} cannot have been kept by {mv.notation}")
    sets, ways, exact, n_sets = _candidate_sets(pool_l, need, k, max_racks, samples, seed)

    table = table if table is not None else default_table()
    kc = KernelConstants(lexicon, a, mv.board_before.layout)
    kp = KernelPlayers([table], [params or EquityParams.of(table)])
    b = mv.board_before
    checks = CrossChecks(b, lexicon)
    lm, wm = b.open_premiums()
    if deadline is not None:  # a random order: the racks checked before the deadline are a random sample
        perm = np.random.default_rng(seed).permutation(sets.shape[0])
        sets, ways = np.ascontiguousarray(sets[perm]), ways[perm]
    m = sets.shape[0]
    best = np.zeros(m)
    target = np.zeros(m)
    keep = np.zeros_like(sets)
    step = m if deadline is None else CHUNK
    done = 0
    while done < m and (deadline is None or done == 0 or clock() < deadline):  # the first chunk always
        hi = min(done + step, m)
        KI.best_values(kc.kwg, kc.vals, kc.rack_size, kc.bingo_bonus, kc.upper, kc.lower, b.tiles.copy(),
                       b.blanks.astype(np.uint8), b.tile_values(), lm, wm, checks.cs, checks.xs, checks.hx,
                       np.ascontiguousarray(base, dtype=np.int64), sets[done:hi], int(bag_before), bag_before >= rs,
                       0.0, np.ascontiguousarray(kp.values[0]), kp.H, kp.cap, kp.P, kp.eqp[0].copy(), kp.tile_values,
                       int(n_exch), best[done:hi], target[done:hi], keep[done:hi], kc.wmap)
        done = hi
    if done < m:  # out of time: what was checked is a random sample of the candidates
        exact, m = False, done
        sets, ways, best, target, keep = sets[:m], ways[:m], best[:m], target[:m], keep[:m]
    if n_exch == 0:
        played_eq = mv.score + target
    else:
        played_eq = target
    ok = np.isfinite(played_eq) & (best <= played_eq + margin + 1e-9)
    # merge racks that keep the same leave (exchanges of unseen tiles)
    kept = keep[ok]
    w = ways[ok]
    if n_exch and len(w):
        uniq, inv = np.unique(kept, axis=0, return_inverse=True)
        wsum = np.zeros(len(uniq))
        np.add.at(wsum, inv.reshape(-1), w)
        kept, w = uniq, wsum
    order = np.lexsort((np.arange(len(w)), -w))
    return InferenceResult(mv, a, int(k if n_exch == 0 else rs - n_exch), int(bag_before), float(margin), int(m),
                           int(ok.sum()), float(ways.sum()), kept[order].astype(np.int64), w[order].astype(np.float64),
                           pool_l.copy(), bool(exact), int(n_sets))


def _draw_weights(pool: np.ndarray, sets: np.ndarray) -> np.ndarray:
    """float64 (M,): ``prod_c C(pool[c], sets[m, c])``, the ways to draw each multiset from ``pool``."""
    top = int(pool.max()) if len(pool) else 0
    table = np.array([[math.comb(n, r) for r in range(top + 1)] for n in range(top + 1)], dtype=np.float64)
    return table[pool[None, :], sets].prod(axis=1)


def _candidate_sets(pool: np.ndarray, need: np.ndarray, k: int, max_racks: int, samples: int, seed: int):
    """The ``k``-tile multisets ``L`` of ``pool`` with ``L >= need``, weighted by their draws from ``pool``.

    Returns ``(sets int64 (M, T), weights float64 (M,), exact, possible)``: every such
    multiset when there are at most ``max_racks`` (weights ``prod_c C(pool[c], L[c])``, the
    uniform draw conditioned on holding ``need``); else ``samples`` draws of the free part
    from ``pool - need`` (distinct sets, weights = how often drawn times the ratio of the two
    draw counts, so the sample estimates the same conditioned prior).
    """
    from engine.analysis import _inference as KI

    free = pool - need
    kf = k - int(need.sum())
    n_sets = _count_multisets(free, kf)
    if n_sets <= max_racks:
        sets, ways = KI.sub_multisets(np.ascontiguousarray(free, dtype=np.int64), int(kf))
        sets = np.ascontiguousarray(sets + need[None, :], dtype=np.int64)
        if need.any():
            ways = _draw_weights(pool, sets)
        return sets, ways, True, n_sets
    rng = np.random.default_rng(seed)
    tiles = np.repeat(np.arange(free.shape[0], dtype=np.int64), free)
    drawn = np.zeros((samples, free.shape[0]), dtype=np.int64)
    for i in range(samples):
        np.add.at(drawn[i], rng.choice(tiles, size=kf, replace=False), 1)
    part, counts = np.unique(drawn, axis=0, return_counts=True)
    sets = np.ascontiguousarray(part + need[None, :], dtype=np.int64)
    ways = counts.astype(np.float64)
    if need.any():
        ways = ways * _draw_weights(pool, sets) / _draw_weights(free, part)
    return sets, ways, False, n_sets


def _withdrawn_rack(mv: LastMove, a, pool, on, off, bag_now: int, max_racks: int, samples: int,
                    seed: int) -> InferenceResult:
    """The opponent's whole rack right after their withdrawn play ``mv`` (module doc).

    The rack holds the withdrawn tiles and any other tile known to be on it; the rest
    comes from the unseen tiles (less those known not to be on it), weighted by the
    draws. With the bag empty the rack is the unseen tiles.
    """
    need = np.maximum(on, mv.played)
    pool_r = pool - off
    k = a.rack_size if bag_now > 0 else int(pool.sum())
    if (need > pool_r).any() or int(need.sum()) > k or int(pool_r.sum()) < k:
        raise ValueError(f"withdrawn play {mv.notation}: its tiles {a.rack_string(need)} are not among the unseen "
                         f"tiles {a.rack_string(pool_r)}")
    sets, ways, exact, n_sets = _candidate_sets(pool_r, need, k, max_racks, samples, seed)
    order = np.lexsort((np.arange(len(ways)), -ways))
    return InferenceResult(mv, a, int(k), int(bag_now), 0.0, int(len(ways)), int(len(ways)), float(ways.sum()),
                           sets[order], ways[order].astype(np.float64), pool_r.copy(), bool(exact), int(n_sets))


def _count_multisets(pool: np.ndarray, k: int) -> int:
    """Number of ``k``-tile sub-multisets of ``pool`` (a polynomial product, in Python integers)."""
    poly = [1] + [0] * k
    for n in pool.tolist():
        new = [0] * (k + 1)
        for i, v in enumerate(poly):
            if v:
                for j in range(0, min(n, k - i) + 1):
                    new[i + j] += v
        poly = new
    return poly[k]


def _tile_counts(tiles, alphabet) -> np.ndarray:
    """int64 (T,) counts of ``(row, col, LETTER, is_blank)`` tiles (blanks at index 0)."""
    out = np.zeros(alphabet.size + 1, dtype=np.int64)
    for _r, _c, ch, blank in tiles:
        out[0 if blank else alphabet.code(ch)] += 1
    return out


def record_knowledge(record, k: int) -> tuple[np.ndarray, np.ndarray, tuple[str, ...]]:
    """What the record shows the mover of turn ``k`` about the rack the opponent moved from at turn ``k - 1``.

    The opponent's rack at turn ``k - 1`` was last filled by their last play or
    exchange before it (or the first draw). Since then:

    * each of their withdrawn plays put its tiles back on that rack (it holds the
      union of those tiles);
    * the mover's last turn that drew tiles, if it was an exchange with its tiles
      recorded, put those tiles into the bag: they cannot be on that rack. (An earlier
      exchange is not used: the mover's later draw may have taken its tiles back.)

    Returns:
        ``(on_rack, not_on_rack, notes)``: int64 (T,) counts each, and one line per fact.
    """
    from engine.game.game import Kind

    a = record.alphabet
    turns = [t for t in record.turns if t.kind in Kind.TURNS]
    opp = turns[k - 1].player
    j = k - 2
    while j >= 0 and not (turns[j].player == opp and turns[j].kind in (Kind.PLAY, Kind.EXCHANGE)):
        j -= 1
    on = np.zeros(a.size + 1, dtype=np.int64)
    off = np.zeros(a.size + 1, dtype=np.int64)
    notes = []
    mover_draw = None
    for i in range(j + 1, k - 1):
        t = turns[i]
        if t.player == opp and t.kind == Kind.WITHDRAWN:
            w = _tile_counts(t.move.tiles, a)
            on = np.maximum(on, w)
            notes.append(f"turn {i}: their withdrawn play {t.move.notation} put {a.rack_string(w)} back on the rack")
        elif t.player != opp and t.kind in (Kind.PLAY, Kind.EXCHANGE):
            mover_draw = i
    if mover_draw is not None and turns[mover_draw].kind == Kind.EXCHANGE and turns[mover_draw].exchanged:
        off = a.parse_rack(turns[mover_draw].exchanged).astype(np.int64)
        notes.append(f"turn {mover_draw}: your exchange put {a.rack_string(off)} into the bag after their last draw")
    return on, off, tuple(notes)


def from_record(record, turn: int | None = None):
    """What a player sees at turn ``turn`` of a game record, for :func:`infer`.

    Args:
        record: an :class:`engine.game.game.GameRecord` (e.g. :func:`engine.game.gcg.read_gcg_file`), two players.
        turn: the player turn (0-based, as ``gcg --position``) about to be played;
            ``None``: after the last entry.

    Returns:
        ``(position, last_move)``: the position before that turn with the mover's
        rack, the opponent's rack removed and the bag counted (a ``bag``
        opcode), and the opponent's move just before it as a :class:`LastMove`
        (``str()`` gives its notation; an exchange as ``-N``, the mover does not see
        the tiles put back; a withdrawn play of kind ``"withdrawn"``) carrying what
        the record shows about their rack (:func:`record_knowledge`).

    Raises:
        ValueError: not two players, a turn out of range, no turn before it,
            or a previous turn that is a pass (nothing to infer from).
    """
    from dataclasses import replace

    from engine.game.game import Kind

    if record.n_players != 2:
        raise ValueError(f"inference needs a two-player game, this record has {record.n_players} players")
    idx = [i for i, t in enumerate(record.turns) if t.kind in Kind.TURNS]
    k = len(idx) if turn is None else int(turn)
    if not 0 <= k <= len(idx):
        raise ValueError(f"--turn {k}: the game has turns 0..{len(idx)}")
    if k == 0:
        raise ValueError("turn 0: no move was made before it, nothing to infer from")
    prev = record.turns[idx[k - 1]]
    if prev.kind not in (Kind.PLAY, Kind.EXCHANGE, Kind.WITHDRAWN):
        raise ValueError(f"turn {k - 1} is a {prev.kind}: it tells nothing about the tiles kept")
    pos = record.position(k)
    bag = pos.bag_count
    opcodes = dict(pos.opcodes)
    opcodes["bag"] = str(bag)
    pos = replace(pos, opponent_rack=None, opcodes=opcodes)
    on, off, notes = record_knowledge(record, k)
    a = record.alphabet
    if prev.kind == Kind.PLAY:
        last = parse_last_move(pos.board, prev.move.notation)
    elif prev.kind == Kind.EXCHANGE:
        last = parse_last_move(pos.board, f"-{prev.exchange_count}")
    else:
        w = _tile_counts(prev.move.tiles, a)
        last = LastMove("withdrawn", f"{prev.move.notation} (withdrawn)", pos.board.copy(), w, 0, int(w.sum()), True)
        notes = notes + (f"turn {k - 1}: their withdrawn play {prev.move.notation} put {a.rack_string(w)} back on "
                         f"the rack",)
    return pos, replace(last, on_rack=on, not_on_rack=off, known=notes)
