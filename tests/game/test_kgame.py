"""The game in kernels (engine.game.kernel_game, engine.game._kgame): the same games as engine.game.game.Game from the same
seed, CPython's random numbers, play and undo, simulation rollouts equal to the Python path."""

from __future__ import annotations

import json
import random
import uuid

import numpy as np
import pytest

from engine.game import _kgame as KG
from engine.movegen import _movegen as K
from engine.analysis import simulation as S
from engine.position.cgp import parse_cgp
from engine.cli.main import main
from engine.game.selfplay import play_equity_game
from engine.game.game import TOURNAMENT, Kind
from engine.game.kernel_game import KernelConstants, KernelGame, KernelPlayers, _seed_key, play_kernel_game
from engine.leaves.table import default_table
from engine.movegen.generator import CrossChecks, generate_moves
from engine.game.selfplay import game_seed, play_game, selfplay

MIDGAME = ("15/15/15/15/15/15/3aNODE7/C3ISAR7/O3C10/L3KÖDERN5/T2JESU8/SUdELE9/2Ü12/2N12/2N12 "
           "ABHSUUX/EGINTUZ 64/106 0 lex golden;")
LATE = ("7UMrANGST/7R7/2JA3I7/1RAUBZUG7/4O9S/3OXYDE1W4P/4E4E4Ä/3KRAMTEN4H/3TNT3D2HIE/9E2IQ1/9NÖLE1H/8USD1S1Ü/"
        "12S1R/8RAUNeND/14E EIKLOSV/BEFGMNN 245/379 0 lex golden;")


@pytest.fixture(scope="module")
def consts(golden_lexicon):
    return KernelConstants(golden_lexicon)


@pytest.fixture(scope="module")
def table():
    return default_table()


def test_mersenne_twister_matches_cpython():
    """The kernel's random() continues random.Random(seed) exactly (independent: CPython itself)."""
    for seed in (0, 1, 12345, 2 ** 62 + 7):
        r = random.Random(seed)
        state = r.getstate()[1]
        mt = np.array(state[:624], dtype=np.int64)
        meta = np.zeros(KG.META_SIZE, dtype=np.int64)
        meta[KG.M_MTPOS] = state[624]
        got = [KG.mt_random(mt, meta) for _ in range(1500)]  # crosses two state regenerations
        assert got == [r.random() for _ in range(1500)]
    for seed in (0, 1, 12345, 2 ** 32, 2 ** 62 + 7, 3 ** 50, -99):  # seeding (init_by_array) in the kernel too
        mt = np.zeros(624, dtype=np.int64)
        meta = np.zeros(KG.META_SIZE, dtype=np.int64)
        KG.mt_seed(mt, meta, _seed_key(seed))
        state = random.Random(seed).getstate()[1]
        assert mt.tolist() == list(state[:624]) and meta[KG.M_MTPOS] == state[624]


def test_leave_arrays_equal_a_per_leave_reference(table):
    """The prefix-sum leave ranking of the one leave-arrays kernel gives, for every sub-multiset of a
    rack, the term computed leave by leave with LeaveIndex.rank (the plain ranking) in Python."""
    from itertools import product

    idx = table.index
    P = KG.rank_prefix(idx.H, idx.cap)
    rng = np.random.default_rng(5)
    full = np.repeat(np.arange(30), idx.alphabet.counts)
    racks = [np.bincount(rng.permutation(full)[:k], minlength=30).astype(np.int64)
             for k in (1, 2, 5, 7, 7, 7) for _ in range(5)]
    racks.append(np.array([0] * 6 + [7] + [0] * 23, dtype=np.int64))  # seven E: leaves of up to 6 E
    for rack in racks:
        codes = [c for c in range(30) if rack[c]]
        for scale, endgame, bonus in ((1.0, 0, 0.0), (0.3, 0, 0.0), (0.0, 1, 24.0)):
            radix, lv, lvmax = KG.leave_arrays(rack, table.values, idx.H, idx.cap, P, scale, endgame, bonus, 10.0,
                                               idx.tile_values, 1.5)
            best = [-np.inf] * 8
            for used in product(*(range(int(rack[c]) + 1) for c in codes)):
                leave = rack.copy()
                for c, u in zip(codes, used):
                    leave[c] -= u
                left = int(leave.sum())
                if endgame:
                    want = bonus if left == 0 else -(2.0 * float((leave * idx.tile_values).sum()) + 10.0)
                elif left == 0:
                    want = 0.0
                elif left > 6:
                    want = 1.5
                else:
                    want = scale * float(table.values[idx.rank(leave)])
                i = sum(u * int(radix[c]) for c, u in zip(codes, used))
                assert lv[i] == want, (rack.tolist(), used)
                best[sum(used)] = max(best[sum(used)], want)
            assert lvmax.tolist() == [b if np.isfinite(b) else 0.0 for b in best]


