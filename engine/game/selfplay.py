"""Self-play: the engine against itself with static players.

The best-score player plays the top-scoring placement
(:func:`engine.movegen.generator.best_moves`, ties by notation); without a placement it
exchanges its whole rack while the bag allows it (at least 7 tiles) and the
game is not stuck, else it passes. The equity player is
:func:`engine.game.equity.choose` with the packaged leave table. Every game is
reproducible from its seed: game ``i`` of a run with seed ``S`` uses the bag
seed :func:`game_seed` ``(S, i)``, written to its GCG file as ``#seed``.

Games run whole in a Numba kernel (:mod:`engine.game.kernel_game`: board, incremental
cross-checks, bag, racks and players as arrays); the move record becomes
:class:`engine.game.game.Turn` entries only when asked for (GCG files, ``on_game``).
``kernel=False`` plays the same games through :class:`engine.game.game.Game`
move by move (the reference: both give the same moves).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from engine.game.equity import EquityParams, apply, choose
from engine.game.game import HOME, Game, Kind, Rules
from engine.game.kernel_game import DecisionLog
from engine.leaves import _kernels as LK
from engine.leaves.table import LeaveTable
from engine.movegen.generator import best_moves

__all__ = ["game_seed", "play_game", "SelfPlayStats", "selfplay", "PLAYERS", "play_equity_game", "match_summary"]

PLAYERS = ("score", "equity")
"""The static players of :func:`selfplay`: best score, or static equity with the packaged leave table."""


def game_seed(seed: int, index: int) -> int:
    """The bag seed of game ``index`` in a run seeded ``seed`` (a 63-bit int from numpy's SeedSequence)."""
    ss = np.random.SeedSequence([int(seed) & 0xFFFFFFFFFFFFFFFF, int(index)])
    return int(ss.generate_state(1, np.uint64)[0] >> np.uint64(1))


def play_game(lexicon, seed: int, players: int = 2, rules: Rules = HOME, names=None,
              keep_undo: bool = False, max_turns: int = 1000, lexicon_name: str | None = None,
              kernel: bool = True) -> Game:
    """Play one game between static best-score players.

    Args:
        lexicon: the word list (:class:`lexicon_tools.bundle.Lexicon`).
        seed: the bag's seed (who starts and every draw follow from it).
        players: 2–4 (the rules' range).
        rules: the variant (affects only the end of the game here; nobody challenges).
        names: player nicknames (default ``p1``, ``p2``, ...).
        keep_undo: keep undo snapshots (off by default: faster).
        max_turns: safety stop; the players agree to end the game after this many entries.
        lexicon_name: name written to the record.
        kernel: play the game in the kernel (:func:`engine.game.kernel_game.play_kernel_game`)
            and return it as a finished ``Game``; ``False`` (or ``keep_undo``)
            plays it move by move in :class:`~engine.game.game.Game`. Same moves either way.

    Returns:
        the finished :class:`~engine.game.game.Game`.
    """
    if kernel and not keep_undo:
        from engine.game.kernel_game import play_kernel_game

        if not rules.min_players <= (len(names) if names else players) <= rules.max_players:
            raise ValueError(f"{rules.name} rules: {rules.min_players} to {rules.max_players} players, got {players}")
        kg = play_kernel_game(lexicon, seed, [None] * (len(names) if names else players), rules,
                              max_turns=max_turns, names=names, lexicon_name=lexicon_name)
        return kg.to_game()
    g = Game(names or players, lexicon, rules=rules, seed=seed, keep_undo=keep_undo, lexicon_name=lexicon_name)
    checks = g.checks
    board = g.board
    racks = g.racks
    bag = g.bag
    min_bag = rules.min_bag_for_exchange
    stuck = rules.end_pass_rounds * g.n
    while not g.over:
        rack = racks[g.to_move]
        moves = best_moves(board, rack, lexicon, 1, checks)
        if moves:
            g.play_generated(moves[0])
        elif len(bag) >= min_bag and g.scoreless_turns < stuck:
            g.exchange_all()
        else:
            g.pass_turn()
        if len(g.turns) >= max_turns and not g.over:
            g.end_by_agreement()
    return g


@dataclass
class SelfPlayStats:
    """Totals of a self-play run.

    Attributes:
        games: games played.
        players: players per game.
        seconds: wall time of the games (GCG writing included), seconds.
        score_sum: per seat, the sum of final scores.
        wins: per seat, wins (a draw counts ``rules.draw_value``).
        draws: games with a shared top score.
        bingos: standing plays of all 7 tiles.
        turns: player turns (plays, exchanges, passes).
        plays: placements.
        end_reasons: ``{"out": n, "passes": n, ...}``.
    """

    games: int = 0
    players: int = 2
    seconds: float = 0.0
    score_sum: list = field(default_factory=list)
    wins: list = field(default_factory=list)
    draws: int = 0
    bingos: int = 0
    turns: int = 0
    plays: int = 0
    end_reasons: dict = field(default_factory=dict)

    def add(self, g) -> None:
        """Count one finished game (a :class:`~engine.game.game.Game` or an :class:`engine.game.kernel_game.KernelGame`)."""
        if not self.score_sum:
            self.score_sum = [0] * g.n
            self.wins = [0.0] * g.n
        r = g.result()
        self.games += 1
        for p in range(g.n):
            self.score_sum[p] += r.scores[p]
            self.wins[p] += r.wins[p]
        self.draws += r.draw
        if isinstance(g, Game):
            for t in g.turns:
                if t.kind in Kind.TURNS:
                    self.turns += 1
                    if t.kind == Kind.PLAY:
                        self.plays += 1
                        if t.move.tiles_played == g.alphabet.rack_size:
                            self.bingos += 1
        else:
            c = g.counts()
            self.turns += c["turns"]
            self.plays += c["plays"]
            self.bingos += c["bingos"]
        self.end_reasons[r.end_reason] = self.end_reasons.get(r.end_reason, 0) + 1

    @property
    def games_per_second(self) -> float:
        """Games per second of wall time (0 before any game)."""
        return self.games / self.seconds if self.seconds > 0 else 0.0

    def summary(self) -> dict:
        """The figures as a JSON-ready dict (means per game)."""
        n = max(self.games, 1)
        return {
            "games": self.games,
            "players": self.players,
            "mean_score": [round(s / n, 2) for s in self.score_sum],
            "wins": [round(w, 2) for w in self.wins],
            "draws": self.draws,
            "bingos_per_game": round(self.bingos / n, 3),
            "moves_per_game": round(self.turns / n, 2),
            "plays_per_game": round(self.plays / n, 2),
            "end_reasons": dict(sorted(self.end_reasons.items())),
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games_per_second, 1),
        }

    def format(self) -> str:
        """The summary as a few lines of text."""
        from engine.lang import tr  # the text in the run's language (the CLI's --lang)

        s = self.summary()
        lines = [tr("{games} games, {players} players, {s:.2f} s ({rate:.1f} games/s)", games=s["games"],
                    players=s["players"], s=s["seconds"], rate=s["games_per_second"])]
        for p in range(len(self.score_sum)):
            lines.append(tr("  p{p}: mean score {mean:.1f}, wins {wins:g}", p=p + 1, mean=s["mean_score"][p],
                            wins=s["wins"][p]))
        lines.append(tr("  draws {draws}, bingos/game {bingos:.2f}, moves/game {moves:.1f} (plays {plays:.1f})",
                        draws=s["draws"], bingos=s["bingos_per_game"], moves=s["moves_per_game"],
                        plays=s["plays_per_game"]))
        lines.append(tr("  ended by {ends}", ends=", ".join(f"{tr(k)} {v}" for k, v in s["end_reasons"].items())))
        return "\n".join(lines)


