"""Issue 16 part 2: a 2-million-word list builds (wide graph) and plays. Slow; not part of any test run.

Steps, each a new process timed by ``/usr/bin/time`` (user + system CPU, peak RSS):

1. write the list: the packaged default list plus compounds of two of its 3..8-letter
   words (at most 15 letters), drawn with a fixed seed until there are ``--words`` words;
2. ``python -m lexicon_tools build LIST -o OUT.lex`` (format ``auto``: wide past 4,194,303 nodes);
3. load the bundle, generate all moves and the best move of the golden positions
   (``tests/data/positions.tsv``), and play ``--games`` kernel self-play games.

Run: ``python benchmarks/wide_lexicon.py --dir /tmp/w2m`` (about 3 GB of memory and several
minutes of CPU). Figures are in benchmarks/README.md "Word lists of any size".
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def make_list(path: Path, n_words: int, seed: int = 16) -> int:
    """Write ``n_words`` distinct words (default list + generated compounds); returns the count."""
    sys.path.insert(0, str(ROOT))
    from lexicon_tools.bundle import default_words_path, read_packaged_words

    base = sorted({w.upper() for w in read_packaged_words(default_words_path()) if w.isalpha() and 2 <= len(w) <= 15})
    words = set(base)
    parts = [w for w in base if 3 <= len(w) <= 8]
    rng = random.Random(seed)
    while len(words) < n_words:
        a, b = rng.choice(parts), rng.choice(parts)
        if len(a) + len(b) <= 15:
            words.add(a + b)
    tmp = path.with_suffix(".tmp")
    tmp.write_text("\n".join(sorted(words)) + "\n", encoding="utf-8")
    os.replace(tmp, path)
    return len(words)


def timed(cmd: list[str], env: dict) -> dict:
    """Run ``cmd`` under ``/usr/bin/time``; CPU seconds, peak RSS (MB), wall seconds and stdout."""
    t0 = time.perf_counter()
    r = subprocess.run(["/usr/bin/time", "-f", "%U %S %M"] + cmd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if r.returncode != 0:
        raise SystemExit(f"error: {' '.join(cmd)} failed ({r.returncode}): {r.stderr.strip()[-2000:]}")
    user, sys_, rss = r.stderr.strip().splitlines()[-1].split()
    return {"cpu_s": round(float(user) + float(sys_), 2), "peak_rss_mb": round(int(rss) / 1024),
            "wall_s": round(wall, 1), "stdout": r.stdout}


PLAY = r"""
import json, sys, time
from engine.position.cgp import parse_cgp
from engine.game.kernel_game import play_kernel_game
from engine.movegen.generator import best_moves, generate_moves
from lexicon_tools.bundle import Lexicon
t = time.process_time()
lex = Lexicon.load(sys.argv[1])
load_s = time.process_time() - t
cgps = [l.split("\t")[1] for l in open(sys.argv[2], encoding="utf-8") if l.strip()]
pos = [parse_cgp(c, allow_impossible=True) for c in cgps]
t = time.process_time()
generate_moves(pos[0].board, pos[0].rack, lex); best_moves(pos[0].board, pos[0].rack, lex, 1)
play_kernel_game(lex, 1, 2)
first_s = time.process_time() - t
t = time.process_time()
n_moves = sum(len(generate_moves(p.board, p.rack, lex)) for p in pos)
all_ms = (time.process_time() - t) / len(pos) * 1e3
t = time.process_time()
for p in pos:
    best_moves(p.board, p.rack, lex, 1)
best_ms = (time.process_time() - t) / len(pos) * 1e3
t = time.process_time()
games = [play_kernel_game(lex, 1000 + i, 2) for i in range(int(sys.argv[3]))]
game_s = (time.process_time() - t) / len(games)
print(json.dumps({"layout": lex.layout, "words": lex.word_count, "nodes": int(lex.graph.shape[0]),
                  "load_cpu_s": round(load_s, 3), "first_calls_cpu_s": round(first_s, 1),
                  "positions": len(pos), "moves": n_moves, "all_moves_ms_per_position": round(all_ms, 3),
                  "best_move_ms_per_position": round(best_ms, 3), "games": len(games),
                  "cpu_s_per_game": round(game_s, 3), "turns": [len(g.turns()) for g in games],
                  "scores": [list(map(int, g.scores)) for g in games]}))
"""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", required=True, type=Path, help="work directory (list, bundle)")
    ap.add_argument("--words", type=int, default=2_000_000, help="list size (default 2,000,000)")
    ap.add_argument("--games", type=int, default=20, help="kernel self-play games (default 20)")
    args = ap.parse_args(argv)
    args.dir.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, PYTHONPATH=str(ROOT), GSE_AOT="0")
    lst = args.dir / f"words{args.words}.txt"
    if not lst.exists():
        print(f"writing {lst}: {make_list(lst, args.words):,} words", flush=True)
    out = args.dir / f"w{args.words}.lex"
    build = timed([sys.executable, "-m", "lexicon_tools", "build", str(lst), "-o", str(out), "-q"], env)
    print("build:", json.dumps({k: v for k, v in build.items() if k != "stdout"}), flush=True)
    print(build["stdout"], flush=True)
    play = timed([sys.executable, "-c", PLAY, str(out), str(ROOT / "tests" / "data" / "positions.tsv"),
                  str(args.games)], env)
    print("load + play:", json.dumps({k: v for k, v in play.items() if k != "stdout"}), flush=True)
    print(play["stdout"], flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
