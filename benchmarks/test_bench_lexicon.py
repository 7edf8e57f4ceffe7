"""Lexicon build (300,579-word golden list) and load (memory map + checks)."""

from __future__ import annotations

from lexicon_tools.bundle import Lexicon
from lexicon_tools.kwg import build_kwg

from conftest import golden_words


def test_build_kwg_golden(benchmark):
    words = golden_words()
    build_kwg(words[:1000])  # compile / load the kernels outside the timed region
    kwg = benchmark.pedantic(build_kwg, args=(words,), rounds=3, iterations=1)
    benchmark.extra_info["nodes"] = int(kwg.shape[0])
    benchmark.extra_info["bytes"] = int(kwg.nbytes)
    assert kwg.nbytes <= 5_100_000


def test_load_bundle(benchmark, golden_lexicon):
    Lexicon.load(golden_lexicon.path)
    lex = benchmark.pedantic(Lexicon.load, args=(golden_lexicon.path,), rounds=20, iterations=1)
    assert lex.word_count == 300_579
