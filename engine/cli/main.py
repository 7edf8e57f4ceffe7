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
import contextlib
import importlib
import json
import os
import sys
import time

# No command needs a multi-threaded BLAS; without this NumPy's OpenBLAS starts a thread per core at
# import that spins for a while: about 0.06 s of a 0.17 s `best` process (as lexicon_tools.cli does).
# Set before NumPy is first imported (by lexicon_tools.bundle below); a value the user set is kept.
if "numpy" not in sys.modules:
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from lexicon_tools.bundle import LexiconError, load_lexicon  # noqa: E402

from engine.lang import LANGS, set_lang, tr  # noqa: E402
from engine.position.cgp import CGPError, Position, add_allow_impossible, parse_cgp, warn_notes  # noqa: E402


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
    "engine.cli.review": ("review",),                       # Partieanalyse: a whole game reviewed
}
"""Modules that add subcommands, with the subcommands each registers: each module
defines ``add_parser(subparsers)`` registering its parsers with
``set_defaults(func=handler)``; ``handler(args) -> int``. A module is imported
only when one of its subcommands is asked for (every module for ``--help`` or
an unknown command, so that argparse can list them all)."""

CORE_COMMANDS = ("moves", "best", "score", "warmup")

COMMAND_GROUPS = (
    ("a position", ("best", "moves", "score", "analyze", "simulate", "endgame", "preendgame", "infer")),
    ("games", ("practice", "review", "gcg", "selfplay")),
    ("simultaneous Scrabble", ("simultan",)),
    ("in the browser", ("web",)),
    ("set-up and tools", ("warmup", "tiles", "compare", "baselines")),
)
"""Every subcommand by what it is for: the short usage lists them all (an error message shows it, and a
command of the core imports no plug-in, so argparse itself would list only the core's)."""


def _usage() -> str:
    """The usage line and one line per group of :data:`COMMAND_GROUPS`, in this run's language."""
    lines = [f"%(prog)s [-h] [--lang {{de,en}}] {tr('COMMAND')} ..."]
    width = max(len(tr(g)) for g, _ in COMMAND_GROUPS) + 1
    lines += [f"  {tr(g) + ':':<{width}} {', '.join(cmds)}" for g, cmds in COMMAND_GROUPS]
    lines.append(tr("  (`python -m engine COMMAND --help`: the command's options)"))
    return "\n".join(lines)


def _lexicon(args):
    return load_lexicon(args.lexicon, progress=_note, translate=tr)


def _position(args, lexicon=None) -> Position:
    pos = parse_cgp(args.cgp, allow_impossible=getattr(args, "allow_impossible", False))
    warn_notes(pos, lexicon)
    return pos


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    print(tr("warning: {message}", message=tr(str(message))), file=sys.stderr)


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
    print(tr("note: {msg}", msg=tr(msg)), file=sys.stderr)


def cmd_moves(args, top: int | None = None) -> int:
    from engine.movegen import _dispatch as _kernels

    aot = _kernels.use_aot()  # the ahead-of-time kernels, if built: no Numba import (engine.movegen._aot)
    from engine.movegen.generator import best_move_list, exchanges, generate_moves

    lex = _lexicon(args)
    rc = _moves(args, top, lex, best_move_list, exchanges, generate_moves)
    if not aot:  # once per source change, after the answer: compile the kernels ahead of time
        from engine.movegen import _aot

        bad = _aot.damaged()  # truncated or altered since it was built: never loaded (it would crash the process)
        if bad is not None:
            _note(tr("the compiled move generator {what} is damaged and was not loaded (the JIT kernels answered); "
                     "it is compiled again", what=bad))
        if _aot.needs_build() and not _aot.building():  # once: not again while an earlier run's build goes on
            sys.stdout.flush()
            _aot_in_background(args.lexicon)
    return rc


