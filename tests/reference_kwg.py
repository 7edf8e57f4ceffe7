"""Reference KWG register: Daciuk et al. (2000) over the *full* GADDAG strings, in plain Python.

This is the construction lexicon_tools used before issue 16 part 3: every word
w gives the DAWG string w and, for each split i in 1..len(w), the GADDAG string
rev(w[:i]) + (separator + w[i:] when i < len(w)) (Gordon 1994); all strings are
sorted and fed to one register of unique states, states numbered in the order
they are registered. The fast builder builds only the reversed prefixes and
points the separator arcs at DAWG states; both must register the same states in
the same order, so laying this register out with the package's
``_kwg_kernels.layout`` must give the same bytes. Slow (pure Python): small lists only.
"""

from __future__ import annotations

import numpy as np

from lexicon_tools import _kwg_kernels as K
from lexicon_tools.alphabet import german


def _strings(words, alphabet):
    code = {ch: i + 1 for i, ch in enumerate(alphabet.letters)}
    dawg, gaddag = set(), set()
    for w in words:
        t = [code[c] + 1 for c in w]  # tile + 1, separator = 1
        dawg.add(tuple(t))
        for i in range(1, len(t) + 1):
            s = t[:i][::-1]
            if i < len(t):
                s = s + [1] + t[i:]
            gaddag.add(tuple(s))
    return sorted(dawg), sorted(gaddag)


class _Register:
    def __init__(self):
        self.ids: dict[tuple, int] = {}
        self.states: list[tuple] = []

    def get(self, arcs: tuple) -> int:
        sid = self.ids.get(arcs)
        if sid is None:
            sid = self.ids[arcs] = len(self.states)
            self.states.append(arcs)
        return sid

    def add_sorted(self, strings) -> int:
        path: list[list] = [[]]  # open states: lists of [tile, acc, child]
        prev: tuple = ()
        for s in list(strings) + [()]:
            lcp = 0
            while lcp < min(len(s), len(prev)) and s[lcp] == prev[lcp]:
                lcp += 1
            for d in range(len(prev), lcp, -1):
                if path[d]:
                    path[d - 1][-1][2] = self.get(tuple(tuple(a) for a in path[d]))
                del path[d]
            for i in range(lcp, len(s)):
                path[i].append([s[i] - 1, 1 if i == len(s) - 1 else 0, -1])
                path.append([])
            prev = s
        return self.get(tuple(tuple(a) for a in path[0]))


def reference_kwg(words, alphabet=None) -> np.ndarray:
    """Node array of ``words`` built the old way (see the module doc)."""
    alphabet = alphabet or german()
    dawg, gaddag = _strings(set(words), alphabet)
    reg = _Register()
    droot = reg.add_sorted(dawg)
    groot = reg.add_sorted(gaddag)
    n_arcs = sum(len(s) for s in reg.states)
    tile = np.zeros(n_arcs + 1, np.uint8)
    acc = np.zeros(n_arcs + 1, np.uint8)
    child = np.zeros(n_arcs + 1, np.int32)
    start = np.zeros(len(reg.states), np.int32)
    count = np.zeros(len(reg.states), np.int32)
    k = 0
    for sid, arcs in enumerate(reg.states):
        start[sid], count[sid] = k, len(arcs)
        for t, a, c in arcs:
            tile[k], acc[k], child[k] = t, a, c
            k += 1
    counters = np.array([len(reg.states), n_arcs, len(reg.states)], np.int64)
    return K.layout((tile, acc, child, start, count, counters), droot, groot)
