"""The director's live projection page of the web app: ``GET /api/director`` and ``GET /director``.

A real 3-player event is played through the director's commands (``EventDir``) while
the web app reads it; every value the app reports is checked against an independent
computation: the move generator and the word checker on the round's position.
"""

from __future__ import annotations

import json

import re
import time

import pytest
from fastapi.testclient import TestClient

from engine.position.board import Board
from engine.director import SimultanRules, top_moves
from engine.director.export import current_page, write_exports
from engine.director.render import MAX_SCORE_ROWS, notation_html, round_page
from engine.director.store import EventDir
from engine.movegen.generator import generate_moves
from engine.position.scorer import IllegalMove, check_move
from engine.web.app import create_app
from engine.web.director import API_URL, director_page, director_state
from lexicon_tools.alphabet import german

A = german()
PLAYERS = ["Ana", "Ben", "Cal"]
T0 = 1_800_000_000.0


class Clock:
    """The director's clock: each call advances one second."""

    def __init__(self, t: float = T0):
        self.t = t

    def __call__(self) -> float:
        self.t += 1.0
        return self.t


@pytest.fixture
def lex(golden_lexicon):
    return golden_lexicon


@pytest.fixture
def event(tmp_path, lex):
    """A 3-player event (seed 42, 2:30 per round, solo bonus 10 from 3 players) and its director."""
    rules = SimultanRules.for_alphabet(A, solo_bonus=10, solo_min_players=3, round_time=150)
    clock = Clock()
    d = EventDir.create(tmp_path / "club", PLAYERS, seed=42, rules=rules, lexicon=lex,
                        lexicon_path=str(lex.path), name="Club Simultan", now=clock, export=False, notes=None)
    return d, clock


@pytest.fixture
def client(event, lex):
    d, _clock = event
    return TestClient(create_app(lex, event_dir=d.path))


def invalid_move(board: Board, rack: str, lex) -> str:
    """A readable move from the rack whose word is not in the list (a top move's word reversed)."""
    for m in generate_moves(board, A.parse_rack(rack), lex).sorted():
        start, word = m.notation.split(" ", 1)
        if "(" in word:
            continue
        text = f"{start} {word[::-1]}"
        try:
            check_move(board, text, lex, rack=rack)
        except IllegalMove as exc:
            if "not in the word list" in exc.reason:
                return text
    raise AssertionError("no invalid move found")


def test_open_round_before_anything(client, event):
    d, _clock = event
    ev = EventDir(d.path, notes=None).load()          # the event as the CLI sees it (its own lexicon load)
    r = client.get("/api/director")
    assert r.status_code == 200
    st = r.json()
    assert st["event"] == {"name": "Club Simultan", "players": PLAYERS, "round_time": 150}
    assert st["seq"] == 1 and st["over"] is False and st["end_reason"] == ""
    cur = st["current"]
    assert cur["round"] == 1 and cur["rack"] == ev.current.rack and len(cur["rack"]) == 7
    assert cur["board"] == ["." * 15] * 15
    assert cur["clock"] == {"start": None, "seconds": 150}
    assert st["last_round"] is None and st["master_total"] == 0
    assert [s["player"] for s in st["standings"]] == PLAYERS and all(s["total"] == 0 for s in st["standings"])
    page = client.get("/director")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    html = page.text
    assert '<div class="round" data-round="1">Runde <b>1</b></div>' in html
    rack_letters = re.findall(r'<span class="l">(.?)</span>', html)
    assert "".join(ch or "?" for ch in rack_letters) == ev.current.rack
    assert 'id="clock"' in html and 'data-start=""' in html and 'data-len="150"' in html
    assert "Ergebnisse" not in html                   # no round closed yet


def test_bag_count_is_the_tiles_not_drawn(client, event, lex):
    d, _clock = event
    ev = d.load()
    cur = client.get("/api/director").json()["current"]
    assert cur["bag"] == len(ev.bag) == A.total_tiles - 7


