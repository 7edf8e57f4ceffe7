"""Side-by-side benchmark: this engine beside wolges and MAGPIE, calls strictly alternating.

    make bench-peers                       # env: WOLGES_BIN, MAGPIE_BIN, MAGPIE_DATA
    .venv/bin/python benchmarks/bench_peers.py [--reps 7] [--games 100] [--out-dir DIR]

What is measured (benchmarks/README.md says how each peer is built and driven):

* **all moves** on the 248 positions of ``benchmarks/positions/positions.tsv``:
  ours = :func:`engine.movegen.generator.generate_moves` in-process (cross-checks computed
  in the call) and, beside it, the bare kernel under it (``movegen_all`` on prepared
  arguments: what the call path adds is ``ours all / ours kernel``); wolges =
  ``gen_moves_raw_all_unsorted`` (cross-sets recomputed in every call); MAGPIE =
  ``generate_moves`` with ``MOVE_RECORD_ALL`` plus its cross-sets and anchors
  (``game_gen_all_cross_sets`` + ``board_update_all_anchors``), recomputed before every call.
* **best move**: ours = :func:`engine.movegen.generator.best_moves` ``n=1`` (by score) and
  :func:`engine.game.equity.best_equity` ``n=1`` (by equity, the packaged leave table);
  MAGPIE = ``generate_moves`` with ``MOVE_RECORD_BEST`` (KWG mode, no word maps; its
  shadow-bounded best move), by equity (same leave table as a KLV2) and by score, with its
  cross-sets and anchors; wolges = ``gen_moves_unfiltered`` with ``max_gen`` 1 (equity).
* **self-play** games per CPU second on one core, score and equity players: ours =
  :func:`engine.game.selfplay.play_game` / :func:`engine.game.selfplay.play_equity_game`;
  MAGPIE = ``autoplay games N``.
* **simulation** iterations per CPU second on one core (one iteration = one rollout of one
  candidate, 2 plies, 5 candidates, no early stop): ours =
  :func:`engine.analysis.simulation.simulate` (in-process backend); MAGPIE = ``gsimulate``.

**Order.** Per position and repetition the calls strictly alternate between ours and a
peer (ours, wolges, ours, MAGPIE, ours, MAGPIE, ...), the sequence reversed on every other
repetition, so each call finds the caches as the other engine left them and a load change
hits both alike. Beside it, for all moves, the **back-to-back** order is measured too (each
engine's repetitions in a row, its caches warm), and both ratios are reported: a gap
between them is the order effect, not a speed difference.

**Time** is CPU time of the calling thread per call (``CLOCK_THREAD_CPUTIME_ID``: ours
:func:`time.thread_time_ns` around the call; the peers the same clock inside their own
process, so pipe traffic is not timed); self-play and simulation use each process's CPU
time. A position's figure is the median of its repetitions; a class's ratio is the median
of the per-position ratios; "ours faster / peer faster" counts positions.

**Empty boards**: wolges and MAGPIE list only the across plays of an empty board; ours
walks the across plays too and adds their transposed copies (the down plays) without a
second walk, so the walks compared are the same; the move counts are checked as ours = 2 ×
theirs there (equal elsewhere).

Peers are optional: a peer whose variable is unset or whose binary is missing is
skipped (its columns stay empty). The peer binaries are small harnesses built
against each peer's library (their source stays outside this repository; the
README gives the protocol):

* ``WOLGES_BIN KWG KLV serve`` — stdin ``all|best<TAB>REPS<TAB>CGP``, answers
  ``ok<TAB>N<TAB>cpu_ns,...<TAB>wall_ns,...``;
* ``MAGPIE_BIN DATA_PATH "set ..."`` — prints ``ready``, then stdin
  ``all|best|bests<TAB>REPS<TAB>CGP`` (answers ``ok<TAB>N<TAB>gen_cpu,...<TAB>xs_cpu,...<TAB>gen_wall,...
  <TAB>xs_wall,...``; N = placements for ``all``, the top move's score for ``best``/``bests``)
  and ``cmd<TAB>0<TAB>MAGPIE COMMAND`` (answers ``ok<TAB>process_cpu_ns<TAB>iterations<TAB>wall_ns``).

Outputs (``--out-dir``, default ``benchmarks/results``): ``peers-positions.tsv``
(per position), ``peers-summary.json``; the Markdown tables go to stdout.
"""

from __future__ import annotations

