"""Compile the search kernels before a timed search, and say so when that takes a while.

A fresh install (or an edit of a kernel module) has no Numba cache yet, and the
first endgame search or simulation compiles its kernels: about a minute of CPU
for the endgame solver. Counted inside ``--time 10s`` this blew the budget
several times over, with no word to the user. The commands therefore call
:func:`warm_endgame` / :func:`warm_simulation` first: when the cache is missing
they print a note, run a tiny search on a fixed position with the user's
lexicon (which compiles and caches everything the real search calls, for the
same array types), and only then start the clock. With a warm cache they cost
nothing but a file-system look-up.
"""

from __future__ import annotations

from typing import Callable

from lexicon_tools._numba_cache import is_cached

ENDGAME_CGP = ("11F1WO/7KUH1I1AB/8MEHLEN1/9I1M1N1/9D3E1/5Q2PI1CENT/5U2I3X1J/3FIESEN5A/3O1R3R3L1/"
               "1Z1Y5Ü3E1/MÄDELN1BAST2C1/ES1r1AGENTUR1K1/TUNS1I1e1E2HE1/ER3VON1N2AR1/R4E1G1DÖSTET DHSU/GMSU 316/368 0")
"""A real German endgame (the README's example) searched one ply deep to compile the solver."""

MIDGAME_CGP = "15/15/15/15/15/15/4H3F6/3WALZER6/4U1U1E6/4S1G1U6/8N6/5KIND6/5Ü9/5H9/5L9 AEINRST/ 0/0 0"
"""A German mid-game position (the README's first example) simulated once to compile the rollouts."""


def _cold(module, function: str) -> bool:
    return not is_cached(module.__file__, function)


def warm_endgame(lexicon, note: Callable[[str], None]) -> bool:
    """Compile the endgame solver's kernels if they are not cached yet.

    Args:
        lexicon: the lexicon the real search will use (the kernels are compiled
            for its graph's array type).
        note: prints one line for the user (e.g. ``note: ...`` on stderr).

    Returns:
        True if it compiled (the note was printed), False if the cache was warm or
        the lexicon's alphabet is not German (then the real search compiles).
    """
    from . import _endgame
    from .cgp import parse_cgp
    from .endgame import solve

    if not _cold(_endgame, "negamax"):
        return False
    note("first run: compiling the endgame solver (about a minute, once; it is cached for later runs, "
         "and the time limit starts after it)")
    try:
        solve(parse_cgp(ENDGAME_CGP), lexicon, max_depth=1)
    except ValueError:  # a lexicon of another alphabet: the real search compiles instead
        return False
    return True


def warm_simulation(lexicon, note: Callable[[str], None]) -> bool:
    """Compile the simulation's rollout kernels if they are not cached yet (see :func:`warm_endgame`)."""
    from . import _kgame
    from .cgp import parse_cgp
    from .simulation import simulate

    if not _cold(_kgame, "sim_rollouts"):
        return False
    note("first run: compiling the simulation (about half a minute, once; it is cached for later runs, "
         "and the time limit starts after it)")
    try:
        simulate(parse_cgp(MIDGAME_CGP), lexicon, n_candidates=1, plies=2, iterations=1, seed=1,
                 backend="local", workers=1, progress=False)
    except ValueError:
        return False
    return True
