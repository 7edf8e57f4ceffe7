"""The first run (engine.analysis.warmup): steps in child processes under one progress bar, Ctrl-C kills the
running child at once, stamps say what is done, and a command compiles what it needs before its clock."""

from __future__ import annotations

import importlib
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from engine.analysis import warmup
from engine.cli.main import main

ROOT = Path(__file__).resolve().parents[2]


def test_probes_name_real_kernels_and_every_step_runs_something():
    """A renamed kernel would make every run look cold; a step without code would never compile anything."""
    for step in warmup.STEPS:
        assert step.name in warmup._RUN and step.cpu_s > 0
        if step.probe:
            mod, fn = step.probe
            assert callable(getattr(importlib.import_module(f"engine.{mod}"), fn))
    for steps in warmup.COMMAND_STEPS.values():
        assert set(steps) <= {s.name for s in warmup.STEPS}


def test_run_steps_reports_cpu_of_each_child(capsys):
    steps = [warmup.Step("a", "spin a little", 0.1, None), warmup.Step("b", "sleep", 0.1, None)]
    code = {"a": "x = 0\nfor i in range(3_000_000): x += i", "b": "import time; time.sleep(0.2)"}
    done = warmup.run_steps(steps, lambda s: [sys.executable, "-c", code[s.name]], poll=0.05)
    assert [s.name for s, _ in done] == ["a", "b"]
    assert done[0][1] > done[1][1]  # the spinning child used more CPU than the sleeping one
    err = capsys.readouterr().err
    assert "compiling 1/2: spin a little" in err and "compiling 2/2: sleep" in err  # not a terminal: lines


def test_a_failing_step_says_which_and_why():
    steps = [warmup.Step("bad", "fails", 0.1, None)]
    with pytest.raises(RuntimeError, match=r"step 'bad' failed \(exit 3\).*boom"):
        warmup.run_steps(steps, lambda s: [sys.executable, "-c", "import sys; print('boom', file=sys.stderr); "
                                                                  "sys.exit(3)"], poll=0.05)


