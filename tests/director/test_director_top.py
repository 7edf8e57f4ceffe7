"""Simultaneous Scrabble: the top move (maximum of the full move list) and the documented tie-break."""

from __future__ import annotations

import numpy as np
import pytest

from engine.position.board import Board
from engine.director.event import replay
from engine.director.rules import SimultanRules, rack_check
from engine.director.store import play_master
from engine.director.topmove import TopCandidate, duplicates_in, rank_candidates, top_moves
from engine.movegen.generator import best_moves, generate_moves
from engine.position.scorer import check_move
from lexicon_tools.alphabet import german
from lexicon_tools.bundle import build_bundle

A = german()


@pytest.fixture(scope="module")
def tiny_lex(tmp_path_factory):
    """TO, TOR (blank ties) and AN, EN (leave ties)."""
    return build_bundle(["TO", "TOR", "AN", "EN"], tmp_path_factory.mktemp("lex") / "tiny.lex",
                        source_name="tiny")


def test_duplicates_in():
    assert duplicates_in("") == 0
    assert duplicates_in("EN?") == 0
    assert duplicates_in("EEN") == 1
    assert duplicates_in("EEE") == 2
    assert duplicates_in("EENN") == 2
    assert duplicates_in("??") == 0          # blanks are not letters


def test_fewer_blanks_breaks_the_tie(tiny_lex):
    # rack T O ?: TO (no blank) and TO+blank R both score (1+2)x2 = 6
    choice = top_moves(Board(A), A.parse_rack("TO?"), tiny_lex)
    scores = {c.score for c in choice.candidates}
    assert scores == {6}
    notations = [c.notation for c in choice.candidates]
    assert "8G TO" in notations and "8F TOr" in notations
    assert choice.top.notation == "8G TO"               # fewer blanks first, then notation order
    assert choice.top.blanks == 0
    assert choice.decided_by == ["fewer-blanks", "notation"]
    # the blank-free moves come first, in notation order
    no_blank = [c.notation for c in choice.candidates if c.blanks == 0]
    assert notations[:len(no_blank)] == sorted(no_blank)
    # notation alone picks the blank move that sorts first
    plain = top_moves(Board(A), A.parse_rack("TO?"), tiny_lex, ("notation",))
    assert plain.top.notation == "8F TOr" and plain.decided_by == ["notation"]


def test_fewer_duplicates_breaks_the_tie(tiny_lex):
    # rack A E E N: AN keeps E E (1 duplicate), EN keeps A E (none); both (1+1)x2 = 4
    choice = top_moves(Board(A), A.parse_rack("AEEN"), tiny_lex)
    assert {c.score for c in choice.candidates} == {4}
    assert choice.top.notation == "8G EN" and choice.top.leave == "AE"
    assert choice.decided_by == ["fewer-duplicates", "notation"]
    an = next(c for c in choice.candidates if c.notation == "8G AN")
    assert an.duplicates == 1
    assert top_moves(Board(A), A.parse_rack("AEEN"), tiny_lex, ("notation",)).top.notation == "8G AN"


def test_tie_break_keys_order_candidates():
    c1 = TopCandidate("8H AB", 10, 1, 0, 2, "CDE")
    c2 = TopCandidate("8G AB", 10, 0, 2, 2, "CCC")
    c3 = TopCandidate("H8 ABC", 10, 0, 2, 3, "CC")
    assert rank_candidates([c1, c2, c3], ("fewer-blanks", "fewer-duplicates", "notation")).top is c2
    assert rank_candidates([c1, c2, c3], ("fewer-duplicates", "notation")).top is c1
    r = rank_candidates([c1, c2, c3], ("more-tiles", "notation"))
    assert r.top is c3 and r.decided_by == ["more-tiles"]
    assert rank_candidates([c1, c2, c3], ("fewer-tiles", "fewer-blanks", "notation")).top is c2
    assert rank_candidates([c1], ("notation",)).decided_by == []
    assert rank_candidates([c2, c3], ("fewer-blanks", "fewer-duplicates", "notation")).decided_by == ["notation"]


def test_no_move_possible(tiny_lex):
    choice = top_moves(Board(A), A.parse_rack("BCD"), tiny_lex)
    assert choice.top is None and choice.candidates == [] and choice.score == 0


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_top_move_is_the_maximum_of_the_full_move_list(tmp_path, golden_lexicon, seed):
    ev = play_master(tmp_path / f"auto{seed}", seed, lexicon=golden_lexicon)
    rules = ev.rules
    assert ev.over and len(ev.closed_rounds) >= 10
    total = 0
    for rnd in ev.closed_rounds:
        rack = A.parse_rack(rnd.rack)
        assert rack_check(rack, A, rules, rnd.number) == ""
        for bad, reason in rnd.rejected:
            assert rack_check(A.parse_rack(bad), A, rules, rnd.number) == reason != ""
        ml = generate_moves(rnd.board, rack, golden_lexicon)
        best = int(ml.scores.max())
        assert rnd.top.score == best == rnd.top_score
        assert best_moves(rnd.board, rack, golden_lexicon, 1)[0].score == best
        assert len(rnd.tops) == int(np.count_nonzero(ml.scores == best))
        assert {t.notation for t in rnd.tops} == {m.notation for m in ml if m.score == best}
        keys = [t.key(rules.tie_break) for t in rnd.tops]
        assert keys == sorted(keys) and rnd.top == rnd.tops[0]
        # the independent word checker agrees on the placed move
        assert check_move(rnd.board, rnd.top.notation, golden_lexicon, rack=rack).score == best
        total += best
    assert sum(r.top.score for r in ev.closed_rounds) == total
    ev.tile_check()
    assert ev.end_reason


def test_auto_is_reproducible_and_replays(tmp_path, golden_lexicon):
    a = play_master(tmp_path / "a", 11, lexicon=golden_lexicon, name="x")
    b = play_master(tmp_path / "b", 11, lexicon=golden_lexicon, name="x")
    c = play_master(tmp_path / "c", 12, lexicon=golden_lexicon)
    key = lambda ev: [(r.rack, r.top.notation, r.top.score) for r in ev.closed_rounds]  # noqa: E731
    assert key(a) == key(b) != key(c)
    assert (tmp_path / "a/export/master.gcg").read_text() == (tmp_path / "b/export/master.gcg").read_text()
    # rebuilding from the journal, even regenerating every round's moves, gives the same state
    from engine.director.journal import Journal

    again = replay(Journal(tmp_path / "a").read(), golden_lexicon, recompute=True)
    snap_a, snap_again = a.snapshot(), again.snapshot()
    assert snap_a == snap_again


def test_custom_tie_break_changes_the_master_game_only_on_ties(tmp_path, golden_lexicon):
    rules = SimultanRules.for_alphabet(A, tie_break="more-tiles")
    a = play_master(tmp_path / "a", 5, lexicon=golden_lexicon)
    b = play_master(tmp_path / "b", 5, lexicon=golden_lexicon, rules=rules)
    first = a.closed_rounds[0]
    assert first.top.score == b.closed_rounds[0].top.score
    for ra, rb in zip(a.closed_rounds, b.closed_rounds):
        if ra.rack != rb.rack:
            break
        assert ra.top.score == rb.top.score
        if len(ra.tops) == 1:
            assert ra.top == rb.top
