"""Our pre-endgame beside MAGPIE's ``peg`` on one-tile-in-the-bag positions, interleaved position by position.

    python benchmarks/preendgame_vs_magpie.py [--positions benchmarks/positions/preendgames_1bag.tsv]
        [--time 60] [--top 10] [--magpie /tmp/peers/MAGPIE/bin/magpie] [--magpie-data /tmp/peers/magpie-gse-data]
        [--magpie-time 60] [--magpie-threads 2] [--only q4,q6] [--out results.jsonl]

For each position (``id<TAB>spread<TAB>last move<TAB>cgp``, scripts/make_preendgame_positions.py):

* ours: :func:`engine.analysis.preendgame.preendgame` with a budget of ``--time`` CPU seconds of
  this process (``clock=time.process_time``), the top ``--top`` placements by static equity and
  passing, the opponent's racks uniform (MAGPIE's ``peg`` does not use an inference);
* MAGPIE, right after (so both see the same load): its command shell in sync mode, ``cgp BOARD
  RACK/ SCORES 0`` then ``peg -pegtlim T -threads N`` (rational opponent, its default cascade), in a
  run folder of :mod:`magpie_shell` over ``--magpie-data`` (``lexica/RDDEF.kwg`` must be our default
  lexicon's KWG and ``RDDEF.klv2`` our leave table, /tmp/peers/HOWTO.md). Its CPU time is the
  child's user + system time (``resource.RUSAGE_CHILDREN``).

Per position: MAGPIE's best move and win %, ours and our win %, whether they agree (the same move,
or ours has the same win % in MAGPIE's own table), our win % for MAGPIE's best move, and whether our
best candidate is exact (every draw's endgame solved). A position where every move MAGPIE lists
wins (or loses) 100 % is marked ``decided``: agreement there says little, so the summary counts
both all positions and the undecided ones. MAGPIE's code is not part of this repository.
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


def magpie_peg(binary: str, folder: str, cgp: str, seconds: float, threads: int) -> dict:
    """MAGPIE's ``peg`` on one position: ``{"moves": [{"move", "win", "spread"}], "cpu", "wall", "stage"}``."""
    from magpie_shell import run

    board, racks, scores = cgp.split()[:3]
    out, cpu, wall = run(binary, folder, [f"cgp {board} {racks} {scores} 0",
                                          f"peg -pegtlim {seconds:g} -threads {threads}"], seconds * 5 + 60)
    moves = []
    head = out.rsplit("PEG (", 1)[-1]  # the last report only
    for line in head.splitlines():
        r = parse_row(line)
        if r:
            moves.append({"move": r[0], "win": r[1], "spread": r[2]})
    stage = re.search(r"PEG \((last completed stage \d+|stage \d+ partial)\)", out)
    if not moves:
        print(f"note: MAGPIE gave no ranking: {out[-300:]!r}", file=sys.stderr)
    return {"moves": moves, "cpu": cpu, "wall": wall, "stage": stage.group(1) if stage else None}


