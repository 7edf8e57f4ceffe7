"""The successive-elimination rule's error level on real positions (benchmarks/README.md, docs/simulation.md).

    python benchmarks/sim_error_check.py [--positions 10] [--candidates 6] [--iterations 500] [--seeds 20]
                                         [--tolerance 1.0] [--error 0.05]

For the first ``--positions`` positions of benchmarks/positions/positions.tsv
with more than 3 tiles in the bag (default lexicon, 2 plies, equity players,
the ``--candidates`` best moves by static equity, one core), ``--seeds`` full
runs of ``--iterations`` iterations per candidate, seeds 1, 2, ... (no pruning).

With common random numbers a pruned run's samples are the first iterations of
the full run with the same seed, so each seed's pruned run is replayed from its
full run with :func:`engine.analysis.simulation.eliminated` and the ``z`` of
:func:`engine.analysis.simulation.elimination_z` (batches of 50 from 100 iterations on,
as :func:`engine.analysis.simulation.simulate` does). The "true" mean spread of each
candidate is the mean over the *other* seeds' full runs (leave-one-out, so a
run is never judged by its own samples). Counted per run:

* **best dropped**: the candidate with the best true mean was eliminated (the
  event whose probability the rule bounds by ``--error``);
* **worse than tolerance**: the run's choice (the one left, or the best mean
  among those left at the budget) has a true mean more than ``--tolerance``
  points below the true best.

Prints one row per position and the totals.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from lexicon_tools.bundle import load_lexicon  # noqa: E402

from engine.position.cgp import parse_cgp  # noqa: E402
from engine.analysis.simulation import eliminated, elimination_z, simulate  # noqa: E402
from sim_pruning import positions  # noqa: E402

BATCH = 50
MIN_ITERATIONS = 100


def replay(spreads: np.ndarray, z: float) -> tuple[list[int], int, int]:
    """``(dropped candidates, chosen candidate, iterations used)`` of successive elimination on full-run samples."""
    nc, n_max = spreads.shape
    active = list(range(nc))
    dropped = []
    used = 0
    n1 = 0
    while n1 < n_max:
        n0, n1 = n1, min(n_max, n1 + BATCH)
        used += len(active) * (n1 - n0)
        if len(active) > 1 and n1 >= MIN_ITERATIONS:
            drop = eliminated(active, spreads, n1, z)
            dropped += drop
            active = [c for c in active if c not in drop]
            if len(active) == 1:
                break
    chosen = max(active, key=lambda c: (float(spreads[c, :n1].mean()), -c))
    return dropped, chosen, used


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=10)
    ap.add_argument("--candidates", type=int, default=6)
    ap.add_argument("--iterations", type=int, default=500)
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--tolerance", type=float, default=1.0)
    ap.add_argument("--error", type=float, default=0.05)
    args = ap.parse_args(argv)
    lex = load_lexicon(None)
    z = elimination_z(args.candidates, args.iterations, BATCH, MIN_ITERATIONS, args.error)
    print(f"z = {z:.3f} ({args.candidates} candidates, {args.iterations} iterations, error {args.error})")
    print("| position | bag | true best | gap to 2nd (points) | best dropped | worse than tolerance | "
          "iterations (mean of runs) | seconds |")
    print("|---|---:|---|---:|---:|---:|---:|---:|")
    tot_runs = tot_drop = tot_worse = 0
    for pid, cgp in positions(args.positions):
        t = time.perf_counter()
        pos = parse_cgp(cgp)
        runs = []
        names = None
        for s in range(1, args.seeds + 1):
            r = simulate(pos, lex, n_candidates=args.candidates, plies=2, iterations=args.iterations, seed=s,
                         progress=False, stop_when_clearly_ahead=False)
            runs.append(np.stack([c.spreads for c in r.candidates]))
            names = [c.notation for c in r.candidates]
        allruns = np.stack(runs)  # (seeds, candidates, iterations)
        sums = allruns.sum(axis=2)
        drop_n = worse_n = 0
        used = []
        for i in range(args.seeds):
            truth = (sums.sum(axis=0) - sums[i]) / ((args.seeds - 1) * args.iterations)
            best = int(np.argmax(truth))
            dropped, chosen, n_used = replay(allruns[i], z)
            used.append(n_used)
            drop_n += best in dropped
            worse_n += truth[best] - truth[chosen] > args.tolerance
        truth = sums.sum(axis=0) / (args.seeds * args.iterations)
        order = np.argsort(-truth)
        gap = float(truth[order[0]] - truth[order[1]])
        tot_runs += args.seeds
        tot_drop += drop_n
        tot_worse += worse_n
        print(f"| {pid} | {pos.bag_count} | {names[order[0]]} | {gap:.2f} | {drop_n}/{args.seeds} | "
              f"{worse_n}/{args.seeds} | {np.mean(used):,.0f} | {time.perf_counter() - t:.0f} |", flush=True)
    print(f"| **total** | | | | **{tot_drop}/{tot_runs} ({100 * tot_drop / tot_runs:.1f} %)** | "
          f"**{tot_worse}/{tot_runs} ({100 * tot_worse / tot_runs:.1f} %)** | | |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
