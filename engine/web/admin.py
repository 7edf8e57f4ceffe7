"""The director's arbitration screen: ``GET /director/admin`` and ``/api/director/admin/*`` (docs/web.md).

``python -m engine web --event DIR --admin`` generates a random secret (the
director's key), prints it once to the terminal and keeps only its SHA-256 in
memory. Every ``/api/director/admin/*`` request must carry the key, in the
``X-Director-Key`` header (the screen sends it) or the ``director_key`` cookie;
a request without it gets 401, a wrong one 403, and neither reads nor touches
the journal. The routes sit under ``/api/``, so the server's rate limit, body
size limit (413) and JSON checks apply to them as to every API route.

Every action goes through :class:`engine.director.store.EventDir`, the code the
``simultan`` commands use (journal entry under the event's lock, exports
rewritten), so the screen and the command line can be used alternately on one
event. Routes (JSON bodies; ``round`` is the round the director saw, and an
action for another round is refused with 409):

* ``GET  state`` — :func:`admin_state`;
* ``POST start`` ``{"round", "rack"?}`` — start the round's clock (``rack``: the
  tiles drawn from a physical bag, :meth:`engine.director.event.Event.check_rack`);
* ``POST submit`` ``{"round", "player", "move"}`` — enter or correct a player's
  move (``"-"`` = no move); answers the points or the reason at once;
* ``POST close`` ``{"round", "choose"?}`` — place the top move (``choose``: one of
  the tied top moves), score everyone, open the next round;
* ``POST undo`` ``{"expect"}`` — take back journal entry ``expect`` if it is the
  last action (``simultan undo --expect``);
* ``POST export`` ``{}`` — rewrite ``DIR/export``;
* ``POST penalty`` ``{"player", "points", "round"?, "reason"?}`` — deduct points
  (``simultan penalty``; ``round``: the round it belongs to, default the open one);
* ``POST warn`` ``{"player", "round"?, "reason"?}`` — a warning (``simultan warn``);
* ``POST join`` ``{"round", "name", "table"?}`` — a player arriving late joins in the open
  round (``simultan join``; with ``--players-submit`` the answer carries their new link);
* ``POST leave`` ``{"round", "player"}`` — a player leaves (``simultan leave``).

``submit`` takes ``"late": true`` for a move handed in late (``submit --late``).

Refusals: 400 bad input (an unreadable move, a rack the bag cannot hold, ...),
409 the round is not the open one (closed meanwhile, or not open yet) or undo's
entry is not the last action, 401/403 no or a wrong key, 404 the server was
started without ``--admin``. Messages are German, followed by the engine's reason.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from pydantic import BaseModel, Field, StrictBool, StrictInt, StrictStr, field_validator

from .german import journal_de, reason_de

__all__ = ["new_secret", "secret_hash", "register", "admin_state", "describe_de", "KEY_HEADER", "KEY_COOKIE"]

KEY_HEADER = "X-Director-Key"
"""The header carrying the director's key."""
KEY_COOKIE = "director_key"
"""The cookie that may carry it instead."""
MAX_KEY_CHARS = 200
MAX_MOVE_CHARS = 60
"""Longest move accepted (as ``/api/score``'s, :data:`engine.web.api.MAX_MOVE_CHARS`; 422 above)."""
MAX_NAME_CHARS = 200


def new_secret() -> str:
    """A random director's key (24 URL-safe characters, 144 bits from :mod:`secrets`)."""
    return secrets.token_urlsafe(18)


