"""Self-play for the leave fit: shards of games in the game kernel, written to a run directory.

Used by ``scripts/make_leaves.py`` (method: docs/leaves.md section 4). A
generation's games are cut into shards of :data:`SHARD_GAMES` games; game ``i``
of generation ``g`` uses the bag seed :func:`seed_of` ``(seed, g, i)``; every
shard is played by :func:`play_shard` -- in a local worker process or as a Ray
task, the same function -- and written atomically as
``<run_dir>/gen<g>/shard-<k>.npz`` by the driver. A re-run plays only the
missing shards; :func:`load_generation` merges shards in game order, so the
result does not depend on the number of workers or the backend.
"""

from __future__ import annotations

import io
import json
import multiprocessing as mp
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from lexicon_tools.normalize import write_atomic

from engine.game.kernel_game import DecisionLog
from engine.leaves.table import LeaveTable, leave_index

__all__ = ["SHARD_GAMES", "LOG_FIELDS", "seed_of", "play_shard", "play_generation", "load_generation",
           "shard_path", "shard_ranges", "atomic_save_npz", "atomic_write_text"]


def seed_of(seed: int, gen: int, i: int) -> int:
    """Bag seed of game ``i`` of generation ``gen``."""
    ss = np.random.SeedSequence([int(seed) & 0xFFFFFFFFFFFFFFFF, int(gen), int(i)])
    return int(ss.generate_state(1, np.uint64)[0] >> np.uint64(1))


# ---------------------------------------------------------------------------
# Self-play: shards of games in the game kernel, written atomically to the run directory
# ---------------------------------------------------------------------------
SHARD_GAMES = 500
"""Games per shard (the unit of work, of resumption and of the files in the run directory)."""

_W: dict = {}


def _players(values, params):
    """Kernel players of a generation: both seats score players (``values`` None) or the same equity table."""
    from engine.game.kernel_game import KernelPlayers

    if values is None:
        return KernelPlayers((None, None))
    table = LeaveTable(leave_index(), np.asarray(values, dtype=np.float32), {"equity": dict(params)})
    return KernelPlayers((table, table))


def _worker_state(lexicon_path, key, values, params):
    """The worker's lexicon, kernel constants and players (made once per process and generation)."""
    from engine.game.kernel_game import KernelConstants
    from lexicon_tools.bundle import load_lexicon

    if _W.get("lexicon_path", 0) != lexicon_path:
        _W["lex"] = load_lexicon(lexicon_path)
        _W["consts"] = KernelConstants(_W["lex"])
        _W["lexicon_path"] = lexicon_path
        _W.pop("key", None)
    if _W.get("key") != key:
        _W["players"] = _players(values, params)
        _W["key"] = key
    return _W["lex"], _W["consts"], _W["players"]


def play_shard(lexicon_path, key, values, params, seed, gen, shard, start, stop) -> dict:
    """Play games ``start .. stop-1`` of generation ``gen`` in the game kernel, with decision logs.

    Game ``i`` uses the bag seed :func:`seed_of` ``(seed, gen, i)`` -- the game the
    Python path (``play_equity_game(..., record=True, kernel=False)``) plays.
    The same function runs in local worker processes and in Ray tasks.

    Returns:
        the shard as arrays: the :class:`~engine.game.kernel_game.DecisionLog` fields
        (``next`` within the shard), ``lengths`` (decisions per game) and
        ``stats`` float64 (games, 4): total score, bingos, exchanges, decisions.
    """
    from engine.game.kernel_game import play_kernel_game

    lex, consts, players = _worker_state(lexicon_path, key, values, params)
    logs, stats = [], []
    for i in range(start, stop):
        kg = play_kernel_game(lex, seed_of(seed, gen, i), consts=consts, players=players, log=True)
        log = kg.decision_log()
        logs.append(log)
        stats.append((float(kg.scores.sum()), kg.counts()["bingos"], int((log.kind == 1).sum()), len(log)))
    log = DecisionLog.concat(logs)
    out = {f: getattr(log, f) for f in LOG_FIELDS}
    out["lengths"] = np.array([len(x) for x in logs], dtype=np.int32)
    out["stats"] = np.array(stats, dtype=np.float64).reshape(-1, 4)
    out["games"] = np.array([shard, start, stop], dtype=np.int64)
    return out


LOG_FIELDS = ("player", "kind", "rank", "bag", "score", "fixed", "next", "end")


def _local_task(task):
    return task[0], play_shard(_W["ctx"][0], _W["ctx"][1], _W["ctx"][2], _W["ctx"][3], *task[1:])


def _local_init(ctx):
    import signal

    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _W["ctx"] = ctx


def atomic_save_npz(path: Path, arrays: dict) -> None:
    """Write ``arrays`` as ``path`` (.npz) all or nothing (:func:`lexicon_tools.normalize.write_atomic`).

    Raises:
        WordListError: the file cannot be written (a ``ValueError`` naming it).
    """
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, buf.getvalue())


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) as ``path`` all or nothing, making its directory if needed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, text)


def shard_path(run_dir: Path, gen: int, shard: int) -> Path:
    return Path(run_dir) / f"gen{gen}" / f"shard-{shard:06d}.npz"


def shard_ranges(games: int, shard_games: int = SHARD_GAMES) -> list[tuple[int, int, int]]:
    """``(shard, start, stop)`` of a generation of ``games`` games."""
    return [(k, s, min(games, s + shard_games)) for k, s in enumerate(range(0, games, shard_games))]