def test_round_closed_top_move_and_scores(client, event, lex):
    d, clock = event
    ev = d.load()
    rack = ev.current.rack
    board = Board(A)                                  # round 1 is played on the empty board
    moves = generate_moves(board, A.parse_rack(rack), lex).sorted()
    best = moves[0].score
    expected_top = top_moves(board, A.parse_rack(rack), lex, ev.rules.tie_break).candidates[0]
    assert expected_top.score == best
    low = next(m for m in moves if m.score < best)
    bad = invalid_move(board, rack, lex)

    d.start()
    started = clock.t
    s0 = client.get("/api/director").json()
    assert s0["current"]["clock"] == {"start": started, "seconds": 150}

    d.submit("Ana", expected_top.notation)
    d.submit("Ben", low.notation)
    d.submit("Cal", bad)
    s1 = client.get("/api/director").json()
    assert s1["seq"] == s0["seq"] + 3
    assert s1["view"] == s0["view"]                   # submissions do not show: the page need not reload
    assert s1["last_round"] is None

    d.close()
    s2 = client.get("/api/director").json()
    assert s2["seq"] == s1["seq"] + 1 and s2["view"] != s1["view"]
    last = s2["last_round"]
    assert last["round"] == 1 and last["rack"] == rack
    assert last["top"] == expected_top.notation and last["score"] == best
    scored_top = check_move(board, expected_top.notation, lex, rack=rack)
    assert last["words"] == [[w, s] for w, s in scored_top.words]
    assert last["tiles"] == [[r, c, ch, bl] for r, c, ch, bl in scored_top.tiles]
    # the board of round 2 is the empty board with the top move on it
    after = Board(A)
    after.place([(r, c, A.code(ch), bl) for r, c, ch, bl in scored_top.tiles])
    assert s2["current"]["board"] == after.rows_text()
    ev2 = EventDir(d.path, notes=None).load()
    assert s2["current"]["round"] == 2 and s2["current"]["rack"] == ev2.current.rack
    assert s2["current"]["clock"] == {"start": None, "seconds": 150}
    # every player's score: the word checker on round 1's position; Ana alone reached the top: solo bonus
    ana = check_move(board, expected_top.notation, lex, rack=rack).score
    ben = check_move(board, low.notation, lex, rack=rack).score
    assert (ana, ben) == (best, low.score)
    rows = {r["player"]: r for r in last["scores"]}
    assert [r["player"] for r in last["scores"]] == ["Ana", "Ben", "Cal"]   # best first
    assert rows["Ana"] == {"rank": 1, "player": "Ana", "move": expected_top.notation, "valid": True, "reason": "",
                           "score": ana, "bonus": 10, "total": ana + 10, "top": True, "deduction": 0,
                           "warnings": 0, "note": "", "absent": False, "table": None, "late": False}
    assert rows["Ben"]["score"] == ben and rows["Ben"]["bonus"] == 0 and rows["Ben"]["rank"] == 2
    assert rows["Ben"]["move"] == check_move(board, low.notation, lex, rack=rack).move.notation
    assert rows["Cal"]["score"] == 0 and rows["Cal"]["valid"] is False and rows["Cal"]["rank"] == 3
    assert "not in the word list" in rows["Cal"]["reason"]
    assert s2["master_total"] == best
    totals = {s["player"]: s["total"] for s in s2["standings"]}
    assert totals == {"Ana": ana + 10, "Ben": ben, "Cal": 0}

    html = client.get("/director").text
    assert '<div class="round" data-round="2">Runde <b>2</b></div>' in html and 'id="clock"' in html
    rack_letters = re.findall(r'<span class="l">(.?)</span>', html)
    assert "".join(ch or "?" for ch in rack_letters) == ev2.current.rack
    assert "Top Runde 1" in html and notation_html(expected_top.notation) in html
    assert f"{best}&nbsp;Punkte" in html and "Ergebnisse Runde 1" in html
    table = html[html.index('<table class="rs'):html.index("</table>", html.index('<table class="rs'))]
    cells = re.findall(r"<tr[^>]*>(.*?)</tr>", table[table.index("<tbody>"):])
    assert len(cells) == 3
    for cell, (player, points, bonus) in zip(cells, [("Ana", ana, "+10"), ("Ben", ben, ""), ("Cal", 0, "")]):
        assert f'<td class="p">{player}</td>' in cell
        assert f'<td class="n pts">{points}</td>' in cell
        assert f'<td class="n bonus">{bonus}</td>' in cell
    assert '<td class="m bad"' in cells[2]            # Cal's invalid move, struck through
    # the running standings: total so far and % of the master total (German decimals), by hand
    for cell, total in zip(cells, [ana + 10, ben, 0]):
        pc = f"{100 * total / best:.2f}".replace(".", ",")
        assert f'<td class="n tot">{total}</td><td class="n pc">{pc}</td>' in cell
    assert f"Top gesamt: {best}" in html
    # the live page polls instead of reloading every 5 s, and has no links to exported files
    assert f'var url="{API_URL}", key="{s2["view"]}", every=2000' in html
    assert "},5000)" not in html and "index.html" not in html


