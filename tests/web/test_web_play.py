"""Gegen den Computer (/spielen, engine.web.play) and the Partieanalyse routes, through the API."""

from __future__ import annotations

import json
import os

import pytest
from fastapi.testclient import TestClient

from engine.game.gcg import read_gcg
from engine.web.app import create_app
from engine.web.play import KEEP, GameStore
from review_support import best_from_moves_answer


@pytest.fixture(scope="module")
def games_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("spiele")


@pytest.fixture(scope="module")
def client(golden_lexicon, games_dir):
    app = create_app(golden_lexicon, games_dir=games_dir, rate="1000/second")
    with TestClient(app) as c:
        yield c


def _best(client, state) -> str:
    """The player's move: the best by equity of /api/moves on the player's view (its best placement or its best
    exchange, as the review ranks both), else exchange all or pass."""
    r = client.post("/api/moves", json={"cgp": state["cgp"], "top": 1})
    assert r.status_code == 200, r.text
    return best_from_moves_answer(r.json(), state)


def _check_pad(state):
    """Every running total is the sum of the entries before it; the scores are the last totals."""
    totals = [0, 0]
    for t in state["turns"]:
        totals[t["p"]] += t["score"]
        assert t["total"] == totals[t["p"]]
    assert totals == state["scores"]


def test_a_whole_game_against_stark(client, golden_lexicon, games_dir):
    r = client.post("/api/play/new", json={"level": "stark", "rules": "home", "name": "Ana"})
    assert r.status_code == 200, r.text
    st = r.json()
    gid = st["id"]
    assert st["names"] == ["Ana", "Computer"] and st["you"] == 0 and st["to_move"] == 0
    n = 0
    while not st["over"]:
        assert len(st["rack"]) <= 7
        # bag + the engine's rack = the unseen tiles the player sees
        engine_rack = 7 if st["bag"] else None
        if engine_rack is not None:
            assert len(st["unseen"]) == st["bag"] + engine_rack
        move = _best(client, st)
        if not move.startswith("-"):  # the word checker's score is what the pad records
            chk = client.post("/api/score", json={"cgp": st["cgp"], "move": move}).json()
            assert chk["legal"]
        r = client.post("/api/play/move", json={"id": gid, "move": move})
        assert r.status_code == 200, r.text
        before = len(st["turns"])
        st = r.json()
        mine = st["turns"][before]
        if not move.startswith("-"):
            assert mine["kind"] == "play" and mine["score"] == chk["score"]
        _check_pad(st)
        n += 1
        assert n < 60
    res = st["result"]
    assert res["scores"] == st["scores"]
    # the settlement: the player who went out gains the other's rack, which the other loses
    kinds = [t["kind"] for t in res["settlement"]]
    assert kinds and set(kinds) <= {"rack", "out"}
    if res["end_reason"] == "out":
        out = next(t for t in res["settlement"] if t["kind"] == "out")
        lost = next(t for t in res["settlement"] if t["kind"] == "rack")
        assert out["score"] == -lost["score"]
    # the GCG export reads back with the same scores
    r = client.get(f"/api/play/gcg/{gid}")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    rec = read_gcg(r.text, golden_lexicon)
    assert rec.scores == st["scores"] and rec.end_reason == res["end_reason"]
    # the game is on disk: a new store (a restarted server) gives the same state
    again = GameStore(games_dir, golden_lexicon, None).state(gid)
    assert again["turns"] == st["turns"] and again["scores"] == st["scores"]
    lst = client.post("/api/play/list", json={"ids": [gid, "nosuchgame123"]}).json()
    assert [g["id"] for g in lst["games"]] == [gid] and lst["games"][0]["over"] and lst["damaged"] == []
    # the file says the game is over (pruning may delete it once it is beyond its owner's newest games)
    assert json.loads((games_dir / f"{gid}.json").read_text(encoding="utf-8"))["over"] is True


def test_bad_moves_are_refused_with_the_reason(client):
    st = client.post("/api/play/new", json={"level": "einsteiger", "rules": "home"}).json()
    gid = st["id"]
    if st["to_move"] != 0:
        pytest.skip("the engine starts")  # pragma: no cover - the player always gets the turn back
    r = client.post("/api/play/move", json={"id": gid, "move": "8H QQQQ"})
    assert r.status_code == 400 and r.json()["error"]
    r = client.post("/api/play/move", json={"id": "doesnotexist", "move": "-"})
    assert r.status_code == 400 and r.json()["error"].startswith("unbekannte Partie: ")
    r = client.post("/api/play/move", json={"id": "doesnotexist", "move": "-"}, headers={"X-Lang": "en"})
    assert r.status_code == 400 and r.json()["error"].startswith("unknown game: ")
    r = client.post("/api/play/new", json={"level": "grossmeister"})
    assert r.status_code == 422


