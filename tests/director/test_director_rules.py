"""Simultaneous Scrabble: rack draw rules on hand-built bags, rule options, time parsing."""

from __future__ import annotations

import numpy as np
import pytest

from engine.director.rules import (
    SimultanRules,
    can_make_rack,
    draw_rack,
    format_time,
    parse_time,
    rack_balance,
    rack_check,
)
from engine.game.game import Bag
from lexicon_tools.alphabet import german

A = german()
RULES = SimultanRules.for_alphabet(A)


def counts(tiles: str) -> np.ndarray:
    """Counts of a tile string of any length (``?`` = blank)."""
    c = np.zeros(A.size + 1, dtype=np.int32)
    for ch in tiles:
        c[0 if ch == "?" else A.code(ch)] += 1
    return c


def bag_of(tiles: str, seed: int = 1) -> Bag:
    return Bag(A, seed, tiles=[0 if ch == "?" else A.code(ch) for ch in tiles])


def test_default_rules_match_duplicate_practice():
    assert RULES.minimum(1) == (2, 2)
    assert RULES.minimum(15) == (2, 2)
    assert RULES.minimum(16) == (1, 1)
    assert set(RULES.vowels) == set("AEIOUÄÖÜ")
    assert RULES.tie_break == ("fewer-blanks", "fewer-duplicates", "notation")


@pytest.mark.parametrize("rack, balance", [
    ("AEIOUÄÖ", (7, 0, 0)),
    ("ÜYBCDFG", (1, 6, 0)),   # Y is a consonant, Ü a vowel
    ("AE?BC??", (2, 2, 3)),
])
def test_rack_balance(rack, balance):
    assert rack_balance(counts(rack), A, RULES.vowels) == balance


@pytest.mark.parametrize("rack, round_no, ok", [
    ("AEBCDFG", 1, True),
    ("AEIOUBC", 15, True),
    ("ABCDFGH", 15, False),   # one vowel: too few before round 16
    ("ABCDFGH", 16, True),    # enough from round 16
    ("AEIOUÄB", 1, False),    # one consonant
    ("AEIOUÄY", 16, True),    # Y counts as a consonant
    ("AEIOUÄÖ", 16, False),   # no consonant at all
    ("BCDFGH?", 16, True),    # the blank stands in for the vowel
    ("BCDFG??", 1, True),     # two blanks as the two vowels
    ("BCDFGH?", 1, False),    # one blank is not two vowels
    ("AEIOU??", 1, True),     # blanks as consonants
    ("AE?", 1, False),        # a short rack must meet the minimum too
    ("AB", 16, True),
])
def test_rack_check(rack, round_no, ok):
    reason = rack_check(counts(rack), A, RULES, round_no)
    assert (reason == "") == ok, reason
    if not ok:
        assert f"round {round_no} needs" in reason


def test_can_make_rack():
    assert can_make_rack(counts("AEBCDFGHJKLMN"), A, RULES, 1)
    assert not can_make_rack(counts("ABCDFGHJKLMN"), A, RULES, 1)      # one vowel in all
    assert can_make_rack(counts("ABCDFGHJKLMN"), A, RULES, 16)
    assert can_make_rack(counts("ABCDFGHJKLMN?"), A, RULES, 1)          # the blank is the second vowel
    assert not can_make_rack(counts("BCDFG"), A, RULES, 20)             # consonants only
    assert not can_make_rack(counts(""), A, RULES, 20)
    assert can_make_rack(counts("EN"), A, RULES, 20)                    # a rack of two at the end
    assert not can_make_rack(counts("EEEEEEEEEEN"), A, RULES, 1)       # only one consonant anywhere


def test_first_draw_kept_when_valid():
    bag = bag_of("AEBCDFG")
    res = draw_rack(bag, counts(""), 1, RULES)
    assert res.end == "" and res.rejected == []
    assert A.rack_string(res.rack) == A.rack_string(counts("AEBCDFG"))
    assert len(bag) == 0


