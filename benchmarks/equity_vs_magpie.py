"""Static equity near the end of the bag, ours beside MAGPIE's ``gen``: where and why they differ.

    python benchmarks/equity_vs_magpie.py [--endgames benchmarks/positions/endgames.tsv]
        [--pre benchmarks/positions/preendgames_1bag.tsv] [--magpie /tmp/peers/MAGPIE/bin/magpie]
        [--magpie-data /tmp/peers/magpie-gse-data]

For every position: MAGPIE's top move by its static equity (``cgp`` then ``gen``, our KWG and leave
table, :mod:`magpie_shell`) and ours (:func:`engine.game.equity.rank_moves`), and each side's equity
of the other's move. Bag empty (endgames.tsv, both racks known) MAGPIE is run twice: with the
opponent's rack in the CGP, and without it, as a CGP of the mover's view usually is: MAGPIE then
puts the unseen tiles in its bag, so it values the leave by the table instead of the end-of-game
rule. One tile in the bag (preendgames_1bag.tsv): MAGPIE adds the full leave value (its
``peg_adjust_values`` are all 0), we add ``scale(bag) × leave`` (the measured fade, 0.807 at 1 tile).
Prints one table row per position and the counts of equal top moves.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GEN = re.compile(r"\b\d+:\s+(pass|\(exch [^)]+\)|[0-9]{1,2}[A-O] \S+|[A-O][0-9]{1,2} \S+)\s+(?:\S+\s+)?(-?\d+)\s+(-?[\d.]+)\s*$")


def magpie_top(binary, folder, board, rack, opp, scores):
    from magpie_shell import run

    out, _cpu, _wall = run(binary, folder, [f"cgp {board} {rack}/{opp} {scores} 0", "gen -numplays 40"], 120)
    rows = [(m.group(1), int(m.group(2)), float(m.group(3))) for m in map(GEN.search, out.splitlines()) if m]
    return {"-" if mv == "pass" else mv: eq for mv, _s, eq in rows}, (rows[0][0] if rows else None)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--endgames", default=str(ROOT / "benchmarks" / "positions" / "endgames.tsv"))
    ap.add_argument("--pre", default=str(ROOT / "benchmarks" / "positions" / "preendgames_1bag.tsv"))
    ap.add_argument("--magpie", default="/tmp/peers/MAGPIE/bin/magpie")
    ap.add_argument("--magpie-data", default="/tmp/peers/magpie-gse-data")
    args = ap.parse_args(argv)
    from lexicon_tools.bundle import load_lexicon
    from magpie_shell import run_dir

    from engine.game.equity import out_bonus, rank_moves
    from engine.position.cgp import parse_cgp

    lex = load_lexicon(None)
    folder = run_dir(args.magpie_data)
    print("| set | id | bag | ours top (equity) | MAGPIE top, opponent's rack given (its equity; ours) | "
          "MAGPIE top, rack not given (its equity; ours) |")
    print("|---|---|---|---|---|---|")
    counts: dict = {}
    sets = [("endgame", ln.rstrip("\n").split("\t")[0], ln.rstrip("\n").split("\t")[-1])
            for ln in open(args.endgames, encoding="utf-8") if ln.strip()]
    sets += [("pre", ln.split("\t")[0], ln.rstrip("\n").split("\t")[3]) for ln in open(args.pre, encoding="utf-8")
             if ln.strip()]
    for kind, pid, cgp in sets:
        pos = parse_cgp(cgp)
        board, racks, scores = cgp.split()[:3]
        mine, _, theirs = racks.partition("/")
        bag = pos.bag_count if pos.bag_count is not None else max(0, int(pos.unseen().sum()) - 7)
        bonus = out_bonus(pos.board, pos.rack, pos.unseen()) if bag <= 0 else 0.0
        ours = {c.notation: c.equity for c in rank_moves(pos.board, pos.rack, lex, bag=bag, bonus=bonus)}
        top = max(ours, key=ours.get)
        cells = []
        for opp in ((theirs, "") if kind == "endgame" else ("",)):
            eqs, mtop = magpie_top(args.magpie, folder, board, mine, opp, scores)
            mtop = "-" if mtop == "pass" else mtop
            same = mtop == top or (mtop in ours and abs(ours[mtop] - ours[top]) < 1e-6)
            key = f"{kind}, opponent's rack {'given' if opp else 'not given'}"
            counts.setdefault(key, [0, 0])
            counts[key][0] += same
            counts[key][1] += 1
            o = ours.get(mtop)
            cells.append(f"{mtop} ({eqs.get(mtop, float('nan')):.1f}; {'-' if o is None else f'{o:.1f}'})"
                         f"{'' if same else ' **differs**'}")
        if kind == "pre":
            cells = ["(bag not empty: the same)", cells[0]]
        print(f"| {kind} | {pid} | {bag} | {top} ({ours[top]:.1f}) | {cells[0]} | {cells[1]} |", flush=True)
    print("\nsame top move (or one of equal equity by ours): "
          + "; ".join(f"{k}: {v[0]} of {v[1]}" for k, v in counts.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
