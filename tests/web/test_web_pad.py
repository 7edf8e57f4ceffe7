"""End to end: the score pad (Punkteblock) and Together · Team in headless Chromium at a phone's
viewport (390×844), against a real server on loopback (docs/web.md).

What a family does at the table: a whole 3-player game typed on the board, with a blank, a pass,
an exchange, a word agreed at the table, a row entered by hand and removed, an undo, a correction
and the end settlement of SPEC "End of game" (11 and 4 points left, +15 for the player who went
out). The expected scores come from the engine's scorer called directly and from the SPEC's
arithmetic; the GCG export is read back by ``engine.game.gcg`` and ``python -m engine gcg``.

Skipped when Chromium or Playwright is missing, except under CI (``CI`` set).
"""

from __future__ import annotations

import json
import re

import pytest
from browser_support import require_chromium

from engine.position.board import Board
from engine.game.game import rack_value, settle_out
from engine.position.scorer import check_move

require_chromium()

from playwright.sync_api import expect  # noqa: E402

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(golden_lexicon):
    from engine.web.app import create_app
    from engine.web.cli import background_server

    with background_server(create_app(golden_lexicon, allowed_hosts=["127.0.0.1", "localhost"])) as url:
        yield url


@pytest.fixture
def ctx(browser):
    c = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=1)
    yield c
    c.close()


@pytest.fixture
def page(ctx, server):
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.goto(server + "/punkte")
    expect(pg.locator("#setup")).to_be_visible()
    yield pg
    assert not errors, f"JavaScript errors: {errors}"


def start_game(pg, names, mode="classic"):
    # the page has started (under load a test clicked the hidden "Neue Partie" before it had)
    pg.wait_for_function("!document.querySelector('#setup').hidden || !document.querySelector('#game').hidden")
    if not pg.locator("#setup").is_visible():
        pg.click("#new")
    pg.check(f"input[name=mode][value={mode}]")
    for k in range(1, 5):
        pg.fill(f"#name{k}", names[k - 1] if k <= len(names) else "")
    pg.click("#start")
    expect(pg.locator("#game")).to_be_visible()


def sq(pg, name):
    return pg.locator(f'#board [data-square="{name}"]')


def type_move(pg, start: str, down: bool, word: str, blanks=()):
    """Tap the start square, choose the direction, write the whole word; tap blank squares."""
    sq(pg, start).tap()
    pg.click("#dir-down" if down else "#dir-across")
    pg.fill("#word", word)
    for name in blanks:
        sq(pg, name).tap()
    expect(pg.locator("#preview")).not_to_have_text("…")


def totals(pg) -> list[int]:
    return [int(t) for t in pg.locator("#totals .tot .sum").all_inner_texts()]


