"""Issue 26.3: one client cannot keep everyone else out. The analysis pool and the deep-analysis slot
are shared fairly between client addresses, the full move list is paged, and the work of a client
that went away is dropped (waiting) or stopped (the deep analysis).

Order, not time: every wait below is for an event, with a generous timeout, never a timing assertion.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
from concurrent.futures import Future
from urllib.parse import urlsplit

import pytest

from engine.web import api
from engine.web.app import create_app
from engine.web.cli import background_server
from engine.web.deep import DeepWorker
from engine.web.server import Busy, Gone, HeavyPool

EMPTY = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15"
POSITION = f"{EMPTY} AEINRST/ 0/0 0"


def wait_until(cond, timeout: float = 30.0) -> bool:
    ev = threading.Event()
    for _ in range(int(timeout / 0.05)):
        if cond():
            return True
        ev.wait(0.05)
    return cond()


# ---------------------------------------------------------------------------
# the analysis pool: fair turns, a share per client, dropped when the client went away
# ---------------------------------------------------------------------------
async def _held_pool(pool):
    """Client A's job "A1" holds ``pool``'s one worker until ``gate`` is set; returns ``(job, gate, order, a1)``:
    the job function (records the names run, in ``order``) and A1's future, once A1 runs."""
    started, gate, order = threading.Event(), threading.Event(), []

    def job(name):
        if name == "A1":
            started.set()
            gate.wait(30)
        order.append(name)
        return name

    a1 = asyncio.ensure_future(pool.run(job, "A1", client="A"))
    while not started.is_set():
        await asyncio.sleep(0.01)
    return job, gate, order, a1


def test_pool_serves_the_waiting_client_served_longest_ago_first():
    async def scenario():
        pool = HeavyPool(workers=1, queue=8, per_client=3)
        job, gate, order, a1 = await _held_pool(pool)
        rest = [asyncio.ensure_future(pool.run(job, n, client=c)) for n, c in (("A2", "A"), ("A3", "A"))]
        await asyncio.sleep(0)
        with pytest.raises(Busy, match="3 of your analyses"):   # A's share is full ...
            await pool.run(job, "A4", client="A")
        b1 = asyncio.ensure_future(pool.run(job, "B1", client="B"))  # ... B still gets in
        c1 = asyncio.ensure_future(pool.run(job, "C1", client="C"))
        await asyncio.sleep(0)
        c1.cancel()                                                   # C went away before its turn
        await asyncio.wait({c1})
        assert c1.cancelled() and pool.admitted == 4
        gate.set()
        assert await asyncio.gather(a1, *rest, b1) == ["A1", "A2", "A3", "B1"]
        pool.shutdown()
        return order, pool.admitted

    order, admitted = asyncio.run(scenario())
    assert order == ["A1", "B1", "A2", "A3"]   # B, never served, goes before A's second job; C never ran
    assert admitted == 0


def test_a_full_queue_makes_room_for_a_newcomer_from_the_biggest_holder():
    # report-attack26g D1: a few addresses, each within its share, filled the queue and kept a player out (503)
    # for as long as they kept sending. A newcomer now turns away the newest waiting job of the client holding
    # at least two more admissions than it does; clients holding equal shares keep them
    async def scenario():
        pool = HeavyPool(workers=1, queue=4, per_client=2)
        job, gate, order, a1 = await _held_pool(pool)
        a2 = asyncio.ensure_future(pool.run(job, "A2", client="A"))
        b = [asyncio.ensure_future(pool.run(job, n, client="B")) for n in ("B1", "B2")]
        await asyncio.sleep(0)
        assert pool.admitted == 4                                        # full: A 2 (one running), B 2
        c1 = asyncio.ensure_future(pool.run(job, "C1", client="C"))       # C gets in: B's newest is turned away
        await asyncio.sleep(0)
        with pytest.raises(Busy, match="busy|Der Server rechnet"):
            await b[1]
        assert pool.admitted == 4
        with pytest.raises(Busy):            # C holds 1, A and B 2: nobody holds two more, so no room
            await pool.run(job, "C2", client="C")
        d1 = asyncio.ensure_future(pool.run(job, "D1", client="D"))       # D holds 0: A (2, one waiting) gives way
        await asyncio.sleep(0)
        gate.set()
        done = await asyncio.gather(a1, a2, b[0], c1, d1, return_exceptions=True)
        pool.shutdown()
        return order, done, pool.admitted

    order, done, admitted = asyncio.run(scenario())
    assert admitted == 0
    # D turned away the newest waiting job of the biggest holder with a job waiting (A: A2, B: B1; A came first
    # with 2 admitted, B has 1 now): A2
    assert isinstance(done[1], Busy) and done[0] == "A1" and done[2] == "B1" and done[3] == "C1" and done[4] == "D1"
    assert order == ["A1", "B1", "C1", "D1"]


