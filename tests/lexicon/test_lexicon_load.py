"""Loading lexicons: the full graph check (cycles, depth, separator, one-letter words, GADDAG = DAWG),
the verified state that skips it while the files are unchanged, and bundle permissions."""

from __future__ import annotations

import json
import os
import random
import shutil
import stat

import numpy as np
import pytest

from engine.position.cgp import parse_cgp
from engine.movegen.generator import generate_moves
from lexicon_tools import bundle as B
from lexicon_tools import kwg as kwg_mod
from lexicon_tools.alphabet import german
from lexicon_tools.bundle import KWG_FILE, STATE_FILE, Lexicon, LexiconError, build_bundle
from lexicon_tools.cli import main as lt_main
from conftest import count_hashing
from reference_generator import reference_moves

WORDS = ["AB", "ABER", "BAD", "BADE", "BAU", "BAUER", "DA", "DAS", "EBBE", "HAUS", "HAUSE", "RAD", "RADE",
         "SAU", "SAUER", "SEE", "ÜBER", "ZU", "ZUR", "ERDE", "REDE", "RASEN", "DURST", "SAHNE"]
ARC, END, ACC = kwg_mod.ARC_MASK, kwg_mod.IS_END, kwg_mod.ACCEPTS
A = german()


@pytest.fixture(autouse=True)
def _private_cache(tmp_path, monkeypatch):
    """Verified states of bare graphs go to the cache directory: a private one per test."""
    monkeypatch.setenv("GSE_CACHE_DIR", str(tmp_path / "cache"))


def _arc(letter: str | int, child: int = 0, accepts: bool = False, end: bool = False) -> int:
    tile = letter if isinstance(letter, int) else A.code(letter)
    return (tile << 24) | (ACC if accepts else 0) | (END if end else 0) | child


def _write(path, nodes) -> str:
    np.asarray(nodes, dtype="<u4").tofile(path)
    return str(path)


def _lt(capsys, *argv):
    code = lt_main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


# -- the full check ---------------------------------------------------------------
def test_hand_made_cycle_is_refused(tmp_path, capsys):
    # DAWG: root list [A -> 3]; list 3: [B accepts -> 2]  (back to the root list: AB, ABAB, ABABAB, ...)
    nodes = [END | 2, END | 0, _arc("A", 3, end=True), _arc("B", 2, accepts=True, end=True)]
    p = _write(tmp_path / "cycle.kwg", nodes)
    with pytest.raises(LexiconError, match=r"cycle.*node 3"):
        Lexicon.load(p)
    for argv in (["info", p], ["check", "--lexicon", p, "AB"], ["pattern", "A*", "--lexicon", p]):
        code, out, err = _lt(capsys, *argv)
        assert code == 2 and out == ""
        assert err.startswith("error: ") and "cycle" in err and err.count("\n") == 1, err


def test_deep_chain_2_to_40_paths_is_refused(tmp_path, capsys):
    """40 lists of two accepting arcs each: 2^40 words; `pattern 'A*'` ends at once with a message."""
    nodes = [END | 2, END | 0]
    for k in range(40):
        nxt = 2 + 2 * (k + 1) if k < 39 else 0
        nodes += [_arc("A", nxt, accepts=k > 0), _arc("B", nxt, accepts=k > 0, end=True)]
    p = _write(tmp_path / "deep.kwg", nodes)
    code, out, err = _lt(capsys, "pattern", "A*", "--lexicon", p)
    assert code == 2 and out == "" and "longer than 15 letters" in err


def test_wide_graph_with_trillions_of_words_is_refused(tmp_path):
    """15 levels of 7 letters, every arc below the root accepting: 7^2 + ... + 7^15 ≈ 5.5e12 words
    within the depth limit: refused by the word count."""
    letters = "ABDEHRS"
    nodes = [END | 2, END | 0]
    for k in range(15):
        nxt = 2 + 7 * (k + 1) if k < 14 else 0
        nodes += [_arc(ch, nxt, accepts=k > 0, end=i == 6) for i, ch in enumerate(letters)]
    p = _write(tmp_path / "wide.kwg", nodes)
    assert sum(7 ** k for k in range(2, 16)) == (7 ** 16 - 49) // 6 == 5_538_821_761_592
    with pytest.raises(LexiconError, match=r"holds 5,538,821,761,592 words, more than 20,000,000"):
        Lexicon.load(p)


