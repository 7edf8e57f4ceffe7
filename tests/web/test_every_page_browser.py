"""Issue 26 (tests): every page at 360, 390 and 1366 px in headless Chromium, German mode.

Fails on sideways scrolling, on a visible element wider than the viewport or sticking out of it
(unless a scrolling box of its own holds it), on an English word of the UI in German mode (the
English strings of static/i18n.js and the English phrases of the server), and on a tap target
(link, button, field) under 32 px. Pages: analysis, score pad, projection, arbitration screen,
a player's phone, the event's exported ``index.html``. Screenshots go to ``$GSE_SHOTS`` when set.

Skipped when Chromium or Playwright is missing, except under CI (see tests/browser_support.py).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
from browser_support import require_chromium

from engine.director.store import EventDir

require_chromium()

pytestmark = pytest.mark.slow

KEY = "every-page-key-12345"
PLAYERS = ["Ana", "Ben", "Cal"]
WIDTHS = [360, 390, 1366]
STATIC = Path(__file__).resolve().parents[2] / "engine" / "web" / "static"

# English phrases the server or the exports have written into German pages
SERVER_ENGLISH = ["winner", "ended by", "try again", "not in the word list", "busy:", "the rack", "no move",
                  "points", "round ", "Round ", "packaged:"]


def english_strings() -> list[str]:
    """The UI's English labels (static/i18n.js, DICT.en) that are not also German ones, as plain text."""
    js = (STATIC / "i18n.js").read_text(encoding="utf-8")
    dicts = subprocess.run(["node", "-e", "global.window={};global.localStorage={getItem(){return null}};"
                            "global.document={documentElement:{}};" + js +
                            ";console.log(JSON.stringify(window.I18N.DICT))"],
                           capture_output=True, text=True, check=False)
    if dicts.returncode != 0:
        pytest.skip("node is needed to read the labels of static/i18n.js")
    d = json.loads(dicts.stdout)
    de_values = set(d["de"].values())
    out = set()
    for v in d["en"].values():
        text = re.sub(r"<[^>]+>|\{\d+\}", " ", v)
        for part in re.split(r"[:;·(),.!?…]", text):
            part = " ".join(part.split())
            if len(part) >= 6 and " " in part and part not in de_values and not re.search(r"\d", part):
                out.add(part)
    return sorted(out)


CHECK = r"""(args) => {
  const [english, minTap] = args;
  const W = window.innerWidth, out = {scroll: document.documentElement.scrollWidth - W, wide: [], small: [], english: []};
  const visible = (el) => { const r = el.getBoundingClientRect(); const s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== "hidden" && s.display !== "none"; };
  const clipped = (el) => { for (let p = el.parentElement; p; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX; if (o === "auto" || o === "scroll" || o === "hidden") {
        const r = p.getBoundingClientRect(); if (r.right <= W + 1 && r.left >= -1) return true; } } return false; };
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
    (el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\s+/).join(".") : "");
  for (const el of document.body.querySelectorAll("*")) {
    if (!visible(el)) continue;
    const r = el.getBoundingClientRect();
    if ((r.width > W + 1 || r.right > W + 1 || r.left < -1) && !clipped(el)) out.wide.push(name(el) + " " + Math.round(r.left) + ".." + Math.round(r.right));
  }
  for (const el of document.body.querySelectorAll("a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button]")) {
    if (!visible(el)) continue;
    const box = (el.type === "radio" || el.type === "checkbox") && el.closest("label") ? el.closest("label") : el;
    const r = box.getBoundingClientRect();
    if (r.width <= 2 && r.height <= 2) continue;   // the board's key catcher: no target, it only takes keys
    if (r.width < minTap || r.height < minTap) out.small.push(name(el) + " " + Math.round(r.width) + "x" + Math.round(r.height) + " " + (el.textContent || el.value || "").trim().slice(0, 20));
  }
  const text = document.body.innerText;
  for (const e of english) if (text.includes(e)) out.english.push(e);
  if (text.includes("`")) out.english.push("a literal backtick");
  return out;
}"""


