"""What keeps the web server answering under load and against slow or forged clients (docs/web.md).

* :class:`HeavyPool` — analysis (``/api/moves``, ``/api/score``) runs in its own
  bounded pool of worker threads with a bounded queue; a request past the queue
  gets 503 with ``Retry-After`` at once. Cheap routes (``/api/director``,
  ``/api/position``, pages, static files) never wait behind analysis.
* :class:`HeaderLimit` — headers over :data:`MAX_HEADER_BYTES` get 431.
* :class:`JSONGuard` — an ASGI middleware: a POST body that is not UTF-8, not
  JSON or nested deeper than :data:`MAX_JSON_DEPTH` gets 422 before FastAPI parses it.
* :func:`guarded_h11` — uvicorn's h11 protocol with a deadline for reading a
  whole request (headers and body): a slow-loris client that sends a byte every
  few seconds is disconnected after ``request_timeout`` seconds, however much it sends.
* :func:`server_config` — the uvicorn configuration ``python -m engine web`` and
  :func:`engine.web.cli.background_server` use: forwarded headers
  (``X-Forwarded-For``) ignored unless ``trust_proxy`` names the proxy, the keep-alive
  timeout, the request deadline, the connection limit and h11's header size limit.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import threading

__all__ = ["message", "english", "LANG_HEADER", "MESSAGES", "HeavyPool", "Busy", "Gone", "HeaderLimit", "JSONGuard", "guarded_h11", "server_config", "MAX_JSON_DEPTH",
           "REQUEST_TIMEOUT", "KEEP_ALIVE_TIMEOUT", "MAX_CONNECTIONS", "MAX_CONNECTIONS_PER_ADDRESS", "network_of", "HEAVY_WORKERS", "HEAVY_QUEUE"]

MAX_JSON_DEPTH = 32
"""Deepest nesting of arrays and objects accepted in a request body (the API needs 1)."""
REQUEST_TIMEOUT = 10.0
"""Seconds a client has to send a whole request (headers and body) once it starts one."""
KEEP_ALIVE_TIMEOUT = 5
"""Seconds an idle keep-alive connection stays open."""
MAX_CONNECTIONS = 800
"""Open connections at most; more get 503 from uvicorn."""
MAX_CONNECTIONS_PER_ADDRESS = 64
"""Open connections of one client address at most (:func:`network_of`; a trusted proxy's own are not counted):
more are answered 503 and closed at once, so one client holding connections open (each sending its request
slowly) cannot take the :data:`MAX_CONNECTIONS` everybody shares (report-attack26l: 205 connections from one
address kept every other address at 503). 64 leaves room for a club's players behind one address (a browser
opens up to 6 connections to a server, and an idle one closes after :data:`KEEP_ALIVE_TIMEOUT`)."""
HEAVY_WORKERS = 1
"""Analysis requests computed at the same time (the kernels are CPU-bound)."""
HEAVY_QUEUE = 8
"""Analysis requests admitted at once, running and waiting; more get 503 with ``Retry-After``."""
MAX_HEADER_BYTES = 16 * 1024
"""Largest request head (request line and headers) h11 accepts (400 above)."""


LANG_HEADER = "X-Lang"
"""The request header choosing the language of the server's own messages: ``en`` for English;
anything else, or none, German (the pages send their language: docs/web.md)."""

MESSAGES = {
    "body_too_large": ("Die Anfrage ist zu groß (höchstens {limit} Bytes); nichts eingetragen",
                       "request body too large (at most {limit} bytes)"),
    "headers_too_large": ("Die Kopfzeilen der Anfrage sind zu groß (höchstens {limit} Bytes)",
                          "request headers too large (at most {limit} bytes)"),
    "too_many": ("Zu viele Anfragen von dieser Adresse: kurz warten und noch einmal versuchen",
                 "too many requests: wait a moment and try again"),
    "not_json_type": ("Den Inhalt als JSON senden (Content-Type: application/json)",
                      "send the request body as JSON (Content-Type: application/json)"),
    "not_utf8": ("Der Inhalt ist kein gültiges UTF-8 (Byte {at})", "the body is not valid UTF-8 (byte {at})"),
    "too_deep": ("Der Inhalt ist zu tief verschachtelt (höchstens {depth} Ebenen)",
                 "the body is nested too deeply (at most {depth} levels)"),
    "not_json": ("Der Inhalt ist kein gültiges JSON{why}", "the body is not valid JSON{why}"),
    "field": ("Feld {where}: {what}", "{where}: {what}"),
    "not_found": ("Nicht gefunden", "Not Found"),
    "method": ("Diese Methode ist hier nicht erlaubt", "Method Not Allowed"),
    "internal": ("Interner Fehler ({name}); der Server arbeitet weiter",
                 "internal error ({name}); the server goes on serving"),
    # Busy (503 with Retry-After): the English ones begin "busy:" (the pages' i18n.js and scripts look for it)
    "busy_queue": ("Der Server rechnet gerade viel (Analysen, die laufen oder warten: {n}): gleich noch einmal "
                   "versuchen",
                   "busy: {n} analyses are running or waiting; try again in a moment"),
    "busy_share": ("Deine Analysen laufen oder warten schon (höchstens {n} auf einmal, der Anteil eines Nutzers): "
                   "erst ihre Antworten abwarten",
                   "busy: {n} of your analyses are running or waiting already (the share of one client); try again "
                   "when they are done"),
    "busy_deep_own": ("Deine genaue Analyse läuft noch: ihre Antwort abwarten",
                      "busy: your deep analysis is still running; wait for its answer"),
    "busy_deep_others": ("Eine andere genaue Analyse läuft gerade, und weitere warten: gleich noch einmal versuchen",
                         "busy: another deep analysis is running and others are waiting; try again in a moment"),
    "busy_deep_long": ("Die genaue Analyse hat viel länger als ihr Zeitbudget gebraucht und wurde abgebrochen: "
                       "später noch einmal versuchen",
                       "busy: the deep analysis took far longer than its budget; try again later"),
    "busy_review_long": ("Die Partieanalyse hat viel länger als erwartet gebraucht und wurde abgebrochen: später "
                         "noch einmal versuchen",
                         "busy: the review took far longer than expected; try again later"),
    "busy_worker": ("Der Rechenprozess ist abgebrochen; die nächste Anfrage startet ihn neu",
                    "busy: the analysis worker stopped; it is restarted on the next request"),
    "busy_event": ("Eine andere Anfrage liest gerade das Turnier: gleich noch einmal versuchen",
                   "busy: another request is reading the event; try again"),
}
"""The server's own refusals in German and English: ``{key: (german, english)}``."""