def test_ctrl_c_kills_the_running_child_at_once(tmp_path):
    """Ctrl-C in the parent kills the step's child (which would ignore it inside LLVM) and exits 130."""
    pidfile = tmp_path / "child.pid"
    script = tmp_path / "parent.py"
    script.write_text(textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(ROOT)!r})
        from engine.analysis import warmup
        child = "import os, signal, time; signal.signal(signal.SIGINT, signal.SIG_IGN); " \\
                "open({str(pidfile)!r}, 'w').write(str(os.getpid())); time.sleep(60)"
        try:
            warmup.run_steps([warmup.Step("slow", "ignores Ctrl-C", 60, None)],
                             lambda s: [sys.executable, "-c", child], poll=0.05)
        except warmup.WarmupInterrupted:
            sys.exit(130)
        """), encoding="utf-8")
    proc = subprocess.Popen([sys.executable, str(script)], stderr=subprocess.DEVNULL)
    for _ in range(300):
        if pidfile.exists() and pidfile.read_text():
            break
        time.sleep(0.05)
    child = int(pidfile.read_text())
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=30) == 130
    with pytest.raises(ProcessLookupError):
        os.kill(child, 0)  # killed and reaped, not left running


def test_a_ctrl_c_a_compile_swallowed_still_stops_the_steps(tmp_path):
    # report-attack26g C1: the KeyboardInterrupt of a Ctrl-C landed in llvmlite's ctypes callback, which printed
    # "Exception ignored" and went on; the steps then compiled for minutes. The CLI's handler remembers the
    # Ctrl-C, and the steps stop at the next look
    from engine.interrupt import ctrl_c_pressed, forget_ctrl_c, remembering_handler

    started = tmp_path / "started"
    forget_ctrl_c()
    try:
        try:
            remembering_handler(signal.SIGINT, None)  # as the signal arrives inside a callback ...
        except KeyboardInterrupt:
            pass                                       # ... which swallows it
        assert ctrl_c_pressed()
        with pytest.raises(warmup.WarmupInterrupted):
            warmup.run_steps([warmup.Step("s", "would compile", 60, None)],
                             lambda s: [sys.executable, "-c", f"open({str(started)!r}, 'w')"], poll=0.05)
        assert not started.exists()                    # no step was started
    finally:
        forget_ctrl_c()
    assert not ctrl_c_pressed()


def test_stamps_decide_what_is_pending(golden_lexicon, tmp_path, monkeypatch):
    monkeypatch.setattr(warmup, "_stamp_dir", lambda: tmp_path)
    monkeypatch.setattr(warmup, "is_cached", lambda module_file, function: True)
    no_aot = [s.name for s in warmup.STEPS if s.name != "aot"]
    assert [s.name for s in warmup.pending(golden_lexicon, no_aot)] == no_aot
    for s in warmup.STEPS:
        if s.name != "aot":
            warmup._mark_done(s, golden_lexicon)
    assert warmup.pending(golden_lexicon, no_aot) == []
    (tmp_path / f"warmup.endgame.{warmup._digest(golden_lexicon)}").unlink()
    assert [s.name for s in warmup.pending(golden_lexicon, no_aot)] == ["endgame"]
    # Numba's cache gone (e.g. __pycache__ deleted, or dropped after a source change): not done either
    monkeypatch.setattr(warmup, "is_cached", lambda module_file, function: function != "play_game")
    assert [s.name for s in warmup.pending(golden_lexicon, no_aot)] == ["game", "endgame"]


def test_digest_follows_the_graph_layout(golden_lexicon):
    import numpy as np

    class Other:
        graph = np.zeros(4, dtype=np.uint64)

    assert warmup._digest(golden_lexicon) != warmup._digest(Other())


def test_warm_if_cold_runs_only_the_commands_steps(golden_lexicon, monkeypatch):
    notes, ran = [], []
    monkeypatch.setattr(warmup, "run_steps", lambda steps, argv_of, **kw: ran.append([s.name for s in steps]))
    monkeypatch.setattr(warmup, "is_done", lambda step, lexicon, digest=None: True)
    assert warmup.warm_if_cold(golden_lexicon, notes.append, "endgame") is False and notes == [] and ran == []
    monkeypatch.setattr(warmup, "is_done", lambda step, lexicon, digest=None: False)
    assert warmup.warm_if_cold(golden_lexicon, notes.append, "endgame") is True
    assert ran == [["movegen", "endgame"]] and len(notes) == 1 and "first run" in notes[0]


def test_child_argv_passes_the_lexicon(golden_lexicon):
    step = warmup.STEPS[0]
    assert warmup._child_argv(step, str(golden_lexicon.path))[-2:] == ["--lexicon", str(golden_lexicon.path)]
    assert "--lexicon" not in warmup._child_argv(step, None)
    assert warmup._path_of(golden_lexicon) == str(golden_lexicon.path)


def test_cli_lists_steps_and_refuses_unknown_ones(golden_lexicon, capsys):
    assert main(["warmup", "--list", "--lexicon", str(golden_lexicon.path)]) == 0
    out = capsys.readouterr().out
    assert all(s.name in out for s in warmup.STEPS)
    assert main(["warmup", "bogus", "--lexicon", str(golden_lexicon.path)]) == 2
    assert "unknown step(s) bogus" in capsys.readouterr().err


def test_a_chatty_child_does_not_block():
    """A child writing more than a pipe holds to stderr still finishes (stderr goes to a file)."""
    steps = [warmup.Step("chatty", "writes 1 MB to stderr", 0.1, None)]
    done = warmup.run_steps(steps, lambda s: [sys.executable, "-c", "import sys; sys.stderr.write('x' * 1_000_000)"],
                            poll=0.05)
    assert [s.name for s, _ in done] == ["chatty"]


def test_force_reaches_the_child():
    """`warmup aot --force` ran the child without --force, which then saw the module and did nothing."""
    aot = next(s for s in warmup.STEPS if s.name == "aot")
    assert warmup._child_argv(aot, None, force=True)[-1] == "--force"
    assert "--force" not in warmup._child_argv(aot, None)


def test_an_unwritable_cache_directory_is_reported_not_claimed_done(golden_lexicon, tmp_path, monkeypatch, capsys):
    """Attack 26 item 10: `warmup aot` with a cache it cannot write said "compiled ..." and exited 0. The
    directory here lies under a plain file (root ignores a read-only mode, ENOTDIR stops everyone)."""
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    cache = blocker / "cache"
    monkeypatch.setenv("GSE_AOT", "1")
    monkeypatch.setenv("GSE_CACHE_DIR", str(cache))
    monkeypatch.setenv("GSE_LANG", "en")
    rc = main(["warmup", "aot", "--lexicon", str(golden_lexicon.path)])
    err = capsys.readouterr()
    assert rc == 2, (err.out, err.err)
    assert "compiled in" not in err.out
    assert f"the cache directory {cache / 'aot'} cannot be written (Not a directory)" in err.err
    assert "GSE_CACHE_DIR" in err.err and "Traceback" not in err.err


def test_a_step_that_cannot_do_its_work_does_not_stop_the_others(tmp_path):
    """A read-only cache stops only the aot step: the later steps still compile, then its message is the error."""
    steps = [warmup.Step("a", "cannot write", 0.1, None), warmup.Step("b", "works", 0.1, None)]
    mark = tmp_path / "b-ran"
    code = {"a": f"import sys; print('error: not written into /x', file=sys.stderr); sys.exit({warmup.STEP_FAILED})",
            "b": f"open({str(mark)!r}, 'w').close()"}
    with pytest.raises(RuntimeError) as e:
        warmup.run_steps(steps, lambda s: [sys.executable, "-c", code[s.name]], poll=0.05)
    assert str(e.value) == "not written into /x" and mark.exists()


def test_a_step_child_stops_when_its_command_is_gone():
    """Attack 26d B6: a step's child kept compiling for minutes after its command was killed (TERM, KILL, a
    closed terminal). The child's entry point starts the orphan watch before any work: a real child whose
    parent is SIGKILLed exits. (Its lexicon load is replaced by a slow fake that says "ready" first: the
    watch is running by then.)"""
    import textwrap
    import time

    code = textwrap.dedent("""
        import subprocess, sys, time
        child = subprocess.Popen([sys.executable, "-c",
            "import sys, time, lexicon_tools.bundle as b; "
            "b.load_lexicon = lambda p: (print('ready', flush=True), time.sleep(300)); "
            "from engine.analysis import warmup; warmup.main(['movegen'])"],
            start_new_session=True)
        print(child.pid, flush=True)
        time.sleep(300)
    """)
    parent = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    child_pid = int(parent.stdout.readline())
    try:
        assert parent.stdout.readline().strip() == "ready"
        parent.kill()
        parent.wait()
        for _ in range(600):  # the watch polls every second; generous under load
            try:
                os.kill(child_pid, 0)
            except ProcessLookupError:
                return
            try:
                if Path(f"/proc/{child_pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z":
                    return  # gone, not yet reaped by init
            except (OSError, IndexError):
                return
            time.sleep(0.1)
        raise AssertionError("the step's child went on after its command was killed")
    finally:
        try:
            os.kill(child_pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
