"""Cross-generator checker and move-set baselines (``python -m engine compare`` / ``baselines``).

``compare`` runs another move generator (a *peer*, :mod:`engine.compare.peers`) on a
set of positions and compares, position by position, its set of
(placed tiles, score) with ours: moves it lacks (*missing*), moves it has and
we do not (*extra*), and moves whose scores differ. Each position with a
difference is printed with its CGP and the offending moves (notation, placements,
both scores, and the verdict of our independent word checker,
:mod:`engine.position.scorer`), so a bug report can be filed from the output. Both
generators are timed in the same run; the summary gives per-class medians and
the ratio ours / theirs. A peer that crashes, hangs or prints something
unreadable costs that position only: it is reported and the run goes on.

``baselines`` writes complete move lists in the golden TSV format
(``NOTATION<TAB>SCORE<TAB>PLACEMENTS``) so any generator can be checked against
them without running this project.

Usage and the peer protocol: docs/compare.md.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from statistics import median

import numpy as np

from lexicon_tools.bundle import Lexicon, load_lexicon

from engine.position.board import Board
from engine.position.cgp import CGPError, Position, add_allow_impossible, parse_cgp
from engine.compare.peers import FORMATS, CommandPeer, DirectoryPeer, PeerMove, PeerRun, parse_placements

__all__ = [
    "PositionResult",
    "add_parser",
    "compare_moves",
    "compare_position",
    "format_position",
    "format_summary",
    "our_moves",
    "position_class",
    "read_positions",
    "run_compare",
    "summary_dict",
    "write_baselines",
]

STAGES = ("empty", "early", "middle", "late")


# ---------------------------------------------------------------------------
# positions
# ---------------------------------------------------------------------------
def read_positions(path: str | Path) -> list[tuple[str, str]]:
    """Read a position set: ``ID<TAB>CGP`` lines, or plain CGP lines (id = line number).

    Blank lines and lines starting with ``#`` are skipped (line numbers still count).

    Raises:
        ValueError: unreadable file, a line with an empty id or CGP, an id used twice, no positions.
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"positions file {str(p)!r}: cannot read ({exc})") from None
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if "\t" in line:
            pid, _, cgp = line.partition("\t")
            pid, cgp = pid.strip(), cgp.strip()
        else:
            pid, cgp = str(n), line.strip()
        if not pid or not cgp:
            raise ValueError(f"{p.name} line {n}: expected ID<TAB>CGP or a CGP line")
        if pid in seen:
            raise ValueError(f"{p.name} line {n}: position id {pid!r} used twice")
        seen.add(pid)
        out.append((pid, cgp))
    if not out:
        raise ValueError(f"{p.name}: no positions")
    return out


def position_class(pos: Position) -> str:
    """The timing class of a position: ``STAGE/bN``.

    STAGE: ``empty`` (no tile on the board); ``late`` (bag below 7 tiles, or at
    most 20 tiles unseen by the player to move, i.e. bag + opponent rack);
    ``early`` (fewer than 20 tiles on the board); ``middle`` otherwise.
    ``bN``: the number of blanks on the rack (0, 1 or 2).
    """
    tiles = pos.board.tile_count
    bag = pos.bag_count
    unseen = pos.alphabet.total_tiles - tiles - int(pos.rack.sum())
    if tiles == 0:
        stage = "empty"
    elif (bag is not None and bag < pos.alphabet.rack_size) or unseen <= 20:
        stage = "late"
    elif tiles < 20:
        stage = "early"
    else:
        stage = "middle"
    return f"{stage}/b{int(pos.rack[0])}"


def _class_key(cls: str) -> tuple:
    stage, _, b = cls.partition("/")
    return (STAGES.index(stage) if stage in STAGES else len(STAGES), b)


# ---------------------------------------------------------------------------
# our side
# ---------------------------------------------------------------------------
def our_moves(pos: Position, lexicon: Lexicon, repeat: int = 5) -> tuple[dict[str, tuple[int, str]], float]:
    """Generate our moves in-process and time them.

    The first call (warm-up: Numba kernels, caches) gives the moves; then
    ``repeat`` timed calls of :func:`engine.movegen.generator.generate_moves` (cross-checks
    included, every move) give the time.

    Returns:
        ``({placements: (score, notation)}, median ms)`` (``0.0`` ms when ``repeat`` is 0).
    """
    from engine.movegen.generator import generate_moves

    ml = generate_moves(pos.board, pos.rack, lexicon)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        generate_moves(pos.board, pos.rack, lexicon)
        times.append((time.perf_counter() - t0) * 1000)
    moves = {m.placements: (m.score, m.notation) for m in ml}
    return moves, (median(times) if times else 0.0)