def english(headers) -> bool:
    """True when a request asks for English messages (``X-Lang: en``).

    Args:
        headers: the ASGI scope's ``headers`` (a list of byte pairs) or a mapping of str.
    """
    if isinstance(headers, list):
        value = next((v for k, v in headers if k.lower() == b"x-lang"), b"").decode("latin-1")
    else:
        value = headers.get(LANG_HEADER, "") or ""
    return value.strip().lower().startswith("en")


def message(key: str, en: bool = False, **values) -> str:
    """The server's message ``key`` (:data:`MESSAGES`) in German, or English when ``en``."""
    de_text, en_text = MESSAGES[key]
    return (en_text if en else de_text).format(**values)


class Busy(Exception):
    """The analysis queue is full, or the work took too long (answered 503 with ``Retry-After``).

    Args:
        key: the message's key in :data:`MESSAGES` (``busy_*``); values: its fields. ``str(exc)`` is the English
            text (logs, scripts); :meth:`text` the one a request asked for (the 503 answer, German by default).
    """

    def __init__(self, key: str, **values):
        self.key, self.values = key, values
        super().__init__(message(key, True, **values))

    def text(self, en: bool) -> str:
        """The message in English when ``en``, else in German."""
        return message(self.key, en, **self.values)


class Gone(Exception):
    """The client went away before its work was done (the work was dropped or stopped)."""


