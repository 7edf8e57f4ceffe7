"""A lexicon named without its suffix is found in every format: one resolver (lexicon_tools.bundle.find_lexicon).

Each caller kind is tried with the wide variant (a ``.lex`` bundle holding ``lexicon.kwg64``, and a bare
``.kwg64`` graph), which the earlier per-caller suffix lists (``.lex``, ``.kwg``) did not know.
"""

from __future__ import annotations

import pytest

from engine.cli import main as engine_cli
from engine.position.cgp import parse_cgp, position_notes
from engine.game.gcg import record_lexicon_name, resolve_lexicon_name
from lexicon_tools.bundle import Lexicon, build_bundle, find_lexicon, lexicon_stem
from lexicon_tools.kwg import build_kwg

WORDS = ["HAUS", "HAUSE", "AUS", "LAUS", "MAUS", "SAU"]
EMPTY = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AHSUXYZ/ 0/0 0"


@pytest.fixture(scope="module")
def wide(tmp_path_factory):
    """``small.lex`` (a wide bundle) in one directory, ``bare.kwg64`` (a bare wide graph) in another."""
    d = tmp_path_factory.mktemp("wide")
    build_bundle(WORDS, d / "small.lex", format="wide")
    b = tmp_path_factory.mktemp("bare")
    build_kwg(WORDS, format="wide").astype("<u8").tofile(b / "bare.kwg64")
    return d, b


def test_stem_and_find_know_every_format(wide, tmp_path):
    d, b = wide
    assert [lexicon_stem(p) for p in ("/x/small.lex", "small.lex/", "bare.kwg64", "w.kwg", "plain", ".lex")] \
        == ["small", "small", "bare", "w", "plain", ".lex"]
    assert find_lexicon("small", [tmp_path, d]) == d / "small.lex"
    assert find_lexicon("bare", [b]) == b / "bare.kwg64"
    assert find_lexicon("bare", [d]) is None
    assert find_lexicon("../bare", [b]) is None and find_lexicon(".hidden", [b]) is None


@pytest.mark.parametrize("which", ["small", "bare"])
def test_cli_lexicon_name_finds_the_wide_lexicon(wide, which, monkeypatch, capsys):
    d, b = wide
    monkeypatch.chdir(d if which == "small" else b)
    # first move through the centre star (double word): H 2 + A 1 + U 1 + S 1 = 5, doubled
    assert engine_cli.main(["score", "--lexicon", which, "--cgp", EMPTY, "8H HAUS"]) == 0
    assert "8H HAUS: 10 points" in capsys.readouterr().out
    assert engine_cli.main(["score", "--lexicon", which, "--cgp", EMPTY, "8H HASU"]) == 1  # not in the list
    assert engine_cli.main(["score", "--lexicon", "nosuch", "--cgp", EMPTY, "8H HAUS"]) == 2
    assert "no such lexicon" in capsys.readouterr().err


def test_cgp_naming_the_wide_lexicon_gives_no_note(wide):
    d, b = wide
    for path, name in ((d / "small.lex", "small"), (b / "bare.kwg64", "bare")):
        lex = Lexicon.load(path)
        assert lex.layout == "wide"
        assert position_notes(parse_cgp(f"{EMPTY} lex {name};"), lex) == []
        assert len(position_notes(parse_cgp(f"{EMPTY} lex other;"), lex)) == 1


def test_gcg_names_and_finds_the_wide_lexicon(wide):
    d, b = wide
    for path, name, where in ((d / "small.lex", "small", d), (b / "bare.kwg64", "bare", b)):
        assert record_lexicon_name(Lexicon.load(path)) == name  # what a record of a game with it says
        assert resolve_lexicon_name(name, where) == path  # and what reading that record finds again
