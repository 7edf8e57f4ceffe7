"""Players of named strengths (engine/analysis/player.py) and the seat-swapped match game."""

from __future__ import annotations

import pytest

from engine.analysis.player import STRENGTHS, Decision, Player, play_match_game
from engine.game.game import Game


def test_strengths_and_bad_arguments():
    assert STRENGTHS == ("static", "endgame", "sim", "full")
    with pytest.raises(ValueError, match="unknown strength"):
        Player("grandmaster")
    with pytest.raises(ValueError, match="positive"):
        Player("full", 0)


def test_static_player_is_the_equity_player(golden_lexicon):
    from engine.game.equity import choose

    g = Game(2, golden_lexicon, seed=11, first=0, keep_undo=False)
    p = Player("static")
    for _ in range(6):  # the opening and a few replies
        d = p.choose(g)
        c = choose(g, p.table)
        assert isinstance(d, Decision) and d.how == "static" and d.notation == c.notation and d.seconds >= 0
        d.apply(g)


def test_identical_players_on_a_deal_pair_give_opposite_spreads(golden_lexicon):
    """The same deal (bag seed, seat 0 first) with the seats swapped: two copies of one deterministic player
    play the same game twice, so the first player's spreads are equal and opposite (the pair sums to 0)."""
    a, b = Player("static"), Player("static")
    g1, cpu1 = play_match_game([a, b], golden_lexicon, 5, first=0)
    g2, _ = play_match_game([b, a], golden_lexicon, 5, first=0)
    assert g1.over and g2.over and all(c >= 0 for c in cpu1)
    assert [t.move.notation if t.move else t.kind for t in g1.turns] == \
           [t.move.notation if t.move else t.kind for t in g2.turns]
    s1 = g1.scores[0] - g1.scores[1]          # a in seat 0
    s2 = g2.scores[1] - g2.scores[0]          # a in seat 1
    assert s1 == -s2
    # the score pad adds up: each seat's score is the sum of its entries
    for s in (0, 1):
        assert g1.scores[s] == sum(t.score for t in g1.turns if t.player == s)


def test_full_player_uses_the_pre_endgame_and_the_endgame_solver(golden_lexicon):
    """``full``: the pre-endgame with 1-3 tiles in the bag, the endgame solver with the bag empty; each
    decision is legal in the game (applied without error)."""
    g = Game(2, golden_lexicon, seed=3, first=0, keep_undo=False)
    static, full = Player("static"), Player("full", 2.0)
    seen = set()
    while not g.over:
        bag = len(g.bag)
        if 1 <= bag <= 3 and "pre-endgame" not in seen or bag == 0 and "endgame" not in seen:
            d = full.choose(g)
            assert d.how == ("endgame" if bag == 0 else "pre-endgame")
            seen.add(d.how)
        else:
            d = static.choose(g)
        d.apply(g)
    assert "endgame" in seen  # every game ends with an empty bag or a stuck position; this one empties it


def test_selfplay_cli_strengths(golden_lexicon, capsys):
    """``selfplay --strength static,static``: one deal pair of one deterministic player: 0 points a game."""
    import json

    from engine.cli.main import main

    rc = main(["selfplay", "--games", "2", "--strength", "static,static", "--lexicon", str(golden_lexicon.path),
               "--json", "--no-progress", "--seed", "4"])
    assert rc == 0
    out = json.loads(capsys.readouterr().out)
    assert out["pairs"] == 1 and out["games"] == 2 and out["spread"] == 0.0 and out["wins_a"] == 1.0
    rc = main(["selfplay", "--games", "2", "--strength", "full,grandmaster", "--lexicon", str(golden_lexicon.path)])
    err = capsys.readouterr().err
    assert rc == 2 and "--strength takes two of" in err