@pytest.fixture(scope="module")
def site(tmp_path_factory, golden_lexicon):
    from engine.web.app import create_app
    from engine.web.cli import background_server

    base = tmp_path_factory.mktemp("pages")
    d = EventDir.create(base / "club", PLAYERS, seed=7, lexicon=golden_lexicon, name="Club", export=True, notes=None)
    ev = d.load()
    d.start()
    d.submit("Ana", ev.current.tops[0].notation)
    d.submit("Ben", "-")
    d.close()
    app = create_app(golden_lexicon, event_dir=d.path, admin_key=KEY, players_submit=True,
                     allowed_hosts=["127.0.0.1", "localhost"])
    links = app.state.player_links
    with background_server(app) as url:
        yield {"url": url, "links": links, "export": d.path / "export" / "index.html"}


PAGES = ["analysis", "pad", "projection", "admin", "phone", "export"]


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("page", PAGES)
def test_every_page_fits_speaks_german_and_has_big_enough_targets(browser, site, page, width):
    url = site["url"]
    address = {"analysis": url + "/", "pad": url + "/punkte", "projection": url + "/director",
               "admin": url + "/director/admin#key=" + KEY, "phone": f"{url}/spieler#t={site['links']['Cal']}",
               "export": site["export"].as_uri()}[page]
    ctx = browser.new_context(viewport={"width": width, "height": 800}, is_mobile=width < 500, has_touch=width < 500,
                              locale="de-DE")
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(address)
    pg.wait_for_load_state("networkidle")
    if page == "analysis":                       # a position with moves: the move table is on the page
        pg.fill("#rack", "AEHNRST")
        pg.press("#rack", "Enter")
        pg.wait_for_selector("#moves tbody tr")
    if page == "analysis":                       # keyboard help on a computer, touch help on a phone
        help_text = pg.inner_text(".help")
        assert ("Strg+Z" in help_text) == (width > 500) and ("antippen" in help_text) == (width < 500), help_text
        body = pg.inner_text("body")                     # no touch words with a mouse, no mouse words on a phone
        assert ("antippen" in body) == (width < 500) and ("anklicken" in body or "Maus" in body) == (width > 500)
    if page == "analysis":                       # the move table fits its box: the Equity column is in sight
        fit = pg.evaluate("() => { const w = document.querySelector('#moves-wrap'); "
                          "const eq = [...document.querySelectorAll('#moves th')].find(th => th.textContent.includes('Equity')); "
                          "return [w.scrollWidth - w.clientWidth, eq.getBoundingClientRect().right - w.getBoundingClientRect().right]; }")
        assert fit[0] <= 0 and fit[1] <= 1, f"the move table is {fit[0]} px wider than its box at {width} px"
        cell = pg.locator("#moves tbody tr td:nth-child(2)").first      # a move never wraps ("8C EPIKER")
        box = cell.bounding_box()
        assert box["height"] < 2 * pg.evaluate("parseFloat(getComputedStyle(document.querySelector('#moves td')).lineHeight) || 20")
    shots = os.environ.get("GSE_SHOTS")
    if shots:
        pg.screenshot(path=str(Path(shots) / f"{page}-{width}.png"), full_page=True)
    found = pg.evaluate(CHECK, [english_strings() + SERVER_ENGLISH, 32])
    ctx.close()
    assert not errors
    problems = []
    if found["scroll"] > 0:
        problems.append(f"sideways scrolling by {found['scroll']} px")
    problems += [f"wider than the viewport: {w}" for w in found["wide"][:8]]
    problems += [f"tap target under 32 px: {s}" for s in found["small"][:8]]
    problems += [f"English in German mode: {e!r}" for e in found["english"]]
    assert not problems, f"{page} at {width} px:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("width", [390, 1366])
