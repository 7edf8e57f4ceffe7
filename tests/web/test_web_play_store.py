"""The games store of Gegen den Computer (engine.web.play.GameStore) against other clients and damaged files
(report-attack26 items 1-5 and 14): pruning per owner, never a game in progress, a global cap that refuses;
symlinks and other entries in the games directory; a file whose id is not its name; damaged files refused
with a 400 (German unless the page asks for English) and never written; the list of games with a damaged one;
a file over the size limit, read off the event loop."""

from __future__ import annotations

import asyncio
import json
import os
import time

import pytest
from fastapi.testclient import TestClient

from engine.web.app import create_app
from engine.web.play import MAX_GAME_BYTES, UNTOUCHED_DAYS, GameStore, PlayError, address_of, owner_of

EN = {"X-Lang": "en"}
TOKEN_A = "a" * 16 + "ownerA"
TOKEN_B = "b" * 16 + "ownerB"


@pytest.fixture()
def games_dir(tmp_path):
    d = tmp_path / "spiele"
    d.mkdir()
    return d


@pytest.fixture()
def client(golden_lexicon, games_dir):
    app = create_app(golden_lexicon, games_dir=games_dir, rate="1000/second")
    with TestClient(app) as c:
        yield c


def _files(d) -> set[str]:
    return {p.stem for p in d.glob("*.json") if p.is_file() and not p.is_symlink()}


def _new(client, token=None, **kw) -> dict:
    body = {"level": "stark", **kw}
    if token:
        body["owner"] = token
    r = client.post("/api/play/new", json=body, headers=EN)
    assert r.status_code == 200, r.text
    return r.json()


def _age(d, gid: str, days: float) -> None:
    t = time.time() - days * 86400
    os.utime(d / f"{gid}.json", (t, t))


def _moved(store, gid: str, days: float = 0) -> str:
    """The player passes in ``gid`` (the game is no longer untouched), then it is aged ``days``."""
    store.move(gid, "-")
    _age(store.dir, gid, days)
    return gid


# -- 1. pruning per owner ------------------------------------------------------------------------------------
def test_another_clients_new_games_keep_a_game_in_progress(client, games_dir):
    st = _new(client, TOKEN_A)
    gid = st["id"]
    r = client.post("/api/play/move", json={"id": gid, "move": "-"}, headers=EN)
    assert r.status_code == 200, r.text
    for _ in range(22):  # another browser (before the fix: 20 of these deleted the game in progress)
        _new(client, TOKEN_B, level="einsteiger")
    r = client.post("/api/play/state", json={"id": gid}, headers=EN)
    assert r.status_code == 200, r.text
    assert len(r.json()["turns"]) == len(st["turns"]) + 2  # the pass and the computer's answer are still there
    assert len(_files(games_dir)) == 23
    # the owner is kept as a hash, not the token
    assert json.loads((games_dir / f"{gid}.json").read_text())["owner"] == owner_of(TOKEN_A, None)
    assert TOKEN_A not in (games_dir / f"{gid}.json").read_text()


def test_an_owners_old_games_go_only_when_over_or_idle(golden_lexicon, games_dir):
    store = GameStore(games_dir, golden_lexicon, None, keep=3, active_days=30)
    mine = [store.new("stark", owner="t:me")["id"] for _ in range(6)]
    theirs = [store.new("stark", owner="t:them")["id"] for _ in range(5)]
    # six of mine, none over and all recent: all kept (a game in progress is never deleted)
    assert _files(games_dir) == set(mine + theirs)
    for k, gid in enumerate(mine):  # oldest first, a day apart
        _age(games_dir, gid, 40 - k)
    for gid in theirs:
        _age(games_dir, gid, 60)
    # mine[3] is over (the file says so), mine[0] and mine[1] idle for more than 30 days, mine[2] 38 days
    meta = json.loads((games_dir / f"{mine[3]}.json").read_text())
    meta["over"] = True
    t = os.stat(games_dir / f"{mine[3]}.json").st_mtime
    (games_dir / f"{mine[3]}.json").write_text(json.dumps(meta))
    os.utime(games_dir / f"{mine[3]}.json", (t, t))
    newest = store.new("stark", owner="t:me")["id"]
    # kept: my newest three (new, mine[5], mine[4]); beyond them mine[3] (over) and mine[0..2] (idle) went;
    # the other owner's old games are not touched by my new game
    assert _files(games_dir) == {newest, mine[5], mine[4]} | set(theirs)
    # a recent game in progress beyond the owner's newest stays; idle ones go
    store2 = GameStore(games_dir, golden_lexicon, None, keep=1, active_days=30)
    newest2 = store2.new("stark", owner="t:me")["id"]
    assert _files(games_dir) == {newest2, newest} | set(theirs)


def test_files_without_an_owner_form_their_own_group(golden_lexicon, games_dir):
    store = GameStore(games_dir, golden_lexicon, None, keep=2)
    old = [store.new("stark", owner="t:x")["id"] for _ in range(4)]
    for k, gid in enumerate(old):  # files made before owners: no "owner" field, idle
        p = games_dir / f"{gid}.json"
        meta = json.loads(p.read_text())
        del meta["owner"], meta["over"]
        p.write_text(json.dumps(meta))
        _age(games_dir, gid, 100 - k)
    gid = store.new("stark", owner="t:y")["id"]
    assert _files(games_dir) == {gid, old[2], old[3]}


def test_a_full_server_refuses_a_new_game_and_deletes_nothing(client, golden_lexicon, games_dir):
    store = client.app.state.games
    store.max_games = 3
    ids = [_new(client, tok)["id"] for tok in (TOKEN_A, TOKEN_B, "c" * 20)]
    for gid in ids:  # moved in, idle, but not for 30 days: never deleted (at 30 days, see below)
        _moved(store, gid, 29)
    before = {p.name: p.read_bytes() for p in games_dir.iterdir()}
    r = client.post("/api/play/new", json={"level": "stark", "owner": "d" * 20}, headers=EN)
    assert r.status_code == 400 and r.json()["error"].startswith("too many games on this server (3)")
    r = client.post("/api/play/new", json={"level": "stark", "owner": "d" * 20})
    assert r.status_code == 400 and r.json()["error"].startswith("Zu viele Partien auf diesem Server (3)")
    assert {p.name: p.read_bytes() for p in games_dir.iterdir()} == before
    # the owner's own old finished game makes room for its new one
    p = games_dir / f"{ids[0]}.json"
    store.keep = 0
    meta = json.loads(p.read_text())
    meta["over"] = True
    p.write_text(json.dumps(meta))
    new_id = _new(client, TOKEN_A)["id"]
    assert _files(games_dir) == set(ids[1:]) | {new_id}


