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


def test_build_and_verify_kwg_golden(benchmark):
    """Graph plus the exact verification (DAWG words, GADDAG marks): what the CLI build runs by default."""
    words = golden_words()
    build_kwg(words[:1000], verify=True)
    kwg = benchmark.pedantic(build_kwg, args=(words,), kwargs={"verify": True}, rounds=3, iterations=1)
    assert kwg.shape[0] == 1_260_422


def test_cli_build_golden_process(benchmark, tmp_path):
    """The whole ``python -m lexicon_tools build`` as a new process (imports, kernel cache loads, reading,
    normalising, graph, verification, trie, writing); user + system CPU and peak RSS of the child go to
    extra_info (compare with wolges' buildlex in benchmarks/README.md, measured beside it)."""
    import lzma
    import os
    import resource
    import subprocess
    import sys

    from conftest import DATA, ROOT

    src = tmp_path / "words.txt"
    src.write_bytes(lzma.decompress((DATA / "golden_words.txt.xz").read_bytes()))
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    cmd = [sys.executable, "-m", "lexicon_tools", "build", str(src), "-o", str(tmp_path / "g.lex"), "-q"]
    subprocess.run(cmd, check=True, env=env, capture_output=True)  # kernels compiled / cached outside the timing
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    benchmark.pedantic(lambda: subprocess.run(cmd, check=True, env=env, capture_output=True), rounds=3, iterations=1)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    benchmark.extra_info["cpu_s_per_build"] = round(
        (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) / 3, 3)
    benchmark.extra_info["peak_rss_mb_max_child"] = round(after.ru_maxrss / 1024)
    assert (tmp_path / "g.lex" / "lexicon.kwg").stat().st_size == 5_041_688


def test_load_bundle(benchmark, golden_lexicon):
    Lexicon.load(golden_lexicon.path)
    lex = benchmark.pedantic(Lexicon.load, args=(golden_lexicon.path,), rounds=20, iterations=1)
    assert lex.word_count == 300_579


def test_normalize_360k_lines(benchmark):
    """Normalising 360,000 entries (moved here from tests/lexicon/test_normalize.py: tests never assert a time)."""
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

