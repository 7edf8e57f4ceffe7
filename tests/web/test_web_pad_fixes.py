"""The score pad (Punkteblock) after a fresh-user test: GCG export read by the CLI, a double tap on
"Letzten Zug zurück", impossible remaining tiles refused, the "Ausgespielt" choice, a settlement without
moves, and a language switch while a move is being typed. Headless Chromium at a phone's viewport,
the browser setup of tests/web/test_web_pad.py.

Skipped when Chromium or Playwright is missing, except under CI (``CI`` set).
"""

from __future__ import annotations

from browser_support import require_chromium

require_chromium()

from playwright.sync_api import expect  # noqa: E402
from test_web_pad import ctx, page, server, sq, start_game, type_move  # noqa: E402,F401  (fixtures)


def rows(pg):
    return pg.locator("#rows tr.turn")


def test_export_is_read_by_the_cli_and_a_double_tap_undoes_one_move(page, golden_lexicon, capsys):
    pg = page
    start_game(pg, ["Ana", "Ben"])
    type_move(pg, "H8", False, "HAUS")
    expect(pg.locator("#preview")).to_contain_text("Zugwert: 10 Punkte")
    pg.click("#save")
    pg.click("#pass")
    expect(rows(pg)).to_have_count(2)
    pg.locator("#undo").dblclick()                      # two clicks in a row: one move back, not two
    expect(rows(pg)).to_have_count(1)
    expect(pg.locator("#turn")).to_have_text("Am Zug: Ben")
    pg.wait_for_timeout(450)                            # a deliberate second tap later still works
    pg.click("#pass")
    pg.wait_for_timeout(450)
    pg.click("#undo")
    expect(rows(pg)).to_have_count(1)
    pg.select_option("#exchange-n", "3")
    pg.click("#exchange")                                # Ben exchanges 3 (the tiles are not known)
    pg.click("#export")
    text = pg.locator("#gcg-out").input_value()
    lines = text.splitlines()
    assert "#lexicon golden" in lines                    # the bundle's name, not its source name
    assert ">Ben: ... -3 +0 0" in lines
    # beside golden.lex, `python -m engine gcg FILE` finds the list by that name (no --lexicon)
    f = golden_lexicon.path.parent / "punkteblock.gcg"
    f.write_text(text, encoding="utf-8")
    from engine.cli.main import main

    capsys.readouterr()
    assert main(["gcg", str(f)]) == 0
    out = capsys.readouterr().out
    assert "Ben: exchanges 3 0" in out and "game not finished" in out


def test_end_settlement_refuses_impossible_tiles_and_asks_who_went_out(page):
    pg = page
    start_game(pg, ["Ana", "Ben"])
    pg.locator("#end summary").click()
    ana, ben = (pg.locator(f'#rest-inputs input[data-p="{p}"]') for p in (0, 1))
    expect(pg.locator("#out")).to_have_value("ask")      # both empty: nothing is chosen for the user
    ana.fill("QE")
    expect(pg.locator("#out")).to_have_value("1")        # the one without tiles went out
    ana.fill("")
    expect(pg.locator("#out")).to_have_value("ask")      # not Ben from before (the stale choice)
    pg.click("#settle")
    expect(pg.locator("#end-msg")).to_have_text("Bitte wählen, wer ausgespielt hat (oder „niemand“).")
    pg.select_option("#out", "")                         # "niemand"
    pg.wait_for_timeout(450)                            # (a double tap on "Abrechnen" is one tap)
    pg.click("#settle")                                  # no move yet: asks first
    expect(pg.locator("#end-msg")).to_contain_text("Noch kein Zug eingetragen. Trotzdem abrechnen?")
    expect(pg.locator("#final")).to_be_hidden()
    pg.wait_for_timeout(450)
    pg.click("#settle")
    expect(pg.locator("#final")).to_be_visible()
    pg.click("#unsettle")
    # HAUS on the board: H, A, U, S are no longer in the bag (German set: A 5, Q 1, E 15, 2 blanks)
    type_move(pg, "H8", False, "HAUS")
    pg.click("#save")
    pg.select_option("#out", "")
    cases = [
        ("QQ", "", "Ana: 2 × Q, aber vom Satz (1 × Q) sind nur 1 nicht auf dem Brett"),
        ("EEEEEEEEE", "", "Ana: 9 Reststeine – auf der Bank liegen höchstens 7"),
        ("???", "", "Ana: 3 × Joker, aber vom Satz (2 × Joker) sind nur 2 nicht auf dem Brett"),
        ("AAAAA", "", "Ana: 5 × A, aber vom Satz (5 × A) sind nur 4 nicht auf dem Brett"),
        ("AAA", "AA", "Ben: 2 × A, aber vom Satz (5 × A) sind nur 1 nicht auf dem Brett oder bei den anderen "
                      "Reststeinen"),
    ]
    for a, b, message in cases:
        ana.fill(a)
        ben.fill(b)
        pg.select_option("#out", "")
        pg.wait_for_timeout(450)
        pg.click("#settle")
        expect(pg.locator("#end-msg")).to_have_text(message)
        expect(pg.locator("#final")).to_be_hidden()
    ana.fill("AAA")                                      # possible: 3 of the 4 A left, and Q
    ben.fill("Q?")
    pg.wait_for_timeout(450)
    pg.click("#settle")
    expect(pg.locator("#final")).to_be_visible()
    assert [int(t) for t in pg.locator("#totals .tot .sum").all_inner_texts()] == [10 - 3, -10]


