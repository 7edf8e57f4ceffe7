"""The benchmark position set (benchmarks/positions/positions.tsv), one benchmark per class.

Each benchmark generates all moves for every position of its class in turn;
positions/s = positions / mean time, moves/s = ``extra_info["moves"]`` / mean.
Golden positions (``g_``) use the golden word list, self-play ones the default
lexicon. Per-position p50/p95 per class: ``benchmarks/positions_report.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.position.cgp import parse_cgp
from engine.movegen.generator import best_moves, generate_moves
from lexicon_tools.bundle import load_lexicon

HERE = Path(__file__).resolve().parent


def load_set() -> dict[str, list[tuple[str, str]]]:
    """``{class: [(id, cgp), ...]}``; golden positions form the class ``golden``."""
    out: dict[str, list[tuple[str, str]]] = {}
    for line in (HERE / "positions" / "positions.tsv").read_text(encoding="utf-8").splitlines():
        pid, cgp = line.split("\t")
        cls = "golden" if pid.startswith("g_") else pid.split("_")[2]
        out.setdefault(cls, []).append((pid, cgp))
    return out


SET = load_set()


@pytest.fixture(scope="session")
def default_lexicon():
    return load_lexicon(None)


def jobs_of(cls, golden_lexicon, default_lexicon):
    """``[(position, lexicon), ...]`` of a class: golden positions use the golden word list."""
    return [(parse_cgp(cgp, allow_impossible=True), golden_lexicon if pid.startswith("g_") else default_lexicon) for pid, cgp in SET[cls]]


@pytest.mark.parametrize("cls", sorted(SET))
def test_class_all_moves(benchmark, cls, golden_lexicon, default_lexicon):
    jobs = jobs_of(cls, golden_lexicon, default_lexicon)

    def run():
        return sum(len(generate_moves(p.board, p.rack, lex)) for p, lex in jobs)

    moves = run()
    benchmark.extra_info["positions"] = len(jobs)
    benchmark.extra_info["moves"] = moves
    assert benchmark.pedantic(run, rounds=5, iterations=1, warmup_rounds=1) == moves


@pytest.mark.parametrize("cls", sorted(SET))
def test_class_best_move(benchmark, cls, golden_lexicon, default_lexicon):
    jobs = jobs_of(cls, golden_lexicon, default_lexicon)

    def run():
        return [best_moves(p.board, p.rack, lex, 1) for p, lex in jobs]

    run()
    benchmark.extra_info["positions"] = len(jobs)
    benchmark.pedantic(run, rounds=5, iterations=1, warmup_rounds=1)
