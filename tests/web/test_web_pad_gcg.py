"""The score pad (Punkteblock) with racks typed and a row of points by hand, exported as GCG (issue 26
item 7, issue 25): headless Chromium at a phone's viewport (390×844), the browser setup of
tests/web/test_web_pad.py. The GCG text is checked line by line, read back by engine.game.gcg and by
``python -m engine gcg`` (which names the row it could not re-score), imported again; and the review of
a pad export with racks marks a worse move with the loss worked out independently.

Screenshots go to ``$GSE_SHOTS`` when set. Skipped when Chromium or Playwright is missing, except under
CI (``CI`` set).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from browser_support import require_chromium

require_chromium()

from playwright.sync_api import expect  # noqa: E402
from test_web_pad import PHONE, ctx, page, server, start_game, totals, type_move  # noqa: E402,F401  (fixtures)


def rows(pg):
    return pg.locator("#rows tr.turn")


def shot(pg, name):
    shots = os.environ.get("GSE_SHOTS")
    if shots:
        pg.screenshot(path=str(Path(shots) / name), full_page=True)


def test_racks_and_a_row_by_hand_are_exported_on_a_phone(page, golden_lexicon, tmp_path, capsys):
    pg = page
    start_game(pg, ["Ana", "Ben"])
    expect(pg.locator("label[for=rack]")).to_have_text("Bank (optional)")
    # Ana: rack AHSUERT, HAUS over the star: (2 + 1 + 1 + 1) × 2 = 10
    pg.fill("#rack", "ahsuert")
    type_move(pg, "H8", False, "HAUS")
    expect(pg.locator("#preview")).to_contain_text("Zugwert: 10 Punkte")
    expect(pg.locator("#rack-msg")).to_have_text("")
    pg.click("#save")
    expect(rows(pg).nth(0)).to_contain_text("Bank AHSUERT")
    expect(pg.locator("#rack")).to_have_value("")                       # the next player's rack is another
    # Ben: 12 points typed by hand, rack not known
    pg.fill("#points", "12")
    pg.click("#save-points")
    expect(rows(pg).nth(1)).to_contain_text("von Hand")
    # Ana: SEHR down from the S to the double word on K11: (1 + 1 + 2 + 1) × 2 = 10; three racks refused first
    type_move(pg, "K8", True, "SEHR")
    expect(pg.locator("#preview")).to_contain_text("Zugwert: 10 Punkte")
    pg.fill("#rack", "QQEHRTN")                                          # the set has one Q
    expect(pg.locator("#rack-msg")).to_have_text(
        "Bank: 2 × Q, aber vom Satz (1 × Q) sind nur 1 nicht auf dem Brett")
    expect(pg.locator("#save")).to_be_disabled()
    pg.fill("#rack", "EHTTNNO")                                          # no R for SEHR
    expect(pg.locator("#rack-msg")).to_have_text("Bank EHTTNNO: kein R für diesen Zug")
    expect(pg.locator("#save")).to_be_disabled()
    pg.fill("#rack", "AHRENNO")                                          # HAUS left her E R T: the T is missing
    expect(pg.locator("#rack-msg")).to_have_text(
        "Bank: Ana hat nach Zug 1 ERT behalten – diese Steine müssen auf der Bank sein")
    expect(pg.locator("#save")).to_be_disabled()
    pg.fill("#rack", "EHR-NNO")
    expect(pg.locator("#rack-msg")).to_have_text("Bank: „-“ ist kein Stein (Buchstaben, ? für einen Joker)")
    pg.fill("#rack", "EHRTNNO")
    expect(pg.locator("#rack-msg")).to_have_text("")
    expect(pg.locator("#save")).to_be_enabled()
    assert pg.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(pg, "pad-rack-390.png")
    pg.click("#save")
    # Ben: rack EEILNRS, exchanges all seven (the tiles are known: the whole rack)
    pg.fill("#rack", "EEILNR")
    pg.click("#exchange")                                                # 7 tiles from a rack of 6: refused
    expect(pg.locator("#rack-msg")).to_have_text("Bank: 7 Steine getauscht, auf der Bank liegen aber nur 6")
    expect(rows(pg)).to_have_count(3)
    pg.fill("#rack", "EEILNRS")
    pg.wait_for_timeout(450)                                             # one step per deliberate tap
    pg.click("#exchange")
    expect(rows(pg)).to_have_count(4)
    # Ana: passes with NNOTAAB (she kept N N O T)
    pg.fill("#rack", "NNOTAAB")
    pg.click("#pass")
    expect(rows(pg)).to_have_count(5)
    assert totals(pg) == [20, 12]
    # English: the same field
    pg.click("#lang")
    expect(pg.locator("label[for=rack]")).to_have_text("Rack (optional)")
    expect(rows(pg).nth(0)).to_contain_text("rack AHSUERT")
    pg.click("#lang")

    pg.click("#export")
    expect(pg.locator("#io-msg")).to_have_text("GCG-Datei erstellt")
    text = pg.locator("#gcg-out").input_value()
    lines = text.splitlines()
    head = lines[:lines.index("#rules home") + 1]
    assert head == ["#character-encoding UTF-8", "#player1 Ana Ana", "#player2 Ben Ben", "#lexicon golden",
                    "#tile-distribution german", "#rules home"]
    assert lines[len(head):] == [
        ">Ana: AHSUERT 8H HAUS +10 10",
        "#note by hand: >Ben: ... +12 12",
        ">Ana: EHRTNNO K8 .EHR +10 20",
        ">Ben: EEILNRS -EEILNRS +0 12",
        ">Ana: NNOTAAB - +0 20",
    ]
    from engine.game.gcg import read_gcg

    rec = read_gcg(text, golden_lexicon)
    assert [t.kind for t in rec.turns] == ["play", "hand", "play", "exchange", "pass"]
    assert rec.scores == [20, 12] and rec.moves[3].exchanged == "EEILNRS"
    f = tmp_path / "pad.gcg"
    f.write_text(text, encoding="utf-8")
    from engine.cli.main import main

    capsys.readouterr()
    assert main(["gcg", str(f), "--lexicon", str(golden_lexicon.path)]) == 0
    out = capsys.readouterr().out
    assert f"not re-scored (points by hand, no placement): line {len(head) + 2} (Ben +12)" in out
    # imported again: the racks and the row by hand come back
    pg.set_input_files("#import-file", str(f))
    expect(pg.locator("#io-msg")).to_contain_text("GCG gelesen: 5 Einträge")
    expect(rows(pg)).to_have_count(5)
    expect(rows(pg).nth(1)).to_contain_text("von Hand")
    expect(rows(pg).nth(2)).to_contain_text("Bank EHRTNNO")
    assert totals(pg) == [20, 12]
    pg.click("#export")
    assert pg.locator("#gcg-out").input_value() == text
    # a rack made impossible afterwards (here by hand in the stored game) is named at the export, not written
    pg.evaluate("PAD.game.turns[2].rack = 'AHRENNO'")
    assert pg.evaluate("PAD.gcgText()") == {
        "error": "GCG: Zug 3: Bank: Ana hat nach Zug 1 ERT behalten – diese Steine müssen auf der Bank sein"}


def test_a_game_ended_by_passes_needs_the_racks_of_the_last_passes_as_remaining_tiles(page, golden_lexicon):
    pg = page
    start_game(pg, ["Ana", "Ben"])
    for rack in ("ABC", "DEF", "ABC", "DEF"):                  # both pass twice in a row, racks typed
        pg.fill("#rack", rack)
        pg.wait_for_timeout(450)
        pg.click("#pass")
    expect(rows(pg)).to_have_count(4)
    pg.locator("#end summary").click()
    pg.locator('#rest-inputs input[data-p="0"]').fill("ABC")
    pg.locator('#rest-inputs input[data-p="1"]').fill("DEX")   # not Ben's last rack
    pg.select_option("#out", "")
    pg.click("#settle")
    pg.click("#export")
    expect(pg.locator("#io-msg")).to_have_text(
        "GCG: die Reststeine von Ben (DEX) sind nicht die Bank DEF, mit der Ben in Zug 4 gepasst hat")
    pg.click("#unsettle")
    pg.locator('#rest-inputs input[data-p="1"]').fill("FED")
    pg.select_option("#out", "")
    pg.wait_for_timeout(450)
    pg.click("#settle")
    pg.click("#export")
    expect(pg.locator("#io-msg")).to_have_text("GCG-Datei erstellt")
    from engine.game.gcg import read_gcg

    rec = read_gcg(pg.locator("#gcg-out").input_value(), golden_lexicon)
    # A 1 + B 3 + C 4 = 8 and D 1 + E 1 + F 4 = 6, each lost by its owner
    assert rec.end_reason == "passes" and rec.scores == [-8, -6]


def test_the_page_with_a_rack_at_360_and_1366(browser, server):
    for width, height in ((360, 740), (1366, 768)):
        c = browser.new_context(viewport={"width": width, "height": height}, has_touch=width < 800,
                                is_mobile=width < 800, device_scale_factor=1)
        pg = c.new_page()
        pg.goto(server + "/punkte")
        expect(pg.locator("#setup")).to_be_visible()   # the page has started (under load: start_game clicked a hidden "Neue Partie")
        start_game(pg, ["Ana", "Ben"])
        pg.fill("#rack", "QQ")
        expect(pg.locator("#rack-msg")).to_contain_text("1 nicht auf dem Brett")
        assert pg.evaluate("document.documentElement.scrollWidth") <= width
        box = pg.locator("#rack").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width and box["height"] >= 32
        # the placeholder is not cut: the field is as wide as its text
        assert pg.evaluate("(() => { const e = document.getElementById('rack'); e.value = '';"
                           " return e.scrollWidth <= e.clientWidth; })()")
        pg.fill("#rack", "")
        shot(pg, f"pad-rack-{width}.png")
        c.close()


def _pad_game(rec) -> dict:
    """The score pad's stored game (localStorage) of a record: rows as the pad keeps them, racks included."""
    from engine.game.game import Kind, rack_value

    turns = []
    for t in rec.moves:
        row = {"p": t.player, "rack": t.rack, "score": t.score}
        if t.kind == Kind.PLAY:
            row.update(kind="play", move=t.move.notation, tiles=[[r, c, ch, bool(b)] for r, c, ch, b in t.move.tiles],
                       words=[], bingo=t.move.tiles_played == 7, agreed=False, unknown=[])
        elif t.kind == Kind.EXCHANGE:
            row.update(kind="exchange", n=t.exchange_count)
        else:
            assert t.kind == Kind.PASS
            row.update(kind="pass")
        turns.append(row)
    rest = [{"text": r, "value": rack_value(r)} for r in rec.final_racks]
    out = next(p for p, r in enumerate(rec.final_racks) if not r) if rec.end_reason == "out" else None
    return {"id": "review-1", "created": 1, "updated": 1, "mode": "classic", "players": ["ana", "ben"],
            "turns": turns, "clock": {"mode": "off", "limit": 0, "amount": None, "used": [0, 0], "running": False,
                                      "slot": 0, "since": None, "beeped": [False, False]},
            "end": {"rest": rest, "out": out, "time": [0, 0], "lost": [False, False]}}


