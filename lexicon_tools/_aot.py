"""The ahead-of-time step shared by the two builders of compiled kernel modules.

The lexicon builder (:mod:`lexicon_tools._build_aot`) and the move generator
(:mod:`engine.movegen._aot`) each compile a few entry kernels with ``numba.pycc``
into a plain extension module in ``<cache_dir>/aot/`` (:func:`lexicon_tools.paths.cache_dir`),
so that a later process needs only NumPy. What they share lives here:

* :func:`enabled`: ``GSE_AOT=0`` (``no``/``off``/``false``) turns loading and compiling off;
* :func:`toolchain_key`: the part of a module's key that names the project's version and the
  compiler side (Numba's install, NumPy, Python, the platform and the extension suffix);
* :func:`module_name`: ``<prefix>v<version>_<key>``, so the cache shows which version made a module;
* :func:`module_paths`: the file names of a module and of its remembered failure;
* :func:`mark_used`: a loaded module's files are touched (at most once a day) so that
  :func:`prune` sees which are in use;
* :func:`load_module`: import a compiled module from its file, after :func:`problem` found it intact;
* :func:`problem`: a module file is checked against the size and SHA-256 recorded when it was built
  (``<name>.check``, written atomically after the module): a truncated or damaged file (a full disk,
  a crash, a copy cut short) is never loaded (loading one crashed the process with "Bus error"), and the
  builders then see it as missing and build it again;
* :func:`compile_module`: one compilation with a lock file (another process compiling the same
  module is left to it), the compiler's output discarded, the module moved into place with a
  rename, and a failure remembered (a ``.failed`` file) so that it is not retried for the same key;
* :func:`prune`, run after a compilation: modules of other keys are kept while they are in use, so
  two installed versions or two checkouts of different sources sharing one cache directory never
  evict each other's modules (each would otherwise recompile the other's: about 20 s of CPU each
  time); only modules unused for :data:`KEEP_DAYS` days, or beyond the :data:`KEEP_LATEST` most
  recently used of a builder, are removed.

Each builder keeps what differs: which kernels, which signatures, and how a call is guarded.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import os
import platform  # NumPy imports it anyway
import sys
import time
from pathlib import Path
from typing import Callable

from ._verified import remembered_sha256
from .paths import cache_dir

LOCK_SECONDS = 900
"""A lock file younger than this (s) means another process is compiling the same module."""
KEEP_DAYS = 30
"""A module of another key not loaded for this many days is removed by :func:`prune`."""
KEEP_LATEST = 8
"""At most this many modules of one builder are kept (the most recently used)."""
_TOUCH_SECONDS = 86400
""":func:`mark_used` refreshes a file's time only when it is older than this."""


def enabled() -> bool:
    """False when ``GSE_AOT=0`` (or ``no``/``off``/``false``) is set in the environment."""
    return os.environ.get("GSE_AOT", "1").strip().lower() not in ("0", "no", "off", "false")


def aot_dir() -> Path:
    """``<cache_dir>/aot``: where compiled modules are kept (not created here)."""
    return cache_dir() / "aot"


def project_version() -> str:
    """The project's version (``lexicon_tools.__version__``, the same as ``engine.__version__``)."""
    from . import __version__

    return __version__


def module_name(prefix: str, key: str) -> str:
    """``<prefix>v<version>_<key>``: a valid module name (dots of the version become ``_``)."""
    v = "".join(ch if ch.isalnum() else "_" for ch in project_version())
    return f"{prefix}v{v}_{key}"


def toolchain_key(h) -> None:
    """Feed the project's version and the compiler side into the hash object ``h`` (``hashlib`` API).

    The project's version (:func:`project_version`), Numba's install (its ``__init__`` path and
    modification time), NumPy's and Python's versions, the platform, the machine type and the extension
    suffix. Raises ``ImportError`` when Numba is not installed (it is found without importing it).
    """
    import numpy as np

    h.update(f"version {project_version()}\0".encode())
    spec = importlib.util.find_spec("numba")  # locates the package without importing it
    if spec is None or not spec.origin:
        raise ImportError("numba is not installed")
    h.update(spec.origin.encode())
    h.update(str(os.stat(spec.origin).st_mtime_ns).encode())
    for part in (np.__version__, sys.version, sys.platform, platform.machine(),
                 importlib.machinery.EXTENSION_SUFFIXES[0]):
        h.update(part.encode() + b"\0")