def test_page_and_state_agree_and_export_uses_the_same_page(client, event, lex, tmp_path):
    d, _clock = event
    ev = d.load()
    d.start()
    d.submit("Ana", ev.current.tops[0].notation)
    d.close()
    state = director_state(d.path, lex)
    page = director_page(d.path, lex)
    assert f'key="{state["view"]}"' in page
    # the exported current.html is the same page, reloading every 5 s, with links
    ev = d.load()
    write_exports(ev, tmp_path / "exp")
    exported = (tmp_path / "exp" / "current.html").read_text(encoding="utf-8")
    assert exported == current_page(ev, refresh=True)
    assert "location.reload();},5000)" in exported and "round-01.html" in exported
    assert "Ergebnisse Runde 1" in exported and "/api/director" not in exported
    strip = re.compile(r"<script>.*</script>|<div class=\"nav\">.*?</div>", re.S)
    assert strip.sub("", exported) == strip.sub("", page)
    # the round's own page shows its scores as well
    assert "Ergebnisse" in (tmp_path / "exp" / "round-01.html").read_text(encoding="utf-8")


def test_undo_of_a_close_changes_the_view_back(client, event):
    d, _clock = event
    d.start()
    before = client.get("/api/director").json()
    d.close()
    assert client.get("/api/director").json()["view"] != before["view"]
    d.undo()
    after = client.get("/api/director").json()
    assert after["seq"] == before["seq"] + 2 and after["view"] == before["view"]
    assert after["current"]["round"] == 1 and after["last_round"] is None


def test_event_over_shows_the_standings(tmp_path):
    from lexicon_tools.bundle import build_bundle

    qy = build_bundle(["QY"], tmp_path / "qy.lex", source_name="qy")
    d = EventDir.create(tmp_path / "ev", ["Ana"], seed=3, lexicon=qy, now=Clock(), export=False, notes=None)
    client = TestClient(create_app(qy, event_dir=d.path))
    st = client.get("/api/director").json()
    assert st["over"] is True and st["current"] is None and st["last_round"] is None
    assert st["end_reason"].startswith("no move is possible with the rack")
    html = client.get("/director").text
    assert "Partie beendet nach 0 Runden" in html and 'id="clock"' not in html


def test_no_event_is_404(lex):
    client = TestClient(create_app(lex))
    r = client.get("/api/director")
    assert r.status_code == 404
    assert "start the server with --event DIR" in r.json()["error"]
    r = client.get("/director")                       # a page for the projector, not JSON
    assert r.status_code == 404 and "--event DIR" in r.text


def test_not_an_event_directory_is_refused(tmp_path, lex):
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="not a simultaneous event directory"):
        create_app(lex, event_dir=tmp_path / "empty")
    with pytest.raises(ValueError, match="no journal"):
        director_state(tmp_path / "empty", lex)


def test_broken_event_is_400_with_the_reason(client, event):
    d, _clock = event
    journal = d.path / "journal.jsonl"
    data = journal.read_bytes()
    journal.write_bytes(data.replace(b'"seq":1', b'"seq":7', 1))     # a damaged line: checksum mismatch
    r = client.get("/api/director")
    assert r.status_code == 400 and "line 1" in r.json()["error"]
    page = client.get("/director")
    assert page.status_code == 400 and "line 1" in page.text and "location.reload" in page.text
    journal.unlink()                                                   # the event vanished under the server
    r = client.get("/api/director")
    assert r.status_code == 400 and "journal" in r.json()["error"]


def test_other_lexicon_is_400(event, tmp_path):
    from lexicon_tools.bundle import build_bundle

    d, _clock = event
    other = build_bundle(["HAUS", "MAUS", "EI"], tmp_path / "other.lex", source_name="other")
    client = TestClient(create_app(other, event_dir=d.path))
    r = client.get("/api/director")
    assert r.status_code == 400
    assert "is not the one this event was created with" in r.json()["error"]


def score_rows(n: int, bonus: bool = False) -> list[dict]:
    return [{"rank": i + 1, "player": f"P{i:02d}", "move": "8H HAUS", "valid": True, "reason": "",
             "score": 40 - i, "bonus": 10 if bonus and i == 0 else 0, "total": 40 - i, "top": i == 0}
            for i in range(n)]


