"""CLI plug-in (see :data:`engine.cli.main.PLUGINS`): ``analyze`` and ``practice``.

* ``python -m engine analyze (--cgp CGP | --gcg FILE [--turn K]) [--top N | --all] [--leaves KLV] [--lexicon L] [--json]``
  — the moves of a position ranked by static equity (score + leave value, with
  the end-of-bag correction of :mod:`engine.game.equity`): move, score, leave, leave
  value, equity. ``--top N`` uses the best-first generator ranked by equity
  (only what can reach the top ``N`` is generated); ``--all`` ranks every move.
  It also searches, within ``--time S`` (default 10 s): with the bag empty the
  endgame solver (:mod:`engine.analysis.endgame`), with 1 to 3 tiles in the bag the
  pre-endgame (:mod:`engine.analysis.preendgame`), otherwise, when ``--time`` is given,
  a 2-ply simulation of the best candidates (:mod:`engine.analysis.simulation`,
  successive elimination at a 5 % error level, ``--sim-seed``; with ``--infer
  --last-move M`` the opponent's rack is drawn from the leave inferred from
  their last move, as ``simulate --infer``); ``--static`` skips all of that.
  The budget counts from the process's start.
* ``python -m engine practice --seed S [--turns K] [--move M] [--top N] [--time S | --static] [--leaves KLV] [--lexicon L] [--json]``
  — deals a position (a game between equity players, ``K`` turns in, both
  reproducible from ``S``), shows the board and the rack, takes the user's move
  (``--move``, else one line from stdin; ``8H WORT`` / ``H8 WO(R)T``, ``-ABC``
  to exchange A, B, C), and shows where it ranks among all moves by score and
  by equity, next to the best moves; then, within ``--time S`` (default 5 s),
  the deeper answer for the position's phase (:mod:`engine.analysis.phase`): the endgame
  solver's exact value and PV, the pre-endgame's win % and spread per
  candidate, or the simulation's spread and win % with their 95 % intervals
  (the user's move simulated too, the opponent's rack drawn from the leave
  inferred from their last move of the dealt game, :mod:`engine.analysis.inference`);
  ``--static`` skips it.

Bad input prints ``error: ...`` and exits 2 (:func:`engine.cli.main.main`).
"""

from __future__ import annotations

import json
import random
import sys
import time

from engine.lang import num, tr


def _note(msg: str) -> None:
    from engine.cli.main import _note as note

    note(msg)


def _lexicon(path):
    from lexicon_tools.bundle import load_lexicon

    from engine.cli.main import _note

    return load_lexicon(path, progress=_note, translate=tr)


def _table(path):
    from engine.cli.main import _note
    from engine.leaves.table import LeaveTable, default_table

    return default_table(progress=_note) if path is None else LeaveTable.load(path, note=_note)


def _cand_json(c, rank: int | None = None) -> dict:
    d = {"move": c.notation, "kind": c.kind, "score": c.score, "leave": c.leave,
         "leave_value": round(c.leave_value, 3), "equity": round(c.equity, 3)}
    if rank is not None:
        d["rank"] = rank
    return d


def _rows(cands, start: int = 1, mark=None) -> list[str]:
    lines = [f"{'#':>4}  {tr('move'):<24} {tr('score'):>5}  {tr('leave'):<8} {tr('leave value'):>11} "
             f"{tr('equity'):>8}"]
    for i, c in enumerate(cands, start):
        flag = " <" if mark is not None and c is mark else ""
        lines.append(f"{i:>4}  {c.notation:<24} {c.score:>5}  {c.leave or '-':<8} {num(c.leave_value, '>11.2f')} "
                     f"{num(c.equity, '>8.2f')}{flag}")
    return lines


def _header(pos, table) -> str:
    from engine.game.equity import EquityParams, leave_scale

    bag = pos.bag_count or 0
    params = EquityParams.of(table)
    if bag > 0:
        note = tr("leave values × {scale:.2f}", scale=leave_scale(bag, params))
    else:
        note = tr("bag empty: going out +2×unseen, tiles kept −(2×value + {stuck:g})", stuck=params.stuck_penalty)
    return tr("rack {rack}  bag {bag}  ({note})", rack=pos.rack_string, bag=bag, note=note)


