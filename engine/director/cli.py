"""CLI plug-in (see :data:`engine.cli.main.PLUGINS`): ``python -m engine simultan ...``.

Sub-commands (the event directory is the first positional argument or ``--event DIR``)::

    new DIR --players Ana Ben Cal [--seed S] [--round-time 3:00] [rules ...]
    round DIR [--start [--rack TILES]] [--json]  the open round: board, rack, clock, moves entered
    submit DIR PLAYER "8H WORT" [--round N] [--late]   a player's move (again to replace it; "-" = no move)
    penalty DIR PLAYER POINTS [--round N] [--reason TEXT]   deduct points (negative: give back)
    warn DIR PLAYER [--round N] [--reason TEXT]             a warning (costs points per the rules)
    join DIR NAME [--table T]             a player arriving late (the rounds before count 0)
    leave DIR PLAYER                      a player leaving (the later rounds count 0)
    close DIR [--choose MOVE] [--round N] place the top move, score everyone, open the next round
    standings DIR [--round N] [--json]
    undo DIR [--expect N] [--show]        take back the last submit / start / close (entry N only)
    export DIR [--out OUT]                CSV, JSON, GCG, SVG, HTML (also rewritten after every change)
    repair DIR [--apply]                  show what a damaged journal would lose; salvage every intact entry
    auto --seed S --out DIR               the whole master game, top move every round

Order: ``submit`` and ``close`` need the open round's clock started (``round
--start``); a second ``close`` therefore finds the next round not started and
is refused.

Exit codes: 0 done (a readable move that breaks a rule, a word not in the list,
is recorded with 0 points and the reason: exit 0); 2 refused (one ``error: ...``
line: an unknown player, unreadable notation, tiles not on the rack, a closed
round, bad options; nothing changes, except when the message says the entry was
recorded but a file - exports, backup - could not be written: then the entry
stands and the next command rebuilds the file). ``repair`` has its own codes.
"""

from __future__ import annotations

import json
import os
import sys
import time

from engine.lang import lang, num, tr

__all__ = ["add_parser", "handler"]


def _say(text) -> str:
    """A message of the director engine (English) in this run's language: the CLI's catalogue
    (:func:`engine.lang.tr`), else the director's refusals shared with the web pages
    (:func:`engine.lang_de.director_de`), else unchanged."""
    text = str(text)
    out = tr(text)
    if out == text and lang() == "de":
        from engine.lang_de import director_de

        out = director_de(text) or text
    return out


def _note(msg: str) -> None:
    print(tr("note: {msg}", msg=_say(msg)), file=sys.stderr)


class _Usage(ValueError):
    pass


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------
def _event_and_rest(args) -> tuple[str, list[str]]:
    """The event directory and the remaining positionals."""
    pos = list(args.positional or [])
    if args.event:
        return args.event, pos
    if not pos:
        raise _Usage(tr("name the event directory (first argument, or --event DIR)"))
    return pos[0], pos[1:]


def _dir(args, lexicon=None):
    from .store import EventDir

    lex = lexicon
    if lex is None and getattr(args, "lexicon", None):
        from lexicon_tools.bundle import load_lexicon

        lex = load_lexicon(args.lexicon, progress=_note, translate=tr)
    return EventDir(args.event_dir, lexicon=lex, notes=_note)


def _clock(t: float | None) -> str:
    return time.strftime("%H:%M:%S", time.localtime(t)) if t else "-"


def _rules_from_args(args, alphabet):
    from .rules import SimultanRules, parse_time

    kwargs = {"round_time": parse_time(args.round_time)}
    if args.tie_break:
        kwargs["tie_break"] = args.tie_break
    if args.vc_rounds is not None:
        kwargs["vc_rounds"] = args.vc_rounds
    for name, attr in (("early", "early"), ("late", "late")):
        val = getattr(args, attr)
        if val:
            try:
                v, c = (int(x) for x in val.split(","))
            except ValueError:
                raise _Usage(tr("--{name} {val!r}: write VOWELS,CONSONANTS, e.g. 2,2", name=name, val=val)) from None
            kwargs[f"{name}_vowels"], kwargs[f"{name}_consonants"] = v, c
    if args.solo_bonus is not None:
        kwargs["solo_bonus"] = args.solo_bonus
    if args.solo_min_players is not None:
        kwargs["solo_min_players"] = args.solo_min_players
    if getattr(args, "physical_bag", False):
        kwargs["physical_bag"] = True
    for name in ("late_submission", "late_penalty", "late_grace", "warning_penalty", "warnings_free"):
        val = getattr(args, name, None)
        if val is not None:
            kwargs[name] = val
    if kwargs.get("late_penalty") and "late_submission" not in kwargs:
        kwargs["late_submission"] = "penalty"
    if kwargs.get("late_submission") == "penalty" and not kwargs.get("late_penalty"):
        raise _Usage(tr("--late-submission penalty needs --late-penalty POINTS"))
    return SimultanRules.for_alphabet(alphabet, **kwargs)