def ours(lexicon, cgp: str, seconds: float, top: int) -> dict:
    from engine.analysis.preendgame import preendgame
    from engine.position.cgp import parse_cgp

    pos = parse_cgp(cgp)
    c0 = time.process_time()
    res = preendgame(pos, lexicon, top=top, time_limit=seconds, clock=time.process_time)
    res["cpu"] = time.process_time() - c0
    return res


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", default=str(ROOT / "benchmarks" / "positions" / "preendgames_1bag.tsv"))
    ap.add_argument("--time", type=float, default=60.0, help="our budget, CPU seconds")
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--magpie", default="/tmp/peers/MAGPIE/bin/magpie")
    ap.add_argument("--magpie-data", default="/tmp/peers/magpie-gse-data")
    ap.add_argument("--magpie-time", type=float, default=60.0, help="MAGPIE's -pegtlim (its wall clock)")
    ap.add_argument("--magpie-threads", type=int, default=2)
    ap.add_argument("--only", default=None, help="comma-separated position ids")
    ap.add_argument("--out", default=None, help="append one JSON line per position here")
    args = ap.parse_args(argv)
    from lexicon_tools.bundle import load_lexicon
    from engine.analysis.phase import warm_up

    from magpie_shell import run_dir

    folder = run_dir(args.magpie_data, args.magpie_threads)
    lex = load_lexicon(None)
    warm_up(lex)
    rows = [ln.rstrip("\n").split("\t") for ln in open(args.positions, encoding="utf-8") if ln.strip()]
    ours(lex, rows[0][3], 5.0, 2)  # untimed: compiles the solver's pruned-lexicon kernels, which warm_up does not
    if args.only:
        order = {pid: i for i, pid in enumerate(args.only.split(","))}
        rows = sorted((r for r in rows if r[0] in order), key=lambda r: order[r[0]])
    print("| id | spread | MAGPIE best (win %, spread) | ours best (win %) | agree | ours: MAGPIE's best (win %) "
          "| our best exact (draws solved) | ours CPU (s) | MAGPIE CPU (s) | MAGPIE stage |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    summary = []
    for pid, spread, _last, cgp in rows:
        o = ours(lex, cgp, args.time, args.top)
        m = magpie_peg(args.magpie, folder, cgp, args.magpie_time, args.magpie_threads)
        mm = {x["move"]: x for x in m["moves"]}
        om = {x["move"]: x for x in o["moves"]}
        mb = m["moves"][0] if m["moves"] else None
        ob = o["moves"][0]
        agree = bool(mb) and (ob["move"] == mb["move"] or (ob["move"] in mm and mm[ob["move"]]["win"] == mb["win"]))
        decided = bool(m["moves"]) and len({x["win"] for x in m["moves"]}) == 1 and m["moves"][0]["win"] in (0.0, 1.0)
        ours_for_m = om.get(mb["move"]) if mb else None
        rec = {"id": pid, "spread": int(spread), "magpie_best": mb, "ours_best": {k: ob[k] for k in
               ("move", "win", "spread", "exact", "exact_share")}, "agree": agree, "decided": decided,
               "ours_for_magpie_best": None if ours_for_m is None else {k: ours_for_m[k] for k in
                                                                        ("win", "spread", "exact")},
               "ours_in_magpie": mm.get(ob["move"]), "ours_cpu": round(o["cpu"], 2),
               "magpie_cpu": round(m["cpu"], 2), "magpie_wall": round(m["wall"], 2), "magpie_stage": m["stage"],
               "top_exact": [x["exact"] for x in o["moves"][:2]],
               "ours": [{k: x[k] for k in ("move", "win", "spread", "exact", "exact_share")} for x in o["moves"]],
               "magpie": m["moves"]}
        summary.append(rec)
        if args.out:
            with open(args.out, "a", encoding="utf-8") as f:
                f.write(json.dumps(rec, ensure_ascii=False) + "\n")
        mtxt = f"{mb['move']} ({100 * mb['win']:.1f}, {mb['spread']:+.1f})" if mb else "none"
        otxt = "-" if ours_for_m is None else f"{100 * ours_for_m['win']:.1f}"
        print(f"| {pid} | {spread} | {mtxt} | {ob['move']} ({100 * ob['win']:.1f}) | "
              f"{'yes' if agree else 'no'}{' (decided)' if decided else ''} | {otxt} | "
              f"{'yes' if ob['exact'] else 'no'} ({100 * ob['exact_share']:.0f} %) | {o['cpu']:.1f} | "
              f"{m['cpu']:.1f} | {m['stage']} |", flush=True)
    n = len(summary)
    und = [r for r in summary if not r["decided"]]
    print(f"\nagree: {sum(r['agree'] for r in summary)} of {n}; undecided positions: "
          f"{sum(r['agree'] for r in und)} of {len(und)}; our best move exact: "
          f"{sum(r['ours_best']['exact'] for r in summary)} of {n}; top two exact: "
          f"{sum(all(r['top_exact']) for r in summary)} of {n}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
