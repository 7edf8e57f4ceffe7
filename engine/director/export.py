"""Exports of a simultaneous event: results as CSV and JSON, the master game as GCG, pictures.

:func:`write_exports` writes into one directory (``EVENT/export`` by default)::

    rounds.csv       one row per closed round and player: move, points, % of the top, running total,
                     ``late`` (seconds after the round time, empty when in time)
    master.csv       one row per closed round: rack, rejected draws, top move, tied tops, master total
    standings.csv    the standings after the last closed round (final once the event is over)
    results.json     everything: settings, every round (rack, rejected draws, tied tops,
                     every player's move), standings after each round, final standings
    master.gcg       the master game (the top moves) as GCG, one player "Top"
    round-NN.svg     board after round NN's top move (highlighted), caption and rack
    round-NN.html    the same as a page to project (board, round, rack, top move)
    current.svg/html the open round: board, rack, clock, the last top move and that round's
                     scores (reloads every 5 s; :func:`current_page`, also served live by
                     ``python -m engine web --event DIR``)
    index.html       all rounds and the standings
    journal-state.json  the journal entry the files show (written last; see :func:`write_exports`)

Files are written to a temporary name and renamed, so a browser or another
program never reads a half-written file. Pictures of rounds that no longer
exist (after ``undo``) are removed.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
from pathlib import Path

from engine.position.board import Board
from engine.game.game import GameRecord, Kind, Rules, Turn
from engine.game.gcg import write_gcg
from engine.position.scorer import check_move
from lexicon_tools.bundle import lexicon_stem

from .event import NO_MOVE, Event, Round, percent, rank_standings
from .journal import atomic_write, remove_stale_temps
from .render import board_svg, de_number, index_page, round_page
from .rules import format_time

__all__ = ["write_exports", "current_page", "master_record", "results_dict", "round_rows", "round_score_rows",
           "running_rows", "master_rows", "standings_rows", "top_tiles"]

MASTER = "Top"
"""The master game's player name in GCG."""


STAMP_FILE = "journal-state.json"
"""Written last by :func:`write_exports`: the journal entry the exports show (removed first)."""


def _write(path: Path, text: str) -> None:
    atomic_write(path, text)


def _scored_top(ev: Event, rnd: Round):
    return check_move(rnd.board, rnd.top.notation, None, rack=rnd.rack)


def top_tiles(ev: Event, rnd: Round) -> list:
    """The tiles a closed round's top move placed: ``[(row, col, letter, blank), ...]`` (0-based)."""
    return _scored_top(ev, rnd).tiles


def _board_after(ev: Event, rnd: Round) -> tuple[Board, list]:
    scored = _scored_top(ev, rnd)
    b = rnd.board.copy()
    a = ev.alphabet
    b.place([(r, c, a.code(ch), bl) for r, c, ch, bl in scored.tiles])
    return b, scored.tiles


def master_record(ev: Event) -> GameRecord:
    """The master game (the top move of every closed round) as a one-player :class:`GameRecord`."""
    turns = []
    total = 0
    for rnd in ev.closed_rounds:
        scored = _scored_top(ev, rnd)
        total += rnd.top.score
        turns.append(Turn(Kind.PLAY, 0, rnd.rack, rnd.top.score, total, move=scored.move,
                          words=tuple(scored.words)))
    lex = lexicon_stem(ev.settings.lexicon) if ev.settings.lexicon else "default"
    notes = {"description": f"Simultan master game: {ev.settings.name}"}
    return GameRecord(players=[MASTER], names=[f"{MASTER} (master game)"], turns=turns,
                      rules=Rules(name="simultan", min_players=1, max_players=1), alphabet=ev.alphabet,
                      lexicon=lex, seed=ev.settings.seed, notes=notes)


