"""The score pad keeps what an import brought through a taken-back settlement and an export (report-attack26j):
J2 the time penalties of an imported game survive "Abrechnung zurücknehmen" and a new "Abrechnen" (they were
lost: the pad's clock, off after an import, gives none); J5 a time line that is no penalty ("+10", "-15") is
refused naming the line, as ``engine/game/gcg.py`` refuses it (it was taken and exported as "--10"); J6 a
bracketed letter a row by hand laid (the pad's board lacks it) is exported as "(H)" and comes back (it became
".", and the letter was lost). Headless Chromium at 390×844, the setup of tests/web/test_web_pad.py.

Skipped when Chromium or Playwright is missing, except under CI (``CI`` set).
"""

from __future__ import annotations

from browser_support import require_chromium

require_chromium()

from playwright.sync_api import expect  # noqa: E402
from test_web_pad import PHONE, ctx, page, server, start_game, totals  # noqa: E402,F401  (fixtures)
from test_web_pad_gcg import refused_in_english, refused_like_the_cli, rows, shot  # noqa: E402
from test_web_pad_roundtrip import HEAD, imp, open_end, round_trip  # noqa: E402


def test_time_penalties_of_an_import_survive_taking_back_the_settlement(page, tmp_path, golden_lexicon):
    from engine.game.gcg import read_gcg

    gcg = (HEAD + ">ana: ... 8H HAUS +10 10\n>ben: ... - +0 0\n>ana: (time) -10 0\n"
           ">ben: (time) -10 -10\n>ben: (time) -20 -30\n")
    assert read_gcg(gcg, golden_lexicon).scores == [0, -30]     # the CLI: 10 − 10, and 0 − 10 − 20
    pg = page
    start_game(pg, ["Ida", "Jo"])
    expect(imp(pg, tmp_path, "t.gcg", gcg)).to_have_text("GCG gelesen: 5 Einträge")
    assert totals(pg) == [0, -30]
    open_end(pg)
    pg.click("#unsettle")
    assert totals(pg) == [10, 0]                                  # the rows alone
    expect(pg.locator("#end-kept")).to_have_text(
        "Zeitstrafen der zurückgenommenen Abrechnung bleiben beim nächsten „Abrechnen“: Ana −10, Ben −30")
    assert pg.evaluate("PAD.game.keptTime.time") == [10, 30]
    pg.reload()                                                   # stored with the game
    open_end(pg)
    expect(pg.locator("#end-kept")).to_be_visible()
    pg.locator("#end").scroll_into_view_if_needed()
    shot(pg, "pad-end-kept.png")
    pg.select_option("#out", "")                                  # nobody went out
    pg.click("#settle")
    assert totals(pg) == [0, -30]                                 # main: [10, 0], both penalties gone
    expect(pg.locator("#end-kept")).to_be_hidden()
    assert pg.evaluate("PAD.game.keptTime") is None
    text = round_trip(pg, tmp_path, golden_lexicon)
    for line in (">Ana: (time) -10 0", ">Ben: (time) -10 -10\n>Ben: (time) -20 -30"):
        assert line in text, text
    assert read_gcg(text, golden_lexicon).scores == [0, -30]


def test_a_time_line_that_is_no_penalty_is_refused_naming_the_line(page, tmp_path):
    pg = page
    start_game(pg, ["Ida", "Jo"])
    head = "#player1 Ana Ana\n#player2 Ben Ben\n>Ana: ... 8H HAUS +10 10\n"
    refused_like_the_cli(pg, tmp_path / "p.gcg", head + ">Ben: (time) +10 10\n", 4,
                         "Zeile 4: Zeitstrafe +10: muss −10 je angefangene Minute über der Zeit sein")
    refused_like_the_cli(pg, tmp_path / "q.gcg", head + ">Ben: (time) -15 -15\n", 4,
                         "Zeile 4: Zeitstrafe -15: muss −10 je angefangene Minute über der Zeit sein")
    refused_in_english(pg, tmp_path / "r.gcg", head + ">Ben: (time) +10 10\n",
                       "GCG not read: line 4: time penalty +10: must be −10 per started minute over")
    expect(rows(pg)).to_have_count(0)


def test_a_letter_a_row_by_hand_laid_is_exported_and_comes_back(page, tmp_path):
    # Ana's row by hand laid an H on H8 (the pad does not know where); Ben's play goes through it
    gcg = (HEAD + "#note by hand: >ana: ... +12 12\n>ben: ... H8 (H)AUS +7 7\n>ana: ... 9G B(A)D +6 18\n")
    pg = page
    start_game(pg, ["Ida", "Jo"])
    expect(imp(pg, tmp_path, "h.gcg", gcg)).to_have_text("GCG gelesen: 3 Einträge")
    assert pg.evaluate("PAD.game.turns.map(t => t.move || null)") == [None, "H8 (H)AUS", "9G B(A)D"]
    text = round_trip(pg, tmp_path)          # main: "H8 .AUS", read back as "H8 (.)AUS": the H was lost
    assert ">Ben: ... H8 (H)AUS +7 7\n" in text, text
    assert ">Ana: ... 9G B.D +6 18\n" in text, text   # a letter on the pad's board: "." as GCG writes it
    assert pg.evaluate("PAD.game.turns[1].move") == "H8 (H)AUS"
    assert totals(pg) == [18, 7]
    assert pg.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
