"""Make the benchmark position set: benchmarks/positions/positions.tsv.

    .venv/bin/python scripts/make_benchmark_positions.py [--seed 2026] [--games 60]

The set holds the 43 golden positions (ids ``g_<id>``, computed on the golden
word list) plus positions reached by deterministic self-play on the default
lexicon (ids ``sp<game>_<turn>_<class>_b<blanks>``): static best-score players
(:func:`engine.game.selfplay.play_game`), game ``i`` seeded with
:func:`engine.game.selfplay.game_seed` ``(seed, i)``. From every game the position
before each turn is a candidate; candidates are taken in a fixed order until
each class quota is met, so the same seed always gives the same file.

Classes (tiles on the board / tiles in the bag):

* ``empty``  — empty board (the opening rack),
* ``early``  — 1..20 tiles on the board,
* ``middle`` — 21..60 tiles and the bag holds ≥ 7,
* ``late``   — more than 60 tiles and the bag holds ≥ 7,
* ``end``    — the bag holds fewer than 7 tiles (near-full board, short racks).

Within a class, positions whose rack holds one or two blanks are taken first
(up to a third of the quota each), so blank racks are well represented. Static
players spend blanks quickly, so racks with two blanks are rare in self-play:
where a class lacks them, variants of blank-free positions are added with the
rack's two highest-coded tiles replaced by blanks (ids ending ``_v``; only
where no blank is on the board or the other rack).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "benchmarks" / "positions" / "positions.tsv"
QUOTA = {"empty": 20, "early": 45, "middle": 55, "late": 40, "end": 45}


def classify(board_tiles: int, bag: int) -> str:
    """Position class from tiles on the board and tiles in the bag (see module docstring)."""
    if board_tiles == 0:
        return "empty"
    if bag < 7:
        return "end"
    if board_tiles <= 20:
        return "early"
    if board_tiles <= 60:
        return "middle"
    return "late"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--games", type=int, default=120)
    ap.add_argument("-o", "--out", default=str(OUT))
    args = ap.parse_args()

    from tqdm import tqdm

    import numpy as np

    from engine.position.cgp import parse_cgp
    from engine.game.selfplay import game_seed, play_game
    from lexicon_tools.bundle import load_lexicon

    lex = load_lexicon(None, progress=lambda m: print(f"note: {m}", file=sys.stderr))
    buckets: dict[tuple[str, int], list[tuple[str, str]]] = {}
    for i in tqdm(range(args.games), desc="self-play", unit="game"):
        g = play_game(lex, game_seed(args.seed, i), lexicon_name="DEFAULT")
        rec = g.record()
        for k in range(len(rec.moves)):
            pos = rec.position(k)
            if pos.rack.sum() == 0:
                continue
            cls = classify(pos.board.tile_count, pos.bag_count)
            blanks = int(pos.rack[0])
            buckets.setdefault((cls, blanks), []).append((f"sp{i:03d}_{k:02d}_{cls}_b{blanks}", pos.to_cgp()))
    for cls in QUOTA:
        have = len(buckets.get((cls, 2), []))
        need = QUOTA[cls] // 3 - have
        for pid, cgp in buckets.get((cls, 0), [])[1::3]:
            if need <= 0:
                break
            pos = parse_cgp(cgp)
            opp_blanks = int(pos.opponent_rack[0]) if pos.opponent_rack is not None else 0
            if pos.board.blanks.any() or opp_blanks or pos.rack.sum() < 2:
                continue
            rack = pos.rack.copy()
            for _ in range(2):
                top = int(np.nonzero(rack)[0].max())
                rack[top] -= 1
                rack[0] += 1
            pos.rack = rack
            buckets.setdefault((cls, 2), []).append((pid.replace("_b0", "_b2") + "_v", pos.to_cgp()))
            need -= 1
    chosen: list[tuple[str, str]] = []
    for cls, quota in QUOTA.items():
        picked: list[tuple[str, str]] = []
        for blanks in (2, 1):
            picked += buckets.get((cls, blanks), [])[: quota // 3]
        rest = buckets.get((cls, 0), [])
        # spread the blank-free picks over the games: every n-th candidate
        need = quota - len(picked)
        if need > 0 and rest:
            step = max(1, len(rest) // need)
            picked += rest[::step][:need]
        if len(picked) < quota:
            print(f"warning: class {cls}: only {len(picked)} of {quota} positions", file=sys.stderr)
        chosen += picked
    golden = (ROOT / "tests" / "data" / "positions.tsv").read_text(encoding="utf-8").splitlines()
    lines = [f"g_{ln}" for ln in golden if ln.strip()] + [f"{pid}\t{cgp}" for pid, cgp in chosen]
    Path(args.out).write_text("\n".join(lines) + "\n", encoding="utf-8")
    counts: dict[str, int] = {}
    for pid, _ in chosen:
        key = pid.split("_")[2] + "/" + pid.split("_")[3]
        counts[key] = counts.get(key, 0) + 1
    print(f"wrote {len(lines)} positions to {args.out}: 43 golden + {len(chosen)} self-play "
          + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
