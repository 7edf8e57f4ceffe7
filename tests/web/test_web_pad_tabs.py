"""The score pad (Punkteblock) in two tabs of one browser, and the taps that delete (report-attack26h H1, H3, H9):
rows typed alternately in two tabs, into the same game and into different games, all survive a reload;
a save that raced another tab's save of the same game keeps the stored rows and says so; "Löschen" in
"Frühere Partien" asks first and can be undone; a double tap on × or "Löschen" is one tap.
Headless Chromium at a phone's viewport, the browser setup of tests/web/test_web_pad.py.

Skipped when Chromium or Playwright is missing, except under CI (``CI`` set).
"""

from __future__ import annotations

import json

from browser_support import require_chromium

require_chromium()

from playwright.sync_api import expect  # noqa: E402
from test_web_pad import ctx, page, server, start_game  # noqa: E402,F401  (fixtures)

KEY = "gse.punkte.v1"


def rows(pg):
    return pg.locator("#rows tr.turn")


def points(pg, v):
    pg.fill("#points", str(v))
    pg.press("#points", "Enter")


def stored(pg) -> dict:
    """player names -> the scores of its rows, as stored"""
    s = json.loads(pg.evaluate(f"localStorage.getItem('{KEY}')"))
    return {" ".join(g["players"]): [t["score"] for t in g["turns"]] for g in s["games"]}


def second_tab(ctx, server):
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(server + "/punkte")
    pg.wait_for_function("window.PAD && !document.querySelector('#game').hidden")
    return pg, errors


def test_two_tabs_typing_alternately_keep_every_row(page, ctx, server):
    a = page
    start_game(a, ["Ana", "Ben"])
    points(a, 7)
    expect(rows(a)).to_have_count(1)
    b, errors = second_tab(ctx, server)
    expect(rows(b)).to_have_count(1)
    points(a, 8)
    points(a, 9)
    expect(rows(a)).to_have_count(3)
    expect(rows(b)).to_have_count(3)                  # tab B shows tab A's rows before it takes input
    points(b, 5)
    expect(rows(a)).to_have_count(4)
    points(a, 6)
    expect(rows(b)).to_have_count(5)
    expect(b.locator("#turn")).to_have_text("Am Zug: Ben")
    points(b, 4)
    expect(rows(a)).to_have_count(6)
    # different games: tab A starts Cy/Di, tab B stays in the Ana game
    start_game(a, ["Cy", "Di"])
    points(a, 11)
    expect(b.locator("#totals .tot .name").first).to_have_text("Ana")
    points(a, 12)
    points(b, 1)
    points(a, 13)
    points(b, 2)
    expect(rows(a)).to_have_count(3)
    expect(rows(b)).to_have_count(8)
    want = {"Ana Ben": [7, 8, 9, 5, 6, 4, 1, 2], "Cy Di": [11, 12, 13]}
    assert stored(a) == want
    for pg in (a, b):
        pg.reload()
        pg.wait_for_function("window.PAD && !document.querySelector('#game').hidden")
    assert {" ".join(g["players"]): [t["score"] for t in g["turns"]] for g in a.evaluate("PAD.store.games")} == want
    expect(a.locator("#totals .tot .name").first).to_have_text("Ana")    # the game saved last opens
    expect(rows(a)).to_have_count(8)
    # a game deleted in one tab leaves the other tab's game alone
    b.locator("#games li", has_text="Cy 24").locator("button.delete").click()
    b.wait_for_timeout(350)
    b.locator("#games li", has_text="Cy 24").locator("button.delete").click()
    expect(a.locator("#games li", has_text="Cy 24")).to_have_count(0)
    points(a, 3)
    assert stored(b) == {"Ana Ben": [7, 8, 9, 5, 6, 4, 1, 2, 3]}
    assert not errors, errors


def test_a_save_that_raced_another_tab_keeps_the_stored_rows_and_says_so(page):
    pg = page
    start_game(pg, ["Cy", "Di"])
    points(pg, 11)
    start_game(pg, ["Ana", "Ben"])
    points(pg, 7)
    expect(rows(pg)).to_have_count(1)
    # another tab saved a row of the Cy game, and its storage event has not come yet: this tab's row of the
    # Ana game is written into the stored list, the Cy row stays
    race = """([key, who, score]) => { const s = JSON.parse(localStorage.getItem(key));
        const g = s.games.find((x) => x.players[0] === who);
        g.turns.push({p: g.turns.length % 2, kind: 'points', score}); g.updated = Date.now();
        localStorage.setItem(key, JSON.stringify(s)); }"""
    pg.evaluate(race, [KEY, "Cy", 12])
    points(pg, 8)
    assert stored(pg) == {"Ana Ben": [7, 8], "Cy Di": [11, 12]}
    expect(pg.locator("#msg")).to_have_text("")
    # the same game: the other tab's row stays; this tab's row is not saved, and the page says so
    pg.evaluate(race, [KEY, "Ana", 30])
    points(pg, 9)
    assert stored(pg) == {"Ana Ben": [7, 8, 30], "Cy Di": [11, 12]}
    expect(pg.locator("#msg")).to_contain_text("in einem anderen Tab geändert")
    expect(rows(pg)).to_have_count(3)
    expect(rows(pg).nth(2)).to_contain_text("30")
    points(pg, 9)                                       # typed again: saved
    assert stored(pg)["Ana Ben"] == [7, 8, 30, 9]


