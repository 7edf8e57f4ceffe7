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
        # the requests past the queue are refused at once, while the admitted ones still wait
        for t in threads:
            t.join(timeout=0.05)
        deadline = 600                       # at most 30 s
        while deadline and sum(1 for r in results if r[1] == 503) < n - 4:
            deadline -= 1
            threads[0].join(timeout=0.05)
        refused = [r for r in results if r[1] == 503]
        assert len(refused) == n - 4 and all(r[2].get("retry-after") == "1" for r in refused)
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
    assert sorted(r[1] for r in results) == [200] * 4 + [503] * (n - 4)


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
