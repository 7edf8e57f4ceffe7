"""Tests for the lexicon command line (lexicon_tools.cli) and lexicon graph round trips."""

from __future__ import annotations

import json
import lzma
import os
import random
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lexicon_tools import bundle as bundle_mod
from lexicon_tools import kwg as kwg_mod
from lexicon_tools.alphabet import german
from lexicon_tools.bundle import KWG_FILE, META_FILE, Lexicon, build_bundle
from lexicon_tools.cli import anagrams, main

SMALL_LIST = ["HAUS", "HAUSE", "HAUSTÜR", "ÜBER", "Straße", "ZUHAUSE", "AB", "baden-baden"]
SMALL_WORDS = ["AB", "HAUS", "HAUSE", "HAUSTÜR", "STRASSE", "ZUHAUSE", "ÜBER"]  # code-point order


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def small_lex(tmp_path_factory) -> Path:
    """Bundle built through the CLI from the small raw list (one hyphen entry)."""
    d = tmp_path_factory.mktemp("cli")
    src = d / "words.txt"
    src.write_text("\n".join(SMALL_LIST) + "\n", encoding="utf-8")
    out = d / "small.lex"
    assert main(["build", str(src), "-o", str(out), "-q"]) == 0
    return out


@pytest.fixture
def lex_copy(small_lex, tmp_path) -> Path:
    """A private copy of the small bundle, free to damage."""
    import shutil

    dst = tmp_path / "copy.lex"
    shutil.copytree(small_lex, dst)
    return dst


# -- build ----------------------------------------------------------------------
def test_build_prints_summary(tmp_path, capsys):
    src = tmp_path / "w.txt"
    src.write_text("\n".join(SMALL_LIST) + "\n", encoding="utf-8")
    out = tmp_path / "x.lex"
    code, stdout, err = run(capsys, "build", src, "-o", out)
    assert code == 0
    assert "words        7" in stdout
    assert "nodes" in stdout and "peak memory" in stdout and " MB" in stdout
    assert f"lexicon.kwg  {(out / KWG_FILE).stat().st_size:,} bytes" in stdout
    assert str(out) in stdout
    for stage in ("reading", "normalising", "graph", "verifying", "writing"):
        assert stage in err
    meta = json.loads((out / META_FILE).read_text(encoding="utf-8"))
    assert meta["source"]["name"] == "w.txt"
    import hashlib

    assert meta["source"]["sha256"] == hashlib.sha256(src.read_bytes()).hexdigest()
    assert sorted(Lexicon.load(out).words()) == sorted(SMALL_WORDS)


def test_build_from_xz(tmp_path, capsys):
    src = tmp_path / "w.txt.xz"
    src.write_bytes(lzma.compress("\n".join(SMALL_LIST).encode("utf-8")))
    code, stdout, _ = run(capsys, "build", src, "-o", tmp_path / "x.lex", "--no-verify", "-q")
    assert code == 0
    assert "words        7" in stdout
    assert "no (--no-verify)" in stdout


def test_build_replaces_existing_bundle(small_lex, tmp_path, capsys):
    out = tmp_path / "r.lex"
    src = tmp_path / "a.txt"
    src.write_text("HAUS\nMAUS\n", encoding="utf-8")
    assert run(capsys, "build", src, "-o", out, "-q")[0] == 0
    src.write_text("HAUS\nMAUS\nLAUS\n", encoding="utf-8")
    assert run(capsys, "build", src, "-o", out, "-q")[0] == 0
    assert Lexicon.load(out).word_count == 3


def test_build_refuses_to_overwrite_a_file(tmp_path, capsys):
    src = tmp_path / "a.txt"
    src.write_text("HAUS\n", encoding="utf-8")
    code, out, err = run(capsys, "build", src, "-o", src)
    assert code == 2
    assert err.startswith("error: ") and "not a lexicon bundle" in err
    assert src.read_text(encoding="utf-8") == "HAUS\n"


