"""/spielen in headless Chromium at 390×844 (Debian's ``chromium`` via Playwright): a whole game against
"Stark" typed on the board as a phone user would (tap the start square, type the word, tap a typed letter to
make it a blank), every score checked against the word checker's preview and the score pad, a reload in the
middle continuing the game, the end settlement, then the Partieanalyse and the puzzles.
Skipped without Chromium or Playwright, except under CI.
"""

from __future__ import annotations

import re

import pytest
from browser_support import require_chromium

require_chromium()

from playwright.sync_api import expect  # noqa: E402

COLS = "ABCDEFGHIJKLMNO"


@pytest.fixture(scope="module")
def server(golden_lexicon, tmp_path_factory):
    from engine.web.app import create_app
    from engine.web.cli import background_server

    app = create_app(golden_lexicon, allowed_hosts=["127.0.0.1", "localhost"], rate="1000/second",
                     games_dir=tmp_path_factory.mktemp("spiele"))
    with background_server(app) as url:
        yield url, app
    app.state.deep.close()


def _moves(app, state, top: int) -> list[dict]:
    """The best ``top`` placements of the player's position by equity, as ``/api/moves`` answers them."""
    from engine.web import api

    games = app.state.games
    return api.moves_json(api.read_position(state["cgp"]), games.lexicon, games.table, top=top)["moves"]


def _best(app, state) -> str:
    """The best move of the player's position by equity (the analysis API's best placement or best exchange),
    else exchange all or pass."""
    from engine.web import api

    games = app.state.games
    ans = api.moves_json(api.read_position(state["cgp"]), games.lexicon, games.table, top=1)
    options = [(m["equity"], m["move"]) for m in ans["moves"][:1] + ans["best_exchanges"][:1]]
    if options:  # an exchange can beat every placement (the review ranks both)
        return max(options)[1]
    return f"-{state['rack']}" if state["can_exchange"] else "-"


def _type_move(pg, move: str) -> None:
    """Tap the start square, choose the direction, type the word (letters on the board too), tap blanks."""
    start, word = move.split()
    m = re.fullmatch(r"(\d+)([A-O])", start)
    if m:
        row, col, down = int(m.group(1)) - 1, COLS.index(m.group(2)), False
    else:
        m = re.fullmatch(r"([A-O])(\d+)", start)
        row, col, down = int(m.group(2)) - 1, COLS.index(m.group(1)), True
    pg.click(f'#board [data-square="{COLS[col]}{row + 1}"]')
    pg.click("#dir-down" if down else "#dir-across")
    letters = word.replace("(", "").replace(")", "")
    pg.fill("#word", letters.upper())
    for k, ch in enumerate(letters):
        if ch != ch.upper():  # a blank: tap the typed letter
            r, c = (row + k, col) if down else (row, col + k)
            pg.click(f'#board [data-square="{COLS[c]}{r + 1}"]')


