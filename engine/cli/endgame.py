"""CLI plug-in (see :data:`engine.cli.main.PLUGINS`): ``endgame`` and ``preendgame``.

* ``python -m engine endgame --cgp CGP [--max-depth D] [--time S] [--clock wall|cpu] [--nodes N]
  [--lexicon L] [--json]`` — the exact endgame (bag empty): best move, value (spread the
  side to move gains from now to the end, settlement included), principal variation;
  one progress line per completed depth on stderr. ``--time`` is read on the wall
  clock by default, on the solve's CPU time with ``--clock cpu`` (other jobs on the
  machine then do not shorten the search). A search stopped by ``--time``, ``--nodes``,
  ``--max-depth`` or Ctrl-C says so ("NOT SOLVED", ``"complete": false`` and
  ``"stopped"`` in ``--json``) and labels its move and value as the estimate of the
  depth it reached.
* ``python -m engine preendgame --cgp CGP [--top N] [--time S] [--lexicon L] [--json]``
  — 1 to 3 tiles in the bag: win rate and mean spread of the best candidates
  over the draws, within the time budget (default 10 s), each marked exact or
  approximate (:mod:`engine.analysis.preendgame`, docs/preendgame.md).

Bad input prints ``error: ...`` and exits 2 (:func:`engine.cli.main.main`).
"""

from __future__ import annotations

import json
import math
import sys
import time

from engine.lang import num, tr


def _lexicon(path):
    from lexicon_tools.bundle import load_lexicon

    return load_lexicon(path, progress=_note, translate=tr)


def _note(msg: str) -> None:
    print(tr("note: {msg}", msg=tr(msg)), file=sys.stderr, flush=True)


def _seconds(text: str | None, option: str = "--time") -> float | None:
    """``text`` (``10``, ``10s``) as seconds; None for None. ``option`` is named in the refusal."""
    if text is None:
        return None
    t = text.strip().lower().removesuffix("s")
    try:
        v = float(t)
    except ValueError:
        raise ValueError(tr("{option} {text!r}: expected seconds, e.g. 10 or 10s", option=option, text=text)) from None
    if not v > 0:
        raise ValueError(tr("{option} must be positive, got {text!r}", option=option, text=text))
    if not math.isfinite(v):
        raise ValueError(tr("{option} must be a finite number of seconds, got {text!r}", option=option, text=text))
    return v


def cmd_endgame(args) -> int:
    """``endgame``: solve the endgame of a position with an empty bag."""
    from engine.position.cgp import parse_cgp
    from engine.analysis.endgame import MAX_DEPTH, SearchInterrupted, endgame_position, solve
    from engine.analysis.warmup import warm_if_cold

    pos = endgame_position(parse_cgp(args.cgp, impossible_hint=False))
    limit = _seconds(args.time)
    if args.max_depth is not None and not 1 <= args.max_depth <= MAX_DEPTH:  # before the warm-up's note
        raise ValueError(tr("max depth must be 1..{max} plies, got {n}", max=MAX_DEPTH, n=args.max_depth))
    if args.nodes is not None and args.nodes < 1:
        raise ValueError(tr("--nodes must be at least 1, got {n}", n=args.nodes))
    lex = _lexicon(args.lexicon)
    warm_if_cold(lex, _note, "endgame")  # a first run compiles here, outside the time limit

    def progress(r) -> None:
        it = r.iterations[-1]
        print(tr("depth {depth:>2}: {move:<22} value {value:+d}  nodes {nodes:,}  {s:.2f}s", depth=r.depth, move=r.move,
                 value=r.value, nodes=it[3], s=it[4]) + (tr("  (complete)") if r.complete else ""),
              file=sys.stderr, flush=True)

    try:
        r = solve(pos, lex, max_depth=args.max_depth, time_limit=limit, progress=progress, clock=args.clock,
                  node_limit=args.nodes)
    except SearchInterrupted as stop:  # Ctrl-C: the deepest finished depth's answer, then exit 130
        _note("interrupted (Ctrl-C); the answer of the deepest completed depth follows")
        _print_endgame(args, pos, stop.result)
        return 130
    _print_endgame(args, pos, r)
    return 0