def test_the_review_of_a_pad_export_with_racks_marks_the_worse_move(page, golden_lexicon):
    """A self-play game with one worse move (tests/review_support.py) kept on the pad with its racks: the pad's
    export reviewed marks exactly that turn, with the loss worked out independently (best_equity's best minus
    the played move's score plus the leave term of its leave)."""
    from review_support import BAD_TURN, _game_with_a_worse_move

    from engine.analysis.review import review
    from engine.game.gcg import read_gcg

    text, (played, loss, best) = _game_with_a_worse_move(golden_lexicon)
    rec = read_gcg(text, golden_lexicon)
    pg = page
    pg.evaluate("g => localStorage.setItem('gse.punkte.v1', JSON.stringify({current: g.id, games: [g]}))",
                _pad_game(rec))
    pg.reload()
    expect(rows(pg)).to_have_count(len(rec.moves))
    assert totals(pg) == rec.scores
    pad = pg.evaluate("PAD.gcgText()")
    assert "error" not in pad, pad
    mine = read_gcg(pad["text"], golden_lexicon)
    assert [t.rack for t in mine.moves] == [t.rack for t in rec.moves]
    assert mine.scores == rec.scores and mine.end_reason == rec.end_reason
    rv = review(mine, golden_lexicon, endgame=False)
    bagged = [t for t in rv.turns if t.bag > 0 and t.loss is not None]
    assert len(bagged) > BAD_TURN + 3
    assert [t.turn for t in bagged if t.mark] == [BAD_TURN]
    t = rv.turns[BAD_TURN]
    assert t.played == played and t.best == best and t.loss == pytest.approx(loss, abs=1e-3)
    # exchanges of only some tiles: the pad keeps their number, so those turns (if any) say so, nothing else
    assert {x.note for x in rv.turns if x.loss is None} <= {"exchanged tiles unknown"}
    json.dumps(rv.to_json())


