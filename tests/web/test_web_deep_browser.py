"""The deeper analysis block of the analysis page in headless Chromium (Debian's ``chromium`` via
Playwright): German at 360 px (the exact endgame answer, as the solver gives it when called directly), English
for a simulation. Skipped without Chromium or Playwright, except under CI.
"""

from __future__ import annotations

import pytest
from browser_support import require_chromium

from engine.position.cgp import parse_cgp
from engine.analysis.endgame import solve
from test_web_deep import ENDGAME, MIDGAME

require_chromium()

from playwright.sync_api import expect  # noqa: E402


@pytest.fixture(scope="module")
def server(golden_lexicon):
    from engine.web.app import create_app
    from engine.web.cli import background_server

    app = create_app(golden_lexicon, allowed_hosts=["127.0.0.1", "localhost"])
    with background_server(app) as url:
        yield url
    app.state.deep.close()


@pytest.fixture(scope="module")
def exact(golden_lexicon):
    return solve(parse_cgp(ENDGAME), golden_lexicon, time_limit=30)


def open_page(browser, server, lang: str, width: int, height: int):
    ctx = browser.new_context(viewport={"width": width, "height": height})
    ctx.add_init_script(f"localStorage.setItem('gse.lang', '{lang}')")
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(server + "/")
    return ctx, pg, errors


def load(pg, cgp: str) -> None:
    pg.fill("#cgp", cgp)
    pg.click("#cgp-load")
    expect(pg.locator("#moves tbody tr").first).to_be_visible()


def test_page_shows_the_exact_endgame_in_german_at_360px(browser, server, exact):
    ctx, pg, errors = open_page(browser, server, "de", 360, 740)
    try:
        load(pg, ENDGAME)
        expect(pg.locator("#deep")).to_have_text("Genauer rechnen")
        expect(pg.locator("#deep-phase")).to_contain_text("Endspiel (Beutel leer)")
        pg.select_option("#deep-time", "10")
        pg.click("#deep")
        best = pg.locator("#deep-result .deep-best")
        expect(best).to_contain_text(f"bester Zug {exact.move}", timeout=180_000)  # a first run may compile the kernels
        expect(best).to_contain_text(f"Wert {exact.value:+d} (exakt)")
        expect(pg.locator("#deep-result")).to_contain_text("Hauptvariante: " + " · ".join(exact.pv))
        # readable at 360 px: nothing wider than the screen
        assert pg.evaluate("document.scrollingElement.scrollWidth") <= 360
        # a change of the position drops the answer
        pg.fill("#rack", "EINS")
        expect(pg.locator("#deep-result")).to_be_empty()
    finally:
        ctx.close()
    assert not errors, f"JavaScript errors: {errors}"


def test_page_shows_the_simulation_in_english(browser, server):
    ctx, pg, errors = open_page(browser, server, "en", 1300, 900)
    try:
        load(pg, MIDGAME)
        expect(pg.locator("#deep")).to_have_text("Analyse deeper")
        expect(pg.locator("#deep-phase")).to_contain_text("Simulation: 2 moves played ahead")
        pg.fill("#check", "15A HA(N)S")                       # the user's move is simulated too, and marked
        expect(pg.locator("#check-result")).to_contain_text("✓")
        pg.select_option("#deep-time", "3")
        pg.click("#deep")
        expect(pg.locator("#deep-result")).to_contain_text("iterations in", timeout=180_000)  # a first run may compile the kernels
        expect(pg.locator("#deep-result tr.mine")).to_contain_text("15A HA(N)S")
        rows = pg.locator("#deep-result table.deep tbody tr")
        assert rows.count() >= 2
        first = rows.first.locator("td").all_inner_texts()
        assert first[4].startswith("[") and first[4].endswith("]")   # 95 % interval of the spread
        assert pg.locator("#deep-result table.deep th").all_inner_texts()[4] == "95 % CI"
    finally:
        ctx.close()
    assert not errors, f"JavaScript errors: {errors}"
