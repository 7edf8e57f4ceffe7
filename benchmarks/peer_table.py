"""Time every golden position and print the Markdown table for benchmarks/README.md.

    .venv/bin/python benchmarks/peer_table.py [--rounds 50]

For each position: the median time of ``generate_moves`` (all moves, cross-checks
included, Python wrapper included) and of ``best_moves(n=1)`` after a warm-up
call (timed by :func:`ours.time_positions`), next to the peers' medians from
tests/data/peer_timings.tsv, with ratios (ours / theirs: below 1 means we are
faster).
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ours import lexicons, median_ms, time_positions  # noqa: E402,F401  (ours first: this checkout's engine)
from conftest import golden_positions, peer_timings  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=50)
    ap.add_argument("--lexicon", default="/tmp/golden-bench.lex")
    args = ap.parse_args()
    peers = peer_timings()
    timed = time_positions(golden_positions(), lexicons(args.lexicon), args.rounds, what=("all", "best"))
    rows = [(r["id"], r["moves"], r["all_ms"], r["best_ms"], peers[r["id"]]) for r in timed]
    print(f"Machine: {platform.machine()}, {platform.processor() or 'cpu'}, Python {platform.python_version()}; "
          f"{time.strftime('%Y-%m-%d')}; median of {args.rounds} runs after warm-up.\n")
    print("| position | moves | ours all (ms) | ours best (ms) | wolges (ms) | ratio all/wolges | ratio best/wolges"
          " | quackle (ms) | ratio all/quackle | scrabble-solver (ms) | ratio all/solver |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    tot = [0.0] * 5
    for pid, n, ta, tb, p in rows:
        w, q, s = p["wolges_ms"], p["quackle_ms"], p["scrabble_solver_ms"]
        tot = [tot[0] + ta, tot[1] + tb, tot[2] + w, tot[3] + q, tot[4] + s]
        print(f"| {pid} | {n} | {ta:.3f} | {tb:.3f} | {w:.3f} | {ta / w:.2f} | {tb / w:.2f} | {q:.3f} | {ta / q:.2f}"
              f" | {s:.3f} | {ta / s:.2f} |")
    print(f"| **total** | | **{tot[0]:.2f}** | **{tot[1]:.2f}** | **{tot[2]:.2f}** | **{tot[0] / tot[2]:.2f}** | "
          f"**{tot[1] / tot[2]:.2f}** | {tot[3]:.2f} | {tot[0] / tot[3]:.2f} | {tot[4]:.2f} | {tot[0] / tot[4]:.2f} |")
    slower = [pid for pid, n, ta, tb, p in rows if ta > p["wolges_ms"]]
    best_miss = [pid for pid, n, ta, tb, p in rows if tb > p["wolges_ms"] / 4]
    print(f"\nPositions where all-moves is slower than wolges: {', '.join(slower) or 'none'}.")
    print(f"Positions where best-first is above a quarter of wolges: {', '.join(best_miss) or 'none'}.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
