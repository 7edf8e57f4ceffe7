"""Engine players of named strengths, for self-play, matches and practice.

A player looks at a live :class:`engine.game.game.Game` from the seat to move (its own rack,
the board, the scores, the number of tiles in the bag, the opponent's last move; never the
opponent's rack while the bag holds tiles) and returns a :class:`Decision`.

Strengths (:data:`STRENGTHS`):

* ``static`` — the static equity player (:func:`engine.game.equity.choose`: score + leave term).
* ``endgame`` — static while the bag holds tiles; with the bag empty the endgame solver
  (:func:`engine.analysis.endgame.solve`) within the time per move.
* ``sim`` — a 2-ply simulation (:func:`engine.analysis.simulation.simulate`, static equity
  players, successive elimination) of the top :data:`SIM_CANDIDATES` candidates whenever the bag
  holds tiles, within the time per move; its best replaces the static best move only when it is
  clearly better (:data:`SWITCH_Z` standard errors of the paired differences: a short simulation's
  noise otherwise picks worse moves than the static player); static with the bag empty.
* ``full`` — the simulation while the bag holds more than 3 tiles, the pre-endgame
  (:func:`engine.analysis.preendgame.preendgame`, the opponent's racks weighted by the inference
  from its last move) with 1 to 3 tiles, the endgame solver with the bag empty. It does not pass
  there: the pre-endgame's pass line assumes the opponent answers with its static-best move, which
  can open a bingo lane a looking-ahead opponent would not open, so passing is rated too well
  (docs/preendgame.md, "Beside MAGPIE's peg").

The time per move (``seconds``) is CPU time of this process: the simulation and the pre-endgame
run on ``time.process_time``; the endgame solver takes a wall-clock limit only, so it gets
``seconds / share``, where ``share`` is the CPU share (CPU over wall time) this process got in its
previous search (between 0.05 and 1; 1 before the first), so that on a loaded machine it still
uses about ``seconds`` of CPU. A search may overshoot by one batch or one solver depth; the
:class:`Decision` records the CPU seconds actually used. The budget never includes compiling: play
one untimed game (or warm up) before timing anything.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

STRENGTHS = ("static", "endgame", "sim", "full")
"""The named strengths, weakest first (module doc)."""

PREENDGAME_BAG = 3
"""``full`` uses the pre-endgame with 1 to this many tiles in the bag."""
SIM_CANDIDATES = 5
"""Candidates simulated (the best by static equity)."""
SWITCH_Z = 1.96
"""The simulation replaces the static best move only when its best beats it by this many standard errors
of the paired differences (common random numbers: iteration ``i`` of every candidate sees the same draws)."""
PRE_CANDIDATES = 6
"""Placements the pre-endgame evaluates (the best by static equity), passing besides."""


@dataclass(frozen=True)
class Decision:
    """A player's choice for its turn.

    Attributes:
        kind: ``"play"``, ``"exchange"`` or ``"pass"``.
        move: the placement for plays (:class:`engine.position.moves.Move`, generated on this board), else ``None``.
        exchanged: the tiles put back (rack string, ``?`` = blank) for exchanges.
        how: which method chose it (``"static"``, ``"simulation"``, ``"pre-endgame"``, ``"endgame"``).
        seconds: CPU seconds the choice took (``time.process_time``).
    """

    kind: str
    move: object = None
    exchanged: str = ""
    how: str = "static"
    seconds: float = 0.0

    @property
    def notation(self) -> str:
        """``8H WO(R)T``, ``-ABC`` for an exchange, ``-`` for a pass."""
        if self.kind == "play":
            return self.move.notation
        return f"-{self.exchanged}" if self.kind == "exchange" else "-"

    def apply(self, game):
        """Play this decision in ``game`` (the position it was chosen for); returns the score-pad entry."""
        if self.kind == "play":
            return game.play_generated(self.move)
        if self.kind == "exchange":
            return game.exchange(self.exchanged)
        return game.pass_turn()


class Player:
    """An engine player of a named strength (module doc).

    Args:
        strength: one of :data:`STRENGTHS`.
        seconds: time per move for the searching strengths (> 0; ignored by ``static``).
        table: leave table (default: the packaged German table).
        seed: seed of the simulations (each decision uses ``seed`` + the turn number).
        infer: ``full`` weights the pre-endgame's opponent racks by the inference (default True).

    Raises:
        ValueError: an unknown strength or a time per move that is not positive.
    """

    def __init__(self, strength: str, seconds: float = 1.0, *, table=None, seed: int = 0, infer: bool = True):
        if strength not in STRENGTHS:
            raise ValueError(f"unknown strength {strength!r}: choose one of {', '.join(STRENGTHS)}")
        if not seconds > 0:
            raise ValueError(f"the time per move must be positive, got {seconds!r}")
        if table is None:
            from engine.leaves.table import default_table

            table = default_table()
        self.strength = strength
        self.seconds = float(seconds)
        self.table = table
        self.seed = int(seed)
        self.infer = bool(infer)
        self.share = 1.0  # CPU over wall time of the last search (module doc)

    def __repr__(self) -> str:
        return f"Player({self.strength!r}, {self.seconds:g} s)"

    # -- the decision ---------------------------------------------------------------------------------
    def choose(self, game) -> Decision:
        """The decision for the player to move in ``game`` (module doc); the game is not changed."""
        t0 = time.process_time()
        w0 = time.perf_counter()
        bag = len(game.bag)
        s = self.strength
        if s == "static" or (s == "endgame" and bag > 0) or (s == "sim" and bag == 0):
            d = self._static(game)
        elif bag == 0:
            d = self._endgame(game)
        elif s == "full" and bag <= PREENDGAME_BAG:
            d = self._preendgame(game)
        else:
            d = self._simulation(game)
        cpu, wall = time.process_time() - t0, time.perf_counter() - w0
        if d.how != "static" and wall > 0.2:
            self.share = min(1.0, max(0.05, cpu / wall))
        return replace(d, seconds=cpu)

    def _static(self, game) -> Decision:
        from engine.game.equity import choose

        c = choose(game, self.table)
        return Decision(c.kind, c.move, c.exchanged, "static")

    def _view(self, game):
        """The position as the mover sees it: the opponent's rack only when the bag is empty."""
        pos = game.position()
        return pos if len(game.bag) == 0 else replace(pos, opponent_rack=None)

    def _endgame(self, game) -> Decision:
        from engine.analysis.endgame import endgame_position, solve

        r = solve(endgame_position(self._view(game)), game.lexicon, time_limit=self.seconds / self.share)
        if r.move == "pass":
            return Decision("pass", how="endgame")
        return Decision("play", _generated(game, r.move), how="endgame")

    def _simulation(self, game) -> Decision:
        from engine.analysis.phase import sim_iterations
        from engine.analysis.simulation import EquityPlayer, simulate
        from engine.game.equity import position_candidates

        pos = self._view(game)
        cands = position_candidates(pos, game.lexicon, SIM_CANDIDATES, self.table)
        if len(game.bag) < game.rules.min_bag_for_exchange:
            cands = [c for c in cands if c.kind != "exchange"] or cands
        if len(cands) == 1:
            c = cands[0]
            return Decision(c.kind, c.move, c.exchanged, "static")
        res = simulate(pos, game.lexicon, candidates=cands, plies=2,
                       iterations=sim_iterations(self.seconds, len(cands)), seed=self.seed + len(game.turns),
                       workers=1, backend="local", progress=False, player=EquityPlayer(self.table),
                       time_limit=self.seconds, stop_when_clearly_ahead=True, stop_rule="elimination",
                       clock=time.process_time)
        best = res.best
        top = next(c for c in res.candidates if c.index == 0)  # the static equity player's move
        if best.index != 0 and top.pruned_at is None and not _clearly_better(best, top):
            best = top
        b = best.candidate
        if b.kind == "exchange" and game.scoreless_turns >= game.rules.end_pass_rounds * game.n - 1:
            return self._static(game)  # never run the game into the pass limit by exchanging
        return Decision(b.kind, b.move, b.exchanged, "simulation")

    def _preendgame(self, game) -> Decision:
        from engine.analysis.preendgame import preendgame

        pos = self._view(game)
        opponent = self._inference(game, pos) if self.infer else None
        res = preendgame(pos, game.lexicon, top=PRE_CANDIDATES, time_limit=self.seconds, table=self.table,
                         opponent=opponent, seed=self.seed, clock=time.process_time, passing=False)
        best = res["moves"][0]["move"]
        if best == "-":
            return Decision("pass", how="pre-endgame")
        return Decision("play", _generated(game, best), how="pre-endgame")

    def _inference(self, game, pos):
        """The inference from the opponent's last turn (a play or a pass with known tiles), or ``None``."""
        from engine.analysis.inference import infer

        last = next((t for t in reversed(game.turns) if t.is_turn), None)
        if last is None or last.player == game.to_move or last.kind != "play":
            return None
        try:
            res = infer(pos, last.move.notation, game.lexicon, table=self.table)
        except ValueError:
            return None
        return res if len(res.weights) else None

    def warm_up(self, lexicon) -> None:
        """Compile the kernels this strength uses (once per process), outside any time budget."""
        from engine.analysis.phase import warm_up

        warm_up(lexicon)