def _set_over(d, gid: str, days: float) -> None:
    p = d / f"{gid}.json"
    meta = json.loads(p.read_text())
    meta["over"] = True
    p.write_text(json.dumps(meta))
    _age(d, gid, days)


def test_a_full_server_deletes_only_the_games_it_needs_oldest_idle_first(golden_lexicon, games_dir):
    # report-attack26b N1: before, only the requesting owner's files were pruned, so owners who never came back
    # (or one flood of games) kept the server full for good; report-attack26c A1: then every idle game of every
    # owner went at once (a player away for five weeks lost the game they had paused)
    store = GameStore(games_dir, golden_lexicon, None, keep=2, max_games=6)
    o1, o2, o3 = (_moved(store, store.new("stark", owner=f"t:o{k}")["id"]) for k in (1, 2, 3))
    o4 = [store.new("stark", owner="t:o4")["id"] for _ in range(3)]
    _age(games_dir, o1, 40)  # moved in, idle 40 days
    _age(games_dir, o2, 31)  # the same at 31 days
    _age(games_dir, o3, 29)  # moved in, changed 29 days ago: never goes
    for gid, days in zip(o4, (400, 300, 35)):  # over: the oldest is beyond its owner's newest 2
        _set_over(games_dir, gid, days)
    new = store.new("stark", owner="t:new")["id"]
    assert _files(games_dir) == {o1, o2, o3, o4[1], o4[2], new}  # one game made room: the oldest finished one
    _moved(store, new)  # (an untouched game younger than a day is never deleted to make room)
    new2 = store.new("stark", owner="t:new")["id"]
    assert _files(games_dir) == {o1, o2, o3, o4[2], new, new2}  # finished games go first, even an owner's newest
    new3 = store.new("stark", owner="t:new3")["id"]
    assert _files(games_dir) == {o1, o2, o3, new, new2, new3}
    new4 = store.new("stark", owner="t:new4")["id"]
    assert _files(games_dir) == {o2, o3, new, new2, new3, new4}  # then the idle games moved in: o1 (40 days)
    # below the cap nobody else's files are touched
    store.max_games = 100
    _age(games_dir, o3, 100)
    new5 = store.new("stark", owner="t:new5")["id"]
    assert _files(games_dir) == {o2, o3, new, new2, new3, new4, new5}


def test_a_flood_of_untouched_games_does_not_delete_a_newcomers_game(golden_lexicon, games_dir):
    # report-attack26c A1: ~50 addresses (or one IPv6 /48) filled the server with games never moved in;
    # report-attack26d B2: then each newcomer's game deleted the previous newcomer's before the first move.
    # An untouched game younger than a day is never deleted to make room: a new game is refused instead, until
    # the flood is a day old
    store = GameStore(games_dir, golden_lexicon, None, keep=20, max_games=8, max_open=3)
    att = [address_of(a) for a in ("10.0.1.1", "10.0.1.2", "2001:db8:7:1::1")]
    flood = {a: [store.new("einsteiger", owner=f"t:{k}{i}", address=a)["id"] for i in range((3, 2, 2)[k])]
             for k, a in enumerate(att)}
    order = [g for a in att for g in flood[a]]
    for k, gid in enumerate(order):  # made in this order, all within the last day
        _age(games_dir, gid, 0.5 - k / 100)
    user = store.new("stark", owner="t:user", address=address_of("10.0.9.9"))["id"]  # the 8th file
    before = {p.name: p.read_bytes() for p in games_dir.iterdir()}
    for k in range(3):  # newcomers on the full server: refused, the user's game (not yet moved in) stays
        with pytest.raises(PlayError, match=r"^too many games on this server \(8\)"):
            store.new("stark", owner=f"t:n{k}", address=address_of(f"10.0.3.{k}"))
    assert {p.name: p.read_bytes() for p in games_dir.iterdir()} == before
    store.state(user)  # the user's game is still there
    # a day later the flood may go, the oldest first; the user's game (now moved in) stays
    _moved(store, user)
    for gid in order:
        _age(games_dir, gid, UNTOUCHED_DAYS + 0.5 - order.index(gid) / 100)
    n1 = store.new("einsteiger", owner="t:n1", address=address_of("10.0.3.1"))["id"]
    assert _files(games_dir) == set(order) - {order[0]} | {user, n1}
    for k in range(6):
        store.new("einsteiger", owner=f"t:m{k}", address=address_of(f"10.0.4.{k}"))
    assert _files(games_dir).isdisjoint(order) and user in _files(games_dir) and n1 in _files(games_dir)
    with pytest.raises(PlayError, match=r"^too many games on this server \(8\)"):
        store.new("stark", owner="t:late", address=address_of("10.0.5.5"))


