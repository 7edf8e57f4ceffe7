"""The arbitration screen (``/director/admin``) in headless Chromium against a real server on
loopback: two rounds of a 4-player event run from the keyboard alone (Enter moves to the next
player), the projection checked after each close, the screen's standings equal to the command
line's; and the projection's alarm at time-up (sound and flash).

Skipped when Chromium or Playwright is missing, except under CI (see tests/browser_support.py).
"""

from __future__ import annotations

import re
import time

import pytest
from browser_support import require_chromium

from engine.director import SimultanRules
from engine.director.store import EventDir
from engine.movegen import generate_moves
from lexicon_tools.alphabet import german

require_chromium()

from playwright.sync_api import expect  # noqa: E402

A = german()
KEY = "browser-test-key-12345"
PLAYERS = ["Ana", "Ben", "Cal", "Dora"]


def de(n: int) -> str:
    return f"{n:,}".replace(",", ".")


def test_two_rounds_from_the_admin_screen(browser, tmp_path, golden_lexicon):
    from engine.web.app import create_app
    from engine.web.cli import background_server

    d = EventDir.create(tmp_path / "club", PLAYERS, seed=42, lexicon=golden_lexicon, name="Club",
                        rules=SimultanRules.for_alphabet(A, round_time=600), export=False, notes=None)
    app = create_app(golden_lexicon, event_dir=d.path, admin_key=KEY, allowed_hosts=["127.0.0.1", "localhost"])
    with background_server(app) as url:
        ctx = browser.new_context(viewport={"width": 1366, "height": 768})
        pg = ctx.new_page()
        errors: list[str] = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.goto(url + "/director/admin#key=" + KEY)
        expect(pg.locator("#round-title")).to_have_text("Runde 1 – noch nicht gestartet")
        assert "key=" not in pg.url                                   # the key leaves the address bar
        expected = {p: 0 for p in PLAYERS}
        master = 0
        for rnd, rack in ((1, None), (2, "typed")):
            ev = EventDir(d.path, golden_lexicon, notes=None, export=False).load()
            if rack == "typed":                                       # round 2 from a "physical bag"
                leave = A.rack_string(ev.current.leave)
                drawn = "EANRSTI"[: 7 - len(leave)]
                pg.fill("#draw", drawn)
            pg.press("#draw", "Enter")
            expect(pg.locator("#round-title")).to_have_text(f"Runde {rnd} läuft")
            ev = EventDir(d.path, golden_lexicon, notes=None, export=False).load()
            if rack == "typed":
                assert sorted(ev.current.rack) == sorted(leave + drawn)
            moves = generate_moves(ev.board, A.parse_rack(ev.current.rack), golden_lexicon).sorted()
            entries = [moves[0], moves[min(5, len(moves) - 1)], moves[min(12, len(moves) - 1)], None]
            # the focus is on the first player's field; Enter enters and moves on
            for p, m in zip(PLAYERS, entries):
                pg.keyboard.type(m.notation if m else "-")
                pg.keyboard.press("Enter")
                cell = pg.locator(f'td.res[data-player="{p}"]')
                if m:
                    expect(cell).to_contain_text(f"{de(m.score)} Punkte")
                else:
                    expect(cell).to_have_text("kein Zug · 0 Punkte")
            # a correction: Dora's field again, a real move this time
            pg.fill('input[data-player="Dora"]', entries[1].notation)
            pg.press('input[data-player="Dora"]', "Enter")
            expect(pg.locator('td.res[data-player="Dora"]')).to_contain_text(f"{de(entries[1].score)} Punkte")
            assert pg.evaluate("document.activeElement.id") == "close-btn"
            pg.keyboard.press("Enter")                                # closes the round
            expect(pg.locator("#msg")).to_contain_text(f"Runde {rnd} geschlossen")
            master += moves[0].score
            for p, m in zip(PLAYERS, entries[:3] + [entries[1]]):
                expected[p] += m.score
            # the projection after the close: the round's moves, the running totals, the master total
            proj = ctx.new_page()
            proj.goto(url + "/director")
            expect(proj.locator(".side")).to_contain_text(f"Ergebnisse Runde {rnd}")
            rows = proj.locator(".rs tbody tr").all_inner_texts()
            totals = {}
            for row in rows:
                cells = row.split("\t")
                totals[cells[1]] = int(cells[4].replace(".", ""))        # no bonus column: Pl. Spieler Zug Pkt. Ges. %
            assert totals == expected
            expect(proj.locator(".side")).to_contain_text(f"Top gesamt: {de(master)}")
            assert proj.locator('.round[data-round]').inner_text().split() == ["RUNDE", str(rnd + 1)]
            proj.close()
        # the screen's standings equal the command line's
        cli = EventDir(d.path, golden_lexicon, notes=None, export=False).load().standings()
        shown = [r.split("\t") for r in pg.locator("#stand tbody tr").all_inner_texts()]
        assert [(int(r[0].rstrip(".")), r[1], int(r[2].replace(".", ""))) for r in shown] == \
            [(s.rank, s.player, s.total) for s in cli]
        assert [r[3] for r in shown] == [f"{s.percent:.2f}".replace(".", ",") + "\u00a0%" for s in cli]
        # undo from the screen: the close of round 2 is taken back
        expect(pg.locator("#undo-btn")).to_contain_text("Schließen von Runde 2")
        pg.click("#undo-btn")
        expect(pg.locator("#round-title")).to_have_text("Runde 2 läuft")
        ctx.close()
        assert not errors, errors


