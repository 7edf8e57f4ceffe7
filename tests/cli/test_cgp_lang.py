"""The CGP reader's refusals and notes in German mode (issue 26.9: one language per run): `best` and `analyze`
given a bad position print `Fehler: …` / `Warnung: …` in German, exit 2 (a note: the answer, exit 0)."""

from __future__ import annotations

import pytest

from engine.cli.main import main
from engine.lang import tr_in
from lexicon_tools.bundle import build_bundle

E = "/".join(["15"] * 15)
CASES = [  # (CGP, the German line expected on stderr)
    ("15/15/15 AEHSU/ 0/0 0", "Fehler: das Brett hat 3 Zeilen, nicht 15"),
    ("16/" + "/".join(["15"] * 14) + " AEHSU/ 0/0 0", "Fehler: Brettzeile 1 ('16'): 16 Felder statt 15"),
    ("15A/" + "/".join(["15"] * 14) + " AEHSU/ 0/0 0", "Fehler: Brettzeile 1: mehr als 15 Felder"),
    ("1²13/" + "/".join(["15"] * 14) + " AEHSU/ 0/0 0",
     "Fehler: Brettzeile 1: '²' ist keine Ziffer 0–9 (leere Felder werden mit 0–9 gezählt)"),
    ("1%13/" + "/".join(["15"] * 14) + " AEHSU/ 0/0 0",
     "Fehler: Brettzeile 1: „%“ ist kein Stein des Satzes"),
    (f"{E} AEH1SU/ 0/0 0", "Fehler: Bänkchen 'AEH1SU': „1“ ist kein Stein des Satzes"),
    (f"{E} AEHSUXXXX/ 0/0 0", "Fehler: Bänkchen 'AEHSUXXXX': 9 Steine, höchstens 7"),
    (f"{E} YYYY/ 0/0 0", "Fehler: Bänkchen 'YYYY': 4 × Y, der Satz hat nur 1"),
    (f"{E} AEHSU/Y1 0/0 0", "Fehler: Bänkchen des Gegners 'Y1': „1“ ist kein Stein des Satzes"),
    (f"{E} aehsu/ 0/0 0", "Fehler: Bänkchen 'aehsu': Kleinbuchstabe 'a': in einer CGP steht das Bänkchen in "
                          "Großbuchstaben (ein Joker ist „?“; klein steht nur auf dem Brett für einen Joker)"),
    (f"{E} AEHSU//A 0/0 0", "Fehler: Bänkchen-Feld 'AEHSU//A': erwartet BÄNKCHEN/BÄNKCHEN-DES-GEGNERS (ein „/“)"),
    (f"{E} AEHSU/ x/0 0", "Fehler: Punkte-Feld 'x/0': erwartet zwei Zahlen wie 120/95"),
    (f"{E} AEHSU/ 0/0 x", "Fehler: Feld der Züge ohne Punkte 'x': erwartet eine Zahl (Ziffern 0–9)"),
    (f"{E} AEHSU/ 0/0 0 lex FOO", "Fehler: Text nach dem Feld der Züge ohne Punkte: 'lex FOO' ist kein Opcode "
                                  "(ein Opcode ist „name wert;“, mit „;“ am Ende)"),
    (f"{E} AEHSU/ 0/0 0 LEX A;", "Fehler: Opcode 'LEX A': 'LEX' ist kein Opcode-Name (Kleinbuchstaben)"),
    (f"{E} AEHSU/ 0/0 0 lex A; lex B;", "Fehler: Opcode 'lex' doppelt angegeben"),
    (f"{E} AEHSU/ 0/0 0 bag x;", "Fehler: Opcode bag 'x': erwartet eine Zahl von Steinen (Ziffern 0–9)"),
    (f"{E} AEHSU/ 0/0 0 bag 1;", "Fehler: Opcode bag 1: dann fehlen 96 Steine, aber auf die anderen Bänkchen passen "
                                 "höchstens 21"),
    ("", "Fehler: leere CGP"),
    (E, "Fehler: eine CGP braucht mindestens das Brett und das Bänkchen"),
    ("Y14/" + "/".join(["15"] * 14) + " Y/ 0/0 0",
     "Fehler: unmögliche Stellung: 2 × Y (1 auf dem Brett, 1 auf dem Bänkchen), der Satz hat 1: mehr Y auf Brett "
     "und Bänkchen, als der Satz enthält (für eine zusammengestellte Aufgabe: --allow-impossible in der "
     "Befehlszeile)"),
    ("A" * 5000, "Fehler: CGP mit 5.000 Zeichen: eine Stellung hat höchstens 4.096 (beginnt mit "
                 "'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')"),
]
NOTES = [  # (CGP, the German warning; the command answers)
    (f"{E} AEHSU/ 0/0 0 foo bar;", "Warnung: CGP-Opcode 'foo' kennt dieses Programm nicht (bag, bb, bdn, cs, gid, "
                                   "hr, ld, lex, mcnt, mn, pi, pn, tmr, var); er bleibt erhalten, wird aber nicht "
                                   "benutzt"),
    (f"{E} AEHSU/ 0/0 0 lex CSW21;", "Warnung: CGP-Opcode lex 'CSW21': keine bekannte deutsche Wortliste (DEFAULT, "
                                     "DEUTSCH, GERMAN, NGERMAN, NSF); die Stellung wird gegen das Lexikon der Engine "
                                     "geprüft"),
]