def test_a_flood_of_untouched_games_renewed_daily_does_not_lock_out_newcomers(golden_lexicon, games_dir):
    # report-attack26f F3: each attacker address kept max_open fresh untouched games, started again every day
    # as the old ones aged out: a newcomer was refused day after day. On a full server an address's untouched
    # games beyond its untouched_keep newest go (oldest first), before anybody's finished or active game; a
    # newcomer's one untouched game stays, however many newcomers follow
    store = GameStore(games_dir, golden_lexicon, None, keep=20, max_games=12, max_open=3, untouched_keep=1)
    atts = [address_of(f"10.77.{a}.1") for a in range(4)]
    active = _moved(store, store.new("stark", owner="t:active", address=address_of("10.5.5.5"))["id"], 3)
    done = store.new("einsteiger", owner="t:done", address=address_of("10.5.5.6"))["id"]
    _set_over(games_dir, done, 5)
    newcomers = []
    for day in range(4):
        flood = {}
        for a in atts:
            for k in range(3):
                try:
                    flood.setdefault(a, []).append(store.new("einsteiger", owner=f"t:d{day}{a}{k}", address=a)["id"])
                except PlayError as exc:  # the attacker's own games are refused only by its own caps
                    assert "from your address" in str(exc)
        newcomers.append(_moved(store, store.new("stark", owner=f"t:new{day}",
                                                 address=address_of(f"198.51.100.{day}"))["id"]))
        files = _files(games_dir)
        assert {active, done} <= files and set(newcomers) <= files  # nobody's game went but the flood's
        assert all(sum(g in files for g in flood[a]) >= 1 for a in atts)  # each address keeps its newest
        assert len(files) == 12  # the server is full every day
        for g in files:  # a day passes
            _age(games_dir, g, 1.01 + (g == done) * 5)
    # an address with two untouched games on the full server: its older one goes, its newest stays
    club = address_of("192.0.2.10")
    c1 = store.new("einsteiger", owner="t:c1", address=club)["id"]
    _age(games_dir, c1, 0.01)
    c2 = store.new("einsteiger", owner="t:c2", address=club)["id"]
    store.new("einsteiger", owner="t:c3", address=address_of("192.0.2.11"))
    assert c2 in _files(games_dir) and set(newcomers) | {active, done} <= _files(games_dir)


def test_an_idle_untouched_game_is_not_revived_beyond_the_addresss_open_games(golden_lexicon, games_dir):
    # report-attack26e E1: one address started games every day, let them age out of its count of open games
    # (untouched, older than a day), then moved once in each: thousands of games in progress, none of which a
    # full server may delete. The first move in such a game is refused while the address holds max_open open
    # games; below that, and in a young game, it is played.
    from engine.web.german import play_de

    store = GameStore(games_dir, golden_lexicon, None, keep=20, max_open=2)
    att = address_of("10.8.0.1")
    old = [store.new("einsteiger", owner=f"t:o{k}", address=att)["id"] for k in range(2)]
    for gid in old:
        _age(games_dir, gid, UNTOUCHED_DAYS + 0.5)          # no longer open: the address may start more
    new = [store.new("einsteiger", owner=f"t:n{k}", address=att)["id"] for k in range(2)]  # 2 open: the cap
    before = store.state(old[0])["turns"]
    with pytest.raises(PlayError, match=r"^too many unfinished games from your address \(2\); this game waited"
                                        ) as exc:
        store.move(old[0], "-")
    assert play_de(str(exc.value)).startswith("Zu viele unbeendete Partien von deiner Adresse (2); diese Partie hat "
                                              "mehr als 1 Tag(e) auf deinen ersten Zug gewartet")
    assert store.state(old[0])["turns"] == before          # nothing played
    _moved(store, new[0])                                   # a young game: played
    store.state(new[1])
    _set_over(games_dir, new[1], 0)                         # one finished: 1 open left, so one old game may go on
    _moved(store, old[0])
    with pytest.raises(PlayError, match="this game waited"):
        store.move(old[1], "-")


def test_finished_games_with_fresh_owner_tokens_do_not_lock_out_the_server(golden_lexicon, games_dir):
    # report-attack26d B1: one address finished game after game, each with a new owner token: every finished
    # game was its owner's newest, so none could go, and every new game was refused for good
    store = GameStore(games_dir, golden_lexicon, None, keep=20, max_games=6, max_open=3)
    att = address_of("10.66.0.1")
    fin = []
    for k in range(5):
        gid = store.new("einsteiger", owner=f"t:fresh{k}", address=att)["id"]
        _set_over(games_dir, gid, 5 - k)  # finished, oldest first
        fin.append(gid)
    paused = _moved(store, store.new("stark", owner="t:paused", address=address_of("10.0.0.7"))["id"], 10)
    # full: a new user gets a game, and the oldest finished game makes room (not the paused game)
    user = store.new("stark", owner="t:user", address=address_of("10.9.9.40"))["id"]
    assert _files(games_dir) == set(fin[1:]) | {paused, user}
    # finished games keep going, oldest first, whoever owns them, even the attacker's newest game
    for k in range(4):
        store.new("stark", owner=f"t:u{k}", address=address_of(f"10.9.8.{k}"))
    assert _files(games_dir).isdisjoint(fin) and {paused, user} <= _files(games_dir)


def test_an_address_may_start_only_so_many_games_a_day(client, golden_lexicon, games_dir):
    # report-attack26d B1: one address churned the whole store (a finished game counts for no address's cap)
    store = GameStore(games_dir, golden_lexicon, None, max_new_per_day=3)
    att = address_of("10.66.0.1")
    for k in range(3):
        gid = store.new("einsteiger", owner=f"t:c{k}", address=att)["id"]
        _set_over(games_dir, gid, 0)  # finished at once: the cap of open games does not stop it
    with pytest.raises(PlayError, match=r"^too many new games from your address in 24 hours \(3\)"):
        store.new("einsteiger", owner="t:c9", address=att)
    with pytest.raises(PlayError, match=r"in 24 hours"):  # an IPv4-mapped IPv6 spelling is the same address
        store.new("einsteiger", owner="t:c9", address=address_of("::ffff:10.66.0.1"))
    assert len(_files(games_dir)) == 3
    store.new("einsteiger", owner="t:other", address=address_of("10.66.0.2"))  # another address: fine
    # 24 hours later the address may start games again
    store._made[att] = [t - 86401 for t in store._made[att]]
    store.new("einsteiger", owner="t:c9", address=att)
    # through the web, in German unless the page asks for English
    client.app.state.games.max_new_per_day = 1
    _new(client, TOKEN_A)
    r = client.post("/api/play/new", json={"level": "stark", "owner": TOKEN_B})
    assert r.status_code == 400
    assert r.json()["error"].startswith("Zu viele neue Partien von deiner Adresse in 24 Stunden (1)")
    r = client.post("/api/play/new", json={"level": "stark", "owner": TOKEN_B}, headers=EN)
    assert r.json()["error"].startswith("too many new games from your address in 24 hours (1)")


