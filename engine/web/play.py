"""Gegen den Computer (``/spielen``): games against the engine, kept on disk.

A game is a small JSON file in the games directory (``--games DIR``, default
:func:`default_games_dir`): the players, the level, the rules, the bag's seed
and every action in order (``{"p", "kind", "move" | "tiles"}``). Nothing of a
game lives only in the server's memory: each request reads the file, replays
the actions on a :class:`engine.game.game.Game` (same seed, same draws) and writes
the file again atomically (temp file, fsync, rename), so a game survives a
reload of the page and a restart of the server. A game's id is a random token
and the file's name: who knows it can play and read it (the page keeps its ids
in ``localStorage``).

Which games are deleted (:meth:`GameStore.new`, before a new game is written):
each game has an *owner*, the hash of a random token the page keeps in
``localStorage`` (``gse.spielen.v1``'s ``owner``) and sends with ``/api/play/new``;
a client that sends none (an old page, ``curl``) owns by its address. A token,
not the address, so a phone that changes networks (Wi-Fi to mobile) keeps its
games. When an owner starts a game, its own games beyond its newest :data:`KEEP`
are deleted if they are over or idle (see below); nobody's new game deletes
another's (or their own) game in progress.

One client must not fill the server: each new game also keeps a hash of the
client's address (``"addr"``, :func:`address_of`; an IPv6 address counts by its
/48 network, the largest block an ISP gives one customer), and an address that
already has :data:`MAX_OPEN` games *open* is refused ("too many unfinished games
from your address"); none of them is deleted, since an address can be shared (a
club's Wi-Fi). Open: not over, and changed within :data:`ACTIVE_DAYS` days if
the player has moved in it, within :data:`UNTOUCHED_DAYS` if not. A game in which
the player has never moved (*untouched*: only the engine's first move, or
nothing) holds no work of anybody's, so it does not protect itself for
:data:`ACTIVE_DAYS` days: it is what a flood of new games is made of. Files
without ``"addr"`` (made before) count for no address. An address may also start
at most :data:`MAX_NEW_PER_DAY` games in 24 hours ("too many new games from your
address"; counted in the server's memory, so a restart forgets it), so that one
address cannot churn the whole store by finishing games (finished games count
for no address's :data:`MAX_OPEN`). The first move in an untouched game older
than :data:`UNTOUCHED_DAYS` would make it open again: it is refused while the
address holds :data:`MAX_OPEN` open games, so that an address cannot start games
every day, let them age out of its count and then revive them all with one move
each (report-attack26e E1).

At :data:`MAX_GAMES` files the server deletes only as many games as the new one
needs (usually one), in this order, and refuses ("too many games on this
server") only when none of them is left:

1. untouched games older than :data:`UNTOUCHED_DAYS`, oldest first;
2. an address's untouched games beyond its :data:`UNTOUCHED_KEEP` newest, oldest
   first (an address that keeps starting games and never moves in them cannot
   fill the server, report-attack26f F3; they hold nobody's move);
3. finished games, oldest first, whoever owns them (the file is kept until
   then, so the player can still download it as GCG; an owner's newest finished
   games are *not* protected here: with a fresh owner token per game that would
   let one address fill the server with finished games for good, report-attack26d B1);
4. games the player moved in that have not changed for :data:`ACTIVE_DAYS` days,
   oldest first.

A game the player moved in within :data:`ACTIVE_DAYS` days, and an address's
:data:`UNTOUCHED_KEEP` newest untouched games younger than :data:`UNTOUCHED_DAYS`
(a newcomer still thinking about the first move), are never deleted to make
room: when only such games are left the new game is refused. Filling the server
with such games takes :data:`MAX_GAMES` / :data:`MAX_OPEN` = 500 addresses, each
moving in each of its 40 games at least once a month; fewer addresses cannot
lock a newcomer out. No game in progress is deleted by address: a club's Wi-Fi
or a carrier's NAT puts many players behind one address (report-attack26f F1).
Nothing is deleted wholesale (before, every idle game of every owner went at
once: a player away for five weeks lost the game they had paused). Only regular
files named ``<id>.json`` count; symlinks, other files and files that cannot be
read are never deleted. A game asked for that is not on the server is refused
with "unknown game: it is not on this server (any more) ..." naming these rules.

Every read checks the file (:func:`_check_game`): at most :data:`MAX_GAME_BYTES`,
a JSON object of the shape :meth:`GameStore.new` writes, its ``"id"`` equal to
its name, and actions that replay (each by the player to move; the words of
its plays and its challenges' verdicts are taken as played, so that a word list
changed since, an upgrade that dropped a word, keeps the game: report-attack26g B2). A file that
fails is refused with "this game file is damaged: ..." and never written back.
Its two names must be different, of letters, digits, "-" or "_" (as new() makes them and
:class:`engine.game.game.Game` wants them).

The engine's levels (:data:`LEVELS`):

* ``einsteiger`` — a real word, but not the best: among the placements scoring
  at most :data:`BEGINNER_CAP` points (all placements if none does), one of the
  :data:`BEGINNER_TOP` best by static equity, chosen at random (seeded by the
  game's seed and the turn); exchanges only when no placement is possible.
* ``stark`` — static equity (:func:`engine.game.equity.choose`, the packaged leave table).
* ``meister`` — the deeper answer for the position's phase in :data:`MASTER_SECONDS`
  seconds (:func:`engine.analysis.phase.phase_answer` in the web's worker process: the
  endgame solver with the bag empty, the pre-endgame with 1–3 tiles, else a 2-ply
  simulation of the best candidates); static equity when that worker is still busy after
  :data:`MASTER_WAIT` seconds (a stranger's review there can take minutes).

Rules: ``home`` (a word not in the list is refused with the reason) or
``tournament`` (SDeV: the engine challenges a word not in the list, the play is
withdrawn and the turn is lost; the engine's own plays are always valid words, so
a challenge of them costs the challenger the penalty — the page does not offer it).
The end of the game and its settlement are :class:`engine.game.game.Game`'s.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import random
import re
import secrets
import stat
import threading
import time
from dataclasses import dataclass
from pathlib import Path

__all__ = ["ACTIVE_DAYS", "BEGINNER_CAP", "BEGINNER_TOP", "GameStore", "KEEP", "LEVELS", "MASTER_SECONDS",
           "MASTER_WAIT", "MAX_GAMES", "MAX_GAME_BYTES", "MAX_NEW_PER_DAY", "MAX_OPEN", "PlayError", "StaleTurn", "UNTOUCHED_DAYS",
           "UNTOUCHED_KEEP", "UnknownGame", "address_of",
           "default_games_dir", "owner_of"]

KEEP = 20
"""Games kept per owner when it starts a new one (the newest by last change); its older ones go when over or idle.
A full server does not respect it for finished games (module doc)."""
ACTIVE_DAYS = 30
"""A game not over, in which the player has moved, that changed in the last this many days is never deleted."""
UNTOUCHED_DAYS = 1.0
"""A game in which the player has never moved (untouched) and that is older than this many days no longer counts
toward its address's :data:`MAX_OPEN` and is the first to go when the server is full; a younger one is never deleted
to make room (module doc)."""
MAX_GAMES = 20_000
"""Game files on the server at most (``engine web --max-games``): a new game beyond deletes the fewest games it can:
untouched ones older than :data:`UNTOUCHED_DAYS`, an address's untouched ones beyond its :data:`UNTOUCHED_KEEP`
newest, then finished ones, then idle ones (module doc); when none may go, it is refused. 20,000 files of a few KB
each (an untouched game ~0.4 KB, a finished one 2-5 KB, with its review up to ~100 KB); a new game scans the
directory: ~0.2 s of CPU at 20,000 files (docs/web.md). With :data:`MAX_OPEN` = 40, filling it with games that may
not go takes 500 addresses (IPv4, or IPv6 /48)."""
UNTOUCHED_KEEP = 3
"""On a full server an address's untouched games younger than :data:`UNTOUCHED_DAYS` beyond its newest this many
may go (oldest first), before anybody's finished game: a flood of new games renewed every day cannot fill the server
(report-attack26f F3), and a newcomer's one new game (or a club's few) stays."""
MAX_OPEN = 40
"""Open games (not over and not idle, module doc) per client address at most: a new one beyond is refused."""
MAX_NEW_PER_DAY = 200
"""New games per client address (:func:`address_of`) in 24 hours at most (kept in memory): a new one beyond is
refused, so that one address cannot replace the whole store with its own finished games."""
MAX_GAME_BYTES = 1_000_000
"""Largest game file read (a finished game with its review is some 10-100 KB); larger: refused as damaged."""
LEVELS = ("einsteiger", "stark", "meister")
"""The engine's strengths, weakest first."""
BEGINNER_CAP = 24
"""Einsteiger: placements scoring more than this are left out (unless nothing else is possible)."""
BEGINNER_TOP = 8
"""Einsteiger: the move is drawn from this many best (by static equity) of the capped placements."""
MASTER_SECONDS = 3.0
"""Meister: time per move for the phase's search (seconds)."""
MASTER_WAIT = 1.0
"""Meister: at most this many seconds in the deep worker's line; when it is still busy, static equity."""
PLAY_RULES = ("home", "tournament")
_ID = re.compile(r"[A-Za-z0-9_-]{8,40}")
KINDS = ("play", "withdrawn", "exchange", "pass")
"""The kinds of a game file's actions."""


