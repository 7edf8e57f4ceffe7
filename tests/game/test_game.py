"""Game rules: bag, who starts, turns, challenges, clock, end of game, undo (SPEC.md "Turns",
"End of game", "Challenges and time"; seeds for the score pad and the end-of-game example)."""

from __future__ import annotations


import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.position.cgp import parse_cgp
from engine.game.game import (
    HOME,
    TOURNAMENT,
    TOURNAMENT_25,
    Bag,
    Game,
    GameError,
    Kind,
    Rules,
    draw_for_start,
    rack_value,
    rules_by_name,
    settle_out,
    settle_passes,
    time_penalty,
)
from engine.movegen.generator import exchanges, generate_moves
from engine.position.scorer import IllegalMove, score_placement
from lexicon_tools.alphabet import german
from lexicon_tools.bundle import build_bundle

A = german()
WORDS = ["SCORE", "SCORES", "ÜBER", "HAUS", "HAUSE", "ZUHAUSE", "ES", "AB", "ER", "EH", "QUAL", "HEXE",
         "TRAUBEN", "GÖRE", "HAUSTÜR", "DU", "DA", "JA", "OH", "ZU"]


@pytest.fixture(scope="module")
def small_lex(tmp_path_factory):
    return build_bundle(WORDS, tmp_path_factory.mktemp("lex") / "small.lex", source_name="test")


def new_game(lex, players=2, rules=HOME, racks=None, bag_left=None, seed=1):
    """A game with player 0 to move and the given racks; ``bag_left`` tiles left in the bag."""
    g = Game(players, lex, rules=rules, seed=seed, first=0)
    if racks:
        for p in range(g.n):
            g.set_rack(p, "")
        for p, r in enumerate(racks):
            if r is not None:
                g.set_rack(p, r)
        for p in range(g.n):
            if racks[p] is None:
                g.bag.refill(g.racks[p])
    if bag_left is not None:
        g.bag.draw(len(g.bag) - bag_left)  # tiles leave the game (test set-up only)
    g._undo.clear()
    return g


def state(g: Game):
    return (g.board.tiles.copy(), g.board.blanks.copy(), [r.copy() for r in g.racks], g.bag.state(),
            list(g.scores), list(g.turns), g.to_move, list(g.time_used), g.over, g.end_reason, g.forfeits,
            g.consecutive_passes, g.scoreless_turns)


def assert_same_state(s1, s2):
    assert np.array_equal(s1[0], s2[0]) and s1[0].dtype == s2[0].dtype
    assert np.array_equal(s1[1], s2[1])
    assert all(np.array_equal(a, b) for a, b in zip(s1[2], s2[2]))
    assert s1[3] == s2[3]
    assert s1[4:] == s2[4:]


# -- bag and who starts ---------------------------------------------------------
def test_bag_full_set_and_reproducible():
    b = Bag(seed=7)
    assert len(b) == 102
    assert np.array_equal(b.counts(), A.counts)
    d1 = Bag(seed=7).draw(20)
    assert d1 == Bag(seed=7).draw(20)
    assert d1 != Bag(seed=8).draw(20)
    b.draw(100)
    assert len(b.draw(5)) == 2 and len(b) == 0


def test_bag_state_restore_exact():
    b = Bag(seed=3)
    b.draw(5)
    s = b.state()
    x = b.draw(10)
    b.restore(s)
    assert b.draw(10) == x


def test_who_starts_blank_first_then_german_order():
    # blank beats A; Ä comes right after A; Ö after O; Ü after U
    for tiles, winner_code in [([0, 1], 0), ([A.code("Ä"), A.code("B")], A.code("Ä")),
                               ([A.code("A"), A.code("Ä")], A.code("A")), ([A.code("Ö"), A.code("P")], A.code("Ö")),
                               ([A.code("Ü"), A.code("V")], A.code("Ü")), ([A.code("O"), A.code("Ö")], A.code("O"))]:
        for seed in range(5):
            bag = Bag(seed=seed, tiles=tiles)
            first, rounds = draw_for_start(bag, 2)
            assert dict(rounds[-1])[first] == winner_code
            assert sorted(bag._tiles) == sorted(tiles)  # tiles go back