# ---------------------------------------------------------------------------
# comparison
# ---------------------------------------------------------------------------
@dataclass
class PositionResult:
    """The comparison of one position.

    Attributes:
        id, cgp, cls: the position, its CGP and its class (:func:`position_class`).
        status: ``"same"``, ``"different"`` or ``"not compared"``.
        ours_count, theirs_count: distinct placements on each side (``theirs_count``
            ``None`` when not compared).
        missing: moves we generate and the peer lacks; ``extra``: moves the peer
            gives and we do not; ``score_differs``: same tiles, other score. Each a
            dict with ``placements``, ``notation``, ``ours`` and ``theirs`` (scores; a
            list for the peer, which may give one placement twice), ``peer_text``
            (the peer's line or item) and ``checker`` (our word checker's verdict,
            for the first few moves of each kind only).
        ours_ms, theirs_ms: times (see :func:`run_compare`); ``time_source``: how the
            peer's time was taken (``"reported"``, ``"wall"``, ``"file"`` or ``None``).
        error_kind, error: why the position was not compared (``timeout``,
            ``crash``, ``parse``, ``missing``, ``cgp``).
    """

    id: str
    cgp: str
    cls: str = ""
    status: str = "not compared"
    ours_count: int = 0
    theirs_count: int | None = None
    missing: list[dict] = field(default_factory=list)
    extra: list[dict] = field(default_factory=list)
    score_differs: list[dict] = field(default_factory=list)
    ours_ms: float | None = None
    theirs_ms: float | None = None
    time_source: str | None = None
    error_kind: str | None = None
    error: str | None = None

    @property
    def differences(self) -> int:
        """Number of differing moves."""
        return len(self.missing) + len(self.extra) + len(self.score_differs)


def _checker_verdict(board: Board, placements: str, lexicon: Lexicon, rack) -> str:
    from engine.position.scorer import IllegalMove, score_placement

    try:
        tiles = parse_placements(placements, board.alphabet)
        scored = score_placement(board, sorted(tiles), lexicon=lexicon, rack=rack)
    except IllegalMove as exc:
        return f"illegal: {exc.reason}"
    except ValueError as exc:
        return f"unreadable: {exc}"
    return f"legal, {scored.score} points"


def _notation_of(board: Board, tiles) -> str | None:
    from engine.position.scorer import IllegalMove, score_placement

    try:
        return score_placement(board, sorted(tiles), lexicon=None).move.notation
    except (IllegalMove, ValueError):
        return None


def compare_moves(pos: Position, ours: dict[str, tuple[int, str]], theirs, lexicon: Lexicon | None = None,
                  check_limit: int = 10) -> tuple[list[dict], list[dict], list[dict]]:
    """Compare our moves with a peer's as sets of (placements, score).

    Args:
        pos: the position (its board names the peer's moves and checks them).
        ours: ``{placements: (score, notation)}`` (from :func:`our_moves`).
        theirs: iterable of :class:`engine.compare.peers.PeerMove`. A placement the peer lists
            twice with the same score counts once; with different scores it is a
            score difference (or an extra move with every score listed).
        lexicon: for the word checker's verdict on the first ``check_limit`` moves of
            each kind (``None``: no verdicts).
        check_limit: how many moves of each kind get a verdict.

    Returns:
        ``(missing, extra, score_differs)``: lists of dicts (see :class:`PositionResult`),
        each sorted by score (descending), then notation.
    """
    peer: dict[str, dict] = {}
    for m in theirs:
        e = peer.setdefault(m.placements, {"scores": [], "text": m.text, "tiles": m.tiles})
        if m.score not in e["scores"]:
            e["scores"].append(m.score)
    missing, extra, differs = [], [], []
    for pl, (score, notation) in ours.items():
        e = peer.get(pl)
        if e is None:
            missing.append({"placements": pl, "notation": notation, "ours": score, "theirs": None,
                            "peer_text": None})
        elif e["scores"] != [score]:
            differs.append({"placements": pl, "notation": notation, "ours": score, "theirs": sorted(e["scores"]),
                            "peer_text": e["text"]})
    for pl, e in peer.items():
        if pl not in ours:
            extra.append({"placements": pl, "notation": _notation_of(pos.board, e["tiles"]) or e["text"],
                          "ours": None, "theirs": sorted(e["scores"]), "peer_text": e["text"]})

    def key(d):
        s = d["ours"] if d["ours"] is not None else max(d["theirs"])
        return (-s, d["notation"], d["placements"])

    for lst in (missing, extra, differs):
        lst.sort(key=key)
        for i, d in enumerate(lst):
            d["checker"] = (_checker_verdict(pos.board, d["placements"], lexicon, pos.rack)
                            if lexicon is not None and i < check_limit else None)
    return missing, extra, differs