def _clearly_better(a, b) -> bool:
    """Candidate result ``a`` beats ``b`` by more than :data:`SWITCH_Z` standard errors of the paired
    per-iteration spread differences (over the iterations both ran)."""
    import numpy as np

    n = min(a.iterations, b.iterations)
    if n < 2 or a.spreads is None or b.spreads is None:
        return False
    d = np.asarray(a.spreads[:n], dtype=np.float64) - np.asarray(b.spreads[:n], dtype=np.float64)
    se = float(d.std(ddof=1)) / np.sqrt(n)
    return float(d.mean()) > SWITCH_Z * se


def _generated(game, notation: str):
    """The generated :class:`Move` of ``notation`` for the player to move (the solvers answer in notation).

    Raises:
        ValueError: no generated move has that notation (a bug in the caller).
    """
    from engine.movegen.generator import generate_moves

    for m in generate_moves(game.board, game.racks[game.to_move], game.lexicon):
        if m.notation == notation:
            return m
    raise ValueError(f"{notation!r} is not a move of this rack on this board")


def play_match_game(players, lexicon, seed: int, *, first: int = 0, rules=None, max_turns: int = 200):
    """One game between two players (anything with ``choose(game) -> Decision``), seat ``first`` starting.

    Args:
        players: two players, in seat order.
        lexicon: the word list.
        seed: the bag's seed (the same seed deals the same tiles to the seat that starts).
        first: the seat that moves first.
        rules: the rules (default :data:`engine.game.game.HOME`).
        max_turns: a safety cap on the number of turns.

    Returns:
        ``(game, cpu)``: the finished :class:`engine.game.game.Game` and per seat the CPU seconds its decisions took.
    """
    from engine.game.game import HOME, Game

    g = Game(2, lexicon, rules=rules or HOME, seed=seed, first=first, keep_undo=False)
    cpu = [0.0, 0.0]
    turns = 0
    while not g.over and turns < max_turns:
        p = g.to_move
        d = players[p].choose(g)
        cpu[p] += d.seconds
        d.apply(g)
        turns += 1
    if not g.over:
        g.end_by_agreement()
    return g, cpu


