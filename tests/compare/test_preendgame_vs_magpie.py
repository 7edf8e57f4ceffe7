"""The pre-endgame comparison's bookkeeping (benchmarks/preendgame_vs_magpie.py): MAGPIE's ranking rows
as ``peg`` prints them, one position's comparison and the totals, worked out by hand from made-up
rankings. No engine and no MAGPIE run; no timing is asserted."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("preendgame_vs_magpie", ROOT / "benchmarks" / "preendgame_vs_magpie.py")
pv = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(pv)


def test_magpie_rows():
    # a completed table, a row with the fidelity column and time/outcome columns, passing, not evaluated
    assert pv.parse_row("   6  11F FA          8     0     0  100.0   +86.6  ") == ("11F FA", 1.0, 86.6)
    assert pv.parse_row("greedy    11  9E EMU          8     0     0  100.0   +82.1  0.0s  -") == ("9E EMU", 1.0, 82.1)
    assert pv.parse_row("2-ply   3  13C (S)AME  5  1  2  68.8  -3.5  1.2s  -") == ("13C (S)AME", 0.688, -3.5)
    assert pv.parse_row("  13  pass            8     0     0  100.0   +81.1  ") == ("-", 1.0, 81.1)
    assert pv.parse_row("  28  15G M(E)DEA     0     0     0  -100.0    +0.0  ") is None
    assert pv.parse_row("rank  move         wins  ties  loss    win%  spread  ") is None


def _ours(*moves, cpu=20.0):
    return {"cpu": cpu, "compiled": [], "moves": [{"move": m, "win": w, "spread": s, "exact": e, "exact_share": x}
                                                  for m, w, s, e, x in moves]}


def _magpie(*moves, cpu=19.0):
    return {"cpu": cpu, "wall": 60.0, "stage": "stage 2 partial",
            "moves": [{"move": m, "win": w, "spread": s} for m, w, s in moves]}


def test_a_position_compared():
    # ours ranks A first; MAGPIE ranks B first and gives A the same win %: agree by the rule
    r = pv.compare("x1", "12", _ours(("A", 0.75, 10.0, False, 0.5), ("B", 0.5, 3.0, True, 1.0)),
                   _magpie(("B", 0.625, 5.0), ("A", 0.625, 4.0)))
    assert r["agree"] and not r["decided"]
    assert r["ours_for_magpie_best"] == {"win": 0.5, "spread": 3.0, "exact": True}
    assert ("| x1 | +12 | A (75.0) | B (62.5, +5.0) | yes | 50.0 vs 62.5 (-12.5) | 75.0 vs 62.5 (+12.5) | 20.0 | 19.0 |"
            in pv.line(r))
    # MAGPIE's best is not among ours; every MAGPIE move loses: decided, and A is not in its table
    r2 = pv.compare("x2", "-30", _ours(("A", 0.0, -40.0, False, 0.0), cpu=21.0),
                    _magpie(("C", 0.0, -20.0), ("D", 0.0, -35.0), cpu=7.0))
    assert not r2["agree"] and r2["decided"] and r2["ours_for_magpie_best"] is None
    assert "– (not among ours) | – (not in MAGPIE's table)" in pv.line(r2)
    # the same best move
    r3 = pv.compare("x3", "0", _ours(("E", 0.5, 0.0, True, 1.0), cpu=5.0), _magpie(("E", 0.375, -2.0)))
    assert r3["agree"]
    err = {"id": "x4", "spread": 3, "error": "RuntimeError: MAGPIE failed"}
    t = pv.totals([r, r2, r3, err]).splitlines()
    assert t[0] == "positions: 4, compared: 3, errors: 1"
    assert t[1] == "agree: 2 of 3; undecided positions: 2 of 2"
    # |0.5 - 0.625| and |0.5 - 0.375| over the two positions where MAGPIE's best is among ours
    assert t[2].startswith("mean |Δ win %| for MAGPIE's best: 12.5 points over the 2 positions")
    # our best: |0.75 - 0.625| (x1) and |0.5 - 0.375| (x3); x2's A is not in MAGPIE's table
    assert t[2].endswith("for our best: 12.5 over the 2 where it is in MAGPIE's table (max 12.5)")
    assert t[3] == "CPU: ours 46.0 s, MAGPIE 45.0 s; faster: ours on 1, MAGPIE on 2"
    assert t[4].startswith("our best move exact: 1 of 3; top two exact: 1 of 3")
