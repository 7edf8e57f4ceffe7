"""The first run: compile every kernel the commands use, once, with a progress bar, outside any budget.

A fresh install (or a new version of the kernel sources) has no compiled code yet: Numba compiles
a kernel on its first call, which takes minutes of CPU for all of them (issue 27 measured 15
minutes of silence before a new user's first ``best``). Counted inside ``--time 10s`` that blew the
budget; and Numba compiles inside LLVM, where Python does not see Ctrl-C until the function is done.

So the compilation is split into :data:`STEPS`, groups of kernels each compiled by a tiny call of
the public API with the user's lexicon (so exactly the specialisations a real call needs, for the
lexicon's array types: a read-only graph from the file, the endgame's writable pruned graph, ...),
and every step runs in a **child process** (``python -m engine.analysis.warmup STEP``): Numba
writes what it compiled to its on-disk cache, where the commands find it. The parent shows one
progress bar over all steps (``tqdm``, on stderr), with an estimate that follows the machine:
the CPU seconds each step took on the reference machine (:data:`STEPS`), scaled by how this
machine did on the steps already done. Ctrl-C stops it at once: the parent kills the step's child
(Python in the child would not see the signal inside LLVM) and says how to go on; steps done stay
done.

Two ways in:

* ``python -m engine warmup`` (:func:`warm_up_all`): every step that is not done yet;
* :func:`warm_if_cold`: what a command calls before it starts its clock; it runs the steps the
  command needs that are not done, with the same bar, so a time limit never includes compiling.

A step is *done* when its stamp exists: a file ``engine/analysis/__pycache__/warmup.<step>.<digest>``
(beside Numba's cache, so deleting ``__pycache__`` forgets both), ``digest`` hashing every kernel
module's source, Numba's version and the lexicon's graph layout; and Numba's cache still holds the
step's kernel (:func:`lexicon_tools._numba_cache.is_cached`).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from lexicon_tools._numba_cache import is_cached, kernel_modules, sources_digest


@dataclass(frozen=True)
class Step:
    """One group of kernels compiled in one child process.

    Attributes:
        name: the step's name on the command line (``python -m engine.analysis.warmup NAME``).
        what: what it compiles, for the user.
        cpu_s: CPU seconds it took on the reference machine (2-core AMD EPYC, load 10-12, a clean clone,
            2026-12-03), the unit of the progress bar's estimate.
        probe: ``(module under engine, function)`` whose Numba cache must exist for the step to count
            as done, or ``None`` (a step whose result is a file of its own).
    """

    name: str
    what: str
    cpu_s: float
    probe: tuple[str, str] | None


STEPS: tuple[Step, ...] = (
    Step("movegen", "move generator (all moves, best move, equity)", 60.0, ("movegen._allmoves", "movegen_all")),
    Step("aot", "move generator compiled ahead of time (a fast `best`/`moves`)", 20.0, None),
    Step("game", "self-play game kernel", 65.0, ("game._kgame", "play_game")),
    Step("simulation", "simulation rollouts", 25.0, ("game._kgame", "sim_rollouts")),
    Step("endgame", "endgame solver (full and pruned lexicon)", 130.0, ("analysis._endgame", "negamax")),
    Step("inference", "rack inference", 10.0, ("analysis._inference", "best_values")),
)
"""Every step, in the order :func:`warm_up_all` runs them (the cheap, most used first)."""

COMMAND_STEPS = {
    "analyze": ("movegen", "game", "simulation", "endgame"),
    "practice": ("movegen", "game", "simulation", "endgame"),
    "simulate": ("movegen", "game", "simulation"),
    "endgame": ("movegen", "endgame"),
    "preendgame": ("movegen", "game", "endgame"),
    "web": ("movegen", "game", "simulation", "endgame"),
}
"""The steps each timed command needs before its clock starts."""


# ---------------------------------------------------------------------------
# stamps
# ---------------------------------------------------------------------------
def _stamp_dir() -> Path:
    return Path(__file__).resolve().parent / "__pycache__"


def _digest(lexicon) -> str:
    """16 hex digits over every kernel source, Numba's version and the lexicon's graph layout."""
    import importlib.metadata

    h = hashlib.sha256(sources_digest(kernel_modules()).encode())
    try:
        h.update(importlib.metadata.version("numba").encode())
    except importlib.metadata.PackageNotFoundError:
        pass
    g = lexicon.graph
    h.update(f"{g.dtype.str} {g.flags.writeable}".encode())
    return h.hexdigest()[:16]


def _stamp(step: Step, digest: str) -> Path:
    return _stamp_dir() / f"warmup.{step.name}.{digest}"


def is_done(step: Step, lexicon, digest: str | None = None) -> bool:
    """True when ``step`` ran for these sources and this lexicon layout and its kernels are still cached."""
    if step.name == "aot":
        from engine.movegen import _aot

        return not _aot.needs_build()
    if not _stamp(step, digest or _digest(lexicon)).exists():
        return False
    if step.probe is None:
        return True
    import importlib

    mod, fn = step.probe
    return is_cached(importlib.import_module(f"engine.{mod}").__file__, fn)


def _mark_done(step: Step, lexicon) -> None:
    d = _stamp_dir()
    try:
        d.mkdir(exist_ok=True)
        for old in d.glob(f"warmup.{step.name}.*"):
            old.unlink()
        _stamp(step, _digest(lexicon)).write_text("")
    except OSError:
        pass  # a read-only install: the steps run again next time (and find Numba's cache warm)


# ---------------------------------------------------------------------------
# the steps themselves (run in the child)
# ---------------------------------------------------------------------------
def _racks(a):
    import numpy as np

    vowel = next((a.code(ch) for ch in "EAIOU" if ch in a.letters), 1)
    cons = next((a.code(ch) for ch in "NRSTL" if ch in a.letters), 2)
    rack = np.zeros(a.size + 1, dtype=np.int32)
    rack[vowel] += 1
    other = np.zeros_like(rack)
    other[cons] += 1
    seven = np.zeros_like(rack)
    for c in np.nonzero(a.counts[1:])[0][:7] + 1:
        seven[c] += 1
    return vowel, rack, other, seven


def _placed(a, move) -> list[tuple[int, int, int, bool]]:
    """A move's new tiles as :meth:`Board.place` takes them (tile codes)."""
    return [(r, c, a.code(ch), bool(b)) for r, c, ch, b in move.tiles]


