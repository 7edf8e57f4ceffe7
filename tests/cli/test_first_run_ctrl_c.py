"""Ctrl-C during a command's first-run compile (engine.analysis.warmup, report-attack26c A3).

A first run compiles the kernels in child processes of their own session (a terminal's Ctrl-C does
not reach them; Python could not see it inside LLVM anyway), so the command itself must react: kill
the running step's child and exit 130 with one line. The attack found ``review --time 5`` going on
for minutes after Ctrl-C: it had been started by a script in the background, where the shell starts
a program with Ctrl-C (SIGINT) ignored, and Python then never raises ``KeyboardInterrupt``; the
searches after the compile took Ctrl-C anyway (engine.interrupt.on_ctrl_c installs its handler), so
the same command ignored Ctrl-C while compiling and obeyed it a minute later.

Each test runs the real CLI in a child process whose warm-up is one fake, slow step (a process that
ignores SIGINT, as Numba inside LLVM does, and sleeps), presses Ctrl-C and checks: exit 130, one
line saying what happened, the fake step killed (not left compiling), nothing marked done.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from lexicon_tools.bundle import build_bundle

ROOT = Path(__file__).resolve().parents[2]
WORDS = ["SCORE", "ÜBER", "ES", "AB"]
GAME = """#character-encoding UTF-8
#player1 ana Ana
#player2 ben Ben
>ana: CEORSXY 8F SCORE +18 18
"""
EMPTY_BOARD = "/".join(["15"] * 15) + " EINRST?/ 0/0 0"


@pytest.fixture(scope="module")
def small_lex(tmp_path_factory):
    return build_bundle(WORDS, tmp_path_factory.mktemp("lex") / "small.lex", source_name="test")


def _driver(tmp_path: Path, argv: list[str]) -> tuple[Path, Path]:
    """A script that runs ``python -m engine ARGV`` with a warm-up of one slow fake step; and its child's pid file."""
    pidfile = tmp_path / "step.pid"
    script = tmp_path / "driver.py"
    script.write_text(textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(ROOT)!r})
        from engine.analysis import warmup
        from engine.cli.main import main

        child = ("import os, signal, time; signal.signal(signal.SIGINT, signal.SIG_IGN); "
                 "open({str(pidfile)!r}, 'w').write(str(os.getpid())); time.sleep(300)")
        slow = warmup.Step("movegen", "a fake step that takes minutes", 60.0, None)
        warmup.pending = lambda lexicon, names=None: [slow]
        warmup._child_argv = lambda step, path, force=False: [sys.executable, "-c", child]
        warmup._mark_done = lambda step, lexicon: open({str(tmp_path / "marked")!r}, "w").close()
        if __name__ == "__main__":
            sys.exit(main({argv!r}))
        """), encoding="utf-8")
    return script, pidfile


def _press_ctrl_c_while_compiling(script: Path, pidfile: Path, *, inherited_ignore: bool) -> tuple[int, str, int]:
    """Start the driver, wait for the fake step to run, send SIGINT to the driver; ``(exit code, stderr, step pid)``."""
    def ignore_ctrl_c() -> None:  # what a shell does for `command &` in a script (POSIX: SIGINT ignored)
        signal.signal(signal.SIGINT, signal.SIG_IGN)

    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, encoding="utf-8", env={**os.environ, "GSE_LANG": "en"},
                            preexec_fn=ignore_ctrl_c if inherited_ignore else None)
    try:
        for _ in range(1200):  # the driver imports the engine and loads the lexicon first
            if pidfile.exists() and pidfile.read_text():
                break
            if proc.poll() is not None:
                break
            time.sleep(0.05)
        assert pidfile.exists() and pidfile.read_text(), proc.communicate(timeout=60)
        step = int(pidfile.read_text())
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)  # generous: the fake step would sleep 300 s
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return proc.returncode, err, step


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


COMMANDS = {
    "review": lambda gcg, lex: ["review", str(gcg), "--time", "5", "--lexicon", lex],
    "analyze": lambda gcg, lex: ["analyze", "--cgp", EMPTY_BOARD, "--time", "5", "--lexicon", lex],
    "warmup": lambda gcg, lex: ["warmup", "--lexicon", lex],
    "simulate": lambda gcg, lex: ["simulate", "--cgp", EMPTY_BOARD, "-i", "10", "--backend", "local",
                                        "--lexicon", lex],
}


@pytest.mark.parametrize("inherited_ignore", [False, True], ids=["terminal", "started-in-background"])
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_ctrl_c_during_the_first_run_compile_stops_the_command(small_lex, tmp_path, command, inherited_ignore):
    gcg = tmp_path / "game.gcg"
    gcg.write_text(GAME, encoding="utf-8")
    script, pidfile = _driver(tmp_path, COMMANDS[command](gcg, str(small_lex.path)))
    rc, err, step = _press_ctrl_c_while_compiling(script, pidfile, inherited_ignore=inherited_ignore)
    assert rc == 130, err
    assert "Traceback" not in err
    lines = [ln for ln in err.splitlines() if ln.startswith("error:")]
    assert len(lines) == 1 and "interrupted while compiling" in lines[0], err
    assert _gone(step)  # the step was killed, not left compiling in its own session
    assert not (tmp_path / "marked").exists()  # an interrupted step is never marked done
