"""CLI plug-in (see :data:`engine.cli.main.PLUGINS`): ``selfplay`` and ``gcg``.

* ``python -m engine selfplay --games N --seed S [--out DIR] [--lexicon L]
  [--players 2..4] [--player score|equity] [--rules home|tournament|tournament-25]
  [--json] [--no-progress]``
  or ``selfplay --games N --strength A,B [--seconds S]`` (named strengths of
  :mod:`engine.analysis.player` on seat-swapped deal pairs)
  — engine against engine (static best-score or equity players, whole games
  in the game kernel of :mod:`engine.game.kernel_game`), a tqdm progress bar on stderr,
  GCG files in ``DIR``, and a summary (mean score per player, bingos per
  game, moves per game, games/s).
* ``python -m engine gcg FILE [--lexicon L] [--no-words] [--position K] [--rules R]``
  — check a GCG record (every move re-scored; errors name the line) and print
  its score pad, or the CGP of the position before turn ``K``; a score pad's rows of
  points by hand (no placement) are named as not re-scored.

Bad input exits 2 with ``error: ...`` (handled by :func:`engine.cli.main.main`).
"""

from __future__ import annotations

import json
import sys

from engine.lang import tr


def _lexicon(path):
    from lexicon_tools.bundle import load_lexicon

    from engine.cli.main import _note

    return load_lexicon(path, progress=_note, translate=tr)


def cmd_selfplay(args) -> int:
    """``selfplay``: run the games, print the summary (text or JSON)."""
    from engine.game.game import rules_by_name
    from engine.game.selfplay import selfplay

    rules = rules_by_name(args.rules)
    if args.games < 1:
        raise ValueError(tr("--games must be at least 1, got {n}", n=args.games))
    if args.strength:
        return _strength_match(args, rules)
    if not rules.min_players <= args.players <= rules.max_players:
        raise ValueError(tr("{rules} rules: {lo} to {hi} players, got {n}", rules=rules.name, lo=rules.min_players,
                            hi=rules.max_players, n=args.players))
    lex = _lexicon(args.lexicon)
    stats = selfplay(lex, args.games, args.seed, players=args.players, rules=rules, out_dir=args.out,
                     progress=False if args.no_progress else None, player=args.player)
    if args.json:
        print(json.dumps(stats.summary(), ensure_ascii=False))
    else:
        print(stats.format())
        if args.out:
            print(tr("  GCG files in {out}", out=args.out))
    return 0


def _strength_match(args, rules) -> int:
    """``selfplay --strength A,B``: deal pairs (seats swapped) between two named strengths, A's view."""
    from engine.analysis.player import STRENGTHS, Player, pair_summary, play_pair
    from engine.game.selfplay import game_seed

    names = args.strength.split(",")
    if len(names) != 2 or any(n not in STRENGTHS for n in names):
        raise ValueError(tr("--strength takes two of {names} separated by a comma, got {got!r}",
                            names=", ".join(STRENGTHS), got=args.strength))
    if args.players != 2 or args.out:
        raise ValueError(tr("--strength plays two-player deal pairs and writes no GCG files: drop --players/--out"))
    if not args.seconds > 0:
        raise ValueError(tr("--seconds must be positive, got {s}", s=args.seconds))
    lex = _lexicon(args.lexicon)
    pa, pb = (Player(n, args.seconds, seed=args.seed + i) for i, n in enumerate(names))
    pairs = (args.games + 1) // 2
    rows = []
    for i in range(pairs):
        rows.append(play_pair(lex, pa, pb, game_seed(args.seed, i), rules=rules))
        if not args.no_progress:
            s = pair_summary(rows)
            print(tr("pair {i}/{n}: {a} - {b} {spread:+.1f} a game so far", i=i + 1, n=pairs, a=names[0], b=names[1],
                     spread=s["spread"]), file=sys.stderr, flush=True)
    s = {"a": names[0], "b": names[1], "seconds": args.seconds, **pair_summary(rows)}
    if args.json:
        print(json.dumps(s, ensure_ascii=False))
    else:
        lo, hi = s["ci"]
        a, b = names
        print(tr("{a} against {b} ({s:g} s a move), {pairs} deal pairs, {games} games", a=a, b=b, s=args.seconds,
                 pairs=s["pairs"], games=s["games"]))
        print(tr("  {a}: {spread:+.1f} points a game (95 % interval {lo:+.1f} .. {hi:+.1f}), won {wins:g} of {games}",
                 a=a, spread=s["spread"], lo=lo, hi=hi, wins=s["wins_a"], games=s["games"]))
        print(tr("  CPU a move: {ca:.2f} s ({a}), {cb:.2f} s ({b})", ca=s["cpu_per_move_a"], a=a,
                 cb=s["cpu_per_move_b"], b=b))
    return 0


