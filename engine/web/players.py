"""Players submitting from their own phones: ``GET /spieler`` and ``/api/player/*`` (docs/web.md).

Opt-in: ``python -m engine web --event DIR --players-submit`` (with ``--host
0.0.0.0`` so phones on the local network reach it). Each player gets a personal
link ``/spieler#t=TOKEN``; the tokens are random (144 bits), made once per event
and stored only as SHA-256 hashes in ``DIR/player-tokens.json`` (written
atomically), so the links printed at the first start stay valid after a restart
and nobody can read them back from the directory. ``--new-player-links`` makes
new ones (the old links stop working).

A request carries the token in the ``X-Player-Token`` header; the player is the
token's, never a name in the body, so nobody can submit for another. A forged
or revoked token gets 403 and touches nothing. A move is accepted only while the
round is open and its clock runs (409 otherwise: not started, closed, or another
round than the one the phone saw); the latest counts. Before the close the
player sees only that the move was received (no points, no word check, no top
move); after it, the round's top move and their own points, total and place.
Submissions go through :meth:`engine.director.store.EventDir.submit`, the code
the director's ``simultan submit`` uses. The server's rate limit and body limit
apply (the routes are under ``/api/``).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import threading
import time
from collections import deque
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse, JSONResponse
from pydantic import BaseModel, Field, StrictInt, StrictStr

__all__ = ["TOKENS_FILE", "TOKEN_HEADER", "player_tokens", "register", "player_state"]

TOKENS_FILE = "player-tokens.json"
"""The players' token hashes in the event directory."""
TOKEN_HEADER = "X-Player-Token"
MAX_TOKEN_CHARS = 200
SUBMIT_LIMIT = (5, 10.0)
"""At most this many submissions per player (token) in this many seconds; more get 429
(on top of the server's per-address limit): one phone cannot flood the journal."""


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def player_tokens(event_dir: Path, players: list[str], renew: bool = False) -> tuple[dict, dict | None]:
    """The hashes of the players' tokens, made (and stored) when there are none yet or ``renew``.

    Args:
        event_dir: the event directory.
        players: the event's players.
        renew: make new tokens even when the file exists (old links stop working).

    Returns:
        ``(hashes, tokens)``: ``{sha256 hex: player}``, and ``{player: token}`` for the tokens
        made now (to print once: all of them, or those of players who joined late and had
        none yet), else ``None``.

    Raises:
        OSError: the file could not be written (named).
        ValueError: the file is unreadable or names players the event does not have.
    """
    from engine.director.journal import atomic_write

    path = Path(event_dir) / TOKENS_FILE
    if path.exists() and not renew:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            hashes = {str(h): str(p) for p, h in data["players"].items()}
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"{path}: unreadable ({exc}); --new-player-links makes new links") from None
        if not set(hashes.values()) & set(players) and players:
            raise ValueError(f"{path}: its players are not the event's; --new-player-links makes new links")
        hashes = {h: p for h, p in hashes.items() if p in players}  # a late arrival's join undone: no link
        missing = [p for p in players if p not in set(hashes.values())]  # joined late (simultan join)
        if not missing:
            return hashes, None
        made = {p: add_player_token(event_dir, p, hashes) for p in missing}
        return hashes, made
    tokens = {p: secrets.token_urlsafe(18) for p in players}
    data = {"format": "simultan-player-tokens", "version": 1, "created": time.time(), "hash": "sha256",
            "players": {p: _hash(t) for p, t in tokens.items()}}
    atomic_write(path, json.dumps(data, ensure_ascii=False, indent=1) + "\n")
    return {_hash(t): p for p, t in tokens.items()}, tokens


def add_player_token(event_dir: Path, player: str, hashes: dict) -> str:
    """Make a token for one player (a late arrival), add its hash to ``hashes`` and to
    ``DIR/player-tokens.json`` (atomically). Returns the token (to show once).

    Raises:
        OSError: the file could not be written (``hashes`` is then unchanged).
    """
    from engine.director.journal import atomic_write

    path = Path(event_dir) / TOKENS_FILE
    token = secrets.token_urlsafe(18)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = {"format": "simultan-player-tokens", "version": 1, "created": time.time(), "hash": "sha256",
                "players": {p: h for h, p in hashes.items()}}
    data["players"][player] = _hash(token)
    atomic_write(path, json.dumps(data, ensure_ascii=False, indent=1) + "\n")
    for h in [h for h, p in hashes.items() if p == player]:
        del hashes[h]
    hashes[_hash(token)] = player
    return token


class PlayerSubmit(BaseModel):
    round: StrictInt = Field(ge=1, description="the round the phone saw open")
    move: StrictStr = Field(min_length=1, max_length=60, description="e.g. '8D KIEPE', '-' = no move")


