"""End to end: the analysis page in headless Chromium (Debian's ``chromium``,
driven by Playwright), against a real server on loopback.

What a user does: set up a position by clicking and typing, see the top move
appear and be drawn on the board, get an illegal typed move explained. The
expected values come from the engine called directly (not through the page).

Skipped when Chromium or Playwright is missing, except under CI (``CI`` set),
where ``.ci/run`` installs Chromium and a missing browser is a failure.
"""

from __future__ import annotations


import pytest
from browser_support import require_chromium

from engine.position.cgp import parse_cgp
from engine.game.equity import position_candidates
from engine.position.scorer import check_move

require_chromium()

EMPTY = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15"

from playwright.sync_api import expect  # noqa: E402


@pytest.fixture(scope="module")
def server(golden_lexicon):
    from engine.web.app import create_app
    from engine.web.cli import background_server

    with background_server(create_app(golden_lexicon, allowed_hosts=["127.0.0.1", "localhost"])) as url:
        yield url


@pytest.fixture
def page(browser, server):
    ctx = browser.new_context(viewport={"width": 1400, "height": 950})
    ctx.add_init_script("localStorage.setItem('gse.lang', 'en')")   # these tests read the English labels
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(server + "/")
    expect(pg.locator("#status")).to_contain_text("rack is empty")
    yield pg
    ctx.close()
    assert not errors, f"JavaScript errors: {errors}"


def load(pg, cgp: str) -> None:
    """Paste a CGP, load it, and wait for the move list."""
    pg.fill("#cgp", cgp)
    pg.click("#cgp-load")
    expect(pg.locator("#moves tbody tr").first).to_be_visible()


def square(pg, name: str):
    return pg.locator(f'#board .sq[data-square="{name}"]')


def new_tile_squares(pg) -> list[str]:
    return sorted(pg.locator("#board .sq:has(.tile.new)").evaluate_all("els => els.map(e => e.dataset.square)"))


def word_squares(board, tiles) -> list[str]:
    """Squares of board tiles inside the words a move forms (runs of 2+ through each new tile)."""
    filled = {(r, c) for r in range(15) for c in range(15) if board.tiles[r, c]} | {(r, c) for r, c, *_ in tiles}
    out = set()
    for r, c, *_ in tiles:
        for dr, dc in ((0, 1), (1, 0)):
            r0, c0 = r, c
            while (r0 - dr, c0 - dc) in filled:
                r0, c0 = r0 - dr, c0 - dc
            run = []
            while (r0, c0) in filled:
                run.append((r0, c0))
                r0, c0 = r0 + dr, c0 + dc
            if len(run) >= 2:
                out.update(sq for sq in run if board.tiles[sq])
    return sorted(f"{'ABCDEFGHIJKLMNO'[c]}{r + 1}" for r, c in out)


def test_set_up_by_clicking_and_typing_then_the_top_move_is_listed_and_drawn(page, golden_lexicon):
    # type HAUS across from H8, then ES down from K9 (under the S)
    square(page, "H8").click()
    page.keyboard.type("HAUS")
    square(page, "K9").click()
    square(page, "K9").click()           # a second click turns the cursor down
    expect(square(page, "K9")).to_have_class("sq cursor down")
    page.keyboard.type("ES")
    for name, letter in (("H8", "H"), ("I8", "A"), ("J8", "U"), ("K8", "S"), ("K9", "E"), ("K10", "S")):
        expect(square(page, name).locator(".tile")).to_have_text(letter + ("2" if letter == "H" else "1"))
    page.fill("#rack", "ERNSTAU")
    cgp = "15/15/15/15/15/15/15/7HAUS4/10E4/10S4/15/15/15/15/15 ERNSTAU/ 0/0 0"
    expect(page.locator("#cgp")).to_have_value(cgp)
    # the engine's own top move by equity, computed directly
    pos = parse_cgp(cgp)
    best = position_candidates(pos, golden_lexicon, 1)[0]
    first = page.locator("#moves tbody tr").first
    expect(first.locator("td.mv")).to_have_text(best.notation)
    expect(first.locator("td").nth(2)).to_have_text(str(best.score))
    first.hover()
    expect(page.locator("#detail")).to_contain_text(f"{best.score} points")
    want = sorted(f"{'ABCDEFGHIJKLMNO'[c]}{r + 1}" for r, c, _ch, _b in best.move.tiles)
    assert new_tile_squares(page) == want
    # the board tiles of its main word and cross-words are marked too
    marked = page.locator("#board .sq.inword").evaluate_all("els => els.map(e => e.dataset.square)")
    assert sorted(marked) == word_squares(pos.board, best.move.tiles) != []
    first.click()                          # keep it, then play it onto the board
    page.mouse.move(5, 5)
    assert new_tile_squares(page) == want
    page.click("#play")
    expect(page.locator("#board .tile.new")).to_have_count(0)
    for name in want:
        expect(square(page, name).locator(".tile")).to_have_count(1)
    expect(page.locator("#rack")).to_have_value(best.move.leave)
    page.click("#undo")
    expect(page.locator("#rack")).to_have_value("ERNSTAU")