def _players_file(path: str) -> tuple[list[str], dict]:
    """Players (and their tables) from a file: one player a line, ``NAME`` or ``NAME;TABLE``
    (also ``NAME,TABLE`` or a tab); empty lines and lines starting with ``#`` are skipped.

    Raises:
        _Usage: the file cannot be read, or a table is not a number.
    """
    import re

    try:
        text = open(path, encoding="utf-8-sig").read()
    except (OSError, UnicodeDecodeError) as exc:
        raise _Usage(tr("--players-file {path}: cannot read it ({why})", path=path,
                        why=_say(getattr(exc, 'strerror', None) or exc))) from None
    names, tables = [], {}
    for i, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        m = re.fullmatch(r"(.*?)\s*[;\t]\s*(.*)", line) or re.fullmatch(r"(.*?)\s*,\s*(\d+)", line)
        name, table = (m.group(1).strip(), m.group(2).strip()) if m else (line, "")
        if i == 1 and name.casefold() in ("name", "spieler", "player") and table.casefold() in (
                "table", "tisch", ""):
            continue  # a header line
        names.append(name)
        if table:
            if not table.isdigit():
                raise _Usage(tr("--players-file {path} line {i}: table {table!r} is not a number", path=path, i=i,
                                   table=table))
            tables[name] = int(table)
    return names, tables


def _players(values) -> list[str]:
    """Player names from ``--players`` (space or comma separated).

    Raises:
        _Usage: an empty name (``--players "" Ben``, ``Ana,,Ben``).
    """
    out = []
    for v in values or []:
        for x in v.split(","):
            if not x.strip():
                raise _Usage(tr("--players: empty player name in {given}; give every player a name",
                                given=' '.join(repr(v) for v in values)))
            out.append(x.strip())
    return out


def _late(sub) -> str:
    if sub is None:
        return ""
    out = tr(" LATE (+{s:g} s)", s=sub.late) if sub.late is not None else ""
    return out + (tr(" HANDED IN LATE") if sub.handed_late else "")


def _submission_line(sub) -> str:
    if sub is None:
        return "-"
    if sub.text == "-":
        return tr("no move")
    if sub.valid:
        return f"{sub.notation} {sub.score}{_late(sub)}"
    would = tr(", would score {n}", n=sub.would_score) if sub.would_score is not None else ""
    return tr("{move} invalid: {reason}{would}{late}", move=sub.notation or sub.text, reason=_say(sub.reason),
              would=would, late=_late(sub))


def _print_board(ev) -> None:
    print(ev.board.to_text(), end="")


def _tops_lines(rnd, tie_break, limit: int = 10) -> list[str]:
    from .rules import TIE_BREAKS

    lines = []
    if len(rnd.tops) > 1:
        lines.append(tr("  {n} moves tie at {score}; tie-break ({order}) decided by: {decided}", n=len(rnd.tops),
                        score=rnd.top_score, order=", ".join(tr(TIE_BREAKS[k]) for k in tie_break),
                        decided=tr(", then ").join(tr(TIE_BREAKS.get(k, k)) for k in rnd.decided_by)))
        for i, t in enumerate(rnd.tops[:limit], 1):
            mark = tr("  <- top") if rnd.top is not None and t.notation == rnd.top.notation else ""
            lines.append(tr("   {i:2d}. {move:<24} {score:>4}  blanks {blanks}  duplicates kept {dups}  tiles {tiles}  "
                            "leave {leave}{mark}", i=i, move=t.notation, score=t.score, blanks=t.blanks,
                            dups=t.duplicates, tiles=t.tiles, leave=t.leave or "-", mark=mark))
        if len(rnd.tops) > limit:
            lines.append(tr("   ... and {n} more (results.json lists them all)", n=len(rnd.tops) - limit))
    return lines