def secret_hash(secret: str) -> str:
    """The SHA-256 of a key, hex (what the server keeps)."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


class StartBody(BaseModel):
    round: StrictInt = Field(ge=1, description="the round the director saw open")
    rack: StrictStr | None = Field(default=None, max_length=32, description="tiles drawn from a physical bag")


class SubmitBody(BaseModel):
    round: StrictInt = Field(ge=1)
    player: StrictStr = Field(min_length=1, max_length=MAX_NAME_CHARS)
    move: StrictStr = Field(min_length=1, max_length=MAX_MOVE_CHARS, description="e.g. '8D KIEPE', '-' = no move")
    late: StrictBool = Field(default=False, description="handed in late (costs what the rules' late_submission says)")


class PenaltyBody(BaseModel):
    player: StrictStr = Field(min_length=1, max_length=MAX_NAME_CHARS)
    points: StrictInt = Field(ge=-1000, le=1000, description="points deducted (negative: given back)")
    round: StrictInt | None = Field(default=None, ge=1, description="the round it belongs to (default: the open one)")
    reason: StrictStr = Field(default="", max_length=200)

    @field_validator("points")
    @classmethod
    def _not_zero(cls, v: int) -> int:
        if v == 0:
            raise ValueError("0 zieht nichts ab: eine ganze Zahl von 1 bis 1000 (negativ: Punkte zurück)")
        return v


class WarnBody(BaseModel):
    player: StrictStr = Field(min_length=1, max_length=MAX_NAME_CHARS)
    round: StrictInt | None = Field(default=None, ge=1)
    reason: StrictStr = Field(default="", max_length=200)


class JoinBody(BaseModel):
    round: StrictInt = Field(ge=1, description="the round the director saw open")
    name: StrictStr = Field(min_length=1, max_length=100)
    table: StrictInt | None = Field(default=None, ge=1, le=999)


class LeaveBody(BaseModel):
    round: StrictInt = Field(ge=1, description="the round the director saw open")
    player: StrictStr = Field(min_length=1, max_length=MAX_NAME_CHARS)


class CloseBody(BaseModel):
    round: StrictInt = Field(ge=1)
    choose: StrictStr | None = Field(default=None, max_length=MAX_MOVE_CHARS, description="one of the tied top moves")


class UndoBody(BaseModel):
    expect: StrictInt = Field(ge=1, description="the journal entry to take back (the last action)")


def _submission(sub) -> dict | None:
    if sub is None:
        return None
    return {"move": sub.text, "notation": sub.notation, "valid": sub.valid, "score": sub.score,
            "reason": sub.reason, "words": [list(w) for w in sub.words], "would_score": sub.would_score,
            "late": sub.late, "handed_late": sub.handed_late, "seq": sub.seq}


def describe_de(rec: dict) -> str:
    """A journal action in German for the screen (``"Zug von Ana in Runde 2: 8D KIEPE"``): the director's
    description (:func:`engine.director.event.describe_action`) through the CLI's German
    (:data:`engine.lang_de.SIMULTAN_PATTERNS_DE`), a start with the rack typed."""
    from engine.director.event import describe_action
    from engine.lang import tr_in

    text = tr_in("de", describe_action(rec))
    if rec.get("type") == "start" and rec.get("rack"):
        text += f" (Buchstaben {rec['rack']})"
    return text


def _drops_de(drops: list) -> str:
    """The phone moves an undo takes back with the director's action, in German."""
    if not drops:
        return ""
    n = len(drops)
    return f" und damit {'1 Handy-Zug' if n == 1 else f'{n} Handy-Züge'} danach"


def penalty_rules_de(rules) -> str:
    """The event's rules for late moves and warnings in German, for the screen
    (``"Verspätet abgegeben: 0 Punkte. Verwarnungen: die ersten 2 frei, jede weitere −5."``)."""
    late = {"count": "zählt (nur markiert)", "zero": "0 Punkte",
            "penalty": f"zählt, −{rules.late_penalty} Punkte"}[rules.late_submission]
    grace = f" (Handy: {rules.late_grace} s nach Ablauf)" if rules.late_grace else ""
    if not rules.warning_penalty:
        warn = "ohne Abzug"
    elif rules.warnings_free:
        warn = f"die ersten {rules.warnings_free} frei, jede weitere −{rules.warning_penalty}"
    else:
        warn = f"jede −{rules.warning_penalty}"
    return f"Verspätet abgegeben: {late}{grace}. Verwarnungen: {warn}. (Festgelegt bei „simultan new“.)"