def mirror_empty_board_moves(board: Board, moves: list) -> list:
    """Add the transposed copy of every move a peer gave on an empty board.

    wolges generates only across moves on an empty board (``gen_moves_raw_all_unsorted``
    and its other entry points): on a layout that is symmetric about the main diagonal
    a down opening is the transposed across one with the same score. This restores the
    down half so the sets can be compared. Nothing changes when the board is not empty,
    when the peer already gave down moves, or when the layout is not symmetric.

    Args:
        board: the position's board.
        moves: the peer's :class:`engine.compare.peers.PeerMove` list.

    Returns:
        ``moves`` itself, or a new list with the transposed copies appended (their
        ``text`` ends in ``(transposed)``).
    """
    lay = board.layout
    if not board.is_empty or not moves:
        return moves
    if not (np.array_equal(lay.letter_mult, lay.letter_mult.T) and np.array_equal(lay.word_mult, lay.word_mult.T)):
        return moves
    rows = {m.placements: m for m in moves}
    for m in moves:
        if len(m.tiles) > 1 and len({t[0] for t in m.tiles}) > 1:
            return moves  # the peer gave a down move: it generated both directions
    out = list(moves)
    for m in moves:
        tiles = frozenset((c, r, letter, blank) for r, c, letter, blank in m.tiles)
        t = PeerMove(tiles, m.score, f"{m.text} (transposed)")
        if t.placements not in rows:
            rows[t.placements] = t
            out.append(t)
    return out


def compare_position(pid: str, cgp: str, peer, lexicon: Lexicon, repeat: int = 5,
                     check_limit: int = 10, mirror_empty: bool = False,
                     allow_impossible: bool = False) -> PositionResult:
    """Run our generator and the peer on one position and compare (see :func:`compare_moves`).

    ``mirror_empty``: on an empty board, complete a peer that generates only across
    openings (wolges) with their transposed copies (:func:`mirror_empty_board_moves`).

    Never raises for a bad CGP or a faulty peer: the result says why the position
    was not compared (also an impossible position, unless ``allow_impossible``).
    """
    res = PositionResult(pid, cgp)
    try:
        pos = parse_cgp(cgp, allow_impossible=allow_impossible)
    except CGPError as exc:
        res.error_kind, res.error = "cgp", f"bad CGP: {exc}"
        return res
    res.cls = position_class(pos)
    ours, res.ours_ms = our_moves(pos, lexicon, repeat)
    res.ours_count = len(ours)
    run = peer.run(pid, cgp, pos.board)
    res.theirs_ms, res.time_source = run.time_ms, run.time_source
    if run.output is None:
        res.error_kind, res.error = run.error_kind, run.error
        return res
    moves = run.output.moves
    if mirror_empty:
        moves = mirror_empty_board_moves(pos.board, moves)
    res.theirs_count = len({m.placements for m in moves})
    res.missing, res.extra, res.score_differs = compare_moves(pos, ours, moves, lexicon, check_limit)
    res.status = "different" if res.differences else "same"
    return res


# ---------------------------------------------------------------------------
# reports
# ---------------------------------------------------------------------------
def _ms(v: float | None) -> str:
    return "no time" if v is None else (f"{v:.3f} ms" if v < 10 else f"{v:.1f} ms")


