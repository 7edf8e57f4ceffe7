"""The director's projection page (``/director``) in headless Chromium (Debian's ``chromium``,
driven by Playwright), against a real server on loopback.

* **It fits the screen**: for 1 to 30 players, long names, a bonus column, the clock
  run out and the end of the event, at 1920×1080, 1280×720, 1366×768 and 1024×768,
  the page does not scroll, the first and last lines are on the screen, and the
  letters stay large (measured as a share of the screen height).
* **It shows when something is wrong**: a damaged journal, the event directory moved
  away, an error answer and a stopped server put a large banner over the page, and it
  goes away (or the page reloads) when the server answers normally again.

Skipped when Chromium or Playwright is missing, except under CI (``CI`` set),
where ``.ci/run`` installs Chromium and a missing browser is a failure.
"""

from __future__ import annotations

import contextlib
import re
import time

import pytest
from browser_support import require_chromium

from engine.director import SimultanRules
from engine.director.render import MAX_SCORE_ROWS
from engine.director.store import EventDir
from engine.movegen.generator import generate_moves

require_chromium()

from playwright.sync_api import expect  # noqa: E402

SIZES = [(1920, 1080), (1280, 720), (1366, 768), (1024, 768)]
LONG = ["Annemarie Müller-Lüdenscheid", "Karl-Theodor von Hohenzollern", "Bärbel Schwarzenberger"]


def make_event(path, lexicon, n: int, *, seed: int = 7, long_names: bool = False, bonus: bool = False,
               ran_out: bool = False, rounds: int = 1):
    """An event of ``n`` players: ``rounds`` rounds closed (the first player on the top move, most
    others on some other move, a few without one), the next round's clock started."""
    players = [f"P{i + 1}" for i in range(n)]
    if long_names:
        players[:3] = LONG[:n]
    rules = SimultanRules(round_time=180, solo_bonus=10 if bonus else 0, solo_min_players=2 if bonus else 16)
    name = "Simultanturnier des Scrabble-Clubs Lüdenscheid-Nord 2025" if long_names else f"Club {n}"
    # the clock of the open round: started long ago (it shows "Zeit!") or just now
    t = [time.time() - (10_000 if ran_out else 0)]

    def now():
        t[0] += 1.0
        return t[0]

    d = EventDir.create(path, players, seed=seed, rules=rules, lexicon=lexicon, name=name, now=now,
                        export=False, notes=None)
    for _ in range(rounds):
        d.start()
        ev = d.load()
        moves = generate_moves(ev.board, ev.alphabet.parse_rack(ev.current.rack), lexicon).sorted()
        for i, p in enumerate(players):
            if i == 0:
                d.submit(p, ev.current.tops[0].notation)
            elif i % 5 != 4:
                d.submit(p, moves[min(len(moves) - 1, (7 * i) % 40)].notation)
        d.close()
    d.start()
    return d


EVENTS = {  # name: (players, options)
    "1": (1, {}),
    "3": (3, {}),
    "8": (8, {}),
    "12": (12, {}),
    "16": (16, {}),
    "30": (30, {}),
    "16-long-bonus-timeout": (16, {"long_names": True, "bonus": True, "ran_out": True, "rounds": 3}),
}


@pytest.fixture(scope="module")
def servers(golden_lexicon, tmp_path_factory):
    """One server per event of :data:`EVENTS` (and one for an event that is over): name -> URL."""
    from lexicon_tools.bundle import build_bundle

    from engine.web.app import create_app
    from engine.web.cli import background_server

    root = tmp_path_factory.mktemp("director-fit")
    dirs = {key: make_event(root / f"ev{key}", golden_lexicon, n, **opts).path for key, (n, opts) in EVENTS.items()}
    # no move is possible with the first rack: the event is over at once and shows the standings
    qy = build_bundle(["QY"], root / "qy.lex", source_name="qy")
    over = EventDir.create(root / "over", LONG + [f"P{i}" for i in range(4, 21)], seed=3, lexicon=qy,
                           export=False, notes=None)
    with contextlib.ExitStack() as stack:
        urls = {key: stack.enter_context(background_server(create_app(
            golden_lexicon, event_dir=path, allowed_hosts=["127.0.0.1", "localhost"]))) for key, path in dirs.items()}
        urls["over"] = stack.enter_context(background_server(create_app(
            qy, event_dir=over.path, allowed_hosts=["127.0.0.1", "localhost"])))
        yield urls


