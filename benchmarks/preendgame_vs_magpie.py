"""Our pre-endgame beside MAGPIE's ``peg`` on one-tile-in-the-bag positions, interleaved position by position.

    python benchmarks/preendgame_vs_magpie.py [--positions benchmarks/positions/preendgames_1bag.tsv]
        [--lexicon BUNDLE] [--time 60] [--top 10] [--magpie /tmp/peers/MAGPIE/bin/magpie]
        [--magpie-data /tmp/peers/magpie-gse-data] [--magpie-lex RDDEF] [--magpie-time 60]
        [--magpie-threads 2] [--only q4,q6] [--out results.jsonl [--resume | --summary]]

For each position (``id<TAB>spread<TAB>last move<TAB>cgp``, scripts/make_preendgame_positions.py),
strictly one after the other (ours, MAGPIE, ours, MAGPIE, ...):

* ours: :func:`engine.analysis.preendgame.preendgame` with a budget of ``--time`` CPU seconds of
  this process (``clock=time.process_time``), the top ``--top`` placements by static equity and
  passing, the opponent's racks uniform (MAGPIE's ``peg`` does not use an inference). A Numba
  compile inside this timed call is recorded (``compiled``); the run starts with untimed warm-ups
  (``warm_up`` and one short pre-endgame; one short ``peg``).
* MAGPIE, right after (so both see the same load): its command shell in sync mode, ``cgp BOARD
  RACK/ SCORES 0`` then ``peg -pegtlim T -threads N`` (rational opponent, its default cascade), in a
  run folder of :mod:`magpie_shell` over ``--magpie-data``. Its CPU time is the child's user +
  system time (``resource.RUSAGE_CHILDREN``). ``-pegtlim`` counts on MAGPIE's monotonic (wall)
  clock; for a budget in CPU seconds give ``--magpie`` a build whose ``ctimer_monotonic_ns``
  reads ``CLOCK_PROCESS_CPUTIME_ID`` (benchmarks/README.md, "Pre-endgame beside MAGPIE's peg").

Both sides must use the same words and leaves: ``--lexicon`` (default: the bundle the positions'
CGP names in its ``lex`` opcode) must have a ``lexicon.kwg`` byte-equal to MAGPIE's
``data/lexica/<--magpie-lex>.kwg``, and our packaged leave table must be byte-equal to its
``<--magpie-lex>.klv2``; otherwise the script stops with exit code 2.

Per position: MAGPIE's best move and win %, ours and our win %, whether they agree (the same move,
or ours has the same win % in MAGPIE's own table), our win % for MAGPIE's best move, and whether our
best candidate is exact (every draw's endgame solved). A position where every move MAGPIE lists
wins (or loses) 100 % is marked ``decided``: agreement there says little, so the summary counts
both all positions and the undecided ones. A position that raises is recorded with its error and
the run goes on (``--resume`` runs it again). MAGPIE's code is not part of this repository.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))



def parse_row(line: str):
    """``(move, win, spread)`` of a row of MAGPIE's ranking table, else ``None``.

    Rows are ``rank move wins ties loss win% spread``, with a leading fidelity column (``greedy``,
    ``2-ply``) and trailing time and outcome columns when the last stage was cut by the time limit.
    """
    t = line.split()
    for i in (0, 1):
        if len(t) < i + 7 or not t[i].isdigit():
            continue
        k = i + 1 + (1 if t[i + 1] == "pass" else 2)
        try:
            _w, _t, _l = (int(x) for x in t[k:k + 3])
            win, spread = float(t[k + 3]), float(t[k + 4])
        except (ValueError, IndexError):
            continue
        if not 0.0 <= win <= 100.0:
            return None  # "-100.0": not evaluated
        return ("-" if t[i + 1] == "pass" else " ".join(t[i + 1:i + 3])), win / 100.0, spread
    return None


def magpie_peg(binary: str, folder: str, cgp: str, seconds: float, threads: int, quiet: bool = False) -> dict:
    """MAGPIE's ``peg`` on one position: ``{"moves": [{"move", "win", "spread"}], "cpu", "wall", "stage"}``."""
    from magpie_shell import run

    board, racks, scores = cgp.split()[:3]
    out, cpu, wall = run(binary, folder, [f"cgp {board} {racks} {scores} 0",
                                          f"peg -pegtlim {seconds:g} -threads {threads}"], seconds * 20 + 120)
    moves = []
    head = out.rsplit("PEG (", 1)[-1]  # the last report only
    for line in head.splitlines():
        r = parse_row(line)
        if r:
            moves.append({"move": r[0], "win": r[1], "spread": r[2]})
    stage = re.search(r"PEG \((last completed stage \d+|stage \d+ partial)\)", out)
    if not moves and not quiet:
        print(f"note: MAGPIE gave no ranking: {out[-300:]!r}", file=sys.stderr)
    return {"moves": moves, "cpu": cpu, "wall": wall, "stage": stage.group(1) if stage else None}