class PlayError(ValueError):
    """A request the game cannot take (unknown game, not your turn, game over, a bad move); the message says why."""


class UnknownGame(PlayError):
    """No game file of that id (never made, or deleted)."""


class StaleTurn(PlayError):
    """A move sent for a position the game has left (another tab or window moved, or the same move sent twice)."""


def _damaged(detail: str) -> PlayError:
    return PlayError(f"this game file is damaged: {detail}")


def owner_of(token: str | None, address: str | None) -> str:
    """The owner key of a new game: ``"t:"`` + a hash of the page's random token, else ``"a:"`` + a hash of
    the client's address (neither is stored in clear)."""
    if token:
        return "t:" + hashlib.sha256(token.encode("utf-8")).hexdigest()[:24]
    return "a:" + hashlib.sha256((address or "?").encode("utf-8")).hexdigest()[:24]


def address_of(address: str | None) -> str:
    """The address key of a new game (``"addr"`` in its file; :data:`MAX_OPEN`): a hash of the client's IPv4
    address, of an IPv6 address's /48 network, or of the text as given when it is not an IP address
    (:func:`engine.web.server.network_of`, which says why /48; a large organisation behind one /48 shares one
    :data:`MAX_OPEN`, as a club behind one IPv4 address does)."""
    from .server import network_of

    return owner_of(None, network_of(address))


