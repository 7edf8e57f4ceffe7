"""The web app's JSON API: how long a page waits for an answer.

Run: ``.venv/bin/python -m pytest benchmarks/test_bench_web.py -q`` (pytest-benchmark).

Each request goes through FastAPI's test client (routing, validation, JSON
encoding, the engine lock), without a socket, and the answer's bytes are
taken as they come (a browser parses the JSON in a few milliseconds; Python's
``json.loads`` would add 60 ms on p011, which is the client's cost, not the server's).

* ``test_moves`` — ``POST /api/moves``: every move with equity, words of the
  first 100 (what the page asks after every edit), on p_ref1 (471 moves),
  p_ref2 (3,279) and p011 (9,493, two blanks: the largest golden list);
* ``test_moves_top100`` — the same with ``"top": 100``: what the page asks first since it
  pages the list (the rest on request);
* ``test_score`` — ``POST /api/score``: the word checker with ranks (every keystroke);
* ``test_position`` — ``POST /api/position``: parse, warnings, unseen tiles.

The machine may be shared: compare the min, not the mean.
"""

from __future__ import annotations

import json

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
    raw = benchmark(lambda: client.post("/api/moves", json=body).content)
    benchmark.extra_info["moves"] = json.loads(raw)["count"]
    benchmark.extra_info["bytes"] = len(raw)


@pytest.mark.parametrize("pid", ["p_ref1", "p_ref2", "p011"])
def test_moves_top100(benchmark, client, pid):
    body = {"cgp": POS[pid], "top": 100}
    raw = benchmark(lambda: client.post("/api/moves", json=body).content)
    benchmark.extra_info["moves"] = json.loads(raw)["count"]
    benchmark.extra_info["bytes"] = len(raw)


def test_score(benchmark, client):
    body = {"cgp": POS["p_ref2"], "move": "15A SpIRA(L)EN"}
    ans = benchmark(lambda: client.post("/api/score", json=body).json())
    assert ans["legal"] and ans["score"] == 131


def test_position(benchmark, client):
    body = {"cgp": POS["p_ref2"]}
    benchmark(lambda: client.post("/api/position", json=body).json())