# report-attack26b N3: a "#note by hand:" line is imported exactly or the whole file is refused, naming the line.
# Line 4 and line 6 are Ben's rows by hand; totals worked out by hand: Ana 10, 20; Ben 12, 12 + 7 = 19.
HAND_FILE = """#player1 Ana Ana
#player2 Ben Ben
>Ana: ... 8H HAUS +10 10
#note by hand: >Ben: ... +12 12
>Ana: ... K8 .EHR +10 20
#note by hand: >Ben: ... +7 19
"""
BAD_HAND_ROWS = [
    (("+12 12", "-5 -5"), "Zeile 4: Punkte von Hand -5: erlaubt sind ganze Zahlen von 0 bis 9999"),
    (("+12 12", "+99999999999999999999999 99999999999999999999999"),
     "Zeile 4: Punkte von Hand +99999999999999999999999: erlaubt sind ganze Zahlen von 0 bis 9999"),
    (("+12 12", "+10000 10000"), "Zeile 4: Punkte von Hand +10000: erlaubt sind ganze Zahlen von 0 bis 9999"),
    (("+12 12", "+12 13"), "Zeile 4: Summe 13 für Ben stimmt nicht: 0 + 12 = 12"),
    (("+7 19", "+7 20"), "Zeile 6: Summe 20 für Ben stimmt nicht: 12 + 7 = 19"),     # the total of line 4 counts
    ((">Ben: ... +12", ">Cal: ... +12"), "Zeile 4: Spieler „Cal“ ist nicht mit #player1 … #player4 angemeldet"),
    (("+12 12", "+12"), "Zeile 4: Punkte von Hand nicht lesbar: „#note by hand: >Ben: ... +12“ – erwartet "
                        "„#note by hand: >Kürzel: BANK +PUNKTE SUMME“ (BANK ... wenn unbekannt)"),
    (("+12 12", "+12 12 Zusatz"), "Zeile 4: Punkte von Hand nicht lesbar: „#note by hand: >Ben: ... +12 12 Zusatz“"),
    (("+12 12", "+\u0661\u0662 \u0661\u0662"), "Zeile 4: Punkte von Hand nicht lesbar"),   # Arabic-Indic digits
    (("... +12 12", "QQ +12 12"), "Zeile 4: Bank QQ: 2 × Q, aber nur 1 nicht auf dem Brett"),
    (("... +12 12", "Aß +12 12"), "Zeile 4: Bank: „ß“ ist kein Stein (Buchstaben, ? für einen Joker)"),
    (("... +12 12", "ABCDEFGH +12 12"), "Zeile 4: Bank: 8 Steine – auf der Bank liegen höchstens 7"),
    # report-attack26c A4: pragmas are read case-sensitively, as engine/game/gcg.py does: "#NOTE BY HAND:" is no
    # row by hand and, after the first move, no note either (the pad dropped it without a word)
    (("#note by hand: >Ben: ... +12 12", "#NOTE BY HAND: >Ben: ... +12 12"),
     "Zeile 4: #NOTE nach dem ersten Zug – dort sind nur Notizen (#note …) erlaubt"),
    (("#note by hand: >Ben: ... +7 19", "#Note by hand: >Ben: ... +7 19"), "Zeile 6: #Note nach dem ersten Zug"),
    (("#player2 Ben Ben", "#player3 Ben Ben"), "Zeile 2: #player3 außer der Reihe (erwartet #player2)"),
    (("#player2 Ben Ben", "#player2 Ana Ben"), "Zeile 2: das Kürzel „Ana“ steht zweimal da"),
    # report-attack26c A2: no control or invisible character in a name, no nickname starting a GCG line
    (("#player2 Ben Ben", "#player2 Ben Ben\u202e"), "Zeile 2: #player2 enthält das Steuer- oder unsichtbare Zeichen "
                                                     "U+202E"),
    (("#player2 Ben Ben", "#player2 Ben B\u200bn"), "Zeile 2: #player2 enthält das Steuer- oder unsichtbare Zeichen "
                                                    "U+200B"),
    (("#player2 Ben Ben", "#player2 >Ben Ben"), "Zeile 2: #player2: das Kürzel „>Ben“ beginnt mit # oder >"),
]