# -- info -------------------------------------------------------------------------
def test_info(small_lex, capsys):
    code, out, _ = run(capsys, "info", small_lex)
    assert code == 0
    field = {m[1]: m[2] for m in re.finditer(r"^(\S+(?: \S+)?)  +(.*)$", out, re.M)}
    assert field["words"] == "7"
    assert field["source"] == "words.txt"
    assert field["source sha256"] == json.loads((small_lex / META_FILE).read_text("utf-8"))["source"]["sha256"]
    assert field["nodes"] == f"{(small_lex / KWG_FILE).stat().st_size // 4:,}"
    assert "german (29 letters: AÄBCDEFGHIJKLMNOÖPQRSTUÜVWXYZ)" in out
    assert "german-scrabble-lexicon version 1" in out
    # per length: AB (2), HAUS ÜBER (4), HAUSE (5), HAUSTÜR STRASSE ZUHAUSE (7)
    per_len = [line.split()[:2] for line in out.splitlines() if line.startswith("  ")]
    assert per_len == [["2", "1"], ["4", "2"], ["5", "1"], ["7", "3"]]


def test_info_json(small_lex, capsys):
    code, out, _ = run(capsys, "info", small_lex, "--json")
    assert code == 0
    d = json.loads(out)
    assert d["word_count"] == 7
    assert d["counts_per_length"] == {"2": 1, "4": 2, "5": 1, "7": 3}
    assert d["format_version"] == 1
    assert d["kwg"]["nodes"] * 4 == (small_lex / KWG_FILE).stat().st_size
    assert d["path"] == str(small_lex)


def test_info_bare_kwg(small_lex, capsys):
    code, out, _ = run(capsys, "info", small_lex / KWG_FILE, "--json")
    assert code == 0
    d = json.loads(out)
    assert d["format"] == "kwg" and d["word_count"] == 7
    code, out, _ = run(capsys, "check", "-l", small_lex / KWG_FILE, "ZUHAUSE", "HAUSX")
    assert code == 1
    assert out.splitlines() == ["ZUHAUSE valid", "HAUSX invalid"]


# -- check ------------------------------------------------------------------------
def test_check_valid(small_lex, capsys):
    code, out, _ = run(capsys, "check", "--lexicon", small_lex, "HAUS", "Straße")
    assert code == 0
    assert out.splitlines() == ["HAUS valid", "STRASSE valid"]


def test_check_invalid(small_lex, capsys):
    code, out, _ = run(capsys, "check", "--lexicon", small_lex, "HAUSX")
    assert code == 1
    assert out.splitlines() == ["HAUSX invalid"]


def test_check_unnormalisable_entry_gives_reason(small_lex, capsys):
    code, out, _ = run(capsys, "check", "--lexicon", small_lex, "haus", "Baden-Baden", "X")
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == "HAUS valid"
    assert lines[1].startswith("Baden-Baden invalid: hyphen")
    assert lines[2].startswith("X invalid: too_short")


