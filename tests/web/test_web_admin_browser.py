"""The arbitration screen (``/director/admin``) in headless Chromium against a real server on
loopback: three rounds of a 4-player event run from the screen (Enter moves to the next player),
two players on phone-sized pages, a late slip and a warning, the projection checked after each
close, the screen's standings equal to the command line's; and the projection's alarm at time-up
(sound and flash).

Skipped when Chromium or Playwright is missing, except under CI (see tests/browser_support.py).
"""

from __future__ import annotations

import json
import re
import time

import pytest
from browser_support import require_chromium

from engine.director import SimultanRules
from engine.director.store import EventDir
from engine.movegen.generator import generate_moves
from lexicon_tools.alphabet import german

require_chromium()

from playwright.sync_api import expect  # noqa: E402

A = german()
KEY = "browser-test-key-12345"
PLAYERS = ["Ana", "Ben", "Cal", "Dora"]


def de(n: int) -> str:
    return f"{n:,}".replace(",", ".")


def test_three_rounds_from_the_admin_screen_with_two_phones(browser, tmp_path, golden_lexicon, capsys):
    """Issue 15's browser test: 3 rounds of a 4-player event run from the screen alone, Cal and
    Dora submitting from phone-sized pages (360 and 390 px), a late slip (0 points under
    ``late_submission = "zero"``) and a warning costing 5 entered on the screen, the projection
    checked after each close, the screen's standings equal to the command line's, undo."""
    from engine.web.app import create_app
    from engine.web.cli import background_server

    d = EventDir.create(tmp_path / "club", PLAYERS, seed=42, lexicon=golden_lexicon, name="Club",
                        rules=SimultanRules.for_alphabet(A, round_time=600, late_submission="zero",
                                                         warning_penalty=5),
                        export=False, notes=None)
    app = create_app(golden_lexicon, event_dir=d.path, admin_key=KEY, players_submit=True,
                     allowed_hosts=["127.0.0.1", "localhost"])
    links = app.state.player_links
    with background_server(app) as url:
        ctx = browser.new_context(viewport={"width": 1366, "height": 768})
        pg = ctx.new_page()
        errors: list[str] = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.goto(url + "/director/admin#key=" + KEY)
        expect(pg.locator("#round-title")).to_have_text("Runde 1 – noch nicht gestartet")
        assert "key=" not in pg.url                                   # the key leaves the address bar
        expect(pg.locator("#links")).to_contain_text(f"{url}/spieler#t={links['Cal']}")
        phones = {}
        for p, width in (("Cal", 360), ("Dora", 390)):
            ph = browser.new_context(viewport={"width": width, "height": 800}, is_mobile=True).new_page()
            ph.on("pageerror", lambda e: errors.append(str(e)))
            ph.goto(f"{url}/spieler#t={links[p]}")
            expect(ph.locator("#who")).to_have_text(p)
            assert ph.evaluate("document.documentElement.scrollWidth") <= width
            phones[p] = ph
        expected = {p: 0 for p in PLAYERS}
        master = 0
        for rnd, rack in ((1, None), (2, "typed"), (3, None)):
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
            picks = {"Ana": moves[0], "Ben": moves[min(5, len(moves) - 1)], "Cal": moves[min(2, len(moves) - 1)],
                     "Dora": moves[min(12, len(moves) - 1)]}
            for p in ("Cal", "Dora"):                                  # the phones
                ph = phones[p]
                expect(ph.locator("#rack")).to_have_text(" ".join(ev.current.rack), timeout=10_000)
                ph.fill("#move", picks[p].notation)
                ph.click("button")
                expect(ph.locator("#msg")).to_have_text("Eingegangen: " + picks[p].notation)
                if rnd == 1:
                    assert "Punkte" not in ph.locator("main").inner_text()  # no points before the close
            if rnd == 2:
                pg.check('input.late[data-player="Ben"]')            # Ben's slip came after the time
            # the focus is on the first player's field; Enter enters and moves on
            pg.focus('input.move[data-player="Ana"]')
            for p in ("Ana", "Ben"):
                pg.keyboard.type(picks[p].notation)
                pg.keyboard.press("Enter")
                expect(pg.locator(f'td.res[data-player="{p}"]')).to_contain_text(f"{de(picks[p].score)} Punkte")
            for p in ("Cal", "Dora"):   # the phones' moves reach the grid (it asks every 3 s)
                expect(pg.locator(f'td.res[data-player="{p}"]')).to_contain_text(
                    f"{de(picks[p].score)} Punkte", timeout=10_000)
            if rnd == 1:   # a correction on the screen: Ben's field again
                picks["Ben"] = moves[1]
                pg.fill('input.move[data-player="Ben"]', picks["Ben"].notation)
                pg.press('input.move[data-player="Ben"]', "Enter")
                expect(pg.locator('td.res[data-player="Ben"]')).to_contain_text(f"{de(picks['Ben'].score)} Punkte")
            if rnd == 3:   # a warning for Ana, from the room form: 5 points
                pg.select_option("#room-kind", "warn")
                pg.fill("#room-player", "Ana")
                pg.fill("#room-reason", "Handy")
                pg.press("#room-reason", "Enter")
                expect(pg.locator("#msg")).to_have_text("Verwarnung 1 für Ana in Runde 3: −5 Punkte")
                expect(pg.locator('td.ded[data-player="Ana"]')).to_have_text("−5 · 1× verw.")
                expected["Ana"] -= 5
            pg.click("#close-btn")
            expect(pg.locator("#msg")).to_contain_text(f"Runde {rnd} geschlossen")
            master += moves[0].score
            for p, m in picks.items():
                expected[p] += 0 if (rnd == 2 and p == "Ben") else m.score
            # the projection after the close: the running totals, the master total, the next round
            proj = ctx.new_page()
            proj.goto(url + "/director")
            expect(proj.locator(".side")).to_contain_text(f"Ergebnisse Runde {rnd}")
            totals = {}
            for row in proj.locator(".rs tbody tr").all_inner_texts():
                cells = row.split("\t")
                totals[cells[1]] = int(cells[4].replace(".", "").replace("−", "-"))  # Pl. Spieler Zug Pkt. Ges. %
            assert totals == expected
            expect(proj.locator(".side")).to_contain_text(f"Top gesamt: {de(master)}")
            assert proj.locator('.round[data-round]').inner_text().split() == ["RUNDE", str(rnd + 1)]
            # the round's deductions are marked beside the points (round 3: Ana's warning)
            assert proj.locator(".rs .ded").all_inner_texts() == (["−5"] if rnd == 3 else [])
            proj.close()
            for p in ("Cal", "Dora"):   # after the close the phones show the points
                expect(phones[p].locator("#last")).to_contain_text(f"{de(picks[p].score)} Punkte", timeout=10_000)
        # the screen's standings equal the command line's (`simultan standings --json`)
        from engine.cli.main import main

        capsys.readouterr()
        assert main(["simultan", "standings", str(d.path), "--json", "--lexicon", str(golden_lexicon.path)]) == 0
        cli = json.loads(capsys.readouterr().out)["standings"]
        shown = pg.evaluate("""Array.from(document.querySelectorAll('#stand tbody tr')).map(
            tr => Array.from(tr.cells).map(td => td.textContent))""")
        assert [(int(r[0].rstrip(".")), r[2], int(r[3].replace(".", "").replace("−", "-"))) for r in shown] == \
            [(s["rank"], s["player"], s["total"]) for s in cli]
        assert [r[4] for r in shown] == [f"{s['percent']:.2f}".replace(".", ",") + "\u00a0%" for s in cli]
        assert [r[6] for r in shown] == ["−5" if s["penalty"] else "" for s in cli]
        assert {s["player"]: s["total"] for s in cli} == expected
        # undo from the screen: the close of round 3 is taken back
        expect(pg.locator("#undo-btn")).to_contain_text("Schließen von Runde 3")
        pg.click("#undo-btn")
        expect(pg.locator("#round-title")).to_have_text("Runde 3 läuft")
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


