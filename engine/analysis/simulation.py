"""Monte Carlo simulation of candidate moves (the "sim" of Quackle, Macondo and MAGPIE).

For each of the top candidates of a position, many *iterations* are played:
the opponent's rack is drawn at random from the tiles the side to move cannot
see, the candidate is placed, and then ``plies`` more moves are played by
static equity players (by default :mod:`engine.game.equity`: score + leave
value, exchanges included). Every iteration yields a *spread* and a *win* value; the
means over the iterations, with confidence intervals, rank the candidates.
Candidates that are clearly behind are dropped after each batch of
iterations, so the budget goes to the ones still in contention.

The same task function (:func:`run_chunk`) computes whole iterations in this
process (``backend="local"``), in a pool of worker processes
(``"process"``) or on a Ray cluster (``"ray"``, :mod:`engine.analysis._sim_ray`).
Each iteration's random numbers come from its own
``numpy.random.SeedSequence((seed, stream, iteration))``, results are stored
by (candidate, iteration) and reduced in index order, so one seed gives
bit-identical numbers whatever the backend, the number of workers or the
order in which tasks finish.

Definitions (see ``docs/simulation.md`` for the long form):

* **iteration**: opponent rack and bag order drawn from the unseen tiles;
  the candidate is played and the mover draws; then ``plies`` moves follow,
  opponent first, alternating; the game may end inside (a player goes out
  with the bag empty, or four passes in a row).
* **spread** of an iteration: points the side to move gained minus points
  the opponent gained during the iteration (the candidate's score included;
  end-of-game rack settlement included when the game ended), plus the leave
  value of the side to move's last leave minus that of the opponent's last
  leave (the "leftover"; only when the game did not end and a leave function
  is used). With ``plies=0`` and no game end this is the static equity.
* **win** of an iteration: if the game ended, 1 / 0.5 / 0 by the final score
  (the CGP's scores plus what happened); otherwise the :class:`WinModel`
  probability of winning from the final lead (CGP lead + spread) with the
  tiles still off the board.

Example::

    from engine.position.cgp import parse_cgp
    from engine.analysis.simulation import simulate
    res = simulate(parse_cgp(cgp), lexicon, n_candidates=10, plies=2, iterations=2000, seed=1, workers=2)
    print(res.format())
"""

from __future__ import annotations

import math
import os
import sys
import time
import uuid
from dataclasses import dataclass, field
from statistics import NormalDist
from pathlib import Path
from typing import Callable, Iterator, Sequence

import numpy as np

from lexicon_tools.alphabet import BLANK, Alphabet

from engine.position.board import Board, Layout
from engine.position.cgp import Position
from engine.interrupt import on_ctrl_c
from engine.position.moves import Move

__all__ = [
    "WinModel",
    "WinTable",
    "DEFAULT_WIN_MODEL",
    "CandidateResult",
    "SimResult",
    "SimContext",
    "SimMove",
    "SimPool",
    "LeavePlayer",
    "EquityPlayer",
    "simulate",
    "iteration_rng",
    "run_chunk",
    "normal_interval",
    "wilson_interval",
    "prepare_candidates",
]

LeaveValue = Callable[[np.ndarray], float]

_SEED_MASK = 0xFFFFFFFFFFFFFFFF
_PHI = NormalDist()


# ---------------------------------------------------------------------------
# Statistics
# ---------------------------------------------------------------------------
def _z(confidence: float) -> float:
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence}")
    return _PHI.inv_cdf(0.5 + confidence / 2.0)


def normal_interval(values: np.ndarray, confidence: float = 0.95) -> tuple[float, float, float, float]:
    """Mean, standard error and the normal-approximation confidence interval of a sample.

    Returns:
        ``(mean, stderr, low, high)``; the standard error uses the sample
        standard deviation (``ddof=1``) and is ``inf`` for fewer than 2 values
        (``nan`` mean for none). A sample with no spread has ``stderr == 0``
        and ``low == high == mean``.
    """
    v = np.asarray(values, dtype=np.float64)
    n = v.shape[0]
    if n == 0:
        return math.nan, math.inf, -math.inf, math.inf
    mean = float(v.mean())
    if n < 2:
        return mean, math.inf, -math.inf, math.inf
    se = float(v.std(ddof=1)) / math.sqrt(n)
    h = _z(confidence) * se
    return mean, se, mean - h, mean + h


