"""The projection's readability fixes (issue 15, part 4): German numbers, the whole top move,
round and clock apart, the time-up alarm, the overview page on a phone, the favicon."""

from __future__ import annotations

import re

import pytest

from engine.position.board import Board
from engine.director.render import de_number, de_percent, index_page, round_page
from lexicon_tools.alphabet import german

A = german()


@pytest.mark.parametrize("value, decimals, text", [
    (100, 2, "100,00"), (0, 2, "0,00"), (73.333, 2, "73,33"), (56.666, 2, "56,67"), (1234.5, 2, "1.234,50"),
    (1234, 0, "1.234"), (999, 0, "999"), (-7, 0, "\u22127"), (1234567, 0, "1.234.567"), (12.5, 1, "12,5"),
])
def test_german_numbers(value, decimals, text):
    assert de_number(value, decimals) == text


def test_german_percent_keeps_number_and_sign_together():
    assert de_percent(100) == "100,00\u00a0%"
    assert de_percent(33.3333) == "33,33\u00a0%"


def score_rows(n: int) -> list[dict]:
    return [{"rank": i + 1, "player": f"P{i}", "move": "8H HAUS", "valid": True, "reason": "", "score": 30 - i,
             "bonus": 0, "total": 30 - i, "top": i == 0, "sum": 1200 - i, "percent": 100.0 - i / 3}
            for i in range(n)]


def test_the_whole_top_move_with_every_word():
    words = [("HORTE", 10), ("EH", 3), ("PO", 4), ("OH", 6), ("TE", 2)]
    html = round_page("E", Board(A), 3, "AEHSU?R", clock={"start": None, "seconds": 180},
                      top=("H4 HORTE", 75, words), round_scores=score_rows(3), scores_label="Ergebnisse Runde 2")
    block = re.search(r'<div class="small words">(.*?)</div>', html).group(1)
    assert block == ("HORTE&nbsp;10 + EH&nbsp;3 + PO&nbsp;4 + OH&nbsp;6 + TE&nbsp;2 + Bonus&nbsp;50")
    assert ".words{overflow-wrap:anywhere;white-space:normal}" in html
    # the heading over the top move carries no words (it is one line and may be shortened)
    assert '<div class="label one">Top</div>' in html


def test_round_and_clock_are_apart_and_look_different():
    html = round_page("E", Board(A), 3, "AEHSU?R", clock={"start": None, "seconds": 180})
    assert '<div class="round" data-round="3">Runde <b>3</b></div>' in html
    assert '<div title="Zeit"><div class="clockbox"><div id="clock"' in html
    css = html[html.index("<style>"):html.index("</style>")]
    assert re.search(r"\.time\{[^}]*font-family:\"DejaVu Sans Mono\"", css)      # the clock: monospaced digits
    assert re.search(r"\.head \.round\{[^}]*background:#3d5a45", css)             # the round: a dark badge


def test_running_standings_table_has_total_and_percent():
    html = round_page("E", Board(A), 3, "AEHSU?R", round_scores=score_rows(2), scores_label="Ergebnisse Runde 2")
    assert ('<thead><tr><th class="n">Pl.</th><th>Spieler</th><th>Zug</th><th class="n">Pkt.</th>'
            '<th class="n">Ges.</th><th class="n pc">% Top</th></tr></thead>') in html
    assert '<td class="n tot">1.200</td><td class="n pc">100,00</td>' in html
    assert '<td class="n tot">1.199</td><td class="n pc">99,67</td>' in html


def test_time_up_sound_and_flash_in_the_clock_script():
    html = round_page("E", Board(A), 3, "AEHSU?R", clock={"start": 1.0, "seconds": 180})
    script = html[html.index("<script>"):]
    assert "createOscillator" in script and "classList.add('timeup')" in script
    assert "body.timeup{animation:timeup" in html


def test_index_page_reads_on_a_phone_with_german_numbers():
    html = index_page("Club", [{"round": 1, "rack": "AEHSU?R", "top": "8H HAUS", "score": 1234, "cumulative": 1234,
                                "href": "round-01.html"}],
                      [{"rank": 1, "player": "Ana", "total": 1234, "percent": 100.0, "tops": 1},
                       {"rank": 2, "player": "Ben", "total": 617, "percent": 50.0, "tops": 0}], "Runde 2 läuft")
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert "100,00\u00a0%" in html and "50,00\u00a0%" in html and "100.00" not in html
    assert '<td class="n">1.234</td>' in html
    assert "@media (max-width:700px)" in html


def test_favicon_is_served(golden_lexicon):
    from fastapi.testclient import TestClient

    from engine.web.app import create_app

    client = TestClient(create_app(golden_lexicon))
    r = client.get("/favicon.ico")
    assert r.status_code == 200 and r.headers["content-type"] == "image/svg+xml"
    assert r.content.startswith(b"<svg") and b"</svg>" in r.content
