"""CLI plug-in (see :data:`engine.cli.main.PLUGINS`): ``review``, the Partieanalyse of a whole game.

* ``python -m engine review GAME.gcg [--time SECONDS] [--player NAME] [--json] [--plot FILE.svg]
  [--endgame-time S] [--no-endgame] [--lexicon L] [--leaves KLV] [--seed N]``

Every turn of the record: the move played, the engine's best move, the loss
and its mark (:mod:`engine.analysis.review`: static equity, the endgame solver
with the bag empty, with ``--time`` a simulation per turn and the loss in win
%); then per player the average loss, missed bingos and the endgame's loss. A
progress bar on stderr (on a terminal) names the turn being analysed and the
expected end. ``--json`` prints one object; ``--plot`` writes the win % curve
as an SVG picture (written atomically). Bad input prints ``error: ...`` and
exits 2; Ctrl-C exits 130.
"""

from __future__ import annotations

import json
import sys

from engine.lang import num, tr


def _note(msg: str) -> None:
    from engine.cli.main import _note as note

    note(msg)


def _table(path):
    from engine.leaves.table import LeaveTable, default_table

    return default_table(progress=_note) if path is None else LeaveTable.load(path, note=_note)


def format_review(rv) -> list[str]:
    """The review as text lines: one row per turn (numbered from 1, as the Partieanalyse page and the GCG's
    lines; ``--json`` keeps the 0-based ``turn`` index), then one per player."""
    lines = [f"{tr('turn'):>4}  {tr('player'):<10} {tr('rack'):<8} {tr('played'):<22} {tr('best'):<22} "
             f"{tr('loss'):>6}  {tr('mark')}"]
    for t in rv.turns:
        loss = "-" if t.loss is None else num(t.loss, ".1f")
        flag = []
        if t.method == "endgame":
            flag.append(tr("endgame") if t.exact else tr("endgame, not exact"))
        elif t.method == "simulation":
            flag.append(tr("win %"))
        if t.bingo_missed:
            flag.append(tr("bingo missed"))
        if t.note:
            flag.append(tr(t.note))
        extra = f"  ({'; '.join(flag)})" if flag else ""
        lines.append(f"{t.turn + 1:>4}  {t.player:<10} {t.rack or '?':<8} {t.played:<22} {t.best or '-':<22} "
                     f"{loss:>6}  {t.mark or ''}{extra}")
    lines.append("")
    lines.append(f"{tr('player'):<10} {tr('turns'):>5} {tr('avg loss'):>9} {tr('missed bingos'):>14} "
                 f"{tr('endgame loss'):>13}  {tr('marks')}")
    for nick, s in rv.summary().items():
        avg = "-" if s["average_loss"] is None else num(s["average_loss"], ".2f")
        marks = ", ".join(f"{v} {tr(k)}" for k, v in s["marks"].items() if v) or "-"
        lines.append(f"{nick:<10} {s['turns']:>5} {avg:>9} {s['missed_bingos']:>14} {num(s['endgame_loss'], '>13.1f')}  "
                     f"{marks}")
    lines.append({"equity": tr("(loss in equity points; endgame turns in spread points; marks: "
                               "Ungenauigkeit/Fehler/Patzer, see docs/review.md)"),
                  "win": tr("(loss in win % points; marks: Ungenauigkeit/Fehler/Patzer, see docs/review.md)"),
                  "spread": tr("(loss in spread points; marks: Ungenauigkeit/Fehler/Patzer, see docs/review.md)")}
                 [rv.unit])
    return lines


def cmd_review(args) -> int:
    """``review``: review every turn of a GCG record."""
    import argparse as _ap

    from engine.analysis.review import review, win_svg
    from engine.cli.endgame import _seconds
    from engine.cli.game import _record_lexicon
    from engine.game.gcg import read_gcg_file

    seconds = _seconds(args.time)
    end_seconds = _seconds(args.endgame_time, "--endgame-time")
    if args.plot is not None and not str(args.plot).lower().endswith(".svg"):
        raise ValueError(tr("--plot {plot}: the picture is written as SVG, name the file *.svg", plot=args.plot))
    if args.plot is not None:  # before the review: a bad path must not throw minutes of work away at the end
        from lexicon_tools.normalize import check_writable

        check_writable(args.plot)
    lex = _record_lexicon(_ap.Namespace(file=args.file, lexicon=args.lexicon), no_words=False)
    record = read_gcg_file(args.file, lex)
    if args.player is not None and args.player not in record.players:
        raise ValueError(tr("--player {player!r}: the game's players are {players}", player=args.player,
                            players=", ".join(record.players)))
    table = _table(args.leaves)
    if seconds is not None or not args.no_endgame:
        from engine.analysis.warmup import warm_if_cold

        warm_if_cold(lex, _note)  # a first run compiles here, outside every time limit
    from tqdm import tqdm

    bar = tqdm(total=len(record.moves), unit="turn", file=sys.stderr, disable=None, leave=False,
               bar_format="{desc} {bar} {n_fmt}/{total_fmt} [{elapsed}<{remaining}]")

    def progress(done: int, total: int, what: str) -> None:
        bar.total = total
        bar.n = done
        bar.set_description_str(tr("turn {what}", what=what)[:40])
        bar.refresh()

    try:
        rv = review(record, lex, table=table, seconds=seconds, player=args.player,
                    endgame=not args.no_endgame, endgame_seconds=end_seconds or 10.0, seed=args.seed,
                    progress=progress)
    finally:
        bar.close()
    if args.json:
        print(json.dumps(rv.to_json(), ensure_ascii=False))
    else:
        for line in format_review(rv):
            print(line)
    if args.plot is not None:  # after the review is printed: a write that fails now (disk full) loses nothing else
        from lexicon_tools.normalize import write_atomic

        sys.stdout.flush()
        write_atomic(args.plot, win_svg(rv))
        _note(tr("win % curve written to {plot}", plot=args.plot))
    return 0


def add_parser(subparsers) -> None:
    """Register ``review`` with the engine CLI."""
    sp = subparsers.add_parser("review", help="Partieanalyse: every turn of a GCG game against the engine's best move")
    sp.add_argument("file", help="the GCG record")
    sp.add_argument("--time", default=None, metavar="S",
                    help="seconds per turn for a simulation: the loss in win %% (default: static equity, fast)")
    sp.add_argument("--player", default=None, metavar="NAME", help="review only this player's turns (nickname)")
    sp.add_argument("--json", action="store_true", help="print one JSON object")
    sp.add_argument("--plot", default=None, metavar="FILE", help="write the win %% curve as SVG to FILE (*.svg)")
    sp.add_argument("--endgame-time", default=None, metavar="S",
                    help="time limit per endgame solve (default 10 s; exact when the solve completes)")
    sp.add_argument("--no-endgame", action="store_true", help="review the turns with an empty bag by static equity")
    sp.add_argument("--seed", type=int, default=0, help="the simulation's seed (with --time; default 0)")
    sp.add_argument("--lexicon", help="lexicon bundle (default: the record's #lexicon, else the packaged list)")
    sp.add_argument("--leaves", default=None, metavar="KLV", help="leave table (default: the packaged German table)")
    sp.set_defaults(func=cmd_review)