def _phony(state) -> str | None:
    """A two-letter phony from the player's rack through the centre (first move) or None."""
    if any(ch != "." for row in state["board"] for ch in row):
        return None
    rack = [ch for ch in state["rack"] if ch != "?"]
    for a in rack:
        for b in rack:
            if a + b in ("XQ", "QX", "YY", "QQ", "XX", "JJ", "VV", "ZX", "XZ", "QZ", "ZQ", "JQ", "QJ", "VQ", "QV",
                         "YQ", "QY", "XY", "YX", "JX", "XJ", "CC", "CX", "XC", "VX", "XV", "CV", "VC", "FX", "XF"):
                if (rack.count(a) >= 2 or a != b):
                    return f"8H {a}{b}"
    return None


def test_home_refuses_a_phony_tournament_challenges_it(client, golden_lexicon):
    from engine.game.game import Game, rules_by_name

    for seed in range(40):  # a game where the player starts with two letters that form no word
        g = Game(["Du", "Computer"], golden_lexicon, rules=rules_by_name("tournament"), seed=seed, keep_undo=False)
        if g.to_move == 0:
            rack = g.alphabet.rack_string(g.racks[0])
            st = {"board": ["." * 15], "rack": rack}
            ph = _phony(st)
            if ph and ph.split()[1] not in golden_lexicon:
                break
    else:  # pragma: no cover
        pytest.skip("no seed with a phony at hand")
    store = client.app.state.games
    for rules in ("home", "tournament"):
        st = store.new("stark", rules, "Du", seed=seed)
        assert st["to_move"] == 0
        if rules == "home":
            with pytest.raises(ValueError, match="not in the word list"):
                store.move(st["id"], ph)
        else:
            out = store.move(st["id"], ph)
            assert out["challenged"] == [ph.split()[1]]
            assert out["turns"][0]["kind"] == "withdrawn" and out["turns"][0]["score"] == 0
            assert out["scores"][0] == 0 and out["turns"][1]["player"] == "Computer"


def test_a_game_the_page_named_is_made_once(client, games_dir):
    """The page chooses the id before it asks (the first start may compile for minutes): the same request again,
    after a reload or a retry, answers the game made the first time instead of making a second one."""
    gid = "page-chose-this-id-0001"
    first = client.post("/api/play/new", json={"level": "stark", "rules": "tournament", "name": "Ana", "id": gid})
    assert first.status_code == 200, first.text
    st = first.json()
    assert st["id"] == gid and st["names"] == ["Ana", "Computer"] and st["rules"] == "tournament"
    assert (games_dir / f"{gid}.json").exists()
    moved = client.post("/api/play/move", json={"id": gid, "move": "-"}).json()  # a pass: the game goes on
    mine = [t["kind"] for t in moved["turns"] if t["p"] == 0]
    assert mine == ["pass"]  # the computer may have moved first
    again = client.post("/api/play/new", json={"level": "einsteiger", "rules": "home", "name": "Bo", "id": gid})
    assert again.status_code == 200, again.text
    st2 = again.json()
    assert st2["id"] == gid and st2["names"] == ["Ana", "Computer"] and st2["level"] == "stark"
    assert st2["turns"] == moved["turns"] and st2["board"] == moved["board"]
    assert len(list(games_dir.glob(f"{gid}*"))) == 1
    for bad in ("short", "x" * 41, "bad id with spaces!"):
        assert client.post("/api/play/new", json={"level": "stark", "id": bad}).status_code == 422


def test_the_server_warms_the_play_kernels_in_the_background(golden_lexicon, monkeypatch):
    """`engine web` loads the move generator of /spielen in a thread at start; a compile is announced."""
    from engine.analysis import warmup
    from engine.web import cli

    ran, notes = [], []
    cold = bool(warmup.uncached(("movegen",)))
    t = cli.warm_play_kernels(golden_lexicon, note=notes.append)  # the real one: a load from the cache is silent
    t.join(900)
    assert len(notes) == (2 if cold else 0) and not warmup.uncached(("movegen",))
    notes.clear()
    monkeypatch.setattr(warmup, "uncached", lambda names: [n for n in names])
    monkeypatch.setattr(warmup, "warm_in_process", lambda lex, names: ran.append((lex, tuple(names))))
    t = cli.warm_play_kernels(golden_lexicon, note=notes.append)
    t.join(60)
    assert not t.is_alive() and t.daemon
    assert ran == [(golden_lexicon, ("movegen",))]
    assert len(notes) == 2 and "compiling the move generator for /spielen" in notes[0] and "ready" in notes[1]

    def broken(lex, names):
        raise RuntimeError("no cache directory")
    monkeypatch.setattr(warmup, "warm_in_process", broken)
    notes.clear()
    t = cli.warm_play_kernels(golden_lexicon, note=notes.append)
    t.join(60)
    assert notes[-1].startswith("warming the move generator failed (RuntimeError: no cache directory)")