def _move_line(d: dict, kind: str) -> str:
    theirs = "-" if d["theirs"] is None else "/".join(str(s) for s in d["theirs"])
    ours = "-" if d["ours"] is None else str(d["ours"])
    line = f"    {d['notation']:<24} ours {ours:>4}  theirs {theirs:>4}  {d['placements']}"
    if d.get("peer_text") and kind != "missing":
        line += f"\n        peer wrote: {d['peer_text']}"
    if d.get("checker"):
        line += f"\n        our word checker: {d['checker']}"
    return line


def format_position(res: PositionResult, limit: int = 10) -> str:
    """Report lines for one position: a one-line verdict; for a difference or a failure
    also the CGP, and up to ``limit`` moves of each kind."""
    times = f"ours {_ms(res.ours_ms)}, theirs {_ms(res.theirs_ms)}"
    if res.status == "same":
        return f"{res.id}: same ({res.ours_count} placements; {res.cls}; {times})"
    if res.status == "not compared":
        return f"{res.id}: NOT COMPARED ({res.error_kind}): {res.error}\n  cgp: {res.cgp}"
    out = [f"{res.id}: DIFFERENT: {len(res.missing)} missing, {len(res.extra)} extra, "
           f"{len(res.score_differs)} score differs (ours {res.ours_count} placements, theirs "
           f"{res.theirs_count}; {res.cls}; {times})",
           f"  cgp: {res.cgp}"]
    for kind, title, lst in (("missing", "missing (we generate, the peer does not)", res.missing),
                             ("extra", "extra (the peer gives, we do not)", res.extra),
                             ("score", "score differs", res.score_differs)):
        if not lst:
            continue
        more = f", first {limit}" if len(lst) > limit else ""
        out.append(f"  {title}: {len(lst)}{more}")
        out.extend(_move_line(d, kind) for d in lst[:limit])
    return "\n".join(out)


def _timing_rows(results: list[PositionResult]) -> list[tuple[str, int, float, float, float]]:
    timed = [r for r in results if r.ours_ms is not None and r.theirs_ms is not None]
    groups: dict[str, list[PositionResult]] = {}
    for r in timed:
        groups.setdefault(r.cls, []).append(r)
    rows = []
    for cls in sorted(groups, key=_class_key) + (["all"] if timed else []):
        rs = timed if cls == "all" else groups[cls]
        ours = median(r.ours_ms for r in rs)
        theirs = median(r.theirs_ms for r in rs)
        rows.append((cls, len(rs), ours, theirs, ours / theirs if theirs > 0 else float("inf")))
    return rows


def summary_dict(results: list[PositionResult]) -> dict:
    """The run's counts and per-class timing medians as a dict (also in the JSON report)."""
    not_compared: dict[str, int] = {}
    for r in results:
        if r.status == "not compared":
            not_compared[r.error_kind] = not_compared.get(r.error_kind, 0) + 1
    return {
        "positions": len(results),
        "compared": sum(r.status != "not compared" for r in results),
        "same": sum(r.status == "same" for r in results),
        "with_differences": sum(r.status == "different" for r in results),
        "not_compared": sum(r.status == "not compared" for r in results),
        "not_compared_by_reason": not_compared,
        "missing": sum(len(r.missing) for r in results),
        "extra": sum(len(r.extra) for r in results),
        "score_differs": sum(len(r.score_differs) for r in results),
        "timing": [{"class": c, "positions": n, "ours_ms": o, "theirs_ms": t, "ratio": q}
                   for c, n, o, t, q in _timing_rows(results)],
    }