def round_rows(ev: Event) -> list[dict]:
    """One dict per closed round and player (the rows of ``rounds.csv``)."""
    rows = []
    cum = {p: 0 for p in ev.players}
    master = 0
    for rnd in ev.closed_rounds:
        master += rnd.top.score
        for p in ev.players:
            sub = rnd.submissions.get(p)
            cum[p] = cum.get(p, 0) + rnd.total(p)
            rows.append({
                "round": rnd.number, "rack": rnd.rack, "top_move": rnd.top.notation, "top_score": rnd.top.score,
                "player": p, "move": "" if sub is None or sub.text == NO_MOVE else sub.notation or sub.text,
                "valid": "" if sub is None or sub.text == NO_MOVE else ("yes" if sub.valid else "no"),
                "reason": "no move" if sub is None else sub.reason,
                "late": "" if sub is None or sub.late is None else f"{sub.late:g}",
                "handed_late": "yes" if sub is not None and sub.handed_late else "",
                "absent": "yes" if ev.absent(p, rnd) else "",
                "score": rnd.scores.get(p, 0), "bonus": rnd.bonus.get(p, 0),
                "penalty": rnd.deduction(p), "warnings": rnd.warnings(p),
                "penalty_reasons": deduction_text(rnd, p),
                "percent_of_top": f"{percent(rnd.total(p), rnd.top.score):.2f}",
                "top": "yes" if rnd.scores.get(p, 0) == rnd.top.score else "no",
                "total": cum[p], "master_total": master,
                "percent_total": f"{percent(cum[p], master):.2f}",
            })
    return rows


def deduction_text(rnd: Round, player: str) -> str:
    """A round's deductions for a player in German (``"Verwarnung 2 (−5): Handy; Strafe −10: laut"``)."""
    parts = []
    for e in rnd.penalties.get(player, ()):
        pts = int(e["points"])
        amount = f" −{pts}" if pts > 0 else f" +{-pts}" if pts < 0 else ""
        if e["kind"] == "warning":
            text = f"Verwarnung {e.get('number', '')}".strip() + (f" ({amount.strip()})" if amount else "")
        elif e["kind"] == "late":
            text = f"zu spät abgegeben{amount}"
        else:
            text = f"Strafe{amount}"
        if e.get("reason") and e["kind"] != "late":
            text += f": {e['reason']}"
        parts.append(text)
    if player in rnd.void_late:
        parts.append("zu spät abgegeben: 0 Punkte")
    return "; ".join(parts)


def round_score_rows(ev: Event, rnd: Round) -> list[dict]:
    """A closed round's result per player, best first (what the projected page shows under the top move).

    Returns:
        one dict per player, ordered by ``total`` (points + bonus) descending, equal
        totals sharing a rank and kept in seat order: ``rank``, ``player``, ``move``
        (the notation as checked, ``""`` for no move), ``valid`` (``None`` for no
        move), ``reason`` (why it scored 0, ``""`` when valid), ``score``, ``bonus``,
        ``total`` (points + bonus − deductions), ``top`` (the score equals the top move's),
        ``deduction`` (points deducted), ``warnings``, ``note`` (the deductions in German,
        :func:`deduction_text`), ``absent`` (not playing this round), ``table``, ``late``
        (handed in late).
    """
    rows = {}
    for p in ev.players:
        sub = rnd.submissions.get(p)
        none = sub is None or sub.text == NO_MOVE
        rows[p] = {"player": p, "move": "" if none else sub.notation or sub.text,
                   "valid": None if none else sub.valid,
                   "reason": ("no move" if sub is None else sub.reason),
                   "score": rnd.scores.get(p, 0), "bonus": rnd.bonus.get(p, 0), "total": rnd.total(p),
                   "top": rnd.top is not None and rnd.scores.get(p, 0) == rnd.top.score,
                   "deduction": rnd.deduction(p), "warnings": rnd.warnings(p), "note": deduction_text(rnd, p),
                   "absent": ev.absent(p, rnd), "table": ev.tables.get(p),
                   "late": sub is not None and sub.handed_late}
    ranked = rank_standings({p: r["total"] for p, r in rows.items()}, ev.players)
    return [{"rank": rank, **rows[p]} for rank, p in ranked]


def running_rows(ev: Event, rnd: Round) -> list[dict]:
    """The running standings after closed round ``rnd`` with that round's move and points per
    player (the table of the projected page), best total first.

    Returns:
        :func:`round_score_rows`' dicts with ``rank`` the standings' rank after ``rnd``,
        and ``sum`` (the player's total so far) and ``percent`` (of the master total so far).
    """
    standing = {s["player"]: s for s in standings_rows(ev, rnd.number)}
    rows = {r["player"]: r for r in round_score_rows(ev, rnd)}
    return [{**rows[p], "rank": standing[p]["rank"], "sum": standing[p]["total"], "percent": standing[p]["percent"]}
            for p in standing]


