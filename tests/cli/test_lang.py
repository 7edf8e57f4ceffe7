"""The command line speaks one language per run (issue 26.9): German or English, `--lang`, GSE_LANG, the locale.

The German lines below are worked out by hand: the score pad of tests/game/test_gcg.py's PAD_GCG (its
scores are checked there against SPEC), HAUS on an empty board (H 2 + A 1 + U 1 + S 1 on the centre's
double word = 10).
"""

from __future__ import annotations

import ast
import json
import re
import string
from pathlib import Path

import pytest

from engine import lang as L
from engine.cli.main import main
from engine.lang_de import DE
from lexicon_tools.bundle import build_bundle

ROOT = Path(__file__).resolve().parents[2]
EMPTY = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEHSU/ 0/0 0"
PAD = """#character-encoding UTF-8
#player1 Ana Ana
#player2 Ben Ben
#player3 Cal Cal
#rules home
>Ana: ... 8H HAUS +10 10
>Ben: ... K8 .EHR +10 10
>Cal: ... - +0 0
>Ana: ... -4 +0 10
>Ben: ... 11K .AsEN +4 14
>Cal: ... H8 .ASEN +7 7
>Ana: ... 8H ....ER +8 18
>Ben: QE (QE) -11 3
>Cal: AB (AB) -4 3
>Ana: (QEAB) +15 33
"""


@pytest.fixture(scope="module")
def tiny_lex(tmp_path_factory):
    return build_bundle(["HAUS", "HAUSE", "SAU", "AUS"], tmp_path_factory.mktemp("lex") / "tiny.lex",
                        source_name="test")


def _messages() -> dict[str, str]:
    """Every literal message the code gives to tr / tr_in (and engine/cli's _note): {message: file}."""
    out = {}
    for f in sorted((ROOT / "engine").rglob("*.py")):
        calls = {"tr": 0, "tr_in": 1, **({"_note": 0} if f.parent.name == "cli" and f.parent.parent.name == "engine"
                                         else {})}
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                k = calls.get(node.func.id)
                if k is not None and len(node.args) > k and isinstance(node.args[k], ast.Constant) \
                        and isinstance(node.args[k].value, str):
                    out.setdefault(node.args[k].value, str(f.relative_to(ROOT)))
    return out


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def test_every_message_of_the_code_has_its_german_text_with_the_same_fields():
    msgs = _messages()
    assert len(msgs) > 150
    missing = {m: f for m, f in msgs.items() if m not in DE}
    assert not missing, missing
    bad = {m: DE[m] for m in msgs if _fields(m) != _fields(DE[m])}
    assert not bad, bad


@pytest.mark.parametrize("env, want", [
    ({}, "en"),
    ({"LANG": "de_DE.UTF-8"}, "de"),
    ({"LANG": "de_AT.UTF-8"}, "de"),
    ({"LANG": "en_US.UTF-8"}, "en"),
    ({"LANG": "C"}, "en"),
    ({"LC_ALL": "C", "LANG": "de_DE.UTF-8"}, "en"),           # LC_ALL wins (POSIX order)
    ({"LC_MESSAGES": "de_CH.UTF-8", "LANG": "en_GB"}, "de"),  # LC_MESSAGES before LANG
    ({"LC_ALL": "", "LANG": "de_DE"}, "de"),                  # an empty variable is not set
    ({"GSE_LANG": "en", "LANG": "de_DE.UTF-8"}, "en"),        # GSE_LANG before the locale
    ({"GSE_LANG": "de", "LC_ALL": "C"}, "de"),
    ({"GSE_LANG": "fr", "LANG": "de_DE"}, "de"),              # an unknown GSE_LANG is ignored
])
def test_the_default_language_comes_from_gse_lang_else_the_locale(env, want):
    assert L.default_lang(env) == want


def test_german_numbers_have_a_decimal_comma_and_a_thousands_dot():
    assert L.tr_in("de", "{x:.1f} and {n:,}", x=75.4, n=12842) == "75,4 and 12.842"  # not in DE: English text,
    assert L.tr_in("en", "{x:.1f} and {n:,}", x=75.4, n=12842) == "75.4 and 12,842"  # German numbers
    assert L.tr_in("de", "Ctrl-C") == "Strg+C"
    L.set_lang("de")
    try:
        assert L.percent(0.754) == "75,4 %" and L.num(-3.25, "+.2f") == "-3,25"
    finally:
        L.set_lang(None)
    assert L.percent(0.754) == "75.4 %"  # tests run in English (tests/conftest.py)