def toolchain_context() -> list:
    """What :func:`toolchain_key` hashes besides Numba's install, as plain values, plus ``sys.prefix`` (the
    environment Numba is installed in): a remembered key (:func:`remembered_key`) is trusted only while these
    are equal and Numba's ``__init__`` has the same file key."""
    import numpy as np

    machine = platform.machine()
    return [project_version(), np.__version__, sys.version, sys.platform, machine,
            importlib.machinery.EXTENSION_SUFFIXES[0], sys.prefix]


def remembered_key(tag: str, files: dict[str, Path], compute: Callable[[], str]) -> str:
    """``compute()`` (a module key hashing ``files`` and :func:`toolchain_key`), remembered until one of
    ``files`` or the toolchain changes.

    The record, ``<cache_dir>/verified/aot-key-<crc of tag and sys.prefix>.json`` (one per checkout and
    environment, so that two virtual environments using one checkout do not overwrite each other's)
    (:class:`lexicon_tools._verified.VerifiedState`), holds the key with the file key (device, inode, size,
    modification and status-change times) of each of ``files`` and of Numba's ``__init__``, and
    :func:`toolchain_context` as its context; while all of them are unchanged the key is read from there, so a
    start neither reads and hashes the sources nor imports ``hashlib``. The file keys are taken before
    ``compute()`` reads the files, so a file changed meanwhile is hashed again next time.

    Args:
        tag: names the record (e.g. the builder's prefix and the checkout's root).
        files: ``{name: path}`` of every file the key hashes.
        compute: computes the key; its exceptions (``ImportError`` without Numba, ``OSError``) propagate.
    """
    from ._verified import VerifiedState, _path_tag, settled

    state = VerifiedState(cache_dir() / "verified" / f"aot-key-{_path_tag(tag + chr(0) + sys.prefix)}.json",
                          {"tag": tag, "toolchain": toolchain_context()})
    data = state.read()
    extra = data.get("payload") if data else None
    numba = extra.get("numba") if isinstance(extra, dict) else None
    if isinstance(numba, str):
        found = state.payload(state.keys({**files, "numba": Path(numba)}), data)
        if found is not None and isinstance(found.get("key"), str):
            return found["key"]
    spec = importlib.util.find_spec("numba")  # locates the package without importing it
    keys = state.keys({**files, "numba": Path(spec.origin)}) if spec is not None and spec.origin else None
    k = compute()
    if settled(keys):  # a source edited just now is hashed again next time (lexicon_tools._verified.SETTLE_NS)
        state.record(keys, key=k, numba=spec.origin)
    return k


def unwritable(d: Path | None = None) -> str | None:
    """Why nothing can be written into the directory ``d`` (default :func:`aot_dir`; created when missing), or
    ``None`` when a file can be created there (a probe file, removed at once). Never raises."""
    import tempfile

    d = aot_dir() if d is None else d
    try:
        d.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=d, prefix=".probe.")
        os.close(fd)
        os.unlink(tmp)
        return None
    except OSError as exc:
        return exc.strerror or str(exc)


def compiling(name: str) -> bool:
    """True while another process compiles the module ``name`` (its lock file is held: :func:`_lock_held`)."""
    return _lock_held(aot_dir() / f"{name}.lock")


def _lock_owner() -> str:
    """What a lock file holds: ``<pid> <host name>`` of the compiling process."""
    return f"{os.getpid()} {platform.node()}"


def _lock_held(lock: Path) -> bool:
    """True when the lock file ``lock`` exists, is younger than :data:`LOCK_SECONDS`, and does not name a
    process of this machine that is gone.

    A build stopped by Ctrl-C during a first run (its process killed: :mod:`engine.analysis.warmup`),
    ``kill -9`` or a crash leaves its lock behind; without the owner's pid every later build would see
    "another process is compiling it" for 15 minutes. A lock without a readable owner (just created,
    or written by an older version) or from another machine (a shared cache directory) counts by its
    age alone. Never raises."""
    try:
        if time.time() - lock.stat().st_mtime >= LOCK_SECONDS:
            return False
        text = lock.read_text(encoding="utf-8", errors="replace").split()
    except OSError:
        return False
    if len(text) != 2 or not text[0].isdigit() or text[1] != platform.node():
        return True
    try:
        os.kill(int(text[0]), 0)
    except ProcessLookupError:
        return False  # its compiler was killed
    except (PermissionError, OverflowError, ValueError):
        return True  # alive under another user (or not a pid at all: keep to the age rule)
    return True


def module_paths(name: str) -> tuple[Path, Path]:
    """``(module file, failure marker)`` of the compiled module ``name`` in :func:`aot_dir`."""
    d = aot_dir()
    return d / (name + importlib.machinery.EXTENSION_SUFFIXES[0]), d / (name + ".failed")


