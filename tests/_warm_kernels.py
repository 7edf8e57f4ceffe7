"""Compile the engine's kernels beside a full test run, on the machine's other core.

A clean clone has no compiled kernels: the tests that first call the endgame solver, the self-play
game, the simulation or the inference kernels each wait for Numba to compile them (over five minutes
of the suite's time on a 2-core machine). tests/conftest.py starts this script in the background when
a run collects most of the suite; it builds a lexicon from the golden word list and runs the warm-up
steps (engine.analysis.warmup, each in a child process that writes Numba's on-disk cache and its
stamp), the ones the suite needs last first; conftest runs the tests that need them last. A test that
gets to a kernel before the step is done compiles it itself, as without this script; nothing a test
checks depends on it. ``GSE_TEST_WARMUP=0`` turns it off.

Usage: ``python tests/_warm_kernels.py DIR`` (DIR: where the lexicon is built; the caller removes it).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

ORDER = ("endgame", "game", "simulation", "inference", "movegen")
"""The steps, those the early tests do not need first (they compile the move generator themselves)."""


def main(argv: list[str]) -> int:
    from conftest import golden_words
    from engine.analysis import warmup
    from engine.interrupt import worker_process
    from lexicon_tools.bundle import build_bundle

    worker_process()  # stops when the test run that started it is gone
    path = Path(argv[0]) / "golden.lex"
    lexicon = build_bundle(golden_words(), path, source_name="golden_words.txt")
    steps = [s for name in ORDER for s in warmup.pending(lexicon, [name])]
    for step, cpu in warmup.run_steps(steps, lambda s: warmup._child_argv(s, str(path)), out=sys.stderr):
        print(f"{step.name} done: {cpu:.1f} s of CPU", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