def _print_endgame(args, pos, r) -> None:
    if args.json:
        print(json.dumps(r.to_json(), ensure_ascii=False))
        return
    a = pos.alphabet
    print(tr("racks {mine} / {theirs}, scores {a}/{b}", mine=a.rack_string(pos.rack),
             theirs=a.rack_string(pos.opponent_rack), a=pos.scores[0], b=pos.scores[1]))
    pv = " | ".join(r.pv)
    if r.complete:
        print(tr("best move: {move}", move=r.move))
        print(tr("value: {value:+d} (spread from now to the end, settlement included; final spread {final:+d})",
                 value=r.value, final=pos.scores[0] - pos.scores[1] + r.value))
        print(tr("pv: {pv}", pv=pv))
    else:
        print(r.status())
        print(tr("best move at depth {depth} (estimate): {move}", depth=r.depth, move=r.move))
        print(tr("value at depth {depth} (estimate, not exact): {value:+d}", depth=r.depth, value=r.value))
        print(tr("pv (depth {depth}): {pv}", depth=r.depth, pv=pv))
    state = tr("complete (exact)") if r.complete else tr("stopped by {why} (not exact)", why=tr(str(r.stopped)))
    print(tr("depth {depth}, {state}; {nodes:,} nodes in {wall:.2f} s wall, {cpu:.2f} s CPU", depth=r.depth,
             state=state, nodes=r.nodes, wall=r.seconds, cpu=r.cpu_seconds))


def preendgame_json(res: dict) -> dict:
    """The ``--json`` object of a :func:`engine.analysis.preendgame.preendgame` result (also ``analyze``'s ``preendgame`` key).

    ``{"moves": [{"move", "win", "spread", "exact", "exact_share", "draws", "sampled", "reply"}, ...], "bag",
    "method", "seconds", "inferred"}``, moves best first; ``exact`` per move says whether its win rate and
    spread are exact (every draw enumerated, every endgame solved to the end) or approximate
    (docs/preendgame.md); ``exact_share`` is the share of the draws solved; ``reply`` marks a move (a pass)
    after which the opponent's reply is modelled; ``inferred``: the opponent's racks were weighted by the
    inference from its last move.
    """
    moves = [{"move": c["move"], "win": round(c["win"], 4), "spread": round(c["spread"], 2), "exact": bool(c["exact"]),
              "exact_share": round(c["exact_share"], 3), "draws": int(c["draws"]), "sampled": bool(c["sampled"]),
              "reply": bool(c.get("reply", False))}
             for c in res["moves"]]
    return {"moves": moves, "bag": res["bag"], "method": res["method"], "seconds": round(res["seconds"], 2),
            "inferred": bool(res.get("inferred", False))}


def preendgame_lines(res: dict) -> list[str]:
    """Text lines of a pre-endgame result: one per candidate, best first, exact or approximate."""
    lines = [tr("pre-endgame, bag {bag} (unseen {unseen}), {s:.1f} s: {method}", bag=res["bag"], unseen=res["unseen"],
                s=res["seconds"], method=tr(res["method"])),
             f"{'#':>3}  {tr('move'):<24} {tr('win %'):>6} {tr('spread'):>8} {tr('draws'):>6}  {tr('exact')}"]
    for i, c in enumerate(res["moves"], 1):
        state = tr("yes") if c["exact"] else tr("no ({share:.0f} % of the draws solved)", share=100 * c["exact_share"])
        if c["sampled"]:
            state += tr(", draws sampled")
        if c.get("reply"):
            state += tr(", the opponent's reply modelled")
        lines.append(f"{i:>3}  {c['move']:<24} {num(100 * c['win'], '>6.1f')} {num(c['spread'], '>+8.1f')} "
                     f"{c['draws']:>6}  {state}")
    return lines


