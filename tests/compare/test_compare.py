"""Cross-generator checker (``python -m engine compare``), its peer adapters and ``baselines``.

Fixture outputs in tests/data/compare (positions p004, p039, p007 of the golden set):

* ``quackle/``: p004 with one move missing (7K U(N)S), one extra (9L .S, not a
  word) and one score changed (B9 .Q 30 for 31), plus a one-tile move written in
  both directions, an exchange and a pass; p039 exact; p007 ends in garbage;
* ``wolges/``, ``wolges-json/``, ``scrabble-solver/``: exact lists in each style;
* ``othernotation/``: a peer writing moves in a notation we do not read;
* ``real/``: output captured from the real peers (2026-12-01; wolges 2267824 through
  ``gen_moves_raw_all_unsorted`` printed with its ``Play::fmt`` text and its
  ``kibitzer::JsonPlayWithEquity`` JSON, MAGPIE 183bebc through
  ``string_builder_add_move``; both on a KWG of the golden list built by
  ``lexicon_tools``): p007 (exchanges and a pass printed too) and the empty board
  p018, where both peers give only the across openings;
* ``peer_crash.py`` (exits 3), ``peer_hang.py`` (sleeps 60 s), ``peer_replay.py``
  (prints a stored output; CGP on stdin or id as argument).
"""

from __future__ import annotations

import json

import pytest

from conftest import DATA, golden_moves, golden_positions
from engine.cli import main as cli
from engine.position.cgp import parse_cgp
from engine.compare.checker import (compare_moves, compare_position, mirror_empty_board_moves, our_moves, position_class,
                            read_positions, run_compare, write_baselines)
from engine.compare.peers import (FORMATS, WOLGES_GERMAN, CommandPeer, DirectoryPeer, PeerOutputError, notation_tiles,
                          parse_output, parse_placements, placements_string)
from lexicon_tools.alphabet import german

CMP = DATA / "compare"
CGP = dict(golden_positions())
FIXTURE_POSITIONS = CMP / "positions.tsv"


def board(pid):
    return parse_cgp(CGP[pid]).board


def golden_set(pid):
    return {(p, s) for _n, s, p in golden_moves(pid)}


def peer_set(output):
    return {(m.placements, m.score) for m in output.moves}


def run_cli(argv, capsys):
    code = cli.main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


# -- notation and placements -----------------------------------------------------------
@pytest.mark.parametrize("text", ["B9 (I)Q", "B9 .Q", "B9 IQ", "b9 .Q"])
def test_notation_forms_give_the_same_tiles(text):
    assert notation_tiles(board("p004"), text) == frozenset({(9, 1, "Q", False)})


def test_notation_with_blanks_and_across():
    tiles = notation_tiles(board("p001"), "8B VOYEurE")
    assert placements_string(tiles) == "B8:V,C8:O,D8:Y,E8:E,F8:u,G8:r,H8:E"
    assert placements_string(notation_tiles(board("p004"), "9L .S")) == "M9:S"
    assert placements_string(notation_tiles(board("p004"), "7K U(N)S")) == "K7:U,M7:S"


