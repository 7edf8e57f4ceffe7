"""The web app's JSON API: how long a page waits for an answer.

Run: ``.venv/bin/python -m pytest benchmarks/test_bench_web.py -q`` (pytest-benchmark).

Each request goes through FastAPI's test client (routing, validation, JSON
encoding, the engine lock), without a socket; the browser adds a few
milliseconds of loopback HTTP and JSON parsing on top.

* ``test_moves`` — ``POST /api/moves``: every move with equity, words of the
  first 100 (what the page asks after every edit), on p_ref1 (471 moves),
  p_ref2 (3,279) and p011 (9,493, two blanks: the largest golden list);
* ``test_score`` — ``POST /api/score``: the word checker with ranks (every keystroke);
* ``test_position`` — ``POST /api/position``: parse, warnings, unseen tiles.

The machine may be shared: compare the min, not the mean.
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from engine.web.app import create_app

from conftest import golden_positions

POS = dict(golden_positions())


@pytest.fixture(scope="module")
def client(golden_lexicon):
    with TestClient(create_app(golden_lexicon, rate="100000/second")) as c:
        yield c


@pytest.mark.parametrize("pid", ["p_ref1", "p_ref2", "p011"])
def test_moves(benchmark, client, pid):
    body = {"cgp": POS[pid]}
    ans = benchmark(lambda: client.post("/api/moves", json=body).json())
    benchmark.extra_info["moves"] = ans["count"]


def test_score(benchmark, client):
    body = {"cgp": POS["p_ref2"], "move": "15A SpIRA(L)EN"}
    ans = benchmark(lambda: client.post("/api/score", json=body).json())
    assert ans["legal"] and ans["score"] == 131


def test_position(benchmark, client):
    body = {"cgp": POS["p_ref2"]}
    benchmark(lambda: client.post("/api/position", json=body).json())
