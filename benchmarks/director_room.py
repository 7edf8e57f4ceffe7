"""How long a director's actions take in a big room: 200 players at 25 tables, default lexicon.

Usage (from the repository)::

    python -m benchmarks.director_room [--players 200] [--rounds 5]

Each round: the clock starts, every player's move is entered (``EventDir.submit``, one journal
entry with fsync each), one warning and one penalty are given, and the round is closed (the top
move, the scores, every export rewritten). Prints the seconds per round for each step. The event
lives in a temporary directory, removed at the end.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    from lexicon_tools.bundle import load_lexicon

    from engine.director.store import EventDir
    from engine.movegen.generator import generate_moves

    lex = load_lexicon(None)
    players = [f"Spieler {i:03d}" for i in range(1, args.players + 1)]
    root = Path(tempfile.mkdtemp())
    try:
        d = EventDir.create(root / "big", players, seed=2024, lexicon=lex, notes=None,
                            tables={p: i // 8 + 1 for i, p in enumerate(players)})
        print(f"{args.players} players; seconds per round: submits (all players), warn + penalty, close + exports")
        for rnd in range(1, args.rounds + 1):
            d.start()
            ev = d.load()
            moves = generate_moves(ev.board, ev.rack, lex).sorted()
            t0 = time.perf_counter()
            for i, p in enumerate(players):
                d.submit(p, moves[i % len(moves)].notation)
            t1 = time.perf_counter()
            d.warn(players[3])
            d.penalty(players[5], 3)
            t2 = time.perf_counter()
            d.close()
            t3 = time.perf_counter()
            print(f"round {rnd}: {t1 - t0:.2f}  {t2 - t1:.2f}  {t3 - t2:.2f}")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
