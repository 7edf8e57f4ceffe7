"""No kernel is compiled (or loaded from Numba's cache) inside a timed search after the warm-up.

Issue 23 part 2: the endgame solver switches to the pruned lexicon after
20,000 nodes, and that search once needed a second specialisation of the
negamax kernel which :func:`engine.analysis.phase.warm_up` did not compile, so the
first long solve compiled inside its time budget (65 s of CPU). The guard
below fails a test when, inside it, Numba compiles any function (its
``numba:compile`` event) or adds a specialisation to a kernel of ``engine`` or
``lexicon_tools`` (a compile, or a load from the on-disk cache, which also
costs seconds under load). The guard itself is tested on a function it must
catch.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager

import numba
import pytest
from numba.core import event
from numba.core.registry import CPUDispatcher

from engine.position.cgp import parse_cgp
from engine.analysis.endgame import solve

# benchmarks/positions/endgames.tsv e77_2 (as tests/test_interrupt.py): a long solve, pruned after 20,000 nodes
LONG = ("I6G7/N3H2A7/F1N1Y2SCHNUR2/OPIUM2T7/1eX1N1WO7/1REHE1ÖD7/ES1Ä2G8/T2MADEN6U/U2M2T7M/I2E10B/"
        "1ERRINGST5I/3E3ZULASSEN/2F4E6D/2Ü2JENER4e/KURVTE1E3SEKT DHILLNO/AABCEQS 347/334 0")


def _kernels() -> dict[str, CPUDispatcher]:
    """Every Numba kernel defined at module level in ``engine`` and ``lexicon_tools`` (loaded so far)."""
    out = {}
    for name, mod in list(sys.modules.items()):
        if mod is None or not (name.startswith("engine.") or name.startswith("lexicon_tools.")):
            continue
        for attr, obj in list(vars(mod).items()):
            if isinstance(obj, CPUDispatcher):
                out[f"{obj.py_func.__module__}.{obj.py_func.__qualname__}"] = obj
    return out


class KernelLoaded(AssertionError):
    """A kernel was compiled or loaded inside :func:`no_kernel_loads`."""


@contextmanager
def no_kernel_loads(what: str):
    """Fail (:class:`KernelLoaded`) when Numba compiles or loads a kernel specialisation inside the block."""
    compiled: list[str] = []

    class Listener(event.Listener):
        def on_start(self, ev):
            d = ev.data.get("dispatcher")
            compiled.append(getattr(getattr(d, "py_func", None), "__qualname__", repr(d)))

        def on_end(self, ev):
            pass

    before = {k: len(d.overloads) for k, d in _kernels().items()}
    listener = Listener()
    event.register("numba:compile", listener)
    try:
        yield
    finally:
        event.unregister("numba:compile", listener)
    added = sorted(k for k, d in _kernels().items() if len(d.overloads) > before.get(k, 0))
    if compiled or added:
        raise KernelLoaded(f"{what}: kernels compiled {sorted(set(compiled))}, specialisations added {added}")


def test_the_guard_catches_a_compile_and_a_new_specialisation():
    @numba.njit
    def twice(x):
        return 2 * x

    with pytest.raises(KernelLoaded, match="twice"):
        with no_kernel_loads("a fresh kernel"):
            twice(3)
    with no_kernel_loads("the same types again"):
        twice(4)
    with pytest.raises(KernelLoaded, match="twice"):
        with no_kernel_loads("a new argument type"):
            twice(2.5)


def test_after_the_warm_up_a_timed_pruned_solve_compiles_nothing(golden_lexicon, monkeypatch):
    import engine.analysis.endgame as EG
    from engine.analysis.phase import warm_up

    warm_up(golden_lexicon)
    monkeypatch.setattr(EG, "PRUNE_AFTER_NODES", 2_000)  # the switch after depth 2 or 3, not after a long search
    with no_kernel_loads("endgame solve with --time on the CPU clock, pruned lexicon"):
        r = solve(LONG, golden_lexicon, time_limit=600, clock="cpu", node_limit=120_000)
    assert r.pruned and r.stopped == "nodes"  # the search did reach the pruned lexicon, then the node limit
    with no_kernel_loads("endgame solve with --time on the wall clock"):
        r = solve(LONG, golden_lexicon, time_limit=600, node_limit=120_000)
    assert r.pruned


def test_after_the_warm_up_the_web_analysis_of_each_phase_compiles_nothing(golden_lexicon):
    """The web's deep analysis (:func:`engine.analysis.phase.phase_answer`) on an endgame, a pre-endgame and a middle game."""
    from engine.analysis.phase import phase_answer, warm_up

    warm_up(golden_lexicon)
    end = parse_cgp(LONG)
    pre = parse_cgp("I6G7/N3H2A7/F1N1Y2SCHNUR2/OPIUM2T7/1eX1N1WO7/1REHE1ÖD7/ES1Ä2G8/T2MADEN6U/U2M2T7M/I2E10B/"
                    "1ERRINGST5I/3E3ZULASSEN/2F4E6D/2Ü2JENER4e/KURVTE1E3SE2 DHILLNO/ 347/334 0")  # 2 in the bag
    mid = parse_cgp("15/15/15/15/15/15/15/7WORT4/15/15/15/15/15/15/15 AEINRST/ 0/8 0")
    for name, pos in (("endgame", end), ("pre-endgame", pre), ("simulation", mid)):
        with no_kernel_loads(f"phase_answer, {name}"):
            ans = phase_answer(pos, golden_lexicon, seconds=1.0, candidates=2)
        assert ans["phase"] == {"endgame": "endgame", "pre-endgame": "preendgame", "simulation": "simulation"}[name]
