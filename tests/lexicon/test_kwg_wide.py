"""The wide graph variant (uint64 nodes, docs/kwg-format.md "The wide variant"), issue 16 part 2.

A wide graph is the KWG with every field widened: the same arcs in the same
order. These tests force it on small lists (a real list needs > 4,194,303 nodes;
the 2-million-word run is benchmarks/wide_lexicon.py) and check it against the
KWG of the same words and against the golden move lists.
"""

from __future__ import annotations

import numpy as np
import pytest

from engine.position.cgp import parse_cgp
from engine.game.kernel_game import play_kernel_game
from engine.movegen.generator import best_moves, generate_moves
from lexicon_tools import kwg as K
from lexicon_tools.bundle import WIDE_FILE, Lexicon, LexiconError, build_bundle
from lexicon_tools.cli import main

from conftest import DATA, golden_moves, golden_positions

WORDS = ["AB", "AUS", "HAUS", "HAUSE", "HAUSTÜR", "SAU", "ÜBER", "ZUHAUSE"]


def _fields(nodes: np.ndarray, shift: int) -> list[tuple[int, int, int, int]]:
    """(tile, accepts, is_end, arc) of every node, decoded by hand from the documented bit positions."""
    out = []
    for v in (int(x) for x in nodes):
        out.append((v >> shift, (v >> (shift - 1)) & 1, (v >> (shift - 2)) & 1, v & ((1 << (shift - 2)) - 1)))
    return out


def test_wide_graph_is_the_kwg_widened_field_by_field():
    narrow = K.build_kwg(WORDS)
    wide = K.build_kwg(WORDS, format="wide", verify=True)
    assert narrow.dtype == np.uint32 and wide.dtype == np.uint64
    assert _fields(wide, 56) == _fields(narrow, 24)
    # node 0 points at the DAWG root list, node 1 at the GADDAG's (both is_end, tile 0)
    assert _fields(wide, 56)[0][:3] == (0, 0, 1) and _fields(wide, 56)[1][:3] == (0, 0, 1)
    assert list(K.iter_words(wide)) == sorted(WORDS, key=lambda w: [K.german().letters.index(c) for c in w])
    assert K.validate_kwg(wide) == len(WORDS) and K.word_count(wide) == len(WORDS)
    assert K.contains(wide, "HAUSTÜR") and not K.contains(wide, "HAUST")


def test_auto_format_switches_past_the_limit_and_kwg_refuses(tmp_path):
    n = int(K.build_kwg(WORDS).shape[0])
    assert K.build_kwg(WORDS, format="auto", max_nodes=n).dtype == np.uint32
    assert K.build_kwg(WORDS, format="auto", max_nodes=n - 1).dtype == np.uint64
    with pytest.raises(K.GraphTooLargeError, match=rf"needs {n:,} nodes, the KWG format holds {n - 1:,}.*--format wide"):
        K.build_kwg(WORDS, max_nodes=n - 1)
    with pytest.raises(ValueError, match="format 'big'"):
        K.build_kwg(WORDS, format="big")
    lex = build_bundle(WORDS, tmp_path / "a.lex", format="auto", max_nodes=n - 1)
    assert lex.layout == "wide" and lex.graph.dtype == np.uint64
    assert sorted(p.name for p in (tmp_path / "a.lex").iterdir() if not p.name.startswith(".")) == \
        ["lexicon.kwg64", "meta.json", "words.marisa"]
    assert lex.meta["kwg"]["layout"] == "wide" and lex.meta["kwg"]["bytes"] == 8 * n


