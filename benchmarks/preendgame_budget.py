"""Pre-endgame within its time budget (the "Pre-endgame" table of benchmarks/README.md).

    python benchmarks/preendgame_budget.py [--time 10] [--web-time 3] [--top 8]

For each position of benchmarks/positions/preendgames.tsv (default lexicon):

* ``python -m engine analyze --cgp CGP --time {--time}s --json`` in a fresh
  process: the wall time of the whole command (Python start-up, lexicon and
  leave table loaded, candidates, the pre-endgame) and what it answered: the
  best move, its win rate and spread, how many of the moves are exact;
* :func:`engine.analysis.phase.phase_answer` with ``seconds={--web-time}`` in this
  process after :func:`engine.analysis.phase.warm_up` (what the web's "Genauer rechnen"
  runs in its worker): its wall time.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

POSITIONS = ROOT / "benchmarks" / "positions" / "preendgames.tsv"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time", type=float, default=10.0)
    ap.add_argument("--web-time", type=float, default=3.0)
    ap.add_argument("--top", type=int, default=8)
    args = ap.parse_args(argv)
    rows = [ln.split("\t") for ln in POSITIONS.read_text(encoding="utf-8").splitlines() if ln.strip()]
    print(f"| position | bag | `analyze --time {args.time:g}s` wall (s) | pre-endgame (s) | best | win | spread | "
          f"moves exact | endgames solved (weight share, best move) | web {args.web_time:g} s budget: wall (s) |")
    print("|---|---:|---:|---:|---|---:|---:|---:|---:|---:|")
    from lexicon_tools.bundle import load_lexicon

    from engine.position.cgp import parse_cgp
    from engine.leaves.table import default_table
    from engine.analysis.phase import phase_answer, warm_up

    lex = load_lexicon(None)
    table = default_table()
    warm_up(lex)
    for pid, bag, cgp in rows:
        t = time.perf_counter()
        out = subprocess.run([sys.executable, "-m", "engine", "analyze", "--cgp", cgp, "--time", f"{args.time:g}s",
                              "--top", str(args.top), "--json"], cwd=ROOT, capture_output=True, text=True, check=True)
        wall = time.perf_counter() - t
        pre = json.loads(out.stdout)["preendgame"]
        best = pre["moves"][0]
        n_exact = sum(m["exact"] for m in pre["moves"])
        t = time.perf_counter()
        phase_answer(parse_cgp(cgp), lex, table=table, seconds=args.web_time, candidates=6)
        web = time.perf_counter() - t
        print(f"| {pid} | {bag.split()[-1]} | {wall:.1f} | {pre['seconds']:.1f} | {best['move']} | {best['win']:.3f} | "
              f"{best['spread']:+.1f} | {n_exact}/{len(pre['moves'])} | {100 * best['exact_share']:.0f} % | "
              f"{web:.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
