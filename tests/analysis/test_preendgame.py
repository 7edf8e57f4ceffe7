"""Pre-endgame (engine/analysis/preendgame.py): win rate and spread against an independent enumeration, limits, sampling.

The independent method: the draws enumerated here by hand (one tile in the bag:
each unseen tile type, weighted by its count; the opponent holds the rest),
each endgame solved by the brute-force minimax of tests/analysis/test_endgame.py (move
generator and ``Board.place`` only, no search tricks), and the win rate and
mean final spread weighted by those counts. Lexicon: a bundle of 24 short words
built here, so that the opponent's 7-tile racks have only a few moves and the
brute force stays fast (with the golden list these endgames take minutes).
"""

from __future__ import annotations

import json
from math import comb

import numpy as np
import pytest

from engine.position.cgp import parse_cgp
from engine.cli.main import main
from engine.movegen.generator import generate_moves
from engine.analysis.preendgame import _n_multisets, greedy_playout, multisets, preendgame
from test_endgame import brute

# One tile in the bag, opponent's rack unknown: 8 unseen tiles AGHKMOSU (the board of
# benchmarks/positions/preendgames.tsv p0; scores set so that some draws win and some lose).
ONE_IN_BAG = ("11F1WO/9H1I1AB/8MEHLEN1/9I1M1N1/9D3E1/5Q2PI1CENT/5U2I3X1J/3FIESEN5A/3O1R3R3L1/1Z1Y5Ü3E1/"
              "MÄDELN1B1S3C1/ES1r1AGENTUR1K1/TUNS1I1e1E3E1/ER3V1N1N3R1/R4E1G1DÖSTET ADHSTUU/ 289/287 0")
TINY_WORDS = sorted("DU AU SO OH HA UM AH TAU HUT MUS GUT HAUS KUH OHM SAU DA AS US ZU TU HAST SAG MAG".split())
# Three tiles in the bag, ten unseen (tests/web/test_web_deep.py NEAR_END).
THREE_IN_BAG = ("C3WOLF7/H4BAR7/RAM3M8/1KÜSSTEN7/HPS1Ä1EINHAUEND/A1S1T2L6A/B1E1Z1Y7M/E2JEDEN6M/1OFEN1N7S/"
                "1HIT5K5/2X1G4U5/ÖDERE4R5/2R1IRQ2I5/1USTG4E5/4TILGeN5 EEEISTV/ 300/309 0 lex golden;")
STUCK = "sstuck_0"  # tests/data/endgames_small.tsv


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    from lexicon_tools.bundle import build_bundle

    return build_bundle(TINY_WORDS, tmp_path_factory.mktemp("tiny") / "tiny.lex", source_name="tiny")


def _after(board, move):
    b = board.copy()
    b.place([(r, c, board.alphabet.code(ch), bl) for r, c, ch, bl in move.tiles])
    return b


def _leave(pos, move):
    a = pos.alphabet
    left = pos.rack.astype(np.int32).copy()
    for _r, _c, ch, bl in move.tiles:
        left[0 if bl else a.code(ch)] -= 1
    return left


def by_enumeration(pos, notation, lex):
    """``(win, mean spread, draws)`` of one candidate: every tile type of the bag, solved one by one."""
    move = next(m for m in generate_moves(pos.board, pos.rack, lex) if m.notation == notation)
    after, leave = _after(pos.board, move), _leave(pos, move)
    unseen = pos.unseen()
    tw = win = spread = 0.0
    draws = 0
    for t in np.nonzero(unseen)[0]:
        w = int(unseen[t])                      # that many tiles of type t: that many ways to draw one
        d = np.zeros_like(unseen)
        d[t] = 1
        racks = [(unseen - d).astype(np.int32), (leave + d).astype(np.int32)]
        value = brute(after.copy(), racks, 0, 0, lex, {})              # the opponent moves first in the endgame
        final = pos.scores[0] - pos.scores[1] + move.score - value
        tw += w
        spread += w * final
        win += w * (1.0 if final > 0 else 0.5 if final == 0 else 0.0)
        draws += 1
    assert tw == 8
    return win / tw, spread / tw, draws


def test_one_tile_in_the_bag_equals_the_enumeration(tiny):
    pos = parse_cgp(ONE_IN_BAG)
    assert int(pos.unseen().sum()) == 8
    res = preendgame(pos, tiny, top=3, time_limit=300, passing=False)
    assert res["bag"] == 1 and len(res["moves"]) == 3
    for m in res["moves"]:
        win, spread, draws = by_enumeration(pos, m["move"], tiny)
        assert m["exact"] is True and m["exact_share"] == 1.0 and m["sampled"] is False
        assert m["draws"] == draws
        assert m["win"] == pytest.approx(win)
        assert m["spread"] == pytest.approx(spread)
    keys = [(m["win"], m["spread"]) for m in res["moves"]]
    assert keys == sorted(keys, reverse=True)


