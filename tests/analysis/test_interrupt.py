"""Ctrl-C during long searches, finished games, bad time limits and the first-run compile note.

Found by a fresh-user test: Ctrl-C did not stop a long endgame (the Numba kernel
held the interpreter), with ``--time`` it ended in a ``SystemError`` traceback,
``--time inf`` overflowed, a finished game was simulated and analysed, and a
first run spent its whole time budget compiling without a word.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from engine.position.cgp import parse_cgp
from engine.cli.main import main
from engine.analysis.endgame import SearchInterrupted, solve
from engine.interrupt import call_interruptible, on_ctrl_c
from lexicon_tools import _numba_cache

ROOT = Path(__file__).resolve().parents[2]

# benchmarks/positions/endgames.tsv e77_2: 7 tiles a side, far beyond a few seconds of search
LONG = ("I6G7/N3H2A7/F1N1Y2SCHNUR2/OPIUM2T7/1eX1N1WO7/1REHE1ÖD7/ES1Ä2G8/T2MADEN6U/U2M2T7M/I2E10B/"
        "1ERRINGST5I/3E3ZULASSEN/2F4E6D/2Ü2JENER4e/KURVTE1E3SEKT DHILLNO/AABCEQS 347/334 0")


def _sigint_later(seconds: float) -> threading.Timer:
    t = threading.Timer(seconds, os.kill, (os.getpid(), signal.SIGINT))
    t.start()
    return t


def test_call_interruptible_aborts_and_raises():
    stop = threading.Event()
    calls = []

    def work(n):  # stands in for a nogil kernel polling its stop flag
        while not stop.is_set():
            time.sleep(0.01)
        return n

    def abort():
        calls.append(1)
        stop.set()

    assert call_interruptible(lambda n: n + 1, (1,), abort) == 2
    _sigint_later(0.2)
    with pytest.raises(KeyboardInterrupt):
        call_interruptible(work, (5,), abort)
    assert calls == [1]


def test_call_interruptible_passes_errors_on():
    def bad():
        raise ValueError("square 8H holds R")

    with pytest.raises(ValueError, match="8H"):
        call_interruptible(bad, (), lambda: None)


def test_on_ctrl_c_calls_stop_instead_of_raising():
    hits = []
    with on_ctrl_c(lambda: hits.append(1)) as ctrl_c:
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(100):  # the handler runs between bytecodes of the main thread
            if ctrl_c.pressed:
                break
            time.sleep(0.01)
    assert ctrl_c.pressed and hits == [1]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # restored


def test_ctrl_c_after_a_depth_returns_that_depth(golden_lexicon):
    """Ctrl-C right after depth 1: the answer is depth 1's, the same as ``max_depth=1``."""
    ref = solve(LONG, golden_lexicon, max_depth=1)

    def progress(r):
        if r.depth == 1:
            os.kill(os.getpid(), signal.SIGINT)

    with pytest.raises(SearchInterrupted) as caught:
        solve(LONG, golden_lexicon, progress=progress)
    r = caught.value.result
    assert (r.move, r.value, r.depth, r.complete) == (ref.move, ref.value, 1, False)


def test_ctrl_c_inside_a_long_depth_stops_the_kernel(golden_lexicon):
    solve(LONG, golden_lexicon, max_depth=1)  # compiled and cached before the timer starts
    _sigint_later(1.5)
    with pytest.raises(SearchInterrupted) as caught:
        solve(LONG, golden_lexicon)  # to the end would take minutes
    r = caught.value.result
    assert not r.complete and r.move and r.pv[0] == r.move


def test_cli_ctrl_c_prints_the_best_so_far(golden_lexicon):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "engine", "endgame", "--cgp", LONG, "--lexicon",
                             str(golden_lexicon.path), "--json"], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8")
    lines = []
    for line in proc.stderr:  # wait for a finished depth, then press Ctrl-C
        lines.append(line)
        if line.startswith("depth  2:"):
            proc.send_signal(signal.SIGINT)
            break
    out, err = proc.communicate(timeout=300)
    err = "".join(lines) + err
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    import json

    got = json.loads(out)
    assert got["complete"] is False and got["depth"] >= 2 and got["pv"][0] == got["move"]


@pytest.mark.parametrize("value", ["inf", "1e400", "nan"])
def test_time_must_be_finite(golden_lexicon, capsys, value):
    rc = main(["endgame", "--cgp", LONG, "--lexicon", str(golden_lexicon.path), "--time", value])
    err = capsys.readouterr().err
    assert rc == 2 and err.startswith("error: --time") and "Traceback" not in err


def _opponent_went_out() -> str:
    """LONG after the opponent played out AABCEQS: those tiles are on the board, no tile is unseen.

    (Where they lie does not matter for the refusal: row 1 gets AABCEQ, row 2 the S.)"""
    rows = LONG.split(" ")[0].split("/")
    assert rows[0] == "I6G7" and rows[1] == "N3H2A7"
    rows[0], rows[1] = "IAABCEQG7", "NS2H2A7"
    return "/".join(rows) + " DHILLNO/ 347/334 0"