def test_delete_asks_first_keeps_apart_from_open_and_can_be_undone(page):
    pg = page
    start_game(pg, ["Ana", "Ben"])
    for v in (7, 8, 9):
        points(pg, v)
    item = pg.locator("#games li", has_text="Ana 16")
    delete = item.locator("button.delete")
    delete.dblclick()                                   # a double tap only asks
    expect(delete).to_have_text("Wirklich löschen?")
    assert len(stored(pg)) == 1
    pg.wait_for_timeout(350)
    delete.click()
    expect(pg.locator("#setup")).to_be_visible()
    assert stored(pg) == {}
    expect(pg.locator("#games li.deleted")).to_contain_text("Gelöscht: Ana 16 · Ben 8")
    pg.locator("#games button.undo-delete").click()      # "Rückgängig": back, and open again
    expect(pg.locator("#game")).to_be_visible()
    expect(rows(pg)).to_have_count(3)
    assert stored(pg) == {"Ana Ben": [7, 8, 9]}
    # at 390 px "Löschen" is not right under "Öffnen"; an armed "Löschen" falls back after a few seconds
    start_game(pg, ["Cy", "Di"])
    item = pg.locator("#games li", has_text="Ana 16")
    o, d = (item.locator(s).bounding_box() for s in ("button.open", "button.delete"))
    assert d["y"] >= o["y"] + o["height"] + 6 or d["x"] >= o["x"] + o["width"] + 16, (o, d)
    item.locator("button.delete").click()
    expect(item.locator("button.delete")).to_have_text("Wirklich löschen?")
    expect(item.locator("button.delete")).to_have_text("Löschen", timeout=8000)
    assert len(stored(pg)) == 2
    pg.click("#lang")                                   # English: the same taps
    item.locator("button.delete").click()
    expect(item.locator("button.delete")).to_have_text("Really delete?")
    pg.wait_for_timeout(350)
    item.locator("button.delete").click()
    expect(pg.locator("#games li.deleted")).to_contain_text("Deleted: Ana 16 · Ben 8")
    expect(pg.locator("#games button.undo-delete")).to_have_text("Undo")
    pg.click("#lang")


def test_a_double_tap_on_x_is_one_tap(page):
    pg = page
    start_game(pg, ["Ana", "Ben"])
    points(pg, 40)
    points(pg, 33)
    x = rows(pg).nth(1).locator("button.remove")
    x.dblclick()
    expect(x).to_have_text("Zeile entfernen?")
    expect(rows(pg)).to_have_count(2)
    pg.wait_for_timeout(350)                            # a deliberate second tap removes
    x.click()
    expect(rows(pg)).to_have_count(1)


def test_a_tab_at_the_setup_keeps_its_typed_names_when_another_tab_saves(page, ctx, server):
    a = page
    a.fill("#name1", "Eva")
    b = ctx.new_page()
    b.goto(server + "/punkte")
    start_game(b, ["Ana", "Ben"])
    points(b, 7)
    expect(a.locator("#games li", has_text="Ana 7")).to_have_count(1)   # the other tab's game is listed
    expect(a.locator("#name1")).to_have_value("Eva")


def test_a_change_in_another_tab_is_said_to_a_tab_that_was_typing_or_editing(page, ctx, server):
    # report-attack26l: tab A left its ✎ edit silently when tab B saved a row, and points typed in A for Ben were
    # saved as Ana's row after B had saved Ben's, without a word
    a = page
    start_game(a, ["Ana", "Ben"])
    points(a, 7)
    b, errors = second_tab(ctx, server)
    expect(rows(b)).to_have_count(1)
    a.fill("#points", "12")                          # typed in A for Ben, not saved yet
    points(b, 9)                                     # B saves Ben's row first
    expect(a.locator("#msg")).to_have_text(
        "Diese Partie wurde in einem anderen Tab geändert: jetzt ist Ana am Zug. Die Eingabe hier wird für Ana "
        "gespeichert.")
    a.fill("#points", "")
    rows(a).nth(0).locator("button.edit").click()    # A corrects row 1; B saves another row meanwhile
    expect(a.locator("#edit-banner")).to_be_visible()
    points(b, 4)
    expect(a.locator("#edit-banner")).to_be_hidden()
    expect(a.locator("#msg")).to_have_text(
        "Diese Partie wurde in einem anderen Tab geändert: die Korrektur hier ist abgebrochen (nichts gespeichert). "
        "Bitte die Zeile noch einmal mit ✎ öffnen.")
    assert stored(a) == {"Ana Ben": [7, 9, 4]}
    assert not errors, errors