def _aot_in_background(lexicon_path: str | None) -> None:
    """Start the ahead-of-time build of the move generator in a detached process and return at once.

    With a cache directory that cannot be written (read-only) nothing starts: one note says so (the
    build would spend its 20 s of CPU on every run and never be kept).

    The answer is printed already; the build (about 20 s of CPU, once per version of the kernel
    sources; :mod:`engine.movegen._aot`) then runs on its own (``python -m engine.analysis.warmup aot``,
    its own session, so Ctrl-C in the terminal does not reach it, output discarded), and the next
    ``best``/``moves`` after it finished starts without Numba. ``python -m engine warmup`` does the
    same in the foreground.
    """
    import subprocess

    from lexicon_tools import _aot as shared

    why = shared.unwritable()  # a read-only cache: the build could never be written (report-attack26c A5)
    if why is not None:
        _note(tr("the cache directory {dir} cannot be written ({why}): the move generator is not compiled ahead of "
                 "time, and every start uses the JIT kernels (from Numba's cache, else compiled in memory); set "
                 "GSE_CACHE_DIR to a writable directory, or GSE_AOT=0 to go without it", dir=shared.aot_dir(),
                 why=why))
        return
    argv = [sys.executable, "-m", "engine.analysis.warmup", "aot"] + (["--lexicon", lexicon_path] if lexicon_path else [])
    try:
        subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True, close_fds=True)
    except OSError as exc:
        _note(tr("could not start the ahead-of-time build in the background ({exc}); `python -m engine warmup aot` "
                 "does it", exc=exc))
        return
    _note("compiling the move generator ahead of time in the background (once, about 20 s of CPU) so that later "
          "starts skip Numba; `python -m engine warmup` compiles every kernel ahead; GSE_AOT=0 turns this off")


