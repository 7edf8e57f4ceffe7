"""Command line for the lexicon tools: ``lexicon-tools`` / ``python -m lexicon_tools``.

Subcommands::

    normalize WORDLIST -o OUT [--rejects FILE] [--encoding ENC]
    build     WORDLIST -o LEXICON [--encoding ENC] [--format auto|kwg|wide] [--no-verify] [-q]
    build     --default -o LEXICON
    info      [LEXICON] [--json]
    check     [--lexicon LEXICON] WORD...
    anagram   RACK [--lexicon LEXICON] [--min-length N]
    pattern   PATTERN [--lexicon LEXICON]

Exit codes: 0 success; 1 ``check`` found an invalid word; 141 the reader of
the output went away (``| head``), no message; 2 any error (a
one-line ``error: ...`` on stderr, never a traceback -- set
``LEXICON_TOOLS_DEBUG=1`` to see the traceback of an unexpected error).
Look-up commands use the default lexicon (built from the packaged list into
the cache on first use) when ``--lexicon`` is not given.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Sequence

# The commands use no BLAS; without this, NumPy's OpenBLAS starts a thread per core at import that
# spins on a CPU for a while (4 % of a lexicon build's CPU time). This module is the command line's
# (nothing else imports it); set before NumPy is imported (by .alphabet below); a value the user set is kept.
if "numpy" not in sys.modules:
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from . import __version__
from .argcheck import empty_value_option
from .alphabet import Alphabet
from .bundle import (
    DEFAULT_WORDS,
    KWG_FILE,
    META_FILE,
    TRIE_FILE,
    Lexicon,
    LexiconError,
    build_bundle,
    cache_dir,
    default_words_path,
    sha256_file,
    load_lexicon,
    read_packaged_words,
)
from .kwg import MAX_NODES, GraphError, layout_of
from .normalize import (
    MAX_LEN,
    MIN_LEN,
    NormalizeResult,
    WordListError,
    normalize_entry,
    normalize_lines,
    normalize_path,
    write_rejects,
    write_words,
)

EXIT_OK = 0
EXIT_INVALID = 1
EXIT_ERROR = 2

REASON_TEXT = {
    "empty": "empty entry",
    "hyphen": "contains a hyphen, not a single word",
    "apostrophe": "contains an apostrophe",
    "dot": "contains a dot, e.g. an abbreviation",
    "digit": "contains a digit",
    "space": "contains a space, not a single word",
    "symbol": "contains a character that is not a letter of the tile set",
    "too_short": f"shorter than {MIN_LEN} letters",
    "too_long": f"longer than {MAX_LEN} letters",
}


class CliError(Exception):
    """A user-facing error: printed as ``error: <message>``, exit code 2."""


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------
def _err(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def _peak_rss_mb() -> float:
    """Peak resident memory of this process in MB (``ru_maxrss``)."""
    try:
        import resource
    except ImportError:  # Windows
        return float("nan")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # Linux reports KiB, macOS bytes.
    return rss / (1024 * 1024) if sys.platform == "darwin" else rss / 1024


def _size(n: int) -> str:
    """``1,234,567 bytes (1.2 MiB)``; no unit in parentheses below 1 KiB."""
    return f"{n:,} bytes" + (f" ({_human_bytes(n)})" if n >= 1024 else "")


def _human_bytes(n: int) -> str:
    if n < 1024:
        return f"{n} B"
    for unit in ("KiB", "MiB", "GiB"):
        n /= 1024
        if n < 1024 or unit == "GiB":
            return f"{n:.1f} {unit}"
    return f"{n} B"  # pragma: no cover


def _check_output_path(out: Path, what: str, bundle: bool = False) -> None:
    """Fail fast (before any expensive work) when ``out`` cannot be written."""
    parent = out.parent if str(out.parent) else Path(".")
    if not parent.is_dir():
        raise CliError(f"cannot write {what} {str(out)!r}: directory {str(parent)!r} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise CliError(f"cannot write {what} {str(out)!r}: directory {str(parent)!r} is not writable")
    if bundle:
        if out.exists() and not (out.is_dir() and (out / META_FILE).exists()):
            raise CliError(f"cannot write {what} {str(out)!r}: exists and is not a lexicon bundle; "
                           "refusing to overwrite")
    elif out.is_dir():
        raise CliError(f"cannot write {what} {str(out)!r}: it is a directory")


def _reason_summary(result: NormalizeResult) -> list[str]:
    lines = []
    for reason, n in result.reason_counts.items():
        label = f"  {reason}"
        lines.append(f"{label:<19}{n:>9,}  ({REASON_TEXT.get(reason, reason)})")
    return lines


def _no_words_error(source: str, result: NormalizeResult) -> CliError:
    if result.lines == 0:
        return CliError(f"word list {source!r}: no entries (the file is empty or holds only comments)")
    reasons = ", ".join(f"{r} {n:,}" for r, n in result.reason_counts.items())
    first = ""
    if result.rejects:
        raw, line, reason = result.rejects[0]
        first = f"; first: line {line} {raw[:40]!r} ({REASON_TEXT.get(reason, reason)})"
    return CliError(f"word list {source!r}: no valid word among {result.lines:,} entries "
                    f"(all rejected: {reasons}){first}")


class _ReadProgress:
    """A tqdm bar over the bytes of the input file (reading and normalising are one pass)."""

    def __init__(self, path: Path, quiet: bool) -> None:
        self.bar = None
        if quiet:
            return
        from tqdm import tqdm

        try:
            total = path.stat().st_size
        except OSError:
            total = None
        # disable=None: no bar when stderr is not a terminal (logs stay clean)
        self.bar = tqdm(total=total, unit="B", unit_scale=True, unit_divisor=1024, desc="reading + normalising",
                        file=sys.stderr, disable=None, leave=False, mininterval=0.5)

    def __call__(self, done: int, total: int) -> None:
        if self.bar is not None and not self.bar.disable:
            self.bar.update(done - self.bar.n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _read_normalised(src: Path, encoding: str | None, quiet: bool, keep_rejects: bool) -> NormalizeResult:
    """Stream ``src`` through the normaliser with a progress bar; warnings (no final newline) on stderr."""
    bar = _ReadProgress(src, quiet)
    try:
        return normalize_path(src, encoding, keep_rejects=keep_rejects, progress=bar,
                              on_warning=lambda m: _err(f"warning: {m}"))
    finally:
        bar.close()


FIRST_USE_CPU = "about 40 s of CPU"
"""The first-use build of the default lexicon, measured (docs/lexicon-cli.md "First use")."""


def _open_lexicon(path: str | None, verify: bool = False) -> Lexicon:
    """``--lexicon`` or the default lexicon (noting on stderr when it is being built)."""
    def note(msg: str) -> None:
        if msg.startswith("building"):
            _err(f"note: {msg} into {cache_dir()}; this takes {FIRST_USE_CPU} once ...")
        else:
            _err(f"note: {msg}")

    return load_lexicon(path, progress=note, verify=verify)


class _Stages:
    """Stage lines on stderr: ``[  1.2s] graph``."""

    def __init__(self, quiet: bool = False) -> None:
        self.t0 = time.perf_counter()
        self.quiet = quiet

    def __call__(self, msg: str) -> None:
        if not self.quiet:
            _err(f"[{time.perf_counter() - self.t0:6.1f}s] {msg}")

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.t0


_BUNDLE_STAGES = {"graph": "building graph (DAWG + GADDAG)", "verify": "verifying graph",
                  "write": "writing bundle"}


# ---------------------------------------------------------------------------
# normalize
# ---------------------------------------------------------------------------
def cmd_normalize(args: argparse.Namespace) -> int:
    src = Path(args.wordlist)
    out = Path(args.output)
    _check_output_path(out, "word list")
    if args.rejects:
        _check_output_path(Path(args.rejects), "rejects report")
    result = _read_normalised(src, args.encoding, quiet=False, keep_rejects=bool(args.rejects))
    if not result.words:
        raise _no_words_error(str(src), result)
    write_words(out, result.words)
    if args.rejects:
        write_rejects(args.rejects, result.rejects)
    print(f"entries read       {result.lines:>9,}")
    print(f"rejected           {result.rejected:>9,}")
    for line in _reason_summary(result):
        print(line)
    print(f"duplicates merged  {result.duplicates:>9,}")
    print(f"words kept         {len(result.words):>9,}")
    print(f"wrote {out}")
    if args.rejects:
        print(f"wrote {args.rejects} (entry, line, reason)")
    return EXIT_OK


# ---------------------------------------------------------------------------
# build
# ---------------------------------------------------------------------------
def cmd_build(args: argparse.Namespace) -> int:
    if args.default and args.wordlist:
        raise CliError("give either WORDLIST or --default, not both")
    if not args.default and not args.wordlist:
        raise CliError("build needs a WORDLIST (or --default for the packaged list)")
    out = Path(args.output)
    _check_output_path(out, "lexicon", bundle=True)
    stage = _Stages(args.quiet)
    result: NormalizeResult | None = None
    if args.default:
        src = default_words_path()
        if not src.is_file():
            raise CliError(f"{src}: the packaged default word list is missing (broken installation)")
        stage(f"reading packaged list {DEFAULT_WORDS}")
        raw = read_packaged_words(src)
        stage(f"normalising {len(raw):,} entries")
        result = normalize_lines(enumerate(raw, 1))
        source_name = f"packaged:{DEFAULT_WORDS}"
    else:
        src = Path(args.wordlist)
        stage(f"reading and normalising {src}")
        result = _read_normalised(src, args.encoding, args.quiet, keep_rejects=False)
        stage(f"read {result.lines:,} entries")
        source_name = src.name
    if not result.words:
        raise _no_words_error(str(src), result)
    if result.rejected and not args.quiet:
        reasons = ", ".join(f"{r} {n:,}" for r, n in result.reason_counts.items())
        stage(f"rejected {result.rejected:,} ({reasons}), merged {result.duplicates:,} duplicates; "
              "list them with `lexicon-tools normalize --rejects FILE`")
    sha = sha256_file(src)
    lex = build_bundle(result.words, out, source_name=source_name, source_sha256=sha,
                       verify=not args.no_verify, format=args.format,
                       progress=lambda name: stage(_BUNDLE_STAGES.get(name, name)))
    graph_file = lex.meta["kwg"]["file"]
    if lex.layout == "wide" and args.format == "auto":
        stage(f"the graph has {int(lex.meta['kwg']['nodes']):,} nodes, more than a KWG holds ({MAX_NODES:,}): "
              f"wrote the wide variant {graph_file} (uint64 nodes; read by this engine, not by wolges/MAGPIE)")
    stage("done")
    seconds = stage.elapsed
    kwg_bytes = (out / graph_file).stat().st_size
    print(f"words        {lex.word_count:,}")
    print(f"time         {seconds:.2f} s")
    print(f"peak memory  {_peak_rss_mb():.0f} MB")
    print(f"nodes        {int(lex.meta['kwg']['nodes']):,}")
    print(f"{graph_file:<12} {_size(kwg_bytes)}")
    print(f"verified     {'no (--no-verify)' if args.no_verify else 'yes'}")
    print(f"lexicon      {out}")
    _compile_builder_ahead_of_time()
    return EXIT_OK


def _compile_builder_ahead_of_time() -> None:
    """After a build with the JIT kernels: compile the builder's kernels ahead of time, once
    (``lexicon_tools._build_aot``), so that later builds skip Numba's start-up."""
    from . import _build_aot

    if _build_aot.kernels().aot or not _build_aot.needs_build():
        return
    sys.stdout.flush()
    from . import _aot

    so = _build_aot._paths(_build_aot.key())[1]
    why = _aot.problem(so)
    if why not in (None, "missing"):  # truncated or altered since it was built: not loaded, built again
        _err(f"note: the compiled lexicon builder {so} is damaged ({why}); the JIT kernels built this lexicon")
    _build_aot.build(progress=lambda m: _err(f"note: {m}"))