def selfplay(lexicon, games: int, seed: int = 0, players: int = 2, rules: Rules = HOME,
             out_dir: str | Path | None = None, progress: bool | None = False,
             on_game: Callable[[int, Game], None] | None = None, lexicon_name: str | None = None,
             player: str = "score", table=None, kernel: bool = True) -> SelfPlayStats:
    """Play ``games`` games and collect :class:`SelfPlayStats`.

    Args:
        lexicon: the word list.
        games: number of games (>= 1).
        seed: run seed; game ``i`` uses :func:`game_seed` ``(seed, i)``.
        players: 2–4.
        rules: the variant.
        out_dir: write ``game_00000.gcg`` ... there (created if missing).
        progress: show a tqdm progress bar on stderr (``None``: only on a terminal).
        on_game: called with ``(index, game)`` after each game (a finished :class:`~engine.game.game.Game`).
        lexicon_name: name for the records' ``#lexicon``.
        player: ``"score"`` (best score) or ``"equity"`` (static equity, :func:`engine.game.equity.choose`)
            for every seat.
        table: the equity players' leave table (default: the packaged one).
        kernel: play in the game kernel (default) or move by move in :class:`~engine.game.game.Game`.

    Raises:
        ValueError: ``games < 1``, a player count the rules do not allow, an unknown player.
        OSError: ``out_dir`` cannot be created.
        lexicon_tools.normalize.WordListError: a GCG file cannot be written (names the file;
            each file is written atomically, so none is left empty or cut off).
    """
    if games < 1:
        raise ValueError(f"--games must be at least 1, got {games}")
    if not rules.min_players <= players <= rules.max_players:
        raise ValueError(f"{rules.name} rules: {rules.min_players} to {rules.max_players} players, got {players}")
    if player not in PLAYERS:
        raise ValueError(f"unknown player {player!r}: choose one of {', '.join(PLAYERS)}")
    from tqdm import tqdm

    from engine.game.gcg import write_gcg_file

    out = None
    if out_dir is not None:
        out = Path(out_dir)
        if out.exists() and not out.is_dir():
            raise ValueError(f"--out {out}: exists and is not a directory")
        out.mkdir(parents=True, exist_ok=True)
    tables = [None] * players
    if player == "equity":
        if table is None:
            from engine.leaves.table import default_table

            table = default_table()
        tables = [table] * players
    run = _kernel_runner(lexicon, tables, rules, lexicon_name) if kernel else None
    stats = SelfPlayStats(players=players)
    bar = tqdm(total=games, unit="game", disable=(None if progress is None else not progress), leave=False)
    t0 = time.perf_counter()
    try:
        for i in range(games):
            s = game_seed(seed, i)
            if run is not None:
                g = run(s)
            elif player == "equity":
                from engine.game.selfplay import play_equity_game

                g = play_equity_game(lexicon, s, tables, rules)
            else:
                g = play_game(lexicon, s, players, rules, lexicon_name=lexicon_name, kernel=False)
            stats.add(g)
            if out is not None:
                rec = g.record()
                rec.notes["description"] = f"engine self-play ({player} players), run seed {seed}, game {i}"
                write_gcg_file(out / f"game_{i:05d}.gcg", rec)
            if on_game is not None:
                on_game(i, g.to_game() if run is not None else g)
            bar.update(1)
    finally:
        bar.close()
    stats.seconds = time.perf_counter() - t0
    return stats


