"""Tests for lexicon_tools.normalize (SPEC.md "The word list (lexicon)")."""

from __future__ import annotations

import lzma
import os
import unicodedata

import pytest

from lexicon_tools.normalize import (
    REASONS,
    NormalizeResult,
    WordListError,
    normalize_entry,
    normalize_file,
    normalize_lines,
    read_lines,
    write_atomic,
    write_rejects,
    write_words,
)


def ok(raw: str) -> str:
    word, reason = normalize_entry(raw)
    assert reason is None, f"{raw!r} rejected: {reason}"
    return word


def rejected(raw: str) -> str:
    word, reason = normalize_entry(raw)
    assert word is None, f"{raw!r} accepted as {word!r}"
    return reason


# -- accepted entries -------------------------------------------------------------
def test_uppercase_and_strip():
    assert ok("  haus \t") == "HAUS"
    assert ok("Haus\r") == "HAUS"


def test_eszett_becomes_ss():
    assert ok("schließen") == "SCHLIESSEN"
    assert ok("Straße") == "STRASSE"


def test_capital_eszett_becomes_ss():
    assert ok("STRAẞE") == "STRASSE"
    assert ok("ẞß") == "SSSS"


def test_umlauts_kept():
    assert ok("Über") == "ÜBER"
    assert ok("ärgern") == "ÄRGERN"
    assert ok("Öl") == "ÖL"


def test_umlauts_nfd_input_kept_not_expanded():
    nfd = unicodedata.normalize("NFD", "Über")
    assert nfd != "Über" and len(nfd) == 5
    assert ok(nfd) == "ÜBER"
    assert ok(nfd) != "UEBER"
    assert ok(unicodedata.normalize("NFD", "schön")) == "SCHÖN"
    assert ok(unicodedata.normalize("NFD", "Ärger")) == "ÄRGER"


def test_accents_dropped():
    assert ok("Café") == "CAFE"
    assert ok(unicodedata.normalize("NFD", "Café")) == "CAFE"
    assert ok("Façade") == "FACADE"
    assert ok("Señor") == "SENOR"
    assert ok("Ångström") == "ANGSTRÖM"
    assert ok("Noël") == "NOEL"  # diaeresis on E is an accent, not an umlaut
    assert ok("Crêpe") == "CREPE"


def test_stroke_letters_dropped_to_base():
    assert ok("Smørrebrød") == "SMORREBROD"
    assert ok("Łódź") == "LODZ"


def test_ligature_oe():
    assert ok("Œuvre") == "OEUVRE"
    assert ok("œuvre") == "OEUVRE"


def test_ligature_ae():
    assert ok("Ærø") == "AERO"
    assert ok("Æsthet") == "AESTHET"


def test_ligature_fi():
    assert ok("ﬁnden") == "FINDEN"


def test_ligature_fl():
    assert ok("ﬂach") == "FLACH"


def test_ligature_ij():
    assert ok("Ĳssel") == "IJSSEL"
    assert ok("ĳssel") == "IJSSEL"


def test_ligatures_ff_ffi_ffl_st():
    assert ok("Scha\ufb00en") == "SCHAFFEN"
    assert ok("Gri\ufb03g") == "GRIFFIG"
    assert ok("Sou\ufb04é") == "SOUFFLE"
    assert ok("Fe\ufb05") == "FEST"
    assert ok("Fe\ufb06") == "FEST"


def test_length_bounds_inclusive():
    assert ok("ab") == "AB"
    assert ok("a" * 15) == "A" * 15
    assert ok("Maß") == "MASS"  # two letters, one of them two tiles
    assert ok("aß") == "ASS"


@pytest.mark.parametrize("raw", ["ß", "ẞ", " ẞ\n", "Æ", "\ufb00", "\ufb06", "\ufeffß"])
def test_single_letter_expanding_to_two_tiles_is_too_short(raw):
    """Issue 24: a line holding only ẞ was the word SS; one letter is no word."""
    assert rejected(raw) == "too_short"


def test_single_eszett_line_dropped_from_a_list():
    res = normalize_lines([(1, "ẞ"), (2, "ß"), (3, "Maß"), (4, "ẞE")])
    assert res.words == ["MASS", "SSE"]
    assert res.reason_counts == {"too_short": 2}


# -- rejected entries -------------------------------------------------------------
def test_reject_empty():
    assert rejected("") == "empty"
    assert rejected("   \t ") == "empty"


def test_reject_hyphen():
    assert rejected("Baden-Baden") == "hyphen"
    assert rejected("Baden\u2013Baden") == "hyphen"
    assert rejected("Zucker\u00adhut") == "hyphen"  # soft hyphen


def test_reject_apostrophe():
    assert rejected("geht's") == "apostrophe"
    assert rejected("geht\u2019s") == "apostrophe"


def test_reject_dot():
    assert rejected("z.B.") == "dot"
    assert rejected("usw.") == "dot"