def test_a_game_no_longer_on_the_server_says_why_without_blaming_the_last_20(client, games_dir):
    # report-attack26d B2: "unbekannte Partie (ältere als die letzten 20 werden gelöscht)" for a game that was
    # neither finished nor old
    gid = _new(client, TOKEN_A)["id"]
    (games_dir / f"{gid}.json").unlink()
    for path in ("/api/play/state", "/api/play/move"):
        r = client.post(path, json={"id": gid, "move": "-"}, headers=EN)
        assert r.status_code == 400
        err = r.json()["error"]
        assert err.startswith("unknown game: it is not on this server (any more)") and "20" not in err
        assert err.endswith("finished games, games nobody moved in for 30 days, and games never moved in after 1 "
                            "day(s) (sooner when one address holds more than 3)")
        r = client.post(path, json={"id": gid, "move": "-"})
        assert r.json()["error"] == ("unbekannte Partie: sie ist nicht (mehr) auf diesem Server; ist er voll, löscht "
                                     "er beendete Partien, Partien, in denen 30 Tage lang niemand gezogen hat, und "
                                     "Partien, in denen nach 1 Tag(en) noch nicht gezogen wurde (früher, wenn eine "
                                     "Adresse mehr als 3 davon hat)")


def test_untouched_games_older_than_a_day_do_not_count_for_the_address(golden_lexicon, games_dir):
    store = GameStore(games_dir, golden_lexicon, None, keep=20, max_open=2)
    addr = address_of("10.0.1.1")
    gids = [store.new("einsteiger", owner=f"t:{k}", address=addr)["id"] for k in range(2)]
    with pytest.raises(PlayError, match=r"^too many unfinished games from your address \(2\)"):
        store.new("einsteiger", owner="t:x", address=addr)
    for gid in gids:
        _age(games_dir, gid, UNTOUCHED_DAYS + 0.5)
    third = store.new("einsteiger", owner="t:x", address=addr)["id"]
    # a game moved in counts for ACTIVE_DAYS
    _moved(store, third, UNTOUCHED_DAYS + 0.5)
    fourth = store.new("einsteiger", owner="t:y", address=addr)["id"]
    with pytest.raises(PlayError, match=r"^too many unfinished games from your address \(2\)"):
        store.new("einsteiger", owner="t:z", address=addr)
    assert _files(games_dir) == set(gids) | {third, fourth}  # nothing deleted below the cap


def test_many_games_from_one_address_do_not_lock_out_another(golden_lexicon, games_dir):
    # report-attack26b N1: one address (one owner token or many) filled the server with games in progress
    store = GameStore(games_dir, golden_lexicon, None, keep=20, max_games=8, max_open=3)
    attacker = address_of("10.0.1.1")
    flood = [store.new("einsteiger", owner="t:att", address=attacker)["id"]]
    flood += [store.new("einsteiger", owner=f"t:att{k}", address=attacker)["id"] for k in range(2)]
    for owner in ("t:att", "t:att9"):  # the same token, or a new one, from the same address
        with pytest.raises(PlayError, match=r"^too many unfinished games from your address \(3\)"):
            store.new("einsteiger", owner=owner, address=attacker)
    assert _files(games_dir) == set(flood)  # nothing deleted
    assert json.loads((games_dir / f"{flood[0]}.json").read_text())["addr"] == attacker
    other = store.new("stark", owner="t:other", address=address_of("10.0.2.2"))["id"]
    # the attacker's game over (or idle for 30 days) no longer counts
    _set_over(games_dir, flood[0], 0)
    again = store.new("einsteiger", owner="t:att", address=attacker)["id"]
    assert _files(games_dir) == set(flood) | {other, again}
    # files made before "addr" existed count for no address
    for gid in flood[1:]:
        p = games_dir / f"{gid}.json"
        meta = json.loads(p.read_text())
        del meta["addr"]
        p.write_text(json.dumps(meta))
    store.new("einsteiger", owner="t:att", address=attacker)


def test_an_address_key_is_a_hash_and_ipv6_counts_by_its_48_network():
    assert address_of("10.0.1.1") == owner_of(None, "10.0.1.1") != address_of("10.0.1.2")
    assert address_of("::ffff:10.0.1.1") == address_of("10.0.1.1")
    # one customer's /48 (or /56) is one address (report-attack26c A1: 48 /64s of one /48 filled the server)
    assert address_of("2001:db8:1:2::1") == address_of("2001:db8:1:2:ffff::7") == address_of("2001:db8:1:3::1")
    assert address_of("2001:db8:1:ff00::1") == address_of("2001:db8:1::1") != address_of("2001:db8:2::1")
    assert "10.0.1.1" not in address_of("10.0.1.1")


def test_the_page_is_refused_in_german_when_its_address_has_too_many_unfinished_games(client, games_dir):
    client.app.state.games.max_open = 2
    gids = [_new(client, tok)["id"] for tok in (TOKEN_A, TOKEN_B)]
    assert json.loads((games_dir / f"{gids[0]}.json").read_text())["addr"] == address_of("testclient")
    r = client.post("/api/play/new", json={"level": "stark", "owner": "c" * 20}, headers=EN)
    assert r.status_code == 400 and r.json()["error"].startswith("too many unfinished games from your address (2)")
    r = client.post("/api/play/new", json={"level": "stark", "owner": "c" * 20})
    assert r.status_code == 400
    assert r.json()["error"].startswith("Zu viele unbeendete Partien von deiner Adresse (2); keine wurde gelöscht")
    assert _files(games_dir) == set(gids)


def test_a_new_game_without_a_token_is_owned_by_the_address(client, games_dir):
    gid = _new(client)["id"]
    assert json.loads((games_dir / f"{gid}.json").read_text())["owner"] == owner_of(None, "testclient")
    r = client.post("/api/play/new", json={"level": "stark", "owner": "short"}, headers=EN)
    assert r.status_code == 422


