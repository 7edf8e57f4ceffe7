"""Leave ranking (bijection over all multisets up to 6 tiles), KLV read/write, the shipped table, the fit."""

from __future__ import annotations

import importlib.util
import itertools
import json
import struct
from pathlib import Path

import numpy as np
import pytest

from engine.leaves import _kernels as K
from engine.leaves.table import (
    LeaveError,
    LeaveIndex,
    LeaveModel,
    LeaveTable,
    Observations,
    data_path,
    default_table,
    klv_bytes,
    leave_dawg,
    leave_index,
    read_klv,
    write_klv,
)
from lexicon_tools.alphabet import Alphabet, german

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def idx() -> LeaveIndex:
    return leave_index()


def _sorted_strings(cap: list[int], maxlen: int) -> list[tuple[int, ...]]:
    """All sorted tile tuples of 1..maxlen tiles within the caps, in prefix-first lexicographic order."""
    out = []
    for n in range(1, maxlen + 1):
        for combo in itertools.combinations_with_replacement(range(len(cap)), n):
            if all(combo.count(t) <= cap[t] for t in set(combo)):
                out.append(combo)
    out.sort()  # tuples: a prefix sorts before its extensions
    return out


# ---------------------------------------------------------------------------
# Ranking
# ---------------------------------------------------------------------------
def test_size_matches_the_german_set(idx):
    assert idx.size == 1_437_656
    assert np.bincount(idx.lengths, minlength=7)[1:].tolist() == [30, 454, 4625, 35707, 222983, 1173857]


def test_rank_is_a_bijection_over_all_leaves(idx):
    """Every leave of 1..6 tiles gets a distinct rank 0..N-1 and unranking gives it back."""
    tiles = idx.tiles
    assert tiles.shape == (idx.size, 6)
    ranks = _rank_all(tiles, idx.H, idx.cap)
    assert np.array_equal(ranks, np.arange(idx.size))
    # every row is a valid sorted multiset within the caps, and the rows are distinct
    t = tiles.astype(np.int64)
    valid = t != K.NO_TILE
    assert (np.diff(np.where(valid, t, 99), axis=1) >= 0).all()
    counts = np.zeros((idx.size, 30), dtype=np.int64)
    for k in range(6):
        ok = valid[:, k]
        np.add.at(counts, (np.nonzero(ok)[0], t[ok, k]), 1)
    assert (counts <= idx.cap).all()
    assert (counts.sum(axis=1) >= 1).all() and (counts.sum(axis=1) <= 6).all()
    assert len(np.unique(counts, axis=0)) == idx.size


def _rank_all(tiles, H, cap):
    from numba import njit

    @njit(cache=False)
    def run(tiles, H, cap):
        out = np.empty(tiles.shape[0], dtype=np.int64)
        c = np.zeros(cap.shape[0], dtype=np.int64)
        for i in range(tiles.shape[0]):
            c[:] = 0
            n = 0
            while n < 6 and tiles[i, n] != 255:
                c[tiles[i, n]] += 1
                n += 1
            r1 = K.rank_counts(c, H, cap)
            r2 = K.rank_tiles(tiles[i].astype(np.int64), n, H, cap)
            out[i] = r1 if r1 == r2 else -5
        return out

    return run(tiles, H, cap)


def test_rank_matches_brute_force_order_on_a_small_set(tmp_path):
    """A 4-tile-type set (blank ×2, A ×3, B ×1, C ×7): ranks equal positions in the sorted list."""
    spec = {"name": "tiny", "blank": {"value": 0, "count": 2},
            "letters": [["A", 1, 3], ["B", 3, 1], ["C", 4, 7]], "vowels": "A"}
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    a = Alphabet.load(path)
    ix = LeaveIndex(a)
    expect = _sorted_strings([2, 3, 1, 6], 6)
    assert ix.size == len(expect)
    for r, combo in enumerate(expect):
        counts = np.bincount(np.array(combo), minlength=4)
        assert ix.rank(counts) == r
        assert [int(x) for x in ix.tiles[r] if x != 255] == list(combo)