@contextlib.contextmanager
def open_page(browser, url: str, width: int, height: int):
    ctx = browser.new_context(viewport={"width": width, "height": height})
    ctx.add_init_script("window.scorePaging = false")   # the rows stay on page 1 while measured
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    try:
        resp = pg.goto(url)
        assert resp is not None and resp.status == 200, resp and resp.status
        yield pg
    finally:
        ctx.close()
    assert not errors, f"JavaScript errors: {errors}"


MEASURE = """() => {
 const d = document.documentElement, side = document.querySelector('.side'), kids = side.children;
 const h = innerHeight, vh = x => x / h * 100;
 const font = s => {
  const e = document.querySelector(s);
  return e ? vh(parseFloat(getComputedStyle(e).fontSize)) : null;
 };
 const rows = [...document.querySelectorAll('.rs tbody tr')];
 const shown = rows.filter(r => !r.hidden);
 const more = document.querySelector('.more');
 const tile = document.querySelector('.rack .tile');
 return {
  scrollHeight: d.scrollHeight, scrollWidth: d.scrollWidth, innerHeight: h, innerWidth: innerWidth,
  first: kids[0].getBoundingClientRect().top, last: kids[kids.length - 1].getBoundingClientRect().bottom,
  sideOverflow: side.scrollWidth - side.clientWidth,
  lowestRow: shown.length ? shown[shown.length - 1].getBoundingClientRect().bottom : 0,
  rows: rows.length, shown: shown.length,
  more: more && !more.hidden ? more.textContent : null,
  k: parseFloat(getComputedStyle(side).getPropertyValue('--k')),
  rowFont: font('.rs'), clockFont: font('#clock'), topFont: font('.top'), standingsFont: font('.st'),
  tile: tile ? vh(tile.getBoundingClientRect().height) : null,
  clock: (document.getElementById('clock') || {}).textContent,
  cut: [...document.querySelectorAll('.rs td.p, .rs td.m')]
       .filter(c => c.offsetWidth && c.scrollWidth > c.clientWidth + .5).map(c => c.textContent),
 };
}"""