def _check_game(data, gid: str) -> dict:
    """``data`` (a parsed game file named ``gid``) if it has the shape :meth:`GameStore.new` writes.

    Raises:
        PlayError: "this game file is damaged: ..." naming the first field that is wrong.
    """
    if not isinstance(data, dict):
        raise _damaged("not a JSON object")
    try:  # JSON may escape a lone surrogate ("\\ud800"): valid JSON, but no answer holding it can be sent
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except (UnicodeEncodeError, RecursionError, ValueError):
        raise _damaged("it holds text that is not UTF-8 (a lone surrogate)") from None
    for key in ("version", "id", "created", "level", "rules", "names", "you", "seed", "actions"):
        if key not in data:
            raise _damaged(f"field '{key}' is missing")

    def whole(v) -> bool:
        return isinstance(v, int) and not isinstance(v, bool)

    def number(v) -> bool:
        return (whole(v) or isinstance(v, float)) and math.isfinite(v) and 0 <= v < 1e11

    def bad(key: str, want: str) -> PlayError:
        return _damaged(f"field '{key}' must be {want}")

    if not whole(data["version"]) or data["version"] != 1:
        raise bad("version", "1")
    if data["id"] != gid:
        shown = data["id"] if isinstance(data["id"], str) and len(data["id"]) <= 40 else "?"
        raise _damaged(f"its id '{shown}' is not its file name")
    for key in ("created", "updated"):
        if key in data and not number(data[key]):
            raise bad(key, "a time (seconds since 1970)")
    if data["level"] not in LEVELS:
        raise bad("level", "one of " + ", ".join(LEVELS))
    if data["rules"] not in PLAY_RULES:
        raise bad("rules", "one of " + ", ".join(PLAY_RULES))
    names = data["names"]
    if not (isinstance(names, list) and len(names) == 2
            and all(isinstance(n, str) and re.fullmatch(r"[\w-]{1,40}", n) for n in names)
            and names[0] != names[1]):  # as new() makes them: no space, control (NUL), format (U+202E, U+200B),
        # lone surrogate, '#' or '>' (a GCG line's start): what engine.game.game.name_fault refuses, and more
        raise bad("names", "two different names of letters, digits, '-' or '_'")
    if not whole(data["you"]) or data["you"] not in (0, 1):
        raise bad("you", "0 or 1")
    if not whole(data["seed"]) or not 0 <= data["seed"] < 2**63:
        raise bad("seed", "a whole number")
    if not isinstance(data["actions"], list):
        raise bad("actions", "a list")
    for i, a in enumerate(data["actions"], 1):
        if not isinstance(a, dict):
            raise _damaged(f"action {i} is not an object")
        if a.get("kind") not in KINDS:
            raise _damaged(f"action {i}: the kind must be one of " + ", ".join(KINDS))
        if not whole(a.get("p")) or a["p"] not in (0, 1):
            raise _damaged(f"action {i}: the player must be 0 or 1")
        if a["kind"] in ("play", "withdrawn") and not (isinstance(a.get("move"), str) and 0 < len(a["move"]) <= 40):
            raise _damaged(f"action {i}: the move is missing")
        if a["kind"] == "exchange" and not (isinstance(a.get("tiles"), str) and 0 < len(a["tiles"]) <= 7):
            raise _damaged(f"action {i}: the exchanged tiles are missing")
    for key in ("owner", "addr"):
        if key in data and not isinstance(data[key], str):
            raise bad(key, "a text")
    if "over" in data and not isinstance(data["over"], bool):
        raise bad("over", "true or false")
    if "review" in data and not isinstance(data["review"], dict):
        raise bad("review", "an object")
    return data


@dataclass
class _File:
    """A game file as :meth:`GameStore._scan` sees it."""

    gid: str
    mtime: float
    mtime_ns: int
    owner: str | None   # None: made before owners, or unreadable
    over: bool
    readable: bool
    addr: str | None = None  # None: made before addresses were kept, or unreadable
    touched: bool = True  # the player has moved in it (False: only the engine's moves, or none)


