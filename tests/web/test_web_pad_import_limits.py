"""The score pad's GCG import within limits, and saves that fail out loud (report-attack26d B3, B4, B7, B9):
headless Chromium at a phone's viewport (390×844), the browser setup of tests/web/test_web_pad.py.

- B3: a browser's storage quota is simulated by an init script: ``localStorage.setItem`` throws a
  ``QuotaExceededError`` (a DOMException, as Chromium throws it) when the value is longer than a limit. An import
  over it is taken back (the old game stays, saved); a row typed while storage is full is shown with a warning
  that it is not saved, and is indeed gone after a reload.
- B4, B7, B9: absurd numbers, letters outside the set and moves out of turn are refused naming the line, in
  German, on the line ``engine.game.gcg.read_gcg`` refuses; the export writes plain integers or refuses.

Skipped when Chromium or Playwright is missing, except under CI (``CI`` set).
"""

from __future__ import annotations

import json

import pytest
from browser_support import require_chromium

require_chromium()

from playwright.sync_api import expect  # noqa: E402
from test_web_pad import PHONE, ctx, page, server, start_game, totals  # noqa: E402,F401  (fixtures)
from test_web_pad_gcg import refused_in_english, refused_like_the_cli, rows, shot  # noqa: E402

KEY = "gse.punkte.v1"
QUOTA = 20_000  # characters of the stored JSON the simulated storage takes
QUOTA_SCRIPT = """
(() => {
  const setItem = Storage.prototype.setItem;
  Storage.prototype.setItem = function (k, v) {
    const limit = window.__quota || %d;
    if (String(v).length > limit) {
      throw new DOMException(`Failed to execute 'setItem' on 'Storage': Setting the value of '${k}' exceeded the quota.`,
        "QuotaExceededError");
    }
    return setItem.call(this, k, v);
  };
})();
""" % QUOTA

GOOD = """#player1 Ana Ana
#player2 Ben Ben
>Ana: ... 8H HAUS +10 10
>Ben: ... - +0 0
"""


def passes(n: int) -> str:
    """A GCG of ``n`` passes, Ana and Ben in turn (totals 0)."""
    body = "".join(f">{'Ana' if k % 2 == 0 else 'Ben'}: ... - +0 0\n" for k in range(n))
    return "#player1 Ana Ana\n#player2 Ben Ben\n" + body


@pytest.fixture
def qpage(page):
    """The pad page with the simulated quota (an init script runs again on every load)."""
    page.add_init_script(QUOTA_SCRIPT)
    page.reload()
    expect(page.locator("#setup")).to_be_visible()
    return page


def stored(pg) -> dict:
    return json.loads(pg.evaluate(f"localStorage.getItem('{KEY}')"))