def test_the_default_share_is_a_quarter_of_the_queue():
    assert HeavyPool(1, 8).per_client == 2 and HeavyPool(1, 2).per_client == 1
    with pytest.raises(ValueError, match="per_client"):
        HeavyPool(1, 8, per_client=0)


# ---------------------------------------------------------------------------
# the deep slot: a fair line
# ---------------------------------------------------------------------------
class FakeExecutor:
    """Stands in for the worker process: each submit returns a future the test settles."""

    def __init__(self):
        self.submitted: list[tuple[str, Future]] = []
        self.lock = threading.Lock()

    def submit(self, _task, cgp, *_args):
        f = Future()
        with self.lock:
            self.submitted.append((cgp, f))
        return f


def fake_worker() -> tuple[DeepWorker, FakeExecutor]:
    w = DeepWorker(None, None)
    ex = FakeExecutor()
    w._executor = lambda: ex
    w.killed = 0

    def kill():
        w.killed += 1
    w._kill = kill
    return w, ex


def test_deep_slot_goes_to_the_client_that_waited_not_the_one_resending():
    w, ex = fake_worker()
    answers: dict[str, list] = {"A": [], "B": []}

    def ask(client, cgp):
        try:
            answers[client].append(w.run(cgp, 1.0, client=client))
        except Busy as exc:
            answers[client].append(str(exc))

    ta = threading.Thread(target=ask, args=("A", "a1"))
    ta.start()
    assert wait_until(lambda: len(ex.submitted) == 1)
    with pytest.raises(Busy, match="your deep analysis is still running"):
        w.run("a-again", 1.0, client="A")                      # one at a time per client
    tb = threading.Thread(target=ask, args=("B", "b1"))
    tb.start()
    assert wait_until(lambda: "B" in w._waiting)
    ex.submitted[0][1].set_result({"n": "a1"})                # A's answer ...
    ta.join(10)
    ta2 = threading.Thread(target=ask, args=("A", "a2"))       # ... and A asks again at once
    ta2.start()
    assert wait_until(lambda: len(ex.submitted) == 2)
    assert ex.submitted[1][0] == "b1"                          # B had waited: B's turn, not A's
    ex.submitted[1][1].set_result({"n": "b1"})
    assert wait_until(lambda: len(ex.submitted) == 3) and ex.submitted[2][0] == "a2"
    ex.submitted[2][1].set_result({"n": "a2"})
    for t in (tb, ta2):
        t.join(10)
    assert answers == {"A": [{"n": "a1"}, {"n": "a2"}], "B": [{"n": "b1"}]}


def test_deep_analysis_of_a_client_that_went_away_is_stopped():
    w, ex = fake_worker()
    gone, out = threading.Event(), []

    def ask():
        try:
            w.run("x", 20.0, client="A", gone=gone)
        except Gone as exc:
            out.append(str(exc))

    t = threading.Thread(target=ask)
    t.start()
    assert wait_until(lambda: len(ex.submitted) == 1)
    gone.set()
    t.join(10)
    assert out and "stopped" in out[0] and w.stopped == 1 and w.killed == 1
    # the slot is free again
    t = threading.Thread(target=lambda: out.append(w.run("y", 1.0, client="B")))
    t.start()
    assert wait_until(lambda: len(ex.submitted) == 2)
    ex.submitted[1][1].set_result({"ok": 1})
    t.join(10)
    assert out[-1] == {"ok": 1}


# ---------------------------------------------------------------------------
# on a real server: a closed connection stops its deep analysis; other addresses get in
# ---------------------------------------------------------------------------
def _post_raw(url: str, path: str, body: dict, source: str = "127.0.0.1") -> socket.socket:
    u = urlsplit(url)
    s = socket.create_connection((u.hostname, u.port), timeout=30, source_address=(source, 0))
    data = json.dumps(body).encode()
    s.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
              f"Content-Length: {len(data)}\r\n\r\n".encode() + data)
    return s


def _status(s: socket.socket) -> int:
    head = b""
    while b"\r\n" not in head:
        chunk = s.recv(4096)
        if not chunk:
            break
        head += chunk
    s.close()
    return int(head.split(b" ", 2)[1])