def _kernel_runner(lexicon, tables, rules, lexicon_name):
    """``seed -> finished KernelGame`` with the constants and players prepared once."""
    from engine.game.kernel_game import KernelConstants, KernelPlayers, play_kernel_game

    consts = KernelConstants(lexicon)
    kp = KernelPlayers(tables)

    def run(seed: int):
        return play_kernel_game(lexicon, seed, rules=rules, consts=consts, players=kp, lexicon_name=lexicon_name)

    return run


def play_equity_game(lexicon, seed: int, tables: Sequence[LeaveTable | None], rules=None,
                     record: bool = False, max_turns: int = 1000, params: Sequence[EquityParams | None] | None = None,
                     kernel: bool | None = None):
    """Play one game; seat ``i`` uses ``tables[i]`` (``None``: the pure score player).

    Args:
        lexicon: the word list.
        seed: the bag's seed.
        tables: one leave table (or ``None``) per player; 2–4 players.
        rules: the variant (default home rules).
        record: also return a :class:`DecisionLog`.
        params: per seat equity parameters (default: each table's own).
        kernel: play the game in the game kernel (:func:`engine.game.kernel_game.play_kernel_game`:
            the same moves and the same decision log); ``None`` (default) or
            ``True``: the kernel; ``False``: move by move in :class:`engine.game.game.Game` (the reference).

    Returns:
        the finished :class:`engine.game.game.Game`, and the log when ``record``.

    Raises:
        ValueError: a player count the rules do not allow.
    """
    rules = rules or HOME
    if kernel is None:
        kernel = True
    if kernel:
        from engine.game.kernel_game import play_kernel_game

        kg = play_kernel_game(lexicon, seed, list(tables), rules, params=params, max_turns=max_turns, log=record)
        return (kg.to_game(), kg.decision_log()) if record else kg.to_game()
    g = Game(len(tables), lexicon, rules=rules, seed=seed, keep_undo=False)
    params = list(params) if params is not None else [None] * len(tables)
    a = g.alphabet
    index = None
    for t in tables:
        if t is not None:
            index = t.index
    if record and index is None:
        from engine.leaves.table import leave_index

        index = leave_index(a)
    rows = []
    while not g.over:
        p = g.to_move
        bag = len(g.bag)
        table = tables[p]
        cand = choose(g, table, params[p])
        if record:
            rack = g.racks[p]
            if cand.kind == "pass":
                rank, kind = -3, 2
                keep = rack.astype(np.int64)
            else:
                keep = index.counts(cand.leave)
                rank = int(LK.rank_counts(keep, index.H, index.cap))
                kind = 0 if cand.kind == "play" else 1
            if bag <= 0:
                nk = int(keep.sum())
                pr = params[p] or EquityParams.of(table)
                if nk == 0:
                    fixed = _out_bonus_after(g, p)
                else:
                    fixed = -(2.0 * float((keep * index.tile_values).sum()) + pr.stuck_penalty)
            else:
                fixed = np.nan
            rows.append((p, kind, rank, bag, cand.score, fixed))
        apply(g, cand)
        if len(g.turns) >= max_turns and not g.over:
            g.end_by_agreement()
    if not record:
        return g
    reason = g.end_reason
    vals = [float((r * a.values).sum()) for r in g.racks]
    if reason == "out":
        final = [0.0 if not g.racks[q].any() else -2.0 * vals[q] for q in range(g.n)]
    else:
        final = [-vals[q] for q in range(g.n)]
    arr = np.array(rows, dtype=np.float64).reshape(-1, 6)
    player = arr[:, 0].astype(np.int8)
    nxt = np.full(len(rows), -1, dtype=np.int64)
    end = np.zeros(len(rows), dtype=np.float32)
    last: dict[int, int] = {}
    for i in range(len(rows) - 1, -1, -1):
        q = int(player[i])
        if q in last:
            nxt[i] = last[q]
        else:
            end[i] = final[q]
        last[q] = i
    log = DecisionLog(player, arr[:, 1].astype(np.int8), arr[:, 2].astype(np.int32), arr[:, 3].astype(np.int16),
                      arr[:, 4].astype(np.int16), arr[:, 5].astype(np.float32), nxt, end)
    return g, log


