"""Issue 15 part 5, the events of the room: late moves, warnings, penalties, players joining late
or leaving, tables. Through EventDir (journal, replay, undo), the ``simultan`` commands, the
exports and the arbitration screen's API. Move scores come from the move generator on the
round's position (an independent method); deductions are worked out by hand from the rules."""

from __future__ import annotations

import csv
import io
import json

import pytest
from fastapi.testclient import TestClient

from engine.cli.main import main
from engine.director import SimultanRules
from engine.director.event import DirectorError, Rejected, replay
from engine.director.store import EventDir
from engine.movegen.generator import generate_moves
from engine.web.app import create_app
from lexicon_tools.alphabet import german

A = german()
KEY = "room-key-4411"
H = {"X-Director-Key": KEY}


class Clock:
    def __init__(self, t: float = 1_000_000.0):
        self.t = t

    def __call__(self) -> float:
        return self.t


def top_moves(d: EventDir, lex):
    ev = d.load()
    return generate_moves(ev.board, A.parse_rack(ev.current.rack), lex).sorted()


def make(tmp_path, lex, players=("Ana", "Ben", "Cal"), **rules):
    clock = Clock()
    r = SimultanRules.for_alphabet(A, round_time=100, **rules)
    d = EventDir.create(tmp_path / "club", list(players), seed=1, rules=r, lexicon=lex, export=False, notes=None,
                        now=clock, tables={"Ana": 1, "Ben": 1, "Cal": 2} if len(players) == 3 else None)
    return d, clock


def test_warnings_penalties_late_join_leave_replay_and_undo(tmp_path, golden_lexicon):
    d, clock = make(tmp_path, golden_lexicon, late_submission="zero", warning_penalty=5, warnings_free=1)
    d.start()
    m1 = top_moves(d, golden_lexicon)
    best = m1[0]
    d.submit("Ana", best.notation)
    d.submit("Ben", best.notation, late=True)          # the slip came after the time: 0 under "zero"
    d.submit("Cal", m1[-1].notation)
    d.warn("Ben", reason="Handy")                      # the first warning is free
    d.warn("Ben")                                      # the second costs 5
    d.penalty("Cal", 3, reason="laut")
    rnd = d.close()
    assert rnd.scores == {"Ana": best.score, "Ben": 0, "Cal": m1[-1].score}
    assert rnd.total("Ben") == -5 and rnd.total("Cal") == m1[-1].score - 3 and rnd.void_late == ["Ben"]
    assert [e["points"] for e in rnd.penalties["Ben"]] == [0, 5]

    d.join("Dora", table=2)                             # arrives for round 2
    d.start()
    m2 = top_moves(d, golden_lexicon)
    d.submit("Cal", m2[0].notation)
    d.leave("Cal")                                      # leaves after handing in round 2
    with pytest.raises(Rejected, match="Cal left the event in round 2"):
        d.submit("Cal", m2[1].notation)
    d.submit("Dora", m2[1].notation)
    d.close()
    d.start()
    with pytest.raises(Rejected, match="left the event"):
        d.submit("Cal", "-")

    ev = d.load()
    st = {s.player: s for s in ev.standings()}
    assert st["Ana"].total == best.score and st["Ana"].table == 1
    assert st["Ben"].total == -5 and st["Ben"].penalty == 5 and st["Ben"].warnings == 2
    assert st["Ben"].handed_late == 1 and st["Ben"].missing == 1           # round 2 without a move
    assert st["Cal"].total == m1[-1].score - 3 + m2[0].score and st["Cal"].left == 2 and st["Cal"].absent == 0
    assert st["Dora"].total == m2[1].score and st["Dora"].joined == 2 and st["Dora"].absent == 1
    assert st["Dora"].missing == 0 and st["Dora"].table == 2
    # the journal rebuilds the same event
    again = replay(d.journal.read(), golden_lexicon)
    assert again.snapshot() == ev.snapshot()
    # undo takes back the start of round 3, then the close of round 2 ...; the leave comes back out
    d.undo()
    d.undo()
    d.undo()                                            # Dora's move
    d.undo()                                            # Cal's leave
    ev = d.load()
    assert "Cal" not in ev.left and ev.current.number == 2
    d.submit("Cal", m2[1].notation)                     # taken again
    assert d.load().current.submissions["Cal"].score == m2[1].score


