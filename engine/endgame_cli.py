"""CLI plug-in (see :data:`engine.cli.PLUGINS`): ``endgame`` and ``preendgame``.

* ``python -m engine endgame --cgp CGP [--max-depth D] [--time S] [--lexicon L] [--json]``
  — the exact endgame (bag empty): best move, value (spread the side to move
  gains from now to the end, settlement included), principal variation; one
  progress line per completed depth on stderr.
* ``python -m engine preendgame --cgp CGP [--top N] [--time S] [--lexicon L] [--json]``
  — 1 to 3 tiles in the bag: win rate and mean spread of the best candidates
  over every draw (:mod:`engine.preendgame`).

Bad input prints ``error: ...`` and exits 2 (:func:`engine.cli.main`).
"""

from __future__ import annotations

import json
import math
import sys


def _lexicon(path):
    from lexicon_tools.bundle import load_lexicon

    def note(msg: str) -> None:
        print(f"note: {msg}", file=sys.stderr)

    return load_lexicon(path, progress=note)


def _note(msg: str) -> None:
    print(f"note: {msg}", file=sys.stderr, flush=True)


def _seconds(text: str | None) -> float | None:
    if text is None:
        return None
    t = text.strip().lower().removesuffix("s")
    try:
        v = float(t)
    except ValueError:
        raise ValueError(f"--time {text!r}: expected seconds, e.g. 10 or 10s") from None
    if not v > 0:
        raise ValueError(f"--time must be positive, got {text!r}")
    if not math.isfinite(v):
        raise ValueError(f"--time must be a finite number of seconds, got {text!r} (leave it out for no limit)")
    return v


def cmd_endgame(args) -> int:
    """``endgame``: solve the endgame of a position with an empty bag."""
    from .cgp import parse_cgp
    from .endgame import SearchInterrupted, endgame_position, solve
    from .warmup import warm_endgame

    pos = endgame_position(parse_cgp(args.cgp))
    limit = _seconds(args.time)
    lex = _lexicon(args.lexicon)
    warm_endgame(lex, _note)  # a first run compiles here, outside the time limit

    def progress(r) -> None:
        it = r.iterations[-1]
        print(f"depth {r.depth:>2}: {r.move:<22} value {r.value:+d}  nodes {it[3]:,}  {it[4]:.2f}s"
              f"{'  (complete)' if r.complete else ''}", file=sys.stderr, flush=True)

    try:
        r = solve(pos, lex, max_depth=args.max_depth, time_limit=limit, progress=progress)
    except SearchInterrupted as stop:  # Ctrl-C: the deepest finished depth's answer, then exit 130
        print("note: interrupted (Ctrl-C); the answer of the deepest completed depth follows", file=sys.stderr)
        _print_endgame(args, pos, stop.result)
        return 130
    _print_endgame(args, pos, r)
    return 0


def _print_endgame(args, pos, r) -> None:
    if args.json:
        print(json.dumps(r.to_json(), ensure_ascii=False))
        return
    a = pos.alphabet
    print(f"racks {a.rack_string(pos.rack)} / {a.rack_string(pos.opponent_rack)}, "
          f"scores {pos.scores[0]}/{pos.scores[1]}")
    print(f"best move: {r.move}")
    print(f"value: {r.value:+d} (spread from now to the end, settlement included; "
          f"final spread {pos.scores[0] - pos.scores[1] + r.value:+d})")
    print(f"pv: {' | '.join(r.pv)}")
    state = "complete (exact)" if r.complete else "stopped by the depth/time limit or Ctrl-C (not exact)"
    print(f"depth {r.depth}, {state}; {r.nodes:,} nodes in {r.seconds:.2f} s")


def cmd_preendgame(args) -> int:
    """``preendgame``: candidates ranked by win rate over every draw (1-3 tiles in the bag)."""
    from .cgp import parse_cgp
    from .preendgame import preendgame
    from .warmup import warm_endgame

    pos = parse_cgp(args.cgp)
    limit = _seconds(args.time)
    if args.top < 1:
        raise ValueError(f"--top must be at least 1, got {args.top}")
    lex = _lexicon(args.lexicon)
    warm_endgame(lex, _note)

    def progress(i, n, cand) -> None:
        print(f"[{i}/{n}] {cand['move']:<22} win {cand['win']:.3f}  spread {cand['spread']:+.1f}  "
              f"({cand['scenarios']} draws)", file=sys.stderr, flush=True)

    res = preendgame(pos, lex, top=args.top, time_limit=limit, endgame_depth=args.endgame_depth, progress=progress)
    if args.json:
        print(json.dumps({"moves": [{"move": c["move"], "win": round(c["win"], 4), "spread": round(c["spread"], 2)}
                                    for c in res["moves"]]}, ensure_ascii=False))
        return 0
    print(f"bag {res['bag']}, unseen {res['unseen']}; {res['method']}")
    print(f"{'#':>3}  {'move':<24} {'win':>6} {'spread':>8} {'draws':>6}")
    for i, c in enumerate(res["moves"], 1):
        print(f"{i:>3}  {c['move']:<24} {c['win']:>6.3f} {c['spread']:>+8.1f} {c['scenarios']:>6}")
    return 0


def add_parser(subparsers) -> None:
    """Register ``endgame`` and ``preendgame`` with the engine CLI."""
    sp = subparsers.add_parser("endgame", help="solve the endgame exactly (bag empty, both racks known)")
    sp.add_argument("--cgp", required=True,
                    help="position in CGP notation, racks 'MINE/THEIRS' (THEIRS may be left out: the unseen tiles)")
    sp.add_argument("--lexicon", help="lexicon bundle (default: the packaged German list)")
    sp.add_argument("--max-depth", type=int, default=None, metavar="D", help="stop after D plies (passes count)")
    sp.add_argument("--time", default=None, metavar="S", help="time limit in seconds (10 or 10s): best answer so far")
    sp.add_argument("--json", action="store_true", help="print one JSON object")
    sp.set_defaults(func=cmd_endgame)

    sp = subparsers.add_parser("preendgame", help="1-3 tiles in the bag: win rate per candidate over every draw")
    sp.add_argument("--cgp", required=True, help="position in CGP notation (the opponent's rack may be unknown)")
    sp.add_argument("--lexicon", help="lexicon bundle (default: the packaged German list)")
    sp.add_argument("--top", type=int, default=8, metavar="N", help="candidates to evaluate (default 8, by equity)")
    sp.add_argument("--time", default=None, metavar="S", help="time budget in seconds for all candidates")
    sp.add_argument("--endgame-depth", type=int, default=None, metavar="D",
                    help="plies for each endgame solve (default: to the end within the time budget)")
    sp.add_argument("--json", action="store_true", help="print one JSON object")
    sp.set_defaults(func=cmd_preendgame)
