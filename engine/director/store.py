"""An event directory: the journal, the lock and the event rebuilt from them.

Every command goes through :class:`EventDir`: it takes the lock (shared to
read, exclusive to change), reads the journal, rebuilds the
:class:`~engine.director.event.Event`, plans the change against that state,
appends the record (fsynced) and applies it. Nothing is written for a
refused command.

Layout of an event directory::

    journal.jsonl   the event (append-only; see engine.director.journal)
    lock            the lock file
    journal.ack     the last acknowledged entry (see engine.director.journal)
    journal.torn    bytes of interrupted writes removed from the journal (if any)
    backup/         copies of the journal, one per closed round (the newest three)
    export/         derived files, rewritten after every change (see engine.director.export);
                    export/journal-state.json names the journal entry they show and is
                    written last, so a reading command that finds it missing or older than
                    the journal rebuilds the exports (after a kill between journal and exports)

A command that has written its journal entry but cannot write the exports or
the backup copy (a full disk) raises :class:`OutputError`: the entry stands,
the command exits non-zero naming the file, and the next command rebuilds what
is missing.
"""

from __future__ import annotations

import dataclasses

import json
import os
import random
import sys
import time as _time
from pathlib import Path
from typing import Callable

from .event import DirectorError, Event, Settings, check_player_name, lexicon_id, name_key, replay
from .journal import Journal, JournalError, backup_journal, event_lock, os_error_text, record_crc
from .rules import SimultanRules

__all__ = ["EventDir", "OutputError", "load_event_lexicon", "export_stamp"]


class OutputError(DirectorError):
    """The journal entry was written, but a derived file (exports, the backup copy) was not."""


def export_stamp(records: list[dict]) -> dict:
    """What ``export/journal-state.json`` holds when the exports show ``records``:
    the ``seq`` and ``crc`` of the last record that is not a submission (the
    exports show no submission of the open round)."""
    last = next((r for r in reversed(records) if r.get("type") != "submit"), records[0])
    return {"seq": last["seq"], "crc": record_crc(last)}


def _describe(rec: dict) -> str:
    t = rec.get("type")
    if t in ("close", "start"):
        return f"round {rec.get('round')} {'closed' if t == 'close' else 'started'}"
    return {"new": "event created", "undo": "undone", "submit": "move entered", "penalty": "penalty recorded",
            "warn": "warning recorded", "join": f"{rec.get('player')} joined",
            "leave": f"{rec.get('player')} left"}.get(str(t), str(t))


def load_event_lexicon(path: str | None, progress=None):
    """The lexicon named in an event's settings (``None`` = the packaged default)."""
    from lexicon_tools.bundle import load_lexicon

    return load_lexicon(path, progress=progress)


def _note(msg: str) -> None:
    print(f"note: {msg}", file=sys.stderr)