def players_info(ev) -> dict:
    """Per player: ``table``, ``joined``, ``left`` (round numbers or ``None``), ``warnings`` and
    ``deduction`` (points, over every round including the open one) and ``notes`` (the
    deductions in German, :func:`engine.director.export.deduction_text`, newest round last)."""
    from engine.director.export import deduction_text

    out = {}
    for p in ev.players:
        notes = [f"R{r.number}: {deduction_text(r, p)}" for r in ev.rounds if r.penalties.get(p)]
        out[p] = {"table": ev.tables.get(p), "joined": ev.joined.get(p), "left": ev.left.get(p),
                  "warnings": sum(r.warnings(p) for r in ev.rounds),
                  "deduction": sum(r.deduction(p) for r in ev.rounds), "notes": notes}
    return out


def admin_state(ev, now: float | None = None) -> dict:
    """Everything the arbitration screen shows, as JSON.

    Returns:
        ``event`` (``name``, ``players``, ``round_time``, ``physical_bag``, ``late_submission``,
        ``tables``: the table numbers in use, ``rules_text``: :func:`penalty_rules_de`), ``players`` (:func:`players_info`), ``seq``,
        ``over``, ``end_reason``, ``now`` (server time); ``current`` (the open round or
        ``None``: ``round``, ``rack``, ``rack_from``, ``leave``, ``started_at``, ``bag``,
        ``tops`` — every tied top move with ``notation``, ``score``, ``leave`` — and
        ``submissions`` per player: the counting one or ``None``); ``last_action``
        (``{"seq", "what"}``, what undo would take back, or ``None``); ``last_round``
        (the last closed round: ``round``, ``rack``, ``top``, ``score``, ``chosen_by``,
        ``scores`` per player as :func:`engine.director.export.round_score_rows`);
        ``standings`` (:func:`engine.director.export.standings_rows`) and ``master_total``.
    """
    from engine.director.export import round_score_rows, standings_rows

    cur = ev.current
    current = None
    if cur is not None:
        a = ev.alphabet
        pending = ev.rack_pending  # a physical bag before the draw: the seeded rack is no rack of the event
        current = {"round": cur.number, "rack": "" if pending else cur.rack,
                   "rack_from": "pending" if pending else cur.rack_from,
                   "leave": a.rack_string(cur.leave) if cur.leave is not None else "",
                   "started_at": cur.started_at, "bag": cur.bag,
                   "tops": [] if pending else [{"notation": t.notation, "score": t.score, "leave": t.leave}
                                               for t in cur.tops],
                   "submissions": {p: _submission(cur.submissions.get(p)) for p in ev.players}}
    closed = ev.closed_rounds
    last = None
    if closed:
        rnd = closed[-1]
        last = {"round": rnd.number, "rack": rnd.rack, "top": rnd.top.notation, "score": rnd.top.score,
                "chosen_by": rnd.chosen_by,
                "scores": [{**r, "reason": reason_de(r["reason"]) if r["reason"] else ""}  # why it scored 0
                           for r in round_score_rows(ev, rnd)]}
    act, drops = ev.undo_target()
    return {
        "event": {"name": ev.settings.name, "players": list(ev.players), "round_time": int(ev.rules.round_time),
                  "physical_bag": bool(ev.rules.physical_bag), "late_submission": ev.rules.late_submission,
                  "tables": sorted(set(ev.tables.values())), "rules_text": penalty_rules_de(ev.rules)},
        "players": players_info(ev),
        "seq": ev.seq, "over": ev.over, "end_reason": ev.end_reason,
        "now": time.time() if now is None else now,
        "current": current,
        "last_action": {"seq": act["seq"], "what": describe_de(act) + _drops_de(drops)} if act else None,
        "last_round": last,
        "standings": standings_rows(ev),
        "master_total": sum(r.top.score for r in closed),
    }


_CONFLICT = ("is closed", "is not the open round", "is not open yet", "not entry", "the event is over",
             "already started", "has not started", "nothing to undo", "left the event", "left in round")


def _refusal(exc: Exception) -> JSONResponse:
    """A refused action as German JSON (:func:`engine.web.german.reason_de`; the engine's English
    reason in ``reason``); nothing was written."""
    reason = str(exc)
    status = 409 if any(k in reason for k in _CONFLICT) else 400
    lead = "Nicht möglich" if status == 409 else "Abgelehnt"
    text = reason_de(reason).rstrip(".")
    return JSONResponse({"error": f"{lead}: {text}; nichts eingetragen.", "reason": reason}, status_code=status)


