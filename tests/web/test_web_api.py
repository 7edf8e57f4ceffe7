"""The web app's JSON API (engine/web), through FastAPI's test client.

Values are checked against the golden move lists, hand-worked scores and
independent computations (the leave table looked up directly, the generator's
own list), not against the API itself.
"""

from __future__ import annotations

import socket
import time

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from engine.position.board import square_name  # noqa: E402
from engine.position.cgp import parse_cgp  # noqa: E402
from engine.game.equity import leave_term  # noqa: E402
from engine.leaves.table import default_table  # noqa: E402
from engine.movegen.generator import generate_moves  # noqa: E402
from engine.web.api import MAX_PAGE  # noqa: E402
from engine.web.app import MAX_BODY_BYTES, create_app  # noqa: E402

from conftest import golden_moves, golden_positions  # noqa: E402

EMPTY = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15"
POSITIONS = dict(golden_positions())


@pytest.fixture(scope="module")
def client(golden_lexicon):
    with TestClient(create_app(golden_lexicon, rate="1000/second")) as c:
        yield c


def placements(tiles) -> str:
    """Golden-list placement key from API tiles ``[row, col, LETTER, blank]``."""
    return ",".join(f"{square_name(r, c)}:{ch.lower() if b else ch}" for r, c, ch, b in sorted(tiles))


# ---------------------------------------------------------------------------
# rules
# ---------------------------------------------------------------------------
def test_rules_give_the_german_set_and_the_standard_layout(client):
    r = client.get("/api/rules").json()
    letters = {x["letter"]: (x["value"], x["count"]) for x in r["letters"]}
    # SPEC.md "Tiles": a few values and counts, and the total of 102 tiles
    assert letters["E"] == (1, 15) and letters["Y"] == (10, 1) and letters["Ä"] == (6, 1) and letters["Q"] == (10, 1)
    assert r["blank"] == {"value": 0, "count": 2}
    assert sum(c for _v, c in letters.values()) + 2 == 102
    p = r["premiums"]
    assert len(p) == 15 and all(len(row) == 15 for row in p)
    # corners triple word, the centre star, D1 a double letter, B2 a double word, F2 a triple letter
    assert p[0][0] == p[0][14] == p[14][0] == p[14][14] == "3"
    assert p[7][7] == "*" and p[0][3] == "d" and p[1][1] == "2" and p[1][5] == "t"
    assert r["lexicon"]["words"] == 300_579
    # the score pad's #lexicon: golden.lex is found as "golden" beside the record (engine.game.gcg.resolve_lexicon_name)
    assert r["lexicon"]["gcg"] == "golden"


