"""Print the endgame table of benchmarks/README.md: solve time, nodes and nodes/s per position.

    python benchmarks/endgame_table.py [--limit 60] [--only e77]

Solves every position of benchmarks/positions/endgames.tsv on the default
lexicon in this process (after a warm-up solve), one core, each capped at
``--limit`` seconds (then the answer is the deepest completed depth and
``complete`` is "no"). "time" is wall time (the limit applies to it), "CPU"
the process's CPU time for the solve (closer to an unloaded machine's wall time).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from lexicon_tools.bundle import load_lexicon  # noqa: E402

from engine.endgame import solve  # noqa: E402
from test_bench_endgame import endgame_positions  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=float, default=60.0)
    ap.add_argument("--only", default="", help="id prefix filter")
    args = ap.parse_args(argv)
    lex = load_lexicon(None)
    rows = endgame_positions()
    solve(rows[0][2], lex, max_depth=2)
    print("| position | racks | value | best move | depth | complete | nodes | time (s) | CPU (s) | nodes/s |")
    print("|---|---|---:|---|---:|---|---:|---:|---:|---:|")
    for pid, cls, cgp in rows:
        if not pid.startswith(args.only):
            continue
        c0 = time.process_time()
        r = solve(cgp, lex, time_limit=args.limit)
        cpu = time.process_time() - c0
        print(f"| {pid} | {cls} | {r.value:+d} | {r.move} | {r.depth} | {'yes' if r.complete else 'no'} | "
              f"{r.nodes:,} | {r.seconds:.2f} | {cpu:.2f} | {r.nodes / r.seconds:,.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