def default_games_dir() -> Path:
    """``$GSE_GAMES_DIR``, else ``$XDG_DATA_HOME/german-scrabble-engine/spiele`` (``~/.local/share/...``)."""
    env = os.environ.get("GSE_GAMES_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "german-scrabble-engine" / "spiele"


class GameStore:
    """The games against the computer in one directory.

    Args:
        directory: where the game files live (created on the first game).
        lexicon: the word list; table: the leave table (static equity).
        deep: a :class:`engine.web.deep.DeepWorker` for the Meister level (``None``: Meister plays static equity).
        keep: games kept per owner; active_days: a game not over, moved in, that changed within this many days is
            never deleted; max_games: game files at most; max_open: open games per client address at most;
            untouched_days: a game never moved in older than this is idle (module doc); max_new_per_day: new games
            per address in 24 hours at most; untouched_keep: an address's untouched games kept on a full server
            (:data:`UNTOUCHED_KEEP`).
    """

    def __init__(self, directory: str | Path, lexicon, table, deep=None, keep: int = KEEP,
                 active_days: float = ACTIVE_DAYS, max_games: int = MAX_GAMES, max_open: int = MAX_OPEN,
                 untouched_days: float = UNTOUCHED_DAYS, max_new_per_day: int = MAX_NEW_PER_DAY,
                 untouched_keep: int = UNTOUCHED_KEEP):
        self.dir = Path(directory)
        self.lexicon = lexicon
        self.table = table
        self.deep = deep
        self.keep = keep
        self.active_days = active_days
        self.max_games = max_games
        self.max_open = max_open
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()
        self._new_lock = threading.Lock()
        self.untouched_days = untouched_days
        self.max_new_per_day = max_new_per_day
        self.untouched_keep = untouched_keep
        self._made: dict[str, list[float]] = {}  # address -> the times of its new games in the last 24 hours
        self._seen: dict[str, tuple[tuple[int, int, int], str | None, bool, bool, str | None, bool]] = {}
        self._folder = self._folder_id()  # the directory this server writes to (None: not made yet)

    # -- files -------------------------------------------------------------------------
    def _folder_id(self) -> tuple[int, int] | None:
        try:
            st = os.stat(self.dir)
        except OSError:
            return None
        return (st.st_dev, st.st_ino)

    def _check_folder(self) -> None:
        """Refuse to write when the games directory is no longer the one this server started with: moved,
        deleted or replaced while it ran, a second ``engine web`` may use a new directory at that path, and both
        would answer moves of one game (report-attack26l: `mv DIR DIR.old`, a second server on DIR, and one of
        two moves both servers accepted was lost). The lock of ``engine web`` (:func:`engine.web.cli.lock_games_dir`)
        is on the directory it found at the start.

        Raises:
            PlayError: the directory changed; nothing is written until the server is restarted.
        """
        now = self._folder_id()
        if self._folder is None:
            self._folder = now  # None while the first game has not made it yet
        elif now != self._folder:
            raise PlayError("the games folder of this server was moved or deleted while it ran: it saves nothing "
                            "more; the server must be restarted")

    def _path(self, gid: str) -> Path:
        if not isinstance(gid, str) or not _ID.fullmatch(gid):
            raise PlayError("unknown game")
        return self.dir / f"{gid}.json"

    def _lock(self, gid: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(gid, threading.Lock())

    def _read(self, gid: str) -> dict:
        """The game file of ``gid``, checked (:func:`_check_game`).

        Raises:
            UnknownGame: no such file; PlayError: the file is not a regular file, too large, not UTF-8
                JSON, or damaged.
        """
        p = self._path(gid)
        try:
            fd = os.open(p, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        except FileNotFoundError:
            raise UnknownGame(self.unknown_reason()) from None
        except OSError as exc:
            if os.path.islink(p):
                raise _damaged("it is a symbolic link, not a file") from None
            raise PlayError(f"the game file cannot be read ({exc.strerror or exc})") from None
        try:
            with os.fdopen(fd, "rb") as fh:
                if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                    raise _damaged("it is not a regular file")
                raw = fh.read(MAX_GAME_BYTES + 1)
        except OSError as exc:
            raise PlayError(f"the game file cannot be read ({exc.strerror or exc})") from None
        if len(raw) > MAX_GAME_BYTES:
            raise PlayError(f"the game file is too large (over {MAX_GAME_BYTES // 1_000_000} MB): it cannot be a game")
        try:
            data = json.loads(raw.decode("utf-8"))
        except (ValueError, RecursionError) as exc:
            raise PlayError(f"the game file cannot be read ({exc})") from None
        return _check_game(data, gid)

    def unknown_reason(self) -> str:
        """Why a game may be missing (the refusal of a game id with no file; German: :func:`engine.web.german.play_de`)."""
        return (f"unknown game: it is not on this server (any more); when the server is full it deletes finished "
                f"games, games nobody moved in for {self.active_days:g} days, and games never moved in after "
                f"{self.untouched_days:g} day(s) (sooner when one address holds more than {self.untouched_keep})")

    def _write(self, gid: str, meta: dict, g=None) -> None:
        """Write ``meta`` to ``gid``'s file (the name read, never ``meta``'s own id) atomically; ``g``: the game
        replayed, whose end is kept as ``"over"`` (for pruning)."""
        from lexicon_tools.normalize import WordListError, write_atomic

        meta["updated"] = time.time()
        if g is not None:
            meta["over"] = bool(g.over)
        self._check_folder()
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
            if self._folder is None:
                self._folder = self._folder_id()
            write_atomic(self._path(gid), json.dumps(meta, ensure_ascii=False, indent=1))
        except (OSError, WordListError) as exc:  # the server's path goes to its log, never to the player
            import logging

            logging.getLogger("engine.web").warning("%s", exc)
            why = str(exc).rsplit(": ", 1)[-1] if isinstance(exc, WordListError) else (exc.strerror or str(exc))
            if why in ("No space left on device", "Disk quota exceeded"):
                raise PlayError("the server's disk is full: the game was not saved; try again later") from None
            raise PlayError(f"the server cannot save the game ({why})") from None

    def _scan(self) -> list[_File]:
        """The game files: regular files named ``<id>.json`` (symlinks, other files and entries that vanish or
        cannot be stat'ed are skipped), with their owner and end read once per change."""
        out = []
        try:
            it = os.scandir(self.dir)
        except OSError:
            return out
        seen = {}
        with it:
            for e in it:
                gid = e.name[:-5]
                if not e.name.endswith(".json") or not _ID.fullmatch(gid):
                    continue
                try:
                    if not e.is_file(follow_symlinks=False):
                        continue
                    st = e.stat(follow_symlinks=False)
                except OSError:
                    continue
                sig = (st.st_ino, st.st_size, st.st_mtime_ns)
                known = self._seen.get(gid)
                if known is None or known[0] != sig:
                    owner, over, readable, addr, touched = None, False, False, None, True
                    if st.st_size <= MAX_GAME_BYTES:
                        try:
                            data = json.loads(Path(e.path).read_bytes().decode("utf-8"))
                            readable = isinstance(data, dict)
                            if readable:
                                owner = data.get("owner") if isinstance(data.get("owner"), str) else None
                                over = data.get("over") is True
                                addr = data.get("addr") if isinstance(data.get("addr"), str) else None
                                acts = data.get("actions")
                                touched = not isinstance(acts, list) or any(
                                    isinstance(a, dict) and a.get("p") == data.get("you") for a in acts)
                        except (OSError, ValueError, RecursionError):
                            pass
                    known = (sig, owner, over, readable, addr, touched)
                seen[gid] = known
                out.append(_File(gid, st.st_mtime, st.st_mtime_ns, *known[1:]))
        self._seen = seen
        return out

    def _make_room(self, owner: str, address: str | None) -> None:
        """Before a new game of ``owner`` from ``address`` (:func:`address_of`; ``None``: not counted): refuse
        an address with :attr:`max_open` open games (deleting nothing); delete ``owner``'s games beyond its
        newest :attr:`keep` - 1 (the new one makes :attr:`keep`), and those of the files without an owner
        beyond :attr:`keep`, that are over or idle; at :attr:`max_games` files, delete as few other games as
        make room, in the order of the module doc (:meth:`_room_order`); refuse when none may go. An address
        that started :attr:`max_new_per_day` games in the last 24 hours is refused first.

        Raises:
            PlayError: "too many new games from your address in 24 hours (N)", "too many unfinished games from
                your address (N)" or "too many games on this server (N)".
        """
        files = self._scan()
        now = time.time()
        stale = self._stale_test(now)

        if address is not None:
            made = [t for t in self._made.get(address, ()) if t > now - 86400.0]
            if len(made) >= self.max_new_per_day:
                raise PlayError(f"too many new games from your address in 24 hours ({self.max_new_per_day}); "
                                "no game was deleted: try again tomorrow")
            if self._open_count(files, address, now) >= self.max_open:
                raise PlayError(f"too many unfinished games from your address ({self.max_open}); no game was "
                                "deleted: finish one of them, or try again later")
        groups: dict[str | None, list[_File]] = {owner: [], None: []}  # only these two are pruned here
        for f in files:
            if f.owner == owner or f.owner is None:
                groups[f.owner].append(f)
        for group in groups.values():
            group.sort(key=lambda f: f.mtime, reverse=True)
        left = len(files)
        gone: set[str] = set()
        for group, keep in ((owner, max(self.keep - 1, 0)), (None, self.keep)):
            if group is None and owner is None:
                continue
            for f in groups.get(group, [])[keep:]:
                if f.readable and (f.over or stale(f)) and self._delete(f):
                    gone.add(f.gid)
                    left -= 1
        if left >= self.max_games:  # the server is full: as few of the others' games as make room
            order = list(self._room_order([f for f in files if f.gid not in gone], stale))
            if left - len(order) < self.max_games:  # else nothing is deleted: it would not make room anyway
                for f in order:                     # (report-attack26i H1: a lowered --max-games wiped them all)
                    if left < self.max_games:
                        break
                    if self._delete(f):
                        left -= 1
        if left >= self.max_games:
            raise PlayError(f"too many games on this server ({self.max_games}); no game in progress was "
                            "deleted to make room: try again later, or ask the host")

    def _stale_test(self, now: float):
        """``stale(f)``: the game is idle, unchanged for :attr:`active_days` (moved in) or :attr:`untouched_days`
        (untouched) before ``now``."""
        idle = now - self.active_days * 86400.0
        fresh = now - self.untouched_days * 86400.0
        return lambda f: f.mtime < (idle if f.touched else fresh)

    def _open_count(self, files: list[_File], address: str, now: float) -> int:
        """Open games of ``address`` among ``files``: not over and not idle (:meth:`_stale_test`)."""
        stale = self._stale_test(now)
        return sum(1 for f in files if f.addr == address and f.readable and not f.over and not stale(f))

    def _room_order(self, files: list[_File], stale):
        """The games that may go to make room on a full server, in the order they go (module doc): untouched
        and idle ones; an address's untouched ones beyond its :attr:`untouched_keep` newest; finished ones (any
        owner); games moved in but idle; each oldest first. A game moved in and not idle, and an address's
        :attr:`untouched_keep` newest untouched ones not idle, never. Yields :class:`_File`; a file the caller
        could not delete is passed over."""
        cands = [f for f in files if f.readable]
        yield from sorted((f for f in cands if not f.over and not f.touched and stale(f)), key=lambda f: f.mtime)
        young: dict[str | None, list[_File]] = {}
        for f in cands:
            if not f.over and not f.touched and not stale(f):
                young.setdefault(f.addr, []).append(f)
        extra = [f for addr, fs in young.items() if addr is not None
                 for f in sorted(fs, key=lambda f: f.mtime, reverse=True)[self.untouched_keep:]]
        yield from sorted(extra, key=lambda f: f.mtime)
        yield from sorted((f for f in cands if f.over), key=lambda f: f.mtime)
        yield from sorted((f for f in cands if not f.over and f.touched and stale(f)), key=lambda f: f.mtime)

    def _delete(self, f: _File) -> bool:
        """Delete a game file unless a request holds it or it changed since it was scanned."""
        lock = self._lock(f.gid)
        if not lock.acquire(blocking=False):
            return False
        try:
            p = self._path(f.gid)
            try:
                if os.lstat(p).st_mtime_ns != f.mtime_ns:
                    return False
                p.unlink()
            except OSError:
                return False
            with self._guard:
                self._locks.pop(f.gid, None)
            return True
        finally:
            lock.release()

    # -- the game --------------------------------------------------------------------------
    def _replay(self, meta: dict):
        from engine.game.game import Game, rules_by_name
        from engine.game.gcg import record_lexicon_name

        names = meta["names"]
        g = Game(names, self.lexicon, rules=rules_by_name(meta["rules"]), seed=meta["seed"], keep_undo=False,
                 lexicon_name=record_lexicon_name(self.lexicon))
        for i, a in enumerate(meta["actions"], 1):
            if g.over:
                raise _damaged(f"action {i}: the game was over before it")
            if a["p"] != g.to_move:
                raise _damaged(f"action {i}: player {a['p']} is not the player to move ({g.to_move})")
            try:
                # the verdicts of the game as it was played stand: a word list changed since (an upgrade that
                # dropped a word) must not make a game in progress unreadable (report-attack26g B2)
                if a["kind"] == "play":
                    g.play(a["move"], phony_ok=True)
                elif a["kind"] == "withdrawn":
                    g.play(a["move"], challenge=1 - g.to_move, withdrawn=True)
                elif a["kind"] == "exchange":
                    g.exchange(a["tiles"])
                else:
                    g.pass_turn()
            except Exception as exc:  # a move the game refuses: the file was changed
                reason = getattr(exc, "reason", None) or str(exc) or type(exc).__name__
                raise _damaged(f"action {i} ({a.get('move') or a['kind']}): {reason}") from None
        return g

    def new(self, level: str, rules: str = "home", name: str = "Du", seed: int | None = None,
            owner: str = "a:?", gid: str | None = None, address: str | None = None) -> dict:
        """Start a game (the engine moves first when the draw says so); returns :meth:`state`. First the
        owner's old games are pruned (module doc).

        Args:
            owner: who starts it (:func:`owner_of`).
            address: the client's address key (:func:`address_of`), kept as ``"addr"``; at most
                :attr:`max_open` games not over per address (``None``: not kept, not counted).
            gid: the id the page chose (16 to 40 of ``A-Za-z0-9_-``, random), so that it can keep the id
                before the answer comes (the first start may compile for minutes) and send the same request
                again after a reload: a game with that id already on disk is answered as :meth:`state`, not
                made twice.

        Raises:
            PlayError: an unknown level or rules, a bad name or id; the address has :attr:`max_open` games not
                over; the server holds :attr:`max_games` games after pruning.
        """
        if level not in LEVELS:
            raise PlayError(f"level {level!r}: choose one of {', '.join(LEVELS)}")
        if rules not in PLAY_RULES:
            raise PlayError(f"rules {rules!r}: choose one of {', '.join(PLAY_RULES)}")
        nick = re.sub(r"[^\w-]", "", (name or "").strip())[:20] or "Du"
        engine = "Computer" if nick.lower() != "computer" else "Engine"
        if gid is not None and (not isinstance(gid, str) or len(gid) < 16 or not _ID.fullmatch(gid)):
            raise PlayError("game id: 16 to 40 letters, digits, '-' or '_'")
        seed = secrets.randbelow(2**31) if seed is None else int(seed)
        made = gid or secrets.token_urlsafe(12)
        meta = {"version": 1, "id": made, "created": time.time(), "level": level, "rules": rules,
                "names": [nick, engine], "you": 0, "seed": seed, "actions": [], "owner": str(owner), "over": False}
        if address is not None:
            meta["addr"] = str(address)
        with self._lock(made):
            if gid is not None and self._path(gid).exists():
                meta = self._read(gid)  # the same request again (a reload while the first one ran)
            else:
                with self._new_lock:  # one new game at a time: the count below stays true until it is written
                    self._check_folder()  # never delete to make room in another server's directory
                    self._make_room(meta["owner"], meta.get("addr"))
                    self._write(made, meta)
                    if address is not None:
                        self._count_new(meta["addr"], meta["created"])
            g = self._replay(meta)
            self._engine_turns(meta, g)
            return self._state(meta, g)

    def _count_new(self, address: str, when: float) -> None:
        """Count a new game of ``address`` for :attr:`max_new_per_day` (forgetting what is older than 24 hours)."""
        cut = when - 86400.0
        self._made[address] = [t for t in self._made.get(address, ()) if t > cut] + [when]
        if len(self._made) > 10_000:  # many addresses: drop those with nothing in the last 24 hours
            self._made = {a: ts for a, ts in self._made.items() if ts[-1] > cut}

    def state(self, gid: str) -> dict:
        """The game as the player sees it (see :meth:`_state`); the engine moves first if it is its turn."""
        with self._lock(gid):
            meta = self._read(gid)
            g = self._replay(meta)
            self._engine_turns(meta, g)
            return self._state(meta, g)

    def _revival(self, gid: str, meta: dict) -> bool:
        """Whether a move now is the first move in an untouched game older than :attr:`untouched_days` (no
        longer open, module doc): it makes the game open again (:meth:`_check_revival`)."""
        addr = meta.get("addr")
        if not isinstance(addr, str) or any(a.get("p") == meta.get("you") for a in meta.get("actions", [])):
            return False
        try:
            return os.stat(self._path(gid)).st_mtime < time.time() - self.untouched_days * 86400.0
        except OSError:
            return False

    def _check_revival(self, meta: dict) -> None:
        """The first move in an untouched game older than :attr:`untouched_days` (:meth:`_revival`) makes it open
        again: refused while its address already holds :attr:`max_open` open games. Else one address could
        start games every day, let them age out of its count, then move once in each and hold thousands of
        games in progress that no full server may delete (report-attack26e E1). The caller holds ``_new_lock``
        until the move is written, so that parallel first moves cannot all pass the count (report-attack26g R1).

        Raises:
            PlayError: "too many unfinished games from your address (N) ...".
        """
        if self._open_count(self._scan(), meta["addr"], time.time()) >= self.max_open:
            raise PlayError(f"too many unfinished games from your address ({self.max_open}); this game waited "
                            f"more than {self.untouched_days:g} day(s) for your first move and is not played on: "
                            "finish one of the others, or start a new game later")

    def move(self, gid: str, text: str, turn: int | None = None) -> dict:
        """The player's move, then the engine's answer; returns :meth:`state` with ``"answer"`` (the
        engine's turn, or ``None``) and ``"challenged"`` (a withdrawn play's invalid words).

        ``text``: ``8H WORT`` / ``H8 WO(R)T`` (blank lowercase), ``-ABC`` (exchange A, B, C; ``?`` blank),
        ``-`` (pass). ``turn``: the number of turns in the state the page shows (``len(state["turns"])``);
        given and not the game's, the move is refused (``None``: not checked, for old clients), so that a tab
        left behind, or a move sent twice, is not played as the player's next turn (report-attack26d B8).

        Raises:
            StaleTurn: ``turn`` is not the game's number of turns ("the game has moved on in another tab ...").
            PlayError: unknown game, game over, not the player's turn, an illegal move (the reason).
        """
        from engine.game.game import GameError
        from engine.position.scorer import IllegalMove, check_move

        if not isinstance(text, str) or not text.strip() or len(text) > 40:
            raise PlayError("type a move such as '8H HAUS', '-ABC' (exchange) or '-' (pass)")
        text = text.strip()
        with self._lock(gid), contextlib.ExitStack() as revived:
            meta = self._read(gid)
            if self._revival(gid, meta):  # the count and the write under one lock (game lock, then _new_lock,
                revived.enter_context(self._new_lock)  # as in new(); _delete never waits for a game lock)
                self._check_revival(meta)
            g = self._replay(meta)
            if turn is not None and turn != len(g.record().turns):
                raise StaleTurn(f"the game has moved on in another tab or window (it has {len(g.record().turns)} "
                                f"turns, this page showed {turn}); the move was not played")
            if g.over:
                raise PlayError("the game is over")
            if g.to_move != meta["you"]:
                raise PlayError("it is not your turn")
            challenged = []
            try:
                if text == "-":
                    g.pass_turn()
                    act = {"kind": "pass"}
                elif text.startswith("-"):
                    tiles = text[1:].strip()
                    g.exchange(tiles)
                    act = {"kind": "exchange", "tiles": tiles}
                else:
                    scored = check_move(g.board, text, None, rack=g.racks[g.to_move])
                    invalid = [w for w, _s in scored.words if w not in self.lexicon]
                    if invalid and meta["rules"] == "tournament":
                        t = g.play(text, challenge=1 - g.to_move)
                        act = {"kind": "withdrawn", "move": t.move.notation}
                        challenged = list(dict.fromkeys(invalid))
                    else:
                        t = g.play(text)  # home rules: a word not in the list raises with the reason
                        act = {"kind": "play", "move": t.move.notation}
            except (IllegalMove, GameError, ValueError) as exc:
                raise PlayError(getattr(exc, "reason", None) or str(exc)) from None
            act["p"] = meta["you"]
            meta["actions"].append(act)
            meta.pop("review", None)
            self._write(gid, meta, g)
            revived.close()  # the game is open now: the next count sees it
            try:
                answer = self._engine_turns(meta, g)
            except PlayError as exc:  # the player's move is on disk: say so (report-attack26l F3)
                raise PlayError(f"your move was saved; the computer's answer was not: {exc}") from None
            out = self._state(meta, g)
            out["answer"] = answer
            out["challenged"] = challenged
            return out

    def gcg(self, gid: str) -> tuple[str, str]:
        """``(file name, GCG text)`` of a game (finished or not). While the game runs, the file has no
        ``#seed`` and the computer's racks are written ``...``: the seed gives every coming draw, and the
        computer's racks the tiles it kept."""
        from engine.game.gcg import write_gcg

        with self._lock(gid):
            meta = self._read(gid)
            g = self._replay(meta)
        stamp = time.strftime("%Y-%m-%d-%H%M", time.localtime(meta["created"]))
        text = write_gcg(g)
        if not g.over:  # the seed gives every coming draw, the computer's racks its tiles kept (report-attack26i)
            engine = f">{meta['names'][1 - meta['you']]}: "
            lines = [ln for ln in text.splitlines() if not ln.startswith("#seed ")]
            lines = [engine + "... " + ln[len(engine):].split(" ", 1)[1] if ln.startswith(engine) else ln
                     for ln in lines]
            text = "\n".join(lines) + "\n"
        return f"spiel-{stamp}-{meta['level']}.gcg", text

    def record(self, gid: str):
        """The game's :class:`engine.game.game.GameRecord`, and its file data."""
        with self._lock(gid):
            meta = self._read(gid)
            g = self._replay(meta)
        return g.record(), meta

    def save_review(self, gid: str, review: dict) -> None:
        """Keep a finished game's review in its file (``state`` returns it as ``"review"``)."""
        with self._lock(gid):
            meta = self._read(gid)
            meta["review"] = review
            self._write(gid, meta)

    def summaries(self, ids: list[str]) -> tuple[list[dict], list[dict]]:
        """Short descriptions of the games named, newest first (unknown ids left out), and the damaged ones
        (``{"id", "error"}``: a game file that cannot be read or replayed; the others are still listed)."""
        out, damaged = [], []
        for gid in ids[: self.keep * 2]:
            try:
                meta = self._read(gid)
                g = self._replay(meta)
            except UnknownGame:
                continue
            except PlayError as exc:
                damaged.append({"id": gid, "error": str(exc)})
                continue
            except ValueError as exc:  # a file the check let through that the game refuses: one game, not the list
                damaged.append({"id": gid, "error": str(_damaged(str(exc)))})
                continue
            out.append({"id": gid, "created": meta["created"], "updated": meta.get("updated", meta["created"]),
                        "level": meta["level"], "rules": meta["rules"], "names": meta["names"],
                        "scores": list(g.scores), "over": bool(g.over), "turns": len(g.record().moves)})
        out.sort(key=lambda d: -d["updated"])
        return out, damaged

    # -- the engine ------------------------------------------------------------------------
    def _engine_turns(self, meta: dict, g) -> dict | None:
        """Let the engine move while it is its turn; returns its last turn (JSON) or ``None``."""
        last = None
        while not g.over and g.to_move != meta["you"]:
            act = self._engine_action(meta, g)
            p = g.to_move
            if act["kind"] == "play":
                t = g.play(act["move"])
                act["move"] = t.move.notation
            elif act["kind"] == "exchange":
                t = g.exchange(act["tiles"])
            else:
                t = g.pass_turn()
            act["p"] = p
            meta["actions"].append(act)
            self._write(meta["id"], meta, g)
            last = _turn_json(t, meta["names"])
        return last

    def _engine_action(self, meta: dict, g) -> dict:
        from engine.game.equity import best_equity, choose

        level = meta["level"]
        if level == "meister" and self.deep is not None:
            act = self._master(g, meta.get("addr") or meta["id"])
            if act is not None:
                return act
        if level == "einsteiger":
            rack = g.racks[g.to_move]
            cands = best_equity(g.board, rack, self.lexicon, bag=len(g.bag), n=60, table=self.table,
                                checks=g.checks, exchanges=False)
            plays = [c for c in cands if c.kind == "play"]
            capped = [c for c in plays if c.score <= BEGINNER_CAP] or plays
            if capped:
                rng = random.Random(f"{meta['seed']}:{len(meta['actions'])}")
                c = rng.choice(capped[:BEGINNER_TOP])
                return {"kind": "play", "move": c.move.notation}
        c = choose(g, self.table)
        if c.kind == "play":
            return {"kind": "play", "move": c.move.notation}
        if c.kind == "exchange":
            return {"kind": "exchange", "tiles": c.exchanged}
        return {"kind": "pass"}

    def _master(self, g, who: str) -> dict | None:
        """The Meister's move from the deep worker, waiting in the turn of ``who`` (the game's address hash, else
        its id): one address's games share one turn, so 40 open Meister games of one address take no more of the
        deep worker than one (report-attack26l: each game queued as a client of its own, and a stranger's
        1-second analysis waited 42 s). ``None``: the worker is busy (static equity then)."""
        from .server import Busy

        pos = g.position()
        cgp = pos.to_cgp() if pos.opponent_rack is None else _without_opponent(pos).to_cgp()
        try:  # a busy worker (a stranger's review can take minutes): static equity now (report-attack26g D2)
            ans = self.deep.run(cgp, MASTER_SECONDS, client=f"spielen:{who}", wait=MASTER_WAIT)
        except Busy:
            return None
        move = ans.get("move") if ans.get("phase") == "endgame" else (ans.get("moves") or [{}])[0].get("move")
        if not move:
            return None
        if move in ("pass", "-"):
            return {"kind": "pass"}
        if move.startswith("-"):
            return {"kind": "exchange", "tiles": move[1:]}
        return {"kind": "play", "move": move}

    # -- what the page sees --------------------------------------------------------------------
    def _state(self, meta: dict, g) -> dict:
        """The game for the page: board (15 rows, ``.`` empty, lowercase blanks), the player's rack, scores,
        bag count, unseen tiles (bag + the engine's rack), the score pad, the result when over, and a CGP of
        the player's view (for the word checker)."""
        from engine.game.game import Kind

        a = g.alphabet
        you = meta["you"]
        rec = g.record()
        pos = g.position() if g.to_move == you else None
        view = _player_view(g, you)
        unseen = view.unseen()
        out = {"id": meta["id"], "level": meta["level"], "rules": meta["rules"], "names": meta["names"],
               "you": you, "to_move": g.to_move, "over": bool(g.over), "scores": list(g.scores),
               "board": g.board.rows_text(), "rack": a.rack_string(g.racks[you]), "bag": len(g.bag),
               "unseen": a.rack_string(unseen), "cgp": view.to_cgp(), "created": meta["created"],
               "turns": [_turn_json(t, meta["names"]) for t in rec.turns],
               "can_exchange": len(g.bag) >= g.rules.min_bag_for_exchange}
        del pos
        if g.over:
            res = g.result()
            out["result"] = {"scores": list(res.scores), "winners": list(res.winners), "draw": res.draw,
                             "end_reason": res.end_reason,
                             "settlement": [_turn_json(t, meta["names"]) for t in rec.turns
                                            if t.kind in (Kind.RACK, Kind.OUT)]}
            if "review" in meta:
                out["review"] = meta["review"]
        return out


def _without_opponent(pos):
    from dataclasses import replace

    return replace(pos, opponent_rack=None)


def _player_view(g, seat: int):
    """The position as ``seat`` sees it: its own rack, the opponent's unknown, scores (seat first)."""
    from engine.position.cgp import Position

    other = 1 - seat
    return Position(g.board.copy(), g.racks[seat].copy(), None, (g.scores[seat], g.scores[other]),
                    g.scoreless_turns, {"bag": str(len(g.bag))})


def _turn_json(t, names) -> dict:
    """One score-pad entry for the page: ``{"player", "kind", "move", "score", "total", "rack"?, "words", "tiles"}``."""
    from engine.game.game import Kind

    d = {"player": names[t.player], "p": t.player, "kind": t.kind, "score": int(t.score), "total": int(t.total)}
    if t.move is not None:
        d["move"] = t.move.notation
        d["tiles"] = [[r, c, ch, bool(b)] for r, c, ch, b in t.move.tiles]
        d["bingo"] = t.kind == Kind.PLAY and t.move.tiles_played == 7
    if t.words:
        d["words"] = [[w, int(s)] for w, s in t.words]
    if t.kind == Kind.EXCHANGE:
        d["count"] = int(t.exchange_count)
    if t.kind in (Kind.RACK, Kind.OUT):
        d["tiles_left"] = t.rack
    return d


# ---------------------------------------------------------------------------
# Partieanalyse for the page
# ---------------------------------------------------------------------------
REVIEW_ENDGAME_SECONDS = 2.0
"""Time limit per endgame solve in the web's review (an endgame turn not solved in time is marked not exact)."""


def review_payload(gcg: str, lexicon, table, endgame_seconds: float = REVIEW_ENDGAME_SECONDS) -> dict:
    """The review of a GCG text for the page: :meth:`engine.analysis.review.Review.to_json` plus, per turn,
    the new tiles of the played and of the best move (``played_tiles``, ``best_tiles``: ``[[row, col,
    LETTER, blank]]``) and the board before it (``board``: 15 rows), the win % picture (``svg``:
    ``{"de", "en"}``), the puzzles (``puzzles``: turn numbers, largest loss first) and the players' names.

    Raises:
        ValueError: the GCG cannot be read (:class:`engine.game.gcg.GCGError`, naming the line).
    """
    from engine.analysis.review import review, win_svg
    from engine.position.cgp import parse_cgp
    from engine.game.gcg import read_gcg
    from engine.position.scorer import IllegalMove, check_move

    rec = read_gcg(gcg, lexicon)
    rv = review(rec, lexicon, table=table, endgame_seconds=endgame_seconds)
    out = rv.to_json()
    for t, d in zip(rv.turns, out["turns"]):
        board = parse_cgp(t.cgp).board if t.cgp else rec.position(t.turn).board
        d["board"] = board.rows_text()
        for key, move in (("played_tiles", t.played), ("best_tiles", t.best)):
            tiles = []
            if move and not move.startswith("-"):
                try:
                    tiles = [[r, c, ch, bool(b)] for r, c, ch, b in check_move(board, move).tiles]
                except (IllegalMove, ValueError):
                    tiles = []
            d[key] = tiles
    out["svg"] = {"de": win_svg(rv), "en": win_svg(rv, en=True)}
    out["puzzles"] = [t.turn for t in rv.puzzles()]
    out["names"] = list(rec.names or rec.players)
    return out