def player_state(ev, player: str, now: float | None = None) -> dict:
    """What a player's phone shows: never the open round's top moves or other players' moves.

    Returns:
        ``player``, ``event`` (name), ``now``, ``over``; ``current`` (``round``, ``started``,
        ``rack`` once started, ``seconds`` left or ``None``; ``mine``: the move received for
        it, without points) or ``None``; ``last`` (the last closed round: ``round``, ``top``,
        ``score``, the player's ``move``, ``points``, ``valid``, ``reason``) or ``None``;
        ``total``, ``rank``, ``percent``; ``left``: the round the player left the event in, or
        ``None`` (the phone then says so instead of waiting for the round).
    """
    from engine.director.event import NO_MOVE

    now = time.time() if now is None else now
    cur = ev.current
    current = None
    if cur is not None:
        started = cur.started_at is not None
        sub = cur.submissions.get(player)
        left = None
        if started and ev.rules.round_time:
            left = round(cur.started_at + ev.rules.round_time - now, 1)
        current = {"round": cur.number, "started": started, "rack": cur.rack if started else "",
                   "seconds": left, "mine": sub.text if sub is not None else None}
    last = None
    closed = ev.closed_rounds
    if closed:
        rnd = closed[-1]
        sub = rnd.submissions.get(player)
        last = {"round": rnd.number, "top": rnd.top.notation, "score": rnd.top.score,
                "move": None if sub is None or sub.text == NO_MOVE else (sub.notation or sub.text),
                "points": rnd.total(player), "valid": None if sub is None else sub.valid,
                "reason": "" if sub is None else sub.reason}
    st = next(s for s in ev.standings() if s.player == player)
    return {"player": player, "event": ev.settings.name, "now": now, "over": ev.over, "current": current,
            "last": last, "total": st.total, "rank": st.rank, "percent": st.percent, "left": ev.left.get(player)}


def register(app: FastAPI, *, event_dir: Path, lexicon, hashes: dict, static: Path,
             submit_limit: tuple[int, float] = SUBMIT_LIMIT, clock=time.monotonic) -> None:
    """Add the players' routes to ``app`` (``hashes``: :func:`player_tokens`' first value).

    ``submit_limit``: ``(n, seconds)``, at most ``n`` submissions per player in ``seconds``
    (refused ones included; more: 429, nothing journaled). ``clock``: monotonic seconds."""
    from engine.director.event import DirectorError, Rejected
    from engine.director.journal import JournalError
    from engine.director.store import EventDir, OutputError

    from .german import journal_de, reason_de

    lock = threading.Lock()
    held: dict = {}
    recent: dict[str, deque] = {}

    def director() -> EventDir:
        if "dir" not in held:
            held["dir"] = EventDir(event_dir, lexicon=lexicon, notes=None)
        return held["dir"]

    def who(request: Request) -> str | None:
        token = request.headers.get(TOKEN_HEADER, "")
        if not token or len(token) > MAX_TOKEN_CHARS:
            return None
        h = _hash(token)
        found = None
        for known, player in list(hashes.items()):  # every entry (no early exit); a copy: join adds
            if hmac.compare_digest(known, h):
                found = player
        return found

    def refuse(status: int, message: str) -> JSONResponse:
        return JSONResponse({"error": message}, status_code=status)

    def flooding(player: str) -> bool:
        n, span = submit_limit
        now = clock()
        with lock:
            q = recent.setdefault(player, deque())
            while q and q[0] <= now - span:
                q.popleft()
            if len(q) >= n:
                return True
            q.append(now)
            return False

    async def run(request: Request, work, limited: bool = False):
        player = who(request)
        if player is None:
            if not request.headers.get(TOKEN_HEADER):
                return refuse(401, "Kein Spieler-Link: bitte den persönlichen Link vom Schiedsrichter öffnen")
            return refuse(403, "Unbekannter oder ungültiger Spieler-Link: nichts eingetragen")
        if limited and flooding(player):
            n, span = submit_limit
            return JSONResponse({"error": f"Zu viele Einsendungen: höchstens {n} in {span:g} Sekunden. Bitte "
                                          f"kurz warten; nichts eingetragen."},
                                status_code=429, headers={"Retry-After": str(int(span))})

        def locked():
            with lock:
                d = director()
                try:
                    out = work(d, player)
                except OutputError:
                    out = {}
                except Rejected as exc:
                    r = str(exc)
                    closed = any(k in r for k in ("is closed", "not open yet", "has not started", "event is over",
                                                  "left the event"))
                    text = reason_de(r).rstrip(".")
                    if closed:
                        return refuse(409, f"Nicht mehr möglich: {text}; nichts eingetragen.")
                    return refuse(400, f"{text}; nichts eingetragen." if text.startswith("Nicht lesbar")
                                  else f"Nicht lesbar: {text}; nichts eingetragen.")
                except (DirectorError, JournalError):
                    return refuse(503, journal_de())
                try:
                    ev = d.load()
                except (DirectorError, JournalError):
                    return refuse(503, journal_de())
                return {**out, "state": player_state(ev, player)}

        out = await run_in_threadpool(locked)
        return out if isinstance(out, JSONResponse) else JSONResponse(out)

    @app.api_route("/spieler", methods=["GET", "HEAD"], include_in_schema=False)
    async def player_page():
        return FileResponse(static / "player.html", headers={"Cache-Control": "no-store"})

    @app.get("/api/player/state")
    async def get_player_state(request: Request):
        """The player's view (:func:`player_state`); needs the player's token."""
        return await run(request, lambda d, p: {})

    @app.post("/api/player/submit")
    async def player_submit(request: Request, body: PlayerSubmit):
        """The token's player's move for the open round (the latest counts); answers only that it
        was received."""
        def work(d, p):
            sub = d.submit(p, body.move, body.round, source="player")
            out = {"received": {"round": sub.round, "move": sub.text}}
            if sub.handed_late:
                out["received"]["late"] = True
            if sub.unchanged:
                out["received"]["unchanged"] = True
                out["message"] = "unverändert: dieser Zug ist schon eingegangen"
            return out
        return await run(request, work, limited=True)