def mark_used(*paths: Path) -> None:
    """Refresh the modification time of a loaded module's files when it is older than a day.

    :func:`prune` keeps what was used recently; one ``stat`` per file otherwise. Never raises (a
    read-only cache directory simply keeps its times).
    """
    now = time.time()
    for p in paths:
        try:
            if now - p.stat().st_mtime > _TOUCH_SECONDS:
                os.utime(p)
        except OSError:
            pass


def prune(prefix: str, keep: str, *, keep_days: float = KEEP_DAYS, keep_latest: int = KEEP_LATEST) -> list[str]:
    """Remove the modules of builder ``prefix`` that nobody used lately; never the module ``keep``.

    A module (its files ``<name>.*`` in :func:`aot_dir`) is removed when its newest file is older than
    ``keep_days`` days, or when more than ``keep_latest`` modules of the prefix are present (the least
    recently used go first). Lock files and temporary folders are left alone.

    Returns:
        the names of the removed modules. OS errors are ignored (another process may be removing too).
    """
    d = aot_dir()
    groups: dict[str, list[Path]] = {}
    try:
        entries = list(d.glob(prefix + "*"))
    except OSError:
        return []
    for p in entries:
        if p.name.endswith(".lock") or not p.is_file():
            continue
        groups.setdefault(p.name.split(".", 1)[0], []).append(p)
    groups.pop(keep, None)

    def last_used(files: list[Path]) -> float:
        t = 0.0
        for f in files:
            try:
                t = max(t, f.stat().st_mtime)
            except OSError:
                pass
        return t

    order = sorted(groups, key=lambda n: last_used(groups[n]), reverse=True)
    cutoff = time.time() - keep_days * 86400
    removed = []
    for i, n in enumerate(order):
        if i + 1 >= keep_latest or last_used(groups[n]) < cutoff:  # +1: the module ``keep`` counts too
            for f in groups[n]:
                try:
                    f.unlink()
                except OSError:
                    pass
            removed.append(n)
    return removed


class DamagedModule(ImportError):
    """A compiled module's file does not match the size and checksum recorded when it was built."""


def check_path(so: Path) -> Path:
    """``<name>.check`` beside the module file ``so``: its size and SHA-256 as written by :func:`compile_module`."""
    return so.parent / (so.name.split(".", 1)[0] + ".check")


def file_check(path: Path) -> dict:
    """``{"size": bytes, "sha256": hex digest}`` of the file ``path`` (raises ``OSError``)."""
    import hashlib

    h = hashlib.sha256()
    size = 0
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
            size += len(block)
    return {"size": size, "sha256": h.hexdigest()}


def write_check(so: Path, check: dict) -> None:
    """Write ``check`` (:func:`file_check` of the module) to :func:`check_path` atomically
    (:func:`lexicon_tools.normalize.write_atomic`: temp file, fsync, rename); raises ``ValueError`` naming the file."""
    from .normalize import write_atomic  # only when compiling: not on the start-up path of a loading process

    write_atomic(check_path(so), json.dumps(check))


def verified_path(so: Path) -> Path:
    """``<name>.verified`` beside the module file ``so``: its checksum as last computed, keyed by the file's
    device, inode, size and times (:func:`lexicon_tools._verified.remembered_sha256`); removed with the module."""
    return so.parent / (so.name.split(".", 1)[0] + ".verified")


def problem(so: Path) -> str | None:
    """Why the module file ``so`` must not be loaded, or ``None`` when it matches its :func:`check_path` record.

    ``"missing"`` when there is no file; otherwise a short reason (no record, another size, another
    checksum). The file is hashed once per change of it (about 1 MB; :func:`verified_path` remembers the
    digest by the file's key, which any write, truncation, copy or ``touch`` changes), not at every start.
    Never raises.
    """
    try:
        if not so.is_file():
            return "missing"
        try:
            want = json.loads(check_path(so).read_text(encoding="utf-8"))
            size, digest = int(want["size"]), str(want["sha256"])
        except FileNotFoundError:
            return "no record of its size and checksum"
        except (ValueError, KeyError, TypeError):
            return "its record of size and checksum is damaged"
        got_size = so.stat().st_size
        if got_size != size:
            return f"{got_size:,} bytes instead of {size:,}"
        if remembered_sha256(so, verified_path(so)) != digest:
            return "its checksum differs from the one recorded when it was built"
        return None
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"


