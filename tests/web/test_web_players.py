"""Players submitting from their phones (``--players-submit``, engine/web/players.py): tokens
random and stored hashed, forged or revoked tokens refused, nobody submits for another or sees
the top move before the close, only open rounds take moves, the latest counts; and 50 phones
submitting against a real uvicorn on loopback while the director closes the round."""

from __future__ import annotations

import hashlib
import json
import threading
import urllib.error
import urllib.request

import pytest
from fastapi.testclient import TestClient

from engine.director import SimultanRules
from engine.director.store import EventDir
from engine.movegen.generator import generate_moves
from engine.web.app import create_app
from engine.web.players import TOKENS_FILE
from lexicon_tools.alphabet import german

A = german()
KEY = "admin-key-for-player-tests"
PLAYERS = ["Ana", "Ben", "Cal"]


@pytest.fixture
def event(tmp_path, golden_lexicon):
    return EventDir.create(tmp_path / "club", PLAYERS, seed=42, lexicon=golden_lexicon, name="Club",
                           rules=SimultanRules.for_alphabet(A, round_time=150), export=False, notes=None)


@pytest.fixture
def app(event, golden_lexicon):
    return create_app(golden_lexicon, event_dir=event.path, admin_key=KEY, players_submit=True)


def T(token: str) -> dict:
    return {"X-Player-Token": token}


def journal(event) -> bytes:
    return event.journal.path.read_bytes()


def test_tokens_are_random_and_stored_hashed(app, event, golden_lexicon):
    links = app.state.player_links
    assert set(links) == set(PLAYERS) and len(set(links.values())) == 3
    assert all(len(t) == 24 for t in links.values())
    text = (event.path / TOKENS_FILE).read_text(encoding="utf-8")
    stored = json.loads(text)["players"]
    assert stored == {p: hashlib.sha256(t.encode()).hexdigest() for p, t in links.items()}
    assert not any(t in text for t in links.values())
    # a restart keeps the links; --new-player-links revokes them
    again = create_app(golden_lexicon, event_dir=event.path, players_submit=True)
    assert again.state.player_links is None
    c = TestClient(again)
    assert c.get("/api/player/state", headers=T(links["Ana"])).json()["state"]["player"] == "Ana"
    renewed = create_app(golden_lexicon, event_dir=event.path, players_submit=True, new_player_links=True)
    c = TestClient(renewed)
    assert c.get("/api/player/state", headers=T(links["Ana"])).status_code == 403
    assert c.get("/api/player/state", headers=T(renewed.state.player_links["Ana"])).status_code == 200
    # the director's screen lists the links made at this start
    st = TestClient(app).get("/api/director/admin/state", headers={"X-Director-Key": KEY}).json()["state"]
    assert {p: v["url"] for p, v in st["player_links"].items()} == {p: f"http://testserver/spieler#t={t}"
                                                                    for p, t in links.items()}
    assert all(v["qr"].startswith("<svg") for v in st["player_links"].values())
    qrs = [v["qr"] for v in st["player_links"].values()]
    assert len(set(qrs)) == 3 and all("<path" in q for q in qrs)   # one code per player


def test_forged_tokens_and_closed_rounds_are_refused(app, event, golden_lexicon):
    c = TestClient(app)
    links = app.state.player_links
    before = journal(event)
    body = {"round": 1, "move": "-"}
    r = c.post("/api/player/submit", json=body)
    assert r.status_code == 401 and "persönlichen Link" in r.json()["error"]
    for forged in (links["Ana"][:-1] + ("A" if links["Ana"][-1] != "A" else "B"), "x" * 24, "y" * 500, KEY):
        r = c.post("/api/player/submit", json=body, headers=T(forged))
        assert r.status_code == 403 and "nichts eingetragen" in r.json()["error"]
    # the round has not started: nothing is taken, the rack is not shown
    r = c.post("/api/player/submit", json=body, headers=T(links["Ana"]))
    assert r.status_code == 409 and r.json()["error"].startswith("Nicht mehr möglich")
    st = c.get("/api/player/state", headers=T(links["Ana"])).json()["state"]
    assert st["current"] == {"round": 1, "started": False, "rack": "", "seconds": None, "mine": None}
    assert journal(event) == before
    assert c.get("/spieler").status_code == 200 and "/static/player.js" in c.get("/spieler").text


