"""Engine players of named strengths, for self-play, matches and practice.

A player looks at a live :class:`engine.game.game.Game` from the seat to move (its own rack,
the board, the scores, the number of tiles in the bag, the opponent's last move; never the
opponent's rack while the bag holds tiles) and returns a :class:`Decision`.

Strengths (:data:`STRENGTHS`):

* ``static`` — the static equity player (:func:`engine.game.equity.choose`: score + leave term).
* ``endgame`` — static while the bag holds tiles; with the bag empty the endgame solver
  (:func:`engine.analysis.endgame.solve`) within the time per move.
* ``sim`` — a 2-ply simulation (:func:`engine.analysis.simulation.simulate`, static equity
  players, successive elimination) of the top candidates whenever the bag holds tiles, within
  the time per move; static with the bag empty.
* ``full`` — the simulation while the bag holds more than 3 tiles, the pre-endgame
  (:func:`engine.analysis.preendgame.preendgame`, the opponent's racks weighted by the inference
  from its last move, passing as a candidate) with 1 to 3 tiles, the endgame solver with the
  bag empty.

The time per move (``seconds``) is a wall-clock limit handed to the search (its own clock); the
process is single-threaded, so the CPU time per move is at most about that much (a search may
overshoot by one batch or one solver depth). It never includes compiling: call :meth:`Player.warm_up`
(or play one game) before timing anything.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

STRENGTHS = ("static", "endgame", "sim", "full")
"""The named strengths, weakest first (module doc)."""

PREENDGAME_BAG = 3
"""``full`` uses the pre-endgame with 1 to this many tiles in the bag."""
SIM_CANDIDATES = 8
"""Candidates simulated (the best by static equity)."""
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

    def __repr__(self) -> str:
        return f"Player({self.strength!r}, {self.seconds:g} s)"

    # -- the decision ---------------------------------------------------------------------------------
    def choose(self, game) -> Decision:
        """The decision for the player to move in ``game`` (module doc); the game is not changed."""
        t0 = time.process_time()
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
        return replace(d, seconds=time.process_time() - t0)

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

        r = solve(endgame_position(self._view(game)), game.lexicon, time_limit=self.seconds)
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
                       time_limit=self.seconds, stop_when_clearly_ahead=True, stop_rule="elimination")
        b = res.best.candidate
        if b.kind == "exchange" and game.scoreless_turns >= game.rules.end_pass_rounds * game.n - 1:
            return self._static(game)  # never run the game into the pass limit by exchanging
        return Decision(b.kind, b.move, b.exchanged, "simulation")

    def _preendgame(self, game) -> Decision:
        from engine.analysis.preendgame import preendgame

        pos = self._view(game)
        opponent = self._inference(game, pos) if self.infer else None
        res = preendgame(pos, game.lexicon, top=PRE_CANDIDATES, time_limit=self.seconds, table=self.table,
                         opponent=opponent, seed=self.seed)
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