def test_who_starts_ties_draw_again():
    a, z = A.code("A"), A.code("Z")
    ties = 0
    for seed in range(40):
        bag = Bag(seed=seed, tiles=[a, a, z, z, A.code("M")])
        first, rounds = draw_for_start(bag, 3)
        contenders = {0, 1, 2}
        for draws in rounds:
            assert {p for p, _ in draws} == contenders
            low = min(c for _, c in draws)
            contenders = {p for p, c in draws if c == low}
        assert contenders == {first}
        ties += len(rounds) > 1
    assert ties > 0
    assert Bag(seed=1).counts().sum() == 102


def test_game_start_draw_and_deal(small_lex):
    g = Game(3, small_lex, seed=11)
    assert g.to_move == g.first
    assert g.start_draws and dict(g.start_draws[-1])[g.first] == min(c for _, c in g.start_draws[-1])
    assert all(int(r.sum()) == 7 for r in g.racks)
    assert len(g.bag) == 102 - 21 and g.tile_total() == 102
    g2 = Game(3, small_lex, seed=11)
    assert g2.first == g.first and all(np.array_equal(a, b) for a, b in zip(g.racks, g2.racks))


def test_player_count_per_rules(small_lex):
    Game(4, small_lex, seed=1)
    with pytest.raises(ValueError, match="2 to 4"):
        Game(5, small_lex, seed=1)
    with pytest.raises(ValueError, match="2 to 2"):
        Game(3, small_lex, rules=TOURNAMENT, seed=1)
    with pytest.raises(ValueError, match="distinct"):
        Game(["a", "a"], small_lex, seed=1)


def test_rules_variants():
    assert HOME.challenge_penalty == 5 and not HOME.penalty_per_word and HOME.clock_minutes is None
    assert TOURNAMENT.challenge_penalty == 10 and TOURNAMENT.penalty_per_word and TOURNAMENT.clock_minutes == 30
    assert TOURNAMENT_25.clock_minutes == 25 and TOURNAMENT.max_players == 2
    assert rules_by_name("tournament") is TOURNAMENT
    with pytest.raises(ValueError, match="unknown rules"):
        rules_by_name("blitz")


# -- plays --------------------------------------------------------------------------
def test_play_scored_by_engine_and_refill(small_lex):
    g = new_game(small_lex, racks=["SCOREXY", "ÜBEKLMN"])
    t = g.play("8F SCORE")
    assert (t.kind, t.score, t.total, t.rack) == (Kind.PLAY, 18, 18, "CEORSXY")  # SPEC example 1
    assert int(g.racks[0].sum()) == 7 and len(t.drawn) == 5
    assert g.to_move == 1
    t = g.play("I5 ÜBER")  # SPEC example 2: Ü I5, B I6, E I7 on d, R on the board
    assert t.score == 12 and g.scores == [18, 12]
    assert t.words == (("ÜBER", 12),)
    assert g.tile_total() == 102


def test_play_accepts_generated_move(small_lex):
    g = new_game(small_lex, racks=["SCOREXY", None])
    best = g.best_moves(1)[0]
    assert best.notation in ("8D SCORE", "8E SCORE", "8F SCORE", "8G SCORE", "8H SCORE",
                             "H4 SCORE", "H5 SCORE", "H6 SCORE", "H7 SCORE", "H8 SCORE")
    t = g.play(best)
    assert t.score == best.score


def test_illegal_plays_raise(small_lex):
    g = new_game(small_lex, racks=["SCOREXY", None])
    with pytest.raises(IllegalMove, match="centre"):
        g.play("1A SCORE")
    with pytest.raises(IllegalMove, match="not on the rack"):
        g.play("8H HAUS")
    with pytest.raises(IllegalMove, match="cannot read"):
        g.play("SCORE")
    g.set_rack(0, "SCORXYE")
    with pytest.raises(IllegalMove, match="CORE is not in the word list"):
        g.play("8H CORE")
    assert g.turns == [] and g.to_move == 0


