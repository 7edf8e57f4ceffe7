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