import argparse
import json
import lzma
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402

from engine.position.cgp import parse_cgp  # noqa: E402
from engine.game.equity import best_equity  # noqa: E402
from engine.game.selfplay import play_equity_game
from engine.leaves.table import default_table, klv_bytes  # noqa: E402
from engine.movegen.generator import best_moves, generate_moves  # noqa: E402
from engine.game.selfplay import game_seed, play_game  # noqa: E402
from engine.analysis.simulation import EquityPlayer, LeavePlayer, simulate  # noqa: E402
from lexicon_tools.bundle import Lexicon, build_bundle, load_lexicon  # noqa: E402

# the nine simulation positions of benchmarks/test_bench_simulation.py (golden list)
from test_bench_simulation import POSITIONS as SIM_POSITIONS  # noqa: E402

PEERS = ("wolges", "magpie")

# ---------------------------------------------------------------------------
# positions and lexicons
# ---------------------------------------------------------------------------
def load_positions(path: Path) -> list[tuple[str, str, str]]:
    """``[(id, class, cgp)]``: class ``golden`` for ids ``g_*``, else the third ``_`` field."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        pid, cgp = line.split("\t")
        cls = "golden" if pid.startswith("g_") else pid.split("_")[2]
        out.append((pid, cls, cgp))
    return out


def golden_lexicon(path: Path) -> Lexicon:
    """The golden word list's bundle (built once at ``path``)."""
    if path.exists():
        return Lexicon.load(path)
    with lzma.open(ROOT / "tests" / "data" / "golden_words.txt.xz", "rt", encoding="utf-8") as f:
        words = f.read().split()
    return build_bundle(words, path)


def bag_of(pos) -> int:
    """Tiles in the bag: the CGP ``bag`` opcode, else 102 − board − rack − 7."""
    if "bag" in pos.opcodes:
        return int(pos.opcodes["bag"])
    return max(0, 102 - int(np.count_nonzero(pos.board.tiles)) - int(pos.rack.sum()) - 7)


# ---------------------------------------------------------------------------
# our side (in-process)
# ---------------------------------------------------------------------------
class Ours:
    """Times our public calls in-process; each call returns ``(thread CPU ns, result)``."""

    def __init__(self, table):
        self.table = table
        self._prepared = None

    @staticmethod
    def all(pos, lex) -> tuple[int, int]:
        t0 = time.thread_time_ns()
        ml = generate_moves(pos.board, pos.rack, lex)
        return time.thread_time_ns() - t0, len(ml)

    def prepare_kernel(self, pos, lex) -> None:
        """The bare all-moves kernel's arguments for ``pos``, as :func:`generate_moves` makes them."""
        from engine.movegen import _dispatch as K
        from engine.movegen.generator import _WS, _check_inputs, _layout

        k, rack = _check_inputs(pos.board, pos.rack, lex)
        lm, wm = _layout(pos.board)
        out = np.empty((max(4096, 2 * len(generate_moves(pos.board, pos.rack, lex))), K.OUT_WIDTH), dtype=np.int32)
        self._prepared = (K.movegen_all, (lex.graph, pos.board.tiles, pos.board.blanks, lm, wm, k.vals, k.consts,
                                          rack, _WS.cs, _WS.xs, _WS.hx, False, out))

    def kernel(self, pos, lex) -> tuple[int, int]:
        fn, args = self._prepared
        t0 = time.thread_time_ns()
        n = fn(*args)
        return time.thread_time_ns() - t0, n

    @staticmethod
    def best_score(pos, lex) -> tuple[int, int]:
        t0 = time.thread_time_ns()
        b = best_moves(pos.board, pos.rack, lex, 1)
        return time.thread_time_ns() - t0, (b[0].score if b else 0)

    def best_equity(self, pos, lex, bag) -> tuple[int, int]:
        t0 = time.thread_time_ns()
        b = best_equity(pos.board, pos.rack, lex, bag=bag, n=1, table=self.table)
        return time.thread_time_ns() - t0, (b[0].score if b else 0)


# ---------------------------------------------------------------------------
# peers (long-running harness processes)
# ---------------------------------------------------------------------------
class PositionRefused(RuntimeError):
    """The peer answered ``err`` for this position (e.g. MAGPIE rejects a board with more
    tiles of a letter than the German set has); the run goes on without that peer there."""


