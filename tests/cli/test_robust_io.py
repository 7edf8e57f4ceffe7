"""Nothing wrong gets through the position commands (issue 17 items 1, 2, 8).

Every entry point refuses an impossible position (more of a tile than the set
holds) with the tile and the counts, exit 2, one ``error:`` line; junk in a CGP is
refused naming the part; messages name the field. Random CGP mutations either
parse or raise :class:`engine.position.cgp.CGPError`, never another exception.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cli import main as cli
from engine.position.cgp import CGPError, parse_cgp

EMPTY = "/".join(["15"] * 15)
ROW8 = lambda row: "/".join(["15"] * 7 + [row] + ["15"] * 7)  # noqa: E731
TWO_X = ROW8("7EX6") + " X/ 0/0 0"                       # issue: `best` answered H8 (E)X 9
SIXTEEN_E = "EEEEEEEEEEEEEEE/E14/" + "/".join(["15"] * 13) + " AB/ 0/0 0"   # issue: `analyze` said bag 79
THIRD_BLANK = ROW8("7ab6") + " EINRST?/ 0/0 0"           # issue: N9 hINTERS played with a third blank


def run(argv, capsys):
    code = cli.main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("command", [["best"], ["moves"], ["moves", "--top", "3"], ["analyze"],
                                     ["score", "8A AB"], ["simulate", "-i", "10"]])
@pytest.mark.parametrize("cgp,fragment", [
    (TWO_X, "impossible position: 2 × X (1 on the board, 1 on the rack), the German tile set has 1"),
    (SIXTEEN_E, "impossible position: 16 × E (16 on the board, 0 on the rack), the German tile set has 15"),
    (THIRD_BLANK, "impossible position: 3 × blank (2 on the board, 1 on the rack), the German tile set has 2"),
])
def test_every_position_command_refuses_an_impossible_position(golden_lexicon, capsys, command, cgp, fragment):
    argv = [command[0], "--cgp", cgp, "--lexicon", str(golden_lexicon.path), *command[1:]]
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    assert err.startswith(f"error: {fragment}") and err.count("\n") == 1
    # the hint only where the switch exists (a simulation cannot draw the unseen tiles of such a position)
    assert ("--allow-impossible" in err) == (command[0] != "simulate")


def test_allow_impossible_lets_a_composed_puzzle_through(golden_lexicon, capsys):
    lex = ["--lexicon", str(golden_lexicon.path)]
    code, out, _ = run(["best", "--cgp", TWO_X, *lex, "--allow-impossible"], capsys)
    assert code == 0 and out.split()[:2] == ["H8", "(E)X"]  # E (1) + X (8) = 9, the answer
    assert out.split()[2] == "9"
    code, out, _ = run(["analyze", "--cgp", SIXTEEN_E, *lex, "--allow-impossible", "--top", "1"], capsys)
    assert code == 0 and out.startswith("rack AB  bag 77")  # 102 tiles - 16 on the board - 2 on the rack - 7


@pytest.mark.parametrize("cgp,fragment", [
    (EMPTY + " aeinrst/ 0/0 0", "rack 'aeinrst': lowercase 'a'"),
    (EMPTY + " AEINRST/ 0/0 0 foo", "'foo' is not an opcode"),
    (EMPTY + " AEINRST/ 0/0 ²", "scoreless-turn field '²': expected a number (digits 0-9)"),
    (EMPTY + " AEINRST/ 0/0 0 bag ²;", "opcode bag '²': expected a number of tiles (digits 0-9)"),
    (EMPTY + " AEINRST/ 0/0 0 " + "x" * 100_000, "a position is at most 4,096"),
])
def test_cgp_junk_exits_2_naming_the_part(golden_lexicon, capsys, cgp, fragment):
    code, _out, err = run(["best", "--cgp", cgp, "--lexicon", str(golden_lexicon.path)], capsys)
    assert code == 2 and err.startswith("error: ") and fragment in err and err.count("\n") == 1


def test_unknown_lexicon_name_warns_on_one_line(golden_lexicon, capsys):
    code, out, err = run(["best", "--cgp", EMPTY + " AB/ 0/0 0 lex FOO;", "--lexicon", str(golden_lexicon.path)],
                         capsys)
    assert code == 0 and out.strip()
    assert err.startswith("warning: CGP opcode lex 'FOO': not a known German word list") and err.count("\n") == 1
    code, out, err = run(["best", "--cgp", EMPTY + " AB/ 0/0 0 frob 1;", "--lexicon", str(golden_lexicon.path)],
                         capsys)
    assert code == 0 and out.strip()
    assert err.startswith("warning: CGP opcode 'frob' is not one this program knows") and err.count("\n") == 1


def test_a_move_typed_with_sharp_s_gets_the_ss_hint(golden_lexicon, capsys):
    code, out, _ = run(["score", "--cgp", EMPTY + " AERSST/ 0/0 0", "--lexicon", str(golden_lexicon.path),
                        "8H STRAßE"], capsys)
    assert code == 1 and out.strip() == "illegal: STRAßE: 'ß' is not a letter of the German tile set (write SS for ß)"


def test_simulate_n_0_says_what_n_means(golden_lexicon, capsys):
    code, _out, err = run(["simulate", "--cgp", EMPTY + " AB/ 0/0 0", "--lexicon", str(golden_lexicon.path),
                           "-n", "0"], capsys)
    assert code == 2
    assert err.startswith("error: -n/--candidates 0: -n is how many of the best moves (by static equity) to simulate")
    assert "n_candidates" not in err


# -- random CGP mutations: parse or CGPError, nothing else ---------------------------------------------
SEEDS = [
    EMPTY + " AEINRST/ 0/0 0",
    ROW8("7HAuS4") + " ÄEN?/IJ 120/95 2 lex NGERMAN; bag 80;",
    "6MOBbTE3/5GI8/2G2EX8/2E1HIE8/2W1ÖL9/2A1HE9/2N1L10/2NIESEN7/4N10/4SAUENDE4/15/15/15/15/15 ENRTUUÜ/ 96/157 0 "
    "lex NGERMAN; bag 51;",
]
ALPHABET = st.sampled_from(list("0123456789/ ;?-AEIQXZÄÖÜaeäüßẞ²³¹٣\t\n\x00é\u0308xyz") + ["lex", "bag", "15"])


@st.composite
def mutated(draw):
    s = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["insert", "delete", "replace", "dup", "swap"]))
        i = draw(st.integers(0, max(0, len(s) - 1)))
        if op == "insert":
            s = s[:i] + draw(ALPHABET) + s[i:]
        elif op == "delete":
            s = s[:i] + s[i + 1:]
        elif op == "replace":
            s = s[:i] + draw(ALPHABET) + s[i + 1:]
        elif op == "dup":
            j = draw(st.integers(i, len(s)))
            s = s[:j] + s[i:j] + s[j:]
        else:
            j = draw(st.integers(0, max(0, len(s) - 1)))
            if i < j:
                s = s[:i] + s[j] + s[i + 1:j] + s[i] + s[j + 1:]
    return s


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(), st.booleans())
def test_random_cgp_mutations_parse_or_raise_cgperror(cgp, allow):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            pos = parse_cgp(cgp, allow_impossible=allow)
        except CGPError as exc:
            assert str(exc)  # a message, never an empty one
            return
        # what parses is a real position: it formats and reads back to itself
        again = parse_cgp(pos.to_cgp(), allow_impossible=allow)
    assert again.to_cgp() == pos.to_cgp()
    assert (pos.board.tiles >= 0).all() and int(pos.rack.sum()) <= 7


# -- a real full disk: a tmpfs of a few KB (skipped where mounting is not allowed) ------------------------
@pytest.fixture
def tiny_fs(tmp_path):
    import subprocess

    mnt = tmp_path / "tiny"
    mnt.mkdir()
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=12k", "tmpfs", str(mnt)], capture_output=True)
    if r.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({r.stderr.decode(errors='replace').strip() or r.returncode})")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", str(mnt)], capture_output=True)


def test_full_disk_writers_fail_naming_the_file_and_leave_no_temp(golden_lexicon, capsys, tiny_fs):
    from lexicon_tools.normalize import WordListError, write_atomic

    with pytest.raises(WordListError, match=r"cannot write '.*big\.txt': No space left on device"):
        write_atomic(tiny_fs / "big.txt", "x" * 100_000)
    assert list(tiny_fs.iterdir()) == []
    # baselines of the golden empty-board position p001 (4,042 placements, ~100 KB) cannot fit
    positions = tiny_fs.parent / "pos.tsv"
    from conftest import golden_positions

    positions.write_text("".join(f"{pid}\t{cgp}\n" for pid, cgp in golden_positions() if pid == "p001"),
                         encoding="utf-8")
    code, _out, err = run(["baselines", str(positions), "-o", str(tiny_fs / "base"), "--lexicon",
                           str(golden_lexicon.path)], capsys)
    assert code == 2 and "error: cannot write" in err and "p001.tsv': No space left on device" in err
    assert [p.name for p in (tiny_fs / "base").iterdir()] == []
    code, _out, err = run(["selfplay", "--games", "5", "--out", str(tiny_fs / "games"), "--lexicon",
                           str(golden_lexicon.path), "--no-progress"], capsys)
    assert code == 2 and "No space left on device" in err and ".gcg'" in err
    names = [p.name for p in (tiny_fs / "games").iterdir()]
    assert all(n.startswith("game_") and n.endswith(".gcg") for n in names)  # no temp files, no empty GCG
    assert all((tiny_fs / "games" / n).stat().st_size > 0 for n in names)


def test_full_disk_lexicon_build_leaves_no_partial_bundle(tiny_fs, capsys):
    from lexicon_tools import cli as lcli

    src = tiny_fs.parent / "list.txt"
    letters = "ABDEGHIKLMNORSTUZ"
    src.write_text("".join("".join(letters[(i // 17 ** k) % 17] for k in range(5)) + "\n" for i in range(3000)),
                   encoding="utf-8")
    code = lcli.main(["build", str(src), "-o", str(tiny_fs / "w.lex"), "-q"])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith(f"error: {tiny_fs / 'w.lex'}: cannot write (No space left on device)")
    assert list(tiny_fs.iterdir()) == []
