"""Command line: ``python -m engine`` (also installed as ``scrabble-engine``).

Subcommands:

* ``moves --cgp CGP [--lexicon L] [--top N] [--json]`` — every legal move, by score then notation;
* ``best --cgp CGP [--lexicon L] [--json]`` — the top-scoring move;
* ``score --cgp CGP MOVE [--lexicon L] [--json]`` — the word checker: tiles placed,
  words formed with their scores, total, or why the move is illegal (exit 1).

Errors (bad CGP, unknown lexicon, ...) print ``error: ...`` and exit 2.

Start-up: a command imports only what it uses. The plug-in module of a
sub-command (the web stack, the director, simulation, ...) is imported only
when that sub-command runs (or for ``--help``); ``best``/``moves``/``score``
import neither FastAPI nor the plug-ins (check with ``python -X importtime``).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import time

from lexicon_tools.bundle import LexiconError, load_lexicon

from engine.position.cgp import CGPError, Position, add_allow_impossible, parse_cgp, warn_notes


PLUGINS = {
    "engine.cli.game": ("selfplay", "gcg"),                 # whole games: self-play, GCG records
    "engine.compare.checker": ("compare", "baselines"),     # the cross-generator checker
    "engine.director.cli": ("simultan",),                   # simultaneous Scrabble (the director's own CLI)
    "engine.cli.analyze": ("analyze", "practice"),          # equity, simulation, the phase answer
    "engine.cli.simulate": ("simulate",),                   # Monte Carlo simulation
    "engine.cli.endgame": ("endgame", "preendgame"),        # endgame solver, pre-endgame
    "engine.cli.infer": ("infer",),                         # rack inference
    "engine.web.cli": ("web",),                             # the web app (the web package's own CLI)
    "engine.cli.tiles": ("tiles",),                         # the tile set
}
"""Modules that add subcommands, with the subcommands each registers: each module
defines ``add_parser(subparsers)`` registering its parsers with
``set_defaults(func=handler)``; ``handler(args) -> int``. A module is imported
only when one of its subcommands is asked for (every module for ``--help`` or
an unknown command, so that argparse can list them all)."""

CORE_COMMANDS = ("moves", "best", "score")


def _lexicon(args):
    def note(msg: str) -> None:
        print(f"note: {msg}", file=sys.stderr)

    return load_lexicon(args.lexicon, progress=note)


def _position(args, lexicon=None) -> Position:
    pos = parse_cgp(args.cgp, allow_impossible=getattr(args, "allow_impossible", False))
    warn_notes(pos, lexicon)
    return pos


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    print(f"warning: {message}", file=sys.stderr)


def _move_json(scored) -> dict:
    m = scored.move
    return {
        "move": m.notation,
        "score": scored.score,
        "tiles": [[r, c, ch, bool(b)] for r, c, ch, b in scored.tiles],
        "words": [[w, s] for w, s in scored.words],
        "leave": m.leave,
    }


def _scored(pos: Position, move, lexicon):
    from engine.position.scorer import score_placement

    return score_placement(pos.board, move.tiles, lexicon=None, rack=pos.rack, alphabet=pos.alphabet)


def _note(msg: str) -> None:
    print(f"note: {msg}", file=sys.stderr)


def cmd_moves(args, top: int | None = None) -> int:
    from engine.movegen import _dispatch as _kernels

    aot = _kernels.use_aot()  # the ahead-of-time kernels, if built: no Numba import (engine.movegen._aot)
    from engine.movegen.generator import best_move_list, exchanges, generate_moves

    lex = _lexicon(args)
    rc = _moves(args, top, lex, best_move_list, exchanges, generate_moves)
    if not aot:  # once per source change, after the answer: compile the kernels ahead of time
        from engine.movegen import _aot
        from engine.movegen.generator import build_aot

        if _aot.needs_build():
            sys.stdout.flush()
            build_aot(lex, progress=_note)
    return rc


def _moves(args, top, lex, best_move_list, exchanges, generate_moves) -> int:
    pos = _position(args, lex)
    n = top if top is not None else args.top
    if n is not None and n < 1:
        raise ValueError(f"--top must be at least 1, got {n}")
    # load the cached kernels outside the timed region (a tiny generation on an empty board)
    from engine.position.board import Board

    warm = pos.alphabet.parse_rack("AB")
    best_move_list(Board(pos.alphabet), warm, lex, 1) if n else generate_moves(Board(pos.alphabet), warm, lex)
    t0 = time.perf_counter()
    ml = best_move_list(pos.board, pos.rack, lex, n) if n else generate_moves(pos.board, pos.rack, lex)
    elapsed = time.perf_counter() - t0
    moves = ml.top(n) if n else ml.sorted()
    exch = exchanges(pos.rack, pos.alphabet, pos.bag_count)
    if args.json:
        out = {"moves": [_move_json(_scored(pos, m, lex)) for m in moves], "exchanges": exch, "pass": True,
               "time_ms": round(elapsed * 1000, 4)}
        json.dump(out, sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
        return 0
    if not moves:
        print("no legal placement; pass" + (" or exchange" if exch else ""))
    for m in moves:
        print(f"{m.notation:<24} {m.score:>4}  leave {m.leave or '-'}")
    if not n:
        print(f"# {len(ml)} placements, {len(exch)} exchanges, pass; generated in {elapsed * 1000:.2f} ms",
              file=sys.stderr)
    return 0


def cmd_best(args) -> int:
    return cmd_moves(args, top=1)


def cmd_score(args) -> int:
    from engine.position.scorer import IllegalMove, check_move

    lex = _lexicon(args)
    pos = _position(args, lex)
    try:
        scored = check_move(pos.board, args.move, lex, rack=pos.rack if pos.rack.sum() else None)
    except IllegalMove as exc:
        reason = getattr(exc, "reason", str(exc))
        if args.json:
            print(json.dumps({"legal": False, "reason": reason}, ensure_ascii=False))
        else:
            print(f"illegal: {reason}")
        return 1
    if args.json:
        out = {"legal": True, "score": scored.score,
               "tiles": [[r, c, ch, bool(b)] for r, c, ch, b in scored.tiles],
               "words": [[w, s] for w, s in scored.words]}
        print(json.dumps(out, ensure_ascii=False))
        return 0
    print(f"{scored.move.notation}: {scored.score} points")
    for w, s in scored.words:
        print(f"  {w:<16} {s:>4}")
    if scored.bingo:
        print("  bingo             +50")
    return 0


def _command_of(argv) -> str | None:
    """The subcommand named in ``argv`` (its first argument that is not an option), or ``None``."""
    for a in argv:
        if a == "--":
            return None
        if not a.startswith("-"):
            return a
    return None


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser.

    Args:
        command: the subcommand about to run; only the plug-in registering it is
            imported. ``None`` (or a name no plug-in declares) imports every plug-in.
    """
    p = argparse.ArgumentParser(prog="python -m engine", description="German Scrabble move generator and analysis.")
    sub = p.add_subparsers(dest="command", required=True)

    def common(sp):
        sp.add_argument("--cgp", required=True, help="position in CGP notation (quote it)")
        sp.add_argument("--lexicon", help="lexicon bundle from `python -m lexicon_tools build` (default: the packaged German list)")
        sp.add_argument("--json", action="store_true", help="print one JSON object")
        add_allow_impossible(sp)

    sp = sub.add_parser("moves", help="list every legal move, by score then notation")
    common(sp)
    sp.add_argument("--top", type=int, default=None, metavar="N", help="only the N best moves")
    sp.set_defaults(func=cmd_moves)
    sp = sub.add_parser("best", help="the top-scoring move")
    common(sp)
    sp.set_defaults(func=cmd_best)
    sp = sub.add_parser("score", help="check and score a move typed as `8H HAUS` / `H8 HA(U)S`")
    common(sp)
    sp.add_argument("move", help="start square and whole word, e.g. '8H HA(U)S' (blank lowercase)")
    sp.set_defaults(func=cmd_score)
    wanted = [m for m, cmds in PLUGINS.items() if command in cmds]
    if command in CORE_COMMANDS:
        wanted = []
    elif not wanted:
        wanted = list(PLUGINS)
    for name in wanted:  # every plug-in is part of the package: a missing one is a bug, not an option
        importlib.import_module(name).add_parser(sub)
    return p


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot raise BrokenPipeError again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        sys.stdout = open(os.devnull, "w")


def main(argv=None) -> int:
    """Run the CLI; returns the exit code (0 ok, 1 illegal move, 2 error, 130 Ctrl-C, 141 reader closed the pipe)."""
    import warnings

    argv = sys.argv[1:] if argv is None else [str(a) for a in argv]
    parser = build_parser(_command_of(argv))
    args = parser.parse_args(argv)
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _show_warning  # `warning: ...` lines, no file/line noise
            try:
                return args.func(args)
            finally:
                sys.stdout.flush()
    except BrokenPipeError:
        # the reader went away (e.g. `| head`): stop quietly like other Unix tools
        _silence_stdout()
        return 141
    except (CGPError, LexiconError, ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C: the shell's convention, 128 + SIGINT
        print("error: interrupted", file=sys.stderr)
        return 130
    except SystemError as exc:  # Ctrl-C inside a Numba kernel surfaces as "returned a result with an exception set"
        if isinstance(exc.__context__, KeyboardInterrupt) or isinstance(exc.__cause__, KeyboardInterrupt):
            print("error: interrupted", file=sys.stderr)
            return 130
        raise