def test_reject_digit():
    assert rejected("4x4") == "digit"
    assert rejected("x²") == "digit"


def test_reject_space():
    assert rejected("New York") == "space"
    assert rejected("New\u00a0York") == "space"


def test_reject_too_short():
    assert rejected("a") == "too_short"
    assert rejected(" Ä ") == "too_short"


def test_reject_too_long():
    word = "Donaudampfschiff"
    assert len(word) == 16
    assert rejected(word) == "too_long"
    assert rejected("Fußballweltmeister") == "too_long"
    assert rejected("Straßenbahnwagen") == "too_long"  # 15 chars but 16 tiles


def test_reject_symbol_non_latin_letters():
    assert rejected("αβγ") == "symbol"
    assert rejected("Жук") == "symbol"
    assert rejected("Haus!") == "symbol"
    assert rejected("Auto™") == "symbol"
    assert rejected("\uff21\uff22") == "symbol"  # fullwidth letters are not tiles


def test_reason_priority_is_by_code_not_position():
    assert rejected("α-Teilchen") == "hyphen"
    assert rejected("4x4-Antrieb") == "hyphen"
    assert rejected("Rock 'n' Roll") == "apostrophe"
    assert rejected("z. B.") == "dot"
    assert rejected("A4 Blatt") == "digit"
    assert rejected("α β") == "space"
    assert rejected("α") == "symbol"
    assert list(REASONS) == [
        "empty", "hyphen", "apostrophe", "dot", "digit", "space", "symbol", "too_short", "too_long",
    ]


# -- reading files ------------------------------------------------------------------
def test_read_lines_utf8_bom_crlf_comments_blank(tmp_path):
    p = tmp_path / "list.txt"
    p.write_bytes("\ufeffAal\r\n# Kommentar\r\n\r\n  Öl  \r\nschließen\r\n   # eingerückt\r\nEnde".encode("utf-8"))
    assert list(read_lines(p)) == [(1, "Aal"), (4, "Öl"), (5, "schließen"), (7, "Ende")]


def test_read_lines_old_mac_cr(tmp_path):
    p = tmp_path / "mac.txt"
    p.write_bytes(b"Aal\rAbend\r")
    assert list(read_lines(p)) == [(1, "Aal"), (2, "Abend")]


def test_latin1_detected(tmp_path):
    p = tmp_path / "latin1.txt"
    p.write_bytes("Aal\nÜber\nschließen\n".encode("latin-1"))
    with pytest.raises(WordListError) as exc:
        list(read_lines(p))
    msg = str(exc.value)
    assert "Latin-1" in msg and "--encoding latin-1" in msg and "line 2" in msg
    assert isinstance(exc.value, ValueError)


def test_latin1_decoded_with_encoding(tmp_path):
    p = tmp_path / "latin1.txt"
    p.write_bytes("Aal\nÜber\nschließen\n".encode("latin-1"))
    assert list(read_lines(p, encoding="latin-1")) == [(1, "Aal"), (2, "Über"), (3, "schließen")]
    assert normalize_file(p, encoding="latin-1").words == ["AAL", "SCHLIESSEN", "ÜBER"]


def test_binary_file_rejected(tmp_path):
    p = tmp_path / "blob.bin"
    p.write_bytes(b"Aal\n\x00\x01\x02\xff\xfe" * 10)
    with pytest.raises(WordListError, match="binary file"):
        list(read_lines(p))
    with pytest.raises(WordListError, match="binary file"):
        list(read_lines(p, encoding="latin-1"))


def test_missing_path(tmp_path):
    p = tmp_path / "nope.txt"
    with pytest.raises(WordListError, match="nope.txt"):
        normalize_file(p)


def test_directory_path(tmp_path):
    with pytest.raises(WordListError, match="directory"):
        normalize_file(tmp_path)


def test_unknown_encoding(tmp_path):
    p = tmp_path / "a.txt"
    p.write_text("Aal\n", encoding="utf-8")
    with pytest.raises(WordListError, match="unknown encoding"):
        list(read_lines(p, encoding="klingon-8"))


def test_read_xz_compressed(tmp_path):
    p = tmp_path / "w.txt.xz"
    p.write_bytes(lzma.compress("Aal\nÖl\n".encode("utf-8")))
    assert list(read_lines(p)) == [(1, "Aal"), (2, "Öl")]


# -- whole-list normalisation ----------------------------------------------------------
def test_duplicates_merged():
    res = normalize_lines([(1, "Straße"), (2, "STRASSE"), (3, "Haus")])
    assert isinstance(res, NormalizeResult)
    assert res.words == ["HAUS", "STRASSE"]
    assert res.duplicates == 1
    assert res.lines == 3
    assert res.rejects == []
    assert res.reason_counts == {}