def master_rows(ev: Event) -> list[dict]:
    """One dict per closed round (the rows of ``master.csv``)."""
    rows = []
    total = 0
    for rnd in ev.closed_rounds:
        total += rnd.top.score
        rows.append({
            "round": rnd.number, "rack": rnd.rack,
            "rejected_draws": " ".join(r[0] for r in rnd.rejected),
            "top_move": rnd.top.notation, "score": rnd.top.score, "master_total": total,
            "tied_tops": len(rnd.tops), "decided_by": " ".join(rnd.decided_by),
            "chosen_by": rnd.chosen_by,
            "other_tops": " | ".join(t.notation for t in rnd.tops if t.notation != rnd.top.notation),
            "moves": rnd.n_moves, "bag": rnd.bag,
        })
    return rows


def standings_rows(ev: Event, upto: int | None = None) -> list[dict]:
    """The standings as dicts (the rows of ``standings.csv``)."""
    return [{"rank": s.rank, "player": s.player, "total": s.total, "points": s.points, "bonus": s.bonus,
             "percent": s.percent, "top_total": s.top_total, "tops": s.tops, "solos": s.solos,
             "invalid": s.invalid, "missing": s.missing, "late": s.late, "penalty": s.penalty,
             "warnings": s.warnings, "absent": s.absent, "table": s.table, "joined": s.joined, "left": s.left,
             "handed_late": s.handed_late}
            for s in ev.standings(upto)]


def status_line(ev: Event) -> str:
    """One line about the event's state (German, for the pages)."""
    closed = len(ev.closed_rounds)
    rounds = "1 Runde" if closed == 1 else f"{closed} Runden"
    if ev.over:
        return f"Partie beendet nach {rounds} ({ev.end_reason})"
    return f"Runde {ev.current.number} läuft · {rounds} gespielt"


def results_dict(ev: Event) -> dict:
    """Everything about the event as one JSON-ready dict (``results.json``)."""
    rounds = []
    for rnd in ev.closed_rounds:
        players = {}
        for p in ev.players:
            sub = rnd.submissions.get(p)
            players[p] = {
                "move": None if sub is None else sub.text, "notation": None if sub is None else sub.notation,
                "valid": None if sub is None else sub.valid, "reason": "no move" if sub is None else sub.reason,
                "would_score": None if sub is None else sub.would_score,
                "late": None if sub is None else sub.late,
                "handed_late": sub is not None and sub.handed_late, "absent": ev.absent(p, rnd),
                "score": rnd.scores.get(p, 0), "bonus": rnd.bonus.get(p, 0),
                "penalties": [dict(e) for e in rnd.penalties.get(p, ())], "deduction": rnd.deduction(p),
                "percent_of_top": percent(rnd.total(p), rnd.top.score),
                "submissions": [{"move": s.text, "score": s.score, "valid": s.valid, "time": s.time,
                                 "late": s.late}
                                for s in rnd.history if s.player == p],
            }
        rounds.append({
            "round": rnd.number, "rack": rnd.rack,
            "rejected_draws": [{"rack": r[0], "reason": r[1]} for r in rnd.rejected],
            "top": rnd.top.to_dict(), "words": [list(w) for w in rnd.words], "chosen_by": rnd.chosen_by,
            "tied_tops": [t.to_dict() for t in rnd.tops], "decided_by": list(rnd.decided_by),
            "moves": rnd.n_moves, "bag": rnd.bag, "opened_at": rnd.opened_at, "started_at": rnd.started_at,
            "closed_at": rnd.closed_at, "players": players,
            "standings": standings_rows(ev, rnd.number),
        })
    cur = ev.current
    return {
        "event": {"name": ev.settings.name, "players": ev.players, "tables": dict(ev.tables),
                  "joined": dict(ev.joined), "left": dict(ev.left), "seed": ev.settings.seed,
                  "lexicon": ev.settings.lexicon or "default", "rules": ev.settings.rules.to_dict(),
                  "created": ev.created},
        "status": {"over": ev.over, "end_reason": ev.end_reason, "end_rack": ev.end_rack,
                   "rounds_closed": len(ev.closed_rounds),
                   "open_round": cur.number if cur else None,
                   "rejected_draws_at_end": [{"rack": r[0], "reason": r[1]} for r in ev.end_rejected]},
        "master_total": sum(r.top.score for r in ev.closed_rounds),
        "rounds": rounds,
        "standings": standings_rows(ev),
    }


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value):
    """A CSV cell safe to open in a spreadsheet: text starting with ``= + - @``, a tab or a
    carriage return (a formula: CSV injection, OWASP) gets a leading ``'``; numbers, ``-``
    (no move) and text that is a plain number stay as they are."""
    if not isinstance(value, str) or not value.startswith(_FORMULA_START) or value == "-":
        return value
    try:
        float(value)
        return value
    except ValueError:
        return "'" + value


