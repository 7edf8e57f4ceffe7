"""End to end: whatever the score pad (Punkteblock) holds, its own GCG export imports again into the pad
with the same rows, totals, next player and end state, and ``engine.game.gcg`` reads it where its rules
allow (report-attack26f F4–F6, report-attack26e E4–E5). Headless Chromium at 390×844 against a real
server on loopback, as tests/web/test_web_pad.py.

Skipped when Chromium or Playwright is missing, except under CI (``CI`` set).
"""

from __future__ import annotations

import json

from browser_support import require_chromium

require_chromium()

from playwright.sync_api import expect  # noqa: E402
from test_web_pad import PHONE, ctx, page, server, start_game, totals, type_move  # noqa: E402,F401

HEAD = ("#character-encoding UTF-8\n#player1 ana Ana\n#player2 ben Ben\n#lexicon default\n"
        "#tile-distribution german\n")
STATE = """() => ({tot: PAD.totals(), next: PAD.nextPlayer(), end: PAD.game.end,
    rows: PAD.game.turns.map(t => [t.p, t.kind, t.score, t.move || t.withdrawn || null, !!t.challenge])})"""


def imp(pg, tmp_path, name, text):
    f = tmp_path / name
    f.write_text(text, encoding="utf-8")
    pg.set_input_files("#import-file", str(f))
    return pg.locator("#io-msg")


def round_trip(pg, tmp_path, golden_lexicon=None, name="rt.gcg"):
    """Export, import the export; the state before and after must agree. The export's text."""
    before = pg.evaluate(STATE)
    r = pg.evaluate("PAD.gcgText()")
    assert "text" in r, r
    expect(imp(pg, tmp_path, name, r["text"])).to_contain_text("GCG gelesen")
    after = pg.evaluate(STATE)
    assert json.loads(json.dumps(after)) == json.loads(json.dumps(before)), r["text"]
    if golden_lexicon is not None:
        from engine.game.gcg import read_gcg

        read_gcg(r["text"], golden_lexicon)
    return r["text"]


def open_end(pg):
    if not pg.locator("#out").is_visible():
        pg.locator("#end summary").click()


def remove(pg, i):
    btn = pg.locator("#rows tr.turn").nth(i).locator("button.remove")
    btn.click()
    pg.wait_for_timeout(350)                       # a deliberate second tap (a double tap is one tap)
    btn.click()


def test_removing_a_middle_row_keeps_the_turn_order(page, tmp_path, golden_lexicon):
    pg = page
    start_game(pg, ["Ana", "Ben"])
    for v in ("7", "8", "9"):
        pg.fill("#points", v)
        pg.click("#save-points")
        pg.wait_for_timeout(450)
    remove(pg, 1)
    said = pg.locator("#msg").text_content()
    round_trip(pg, tmp_path, golden_lexicon, "rt0.gcg")    # main: "Zeile 8: Ana ist nicht an der Reihe"
    assert said.startswith("Zug 2 ist jetzt ein Passen von Ben: so bleibt die Reihenfolge"), said
    expect(pg.locator("#rows tr.turn")).to_have_count(3)
    expect(pg.locator("#rows tr.turn").nth(1)).to_contain_text("passt")
    assert totals(pg) == [16, 0]
    expect(pg.locator("#turn")).to_have_text("Am Zug: Ben")
    remove(pg, 1)                                   # a pass in the middle stays (the order would break)
    expect(pg.locator("#msg")).to_contain_text("Zug 2 ist ein Passen")
    expect(pg.locator("#rows tr.turn")).to_have_count(3)
    text = round_trip(pg, tmp_path, golden_lexicon)
    assert ">Ben: ... - +0 0" in text
    remove(pg, 2)                                   # the last row simply goes
    expect(pg.locator("#rows tr.turn")).to_have_count(2)
    expect(pg.locator("#turn")).to_have_text("Am Zug: Ana")

    # a play a later play lies on cannot go; one nothing lies on becomes a pass
    start_game(pg, ["Ana", "Ben"])
    type_move(pg, "H8", False, "HAUS")
    pg.click("#save")
    type_move(pg, "K8", True, "SEHR")
    pg.click("#save")
    pg.fill("#points", "5")
    pg.click("#save-points")
    remove(pg, 0)
    expect(pg.locator("#msg")).to_contain_text("Zug 1 bleibt: Zug 2 liegt auf seinen Steinen")
    expect(pg.locator("#rows tr.turn").nth(0)).to_contain_text("HAUS")
    btn = pg.locator("#rows tr.turn").nth(1).locator("button.remove")
    btn.click()
    expect(btn).to_have_text("→ Passen?")
    pg.wait_for_timeout(350)
    btn.click()
    expect(pg.locator("#rows tr.turn").nth(1)).to_contain_text("passt")
    expect(pg.locator("#board .tile")).to_have_count(4)
    round_trip(pg, tmp_path, golden_lexicon, "rt2.gcg")
    pg.click("#lang")                               # English
    remove(pg, 1)
    expect(pg.locator("#msg")).to_contain_text("Move 2 is a pass: without it the players' order")