def test_one_letter_words_refused(tmp_path, capsys):
    g = kwg_mod.build_kwg(["A", "AB", "HAUS"])  # the builder itself allows 1..15 letters
    p = _write(tmp_path / "one.kwg", g)
    from engine.cli.main import main

    code = main(["moves", "--lexicon", p, "--cgp", "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 ABHSU/ 0/0 0"])
    out, err = capsys.readouterr()
    assert code == 2 and "8H A" not in out
    assert "one-letter word 'A'" in err and err.startswith("error: ")
    with pytest.raises(ValueError, match="one-letter word"):
        build_bundle(["A", "AB"], tmp_path / "x.lex")


def test_separator_in_dawg_refused(tmp_path):
    # the DAWG root list holds the separator (tile 0): only the GADDAG may
    nodes = [END | 2, END | 0, _arc(0, 3), _arc("A", 3, end=True), _arc("B", 0, accepts=True, end=True)]
    with pytest.raises(LexiconError, match="separator"):
        Lexicon.load(_write(tmp_path / "sep.kwg", nodes))


def test_duplicate_arc_refused(tmp_path):
    nodes = [END | 2, END | 0, _arc("A", 4), _arc("A", 4, end=True), _arc("B", 0, accepts=True, end=True)]
    with pytest.raises(LexiconError, match="increasing order"):
        Lexicon.load(_write(tmp_path / "dup.kwg", nodes))


def test_gaddag_disagreeing_with_dawg_refused(tmp_path):
    g = kwg_mod.build_kwg(["AB", "BAD"])
    cut = kwg_mod.build_kwg(["AB", "BAD", "DA"]).copy()
    cut[1] = END  # GADDAG empty
    with pytest.raises(LexiconError, match="a DAWG of 3 words but no GADDAG"):
        Lexicon.load(_write(tmp_path / "cut.kwg", cut))
    # a GADDAG that lacks one word's strings: the GADDAG of AB, BAD under the DAWG of AB, BAD, DA
    big, small = kwg_mod.build_kwg(["AB", "BAD", "DA"]), kwg_mod.build_kwg(["AB", "BAD"])
    off = len(big)
    shifted = small.copy()
    for i in range(2, len(small)):
        if shifted[i] & ARC:
            shifted[i] = (shifted[i] & ~np.uint32(ARC)) | np.uint32((shifted[i] & ARC) + off)
    mixed = np.concatenate([big, shifted])
    mixed[1] = END | ((small[1] & ARC) + off)  # GADDAG root: the small graph's
    with pytest.raises(LexiconError, match="the GADDAG lacks a form of the word 'DA'"):
        Lexicon.load(_write(tmp_path / "mixed.kwg", mixed))
    # the other way round: DAWG of AB, BAD (2 + 3 = 5 strings), GADDAG of AB, BAD, DA (7 strings)
    off = len(small)
    shifted = big.copy()
    for i in range(2, len(big)):
        if shifted[i] & ARC:
            shifted[i] = (shifted[i] & ~np.uint32(ARC)) | np.uint32((shifted[i] & ARC) + off)
    extra = np.concatenate([small, shifted])
    extra[1] = END | ((big[1] & ARC) + off)
    with pytest.raises(LexiconError, match="the GADDAG holds 7 strings, the DAWG's 2 words make 5"):
        Lexicon.load(_write(tmp_path / "extra.kwg", extra))
    assert Lexicon.load(_write(tmp_path / "ok.kwg", g)).word_count == 2


