"""CLI plug-in (see :data:`engine.cli.main.PLUGINS`): ``python -m engine web``.

``python -m engine web [--port P] [--host H] [--lexicon L] [--leaves KLV] [--games DIR] [--event DIR [--admin]] [--rate R]
[--trust-proxy ADDR] [--analysis-queue N] [--request-timeout S]``
serves the board editor and analysis page on ``http://127.0.0.1:P/`` (and the
director's projection page on ``/director`` with ``--event``) until Ctrl+C.
Only loopback listens unless ``--host`` names another address. The uvicorn
settings (forwarded headers, timeouts) are :func:`engine.web.server.server_config`'s.
docs/web.md.
"""

from __future__ import annotations

import contextlib
import errno
import ipaddress
import os
import socket
import sys
import threading
import time

__all__ = ["add_parser", "background_server", "cmd_web"]

DEFAULT_PORT = 8765


def _note(msg: str) -> None:
    print(f"note: {msg}", file=sys.stderr)


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


PLAY_WARM_STEPS = ("movegen",)
"""The kernels of :mod:`engine.analysis.warmup` the ``/spielen`` levels Einsteiger and Stark run in the server's
own process (move generation and static equity; Meister and the review run in the worker process, which loads
its kernels when it starts)."""


def warm_play_kernels(lexicon, note=_note) -> threading.Thread:
    """Load (or, the first time, compile) the kernels of ``/spielen`` in a daemon thread, so that the first
    "Partie beginnen" does not wait for them; returns the thread (already started).

    A compile is announced on ``note`` before and after (a load from Numba's cache is silent); a failure is
    noted, not raised: the first request then compiles as before.
    """
    from engine.analysis.warmup import uncached, warm_in_process

    def run():
        try:
            cold = bool(uncached(PLAY_WARM_STEPS))
            if cold:
                note("compiling the move generator for /spielen in the background (once; it is cached for later "
                     "starts; a game started meanwhile waits for it)")
            start = time.thread_time()
            warm_in_process(lexicon, PLAY_WARM_STEPS)
            if cold:
                note(f"move generator ready ({time.thread_time() - start:.0f} CPU seconds)")
        except Exception as exc:  # noqa: BLE001 - a warm-up must never stop the server
            note(f"warming the move generator failed ({type(exc).__name__}: {exc}); the first game compiles it")

    t = threading.Thread(target=run, name="warm-play", daemon=True)
    t.start()
    return t


def warm_deep_worker(deep, note=_note) -> threading.Thread:
    """Start the deep worker (:meth:`engine.web.deep.DeepWorker.warm`: the deep analysis, the Meister level and
    the Partieanalyse) in a daemon thread; returns the thread (already started). A compile is announced on
    ``note`` before and after; a failure is noted, not raised (the first request then starts the worker)."""
    from engine.analysis.warmup import COMMAND_STEPS, uncached
    from engine.lang import tr

    def run():
        try:
            cold = bool(uncached(COMMAND_STEPS["web"]))
            if cold:
                note(tr("compiling the deep analysis in its worker process in the background (once; it is cached "
                        "for later starts; a deep analysis asked for meanwhile waits for it, the Meister plays "
                        "static equity)"))
            start = time.monotonic()
            deep.warm()
            if cold:
                note(tr("deep analysis ready ({s} s)", s=round(time.monotonic() - start)))
        except Exception as exc:  # noqa: BLE001 - a warm-up must never stop the server
            note(tr("starting the deep analysis worker failed ({exc}); the first deep analysis starts it",
                    exc=f"{type(exc).__name__}: {exc}"))

    t = threading.Thread(target=run, name="warm-deep", daemon=True)
    t.start()
    return t