def load_module(name: str, so: Path):
    """Import the extension module ``name`` from the file ``so``, once :func:`problem` found it intact.

    Raises:
        DamagedModule: the file does not match its record (it is not loaded: a truncated shared object
            crashes the process with a bus error).
        OSError, ImportError: it cannot be loaded (the callers then use the JIT kernels).
    """
    why = problem(so)
    if why is not None:
        raise DamagedModule(f"{so}: {why}")
    spec = importlib.util.spec_from_file_location(name, so)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {so}")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _quiet(fn: Callable[[], None]) -> None:
    """Run ``fn`` with file descriptors 1 and 2 sent to /dev/null (the C compiler talks)."""
    import warnings

    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fn()
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for f in (*saved, devnull):
            os.close(f)


def compile_module(name: str, prefix: str, export: Callable, *, progress: Callable[[str], None] | None = None,
                   announce: str = "", retry_hint: str = "the next run",
                   extra: Callable[[Path], dict[str, Path]] | None = None) -> bool:
    """Compile one ahead-of-time module into :func:`aot_dir` (see the module docstring).

    Args:
        name: the module's name, ``<prefix><key>``.
        prefix: the name shared by every key of this builder; after a success, :func:`prune` removes the
            modules of other keys that were not used lately.
        export: ``export(cc)`` registers the kernels on the ``numba.pycc.CC`` object ``cc``
            (``cc.export(name, signature)(py_func)``); it may raise to give up.
        progress: prints one line for the user (the announcement and a failure), or ``None``.
        announce: the line printed before compiling.
        retry_hint: where the compilation runs again after a Ctrl-C (for the message).
        extra: ``extra(tmp)`` runs after the compiler and returns ``{file name in tmp: final path}``
            of side files to move into place (e.g. the signatures a loader needs).

    Returns:
        True when the module was written; False when it exists, another process is compiling it, the
        directory cannot be written, it was interrupted (Ctrl-C) or it failed (then remembered).
    """
    import shutil
    import tempfile

    so, failed = module_paths(name)
    d = so.parent
    try:
        d.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    lock = d / f"{name}.lock"
    try:
        fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    except FileExistsError:
        if _lock_held(lock):
            return False  # another process is compiling it
        try:
            lock.unlink()  # stale: its build was killed (Ctrl-C in a first run, kill -9) or is long gone
        except FileNotFoundError:
            pass
        except OSError:
            return False
        return compile_module(name, prefix, export, progress=progress, announce=announce,
                              retry_hint=retry_hint, extra=extra)
    except OSError:
        return False
    try:
        os.write(fd, _lock_owner().encode("utf-8"))  # who compiles: a lock of a killed build is seen as stale
    except OSError:
        pass
    finally:
        os.close(fd)
    for left in d.glob(f".{name}.*"):  # work folders of killed builds of this module (old enough to be nobody's)
        try:
            if time.time() - left.stat().st_mtime >= LOCK_SECONDS:
                shutil.rmtree(left, ignore_errors=True)
        except OSError:
            pass
    tmp = None
    try:
        if progress and announce:
            progress(announce)
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # pycc is "pending deprecation" (Numba 0.57+)
            from numba.pycc import CC

        tmp = Path(tempfile.mkdtemp(prefix=f".{name}.", dir=d))
        cc = CC(name)
        cc.output_dir = str(tmp)
        cc.verbose = False
        export(cc)
        _quiet(cc.compile)
        built = tmp / so.name
        if not built.is_file():
            raise RuntimeError(f"the compiler wrote no {so.name}")
        moves = extra(tmp) if extra else {}
        check = file_check(built)
        os.replace(built, so)
        for src, dst in moves.items():
            os.replace(tmp / src, dst)
        write_check(so, check)  # last: a module without its record (a crash in between) counts as damaged
        try:
            failed.unlink()  # a rebuild (``--force``) after a remembered failure
        except OSError:
            pass
        prune(prefix, name)  # other keys stay while they are in use (other versions, other checkouts)
        return True
    except KeyboardInterrupt:
        if progress:
            progress(f"ahead-of-time compilation interrupted; it runs again after {retry_hint}")
        return False
    except Exception as exc:  # no compiler, no pycc, ...: remember, stay on the JIT kernels
        why = f"{type(exc).__name__}: {(str(exc).strip().splitlines() or [''])[0]}"
        try:
            failed.write_text(why + "\n", encoding="utf-8")
        except OSError:
            pass
        if progress:
            progress(f"ahead-of-time compilation failed ({why}); staying on the JIT kernels (not retried "
                     f"until the sources change; remove {failed} to retry)")
        return False
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
        try:
            lock.unlink()
        except OSError:
            pass
