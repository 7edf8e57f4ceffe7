"""The layout of docs/architecture.md holds: the layer contract, few modules at the top, every
package's public names importable, and the top-level API of the README."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import engine

ROOT = Path(__file__).resolve().parents[1]


def test_import_linter_contracts_are_kept():
    """`lint-imports` on pyproject.toml's contracts: layers, and no cycle inside a package."""
    exe = Path(sys.executable).parent / "lint-imports"
    r = subprocess.run([str(exe), "--config", str(ROOT / "pyproject.toml"), "--no-cache"], cwd=ROOT,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert " 0 broken" in r.stdout


def test_engine_has_at_most_four_modules_beside_init_and_main():
    top = sorted(p.name for p in (ROOT / "engine").glob("*.py") if p.name not in ("__init__.py", "__main__.py"))
    assert len(top) <= 4, top


@pytest.mark.parametrize("package", ["engine", "engine.position", "engine.leaves", "engine.movegen", "engine.game",
                                     "engine.analysis"])
def test_every_public_name_of_a_package_resolves(package):
    mod = importlib.import_module(package)
    assert mod.__all__, package
    for name in mod.__all__:
        assert getattr(mod, name) is not None, (package, name)
    with pytest.raises(AttributeError):
        getattr(mod, "no_such_name")


def test_every_module_imports():
    bad = []
    for info in pkgutil.walk_packages(engine.__path__, "engine."):
        if info.name == "engine.__main__":
            continue
        try:
            importlib.import_module(info.name)
        except ImportError as e:  # Ray is optional
            if "ray" not in str(e):
                bad.append((info.name, str(e)))
    assert not bad


def test_top_level_api_answers_like_the_cli(golden_lexicon):
    """The README's five-line example: the top move of the README position is 13I SANIERT for 77."""
    pos = engine.parse_cgp("15/15/15/15/15/15/4H3F6/3WALZER6/4U1U1E6/4S1G1U6/8N6/5KIND6/5Ü9/5H9/5L9 "
                           "AEINRST/ 0/0 0 lex NGERMAN; bag 66;")
    best = engine.best_moves(pos.board, pos.rack, golden_lexicon, 1)[0]
    assert (best.notation, best.score) == ("13I SANIERT", 77)
    moves = engine.generate_moves(pos.board, pos.rack, golden_lexicon)
    assert max(m.score for m in moves) == 77
    scored = engine.check_move(pos.board, "13I SANIERT", golden_lexicon)
    assert scored.score == 77


def test_every_plugin_registers_exactly_the_commands_it_declares():
    """The command plug-ins are imported by name (``PLUGINS``), which import-linter cannot see: a
    misspelt or missing module, or a module registering other commands than declared, fails here."""
    import argparse

    from engine.cli.main import PLUGINS

    for name, commands in PLUGINS.items():
        mod = importlib.import_module(name)
        parser = argparse.ArgumentParser()
        sub = parser.add_subparsers(dest="command")
        mod.add_parser(sub)
        assert set(sub.choices) == set(commands), name
        for cmd in commands:  # a handler, or sub-commands of its own (``simultan new``, ...)
            p = sub.choices[cmd]
            assert callable(p.get_default("func")) or p._subparsers is not None, (name, cmd)