def test_bare_graph_note_once(tmp_path):
    p = _write(tmp_path / "ok.kwg", kwg_mod.build_kwg(WORDS))
    notes: list[str] = []
    lex = Lexicon.load(p, progress=notes.append)
    assert sorted(lex.words()) == sorted(WORDS)
    assert len(notes) == 1 and "cannot be verified" in notes[0] and "bare graph" in notes[0]
    Lexicon.load(p, progress=notes.append)
    assert len(notes) == 1  # unchanged file: checked state reused, no second note


def test_random_bit_flips_refused_or_consistent(tmp_path):
    """Every single-bit flip of a small KWG is refused, or the moves generated from it are exactly the
    legal moves (independent reference generator) for the words its DAWG (the word checker) holds.

    The graph gets 8 unreachable padding nodes (other builders leave such gaps): flips there that
    keep indices and tiles in range change nothing and must load; before the full check 231 of
    1,130 flips of a real graph loaded with different moves (issue 17 D)."""
    graph = kwg_mod.build_kwg(WORDS)
    good = np.concatenate([graph, np.full(8, END, dtype=np.uint32)])
    pos = parse_cgp("15/15/15/15/15/15/15/7HAUS4/15/15/15/15/15/15/15 ABDEERU/ 0/0 0")
    rng = random.Random(17)
    outcome = {"graph": [0, 0], "padding": [0, 0]}  # [refused, loaded]
    for trial in range(400):
        g = good.copy()
        i = rng.randrange(len(g))
        g[i] ^= np.uint32(1 << rng.randrange(32))
        p = _write(tmp_path / f"f{trial}.kwg", g)
        where = "graph" if i < len(graph) else "padding"
        try:
            lex = Lexicon.load(p)
        except LexiconError as exc:
            assert str(exc).startswith(p + ": ")
            outcome[where][0] += 1
            continue
        outcome[where][1] += 1
        words = set(lex.words())
        assert all(2 <= len(w) <= 15 for w in words)
        assert all(w in lex for w in words)
        got = generate_moves(pos.board, pos.rack, lex).placement_set()
        assert got == reference_moves(pos.board, pos.rack, words), f"flip of bit in node {i}"
        if where == "padding":
            assert words == set(WORDS)
    assert outcome["padding"][1] > 0 and sum(map(sum, outcome.values())) == 400, outcome


# -- verified state ------------------------------------------------------------------
@pytest.fixture
def bundle_dir(tmp_path):
    return build_bundle(WORDS, tmp_path / "w.lex").path


def _count_hashes(monkeypatch):
    return count_hashing(monkeypatch, B)


def test_verified_state_skips_hashing_until_a_file_changes(bundle_dir, monkeypatch):
    state = json.loads((bundle_dir / STATE_FILE).read_text())
    assert set(state["files"]) == {"meta.json", "lexicon.kwg", "words.marisa"}
    calls = _count_hashes(monkeypatch)
    Lexicon.load(bundle_dir)
    assert calls == []
    Lexicon.load(bundle_dir, verify=True)  # forced: both files hashed again
    assert sorted(calls) == ["lexicon.kwg", "words.marisa"]
    calls.clear()
    os.utime(bundle_dir / "words.marisa")  # touch: the key changes, everything is checked again
    Lexicon.load(bundle_dir)
    assert sorted(calls) == ["lexicon.kwg", "words.marisa"]