def test_game_over_reasons():
    assert parse_cgp(LONG).game_over() is None
    out = parse_cgp(_opponent_went_out())
    assert int(out.unseen().sum()) == 0
    assert "opponent has played out" in out.game_over()
    passes = parse_cgp(LONG.replace(" 347/334 0", " 347/334 4"))
    assert "4 scoreless turns" in passes.game_over()
    assert parse_cgp(LONG.replace(" 347/334 0", " 347/334 3")).game_over() is None
    assert parse_cgp("15/15/15/15/15/15/4H3F6/3WALZER6/4U1U1E6/4S1G1U6/8N6/5KIND6/5Ü9/5H9/5L9 AEINRST/ 0/0 0").game_over() is None  # tiles in the bag: never over


def test_finished_game_is_refused(golden_lexicon, capsys):
    lex = ["--lexicon", str(golden_lexicon.path)]
    for cmd in (["analyze", "--cgp", _opponent_went_out(), "--time", "5"],
                ["simulate", "--cgp", _opponent_went_out(), "-i", "10"],
                ["preendgame", "--cgp", _opponent_went_out()]):
        rc = main([*cmd, *lex])
        err = capsys.readouterr().err
        assert rc == 2 and "game is over" in err and "Traceback" not in err, (cmd, err)


def test_preendgame_with_an_empty_bag_says_endgame(golden_lexicon, capsys):
    rc = main(["preendgame", "--cgp", LONG, "--lexicon", str(golden_lexicon.path)])
    err = capsys.readouterr().err
    assert rc == 2 and "use `engine endgame`" in err and "holds -" not in err


@pytest.mark.parametrize("value", ["0", "-1", "inf"])
def test_simulate_time_limit_must_be_positive(golden_lexicon, capsys, value):
    rc = main(["simulate", "--cgp", "15/15/15/15/15/15/4H3F6/3WALZER6/4U1U1E6/4S1G1U6/8N6/5KIND6/5Ü9/5H9/5L9 AEINRST/ 0/0 0", "--lexicon", str(golden_lexicon.path),
               "--time-limit", value, "-i", "10"])
    err = capsys.readouterr().err
    assert rc == 2 and "--time-limit" in err and "Traceback" not in err


def test_is_cached(tmp_path):
    mod = tmp_path / "_k.py"
    mod.write_text("")
    assert not _numba_cache.is_cached(str(mod), "negamax")
    (tmp_path / "__pycache__").mkdir()
    (tmp_path / "__pycache__" / "_k.negamax-479.py311.nbi").write_bytes(b"")
    assert _numba_cache.is_cached(str(mod), "negamax")
    assert not _numba_cache.is_cached(str(mod), "nega")


def test_passes_end_the_game_when_no_exchange_is_possible():
    # LONG with one tile back in the bag (the opponent's rack unknown: 8 unseen, bag 1) after 4 scoreless turns
    one_in_bag = LONG.replace(" DHILLNO/AABCEQS 347/334 0", " DHILLNO/ 347/334 4 bag 1;")
    pos = parse_cgp(one_in_bag.replace("I6G7", "7G7"))
    assert pos.bag_count == 1 and "4 passes in a row" in pos.game_over()
    assert parse_cgp(one_in_bag.replace("I6G7", "7G7").replace(" 4 bag", " 3 bag")).game_over() is None


def test_ctrl_c_in_a_simulation_keeps_the_batches_done(golden_lexicon):
    from engine.analysis.simulation import simulate

    midgame = parse_cgp("15/15/15/15/15/15/4H3F6/3WALZER6/4U1U1E6/4S1G1U6/8N6/5KIND6/5Ü9/5H9/5L9 AEINRST/ 0/0 0")
    simulate(midgame, golden_lexicon, n_candidates=2, iterations=2, seed=1, progress=False)  # compiled
    _sigint_later(1.0)
    res = simulate(midgame, golden_lexicon, n_candidates=3, iterations=1_000_000, seed=1, progress=False,
                   stop_when_clearly_ahead=False)
    assert res.stop_reason == "interrupted"
    assert 0 < res.total_iterations < 3_000_000 and all(c.iterations > 0 for c in res.candidates)


def test_ctrl_c_before_the_first_depth_gives_no_made_up_answer(golden_lexicon, monkeypatch):
    from engine.analysis import endgame as EG

    real = EG._State.search

    def search_then_ctrl_c(self, depth, node_limit, *rest):
        os.kill(os.getpid(), signal.SIGINT)  # handled at once: the kernel is told to stop
        time.sleep(0.05)
        return real(self, depth, 0, *rest)  # an aborted first depth

    monkeypatch.setattr(EG._State, "search", search_then_ctrl_c)
    with pytest.raises(KeyboardInterrupt) as caught:
        solve(LONG, golden_lexicon)
    assert not isinstance(caught.value, SearchInterrupted)
