"""The deeper analysis of the web page (``POST /api/deep``): solver or simulation in a worker process.

The endgame solver, the pre-endgame and the simulation run Numba kernels that
hold Python's GIL for seconds; in a thread of the server they would stall
every other request. :class:`DeepWorker` runs :func:`engine.analysis.phase.phase_answer`
in one worker process (started on first use with ``spawn``, the lexicon
memory-mapped there from its path, the leave table passed once). The request
is admitted by the bounded analysis pool (:meth:`engine.web.server.HeavyPool.wait_for`:
it counts against the pool's queue and the client's share, 503 when full) but waits
in a thread of its own, so the move lists and the word checker (``/api/moves``,
``/api/score``) never queue behind a deep analysis. Only one deep analysis runs at a
time; the others wait in a short line (:data:`DEEP_WAITING` clients, one request each;
more get 503 with ``Retry-After``) and the slot goes to the waiting client whose last
deep analysis is the oldest, so a client re-sending its analysis cannot keep another
one out. When a client goes away (the tab is closed) its waiting request leaves the
line and its running analysis is stopped (the worker process is ended and started
again on the next request). Each has a time budget of at most :data:`MAX_SECONDS`, which the solvers keep to
(the pre-endgame's deadline, :mod:`engine.analysis.preendgame`). The worker loads the
kernels once with :func:`engine.analysis.phase.warm_up` before its first analysis, so a
Numba cache load or compile never eats a request's budget.
"""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool

__all__ = ["DeepWorker", "DEFAULT_SECONDS", "MAX_SECONDS", "DEEP_WAITING"]

DEEP_WAITING = 4
"""Clients that may wait for the deep analysis slot at once (one request each)."""

DEFAULT_SECONDS = 5.0
"""Time budget of one deep analysis when the request names none (seconds)."""
MAX_SECONDS = 20.0
"""Longest budget a request may ask for (seconds)."""

_WORKER: dict = {}


def _init(lexicon_path, table, parent: int | None = None) -> None:
    """Worker start: remember where the lexicon is and the table (``(path, meta)`` or a LeaveTable); ignore
    Ctrl-C (the server stops the worker) and exit when the server process ``parent`` dies
    (:func:`engine.interrupt.worker_process`)."""
    from engine.interrupt import worker_process

    worker_process(parent)
    _WORKER["lexicon_path"] = lexicon_path
    _WORKER["table"] = table


def _task(cgp: str, seconds: float, include: list[str], last_move: str | None = None) -> dict:
    from engine.analysis.phase import phase_answer
    from engine.position.cgp import parse_cgp

    _task_setup()
    return phase_answer(parse_cgp(cgp), _WORKER["lexicon"], table=_WORKER["table_obj"], seconds=seconds,
                        include=include, last_move=last_move)


def _review_task(gcg: str, endgame_seconds: float) -> dict:
    """The Partieanalyse of a GCG text in the worker (:func:`engine.web.play.review_payload`)."""
    from .play import review_payload

    _task_setup()
    return review_payload(gcg, _WORKER["lexicon"], _WORKER["table_obj"], endgame_seconds)


def _task_setup() -> None:
    from lexicon_tools.bundle import Lexicon, load_lexicon

    from engine.analysis.phase import warm_up
    from engine.leaves.table import LeaveTable

    if "lexicon" not in _WORKER:
        path = _WORKER.get("lexicon_path")
        _WORKER["lexicon"] = load_lexicon(None) if path is None else Lexicon.load(path)
        t = _WORKER.get("table")
        if isinstance(t, tuple):
            path, meta = t
            t = LeaveTable.load(path)
            t.meta = meta
        _WORKER["table_obj"] = t
        warm_up(_WORKER["lexicon"])  # kernels loaded (or compiled) before the first request's budget starts