def wilson_interval(successes: float, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a proportion ``successes / n``.

    ``successes`` may be fractional (draws count half, unfinished games their
    modelled win probability); the interval is then the Wilson interval of
    that mean. ``(0.0, 1.0)`` for ``n == 0``.
    """
    if n <= 0:
        return 0.0, 1.0
    z = _z(confidence)
    p = min(1.0, max(0.0, successes / n))
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1.0 - p) / n + z2 / (4 * n * n)) / denom
    lo = 0.0 if p == 0.0 else max(0.0, centre - half)
    hi = 1.0 if p == 1.0 else min(1.0, centre + half)
    return lo, hi


# ---------------------------------------------------------------------------
# Win probability of an unfinished game
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class WinModel:
    """Probability of winning an unfinished game from the lead and the tiles left.

    The rest of the game's spread is modelled as normal: the player on turn
    gains ``turn_bonus(T) = min(turn_bonus, turn_bonus_per_tile * T)`` points on
    average, and the variance is ``var_per_tile * T + var_per_tile2 * T**2``,
    where ``T`` is the number of tiles not on the board (bag and both racks).
    So ``P(win) = Phi((lead ± turn_bonus(T)) / sigma(T))`` (+ when the player
    whose lead it is is on turn, − otherwise).

    The defaults were fitted to 41,922 positions of 1,500 self-play games of
    static best-score players on the 300,579-word golden list (final spread
    minus current spread of the player to move: mean 7 points for ``T <= 7``,
    13-17 above; variance / T from 53 at the end to 80 at the start).
    """

    var_per_tile: float = 52.0
    var_per_tile2: float = 0.335
    turn_bonus: float = 15.0
    turn_bonus_per_tile: float = 1.5

    def probability(self, lead: float, tiles_left: int, on_turn: bool) -> float:
        """P(win) for the player ``lead`` points ahead (negative: behind), draws counted half."""
        t = max(int(tiles_left), 0)
        bonus = min(self.turn_bonus, self.turn_bonus_per_tile * t)
        mu = lead + (bonus if on_turn else -bonus)
        var = self.var_per_tile * t + self.var_per_tile2 * t * t
        if var <= 0.0:
            return 1.0 if mu > 0 else (0.5 if mu == 0 else 0.0)
        return 0.5 * (1.0 + math.erf(mu / math.sqrt(2.0 * var)))


WIN_TABLE_PATH = Path(__file__).resolve().parents[1] / "data" / "winpct-german.json"


@dataclass(frozen=True, eq=False)
class WinTable:
    """Win probability of an unfinished game from a table made by our own self-play.

    ``p[T, k]`` = P(the player on turn wins | its lead = ``lead_min + k·lead_step``,
    ``T`` tiles not on the board (bag and both racks)); draws count ½. The
    packaged table (``engine/data/winpct-german.json``) comes from
    ``scripts/make_win_table.py``: kernel self-play between static equity
    players on the default lexicon, a logistic curve in the lead per ``T``
    fitted to the positions with tile counts near ``T`` (the JSON says how
    many games, the seed and the fit). Leads between grid points are
    interpolated linearly; beyond the grid and the tile range the nearest
    entry is used. Same ``probability`` interface as :class:`WinModel`.
    """

    p: np.ndarray
    lead_min: float
    lead_step: float
    source: str = ""

    @classmethod
    def load(cls, path: str | Path | None = None) -> "WinTable":
        """Read a table JSON (default: the packaged one).

        Raises:
            ValueError: a file that is not such a table (missing fields, ragged grid, values outside 0..1).
        """
        import json

        path = Path(path) if path is not None else WIN_TABLE_PATH
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            p = np.asarray(data["p"], dtype=np.float64)
            lead_min, step = float(data["lead_min"]), float(data["lead_step"])
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"win table {path}: not readable as a win table ({exc})") from None
        if p.ndim != 2 or p.shape[0] < 1 or p.shape[1] < 2 or step <= 0 or not ((p >= 0) & (p <= 1)).all():
            raise ValueError(f"win table {path}: the grid must be T x leads with values in 0..1")
        return cls(p, lead_min, step, str(data.get("made_by", path.name)))

    def on_turn(self, lead: float, tiles_left: int) -> float:
        """P(win) of the player on turn ``lead`` points ahead with ``tiles_left`` tiles not on the board."""
        row = self.p[min(max(int(tiles_left), 0), self.p.shape[0] - 1)]
        x = (float(lead) - self.lead_min) / self.lead_step
        if x <= 0:
            return float(row[0])
        if x >= row.shape[0] - 1:
            return float(row[-1])
        k = int(x)
        f = x - k
        return float(row[k] * (1.0 - f) + row[k + 1] * f)

    def probability(self, lead: float, tiles_left: int, on_turn: bool) -> float:
        """P(win) for the player ``lead`` points ahead (negative: behind); ``on_turn``: it moves next.

        With the bag and racks empty (``tiles_left`` 0) the game is decided: 1, ½ or 0 by the lead.
        """
        if int(tiles_left) <= 0:
            return 1.0 if lead > 0 else (0.5 if lead == 0 else 0.0)
        return self.on_turn(lead, tiles_left) if on_turn else 1.0 - self.on_turn(-lead, tiles_left)


def _default_win_model():
    try:
        return WinTable.load()
    except ValueError:  # pragma: no cover - the packaged table is part of the package
        return WinModel()


DEFAULT_WIN_MODEL = _default_win_model()
"""The win model used unless ``simulate(win_model=...)`` says otherwise: the packaged
self-play :class:`WinTable` (:class:`WinModel`, the older spread-only normal model, if it is missing)."""


# ---------------------------------------------------------------------------
# Static players
# ---------------------------------------------------------------------------
PLAY, EXCHANGE, PASS = "play", "exchange", "pass"


@dataclass(frozen=True)
class SimMove:
    """A candidate or a simulated player's decision.

    Attributes:
        kind: ``"play"``, ``"exchange"`` or ``"pass"``.
        move: the placement for plays (:class:`~engine.position.moves.Move`), else ``None``.
        exchanged: the tiles put back for exchanges (rack string, ``?`` = blank).
        leave: the tiles kept (rack string).
        equity: static equity when the candidate list was ranked by one, else ``None``.
    """

    kind: str
    move: Move | None = None
    exchanged: str = ""
    leave: str = ""
    equity: float | None = None

    @property
    def score(self) -> int:
        return self.move.score if self.move is not None else 0

    @property
    def notation(self) -> str:
        """``8H WO(R)D``; ``-ABC`` for an exchange (GCG style); ``-`` for a pass."""
        if self.kind == PLAY:
            return self.move.notation
        return f"-{self.exchanged}" if self.kind == EXCHANGE else "-"


class LeavePlayer:
    """The default static player: the placement with the best score + ``leave_value(leave)``.

    ``leave_value=None`` is the pure score player of :mod:`engine.game.selfplay`
    (ties by notation). Without a placement the player exchanges its whole
    rack while the bag holds at least 7 tiles, else passes. The leave term of
    a move (for the spread's leftover) is ``leave_value(leave)``, whatever the
    bag holds. Picklable when ``leave_value`` is (for the ``process`` backend:
    a module-level function or an object such as :class:`engine.leaves.table.LeaveTable`).
    """

    def __init__(self, leave_value: LeaveValue | None = None):
        self.leave_value = leave_value

    def candidates(self, position: Position, lexicon, n: int, bag: int) -> list[SimMove]:
        from engine.movegen.generator import best_moves

        return [SimMove(PLAY, m, leave=m.leave, equity=m.equity)
                for m in best_moves(position.board, position.rack, lexicon, n, leave_value=self.leave_value)]

    def decide(self, st: "_State", board: Board, checks, rack: np.ndarray, bag: int, opp_value: int):
        """``(kind, placements, score, exchanged_counts)`` for the rack to move."""
        from engine.movegen.generator import best_move_list, best_moves

        if self.leave_value is None:
            # the score player: the same move as best_moves(..., 1), read straight from the
            # generator's rows unless several moves share the top score (then ties by notation)
            ml = best_move_list(board, rack, st.lexicon, 1, checks)
            if len(ml):
                sc = ml.scores
                top = int(sc.max())
                hits = np.flatnonzero(sc == top)
                if hits.shape[0] == 1:
                    return PLAY, _row_placements(ml.rows[int(hits[0])]), top, None
                m = ml.top(1)[0]
                code = st.code
                return PLAY, [(r, c, code[ch], b) for r, c, ch, b in m.tiles], m.score, None
        else:
            moves = best_moves(board, rack, st.lexicon, 1, checks, self.leave_value)
            if moves:
                m = moves[0]
                code = st.code
                return PLAY, [(r, c, code[ch], b) for r, c, ch, b in m.tiles], m.score, None
        if bag >= st.ctx.min_bag_exchange and rack.any():
            return EXCHANGE, None, 0, rack.copy()
        return PASS, None, 0, None

    def leave_term(self, leave: np.ndarray, bag: int, opp_value: int) -> float:
        """Value of a leave kept with ``bag`` tiles in the bag before the move."""
        return 0.0 if self.leave_value is None else float(self.leave_value(leave))


class EquityPlayer:
    """A static player using :mod:`engine.game.equity`: score + bag-aware leave term, exchanges included.

    Each decision is ``engine.game.equity.best_equity(board, rack, lexicon, bag=...,
    n=1, table=..., bonus=...)`` (the going-out bonus, with an empty bag, is
    twice the opponent's rack); the leftover uses ``engine.game.equity.leave_term``
    with the same bag and bonus. ``table=None`` loads the packaged table
    (``engine.leaves.table.default_table()``) in each worker.
    """

    def __init__(self, table=None, params=None):
        self.table = table
        self.params = params
        self._loaded = table

    def __getstate__(self):
        return {"table": self.table, "params": self.params}

    def __setstate__(self, state):
        self.table, self.params = state["table"], state["params"]
        self._loaded = self.table

    def _table(self):
        if self._loaded is None:
            from engine.leaves.table import default_table

            self._loaded = default_table()
        return self._loaded

    def candidates(self, position: Position, lexicon, n: int, bag: int) -> list[SimMove]:
        from engine.game.equity import best_equity, out_bonus

        bonus = out_bonus(position.board, position.rack, position.unseen()) if bag <= 0 else 0.0
        out = []
        for c in best_equity(position.board, position.rack, lexicon, bag=bag, n=n, table=self._table(),
                             bonus=bonus, params=self.params):
            out.append(_from_candidate(c))
        return out

    def decide(self, st: "_State", board: Board, checks, rack: np.ndarray, bag: int, opp_value: int):
        from engine.game.equity import best_equity

        c = best_equity(board, rack, st.lexicon, bag=bag, n=1, table=self._table(), checks=checks,
                        bonus=2.0 * opp_value if bag <= 0 else 0.0, params=self.params,
                        exchanges=bag >= st.ctx.min_bag_exchange)[0]
        if c.kind == PLAY:
            code = st.code
            return PLAY, [(r, col, code[ch], b) for r, col, ch, b in c.move.tiles], c.move.score, None
        if c.kind == EXCHANGE:
            return EXCHANGE, None, 0, _tile_counts(c.exchanged, st.ctx.alphabet)
        return PASS, None, 0, None

    def leave_term(self, leave: np.ndarray, bag: int, opp_value: int) -> float:
        from engine.game.equity import leave_term

        return float(leave_term(self._table(), leave, bag, 2.0 * opp_value if bag <= 0 else 0.0, self.params))


def _row_placements(row: np.ndarray) -> list[tuple[int, int, int, bool]]:
    """Placed tiles ``(row, col, code, is_blank)`` of one generator output row (layout in :mod:`engine.movegen._movegen`)."""
    from engine.movegen import _movegen as K

    r0, c0, d, n = int(row[K.OUT_ROW]), int(row[K.OUT_COL]), int(row[K.OUT_DIR]), int(row[K.OUT_LEN])
    dr, dc = (0, 1) if d == 0 else (1, 0)
    out = []
    for k in range(n):
        t = int(row[K.OUT_TILES + k])
        if t:
            out.append((r0 + dr * k, c0 + dc * k, t & ~K.BLANK_FLAG, bool(t & K.BLANK_FLAG)))
    return out


def _tile_counts(text: str, alphabet: Alphabet) -> np.ndarray:
    counts = np.zeros(alphabet.size + 1, dtype=np.int32)
    for ch in text:
        counts[BLANK if ch == "?" else alphabet.code(ch.upper())] += 1
    return counts


def _from_candidate(c) -> SimMove:
    """A :class:`SimMove` from an ``engine.game.equity.Candidate`` (duck-typed: kind, move, exchanged, leave, equity)."""
    kind = getattr(c, "kind")
    if kind not in (PLAY, EXCHANGE, PASS):
        raise ValueError(f"unknown candidate kind {kind!r}")
    eq = getattr(c, "equity", None)
    return SimMove(kind, getattr(c, "move", None) if kind == PLAY else None, getattr(c, "exchanged", "") or "",
                   getattr(c, "leave", "") or "", None if eq is None else float(eq))


# ---------------------------------------------------------------------------
# The task: whole iterations for one candidate
# ---------------------------------------------------------------------------
@dataclass
class SimContext:
    """Everything a worker needs to run iterations, as plain picklable data.

    Built once per :func:`simulate` call; shipped once to each worker (pool
    initializer, Ray object store) and cached there by ``key``.

    Attributes:
        key: unique id of this simulation (worker-side cache key).
        lexicon_path: where workers load the lexicon from (memory-mapped).
        alphabet, layout: tile set and board layout.
        tiles, blanks: the board (uint8 / bool (15, 15)).
        rack: int32 counts of the side to move.
        pool: int32 counts of the tiles the opponent's rack and the bag are drawn from.
        opponent_rack: int32 counts when the opponent's rack is taken as known, else ``None``.
        scores: the CGP's (side to move, opponent) scores.
        candidates: per candidate ``(kind, placements, score, exchanged_counts)``,
            placements ``((row, col, code, is_blank), ...)`` for plays.
        plies: moves played after the candidate.
        seed: the run's seed (non-negative int).
        common_random_numbers: iteration ``i`` draws the same racks for every candidate.
        player: the static player (:class:`LeavePlayer`, :class:`EquityPlayer` or alike).
        win_model: the :class:`WinModel` of unfinished games.
        min_bag_exchange: exchanges need this many tiles in the bag (7).
        end_passes: consecutive passes that end the game (2 rounds of 2 players).
    """

    key: str
    lexicon_path: str | None
    alphabet: Alphabet
    layout: Layout
    tiles: np.ndarray
    blanks: np.ndarray
    rack: np.ndarray
    pool: np.ndarray
    opponent_rack: np.ndarray | None
    scores: tuple[int, int]
    candidates: tuple
    plies: int
    seed: int
    common_random_numbers: bool = True
    player: object = None
    win_model: object = DEFAULT_WIN_MODEL
    min_bag_exchange: int = 7
    end_passes: int = 4
    opponent_leaves: tuple | None = None


def _draw_bag(ctx: SimContext, st: "_State", rng: np.random.Generator) -> np.ndarray:
    """The bag order of one iteration: int64 (pool size,) tile codes, the opponent's rack drawn from the front.

    Without ``ctx.opponent_leaves``: a uniform permutation of the pool. With it
    (``(leaves int32 (K, T), cumulative probabilities (K,))`` from
    :meth:`engine.analysis.inference.InferenceResult.sampler`): one leave is drawn by its
    probability and put first, the rest of the pool follows in a uniform random
    order, so the opponent's rack is the inferred leave plus tiles drawn at random.
    """
    if ctx.opponent_leaves is None:
        return rng.permutation(st.pool)
    leaves, cum = ctx.opponent_leaves
    i = min(int(np.searchsorted(cum, rng.random(), side="right")), leaves.shape[0] - 1)
    leave = leaves[i].astype(np.int64)
    kept = np.repeat(np.arange(leave.shape[0], dtype=np.int64), leave)
    rest = np.repeat(np.arange(leave.shape[0], dtype=np.int64), ctx.pool.astype(np.int64) - leave)
    return np.concatenate((kept, rng.permutation(rest)))


def iteration_rng(seed: int, stream: int, iteration: int) -> np.random.Generator:
    """The random generator of one iteration: PCG64 seeded by ``SeedSequence([seed, stream, iteration])``.

    ``stream`` is 0 for common random numbers (all candidates see the same
    racks in iteration ``i``), else the candidate index + 1.
    """
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence([int(seed) & _SEED_MASK, stream, iteration])))


class _State:
    """A worker's prepared copy of a :class:`SimContext`: lexicon, board, cross-checks."""

    def __init__(self, ctx: SimContext, lexicon=None):
        from engine.movegen.generator import CrossChecks

        if lexicon is None:
            from lexicon_tools.bundle import Lexicon

            if ctx.lexicon_path is None:
                raise ValueError("the lexicon has no path: workers cannot load it")
            lexicon = Lexicon.load(ctx.lexicon_path, ctx.alphabet)
        self.ctx = ctx
        self.lexicon = lexicon
        board = Board(ctx.alphabet, ctx.layout)
        board.tiles[:] = ctx.tiles
        board.blanks[:] = ctx.blanks
        self.board = board
        self.checks = CrossChecks(board, lexicon)
        self.pool = np.repeat(np.arange(ctx.pool.shape[0], dtype=np.int64), ctx.pool)
        self.values = ctx.alphabet.values.astype(np.int64)
        self.code = {ch: i + 1 for i, ch in enumerate(ctx.alphabet.letters)}
        self.size = ctx.alphabet.size + 1
        self.rack_size = ctx.alphabet.rack_size
        self.player = ctx.player if ctx.player is not None else LeavePlayer()
        self.kernel = _KernelRollouts(self, lexicon) if _kernel_kind(self.player) is not None else None


def _kernel_kind(player) -> int | None:
    """The kernel player kind of a static player the rollout kernel can play, else ``None``.

    :class:`LeavePlayer` without a leave function (best score) and
    :class:`EquityPlayer` (exactly these classes, not subclasses) run in
    :func:`engine.game._kgame.sim_rollouts`; any other player runs in Python.
    """
    from engine.game import _kgame as KG

    if type(player) is LeavePlayer and player.leave_value is None:
        return KG.PLAYER_SCORE
    if type(player) is EquityPlayer:
        return KG.PLAYER_EQUITY
    return None


class _KernelRollouts:
    """The arrays of :func:`engine.game._kgame.sim_rollouts` for one simulation (made once per worker)."""

    def __init__(self, st: "_State", lexicon):
        from engine.game import _kgame as KG
        from engine.game.kernel_game import KernelConstants

        ctx = st.ctx
        self.kind = _kernel_kind(st.player)
        c = self.consts = KernelConstants(lexicon, ctx.alphabet, ctx.layout)
        b = st.board
        self.tiles = b.tiles.copy()
        self.blanks = b.blanks.astype(np.uint8)
        self.tvals = b.tile_values()
        self.lm, self.wm = b.open_premiums()
        self.cs, self.xs, self.hx = st.checks.cs, st.checks.xs, st.checks.hx
        self.rack = ctx.rack.astype(np.int64)
        known = ctx.opponent_rack is not None
        self.known = known
        self.opp = ctx.opponent_rack.astype(np.int64) if known else np.zeros_like(self.rack)
        if self.kind == KG.PLAYER_EQUITY:
            from engine.game.equity import EquityParams

            table = st.player._table()
            ep = st.player.params or EquityParams.of(table)
            self.values = np.asarray(table.values, dtype=np.float32)
            self.H, self.cap, self.tile_values = table.index.H, table.index.cap, table.index.tile_values
            self.eqp = np.array([ep.bag_ramp, ep.bag_floor, ep.stuck_penalty, ep.seven], dtype=np.float64)
        else:
            from engine.leaves.table import leave_index

            idx = leave_index(ctx.alphabet)
            self.values = np.zeros(1, dtype=np.float32)
            self.H, self.cap, self.tile_values = idx.H, idx.cap, idx.tile_values
            self.eqp = np.zeros(4)
        self.P = KG.rank_prefix(self.H, self.cap)
        self.cands = []
        for kind, placements, score, out in ctx.candidates:
            pl = np.zeros((7, 3), dtype=np.int64)
            put = np.zeros(self.rack.shape[0], dtype=np.int64)
            n = 0
            if kind == PLAY:
                for r, col, t, blank in placements:
                    pl[n] = (r, col, int(t) | (KG.BLANK_FLAG if blank else 0))
                    n += 1
                dec = KG.DEC_PLAY
            elif kind == EXCHANGE:
                put[:] = out
                dec = KG.DEC_EXCHANGE
            else:
                dec = KG.DEC_PASS
            self.cands.append((dec, pl, n, int(score), put))

    def run(self, st: "_State", cand: int, start: int, stop: int) -> np.ndarray:
        from engine.game import _kgame as KG

        ctx = st.ctx
        stream = 0 if ctx.common_random_numbers else cand + 1
        n = stop - start
        perms = np.empty((n, st.pool.shape[0]), dtype=np.int64)
        for k in range(n):
            perms[k] = _draw_bag(ctx, st, iteration_rng(ctx.seed, stream, start + k))
        res = np.zeros((n, 5))
        c = self.consts
        dec, pl, npl, score, put = self.cands[cand]
        KG.sim_rollouts(c.kwg, c.vals, c.all_mask, c.rack_size, c.bingo_bonus, c.upper, c.lower,
                        self.tiles, self.blanks, self.tvals, self.lm, self.wm, self.cs, self.xs, self.hx,
                        self.rack, self.opp, self.known, perms, np.arange(start, stop, dtype=np.int64),
                        np.uint64(ctx.seed & _SEED_MASK), stream, dec, pl, npl, score, put, ctx.plies,
                        self.kind, self.values, self.H, self.cap, self.P, self.eqp, self.tile_values,
                        ctx.min_bag_exchange, ctx.end_passes, res, c.wmap)
        out = np.empty((n, 2), dtype=np.float64)
        lead0 = ctx.scores[0] - ctx.scores[1]
        model = ctx.win_model
        for k, (raw, spread, over, tiles_left, on_turn) in enumerate(res.tolist()):
            if over:
                lead = lead0 + raw
                out[k] = (raw, 1.0 if lead > 0 else (0.5 if lead == 0 else 0.0))
            else:
                out[k] = (spread, model.probability(lead0 + spread, int(tiles_left), on_turn == 1.0))
        return out


_STATES: dict[str, _State] = {}
_MAX_STATES = 4


def _state(ctx: SimContext, lexicon=None) -> _State:
    st = _STATES.get(ctx.key)
    if st is None:
        while len(_STATES) >= _MAX_STATES:
            _STATES.pop(next(iter(_STATES)))
        st = _STATES[ctx.key] = _State(ctx, lexicon)
    return st


def run_chunk(ctx: SimContext, cand: int, start: int, stop: int, lexicon=None, kernel: bool = True) -> np.ndarray:
    """Run iterations ``start .. stop-1`` of candidate ``cand``: the task every backend runs.

    The best-score and equity players (:class:`LeavePlayer` ``()``,
    :class:`EquityPlayer`) run whole batches of iterations in one kernel call
    (:func:`engine.game._kgame.sim_rollouts`); other players, or ``kernel=False``,
    run the same iterations move by move in Python (same numbers).

    Args:
        ctx: the simulation (cached per process by ``ctx.key``).
        cand: candidate index into ``ctx.candidates``.
        start, stop: iteration indices (each has its own RNG, :func:`iteration_rng`).
        lexicon: the loaded lexicon (in-process runs); ``None`` loads ``ctx.lexicon_path``.
        kernel: use the rollout kernel when the player allows it.

    Returns:
        float64 ``(stop - start, 2)``: per iteration the spread and the win value.
    """
    st = _state(ctx, lexicon)
    if st.kernel is not None and kernel:
        return st.kernel.run(st, cand, start, stop)
    out = np.empty((stop - start, 2), dtype=np.float64)
    for k, it in enumerate(range(start, stop)):
        out[k] = _iteration(st, cand, it)
    return out


def _iteration(st: _State, cand: int, it: int) -> tuple[float, float]:
    """One iteration of one candidate: ``(spread, win)`` (module docstring)."""
    ctx = st.ctx
    from engine.game import _kgame

    stream = 0 if ctx.common_random_numbers else cand + 1
    rng = iteration_rng(ctx.seed, stream, it)
    bag = _draw_bag(ctx, st, rng)
    xstate = np.array([_kgame.sim_seed(np.uint64(ctx.seed & _SEED_MASK), stream, it)], dtype=np.uint64)
    size, rack_size, values = st.size, st.rack_size, st.values
    if ctx.opponent_rack is None:
        k = min(rack_size, bag.shape[0])
        opp = np.bincount(bag[:k], minlength=size).astype(np.int32)
        bp = k
    else:
        opp = ctx.opponent_rack.copy()
        bp = 0
    nbag = bag.shape[0]
    board = st.board.copy()
    checks = st.checks.copy()
    racks = [ctx.rack.copy(), opp]
    pts = [0, 0]
    last: list = [None, None]  # per player: (leave, bag before the move, opponent's rack value)
    player_obj = st.player
    passes = 0
    over = False

    kind, placements, score, out = ctx.candidates[cand]
    who = 0
    for ply in range(ctx.plies + 1):
        rack = racks[who]
        left = nbag - bp
        opp_value = int(np.dot(racks[1 - who], values)) if left == 0 else 0
        if ply:
            kind, placements, score, out = player_obj.decide(st, board, checks, rack, left, opp_value)
        if kind == PLAY:
            board.place(placements)
            checks.update(board, placements)
            for _r, _c, t, b in placements:
                rack[BLANK if b else t] -= 1
            last[who] = (rack.copy(), left, opp_value)
            pts[who] += score
            passes = 0
            need = rack_size - int(rack.sum())
            if need > 0 and bp < nbag:
                take = bag[bp:bp + need]
                bp += take.shape[0]
                for t in take:
                    rack[t] += 1
            if bp >= nbag and not rack.any():
                v = int(np.dot(racks[1 - who], values))
                pts[who] += v
                pts[1 - who] -= v
                over = True
                break
        elif kind == EXCHANGE:
            # new tiles are drawn first, then the old ones go back and the bag is mixed
            n = int(out.sum())
            new = bag[bp:bp + n]
            back = np.repeat(np.arange(size, dtype=np.int64), out)
            rest = np.concatenate((bag[bp + n:], back))
            _kgame.shuffle_tiles(rest, rest.shape[0], xstate)
            bag, bp, nbag = rest, 0, rest.shape[0]
            rack -= out
            last[who] = (rack.copy(), left, opp_value)
            for t in new:
                rack[t] += 1
            passes = 0
        else:
            last[who] = (rack.copy(), left, opp_value)
            passes += 1
            if passes >= ctx.end_passes:
                pts[0] -= int(np.dot(racks[0], values))
                pts[1] -= int(np.dot(racks[1], values))
                over = True
                break
        who = 1 - who

    raw = pts[0] - pts[1]
    lead = ctx.scores[0] - ctx.scores[1] + raw
    if over:
        return float(raw), (1.0 if lead > 0 else (0.5 if lead == 0 else 0.0))
    spread = float(raw)
    for p, sign in ((0, 1.0), (1, -1.0)):
        if last[p] is not None:
            spread += sign * player_obj.leave_term(*last[p])
    tiles_left = (nbag - bp) + int(racks[0].sum()) + int(racks[1].sum())
    # after the loop ``who`` is the player on turn
    win = ctx.win_model.probability(ctx.scores[0] - ctx.scores[1] + spread, tiles_left, who == 0)
    return spread, win


# ---------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------
@dataclass
class CandidateResult:
    """One candidate's statistics.

    Attributes:
        index: position in the candidate list (0 = best by static equity).
        candidate: the :class:`SimMove` (kind, placement or exchanged tiles, leave, static equity).
        iterations: iterations run.
        mean_spread: mean spread (module docstring, ``docs/simulation.md``).
        stderr: its standard error (sample sd / sqrt(n)).
        ci: ``(low, high)`` normal-approximation interval of the mean at the run's ``confidence``.
        win_rate: mean win value (draws 0.5, unfinished games the model's probability).
        win_ci: Wilson interval of the win rate at the run's ``confidence``.
        pruned_at: iterations done when the candidate was dropped as clearly
            behind (``None``: kept to the end).
        spreads, wins: the per-iteration values in iteration order.
    """

    index: int
    candidate: SimMove
    iterations: int
    mean_spread: float
    stderr: float
    ci: tuple[float, float]
    win_rate: float
    win_ci: tuple[float, float]
    pruned_at: int | None = None
    spreads: np.ndarray = field(default=None, repr=False)
    wins: np.ndarray = field(default=None, repr=False)

    @property
    def move(self) -> Move | None:
        """The placement (``None`` for an exchange or a pass)."""
        return self.candidate.move

    @property
    def notation(self) -> str:
        """``8H WO(R)D``, ``-ABC`` (exchange) or ``-`` (pass)."""
        return self.candidate.notation

    def to_dict(self) -> dict:
        """JSON-ready figures (samples left out)."""
        def r(x):
            return None if not math.isfinite(x) else round(float(x), 4)

        c = self.candidate
        return {
            "move": c.notation,
            "kind": c.kind,
            "score": c.score,
            "leave": c.leave,
            "equity": None if c.equity is None else round(float(c.equity), 4),
            "iterations": self.iterations,
            "mean_spread": r(self.mean_spread),
            "stderr": r(self.stderr),
            "ci": [r(self.ci[0]), r(self.ci[1])],
            "win_rate": r(self.win_rate),
            "win_ci": [r(self.win_ci[0]), r(self.win_ci[1])],
            "pruned_at": self.pruned_at,
        }


@dataclass
class SimResult:
    """The outcome of :func:`simulate`.

    Attributes:
        candidates: per candidate, in the order simulated (index order).
        seed, plies, iterations (budget per candidate), confidence,
        backend, workers, batch_size: the run's settings.
        stop_reason: ``"one left"`` (the others were clearly behind),
            ``"budget"`` (every survivor ran ``iterations``), ``"time"`` (``time_limit``),
            ``"interrupted"`` (Ctrl-C in the main thread: the batches done so far; also when that batch ended
            the run anyway, so that the caller sees the Ctrl-C),
            ``"single candidate"``.
        seconds: wall time of the iterations (worker start-up included).
        total_iterations: iterations run over all candidates.
    """

    candidates: list[CandidateResult]
    seed: int
    plies: int
    iterations: int
    confidence: float
    backend: str
    workers: int
    batch_size: int
    stop_reason: str
    seconds: float
    total_iterations: int
    rank_by: str = "spread"

    @property
    def iterations_per_second(self) -> float:
        """Iterations per second of wall time (all workers together)."""
        return self.total_iterations / self.seconds if self.seconds > 0 else 0.0

    def ranked(self) -> list[CandidateResult]:
        """Candidates best first: the ones never dropped first, then by mean spread
        (``rank_by="win"``: by win rate, then mean spread), then by index."""
        if self.rank_by == "win":
            key = lambda c: (c.pruned_at is not None, -c.win_rate, -c.mean_spread, c.index)  # noqa: E731
        else:
            key = lambda c: (c.pruned_at is not None, -c.mean_spread, c.index)  # noqa: E731
        return sorted(self.candidates, key=key)

    @property
    def best(self) -> CandidateResult:
        """The top candidate of :meth:`ranked`."""
        return self.ranked()[0]

    def to_dict(self) -> dict:
        """JSON-ready summary, candidates ranked."""
        return {
            "seed": self.seed,
            "plies": self.plies,
            "iterations": self.iterations,
            "confidence": self.confidence,
            "backend": self.backend,
            "workers": self.workers,
            "stop_reason": self.stop_reason,
            "total_iterations": self.total_iterations,
            "seconds": round(self.seconds, 3),
            "iterations_per_second": round(self.iterations_per_second, 1),
            "candidates": [c.to_dict() for c in self.ranked()],
        }

    def format(self) -> str:
        """A text table, best first."""
        from engine.lang import num, tr  # the text in the run's language (the CLI's --lang)

        pct = round(self.confidence * 100)
        head = (f"{tr('move'):<24} {tr('score'):>5} {tr('leave'):<8} {tr('iters'):>6} {tr('spread'):>8} {'±se':>6} "
                f"{tr('{pct}% CI', pct=pct):>17} {tr('win%'):>6} {tr('win {pct}% CI', pct=pct):>15}")
        lines = [head, "-" * len(head)]
        for c in self.ranked():
            mark = "" if c.pruned_at is None else tr("  (dropped at {n})", n=c.pruned_at)
            lines.append(
                f"{c.notation:<24} {c.candidate.score:>5} {c.candidate.leave or '-':<8} {c.iterations:>6} "
                f"{num(c.mean_spread, '>8.2f')} {num(c.stderr, '>6.2f')} "
                + tr("[{lo:>7.2f},{hi:>7.2f}]", lo=c.ci[0], hi=c.ci[1])
                + f" {num(100 * c.win_rate, '>6.1f')} "
                + tr("[{lo:>5.1f},{hi:>5.1f}]", lo=100 * c.win_ci[0], hi=100 * c.win_ci[1]) + mark)
        lines.append(tr("# seed {seed}, {plies} plies, {n} iterations in {s:.2f} s ({rate:.0f}/s, {backend} x{workers}); "
                        "stopped: {why}", seed=self.seed, plies=self.plies, n=self.total_iterations, s=self.seconds,
                        rate=self.iterations_per_second, backend=self.backend, workers=self.workers,
                        why=tr(self.stop_reason)))
        return "\n".join(lines)


# ---------------------------------------------------------------------------
# Backends
# ---------------------------------------------------------------------------
Chunk = tuple[int, int, int]  # (candidate, start, stop)


class _LocalRunner:
    def __init__(self, ctx: SimContext, lexicon):
        self.ctx, self.lexicon = ctx, lexicon

    def run(self, chunks: Sequence[Chunk]) -> Iterator[tuple[Chunk, np.ndarray]]:
        for ch in chunks:
            yield ch, run_chunk(self.ctx, *ch, lexicon=self.lexicon)

    def close(self) -> None:
        _STATES.pop(self.ctx.key, None)


def _pool_warm() -> None:
    from engine.interrupt import worker_process

    worker_process()  # Ctrl-C is the parent's (it stops after the batch: simulate); exit when the parent dies
    from engine.movegen import generator  # noqa: F401  (imports numpy, numba and the kernels' module once per worker)


def _pool_task(args) -> tuple[Chunk, np.ndarray]:
    path, key, chunk = args
    st = _STATES.get(key)
    if st is None:
        import pickle

        with open(path, "rb") as f:
            ctx = pickle.load(f)
        st = _state(ctx)
    return chunk, run_chunk(st.ctx, *chunk)


class SimPool:
    """A pool of worker processes for ``simulate(backend="process")``, reusable across calls.

    ``simulate`` makes (and closes) its own pool unless one is passed as
    ``pool=``; keeping one open saves the workers' start-up (about 1 s) for
    each further position::

        with SimPool(2) as pool:
            results = [simulate(p, lexicon, pool=pool) for p in positions]

    Each simulation's :class:`SimContext` is written once to a temporary file
    that the workers read on their first task of that simulation (and cache).

    Args:
        workers: number of processes.
        start_method: multiprocessing start method (default ``"spawn"``).
    """

    def __init__(self, workers: int = 2, start_method: str | None = None):
        import multiprocessing as mp

        if workers < 1:
            raise ValueError(f"workers must be at least 1, got {workers}")
        self.workers = int(workers)
        self._pool = mp.get_context(start_method or "spawn").Pool(self.workers, initializer=_pool_warm)

    def run(self, path: str, key: str, chunks: Sequence[Chunk]) -> Iterator[tuple[Chunk, np.ndarray]]:
        if self._pool is None:
            raise ValueError("the SimPool is closed")
        yield from self._pool.imap_unordered(_pool_task, [(path, key, ch) for ch in chunks])

    def close(self) -> None:
        """Stop the workers."""
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None

    def __enter__(self) -> "SimPool":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class _ProcessRunner:
    def __init__(self, ctx: SimContext, workers: int, start_method: str | None, pool: SimPool | None):
        import pickle
        import tempfile

        try:
            data = pickle.dumps(ctx, protocol=pickle.HIGHEST_PROTOCOL)
        except (pickle.PicklingError, AttributeError, TypeError) as exc:
            raise ValueError(f"the process backend needs a picklable player / leave function "
                             f"(a module-level function or an object, not a lambda or closure): {exc}") from None
        fd, self.path = tempfile.mkstemp(prefix="sim-", suffix=".pickle")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        self.key = ctx.key
        self.own = pool is None
        self.pool = SimPool(workers, start_method) if pool is None else pool

    def run(self, chunks: Sequence[Chunk]) -> Iterator[tuple[Chunk, np.ndarray]]:
        yield from self.pool.run(self.path, self.key, chunks)

    def close(self) -> None:
        if self.own:
            self.pool.close()
        try:
            os.unlink(self.path)
        except OSError:
            pass


def _make_runner(backend: str, ctx: SimContext, lexicon, workers: int, start_method: str | None,
                 ray_address: str | None, pool: SimPool | None = None):
    if backend == "local":
        return _LocalRunner(ctx, lexicon)
    if backend == "process":
        return _ProcessRunner(ctx, workers, start_method, pool)
    from engine.analysis import _sim_ray

    return _sim_ray.RayRunner(ctx, run_chunk, workers, ray_address)


# ---------------------------------------------------------------------------
# Candidates
# ---------------------------------------------------------------------------
def prepare_candidates(position: Position, lexicon, candidates=None, n_candidates: int = 10,
                       player=None, bag: int | None = None) -> list[SimMove]:
    """The moves to simulate: the player's ``n_candidates`` best by static equity, or the given ones checked.

    Args:
        candidates: ``None``, or a list of :class:`~engine.position.moves.Move`,
            :class:`SimMove`, ``engine.game.equity.Candidate`` objects or strings:
            ``"8H HA(U)S"`` (a placement, checked against the board, the rack and
            the lexicon), ``"-ABC"`` (exchange those tiles), ``"-"`` (pass).
        player: the static player whose ranking gives the default list
            (default :class:`LeavePlayer` ``()``: by score).
        bag: tiles in the bag (exchanges need 7); default ``position.bag_count``.

    Raises:
        ValueError: nothing to play, an illegal or duplicate candidate, ``n_candidates < 1``.
    """
    from dataclasses import replace

    from engine.position.scorer import check_move, score_placement

    a = position.alphabet
    player = player if player is not None else LeavePlayer()
    bag = position.bag_count if bag is None else bag
    if candidates is None:
        if n_candidates < 1:
            raise ValueError(f"n_candidates must be at least 1, got {n_candidates}")
        out = player.candidates(position, lexicon, n_candidates, bag)
        if not out or all(c.kind == PASS for c in out):
            raise ValueError("no legal placement or exchange in this position: nothing to simulate")
        return out
    out = []
    seen = set()
    for c in candidates:
        if isinstance(c, SimMove):
            sm = c
            if sm.kind == PLAY:
                c = sm.move
        elif isinstance(c, str) and c.strip().startswith("-"):
            tiles = c.strip()[1:].strip()
            sm = SimMove(EXCHANGE, exchanged=tiles) if tiles else SimMove(PASS)
        elif not isinstance(c, (str, Move)) and hasattr(c, "kind"):
            sm = _from_candidate(c)
            if sm.kind == PLAY:
                c = sm.move
        else:
            sm = None
        if sm is not None and sm.kind != PLAY:
            if sm.kind == EXCHANGE:
                try:
                    put = _tile_counts(sm.exchanged, a)
                except ValueError as exc:
                    raise ValueError(f"exchange candidate -{sm.exchanged}: {exc}") from None
                if not put.any() or (put > position.rack).any():
                    raise ValueError(f"exchange candidate -{sm.exchanged}: tiles not on the rack "
                                     f"{a.rack_string(position.rack)}")
                if bag < 7:
                    raise ValueError(f"exchange candidate -{sm.exchanged}: exchanging needs at least 7 tiles "
                                     f"in the bag ({bag} left)")
                sm = SimMove(EXCHANGE, None, a.rack_string(put), a.rack_string(position.rack - put), sm.equity)
            else:
                sm = SimMove(PASS, None, "", a.rack_string(position.rack), sm.equity)
            key = sm.notation
        else:
            if isinstance(c, str):
                m = check_move(position.board, c, lexicon, rack=position.rack).move
            elif isinstance(c, Move):
                m = score_placement(position.board, c.tiles, lexicon, rack=position.rack).move
                if c.equity is not None:
                    m = replace(m, equity=c.equity)
            else:
                raise TypeError(f"candidates are moves, notation strings or candidates, not {type(c).__name__}")
            sm = SimMove(PLAY, m, leave=m.leave, equity=m.equity)
            key = m.placements
        if key in seen:
            raise ValueError(f"candidate {sm.notation} is given twice")
        seen.add(key)
        out.append(sm)
    if not out:
        raise ValueError("the candidate list is empty")
    return out


def _encode_candidate(sm: SimMove, alphabet: Alphabet):
    if sm.kind == PLAY:
        code = {ch: i + 1 for i, ch in enumerate(alphabet.letters)}
        return PLAY, tuple((r, c, code[ch], bool(b)) for r, c, ch, b in sm.move.tiles), int(sm.move.score), None
    if sm.kind == EXCHANGE:
        return EXCHANGE, None, 0, _tile_counts(sm.exchanged, alphabet)
    return PASS, None, 0, None


# ---------------------------------------------------------------------------
# The driver
# ---------------------------------------------------------------------------
def simulate(position: Position, lexicon, candidates=None, n_candidates: int = 10, plies: int = 2,
             iterations: int = 1000, seed: int | None = None, leave_value: LeaveValue | None = None,
             workers: int = 1, backend: str | None = None, stop_when_clearly_ahead: bool = True,
             progress: bool | None = True, *, player=None, batch_size: int = 50, min_iterations: int = 100,
             confidence: float = 0.95, stop_confidence: float = 0.99, stop_on: str = "spread",
             known_opponent_rack: bool = False, common_random_numbers: bool = True,
             win_model=DEFAULT_WIN_MODEL, time_limit: float | None = None,
             start_method: str | None = None, ray_address: str | None = None,
             pool: "SimPool | None" = None, opponent_leaves=None, stop_rule: str = "elimination",
             error: float = 0.05, clock=None) -> SimResult:
    """Simulate the top candidates of a position and rank them by mean spread and win rate.

    Args:
        position: the position (side to move's rack; the opponent's rack is
            drawn from :meth:`Position.unseen` unless ``known_opponent_rack``).
        lexicon: the word list (:class:`lexicon_tools.bundle.Lexicon`); the
            ``process`` and ``ray`` backends load it in each worker from ``lexicon.path``.
        candidates: moves to simulate (see :func:`prepare_candidates`);
            ``None``: the ``n_candidates`` best by the static player's equity.
        n_candidates: how many candidates when ``candidates`` is ``None``.
        plies: moves played after the candidate (opponent first); 0 = static equity.
        iterations: budget per candidate.
        seed: run seed (``None``: random, recorded in the result).
        leave_value: shorthand for ``player=LeavePlayer(leave_value)``: leave
            function (int32 counts -> points) of the static players and the
            leftover term. Must be picklable for ``process`` (a module-level
            function or an object such as :class:`engine.leaves.table.LeaveTable`).
        workers: processes for ``process`` / Ray tasks in flight for ``ray``.
        backend: ``"local"`` (this process), ``"process"`` (multiprocessing
            pool), ``"ray"``; ``None``: local for one worker, process otherwise.
        stop_when_clearly_ahead: after each batch, drop the candidates the
            ``stop_rule`` says are behind; stop when one is left.
        stop_rule: ``"elimination"`` (default): successive elimination with a
            union bound (:func:`eliminated`): the best candidate is dropped with
            probability at most ``error`` over the whole run (normal approximation);
            ``"overlap"``: the older rule, drop a candidate whose upper bound at
            ``stop_confidence`` is below the leader's lower bound (no stated error
            level for the run as a whole).
        error: the elimination rule's error level (0 < error < 1).
        progress: tqdm bar on stderr (``None``: only on a terminal).
        player: the static player of both sides. Default (no ``leave_value``
            either): :class:`EquityPlayer` ``()``, the static equity of
            :mod:`engine.game.equity` with the packaged leave table;
            ``LeavePlayer()``: best-score players; or any object with the
            same ``candidates`` / ``decide`` / ``leave_term`` methods.
        batch_size: iterations per candidate between two pruning checks.
        min_iterations: no pruning before every candidate has this many.
        confidence: level of the reported intervals (0.95).
        stop_confidence: level of the intervals the pruning rule compares (0.99).
        stop_on: ``"spread"`` (mean spread, normal intervals) or ``"win"``
            (win rate, Wilson intervals) for pruning and ranking.
        known_opponent_rack: use the CGP's opponent rack instead of drawing one.
        common_random_numbers: iteration ``i`` draws the same opponent rack and
            bag order for every candidate (less noise in the comparison);
            ``False``: independent draws per candidate.
        win_model: win probability of games unfinished after the plies.
        time_limit: seconds the run may take: it stops before a batch that would end past the limit
            (judged by the last batch's duration, so the run stays within it) or after a batch that ended
            past it; the first batch always runs (the only setting that makes the numbers depend on the
            machine).
        clock: the clock of ``time_limit`` (default wall time, ``time.perf_counter``; pass
            ``time.process_time`` for CPU seconds of this process, with ``workers=1`` and the
            local backend)
        start_method: multiprocessing start method (default ``"spawn"``).
        ray_address: Ray cluster to connect to (``"auto"``, ``"ray://host:10001"``);
            ``None``: the running Ray instance, or a local one with ``workers`` CPUs.
        pool: an open :class:`SimPool` to run on (implies ``backend="process"``
            and ``workers=pool.workers``); ``None``: the process backend makes its own.
        opponent_leaves: draw the opponent's rack from an inferred leave
            distribution (an :class:`engine.analysis.inference.InferenceResult`, or its
            :meth:`~engine.analysis.inference.InferenceResult.sampler` tuple): each
            iteration draws a leave by its probability and fills the rack from the
            rest of the unseen tiles at random (``None``: the whole rack at random).

    Returns:
        a :class:`SimResult`.

    Raises:
        ValueError: bad settings, nothing to play, illegal candidates,
            a position with more of a tile than the set holds.
        ImportError: ``backend="ray"`` without Ray installed (``pip install 'german-scrabble-engine[ray]'``).
    """
    if plies < 0:
        raise ValueError(f"plies must be at least 0, got {plies}")
    if iterations < 1:
        raise ValueError(f"iterations must be at least 1, got {iterations}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    if batch_size < 1:
        raise ValueError(f"batch_size must be at least 1, got {batch_size}")
    if stop_on not in ("spread", "win"):
        raise ValueError(f"stop_on must be 'spread' or 'win', got {stop_on!r}")
    if stop_rule not in ("elimination", "overlap"):
        raise ValueError(f"stop_rule must be 'elimination' or 'overlap', got {stop_rule!r}")
    if not 0.0 < error < 1.0:
        raise ValueError(f"error must be between 0 and 1, got {error}")
    if pool is not None:
        if backend not in (None, "process"):
            raise ValueError(f"a SimPool runs the process backend, not {backend!r}")
        backend, workers = "process", pool.workers
    if backend is None:
        backend = "local" if workers == 1 else "process"
    if backend not in ("local", "process", "ray"):
        raise ValueError(f"backend must be 'local', 'process' or 'ray', got {backend!r}")
    if backend == "local" and workers != 1:
        raise ValueError("the local backend runs in this process: use workers=1, or backend='process' / 'ray'")
    if player is not None and leave_value is not None:
        raise ValueError("give either leave_value or player, not both")
    if player is None:
        player = LeavePlayer(leave_value) if leave_value is not None else EquityPlayer()
    z_stop = _z(stop_confidence)
    _z(confidence)
    if seed is None:
        seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0] >> np.uint64(1))
    seed = int(seed)
    if seed < 0:
        raise ValueError(f"seed must be non-negative, got {seed}")

    a = position.alphabet
    unseen = position.unseen()
    opp_rack = None
    if known_opponent_rack:
        if position.opponent_rack is None:
            raise ValueError("known_opponent_rack: the position has no opponent rack")
        opp_rack = position.opponent_rack.astype(np.int32).copy()
        unseen = unseen - opp_rack
    from engine.position.cgp import check_tile_counts

    check_tile_counts(position, hint=False)  # the one tile-count rule (CGPError, a ValueError)
    if opponent_leaves is not None and opp_rack is not None:
        raise ValueError("give either known_opponent_rack or opponent_leaves, not both")
    opp_leaves = _check_leaves(opponent_leaves, unseen, a.rack_size) if opponent_leaves is not None else None
    pool_n = int(unseen.sum())
    bag0 = pool_n if opp_rack is not None else max(0, pool_n - a.rack_size)

    moves = prepare_candidates(position, lexicon, candidates, n_candidates, player, bag0)
    path = getattr(lexicon, "path", None)
    ctx = SimContext(
        key=uuid.uuid4().hex, lexicon_path=None if path is None else str(path), alphabet=a,
        layout=position.board.layout, tiles=position.board.tiles.copy(), blanks=position.board.blanks.copy(),
        rack=position.rack.astype(np.int32).copy(), pool=unseen.astype(np.int32), opponent_rack=opp_rack,
        scores=(int(position.scores[0]), int(position.scores[1])),
        candidates=tuple(_encode_candidate(m, a) for m in moves), plies=int(plies),
        seed=seed, common_random_numbers=bool(common_random_numbers), player=player, win_model=win_model,
        opponent_leaves=opp_leaves)

    nc = len(moves)
    spreads = np.zeros((nc, iterations))
    wins = np.zeros((nc, iterations))
    done = np.zeros(nc, dtype=np.int64)
    active = list(range(nc))
    pruned: dict[int, int] = {}
    stop_reason = "single candidate" if nc == 1 else "budget"
    z_elim = elimination_z(nc, iterations, batch_size, min_iterations, error)

    from tqdm import tqdm

    clock = clock or time.perf_counter
    t0 = time.perf_counter()
    c0 = clock()
    runner = _make_runner(backend, ctx, lexicon, workers, start_method, ray_address, pool)
    bar = tqdm(total=nc * iterations, unit="it", desc="simulate", leave=False, file=sys.stderr,
               disable=(None if progress is None else not progress))
    batch_start = c0
    with on_ctrl_c(lambda: None) as ctrl_c:  # engine.interrupt: Ctrl-C ends the run after the current batch
        try:
            while active:
                n0 = int(done[active[0]])
                n1 = min(iterations, n0 + batch_size)
                if n1 <= n0:
                    break
                for (c, s, e), vals in runner.run(_chunks(active, n0, n1, workers)):
                    spreads[c, s:e] = vals[:, 0]
                    wins[c, s:e] = vals[:, 1]
                    bar.update(e - s)
                for c in active:
                    done[c] = n1
                if stop_when_clearly_ahead and len(active) > 1 and n1 >= min_iterations:
                    if stop_rule == "elimination":
                        drop = eliminated(active, spreads if stop_on == "spread" else wins, n1, z_elim)
                    else:
                        drop = _clearly_behind(active, spreads, wins, n1, z_stop, stop_on)
                    for c in drop:
                        pruned[c] = n1
                        bar.total -= iterations - n1
                    active = [c for c in active if c not in drop]
                    if len(active) == 1:
                        stop_reason = "one left"
                        break
                if active:
                    lead = max(active, key=lambda c: (float(spreads[c, :n1].mean()), -c))
                    bar.set_postfix_str(f"{len(active)} left, best {moves[lead].notation} "
                                        f"{float(spreads[lead, :n1].mean()):+.1f}", refresh=False)
                now = clock()
                if time_limit is not None and n1 < iterations and (now - c0) + (now - batch_start) > time_limit:
                    stop_reason = "time"  # past the limit, or the next batch (as long as this one) would end past it
                    break
                batch_start = now
                if ctrl_c.pressed:  # Ctrl-C: stop after this batch and report what is done
                    stop_reason = "interrupted"
                    break
        finally:
            runner.close()
            bar.close()
        if ctrl_c.pressed:  # during the last batch, which also ended the run: the Ctrl-C is not lost
            stop_reason = "interrupted"
    seconds = time.perf_counter() - t0

    results = []
    for c in range(nc):
        n = int(done[c])
        s, w = spreads[c, :n].copy(), wins[c, :n].copy()
        mean, se, lo, hi = normal_interval(s, confidence)
        wr = float(w.mean()) if n else math.nan
        wlo, whi = wilson_interval(float(w.sum()), n, confidence)
        results.append(CandidateResult(c, moves[c], n, mean, se, (lo, hi), wr, (wlo, whi), pruned.get(c), s, w))
    return SimResult(results, seed, int(plies), int(iterations), float(confidence), backend, int(workers),
                     int(batch_size), stop_reason, seconds, int(done.sum()), stop_on)


def _check_leaves(opponent_leaves, unseen: np.ndarray, rack_size: int) -> tuple[np.ndarray, np.ndarray]:
    """``simulate``'s ``opponent_leaves`` as checked ``(leaves int32 (K, T), cumulative float64 (K,))``.

    Raises:
        ValueError: not a leave distribution over the unseen tiles (wrong shape, a leave
            with more of a tile than is unseen or more than a rack, probabilities that
            are negative or do not sum to 1).
    """
    sampler = getattr(opponent_leaves, "sampler", None)
    pair = sampler() if callable(sampler) else opponent_leaves
    try:
        leaves, cum = pair
        leaves = np.ascontiguousarray(leaves, dtype=np.int32)
        cum = np.ascontiguousarray(cum, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError("opponent_leaves: an InferenceResult or (leaves (K, T), cumulative probabilities (K,))") from None
    if leaves.ndim != 2 or leaves.shape[1] != unseen.shape[0] or leaves.shape[0] < 1 or cum.shape != leaves.shape[:1]:
        raise ValueError(f"opponent_leaves: leaves must be (K, {unseen.shape[0]}) with K >= 1 and K cumulative "
                         f"probabilities, got {leaves.shape} and {cum.shape}")
    if (leaves < 0).any() or (leaves > unseen).any() or (leaves.sum(axis=1) > rack_size).any():
        raise ValueError("opponent_leaves: a leave holds tiles that are not unseen (or more than a rack)")
    if not np.isfinite(cum).all() or (np.diff(cum) < -1e-12).any() or cum[0] < 0 or abs(cum[-1] - 1.0) > 1e-9:
        raise ValueError("opponent_leaves: the cumulative probabilities must rise from >= 0 to 1")
    return leaves, cum


def _chunks(active: Sequence[int], n0: int, n1: int, workers: int) -> list[Chunk]:
    """Split one batch into tasks: at least two per worker when there are enough iterations."""
    pieces = max(1, math.ceil(2 * workers / len(active))) if workers > 1 else 1
    size = max(1, math.ceil((n1 - n0) / pieces))
    return [(c, s, min(n1, s + size)) for c in active for s in range(n0, n1, size)]


def elimination_z(n_candidates: int, iterations: int, batch_size: int, min_iterations: int,
                  error: float) -> float:
    """One-sided z of the successive-elimination rule for an overall error level ``error``.

    The rule is checked after every batch from ``min_iterations`` on, at most
    ``R = ceil((iterations - min_iterations) / batch_size) + 1`` times; each check
    compares the best candidate with at most ``K - 1`` others. A union bound
    over these ``(K - 1)·R`` one-sided tests at level ``error / ((K - 1)·R)`` each
    bounds the chance that the best candidate is ever dropped by ``error``.
    """
    k = max(1, n_candidates - 1)
    checks = max(1, math.ceil(max(0, iterations - min_iterations) / batch_size) + 1)
    return _PHI.inv_cdf(1.0 - error / (k * checks))


def eliminated(active: Sequence[int], values: np.ndarray, n: int, z: float) -> list[int]:
    """Successive elimination (Even-Dar, Mannor & Mansour 2006), paired by iteration.

    ``values`` (candidates, iterations): per-iteration spreads (or win values).
    With common random numbers iteration ``i`` of every candidate meets the
    same draws, so the difference ``d_i = x_leader,i - x_c,i`` to the leader
    (best mean) is what is tested: candidate ``c`` is dropped when
    ``mean(d) - z·sd(d)/sqrt(n) > 0``, i.e. when the one-sided test at level
    ``1 - Phi(z)`` says the leader is better. With ``z`` from
    :func:`elimination_z` the probability of ever dropping the candidate with
    the best expected value is at most the stated error (normal approximation
    of the mean differences). Returns the dropped candidates.
    """
    if n < 2:
        return []
    means = {c: float(values[c, :n].mean()) for c in active}
    best = max(active, key=lambda c: (means[c], -c))
    out = []
    root_n = math.sqrt(n)
    for c in active:
        if c == best:
            continue
        d = values[best, :n] - values[c, :n]
        sd = float(d.std(ddof=1))
        m = float(d.mean())
        if m - z * sd / root_n > 0.0:
            out.append(c)
    return out


def _clearly_behind(active: Sequence[int], spreads: np.ndarray, wins: np.ndarray, n: int, z: float,
                    stop_on: str) -> list[int]:
    """Candidates whose upper bound is below the lower bound of the candidate with the best mean."""
    bounds = {}
    for c in active:
        if stop_on == "win":
            w = wins[c, :n]
            lo, hi = _wilson_z(float(w.sum()), n, z)
            bounds[c] = (float(w.mean()), lo, hi)
        else:
            s = spreads[c, :n]
            mean = float(s.mean())
            h = z * float(s.std(ddof=1)) / math.sqrt(n) if n > 1 else math.inf
            bounds[c] = (mean, mean - h, mean + h)
    best = max(active, key=lambda c: (bounds[c][0], -c))
    return [c for c in active if c != best and bounds[c][2] < bounds[best][1]]


def _wilson_z(successes: float, n: int, z: float) -> tuple[float, float]:
    conf = 2.0 * _PHI.cdf(z) - 1.0
    return wilson_interval(successes, n, conf)