def test_rank_strings_and_errors(idx):
    assert idx.rank("?") == 0 and idx.string(0) == "?"
    assert idx.rank("??") == 1
    assert idx.string(idx.size - 1) == "Z"
    assert idx.rank("") == -1 and idx.string(-1) == ""
    rng = np.random.default_rng(5)
    bag = [c for c in range(30) for _ in range(int(german().counts[c]))]
    for _ in range(300):
        n = int(rng.integers(1, 7))
        pick = rng.choice(len(bag), n, replace=False)
        counts = np.bincount([bag[i] for i in pick], minlength=30).astype(np.int32)
        r = idx.rank(counts)
        assert np.array_equal(idx.unrank_counts(r), counts)
        assert idx.rank(german().rack_string(counts)) == r
    with pytest.raises(ValueError, match="not a leave"):
        idx.rank("ABCDEFG")
    with pytest.raises(ValueError, match="not a leave"):
        idx.rank("???")
    with pytest.raises(IndexError):
        idx.string(idx.size)


# ---------------------------------------------------------------------------
# KLV
# ---------------------------------------------------------------------------
def test_dawg_word_order_is_rank_order(idx):
    nodes = leave_dawg(idx)
    assert nodes[0] & 0x400000 and (nodes[0] >> 24) == 0  # root pointer: tile 0, is_end
    ranks, count, status = K.dawg_word_ranks(nodes, int(nodes[0] & 0x3FFFFF), idx.H, idx.cap, idx.size)
    assert status == 0 and count == idx.size
    assert np.array_equal(ranks, np.arange(idx.size))
    assert len(nodes) < 5000  # minimal: a few thousand nodes for 1.4 million leaves


@pytest.mark.parametrize("version", [1, 2])
def test_klv_round_trip(idx, tmp_path, version):
    vals = (np.random.default_rng(1).standard_normal(idx.size) * 10).astype(np.float32)
    p = write_klv(tmp_path / f"x.klv{version}", vals, version=version)
    data = p.read_bytes()
    n_nodes = struct.unpack_from("<I", data, 0)[0]
    n_leaves = struct.unpack_from("<I", data, 4 + 4 * n_nodes)[0]
    assert n_leaves == idx.size
    assert len(data) == 8 + 4 * n_nodes + (4 if version == 2 else 2) * idx.size
    back, info = read_klv(p)
    assert info == {"version": version, "words": idx.size, "missing": 0, "skipped": 0}
    if version == 2:
        assert np.array_equal(back, vals)
        assert isinstance(back, np.memmap)
    else:
        assert np.abs(back - vals).max() <= 1 / 512 + 1e-6


def test_klv_from_another_builder(idx, tmp_path):
    """A KLV whose DAWG is built by the lexicon builder (another node layout, a partial leave set,
    node 1 a GADDAG root): values land on the right leaves, missing ones are 0."""
    from lexicon_tools.kwg import build_kwg

    words = ["ER", "EN", "ERS", "AEINRS", "QU", "CH", "EEE", "ZZ"]  # ZZ: not a leave (one Z)
    nodes = build_kwg(words)
    order = sorted(words, key=lambda w: [german().code(c) for c in w])
    vals = np.arange(1, len(order) + 1, dtype=np.float32)
    data = (struct.pack("<I", len(nodes)) + nodes.astype("<u4").tobytes() + struct.pack("<I", len(order))
            + vals.astype("<f4").tobytes())
    p = tmp_path / "foreign.klv2"
    p.write_bytes(data)
    values, info = read_klv(p)
    assert info["words"] == len(words) and info["skipped"] == 1 and info["missing"] == idx.size - 7
    for w, v in zip(order, vals):
        if w != "ZZ":
            assert values[idx.rank(w)] == v
    assert values[idx.rank("Q")] == 0.0