# ---------------------------------------------------------------------------
# info
# ---------------------------------------------------------------------------
def _info_dict(lex: Lexicon) -> dict:
    if lex.meta:
        return {"path": str(lex.path), **lex.meta}
    # a bare .kwg file
    return {
        "path": str(lex.path),
        "format": "kwg",
        "word_count": lex.word_count,
        "alphabet": {"name": lex.alphabet.name, "letters": list(lex.alphabet.letters)},
        "kwg": {"file": lex.path.name, "layout": lex.layout, "nodes": int(lex.graph.shape[0]),
                "bytes": int(lex.graph.nbytes)},
    }


def cmd_info(args: argparse.Namespace) -> int:
    lex = _open_lexicon(args.lexicon, verify=args.verify)
    d = _info_dict(lex)
    if args.json:
        print(json.dumps(d, indent=2, ensure_ascii=False))
        return EXIT_OK
    rows: list[tuple[str, str]] = [("lexicon", d["path"])]
    if d.get("format") == "kwg":
        rows.append(("format", "bare wide graph (uint64 nodes; no metadata, no word store)" if lex.layout == "wide"
                     else "bare KWG graph (no metadata, no word store)"))
        rows.append(("checked", "structure, DAWG = GADDAG; words not verifiable (no word list)"))
    else:
        src = d.get("source", {})
        rows.append(("source", src.get("name") or "(unknown)"))
        rows.append(("source sha256", src.get("sha256") or "(not recorded)"))
    rows.append(("words", f"{d['word_count']:,}"))
    alpha = d.get("alphabet", {})
    letters = "".join(alpha.get("letters", []))
    rows.append(("alphabet", f"{alpha.get('name', '?')} ({len(letters)} letters: {letters})"))
    if d.get("format") != "kwg":
        rows.append(("built", f"{d.get('build_date', '?')} (graph in {d.get('build_seconds', '?')} s)"))
        rows.append(("format", f"{d.get('format')} version {d.get('format_version')}"))
    k = d.get("kwg", {})
    if k.get("layout") == "wide":
        rows.append(("graph", "wide variant (uint64 nodes, docs/kwg-format.md; this engine only)"))
    rows.append(("nodes", f"{int(k.get('nodes', 0)):,}"))
    rows.append((k.get("file", KWG_FILE), _size(int(k.get("bytes", 0)))
                 + (f", sha256 {k['sha256']}" if k.get("sha256") else "")))
    t = d.get("trie")
    if t:
        rows.append((t.get("file", TRIE_FILE), _size(int(t["bytes"]))))
    width = max(len(r[0]) for r in rows) + 2
    for key, value in rows:
        print(f"{key:<{width}}{value}")
    per_len = d.get("counts_per_length")
    if per_len:
        print("counts per length (letters, words):")
        top = max(per_len.values())
        for n, c in per_len.items():
            bar = "#" * max(1, round(30 * c / top)) if c else ""
            print(f"  {int(n):>2}  {c:>9,}  {bar}")
    return EXIT_OK