@pytest.mark.parametrize("text, fragment", [
    ("A1 .Q", "marks an empty square (A1)"),
    ("B9 XQ", "holds I, not X"),
    ("B9", "start square and a word"),
    ("Z9 QI", "not on the board"),
    ("B9 (I)", "places no tile"),
])
def test_notation_errors(text, fragment):
    with pytest.raises(ValueError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        notation_tiles(board("p004"), text)


def test_placements_round_trip_and_errors():
    a = german()
    tiles = parse_placements("H8:A,I8:b", a)
    assert tiles == frozenset({(7, 7, "A", False), (7, 8, "B", True)})
    assert placements_string(tiles) == "H8:A,I8:b"
    for bad in ("H8A", "P8:A", "H16:A", "H8:ß", "H8:A,H8:B", ""):
        with pytest.raises(ValueError):
            parse_placements(bad, a)


# -- adapters ---------------------------------------------------------------------------
@pytest.mark.parametrize("folder, pid, fmt", [
    ("quackle", "p039", "quackle"),
    ("wolges", "p004", "wolges"),
    ("wolges-json", "p004", "wolges-json"),
    ("scrabble-solver", "p004", "scrabble-solver"),
    ("scrabble-solver", "p039", "scrabble-solver"),
])
def test_adapter_reads_fixture_exactly(folder, pid, fmt):
    path = next((CMP / folder).glob(f"{pid}.*"))
    text = path.read_text(encoding="utf-8")
    out = parse_output(fmt, text, board(pid))
    assert peer_set(out) == golden_set(pid)
    assert peer_set(parse_output("auto", text, board(pid))) == golden_set(pid)


def test_tsv_adapter_reads_golden_lists():
    for pid in ("p001", "p011"):
        text = (DATA / "golden_moves" / f"{pid}.tsv").read_text(encoding="utf-8")
        assert peer_set(parse_output("tsv", text, board(pid))) == golden_set(pid)
        assert peer_set(parse_output("auto", text, board(pid))) == golden_set(pid)


def test_text_adapter_variants():
    b = board("p004")
    text = ("# header\n// another comment\n# time_ms: 1.5\n\n"
            "31.0 B9 (I)Q 31\n"          # wolges: equity first
            "I12 Q. (13)\n"              # score in parentheses
            "M7 S.U score=11 leave -\n"  # score= and trailing fields
            "-QS 0\n- \nexch QS\npass\n")
    out = parse_output("quackle", text, b)
    assert out.time_ms == 1.5
    assert peer_set(out) == {("B10:Q", 31), ("I12:Q", 13), ("M7:S,M9:U", 11)}
    assert out.moves[0].text == "31.0 B9 (I)Q 31"


@pytest.mark.parametrize("text, fragment", [
    ("B9 .Q 31\nSegmentation fault\n", "line 2"),
    ("B9 .Q\n", "line 1"),
    ("B9 .Q many\n", "no score"),
    ("A1 .Q 3\n", "cannot place"),
])
def test_text_adapter_rejects_garbage_with_the_line(text, fragment):
    with pytest.raises(PeerOutputError, match=fragment):
        parse_output("quackle", text, board("p004"))


def test_wolges_json_blanks_and_string_words():
    # 8B VOYEurE on the empty board: u and r are blanks
    code = {ch: WOLGES_GERMAN.index(ch) + 1 for ch in WOLGES_GERMAN}
    word = [code["V"], code["O"], code["Y"], code["E"], -code["U"], -code["R"], code["E"]]
    items = [{"equity": 1.0, "action": "play", "down": False, "lane": 7, "idx": 1, "word": word, "score": 110},
             {"action": "play", "down": True, "lane": 7, "idx": 1, "word": "VOYEurE", "score": 110},
             {"action": "pass"}]
    out = parse_output("wolges-json", json.dumps({"plays": items, "time_ms": 0.7}), board("p001"))
    assert peer_set(out) == {("B8:V,C8:O,D8:Y,E8:E,F8:u,G8:r,H8:E", 110), ("H2:V,H3:O,H4:Y,H5:E,H6:u,H7:r,H8:E", 110)}
    assert out.time_ms == 0.7
    assert code["Ä"] == 2 and code["Ö"] == 17 and code["U"] == 23 and code["Ü"] == 24 and code["Z"] == 29


@pytest.mark.parametrize("bad, fragment", [
    ([{"action": "play", "down": False, "lane": 7, "idx": 1, "word": [99], "score": 1}], "tile number 99"),
    ([{"action": "play", "down": False, "lane": 7, "score": 1, "word": [1]}], "missing field 'idx'"),
    ([{"action": "play", "down": "no", "lane": 7, "idx": 1, "word": [1, 2], "score": 1}], "down"),
    ([{"action": "play", "down": False, "lane": 7, "idx": 1, "word": [0, 1], "score": 1}], "played through"),
    ({"foo": []}, "expected a list"),
])
def test_wolges_json_errors(bad, fragment):
    with pytest.raises(PeerOutputError, match=fragment):
        parse_output("wolges-json", json.dumps(bad), board("p001"))


def test_scrabble_solver_blanks_and_variants():
    b = board("p001")
    want = "B8:V,C8:O,D8:Y,E8:E,F8:u,G8:r,H8:E"
    flat = [{"x": 1, "y": 7, "direction": "horizontal", "tiles": "voyeure", "blanks": [4, 5], "points": 110}]
    listed = [{"col": 1, "row": 7, "dir": "across", "word": list("VOYEURE"), "blankIndices": [4, 5], "score": 110}]
    cells = [{"cells": [{"x": 1 + i, "y": 7, "tile": {"character": ch, "isBlank": i in (4, 5)}}
                        for i, ch in enumerate("voyeure")], "points": 110}]
    for data in (flat, listed, cells):
        assert peer_set(parse_output("scrabble-solver", json.dumps(data), b)) == {(want, 110)}
    # only the placed tiles listed: occupied squares are skipped
    only_new = [{"x": 10, "y": 6, "direction": "horizontal", "tiles": "us", "points": 7}]
    assert peer_set(parse_output("scrabble-solver", json.dumps(only_new), board("p004"))) == {("K7:U,M7:S", 7)}
    with pytest.raises(PeerOutputError, match="direction"):
        parse_output("scrabble-solver", json.dumps([{"x": 1, "y": 7, "tiles": "ab", "points": 1}]), b)


def test_engine_json_adapter():
    text = json.dumps({"moves": [
        {"move": "B9 (I)Q", "score": 31, "tiles": [[9, 1, "Q", False]], "words": [["IQ", 31]], "leave": "SU"},
        {"move": "M7 S(A)U", "score": 11},                      # no tiles: read the notation
    ], "exchanges": [], "pass": True, "time_ms": 0.05})
    out = parse_output("engine-json", text, board("p004"))
    assert peer_set(out) == {("B10:Q", 31), ("M7:S,M9:U", 11)}
    assert out.time_ms == 0.05
    with pytest.raises(PeerOutputError, match="not JSON"):
        parse_output("engine-json", "B9 .Q 31", board("p004"))
    with pytest.raises(PeerOutputError, match="item 1"):
        parse_output("engine-json", json.dumps({"moves": [{"move": "B9 (I)Q"}]}), board("p004"))


def test_unknown_format():
    with pytest.raises(ValueError, match="unknown peer format"):
        parse_output("macondo", "", board("p004"))
    assert set(FORMATS) >= {"quackle", "wolges", "wolges-json", "scrabble-solver", "engine-json", "tsv", "auto"}


# -- positions ----------------------------------------------------------------------------
def test_read_positions_tsv_and_plain(tmp_path):
    assert [pid for pid, _ in read_positions(FIXTURE_POSITIONS)] == ["p004", "p039", "p007"]
    plain = tmp_path / "plain.txt"
    plain.write_text(f"# two positions\n{CGP['p004']}\n\n{CGP['p039']}\n", encoding="utf-8")
    assert read_positions(plain) == [("2", CGP["p004"]), ("4", CGP["p039"])]
    dup = tmp_path / "dup.tsv"
    dup.write_text(f"a\t{CGP['p004']}\na\t{CGP['p039']}\n", encoding="utf-8")
    with pytest.raises(ValueError, match="used twice"):
        read_positions(dup)
    with pytest.raises(ValueError, match="cannot read"):
        read_positions(tmp_path / "nope.tsv")


@pytest.mark.parametrize("pid, cls", [("p001", "empty/b2"), ("p018", "empty/b0"), ("p004", "late/b0"),
                                      ("p019", "late/b0"), ("p007", "early/b0"), ("p_ref2", "middle/b1"),
                                      ("p011", "middle/b2")])
def test_position_class(pid, cls):
    assert position_class(parse_cgp(CGP[pid])) == cls


# -- comparison -------------------------------------------------------------------------
def test_compare_finds_each_kind_of_difference(golden_lexicon):
    pos = parse_cgp(CGP["p004"])
    ours, ms = our_moves(pos, golden_lexicon, repeat=2)
    assert ms > 0 and len(ours) == 45
    out = parse_output("quackle", (CMP / "quackle" / "p004.txt").read_text(encoding="utf-8"), pos.board)
    missing, extra, differs = compare_moves(pos, ours, out.moves, golden_lexicon)
    assert [(d["notation"], d["placements"], d["ours"], d["theirs"]) for d in missing] == \
        [("7K U(N)S", "K7:U,M7:S", 7, None)]
    assert missing[0]["checker"] == "legal, 7 points"
    assert [(d["notation"], d["placements"], d["ours"], d["theirs"], d["peer_text"]) for d in extra] == \
        [("9L (E)S", "M9:S", None, [2], "9L .S 2")]
    assert extra[0]["checker"].startswith("illegal:") and "not in the word list" in extra[0]["checker"]
    assert [(d["notation"], d["placements"], d["ours"], d["theirs"], d["peer_text"]) for d in differs] == \
        [("B9 (I)Q", "B10:Q", 31, [30], "B9 .Q 30")]
    assert differs[0]["checker"] == "legal, 31 points"


def test_peer_giving_one_placement_two_scores_is_a_score_difference(golden_lexicon):
    pos = parse_cgp(CGP["p004"])
    ours, _ = our_moves(pos, golden_lexicon, repeat=0)
    text = "".join(f"{n} {s}\n" for n, s, _p in golden_moves("p004")) + "B10 Q 30\n"
    missing, extra, differs = compare_moves(pos, ours, parse_output("wolges", text, pos.board).moves)
    assert not missing and not extra
    assert [(d["placements"], d["ours"], d["theirs"]) for d in differs] == [("B10:Q", 31, [30, 31])]


def test_cli_compare_peer_dir_reports_differences_and_unreadable_output(golden_lexicon, capsys, tmp_path):
    report = tmp_path / "report.json"
    code, out, _err = run_cli(["compare", str(FIXTURE_POSITIONS), "--lexicon", str(golden_lexicon.path),
                               "--peer-dir", str(CMP / "quackle"), "--peer-format", "quackle", "--repeat", "1",
                               "--json-report", str(report)], capsys)
    assert code == 1
    assert "p004: DIFFERENT: 1 missing, 1 extra, 1 score differs" in out
    assert f"cgp: {CGP['p004']}" in out
    for fragment in ("7K U(N)S", "K7:U,M7:S", "9L (E)S", "peer wrote: 9L .S 2", "B9 (I)Q", "theirs   30",
                     "our word checker: illegal"):
        assert fragment in out
    assert "p039: same (30 placements" in out
    assert "p007: NOT COMPARED (parse)" in out and "line 6" in out and "stack smashing" in out
    assert f"cgp: {CGP['p007']}" in out
    assert "positions: 3; compared: 2 (1 same, 1 with differences" in out
    assert "could not be compared: 1" in out
    assert "late/b0" in out and "ours/theirs" in out
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["summary"]["with_differences"] == 1 and data["summary"]["not_compared_by_reason"] == {"parse": 1}
    by_id = {p["id"]: p for p in data["positions"]}
    assert by_id["p004"]["status"] == "different" and by_id["p004"]["theirs_ms"] == 0.222
    assert by_id["p004"]["time_source"] == "reported"
    assert by_id["p007"]["error_kind"] == "parse"


def test_cli_compare_other_notation_is_not_compared(golden_lexicon, capsys):
    code, out, _ = run_cli(["compare", str(FIXTURE_POSITIONS), "--lexicon", str(golden_lexicon.path),
                            "--peer-dir", str(CMP / "othernotation"), "--only", "p004", "--repeat", "0"], capsys)
    assert code == 1
    assert "p004: NOT COMPARED (parse)" in out and "'Q B10 down 31'" in out
    assert "could not be compared: 1" in out


def test_cli_compare_golden_dir_with_peer_timings(golden_lexicon, capsys):
    code, out, _ = run_cli(["compare", str(DATA / "positions.tsv"), "--lexicon", str(golden_lexicon.path),
                            "--peer-dir", str(DATA / "golden_moves"), "--only", "p001,p_ref1,p_ref3",
                            "--allow-impossible",
                            "--peer-timings", str(DATA / "peer_timings.tsv"), "--peer-timings-column",
                            "quackle_ms", "--repeat", "1"], capsys)
    assert code == 0, out
    assert "compared: 3 (3 same" in out and "theirs = the times of --peer-timings" in out
    assert "empty/b2" in out and "middle/b0" in out


def test_cli_usage_errors(golden_lexicon, capsys, tmp_path):
    lex = ["--lexicon", str(golden_lexicon.path)]
    code, _, err = run_cli(["compare", str(tmp_path / "none.tsv"), *lex, "--peer-dir", str(CMP)], capsys)
    assert code == 2 and "error:" in err
    code, _, err = run_cli(["compare", str(FIXTURE_POSITIONS), *lex, "--peer-dir", str(CMP), "--only", "p999"],
                           capsys)
    assert code == 2 and "p999" in err
    code, _, err = run_cli(["compare", str(FIXTURE_POSITIONS), *lex, "--peer-dir", str(tmp_path / "nodir")], capsys)
    assert code == 2 and "does not exist" in err
    with pytest.raises(SystemExit) as exc:
        cli.main(["compare", str(FIXTURE_POSITIONS)])  # neither --peer nor --peer-dir
    assert exc.value.code == 2


# -- peers as processes -------------------------------------------------------------------
def test_crashing_peer_is_reported_and_the_run_goes_on(golden_lexicon, capsys):
    cmd = f"{{python}} {CMP / 'peer_crash.py'} {{cgp}}"
    code, out, _ = run_cli(["compare", str(FIXTURE_POSITIONS), "--lexicon", str(golden_lexicon.path),
                            "--peer", cmd, "--peer-format", "quackle", "--repeat", "0"], capsys)
    assert code == 1
    for pid in ("p004", "p039", "p007"):
        assert f"{pid}: NOT COMPARED (crash): exit code 3" in out
    assert "RuntimeError: out of tiles" in out
    assert "compared: 0" in out and "could not be compared: 3" in out


def test_hanging_peer_times_out(golden_lexicon):
    peer = CommandPeer(f"{{python}} {CMP / 'peer_hang.py'}", "quackle", timeout=1.0)
    res = compare_position("p039", CGP["p039"], peer, golden_lexicon, repeat=0)  # returns: the hang was cut off
    assert res.status == "not compared" and res.error_kind == "timeout"
    assert res.error == "timeout after 1 s"
    assert res.ours_count == 30


def test_missing_peer_program():
    peer = CommandPeer("/nonexistent/peer-program {cgp}", "quackle", timeout=5)
    run = peer.run("p004", CGP["p004"], board("p004"))
    assert run.output is None and run.error_kind == "crash" and "cannot start" in run.error


def test_command_peer_reads_cgp_on_stdin_and_uses_reported_time(golden_lexicon):
    peer = CommandPeer(f"{{python}} {CMP / 'peer_replay.py'} {CMP / 'quackle'}", "quackle", timeout=30)
    assert peer.cgp_on_stdin
    results = run_compare(read_positions(FIXTURE_POSITIONS), peer, golden_lexicon, repeat=1, out=None)
    by_id = {r.id: r for r in results}
    assert by_id["p004"].status == "different" and by_id["p004"].differences == 3
    assert by_id["p004"].time_source == "reported" and by_id["p004"].theirs_ms == 0.222
    assert by_id["p039"].status == "same" and by_id["p039"].time_source == "wall"
    assert by_id["p007"].error_kind == "parse" and "line 6" in by_id["p007"].error


def test_directory_peer_missing_file():
    run = DirectoryPeer(CMP / "wolges").run("p039", CGP["p039"], board("p039"))
    assert run.output is None and run.error_kind == "missing"


def test_our_engine_as_a_subprocess_peer_reports_no_difference(golden_lexicon, capsys, tmp_path):
    positions = tmp_path / "three.tsv"
    positions.write_text("".join(f"{pid}\t{CGP[pid]}\n" for pid in ("p004", "p_ref1", "p001")), encoding="utf-8")
    cmd = "{python} -m engine moves --json --lexicon {lexicon} --cgp {cgp}"
    code, out, _ = run_cli(["compare", str(positions), "--lexicon", str(golden_lexicon.path), "--peer", cmd,
                            "--peer-format", "engine-json", "--timeout", "300", "--repeat", "1"], capsys)
    assert code == 0, out
    assert "positions: 3; compared: 3 (3 same, 0 with differences" in out
    assert "could not be compared: 0" in out
    # `moves --json` reports the generator's own time, so that is what the checker compares
    assert "theirs = the time the peer reported" in out


# -- baselines ------------------------------------------------------------------------------
def test_baselines_reproduce_the_golden_lists(golden_lexicon, tmp_path):
    out = tmp_path / "base"
    rows = write_baselines(golden_positions(), golden_lexicon, out, allow_impossible=True)  # p_ref3 is composed
    assert len(rows) == 43
    for pid, _ in golden_positions():
        assert (out / f"{pid}.tsv").read_bytes() == (DATA / "golden_moves" / f"{pid}.tsv").read_bytes(), pid
    assert (out / "summary.tsv").read_bytes() == (DATA / "summary.tsv").read_bytes()


def test_cli_baselines_then_compare_against_them(golden_lexicon, capsys, tmp_path):
    out = tmp_path / "base"
    lex = ["--lexicon", str(golden_lexicon.path)]
    code, text, _ = run_cli(["baselines", str(FIXTURE_POSITIONS), "-o", str(out), *lex], capsys)
    assert code == 0 and "wrote 3 move lists" in text
    assert sorted(p.name for p in out.iterdir()) == ["p004.tsv", "p007.tsv", "p039.tsv", "summary.tsv"]
    code, text, _ = run_cli(["compare", str(FIXTURE_POSITIONS), *lex, "--peer-dir", str(out), "--repeat", "0"],
                            capsys)
    assert code == 0 and "compared: 3 (3 same" in text


def test_truncated_baseline_is_never_compared_as_a_short_list(golden_lexicon, capsys, tmp_path):
    """issue 17 item 4: a baseline cut off mid-line, or shorter than summary.tsv says, is reported, not read."""
    out = tmp_path / "base"
    lex = ["--lexicon", str(golden_lexicon.path)]
    assert run_cli(["baselines", str(FIXTURE_POSITIONS), "-o", str(out), *lex], capsys)[0] == 0
    assert not [p for p in out.iterdir() if p.name.endswith(".tmp")]  # no temp files left behind
    full = (out / "p004.tsv").read_bytes()
    (out / "p004.tsv").write_bytes(full[: len(full) // 2])  # cut mid-file (almost surely mid-line)
    if full[len(full) // 2 - 1:len(full) // 2] == b"\n":
        (out / "p004.tsv").write_bytes(full[: len(full) // 2 - 1])
    code, text, _ = run_cli(["compare", str(FIXTURE_POSITIONS), *lex, "--peer-dir", str(out), "--repeat", "0"],
                            capsys)
    assert code == 1 and "p004: NOT COMPARED (parse)" in text and "has no line end" in text
    # cut at a line end: every line is whole, but summary.tsv knows the count
    lines = full.split(b"\n")
    (out / "p004.tsv").write_bytes(b"\n".join(lines[:10]) + b"\n")
    code, text, _ = run_cli(["compare", str(FIXTURE_POSITIONS), *lex, "--peer-dir", str(out), "--repeat", "0"],
                            capsys)
    n = len(full.splitlines())
    assert code == 1 and f"p004.tsv: 10 moves, but summary.tsv lists {n} placements" in text


def test_baselines_that_cannot_be_written_exit_2_naming_the_file(golden_lexicon, capsys, tmp_path, monkeypatch):
    """issue 17 item 4: a failing write (full disk) names the file, exits 2 and leaves no partial file."""
    import os as _os

    out = tmp_path / "base"
    real_fsync = _os.fsync
    calls = []

    def failing_fsync(fd):
        calls.append(fd)
        if len(calls) == 2:  # the second file: as if the disk were full
            raise OSError(28, "No space left on device")
        return real_fsync(fd)

    monkeypatch.setattr("lexicon_tools.normalize.os.fsync", failing_fsync)
    code, _text, err = run_cli(["baselines", str(FIXTURE_POSITIONS), "-o", str(out),
                                "--lexicon", str(golden_lexicon.path)], capsys)
    first, second = [pid for pid, _ in read_positions(FIXTURE_POSITIONS)][:2]
    assert code == 2
    assert f"error: cannot write '{out / (second + '.tsv')}': No space left on device" in err
    assert sorted(p.name for p in out.iterdir()) == [f"{first}.tsv"]  # the complete first file, nothing else


@pytest.mark.parametrize("kill_at", [1, 3])
def test_baselines_killed_mid_run_are_never_misread(golden_lexicon, capsys, tmp_path, kill_at):
    """issue 17: kill -9 inside a writer (data written, not yet renamed); compare then reads only whole files."""
    import subprocess
    import sys
    import textwrap

    out = tmp_path / "base"
    root = DATA.parent.parent
    script = textwrap.dedent(f"""
        import os, signal, sys
        sys.path.insert(0, {str(root)!r})
        import lexicon_tools.normalize as n
        calls = []
        real = os.fsync
        def fsync(fd):
            calls.append(fd)
            if len(calls) == {kill_at}:
                os.kill(os.getpid(), signal.SIGKILL)
            real(fd)
        n.os.fsync = fsync
        from engine.cli import main as cli
        cli.main(["baselines", {str(FIXTURE_POSITIONS)!r}, "-o", {str(out)!r}, "--lexicon",
                  {str(golden_lexicon.path)!r}])
    """)
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert r.returncode == -9, r.stderr
    whole = sorted(p.name for p in out.iterdir() if not p.name.startswith("."))
    assert len(whole) == kill_at - 1  # the files finished before the kill, nothing cut off
    code, text, _ = run_cli(["compare", str(FIXTURE_POSITIONS), "--lexicon", str(golden_lexicon.path),
                             "--peer-dir", str(out), "--repeat", "0"], capsys)
    assert code == 1  # the positions whose file is missing are not compared ...
    assert f"compared: {kill_at - 1} ({kill_at - 1} same" in text  # ... and every file there is read whole


# -- output captured from the real peers -----------------------------------------------
REAL = CMP / "real"


@pytest.mark.parametrize("folder, fmt", [("wolges", "wolges"), ("wolges-json", "wolges-json"),
                                         ("magpie", "magpie")])
def test_real_peer_output_matches_the_golden_list(folder, fmt):
    """p007 (bag 77): wolges prints ``0.000 Exch. C`` and ``0.000 Pass`` after its equity,
    MAGPIE ``(exch CEEMMTT)`` and ``pass``; all are skipped, the 38 placements are read."""
    text = next((REAL / folder).glob("p007.*")).read_text(encoding="utf-8")
    out = parse_output(fmt, text, board("p007"))
    assert len(golden_set("p007")) == 38
    assert peer_set(out) == golden_set("p007")
    assert out.time_ms is not None and out.time_ms > 0
    assert peer_set(parse_output("auto", text, board("p007"))) == golden_set("p007")


@pytest.mark.parametrize("folder, fmt", [("wolges", "wolges"), ("wolges-json", "wolges-json"),
                                         ("magpie", "magpie")])
def test_real_peers_give_only_across_openings_and_mirroring_completes_them(folder, fmt):
    """On the empty board (p018) both peers list the 39 across openings only; their
    transposed copies are exactly the 39 down openings of the golden list."""
    b = board("p018")
    text = next((REAL / folder).glob("p018.*")).read_text(encoding="utf-8")
    out = parse_output(fmt, text, b)
    gold = golden_set("p018")
    assert len(gold) == 78
    got = peer_set(out)
    assert len(got) == 39 and got < gold
    assert all(len({t[0] for t in m.tiles}) == 1 for m in out.moves)  # one row each: across
    assert {(m.placements, m.score) for m in mirror_empty_board_moves(b, out.moves)} == gold


def test_mirroring_changes_nothing_off_the_empty_board_or_with_down_moves():
    out = parse_output("wolges", (REAL / "wolges" / "p007.txt").read_text(encoding="utf-8"), board("p007"))
    assert mirror_empty_board_moves(board("p007"), out.moves) is out.moves
    b = board("p018")
    down = parse_output("wolges", "H8 BOX 26\n", b).moves
    assert mirror_empty_board_moves(b, down) is down


def test_cli_compare_real_peer_dir_with_mirror_empty(golden_lexicon, capsys, tmp_path):
    d = tmp_path / "peer"
    d.mkdir()
    for pid in ("p007", "p018"):
        (d / f"{pid}.txt").write_bytes((REAL / "wolges" / f"{pid}.txt").read_bytes())
    base = ["compare", str(DATA / "positions.tsv"), "--lexicon", str(golden_lexicon.path), "--peer-dir", str(d),
            "--peer-format", "wolges", "--only", "p007,p018", "--repeat", "0"]
    code, out, _ = run_cli(base, capsys)
    assert code == 1 and "p018: DIFFERENT: 39 missing, 0 extra" in out and "p007: same (38 placements" in out
    code, out, _ = run_cli(base + ["--mirror-empty"], capsys)
    assert code == 0 and "p018: same (78 placements" in out
