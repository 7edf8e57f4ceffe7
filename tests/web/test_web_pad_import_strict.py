"""The score pad's GCG import reads what ``engine/game/gcg.py`` reads (report-attack26d B7, the rest): a file
that is not UTF-8 (unless its first line declares ISO-8859-1), a turn after the game's end, and a letter in
brackets on an empty square (or a letter on a square that holds another) are refused naming the line, where the
CLI refuses them too. report-attack26l: racks against the tiles played, exchanged and kept (lowercase racks read
as uppercase, lowercase in a word a blank), tiles the set no longer has, the ``#rules`` and their challenge
penalty, and lines ending in a CR alone. Headless Chromium at a phone's viewport, the setup of tests/web/test_web_pad.py.
Skipped when Chromium or Playwright is missing, except under CI (``CI`` set).
"""

from __future__ import annotations

import pytest
from browser_support import require_chromium

require_chromium()

from playwright.sync_api import expect  # noqa: E402
from test_web_pad import PHONE, ctx, page, server, start_game, totals  # noqa: E402,F401  (fixtures)
from test_web_pad_gcg import refused_in_english, refused_like_the_cli, rows  # noqa: E402
from test_web_pad_roundtrip import imp, round_trip  # noqa: E402

HEAD = "#player1 Ana Ana\n#player2 Ben Ben\n"
AB = "#player1 a Ana\n#player2 b Bob\n"


def test_a_file_that_is_not_utf8_is_refused_unless_it_says_latin1(page, tmp_path):
    from engine.game.gcg import GCGError, read_gcg_file

    pg = page
    start_game(pg, ["Ida", "Jo"])
    latin = ("#player1 J\u00f6rg J\u00f6rg\n#player2 Ben Ben\n>J\u00f6rg: ... 8H HAUS +10 10\n").encode("latin-1")
    f = tmp_path / "latin.gcg"
    f.write_bytes(latin)
    with pytest.raises(GCGError, match="^.*line 1: not valid utf-8"):
        read_gcg_file(f, None)
    pg.set_input_files("#import-file", str(f))
    expect(pg.locator("#io-msg")).to_contain_text("GCG nicht gelesen: Zeile 1: kein gültiges UTF-8")
    expect(pg.locator("#games li")).to_have_count(1)
    # declared: read as the CLI reads it, the name with its umlaut (before: U+FFFD)
    f.write_bytes(b"#character-encoding ISO-8859-1\n" + latin)
    assert read_gcg_file(f, None).players[0] == "J\u00f6rg"
    pg.set_input_files("#import-file", str(f))
    expect(pg.locator("#io-msg")).to_have_text("GCG gelesen: 1 Einträge")
    assert pg.evaluate("PAD.game.players") == ["J\u00f6rg", "Ben"]
    # a byte-order mark is still read
    f.write_bytes(b"\xef\xbb\xbf" + (HEAD + ">Ana: ... 8H HAUS +10 10\n").encode())
    pg.set_input_files("#import-file", str(f))
    expect(pg.locator("#io-msg")).to_have_text("GCG gelesen: 1 Einträge")


def test_a_turn_after_the_end_is_refused(page, tmp_path):
    pg = page
    start_game(pg, ["Ida", "Jo"])
    ended = HEAD + ">Ana: ... 8H HAUS +10 10\n>Ben: ERT (ERT) -3 -3\n"
    refused_like_the_cli(pg, tmp_path / "a.gcg", ended + ">Ben: ERT - +0 -3\n", 5,
                         "Zeile 5: die Partie ist seit Zeile 4 zu Ende")
    refused_in_english(pg, tmp_path / "a.gcg", ended + ">Ben: ERT - +0 -3\n",
                       "GCG not read: line 5: the game ended at line 4 (remaining tiles, going out or a time penalty): "
                       "no turn after that")
    # the end lines themselves, in any order, are read: rest, time, going out (which Ana did: she has no rest)
    from engine.game.gcg import read_gcg

    text = ended + ">Ana: (time) -10 0\n>Ana: (ERT) +3 3\n"
    assert read_gcg(text, None).scores == [3, -3]
    (tmp_path / "b.gcg").write_text(text, encoding="utf-8")
    pg.set_input_files("#import-file", str(tmp_path / "b.gcg"))
    expect(pg.locator("#io-msg")).to_have_text("GCG gelesen: 4 Einträge")
    assert totals(pg) == [3, -3]