# -- 2. symlinks and other entries ---------------------------------------------------------------------------------
def test_a_dangling_symlink_or_a_directory_does_not_block_new_games(client, games_dir):
    link = games_dir / "danglingxxxxxxxx.json"
    link.symlink_to("/nonexistent/zzz")
    (games_dir / "adirectoryxxxxxx.json").mkdir()
    (games_dir / "notes.json").write_text("{}")
    for _ in range(3):
        r = client.post("/api/play/new", json={"level": "stark"}, headers=EN)
        assert r.status_code == 200, r.text
    assert len(_files(games_dir)) == 3 + 1  # three games (and notes.json, not a game: never touched)
    assert link.is_symlink() and (games_dir / "adirectoryxxxxxx.json").is_dir()
    r = client.post("/api/play/state", json={"id": "danglingxxxxxxxx"}, headers=EN)
    assert r.status_code == 400 and "damaged" in r.json()["error"] and "symbolic link" in r.json()["error"]
    r = client.post("/api/play/state", json={"id": "adirectoryxxxxxx"}, headers=EN)
    assert r.status_code == 400


# -- 3., 4. damaged files -----------------------------------------------------------------------------------------
def _game_with_actions(client) -> dict:
    """A game's file data with a play among its actions (the player passes until the computer has played)."""
    st = _new(client)
    gid = st["id"]
    for _ in range(4):
        meta = json.loads((client.app.state.games.dir / f"{gid}.json").read_text())
        if any(a["kind"] == "play" for a in meta["actions"]):
            return meta
        r = client.post("/api/play/move", json={"id": gid, "move": "-"}, headers=EN)
        assert r.status_code == 200, r.text
    raise AssertionError("the computer never played")


def _first(meta, kind):
    return next(a for a in meta["actions"] if a["kind"] == kind)


def _damage(name):
    """``name -> function(meta) -> file text`` (the file's data after the damage)."""
    def change(**kw):
        return lambda m: json.dumps({**m, **kw})

    def act(f):
        def g(m):
            f(m)
            return json.dumps(m)
        return g

    return {
        "list": lambda m: "[1, 2, 3]",
        "null": lambda m: "null",
        "keys missing": lambda m: '{"version": 1}',
        "play as exchange": act(lambda m: _first(m, "play").update(kind="exchange")),
        "unknown kind": act(lambda m: _first(m, "play").update(kind="resign")),
        "actions text": change(actions="abc"),
        "created text": change(created="yesterday"),
        "level": change(level="godlike"),
        "you 9": change(you=9),
        "you true": change(you=True),
        "names": change(names="Du"),
        "names equal": change(names=["Du", "Du"]),
        "names space": change(names=["A B", "Computer"]),
        "names newline": change(names=["A\n#player1 x", "Computer"]),
        "names surrogate": change(names=["\ud800x", "Computer"]),  # report-attack26c A2: valid JSON, not UTF-8
        # report-attack26c A2: accepted before 9495c61 and written into the GCG as they were
        "names NUL": change(names=["A\x00", "Computer"]),
        "names RTL": change(names=["\u202eA", "Computer"]),
        "names ZWSP": change(names=["A\u200bB", "Computer"]),
        "names pragma": change(names=["#player1", "Computer"]),
        "names move": change(names=[">Ana:", "Computer"]),
        # a lone surrogate anywhere in the file (valid JSON): no answer holding it could be sent
        "review surrogate": change(review={"note": "\ud800"}),
        "owner surrogate": change(owner="t:\udfff"),
        "seed": change(seed=-1),
        "turn order": act(lambda m: _first(m, "play").update(p=1 - _first(m, "play")["p"])),
        "move letter": act(lambda m: _first(m, "play").update(move=_first(m, "play")["move"][:-1] + "Q")),
        "review": change(review=[1]),
    }[name]


DAMAGES = ["list", "null", "keys missing", "play as exchange", "unknown kind", "actions text", "created text",
           "level", "you 9", "you true", "names", "names equal", "names space", "names newline", "names surrogate",
           "names NUL", "names RTL", "names ZWSP", "names pragma", "names move", "review surrogate", "owner surrogate",
           "seed", "turn order", "move letter", "review"]


@pytest.mark.parametrize("damage", DAMAGES)
def test_a_damaged_game_file_is_refused_and_never_written(client, games_dir, damage):
    meta = _game_with_actions(client)
    gid = "damaged" + damage.replace(" ", "x")[:12].ljust(9, "x")
    text = _damage(damage)({**meta, "id": gid})
    path = games_dir / f"{gid}.json"
    path.write_text(text, encoding="utf-8")
    answers = [client.post("/api/play/state", json={"id": gid}, headers=EN),
               client.post("/api/play/move", json={"id": gid, "move": "-"}, headers=EN),
               client.post("/api/play/review", json={"id": gid}, headers=EN),
               client.get(f"/api/play/gcg/{gid}", headers=EN)]
    for r in answers:
        assert r.status_code == 400, (damage, r.status_code, r.text)
        assert r.json()["error"].startswith("this game file is damaged: "), r.text
    r = client.post("/api/play/list", json={"ids": [meta["id"], gid]}, headers=EN)
    assert r.status_code == 200, r.text
    assert [g["id"] for g in r.json()["games"]] == [meta["id"]]
    assert [d["id"] for d in r.json()["damaged"]] == [gid]
    assert path.read_text(encoding="utf-8") == text  # never written (before: "you": 9 let the engine play both seats)
    # German unless the page asks for English
    r = client.post("/api/play/state", json={"id": gid})
    assert r.status_code == 400 and r.json()["error"].startswith("Diese Spieldatei ist beschädigt: ")


def test_damage_messages_in_german(client, games_dir):
    meta = _game_with_actions(client)
    cases = {"you 9": "das Feld 'you' muss 0 oder 1 sein", "keys missing": "das Feld 'id' fehlt",
             "level": "das Feld 'level' muss eins von einsteiger, stark, meister sein",
             "null": "kein JSON-Objekt", "unknown kind": "die Art muss eins von play, withdrawn, exchange, pass sein",
             "review surrogate": "sie enthält Text, der kein UTF-8 ist (ein einzelnes Surrogat)"}
    for k, (damage, want) in enumerate(cases.items()):
        gid = f"german{k}xxxxxxxx"
        (games_dir / f"{gid}.json").write_text(_damage(damage)({**meta, "id": gid}), encoding="utf-8")
        r = client.post("/api/play/state", json={"id": gid})
        assert r.status_code == 400 and want in r.json()["error"], r.text