def test_unchallenged_phony_only_when_allowed(small_lex):
    g = new_game(small_lex, racks=["SCOREXY", None])
    t = g.play("8H CORE", phony_ok=True)
    assert t.kind == Kind.PLAY and t.score == 16  # (4 + 2 + 1 + 1) x 2


# -- challenges -------------------------------------------------------------------
def test_home_challenge_invalid_word_withdrawn(small_lex):
    g = new_game(small_lex, racks=["SCOREXY", "BERTUVW"])
    g.play("8F SCORE")
    rack_before = g.racks[1].copy()
    board_before = g.board.tiles.copy()
    t = g.play("I6 BER", challenge=0)  # BER is not a word: withdrawn, 0 points, turn lost
    assert t.kind == Kind.WITHDRAWN and t.score == 0 and t.total == 0 and t.move.score == 6
    assert np.array_equal(g.racks[1], rack_before) and np.array_equal(g.board.tiles, board_before)
    assert g.to_move == 0 and g.scores == [18, 0]


def test_home_wrong_challenge_costs_5(small_lex):
    g = new_game(small_lex, racks=["SCOREXY", "ÜBEKLMN"])
    g.play("8F SCORE")
    t = g.play("I5 ÜBER", challenge=0)
    assert t.kind == Kind.PLAY and t.score == 12
    pen = g.turns[-1]
    assert (pen.kind, pen.player, pen.score, pen.total) == (Kind.CHALLENGE, 0, -5, 13)
    assert g.scores == [13, 12] and g.to_move == 0


def test_tournament_wrong_challenge_10_per_word(small_lex):
    g = new_game(small_lex, rules=TOURNAMENT, racks=["SCOREXY", "ESKLMNP"])
    g.play("8F SCORE")
    t = g.play("K7 ES", challenge=0)  # forms ES (2) and SCORES (10)
    assert t.score == 12 and sorted(w for w, _ in t.words) == ["ES", "SCORES"]
    assert g.turns[-1].kind == Kind.CHALLENGE and g.turns[-1].score == -20
    assert g.scores == [-2, 12]


def test_tournament_challenge_one_word(small_lex):
    g = new_game(small_lex, rules=TOURNAMENT, racks=["SCOREXY", "ESKLMNP"])
    g.play("8F SCORE")
    g.play("K7 ES", challenge=0, challenged_words=["scores"])
    assert g.turns[-1].score == -10
    with pytest.raises(GameError, match="not formed"):
        g2 = new_game(small_lex, rules=TOURNAMENT, racks=["SCOREXY", "ESKLMNP"])
        g2.play("8F SCORE")
        g2.play("K7 ES", challenge=0, challenged_words=["HAUS"])


def test_tournament_any_invalid_word_makes_move_zero(small_lex):
    g = new_game(small_lex, rules=TOURNAMENT, racks=["SCOREXY", "EHKLMNP"])
    g.play("8F SCORE")
    t = g.play("K7 EH", challenge=0)  # EH is a word, SCOREH is not
    assert t.kind == Kind.WITHDRAWN and g.scores == [18, 0] and g.to_move == 0


def test_challenge_by_self_refused(small_lex):
    g = new_game(small_lex, racks=["SCOREXY", None])
    with pytest.raises(GameError, match="another player"):
        g.play("8F SCORE", challenge=0)


# -- exchange and pass ------------------------------------------------------------
def test_exchange_refused_with_6_in_bag(small_lex):
    g = new_game(small_lex, bag_left=6)
    with pytest.raises(GameError, match="at least 7 tiles in the bag"):
        g.exchange(g.rack_string()[:2])
    assert g.turns == []


