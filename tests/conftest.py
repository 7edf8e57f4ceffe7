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


WARM_MIN_TESTS = 600
"""A run of at least this many tests compiles the kernels beside itself (tests/_warm_kernels.py)."""
LATE = ("analysis", "game")
"""Folders of tests/ whose tests run last in such a run: they need the kernels the warm-up compiles."""
_warm: dict = {}


def pytest_collection_modifyitems(config, items):
    """Every test that drives Chromium (the ``browser`` fixture, or a ``*_browser.py`` module) is ``slow``:
    ``make test-fast`` (``-m "not slow"``) leaves them out, CI runs them.

    A run of most of the suite (:data:`WARM_MIN_TESTS`) starts tests/_warm_kernels.py in the background
    (``GSE_TEST_WARMUP=0``: not) and runs the tests of :data:`LATE` last, when their kernels are compiled."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()) or item.path.name.endswith("_browser.py") \
                or item.path.name == "test_web_e2e.py":
            item.add_marker(pytest.mark.slow)
    if len(items) < WARM_MIN_TESTS or os.environ.get("GSE_TEST_WARMUP", "1") == "0" or config.option.collectonly:
        return
    here = Path(__file__).parent

    def late(item) -> bool:
        try:
            return item.path.relative_to(here).parts[0] in LATE
        except ValueError:
            return False

    items[:] = [i for i in items if not late(i)] + [i for i in items if late(i)]
    import subprocess
    import sys
    import tempfile

    work = Path(tempfile.mkdtemp(prefix="gse-warm-"))
    log = open(work / "warm.log", "w", encoding="utf-8")
    _warm.update(work=work, log=log, proc=subprocess.Popen(
        [sys.executable, str(here / "_warm_kernels.py"), str(work)], stdin=subprocess.DEVNULL,
        stdout=log, stderr=log, start_new_session=True))


def pytest_terminal_summary(terminalreporter):
    """Say how the background warm-up went (its steps' CPU seconds), then stop it and remove its files."""
    proc = _warm.get("proc")
    if proc is None:
        return
    import shutil

    rc = proc.poll()
    if rc is None:
        os.killpg(proc.pid, signal.SIGKILL)  # its step children go with it (one session)
        proc.wait()
    _warm["log"].close()
    lines = (_warm["work"] / "warm.log").read_text(encoding="utf-8", errors="replace").splitlines()
    done = [ln for ln in lines if "done" in ln or "error" in ln.lower()][-6:]
    terminalreporter.write_line(f"kernels compiled beside the run (tests/_warm_kernels.py): "
                                f"{'still running, stopped' if rc is None else f'exit {rc}'}")
    for ln in done:
        terminalreporter.write_line("  " + ln.strip()[:200])
    shutil.rmtree(_warm["work"], ignore_errors=True)
    _warm.clear()
