"""The score pad's ✎ and GCG import after report-attack26h: an edit never takes away a tile that a later play
lies on and is checked on the board before its row (H2, H2b); an import keeps the exchanged tiles, a challenge
line's rack and several time lines of one player, and its export writes them back (H4); row 0 and a name as long
as a line are refused naming the line (H10, H7); a blank is a "Joker" in German messages (H8).
Headless Chromium at 390×844, the setup of tests/web/test_web_pad.py.

Skipped when Chromium or Playwright is missing, except under CI (``CI`` set).
"""

from __future__ import annotations

from browser_support import require_chromium

require_chromium()

from playwright.sync_api import expect  # noqa: E402
from test_web_pad import PHONE, ctx, page, server, sq, start_game, totals, type_move  # noqa: E402,F401
from test_web_pad_gcg import refused_in_english, refused_like_the_cli, rows  # noqa: E402
from test_web_pad_roundtrip import HEAD, imp, open_end, round_trip  # noqa: E402


def save(pg):
    expect(pg.locator("#preview")).to_contain_text("Zugwert")
    (pg.locator("#save-agreed") if pg.locator("#save-agreed").is_visible() else pg.locator("#save")).click()


def play(pg, start, down, word, n):
    type_move(pg, start, down, word)
    save(pg)
    expect(rows(pg)).to_have_count(n)


def edit(pg, i):
    rows(pg).nth(i).locator("button.edit").click()
    expect(pg.locator("#edit-banner")).to_be_visible()


def test_an_edit_keeps_the_tiles_a_later_play_lies_on(page, tmp_path, golden_lexicon):
    pg = page
    start_game(pg, ["Ana", "Ben"])
    play(pg, "H8", False, "HAUS", 1)
    play(pg, "K8", True, "SEHR", 2)                     # lies on the S of HAUS (K8)
    pg.fill("#points", "5")
    pg.click("#save-points")
    expect(rows(pg)).to_have_count(3)
    refused = "Zug 1 bleibt so: Zug 2 liegt auf seinem Stein auf K8. Erst Zug 2 ändern oder entfernen."
    edit(pg, 0)
    pg.click("#pass")                                   # main: accepted, the S gone ("K8 .EHR" exported)
    expect(pg.locator("#msg")).to_have_text(refused)
    assert pg.evaluate("PAD.game.turns[0].kind") == "play"
    pg.fill("#points", "3")
    pg.click("#save-points")
    expect(pg.locator("#msg")).to_have_text(refused)
    assert pg.evaluate("PAD.game.turns[0].move") == "8H HAUS"
    # the play moved elsewhere (H7 down crosses the star): the preview says why, and it cannot be saved
    pg.fill("#word", "")
    type_move(pg, "H7", True, "HAUS")
    expect(pg.locator("#preview")).to_contain_text(refused)
    expect(pg.locator("#save")).to_be_disabled()
    # the S turned into a blank: the later word would read another tile
    pg.fill("#word", "")
    type_move(pg, "H8", False, "HAUS", ["K8"])
    expect(pg.locator("#preview")).to_contain_text(refused)
    expect(pg.locator("#save")).to_be_disabled()
    # a blank H (not under SEHR) is a correction that keeps every later play
    pg.fill("#word", "")
    type_move(pg, "H8", False, "HAUS", ["H8"])
    save(pg)
    expect(rows(pg).nth(0)).to_contain_text("korrigiert")
    assert pg.evaluate("PAD.game.turns[0].move") == "8H hAUS"
    assert pg.evaluate("PAD.game.turns[1].move") == "K8 (S)EHR"
    text = round_trip(pg, tmp_path, golden_lexicon)
    assert ">Ben: ... K8 .EHR +" in text
    # English
    edit(pg, 0)
    pg.click("#lang")
    pg.click("#pass")
    expect(pg.locator("#msg")).to_have_text("Move 1 stays as it is: move 2 lies on its tile on K8. "
                                            "Change or remove move 2 first.")
    pg.click("#lang")