def _record_lexicon(args, no_words: bool = True):
    """``--lexicon``, else the lexicon the file's ``#lexicon`` names (if known), else the default list.

    ``no_words``: the command has ``--no-words`` (``gcg``), and the error suggests it (``review`` has none).

    Raises:
        ValueError: the file names a lexicon this program does not know (says which to pass).
    """
    from pathlib import Path

    from engine.game.gcg import header_lexicon, resolve_lexicon_name

    if args.lexicon:
        return _lexicon(args.lexicon)
    name = header_lexicon(args.file)
    if not name:
        return _lexicon(None)
    where = resolve_lexicon_name(name, Path(args.file).parent)
    if where is None and not no_words:
        raise ValueError(tr("{file}: the record was played with '#lexicon {name}', which is not a known "
                            "lexicon here (no {name}.lex beside the file or in the cache): pass --lexicon PATH "
                            "of that word list", file=args.file, name=name))
    if where is None:
        raise ValueError(tr("{file}: the record was played with '#lexicon {name}', which is not a known "
                            "lexicon here (no {name}.lex beside the file or in the cache): pass --lexicon PATH "
                            "of that word list, or --no-words to check placements and scores only",
                            file=args.file, name=name))
    return _lexicon(None if where == "default" else str(where))


END_REASONS = {"out": "ended by out", "passes": "ended by passes", "agreement": "ended by agreement",
               "time": "ended by time"}
"""How a game ended (:attr:`engine.game.game.GameRecord.end_reason`), as the ``gcg`` command says it."""


def cmd_gcg(args) -> int:
    """``gcg``: read and check a GCG file; print the score pad or one position's CGP, and the rows
    of points by hand it could not re-score (their line numbers)."""
    from engine.game.game import Kind, rules_by_name
    from engine.game.gcg import read_gcg_file

    rules = rules_by_name(args.rules) if args.rules else None
    lex = None if args.no_words else _record_lexicon(args)
    rec = read_gcg_file(args.file, lex, rules=rules)
    if args.position is not None:
        n = len(rec.moves)
        if not 0 <= args.position <= n:
            raise ValueError(tr("--position {k}: the game has turns 0..{n}", k=args.position, n=n))
        print(rec.position(args.position).to_cgp())
        return 0
    print(rec.score_pad(), end="")
    if rec.end_reason:
        r = rec.result()
        who = tr(" and ").join(rec.players[p] for p in r.winners)
        why = tr(END_REASONS.get(rec.end_reason, rec.end_reason))
        print(tr("draw: {who} ({why})", who=who, why=why) if r.draw else tr("winner: {who} ({why})", who=who, why=why))
    elif rec.n_players == 1:
        print(tr("master game (simultaneous Scrabble): {n} moves, {score} points", n=len(rec.moves),
                 score=rec.scores[0]))
    else:
        print(tr("game not finished"))
    hand = [t for t in rec.turns if t.kind == Kind.HAND]
    if hand:  # a score pad's rows of points typed by hand: read, but nothing to re-score
        rows = ", ".join(tr("line {line} ({who} {score:+d})", line=t.line, who=rec.players[t.player], score=t.score)
                             for t in hand)
        print(tr("not re-scored (points by hand, no placement): {rows}", rows=rows))
    return 0


def add_parser(subparsers) -> None:
    """Register ``selfplay`` and ``gcg`` with the engine CLI."""
    from engine.game.game import RULES

    from engine.game.selfplay import PLAYERS

    sp = subparsers.add_parser("selfplay", help="engine against engine (static best-score or equity players)")
    sp.add_argument("--games", type=int, required=True, metavar="N", help="number of games")
    sp.add_argument("--seed", type=int, default=0, metavar="S", help="run seed (game i uses a seed derived from S and i)")
    sp.add_argument("--out", metavar="DIR", help="write one GCG file per game into DIR")
    sp.add_argument("--lexicon", help="lexicon bundle (default: the packaged German list)")
    sp.add_argument("--players", type=int, default=2, choices=(2, 3, 4), help="players per game (default 2)")
    sp.add_argument("--player", default="score", choices=PLAYERS,
                    help="static player of every seat: best score, or equity with the packaged leave table "
                         "(default score)")
    sp.add_argument("--rules", default="home", choices=sorted(RULES), help="rule variant (default home)")
    sp.add_argument("--strength", default=None, metavar="A,B",
                    help="two named strengths (static, endgame, sim, full) on seat-swapped deal pairs "
                         "(--games rounded up to pairs); the summary is A's")
    sp.add_argument("--seconds", type=float, default=1.0, metavar="S",
                    help="time per move of the searching strengths (default 1)")
    sp.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    sp.add_argument("--no-progress", action="store_true", help="no progress bar")
    sp.set_defaults(func=cmd_selfplay)

    sp = subparsers.add_parser("gcg", help="check a GCG game record; print its score pad or a position (CGP)")
    sp.add_argument("file", metavar=tr("file"), help="the .gcg file")
    sp.add_argument("--lexicon", help="lexicon bundle for the word check (default: the one the file's #lexicon "
                                      "names, if known; the packaged German list when it names none)")
    sp.add_argument("--no-words", action="store_true", help="check placements and scores only, not words")
    sp.add_argument("--rules", choices=sorted(RULES), help="rule variant (default: the file's #rules, else home)")
    sp.add_argument("--position", type=int, metavar="K", help="print the CGP of the position before turn K (0-based)")
    sp.set_defaults(func=cmd_gcg)