def test_a_file_whose_id_is_not_its_name_is_refused(client, games_dir):
    meta = _game_with_actions(client)
    original = games_dir / f"{meta['id']}.json"
    before = original.read_bytes()
    copy = games_dir / "dmgyou1xxxxxxxx.json"
    copy.write_bytes(before)  # a copy under another name (before: its moves went into the original's file)
    for r in (client.post("/api/play/state", json={"id": "dmgyou1xxxxxxxx"}, headers=EN),
              client.post("/api/play/move", json={"id": "dmgyou1xxxxxxxx", "move": "-"}, headers=EN)):
        assert r.status_code == 400
        assert r.json()["error"] == f"this game file is damaged: its id '{meta['id']}' is not its file name"
    assert original.read_bytes() == before and copy.read_bytes() == before
    r = client.post("/api/play/state", json={"id": "dmgyou1xxxxxxxx"})
    assert r.json()["error"] == (f"Diese Spieldatei ist beschädigt: ihre Kennung '{meta['id']}' ist nicht "
                                 "ihr Dateiname")


def test_a_game_writes_only_to_its_own_file(golden_lexicon, games_dir):
    store = GameStore(games_dir, golden_lexicon, None)
    gid = store.new("stark")["id"]
    meta = json.loads((games_dir / f"{gid}.json").read_text())
    meta["id"] = "someothergamexxx"
    store._write(gid, meta)
    with pytest.raises(PlayError, match="its id 'someothergamexxx' is not its file name"):
        store.state(gid)
    assert not (games_dir / "someothergamexxx.json").exists()  # written to the name, not to meta's id


# -- 5. the list with a damaged game -------------------------------------------------------------------------------
def test_the_list_shows_the_good_games_and_marks_the_damaged(client, games_dir):
    good = [_new(client)["id"] for _ in range(2)]
    (games_dir / "brokenkindxxxxxx.json").write_text('{"version": 1}')
    (games_dir / "notjsonxxxxxxxxx.json").write_text("{trunc")
    r = client.post("/api/play/list", json={"ids": [good[0], "brokenkindxxxxxx", "notjsonxxxxxxxxx",
                                                     "neverexistedxxxx", good[1]]}, headers=EN)
    assert r.status_code == 200, r.text
    j = r.json()
    assert sorted(g["id"] for g in j["games"]) == sorted(good)
    assert [(d["id"], d["error"].split(" (")[0].split(":")[0]) for d in j["damaged"]] == [
        ("brokenkindxxxxxx", "this game file is damaged"), ("notjsonxxxxxxxxx", "the game file cannot be read")]
    j = client.post("/api/play/list", json={"ids": ["brokenkindxxxxxx"]}).json()
    assert j["damaged"][0]["error"] == "Diese Spieldatei ist beschädigt: das Feld 'id' fehlt"


def test_a_game_file_with_names_the_game_refuses_is_listed_as_damaged(client, games_dir):
    # report-attack26b N2: two equal names passed the check, then failed the whole list with an English 400
    good = [_new(client)["id"] for _ in range(2)]
    meta = json.loads((games_dir / f"{good[0]}.json").read_text())
    (games_dir / "samenamesxxxxxxx.json").write_text(json.dumps({**meta, "id": "samenamesxxxxxxx",
                                                                 "names": ["Du", "Du"]}))
    r = client.post("/api/play/list", json={"ids": [good[0], "samenamesxxxxxxx", good[1]]})
    assert r.status_code == 200, r.text
    j = r.json()
    assert sorted(g["id"] for g in j["games"]) == sorted(good)
    assert j["damaged"] == [{"id": "samenamesxxxxxxx", "error": "Diese Spieldatei ist beschädigt: das Feld 'names' "
                                                                 "muss zwei verschiedene Namen aus Buchstaben, "
                                                                 "Ziffern, '-' oder '_' sein"}]


def test_summaries_list_a_game_the_replay_refuses_as_damaged(golden_lexicon, games_dir, monkeypatch):
    # a ValueError from Game() (a check the file check does not make) marks that one game, not the list
    store = GameStore(games_dir, golden_lexicon, None)
    gid = store.new("stark", owner="t:me")["id"]
    good = store.new("stark", owner="t:me")["id"]
    real = store._replay

    def replay(meta):
        if meta["id"] == gid:
            raise ValueError("player names must be distinct and without spaces: ['Du', 'Du']")
        return real(meta)
    monkeypatch.setattr(store, "_replay", replay)
    games, damaged = store.summaries([gid, good])
    assert [g["id"] for g in games] == [good]
    assert damaged == [{"id": gid, "error": "this game file is damaged: player names must be distinct and without "
                                            "spaces: ['Du', 'Du']"}]


# -- 6. (14) size limit, off the event loop -------------------------------------------------------------------------------
def test_a_huge_game_file_is_refused_and_read_off_the_event_loop(client, games_dir, monkeypatch):
    meta = _game_with_actions(client)
    gid = "hugegamexxxxxxxx"
    big = {**meta, "id": gid, "padding": "x" * MAX_GAME_BYTES}
    path = games_dir / f"{gid}.json"
    path.write_text(json.dumps(big))
    store = client.app.state.games
    on_loop = []
    read = store._read

    def checked(g):
        try:
            asyncio.get_running_loop()
            on_loop.append(g)
        except RuntimeError:  # no loop in this thread: a worker thread
            pass
        return read(g)

    monkeypatch.setattr(store, "_read", checked)
    for r in (client.post("/api/play/state", json={"id": gid}, headers=EN),
              client.post("/api/play/move", json={"id": gid, "move": "-"}, headers=EN)):
        assert r.status_code == 400 and r.json()["error"] == ("the game file is too large (over 1 MB): it cannot "
                                                              "be a game"), r.text
    assert client.post("/api/play/state", json={"id": meta["id"]}, headers=EN).status_code == 200
    assert on_loop == []  # every read of a game file ran in a worker thread
    r = client.post("/api/play/state", json={"id": gid})
    assert r.json()["error"] == "Die Spieldatei ist zu groß (über 1 MB): das kann keine Partie sein"