def test_late_penalty_from_a_phone_uses_the_clock_and_the_grace(tmp_path, golden_lexicon):
    d, clock = make(tmp_path, golden_lexicon, late_submission="penalty", late_penalty=10, late_grace=5)
    d.start()
    m = top_moves(d, golden_lexicon)
    clock.t += 104                                      # 100 s round time + 4 s: within the grace
    assert not d.submit("Ana", m[0].notation, source="player").handed_late
    clock.t += 2                                        # 106 s: late
    assert d.submit("Ben", m[0].notation, source="player").handed_late
    assert not d.submit("Cal", m[0].notation).handed_late   # the director typing a slip: the clock marks nothing
    rnd = d.close()
    assert [rnd.total(p) for p in ("Ana", "Ben", "Cal")] == [m[0].score, m[0].score - 10, m[0].score]
    assert rnd.scores["Ben"] == m[0].score              # the move counts, the deduction is apart


def test_refusals_change_nothing(tmp_path, golden_lexicon):
    d, _ = make(tmp_path, golden_lexicon)
    before = d.journal.path.read_bytes()
    for call, err in [(lambda: d.penalty("Ana", 0), "penalty 0"), (lambda: d.penalty("Ana", 1001), "1000"),
                      (lambda: d.penalty("Ana", 5, round_no=2), "round 2 has not been played"),
                      (lambda: d.join("ana"), "taken by 'Ana'"), (lambda: d.join(" "), "non-empty"),
                      (lambda: d.join("Eva", table=0), "table 0")]:
        with pytest.raises(DirectorError, match=err):
            call()
    with pytest.raises(Rejected, match="unknown player"):
        d.warn("Zoe")
    d.leave("Ana")
    with pytest.raises(DirectorError, match="left in round 1 already"):
        d.leave("Ana")
    assert d.journal.path.read_bytes().startswith(before)
    assert len(d.journal.read()) == 2                    # new + the one leave


def test_cli_commands_and_exports(tmp_path, golden_lexicon, capsys):
    names = tmp_path / "spieler.txt"
    names.write_text("Name;Tisch\nAna;1\nBen;1\nMüller, Hans;2\n", encoding="utf-8")
    ev_dir = str(tmp_path / "ev")
    lex = str(golden_lexicon.path)
    assert main(["simultan", "new", ev_dir, "--players-file", str(names), "--seed", "1", "--lexicon", lex,
                 "--warning-penalty", "5", "--late-penalty", "7"]) == 0
    assert "3 players (Ana, Ben, Müller, Hans) at 2 tables" in capsys.readouterr().out
    assert main(["simultan", "round", ev_dir, "--start", "--lexicon", lex]) == 0
    d = EventDir(ev_dir, golden_lexicon, notes=None)
    m = top_moves(d, golden_lexicon)
    capsys.readouterr()
    assert main(["simultan", "submit", ev_dir, "Ana", m[0].notation, "--late", "--lexicon", lex]) == 0
    assert "handed in late: 7 points will be deducted" in capsys.readouterr().out
    assert main(["simultan", "warn", ev_dir, "Ben", "--reason", "Handy", "--lexicon", lex]) == 0
    assert "warning 1 for Ben, 5 points deducted (Handy)" in capsys.readouterr().out
    assert main(["simultan", "penalty", ev_dir, "Müller, Hans", "3", "--lexicon", lex]) == 0
    assert main(["simultan", "penalty", ev_dir, "Ana", "0", "--lexicon", lex]) == 2
    assert capsys.readouterr().err.startswith("error: penalty 0")
    assert main(["simultan", "warn", ev_dir, "Zoe", "--lexicon", lex]) == 2
    assert "error: unknown player 'Zoe'" in capsys.readouterr().err
    assert main(["simultan", "close", ev_dir, "--lexicon", lex]) == 0
    assert main(["simultan", "join", ev_dir, "Dora", "--table", "2", "--lexicon", lex]) == 0
    assert "Dora joins in round 2 at table 2; round 1 counts 0" in capsys.readouterr().out
    assert main(["simultan", "leave", ev_dir, "Ben", "--lexicon", lex]) == 0
    assert "Ben leaves in round 2: no further move is taken" in capsys.readouterr().out
    assert main(["simultan", "standings", ev_dir, "--json", "--lexicon", lex]) == 0
    rows = {s["player"]: s for s in json.loads(capsys.readouterr().out)["standings"]}
    assert rows["Ana"]["total"] == m[0].score - 7 and rows["Ana"]["penalty"] == 7
    assert rows["Ben"]["total"] == -5 and rows["Ben"]["warnings"] == 1 and rows["Ben"]["left"] == 2
    assert rows["Müller, Hans"]["total"] == -3 and rows["Müller, Hans"]["table"] == 2
    assert rows["Dora"]["joined"] == 2 and rows["Dora"]["absent"] == 1
    exp = tmp_path / "ev" / "export"
    stand = {r["player"]: r for r in csv.DictReader(io.StringIO((exp / "standings.csv").read_text("utf-8")))}
    assert stand["Ben"]["penalty"] == "5" and stand["Ben"]["warnings"] == "1" and stand["Dora"]["joined"] == "2"
    rounds = [r for r in csv.DictReader(io.StringIO((exp / "rounds.csv").read_text("utf-8"))) if r["player"] == "Ana"]
    assert rounds[0]["handed_late"] == "yes" and rounds[0]["penalty"] == "7"
    assert rounds[0]["penalty_reasons"] == "zu spät abgegeben −7"
    html = (exp / "index.html").read_text("utf-8")
    assert "<th class=\"n\">Abzug</th>" in html and "Dora <span class=\"small\">(ab Runde 2)</span>" in html
    assert "Ben <span class=\"small\">(ausgeschieden in Runde 2)</span>" in html
    res = json.loads((exp / "results.json").read_text("utf-8"))
    assert res["rounds"][0]["players"]["Ben"]["penalties"][0]["reason"] == "Handy"