def test_klv_errors(idx, tmp_path):
    vals = np.zeros(idx.size, dtype=np.float32)
    good = klv_bytes(vals)
    for name, data, msg in [
        ("short", good[:5], "not a KLV"),
        ("trunc", good[: len(good) - 1000], "truncated|bytes"),
        ("huge", struct.pack("<I", 10 ** 8) + good[4:], "truncated"),
    ]:
        p = tmp_path / name
        p.write_bytes(data)
        with pytest.raises(LeaveError, match=msg):
            read_klv(p)
    with pytest.raises(LeaveError, match="cannot read"):
        read_klv(tmp_path / "missing.klv2")
    with pytest.raises(LeaveError, match="leaves"):
        LeaveTable(idx, np.zeros(5, dtype=np.float32))


def test_table_save_load_with_metadata(idx, tmp_path):
    vals = np.linspace(-5, 5, idx.size).astype(np.float32)
    t = LeaveTable(idx, vals, {"games_total": 3, "equity": {"bag_ramp": 7.0}})
    p = t.save(tmp_path / "t.klv2")
    u = LeaveTable.load(p)
    assert u.meta["games_total"] == 3 and u.meta["klv"]["version"] == 2
    assert u.value("ER") == pytest.approx(float(vals[idx.rank("ER")]))
    assert u(idx.counts("ER").astype(np.int32)) == u.value("ER")
    assert u(np.zeros(30, dtype=np.int32)) == 0.0
    seven = idx.counts("AEINRST").astype(np.int32)
    assert u(seven) == 0.0  # not a leave: 0, as movegen's callable protocol needs


# ---------------------------------------------------------------------------
# The shipped table
# ---------------------------------------------------------------------------
def test_shipped_table_file_and_metadata():
    src = data_path()
    assert src.is_file(), "engine/data/leaves-german.klv2.xz is missing"
    assert src.stat().st_size <= 6_000_000
    meta = json.loads(src.with_name("leaves-german.json").read_text(encoding="utf-8"))
    assert meta["games_total"] == sum(meta["games_per_generation"]) > 0
    assert len(meta["generations"]) == len(meta["games_per_generation"])
    assert meta["leaves"] == 1_437_656
    assert {"bag_ramp", "bag_floor", "stuck_penalty"} <= set(meta["equity"])


def test_shipped_table_values(tmp_path, monkeypatch):
    monkeypatch.setenv("GSE_CACHE_DIR", str(tmp_path))
    from engine.leaves import table as L

    L._DEFAULT.clear()
    t = default_table()
    assert Path(t.path).parent == tmp_path
    assert t.values.shape == (1_437_656,) and np.isfinite(t.values).all()
    assert t.meta["games_total"] > 0 and t.meta["klv"]["missing"] == 0
    v = t.value
    assert v("?") > v("ER") > 0 > v("Q")
    assert v("ER") > v("Q") and v("ER") > v("X") and v("EEE") < v("E")
    assert v("QU") > v("Q") - 3 and v("??") > v("E")
    assert v("BCDFG") < -10
    # second call: from the cache, same object
    assert default_table() is t
    L._DEFAULT.clear()
    t2 = default_table()
    assert np.array_equal(t2.values, t.values)
    L._DEFAULT.clear()