def test_a_move_for_a_turn_the_game_has_left_is_refused(client, games_dir):
    # report-attack26d B8: a second tab's (or a repeated request's) move was played as the player's next turn
    st = _new(client, TOKEN_A)
    gid, n = st["id"], len(st["turns"])
    r = client.post("/api/play/move", json={"id": gid, "move": "-", "turn": n}, headers=EN)
    assert r.status_code == 200, r.text
    after = r.json()
    assert len(after["turns"]) == n + 2  # the pass and the computer's answer
    before = (games_dir / f"{gid}.json").read_bytes()
    r = client.post("/api/play/move", json={"id": gid, "move": "-", "turn": n}, headers=EN)  # the stale tab
    assert r.status_code == 409
    assert r.json()["error"] == (f"the game has moved on in another tab or window (it has {n + 2} turns, this page "
                                 f"showed {n}); the move was not played")
    r = client.post("/api/play/move", json={"id": gid, "move": "-", "turn": n + 5})
    assert r.status_code == 409
    assert r.json()["error"] == (f"Die Partie ist in einem anderen Tab oder Fenster weitergegangen (sie hat {n + 2} "
                                 f"Züge, diese Seite zeigte {n + 5}); der Zug wurde nicht gespielt")
    assert (games_dir / f"{gid}.json").read_bytes() == before  # nothing played
    assert client.post("/api/play/move", json={"id": gid, "move": "-", "turn": -1}).status_code == 422
    for wrong in (True, "4", 4.0):  # report-attack26e E6: not read as a number
        r = client.post("/api/play/move", json={"id": gid, "move": "-", "turn": wrong}, headers=EN)
        assert r.status_code == 422 and "turn" in r.text, (wrong, r.text)
    # the right turn is played; an old client without "turn" still plays
    r = client.post("/api/play/move", json={"id": gid, "move": "-", "turn": n + 2}, headers=EN)
    assert r.status_code == 200 and len(r.json()["turns"]) == n + 4
    r = client.post("/api/play/move", json={"id": gid, "move": "-"}, headers=EN)
    assert r.status_code == 200, r.text


def test_parallel_first_moves_in_old_untouched_games_revive_no_more_than_max_open(golden_lexicon, games_dir):
    # report-attack26g R1: the count of open games and the move's write were not under one lock, so 8 first
    # moves in parallel in day-old untouched games revived 7 with max_open 3
    import threading

    store = GameStore(games_dir, golden_lexicon, None, keep=20, max_open=3)
    att = address_of("10.9.0.1")
    gids = []
    for k in range(8):  # each aged at once: no longer open, so the next may start
        gids.append(store.new("einsteiger", owner=f"t:r{k}", address=att)["id"])
        _age(games_dir, gids[-1], UNTOUCHED_DAYS + 0.5)
    gate = threading.Barrier(len(gids))
    played, refused = [], []

    def first_move(gid):
        gate.wait()
        try:
            store.move(gid, "-")
            played.append(gid)
        except PlayError as exc:
            refused.append(str(exc))

    threads = [threading.Thread(target=first_move, args=(gid,)) for gid in gids]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(played) == 3 and len(refused) == 5
    assert all("too many unfinished games" in e for e in refused)


def test_meister_does_not_wait_behind_a_strangers_analysis_in_the_deep_worker(golden_lexicon, games_dir):
    # report-attack26g D2: a Meister move waited in the deep worker's line behind a stranger's 32 s review
    # (30 s instead of its 3 s). Now it waits at most MASTER_WAIT, then plays static equity (the move is the
    # Stark level's). The worker here is held by a stranger for good: before, the move never came.
    import threading

    from engine.web.deep import DeepWorker
    from engine.web.server import Busy

    deep = DeepWorker(golden_lexicon, None)
    deep._running = "stranger"                       # a review runs (no worker process is started here)
    with pytest.raises(Busy):
        deep.run("x", 3.0, client="me", wait=0.0)
    store = GameStore(games_dir, golden_lexicon, None, deep=deep)
    static = GameStore(games_dir / "static", golden_lexicon, None)
    out = {}

    def play():
        out["meister"] = store.new("meister", seed=5, owner="t:m")
        out["meister"] = store.move(out["meister"]["id"], "-")

    t = threading.Thread(target=play, daemon=True)
    t.start()
    t.join(120)                                      # a bound for a hang, not a timing figure
    assert "meister" in out and out["meister"]["answer"] is not None
    st = static.new("stark", seed=5, owner="t:s")
    st = static.move(st["id"], "-")
    assert [x.get("move") for x in out["meister"]["turns"]] == [x.get("move") for x in st["turns"]]
    assert deep._ex is None                          # the worker was never asked


def test_a_full_disk_is_named_without_the_servers_path(client, games_dir, monkeypatch):
    """report-attack26g E*: a full disk gave "cannot write '<server path>': No space left on device" in English."""
    import errno

    from lexicon_tools import normalize

    st = _new(client)
    gid, turn = st["id"], len(st["turns"])  # the computer may have moved first

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(normalize.os, "fsync", full)
    for headers, want in ((EN, "the server's disk is full: the game was not saved; try again later"),
                          ({}, "Die Festplatte des Servers ist voll: die Partie wurde nicht gespeichert; später noch "
                               "einmal versuchen")):
        for path, body in (("/api/play/move", {"id": gid, "move": "-", "turn": turn}), ("/api/play/new", {"level": "stark"})):
            r = client.post(path, json=body, headers=headers)
            assert r.status_code == 400 and r.json()["error"] == want, r.text
            assert str(games_dir) not in r.text
    monkeypatch.undo()
    assert client.post("/api/play/state", json={"id": gid}, headers=EN).json()["turns"] == st["turns"]  # the old file kept