def test_admin_api_room_events(tmp_path, golden_lexicon):
    d, _ = make(tmp_path, golden_lexicon, warning_penalty=2)
    c = TestClient(create_app(golden_lexicon, event_dir=d.path, admin_key=KEY))
    path = d.journal.path
    before = path.read_bytes()
    for url, body, status, text in [
            ("warn", {"player": "Ana"}, 401, "Schlüssel fehlt"),
            ("join", {"round": 2, "name": "Eva"}, 409, "Nicht möglich: Runde 2 ist nicht die offene Runde"),
            ("penalty", {"player": "Ana", "points": 5000}, 422, "Feld points: darf höchstens 1000 sein"),
            ("penalty", {"player": "Zoe", "points": 5}, 400, "Abgelehnt: Unbekannter Spieler 'Zoe'"),
            ("leave", {"round": 1}, 422, "Feld player: fehlt")]:
        r = c.post(f"/api/director/admin/{url}", json=body, headers={} if status == 401 else H)
        assert r.status_code == status and r.json()["error"].startswith(text), r.json()
    assert path.read_bytes() == before
    r = c.post("/api/director/admin/warn", json={"player": "Ben", "reason": "Handy"}, headers=H)
    assert r.status_code == 200 and r.json()["warning"] == {"number": 1, "points": 2}
    assert r.json()["state"]["event"]["rules_text"] == ("Verspätet abgegeben: zählt (nur markiert). Verwarnungen: "
                                                        "jede −2. (Festgelegt bei `simultan new`.)")
    r = c.post("/api/director/admin/join", json={"round": 1, "name": "Eva", "table": 3}, headers=H)
    st = r.json()["state"]
    assert st["event"]["tables"] == [1, 2, 3] and st["players"]["Eva"]["table"] == 3
    assert st["players"]["Ben"]["deduction"] == 2 and st["players"]["Ben"]["warnings"] == 1
    r = c.post("/api/director/admin/leave", json={"round": 1, "player": "Cal"}, headers=H)
    assert r.json()["state"]["players"]["Cal"]["left"] == 1
    c.post("/api/director/admin/start", json={"round": 1}, headers=H)
    m = top_moves(d, golden_lexicon)
    r = c.post("/api/director/admin/submit", json={"round": 1, "player": "Cal", "move": m[0].notation}, headers=H)
    assert r.status_code == 409 and "Cal hat das Turnier in Runde 1 verlassen" in r.json()["error"]
    r = c.post("/api/director/admin/submit", json={"round": 1, "player": "Ana", "move": m[0].notation, "late": True},
               headers=H)
    assert r.json()["submission"]["handed_late"] is True
    assert r.json()["state"]["last_action"]["what"] == f"Zug von Ana in Runde 1: {m[0].notation}"