class Harness:
    """A peer harness process speaking the line protocol in the module docstring."""

    def __init__(self, name: str, argv: list[str], expect_ready: bool):
        self.name = name
        self.argv = argv
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, encoding="utf-8", bufsize=1)
        if expect_ready:
            line = self.proc.stdout.readline().strip()
            if line != "ready":
                err = self.proc.stderr.read()[-500:] if self.proc.poll() is not None else ""
                raise RuntimeError(f"{name}: harness did not start ({line!r}) {err}")

    def ask(self, op: str, reps: int, arg: str) -> list[str]:
        self.proc.stdin.write(f"{op}\t{reps}\t{arg}\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"{self.name}: harness exited ({self.proc.poll()}): {self.proc.stderr.read()[-500:]}")
        f = line.rstrip("\n").split("\t")
        if f[0] == "err":
            raise PositionRefused(f"{self.name}: {' '.join(f[1:])[:120]}")
        if f[0] != "ok":
            raise RuntimeError(f"{self.name}: {line.strip()[:200]} for {op} {arg[:60]}")
        return f[1:]

    def close(self) -> None:
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


def _bin(env: str, opt: str | None) -> str | None:
    p = opt or os.environ.get(env)
    if not p:
        print(f"# {env} not set: skipping that peer", file=sys.stderr)
        return None
    if not (Path(p).is_file() and os.access(p, os.X_OK)):
        print(f"# {env}={p} is not an executable file: skipping that peer", file=sys.stderr)
        return None
    return p


def magpie_data_dir(tmp: Path, magpie_data: Path, kwgs: dict[str, Path], klvs: dict[str, Path]) -> Path:
    """A MAGPIE data path with MAGPIE's German letter distribution, layouts and win
    percentages (from ``magpie_data``) and our KWGs/KLV2s as ``lexica/NAME.kwg``."""
    d = tmp / "magpie-data"
    (d / "lexica").mkdir(parents=True, exist_ok=True)
    for sub in ("layouts", "letterdistributions", "strategy"):
        src = magpie_data / sub
        if not src.is_dir():
            raise RuntimeError(f"MAGPIE_DATA={magpie_data} has no {sub}/ (MAGPIE-DATA's data/ folder is expected)")
        if not (d / sub).exists():
            (d / sub).symlink_to(src)
    for name, p in {**kwgs, **klvs}.items():
        link = d / "lexica" / name
        if link.exists() or link.is_symlink():
            link.unlink()
        link.symlink_to(p)
    return d


# ---------------------------------------------------------------------------
# statistics and tables
# ---------------------------------------------------------------------------
def med(v):
    v = [x for x in v if x is not None]
    return statistics.median(v) if v else None


def ratio(a, b):
    return None if a is None or b is None or b == 0 else a / b


def fmt(v, nd=3):
    return "" if v is None else f"{v:.{nd}f}"


MOVEGEN_COLS = [
    # per-position medians of thread CPU time, ms (alternating order unless "b2b")
    ("ours_all", "ours all"),
    ("ours_kernel", "ours kernel"),
    ("wolges_all", "wolges all"),
    ("magpie_all", "MAGPIE all (xs+gen)"),
    ("magpie_gen", "MAGPIE gen only"),
    ("ours_best", "ours best (score)"),
    ("ours_besteq", "ours best (equity)"),
    ("wolges_best", "wolges best (equity)"),
    ("magpie_best", "MAGPIE best (equity)"),
    ("magpie_bests", "MAGPIE best (score)"),
    ("b2b_ours_all", "ours all, back to back"),
    ("b2b_wolges_all", "wolges all, back to back"),
    ("b2b_magpie_all", "MAGPIE all, back to back"),
]


def _table(rows, cols, ratios, extra) -> str:
    classes = sorted({r["class"] for r in rows}) + ["all"]
    head = ["class", "n"] + [f"{h} (ms)" for k, h in MOVEGEN_COLS if k in cols] + [h for _, _, h in ratios] \
        + [h for h, _ in extra]
    out = ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    for c in classes:
        rs = [r for r in rows if c == "all" or r["class"] == c]
        cells = [f"**{c}**" if c == "all" else c, str(len(rs))]
        cells += [fmt(med([r.get(k) for r in rs])) for k, _ in MOVEGEN_COLS if k in cols]
        cells += [fmt(med([ratio(r.get(a), r.get(b)) for r in rs]), 2) for a, b, _ in ratios]
        cells += [f(rs) for _, f in extra]
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


def _count(a, b, limit):
    """``"k of n"``: positions where ``a`` is above ``limit`` × ``b`` (both measured)."""
    def f(rs):
        have = [r for r in rs if r.get(a) is not None and r.get(b) is not None]
        n = sum(1 for r in have if r[a] > limit * r[b])
        return f"{n} of {len(have)}" if have else ""
    return f


def _wins(a, b):
    """``"x / y"``: positions where ``a`` took less time than ``b`` / more (ties in neither)."""
    def f(rs):
        have = [r for r in rs if r.get(a) is not None and r.get(b) is not None]
        if not have:
            return ""
        return f"{sum(1 for r in have if r[a] < r[b])} / {sum(1 for r in have if r[a] > r[b])}"
    return f


def _sum_ratio(a, b):
    def f(rs):
        have = [r for r in rs if r.get(a) is not None and r.get(b) is not None]
        return fmt(ratio(sum(r[a] for r in have), sum(r[b] for r in have)), 2) if have else ""
    return f


def class_tables(rows: list[dict]) -> str:
    """Three Markdown tables by class: all moves, best move, and the order effect. Times are
    medians over the class of the per-position medians; ratios are medians of the per-position
    ratios; "ours faster / peer faster" counts positions."""
    all_t = _table(rows, {"ours_all", "ours_kernel", "wolges_all", "magpie_all", "magpie_gen"},
                   [("ours_all", "wolges_all", "ours / wolges"), ("ours_kernel", "wolges_all", "kernel / wolges"),
                    ("ours_all", "ours_kernel", "ours call / its kernel"),
                    ("ours_all", "magpie_all", "ours / MAGPIE")],
                   [("sum ours / sum wolges", _sum_ratio("ours_all", "wolges_all")),
                    ("ours faster / wolges faster", _wins("ours_all", "wolges_all")),
                    ("ours faster / MAGPIE faster", _wins("ours_all", "magpie_all"))])
    best_t = _table(rows, {"ours_best", "ours_besteq", "wolges_best", "magpie_best", "magpie_bests"},
                    [("ours_best", "ours_all", "best score / ours all"),
                     ("ours_besteq", "ours_all", "best equity / ours all"),
                     ("ours_besteq", "magpie_best", "best equity / MAGPIE best equity"),
                     ("ours_best", "magpie_bests", "best score / MAGPIE best score"),
                     ("ours_besteq", "wolges_best", "best equity / wolges best"),
                     ("ours_besteq", "wolges_all", "best equity / wolges all")],
                    [("best equity: ours faster / MAGPIE faster", _wins("ours_besteq", "magpie_best")),
                     ("best score: ours faster / MAGPIE faster", _wins("ours_best", "magpie_bests"))])
    order_t = _table(rows, {"ours_all", "wolges_all", "b2b_ours_all", "b2b_wolges_all"},
                     [("ours_all", "wolges_all", "ours / wolges, alternating"),
                      ("b2b_ours_all", "b2b_wolges_all", "ours / wolges, back to back"),
                      ("ours_all", "magpie_all", "ours / MAGPIE, alternating"),
                      ("b2b_ours_all", "b2b_magpie_all", "ours / MAGPIE, back to back")],
                     [("ours faster / wolges faster, back to back", _wins("b2b_ours_all", "b2b_wolges_all"))])
    return ("### All moves (alternating)\n\n" + all_t + "\n\n### Best move (alternating)\n\n" + best_t
            + "\n\n### All moves: alternating against back-to-back order\n\n" + order_t)


def read_rows(path: Path) -> list[dict]:
    """Rows of a ``peers-positions.tsv`` written by this script."""
    lines = path.read_text(encoding="utf-8").splitlines()
    head = lines[0].split("\t")
    rows = []
    for line in lines[1:]:
        r = {}
        for k, v in zip(head, line.split("\t")):
            key = k[:-3] if k.endswith("_ms") else k
            if v == "":
                r[key] = None
            elif k.endswith("_ms"):
                r[key] = float(v)
            elif k.startswith("moves"):
                r[key] = int(v)
            else:
                r[key] = v
        rows.append(r)
    return rows


def targets(rows: list[dict], summary: dict) -> list[tuple[str, str, str]]:
    """Issue 27's targets with the measured figure: ``[(target, measured, met)]`` (medians of the
    per-position ratios over all positions that have both figures)."""
    def m(a, b):
        return med([ratio(r.get(a), r.get(b)) for r in rows])

    out = []
    for what, a, b, limit in (("all moves: public call ≤ 1.10 × its kernel", "ours_all", "ours_kernel", 1.10),
                              ("best by equity ≤ 0.5 × our all moves", "ours_besteq", "ours_all", 0.5),
                              ("best by score ≤ 0.35 × our all moves", "ours_best", "ours_all", 0.35),
                              ("best by equity ≤ 0.7 × MAGPIE's best move", "ours_besteq", "magpie_best", 0.7)):
        v = m(a, b)
        out.append((what, fmt(v, 2), "" if v is None else ("yes" if v <= limit else "no")))
    for key, what in (("selfplay_games_per_s", "self-play"), ("sim_iterations_per_s", "simulation")):
        if key in summary:
            s = summary[key]
            v = ratio(s.get("ours_equity"), s.get("magpie_equity"))
            out.append((f"{what}, equity players, ≥ 1.2 × MAGPIE per CPU second", fmt(v, 2),
                        "" if v is None else ("yes" if v >= 1.2 else "no")))
    return out


def print_report(summary: dict, rows: list[dict]) -> None:
    print(f"# {summary['date']}, load {summary['load_before']} -> {summary['load_after']}, reps {summary['reps']}")
    if rows:
        print("\n## Move generation (ms of thread CPU: medians over the class of per-position medians; "
              "ratios: medians of per-position ratios)\n")
        print(class_tables(rows))
    for key, unit in (("selfplay_games_per_s", "games per CPU second"),
                      ("sim_iterations_per_s", "iterations per CPU second")):
        if key in summary:
            s = summary[key]
            print(f"\n## {key} ({unit}, one core, median of {s['rounds']} rounds)\n")
            print("| players | ours | MAGPIE | ours / MAGPIE |\n|---|---:|---:|---:|")
            for kind in ("score", "equity"):
                o, m = s[f"ours_{kind}"], s[f"magpie_{kind}"]
                print(f"| {kind} | {fmt(o, 0)} | {fmt(m, 0)} | {fmt(ratio(o, m), 2)} |")
    t = targets(rows, summary)
    if t:
        print("\n## Targets of issue 27\n\n| target | measured (median ratio) | met? |\n|---|---:|---|")
        for what, v, ok in t:
            print(f"| {what} | {v} | {ok} |")


# ---------------------------------------------------------------------------
# the run
# ---------------------------------------------------------------------------
def _schedule(have_w: bool, have_m: bool) -> list[tuple[str, str]]:
    """One repetition's calls, ``(engine, column)``: ours and a peer strictly alternating.

    Our four calls and the peers' calls are paired in turn; the shorter list is cycled (so
    with one peer some of its calls repeat, with both some of ours), and the caller reverses
    the sequence on every other repetition (still alternating)."""
    ours = [("ours", "ours_all"), ("ours", "ours_kernel"), ("ours", "ours_best"), ("ours", "ours_besteq")]
    peers = [(e, k) for e, k in (("wolges", "wolges_all"), ("magpie", "magpie_all"), ("magpie", "magpie_bests"),
                                 ("magpie", "magpie_best"), ("wolges", "wolges_best"))
             if (e == "wolges" and have_w) or (e == "magpie" and have_m)]
    if not peers:
        return ours
    seq = []
    for i in range(max(len(ours), len(peers))):
        seq += [ours[i % len(ours)], peers[i % len(peers)]]
    return seq


def run_movegen(positions, lexes, ours, wolges, magpie, reps, log, back_to_back=True):
    """Per-position medians (ms of thread CPU) of every column of :data:`MOVEGEN_COLS`."""
    rows = []
    for i, (pid, cls, cgp) in enumerate(positions):
        pos = parse_cgp(cgp, allow_impossible=True)  # the golden set holds the composed p_ref3
        lk = "golden" if cls == "golden" else "default"
        lex = lexes[lk]
        bag = bag_of(pos)
        t = {k: [] for k, _ in MOVEGEN_COLS}
        counts = {}
        # warm-up of every call on this position, untimed
        counts["ours"] = ours.all(pos, lex)[1]
        ours.prepare_kernel(pos, lex)
        ours.kernel(pos, lex)
        ours.best_score(pos, lex)
        ours.best_equity(pos, lex, bag)
        use_w, use_m, refused = bool(wolges), bool(magpie), []
        try:
            if use_w:
                counts["wolges"] = int(wolges[lk].ask("all", 1, cgp)[0])
                wolges[lk].ask("best", 1, cgp)
        except PositionRefused as exc:
            use_w = False
            refused.append(str(exc))
        try:
            if use_m:
                counts["magpie"] = int(magpie[lk].ask("all", 1, cgp)[0])
                magpie[lk].ask("best", 1, cgp)
                magpie[lk].ask("bests", 1, cgp)
        except PositionRefused as exc:
            use_m = False
            refused.append(str(exc))
        for msg in refused:
            print(f"# {pid}: refused by {msg}", file=sys.stderr, flush=True)
        empty = not pos.board.tiles.any()
        for peer, n in ((p, counts.get(p)) for p in PEERS):
            if n is not None and counts["ours"] != (2 * n if empty else n):
                refused.append(f"move count: ours {counts['ours']}, {peer} {n}{' (empty board)' if empty else ''}")
                print(f"# {pid}: {refused[-1]}", file=sys.stderr, flush=True)
        seq = _schedule(use_w, use_m)
        for r in range(reps):
            for e, key in (seq if r % 2 == 0 else seq[::-1]):
                if e == "ours":
                    if key == "ours_all":
                        t[key].append(ours.all(pos, lex)[0])
                    elif key == "ours_kernel":
                        t[key].append(ours.kernel(pos, lex)[0])
                    elif key == "ours_best":
                        t[key].append(ours.best_score(pos, lex)[0])
                    else:
                        t[key].append(ours.best_equity(pos, lex, bag)[0])
                elif e == "wolges":
                    t[key].append(int(wolges[lk].ask(key.split("_")[1], 1, cgp)[1]))
                else:
                    op = {"magpie_all": "all", "magpie_best": "best", "magpie_bests": "bests"}[key]
                    f = magpie[lk].ask(op, 1, cgp)
                    g, x = int(f[1]), int(f[2])
                    t[key].append(g + x)  # MAGPIE's search + its cross-sets and anchors
                    if key == "magpie_all":
                        t["magpie_gen"].append(g)
        if back_to_back:
            # the order that favours whoever runs: every engine's repetitions in a row
            t["b2b_ours_all"] = [ours.all(pos, lex)[0] for _ in range(reps)]
            if use_w:
                t["b2b_wolges_all"] = [int(x) for x in wolges[lk].ask("all", reps, cgp)[1].split(",")]
            if use_m:
                f = magpie[lk].ask("all", reps, cgp)
                t["b2b_magpie_all"] = [int(g) + int(x) for g, x in zip(f[1].split(","), f[2].split(","))]
        row = {"id": pid, "class": cls, "moves_ours": counts.get("ours"), "moves_wolges": counts.get("wolges"),
               "moves_magpie": counts.get("magpie"), "refused": "; ".join(refused)}
        for k, v in t.items():
            row[k] = statistics.median(v) / 1e6 if v else None
        rows.append(row)
        if log and (i % 25 == 0 or i == len(positions) - 1):
            print(f"# {i + 1}/{len(positions)} {pid}: ours {fmt(row['ours_all'])} ms, wolges "
                  f"{fmt(row['wolges_all'])}, MAGPIE {fmt(row['magpie_all'])}", file=sys.stderr, flush=True)
    return rows


def run_selfplay(golden, table, magpie, games, rounds):
    """games/s per round, per engine and player kind; rounds alternate who goes first."""
    res = {k: [] for k in ("ours_score", "ours_equity", "magpie_score", "magpie_equity")}
    seeds = iter(range(10_000))
    play_game(golden, 1, 2)
    play_equity_game(golden, 1, (table, table))
    if magpie:
        magpie.ask("cmd", 0, "autoplay games 5 -seed 1 -s1 score -s2 score -r1 best -r2 best -threads 1")
    for r in range(rounds):
        order = ["ours", "magpie"] if r % 2 == 0 else ["magpie", "ours"]
        for e in order:
            for kind in ("score", "equity"):
                s = next(seeds)
                if e == "ours":
                    t0 = time.process_time()
                    for i in range(games):
                        if kind == "score":
                            play_game(golden, game_seed(7000 + s, i), 2)
                        else:
                            play_equity_game(golden, game_seed(7000 + s, i), (table, table))
                    res[f"ours_{kind}"].append(games / (time.process_time() - t0))
                elif magpie:
                    sort = "score" if kind == "score" else "equity"
                    ns = int(magpie.ask("cmd", 0, f"autoplay games {games} -seed {7000 + s} -s1 {sort} -s2 {sort} "
                                                  f"-r1 best -r2 best -threads 1")[0])
                    res[f"magpie_{kind}"].append(games / (ns / 1e9))
    return {k: (statistics.median(v) if v else None) for k, v in res.items()} | {"rounds": rounds, "games": games}


def run_sim(golden, magpie, iterations, rounds):
    """iterations/s per round (2 plies, 5 candidates, no early stop), ours vs MAGPIE, score and equity players."""
    res = {k: [] for k in ("ours_score", "ours_equity", "magpie_score", "magpie_equity")}
    players = {"score": LeavePlayer(), "equity": EquityPlayer()}
    pos0 = parse_cgp(SIM_POSITIONS[0])
    simulate(pos0, golden, n_candidates=2, plies=2, iterations=5, seed=1, progress=False, player=players["score"])
    simulate(pos0, golden, n_candidates=2, plies=2, iterations=5, seed=1, progress=False, player=players["equity"])
    positions = [parse_cgp(c) for c in SIM_POSITIONS]
    for r in range(rounds):
        order = ["ours", "magpie"] if r % 2 == 0 else ["magpie", "ours"]
        for e in order:
            for kind in ("score", "equity"):
                if e == "ours":
                    n, t0 = 0, time.process_time()
                    for p in positions:
                        n += simulate(p, golden, n_candidates=5, plies=2, iterations=iterations, seed=2024 + r,
                                      progress=False, stop_when_clearly_ahead=False,
                                      player=players[kind]).total_iterations
                    res[f"ours_{kind}"].append(n / (time.process_time() - t0))
                elif magpie:
                    leaves = "RDZERO" if kind == "score" else "RDG"
                    n = ns = 0
                    for c in SIM_POSITIONS:
                        four = " ".join(c.split()[:4])
                        magpie.ask("cmd", 0, f"cgp {four}")
                        f = magpie.ask("cmd", 0, f"gsim -plies 2 -iterations {iterations * 5} -numplays 5 "
                                                 f"-threads 1 -scondition none -threshold none -leaves {leaves} "
                                                 f"-seed {2024 + r}")
                        ns += int(f[0])
                        n += int(f[1])
                    res[f"magpie_{kind}"].append(n / (ns / 1e9))
    return {k: (statistics.median(v) if v else None) for k, v in res.items()} | {"rounds": rounds,
                                                                                  "iterations": iterations}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=Path, default=HERE / "positions" / "positions.tsv")
    ap.add_argument("--reps", type=int, default=7, help="timed runs per position and engine (default 7)")
    ap.add_argument("--only", help="comma-separated position ids")
    ap.add_argument("--games", type=int, default=100, help="self-play games per round (default 100)")
    ap.add_argument("--game-rounds", type=int, default=4, help="self-play rounds per engine (default 4)")
    ap.add_argument("--sim-iterations", type=int, default=200, help="iterations per candidate (default 200)")
    ap.add_argument("--sim-rounds", type=int, default=2, help="simulation rounds per engine (default 2)")
    ap.add_argument("--skip", default="", help="comma-separated parts to skip: movegen, selfplay, sim")
    ap.add_argument("--no-back-to-back", action="store_true",
                    help="measure only the alternating order (not also each engine's repetitions in a row)")
    ap.add_argument("--wolges-bin", help="wolges harness (default: $WOLGES_BIN)")
    ap.add_argument("--magpie-bin", help="MAGPIE harness (default: $MAGPIE_BIN)")
    ap.add_argument("--magpie-data", help="MAGPIE-DATA's data/ folder (default: $MAGPIE_DATA)")
    ap.add_argument("--golden-lexicon", type=Path, default=Path(tempfile.gettempdir()) / "golden-bench.lex")
    ap.add_argument("--out-dir", type=Path, default=HERE / "results")
    ap.add_argument("--report-only", action="store_true",
                    help="print the tables of the last run in --out-dir without measuring")
    args = ap.parse_args(argv)
    if args.report_only:
        try:
            summary = json.loads((args.out_dir / "peers-summary.json").read_text(encoding="utf-8"))
            tsv = args.out_dir / "peers-positions.tsv"
            rows = read_rows(tsv) if tsv.exists() else []
        except (OSError, ValueError) as exc:
            print(f"error: cannot read the last run in {args.out_dir}: {exc}", file=sys.stderr)
            return 2
        print_report(summary, rows)
        return 0
    skip = {s for s in args.skip.split(",") if s}
    if args.reps < 1:
        print("error: --reps must be at least 1", file=sys.stderr)
        return 2

    positions = load_positions(args.positions)
    if args.only:
        want = set(args.only.split(","))
        positions = [p for p in positions if p[0] in want]
    golden = golden_lexicon(args.golden_lexicon)
    default = load_lexicon(None)
    lexes = {"golden": golden, "default": default}
    table = default_table()

    tmp = Path(tempfile.mkdtemp(prefix="bench-peers-"))
    harnesses: list[Harness] = []
    try:
        leaves = tmp / "leaves.klv2"
        with lzma.open(ROOT / "engine" / "data" / "leaves-german.klv2.xz") as f:
            leaves.write_bytes(f.read())
        zero = tmp / "zero.klv2"
        zero.write_bytes(klv_bytes(np.zeros_like(table.values), table.index))
        kwgs = {k: Path(v.path) / "lexicon.kwg" for k, v in lexes.items()}

        wolges = magpie = None
        wb = _bin("WOLGES_BIN", args.wolges_bin)
        if wb:
            wolges = {k: Harness(f"wolges[{k}]", [wb, str(p), str(leaves), "serve"], False) for k, p in kwgs.items()}
            harnesses += wolges.values()
        mb = _bin("MAGPIE_BIN", args.magpie_bin)
        md = args.magpie_data or os.environ.get("MAGPIE_DATA")
        if mb and not md:
            print("# MAGPIE_DATA not set: skipping MAGPIE", file=sys.stderr)
            mb = None
        if mb:
            d = magpie_data_dir(tmp, Path(md), {"RDG.kwg": kwgs["golden"], "RDDEF.kwg": kwgs["default"]},
                                {"RDG.klv2": leaves, "RDDEF.klv2": leaves, "RDZERO.klv2": zero})
            magpie = {}
            for k, name in (("golden", "RDG"), ("default", "RDDEF")):
                magpie[k] = Harness(f"magpie[{k}]", [mb, str(d), f"set -lex {name} -ld german -leaves {name} "
                                                                 f"-threads 1 -wmp false -hr false -s1 equity "
                                                                 f"-s2 equity -r1 best -r2 best -savesettings false"], True)
                harnesses.append(magpie[k])

        summary: dict = {"date": time.strftime("%Y-%m-%d %H:%M:%S %Z"), "reps": args.reps,
                         "load_before": os.getloadavg(), "wolges_bin": wb, "magpie_bin": mb}
        rows = []
        if "movegen" not in skip:
            rows = run_movegen(positions, lexes, Ours(table), wolges, magpie, args.reps, log=True,
                               back_to_back=not args.no_back_to_back)
        if "selfplay" not in skip:
            summary["selfplay_games_per_s"] = run_selfplay(golden, table, magpie and magpie["golden"], args.games,
                                                           args.game_rounds)
        if "sim" not in skip:
            summary["sim_iterations_per_s"] = run_sim(golden, magpie and magpie["golden"], args.sim_iterations,
                                                      args.sim_rounds)
        summary["load_after"] = os.getloadavg()
    finally:
        for h in harnesses:
            h.close()
        shutil.rmtree(tmp, ignore_errors=True)

    args.out_dir.mkdir(parents=True, exist_ok=True)
    if rows:
        cols = ["id", "class", "moves_ours", "moves_wolges", "moves_magpie"] + [k for k, _ in MOVEGEN_COLS]
        summary["refused"] = {r["id"]: r["refused"] for r in rows if r["refused"]}
        lines = ["\t".join(c if c in ("id", "class") or c.startswith("moves") else c + "_ms" for c in cols)]
        for r in rows:
            lines.append("\t".join("" if r.get(c) is None else (f"{r[c]:.4f}" if isinstance(r[c], float) else str(r[c]))
                                   for c in cols))
        tmpf = args.out_dir / "peers-positions.tsv.tmp"
        tmpf.write_text("\n".join(lines) + "\n", encoding="utf-8")
        os.replace(tmpf, args.out_dir / "peers-positions.tsv")
    tmpf = args.out_dir / "peers-summary.json.tmp"
    tmpf.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    os.replace(tmpf, args.out_dir / "peers-summary.json")

    print_report(summary, rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