def test_a_whole_three_player_game_on_a_phone(page, golden_lexicon, tmp_path, capsys):
    pg = page
    assert pg.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    expect(pg.locator("#start")).to_have_text("Partie beginnen")          # German by default
    start_game(pg, ["Ana", "Ben", "Cal"])
    assert pg.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    pg.set_viewport_size({"width": 360, "height": 740})
    assert pg.evaluate("document.documentElement.scrollWidth") <= 360
    pg.set_viewport_size(PHONE)
    width = pg.locator("#board").bounding_box()["width"]
    assert width >= 0.9 * PHONE["width"]                                 # the board fills the width

    # the same moves scored by the engine, independently of the page
    board = Board()
    code = {ch: i + 1 for i, ch in enumerate(board.alphabet.letters)}

    def engine_score(notation):
        s = check_move(board, notation, None)
        board.place([(r, c, code[ch], b) for r, c, ch, b in s.tiles])
        return s.score

    expect(pg.locator("#turn")).to_have_text("Am Zug: Ana")
    pg.fill("#lookup", "hauser")                                          # the word checker at the top
    expect(pg.locator("#lookup-result")).to_have_text("✗ HAUSER steht nicht in der Wortliste")
    pg.fill("#lookup", "straße")                                          # ß is written SS
    expect(pg.locator("#lookup-result")).to_have_text("✓ STRASSE steht in der Wortliste")
    type_move(pg, "H8", False, "HAUS")
    expect(pg.locator("#preview")).to_contain_text("Zugwert: 10 Punkte")   # (2+1+1+1) × 2, centre star
    assert sorted(pg.locator("#board .tile.new").evaluate_all("els => els.map(e => e.parentNode.dataset.square)")) \
        == ["H8", "I8", "J8", "K8"]
    pg.click("#save")
    s1 = engine_score("8H HAUS")

    # Ben: SEHR down from the S (the whole word, the S already there)
    type_move(pg, "K8", True, "SEHR")
    s2 = engine_score("K8 SEHR")
    expect(pg.locator("#preview")).to_contain_text(f"Zugwert: {s2} Punkte")
    pg.click("#save")
    pg.click("#pass")                                                    # Cal passes
    pg.select_option("#exchange-n", "4")
    pg.click("#exchange")                                                # Ana exchanges 4
    # Ben: RASEN across from the R, the S a blank (tapped on the board to mark it)
    type_move(pg, "K11", False, "RASEN", blanks=["M11"])
    s5 = engine_score("11K RAsEN")
    expect(pg.locator("#preview")).to_contain_text(f"Zugwert: {s5} Punkte")
    expect(sq(pg, "M11").locator(".tile.new.blank")).to_have_count(1)
    pg.click("#save")
    # Cal: an illegal try first (not connected): explained, drawn, not saveable
    type_move(pg, "A1", False, "HASE")
    expect(pg.locator("#preview")).to_contain_text("berührt keinen Stein")
    expect(pg.locator("#board .tile.illegal")).to_have_count(4)
    expect(pg.locator("#save")).to_be_disabled()
    type_move(pg, "H8", True, "HASEN")
    pg.click("#save")
    pg.click("#undo")                                                    # "Letzten Zug zurück"
    expect(pg.locator("#rows tr.turn")).to_have_count(5)
    expect(pg.locator("#turn")).to_have_text("Am Zug: Cal")
    type_move(pg, "H8", True, "HASE")
    pg.click("#save")
    # Ana: HAUSER is not in the list; agreed at the table, saved anyway (marked)
    type_move(pg, "H8", False, "HAUSER")
    expect(pg.locator("#preview")).to_contain_text("nicht in der Wortliste: HAUSER")
    expect(pg.locator("#save")).to_be_disabled()
    pg.click("#save-agreed")
    expect(pg.locator("#rows tr.turn").nth(6).locator(".tag.agreed")).to_have_count(1)
    # Ben: points by hand, then the row removed again (two taps on ×)
    pg.fill("#points", "12")
    pg.click("#save-points")
    expect(pg.locator("#rows tr.turn")).to_have_count(8)
    remove = pg.locator("#rows tr.turn").nth(7).locator("button.remove")
    remove.click()
    pg.wait_for_timeout(350)                       # a deliberate second tap (a double tap is one tap)
    remove.click()
    expect(pg.locator("#rows tr.turn")).to_have_count(7)
    # a correction: Cal's HASE (row 6) was really HASEN (tapping its points opens it, as ✎ does)
    pg.locator("#rows tr.turn").nth(5).locator("td.pts").click()
    expect(pg.locator("#word")).to_have_value("HASE")
    pg.fill("#word", "HASEN")
    expect(pg.locator("#preview")).to_contain_text("HASEN")
    pg.click("#save")
    expect(pg.locator("#rows tr.turn").nth(5)).to_contain_text("korrigiert")
    s6 = engine_score("H8 HASEN")
    s7 = engine_score("8H HAUSER")
    expect(pg.locator("#rows tr.turn").nth(6).locator(".pts")).to_have_text(str(s7))
    assert totals(pg) == [s1 + s7, s2 + s5, s6]

    # end of game (SPEC): Ana went out, Ben holds Q E (11), Cal A B (4)
    pg.locator("#end summary").click()
    pg.locator('#rest-inputs input[data-p="1"]').fill("QE")
    pg.locator('#rest-inputs input[data-p="2"]').fill("AB")
    expect(pg.locator("#out")).to_have_value("0")                        # the one without tiles went out
    pg.click("#settle")
    adj = settle_out(0, [0, rack_value("QE"), rack_value("AB")])
    assert adj == [15, -11, -4]                                          # the SPEC's worked example
    want = [s1 + s7 + adj[0], s2 + s5 + adj[1], s6 + adj[2]]
    assert totals(pg) == want
    standings = [int(t) for t in pg.locator("#standings .sum").all_inner_texts()]
    assert standings == sorted(want, reverse=True)
    expect(pg.locator("#final .winner")).to_have_text("Sieg: Ana")
    expect(pg.locator("#rows tr.adj")).to_have_count(3)

    # reload: the game is still there
    pg.reload()
    expect(pg.locator("#game")).to_be_visible()
    assert totals(pg) == want
    expect(pg.locator("#rows tr.turn")).to_have_count(7)

    # GCG export, read back by engine.game.gcg (words checked against the list, HAUSER agreed) and the CLI
    pg.click("#export")
    text = pg.locator("#gcg-out").input_value()
    from engine.game.gcg import read_gcg

    rec = read_gcg(text, golden_lexicon)
    assert rec.scores == want
    assert rec.end_reason == "out"
    assert [t.kind for t in rec.turns][:7] == ["play", "play", "pass", "exchange", "play", "play", "play"]
    f = tmp_path / "pad.gcg"
    f.write_text(text, encoding="utf-8")
    from engine.cli.main import main

    capsys.readouterr()
    assert main(["gcg", str(f), "--lexicon", str(golden_lexicon.path)]) == 0
    out = capsys.readouterr().out
    assert "winner: Ana (ended by out)" in out
    last = [ln for ln in out.splitlines() if "out bonus" in ln][0]
    assert last.split()[-3:] == [str(v) for v in want]

    # and imported again (as on another device): a new game with the same rows and totals
    pg.set_input_files("#import-file", str(f))
    expect(pg.locator("#io-msg")).to_contain_text("GCG gelesen: 10 Einträge")
    assert totals(pg) == want
    expect(pg.locator("#rows tr.turn")).to_have_count(7)
    expect(pg.locator("#games li")).to_have_count(2)
    assert pg.locator("#rows tr.turn").nth(4).locator(".mv").inner_text() == "11K (R)ASEN"
    expect(pg.locator("#rows tr.turn").nth(4).locator(".blank-letter")).to_have_text("S")


