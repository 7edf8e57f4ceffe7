"""The deeper answer for a position's phase, within a time budget (practice and the web analysis).

* **bag empty** — the endgame solver (:func:`engine.analysis.endgame.solve`): best move,
  exact value (spread from now to the end, settlement included) and principal
  variation; ``complete`` says whether the value is exact or the time ran out;
* **1 to 3 tiles in the bag** — the pre-endgame (:func:`engine.analysis.preendgame.preendgame`):
  win rate and mean final spread per candidate over every draw;
* **otherwise** — a simulation (:func:`engine.analysis.simulation.simulate`, 2 plies,
  static equity players, in this process): mean spread with its 95 %
  confidence interval and win rate with its interval per candidate;
  candidates dropped by successive elimination at :data:`SIM_ERROR` (the
  iteration budget per candidate, which fixes the rule's union bound, comes
  from the time budget: :func:`sim_iterations`). With the opponent's last move
  known (``last_move``) the opponent's rack is drawn from the inferred leave
  distribution (:func:`engine.analysis.inference.infer`, as ``simulate --infer``).

:func:`phase_answer` returns one JSON-ready dict; :func:`phase_answer_cgp` is
the same for a CGP string and a lexicon path, for a worker process (the web app
runs it there so that the kernels, which hold the GIL, never stall the server).
"""

from __future__ import annotations

import math
import time

__all__ = ["PHASES", "phase_of", "phase_answer", "phase_answer_cgp", "format_answer", "sim_iterations", "warm_up",
           "MAX_SECONDS"]

PHASES = ("endgame", "preendgame", "simulation")
MAX_SECONDS = 60.0
"""Longest time budget accepted (seconds)."""
SIM_RATE = 3000.0
"""Simulation iterations per second assumed for the iteration budget (2 plies, one idle core; a loaded
machine runs fewer and the time limit stops the run first, which only makes the error level conservative)."""
SIM_ERROR = 0.05
"""Error level of the simulation's successive elimination."""


def sim_iterations(seconds: float, n_candidates: int) -> int:
    """Iterations per candidate for a simulation of ``seconds`` over ``n_candidates`` (200..20,000).

    The successive-elimination rule's union bound counts the checks an
    iteration budget allows (:func:`engine.analysis.simulation.elimination_z`); a budget
    far beyond what the time allows (e.g. 100,000) makes every check stricter
    than the stated error level needs. This one is what the time allows at
    :data:`SIM_RATE` for the last two candidates (elimination soon drops the
    others, and a cap per candidate of the time divided among all of them
    ended a 10 s analysis after 3 s); stopping earlier (time) keeps the error
    bound valid.
    """
    return int(min(20_000, max(200, seconds * SIM_RATE / max(1, min(n_candidates, 2)))))


def phase_of(position) -> str:
    """``"endgame"`` (bag empty), ``"preendgame"`` (1-3 tiles in the bag) or ``"simulation"``."""
    bag = position.bag_count or 0
    if bag <= 0:
        return "endgame"
    return "preendgame" if bag <= 3 else "simulation"


def _r(x, nd=2):
    return None if x is None or not math.isfinite(x) else round(float(x), nd)


INFERENCE_SHARE = 0.5
"""Most of a simulation's budget its inference from ``last_move`` may take (the racks checked by then are a
random sample: ``inferred["complete"]`` is False)."""

_clock = time.perf_counter
"""The budget's clock (a test replaces it)."""