class DeepWorker:
    """One worker process for :func:`engine.analysis.phase.phase_answer`, started on first use.

    Args:
        lexicon: the server's :class:`lexicon_tools.bundle.Lexicon` (its ``path`` is
            loaded in the worker; ``None`` path: the default list).
        table: the server's leave table (its file path when it has one, else the
            table itself is sent once).

    Raises (from :meth:`run`):
        engine.web.server.Busy: the client's own deep analysis is running or waiting, the line is full,
            or the worker process died (answered 503; it is restarted on the next request).
    """

    def __init__(self, lexicon, table):
        path = getattr(lexicon, "path", None)
        self._lexicon_path = None if path is None else str(path)
        tpath = getattr(table, "path", None)
        # the path and the table's metadata: the packaged table's cached copy has no ``.json`` beside it, and
        # without its equity parameters the worker's equity would differ from the server's near the end of the bag
        self._table = (str(tpath), dict(table.meta or {})) if tpath is not None else table
        self._lock = threading.Lock()
        self._slot = threading.Condition()
        self._running: str | None = None        # the client whose analysis runs
        self._waiting: dict[str, int] = {}      # client -> arrival tick
        self._served: dict[str, int] = {}       # client -> tick of its last turn
        self._tick = 0
        self.stopped = 0
        """Analyses stopped because their client went away."""
        self._ex: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        import multiprocessing as mp

        with self._lock:
            if self._ex is None:
                self._ex = ProcessPoolExecutor(max_workers=1, mp_context=mp.get_context("spawn"),
                                               initializer=_init,
                                               initargs=(self._lexicon_path, self._table, os.getpid()))
            return self._ex

    def run(self, cgp: str, seconds: float, include: list[str] | None = None, last_move: str | None = None,
            client: str = "?", gone: threading.Event | None = None, wait: float | None = None) -> dict:
        """The phase answer of ``cgp`` within ``seconds`` (blocks the calling thread, not the GIL);
        ``include``: moves to simulate as well, ``last_move``: the opponent's last move for the
        simulation's inference (:func:`engine.analysis.phase.phase_answer`).

        Args:
            client: who asks (the address): the slot is shared fairly between clients (module doc).
            gone: set when the client went away: a waiting request leaves the line, a running
                analysis is stopped.
            wait: at most this many seconds in the line for the slot (``None``: as long as it takes); then
                :class:`Busy` ("busy_deep_others"). The Meister level does not wait behind a stranger's review.

        Raises:
            engine.web.server.Busy: this client's deep analysis is running or waiting already,
                :data:`DEEP_WAITING` clients wait already, or the slot was not free within ``wait``.
            engine.web.server.Gone: ``gone`` was set (nothing is answered).
        """
        return self._call(client, gone, float(seconds) + 300.0, "busy_deep_long",
                          _task, cgp, float(seconds), list(include or []), last_move, wait=wait)

    def warm(self) -> None:
        """Start the worker process and load (after installing: compile) its kernels now, blocking the calling
        thread; ``python -m engine web`` calls it in a background thread when it starts, so that the first
        visitor's deep analysis does not wait minutes for a compile nobody announced (report-attack26l: 67 s).
        It takes the slot in the fair line as the client ``"(warm-up)"``: a request meanwhile waits in the line
        (its budget starts when its turn comes).

        Raises:
            engine.web.server.Busy: the worker process died or the line is full.
        """
        self._call("(warm-up)", None, 3600.0, "busy_deep_long", _task_setup)

    def review(self, gcg: str, endgame_seconds: float = 2.0, client: str = "?",
               gone: threading.Event | None = None, timeout: float = 600.0) -> dict:
        """The Partieanalyse of a GCG text in the worker process, in the same fair slot as :meth:`run`:
        :func:`engine.web.play.review_payload`, each endgame solve within ``endgame_seconds``.

        Raises:
            engine.web.server.Busy: as :meth:`run`; engine.web.server.Gone: ``gone`` was set.
            ValueError: the GCG cannot be read (the reader's message).
        """
        return self._call(client, gone, timeout, "busy_review_long", _review_task, gcg,
                          float(endgame_seconds))

    def _call(self, client: str, gone: threading.Event | None, limit: float, too_long: str, func, *args,
              wait: float | None = None):
        """``func(*args)`` in the worker, in ``client``'s fair turn; stopped when ``gone`` is set or after
        ``limit`` seconds (the worker is ended; the next request starts a new one)."""
        from .server import Busy, Gone

        gone = gone or threading.Event()
        self._enter(client, gone, wait)
        try:
            try:
                fut = self._executor().submit(func, *args)
                while True:
                    try:
                        return fut.result(timeout=0.2)
                    except FutureTimeout:
                        limit -= 0.2
                        if gone.is_set():
                            self.stopped += 1
                            self._kill()
                            raise Gone("the client went away; its deep analysis was stopped") from None
                        if limit <= 0:
                            self._kill()
                            raise Busy(too_long) from None
            except BrokenProcessPool:
                self._reset()
                raise Busy("busy_worker") from None
        finally:
            with self._slot:
                self._running = None
                self._slot.notify_all()

    def _enter(self, client: str, gone: threading.Event, wait: float | None = None) -> None:
        """Wait for the slot in the fair line (see :meth:`run`), at most ``wait`` seconds when given."""
        from .server import Busy, Gone

        with self._slot:
            if client == self._running or client in self._waiting:
                raise Busy("busy_deep_own")
            if self._running is not None or self._waiting:
                if len(self._waiting) >= DEEP_WAITING or (wait is not None and wait <= 0):
                    raise Busy("busy_deep_others")
                deadline = None if wait is None else time.monotonic() + wait
                self._tick += 1
                self._waiting[client] = self._tick
                try:
                    while self._running is not None or self._next() != client:
                        if gone.is_set():
                            raise Gone("the client went away while waiting for the deep analysis")
                        if deadline is not None and time.monotonic() >= deadline:
                            raise Busy("busy_deep_others")
                        self._slot.wait(0.2)
                finally:
                    del self._waiting[client]
                    self._slot.notify_all()
            self._running = client
            self._tick += 1
            self._served[client] = self._tick
            if len(self._served) > 4096:
                self._served.clear()

    def _next(self) -> str:
        """The waiting client whose last deep analysis is the oldest (never: first), then by arrival."""
        return min(self._waiting, key=lambda c: (self._served.get(c, -1), self._waiting[c]))

    def _kill(self) -> None:
        """End the worker process now (a stopped analysis); the next request starts a new one."""
        with self._lock:
            ex, self._ex = self._ex, None
        if ex is None:
            return
        for proc in list(getattr(ex, "_processes", {}).values()):
            try:
                proc.kill()
            except Exception:  # already gone
                pass
        ex.shutdown(wait=False, cancel_futures=True)

    def _reset(self) -> None:
        with self._lock:
            ex, self._ex = self._ex, None
        if ex is not None:
            ex.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the worker process (waits for a running analysis)."""
        with self._lock:
            ex, self._ex = self._ex, None
        if ex is not None:
            ex.shutdown(wait=True, cancel_futures=True)