def test_two_hundred_players_at_tables(tmp_path, golden_lexicon):
    players = [f"Spieler {i:03d}" for i in range(1, 201)]
    d = EventDir.create(tmp_path / "big", players, seed=1, lexicon=golden_lexicon, export=True, notes=None,
                        tables={p: i // 8 + 1 for i, p in enumerate(players)})
    c = TestClient(create_app(golden_lexicon, event_dir=d.path, admin_key=KEY))
    st = c.get("/api/director/admin/state", headers=H).json()["state"]
    assert len(st["event"]["players"]) == 200 and st["event"]["tables"] == list(range(1, 26))
    assert st["players"]["Spieler 200"]["table"] == 25
    d.start()
    m = top_moves(d, golden_lexicon)
    for i, p in enumerate(players[:40]):
        d.submit(p, m[i % len(m)].notation)
    d.close()
    st = c.get("/api/director/admin/state", headers=H).json()["state"]
    assert len(st["standings"]) == 200 and st["standings"][0]["total"] == m[0].score
    assert sum(1 for s in st["standings"] if s["total"] == 0) == 160


def test_a_late_arrival_gets_a_phone_link(tmp_path, golden_lexicon):
    d, _ = make(tmp_path, golden_lexicon)
    c = TestClient(create_app(golden_lexicon, event_dir=d.path, admin_key=KEY, players_submit=True))
    d.start()
    r = c.post("/api/director/admin/join", json={"round": 1, "name": "Eva", "table": 2}, headers=H)
    link = r.json()["link"]
    assert link.startswith("http://testserver/spieler#t=") and "Eva" in r.json()["state"]["player_links"]
    token = {"X-Player-Token": link.split("#t=")[1]}
    m = top_moves(d, golden_lexicon)
    r = c.post("/api/player/submit", json={"round": 1, "move": m[0].notation}, headers=token)
    assert r.status_code == 200 and r.json()["state"]["player"] == "Eva"
    assert token["X-Player-Token"] not in (d.path / "player-tokens.json").read_text()   # only its hash
    # a restart keeps the link; a join admitted on the command line gets one at the next start
    d.join("Finn")
    app = create_app(golden_lexicon, event_dir=d.path, players_submit=True)
    assert set(app.state.player_links) == {"Finn"}
    c2 = TestClient(app)
    assert c2.get("/api/player/state", headers=token).json()["state"]["player"] == "Eva"
    finn = {"X-Player-Token": app.state.player_links["Finn"]}
    assert c2.get("/api/player/state", headers=finn).json()["state"]["player"] == "Finn"
    # Finn's join undone: the server starts, his link is refused
    d.undo()
    c3 = TestClient(create_app(golden_lexicon, event_dir=d.path, players_submit=True))
    r = c3.get("/api/player/state", headers=finn)
    assert r.status_code == 403 and r.json()["error"] == "Unbekannter oder ungültiger Spieler-Link: nichts eingetragen"


def test_every_read_still_checks_every_line(tmp_path, golden_lexicon):
    """The journal reader keeps the records of lines it verified before (200 players make long
    journals), but a line whose bytes changed since is parsed and checked again."""
    from engine.director.journal import JournalError

    d, _ = make(tmp_path, golden_lexicon)
    d.warn("Ana", reason="aaaa")
    d.warn("Ben")
    first = d.journal.read()
    assert d.journal.read() == first
    data = d.journal.path.read_bytes()
    d.journal.path.write_bytes(data.replace(b'"reason":"aaaa"', b'"reason":"bbbb"'))   # same length, line 2
    with pytest.raises(JournalError, match="line 2: checksum mismatch"):
        d.journal.read()
    with pytest.raises(JournalError, match="line 2: checksum mismatch"):
        EventDir(d.path, golden_lexicon, notes=None, export=False).load()