def test_a_name_with_an_invisible_character_is_refused_and_never_exported(page, tmp_path):
    """report-attack26c A2: a name pasted with a right-to-left override or a zero-width space is refused at the
    start; a game kept from before (in localStorage) exports its names without them."""
    from engine.game.gcg import read_gcg

    pg = page
    if not pg.locator("#setup").is_visible():
        pg.click("#new")
    pg.check("input[name=mode][value=classic]")
    for k, name in enumerate(["Ana\u202e", "Ben", "", ""], 1):
        pg.fill(f"#name{k}", name)
    pg.click("#start")
    expect(pg.locator("#setup-msg")).to_have_text("ein Name enthält das unsichtbare oder Steuerzeichen U+202E: bitte "
                                                  "den Namen ohne dieses Zeichen eintippen")
    expect(pg.locator("#game")).to_be_hidden()
    start_game(pg, ["Ana", "Ben"])
    pg.evaluate("""() => { const s = JSON.parse(localStorage.getItem('gse.punkte.v1'));
                           s.games[0].players = ['A\\u200bna\\u202e', 'B\\u0000en'];
                           localStorage.setItem('gse.punkte.v1', JSON.stringify(s)); }""")
    pg.reload()
    pg.click("#export")
    text = pg.locator("#gcg-out").input_value()
    assert text.startswith("#character-encoding UTF-8\n#player1 Ana Ana\n#player2 Ben Ben\n"), text
    assert not any(ch in text for ch in "\u200b\u0000\u202e")
    read_gcg(text, None)  # the CLI reads it