def test_only_the_owners_last_games_are_kept_once_over(golden_lexicon, tmp_path):
    store = GameStore(tmp_path, golden_lexicon, None)
    ids = [store.new("stark", "home", "Du", owner="t:me")["id"] for _ in range(KEEP + 2)]
    assert {p.stem for p in tmp_path.glob("*.json")} == set(ids)  # games in progress are never deleted
    for k, gid in enumerate(ids):  # all over (the file says so), oldest first
        p = tmp_path / f"{gid}.json"
        meta = json.loads(p.read_text(encoding="utf-8"))
        meta["over"] = True
        p.write_text(json.dumps(meta), encoding="utf-8")
        os.utime(p, (1e9 + k, 1e9 + k))
    last = store.new("stark", "home", "Du", owner="t:me")["id"]
    assert {p.stem for p in tmp_path.glob("*.json")} == {last, *ids[-(KEEP - 1):]}


def test_review_of_a_gcg_and_of_a_game(client, golden_lexicon):
    from review_support import BAD_TURN, _game_with_a_worse_move

    text, (played, loss, _b) = _game_with_a_worse_move(golden_lexicon)
    r = client.post("/api/review", json={"gcg": text})
    assert r.status_code == 200, r.text
    out = r.json()
    t = out["turns"][BAD_TURN]
    assert t["played"] == played and t["loss"] == pytest.approx(loss, abs=1e-3) and t["mark"]
    assert t["played_tiles"] and t["best_tiles"] and len(t["board"]) == 15
    assert out["svg"]["de"].startswith("<svg") and "Gewinnchance" in out["svg"]["de"]
    assert BAD_TURN in out["puzzles"]
    r = client.post("/api/review", json={"gcg": "#player1 a A\n>a: XYZ 8H QQ +1 1\n"})
    assert r.status_code == 400 and "error" in r.json()
    # a game against the computer: reviewed, and kept with the game once it is over
    store = client.app.state.games
    st = store.new("stark", "home", "Du", seed=11)
    gid = st["id"]
    while not st["over"]:
        st = store.move(gid, _best(client, st))
    r = client.post("/api/play/review", json={"id": gid})
    assert r.status_code == 200, r.text
    rv = r.json()
    # "Du" played /api/moves' best every time: the review (in the worker process) ranks with the same equity, so
    # nothing of theirs is marked before the endgame (seed 11, turn 20 with one tile in the bag: marked when the
    # worker's leave table lost its equity parameters)
    assert not [t for t in rv["turns"] if t["player"] == "Du" and t["method"] == "static" and t["mark"]]
    assert len(rv["turns"]) == len([t for t in st["turns"] if t["kind"] in ("play", "withdrawn", "exchange", "pass")])
    assert json.loads(store._path(gid).read_text(encoding="utf-8"))["review"] == rv


def test_meister_answers_with_the_phase_search(client):
    """Meister: the computer's move comes from the worker's search (a legal move of its rack, recorded)."""
    st = client.post("/api/play/new", json={"level": "meister"}).json()
    gid = st["id"]
    for _ in range(2):
        before = len(st["turns"])
        r = client.post("/api/play/move", json={"id": gid, "move": _best(client, st)})
        assert r.status_code == 200, r.text
        st = r.json()
        if st["over"]:
            break
        answer = st["answer"]
        assert answer is not None and answer["player"] == "Computer"
        assert st["turns"][before + 1] == answer
        if answer["kind"] == "play":
            assert answer["score"] > 0 and answer["words"]