def play_generation(lexicon_path, seed, gen, games, table_values, params, workers, progress=True,
                    run_dir: Path | None = None, backend: str = "local", deadline: float | None = None,
                    shard_games: int = SHARD_GAMES, ray_address: str | None = None):
    """Play the missing shards of one generation into ``run_dir`` and load it.

    A shard already in ``run_dir`` is not played again (a re-run resumes). With
    ``deadline`` (``time.time()`` seconds) no shard is started after it; the
    generation is then the finished shards before the first missing one.

    Returns:
        ``(log, game_of_decision, stats, complete)`` merged in game order
        (the same whatever the number of workers or the backend).
    """
    from tqdm import tqdm

    tmp_run = run_dir is None
    if tmp_run:
        run_dir = Path(tempfile.mkdtemp(prefix="leaves-run-"))
    run_dir = Path(run_dir)
    try:
        ranges = shard_ranges(games, shard_games)
        todo = [(k, seed, gen, k, s, e) for k, s, e in ranges if not shard_path(run_dir, gen, k).is_file()]
        key = (seed, gen, None if table_values is None else hash(np.asarray(table_values).tobytes()))
        values = None if table_values is None else np.asarray(table_values, dtype=np.float32)
        _check_players(run_dir, gen, values, params)
        ctx = (lexicon_path, key, values, dict(params))
        done_games = games - sum(t[5] - t[4] for t in todo)
        bar = tqdm(total=games, initial=done_games, unit="game", desc=f"gen {gen}", disable=not progress,
                   leave=False, file=sys.stderr, smoothing=0.05)

        def save(k, arrays):
            atomic_save_npz(shard_path(run_dir, gen, k), arrays)
            bar.update(int(arrays["games"][2] - arrays["games"][1]))

        def tasks():
            for t in todo:
                if deadline is not None and time.time() >= deadline:
                    return
                yield t

        try:
            if todo and backend == "ray":
                _run_ray(ctx, tasks(), workers, save, ray_address)
            elif todo and workers <= 1:
                _local_init(ctx)
                for t in tasks():
                    save(*_local_task(t))
            elif todo:
                mpctx = mp.get_context("fork") if hasattr(os, "fork") else mp.get_context()
                with mpctx.Pool(workers, initializer=_local_init, initargs=(ctx,)) as pool:
                    # at most 2 shards per worker in flight, so that the deadline is checked as shards finish
                    # (Pool.imap would take every task from the generator at once)
                    it = tasks()
                    pending = []

                    def submit():
                        t = next(it, None)
                        if t is not None:
                            pending.append(pool.apply_async(_local_task, (t,)))

                    for _ in range(2 * workers):
                        submit()
                    while pending:
                        save(*pending.pop(0).get())
                        submit()
        finally:
            bar.close()
        return load_generation(run_dir, gen, games, shard_games)
    finally:
        if tmp_run:
            import shutil

            shutil.rmtree(run_dir, ignore_errors=True)


def _check_players(run_dir: Path, gen: int, values, params) -> None:
    """Record which table plays generation ``gen`` (``gen<g>/players.json``), or check that a re-run
    continues with the same one (a generation's shards are only valid with the table they were played with)."""
    import hashlib

    who = {"players": "score" if values is None else "equity",
           "values_sha256": None if values is None else hashlib.sha256(values.tobytes()).hexdigest(),
           "equity": None if values is None else {k: float(v) for k, v in sorted(dict(params).items())}}
    p = Path(run_dir) / f"gen{gen}" / "players.json"
    if p.is_file():
        old = json.loads(p.read_text(encoding="utf-8"))
        if old != who:
            raise ValueError(f"{p.parent}: its shards were played with another table (the previous generation "
                             f"changed, e.g. another --games); use another --run-dir")
        return
    atomic_write_text(p, json.dumps(who, indent=1) + "\n")


def _run_ray(ctx, tasks, workers, save, address=None):
    """Shards as Ray tasks (the same :func:`play_shard`), at most ``2 * workers`` in flight."""
    import ray

    from engine.analysis._sim_ray import ensure_ray

    ensure_ray(workers, address)
    remote = ray.remote(_ray_shard)
    ref = ray.put(ctx)
    pending = []
    it = iter(tasks)
    more = True
    while more or pending:
        while more and len(pending) < 2 * workers:
            t = next(it, None)
            if t is None:
                more = False
                break
            pending.append(remote.remote(ref, t))
        if not pending:
            break
        ready, pending = ray.wait(pending, num_returns=1)
        for r in ready:
            save(*ray.get(r))


def _ray_shard(ctx, task):
    return task[0], play_shard(ctx[0], ctx[1], ctx[2], ctx[3], *task[1:])


def load_generation(run_dir: Path, gen: int, games: int, shard_games: int = SHARD_GAMES):
    """The shards of a generation in game order, up to the first missing one.

    Returns:
        ``(log, game_of_decision, stats, complete)``; ``complete`` is False when
        shards are missing (the log then holds the games before the first gap).
    """
    logs, lengths, stats = [], [], []
    complete = True
    for k, s, e in shard_ranges(games, shard_games):
        p = shard_path(run_dir, gen, k)
        if not p.is_file():
            complete = False
            break
        with np.load(p) as z:
            if [int(x) for x in z["games"]] != [k, s, e]:
                raise ValueError(f"{p}: holds games {z['games'].tolist()}, expected shard {k} games {s}..{e - 1}")
            logs.append(DecisionLog(*(z[f] for f in LOG_FIELDS)))
            lengths.append(z["lengths"])
            stats.append(z["stats"])
    log = DecisionLog.concat(logs)
    lengths = np.concatenate(lengths) if lengths else np.zeros(0, dtype=np.int32)
    game_of = np.repeat(np.arange(len(lengths)), lengths)
    stats = np.concatenate(stats) if stats else np.zeros((0, 4))
    return log, game_of, stats, complete
