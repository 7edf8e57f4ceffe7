"""Shared fixtures: lexicons built once per test session from test data."""

from __future__ import annotations

import lzma
import os
import signal
from pathlib import Path

import pytest

from lexicon_tools.bundle import Lexicon, build_bundle

DATA = Path(__file__).parent / "data"

# No ahead-of-time kernel builds behind the tests' back (about 20 s each, engine.movegen._aot);
# tests/movegen/test_startup.py builds one on purpose in a private cache.
os.environ.setdefault("GSE_AOT", "0")
# The command line speaks the locale's language (engine.lang): the tests expect English unless they
# ask for German (`--lang de`, tests/cli/test_lang.py), whatever the machine's locale.
os.environ["GSE_LANG"] = "en"

# A suite started as a background job of a script (`./run &`, nohup) inherits SIGINT ignored; the Ctrl-C tests
# send SIGINT to this process or its children and would wait for ever. The tests want Ctrl-C as a user has it.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def golden_words() -> list[str]:
    """The 300,579-word list the golden move lists were computed with."""
    with lzma.open(DATA / "golden_words.txt.xz", "rt", encoding="utf-8") as f:
        return f.read().split()


def count_hashing(monkeypatch, module) -> list[str]:
    """Replace ``module.sha256_file`` by a wrapper that records the base name of every file it hashes;
    returns that list (the lexicon's and the remembered checksums' tests count how often files are read)."""
    calls: list[str] = []
    real = module.sha256_file

    def counting(path):
        calls.append(os.path.basename(path))
        return real(path)

    monkeypatch.setattr(module, "sha256_file", counting)
    return calls


def golden_positions() -> list[tuple[str, str]]:
    """``[(id, cgp), ...]`` from tests/data/positions.tsv."""
    out = []
    for line in (DATA / "positions.tsv").read_text(encoding="utf-8").splitlines():
        if line.strip():
            pid, cgp = line.split("\t")
            out.append((pid, cgp))
    return out


def golden_moves(pid: str) -> list[tuple[str, int, str]]:
    """``[(notation, score, placements), ...]`` of one golden position."""
    out = []
    for line in (DATA / "golden_moves" / f"{pid}.tsv").read_text(encoding="utf-8").splitlines():
        if line.strip():
            n, s, p = line.split("\t")
            out.append((n, int(s), p))
    return out


@pytest.fixture(scope="session")
def golden_words_list() -> list[str]:
    return golden_words()


@pytest.fixture(scope="session")
def golden_lexicon(tmp_path_factory, golden_words_list) -> Lexicon:
    """Bundle built from the golden word list (the list the golden moves use)."""
    out = tmp_path_factory.mktemp("lex") / "golden.lex"
    return build_bundle(golden_words_list, out, source_name="golden_words.txt")


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium (see tests/browser_support.py), one per test module."""
    from browser_support import launched

    with launched() as b:
        yield b


def pytest_collection_modifyitems(config, items):
    """Every test that drives Chromium (the ``browser`` fixture, or a ``*_browser.py`` module) is ``slow``:
    ``make test-fast`` (``-m "not slow"``) leaves them out, CI runs them."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()) or item.path.name.endswith("_browser.py") \
                or item.path.name == "test_web_e2e.py":
            item.add_marker(pytest.mark.slow)
