"""Issue 17, web items: analysis cannot stall the cheap routes, the rate limit cannot be
sidestepped with X-Forwarded-For, slow and idle connections are dropped, and the error
contract (422 for bodies that are not UTF-8 JSON, 405 with Allow, 400 in the schema).

The load tests run a real uvicorn on 127.0.0.1 (engine.web.cli.background_server, configured
as `python -m engine web` is); every loop is bounded and stops itself."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from urllib.parse import urlsplit

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from engine.director.store import EventDir  # noqa: E402
from engine.web import api  # noqa: E402
from engine.web.app import create_app  # noqa: E402
from engine.web.cli import background_server  # noqa: E402
from engine.web.server import MAX_JSON_DEPTH, json_problem  # noqa: E402

EMPTY = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15"
POSITION = f"{EMPTY} AEINRST/ 0/0 0"


def request(url: str, method: str = "GET", path: str = "/", body: dict | None = None, headers=None,
            timeout: float = 30.0) -> tuple[int, dict, bytes]:
    """One request on its own connection: (status, headers lower-cased, body)."""
    u = urlsplit(url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=timeout)
    try:
        data = None if body is None else json.dumps(body).encode()
        hdrs = dict(headers or {})
        if data is not None:
            hdrs["Content-Type"] = "application/json"
        conn.request(method, path, body=data, headers=hdrs)
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


@pytest.fixture(scope="module")
def event_dir(tmp_path_factory, golden_lexicon):
    path = tmp_path_factory.mktemp("web-robust") / "club"
    EventDir.create(path, ["Ana", "Ben"], seed=42, lexicon=golden_lexicon, export=False, notes=None)
    return path


# ---------------------------------------------------------------------------
# B. analysis in a bounded pool: the cheap routes always answer
# ---------------------------------------------------------------------------
def test_heavy_flood_does_not_stall_cheap_routes(golden_lexicon, event_dir, monkeypatch):
    app = create_app(golden_lexicon, event_dir=event_dir, rate="1000/second", heavy_workers=1, heavy_queue=4)
    release = threading.Event()
    started = threading.Semaphore(0)
    real = api.moves_json

    def slow_moves(*a, **k):                  # analysis that takes until the test lets it finish
        started.release()
        release.wait(60)
        return real(*a, **k)

    monkeypatch.setattr(api, "moves_json", slow_moves)
    n = 30
    results: list[tuple[str, int, dict]] = []
    lock = threading.Lock()
    with background_server(app) as url:
        def heavy():
            status, headers, _ = request(url, "POST", "/api/moves", {"cgp": POSITION, "top": 3})
            with lock:
                results.append(("heavy", status, headers))

        threads = [threading.Thread(target=heavy, daemon=True) for _ in range(n)]
        for t in threads:
            t.start()
        assert started.acquire(timeout=30)   # one analysis is running (and blocked)
        # the requests past the client's share (a quarter of the queue: 1) are refused at once
        for t in threads:
            t.join(timeout=0.05)
        deadline = 600                       # at most 30 s
        while deadline and sum(1 for r in results if r[1] == 503) < n - 1:
            deadline -= 1
            threads[0].join(timeout=0.05)
        refused = [r for r in results if r[1] == 503]
        assert len(refused) == n - 1 and all(r[2].get("retry-after") == "1" for r in refused)
        # cheap routes answer while every admitted analysis is still blocked
        status, _h, body = request(url, "GET", "/api/director", timeout=10)
        assert status == 200 and json.loads(body)["current"]["round"] == 1
        status, _h, body = request(url, "POST", "/api/position", {"cgp": POSITION}, timeout=10)
        assert status == 200
        status, _h, _b = request(url, "GET", "/static/app.js", timeout=10)
        assert status == 200
        status, _h, _b = request(url, "GET", "/", timeout=10)
        assert status == 200
        assert not [r for r in results if r[1] == 200]          # ... before any analysis finished
        release.set()
        for t in threads:
            t.join(timeout=60)
    assert sorted(r[1] for r in results) == [200] + [503] * (n - 1)   # one address: its share (queue 4 // 4)


# ---------------------------------------------------------------------------
# B. X-Forwarded-For is believed only with --trust-proxy
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("trust", [None, "127.0.0.1"])
def test_rate_limit_cannot_be_sidestepped_with_forwarded_headers(golden_lexicon, trust):
    app = create_app(golden_lexicon, rate="5/minute")
    with background_server(app, trust_proxy=trust) as url:
        codes = [request(url, "GET", "/api/rules", headers={"X-Forwarded-For": f"203.0.113.{i}"})[0]
                 for i in range(1, 8)]
    if trust is None:       # every request counts against the connection's address
        assert codes == [200] * 5 + [429] * 2
    else:                   # behind a trusted proxy each forwarded address has its own limit
        assert codes == [200] * 7


def test_trust_proxy_option_is_checked(capsys):
    from engine.cli.main import main

    assert main(["web", "--trust-proxy", "not-an-address", "--port", "1"]) == 2
    err = capsys.readouterr().err
    assert "--trust-proxy 'not-an-address'" in err and "Traceback" not in err


# ---------------------------------------------------------------------------
# B. slow and idle connections are closed
# ---------------------------------------------------------------------------
def _closed(sock: socket.socket, wait: float) -> bool:
    """True when the server has closed the connection (waits up to ``wait`` seconds for it)."""
    sock.settimeout(wait)
    try:
        data = sock.recv(4096)
    except socket.timeout:
        return False
    except OSError:
        return True
    if data:  # an answer (e.g. 408/400) followed by the close
        try:
            return sock.recv(4096) == b""
        except OSError:
            return True
    return True


def test_slow_loris_and_idle_connections_are_dropped(golden_lexicon):
    app = create_app(golden_lexicon, rate="1000/second")
    with background_server(app, request_timeout=2.0, keep_alive=1) as url:
        u = urlsplit(url)
        loris = [socket.create_connection((u.hostname, u.port), timeout=5) for _ in range(10)]
        idle = socket.create_connection((u.hostname, u.port), timeout=5)
        head = b"GET /api/rules HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 1000
        sent = [0] * len(loris)
        open_ = set(range(len(loris)))
        for _step in range(80):                # at most 80 x 0.25 s; the server must end it first
            for i in list(open_):
                try:
                    loris[i].sendall(head[sent[i]:sent[i] + 1])   # one header byte at a time
                    sent[i] += 1
                except OSError:
                    open_.discard(i)
                    continue
                if _closed(loris[i], 0.025):
                    open_.discard(i)
            if not open_:
                break
        assert not open_, f"{len(open_)} slow connections still open"
        assert max(sent) >= 2                  # they were let in for a while, not refused outright
        assert _closed(idle, 10.0)             # a connection that never sends is dropped as well
        # a client that sends its request normally is served, and its idle keep-alive connection closed
        conn = socket.create_connection((u.hostname, u.port), timeout=5)
        conn.sendall(b"GET /api/rules HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        conn.settimeout(10)
        first = conn.recv(65536)
        assert first.startswith(b"HTTP/1.1 200")
        closed = False
        for _ in range(200):                   # read the rest of the answer until the server closes
            try:
                chunk = conn.recv(65536)
            except socket.timeout:
                break
            if not chunk:
                closed = True
                break
        assert closed
        for s in loris + [idle, conn]:
            s.close()


def _get_from(u, source: str) -> bytes:
    """The first bytes of the answer to ``GET /api/rules`` sent from the loopback address ``source``."""
    with socket.create_connection((u.hostname, u.port), timeout=10, source_address=(source, 0)) as c:
        c.sendall(b"GET /api/rules HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        return c.recv(64)


def test_one_address_cannot_hold_every_connection(golden_lexicon):
    # report-attack26l: 205 connections from 127.0.0.2, each sending its request slowly and opened again when
    # closed, kept every other address at 503 (the server's 200 connections were all 127.0.0.2's)
    app = create_app(golden_lexicon, rate="1000/second")
    with background_server(app, request_timeout=30.0, max_connections=12, max_per_address=4) as url:
        u = urlsplit(url)
        held = [socket.create_connection((u.hostname, u.port), timeout=5, source_address=("127.0.0.2", 0))
                for _ in range(4)]
        for h in held:
            h.sendall(b"GET /api/rules HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a")   # never finished
        assert not any(_closed(h, 0.3) for h in held)          # its first 4 stay open
        for _ in range(3):                                     # more from it: 503 at once, and closed
            with socket.create_connection((u.hostname, u.port), timeout=5, source_address=("127.0.0.2", 0)) as c:
                c.settimeout(5)
                assert c.recv(64).startswith(b"HTTP/1.1 503 ")
        assert _get_from(u, "127.0.0.3").startswith(b"HTTP/1.1 200")   # another address is served
        held.pop().close()
        for _ in range(50):                                    # the server sees the close within moments
            if _get_from(u, "127.0.0.2").startswith(b"HTTP/1.1 200"):
                break
            time.sleep(0.1)
        else:
            raise AssertionError("127.0.0.2 not served after one of its connections closed")
        for h in held:
            h.close()
    # a trusted proxy's connections are every visitor's: not capped
    with background_server(app, request_timeout=30.0, max_per_address=2, trust_proxy="127.0.0.2") as url:
        u = urlsplit(url)
        held = [socket.create_connection((u.hostname, u.port), timeout=5, source_address=("127.0.0.2", 0))
                for _ in range(3)]
        assert _get_from(u, "127.0.0.2").startswith(b"HTTP/1.1 200")
        for h in held:
            h.close()


# ---------------------------------------------------------------------------
# 9. the error contract
# ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def client(golden_lexicon):
    with TestClient(create_app(golden_lexicon, rate="1000/second")) as c:
        yield c


@pytest.mark.parametrize("body, message", [
    (b'{"cgp": "' + b"\xff\xfe" + b'"}', "the body is not valid UTF-8 (byte 9)"),
    (b'{"cgp": ' + b"[" * 40 + b"]" * 40 + b"}", f"nested too deeply (at most {MAX_JSON_DEPTH} levels)"),
    (b"[" * 5000 + b"]" * 5000, f"nested too deeply (at most {MAX_JSON_DEPTH} levels)"),
    (b'{"cgp": "15/15"', "the body is not valid JSON"),
])
def test_bodies_that_are_not_json_get_422(client, body, message):
    for route in ("/api/moves", "/api/position", "/api/score"):
        r = client.post(route, content=body, headers={"Content-Type": "application/json", "X-Lang": "en"})
        assert r.status_code == 422 and message in r.json()["error"], (route, r.text)


@pytest.mark.parametrize("body, message", [
    (b'{"cgp": "' + b"\xff\xfe" + b'"}', "Der Inhalt ist kein gültiges UTF-8 (Byte 9)"),
    (b"[" * 5000 + b"]" * 5000, f"Der Inhalt ist zu tief verschachtelt (höchstens {MAX_JSON_DEPTH} Ebenen)"),
    (b'{"cgp": "15/15"', "Der Inhalt ist kein gültiges JSON"),
])
def test_bodies_that_are_not_json_get_422_in_german_by_default(client, body, message):
    r = client.post("/api/moves", content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == 422 and r.json()["error"].startswith(message), r.text


def test_json_problem_by_hand():
    assert json_problem(b'{"cgp": "x"}') is None
    assert json_problem(b"") is None
    nested = b"[" * MAX_JSON_DEPTH + b"]" * MAX_JSON_DEPTH
    assert json_problem(nested) is None and "nested" in json_problem(b"[" + nested + b"]")
    assert "UTF-8 (byte 0)" in json_problem(b"\xc3(")


@pytest.mark.parametrize("path, allow", [("/api/moves", "POST"), ("/api/director", "GET"), ("/", "GET, HEAD"),
                                         ("/static/app.js", "GET, HEAD")])
def test_trace_gets_405_with_allow(client, path, allow):
    r = client.request("TRACE", path)
    assert r.status_code == 405 and "error" in r.json()
    assert {m.strip() for m in r.headers["allow"].split(",")} == set(allow.split(", "))


def test_openapi_lists_the_error_codes(client):
    paths = client.get("/openapi.json").json()["paths"]
    for route in ("/api/moves", "/api/position", "/api/score"):
        codes = set(paths[route]["post"]["responses"])
        assert {"200", "400", "413", "415", "422", "429", "503"} <= codes, route
        assert paths[route]["post"]["responses"]["400"]["content"]["application/json"]["schema"]
    assert {"400", "404", "503"} <= set(paths["/api/director"]["get"]["responses"])


def test_oversized_headers_get_431(client):
    r = client.get("/api/rules", headers={"X-Big": "a" * 20_000})
    assert r.status_code == 431 and r.json()["error"] == ("Die Kopfzeilen der Anfrage sind zu groß "
                                                          "(höchstens 16384 Bytes)")
    r = client.get("/api/rules", headers={"X-Big": "a" * 20_000, "X-Lang": "en"})
    assert r.status_code == 431 and "headers too large" in r.json()["error"]
    assert client.get("/api/rules", headers={"X-Fine": "a" * 1000}).status_code == 200


# ---------------------------------------------------------------------------
# issue 26.8: strict JSON field types, refused with the field's name
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("path, body, message", [
    ("/api/moves", {"cgp": POSITION, "top": True}, "Feld top: keine ganze Zahl"),
    ("/api/moves", {"cgp": POSITION, "top": 2.0}, "Feld top: keine ganze Zahl"),
    ("/api/moves", {"cgp": POSITION, "offset": "3"}, "Feld offset: keine ganze Zahl"),
    ("/api/pad", {"cgp": POSITION, "move": "8H NASTIER", "together": "yes"}, "Feld together: nicht true oder false"),
    ("/api/pad", {"cgp": POSITION, "move": "8H NASTIER", "together": 1}, "Feld together: nicht true oder false"),
    ("/api/score", {"cgp": POSITION, "move": 8}, "Feld move: kein Text"),
    ("/api/word", {"word": ["HAUS"]}, "Feld word: kein Text"),
    ("/api/position", {"cgp": 5}, "Feld cgp: kein Text"),
    ("/api/deep", {"cgp": POSITION, "seconds": "3"}, "Feld seconds: keine Zahl"),
    ("/api/deep", {"cgp": POSITION, "seconds": True}, "Feld seconds: keine Zahl"),
    ("/api/deep", {"cgp": POSITION, "include": [1]}, "Feld include.0: kein Text"),
    ("/api/deep", {"cgp": POSITION, "last_move": 3}, "Feld last_move: kein Text"),
])
def test_wrong_json_types_are_refused_with_the_fields_name(client, path, body, message):
    r = client.post(path, json=body)
    assert r.status_code == 422 and r.json()["error"] == message


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity"])
def test_seconds_not_a_finite_number_is_refused_as_such(client, value):
    body = ('{"cgp": "%s", "seconds": %s}' % (POSITION, value)).encode()
    r = client.post("/api/deep", content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == 422
    assert r.json()["error"] == "Feld seconds: keine endliche Zahl"     # NaN was "at most 20.0"
