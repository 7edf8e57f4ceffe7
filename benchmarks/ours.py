"""Our move generator's timings per position, for the benchmark tables and the peer comparison.

    .venv/bin/python benchmarks/ours.py [--rounds 15] [--set golden|positions] [--tsv out.tsv]

Library use (what ``peer_table.py``, ``positions_report.py`` and a peer
benchmark can share)::

    from ours import time_positions, summarize
    rows = time_positions([(pid, cgp), ...], lexicon_for=lambda pid: lex, rounds=15)
    summarize(rows, key=lambda r: r["class"])

Every figure is the median time of one call (wall time by default, or this
thread's CPU time with ``--clock cpu``; :func:`median_ms`) over ``rounds``
rounds after a warm-up call, through the public API:

* ``all``: :func:`engine.movegen.generator.generate_moves` — every placement, cross-checks
  of the board computed in the call, the result array included;
* ``best``: :func:`engine.movegen.generator.best_moves` ``(n=1)`` — the top move by score;
* ``best_eq``: :func:`engine.game.equity.best_equity` ``(n=1, exchanges=False)`` —
  the top placement by static equity with the packaged leave table, loaded
  once beforehand (the leave values of the rack's sub-multisets are computed
  in the call).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Callable, Iterable

HERE = Path(__file__).resolve().parent
# this checkout's engine (the venv's editable install may point to another one); --root overrides
_ROOT = str(HERE.parent)
for _i, _a in enumerate(sys.argv[1:], 1):
    if _a.startswith("--root="):
        _ROOT = _a.split("=", 1)[1]
    elif _a == "--root" and _i + 1 < len(sys.argv):
        _ROOT = sys.argv[_i + 1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, _ROOT)

import numpy as np  # noqa: E402

WHAT = ("all", "best", "best_eq")


CLOCKS = {"wall": time.perf_counter, "cpu": time.thread_time}


def median_ms(fn, rounds: int, clock: str = "wall") -> float:
    """Median time of one ``fn()`` call in milliseconds over ``rounds`` timed rounds after one warm-up call.

    A round times a batch of calls (as many as take about 0.2 ms, at least
    one) and counts its mean, so clock overhead stays out of sub-10 µs calls.
    ``clock``: ``"wall"`` (``time.perf_counter``) or ``"cpu"``
    (``time.thread_time``: this thread's CPU time, which a machine loaded by
    other processes disturbs less than wall time).
    """
    tick = CLOCKS[clock]
    fn()
    t = time.perf_counter()
    fn()
    once = time.perf_counter() - t
    batch = max(1, min(1000, int(2e-4 / max(once, 1e-7))))
    ts = []
    for _ in range(rounds):
        t = tick()
        for _ in range(batch):
            fn()
        ts.append((tick() - t) / batch)
    return statistics.median(ts) * 1000


def position_class(pid: str) -> str:
    """Class of a benchmark position id: ``golden`` for ``g_...``/``p...``, else the self-play phase
    (``sp003_05_early_b2_v`` -> ``early``)."""
    if pid.startswith("g_") or pid.startswith("p"):
        return "golden"
    return pid.split("_")[2]


def time_positions(positions: Iterable[tuple[str, str]], lexicon_for: Callable[[str], object], rounds: int = 15,
                   what: Iterable[str] = WHAT, clock: str = "wall") -> list[dict]:
    """Time our engine on CGP positions.

    Args:
        positions: ``(id, cgp)`` pairs.
        lexicon_for: the :class:`lexicon_tools.bundle.Lexicon` of a position id.
        rounds: timed calls per position and measure (median reported).
        what: measures wanted, a subset of ``("all", "best", "best_eq")`` (module doc).
        clock: ``"wall"`` or ``"cpu"`` (see :func:`median_ms`).

    Returns:
        one dict per position, in input order: ``id``, ``class``
        (:func:`position_class`), ``moves`` (number of placements), ``tiles``
        (on the board) and ``<measure>_ms`` (median milliseconds) per measure.
    """
    from engine.position.cgp import parse_cgp
    from engine.game.equity import best_equity
    from engine.leaves.table import default_table
    from engine.movegen.generator import best_moves, generate_moves

    what = tuple(what)
    table = default_table() if "best_eq" in what else None
    rows = []
    for pid, cgp in positions:
        pos = parse_cgp(cgp, allow_impossible=True)  # the golden set holds the composed p_ref3
        lex = lexicon_for(pid)
        b, r = pos.board, pos.rack
        bag = pos.bag_count if pos.bag_count is not None else 0
        row = {"id": pid, "class": position_class(pid), "moves": len(generate_moves(b, r, lex)),
               "tiles": int(np.count_nonzero(b.tiles))}
        if "all" in what:
            row["all_ms"] = median_ms(lambda: generate_moves(b, r, lex), rounds, clock)
        if "best" in what:
            row["best_ms"] = median_ms(lambda: best_moves(b, r, lex, 1), rounds, clock)
        if "best_eq" in what:
            row["best_eq_ms"] = median_ms(lambda: best_equity(b, r, lex, bag=bag, n=1, table=table,
                                                                  exchanges=False), rounds, clock)
        rows.append(row)
    return rows


def summarize(rows: list[dict], key: Callable[[dict], str] = lambda r: r["class"]) -> dict[str, dict]:
    """Per group (default: class) and ``"all"``: positions, moves and p50/p95 of every measure.

    Returns:
        ``{group: {"positions": n, "moves": m, "<measure>_p50": ms, "<measure>_p95": ms, ...}}``.
    """
    groups: dict[str, list[dict]] = {}
    for r in rows:
        groups.setdefault(key(r), []).append(r)
    groups["all"] = list(rows)
    out = {}
    for g, rs in groups.items():
        s = {"positions": len(rs), "moves": sum(r["moves"] for r in rs)}
        for m in WHAT:
            vals = [r[f"{m}_ms"] for r in rs if f"{m}_ms" in r]
            if vals:
                s[f"{m}_p50"] = float(np.percentile(vals, 50))
                s[f"{m}_p95"] = float(np.percentile(vals, 95))
                s[f"{m}_sum"] = float(sum(vals))
        out[g] = s
    return out


def markdown_summary(summary: dict[str, dict]) -> str:
    """The table of :func:`summarize` as Markdown (ms)."""
    lines = ["| class | positions | moves | p50 all | p95 all | p50 best | p95 best | p50 best eq | p95 best eq |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for g in sorted(summary, key=lambda g: (g == "all", g)):
        s = summary[g]
        cells = [f"{s.get(f'{m}_{p}', float('nan')):.3f}" for m in WHAT for p in ("p50", "p95")]
        lines.append(f"| {g} | {s['positions']} | {s['moves']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def write_tsv(rows: list[dict], path: str) -> None:
    """Write the rows of :func:`time_positions` as a tab-separated file (ms with 4 decimals)."""
    cols = ["id", "class", "moves", "tiles"] + [f"{m}_ms" for m in WHAT if f"{m}_ms" in rows[0]]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\t".join(cols) + "\n")
        for r in rows:
            f.write("\t".join(f"{r[c]:.4f}" if isinstance(r[c], float) else str(r[c]) for c in cols) + "\n")


def load_positions(which: str) -> list[tuple[str, str]]:
    """``golden``: tests/data/positions.tsv (43); ``positions``: benchmarks/positions/positions.tsv (248)."""
    path = HERE.parent / "tests" / "data" / "positions.tsv" if which == "golden" else HERE / "positions" / "positions.tsv"
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            pid, cgp = line.split("\t")
            out.append((pid, cgp))
    return out


def lexicons(golden_path: str = "/tmp/golden-bench.lex"):
    """``lexicon_for(pid)``: the golden word list for golden ids (built once at ``golden_path``),
    the default lexicon for self-play ids."""
    from conftest import golden_words
    from lexicon_tools.bundle import Lexicon, build_bundle, load_lexicon

    gp = Path(golden_path)
    golden = Lexicon.load(gp) if gp.exists() else build_bundle(golden_words(), gp)
    cache = {}

    def lexicon_for(pid: str):
        if pid.startswith("g_") or (pid.startswith("p") and not pid.startswith("sp")):
            return golden
        if "default" not in cache:
            cache["default"] = load_lexicon(None)
        return cache["default"]

    return lexicon_for


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--set", choices=("golden", "positions"), default="positions")
    ap.add_argument("--golden-lexicon", default="/tmp/golden-bench.lex")
    ap.add_argument("--tsv", help="write the per-position rows here")
    ap.add_argument("--clock", choices=sorted(CLOCKS), default="wall", help="wall time or this thread's CPU time")
    ap.add_argument("--root", metavar="DIR", help="import the engine from this checkout (default: the one "
                    "holding this script), e.g. to time another branch")
    ap.add_argument("--what", default=",".join(WHAT), help="comma-separated measures (all,best,best_eq)")
    args = ap.parse_args()
    what = tuple(w for w in args.what.split(",") if w)
    rows = time_positions(load_positions(args.set), lexicons(args.golden_lexicon), args.rounds, what, args.clock)
    if args.tsv:
        write_tsv(rows, args.tsv)
    print(markdown_summary(summarize(rows)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
