"""The score pad's GCG import reads what ``engine/game/gcg.py`` reads (report-attack26d B7, the rest): a file
that is not UTF-8 (unless its first line declares ISO-8859-1), a turn after the game's end, and a letter in
brackets on an empty square (or a letter on a square that holds another) are refused naming the line, where the
CLI refuses them too. Headless Chromium at a phone's viewport, the setup of tests/web/test_web_pad.py.
Skipped when Chromium or Playwright is missing, except under CI (``CI`` set).
"""

from __future__ import annotations

import pytest
from browser_support import require_chromium

require_chromium()

from playwright.sync_api import expect  # noqa: E402
from test_web_pad import PHONE, ctx, page, server, start_game, totals  # noqa: E402,F401  (fixtures)
from test_web_pad_gcg import refused_in_english, refused_like_the_cli, rows  # noqa: E402

HEAD = "#player1 Ana Ana\n#player2 Ben Ben\n"


def test_a_file_that_is_not_utf8_is_refused_unless_it_says_latin1(page, tmp_path):
    from engine.game.gcg import GCGError, read_gcg_file

    pg = page
    start_game(pg, ["Ida", "Jo"])
    latin = ("#player1 J\u00f6rg J\u00f6rg\n#player2 Ben Ben\n>J\u00f6rg: ... 8H HAUS +10 10\n").encode("latin-1")
    f = tmp_path / "latin.gcg"
    f.write_bytes(latin)
    with pytest.raises(GCGError, match="^.*line 1: not valid utf-8"):
        read_gcg_file(f, None)
    pg.set_input_files("#import-file", str(f))
    expect(pg.locator("#io-msg")).to_contain_text("GCG nicht gelesen: Zeile 1: kein gültiges UTF-8")
    expect(pg.locator("#games li")).to_have_count(1)
    # declared: read as the CLI reads it, the name with its umlaut (before: U+FFFD)
    f.write_bytes(b"#character-encoding ISO-8859-1\n" + latin)
    assert read_gcg_file(f, None).players[0] == "J\u00f6rg"
    pg.set_input_files("#import-file", str(f))
    expect(pg.locator("#io-msg")).to_have_text("GCG gelesen: 1 Einträge")
    assert pg.evaluate("PAD.game.players") == ["J\u00f6rg", "Ben"]
    # a byte-order mark is still read
    f.write_bytes(b"\xef\xbb\xbf" + (HEAD + ">Ana: ... 8H HAUS +10 10\n").encode())
    pg.set_input_files("#import-file", str(f))
    expect(pg.locator("#io-msg")).to_have_text("GCG gelesen: 1 Einträge")


def test_a_turn_after_the_end_is_refused(page, tmp_path):
    pg = page
    start_game(pg, ["Ida", "Jo"])
    ended = HEAD + ">Ana: ... 8H HAUS +10 10\n>Ben: ERT (ERT) -3 -3\n"
    refused_like_the_cli(pg, tmp_path / "a.gcg", ended + ">Ben: ERT - +0 -3\n", 5,
                         "Zeile 5: die Partie ist seit Zeile 4 zu Ende")
    refused_in_english(pg, tmp_path / "a.gcg", ended + ">Ben: ERT - +0 -3\n",
                       "GCG not read: line 5: the game ended at line 4 (remaining tiles, going out or a time penalty): "
                       "no turn after that")
    # the end lines themselves, in any order, are read: rest, time
    (tmp_path / "b.gcg").write_text(ended + ">Ana: (time) -10 0\n", encoding="utf-8")
    pg.set_input_files("#import-file", str(tmp_path / "b.gcg"))
    expect(pg.locator("#io-msg")).to_have_text("GCG gelesen: 3 Einträge")
    assert totals(pg) == [0, -3]


def test_letters_must_lie_where_the_line_says(page, tmp_path):
    pg = page
    start_game(pg, ["Ida", "Jo"])
    # in brackets on an empty square
    refused_like_the_cli(pg, tmp_path / "a.gcg", HEAD + ">Ana: ... 8H (H)AUS +10 10\n", 3,
                         "Zeile 3: (H)AUS: auf 8H liegt noch kein Stein")
    # a letter on a square holding another: ZEHN down from H7 puts E on H8, where H lies
    refused_like_the_cli(pg, tmp_path / "b.gcg", HEAD + ">Ana: ... 8H HAUS +10 10\n>Ben: ... H7 ZEHN +16 16\n", 4,
                         "Zeile 4: ZEHN: auf H8 liegt schon H")
    # the letter that lies there, written without brackets, is taken (as the CLI takes it)
    ok = HEAD + ">Ana: ... 8H HAUS +10 10\n>Ben: ... H7 ZHN +16 16\n".replace("ZHN", "Z(H)N")
    (tmp_path / "c.gcg").write_text(ok, encoding="utf-8")
    pg.set_input_files("#import-file", str(tmp_path / "c.gcg"))
    expect(pg.locator("#io-msg")).to_have_text("GCG gelesen: 2 Einträge")
    expect(rows(pg)).to_have_count(2)
