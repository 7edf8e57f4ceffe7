"""Keep Numba's on-disk caches of the kernel modules in step with every kernel source.

Numba's ``cache=True`` keys a module's cache files (``__pycache__/<module>.<function>-<line>.py311.*.nb[ic]``)
on that module's own source file only. A kernel that calls (and so compiles in) a kernel of
another module keeps running the old code after that other module changed: after an edit, a
``git pull`` or an upgrade that touched only the callee, the caller would silently give the old
answers. So every kernel module calls :func:`drop_stale_cache` at import: it hashes the sources of
all kernel modules of both packages (``lexicon_tools/_*.py`` and ``engine/_*.py``, a few hundred
kilobytes, once per process) and deletes the calling module's cache files when the stamp written
beside them (``__pycache__/<module>.deps``) holds another digest. The kernels are then recompiled
on first use and cached again.
"""

from __future__ import annotations

import functools
import glob
import hashlib
import os
import tempfile

_PACKAGES = (os.path.dirname(os.path.abspath(__file__)),
             os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "engine"))


@functools.lru_cache(maxsize=1)
def kernel_sources_digest() -> str:
    """SHA-256 (hex) over the names and bytes of every ``_*.py`` file of ``lexicon_tools`` and ``engine``.

    A package directory that is missing (an install without ``engine``) is skipped. Raises
    ``OSError`` when a file cannot be read.
    """
    h = hashlib.sha256()
    for pkg in _PACKAGES:
        for path in sorted(glob.glob(os.path.join(pkg, "_*.py"))):
            with open(path, "rb") as f:
                data = f.read()
            h.update(os.path.basename(path).encode() + b"\0" + len(data).to_bytes(8, "little") + data)
    return h.hexdigest()


def drop_stale_cache(module_file: str, digest: str | None = None) -> bool:
    """Delete the Numba cache files of the module at ``module_file`` if they were made from other kernel sources.

    Args:
        module_file: the kernel module's ``__file__``; its caches are ``__pycache__/<stem>.*.nb[ic]`` beside it.
        digest: the current sources' digest (default :func:`kernel_sources_digest`).

    Returns:
        True if cache files were deleted (or the stamp was new), False if the stamp matched or an
        OS error (read-only install, a race with another process) left everything as it was.
    The stamp is written atomically (temp file, rename); errors are never raised.
    """
    try:
        digest = digest or kernel_sources_digest()
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
