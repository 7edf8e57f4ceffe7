"""Compile the search kernels before a timed search, and say so when that takes a while.

A fresh install (or an edit of a kernel module) has no Numba cache yet, and the
first endgame search, pre-endgame or simulation compiles its kernels: about a
minute of CPU. Counted inside ``--time 10s`` this blew the budget several times
over, with no word to the user. The commands therefore call :func:`warm_if_cold`
first: when a search kernel is missing from Numba's cache it prints a note, runs
:func:`engine.analysis.phase.warm_up` (tiny searches of every phase with the user's
lexicon, which compile and cache everything the real search calls, for the same
array types) and the command starts its clock afterwards. With a warm cache it
costs a few file-system look-ups.
"""

from __future__ import annotations

from typing import Callable

from lexicon_tools._numba_cache import is_cached

KERNELS = (("analysis._endgame", "negamax"), ("game._kgame", "sim_rollouts"), ("movegen._allmoves", "movegen_all"))
"""(module under ``engine``, function) of kernels :func:`engine.analysis.phase.warm_up` compiles: their cache decides
whether a first run compiles (a kernel it does not call would make every run look cold)."""


def cold() -> bool:
    """True if one of :data:`KERNELS` has no compiled code in Numba's cache."""
    import importlib

    return any(not is_cached(importlib.import_module(f"engine.{mod}").__file__, fn) for mod, fn in KERNELS)


def warm_if_cold(lexicon, note: Callable[[str], None]) -> bool:
    """Compile the search kernels (:func:`engine.analysis.phase.warm_up`) if :func:`cold`, with a note first.

    Args:
        lexicon: the lexicon the real search will use (the kernels are compiled
            for its graph's array type).
        note: prints one line for the user (e.g. ``note: ...`` on stderr).

    Returns:
        True if it compiled (the caller then restarts its clock), False if the
        cache was warm.
    """
    if not cold():
        return False
    from engine.analysis.phase import warm_up

    note("first run: compiling the search kernels (a minute or two, once; they are cached for later runs, "
         "and the time limit starts after this)")
    warm_up(lexicon)
    return True