def _step_movegen(lexicon) -> None:
    from engine.game.equity import best_equity
    from engine.movegen.generator import CrossChecks, best_moves, generate_moves
    from engine.position.board import Board

    a = lexicon.alphabet
    _, rack, _, seven = _racks(a)
    board = Board(a)
    generate_moves(board, seven, lexicon)
    best_moves(board, seven, lexicon, 1)
    best_equity(board, seven, lexicon, bag=80, n=1)
    moves = generate_moves(board, seven, lexicon).sorted()
    if len(moves):
        placed = _placed(a, moves[0])
        board.place(placed)
        checks = CrossChecks(board, lexicon)
        checks.update(board, placed)
        generate_moves(board, rack, lexicon, checks)
        best_moves(board, seven, lexicon, 3)
        best_equity(board, seven, lexicon, bag=60, n=3)


class StepFailed(Exception):
    """A step could not do its work (the child prints the message and exits with :data:`STEP_FAILED`)."""


STEP_FAILED = 73
"""The child's exit code when a step failed with a message of its own (:class:`StepFailed`)."""


def _step_aot(lexicon, force: bool = False) -> None:
    """Build the move generator's ahead-of-time module (:func:`engine.movegen.generator.build_aot`).

    Raises:
        StepFailed: no intact module afterwards (``force``: none was written), with the reason: the cache
            directory cannot be written, another process is compiling it, or the compilation failed
            (remembered).
    """
    from engine.lang import tr
    from engine.movegen import _aot
    from engine.movegen.generator import build_aot
    from lexicon_tools import _aot as shared

    if not shared.enabled():
        return
    if build_aot(lexicon, force=force) or not force and shared.problem(_aot._paths(_aot.key())[1]) is None:
        return  # written, or (without --force) another process wrote it meanwhile
    d = shared.aot_dir()
    why = shared.unwritable(d)
    if why is not None:
        raise StepFailed(tr("the ahead-of-time module was not written: the cache directory {dir} cannot be written "
                            "({why}); set GSE_CACHE_DIR to a writable directory, or GSE_AOT=0 to go without it",
                            dir=d, why=why))
    if _aot.building():
        raise StepFailed(tr("the ahead-of-time module was not written: another process is compiling it right now "
                            "(lock file in {dir}); run `python -m engine warmup aot` again when it is done", dir=d))
    failed = _aot._paths(_aot.key())[3]
    if failed.exists():
        raise StepFailed(tr("the ahead-of-time compilation failed ({why}); the commands use the JIT kernels "
                            "(remove {failed} or pass --force to try again)",
                            why=failed.read_text(encoding="utf-8", errors="replace").strip(), failed=failed))
    raise StepFailed(tr("the ahead-of-time module was not written into {dir}", dir=d))


