"""The fast KWG builder (issue 16 part 3): same bytes as before, exact verification, fast normaliser.

Bytes are checked two independent ways: against SHA-256 values recorded with
the previous builder (tests/data/kwg_sha256.json), and against the old
full-GADDAG-string construction re-implemented in plain Python
(tests/reference_kwg.py).
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lexicon_tools import kwg as kwg_mod
from lexicon_tools.alphabet import german
from lexicon_tools.bundle import KWG_FILE, sha256_file
from lexicon_tools.kwg import ACCEPTS, ARC_MASK, IS_END, GraphError, build_kwg, verify_kwg
from lexicon_tools.normalize import normalize_lines, normalize_path, read_lines

from reference_kwg import reference_kwg

DATA = Path(__file__).parents[1] / "data"
PINS = json.loads((DATA / "kwg_sha256.json").read_text(encoding="utf-8"))
LETTERS = german().letters
TINY = ["AB", "ABC", "ABCD", "BC", "HAUS", "HAUSEN", "MAUS", "ÄRGER", "ÖL", "QUAL", "ZZ"]


def _sha(nodes: np.ndarray) -> str:
    return hashlib.sha256(nodes.astype("<u4").tobytes()).hexdigest()


def _random_words(seed: int = 16, n: int = 3000) -> list[str]:
    rng = random.Random(seed)
    return sorted({"".join(rng.choice(LETTERS) for _ in range(rng.randint(2, 15))) for _ in range(n)})


def test_bytes_equal_the_previous_builder_small_lists(golden_words_list):
    assert _sha(reference_kwg(TINY)) == PINS["tiny"]  # the reference is the previous builder
    assert _sha(build_kwg(TINY)) == PINS["tiny"]
    assert _sha(build_kwg(_random_words())) == PINS["random_3000_seed16"]
    assert _sha(build_kwg(golden_words_list[::37])) == PINS["golden_every_37th"]


def test_golden_bundle_bytes_equal_the_previous_builder(golden_lexicon):
    assert sha256_file(golden_lexicon.path / KWG_FILE) == PINS["golden_300579"]


def test_equals_full_string_reference_on_a_real_sample(golden_words_list):
    words = golden_words_list[::601]  # 501 real words
    assert build_kwg(words).tobytes() == reference_kwg(words).tobytes()


_word = st.text(alphabet=st.sampled_from(LETTERS[:6] + ("Ä", "Z")), min_size=2, max_size=9)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sets(_word, min_size=1, max_size=60))
def test_equals_full_string_reference_property(words):
    assert build_kwg(list(words)).tobytes() == reference_kwg(words).tobytes()


# -- verification catches a wrong graph ------------------------------------------------
WORDS = ["AB", "ABER", "BAR", "BART", "RAB", "RABE", "TAB", "ÖL"]


def _gaddag_arcs(g: np.ndarray) -> list[int]:
    """Indices of arcs reachable from the GADDAG root before any separator."""
    seen, out, todo = set(), [], [int(g[1]) & ARC_MASK]
    while todo:
        p = todo.pop()
        if p in seen or p == 0:
            continue
        seen.add(p)
        while True:
            v = int(g[p])
            if v >> 24:
                out.append(p)
                todo.append(v & ARC_MASK)
            if v & IS_END:
                break
            p += 1
    return sorted(set(out))


def test_verification_accepts_the_built_graph():
    verify_kwg(build_kwg(WORDS), WORDS)
    build_kwg(WORDS, verify=True)


def test_verification_names_a_word_missing_from_the_graph():
    g = build_kwg(WORDS)
    with pytest.raises(GraphError, match="'BARTE'"):
        verify_kwg(g, WORDS + ["BARTE"])


def test_verification_counts_an_extra_word_in_the_graph():
    g = build_kwg(WORDS)
    with pytest.raises(GraphError, match="holds 8 words, the list 7"):
        verify_kwg(g, [w for w in WORDS if w != "TAB"])


def test_verification_catches_every_single_accept_flip_in_the_gaddag():
    g = build_kwg(WORDS)
    arcs = _gaddag_arcs(g)
    assert len(arcs) > 10
    for p in arcs:
        bad = g.copy()
        bad[p] ^= ACCEPTS
        with pytest.raises(GraphError):
            verify_kwg(bad, WORDS)


def test_verification_catches_a_separator_pointing_elsewhere():
    g = build_kwg(WORDS)
    seps = [i for i in range(2, len(g)) if (int(g[i]) >> 24) == 0 and int(g[i]) & ARC_MASK]
    assert seps
    targets = sorted({int(g[i]) & ARC_MASK for i in seps})
    assert len(targets) >= 2
    bad = g.copy()
    old = int(bad[seps[0]]) & ARC_MASK
    new = next(t for t in targets if t != old)
    bad[seps[0]] = (int(bad[seps[0]]) & ~ARC_MASK) | new
    with pytest.raises(GraphError):
        verify_kwg(bad, WORDS)


def test_verification_rejects_a_graph_accepting_a_non_word():
    g = build_kwg(WORDS)
    with pytest.raises(GraphError, match="non-word 'BAR'"):
        verify_kwg(g, WORDS, non_words=["BAR"])


# -- the fast normaliser ------------------------------------------------------------
def test_normalize_path_equals_line_by_line(tmp_path):
    rng = random.Random(3)
    clean = ["".join(rng.choice("ABCDEFGHIJKLMNOPRSTUVWZ") for _ in range(rng.randint(2, 15))) for _ in range(60_000)]
    messy = ["# comment", "", "  straße  ", "Baden-Baden", "x", "Café", "café", "ÄRGER\r", "ﬁsch", "A" * 16, "ab1"]
    lines = []
    for i, w in enumerate(clean):
        lines.append(w.lower() if i % 3 == 0 else w)
        if 20_000 <= i < 20_050:  # one piece of the file (256 KiB) gets messy lines
            lines.append(messy[i % len(messy)])
    p = tmp_path / "list.txt"
    p.write_bytes(("\ufeff" + "\n".join(lines) + "\nHAUS").encode("utf-8"))  # BOM, no final newline
    warn_a, warn_b = [], []
    a = normalize_lines(read_lines(p, on_warning=warn_a.append), keep_rejects=True)
    b = normalize_path(p, keep_rejects=True, on_warning=warn_b.append)
    assert b == a
    assert warn_b == warn_a and len(warn_a) == 1
    assert "STRASSE" in b.words and "FISCH" in b.words and "HAUS" in b.words
    # i = 20000..20049 take messy[i % 11], starting at residue 2: residue 3 (hyphen) 5 times,
    # residues 0 and 1 (comment, blank: skipped) 4 times each; plus the final HAUS line
    assert b.reason_counts["hyphen"] == 5
    assert b.lines == 60_000 + 50 - 8 + 1


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 2**64 - 1)), max_size=300))
def test_radix_sort_of_keys_is_numpy_lexsort(pairs):
    """The builder's radix sort (lexicon_tools._kwg_kernels.argsort_keys) orders like numpy.lexsort, stably."""
    from lexicon_tools import _kwg_kernels as K

    hi = np.array([p[0] << 58 for p in pairs], dtype=np.uint64)
    lo = np.array([p[1] for p in pairs], dtype=np.uint64)
    lo[::4] = lo[0] if len(pairs) else lo[::4]  # ties, so stability matters
    assert K.argsort_keys(hi, lo).tolist() == np.lexsort((lo, hi)).tolist()