# ---------------------------------------------------------------------------
# moves
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("pid", ["p_ref1", "p_ref2", "p002", "p011"])
def test_moves_equal_the_golden_list(client, pid):
    ans = client.post("/api/moves", json={"cgp": POSITIONS[pid]}).json()
    moves, pages = list(ans["moves"]), 1
    while ans["next_offset"] is not None:         # at most MAX_PAGE moves an answer: page through
        assert ans["next_offset"] == len(moves)
        ans = client.post("/api/moves", json={"cgp": POSITIONS[pid], "offset": ans["next_offset"]}).json()
        moves += ans["moves"]
        pages += 1
    golden = {(p, s) for _n, s, p in golden_moves(pid)}
    got = {(placements(m["tiles"]), m["score"]) for m in moves}
    assert ans["count"] == len(moves) == len(golden)
    assert pages == -(-len(golden) // MAX_PAGE)   # p011: 12,842 moves in 7 answers
    assert got == golden


def test_score_order_is_the_clis_order_and_notation(client, golden_lexicon):
    cgp = POSITIONS["p_ref1"]
    ans = client.post("/api/moves", json={"cgp": cgp, "sort": "score"}).json()
    pos = parse_cgp(cgp)
    expect = [(m.notation, m.score, m.leave) for m in generate_moves(pos.board, pos.rack, golden_lexicon).sorted()]
    assert [(m["move"], m["score"], m["leave"]) for m in ans["moves"]] == expect


def test_equity_is_score_plus_the_leave_tables_value(client):
    cgp = POSITIONS["p002"]  # bag 41: the leave counts fully
    ans = client.post("/api/moves", json={"cgp": cgp}).json()
    table = default_table()
    eqs = [m["equity"] for m in ans["moves"]]
    assert eqs == sorted(eqs, reverse=True)
    for m in ans["moves"][:5] + ans["moves"][-3:]:
        lv = leave_term(table, m["leave"], 41)
        assert m["leave_value"] == pytest.approx(lv, abs=1e-3)
        assert m["equity"] == pytest.approx(m["score"] + lv, abs=1e-3)
    assert ans["best_exchanges"][0]["equity"] == pytest.approx(
        leave_term(table, ans["best_exchanges"][0]["leave"], 41), abs=1e-3)


def test_words_and_tiles_of_a_move(client):
    # empty board, 8E HAUS (E8..H8): no letter premium, the centre star doubles the word:
    # (2 + 1 + 1 + 1) · 2 = 10
    ans = client.post("/api/moves", json={"cgp": f"{EMPTY} AHSU/ 0/0 0", "sort": "score"}).json()
    haus = next(m for m in ans["moves"] if m["move"] == "8E HAUS")
    assert haus["score"] == 10 and haus["words"] == [["HAUS", 10]]
    assert haus["tiles"] == [[7, 4, "H", False], [7, 5, "A", False], [7, 6, "U", False], [7, 7, "S", False]]
    assert haus["leave"] == "" and haus["played"] == 4
    top = client.post("/api/moves", json={"cgp": f"{EMPTY} AHSU/ 0/0 0", "top": 3, "sort": "score"}).json()
    assert [m["move"] for m in top["moves"]] == [m["move"] for m in ans["moves"][:3]]
    assert top["count"] == ans["count"]


def test_words_beyond_the_first_hundred_come_from_the_checker(client):
    cgp = POSITIONS["p_ref2"]
    ans = client.post("/api/moves", json={"cgp": cgp}).json()
    late = ans["moves"][150]
    assert late["words"] is None
    checked = client.post("/api/score", json={"cgp": cgp, "move": late["move"]}).json()
    assert checked["legal"] and checked["score"] == late["score"]
    assert checked["words"][0][0] == late["move"].split()[1].replace("(", "").replace(")", "").upper()


def test_empty_rack_has_no_moves_and_says_why(client):
    ans = client.post("/api/moves", json={"cgp": f"{EMPTY} / 0/0 0"}).json()
    assert ans["moves"] == [] and "rack is empty" in ans["note"]


# ---------------------------------------------------------------------------
# position and word checker
# ---------------------------------------------------------------------------
def test_position_normalises_and_warns(client):
    rows = ["15"] * 15
    rows[7] = "6HAUS5"      # centre H8 covered (S at J8)
    rows[2] = "2QXZ10"      # not a word, not connected
    ans = client.post("/api/position", json={"cgp": "/".join(rows) + " ÄB?/ 0/0 0"}).json()
    assert ans["board"][7] == "......HAUS....."
    assert ans["rack"] == "ÄB?" and ans["tiles_on_board"] == 7
    assert "QXZ at 3C is not in the word list" in ans["warnings"]
    assert "tiles not connected to the centre: C3, D3, E3" in ans["warnings"]
    # unseen: 102 tiles minus 7 on the board minus 3 on the rack
    assert len(ans["unseen"]) == 92
    assert ans["bag"] == 92 - 7


def test_checker_scores_ranks_and_explains(client, golden_lexicon):
    cgp = f"{EMPTY} AHSU/ 0/0 0"
    ok = client.post("/api/score", json={"cgp": cgp, "move": "8e HAUS"}).json()
    assert ok["legal"] and ok["move"] == "8E HAUS" and ok["score"] == 10 and ok["words"] == [["HAUS", 10]]
    pos = parse_cgp(cgp)
    ml = generate_moves(pos.board, pos.rack, golden_lexicon)
    assert ok["count"] == len(ml)
    assert ok["rank_score"] == int((ml.scores > 10).sum()) + 1
    assert ok["leave"] == "" and ok["equity"] == 10.0
    blank = client.post("/api/score", json={"cgp": f"{EMPTY} AHS?/ 0/0 0", "move": "H8 HAuS"}).json()
    assert blank["legal"] and blank["score"] == 8 and blank["tiles"][2] == [9, 7, "U", True]
    bad = client.post("/api/score", json={"cgp": f"{EMPTY} AHSUX/ 0/0 0", "move": "8H HAUSX"}).json()
    assert set(bad) == {"legal", "reason"} and not bad["legal"] and "HAUSX is not in the word list" in bad["reason"]
    off = client.post("/api/score", json={"cgp": cgp, "move": "1A HAUS"}).json()
    assert not off["legal"] and "H8" in off["reason"]
    rack = client.post("/api/score", json={"cgp": cgp, "move": "8H HAUT"}).json()
    assert not rack["legal"] and "T" in rack["reason"]


# ---------------------------------------------------------------------------
# bad input: 4xx with a message, and the server goes on
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("body,status,fragment", [
    ({"cgp": "15/15 AB/ 0/0 0"}, 400, "das Brett hat 2 Zeilen"),  # German unless X-Lang: en
    ({"cgp": f"{EMPTY} ABCDEFGH/ 0/0 0"}, 400, "Bänkchen"),
    ({"cgp": "QQ13/15/15/15/15/15/15/15/15/15/15/15/15/15/15 A/ 0/0 0"}, 400, "mehr Q auf Brett"),
    ({"cgp": f"{EMPTY} A$/ 0/0 0"}, 400, "$"),
    ({"cgp": "x" * 2000}, 422, "cgp"),
    ({}, 422, "Feld cgp: fehlt"),
    ({"cgp": f"{EMPTY} A/ 0/0 0", "top": 0}, 422, "top"),
    ({"cgp": f"{EMPTY} A/ 0/0 0", "sort": "alpha"}, 422, "sort"),
])
def test_bad_requests_get_a_clear_4xx(client, body, status, fragment):
    r = client.post("/api/moves", json=body)
    assert r.status_code == status
    assert fragment in r.json()["error"]
    assert client.get("/api/rules").status_code == 200


def test_impossible_golden_study_position_is_refused_by_name(client):
    r = client.post("/api/position", json={"cgp": POSITIONS["p_ref3"]})
    assert r.status_code == 400 and "mehr L auf Brett" in r.json()["error"]
    assert "--allow-impossible" not in r.json()["error"]          # the page has no command line


def test_wrong_content_type_size_and_route(client):
    r = client.post("/api/moves", content=b"cgp=x", headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 415 and "JSON" in r.json()["error"]
    r = client.post("/api/moves", content=b"{" + b" " * (MAX_BODY_BYTES + 10) + b"}",
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 413
    r = client.post("/api/moves", content=b"{not json", headers={"Content-Type": "application/json"})
    assert r.status_code == 422
    r = client.get("/api/nothing")
    assert r.status_code == 404 and "error" in r.json()
    assert client.post("/api/score", json={"cgp": f"{EMPTY} A/ 0/0 0", "move": ""}).status_code == 400


def test_body_limit_holds_for_chunked_bodies_and_media_types_are_read_properly(client):
    def chunks():
        yield b'{"cgp": "'
        for _ in range(40):
            yield b"x" * 1024
        yield b'"}'

    r = client.post("/api/moves", content=chunks(), headers={"Content-Type": "application/json"})
    assert "content-length" not in r.request.headers  # really sent in chunks
    assert r.status_code == 413 and r.json()["error"] == ("Die Anfrage ist zu groß (höchstens 16384 Bytes); "
                                                          "nichts eingetragen")
    body = b'{"cgp": "%s A/ 0/0 0"}' % EMPTY.encode()
    assert client.post("/api/moves", content=body, headers={"Content-Type": "APPLICATION/JSON; charset=UTF-8"}
                       ).status_code == 200
    assert client.post("/api/moves", content=body, headers={"Content-Type": "text/json"}).status_code == 415
    r = client.post("/api/moves", content=b'{"cgp": ', headers={"Content-Type": "application/json"})
    assert r.status_code == 422 and r.json()["error"].startswith("Der Inhalt ist kein gültiges JSON")
    r = client.post("/api/moves", content=b'{"cgp": ', headers={"Content-Type": "application/json", "X-Lang": "en"})
    assert r.status_code == 422 and r.json()["error"].startswith("the body is not valid JSON")
    assert client.head("/").status_code == 200


def test_checker_without_a_rack_still_counts_the_set(client):
    # no rack: any tiles may be played, but the set has two blanks only
    r = client.post("/api/score", json={"cgp": f"{EMPTY} / 0/0 0", "move": "H8 haus"}).json()
    assert r == {"legal": False, "reason": "the move needs 4 × blank, but the set has 2"}
    q = client.post("/api/score", json={"cgp": "15/15/15/15/15/15/15/7QUIZ4/15/15/15/15/15/15/15 / 0/0 0",
                                        "move": "I7 Q(U)AL"}).json()   # QUAL down through QUIZ's U
    assert q == {"legal": False, "reason": "the move needs 1 × Q, but the set has 1 and 1 is on the board"}
    eight = client.post("/api/score", json={"cgp": f"{EMPTY} / 0/0 0", "move": "H8 XYLOPHON"}).json()
    assert eight == {"legal": False, "reason": "the move places 8 tiles; a rack holds 7"}
    ok = client.post("/api/score", json={"cgp": f"{EMPTY} / 0/0 0", "move": "H8 haUS"}).json()
    assert ok["legal"] and ok["score"] == 4 and "rank_score" not in ok  # (0 + 0 + 1 + 1) × 2 for the star


def test_no_event_means_no_projection(client):
    assert client.get("/api/rules").json()["director"] is False
    r = client.get("/api/director")
    assert r.status_code == 404 and "--event" in r.json()["error"]
    page = client.get("/director")
    assert page.status_code == 404 and "--event" in page.text and page.headers["content-type"].startswith("text/html")


def test_request_flood_is_limited_and_the_server_recovers(golden_lexicon):
    with TestClient(create_app(golden_lexicon, rate="5/second")) as c:
        codes = [c.get("/api/rules").status_code for _ in range(20)]
        assert codes[:5] == [200] * 5 and codes.count(429) == 15
        r = c.get("/api/rules")
        assert r.status_code == 429 and r.headers["Retry-After"] == "1"
        time.sleep(1.1)
        assert c.get("/api/rules").status_code == 200
        assert c.get("/").status_code == 200  # pages are not limited


def test_foreign_host_header_is_refused(golden_lexicon):
    with TestClient(create_app(golden_lexicon, allowed_hosts=["127.0.0.1", "localhost"]),
                    base_url="http://127.0.0.1") as c:
        assert c.get("/api/rules").status_code == 200
        assert c.get("/api/rules", headers={"Host": "attacker.example"}).status_code == 400


def test_page_and_static_files_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and 'id="board"' in page.text and "/static/app.js" in page.text
    assert client.get("/static/app.js").status_code == 200
    assert client.get("/static/app.css").status_code == 200


def test_cli_refuses_bad_options(capsys, tmp_path):
    from engine.cli.main import main

    assert main(["web", "--port", "70000"]) == 2
    assert "--port 70000" in capsys.readouterr().err
    assert main(["web", "--event", str(tmp_path)]) == 2
    assert "not a simultaneous event directory" in capsys.readouterr().err
    assert main(["web", "--rate", "lots"]) == 2
    assert "rate 'lots'" in capsys.readouterr().err
    assert main(["web", "--rate", "2/second"]) == 2
    assert "at least 5 requests" in capsys.readouterr().err
    assert main(["web", "--host", ""]) == 2
    assert "--host: give an address" in capsys.readouterr().err
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["web", "--port", str(port)]) == 2
    assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err


# ---------------------------------------------------------------------------
# paging, the score pad's checker, the score pad page
# ---------------------------------------------------------------------------
def test_moves_are_paged_with_offset_and_top(client, golden_lexicon):
    cgp = f"{EMPTY} AEHNRST/ 0/0 0"
    whole = client.post("/api/moves", json={"cgp": cgp}).json()
    page = client.post("/api/moves", json={"cgp": cgp, "offset": 40, "top": 25}).json()
    assert page["count"] == whole["count"] == len(whole["moves"]) > 65
    assert page["offset"] == 40 and whole["offset"] == 0
    assert [m["move"] for m in page["moves"]] == [m["move"] for m in whole["moves"][40:65]]
    assert page["moves"][0]["words"] is not None       # words for the first moves of each answer
    rest = client.post("/api/moves", json={"cgp": cgp, "offset": 60}).json()
    assert [m["move"] for m in rest["moves"]] == [m["move"] for m in whole["moves"][60:]]
    r = client.post("/api/moves", json={"cgp": cgp, "offset": -1})
    assert r.status_code == 422 and r.json()["error"] == "Feld offset: muss mindestens 0 sein"


def test_pad_scores_words_missing_from_the_list_and_together_scores_nothing(client):
    cgp = "15/15/15/15/15/15/15/7HAUS4/15/15/15/15/15/15/15 / 0/0 0"
    # HAUSER: not in the list, but scored (the table may agree on it): H2 A1 U1 S1, E1 × 2 on the
    # double letter L8, R1 on M8 = 8
    r = client.post("/api/pad", json={"cgp": cgp, "move": "8H HAUSER"}).json()
    assert r["legal"] and r["unknown"] == ["HAUSER"] and r["score"] == 8
    assert r["move"] == "8H (HAUS)ER" and sorted(t[1] for t in r["tiles"]) == [11, 12]
    # the whole word typed from K8 down, the S on the board: SEHR, E H R new, the R on the double
    # word K11: (1 + 1 + 2 + 1) × 2 = 10
    r = client.post("/api/pad", json={"cgp": cgp, "move": "K8 SEHR"}).json()
    assert r["legal"] and r["unknown"] == [] and r["words"] == [["SEHR", 10]] and r["score"] == 10
    t = client.post("/api/pad", json={"cgp": cgp, "move": "K8 SEHR", "together": True}).json()
    assert t["legal"] and t["score"] == 0 and t["words"] == [["SEHR", 0]]
    bad = client.post("/api/pad", json={"cgp": cgp, "move": "1A HAUS"}).json()
    assert bad == {"legal": False, "reason": "the move does not touch any tile on the board"}
    many = client.post("/api/pad", json={"cgp": f"{EMPTY} / 0/0 0", "move": "8D QUALQUAL"}).json()
    assert not many["legal"] and "8 tiles" in many["reason"]


def test_score_pad_page_and_favicon_are_served(client):
    r = client.get("/punkte")
    assert r.status_code == 200 and "Punkteblock" in r.text and "/static/pad.js" in r.text
    assert client.get("/static/i18n.js").status_code == 200
    f = client.get("/favicon.ico")
    assert f.status_code == 200 and f.headers["content-type"].startswith("image/svg+xml")


def test_word_lookup_normalises_like_the_list(client, golden_words_list):
    words = set(golden_words_list)
    assert "STRASSE" in words and "HAUS" in words and "HAUSER" not in words
    assert client.post("/api/word", json={"word": " straße "}).json() == {"word": "STRASSE", "valid": True}
    assert client.post("/api/word", json={"word": "Hauser"}).json() == {"word": "HAUSER", "valid": False}
    assert client.post("/api/word", json={"word": "x1"}).json() == {"word": None, "valid": False, "reason": "digit"}
    r = client.post("/api/word", json={"word": ""})
    assert r.status_code == 400 and "word" in r.json()["error"]
    assert client.post("/api/word", json={"word": "A" * 41}).status_code == 422
