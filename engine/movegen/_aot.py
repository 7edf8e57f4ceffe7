"""Ahead-of-time compiled move-generation kernels (``numba.pycc``) for a fast start.

Importing Numba and loading even cached JIT kernels costs a new process about
0.4 s of CPU, more than the rest of ``python -m engine best`` together. The
entry kernels (:data:`KERNELS`) are therefore also compiled once into a plain
extension module that needs only NumPy at run time:

* the module lives in ``<cache_dir>/aot/`` (:func:`lexicon_tools.paths.cache_dir`)
  as ``gse_kernels_<key>`` with a JSON file of the compiled signatures; ``key``
  hashes the kernel and wrapper sources, the NumPy, Numba and Python versions
  and the machine type, and the project's version is part of both the key and the name
  (``gse_kernels_v0_2_0_<key>``), so any change makes a new module; modules of other keys
  stay while some other version or checkout uses them (:func:`lexicon_tools._aot.prune`);
* it is built by :func:`engine.movegen.generator.build_aot` (which calls :func:`build`) after a ``best``/``moves`` command printed its
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

import json
import os
from pathlib import Path

import numpy as np

from lexicon_tools import _aot as _shared
from lexicon_tools._aot import enabled  # noqa: F401  (GSE_AOT)

KERNELS = ("movegen_best", "movegen_all")
"""Entry kernels compiled ahead of time: what ``best`` and ``moves`` call (engine.movegen.generator)."""

_SOURCES = ("engine/movegen/_movegen.py", "engine/movegen/_allmoves.py", "engine/movegen/_wordmap.py",
            "engine/leaves/_kernels.py", "engine/position/_rows.py", "engine/movegen/generator.py",
            "engine/movegen/_aot.py", "lexicon_tools/_kwg_kernels.py", "lexicon_tools/_kwg_nodes.py",
            "lexicon_tools/_kwg_layout.py", "lexicon_tools/_aot.py")
"""Files (from the repository root) whose bytes key the compiled module: the kernels it contains, what they
inline, and the wrapper whose calls decide the signatures."""


PREFIX = "gse_kernels_"


def key() -> str:
    """Hash of everything the compiled module depends on (24 hex digits): :data:`_SOURCES` and the
    toolchain (:func:`lexicon_tools._aot.toolchain_key`).

    Computed once per change of those files or of the toolchain and remembered
    (:func:`lexicon_tools._aot.remembered_key`): a later start reads it instead of reading and hashing
    the sources again.
    """
    root = Path(__file__).resolve().parents[2]

    def compute() -> str:
        import hashlib

        h = hashlib.sha256()
        for rel in _SOURCES:
            h.update(f"{rel}\0".encode())
            h.update((root / rel).read_bytes())
        _shared.toolchain_key(h)
        return h.hexdigest()[:24]

    return _shared.remembered_key(f"{PREFIX}{root}", {rel: root / rel for rel in _SOURCES}, compute)


def _paths(k: str) -> tuple[str, Path, Path, Path]:
    name = _shared.module_name(PREFIX, k)
    so, failed = _shared.module_paths(name)
    return name, so, so.parent / (name + ".json"), failed


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
        from engine.movegen import _movegen

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
    call.__doc__ = f"Ahead-of-time compiled engine._movegen.{name} (guarded; see engine.movegen._aot)."
    call.aot = fn
    call.accepts = accepts
    return call


def damaged() -> str | None:
    """Why the module of the current key exists but must not be loaded (:func:`lexicon_tools._aot.problem`:
    truncated, another checksum, no record), or ``None`` (intact, absent or ``GSE_AOT=0``). Never raises."""
    if not _shared.enabled():
        return None
    try:
        _, so, _, _ = _paths(key())
    except (OSError, ImportError):
        return None
    why = _shared.problem(so)
    return None if why in (None, "missing") else f"{so} ({why})"


def load() -> dict | None:
    """The guarded compiled kernels ``{name: callable}``, or ``None`` (not built, disabled, unreadable, or
    damaged: :func:`damaged` says why; it is never loaded then, and :func:`needs_build` is True)."""
    if not _shared.enabled():
        return None
    try:
        name, so, sig_path, _ = _paths(key())
        if not (so.is_file() and sig_path.is_file()):
            return None
        sigs = json.loads(sig_path.read_text(encoding="utf-8"))["kernels"]
        mod = _shared.load_module(name, so)
        _shared.mark_used(so, sig_path)
        return {k: _guarded(k, getattr(mod, k), v) for k, v in sigs.items()}
    except (OSError, ImportError, ValueError, KeyError, TypeError, AttributeError):
        return None


# ---------------------------------------------------------------------------
# Building
# ---------------------------------------------------------------------------
def needs_build() -> bool:
    """True when AOT is enabled and no intact module (nor a remembered failure) exists for the current key.

    A module whose file does not match the size and checksum recorded when it was built
    (:func:`lexicon_tools._aot.problem`) counts as missing: it is built again."""
    if not _shared.enabled():
        return False
    try:
        _, so, sig_path, failed = _paths(key())
    except (OSError, ImportError):
        return False
    return not (sig_path.is_file() and _shared.problem(so) is None) and not failed.exists()


def building() -> bool:
    """True while some process compiles the module of the current key (e.g. one started in the background)."""
    try:
        return _shared.compiling(_paths(key())[0])
    except (OSError, ImportError):
        return False


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


def build(captured: dict, progress=None, force: bool = False) -> bool:
    """Compile :data:`KERNELS` ahead of time for the argument types the wrapper passed.

    Args:
        captured: ``{kernel name: arguments of one call}`` as :mod:`engine.movegen.generator` made them
            (:func:`engine.movegen.generator.build_aot` records them on an empty board), so that the
            compiled signatures are exactly the ones the wrapper uses.
        progress: prints one line for the user, or ``None``.
        force: compile even when an intact module or a remembered failure exists (``warmup aot --force``);
            the new module replaces the old one (a rename: a process using the old one keeps it).

    The compilation itself (lock, quiet compiler, remembered failure) is
    :func:`lexicon_tools._aot.compile_module`.

    Returns:
        True when the module was written.
    """
    if not (needs_build() or force and _shared.enabled()):
        return False
    k = key()
    name, so, sig_path, failed = _paths(k)
    sigs: dict = {}

    def export(cc) -> None:
        from numba import typeof

        from engine.movegen import _movegen as K

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

    def signatures(tmp: Path) -> dict:
        with open(tmp / "sig.json", "w", encoding="utf-8") as f:
            json.dump({"key": k, "kernels": sigs}, f)
            f.flush()
            os.fsync(f.fileno())
        return {"sig.json": sig_path}

    return _shared.compile_module(
        name, PREFIX, export, progress=progress, extra=signatures, retry_hint="the next best/moves",
        announce="compiling the move generator ahead of time (once, about 20 s) so that later starts "
                 "skip Numba; GSE_AOT=0 turns this off")