def format_summary(results: list[PositionResult], peer_description: str = "", repeat: int = 5) -> str:
    """The closing summary: counts, reasons for positions not compared, timing per class."""
    s = summary_dict(results)
    out = ["", "== summary"]
    if peer_description:
        out.append(f"peer: {peer_description}")
    out.append(f"positions: {s['positions']}; compared: {s['compared']} ({s['same']} same, "
               f"{s['with_differences']} with differences: {s['missing']} missing, {s['extra']} extra, "
               f"{s['score_differs']} score differs); could not be compared: {s['not_compared']}")
    for r in results:
        if r.status == "not compared":
            out.append(f"  {r.id}: {r.error_kind}: {r.error}")
    if not s["timing"]:
        out.append("timing: no position with both times")
        return "\n".join(out)
    sources = {r.time_source for r in results if r.theirs_ms is not None}
    out.append(f"timing (ms, medians over positions): ours = in-process generate_moves, median of {repeat} "
               f"run{'s' if repeat != 1 else ''} after a warm-up; theirs = "
               + {frozenset({"reported"}): "the time the peer reported",
                  frozenset({"file"}): "the times of --peer-timings",
                  frozenset({"wall"}): "wall time of the peer process (process start-up and "
                                       "lexicon loading included, so the ratio flatters us)",
                  }.get(frozenset(sources), "the peer's reported time where it gave one, else the wall time "
                                            "of its process (start-up included), or --peer-timings"))
    out.append(f"  {'class':<12} {'n':>3} {'ours_ms':>10} {'theirs_ms':>10} {'ours/theirs':>11}")
    for t in s["timing"]:
        out.append(f"  {t['class']:<12} {t['positions']:>3} {t['ours_ms']:>10.3f} {t['theirs_ms']:>10.3f} "
                   f"{t['ratio']:>11.3g}")
    return "\n".join(out)


def run_compare(positions: list[tuple[str, str]], peer, lexicon: Lexicon, *, repeat: int = 5, limit: int = 10,
                out=None, mirror_empty: bool = False, allow_impossible: bool = False) -> list[PositionResult]:
    """Compare every position (:func:`compare_position`), printing each result as it comes and the summary.

    Args:
        positions: ``[(id, cgp), ...]``.
        peer: a :class:`engine.compare.peers.CommandPeer` or :class:`engine.compare.peers.DirectoryPeer`
            (anything with ``run(id, cgp, board) -> PeerRun`` and ``description``).
        lexicon: our lexicon.
        repeat: timed runs of our generator per position.
        limit: moves of each kind printed (and checked by the word checker) per position.
        out: text stream for the report (``None``: nothing printed).
        mirror_empty: see :func:`compare_position`.
        allow_impossible: compare composed positions with more of a tile than the set holds.

    Returns:
        the per-position results.
    """
    results = []
    for pid, cgp in positions:
        res = compare_position(pid, cgp, peer, lexicon, repeat, check_limit=limit, mirror_empty=mirror_empty,
                               allow_impossible=allow_impossible)
        results.append(res)
        if out is not None:
            print(format_position(res, limit), file=out, flush=True)
    if out is not None:
        print(format_summary(results, getattr(peer, "description", ""), repeat), file=out, flush=True)
    return results


# ---------------------------------------------------------------------------
# baselines
# ---------------------------------------------------------------------------
SUMMARY_HEADER = ("id", "tiles_on_board", "rack", "bag", "placements", "exchanges", "top_score", "top_move")


def _summary_rack(pos: Position) -> str:
    """The rack as the golden summary writes it: letters in Unicode order (A-Z, then Ä Ö Ü), blanks last."""
    rack = pos.rack_string
    return "".join(sorted(ch for ch in rack if ch != "?")) + "?" * rack.count("?")


def write_baselines(positions: list[tuple[str, str]], lexicon: Lexicon, outdir: str | Path,
                    progress=None, allow_impossible: bool = False) -> list[tuple]:
    """Write complete move lists in the golden format: ``OUTDIR/ID.tsv`` and ``OUTDIR/summary.tsv``.

    Each ``ID.tsv`` line is ``NOTATION<TAB>SCORE<TAB>PLACEMENTS``, sorted by score
    (descending), then notation (Python string order, as the golden lists);
    a position without a placement gets an empty file. ``summary.tsv`` has the
    columns of :data:`SUMMARY_HEADER` (the rack's letters in Unicode order, A-Z then
    Ä Ö Ü, blanks last, as in the golden summary; top score 0 and top move ``-`` when there is
    no placement; ``bag`` empty when the CGP does not say and it cannot be computed).

    Every file is written atomically (temp file, fsync, rename; the temp file is
    removed on failure), so a full disk or a kill never leaves a truncated
    ``ID.tsv`` that ``compare --peer-dir`` could read as a short move list.

    Raises:
        CGPError: a malformed or (without ``allow_impossible``) impossible CGP (names the position).
        lexicon_tools.normalize.WordListError: a file cannot be written (names the file; a ValueError).
        OSError: the directory cannot be created.
    """
    from lexicon_tools.normalize import write_atomic

    from engine.movegen.generator import exchanges, generate_moves

    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for pid, cgp in positions:
        try:
            pos = parse_cgp(cgp, allow_impossible=allow_impossible)
        except CGPError as exc:
            raise CGPError(f"position {pid}: {exc}") from None
        moves = generate_moves(pos.board, pos.rack, lexicon).sorted()
        write_atomic(out / f"{pid}.tsv", (f"{m.notation}\t{m.score}\t{m.placements}" for m in moves))
        bag = pos.bag_count
        exch = exchanges(pos.rack, pos.alphabet, bag)
        top = moves[0] if moves else None
        rows.append((pid, pos.board.tile_count, _summary_rack(pos), "" if bag is None else bag, len(moves), len(exch),
                     top.score if top else 0, top.notation if top else "-"))
        if progress:
            progress(f"{pid}: {len(moves)} placements")
    write_atomic(out / "summary.tsv", ["\t".join(SUMMARY_HEADER)] + ["\t".join(str(v) for v in row) for row in rows])
    return rows


