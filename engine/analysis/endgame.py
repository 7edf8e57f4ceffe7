"""Endgame solver: the exact best move when the bag is empty and both racks are known.

:func:`solve` runs iterative deepening over the negamax kernel of
:mod:`engine.analysis._endgame` (alpha-beta on spread, Zobrist transposition table,
move ordering, passes, German settlement as in SPEC.md "End of game") and
returns the best move, its value and the principal variation.

Value convention: the spread the side to move gains from now to the end of
the game, the settlement included (the player going out gains the opponent's
rack value and the opponent loses it; after four consecutive passes each side
loses its own rack). Scores already on the pad do not enter.

The CGP's scoreless-turn field is read as the number of consecutive passes
so far (with the bag empty only passes and 0-point plays are scoreless; the
game ends after four passes in a row, both players passing twice).
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Callable

import numpy as np

from lexicon_tools.bundle import Lexicon
from lexicon_tools.kwg import build_kwg_from_codes

from engine.analysis import _endgame as E
from engine.movegen import _movegen as K
from engine.analysis import _wordprune as P
from engine.position.board import Board
from engine.position.cgp import Position, parse_cgp
from engine.interrupt import call_interruptible, on_ctrl_c
from engine.position.moves import MoveList

DEFAULT_TT_BITS = 21
CLOCKS = ("wall", "cpu")
"""Clocks a time limit can be read on (:func:`solve` ``clock``)."""
MAX_DEPTH = E.MAXPLY - 4
ORDER_WEIGHTS = (4, 1, 0)
HISTORY = (1, 1 << 20)
"""History heuristic: weight of a move's cut-off count in its ordering key (0 = off) and the count's cap."""
INCREMENTAL = True
KILLER_STAGE = 1
"""Killers tried (0, 1 or 2) at a node without a table move before its moves are generated; each is
found legal, with its present score, by generating only its line (``_endgame._stage_killer``)."""
PASS_FIRST = False
"""After the opponent's pass, order the pass first (after the table's move and a staged killer)."""
KILLER_ADAPT = False
"""Stage killers at a ply only while they cut often there (``_endgame.C_KADAPT``)."""
CONSERVE = False
"""Conservation ordering when a side holds stuck tiles at the root (:meth:`_State.set_conservation`)."""
CONSERVE_WEIGHTS = (28, 8)
"""Conservation: ordering-key units (``ORDER_WEIGHTS[0]`` per point scored) per tile and per tile point played."""
PRUNE = True
"""Generate moves over the pruned lexicon of :func:`pruned_graph` once a solve has searched
``PRUNE_AFTER_NODES`` nodes (short solves do not pay the build, up to ~0.7 s with a blank)."""
PRUNE_AFTER_NODES = 20_000
"""Incremental move lists: a node reuses the moves of the same side two plies up (``_endgame._gen_node``)."""
"""Move ordering key per move: weights of points scored, tiles played, points of the tiles played."""


@dataclass
class EndgameResult:
    """Outcome of :func:`solve`.

    Attributes:
        move: the best move in notation (``"8H WO(R)D"``, or ``"pass"``).
        value: spread the side to move gains from now to the end (settlement included).
        pv: principal variation in notation, first move first (``"pass"`` for a pass).
        depth: plies of the last completed search: its depth limit, or the longest
            line it searched when the game ended before the limit on every line.
        complete: True when the search reached the end of the game on every line
            (the value is exact), False when a depth or time limit stopped it.
        nodes: nodes searched in total; seconds: wall time; cpu_seconds: CPU time of the
            solve (the caller's thread and the kernel's thread).
        iterations: per completed depth ``(depth, value, move, nodes, seconds)``.
        stopped: why the search ended before the end of the game: ``"time"`` (the time
            limit, on the clock of ``clock``), ``"nodes"`` (the node limit), ``"depth"``
            (``max_depth``) or ``"interrupt"`` (Ctrl-C); ``None`` when ``complete``. A
            stopped search's move and value are those of its deepest completed depth, a
            depth-limited estimate (leaves valued by the racks' difference), not the answer.
        clock: ``"wall"`` or ``"cpu"``, the clock the time limit was read on.
        pruned: True when the last depths generated moves over the pruned lexicon (:func:`pruned_graph`).
    """

    move: str
    value: int
    pv: list[str]
    depth: int
    complete: bool
    nodes: int = 0
    seconds: float = 0.0
    iterations: list[tuple] = field(default_factory=list)
    stopped: str | None = None
    cpu_seconds: float = 0.0
    clock: str = "wall"
    pruned: bool = False

    def to_json(self) -> dict:
        """The CLI's JSON object: move, value, pv, depth, complete, stopped (None when complete), nodes,
        seconds (wall) and cpu_seconds."""
        return {"move": self.move, "value": int(self.value), "pv": list(self.pv), "depth": int(self.depth),
                "complete": bool(self.complete), "stopped": self.stopped, "nodes": int(self.nodes),
                "seconds": round(float(self.seconds), 3), "cpu_seconds": round(float(self.cpu_seconds), 3)}

    def status(self) -> str:
        """One line saying whether the value is exact, and if not what stopped the search (for people)."""
        from engine.lang import tr  # in the run's language (the CLI's --lang)

        if self.complete:
            return tr("solved to the end of the game (exact), {nodes:,} nodes", nodes=self.nodes)
        why = {"time": tr("the time limit ({clock} clock)", clock=tr(self.clock)), "nodes": tr("the node limit"),
               "depth": tr("the depth limit"), "interrupt": tr("Ctrl-C")}.get(self.stopped, tr("a limit"))
        return tr("NOT SOLVED: stopped by {why} after depth {depth}, {nodes:,} nodes; the move and value are the "
                  "estimate of a {depth}-ply search, not the exact answer", why=why, depth=self.depth, nodes=self.nodes)


class SearchInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped :func:`solve`; ``result`` is the answer of the deepest completed depth.

    A :class:`KeyboardInterrupt`, so code that does not look for it still stops;
    ``result.complete`` is False unless that depth had already reached the end.
    """

    def __init__(self, result: "EndgameResult") -> None:
        super().__init__("interrupted")
        self.result = result


def endgame_position(pos: Position) -> Position:
    """The position with the opponent's rack filled in and checked for an endgame.

    With the bag empty the unseen tiles are exactly the opponent's rack, so a
    missing opponent rack is taken to be the unseen tiles; a given one must
    equal them.

    Raises:
        ValueError: the bag is not empty (``bag`` opcode, or more than 7
            unseen tiles), the board and racks hold more of a tile than the
            German set has, the opponent's rack does not match the unseen
            tiles, a rack is empty (the game is over), or four passes already
            ended it.
    """
    a = pos.alphabet
    if "bag" in pos.opcodes and int(pos.opcodes["bag"]) != 0:
        raise ValueError(f"endgame: the bag must be empty (opcode bag {pos.opcodes['bag']})")
    unseen = pos.unseen()
    over = unseen if pos.opponent_rack is None else unseen - pos.opponent_rack
    if (over < 0).any():
        c = int(np.nonzero(over < 0)[0][0])
        name = a.letter(c) if c else "blank"
        raise ValueError(f"endgame: more {name} tiles on the board and racks than the "
                         f"{a.name.capitalize()} set holds ({int(a.counts[c])})")
    if pos.opponent_rack is None:
        if unseen.sum() > a.rack_size:
            raise ValueError(f"endgame: the bag must be empty, but {int(unseen.sum())} tiles are unseen "
                             f"(at most {a.rack_size} can be on the opponent's rack)")
        pos = replace(pos, opponent_rack=unseen.astype(np.int32))
    elif over.sum() > 0:
        raise ValueError(f"endgame: the bag must be empty, but {int(over.sum())} tiles of the "
                         f"{a.name.capitalize()} set are not on the board or the racks ({a.rack_string(over)})")
    if not pos.rack.any() or not pos.opponent_rack.any():
        raise ValueError("endgame: a rack is empty, the game is already over")
    if pos.zero_turns >= E.END_PASSES:
        raise ValueError(f"endgame: {pos.zero_turns} consecutive passes, the game is already over")
    return pos


def depth_schedule(limit: int) -> list[int]:
    """Depths searched in turn: 1, 2, 3, 4, 6 (those below ``limit``), then ``limit`` itself.

    Shallow searches fill the table's best moves for ordering; then one
    search to the limit. Intermediate deep searches cost more than they save:
    a result that did not reach the end of the game is stored with its depth
    and cannot answer a deeper search, while results that reach the end
    answer any depth.
    """
    return [d for d in (1, 2, 3, 4, 6) if d < limit] + [limit]


def pruned_graph(tiles: np.ndarray, pool: np.ndarray, kwg: np.ndarray, alphabet) -> tuple[np.ndarray, int]:
    """A KWG of only the words the endgame can still form (see :mod:`engine.analysis._wordprune`).

    Args:
        tiles: uint8 (15, 15) board letter codes (blanks as their letter), 0 = empty.
        pool: int (n_letters + 1,) both racks' tiles together (index 0 = blanks).
        kwg: the full lexicon's node array.

    Returns:
        ``(graph, n_words)``: the node array over the distinct words that fit some
        row or column with the pool's tiles, and their number. Move generation and
        cross-checks on it equal the full lexicon's on every board the endgame
        can reach (every word placed later covers such a span). With no word at
        all the full graph is returned (``n_words`` 0). The graph is read-only
        when ``kwg`` is (a loaded bundle's memory map), so the search kernels
        see the same array type on both graphs.
    """
    lines = {bytes(tiles[r]) for r in range(15)} | {bytes(tiles[:, c]) for c in range(15)}
    pool = np.asarray(pool, dtype=np.int64).copy()
    out = np.zeros((4096, 16), dtype=np.uint8)
    cnt = np.zeros(1, dtype=np.int64)
    for ln in sorted(lines):
        line = np.frombuffer(ln, dtype=np.uint8).copy()
        n0 = int(cnt[0])
        P.line_words(kwg, line, pool, out, cnt)
        if cnt[0] > out.shape[0]:
            grown = np.zeros((max(2 * out.shape[0], int(cnt[0]) + 4096), 16), dtype=np.uint8)
            grown[:n0] = out[:n0]
            out = grown
            cnt[0] = n0
            P.line_words(kwg, line, pool, out, cnt)
    codes = out[: int(cnt[0])]
    if codes.shape[0] == 0:
        return kwg, 0
    codes = np.unique(codes, axis=0)
    graph = build_kwg_from_codes(codes, alphabet)
    if not kwg.flags.writeable:  # the kernels' argument type then stays the full graph's (no second compile)
        graph.flags.writeable = False
    return graph, int(codes.shape[0])


class _State:
    """Kernel arrays of one position (player 0 = the side to move)."""

    def __init__(self, pos: Position, lexicon: Lexicon, tt_bits: int, prune: bool = True):
        a = pos.alphabet
        if lexicon.alphabet.letters != a.letters:
            raise ValueError(f"lexicon {lexicon.path} uses the {lexicon.alphabet.name} alphabet, the board {a.name}")
        self.pos = pos
        self.kwg = lexicon.graph
        self.n_words = 0
        self.pruned = False
        if prune:
            self.use_pruned_graph()
        self.vals = a.values.astype(np.int64)
        self.all_mask = np.uint32(((1 << (a.size + 1)) - 1) & ~1)
        self.bingo = (a.rack_size, a.bingo_bonus)
        b = pos.board
        self.tiles = b.tiles.copy()
        self.tvals = b.tile_values()
        self.lm, self.wm = b.open_premiums()
        self.cs, self.xs, self.hx = K.all_cross_checks(self.kwg, self.tiles, self.tvals, self.all_mask)
        self.racks = np.stack([pos.rack, pos.opponent_rack]).astype(np.int64)
        rng = np.random.default_rng(0x5EED)

        def keys(*shape):
            return rng.integers(0, 2 ** 63, size=shape, dtype=np.int64).astype(np.uint64) * np.uint64(2) + \
                rng.integers(0, 2, size=shape, dtype=np.int64).astype(np.uint64)

        self.zb = keys(15, 15, 128)
        self.zr = keys(2, a.size + 1, 8)
        self.zs = keys(2, E.END_PASSES + 1)
        self.passes = int(pos.zero_turns)
        self.h = np.uint64(E.full_hash(self.tiles, b.blanks, self.racks, 0, self.passes, self.zb, self.zr, self.zs))
        size = 1 if tt_bits <= 0 else 1 << tt_bits
        self.tt_key = np.zeros(size, dtype=np.uint64)
        self.tt_val = np.zeros((size, 2), dtype=np.int32)
        self.tt_depth = np.zeros(size, dtype=np.int16)
        self.tt_flag = np.zeros(size, dtype=np.uint8)
        self.tt_move = np.zeros(size, dtype=np.uint64)
        self.tt_row = np.zeros((size, K.OUT_WIDTH), dtype=np.int16)
        m = E.MAXPLY
        self.arena = np.zeros((4 * E.CAP, K.OUT_WIDTH), dtype=np.int32)
        self.keys = np.zeros(4 * E.CAP, dtype=np.int64)
        self.order = np.zeros(4 * E.CAP, dtype=np.int64)
        self.result = np.zeros(2, dtype=np.int64)
        self.save_cs = np.zeros((m, 2, 15, 15), dtype=np.uint32)
        self.save_xs = np.zeros((m, 2, 15, 15), dtype=np.int32)
        self.save_hx = np.zeros((m, 2, 15, 15), dtype=np.uint8)
        self.save_sq = np.zeros((m, 8, 3), dtype=np.int32)
        self.rows = np.zeros(15, dtype=np.uint8)
        self.cols = np.zeros(15, dtype=np.uint8)
        self.killers = np.zeros((m, 2), dtype=np.uint64)
        self.hist = np.zeros(1 << E.HIST_BITS, dtype=np.int64)
        self.counters = np.zeros(E.N_COUNTERS, dtype=np.int64)
        self.counters[E.C_W_SCORE], self.counters[E.C_W_TILES], self.counters[E.C_W_TVAL] = ORDER_WEIGHTS
        self.counters[E.C_W_HIST], self.counters[E.C_HIST_CAP] = HISTORY
        self.counters[E.C_INC] = 1 if INCREMENTAL else 0
        self.counters[E.C_KSTAGE] = KILLER_STAGE
        self.counters[E.C_PASSFIRST] = 1 if PASS_FIRST else 0
        self.counters[E.C_KADAPT] = 1 if KILLER_ADAPT else 0
        self.stuck = [self.stuck_tiles(p) for p in (0, 1)]
        if CONSERVE:
            self.set_conservation()
        self.kernel_cpu = 0.0

    def stuck_tiles(self, player: int) -> np.ndarray:
        """int64 (n_letters + 1,): the tiles of ``player``'s rack (0 = the mover) that no move of theirs plays now."""
        rack = self.racks[player]
        can = E.playable_tiles(self.kwg, self.vals, self.bingo[0], self.bingo[1], self.tiles, self.tvals, self.lm,
                               self.wm, self.cs, self.xs, self.hx, rack)
        return np.where(can == 0, rack, 0)

    def set_conservation(self) -> None:
        """Order the moves of the side whose opponent holds stuck tiles (at the root) by conservation.

        MAGPIE's heuristic: when the opponent cannot play some tiles, it cannot go out soon, so
        playing one's tiles slowly tends to score more; such a side's moves that do not go out
        are ordered lower per tile and per point played (``CONSERVE_WEIGHTS``), scaled by the
        stuck tiles' share of the opponent's rack value. Only the order changes, never a value.
        """
        self.counters[E.C_CONS_SIDE] = 0
        best = 0.0
        for p in (0, 1):
            total = float((self.racks[p][1:] * self.vals[1:]).sum())
            frac = float((self.stuck[p][1:] * self.vals[1:]).sum()) / total if total > 0 else 0.0
            if frac > best:
                best = frac
                self.counters[E.C_CONS_SIDE] = 2 - p  # the other side conserves (side + 1)
        self.counters[E.C_W_CONS_T] = int(round(CONSERVE_WEIGHTS[0] * best))
        self.counters[E.C_W_CONS_V] = int(round(CONSERVE_WEIGHTS[1] * best))

    def use_pruned_graph(self) -> None:
        """Switch to the pruned lexicon of :func:`pruned_graph` (the root's cross-checks recomputed).

        Allowed between searches (the arrays are at the root then); the table stays
        valid because the moves are the same.
        """
        if self.pruned:
            return
        pos = self.pos
        self.kwg, self.n_words = pruned_graph(pos.board.tiles, pos.rack + pos.opponent_rack, self.kwg, pos.alphabet)
        self.pruned = True
        if hasattr(self, "cs"):
            self.cs, self.xs, self.hx = K.all_cross_checks(self.kwg, self.tiles, self.tvals, self.all_mask)

    def search(self, depth: int, node_limit: int, limit: float = 0.0, clock: str = "wall") -> tuple[int, bool]:
        """One negamax search to ``depth`` plies; stops after ``node_limit`` nodes or at the time limit.

        ``limit`` 0 = no time limit; with ``clock="wall"`` the ``time.perf_counter()``
        instant to stop at, with ``clock="cpu"`` the CPU seconds this search may use.
        The kernel's CPU seconds are added to :attr:`kernel_cpu`.
        """
        self.counters[E.C_ABORT] = 0
        self.counters[E.C_MAXPLY] = 0
        self.counters[E.C_LIMIT] = self.counters[E.C_NODES] + node_limit
        deadline = np.array([limit, 1.0 if clock == "cpu" else 0.0, 0.0], dtype=np.float64)
        self.arena, self.keys, self.order = call_interruptible(E.negamax, (
            depth, -E.INF, E.INF, 0, self.passes, self.h, self.kwg, self.vals, self.all_mask,
            self.bingo[0], self.bingo[1], self.tiles, self.tvals, self.lm, self.wm, self.cs, self.xs,
            self.hx, self.racks, self.zb, self.zr, self.zs, self.tt_key, self.tt_val,
            self.tt_depth, self.tt_flag, self.tt_move, self.tt_row, self.arena, self.keys, self.order, self.save_cs,
            self.save_xs, self.save_hx, self.save_sq, self.rows, self.cols, self.killers, self.hist,
            self.counters, self.result, deadline), self.stop)
        self.kernel_cpu += float(deadline[2])
        return int(self.result[0]), bool(self.result[1])

    def stop(self) -> None:
        """Make a running :meth:`search` return at its next node (called on Ctrl-C)."""
        self.counters[E.C_LIMIT] = 0

    @property
    def aborted(self) -> bool:
        return bool(self.counters[E.C_ABORT])

    def pv_rows(self) -> np.ndarray:
        out = np.zeros((E.MAXPLY, K.OUT_WIDTH), dtype=np.int32)
        n = E.principal_variation(self.kwg, self.vals, self.all_mask, self.bingo[0], self.bingo[1], self.tiles,
                                  self.tvals, self.lm, self.wm, self.cs, self.xs, self.hx, self.racks, 0,
                                  self.passes, self.h, self.zb, self.zr, self.zs, self.tt_key, self.tt_move, out)
        return out[:n]

    def notations(self, rows: np.ndarray) -> list[str]:
        """Notation of a sequence of rows played alternately from the position."""
        board = self.pos.board.copy()
        racks = [self.pos.rack.astype(np.int32).copy(), self.pos.opponent_rack.astype(np.int32).copy()]
        out = []
        side = 0
        for r in rows:
            if r[K.OUT_LEN] == 0:
                out.append("pass")
            else:
                m = MoveList(r[None, :].copy(), board, racks[side]).move(0, leave=False)
                out.append(m.notation)
                board.place([(row, col, board.alphabet.code(ch), b) for row, col, ch, b in m.tiles])
                for _r, _c, ch, b in m.tiles:
                    racks[side][0 if b else board.alphabet.code(ch)] -= 1
            side = 1 - side
        return out


def solve(position: Position | str, lexicon: Lexicon, *, max_depth: int | None = None,
          time_limit: float | None = None, tt_bits: int = DEFAULT_TT_BITS,
          progress: Callable[[EndgameResult], None] | None = None,
          node_limit: int | None = None, clock: str = "wall",
          prune_after: int | None = None) -> EndgameResult:
    """Solve an endgame by iterative deepening (depth 1, 2, ... plies) until the end of the game.

    Args:
        position: a :class:`Position` or CGP string with an empty bag (the opponent's rack
            given, or taken as the unseen tiles).
        lexicon: the word list.
        max_depth: stop after this many plies (default: until complete, at most ``MAX_DEPTH``);
            the depths searched are :func:`depth_schedule` of it.
        time_limit: seconds on the clock ``clock``; the search stops when they are used up and
            returns the last completed depth's answer (``complete`` False and ``stopped``
            ``"time"`` unless that depth already reached the end). Depth 1 is always searched.
        tt_bits: log2 of the transposition table's entries; 0 disables the table.
        progress: called with the partial result after each completed depth.
        node_limit: nodes for the depths after the first (``0``: depth 1 only); the
            search that reaches it stops and the last completed depth's answer is
            returned (``stopped`` ``"nodes"``), as with ``time_limit`` (the pre-endgame gives
            each endgame a share).
        clock: ``"wall"`` (elapsed seconds, ``time.perf_counter``) or ``"cpu"`` (CPU seconds of
            the solve: the calling thread's and the kernel thread's ``time.thread_time``, so
            other processes on a loaded machine do not eat the budget).
        prune_after: nodes after which the moves come from the pruned lexicon
            (:func:`pruned_graph`; default ``PRUNE_AFTER_NODES``, 0 = from the start).

    Returns:
        :class:`EndgameResult`.

    Raises:
        SearchInterrupted: Ctrl-C (in the main thread) stopped the search; it
            carries the deepest completed depth's answer (``stopped`` ``"interrupt"``).
        ValueError: not an endgame (see :func:`endgame_position`), a bad
            depth, time or node limit or clock, or a lexicon of another alphabet.
    """
    pos = parse_cgp(position) if isinstance(position, str) else position
    pos = endgame_position(pos)
    if max_depth is not None and not 1 <= max_depth <= MAX_DEPTH:
        raise ValueError(f"max depth must be 1..{MAX_DEPTH} plies, got {max_depth}")
    if time_limit is not None and not (time_limit > 0 and math.isfinite(time_limit)):
        raise ValueError(f"time limit must be a positive number of seconds, got {time_limit}")
    if node_limit is not None and node_limit < 0:
        raise ValueError(f"node limit must be 0 or more, got {node_limit}")
    if clock not in CLOCKS:
        raise ValueError(f"clock must be one of {', '.join(CLOCKS)}, got {clock!r}")
    if not 0 <= tt_bits <= 28:
        raise ValueError(f"tt_bits must be 0..28, got {tt_bits}")
    prune_after = PRUNE_AFTER_NODES if prune_after is None else prune_after
    # the kernel runs in a worker thread when called from the main thread (engine.interrupt), else in this one
    kernel_elsewhere = threading.current_thread() is threading.main_thread()
    states: list[_State] = []  # Ctrl-C stops the running search (engine.interrupt.on_ctrl_c)
    t0 = time.perf_counter()
    c0 = time.thread_time()

    def cpu_used() -> float:
        own = time.thread_time() - c0
        return own + (states[0].kernel_cpu if states and kernel_elsewhere else 0.0)

    def used() -> float:
        return cpu_used() if clock == "cpu" else time.perf_counter() - t0

    stopped = None
    with on_ctrl_c(lambda: [s.stop() for s in states]) as ctrl_c:
        st = _State(pos, lexicon, tt_bits, PRUNE and prune_after <= 0)
        states.append(st)
        limit = max_depth or MAX_DEPTH
        result = None
        for depth in depth_schedule(limit):
            budget = 1 << 62
            if result is not None:  # depth 1 is always searched: there is always an answer
                if ctrl_c.pressed:
                    stopped = "interrupt"
                    break
                if time_limit is not None and time_limit - used() <= 0:
                    stopped = "time"
                    break
            n0 = int(st.counters[E.C_NODES])
            ts = time.perf_counter()
            if node_limit is not None and result is not None:  # depth 1 is always searched, as above
                if n0 - result.iterations[0][3] >= node_limit:
                    stopped = "nodes"
                    break
                budget = min(budget, node_limit - (n0 - result.iterations[0][3]))
            # the kernel reads the clock every 4,096 nodes and stops at the limit (not during depth 1)
            lim = 0.0
            if time_limit is not None and result is not None:
                lim = max(time_limit - used(), 1e-6) if clock == "cpu" else t0 + time_limit
            value, done = st.search(depth, budget, lim, clock)
            el = time.perf_counter() - ts
            nodes = int(st.counters[E.C_NODES]) - n0
            if st.aborted:
                if result is None and ctrl_c.pressed:  # Ctrl-C before depth 1 finished: no answer at all
                    raise KeyboardInterrupt
                if result is None:  # not even depth 1 finished: take what the table holds
                    rows = st.pv_rows()
                    pv = st.notations(rows)
                    result = EndgameResult(pv[0] if pv else "pass", value, pv, 0, False)
                stopped = ("interrupt" if ctrl_c.pressed else
                           "nodes" if int(st.counters[E.C_NODES]) >= int(st.counters[E.C_LIMIT]) else "time")
                break
            rows = st.pv_rows()
            pv = st.notations(rows)
            if not pv:  # pragma: no cover - the root is always stored
                pv = ["pass"]
            total = time.perf_counter() - t0
            reached = min(depth, int(st.counters[E.C_MAXPLY]) + 1)  # the longest line actually searched
            its = (result.iterations if result else []) + [(reached, value, pv[0], nodes, el)]
            result = EndgameResult(pv[0], value, pv, reached, done, int(st.counters[E.C_NODES]), total, its,
                                   clock=clock)
            if progress is not None:
                progress(result)
            if done:
                break
            if ctrl_c.pressed:
                stopped = "interrupt"
                break
            if PRUNE and not st.pruned and int(st.counters[E.C_NODES]) >= prune_after:
                st.use_pruned_graph()  # a long solve: the pruned lexicon's build pays for itself
        else:
            stopped = None if result.complete else "depth"
    result.nodes = int(st.counters[E.C_NODES])
    result.seconds = time.perf_counter() - t0
    result.cpu_seconds = cpu_used()
    result.clock = clock
    result.pruned = st.pruned
    result.stopped = None if result.complete else (stopped or "depth")
    if ctrl_c.pressed:
        result.stopped = "interrupt" if not result.complete else None
        raise SearchInterrupted(result)
    return result


def warm_up(lexicon: Lexicon) -> None:
    """Load (or compile) every kernel a solve calls, on the full and on the pruned lexicon.

    For :func:`engine.analysis.phase.warm_up`: a 2-ply solve on a made-up board (every tile of the
    set but the racks, row by row; its words need not be words), once on the full graph and
    once on the pruned one (:func:`pruned_graph`; the mover's rack holds a word of the
    lexicon, so the pruned graph is never empty), with a CPU-clock and a wall-clock limit.
    Numba compiles a kernel per argument type; :func:`pruned_graph` returns a graph of the
    full graph's type (read-only like a loaded bundle's), so the search over it is the same
    specialisation, but its build (:func:`engine.analysis._wordprune.line_words`, the graph builder)
    must be loaded too.

    Raises:
        ValueError: the lexicon has no word of 2 to 7 letters that the tile set can lay.
    """
    a = lexicon.alphabet
    word = None
    trie = getattr(lexicon, "trie", None)
    for w in (trie.iterkeys() if trie is not None else lexicon.words()):  # lazily: the first fitting word
        if 2 <= len(w) <= a.rack_size:
            try:
                rack = a.parse_rack(w).astype(np.int64)
            except ValueError:
                continue
            if (rack <= a.counts).all():
                word = rack
                break
    if word is None:
        raise ValueError(f"lexicon {lexicon.path}: no word of 2 to {a.rack_size} letters to warm the solver up with")
    rest = a.counts.astype(np.int64) - word
    other = np.zeros_like(rest)
    c = int(np.nonzero(rest[1:])[0][0]) + 1
    other[c] = 1
    rest[c] -= 1
    tiles = [(c, False) for c in range(1, a.size + 1) for _ in range(int(rest[c]))]
    tiles += [(next(c for c in range(1, a.size + 1) if a.counts[c]), True)] * int(rest[0])
    board = Board(a)
    board.place([(k // 15, k % 15, c, bl) for k, (c, bl) in enumerate(tiles)])
    pos = Position(board, word.astype(np.int32), other.astype(np.int32))
    for prune_after in (1 << 62, 0):
        for clock in CLOCKS:
            solve(pos, lexicon, max_depth=2, time_limit=60.0, clock=clock, prune_after=prune_after)