def test_switching_language_keeps_the_typed_move_and_its_preview(page):
    pg = page
    start_game(pg, ["Ana", "Ben"])
    pg.evaluate("window.notReloaded = true")
    type_move(pg, "H8", False, "HAUS")
    expect(pg.locator("#preview")).to_contain_text("Zugwert: 10 Punkte")
    pg.locator("#end summary").click()
    pg.locator('#rest-inputs input[data-p="1"]').fill("QE")
    pg.click("#lang")
    expect(pg.locator("#lang")).to_have_text("Deutsch")
    expect(pg.locator("#preview")).to_contain_text("move scores 10 points")
    expect(pg.locator("#undo")).to_have_text("Undo last move")
    expect(pg.locator("#word")).to_have_value("HAUS")
    expect(pg.locator('#rest-inputs input[data-p="1"]')).to_have_value("QE")
    expect(sq(pg, "K8").locator(".tile.new")).to_have_count(1)
    assert pg.evaluate("window.notReloaded") is True
    pg.click("#save")
    expect(rows(pg)).to_have_count(1)
    pg.click("#lang")
    expect(pg.locator("#turn")).to_have_text("Am Zug: Ben")


def test_phone_brings_the_preview_into_view_names_say_their_limit_and_messages_are_german(page):
    pg = page
    pg.fill("#name1", "Annemarie-Wilhelmine Beispielhaft")   # 33 characters, the field keeps 20
    expect(pg.locator("#name-hint")).to_contain_text("Annemarie-Wilhelmine: 20 von höchstens 20 Zeichen")
    assert len(pg.locator("#name1").input_value()) == 20
    pg.fill("#name1", "Ana")
    expect(pg.locator("#name-hint")).to_have_text("")
    start_game(pg, ["Ana", "Ben"])
    pg.evaluate("window.scrollTo(0, 0)")
    type_move(pg, "H8", False, "HAUS")
    expect(pg.locator("#preview")).to_contain_text("Zugwert: 10 Punkte")
    expect(pg.locator("#save")).to_be_enabled()
    box = pg.evaluate("(() => { const r = document.querySelector('#save').getBoundingClientRect(); "
                      "return [r.top, r.bottom, window.innerHeight]; })()")
    assert 0 <= box[0] and box[1] <= box[2] + 1                # "Zug speichern" on screen at 390×844
    # the server's messages in German: no command-line hint, "1 Zeile" / "2 Zeilen"
    from engine.position.cgp import CGPError
    from engine.web.api import read_position

    msgs = []
    for cgp in ("15 AB/ 0/0 0", "15/15 AB/ 0/0 0", "XX13/15/15/15/15/15/15/15/15/15/15/15/15/15/15 A/ 0/0 0"):
        try:
            read_position(cgp)
        except CGPError as exc:
            msgs.append(str(exc))
    assert msgs[0] == "board has 1 row, expected 15" and msgs[1] == "board has 2 rows, expected 15"
    assert "--allow-impossible" not in msgs[2] and "2 × X" in msgs[2]
    german = pg.evaluate("(m) => m.map((x) => I18N.server(x))", msgs)
    assert german == ["das Brett hat 1 Zeile, nicht 15", "das Brett hat 2 Zeilen, nicht 15",
                      "unmögliche Stellung: 2 × X (2 auf dem Brett, 0 auf dem Bänkchen), der deutsche Satz hat nur 1"]
