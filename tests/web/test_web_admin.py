"""The director's arbitration screen's API (``/api/director/admin/*``, engine/web/admin.py) with the
test client: every action, every refusal (no key, wrong key, closed round, bad rack, a body too
large), the journal untouched by refusals, and the screen and the command line used alternately
on one event. Values are checked against the move generator on the round's position."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from engine.cli.main import main
from engine.director import SimultanRules
from engine.director.store import EventDir
from engine.movegen.generator import generate_moves
from engine.web.app import MAX_BODY_BYTES, create_app
from lexicon_tools.alphabet import german

A = german()
KEY = "test-director-key-7f3a"
H = {"X-Director-Key": KEY}
PLAYERS = ["Ana", "Ben", "Cal"]


@pytest.fixture
def event(tmp_path, golden_lexicon):
    rules = SimultanRules.for_alphabet(A, round_time=150)
    return EventDir.create(tmp_path / "club", PLAYERS, seed=1, rules=rules, lexicon=golden_lexicon,
                           lexicon_path=str(golden_lexicon.path), name="Club", export=False, notes=None)


@pytest.fixture
def client(event, golden_lexicon):
    return TestClient(create_app(golden_lexicon, event_dir=event.path, admin_key=KEY))


def journal(event) -> bytes:
    return event.journal.path.read_bytes()


def moves_of(event, lex):
    ev = EventDir(event.path, lex, notes=None, export=False).load()
    return ev, generate_moves(ev.board, ev.alphabet.parse_rack(ev.current.rack), lex).sorted()


ACTIONS = [("get", "state", None), ("post", "start", {"round": 1}),
           ("post", "submit", {"round": 1, "player": "Ana", "move": "8D KINDER"}),
           ("post", "close", {"round": 1}), ("post", "undo", {"expect": 2}), ("post", "export", {})]


@pytest.mark.parametrize("method, path, body", ACTIONS, ids=[a[1] for a in ACTIONS])
def test_no_key_or_a_wrong_key_is_refused_and_touches_nothing(client, event, method, path, body):
    before = journal(event)
    url = f"/api/director/admin/{path}"
    kw = {} if body is None else {"json": body}
    r = getattr(client, method)(url, **kw)
    assert r.status_code == 401 and "Schlüssel fehlt" in r.json()["error"]
    r = getattr(client, method)(url, headers={"X-Director-Key": KEY + "x"}, **kw)
    assert r.status_code == 403 and r.json()["error"] == "Falscher Schlüssel: nichts eingetragen"
    client.cookies.set("director_key", "guess")
    r = getattr(client, method)(url, **kw)
    assert r.status_code == 403
    client.cookies.clear()
    assert journal(event) == before
    assert not (event.path / "export").exists() or path != "export"


def test_the_key_as_a_cookie(client):
    client.cookies.set("director_key", KEY)
    r = client.get("/api/director/admin/state")
    assert r.status_code == 200 and r.json()["state"]["event"]["players"] == PLAYERS


def test_without_admin_the_screen_is_not_there(event, golden_lexicon):
    c = TestClient(create_app(golden_lexicon, event_dir=event.path))
    r = c.get("/api/director/admin/state", headers=H)
    assert r.status_code == 404 and "--admin" in r.json()["error"]
    before = journal(event)
    assert c.post("/api/director/admin/start", json={"round": 1}, headers=H).status_code == 404
    assert journal(event) == before


def test_admin_page_is_served(client):
    r = client.get("/director/admin")
    assert r.status_code == 200 and "Schiedsrichter" in r.text and "/static/admin.js" in r.text
    assert client.get("/static/admin.js").status_code == 200


def test_a_round_from_the_screen(client, event, golden_lexicon):
    ev, moves = moves_of(event, golden_lexicon)
    best = moves[0].score
    st = client.get("/api/director/admin/state", headers=H).json()["state"]
    cur = st["current"]
    assert cur["round"] == 1 and cur["rack"] == ev.current.rack and cur["started_at"] is None
    # seed 1 on the golden list: several moves tie for the top in round 1, all listed for the director
    tied = sorted(m.notation for m in moves if m.score == best)
    assert len(tied) > 1 and sorted(t["notation"] for t in cur["tops"]) == tied
    assert all(t["score"] == best for t in cur["tops"])
    # moves before the start are refused (nothing recorded)
    before = journal(event)
    r = client.post("/api/director/admin/submit", json={"round": 1, "player": "Ana", "move": tied[0]}, headers=H)
    assert r.status_code == 409 and r.json()["error"].startswith("Nicht möglich: ") and "nichts eingetragen" in r.json()["error"]
    assert journal(event) == before
    r = client.post("/api/director/admin/start", json={"round": 1}, headers=H)
    assert r.status_code == 200 and r.json()["state"]["current"]["started_at"] is not None
    assert client.post("/api/director/admin/start", json={"round": 1}, headers=H).status_code == 409
    # entries: a top move, a lower one, an invalid word, no move; points at once
    low = next(m for m in moves if m.score < best)
    r = client.post("/api/director/admin/submit", json={"round": 1, "player": "Ana", "move": tied[-1]}, headers=H)
    sub = r.json()["submission"]
    assert r.status_code == 200 and sub["valid"] and sub["score"] == best and sub["player"] == "Ana"
    assert sum(w[1] for w in sub["words"]) + (50 if len(tied[-1].split()[1]) == 7 else 0) == best
    r = client.post("/api/director/admin/submit", json={"round": 1, "player": "ben", "move": low.notation}, headers=H)
    assert r.json()["submission"]["score"] == low.score and r.json()["submission"]["player"] == "Ben"
    r = client.post("/api/director/admin/submit", json={"round": 1, "player": "Cal", "move": "-"}, headers=H)
    assert r.json()["submission"]["score"] == 0 and r.json()["submission"]["reason"] == "no move handed in"
    # an unreadable move or a letter not on the rack: 400, the reason, nothing recorded
    before = journal(event)
    for bad in ("8D", "Z9 HAUS", "8D QQQ"):
        r = client.post("/api/director/admin/submit", json={"round": 1, "player": "Cal", "move": bad}, headers=H)
        assert r.status_code == 400 and r.json()["error"].startswith("Abgelehnt: "), r.json()
    r = client.post("/api/director/admin/submit", json={"round": 1, "player": "Zoe", "move": "-"}, headers=H)
    assert r.status_code == 400 and "Unbekannter Spieler 'Zoe'" in r.json()["error"]
    r = client.post("/api/director/admin/submit", json={"round": 2, "player": "Cal", "move": "-"}, headers=H)
    assert r.status_code == 409 and "Runde 2 ist noch nicht offen" in r.json()["error"]
    assert journal(event) == before
    # a correction replaces the entry
    r = client.post("/api/director/admin/submit", json={"round": 1, "player": "Cal", "move": low.notation}, headers=H)
    st = r.json()["state"]
    assert st["current"]["submissions"]["Cal"]["score"] == low.score
    # close with the director's choice among the tied tops
    choice = next(t["notation"] for t in st["current"]["tops"][1:])
    r = client.post("/api/director/admin/close", json={"round": 1, "choose": "8D XYZ"}, headers=H)
    assert r.status_code == 400
    r = client.post("/api/director/admin/close", json={"round": 1, "choose": choice}, headers=H)
    assert r.status_code == 200 and r.json()["closed"] == {"round": 1, "top": choice, "score": best,
                                                           "chosen_by": "director"}
    st = r.json()["state"]
    assert st["current"]["round"] == 2 and st["master_total"] == best
    assert {s["player"]: s["total"] for s in st["standings"]} == {"Ana": best, "Ben": low.score, "Cal": low.score}
    assert st["standings"][0] == {**st["standings"][0], "player": "Ana", "rank": 1, "percent": 100.0}
    # the round is closed: a late entry for it is refused (409), the journal untouched
    before = journal(event)
    r = client.post("/api/director/admin/submit", json={"round": 1, "player": "Ben", "move": tied[0]}, headers=H)
    assert r.status_code == 409 and "Runde 1 ist geschlossen" in r.json()["error"]
    assert client.post("/api/director/admin/close", json={"round": 1}, headers=H).status_code == 409
    assert journal(event) == before
    # the CLI sees what the screen did
    cli = EventDir(event.path, golden_lexicon, notes=None, export=False).load()
    assert cli.closed_rounds[0].top.notation == choice and cli.closed_rounds[0].chosen_by == "director"


def test_undo_needs_the_entry_it_takes_back(client, event):
    client.post("/api/director/admin/start", json={"round": 1}, headers=H)
    st = client.get("/api/director/admin/state", headers=H).json()["state"]
    assert st["last_action"] == {"seq": 2, "what": "Start von Runde 1"}
    before = journal(event)
    r = client.post("/api/director/admin/undo", json={"expect": 1}, headers=H)
    assert r.status_code == 409 and "nicht Eintrag 1" in r.json()["error"]
    assert journal(event) == before
    r = client.post("/api/director/admin/undo", json={"expect": 2}, headers=H)
    assert r.status_code == 200 and r.json()["undone"] == {"seq": 2, "what": "Start von Runde 1"}
    assert r.json()["state"]["current"]["started_at"] is None and r.json()["state"]["last_action"] is None
    # the same undo again (a retried request) takes back nothing more
    before = journal(event)
    assert client.post("/api/director/admin/undo", json={"expect": 2}, headers=H).status_code == 409
    assert journal(event) == before


def test_bad_racks_and_large_bodies_are_refused(client, event):
    before = journal(event)
    for rack, words in (("BCDFGHK", "braucht mindestens 2 Vokale"), ("QQAEIRS", "2 × Q, der Satz hat nur 1"), ("AB", "braucht 7")):
        r = client.post("/api/director/admin/start", json={"round": 1, "rack": rack}, headers=H)
        assert r.status_code == 400 and words in r.json()["error"], r.json()
    big = json.dumps({"round": 1, "player": "Ana", "move": "x" * (MAX_BODY_BYTES + 10)})
    r = client.post("/api/director/admin/submit", content=big, headers={**H, "Content-Type": "application/json"})
    assert r.status_code == 413
    r = client.post("/api/director/admin/submit", json={"round": 1, "player": "Ana", "move": "8D " + "A" * 100},
                    headers=H)
    assert r.status_code == 422                       # longer than any move
    assert journal(event) == before
    r = client.post("/api/director/admin/start", json={"round": 1, "rack": "AEHNRST"}, headers=H)
    assert r.status_code == 200 and r.json()["state"]["current"]["rack"] == "AEHNRST"
    assert r.json()["state"]["current"]["rack_from"] == "bag"


def test_rate_limited(event, golden_lexicon):
    c = TestClient(create_app(golden_lexicon, event_dir=event.path, admin_key=KEY, rate="5/minute"))
    codes = [c.get("/api/director/admin/state", headers=H).status_code for _ in range(7)]
    assert codes[:5] == [200] * 5 and codes[5:] == [429, 429]


def test_screen_and_command_line_alternately(client, event, golden_lexicon, capsys):
    d = str(event.path)
    assert main(["simultan", "round", d, "--start"]) == 0                      # the CLI starts
    ev, moves = moves_of(event, golden_lexicon)
    r = client.post("/api/director/admin/submit", json={"round": 1, "player": "Ana", "move": moves[0].notation},
                    headers=H)
    assert r.status_code == 200                                                # the screen enters
    assert main(["simultan", "submit", d, "Ben", moves[3].notation]) == 0      # the CLI enters
    st = client.get("/api/director/admin/state", headers=H).json()["state"]
    assert st["current"]["submissions"]["Ben"]["score"] == moves[3].score
    assert client.post("/api/director/admin/close", json={"round": 1}, headers=H).status_code == 200
    capsys.readouterr()
    assert main(["simultan", "standings", d, "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    st = client.get("/api/director/admin/state", headers=H).json()["state"]
    assert cli["standings"] == st["standings"] and cli["master_total"] == st["master_total"]
    r = client.post("/api/director/admin/export", json={}, headers=H)
    assert r.status_code == 200 and "index.html" in r.json()["exported"]
    html = (event.path / "export" / "index.html").read_text(encoding="utf-8")
    assert "100,00\u00a0%" in html


def test_web_admin_needs_an_event(capsys):
    assert main(["web", "--admin"]) == 2
    assert "--admin needs --event DIR" in capsys.readouterr().err


def test_web_admin_prints_a_working_key_once(event, golden_lexicon):
    """``web --event DIR --admin`` as a process: the key it prints opens the screen's API."""
    import os
    import socket
    import subprocess
    import sys
    import time
    import urllib.request
    from pathlib import Path

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen([sys.executable, "-m", "engine", "web", "--event", str(event.path), "--admin",
                             "--port", str(port), "--lexicon", str(golden_lexicon.path), "--players-submit"], cwd=root,
                            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        lines = []
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            line = proc.stderr.readline()
            if not line:
                break
            lines.append(line)
            if line.startswith("director's key"):
                break
        key = lines[-1].rsplit(" ", 1)[1].strip()
        assert len(key) == 24 and f"/director/admin#key={key}" in "".join(lines)
        more = [proc.stderr.readline() for _ in range(4)]
        assert more[0].startswith("player links")
        ana = more[1].strip()
        assert ana.startswith(f"Ana: http://127.0.0.1:{port}/spieler#t=")
        token = ana.rsplit("#t=", 1)[1]
        for _ in range(200):   # until uvicorn listens
            try:
                req = urllib.request.Request(f"http://127.0.0.1:{port}/api/director/admin/state",
                                             headers={"X-Director-Key": key})
                with urllib.request.urlopen(req, timeout=5) as r:
                    assert json.load(r)["state"]["event"]["players"] == PLAYERS
                req = urllib.request.Request(f"http://127.0.0.1:{port}/api/player/state",
                                             headers={"X-Player-Token": token})
                with urllib.request.urlopen(req, timeout=5) as r:
                    assert json.load(r)["state"]["player"] == "Ana"
                break
            except (ConnectionError, urllib.error.URLError) as exc:
                if isinstance(exc, urllib.error.HTTPError):
                    raise
                time.sleep(0.1)
        else:
            raise AssertionError("the server did not answer")
        # neither the key nor a token is written anywhere in the event directory
        for secret in (key, token):
            assert not any(secret in p.read_text(errors="ignore") for p in event.path.rglob("*") if p.is_file())
    finally:
        proc.terminate()
        proc.wait(10)
        proc.stderr.close()