def test_illegal_typed_move_is_explained_and_a_legal_one_scored(page):
    load(page, f"{EMPTY} AHSUX/ 0/0 0")
    page.fill("#check", "8H HAUSX")
    expect(page.locator("#check-result")).to_contain_text("illegal: HAUSX is not in the word list")
    page.fill("#check", "1A HAUS")
    expect(page.locator("#check-result")).to_contain_text("H8")
    page.fill("#check", "8E HAUS")
    # (2 + 1 + 1 + 1) × 2 for the centre star
    expect(page.locator("#check-result")).to_contain_text("✓ 8E HAUS 10 points")
    assert new_tile_squares(page) == ["E8", "F8", "G8", "H8"]
    page.fill("#rack", "AHSUXEEE")              # the analysis fails: the checked move goes too
    expect(page.locator("#status")).to_contain_text("at most 7")
    expect(page.locator("#check-result")).to_have_text("")
    expect(page.locator("#board .tile.new")).to_have_count(0)


def test_blank_umlaut_undo_and_a_bad_cgp(page):
    square(page, "H8").click()
    page.keyboard.press("Shift+A")          # a blank played as A
    # Ä typed directly: the keydown a German keyboard sends (Playwright's US keyboard has no ä key)
    page.locator("#board").dispatch_event("keydown", {"key": "ä"})
    page.keyboard.type("?r")                # ? then a letter: another blank
    expect(square(page, "H8").locator(".tile.blank")).to_have_count(1)
    expect(square(page, "I8").locator(".tile")).to_have_text("Ä6")
    expect(square(page, "J8").locator(".tile.blank")).to_have_count(1)
    expect(page.locator("#cgp")).to_have_value(f"15/15/15/15/15/15/15/7aÄr5/15/15/15/15/15/15/15 / 0/0 0")
    page.locator("#board").dispatch_event("keydown", {"key": "ß"})
    expect(page.locator("#notice")).to_contain_text("ß is not a tile")
    page.keyboard.press("Control+z")
    page.keyboard.press("Control+z")
    expect(page.locator("#board .tile")).to_have_count(1)
    # impossible tiles in the rack: a clear message, and the page keeps working
    page.fill("#rack", "QQQ")
    expect(page.locator("#status")).to_contain_text("3 × Q, but the tile set has only 1")
    expect(page.locator("#status")).to_have_class("error")
    page.fill("#rack", "ABCDEFGH")
    expect(page.locator("#status")).to_contain_text("at most 7")
    page.fill("#cgp", "15/15 AB/ 0/0 0")
    page.click("#cgp-load")
    expect(page.locator("#status")).to_contain_text("CGP not loaded: board has 2 rows")
    page.fill("#rack", "EHRS")
    expect(page.locator("#moves tbody tr").first).to_be_visible()


def test_filters_and_sorting(page):
    load(page, f"{EMPTY} AEHNRST/ 0/0 0")
    page.fill("#f-word", "ernst")
    rows = page.locator("#moves tbody td.mv")
    expect(rows.first).to_be_visible()
    assert all("ERNST" in t for t in rows.all_inner_texts())
    page.fill("#f-word", "")
    page.select_option("#f-count", "7")
    assert all(t.strip() == "7" for t in page.locator("#moves tbody td:nth-child(7)").all_inner_texts())
    page.select_option("#f-count", "")
    page.fill("#f-square", "L8")   # seven tiles at most: across moves from F8, G8 or H8
    expect(rows.first).to_be_visible()
    starts = {t.split()[0] for t in rows.all_inner_texts()}
    assert starts and starts <= {"8F", "8G", "8H"}
    page.fill("#f-square", "")
    page.click("#moves th[data-key=score]")
    scores = [int(t) for t in page.locator("#moves tbody td:nth-child(3)").all_inner_texts()]
    assert scores == sorted(scores, reverse=True)


