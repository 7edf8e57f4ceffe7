"""The event journal: append-only, fsynced, checksummed JSON lines; and the event lock.

``journal.jsonl`` holds one JSON object per line, each with ``seq`` (1, 2, …)
and ``crc`` (CRC-32 of the record's canonical JSON without ``crc``, 8 hex
digits). A command appends exactly one record with a single ``write``, ``fsync``s
it, then writes ``journal.ack`` (:func:`write_ack`: the ``seq``, ``crc`` and whole
line of that entry, atomically) and only then reports success: an entry the
director saw acknowledged is on disk twice. A line whose checksum verifies is
never dropped. Only a last line that fails its checksum, lacks its newline, is
cut short (its JSON object never closes: :func:`is_cut_short`) *and* comes after
every acknowledged entry (its number is above the ack's ``seq``, and no copy in
``backup/`` has it) is an interrupted write: a torn write can only shorten the
last line, and a kill between the journal's ``fsync`` and the ack leaves a
complete line. Readers ignore it, and the next writing command (under the
exclusive lock) moves its bytes to ``journal.torn`` and truncates the journal
before appending. A cut-short last line the ack (or a backup copy) names was
acknowledged and damaged afterwards (``truncate -s -3``); so is a journal that
ends before the ack's entry: both are errors, never dropped, and ``simultan
repair`` takes the entry back from ``journal.ack``. An event without
``journal.ack`` (made by an older version) reads as before. A last line that
verifies but lacks its newline is kept (the newline is added before the next
append). Anything else (a damaged terminated line, a complete last line whose
final byte was changed, an entry out of order) is an error: the event is not
rebuilt from a journal that cannot be trusted; ``simultan repair``
(:func:`~engine.director.repair.plan_repair`) shows what would be lost and salvages every intact entry, with
help from ``journal.ack`` and the copies in ``backup/`` (:func:`backup_journal`,
one per closed round).

``lock`` is locked with ``flock`` (shared for reading commands, exclusive for
writing ones), so two directors' commands run one after the other and each
sees the other's entries.
"""

from __future__ import annotations

import json
import os
import re
import time
import zlib
from contextlib import contextmanager
from pathlib import Path

__all__ = ["JournalError", "Journal", "readable_ack_seq", "event_lock", "atomic_write", "backup_journal", "remove_stale_temps", "scan_lines",
           "is_cut_short", "read_ack", "write_ack", "remove_ack", "backup_records", "JOURNAL_FILE", "LOCK_FILE",
           "TORN_FILE", "ACK_FILE", "BACKUP_DIR", "BACKUPS_KEPT",
           "event_remains", "no_journal_message"]

JOURNAL_FILE = "journal.jsonl"
LOCK_FILE = "lock"
TORN_FILE = "journal.torn"
ACK_FILE = "journal.ack"
"""The last acknowledged entry: ``{"seq": N, "crc": ..., "line": "the journal's line N"}`` (:func:`write_ack`)."""
BACKUP_DIR = "backup"
BACKUPS_KEPT = 3
"""Copies of the journal kept in ``backup/`` (the newest ones, one per closed round)."""
REPAIR_HINT = "run `python -m engine simultan repair DIR` to see what can be salvaged"


def event_remains(directory: str | Path) -> bool:
    """True when ``directory`` has no journal but its acknowledgement or backups of one (a deleted journal)."""
    directory = Path(directory)
    return not (directory / JOURNAL_FILE).exists() and (
        os.path.lexists(directory / ACK_FILE) or any((directory / BACKUP_DIR).glob("journal-r*.jsonl")))


def no_journal_message(directory: str | Path) -> str:
    """What to tell a director whose ``directory`` has no journal (report-attack26m F2: a deleted journal was
    called "not an event directory", with advice to create a new event there, over the old one's remains)."""
    if event_remains(directory):
        return (f"{directory}: {JOURNAL_FILE} is missing, but {ACK_FILE} or {BACKUP_DIR}/ hold entries of an event; "
                f"run `python -m engine simultan repair {directory}` to rebuild the journal from them")
    return (f"{directory}: not an event directory (no {JOURNAL_FILE}); "
            f"create one with `python -m engine simultan new`")


class JournalError(ValueError):
    """A journal or lock problem: damaged line, event busy, not an event directory."""


def os_error_text(exc: OSError) -> str:
    """An OSError as one readable phrase (no ``[Errno N]``): ``"FILE: reason"``."""
    text = exc.strerror or str(exc)
    return f"{exc.filename}: {text}" if exc.filename else text


