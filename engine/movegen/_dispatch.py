"""The move generator's kernels as :mod:`engine.movegen.generator` sees them: Numba JIT, or ahead-of-time compiled.

By default every name resolves to :mod:`engine.movegen._movegen` (the Numba kernels,
imported on first use) and is then a plain module attribute, so a call costs
exactly what the JIT dispatcher costs. After :func:`use_aot` (the command line
calls it for ``best`` and ``moves``) the entry kernels listed in
:data:`engine.movegen._aot.KERNELS` are taken from the ahead-of-time compiled module of
:mod:`engine.movegen._aot` when one matching the current sources exists: then the
process never imports Numba (about 0.4 s of CPU at start-up). Each AOT call is
guarded: arguments whose types differ from the compiled signature (dtype,
dimensions, contiguity, a read-only array where the kernel writes) go to the
JIT kernel instead, since compiled code does not check them.
"""

from __future__ import annotations

from engine.position._rows import BLANK_FLAG, N, OUT_COL, OUT_DIR, OUT_LEN, OUT_NTILES, OUT_ROW, OUT_SCORE, OUT_TILES, OUT_WIDTH  # noqa: F401

_AOT_NAMES: set[str] = set()


def use_aot() -> bool:
    """Use the ahead-of-time compiled entry kernels if they exist for these sources.

    Returns:
        True when they are in use (``GSE_AOT=0`` in the environment disables them).
    """
    from engine.movegen import _aot

    found = _aot.load()
    if found is None:
        return False
    for name, fn in found.items():
        globals()[name] = fn
        _AOT_NAMES.add(name)
    return True


def aot_active() -> bool:
    """True when some entry kernels come from the ahead-of-time compiled module."""
    return bool(_AOT_NAMES)


def __getattr__(name: str):
    if name.startswith("__"):
        raise AttributeError(name)
    from engine.movegen import _movegen

    value = getattr(_movegen, name)
    globals()[name] = value  # later look-ups are plain attribute reads
    return value