# ---------------------------------------------------------------------------
# commands
# ---------------------------------------------------------------------------
def cmd_new(args) -> int:
    """``new``: create the event, draw round 1."""
    from lexicon_tools.bundle import load_lexicon

    from .store import EventDir

    if not str(args.event_dir).strip():
        raise _Usage(tr("the event directory needs a name (an empty name would be the current directory)"))
    players = _players(args.players)
    tables: dict = {}
    if args.players_file:
        more, tables = _players_file(args.players_file)
        players += more
    if args.table_size is not None:
        if args.table_size < 1:
            raise _Usage(tr("--table-size: at least 1 player per table"))
        for i, p in enumerate(players):
            tables.setdefault(p.strip(), i // args.table_size + 1)
    lex = load_lexicon(args.lexicon, progress=_note, translate=tr)
    rules = _rules_from_args(args, lex.alphabet)
    d = EventDir.create(args.event_dir, players, seed=args.seed, rules=rules, name=args.name,
                        lexicon_path=args.lexicon, lexicon=lex, notes=_note, tables=tables)
    ev = d.load()
    shown = (", ".join(players) if len(players) <= 12
             else ", ".join(players[:10]) + tr(", ... ({n} more)", n=len(players) - 10))
    n_tables = len(set(ev.tables.values()))
    print(tr("event {name!r} created in {dir}: {n} players ({shown}){tables}, seed {seed}, round time {time}",
             name=ev.settings.name, dir=args.event_dir, n=len(players), shown=shown or tr("none"),
             tables=tr(" at {n} tables", n=n_tables) if n_tables else "", seed=str(ev.settings.seed),
             time=_fmt_time(ev.rules.round_time)))
    r = ev.rules
    if r.late_submission != "count" or r.warning_penalty:
        late = {"zero": tr("a late move scores 0"),
                "penalty": tr("a late move costs {n} points", n=r.late_penalty),
                "count": tr("a late move counts")}[r.late_submission]
        warn = (tr("each warning after the first {free} costs {n} points", free=r.warnings_free, n=r.warning_penalty)
                if r.warning_penalty else tr("warnings cost nothing"))
        print(tr("penalties: {late} (phones: after the round time + {grace} s); {warn}", late=late,
                 grace=r.late_grace, warn=warn))
    _print_open(ev, args.event_dir)
    return 0


def _fmt_time(s) -> str:
    from .rules import format_time

    return format_time(s)


def _print_open(ev, event_dir) -> None:
    cur = ev.current
    if cur is None:
        print(tr("the event is over: {why}", why=_say(ev.end_reason)))
        return
    if ev.rack_pending:
        print(tr("round {n}: {what}", n=cur.number, what=_pending_text(ev)))
        _print_page(event_dir)
        return
    rej = ""
    if cur.rejected:
        k = len(cur.rejected)
        rej = tr(" ({n} rejected draw: {racks})" if k == 1 else " ({n} rejected draws: {racks})", n=k,
                 racks=", ".join(r[0] for r in cur.rejected))
    print(tr("round {n}: rack {rack}{rej}; {bag} tiles in the bag", n=cur.number, rack=" ".join(cur.rack), rej=rej,
             bag=cur.bag))
    _print_page(event_dir)


def _pending_text(ev) -> str:
    """A physical-bag round before its tiles are drawn: the leave, and what to type."""
    cur = ev.current
    leave = ev.alphabet.rack_string(cur.leave) if cur.leave is not None else ""
    if leave:
        return tr("draw the tiles from the bag (the leave {leave} stays on the rack), then `simultan round DIR "
                  "--start --rack TILES`", leave=" ".join(leave))
    return tr("draw the tiles from the bag, then `simultan round DIR --start --rack TILES`")


def _print_page(event_dir) -> None:
    """The projector page's path, only when it exists."""
    from pathlib import Path

    page = Path(event_dir) / "export" / "current.html"
    if page.is_file():
        print(tr("projector page: {page}", page=page))


def cmd_round(args) -> int:
    """``round``: show the open round (and start its clock with ``--start``)."""
    from .rules import rack_balance

    d = _dir(args)
    if args.rack is not None and not args.start:
        raise _Usage(tr("--rack goes with --start: `simultan round DIR --start --rack ABCDEFG`"))
    if args.start:
        d.start(args.rack)
    ev = d.load()
    cur = ev.current
    if args.json:
        out = {"event": ev.settings.name, "over": ev.over, "end_reason": ev.end_reason,
               "board": ev.board.rows_text(), "round_time": ev.rules.round_time}
        if cur is not None:
            left = None
            if cur.started_at is not None:
                left = round(cur.started_at + ev.rules.round_time - time.time(), 1)
            pending = ev.rack_pending
            out.update({"round": cur.number, "rack": "" if pending else cur.rack,
                        "rack_pending": pending, "bag": cur.bag,
                        "rejected": [] if pending else [list(r) for r in cur.rejected],
                        "started_at": cur.started_at,
                        "seconds_left": left,
                        "submissions": {p: (None if s is None else {"move": s.text, "notation": s.notation,
                                                                     "valid": s.valid, "score": s.score,
                                                                     "reason": s.reason, "late": s.late,
                                                                     "handed_late": s.handed_late})
                                        for p, s in ((p, cur.submissions.get(p)) for p in ev.players)}})
        print(json.dumps(out, ensure_ascii=False))
        return 0
    if cur is None:
        _print_board(ev)
        print(tr("the event is over after {n} rounds: {why}", n=len(ev.closed_rounds), why=_say(ev.end_reason)))
        print(tr("master total {total}; see `standings` and `export`",
                 total=sum(r.top.score for r in ev.closed_rounds)))
        return 0
    if cur.started_at is None:
        clock = tr("round time {time}, clock not started (`round --start`)", time=_fmt_time(ev.rules.round_time))
    else:
        left = cur.started_at + ev.rules.round_time - time.time()
        clock = tr("round time {time}, started {at}, {left}", time=_fmt_time(ev.rules.round_time),
                   at=_clock(cur.started_at),
                   left=tr("{time} left", time=_fmt_time(left)) if left > 0
                   else tr("time is up ({time} ago)", time=_fmt_time(-left)))
    print(tr("{name} - round {n} - {clock}", name=ev.settings.name, n=cur.number, clock=clock))
    _print_board(ev)
    a = ev.alphabet
    v, c, b = rack_balance(ev.rack, a, ev.rules.vowels)
    rej = tr("; {n} rejected draw(s) before it: {racks}", n=len(cur.rejected),
             racks=", ".join(r[0] for r in cur.rejected)) if cur.rejected else ""
    if ev.rack_pending:
        print(tr("rack: {what}", what=_pending_text(ev)))
    else:
        print(tr("rack: {rack}   ({v}, {c}, {b}{rej})", rack=" ".join(cur.rack),
                 v=tr("1 vowel") if v == 1 else tr("{n} vowels", n=v),
                 c=tr("1 consonant") if c == 1 else tr("{n} consonants", n=c),
                 b=tr("1 blank") if b == 1 else tr("{n} blanks", n=b), rej=rej))
    print(tr("bag: {n} tiles", n=cur.bag))
    if ev.players:
        print(tr("moves entered:"))
        w = max(len(p) for p in ev.players)
        for p in ev.players:
            gone = tr("  (left in round {n})", n=ev.left[p]) if p in ev.left else ""
            table = tr("  [table {t}]", t=ev.tables[p]) if p in ev.tables else ""
            print(f"  {p:<{w}}  {_submission_line(cur.submissions.get(p))}{gone}{table}")
    _print_page(args.event_dir)
    return 0


def cmd_submit(args) -> int:
    """``submit``: check and record one player's move for the open round."""
    if len(args.rest) < 2:
        raise _Usage(tr('submit needs a player and a move: submit DIR PLAYER "8H WORT" (or "-" for no move)'))
    player, move = args.rest[0], " ".join(args.rest[1:])
    d = _dir(args)
    before = d.load()
    cur = before.current
    old = cur.submissions.get(before.find_player(player)) if cur is not None and player_known(before, player) else None
    # the round the director saw: a close that wins the race makes this "round N is closed",
    # not a check against the next round's rack
    expect = args.round if args.round is not None else (cur.number if cur is not None else None)
    sub = d.submit(player, move, expect, late=args.late)
    if sub.unchanged:
        print(tr("{player}, round {n}: unchanged ({what} is already entered; nothing recorded)", player=sub.player,
                 n=sub.round, what=_submission_line(sub)))
        return 0
    replaced = tr(" (replaces {what})", what=_submission_line(old)) if old is not None else ""
    if sub.late is not None:
        replaced += tr("; entered LATE (+{s:g} s) after the round time (flagged late)", s=sub.late)
    if sub.handed_late:
        rules = d.load().rules
        cost = {"count": tr("it counts"), "zero": tr("it will score 0"),
                "penalty": tr("{n} points will be deducted", n=rules.late_penalty)}[rules.late_submission]
        replaced += tr("; handed in late: {cost}", cost=cost)
    if sub.valid:
        words = " + ".join(f"{w} {s}" for w, s in sub.words)
        bingo = sub.score - sum(s for _w, s in sub.words)
        if bingo:
            words += tr(" + bingo {n}", n=bingo)
        print(tr("{player}, round {n}: {move} {score} points ({words}){replaced}", player=sub.player, n=sub.round,
                 move=sub.notation, score=sub.score, words=words, replaced=replaced))
    elif sub.text == "-":
        print(tr("{player}, round {n}: no move, 0 points{replaced}", player=sub.player, n=sub.round,
                 replaced=replaced))
    else:
        would = tr(" (it would score {n})", n=sub.would_score) if sub.would_score is not None else ""
        print(tr("{player}, round {n}: {move} recorded as invalid, 0 points: {reason}{would}{replaced}",
                 player=sub.player, n=sub.round, move=sub.notation or sub.text, reason=_say(sub.reason), would=would,
                 replaced=replaced))
    return 0


def player_known(ev, name: str) -> bool:
    """True when ``name`` is one of the event's players (ignoring case)."""
    try:
        ev.find_player(name)
        return True
    except ValueError:
        return False


def cmd_close(args) -> int:
    """``close``: place the top move, score the round, open the next one."""
    d = _dir(args)
    rnd = d.close(args.choose, args.round)
    ev = d.load()
    how = tr(" (chosen by the director)") if rnd.chosen_by == "director" else ""
    words = " + ".join(f"{w} {s}" for w, s in rnd.words)
    print(tr("round {n} closed. top: {move} {score} points ({words}){how}", n=rnd.number, move=rnd.top.notation,
             score=rnd.top.score, words=words, how=how))
    for line in _tops_lines(rnd, ev.rules.tie_break):
        print(line)
    if ev.players:
        w = max(len(p) for p in ev.players)
        from .event import percent

        for p in ev.players:
            sub = rnd.submissions.get(p)
            pts = rnd.total(p)
            tag = ""
            if rnd.scores.get(p, 0) == rnd.top.score:
                tag = tr("  TOP")
            if rnd.bonus.get(p):
                tag += tr("  SOLO +{n}", n=rnd.bonus[p])
            if p in rnd.void_late:
                tag += tr("  0: handed in late")
            if rnd.deduction(p):
                tag += f"  {_signed(-rnd.deduction(p))} ({_deductions(rnd, p)})"
            if ev.absent(p, rnd):
                tag += tr("  absent")
            print(tr("  {player}  {points:>4}  {pct:6.2f}%  {what}{tag}", player=p.ljust(w), points=pts,
                     pct=percent(pts, rnd.top.score), what=_submission_line(sub), tag=tag))
    _print_open(ev, args.event_dir)
    return 0


def _signed(n: int) -> str:
    """``n`` with its sign: ``-5`` for points taken, ``+5`` for points given back."""
    return f"{n:+d}"


def _deductions(rnd, p) -> str:
    """A round's deductions for a player, e.g. ``"penalty 5: phone; warning 2: 10"``."""
    parts = []
    for e in rnd.penalties.get(p, ()):
        what = {"warning": tr("warning {n}", n=e.get("number", "")).strip(),
                "late": tr("late move"), "penalty": tr("penalty")}.get(e["kind"], e["kind"])
        parts.append(what + (f" {_signed(-int(e['points']))}" if e["points"] else "")
                     + (f": {e['reason']}" if e.get("reason") and e["kind"] != "late" else ""))
    return "; ".join(parts)


def _status(s) -> str:
    out = []
    if s.table is not None:
        out.append(tr("table {t}", t=s.table))
    if s.joined is not None:
        out.append(tr("joined in round {n}", n=s.joined))
    if s.left is not None:
        out.append(tr("left in round {n}", n=s.left))
    if s.absent:
        out.append(tr("absent 1 round") if s.absent == 1 else tr("absent {n} rounds", n=s.absent))
    return ", ".join(out)


def cmd_standings(args) -> int:
    """``standings``: ranking with points, percentage of the top, tops and solos."""
    ev = _dir(args).load()
    upto = args.round
    if upto is not None:
        last = ev.closed_rounds[-1].number if ev.closed_rounds else 0
        if not 1 <= upto <= last:
            raise _Usage(f"--round {upto}: " + (tr("rounds 1 to {n} are closed", n=last) if last
                                                else tr("no round is closed yet")))
    rows = ev.standings(upto)
    closed = [r for r in ev.closed_rounds if upto is None or r.number <= upto]
    master = sum(r.top.score for r in closed)
    if args.json:
        print(json.dumps({"after_round": closed[-1].number if closed else 0, "master_total": master,
                          "over": ev.over, "standings": [s.__dict__ for s in rows]}, ensure_ascii=False))
        return 0
    state = (tr("final") if ev.over and upto is None else
             tr("after round {n}", n=closed[-1].number) if closed else tr("before the first round closes"))
    print(tr("{name} - standings {state} (master total {total})", name=ev.settings.name, state=state, total=master))
    if not rows:
        print(tr("  no players (a master game only)"))
        return 0
    w = max(len(tr("player")), max(len(s.player) for s in rows))
    print(tr("  rank  {player}  points  % of top  tops  solos  invalid  missing  late  penalty  warnings",
             player=tr("player").ljust(w)))
    for s in rows:
        note = _status(s)
        print(f"  {s.rank:>4}  {s.player:<{w}}  {s.total:>6}  {num(s.percent, '>7.2f')}%  {s.tops:>4}  {s.solos:>5}  "
              f"{s.invalid:>7}  {s.missing:>7}  {s.late:>4}  {_signed(-s.penalty) if s.penalty else '0':>7}  {s.warnings:>8}"
              + (f"  ({note})" if note else ""))
    return 0


def cmd_penalty(args) -> int:
    """``penalty``: deduct points from a player in a round (default the open round)."""
    if len(args.rest) != 2:
        raise _Usage(tr("penalty needs a player and the points: penalty DIR PLAYER POINTS [--round N] [--reason TEXT]"))
    player, pts = args.rest
    try:
        points = int(pts)
    except ValueError:
        raise _Usage(tr("penalty {pts!r}: the points are a whole number, e.g. 10", pts=pts)) from None
    rec = _dir(args).penalty(player, points, args.round, args.reason or "")
    msg = ("round {n}: {points} points deducted from {player}" if rec["points"] > 0
           else "round {n}: {points} points given back to {player}")
    print(tr(msg, n=rec["round"], points=abs(rec["points"]), player=rec["player"])
          + (f" ({rec['reason']})" if rec["reason"] else ""))
    return 0


def cmd_warn(args) -> int:
    """``warn``: a warning for a player (default in the open round)."""
    if len(args.rest) != 1:
        raise _Usage(tr("warn needs a player: warn DIR PLAYER [--round N] [--reason TEXT]"))
    d = _dir(args)
    rec = d.warn(args.rest[0], args.round, args.reason or "")
    ev = d.load()
    entry = ev.rounds[rec["round"] - 1].penalties[rec["player"]][-1]
    cost = tr(", {n} points deducted", n=entry["points"]) if entry["points"] else tr(", no deduction")
    print(tr("round {n}: warning {k} for {player}{cost}", n=rec["round"], k=entry["number"], player=rec["player"],
             cost=cost) + (f" ({rec['reason']})" if rec["reason"] else ""))
    return 0


def cmd_join(args) -> int:
    """``join``: a player arriving late plays from the open round on."""
    if len(args.rest) != 1:
        raise _Usage(tr("join needs the new player's name: join DIR NAME [--table T] (quote a name with spaces)"))
    rec = _dir(args).join(args.rest[0], args.table)
    table = tr(" at table {t}", t=rec["table"]) if rec.get("table") is not None else ""
    n = rec["round"] - 1
    before = "" if n < 1 else tr("; round 1 counts 0") if n == 1 else tr("; rounds 1 to {n} count 0", n=n)
    print(tr("{player} joins in round {n}{table}{before}", player=rec["player"], n=rec["round"], table=table,
             before=before))
    return 0


def cmd_leave(args) -> int:
    """``leave``: a player leaves; a move already entered for the open round counts."""
    if len(args.rest) != 1:
        raise _Usage(tr("leave needs a player: leave DIR PLAYER"))
    d = _dir(args)
    rec = d.leave(args.rest[0])
    ev = d.load()
    cur = ev.current
    has = cur is not None and rec["player"] in cur.submissions
    print(tr("{player} leaves in round {n}: {counts}no further move is taken; the later rounds count 0",
             player=rec["player"], n=rec["round"],
             counts=tr("the move entered for round {n} counts, ", n=rec["round"]) if has else ""))
    return 0


def _drops_text(drops: list) -> str:
    """The phone moves an undo takes back with the director's action."""
    if not drops:
        return ""
    n = len(drops)
    return tr(", and with it 1 move sent from a phone after it (entry {entries})" if n == 1 else
              ", and with it {n} moves sent from phones after it (entries {entries})", n=n,
              entries=", ".join(map(str, drops)))


def cmd_undo(args) -> int:
    """``undo``: take back the director's last action (``--expect N``: only if it is entry N)."""
    from .event import describe_action

    d = _dir(args)
    if args.show:
        ev = d.load()
        last, drops = ev.undo_target()
        if last is None:
            print(tr("nothing to undo (the event has no action of the director after `new`)"))
        else:
            print(tr("undo would take back entry {seq}: {what}", seq=last["seq"], what=_say(describe_action(last)))
                  + _drops_text(drops))
            print(tr("run: simultan undo {dir} --expect {seq}", dir=args.event_dir, seq=last["seq"]))
        return 0
    rec = d.undo(args.expect)
    print(tr("undone: entry {seq}: {what}", seq=rec["undoes"], what=_say(rec["what"])) + _drops_text(rec.get("drops", [])))
    ev = _dir(args).load()
    _print_open(ev, args.event_dir)
    return 0


def cmd_repair(args) -> int:
    """``repair``: show what a damaged journal would lose; ``--apply`` salvages every intact entry."""
    from .repair import apply_repair, plan_repair

    lex = None
    if args.lexicon:
        from lexicon_tools.bundle import load_lexicon

        lex = load_lexicon(args.lexicon, progress=_note, translate=tr)
    plan = plan_repair(args.event_dir, lex)
    for line in plan.lines():
        print(line)
    if plan.intact:
        return 0
    if not args.apply:
        print(tr("nothing changed; run `simultan repair {dir} --apply` to write the salvaged journal (the old one "
                 "is kept)", dir=args.event_dir))
        return 1
    keep = apply_repair(plan)
    print(tr("journal salvaged; the old one is kept as {path}", path=keep))
    from .store import EventDir

    ev = EventDir(args.event_dir, lexicon=lex, notes=_note).load()
    _print_open(ev, args.event_dir)
    return 0


def cmd_export(args) -> int:
    """``export``: write CSV, JSON, GCG, SVG and HTML."""
    from pathlib import Path

    d = _dir(args)
    out = Path(args.out) if args.out else Path(args.event_dir) / "export"
    files = d.write_exports(out)
    print(tr("{n} files written to {out} (index.html, current.html, master.gcg, results.json, rounds.csv, "
             "standings.csv, round-NN.svg/html)", n=len(files), out=out))
    return 0


def cmd_auto(args) -> int:
    """``auto``: play the whole master game (top move every round) into ``--out``."""
    from lexicon_tools.bundle import load_lexicon

    from .store import play_master

    lex = load_lexicon(args.lexicon, progress=_note, translate=tr)
    rules = _rules_from_args(args, lex.alphabet)
    shown = [0]

    def progress(ev):
        if args.quiet or args.json:
            return
        for rnd in ev.closed_rounds[shown[0]:]:
            total = sum(r.top.score for r in ev.closed_rounds if r.number <= rnd.number)
            rej = tr("  ({n} rejected)", n=len(rnd.rejected)) if rnd.rejected else ""
            ties = tr("  [{n} tied]", n=len(rnd.tops)) if len(rnd.tops) > 1 else ""
            print(f"{rnd.number:>3}  {rnd.rack:<8} {rnd.top.notation:<26} {rnd.top.score:>4} {total:>6}{ties}{rej}")
        shown[0] = len(ev.closed_rounds)

    ev = play_master(args.out, args.seed, lexicon=lex, lexicon_path=args.lexicon, rules=rules, name=args.name,
                     progress=progress)
    total = sum(r.top.score for r in ev.closed_rounds)
    if args.json:
        from .export import results_dict

        d = results_dict(ev)
        print(json.dumps({"seed": args.seed, "rounds": len(ev.closed_rounds), "master_total": total,
                          "end_reason": ev.end_reason,
                          "moves": [{"round": r["round"], "rack": r["rack"], "top": r["top"]["notation"],
                                     "score": r["top"]["score"]} for r in d["rounds"]]}, ensure_ascii=False))
    else:
        print(tr("master game, seed {seed}: {n} rounds, {total} points; ended: {why}", seed=str(args.seed),
                 n=len(ev.closed_rounds), total=total, why=_say(ev.end_reason)))
        print(tr("files in {out}/export (master.gcg, results.json, round-NN.svg/html, index.html)", out=args.out))
    return 0


# ---------------------------------------------------------------------------
# registration
# ---------------------------------------------------------------------------
def handler(args) -> int:
    """Run a ``simultan`` sub-command: 0 ok, 2 refused (one ``error:`` line; ``repair``: see its help)."""
    from lexicon_tools.bundle import LexiconError

    from .event import DirectorError, Rejected
    from .journal import JournalError

    try:
        if args.action not in ("new", "auto"):
            args.event_dir, args.rest = _event_and_rest(args)
            if args.action not in ("submit", "penalty", "warn", "join", "leave") and args.rest:
                raise _Usage(tr("unexpected argument(s) {args!r}", args=" ".join(args.rest)))
        elif args.action == "new":
            args.event_dir, rest = _event_and_rest(args)
            if rest:
                raise _Usage(tr("unexpected argument(s) {args!r} (players go after --players)", args=" ".join(rest)))
        return args.func2(args)
    except Rejected as exc:  # refused, nothing recorded: like every other refusal
        print(tr("error: {exc}", exc=_say(exc.reason)), file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into `head`: what was done is done
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except OSError:
            pass
        return 0
    except OSError as exc:
        from .journal import os_error_text

        print(tr("error: {exc}", exc=_say(os_error_text(exc))), file=sys.stderr)
        return 2
    except (_Usage, DirectorError, JournalError, LexiconError, ValueError) as exc:
        print(tr("error: {exc}", exc=_say(exc)), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(tr("error: interrupted"), file=sys.stderr)
        return 2
    except Exception as exc:  # never a traceback for the director
        print(tr("error: internal error ({kind}: {exc})", kind=type(exc).__name__, exc=exc), file=sys.stderr)
        return 2


def _rules_options(sp) -> None:
    from .rules import TIE_BREAKS

    g = sp.add_argument_group("rules (fixed for the whole event)")
    g.add_argument("--round-time", default="180", metavar="TIME", help="time per round: 180, 3:00 or 3m (default 3:00)")
    g.add_argument("--tie-break", metavar="KEYS",
                   help=f"order of tie-breaks among equal top scores, comma-separated from {', '.join(TIE_BREAKS)} "
                        "(default fewer-blanks,fewer-duplicates,notation; notation always ends the list)")
    g.add_argument("--vc-rounds", type=int, metavar="N", help="rounds 1..N use the early minimum (default 15)")
    g.add_argument("--early", metavar="V,C", help="minimum vowels,consonants in the early rounds (default 2,2)")
    g.add_argument("--late", metavar="V,C", help="minimum vowels,consonants after them (default 1,1)")
    g.add_argument("--solo-bonus", type=int, metavar="PTS", help="bonus for the only player to reach the top (default 0: none)")
    g.add_argument("--solo-min-players", type=int, metavar="N", help="the solo bonus needs at least N players (default 16)")
    g.add_argument("--late-submission", choices=["count", "zero", "penalty"],
                   help="what a move handed in late costs (submit --late, or a phone's move after the round "
                        "time): count (flagged only; default), zero (0 points) or penalty (--late-penalty)")
    g.add_argument("--late-penalty", type=int, metavar="PTS", help="points deducted for a late move (implies "
                                                                   "--late-submission penalty)")
    g.add_argument("--late-grace", type=int, metavar="S", help="seconds after the round time before a phone's move "
                                                               "is late (default 0)")
    g.add_argument("--warning-penalty", type=int, metavar="PTS", help="points deducted per warning beyond the free "
                                                                      "ones (default 0: warnings cost nothing)")
    g.add_argument("--warnings-free", type=int, metavar="N", help="warnings per player without a deduction "
                                                                  "(default 0)")
    g.add_argument("--physical-bag", action="store_true",
                   help="racks come from a real bag: every `round --start` needs --rack (the tiles drawn), and "
                        "the projection shows no rack before it")


def add_parser(subparsers) -> None:
    """Register ``simultan`` and its sub-commands with the engine CLI."""
    p = subparsers.add_parser("simultan", help="simultaneous (duplicate) Scrabble director",
                              description="Simultaneous Scrabble: same rack for everyone, the top move each round. "
                                          "See docs/director.md.")
    sub = p.add_subparsers(dest="action", required=True)

    def cmd(name, func, help_text, positional="[DIR]"):
        sp = sub.add_parser(name, help=help_text)
        sp.add_argument("--event", metavar="DIR", help="the event directory (instead of the first argument)")
        sp.add_argument("--lexicon", help="lexicon bundle (new/auto: default the packaged German list; other "
                                          "commands: override the path the event recorded)")
        sp.set_defaults(func=handler, func2=func)
        return sp

    sp = cmd("new", cmd_new, "create an event: players, seed, rules, round time; draws round 1")
    sp.add_argument("positional", nargs="*", metavar="DIR", help="the new event directory")
    sp.add_argument("--players", nargs="+", default=[], metavar="NAME", help="player names (space or comma separated)")
    sp.add_argument("--seed", type=int, help="bag seed (default: random; recorded)")
    sp.add_argument("--name", help="event name (default: the directory name)")
    sp.add_argument("--players-file", metavar="FILE",
                    help="players from a file, one a line: NAME or NAME;TABLE (after any --players)")
    sp.add_argument("--table-size", type=int, metavar="N",
                    help="number the tables in seat order, N players each (tables from --players-file stay)")
    _rules_options(sp)

    sp = cmd("round", cmd_round, "show the open round: board, rack, round number, clock, moves entered")
    sp.add_argument("positional", nargs="*", metavar="DIR")
    sp.add_argument("--start", action="store_true", help="start the round's clock now (recorded)")
    sp.add_argument("--rack", metavar="TILES",
                    help="with --start: the tiles drawn from a physical bag (the leave stays on the rack and is "
                         "added; or give the whole rack); ? = blank. Checked against the bag and the "
                         "vowel/consonant minimum")
    sp.add_argument("--json", action="store_true", help="one JSON object")

    sp = cmd("submit", cmd_submit, 'enter a player\'s move: submit DIR PLAYER "8H WORT" ("-" = no move)')
    sp.add_argument("positional", nargs="*", metavar="ARG", help="[DIR] PLAYER MOVE")
    sp.add_argument("--round", type=int, metavar="N", help="refuse unless round N is the open round")
    sp.add_argument("--late", action="store_true",
                    help="the move was handed in late (it costs what new --late-submission says)")

    sp = cmd("penalty", cmd_penalty, "deduct points from a player: penalty DIR PLAYER POINTS")
    sp.add_argument("positional", nargs="*", metavar="ARG", help="[DIR] PLAYER POINTS")
    sp.add_argument("--round", type=int, metavar="N", help="the round (default: the open round, after the end the last)")
    sp.add_argument("--reason", metavar="TEXT", help="why (shown in the standings and exports)")

    sp = cmd("warn", cmd_warn, "give a player a warning: warn DIR PLAYER")
    sp.add_argument("positional", nargs="*", metavar="ARG", help="[DIR] PLAYER")
    sp.add_argument("--round", type=int, metavar="N", help="the round (default: the open round, after the end the last)")
    sp.add_argument("--reason", metavar="TEXT", help="why")

    sp = cmd("join", cmd_join, "a player arriving late: join DIR NAME (the rounds before count 0)")
    sp.add_argument("positional", nargs="*", metavar="ARG", help="[DIR] NAME")
    sp.add_argument("--table", type=int, metavar="T", help="the player's table number")

    sp = cmd("leave", cmd_leave, "a player leaving: leave DIR PLAYER (the later rounds count 0)")
    sp.add_argument("positional", nargs="*", metavar="ARG", help="[DIR] PLAYER")

    sp = cmd("close", cmd_close, "close the round: place the top move, score everyone, draw the next rack")
    sp.add_argument("positional", nargs="*", metavar="DIR")
    sp.add_argument("--choose", metavar="MOVE", help="place this one of the tied top moves instead of the tie-break's")
    sp.add_argument("--round", type=int, metavar="N", help="refuse unless round N is the open round")

    sp = cmd("standings", cmd_standings, "standings: points, percentage of the top, tops, solos")
    sp.add_argument("positional", nargs="*", metavar="DIR")
    sp.add_argument("--round", type=int, metavar="N", help="standings after round N")
    sp.add_argument("--json", action="store_true", help="one JSON object")

    sp = cmd("undo", cmd_undo, "take back the director's last action (submit, start or close)")
    sp.add_argument("positional", nargs="*", metavar="DIR")
    sp.add_argument("--expect", type=int, metavar="N",
                    help="refuse unless the last action is journal entry N (see --show): an undo that was "
                         "interrupted and is run again does not take back a second action")
    sp.add_argument("--show", action="store_true", help="only show which entry undo would take back")

    sp = cmd("repair", cmd_repair, "show what a damaged journal would lose; --apply salvages every intact entry")
    sp.add_argument("positional", nargs="*", metavar="DIR")
    sp.add_argument("--apply", action="store_true",
                    help="write the salvaged journal (the old one is kept as journal.damaged-TIME)")

    sp = cmd("export", cmd_export, "write results (CSV, JSON), master game (GCG), pictures (SVG, HTML)")
    sp.add_argument("positional", nargs="*", metavar="DIR")
    sp.add_argument("--out", metavar="OUT", help="output directory (default DIR/export)")

    sp = cmd("auto", cmd_auto, "play a whole master game by itself (top move every round)")
    sp.add_argument("--seed", type=int, required=True, help="bag seed (new --seed S gives the same game)")
    sp.add_argument("--out", required=True, metavar="DIR", help="new directory for the event and its exports")
    sp.add_argument("--name", help="event name (default: the directory name)")
    sp.add_argument("--json", action="store_true", help="print a JSON summary")
    sp.add_argument("--quiet", action="store_true", help="no per-round lines")
    sp.set_defaults(positional=[])
    _rules_options(sp)
