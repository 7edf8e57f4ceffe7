"""Retake the director's screenshots in docs/web/ (headless Chromium): the projection and the
arbitration screen at 1366×768 (a laptop or projector) and 390×844 (a phone), and the
projection at 1920×1080 (``director.png``).

Usage: ``.venv/bin/python scripts/director_screenshots.py [--chromium /usr/bin/chromium]``

The event is the README's ``club`` (seed 2024, 3:00 a round, default lexicon) with a fourth
player, at two tables: round 1 entered and closed (Dora's slip handed in late, a warning for
Ben, a 3-point penalty for Cal), round 2's clock running and two of its moves entered.

Writes ``director.png``, ``director-1366x768.png``, ``director-390x844.png``,
``admin-1366x768.png``, ``admin-390x844.png`` and ``player-390x844.png`` (a player's phone,
``--players-submit``).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

KEY = "screenshot-key"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    ap.add_argument("--out", default=str(ROOT / "docs" / "web"))
    args = ap.parse_args()
    from playwright.sync_api import expect, sync_playwright

    from lexicon_tools.bundle import load_lexicon

    from engine.director.rules import SimultanRules
    from engine.director.store import EventDir
    from engine.movegen.generator import generate_moves
    from engine.web.app import create_app
    from engine.web.cli import background_server

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    lexicon = load_lexicon(None)
    club = Path(tempfile.mkdtemp()) / "club"
    players = ["Ana", "Ben", "Cal", "Dora"]
    event = EventDir.create(club, players, seed=2024, rules=SimultanRules(round_time=180), lexicon=lexicon,
                            export=False, notes=None, tables={"Ana": 1, "Ben": 1, "Cal": 2, "Dora": 2})
    event.start()
    for player, move in (("Ana", "8D KIEPE"), ("Ben", "8H KIEPE"), ("Cal", "H4 PIKTE"), ("Dora", "8D PIEKE")):
        event.submit(player, move, late=player == "Dora")
    event.warn("Ben", reason="Handy")
    event.penalty("Cal", 3, reason="laut")
    event.close()
    event.start()
    ev = event.load()
    moves = generate_moves(ev.board, ev.rack, lexicon).sorted()
    event.submit("Ana", moves[2].notation)
    event.submit("Ben", moves[9].notation)
    written = []
    app = create_app(lexicon, event_dir=club, admin_key=KEY, players_submit=True)
    links = app.state.player_links
    with background_server(app) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, args=[
            "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync"])
        for w, h, name in ((1920, 1080, "director.png"), (1366, 768, "director-1366x768.png"),
                           (390, 844, "director-390x844.png")):
            page = browser.new_page(viewport={"width": w, "height": h})
            page.goto(url + "/director")
            expect(page.locator("body")).to_contain_text("KIEPE")
            page.wait_for_timeout(1200)  # let the countdown tick
            page.screenshot(path=str(out / name))
            written.append(out / name)
            page.close()
        for w, h in ((1366, 768), (390, 844)):
            page = browser.new_page(viewport={"width": w, "height": h})
            page.goto(url + "/director/admin#key=" + KEY)
            expect(page.locator("#round-title")).to_have_text("Runde 2 läuft")
            page.locator('input.move[data-player="Cal"]').focus()
            page.keyboard.type(moves[0].notation.split()[0] + " ")
            name = f"admin-{w}x{h}.png"
            page.screenshot(path=str(out / name), full_page=w < 500)
            written.append(out / name)
            page.close()
        page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
        page.goto(f"{url}/spieler#t={links['Cal']}")
        expect(page.locator("#rack")).to_have_text(" ".join(ev.current.rack))
        page.fill("#move", moves[4].notation)
        page.click("button")
        expect(page.locator("#msg")).to_contain_text("Eingegangen")
        page.screenshot(path=str(out / "player-390x844.png"))
        written.append(out / "player-390x844.png")
        browser.close()
    for f in written:
        print(f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
