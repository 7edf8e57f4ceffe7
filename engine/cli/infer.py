"""CLI plug-in (see :data:`engine.cli.main.PLUGINS`): ``infer``.

* ``python -m engine infer (--cgp CGP --move MOVE [--on-rack T] [--not-on-rack T] | --gcg FILE [--turn K])
  [--margin E] [--top N]
  [--max-racks N] [--samples N] [--seed S] [--leaves KLV] [--lexicon L] [--json]``
  — the tiles the opponent kept after their last move ``MOVE``
  (:func:`engine.analysis.inference.infer`): ``--cgp`` is the position *after* that
  move with the side to move's rack, the move is on its board, tiles that
  were already there in parentheses (``8H WO(R)T``); ``-3`` is an exchange
  of three unseen tiles, ``-ABC`` an exchange of known tiles. Prints the
  per-tile distribution (expected count kept, probability of at least one,
  the prior) and the most probable leaves; ``--json`` one object
  (:meth:`engine.analysis.inference.InferenceResult.to_json`). ``--gcg FILE --turn K``
  takes the position before turn K of a game record and the opponent's move
  before it (:func:`engine.analysis.inference.from_record`), with what the record
  shows about their rack (a withdrawn play's tiles, your exchange after their last
  draw; after a withdrawn play the whole rack). With ``--cgp``, ``--on-rack TILES``
  and ``--not-on-rack TILES`` say the same by hand.

Bad input prints ``error: ...`` and exits 2 (:func:`engine.cli.main.main`).
"""

from __future__ import annotations

import json
import math
import sys

from engine.lang import tr


def margin_arg(text) -> float:
    """The ``--margin`` value: points >= 0.

    Raises:
        ValueError: not a finite number >= 0 (the message names ``--margin``).
    """
    try:
        v = float(text)
    except (TypeError, ValueError):
        raise ValueError(tr("--margin {text!r}: expected points, e.g. 5 or 2.5", text=text)) from None
    if not math.isfinite(v) or v < 0:
        raise ValueError(tr("--margin must be a finite number >= 0, got {text!r}", text=text))
    return v


def _with_known_tiles(pos, move: str, on_rack: str | None, not_on_rack: str | None, lexicon):
    """The last move with tiles known to have been (not) on the opponent's rack (``--on-rack``/``--not-on-rack``)."""
    from dataclasses import replace

    from engine.analysis.inference import parse_last_move

    a = pos.alphabet
    last = parse_last_move(pos.board, move, lexicon)
    known = []
    on = off = None
    if on_rack:
        on = a.parse_rack(on_rack.upper()).astype("int64")
        known.append(f"on the rack before the move (--on-rack): {a.rack_string(on)}")
    if not_on_rack:
        off = a.parse_rack(not_on_rack.upper()).astype("int64")
        known.append(f"not on it (--not-on-rack): {a.rack_string(off)}")
    return replace(last, on_rack=on, not_on_rack=off, known=tuple(known))