# ---------------------------------------------------------------------------
# check
# ---------------------------------------------------------------------------
def cmd_check(args: argparse.Namespace) -> int:
    lex = _open_lexicon(args.lexicon, verify=args.verify)
    all_ok = True
    for raw in args.words:
        word, reason = normalize_entry(raw, lex.alphabet)
        if word is None:
            all_ok = False
            print(f"{raw} invalid: {reason} ({REASON_TEXT.get(reason, reason)})")
        elif word in lex:
            print(f"{word} valid")
        else:
            all_ok = False
            print(f"{word} invalid")
    return EXIT_OK if all_ok else EXIT_INVALID


# ---------------------------------------------------------------------------
# anagram
# ---------------------------------------------------------------------------
def parse_rack(rack: str, alphabet: Alphabet) -> tuple[list[int], int]:
    """Rack string → (per-code letter counts, blanks). ``?`` is a blank; ß counts as SS.

    Unlike :meth:`Alphabet.parse_rack` there is no 7-tile or bag limit: any
    number of letters is allowed (useful for 8-15 letter anagram searches).

    Raises:
        ValueError: an empty rack or a character that is neither a letter nor ``?``.
    """
    counts = [0] * (alphabet.size + 1)
    blanks = 0
    for ch in rack.strip():
        if ch == "?":
            blanks += 1
            continue
        up = ch.upper()  # 'ß'.upper() == 'SS'
        for c in up:
            if not alphabet.is_word_chars(c):
                raise ValueError(f"rack {rack!r}: {alphabet.not_a_letter(ch)} "
                                 "or '?' (blank)")
            counts[alphabet.code(c)] += 1
    if sum(counts) + blanks == 0:
        raise ValueError("empty rack: give letters, '?' for a blank")
    return counts, blanks


