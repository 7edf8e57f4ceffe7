"""Retake the screenshots of the analysis page in docs/web/ (headless Chromium).

Usage: ``.venv/bin/python scripts/web_screenshots.py [--chromium /usr/bin/chromium]``

Serves the app on a free loopback port with the default lexicon and writes

* ``docs/web/analysis.png`` — golden position p_ref1 (the README's) with a move hovered;
* ``docs/web/editor.png`` — a board being typed (cursor down, a blank, a warning);
* ``docs/web/check.png`` — the word checker explaining an illegal move;
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
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(f"{url}/?cgp={urllib.parse.quote(P_REF1)}")
        first = page.locator("#moves tbody tr").first
        expect(first).to_be_visible()
        page.locator("#moves tbody tr").nth(2).hover()
        expect(page.locator("#detail")).to_contain_text("points")
        page.screenshot(path=str(out / "analysis.png"))

        page.goto(url + "/")
        expect(page.locator("#status")).to_contain_text("rack is empty")
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
        expect(page.locator("#check-result")).to_contain_text("illegal")
        page.screenshot(path=str(out / "check.png"))

        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        page.goto(url + "/director")
        expect(page.locator("body")).to_contain_text("KIEPE")
        page.wait_for_timeout(1500)  # let the countdown tick
        page.screenshot(path=str(out / "director.png"))
        browser.close()
    for name in ("analysis.png", "editor.png", "check.png", "director.png"):
        print(out / name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
