"""Pre-endgames with one tile in the bag from static-equity self-play (benchmarks/positions/preendgames_1bag.tsv).

Plays games between two static equity players (:func:`engine.game.equity.choose`, the packaged
leave table) on the default lexicon, game ``i`` with bag seed ``game_seed(SEED, i)`` (SEED = 23 by
default), and keeps the first position of each game where the bag holds exactly one tile, the game
is not over and the mover's spread is within ``--max-spread`` points (a game still in the balance:
a position that is won or lost whatever the move says nothing about the pre-endgame). The
opponent's rack is left out of the CGP (the mover does not see it). Deterministic: the same
arguments give the same file.

Each line: ``id<TAB>spread<TAB>last move<TAB>cgp`` (``last move``: the opponent's move just before,
in notation, for the inference; ``-`` for a pass, ``-ABC`` for an exchange).

    python scripts/make_preendgame_positions.py [--count 24] [--seed 23] [--max-spread 60] [--out FILE]
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def harvest(lexicon, count: int, seed: int, max_spread: int, max_games: int = 2000) -> list[tuple]:
    """``[(id, spread, last move, cgp)]``: the first one-in-the-bag position of each game that qualifies."""
    from engine.game import Game
    from engine.game.equity import apply, choose
    from engine.game.selfplay import game_seed
    from engine.leaves import default_table

    table = default_table()
    found = []
    for i in range(max_games):
        if len(found) >= count:
            break
        g = Game(2, lexicon, seed=game_seed(seed, i), keep_undo=False)
        last = None
        while not g.over:
            if len(g.bag) == 1:
                pos = g.position()
                spread = int(pos.scores[0]) - int(pos.scores[1])
                if abs(spread) <= max_spread and last is not None:
                    found.append((f"q{i}", spread, last, replace(pos, opponent_rack=None).to_cgp()))
                break
            c = choose(g, table)
            last = c.notation
            apply(g, c)
    return found


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=24)
    ap.add_argument("--seed", type=int, default=23)
    ap.add_argument("--max-spread", type=int, default=60)
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "positions" / "preendgames_1bag.tsv"))
    args = ap.parse_args(argv)
    from lexicon_tools.bundle import load_lexicon

    rows = harvest(load_lexicon(None), args.count, args.seed, args.max_spread)
    from engine.analysis.leave_selfplay import atomic_write_text

    out = Path(args.out)
    atomic_write_text(out, "".join(f"{pid}\t{spread}\t{last}\t{cgp}\n" for pid, spread, last, cgp in rows))
    print(f"{len(rows)} positions -> {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
