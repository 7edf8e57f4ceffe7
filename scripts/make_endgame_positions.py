"""Make the endgame benchmark positions (benchmarks/positions/endgames.tsv), deterministically.

Plays self-play games between static best-score players (engine.game.selfplay,
seeds 0, 1, 2, ... of run seed 13) on the default lexicon and keeps, for each
class ``k+k`` (k = 2..7 tiles on each rack), the first ``--per-class``
positions in which the bag is empty and both racks hold exactly k tiles.
Each line: ``id<TAB>class<TAB>cgp`` (the CGP with both racks, ``bag 0;``).

    python scripts/make_endgame_positions.py [--per-class 3] [--out benchmarks/positions/endgames.tsv]
    python scripts/make_endgame_positions.py --small [--out tests/data/endgames_small.tsv]
    python scripts/make_endgame_positions.py --pre [--out benchmarks/positions/preendgames.tsv]

``--small`` keeps tiny endgames for the tests instead, on the tests' golden
word list (tests/data/golden_words.txt.xz): two each of racks 1+1, 2+1 and
1+2, and two "stuck" positions, where neither player can place a tile and
the game ends by passes. The tests also use e22_0, e22_1 and e33_1 of the
benchmark set (appended by hand).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from lexicon_tools.bundle import load_lexicon  # noqa: E402

from engine.game.game import Game  # noqa: E402
from engine.movegen.generator import best_moves  # noqa: E402
from engine.game.selfplay import game_seed  # noqa: E402


def harvest(lexicon, per_class: int, max_games: int = 5000) -> dict[int, list[str]]:
    found: dict[int, list[str]] = {k: [] for k in range(2, 8)}
    for i in range(max_games):
        if all(len(v) >= per_class for v in found.values()):
            break
        g = Game(2, lexicon, seed=game_seed(13, i), keep_undo=False)
        while not g.over:
            if len(g.bag) == 0:
                a, b = (int(r.sum()) for r in g.racks)
                if a == b and a in found and len(found[a]) < per_class:
                    found[a].append(g.position().to_cgp())
            moves = best_moves(g.board, g.racks[g.to_move], lexicon, 1, g.checks)
            if moves:
                g.play_generated(moves[0])
            elif len(g.bag) >= 7:
                g.exchange_all()
            else:
                g.pass_turn()
    return found


def harvest_small(lexicon, per_class: int = 2, max_games: int = 5000) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {"1+1": [], "2+1": [], "1+2": [], "stuck": []}
    for i in range(max_games):
        if all(len(v) >= per_class for v in found.values()):
            break
        g = Game(2, lexicon, seed=game_seed(13, i), keep_undo=False)
        while not g.over:
            moves = best_moves(g.board, g.racks[g.to_move], lexicon, 1, g.checks)
            if len(g.bag) == 0:
                a, b = (int(r.sum()) for r in g.racks)
                cls = f"{a}+{b}"
                if not moves and g.consecutive_passes == 0:
                    other = best_moves(g.board, g.racks[1 - g.to_move], lexicon, 1, g.checks)
                    if not other and a + b <= 6:
                        cls = "stuck"
                if cls in found and len(found[cls]) < per_class:
                    found[cls].append(g.position().to_cgp())
            if moves:
                g.play_generated(moves[0])
            elif len(g.bag) >= 7:
                g.exchange_all()
            else:
                g.pass_turn()
    return found


def harvest_pre(lexicon, count: int = 4, max_games: int = 200) -> list[str]:
    """Pre-endgames: the first position of a game with 1 or 2 tiles in the bag (opponent's rack unknown)."""
    from dataclasses import replace

    found = []
    for i in range(max_games):
        if len(found) >= count:
            break
        g = Game(2, lexicon, seed=game_seed(13, i), keep_undo=False)
        while not g.over:
            if 1 <= len(g.bag) <= 2:
                found.append(replace(g.position(), opponent_rack=None).to_cgp())
                break
            moves = best_moves(g.board, g.racks[g.to_move], lexicon, 1, g.checks)
            if moves:
                g.play_generated(moves[0])
            elif len(g.bag) >= 7:
                g.exchange_all()
            else:
                g.pass_turn()
    return found


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-class", type=int, default=3)
    ap.add_argument("--small", action="store_true", help="tiny endgames for the tests")
    ap.add_argument("--pre", action="store_true", help="pre-endgames (1-2 tiles in the bag) for the benchmark")
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    lines = []
    if args.small:
        import lzma
        from lexicon_tools.bundle import build_bundle

        with lzma.open(ROOT / "tests" / "data" / "golden_words.txt.xz", "rt", encoding="utf-8") as f:
            words = f.read().split()
        tmpdir = tempfile.mkdtemp()
        lex = build_bundle(words, Path(tmpdir) / "golden.lex", source_name="golden_words.txt")
        args.out = args.out or str(ROOT / "tests" / "data" / "endgames_small.tsv")
        for cls, cgps in harvest_small(lex).items():
            for j, cgp in enumerate(cgps):
                lines.append(f"s{cls.replace('+', '')}_{j}\t{cls}\t{cgp}")
    elif args.pre:
        lex = load_lexicon(None)
        args.out = args.out or str(ROOT / "benchmarks" / "positions" / "preendgames.tsv")
        for j, cgp in enumerate(harvest_pre(lex)):
            lines.append(f"p{j}\tbag {cgp.rsplit('bag ', 1)[1].rstrip(';')}\t{cgp}")
    else:
        lex = load_lexicon(None)
        args.out = args.out or str(ROOT / "benchmarks" / "positions" / "endgames.tsv")
        found = harvest(lex, args.per_class)
        for k in sorted(found):
            for j, cgp in enumerate(found[k]):
                lines.append(f"e{k}{k}_{j}\t{k}+{k}\t{cgp}")
    out = Path(args.out)
    fd, tmp = tempfile.mkstemp(dir=out.parent, prefix=".endgames.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, out)
    except BaseException:
        os.unlink(tmp)
        raise
    print(f"{len(lines)} positions -> {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
