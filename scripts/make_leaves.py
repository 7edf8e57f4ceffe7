#!/usr/bin/env python
"""Make the German leave table by self-play (the method is in docs/leaves.md).

    .venv/bin/python scripts/make_leaves.py --seed 2024 --out engine/data/leaves-german

Generations: generation 0 is played by pure score players and fitted with the
single-tile model (tile levels, vowel/consonant balance, size); every later
generation is played by static equity players using the previous table and
fitted with the full model (plus pair synergies and shrunken per-leave
residuals) on its own games and the previous generation's, with TD(0) targets
re-evaluated under the newest values. Every game is seeded from
``(--seed, generation, game)``, results are merged in game order, so a run is
reproducible whatever the number of workers.

Writes ``<out>.klv2.xz`` (the table, KLV2, xz) and ``<out>.json`` (how it was
made: games per generation, seeds, fit reports, convergence, bag ramp,
evaluation against score players), and prints progress.
"""

from __future__ import annotations

import argparse
import json
import lzma
import multiprocessing as mp
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.equity import DecisionLog, EquityParams, play_equity_game  # noqa: E402
from engine.leaves import LeaveModel, LeaveTable, Observations, leave_index, write_klv  # noqa: E402

FIT_MIN_BAG = 14
"""Decisions with at least this many tiles in the bag fit the table (the mid-game value)."""
HOLDOUT_EVERY = 10
"""Game ``i`` with ``i % HOLDOUT_EVERY == HOLDOUT_EVERY - 1`` is held out to choose the penalty."""
REFERENCE = ["?", "??", "S", "E", "N", "R", "ER", "EN", "ERS", "EINRST", "Q", "QU", "X", "Y", "C", "CH",
             "CK", "J", "V", "Ä", "Ö", "Ü", "EE", "EEE", "II", "UU", "AEIOU", "BCDFG"]


def seed_of(seed: int, gen: int, i: int) -> int:
    """Bag seed of game ``i`` of generation ``gen``."""
    ss = np.random.SeedSequence([int(seed) & 0xFFFFFFFFFFFFFFFF, int(gen), int(i)])
    return int(ss.generate_state(1, np.uint64)[0] >> np.uint64(1))


# ---------------------------------------------------------------------------
# Self-play workers
# ---------------------------------------------------------------------------
_W: dict = {}


def _init(lexicon_path, values_path, params):
    from lexicon_tools.bundle import load_lexicon

    _W["lex"] = load_lexicon(lexicon_path)
    if values_path is None:
        _W["table"] = None
    else:
        vals = np.load(values_path, mmap_mode="r")
        _W["table"] = LeaveTable(leave_index(), vals, {"equity": params})


def _play(task):
    seed, gen, start, stop = task
    lex, table = _W["lex"], _W["table"]
    logs, stats = [], []
    for i in range(start, stop):
        g, log = play_equity_game(lex, seed_of(seed, gen, i), (table, table), record=True)
        logs.append(log)
        bingos = sum(1 for t in g.turns if t.kind == "play" and t.move.tiles_played == 7)
        exch = sum(1 for t in g.turns if t.kind == "exchange")
        stats.append((sum(g.scores), bingos, exch, len(log)))
    return start, DecisionLog.concat(logs), [len(x) for x in logs], stats


def play_generation(lexicon_path, seed, gen, games, table_values, params, workers, progress=True, chunk=50):
    """Play one generation; returns ``(log, game_of_decision, stats)`` merged in game order."""
    from tqdm import tqdm

    tmpdir = tempfile.mkdtemp(prefix="leaves-")
    values_path = None
    if table_values is not None:
        values_path = os.path.join(tmpdir, "values.npy")
        np.save(values_path, np.asarray(table_values, dtype=np.float32))
    tasks = [(seed, gen, s, min(games, s + chunk)) for s in range(0, games, chunk)]
    results = []
    bar = tqdm(total=games, unit="game", desc=f"gen {gen}", disable=not progress, leave=False, file=sys.stderr)
    try:
        if workers <= 1:
            _init(lexicon_path, values_path, params)
            for t in tasks:
                results.append(_play(t))
                bar.update(t[3] - t[2])
        else:
            ctx = mp.get_context("fork") if hasattr(os, "fork") else mp.get_context()
            with ctx.Pool(workers, initializer=_init, initargs=(lexicon_path, values_path, params)) as pool:
                for res in pool.imap(_play, tasks):
                    results.append(res)
                    bar.update(len(res[2]))
    finally:
        bar.close()
        if values_path:
            os.unlink(values_path)
        os.rmdir(tmpdir)
    results.sort(key=lambda r: r[0])
    log = DecisionLog.concat([r[1] for r in results])
    lengths = [n for r in results for n in r[2]]
    game_of = np.repeat(np.arange(games), lengths)
    stats = np.array([s for r in results for s in r[3]], dtype=np.float64).reshape(-1, 4)
    return log, game_of, stats


