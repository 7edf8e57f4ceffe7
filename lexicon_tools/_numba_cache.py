"""Keep Numba's on-disk caches of the kernel modules in step with the kernel sources they compile in.

Numba's ``cache=True`` keys a module's cache files (``__pycache__/<module>.<function>-<line>.py311.*.nb[ic]``)
on that module's own source file only. A kernel that calls (and so compiles in) a kernel of
another module, or reads its constants, keeps running the old code after that other module changed:
after an edit, a ``git pull`` or an upgrade that touched only the callee, the caller would silently
give the old answers. So every kernel module calls :func:`drop_stale_cache` at import: it hashes the
sources of the kernel-side modules it depends on (:func:`kernel_closure`: the module itself and,
transitively, every ``_``-prefixed module of ``lexicon_tools`` or ``engine`` it imports; a few tens
of kilobytes, once per process) and deletes the module's cache files when the stamp written beside
them (``__pycache__/<module>.deps``) holds another digest. The kernels are then recompiled on first
use and cached again. Editing a module no kernel imports (an API module, a layout helper of the
Python side) drops no cache.

A cache file cut short (a full disk, a crash, a copy interrupted) made Numba raise an
``UnpicklingError`` on every run, and a recompilation could not repair it (Numba reads the index
before it writes). :func:`guard_cache_reads` (run by :func:`drop_stale_cache`, so by every kernel
module at import) makes such a file a cache miss: that kernel's cache files are deleted, a
:class:`DamagedCacheWarning` names them, and the kernel is compiled and cached again.
"""

from __future__ import annotations

import ast
import functools
import glob
import hashlib
import os
import re
import tempfile
import warnings
from pathlib import Path
from typing import Iterable

_ROOT = Path(__file__).resolve().parent.parent
_PACKAGES = ("lexicon_tools", "engine")
"""Top-level packages (directories under :data:`_ROOT`) whose ``_*.py`` modules can hold kernels."""
_NOT_KERNEL_SIDE = frozenset({"_numba_cache.py"})
"""Imported by every kernel module but compiled into none."""


def _module_path(name: str) -> Path | None:
    """The source file of the module ``name`` (dotted) under :data:`_ROOT`, or None (a package, or outside)."""
    parts = name.split(".")
    if parts[0] not in _PACKAGES:
        return None
    path = _ROOT.joinpath(*parts[:-1], parts[-1] + ".py")
    return path if path.is_file() else None


def _imported_modules(path: Path) -> set[Path]:
    """Files of this project that the module at ``path`` imports (relative or absolute, at any depth)."""
    parts = path.resolve().relative_to(_ROOT).with_suffix("").parts
    tree = ast.parse(path.read_bytes(), filename=str(path))
    found: set[Path] = set()
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(parts[:len(parts) - node.level]) if node.level else ""
            mod = ".".join(x for x in (base, node.module or "") if x)
            names = [mod] + [f"{mod}.{a.name}" for a in node.names]
        for name in names:
            p = _module_path(name)
            if p is not None:
                found.add(p)
    return found


@functools.lru_cache(maxsize=None)
def kernel_closure(module_file: str) -> tuple[Path, ...]:
    """The kernel-side sources the module at ``module_file`` compiles in, sorted.

    The module itself and, transitively, every ``_``-prefixed module of ``lexicon_tools`` and ``engine``
    it imports (kernels, and the constants they read), except :data:`_NOT_KERNEL_SIDE`. Raises
    ``OSError`` or ``SyntaxError`` when a source cannot be read or parsed.
    """
    start = Path(module_file).resolve()
    seen = {start}
    todo = [start]
    while todo:
        for p in _imported_modules(todo.pop()):
            if p.name.startswith("_") and p.name not in _NOT_KERNEL_SIDE and p not in seen:
                seen.add(p)
                todo.append(p)
    return tuple(sorted(seen))


def sources_digest(files: Iterable[Path]) -> str:
    """SHA-256 (hex) over the paths (relative to the repository root) and bytes of ``files``."""
    h = hashlib.sha256()
    for path in sorted(set(Path(f).resolve() for f in files)):
        data = path.read_bytes()
        h.update(str(path.relative_to(_ROOT)).encode() + b"\0" + len(data).to_bytes(8, "little") + data)
    return h.hexdigest()


def kernel_modules() -> list[Path]:
    """Every module of the two packages that defines a Numba kernel (a line of its source starts with a ``@njit`` or ``@jit`` decorator), sorted."""
    out = []
    for pkg in _PACKAGES:
        for path in sorted((_ROOT / pkg).rglob("_*.py")):
            if re.search(rb"^[ \t]*@(numba\.)?n?jit\b", path.read_bytes(), re.M):
                out.append(path)
    return out


@functools.lru_cache(maxsize=None)
def kernel_sources_digest(module_file: str | None = None) -> str:
    """Digest of the kernel-side sources of one module (:func:`kernel_closure`), or of every kernel module.

    Args:
        module_file: a kernel module's ``__file__``; ``None`` for the union over :func:`kernel_modules`.

    Raises ``OSError`` when a file cannot be read.
    """
    if module_file is not None:
        return sources_digest(kernel_closure(module_file))
    files: set[Path] = set()
    for m in kernel_modules():
        files.update(kernel_closure(str(m)))
    return sources_digest(files)