# ---------------------------------------------------------------------------
# command line
# ---------------------------------------------------------------------------
def _note(msg: str) -> None:
    print(f"note: {msg}", file=sys.stderr)


def _select(positions: list[tuple[str, str]], only: str | None) -> list[tuple[str, str]]:
    if not only:
        return positions
    want = [s.strip() for s in only.split(",") if s.strip()]
    known = dict(positions)
    unknown = [w for w in want if w not in known]
    if unknown:
        raise ValueError(f"--only: unknown position id(s) {', '.join(unknown)}")
    return [(w, known[w]) for w in want]


def _read_timings(path: str, column: str | None) -> dict[str, float]:
    lines = [ln for ln in Path(path).read_text(encoding="utf-8").splitlines() if ln.strip()]
    if not lines:
        raise ValueError(f"--peer-timings {path}: empty file")
    header = lines[0].split("\t")
    cols = [c for c in header[1:] if c.endswith("_ms")]
    if column is None:
        raise ValueError(f"--peer-timings needs --peer-timings-column, one of: {', '.join(cols) or header[1:]}")
    if column not in header:
        raise ValueError(f"--peer-timings {path}: no column {column!r} (columns: {', '.join(header)})")
    k = header.index(column)
    out = {}
    for n, ln in enumerate(lines[1:], 2):
        f = ln.split("\t")
        try:
            out[f[0]] = float(f[k])
        except (IndexError, ValueError):
            raise ValueError(f"--peer-timings {path} line {n}: no number in column {column!r}") from None
    return out


def cmd_compare(args) -> int:
    """``compare``: exit 0 when every position was compared and none differs, 1 otherwise, 2 on bad usage."""
    if args.repeat < 0:
        raise ValueError(f"--repeat must be at least 0, got {args.repeat}")
    if args.limit < 0:
        raise ValueError(f"--limit must be at least 0, got {args.limit}")
    positions = _select(read_positions(args.positions), args.only)
    lexicon = load_lexicon(args.lexicon, progress=_note)
    if args.peer is not None:
        if args.peer_timings:
            raise ValueError("--peer-timings goes with --peer-dir (a running peer is timed in this run)")
        subs = {"lexicon": str(args.peer_lexicon or lexicon.path)}
        peer = CommandPeer(args.peer, args.peer_format or "auto", args.timeout, subs, args.peer_repeat)
    else:
        timings = _read_timings(args.peer_timings, args.peer_timings_column) if args.peer_timings else None
        peer = DirectoryPeer(args.peer_dir, args.peer_format, timings)
    results = run_compare(positions, peer, lexicon, repeat=args.repeat, limit=args.limit, out=sys.stdout,
                          mirror_empty=args.mirror_empty, allow_impossible=args.allow_impossible)
    if args.json_report:
        from lexicon_tools.normalize import write_atomic

        report = {"peer": peer.description, "summary": summary_dict(results),
                  "positions": [asdict(r) for r in results]}
        write_atomic(args.json_report, json.dumps(report, ensure_ascii=False, indent=1) + "\n")
    ok = all(r.status == "same" for r in results)
    return 0 if ok else 1