def test_letters_must_lie_where_the_line_says(page, tmp_path):
    pg = page
    start_game(pg, ["Ida", "Jo"])
    # in brackets on an empty square
    refused_like_the_cli(pg, tmp_path / "a.gcg", HEAD + ">Ana: ... 8H (H)AUS +10 10\n", 3,
                         "Zeile 3: (H)AUS: auf 8H liegt noch kein Stein")
    # a letter on a square holding another: ZEHN down from H7 puts E on H8, where H lies
    refused_like_the_cli(pg, tmp_path / "b.gcg", HEAD + ">Ana: ... 8H HAUS +10 10\n>Ben: ... H7 ZEHN +16 16\n", 4,
                         "Zeile 4: ZEHN: auf H8 liegt schon H")
    # the letter that lies there, written without brackets, is taken (as the CLI takes it)
    ok = HEAD + ">Ana: ... 8H HAUS +10 10\n>Ben: ... H7 ZHN +16 16\n".replace("ZHN", "Z(H)N")
    (tmp_path / "c.gcg").write_text(ok, encoding="utf-8")
    pg.set_input_files("#import-file", str(tmp_path / "c.gcg"))
    expect(pg.locator("#io-msg")).to_have_text("GCG gelesen: 2 Einträge")
    expect(rows(pg)).to_have_count(2)


def test_racks_hold_what_is_played_exchanged_and_kept(page, tmp_path, golden_lexicon):
    pg = page
    start_game(pg, ["Ida", "Jo"])
    f = tmp_path / "r.gcg"
    for body, message in (
            (">a: AEHSTUZ -AEHSTUZE +0 0\n", "Zeile 3: Bank: 8 Steine getauscht, auf der Bank liegen aber nur 7"),
            (">a: AEHSTUZ -EE +0 0\n", "Zeile 3: Bank AEHSTUZ: kein E für diesen Zug"),
            (">a: ... -AEHSTUZE +0 0\n", "Zeile 3: Tausch von 8 Steinen: getauscht werden 1 bis 7"),
            (">a: ... -0 +0 0\n", "Zeile 3: Tausch von 0 Steinen: getauscht werden 1 bis 7"),
            (">a: ... -QQ +0 0\n", "Zeile 3: -QQ: 2 × Q, aber vom Satz (1 × Q) sind nur 1 nicht auf dem Brett"),
            (">a: AEH5TUZ - +0 0\n", "Zeile 3: Bank: „5“ ist kein Stein (Buchstaben, ? für einen Joker)"),
            (">a: AEHSTUZ 8H HAUS +10 10\n>b: ... - +0 0\n>a: EINRSTU - +0 10\n",
             "Zeile 5: Bank: Ana hat nach Zug 1 ETZ behalten – diese Steine müssen auf der Bank sein")):
        refused_like_the_cli(pg, f, AB + body, message.split(":")[0].split()[1], message)
    refused_in_english(pg, f, AB + ">a: AEHSTUZ -AEHSTUZE +0 0\n",
                       "GCG not read: line 3: Rack: 8 tiles exchanged, but the rack holds only 7")
    # a rack and exchanged tiles in lowercase: the same tiles in uppercase, as the CLI reads them
    expect(imp(pg, tmp_path, "ok.gcg", AB + ">a: aehstuz -aeh +0 0\n")).to_have_text("GCG gelesen: 1 Einträge")
    assert pg.evaluate("[PAD.game.turns[0].rack, PAD.game.turns[0].swapped]") == ["AEHSTUZ", "AEH"]
    round_trip(pg, tmp_path, golden_lexicon)