# ---------------------------------------------------------------------------
# The fit
# ---------------------------------------------------------------------------
def test_model_recovers_a_synthetic_additive_truth(idx):
    """Observations from a known tile-value model plus noise: the fit finds it, the empty leave is 0."""
    rng = np.random.default_rng(0)
    truth_tile = rng.normal(0, 3, 30)
    truth_tile[0] = 12.0
    n = 200_000
    by_len = [np.nonzero(idx.lengths == k)[0] for k in range(1, 7)]
    lens = rng.integers(0, 6, n)
    ranks = np.array([by_len[k][i % len(by_len[k])] for k, i in zip(lens, rng.integers(0, 10 ** 9, n))])
    ranks[rng.random(n) < 0.1] = -1  # the empty leave (after bingos) anchors the intercept
    sel = idx.tiles[np.maximum(ranks, 0)]
    val = np.where(sel != 255, truth_tile[np.minimum(sel, 29)], 0).sum(axis=1)
    val[ranks < 0] = 0.0
    y = 30.0 + val + rng.normal(0, 10, n)
    model = LeaveModel(idx, pairs=False)
    hold = Observations.from_samples(ranks[: n // 10], y[: n // 10])
    train = Observations.from_samples(ranks[n // 10:], y[n // 10:])
    rep = model.fit(train, hold)
    assert abs(model.intercept - 30.0) < 1.0
    assert rep["holdout_r2"] > 0.2
    vals = model.table_values()
    for s in ["?", "E", "ER", "QXY"]:
        r = idx.rank(s)
        true = sum(truth_tile[0 if ch == "?" else german().code(ch)] for ch in s)
        assert vals[r] == pytest.approx(true, abs=1.5)
    assert (np.round(vals * 256) == vals * 256).all()  # quantised to 1/256


def test_observations_aggregate():
    o = Observations.from_samples(np.array([3, 3, -1, 5]), np.array([1.0, 3.0, 7.0, 2.0]))
    assert o.ranks.tolist() == [-1, 3, 5] and o.n.tolist() == [1, 2, 1]
    assert o.mean.tolist() == [7.0, 2.0, 2.0] and o.sq.tolist() == [0.0, 2.0, 0.0] and o.total == 4


# ---------------------------------------------------------------------------
# The generator script
# ---------------------------------------------------------------------------
def _script():
    import sys

    if "make_leaves" not in sys.modules:  # registered so that worker processes can unpickle its functions
        spec = importlib.util.spec_from_file_location("make_leaves", ROOT / "scripts" / "make_leaves.py")
        mod = importlib.util.module_from_spec(spec)
        sys.modules["make_leaves"] = mod
        spec.loader.exec_module(mod)
    return sys.modules["make_leaves"]


def test_make_leaves_is_reproducible(golden_lexicon):
    ml = _script()
    quiet = lambda *_a: None  # noqa: E731
    v1, m1 = ml.make_table(golden_lexicon.path, seed=3, games=(20, 20), workers=1, eval_games=0,
                           progress=False, log=quiet)
    v2, m2 = ml.make_table(golden_lexicon.path, seed=3, games=(20, 20), workers=2, eval_games=0,
                           progress=False, log=quiet)
    assert np.array_equal(v1, v2)
    assert m1["games_total"] == 40 and len(m1["generations"]) == 2
    g1 = m1["generations"][1]
    assert g1["players"].startswith("equity") and "change_rms_played" in g1 and "reference" in g1
    assert m1["equity"] == m2["equity"]


def test_make_leaves_shards_resume_and_ray(golden_lexicon, tmp_path):
    """A run directory: the same table as a run without one, whatever the workers or backend; a re-run
    plays nothing again; a shard is the Python game's log for the same seeds; a deadline stops early."""
    from engine.game.kernel_game import DecisionLog
    from engine.game.selfplay import play_equity_game

    ml = _script()
    quiet = lambda *_a: None  # noqa: E731
    lex = golden_lexicon.path
    kw = dict(seed=3, games=(20, 20), eval_games=0, progress=False, log=quiet, shard_games=7)
    v0, _ = ml.make_table(lex, workers=1, **kw)
    run = tmp_path / "run"
    v1, m1 = ml.make_table(lex, workers=2, run_dir=run, **kw)
    assert np.array_equal(v0, v1)
    shards = sorted(p.name for p in (run / "gen1").glob("shard-*.npz"))
    assert shards == ["shard-000000.npz", "shard-000001.npz", "shard-000002.npz"]  # 7 + 7 + 6 games
    # shard 1 of generation 0 (score players): games 7..13, the logs the Python game records
    with np.load(run / "gen0" / "shard-000001.npz") as z:
        assert z["games"].tolist() == [1, 7, 14] and z["lengths"].shape == (7,)
        logs = [play_equity_game(golden_lexicon, ml.seed_of(3, 0, i), (None, None), record=True, kernel=False)[1]
                for i in range(7, 14)]
        ref = DecisionLog.concat(logs)
        for f in ml.LOG_FIELDS:
            assert np.array_equal(z[f], getattr(ref, f), equal_nan=f == "fixed"), f
    # a re-run resumes: nothing is played, the same table
    stamp = {p: p.stat().st_mtime_ns for p in run.rglob("shard-*.npz")}
    v2, _ = ml.make_table(lex, workers=1, run_dir=run, **kw)
    assert np.array_equal(v1, v2) and {p: p.stat().st_mtime_ns for p in run.rglob("shard-*.npz")} == stamp
    # a lost shard is played again, the same games (the later generation's table is refitted from it)
    (run / "gen1" / "shard-000001.npz").unlink()
    (run / "gen1" / "table.npz").unlink()
    v3, _ = ml.make_table(lex, workers=1, run_dir=run, **kw)
    assert np.array_equal(v1, v3)
    # another seed in the same directory is refused
    with pytest.raises(ValueError, match="seed"):
        ml.make_table(lex, workers=1, run_dir=run, **{**kw, "seed": 4})
    # a deadline already passed: generation 0 is not even started
    with pytest.raises(RuntimeError, match="no generation"):
        ml.make_table(lex, workers=1, run_dir=tmp_path / "late", deadline=0.0, **kw)
    # a deadline reached while workers play: no new shard is started, the generation is fitted on the
    # shards before the first missing one ("time" here is the number of shards written)
    import engine.analysis.leave_selfplay as LS

    late = tmp_path / "deadline"
    clock = lambda: float(len(list((late / "gen0").glob("shard-*.npz"))))  # noqa: E731
    orig = LS.time.time
    LS.time.time = clock
    try:
        v5, m5 = ml.make_table(lex, workers=2, run_dir=late, deadline=2.5, **{**kw, "games": (70, 70)})
    finally:
        LS.time.time = orig
    n5 = len(list((late / "gen0").glob("shard-*.npz")))
    # 4 shards (2 per worker) at "time" 0, one more as each of the first two is written: 6 of the 10 shards
    assert n5 == 6 and m5["stopped_early"] and len(m5["generations"]) == 1
    assert m5["games_per_generation"] == [42] and m5["generations"][0]["games"] == 42
    # the same shards as Ray tasks (a local Ray instance)
    pytest.importorskip("ray")
    import ray

    try:
        v4, m4 = ml.make_table(lex, workers=2, run_dir=tmp_path / "ray", backend="ray", **kw)
    finally:
        ray.shutdown()
    assert np.array_equal(v1, v4) and m4["backend"] == "ray"
    for p in run.rglob("shard-*.npz"):
        with np.load(p) as a, np.load(tmp_path / "ray" / p.relative_to(run)) as b:
            assert all(np.array_equal(a[f], b[f], equal_nan=True) for f in a.files)


def test_match_summary_interval():
    ml = _script()
    s = ml.summarize_match([(10, 0, 0)] * 30 + [(-5, 0, 0)] * 10)
    assert s["games"] == 40 and s["win_rate"] == 0.75 and s["mean_spread"] == 6.25
    assert s["win_ci95"][0] < 0.75 < s["win_ci95"][1]
    assert s["spread_ci95"][0] < 6.25 < s["spread_ci95"][1]


def test_compare_tables_seats_swapped(golden_lexicon):
    """A table against itself: each deal is played twice with the seats swapped by identical players,
    so every pair's spreads cancel exactly (mean 0, half the games won)."""
    ml = _script()
    stem = ROOT / "engine" / "data" / "leaves-german"
    out = ml.compare(stem, stem, golden_lexicon.path, pairs=3, workers=1, seed=5, progress=False)
    assert out["games"] == 6 and out["pairs"] == 3
    assert out["mean_spread"] == 0 and out["spread_ci95_pairs"] == [0.0, 0.0]
    assert out["win_rate"] == 0.5 and out["mean_score_new"] == out["mean_score_old"]
