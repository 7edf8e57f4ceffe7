#!/usr/bin/env python
"""Make the German leave table by self-play (the method is in docs/leaves.md).

    .venv/bin/python scripts/make_leaves.py --seed 2024 --run-dir /path/outside/the/repo [--deadline HH:MM]

Generations: generation 0 is played by pure score players and fitted with the
single-tile model (tile levels, vowel/consonant balance, size); every later
generation is played by static equity players using the previous table and
fitted with the full model (plus pair synergies and shrunken per-leave
residuals) on its own games and the previous generation's, with TD(0) targets
re-evaluated under the newest values. Every game is seeded from
``(--seed, generation, game)``, results are merged in game order, so a run is
reproducible whatever the number of workers. The games are played in the game
kernel in shards (:mod:`engine.analysis.leave_selfplay`: local worker processes or Ray
tasks, ``--backend ray``), kept in ``--run-dir``; a re-run resumes.

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

from engine.game.kernel_game import DecisionLog  # noqa: E402

from engine.game.equity import EquityParams
from engine.analysis.leave_selfplay import (  # noqa: E402
    LOG_FIELDS, SHARD_GAMES, atomic_save_npz, atomic_write_text, load_generation, play_generation, seed_of)
from engine.leaves.table import LeaveModel, LeaveTable, Observations, leave_index, write_klv  # noqa: E402

_W: dict = {}

FIT_MIN_BAG = 14
"""Decisions with at least this many tiles in the bag fit the table (the mid-game value)."""
HOLDOUT_EVERY = 10
"""Game ``i`` with ``i % HOLDOUT_EVERY == HOLDOUT_EVERY - 1`` is held out to choose the penalty."""
REFERENCE = ["?", "??", "S", "E", "N", "R", "ER", "EN", "ERS", "EINRST", "Q", "QU", "X", "Y", "C", "CH",
             "CK", "J", "V", "Ä", "Ö", "Ü", "EE", "EEE", "II", "UU", "AEIOU", "BCDFG"]


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


def _match_players(values_a, params_a, values_b, params_b):
    """Seats (A, B) and (B, A) as kernel players; ``values_*`` None is the pure score player."""
    from engine.game.kernel_game import KernelPlayers

    def table(values, params):
        if values is None:
            return None
        return LeaveTable(leave_index(), np.asarray(values, dtype=np.float32), {"equity": dict(params)})

    a, b = table(values_a, params_a), table(values_b, params_b)
    return KernelPlayers((a, b)), KernelPlayers((b, a))


def _minit(lexicon_path, sides):
    from engine.game.kernel_game import KernelConstants
    from lexicon_tools.bundle import load_lexicon

    _W["lex"] = load_lexicon(lexicon_path)
    _W["consts"] = KernelConstants(_W["lex"])
    _W["match"] = _match_players(*sides)


def _mplay(task):
    """Pairs ``start .. stop-1``: each deal (bag seed ``seed_of(seed, tag, i)``) played twice, seats swapped.
    Returns ``(spread of A, score of A, score of B)`` per game, A first then A second."""
    from engine.game.kernel_game import play_kernel_game

    seed, tag, start, stop = task
    ab, ba = _W["match"]
    out = []
    for i in range(start, stop):
        s = seed_of(seed, tag, i)
        g = play_kernel_game(_W["lex"], s, consts=_W["consts"], players=ab)
        out.append((int(g.scores[0] - g.scores[1]), int(g.scores[0]), int(g.scores[1])))
        g = play_kernel_game(_W["lex"], s, consts=_W["consts"], players=ba)
        out.append((int(g.scores[1] - g.scores[0]), int(g.scores[1]), int(g.scores[0])))
    return out


def play_match(lexicon_path, seed, tag, pairs, side_a, side_b, workers, progress=False, chunk=50) -> list:
    """A match of ``pairs`` deals, each played twice with the seats swapped, in the game kernel.

    ``side_*`` is ``(values, params)`` (``values`` None: the score player). Results
    (per game A's spread, A's score, B's score) are in deal order whatever the workers.
    """
    from tqdm import tqdm

    tasks = [(seed, tag, s, min(pairs, s + chunk)) for s in range(0, pairs, chunk)]
    sides = (side_a[0], side_a[1], side_b[0], side_b[1])
    bar = tqdm(total=pairs, unit="pair", desc="match", disable=not progress, leave=False, file=sys.stderr)
    try:
        if workers <= 1:
            _minit(lexicon_path, sides)
            res = []
            for t in tasks:
                res.append(_mplay(t))
                bar.update(t[3] - t[2])
        else:
            ctx = mp.get_context("fork") if hasattr(os, "fork") else mp.get_context()
            with ctx.Pool(workers, initializer=_minit, initargs=(lexicon_path, sides)) as pool:
                res = []
                for r in pool.imap(_mplay, tasks):
                    res.append(r)
                    bar.update(len(r) // 2)
    finally:
        bar.close()
    return [x for r in res for x in r]


def evaluate(lexicon_path, seed, games, values, params, workers) -> dict:
    """Equity player (``values``) against the pure score player: ``games // 2`` deals, seats swapped."""
    res = play_match(lexicon_path, seed, 999, max(1, games // 2), (values, params), (None, {}), workers)
    return summarize_match(res)


def pair_summary(res) -> dict:
    """:func:`summarize_match` plus the spread's 95% interval over deals (the two games of a deal
    share the tiles, so the deal is the independent unit)."""
    out = summarize_match(res)
    sp = np.array([r[0] for r in res], dtype=np.float64)
    pair = sp.reshape(-1, 2).mean(axis=1)
    se = pair.std(ddof=1) / np.sqrt(len(pair)) if len(pair) > 1 else 0.0
    m = float(pair.mean())
    out["pairs"] = int(len(pair))
    out["spread_ci95_pairs"] = [round(m - 1.96 * se, 2), round(m + 1.96 * se, 2)]
    return out


def summarize_match(res) -> dict:
    """:func:`engine.game.selfplay.match_summary` of ``(spread, equity score, score-player score)`` results."""
    from engine.game.selfplay import match_summary

    out = match_summary([r[0] for r in res], [r[1] for r in res], [r[2] for r in res])
    out["mean_score_equity"] = out.pop("mean_score_a")
    out["mean_score_score"] = out.pop("mean_score_b")
    return out


# ---------------------------------------------------------------------------
# The run
# ---------------------------------------------------------------------------
def lexicon_id(lexicon_path) -> str:
    """What a run directory records as its lexicon: the path, or the packaged list's checksum."""
    if lexicon_path is not None:
        return str(Path(lexicon_path).resolve())
    from lexicon_tools.bundle import default_words_path, sha256_file

    return f"packaged default (words sha256 {sha256_file(default_words_path())[:12]})"


def _check_run_dir(run_dir: Path, manifest: dict) -> None:
    """Write ``run.json`` into a new run directory, or check that a re-run continues the same run."""
    p = run_dir / "run.json"
    if p.is_file():
        old = json.loads(p.read_text(encoding="utf-8"))
        for k in ("seed", "lexicon", "shard_games"):
            if old.get(k) != manifest[k]:
                raise ValueError(f"{run_dir}: made with {k} {old.get(k)!r}, this run has {manifest[k]!r} "
                                 f"(use another --run-dir)")
    atomic_write_text(p, json.dumps(manifest, indent=1, ensure_ascii=False) + "\n")


def _gen_file(run_dir: Path, gen: int) -> Path:
    return Path(run_dir) / f"gen{gen}" / "table.npz"


def make_table(lexicon_path=None, seed=2024, games=(50000, 150000, 300000, 500000), workers=2, eval_games=2000,
               progress=True, log=None, run_dir=None, backend="local", deadline=None, ray_address=None,
               shard_games=SHARD_GAMES) -> tuple[np.ndarray, dict]:
    """Run all generations; returns ``(values, meta)``.

    With ``run_dir`` every shard and every generation's fitted table is kept
    there: a re-run skips finished shards and generations (resumes). With
    ``deadline`` the run stops starting shards then, fits the generation on
    its finished games and stops (``meta["stopped_early"]``).
    """
    if log is None:
        def log(msg):
            print(msg, flush=True)
    index = leave_index()
    _ = index.tiles  # enumerate once before forking
    params = EquityParams()
    values = None
    history = []
    logs = {}
    if run_dir is not None:
        run_dir = Path(run_dir)
        run_dir.mkdir(parents=True, exist_ok=True)
        _check_run_dir(run_dir, {"seed": seed, "lexicon": lexicon_id(lexicon_path), "shard_games": shard_games,
                                 "games_per_generation": list(games)})
    t_start = time.perf_counter()
    stopped = False
    played = []
    for gen, n_games in enumerate(games):
        t0 = time.perf_counter()
        gf = _gen_file(run_dir, gen) if run_dir is not None else None
        if gf is not None and gf.is_file():
            with np.load(gf) as z:
                entry = json.loads(str(z["entry"]))
                if entry["games"] == n_games:
                    values = z["values"].astype(np.float32)
                    eqd = entry["equity_after"]
                    params = EquityParams(bag_ramp=eqd["bag_ramp"], bag_floor=eqd["bag_floor"],
                                          stuck_penalty=eqd["stuck_penalty"])
                    history.append(entry)
                    played.append(n_games)
                    log(f"gen {gen}: fitted before ({n_games} games), resumed from {gf}")
                    logs = {k: v for k, v in logs.items() if k >= gen - 1}
                    continue
        eq = {"bag_ramp": params.bag_ramp, "bag_floor": params.bag_floor, "stuck_penalty": params.stuck_penalty}
        # generation g's shards are deterministic given the previous table: load what is there, play the rest
        dlog, game_of, stats, complete = play_generation(lexicon_path, seed, gen, n_games, values, eq, workers,
                                                         progress, run_dir=run_dir, backend=backend,
                                                         deadline=deadline, shard_games=shard_games,
                                                         ray_address=ray_address)
        t_play = time.perf_counter() - t0
        got = int(stats.shape[0])
        if not complete:
            stopped = True
            if got == 0:
                log(f"gen {gen}: stopped before any shard finished; the table of generation {gen - 1} stands")
                break
            log(f"gen {gen}: stopped at the deadline after {got} of {n_games} games; fitting on those")
        played.append(got)
        logs[gen] = (dlog, game_of)
        for k in [k for k in logs if (gen == 0 and k != 0) or (gen > 0 and k < max(1, gen - 1))]:
            del logs[k]
        if gen == 0:
            fit_log, fit_games = dlog, game_of
            fit_gens = [0]
        else:
            fit_gens = list(range(max(1, gen - 1), gen + 1))
            for k in fit_gens:
                if k not in logs:  # resumed: load the previous generation's games from the run directory
                    lg, go, _, _ = load_generation(run_dir, k, games[k], shard_games)
                    logs[k] = (lg, go)
            prev = [logs[k] for k in fit_gens]
            fit_log = DecisionLog.concat([x[0] for x in prev])
            fit_games = np.concatenate([x[1] + k * 10_000_000 for k, x in enumerate(prev)])
        start_values = values if values is not None else np.zeros(index.size, dtype=np.float32)
        t_fit = time.perf_counter()
        new_values, model, rep = fit_values(index, fit_log, fit_games, start_values, params,
                                            pairs=gen > 0, residuals=gen > 0, sweeps=1 if gen == 0 else 2)
        ramp = fit_ramp(fit_log, new_values, params)
        params = EquityParams(bag_ramp=ramp["bag_ramp"], bag_floor=ramp["bag_floor"],
                              stuck_penalty=params.stuck_penalty)
        entry = {
            "generation": gen,
            "players": "score" if gen == 0 else f"equity (table of generation {gen - 1})",
            "games": got,
            "decisions": len(dlog),
            "fit_games": int(sum(played[k] for k in fit_gens)),
            "seconds_play": round(t_play, 1),
            "seconds_fit": round(time.perf_counter() - t_fit, 1),
            "games_per_second": round(got / t_play, 1) if t_play > 0 else None,
            "mean_score_per_player": round(float(stats[:, 0].mean() / 2), 2),
            "bingos_per_game": round(float(stats[:, 1].mean()), 3),
            "exchanges_per_game": round(float(stats[:, 2].mean()), 3),
            "fit": rep,
            "model": {"pairs": gen > 0, "residuals": gen > 0},
            "bag_ramp": ramp,
            "equity_after": {"bag_ramp": params.bag_ramp, "bag_floor": params.bag_floor,
                             "stuck_penalty": params.stuck_penalty},
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
        if gf is not None:
            atomic_save_npz(gf, {"values": values, "entry": np.array(json.dumps(entry, ensure_ascii=False))})
        msg = (f"gen {gen}: {got} games ({entry['games_per_second']}/s), {len(dlog)} decisions, "
               f"mean score {entry['mean_score_per_player']}, bingos/game {entry['bingos_per_game']}, "
               f"exch/game {entry['exchanges_per_game']}, "
               f"lambda x{rep['lambda_scale']}, holdout R2 {rep.get('holdout_r2')}, tau2 {rep['tau2']}, "
               f"fade {ramp['bag_floor']}..1 below {ramp['bag_ramp']} tiles, fit {entry['seconds_fit']} s")
        if "change_rms_played" in entry:
            msg += f", change RMS played {entry['change_rms_played']} all {entry['change_rms_all']}"
        log(msg)
        log("   " + " ".join(f"{k}={v:+.2f}" for k, v in entry["reference"].items()))
        if stopped:
            break
    if values is None:
        raise RuntimeError("no generation was fitted")
    total = time.perf_counter() - t_start
    meta = {
        "name": "leaves-german",
        "format": "KLV2 (docs/leaves.md)",
        "tile_set": "german",
        "leaves": int(index.size),
        "lexicon": lexicon_id(lexicon_path),
        "seed": seed,
        "games_per_generation_planned": list(games),
        "games_per_generation": played,
        "games_total": int(sum(played)),
        "shard_games": shard_games,
        "engine": "game kernel (engine.game._kgame.play_game with the decision log)",
        "fit_min_bag": FIT_MIN_BAG,
        "quantum": 1 / 256,
        "equity": {"bag_ramp": params.bag_ramp, "bag_floor": params.bag_floor,
                   "stuck_penalty": params.stuck_penalty},
        "generations": history,
        "seconds_this_invocation": round(total, 1),
        "workers": workers,
        "backend": backend,
    }
    if stopped or len(played) < len(games):
        meta["stopped_early"] = True
    if eval_games:
        t0 = time.perf_counter()
        ev = evaluate(lexicon_path, seed, eval_games, values, meta["equity"], workers)
        ev["seconds"] = round(time.perf_counter() - t0, 1)
        meta["evaluation_vs_score_player"] = ev
        log(f"evaluation: equity vs score, {ev['games']} games: mean spread {ev['mean_spread']:+.1f} "
            f"{ev['spread_ci95']}, win rate {ev['win_rate']:.3f} {ev['win_ci95']}")
    return values, meta


def _read_table(stem: Path):
    """Values and metadata of a table written by this script (``STEM.klv2.xz`` + ``STEM.json``), or a KLV file."""
    from engine.leaves.table import read_klv

    stem = Path(stem)
    if stem.suffix in (".klv2", ".klv"):
        values, _info = read_klv(stem, mmap=False)
        meta_path = stem.with_suffix(".json")
        meta = json.loads(meta_path.read_text(encoding="utf-8")) if meta_path.is_file() else {}
        return np.array(values, dtype=np.float32), meta
    meta = json.loads(stem.with_name(stem.name + ".json").read_text(encoding="utf-8"))
    with lzma.open(stem.with_name(stem.name + ".klv2.xz"), "rb") as z:
        data = z.read()
    with tempfile.NamedTemporaryFile(suffix=".klv2") as f:
        f.write(data)
        f.flush()
        values, _info = read_klv(f.name, mmap=False)
    return np.array(values, dtype=np.float32), meta


def evaluate_only(out: Path, lexicon_path, games: int, workers: int) -> int:
    """Play the evaluation match with an existing table and record it in its metadata."""
    meta_path = out.with_name(out.name + ".json")
    values, meta = _read_table(out)
    t0 = time.perf_counter()
    ev = evaluate(lexicon_path, meta["seed"], games, values, meta["equity"], workers)
    ev["seconds"] = round(time.perf_counter() - t0, 1)
    meta["evaluation_vs_score_player"] = ev
    atomic_write_text(meta_path, json.dumps(meta, indent=1, ensure_ascii=False) + "\n")
    print(f"evaluation: equity vs score, {ev['games']} games: mean spread {ev['mean_spread']:+.1f} "
          f"{ev['spread_ci95']}, win rate {ev['win_rate']:.3f} {ev['win_ci95']}")
    return 0


def compare(new: Path, old: Path, lexicon_path, pairs: int, workers: int, seed: int, progress=True) -> dict:
    """Table ``new`` against table ``old`` (``"score"``: the pure score player), both as static
    equity players with their own fades:
    ``pairs`` deals (bag seeds ``seed_of(seed, 998, i)``), each played twice with the seats swapped."""
    va, ma = _read_table(new)
    vb, mb = (None, {}) if str(old) == "score" else _read_table(old)
    t0 = time.perf_counter()
    res = play_match(lexicon_path, seed, 998, pairs, (va, ma.get("equity", {})), (vb, mb.get("equity", {})),
                     workers, progress=progress)
    out = pair_summary(res)
    out["mean_score_new"] = out.pop("mean_score_equity")
    out["mean_score_old"] = out.pop("mean_score_score")
    out["seconds"] = round(time.perf_counter() - t0, 1)
    out["seed"] = seed
    out["new"], out["old"] = str(new), str(old)
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seed", type=int, default=2024)
    p.add_argument("--games", default="50000,150000,300000,500000",
                   help="games per generation, comma-separated (first: score players)")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="worker processes on this machine, or Ray tasks (the same shard function)")
    p.add_argument("--ray-address", default=None, help="Ray cluster address (default: a local Ray)")
    p.add_argument("--lexicon", default=None, help="lexicon bundle (default: the packaged one)")
    p.add_argument("--run-dir", default=None,
                   help="directory for the shards and per-generation tables (resumable; default: a temp dir)")
    p.add_argument("--shard-games", type=int, default=SHARD_GAMES, help="games per shard")
    p.add_argument("--deadline", default=None,
                   help="UTC time HH:MM: start no shard after it, fit on what is done and stop")
    p.add_argument("--out", default=str(ROOT / "engine" / "data" / "leaves-german"),
                   help="output stem: writes STEM.klv2.xz and STEM.json")
    p.add_argument("--eval-games", type=int, default=2000)
    p.add_argument("--no-progress", action="store_true")
    p.add_argument("--evaluate-only", action="store_true",
                   help="only play the evaluation match with the table at --out and update its .json")
    p.add_argument("--compare", nargs=2, metavar=("NEW", "OLD"),
                   help="match two tables (stems or .klv2 files; OLD 'score': the pure score player): "
                        "--pairs deals, seats swapped; prints JSON")
    p.add_argument("--pairs", type=int, default=10000)
    args = p.parse_args(argv)
    import signal

    # a `kill PID` of the driver ends its worker processes too (the pool is left through SystemExit)
    signal.signal(signal.SIGTERM, lambda *_a: sys.exit(143))
    if args.compare:
        if args.pairs < 2:
            print("error: --pairs must be at least 2", file=sys.stderr)
            return 2
        res = compare(Path(args.compare[0]), Path(args.compare[1]), args.lexicon, args.pairs, args.workers,
                      args.seed, progress=not args.no_progress)
        print(json.dumps(res, ensure_ascii=False))
        return 0
    if args.evaluate_only:
        return evaluate_only(Path(args.out), args.lexicon, args.eval_games, args.workers)
    try:
        games = tuple(int(x) for x in args.games.split(",") if x.strip())
    except ValueError:
        games = ()
    if not games or min(games) < 10:
        print("error: --games needs at least one generation of at least 10 games", file=sys.stderr)
        return 2
    if args.shard_games < 1:
        print("error: --shard-games must be at least 1", file=sys.stderr)
        return 2
    deadline = None
    if args.deadline:
        import datetime as dt

        try:
            hh, mm = (int(x) for x in args.deadline.split(":"))
            now = dt.datetime.now(dt.timezone.utc)
            when = now.replace(hour=hh, minute=mm, second=0, microsecond=0)
        except ValueError:
            print(f"error: --deadline {args.deadline!r}: expected HH:MM (UTC)", file=sys.stderr)
            return 2
        if when < now:
            when += dt.timedelta(days=1)
        deadline = when.timestamp()
    try:
        values, meta = make_table(args.lexicon, args.seed, games, args.workers, args.eval_games,
                                  progress=not args.no_progress, run_dir=args.run_dir, backend=args.backend,
                                  deadline=deadline, ray_address=args.ray_address, shard_games=args.shard_games)
    except (ValueError, RuntimeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    klv = out.with_name(out.name + ".klv2")
    write_klv(klv, values)
    with open(klv, "rb") as f:
        data = lzma.compress(f.read(), preset=9 | lzma.PRESET_EXTREME)
    klv.unlink()
    xz = out.with_name(out.name + ".klv2.xz")
    fd, tmp = tempfile.mkstemp(dir=out.parent, prefix=f".{xz.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, xz)
    except BaseException:
        os.unlink(tmp)
        raise
    meta["command"] = "scripts/make_leaves.py " + " ".join(argv if argv is not None else sys.argv[1:])
    atomic_write_text(out.with_name(out.name + ".json"), json.dumps(meta, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {out}.klv2.xz ({os.path.getsize(str(out) + '.klv2.xz') / 1e6:.2f} MB) and {out}.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