def test_lowercase_in_a_word_is_a_blank_the_rack_must_hold(page, tmp_path, golden_lexicon):
    pg = page
    start_game(pg, ["Ida", "Jo"])
    f = tmp_path / "l.gcg"
    refused_like_the_cli(pg, f, AB + ">a: aehstuz 8h haus +14 14\n", 3, "Zeile 3: Bank AEHSTUZ: kein Joker für diesen Zug")
    refused_like_the_cli(pg, f, AB + ">a: ... 8H haus +0 0\n", 3,
                         "Zeile 3: haus: 4 × Joker, aber vom Satz (2 × Joker) sind nur 2 nicht auf dem Brett")
    expect(imp(pg, tmp_path, "ok.gcg", AB + ">a: aehst?u 8h hAUS +6 6\n")).to_have_text("GCG gelesen: 1 Einträge")
    assert pg.evaluate("[PAD.game.turns[0].rack, PAD.game.turns[0].move]") == ["AEHST?U", "8H hAUS"]
    assert ">Ana: AEHST?U 8H hAUS +6 6" in round_trip(pg, tmp_path, golden_lexicon)


def test_the_files_rules_and_their_challenge_penalty(page, tmp_path):
    from engine.game.gcg import GCGError, read_gcg

    pg = page
    start_game(pg, ["Ida", "Jo"])
    f = tmp_path / "c.gcg"
    haus = ">a: ... 8H HAUS +10 10\n"
    refused_like_the_cli(pg, f, AB + "#rules home\n" + haus + ">b: ... (challenge) -10 -10\n", 5,
                         "Zeile 5: Anfechtung -10: nach den Regeln home kostet eine falsche Anfechtung des letzten "
                         "Zugs −5")
    refused_in_english(pg, f, AB + haus + ">b: (challenge) -10 -10\n",
                       "GCG not read: line 4: challenge -10: under home rules a wrong challenge of the last play "
                       "costs −5")
    refused_like_the_cli(pg, f, AB + ">a: ... - +0 0\n>b: (challenge) -5 -5\n", 4,
                         "Zeile 4: Anfechtung -5: der letzte Zug hat nichts gelegt, das sich anfechten ließe")
    # tournament rules: 10 points per word of the last play (9J AB forms AB, UA and SB)
    ab = AB + "#rules tournament\n" + haus + ">b: ... 9J AB +10 10\n>a: (challenge) {} {}\n"
    refused_like_the_cli(pg, f, ab.format(-40, -30), 6, "Zeile 6: Anfechtung -40: nach den Regeln tournament kostet "
                         "eine falsche Anfechtung des letzten Zugs −10 oder −20 oder −30")
    # a name the CLI does not know, and more players than the rules allow (the CLI: no line)
    for text, message in ((AB + "#rules Hausregeln\n" + haus,
                           "Zeile 3: unbekannte Regeln „Hausregeln“ (bekannt: home, tournament, tournament-25, simultan)"),
                          (AB + "#player3 c Cem\n#rules tournament\n" + haus,
                           "Zeile 4: Regeln tournament: 2 bis 2 Spieler, hier 3")):
        with pytest.raises(GCGError, match="rules"):
            read_gcg(text, None)
        expect(imp(pg, tmp_path, "c.gcg", text)).to_have_text("GCG nicht gelesen: " + message)
    expect(pg.locator("#games li")).to_have_count(1)
    expect(imp(pg, tmp_path, "ok.gcg", ab.format(-30, -20))).to_have_text("GCG gelesen: 3 Einträge")
    assert totals(pg) == [-20, 10]
    read_gcg(round_trip(pg, tmp_path), None)                   # AB, UA, SB: not all in the word list


def test_lines_ending_in_a_cr_alone_are_read(page, tmp_path):
    from engine.game.gcg import read_gcg_file

    pg = page
    start_game(pg, ["Ida", "Jo"])
    f = tmp_path / "cr.gcg"
    f.write_bytes((AB + ">a: ... 8H HAUS +10 10\n>b: ... - +0 0\n").replace("\n", "\r").encode())
    assert [t.score for t in read_gcg_file(f).turns] == [10, 0]
    pg.set_input_files("#import-file", str(f))
    expect(pg.locator("#io-msg")).to_have_text("GCG gelesen: 2 Einträge")
    assert totals(pg) == [10, 0]