def _step_game(lexicon) -> None:
    from engine.game.selfplay import play_equity_game, play_game
    from engine.leaves.table import default_table

    play_game(lexicon, 1, 2)
    t = default_table()
    play_equity_game(lexicon, 1, (t, t))


def _step_simulation(lexicon) -> None:
    from engine.analysis.simulation import EquityPlayer, simulate
    from engine.position.board import Board
    from engine.position.cgp import Position

    _, _, _, seven = _racks(lexicon.alphabet)
    pos = Position(Board(lexicon.alphabet), seven)
    for player in (None, EquityPlayer()):
        kw = {} if player is None else {"player": player}
        simulate(pos, lexicon, n_candidates=2, plies=2, iterations=2, seed=0, workers=1, backend="local",
                 progress=False, stop_when_clearly_ahead=False, **kw)


def _step_endgame(lexicon) -> None:
    from engine.analysis import endgame
    from engine.analysis.preendgame import greedy_playout
    from engine.position.board import Board

    _, rack, other, _ = _racks(lexicon.alphabet)
    greedy_playout(Board(lexicon.alphabet), rack, other, lexicon)
    endgame.warm_up(lexicon)  # the solver's own: 2-ply solves on the full and the pruned lexicon, both clocks


def _step_inference(lexicon) -> None:
    from engine.analysis.inference import infer
    from engine.movegen.generator import generate_moves
    from engine.position.board import Board
    from engine.position.cgp import Position

    a = lexicon.alphabet
    _, _, _, seven = _racks(a)
    board = Board(a)
    moves = generate_moves(board, seven, lexicon).sorted()
    if not len(moves):
        return
    m = moves[0]
    placed = _placed(a, m)
    board.place(placed)
    left = seven.copy()
    for _, _, code, blank in placed:
        left[0 if blank else code] -= 1
    infer(Position(board, left), m.notation, lexicon, max_racks=50, samples=50)


_RUN: dict[str, Callable] = {"movegen": _step_movegen, "aot": _step_aot, "game": _step_game,
                             "simulation": _step_simulation, "endgame": _step_endgame, "inference": _step_inference}


def warm_in_process(lexicon, names: Sequence[str]) -> None:
    """Run the steps ``names`` in this process (compiling or loading from Numba's cache), e.g. in a
    worker before its first request; no child process, no stamps, no progress bar."""
    for name in names:
        _RUN[name](lexicon)


# ---------------------------------------------------------------------------
# the parent: children, progress bar, Ctrl-C
# ---------------------------------------------------------------------------
def _child_argv(step: Step, lexicon_path: str | None, force: bool = False) -> list[str]:
    argv = [sys.executable, "-m", "engine.analysis.warmup", step.name]
    return argv + (["--lexicon", lexicon_path] if lexicon_path else []) + (["--force"] if force else [])


class WarmupInterrupted(KeyboardInterrupt):
    """Ctrl-C during the warm-up: the running step's child was killed; the steps done stay done."""


