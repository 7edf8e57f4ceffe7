"""The lexicon builder's entry kernels: ahead-of-time compiled (``numba.pycc``) when built, else Numba JIT.

Importing Numba and setting up its runtime costs a build process about 0.25 s of
CPU and 65 MB before the first kernel runs, a third of a whole build of the
300,000-word German list. The few kernels a build calls from Python
(:data:`SIGNATURES`) are therefore also compiled once into a plain extension
module that needs only NumPy:

* it lives in ``<cache_dir>/aot/`` (:func:`lexicon_tools.paths.cache_dir`) as
  ``gse_lexbuild_v<version>_<key>``; ``key`` hashes the kernel sources the builder compiles in
  (:func:`lexicon_tools._numba_cache.kernel_closure`), the project's version, the NumPy, Numba
  and Python versions and the machine type, so any change makes a new module; modules of other
  keys stay while another version or checkout uses them (:func:`lexicon_tools._aot.prune`);
* ``lexicon-tools build`` compiles it after it wrote its bundle when it is
  missing (:func:`build`; about 30 s once, noted on stderr), for a generic CPU
  of the machine type (no host-specific instructions, so a shared cache is
  safe), with the explicit signatures of :data:`SIGNATURES`;
* a failed compilation (no C compiler, a Numba without ``pycc``) is remembered
  and not retried for the same key; everything then runs on the JIT kernels.
  ``GSE_AOT=0`` turns loading and compiling off (the tests set it).

Compiled code does not check its arguments (a wrong dtype crashes the
process), so every compiled kernel is wrapped in a guard that compares each
array argument with the signature and calls the JIT kernel when one differs.
The move generator has its own module of the same kind (``engine.movegen._aot``).
"""

from __future__ import annotations

import importlib
from pathlib import Path

import numpy as np

from . import _aot
from ._aot import enabled  # noqa: F401  (the builder's switch, GSE_AOT)

# name -> (JIT module, [(exported name, argument specs, return type)]); an argument spec is
# (dtype, ndim) for a C-contiguous writable array or "i" for an integer. Kernels that take a node
# array are compiled twice, for the KWG (uint32) and the wide layout (uint64).
_U8_2, _U8_1, _I32_1, _I64_1, _U64_1, _U32_1 = ("u1", 2), ("u1", 1), ("i4", 1), ("i8", 1), ("u8", 1), ("u4", 1)
SIGNATURES: dict[str, tuple[str, list[tuple[str, tuple, str]]]] = {
    "sorted_word_rows": ("_kwg_kernels", [("sorted_word_rows", (_U8_1, _I32_1), "u8_2")]),
    "word_matrix": ("_kwg_kernels", [("word_matrix", (_U8_1, _I32_1, "i", "i"), "u8_2")]),
    "graph_states": ("_kwg_kernels", [("graph_states", (_U8_2,), "states")]),
    "emit_nodes": ("_kwg_kernels", [
        (f"emit_nodes_{t}", ((t, 1), _U8_1, _U8_1, _I32_1, _I32_1, _I32_1, _I64_1, "i", "i", _I32_1, _I32_1,
                             _I64_1, _I32_1, "i", "i", "i", "i"), "none") for t in ("u4", "u8")]),
    "check_structure_full": ("_kwg_check", [
        (f"check_structure_full_{t}", ((t, 1), "i", "i"), "i8_pair") for t in ("u4", "u8")]),
    "verify_graph": ("_kwg_kernels", [
        (f"verify_graph_{t}", ((t, 1), _U8_2, _U8_2, _I32_1), "i8_1") for t in ("u4", "u8")]),
}
"""The builder's entry kernels and the signatures they are compiled ahead of time for."""


PREFIX = "gse_lexbuild_"


def key() -> str:
    """Hash of everything the compiled module depends on (24 hex digits): the sources the builder's kernels
    compile in (:func:`lexicon_tools._numba_cache.kernel_closure` of each module of :data:`SIGNATURES`) and
    the toolchain (:func:`lexicon_tools._aot.toolchain_key`)."""
    import hashlib

    from ._numba_cache import kernel_closure, sources_digest

    here = Path(__file__).resolve().parent
    files = set()
    for jit_module, _ in SIGNATURES.values():
        files.update(kernel_closure(str(here / f"{jit_module}.py")))
    h = hashlib.sha256(sources_digest(files).encode())
    _aot.toolchain_key(h)
    return h.hexdigest()[:24]


def _paths(k: str) -> tuple[str, Path, Path]:
    name = _aot.module_name(PREFIX, k)
    so, failed = _aot.module_paths(name)
    return name, so, failed