def cmd_analyze(args) -> int:
    """``analyze``: rank a position's moves by static equity."""
    from engine.position.cgp import parse_cgp
    from engine.game.equity import position_candidates

    t_start = _process_start()
    if args.top is not None and args.top < 1:
        raise ValueError(tr("--top must be at least 1, got {n}", n=args.top))
    if args.candidates is not None and not 1 <= args.candidates <= 100:
        raise ValueError(tr("--candidates must be 1..100, got {n}", n=args.candidates))
    if args.last_move is not None and not args.infer:
        raise ValueError(tr("--last-move is read only with --infer"))
    if args.infer and args.static:
        raise ValueError(tr("--infer and --static exclude each other (--infer is for the simulation)"))
    if args.turn is not None and args.gcg is None:
        raise ValueError(tr("--turn is read only with --gcg"))
    if args.gcg is not None:
        import argparse as _ap

        from engine.cli.game import _record_lexicon
        from engine.game.gcg import read_gcg_file
        from engine.analysis.inference import from_record

        lex = _record_lexicon(_ap.Namespace(file=args.gcg, lexicon=args.lexicon))
        record = read_gcg_file(args.gcg, lex)
        try:
            pos, last = from_record(record, args.turn)
        except ValueError as exc:  # e.g. turn 0 or after a pass: nothing to infer from, still a position
            if args.infer:
                raise
            pos, last = _record_position(record, args.turn), None
            _note(str(exc))
        if args.infer and args.last_move is None:
            args.last_move = last
        _note(tr("position {cgp} (the opponent's last move: {last})", cgp=pos.to_cgp(), last=last) if last
              else tr("position {cgp}", cgp=pos.to_cgp()))
    else:
        pos = parse_cgp(args.cgp, allow_impossible=args.allow_impossible)
        lex = None
    if not pos.rack.any():
        raise ValueError(tr("the position has no rack to move (CGP rack field is empty)"))
    if pos.game_over():
        raise ValueError(tr("nothing to analyse: {why}", why=tr(pos.game_over())))
    table = _table(args.leaves)
    lex = lex or _lexicon(args.lexicon)
    from engine.position.cgp import warn_notes

    warn_notes(pos, lex)
    n = None if args.all else (args.top or 20)
    cands = position_candidates(pos, lex, n, table)
    search = None if args.static else _search(pos, lex, table, args, t_start)
    rc = 130 if search is not None and search[3] else 0  # Ctrl-C: the figures so far, then the shell's 128 + SIGINT
    if args.json:
        out = {"rack": pos.rack_string, "bag": pos.bag_count,
               "moves": [_cand_json(c, i) for i, c in enumerate(cands, 1)]}
        if search is not None:
            out[search[0]] = search[1]
        print(json.dumps(out, ensure_ascii=False))
        return rc
    if search is not None:
        for line in search[2]:
            print(line)
        print()
    print(_header(pos, table))
    for line in _rows(cands):
        print(line)
    return rc


