"""Partieanalyse: the review of a whole game, turn by turn.

:func:`review` replays a :class:`~engine.game.game.GameRecord` (a GCG file read by
:mod:`engine.game.gcg`, a game against the computer, a self-play game) and, for
every turn whose rack is known, compares the move played with the engine's
best move:

* **static equity** (default, bag not empty): every legal move of the rack is
  generated (:func:`engine.movegen.generator.generate_moves`) and ranked by the static
  equity of :mod:`engine.game.equity` (score + leave term with the end-of-bag
  correction; exchanges when the bag holds at least 7 tiles). The played move's
  equity is its recorded score plus the leave term of the tiles it kept; the
  loss is ``equity(best) − equity(played)`` in points, ``≥ 0``.
* **endgame** (bag empty, two players): the endgame solver
  (:func:`engine.analysis.endgame.solve`) decides the turn exactly. The best value is
  the solver's; the played move's value is its score, plus twice the
  opponent's rack when it goes out (German settlement), minus the solver's
  value of the position after it (or the pass settlement after the fourth
  scoreless turn). The loss is the difference in spread points.
* **with a time per turn** (``seconds``): turns with at least 4 tiles in the
  bag are simulated (:func:`engine.analysis.phase.phase_answer`, 2 plies, the played
  move among the candidates) and the loss is the win % (percentage points) the
  played move gives up against the simulation's best; turns the simulation
  cannot rank (1–3 tiles in the bag) stay at static equity.

Each loss gets a mark (:data:`MARKS`, thresholds in the loss's unit):
``Ungenauigkeit`` (inaccuracy), ``Fehler`` (mistake) or ``Patzer`` (blunder);
below the lowest threshold none. Per player: turns reviewed, average loss per
turn, missed bingos (a 7-tile play was possible and another move was played)
and the points lost in the endgame. The win % curve is the first player's
chance to win before every turn and at the end, from the packaged self-play
win table (:class:`engine.analysis.simulation.WinTable`; two players only).

Turns whose rack is unknown (a Punkteblock game without racks typed) are listed
with ``loss`` ``None`` (note :data:`NOTE_RACK`), as are exchanges recorded only by
their count. A turn of points typed by hand on the Punkteblock (no placement:
``Kind.HAND``) is not reviewable (:data:`NOTE_HAND`), and neither is any turn after
it (:data:`NOTE_BOARD`): the board of the record lacks that turn's tiles, so the
best move and the bag would be computed on a position that was not the game's.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Callable

import numpy as np

__all__ = ["MARKS", "WIN_MARKS", "ReviewTurn", "Review", "review", "mark_for", "win_svg", "PUZZLE_MIN_LOSS",
           "NOTE_RACK", "NOTE_HAND", "NOTE_BOARD", "NOTE_EXCHANGE"]

MARKS = ((15.0, "Patzer"), (7.0, "Fehler"), (3.0, "Ungenauigkeit"))
"""Marks by loss in equity / spread points, largest first: at least 15 a blunder (Patzer),
at least 7 a mistake (Fehler), at least 3 an inaccuracy (Ungenauigkeit); less: no mark.
(A 3-point loss is about a poor leave, 7 a clearly worse play, 15 a lost bingo's worth of a turn.)"""

WIN_MARKS = ((15.0, "Patzer"), (10.0, "Fehler"), (5.0, "Ungenauigkeit"))
"""Marks by loss in win percentage points (with a time per turn), as Lichess marks chess moves by
lost winning chances: at least 15 a blunder, 10 a mistake, 5 an inaccuracy."""

NOTE_RACK = "rack unknown"
"""``ReviewTurn.note`` of a turn whose rack the record does not give."""
NOTE_HAND = "points by hand"
"""``ReviewTurn.note`` of a turn of points typed by hand (its placement is not in the record)."""
NOTE_BOARD = "board incomplete"
"""``ReviewTurn.note`` of a turn after a turn of points by hand (the record's board lacks its tiles)."""
NOTE_EXCHANGE = "exchanged tiles unknown"
"""``ReviewTurn.note`` of an exchange recorded by its number of tiles only."""

PUZZLE_MIN_LOSS = 7.0
"""Turns with at least this loss (equity points; win % points with a time) become puzzles (a Fehler or worse)."""


def mark_for(loss: float | None, unit: str = "equity") -> str | None:
    """The mark of a loss (``None``: no mark, or no loss known).

    Args:
        loss: the loss (``≥ 0``) in ``unit``.
        unit: ``"equity"`` / ``"spread"`` (points, :data:`MARKS`) or ``"win"`` (percentage points, :data:`WIN_MARKS`).
    """
    if loss is None:
        return None
    for threshold, name in (WIN_MARKS if unit == "win" else MARKS):
        if loss >= threshold:
            return name
    return None


@dataclass
class ReviewTurn:
    """One reviewed turn.

    Attributes:
        turn: 0-based index among the players' turns (as ``engine gcg --position``).
        player: the mover's nickname.
        played: the move in notation (``8H WO(R)T``, ``-ABC`` exchange, ``-`` pass).
        best: the engine's best move (``None`` when the turn could not be reviewed).
        loss: what the played move gave up, ``≥ 0``, in ``unit`` (``None``: not reviewed).
        mark: ``"Ungenauigkeit"``, ``"Fehler"``, ``"Patzer"`` or ``None``.
        unit: ``"equity"`` (points), ``"spread"`` (endgame points) or ``"win"`` (percentage points).
        method: ``"static"``, ``"endgame"``, ``"simulation"`` or ``"unknown"``.
        rack: the rack before the move (``""`` unknown).
        score, best_score: points of the two moves.
        value, best_value: equity (static), spread to the end (endgame) or win % (simulation).
        bag: tiles in the bag before the move.
        bingo_missed: a 7-tile play was possible and the player did not play one.
        exact: the endgame solver searched both values to the end (endgame turns).
        cgp: the position before the move (for the board view and puzzles).
        note: why a turn was not reviewed, else ``""``.
    """

    turn: int
    player: str
    played: str
    best: str | None
    loss: float | None
    mark: str | None
    unit: str
    method: str
    rack: str = ""
    score: int = 0
    best_score: int | None = None
    value: float | None = None
    best_value: float | None = None
    bag: int = 0
    bingo_missed: bool = False
    exact: bool | None = None
    cgp: str = ""
    note: str = ""


@dataclass
class Review:
    """A whole game's review: :attr:`turns`, per-player figures, the win % curve.

    Attributes:
        players: nicknames in seat order.
        turns: :class:`ReviewTurn` per player turn (only the chosen player's with ``player=``).
        win: P(the first player wins) before every turn and, last, the result
            (1, ½, 0) when the game is over; empty for more than two players.
        unit: ``"equity"`` (static review) or ``"win"`` (with a time per turn).
        seconds: wall time of the review.
    """

    players: list[str]
    turns: list[ReviewTurn]
    win: list[float] = field(default_factory=list)
    unit: str = "equity"
    seconds: float = 0.0
    final_scores: list[int] = field(default_factory=list)

    def summary(self) -> dict:
        """``{nick: {"turns", "average_loss", "missed_bingos", "endgame_loss", "marks"}}`` per player
        with turns in the review. ``turns``: turns with a loss; ``average_loss``: over the turns whose
        loss is in the review's unit (at static equity the endgame's spread points count too, they
        are the same points; with a time per turn only the win % turns); ``endgame_loss``: spread
        points lost in the turns the endgame solver decided; ``marks``: count per mark."""
        out = {}
        for nick in self.players:
            mine = [t for t in self.turns if t.player == nick]
            if not mine:
                continue
            ends = [t.loss for t in mine if t.loss is not None and t.method == "endgame"]
            same = ("equity", "spread") if self.unit == "equity" else (self.unit,)
            losses = [t.loss for t in mine if t.loss is not None and t.unit in same]
            marks = {name: sum(1 for t in mine if t.mark == name) for _thr, name in reversed(MARKS)}
            out[nick] = {"turns": len([t for t in mine if t.loss is not None]),
                         "average_loss": round(sum(losses) / len(losses), 2) if losses else None,
                         "missed_bingos": sum(1 for t in mine if t.bingo_missed),
                         "endgame_loss": round(sum(ends), 2), "marks": marks}
        return out

    def to_json(self) -> dict:
        """The CLI's ``--json`` object: ``{"turns": [{"turn", "player", "played", "best", "loss",
        "mark", ...}], "players": {nick: {"turns", "average_loss", "missed_bingos", ...}}, "unit", "win"}``."""
        turns = []
        for t in self.turns:
            d = asdict(t)
            turns.append(d)
        return {"turns": turns, "players": self.summary(), "unit": self.unit,
                "win": [round(w, 4) for w in self.win], "final_scores": list(self.final_scores)}

    def puzzles(self, n: int = 5, min_loss: float | None = None) -> list[ReviewTurn]:
        """The turns that lost the most (at least ``min_loss``, default :data:`PUZZLE_MIN_LOSS`), largest first:
        "find the better move" puzzles (their ``cgp`` is the position, ``best`` the answer)."""
        floor = PUZZLE_MIN_LOSS if min_loss is None else min_loss
        cand = [t for t in self.turns if t.loss is not None and t.loss >= floor and t.best and t.cgp]
        cand.sort(key=lambda t: (-t.loss, t.turn))
        return cand[:n]


def _round(x: float) -> float:
    return round(float(x), 3)


def _played_notation(t) -> str:
    from engine.game.game import Kind

    if t.kind in (Kind.PLAY, Kind.WITHDRAWN):
        return t.move.notation
    if t.kind == Kind.EXCHANGE:
        return f"-{t.exchanged or t.exchange_count}"
    if t.kind == Kind.HAND:
        return "by hand"
    return "-"


def _leave_after(t, alphabet) -> np.ndarray | None:
    """Counts of the tiles the mover keeps after turn ``t`` (``None`` if not known)."""
    from engine.game.game import Kind, _counts

    rack = _counts(t.rack, alphabet)
    if t.kind == Kind.PLAY:
        for _r, _c, ch, blank in t.move.tiles:
            rack[0 if blank else alphabet.code(ch)] -= 1
    elif t.kind == Kind.EXCHANGE:
        if not t.exchanged:
            return None
        rack = rack - _counts(t.exchanged, alphabet)
    if (rack < 0).any():
        return None
    return rack


class _Static:
    """Static-equity review of one position (generation + ranking), shared by the turns."""

    def __init__(self, lexicon, table, params):
        from engine.game.equity import EquityParams
        from engine.leaves.table import default_table

        self.lexicon = lexicon
        self.table = table if table is not None else default_table()
        self.params = params or EquityParams.of(self.table)

    def best(self, pos):
        """``(best Candidate-like tuple (notation, score, equity), bingo_possible)``."""
        from engine.position._rows import OUT_NTILES
        from engine.game.equity import list_equity
        from engine.movegen.generator import generate_moves

        ml = generate_moves(pos.board, pos.rack, self.lexicon)
        eq, exch = list_equity(pos, ml, self.table, self.params, n_exchanges=1)
        best = None
        if len(ml):
            top = float(eq.max())
            idx = np.flatnonzero(eq >= top).tolist()
            i = min(idx, key=ml.notation) if len(idx) > 1 else idx[0]
            best = (ml.notation(i), int(ml.scores[i]), float(eq[i]))
        if exch and (best is None or exch[0].equity > best[2]):
            best = (exch[0].notation, 0, float(exch[0].equity))
        if best is None:  # nothing to play or exchange: a pass keeps the whole rack
            from engine.game.equity import leave_term, out_bonus

            bag = pos.bag_count or 0
            bonus = out_bonus(pos.board, pos.rack, pos.unseen()) if bag <= 0 else 0.0
            best = ("-", 0, leave_term(self.table, pos.rack, bag, bonus, self.params))
        seven = pos.alphabet.rack_size
        bingo = bool(len(ml)) and bool((ml.rows[:, OUT_NTILES] >= seven).any())
        return best, bingo

    def value(self, pos, score: int, leave: np.ndarray) -> float:
        """Equity of a move scoring ``score`` and keeping ``leave`` (counts) in ``pos``."""
        from engine.game.equity import leave_term, out_bonus

        bag = pos.bag_count or 0
        bonus = out_bonus(pos.board, pos.rack, pos.unseen()) if bag <= 0 else 0.0
        return float(score) + leave_term(self.table, leave, bag, bonus, self.params)


def _endgame_values(record, k: int, pos, t, lexicon, seconds: float):
    """``(best move, best value, played value, exact)`` of an endgame turn (two players), spread points."""
    from engine.analysis.endgame import endgame_position, solve
    from engine.game.game import Kind, rack_value

    a = record.alphabet
    pos = endgame_position(pos)
    best = solve(pos, lexicon, time_limit=seconds)
    played = _played_notation(t)
    if t.kind == Kind.PLAY and played == best.move or (t.kind == Kind.PASS and best.move == "pass"):
        return best, float(best.value), float(best.value), best.complete
    leave = _leave_after(t, a)
    opp = pos.opponent_rack
    score = t.score if t.kind == Kind.PLAY else 0
    if leave is not None and not leave.any():  # went out: the opponent's rack counts twice
        return best, float(best.value), float(score + 2 * rack_value(opp, a)), best.complete
    zero = 0 if score else pos.zero_turns + 1
    from engine.analysis import _endgame as _E

    if zero >= _E.END_PASSES:  # the fourth scoreless turn ends the game: each side loses its own rack
        return best, float(best.value), float(score - rack_value(leave, a) + rack_value(opp, a)), best.complete
    nxt = record.position(k + 1)
    after = solve(endgame_position(nxt), lexicon, time_limit=seconds)
    return best, float(best.value), float(score - after.value), best.complete and after.complete


def _win_curve(record, win_table) -> list[float]:
    """P(first player wins) before every turn, then the result (two players)."""
    from engine.game.game import Kind

    if record.n_players != 2:
        return []
    a = record.alphabet
    out = []
    turns = record.moves
    for k, t in enumerate(turns):
        pos = record.position(k)
        lead = pos.scores[0] - pos.scores[1]
        left = a.total_tiles - pos.board.tile_count
        p = win_table.probability(lead, left, True)
        out.append(p if t.player == 0 else 1.0 - p)
    if record.end_reason:
        s = record.scores
        out.append(1.0 if s[0] > s[1] else (0.5 if s[0] == s[1] else 0.0))
    elif turns:
        pos = record.position(len(turns))
        mover = (turns[-1].player + 1) % 2
        p = win_table.probability(pos.scores[0] - pos.scores[1], a.total_tiles - pos.board.tile_count, True)
        out.append(p if mover == 0 else 1.0 - p)
    del Kind
    return out


def review(record, lexicon, *, table=None, params=None, seconds: float | None = None, player: str | None = None,
           endgame: bool = True, endgame_seconds: float = 10.0, seed: int = 0,
           progress: Callable[[int, int, str], None] | None = None) -> Review:
    """Review every turn of a game record (module doc).

    Args:
        record: a :class:`~engine.game.game.GameRecord` (e.g. from :func:`engine.game.gcg.read_gcg`).
        lexicon: the word list the game was played with.
        table: leave table (default: the packaged German one); params: equity parameters (default: the table's).
        seconds: time per turn for a simulation (win % review); ``None``: static equity.
        player: review only this player's turns (a nickname of the record).
        endgame: decide the turns with an empty bag by the endgame solver (two players).
        endgame_seconds: time limit per endgame solve (the answer is exact when the solve completes).
        seed: the simulation's seed (same seed, same result when the time does not cut a run short).
        progress: called ``(done, total, what)`` before each turn.

    Returns:
        a :class:`Review`.

    Raises:
        ValueError: an unknown ``player``, a bad ``seconds``.
    """
    from engine.game.game import Kind

    if player is not None and player not in record.players:
        raise ValueError(f"player {player!r} is not in the game (players: {', '.join(record.players)})")
    if seconds is not None and not seconds > 0:
        raise ValueError(f"seconds must be positive, got {seconds!r}")
    t0 = time.perf_counter()
    static = _Static(lexicon, table, params)
    unit = "win" if seconds else "equity"
    moves = record.moves
    todo = [k for k, t in enumerate(moves) if player is None or record.players[t.player] == player]
    out: list[ReviewTurn] = []
    a = record.alphabet
    first_hand = next((k for k, t in enumerate(moves) if t.kind == Kind.HAND), len(moves))
    for done, k in enumerate(todo):
        t = moves[k]
        nick = record.players[t.player]
        played = _played_notation(t)
        if progress is not None:
            progress(done, len(todo), f"{k}: {nick} {played}")
        pos = record.position(k)
        bag = int(pos.bag_count or 0)
        rt = ReviewTurn(k, nick, played, None, None, None, unit, "unknown", rack=t.rack, score=int(t.score),
                        bag=bag, cgp=pos.to_cgp() if t.rack else "")
        if k >= first_hand:  # points by hand, or a turn after one: the record's board is not the game's
            rt.note = NOTE_HAND if t.kind == Kind.HAND else NOTE_BOARD
            rt.cgp = ""
            out.append(rt)
            continue
        if not t.rack:
            rt.note = NOTE_RACK
            out.append(rt)
            continue
        leave = _leave_after(t, a)
        (b_not, b_score, b_eq), bingo = static.best(pos)
        rt.bingo_missed = bingo and not (t.kind == Kind.PLAY and t.move.tiles_played == a.rack_size)
        if bag <= 0 and endgame and record.n_players == 2:
            best, bv, pv, exact = _endgame_values(record, k, pos, t, lexicon, endgame_seconds)
            rt.method, rt.unit, rt.exact = "endgame", "spread", bool(exact)
            rt.best, rt.best_value, rt.value = best.move if best.move != "pass" else "-", bv, pv
            rt.best_score = _score_of(static, pos, best.move)
            rt.loss = _round(max(0.0, bv - pv))
        elif seconds and bag > 3:
            from engine.analysis.phase import phase_answer

            ans = phase_answer(pos, lexicon, table=static.table, seconds=seconds, include=[played], seed=seed)
            ranked = ans["moves"]
            mine = next((m for m in ranked if m["move"] == played), None)
            if mine is None or mine["win"] is None:
                rt.note = "the simulation could not rank the played move"
            else:
                top = max(ranked, key=lambda m: (m["win"], m["spread"] or 0.0))
                rt.method = "simulation"
                rt.best, rt.best_score = top["move"], int(top["score"])
                rt.best_value, rt.value = 100.0 * top["win"], 100.0 * mine["win"]
                rt.loss = _round(max(0.0, rt.best_value - rt.value))
        if rt.loss is None and not rt.note:
            rt.method, rt.unit = "static", "equity"
            rt.best, rt.best_score, rt.best_value = b_not, b_score, _round(b_eq)
            if leave is None:
                rt.note = NOTE_EXCHANGE
            else:
                score = int(t.score) if t.kind == Kind.PLAY else 0
                v = static.value(pos, score, leave)
                rt.value = _round(v)
                rt.loss = _round(max(0.0, b_eq - v))
        if rt.loss is not None and rt.loss < 5e-4:
            rt.loss = 0.0
        rt.mark = mark_for(rt.loss, rt.unit)
        out.append(rt)
    from engine.analysis.simulation import DEFAULT_WIN_MODEL

    win = _win_curve(record, DEFAULT_WIN_MODEL)
    return Review(list(record.players), out, win, unit, round(time.perf_counter() - t0, 3), list(record.scores))


def _score_of(static: _Static, pos, notation: str) -> int | None:
    """Score of a move in notation in ``pos`` (``None`` for a pass or an unreadable move)."""
    if notation in ("pass", "-"):
        return 0
    from engine.position.scorer import IllegalMove, check_move

    try:
        return int(check_move(pos.board, notation).score)
    except (IllegalMove, ValueError, TypeError):
        return None


# ---------------------------------------------------------------------------
# The win % picture
# ---------------------------------------------------------------------------
def win_svg(rv: Review, width: int = 640, height: int = 240, en: bool = False) -> str:
    """The win % curve of a review as a self-contained SVG (text).

    The first player's chance to win (0–100 %) over the turns; the 50 % line
    dashed; turns marked as Fehler or Patzer get a dot (red for Patzer).

    Args:
        rv: the review (``rv.win`` must be non-empty, else an SVG saying so).
        width, height: pixels.
        en: English labels.

    Returns:
        the SVG document (UTF-8 text, ``viewBox`` so it scales to its container).
    """
    from html import escape

    pad_l, pad_r, pad_t, pad_b = 40, 12, 22, 28
    w, h = width - pad_l - pad_r, height - pad_t - pad_b
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
            f'height="{height}" role="img" font-family="sans-serif" font-size="12">')
    first = rv.players[0] if rv.players else ""
    title = (f"Win chance of {first}" if en else f"Gewinnchance {first}")
    parts = [head, f"<title>{escape(title)}</title>",
             f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fff"/>']
    if not rv.win:
        msg = "no win % curve (two players only)" if en else "keine Gewinnkurve (nur bei zwei Spielern)"
        parts.append(f'<text x="{width / 2}" y="{height / 2}" text-anchor="middle">{escape(msg)}</text></svg>')
        return "".join(parts)
    n = len(rv.win)

    def x(i: float) -> float:
        return pad_l + (w * i / max(n - 1, 1))

    def y(p: float) -> float:
        return pad_t + h * (1.0 - p)

    for p in (0.0, 0.25, 0.5, 0.75, 1.0):
        dash = ' stroke-dasharray="4 3"' if p == 0.5 else ""
        parts.append(f'<line x1="{pad_l}" y1="{y(p):.1f}" x2="{pad_l + w}" y2="{y(p):.1f}" stroke="#bbb"{dash}/>')
        parts.append(f'<text x="{pad_l - 4}" y="{y(p) + 4:.1f}" text-anchor="end">{int(p * 100)} %</text>')
    pts = " ".join(f"{x(i):.1f},{y(p):.1f}" for i, p in enumerate(rv.win))
    area = f"{x(0):.1f},{y(0.5):.1f} {pts} {x(n - 1):.1f},{y(0.5):.1f}"
    parts.append(f'<polygon points="{area}" fill="#2a7" fill-opacity="0.15"/>')
    parts.append(f'<polyline points="{pts}" fill="none" stroke="#175" stroke-width="2"/>')
    for t in rv.turns:
        if t.mark in ("Fehler", "Patzer") and t.turn < n:
            colour = "#c22" if t.mark == "Patzer" else "#e80"
            parts.append(f'<circle cx="{x(t.turn):.1f}" cy="{y(rv.win[t.turn]):.1f}" r="4" fill="{colour}">'
                         f"<title>{t.turn + 1}: {escape(t.player)} {escape(t.played)} ({escape(t.mark)})</title>"
                         f"</circle>")
    step = max(1, (n - 1) // 10 or 1)
    for i in range(0, n, step):
        parts.append(f'<text x="{x(i):.1f}" y="{height - 8}" text-anchor="middle">{i + 1}</text>')
    label = "Zug" if not en else "turn"
    parts.append(f'<text x="{pad_l}" y="14">{escape(title)} (%)</text>')
    parts.append(f'<text x="{pad_l + w}" y="14" text-anchor="end">{label}</text>')
    parts.append("</svg>")
    return "".join(parts)