def cmd_preendgame(args) -> int:
    """``preendgame``: candidates ranked by win rate over the draws (1-3 tiles in the bag)."""
    from engine.position.cgp import parse_cgp
    from engine.analysis.preendgame import DEFAULT_TIME, preendgame, preendgame_bag
    from engine.analysis.warmup import warm_if_cold

    pos = parse_cgp(args.cgp, impossible_hint=False)
    preendgame_bag(pos)  # a position that is no pre-endgame is refused before the warm-up's note
    limit = _seconds(args.time)
    if args.top < 1:
        raise ValueError(tr("--top must be at least 1, got {n}", n=args.top))
    if args.endgame_depth is not None and not 1 <= args.endgame_depth <= 60:
        raise ValueError(tr("--endgame-depth must be 1..60 plies, got {n}", n=args.endgame_depth))
    lex = _lexicon(args.lexicon)
    warm_if_cold(lex, _note, "preendgame")

    def progress(i, lim, d) -> None:
        print(tr("round {i}: endgames up to {lim:,} nodes, {exact} of {of} moves exact", i=i, lim=lim,
                 exact=d["exact"], of=d["of"]), file=sys.stderr, flush=True)

    opponent = None
    if args.last_move:
        from engine.analysis.inference import infer

        opponent = infer(pos, args.last_move, lex)
        if not len(opponent.weights):
            raise ValueError(tr("no opponent rack is consistent with the last move {move!r} "
                                "(engine infer explains); run without --last-move", move=args.last_move))
    res = preendgame(pos, lex, top=args.top, time_limit=limit or DEFAULT_TIME, endgame_depth=args.endgame_depth,
                     progress=progress, opponent=opponent, clock=time.process_time if args.cpu else time.perf_counter)
    rc = 0
    if res.get("interrupted"):
        _note("interrupted (Ctrl-C); the figures reached so far follow (not exact where not solved)")
        rc = 130
    if args.json:
        print(json.dumps(preendgame_json(res), ensure_ascii=False))
        return rc
    for line in preendgame_lines(res):
        print(line)
    return rc


def add_parser(subparsers) -> None:
    """Register ``endgame`` and ``preendgame`` with the engine CLI."""
    sp = subparsers.add_parser("endgame", help="solve the endgame exactly (bag empty, both racks known)")
    sp.add_argument("--cgp", required=True,
                    help="position in CGP notation, racks 'MINE/THEIRS' (THEIRS may be left out: the unseen tiles)")
    sp.add_argument("--lexicon", help="lexicon bundle (default: the packaged German list)")
    sp.add_argument("--max-depth", type=int, default=None, metavar="D", help="stop after D plies (passes count)")
    sp.add_argument("--time", default=None, metavar="S",
                    help="time limit in seconds (10 or 10s), read on --clock; when it stops the search the "
                         "answer is marked NOT SOLVED (the deepest completed depth's estimate)")
    sp.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="clock of --time: wall (elapsed, default) or cpu (CPU seconds of the solve)")
    sp.add_argument("--nodes", type=int, default=None, metavar="N",
                    help="node limit (after depth 1, which is always searched); marked NOT SOLVED when it stops")
    sp.add_argument("--json", action="store_true", help="print one JSON object")
    sp.set_defaults(func=cmd_endgame)

    sp = subparsers.add_parser("preendgame", help="1-3 tiles in the bag: win rate per candidate over every draw")
    sp.add_argument("--cgp", required=True, help="position in CGP notation (the opponent's rack may be unknown)")
    sp.add_argument("--lexicon", help="lexicon bundle (default: the packaged German list)")
    sp.add_argument("--top", type=int, default=8, metavar="N", help="candidates to evaluate (default 8, by equity)")
    sp.add_argument("--time", default=None, metavar="S", help="time budget in seconds for all candidates (default 10)")
    sp.add_argument("--endgame-depth", type=int, default=None, metavar="D",
                    help="plies for each endgame solve (default: to the end within the time budget)")
    sp.add_argument("--last-move", default=None, metavar="MOVE",
                    help="the opponent's last move on this board (8H WO(R)T): weight its racks by the inference")
    sp.add_argument("--cpu", action="store_true", help="--time counts CPU seconds of this process, not wall time")
    sp.add_argument("--json", action="store_true", help="print one JSON object")
    sp.set_defaults(func=cmd_preendgame)