def test_exchange_draws_before_returning(small_lex):
    g = new_game(small_lex, bag_left=7)
    bag_before = sorted(g.bag._tiles)
    rack_before = g.racks[0].copy()
    t = g.exchange(g.rack_string())
    assert t.kind == Kind.EXCHANGE and t.score == 0
    # with exactly 7 in the bag, the new rack is the old bag and the bag is the old rack
    assert sorted(c for c in range(A.size + 1) for _ in range(int(g.racks[0][c]))) == bag_before
    assert np.array_equal(g.bag.counts(), rack_before)
    assert g.to_move == 1


def test_exchange_tiles_must_be_on_rack(small_lex):
    g = new_game(small_lex, racks=["AEINRST", None])
    with pytest.raises(GameError, match="not on the rack"):
        g.exchange("Q")
    with pytest.raises(ValueError):
        g.exchange("ß")
    t = g.exchange("AE")
    assert t.exchanged == "AE" and t.rack == "AEINRST"


# -- end of game ------------------------------------------------------------------------
def test_settlement_functions():
    assert settle_out(0, [0, 11, 4]) == [15, -11, -4]
    assert settle_passes([3, 11, 0]) == [-3, -11, 0]
    assert rack_value("QE") == 11 and rack_value("AB") == 4 and rack_value("??") == 0


def test_end_out_seed_example(small_lex):
    """Seeds: Ana went out; Ben holds Q and E (11), Cal A and B (4): -11, -4, +15 (not doubled)."""
    g = new_game(small_lex, players=["Ana", "Ben", "Cal"], racks=["HAUS", "QE", "AB"], bag_left=0)
    t = g.play("8E HAUS")
    assert t.score == 10
    assert g.over and g.end_reason == "out"
    tail = [(x.kind, g.players[x.player], x.score, x.rack) for x in g.turns[1:]]
    assert tail == [(Kind.RACK, "Ben", -11, "EQ"), (Kind.RACK, "Cal", -4, "AB"), (Kind.OUT, "Ana", 15, "ABEQ")]
    assert g.scores == [25, -11, -4]
    r = g.result()
    assert r.winners == (0,) and not r.draw and r.wins == (1.0, 0.0, 0.0)
    with pytest.raises(GameError, match="over"):
        g.pass_turn()


def test_end_by_passes_home_three_players(small_lex):
    g = new_game(small_lex, players=3, racks=["QE", "AB", "??"], bag_left=0)
    for i in range(5):
        g.pass_turn()
        assert not g.over
    g.pass_turn()  # all three passed in two consecutive rounds
    assert g.over and g.end_reason == "passes"
    assert [(x.kind, x.player, x.score) for x in g.turns[6:]] == [(Kind.RACK, 0, -11), (Kind.RACK, 1, -4),
                                                                  (Kind.RACK, 2, 0)]
    assert g.scores == [-11, -4, 0]
    assert g.result().winners == (2,)


def test_end_by_passes_tournament_twice_each(small_lex):
    g = new_game(small_lex, rules=TOURNAMENT, racks=["SCOREXY", "AB"], bag_left=0)
    g.pass_turn()
    g.pass_turn()
    g.play("8F SCORE")  # a play resets the count
    for _ in range(3):
        g.pass_turn()
        assert not g.over
    g.pass_turn()
    assert g.over and g.end_reason == "passes"
    assert g.scores == [18 - 18, -4]  # each loses their own rack: XY (8 + 10), AB (1 + 3)


def test_exchange_does_not_count_as_pass(small_lex):
    g = new_game(small_lex)
    for _ in range(3):
        g.pass_turn()
    g.exchange(g.rack_string()[:1])
    assert g.consecutive_passes == 0 and not g.over


def test_withdrawn_play_counts_as_pass(small_lex):
    g = new_game(small_lex, racks=["SCOREXY", "BERTUVW"])
    g.play("8F SCORE")
    g.play("I6 BER", challenge=0)
    assert g.consecutive_passes == 1
    g2 = new_game(small_lex, rules=Rules(withdrawn_counts_as_pass=False), racks=["SCOREXY", "BERTUVW"])
    g2.play("8F SCORE")
    g2.play("I6 BER", challenge=0)
    assert g2.consecutive_passes == 0


