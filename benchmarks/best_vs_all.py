"""Our best move against our own all-moves call, per benchmark position (issue 27 part 3's ratios).

For each of the 248 positions of ``benchmarks/positions/positions.tsv`` (golden ones on the golden
word list, the others on the default lexicon, as ``bench_peers.py``) it times, in CPU time of the
thread, ``generate_moves`` (all moves), ``best_moves(n=1)`` (best by score) and
``best_equity(n=1)`` (best by static equity, packaged leave table, the position's bag) — the three
calls of a position one after the other, repeated ``REPS`` times over all positions, per-position
medians — and prints per class the median times and the median of the per-position ratios
best / all. With ``OUT`` it writes the per-position medians (id, class, all, score, equity in ms).

Run: ``python benchmarks/best_vs_all.py [REPS [OUT]]`` (``--golden-lexicon`` as in ``bench_peers.py``
via ``GOLDEN_LEX``, default ``/tmp/golden-bench.lex``). For an A/B of two trees run it in each
(``PYTHONPATH=<tree>``), the processes alternating, and compare the ratios, not the times: the
machine is shared.
"""

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_peers import ROOT, bag_of, golden_lexicon, load_positions  # noqa: E402
from engine.game.equity import best_equity, default_table  # noqa: E402
from engine.movegen.generator import best_moves, generate_moves  # noqa: E402
from engine.position.cgp import parse_cgp  # noqa: E402
from lexicon_tools.bundle import load_lexicon  # noqa: E402


def main() -> None:
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    golden = golden_lexicon(Path(os.environ.get("GOLDEN_LEX", Path(tempfile.gettempdir()) / "golden-bench.lex")))
    default = load_lexicon(None)
    table = default_table()
    P = []
    for pid, cls, cgp in load_positions(ROOT / "benchmarks" / "positions" / "positions.tsv"):
        pos = parse_cgp(cgp, allow_impossible=True)
        P.append((pid, cls, pos, golden if cls == "golden" else default, bag_of(pos)))
    for pid, cls, pos, lex, bag in P:  # compile and warm up
        generate_moves(pos.board, pos.rack, lex)
        best_moves(pos.board, pos.rack, lex, 1)
        best_equity(pos.board, pos.rack, lex, bag=bag, n=1, table=table)
    T = time.thread_time_ns
    res: dict[str, tuple[list, list, list]] = {}
    for _ in range(reps):
        for pid, cls, pos, lex, bag in P:
            d = res.setdefault(pid, ([], [], []))
            t = T()
            generate_moves(pos.board, pos.rack, lex)
            d[0].append(T() - t)
            t = T()
            best_moves(pos.board, pos.rack, lex, 1)
            d[1].append(T() - t)
            t = T()
            best_equity(pos.board, pos.rack, lex, bag=bag, n=1, table=table)
            d[2].append(T() - t)
    rows, byc = [], {}
    for pid, cls, *_ in P:
        a, s, e = (statistics.median(x) / 1e6 for x in res[pid])
        rows.append(f"{pid}\t{cls}\t{a:.4f}\t{s:.4f}\t{e:.4f}")
        for c in (cls, "all"):
            byc.setdefault(c, []).append((a, s, e))
    if len(sys.argv) > 2:
        Path(sys.argv[2]).write_text("\n".join(rows) + "\n")
    print("class n all_ms score_ms equity_ms score/all equity/all")
    for c, v in sorted(byc.items()):
        med = [statistics.median(x[i] for x in v) for i in range(3)]
        rs = statistics.median(x[1] / x[0] for x in v)
        re_ = statistics.median(x[2] / x[0] for x in v)
        print(f"{c} {len(v)} {med[0]:.3f} {med[1]:.3f} {med[2]:.3f} {rs:.2f} {re_:.2f}")


if __name__ == "__main__":
    main()
