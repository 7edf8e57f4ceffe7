"""Per-class p50/p95 per position, positions/s and moves/s on the benchmark position set.

    .venv/bin/python benchmarks/positions_report.py [--rounds 15] [--tsv per_position.tsv]

Prints a Markdown table for benchmarks/README.md. Times are medians over
``rounds`` runs per position after a warm-up, through the public API (see
:mod:`ours`): ``generate_moves`` (all moves, cross-checks included),
``best_moves(n=1)`` (top move by score) and ``best_equity(n=1)`` (top
placement by equity with the packaged leave table). Golden positions use the
golden word list, self-play ones the default lexicon.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ours import WHAT, lexicons, load_positions, summarize, time_positions, write_tsv  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--golden-lexicon", default="/tmp/golden-bench.lex")
    ap.add_argument("--tsv", help="also write the per-position rows here")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall", help="wall time or this thread's CPU time")
    args = ap.parse_args()
    rows = time_positions(load_positions("positions"), lexicons(args.golden_lexicon), args.rounds,
                          clock=args.clock)
    if args.tsv:
        write_tsv(rows, args.tsv)
    summ = summarize(rows)
    print("| class | positions | moves | p50 all (ms) | p95 all (ms) | positions/s | moves/s | p50 best (ms) "
          "| p95 best (ms) | p50 best eq (ms) | p95 best eq (ms) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for cls in sorted(summ, key=lambda c: (c == "all", c)):
        s = summ[cls]
        name = "**all**" if cls == "all" else cls
        print(f"| {name} | {s['positions']} | {s['moves']} | {s['all_p50']:.3f} | {s['all_p95']:.3f} "
              f"| {s['positions'] / (s['all_sum'] / 1e3):,.0f} | {s['moves'] / (s['all_sum'] / 1e3):,.0f} "
              f"| {s['best_p50']:.3f} | {s['best_p95']:.3f} | {s['best_eq_p50']:.3f} | {s['best_eq_p95']:.3f} |")
    assert set(WHAT) == {"all", "best", "best_eq"}
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
