"""A match between two players on seat-swapped deal pairs: our named strengths, or MAGPIE's static player.

    python benchmarks/match.py --a full --b magpie-static [--seconds 1] [--pairs 300] [--seed 2026]
        [--start 0] [--out match.jsonl] [--magpie /tmp/peers/MAGPIE/bin/magpie]
        [--magpie-data /tmp/peers/magpie-gse-data]
    python benchmarks/match.py --summary match.jsonl

Players: ``static``, ``endgame``, ``sim``, ``full`` (:class:`engine.analysis.player.Player`, ``--seconds``
per move for the searching ones) and ``magpie-static`` (MAGPIE's static equity player, driven through
its command shell: one ``magpie`` process per decision, in a run folder of :mod:`magpie_shell` over
``--magpie-data``, which holds our default lexicon's KWG as ``RDDEF.kwg`` and our leave table as ``RDDEF.klv2``, /tmp/peers/HOWTO.md;
``cgp BOARD RACK/ SCORES 0`` then ``gen``, and its best move that is legal in our game: MAGPIE is told
the opponent's rack only when the bag is empty, as a player knows it then, so while the bag holds tiles
it counts the opponent's tiles as in the bag and may rank an exchange first that our game does not
allow with fewer than 7 tiles in the bag: the next move of its list is taken then). MAGPIE's code
is not part of this repository.

Deal pair ``i``: both games use the bag seed ``game_seed(seed, i)`` and seat 0 moves first, so seat 0
gets the same first rack; ``a`` sits in seat 0 in the first game and ``b`` in the second. One JSON
line per pair goes to ``--out`` (appended, so a run can be continued with ``--start``). The summary:
mean spread a game for ``a`` with a 95 % interval over pairs (the pair is the independent unit:
``1.96 × sd / sqrt(pairs)`` of the pair means), games won, mean CPU seconds per move of each side.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GEN_ROW = re.compile(r"\b\d+:\s+(pass|\(exch [^)]+\)|[0-9]{1,2}[A-O] \S+|[A-O][0-9]{1,2} \S+)\s+(?:\S+\s+)?-?\d+\s+-?[\d.]+\s*$")
"""A row of MAGPIE's ``gen`` table: rank, move, leave (may be empty), score, equity."""


class MagpieStatic:
    """MAGPIE's static equity player through its command shell (module doc)."""

    def __init__(self, binary: str, data: str, n: int = 8):
        from magpie_shell import run_dir

        self.binary, self.folder, self.n = binary, run_dir(data), n
        self.strength = "magpie-static"

    def choose(self, game):
        from engine.analysis.player import Decision
        from magpie_shell import run

        pos = game.position()
        a = game.alphabet
        board = pos.to_cgp().split()[0]
        mine = a.rack_string(game.racks[game.to_move])
        theirs = a.rack_string(game.racks[1 - game.to_move]) if len(game.bag) == 0 else ""
        me, opp = game.scores[game.to_move], game.scores[1 - game.to_move]
        out, cpu, _wall = run(self.binary, self.folder, [f"cgp {board} {mine}/{theirs} {me}/{opp} 0",
                                                         f"gen -numplays {self.n}"], 120)
        moves = [m.group(1) for m in map(GEN_ROW.search, out.splitlines()) if m]
        for mv in moves:
            if mv == "pass":
                return Decision("pass", how="magpie", seconds=cpu)
            if mv.startswith("(exch "):
                if len(game.bag) >= game.rules.min_bag_for_exchange:
                    return Decision("exchange", exchanged=mv[6:-1], how="magpie", seconds=cpu)
                continue
            return Decision("play", _move(game, mv), how="magpie", seconds=cpu)
        raise RuntimeError(f"MAGPIE gave no legal move: {out[-400:]!r}")


def _move(game, notation: str):
    from engine.analysis.player import _generated

    return _generated(game, notation)


def make_player(name: str, seconds: float, args, seed: int):
    if name == "magpie-static":
        return MagpieStatic(args.magpie, args.magpie_data)
    from engine.analysis.player import Player

    return Player(name, seconds, seed=seed)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", default="full")
    ap.add_argument("--b", default="magpie-static")
    ap.add_argument("--seconds", type=float, default=1.0, help="time per move of our searching players")
    ap.add_argument("--pairs", type=int, default=300)
    ap.add_argument("--start", type=int, default=0, help="first deal pair (to continue a run)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", default=None)
    ap.add_argument("--magpie", default="/tmp/peers/MAGPIE/bin/magpie")
    ap.add_argument("--magpie-data", default="/tmp/peers/magpie-gse-data")
    ap.add_argument("--summary", default=None, help="only summarize this JSON-lines file")
    args = ap.parse_args(argv)
    if args.summary:
        from engine.analysis.player import pair_summary as summarize

        rows = [json.loads(ln) for ln in open(args.summary, encoding="utf-8") if ln.strip()]
        print(json.dumps(summarize(rows), indent=1))
        return 0
    from lexicon_tools.bundle import load_lexicon
    from engine.analysis.player import pair_summary as summarize, play_pair
    from engine.game.selfplay import game_seed

    lex = load_lexicon(None)
    pa = make_player(args.a, args.seconds, args, 1)
    pb = make_player(args.b, args.seconds, args, 2)
    # untimed warm-up: one game of a against itself compiles every kernel (move generation, simulation,
    # pre-endgame, the endgame solver and its pruned word list)
    play_pair(lex, pa, pa, game_seed(args.seed, 10 ** 6))
    rows = []
    t0 = time.time()
    for i in range(args.start, args.start + args.pairs):
        r = play_pair(lex, pa, pb, game_seed(args.seed, i))
        r["pair"] = i
        rows.append(r)
        if args.out:
            with open(args.out, "a", encoding="utf-8") as f:
                f.write(json.dumps(r) + "\n")
        s = summarize(rows)
        print(f"pair {i}: {r['spreads']}  so far {s['pairs']} pairs, {args.a} - {args.b} {s['spread']:+.1f} "
              f"[{s['ci'][0]:+.1f}, {s['ci'][1]:+.1f}] a game, {time.time() - t0:.0f} s", file=sys.stderr, flush=True)
    print(json.dumps({"a": args.a, "b": args.b, "seconds": args.seconds, "seed": args.seed, **summarize(rows)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