def test_direction_buttons_keep_the_focus_in_the_word_field(browser, site, width):
    """Issue 26.10: tapping "→ waagerecht" or "↓ senkrecht" on the score pad took the focus from the
    word field, so the letters typed next were lost."""
    ctx = browser.new_context(viewport={"width": width, "height": 800}, is_mobile=width < 500, has_touch=width < 500)
    pg = ctx.new_page()
    pg.goto(site["url"] + "/punkte")
    pg.wait_for_load_state("networkidle")
    if not pg.locator("#word").is_visible():          # a game starts with the names typed
        pg.fill("#name1", "Ana")
        pg.fill("#name2", "Ben")
        pg.locator("#start, button[type=submit]").first.click()
    pg.locator("#word").focus()
    pg.keyboard.type("HA")
    for button in ("#dir-down", "#dir-across"):
        if width < 500:
            pg.tap(button)
        else:
            pg.click(button)
        assert pg.evaluate("document.activeElement.id") == "word", button
    pg.keyboard.type("US")
    assert pg.input_value("#word").upper() == "HAUS"
    ctx.close()


@pytest.mark.parametrize("width", [390, 1366])
def test_points_placeholder_is_whole_and_the_arrow_leaves_the_tile_value_free(browser, site, width):
    """Issue 26.11: on a laptop the score pad's points field showed its placeholder "Punkte" as "Punkt"
    (the number field's spin buttons took the room), and the direction arrow on the cursor square
    covered the value of the tile on it (both sat in the bottom right corner)."""
    ctx = browser.new_context(viewport={"width": width, "height": 800}, is_mobile=width < 500, has_touch=width < 500,
                              locale="de-DE")
    pg = ctx.new_page()
    pg.goto(site["url"] + "/punkte")
    pg.wait_for_load_state("networkidle")
    if not pg.locator("#word").is_visible():
        pg.fill("#name1", "Ana")
        pg.fill("#name2", "Ben")
        pg.locator("#start, button[type=submit]").first.click()
    room = pg.evaluate("""() => { const el = document.querySelector('#points'), s = getComputedStyle(el);
      const c = document.createElement('canvas').getContext('2d'); c.font = s.font;
      // Chromium draws spin buttons (about 15 px) inside a number field unless its appearance is textfield
      const spin = el.type === 'number' && s.appearance !== 'textfield' && s.appearance !== 'none' ? 20 : 0;
      return [el.placeholder, el.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight) - spin,
              c.measureText(el.placeholder).width]; }""")
    assert room[0] == "Punkte" and room[2] <= room[1], f"placeholder {room[2]:.0f} px in {room[1]:.0f} px"
    pg.goto(site["url"] + "/")
    pg.wait_for_load_state("networkidle")
    pg.fill("#cgp", "15/15/15/15/15/15/15/7HAUS4/15/15/15/15/15/15/15 AEHNRST/ 0/0 0")
    pg.press("#cgp", "Enter")
    pg.wait_for_selector("#board .sq .tile sub")
    a_square = pg.locator("#board .sq").nth(7 * 15 + 8)          # I8, the A of HAUS
    (a_square.tap if width < 500 else a_square.click)()
    pg.wait_for_selector("#board .sq.cursor .tile sub")
    boxes = pg.evaluate("""() => { const c = document.querySelector('#board .sq.cursor'), a = getComputedStyle(c, '::after');
      const q = c.getBoundingClientRect(), v = c.querySelector('.tile sub').getBoundingClientRect();
      const L = q.left + parseFloat(a.left), T = q.top + parseFloat(a.top);
      const R = q.right - parseFloat(a.right), B = q.bottom - parseFloat(a.bottom);
      return {content: a.content, arrow: [L, T, R, B], value: [v.left, v.top, v.right, v.bottom]}; }""")
    ctx.close()
    (l1, t1, r1, b1), (l2, t2, r2, b2) = boxes["arrow"], boxes["value"]
    assert boxes["content"] in ('"→"', '"↓"')
    assert r1 <= l2 or r2 <= l1 or b1 <= t2 or b2 <= t1, f"the arrow {boxes['arrow']} covers the value {boxes['value']}"