class _Job:
    __slots__ = ("func", "args", "loop", "future", "client", "cancelled")

    def __init__(self, func, args, loop, future, client):
        self.func, self.args, self.loop, self.future, self.client = func, args, loop, future, client
        self.cancelled = False


class HeavyPool:
    """A bounded pool for heavy work with a bounded queue and a fair share per client.

    Work waits in one line per client (the client's address); a free worker takes the next
    job of the waiting client served longest ago (a client never served first, then by
    arrival), so a client with many requests cannot keep another one waiting behind all of
    them: another client waits for at most the jobs running now. A client may have at most
    ``per_client`` requests admitted (running and waiting); more get :class:`Busy` while
    other clients still have room. When the queue is full, a client holding at least two fewer
    admissions than another still gets in: that other client's newest waiting job is turned away
    with :class:`Busy` (so a few clients filling the queue cannot keep a newcomer out). A job
    whose request is cancelled (the client went away) before a worker took it is dropped.

    Args:
        workers: threads computing at the same time.
        queue: requests admitted at once (running plus waiting, at least ``workers``).
        per_client: requests one client may have admitted at once (default: a quarter of
            ``queue``, at least 1).

    Raises:
        ValueError: ``workers`` < 1, ``queue`` < ``workers`` or ``per_client`` < 1.
    """

    def __init__(self, workers: int = HEAVY_WORKERS, queue: int = HEAVY_QUEUE, per_client: int | None = None):
        if workers < 1 or queue < workers:
            raise ValueError(f"heavy pool: workers {workers} must be >= 1 and the queue ({queue}) at least as long")
        per_client = max(1, queue // 4) if per_client is None else per_client
        if per_client < 1:
            raise ValueError(f"heavy pool: per_client must be >= 1, got {per_client}")
        self.workers, self.queue, self.per_client = workers, queue, per_client
        self._admitted = 0
        self._by_client: dict[str, int] = {}
        self._waiting: dict[str, list[_Job]] = {}  # per client, in arrival order
        self._arrival: dict[str, int] = {}
        self._served: dict[str, int] = {}            # client -> tick of its last job taken
        self._tick = 0
        self._lock = threading.Condition()
        self._stop = False
        self._threads = [threading.Thread(target=self._loop, name=f"analysis-{i}", daemon=True)
                         for i in range(workers)]
        for t in self._threads:
            t.start()

    @property
    def admitted(self) -> int:
        """Requests running or waiting now."""
        return self._admitted

    def _admit(self, client: str) -> None:
        with self._lock:
            if self._by_client.get(client, 0) >= self.per_client:
                raise Busy("busy_share", n=self.per_client)
            if self._admitted >= self.queue and not self._evict_for(client):
                raise Busy("busy_queue", n=self._admitted)
            self._admitted += 1
            self._by_client[client] = self._by_client.get(client, 0) + 1

    def _evict_for(self, client: str) -> bool:
        """The queue is full (under the lock): make room for ``client`` by turning away the newest waiting job of
        the client holding the most admissions, if that is at least two more than ``client`` holds (so that
        many clients sharing a full queue each keep a share, and a few clients filling it cannot keep a
        newcomer out: report-attack26g D1). The job turned away is answered :class:`Busy` ("busy_queue").
        Returns whether room was made."""
        mine = self._by_client.get(client, 0)
        holders = [c for c in self._waiting if self._by_client.get(c, 0) >= mine + 2]
        if not holders:
            return False
        victim = max(holders, key=lambda c: (self._by_client[c], self._arrival[c]))
        jobs = self._waiting[victim]
        job = jobs.pop()
        if not jobs:
            del self._waiting[victim]
        job.cancelled = True  # not run; its request gets the 503 below
        job.loop.call_soon_threadsafe(_settle, job.future, None, Busy("busy_queue", n=self._admitted))
        self._admitted -= 1
        n = self._by_client[victim] - 1
        if n:
            self._by_client[victim] = n
        else:
            self._by_client.pop(victim, None)
        return True

    def _release(self, client: str) -> None:
        with self._lock:
            self._admitted -= 1
            n = self._by_client.get(client, 1) - 1
            if n:
                self._by_client[client] = n
            else:
                self._by_client.pop(client, None)

    def _next_job(self) -> _Job | None:
        """The next job (under the lock): the waiting client served longest ago, its oldest job."""
        if not self._waiting:
            return None
        client = min(self._waiting, key=lambda c: (self._served.get(c, -1), self._arrival[c]))
        jobs = self._waiting[client]
        job = jobs.pop(0)
        if not jobs:
            del self._waiting[client]
        self._tick += 1
        self._served[client] = self._tick
        if len(self._served) > 4096:  # forget clients long gone
            for c in sorted(self._served, key=self._served.get)[:2048]:
                del self._served[c]
        return job

    def _loop(self) -> None:
        while True:
            with self._lock:
                while not self._stop and not self._waiting:
                    self._lock.wait()
                if self._stop:
                    return
                job = self._next_job()
            try:
                try:
                    out, exc = job.func(*job.args), None
                except BaseException as e:  # handed to the request
                    out, exc = None, e
                job.loop.call_soon_threadsafe(_settle, job.future, out, exc)
            finally:
                self._release(job.client)

    async def run(self, func, *args, client: str = "?"):
        """Run ``func(*args)`` in the pool (in the client's fair turn) and return its result.

        Raises:
            Busy: ``queue`` requests are already admitted, or ``per_client`` of this client's
                (nothing is run).
        """
        self._admit(client)
        loop = asyncio.get_running_loop()
        job = _Job(func, args, loop, loop.create_future(), client)
        with self._lock:
            self._tick += 1
            if client not in self._waiting:
                self._arrival[client] = self._tick
                self._waiting[client] = []
            self._waiting[client].append(job)
            self._lock.notify()
        try:
            return await job.future
        except asyncio.CancelledError:
            with self._lock:  # not taken yet: dropped (admission released here), else it runs to its end
                jobs = self._waiting.get(client, [])
                if job in jobs:
                    jobs.remove(job)
                    if not jobs:
                        del self._waiting[client]
                    job.cancelled = True
                else:
                    job.cancelled = None
            if job.cancelled:
                self._release(client)
            raise

    async def wait_for(self, func, *args, client: str = "?"):
        """Admit ``func(*args)`` like :meth:`run` (it counts against ``queue`` and the client's share;
        ``Busy`` when full) but wait for it in a thread of its own, not one of the pool's: for work
        whose CPU is spent elsewhere (the deep analysis in its worker process, :mod:`engine.web.deep`),
        so that it never holds up the pool's analyses."""
        self._admit(client)
        try:
            return await asyncio.get_running_loop().run_in_executor(None, func, *args)
        finally:
            self._release(client)

    def shutdown(self) -> None:
        """Stop the threads (waiting jobs are dropped)."""
        with self._lock:
            self._stop = True
            self._lock.notify_all()


def _settle(future, out, exc) -> None:
    if future.done():  # the request was cancelled meanwhile
        return
    if exc is not None:
        future.set_exception(exc)
    else:
        future.set_result(out)


def _depth(value) -> int:
    """Nesting depth of a parsed JSON value (iterative: no recursion on hostile input)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, (list, dict)):
            deepest = max(deepest, d)
            stack.extend((x, d + 1) for x in (v.values() if isinstance(v, dict) else v))
    return deepest


def json_problem(body: bytes, en: bool = True) -> str | None:
    """Why a request body cannot be read as the API's JSON (``None`` when it can), in English
    (``en``) or German.

    An empty body is left to FastAPI (``Field required``).
    """
    if not body:
        return None
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        return message("not_utf8", en, at=exc.start)
    try:
        value = json.loads(text)
    except RecursionError:
        return message("too_deep", en, depth=MAX_JSON_DEPTH)
    except ValueError as exc:
        return message("not_json", en, why=f" ({exc})")
    if _depth(value) > MAX_JSON_DEPTH:
        return message("too_deep", en, depth=MAX_JSON_DEPTH)
    return None


class HeaderLimit:
    """ASGI middleware: a request whose headers add up to more than ``limit`` bytes gets 431.

    (h11 refuses a head still incomplete after :data:`MAX_HEADER_BYTES`; one that arrives
    whole in a single network read would pass it.)"""

    def __init__(self, app, limit: int = MAX_HEADER_BYTES):
        self.app = app
        self.limit = limit

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and sum(len(k) + len(v) + 4 for k, v in scope["headers"]) > self.limit:
            from fastapi.responses import JSONResponse

            return await JSONResponse({"error": message("headers_too_large", english(scope["headers"]),
                                                        limit=self.limit)},
                                      status_code=431, headers={"Connection": "close"})(scope, receive, send)
        return await self.app(scope, receive, send)


class JSONGuard:
    """ASGI middleware: a POST to ``/api/`` whose body is not UTF-8 JSON of sane depth gets 422
    ``{"error": ...}``; other requests pass untouched. Put it inside the body size limit
    (the body is held in memory to check it, then handed on unchanged)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["method"] != "POST" or not scope["path"].startswith("/api/"):
            return await self.app(scope, receive, send)
        from fastapi.responses import JSONResponse
        from starlette.exceptions import HTTPException

        chunks, more = [], True
        try:
            while more:
                msg = await receive()
                if msg["type"] != "http.request":  # the client went away
                    return
                chunks.append(msg.get("body", b""))
                more = msg.get("more_body", False)
        except HTTPException as exc:  # the body limit outside (413)
            return await JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code,
                                      headers=exc.headers)(scope, receive, send)
        body = b"".join(chunks)
        problem = json_problem(body, english(scope["headers"]))
        if problem:
            return await JSONResponse({"error": problem}, status_code=422)(scope, receive, send)
        sent = False

        async def replay():
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def network_of(address: str | None) -> str:
    """The client key of an address: the IPv4 address, an IPv6 address's /48 network (an IPv4-mapped one as
    IPv4), or the text as given when it is not an IP address (``"?"`` for none).

    Why /48: an ISP gives one customer a /64 at least, commonly a /56 or a /48 (RIPE-690 and RFC 6177 recommend
    /56 to /48 for an end site), so counting by /64 let one home line take a limit many times (report-attack26c
    A1). The price: a large organisation behind one /48 counts as one client, as a club behind one IPv4 address.
    """
    text = address or "?"
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return text
    if ip.version == 6 and ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    if ip.version == 6:
        return str(ipaddress.ip_network(f"{ip}/48", strict=False))
    return str(ip)


