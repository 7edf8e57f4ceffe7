"""The analysis routes' 400 answers in the language the request asks for (issue 26.9): German by default, English
with ``X-Lang: en`` (the header the pages send and every other message of the server follows). The field stays
``error``; the pages send X-Lang, so what they show does not depend on translating the server's English."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from engine.web.app import create_app  # noqa: E402

EMPTY = "/".join(["15"] * 15)
EN = {"X-Lang": "en"}


@pytest.fixture(scope="module")
def client(golden_lexicon, tmp_path_factory):
    with TestClient(create_app(golden_lexicon, games_dir=tmp_path_factory.mktemp("games"),
                               rate="1000/second")) as c:
        yield c


MOVES = [  # (CGP, the German answer, the English answer)
    (f"{EMPTY} AEHSU/ x/0 0", "Punkte-Feld 'x/0': erwartet zwei Zahlen wie 120/95",
     "scores field 'x/0': expected two numbers like 120/95"),
    ("15/15/15 AEHSU/ 0/0 0", "das Brett hat 3 Zeilen, nicht 15", "board has 3 rows, expected 15"),
    (f"{EMPTY} AEH1SU/ 0/0 0", "Bänkchen 'AEH1SU': „1“ ist kein Stein des Satzes",
     "rack 'AEH1SU': '1' is not a letter of the German tile set"),
    (f"{EMPTY} AEHSU/ 0/0 0 LEX A;", "Opcode 'LEX A': 'LEX' ist kein Opcode-Name (Kleinbuchstaben)",
     "opcode 'LEX A': 'LEX' is not an opcode name (lowercase letters)"),
    ("QQ13/" + "/".join(["15"] * 14) + " A/ 0/0 0",
     "unmögliche Stellung: 2 × Q (2 auf dem Brett, 0 auf dem Bänkchen), der Satz hat 1: mehr Q auf Brett und "
     "Bänkchen, als der Satz enthält",
     "impossible position: 2 × Q (2 on the board, 0 on the rack), the German tile set has 1: more Q tiles on the "
     "board and racks than the set holds"),
]


@pytest.mark.parametrize("cgp, german, english", MOVES, ids=[e.split(":")[0][:20] for _c, _g, e in MOVES])
def test_moves_refuses_in_german_by_default_and_in_english_when_asked(client, cgp, german, english):
    r = client.post("/api/moves", json={"cgp": cgp})
    assert r.status_code == 400 and r.json() == {"error": german}
    assert client.post("/api/moves", json={"cgp": cgp}, headers={"X-Lang": "de"}).json() == {"error": german}
    r = client.post("/api/moves", json={"cgp": cgp}, headers=EN)
    assert r.status_code == 400 and r.json() == {"error": english}


REVIEW = [  # (GCG text, the German answer, the English answer)
    ("#player1 a A\n>a: XYZ 8H QQ +1 1\n",
     "eine GCG-Datei braucht die Zeilen „#player1“ und „#player2“ (nur einen Spieler mit „#rules simultan“)",
     "a GCG file needs #player1 and #player2 lines (one player only with #rules simultan)"),
    ("#player1 a A\n#player2 b B\n>a: AEHSU 8H HAUS +10\n",
     "Zeile 3: nicht lesbar: 'AEHSU 8H HAUS +10' – erwartet „BÄNKCHEN FELD WORT +PUNKTE STAND“, „BÄNKCHEN -STEINE "
     "+0 STAND“, „BÄNKCHEN - +0 STAND“, „BÄNKCHEN -- -PUNKTE STAND“, „(challenge)“, „(time)“ oder die Reststeine am "
     "Ende (Zeile abgeschnitten?)", "line 3: cannot read 'AEHSU 8H HAUS +10': expected 'RACK SQUARE WORD +SCORE TOTAL'"),
]


@pytest.mark.parametrize("gcg, german, english", REVIEW, ids=["players", "line"])
def test_review_refuses_in_german_by_default_and_in_english_when_asked(client, gcg, german, english):
    r = client.post("/api/review", json={"gcg": gcg})
    assert r.status_code == 400 and r.json() == {"error": german}
    r = client.post("/api/review", json={"gcg": gcg}, headers=EN)
    assert r.status_code == 400 and r.json()["error"].startswith(english) and list(r.json()) == ["error"]


def test_the_apis_own_field_checks_in_both_languages(client):
    r = client.post("/api/word", json={"word": ""})
    assert r.status_code == 400 and r.json() == {"error": "word: ein Wort eingeben, z. B. 'HAUS'"}
    r = client.post("/api/word", json={"word": ""}, headers=EN)
    assert r.json() == {"error": "word: type a word, e.g. 'HAUS'"}
    r = client.post("/api/score", json={"cgp": f"{EMPTY} AEHSU/ 0/0 0", "move": " "})
    assert r.status_code == 400 and r.json()["error"].startswith("move: einen Zug eingeben")
