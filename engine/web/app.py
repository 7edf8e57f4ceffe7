"""The FastAPI application behind ``python -m engine web`` (docs/web.md).

Routes:

* ``GET /`` — the board editor and analysis page (``static/index.html``);
* ``GET /punkte`` — the score pad (Punkteblock) and Together · Team (``static/punkte.html``;
  games are kept in the browser, nothing is sent but the moves to check);
* ``GET /director`` — the projection page of a simultaneous event (when started
  with ``--event DIR``);
* ``GET /api/rules`` — tile set, board layout, lexicon;
* ``POST /api/position`` ``{"cgp"}`` — the parsed position, warnings;
* ``POST /api/moves`` ``{"cgp", "top"?, "offset"?, "sort"?}`` — the legal moves with equity
  (``top`` moves from ``offset``, at most :data:`engine.web.api.MAX_PAGE` an answer: the page pages the list);
* ``POST /api/score`` ``{"cgp", "move"}`` — the word checker;
* ``POST /api/deep`` ``{"cgp", "seconds"?, "include"?, "last_move"?}`` — the deeper answer for the position's phase
  (endgame solver, pre-endgame or simulation; :mod:`engine.web.deep`), at most 20 s;
* ``POST /api/pad`` ``{"cgp", "move", "together"?}`` — the score pad's checker (words missing
  from the list named, not refused);
* ``POST /api/word`` ``{"word"}`` — the word lookup: is it in the list?
* ``GET /api/director`` — the event's open round, last top move, scores, standings;
* ``GET /director/admin`` and ``/api/director/admin/*`` — the director's arbitration
  screen (with ``admin_key``; :mod:`engine.web.admin`);
* ``GET /spieler`` and ``/api/player/*`` — players' phones (with ``players_submit``;
  :mod:`engine.web.players`);
* ``GET /spielen`` and ``/api/play/*`` — a game against the computer and the Partieanalyse
  (:mod:`engine.web.play`; games kept on disk in ``games_dir``); ``POST /api/review`` ``{"gcg"}`` — the
  review of any GCG text;
* ``GET /favicon.ico``.

Errors are JSON ``{"error": "..."}``, German unless the request sends ``X-Lang: en`` (docs/web.md
"Errors"): 400 bad CGP or value, 404 unknown
route or no event, 405 wrong method (with ``Allow``), 413 body too large, 431 headers too large,
415 not JSON, 422 a body that is not UTF-8 JSON (or nested too deeply) or a
missing or mistyped field, 429 too many requests (with ``Retry-After``), 500 a
bug (logged; the server keeps serving), 503 the analysis queue is full (with
``Retry-After``).

Analysis (``/api/moves``, ``/api/score``) runs in a bounded pool with a bounded
queue (:class:`engine.web.server.HeavyPool`); the other routes never wait for it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from pathlib import Path
from typing import Annotated

from fastapi import FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from limits import parse as parse_rate
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from pydantic import BaseModel, Field, StrictBool, StrictFloat, StrictInt, StrictStr
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.trustedhost import TrustedHostMiddleware

from . import api
from .server import HEAVY_QUEUE, HEAVY_WORKERS, Busy, Gone, HeaderLimit, HeavyPool, JSONGuard, english, message

__all__ = ["check_event_dir", "check_rate", "create_app", "DEFAULT_RATE", "MAX_BODY_BYTES", "STATIC"]

STATIC = Path(__file__).parent / "static"
DEFAULT_RATE = "40/second"
"""Requests per client address to ``/api/*`` (``limits`` notation); more get 429."""
MIN_RATE_AMOUNT = 5
"""The smallest request count a rate may allow in its window (an edit sends up to three requests)."""
MAX_BODY_BYTES = 16 * 1024
"""Largest request body accepted (413 above)."""
GONE_POLL = 0.25
"""Seconds between two looks whether the client of a running analysis went away."""

log = logging.getLogger("engine.web")


class CGPRequest(BaseModel):
    cgp: StrictStr = Field(max_length=api.MAX_CGP_CHARS, description="the position in CGP notation")


class MovesRequest(CGPRequest):
    top: StrictInt | None = Field(default=None, ge=1, le=api.MAX_PAGE,
                            description=f"the first N moves from offset (default and at most {api.MAX_PAGE}; "
                                        "next_offset in the answer asks for the rest)")
    sort: StrictStr = Field(default="equity", pattern="^(equity|score)$", description="'equity' or 'score'")
    offset: StrictInt = Field(default=0, ge=0, description="moves of the order skipped first (paging)")


class ScoreRequest(CGPRequest):
    move: StrictStr = Field(max_length=api.MAX_MOVE_CHARS, description="the move, e.g. '8H HA(U)S' or 'H8 HAuS'")
    words: StrictBool = Field(default=True, description="false: the words are not looked up and the move is not "
                                                        "ranked (the preview of a game under SDeV tournament rules, "
                                                        "where a player learns whether a word is valid only by "
                                                        "playing it)")


class DeepRequest(CGPRequest):
    seconds: StrictFloat = Field(default=5.0, ge=0.5, le=20, allow_inf_nan=False,
                                 description="time budget in seconds (0.5 to 20: engine.analysis.phase.MIN_SECONDS, "
                                             "the smallest budget the answer keeps to)")
    include: list[Annotated[StrictStr, Field(max_length=api.MAX_MOVE_CHARS)]] = Field(
        default_factory=list, max_length=3, description="moves to simulate as well (e.g. the one typed in the checker)")
    last_move: StrictStr | None = Field(default=None, max_length=api.MAX_MOVE_CHARS,
                                  description="the opponent's last move on this board ('8H WO(R)T', '-3'): the "
                                              "simulation draws the opponent's rack from the inferred leave")


class WordRequest(BaseModel):
    word: StrictStr = Field(max_length=api.MAX_WORD_CHARS, description="the word to look up")


class PlayNewRequest(BaseModel):
    level: str = Field(default="stark", pattern="^(einsteiger|stark|meister)$", description="the engine's strength")
    rules: str = Field(default="home", pattern="^(home|tournament)$", description="'home' or 'tournament' (SDeV)")
    name: str = Field(default="Du", max_length=20, description="the player's name")
    owner: str | None = Field(default=None, pattern="^[A-Za-z0-9_-]{16,64}$",
                              description="the page's random owner token (localStorage): each owner's newest "
                                          "games are kept (none: the client's address owns the game)")
    id: str | None = Field(default=None, min_length=16, max_length=40, pattern="^[A-Za-z0-9_-]+$",
                           description="the game's id, chosen by the page (the same request again answers "
                                       "the game it made)")


class PlayIdRequest(BaseModel):
    id: str = Field(max_length=40, description="the game's id")


class PlayMoveRequest(PlayIdRequest):
    move: str = Field(max_length=api.MAX_MOVE_CHARS, description="'8H HAUS', '-ABC' (exchange) or '-' (pass)")
    turn: StrictInt | None = Field(default=None, ge=0, le=100_000,
                             description="the number of turns in the state the page shows: when the game has "
                                         "another, the move is refused with 409 (another tab moved); none: not "
                                         "checked")


class PlayListRequest(BaseModel):
    ids: list[Annotated[str, Field(max_length=40)]] = Field(max_length=40, description="game ids the page knows")


class ReviewRequest(BaseModel):
    gcg: str = Field(max_length=MAX_BODY_BYTES, description="a GCG game record")


class PadRequest(ScoreRequest):
    together: StrictBool = Field(default=False, description="Together · Team side: no premiums, no points")


def _error(status: int, message: str, headers: dict | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


class ErrorBody(BaseModel):
    error: str = Field(description="what is wrong, in one sentence")


def _errors(*codes: int) -> dict:
    """OpenAPI ``responses`` for the error codes a route answers (all as ``{"error"}``)."""
    what = {400: "malformed or impossible CGP, or a bad value", 404: "no event (start with --event DIR)",
            409: "the game has moved on since the page's state (another tab): 'turn' is stale",
            413: "body too large", 415: "body not sent as JSON", 431: "request headers too large",
            422: "body not UTF-8 JSON, nested too deeply, or a missing or mistyped field",
            429: "too many requests from this address (Retry-After)",
            503: "busy: the analysis queue is full, or the event is being read (Retry-After)"}
    return {c: {"model": ErrorBody, "description": what[c]} for c in codes}


POST_ERRORS = _errors(400, 413, 415, 422, 429, 431, 503)


class BodyLimit:
    """ASGI middleware: a request body over ``limit`` bytes gets 413, whether its
    ``Content-Length`` says so or its chunks add up to it (nothing past the limit
    is kept in memory)."""

    def __init__(self, app, limit: int = MAX_BODY_BYTES):
        self.app = app
        self.limit = limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        text = message("body_too_large", english(scope["headers"]), limit=self.limit)
        size = dict(scope["headers"]).get(b"content-length")
        if size is not None and (not size.isdigit() or int(size) > self.limit):
            return await _error(413, text)(scope, receive, send)
        seen = 0

        async def limited():
            nonlocal seen
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > self.limit:
                    raise StarletteHTTPException(413, text)  # answered by the app's handler
            return msg

        await self.app(scope, limited, send)


def _message_page(title: str, message: str, retry: bool = True) -> str:
    """A projector page in place of the round: a heading, the reason, and (``retry``) a reload every 5 s."""
    import html

    again = ("<p>Neuer Versuch alle 5 Sekunden …</p><script>setTimeout(function(){location.reload();},5000);"
             "</script>") if retry else ""
    return ("<!DOCTYPE html><html lang=\"de\"><head><meta charset=\"utf-8\"><title>Simultan – "
            f"{html.escape(title)}</title><style>body{{font-family:system-ui,sans-serif;background:#f4f1ea;"
            "padding:10vh 8vw;font-size:3.2vh}h1{font-size:5vh;color:#b03a2e}</style></head><body>"
            f"<h1>{html.escape(title)}</h1><p>{html.escape(message)}</p>{again}</body></html>")


def _field_de(err: dict) -> str:
    """A request field's validation error (pydantic's) in German."""
    t, ctx = err.get("type", ""), err.get("ctx") or {}
    if t == "missing":
        return "fehlt"
    if t == "string_too_long":
        return f"zu lang (höchstens {ctx.get('max_length')} Zeichen)"
    if t == "string_too_short":
        return f"zu kurz (mindestens {ctx.get('min_length')} Zeichen)"
    if t in ("greater_than_equal", "greater_than"):
        return f"muss mindestens {ctx.get('ge', ctx.get('gt'))} sein"
    if t in ("less_than_equal", "less_than"):
        return f"darf höchstens {ctx.get('le', ctx.get('lt'))} sein"
    if t == "finite_number":
        return "keine endliche Zahl"
    if t.startswith("int_"):
        return "keine ganze Zahl"
    if t.startswith("float_"):
        return "keine Zahl"
    if t.startswith("bool"):
        return "nicht true oder false"
    if t == "string_pattern_mismatch":
        return "unzulässiger Wert"
    if t.startswith("string"):
        return "kein Text"
    if t == "value_error":  # a validator's own (German) message
        return str(err.get("msg", "")).removeprefix("Value error, ") or "unzulässiger Wert"
    if "dict" in t or "model" in t:
        return "muss ein JSON-Objekt sein ({...})"
    if t.startswith(("float", "list", "tuple", "none", "literal", "enum")):
        return "falscher Typ"
    return "unzulässiger Wert"


def check_rate(rate: str):
    """The parsed rate limit (``limits`` notation, e.g. ``"40/second"``).

    Raises:
        ValueError: the text cannot be read.
    """
    if any(sep in rate for sep in ";,|"):
        raise ValueError(f"rate {rate!r}: give one limit, e.g. '40/second'")
    try:
        limit = parse_rate(rate)
    except ValueError as exc:
        raise ValueError(f"rate {rate!r}: {exc} (write e.g. '40/second')") from None
    if limit.amount < MIN_RATE_AMOUNT:
        raise ValueError(f"rate {rate!r}: at least {MIN_RATE_AMOUNT} requests in the window, since one edit "
                         "on the page sends up to three (write e.g. '40/second')")
    return limit


def check_event_dir(path: str | Path) -> Path:
    """``path`` as a :class:`~pathlib.Path` if it holds a simultaneous event's journal.

    Raises:
        ValueError: no journal there.
    """
    from engine.director.journal import JOURNAL_FILE

    path = Path(path)
    if not (path / JOURNAL_FILE).is_file():
        raise ValueError(f"{path}: not a simultaneous event directory (no journal; "
                         "create one with `python -m engine simultan new`)")
    return path


def create_app(lexicon=None, *, table=None, event_dir: str | Path | None = None, rate: str = DEFAULT_RATE,
               allowed_hosts: list[str] | None = None, heavy_workers: int = HEAVY_WORKERS,
               heavy_queue: int = HEAVY_QUEUE, admin_key: str | None = None, players_submit: bool = False,
               new_player_links: bool = False, link_base: str | None = None,
               games_dir: str | Path | None = None, max_games: int | None = None) -> FastAPI:
    """Build the web application.

    Args:
        lexicon: the word list (:class:`lexicon_tools.bundle.Lexicon`); default:
            the packaged German list (:func:`lexicon_tools.bundle.load_lexicon`).
        table: leave table for equity (default: the packaged German table).
        event_dir: a simultaneous event directory (``simultan new``) to project
            on ``/director``; ``None``: no projection page.
        rate: requests per client address to ``/api/*``, e.g. ``"40/second"``
            (``limits`` notation).
        allowed_hosts: accepted ``Host`` headers (guards a loopback server
            against DNS rebinding); ``None``: any.
        heavy_workers: analysis requests computed at the same time.
        heavy_queue: analysis requests admitted at once (running and waiting);
            more get 503 with ``Retry-After`` (:class:`engine.web.server.HeavyPool`).
        admin_key: the director's key for the arbitration screen (``/director/admin``,
            :mod:`engine.web.admin`; only its hash is kept); ``None``: no screen.
        players_submit: players submit their moves from their phones (``/spieler``,
            :mod:`engine.web.players`); the links made now are ``app.state.player_links``
            (``{player: token}``, ``None`` when the stored ones are kept).
        new_player_links: make new player links even when the event has some.
        link_base: ``http://HOST:PORT`` the players' phones reach (their links and QR codes on
            the arbitration screen); default: the address the director's browser used.
        games_dir: where the games against the computer are kept (``/spielen``,
            :mod:`engine.web.play`); default :func:`engine.web.play.default_games_dir`.
        max_games: games kept there at most (default :data:`engine.web.play.MAX_GAMES`).

    Raises:
        ValueError: ``rate`` cannot be read, ``event_dir`` is not an event
            directory, or the pool sizes are not >= 1 (queue >= workers).
        lexicon_tools.bundle.LexiconError: the lexicon cannot be loaded.
    """
    from lexicon_tools.bundle import load_lexicon

    from engine.leaves.table import default_table

    lexicon = lexicon if lexicon is not None else load_lexicon(None)
    table = table if table is not None else default_table()
    limit = check_rate(rate)
    if event_dir is not None:
        event_dir = check_event_dir(event_dir)
    limiter = MovingWindowRateLimiter(MemoryStorage())
    heavy = HeavyPool(heavy_workers, heavy_queue)  # analysis; cheap routes never queue behind it
    director_lock = threading.Lock()  # reading the event waits for the event's file lock, not for analysis
    last_state: list[dict] = []        # the last director state answered (for reads that would have to wait)

    app = FastAPI(title="German Scrabble engine", version="1", docs_url=None, redoc_url=None,
                  description="Board editor, analysis and director's projection (docs/web.md).")
    app.state.heavy_pool = heavy
    app.router.on_shutdown.append(heavy.shutdown)
    if allowed_hosts:
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts)
    app.add_middleware(JSONGuard)  # runs inside BodyLimit: the body it holds is at most MAX_BODY_BYTES
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)
    app.add_middleware(HeaderLimit)

    class Guard:
        """ASGI middleware: the rate limit per client address and the JSON content type on ``/api/*``
        (a plain ASGI middleware, not ``@app.middleware``: that one hides the client's going away
        from the routes, which stop a gone client's analysis)."""

        def __init__(self, inner):
            self.inner = inner

        async def __call__(self, scope, receive, send):
            if scope["type"] == "http" and scope["path"].startswith("/api/"):
                client = scope["client"][0] if scope.get("client") else "?"
                en = english(scope["headers"])
                if not limiter.hit(limit, client):
                    return await _error(429, message("too_many", en), {"Retry-After": "1"})(scope, receive, send)
                ctype = dict(scope["headers"]).get(b"content-type", b"").decode("latin-1")
                media = ctype.split(";")[0].strip().lower()
                if scope["method"] == "POST" and media != "application/json" and not media.endswith("+json"):
                    return await _error(415, message("not_json_type", en))(scope, receive, send)
            await self.inner(scope, receive, send)

    app.add_middleware(Guard)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError):
        en = english(request.headers)
        errs = exc.errors()
        first = errs[0] if errs else {}
        if first.get("type") == "json_invalid":
            reason = (first.get("ctx") or {}).get("error", "")
            return _error(422, message("not_json", en, why=f" ({reason})" if reason else ""))
        where = ".".join(str(x) for x in first.get("loc", ()) if x != "body") or "body"
        what = first.get("msg", "invalid request") if en else _field_de(first)
        return _error(422, message("field", en, where=where, what=what))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException):
        headers = dict(exc.headers or {})
        detail = {"Not Found": "not_found", "Method Not Allowed": "method"}.get(str(exc.detail))
        if detail:
            exc = StarletteHTTPException(exc.status_code, message(detail, english(request.headers)), exc.headers)
        if exc.status_code == 405 and "allow" not in {k.lower() for k in headers}:
            headers["Allow"] = "GET, HEAD"  # static files
        if exc.status_code == 503:
            headers.setdefault("Retry-After", "1")
        return _error(exc.status_code, str(exc.detail), headers or None)

    @app.exception_handler(Busy)
    async def busy(request: Request, exc: Busy):
        return _error(503, exc.text(english(request.headers)), {"Retry-After": "1"})

    @app.exception_handler(ValueError)
    async def bad_value(request: Request, exc: ValueError):
        """400 with the reason. The analysis routes' (a bad CGP, GCG record, field value) in German unless the
        request asks for English (``X-Lang: en``, as every message of the server; :func:`engine.web.german.
        refusal_de`); the director's and the players' routes keep theirs (their pages translate them)."""
        from .german import refusal_de

        path = request.url.path
        if english(request.headers) or path.startswith(("/api/director", "/api/player/")):
            return _error(400, str(exc))
        return _error(400, refusal_de(str(exc)))

    @app.exception_handler(Exception)
    async def crash(request: Request, exc: Exception):
        log.exception("error answering %s %s", request.method, request.url.path)
        return _error(500, message("internal", english(request.headers), name=type(exc).__name__))

    async def engine_call(func, *args, lock=None, wait: float = -1, request: Request | None = None, **kwargs):
        """Run work in a worker thread (under ``lock`` when given, waiting at most ``wait``
        seconds, then 503; -1: as long as it takes); answer its dict as JSON directly
        (FastAPI's generic encoder walks every value: 4x slower on long lists).
        ``lock=heavy`` runs it in the analysis pool instead, in the turn of ``request``'s client
        (503 when the queue or the client's share is full; dropped when the client goes away first)."""
        if lock is heavy:
            out = await until_gone(request, heavy.run(lambda: func(*args, **kwargs), client=client_of(request)))
            return JSONResponse(out) if isinstance(out, dict) else out

        def locked():
            if lock is None:
                return func(*args, **kwargs)
            if not lock.acquire(timeout=wait):
                raise Busy("busy_event")
            try:
                return func(*args, **kwargs)
            finally:
                lock.release()

        out = await run_in_threadpool(locked)
        return JSONResponse(out) if isinstance(out, dict) else out

    @app.exception_handler(Gone)
    async def gone_away(_request: Request, exc: Gone):
        return _error(499, str(exc))  # nobody reads it: the client closed the connection

    def client_of(request: Request | None) -> str:
        return request.client.host if request is not None and request.client else "?"

    async def until_gone(request: Request | None, work, on_gone=None):
        """Await ``work`` (a coroutine); when ``request``'s client goes away first, cancel it (and call
        ``on_gone``) and raise :class:`Gone`."""
        task = asyncio.ensure_future(work)
        if request is None:
            return await task
        while True:
            done, _ = await asyncio.wait({task}, timeout=GONE_POLL)
            if done:
                return task.result()
            if await request.is_disconnected():
                if on_gone is not None:
                    on_gone()
                task.cancel()
                try:
                    await task
                except BaseException:
                    pass
                raise Gone("the client went away; its analysis was dropped")

    # -- pages -----------------------------------------------------------------------
    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    async def index():
        return FileResponse(STATIC / "index.html")

    @app.api_route("/punkte", methods=["GET", "HEAD"], include_in_schema=False)
    async def score_pad_page():
        return FileResponse(STATIC / "punkte.html")

    @app.api_route("/favicon.ico", methods=["GET", "HEAD"], include_in_schema=False)
    async def favicon():
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # -- API -------------------------------------------------------------------------
    rules = api.rules_json()
    rules["director"] = event_dir is not None
    from engine.game.gcg import record_lexicon_name

    gcg_name = record_lexicon_name(lexicon)
    rules["lexicon"] = {"words": lexicon.word_count, "gcg": gcg_name, "packaged": gcg_name == "default",
                        "name": None if gcg_name == "default" else  # the page names the packaged list itself
                        (lexicon.meta.get("source") or {}).get("name") or Path(str(lexicon.path)).name}

    @app.get("/api/rules", responses=_errors(429))
    async def get_rules():
        """Tile set, board layout and lexicon (see :func:`engine.web.api.rules_json`)."""
        return rules

    @app.post("/api/position", responses=POST_ERRORS)
    async def position(req: CGPRequest):
        """The parsed position with warnings (:func:`engine.web.api.position_json`; cheap: no analysis)."""
        return await engine_call(lambda: api.position_json(api.read_position(req.cgp), lexicon))

    @app.post("/api/moves", responses=POST_ERRORS)
    async def moves(req: MovesRequest, request: Request):
        """Legal moves with score, leave and equity (:func:`engine.web.api.moves_json`): at most
        :data:`engine.web.api.MAX_PAGE` per answer, ``next_offset`` asks for the rest."""
        return await engine_call(lambda: api.moves_json(api.read_position(req.cgp), lexicon, table,
                                                        top=req.top, sort=req.sort, offset=req.offset),
                                 lock=heavy, request=request)

    @app.post("/api/score", responses=POST_ERRORS)
    async def score(req: ScoreRequest, request: Request):
        """The word checker (:func:`engine.web.api.score_json`)."""
        return await engine_call(lambda: api.score_json(api.read_position(req.cgp), lexicon, req.move, table,
                                                        words=req.words),
                                 lock=heavy, request=request)

    from .deep import DeepWorker

    deep = app.state.deep = DeepWorker(lexicon, table)
    app.router.on_shutdown.append(deep.close)

    @app.post("/api/deep", responses=POST_ERRORS)
    async def deep_analysis(req: DeepRequest, request: Request):
        """The solver's or the simulation's answer for the position's phase (:mod:`engine.web.deep`,
        :func:`engine.analysis.phase.phase_answer`), in a worker process within ``seconds``; the slot is shared
        fairly between clients, and the analysis stops when its client goes away."""
        api.read_position(req.cgp)  # a bad CGP is a 400 at once, before the worker is asked
        client, gone = client_of(request), threading.Event()
        work = heavy.wait_for(deep.run, req.cgp, req.seconds, req.include, req.last_move, client, gone,
                              client=client)
        return JSONResponse(await until_gone(request, work, on_gone=gone.set))

    # -- a game against the computer, the Partieanalyse ----------------------------------
    from .german import play_de
    from .play import REVIEW_ENDGAME_SECONDS, GameStore, PlayError, StaleTurn, address_of, default_games_dir, owner_of

    games = app.state.games = GameStore(games_dir if games_dir is not None else default_games_dir(), lexicon,
                                        table, deep, **({} if max_games is None else {"max_games": max_games}))

    @app.api_route("/spielen", methods=["GET", "HEAD"], include_in_schema=False)
    async def play_page():
        return FileResponse(STATIC / "spielen.html")

    async def play_call(request: Request, func, *args, level: str | None = None):
        """A game request: in the analysis pool, in the turn of ``request``'s client (waiting in a thread of
        its own for the Meister, whose search runs in the worker process); a :class:`PlayError` is a 400
        with its reason (:func:`play_refusal`)."""
        def call():
            try:
                return func(*args)
            except PlayError as exc:
                return play_refusal(request, exc)
        if level == "meister":
            out = await heavy.wait_for(call, client=client_of(request))
        else:
            out = await heavy.run(call, client=client_of(request))
        return JSONResponse(out) if isinstance(out, (dict, list)) else out

    def play_refusal(request: Request, exc: PlayError) -> JSONResponse:
        """400 with a game's refusal (409 for a move sent for a turn the game has left), in German unless the page
        asks for English (:func:`engine.web.german.play_de`)."""
        return _error(409 if isinstance(exc, StaleTurn) else 400, str(exc) if english(request.headers)
                      else play_de(str(exc)))

    def level_of(gid: str) -> str | None:
        """The game's level (reads its file: call it in a worker thread, never on the event loop)."""
        try:
            return games._read(gid).get("level")
        except PlayError:
            return None

    @app.post("/api/play/new", responses=POST_ERRORS)
    async def play_new(req: PlayNewRequest, request: Request):
        """Start a game against the computer (:meth:`engine.web.play.GameStore.new`)."""
        return await play_call(request, games.new, req.level, req.rules, req.name, None,
                               owner_of(req.owner, client_of(request)), req.id, address_of(client_of(request)),
                               level=req.level)

    @app.post("/api/play/state", responses=POST_ERRORS)
    async def play_state(req: PlayIdRequest, request: Request):
        """The game as the player sees it (:meth:`engine.web.play.GameStore.state`)."""
        return await play_call(request, games.state, req.id, level=await run_in_threadpool(level_of, req.id))

    @app.post("/api/play/move", responses=_errors(400, 409, 413, 415, 422, 429, 431, 503))
    async def play_move(req: PlayMoveRequest, request: Request):
        """The player's move and the engine's answer (:meth:`engine.web.play.GameStore.move`; ``turn``: 409 when
        the game has moved on since the page's state)."""
        return await play_call(request, games.move, req.id, req.move, req.turn,
                               level=await run_in_threadpool(level_of, req.id))

    @app.post("/api/play/list", responses=POST_ERRORS)
    async def play_list(req: PlayListRequest, request: Request):
        """Short descriptions of the games the page knows (:meth:`engine.web.play.GameStore.summaries`): ``games``,
        and ``damaged`` (``[{"id", "error"}]``: files that cannot be read or replayed; the rest is still listed),
        and ``unknown`` (the ids looked at that are not on this server; the page lists them, it drops none)."""
        def summaries():
            good, damaged = games.summaries(list(req.ids))
            found = {d["id"] for d in good + damaged}
            unknown = [i for i in list(req.ids)[: games.keep * 2] if i not in found]
            if not english(request.headers):
                damaged = [{**d, "error": play_de(d["error"])} for d in damaged]
            return {"games": good, "damaged": damaged, "unknown": unknown}
        return await play_call(request, summaries)

    @app.get("/api/play/gcg/{gid}", responses=_errors(400, 429))
    async def play_gcg(gid: str, request: Request):
        """The game as a GCG file (download)."""
        from fastapi.responses import Response

        try:
            name, text = await run_in_threadpool(games.gcg, gid)
        except PlayError as exc:
            return play_refusal(request, exc)
        return Response(text, media_type="text/plain; charset=utf-8",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    @app.post("/api/play/review", responses=POST_ERRORS)
    async def play_review(req: PlayIdRequest, request: Request):
        """The Partieanalyse of a game against the computer (kept in the game's file once it is over)."""
        from engine.game.gcg import write_gcg

        try:
            rec, meta = await run_in_threadpool(games.record, req.id)
        except PlayError as exc:
            return play_refusal(request, exc)
        if "review" in meta and rec.end_reason:
            return JSONResponse(meta["review"])
        client, gone = client_of(request), threading.Event()
        work = heavy.wait_for(deep.review, write_gcg(rec), REVIEW_ENDGAME_SECONDS, client, gone, client=client)
        out = await until_gone(request, work, on_gone=gone.set)
        if rec.end_reason:
            await run_in_threadpool(games.save_review, req.id, out)
        return JSONResponse(out)

    @app.post("/api/review", responses=POST_ERRORS)
    async def review_gcg(req: ReviewRequest, request: Request):
        """The Partieanalyse of any GCG text (:func:`engine.web.play.review_payload`, in the worker process)."""
        from engine.game.gcg import read_gcg

        await run_in_threadpool(read_gcg, req.gcg, lexicon)  # a bad record is a 400 at once (GCGError is a ValueError)
        client, gone = client_of(request), threading.Event()
        work = heavy.wait_for(deep.review, req.gcg, REVIEW_ENDGAME_SECONDS, client, gone, client=client)
        return JSONResponse(await until_gone(request, work, on_gone=gone.set))

    @app.post("/api/pad", responses=POST_ERRORS)
    async def pad(req: PadRequest):
        """The score pad's checker (:func:`engine.web.api.pad_json`; cheap: no move generation)."""
        return await engine_call(lambda: api.pad_json(api.read_position(req.cgp), lexicon, req.move,
                                                      together=req.together))

    @app.post("/api/word", responses=POST_ERRORS)
    async def word(req: WordRequest):
        """The word lookup (:func:`engine.web.api.word_json`)."""
        return api.word_json(lexicon, req.word)

    # -- director ----------------------------------------------------------------------
    def need_event() -> Path:
        if event_dir is None:
            raise StarletteHTTPException(404, "no event: start the server with --event DIR to project a "
                                              "simultaneous event")
        return event_dir

    @app.get("/api/director", responses=_errors(400, 404, 429, 503))
    async def director_state():
        """The event's open round, the last top move and scores, the standings
        (:func:`engine.web.director.director_state`)."""
        path = need_event()
        from .director import director_state as state

        try:  # one read at a time; the others get the last answer at once instead of waiting
            out = await engine_call(state, path, lexicon, lock=director_lock, wait=0.2)
        except Busy:
            if last_state:
                return JSONResponse({**last_state[0], "now": time.time()})  # the page sets its clock by "now"
            raise
        last_state[:] = [json.loads(out.body)]
        return out

    @app.api_route("/director", methods=["GET", "HEAD"], include_in_schema=False)
    async def director_page():
        if event_dir is None:
            return HTMLResponse(_message_page("Keine Partie", "Den Server mit --event VERZEICHNIS starten, um eine "
                                              "Simultan-Partie zu zeigen (start the server with --event DIR).",
                                              retry=False), status_code=404)
        from .director import director_page as page

        try:
            return HTMLResponse(await engine_call(page, event_dir, lexicon, lock=director_lock, wait=1.0))
        except (ValueError, Busy) as exc:  # a projector shows a page, not JSON, and tries again by itself
            reason = exc.text(False) if isinstance(exc, Busy) else str(exc)
            return HTMLResponse(_message_page("Die Partie kann gerade nicht gelesen werden", str(reason)),
                                status_code=400)

    # -- the director's arbitration screen (engine/web/admin.py) -------------------------
    from . import admin, players

    app.state.player_links = None
    on_join = None
    if players_submit:
        if event_dir is None:
            raise ValueError("players_submit needs an event directory")
        from engine.director.store import EventDir

        names = EventDir(event_dir, lexicon=lexicon, export=False, notes=None).load().players
        hashes, app.state.player_links = players.player_tokens(event_dir, names, renew=new_player_links)
        players.register(app, event_dir=event_dir, lexicon=lexicon, hashes=hashes, static=STATIC)

        def on_join(name: str) -> str:  # a late arrival's link, shown on the screen that admitted them
            return players.add_player_token(event_dir, name, hashes)
    admin.register(app, event_dir=event_dir, lexicon=lexicon, static=STATIC,
                   key_hash=admin.secret_hash(admin_key) if admin_key else None,
                   links=app.state.player_links, link_base=link_base, on_join=on_join)

    # load the cached kernels now, not on the first request
    api.moves_json(api.read_position("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AB/ 0/0 0"), lexicon, table)
    return app