def test_byte_changed_with_size_and_mtime_restored_is_detected(bundle_dir):
    Lexicon.load(bundle_dir)
    kwg = bundle_dir / KWG_FILE
    st = kwg.stat()
    data = bytearray(kwg.read_bytes())
    data[len(data) // 2] ^= 0x10
    with open(kwg, "r+b") as f:  # in place: same inode, same size
        f.write(bytes(data))
    os.utime(kwg, ns=(st.st_atime_ns, st.st_mtime_ns))  # modification time put back
    assert kwg.stat().st_size == st.st_size and kwg.stat().st_mtime_ns == st.st_mtime_ns
    assert kwg.stat().st_ino == st.st_ino
    with pytest.raises(LexiconError, match="lexicon.kwg: checksum mismatch"):
        Lexicon.load(bundle_dir)  # ctime moved: the stored key no longer matches


def test_copied_bundle_is_checked_again(bundle_dir, tmp_path, monkeypatch):
    dst = tmp_path / "copy.lex"
    shutil.copytree(bundle_dir, dst)  # the state file comes along, the inodes do not
    calls = _count_hashes(monkeypatch)
    Lexicon.load(dst)
    assert sorted(calls) == ["lexicon.kwg", "words.marisa"]


def test_garbage_state_file_means_full_check(bundle_dir, monkeypatch):
    (bundle_dir / STATE_FILE).write_text("{nonsense")
    calls = _count_hashes(monkeypatch)
    assert sorted(Lexicon.load(bundle_dir).words()) == sorted(WORDS)
    assert sorted(calls) == ["lexicon.kwg", "words.marisa"]
    assert json.loads((bundle_dir / STATE_FILE).read_text())["verifier"] == B.VERIFIER


def test_verified_load_does_not_import_numba(bundle_dir):
    import subprocess
    import sys

    code = ("import sys; from lexicon_tools.bundle import Lexicon; lex = Lexicon.load(sys.argv[1]); "
            "print('HAUS' in lex, 'numba' in sys.modules)")
    r = subprocess.run([sys.executable, "-c", code, str(bundle_dir)], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.split() == ["True", "False"], r.stderr


def test_info_verify_flag(bundle_dir, capsys, monkeypatch):
    calls = _count_hashes(monkeypatch)
    code, out, _ = _lt(capsys, "info", bundle_dir)
    assert code == 0 and calls == []
    code, out, _ = _lt(capsys, "info", bundle_dir, "--verify")
    assert code == 0 and sorted(calls) == ["lexicon.kwg", "words.marisa"]


# -- permissions -------------------------------------------------------------------------
@pytest.mark.parametrize("umask, dir_mode, file_mode", [(0o022, 0o755, 0o644), (0o077, 0o700, 0o600)])
def test_bundle_permissions_follow_umask(tmp_path, umask, dir_mode, file_mode):
    old = os.umask(umask)
    try:
        lex = build_bundle(WORDS, tmp_path / "p.lex")
    finally:
        os.umask(old)
    assert stat.S_IMODE(lex.path.stat().st_mode) == dir_mode
    for name in ("lexicon.kwg", "words.marisa", "meta.json"):
        assert stat.S_IMODE((lex.path / name).stat().st_mode) == file_mode, name


def test_pattern_and_anagram_limits(bundle_dir, tmp_path, capsys):
    # WORDS starting with B: BAD BADE BAU BAUER: 4
    code, out, _ = _lt(capsys, "pattern", "B*", "--lexicon", bundle_dir, "--limit", "4")
    assert code == 0 and out.split() == ["BAD", "BADE", "BAU", "BAUER"]
    code, out, err = _lt(capsys, "pattern", "B*", "--lexicon", bundle_dir, "--limit", "3")
    assert code == 2 and out == "" and "more than 3 words match" in err
    bare = _write(tmp_path / "w.kwg", kwg_mod.build_kwg(WORDS))
    code, out, err = _lt(capsys, "pattern", "B*", "--lexicon", bare, "--limit", "3")
    assert code == 2 and "more than 3 words match" in err
    # rack ABDE: AB, BAD, BADE, DA (ABER needs R) -> 4 words
    code, out, _ = _lt(capsys, "anagram", "ABDE", "--lexicon", bundle_dir, "--limit", "4")
    assert code == 0 and sorted(out.split()) == ["AB", "BAD", "BADE", "DA"]
    code, out, err = _lt(capsys, "anagram", "ABDE", "--lexicon", bundle_dir, "--limit", "3")
    assert code == 2 and "more than 3 words" in err