class DamagedCacheWarning(RuntimeWarning):
    """A Numba cache file could not be read back (truncated or garbled); it was deleted and the kernel recompiled."""


_GUARDED = False


def _drop_kernel_cache(index_path: str, exc: BaseException) -> None:
    """Delete one kernel's cache files (its index ``<base>.nbi`` and data files ``<base>.<n>.nbc``) and warn."""
    base = index_path[:-len(".nbi")] if index_path.endswith(".nbi") else index_path
    dropped = []
    for path in [index_path] + glob.glob(glob.escape(base) + ".*.nbc"):
        try:
            os.unlink(path)
            dropped.append(os.path.basename(path))
        except OSError:
            pass
    why = (str(exc).strip().splitlines() or [""])[0]
    warnings.warn(DamagedCacheWarning(
        f"Numba's cache of {os.path.basename(base)} could not be read ({type(exc).__name__}: {why}); "
        f"deleted {len(dropped)} file(s) in {os.path.dirname(index_path)}, the kernel is compiled again"), stacklevel=2)


def guard_cache_reads() -> None:
    """Make a damaged Numba cache file a cache miss instead of an error (once per process).

    Wraps ``numba.core.caching.IndexDataCacheFile._load_index`` and ``_load_data`` (the two places Numba
    unpickles a cache file, for loading and before saving): when unpickling fails with anything but an
    ``OSError``, the kernel's cache files are deleted (:func:`_drop_kernel_cache`, a
    :class:`DamagedCacheWarning`) and an empty index or no data is returned, so Numba compiles the kernel
    and writes fresh files. Imports ``numba.core.caching``; an older or newer Numba without these methods is
    left as it is.
    """
    global _GUARDED
    if _GUARDED:
        return
    _GUARDED = True
    try:
        from numba.core import caching
    except ImportError:
        return
    cls = getattr(caching, "IndexDataCacheFile", None)
    load_index, load_data = getattr(cls, "_load_index", None), getattr(cls, "_load_data", None)
    if load_index is None or load_data is None:
        return

    def _load_index(self):
        try:
            return load_index(self)
        except OSError:
            raise
        except Exception as exc:  # UnpicklingError, EOFError, ValueError, ...: the file is damaged
            _drop_kernel_cache(self._index_path, exc)
            return {}

    def _load_data(self, name):
        try:
            return load_data(self, name)
        except OSError:
            raise
        except Exception as exc:
            _drop_kernel_cache(self._index_path, exc)
            return None

    cls._load_index, cls._load_data = _load_index, _load_data


def drop_stale_cache(module_file: str, digest: str | None = None) -> bool:
    """Delete the Numba cache files of the module at ``module_file`` if they were made from other kernel sources.

    Args:
        module_file: the kernel module's ``__file__``; its caches are ``__pycache__/<stem>.*.nb[ic]`` beside it.
        digest: the current sources' digest (default ``kernel_sources_digest(module_file)``).

    Returns:
        True if cache files were deleted (or the stamp was new), False if the stamp matched or an
        OS error (read-only install, a race with another process) left everything as it was.
    The stamp is written atomically (temp file, rename); errors are never raised. Also makes damaged
    cache files a cache miss (:func:`guard_cache_reads`).
    """
    guard_cache_reads()
    try:
        digest = digest or kernel_sources_digest(os.path.abspath(module_file))
        stem = os.path.splitext(os.path.basename(module_file))[0]
        cache = os.path.join(os.path.dirname(os.path.abspath(module_file)), "__pycache__")
        stamp = os.path.join(cache, stem + ".deps")
        try:
            with open(stamp, encoding="ascii") as f:
                if f.read().strip() == digest:
                    return False
        except FileNotFoundError:
            pass
        os.makedirs(cache, exist_ok=True)  # a fresh checkout: no cache yet, the stamp goes first
        for path in glob.glob(os.path.join(cache, glob.escape(stem) + ".*.nb[ic]")):
            os.unlink(path)
        fd, tmp = tempfile.mkstemp(dir=cache, prefix=stem + ".deps.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="ascii") as f:
                f.write(digest + "\n")
            os.replace(tmp, stamp)
        except BaseException:
            os.unlink(tmp)
            raise
        return True
    except OSError:
        return False


def is_cached(module_file: str, function: str) -> bool:
    """True if Numba's on-disk cache holds compiled code of ``function`` of the module at ``module_file``.

    Looks for the cache index ``__pycache__/<stem>.<function>-<line>.py*.nbi``; the
    caller uses it to say "compiling, once" before a first, slow call. Never raises.
    """
    stem = os.path.splitext(os.path.basename(module_file))[0]
    cache = os.path.join(os.path.dirname(os.path.abspath(module_file)), "__pycache__")
    return bool(glob.glob(os.path.join(glob.escape(cache), f"{glob.escape(stem)}.{function}-*.nbi")))
