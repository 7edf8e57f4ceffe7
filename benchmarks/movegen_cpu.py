"""CPU per golden position of the move generator on one lexicon: all moves and the best move.

Run: ``GSE_AOT=0 python benchmarks/movegen_cpu.py LEXICON`` (a bundle; e.g. the golden list
built with ``--format kwg`` and with ``--format wide``), several times interleaved with
other trees (``PYTHONPATH=<tree>``). Prints ``ALL BEST``: ms of CPU per position
(43 positions of tests/data/positions.tsv, 3 passes, best of 5). Used for the
"Does the wide variant cost the normal KWG anything?" figures in benchmarks/README.md.
"""

import sys
import time
from pathlib import Path
from engine.movegen.generator import generate_moves, best_moves
from lexicon_tools.bundle import Lexicon
from engine.position.cgp import parse_cgp
lex = Lexicon.load(sys.argv[1])
cgps = [l.split("\t")[1] for l in open(Path(__file__).resolve().parent.parent / "tests" / "data" / "positions.tsv", encoding="utf-8") if l.strip()]
pos = [parse_cgp(c, allow_impossible=True) for c in cgps]
for p in pos:
    generate_moves(p.board, p.rack, lex); best_moves(p.board, p.rack, lex, 1)
def run(f):
    best = 1e9
    for _ in range(5):
        t = time.process_time()
        for _ in range(3):
            for p in pos:
                f(p)
        best = min(best, time.process_time() - t)
    return best / 3 / len(pos) * 1e3
a = run(lambda p: generate_moves(p.board, p.rack, lex))
b = run(lambda p: best_moves(p.board, p.rack, lex, 1))
print(f"{a:.3f} {b:.3f}")