def test_remaining_tiles_and_going_out_are_checked_as_the_cli_checks_them(page, tmp_path):
    # report-attack26l F1: `(TILES) -N` lines were taken as written: a wrong value, a rack that is other tiles,
    # tiles the set no longer has, two lines for one player (the export dropped the second)
    pg = page
    start_game(pg, ["Ida", "Jo"])
    game = "#player1 ana Ana\n#player2 ben Ben\n>ana: ... 8H HAUS +10 10\n>ben: ... - +0 0\n"
    refused_like_the_cli(pg, tmp_path / "v.gcg", game + ">ana: EN (EN) -5 5\n", 5,
                         "Zeile 5: die Reststeine EN sind 2 Punkte wert: der Eintrag muss −2 sein, nicht -5")
    refused_like_the_cli(pg, tmp_path / "q.gcg", game + ">ana: QQ (QQ) -20 -10\n", 5,
                         "Zeile 5: Ana: 2 × Q")
    game3 = "#player1 ana Ana\n#player2 ben Ben\n#player3 cal Cal\n>ana: ... 8H HAUS +10 10\n>ben: ... - +0 0\n" \
            ">cal: ... - +0 0\n"                  # report-attack26m F6: the missing line is Cal's, not Ana's
    refused_like_the_cli(pg, tmp_path / "m3.gcg", game3 + ">ben: EN (EN) -2 -2\n>ana: (EN) +2 12\n", 8,
                         "Zeile 8: Ana hat ausgespielt, aber die Reststeine-Zeile von Cal fehlt")
    refused_like_the_cli(pg, tmp_path / "d.gcg", game + ">ana: ... (EN) -2 8\n", 5,   # "..." is no rack here
                         "Zeile 5: Bank ... und Reststeine (EN) sind nicht dieselben Steine")
    refused_like_the_cli(pg, tmp_path / "n.gcg", game + "#note end of game, out: cal\n", 5,
                         "Zeile 5: Spieler „cal“ ist nicht mit #player1 … #player4 angemeldet")
    refused_like_the_cli(pg, tmp_path / "o.gcg", game + ">ben: EN (EN) -2 -2\n>ana: (EN) +5 15\n", 6,
                         "Zeile 6: die Steine EN sind 2 Punkte wert: wer ausspielt, bekommt +2, nicht +5")
    for name, text, message in (
            ("r.gcg", game + ">ana: EN (QI) -11 -1\n", "Zeile 5: Bank EN und Reststeine (QI) sind nicht dieselben Steine"),
            ("t.gcg", game + ">ben: EN (EN) -2 -2\n>ben: ER (ER) -2 -4\n",
             "Zeile 6: Reststeine von Ben stehen schon in Zeile 5")):
        expect(imp(pg, tmp_path, name, text)).to_have_text("GCG nicht gelesen: " + message)
    refused_in_english(pg, tmp_path / "e.gcg", game + ">ana: EN (EN) -5 5\n",
                       "GCG not read: line 5: the remaining tiles EN are worth 2: the entry must be −2, not -5")
    for name, text, message in (                       # going out against the others' remaining tiles
            ("o1.gcg", game + ">ben: EN (EN) -2 -2\n>ana: (QI) +11 21\n",
             "Zeile 6: wer ausspielt, bekommt die Reststeine der anderen (EN), nicht QI"),
            ("o2.gcg", game + ">ben: Y (Y) -10 -10\n>ana: (YY) +20 30\n",
             "Zeile 6: wer ausspielt, bekommt die Reststeine der anderen (Y), nicht YY"),
            ("o3.gcg", game + ">ana: (EN) +2 12\n>ana: R (R) -1 11\n", "Zeile 6: Ana hat ausgespielt und hat doch Reststeine"),
            ("o4.gcg", game + ">ana: (EN) +2 12\n>ben: (R) +1 1\n", "Zeile 6: ausgespielt hat schon Zeile 5"),
            ("o5.gcg", game + ">ben: EN (EN) -2 -2\n",
             "Zeile 5: Ana hat keine Reststeine, hat also ausgespielt: die Zeile dafür fehlt")):
        expect(imp(pg, tmp_path, name, text)).to_contain_text("GCG nicht gelesen: " + message)
    expect(imp(pg, tmp_path, "ok.gcg", game + ">ben: EN (EN) -2 -2\n>ana: (EN) +2 12\n")).to_have_text(
        "GCG gelesen: 4 Einträge")
    assert totals(pg) == [12, -2]
