"""Checks remembered by file key: hash a file once per change of it, not at every start.

A full check (a SHA-256 over a file, the structural check of a graph) is remembered in a small JSON
record keyed by each file's :func:`file_key` (device, inode, size, modification and status-change
times); a later process whose files still have the same keys trusts the record instead of reading
them again. ``st_ctime_ns`` is set by the kernel on every write, ``utime``, ``chmod`` and rename and
cannot be set back by a user call, so any change through the file system shows. Used by the lexicon
bundles (:mod:`lexicon_tools.bundle`, whose module docstring says what such a record cannot see), the
packaged default word list's checksum, the leave table's cache and the compiled kernel modules
(:mod:`lexicon_tools._aot`).

A leaf module (standard library and :mod:`lexicon_tools.paths` only; ``hashlib`` and ``tempfile`` are
imported when a file is actually hashed or a record written), so that a process whose records are
valid (a second ``python -m engine best``) never loads OpenSSL's hashing nor ``tempfile``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from .paths import cache_dir

VERIFIER = 2
"""Version of the load-time checks; a state written by other checks is not trusted."""


def sha256_file(path: Path) -> str:
    """Hex SHA-256 of a file, read in 1 MiB chunks."""
    import hashlib

    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def file_key(path: Path) -> list[int]:
    """``[device, inode, size, mtime_ns, ctime_ns]`` of a file: changes whenever its content can have changed.

    ``ctime`` (status change) is set by the kernel on every write, ``utime``,
    ``chmod`` and rename and cannot be set back by a user, so restoring the
    modification time after an edit still changes the key.
    """
    st = os.stat(path)
    return [int(st.st_dev), int(st.st_ino), int(st.st_size), int(st.st_mtime_ns), int(st.st_ctime_ns)]


def _write_json_atomic(path: Path, data: dict) -> bool:
    """Write ``data`` atomically (temp file, fsync, rename); ``False`` (and nothing left behind) on failure."""
    import tempfile

    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
        return True
    except OSError:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        return False


def _umask() -> int:
    """The process umask (from /proc on Linux, so that no other thread sees it changed)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    m = os.umask(0o022)
    os.umask(m)
    return m


class VerifiedState:
    """The remembered result of a full check of some files (see the module docstring).

    ``files`` maps a name to ``(path, expected_sha256 or None)``; the state is
    valid when it was written by the same :data:`VERIFIER` for the same
    ``context`` and every file still has the :func:`file_key` it had then.
    """

    def __init__(self, state_path: Path, context: dict):
        self.path = state_path
        self.context = context

    @staticmethod
    def keys(files: dict[str, Path]) -> dict[str, list[int]] | None:
        """The current :func:`file_key` of each file (``None`` if one cannot be read).

        Take them *before* the full check and :meth:`record` those: a file
        changed during the check then no longer matches its recorded key.
        """
        try:
            return {n: file_key(p) for n, p in files.items()}
        except OSError:
            return None

    def read(self) -> dict | None:
        """The record as written by :meth:`record` for this :data:`VERIFIER` and ``context``, whatever the
        files' keys are now; ``None`` when there is none (or it is unreadable, or of other checks)."""
        try:
            with open(self.path, encoding="utf-8") as f:
                data = json.load(f)
            if isinstance(data, dict) and data.get("verifier") == VERIFIER and data.get("context") == self.context \
                    and isinstance(data.get("files"), dict):
                return data
        except (OSError, ValueError):
            pass
        return None

    def payload(self, keys: dict[str, list[int]] | None, data: dict | None = None) -> dict | None:
        """What :meth:`record` stored beside ``keys`` (``{}`` when nothing), if the files had exactly these keys
        then; else ``None``. ``data``: the record when already :meth:`read`."""
        if keys is None:
            return None
        data = self.read() if data is None else data
        if data is None or data.get("files") != keys:
            return None
        extra = data.get("payload", {})
        return extra if isinstance(extra, dict) else None

    def valid(self, keys: dict[str, list[int]] | None) -> bool:
        """True when files with these keys were verified by this :data:`VERIFIER` (any error: ``False``)."""
        return self.payload(keys) is not None

    def record(self, keys: dict[str, list[int]] | None, **payload) -> bool:
        """Remember that the files with ``keys`` passed the full check (with ``payload``, JSON values, e.g. the
        digest found); ``False`` when not written (the directory is created when missing)."""
        if keys is None:
            return False
        data = {"verifier": VERIFIER, "context": self.context, "files": keys}
        if payload:
            data["payload"] = payload
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError:
            return False
        return _write_json_atomic(self.path, data)

    def forget(self) -> None:
        try:
            self.path.unlink()
        except OSError:
            pass


SETTLE_NS = 2_000_000_000
"""A file changed less than this long ago (ns, by its status-change time) is not remembered yet: file systems
keep times in coarse ticks (a jiffy; 2 s on FAT), so a second write in the same tick, of the same size, would
leave the key unchanged ("racy" files, as git calls them). Such a file is simply hashed again next time."""


def settled(keys: dict[str, list[int]] | None) -> bool:
    """True when every file of ``keys`` (:func:`file_key` lists) last changed at least :data:`SETTLE_NS` ago,
    so that a later change is bound to show in its key; ``False`` for ``None``."""
    if keys is None:
        return False
    import time

    now = time.time_ns()
    return all(now - max(k[3], k[4]) >= SETTLE_NS for k in keys.values())


def _path_tag(real: str) -> str:
    """A short tag of a path for a record's file name (CRC-32; the record itself holds the whole path)."""
    import zlib

    return f"{zlib.crc32(real.encode('utf-8', 'surrogateescape')):08x}"


def remembered_sha256(path: str | os.PathLike, record: Path | None = None) -> str:
    """Hex SHA-256 of the file ``path``, hashed once per change of the file (:func:`file_key`).

    Args:
        path: the file.
        record: where the digest is remembered (default ``<cache_dir>/verified/sha256-<tag>.json``,
            :func:`lexicon_tools.paths.cache_dir`, one per real path). A record that cannot be written
            (read-only cache) only means the file is hashed again next time.

    Raises:
        OSError: the file cannot be read.
    """
    real = os.path.realpath(path)
    if record is None:
        record = cache_dir() / "verified" / f"sha256-{_path_tag(real)}.json"
    state = VerifiedState(record, {"path": real})
    keys = state.keys({"file": Path(real)})  # taken before hashing: a write meanwhile changes them
    got = state.payload(keys)
    if got is not None and isinstance(got.get("sha256"), str):
        return got["sha256"]
    digest = sha256_file(real)
    if settled(keys):  # a file changed just now is hashed again next time (see SETTLE_NS)
        state.record(keys, sha256=digest)
    return digest