@contextlib.contextmanager
def background_server(app, host: str = "127.0.0.1", port: int = 0, timeout: float = 30.0, **settings):
    """Serve ``app`` with uvicorn in a daemon thread (for tests, screenshots and scripts),
    configured as ``python -m engine web`` is (:func:`engine.web.server.server_config`).

    Args:
        app: the ASGI application (:func:`engine.web.app.create_app`).
        host: address to listen on (loopback by default).
        port: TCP port; 0 picks a free one.
        timeout: seconds to wait for the server to start.
        settings: passed to :func:`~engine.web.server.server_config` (``trust_proxy``,
            ``request_timeout``, ``keep_alive``, ``max_connections``).

    Yields:
        the base URL, e.g. ``"http://127.0.0.1:40123"``; the server stops when the block ends.

    Raises:
        RuntimeError: the server did not start within ``timeout``.
    """
    import uvicorn

    from .server import server_config

    if port == 0:
        with socket.socket() as s:
            s.bind((host, 0))
            port = s.getsockname()[1]
    server = uvicorn.Server(server_config(app, host, port, **settings))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            server.should_exit = True
            raise RuntimeError(f"the web server did not start on {host}:{port}")
        time.sleep(0.05)
    try:
        yield f"http://{host}:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def _lan_address() -> str:
    """This machine's address on the local network (for the players' links), else its name."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))  # no packet is sent: only picks the interface
            return s.getsockname()[0]
    except OSError:
        return socket.gethostname()


def lock_games_dir(games):
    """Lock the games directory (``--games``, else :func:`engine.web.play.default_games_dir`) for this server:
    an exclusive ``flock`` on the directory itself, held as long as the returned handle is open. A game's lock
    is only the server process's, so two servers on one directory could both answer a move and one of them was
    lost (report-attack26i H2). The directory, not a file in it, is locked: deleting a ``DIR/.lock`` file let
    a second server in (report-attack26k L1).

    Returns:
        the open handle (keep it; ``close()`` frees the folder), or ``None`` where ``flock`` does not exist.

    Raises:
        ValueError: another process holds the lock (another ``engine web`` on that directory), or the
            directory cannot be made.
    """
    from pathlib import Path

    from .play import default_games_dir

    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on Linux/macOS
        return None
    d = Path(games) if games is not None else default_games_dir()
    try:
        d.mkdir(parents=True, exist_ok=True)
        fd = os.open(d, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError as exc:
        raise ValueError(f"--games {d}: cannot use it ({exc.strerror or exc})") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise ValueError(f"--games {d}: another 'engine web' uses this games folder; stop it, or give this one "
                         "its own --games DIR") from None
    return _HeldLock(fd)


class _HeldLock:
    """An open descriptor holding a ``flock``; ``close()`` (or the end of the process) frees it."""

    def __init__(self, fd: int):
        self.fd = fd

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def cmd_web(args) -> int:
    """Run the web server in the foreground; returns 0 after Ctrl+C."""
    import uvicorn

    from lexicon_tools.bundle import load_lexicon

    from .app import check_event_dir, check_rate, create_app

    if not 0 < args.port < 65536:
        raise ValueError(f"--port {args.port}: expected 1..65535")
    if not args.host.strip():
        raise ValueError("--host: give an address, e.g. 127.0.0.1 (this machine) or 0.0.0.0 (every interface)")
    check_rate(args.rate)
    if args.analysis_queue < 1:
        raise ValueError(f"--analysis-queue {args.analysis_queue}: at least 1")
    if not args.request_timeout > 0:
        raise ValueError(f"--request-timeout {args.request_timeout}: a number of seconds above 0")
    if args.trust_proxy is not None:
        for addr in args.trust_proxy.split(","):
            try:
                ipaddress.ip_network(addr.strip(), strict=False)
            except ValueError:
                raise ValueError(f"--trust-proxy {args.trust_proxy!r}: {addr.strip()!r} is not an address or "
                                 "network (e.g. 127.0.0.1 or 10.0.0.0/8)") from None
    if args.event is not None:
        check_event_dir(args.event)
    if args.max_games < 1:
        raise ValueError(f"--max-games must be at least 1, got {args.max_games}")
    if args.admin and args.event is None:
        raise ValueError("--admin needs --event DIR (the event the director runs)")
    if (args.players_submit or args.new_player_links) and args.event is None:
        raise ValueError("--players-submit needs --event DIR (the event the players play)")
    try:  # fail before announcing the address when the port is taken
        family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
        with socket.socket(family) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((args.host, args.port))
    except OSError as exc:
        hint = "; is the port in use? try --port" if exc.errno == errno.EADDRINUSE else ""
        raise OSError(f"cannot listen on {args.host}:{args.port} ({exc.strerror or exc}{hint})") from None
    games_lock = lock_games_dir(args.games)  # held while this server runs  # noqa: F841
    table = None
    if args.leaves:
        from engine.leaves.table import LeaveTable

        try:
            table = LeaveTable.load(args.leaves, note=_note)
        except OSError as exc:
            raise ValueError(f"--leaves {args.leaves}: cannot read it ({exc.strerror or exc})") from None
        except ValueError as exc:
            raise ValueError(f"--leaves {args.leaves}: {exc}") from None
    lexicon = load_lexicon(args.lexicon, progress=_note)
    loopback = _is_loopback(args.host)
    hosts = sorted({"127.0.0.1", "localhost", "[::1]", "::1", args.host, f"[{args.host}]"}) if loopback else None
    key = None
    if args.admin:
        from .admin import new_secret

        key = new_secret()
    shown = f"[{args.host}]" if ":" in args.host else args.host
    base = f"http://{_lan_address() if args.host in ('0.0.0.0', '::') else shown}:{args.port}"
    app = create_app(lexicon, table=table, event_dir=args.event, rate=args.rate, allowed_hosts=hosts,
                     heavy_queue=args.analysis_queue, admin_key=key,
                     players_submit=args.players_submit or args.new_player_links,
                     new_player_links=args.new_player_links, link_base=base, games_dir=args.games,
                     max_games=args.max_games)
    warm_play_kernels(lexicon)
    warm_deep_worker(app.state.deep)
    print(f"serving on http://{shown}:{args.port}/" + (f"  (projection: http://{shown}:{args.port}/director)"
                                                      if args.event else ""), file=sys.stderr)
    if key is not None:  # shown once; the server keeps only its hash
        print(f"director's screen: http://{shown}:{args.port}/director/admin#key={key}\n"
              f"director's key (give it to no one else): {key}", file=sys.stderr)
    links = app.state.player_links
    if args.players_submit or args.new_player_links:
        if links:  # shown once; the event directory keeps only their hashes
            print("player links (give each player only their own; shown once):", file=sys.stderr)
            for p, t in links.items():
                print(f"  {p}: {base}/spieler#t={t}", file=sys.stderr)
        else:
            _note("player links: the ones given out before stay valid (--new-player-links makes new ones)")
        if loopback:
            _note("players' phones reach this server only with --host 0.0.0.0 (or this machine's address)")
    if not loopback:
        _note(f"listening on {args.host}: other machines on the network can reach this server")
    if args.trust_proxy is not None:
        _note(f"trusting X-Forwarded-For from {args.trust_proxy}: the rate limit counts the addresses it names")
    from .server import server_config

    try:
        uvicorn.Server(server_config(app, args.host, args.port, trust_proxy=args.trust_proxy,
                                     request_timeout=args.request_timeout)).run()
    except SystemExit as exc:  # uvicorn exits when the port is taken
        raise OSError(f"cannot listen on {args.host}:{args.port} (is the port in use? try --port)") from exc
    return 0


def add_parser(subparsers) -> None:
    """Register ``web``."""
    from .app import DEFAULT_RATE
    from .play import MAX_GAMES, MAX_OPEN
    from .server import HEAVY_QUEUE, REQUEST_TIMEOUT

    sp = subparsers.add_parser("web", help="board editor, analysis and projection page in the browser",
                               description="Serve the board editor and analysis page (and with --event the "
                                           "director's projection page) on loopback. docs/web.md")
    sp.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"TCP port (default {DEFAULT_PORT})")
    sp.add_argument("--host", default="127.0.0.1",
                    help="address to listen on (default 127.0.0.1, this machine only; 0.0.0.0 = every interface)")
    sp.add_argument("--lexicon", help="lexicon bundle (default: the packaged German list)")
    sp.add_argument("--leaves", help="leave table (.klv/.klv2/.npz) for equity (default: the packaged table)")
    sp.add_argument("--event", metavar="DIR", help="a simultaneous event directory to project on /director")
    sp.add_argument("--admin", action="store_true",
                    help="with --event: the director's arbitration screen on /director/admin, guarded by a random "
                         "key printed once at start")
    sp.add_argument("--players-submit", action="store_true",
                    help="with --event: players enter their moves on their phones (/spieler); personal links are "
                         "printed once (stored hashed in the event directory); use with --host 0.0.0.0")
    sp.add_argument("--new-player-links", action="store_true",
                    help="with --players-submit: make new player links (the old ones stop working)")
    sp.add_argument("--rate", default=DEFAULT_RATE, help=f"API requests per client (default {DEFAULT_RATE})")
    sp.add_argument("--trust-proxy", metavar="ADDR",
                    help="believe X-Forwarded-For from this reverse proxy (comma-separated addresses or networks); "
                         "default: forwarded headers are ignored, the client is the connection's address")
    sp.add_argument("--analysis-queue", type=int, default=HEAVY_QUEUE, metavar="N",
                    help=f"analysis requests (/api/moves, /api/score) admitted at once, running or waiting; "
                         f"more get 503 with Retry-After (default {HEAVY_QUEUE})")
    sp.add_argument("--request-timeout", type=float, default=REQUEST_TIMEOUT, metavar="S",
                    help=f"seconds a client has to send a whole request; slower ones are disconnected "
                         f"(default {REQUEST_TIMEOUT:g})")
    sp.add_argument("--games", metavar="DIR", default=None,
                    help="where the games against the computer (/spielen) are kept (default: $GSE_GAMES_DIR, else "
                         "~/.local/share/german-scrabble-engine/spiele); a game in progress played in the last 30 "
                         "days is never deleted; a full server deletes untouched, finished and idle ones first")
    sp.add_argument("--max-games", type=int, default=MAX_GAMES, metavar="N",
                    help=f"games against the computer kept at most (default {MAX_GAMES}; a few KB each, "
                         f"a reviewed one up to ~100 KB); at most {MAX_OPEN} games in progress per address")
    sp.set_defaults(func=cmd_web)
