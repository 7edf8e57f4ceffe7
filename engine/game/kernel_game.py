"""Games played in Numba kernels (:mod:`engine.game._kgame`): self-play without Python per move.

:class:`KernelGame` holds a game as arrays (board, cross-checks, bag, racks,
scores, the MT19937 state of the bag) and plays it to the end with static
players in one kernel call (:meth:`KernelGame.play`). The result converts to
the friendly objects on demand: :meth:`KernelGame.turns` (score-pad entries,
equal to those of :class:`engine.game.game.Game`), :meth:`KernelGame.record` (for
GCG files) and :meth:`KernelGame.to_game` (a finished :class:`~engine.game.game.Game`).

*Same seed, same game.* ``KernelGame(lexicon, seed=S)`` seeds the kernel's
Mersenne Twister as ``random.Random(S)`` is seeded, starts from the bag list of
:class:`engine.game.game.Bag`, and its kernel draws exactly as
:meth:`engine.game.game.Bag.draw` does (CPython's seeding and ``random()``
reimplemented), so it plays move for move the game that
``Game(n, lexicon, seed=S)`` with the same players plays:
:func:`engine.game.selfplay.play_game` (score players) and
:func:`engine.game.selfplay.play_equity_game` (equity players, with the leave table
faded near the end of the bag as :mod:`engine.game.equity` does).

Players per seat: ``None`` (the best-score player of :mod:`engine.game.selfplay`)
or a :class:`~engine.leaves.table.LeaveTable` (the static equity player of
:func:`engine.game.equity.choose`), see :class:`KernelPlayers`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from lexicon_tools.alphabet import Alphabet, german

from engine.game import _kgame as KG
from engine.game.equity import EquityParams
from engine.position.board import N, Board, Layout, standard_layout
from engine.game.game import HOME, Game, GameRecord, GameResult, Kind, Rules, Turn, _result
from engine.position.moves import Move, _notation

__all__ = ["KernelConstants", "KernelPlayers", "KernelGame", "play_kernel_game", "DecisionLog"]

_REASONS = {KG.REASON_OUT: "out", KG.REASON_PASSES: "passes", KG.REASON_AGREEMENT: "agreement"}


class KernelConstants:
    """The fixed arrays of the game kernels for one lexicon, tile set and layout.

    Attributes:
        kwg: uint32 node array of the lexicon (GADDAG at node 1).
        vals: int64 (n_letters + 1,) tile values; ``all_mask`` uint32 bits 1..n.
        upper, lower: int64 (n_letters + 1,) code points of each letter (tie-breaks by notation).
        lm0, wm0: int32 (15, 15) premium squares of the layout.
        rack_size, bingo_bonus: 7 and 50 for the German set.
        wmap: uint64 word map of the lexicon (:func:`engine.movegen.generator.word_map`).

    Raises:
        ValueError: the lexicon's alphabet is not the tile set.
    """

    def __init__(self, lexicon, alphabet: Alphabet | None = None, layout: Layout | None = None):
        a = alphabet or getattr(lexicon, "alphabet", None) or german()
        la = getattr(lexicon, "alphabet", None)
        if la is not None and la.letters != a.letters:
            raise ValueError(f"lexicon uses the {la.name} alphabet, the game {a.name}")
        graph = getattr(lexicon, "graph", None)
        if graph is None:
            raise ValueError("kernel games need a lexicon with a move-generation graph (.graph)")
        self.alphabet = a
        self.layout = layout or standard_layout()
        self.kwg = graph
        self.vals = a.values.astype(np.int64)
        self.all_mask = np.uint32(((1 << (a.size + 1)) - 1) & ~1)
        self.upper = np.zeros(a.size + 1, dtype=np.int64)
        self.lower = np.zeros(a.size + 1, dtype=np.int64)
        for i, ch in enumerate(a.letters):
            self.upper[i + 1] = ord(ch)
            self.lower[i + 1] = ord(ch.lower())
        self.lm0 = self.layout.letter_mult.astype(np.int32)
        self.wm0 = self.layout.word_mult.astype(np.int32)
        self.rack_size = int(a.rack_size)
        self.bingo_bonus = int(a.bingo_bonus)
        from engine.movegen import _movegen as K

        empty = np.zeros((N, N), dtype=np.uint8)
        self.empty_checks = K.all_cross_checks(self.kwg, empty, np.zeros((N, N), dtype=np.int32), self.all_mask)
        from engine.movegen.generator import word_map

        self.wmap = word_map(lexicon)  # the best-first bounds' word map (engine.movegen._wordmap)


class KernelPlayers:
    """The static players of a kernel game, one per seat, as arrays.

    Args:
        tables: per seat ``None`` (best-score player) or a
            :class:`~engine.leaves.table.LeaveTable` (static equity player).
        params: per seat :class:`engine.game.equity.EquityParams` (default: each table's own).

    Attributes:
        kinds: int64 (n,) :data:`engine.game._kgame.PLAYER_SCORE` / ``PLAYER_EQUITY``.
        values: float32 (n, n_leaves) leave values per seat (a broadcast view when all seats share a table).
        eqp: float64 (n, 4) bag ramp, floor, stuck penalty, 7-tile term per seat.
        stuck: float64 (n,) the stuck penalty per seat (score seats too: their decision logs use it).
        H, cap, tile_values: the leave index's ranking tables; P their prefix sums (:func:`engine.game._kgame.rank_prefix`).

    Raises:
        ValueError: a seat that is neither ``None`` nor a LeaveTable; tables of different tile sets.
    """

    def __init__(self, tables: Sequence, params: Sequence | None = None):
        from engine.leaves.table import LeaveTable, leave_index

        tables = list(tables)
        n = len(tables)
        for p, t in enumerate(tables):
            if t is not None and not isinstance(t, LeaveTable):
                raise ValueError(f"player {p + 1}: a LeaveTable or None (best score), not {type(t).__name__}")
        params = list(params) if params is not None else [None] * n
        if len(params) != n:
            raise ValueError(f"{len(params)} equity parameter sets for {n} players")
        self.n = n
        self.tables = tables
        self.kinds = np.array([KG.PLAYER_SCORE if t is None else KG.PLAYER_EQUITY for t in tables], dtype=np.int64)
        self.eqp = np.zeros((n, 4))
        used = [t for t in tables if t is not None]
        index = used[0].index if used else leave_index()
        for t in used:
            if t.index.alphabet.letters != index.alphabet.letters:
                raise ValueError("the players' leave tables are for different tile sets")
        self.stuck = np.zeros(n)
        for p, t in enumerate(tables):
            ep = params[p] or EquityParams.of(t)
            self.stuck[p] = ep.stuck_penalty
            if t is not None:
                self.eqp[p] = (ep.bag_ramp, ep.bag_floor, ep.stuck_penalty, ep.seven)
        if used and all(t is used[0] for t in used):
            self.values = np.broadcast_to(np.asarray(used[0].values, dtype=np.float32), (n, index.size))
        else:
            self.values = _strided_values(n, index.size if used else 1)
            for p, t in enumerate(tables):
                if t is not None:
                    self.values[p] = t.values
            self.values.flags.writeable = False
        self.H = index.H
        self.cap = index.cap
        self.P = KG.rank_prefix(index.H, index.cap)
        self.tile_values = index.tile_values


def _strided_values(n: int, size: int) -> np.ndarray:
    """A zeroed float32 (n, size) array whose rows are not contiguous (one spare column), so that the kernel sees
    the same array type (Numba layout ``A``, read-only once filled) as for the shared table, a broadcast view:
    :func:`engine.game._kgame.play_game` is then compiled once, not once per layout (about 20 s of CPU saved
    in ``python -m engine warmup``, issue 27 part 5)."""
    return np.zeros((n, size + 1), dtype=np.float32)[:, :size]


class KernelGame:
    """A game between static players, as arrays, played by :func:`engine.game._kgame.play_game`.

    Args:
        lexicon: the word list (:class:`lexicon_tools.bundle.Lexicon`).
        seed: the bag's seed (as :class:`engine.game.game.Game`; ``None``: random, kept in ``seed``).
        players: number of players (2–4) or their nicknames.
        rules: the variant (exchange limit, end of the game by passes).
        consts: :class:`KernelConstants` to reuse (made from ``lexicon`` otherwise).
        lexicon_name: name written to records.

    Attributes:
        tiles, blanks, tvals, lm, wm, cs, xs, hx, racks, scores, bag, meta, mt:
            the state arrays (see :mod:`engine.game._kgame`).
        rec: int32 (rows, REC_WIDTH) the score pad as recorded by the kernel.

    Raises:
        ValueError: player count outside the rules' range, bad names, a
            lexicon that does not fit the tile set.
    """

    def __init__(self, lexicon, seed: int | None = None, players: int | Sequence[str] = 2, rules: Rules = HOME,
                 consts: KernelConstants | None = None, lexicon_name: str | None = None):
        from engine.game.game import _lexicon_name

        names = [f"p{i + 1}" for i in range(players)] if isinstance(players, int) else [str(p) for p in players]
        n = len(names)
        if not rules.min_players <= n <= rules.max_players:
            raise ValueError(f"{rules.name} rules: {rules.min_players} to {rules.max_players} players, got {n}")
        if len(set(names)) != n or any(not p or any(ch.isspace() for ch in p) for p in names):
            raise ValueError(f"player names must be distinct and without spaces: {names}")
        self.consts = consts or KernelConstants(lexicon)
        self.lexicon = lexicon
        self.lexicon_name = lexicon_name if lexicon_name is not None else _lexicon_name(lexicon)
        self.players = names
        self.n = n
        self.rules = rules
        a = self.consts.alphabet
        if seed is None:
            seed = random.SystemRandom().randrange(2 ** 63)
        self.seed = int(seed)
        T = a.size + 1
        self.tiles = np.zeros((N, N), dtype=np.uint8)
        self.blanks = np.zeros((N, N), dtype=np.uint8)
        self.tvals = np.zeros((N, N), dtype=np.int32)
        self.lm = self.consts.lm0.copy()
        self.wm = self.consts.wm0.copy()
        self.cs, self.xs, self.hx = (a.copy() for a in self.consts.empty_checks)
        self.racks = np.zeros((n, T), dtype=np.int64)
        self.scores = np.zeros(n, dtype=np.int64)
        self.bag = np.zeros(int(a.total_tiles) + 8, dtype=np.int64)
        full = np.repeat(np.arange(T, dtype=np.int64), a.counts.astype(np.int64))
        self.bag[: full.shape[0]] = full
        self.meta = np.zeros(KG.META_SIZE, dtype=np.int64)
        self.meta[KG.M_BAGN] = full.shape[0]
        self.mt = np.zeros(624, dtype=np.int64)
        KG.mt_seed(self.mt, self.meta, _seed_key(self.seed))
        if not KG.start_game(self.bag, self.meta, self.mt, self.racks, self.consts.rack_size):
            from engine.game.game import GameError

            raise GameError("the draw for the first move keeps tying (a bag of identical tiles?)")
        self.first = int(self.meta[KG.M_FIRST])
        self.rec = np.zeros((0, KG.REC_WIDTH), dtype=np.int32)

    # -- playing ------------------------------------------------------------------
    def play(self, players: KernelPlayers, max_turns: int = 1000, log: bool = False) -> "KernelGame":
        """Play to the end (one kernel call); returns ``self``.

        With ``log`` the kernel also records every decision for the leave fit
        (``dlog``, read with :meth:`decision_log`).

        Raises:
            ValueError: ``players`` has another number of seats; ``max_turns < 1``.
        """
        if players.n != self.n:
            raise ValueError(f"{players.n} players given for a game of {self.n}")
        if max_turns < 1:
            raise ValueError(f"max_turns must be at least 1, got {max_turns}")
        c = self.consts
        self.rec = np.zeros((max_turns + self.n + 2, KG.REC_WIDTH), dtype=np.int32)
        self.dlog = np.zeros((max_turns + 1 if log else 0, KG.LOG_WIDTH), dtype=np.int32)
        self.stuck = players.stuck
        KG.play_game(c.kwg, c.vals, c.all_mask, c.rack_size, c.bingo_bonus, c.upper, c.lower, c.lm0, c.wm0,
                     self.tiles, self.blanks, self.tvals, self.lm, self.wm, self.cs, self.xs, self.hx,
                     self.racks, self.scores, self.bag, self.meta, self.mt,
                     players.kinds, players.values, players.H, players.cap, players.P, players.eqp, players.tile_values,
                     int(self.rules.min_bag_for_exchange), int(self.rules.end_pass_rounds), int(max_turns), self.rec,
                     c.wmap, self.dlog)
        self.rec = self.rec[: int(self.meta[KG.M_NREC])]
        self.dlog = self.dlog[: int(self.meta[KG.M_NLOG])]
        return self

    def decision_log(self):
        """The decisions of a game played with ``play(..., log=True)`` as an
        :class:`engine.game.kernel_game.DecisionLog` (the log ``play_equity_game(..., record=True)``
        makes for the same game).

        Raises:
            ValueError: the game was not played with ``log=True`` or is not over.
        """

        if not self.over or getattr(self, "dlog", None) is None or (len(self.dlog) == 0 and len(self.rec)):
            raise ValueError("no decision log: play the game to the end with log=True")
        d = self.dlog
        player = d[:, KG.L_PLAYER].astype(np.int8)
        rank = d[:, KG.L_RANK]
        bag = d[:, KG.L_BAG]
        fixed = np.where(rank == -1, d[:, KG.L_BONUS].astype(np.float64),
                         -(2.0 * d[:, KG.L_FACE] + self.stuck[d[:, KG.L_PLAYER]]))
        fixed = np.where(bag <= 0, fixed, np.nan).astype(np.float32)
        vals = (self.racks * self.consts.vals[None, :]).sum(axis=1).astype(np.float64)
        if self.end_reason == "out":
            final = np.where(self.racks.sum(axis=1) == 0, 0.0, -2.0 * vals)
        else:
            final = -vals
        nxt, end = _next_and_end(player, final, self.n)
        return DecisionLog(player, d[:, KG.L_KIND].astype(np.int8), rank.astype(np.int32), bag.astype(np.int16),
                           d[:, KG.L_SCORE].astype(np.int16), fixed, nxt, end)

    # -- queries ------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return bool(self.meta[KG.M_OVER])

    @property
    def end_reason(self) -> str | None:
        return _REASONS.get(int(self.meta[KG.M_REASON]))

    @property
    def to_move(self) -> int:
        return int(self.meta[KG.M_TOMOVE])

    @property
    def bag_count(self) -> int:
        return int(self.meta[KG.M_BAGN])

    def result(self) -> GameResult:
        """The outcome (:class:`engine.game.game.GameResult`); meaningful once the game is over."""
        return _result([int(s) for s in self.scores], self.end_reason or "", (), self.rules)

    def counts(self) -> dict:
        """Fast statistics from the record: ``turns`` (plays, exchanges, passes), ``plays``, ``bingos``."""
        k = self.rec[:, KG.R_KIND]
        plays = k == KG.KIND_PLAY
        return {"turns": int((k <= KG.KIND_PASS).sum()), "plays": int(plays.sum()),
                "bingos": int((self.rec[plays, KG.R_MOVE + KG.OUT_NTILES] == self.consts.rack_size).sum())}

    def turns(self) -> list[Turn]:
        """The score pad as :class:`engine.game.game.Turn` entries (those :class:`engine.game.game.Game` records)."""
        a = self.consts.alphabet
        letters = a.letters
        T = a.size + 1
        board = self.board()

        def rstr(counts) -> str:  # Alphabet.rack_string on a list (letters in code order, blanks last)
            return "".join([letters[c - 1] * k for c, k in enumerate(counts) if k and c]) + "?" * counts[0]

        out = []
        for r in self.rec.tolist():
            kind, p, score, total = r[KG.R_KIND], r[KG.R_PLAYER], r[KG.R_SCORE], r[KG.R_TOTAL]
            rack = r[KG.R_RACK: KG.R_RACK + T]
            rs = rstr(rack)
            drawn = "".join(["?" if c == 0 else letters[c - 1] for c in r[KG.R_DRAWN: KG.R_DRAWN + r[KG.R_NDRAWN]]])
            if kind == KG.KIND_PLAY:
                out.append(Turn(Kind.PLAY, p, rs, score, total, move=self._move(r, board, rack, rstr), drawn=drawn))
            elif kind == KG.KIND_EXCHANGE:
                out.append(Turn(Kind.EXCHANGE, p, rs, 0, total, exchanged=rstr(r[KG.R_EXCH: KG.R_EXCH + T]),
                                drawn=drawn))
            elif kind == KG.KIND_PASS:
                out.append(Turn(Kind.PASS, p, rs, 0, total))
            elif kind == KG.KIND_RACK:
                out.append(Turn(Kind.RACK, p, rs, score, total))
            else:
                out.append(Turn(Kind.OUT, p, rs, score, total))
        return out

    def _move(self, r, board: Board, rack: list, rstr) -> Move:
        row = r[KG.R_MOVE: KG.R_MOVE + KG.OUT_WIDTH]
        r0, c0, d, ln = row[KG.OUT_ROW], row[KG.OUT_COL], row[KG.OUT_DIR], row[KG.OUT_LEN]
        dr, dc = (0, 1) if d == 0 else (1, 0)
        letters = self.consts.alphabet.letters
        word, through = [], []
        leave = list(rack)
        for k in range(ln):
            t = row[KG.OUT_TILES + k]
            if t == 0:
                word.append(board.letter_at(r0 + dr * k, c0 + dc * k))
                through.append(True)
            else:
                code = t & ~KG.BLANK_FLAG
                if t & KG.BLANK_FLAG:
                    word.append(letters[code - 1].lower())
                    leave[0] -= 1
                else:
                    word.append(letters[code - 1])
                    leave[code] -= 1
                through.append(False)
        return Move(r0, c0, d, "".join(word), tuple(through), row[KG.OUT_SCORE], rstr(leave))

    def notations(self) -> list[str]:
        """Notation of every player turn in order (``8H WORD``, ``-ABC`` exchange, ``-`` pass)."""
        out = []
        for t in self.turns():
            if t.kind == Kind.PLAY:
                out.append(_notation(t.move.row, t.move.col, t.move.direction, t.move.word, t.move.through))
            elif t.kind == Kind.EXCHANGE:
                out.append(f"-{t.exchanged}")
            elif t.kind == Kind.PASS:
                out.append("-")
        return out

    def board(self) -> Board:
        """The current board as a :class:`engine.position.board.Board`."""
        b = Board(self.consts.alphabet, self.consts.layout)
        b.tiles[:] = self.tiles
        b.blanks[:] = self.blanks.astype(bool)
        return b

    def record(self) -> GameRecord:
        """The game as a :class:`engine.game.game.GameRecord` (what :func:`engine.game.gcg.write_gcg` writes)."""
        a = self.consts.alphabet
        return GameRecord(players=list(self.players), turns=self.turns(), rules=self.rules, alphabet=a,
                          lexicon=self.lexicon_name, seed=self.seed,
                          final_racks=[a.rack_string(r) for r in self.racks], end_reason=self.end_reason)

    def to_game(self) -> Game:
        """A :class:`engine.game.game.Game` in this game's state (board, racks, bag and its RNG, scores, score pad)."""
        g = Game(self.players, self.lexicon, rules=self.rules, seed=self.seed, alphabet=self.consts.alphabet,
                 layout=self.consts.layout, keep_undo=False, lexicon_name=self.lexicon_name)
        g.board.tiles[:] = self.tiles
        g.board.blanks[:] = self.blanks.astype(bool)
        for p in range(self.n):
            g.racks[p][:] = self.racks[p]
        g.bag._tiles = [int(t) for t in self.bag[: self.bag_count]]
        g.bag._rng.setstate((3, tuple(int(v) for v in self.mt) + (int(self.meta[KG.M_MTPOS]),), None))
        g.scores = [int(s) for s in self.scores]
        g.turns = self.turns()
        g.to_move = self.to_move
        g.over = self.over
        g.end_reason = self.end_reason
        g._passes = int(self.meta[KG.M_PASSES])
        g._scoreless = int(self.meta[KG.M_SCORELESS])
        g._checks = None
        return g


def _next_and_end(player: np.ndarray, final: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Per decision the index of the same player's next decision (-1: none) and, for a
    player's last decision, ``final[player]`` (0 elsewhere)."""
    m = player.shape[0]
    nxt = np.full(m, -1, dtype=np.int64)
    end = np.zeros(m, dtype=np.float32)
    for q in range(n):
        idx = np.flatnonzero(player == q)
        if idx.size:
            nxt[idx[:-1]] = idx[1:]
            end[idx[-1]] = final[q]
    return nxt, end


def _seed_key(seed: int) -> np.ndarray:
    """The key CPython's ``random.seed`` gives ``init_by_array``: 32-bit words of ``abs(seed)``, low first."""
    n = abs(int(seed))
    words = [(n >> (32 * i)) & 0xFFFFFFFF for i in range(max(1, (n.bit_length() + 31) // 32))]
    return np.array(words, dtype=np.int64)


def play_kernel_game(lexicon, seed: int, tables: Sequence | int = 2, rules: Rules = HOME,
                     params: Sequence | None = None, max_turns: int = 1000, names=None,
                     consts: KernelConstants | None = None, players: KernelPlayers | None = None,
                     lexicon_name: str | None = None, log: bool = False) -> KernelGame:
    """Play one whole game in the kernel.

    Args:
        lexicon: the word list.
        seed: the bag's seed (the same game as :class:`engine.game.game.Game` with this seed).
        tables: per seat ``None`` (score player) or a leave table (equity
            player); an int ``n``: ``n`` score players.
        rules: the variant.
        params: per seat equity parameters (default: each table's own).
        max_turns: the players agree to end the game after this many entries.
        names: player nicknames.
        consts, players: prepared :class:`KernelConstants` / :class:`KernelPlayers` to reuse.
        log: record the decisions (:meth:`KernelGame.decision_log`).

    Returns:
        the finished :class:`KernelGame`.
    """
    if isinstance(tables, int):
        tables = [None] * tables
    if players is None:
        players = KernelPlayers(tables, params)
    g = KernelGame(lexicon, seed, names or players.n, rules, consts=consts, lexicon_name=lexicon_name)
    return g.play(players, max_turns, log=log)


@dataclass
class DecisionLog:
    """Every decision of one or more games, as arrays, for leave generation.

    Attributes:
        player: int8 seat of the mover.
        kind: int8 0 play, 1 exchange, 2 pass.
        rank: int32 rank of the leave kept (-1 empty, -3 pass: the whole rack kept).
        bag: int16 tiles in the bag before the decision.
        score: int16 points scored.
        fixed: float32 leave term when the bag was empty (it does not depend on
            the table), NaN otherwise.
        next: int64 index of the same player's next decision, -1 if none.
        end: float32 for a player's last decision, what the end of the game did
            to the player's spread afterwards: 0 if the player went out, -2 ×
            rack value if another player went out, -rack value after passes.
    """

    player: np.ndarray
    kind: np.ndarray
    rank: np.ndarray
    bag: np.ndarray
    score: np.ndarray
    fixed: np.ndarray
    next: np.ndarray
    end: np.ndarray

    def __len__(self) -> int:
        return int(self.player.shape[0])

    @classmethod
    def concat(cls, logs: Sequence["DecisionLog"]) -> "DecisionLog":
        """Several games' logs as one (``next`` indices shifted)."""
        if not logs:
            e = np.zeros(0)
            return cls(e.astype(np.int8), e.astype(np.int8), e.astype(np.int32), e.astype(np.int16),
                       e.astype(np.int16), e.astype(np.float32), e.astype(np.int64), e.astype(np.float32))
        off = np.cumsum([0] + [len(g) for g in logs[:-1]])
        nxt = np.concatenate([np.where(g.next >= 0, g.next + o, -1) for g, o in zip(logs, off)])
        cat = lambda f: np.concatenate([getattr(g, f) for g in logs])  # noqa: E731
        return cls(cat("player"), cat("kind"), cat("rank"), cat("bag"), cat("score"), cat("fixed"), nxt, cat("end"))

    def terms(self, values: np.ndarray, params: EquityParams) -> np.ndarray:
        """Each decision's leave term under ``values`` (fixed terms where the bag was empty)."""
        bag = self.bag.astype(np.float64)
        if params.bag_ramp <= 0:
            scale = np.ones_like(bag)
        else:
            scale = params.bag_floor + (1.0 - params.bag_floor) * np.minimum(1.0, bag / params.bag_ramp)
        v = np.zeros(len(self))
        ok = self.rank >= 0
        v[ok] = np.asarray(values, dtype=np.float64)[self.rank[ok]]
        v[self.rank == -3] = params.seven
        return np.where(np.isnan(self.fixed), scale * v, self.fixed)

    def targets(self, values: np.ndarray, params: EquityParams) -> np.ndarray:
        """TD(0) targets for every decision: the equity of the same player's next
        decision (its score + leave term under ``values``), or the end-of-game
        settlement when the player does not move again."""
        eq = self.score + self.terms(values, params)
        return np.where(self.next >= 0, eq[np.maximum(self.next, 0)], self.end)
