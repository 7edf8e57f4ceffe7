"""Headless Chromium checks of two follow-up fixes: ``export/index.html`` fits a 360 px phone
(the wide standings scroll inside their own box), and the phone page of a player who left says
so instead of waiting for the round. Skipped without Chromium/Playwright (tests/browser_support.py)."""

from __future__ import annotations

import pytest
from browser_support import require_chromium

from engine.director import SimultanRules
from engine.director.export import write_exports
from engine.director.store import EventDir
from lexicon_tools.alphabet import german

require_chromium()

from playwright.sync_api import expect  # noqa: E402

A = german()


def test_index_fits_a_phone_and_a_left_player_is_told(browser, tmp_path, golden_lexicon):
    from engine.web.app import create_app
    from engine.web.cli import background_server

    names = ["Annemarie Müller-Lüdenscheidt", "Ben", "Cal", "Dora"]
    d = EventDir.create(tmp_path / "club", names, seed=42, lexicon=golden_lexicon, name="Vereinsabend",
                        rules=SimultanRules.for_alphabet(A, round_time=600), export=False, notes=None,
                        tables={"Ben": 1, "Cal": 2})
    d.start()
    top = d.load().current.tops[0]
    d.submit("Annemarie Müller-Lüdenscheidt", top.notation)       # a long name beside a whole move: the widest row
    d.penalty("Ben", 15, reason="Handy")
    d.warn("Cal", reason="laut")
    d.leave("Dora")
    d.close()
    out = tmp_path / "export"
    write_exports(d.load(), out)
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True)
    pg = ctx.new_page()
    pg.goto((out / "index.html").as_uri())
    expect(pg.locator("th", has_text="Verw.")).to_have_count(1)
    assert pg.evaluate("document.scrollingElement.scrollWidth") <= 360
    # the key columns (place, name, points) are in view without scrolling
    for col in ("Platz", "Spieler", "Punkte"):
        box = pg.locator("th", has_text=col).first.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360, col
    pg.goto((out / "round-01.html").as_uri())                     # a round's page too (its scores table scrolls)
    expect(pg.locator("table.rs")).to_have_count(1)
    assert pg.evaluate("document.scrollingElement.scrollWidth") <= 360
    app = create_app(golden_lexicon, event_dir=d.path, players_submit=True, allowed_hosts=["127.0.0.1", "localhost"])
    d.start()
    with background_server(app) as url:
        pg.goto(f"{url}/spieler#t={app.state.player_links['Dora']}")
        expect(pg.locator("#wait")).to_have_text("Du hast das Turnier in Runde 1 verlassen.")
        expect(pg.locator("#play")).to_be_hidden()
        ben = ctx.new_page()                                       # a new page: a hash change does not reload
        ben.goto(f"{url}/spieler#t={app.state.player_links['Ben']}")
        expect(ben.locator("#play")).to_be_visible()
        expect(ben.locator("#wait")).to_be_hidden()
    ctx.close()