def refused_like_the_cli(pg, path: Path, text: str, line, message: str) -> None:
    """``text`` is refused by the CLI's reader at ``line`` and by the pad's import with ``message`` (German), in
    red; nothing replaced: the page still lists one game."""
    from engine.game.gcg import GCGError, read_gcg

    with pytest.raises(GCGError, match=f"^line {line}: "):
        read_gcg(text, None)
    path.write_text(text, encoding="utf-8")
    pg.set_input_files("#import-file", str(path))
    expect(pg.locator("#io-msg")).to_contain_text("GCG nicht gelesen: " + message)
    expect(pg.locator("#io-msg")).to_have_class("bad")
    expect(pg.locator("#games li")).to_have_count(1)


def refused_in_english(pg, path: Path, text: str, message: str) -> None:
    """On the English page, the import of ``text`` is refused with ``message``; the page is German again after."""
    pg.click("#lang")
    path.write_text(text, encoding="utf-8")
    pg.set_input_files("#import-file", str(path))
    expect(pg.locator("#io-msg")).to_have_text(message)
    pg.click("#lang")


def test_a_row_by_hand_is_imported_exactly_or_the_file_is_refused(page, tmp_path):
    from engine.game.gcg import read_gcg

    pg = page
    start_game(pg, ["Ida", "Jo"])
    pg.fill("#points", "7")
    pg.click("#save-points")
    for k, (change, message) in enumerate(BAD_HAND_ROWS):
        text = HAND_FILE.replace(*change, 1)
        assert text != HAND_FILE
        refused_like_the_cli(pg, tmp_path / f"bad{k}.gcg", text, message.split(":")[0].split()[1], message)
        expect(rows(pg)).to_have_count(1)
        assert totals(pg) == [7, 0]
        if k in (3, 6):                                                # the longest and a short message
            pg.locator("#io-msg").scroll_into_view_if_needed()
            shot(pg, f"pad-import-refused-{k}.png")
    # English page: the same refusal in English
    refused_in_english(pg, tmp_path / "bad-en.gcg", HAND_FILE.replace("+12 12", "+12 13"),
                       "GCG not read: line 4: total 13 for Ben does not match: 0 + 12 = 12")
    # the good file: both rows by hand come in, with the file's totals
    assert read_gcg(HAND_FILE, None).scores == [20, 19]
    f = tmp_path / "good.gcg"
    f.write_text(HAND_FILE.replace("... +7 19", "EEILNRS +7 19"), encoding="utf-8")
    pg.set_input_files("#import-file", str(f))
    expect(pg.locator("#io-msg")).to_have_text("GCG gelesen: 4 Einträge")
    expect(pg.locator("#games li")).to_have_count(2)
    expect(rows(pg)).to_have_count(4)
    expect(rows(pg).nth(3)).to_contain_text("von Hand")
    expect(rows(pg).nth(3)).to_contain_text("Bank EEILNRS")
    assert totals(pg) == [20, 19]