def _games(n, now_ms, end=None):
    return [{"id": f"g{k}", "created": now_ms - 10_000 * (n - k), "updated": now_ms - 10_000 * (n - k),
             "mode": "classic", "players": [f"A{k}", f"B{k}"], "turns": [{"p": 0, "kind": "points", "score": k}],
             "end": end(k) if end else None, "clock": {"mode": "off", "used": [0, 0]}} for k in range(n)]


def test_a_full_list_never_drops_an_unfinished_game(page, tmp_path):
    pg = page
    start_game(pg, ["Ana", "Ben"])                  # the newest: two rows, unfinished
    pg.fill("#points", "7")
    pg.click("#save-points")
    pg.wait_for_timeout(450)
    pg.fill("#points", "8")
    pg.click("#save-points")
    # 19 older unfinished games with a row each: 20 in all
    pg.evaluate("""(games) => { const s = JSON.parse(localStorage.getItem('gse.punkte.v1'));
        s.games.push(...games); localStorage.setItem('gse.punkte.v1', JSON.stringify(s)); }""",
                _games(19, int(pg.evaluate("Date.now()")) - 3_600_000))
    pg.reload()
    expect(pg.locator("#games li")).to_have_count(20)
    msg = imp(pg, tmp_path, "one.gcg", HEAD + ">ana: ... 8H HAUS +10 10\n")
    expect(msg).to_have_text("Nicht importiert: Es sind schon 20 Partien gespeichert, und keine ist beendet. Bitte "
                             "erst eine Partie als GCG exportieren und unter „Frühere Partien“ löschen (oder abrechnen).")
    expect(msg).to_have_class("bad")
    expect(pg.locator("#games li")).to_have_count(20)
    assert totals(pg) == [7, 8]                     # the open game stays open
    pg.click("#new")
    pg.fill("#name1", "Cal")
    pg.fill("#name2", "Dan")
    pg.click("#start")
    expect(pg.locator("#setup-msg")).to_contain_text("Keine neue Partie: Es sind schon 20 Partien gespeichert")
    pg.reload()
    expect(pg.locator("#games li")).to_have_count(20)
    assert "A0 0" in pg.locator("#games").inner_text()
    # settled, the oldest but one goes first (the oldest unfinished stays); a game without rows before it
    pg.evaluate("""() => { const s = JSON.parse(localStorage.getItem('gse.punkte.v1'));
        const g = s.games.find(x => x.id === 'g3');
        g.end = {rest: [{text: '', value: 0}, {text: '', value: 0}], out: null, time: [0, 0], lost: [false, false]};
        s.games.find(x => x.id === 'g5').turns = [];
        localStorage.setItem('gse.punkte.v1', JSON.stringify(s)); }""")
    pg.reload()
    expect(imp(pg, tmp_path, "one.gcg", HEAD + ">ana: ... 8H HAUS +10 10\n")).to_have_text("GCG gelesen: 1 Einträge")
    ids = pg.evaluate("PAD.store.games.map(g => g.id)")
    assert "g5" not in ids and "g3" in ids and "g0" in ids and len(ids) == 20
    expect(imp(pg, tmp_path, "two.gcg", HEAD + ">ana: ... 8H HAUS +10 10\n")).to_have_text("GCG gelesen: 1 Einträge")
    ids = pg.evaluate("PAD.store.games.map(g => g.id)")
    assert "g3" not in ids and "g0" in ids and len(ids) == 20
    pg.click("#lang")                               # English
    expect(imp(pg, tmp_path, "three.gcg", HEAD + ">ana: ... 8H HAUS +10 10\n")).to_contain_text(
        "Not imported: 20 games are saved already and none is finished")