def cmd_baselines(args) -> int:
    """``baselines``: write OUT/ID.tsv move lists and OUT/summary.tsv; exit 0, or 2 on bad input."""
    positions = _select(read_positions(args.positions), args.only)
    lexicon = load_lexicon(args.lexicon, progress=_note)
    rows = write_baselines(positions, lexicon, args.out, allow_impossible=args.allow_impossible)
    print(f"wrote {len(rows)} move lists ({sum(r[4] for r in rows)} placements) and summary.tsv to {args.out}")
    return 0


_COMPARE_EPILOG = """\
examples:
  # our engine in another checkout (or version) as the peer, one process per position:
  python -m engine compare tests/data/positions.tsv --lexicon LEX \\
      --peer '/other/.venv/bin/python -m engine moves --json --lexicon {lexicon} --cgp {cgp}' \\
      --peer-format engine-json
  # outputs captured elsewhere (ID.txt / ID.json / ID.tsv), e.g. the golden lists:
  python -m engine compare tests/data/positions.tsv --lexicon LEX --peer-dir tests/data/golden_moves

placeholders in --peer: {cgp} {id} {python} {lexicon}; without {cgp} the CGP goes to stdin.
formats: """ + ", ".join(FORMATS) + """ (details: docs/compare.md).
exit code: 0 all positions compared and identical, 1 differences or positions not compared, 2 usage error."""


def add_parser(subparsers) -> None:
    """Register the ``compare`` and ``baselines`` subcommands (plug-in hook of :mod:`engine.cli.main`)."""
    sp = subparsers.add_parser(
        "compare", help="compare our move lists and speed with another generator's",
        description="Run another move generator on the same positions and compare the sets of "
                    "(placed tiles, score) position by position; time both.",
        epilog=_COMPARE_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    sp.add_argument("positions", help="position set: ID<TAB>CGP lines, or plain CGP lines (id = line number)")
    g = sp.add_mutually_exclusive_group(required=True)
    g.add_argument("--peer", metavar="CMD", help="peer command line, run once per position")
    g.add_argument("--peer-dir", metavar="DIR", help="read stored peer outputs DIR/ID.{tsv,json,txt}")
    sp.add_argument("--peer-format", choices=list(FORMATS), default=None,
                    help="adapter for the peer's output (default: auto)")
    sp.add_argument("--timeout", type=float, default=60.0, metavar="S", help="seconds per position (default 60)")
    sp.add_argument("--lexicon", help="our lexicon bundle (default: the packaged German list)")
    sp.add_argument("--peer-lexicon", metavar="PATH", help="value of {lexicon} in --peer (default: our lexicon's path)")
    sp.add_argument("--repeat", type=int, default=5, metavar="N",
                    help="timed runs of our generator per position after a warm-up (default 5)")
    sp.add_argument("--peer-repeat", type=int, default=1, metavar="N",
                    help="runs of the peer per position; its time is the median (default 1)")
    sp.add_argument("--limit", type=int, default=10, metavar="K",
                    help="moves of each kind of difference printed per position (default 10)")
    sp.add_argument("--only", metavar="IDS", help="comma-separated position ids to compare")
    sp.add_argument("--peer-timings", metavar="TSV",
                    help="with --peer-dir: per-position peer times (e.g. golden peer_timings.tsv)")
    sp.add_argument("--peer-timings-column", metavar="COL", help="column of --peer-timings, e.g. wolges_ms")
    sp.add_argument("--json-report", metavar="FILE", help="also write every result as JSON")
    sp.add_argument("--mirror-empty", action="store_true",
                    help="on an empty board, add the transposed copy of each peer move (wolges generates "
                         "only across openings there)")
    add_allow_impossible(sp)
    sp.set_defaults(func=cmd_compare)

    bp = subparsers.add_parser(
        "baselines", help="write complete move lists in the golden TSV format",
        description="Write OUT/ID.tsv (NOTATION<TAB>SCORE<TAB>PLACEMENTS, by score then notation) "
                    "for every position and OUT/summary.tsv.")
    bp.add_argument("positions", help="position set: ID<TAB>CGP lines, or plain CGP lines (id = line number)")
    bp.add_argument("-o", "--out", required=True, metavar="DIR", help="output directory")
    bp.add_argument("--lexicon", help="lexicon bundle (default: the packaged German list)")
    bp.add_argument("--only", metavar="IDS", help="comma-separated position ids")
    add_allow_impossible(bp)
    bp.set_defaults(func=cmd_baselines)