def test_check_default_lexicon_builds_into_cache(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("GSE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(bundle_mod, "_DEFAULT", {})
    code, out, err = run(capsys, "check", "Straße", "Haus")
    assert code == 0
    assert out.splitlines() == ["STRASSE valid", "HAUS valid"]
    assert "note: building the default lexicon" in err
    # issue 24: the first-use build shows its steps (timed lines when stderr is no terminal)
    steps = [ln.split("] ", 1)[1] for ln in err.splitlines() if ln.startswith("[")]
    assert steps == ["reading the packaged list", "building graph (DAWG + GADDAG)", "verifying graph",
                     "writing bundle", "default lexicon built"]
    assert list((tmp_path / "cache").glob("default-*.lex"))
    # second use (in-process cache cleared): loads from the disk cache, no note
    monkeypatch.setattr(bundle_mod, "_DEFAULT", {})
    code, out, err = run(capsys, "check", "HAUSX")
    assert code == 1 and err == ""


# -- anagram ----------------------------------------------------------------------
def test_anagram(small_lex, capsys):
    code, out, _ = run(capsys, "anagram", "SUAH", "--lexicon", small_lex)
    assert code == 0
    assert out.splitlines() == ["HAUS"]


def test_anagram_blank(small_lex, capsys):
    code, out, _ = run(capsys, "anagram", "SUAH?", "--lexicon", small_lex)
    assert code == 0
    # longest first; the blank is shown lowercase; real tiles are used before the blank
    assert out.splitlines() == ["HAUSe", "HAUS", "Ab"]


def test_anagram_min_length_and_umlaut(small_lex, capsys):
    code, out, _ = run(capsys, "anagram", "rühstau", "-l", small_lex, "--min-length", "5")
    assert code == 0
    assert out.splitlines() == ["HAUSTÜR"]
    code, out, _ = run(capsys, "anagram", "BER?", "-l", small_lex)
    assert out.splitlines() == ["üBER", "aB"]


def test_anagram_nothing(small_lex, capsys):
    code, out, err = run(capsys, "anagram", "QQ", "-l", small_lex)
    assert code == 0 and out == "" and "no words" in err


def test_anagram_bad_rack(small_lex, capsys):
    code, out, err = run(capsys, "anagram", "AB1", "-l", small_lex)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and "'1'" in err and err.count("\n") == 1


def test_anagram_matches_brute_force(golden_lexicon):
    """The DAWG walk agrees with a brute-force multiset check over the word list."""
    from collections import Counter

    rng = random.Random(7)
    letters = "EEEENNNIIRRSSTTAAUUDDHHGLOMBKZÄÖÜ"
    words = list(golden_lexicon.words())
    for _ in range(5):
        rack = "".join(rng.sample(letters, 7)) + "?"
        got = anagrams(golden_lexicon, rack)
        rc = Counter(rack.replace("?", ""))

        def fits(w: str) -> bool:
            missing = sum((Counter(w) - rc).values())
            return missing <= 1

        expected = {w for w in words if len(w) <= 8 and fits(w)}
        assert {w.upper() for w in got} == expected
        for w in got:
            # exactly the letters not covered by real tiles are lowercase
            assert sum(c.islower() for c in w) == sum((Counter(w.upper()) - rc).values())


# -- pattern ----------------------------------------------------------------------
def test_pattern(small_lex, capsys):
    code, out, _ = run(capsys, "pattern", "H?US*", "--lexicon", small_lex)
    assert code == 0
    assert out.splitlines() == ["HAUS", "HAUSE", "HAUSTÜR"]
    code, out, _ = run(capsys, "pattern", "*HAUS?", "--lexicon", small_lex)
    assert out.splitlines() == ["HAUSE", "ZUHAUSE"]


def test_pattern_bad(small_lex, capsys):
    code, out, err = run(capsys, "pattern", "H#", "--lexicon", small_lex)
    assert code == 2 and err.startswith("error: ")


# -- normalize --------------------------------------------------------------------
def test_normalize(tmp_path, capsys):
    src = tmp_path / "raw.txt"
    src.write_text("\n".join(SMALL_LIST + ["STRASSE", "z.B.", "x"]) + "\n", encoding="utf-8")
    out = tmp_path / "clean.txt"
    rej = tmp_path / "rejects.tsv"
    code, stdout, _ = run(capsys, "normalize", src, "-o", out, "--rejects", rej)
    assert code == 0
    assert out.read_text(encoding="utf-8").split() == SMALL_WORDS
    assert rej.read_text(encoding="utf-8").splitlines() == [
        "entry\tline\treason", "baden-baden\t8\thyphen", "z.B.\t10\tdot", "x\t11\ttoo_short"]
    rows = {line.split()[0]: line.split()[1] for line in stdout.splitlines() if line.startswith("  ")}
    assert rows == {"hyphen": "1", "dot": "1", "too_short": "1"}
    assert "duplicates merged          1" in stdout
    assert "words kept                 7" in stdout


# -- bad inputs ---------------------------------------------------------------------
@pytest.mark.parametrize("content", ["", "\n\n# only a comment\n", "baden-baden\nx\n"])
def test_empty_list_builds_nothing(tmp_path, capsys, content):
    src = tmp_path / "empty.txt"
    src.write_text(content, encoding="utf-8")
    out = tmp_path / "out.lex"
    code, stdout, err = run(capsys, "build", src, "-o", out)
    assert code == 2
    assert "error: " in err and "empty.txt" in err and ("no entries" in err or "no valid word" in err)
    assert "Traceback" not in err
    assert not out.exists()
    assert list(tmp_path.iterdir()) == [src]
    txt = tmp_path / "out.txt"
    code, _, err = run(capsys, "normalize", src, "-o", txt)
    assert code == 2 and not txt.exists()


def test_missing_file(tmp_path, capsys):
    code, out, err = run(capsys, "build", tmp_path / "nope.txt", "-o", tmp_path / "x.lex")
    assert code == 2
    assert "nope.txt" in err and "no such file" in err
    assert not (tmp_path / "x.lex").exists()


def test_binary_file(tmp_path, capsys):
    src = tmp_path / "bin.dat"
    src.write_bytes(b"HAUS\n" + bytes(range(256)) * 4)
    code, out, err = run(capsys, "build", src, "-o", tmp_path / "x.lex")
    assert code == 2
    assert "binary" in err and "bin.dat" in err


def test_latin1_file(tmp_path, capsys):
    src = tmp_path / "latin1.txt"
    src.write_bytes("Straße\nÜBER\nHAUS\n".encode("latin-1"))
    out = tmp_path / "l.lex"
    code, _, err = run(capsys, "build", src, "-o", out)
    assert code == 2
    assert "latin-1" in err.lower() and "--encoding" in err
    assert not out.exists()
    code, stdout, _ = run(capsys, "build", src, "-o", out, "--encoding", "latin-1", "-q")
    assert code == 0
    assert "words        3" in stdout
    code, stdout, _ = run(capsys, "check", "-l", out, "STRASSE", "Über")
    assert code == 0 and stdout.splitlines() == ["STRASSE valid", "ÜBER valid"]


def test_unknown_encoding(tmp_path, capsys):
    src = tmp_path / "w.txt"
    src.write_text("HAUS\n", encoding="utf-8")
    code, _, err = run(capsys, "build", src, "-o", tmp_path / "x.lex", "--encoding", "klingon")
    assert code == 2 and "klingon" in err


def test_unwritable_output(tmp_path, capsys):
    src = tmp_path / "w.txt"
    src.write_text("HAUS\n", encoding="utf-8")
    code, out, err = run(capsys, "build", src, "-o", "/nonexistent/dir/x.lex")
    assert code == 2
    assert err.startswith("error: ") and "/nonexistent/dir" in err and "does not exist" in err
    code, out, err = run(capsys, "normalize", src, "-o", "/nonexistent/dir/x.txt")
    assert code == 2 and "/nonexistent/dir" in err


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root can write anywhere")
def test_readonly_directory(tmp_path, capsys):
    src = tmp_path / "w.txt"
    src.write_text("HAUS\n", encoding="utf-8")
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        code, _, err = run(capsys, "build", src, "-o", ro / "x.lex")
        assert code == 2 and "not writable" in err
    finally:
        ro.chmod(0o700)


def test_missing_lexicon(tmp_path, capsys):
    code, _, err = run(capsys, "check", "--lexicon", tmp_path / "none.lex", "HAUS")
    assert code == 2 and "none.lex" in err and "no such lexicon" in err


def test_truncated_kwg(lex_copy, capsys):
    kwg = lex_copy / KWG_FILE
    with open(kwg, "r+b") as f:
        f.truncate(kwg.stat().st_size // 2)
    for argv in (["info", lex_copy], ["check", "--lexicon", lex_copy, "HAUS"]):
        code, out, err = run(capsys, *argv)
        assert code == 2
        assert out == ""
        assert err.startswith("error: ") and "lexicon.kwg" in err and "truncated" in err
        assert "Traceback" not in err and err.count("\n") == 1


def test_corrupted_kwg(lex_copy, capsys):
    kwg = lex_copy / KWG_FILE
    data = bytearray(kwg.read_bytes())
    data[len(data) // 2] ^= 0x01
    kwg.write_bytes(bytes(data))
    code, _, err = run(capsys, "check", "--lexicon", lex_copy, "HAUS")
    assert code == 2
    assert "lexicon.kwg" in err and "checksum" in err


def test_corrupted_trie(lex_copy, capsys):
    trie = lex_copy / "words.marisa"
    data = bytearray(trie.read_bytes())
    data[-1] ^= 0xFF
    trie.write_bytes(bytes(data))
    code, _, err = run(capsys, "info", lex_copy)
    assert code == 2 and "words.marisa" in err and "checksum" in err


def test_wrong_format_version(lex_copy, capsys):
    meta_path = lex_copy / META_FILE
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    meta["format_version"] = 99
    meta_path.write_text(json.dumps(meta), encoding="utf-8")
    code, _, err = run(capsys, "info", lex_copy)
    assert code == 2
    assert "version" in err and "99" in err and "meta.json" in err


def test_garbage_meta(lex_copy, capsys):
    (lex_copy / META_FILE).write_text("{not json", encoding="utf-8")
    code, _, err = run(capsys, "info", lex_copy)
    assert code == 2 and "meta.json" in err


def test_usage_errors_exit_2(capsys):
    assert main([]) == 2
    assert main(["build", "-o", "x.lex"]) == 2  # neither WORDLIST nor --default
    assert main(["frobnicate"]) == 2
    assert main(["--help"]) == 0
    capsys.readouterr()


def test_module_entry_point():
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "lexicon_tools", "--help"], capture_output=True, text=True)
    assert r.returncode == 0 and "anagram" in r.stdout


# -- the graph: golden list round trip, properties, determinism ------------------------
def test_golden_round_trip(golden_lexicon, golden_words_list):
    words = golden_words_list
    lex = golden_lexicon
    assert lex.word_count == len(words) == len(set(words))
    assert kwg_mod.word_count(lex.graph) == len(words)
    rng = random.Random(2024)
    sample = rng.sample(words, 1000)
    assert all(w in lex for w in sample)
    assert all(kwg_mod.contains(lex.graph, w) for w in sample)
    present = set(words)
    letters = german().letters
    non_words: list[str] = []
    while len(non_words) < 1000:
        w = rng.choice(words)
        i = rng.randrange(len(w))
        op = rng.randrange(3)
        if op == 0:
            cand = w[:i] + rng.choice(letters) + w[i + 1:]
        elif op == 1:
            cand = w[:i] + rng.choice(letters) + w[i:]
        else:
            cand = w[:i] + w[i + 1:]
        if cand not in present and 2 <= len(cand) <= 15:
            non_words.append(cand)
    assert not any(w in lex for w in non_words)
    assert not any(kwg_mod.contains(lex.graph, w) for w in non_words)


_LETTERS = german().letters
_word = st.text(alphabet=st.sampled_from(_LETTERS), min_size=2, max_size=8)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sets(_word, min_size=1, max_size=40))
def test_kwg_property_round_trip(words):
    words = list(words)
    g = kwg_mod.build_kwg(words)
    order = {ch: i for i, ch in enumerate(_LETTERS)}
    expected = sorted(words, key=lambda w: [order[c] for c in w])
    assert list(kwg_mod.iter_words(g)) == expected
    kwg_mod.validate_kwg(g)
    kwg_mod.verify_kwg(g, words)
    assert kwg_mod.word_count(g) == len(words)


def test_build_is_deterministic(tmp_path):
    words = list(SMALL_WORDS) + ["MAUS", "LAUS", "HAUSEN", "ÄRGER", "ÖL", "QUAL"]
    a = kwg_mod.build_kwg(words)
    b = kwg_mod.build_kwg(list(reversed(words)) + words[:3])  # order and duplicates do not matter
    assert a.dtype == np.uint32
    assert a.tobytes() == b.tobytes()
    la = build_bundle(words, tmp_path / "a.lex")
    lb = build_bundle(sorted(words, reverse=True), tmp_path / "b.lex")
    assert (la.path / KWG_FILE).read_bytes() == (lb.path / KWG_FILE).read_bytes()
    assert (la.path / "words.marisa").read_bytes() == (lb.path / "words.marisa").read_bytes()


def test_golden_build_is_deterministic(golden_lexicon, golden_words_list):
    g = kwg_mod.build_kwg(golden_words_list)
    assert g.tobytes() == np.asarray(golden_lexicon.graph).tobytes()


def test_first_use_progress_bar_on_a_terminal():
    """Issue 24: on a terminal the first-use build is a tqdm bar over its four steps."""
    import io

    class Tty(io.StringIO):
        def isatty(self):
            return True

    f = Tty()
    prog = bundle_mod.FirstUseProgress(file=f)
    for name in ("read", "graph", "verify", "write"):
        prog(name)
    assert prog.bar is not None and prog.bar.n == 3  # three steps done while the fourth runs
    prog.close()
    text = f.getvalue()
    assert "default lexicon: 3/4, writing bundle" in text
    assert "default lexicon: 4/4, done" in text


def test_first_use_progress_silent_until_a_step():
    import io

    f = io.StringIO()
    bundle_mod.FirstUseProgress(file=f).close()
    assert f.getvalue() == ""