def test_rejected_draws_go_back_whole_and_are_recorded():
    pool = "AEIOU" + "BCDFGHJKLMNPRSTVWZ" * 2
    seen_without_leave = False
    rejections = 0
    for seed in range(40):
        bag = bag_of(pool, seed)
        leave = counts("XY")               # two consonants kept from the last round
        res = draw_rack(bag, leave, 1, RULES)
        assert res.end == ""
        assert rack_check(res.rack, A, RULES, 1) == ""
        # every tile is either on the rack or back in the bag
        assert (res.rack + bag.counts()).tolist() == (counts(pool) + leave).tolist()
        for i, (rack, reason) in enumerate(res.rejected):
            assert rack_check(counts(rack), A, RULES, 1) == reason != ""
            assert len(rack) == 7
            if i == 0:                     # the first draw completes the leave
                assert "X" in rack and "Y" in rack
        rejections += len(res.rejected)
        if res.rejected and not ("X" in A.rack_string(res.rack) and "Y" in A.rack_string(res.rack)):
            seen_without_leave = True      # the leave went back into the bag with the rest
    assert rejections > 0
    assert seen_without_leave


def test_draw_is_reproducible_from_the_seed():
    pool = "AEIOU" + "BCDFGHJKLMNPRSTVWZ" * 2
    a = draw_rack(bag_of(pool, 7), counts(""), 3, RULES)
    b = draw_rack(bag_of(pool, 7), counts(""), 3, RULES)
    assert a.rejected == b.rejected and a.rack.tolist() == b.rack.tolist()


def test_event_ends_when_no_valid_rack_can_be_made():
    bag = bag_of("BCDFGHJKLMN")
    leave = counts("A")
    res = draw_rack(bag, leave, 1, RULES)
    assert res.rack is None and res.rejected == []
    assert "cannot make a rack with at least 2 vowels and 2 consonants" in res.end
    assert bag.counts().tolist() == counts("BCDFGHJKLMNA").tolist()   # the leave went back too


def test_end_of_bag_short_rack():
    ok = draw_rack(bag_of("NT"), counts("E"), 20, RULES)
    assert ok.end == "" and A.rack_string(ok.rack) == "ENT"
    over = draw_rack(bag_of("ST"), counts("RW"), 20, RULES)
    assert over.rack is None and "(RSTW)" in over.end
    empty = draw_rack(bag_of(""), counts(""), 20, RULES)
    assert empty.rack is None and empty.end == "no tiles left"


def test_rule_switch_after_round_15():
    # one vowel in the whole pool: impossible up to round 15, fine from round 16
    assert draw_rack(bag_of("ABCDFGHJKL"), counts(""), 15, RULES).rack is None
    res = draw_rack(bag_of("ABCDFGHJKL"), counts(""), 16, RULES)
    assert res.rack is not None and res.rack[A.code("A")] == 1


def test_custom_minimum_rules():
    strict = SimultanRules.for_alphabet(A, vc_rounds=99, early_vowels=3, early_consonants=3)
    assert rack_check(counts("AEBCDFG"), A, strict, 50) != ""
    assert rack_check(counts("AEIBCDF"), A, strict, 50) == ""
    with pytest.raises(ValueError):
        SimultanRules(early_vowels=4, early_consonants=4)
    with pytest.raises(ValueError):
        SimultanRules(round_time=-1)


def test_tie_break_option_parsing():
    assert SimultanRules(tie_break="blanks,duplicates").tie_break == ("fewer-blanks", "fewer-duplicates", "notation")
    assert SimultanRules(tie_break=("notation", "more-tiles")).tie_break == ("more-tiles", "notation")
    with pytest.raises(ValueError, match="unknown tie-break"):
        SimultanRules(tie_break="alphabetical")


def test_rules_round_trip():
    r = SimultanRules.for_alphabet(A, solo_bonus=10, solo_min_players=3, round_time=120, tie_break="more-tiles")
    assert SimultanRules.from_dict(r.to_dict()) == r
    with pytest.raises(ValueError, match="unknown rule"):
        SimultanRules.from_dict({**r.to_dict(), "colour": "red"})


@pytest.mark.parametrize("text, secs", [("180", 180), ("3:00", 180), ("2:30", 150), ("3m", 180), ("90s", 90),
                                        (240, 240)])
def test_parse_time(text, secs):
    assert parse_time(text) == secs


@pytest.mark.parametrize("text", ["3:7", "abc", "1:60", "-5", ""])
def test_parse_time_rejects(text):
    with pytest.raises(ValueError, match="round time"):
        parse_time(text)


def test_format_time():
    assert format_time(180) == "3:00"
    assert format_time(61.4) == "1:01"
    assert format_time(-5) == "-0:05"
