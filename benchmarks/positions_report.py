"""Per-class p50/p95 per position, positions/s and moves/s on the benchmark position set.

    .venv/bin/python benchmarks/positions_report.py [--rounds 15]

Prints a Markdown table for benchmarks/README.md. Times are medians over
``rounds`` runs per position after a warm-up, of ``generate_moves`` (all
moves, cross-checks included) and ``best_moves(n=1)``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402

from conftest import golden_words  # noqa: E402
from peer_table import median_ms  # noqa: E402
from engine.cgp import parse_cgp  # noqa: E402
from engine.movegen import best_moves, generate_moves  # noqa: E402
from lexicon_tools.bundle import Lexicon, build_bundle, load_lexicon  # noqa: E402
from test_bench_positions import load_set  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--golden-lexicon", default="/tmp/golden-bench.lex")
    args = ap.parse_args()
    gp = Path(args.golden_lexicon)
    golden = Lexicon.load(gp) if gp.exists() else build_bundle(golden_words(), gp)
    default = load_lexicon(None)
    print("| class | positions | moves | p50 all (ms) | p95 all (ms) | positions/s | moves/s | p50 best (ms) | p95 best (ms) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    tot_t = tot_n = tot_m = 0
    for cls, items in sorted(load_set().items()):
        ta, tb, nm = [], [], 0
        for pid, cgp in items:
            pos = parse_cgp(cgp, allow_impossible=True)  # the golden set holds the composed p_ref3
            lex = golden if pid.startswith("g_") else default
            nm += len(generate_moves(pos.board, pos.rack, lex))
            ta.append(median_ms(lambda: generate_moves(pos.board, pos.rack, lex), args.rounds) / 1e3)
            tb.append(median_ms(lambda: best_moves(pos.board, pos.rack, lex, 1), args.rounds) / 1e3)
        s = sum(ta)
        tot_t += s
        tot_n += len(items)
        tot_m += nm
        print(f"| {cls} | {len(items)} | {nm} | {np.percentile(ta, 50) * 1e3:.3f} | {np.percentile(ta, 95) * 1e3:.3f} "
              f"| {len(items) / s:,.0f} | {nm / s:,.0f} | {np.percentile(tb, 50) * 1e3:.3f} "
              f"| {np.percentile(tb, 95) * 1e3:.3f} |")
    print(f"| **all** | {tot_n} | {tot_m} | | | {tot_n / tot_t:,.0f} | {tot_m / tot_t:,.0f} | | |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
