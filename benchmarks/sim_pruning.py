"""Simulation iterations to a decision, with and without pruning (the table of benchmarks/README.md).

    python benchmarks/sim_pruning.py [--positions 6] [--candidates 10] [--iterations 1000] [--seed 1]

For the first ``--positions`` positions of benchmarks/positions/positions.tsv
with more than 3 tiles in the bag, on the default lexicon, one core: the
``--candidates`` best moves by static equity, 2 plies, equity players, budget
``--iterations`` per candidate, three runs with the same seed:

* ``none``: every candidate to the full budget (the reference answer: the
  best mean spread at the full budget);
* ``elimination``: successive elimination at error level 5 % (the default rule);
* ``overlap``: the older interval-overlap rule (99 % intervals).

With common random numbers and results stored by (candidate, iteration) a
pruned run's samples are the first iterations of the full run, so the runs
differ only in when they stop. Printed per position: iterations used, the
move chosen, whether it is the reference move, its shortfall against the
reference by the full run's means ("regret", points), and seconds.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from lexicon_tools.bundle import load_lexicon  # noqa: E402

from engine.position.cgp import parse_cgp  # noqa: E402
from engine.analysis.simulation import simulate  # noqa: E402


def positions(n: int) -> list[tuple[str, str]]:
    out = []
    for line in (ROOT / "benchmarks" / "positions" / "positions.tsv").read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        pid, cgp = line.split("\t")[:2]
        pos = parse_cgp(cgp)
        if (pos.bag_count or 0) > 3 and pos.board.tiles.any():
            out.append((pid, cgp))
        if len(out) == n:
            break
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=6)
    ap.add_argument("--candidates", type=int, default=10)
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    lex = load_lexicon(None)
    print("| position | bag | rule | iterations | of | chosen | reference? | regret | stop | seconds |")
    print("|---|---:|---|---:|---:|---|---|---:|---|---:|")
    tot = {"none": 0, "elimination": 0, "overlap": 0}
    for pid, cgp in positions(args.positions):
        pos = parse_cgp(cgp)
        common = dict(n_candidates=args.candidates, plies=2, iterations=args.iterations, seed=args.seed,
                      progress=False, workers=1)
        t0 = time.perf_counter()
        full = simulate(pos, lex, stop_when_clearly_ahead=False, **common)
        t_full = time.perf_counter() - t0
        means = {c.notation: c.mean_spread for c in full.candidates}
        ref = full.best.notation
        budget = args.candidates * args.iterations
        rows = [("none", full, t_full)]
        for rule in ("elimination", "overlap"):
            t0 = time.perf_counter()
            r = simulate(pos, lex, stop_rule=rule, **common)
            rows.append((rule, r, time.perf_counter() - t0))
        for rule, r, secs in rows:
            tot[rule] += r.total_iterations
            chosen = r.best.notation
            print(f"| {pid} | {pos.bag_count} | {rule} | {r.total_iterations:,} | {budget:,} | {chosen} | "
                  f"{'yes' if chosen == ref else 'no'} | {means[ref] - means[chosen]:.2f} | {r.stop_reason} | "
                  f"{secs:.1f} |", flush=True)
    print(f"\ntotal iterations: " + ", ".join(f"{k} {v:,}" for k, v in tot.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