def test_selected_move_wins_over_the_checked_one_and_rack_input_is_cleaned(page):
    load(page, f"{EMPTY} AEHNRST/ 0/0 0")
    page.fill("#check", "8H HASTE")
    expect(page.locator("#check-result")).to_contain_text("points")
    assert new_tile_squares(page) == ["H8", "I8", "J8", "K8", "L8"]
    row = page.locator("#moves tbody tr").nth(5)
    tiles = row.evaluate("tr => tr.dataset.move")
    row.click()
    page.mouse.move(5, 5)
    start, word = tiles.split()
    across = start[0].isdigit()
    r, c = (int(start[:-1]) - 1, "ABCDEFGHIJKLMNO".index(start[-1])) if across else (
        int(start[1:]) - 1, "ABCDEFGHIJKLMNO".index(start[0]))
    want = sorted(f"{'ABCDEFGHIJKLMNO'[c + k * across]}{r + k * (not across) + 1}" for k in range(len(word)))
    assert new_tile_squares(page) == want          # what Play would place is what the board shows
    # the rack field: ß refused with a hint, the caret kept; * is a blank; Ü composed
    page.fill("#rack", "")
    page.fill("#rack", "straß")
    expect(page.locator("#rack")).to_have_value("STRA")
    expect(page.locator("#status")).to_contain_text("moves")          # the analysis came back ...
    expect(page.locator("#notice")).to_contain_text("ß is not a tile")  # ... and the hint is still there
    page.fill("#rack", "U\u0308B*")
    expect(page.locator("#rack")).to_have_value("ÜB?")
    page.keyboard.press("Control+z")
    expect(page.locator("#rack")).to_have_value("STRA")


def test_typing_stops_at_the_edge_of_the_board(page):
    square(page, "M8").click()
    page.keyboard.type("HAUS")                    # M8 N8 O8, then nowhere to go
    expect(page.locator("#notice")).to_contain_text("edge of the board")
    expect(page.locator("#cgp")).to_have_value(f"15/15/15/15/15/15/15/12HAU/15/15/15/15/15/15/15 / 0/0 0")
    page.keyboard.press("Backspace")              # deletes the U just typed on O8
    expect(square(page, "O8").locator(".tile")).to_have_count(0)
    expect(square(page, "N8").locator(".tile")).to_have_text("A1")


def test_arrow_keys_step_through_the_moves_and_enter_plays(page):
    load(page, f"{EMPTY} AHSU/ 0/0 0")
    rows = page.locator("#moves tbody tr")
    rows.nth(0).click()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    expect(rows.nth(2)).to_have_class("selected")
    third = rows.nth(2).evaluate("tr => tr.dataset.move")
    expect(page.locator("#detail")).to_contain_text(third)
    page.keyboard.press("ArrowUp")
    expect(rows.nth(1)).to_have_class("selected")
    second = rows.nth(1).evaluate("tr => tr.dataset.move")
    page.keyboard.press("Enter")
    expect(page.locator("#board .tile")).to_have_count(len(second.split()[1]))


def test_the_old_list_cannot_be_played_while_the_new_one_is_computed(page):
    load(page, f"{EMPTY} AEHNRST/ 0/0 0")
    rows = page.locator("#moves tbody tr")
    rows.nth(4).click()
    first = rows.nth(4).evaluate("tr => tr.dataset.move")
    page.keyboard.press("Enter")                  # plays it; the list is now of the old position ...
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")                  # ... so this must do nothing
    expect(page.locator("#moves-wrap")).not_to_have_class("stale")
    expect(page.locator("#board .tile")).to_have_count(len(first.split()[1]))
    expect(page.locator("#board .tile.new")).to_have_count(0)   # nothing of the old list is drawn
    # a filter that hides the selected move unselects it
    load(page, f"{EMPTY} AEHNRST/ 0/0 0")
    rows.nth(0).click()
    expect(page.locator("#play")).to_be_enabled()
    page.fill("#f-word", "QQQ")
    expect(page.locator("#play")).to_be_disabled()
    expect(page.locator("#board .tile.new")).to_have_count(0)



# -- German by default, on a phone ----------------------------------------------------------------
P_REF1 = ("15/15/15/15/15/15/4H3F6/3WALZER6/4U1U1E6/4S1G1U6/8N6/5KIND6/5Ü9/5H9/5L9 AEINRST/ 123/45 0 "
          "lex NGERMAN; bag 66;")


@pytest.fixture
def phone(browser, server):
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)   # e.g. a missing favicon
    asked: list[dict] = []
    pg.on("request", lambda r: asked.append(r.post_data_json) if r.url.endswith("/api/moves") else None)
    pg.asked = asked
    pg.goto(server + "/")
    expect(pg.locator("#status")).to_contain_text("Bänkchen ist leer")
    yield pg
    ctx.close()
    assert not errors, f"JavaScript or console errors: {errors}"


