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


def test_normalize_360k_lines(benchmark):
    """Normalising 360,000 entries (moved here from tests/test_normalize.py: tests never assert a time)."""
    from lexicon_tools.normalize import normalize_lines

    base = ["Haus", "schließen", "Über", "Café", "Baden-Baden", "Straßenbahn", "Donaudampfschifffahrt"]
    lines = [(i + 1, f"{base[i % len(base)]}{chr(97 + i % 26)}{chr(97 + (i // 26) % 26)}") for i in range(360_000)]
    res = benchmark.pedantic(normalize_lines, args=(lines,), rounds=3, iterations=1)
    assert res.lines == 360_000


def test_read_and_normalize_streamed_file(benchmark, tmp_path):
    """Reading a 360,000-line file from disk and normalising it in one streamed pass."""
    from lexicon_tools.normalize import normalize_lines, read_lines

    base = ["Haus", "schließen", "Über", "Café", "Baden-Baden", "Straßenbahn", "Donaudampfschifffahrt"]
    p = tmp_path / "list.txt"
    p.write_text("".join(f"{base[i % 7]}{chr(97 + i % 26)}{chr(97 + (i // 26) % 26)}\n" for i in range(360_000)),
                 encoding="utf-8")
    res = benchmark.pedantic(lambda: normalize_lines(read_lines(p), keep_rejects=False), rounds=3, iterations=1)
    assert res.lines == 360_000

