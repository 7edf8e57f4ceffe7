"""report-attack26g: T1 (a huge or endless file given as a GCG record), E* (English in German mode), the
exit code of an interrupted ``analyze``, ``review --endgame-time``'s message."""
from __future__ import annotations

import os

import pytest

from engine.cli.main import main
from lexicon_tools.bundle import build_bundle


@pytest.fixture(scope="module")
def tiny_lex(tmp_path_factory):
    return build_bundle(["HAUS", "HAUSE", "SAU", "AUS"], tmp_path_factory.mktemp("lex") / "tiny.lex",
                        source_name="test")


CMDS = [["gcg", "{f}", "--no-words"], ["review", "{f}"], ["analyze", "--gcg", "{f}"]]


def _run(capsys, lang, cmd, f, lex):
    rc = main(["--lang", lang] + [str(f) if a == "{f}" else a for a in cmd] + ["--lexicon", str(lex.path)])
    return rc, capsys.readouterr().err.strip()


@pytest.mark.parametrize("cmd", CMDS, ids=[c[0] for c in CMDS])
def test_a_gcg_file_over_1_mb_is_refused_unread(tmp_path, capsys, tiny_lex, cmd):
    f = tmp_path / "huge.gcg"
    with open(f, "wb") as out:
        out.write(b"#player1 a a\n#player2 b b\n")
        out.truncate(2 * 1024 * 1024)  # sparse: 2 MB of zero bytes after the header
    assert _run(capsys, "en", cmd, f, tiny_lex) == (2, f"error: {f}: over 1 MB: not a GCG file")
    assert _run(capsys, "de", cmd, f, tiny_lex) == (2, f"Fehler: {f}: über 1 MB: keine GCG-Datei")


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
@pytest.mark.parametrize("cmd", CMDS, ids=[c[0] for c in CMDS])
def test_dev_zero_is_not_a_regular_file(capsys, tiny_lex, cmd):
    assert _run(capsys, "en", cmd, "/dev/zero", tiny_lex) == (2, "error: /dev/zero: not a regular file")
    assert _run(capsys, "de", cmd, "/dev/zero", tiny_lex) == (2, "Fehler: /dev/zero: keine gewöhnliche Datei")


def test_a_utf16_file_is_named_as_such(tmp_path, capsys, tiny_lex):
    f = tmp_path / "u16.gcg"
    f.write_bytes("#player1 a a\n#player2 b b\n".encode("utf-16"))
    assert _run(capsys, "en", CMDS[0], f, tiny_lex) == (2, f"error: {f}: UTF-16 (save it as UTF-8)")
    assert _run(capsys, "de", CMDS[0], f, tiny_lex) == (2, f"Fehler: {f}: UTF-16 (bitte als UTF-8 speichern)")
    f.write_bytes(b"#player1 a a\n#player2 b\xe4 b\n")
    assert _run(capsys, "en", CMDS[0], f, tiny_lex) == (
        2, f"error: {f}: line 2: not valid utf-8 (declare #character-encoding ISO-8859-1?)")
    assert _run(capsys, "de", CMDS[0], f, tiny_lex) == (
        2, f"Fehler: {f}: Zeile 2: kein gültiges UTF-8 (#character-encoding ISO-8859-1 angeben?)")


# -- E*: English in German mode ---------------------------------------------------------------------------
EMPTY = "/".join(["15"] * 15)