def _csv(rows: list[dict], fields: list[str]) -> str:
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({k: csv_cell(v) for k, v in r.items()})
    return buf.getvalue()


_ROUND_FIELDS = ["round", "rack", "top_move", "top_score", "player", "move", "valid", "reason", "late",
                 "handed_late", "absent", "score", "bonus", "penalty", "warnings", "penalty_reasons",
                 "percent_of_top", "top", "total", "master_total", "percent_total"]
_MASTER_FIELDS = ["round", "rack", "rejected_draws", "top_move", "score", "master_total", "tied_tops", "decided_by",
                  "chosen_by", "other_tops", "moves", "bag"]
_STANDING_FIELDS = ["rank", "player", "total", "points", "bonus", "percent", "top_total", "tops", "solos",
                    "invalid", "missing", "late", "penalty", "warnings", "absent", "table", "joined", "left",
                    "handed_late"]


def shown_rack(ev: Event) -> str:
    """The open round's rack as the projection shows it: ``""`` while an event with a
    physical bag waits for the tiles to be drawn (``round --start --rack``)."""
    cur = ev.current
    if cur is None or (ev.rules.physical_bag and cur.started_at is None):
        return ""
    return cur.rack


def _end_note(ev: Event) -> str:
    closed = ev.closed_rounds
    return f"Partie beendet nach {len(closed)} Runden · Top gesamt: {de_number(sum(r.top.score for r in closed))}"


def current_page(ev: Event, *, refresh: bool = True, poll: dict | None = None) -> str:
    """The page to project for the event as it is now (``current.html``, and ``/director`` of the web app).

    While a round is open: the board (the last top move highlighted), the round
    number, the rack, the countdown from ``round --start``, the tiles in the bag,
    and once a round has closed its top move and its scores per player. After
    the event: the board, the last top move and the final standings.

    Args:
        ev: the event.
        refresh: reload the page every 5 s (the exported file follows the journal this way).
        poll: the live page of the web app instead: ``{"url", "key", "every", "now"}``
            (see :func:`engine.director.render.round_page`); the page then reloads only
            when the JSON at ``url`` has another ``view`` than ``key``. Links to the other
            exported pages (previous round, overview) are left out, because the web app
            does not serve them.

    Returns:
        the HTML page.
    """
    closed = ev.closed_rounds
    last = closed[-1] if closed else None
    tiles = top_tiles(ev, last) if last is not None else ()
    top = (last.top.notation, last.top.score, last.words) if last is not None else None
    top_label = f"Top Runde {last.number}" if last is not None else "Top"
    nav = None if poll is not None else {"index": "index.html",
                                         "prev": f"round-{last.number:02d}.html" if last is not None else None}
    name = ev.settings.name
    cur = ev.current
    master = sum(r.top.score for r in closed)
    if cur is not None:
        # before the first close the round time; then the master total (the clock shows the time)
        note = f"Bedenkzeit {format_time(ev.rules.round_time)}" if last is None else f"Top gesamt: {de_number(master)}"
        if not shown_rack(ev):
            note = "Die Buchstaben werden gezogen … · " + note
        return round_page(name, ev.board, cur.number, shown_rack(ev), new_tiles=tiles, top=top, top_label=top_label,
                          clock={"start": cur.started_at, "seconds": ev.rules.round_time}, bag=cur.bag,
                          note=note, nav=nav, refresh=refresh,
                          round_scores=running_rows(ev, last) if last is not None else None,
                          scores_label=f"Ergebnisse Runde {last.number} · Stand" if last is not None else "",
                          poll=poll)
    return round_page(name, ev.board, 0, "", new_tiles=tiles, top=top, top_label=top_label, note=_end_note(ev),
                      nav=nav, refresh=refresh, standings=standings_rows(ev), poll=poll,
                      standings_label=f"Endstand · Top gesamt {de_number(master)}")