def test_an_edit_is_checked_on_the_board_before_its_row(page, tmp_path, golden_lexicon):
    pg = page
    start_game(pg, ["Ana", "Ben"])
    play(pg, "H8", False, "HAUS", 1)
    pg.click("#pass")
    expect(rows(pg)).to_have_count(2)
    play(pg, "K8", True, "SEHR", 3)                     # R on K11
    pg.wait_for_timeout(450)                            # not a double tap on "Passen"
    pg.click("#pass")
    expect(rows(pg)).to_have_count(4)
    edit(pg, 1)
    type_move(pg, "J11", False, "ER")                   # main: legal, its R is move 3's tile
    expect(pg.locator("#preview")).to_contain_text("ungültig")
    expect(pg.locator("#save")).to_be_disabled()
    # on the board before move 2, SEHR down from K8 is legal, but move 3 lays those tiles later
    pg.fill("#word", "")
    type_move(pg, "K8", True, "SEHR")
    expect(pg.locator("#preview")).to_contain_text("Zug 2 geht so nicht: auf K9 legt Zug 3 später einen Stein.")
    expect(pg.locator("#save")).to_be_disabled()
    pg.keyboard.press("Enter")
    assert pg.evaluate("PAD.game.turns[1].kind") == "pass"
    # a play of its own on the board before it is a correction
    pg.fill("#word", "")
    type_move(pg, "I8", True, "AUS")                    # AUS down from the A of HAUS
    save(pg)
    expect(rows(pg).nth(1)).to_contain_text("korrigiert")
    assert pg.evaluate("PAD.game.turns[1].move") == "I8 (A)US"
    round_trip(pg, tmp_path, golden_lexicon)


def test_an_import_keeps_exchanged_tiles_a_challenge_rack_and_every_time_line(page, tmp_path, golden_lexicon):
    from engine.game.gcg import read_gcg
    from engine.position.board import Board
    from engine.position.scorer import check_move

    b = Board()
    code = {ch: i + 1 for i, ch in enumerate(b.alphabet.letters)}
    b.place([(r, c, code[ch], bl) for r, c, ch, bl in check_move(b, "8H HAUS", None).tiles])
    s3 = check_move(b, "K8 SEHR", None).score
    gcg = (HEAD + "#rules tournament\n>ana: ... 8H HAUS +10 10\n>ben: EEINRST -EEI +0 0\n>ana: ... - +0 10\n"
           f">ben: AEKNRST -AE +0 0\n>ana: ... K8 .EHR +{s3} {10 + s3}\n>ben: EKNRSTU (challenge) -10 -10\n"
           ">ben: (time) -10 -20\n>ben: (time) -20 -40\n")
    read_gcg(gcg, golden_lexicon)
    pg = page
    expect(imp(pg, tmp_path, "x.gcg", gcg)).to_have_text("GCG gelesen: 8 Einträge")
    expect(rows(pg).nth(1)).to_contain_text("tauscht 3 (EEI)")
    assert pg.evaluate("PAD.game.turns[1].swapped") == "EEI"
    assert pg.evaluate("PAD.game.turns[5].rack") == "EKNRSTU"
    assert totals(pg) == [10 + s3, -40]                      # main: −30 (the last time line only)
    assert pg.evaluate("PAD.game.end.time") == [0, 30]
    assert pg.evaluate("PAD.game.end.lost") == [False, False]     # no line over 50 (the CLI's rule: per line)
    text = round_trip(pg, tmp_path, golden_lexicon)
    for line in (">Ben: EEINRST -EEI +0 0", ">Ben: AEKNRST -AE +0 0", ">Ben: EKNRSTU (challenge) -10 -10",
                 ">Ben: (time) -10 -20\n>Ben: (time) -20 -40\n"):
        assert line in text, text
    assert pg.evaluate("PAD.game.turns[5].rack") == "EKNRSTU"
    assert pg.evaluate("PAD.game.end.timeParts") == [[], [10, 20]]
    # tiles named that the rack lacks: the CLI refuses them, so does the export
    pg.evaluate("() => { PAD.game.turns[1].swapped = 'EEQ'; }")
    assert pg.evaluate("PAD.gcgText()") == {"error": "GCG: Zug 2: Bank EEINRST: kein Q für diesen Zug"}