def anagrams(lex: Lexicon, rack: str, min_length: int = MIN_LEN, limit: int | None = None) -> list[str]:
    """Words that can be made from (a subset of) the rack, by walking the DAWG.

    A blank (``?``) stands for any letter and is shown in lowercase. Real tiles
    are used before blanks (if a word can be made at all, it can be made that
    way), so each word appears once. Sorted by length (longest first), then in
    the tile set's alphabetical order. The walk is bounded: its depth by the
    rack and the graph (validated on load: at most 15 letters, no cycle), its
    results by the lexicon's words, or by ``limit``.

    Raises:
        ValueError: a bad rack, or more than ``limit`` words.
    """
    alphabet = lex.alphabet
    counts, blanks = parse_rack(rack, alphabet)
    g = lex.graph
    lay = layout_of(g)
    shift, accepts, is_end, arc_mask = lay.tile_shift, lay.accepts, lay.is_end, lay.arc_mask
    upper = ("",) + tuple(alphabet.letters)
    lower = ("",) + tuple(ch.lower() for ch in alphabet.letters)
    path: list[str] = []
    found: list[str] = []

    def walk(p: int, left: int, blanks: int) -> None:
        # p: first node of an arc list; left: tiles still on the rack (incl. blanks)
        while True:
            v = int(g[p])
            t = v >> shift
            if 0 < t < len(counts):
                if counts[t]:
                    counts[t] -= 1
                    path.append(upper[t])
                    _arc(v, left - 1, blanks)
                    path.pop()
                    counts[t] += 1
                elif blanks:
                    path.append(lower[t])
                    _arc(v, left - 1, blanks - 1)
                    path.pop()
            if v & is_end:
                return
            p += 1

    def _arc(v: int, left: int, blanks: int) -> None:
        if v & accepts and len(path) >= min_length:
            found.append("".join(path))
            if limit is not None and len(found) > limit:
                raise ValueError(f"rack {rack!r}: more than {limit:,} words; narrow it (or raise --limit)")
        child = v & arc_mask
        if child and left:
            walk(child, left, blanks)

    root = int(g[0]) & arc_mask
    if root:
        walk(root, sum(counts) + blanks, blanks)
    order = {ch: i for i, ch in enumerate(alphabet.letters)}
    found.sort(key=lambda w: (-len(w), [order[c.upper()] for c in w]))
    return found


