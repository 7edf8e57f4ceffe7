"""Defects a fresh user found in the director features (issue 15 follow-up): phone floods,
undo behind phone moves, look-alike names, CSV formula injection, deductions for players who
left, exit codes, signs, physical-bag racks, German messages, strict JSON types."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from engine.director import SimultanRules
from engine.director.store import EventDir
from engine.movegen.generator import generate_moves
from engine.web.app import create_app
from lexicon_tools.alphabet import german

A = german()
KEY = "admin-key-for-fix-tests"
H = {"X-Director-Key": KEY}
PLAYERS = ["Ana", "Ben", "Cal"]


@pytest.fixture
def event(tmp_path, golden_lexicon):
    return EventDir.create(tmp_path / "club", PLAYERS, seed=42, lexicon=golden_lexicon, name="Club",
                           rules=SimultanRules.for_alphabet(A, round_time=150), export=False, notes=None)


@pytest.fixture
def app(event, golden_lexicon):
    return create_app(golden_lexicon, event_dir=event.path, admin_key=KEY, players_submit=True)


def T(token: str) -> dict:
    return {"X-Player-Token": token}


def lines(event) -> int:
    return len(event.journal.path.read_bytes().splitlines())


def two_moves(event, lexicon):
    ev = event.load()
    moves = generate_moves(ev.board, A.parse_rack(ev.current.rack), lexicon).sorted()
    return moves[0], moves[1]


def test_an_identical_phone_resubmission_is_not_journaled_and_floods_get_429(app, event, golden_lexicon):
    c = TestClient(app)
    ana = app.state.player_links["Ana"]
    event.start()
    m1, m2 = two_moves(event, golden_lexicon)
    n0 = lines(event)
    r = c.post("/api/player/submit", json={"round": 1, "move": m1.notation}, headers=T(ana))
    assert r.status_code == 200 and "unchanged" not in r.json()["received"]
    assert lines(event) == n0 + 1
    r = c.post("/api/player/submit", json={"round": 1, "move": m1.notation}, headers=T(ana))
    assert r.status_code == 200 and r.json()["received"]["unchanged"] is True
    assert "unverändert" in r.json()["message"]
    assert lines(event) == n0 + 1                                  # not journaled again
    r = c.post("/api/player/submit", json={"round": 1, "move": m2.notation}, headers=T(ana))
    assert r.status_code == 200 and lines(event) == n0 + 2         # a different move is
    # 3 submissions so far; the limit is 5 per 10 s per player: the 6th is refused
    for _ in range(2):
        assert c.post("/api/player/submit", json={"round": 1, "move": "-"}, headers=T(ana)).status_code == 200
    r = c.post("/api/player/submit", json={"round": 1, "move": m1.notation}, headers=T(ana))
    assert r.status_code == 429 and "Zu viele Einsendungen" in r.json()["error"]
    assert lines(event) == n0 + 3                                  # "-" once (the repeat unchanged), not the 6th
    assert event.load().current.submissions["Ana"].text == "-"
    # another player's phone is not limited by Ana's
    ben = app.state.player_links["Ben"]
    assert c.post("/api/player/submit", json={"round": 1, "move": "-"}, headers=T(ben)).status_code == 200


def test_undo_takes_back_the_directors_action_not_phone_moves(app, event, golden_lexicon):
    c = TestClient(app)
    links = app.state.player_links
    event.start()
    m1, m2 = two_moves(event, golden_lexicon)
    pen = event.penalty("Cal", 3, reason="Handy")                  # the director's last action
    for p in ("Ana", "Ben"):
        assert c.post("/api/player/submit", json={"round": 1, "move": m1.notation},
                      headers=T(links[p])).status_code == 200
    st = c.get("/api/director/admin/state", headers=H).json()["state"]
    assert st["last_action"]["seq"] == pen["seq"] and "Strafe 3" in st["last_action"]["what"]
    r = c.post("/api/director/admin/undo", json={"expect": pen["seq"]}, headers=H)
    assert r.status_code == 200 and r.json()["undone"]["seq"] == pen["seq"]
    ev = event.load()
    assert set(ev.current.submissions) == {"Ana", "Ben"}           # the phone moves stay
    assert ev.current.deduction("Cal") == 0
    # next: the start (its phone moves depend on its clock and rack: they go with it)
    target, drops = ev.undo_target()
    assert target["type"] == "start" and len(drops) == 2
    rec = event.undo(target["seq"])
    assert rec["drops"] == drops
    ev = event.load()
    assert ev.current.started_at is None and ev.current.submissions == {}
    # a fresh replay of the journal gives the same event
    again = EventDir(event.path, golden_lexicon, notes=None, export=False).load()
    assert again.snapshot() == ev.snapshot()


def run(capsys, *argv):
    from engine.cli.main import main

    code = main(["simultan", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def test_undo_show_names_the_directors_action(event, golden_lexicon, capsys):
    event.start()
    m1, _ = two_moves(event, golden_lexicon)
    warn = event.warn("Cal", reason="laut")
    event.submit("Ana", m1.notation, 1, source="player")
    code, out, _ = run(capsys, "undo", event.path, "--show", "--lexicon", golden_lexicon.path)
    assert code == 0 and f"entry {warn['seq']}: a warning for Cal" in out
    code, out, _ = run(capsys, "undo", event.path, "--lexicon", golden_lexicon.path)
    assert code == 0 and f"undone: entry {warn['seq']}" in out
    assert event.load().current.submissions["Ana"].text == m1.notation


@pytest.mark.parametrize("names, message", [
    (["Döra", "Do\u0308ra"], "given twice"),                      # NFC and NFD spellings of one name
    (["Ana", "ANA"], "given twice"),
    (["Ana", "Ana\u200b"], "U+200B"),                               # zero-width space
    (["\u202eAnaBen", "Cal"], "U+202E"),                            # right-to-left override
    (["Ana\u0007", "Ben"], "U+0007"),
    (["\u3164", "Ben"], "U+3164"),                                   # Hangul filler: a letter that prints as nothing
    (["Ana", "\u0410na"], "mixes Cyrillic and Latin"),                # Cyrillic А beside Latin na
])
def test_look_alike_and_invisible_names_are_refused(tmp_path, capsys, golden_lexicon, names, message):
    code, out, err = run(capsys, "new", tmp_path / "nf", "--players", *names, "--lexicon", golden_lexicon.path)
    assert code == 2 and err.startswith("error: ") and message in err and "Traceback" not in err
    assert not (tmp_path / "nf" / "journal.jsonl").exists()


def test_join_and_players_file_normalise_names(tmp_path, capsys, golden_lexicon):
    f = tmp_path / "players.txt"
    f.write_text("Döra\nDo\u0308ra\n", encoding="utf-8")
    code, _, err = run(capsys, "new", tmp_path / "pf", "--players-file", f, "--lexicon", golden_lexicon.path)
    assert code == 2 and "given twice" in err
    d = tmp_path / "ok"
    code, _, err = run(capsys, "new", d, "--players", "Do\u0308ra", "Ana", "--lexicon", golden_lexicon.path)
    assert code == 0, err
    ev = EventDir(d, golden_lexicon, notes=None, export=False).load()
    assert ev.players == ["D\u00f6ra", "Ana"]                        # stored in NFC
    for name, message in (("ana", "taken"), ("Ana\u2060", "U+2060"), ("DÖRA", "taken")):
        code, _, err = run(capsys, "join", d, name, "--lexicon", golden_lexicon.path)
        assert code == 2 and message in err, err
    assert EventDir(d, golden_lexicon, notes=None, export=False).load().players == ["D\u00f6ra", "Ana"]


def test_csv_cells_that_look_like_formulas_are_escaped(tmp_path, golden_lexicon):
    import csv

    from engine.director.export import write_exports

    d = EventDir.create(tmp_path / "inj", ["=HYPERLINK(1)", "@Ben", "+Cal", "Dan"], seed=42, lexicon=golden_lexicon,
                        export=False, notes=None)
    d.start()
    d.penalty("Dan", -5, reason="=cmd|' /C calc'!A0")
    d.warn("Dan", reason="\tTAB")
    d.close()
    write_exports(d.load(), tmp_path / "out")
    standings = list(csv.DictReader(open(tmp_path / "out" / "standings.csv", encoding="utf-8")))
    assert [r["player"] for r in standings if r["player"] != "Dan"] == ["'=HYPERLINK(1)", "'@Ben", "'+Cal"]
    assert next(r for r in standings if r["player"] == "Dan")["total"] == "5"       # a plain number stays
    rounds = list(csv.DictReader(open(tmp_path / "out" / "rounds.csv", encoding="utf-8")))
    dan = next(r for r in rounds if r["player"] == "Dan")
    assert dan["penalty"] == "-5" and dan["move"] == ""
    assert "=cmd" in dan["penalty_reasons"], dan
    for path in ("standings.csv", "rounds.csv", "master.csv"):
        for row in csv.reader(open(tmp_path / "out" / path, encoding="utf-8")):
            for cell in row:
                assert not cell.startswith(("=", "+", "@", "\t", "\r")), (path, cell)
                if cell.startswith("-"):
                    float(cell)                                   # only negative numbers start with -


def test_no_deduction_for_a_player_after_they_left(app, event, golden_lexicon, capsys):
    c = TestClient(app)
    event.start()
    event.leave("Cal")
    event.close()
    event.start()                                                   # round 2: Cal is gone
    before = event.journal.path.read_bytes()
    for path, body in (("warn", {"player": "Cal", "reason": "laut"}), ("penalty", {"player": "Cal", "points": 3}),
                       ("submit", {"round": 2, "player": "Cal", "move": "-"})):
        r = c.post(f"/api/director/admin/{path}", json=body, headers=H)
        assert r.status_code == 409 and "Cal" in r.json()["error"], (path, r.json())
    lex = golden_lexicon.path
    for argv in (["warn", event.path, "Cal"], ["penalty", event.path, "Cal", "3"], ["submit", event.path, "Cal", "-"],
                 ["leave", event.path, "Cal"], ["warn", event.path, "Zoe"], ["submit", event.path, "Zoe", "-"],
                 ["leave", event.path, "Zoe"]):
        code, out, err = run(capsys, *argv, "--lexicon", lex)
        err = [ln for ln in err.splitlines() if not ln.startswith("note: ")]
        assert code == 2 and out == "" and len(err) == 1 and err[0].startswith("error: "), (argv, err)
    assert event.journal.path.read_bytes() == before
    # the round Cal left in still takes a deduction
    r = c.post("/api/director/admin/penalty", json={"player": "Cal", "points": 2, "round": 1}, headers=H)
    assert r.status_code == 200 and event.load().rounds[0].deduction("Cal") == 2


@pytest.mark.parametrize("path, body, field", [
    ("submit", {"round": 1, "player": "Ana", "move": "-", "late": "yes"}, "late"),
    ("submit", {"round": True, "player": "Ana", "move": "-"}, "round"),
    ("penalty", {"player": "Ana", "points": "5"}, "points"),
    ("penalty", {"player": "Ana", "points": 0}, "points"),
    ("penalty", {"player": "Ana", "points": 1001}, "points"),
    ("penalty", {"player": "Ana", "points": 5.0}, "points"),
    ("warn", {"player": 7}, "player"),
])
def test_admin_bodies_are_strictly_typed(app, event, path, body, field):
    c = TestClient(app)
    event.start()
    before = event.journal.path.read_bytes()
    r = c.post(f"/api/director/admin/{path}", json=body, headers=H)
    msg = r.json()["error"]
    assert r.status_code == 422 and msg.startswith(f"Feld {field}: ") and "Input should" not in msg, msg
    assert event.journal.path.read_bytes() == before


def test_a_body_that_is_not_an_object_gets_a_german_message(app, event):
    c = TestClient(app)
    r = c.post("/api/director/admin/warn", json=["Ana"], headers=H)
    assert r.status_code == 422 and "JSON-Objekt" in r.json()["error"] and "Input should" not in r.json()["error"]
    ana = app.state.player_links["Ana"]
    r = c.post("/api/player/submit", json={"round": "1", "move": "-"}, headers=T(ana))
    assert r.status_code == 422 and r.json()["error"] == "Feld round: keine ganze Zahl"


def test_points_given_back_read_plus_and_negative_totals_use_the_minus_sign(tmp_path, capsys, golden_lexicon):
    lex = golden_lexicon.path
    d = tmp_path / "abend"
    assert run(capsys, "new", d, "--players", "Ana", "Ben", "--seed", 42, "--late-submission", "penalty",
               "--late-penalty", "10", "--lexicon", lex)[0] == 0
    assert run(capsys, "round", d, "--start", "--lexicon", lex)[0] == 0
    assert run(capsys, "submit", d, "Ana", "-", "--late", "--lexicon", lex)[0] == 0
    code, out, _ = run(capsys, "penalty", "--lexicon", lex, d, "Ana", "--", "-5")
    assert code == 0 and "5 points given back to Ana" in out
    assert run(capsys, "penalty", d, "Ben", "15", "--lexicon", lex)[0] == 0
    code, out, _ = run(capsys, "close", d, "--lexicon", lex)
    ana = next(ln for ln in out.splitlines() if ln.strip().startswith("Ana"))
    assert "-5 (penalty +5; late move -10)" in ana and "--" not in ana, ana   # 10 - 5 deducted
    code, out, _ = run(capsys, "standings", d, "--lexicon", lex)
    ana = next(ln for ln in out.splitlines() if " Ana " in ln)
    assert ana.split()[2] == "-5" and " -5 " in ana, ana
    html = (d / "export" / "index.html").read_text(encoding="utf-8")
    assert "1 Runde gespielt" in html and "1 Runden" not in html
    assert ">\u22125<" in html and ">\u221215<" in html and ">-5<" not in html      # totals −5 (Ana), −15 (Ben)
    code, out, _ = run(capsys, "round", d, "--lexicon", lex)
    from engine.director.rules import rack_balance

    ev = EventDir(d, golden_lexicon, notes=None, export=False).load()
    v, c, b = rack_balance(ev.rack, ev.alphabet, ev.rules.vowels)     # counting is not what is tested here
    word = lambda n, w: f"{n} {w}" + ("s" if n != 1 else "")
    assert f"({word(v, 'vowel')}, {word(c, 'consonant')}, {word(b, 'blank')}" in out, out


def test_a_physical_bag_round_has_no_rack_before_its_tiles_are_typed(tmp_path, capsys, golden_lexicon):
    lex = golden_lexicon.path
    d = tmp_path / "beutel"
    code, out, _ = run(capsys, "new", d, "--players", "Ana", "Ben", "--seed", 42, "--physical-bag", "--lexicon", lex)
    assert code == 0
    ev = EventDir(d, golden_lexicon, notes=None, export=False).load()
    seeded = ev.current.rack                                        # the internal draw: shown nowhere
    assert " ".join(seeded) not in out and "round 1: draw the tiles from the bag" in out
    code, out, _ = run(capsys, "round", d, "--lexicon", lex)
    assert code == 0 and " ".join(seeded) not in out
    code, out, _ = run(capsys, "round", d, "--json", "--lexicon", lex)
    assert '"rack": ""' in out and seeded not in out
    app = create_app(golden_lexicon, event_dir=d, admin_key=KEY)
    st = TestClient(app).get("/api/director/admin/state", headers=H).json()["state"]
    assert st["current"]["rack"] == "" and st["current"]["tops"] == [] and seeded not in str(st["current"])
    # typed from the bag: now the rack and (for the director) its top moves
    typed = "ENRSTAI"
    code, out, err = run(capsys, "round", d, "--start", "--rack", typed, "--lexicon", lex)
    assert code == 0, err
    st = TestClient(app).get("/api/director/admin/state", headers=H).json()["state"]
    assert sorted(st["current"]["rack"]) == sorted(typed) and st["current"]["tops"]
    assert st["current"]["rack_from"] == "bag"
    code, out, _ = run(capsys, "close", d, "--lexicon", lex)
    assert code == 0 and "round 2: draw the tiles from the bag" in out
    nxt = EventDir(d, golden_lexicon, notes=None, export=False).load().current.rack
    assert f"rack {' '.join(nxt)}" not in out


def test_refusals_on_the_pages_are_german_without_command_syntax(app, event, golden_lexicon):
    c = TestClient(app)
    ana = app.state.player_links["Ana"]
    r = c.post("/api/player/submit", json={"round": 1, "move": "-"}, headers=T(ana))
    assert r.status_code == 409
    assert r.json()["error"] == "Nicht mehr möglich: Runde 1 hat noch nicht begonnen; nichts eingetragen."
    r = c.post("/api/director/admin/submit", json={"round": 1, "player": "Ana", "move": "-"}, headers=H)
    msg = r.json()["error"]
    assert r.status_code == 409 and "`" not in msg and "simultan" not in msg and "--" not in msg
    assert msg.count("nichts eingetragen") == 1 and "nothing recorded" not in msg
    event.start()
    top = event.load().current.tops[0]
    r = c.post("/api/director/admin/close", json={"round": 1, "choose": "8D LAND"}, headers=H)
    msg = r.json()["error"]
    assert r.status_code == 400 and "ist keiner der gleichwertigen Top-Züge" in msg and top.notation in msg
    assert "--choose" not in msg


def test_choose_names_the_tied_tops_not_the_word_check(event, capsys, golden_lexicon):
    event.start()
    top = event.load().current.tops[0]
    code, _, err = run(capsys, "close", event.path, "--choose", "8D LAND", "--lexicon", golden_lexicon.path)
    assert code == 2 and "is not one of the tied top moves" in err and top.notation in err


def test_a_physical_bag_start_without_tiles_on_the_screen(tmp_path, golden_lexicon):
    d = EventDir.create(tmp_path / "pb", PLAYERS, seed=42, lexicon=golden_lexicon, export=False, notes=None,
                        rules=SimultanRules.for_alphabet(A, physical_bag=True))
    c = TestClient(create_app(golden_lexicon, event_dir=d.path, admin_key=KEY))
    r = c.post("/api/director/admin/start", json={"round": 1}, headers=H)
    msg = r.json()["error"]
    assert r.status_code == 400 and "echten Beutel" in msg and "`" not in msg and "--rack" not in msg


def test_a_damaged_journal_is_reported_in_german(app, event):
    path = event.journal.path
    event.start()
    lines_ = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(lines_[0] + b'{"seq": 2, "type": "start", "broken": tru\n' + b"".join(lines_[1:]))
    c = TestClient(app)
    for url, headers in (("/api/director", {}), ("/api/director/admin/state", H),
                         ("/api/player/state", T(app.state.player_links["Ana"]))):
        r = c.get(url, headers=headers)
        msg = r.json()["error"]
        assert r.status_code in (400, 503) and msg.startswith("Die Partie kann gerade nicht gelesen werden"), (url, msg)


def test_the_admin_page_is_404_without_admin(event, golden_lexicon):
    for app in (create_app(golden_lexicon, event_dir=event.path), create_app(golden_lexicon)):
        c = TestClient(app)
        assert c.get("/api/director/admin/state", headers=H).status_code == 404
        r = c.get("/director/admin")
        assert r.status_code == 404 and "--admin" in r.text
    c = TestClient(create_app(golden_lexicon, event_dir=event.path, admin_key=KEY))
    assert c.get("/director/admin").status_code == 200


def test_moves_over_60_characters_are_refused_everywhere(app, event):
    c = TestClient(app)
    event.start()
    move = "8D " + "A" * 58                                           # 61 characters
    r = c.post("/api/director/admin/submit", json={"round": 1, "player": "Ana", "move": move}, headers=H)
    assert r.status_code == 422 and "höchstens 60 Zeichen" in r.json()["error"]
    r = c.post("/api/player/submit", json={"round": 1, "move": move}, headers=T(app.state.player_links["Ana"]))
    assert r.status_code == 422 and "höchstens 60 Zeichen" in r.json()["error"]


def test_an_invalid_slip_handed_in_late_still_costs_the_late_penalty(tmp_path, golden_lexicon):
    """The rule question, confirmed: under ``late_submission = "penalty"`` the deduction is for the
    lateness, whatever the slip scores, so an invalid (0-point) slip handed in late costs -10."""
    from itertools import permutations

    d = EventDir.create(tmp_path / "late", ["Ana", "Ben"], seed=42, lexicon=golden_lexicon, export=False, notes=None,
                        rules=SimultanRules.for_alphabet(A, late_submission="penalty", late_penalty=10))
    d.start()
    rack = d.load().current.rack.replace("?", "")
    words = {m.notation.split()[1] for m in generate_moves(d.load().board, A.parse_rack(d.load().current.rack),
                                                           golden_lexicon)}
    bad = next("".join(p) for p in permutations(rack, 3) if "".join(p) not in words)
    sub = d.submit("Ana", f"8H {bad}", late=True)
    assert not sub.valid and sub.score == 0 and sub.handed_late
    d.close()
    rnd = d.load().closed_rounds[0]
    assert rnd.scores["Ana"] == 0 and rnd.deduction("Ana") == 10 and rnd.total("Ana") == -10


def test_new_and_close_name_the_projector_page(tmp_path, capsys, golden_lexicon):
    d = tmp_path / "p"
    code, out, _ = run(capsys, "new", d, "--players", "Ana", "--seed", 42, "--lexicon", golden_lexicon.path)
    assert code == 0 and f"projector page: {d / 'export' / 'current.html'}" in out
