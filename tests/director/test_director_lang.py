"""``simultan`` speaks the run's language (issue 26.9): German with ``--lang de``, GSE_LANG or a German locale.

The German lines are worked out by hand. The event uses a physical bag so that the director types the
rack (HAUSERT) and a five-word list (HAUS HAUSE SAU AUS KIND; KIND gives the seeded first rack a move,
so the event does not end at ``new``). German tile values: H 2, A U S E T 1. On the empty board:
8D HAUSE puts the H on the double letter D8: (4+1+1+1+1) x 2 (centre star) = 16; H4 HAUSE likewise
(H on H4): 16, so two tops tie at 16 and the notation order picks 8D (no blanks, the leave RT keeps no
duplicates, 5 tiles each); 8H HAUS: (2+1+1+1) x 2 = 10 (100 % of 16 and 10/16 = 62,50 %); 8H HAUST is
not in the list and would score (2+1+1+1+2 on the double letter L8) x 2 = 14.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.cli.main import main
from engine.lang_de import DE, director_de
from engine.web.german import reason_de
from lexicon_tools.bundle import build_bundle

PROJECTOR = "Seite für den Projektor: {d}/export/current.html"


@pytest.fixture(scope="module")
def tiny_lex(tmp_path_factory):
    return build_bundle(["HAUS", "HAUSE", "SAU", "AUS", "KIND"], tmp_path_factory.mktemp("lex") / "tiny.lex",
                        source_name="test")


def run(capsys, *argv):
    code = main(["simultan", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err.splitlines()


@pytest.fixture
def event(tmp_path, capsys, tiny_lex):
    """An event in German (GSE_LANG=de): Ana and Ben at tables 1 and 2, Cal joins at table 3, round 1 started
    with HAUSERT."""
    d = tmp_path / "ev"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("GSE_LANG", "de")
        code, out, err = run(capsys, "new", d, "--players", "Ana", "Ben", "--seed", 1, "--physical-bag",
                             "--table-size", 1, "--lexicon", tiny_lex.path)
        assert code == 0, err
        assert out == [f"Turnier 'ev' angelegt in {d}: 2 Spieler (Ana, Ben) an 2 Tischen, Startwert 1, "
                       f"Rundenzeit 3:00",
                       "Runde 1: die Steine aus dem Beutel ziehen, dann „simultan round VERZ --start --rack STEINE“",
                       PROJECTOR.format(d=d)]
        assert run(capsys, "join", d, "Cal", "--table", 3) == (0, ["Cal spielt ab Runde 1 mit an Tisch 3"], [])
        code, out, err = run(capsys, "submit", d, "Ana", "8D HAUSE")
        assert (code, out, err) == (2, [], ["Fehler: Runde 1 hat noch nicht begonnen: erst ihre Uhr starten "
                                            "(„simultan round VERZ --start“), dann Züge eintragen"])
        code, out, err = run(capsys, "round", d, "--start", "--rack", "HAUSERT")
        assert code == 0, err
        assert re.fullmatch(r"ev - Runde 1 - Rundenzeit 3:00, gestartet \d\d:\d\d:\d\d, noch [23]:\d\d", out[0])
        assert out[-7:] == ["Buchstaben: A E H R S T U   (3 Vokale, 4 Konsonanten, 0 Joker)",
                            "Beutel: 95 Steine",
                            "eingetragene Züge:",
                            "  Ana  -  [Tisch 1]",
                            "  Ben  -  [Tisch 2]",
                            "  Cal  -  [Tisch 3]",
                            PROJECTOR.format(d=d)]
    return d


def test_submit_close_standings_warn_in_german(event, capsys, monkeypatch):
    monkeypatch.setenv("GSE_LANG", "de")
    d = event
    assert run(capsys, "submit", d, "Ana", "8D HAUSE") == (0, ["Ana, Runde 1: 8D HAUSE 16 Punkte (HAUSE 16)"], [])
    assert run(capsys, "submit", d, "Ben", "8H HAUS") == (0, ["Ben, Runde 1: 8H HAUS 10 Punkte (HAUS 10)"], [])
    assert run(capsys, "submit", d, "Cal", "8H HAUST") == (0, [
        "Cal, Runde 1: 8H HAUST als ungültig eingetragen, 0 Punkte: HAUST steht nicht in der Wortliste "
        "(er hätte 14 Punkte)"], [])
    assert run(capsys, "submit", d, "Ben", "8H HAUS") == (0, [
        "Ben, Runde 1: unverändert (8H HAUS 10 ist schon eingetragen; nichts eingetragen)"], [])
    assert run(capsys, "close", d) == (0, [
        "Runde 1 geschlossen. Top: 8D HAUSE 16 Punkte (HAUSE 16)",
        "  2 Züge gleichauf mit 16; Stechen (weniger Joker gelegt, der Rest behält weniger doppelte Buchstaben, "
        "Reihenfolge der Schreibweise) entschieden durch: Reihenfolge der Schreibweise",
        "    1. 8D HAUSE                   16  Joker 0  doppelt behalten 0  Steine 5  Rest RT  <- Top",
        "    2. H4 HAUSE                   16  Joker 0  doppelt behalten 0  Steine 5  Rest RT",
        "  Ana    16  100,00%  8D HAUSE 16  TOP",
        "  Ben    10   62,50%  8H HAUS 10",
        "  Cal     0    0,00%  8H HAUST ungültig: HAUST steht nicht in der Wortliste, hätte 14 Punkte",
        "Runde 2: die Steine aus dem Beutel ziehen (der Rest R T bleibt auf der Bank), dann „simultan round VERZ "
        "--start --rack STEINE“",
        PROJECTOR.format(d=d)], [])
    assert run(capsys, "standings", d) == (0, [
        "ev - Rangliste nach Runde 1 (Meistersumme 16)",
        "  Rang  Spieler  Punkte  % v. Top  Tops  Solos  ungült.  fehlend  spät  Strafp.  Verwarn.",
        "     1  Ana          16   100,00%     1      1        0        0     0        0         0  (Tisch 1)",
        "     2  Ben          10    62,50%     0      0        0        0     0        0         0  (Tisch 2)",
        "     3  Cal           0     0,00%     0      0        1        0     0        0         0  (Tisch 3, dabei "
        "ab Runde 1)"], [])
    assert run(capsys, "warn", d, "Ben", "--reason", "Handy") == (0, [
        "Runde 2: Verwarnung 1 für Ben, ohne Abzug (Handy)"], [])
    assert run(capsys, "penalty", d, "Cal", 5) == (0, ["Runde 2: 5 Strafpunkte für Cal"], [])
    assert run(capsys, "undo", d, "--show") == (0, [
        "undo würde Eintrag 9 zurücknehmen: Strafe 5 Punkte für Cal in Runde 2",
        f"aufrufen: simultan undo {d} --expect 9"], [])
    # errors: the director's refusals, shared with the web pages, and the command line's own
    assert run(capsys, "submit", d, "Zed", "8H HAUS") == (2, [], [
        "Fehler: Unbekannter Spieler 'Zed' (Spieler: Ana, Ben, Cal)"])
    assert run(capsys, "round", d, "--start") == (2, [], [
        "Fehler: Runde 2: dieses Turnier zieht aus einem echten Beutel; die gezogenen Steine angeben "
        "(„round --start --rack ...“)"])
    assert run(capsys, "penalty", d, "Ben", "zehn") == (2, [], [
        "Fehler: penalty 'zehn': die Punkte sind eine ganze Zahl, z. B. 10"])
    assert run(capsys, "round", tmp := d.parent / "nix") == (2, [], [f"Fehler: {tmp}: kein solches Turnierverzeichnis"])


def test_repair_of_a_damaged_journal_in_german(event, capsys, monkeypatch):
    """Ben's submission (line 5) loses two bytes to damage: one changed byte cannot explain it, so the
    entry comes back from the copy ``close`` wrote in backup/."""
    monkeypatch.setenv("GSE_LANG", "de")
    d = event
    for who, move in (("Ana", "8D HAUSE"), ("Ben", "8H HAUS")):
        assert run(capsys, "submit", d, who, move)[0] == 0
    assert run(capsys, "close", d)[0] == 0
    journal = d / "journal.jsonl"
    lines = journal.read_bytes().split(b"\n")
    assert b'"player":"Ben"' in lines[4] and lines[4].count(b'"move":"8H HAUS"') == 1
    lines[4] = lines[4].replace(b'"move":"8H HAUS"', b'"move":"8H HXYS"')
    journal.write_bytes(b"\n".join(lines))
    assert run(capsys, "round", d) == (2, [], [
        f"Fehler: {journal} Zeile 5: Prüfsumme falsch (beschädigter Eintrag); das Turnier lässt sich nicht sicher "
        f"wiederherstellen – „python -m engine simultan repair {d}“ zeigt, was zu retten ist"])
    report = ["aus backup/ wiederhergestellt: Eintrag 5",
              "behalten: 6 Einträge (das Turnier bis einschließlich: Schließen von Runde 1 (Top 8D HAUSE))"]
    assert run(capsys, "repair", d) == (1, report + [
        f"nichts geändert; „simultan repair {d} --apply“ schreibt das reparierte Journal (das alte bleibt "
        f"erhalten)"], [])
    code, out, err = run(capsys, "repair", d, "--apply")
    assert (code, err) == (0, [])
    assert out[:2] == report
    assert re.fullmatch(rf"Journal repariert; das alte bleibt erhalten als {re.escape(str(d))}/journal\.damaged-"
                        rf"\d{{8}}-\d{{6}}", out[2])
    assert out[3:] == ["Runde 2: die Steine aus dem Beutel ziehen (der Rest R T bleibt auf der Bank), dann "
                       "„simultan round VERZ --start --rack STEINE“", PROJECTOR.format(d=d)]
    assert run(capsys, "repair", d) == (0, [f"{journal}: jeder Eintrag ist in Ordnung; nichts zu reparieren"], [])


COMMANDS = {"new", "round", "submit", "penalty", "warn", "join", "leave", "close", "standings", "undo", "export",
            "repair", "auto"}
"""simultan's sub-commands: a German line may name them (as it names options)."""


