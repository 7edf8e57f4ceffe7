"""The lexicon build beside wolges' ``buildlex``, interleaved: CPU time and peak memory of each whole process.

Run (wolges built from its public source outside the repository, e.g. ``/tmp/peers/wolges``)::

    python benchmarks/lexicon_vs_wolges.py WORDLIST --buildlex /tmp/peers/wolges/target/release/buildlex \\
        [--rounds 5] [--old DIR]

Each round runs, in this order: ``buildlex german-kwg WORDLIST out.kwg``; ``python -m lexicon_tools build
WORDLIST -o out.lex -q`` (the default: verification on, kernels compiled ahead of time); the same with
``--no-verify``; the same with ``GSE_AOT=0`` (Numba JIT kernels from Numba's cache); with ``--old DIR``, the
builder of another checkout (``PYTHONPATH=DIR``). One untimed round first warms every cache (and compiles
the ahead-of-time module if it is missing). CPU is user + system time and peak memory ``ru_maxrss`` of the
child, from ``os.wait4``. Prints a markdown table of the medians and ranges, the ratios to wolges, and
whether every bundle's graph has the same bytes. Figures in benchmarks/README.md "Lexicon build".
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(cmd: list[str], env: dict, cwd: Path) -> tuple[float, float, float]:
    """(CPU seconds, peak RSS MB, wall seconds) of one child process; raises on a non-zero exit."""
    t = time.perf_counter()
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=cwd)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    p.returncode = os.waitstatus_to_exitcode(status)
    err = p.stderr.read().decode(errors="replace")
    p.stderr.close()
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)}: exit {p.returncode}\n{err}")
    return ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024, wall


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("wordlist")
    ap.add_argument("--buildlex", required=True, help="wolges' buildlex binary")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--old", help="another checkout whose builder to time as well")
    args = ap.parse_args()
    out = Path(tempfile.mkdtemp(prefix="lexbench-"))
    base = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "GSE_AOT")}
    py = [sys.executable, "-m", "lexicon_tools", "build", args.wordlist, "-q"]
    runs = {
        "wolges `buildlex german-kwg`": ([args.buildlex, "german-kwg", args.wordlist, str(out / "w.kwg")], base),
        "ours (`build`, verification on)": (py + ["-o", str(out / "new.lex")], {**base, "PYTHONPATH": str(ROOT)}),
        "ours, `--no-verify`": (py + ["-o", str(out / "nv.lex"), "--no-verify"], {**base, "PYTHONPATH": str(ROOT)}),
        "ours, `GSE_AOT=0` (Numba JIT)": (py + ["-o", str(out / "jit.lex")],
                                          {**base, "PYTHONPATH": str(ROOT), "GSE_AOT": "0"}),
    }
    if args.old:
        runs[f"ours at {Path(args.old).name}"] = (py + ["-o", str(out / "old.lex")], {**base, "PYTHONPATH": args.old})
    for cmd, env in runs.values():  # warm-up (and the ahead-of-time compilation, once)
        subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=out, check=True)
    res: dict[str, list[tuple[float, float, float]]] = {k: [] for k in runs}
    print(f"load average before: {os.getloadavg()}", file=sys.stderr)
    for r in range(args.rounds):
        for name, (cmd, env) in runs.items():
            res[name].append(_run(cmd, env, out))  # not the checkout: `-m` puts the working directory first
        print(f"round {r + 1} done", file=sys.stderr)
    print(f"load average after: {os.getloadavg()}", file=sys.stderr)
    w_cpu = statistics.median(x[0] for x in res[next(iter(runs))])
    w_mem = statistics.median(x[1] for x in res[next(iter(runs))])
    print(f"| what (whole process) | CPU user + sys, {args.rounds} runs | median | vs wolges | peak RSS | vs wolges "
          f"| wall |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, xs in res.items():
        cpu = [x[0] for x in xs]
        mem = [x[1] for x in xs]
        wall = [x[2] for x in xs]
        print(f"| {name} | {min(cpu):.2f}–{max(cpu):.2f} s | {statistics.median(cpu):.2f} s "
              f"| {statistics.median(cpu) / w_cpu:.2f} × | {min(mem):.0f}–{max(mem):.0f} MB "
              f"| {statistics.median(mem) / w_mem:.2f} × | {min(wall):.1f}–{max(wall):.1f} s |")
    v = statistics.median(x[0] for x in res["ours (`build`, verification on)"])
    nv = statistics.median(x[0] for x in res["ours, `--no-verify`"])
    print(f"\nverification: {v - nv:.2f} s, {100 * (v - nv) / v:.0f} % of the build")
    shas = {f.name: hashlib.sha256(f.read_bytes()).hexdigest()[:16] for f in [out / "w.kwg"]}
    shas.update({f.parent.name: hashlib.sha256(f.read_bytes()).hexdigest()[:16]
                 for f in sorted(out.glob("*.lex/lexicon.kwg"))})
    print("graph SHA-256 (first 16 hex digits) of each bundle:", shas)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
