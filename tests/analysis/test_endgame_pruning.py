"""The endgame solver's speed-ups never change a move list or a value.

* word pruning (engine.analysis._wordprune): the words found for a line equal a
  brute-force scan of the word list; move generation over the pruned graph
  equals the full lexicon's on the root and on boards reached by random moves;
* line-restricted generation (engine.analysis._endgame.generate_lines) equals the full
  generator's moves on those lines;
* incremental move lists, the history heuristic and the staged killer moves: the
  solved values equal those with the feature off; a staged killer is a move of the
  full list with the full list's score.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

import engine.analysis.endgame as EG
from engine.analysis import _endgame as E
from engine.movegen import _movegen as K
from engine.analysis import _wordprune as P
from engine.position.cgp import parse_cgp
from engine.analysis.endgame import endgame_position, pruned_graph, solve
from engine.movegen.generator import generate_moves
from test_endgame import POS


def _fits(word, line, pool):
    """Start squares where ``word`` (letter codes) fits ``line`` with tiles of ``pool`` (blanks at index 0)."""
    out = []
    n = len(word)
    for s in range(15 - n + 1):
        if (s > 0 and line[s - 1]) or (s + n < 15 and line[s + n]):
            continue
        left = Counter({t: int(c) for t, c in enumerate(pool) if c})
        ok = True
        for k, t in enumerate(word):
            sq = line[s + k]
            if sq:
                ok = sq == t
            elif left[t] > 0:
                left[t] -= 1
            elif left[0] > 0:
                left[0] -= 1
            else:
                ok = False
            if not ok:
                break
        if ok:
            out.append(s)
    return out


@pytest.mark.parametrize("line_text, pool_text", [("...A....T......", "EINRS"), ("....H..........", "ENR?"),
                                                   ("...............", "AEGLN")])
def test_line_words_equal_a_brute_force_scan(line_text, pool_text, golden_lexicon, golden_words_list):
    a = golden_lexicon.alphabet
    line = np.array([0 if ch == "." else a.code(ch) for ch in line_text], dtype=np.uint8)
    pool = a.parse_rack(pool_text).astype(np.int64)
    out = np.zeros((1 << 16, 16), dtype=np.uint8)
    cnt = np.zeros(1, dtype=np.int64)
    P.line_words(golden_lexicon.graph, line, pool.copy(), out, cnt)
    got = {tuple(int(x) for x in r if x) for r in out[: cnt[0]]}
    have = Counter(int(t) for t in line if t)
    n_pool = int(pool.sum())
    expected = set()
    for w in golden_words_list:
        if len(w) > 15 or len(w) > n_pool + sum(have.values()):
            continue
        codes = tuple(a.code(ch) for ch in w)
        if _fits(codes, line, pool):
            expected.add(codes)
    assert expected  # the cases hold words
    assert got == expected


def _state(pos, kwg):
    b = pos.board
    a = pos.alphabet
    tiles = b.tiles.copy()
    tvals = b.tile_values()
    all_mask = np.uint32(((1 << (a.size + 1)) - 1) & ~1)
    cs, xs, hx = K.all_cross_checks(kwg, tiles, tvals, all_mask)
    lm, wm = b.open_premiums()
    return tiles, tvals, lm, wm, cs, xs, hx


def _moves(kwg, pos, rack):
    a = pos.alphabet
    tiles, tvals, lm, wm, cs, xs, hx = _state(pos, kwg)
    out = np.zeros((1 << 14, K.OUT_WIDTH), dtype=np.int32)
    cnt = np.zeros(1, dtype=np.int64)
    K.generate_checked(kwg, tiles, tvals, lm, wm, rack.astype(np.int64), a.values.astype(np.int64), a.rack_size,
                       a.bingo_bonus, cs, xs, hx, out, cnt)
    return sorted(map(tuple, out[: cnt[0]].tolist()))


@pytest.mark.parametrize("pid", ["e22_1", "e33_1", "s21_0", "sstuck_0"])
def test_pruned_graph_generates_the_full_lexicons_moves(pid, golden_lexicon):
    pos = endgame_position(parse_cgp(POS[pid]))
    racks = [pos.rack.astype(np.int32).copy(), pos.opponent_rack.astype(np.int32).copy()]
    graph, n_words = pruned_graph(pos.board.tiles, racks[0] + racks[1], golden_lexicon.graph, pos.alphabet)
    assert 0 < n_words < 300_000 and graph.shape[0] < golden_lexicon.graph.shape[0]
    rng = random.Random(7)
    board = pos.board.copy()
    side = 0
    checked = 0
    for _ply in range(6):
        here = pos.__class__(**{**pos.__dict__, "board": board})
        for s in (0, 1):
            full = _moves(golden_lexicon.graph, here, racks[s])
            assert _moves(graph, here, racks[s]) == full
            checked += 1
        moves = generate_moves(board, racks[side], golden_lexicon)
        if len(moves) == 0:
            break
        m = moves.move(rng.randrange(len(moves)), leave=False)
        if len(m.tiles) == int(racks[side].sum()):
            break  # going out ends the game
        board.place([(r, c, board.alphabet.code(ch), b) for r, c, ch, b in m.tiles])
        for _r, _c, ch, b in m.tiles:
            racks[side][0 if b else board.alphabet.code(ch)] -= 1
        side = 1 - side
    assert checked > 0


def test_generate_lines_equals_the_full_generator_on_those_lines(golden_lexicon):
    pos = endgame_position(parse_cgp(POS["e33_1"]))
    a = pos.alphabet
    kwg = golden_lexicon.graph
    tiles, tvals, lm, wm, cs, xs, hx = _state(pos, kwg)
    rack = (pos.rack + pos.opponent_rack).astype(np.int64)  # a bigger rack: more lines with moves
    full = _moves(kwg, pos, rack)
    rng = np.random.default_rng(3)
    for _ in range(4):
        dirty = (rng.random((2, 15)) < 0.4).astype(np.uint8)
        out = np.zeros((1 << 14, K.OUT_WIDTH), dtype=np.int32)
        cnt = np.zeros(1, dtype=np.int64)
        E.generate_lines(kwg, tiles, tvals, lm, wm, rack.copy(), a.values.astype(np.int64), a.rack_size,
                         a.bingo_bonus, cs, xs, hx, out, cnt, dirty)
        got = sorted(map(tuple, out[: cnt[0]].tolist()))
        want = [m for m in full if dirty[m[K.OUT_DIR], m[K.OUT_COL] if m[K.OUT_DIR] else m[K.OUT_ROW]]]
        assert got == want and len(want) > 0


@pytest.mark.parametrize("setting, off", [("INCREMENTAL", False), ("HISTORY", (0, 1)), ("PRUNE", False),
                                          ("KILLER_STAGE", 0), ("PASS_FIRST", True), ("KILLER_ADAPT", True),
                                          ("ORDER_WEIGHTS", (4, 1, 0)), ("ORDER_WEIGHTS", (1, 0, 0)),
                                          ("CONSERVE", True)])
def test_speedups_never_change_a_value(setting, off, golden_lexicon, monkeypatch):
    pids = ["s21_0", "s12_1", "sstuck_0", "e22_0", "e22_1", "e33_1"]
    monkeypatch.setattr(EG, "PRUNE_AFTER_NODES", 0)  # the pruned lexicon from the first depth on
    on = {pid: solve(POS[pid], golden_lexicon) for pid in pids}
    monkeypatch.setattr(EG, setting, off)
    for pid in pids:
        r = solve(POS[pid], golden_lexicon)
        assert r.complete and on[pid].complete
        assert r.value == on[pid].value, pid


def test_pruned_graph_from_a_wide_graph_is_the_same(golden_lexicon, golden_words_list):
    from lexicon_tools.kwg import build_kwg

    wide = build_kwg(golden_words_list, format="wide")
    assert wide.dtype == np.uint64
    pos = endgame_position(parse_cgp(POS["e33_1"]))
    pool = pos.rack + pos.opponent_rack
    g1, n1 = pruned_graph(pos.board.tiles, pool, golden_lexicon.graph, pos.alphabet)
    g2, n2 = pruned_graph(pos.board.tiles, pool, wide, pos.alphabet)
    assert n1 == n2 > 0 and np.array_equal(g1, g2)


def test_a_staged_killer_is_a_move_of_the_full_list_with_its_score(golden_lexicon):
    """Killers from the root, staged after a move changed the board: found exactly when the new
    position's full list holds the move, and then with that list's row (its new score)."""
    pos = endgame_position(parse_cgp(POS["e33_1"]))
    a = pos.alphabet
    kwg = golden_lexicon.graph
    vals = a.values.astype(np.int64)
    rack = (pos.rack + pos.opponent_rack).astype(np.int64)  # a bigger rack: more moves on more lines
    root = _moves(kwg, pos, rack)
    board = pos.board.copy()
    m = generate_moves(board, pos.rack.astype(np.int32), golden_lexicon).move(0, leave=False)
    board.place([(r, c, a.code(ch), b) for r, c, ch, b in m.tiles])
    here = pos.__class__(**{**pos.__dict__, "board": board})
    tiles, tvals, lm, wm, cs, xs, hx = _state(here, kwg)
    full = np.array(_moves(kwg, here, rack), dtype=np.int32)
    by_key = {int(E.move_key(full, i)): tuple(full[i]) for i in range(full.shape[0])}
    counters = np.zeros(E.N_COUNTERS, dtype=np.int64)
    counters[E.C_KSTAGE] = 1
    taken = {(r, c) for r, c, _ch, _b in m.tiles}

    def squares(row):
        dr = row[K.OUT_DIR]
        return {(row[K.OUT_ROW] + dr * k, row[K.OUT_COL] + (1 - dr) * k)
                for k in range(row[K.OUT_LEN]) if row[K.OUT_TILES + k]}

    found = lost = 0
    for row in root[::5] + [r for r in root if squares(r) & taken][:20]:
        krow = np.zeros((E.MAXPLY + 2, 2, K.OUT_WIDTH), dtype=np.int32)
        krow[5, 0] = row
        killers = np.zeros((E.MAXPLY + 2, 2), dtype=np.uint64)
        killers[5, 0] = E.move_key(krow[5], 0)
        arena = np.zeros((64, K.OUT_WIDTH), dtype=np.int32)
        keys = np.zeros(64, dtype=np.int64)
        order = np.zeros(64, dtype=np.int64)
        arena, keys, order, kk = E._stage_killer(krow, killers, 5, 3, arena, keys, order, kwg, tiles, tvals, lm, wm,
                                                 rack.copy(), vals, a.rack_size, a.bingo_bonus, cs, xs, hx,
                                                 np.zeros((2, 15), dtype=np.uint8), counters)
        want = by_key.get(int(killers[5, 0]))
        if want is None:
            assert kk == 0
            lost += 1
        else:
            assert int(kk) == int(killers[5, 0]) and tuple(arena[3]) == want
            found += 1
    assert found > 0 and lost > 0


@pytest.mark.parametrize("pid", ["sstuck_0", "sstuck_1", "e22_1", "e33_1"])
def test_stuck_tiles_are_the_rack_tiles_no_move_plays(pid, golden_lexicon):
    """The kernel's stuck tiles against the public generator's move list, for both sides."""
    pos = endgame_position(parse_cgp(POS[pid]))
    st = EG._State(pos, golden_lexicon, 0, prune=False)
    a = pos.alphabet
    for p, rack in enumerate((pos.rack, pos.opponent_rack)):
        played = set()
        for m in generate_moves(pos.board, rack.astype(np.int32), golden_lexicon):
            played |= {0 if b else a.code(ch) for _r, _c, ch, b in m.tiles}
        want = np.array([0 if t in played else int(rack[t]) for t in range(rack.shape[0])])
        assert st.stuck[p].tolist() == want.tolist(), (pid, p)
    if pid == "sstuck_0":  # the opponent's C has no place on this board (the position's point)
        assert st.stuck[1][a.code("C")] == 1
        st.set_conservation()
        if not st.stuck[0].any():
            assert st.counters[E.C_CONS_SIDE] == 1  # the mover (side 0) conserves