def test_a_round_from_the_phones(app, event, golden_lexicon):
    c = TestClient(app)
    links = app.state.player_links
    event.start()
    ev = event.load()
    moves = generate_moves(ev.board, A.parse_rack(ev.current.rack), golden_lexicon).sorted()
    top = ev.current.tops[0]
    low, lower = [m for m in moves if m.score < top.score][:2]
    # Ana's phone says it is Ben: the token decides, the entry is Ana's
    r = c.post("/api/player/submit", json={"round": 1, "move": lower.notation, "player": "Ben"},
               headers=T(links["Ana"]))
    assert r.status_code == 200 and r.json()["received"] == {"round": 1, "move": lower.notation}
    ev = event.load()
    assert set(ev.current.submissions) == {"Ana"}
    # received, but no points, no word check and no top move before the close
    text = json.dumps(r.json())
    assert "score" not in text and "valid" not in text and top.notation not in text
    r = c.post("/api/player/submit", json={"round": 1, "move": low.notation}, headers=T(links["Ana"]))
    assert r.status_code == 200                                   # the latest counts
    r = c.post("/api/player/submit", json={"round": 1, "move": top.notation}, headers=T(links["Ben"]))
    st = c.get("/api/player/state", headers=T(links["Cal"])).json()["state"]
    assert low.notation not in json.dumps(st) and top.notation not in json.dumps(st)   # nobody else's moves
    assert st["current"]["rack"] == ev.current.rack and st["current"]["mine"] is None
    r = c.post("/api/player/submit", json={"round": 1, "move": "8D"}, headers=T(links["Cal"]))
    assert r.status_code == 400 and r.json()["error"].startswith("Nicht lesbar")
    event.close()
    # after the close: points, the top move, total and place
    st = c.get("/api/player/state", headers=T(links["Ana"])).json()["state"]
    assert st["last"]["points"] == low.score and st["last"]["top"] == top.notation
    assert st["total"] == low.score and st["rank"] == 2
    assert st["percent"] == round(100 * low.score / top.score, 2)
    before = journal(event)
    r = c.post("/api/player/submit", json={"round": 1, "move": top.notation}, headers=T(links["Cal"]))
    assert r.status_code == 409 and "Runde 1 ist geschlossen" in r.json()["error"]
    assert journal(event) == before


def test_fifty_phones_while_the_director_closes(tmp_path, golden_lexicon):
    """50 threads submit at once against uvicorn on loopback while the round is closed: every
    accepted submission is in the closed round, every refused one (409) is not, none twice."""
    from engine.web.cli import background_server

    players = [f"S{i:02d}" for i in range(50)]
    d = EventDir.create(tmp_path / "big", players, seed=9, lexicon=golden_lexicon,
                        rules=SimultanRules.for_alphabet(A, round_time=600), export=False, notes=None)
    d.start()
    ev = d.load()
    moves = generate_moves(ev.board, A.parse_rack(ev.current.rack), golden_lexicon).sorted()
    app = create_app(golden_lexicon, event_dir=d.path, players_submit=True, rate="10000/second")
    links = app.state.player_links
    results: dict[str, int] = {}
    barrier = threading.Barrier(51)

    with background_server(app) as url:
        def phone(i, p):
            body = json.dumps({"round": 1, "move": moves[i % len(moves)].notation}).encode()
            req = urllib.request.Request(url + "/api/player/submit", data=body, method="POST",
                                         headers={**T(links[p]), "Content-Type": "application/json"})
            barrier.wait()
            try:
                with urllib.request.urlopen(req, timeout=60) as r:
                    results[p] = r.status
            except urllib.error.HTTPError as exc:
                results[p] = exc.code

        threads = [threading.Thread(target=phone, args=(i, p)) for i, p in enumerate(players)]
        for t in threads:
            t.start()
        barrier.wait()
        closer = EventDir(d.path, golden_lexicon, notes=None, export=False)
        closer.close(expect_round=1)
        for t in threads:
            t.join(90)
    assert set(results) == set(players) and set(results.values()) <= {200, 409}
    final = EventDir(d.path, golden_lexicon, notes=None, export=False).load()
    rnd = final.closed_rounds[0]
    accepted = {p for p, s in results.items() if s == 200}
    assert set(rnd.submissions) == accepted
    subs = [r for r in d.journal.read() if r["type"] == "submit"]
    assert len(subs) == len(accepted) and len({r["player"] for r in subs}) == len(subs)   # none lost or twice
    for i, p in enumerate(players):
        if p in accepted:
            assert rnd.scores[p] == moves[i % len(moves)].score