@pytest.mark.parametrize("players,rules", [(2, None), (3, None), (2, TOURNAMENT)])
def test_score_players_same_game_as_python(golden_lexicon, consts, players, rules):
    kw = {} if rules is None else {"rules": rules}
    for i in range(3):
        seed = game_seed(11, i)
        ref = play_game(golden_lexicon, seed, players, kernel=False, **kw)
        kg = play_kernel_game(golden_lexicon, seed, players, consts=consts, **kw)
        assert kg.turns() == ref.turns  # every entry: kind, player, rack, move (with leave), score, total
        assert [t.drawn for t in kg.turns()] == [t.drawn for t in ref.turns]
        assert kg.end_reason == ref.end_reason and list(kg.scores) == ref.scores
        g = kg.to_game()
        assert g.tile_total() == 102 and g.over and g.first == ref.first
        assert [g.rack_string(p) for p in range(players)] == [ref.rack_string(p) for p in range(players)]
        assert g.board == ref.board


def test_equity_players_same_game_as_python(golden_lexicon, consts, table):
    """Equity players (leave table, fade near the end of the bag, exchanges) and a mixed seating."""
    exchanges = passes = 0
    for seats, games in (((table, table), (0, 6, 23)), ((None, table), (35, 6, 11))):  # game 35: passes (packaged table of the 1M-game run)
        kp = KernelPlayers(seats)
        for i in games:
            seed = game_seed(21, i)
            ref = play_equity_game(golden_lexicon, seed, seats, kernel=False)
            kg = play_kernel_game(golden_lexicon, seed, consts=consts, players=kp)
            assert kg.turns() == ref.turns
            assert list(kg.scores) == ref.scores and kg.end_reason == ref.end_reason
            exchanges += sum(t.kind == Kind.EXCHANGE for t in ref.turns)
            passes += sum(t.kind == Kind.PASS for t in ref.turns)
    assert exchanges >= 4 and passes >= 3  # the comparison covered exchanges and passes
    seed = game_seed(21, 6)
    assert play_equity_game(golden_lexicon, seed, (table, table), kernel=True).turns == \
        play_equity_game(golden_lexicon, seed, (table, table), kernel=False).turns


def _log_fields(log):
    return {f: getattr(log, f) for f in ("player", "kind", "rank", "bag", "score", "fixed", "next", "end")}


def test_kernel_decision_log_equals_the_python_log(golden_lexicon, consts, table):
    """The kernel's decision log (leave kept, bag, score, end-of-bag terms, TD links, settlement) is
    the log the Python game records move by move, for score, equity and mixed seats."""
    kinds = set()
    empty_bag = 0
    for seats, seeds in (((None, None), (3,)), ((table, table), (0, 42)), ((None, table), (3, 11))):  # 42: passes
        kp = KernelPlayers(seats)
        for i in seeds:
            seed = game_seed(21, i)
            g, ref = play_equity_game(golden_lexicon, seed, seats, record=True, kernel=False)
            kg = play_kernel_game(golden_lexicon, seed, consts=consts, players=kp, log=True)
            got = kg.decision_log()
            for f, a in _log_fields(ref).items():
                b = getattr(got, f)
                assert a.dtype == b.dtype and a.shape == b.shape, f
                assert np.array_equal(a, b, equal_nan=f == "fixed"), f
            kinds |= set(ref.kind.tolist())
            empty_bag += int((ref.bag == 0).sum())
    assert kinds == {0, 1, 2} and empty_bag >= 6  # plays, exchanges, passes and end-of-bag terms compared
    with pytest.raises(ValueError, match="log=True"):
        play_kernel_game(golden_lexicon, 5, consts=consts, players=KernelPlayers((None, None))).decision_log()