def cmd_anagram(args: argparse.Namespace) -> int:
    if args.min_length < 1:
        raise CliError("--min-length must be at least 1")
    lex = _open_lexicon(args.lexicon)
    if args.limit is not None and args.limit < 1:
        raise CliError("--limit must be at least 1")
    words = anagrams(lex, args.rack, args.min_length, args.limit)
    for w in words:
        print(w)
    if not words:
        _err(f"no words from rack {args.rack!r}")
    return EXIT_OK


# ---------------------------------------------------------------------------
# pattern
# ---------------------------------------------------------------------------
def cmd_pattern(args: argparse.Namespace) -> int:
    lex = _open_lexicon(args.lexicon)
    if args.limit is not None and args.limit < 1:
        raise CliError("--limit must be at least 1")
    words = lex.pattern(args.pattern, limit=args.limit)
    for w in words:
        print(w)
    if not words:
        _err(f"no words match {args.pattern!r}")
    return EXIT_OK


# ---------------------------------------------------------------------------
# parser and entry point
# ---------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="lexicon-tools",
        description="Normalise German word lists, build KWG lexicon bundles and look words up.",
        epilog="Exit codes: 0 ok, 1 `check` found an invalid word, 2 error.",
    )
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True)

    s = sub.add_parser("normalize", help="normalise a word list to the board alphabet",
                       description="Normalise a word list (ß→SS, accents dropped, Ä Ö Ü kept, "
                                   "one word of 2-15 letters per entry); write the clean sorted list.")
    s.add_argument("wordlist", metavar="WORDLIST", help="input list, one entry per line (may be .xz/.gz)")
    s.add_argument("-o", "--output", required=True, metavar="OUT",
                   help="clean list to write (xz-compressed if it ends in .xz)")
    s.add_argument("--rejects", metavar="FILE", help="write rejected entries as TSV (entry, line, reason)")
    s.add_argument("--encoding", metavar="ENC", help="input encoding (default UTF-8), e.g. latin-1")
    s.set_defaults(func=cmd_normalize)

    s = sub.add_parser("build", help="build a lexicon bundle (KWG graph + word store + metadata)",
                       description="Normalise a word list and build a lexicon bundle directory.")
    s.add_argument("wordlist", metavar="WORDLIST", nargs="?", help="input list (raw is fine; may be .xz/.gz)")
    s.add_argument("--default", action="store_true", help="build the packaged default German list")
    s.add_argument("-o", "--output", required=True, metavar="LEXICON", help="bundle directory to write (NAME.lex)")
    s.add_argument("--encoding", metavar="ENC", help="input encoding (default UTF-8), e.g. latin-1")
    s.add_argument("--no-verify", action="store_true", help="skip checking the graph against the list")
    s.add_argument("--format", choices=("auto", "kwg", "wide"), default="auto",
                   help="graph layout: kwg (uint32, wolges' KWG, at most 4,194,303 nodes), wide (uint64 nodes, "
                        "any size, this engine only) or auto (kwg when it fits, else wide; the default)")
    s.add_argument("-q", "--quiet", action="store_true", help="no progress lines on stderr")
    s.set_defaults(func=cmd_build)

    s = sub.add_parser("info", help="show a lexicon's metadata")
    s.add_argument("lexicon", metavar="LEXICON", nargs="?", help="bundle or .kwg (default: the default lexicon)")
    s.add_argument("--json", action="store_true", help="print the metadata as JSON")
    s.add_argument("--verify", action="store_true",
                   help="check checksums and graph now, even if unchanged since the last check")
    s.set_defaults(func=cmd_info)

    lex_help = "bundle directory or .kwg file (default: the default lexicon)"
    s = sub.add_parser("check", help="check whether words are in the lexicon (exit 1 if any is not)")
    s.add_argument("words", metavar="WORD", nargs="+", help="words as written (normalised first)")
    s.add_argument("--lexicon", "-l", metavar="LEXICON", help=lex_help)
    s.add_argument("--verify", action="store_true",
                   help="check checksums and graph now, even if unchanged since the last check")
    s.set_defaults(func=cmd_check)

    s = sub.add_parser("anagram", help="words that can be made from a rack ('?' = blank)")
    s.add_argument("rack", metavar="RACK", help="letters, '?' for a blank (shown lowercase in the output)")
    s.add_argument("--lexicon", "-l", metavar="LEXICON", help=lex_help)
    s.add_argument("--min-length", "-m", type=int, default=MIN_LEN, metavar="N",
                   help=f"shortest word to list (default {MIN_LEN})")
    s.add_argument("--limit", type=int, metavar="N", help="refuse to list more than N words (exit 2)")
    s.set_defaults(func=cmd_anagram)

    s = sub.add_parser("pattern", help="words matching a pattern ('?' one letter, '*' any run)")
    s.add_argument("pattern", metavar="PATTERN", help="e.g. 'H?US*' (quote it in the shell)")
    s.add_argument("--lexicon", "-l", metavar="LEXICON", help=lex_help)
    s.add_argument("--limit", type=int, metavar="N", help="refuse to list more than N words (exit 2)")
    s.set_defaults(func=cmd_pattern)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (0 ok, 1 ``check`` invalid, 2 error)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        bad = empty_value_option(parser, args)
        if bad is not None:
            bad[0].error(f"argument {bad[1]}: expected one value, not '--'")
    except SystemExit as exc:  # --help, --version, usage errors (argparse prints them)
        return exc.code if isinstance(exc.code, int) else EXIT_ERROR
    try:
        try:
            return args.func(args)
        finally:
            sys.stdout.flush()  # a closed pipe shows here, inside the handler below
    except KeyboardInterrupt:
        _err("error: interrupted")
        return EXIT_ERROR
    except BrokenPipeError:
        # output piped into e.g. `head`: not an error worth a message
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 141  # 128 + SIGPIPE, quietly, like other Unix tools
    except (CliError, WordListError, LexiconError, GraphError, ValueError) as exc:
        _err(f"error: {exc}")
        return EXIT_ERROR
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        _err(f"error: {where}{exc.strerror or exc}")
        return EXIT_ERROR
    except MemoryError:
        _err("error: out of memory")
        return EXIT_ERROR
    except Exception as exc:  # never a traceback for the user
        if os.environ.get("LEXICON_TOOLS_DEBUG"):
            raise
        _err(f"error: unexpected {type(exc).__name__}: {exc} (set LEXICON_TOOLS_DEBUG=1 for a traceback)")
        return EXIT_ERROR


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