# ---------------------------------------------------------------------------
# Fitting
# ---------------------------------------------------------------------------
def observations(log: DecisionLog, game_of: np.ndarray, values: np.ndarray, params: EquityParams):
    """Mid-game ``(train, holdout)`` observations with TD targets under ``values``."""
    y = log.targets(values, params)
    sel = (log.bag >= FIT_MIN_BAG) & (log.kind != 2)
    hold = (game_of % HOLDOUT_EVERY) == HOLDOUT_EVERY - 1
    tr = sel & ~hold
    ho = sel & hold
    return (Observations.from_samples(log.rank[tr], y[tr]), Observations.from_samples(log.rank[ho], y[ho]),
            Observations.from_samples(log.rank[sel], y[sel]))


def fit_values(index, log, game_of, values, params, pairs: bool, residuals: bool, sweeps: int = 2):
    """Fit a table: ``sweeps`` rounds of (targets under the current values -> ridge fit).

    Returns:
        ``(values, model, report)``.
    """
    report = {}
    model = None
    for sweep in range(sweeps):
        train, hold, both = observations(log, game_of, values, params)
        model = LeaveModel(index, pairs=pairs)
        rep = model.fit(train, hold)
        lam = rep["lambda_scale"]
        model.fit(both, None, lam_grid=(lam,))
        rep["sigma2"], rep["tau2"] = round(model.sigma2, 3), round(model.tau2, 4)
        values = model.table_values(residuals=residuals)
        report = rep
    return values, model, report


def fit_ramp(log: DecisionLog, values, params, max_bag: int = 40) -> dict:
    """Slope of the target on the leave value per bag size, and the fade that fits it.

    For each bag size ``b`` the TD targets of the decisions made with ``b``
    tiles in the bag are regressed on the table value of the leave kept. The
    slopes are divided by their mean over ``b >= FIT_MIN_BAG`` (where the table
    was fitted) and ``(B, f)`` are chosen on a grid to minimise the count-weighted
    squared distance between ``f + (1 - f) * min(1, b/B)`` and the relative slopes.
    """
    y = log.targets(values, params)
    ok = (log.rank >= 0) & (log.kind != 2)
    v = np.zeros(len(log))
    v[ok] = np.asarray(values, dtype=np.float64)[log.rank[ok]]
    slopes, counts = {}, {}
    for b in range(1, max_bag + 1):
        m = ok & (log.bag == b)
        if m.sum() < 200:
            continue
        x, t = v[m], y[m]
        vx = x.var()
        if vx <= 0:
            continue
        slopes[b] = float(((x - x.mean()) * (t - t.mean())).mean() / vx)
        counts[b] = int(m.sum())
    ref = [slopes[b] for b in slopes if b >= FIT_MIN_BAG]
    norm = float(np.mean(ref)) if ref else 1.0
    rel = {b: s / norm for b, s in slopes.items()}
    best, best_err = (params.bag_ramp, params.bag_floor), None
    for B in np.arange(1.0, 30.01, 0.5):
        for f in np.arange(0.0, 1.001, 0.05):
            err = sum(counts[b] * (rel[b] - (f + (1 - f) * min(1.0, b / B))) ** 2 for b in rel)
            if best_err is None or err < best_err - 1e-12:
                best, best_err = (float(B), round(float(f), 2)), err
    return {"bag_ramp": best[0], "bag_floor": best[1], "slope_norm": round(norm, 4),
            "relative_slopes": {str(b): round(s, 3) for b, s in sorted(rel.items())},
            "counts": {str(b): c for b, c in sorted(counts.items())}}


def reference_values(table_values, index) -> dict:
    out = {}
    for s in REFERENCE:
        try:
            out[s] = round(float(table_values[index.rank(s)]), 2)
        except ValueError:
            pass
    return out


def evaluate(lexicon_path, seed, games, values, params, workers) -> dict:
    """Equity player (``values``) against the pure score player, seats alternating."""
    from engine.game import HOME  # noqa: F401

    tasks = [(seed, i) for i in range(games)]
    if workers <= 1:
        _einit(lexicon_path, values, params)
        res = [_eplay(t) for t in tasks]
    else:
        ctx = mp.get_context("fork") if hasattr(os, "fork") else mp.get_context()
        with ctx.Pool(workers, initializer=_einit, initargs=(lexicon_path, values, params)) as pool:
            res = pool.map(_eplay, tasks, chunksize=25)
    return summarize_match(res)