def test_passing_is_a_candidate_with_the_rational_reply(tiny):
    """Passing: the opponent (each 7-tile rack of the 8 unseen tiles, weighted by its count) answers with
    its highest-equity move, draws the last tile, and the endgame (us to move) is solved by brute force."""
    from engine.game.equity import best_equity

    pos = parse_cgp(ONE_IN_BAG)
    res = preendgame(pos, tiny, top=1, time_limit=300)
    m = next(x for x in res["moves"] if x["move"] == "-")
    assert m["score"] == 0 and m["reply"] is True and m["exact"] is False  # the reply is modelled: never exact
    unseen = pos.unseen()
    tw = win = spread = 0.0
    for t in np.nonzero(unseen)[0]:
        opp = (unseen - np.eye(len(unseen), dtype=unseen.dtype)[t]).astype(np.int32)  # tile t stays in the bag
        w = int(unseen[t])
        reply = best_equity(pos.board, opp, tiny, bag=1, n=1, exchanges=False)[0]
        assert reply.kind == "play"  # with this board every such rack has a placement
        theirs = _leave(parse_cgp(ONE_IN_BAG.replace(" ADHSTUU/", " " + pos.alphabet.rack_string(opp) + "/")),
                        reply.move)
        theirs[t] += 1
        value = brute(_after(pos.board, reply.move), [pos.rack.astype(np.int32).copy(), theirs], 0, 0, tiny, {})
        final = pos.scores[0] - pos.scores[1] - reply.score + value
        tw += w
        spread += w * final
        win += w * (1.0 if final > 0 else 0.5 if final == 0 else 0.0)
    assert m["exact_share"] == 1.0  # every draw's endgame solved
    assert m["win"] == pytest.approx(win / tw) and m["spread"] == pytest.approx(spread / tw)


def test_node_limit_zero_is_greedy_and_not_exact(tiny):
    pos = parse_cgp(ONE_IN_BAG)
    res = preendgame(pos, tiny, top=2, time_limit=300, node_limit=0, passing=False)
    for m in res["moves"]:
        assert m["exact"] is False and m["exact_share"] == 0.0 and m["evaluated"] == 1.0
        # the greedy playouts, recomputed here line by line
        move = next(x for x in generate_moves(pos.board, pos.rack, tiny) if x.notation == m["move"])
        after, leave, unseen = _after(pos.board, move), _leave(pos, move), pos.unseen()
        finals = []
        for t in np.nonzero(unseen)[0]:
            d = np.zeros_like(unseen)
            d[t] = 1
            v = greedy_playout(after, unseen - d, leave + d, tiny)
            finals += [pos.scores[0] - pos.scores[1] + move.score - v] * int(unseen[t])
        assert m["spread"] == pytest.approx(sum(finals) / 8)


def test_greedy_playout_by_hand(golden_lexicon):
    from test_endgame import POS, _val

    from engine.analysis.endgame import endgame_position

    # neither side can place a tile: four passes, each side loses its own rack (Y 10 against C 4)
    p = endgame_position(parse_cgp(POS[STUCK]))
    a = p.alphabet
    assert greedy_playout(p.board, p.rack, p.opponent_rack, golden_lexicon) == 4 - 10
    # N goes out at once with its best score and gains twice the opponent's Y
    q = endgame_position(parse_cgp(POS["s11_1"]))
    best = generate_moves(q.board, q.rack, golden_lexicon).top(1)[0].score
    assert greedy_playout(q.board, q.rack, q.opponent_rack, golden_lexicon) == best + 2 * _val(q.opponent_rack, a)


def test_three_in_the_bag_weights_and_sampling(golden_lexicon):
    pos = parse_cgp(THREE_IN_BAG)
    unseen = pos.unseen()
    assert int(unseen.sum()) == 10
    # the weights of the draws of 3 from the 10 unseen tiles count every tile-level draw once
    got = list(multisets(unseen, 3))
    assert sum(w for _d, w in got) == comb(10, 3) and len(got) == _n_multisets(unseen, 3)
    res = preendgame(pos, golden_lexicon, top=40, time_limit=300, max_draws=5, node_limit=0)  # short moves too
    by = {m["move"]: m for m in res["moves"]}
    assert by["12H VE(R)EISTE"]["win"] == 1.0            # the bingo wins against every rack (tests/analysis/test_simulation.py)
    short = [m for m in res["moves"] if m["move"] != "12H VE(R)EISTE"]
    assert short and all(not m["exact"] for m in res["moves"])
    # a move of fewer than 3 tiles leaves tiles in the bag: more than 5 lines, so they are sampled
    assert any(m["sampled"] and m["draws"] <= 5 for m in short)