def test_closing_the_tab_stops_the_deep_analysis_and_drops_waiting_move_lists(golden_lexicon, monkeypatch):
    app = create_app(golden_lexicon, rate="1000/second", heavy_workers=1, heavy_queue=8)
    w, ex = fake_worker()
    app.state.deep.__dict__.update(_executor=w._executor)
    app.state.deep._kill = w._kill
    app.state.deep.killed = 0
    deep = app.state.deep
    release, ran = threading.Event(), []
    real = api.moves_json

    def slow_moves(pos, *a, **k):
        ran.append(pos.rack_string)
        release.wait(60)
        return real(pos, *a, **k)

    monkeypatch.setattr(api, "moves_json", slow_moves)
    with background_server(app) as url:
        s = _post_raw(url, "/api/deep", {"cgp": POSITION, "seconds": 20})
        assert wait_until(lambda: len(ex.submitted) == 1)
        s.close()                                            # the tab is closed
        assert wait_until(lambda: deep.stopped == 1)
        assert deep._running is None
        # the move lists: A's first runs, A's second waits; A goes away; B's list comes next
        a1 = _post_raw(url, "/api/moves", {"cgp": f"{EMPTY} AEINRST/ 0/0 0", "top": 1})
        assert wait_until(lambda: ran == ["AEINRST"])
        a2 = _post_raw(url, "/api/moves", {"cgp": f"{EMPTY} EEINRST/ 0/0 0", "top": 1})
        assert wait_until(lambda: app.state.heavy_pool.admitted == 2)
        a2.close()
        assert wait_until(lambda: app.state.heavy_pool.admitted == 1)   # dropped before it ran
        b = _post_raw(url, "/api/moves", {"cgp": f"{EMPTY} AEILNRS/ 0/0 0", "top": 1}, source="127.0.0.2")
        assert wait_until(lambda: app.state.heavy_pool.admitted == 2)
        release.set()
        assert _status(a1) == 200 and _status(b) == 200
    assert ran == ["AEINRST", "AEILNRS"]


def test_busy_answers_speak_the_language_of_the_request(golden_lexicon, monkeypatch):
    """report-attack26c A1: "busy: ... analyses are running" reached German users in English. A 503 is German
    unless the request asks for English (X-Lang: en), like the server's other messages."""
    from fastapi.testclient import TestClient

    app = create_app(golden_lexicon, rate="1000/second", heavy_workers=1, heavy_queue=4)  # a client's share: 1
    release, started = threading.Event(), threading.Event()
    real = api.moves_json

    def slow_moves(*a, **k):
        started.set()
        release.wait(60)
        return real(*a, **k)

    monkeypatch.setattr(api, "moves_json", slow_moves)
    body = {"cgp": POSITION, "top": 1}
    with TestClient(app) as client:
        first = threading.Thread(target=lambda: client.post("/api/moves", json=body))
        first.start()
        try:
            assert started.wait(60)
            r = client.post("/api/moves", json=body)
            assert r.status_code == 503 and r.headers["Retry-After"] == "1"
            assert r.json()["error"] == ("Deine Analysen laufen oder warten schon (höchstens 1 auf einmal, der "
                                         "Anteil eines Nutzers): erst ihre Antworten abwarten")
            r = client.post("/api/moves", json=body, headers={"X-Lang": "en"})
            assert r.status_code == 503 and r.json()["error"] == (
                "busy: 1 of your analyses are running or waiting already (the share of one client); try again when "
                "they are done")
        finally:
            release.set()
            first.join(60)


def test_full_list_is_answered_a_page_at_a_time(golden_lexicon):
    """p011 has 12,842 moves: the first answer holds MAX_PAGE of them and says where the rest starts;
    a top above the cap is refused naming the field."""
    from fastapi.testclient import TestClient

    from conftest import golden_positions

    cgp = dict(golden_positions())["p011"]
    app = create_app(golden_lexicon, allowed_hosts=["testserver"])
    with TestClient(app) as client:
        first = client.post("/api/moves", json={"cgp": cgp}).json()
        assert (len(first["moves"]), first["count"], first["next_offset"]) == (2000, 12842, 2000)
        last = client.post("/api/moves", json={"cgp": cgp, "offset": 12000}).json()
        assert len(last["moves"]) == 842 and last["next_offset"] is None
        r = client.post("/api/moves", json={"cgp": cgp, "top": 2001})
        assert r.status_code == 422 and r.json()["error"] == "Feld top: darf höchstens 2000 sein"
    app.state.deep.close()