def test_an_import_over_the_quota_is_taken_back_and_a_row_that_is_not_saved_says_so(qpage, tmp_path):
    pg = qpage
    start_game(pg, ["Uli", "Vera"])
    for pts in ("15", "10"):
        pg.fill("#points", pts)
        pg.click("#save-points")
        pg.wait_for_timeout(450)                                         # one step per deliberate tap
    expect(rows(pg)).to_have_count(2)
    assert [t["score"] for t in stored(pg)["games"][0]["turns"]] == [15, 10]
    # 1000 passes: about 40 characters each when stored, twice the simulated quota; under the 2000-line cap
    big = passes(1000)
    f = tmp_path / "big.gcg"
    f.write_text(big, encoding="utf-8")
    pg.set_input_files("#import-file", str(f))
    expect(pg.locator("#io-msg")).to_have_text(
        "Zu groß für den Speicher dieses Browsers: nicht importiert (alte Partien löschen schafft Platz)")
    expect(pg.locator("#io-msg")).to_have_class("bad")
    expect(pg.locator("#games li")).to_have_count(1)                     # taken back: only Uli/Vera
    assert totals(pg) == [15, 10]
    expect(pg.locator("#save-warn")).to_be_hidden()                     # the old state is saved
    pg.locator("#io-msg").scroll_into_view_if_needed()
    shot(pg, "pad-import-quota-390.png")
    pg.reload()
    expect(pg.locator("#games li")).to_have_count(1)
    assert totals(pg) == [15, 10]
    # storage full (the limit now just above what is saved): a typed row is shown, with the warning that it is not
    size = len(pg.evaluate(f"localStorage.getItem('{KEY}')"))
    pg.evaluate(f"window.__quota = {size + 5}")
    pg.fill("#points", "25")
    pg.click("#save-points")
    expect(rows(pg)).to_have_count(3)
    assert totals(pg) == [40, 10]
    warn = ("NICHT gespeichert: Der Speicher dieses Browsers ist voll oder gesperrt. Was hier steht, ist nach dem "
            "Neuladen weg – alte Partien löschen oder die Partie als GCG exportieren.")
    expect(pg.locator("#save-warn")).to_have_text(warn)
    expect(pg.locator("#save-warn")).to_be_visible()
    expect(pg.locator("#msg")).to_have_text(warn)
    assert "QuotaExceededError" not in pg.locator("body").inner_text()
    shot(pg, "pad-save-failed-390.png")
    pg.set_viewport_size({"width": 1366, "height": 900})
    shot(pg, "pad-save-failed-1366.png")
    pg.set_viewport_size(PHONE)
    pg.click("#lang")                                                   # the warning follows the language
    expect(pg.locator("#save-warn")).to_contain_text("NOT saved: this browser's storage is full or blocked.")
    pg.click("#lang")
    # what the warning said: after a reload the row is gone; with room again a row is saved and the warning goes
    pg.reload()
    expect(rows(pg)).to_have_count(2)
    assert totals(pg) == [15, 10]
    expect(pg.locator("#save-warn")).to_be_hidden()
    pg.fill("#points", "25")
    pg.click("#save-points")
    expect(rows(pg)).to_have_count(3)
    expect(pg.locator("#save-warn")).to_be_hidden()
    pg.reload()
    assert totals(pg) == [40, 10]


def test_an_import_is_capped_before_it_is_read(page, tmp_path):
    pg = page
    start_game(pg, ["Ida", "Jo"])
    f = tmp_path / "many.gcg"
    f.write_text(passes(2001), encoding="utf-8")
    pg.set_input_files("#import-file", str(f))
    expect(pg.locator("#io-msg")).to_have_text("GCG nicht gelesen: 2001 Zugzeilen, höchstens 2000 je Partie: nicht importiert")
    f = tmp_path / "huge.gcg"
    f.write_text(GOOD + "#note " + "x" * (1024 * 1024) + "\n", encoding="utf-8")   # 1,0 MB of notes
    pg.set_input_files("#import-file", str(f))
    expect(pg.locator("#io-msg")).to_have_text("GCG nicht gelesen: Datei zu groß (1,0 MB, höchstens 1,0 MB): nicht importiert")
    expect(pg.locator("#games li")).to_have_count(1)
    f = tmp_path / "fits.gcg"
    f.write_text(passes(2000), encoding="utf-8")                        # exactly the cap: read
    pg.set_input_files("#import-file", str(f))
    expect(pg.locator("#io-msg")).to_have_text("GCG gelesen: 2000 Einträge")
    expect(pg.locator("#games li")).to_have_count(2)


