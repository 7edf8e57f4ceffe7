"""``python -m engine tiles``: the German tile set, as lines and as JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from engine.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
GERMAN = json.loads((ROOT / "lexicon_tools" / "data" / "german.json").read_text(encoding="utf-8"))


def test_tiles_json_matches_the_tile_set_file(capsys):
    assert main(["tiles", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    # german.json lists [letter, value, count]; the command prints count before points
    expected = [{"letter": ch, "count": n, "points": v} for ch, v, n in GERMAN["letters"]]
    expected.append({"letter": "?", "count": GERMAN["blank"]["count"], "points": GERMAN["blank"]["value"]})
    assert out["tiles"] == expected
    assert out["tiles"][0] == {"letter": "A", "count": 5, "points": 1}
    assert out["total"] == sum(t["count"] for t in out["tiles"]) == 102


def test_tiles_text_one_line_per_tile(capsys):
    assert main(["tiles"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 30  # 29 letters and the blank
    assert lines[0].split() == ["A", "5", "1"]
    assert lines[-1].split() == ["?", "2", "0"]
    assert ["Q", "1", "10"] in [ln.split() for ln in lines]


def test_python_m_engine_tiles_runs_without_the_other_plugins():
    code = ("import runpy, sys; sys.argv = ['engine', 'tiles']\n"
            "try:\n    runpy.run_module('engine', run_name='__main__')\nexcept SystemExit as e:\n    rc = e.code\n"
            "print('PLUGINS', sorted(m for m in sys.modules if m.startswith(('engine.analysis', 'engine.web', "
            "'engine.director', 'numba'))), rc)")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0].split() == ["A", "5", "1"]
    assert r.stdout.splitlines()[-1] == "PLUGINS [] 0"
