"""The event journal: append-only, fsynced, checksummed JSON lines; and the event lock.

``journal.jsonl`` holds one JSON object per line, each with ``seq`` (1, 2, …)
and ``crc`` (CRC-32 of the record's canonical JSON without ``crc``, 8 hex
digits). A command appends exactly one record with a single ``write`` and
returns only after ``fsync``, so an entry the director saw acknowledged is on
disk. A crash or power cut during the write can leave an unterminated last
line: readers ignore it; the next writing command (under the exclusive lock)
moves its bytes to ``journal.torn`` and truncates the journal before
appending. A damaged line that *is* terminated (disk corruption) is an error:
the event is not rebuilt from a journal that cannot be trusted.

``lock`` is locked with ``flock`` (shared for reading commands, exclusive for
writing ones), so two directors' commands run one after the other and each
sees the other's entries.
"""

from __future__ import annotations

import json
import os
import time
import zlib
from contextlib import contextmanager
from pathlib import Path

__all__ = ["JournalError", "Journal", "event_lock", "JOURNAL_FILE", "LOCK_FILE", "TORN_FILE"]

JOURNAL_FILE = "journal.jsonl"
LOCK_FILE = "lock"
TORN_FILE = "journal.torn"


class JournalError(ValueError):
    """A journal or lock problem: damaged line, event busy, not an event directory."""


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
                           f"safely - restore the journal from a copy") from None
    if _crc(_canonical(rec)) != crc:
        raise JournalError(f"{path} line {lineno}: checksum mismatch (damaged entry); the event cannot be "
                           f"rebuilt safely - restore the journal from a copy")
    return rec


class Journal:
    """The journal file of one event directory.

    Attributes:
        path: the ``journal.jsonl`` file.
        torn: bytes of an unterminated last line found by the last :meth:`read` (``b""`` if none).
    """

    def __init__(self, directory: str | os.PathLike):
        self.directory = Path(directory)
        self.path = self.directory / JOURNAL_FILE
        self.torn = b""
        self._good_size = 0

    def exists(self) -> bool:
        """True when the directory holds a journal."""
        return self.path.is_file()

    def read(self) -> list[dict]:
        """Every complete record, checked, in order.

        Raises:
            JournalError: no journal, a damaged terminated line, or ``seq`` out of order.
        """
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            raise JournalError(f"{self.directory}: not an event directory (no {JOURNAL_FILE}); "
                               f"create one with `python -m engine simultan new`") from None
        end = data.rfind(b"\n") + 1
        self.torn = data[end:]
        self._good_size = end
        out = []
        for i, raw in enumerate(data[:end].split(b"\n")[:-1], start=1):
            rec = decode_line(raw, i, self.path)
            if rec.get("seq") != i:
                raise JournalError(f"{self.path} line {i}: entry number {rec.get('seq')!r}, expected {i}")
            out.append(rec)
        return out

    def repair_tail(self) -> bool:
        """Remove an unterminated last line left by a crash (call under the exclusive lock, after :meth:`read`).

        Its bytes are appended to ``journal.torn`` for the record. Returns True when something was removed.
        """
        if not self.torn:
            return False
        with open(self.directory / TORN_FILE, "ab") as f:
            f.write(f"# {time.strftime('%Y-%m-%d %H:%M:%S')} removed from the end of {JOURNAL_FILE}\n".encode())
            f.write(self.torn + b"\n")
            f.flush()
            os.fsync(f.fileno())
        with open(self.path, "r+b") as f:
            f.truncate(self._good_size)
            f.flush()
            os.fsync(f.fileno())
        self.torn = b""
        return True

    def append(self, record: dict) -> None:
        """Append one record with a single write and ``fsync`` (call under the exclusive lock)."""
        line = encode_record(record)
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            view = memoryview(line)
            while view:
                n = os.write(fd, view)
                view = view[n:]
            os.fsync(fd)
        finally:
            os.close(fd)
        self._good_size += len(line)

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
            os.write(fd, encode_record(record))
            os.fsync(fd)
        finally:
            os.close(fd)
        _fsync_dir(self.directory)


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

    Raises:
        JournalError: no event in ``directory``, or the lock is still held by
            another command after the timeout.
    """
    directory = Path(directory)
    if not directory.is_dir():
        raise JournalError(f"{directory}: no such event directory")
    if not (directory / JOURNAL_FILE).is_file():  # no lock file left behind in a stray directory
        raise JournalError(f"{directory}: not an event directory (no {JOURNAL_FILE}); "
                           f"create one with `python -m engine simultan new`")
    timeout = _lock_timeout() if timeout is None else timeout
    fd = os.open(directory / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
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