# ---------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------
def _fits(args, spec) -> bool:
    if len(args) != len(spec):
        return False
    for a, s in zip(args, spec):
        if s == "i":
            if not isinstance(a, (int, np.integer)) or isinstance(a, bool):
                return False
        elif not (isinstance(a, np.ndarray) and a.dtype == np.dtype(s[0]) and a.ndim == s[1]
                  and a.flags.c_contiguous and a.flags.aligned and a.flags.writeable):
            return False
    return True


class _Kernels:
    """The entry kernels as attributes: compiled ones behind a type guard, the JIT ones otherwise."""

    def __init__(self, module=None):
        self.aot = module is not None
        self._mod = module

    def __getattr__(self, name: str):
        if name not in SIGNATURES:
            raise AttributeError(name)
        jit_module, variants = SIGNATURES[name]
        if self._mod is None:
            fn = getattr(importlib.import_module(f"lexicon_tools.{jit_module}"), name)
        else:
            compiled = [(getattr(self._mod, export), spec) for export, spec, _ in variants]

            def fn(*args, _compiled=compiled, _name=name, _jit_module=jit_module):
                for f, spec in _compiled:
                    if _fits(args, spec):
                        return f(*args)
                return getattr(importlib.import_module(f"lexicon_tools.{_jit_module}"), _name)(*args)

            fn.__name__ = name
        setattr(self, name, fn)  # later look-ups are plain attribute reads
        return fn


_LOADED: _Kernels | None = None


def kernels() -> _Kernels:
    """The builder's entry kernels (:data:`SIGNATURES`): from the compiled module when it exists for these
    sources and ``GSE_AOT`` does not turn it off, else the Numba JIT kernels (imported on first call)."""
    global _LOADED
    if _LOADED is None:
        _LOADED = _Kernels(_load_module())
    return _LOADED


def _load_module():
    if not enabled():
        return None
    try:
        name, so, _ = _paths(key())
        if not so.is_file():
            return None
        mod = _aot.load_module(name, so)
        _aot.mark_used(so)
        for _, variants in SIGNATURES.values():
            for export, _, _ in variants:
                getattr(mod, export)
        return mod
    except (OSError, ImportError, AttributeError, ValueError):
        return None


# ---------------------------------------------------------------------------
# Building
# ---------------------------------------------------------------------------
def needs_build() -> bool:
    """True when AOT is enabled and neither an intact module nor a remembered failure exists for the current key.

    A module that does not match the size and checksum recorded when it was built
    (:func:`lexicon_tools._aot.problem`) counts as missing: it is never loaded, and built again."""
    if not enabled():
        return False
    try:
        _, so, failed = _paths(key())
    except (OSError, ImportError):
        return False
    return _aot.problem(so) is not None and not failed.exists()


def _numba_signature(arg_specs, ret: str):
    from numba import types
    from numba.np.numpy_support import from_dtype

    def arr(s):
        return types.Array(from_dtype(np.dtype(s[0])), s[1], "C")

    args = [types.int64 if s == "i" else arr(s) for s in arg_specs]
    i64 = types.int64
    rets = {
        "u8_2": arr(_U8_2),
        "i8_1": arr(_I64_1),
        "i8_pair": types.UniTuple(i64, 2),
        "none": types.none,
        "states": types.Tuple([arr(_U8_1), arr(_U8_1), arr(_I32_1), arr(_I32_1), arr(_I32_1), arr(_I64_1), i64, i64,
                               arr(_I32_1), arr(_I32_1), arr(_I64_1), arr(_I32_1), i64, i64]),
    }
    return rets[ret](*args)


def build(progress=None) -> bool:
    """Compile :data:`SIGNATURES` ahead of time into the cache (see the module docstring and
    :func:`lexicon_tools._aot.compile_module`: lock, quiet compiler, remembered failure).

    Returns:
        True when the module was written.
    """
    if not needs_build():
        return False
    name, _, _ = _paths(key())

    def export(cc) -> None:
        for kname, (jit_module, variants) in SIGNATURES.items():
            disp = getattr(importlib.import_module(f"lexicon_tools.{jit_module}"), kname)
            for exported, arg_specs, ret in variants:
                cc.export(exported, _numba_signature(arg_specs, ret))(disp.py_func)

    return _aot.compile_module(
        name, PREFIX, export, progress=progress, retry_hint="the next build",
        announce="compiling the lexicon builder's kernels ahead of time (once, about 30 s) so that later "
                 "builds skip Numba's start-up; GSE_AOT=0 turns this off")