def _trusted_test(networks: str | None):
    """A test ``address -> bool``: is it one of the comma-separated addresses or networks (``--trust-proxy``;
    ``*``: every address)? The networks are parsed once, not on every connection."""
    parts = [p.strip() for p in (networks or "").split(",") if p.strip()]
    if "*" in parts:
        return lambda _address: True
    nets = []
    for part in parts:
        with contextlib.suppress(ValueError):
            nets.append(ipaddress.ip_network(part, strict=False))

    def test(address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in n for n in nets)

    return test


def guarded_h11(request_timeout: float = REQUEST_TIMEOUT, per_address: int = MAX_CONNECTIONS_PER_ADDRESS,
                trusted: str | None = None):
    """uvicorn's h11 protocol class with a deadline for reading each request and a cap on one address's
    connections.

    The deadline starts when a connection opens and again when a response is
    complete (the keep-alive timeout closes an idle connection sooner); it stops
    when the request has arrived whole. A connection still sending its request
    at the deadline is closed (uvicorn alone only times out idle keep-alive
    connections, so a client sending a header byte every few seconds stays for ever).

    A client address (:func:`network_of`) with ``per_address`` connections open gets ``503`` on the next one,
    which is closed at once (:data:`MAX_CONNECTIONS_PER_ADDRESS`); the addresses in ``trusted`` (reverse proxies,
    ``--trust-proxy``) are not capped, since every visitor comes through them.

    Returns:
        a subclass of ``uvicorn.protocols.http.h11_impl.H11Protocol``.
    """
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    open_by: dict[str, int] = {}   # client key -> open connections (one event loop: no lock needed)
    is_trusted = _trusted_test(trusted)
    refused = (b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\nContent-Type: text/plain; charset=utf-8\r\n"
               b"Connection: close\r\nContent-Length: 39\r\n\r\ntoo many connections from your address\n")

    class DeadlineH11Protocol(H11Protocol):
        timeout_request = request_timeout
        open_connections = open_by

        def _arm(self) -> None:
            self._disarm()
            self._request_deadline = self.loop.call_later(self.timeout_request, self._too_slow)

        def _disarm(self) -> None:
            handle = getattr(self, "_request_deadline", None)
            if handle is not None:
                handle.cancel()
            self._request_deadline = None

        def _too_slow(self) -> None:
            self._request_deadline = None
            if self.conn.their_state in (h11.IDLE, h11.SEND_BODY) and not self.transport.is_closing():
                if self.cycle is not None and not self.cycle.response_complete:
                    self.cycle.disconnected = True
                    self.cycle.message_event.set()
                self.transport.close()

        def connection_made(self, transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            peer = self.client[0] if self.client else None
            self._counted = None if peer is None or is_trusted(peer) else network_of(peer)
            if self._counted is not None:
                if open_by.get(self._counted, 0) >= per_address:
                    self._counted = None
                    transport.write(refused)
                    transport.close()
                    return
                open_by[self._counted] = open_by.get(self._counted, 0) + 1
            self._arm()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.their_state not in (h11.IDLE, h11.SEND_BODY):  # the request is in (or the peer is done)
                self._disarm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()

        def connection_lost(self, exc) -> None:
            self._disarm()
            key, self._counted = getattr(self, "_counted", None), None
            if key is not None:
                left = open_by.get(key, 1) - 1
                if left > 0:
                    open_by[key] = left
                else:
                    open_by.pop(key, None)
            super().connection_lost(exc)

    return DeadlineH11Protocol


def server_config(app, host: str = "127.0.0.1", port: int = 0, *, trust_proxy: str | None = None,
                  request_timeout: float = REQUEST_TIMEOUT, keep_alive: int = KEEP_ALIVE_TIMEOUT,
                  max_connections: int = MAX_CONNECTIONS, max_per_address: int = MAX_CONNECTIONS_PER_ADDRESS,
                  log_level: str = "warning"):
    """The uvicorn configuration of the web server.

    Args:
        app: the ASGI application.
        host, port: where to listen.
        trust_proxy: comma-separated addresses of reverse proxies whose
            ``X-Forwarded-For``/``X-Forwarded-Proto`` are believed (``--trust-proxy``);
            ``None``: forwarded headers are ignored, so the client address (and the
            per-client rate limit) is the connection's.
        request_timeout: seconds to send a whole request (:func:`guarded_h11`).
        keep_alive: seconds an idle keep-alive connection stays open.
        max_connections: open connections at most (more get 503).
        max_per_address: open connections of one client address at most (:func:`guarded_h11`).
        log_level: uvicorn's log level.

    Returns:
        ``uvicorn.Config``.
    """
    import uvicorn

    return uvicorn.Config(app, host=host, port=port, log_level=log_level,
                          http=guarded_h11(request_timeout, max_per_address, trusted=trust_proxy),
                          proxy_headers=trust_proxy is not None,
                          forwarded_allow_ips=trust_proxy,
                          timeout_keep_alive=keep_alive, limit_concurrency=max_connections,
                          h11_max_incomplete_event_size=MAX_HEADER_BYTES, ws="none")