def _out_bonus_after(game, p: int) -> float:
    """Going-out bonus for player ``p`` now: twice the other racks' face value (bag empty)."""
    a = game.alphabet
    return 2.0 * float(sum(int((r * a.values).sum()) for q, r in enumerate(game.racks) if q != p))


def match_summary(spreads, scores_a=None, scores_b=None) -> dict:
    """A match between player A and player B from A's point of view.

    Args:
        spreads: per game, A's score minus B's.
        scores_a, scores_b: per game scores (optional, for the means).

    Returns:
        ``games``, ``mean_spread`` with a 95% normal interval ``spread_ci95``,
        ``win_rate`` (draws count half) with a 95% Wilson interval ``win_ci95``,
        ``wins``/``draws``/``losses`` and the mean scores when given.
    """
    sp = np.asarray(spreads, dtype=np.float64)
    n = len(sp)
    if n == 0:
        raise ValueError("no games")
    wins, draws = int((sp > 0).sum()), int((sp == 0).sum())
    p = (wins + 0.5 * draws) / n
    z = 1.96
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    se = sp.std(ddof=1) / np.sqrt(n) if n > 1 else 0.0
    out = {"games": n, "mean_spread": round(float(sp.mean()), 2),
           "spread_ci95": [round(float(sp.mean() - z * se), 2), round(float(sp.mean() + z * se), 2)],
           "win_rate": round(p, 4), "win_ci95": [round(float(centre - half), 4), round(float(centre + half), 4)],
           "wins": wins, "draws": draws, "losses": n - wins - draws}
    if scores_a is not None:
        out["mean_score_a"] = round(float(np.mean(scores_a)), 2)
    if scores_b is not None:
        out["mean_score_b"] = round(float(np.mean(scores_b)), 2)
    return out