def test_kernel_game_plays_legal_top_moves(golden_lexicon, consts):
    """Independent of the Python game: every play is the top score of the full move list of its position."""
    kg = play_kernel_game(golden_lexicon, 4242, 2, consts=consts)
    rec = kg.record()
    for k, t in enumerate(rec.moves):
        pos = rec.position(k)
        ml = generate_moves(pos.board, pos.rack, golden_lexicon)
        if t.kind == Kind.PLAY:
            assert t.score == int(ml.scores.max()) and t.move.notation == ml.top(1)[0].notation
        else:
            assert len(ml) == 0
    assert rec.result().scores == tuple(int(s) for s in kg.scores)
    assert kg.counts()["turns"] == len(rec.moves)


def test_play_and_undo_restore_everything(golden_lexicon, consts):
    """apply_placement updates the cross-checks of the touched lines as a full recomputation does;
    undo_placement restores board, rack and cross-checks bit for bit."""
    pos = parse_cgp(MIDGAME)
    b = pos.board
    c = consts
    tiles, blanks, tvals = b.tiles.copy(), b.blanks.astype(np.uint8), b.tile_values()
    lm, wm = b.open_premiums()
    cc = CrossChecks(b, golden_lexicon)
    cs, xs, hx = cc.cs.copy(), cc.xs.copy(), cc.hx.copy()
    rack = pos.rack.astype(np.int64)
    before = [a.copy() for a in (tiles, blanks, tvals, lm, wm, cs, xs, hx, rack)]
    ml = generate_moves(b, pos.rack, golden_lexicon)
    pl = np.zeros((7, 3), dtype=np.int64)
    ulines = np.zeros((8, 2), dtype=np.int64)
    ucs, uxs, uhx = np.zeros((8, 15), np.uint32), np.zeros((8, 15), np.int32), np.zeros((8, 15), np.uint8)
    for i in list(range(0, len(ml), max(1, len(ml) // 25))):
        row = ml.rows[i]
        n = KG.row_placements(row, pl)
        nl = KG.apply_placement(c.kwg, c.all_mask, c.vals, tiles, blanks, tvals, lm, wm, cs, xs, hx, rack, pl, n,
                                ulines, ucs, uxs, uhx)
        after = b.copy()
        after.place([(r, col, t & ~K.BLANK_FLAG, bool(t & K.BLANK_FLAG)) for r, col, t in pl[:n]])
        fresh = CrossChecks(after, golden_lexicon)
        assert np.array_equal(tiles, after.tiles) and np.array_equal(blanks.astype(bool), after.blanks)
        assert np.array_equal(tvals, after.tile_values())
        assert all(np.array_equal(x, y) for x, y in zip(after.open_premiums(), (lm, wm)))
        assert np.array_equal(cs, fresh.cs) and np.array_equal(xs, fresh.xs) and np.array_equal(hx, fresh.hx)
        assert int(rack.sum()) == int(pos.rack.sum()) - n
        KG.undo_placement(c.lm0, c.wm0, tiles, blanks, tvals, lm, wm, cs, xs, hx, rack, pl, n, nl,
                          ulines, ucs, uxs, uhx)
        for x, y in zip((tiles, blanks, tvals, lm, wm, cs, xs, hx, rack), before):
            assert np.array_equal(x, y)


def _ctx(pos, lex, player, plies, n_candidates=3):
    moves = S.prepare_candidates(pos, lex, None, n_candidates, player, max(0, int(pos.unseen().sum()) - 7))
    a = pos.alphabet
    return S.SimContext(key=uuid.uuid4().hex, lexicon_path=str(lex.path), alphabet=a, layout=pos.board.layout,
                        tiles=pos.board.tiles.copy(), blanks=pos.board.blanks.copy(),
                        rack=pos.rack.astype(np.int32).copy(), pool=pos.unseen().astype(np.int32),
                        opponent_rack=None, scores=tuple(int(x) for x in pos.scores),
                        candidates=tuple(S._encode_candidate(m, a) for m in moves), plies=plies, seed=3,
                        player=player)


@pytest.mark.parametrize("player", ["score", "equity"])
def test_rollout_kernel_equals_python_iterations(golden_lexicon, player):
    """Whole iterations in the kernel give the numbers of the move-by-move Python path, also with
    exchanges and games that end inside (many plies)."""
    pl = S.LeavePlayer() if player == "score" else S.EquityPlayer()
    for cgp, plies in ((MIDGAME, 2), (MIDGAME, 12), (LATE, 10)):
        ctx = _ctx(parse_cgp(cgp), golden_lexicon, pl, plies)
        for c in range(len(ctx.candidates)):
            k = S.run_chunk(ctx, c, 0, 12, golden_lexicon)
            p = S.run_chunk(ctx, c, 0, 12, golden_lexicon, kernel=False)
            assert np.array_equal(k, p)
        S._STATES.pop(ctx.key, None)


def test_bad_input(golden_lexicon, consts, table):
    with pytest.raises(ValueError, match="2 to 4 players"):
        KernelGame(golden_lexicon, 1, 5, consts=consts)
    with pytest.raises(ValueError, match="distinct"):
        KernelGame(golden_lexicon, 1, ["a", "a"], consts=consts)
    with pytest.raises(ValueError, match="3 players given for a game of 2"):
        KernelGame(golden_lexicon, 1, 2, consts=consts).play(KernelPlayers([None, None, None]))
    with pytest.raises(ValueError, match="max_turns"):
        KernelGame(golden_lexicon, 1, 2, consts=consts).play(KernelPlayers([None, None]), max_turns=0)
    with pytest.raises(ValueError, match="equity parameter sets"):
        KernelPlayers([table, None], params=[None])
    with pytest.raises(ValueError, match="LeaveTable or None"):
        KernelPlayers([None, "table"])
    with pytest.raises(ValueError, match="graph"):
        KernelConstants(object())
    with pytest.raises(ValueError, match="unknown player"):
        selfplay(golden_lexicon, 1, player="random")


def test_max_turns_ends_by_agreement(golden_lexicon, consts):
    kg = play_kernel_game(golden_lexicon, 5, 2, consts=consts, max_turns=6)
    ref = play_game(golden_lexicon, 5, kernel=False, max_turns=6)
    assert kg.end_reason == "agreement" == ref.end_reason
    assert kg.turns() == ref.turns


def test_cli_selfplay_equity(golden_lexicon, tmp_path, capsys):
    rc = main(["selfplay", "--games", "2", "--seed", "3", "--player", "equity", "--lexicon", str(golden_lexicon.path),
               "--json", "--no-progress", "--out", str(tmp_path)])
    assert rc == 0
    s = json.loads(capsys.readouterr().out)
    assert s["games"] == 2
    text = (tmp_path / "game_00001.gcg").read_text(encoding="utf-8")
    assert "equity players" in text and f"#seed {game_seed(3, 1)}" in text
    ref = play_equity_game(golden_lexicon, game_seed(3, 1), (default_table(), default_table()), kernel=False)
    assert f"{ref.scores[0]}" in text.splitlines()[-1] or f"{ref.scores[1]}" in text.splitlines()[-1]


def test_every_seat_mix_gives_the_game_kernel_one_type(table):
    """Issue 27 part 5: score players (zeros), one shared table (a broadcast view) and different tables per seat
    passed three array layouts, so `play_game` was compiled twice by the warm-up (about 20 s of CPU). Now the
    leave values always reach the kernel as one type, and each equity seat's row is its table's values."""
    import numba

    from dataclasses import replace

    other = replace(table, values=(np.asarray(table.values) * 0.5).astype(np.float32))
    mixes = [(None, None), (table, table), (table, None), (None, table), (table, table, table), (None,) * 4,
             (table, other), (other, None, table)]
    types = set()
    for seats in mixes:
        kp = KernelPlayers(seats)
        types.add(numba.typeof(kp.values))
        assert kp.values.shape[0] == len(seats) and not kp.values.flags.writeable
        for p, t in enumerate(seats):  # a score seat's row is not read (kinds); an equity seat's is its table
            if t is not None:
                assert np.array_equal(kp.values[p], np.asarray(t.values, dtype=np.float32))
    assert len(types) == 1, types
