"""Make the German win-% table of the simulation (engine/data/winpct-german.json) by self-play.

    python scripts/make_win_table.py [--games 4000] [--seed 2026] [--out engine/data/winpct-german.json]

Plays ``--games`` kernel games (engine.game.kernel_game) between two static equity
players with the packaged leave table on the default lexicon, bag seeds
``engine.game.selfplay.game_seed(seed, i)``, so the same seed gives the same games
and the same table. Before every turn it records the tiles not on the board
(bag + both racks), the lead of the player on turn and, at the end, whether
that player won (1, a draw ½, 0).

The table is P(the player on turn wins | lead, tiles not on the board). Per
tile count T it is a logistic curve in the lead, ``1 / (1 + exp(-(a_T + b_T·lead)))``,
fitted by weighted maximum likelihood (Newton's method) to the positions with
tile counts near T (Gaussian weights, bandwidth ``--bandwidth`` tiles, so that
sparse counts borrow from their neighbours), evaluated on a grid of leads.
The JSON keeps the grid, the per-T coefficients, the position counts and how
it was made. Written atomically (temporary file, fsync, rename).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

LEAD_MIN, LEAD_MAX, LEAD_STEP = -300, 300, 5


def collect(lexicon, games: int, seed: int, progress: bool = True):
    """``(T, lead, outcome)`` int/int/float arrays of every turn of ``games`` self-play games."""
    from tqdm import tqdm

    from engine.game import _kgame as KG
    from engine.game.kernel_game import KernelConstants, KernelPlayers, play_kernel_game
    from engine.leaves.table import default_table
    from engine.game.selfplay import game_seed

    table = default_table()
    consts = KernelConstants(lexicon)
    players = KernelPlayers([table, table])
    total = int(consts.alphabet.total_tiles)
    ts, leads, ys = [], [], []
    for i in tqdm(range(games), desc="self-play", unit="game", disable=not progress, file=sys.stderr):
        g = play_kernel_game(lexicon, game_seed(seed, i), players=players, consts=consts)
        final = [int(s) for s in g.scores]
        tot = [0, 0]
        on_board = 0
        for r in g.rec:
            kind = int(r[KG.R_KIND])
            if kind > KG.KIND_PASS:
                break  # the settlement entries after the last move
            p = int(r[KG.R_PLAYER])
            ts.append(total - on_board)
            leads.append(tot[p] - tot[1 - p])
            d = final[p] - final[1 - p]
            ys.append(1.0 if d > 0 else (0.5 if d == 0 else 0.0))
            tot[p] = int(r[KG.R_TOTAL])
            if kind == KG.KIND_PLAY:
                on_board += int(r[KG.R_MOVE + KG.OUT_NTILES])
    return np.array(ts, dtype=np.int64), np.array(leads, dtype=np.float64), np.array(ys, dtype=np.float64)


def fit_logistic(x: np.ndarray, y: np.ndarray, w: np.ndarray, ridge: float = 1e-6) -> tuple[float, float]:
    """Weighted maximum-likelihood ``(a, b)`` of ``P(y) = 1 / (1 + exp(-(a + b x)))`` (Newton's method).

    ``x`` is scaled by 1/100 inside for conditioning; ``y`` may be fractional (draws ½).
    """
    xs = x / 100.0
    X = np.stack([np.ones_like(xs), xs], axis=1)
    beta = np.zeros(2)
    for _ in range(50):
        z = X @ beta
        p = 1.0 / (1.0 + np.exp(-z))
        g = X.T @ (w * (y - p)) - ridge * beta
        h = (X * (w * p * (1 - p))[:, None]).T @ X + ridge * np.eye(2)
        step = np.linalg.solve(h, g)
        beta += step
        if np.abs(step).max() < 1e-9:
            break
    return float(beta[0]), float(beta[1] / 100.0)


def build(ts, leads, ys, bandwidth: float, max_t: int):
    a, b, counts = [], [], []
    for t in range(max_t + 1):
        w = np.exp(-0.5 * ((ts - t) / bandwidth) ** 2)
        keep = w > 1e-4
        ai, bi = fit_logistic(leads[keep], ys[keep], w[keep])
        a.append(ai)
        b.append(bi)
        counts.append(int((ts == t).sum()))
    grid = np.arange(LEAD_MIN, LEAD_MAX + 1, LEAD_STEP, dtype=np.float64)
    p = [[round(1.0 / (1.0 + math.exp(-(a[t] + b[t] * x))), 5) for x in grid] for t in range(max_t + 1)]
    return a, b, counts, p


def write_atomic(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=str(path.parent))
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, separators=(",", ":"))
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--bandwidth", type=float, default=2.0, help="Gaussian weight over tile counts (tiles)")
    ap.add_argument("--out", default=str(ROOT / "engine" / "data" / "winpct-german.json"))
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    if args.games < 10:
        print("error: --games must be at least 10", file=sys.stderr)
        return 2
    if args.bandwidth <= 0:
        print("error: --bandwidth must be positive", file=sys.stderr)
        return 2
    from lexicon_tools.bundle import load_lexicon

    lex = load_lexicon(None)
    t0 = time.perf_counter()
    ts, leads, ys = collect(lex, args.games, args.seed, not args.quiet)
    secs = time.perf_counter() - t0
    max_t = int(lex.alphabet.total_tiles)
    a, b, counts, p = build(ts, leads, ys, args.bandwidth, max_t)
    data = {
        "name": "winpct-german",
        "format": "win table 1: p[T][k] = P(player on turn wins | lead = lead_min + k*lead_step, "
                  "T tiles not on the board); draws count 1/2",
        "made_by": f"python scripts/make_win_table.py --games {args.games} --seed {args.seed} "
                   f"--bandwidth {args.bandwidth:g}",
        "players": "two static equity players (engine.game.equity, packaged leave table), kernel self-play",
        "lexicon": "packaged default",
        "games": args.games,
        "seed": args.seed,
        "game_seeds": "engine.game.selfplay.game_seed(seed, i), i = 0 .. games-1",
        "positions": int(ts.shape[0]),
        "first_player_win_rate": None,
        "fit": "per T: weighted logistic regression in the lead, Gaussian weights over T "
               f"(bandwidth {args.bandwidth:g} tiles)",
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "seconds_selfplay": round(secs, 1),
        "lead_min": LEAD_MIN, "lead_max": LEAD_MAX, "lead_step": LEAD_STEP,
        "a": [round(x, 6) for x in a], "b": [round(x, 7) for x in b],
        "counts": counts,
        "p": p,
    }
    data.pop("first_player_win_rate")
    write_atomic(Path(args.out), data)
    print(f"{args.games} games, {ts.shape[0]} positions in {secs:.1f} s -> {args.out}")
    for t in (100, 80, 60, 40, 20, 10, 7, 3):
        if t <= max_t:
            row = p[t]
            k0 = (0 - LEAD_MIN) // LEAD_STEP
            k20 = (20 - LEAD_MIN) // LEAD_STEP
            k50 = (50 - LEAD_MIN) // LEAD_STEP
            print(f"  T={t:3d}: P(win | lead 0) {row[k0]:.3f}, lead 20 {row[k20]:.3f}, lead 50 {row[k50]:.3f}, "
                  f"n(T) {counts[t]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