def test_wide_bundle_loads_checks_and_refuses_damage(tmp_path):
    lex = build_bundle(WORDS, tmp_path / "w.lex", format="wide")
    again = Lexicon.load(tmp_path / "w.lex", verify=True)
    assert again.layout == "wide" and again.word_count == len(WORDS) and "HAUSE" in again
    assert sorted(again.pattern("H*")) == ["HAUS", "HAUSE", "HAUSTÜR"]
    # a bare .kwg64 loads as wide and is checked (DAWG = GADDAG) like a bare .kwg
    bare = tmp_path / "bare.kwg64"
    bare.write_bytes((tmp_path / "w.lex" / WIDE_FILE).read_bytes())
    assert sorted(Lexicon.load(bare).words()) == sorted(WORDS)
    # an arc index past the end (a high bit of the 54-bit field, invisible to a uint32 reader) is refused
    nodes = lex.graph.copy()
    nodes[2] |= np.uint64(1 << 40)
    bad = tmp_path / "bad.kwg64"
    bad.write_bytes(nodes.astype("<u8").tobytes())
    with pytest.raises(LexiconError, match="node 2 points at arc"):
        Lexicon.load(bad)
    cut = tmp_path / "cut.kwg64"
    cut.write_bytes(bare.read_bytes()[:-4])
    with pytest.raises(LexiconError, match="not a wide graph node array of 8-byte nodes"):
        Lexicon.load(cut)
    g = tmp_path / "w.lex" / WIDE_FILE
    data = bytearray(g.read_bytes())
    data[20] ^= 1
    g.write_bytes(bytes(data))
    with pytest.raises(LexiconError, match="lexicon.kwg64: checksum mismatch"):
        Lexicon.load(tmp_path / "w.lex")


def test_cli_format_option(tmp_path, capsys, monkeypatch):
    src = tmp_path / "w.txt"
    src.write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    n = int(K.build_kwg(WORDS).shape[0])
    monkeypatch.setattr(K, "MAX_NODES", n - 1)  # as if the list were past the real limit
    assert main(["build", str(src), "-o", str(tmp_path / "k.lex"), "--format", "kwg", "-q"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1
    assert f"needs {n:,} nodes" in err and "--format wide" in err
    assert not (tmp_path / "k.lex").exists()
    assert main(["build", str(src), "-o", str(tmp_path / "a.lex")]) == 0
    cap = capsys.readouterr()
    assert "wrote the wide variant lexicon.kwg64" in cap.err and f"lexicon.kwg64 {8 * n} bytes" in cap.out
    assert main(["info", str(tmp_path / "a.lex")]) == 0
    assert "wide variant (uint64 nodes" in capsys.readouterr().out


@pytest.fixture(scope="module")
def wide_golden(tmp_path_factory, golden_words_list):
    return build_bundle(golden_words_list, tmp_path_factory.mktemp("wide") / "golden-wide.lex", format="wide")


def test_move_generator_reads_wide_graphs_move_for_move(wide_golden, golden_lexicon):
    """All moves and the best-first top moves of every golden position agree with the golden lists
    (computed by other engines on the KWG) and with the KWG of the same words."""
    assert wide_golden.layout == "wide" and golden_lexicon.layout == "kwg"
    for pid, cgp in golden_positions():
        pos = parse_cgp(cgp, allow_impossible=True)
        got = generate_moves(pos.board, pos.rack, wide_golden)
        want = generate_moves(pos.board, pos.rack, golden_lexicon)
        assert [(m.notation, m.score) for m in got] == [(m.notation, m.score) for m in want], pid
        assert got.placement_set() == {(p, s) for _n, s, p in golden_moves(pid)}, pid
        top = best_moves(pos.board, pos.rack, wide_golden, 3)
        assert [(m.notation, m.score) for m in top] == [(m.notation, m.score) for m in want.top(3)], pid


def test_kernel_self_play_on_a_wide_graph(wide_golden, golden_lexicon):
    """A whole kernel game (move generation, cross-check updates, end) is the same game on both layouts."""
    a = play_kernel_game(wide_golden, 4242, 2)
    b = play_kernel_game(golden_lexicon, 4242, 2)
    assert a.turns() == b.turns() and list(a.scores) == list(b.scores) and len(a.turns()) > 10


def test_endgame_solver_on_a_wide_graph(wide_golden, golden_lexicon):
    """The endgame search (its own kernels over the move generator) gives the same value and line."""
    from engine.analysis.endgame import solve

    POS = dict(line.split("\t")[::2] for line in (DATA / "endgames_small.tsv").read_text(encoding="utf-8").splitlines()
               if line.strip())  # id -> CGP (as tests/analysis/test_endgame.py reads them)
    for pid in ("s11_1", "s21_0"):
        a, b = solve(POS[pid], wide_golden), solve(POS[pid], golden_lexicon)
        assert (a.value, [str(m) for m in a.pv]) == (b.value, [str(m) for m in b.pv]), pid