def test_a_server_over_its_cap_deletes_nothing_when_that_would_not_make_room(golden_lexicon, games_dir):
    # report-attack26i H1: restarted with a lower --max-games, the first stranger's new game deleted every game
    # that may go (idle ones), and was then refused all the same
    store = GameStore(games_dir, golden_lexicon, None, keep=20, max_games=100)
    active = [_moved(store, store.new("stark", owner=f"t:a{k}", address=address_of(f"10.3.0.{k}"))["id"], 1)
              for k in range(2)]
    idle = [_moved(store, store.new("stark", owner=f"t:i{k}", address=address_of(f"10.3.1.{k}"))["id"], 31)
            for k in range(4)]
    store.max_games = 1  # 6 files: deleting the 4 idle ones leaves 2, still not room for a new one
    with pytest.raises(PlayError, match=r"^too many games on this server \(1\)"):
        store.new("stark", owner="t:x", address=address_of("10.3.9.9"))
    assert _files(games_dir) == set(active) | set(idle)
    store.max_games = 4  # deleting the 3 oldest idle games makes room: only as many as needed go
    store.new("stark", owner="t:y", address=address_of("10.3.9.8"))
    assert set(active) <= _files(games_dir) and len(set(idle) & _files(games_dir)) == 1


def test_a_second_server_on_the_same_games_folder_is_refused(games_dir, capsys):
    # report-attack26i H2: two `engine web` on one games folder both answered the same move (game locks are per
    # process); the file kept one of them
    import socket

    from engine.cli.main import main
    from engine.web.cli import lock_games_dir

    first = lock_games_dir(games_dir)
    try:
        with pytest.raises(ValueError, match="another 'engine web' uses this games folder"):
            lock_games_dir(games_dir)
        # report-attack26k L1: deleting every file in the folder (a `.lock` of an older version too) lets no
        # second server in: the folder itself is locked
        for f in games_dir.iterdir():
            f.unlink()
        with pytest.raises(ValueError, match="another 'engine web' uses this games folder"):
            lock_games_dir(games_dir)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        rc = main(["--lang", "de", "web", "--games", str(games_dir), "--port", str(port)])
        assert rc == 2
        assert capsys.readouterr().err.strip().endswith(
            f"--games {games_dir}: ein anderes „engine web“ benutzt diesen Spiele-Ordner; das andere beenden oder "
            "diesem einen eigenen --games-Ordner geben")
    finally:
        first.close()
    lock_games_dir(games_dir).close()  # free again once the first server is gone
    assert _files(games_dir) == set()   # the lock file is no game


def test_a_games_folder_moved_while_the_server_runs_gets_no_more_writes(client, games_dir):
    # report-attack26l: `mv DIR DIR.old` and a second `engine web` on a new DIR; the first server still wrote by
    # path, so both answered moves of one game and one of them was lost
    gid = _new(client)["id"]
    moved = games_dir.with_name("spiele.old")
    games_dir.rename(moved)
    games_dir.mkdir()                                   # the second server's new, empty folder
    other = json.loads((moved / f"{gid}.json").read_text(encoding="utf-8"))
    (games_dir / f"{gid}.json").write_text(json.dumps(other), encoding="utf-8")   # it serves the same game
    before = (games_dir / f"{gid}.json").read_bytes()
    r = client.post("/api/play/move", json={"id": gid, "move": "-"}, headers=EN)
    assert r.status_code == 400 and r.json()["error"] == (
        "the games folder of this server was moved or deleted while it ran: it saves nothing more; the server must "
        "be restarted")
    assert (games_dir / f"{gid}.json").read_bytes() == before          # not written in the other server's folder
    r = client.post("/api/play/new", json={"level": "stark"})
    assert r.status_code == 400 and r.json()["error"].startswith(
        "Der Spiele-Ordner dieses Servers wurde verschoben oder gelöscht, während er lief: er speichert nichts mehr")
    assert _files(games_dir) == {gid} and _files(moved) == {gid}


def test_the_meister_games_of_one_address_wait_in_one_turn_of_the_deep_worker(golden_lexicon, games_dir):
    # report-attack26l: each Meister game queued in the deep worker as a client of its own, so one address with
    # 6 games took 6 turns for each of a stranger's one, whose 1-second analysis waited 42 s
    from engine.web.play import address_of
    from engine.web.server import Busy

    class Recording:
        clients: list[str] = []

        def run(self, cgp, seconds, client, wait):
            self.clients.append(client)
            raise Busy("busy_deep_own")              # the Meister then plays static equity

    deep = Recording()
    store = GameStore(games_dir, golden_lexicon, None, deep=deep)
    for address, seed in (("10.0.0.1", 1), ("10.0.0.1", 2), ("10.0.0.2", 3)):
        gid = store.new("meister", seed=seed, owner=f"t:{seed}", address=address_of(address))["id"]
        store.move(gid, "-")
    a1, a2 = (f"spielen:{address_of(a)}" for a in ("10.0.0.1", "10.0.0.2"))
    assert set(deep.clients) == {a1, a2} and deep.clients.count(a2) >= 1
    assert deep.clients.count(a1) >= 2               # both games of 10.0.0.1 in its one turn


def test_a_move_saved_before_the_folder_moved_is_said_to_be_saved(golden_lexicon, games_dir):
    # report-attack26l F3: the folder moved between the player's move and the computer's answer; the answer said
    # "nichts gespeichert" although the player's move was in the file
    from engine.web.german import play_de
    from engine.web.play import PlayError

    store = GameStore(games_dir, golden_lexicon, None)
    gid = store.new("stark", seed=5, owner="t:m")["id"]
    moved = games_dir.with_name("spiele.mid")
    answer = store._engine_turns

    def moved_then_answer(meta, g):
        games_dir.rename(moved)
        games_dir.mkdir()
        return answer(meta, g)

    store._engine_turns = moved_then_answer
    with pytest.raises(PlayError) as err:
        store.move(gid, "-")
    assert str(err.value) == ("your move was saved; the computer's answer was not: the games folder of this server "
                              "was moved or deleted while it ran: it saves nothing more; the server must be restarted")
    assert play_de(str(err.value)) == (
        "Dein Zug ist gespeichert, die Antwort des Computers nicht: Der Spiele-Ordner dieses Servers wurde "
        "verschoben oder gelöscht, während er lief: er speichert nichts mehr; der Server muss neu gestartet werden")
    saved = json.loads((moved / f"{gid}.json").read_text(encoding="utf-8"))
    assert saved["actions"][-1] == {"kind": "pass", "p": saved["you"]}
    assert _files(games_dir) == set()