def test_twenty_games_are_kept_and_an_earlier_one_reopens(page):
    pg = page
    for k in range(21):
        start_game(pg, [f"A{k}", f"B{k}"])
        if k == 0:
            pg.fill("#points", "7")
            pg.click("#save-points")
    items = pg.locator("#games li")
    expect(items).to_have_count(20)
    # the oldest game without rows is gone; the oldest of all (a row, unfinished) is never dropped
    assert "A1 0 ·" not in pg.locator("#games").inner_text()
    assert "A0 7 ·" in pg.locator("#games").inner_text()
    # by keyboard alone: the board's arrows pick the start square, Space turns it down, letters go to the word
    pg.focus("#board")
    pg.keyboard.press("Space")                     # the centre square H8 first
    pg.keyboard.press("ArrowRight")                # I8
    pg.keyboard.press("Space")                     # down
    pg.keyboard.type("haus")
    expect(pg.locator("#word")).to_have_value("HAUS")
    expect(pg.locator("#preview")).to_contain_text("der erste Zug muss über den Stern H8 gehen")
    pg.focus("#board")
    pg.keyboard.press("ArrowLeft")
    pg.keyboard.press("Space")                     # across again, from H8
    expect(pg.locator("#preview")).to_contain_text("Zugwert: 10 Punkte")
    pg.keyboard.press("Enter")
    expect(pg.locator("#rows tr.turn")).to_have_count(1)
    # a damaged entry (another version, a hand edit) is dropped; the page still works
    pg.evaluate("""() => { const s = JSON.parse(localStorage.getItem('gse.punkte.v1'));
        s.games.push({id: 'bad', players: ['X'], turns: [{p: 3, score: 'x'}]});
        localStorage.setItem('gse.punkte.v1', JSON.stringify(s)); }""")
    pg.reload()
    expect(pg.locator("#games li")).to_have_count(20)
    expect(pg.locator("#totals .tot .name").first).to_have_text("A20")
    pg.locator("#games li", has_text="A5 ").locator("button.open").click()
    expect(pg.locator("#totals .tot .name").first).to_have_text("A5")