def test_row_0_and_a_name_as_long_as_a_line_are_refused_naming_the_line(page, tmp_path):
    pg = page
    start_game(pg, ["Ida", "Jo"])
    for st in ("0H", "H0", "00H"):                      # main: "Cannot read properties of undefined (reading '7')"
        refused_like_the_cli(pg, tmp_path / "r.gcg", HEAD + f">ana: ... {st} HAUS +10 10\n", 6,
                             f"Zeile 6: {st} ist kein Feld des Bretts")
    refused_in_english(pg, tmp_path / "r.gcg", HEAD + ">ana: ... 0H HAUS +10 10\n",
                       "GCG not read: line 6: 0H is not a square of the board")
    long = "Wolfgang-Amadeus-Mozart-von-Salzburg"         # 36 characters, no space
    f = tmp_path / "n.gcg"
    f.write_text(f"#player1 a {long}\n#player2 b Ben\n>a: ... 8H HAUS +10 10\n", encoding="utf-8")
    pg.set_input_files("#import-file", str(f))
    expect(pg.locator("#io-msg")).to_have_text(
        "GCG nicht gelesen: Zeile 1: #player1: der Name „Wolfgang-Amadeus-Moz…“ ist länger als 30 Zeichen")
    expect(pg.locator("#games li")).to_have_count(1)
    f.write_text(f"#player1 a Ana\n#player2 {long}\n>a: ... 8H HAUS +10 10\n", encoding="utf-8")
    pg.set_input_files("#import-file", str(f))        # a nickname alone is the name
    expect(pg.locator("#io-msg")).to_contain_text("Zeile 2: #player2: der Name „Wolfgang-Amadeus-Moz…“")
    # 30 characters without a space: read, and the page stays 390 px wide (main: 882 px with longer ones)
    names = ("W" * 30, "B" * 30)
    f.write_text(f"#player1 a {names[0]}\n#player2 b {names[1]}\n>a: ... 8H HAUS +10 10\n>b: ... - +0 0\n"
                 ">a: ... (time) -10 0\n", encoding="utf-8")
    pg.set_input_files("#import-file", str(f))
    expect(pg.locator("#io-msg")).to_have_text("GCG gelesen: 3 Einträge")
    assert pg.evaluate("PAD.game.players") == list(names)
    assert pg.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    open_end(pg)
    pg.click("#unsettle")
    expect(pg.locator("#entry")).to_be_visible()
    assert pg.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_blank_is_a_joker_in_german(page):
    pg = page
    start_game(pg, ["Ana", "Ben"])
    type_move(pg, "H8", False, "HAUS", ["H8", "I8", "J8", "K8"])
    expect(pg.locator("#preview")).to_have_text("✗ ungültig: der Zug braucht 4 × Joker, der Satz hat 2")
    # a "." or a square off the board (✎ after an import) is German too
    assert pg.evaluate("I18N.server(\"HA.S: '.' is not a letter of the German tile set\")") \
        == "HA.S: „.“ ist kein Stein des deutschen Satzes"
    assert pg.evaluate("I18N.server(\"square 'Q9' is not on the board (rows 1-15, columns A-O; 8H across, H8 down)\")") \
        == "das Feld „Q9“ gibt es nicht (Zeilen 1–15, Spalten A–O; 8H waagerecht, H8 senkrecht)"
    pg.click("#lang")
    expect(pg.locator("#preview")).to_have_text("✗ illegal: the move needs 4 × blank, but the set has 2")


def test_a_play_a_later_play_hooks_onto_is_neither_removed_nor_changed(page, tmp_path, golden_lexicon):
    # report-attack26j J1: × turned HAUS into a pass although ER (down from L8) hooks onto its S (HAUSE): ER was
    # left hanging on the board and the export held a play the CLI refuses
    pg = page
    start_game(pg, ["Ana", "Ben"])
    play(pg, "H8", False, "HAUS", 1)
    play(pg, "L8", True, "ER", 2)                       # E on L8 makes HAUSE across; no tile of HAUS in ER
    pg.fill("#points", "5")
    pg.click("#save-points")
    expect(rows(pg)).to_have_count(3)
    btn = rows(pg).nth(0).locator("button.remove")
    btn.click()
    pg.wait_for_timeout(350)
    btn.click()
    expect(pg.locator("#msg")).to_have_text(
        "Zug 1 bleibt: Zug 2 liegt auf seinen Steinen oder legt an sie an. Erst Zug 2 ändern oder entfernen.")
    assert pg.evaluate("PAD.game.turns.map(t => t.move || t.kind)") == ["8H HAUS", "L8 ER", "points"]
    edit(pg, 0)
    pg.click("#pass")                                   # main: accepted, ER left hanging
    expect(pg.locator("#msg")).to_have_text(
        "Zug 1 bleibt so: Zug 2 legt an seinen Stein auf K8 an. Erst Zug 2 ändern oder entfernen.")
    assert pg.evaluate("PAD.game.turns[0].move") == "8H HAUS"
    pg.click("#lang")
    pg.wait_for_timeout(450)                            # not a double tap on "Passen"
    pg.click("#pass")
    expect(pg.locator("#msg")).to_have_text(
        "Move 1 stays as it is: move 2 hooks onto its tile on K8. Change or remove move 2 first.")
    pg.click("#lang")
    assert pg.evaluate("PAD.game.turns.map(t => t.move || t.kind)") == ["8H HAUS", "L8 ER", "points"]
