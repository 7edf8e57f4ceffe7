"""What a fresh user ran into: links to missing files, --top cutting the search, practice giving up on a typo."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from engine.game import equity as E
from engine.position.cgp import parse_cgp
from engine.cli.main import main
from engine.leaves.table import default_table

ROOT = Path(__file__).resolve().parents[2]
MIDGAME = "15/15/15/15/15/15/4H3F6/3WALZER6/4U1U1E6/4S1G1U6/8N6/5KIND6/5Ü9/5H9/5L9 AEINRST/ 0/0 0"


def test_every_local_link_and_cited_file_exists():
    """README and docs cite SPEC.md and link docs: every relative link target is in the repository."""
    pages = [ROOT / "README.md", ROOT / "SPEC.md", *sorted((ROOT / "docs").glob("*.md"))]
    missing = []
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
            if "://" in target or target.startswith("mailto:"):
                continue
            if not (page.parent / target).exists():
                missing.append(f"{page.relative_to(ROOT)} -> {target}")
        if "SPEC.md" in text and not (ROOT / "SPEC.md").exists():
            missing.append(f"{page.relative_to(ROOT)} cites SPEC.md")
    assert not missing, missing
    assert "## End of game" in (ROOT / "SPEC.md").read_text(encoding="utf-8")


def test_analyze_top_limits_only_the_static_table(golden_lexicon, capsys):
    rc = main(["analyze", "--cgp", MIDGAME, "--lexicon", str(golden_lexicon.path), "--top", "1", "--candidates", "3",
               "--time", "2", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and len(out["moves"]) == 1
    assert len(out["simulation"]["moves"]) == 3  # the three best by static equity, simulated
    static3 = [c.notation for c in E.position_candidates(parse_cgp(MIDGAME), golden_lexicon, 3, default_table())]
    assert sorted(m["move"] for m in out["simulation"]["moves"]) == sorted(static3)


def test_analyze_candidates_must_be_sane(golden_lexicon, capsys):
    rc = main(["analyze", "--cgp", MIDGAME, "--lexicon", str(golden_lexicon.path), "--candidates", "0"])
    assert rc == 2 and "--candidates" in capsys.readouterr().err


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_practice_asks_again_after_a_bad_move(golden_lexicon, capsys, monkeypatch):
    from engine.cli.analyze import deal

    g = deal(golden_lexicon, 7, 6, default_table())
    best = E.position_candidates(g.position(), golden_lexicon, 1)[0]
    monkeypatch.setattr("sys.stdin", _Terminal(f"XYZ\n13Z QQQ\n{best.notation}\n"))
    rc = main(["practice", "--seed", "7", "--turns", "6", "--lexicon", str(golden_lexicon.path), "--static"])
    cap = capsys.readouterr()
    assert rc == 0, cap.err
    assert cap.err.count("try again") == 2
    assert f"your move {best.notation}" in cap.out


def test_practice_piped_bad_move_still_exits_2(golden_lexicon, capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("XYZ\n"))
    rc = main(["practice", "--seed", "7", "--turns", "6", "--lexicon", str(golden_lexicon.path), "--static"])
    assert rc == 2 and capsys.readouterr().err.startswith("error:")


def test_the_short_usage_lists_every_command_by_group(capsys):
    """report-attack26b N9: an error in a command of the fast path (which imports no plug-in) printed a usage
    listing 5 of the 18 commands."""
    import pytest

    from engine.cli import main as cli

    every = set(cli.CORE_COMMANDS) | {c for cmds in cli.PLUGINS.values() for c in cmds}
    grouped = [c for _, cmds in cli.COMMAND_GROUPS for c in cmds]
    assert len(every) == 18 and sorted(grouped) == sorted(every)  # each command in exactly one group
    for argv, heading in ((["tiles", "--json", "--bogus"], "usage:"), (["--lang", "de", "best", "--cgp", "x", "--bogus"], "Aufruf:"),
                          (["infer", "--bogus"], "usage:"), ([], "usage:")):
        with pytest.raises(SystemExit) as e:
            main(argv)
        err = capsys.readouterr().err
        assert e.value.code == 2 and err.startswith(heading), err
        groups = err.split("\n  (")[0].splitlines()[1:]  # one line per group, before the hint and the error
        assert len(groups) == len(cli.COMMAND_GROUPS), err
        listed = {w for line in groups for w in line.split(":", 1)[1].replace(",", " ").split()}
        assert listed == every, (listed ^ every, err)


@pytest.mark.parametrize("argv, option", [
    (["best", "--cgp=--"], "--cgp"),
    (["practice", "--seed", "3", "--move=--"], "--move"),
    (["analyze", "--cgp=--"], "--cgp"),
    (["web", "--games=--"], "--games"),
    (["best", "--lexicon=--", "--cgp", "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 ABCDEFG/ 0/0 0"], "--lexicon"),
])
def test_an_option_given_as_dashdash_is_a_usage_error(argv, option, capsys):
    """``--cgp=--``: Python 3.11's argparse stores ``[]``, which the commands once used as a value (a
    TypeError traceback, attack 26d B5). Now argparse's own usage error, exit 2, in both languages."""
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {option}: expected one value, not '--'" in err and "Traceback" not in err
    with pytest.raises(SystemExit):
        main(["--lang", "de", *argv])
    assert f"Argument {option}: ein Wert erwartet, nicht „--“" in capsys.readouterr().err


def test_lexicon_tools_refuses_an_option_given_as_dashdash(capsys):
    from lexicon_tools.cli import main as lexicon_main

    assert lexicon_main(["check", "--lexicon=--", "HAUS"]) == 2
    assert "argument --lexicon/-l: expected one value, not '--'" in capsys.readouterr().err