def ours(lexicon, cgp: str, seconds: float, top: int) -> dict:
    """Our pre-endgame on one position with ``seconds`` of CPU; ``compiled``: Numba compiles inside the call."""
    from numba.core import event

    from engine.analysis.preendgame import preendgame
    from engine.position.cgp import parse_cgp

    compiled: list[str] = []

    class Listener(event.Listener):
        def on_start(self, ev):
            compiled.append(repr(ev.data.get("dispatcher")))

        def on_end(self, ev):
            pass

    pos = parse_cgp(cgp)
    listener = Listener()
    event.register("numba:compile", listener)
    try:
        c0 = time.process_time()
        res = preendgame(pos, lexicon, top=top, time_limit=seconds, clock=time.process_time)
        res["cpu"] = time.process_time() - c0
    finally:
        event.unregister("numba:compile", listener)
    res["compiled"] = compiled
    return res


def same_files(a: Path, b: Path) -> bool:
    """Whether two files exist and hold the same bytes."""
    return a.exists() and b.exists() and a.stat().st_size == b.stat().st_size and a.read_bytes() == b.read_bytes()


def compare(pid: str, spread: str, o: dict, m: dict) -> dict:
    """One row: the two rankings side by side (module doc)."""
    mm = {x["move"]: x for x in m["moves"]}
    om = {x["move"]: x for x in o["moves"]}
    mb = m["moves"][0] if m["moves"] else None
    ob = o["moves"][0]
    agree = bool(mb) and (ob["move"] == mb["move"] or (ob["move"] in mm and mm[ob["move"]]["win"] == mb["win"]))
    decided = bool(m["moves"]) and len({x["win"] for x in m["moves"]}) == 1 and m["moves"][0]["win"] in (0.0, 1.0)
    ours_for_m = om.get(mb["move"]) if mb else None
    return {"id": pid, "spread": int(spread), "magpie_best": mb,
            "ours_best": {k: ob[k] for k in ("move", "win", "spread", "exact", "exact_share")},
            "agree": agree, "decided": decided,
            "ours_for_magpie_best": None if ours_for_m is None else {k: ours_for_m[k] for k in ("win", "spread", "exact")},
            "ours_in_magpie": mm.get(ob["move"]), "ours_cpu": round(o["cpu"], 2),
            "magpie_cpu": round(m["cpu"], 2), "magpie_wall": round(m["wall"], 2), "magpie_stage": m["stage"],
            "compiled": o["compiled"], "top_exact": [x["exact"] for x in o["moves"][:2]],
            "ours": [{k: x[k] for k in ("move", "win", "spread", "exact", "exact_share")} for x in o["moves"]],
            "magpie": m["moves"]}