def test_normalize_file_end_to_end(tmp_path):
    p = tmp_path / "list.txt"
    p.write_text(
        "# Testliste\nÜber\nüber\nBaden-Baden\ngeht's\nz.B.\n4x4\nNew York\na\nDonaudampfschiff\n"
        "α-Teilchen\nαβ\nCafé\nZebra\nÄrger\n",
        encoding="utf-8",
    )
    res = normalize_file(p)
    assert res.words == ["CAFE", "ZEBRA", "ÄRGER", "ÜBER"]  # Python string order: Ä, Ü after Z
    assert res.duplicates == 1
    assert res.lines == 14
    assert res.rejects[0] == ("Baden-Baden", 4, "hyphen")
    assert res.reason_counts == {
        "hyphen": 2, "apostrophe": 1, "dot": 1, "digit": 1, "space": 1, "symbol": 1,
        "too_short": 1, "too_long": 1,
    }
    assert list(res.reason_counts) == [r for r in REASONS if r in res.reason_counts]


def test_360k_lines_counted_exactly():
    """360,000 entries (the speed is measured in benchmarks/test_bench_lexicon.py, never asserted here)."""
    base = ["Haus", "schließen", "Über", "Café", "Baden-Baden", "Straßenbahn", "Donaudampfschifffahrt"]
    lines = [(i + 1, f"{base[i % len(base)]}{chr(97 + i % 26)}{chr(97 + (i // 26) % 26)}") for i in range(360_000)]
    res = normalize_lines(lines)
    assert res.lines == 360_000
    # i % 7 == 4: Baden-Baden* has a hyphen; i % 7 == 6: Donaudampfschifffahrt* has 23 letters (> 15);
    # 360,000 = 7 × 51,428 + 4, so each of the two occurs 51,428 times
    assert res.reason_counts == {"hyphen": 51_428, "too_long": 51_428} and res.rejected == 102_856
    # 5 valid bases × 26 × 26 suffixes (7 and 676 are coprime: every combination occurs)
    assert len(res.words) == 5 * 26 * 26 and res.duplicates == 360_000 - 102_856 - 5 * 26 * 26


# -- writing --------------------------------------------------------------------------
def test_write_words_and_read_back(tmp_path):
    p = tmp_path / "words.txt"
    write_words(p, ["AAL", "ÖL", "ÜBER"])
    assert p.read_bytes() == "AAL\nÖL\nÜBER\n".encode("utf-8")
    assert normalize_file(p).words == ["AAL", "ÖL", "ÜBER"]


def test_write_words_xz(tmp_path):
    p = tmp_path / "words.txt.xz"
    write_words(p, ["AAL", "ÖL"])
    assert lzma.decompress(p.read_bytes()).decode("utf-8") == "AAL\nÖL\n"


def test_write_rejects_tsv(tmp_path):
    p = tmp_path / "rejects.tsv"
    write_rejects(p, [("Baden-Baden", 4, "hyphen"), ("New\tYork", 7, "space")])
    assert p.read_text(encoding="utf-8") == "entry\tline\treason\nBaden-Baden\t4\thyphen\nNew\\tYork\t7\tspace\n"


def test_write_atomic_nonexistent_directory_leaves_nothing(tmp_path):
    target = tmp_path / "missing" / "words.txt"
    with pytest.raises(WordListError, match="does not exist"):
        write_atomic(target, "AAL\n")
    assert not target.exists()
    assert not (tmp_path / "missing").exists()
    assert os.listdir(tmp_path) == []


def test_write_atomic_error_midway_keeps_old_file(tmp_path):
    target = tmp_path / "words.txt"
    target.write_text("OLD\n", encoding="utf-8")

    def lines():
        yield "NEW"
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        write_atomic(target, lines())
    assert target.read_text(encoding="utf-8") == "OLD\n"
    assert os.listdir(tmp_path) == ["words.txt"]


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="needs POSIX permissions, non-root")
def test_write_atomic_unwritable_directory(tmp_path):
    d = tmp_path / "ro"
    d.mkdir()
    d.chmod(0o555)
    try:
        with pytest.raises(WordListError, match="not writable"):
            write_atomic(d / "words.txt", "AAL\n")
    finally:
        d.chmod(0o755)


def test_write_atomic_target_is_directory(tmp_path):
    with pytest.raises(WordListError, match="directory"):
        write_atomic(tmp_path, "AAL\n")


def test_utf16_hint_and_explicit_encoding(tmp_path):
    p = tmp_path / "u16.txt"
    p.write_bytes("Aal\nÜber\n".encode("utf-16"))
    with pytest.raises(WordListError, match="utf-16"):
        list(read_lines(p))
    assert list(read_lines(p, encoding="utf-16")) == [(1, "Aal"), (2, "Über")]


def test_written_file_mode_is_not_private(tmp_path):
    p = tmp_path / "words.txt"
    write_words(p, ["AAL"])
    umask = os.umask(0o022)
    os.umask(umask)
    assert p.stat().st_mode & 0o777 == 0o666 & ~umask  # like open(), not mkstemp's 0o600
