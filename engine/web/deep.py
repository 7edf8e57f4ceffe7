"""The deeper analysis of the web page (``POST /api/deep``): solver or simulation in a worker process.

The endgame solver, the pre-endgame and the simulation run Numba kernels that
hold Python's GIL for seconds; in a thread of the server they would stall
every other request. :class:`DeepWorker` runs :func:`engine.analysis.phase.phase_answer`
in one worker process (started on first use with ``spawn``, the lexicon
memory-mapped there from its path, the leave table passed once). The request
is admitted by the bounded analysis pool (:meth:`engine.web.server.HeavyPool.wait_for`:
it counts against the pool's queue, 503 when full) but waits in a thread of
its own, so the move lists and the word checker (``/api/moves``, ``/api/score``)
never queue behind a deep analysis. Only one deep analysis runs at a time (a
second one gets 503 with ``Retry-After`` while the first is running), and each
has a time budget of at most :data:`MAX_SECONDS`, which the solvers keep to
(the pre-endgame's deadline, :mod:`engine.analysis.preendgame`). The worker loads the
kernels once with :func:`engine.analysis.phase.warm_up` before its first analysis, so a
Numba cache load or compile never eats a request's budget.
"""

from __future__ import annotations

import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool

__all__ = ["DeepWorker", "DEFAULT_SECONDS", "MAX_SECONDS"]

DEFAULT_SECONDS = 5.0
"""Time budget of one deep analysis when the request names none (seconds)."""
MAX_SECONDS = 20.0
"""Longest budget a request may ask for (seconds)."""

_WORKER: dict = {}


def _init(lexicon_path, table) -> None:
    """Worker start: remember where the lexicon is and the table (a path or a LeaveTable)."""
    _WORKER["lexicon_path"] = lexicon_path
    _WORKER["table"] = table


def _task(cgp: str, seconds: float, include: list[str], last_move: str | None = None) -> dict:
    from lexicon_tools.bundle import Lexicon, load_lexicon

    from engine.position.cgp import parse_cgp
    from engine.leaves.table import LeaveTable
    from engine.analysis.phase import phase_answer, warm_up

    if "lexicon" not in _WORKER:
        path = _WORKER.get("lexicon_path")
        _WORKER["lexicon"] = load_lexicon(None) if path is None else Lexicon.load(path)
        t = _WORKER.get("table")
        if isinstance(t, str):
            t = LeaveTable.load(t)
        _WORKER["table_obj"] = t
        warm_up(_WORKER["lexicon"])  # kernels loaded (or compiled) before the first request's budget starts
    return phase_answer(parse_cgp(cgp), _WORKER["lexicon"], table=_WORKER["table_obj"], seconds=seconds,
                        include=include, last_move=last_move)


class DeepWorker:
    """One worker process for :func:`engine.analysis.phase.phase_answer`, started on first use.

    Args:
        lexicon: the server's :class:`lexicon_tools.bundle.Lexicon` (its ``path`` is
            loaded in the worker; ``None`` path: the default list).
        table: the server's leave table (its file path when it has one, else the
            table itself is sent once).

    Raises (from :meth:`run`):
        engine.web.server.Busy: a deep analysis is already running.
        engine.web.server.Busy: also when the worker process died (answered 503; it is restarted on the
            next request).
    """

    def __init__(self, lexicon, table):
        path = getattr(lexicon, "path", None)
        self._lexicon_path = None if path is None else str(path)
        tpath = getattr(table, "path", None)
        self._table = str(tpath) if tpath is not None else table
        self._lock = threading.Lock()
        self._running = threading.Semaphore(1)
        self._ex: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        import multiprocessing as mp

        with self._lock:
            if self._ex is None:
                self._ex = ProcessPoolExecutor(max_workers=1, mp_context=mp.get_context("spawn"),
                                               initializer=_init, initargs=(self._lexicon_path, self._table))
            return self._ex

    def run(self, cgp: str, seconds: float, include: list[str] | None = None, last_move: str | None = None) -> dict:
        """The phase answer of ``cgp`` within ``seconds`` (blocks the calling thread, not the GIL);
        ``include``: moves to simulate as well, ``last_move``: the opponent's last move for the
        simulation's inference (:func:`engine.analysis.phase.phase_answer`)."""
        from .server import Busy

        if not self._running.acquire(blocking=False):
            raise Busy("busy: another deep analysis is running; try again in a moment")
        try:
            try:
                fut = self._executor().submit(_task, cgp, float(seconds), list(include or []), last_move)
                return fut.result(timeout=float(seconds) + 300.0)
            except FutureTimeout:
                raise Busy("busy: the deep analysis took far longer than its budget; try again later") from None
            except BrokenProcessPool:
                self._reset()
                raise Busy("busy: the analysis worker stopped; it is restarted on the next request") from None
        finally:
            self._running.release()

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