def _canonical(record: dict) -> str:
    return json.dumps(record, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _crc(text: str) -> str:
    return f"{zlib.crc32(text.encode('utf-8')) & 0xFFFFFFFF:08x}"


def encode_record(record: dict) -> bytes:
    """One journal line (with ``crc``, ending in a newline) for ``record`` (which must hold ``seq``)."""
    body = {k: v for k, v in record.items() if k != "crc"}
    line = dict(body)
    line["crc"] = _crc(_canonical(body))
    return (_canonical(line) + "\n").encode("utf-8")


def decode_line(raw: bytes, lineno: int, path: Path) -> dict:
    """Parse and check one terminated journal line.

    Raises:
        JournalError: not JSON, no checksum, or a checksum mismatch (names the line).
    """
    try:
        rec = json.loads(raw.decode("utf-8"))
        if not isinstance(rec, dict):
            raise ValueError("not an object")
        crc = rec.pop("crc")
    except (UnicodeDecodeError, ValueError, KeyError) as exc:
        raise JournalError(f"{path} line {lineno}: damaged entry ({exc}); the event cannot be rebuilt "
                           f"safely - {REPAIR_HINT.replace('DIR', str(path.parent))}") from None
    if _crc(_canonical(rec)) != crc:
        raise JournalError(f"{path} line {lineno}: checksum mismatch (damaged entry); the event cannot be "
                           f"rebuilt safely - {REPAIR_HINT.replace('DIR', str(path.parent))}")
    return rec


def record_crc(record: dict) -> str:
    """The checksum a record has (or would have) in the journal."""
    return _crc(_canonical({k: v for k, v in record.items() if k != "crc"}))


def try_decode(raw: bytes) -> dict | None:
    """The record of one line if it parses and its checksum verifies, else ``None``."""
    try:
        return decode_line(raw, 0, Path("journal"))
    except JournalError:
        return None


def is_cut_short(raw: bytes) -> bool:
    """True when ``raw`` (a journal line without its newline) could be an interrupted write: a
    proper prefix of a line, whose top-level JSON object never closes.

    A line that holds a complete object followed by other bytes (its newline replaced by ``x``,
    ``\\x0b``, ``*``) was written whole and damaged afterwards: it is not an interrupted write.
    """
    try:
        json.JSONDecoder().raw_decode(raw.decode("utf-8", "replace"))
    except ValueError:
        return True
    return False


def scan_lines(data: bytes) -> list[tuple[bytes, dict | None, bool]]:
    """Every line of a journal's bytes: ``[(raw, record or None, terminated), ...]``.

    ``record`` is ``None`` for a line that does not parse or fails its checksum.
    The last item is unterminated when the data does not end in a newline.
    """
    parts = data.split(b"\n")
    out = [(raw, try_decode(raw), True) for raw in parts[:-1]]
    if parts[-1]:
        out.append((parts[-1], try_decode(parts[-1]), False))
    return out


def readable_ack_seq(directory: str | os.PathLike) -> int | None:
    """The ``seq`` field of a ``journal.ack`` whose entry does not verify, when its JSON still gives one."""
    try:
        seq = json.loads((Path(directory) / ACK_FILE).read_bytes().decode("utf-8")).get("seq")
    except (OSError, UnicodeDecodeError, ValueError, AttributeError):
        return None
    return seq if type(seq) is int and seq > 0 else None


def read_ack(directory: str | os.PathLike) -> tuple[int, bytes, dict] | None:
    """The last acknowledged entry from ``journal.ack``: ``(seq, its line without newline, its record)``;
    ``None`` when there is no such file (an event made by an older version).

    Raises:
        JournalError: the file is there but cannot be read, or its line does not verify.
    """
    path = Path(directory) / ACK_FILE
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise JournalError(f"{path}: cannot be read ({os_error_text(exc)})") from None
    try:
        ack = json.loads(data.decode("utf-8"))
        seq, crc, line = ack["seq"], ack["crc"], ack["line"].encode("utf-8")
    except (UnicodeDecodeError, ValueError, KeyError, TypeError, AttributeError):
        raise JournalError(f"{path}: damaged") from None
    rec = try_decode(line)
    if rec is None or type(seq) is not int or rec.get("seq") != seq or rec.get("crc", crc) != crc \
            or record_crc(rec) != crc:
        raise JournalError(f"{path}: damaged (its entry does not verify)")
    return seq, line, rec


def write_ack(directory: str | os.PathLike, line: bytes) -> None:
    """Record ``line`` (a verified journal line, with or without its newline) as the last acknowledged
    entry: ``journal.ack`` written atomically (fixed temporary name: call under the exclusive lock),
    then the directory ``fsync``ed.

    Raises:
        OSError: the file could not be written (it is then unchanged); the message names it.
    """
    directory = Path(directory)
    line = line.rstrip(b"\n")
    rec = try_decode(line)
    if rec is None:
        raise ValueError("write_ack: the line does not verify")
    data = _canonical({"seq": rec["seq"], "crc": record_crc(rec), "line": line.decode("utf-8")}) + "\n"
    tmp = directory / f".{ACK_FILE}.tmp"
    if tmp.is_dir() and not tmp.is_symlink():  # report-attack26m F4: the message named journal.ack
        raise OSError(21, f"{tmp} is a directory where the acknowledgement's temporary file belongs; remove it "
                          f"(rmdir) and do it again")
    atomic_write(directory / ACK_FILE, data, tmp_name=tmp.name)
    _fsync_dir(directory)


def remove_ack(directory: str | os.PathLike) -> None:
    """Remove ``journal.ack`` (fsynced) before the journal is rewritten (``repair --apply``), so that a
    kill before the new ack leaves none rather than one naming entries the new journal lacks."""
    try:
        (Path(directory) / ACK_FILE).unlink()
    except FileNotFoundError:
        return
    _fsync_dir(Path(directory))


def backup_records(directory: str | os.PathLike) -> dict[int, dict]:
    """Verified entries of the copies in ``backup/`` by ``seq`` (the newest copy first)."""
    out: dict[int, dict] = {}
    for path in sorted((Path(directory) / BACKUP_DIR).glob("journal-r*.jsonl"), reverse=True):
        try:
            data = path.read_bytes()
        except OSError:
            continue
        for _raw, rec, _term in scan_lines(data):
            if rec is not None and isinstance(rec.get("seq"), int):
                out.setdefault(rec["seq"], rec)
    return out


class Journal:
    """The journal file of one event directory.

    Attributes:
        path: the ``journal.jsonl`` file.
        torn: bytes of an interrupted last write found by the last :meth:`read`
            (unterminated and failing its checksum; ``b""`` if none).
        unterminated: the last :meth:`read` found a complete, verified last line
            without its newline (kept; :meth:`repair_tail` adds the newline).
    """

    def __init__(self, directory: str | os.PathLike):
        self.directory = Path(directory)
        self.path = self.directory / JOURNAL_FILE
        self.torn = b""
        self.unterminated = False
        self._good_size = 0
        self._seen: list[tuple[bytes, dict]] = []  # lines verified by the last read: (bytes, record)

    def exists(self) -> bool:
        """True when the directory holds a journal."""
        return self.path.is_file()

    def read(self) -> list[dict]:
        """Every complete record, checked, in order.

        A last line without its newline counts when its checksum verifies; when it
        does not, it is an interrupted write (:attr:`torn`) and is left out.

        Every line is checked on every read. A line whose bytes equal those the last read
        verified at the same place keeps that record (no second JSON parse and checksum:
        a journal of 200 players grows by thousands of lines); any other line is parsed
        and its checksum verified. The records returned must not be changed.

        Raises:
            JournalError: no journal, a damaged terminated line, or ``seq`` out of order.
        """
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            raise JournalError(no_journal_message(self.directory)) from None
        end = data.rfind(b"\n") + 1
        tail = data[end:]
        self.torn, self.unterminated, self._good_size = b"", False, end
        out = []
        seen, self._seen = self._seen, []
        for i, raw in enumerate(data[:end].split(b"\n")[:-1], start=1):
            if i <= len(seen) and seen[i - 1][0] == raw:
                rec = seen[i - 1][1]
            else:
                rec = decode_line(raw, i, self.path)
            if rec.get("seq") != i:
                raise JournalError(f"{self.path} line {i}: entry number {rec.get('seq')!r}, expected {i}; "
                                   f"{REPAIR_HINT.replace('DIR', str(self.directory))}")
            out.append(rec)
            self._seen.append((raw, rec))
        if tail:
            rec = try_decode(tail)
            if rec is None and not is_cut_short(tail):  # written whole, then a byte changed: keep it for repair
                raise JournalError(f"{self.path} line {len(out) + 1}: the last entry is complete but its end is "
                                   f"damaged (not an interrupted write); the event cannot be rebuilt safely - "
                                   f"{REPAIR_HINT.replace('DIR', str(self.directory))}")
            if rec is None:
                self._refuse_if_acknowledged(len(out) + 1, tail)
                self.torn = tail  # an interrupted write: never acknowledged
            elif rec.get("seq") != len(out) + 1:
                raise JournalError(f"{self.path} line {len(out) + 1}: entry number {rec.get('seq')!r}, expected "
                                   f"{len(out) + 1}; {REPAIR_HINT.replace('DIR', str(self.directory))}")
            else:  # complete and verified, only the newline is missing: it stays
                out.append(rec)
                self.unterminated = True
                self._good_size = len(data)
        if not self.torn:
            try:
                ack = read_ack(self.directory)
            except JournalError as exc:  # damaged: its seq, when still readable, may say entries are missing
                seq = readable_ack_seq(self.directory)
                if seq is not None and seq > len(out):  # (report-attack26l F2: lost lines went unnoticed)
                    raise JournalError(f"{self.path} line {len(out) + 1}: the journal ends after entry {len(out)}, "
                                       f"and {exc}, but it names entry {seq} as acknowledged: acknowledged entries "
                                       f"may be missing; {REPAIR_HINT.replace('DIR', str(self.directory))}") from None
                if seq is None:  # nothing to tell whether entries are missing: repair checks backup/ and writes it
                    raise JournalError(f"{exc}: it cannot tell whether acknowledged entries are missing; "
                                       f"{REPAIR_HINT.replace('DIR', str(self.directory))}") from None
                ack = None  # its seq is within the journal: it hides nothing; the next append rewrites it
            if ack is not None and ack[0] > len(out):
                raise JournalError(f"{self.path} line {len(out) + 1}: the journal ends after entry {len(out)}, but "
                                   f"entry {ack[0]} was acknowledged ({ACK_FILE}): acknowledged entries are missing; "
                                   f"{REPAIR_HINT.replace('DIR', str(self.directory))}")
            if ack is None:  # no ack (gone, or an event older than acks): the copies in backup/ tell what was there
                copied = max(backup_records(self.directory), default=0)  # (report-attack26m F3: a journal cut
                if copied > len(out):                                    # back by whole lines read silently)
                    raise JournalError(f"{self.path} line {len(out) + 1}: the journal ends after entry {len(out)}, "
                                       f"but a copy in {BACKUP_DIR}/ holds entry {copied}: acknowledged entries are "
                                       f"missing; {REPAIR_HINT.replace('DIR', str(self.directory))}")
        return out

    def _refuse_if_acknowledged(self, n: int, tail: bytes) -> None:
        """Raise when entry ``n``, whose line ``tail`` is cut short, was acknowledged (``journal.ack`` says
        so, or a copy in ``backup/`` holds it): damage after the write, not an interrupted write."""
        hint = REPAIR_HINT.replace('DIR', str(self.directory))
        try:
            ack = read_ack(self.directory)
        except JournalError as exc:
            raise JournalError(f"{self.path} line {n}: the last entry is cut short and {exc}, so it cannot be "
                               f"told from an interrupted write; {hint}") from None
        if ack is not None and ack[0] >= n:
            where = ACK_FILE
        elif n in backup_records(self.directory):
            where = f"a copy in {BACKUP_DIR}/"
        else:
            return
        raise JournalError(f"{self.path} line {n}: entry {n} was acknowledged ({where}) but its line is cut short "
                           f"({len(tail)} bytes left): damage, not an interrupted write; the event cannot be rebuilt "
                           f"safely - {hint}")

    def repair_tail(self) -> bool:
        """Make the journal end in a newline before an append (call under the exclusive lock, after :meth:`read`).

        A verified last line without its newline gets it. An interrupted write
        (:attr:`torn`) is removed; its bytes are first appended to ``journal.torn``
        (fsynced) for the record. Returns True when an interrupted write was removed.

        Raises:
            OSError: the disk refused (nothing was removed then).
        """
        if self.unterminated:
            self._append_bytes(b"\n")
            self.unterminated = False
        if not self.torn:
            return False
        try:
            with open(self.directory / TORN_FILE, "ab") as f:
                f.write(f"# {time.strftime('%Y-%m-%d %H:%M:%S')} removed from the end of {JOURNAL_FILE}\n".encode()
                        + self.torn + b"\n")
                f.flush()
                os.fsync(f.fileno())
        except OSError as exc:  # the journal is left as it is; the command records nothing
            raise OSError(exc.errno, f"{self.directory / TORN_FILE}: could not keep the interrupted write "
                                     f"({exc.strerror or exc}); nothing recorded") from None
        with open(self.path, "r+b") as f:
            f.truncate(self._good_size)
            f.flush()
            os.fsync(f.fileno())
        self.torn = b""
        return True

    def _append_bytes(self, data: bytes) -> None:
        """Append ``data`` with ``fsync``; on any failure cut the file back to its old size and raise."""
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            size = os.fstat(fd).st_size
            try:
                view = memoryview(data)
                while view:
                    n = os.write(fd, view)
                    view = view[n:]
                os.fsync(fd)
            except BaseException:
                try:  # leave no partial entry behind (a kill here leaves an unverified tail: torn)
                    os.ftruncate(fd, size)
                    os.fsync(fd)
                except OSError:
                    pass
                raise
        finally:
            os.close(fd)
        self._good_size = size + len(data)

    def append(self, record: dict) -> None:
        """Append one record with a single write and ``fsync``, then write ``journal.ack`` for it
        (:func:`write_ack`; call under the exclusive lock).

        Raises:
            OSError: the write, ``fsync`` or the ack failed (a full disk): the journal is cut
                back to its old size, so the entry is not recorded; the message names the file.
        """
        line = encode_record(record)
        try:
            self._append_bytes(line)
        except OSError as exc:
            raise OSError(exc.errno, f"{self.path}: the entry was not recorded ({exc.strerror or exc})") from None
        try:
            write_ack(self.directory, line)
        except OSError as exc:  # the ack was not renamed into place: take the entry back, the command fails
            size = self._good_size - len(line)  # (an interrupt or a kill leaves the verified entry, which counts)
            try:
                with open(self.path, "r+b") as f:
                    f.truncate(size)
                    f.flush()
                    os.fsync(f.fileno())
                self._good_size = size
            except OSError:
                pass
            raise OSError(exc.errno, f"the entry was not recorded: {exc.strerror or exc}") from None

    def create(self, record: dict) -> None:
        """Start a new journal with its first record; fsync the file and the directory.

        Raises:
            JournalError: the directory already holds a journal.
        """
        self.directory.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            raise JournalError(f"{self.directory} already holds an event ({JOURNAL_FILE}); "
                               f"choose another directory") from None
        try:
            data = encode_record(record)
            if os.write(fd, data) != len(data):
                raise OSError(28, "short write (disk full?)")
            os.fsync(fd)
        except BaseException as exc:
            os.close(fd)
            try:
                self.path.unlink()  # nothing was acknowledged
            except OSError:
                pass
            if isinstance(exc, OSError):
                raise OSError(exc.errno, f"{self.path}: the event was not created ({exc.strerror or exc})") from None
            raise
        os.close(fd)
        _fsync_dir(self.directory)
        try:
            write_ack(self.directory, data)
        except OSError as exc:
            try:
                self.path.unlink()  # nothing was acknowledged
            except OSError:
                pass
            raise OSError(exc.errno, f"the event was not created: {exc.strerror or exc}") from None


def atomic_write(path: str | os.PathLike, data: bytes | str, tmp_name: str | None = None) -> None:
    """Write ``path`` all or nothing: a temporary file next to it, ``fsync``, rename.

    On any failure (a full disk, an interrupt) the temporary file is removed and
    ``path`` is left as it was. ``tmp_name`` (default ``.NAME.PID.tmp``) is the
    temporary file's name; a fixed one suits a writer under a lock (a killed one's
    file is reused, not left behind).

    Raises:
        OSError: the file could not be written; the message names it.
    """
    path = Path(path)
    if isinstance(data, str):
        data = data.encode("utf-8")
    tmp = path.with_name(tmp_name or f".{path.name}.{os.getpid()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            view = memoryview(data)
            while view:
                n = os.write(fd, view)
                view = view[n:]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException as exc:
        try:
            tmp.unlink()
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise OSError(exc.errno, f"{path}: not written ({exc.strerror or exc})") from None
        raise


_TEMP = re.compile(r"\..+\.(\d+)\.tmp")


def remove_stale_temps(directory: str | os.PathLike) -> list[Path]:
    """Remove temporary files of :func:`atomic_write` left by a process that was killed
    (``.NAME.PID.tmp`` whose process no longer runs). Returns the files removed."""
    removed = []
    try:
        names = os.listdir(directory)
    except OSError:
        return removed
    for name in names:
        m = _TEMP.fullmatch(name)
        if not m:
            continue
        pid = int(m.group(1))
        if pid == os.getpid():
            continue
        try:
            os.kill(pid, 0)
            continue  # still running: its file
        except ProcessLookupError:
            pass
        except OSError:  # another user's running process
            continue
        try:
            os.unlink(Path(directory) / name)
            removed.append(Path(directory) / name)
        except OSError:
            pass
    return removed


def backup_journal(directory: str | os.PathLike, round_no: int, keep: int = BACKUPS_KEPT) -> Path:
    """Copy the journal to ``backup/journal-rNNN.jsonl`` (atomically) and keep the newest ``keep`` copies.

    Called after each ``close`` (under the exclusive lock). ``simultan repair``
    takes entries it cannot read in the journal from these copies.

    Returns:
        the copy written.

    Raises:
        OSError: the copy could not be written (named in the message).
    """
    directory = Path(directory)
    dest = directory / BACKUP_DIR
    dest.mkdir(exist_ok=True)
    remove_stale_temps(dest)
    out = dest / f"journal-r{round_no:03d}.jsonl"
    atomic_write(out, (directory / JOURNAL_FILE).read_bytes())
    for old in sorted(dest.glob("journal-r*.jsonl"))[:-keep]:
        try:
            old.unlink()
        except OSError:
            pass
    return out


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:  # pragma: no cover - e.g. Windows
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


def _lock_timeout() -> float:
    try:
        return float(os.environ.get("SIMULTAN_LOCK_TIMEOUT", "30"))
    except ValueError:
        return 30.0


@contextmanager
def event_lock(directory: str | os.PathLike, exclusive: bool, timeout: float | None = None):
    """Hold the event's lock file (``flock``; shared or exclusive) for the ``with`` block.

    Waits up to ``timeout`` seconds (default ``$SIMULTAN_LOCK_TIMEOUT`` or 30).
    A shared lock needs no write access: in a read-only event directory the lock
    file is opened read-only (or, when there is none, reading goes ahead unlocked).

    Raises:
        JournalError: no event in ``directory``, or the lock is still held by
            another command after the timeout.
    """
    directory = Path(directory)
    if not directory.is_dir():
        raise JournalError(f"{directory}: no such event directory")
    if not (directory / JOURNAL_FILE).is_file():  # no lock file left behind in a stray directory
        raise JournalError(no_journal_message(directory))
    timeout = _lock_timeout() if timeout is None else timeout
    try:
        fd = os.open(directory / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        if exclusive and (directory / LOCK_FILE).is_dir():  # report-attack26m F4: "is the directory read-only?"
            raise OSError(exc.errno, f"{directory / LOCK_FILE} is a directory where the event's lock file belongs; "
                                     f"remove it (rmdir) and do it again") from None
        if exclusive:
            raise OSError(exc.errno, f"{directory / LOCK_FILE}: cannot lock the event for a change "
                                     f"({exc.strerror or exc}); is the directory read-only?") from None
        try:  # a read-only event directory can still be viewed: a shared lock needs no write access
            fd = os.open(directory / LOCK_FILE, os.O_RDONLY)
        except OSError:  # no lock file and none can be made: nobody can change the event here either
            fd = None
    if fd is None:
        yield
        return
    try:
        _acquire(fd, exclusive, timeout, directory)
        try:
            yield
        finally:
            _release(fd)
    finally:
        os.close(fd)


try:
    import fcntl

    def _try_lock(fd: int, exclusive: bool) -> bool:
        try:
            fcntl.flock(fd, (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            return False

    def _release(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)
except ImportError:  # pragma: no cover - Windows: one exclusive lock for everyone
    import msvcrt

    def _try_lock(fd: int, exclusive: bool) -> bool:
        try:
            os.lseek(fd, 0, 0)
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            return True
        except OSError:
            return False

    def _release(fd: int) -> None:
        os.lseek(fd, 0, 0)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)


def _acquire(fd: int, exclusive: bool, timeout: float, directory: Path) -> None:
    deadline = time.monotonic() + timeout
    while not _try_lock(fd, exclusive):
        if time.monotonic() >= deadline:
            raise JournalError(f"{directory}: the event is busy (another director's command holds "
                               f"{directory / LOCK_FILE} for more than {timeout:g} s); try again")
        time.sleep(0.05)