@pytest.fixture(scope="module")
def tiny_lex(tmp_path_factory):
    return build_bundle(["HAUS", "HAUSE", "SAU", "AUS"], tmp_path_factory.mktemp("lex") / "tiny.lex",
                        source_name="test")


def _run(argv, capsys):
    rc = main(argv)
    cap = capsys.readouterr()
    return rc, cap.err.strip().splitlines()


@pytest.mark.parametrize("command", ["best", "analyze"])
@pytest.mark.parametrize("cgp, want", CASES, ids=[w[8:40] for _c, w in CASES])
def test_a_bad_cgp_is_refused_in_german(tiny_lex, capsys, command, cgp, want):
    extra = ["--static"] if command == "analyze" else []
    rc, err = _run(["--lang", "de", command, "--cgp", cgp, "--lexicon", str(tiny_lex.path)] + extra, capsys)
    assert rc == 2 and err == [want]
    rc, err = _run(["--lang", "en", command, "--cgp", cgp, "--lexicon", str(tiny_lex.path)] + extra, capsys)
    assert rc == 2 and len(err) == 1 and err[0].startswith("error: ") and err[0] != want  # English with --lang en


@pytest.mark.parametrize("cgp, want", NOTES, ids=["opcode", "lex"])
def test_a_cgp_note_in_german(tiny_lex, capsys, cgp, want):
    rc, err = _run(["--lang", "de", "best", "--cgp", cgp, "--lexicon", str(tiny_lex.path)], capsys)
    assert rc == 0 and want in err


def test_a_lexicon_that_is_not_there_in_german(tmp_path, capsys):
    cgp = f"{E} AEHSU/ 0/0 0"
    rc, err = _run(["--lang", "de", "best", "--cgp", cgp, "--lexicon", "FOO"], capsys)
    assert rc == 2 and err == ["Fehler: FOO: keine solche Wortliste (eine bauen: „python -m lexicon_tools build“)"]
    rc, err = _run(["--lang", "de", "best", "--cgp", cgp, "--lexicon", str(tmp_path)], capsys)
    assert rc == 2 and err == [f"Fehler: {tmp_path}: keine Lexikon-Datei (meta.json fehlt)"]


def test_the_place_of_a_rack_error_is_translated_only_with_a_known_reason():
    """A rack message with a reason the catalogue does not know keeps the general patterns' translation."""
    assert tr_in("de", "rack AB: 2 × X but only 1 of the 1 are not on the board") == \
        "Bänkchen AB: 2 × X, aber außerhalb des Bretts gibt es nur noch 1 (der Satz hat 1)"