def _not_words(text: str) -> str:
    """``text`` without what is not prose: fields, options, commands in backticks or German quotes, paths."""
    return re.sub(r"\{[^}]*\}|--[a-z-]+|`[^`]*`|„[^“]*“|\S*/\S*", " ", text)


def _english_words() -> set[str]:
    """Words of the catalogue's English messages that no German text uses (nor names a command)."""
    words = lambda t: set(re.findall(r"[a-zäöüß]{4,}", _not_words(t).lower()))  # noqa: E731
    english = set().union(*(words(m) for m in DE))
    german = set().union(*(words(g) for g in DE.values()))
    return english - german - COMMANDS - {"equity", "bingo", "simultan"}


def test_no_english_word_in_german_mode_by_the_locale(tmp_path, capsys, monkeypatch, tiny_lex):
    """``simultan`` in German chosen by LANG alone: every line of a small event, an undo, a join, a leave,
    refusals and a repair report, without an English word of the catalogue."""
    english = _english_words()
    assert {"player", "players", "table", "warning", "deducted", "entry", "rack", "closed", "salvaged", "tiles"} <= english
    monkeypatch.delenv("GSE_LANG")
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    d = tmp_path / "ev"
    runs = [(["new", d, "--players", "Ana", "Ben", "--seed", 1, "--physical-bag", "--lexicon", tiny_lex.path,
              "--late-submission", "zero", "--warning-penalty", 3, "--warnings-free", 1], 0),
            (["round", d], 0), (["close", d], 2), (["round", d, "--start", "--rack", "HAUSERT"], 0),
            (["submit", d, "Ana", "8D HAUSE"], 0), (["submit", d, "Ben", "-"], 0),
            (["submit", d, "Ben", "H4 HAUSE", "--late"], 0), (["undo", d, "--show"], 0), (["undo", d], 0),
            (["join", d, "Cal"], 0), (["warn", d, "Cal"], 0), (["warn", d, "Cal", "--reason", "laut"], 0),
            (["penalty", d, "Ana", -2], 0), (["close", d], 0), (["leave", d, "Cal"], 0), (["round", d], 0),
            (["standings", d], 0), (["standings", d, "--round", 7], 2), (["submit", d, "Ana"], 2),
            (["submit", d, "Ana", "8H HAUS", "--round", 1], 2), (["join", d, "Ana"], 2), (["undo", d, "--expect", 3], 2),
            (["repair", d], 0), (["export", d], 0), (["new", d, "--players", "X"], 2),
            (["round", tmp_path / "nix"], 2), (["round", d, "extra"], 2)]
    seen = []
    for argv, rc in runs:
        code, out, err = run(capsys, *argv)
        assert code == rc, (argv, out, err)
        text = "\n".join(out + err)
        seen.append(text)
        low = _not_words(text).lower()
        found = sorted(w for w in english | {"round"} if re.search(rf"(?<![a-zäöüß]){w}(?![a-zäöüß])", low))
        assert not found, (argv, found, text)
    assert "Fehler:" in "\n".join(seen) and "Runde 2" in "\n".join(seen)


def test_english_stays_english(event, capsys, monkeypatch):
    """The same event in English (GSE_LANG=en, the tests' default; --lang en overrides a German GSE_LANG)."""
    assert run(capsys, "submit", event, "Ana", "8D HAUSE") == (0, ["Ana, round 1: 8D HAUSE 16 points (HAUSE 16)"], [])
    monkeypatch.setenv("GSE_LANG", "de")
    assert main(["--lang", "en", "simultan", "submit", event, "Ben", "8H HAUST"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "Ben, round 1: 8H HAUST recorded as invalid, 0 points: HAUST is not in the word list (it would score 14)"]


def test_the_web_and_the_command_line_share_the_refusals_table():
    """engine.web.german.reason_de reads the director's refusals from engine.lang_de.DIRECTOR_DE; the web
    drops what it cannot show (command syntax), the table itself is one."""
    text = "round 3 is not open yet (the open round is 2)"
    assert director_de(text) == reason_de(text) == "Runde 3 ist noch nicht offen (offen ist Runde 2)"
    assert director_de("something new") is None
    assert reason_de("something new (`simultan x`); nothing recorded") == "something new"