def run_steps(steps: Sequence[Step], argv_of: Callable[[Step], list[str]], *, out=None,
              poll: float = 0.2) -> list[tuple[Step, float]]:
    """Run each step's child process in turn under one progress bar; returns ``[(step, CPU seconds)]``.

    Args:
        steps: what to run.
        argv_of: the command line of a step's child.
        out: where the bar and the notes go (default ``sys.stderr``); a non-terminal gets one line per step.
        poll: seconds between looks at the child.

    Raises:
        WarmupInterrupted: Ctrl-C; the child was killed (its process group) before this returns.
        RuntimeError: a child failed (its exit code and last lines of output); or, after the other steps
            ran, the messages of the steps that could not do their work (exit :data:`STEP_FAILED`, e.g. the
            ahead-of-time module with a read-only cache directory).
    """
    from tqdm import tqdm

    from engine.lang import tr

    out = out or sys.stderr
    total = sum(s.cpu_s for s in steps)
    done_ref = 0.0
    seen_ref = seen_cpu = 0.0  # steps that really compiled (not found in the cache): the machine's pace
    results = []
    skipped: list[str] = []  # messages of steps that could not do their work (StepFailed in the child)
    import shutil

    size = shutil.get_terminal_size((100, 20))  # 0 x 0 on a pseudo-terminal without a size: tqdm would hide the bar
    bar = tqdm(total=round(total), unit="s", desc="compiling", file=out, leave=True, ncols=min(size.columns or 100, 120),
               nrows=max(size.lines, 5),
               bar_format="{desc}{percentage:3.0f}%|{bar}|", disable=not getattr(out, "isatty", bool)())
    try:
        for i, step in enumerate(steps):
            # this machine against the reference, from the steps that really compiled; never below 0.75 (a
            # step found partly in the cache looks fast, and an estimate that runs out early is worse)
            scale = min(4.0, max(0.75, seen_cpu / seen_ref)) if seen_ref else 1.0
            left = scale * (total - done_ref)
            bar.set_description(tr("compiling {i}/{n} {step}, about {left} of CPU left ", i=i + 1, n=len(steps),
                                   step=step.name, left=_mmss(left)))
            if bar.disable:
                print(tr("compiling {i}/{n}: {what} (about {left} of CPU left in all)", i=i + 1, n=len(steps),
                         what=tr(step.what), left=_mmss(left)), file=out, flush=True)
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            proc = None
            errf = tempfile.TemporaryFile()  # not a pipe: a chatty child must never block on a full one
            try:
                from engine.interrupt import ctrl_c_pressed
                from engine.lang import lang

                if ctrl_c_pressed():  # a Ctrl-C a compile swallowed ("Exception ignored"): stop all the same
                    raise KeyboardInterrupt

                proc = subprocess.Popen(argv_of(step), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=errf, start_new_session=True,
                                        env={**os.environ, "GSE_LANG": lang()})  # its message in the run's language
                t0 = time.monotonic()
                while proc.poll() is None:
                    time.sleep(poll)
                    if ctrl_c_pressed():
                        raise KeyboardInterrupt
                    # the bar moves with wall time inside the step, never past the step's share
                    guess = min(step.cpu_s * 0.95, (time.monotonic() - t0) / max(scale, 0.05))
                    bar.n = round(done_ref + guess)
                    bar.refresh()
            except KeyboardInterrupt:
                if proc is not None:
                    _kill(proc)
                errf.close()
                raise WarmupInterrupted(step.name) from None
            errf.seek(0)
            err = errf.read().decode("utf-8", "replace")
            errf.close()
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            if proc.returncode == STEP_FAILED:  # the step's own message (the child's last line); the others go on
                skipped.append((err.strip().splitlines() or [""])[-1].removeprefix("error: ").removeprefix("Fehler: "))
                done_ref += step.cpu_s
                continue
            if proc.returncode != 0:
                tail = " | ".join(err.strip().splitlines()[-3:])
                raise RuntimeError(f"compiling step {step.name!r} failed (exit {proc.returncode}): {tail}")
            results.append((step, cpu))
            done_ref += step.cpu_s
            if cpu >= 0.25 * step.cpu_s:
                seen_ref += step.cpu_s
                seen_cpu += cpu
            bar.n = round(done_ref)
            bar.refresh()
    finally:
        bar.close()
    if skipped:
        raise RuntimeError("; ".join(skipped))
    return results


def _kill(proc: subprocess.Popen) -> None:
    """Kill a step's child and its process group (it may have started workers), and reap it."""
    import signal

    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()
    proc.wait()


def _mmss(seconds: float) -> str:
    s = max(0, round(seconds))
    return f"{s // 60} min {s % 60:02d} s" if s >= 60 else f"{s} s"


def pending(lexicon, names: Sequence[str] | None = None) -> list[Step]:
    """The steps of ``names`` (default all) that are not done for ``lexicon``."""
    digest = _digest(lexicon)
    want = set(names) if names is not None else None
    return [s for s in STEPS if (want is None or s.name in want) and not is_done(s, lexicon, digest)]


