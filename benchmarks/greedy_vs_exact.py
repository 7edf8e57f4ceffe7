"""How far the pre-endgame's greedy playout is from the exact endgame value (docs/preendgame.md).

    python benchmarks/greedy_vs_exact.py [--max-class 6+6] [--time 60]

For the endgames of benchmarks/positions/endgames.tsv up to ``--max-class``
(default lexicon): :func:`engine.analysis.preendgame.greedy_playout` against
:func:`engine.analysis.endgame.solve` (only solves that complete count). Prints one row
per position and the mean absolute error and how often the sign of the final
spread (win or loss, with the CGP's scores) differs.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-class", default="6+6")
    ap.add_argument("--time", type=float, default=60.0)
    args = ap.parse_args(argv)
    from lexicon_tools.bundle import load_lexicon

    from engine.position.cgp import parse_cgp
    from engine.analysis.endgame import endgame_position, solve
    from engine.analysis.preendgame import greedy_playout

    cap = sum(int(x) for x in args.max_class.split("+"))
    lex = load_lexicon(None)
    rows = [ln.split("\t") for ln in (ROOT / "benchmarks" / "positions" / "endgames.tsv").read_text(
        encoding="utf-8").splitlines() if ln.strip()]
    print("| position | racks | exact | greedy | greedy − exact | win/loss differs | solve (s) |")
    print("|---|---|---:|---:|---:|---|---:|")
    errs = []
    flips = 0
    for pid, cls, cgp in rows:
        if sum(int(x) for x in cls.split("+")) > cap:
            continue
        pos = endgame_position(parse_cgp(cgp))
        t = time.perf_counter()
        r = solve(pos, lex, time_limit=args.time)
        el = time.perf_counter() - t
        if not r.complete:
            print(f"| {pid} | {cls} | (not solved in {args.time:g} s) | | | | {el:.1f} |")
            continue
        g = greedy_playout(pos.board, pos.rack, pos.opponent_rack, lex, pos.zero_turns)
        s0 = pos.scores[0] - pos.scores[1]
        flip = (s0 + g > 0) != (s0 + r.value > 0)
        flips += flip
        errs.append(g - r.value)
        print(f"| {pid} | {cls} | {r.value:+d} | {g:+d} | {g - r.value:+d} | {'yes' if flip else 'no'} | {el:.1f} |",
              flush=True)
    if errs:
        mae = sum(abs(e) for e in errs) / len(errs)
        print(f"| **{len(errs)} solved** | | | | mean {sum(errs) / len(errs):+.1f}, mean abs {mae:.1f} | "
              f"{flips} of {len(errs)} | |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