def test_a_tiny_budget_still_answers_every_candidate(tiny):
    pos = parse_cgp(ONE_IN_BAG)
    res = preendgame(pos, tiny, top=4, time_limit=1e-6)
    assert len(res["moves"]) == 5 and "-" in {m["move"] for m in res["moves"]}  # the 4 placements and passing
    assert all(0.0 < m["evaluated"] <= 1.0 and m["exact"] is False for m in res["moves"])


def test_bad_arguments(tiny):
    pos = parse_cgp(ONE_IN_BAG)
    with pytest.raises(ValueError, match="node limit"):
        preendgame(pos, tiny, node_limit=-1)
    with pytest.raises(ValueError, match="max_draws"):
        preendgame(pos, tiny, max_draws=0)
    with pytest.raises(ValueError, match="time limit"):
        preendgame(pos, tiny, time_limit=0)


def test_cli_json(tiny, capsys):
    rc = main(["preendgame", "--cgp", ONE_IN_BAG, "--lexicon", str(tiny.path), "--top", "2", "--json",
               "--time", "120"])
    assert rc == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["moves"]) == 3 and out["bag"] == 1  # the top 2 placements and passing
    for m in (m for m in out["moves"] if m["move"] != "-"):
        assert {"move", "win", "spread", "exact"} <= set(m)
        win, spread, _ = by_enumeration(parse_cgp(ONE_IN_BAG), m["move"], tiny)
        assert m["exact"] is True and m["win"] == pytest.approx(win, abs=1e-4)
        assert m["spread"] == pytest.approx(spread, abs=0.01)
    rc = main(["preendgame", "--cgp", ONE_IN_BAG, "--lexicon", str(tiny.path), "--time", "0"])
    err = capsys.readouterr().err
    assert rc == 2 and err.strip().startswith("error:") and "Traceback" not in err


def test_analyze_reports_the_preendgame(tiny, capsys):
    rc = main(["analyze", "--cgp", ONE_IN_BAG, "--lexicon", str(tiny.path), "--time", "60s", "--top", "2"])
    assert rc == 0
    out = capsys.readouterr().out
    assert "pre-endgame, bag 1" in out and "win %" in out
    rc = main(["analyze", "--cgp", ONE_IN_BAG, "--lexicon", str(tiny.path), "--time", "60", "--top", "2",
               "--json"])
    assert rc == 0
    pre = json.loads(capsys.readouterr().out)["preendgame"]
    m = next(m for m in pre["moves"] if m["move"] != "-")
    win, spread, _ = by_enumeration(parse_cgp(ONE_IN_BAG), m["move"], tiny)
    assert m["exact"] is True and m["win"] == pytest.approx(win, abs=1e-4)


# The hand-checked position: ONE_IN_BAG's board and racks, scores 280/289, and a word list of the one word
# DU. The mover (ADHSTUU) has one placement, 5J (D)U for 4 points; after it nobody has a placement.
HAND = ONE_IN_BAG.replace(" 289/287 0", " 280/289 0")
VALUES = {"A": 1, "D": 1, "G": 2, "H": 2, "K": 4, "M": 3, "O": 2, "S": 1, "T": 1, "U": 1}  # SPEC.md tile values


@pytest.fixture(scope="module")
def du(tmp_path_factory):
    from lexicon_tools.bundle import build_bundle

    return build_bundle(["DU"], tmp_path_factory.mktemp("du") / "du.lex", source_name="du")


def test_exact_mode_against_a_hand_checked_enumeration(du):
    """Every draw worked out by hand.

    5J (D)U: spread -9 + 4 = -5, leave ADHSTU (7 points). The bag's tile t is one of the 8 unseen
    tiles AGHKMOSU (16 points, one each, weight 1 each); we draw it, the opponent holds the other 7.
    Nobody can place a tile, so the game ends after four passes and each side loses its own rack:
    final = -5 - (7 + v) + (16 - v) = 4 - 2v. A, S, U (v=1): +2, win; G, H, O (v=2): 0, tie;
    M (v=3): -2; K (v=4): -4. Win rate (3 + 3/2) / 8 = 0.5625, mean spread 0 / 8 = 0.

    Passing: the opponent's rack is the unseen tiles but t. With a U (t is not U, 7 of 8) its only
    move, 5J (D)U for 4, is its highest-equity move; it draws t and the endgame (us to move, nobody
    can place) ends by passes: -9 - 4 - 8 (ADHSTUU) + 15 (AGHKMOS) = -6. Without a U (t = U) it
    passes with the tile still in the bag: that line is points only, -9, and not solved. Win rate 0,
    mean (7 × -6 - 9) / 8 = -6.375, 7 of 8 draws solved.
    """
    pos = parse_cgp(HAND)
    assert {pos.alphabet.letter(c): int(n) for c, n in enumerate(pos.unseen()) if n} == dict.fromkeys("AGHKMOSU", 1)
    finals = [4 - 2 * VALUES[t] for t in "AGHKMOSU"]
    assert sorted(finals) == [-4, -2, 0, 0, 0, 2, 2, 2]
    res = preendgame(pos, du, top=5, time_limit=300)
    by = {m["move"]: m for m in res["moves"]}
    assert set(by) == {"5J (D)U", "-"}
    du_ = by["5J (D)U"]
    assert du_["exact"] is True and du_["exact_share"] == 1.0 and du_["draws"] == 8 and du_["reply"] is False
    assert du_["win"] == pytest.approx(0.5625) and du_["spread"] == pytest.approx(0.0)
    p = by["-"]
    assert p["exact"] is False and p["reply"] is True
    assert p["exact_share"] == pytest.approx(7 / 8) and p["win"] == 0.0 and p["spread"] == pytest.approx(-6.375)
    assert [m["move"] for m in res["moves"]] == ["5J (D)U", "-"]