def link_table(links: dict, base: str) -> dict:
    """The players' links as ``{player: {"url", "qr"}}``: the absolute link and its QR code as
    inline SVG (:mod:`segno`, error correction M), for the printable list."""
    import segno

    out = {}
    for p, t in links.items():
        url = f"{base.rstrip('/')}/spieler#t={t}"
        out[p] = {"url": url, "qr": segno.make(url, error="m").svg_inline(scale=3, border=2)}
    return out


def register(app: FastAPI, *, event_dir: Path | None, lexicon, key_hash: str | None,
             static: Path, on_change=None, links: dict | None = None, link_base: str | None = None,
             on_join=None) -> None:
    """Add the arbitration screen's routes to ``app``.

    Args:
        app: the application (:func:`engine.web.app.create_app`).
        event_dir: the event directory, or ``None`` (the routes answer 404).
        lexicon: the event's lexicon.
        key_hash: :func:`secret_hash` of the director's key, or ``None`` (the server
            runs without ``--admin``: the routes answer 404).
        static: the directory holding ``admin.html``.
        on_change: called after each recorded action (the projection's cache is dropped).
        links: the players' tokens made at this start (``--players-submit``), listed on the
            screen as links ``BASE/spieler#t=TOKEN`` with QR codes; ``None``: none to show.
        link_base: ``http://HOST:PORT`` for the links (the address phones reach); default: the
            address the director's browser used.
        on_join: called with a player's name after a ``join`` (``--players-submit``: makes and
            stores their token); returns the token to list, or ``None``.
    """
    from engine.director.event import DirectorError, Rejected
    from engine.director.journal import JournalError
    from engine.director.store import EventDir, OutputError

    lock = threading.Lock()  # one EventDir object, used by one request at a time
    state: dict = {}

    def director() -> EventDir:
        if "dir" not in state:
            state["dir"] = EventDir(event_dir, lexicon=lexicon, notes=None)
        return state["dir"]

    def refuse(status: int, message: str) -> JSONResponse:
        return JSONResponse({"error": message}, status_code=status)

    def check(request: Request) -> JSONResponse | None:
        """None when the request carries the director's key, else the refusal (nothing read)."""
        if event_dir is None:
            return refuse(404, "Keine Partie: den Server mit --event VERZEICHNIS --admin starten")
        if key_hash is None:
            return refuse(404, "Kein Schiedsrichter-Zugang: den Server mit --admin starten")
        key = request.headers.get(KEY_HEADER) or request.cookies.get(KEY_COOKIE)
        if not key:
            return refuse(401, f"Schlüssel fehlt: der Schiedsrichter-Schlüssel (beim Start des Servers "
                               f"angezeigt) gehört in den Header {KEY_HEADER}")
        if len(key) > MAX_KEY_CHARS or not hmac.compare_digest(secret_hash(key), key_hash):
            return refuse(403, "Falscher Schlüssel: nichts eingetragen")
        return None

    table: dict = {}

    async def act(request: Request, work, changes: bool = True):
        denied = check(request)
        if denied is not None:
            return denied
        if links and "links" not in table:
            table["links"] = link_table(links, link_base or str(request.base_url))

        def locked():
            with lock:
                d = director()
                try:
                    out = work(d)
                except OutputError as exc:  # recorded; a file could not be written
                    out = {"warning": str(exc)}
                except (Rejected, DirectorError) as exc:
                    return _refusal(exc)
                except JournalError as exc:
                    return refuse(503 if "lock" in str(exc) else 400, journal_de(exc))
                if changes and on_change is not None:
                    on_change()
                try:
                    ev = d.load()
                except (JournalError, DirectorError) as exc:
                    return refuse(503 if "lock" in str(exc) else 400, journal_de(exc))
                st = admin_state(ev)
                st["player_links"] = table.get("links")
                return {**(out or {}), "state": st}

        out = await run_in_threadpool(locked)
        return out if isinstance(out, JSONResponse) else JSONResponse(out)

    @app.api_route("/director/admin", methods=["GET", "HEAD"], include_in_schema=False)
    async def admin_page():
        if event_dir is None or key_hash is None:  # as its API: no screen without --event and --admin
            return HTMLResponse("<!DOCTYPE html><html lang=\"de\"><meta charset=\"utf-8\"><title>Kein Zugang</title>"
                                "<p>Kein Schiedsrichter-Zugang: den Server mit <code>--event VERZEICHNIS --admin"
                                "</code> starten.</p></html>", status_code=404)
        return FileResponse(static / "admin.html", headers={"Cache-Control": "no-store"})

    @app.get("/api/director/admin/state")
    async def admin_get_state(request: Request):
        """The arbitration screen's data (:func:`admin_state`); needs the director's key."""
        return await act(request, lambda d: None, changes=False)

    @app.post("/api/director/admin/start")
    async def admin_start(request: Request, body: StartBody):
        """Start the open round's clock (with ``rack``: the tiles drawn from a physical bag)."""
        rack = body.rack.strip() if body.rack and body.rack.strip() else None
        return await act(request, lambda d: (d.start(rack, expect_round=body.round), None)[1])

    @app.post("/api/director/admin/submit")
    async def admin_submit(request: Request, body: SubmitBody):
        """Enter or correct a player's move for the open round; answers the result at once."""
        def work(d):
            sub = d.submit(body.player, body.move, body.round, late=body.late)
            return {"submission": {"player": sub.player, **_submission(sub)}}
        return await act(request, work)

    @app.post("/api/director/admin/penalty")
    async def admin_penalty(request: Request, body: PenaltyBody):
        """Deduct points from a player (``simultan penalty``)."""
        def work(d):
            return {"recorded": d.penalty(body.player, body.points, body.round, body.reason)}
        return await act(request, work)

    @app.post("/api/director/admin/warn")
    async def admin_warn(request: Request, body: WarnBody):
        """Give a player a warning (``simultan warn``)."""
        def work(d):
            rec = d.warn(body.player, body.round, body.reason)
            entry = d.load().rounds[rec["round"] - 1].penalties[rec["player"]][-1]
            return {"recorded": rec, "warning": {"number": entry["number"], "points": entry["points"]}}
        return await act(request, work)

    @app.post("/api/director/admin/join")
    async def admin_join(request: Request, body: JoinBody):
        """A player arriving late joins in the open round (``simultan join``)."""
        def work(d):
            rec = d.join(body.name, body.table, expect_round=body.round)
            out = {"recorded": rec}
            if on_join is not None:
                token = on_join(rec["player"])
                if token:
                    base = link_base or str(request.base_url)
                    table.setdefault("links", {}).update(link_table({rec["player"]: token}, base))
                    out["link"] = table["links"][rec["player"]]["url"]
            return out
        return await act(request, work)

    @app.post("/api/director/admin/leave")
    async def admin_leave(request: Request, body: LeaveBody):
        """A player leaves in the open round (``simultan leave``)."""
        def work(d):
            return {"recorded": d.leave(body.player, expect_round=body.round)}
        return await act(request, work)

    @app.post("/api/director/admin/close")
    async def admin_close(request: Request, body: CloseBody):
        """Close the open round (``choose``: one of the tied top moves)."""
        choose = body.choose.strip() if body.choose and body.choose.strip() else None

        def work(d):
            rnd = d.close(choose, body.round)
            return {"closed": {"round": rnd.number, "top": rnd.top.notation, "score": rnd.top.score,
                               "chosen_by": rnd.chosen_by}}
        return await act(request, work)

    @app.post("/api/director/admin/undo")
    async def admin_undo(request: Request, body: UndoBody):
        """Take back journal entry ``expect`` if it is the last action."""
        def work(d):
            rec = d.undo(body.expect)
            undone = next(r for r in d.journal.read() if r.get("seq") == rec["undoes"])
            out = {"seq": rec["undoes"], "what": describe_de(undone) + _drops_de(rec.get("drops", []))}
            if rec.get("drops"):
                out["drops"] = list(rec["drops"])
            return {"undone": out}
        return await act(request, work)

    @app.post("/api/director/admin/export")
    async def admin_export(request: Request):
        """Rewrite every export of the event (``DIR/export``)."""
        def work(d):
            files = d.write_exports()
            return {"exported": [str(Path(f).name) for f in files], "directory": str(Path(event_dir) / "export")}
        return await act(request, work, changes=False)