NINES = "9" * 400
BAD = [   # (line replaced, its new text, the page's message) – the CLI refuses the same line
    (3, f">Ana: ... 8H HAUS +{NINES} {NINES}", "Zeile 3: +99999999999… Punkte: ein Zug zählt höchstens 9999 (ganze Zahl aus Ziffern 0–9)"),
    (3, ">Ana: ... 8H HAUS +99999999999999999999999 99999999999999999999999",
     "Zeile 3: +99999999999… Punkte: ein Zug zählt höchstens 9999 (ganze Zahl aus Ziffern 0–9)"),
    (3, ">Ana: ... 8H HAUS +10000 10000", "Zeile 3: +10000 Punkte: ein Zug zählt höchstens 9999 (ganze Zahl aus Ziffern 0–9)"),
    (3, ">Ana: ... 8H HAUS +10 11", "Zeile 3: Summe 11 für Ana stimmt nicht: 0 +10 = 10"),
    (3, ">Ana: ... 8H HAUS +١٠ ١٠", "Zeile 3: nicht lesbar: „... 8H HAUS +١٠ ١٠“"),   # Arabic-Indic digits
    (5, f">Ana: (time) -1{'0' * 400} -{NINES}", "Zeile 5: -10000000000… Punkte: ein Zug zählt höchstens 9999 (ganze Zahl aus Ziffern 0–9)"),
    (5, f">Ben: XYZ (XYZ) -1{'0' * 400} -1{'0' * 400}", "Zeile 5: -10000000000… Punkte: ein Zug zählt höchstens 9999 (ganze Zahl aus Ziffern 0–9)"),
    (3, ">Ana: ... 8H HAU5 +10 10", "Zeile 3: „5“ ist kein Buchstabe des deutschen Steinsatzes"),
    (3, ">Ana: ... 8H STRAßE +10 10", "Zeile 3: „ß“ ist kein Stein des deutschen Satzes (SS schreiben)"),
    (4, ">Ana: ... - +0 10", "Zeile 4: Ana ist nicht an der Reihe (erwartet Ben)"),
    (4, ">Ben: ... -- -10 -10", "Zeile 4: „--“ (Zug zurückgenommen) muss direkt auf den Zug desselben Spielers folgen"),
    (3, ">Ana: ... 8L HAUSE +10 10", "Zeile 3: HAUSE reicht über den Rand des Bretts"),
]


def test_numbers_letters_and_turns_are_refused_naming_the_line_in_german(page, tmp_path):
    pg = page
    start_game(pg, ["Ida", "Jo"])
    pg.fill("#points", "7")
    pg.click("#save-points")
    for k, (line, new, message) in enumerate(BAD):
        lines = GOOD.splitlines()
        if line <= len(lines):
            lines[line - 1] = new
        else:
            lines.append(new)
        refused_like_the_cli(pg, tmp_path / f"bad{k}.gcg", "\n".join(lines) + "\n", line, message)
        expect(pg.locator("#io-msg")).to_have_text("GCG nicht gelesen: " + message)
        assert totals(pg) == [7, 0]
    pg.locator("#io-msg").scroll_into_view_if_needed()
    shot(pg, "pad-import-number-390.png")
    refused_in_english(pg, tmp_path / "en.gcg", GOOD.replace("8H HAUS", "8H HAU5"),
                       "GCG not read: line 3: “5” is not a letter of the German tile set")
    # the good file with Ben's remaining tiles holding a blank ("?" is a tile there): read
    f = tmp_path / "good.gcg"
    f.write_text(GOOD + ">Ben: E? (E?) -1 -1\n>Ana: (E?) +1 11\n", encoding="utf-8")   # Ana went out
    pg.set_input_files("#import-file", str(f))
    expect(pg.locator("#io-msg")).to_have_text("GCG gelesen: 4 Einträge")
    expect(pg.locator("#games li")).to_have_count(2)
    assert totals(pg) == [11, -1]


def test_the_export_writes_plain_integers_or_refuses(page):
    pg = page
    start_game(pg, ["Ida", "Jo"])
    pg.fill("#points", "7")
    pg.click("#save-points")
    expect(rows(pg)).to_have_count(1)
    # a game stored by an older page with an absurd score (1e23 was imported as a number before the limits)
    pg.evaluate(f"""() => {{
      const s = JSON.parse(localStorage.getItem('{KEY}'));
      s.games[0].turns[0].score = 1e23;
      localStorage.setItem('{KEY}', JSON.stringify(s));
    }}""")
    pg.reload()
    expect(rows(pg)).to_have_count(1)
    pg.click("#export")
    expect(pg.locator("#io-msg")).to_have_text("Zeile 1: 1e+23 Punkte ist keine ganze Zahl bis 9999 – nicht exportiert")
    expect(pg.locator("#gcg-out")).to_be_hidden()
