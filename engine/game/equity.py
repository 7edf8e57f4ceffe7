"""Static equity: score + the value of the tiles kept, with an end-of-bag correction.

``equity(move) = score + leave term``, where the leave term is

* **bag not empty** (``bag >= 1`` tiles to draw before the move):
  ``scale(bag) * V(leave)`` with ``V`` the leave table (:mod:`engine.leaves.table`,
  ``V(empty) = 0``) and ``scale(bag) = floor + (1 - floor) * min(1, bag /
  bag_ramp)``: the leave's bingo and synergy potential fades as the bag
  empties, because fewer tiles will be drawn to go with it. ``bag_ramp`` and
  ``floor`` are measured in self-play with the table (how strongly the next
  turn's equity depends on the leave's value at each bag size) and stored in
  its metadata (defaults :data:`DEFAULT_BAG_RAMP`, :data:`DEFAULT_BAG_FLOOR`);
* **bag empty** (nothing left to draw, the end game): the leave is what stays
  on the rack. Playing out scores ``out_bonus = 2 × face value of the
  unseen tiles`` (two players: the opponent's rack, which the player who goes
  out gains and the opponent loses); keeping tiles costs
  ``2 × their face value + stuck_penalty`` (they are likely to be counted
  against the player, and the opponent gets another turn; ``stuck_penalty``
  defaults to 10, as in wolges).

Exchanges (allowed with at least 7 tiles in the bag) score 0 and are ranked by
the same leave term of the tiles kept; a pass is offered only when nothing else
is possible. ``docs/leaves.md`` explains the choices.

Entry points:

* :func:`best_equity` — the top ``n`` candidates (placements by the
  best-first generator ranked by equity, plus exchanges), for engine players
  and simulation candidate lists;
* :func:`rank_moves` — every move of a position with score, leave, leave
  value and equity (analysis, practice);
* :func:`choose` / :func:`apply` — the static equity player's turn in a
  :class:`engine.game.game.Game`; :func:`play_equity_game` a whole game between
  equity and/or score players, optionally recording every decision for leave
  generation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from engine.leaves import _kernels as LK
from engine.leaves.table import LeaveTable, default_table

__all__ = [
    "DEFAULT_BAG_RAMP",
    "DEFAULT_STUCK_PENALTY",
    "EquityParams",
    "Candidate",
    "leave_scale",
    "leave_term",
    "out_bonus",
    "leave_arrays",
    "leave_function",
    "best_equity",
    "rank_moves",
    "position_candidates",
    "choose",
    "apply",
]

DEFAULT_BAG_RAMP = 10.0
DEFAULT_BAG_FLOOR = 0.0
DEFAULT_STUCK_PENALTY = 10.0
MIN_BAG_EXCHANGE = 7


@dataclass(frozen=True)
class EquityParams:
    """Parameters of the static equity.

    Attributes:
        bag_ramp: leave values count ``floor + (1 - floor) * min(1, bag / bag_ramp)`` while the
            bag holds tiles (``0`` disables the fade).
        bag_floor: the weight the fade tends to as the bag runs empty.
        stuck_penalty: points off, on top of twice their face value, for tiles kept when the bag is empty.
        seven: leave term of keeping all 7 tiles (a pass) while the bag holds tiles.
    """

    bag_ramp: float = DEFAULT_BAG_RAMP
    bag_floor: float = DEFAULT_BAG_FLOOR
    stuck_penalty: float = DEFAULT_STUCK_PENALTY
    seven: float = 0.0

    @classmethod
    def of(cls, table: LeaveTable | None) -> "EquityParams":
        """The parameters stored with a table (``meta["equity"]``), else the defaults."""
        if table is None:
            return cls()
        eq = table.meta.get("equity", {}) if table.meta else {}
        return cls(bag_ramp=float(eq.get("bag_ramp", DEFAULT_BAG_RAMP)),
                   bag_floor=float(eq.get("bag_floor", DEFAULT_BAG_FLOOR)),
                   stuck_penalty=float(eq.get("stuck_penalty", DEFAULT_STUCK_PENALTY)))


def leave_scale(bag: int, params: EquityParams | None = None) -> float:
    """Weight of the leave value with ``bag`` tiles left to draw: 1 while the bag is full enough,
    fading linearly to ``bag_floor`` below ``bag_ramp`` tiles; 0 when the bag is empty (the end-game
    rule replaces the table then)."""
    params = params or EquityParams()
    if bag <= 0:
        return 0.0
    if params.bag_ramp <= 0:
        return 1.0
    f = params.bag_floor
    return f + (1.0 - f) * min(1.0, bag / params.bag_ramp)


def out_bonus(board, rack: np.ndarray, unseen: np.ndarray | None = None) -> float:
    """Twice the face value of the tiles neither on the board nor on ``rack``
    (with the bag empty and two players: the opponent's rack)."""
    a = board.alphabet
    if unseen is None:
        t = board.tiles
        on = np.bincount(np.where(board.blanks, 0, t)[t != 0], minlength=a.size + 1)
        unseen = a.counts - on - rack
    return 2.0 * float((np.maximum(unseen, 0) * a.values).sum())


def leave_term(table: LeaveTable, leave, bag: int, bonus: float = 0.0, params: EquityParams | None = None) -> float:
    """The leave term of equity for one leave (counts array or rack string), see the module doc."""
    params = params or EquityParams.of(table)
    counts = table.index.counts(leave)
    n = int(counts.sum())
    if bag <= 0:
        if n == 0:
            return float(bonus)
        return -(2.0 * float((counts * table.index.tile_values).sum()) + params.stuck_penalty)
    if n == 0:
        return 0.0
    if n > LK.MAXLEN:
        return params.seven
    return leave_scale(bag, params) * table.value(counts)


def leave_arrays(table: LeaveTable, rack: np.ndarray, bag: int, bonus: float = 0.0,
                 params: EquityParams | None = None):
    """Leave terms of every sub-multiset of ``rack`` in the layout of
    :func:`engine.movegen.generator.leave_arrays` (``radix, lv, lvmax``), computed in one kernel call."""
    params = params or EquityParams.of(table)
    idx = table.index
    return LK.sub_leave_arrays(np.asarray(rack, dtype=np.int64), table.values, idx.H, idx.cap, idx.prefix,
                               leave_scale(bag, params), 1 if bag <= 0 else 0, float(bonus),
                               float(params.stuck_penalty), idx.tile_values, float(params.seven))


def leave_function(table: LeaveTable, bag: int, bonus: float = 0.0, params: EquityParams | None = None):
    """A ``leave_value`` callable for :func:`engine.movegen.generator.best_moves`: counts -> leave term."""
    params = params or EquityParams.of(table)
    scale = leave_scale(bag, params)
    H, cap, vals, tv = table.index.H, table.index.cap, table.values, table.index.tile_values

    def term(leave) -> float:
        c = np.asarray(leave, dtype=np.int64)
        n = int(c.sum())
        if bag <= 0:
            return float(bonus) if n == 0 else -(2.0 * float((c * tv).sum()) + params.stuck_penalty)
        if n == 0:
            return 0.0
        if n > LK.MAXLEN:
            return params.seven
        r = int(LK.rank_counts(c, H, cap))
        return scale * float(vals[r]) if r >= 0 else 0.0

    return term


# ---------------------------------------------------------------------------
# Candidates
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Candidate:
    """One option of the player to move, with its static equity.

    Attributes:
        kind: ``"play"``, ``"exchange"`` or ``"pass"``.
        move: the placement (:class:`engine.position.moves.Move`) for plays, else ``None``.
        exchanged: the tiles put back (rack string, ``?`` = blank) for exchanges, else ``""``.
        score: points of the move (0 for exchange and pass).
        leave: the tiles kept (rack string).
        leave_value: the leave term (see the module doc; includes the end-of-bag correction).
        equity: ``score + leave_value``.
    """

    kind: str
    move: object
    exchanged: str
    score: int
    leave: str
    leave_value: float
    equity: float

    @property
    def notation(self) -> str:
        """``8H WORD`` for plays, ``-ABC`` for exchanges (GCG style), ``-`` for a pass."""
        if self.kind == "play":
            return self.move.notation
        if self.kind == "exchange":
            return f"-{self.exchanged}"
        return "-"

    @property
    def tiles_played(self) -> int:
        return self.move.tiles_played if self.kind == "play" else 0

    def sort_key(self):
        return (-self.equity, {"play": 0, "exchange": 1, "pass": 2}[self.kind], self.notation)


def _rack_leaves(board, rack, bag, table, bonus, params):
    """Leave arrays of a rack with the defaults filled in (packaged table, its
    parameters, the going-out bonus when the bag is empty)."""
    table = table if table is not None else default_table()
    params = params or EquityParams.of(table)
    if bonus is None:
        bonus = out_bonus(board, rack) if bag <= 0 else 0.0
    return leave_arrays(table, rack, bag, bonus, params)


def best_equity(board, rack: np.ndarray, lexicon, *, bag: int, n: int = 1, table: LeaveTable | None = None,
                checks=None, bonus: float | None = None, exchanges: bool = True,
                params: EquityParams | None = None) -> list[Candidate]:
    """The ``n`` best candidates by static equity, best first.

    Placements come from the best-first generator ranked by equity (only the
    spans that can hold a top-``n`` move are walked); exchanges (when ``bag >=
    7`` and ``exchanges``) are every non-empty sub-multiset of the rack put
    back, equity = leave term of the rest. A pass is returned only when there
    is nothing else. Ties: plays before exchanges, then by notation.

    Args:
        board: the position's board.
        rack: int32 counts of the rack to move.
        lexicon: the word list.
        bag: tiles in the bag before the move.
        n: number of candidates.
        table: leave table (default: the packaged German table).
        checks: the board's :class:`engine.movegen.generator.CrossChecks` if known.
        bonus: the going-out bonus with an empty bag (default :func:`out_bonus`).
        params: equity parameters (default: those stored with the table).

    Raises:
        ValueError: as :func:`engine.movegen.generator.best_moves`.
    """
    if n < 1:
        raise ValueError(f"n must be at least 1, got {n}")
    from engine.movegen import _dispatch as K
    from engine.movegen.generator import _check_inputs, best_equity_rows, best_move_list_ranked

    rack = _check_inputs(board, rack, lexicon)[1]  # before any kernel sees it
    a = board.alphabet
    out: list[Candidate] = []
    if not K.aot_active():
        # one kernel call: leave arrays (and the going-out bonus), the exchange floor, the walk
        table = table if table is not None else default_table()
        params = params or EquityParams.of(table)
        idx = table.index
        targs = (table.values, idx.H, idx.cap, idx.prefix, idx.tile_values, leave_scale(bag, params),
                 1 if bag <= 0 else 0, float("nan") if bonus is None else float(bonus),
                 float(params.stuck_penalty), float(params.seven))
        ml, eq, radix, lv = best_equity_rows(board, rack, lexicon, n, checks, targs,
                                             bool(exchanges and bag >= MIN_BAG_EXCHANGE))
    else:
        radix, lv, lvmax = _rack_leaves(board, rack, bag, table, bonus, params)
        with_x = exchanges and bag >= MIN_BAG_EXCHANGE and lv.shape[0] > n
        # a placement below the n-th best exchange cannot be in the top n: the search starts there
        xfloor = float(np.partition(lv[1:], lv.shape[0] - 1 - n)[lv.shape[0] - 1 - n]) if with_x else -np.inf
        # the kept rows: the top n placements (of those reaching xfloor) and the ties of the n-th
        ml, eq = best_move_list_ranked(board, rack, lexicon, n, checks, (radix, lv, lvmax), xfloor)
    floor = -np.inf
    if len(ml):
        eql = eq.tolist()
        order = list(range(len(eql)))
        if len(order) > 1:  # ties of the n-th (a blank as several letters, twins on an empty board)
            order.sort(key=lambda i: (-eql[i], ml.notation(i)))
        for i in order[:n]:  # only the n best placements can be in the top n
            m = ml.move(i, equity=eql[i])
            out.append(Candidate("play", m, "", m.score, m.leave, eql[i] - m.score, eql[i]))
        if len(ml) >= n:
            floor = float(eq.min())  # the n-th best placement: an exchange must beat it (ties: plays first)
    if exchanges and bag >= MIN_BAG_EXCHANGE:
        out.extend(_exchanges(rack, radix, lv, a, n, floor))
    if not out:
        out.append(Candidate("pass", None, "", 0, a.rack_string(rack), float(lv[0]), float(lv[0])))
    if len(out) > 1:
        out.sort(key=Candidate.sort_key)
    return out[:n]


def _exchanges(rack, radix, lv, alphabet, n=None, floor: float = -np.inf) -> list[Candidate]:
    """Exchange candidates from the leave arrays (index = tiles put back): with ``n``
    the top ``n`` and their ties, and of those only the ones above ``floor``."""
    size = lv.shape[0]
    if size <= 1:
        return []
    if floor > -np.inf and float(lv[1:].max()) <= floor:
        return []
    idxs = np.arange(1, size)
    if n is not None and n < len(idxs):
        cutoff = np.sort(lv[1:])[::-1][n - 1]
        idxs = idxs[lv[1:] >= cutoff]
    if floor > -np.inf:
        idxs = idxs[lv[idxs] > floor]
    codes = [c for c in range(rack.shape[0]) if rack[c] > 0]
    out = []
    for idx in idxs:
        put = np.zeros(rack.shape[0], dtype=np.int32)
        rem = int(idx)
        for c in codes:
            base = int(rack[c]) + 1
            put[c] = rem % base
            rem //= base
        keep = rack - put
        val = float(lv[idx])
        out.append(Candidate("exchange", None, alphabet.rack_string(put), 0, alphabet.rack_string(keep), val, val))
    return out


def rank_moves(board, rack: np.ndarray, lexicon, *, bag: int, table: LeaveTable | None = None,
               bonus: float | None = None, exchanges: bool = True,
               params: EquityParams | None = None) -> list[Candidate]:
    """Every placement (and exchange, when allowed) with its equity, best first.

    A pass is listed last when nothing else is possible. Uses the full move list
    (:func:`engine.movegen.generator.generate_moves`): for analysis and practice, where
    every move's rank is wanted.
    """
    from dataclasses import replace as _replace

    from engine.movegen.generator import generate_moves

    rack = np.asarray(rack, dtype=np.int32)
    radix, lv, _ = _rack_leaves(board, rack, bag, table, bonus, params)
    ml = generate_moves(board, rack, lexicon)
    out = []
    if len(ml):
        eq = ml.scores + lv[ml.used_index(radix)]
        for i in range(len(ml)):
            m = ml.move(i)
            e = float(eq[i])
            out.append(Candidate("play", _replace(m, equity=e), "", m.score, m.leave, e - m.score, e))
    if exchanges and bag >= MIN_BAG_EXCHANGE:
        out.extend(_exchanges(rack, radix, lv, board.alphabet))
    if not out:
        out.append(Candidate("pass", None, "", 0, board.alphabet.rack_string(rack), float(lv[0]), float(lv[0])))
    out.sort(key=Candidate.sort_key)
    return out


def list_equity(position, ml, table: LeaveTable | None = None, params: EquityParams | None = None,
                n_exchanges: int | None = None) -> tuple[np.ndarray, list[Candidate]]:
    """Static equity of every move of a generated list, and the position's exchanges.

    The bag size is the position's ``bag_count``; with an empty bag the going-out
    bonus counts the unseen tiles (as :func:`position_candidates`).

    Args:
        position: a parsed CGP position (:class:`engine.position.cgp.Position`).
        ml: the position's :class:`engine.position.moves.MoveList` (from its rack).
        table: leave table (default: the packaged German table).
        params: equity parameters (default: those stored with the table).
        n_exchanges: keep only the best ``n`` exchanges (``None``: all).

    Returns:
        ``(equity, exchanges)``: float64 (len(ml),) score + leave term per move
        in list order (points), and the exchange candidates best first (none
        when the bag holds fewer than 7 tiles).
    """
    bag = position.bag_count or 0
    bonus = out_bonus(position.board, position.rack, position.unseen()) if bag <= 0 else 0.0
    rack = np.asarray(position.rack, dtype=np.int32)
    radix, lv, _ = _rack_leaves(position.board, rack, bag, table, bonus, params)
    eq = (ml.scores + lv[ml.used_index(radix)]).astype(np.float64) if len(ml) else np.zeros(0)
    exch = _exchanges(rack, radix, lv, position.alphabet, n_exchanges) if bag >= MIN_BAG_EXCHANGE else []
    exch.sort(key=Candidate.sort_key)
    return eq, exch


def position_candidates(position, lexicon, n: int | None = None, table: LeaveTable | None = None,
                        params: EquityParams | None = None) -> list[Candidate]:
    """Candidates of a parsed CGP position (:class:`engine.position.cgp.Position`): the top ``n``
    (best-first), or all of them (``n=None``). The bag size is the position's
    ``bag_count``; with an empty bag the out bonus counts the unseen tiles."""
    bag = position.bag_count or 0
    bonus = out_bonus(position.board, position.rack, position.unseen()) if bag <= 0 else 0.0
    if n is None:
        return rank_moves(position.board, position.rack, lexicon, bag=bag, table=table, bonus=bonus, params=params)
    return best_equity(position.board, position.rack, lexicon, bag=bag, n=n, table=table, bonus=bonus,
                       params=params)


# ---------------------------------------------------------------------------
# Players
# ---------------------------------------------------------------------------
def choose(game, table: LeaveTable | None = None, params: EquityParams | None = None) -> Candidate:
    """The static equity player's choice for the player to move in ``game``.

    ``table=None`` plays the pure score player of :mod:`engine.game.selfplay`: the
    top-scoring placement, else exchange everything (bag >= 7 and the game is
    not stuck), else pass.
    """
    rack = game.racks[game.to_move]
    bag = len(game.bag)
    a = game.alphabet
    if table is None:
        from engine.movegen.generator import best_moves

        moves = best_moves(game.board, rack, game.lexicon, 1, game.checks)
        if moves:
            m = moves[0]
            return Candidate("play", m, "", m.score, m.leave, 0.0, float(m.score))
        stuck = game.rules.end_pass_rounds * game.n
        if bag >= game.rules.min_bag_for_exchange and game.scoreless_turns < stuck:
            return Candidate("exchange", None, a.rack_string(rack), 0, "", 0.0, 0.0)
        return Candidate("pass", None, "", 0, a.rack_string(rack), 0.0, 0.0)
    cands = best_equity(game.board, rack, game.lexicon, bag=bag, n=1, table=table, checks=game.checks,
                        params=params, exchanges=bag >= game.rules.min_bag_for_exchange)
    c = cands[0]
    if c.kind == "exchange":
        # never let exchanges run the game into the pass limit
        stuck = game.rules.end_pass_rounds * game.n
        if game.scoreless_turns >= stuck - 1:
            plays = best_equity(game.board, rack, game.lexicon, bag=bag, n=1, table=table, checks=game.checks,
                                params=params, exchanges=False)
            c = plays[0]
    return c


def apply(game, cand: Candidate):
    """Play a :class:`Candidate` in ``game`` (fast path for generated placements)."""
    if cand.kind == "play":
        return game.play_generated(cand.move)
    if cand.kind == "exchange":
        return game.exchange(cand.exchanged)
    return game.pass_turn()