def cmd_infer(args) -> int:
    """``infer``: the distribution of the opponent's kept tiles."""
    from lexicon_tools.bundle import load_lexicon

    from engine.position.cgp import parse_cgp, warn_notes
    from engine.analysis.inference import infer

    if args.top < 1:
        raise ValueError(tr("--top must be at least 1, got {n}", n=args.top))
    margin = margin_arg(args.margin)
    from engine.cli.main import _note as note

    if args.gcg is not None:
        if args.cgp is not None or args.move is not None:
            raise ValueError(tr("give either --gcg FILE [--turn K], or --cgp and --move"))
        if args.on_rack or args.not_on_rack:
            raise ValueError(tr("--on-rack and --not-on-rack are for --cgp; with --gcg the record says what is known"))
        import argparse as _ap

        from engine.cli.game import _record_lexicon
        from engine.game.gcg import read_gcg_file
        from engine.analysis.inference import from_record

        lex = _record_lexicon(_ap.Namespace(file=args.gcg, lexicon=args.lexicon))
        pos, move = from_record(read_gcg_file(args.gcg, lex), args.turn)
        when = tr("turn {k}", k=args.turn) if args.turn is not None else tr("after the last entry")
        note(tr("{when}: the opponent's last move {move}; position {cgp}", when=when, move=move, cgp=pos.to_cgp()))
    else:
        if args.cgp is None or args.move is None:
            raise ValueError(tr("give --cgp (the position after the opponent's move) and --move, or --gcg FILE"))
        if args.turn is not None:
            raise ValueError(tr("--turn is read only with --gcg"))
        pos, move = parse_cgp(args.cgp, impossible_hint=False), args.move
        lex = load_lexicon(args.lexicon, progress=note, translate=tr)
        warn_notes(pos, lex)
        if args.on_rack or args.not_on_rack:
            move = _with_known_tiles(pos, move, args.on_rack, args.not_on_rack, lex)

    table = None
    if args.leaves:
        from engine.leaves.table import LeaveTable

        table = LeaveTable.load(args.leaves, note=note)
    if args.max_racks < 1 or args.samples < 1:
        raise ValueError(tr("--max-racks and --samples must be at least 1, got {a} and {b}", a=args.max_racks,
                            b=args.samples))
    res = infer(pos, move, lex, table=table, margin=margin, max_racks=args.max_racks, samples=args.samples,
                seed=args.seed)
    if args.json:
        print(json.dumps(res.to_json(args.top), ensure_ascii=False))
    else:
        print(res.format(args.top))
    return 0


def add_parser(subparsers) -> None:
    """Register ``infer`` with the engine CLI."""
    from engine.analysis.inference import DEFAULT_MARGIN, MAX_RACKS, SAMPLES

    sp = subparsers.add_parser(
        "infer", help="which tiles did the opponent keep? (exact enumeration, static player as likelihood)",
        description="From the opponent's last move, the distribution of the tiles they kept: every leave drawn "
                    "from the unseen tiles is checked, the static equity player's best move from the full rack "
                    "must be within --margin of the move played.")
    sp.add_argument("--cgp", help="the position after the opponent's move (your rack; quote it)")
    sp.add_argument("--move", metavar="MOVE",
                    help="the opponent's last move, on the board: '8H WO(R)T' (old tiles in parentheses), "
                         "'--move=-3' (3 unseen tiles exchanged) or '--move=-ABC'")
    sp.add_argument("--gcg", metavar="FILE",
                    help="instead of --cgp/--move: a game record; the position before --turn K (default: after "
                         "the last entry) and the opponent's move before it (an exchange counts as -N)")
    sp.add_argument("--turn", type=int, metavar="K", help="with --gcg: the turn about to be played (0-based)")
    sp.add_argument("--on-rack", metavar="TILES",
                    help="with --cgp: tiles known to have been on the opponent's rack before the move (e.g. a "
                         "play they took back since their last draw); the rack must hold them")
    sp.add_argument("--not-on-rack", metavar="TILES",
                    help="with --cgp: unseen tiles known not to have been on it (e.g. the tiles you put back in an "
                         "exchange after their last draw)")
    sp.add_argument("--margin", default=str(DEFAULT_MARGIN), metavar="E",
                    help=f"equity margin in points (default {DEFAULT_MARGIN:g}, as MAGPIE)")
    sp.add_argument("--top", type=int, default=20, metavar="N", help="most probable leaves to list (default 20)")
    sp.add_argument("--max-racks", type=int, default=MAX_RACKS, metavar="N",
                    help=f"enumerate exactly up to N candidate racks (default {MAX_RACKS:,}; about 0.2 ms each); "
                         f"beyond that check --samples racks drawn at random (not exact)")
    sp.add_argument("--samples", type=int, default=SAMPLES, metavar="N",
                    help=f"racks drawn when there are more than --max-racks (default {SAMPLES:,})")
    sp.add_argument("--seed", type=int, default=0, help="seed of those random racks (default 0)")
    sp.add_argument("--lexicon", help="lexicon bundle (default: the packaged German list)")
    sp.add_argument("--leaves", metavar="KLV", help="leave table of the static player (default: the packaged one)")
    sp.add_argument("--json", action="store_true", help="print one JSON object")
    sp.set_defaults(func=cmd_infer)