class _Inference:
    """The two fields of an InferenceResult that rack_ratio reads."""

    def __init__(self, pool, leaves, weights):
        self.pool = np.asarray(pool, dtype=np.int64)
        self.leaves = np.asarray(leaves, dtype=np.int64)
        self.weights = np.asarray(weights, dtype=np.float64)
        self.probabilities = self.weights / self.weights.sum()


def test_rack_ratio_by_hand():
    from engine.analysis.preendgame import rack_ratio

    pos = parse_cgp(HAND)
    unseen = pos.unseen().astype(np.int64)
    a = pos.alphabet
    k = a.code("K")
    eye = np.eye(len(unseen), dtype=np.int64)
    # the opponent kept exactly K (one leave, probability 1): a rack without K is impossible; a rack with K
    # is K plus 6 of the other 7 tiles, 1 / C(7, 6) = 1/7, against 1 / C(8, 7) = 1/8 uniformly: ratio 8/7
    ratio = rack_ratio(_Inference(unseen, [eye[k]], [1.0]), unseen, 7)
    assert ratio(unseen - eye[k]) == 0.0
    assert ratio(unseen - eye[a.code("A")]) == pytest.approx(8 / 7)
    # every one-tile leave consistent, weighted by its draw count (1 each): the uniform distribution, ratio 1
    ratio = rack_ratio(_Inference(unseen, [eye[c] for c in np.nonzero(unseen)[0]], [1.0] * 8), unseen, 7)
    assert all(ratio(unseen - eye[c]) == pytest.approx(1.0) for c in np.nonzero(unseen)[0])


def test_the_inference_weights_the_draws_by_hand(du):
    """The opponent is known to have kept K: we never draw K; the other 7 draws of 5J (D)U weigh the same
    (ratio 8/7 each): finals A, S, U +2, G, H, O 0, M -2 (the hand-checked list above without K's -4),
    win (3 + 3/2) / 7, mean 4 / 7."""
    pos = parse_cgp(HAND)
    unseen = pos.unseen().astype(np.int64)
    eye = np.eye(len(unseen), dtype=np.int64)
    inf = _Inference(unseen, [eye[pos.alphabet.code("K")]], [1.0])
    res = preendgame(pos, du, top=1, time_limit=300, opponent=inf, passing=False)
    m = res["moves"][0]
    assert res["inferred"] is True and m["move"] == "5J (D)U" and m["draws"] == 7 and m["exact"] is True
    assert m["win"] == pytest.approx(4.5 / 7) and m["spread"] == pytest.approx(4 / 7)


def test_cli_last_move_and_cpu_budget(tiny, capsys):
    """--cpu takes the budget in CPU seconds; a --last-move that was not legal is a clear error (exit 2).
    (The inference's weighting itself: test_the_inference_weights_the_draws_by_hand.)"""
    rc = main(["preendgame", "--cgp", ONE_IN_BAG, "--lexicon", str(tiny.path), "--top", "1", "--json",
               "--time", "120", "--cpu"])
    cap = capsys.readouterr()
    assert rc == 0, cap.err
    out = json.loads(cap.out)
    assert out["inferred"] is False and {"reply", "exact_share"} <= set(out["moves"][0])
    assert any(m["move"] == "-" and m["reply"] for m in out["moves"])
    rc = main(["preendgame", "--cgp", ONE_IN_BAG, "--lexicon", str(tiny.path), "--last-move", "15J DÖSTET"])
    err = capsys.readouterr().err
    assert rc == 2 and "not in the word list" in err and "Traceback" not in err