def _moves(args, top, lex, best_move_list, exchanges, generate_moves) -> int:
    pos = _position(args, lex)
    n = top if top is not None else args.top
    if n is not None and n < 1:
        raise ValueError(tr("--top must be at least 1, got {n}", n=n))
    # load the cached kernels outside the timed region (a tiny generation on an empty board)
    from engine.position.board import Board

    warm = pos.alphabet.parse_rack("AB")
    best_move_list(Board(pos.alphabet), warm, lex, 1) if n else generate_moves(Board(pos.alphabet), warm, lex)
    t0 = time.perf_counter()
    ml = best_move_list(pos.board, pos.rack, lex, n) if n else generate_moves(pos.board, pos.rack, lex)
    elapsed = time.perf_counter() - t0
    moves = ml.top(n) if n else ml.sorted()
    # the exchanges are listed in JSON and counted by `moves`; a text `best` that found a placement needs none
    exch = exchanges(pos.rack, pos.alphabet, pos.bag_count) if args.json or not n or not moves else []
    if args.json:
        out = {"moves": [_move_json(_scored(pos, m, lex)) for m in moves], "exchanges": exch, "pass": True,
               "time_ms": round(elapsed * 1000, 4)}
        json.dump(out, sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
        return 0
    if not moves:
        print(tr("no legal placement; pass or exchange") if exch else tr("no legal placement; pass"))
    for m in moves:
        print(tr("{move:<24} {score:>4}  leave {leave}", move=m.notation, score=m.score, leave=m.leave or "-"))
    if not n:
        print(tr("# {n} placements, {x} exchanges, pass; generated in {ms:.2f} ms", n=len(ml), x=len(exch),
                 ms=elapsed * 1000), file=sys.stderr)
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
            print(tr("illegal: {reason}", reason=tr(reason)))
        return 1
    if args.json:
        out = {"legal": True, "score": scored.score,
               "tiles": [[r, c, ch, bool(b)] for r, c, ch, b in scored.tiles],
               "words": [[w, s] for w, s in scored.words]}
        print(json.dumps(out, ensure_ascii=False))
        return 0
    print(tr("{move}: {score} points", move=scored.move.notation, score=scored.score))
    for w, s in scored.words:
        print(f"  {w:<16} {s:>4}")
    if scored.bingo:
        print(tr("  bingo             +50"))
    return 0


def cmd_warmup(args) -> int:
    """``warmup``: compile every kernel the commands use, once (engine.analysis.warmup), with a progress bar."""
    from engine.analysis import warmup

    unknown = sorted(set(args.steps) - {s.name for s in warmup.STEPS})
    if unknown:
        raise ValueError(tr("unknown step(s) {unknown}; the steps: {steps}", unknown=", ".join(unknown),
                            steps=", ".join(s.name for s in warmup.STEPS)))
    if args.list:
        lex = _lexicon(args)
        todo = {s.name for s in warmup.pending(lex)}
        for s in warmup.STEPS:
            print(f"{s.name:<11} {tr('to do') if s.name in todo else tr('done'):<6} {tr(s.what)}")
        return 0
    t0 = time.monotonic()
    lex = _lexicon(args)  # builds the default lexicon on first use (with its own progress)
    try:
        done = warmup.warm_up_all(lex, args.lexicon, names=args.steps or None, force=args.force)
    except RuntimeError as exc:
        print(tr("error: {exc}", exc=exc), file=sys.stderr)
        return 2
    if not done:
        print(tr("every kernel is compiled already (`--force` compiles again)"))
        return 0
    cpu = sum(c for _, c in done)
    for step, c in done:
        print(tr("{step:<11} {cpu:6.1f} s CPU  {what}", step=step.name, cpu=c, what=tr(step.what)))
    print(tr("compiled in {cpu:.1f} s of CPU ({wall:.0f} s wall); later runs load it from the cache", cpu=cpu,
             wall=time.monotonic() - t0))
    return 0


def _command_of(argv) -> str | None:
    """The subcommand named in ``argv`` (its first argument that is not an option), or ``None``."""
    for a in argv:
        if a == "--":
            return None
        if not a.startswith("-"):
            return a
    return None


def take_lang(argv: list[str]) -> list[str]:
    """Take ``--lang de|en`` (or ``--lang=…``) out of ``argv`` wherever it stands, choose that language
    (:func:`engine.lang.set_lang`, also for argparse's own messages) and return the other arguments.

    ``--lang`` is a global option: it may stand before or after the subcommand (``python -m engine
    --lang de best …`` or ``python -m engine best … --lang de``); arguments after ``--`` are left alone.

    Raises:
        ValueError: ``--lang`` without a value, or a value other than ``de``/``en``.
    """
    rest, i, code = [], 0, None
    while i < len(argv):
        a = argv[i]
        if a == "--":
            rest.extend(argv[i:])
            break
        if a == "--lang":
            if i + 1 >= len(argv):
                raise ValueError(tr("--lang needs a value: de or en"))
            code, i = argv[i + 1], i + 2
            continue
        if a.startswith("--lang="):
            code, i = a.split("=", 1)[1], i + 1
            continue
        rest.append(a)
        i += 1
    set_lang(code)
    _argparse_language()
    return rest


def _argparse_language() -> None:
    """argparse's own texts (usage, errors, help headings) in this run's language (argparse uses gettext's ``_``)."""
    from engine.lang import lang

    if lang() == "de":
        from engine.lang_de import ARGPARSE_DE

        argparse._ = lambda text: ARGPARSE_DE.get(text, text)
        argparse.ngettext = lambda one, many, n: ARGPARSE_DE.get(one if n == 1 else many, one if n == 1 else many)
    else:
        import gettext

        argparse._, argparse.ngettext = gettext.gettext, gettext.ngettext


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser.

    Args:
        command: the subcommand about to run; only the plug-in registering it is
            imported. ``None`` (or a name no plug-in declares) imports every plug-in.
    """
    p = argparse.ArgumentParser(prog="python -m engine", description="German Scrabble move generator and analysis.")
    p.add_argument("--lang", choices=LANGS, help="language of the text output (default: GSE_LANG, else German "
                                                 "when the locale (LC_ALL, LC_MESSAGES, LANG) is German, else "
                                                 "English); anywhere on the command line; JSON is the same in both")
    sub = p.add_subparsers(dest="command", required=True, metavar=tr("COMMAND"))
    p.usage = _usage()  # after add_subparsers: the subcommands' own usage starts with the plain prog

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
    sp = sub.add_parser("warmup", help="compile every kernel the commands use, once (a few minutes of CPU; "
                                       "Ctrl-C stops it and keeps what is done)")
    sp.add_argument("--lexicon", help="the lexicon the commands will use (default: the packaged German list)")
    sp.add_argument("--force", action="store_true", help="compile again even what is done")
    sp.add_argument("--list", action="store_true", help="list the steps and which are done, compile nothing")
    sp.add_argument("steps", nargs="*", metavar="STEP", help="only these steps (see --list)")
    sp.set_defaults(func=cmd_warmup)
    wanted = [m for m, cmds in PLUGINS.items() if command in cmds]
    if command in CORE_COMMANDS:
        wanted = []
    elif not wanted:
        wanted = list(PLUGINS)
    for name in wanted:  # every plug-in is part of the package: a missing one is a bug, not an option
        importlib.import_module(name).add_parser(sub)
    from engine.lang import lang

    if lang() == "de":
        translate_help(p)
    return p


def translate_help(parser: argparse.ArgumentParser) -> None:
    """Put ``parser``'s help texts and those of its subcommands into German (:mod:`engine.cli.help_de`).

    argparse looks up only its own words through gettext (:func:`_argparse_language`); the texts the code
    gives it (``description``, ``epilog``, ``help``) and the placeholders of the usage (``LEXICON``, ``DIR``)
    are replaced here, in the built parser, before it prints anything. Only text changes: the options, their
    ``dest`` and the parsing stay the same.
    """
    from engine.cli.help_de import HELP_DE, METAVAR_DE

    todo = [parser]
    while todo:
        p = todo.pop()
        p.description = HELP_DE.get(p.description, p.description)
        p.epilog = HELP_DE.get(p.epilog, p.epilog)
        for group in p._action_groups:  # "options" and "positional arguments" are argparse's (ARGPARSE_DE)
            group.title = HELP_DE.get(group.title, group.title)
            group.description = HELP_DE.get(group.description, group.description)
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                for choice in action._choices_actions:
                    choice.help = HELP_DE.get(choice.help, choice.help)
                todo.extend(action.choices.values())
                continue
            if isinstance(action.help, str):
                action.help = HELP_DE.get(action.help, action.help)
            if action.nargs == 0 or action.choices is not None:
                continue  # a flag has no placeholder; a choice shows its choices
            if isinstance(action.metavar, str):
                action.metavar = METAVAR_DE.get(action.metavar, action.metavar)
            elif action.metavar is None:
                name = action.dest.upper() if action.option_strings else action.dest
                if name in METAVAR_DE:
                    action.metavar = METAVAR_DE[name]


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot raise BrokenPipeError again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        sys.stdout = open(os.devnull, "w")


@contextlib.contextmanager
def _ctrl_c_stops():
    """Within the block Ctrl-C raises :class:`KeyboardInterrupt`, also when the process started with it ignored.

    A shell running ``command &`` from a script (no job control) starts the command with SIGINT
    ignored, and Python then never raises :class:`KeyboardInterrupt`. The searches took Ctrl-C
    anyway (:func:`engine.interrupt.on_ctrl_c` installs its own handler), so such a command ignored
    Ctrl-C while it compiled its kernels (minutes on a first run, :mod:`engine.analysis.warmup`)
    and obeyed it a minute later (report-attack26c A3). Every command now obeys it throughout, as
    the exit code 130 is documented for every command. The handler before is restored on leaving
    (``main`` may be called in a process that ignores Ctrl-C on purpose); outside the main thread
    nothing changes (no signal arrives there).
    """
    import signal
    import threading

    from engine.interrupt import forget_ctrl_c, remembering_handler

    if threading.current_thread() is not threading.main_thread() \
            or signal.getsignal(signal.SIGINT) not in (signal.SIG_IGN, signal.default_int_handler):
        yield
        return
    forget_ctrl_c()
    # Python's own behaviour, and a Ctrl-C remembered even when a compile swallows it (report-attack26g C1)
    previous = signal.signal(signal.SIGINT, remembering_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def main(argv=None) -> int:
    """Run the CLI; returns the exit code (0 ok, 1 illegal move, 2 error, 130 Ctrl-C, 141 reader closed the pipe).

    ``--lang de|en`` anywhere in ``argv`` chooses the language of the text (:func:`take_lang`); the
    choice ends with the call (the next call in the same process starts from the default again).
    """
    try:
        return _main(argv)
    finally:
        set_lang(None)
        _argparse_language()


def _refuse_empty_values(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse ``--cgp=--`` and the like (:func:`lexicon_tools.argcheck.empty_value_option`): exit 2 with the
    usage, as argparse does for a missing value."""
    from lexicon_tools.argcheck import empty_value_option

    bad = empty_value_option(parser, args)
    if bad is not None:
        bad[0].error(tr("argument {opt}: expected one value, not '--'", opt=bad[1]))


def _main(argv) -> int:
    import warnings

    argv = sys.argv[1:] if argv is None else [str(a) for a in argv]
    try:
        argv = take_lang(argv)
    except ValueError as exc:
        print(tr("error: {exc}", exc=exc), file=sys.stderr)
        return 2
    parser = build_parser(_command_of(argv))
    args = parser.parse_args(argv)
    _refuse_empty_values(parser, args)
    try:
        with warnings.catch_warnings(), _ctrl_c_stops():
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
        print(tr("error: {exc}", exc=tr(str(exc))), file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:  # Ctrl-C: the shell's convention, 128 + SIGINT
        warmup = sys.modules.get("engine.analysis.warmup")
        if warmup is not None and isinstance(exc, warmup.WarmupInterrupted):  # the first run's compile
            print(tr("error: interrupted while compiling ({step}); the steps done are kept: run the command again, "
                     "or `python -m engine warmup`, to finish", step=str(exc)), file=sys.stderr)
        else:
            print(tr("error: interrupted"), file=sys.stderr)
        return 130
    except SystemError as exc:  # Ctrl-C inside a Numba kernel surfaces as "returned a result with an exception set"
        if isinstance(exc.__context__, KeyboardInterrupt) or isinstance(exc.__cause__, KeyboardInterrupt):
            print(tr("error: interrupted"), file=sys.stderr)
            return 130
        raise