def warm_up_all(lexicon, lexicon_path: str | None, *, names: Sequence[str] | None = None, force: bool = False,
                out=None) -> list[tuple[Step, float]]:
    """Run the steps of ``names`` (default all) that are not done (all of them with ``force``).

    Args:
        lexicon: the loaded lexicon the commands will use (its layout decides the specialisations).
        lexicon_path: its path for the children (``None``: the default lexicon).
        out: where the bar and notes go (default ``sys.stderr``).

    Returns:
        ``[(step, CPU seconds)]`` of the steps run.

    Raises:
        WarmupInterrupted, RuntimeError: as :func:`run_steps`.
    """
    steps = [s for s in STEPS if names is None or s.name in names] if force else pending(lexicon, names)
    if not steps:
        return []
    return run_steps(steps, lambda s: _child_argv(s, lexicon_path, force), out=out)


def warm_if_cold(lexicon, note: Callable[[str], None], command: str = "analyze",
                 lexicon_path: str | None = None) -> bool:
    """Compile what ``command`` needs (:data:`COMMAND_STEPS`) if it is not done, before its clock starts.

    Args:
        lexicon: the lexicon the real search will use.
        note: prints one line for the user (e.g. ``note: ...`` on stderr).
        command: a key of :data:`COMMAND_STEPS`.
        lexicon_path: the lexicon's path for the child processes (default: ``lexicon.path``).

    Returns:
        True if it compiled (the caller then restarts its clock), False if everything was done.

    Raises:
        WarmupInterrupted: Ctrl-C while compiling.
    """
    steps = pending(lexicon, COMMAND_STEPS.get(command, COMMAND_STEPS["analyze"]))
    if not steps:
        return False
    from engine.lang import tr

    note(tr("first run: compiling the kernels this command needs, once ({n} step(s); they are cached for later runs, "
            "the time limit starts after this; `python -m engine warmup` does all of them ahead)", n=len(steps)))
    path = lexicon_path if lexicon_path is not None else _path_of(lexicon)
    run_steps(steps, lambda s: _child_argv(s, path))
    return True


def _path_of(lexicon) -> str | None:
    """The path a child loads the lexicon from; ``None`` for the default lexicon."""
    from lexicon_tools.bundle import cache_dir

    p = getattr(lexicon, "path", None)
    if p is None:
        return None
    p = Path(p)
    if p.parent == cache_dir() and p.name.startswith("default-"):
        return None
    return str(p)


def uncached(names: Sequence[str]) -> list[Step]:
    """The steps of ``names`` whose probe kernel has no compiled code in Numba's cache (without the stamps of
    :func:`pending`: a process that warms in itself, e.g. ``engine web``, asks only whether it will compile)."""
    import importlib

    return [s for s in STEPS if s.name in names and s.probe is not None
            and not is_cached(importlib.import_module(f"engine.{s.probe[0]}").__file__, s.probe[1])]


def cold() -> bool:
    """True if a search kernel has no compiled code in Numba's cache (kept for callers that only ask)."""
    import importlib

    return any(not is_cached(importlib.import_module(f"engine.{m}").__file__, f)
               for m, f in (s.probe for s in STEPS if s.probe))


def main(argv: Sequence[str] | None = None) -> int:
    """The child's entry: run one step (``STEP [--lexicon PATH]``), then stamp it done.

    The child ignores Ctrl-C (the command kills it) and exits when the command that started it is
    gone (:func:`engine.interrupt.worker_process`): a compile never goes on alone for minutes."""
    ap = argparse.ArgumentParser(prog="python -m engine.analysis.warmup")
    ap.add_argument("step", choices=[s.name for s in STEPS])
    ap.add_argument("--lexicon")
    ap.add_argument("--force", action="store_true", help="build again what exists (the aot step)")
    args = ap.parse_args(argv)
    from engine.interrupt import worker_process

    worker_process()  # the command that started this step may be killed (TERM, KILL, a closed terminal): then stop too
    from lexicon_tools.bundle import load_lexicon

    lexicon = load_lexicon(args.lexicon)
    step = next(s for s in STEPS if s.name == args.step)
    try:
        if step.name == "aot":
            _step_aot(lexicon, force=args.force)
        else:
            _RUN[step.name](lexicon)
    except StepFailed as exc:
        from engine.lang import tr

        print(tr("error: {exc}", exc=exc), file=sys.stderr)
        return STEP_FAILED
    _mark_done(step, lexicon)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