def test_a_wrong_challenge_goes_out_as_it_came_in(page, tmp_path):
    """A "(challenge) -5" line (a wrong challenge's penalty) was imported as a row by hand and exported as
    "#note by hand: ... +-5", which neither the pad nor the CLI reads back (report-fix26pad2). It goes out as the
    same "(challenge) -5" line, which both read."""
    from engine.game.gcg import read_gcg

    text = ("#character-encoding UTF-8\n#player1 Ida Ida\n#player2 Jo Jo\n#rules home\n"
            ">Ida: ... 8H HAUS +10 10\n>Jo: (challenge) -5 -5\n>Jo: ... - +0 -5\n")
    assert read_gcg(text, None).scores == [10, -5]   # the CLI reads the file
    pg = page
    f = tmp_path / "challenge.gcg"
    f.write_text(text, encoding="utf-8")
    pg.set_input_files("#import-file", str(f))
    expect(pg.locator("#io-msg")).to_have_text("GCG gelesen: 3 Einträge")
    assert totals(pg) == [10, -5]
    out = pg.evaluate("PAD.gcgText()")["text"]
    assert ">Jo: (challenge) -5 -5" in out and "+-" not in out, out
    assert read_gcg(out, None).scores == [10, -5]    # and the CLI reads what the pad wrote
    f2 = tmp_path / "again.gcg"
    f2.write_text(out, encoding="utf-8")
    pg.set_input_files("#import-file", str(f2))
    expect(pg.locator("#io-msg")).to_have_text("GCG gelesen: 3 Einträge")
    assert totals(pg) == [10, -5]


def test_after_a_wrong_challenge_it_is_still_the_challengers_turn(page, tmp_path):
    """report-attack26e E3: a file ending in the challenger's penalty ("(challenge) -5") made the pad give the
    next turn to the player whose play was challenged; the pad's own export then failed its own import."""
    from engine.game.gcg import read_gcg

    text = ("#character-encoding UTF-8\n#player1 Ida Ida\n#player2 Jo Jo\n#rules home\n"
            ">Ida: ... 8H HAUS +10 10\n>Jo: (challenge) -5 -5\n")
    assert read_gcg(text, None).scores == [10, -5]
    pg = page
    f = tmp_path / "challenge-last.gcg"
    f.write_text(text, encoding="utf-8")
    pg.set_input_files("#import-file", str(f))
    expect(pg.locator("#io-msg")).to_have_text("GCG gelesen: 2 Einträge")
    assert pg.evaluate("PAD.nextPlayer()") == 1        # Jo, who challenged, still has the turn
    pg.fill("#points", "7")
    pg.click("#save-points")                            # Jo's row by hand
    assert totals(pg) == [10, 2]
    out = pg.evaluate("PAD.gcgText()")["text"]
    assert out.endswith(">Jo: (challenge) -5 -5\n#note by hand: >Jo: ... +7 2\n"), out
    f2 = tmp_path / "again.gcg"
    f2.write_text(out, encoding="utf-8")
    pg.set_input_files("#import-file", str(f2))
    expect(pg.locator("#io-msg")).to_have_text("GCG gelesen: 3 Einträge")
    assert totals(pg) == [10, 2]