def phase_answer(position, lexicon, *, table=None, seconds: float = 5.0, candidates: int = 6,
                 include: list[str] | None = None, seed: int = 0, last_move: str | None = None,
                 margin: float = 5.0) -> dict:
    """The solver's or the simulation's answer for the position's phase (module doc).

    Args:
        position: a parsed :class:`engine.position.cgp.Position` with a rack to move.
        lexicon: the word list.
        table: leave table (candidates and the static players; default: the packaged one).
        seconds: time budget (0 < seconds <= :data:`MAX_SECONDS`).
        candidates: candidates for the pre-endgame and the simulation (the best by static equity).
        include: moves in notation to simulate as well (e.g. the user's move in
            practice; ignored by the solvers, which rank their own candidates).
        seed: the simulation's seed (same seed, same numbers up to the time limit).
        last_move: the opponent's last move on this board (``"8H WO(R)T"``, ``"-3"``): the
            simulation draws the opponent's rack from the leave inferred from it
            (:func:`engine.analysis.inference.infer` with ``margin``); ignored by the solvers.

    Returns:
        ``{"phase", "seconds", ...}``:

        * endgame: ``move``, ``value``, ``pv``, ``depth``, ``complete``, ``final_spread``
          (current scores + value);
        * preendgame: ``method``, ``complete`` (every candidate exact), ``moves``:
          ``[{"move", "win", "spread", "exact", "exact_share", "draws"}]`` best first;
        * simulation: ``plies``, ``iterations`` (total), ``stop_reason``, ``error_level`` (elimination's
          level), ``inferred`` (``None`` without ``last_move``, else ``{"from", "consistent", "racks",
          "possible", "complete"}``: the racks checked within the inference's share of the budget,
          :data:`INFERENCE_SHARE`, of the ``possible`` ones; the opponent's rack comes from the
          inference when ``consistent > 0``), ``moves``:
          ``[{"move", "score", "iterations", "spread", "ci", "win", "win_ci", "equity"}]`` best first.

    Raises:
        ValueError: a bad budget or candidate count, an empty rack, a position the
            solver refuses (see :func:`engine.analysis.endgame.endgame_position`).
    """
    if not isinstance(seconds, (int, float)) or not math.isfinite(seconds) or not 0 < seconds <= MAX_SECONDS:
        raise ValueError(f"seconds must be between 0 and {MAX_SECONDS:g}, got {seconds!r}")
    if not 1 <= candidates <= 20:
        raise ValueError(f"candidates must be 1..20, got {candidates}")
    if not position.rack.any():
        raise ValueError("the position has no rack to move (CGP rack field is empty)")
    phase = phase_of(position)
    t0 = _clock()
    if phase == "endgame":
        from engine.analysis.endgame import endgame_position, solve

        r = solve(endgame_position(position), lexicon, time_limit=float(seconds))
        out = {"phase": phase, **r.to_json(),
               "final_spread": int(position.scores[0]) - int(position.scores[1]) + int(r.value)}
    elif phase == "preendgame":
        from engine.analysis.preendgame import preendgame

        res = preendgame(position, lexicon, top=candidates, time_limit=float(seconds), table=table)
        moves = [{"move": c["move"], "win": _r(c["win"], 4), "spread": _r(c["spread"]), "exact": bool(c["exact"]),
                  "exact_share": _r(c["exact_share"], 3), "draws": int(c["draws"])} for c in res["moves"]]
        out = {"phase": phase, "method": res["method"], "complete": all(m["exact"] for m in moves), "moves": moves}
    else:
        from engine.game.equity import position_candidates
        from engine.analysis.simulation import EquityPlayer, simulate

        cands = list(position_candidates(position, lexicon, candidates, table))
        names = {c.notation for c in cands}
        for m in include or []:
            if m and m not in names:
                cands.append(m)
                names.add(m)
        leaves = inferred = None
        if last_move:
            from engine.analysis.inference import infer

            # the inference counts against the budget: at most half of it, the simulation gets the rest
            inf = infer(position, last_move, lexicon, table=table, margin=margin, seed=seed,
                        deadline=t0 + INFERENCE_SHARE * float(seconds), clock=_clock)
            inferred = {"from": inf.move.notation, "consistent": int(inf.consistent), "racks": int(inf.racks),
                        "possible": int(inf.possible), "complete": bool(inf.racks == inf.possible)}
            if len(inf.weights):
                leaves = inf
        left = max(float(seconds) - (_clock() - t0), 0.05)
        res = simulate(position, lexicon, candidates=cands, plies=2, iterations=sim_iterations(left, len(cands)),
                       seed=seed, workers=1, backend="local", progress=False, player=EquityPlayer(table),
                       time_limit=left, stop_when_clearly_ahead=True, stop_rule="elimination", error=SIM_ERROR,
                       opponent_leaves=leaves)
        moves = []
        for c in res.ranked():
            eq = c.candidate.equity
            moves.append({"move": c.notation, "score": c.candidate.score, "iterations": c.iterations,
                          "spread": _r(c.mean_spread), "ci": [_r(c.ci[0]), _r(c.ci[1])],
                          "win": _r(c.win_rate, 4), "win_ci": [_r(c.win_ci[0], 4), _r(c.win_ci[1], 4)],
                          "equity": _r(eq) if eq is not None else None, "pruned": c.pruned_at is not None})
        out = {"phase": phase, "plies": res.plies, "iterations": res.total_iterations, "stop_reason": res.stop_reason,
               "error_level": SIM_ERROR, "inferred": inferred, "moves": moves}
    out["seconds"] = round(_clock() - t0, 2)
    return out


_LEXICONS: dict = {}