def line(rec: dict) -> str:
    """The Markdown table row of one record."""
    if "error" in rec:
        return f"| {rec['id']} | {rec.get('spread', '')} | error: {rec['error']} |||||||||"
    mb, ob, of = rec["magpie_best"], rec["ours_best"], rec["ours_for_magpie_best"]
    mtxt = f"{mb['move']} ({100 * mb['win']:.1f}, {mb['spread']:+.1f})" if mb else "none"
    if of is None or mb is None:
        dtxt = "– (not among ours)"
    else:
        dtxt = f"{100 * of['win']:.1f} vs {100 * mb['win']:.1f} ({100 * (of['win'] - mb['win']):+.1f})"
    om = rec["ours_in_magpie"]
    otxt = "– (not in MAGPIE's table)" if om is None else \
        f"{100 * ob['win']:.1f} vs {100 * om['win']:.1f} ({100 * (ob['win'] - om['win']):+.1f})"
    return (f"| {rec['id']} | {rec['spread']:+d} | {ob['move']} ({100 * ob['win']:.1f}) | {mtxt} | "
            f"{'yes' if rec['agree'] else 'no'}{' (decided)' if rec['decided'] else ''} | {dtxt} | {otxt} | "
            f"{rec['ours_cpu']:.1f} | {rec['magpie_cpu']:.1f} | {rec['magpie_stage']} | "
            f"{'yes' if ob['exact'] else 'no'} ({100 * ob['exact_share']:.0f} %) |")


HEADER = ("| id | spread | ours best (win %) | MAGPIE best (win %, spread) | agree | win % of MAGPIE's best: ours vs "
          "MAGPIE's (Δ) | win % of our best: ours vs MAGPIE's (Δ) | ours CPU (s) | MAGPIE CPU (s) | MAGPIE stage "
          "| our best exact (draws solved) |\n"
          "|---|---:|---|---|---|---|---|---:|---:|---|---|")


def totals(recs: list[dict]) -> str:
    """The summary lines: agreements, mean |Δ win %|, CPU sums, positions each side was faster."""
    ok = [r for r in recs if "error" not in r]
    n = len(ok)
    und = [r for r in ok if not r["decided"]]
    d = [abs(r["ours_for_magpie_best"]["win"] - r["magpie_best"]["win"]) for r in ok
         if r["magpie_best"] and r["ours_for_magpie_best"]]
    e = [abs(r["ours_best"]["win"] - r["ours_in_magpie"]["win"]) for r in ok if r["ours_in_magpie"]]
    co, cm = sum(r["ours_cpu"] for r in ok), sum(r["magpie_cpu"] for r in ok)
    return (f"positions: {len(recs)}, compared: {n}, errors: {len(recs) - n}\n"
            f"agree: {sum(r['agree'] for r in ok)} of {n}; undecided positions: {sum(r['agree'] for r in und)} of "
            f"{len(und)}\n"
            f"mean |Δ win %| for MAGPIE's best: {100 * sum(d) / len(d) if d else float('nan'):.1f} points over the "
            f"{len(d)} positions where it is among our candidates (max {100 * max(d) if d else float('nan'):.1f}); "
            f"for our best: {100 * sum(e) / len(e) if e else float('nan'):.1f} over the {len(e)} where it is in "
            f"MAGPIE's table (max {100 * max(e) if e else float('nan'):.1f})\n"
            f"CPU: ours {co:.1f} s, MAGPIE {cm:.1f} s; faster: ours on {sum(r['ours_cpu'] < r['magpie_cpu'] for r in ok)}, "
            f"MAGPIE on {sum(r['magpie_cpu'] < r['ours_cpu'] for r in ok)}\n"
            f"our best move exact: {sum(r['ours_best']['exact'] for r in ok)} of {n}; top two exact: "
            f"{sum(all(r['top_exact']) for r in ok)} of {n}; timed calls with a Numba compile: "
            f"{sum(bool(r['compiled']) for r in ok)}")