def test_time_up_beeps_and_flashes(browser, tmp_path, golden_lexicon):
    from engine.web.app import create_app
    from engine.web.cli import background_server

    d = EventDir.create(tmp_path / "t", ["Ana"], seed=3, lexicon=golden_lexicon,
                        rules=SimultanRules.for_alphabet(A, round_time=8), export=False, notes=None)
    with background_server(create_app(golden_lexicon, event_dir=d.path)) as url:
        ctx = browser.new_context(viewport={"width": 1280, "height": 720})
        pg = ctx.new_page()
        d.start()
        pg.goto(url + "/director")
        assert pg.evaluate("window.timeUps") == 0
        pg.wait_for_function("window.timeUps === 1", timeout=15_000)
        assert "timeup" in pg.evaluate("document.body.className")
        assert pg.evaluate("window.beeps") == 3                       # three tones (Web Audio)
        assert pg.locator("#clock").inner_text() == "Zeit!"
        pg.wait_for_timeout(3500)
        assert "timeup" not in pg.evaluate("document.body.className")  # the flash ends
        assert pg.evaluate("window.timeUps") == 1                      # once
        ctx.close()


def test_two_players_on_their_phones(browser, tmp_path, golden_lexicon):
    from engine.web.app import create_app
    from engine.web.cli import background_server

    d = EventDir.create(tmp_path / "p", PLAYERS, seed=42, lexicon=golden_lexicon, name="Club",
                        rules=SimultanRules.for_alphabet(A, round_time=600), export=False, notes=None)
    app = create_app(golden_lexicon, event_dir=d.path, admin_key=KEY, players_submit=True,
                     allowed_hosts=["127.0.0.1", "localhost"])
    links = app.state.player_links
    with background_server(app) as url:
        admin = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
        admin.goto(url + "/director/admin#key=" + KEY)
        expect(admin.locator("#links")).to_contain_text(f"{url}/spieler#t={links['Cal']}")
        assert admin.locator("#links td.qr svg").count() == 4
        phones = {}
        for p in ("Cal", "Dora"):
            ph = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
            ph.goto(f"{url}/spieler#t={links[p]}")
            expect(ph.locator("#who")).to_have_text(p)
            expect(ph.locator("#wait")).to_be_visible()                # before the start: no rack
            phones[p] = ph
        admin.press("#draw", "Enter")
        expect(admin.locator("#round-title")).to_have_text("Runde 1 läuft")
        ev = EventDir(d.path, golden_lexicon, notes=None, export=False).load()
        moves = generate_moves(ev.board, A.parse_rack(ev.current.rack), golden_lexicon).sorted()
        picks = {"Ana": moves[0], "Ben": moves[3], "Cal": moves[1], "Dora": moves[7]}
        for p in ("Cal", "Dora"):
            ph = phones[p]
            expect(ph.locator("#rack")).to_have_text(" ".join(ev.current.rack), timeout=10_000)
            ph.fill("#move", picks[p].notation)
            ph.click("button")
            expect(ph.locator("#msg")).to_have_text("Eingegangen: " + picks[p].notation)
            assert "Punkte" not in ph.locator("main").inner_text()      # no points before the close
        for p in ("Ana", "Ben"):
            admin.fill(f'input[data-player="{p}"]', picks[p].notation)
            admin.press(f'input[data-player="{p}"]', "Enter")
            expect(admin.locator(f'td.res[data-player="{p}"]')).to_contain_text(f"{de(picks[p].score)} Punkte")
        # the phones' moves reach the director's grid (it asks every 3 s)
        for p in ("Cal", "Dora"):
            expect(admin.locator(f'td.res[data-player="{p}"]')).to_contain_text(
                f"{de(picks[p].score)} Punkte", timeout=10_000)
        admin.click("#close-btn")
        expect(admin.locator("#msg")).to_contain_text("Runde 1 geschlossen")
        for p in ("Cal", "Dora"):   # after the close the phones show the points
            expect(phones[p].locator("#last")).to_contain_text(f"{de(picks[p].score)} Punkte", timeout=10_000)
        standings = {s.player: s.total for s in EventDir(d.path, golden_lexicon, notes=None,
                                                          export=False).load().standings()}
        assert standings == {p: m.score for p, m in picks.items()}