def _einit(lexicon_path, values, params):
    from lexicon_tools.bundle import load_lexicon

    _W["lex"] = load_lexicon(lexicon_path)
    _W["table"] = LeaveTable(leave_index(), np.asarray(values, dtype=np.float32), {"equity": params})


def _eplay(task):
    seed, i = task
    t = _W["table"]
    seats = (t, None) if i % 2 == 0 else (None, t)
    g = play_equity_game(_W["lex"], seed_of(seed, 999, i // 2), seats)  # each deal twice, seats swapped
    me = 0 if i % 2 == 0 else 1
    return g.scores[me] - g.scores[1 - me], g.scores[me], g.scores[1 - me]


def summarize_match(res) -> dict:
    """:func:`engine.equity.match_summary` of ``(spread, equity score, score-player score)`` results."""
    from engine.equity import match_summary

    out = match_summary([r[0] for r in res], [r[1] for r in res], [r[2] for r in res])
    out["mean_score_equity"] = out.pop("mean_score_a")
    out["mean_score_score"] = out.pop("mean_score_b")
    return out


# ---------------------------------------------------------------------------
# The run
# ---------------------------------------------------------------------------
def make_table(lexicon_path=None, seed=2024, games=(10000, 20000, 20000, 24000), workers=2, eval_games=2000,
               progress=True, log=None) -> tuple[np.ndarray, dict]:
    """Run all generations; returns ``(values, meta)``."""
    if log is None:
        def log(msg):
            print(msg, flush=True)
    index = leave_index()
    _ = index.tiles  # enumerate once before forking
    params = EquityParams()
    values = None
    history = []
    logs = []
    t_start = time.perf_counter()
    for gen, n_games in enumerate(games):
        t0 = time.perf_counter()
        eq = {"bag_ramp": params.bag_ramp, "bag_floor": params.bag_floor, "stuck_penalty": params.stuck_penalty}
        dlog, game_of, stats = play_generation(lexicon_path, seed, gen, n_games, values, eq, workers, progress)
        t_play = time.perf_counter() - t0
        logs.append((dlog, game_of))
        if gen == 0:
            fit_log, fit_games = dlog, game_of
        else:
            prev = [x for x in logs[max(1, gen - 1):gen + 1]]
            fit_log = DecisionLog.concat([x[0] for x in prev])
            fit_games = np.concatenate([x[1] + k * 10_000_000 for k, x in enumerate(prev)])
        start_values = values if values is not None else np.zeros(index.size, dtype=np.float32)
        new_values, model, rep = fit_values(index, fit_log, fit_games, start_values, params,
                                            pairs=gen > 0, residuals=gen > 0, sweeps=1 if gen == 0 else 2)
        ramp = fit_ramp(fit_log, new_values, params)
        params = EquityParams(bag_ramp=ramp["bag_ramp"], bag_floor=ramp["bag_floor"],
                              stuck_penalty=params.stuck_penalty)
        entry = {
            "generation": gen,
            "players": "score" if gen == 0 else f"equity (table of generation {gen - 1})",
            "games": n_games,
            "decisions": len(dlog),
            "fit_games": int(sum(games[k] for k in ([0] if gen == 0 else range(max(1, gen - 1), gen + 1)))),
            "seconds_play": round(t_play, 1),
            "games_per_second": round(n_games / t_play, 1),
            "mean_score_per_player": round(float(stats[:, 0].mean() / 2), 2),
            "bingos_per_game": round(float(stats[:, 1].mean()), 3),
            "exchanges_per_game": round(float(stats[:, 2].mean()), 3),
            "fit": rep,
            "model": {"pairs": gen > 0, "residuals": gen > 0},
            "bag_ramp": ramp,
            "reference": reference_values(new_values, index),
        }
        if values is not None:
            d = new_values.astype(np.float64) - values
            seen = np.unique(dlog.rank[dlog.rank >= 0])
            w = np.bincount(dlog.rank[dlog.rank >= 0], minlength=index.size)[seen].astype(np.float64)
            entry["change_rms_all"] = round(float(np.sqrt((d ** 2).mean())), 3)
            entry["change_rms_played"] = round(float(np.sqrt((w * d[seen] ** 2).sum() / w.sum())), 3)
        history.append(entry)
        values = new_values
        msg = (f"gen {gen}: {n_games} games ({entry['games_per_second']}/s), {len(dlog)} decisions, "
               f"mean score {entry['mean_score_per_player']}, bingos/game {entry['bingos_per_game']}, "
               f"exch/game {entry['exchanges_per_game']}, "
               f"lambda x{rep['lambda_scale']}, holdout R2 {rep.get('holdout_r2')}, tau2 {rep['tau2']}, "
               f"fade {ramp['bag_floor']}..1 below {ramp['bag_ramp']} tiles")
        if "change_rms_played" in entry:
            msg += f", change RMS played {entry['change_rms_played']} all {entry['change_rms_all']}"
        log(msg)
        log("   " + " ".join(f"{k}={v:+.2f}" for k, v in entry["reference"].items()))
    total = time.perf_counter() - t_start
    meta = {
        "name": "leaves-german",
        "format": "KLV2 (docs/leaves.md)",
        "tile_set": "german",
        "leaves": int(index.size),
        "lexicon": "packaged default" if lexicon_path is None else str(lexicon_path),
        "seed": seed,
        "games_per_generation": list(games),
        "games_total": int(sum(games)),
        "fit_min_bag": FIT_MIN_BAG,
        "quantum": 1 / 256,
        "equity": {"bag_ramp": params.bag_ramp, "bag_floor": params.bag_floor,
                   "stuck_penalty": params.stuck_penalty},
        "generations": history,
        "seconds": round(total, 1),
        "workers": workers,
    }
    if eval_games:
        t0 = time.perf_counter()
        ev = evaluate(lexicon_path, seed, eval_games, values, meta["equity"], workers)
        ev["seconds"] = round(time.perf_counter() - t0, 1)
        meta["evaluation_vs_score_player"] = ev
        log(f"evaluation: equity vs score, {ev['games']} games: mean spread {ev['mean_spread']:+.1f} "
            f"{ev['spread_ci95']}, win rate {ev['win_rate']:.3f} {ev['win_ci95']}")
    return values, meta


def evaluate_only(out: Path, lexicon_path, games: int, workers: int) -> int:
    """Play the evaluation match with an existing table and record it in its metadata."""
    meta_path = out.with_name(out.name + ".json")
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    with lzma.open(out.with_name(out.name + ".klv2.xz"), "rb") as z:
        data = z.read()
    with tempfile.NamedTemporaryFile(suffix=".klv2") as f:
        f.write(data)
        f.flush()
        from engine.leaves import read_klv

        values, _info = read_klv(f.name, mmap=False)
    t0 = time.perf_counter()
    ev = evaluate(lexicon_path, meta["seed"], games, values, meta["equity"], workers)
    ev["seconds"] = round(time.perf_counter() - t0, 1)
    meta["evaluation_vs_score_player"] = ev
    meta_path.write_text(json.dumps(meta, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"evaluation: equity vs score, {ev['games']} games: mean spread {ev['mean_spread']:+.1f} "
          f"{ev['spread_ci95']}, win rate {ev['win_rate']:.3f} {ev['win_ci95']}")
    return 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seed", type=int, default=2024)
    p.add_argument("--games", default="10000,20000,20000,24000",
                   help="games per generation, comma-separated (first: score players)")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--lexicon", default=None, help="lexicon bundle (default: the packaged one)")
    p.add_argument("--out", default=str(ROOT / "engine" / "data" / "leaves-german"),
                   help="output stem: writes STEM.klv2.xz and STEM.json")
    p.add_argument("--eval-games", type=int, default=2000)
    p.add_argument("--no-progress", action="store_true")
    p.add_argument("--evaluate-only", action="store_true",
                   help="only play the evaluation match with the table at --out and update its .json")
    args = p.parse_args(argv)
    if args.evaluate_only:
        return evaluate_only(Path(args.out), args.lexicon, args.eval_games, args.workers)
    games = tuple(int(x) for x in args.games.split(",") if x.strip())
    if not games or min(games) < 10:
        print("error: --games needs at least one generation of at least 10 games", file=sys.stderr)
        return 2
    values, meta = make_table(args.lexicon, args.seed, games, args.workers, args.eval_games,
                              progress=not args.no_progress)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    klv = out.with_name(out.name + ".klv2")
    write_klv(klv, values)
    with open(klv, "rb") as f, lzma.open(out.with_name(out.name + ".klv2.xz"), "wb", preset=9 | lzma.PRESET_EXTREME) as z:
        z.write(f.read())
    klv.unlink()
    meta["command"] = "scripts/make_leaves.py " + " ".join(argv if argv is not None else sys.argv[1:])
    out.with_name(out.name + ".json").write_text(json.dumps(meta, indent=1, ensure_ascii=False) + "\n",
                                                 encoding="utf-8")
    print(f"wrote {out}.klv2.xz ({os.path.getsize(str(out) + '.klv2.xz') / 1e6:.2f} MB) and {out}.json "
          f"in {meta['seconds']:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