@pytest.mark.parametrize("lang, want", [
    ("de", ["Hinweis: baue die Standard-Wortliste (nur beim ersten Mal)", "lese die mitgelieferte Liste",
            "baue den Graphen (DAWG + GADDAG)", "prüfe den Graphen", "schreibe die Wortliste",
            "Standard-Wortliste gebaut"]),
    ("en", ["note: building the default lexicon (first use only)", "reading the packaged list",
            "building graph (DAWG + GADDAG)", "verifying graph", "writing bundle", "default lexicon built"]),
])
def test_the_first_use_build_of_the_word_list_speaks_the_users_language(tmp_path, monkeypatch, capsys, lang, want):
    from lexicon_tools import bundle as bundle_mod

    monkeypatch.setenv("GSE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(bundle_mod, "_DEFAULT", {})
    monkeypatch.setattr(bundle_mod, "read_packaged_words", lambda src: ["HAUS", "HAUSE", "SAU", "AUS"])
    assert main(["--lang", lang, "score", "--cgp", EMPTY + " AEHSU/ 0/0 0", "8H HAUS"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert [ln.split("] ", 1)[-1] for ln in err] == want


def test_preendgame_on_an_empty_bag_in_german(capsys):
    cgp = ("7C7/2HUSAREN6/2E4N7/VORN1LITaUERN2/2G4S7/1GEJUXT4F3/2B4NASDAQ2/2EINÖLET2U3/4E3Y2L3/4R3PO1I1M1/4Z3IM1G1A1/"
        "1WÜTE2HEI1E1T1/2BUND1O1S1MuCK/7H5H1/ERMASSEN5T1 ÄDEFKNU/DEEIRS 407/311 0")
    assert main(["--lang", "de", "preendgame", "--cgp", cgp]) == 2
    assert capsys.readouterr().err.strip() == (
        "Fehler: Vor-Endspiel: der Beutel ist leer (die ungesehenen Steine sind das Bänkchen des Gegners): das ist "
        "ein Endspiel, dafür „python -m engine endgame“ aufrufen")


IMPOSSIBLE = "/".join(["15"] * 7 + ["7X7"] + ["15"] * 7) + " AEX/ 0/0 0"  # two X: the set has one


@pytest.mark.parametrize("cmd, hint", [(["endgame"], False), (["preendgame"], False), (["infer", "--move", "8H AX"], False),
                                       (["moves"], True), (["analyze"], True)])
def test_the_impossible_position_hint_names_allow_impossible_only_where_the_command_has_it(capsys, cmd, hint):
    for lang, tail in (("en", " (for a composed puzzle: --allow-impossible on the command line)"),
                       ("de", " (für eine zusammengestellte Aufgabe: --allow-impossible in der Befehlszeile)")):
        rc = main(["--lang", lang, cmd[0], "--cgp", IMPOSSIBLE, *cmd[1:]])
        err = capsys.readouterr().err.strip()
        assert rc == 2, err
        assert err.startswith(("error: impossible position: 2 × X", "Fehler: unmögliche Stellung: 2 × X")), err
        assert err.endswith(tail) == hint, err


def test_the_leave_tables_first_use_note_in_german(capsys):
    from engine.lang import tr_in

    assert tr_in("de", "unpacking the default leave table (first use)") == \
        "entpacke die Standard-Restwerttabelle (erste Nutzung)"


# -- analyze's exit code after Ctrl-C, review --endgame-time's message -------------------------------------
def test_analyze_stopped_by_ctrl_c_exits_130_with_the_figures_so_far(golden_lexicon, monkeypatch, capsys):
    import signal
    import threading

    from engine.analysis import simulation

    real = simulation.simulate

    def simulate_then_ctrl_c(*a, **k):  # Ctrl-C while the simulation runs, as a user presses it
        threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()
        return real(*a, **k)

    monkeypatch.setattr(simulation, "simulate", simulate_then_ctrl_c)
    midgame = "15/15/15/15/15/15/4H3F6/3WALZER6/4U1U1E6/4S1G1U6/8N6/5KIND6/5Ü9/5H9/5L9 AEINRST/ 0/0 0"
    rc = main(["--lang", "en", "analyze", "--cgp", midgame, "--time", "60", "--lexicon", str(golden_lexicon.path)])
    out = capsys.readouterr().out
    assert rc == 130
    assert "stopped: interrupted" in out and "win" in out


@pytest.mark.parametrize("lang, want", [("en", "error: --endgame-time must be positive, got 'nan'"),
                                        ("de", "Fehler: --endgame-time muss positiv sein, nicht 'nan'")])
def test_review_endgame_time_nan_names_its_option(tmp_path, capsys, tiny_lex, lang, want):
    f = tmp_path / "g.gcg"
    f.write_text("#player1 a a\n#player2 b b\n", encoding="utf-8")
    rc = main(["--lang", lang, "review", str(f), "--endgame-time", "nan", "--lexicon", str(tiny_lex.path)])
    assert (rc, capsys.readouterr().err.strip()) == (2, want)

    rc = main(["--lang", "de", "analyze", "--cgp", EMPTY + " AEHSU/ 0/0 0", "--leaves", "/dev/zero", "--static"])
    assert (rc, capsys.readouterr().err.strip()) == (2, "Fehler: /dev/zero: 0 Bytes sind keine KLV-Datei (abgeschnitten?)")