def write_exports(ev: Event, out: str | os.PathLike, stamp: dict | None = None) -> list[Path]:
    """Write every export of ``ev`` into ``out`` (created if needed).

    Each file is written atomically (:func:`engine.director.journal.atomic_write`).

    Args:
        ev: the event.
        out: the directory.
        stamp: ``{"seq", "crc"}`` of the journal entry ``ev`` ends with
            (:func:`engine.director.store.export_stamp`): ``out/journal-state.json``
            is removed first and written last with it, so exports interrupted
            half-way are recognised (and rebuilt) by the next reading command.

    Returns:
        the files written.

    Raises:
        OSError: a file could not be written (the message names it); files
            written before it stay, ``journal-state.json`` is then missing.
    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    remove_stale_temps(out)  # left by a writer that was killed
    written = []
    if stamp is not None:
        try:
            (out / STAMP_FILE).unlink()
        except FileNotFoundError:
            pass

    def put(name: str, text: str) -> None:
        _write(out / name, text)
        written.append(out / name)

    put("rounds.csv", _csv(round_rows(ev), _ROUND_FIELDS))
    put("master.csv", _csv(master_rows(ev), _MASTER_FIELDS))
    put("standings.csv", _csv(standings_rows(ev), _STANDING_FIELDS))
    put("results.json", json.dumps(results_dict(ev), ensure_ascii=False, indent=1) + "\n")
    put("master.gcg", write_gcg(master_record(ev)))

    name = ev.settings.name
    closed = ev.closed_rounds
    keep = set()
    index_rows = []
    total = 0
    last_tiles = ()
    for i, rnd in enumerate(closed):
        after, tiles = _board_after(ev, rnd)
        last_tiles = tiles
        total += rnd.top.score
        stem = f"round-{rnd.number:02d}"
        keep.update({f"{stem}.svg", f"{stem}.html"})
        caption = [f"Runde {rnd.number} · Top ", ("move", rnd.top.notation), f" · {de_number(rnd.top.score)} Punkte"]
        put(f"{stem}.svg", board_svg(after, tiles, caption=caption, rack=rnd.rack))
        nav = {"index": "index.html",
               "prev": f"round-{closed[i - 1].number:02d}.html" if i > 0 else None,
               "next": f"round-{closed[i + 1].number:02d}.html" if i + 1 < len(closed) else "current.html"}
        others = len(rnd.tops) - 1
        note = ""
        if others == 1:
            note = "1 weiterer Zug mit gleicher Punktzahl"
        elif others:
            note = f"{others} weitere Züge mit gleicher Punktzahl"
        note = (note + " · " if note else "") + f"Top gesamt: {de_number(total)}"
        put(f"{stem}.html", round_page(name, after, rnd.number, rnd.rack, new_tiles=tiles,
                                       top=(rnd.top.notation, rnd.top.score, rnd.words), bag=rnd.bag,
                                       note=note, nav=nav, round_scores=running_rows(ev, rnd),
                                       scores_label=f"Ergebnisse Runde {rnd.number} · Stand"))
        index_rows.append({"round": rnd.number, "rack": rnd.rack, "top": rnd.top.notation,
                           "score": rnd.top.score, "cumulative": total, "href": f"{stem}.html"})
    for stale in out.glob("round-*.*"):
        if re.fullmatch(r"round-\d+\.(svg|html)", stale.name) and stale.name not in keep:
            stale.unlink()

    cur = ev.current
    if cur is not None:
        put("current.svg", board_svg(ev.board, last_tiles, caption=f"Runde {cur.number}", rack=shown_rack(ev)))
    else:
        put("current.svg", board_svg(ev.board, last_tiles, caption=_end_note(ev)))
    put("current.html", current_page(ev, refresh=True))
    standings = standings_rows(ev)
    put("index.html", index_page(name, index_rows, standings, status_line(ev)))
    if stamp is not None:
        put(STAMP_FILE, json.dumps(stamp) + "\n")
    return written
