"""Ahead-of-time compiled move-generation kernels (``numba.pycc``) for a fast start.

Importing Numba and loading even cached JIT kernels costs a new process about
0.4 s of CPU, more than the rest of ``python -m engine best`` together. The
entry kernels (:data:`KERNELS`) are therefore also compiled once into a plain
extension module that needs only NumPy at run time:

* the module lives in ``<cache_dir>/aot/`` (:func:`lexicon_tools.bundle.cache_dir`)
  as ``gse_kernels_<key>`` with a JSON file of the compiled signatures; ``key``
  hashes the kernel and wrapper sources, the NumPy, Numba and Python versions
  and the machine type, so any change makes a new module (old ones are removed);
* it is built by :func:`build` after a ``best``/``moves`` command printed its
  answer (``python -m engine`` notes it on stderr; about 20 s once), using the
  signatures the JIT kernels were just called with, for a generic CPU of the
  machine type (no host-specific instructions, so a shared cache is safe);
* a failed build (no C compiler, a Numba without ``pycc``) is remembered and
  not retried for the same key; everything then runs on the JIT kernels as
  before. ``GSE_AOT=0`` turns loading and building off.

Compiled code does not check its arguments (a wrong dtype crashes the
process), so :func:`load` wraps every kernel in a guard that compares each
argument with the compiled signature and calls the JIT kernel when one differs.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import platform
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

KERNELS = ("movegen_best", "movegen_all")
"""Entry kernels compiled ahead of time: what ``best`` and ``moves`` call (engine.movegen)."""

_SOURCES = (("engine", "_movegen.py"), ("engine", "_allmoves.py"), ("engine", "_rows.py"), ("engine", "movegen.py"),
            ("engine", "_aot.py"), ("lexicon_tools", "_kwg_kernels.py"), ("lexicon_tools", "_kwg_nodes.py"))


def enabled() -> bool:
    """False when ``GSE_AOT=0`` (or ``no``/``off``/``false``) is set."""
    return os.environ.get("GSE_AOT", "1").strip().lower() not in ("0", "no", "off", "false")


def _aot_dir() -> Path:
    from lexicon_tools.bundle import cache_dir

    return cache_dir() / "aot"


def key() -> str:
    """Hash of everything the compiled module depends on (24 hex digits)."""
    h = hashlib.sha256()
    root = Path(__file__).resolve().parent.parent
    for pkg, name in _SOURCES:
        h.update(f"{pkg}/{name}\0".encode())
        h.update((root / pkg / name).read_bytes())
    spec = importlib.util.find_spec("numba")  # locates the package without importing it
    if spec is None or not spec.origin:
        raise ImportError("numba is not installed")
    h.update(spec.origin.encode())
    h.update(str(os.stat(spec.origin).st_mtime_ns).encode())
    for part in (np.__version__, sys.version, sys.platform, platform.machine(),
                 importlib.machinery.EXTENSION_SUFFIXES[0]):
        h.update(part.encode() + b"\0")
    return h.hexdigest()[:24]


def _paths(k: str) -> tuple[str, Path, Path, Path]:
    name = f"gse_kernels_{k}"
    d = _aot_dir()
    return name, d / (name + importlib.machinery.EXTENSION_SUFFIXES[0]), d / (name + ".json"), \
        d / (name + ".failed")


# ---------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------
def _guarded(name: str, fn, spec: list):
    """``fn`` behind a check of every argument against the compiled signature ``spec``."""
    n = len(spec)
    arrays = [(i, np.dtype(s[1]), s[2], s[3]) for i, s in enumerate(spec) if s[0] == "a"]
    ints = [i for i, s in enumerate(spec) if s[0] == "i"]
    floats = [i for i, s in enumerate(spec) if s[0] == "f"]
    bools = [i for i, s in enumerate(spec) if s[0] == "b"]

    def jit(*args):
        from . import _movegen

        return getattr(_movegen, name)(*args)

    def accepts(*args) -> bool:
        """True when the arguments have exactly the compiled types (else the JIT kernel is called)."""
        if len(args) != n:
            return False
        for i, dt, ndim, readonly in arrays:
            a = args[i]
            if not isinstance(a, np.ndarray) or a.dtype != dt or a.ndim != ndim or not a.flags.c_contiguous \
                    or not a.flags.aligned or (not readonly and not a.flags.writeable):
                return False
        for i in ints:
            if not isinstance(args[i], (int, np.integer)) or isinstance(args[i], bool):
                return False
        for i in floats:
            if not isinstance(args[i], (int, float, np.integer, np.floating)):
                return False
        for i in bools:
            if not isinstance(args[i], (bool, np.bool_)):
                return False
        return True

    def call(*args):
        return fn(*args) if accepts(*args) else jit(*args)

    call.__name__ = name
    call.__doc__ = f"Ahead-of-time compiled engine._movegen.{name} (guarded; see engine._aot)."
    call.aot = fn
    call.accepts = accepts
    return call


def load() -> dict | None:
    """The guarded compiled kernels ``{name: callable}``, or ``None`` (not built, disabled, unreadable)."""
    if not enabled():
        return None
    try:
        name, so, sig_path, _ = _paths(key())
        if not (so.is_file() and sig_path.is_file()):
            return None
        sigs = json.loads(sig_path.read_text(encoding="utf-8"))["kernels"]
        spec = importlib.util.spec_from_file_location(name, so)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return {k: _guarded(k, getattr(mod, k), v) for k, v in sigs.items()}
    except (OSError, ImportError, ValueError, KeyError, TypeError, AttributeError):
        return None


# ---------------------------------------------------------------------------
# Building
# ---------------------------------------------------------------------------
def needs_build() -> bool:
    """True when AOT is enabled and no module (nor a remembered failure) exists for the current key."""
    if not enabled():
        return False
    try:
        _, so, sig_path, failed = _paths(key())
    except (OSError, ImportError):
        return False
    return not (so.is_file() and sig_path.is_file()) and not failed.exists()


def _spec_of(numba_type) -> list | None:
    """``["a", dtype, ndim, readonly]`` / ``["i"]`` / ``["f"]`` / ``["b"]`` for a Numba argument type, else ``None``."""
    from numba import types
    from numba.np.numpy_support import as_dtype

    if isinstance(numba_type, types.Array):
        if numba_type.layout != "C" or not numba_type.aligned:
            return None
        return ["a", as_dtype(numba_type.dtype).str, int(numba_type.ndim), not numba_type.mutable]
    if isinstance(numba_type, types.Boolean):
        return ["b"]
    if isinstance(numba_type, types.Integer):
        return ["i"]
    if isinstance(numba_type, types.Float):
        return ["f"]
    return None


def build(lexicon, progress=None) -> bool:
    """Compile :data:`KERNELS` ahead of time for the argument types ``engine.movegen`` passes.

    The kernels are first called through :mod:`engine.movegen` on an empty
    board with ``lexicon`` (JIT, from Numba's cache), so the compiled
    signatures are exactly the ones the wrapper uses. Output of the C
    compiler is discarded. A failure is remembered (``.failed`` file) and not
    retried for this key.

    Returns:
        True when the module was written.
    """
    if not needs_build():
        return False
    name, so, sig_path, failed = _paths(key())
    d = so.parent
    try:
        d.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    lock = d / f"{name}.lock"
    try:
        fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        os.close(fd)
    except FileExistsError:
        try:
            if time.time() - lock.stat().st_mtime < 900:
                return False  # another process is building it
            lock.unlink()
            return build(lexicon, progress)
        except OSError:
            return False
    except OSError:
        return False
    tmp = None
    try:
        if progress:
            progress("compiling the move generator ahead of time (once, about 20 s) so that later starts "
                     "skip Numba; GSE_AOT=0 turns this off")
        from numba import typeof

        from . import _kernels, _movegen as K
        from . import movegen
        from .board import Board

        captured: dict = {}

        def recorder(kname, f):
            def call(*args):
                captured.setdefault(kname, args)
                return f(*args)
            return call

        saved_attrs = {kname: _kernels.__dict__.get(kname) for kname in KERNELS}
        try:
            for kname in KERNELS:
                setattr(_kernels, kname, recorder(kname, getattr(K, kname)))
            board = Board(lexicon.alphabet)
            rack = lexicon.alphabet.parse_rack("AB")
            movegen.generate_moves(board, rack, lexicon)
            movegen.best_move_list(board, rack, lexicon, 1)
        finally:
            for kname, v in saved_attrs.items():
                if v is None:
                    _kernels.__dict__.pop(kname, None)
                else:
                    setattr(_kernels, kname, v)
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # pycc is "pending deprecation" (Numba 0.57+); see docs
            from numba.pycc import CC

        tmp = Path(tempfile.mkdtemp(prefix=f".{name}.", dir=d))
        cc = CC(name)
        cc.output_dir = str(tmp)
        cc.verbose = False
        sigs = {}
        for kname in KERNELS:
            if kname not in captured:
                continue
            disp = getattr(K, kname)
            argtypes = tuple(typeof(a) for a in captured[kname])  # exactly what the wrapper passed
            cres = disp.overloads.get(argtypes)
            if cres is None:
                continue
            sig = cres.signature
            spec = [_spec_of(t) for t in sig.args]
            if any(x is None for x in spec):
                continue
            cc.export(kname, sig)(disp.py_func)
            sigs[kname] = spec
        if not sigs:
            raise RuntimeError("no kernel signature to compile")
        sys.stdout.flush()
        sys.stderr.flush()
        saved = os.dup(1), os.dup(2)
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                cc.compile()
        finally:
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            for f in (*saved, devnull):
                os.close(f)
        built = tmp / so.name
        if not built.is_file():
            raise RuntimeError(f"the compiler wrote no {so.name}")
        os.replace(built, so)
        with open(tmp / "sig.json", "w", encoding="utf-8") as f:
            json.dump({"key": key(), "kernels": sigs}, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp / "sig.json", sig_path)
        for old in d.glob("gse_kernels_*"):  # modules of older sources
            if not old.name.startswith(name):
                try:
                    old.unlink()
                except OSError:
                    pass
        return True
    except KeyboardInterrupt:  # the answer is printed already: stop quietly, try again next time
        if progress:
            progress("ahead-of-time compilation interrupted; it runs again after the next best/moves")
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