def test_clock_counts_from_timestamps_and_penalties_enter_the_settlement(page):
    pg = page
    start_game(pg, ["Ana", "Ben"])
    pg.locator("#clock summary").click()
    pg.select_option("#tm-mode", "p25")
    expect(pg.locator("#tm-faces .face")).to_have_count(2)
    expect(pg.locator("#tm-faces .face").first).to_contain_text("25:00")
    pg.click("#tm-start")
    # as if Ana's clock had been running for 25 minutes and 90 seconds (tab hidden, phone asleep)
    pg.evaluate("""() => { const s = JSON.parse(localStorage.getItem('gse.punkte.v1'));
        const g = s.games.find(x => x.id === s.current); g.clock.since = Date.now() - (1500 + 90) * 1000;
        localStorage.setItem('gse.punkte.v1', JSON.stringify(s)); }""")
    pg.reload()
    pg.locator("#clock summary").click()
    face = pg.locator("#tm-faces .face").first
    expect(face).to_have_class("face active over")
    expect(face).to_contain_text(re.compile(r"−1:\d\d"))
    expect(pg.locator("#tm-faces")).to_have_attribute("data-beeps", "1")   # beeped once at zero
    # 90 s over (and counting): two started minutes, 20 points (SPEC "Challenges and time")
    expect(pg.locator("#tm-penalties")).to_contain_text(re.compile(r"Ana: 1:\d\d über der Zeit – 20 Punkte Abzug"))
    pg.locator("#end summary").click()
    pg.select_option("#out", "")                 # nobody went out (both fields empty: the choice is asked for)
    pg.click("#settle")                          # no move entered: asked once more
    expect(pg.locator("#end-msg")).to_contain_text("Noch kein Zug eingetragen")
    pg.wait_for_timeout(450)
    pg.click("#settle")
    expect(pg.locator("#final")).to_be_visible()
    assert totals(pg) == [-20, 0]
    expect(pg.locator("#rows tr.adj.time")).to_have_count(1)


def test_together_game_to_twenty_goal_cards(page, golden_lexicon):
    from engine.game.game import Game
    from engine.game.together import TogetherGame

    # moves the engine finds (a self-played game's top moves), checked by TogetherGame as well
    g = Game(["a", "b"], golden_lexicon, seed=7)
    tg = TogetherGame(golden_lexicon)
    moves = []
    while len(moves) < 23:
        m = g.best_moves(1)[0]
        g.play(m)
        if len(moves) < 22:
            tg.play(m, goal_done=len(moves) not in (3, 9))
        moves.append(m)
    assert tg.goals == 20 and tg.won                 # after 22 moves, two of them without a card

    pg = page
    start_game(pg, ["Ana", "Ben"], mode="together")
    expect(pg.locator("#totals")).to_contain_text("Erfüllte Zielkarten: 0 von 20")
    expect(pg.locator("#board .sq.tw")).to_have_count(0)                 # no premium squares
    expect(pg.locator("#other-row")).to_be_hidden()
    cols = "ABCDEFGHIJKLMNO"
    for k, m in enumerate(moves):
        start = f"{cols[m.col]}{m.row + 1}"
        blanks = [f"{cols[m.col + i * (m.direction == 0)]}{m.row + 1 + i * (m.direction == 1)}"
                  for i, (ch, thr) in enumerate(zip(m.word, m.through)) if ch.islower() and not thr]
        type_move(pg, start, m.direction == 1, m.word.upper(), blanks)
        expect(pg.locator("#preview")).to_contain_text("neue Steine")
        expect(pg.locator("#preview")).not_to_contain_text("Zugwert")   # nothing is scored
        if k not in (3, 9):
            pg.check("#goal")
        if k == 5:
            pg.check("#hint")
        if k == 22:
            break
        pg.click("#save")
    expect(pg.locator("#totals")).to_contain_text("Gewonnen! 20 Zielkarten erfüllt.")
    expect(pg.locator("#totals")).to_contain_text("Hilfskarten: 1")
    expect(pg.locator("#save")).to_be_disabled()                         # won: no more cards to fulfil
    expect(pg.locator("#rows .tag.goal")).to_have_count(20)
    expect(pg.locator("#rows .tag.nogoal")).to_have_count(2)
    stored = json.loads(pg.evaluate("localStorage.getItem('gse.punkte.v1')"))
    game = [x for x in stored["games"] if x["id"] == stored["current"]][0]
    assert [t["move"] for t in game["turns"]] == [tm.notation for tm in tg.history]
    assert [t["goal"] for t in game["turns"]] == [tm.goal_done for tm in tg.history]