def test_the_sdev_preview_does_not_tell_whether_a_word_is_valid(client, golden_lexicon):
    """report-attack26b N8: under SDeV rules the page's preview said "QX steht nicht in der Wortliste" before the
    move, so a player learnt which words are valid for free. The page asks /api/score with "words": false then:
    the placement is checked and scored (Q 10 on the star H8, X 8 on I8, double word: (10 + 8) × 2 = 36),
    the words are not looked up, and nothing ranks the move (a rank would tell a phony from a word)."""
    assert "QX" not in golden_lexicon and "AB" in golden_lexicon
    cgp = "/".join(["15"] * 15) + " ABEIQRX/ 0/0 0"
    checked = client.post("/api/score", json={"cgp": cgp, "move": "8H QX"}).json()
    assert checked == {"legal": False, "reason": "QX is not in the word list"}
    blind = client.post("/api/score", json={"cgp": cgp, "move": "8H QX", "words": False}).json()
    assert blind["legal"] is True and blind["score"] == 36 and blind["words"] == [["QX", 36]]
    word = client.post("/api/score", json={"cgp": cgp, "move": "8H AB", "words": False}).json()
    assert set(blind) == set(word) == {"legal", "move", "score", "tiles", "words", "bingo"}  # the same fields
    # the placement and the rack are still checked
    off_rack = client.post("/api/score", json={"cgp": cgp, "move": "8H QQ", "words": False}).json()
    assert off_rack["legal"] is False and "not on the rack" in off_rack["reason"]
    assert client.post("/api/score", json={"cgp": cgp, "move": "8H QX", "words": "no"}).status_code == 422


class _ListWithout:
    """The lexicon with ``gone`` words taken out and ``added`` put in (for ``in`` only; move generation and the
    rest are the real lexicon's): a word list changed between two moves of a game."""

    def __init__(self, lexicon, gone=(), added=()):
        self._lex, self._gone, self._added = lexicon, set(gone), set(added)

    def __contains__(self, word):
        return word in self._added or (word not in self._gone and word in self._lex)

    def __getattr__(self, name):
        return getattr(self._lex, name)


def test_a_changed_word_list_keeps_the_games_in_progress(client, golden_lexicon):
    # report-attack26g B2: after an upgrade dropped a word played in a game, the game was "damaged" for good (its
    # replay checked every play against the new list), and its GCG download failed. The verdicts of the game as
    # played stand: a play stays, a play challenged off stays withdrawn
    from engine.game.game import Game, rules_by_name

    for seed in range(40):  # as above: the player starts, with a phony at hand
        g = Game(["Du", "Computer"], golden_lexicon, rules=rules_by_name("tournament"), seed=seed, keep_undo=False)
        if g.to_move == 0:
            ph = _phony({"board": ["." * 15], "rack": g.alphabet.rack_string(g.racks[0])})
            if ph and ph.split()[1] not in golden_lexicon:
                break
    else:  # pragma: no cover
        pytest.skip("no seed with a phony at hand")
    store = client.app.state.games
    home = store.new("stark", "home", "Du", seed=seed)
    best = client.post("/api/moves", json={"cgp": home["cgp"], "top": 1}).json()["moves"][0]["move"]
    played = store.move(home["id"], best)
    words = [w for w, _s in played["turns"][0]["words"]]
    sdev = store.new("stark", "tournament", "Du", seed=seed)
    withdrawn = store.move(sdev["id"], ph)
    try:
        store.lexicon = _ListWithout(golden_lexicon, gone=words, added=[ph.split()[1]])
        assert all(w not in store.lexicon for w in words) and ph.split()[1] in store.lexicon
        again = store.state(home["id"])
        assert again["turns"] == played["turns"] and again["scores"] == played["scores"]
        r = client.get(f"/api/play/gcg/{home['id']}")
        assert r.status_code == 200 and best.split()[0] in r.text
        assert store.state(sdev["id"])["turns"] == withdrawn["turns"]  # still challenged off, not a play
        assert store.state(sdev["id"])["turns"][0]["kind"] == "withdrawn"
        store.move(home["id"], "-")                                      # and the game goes on
    finally:
        store.lexicon = golden_lexicon


def test_a_running_games_gcg_tells_neither_the_seed_nor_the_computers_racks(client, golden_lexicon):
    # report-attack26i: the GCG of a running game had #seed (every coming draw) and the computer's racks (its
    # tiles kept); the finished game's file has both
    from engine.game.gcg import read_gcg

    store = client.app.state.games
    st = store.new("stark", "home", "Ana", seed=11)
    for _ in range(2):
        st = store.move(st["id"], "-")
    assert not st["over"] and any(t["p"] == 1 and t["kind"] == "play" for t in st["turns"])
    text = client.get(f"/api/play/gcg/{st['id']}").text
    assert "#seed" not in text
    mine = [ln for ln in text.splitlines() if ln.startswith(">Computer: ")]
    assert mine and all(ln.startswith(">Computer: ... ") for ln in mine)
    rec = read_gcg(text, golden_lexicon)  # still a record the CLI reads, with the same scores
    assert rec.scores == st["scores"]
    full = store._replay(store._read(st["id"]))
    from engine.game.gcg import write_gcg
    assert "#seed 11" in write_gcg(full)  # (what the finished game's file will say)
