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
    _row("a1", "a", ours_all=2.0, ours_kernel=1.6, wolges_all=1.0, magpie_all=4.0, ours_best=0.5,
         b2b_ours_all=1.0, b2b_wolges_all=1.0),
    _row("a2", "a", ours_all=1.0, ours_kernel=0.8, wolges_all=2.0, magpie_all=1.0, ours_best=0.55,
         b2b_ours_all=1.0, b2b_wolges_all=2.0),
    _row("b1", "b", ours_all=3.0, magpie_all=1.5, ours_best=0.2),  # wolges refused it
]


def _line(table: str, cls: str) -> list[str]:
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[0] == cls:
            return cells
    raise AssertionError(f"no row {cls}")


def _tables():
    t = bp.class_tables(ROWS)
    all_t, rest = t.split("### Best move")
    best_t, order_t = rest.split("### All moves: alternating against back-to-back order")
    return all_t, best_t, order_t


def test_all_moves_table_by_hand():
    t = _tables()[0]
    # class n ours kernel wolges magpie gen | ours/wolges kernel/wolges call/kernel ours/magpie sum wins-w wins-m
    a = _line(t, "a")
    assert a[:5] == ["a", "2", "1.500", "1.200", "1.500"]
    assert a[7] == "1.25"          # median of 2/1 and 1/2
    assert a[8] == "1.00"          # median of 1.6/1 and 0.8/2
    assert a[9] == "1.25"          # the call path: 2/1.6 and 1/0.8
    assert a[10] == "0.75"         # median of 2/4 and 1/1
    assert a[11] == "1.00"         # (2+1) / (1+2)
    assert a[12] == "1 / 1"        # a2 ours faster, a1 wolges faster
    assert a[13] == "1 / 0"        # a1 ours faster, a2 a tie (counted for neither)
    b = _line(t, "b")
    assert b[4] == "" and b[7] == "" and b[12] == ""  # no wolges figure
    assert b[10] == "2.00" and b[13] == "0 / 1"
    tot = _line(t, "**all**")
    assert tot[1] == "3" and tot[2] == "2.000" and tot[7] == "1.25"


def test_best_table_against_our_all_moves():
    t = _tables()[1]
    a = _line(t, "a")
    assert a[2] == "0.525"         # median of 0.5 and 0.55
    assert a[7] == "0.40"          # median of 0.5/2 and 0.55/1
    assert a[9] == ""              # no MAGPIE best-move figure


def test_order_table_puts_back_to_back_beside_alternating():
    t = _tables()[2]
    a = _line(t, "a")
    # class n ours wolges b2b-ours b2b-wolges | alt o/w, b2b o/w, alt o/m, b2b o/m, wins b2b
    assert a[6] == "1.25" and a[7] == "0.75"   # 1/1 and 1/2 back to back
    assert a[10] == "1 / 0"


def test_targets_report_the_median_ratio():
    got = {what: (v, ok) for what, v, ok in bp.targets(ROWS, {})}
    assert got["all moves: public call ≤ 1.10 × its kernel"] == ("1.25", "no")
    assert got["best by score ≤ 0.35 × our all moves"] == ("0.25", "yes")  # median of 0.25, 0.55, 0.2/3


def test_schedule_alternates_ours_and_a_peer():
    for have_w, have_m in ((True, True), (True, False), (False, True)):
        seq = bp._schedule(have_w, have_m)
        for order in (seq, seq[::-1]):
            engines = [e for e, _ in order]
            assert all((x == "ours") != (y == "ours") for x, y in zip(engines, engines[1:])), engines
        assert {k for e, k in seq if e == "ours"} == {"ours_all", "ours_kernel", "ours_best", "ours_besteq"}
    assert all(e == "ours" for e, _ in bp._schedule(False, False))


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
