"""CPU seconds of a fresh ``python -m engine best|moves|score`` process (warm caches).

Run from the repository root: ``python benchmarks/startup.py [--runs N]``. Each
command runs once to warm the caches (lexicon, Numba, the ahead-of-time kernels
of ``engine/movegen/_aot.py``), then ``N`` times; the CPU time (user + system) of each
child process comes from ``resource.getrusage(RUSAGE_CHILDREN)``. Prints the
median and the range per command, with ``GSE_AOT`` as set and with ``GSE_AOT=0``
(JIT kernels). The figure of issue 12 part 4 is ``best`` (target ≤ 0.3 s; issue 27: ≤ 0.15 s).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys

README_CGP = ("15/15/15/15/15/15/4H3F6/3WALZER6/4U1U1E6/4S1G1U6/8N6/5KIND6/5Ü9/5H9/5L9 AEINRST/ 0/0 0 "
              "lex NGERMAN; bag 66;")
COMMANDS = {
    "best": ["best", "--cgp", README_CGP],
    "moves": ["moves", "--cgp", README_CGP],
    "score": ["score", "--cgp", README_CGP, "13I SANIERT"],
}


def cpu_of(argv: list[str], env: dict) -> float:
    """CPU seconds (user + system) of one child process running ``python -m engine argv``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "engine", *argv], env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=15)
    args = p.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}; {args.runs} runs per command after one warm-up")
    for label, extra in (("default", {}), ("GSE_AOT=0", {"GSE_AOT": "0"})):
        env = {**os.environ, **extra}
        for name, argv in COMMANDS.items():
            cpu_of(argv, env)  # warm-up (may build caches)
            t = [cpu_of(argv, env) for _ in range(args.runs)]
            print(f"{label:<10} {name:<6} median {statistics.median(t):.3f} s CPU "
                  f"(min {min(t):.3f}, max {max(t):.3f})")


if __name__ == "__main__":
    main()