def test_a_settlement_of_zeros_and_a_loss_on_time_survive_the_round_trip(page, tmp_path, golden_lexicon):
    pg = page
    expect(imp(pg, tmp_path, "d.gcg", HEAD + "#rules home\n>ana: ... 8H HAUS +10 10\n")).to_contain_text("GCG gelesen")
    open_end(pg)
    pg.locator('#rest-inputs input[data-p="1"]').fill("?")     # Ben holds a blank only: 0 points
    pg.select_option("#out", "0")
    pg.click("#settle")
    expect(pg.locator("#turn")).to_have_text("Die Partie ist abgerechnet.")
    text = round_trip(pg, tmp_path, golden_lexicon)
    assert text.endswith(">Ben: ? (?) -0 0\n>Ana: (?) +0 10\n"), text
    expect(pg.locator("#turn")).to_have_text("Die Partie ist abgerechnet.")
    from engine.game.gcg import read_gcg

    assert read_gcg(text, golden_lexicon).end_reason == "out"

    # nothing left anywhere, nobody went out: a note keeps the end
    expect(imp(pg, tmp_path, "d2.gcg", HEAD + ">ana: ... 8H HAUS +10 10\n")).to_contain_text("GCG gelesen")
    open_end(pg)
    pg.select_option("#out", "")
    pg.wait_for_timeout(450)                        # not a double tap on "Abrechnen"
    pg.click("#settle")
    expect(pg.locator("#turn")).to_have_text("Die Partie ist abgerechnet.")
    text = round_trip(pg, tmp_path, golden_lexicon, "z.gcg")
    assert text.endswith("\n#note end of game\n"), text
    expect(pg.locator("#turn")).to_have_text("Die Partie ist abgerechnet.")

    # Ben 6 minutes over: 60 points and lost on time (SPEC); lost again after the import
    expect(imp(pg, tmp_path, "t.gcg", HEAD + ">ana: ... 8H HAUS +10 10\n>ben: (time) -60 -60\n")).to_contain_text(
        "GCG gelesen")
    assert pg.evaluate("PAD.game.end.lost") == [False, True]
    expect(pg.locator("#standings")).to_contain_text("Ben")
    expect(pg.locator("#standings .bad")).to_have_count(1)
    round_trip(pg, tmp_path, golden_lexicon, "t2.gcg")
    assert pg.evaluate("PAD.game.end.lost") == [False, True]


def test_editing_a_wrong_challenge_row_keeps_it_one(page, tmp_path, golden_lexicon):
    pg = page
    expect(imp(pg, tmp_path, "c.gcg", HEAD + "#rules tournament\n>ana: ... 8H HAUS +10 10\n>ben: (challenge) -10 -10\n")
           ).to_contain_text("GCG gelesen: 2 Einträge")
    expect(pg.locator("#turn")).to_have_text("Am Zug: Ben")
    pg.locator("#rows tr.turn").nth(1).locator("button.edit").click()
    expect(pg.locator("#points")).to_have_value("-10")
    pg.click("#save-points")                        # saved unchanged (main: "Punkte: 0–999")
    expect(pg.locator("#rows tr.turn").nth(1)).to_contain_text("korrigiert")
    assert pg.evaluate("PAD.game.turns[1]")["challenge"] is True
    expect(pg.locator("#turn")).to_have_text("Am Zug: Ben")
    assert totals(pg) == [10, -10]
    text = round_trip(pg, tmp_path, golden_lexicon)
    assert ">Ben: (challenge) -10 -10" in text
    pg.locator("#rows tr.turn").nth(1).locator("button.edit").click()
    expect(pg.locator("#edit-banner")).to_have_text("Zeile 2 ändern: nur Punkte, auch negativ")
    expect(pg.locator("#rows tr.turn").nth(1)).to_contain_text("Anfechtung")
    pg.click("#pass")                               # no turn: refused
    expect(pg.locator("#msg")).to_contain_text("Eine Anfechtungszeile hat nur Punkte")
    assert pg.evaluate("PAD.game.turns[1]")["challenge"] is True
    pg.click("#edit-cancel")
    pg.locator("#rows tr.turn").nth(1).locator("button.edit").click()
    pg.fill("#points", "-1000")
    pg.wait_for_timeout(450)                        # not a double tap
    pg.click("#save-points")
    expect(pg.locator("#msg")).to_contain_text("−999–999")


def test_the_export_keeps_the_rules_and_a_withdrawn_play(page, tmp_path, golden_lexicon, capsys):
    from engine.position.board import Board
    from engine.position.scorer import check_move

    b = Board()
    s1 = check_move(b, "8H HAUS", None)
    code = {ch: i + 1 for i, ch in enumerate(b.alphabet.letters)}
    b.place([(r, c, code[ch], bl) for r, c, ch, bl in s1.tiles])
    s2 = check_move(b, "K8 SEHR", None).score
    gcg = (HEAD + "#rules tournament\n>ana: ... 8H HAUS +10 10\n>ben: (challenge) -10 -10\n"
           f">ben: ... K8 .EHR +{s2} {s2 - 10}\n>ben: ... -- -{s2} -10\n>ana: ... - +0 10\n")
    pg = page
    expect(imp(pg, tmp_path, "w.gcg", gcg)).to_contain_text("GCG gelesen: 5 Einträge")
    expect(pg.locator("#rows tr.turn").nth(2)).to_contain_text("K8 (S)EHR")
    text = round_trip(pg, tmp_path, golden_lexicon)
    assert "#rules tournament" in text
    assert f">Ben: ... K8 .EHR +{s2} {s2 - 10}\n>Ben: ... -- -{s2} -10\n" in text
    f = tmp_path / "cli.gcg"
    f.write_text(text, encoding="utf-8")
    from engine.cli.main import main

    capsys.readouterr()
    assert main(["gcg", str(f), "--lexicon", str(golden_lexicon.path)]) == 0