def _process_start() -> float:
    """The ``time.perf_counter()`` reading of this process's start (Linux ``/proc``), or now.

    ``analyze --time S`` run as a command (``python -m engine``, ``scrabble-engine``)
    counts its budget from there, so the command returns about ``S`` seconds
    after it was started, Python's start-up and imports included. Called in
    another program (tests, a server) it counts from now.
    """
    import os
    from pathlib import Path

    now = time.perf_counter()
    prog = Path(sys.argv[0]) if sys.argv and sys.argv[0] else Path()
    if prog.parts[-2:] != ("engine", "__main__.py") and prog.name != "scrabble-engine":
        return now
    try:
        with open("/proc/self/stat", encoding="ascii") as f:
            ticks = int(f.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime", encoding="ascii") as f:
            up = float(f.read().split()[0])
        age = up - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return now
    return now - age if 0.0 <= age < 60.0 else now


def _record_position(record, turn):
    """The position before ``turn`` (default: after the last entry) of a record as its mover sees it."""
    from dataclasses import replace

    from engine.game.game import Kind

    n = len([t for t in record.turns if t.kind in Kind.TURNS])
    k = n if turn is None else int(turn)
    if not 0 <= k <= n:
        raise ValueError(tr("--turn {k}: the game has turns 0..{n}", k=k, n=n))
    pos = record.position(k)
    return replace(pos, opponent_rack=None, opcodes={**pos.opcodes, "bag": str(pos.bag_count)})


def _search(pos, lex, table, args, t_start: float):
    """The endgame (bag empty), pre-endgame (1-3 tiles) or simulation answer: ``(json key, object, text lines,
    interrupted)`` or None; ``interrupted``: Ctrl-C ended the search, the answer is the one reached so far.

    The time budget (``--time``, default 10 s) counts from ``t_start``, the start of
    the process (:func:`_process_start`: Python's start-up, the lexicon and the leave
    table loaded, the candidates ranked all count), so that the command returns
    about ``--time`` seconds after it began; on a first run, from the end of the
    kernels' compilation (:func:`engine.analysis.warmup.warm_if_cold`, with a note).
    """
    from engine.cli.endgame import _note, _seconds
    from engine.analysis.warmup import warm_if_cold

    bag = pos.bag_count or 0
    limit = _seconds(args.time) if args.time is not None else 10.0  # bad input is refused before any compile
    if (bag <= 3 or args.time is not None) and warm_if_cold(lex, _note, "analyze"):
        t_start = time.perf_counter()  # a first run compiled the kernels: the budget starts now
    limit = max(limit - (time.perf_counter() - t_start), min(limit, 0.5))
    if bag == 0:
        from engine.analysis.endgame import SearchInterrupted, endgame_position, solve

        try:
            epos = endgame_position(pos)
        except ValueError as exc:  # e.g. more than 7 unseen tiles: not an endgame after all
            _note(tr("no endgame search ({why})", why=tr(str(exc))))
            return None
        try:
            r, stopped = solve(epos, lex, time_limit=limit), False
        except SearchInterrupted as stop:  # Ctrl-C: the deepest finished depth's answer
            _note("interrupted (Ctrl-C); the answer of the deepest completed depth follows")
            r, stopped = stop.result, True
        if r.complete:
            lines = [tr("endgame solver: best {move}, value {value:+d} (exact)", move=r.move, value=r.value),
                     tr("  pv: {pv}", pv=" | ".join(r.pv))]
        else:
            lines = [tr("endgame solver: {status}", status=r.status()),
                     tr("  depth-{depth} estimate: {move}, value {value:+d}; pv: {pv}", depth=r.depth, move=r.move,
                        value=r.value, pv=" | ".join(r.pv))]
        return "endgame", r.to_json(), lines, stopped
    if bag <= 3:
        from engine.analysis.preendgame import preendgame

        from engine.cli.endgame import preendgame_json, preendgame_lines

        res = preendgame(pos, lex, top=args.candidates or 8, time_limit=limit, table=table)
        return "preendgame", preendgame_json(res), preendgame_lines(res), bool(res.get("interrupted"))
    if args.time is None:  # a simulation only when asked for with --time (the static table stays instant)
        if args.infer:
            raise ValueError(tr("--infer draws the simulation's opponent racks: give --time too (e.g. --time 10s)"))
        return None
    return _simulation_search(pos, lex, args, limit)


def _simulation_search(pos, lex, args, limit: float):
    """More than 3 tiles in the bag: simulate the best candidates within ``limit`` seconds.

    Two plies after each candidate, equity players, candidates dropped by the
    successive-elimination rule (error level 5 %, :func:`engine.analysis.simulation.eliminated`),
    win rates from the self-play win table; stops when one candidate is left, at
    the iteration budget or after the first batch past ``limit``.
    """
    from engine.analysis.phase import SIM_ERROR, sim_iterations
    from engine.cli.simulate import _inferred
    from engine.analysis.simulation import simulate

    seed = args.seed if getattr(args, "seed", None) is not None else 1
    t_inf = time.perf_counter()
    leaves = _inferred(args, pos, lex) if args.infer else None
    limit = max(limit - (time.perf_counter() - t_inf), min(limit, 0.5))  # the inference counts against the budget
    n = args.candidates or 10
    res = simulate(pos, lex, n_candidates=n, plies=2, iterations=sim_iterations(limit, n), seed=seed,
                   progress=False, time_limit=limit, stop_rule="elimination", error=SIM_ERROR,
                   opponent_leaves=leaves)
    ranked = res.ranked()
    head = dict(n=res.total_iterations, s=res.seconds, why=tr(res.stop_reason), err=100 * SIM_ERROR)
    lines = [tr("simulation (2 plies, {n} iterations in {s:.1f} s, stopped: {why}, error level {err:g} %, "
                "opponent's rack from the leave inferred from {last}):", last=args.last_move, **head)
             if leaves is not None else
             tr("simulation (2 plies, {n} iterations in {s:.1f} s, stopped: {why}, error level {err:g} %):", **head)]
    for c in ranked:
        drop = "" if c.pruned_at is None else tr("  (dropped at {n})", n=c.pruned_at)
        lines.append(tr("  {move:<24} win {win:5.1f} %  spread {spread:+.1f} ±{se:.1f}  n {n}", move=c.notation,
                        win=100 * c.win_rate, spread=c.mean_spread, se=c.stderr, n=c.iterations) + drop)
    moves = [{"move": c.notation, "win": round(float(c.win_rate), 4), "spread": round(float(c.mean_spread), 2),
              "stderr": round(float(c.stderr), 2) if c.iterations > 1 else None, "iterations": c.iterations,
              "dropped_at": c.pruned_at} for c in ranked]
    return "simulation", {"moves": moves, "stop_reason": res.stop_reason, "iterations": res.total_iterations,
                          "seconds": round(res.seconds, 2), "seed": res.seed, "error": SIM_ERROR,
                          "inferred": leaves is not None}, lines, res.stop_reason == "interrupted"


# ---------------------------------------------------------------------------
# Practice
# ---------------------------------------------------------------------------
def deal(lexicon, seed: int, turns: int | None = None, table=None):
    """A practice position: a game between equity players ``turns`` turns in.

    ``turns=None`` picks 2..16 from the seed. If the game would end before
    that, the position is taken earlier (the last one with tiles in the bag).

    Returns:
        the :class:`engine.game.game.Game` at the position (the player to move is the user).
    """
    from engine.game.equity import apply, choose
    from engine.game.game import Game

    if turns is None:
        turns = random.Random(seed).randint(2, 16)
    if turns < 0:
        raise ValueError(tr("--turns must be at least 0, got {n}", n=turns))
    k = turns
    while True:
        g = Game(2, lexicon, seed=seed, keep_undo=False)
        ok = True
        for _ in range(k):
            if g.over or len(g.bag) == 0:
                ok = False
                break
            apply(g, choose(g, table))
        if ok and not g.over:
            return g
        k -= 1
        if k < 0:  # pragma: no cover - a fresh game is never over
            raise ValueError("could not deal a position")


def _find(cands, user) -> int:
    """Index of the user's candidate in the list (by placement or by exchanged tiles)."""
    for i, c in enumerate(cands):
        if user.kind == "play" and c.kind == "play" and c.move.placements == user.move.placements:
            return i
        if user.kind == "exchange" and c.kind == "exchange" and c.exchanged == user.exchanged:
            return i
    raise ValueError(f"move {user.notation} not found among the generated moves")


def _user_candidate(pos, text: str, lexicon, table):
    """The user's move as a :class:`engine.game.equity.Candidate` (checked and scored)."""
    from engine.game.equity import Candidate, leave_term, out_bonus
    from engine.position.scorer import IllegalMove, check_move

    a = pos.alphabet
    bag = pos.bag_count or 0
    text = text.strip()
    bonus = out_bonus(pos.board, pos.rack, pos.unseen()) if bag <= 0 else 0.0
    if text.startswith("-") or text.lower().startswith(("exchange ", "tausch ")):
        tiles = text[1:] if text.startswith("-") else text.split(None, 1)[1]
        tiles = tiles.strip().upper()
        if not tiles:
            raise ValueError(tr("exchange: name the tiles to put back, e.g. -QY"))
        if bag < 7:
            raise ValueError(tr("exchanging needs at least 7 tiles in the bag ({bag} left)", bag=bag))
        put = a.parse_rack(tiles)
        if (put > pos.rack).any():
            raise ValueError(tr("exchange {tiles}: not all on the rack {rack}", tiles=tiles, rack=pos.rack_string))
        keep = pos.rack - put
        val = leave_term(table, keep, bag, bonus)
        return Candidate("exchange", None, a.rack_string(put), 0, a.rack_string(keep), val, val)
    try:
        scored = check_move(pos.board, text, lexicon, rack=pos.rack)
    except IllegalMove as exc:
        raise ValueError(tr("illegal move {text!r}: {why}", text=text, why=tr(str(getattr(exc, "reason", exc))))) from None
    m = scored.move
    val = leave_term(table, m.leave, bag, bonus)
    return Candidate("play", m, "", scored.score, m.leave, val, scored.score + val)


def practice_report(pos, user, lexicon, table, top: int = 5) -> dict:
    """Where the user's move ranks among all moves by score and by equity, and the best moves."""
    from engine.game.equity import rank_moves

    bag = pos.bag_count or 0
    from engine.game.equity import out_bonus

    bonus = out_bonus(pos.board, pos.rack, pos.unseen()) if bag <= 0 else 0.0
    cands = rank_moves(pos.board, pos.rack, lexicon, bag=bag, table=table, bonus=bonus)
    i = _find(cands, user)
    mine = cands[i]
    by_eq = 1 + sum(1 for c in cands if c.equity > mine.equity + 1e-9)
    plays = [c for c in cands if c.kind == "play"]
    by_score = 1 + sum(1 for c in plays if c.score > mine.score) if mine.kind == "play" else None
    best_score = sorted(plays, key=lambda c: (-c.score, c.notation))[:top]
    return {
        "move": _cand_json(mine),
        "rank_by_equity": by_eq, "of_equity": len(cands),
        "rank_by_score": by_score, "of_score": len(plays),
        "equity_loss": round(cands[0].equity - mine.equity, 3),
        "best_by_equity": [_cand_json(c, k) for k, c in enumerate(cands[:top], 1)],
        "best_by_score": [_cand_json(c) for c in best_score],
        "_cands": (cands, mine, best_score),
    }


def _last_move(game) -> str | None:
    """The opponent's move before the dealt position (for the simulation's inference), or None (none, or a pass)."""
    from engine.analysis.inference import from_record

    try:
        return from_record(game.record())[1]
    except ValueError:
        return None


def _ask_move(pos, text, lex, table):
    """The user's move: ``--move`` or a line from stdin; at a terminal a bad move is asked for again.

    Raises:
        ValueError: no move, or (not at a terminal, or with ``--move``) a move that
            cannot be read or is not legal on the position.
    """
    interactive = text is None and sys.stdin.isatty()
    while True:
        if text is None:
            if interactive:
                print(tr("your move (e.g. '8H WORT', 'H8 WO(R)T', '-QY' to exchange; empty line to stop): "),
                      end="", flush=True)
            text = sys.stdin.readline()
            if not text.strip():
                raise ValueError(tr("no move given (use --move or type one)"))
        try:
            return _user_candidate(pos, text, lex, table)
        except ValueError as exc:
            if not interactive:
                raise
            print(tr("error: {exc}; try again", exc=exc), file=sys.stderr, flush=True)
            text = None


def cmd_practice(args) -> int:
    """``practice``: deal a position, take the user's move, rank it."""
    if args.top < 1:
        raise ValueError(tr("--top must be at least 1, got {n}", n=args.top))
    table = _table(args.leaves)
    lex = _lexicon(args.lexicon)
    from dataclasses import replace

    if not args.static:
        from engine.cli.endgame import _note
        from engine.analysis.warmup import warm_if_cold

        warm_if_cold(lex, _note, "practice")  # a first run compiles here, before the deal and the 5 s budget
    g = deal(lex, args.seed, args.turns, table)
    pos = replace(g.position(), opponent_rack=None)  # the user does not see the opponent's tiles
    me = g.to_move
    if not args.json:
        print(pos.board.to_text())
        print(tr("score: you {you}, opponent {them}; bag {bag} tiles", you=g.scores[me], them=g.scores[1 - me],
                 bag=len(g.bag)))
        print(tr("your rack: {rack}", rack=pos.rack_string))
        print(tr("position: {cgp}", cgp=pos.to_cgp()))
    user = _ask_move(pos, args.move, lex, table)
    rep = practice_report(pos, user, lex, table, args.top)
    cands, mine, best_score = rep.pop("_cands")
    answer = None
    if not args.static:
        from engine.cli.endgame import _seconds
        from engine.analysis.phase import phase_answer

        answer = phase_answer(pos, lex, table=table, seconds=_seconds(args.time) if args.time else 5.0,
                              include=[mine.notation], seed=args.seed, last_move=_last_move(g))
        rep["search"] = answer
    if args.json:
        rep["cgp"] = pos.to_cgp()
        rep["rack"] = pos.rack_string
        print(json.dumps(rep, ensure_ascii=False))
        return 0
    print()
    print(tr("your move {move}: {score} points, leave {leave} ({value:+.2f}), equity {equity:.2f}",
             move=mine.notation, score=mine.score, leave=mine.leave or "-", value=mine.leave_value, equity=mine.equity))
    if rep["rank_by_score"] is not None:
        print(tr("  by score:  #{rank} of {n} placements", rank=rep["rank_by_score"], n=rep["of_score"]))
    else:
        print(tr("  by score:  - (an exchange scores 0; {n} placements)", n=rep["of_score"]))
    print(tr("  by equity: #{rank} of {n} moves ({loss:.2f} below the best)", rank=rep["rank_by_equity"],
             n=rep["of_equity"], loss=rep["equity_loss"]))
    print()
    print(tr("best by equity:"))
    for line in _rows(cands[: args.top], mark=mine):
        print(line)
    print(tr("best by score:"))
    for line in _rows(best_score, mark=mine):
        print(line)
    if answer is not None:
        from engine.analysis.phase import format_answer

        print()
        for line in format_answer(answer, mine.notation):
            print(line)
    return 0


def add_parser(subparsers) -> None:
    """Register ``analyze`` and ``practice`` with the engine CLI."""
    sp = subparsers.add_parser("analyze", help="rank a position's moves by static equity (score + leave value)")
    src = sp.add_mutually_exclusive_group(required=True)
    src.add_argument("--cgp", help="position in CGP notation (quote it)")
    src.add_argument("--gcg", metavar="FILE",
                     help="instead of --cgp: a game record, the position before --turn K (default: after the last "
                          "entry) as its mover sees it; with --infer the opponent's move before it is the last move")
    sp.add_argument("--turn", type=int, metavar="K", help="with --gcg: the turn about to be played (0-based)")
    from engine.position.cgp import add_allow_impossible

    add_allow_impossible(sp)
    sp.add_argument("--lexicon", help="lexicon bundle (default: the packaged German list)")
    sp.add_argument("--leaves", metavar="KLV", help="leave table, KLV2 or KLV (default: the packaged German table)")
    g = sp.add_mutually_exclusive_group()
    g.add_argument("--top", type=int, default=None, metavar="N", help="the N best moves (default 20; best-first)")
    g.add_argument("--all", action="store_true", help="rank every move")
    sp.add_argument("--time", default=None, metavar="S",
                    help="seconds for the endgame / pre-endgame search (default 10); with more than 3 tiles "
                         "in the bag, giving it runs a simulation for that long")
    sp.add_argument("--static", action="store_true",
                    help="static equity only, no endgame, pre-endgame or simulation search")
    sp.add_argument("--candidates", type=int, default=None, metavar="N",
                    help="moves the pre-endgame (default 8) or the simulation (default 10) evaluates, the best "
                         "by static equity; --top only limits the static table")
    sp.add_argument("--sim-seed", dest="seed", type=int, default=None, metavar="S",
                    help="seed of the simulation (bag > 3 tiles; default 1)")
    sp.add_argument("--infer", action="store_true",
                    help="the simulation draws the opponent's rack from the leave inferred from --last-move "
                         "(with --gcg: the move before the position; engine infer); needs --time")
    sp.add_argument("--last-move", metavar="MOVE", default=None,
                    help="with --infer: the opponent's last move on the CGP's board ('8H WO(R)T', --last-move=-3)")
    sp.add_argument("--margin", default="5", metavar="E", help="with --infer: equity margin in points (default 5)")
    sp.add_argument("--json", action="store_true", help="print one JSON object")
    sp.set_defaults(func=cmd_analyze)

    sp = subparsers.add_parser("practice", help="find a move in a dealt position; see how it ranks by score and equity")
    sp.add_argument("--seed", type=int, required=True, metavar="S", help="deal seed (the same seed deals the same position)")
    sp.add_argument("--turns", type=int, default=None, metavar="K",
                    help="turns played before the position (default: 2..16, from the seed)")
    sp.add_argument("--move", metavar="M",
                    help="your move ('8H WORT', 'H8 WO(R)T'; exchanges as --move=-QY or 'exchange QY'); "
                         "default: read one line from stdin")
    sp.add_argument("--top", type=int, default=5, metavar="N", help="best moves to show (default 5)")
    sp.add_argument("--lexicon", help="lexicon bundle (default: the packaged German list)")
    sp.add_argument("--leaves", metavar="KLV", help="leave table (default: the packaged German table)")
    sp.add_argument("--time", default=None, metavar="S",
                    help="seconds for the deeper answer of the position's phase: endgame solver (bag empty), "
                         "pre-endgame (1-3 tiles) or simulation (default 5)")
    sp.add_argument("--static", action="store_true", help="static equity only: no solver, no simulation")
    sp.add_argument("--json", action="store_true", help="print one JSON object")
    sp.set_defaults(func=cmd_practice)