def test_round_page_shows_at_most_sixteen_score_rows():
    html = round_page("E", Board(A), 2, "AEHSU?R", round_scores=score_rows(30), scores_label="Ergebnisse Runde 1")
    table, _, rest = html.partition('<script type="application/json" id="more-rows">')
    assert table.count('<td class="p">') == MAX_SCORE_ROWS == 16
    assert "P15" in table and "P16" not in table
    # the other 14 rows wait for the pager, as the table's rows (JSON strings)
    extra = json.loads(rest[:rest.index("</script>")])
    assert len(extra) == 14 and extra[0].startswith('<tr><td class="n">17.</td><td class="p">P16</td>')
    # the page's script hides more rows when they do not fit, and counts them in this line
    assert '<div class="small more" data-more="14">… und 14 weitere Spieler</div>' in html
    assert 'class="side dense"' in html and 'class="bonus' not in html      # no bonus column without a bonus
    assert '<table class="rs">' in html and html.count('<tr class="hit">') == 1
    html = round_page("E", Board(A), 2, "AEHSU?R", round_scores=score_rows(13, bonus=True))
    assert html.count('<td class="p">') == 13 and html.count('<td class="n bonus">') == 13
    assert '<div class="small more" data-more="0" hidden>' in html
    one = round_page("E", Board(A), 2, "AEHSU?R", round_scores=score_rows(17))
    assert "… und 1 weiterer Spieler" in one


def test_page_fits_itself_to_the_screen():
    """The structure the fitting script relies on (the browser test measures the result)."""
    clock = {"start": None, "seconds": 600}
    html = round_page("E", Board(A), 2, "AEHSU?R", clock=clock, round_scores=score_rows(20), top=("8H HAUS", 14))
    script = html[html.index("<script>"):]
    assert "window.fitPage=fit" in script and "addEventListener('resize',fit)" in script
    # every size in the side panel scales with --k, the score rows with --r
    assert ".side{--k:1;" in html and "--r:1;" in html
    assert 'style="font-size:calc(var(--k)*min(6vh,' in html               # the top move's own size
    # the clock keeps the room of its widest text, so "Zeit!" does not move anything
    assert ('<div class="clockbox"><div id="clock" class="time idle" data-start="" data-len="600">10:00</div>'
            '<div class="time ghost" aria-hidden="true">Zeit!</div>'
            '<div class="time ghost" aria-hidden="true">10:00</div></div>') in html
    # no score table: nothing to hide, the script still runs
    assert "fitPage" in round_page("E", Board(A), 0, "", note="Ende")


def test_live_page_reports_a_failing_server():
    """The polling script's error handling (the browser test runs it)."""
    html = round_page("E", Board(A), 2, "AEHSU?R", poll={"url": API_URL, "key": "abc", "every": 2.0, "now": 1.0})
    script = html[html.index("<script>"):]
    assert "Die Partie kann gerade nicht gelesen werden" in script and "d.error" in script
    assert "Verbindung zum Server verloren" in script and ".catch(" in script
    assert "new AbortController()" in script and "ctl.abort();},10000)" in script   # no answer in 10 s: lost
    assert "window.pollFailed" in script and "document.body.classList.add('stale')" in script
    # the exported file reloads itself and has no polling (and no banner)
    exported = round_page("E", Board(A), 2, "AEHSU?R", refresh=True)
    assert "Verbindung zum Server" not in exported and "location.reload();},5000)" in exported


def test_a_busy_event_answers_within_seconds_and_analysis_goes_on(client, event):
    from engine.director.journal import event_lock
    from engine.web.director import LOCK_WAIT_SECONDS

    d, _clock = event
    with event_lock(d.path, exclusive=True):          # a director's command that takes long
        r = client.get("/api/director")  # answers (busy) while the lock is still held: it did not hang
        assert r.status_code == 400 and "busy" in r.json()["error"]
        assert LOCK_WAIT_SECONDS > 0  # how long it waits is measured in benchmarks/, never asserted here
        page = client.get("/director")
        assert page.status_code == 400 and "busy" in page.text and "location.reload" in page.text
        cgp = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AHSU/ 0/0 0"
        assert client.post("/api/moves", json={"cgp": cgp}).status_code == 200
    assert client.get("/api/director").status_code == 200


def test_reads_that_would_wait_get_the_last_answer_at_once(client, event):
    import threading

    from engine.director.journal import event_lock

    d, _clock = event
    before = client.get("/api/director").json()
    results = {}

    def read(name):
        t0 = time.monotonic()
        r = client.get("/api/director")
        results[name] = (r.status_code, time.monotonic() - t0, r.json())

    with event_lock(d.path, exclusive=True):
        slow = threading.Thread(target=read, args=("first",))
        slow.start()
        time.sleep(0.5)                      # the first read now waits for the event's lock
        read("second")
        slow.join()
    status, _took, body = results["second"]
    assert status == 200  # answered while the lock was held, so it did not wait for it
    assert body["seq"] == before["seq"] and body["view"] == before["view"]
    assert results["first"][0] == 400 and "busy" in results["first"][2]["error"]
