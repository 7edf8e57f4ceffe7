"""Print the endgame table of benchmarks/README.md: solve time, nodes and nodes/s per position.

    python benchmarks/endgame_table.py [--limit 60] [--only e77] [--magpie BIN --magpie-data DIR --magpie-lex NAME]

Solves every position of benchmarks/positions/endgames.tsv on the default
lexicon in this process (after a warm-up solve), one core, each capped at
``--limit`` seconds (then the answer is the deepest completed depth and
``complete`` is "no"). "time" is wall time (the limit applies to it), "CPU"
the process's CPU time for the solve (closer to an unloaded machine's wall time).

With ``--magpie`` each position is also given, right after ours (interleaved,
so both see the same load), to a MAGPIE binary built from its public source
outside this repository: on standard input ``set -ld german -lex NAME -wmp
false -threads 1``, ``cgp <board> <racks> <scores> <zero turns>`` and
``endgame -eplies 25 -etlim LIMIT``, run in ``--magpie-data``'s parent folder
(MAGPIE reads ``data/`` there; ``data/lexica/NAME.kwg`` must be our default
lexicon's KWG); the ``endgame`` line is sent 2 s after the others (MAGPIE refuses it
while it is still reading the position; retried with longer pauses). Reported: MAGPIE's own "time:" figure (wall, one thread,
lexicon loading excluded), its status and depth (25 = the ``-eplies`` limit;
a smaller depth means its time limit stopped it), its value (the spread from
now, "V") and its best move, and the CPU seconds of the MAGPIE process
(lexicon loading included).
"""

from __future__ import annotations

import argparse
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from lexicon_tools.bundle import load_lexicon  # noqa: E402

from engine.analysis.endgame import solve  # noqa: E402
from test_bench_endgame import endgame_positions  # noqa: E402

_HEAD = re.compile(r"Endgame \(depth: (\d+), time: ([\d.]+)s, status: (\w+)\)")
_PLAY = re.compile(r"^(pass|\S+ \S+)\s+(-?\d+)\s+(-?\d+)")


def magpie(binary: str, data: str, lex: str, cgp: str, limit: float) -> dict:
    """One MAGPIE endgame solve: ``{time, status, depth, value, move, cpu}`` (None where not found)."""
    fields = cgp.split()[:4]
    setup = f"set -ld german -lex {lex} -wmp false -threads 1\ncgp {' '.join(fields)}\n"
    solve_cmd = f"endgame -eplies 25 -etlim {int(limit)}\n"
    for attempt in range(5):  # a start-up failure (no result line) is retried, waiting longer each time
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        # MAGPIE refuses ("unrecognized async command") an endgame line that arrives while the cgp
        # line is still being processed, so the endgame line is sent after a pause
        p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, cwd=str(Path(data).parent))
        p.stdin.write(setup)
        p.stdin.flush()
        time.sleep(2.0 * (attempt + 1))
        stdout, stderr = p.communicate(solve_cmd, timeout=limit * 4 + 60)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if _HEAD.search(stdout):
            break
        print(f"note: MAGPIE gave no result (exit {p.returncode}): {stderr.strip()[-200:]!r}", file=sys.stderr)
    out = {"time": None, "status": None, "depth": None, "value": None, "move": None,
           "cpu": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)}
    lines = stdout.splitlines()
    for i, line in enumerate(lines):
        m = _HEAD.search(line)
        if m:
            out["depth"], out["time"], out["status"] = int(m.group(1)), float(m.group(2)), m.group(3)
            for nxt in lines[i + 1:]:
                if nxt.startswith("Play"):
                    continue
                pm = _PLAY.match(nxt.strip())
                if pm:
                    if pm.group(1) == "pass":
                        out["move"], out["value"] = "pass", int(pm.group(2))
                    else:
                        out["move"], out["value"] = pm.group(1), int(pm.group(3))
                break
    return out


def _num(x) -> str:
    return "" if x is None else f"{x:.2f}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=float, default=60.0)
    ap.add_argument("--only", default="", help="id prefix filter")
    ap.add_argument("--magpie", default=None, help="MAGPIE binary (built outside the repository)")
    ap.add_argument("--magpie-data", default=None, help="MAGPIE data/ folder with our lexicon's KWG in lexica/")
    ap.add_argument("--magpie-lex", default="RDNEW", help="lexicon name in MAGPIE's data/lexica/")
    args = ap.parse_args(argv)
    if args.magpie and not args.magpie_data:
        print("error: --magpie needs --magpie-data", file=sys.stderr)
        return 2
    lex = load_lexicon(None)
    rows = endgame_positions()
    solve(rows[0][2], lex, max_depth=2)
    head = "| position | racks | value | best move | depth | complete | nodes | time (s) | CPU (s) | nodes/CPU s |"
    sep = "|---|---|---:|---|---:|---|---:|---:|---:|---:|"
    if args.magpie:
        head += " MAGPIE value | MAGPIE move | MAGPIE status (depth) | MAGPIE time (s) | MAGPIE CPU (s) |"
        sep += "---:|---|---|---:|---:|"
    print(head)
    print(sep)
    for pid, cls, cgp in rows:
        if not pid.startswith(args.only):
            continue
        c0 = time.process_time()
        r = solve(cgp, lex, time_limit=args.limit)
        cpu = time.process_time() - c0
        line = (f"| {pid} | {cls} | {r.value:+d} | {r.move} | {r.depth} | {'yes' if r.complete else 'no'} | "
                f"{r.nodes:,} | {r.seconds:.2f} | {cpu:.2f} | {r.nodes / max(cpu, 1e-9):,.0f} |")
        if args.magpie:
            m = magpie(args.magpie, args.magpie_data, args.magpie_lex, cgp, args.limit)
            v = "" if m["value"] is None else f"{m['value']:+d}"
            line += (f" {v} | {m['move'] or ''} | {m['status']} ({m['depth']}) | "
                     f"{_num(m['time'])} | "
                     f"{m['cpu']:.2f} |")
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
