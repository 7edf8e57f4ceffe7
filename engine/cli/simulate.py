"""``python -m engine simulate``: Monte Carlo simulation of a position's top candidates.

A plug-in of :mod:`engine.cli.main` (``add_parser(subparsers)``); the work is
:func:`engine.analysis.simulation.simulate`. Prints a table best first (or one JSON
object with ``--json``); a progress bar goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys

from engine.lang import percent, tr
from engine.position.cgp import check_tile_counts, parse_cgp, warn_notes


def _note(msg: str) -> None:
    from engine.cli.main import _note as note

    note(msg)


def _cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _player(args):
    from engine.analysis.simulation import EquityPlayer, LeavePlayer

    if args.player == "score":
        if args.leaves:
            raise ValueError(tr("--leaves needs --player equity or --player leave"))
        return LeavePlayer()
    table = None
    if args.leaves:
        from engine.leaves.table import LeaveTable

        table = LeaveTable.load(args.leaves, note=_note)
    if args.player == "leave":
        if table is None:
            from engine.leaves.table import default_table

            table = default_table()
        return LeavePlayer(table)
    return EquityPlayer(table)


def _inferred(args, pos, lex):
    """``--infer``: the opponent's kept tiles inferred from ``--last-move`` (None when nothing is consistent).

    Shared by ``simulate`` and ``analyze`` (which has no ``--known-opponent-rack``).
    """
    from engine.analysis.inference import infer
    from engine.cli.infer import margin_arg

    if args.last_move is None:
        raise ValueError(tr("--infer needs the opponent's last move: --last-move '8H WO(R)T' (or --last-move=-3)"))
    if getattr(args, "known_opponent_rack", False):
        raise ValueError(tr("--infer and --known-opponent-rack exclude each other"))
    margin = margin_arg(args.margin)
    table = None
    if args.leaves:
        from engine.leaves.table import LeaveTable

        table = LeaveTable.load(args.leaves)
    res = infer(pos, args.last_move, lex, table=table, margin=margin)
    if not len(res.weights):
        _note(tr("no kept rack is consistent with {move} within margin {margin:g}: the opponent's rack is drawn at "
                 "random", move=res.move.notation, margin=margin))
        return None
    a = pos.alphabet
    top = "; ".join(f"{a.rack_string(res.leaves[i]) or '-'} {percent(p)}" for i, p in enumerate(res.probabilities[:3]))
    _note(tr("opponent's leave inferred from {move}: {n:,} of {racks:,} racks consistent; most likely {top}",
             move=res.move.notation, n=res.consistent, racks=res.racks, top=top) if res.exact else
          tr("opponent's leave inferred from {move}: {n:,} of {racks:,} racks consistent (sampled); most likely {top}",
             move=res.move.notation, n=res.consistent, racks=res.racks, top=top))
    return res


def cmd_simulate(args) -> int:
    from lexicon_tools.bundle import load_lexicon

    from engine.analysis.simulation import simulate

    note = _note
    if args.candidates < 1:
        raise ValueError(tr("-n/--candidates {n}: -n is how many of the best moves (by static equity) to simulate; "
                            "give at least 1, or name moves with --move", n=args.candidates))
    if args.iterations < 1:
        raise ValueError(tr("-i/--iterations {n}: iterations per candidate, at least 1", n=args.iterations))
    if args.time_limit is not None and not 0 < args.time_limit < math.inf:
        raise ValueError(tr("--time-limit must be a positive number of seconds, got {s:g}", s=args.time_limit))
    pos = parse_cgp(args.cgp, allow_impossible=True)
    if pos.game_over():
        raise ValueError(tr("nothing to simulate: {why}", why=tr(pos.game_over())))
    check_tile_counts(pos, hint=False)  # an impossible position cannot be simulated: no --allow-impossible here
    lex = load_lexicon(args.lexicon, progress=note, translate=tr)
    warn_notes(pos, lex)
    workers = args.workers if args.workers is not None else _cores()
    backend = args.backend
    if backend == "local" and args.workers is None:
        workers = 1
    if backend == "ray":
        try:
            import ray  # noqa: F401
        except ImportError:
            raise ValueError("the ray backend needs Ray: pip install 'german-scrabble-engine[ray]'") from None
    leaves = _inferred(args, pos, lex) if args.infer else None
    if backend == "local":
        from engine.analysis.warmup import warm_if_cold

        warm_if_cold(lex, note, "simulate")  # a first run compiles here, outside --time-limit
    if args.last_move is not None and not args.infer:
        raise ValueError(tr("--last-move is read only with --infer"))
    res = simulate(
        pos, lex, candidates=args.move or None, n_candidates=args.candidates, plies=args.plies,
        iterations=args.iterations, seed=args.seed, workers=workers, backend=backend,
        stop_when_clearly_ahead=not args.no_stop, progress=not args.no_progress, player=_player(args),
        batch_size=args.batch_size, min_iterations=args.min_iterations, stop_on=args.stop_on,
        known_opponent_rack=args.known_opponent_rack, time_limit=args.time_limit, ray_address=args.ray_address,
        stop_rule=args.stop_rule, error=args.error, opponent_leaves=leaves)
    if res.stop_reason == "interrupted":
        note(tr("interrupted (Ctrl-C) after {n:,} iterations; the figures so far follow", n=res.total_iterations))
    if args.json:
        json.dump(res.to_dict(), sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print(res.format())
    return 130 if res.stop_reason == "interrupted" else 0


def add_parser(subparsers) -> None:
    """Register ``simulate`` with the engine CLI's subparsers."""
    sp = subparsers.add_parser(
        "simulate", help="Monte Carlo simulation of the top candidates (mean spread, win rate, confidence intervals)",
        description="Simulate the top candidates of a position: draw the opponent's rack from the unseen tiles, "
                    "play the candidate and PLIES more moves with static players, report mean spread and win "
                    "rate with 95% confidence intervals; candidates clearly behind are dropped early.")
    sp.add_argument("--cgp", required=True, help="position in CGP notation (quote it)")
    sp.add_argument("--lexicon", help="lexicon bundle (default: the packaged German list)")
    sp.add_argument("--json", action="store_true", help="print one JSON object")
    sp.add_argument("--candidates", "-n", type=int, default=10, metavar="N",
                    help="simulate the N best moves by static equity (default 10)")
    sp.add_argument("--move", action="append", metavar="MOVE",
                    help="simulate this move instead ('8H HA(U)S'; an exchange as --move=-ABC, a pass as --move=-); "
                         "repeatable")
    sp.add_argument("--plies", type=int, default=2, help="moves played after the candidate (default 2)")
    sp.add_argument("--iterations", "-i", type=int, default=1000, help="iterations per candidate (default 1000)")
    sp.add_argument("--seed", type=int, default=None, help="run seed (default random; printed)")
    sp.add_argument("--workers", "-w", type=int, default=None,
                    help="worker processes / Ray tasks (default: every core; 1 runs in this process)")
    sp.add_argument("--backend", choices=("local", "process", "ray"), default=None,
                    help="where iterations run (default: local for 1 worker, else process)")
    sp.add_argument("--ray-address", default=None, help="Ray cluster address (default: a local Ray instance)")
    sp.add_argument("--player", choices=("equity", "score", "leave"), default="equity",
                    help="static players: equity (default; engine.game.equity: score + bag-aware leave term, "
                         "exchanges), score (best score), leave (score + leave table, no bag fade)")
    sp.add_argument("--leaves", metavar="KLV", help="leave table file for --player leave/equity (default: packaged)")
    sp.add_argument("--no-stop", action="store_true", help="run every candidate to the full budget")
    sp.add_argument("--stop-on", choices=("spread", "win"), default="spread",
                    help="what the early stop and the ranking compare (default spread)")
    sp.add_argument("--stop-rule", choices=("elimination", "overlap"), default="elimination",
                    help="early stop: successive elimination at error level --error (default), or the older "
                         "interval-overlap rule")
    sp.add_argument("--error", type=float, default=0.05,
                    help="chance of ever dropping the best candidate, elimination rule (default 0.05)")
    sp.add_argument("--batch-size", type=int, default=50, help="iterations per candidate between stop checks")
    sp.add_argument("--min-iterations", type=int, default=100, help="no early stop before this many iterations")
    sp.add_argument("--time-limit", type=float, default=None, metavar="SECONDS", help="stop after this long")
    sp.add_argument("--known-opponent-rack", action="store_true",
                    help="use the CGP's opponent rack instead of drawing it")
    sp.add_argument("--infer", action="store_true",
                    help="draw the opponent's rack from the leave inferred from their last move (engine infer)")
    sp.add_argument("--last-move", metavar="MOVE", default=None,
                    help="with --infer: the opponent's last move, on the CGP's board ('8H WO(R)T', "
                         "--last-move=-3 for an exchange of 3 tiles)")
    sp.add_argument("--margin", default="5", metavar="E", help="with --infer: equity margin in points (default 5)")
    sp.add_argument("--no-progress", action="store_true", help="no progress bar")
    sp.set_defaults(func=cmd_simulate)


def main(argv=None) -> int:
    """Run ``simulate`` on its own (``python -m engine.cli.simulate ...``), with the engine CLI's error handling."""
    from lexicon_tools.bundle import LexiconError

    from engine.position.cgp import CGPError

    p = argparse.ArgumentParser(prog="python -m engine.cli.simulate")
    sub = p.add_subparsers(dest="command", required=True)
    add_parser(sub)
    args = p.parse_args(["simulate", *(argv if argv is not None else sys.argv[1:])])
    try:
        return args.func(args)
    except (CGPError, LexiconError, ValueError, OSError, ImportError) as exc:
        print(tr("error: {exc}", exc=tr(str(exc))), file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