def test_gcg_score_pad_in_german_line_by_line(tmp_path, capsys):
    f = tmp_path / "pad.gcg"
    f.write_text(PAD, encoding="utf-8")
    assert main(["--lang", "de", "gcg", str(f), "--no-words"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "  # Eintrag                            Ana       Ben       Cal",
        "-" * 62,
        "  1 Ana: 8H HAUS +10                    10         0         0",
        "  2 Ben: K8 (S)EHR +10                  10        10         0",
        "  3 Cal: passt 0                        10        10         0",
        "  4 Ana: tauscht 4 0                    10        10         0",
        "  5 Ben: 11K (R)AsEN +4                 10        14         0",
        "  6 Cal: H8 (H)ASEN +7                  10        14         7",
        "  7 Ana: 8H (HAUS)ER +8                 18        14         7",
        "    Ben: Reststeine -11                 18         3         7",
        "    Cal: Reststeine -4                  18         3         3",
        "    Ana: Ausgespielt +15                33         3         3",
        "Sieger: Ana (Ende: ausgespielt)",
    ]
    # the same run in English: one language, the same numbers
    assert main(["gcg", str(f), "--no-words", "--lang", "en"]) == 0
    en = capsys.readouterr().out.splitlines()
    assert en[0].split() == ["#", "entry", "Ana", "Ben", "Cal"]
    assert en[4].split() == ["3", "Cal:", "passes", "0", "10", "10", "0"]
    assert en[9].split() == ["Ben:", "left", "on", "rack", "-11", "18", "3", "7"]
    assert en[-1] == "winner: Ana (ended by out)"


def test_score_and_best_in_german(tiny_lex, capsys):
    assert main(["score", "--cgp", EMPTY, "--lexicon", str(tiny_lex.path), "8H HAUS", "--lang", "de"]) == 0
    assert capsys.readouterr().out.splitlines() == ["8H HAUS: 10 Punkte", "  HAUS               10"]
    assert main(["--lang=de", "score", "--cgp", EMPTY, "--lexicon", str(tiny_lex.path), "8H HAUX"]) == 1
    assert capsys.readouterr().out.startswith("ungültig: ")
    assert main(["--lang", "de", "best", "--cgp", EMPTY, "--lexicon", str(tiny_lex.path)]) == 0
    line, = capsys.readouterr().out.splitlines()
    # HAUSE from D8 through the centre: H 2 on the double letter D8 = 4, A U S E 1 each: 8, doubled = 16
    assert line == "8D HAUSE                   16  Rest -"


@pytest.mark.parametrize("move, german", [
    ("8H HAUX", "ungültig: X ist nicht auf dem Bänkchen (AEHSU)"),
    ("1A SAUE", "ungültig: der erste Zug muss über den Stern H8 gehen"),
    ("8H HA(U)S", "ungültig: J8 ist leer, aber (U) steht für einen Stein, der schon liegt"),
    ("8H HAUß", "ungültig: HAUß: „ß“ ist kein Stein des deutschen Satzes (für ß SS schreiben)"),
    ("8H SAUHE", "ungültig: SAUHE steht nicht in der Wortliste"),
    ("HAUS", "ungültig: nicht lesbar: 'HAUS' – erwartet z. B. 8H HAUS (waagerecht) oder H8 HAUS (senkrecht)"),
])
def test_the_word_checkers_reasons_in_german(tiny_lex, capsys, move, german):
    assert main(["--lang", "de", "score", "--cgp", EMPTY, "--lexicon", str(tiny_lex.path), move]) == 1
    assert capsys.readouterr().out.splitlines() == [german]


def test_an_error_in_a_record_in_german(tmp_path, capsys, tiny_lex):
    f = tmp_path / "bad.gcg"
    f.write_text("#player1 a a\n#player2 b b\n>a: ABC 8H XX +3 3\n", encoding="utf-8")
    lex = ["--lexicon", str(tiny_lex.path)]  # not the default list: on a fresh cache its first build would speak too
    assert main(["--lang", "de", "gcg", str(f), "--no-words", *lex]) == 2
    assert capsys.readouterr().err == f"Fehler: {f}: Zeile 3: ungültiger Zug 8H XX: X ist nicht auf dem Bänkchen (ABC)\n"
    assert main(["--lang", "de", "gcg", str(tmp_path / "none.gcg")]) == 2
    assert capsys.readouterr().err == f"Fehler: {tmp_path / 'none.gcg'}: nicht lesbar (keine solche Datei)\n"
    assert main(["--lang", "en", "gcg", str(f), "--no-words", *lex]) == 2
    assert capsys.readouterr().err == f"error: {f}: line 3: illegal move 8H XX: tile X is not on the rack (rack ABC)\n"


def test_analyze_in_german_has_german_headings_and_decimal_commas(tiny_lex, capsys):
    assert main(["--lang", "de", "analyze", "--cgp", EMPTY, "--lexicon", str(tiny_lex.path), "--static"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"Bänkchen AEHSU  Beutel \d+  \(Restwerte × \d+,\d\d\)", out[0]), out[0]
    assert out[1] == "   #  Zug                       Pkt.  Rest        Restwert   Equity"
    rows = [r.split() for r in out[2:]]
    assert rows and all(re.fullmatch(r"-?\d+,\d\d", r[-1]) and re.fullmatch(r"-?\d+,\d\d", r[-2]) for r in rows)
    for r in rows:  # equity = score + leave value, read back from the German numbers
        score, value, eq = int(r[-4]), float(r[-2].replace(",", ".")), float(r[-1].replace(",", "."))
        assert abs(score + value - eq) <= 0.011
    assert rows[0][1:4] == ["8D", "HAUSE", "16"]


def test_json_is_the_same_in_both_languages(tiny_lex, capsys):
    outs = []
    for code in ("de", "en"):
        assert main(["--lang", code, "score", "--cgp", EMPTY, "--lexicon", str(tiny_lex.path), "8H HAUS",
                     "--json"]) == 0
        outs.append(json.loads(capsys.readouterr().out))
    assert outs[0] == outs[1] and outs[0]["score"] == 10
    outs = []
    for code in ("de", "en"):
        assert main(["--lang", code, "analyze", "--cgp", EMPTY, "--lexicon", str(tiny_lex.path), "--static",
                     "--json"]) == 0
        outs.append(json.loads(capsys.readouterr().out))
    assert outs[0] == outs[1] and outs[0]["moves"][0]["move"] == "8D HAUSE"


def _english_words() -> set[str]:
    """Words of the catalogue's English messages that no German text uses (a German line must not show them)."""
    words = lambda t: set(re.findall(r"[a-zäöüß]{4,}", re.sub(r"\{[^}]*\}|--[a-z-]+|`[^`]*`|docs/\S+", " ", t).lower()))  # noqa: E731
    english = set().union(*(words(m) for m in DE))
    german = set().union(*(words(g) for g in DE.values()))
    return english - german - {"equity", "bingo", "simultan"}


def test_no_english_word_in_german_mode(tiny_lex, tmp_path, capsys, monkeypatch):
    f = tmp_path / "pad.gcg"
    f.write_text(PAD, encoding="utf-8")
    english = _english_words()
    assert {"winner", "move", "score", "exchanges", "rack", "entry", "passes", "ended"} <= english
    monkeypatch.delenv("GSE_LANG")
    monkeypatch.setenv("LANG", "de_DE.UTF-8")  # German by the locale, no --lang
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    lex = str(tiny_lex.path)
    runs = [(["gcg", str(f), "--no-words"], 0), (["gcg", str(f), "--no-words", "--position", "99"], 2),
            (["score", "--cgp", EMPTY, "--lexicon", lex, "8H HAUS"], 0),
            (["best", "--cgp", EMPTY, "--lexicon", lex], 0),
            (["moves", "--cgp", EMPTY, "--lexicon", lex], 0),
            (["analyze", "--cgp", EMPTY, "--lexicon", lex, "--static"], 0),
            (["analyze", "--cgp", EMPTY, "--lexicon", lex, "--top", "0"], 2),
            (["analyze", "--cgp", EMPTY, "--lexicon", lex, "--time", "x"], 2),
            (["gcg"], 2)]
    for argv, rc in runs:
        try:
            got = main(argv)
        except SystemExit as exc:  # argparse's own error
            got = exc.code
        cap = capsys.readouterr()
        assert got == rc, argv
        text = (cap.out + cap.err).lower()
        text = re.sub(r"--[a-z-]+|\S*/\S*", " ", text)  # options and paths are not words
        found = sorted(w for w in english if re.search(rf"(?<![a-zäöüß]){w}(?![a-zäöüß])", text))
        assert not found, (argv, found, cap.out + cap.err)


HAND_PAD = """#character-encoding UTF-8
#player1 Ana Ana
#player2 Ben Ben
#rules home
>Ana: AHSUERT 8H HAUS +10 10
#note by hand: >Ben: ... -5 -5
"""
NO_TILES = "/".join(["15"] * 15) + " AEHSU/ 0/0 0"
N5 = [  # report-attack26b N5: (argv with {gcg} for the record file, the German line expected)
    (["gcg", "{gcg}"], HAND_PAD, "Fehler: {gcg}: Zeile 6: Punkte von Hand -5: erlaubt sind ganze Zahlen von 0 bis 9999"),
    (["gcg", "{gcg}"], HAND_PAD.replace("-5 -5", "+5 5 trailing words"),
     "Fehler: {gcg}: Zeile 6: nicht lesbar: '... +5 5 trailing words' – erwartet „#note by hand: >Kürzel: BÄNKCHEN "
     "+PUNKTE STAND“ (BÄNKCHEN „...“, wenn unbekannt)"),
    (["gcg", "{gcg}"], HAND_PAD.replace("... -5 -5", "QQ +5 5"),
     "Fehler: {gcg}: Zeile 6: Bänkchen QQ: 2 × Q, aber außerhalb des Bretts gibt es nur noch 1 (der Satz hat 1)"),
    (["gcg", "{gcg}"], HAND_PAD.replace("HAUS +10 10", "HAUS +10"),
     "Fehler: {gcg}: Zeile 5: nicht lesbar: 'AHSUERT 8H HAUS +10' – erwartet „BÄNKCHEN FELD WORT +PUNKTE STAND“, "
     "„BÄNKCHEN -STEINE +0 STAND“, „BÄNKCHEN - +0 STAND“, „BÄNKCHEN -- -PUNKTE STAND“, „(challenge)“, „(time)“ oder "
     "die Reststeine am Ende (Zeile abgeschnitten?)"),
    (["gcg", "{gcg}"], "", "Fehler: {gcg}: eine GCG-Datei braucht die Zeilen „#player1“ und „#player2“ (nur einen "
                           "Spieler mit „#rules simultan“)"),
    (["gcg", "{dir}"], None, "Fehler: {dir}: nicht lesbar (das ist ein Verzeichnis)"),
    (["review", "{dir}"], None, "Fehler: {dir}: nicht lesbar (das ist ein Verzeichnis)"),
    (["score", "--cgp", NO_TILES, "Z99 HAUS"], None,
     "ungültig: das Feld 'Z99' gibt es nicht (Zeilen 1–15, Spalten A–O; 8H waagerecht, H8 senkrecht)"),
    (["endgame", "--cgp", NO_TILES], None,
     "Fehler: Endspiel: der Beutel muss leer sein, aber 97 Steine sind nicht zu sehen (auf dem Bänkchen des Gegners "
     "liegen höchstens 7)"),
    (["endgame", "--cgp", NO_TILES.replace("AEHSU/", "AEHSU/EEEEEEE") + " bag 81;"], None,
     "Fehler: Endspiel: der Beutel muss leer sein (laut CGP liegen 81 Steine darin)"),
    (["endgame", "--cgp", NO_TILES + " bag 66;"], None,
     "Fehler: Opcode bag 66: dann fehlen 31 Steine, aber auf die anderen Bänkchen passen höchstens 21"),
    (["preendgame", "--cgp", NO_TILES], None,
     "Fehler: Vor-Endspiel: im Beutel müssen 1 bis 3 Steine liegen, es sind 90"),
    (["web", "--port", "99999"], None, "Fehler: --port 99999: erwartet 1 bis 65535"),
    (["web", "--max-games", "0"], None, "Fehler: --max-games muss mindestens 1 sein, nicht 0"),
]


@pytest.mark.parametrize("argv, record, want", N5, ids=[f"{a[0]}-{i}" for i, (a, _r, _w) in enumerate(N5)])
def test_the_english_left_in_german_mode_is_german(tmp_path, capsys, argv, record, want):
    gcg = tmp_path / "game.gcg"
    if record is not None:
        gcg.write_text(record, encoding="utf-8")
    fill = {"gcg": str(gcg), "dir": str(tmp_path)}
    rc = main(["--lang", "de"] + [a.format(**fill) if a.startswith("{") else a for a in argv])
    cap = capsys.readouterr()
    assert rc == (1 if argv[0] == "score" else 2)
    assert (cap.out + cap.err).strip() == want.format(**fill)


def test_the_web_and_director_refusals_in_german():
    """report-attack26b N5: the server's refusals of a damaged game file, and `simultan leave` on an event
    without players."""
    from engine.lang_de import director_de
    from engine.web.german import play_de

    assert play_de("this game file is damaged: action 1 (8H): cannot read") == \
        "Diese Spieldatei ist beschädigt: Aktion 1 (8H) geht nicht: nicht lesbar"
    assert play_de("this game file is damaged: action 2 (8H ZA): tile Z is not on the rack (rack AEHSU)") == \
        "Diese Spieldatei ist beschädigt: Aktion 2 (8H ZA) geht nicht: Z ist nicht auf dem Bänkchen (AEHSU)"
    assert play_de("the game file cannot be read (Is a directory)") == \
        "Die Spieldatei ist nicht lesbar (das ist ein Verzeichnis)"
    assert director_de("unknown player 'Nobody' (players: none)") == "Unbekannter Spieler 'Nobody' (noch keine Spieler)"
    assert director_de("cannot read 'Z99 X': square 'Z99' is not on the board (rows 1-15, columns A-O; 8H across, "
                       "H8 down)") == \
        "Nicht lesbar: 'Z99 X': das Feld 'Z99' gibt es nicht (Zeilen 1–15, Spalten A–O; 8H waagerecht, H8 senkrecht)"


def test_argparse_errors_in_german(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--lang", "de", "gcg"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("Aufruf: python -m engine gcg") and "Fehler: diese Argumente fehlen: DATEI" in err
    assert main(["--lang", "fr", "best"]) == 2
    assert "--lang 'fr'" in capsys.readouterr().err


# -- the text of the searching commands, line by line, from results written out by hand --------------------
@pytest.fixture
def german():
    L.set_lang("de")
    yield
    L.set_lang(None)


def test_phase_answers_in_german(german):
    from engine.analysis.phase import format_answer

    end = {"phase": "endgame", "complete": True, "depth": 6, "seconds": 1.25, "move": "15C SUD(E)", "value": 5,
           "final_spread": -47, "pv": ["15C SUD(E)", "I1 S(UM)M"]}
    assert format_answer(end, "15C SUD(E)") == [
        "Endspiel-Löser (exakt, 1,2 s): bester Zug 15C SUD(E), Wert +5 (Endstand-Differenz -47)",
        "  Hauptvariante: 15C SUD(E) | I1 S(UM)M",
        "  Ihr Zug ist der beste des Lösers"]
    pre = {"phase": "preendgame", "complete": False, "seconds": 8.94, "method": "x",
           "moves": [{"move": "15F HI(N)G", "win": 0.125, "spread": -16.44, "exact": False, "exact_share": 0.5},
                     {"move": "1H (E)RDIG", "win": 1.0, "spread": 3.0, "exact": True, "exact_share": 1.0}]}
    pre["method"] = ("draws enumerated (sampled above 48 per move), greedy playouts, then exact endgames for the "
                     "moves in contention; 1 of 2 moves exact")  # English in the JSON, German in the text
    assert format_answer(pre, "1H (E)RDIG") == [
        "Vor-Endspiel (teils genähert, 8,9 s): Ziehungen aufgezählt (über 48 je Zug eine Stichprobe), gierig zu Ende "
        "gespielt, dann exakte Endspiele für die Züge in der engeren Wahl; 1 von 2 Zügen exakt",
        "  Zug                      Sieg %   Diff.  exakt",
        "  15F HI(N)G                 12,5   -16,4  nein (50 % der Ziehungen gelöst)",
        "  1H (E)RDIG                100,0    +3,0  ja  <"]
    sim = {"phase": "simulation", "plies": 2, "iterations": 12345, "seconds": 4.96, "inferred": None,
           "moves": [{"move": "8H HAUS", "score": 10, "iterations": 1200, "spread": 12.34, "ci": [10.5, 14.25],
                      "win": 0.754, "win_ci": [0.7, 0.8]}]}
    assert format_answer(sim) == [
        "Simulation (2 Halbzüge, 12.345 Durchläufe, 5,0 s; 95-%-Intervalle):",
        "  Zug                       Pkt.  Läufe   Diff.          95 % KI Sieg %  Sieg 95 % KI",
        "  8H HAUS                     10   1200   +12,3   [+10,5; +14,2]   75,4  [70,0; 80,0]"]


def test_endgame_and_preendgame_text_in_german(german, capsys):
    from types import SimpleNamespace as NS

    from engine.cli.endgame import _print_endgame, preendgame_lines
    from engine.position.cgp import parse_cgp

    pos = parse_cgp("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 DHSU/GMSU 316/368 0")
    r = NS(complete=True, move="15C SUD(E)", value=5, pv=["15C SUD(E)", "I1 S(UM)M", "7H H(I)"], depth=10,
           stopped=None, nodes=123456, seconds=1.5, cpu_seconds=1.25)
    _print_endgame(NS(json=False), pos, r)
    assert capsys.readouterr().out.splitlines() == [
        "Bänkchen DHSU / GMSU, Stand 316/368",
        "bester Zug: 15C SUD(E)",
        "Wert: +5 (Differenz von jetzt bis zum Ende, Abrechnung eingeschlossen; Endstand-Differenz -47)",
        "Hauptvariante: 15C SUD(E) | I1 S(UM)M | 7H H(I)",
        "Tiefe 10, vollständig (exakt); 123.456 Knoten in 1,50 s Uhrzeit, 1,25 s CPU"]
    res = {"bag": 1, "unseen": "AACGLMST", "seconds": 8.94, "method": "m",
           "moves": [{"move": "15F HI(N)G", "win": 0.125, "spread": -16.4, "draws": 8, "exact": False,
                      "exact_share": 0.0, "sampled": False, "reply": False},
                     {"move": "-", "win": 0.0, "spread": -66.6, "draws": 7, "exact": True, "exact_share": 1.0,
                      "sampled": True, "reply": True}]}
    assert preendgame_lines(res) == [
        "Vor-Endspiel, Beutel 1 (ungesehen AACGLMST), 8,9 s: m",
        "  #  Zug                      Sieg %    Diff.  Zieh.  exakt",
        "  1  15F HI(N)G                 12,5    -16,4      8  nein (0 % der Ziehungen gelöst)",
        "  2  -                           0,0    -66,6      7  ja, Ziehungen als Stichprobe, Antwort des Gegners "
        "nachgebildet"]


def test_review_table_in_german(german):
    from types import SimpleNamespace as NS

    from engine.cli.review import format_review

    turns = [NS(turn=0, player="ana", rack="BDENRUU", played="8D BUDEN", best="8D BUDEN", loss=0.0, method="static",
                exact=True, bingo_missed=False, note="", mark=None),
             NS(turn=1, player="ben", rack="?", played="-", best=None, loss=None, method="static", exact=True,
                bingo_missed=False, note="rack unknown", mark=None),
             NS(turn=2, player="ana", rack="EEKNNPS", played="E5 PEN", best="E5 PEN(U)NSE", loss=71.25,
                method="endgame", exact=False, bingo_missed=True, note="", mark="Patzer")]
    summary = {"ana": {"turns": 2, "average_loss": 35.625, "missed_bingos": 1, "endgame_loss": 71.25,
                       "marks": {"Patzer": 1, "Fehler": 0}},
               "ben": {"turns": 0, "average_loss": None, "missed_bingos": 0, "endgame_loss": 0.0, "marks": {}}}
    rv = NS(turns=turns, unit="equity", summary=lambda: summary)
    assert format_review(rv) == [
        " Zug  Spieler    Bänkchen gespielt               bester Zug              Verl.  Wertung",
        "   1  ana        BDENRUU  8D BUDEN               8D BUDEN                  0,0  ",
        "   2  ben        ?        -                      -                           -    (Bänkchen unbekannt)",
        "   3  ana        EEKNNPS  E5 PEN                 E5 PEN(U)NSE             71,2  Patzer  (Endspiel, nicht "
        "exakt; Bingo verpasst)",
        "",
        "Spieler     Züge Ø Verlust   verp. Bingos Endspielverl.  Wertungen",
        "ana            2     35,62              1          71,2  1 Patzer",
        "ben            0         -              0           0,0  -",
        "(Verlust in Equity-Punkten; Züge im Endspiel in Punkten der Differenz; Wertungen: "
        "Ungenauigkeit/Fehler/Patzer, siehe docs/review.md)"]
