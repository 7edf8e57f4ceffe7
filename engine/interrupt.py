"""Long kernel calls that Ctrl-C can stop.

A Numba kernel holds the interpreter until it returns, so Python's SIGINT
handler (which only sets a flag that the interpreter checks between bytecodes)
cannot run during a long search: Ctrl-C did nothing until the search ended, and
then surfaced as ``SystemError: ... returned a result with an exception set``.

:func:`call_interruptible` runs such a kernel, compiled with ``nogil=True``, in a
worker thread while the main thread waits in short, interruptible joins. On
Ctrl-C the main thread calls the caller's ``abort`` (for the endgame solver: set
its node limit to zero, which the kernel checks at every node), waits for the
kernel to return normally, and then raises :class:`KeyboardInterrupt`, so the
caller can still report the best answer found so far.

:func:`on_ctrl_c` goes further for a search made of many kernel calls: while it
is active, Ctrl-C only calls a function (which stops the running kernel) and
sets a flag the search loop checks, so no :class:`KeyboardInterrupt` can land in
the middle of a kernel call or a Numba compilation (where it surfaced as a
``SystemError`` or a broken cache write).

:func:`worker_process` is for the start of a worker process (a process pool's
initializer): Ctrl-C is its parent's to handle (the terminal sends it to the
whole process group), and the worker exits when its parent dies (``kill -9``, an
out-of-memory kill), instead of living on as an orphan.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from typing import Any, Callable, Iterator

_POLL_SECONDS = 0.05


def call_interruptible(fn: Callable[..., Any], args: tuple, abort: Callable[[], None]) -> Any:
    """Call ``fn(*args)`` so that Ctrl-C stops it cleanly.

    Args:
        fn: a callable that releases the GIL while it runs (a Numba kernel compiled
            with ``nogil=True``) and returns soon after ``abort()`` was called.
        args: its arguments.
        abort: called once, from the main thread, when Ctrl-C arrives; it must make
            ``fn`` return (e.g. by writing a stop flag into an array ``fn`` polls).

    Returns:
        What ``fn`` returned.

    Raises:
        KeyboardInterrupt: after ``fn`` has returned, if Ctrl-C arrived while it ran
            (its result is then discarded; the caller's arrays hold the aborted state).
        Exception: whatever ``fn`` raised.

    Outside the main thread (a web server's worker, a process pool) no signal can
    arrive, so ``fn`` is simply called.
    """
    if threading.current_thread() is not threading.main_thread():
        return fn(*args)
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = fn(*args)
        except BaseException as exc:  # handed to the main thread below
            box["error"] = exc

    worker = threading.Thread(target=run, name="kernel", daemon=True)
    worker.start()
    interrupted = False
    while worker.is_alive():
        try:
            worker.join(_POLL_SECONDS)
        except KeyboardInterrupt:
            if not interrupted:
                interrupted = True
                abort()
    if "error" in box:
        raise box["error"]
    if interrupted:
        raise KeyboardInterrupt
    return box["value"]


class CtrlC:
    """What :func:`on_ctrl_c` yields: ``pressed`` turns True at the first Ctrl-C."""

    def __init__(self) -> None:
        self.pressed = False


@contextlib.contextmanager
def on_ctrl_c(stop: Callable[[], None]) -> Iterator[CtrlC]:
    """Within the block, Ctrl-C calls ``stop()`` and sets ``pressed`` instead of raising.

    Args:
        stop: called from the main thread at each Ctrl-C; it must be quick (e.g.
            set a running kernel's node limit to zero).

    Yields:
        a :class:`CtrlC` whose ``pressed`` the caller checks between steps.

    The previous SIGINT handler is restored on leaving the block. Outside the
    main thread (where Python delivers no signals) this does nothing.
    """
    flag = CtrlC()
    if threading.current_thread() is not threading.main_thread():
        yield flag
        return

    def handler(signum, frame) -> None:
        flag.pressed = True
        stop()

    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield flag
    finally:
        signal.signal(signal.SIGINT, previous)


_pressed = threading.Event()


def remembering_handler(signum, frame) -> None:
    """A SIGINT handler: remember the Ctrl-C (:func:`ctrl_c_pressed`), then raise :class:`KeyboardInterrupt` as
    Python's default handler does. A :class:`KeyboardInterrupt` raised inside a ctypes callback (llvmlite's,
    while Numba compiles) is printed as "Exception ignored" and swallowed; the command then went on compiling
    for minutes (report-attack26g C1). Long steps ask :func:`ctrl_c_pressed` between their parts."""
    _pressed.set()
    raise KeyboardInterrupt


def ctrl_c_pressed() -> bool:
    """Whether Ctrl-C arrived since :func:`forget_ctrl_c` (under :func:`remembering_handler`), even if the
    :class:`KeyboardInterrupt` it raised was swallowed."""
    return _pressed.is_set()


def forget_ctrl_c() -> None:
    """Start a command afresh: no Ctrl-C remembered."""
    _pressed.clear()


PARENT_POLL_SECONDS = 1.0
"""How often a worker process checks that its parent is alive (:func:`worker_process`)."""


def worker_process(parent: int | None = None, poll: float = PARENT_POLL_SECONDS) -> None:
    """Call first in a worker process: ignore Ctrl-C (SIGINT), and exit when the parent process is gone.

    Args:
        parent: the parent's pid as the parent saw it (``os.getpid()`` there, passed to the
            initializer); ``None``: ``os.getppid()`` now.
        poll: seconds between checks.

    A daemon thread compares ``os.getppid()`` with ``parent`` every ``poll`` seconds and ends
    the process with ``os._exit(1)`` when they differ (the orphan was re-parented to init or a
    subreaper). Polling, not Linux's ``PR_SET_PDEATHSIG``: that signal follows the *thread*
    that started the worker, and a process pool starts its workers from whatever thread
    submits first (a web server's worker thread, which may end long before the server).
    A kernel holding the GIL delays the check until it returns (at most its time budget).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = os.getppid() if parent is None else int(parent)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(poll)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
