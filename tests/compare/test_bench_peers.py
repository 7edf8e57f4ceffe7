"""The side-by-side benchmark driver's bookkeeping (benchmarks/bench_peers.py): tables
worked out by hand from made-up per-position medians, the TSV reader, and the
harness protocol against a fake peer. No timing is asserted."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("bench_peers", ROOT / "benchmarks" / "bench_peers.py")
bp = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bp)


def _row(pid, cls, **ms):
    r = {"id": pid, "class": cls, "refused": ""}
    for k, _ in bp.MOVEGEN_COLS:
        r[k] = ms.get(k)
    return r


ROWS = [
    _row("a1", "a", ours_all=2.0, wolges_all=1.0, magpie_all=4.0, ours_best=0.5),
    _row("a2", "a", ours_all=1.0, wolges_all=2.0, magpie_all=1.0, ours_best=0.4),
    _row("b1", "b", ours_all=3.0, magpie_all=1.5, ours_best=0.2),  # wolges refused it
]


def _line(table: str, cls: str) -> list[str]:
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[0] == cls:
            return cells
    raise AssertionError(f"no row {cls}")


def test_all_moves_table_by_hand():
    t = bp.class_tables(ROWS).split("### Best move")[0]
    # columns: class n ours wolges magpie magpie_gen ours/wolges ours/magpie sum-ratio slower-w slower-m
    a = _line(t, "a")
    assert a[:4] == ["a", "2", "1.500", "1.500"]
    assert a[6] == "1.25"          # median of 2/1 and 1/2
    assert a[7] == "0.75"          # median of 2/4 and 1/1
    assert a[8] == "1.00"          # (2+1) / (1+2)
    assert a[9] == "1 of 2" and a[10] == "0 of 2"  # a2 ties MAGPIE: not slower
    b = _line(t, "b")
    assert b[3] == "" and b[6] == "" and b[9] == ""  # no wolges figure
    assert b[7] == "2.00" and b[10] == "1 of 1"
    tot = _line(t, "**all**")
    assert tot[1] == "3" and tot[2] == "2.000" and tot[6] == "1.25"


def test_best_table_counts_the_quarter_target():
    t = bp.class_tables(ROWS).split("### Best move")[1]
    a = _line(t, "a")
    assert a[2] == "0.450"         # median of 0.5 and 0.4
    assert a[6] == "0.35"          # median of 0.5/1 and 0.4/2
    assert a[10] == "1 of 2"       # 0.5 > 0.25 × 1.0; 0.4 <= 0.25 × 2.0


def test_read_rows(tmp_path):
    p = tmp_path / "peers-positions.tsv"
    p.write_text("id\tclass\tmoves_ours\tours_all_ms\twolges_all_ms\n"
                 "x\tend\t12\t0.5000\t\n", encoding="utf-8")
    assert bp.read_rows(p) == [{"id": "x", "class": "end", "moves_ours": 12, "ours_all": 0.5, "wolges_all": None}]


FAKE = r'''
import sys
print("ready", flush=True)
for line in sys.stdin:
    op, reps, arg = line.rstrip("\n").split("\t", 2)
    if arg == "bad":
        print("err\tno such position", flush=True)
    else:
        print("ok\t%d\t%s" % (len(arg), ",".join(["1000"] * int(reps))), flush=True)
'''


def test_harness_protocol_and_refused_positions(tmp_path):
    f = tmp_path / "fake.py"
    f.write_text(FAKE, encoding="utf-8")
    h = bp.Harness("fake", [sys.executable, str(f)], expect_ready=True)
    try:
        assert h.ask("all", 3, "abcd") == ["4", "1000,1000,1000"]
        with pytest.raises(bp.PositionRefused, match="no such position"):
            h.ask("all", 1, "bad")
        assert h.ask("best", 1, "xy") == ["2", "1000"]  # still usable after a refusal
    finally:
        h.close()
    assert h.proc.returncode == 0
