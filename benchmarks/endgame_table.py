"""The endgame table of benchmarks/README.md: our solver beside MAGPIE, CPU seconds per solve.

    python benchmarks/endgame_table.py [--limit 60] [--only e77] [--positions FILE]
        [--magpie BIN --magpie-run DIR --magpie-lex NAME] [--lexicon BUNDLE] [--tsv OUT]

Solves every position of ``--positions`` (default benchmarks/positions/endgames.tsv)
on ``--lexicon`` (default: the default lexicon) in this process, one core, each with ``--limit`` CPU seconds
(``solve(..., time_limit=LIMIT, clock="cpu")``; a stopped search is reported as
not complete with the depth it reached). "CPU" is the solve's own CPU time
(:attr:`engine.analysis.endgame.EndgameResult.cpu_seconds`: the caller's thread and
the kernel's thread).

With ``--magpie`` (a MAGPIE binary built from its public source outside this
repository) each position is also solved by MAGPIE, the calls strictly alternating
(ours, MAGPIE, ours, ...), so both see the same load. MAGPIE runs as one shell
process in ``--magpie-run`` (a folder whose ``data`` holds MAGPIE's data with our
default lexicon's KWG as ``lexica/NAME.kwg``) with ``set -lex NAME -ld german
-threads 1 -wmp false -savesettings false -mode sync -ttfraction 0.01``; per
position ``cgp <board> <racks> <scores> <zero turns>`` and then ``endgame -eplies 25
-threads 1 -etlim LIMIT``. Its CPU is the process's user + system time
(``/proc/PID/stat``) read before and after the ``endgame`` command (an unknown
command, answered with an error line, marks the end of each command in sync
mode): lexicon loading and the position's set-up are not counted. Reported:
MAGPIE's value (spread from now), move, status and depth (25 = the ``-eplies``
limit; a smaller depth means its time management stopped it, which counts as "to the end" only when
the depth is at least the longest line of our complete search), CPU seconds, the ratio
ours / MAGPIE per position, and at the end the ratios of the sums and the median
per-position ratio for all rows, for 6+ tiles a side, and where both finished,
with how many positions each side was faster on.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from lexicon_tools.bundle import load_lexicon  # noqa: E402

from engine.analysis.endgame import solve  # noqa: E402

_HEAD = re.compile(r"Endgame \(depth: (\d+), time: ([\d.]+)s, status: (\w+)\)")
_PLAY = re.compile(r"^(pass|\S+ \S+)\s+(-?\d+)\s+(-?\d+)")
_MARK = "gse_mark"
TICK = os.sysconf("SC_CLK_TCK")


class Magpie:
    """One MAGPIE shell process in sync mode; :meth:`endgame` solves one position."""

    def __init__(self, binary: str, run_dir: str, lex: str):
        self.p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True, cwd=run_dir, bufsize=1)
        self.command(f"set -lex {lex} -ld german -threads 1 -wmp false -savesettings false -mode sync "
                     f"-ttfraction 0.01")

    def command(self, line: str) -> list[str]:
        """Send one command and return its output lines (up to the marker's error line)."""
        self.p.stdin.write(line + "\n" + _MARK + "\n")
        self.p.stdin.flush()
        out = []
        while True:
            got = self.p.stdout.readline()
            if not got:
                raise RuntimeError(f"MAGPIE ended: {''.join(out)[-300:]}")
            if _MARK in got:
                return out
            out.append(got.rstrip("\n"))

    def cpu(self) -> float:
        fields = Path(f"/proc/{self.p.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime

    def endgame(self, cgp: str, limit: float) -> dict:
        self.command("cgp " + " ".join(cgp.split()[:4]))
        c0 = self.cpu()
        lines = self.command(f"endgame -eplies 25 -threads 1 -etlim {max(1, int(limit))}")
        out = {"cpu": self.cpu() - c0, "time": None, "status": None, "depth": None, "value": None, "move": None}
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
        if out["status"] is None:
            out["error"] = " | ".join(lines[-3:])
        return out

    def close(self) -> None:
        self.p.stdin.close()
        self.p.wait(timeout=30)


def _magpie_to_the_end(r: dict) -> bool:
    """MAGPIE has no "complete" flag: its iterative deepening stops at ``-eplies`` (25) or when its time
    management expects the next depth to overrun. Counted as searched to the end: status finished and depth 25,
    or a depth at least the longest line of our complete search (every line then ended within its depth)."""
    if r["m_status"] != "finished" or r["m_depth"] is None:
        return False
    return r["m_depth"] >= 25 or (r["complete"] and r["m_depth"] >= r["depth"])


def _tiles(cls: str) -> int:
    return min(int(x) for x in cls.split("+"))


def _summary(rows: list[dict], label: str) -> str:
    if not rows:
        return f"{label}: no rows"
    ours = sum(r["cpu"] for r in rows)
    theirs = sum(r["m_cpu"] for r in rows)
    ratios = [r["cpu"] / max(r["m_cpu"], 1e-3) for r in rows]
    won = sum(1 for r in rows if r["cpu"] < r["m_cpu"])
    return (f"{label}: {len(rows)} positions, CPU ours {ours:.2f} s, MAGPIE {theirs:.2f} s, sum ratio "
            f"{ours / max(theirs, 1e-9):.2f}, median per-position ratio {statistics.median(ratios):.2f}; "
            f"ours faster on {won}, MAGPIE on {len(rows) - won}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=float, default=60.0, help="CPU seconds per solve (ours; MAGPIE's -etlim)")
    ap.add_argument("--only", default="", help="id prefix filter (comma-separated prefixes)")
    ap.add_argument("--positions", default=str(ROOT / "benchmarks" / "positions" / "endgames.tsv"))
    ap.add_argument("--magpie", default=None, help="MAGPIE binary (built outside the repository)")
    ap.add_argument("--magpie-run", default=None, help="folder MAGPIE runs in (its data/ with our KWG in lexica/)")
    ap.add_argument("--magpie-lex", default="RDDEF", help="lexicon name in MAGPIE's data/lexica/")
    ap.add_argument("--tsv", default=None, help="also write the rows here (tab-separated)")
    ap.add_argument("--lexicon", default=None,
                    help="lexicon bundle (default: the default lexicon); beside MAGPIE it must be the one whose KWG "
                         "is MAGPIE's --magpie-lex (checked when both are given)")
    args = ap.parse_args(argv)
    if args.magpie and not args.magpie_run:
        print("error: --magpie needs --magpie-run", file=sys.stderr)
        return 2
    lex = load_lexicon(args.lexicon)
    if args.magpie:
        kwg = Path(args.magpie_run) / "data" / "lexica" / f"{args.magpie_lex}.kwg"
        ours = Path(lex.path) / "lexicon.kwg" if Path(lex.path).is_dir() else Path(lex.path)
        if not kwg.exists() or not ours.exists() or kwg.read_bytes() != ours.read_bytes():
            print(f"error: MAGPIE's {kwg} is not the KWG of our lexicon {lex.path} (give --lexicon)", file=sys.stderr)
            return 2
    rows = [tuple(ln.split("\t")) for ln in Path(args.positions).read_text(encoding="utf-8").splitlines()
            if ln.strip()]
    prefixes = [p for p in args.only.split(",") if p] or [""]
    rows = [r for r in rows if any(r[0].startswith(p) for p in prefixes)]
    solve(rows[0][2], lex, max_depth=2)  # kernels loaded before the first timed solve
    mp = Magpie(args.magpie, args.magpie_run, args.magpie_lex) if args.magpie else None
    head = "| position | racks | value | best move | depth | complete | nodes | CPU (s) |"
    sep = "|---|---|---:|---|---:|---|---:|---:|"
    if mp:
        head += " MAGPIE value | MAGPIE move | MAGPIE status (depth) | MAGPIE CPU (s) | ours / MAGPIE |"
        sep += "---:|---|---|---:|---:|"
    print(head)
    print(sep, flush=True)
    done = []
    for pid, cls, cgp in rows:
        r = solve(cgp, lex, time_limit=args.limit, clock="cpu")
        rec = {"pid": pid, "cls": cls, "value": r.value, "move": r.move, "depth": r.depth, "complete": r.complete,
               "nodes": r.nodes, "cpu": r.cpu_seconds}
        line = (f"| {pid} | {cls} | {r.value:+d} | {r.move} | {r.depth} | {'yes' if r.complete else 'no'} | "
                f"{r.nodes:,} | {r.cpu_seconds:.2f} |")
        if mp:
            m = mp.endgame(cgp, args.limit)
            rec.update({"m_value": m["value"], "m_move": m["move"], "m_status": m["status"], "m_depth": m["depth"],
                        "m_cpu": m["cpu"]})
            v = "" if m["value"] is None else f"{m['value']:+d}"
            line += (f" {v} | {m['move'] or m.get('error', '')} | {m['status']} ({m['depth']}) | {m['cpu']:.2f} | "
                     f"{r.cpu_seconds / max(m['cpu'], 1e-3):.2f} |")
        done.append(rec)
        print(line, flush=True)
    if mp:
        mp.close()
        both = [r for r in done if r["complete"] and _magpie_to_the_end(r)]
        print()
        for label, sel in (("all rows", done), ("6+ tiles a side", [r for r in done if _tiles(r["cls"]) >= 6]),
                           ("both solved to the end", both),
                           ("6+ tiles, both to the end", [r for r in both if _tiles(r["cls"]) >= 6])):
            print(_summary(sel, label))
        agree = [r for r in both if r["value"] == r["m_value"]]
        print(f"values equal on {len(agree)} of {len(both)} positions both solved to the end")
    solved7 = [r for r in done if _tiles(r["cls"]) >= 7]
    if solved7:
        print(f"7 tiles a side: {sum(r['complete'] for r in solved7)} of {len(solved7)} solved to the end within "
              f"{args.limit:g} CPU s; at most 10 CPU s: {sum(r['complete'] and r['cpu'] <= 10 for r in solved7)}")
    if args.tsv:
        keys = list(done[0])
        Path(args.tsv).write_text("\n".join(["\t".join(keys)] + ["\t".join(str(r.get(k)) for k in keys)
                                                                  for r in done]) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