def play_pair(lexicon, pa, pb, seed: int, rules=None) -> dict:
    """Both games of one deal pair: bag seed ``seed``, seat 0 first, ``pa`` in seat 0, then ``pb``.

    Returns:
        ``{"seed", "spreads" (pa's, per game), "scores" ([pa, pb] per game), "cpu_a", "cpu_b"
        (CPU seconds of the decisions), "moves_a", "moves_b" (turns)}``.
    """
    out = {"seed": seed, "spreads": [], "scores": [], "cpu_a": 0.0, "cpu_b": 0.0, "moves_a": 0, "moves_b": 0}
    for seat_a in (0, 1):
        players = [pa, pb] if seat_a == 0 else [pb, pa]
        g, cpu = play_match_game(players, lexicon, seed, first=0, rules=rules)
        sa, sb = g.scores[seat_a], g.scores[1 - seat_a]
        out["spreads"].append(sa - sb)
        out["scores"].append([sa, sb])
        out["cpu_a"] += cpu[seat_a]
        out["cpu_b"] += cpu[1 - seat_a]
        turns = [sum(1 for t in g.turns if t.is_turn and t.player == s) for s in (0, 1)]
        out["moves_a"] += turns[seat_a]
        out["moves_b"] += turns[1 - seat_a]
    return out


def pair_summary(rows: list[dict]) -> dict:
    """A match from :func:`play_pair` rows, for player a: mean spread a game with a 95 % interval over
    pairs (the deal pair is the independent unit: ``1.96 × sd / sqrt(pairs)`` of the pair means), games
    won (a draw counts half) and mean CPU seconds per move of each side.

    Raises:
        ValueError: no rows.
    """
    import math

    if not rows:
        raise ValueError("no deal pairs")
    pairs = [sum(r["spreads"]) / len(r["spreads"]) for r in rows]
    n = len(pairs)
    mean = sum(pairs) / n
    half = 1.96 * math.sqrt(sum((x - mean) ** 2 for x in pairs) / (n - 1)) / math.sqrt(n) if n > 1 else float("nan")
    games = [s for r in rows for s in r["spreads"]]
    wins = sum(1 for s in games if s > 0) + 0.5 * sum(1 for s in games if s == 0)
    ma, mb = sum(r["moves_a"] for r in rows), sum(r["moves_b"] for r in rows)
    return {"pairs": n, "games": len(games), "spread": mean, "ci": [mean - half, mean + half],
            "wins_a": wins, "win_rate_a": wins / len(games),
            "cpu_per_move_a": sum(r["cpu_a"] for r in rows) / ma if ma else 0.0,
            "cpu_per_move_b": sum(r["cpu_b"] for r in rows) / mb if mb else 0.0}
