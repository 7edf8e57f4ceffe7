"""Retake the screenshots of the analysis page in docs/web/ (headless Chromium).

Usage: ``.venv/bin/python scripts/web_screenshots.py [--chromium /usr/bin/chromium]``

Serves the app on a free loopback port with the default lexicon and writes

* ``docs/web/analysis.png`` — golden position p_ref1 (the README's) with a move hovered (1366×768);
* ``docs/web/editor.png`` — a board being typed (cursor down, a blank, a warning);
* ``docs/web/check.png`` — the word checker explaining an illegal move;
* ``docs/web/analysis-phone.png`` — p_ref1 on a phone (390×844);
* ``docs/web/punkte-phone.png``, ``docs/web/punkte.png`` — the score pad (phone, 1366×768): a 3-player
  game under way, the next move typed and previewed;
* ``docs/web/together-phone.png`` — Together · Team, goal cards counted;
* ``docs/web/director.png`` — the projection page (1920×1080) of the README's
  3-player event ``club`` (seed 2024, 3:00 a round) after round 1, the clock of
  round 2 running.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

P_REF1 = ("15/15/15/15/15/15/4H3F6/3WALZER6/4U1U1E6/4S1G1U6/8N6/5KIND6/5Ü9/5H9/5L9 AEINRST/ 0/0 0 "
          "lex NGERMAN; bag 66;")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    ap.add_argument("--out", default=str(ROOT / "docs" / "web"))
    args = ap.parse_args()
    from playwright.sync_api import expect, sync_playwright

    from engine.web.app import create_app
    from engine.web.cli import background_server

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    from lexicon_tools.bundle import load_lexicon

    from engine.director.rules import SimultanRules
    from engine.director.store import EventDir

    lexicon = load_lexicon(None)
    club = Path(tempfile.mkdtemp()) / "club"
    event = EventDir.create(club, ["Ana", "Ben", "Cal"], seed=2024, rules=SimultanRules(round_time=180),
                            lexicon=lexicon, export=False, notes=None)
    event.start()
    for player, move in (("Ana", "8D KIEPE"), ("Ben", "8H KIEPE"), ("Cal", "H4 PIKTE")):
        event.submit(player, move)
    event.close()
    event.start()
    with background_server(create_app(lexicon, event_dir=club)) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, args=[
            "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync"])
        desk = {"width": 1366, "height": 768}
        phone = dict(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
        page = browser.new_page(viewport=desk)
        page.goto(f"{url}/?cgp={urllib.parse.quote(P_REF1)}")
        first = page.locator("#moves tbody tr").first
        expect(first).to_be_visible()
        page.locator("#moves tbody tr").nth(2).hover()
        expect(page.locator("#detail")).to_contain_text("Punkte")
        page.screenshot(path=str(out / "analysis.png"))

        page.goto(url + "/")
        expect(page.locator("#status")).to_contain_text("Bänkchen ist leer")
        page.locator('#board .sq[data-square="F8"]').click()
        page.keyboard.type("WALZ")
        page.keyboard.press("Shift+E")
        page.keyboard.type("R")
        page.locator('#board .sq[data-square="H7"]').click()
        page.locator('#board .sq[data-square="H7"]').click()
        page.keyboard.type("K")
        page.fill("#rack", "EINST?Ü")
        page.locator("#board").focus()
        expect(page.locator("#moves tbody tr").first).to_be_visible()
        page.screenshot(path=str(out / "editor.png"))

        page.fill("#check", "9F ÜBEN")
        expect(page.locator("#check-result")).to_contain_text("ungültig")
        page.screenshot(path=str(out / "check.png"))

        ctx = browser.new_context(**phone)
        page = ctx.new_page()
        page.goto(f"{url}/?cgp={urllib.parse.quote(P_REF1)}")
        expect(page.locator("#moves tbody tr").first).to_be_visible()
        page.screenshot(path=str(out / "analysis-phone.png"), full_page=True)

        # the score pad: a 3-player game under way, the next move typed and previewed
        page.goto(url + "/punkte")
        for k, name in enumerate(("Ana", "Ben", "Cal"), start=1):
            page.fill(f"#name{k}", name)
        page.click("#start")
        for start, down, word in (("H8", False, "HAUS"), ("K8", True, "SEHR"), ("K11", False, "RASEN")):
            page.locator(f'#board [data-square="{start}"]').tap()
            page.click("#dir-down" if down else "#dir-across")
            page.fill("#word", word)
            expect(page.locator("#preview")).to_contain_text("Zugwert")
            page.click("#save")
        page.click("#pass")
        page.locator('#board [data-square="H8"]').tap()
        page.click("#dir-down")
        page.fill("#word", "HASEN")
        expect(page.locator("#preview")).to_contain_text("Zugwert")
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(out / "punkte-phone.png"), full_page=True)
        pad_state = page.evaluate("localStorage.getItem('gse.punkte.v1')")
        desk_pad = browser.new_context(viewport=desk)
        desk_pad.add_init_script(f"localStorage.setItem('gse.punkte.v1', {pad_state!r})")
        dp = desk_pad.new_page()
        dp.goto(url + "/punkte")
        dp.locator('#board [data-square="H8"]').click()
        dp.click("#dir-down")
        dp.fill("#word", "HASEN")
        expect(dp.locator("#preview")).to_contain_text("Zugwert")
        dp.locator("#end summary").click()
        dp.evaluate("window.scrollTo(0, 0)")
        dp.screenshot(path=str(out / "punkte.png"))

        # Together · Team: the shared board, goal cards counted
        page.click("#new")
        page.check("input[name=mode][value=together]")
        page.click("#start")
        for start, down, word, goal in (("H8", False, "HAUS", True), ("K8", True, "SEHR", False),
                                        ("K11", False, "RASEN", True)):
            page.locator(f'#board [data-square="{start}"]').tap()
            page.click("#dir-down" if down else "#dir-across")
            page.fill("#word", word)
            expect(page.locator("#preview")).to_contain_text("neue Steine")
            if goal:
                page.check("#goal")
            page.click("#save")
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(out / "together-phone.png"), full_page=True)

        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        page.goto(url + "/director")
        expect(page.locator("body")).to_contain_text("KIEPE")
        page.wait_for_timeout(1500)  # let the countdown tick
        page.screenshot(path=str(out / "director.png"))
        browser.close()
    for name in ("analysis.png", "editor.png", "check.png", "analysis-phone.png", "punkte-phone.png", "punkte.png",
                 "together-phone.png", "director.png"):
        print(out / name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