def test_end_by_agreement(small_lex):
    g = new_game(small_lex, rules=TOURNAMENT, racks=["QE", "AB"])
    g.end_by_agreement()
    assert g.over and g.end_reason == "agreement" and g.scores == [-11, -4]


def test_draw_reported(small_lex):
    g = new_game(small_lex, racks=["AB", "AB"], bag_left=0)
    for _ in range(4):
        g.pass_turn()
    r = g.result()
    assert r.draw and r.winners == (0, 1) and r.wins == (0.5, 0.5) and r.scores == (-4, -4)


def test_result_before_end_raises(small_lex):
    with pytest.raises(GameError, match="not over"):
        new_game(small_lex).result()


# -- clock ------------------------------------------------------------------------------
@pytest.mark.parametrize("over,expected", [(0, (0, False)), (-30, (0, False)), (1, (10, False)),
                                           (60, (10, False)), (61, (20, False)), (300, (50, False)),
                                           (300.5, (60, True)), (301, (60, True))])
def test_time_penalty(over, expected):
    assert time_penalty(over, TOURNAMENT) == expected


def test_clock_penalty_at_end(small_lex):
    g = new_game(small_lex, rules=TOURNAMENT_25, racks=["AB", "AB"], bag_left=0)
    g.pass_turn(seconds=25 * 60 + 61)  # 1:01 over: two started minutes
    for _ in range(3):
        g.pass_turn(seconds=10)
    assert g.over
    assert [(x.kind, x.player, x.score) for x in g.turns[4:]] == [(Kind.RACK, 0, -4), (Kind.RACK, 1, -4),
                                                                  (Kind.TIME, 0, -20)]
    assert g.result().winners == (1,)


def test_clock_more_than_5_minutes_over_loses(small_lex):
    g = new_game(small_lex, rules=TOURNAMENT, racks=["SCOREXY", None])
    g.play("8F SCORE", seconds=35 * 60 + 1)
    assert g.over and g.end_reason == "time" and g.forfeits == (0,)
    assert g.turns[-1].kind == Kind.TIME and g.turns[-1].score == -60
    r = g.result()
    assert r.winners == (1,) and r.forfeits == (0,)


def test_home_has_no_clock(small_lex):
    g = new_game(small_lex)
    g.pass_turn(seconds=10_000)
    assert not g.over


# -- undo -----------------------------------------------------------------------------------
def test_undo_restores_bit_for_bit(small_lex):
    g = new_game(small_lex, racks=["SCOREXY", "ÜBEKLMN"])
    states = [state(g)]
    g.play("8F SCORE")
    states.append(state(g))
    g.play("I5 ÜBER", challenge=0)
    states.append(state(g))
    g.exchange(g.rack_string()[:3])
    states.append(state(g))
    g.pass_turn()
    states.append(state(g))
    for s in reversed(states[:-1]):
        g.undo()
        assert_same_state(state(g), s)
    with pytest.raises(GameError, match="nothing to undo"):
        g.undo()


def test_undo_then_replay_draws_the_same_tiles(small_lex):
    g = new_game(small_lex, racks=["SCOREXY", None])
    t1 = g.play("8F SCORE")
    g.undo()
    t2 = g.play("8F SCORE")
    assert t1.drawn == t2.drawn and t1 == t2


def test_undo_game_end(small_lex):
    g = new_game(small_lex, players=["Ana", "Ben", "Cal"], racks=["HAUS", "QE", "AB"], bag_left=0)
    before = state(g)
    g.play("8E HAUS")
    assert g.over
    g.undo()
    assert not g.over
    assert_same_state(state(g), before)


def test_undo_keeps_cross_checks_right(small_lex):
    g = new_game(small_lex, racks=["SCOREXY", "ÜBEKLMN"])
    g.checks  # maintained from here on
    g.play("8F SCORE")
    g.undo()
    g.play("8F SCORE")
    assert [m.notation for m in g.best_moves(1)] == ["I5 ÜBE(R)"]


