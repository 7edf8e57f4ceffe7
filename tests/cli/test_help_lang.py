"""Every subcommand's ``--help`` in one language (issue 26.9): German in German mode (argparse's own words from
engine.lang_de.ARGPARSE_DE, the code's help texts and placeholders from engine.cli.help_de), English with
``--lang en`` or an English locale."""

from __future__ import annotations

import argparse
import re

import pytest

from engine import lang as L
from engine.cli.main import PLUGINS, CORE_COMMANDS, build_parser, main
from engine.lang_de import ARGPARSE_DE
from engine.cli.help_de import HELP_DE, METAVAR_DE

COMMANDS = list(CORE_COMMANDS) + [c for cmds in PLUGINS.values() for c in cmds]


def _parsers(parser, path=()):
    """(command path, parser) of the parser and every subcommand's, depth first."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, path + (name,))


def _help_texts(parser) -> set[str]:
    out = set()
    for _path, p in _parsers(parser):
        out |= {t for t in (p.description, p.epilog) if t}
        out |= {t for g in p._action_groups for t in (g.title, g.description) if t}
        for a in p._actions:
            if isinstance(a.help, str) and a.help != argparse.SUPPRESS:
                out.add(a.help)
            if isinstance(a, argparse._SubParsersAction):
                out |= {c.help for c in a._choices_actions if c.help}
    return out


@pytest.fixture(scope="module")
def english_parser():
    L.set_lang("en")
    try:
        return build_parser(None)
    finally:
        L.set_lang(None)


def _words(text: str) -> set[str]:
    text = re.sub(r"--[a-z-]+|\{[^}]*\}|%\(\w+\)\w|\S*[/.#]\S*|`[^`]*`", " ", text)  # options, fields, paths
    return set(re.findall(r"[a-zäöüß]{4,}", text.lower()))


def _english_words() -> set[str]:
    """Words of the English help texts that no German help text uses (a German help must not show them)."""
    english = set().union(*map(_words, HELP_DE), *map(_words, ARGPARSE_DE))
    german = set().union(*map(_words, HELP_DE.values()), *map(_words, ARGPARSE_DE.values()),
                         *map(_words, METAVAR_DE.values()))
    return english - german - {"equity", "simultan", "spread", "wall", "score", "leave", "local", "process",
                               "count", "zero", "penalty", "home", "notation", "static", "endgame", "full",
                               "auto", "quackle", "wolges", "magpie", "start", "close", "show", "apply"}


def test_every_help_text_has_its_german(english_parser):
    texts = _help_texts(english_parser)
    assert len(texts) > 150
    missing = sorted(t for t in texts if t not in HELP_DE and t not in ARGPARSE_DE)
    assert not missing
    for en, de in HELP_DE.items():  # argparse formats a help with %: the German keeps the same % signs
        assert re.findall(r"%%|%\(\w+\)\w", en) == re.findall(r"%%|%\(\w+\)\w", de), en


def _help(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv + ["--help"])
    assert exc.value.code == 0, argv
    return capsys.readouterr().out


def _sub_paths(english_parser):
    return [path for path, _p in _parsers(english_parser) if path]


def test_every_subcommands_help_is_german_in_german_mode(english_parser, capsys, monkeypatch):
    english = _english_words()
    assert {"usage", "options", "help", "message", "position", "default", "move", "player", "rack"} <= english
    monkeypatch.delenv("GSE_LANG", raising=False)
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")  # German by the locale alone, no --lang
    paths = _sub_paths(english_parser)
    assert {("best",), ("simultan", "submit"), ("web",), ("review",)} <= set(paths) and len(paths) > 25
    english -= {name for path in paths for name in path}  # the commands' names are names, not English
    for path in [()] + paths:
        out = _help(list(path), capsys)
        assert out.startswith("Aufruf: python -m engine"), path
        if path:
            assert "Optionen:" in out and "diese Hilfe zeigen und beenden" in out, path
        text = re.sub(r"\[-h\]|-h, --help|\{[^}]*\}", " ", out)
        found = sorted(w for w in english if w in _words(text))
        assert not found, (path, found, out)


def test_the_help_in_german_line_by_line(capsys):
    out = _help(["--lang", "de", "best"], capsys)
    assert out.splitlines()[:4] == [
        "Aufruf: python -m engine best [-h] --cgp CGP [--lexicon LEXIKON] [--json]",
        "                              [--allow-impossible]",
        "",
        "Optionen:",
    ]
    assert "  --cgp CGP           Stellung in CGP-Schreibweise (in Anführungszeichen)" in out
    assert "Sekunden je Zug für eine Simulation: der Verlust in Sieg-%" in \
        " ".join(_help(["--lang", "de", "review"], capsys).split())


@pytest.mark.parametrize("how", ["--lang", "locale"])
def test_every_subcommands_help_is_english_in_english_mode(english_parser, capsys, monkeypatch, how):
    if how == "locale":
        monkeypatch.delenv("GSE_LANG", raising=False)
        monkeypatch.delenv("LC_ALL", raising=False)
        monkeypatch.delenv("LC_MESSAGES", raising=False)
        monkeypatch.setenv("LANG", "en_GB.UTF-8")
    lang = ["--lang", "en"] if how == "--lang" else []
    for path, parser in _parsers(english_parser):
        out = _help(lang + list(path), capsys)
        assert out.startswith("usage: python -m engine") and "show this help message and exit" in out, path
        flat = "".join(out.split())  # argparse wraps lines at spaces and hyphens
        for a in parser._actions:
            if isinstance(a.help, str) and a.help != argparse.SUPPRESS and "%" not in a.help:
                assert "".join(a.help.split()) in flat, (path, a.help)
        assert "Aufruf" not in out and "Vorgabe" not in out, path
    # German in the same process before does not stick
    _help(["--lang", "de", "best"], capsys)
    assert _help(lang + ["best"], capsys).startswith("usage: ")
