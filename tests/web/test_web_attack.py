"""An attacker on loopback against a real uvicorn (issue 15, "Bad input and security"): forged and
reused player tokens, a submission after the close, director actions without or with a wrong
secret, a flood from one client (from another loopback address), a 10 MB body. Each is refused with its status and a German
message, and the event's journal keeps its bytes."""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.request
from urllib.parse import urlparse

from engine.director import SimultanRules
from engine.director.store import EventDir
from engine.movegen.generator import generate_moves
from engine.web.app import create_app
from engine.web.players import player_tokens
from lexicon_tools.alphabet import german

A = german()
KEY = "attack-director-key-93"


def call(url, path, body=None, headers=None):
    data = None if body is None else json.dumps(body).encode()
    h = dict(headers or {})
    if data is not None:
        h["Content-Type"] = "application/json"
    req = urllib.request.Request(url + path, data=data, method="GET" if data is None else "POST", headers=h)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def flood(url, path, headers, n, source):
    """``n`` GET requests in a row on one keep-alive connection from the address ``source``."""
    import http.client

    u = urlparse(url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=30, source_address=(source, 0))
    out = []
    try:
        for _ in range(n):
            conn.request("GET", path, headers=headers)
            r = conn.getresponse()
            out.append((r.status, json.loads(r.read())))
    finally:
        conn.close()
    return out


def huge_post(url, path, size):
    """POST a body of ``size`` bytes on a raw socket; the status line and the JSON answer."""
    u = urlparse(url)
    with socket.create_connection((u.hostname, u.port), timeout=30) as s:
        s.sendall(f"POST {path} HTTP/1.1\r\nHost: {u.netloc}\r\nContent-Type: application/json\r\n"
                  f"Content-Length: {size}\r\n\r\n".encode())
        try:
            chunk = b" " * 65536
            for _ in range(size // len(chunk)):
                s.sendall(chunk)
        except OSError:  # the server answered and closed without reading it all
            pass
        data = b""
        while b"\r\n\r\n" not in data or not data.rstrip().endswith(b"}"):
            part = s.recv(65536)
            if not part:
                break
            data += part
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body[body.index(b"{"):])


def test_attacker_loop_on_loopback(tmp_path, golden_lexicon):
    from engine.web.cli import background_server

    players = ["Ana", "Ben"]
    d = EventDir.create(tmp_path / "club", players, seed=1, lexicon=golden_lexicon, export=False, notes=None,
                        rules=SimultanRules.for_alphabet(A, round_time=600))
    old = player_tokens(d.path, players)[1]            # the links of an earlier start
    app = create_app(golden_lexicon, event_dir=d.path, admin_key=KEY, players_submit=True,
                     new_player_links=True, rate="30/minute")
    links = app.state.player_links
    d.start()
    ev = d.load()
    move = generate_moves(ev.board, A.parse_rack(ev.current.rack), golden_lexicon).sorted()[0].notation
    journal = d.journal.path
    with background_server(app) as url:
        status, body = call(url, "/api/player/submit", {"round": 1, "move": move}, {"X-Player-Token": links["Ana"]})
        assert status == 200 and body["received"]["move"] == move
        before = journal.read_bytes()
        forged = links["Ben"][:-2] + ("AA" if not links["Ben"].endswith("AA") else "BB")
        attacks = [
            ("/api/player/submit", {"round": 1, "move": move}, {"X-Player-Token": forged}, 403,
             "Unbekannter oder ungültiger Spieler-Link: nichts eingetragen"),
            ("/api/player/submit", {"round": 1, "move": move}, {"X-Player-Token": old["Ben"]}, 403,
             "Unbekannter oder ungültiger Spieler-Link: nichts eingetragen"),
            ("/api/player/submit", {"round": 1, "move": move, "player": "Ben"}, {}, 401, "Kein Spieler-Link"),
            ("/api/director/admin/close", {"round": 1}, {}, 401, "Schlüssel fehlt"),
            ("/api/director/admin/close", {"round": 1}, {"X-Director-Key": KEY[:-1]}, 403, "Falscher Schlüssel"),
            ("/api/director/admin/penalty", {"player": "Ben", "points": 50}, {"X-Director-Key": old["Ana"]}, 403,
             "Falscher Schlüssel"),
            ("/api/director/admin/submit", {"round": 1, "player": "Ben", "move": move},
             {"X-Player-Token": links["Ben"]}, 401, "Schlüssel fehlt"),
        ]
        for path, payload, headers, want, text in attacks:
            status, body = call(url, path, payload, headers)
            assert status == want and body["error"].startswith(text), (path, status, body)
            assert journal.read_bytes() == before
        status, body = huge_post(url, "/api/player/submit", 10 * 1024 * 1024)
        assert status == 413 and body["error"].startswith("Die Anfrage ist zu groß (höchstens 16384 Bytes)")
        assert journal.read_bytes() == before

        # a flood from one phone (another loopback address, so the limit is its own): 30 a minute pass
        codes = flood(url, "/api/player/state", {"X-Player-Token": links["Ben"]}, 60, source="127.0.0.2")
        assert [s for s, _ in codes] == [200] * 30 + [429] * 30
        assert {b["error"] for s, b in codes if s == 429} == {
            "Zu viele Anfragen von dieser Adresse: kurz warten und noch einmal versuchen"}
        assert journal.read_bytes() == before
        # ... while the director (127.0.0.1) is still served
        status, _ = call(url, "/api/director/admin/close", {"round": 1}, {"X-Director-Key": KEY})
        assert status == 200
        after_close = journal.read_bytes()
        status, body = call(url, "/api/player/submit", {"round": 1, "move": move}, {"X-Player-Token": links["Ben"]})
        assert status == 409 and body["error"].startswith("Nicht mehr möglich: Runde 1 ist geschlossen")
        assert journal.read_bytes() == after_close
    final = EventDir(d.path, golden_lexicon, notes=None, export=False).load()
    assert set(final.closed_rounds[0].submissions) == {"Ana"}