def main(argv=None) -> int:
    import os

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", default=str(ROOT / "benchmarks" / "positions" / "preendgames_1bag.tsv"))
    ap.add_argument("--lexicon", default=None,
                    help="our lexicon bundle (default: the one the positions' CGP names, e.g. default-d5996e1d01bb); "
                         "its lexicon.kwg must be byte-equal to MAGPIE's data/lexica/<--magpie-lex>.kwg")
    ap.add_argument("--time", type=float, default=60.0, help="our budget, CPU seconds")
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--magpie", default="/tmp/peers/MAGPIE/bin/magpie")
    ap.add_argument("--magpie-data", default="/tmp/peers/magpie-gse-data")
    ap.add_argument("--magpie-lex", default="RDDEF", help="MAGPIE's lexicon and leaves name in data/lexica/")
    ap.add_argument("--magpie-time", type=float, default=60.0,
                    help="MAGPIE's -pegtlim (its monotonic clock; CPU time with a build whose clock is the CPU's)")
    ap.add_argument("--magpie-threads", type=int, default=2)
    ap.add_argument("--only", default=None, help="comma-separated position ids")
    ap.add_argument("--out", default=None, help="append one JSON line per position here")
    ap.add_argument("--resume", action="store_true", help="skip the positions already in --out")
    ap.add_argument("--summary", action="store_true", help="print the table and totals of --out and stop")
    args = ap.parse_args(argv)

    done = []
    if args.out and (args.resume or args.summary) and Path(args.out).exists():
        done = [json.loads(x) for x in open(args.out, encoding="utf-8") if x.strip()]
    if args.summary:
        print(HEADER)
        for r in done:
            print(line(r))
        print()
        print(totals(done))
        return 0

    from lexicon_tools.bundle import load_lexicon
    from engine.analysis.phase import warm_up
    from engine.leaves.table import default_table

    from magpie_shell import run_dir

    rows = [ln.rstrip("\n").split("\t") for ln in open(args.positions, encoding="utf-8") if ln.strip()]
    named = {m.group(1) for r in rows for m in [re.search(r"\blex ([^;\s]+)", r[3])] if m}
    if args.lexicon is None and len(named) == 1:
        args.lexicon = named.pop()
    lex = load_lexicon(args.lexicon)
    ours_kwg = Path(lex.path) / "lexicon.kwg" if Path(lex.path).is_dir() else Path(lex.path)
    lexica = Path(args.magpie_data) / "lexica"
    if not same_files(ours_kwg, lexica / f"{args.magpie_lex}.kwg"):
        print(f"error: MAGPIE's {lexica / args.magpie_lex}.kwg is not our lexicon's KWG {ours_kwg}", file=sys.stderr)
        return 2
    table = default_table()
    if table.path is None or not same_files(Path(table.path), lexica / f"{args.magpie_lex}.klv2"):
        print(f"error: MAGPIE's {lexica / args.magpie_lex}.klv2 is not our leave table {table.path}", file=sys.stderr)
        return 2
    print(f"lexicon {ours_kwg} = MAGPIE's {args.magpie_lex}.kwg; leaves {table.path} = {args.magpie_lex}.klv2",
          flush=True)
    folder = run_dir(args.magpie_data, args.magpie_threads, args.magpie_lex, args.magpie_lex)

    # untimed warm-ups: every kernel (warm_up, then one short pre-endgame) and MAGPIE's files in the page cache
    warm_up(lex)
    ours(lex, rows[0][3], 5.0, 2)
    magpie_peg(args.magpie, folder, rows[0][3], 1.0, args.magpie_threads, quiet=True)
    if args.only:
        order = {pid: i for i, pid in enumerate(args.only.split(","))}
        rows = sorted((r for r in rows if r[0] in order), key=lambda r: order[r[0]])
    skip = {r["id"] for r in done if "error" not in r}
    print(HEADER, flush=True)
    summary = []
    for pid, spread, _last, cgp in rows:
        if pid in skip:
            continue
        load = os.getloadavg()[0]
        try:
            o = ours(lex, cgp, args.time, args.top)
            m = magpie_peg(args.magpie, folder, cgp, args.magpie_time, args.magpie_threads)
            rec = compare(pid, spread, o, m)
        except Exception as exc:  # one bad position must not end the run: record it and go on
            rec = {"id": pid, "spread": int(spread), "error": f"{type(exc).__name__}: {exc}"[:300]}
        rec["load"] = round(load, 2)
        summary.append(rec)
        if args.out:
            with open(args.out, "a", encoding="utf-8") as f:
                f.write(json.dumps(rec, ensure_ascii=False) + "\n")
        print(line(rec), flush=True)
    print()
    print(totals(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
