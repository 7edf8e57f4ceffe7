"""Simulation time well spent: the successive-elimination rule, the self-play win table, analyze's simulation.

The elimination rule's error level is checked by Monte Carlo on synthetic
normal arms (no engine involved); its threshold against the normal tail
computed with math.erfc; the win table's fit against data drawn from a known
logistic curve; the table script's reproducibility by seed.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from engine.cli.main import main
from engine.analysis.simulation import DEFAULT_WIN_MODEL, WinTable, eliminated, elimination_z
from test_simulation import MIDGAME


def _tail(z: float) -> float:
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def test_elimination_z_is_the_union_bound_level():
    # 5 candidates, checks at 100, 150, ..., 1000: 19 checks, 4 rivals of the best
    z = elimination_z(5, 1000, 50, 100, 0.05)
    assert _tail(z) == pytest.approx(0.05 / (4 * 19), rel=1e-9)
    # one check, one rival: the plain one-sided 95 % quantile
    assert elimination_z(2, 100, 50, 100, 0.05) == pytest.approx(1.6448536269514722, rel=1e-12)


def test_the_phase_iteration_budget_comes_from_the_time_budget():
    """practice/web simulate with an iteration budget from their seconds, so the union bound counts
    the checks that budget allows (not 100,000 iterations' worth: 1,999 checks, a far stricter z)."""
    from engine.analysis.phase import SIM_RATE, sim_iterations

    assert SIM_RATE == 3000.0
    assert sim_iterations(5.0, 6) == 7500          # 5 s × 3,000 per s for the last two candidates
    assert sim_iterations(5.0, 1) == 15_000        # one candidate gets it all
    assert sim_iterations(0.01, 6) == 200 and sim_iterations(600.0, 1) == 20_000   # the floor and the cap
    # 6 candidates, 7,500 iterations: checks at 100, 150, ..., 7,500 (149), 5 rivals
    z = elimination_z(6, sim_iterations(5.0, 6), 50, 100, 0.05)
    assert _tail(z) == pytest.approx(0.05 / (5 * 149), rel=1e-9)
    assert z < elimination_z(6, 100_000, 50, 100, 0.05)


def test_eliminated_on_constructed_samples():
    base = np.array([10.0, 12.0, 8.0, 10.0])
    values = np.stack([base, base - np.array([1.0, 3.0, 1.0, 3.0]), base - 3.0, base + np.array([1, -1, 1, -1])])
    # candidate 1: d = 1, 3, 1, 3 -> mean 2, sd sqrt(4/3), se 0.57735: dropped iff z < 2 / 0.57735 = 3.4641
    assert eliminated([0, 1], values, 4, 3.4) == [1]
    assert eliminated([0, 1], values, 4, 3.5) == []
    # candidate 2: always 3 behind (sd 0): dropped at any z; candidate 3 ties the leader on average: kept
    assert eliminated([0, 1, 2, 3], values, 4, 10.0) == [2]
    assert eliminated([0, 1], values, 1, 0.1) == []  # one iteration: no test


def _run(rng, means, sd, budget, batch, min_it, error):
    k = len(means)
    x = rng.normal(np.asarray(means)[:, None], sd, size=(k, budget))
    z = elimination_z(k, budget, batch, min_it, error)
    active = list(range(k))
    dropped = set()
    for n in range(min_it, budget + 1, batch):
        for c in eliminated(active, x, n, z):
            dropped.add(c)
        active = [c for c in active if c not in dropped]
        if len(active) == 1:
            break
    return dropped


def test_elimination_keeps_the_best_at_the_stated_error_level():
    rng = np.random.default_rng(20261201)
    runs, error = 300, 0.05
    lost_best = 0
    dropped_worse = 0
    for _ in range(runs):
        # arms 0 and 1 are both best (equal means): arm 0 must survive with probability >= 1 - error
        d = _run(rng, [0.0, 0.0, -1.0, -2.0, -5.0], 10.0, 1000, 50, 100, error)
        lost_best += 0 in d
        dropped_worse += 4 in d
    bound = error + 3 * math.sqrt(error * (1 - error) / runs)
    assert lost_best / runs <= bound
    assert dropped_worse / runs >= 0.95  # 5 points behind at sd 10 is found within 1000 iterations


def test_packaged_win_table():
    t = DEFAULT_WIN_MODEL
    assert isinstance(t, WinTable)
    for tiles in (1, 7, 20, 60, 100):
        prev = -1.0
        for lead in range(-200, 201, 10):
            p = t.probability(lead, tiles, True)
            assert 0.0 <= p <= 1.0 and p >= prev - 1e-12  # never falls as the lead grows
            prev = p
            assert p + t.probability(-lead, tiles, False) == pytest.approx(1.0)
    assert t.probability(0, 100, True) > 0.5  # moving first is worth something
    assert t.probability(30, 10, True) > t.probability(30, 90, True)  # a lead counts more near the end
    assert t.probability(1, 0, False) == 1.0 and t.probability(0, 0, True) == 0.5
    from engine.analysis.simulation import WIN_TABLE_PATH

    meta = json.loads(WIN_TABLE_PATH.read_text(encoding="utf-8"))
    assert meta["games"] >= 1000 and "make_win_table.py" in meta["made_by"] and "seed" in meta
    assert sum(meta["counts"]) == meta["positions"]


def test_win_table_bad_file(tmp_path):
    p = tmp_path / "w.json"
    p.write_text('{"p": [[0.5, 1.5]], "lead_min": 0, "lead_step": 5}', encoding="utf-8")
    with pytest.raises(ValueError, match="values in 0..1"):
        WinTable.load(p)
    p.write_text("not json", encoding="utf-8")
    with pytest.raises(ValueError, match="not readable"):
        WinTable.load(p)


def test_logistic_fit_recovers_a_known_curve():
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location(
        "make_win_table", Path(__file__).resolve().parents[2] / "scripts" / "make_win_table.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    rng = np.random.default_rng(5)
    x = rng.uniform(-150, 150, 40_000)
    a, b = 0.3, 0.025
    y = (rng.random(x.shape[0]) < 1 / (1 + np.exp(-(a + b * x)))).astype(float)
    fa, fb = mod.fit_logistic(x, y, np.ones_like(x))
    assert fa == pytest.approx(a, abs=0.05) and fb == pytest.approx(b, rel=0.05)


def test_win_table_script_is_reproducible(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    outs = []
    for k in range(2):
        out = tmp_path / f"w{k}.json"
        r = subprocess.run([sys.executable, str(root / "scripts" / "make_win_table.py"), "--games", "12",
                            "--seed", "3", "--out", str(out), "--quiet"], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        outs.append(json.loads(out.read_text(encoding="utf-8")))
    assert outs[0]["p"] == outs[1]["p"] and outs[0]["positions"] == outs[1]["positions"] > 12 * 10
    r = subprocess.run([sys.executable, str(root / "scripts" / "make_win_table.py"), "--games", "3",
                        "--out", str(tmp_path / "x.json")], capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.strip().startswith("error:")


def test_analyze_simulates_with_tiles_in_the_bag(golden_lexicon, capsys):
    rc = main(["analyze", "--cgp", MIDGAME, "--lexicon", str(golden_lexicon.path), "--json", "--time", "2",
               "--top", "3", "--candidates", "3"])
    assert rc == 0
    out = json.loads(capsys.readouterr().out)
    sim = out["simulation"]
    static = {m["move"] for m in out["moves"]}
    assert {m["move"] for m in sim["moves"]} == static and len(static) == 3
    assert all(0.0 <= m["win"] <= 1.0 and m["iterations"] >= 50 for m in sim["moves"])  # at least one batch
    assert sim["stop_reason"] in ("one left", "time", "budget") and sim["error"] == 0.05
    first = sim["moves"][0]
    assert first["dropped_at"] is None