def test_a_whole_game_against_stark_on_a_phone(browser, server):
    url, app = server
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    ctx.add_init_script("localStorage.setItem('gse.lang', 'de')")
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    try:
        pg.goto(url + "/spielen")
        expect(pg.locator("#setup")).to_be_visible()
        pg.check("input[name=level][value=stark]")
        pg.fill("#name", "Ana")
        pg.click("#start")
        pg.wait_for_function("window.SPIEL.state && !window.SPIEL.busy")
        n = 0
        reloaded = False
        while True:
            st = pg.evaluate("window.SPIEL.state")
            if st["over"]:
                break
            assert pg.evaluate("document.documentElement.scrollWidth") <= 390
            expect(pg.locator("#bag-count")).to_have_text(f"{st['bag']} Steine")
            assert len(st["unseen"]) == st["bag"] + (7 if st["bag"] else len(st["unseen"]))
            move = _best(app, st)
            before = len(st["turns"])
            if move.startswith("-"):
                if move == "-":
                    pg.click("#pass")
                else:
                    pg.fill("#exchange-tiles", move[1:])
                    pg.click("#exchange")
                expected = 0
            else:
                _type_move(pg, move)
                expect(pg.locator("#play")).to_be_enabled(timeout=30000)  # the first preview may wait for the lexicon and kernels
                preview = pg.locator("#preview .good").inner_text()
                expected = int(re.search(r"(\d+) Punkte", preview).group(1))
                pg.click("#play")
            pg.wait_for_function(f"window.SPIEL.state && !window.SPIEL.busy && window.SPIEL.state.turns.length > {before}")
            st = pg.evaluate("window.SPIEL.state")
            mine = st["turns"][before]
            assert mine["player"] == "Ana" and mine["score"] == expected
            # the score pad: every running total is the sum of its entries
            totals = [0, 0]
            for t in st["turns"]:
                totals[t["p"]] += t["score"]
                assert t["total"] == totals[t["p"]]
            assert totals == st["scores"]
            shown = pg.locator("#totals .sum").all_inner_texts()
            assert [int(x) for x in shown] == st["scores"]
            n += 1
            if n == 4 and not reloaded:  # a reload in the middle continues the same game
                pg.reload()
                pg.wait_for_function("window.SPIEL.state && !window.SPIEL.busy")
                again = pg.evaluate("window.SPIEL.state")
                assert again["id"] == st["id"] and again["turns"] == st["turns"] and again["rack"] == st["rack"]
                reloaded = True
            assert n < 60
        res = st["result"]
        expect(pg.locator("#final")).to_be_visible()
        final = pg.locator("#final").inner_text()
        assert f"{max(res['scores'])}:{min(res['scores'])}" in final
        for t in res["settlement"]:
            if t["kind"] == "rack":
                assert f"−{-t['score']}" in final
            else:
                assert f"bekommt {t['score']} Punkte" in final
        if res["end_reason"] == "out":
            assert sum(t["score"] for t in res["settlement"]) == 0
        # the Partieanalyse of this game
        pg.click("#analyse")
        pg.wait_for_function("window.SPIEL.review !== null", timeout=240_000)
        rv = pg.evaluate("window.SPIEL.review")
        assert len(rv["turns"]) == len([t for t in st["turns"] if t["kind"] in ("play", "withdrawn", "exchange", "pass")])
        expect(pg.locator("#winplot svg")).to_be_visible()
        assert pg.locator("#review-turns .rturn").count() == len(rv["turns"])
        pg.locator("#review-turns .rturn").nth(2).click()
        expect(pg.locator("#review-detail")).to_contain_text(f"3. {rv['turns'][2]['player']}")
        # Ana played the best move by equity every time: nothing of hers is marked before the endgame
        marked = [t for t in rv["turns"] if t["player"] == "Ana" and t["method"] == "static" and t["mark"]]
        assert not marked, [(t, _moves(app, {"cgp": t["cgp"]}, 3)) for t in marked]
        assert pg.evaluate("document.documentElement.scrollWidth") <= 390
        assert errors == []
    finally:
        ctx.close()


def test_puzzles_from_a_reviewed_game(browser, server, golden_lexicon):
    """A game in which the player plays a worse move: it becomes a puzzle, solved by the best move."""
    url, app = server
    store = app.state.games
    st = store.new("stark", "home", "Ana", seed=3)
    gid = st["id"]
    k = 0
    while not st["over"]:
        best = _best(app, st)
        if k == 2 and not best.startswith("-"):
            moves = _moves(app, st, 40)
            worse = [m for m in moves if moves[0]["equity"] - m["equity"] >= 10]
            best = worse[0]["move"] if worse else best
        st = store.move(gid, best)
        k += 1
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    ctx.add_init_script(f"localStorage.setItem('gse.lang', 'de'); localStorage.setItem('gse.spielen.v1', "
                        f"JSON.stringify({{current: '{gid}', ids: ['{gid}']}}))")
    pg = ctx.new_page()
    try:
        pg.goto(url + "/spielen")
        pg.wait_for_function("window.SPIEL.state && window.SPIEL.state.over")
        pg.click("#analyse")
        pg.wait_for_function("window.SPIEL.review !== null", timeout=240_000)
        rv = pg.evaluate("window.SPIEL.review")
        mine = [t for t in rv["turns"] if t["player"] == "Ana" and t["mark"] in ("Fehler", "Patzer") and t["method"] == "static"]
        assert mine, "the worse move is marked"
        pg.click('.tabs button[data-view="puzzles"]')
        puzzles = pg.evaluate("window.SPIEL.puzzles")
        assert puzzles and all(p["player"] == "Ana" for p in puzzles)
        first = puzzles[0]
        assert first["loss"] == max(p["loss"] for p in puzzles)
        pg.locator("#puzzle-list button.pz").first.click()
        pg.fill("#puzzle-move", first["played"])
        pg.click("#puzzle-check")
        expect(pg.locator("#puzzle-msg")).to_contain_text("Nicht besser")
        pg.fill("#puzzle-move", first["best"])
        pg.click("#puzzle-check")
        expect(pg.locator("#puzzle-msg")).to_contain_text("Richtig")
        stored = pg.evaluate("JSON.parse(localStorage.getItem('gse.aufgaben.v1'))")
        assert stored[0]["solved"] and stored[0]["tries"] == 2
        pg.reload()
        pg.click('.tabs button[data-view="puzzles"]')
        expect(pg.locator("#puzzle-list")).to_contain_text("gelöst")
    finally:
        ctx.close()