def warm_up(lexicon) -> None:
    """Load (or compile) the kernels of the three phases with tiny searches, outside any time budget.

    Numba loads a kernel from its cache on the first call, which under load can
    take seconds; a worker process calls this once at start so that a
    request's budget (e.g. the web's "Genauer rechnen") is spent on the search.
    In this process, the steps of :mod:`engine.analysis.warmup` that a search uses (move
    generation, the game and simulation kernels, the endgame with its pruned-lexicon
    specialisation), on made-up boards valid for any lexicon of the alphabet.
    """
    from engine.analysis.warmup import COMMAND_STEPS, warm_in_process

    warm_in_process(lexicon, COMMAND_STEPS["web"])


def phase_answer_cgp(cgp: str, lexicon_path: str | None, table_path: str | None = None, **kwargs) -> dict:
    """:func:`phase_answer` for a CGP string, loading (once per process) the lexicon and table from their paths."""
    from engine.position.cgp import parse_cgp

    key = (lexicon_path, table_path)
    hit = _LEXICONS.get(key)
    if hit is None:
        from lexicon_tools.bundle import Lexicon, load_lexicon

        from engine.leaves.table import LeaveTable, default_table

        lex = load_lexicon(None) if lexicon_path is None else Lexicon.load(lexicon_path)
        table = default_table() if table_path is None else LeaveTable.load(table_path)
        hit = _LEXICONS[key] = (lex, table)
    lex, table = hit
    return phase_answer(parse_cgp(cgp), lex, table=table, **kwargs)


def format_answer(ans: dict, mark: str | None = None) -> list[str]:
    """Text lines of a :func:`phase_answer` result; the move ``mark`` (e.g. the user's) is flagged with ``<``."""
    from engine.lang import num, tr  # in the run's language (the CLI's --lang)

    flag = lambda m: "  <" if mark is not None and m == mark else ""  # noqa: E731
    if ans["phase"] == "endgame":
        state = tr("exact") if ans["complete"] else tr("depth {depth}, not exact (time limit)", depth=ans["depth"])
        lines = [tr("endgame solver ({state}, {s:.1f} s): best {move}, value {value:+d} (final spread {final:+d})",
                    state=state, s=ans["seconds"], move=ans["move"], value=ans["value"], final=ans["final_spread"]),
                 tr("  pv: {pv}", pv=" | ".join(ans["pv"]))]
        if mark is not None:
            lines.append(tr("  your move is the solver's best") if mark == ans["move"]
                         else tr("  your move {move} is not the solver's best", move=mark))
        return lines
    if ans["phase"] == "preendgame":
        state = tr("exact") if ans["complete"] else tr("partly approximated")
        lines = [tr("pre-endgame ({state}, {s:.1f} s): {method}", state=state, s=ans["seconds"],
                    method=tr(ans["method"])),
                 f"  {tr('move'):<24} {tr('win%'):>6} {tr('spread'):>7}  {tr('exact')}"]
        for m in ans["moves"]:
            ex = tr("yes") if m["exact"] else tr("no ({share:.0f} % of the draws solved)",
                                                  share=100 * (m.get("exact_share") or 0))
            lines.append(f"  {m['move']:<24} {num(100 * m['win'], '>6.1f')} {num(m['spread'], '>+7.1f')}  {ex}"
                         f"{flag(m['move'])}")
        return lines
    inf = ans.get("inferred")
    if inf and inf["consistent"]:
        src = (tr("; opponent's rack from the leave inferred from {move}", move=inf["from"])
               + ("" if inf["complete"] else tr(" ({racks:,} of {possible:,} racks checked in time)",
                                                 racks=inf["racks"], possible=inf["possible"])))
    else:
        src = ""
    lines = [tr("simulation ({plies} plies, {n:,} iterations, {s:.1f} s; 95 % intervals{src}):", plies=ans["plies"],
                n=ans["iterations"], s=ans["seconds"], src=src),
             f"  {tr('move'):<24} {tr('score'):>5} {tr('iters'):>6} {tr('spread'):>7} {tr('95% CI'):>16} "
             f"{tr('win%'):>6} {tr('win 95% CI'):>13}"]
    for m in ans["moves"]:
        lo, hi = m["ci"]
        wl, wh = m["win_ci"]
        ci = tr("[{lo:+.1f}, {hi:+.1f}]", lo=lo, hi=hi) if lo is not None and hi is not None else "-"
        wci = tr("[{lo:.1f}, {hi:.1f}]", lo=100 * wl, hi=100 * wh) if wl is not None else "-"
        sp = num(m["spread"], ">+7.1f") if m["spread"] is not None else f"{'-':>7}"
        win = num(100 * m["win"], ">6.1f") if m["win"] is not None else f"{'-':>6}"
        lines.append(f"  {m['move']:<24} {m['score']:>5} {m['iterations']:>6} {sp} {ci:>16} {win} {wci:>13}"
                     f"{flag(m['move'])}")
    return lines