def test_two_hundred_players_filter_by_table(browser, tmp_path, golden_lexicon):
    """200 players at 25 tables: the grid scrolls inside the page, the table filter shows one
    table, Enter goes to the next player shown."""
    from engine.web.app import create_app
    from engine.web.cli import background_server

    players = [f"Spieler {i:03d}" for i in range(1, 201)]
    d = EventDir.create(tmp_path / "big", players, seed=42, lexicon=golden_lexicon, export=False, notes=None,
                        rules=SimultanRules.for_alphabet(A, round_time=600),
                        tables={p: i // 8 + 1 for i, p in enumerate(players)})
    d.start()
    ev = d.load()
    m = generate_moves(ev.board, A.parse_rack(ev.current.rack), golden_lexicon).sorted()[0]
    with background_server(create_app(golden_lexicon, event_dir=d.path, admin_key=KEY)) as url:
        ctx = browser.new_context(viewport={"width": 1366, "height": 768})
        pg = ctx.new_page()
        pg.goto(url + "/director/admin#key=" + KEY)
        expect(pg.locator("#grid-count")).to_have_text("200 Spieler")
        box = pg.evaluate("() => { const b = document.getElementById('grid-box'); "
                          "return [b.scrollHeight, b.clientHeight, innerHeight]; }")
        assert box[0] > box[1] and box[1] <= 0.66 * box[2]            # the grid scrolls, the page does not grow
        pg.select_option("#table-filter", "3")
        expect(pg.locator("#grid-count")).to_have_text("8 von 200 Spielern")
        visible = pg.locator("#grid tbody tr:not([hidden]) td.tcol").all_inner_texts()
        assert visible == ["3"] * 8
        pg.fill('input.move[data-player="Spieler 017"]', m.notation)
        pg.press('input.move[data-player="Spieler 017"]', "Enter")
        expect(pg.locator('td.res[data-player="Spieler 017"]')).to_contain_text(f"{de(m.score)} Punkte")
        assert pg.evaluate("document.activeElement.dataset.player") == "Spieler 018"
        pg.fill("#name-filter", "Spieler 19")
        expect(pg.locator("#grid-count")).to_have_text("0 von 200 Spielern")   # table 3 has 017-024
        pg.select_option("#table-filter", "")
        expect(pg.locator("#grid-count")).to_have_text("10 von 200 Spielern")  # Spieler 190 to 199
        ctx.close()
    assert d.load().current.submissions["Spieler 017"].score == m.score