class EventDir:
    """One event directory.

    Args:
        path: the directory.
        lexicon: the word list to use (must be the one the event was created
            with: its fingerprint is checked); default: load the one the
            journal names.
        now: clock function (Unix time), replaceable in tests.
        export: rewrite ``export/`` after each change.
        notes: where progress notes go (default stderr; ``None`` silences them).
    """

    def __init__(self, path: str | os.PathLike, lexicon=None, now: Callable[[], float] = _time.time,
                 export: bool = True, notes: Callable[[str], None] | None = _note):
        self.path = Path(path)
        self.journal = Journal(self.path)
        self._lexicon = lexicon
        self.now = now
        self.export = export
        self.notes = notes
        self._event: Event | None = None

    # -- creation ---------------------------------------------------------------------
    @classmethod
    def create(cls, path: str | os.PathLike, players: list[str], seed: int | None = None,
               rules: SimultanRules | None = None, name: str | None = None, lexicon_path: str | None = None,
               lexicon=None, now: Callable[[], float] = _time.time, export: bool = True,
               notes: Callable[[str], None] | None = _note, tables: dict | None = None) -> "EventDir":
        """Create an event: write the ``new`` record (settings and round 1).

        Args:
            path: a new or empty directory.
            players: player names (unique, ignoring case; none for a master game alone).
            seed: the bag's seed (default: a random one, recorded).
            rules: the :class:`SimultanRules` (default rules for the tile set).
            name: the event's name (default: the directory's name).
            lexicon_path: lexicon bundle (``None`` = the packaged default); stored as an absolute path.
            lexicon: the loaded lexicon (default: load ``lexicon_path``).
            tables: table number (1 to 999) per player; ``None``: one table.

        Raises:
            DirectorError: bad players or table numbers, or the directory already holds an event.
        """
        path = Path(path)
        journal = Journal(path)
        from .journal import event_remains, no_journal_message

        if event_remains(path):  # report-attack26m F2: `new` over a deleted journal's ack and backups
            raise DirectorError(no_journal_message(path) + "; or choose another directory for a new event")
        if journal.exists():
            if journal.read():
                raise DirectorError(f"{path} already holds an event; choose another directory")
            # a `new` interrupted before its first record was complete: nothing was acknowledged
            journal.path.replace(path / "journal.torn")
        names = [check_player_name(p) for p in players]
        seen: dict = {}
        for p in names:
            k = name_key(p)
            if k in seen:
                same = "" if seen[k] == p else f" (as {seen[k]!r}: the same name ignoring case and Unicode form)"
                raise DirectorError(f"player name {p!r} given twice{same}")
            seen[k] = p
        tables = {check_player_name(p): t for p, t in (tables or {}).items()}
        for p, t in tables.items():
            if p not in names:
                raise DirectorError(f"table for {p!r}, who is not among the players")
            if isinstance(t, bool) or not isinstance(t, int) or not 1 <= t <= 999:
                raise DirectorError(f"table {t!r} for {p}: a number from 1 to 999")
        if lexicon_path is not None:
            lexicon_path = str(Path(lexicon_path).resolve())
        if lexicon is None:
            lexicon = load_event_lexicon(lexicon_path, progress=notes)
        rules = rules or SimultanRules.for_alphabet(lexicon.alphabet)
        if seed is None:
            seed = random.SystemRandom().randrange(2 ** 31)
        settings = Settings(name=name or path.resolve().name, players=names, seed=int(seed), rules=rules,
                            lexicon=lexicon_path, lexicon_id=lexicon_id(lexicon), alphabet=lexicon.alphabet.name,
                            tables=tables)
        rec = Event.plan_new(settings, lexicon, now())
        rec["seq"] = 1
        journal.create(rec)
        d = cls(path, lexicon, now, export, notes)
        d._after_change(None, [rec])
        return d

    # -- reading --------------------------------------------------------------------
    @property
    def lexicon(self):
        """The event's lexicon (loaded on first use)."""
        return self._lexicon

    def _records(self) -> list[dict]:
        records = self.journal.read()
        if self.journal.torn and self.notes:
            self.notes(f"ignoring an incomplete last journal entry ({len(self.journal.torn)} bytes, "
                       f"an interrupted write)")
        return records

    def _rebuild(self, records: list[dict]) -> Event:
        if not records:
            raise JournalError(f"{self.journal.path}: empty journal")
        ev = self._event
        n = ev.seq if ev is not None else 0
        if (ev is not None and 0 < n <= len(records) and records[n - 1] == ev._last
                and not any(r.get("type") == "undo" for r in records[n:])):
            for rec in records[n:]:
                ev.apply(rec)
            return ev
        settings = records[0].get("settings") or {}
        if self._lexicon is None:
            self._lexicon = load_event_lexicon(settings.get("lexicon"), progress=self.notes)
        want = settings.get("lexicon_id")
        have = lexicon_id(self._lexicon)
        if want != have:
            raise DirectorError(f"the lexicon {settings.get('lexicon') or '(packaged default)'} is not the one "
                                f"this event was created with (fingerprint {have[:12]}, the event has "
                                f"{str(want)[:12]}); the event cannot be rebuilt with it")
        self._event = replay(records, self._lexicon)
        return self._event

    def load(self, timeout: float | None = None) -> Event:
        """The event as the journal has it now (under the shared lock).

        Args:
            timeout: seconds to wait for a command holding the lock (default
                :func:`~engine.director.journal.event_lock`'s).

        Raises:
            JournalError: no event here, a damaged journal, or the lock still held after ``timeout``.
        """
        with event_lock(self.path, exclusive=False, timeout=timeout):
            records = self._records()
            ev = self._rebuild(records)
            if self.export:
                self._refresh_exports(ev, records)
            return ev

    def write_exports(self, out: str | os.PathLike | None = None) -> list[Path]:
        """``simultan export``: write every export of the event as the journal has it now
        (under the shared lock) into ``out`` (default ``DIR/export``).

        Raises:
            OSError: a file could not be written (named in the message).
        """
        from .export import write_exports

        out = Path(out) if out is not None else self.path / "export"
        with event_lock(self.path, exclusive=False):
            records = self._records()
            ev = self._rebuild(records)
            return write_exports(ev, out, stamp=export_stamp(records))

    def _refresh_exports(self, ev: Event, records: list[dict]) -> None:
        """Rebuild ``export/`` when it does not show the journal's state (a command was
        killed between its journal entry and its exports); a failure is only a note."""
        from .export import STAMP_FILE, write_exports

        want = export_stamp(records)
        try:
            have = json.loads((self.path / "export" / STAMP_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            have = None
        if have == want:
            return
        try:
            write_exports(ev, self.path / "export", stamp=want)
            if self.notes:
                self.notes(f"rebuilt {self.path / 'export'} (it did not show the journal's last entry)")
        except Exception as exc:
            if self.notes:
                why = os_error_text(exc) if isinstance(exc, OSError) else exc
                self.notes(f"{self.path / 'export'} does not show the journal's last entry and could not be "
                           f"rebuilt: {why}")

    # -- changing ---------------------------------------------------------------------
    def _change(self, plan: Callable[[Event], dict]) -> tuple[Event, dict]:
        with event_lock(self.path, exclusive=True):
            records = self.journal.read()
            ev = self._rebuild(records)
            rec = plan(ev)  # a refused command writes nothing, not even the tail repair
            if rec is None:  # nothing changes (an exact repeat of a submission)
                return ev, None
            rec["seq"] = len(records) + 1
            rec = json.loads(json.dumps(rec, ensure_ascii=False))  # apply exactly what a replay reads
            if self.journal.repair_tail() and self.notes:
                self.notes("removed an interrupted write from the end of the journal (an entry never "
                           "acknowledged; its bytes are kept in journal.torn)")
            self.journal.append(rec)
            records = records + [rec]
            if rec["type"] == "undo":
                self._event = None
                ev = self._rebuild(records)
            else:
                ev.apply(rec)
                ev.seq, ev._last = rec["seq"], rec
            if rec["type"] != "submit":  # a submission shows on no page until the round closes
                self._after_change(ev, records)
            elif self.export:
                self._refresh_exports(ev, records)
            return ev, rec

    def _after_change(self, ev: Event | None, records: list[dict]) -> None:
        """Write the backup copy (after ``close``) and the exports.

        Raises:
            OutputError: the journal entry stands, but a file could not be written (named).
        """
        last = records[-1]
        failed = []
        try:
            if last.get("type") == "close":
                backup_journal(self.path, int(last["round"]))
        except OSError as exc:
            failed.append(f"the backup copy was not written: {os_error_text(exc)}")
        if self.export:
            try:
                from .export import write_exports

                if ev is None:
                    ev = self._rebuild(records)
                write_exports(ev, self.path / "export", stamp=export_stamp(records))
            except Exception as exc:
                why = os_error_text(exc) if isinstance(exc, OSError) else f"{type(exc).__name__}: {exc}"
                failed.append(f"the exports were not written: {why}; make room and run `simultan export "
                              f"{self.path}` (any command rebuilds them too)")
        if failed:
            raise OutputError(f"{_describe(last)} (recorded in the journal), but {'; and '.join(failed)}")

    def submit(self, player: str, move: str, round_no: int | None = None, late: bool = False,
               source: str = "director"):
        """Enter a player's move for the open round (a resubmission replaces the earlier one).

        Args:
            late: the move was handed in late (``submit --late``; see the rules' ``late_submission``).
            source: ``"player"`` for a move sent from the player's phone (the clock decides
                whether it is late), ``"director"`` otherwise.

        Returns:
            the :class:`~engine.director.event.Submission` recorded; for an exact repeat of the
            counting move (same move, lateness and source) nothing is journaled and the counting
            submission comes back with ``unchanged=True``.

        Raises:
            Rejected: bad input (nothing is written).
        """
        same = {}

        def plan(e):
            rec = e.plan_submit(player, move, round_no, self.now(), late=late, source=source)
            old = e.unchanged(rec)
            if old is not None:
                same["sub"] = dataclasses.replace(old, unchanged=True)
                return None
            return rec

        ev, rec = self._change(plan)
        if rec is None:
            return same["sub"]
        return ev.rounds[-1].submissions[rec["player"]] if ev.current else None

    def penalty(self, player: str, points: int, round_no: int | None = None, reason: str = "") -> dict:
        """Deduct ``points`` from a player in a round (default the open round); returns the record.

        Raises:
            Rejected, DirectorError: see :meth:`Event.plan_penalty` (nothing is written).
        """
        return self._change(lambda e: e.plan_penalty(player, points, round_no, reason, self.now()))[1]

    def warn(self, player: str, round_no: int | None = None, reason: str = "") -> dict:
        """Give a player a warning (default in the open round); returns the record.

        Raises:
            Rejected, DirectorError: see :meth:`Event.plan_warn` (nothing is written).
        """
        return self._change(lambda e: e.plan_warn(player, round_no, reason, self.now()))[1]

    def join(self, name: str, table: int | None = None, expect_round: int | None = None) -> dict:
        """A player arriving late joins from the open round; returns the record.

        Args:
            expect_round: refuse unless this is the open round (checked under the lock).

        Raises:
            DirectorError: see :meth:`Event.plan_join` (nothing is written).
        """
        return self._change(lambda e: (_expect(e, expect_round), e.plan_join(name, table, self.now()))[1])[1]

    def leave(self, player: str, expect_round: int | None = None) -> dict:
        """A player leaves in the open round; returns the record.

        Args:
            expect_round: refuse unless this is the open round (checked under the lock).

        Raises:
            Rejected, DirectorError: see :meth:`Event.plan_leave` (nothing is written).
        """
        return self._change(lambda e: (_expect(e, expect_round), e.plan_leave(player, self.now()))[1])[1]

    def start(self, rack: str | None = None, expect_round: int | None = None):
        """Start the open round's clock. Returns the round.

        Args:
            rack: the tiles drawn from a physical bag (see :meth:`Event.check_rack`).
            expect_round: refuse unless this is the open round.

        Raises:
            DirectorError: see :meth:`Event.plan_start` (nothing is written).
        """
        def plan(e: Event) -> dict:
            if expect_round is not None and (e.current is None or e.current.number != expect_round):
                raise DirectorError(f"round {expect_round} is not the open round "
                                    f"({'the event is over' if e.current is None else f'round {e.current.number} is open'})")
            return e.plan_start(self.now(), rack)

        ev, _rec = self._change(plan)
        return ev.current

    def close(self, choose: str | None = None, expect_round: int | None = None, require_start: bool = True):
        """Close the open round: place the top move, score everyone, open the next round.

        Args:
            choose: one of the tied top moves instead of the tie-break's choice.
            expect_round: refuse unless this is the open round (guards against a
                second director closing the same round twice).
            require_start: refuse a round whose clock was not started (``simultan auto`` passes False).

        Returns:
            the closed :class:`~engine.director.event.Round`.
        """
        def plan(e: Event) -> dict:
            if expect_round is not None and (e.current is None or e.current.number != expect_round):
                raise DirectorError(f"round {expect_round} is not the open round "
                                    f"({'the event is over' if e.current is None else f'round {e.current.number} is open'})")
            return e.plan_close(choose, self.now(), require_start=require_start)

        ev, rec = self._change(plan)
        return next(r for r in ev.rounds if r.number == rec["round"])

    def undo(self, expect: int | None = None) -> dict:
        """Take back the director's last action (submission, start or close). Returns the ``undo`` record.

        Args:
            expect: refuse unless the last action is journal entry ``expect``
                (see :meth:`Event.plan_undo`).
        """
        _ev, rec = self._change(lambda e: e.plan_undo(self.now(), expect))
        return rec


def _expect(e: Event, round_no: int | None) -> None:
    """Refuse (DirectorError) unless ``round_no`` is ``None`` or the open round."""
    if round_no is not None and (e.current is None or e.current.number != round_no):
        raise DirectorError(f"round {round_no} is not the open round "
                            f"({'the event is over' if e.current is None else f'round {e.current.number} is open'})")


def play_master(path: str | os.PathLike, seed: int, lexicon=None, lexicon_path: str | None = None,
                rules: SimultanRules | None = None, name: str | None = None, players: list[str] | None = None,
                progress: Callable[[Event], None] | None = None, now: Callable[[], float] = _time.time) -> Event:
    """``simultan auto``: create an event and close every round with the top move until it ends.

    Exports are written once at the end. The same seed, lexicon and rules give
    the same master game as an event created with ``new --seed``.

    Returns:
        the finished :class:`Event`.
    """
    d = EventDir.create(path, players or [], seed=seed, rules=rules, name=name, lexicon_path=lexicon_path,
                        lexicon=lexicon, now=now, export=False)
    ev = d.load()
    while not ev.over:
        d.close(require_start=False)
        ev = d.load()
        if progress:
            progress(ev)
    from .export import write_exports

    write_exports(ev, Path(path) / "export", stamp=export_stamp(d.journal.read()))
    return ev
