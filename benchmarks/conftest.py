"""Fixtures for the benchmark suites: lexicons and positions, built outside timed regions."""

from __future__ import annotations

import lzma
from pathlib import Path

import pytest

from lexicon_tools.bundle import Lexicon, build_bundle

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
POSITIONS = Path(__file__).resolve().parent / "positions"


def golden_words() -> list[str]:
    with lzma.open(DATA / "golden_words.txt.xz", "rt", encoding="utf-8") as f:
        return f.read().split()


def golden_positions() -> list[tuple[str, str]]:
    rows = []
    for line in (DATA / "positions.tsv").read_text(encoding="utf-8").splitlines():
        if line.strip():
            pid, cgp = line.split("\t")
            rows.append((pid, cgp))
    return rows


def peer_timings() -> dict[str, dict[str, float]]:
    """``{position id: {"moves": n, "wolges_ms": ..., "quackle_ms": ..., "scrabble_solver_ms": ...}}``."""
    lines = (DATA / "peer_timings.tsv").read_text(encoding="utf-8").splitlines()
    head = lines[0].split("\t")
    out = {}
    for line in lines[1:]:
        f = line.split("\t")
        out[f[0]] = {k: float(v) for k, v in zip(head[1:], f[1:])}
    return out


@pytest.fixture(scope="session")
def golden_lexicon(tmp_path_factory) -> Lexicon:
    out = tmp_path_factory.mktemp("lex") / "golden.lex"
    return build_bundle(golden_words(), out, source_name="golden_words.txt")