def test_undo_off(small_lex):
    g = Game(2, small_lex, seed=1, keep_undo=False)
    g.pass_turn()
    with pytest.raises(GameError, match="undo is off"):
        g.undo()


# -- positions ------------------------------------------------------------------------
def test_positions_cgp(small_lex):
    g = new_game(small_lex, racks=["SCOREXY", "ÜBEKLMN"])
    g.play("8F SCORE")
    g.play("I5 ÜBER")
    cur = parse_cgp(g.position().to_cgp())
    assert cur.rack_string == g.rack_string(0) and cur.scores == (18, 12)
    assert cur.opponent_rack is not None and A.rack_string(cur.opponent_rack) == g.rack_string(1)
    assert int(cur.opcodes["bag"]) == len(g.bag) == cur.bag_count
    p1 = parse_cgp(g.position(1).to_cgp())
    assert p1.rack_string == "BEKLMNÜ" and p1.scores == (0, 18) and p1.board.tile_count == 5
    assert A.rack_string(p1.opponent_rack) == g.rack_string(0)
    p0 = g.position(0)
    assert p0.board.is_empty and p0.rack_string == "CEORSXY"
    with pytest.raises(IndexError):
        g.position(3)


def test_score_pad_rows(small_lex):
    g = new_game(small_lex, players=["Ana", "Ben", "Cal"], racks=["HAUS", "QE", "AB"], bag_left=0)
    g.play("8E HAUS")
    pad = g.record().score_pad(lang="de")
    assert "Reststeine -11" in pad and "Reststeine -4" in pad and "Ausgespielt +15" in pad
    assert pad.splitlines()[-1].split()[-3:] == ["25", "-11", "-4"]


# -- random games (hypothesis) -------------------------------------------------------------
def _rescore_record(rec, lex):
    from engine.position.board import Board

    board = Board(A)
    totals = [0] * rec.n_players
    for t in rec.turns:
        totals[t.player] += t.score
        assert totals[t.player] == t.total
        if t.kind in (Kind.PLAY, Kind.WITHDRAWN):
            sm = score_placement(board, t.move.tiles, lex if t.kind == Kind.PLAY else None, rack=t.rack)
            assert sm.score == t.move.score
            if t.kind == Kind.PLAY:
                assert t.score == sm.score
                board.place([(r, c, A.code(ch), b) for r, c, ch, b in t.move.tiles])
    return board


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2 ** 32), rnd=st.randoms(use_true_random=False), players=st.integers(2, 4))
def test_random_games_conserve_tiles_and_rescore(golden_lexicon, seed, rnd, players):
    lex = golden_lexicon
    g = Game(players, lex, seed=seed)
    steps = 0
    while not g.over and steps < 200:
        steps += 1
        r = rnd.random()
        rack = g.racks[g.to_move]
        if r < 0.05 and g.turns:
            g.undo()
        elif r < 0.10:
            g.pass_turn()
        elif r < 0.17 and len(g.bag) >= 7:
            ex = exchanges(rack, A, len(g.bag))
            g.exchange(rnd.choice(ex))
        else:
            ml = generate_moves(g.board, rack, lex)
            if len(ml) == 0:
                g.pass_turn()
            else:
                m = ml[rnd.randrange(len(ml))]
                if r < 0.22:
                    g.play(m, challenge=(g.to_move + 1) % players)
                elif r < 0.5:
                    g.play(m)
                else:
                    g.play_generated(m)
        assert g.tile_total() == 102
        on_board = np.bincount(np.where(g.board.blanks, 0, g.board.tiles)[g.board.tiles != 0],
                               minlength=A.size + 1)
        assert np.array_equal(g.bag.counts() + sum(g.racks) + on_board, A.counts)
    board = _rescore_record(g.record(), lex)
    assert board == g.board