def test_phone_board_fills_the_width_and_a_tap_opens_the_keyboard(phone):
    pg = phone
    pg.set_viewport_size({"width": 360, "height": 740})                 # the narrowest phone in use
    assert pg.evaluate("document.documentElement.scrollWidth") <= 360
    assert pg.locator("#board").bounding_box()["width"] >= 0.9 * 360
    pg.set_viewport_size({"width": 768, "height": 1024})                # a tablet upright: one column, a big board
    assert pg.locator("#board").bounding_box()["width"] >= 0.9 * 768
    pg.set_viewport_size({"width": 1024, "height": 768})                # ... and lying: the move list beside the board
    board, moves = pg.locator("#board").bounding_box(), pg.locator("#moves-wrap").bounding_box()
    assert moves["x"] >= board["x"] + board["width"] and board["width"] >= 500
    assert pg.evaluate("document.documentElement.scrollWidth") <= 1024
    pg.set_viewport_size({"width": 390, "height": 844})
    assert pg.evaluate("document.documentElement.scrollWidth") <= 390     # no sideways scrolling
    assert pg.locator("#board").bounding_box()["width"] >= 0.9 * 390
    expect(pg.locator("label[for=rack]")).to_have_text("Bänkchen")
    square(pg, "H8").tap()
    assert pg.evaluate("document.activeElement.id") == "board-input"     # the hidden input: a phone's keyboard opens
    pg.keyboard.insert_text("HA")          # what a phone keyboard sends: input events, no key codes
    pg.click("#letter-keys button[data-key='Ü']")
    pg.click("#letter-keys button[data-key='?']")
    pg.keyboard.insert_text("s")
    expect(page_cgp := pg.locator("#cgp")).to_have_value("15/15/15/15/15/15/15/7HAÜs4/15/15/15/15/15/15/15 / 0/0 0")
    pg.keyboard.press("Backspace")
    expect(page_cgp).to_have_value("15/15/15/15/15/15/15/7HAÜ5/15/15/15/15/15/15/15 / 0/0 0")
    # English, switched and remembered
    pg.click("#lang")
    expect(pg.locator("label[for=rack]")).to_have_text("Rack")
    pg.reload()
    expect(pg.locator("label[for=rack]")).to_have_text("Rack")
    assert pg.evaluate("localStorage.getItem('gse.lang')") == "en"


def test_the_move_list_pages_and_a_checked_move_can_be_played(phone, golden_lexicon):
    from engine.movegen.generator import generate_moves

    pg = phone
    pos = parse_cgp(P_REF1)
    count = len(generate_moves(pos.board, pos.rack, golden_lexicon))
    assert count > 300
    load(pg, P_REF1)
    expect(pg.locator("#scores")).to_have_text("Spielstand laut CGP: am Zug 123 · Gegner 45")
    expect(pg.locator("#moves tbody tr")).to_have_count(100)            # the top 100 only ...
    assert pg.asked[-1]["top"] == 100
    expect(pg.locator("#summary")).to_contain_text(f"die besten 100 von {count} Zügen geladen")
    pg.click("#more")                                                  # ... then 200 more
    expect(pg.locator("#moves tbody tr")).to_have_count(300)
    assert (pg.asked[-1]["offset"], pg.asked[-1]["top"]) == (100, 200)
    ranks = [int(t) for t in pg.locator("#moves tbody td:first-child").all_inner_texts()]
    assert ranks == list(range(1, 301))
    # a column heading by keyboard: sorting by score needs every move
    pg.focus("#moves th[data-key=score] button")
    pg.keyboard.press("Enter")
    expect(pg.locator("#summary")).to_contain_text(f"{count} Züge")
    best = max(m.score for m in [generate_moves(pos.board, pos.rack, golden_lexicon).move(i) for i in range(count)])
    expect(pg.locator("#moves tbody td:nth-child(3)").first).to_have_text(str(best))
    expect(pg.locator("#moves th[data-key=score]")).to_have_attribute("aria-sort", "descending")
    # an illegal typed move is drawn in the illegal style; a legal one can be played
    pg.mouse.move(0, 0)                     # a phone has no pointer resting on the list (it would show its move)
    pg.fill("#check", "1A HAUS")
    expect(pg.locator("#check-result")).to_contain_text("ungültig")
    expect(pg.locator("#board .tile.illegal")).to_have_count(4)
    expect(pg.locator("#play")).to_be_disabled()
    legal = check_move(pos.board, "13I SANIERT", None)
    pg.fill("#check", "13I SANIERT")
    expect(pg.locator("#check-result")).to_contain_text(f"✓ 13I SANIERT {legal.score} Punkte")
    expect(pg.locator("#board .tile.illegal")).to_have_count(0)
    pg.click("#play")
    expect(pg.locator("#rack")).to_have_value("")
    for r, c, ch, _b in legal.tiles:
        expect(square(pg, f"{'ABCDEFGHIJKLMNO'[c]}{r + 1}").locator(".tile")).to_contain_text(ch)