def check_fit(m: dict) -> None:
    assert m["scrollHeight"] <= m["innerHeight"], m
    assert m["scrollWidth"] <= m["innerWidth"], m
    assert m["first"] >= 0 and m["last"] <= m["innerHeight"], m      # the event's name and the last line
    assert m["sideOverflow"] <= 1, m
    assert m["lowestRow"] <= m["innerHeight"], m


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("key", list(EVENTS))
def test_page_fits_the_screen_and_stays_large(browser, servers, key, size):
    players = EVENTS[key][0]
    with open_page(browser, servers[key] + "/director", *size) as pg:
        m = pg.evaluate(MEASURE)
        check_fit(m)
        wide = size[0] / size[1] > 1.5
        # every player's row, or the best ones and a line counting the others
        assert m["rows"] == min(players, MAX_SCORE_ROWS)
        assert m["shown"] == m["rows"], m                              # 16 rows fit on each of these screens
        if players > m["shown"]:
            assert m["more"] == f"… und {players - m['shown']} weitere Spieler"
        else:
            assert m["more"] is None
        # readable from the back of the room: shares of the screen height (4:3 screens leave
        # a narrower column beside the board, so the letters are smaller there)
        assert m["rowFont"] >= (2.35 if wide else 2.0), m
        assert m["clockFont"] >= (7.0 if wide else 6.0), m
        assert m["tile"] >= (5.5 if wide else 4.0), m
        assert m["topFont"] >= (4.0 if wide else 3.0), m
        if players <= 8 and wide:
            assert m["k"] == 1, m                                      # nothing had to shrink
        if players <= 8:
            # few rows: large rows (a 4:3 screen's narrow panel also holds the total and % columns)
            assert m["rowFont"] > (3.0 if wide else 2.2), m
        # no move ends in "…", and no name unless it is one of the long ones (the running standings'
        # total and % columns take the room they would need)
        assert set(m["cut"]) <= set(LONG), m
        if "timeout" in key:
            assert m["clock"] == "Zeit!"
        # the clock's text changing width moves nothing (it keeps the room of its widest text)
        boxes = pg.evaluate("""() => ['3:00', '0:07', 'Zeit!', '\u2013:\u2013\u2013'].map(t => {
            document.getElementById('clock').textContent = t;
            return JSON.stringify(document.querySelector('.side').getBoundingClientRect()); })""")
        assert len(set(boxes)) == 1, boxes
        # a smaller window (the projector's resolution changed): fitted again
        pg.set_viewport_size({"width": size[0] * 3 // 4, "height": size[1] * 3 // 4})
        pg.wait_for_timeout(100)
        check_fit(pg.evaluate(MEASURE))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_end_of_the_event_fits(browser, servers, size):
    with open_page(browser, servers["over"] + "/director", *size) as pg:
        expect(pg.locator(".side")).to_contain_text("Partie beendet nach 0 Runden")
        m = pg.evaluate(MEASURE)
        check_fit(m)
        assert pg.locator(".st tr").count() == 1 + 10                  # the header row and 10 players
        expect(pg.locator(".side")).to_contain_text("… und 10 weitere Spieler")
        assert m["standingsFont"] >= 2.0, m


def test_rows_that_do_not_fit_give_way_to_the_count(browser, servers):
    """With rows twice as tall (another font, say), the last rows are hidden and counted."""
    with open_page(browser, servers["30"] + "/director", 1280, 720) as pg:
        pg.add_style_tag(content=".rs td{padding-top:.5em;padding-bottom:.5em}")
        pg.evaluate("() => fitPage()")
        m = pg.evaluate(MEASURE)
        check_fit(m)
        assert 3 <= m["shown"] < MAX_SCORE_ROWS and m["rowFont"] >= 2.35, m
        assert m["more"] == f"… und {30 - m['shown']} weitere Spieler"
        hidden = pg.locator(".rs tbody tr").evaluate_all("rows => rows.map(r => r.hidden)")
        assert hidden == [False] * m["shown"] + [True] * (MAX_SCORE_ROWS - m["shown"])   # the last ones
        # back to the page's own style: every row again
        pg.evaluate("() => { document.querySelector('style:last-of-type').remove(); fitPage(); }")
        m = pg.evaluate(MEASURE)
        check_fit(m)
        assert m["shown"] == MAX_SCORE_ROWS and m["more"] == "… und 14 weitere Spieler"


def test_two_hundred_players_page_through_the_standings(browser, tmp_path, golden_lexicon):
    """200 players: the projection shows as many rows as fit, then the others page by page."""
    from engine.web.app import create_app
    from engine.web.cli import background_server

    d = make_event(tmp_path / "big", golden_lexicon, 200)
    rows = running_rows_of(d, golden_lexicon)
    with background_server(create_app(golden_lexicon, event_dir=d.path)) as url, \
            open_page(browser, url + "/director", 1920, 1080) as pg:
        m = pg.evaluate(MEASURE)
        check_fit(m)
        n = m["shown"]
        assert n == MAX_SCORE_ROWS and m["more"] == f"… und {200 - n} weitere Spieler"
        pages = -(-200 // n)

        def shown():
            return [r.split("\t")[1] for r in pg.locator(".rs tbody tr:not([hidden])").all_inner_texts()]

        assert shown() == [r["player"] for r in rows[:n]]
        for k in (1, pages - 1):
            pg.evaluate(f"() => scorePage({k})")
            assert shown() == [r["player"] for r in rows[k * n:(k + 1) * n]]
            last = min(200, (k + 1) * n)
            expect(pg.locator(".more")).to_have_text(f"Plätze {k * n + 1}–{last} von 200 · Seite {k + 1} von {pages}")
            check_fit(pg.evaluate(MEASURE) | {"shown": len(shown())})
        pg.evaluate(f"() => scorePage({pages})")                    # round the clock: page 1 again
        assert shown() == [r["player"] for r in rows[:n]]
        assert pg.locator(".more").inner_text() == f"… und {200 - n} weitere Spieler"


def running_rows_of(d, lexicon):
    from engine.director.export import running_rows

    ev = EventDir(d.path, lexicon, notes=None, export=False).load()
    return running_rows(ev, ev.closed_rounds[-1])


# -- failures while the page is open --------------------------------------------------------------

@pytest.fixture
def fast_poll(monkeypatch):
    import engine.web.director as director

    monkeypatch.setattr(director, "POLL_SECONDS", 0.25)


def wait_banner(pg, *texts):
    alarm = pg.locator("#alarm")
    expect(alarm).to_be_visible()
    for text in texts:
        expect(alarm).to_contain_text(text)
    expect(pg.locator("body")).to_have_class("stale")
    expect(pg.locator("#clock")).to_have_text("–:––")


def wait_calm(pg):
    expect(pg.locator("#alarm")).to_have_count(0)
    expect(pg.locator("body")).not_to_have_class("stale")
    expect(pg.locator("#clock")).to_have_text(re.compile(r"^\d+:\d\d$"))


def test_banner_when_the_event_cannot_be_read_or_the_server_is_gone(browser, golden_lexicon, tmp_path, fast_poll):
    from engine.web.app import create_app
    from engine.web.cli import background_server

    d = make_event(tmp_path / "club", golden_lexicon, 3)
    journal = d.path / "journal.jsonl"
    good = journal.read_bytes()
    damaged = good.replace(b'"seq":1', b'"seq":7', 1)                  # checksum mismatch on line 1

    def app():
        return create_app(golden_lexicon, event_dir=d.path, allowed_hosts=["127.0.0.1", "localhost"])

    with contextlib.ExitStack() as stack:
        server = stack.enter_context(contextlib.ExitStack())          # closed by hand to stop the server
        url = server.enter_context(background_server(app()))
        port = int(url.rsplit(":", 1)[1])
        pg = stack.enter_context(open_page(browser, url + "/director", 1280, 720))
        expect(pg.locator(".side")).to_contain_text("Ergebnisse Runde 1")
        wait_calm(pg)

        # a damaged journal: the reason, in large letters over the dimmed page
        journal.write_bytes(damaged)
        wait_banner(pg, "Die Partie kann gerade nicht gelesen werden", "line 1", "Neuer Versuch")
        box = pg.locator("#alarm").bounding_box()
        assert box["width"] > 1280 * 0.8
        assert pg.locator("#alarm .a1").evaluate("e => parseFloat(getComputedStyle(e).fontSize)") >= 720 * .05
        check_fit(pg.evaluate(MEASURE))
        journal.write_bytes(good)                                       # repaired: the banner goes
        wait_calm(pg)

        # the event directory moved away, and back
        moved = d.path.with_name("moved")
        d.path.rename(moved)
        wait_banner(pg, "Die Partie kann gerade nicht gelesen werden", f"{d.path}: no such event directory")
        moved.rename(d.path)
        wait_calm(pg)

        # an error answer without JSON (a proxy, say)
        pg.route("**/api/director", lambda route: route.fulfill(status=502, body="<html>Bad Gateway</html>"))
        wait_banner(pg, "Die Partie kann gerade nicht gelesen werden", "Fehler 502")
        pg.unroute("**/api/director")
        wait_calm(pg)

        # a change made while the banner was up: the page reloads when the server answers again
        journal.write_bytes(damaged)
        wait_banner(pg, "line 1")
        journal.write_bytes(good)
        d.close()
        expect(pg.locator(".side")).to_contain_text("Ergebnisse Runde 2")
        wait_calm(pg)

        # the server stopped, and started again on the same port
        server.close()
        wait_banner(pg, "Verbindung zum Server verloren", "antwortet nicht")
        with background_server(app(), port=port):
            wait_calm(pg)
            expect(pg.locator(".side")).to_contain_text("Ergebnisse Runde 2")
