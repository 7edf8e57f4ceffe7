"""Lexicon bundles: a KWG graph, a marisa-trie word store and metadata in one directory.

A bundle is a directory (conventionally ``NAME.lex``) holding::

    lexicon.kwg   the DAWG + GADDAG node array, little-endian uint32 (docs/kwg-format.md);
                  a list too large for a KWG has lexicon.kwg64 instead, the wide variant
                  (little-endian uint64 nodes, ``meta.json`` ``kwg.layout == "wide"``)
    words.marisa  marisa-trie of the normalised words (membership, prefix, pattern)
    meta.json     format, source file and hash, counts, alphabet, checksums

Loading memory-maps the graph and the trie and checks both against the
metadata, so a missing, truncated, corrupted or wrong-version file is reported
with its name before any Numba kernel sees it.

The full check (SHA-256 of both files, the structural check of the graph by
:func:`lexicon_tools.kwg.validate_kwg`) runs once per file change: its result
is kept in ``.verified.json`` inside the bundle (for a bare ``.kwg`` in the
cache directory), keyed by each file's device, inode, size, modification and
status-change times (``st_ctime_ns``, which no user call can set back). A later
load whose files still have the same keys skips the hashing and the kernel; any
write to a file, any ``touch``, copy, move onto it or ``chmod`` changes a key and
the next load checks everything again. What the cached check cannot see:
changes that bypass the file system (a damaged disk sector, writes to the raw
block device, a clock set back together with a forged inode), on file systems
that do not keep ``ctime``. ``Lexicon.load(path, verify=True)`` (``lexicon_tools
info --verify``) ignores the cached state and checks everything.
"""

from __future__ import annotations

import bisect
import errno
import itertools
import json
import operator
import os
import re
import sys
import time
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Iterable, Sequence

import marisa_trie
import numpy as np

from .alphabet import Alphabet, german
from ._verified import VERIFIER, VerifiedState, _umask, _write_json_atomic, file_key, remembered_sha256, sha256_file  # noqa: F401
from .paths import cache_dir  # noqa: F401  (re-exported: where built lexicons are kept)

FORMAT = "german-scrabble-lexicon"
FORMAT_VERSION = 1
KWG_FILE = "lexicon.kwg"
WIDE_FILE = "lexicon.kwg64"
"""The graph of a bundle in the wide layout (uint64 nodes, docs/kwg-format.md "The wide variant")."""
GRAPH_FILES = {"kwg": KWG_FILE, "wide": WIDE_FILE}
TRIE_FILE = "words.marisa"
META_FILE = "meta.json"
DEFAULT_WORDS = "default_words.txt.xz"
STATE_FILE = ".verified.json"


def _kwg():
    """:mod:`lexicon_tools.kwg`, imported on first use (it loads Numba, which a verified load does not need)."""
    from . import kwg

    return kwg


class LexiconError(ValueError):
    """A lexicon bundle or graph file that cannot be used; the message names the file."""


def _bare_state(path: Path, alphabet: Alphabet) -> VerifiedState:
    """Where the verified state of a bare ``.kwg`` lives: the cache directory, keyed by its real path."""
    import hashlib

    real = os.path.realpath(path)
    name = hashlib.sha256(real.encode("utf-8", "surrogateescape")).hexdigest()[:24]
    return VerifiedState(cache_dir() / "verified" / f"kwg-{name}.json",
                         {"path": real, "alphabet": "".join(alphabet.letters)})


@dataclass
class Lexicon:
    """A loaded lexicon: graph for move generation, trie for look-ups.

    Attributes:
        path: the bundle directory (or the bare ``.kwg`` file).
        kwg: ``(n_nodes,)`` node array, memory-mapped read-only: uint32 (KWG)
            or, for the wide variant, uint64.
        alphabet: the tile set the graph is encoded with.
        meta: the bundle's metadata (``{}`` for a bare ``.kwg``).
        trie: marisa-trie of the words, or ``None`` for a bare ``.kwg``.
    """

    path: Path
    kwg: np.ndarray
    alphabet: Alphabet
    meta: dict = field(default_factory=dict)
    trie: marisa_trie.Trie | None = None

    # -- loading --------------------------------------------------------------
    @classmethod
    def load(cls, path: str | os.PathLike, alphabet: Alphabet | None = None, *, verify: bool = False,
             progress=None) -> "Lexicon":
        """Load a bundle directory, or a bare ``.kwg`` file (e.g. made by wolges).

        The full check (checksums, graph structure; for a bare file also the
        agreement of GADDAG and DAWG) runs when a file changed since the last
        full check, or always with ``verify``; see the module docstring.

        Args:
            progress: optional callable given a note (e.g. that a bare graph has
                no word list to be verified against).

        Raises:
            LexiconError: missing path, missing/unreadable member file, unknown
                format or version, size or checksum mismatch (truncated or
                corrupted), or a graph that fails the structural check.
        """
        p = Path(path)
        if not p.exists():
            raise LexiconError(f"{p}: no such lexicon (build one with `python -m lexicon_tools build`)")
        if p.is_file():
            return cls._load_bare_kwg(p, alphabet or german(), verify=verify, progress=progress,
                                      layout="wide" if p.suffix == ".kwg64" else "kwg")
        meta_path = p / META_FILE
        if not meta_path.is_file():
            raise LexiconError(f"{p}: not a lexicon bundle ({META_FILE} missing)")
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise LexiconError(f"{meta_path}: unreadable metadata ({exc})") from None
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            raise LexiconError(f"{meta_path}: not a {FORMAT} bundle")
        if meta.get("format_version") != FORMAT_VERSION:
            raise LexiconError(
                f"{meta_path}: format version {meta.get('format_version')!r}, this program reads "
                f"version {FORMAT_VERSION}; rebuild the lexicon with `python -m lexicon_tools build`"
            )
        try:
            alphabet = alphabet or Alphabet.load(meta["alphabet"]["name"])
            if list(alphabet.letters) != list(meta["alphabet"]["letters"]):
                raise LexiconError(f"{meta_path}: alphabet differs from the {alphabet.set_label}")
            kmeta = meta["kwg"]
            layout = str(kmeta.get("layout", "kwg"))
            if layout not in GRAPH_FILES:
                raise LexiconError(f"{meta_path}: unknown graph layout {layout!r} (this program reads "
                                   f"{', '.join(GRAPH_FILES)})")
            tmeta = meta["trie"]
            expect_nodes, expect_kwg_sha = int(kmeta["nodes"]), str(kmeta["sha256"])
            expect_trie_bytes, expect_trie_sha = int(tmeta["bytes"]), str(tmeta["sha256"])
            expect_words = int(meta["word_count"]) if "word_count" in meta else None
        except LexiconError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise LexiconError(f"{meta_path}: metadata lacks or garbles {exc}") from None
        graph_file = GRAPH_FILES[layout]
        kwg_path = p / graph_file
        trie_path = p / TRIE_FILE
        for f in (kwg_path, trie_path):
            if not f.is_file():
                raise LexiconError(f"{f}: missing")
        files = {META_FILE: meta_path, graph_file: kwg_path, TRIE_FILE: trie_path}
        state = VerifiedState(p / STATE_FILE, {"alphabet": "".join(alphabet.letters)})
        keys = state.keys(files)
        checked = not verify and state.valid(keys)
        kwg = cls._map_kwg(kwg_path, alphabet, expect_nodes=expect_nodes, expect_sha=expect_kwg_sha,
                           check=not checked, expect_words=expect_words, layout=layout)
        if trie_path.stat().st_size != expect_trie_bytes:
            raise LexiconError(f"{trie_path}: {trie_path.stat().st_size} bytes, expected {expect_trie_bytes} (truncated?)")
        if not checked and sha256_file(trie_path) != expect_trie_sha:
            state.forget()
            raise LexiconError(f"{trie_path}: checksum mismatch (corrupted)")
        trie = marisa_trie.Trie()
        try:
            trie.mmap(str(trie_path))
        except Exception as exc:  # marisa raises RuntimeError/ValueError variants
            raise LexiconError(f"{trie_path}: unreadable word store ({exc})") from None
        if not checked:
            state.record(keys)  # a read-only bundle is simply checked again next time
        return cls(path=p, kwg=kwg, alphabet=alphabet, meta=meta, trie=trie)

    @classmethod
    def _map_kwg(cls, path: Path, alphabet: Alphabet, expect_nodes: int | None = None,
                 expect_sha: str | None = None, check: bool = True, expect_words: int | None = None,
                 language: bool = False, layout: str = "kwg") -> np.ndarray:
        if not path.is_file():
            raise LexiconError(f"{path}: missing")
        width = 8 if layout == "wide" else 4
        name = "wide graph" if layout == "wide" else "KWG"
        size = path.stat().st_size
        if size % width or size < 2 * width:
            raise LexiconError(f"{path}: {size} bytes is not a {name} node array of {width}-byte nodes (truncated?)")
        if expect_nodes is not None and size != width * expect_nodes:
            raise LexiconError(f"{path}: {size} bytes, expected {width * expect_nodes} (truncated?)")
        if check and expect_sha is not None and sha256_file(path) != expect_sha:
            raise LexiconError(f"{path}: checksum mismatch (corrupted)")
        native = np.uint64 if layout == "wide" else np.uint32
        kwg = np.memmap(path, dtype="<u8" if layout == "wide" else "<u4", mode="r")
        if kwg.dtype != native:  # big-endian host: convert
            kwg = kwg.astype(native)
        if check:
            K = _kwg()
            try:
                K.validate_kwg(np.asarray(kwg).view(native), alphabet, where=str(path), language=language)
                if expect_words is not None:
                    n = K.word_count(np.asarray(kwg).view(native))
                    if n != expect_words:
                        raise K.GraphError(f"{path}: the graph holds {n} words, {META_FILE} says {expect_words}")
            except K.GraphError as exc:
                raise LexiconError(str(exc)) from None
        return kwg

    @classmethod
    def _load_bare_kwg(cls, path: Path, alphabet: Alphabet, verify: bool = False, progress=None,
                       layout: str = "kwg") -> "Lexicon":
        state = _bare_state(path, alphabet)
        keys = state.keys({GRAPH_FILES[layout]: path})
        checked = not verify and state.valid(keys)
        kwg = cls._map_kwg(path, alphabet, check=not checked, language=True, layout=layout)
        if not checked:
            if progress:
                progress(f"{path} is a bare graph: its structure and its two halves (DAWG, GADDAG) agree, "
                         f"but without a word list its words cannot be verified (a bundle from "
                         f"`python -m lexicon_tools build` can be)")
            try:
                state.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError:
                pass
            state.record(keys)
        return cls(path=path, kwg=kwg, alphabet=alphabet, meta={}, trie=None)

    # -- queries ---------------------------------------------------------------
    @cached_property
    def graph(self) -> np.ndarray:
        """The node array as a plain ndarray view (what kernels take): uint32, or uint64 when wide."""
        return np.asarray(self.kwg).view(self.kwg.dtype)

    @property
    def layout(self) -> str:
        """``"kwg"`` (uint32 nodes, the KWG of wolges) or ``"wide"`` (uint64 nodes, docs/kwg-format.md)."""
        return "wide" if self.kwg.dtype == np.uint64 else "kwg"

    @property
    def word_count(self) -> int:
        """Number of words (from the metadata, or counted in the graph)."""
        if "word_count" in self.meta:
            return int(self.meta["word_count"])
        return _kwg().word_count(self.graph)

    def __contains__(self, word: str) -> bool:
        """True when the (normalised, uppercase) word is in the lexicon."""
        if self.trie is not None:
            return word in self.trie
        return _kwg().contains(self.graph, word, self.alphabet)

    def words(self) -> Iterable[str]:
        """All words (trie order for bundles, tile order for bare graphs)."""
        if self.trie is not None:
            return self.trie.keys()
        return _kwg().iter_words(self.graph, self.alphabet)

    def prefixed(self, prefix: str) -> list[str]:
        """Words starting with ``prefix``."""
        if self.trie is not None:
            return self.trie.keys(prefix)
        return [w for w in self.words() if w.startswith(prefix)]

    def pattern(self, pattern: str, limit: int | None = None) -> list[str]:
        """Words matching a pattern: ``?`` one letter, ``*`` any run of letters (also none).

        Example: ``H?US*`` matches HAUS, HAUSE, HAUSTÜR. The walk is bounded:
        it visits each word of the (validated, at most
        :data:`lexicon_tools.kwg.MAX_WORDS` words) lexicon at most once.

        Args:
            limit: refuse to return more than this many words.

        Raises:
            ValueError: a character that is neither a letter of the alphabet nor
                ``?``/``*``, or more than ``limit`` matches.
        """
        pat = pattern.upper()
        for ch in pat:
            if ch not in "?*" and not self.alphabet.is_word_chars(ch):
                raise ValueError(f"pattern {pattern!r}: {ch!r} is not a letter, '?' or '*'")
        prefix = re.split(r"[?*]", pat, maxsplit=1)[0]
        rx = re.compile("".join("." if c == "?" else ".*" if c == "*" else re.escape(c) for c in pat) + r"\Z")
        out = []
        for w in (self.trie.iterkeys(prefix) if self.trie is not None else self.words()):
            if w.startswith(prefix) and rx.match(w):
                out.append(w)
                if limit is not None and len(out) > limit:
                    raise ValueError(f"pattern {pattern!r}: more than {limit:,} words match; "
                                     f"narrow the pattern (or raise the limit)")
        return sorted(out)


# ---------------------------------------------------------------------------
# Building
# ---------------------------------------------------------------------------
def build_bundle(words: Sequence[str], out: str | os.PathLike, *, source_name: str = "",
                 source_sha256: str = "", alphabet: Alphabet | None = None,
                 verify: bool = True, progress=None, max_nodes: int | None = None,
                 format: str = "kwg") -> Lexicon:
    """Build a lexicon bundle from normalised words and write it atomically.

    The bundle is assembled in a temporary directory beside ``out``
    (``.NAME.build-PID-XXXX``), every file fsynced, and swapped into place with one
    atomic exchange (``renameat2(RENAME_EXCHANGE)`` on Linux), so an error or a
    kill never leaves a partial bundle and never hides the old one. Where the
    exchange is not available the old bundle is moved aside first
    (``.NAME.old-PID-XXXX/x``) and put back by the next build if a kill came
    between the two renames. Temporary directories of builds that were killed
    (their process is gone) are removed at the start of the next build.

    Whatever ``verify`` says, the graph's node count is checked against the KWG
    limit and its structure validated before anything is written, so
    ``--no-verify`` cannot write a broken bundle; ``verify`` adds the check of
    every word (DAWG and GADDAG) and of sample non-words.

    Args:
        words: normalised uppercase words (2..15 letters, over the alphabet).
        out: bundle directory to write.
        source_name, source_sha256: recorded in the metadata.
        verify: run :func:`lexicon_tools.kwg.verify_kwg` on the built graph.
        progress: optional callable ``progress(step_name)`` called before each step.
        max_nodes: node limit of a KWG (default ``None``: the format's, :data:`lexicon_tools.kwg.MAX_NODES`).
        format: ``"kwg"``, ``"wide"`` or ``"auto"`` (:func:`lexicon_tools.kwg.build_kwg`); a wide graph is
            written as ``lexicon.kwg64``.

    Returns:
        the loaded :class:`Lexicon`.

    Raises:
        ValueError: no words, or a word outside the alphabet.
        lexicon_tools.kwg.GraphTooLargeError: the list needs more nodes than a KWG holds (``format="kwg"``).
        lexicon_tools.kwg.GraphError: the graph fails validation or verification.
        LexiconError: the output location cannot be written.
    """
    import datetime as _dt
    import shutil
    import tempfile

    alphabet = alphabet or german()
    step = progress or (lambda name: None)
    if max_nodes is None:
        max_nodes = _kwg().MAX_NODES
    words = _sorted_unique(words)
    if not words:
        raise ValueError("no valid words: nothing to build")
    word_lens = np.fromiter(map(len, words), dtype=np.int32, count=len(words))
    if (word_lens < 2).any():
        short = [words[int(i)] for i in np.nonzero(word_lens < 2)[0][:6]]
        n_short = int((word_lens < 2).sum())
        raise ValueError(f"{n_short} one-letter word{'s' if n_short > 1 else ''} ({', '.join(short[:5])}"
                         f"{', ...' if n_short > 5 else ''}): Scrabble words have 2..15 letters")
    out = Path(out)
    parent = out.parent if str(out.parent) else Path(".")
    if not parent.is_dir():
        raise LexiconError(f"{out}: directory {parent} does not exist")
    clean_stale_builds(out)
    if out.exists() and not (out.is_dir() and (out / META_FILE).exists()):
        raise LexiconError(f"{out}: exists and is not a lexicon bundle; refusing to overwrite")
    step("graph")
    t0 = time.perf_counter()
    kwg = _kwg()
    rows = kwg._word_rows(words, alphabet)  # encoded once, for the build and the verification
    if format not in kwg.FORMATS:
        raise ValueError(f"format {format!r}: expected one of {', '.join(kwg.FORMATS)}")
    graph = kwg._build_rows(rows, alphabet, max_nodes, format)
    lay = kwg.layout_of(graph)
    build_s = time.perf_counter() - t0
    kwg.validate_kwg(graph, alphabet, where=f"{out} (built graph)",  # always: cheap, and --no-verify is no excuse
                     language=False)  # the words themselves: `verify` below
    if verify:
        step("verify")
        kwg._verify_rows(graph, rows, alphabet, _non_word_samples(words, alphabet))
    del rows
    step("write")
    try:
        tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.build-{os.getpid()}-", dir=parent))
    except OSError as exc:
        raise LexiconError(f"{out}: cannot write ({exc.strerror})") from None
    try:
        os.chmod(tmp, _dir_mode())
        graph_file = GRAPH_FILES[lay.name]
        kwg_path = tmp / graph_file
        with open(kwg_path, "wb") as f:
            f.write(graph.astype("<u8" if lay.name == "wide" else "<u4").tobytes())
            f.flush()
            os.fsync(f.fileno())
        trie_path = tmp / TRIE_FILE
        with open(trie_path, "wb") as f:  # our own write, so a full disk is an OSError naming the cause
            f.write(marisa_trie.Trie(words).tobytes())
            f.flush()
            os.fsync(f.fileno())
        per_len = np.bincount(word_lens)
        lengths = {str(n): int(c) for n, c in enumerate(per_len) if c}
        meta = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "source": {"name": source_name, "sha256": source_sha256},
            "word_count": len(words),
            "counts_per_length": lengths,
            "alphabet": {"name": alphabet.name, "letters": list(alphabet.letters)},
            "build_date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
            "build_seconds": round(build_s, 3),
            "kwg": {"file": graph_file, "layout": lay.name, "nodes": int(graph.shape[0]), "bytes": int(graph.nbytes),
                    "sha256": sha256_file(kwg_path)},
            "trie": {"file": TRIE_FILE, "bytes": trie_path.stat().st_size, "sha256": sha256_file(trie_path)},
        }
        with open(tmp / META_FILE, "w", encoding="utf-8") as f:
            f.write(json.dumps(meta, indent=2, ensure_ascii=False) + "\n")
            f.flush()
            os.fsync(f.fileno())
        _fsync_path(tmp)
        _swap_into_place(tmp, out, parent)
        # the graph was validated in memory and the checksums were taken from the files as written:
        # the bundle is checked, so the load below need not hash and validate it again
        files = {META_FILE: out / META_FILE, graph_file: out / graph_file, TRIE_FILE: out / TRIE_FILE}
        state = VerifiedState(out / STATE_FILE, {"alphabet": "".join(alphabet.letters)})
        state.record(state.keys(files))
    except OSError as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise LexiconError(f"{out}: cannot write ({exc.strerror or exc})") from None
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return Lexicon.load(out, alphabet)


def _sorted_unique(words: Sequence[str]) -> list[str]:
    """``sorted(set(words))`` without a copy when ``words`` is already a sorted list of distinct words."""
    if isinstance(words, list) and all(map(operator.lt, words, itertools.islice(words, 1, None))):
        return words
    return sorted(set(words))


def _dir_mode() -> int:
    """Mode for a new bundle directory: 0o777 minus the umask (mkdtemp makes 0o700)."""
    return 0o777 & ~_umask()


def _fsync_path(path: Path) -> None:
    """fsync a file or a directory by path (a no-op where directories cannot be opened)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _exchange(a: Path, b: Path) -> bool:
    """Atomically swap two paths (Linux ``renameat2(RENAME_EXCHANGE)``); False where not available."""
    if not hasattr(os, "uname") or os.uname().sysname != "Linux":
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        fn = libc.renameat2
    except (OSError, AttributeError):
        return False
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    fn.restype = ctypes.c_int
    at_fdcwd, rename_exchange = -100, 2
    if fn(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):  # file system or kernel without it
        return False
    raise OSError(err, os.strerror(err), str(b))


def _swap_into_place(tmp: Path, out: Path, parent: Path) -> None:
    """Put the finished bundle ``tmp`` at ``out`` (see :func:`build_bundle` for the guarantees)."""
    import shutil
    import tempfile

    if not out.exists():
        os.replace(tmp, out)
    elif _exchange(tmp, out):
        shutil.rmtree(tmp, ignore_errors=True)  # tmp now holds the old bundle
    else:
        old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-{os.getpid()}-", dir=parent))
        os.replace(out, old / "x")
        os.replace(tmp, out)  # a kill between the two renames: the next build puts old/x back
        shutil.rmtree(old, ignore_errors=True)
    _fsync_path(parent)


_LEGACY_AGE = 3600.0


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def clean_stale_builds(out: str | os.PathLike) -> list[Path]:
    """Remove what killed builds of ``out`` left beside it; restore a bundle a kill left moved aside.

    Only directories named like this module's temporaries for this very bundle
    name are touched: ``.NAME.build-PID-XXXX`` / ``.NAME.old-PID-XXXX`` whose
    process ``PID`` is no longer running, and (from older versions, without a
    PID) ``.NAME.XXXXXXXX`` / ``.NAME.old.XXXXXXXX`` untouched for an hour. A
    moved-aside old bundle (``.NAME.old-*/x``) is renamed back to ``NAME`` when
    ``NAME`` is missing.

    Returns:
        the paths removed or restored.
    """
    import shutil

    out = Path(out)
    parent = out.parent if str(out.parent) else Path(".")
    done: list[Path] = []
    try:
        entries = list(os.scandir(parent))
    except OSError:
        return done
    now = time.time()
    name = re.escape(out.name)
    stale = re.compile(rf"\.{name}\.(?P<kind>build|old)-(?P<pid>\d+)-[A-Za-z0-9_]+")
    older = re.compile(rf"\.{name}\.(?P<old>old\.)?[A-Za-z0-9_]{{8}}")
    for e in entries:
        m = stale.fullmatch(e.name)
        legacy = None if m else older.fullmatch(e.name)
        if not (m or legacy) or not e.is_dir(follow_symlinks=False):
            continue
        if m and _alive(int(m.group("pid"))):
            continue
        if legacy:
            try:
                if now - e.stat(follow_symlinks=False).st_mtime < _LEGACY_AGE:
                    continue
            except OSError:
                continue
        path = Path(e.path)
        moved = path / "x"
        was_old = (m.group("kind") == "old") if m else bool(legacy.group("old"))
        if was_old and (moved / META_FILE).is_file() and not out.exists():
            try:
                os.replace(moved, out)
                done.append(out)
            except OSError:
                continue
        shutil.rmtree(path, ignore_errors=True)
        done.append(path)
    return done


def _non_word_samples(words: Sequence[str], alphabet: Alphabet, n: int = 200) -> list[str]:
    """Deterministic sample of strings over the alphabet that are not in ``words``."""
    rng = np.random.default_rng(12345)
    out: list[str] = []
    letters = alphabet.letters
    # mutations of real words (hard cases) and random strings
    for w in (words[int(i)] for i in rng.integers(0, len(words), size=4 * n)):
        pos = int(rng.integers(0, len(w)))
        cand = w[:pos] + letters[int(rng.integers(0, len(letters)))] + w[pos + 1:]
        i = bisect.bisect_left(words, cand)  # words: sorted (build_bundle)
        if (i == len(words) or words[i] != cand) and 2 <= len(cand) <= 15:
            out.append(cand)
        if len(out) >= n:
            break
    return out


# ---------------------------------------------------------------------------
# The default lexicon
# ---------------------------------------------------------------------------
def default_words_path() -> Path:
    """Path of the packaged default word list (xz-compressed, one word per line): ``lexicon_tools/data/``
    beside this module (what ``importlib.resources.files("lexicon_tools")`` gives for the installed
    package, without importing its readers at every start)."""
    return Path(__file__).parent / "data" / DEFAULT_WORDS


def read_packaged_words(path: Path | None = None) -> list[str]:
    """The packaged default word list as a list of words."""
    import lzma

    path = path or default_words_path()
    with lzma.open(path, "rt", encoding="utf-8") as f:
        return f.read().split()


_DEFAULT: dict[str, Lexicon] = {}

FIRST_USE_STEPS = {"read": "reading the packaged list", "graph": "building graph (DAWG + GADDAG)",
                   "verify": "verifying graph", "write": "writing bundle"}
"""The steps of the default lexicon's first-use build, as :class:`FirstUseProgress` shows them."""


class FirstUseProgress:
    """Progress of the default lexicon's first-use build on stderr (issue 24).

    Call it with each step name of :data:`FIRST_USE_STEPS`; :meth:`close` ends it. When stderr is a
    terminal it is a tqdm bar over the steps with the elapsed time (the step being done as postfix);
    otherwise one timed line per step (``[   3.1s] building graph (DAWG + GADDAG)``), so a log shows
    where the time went. Nothing is printed before the first step.
    """

    def __init__(self, file=None, translate=None) -> None:
        self.file = file if file is not None else sys.stderr
        self.translate = translate or (lambda text: text)  # a step's text in the user's language
        self.bar = None
        self.t0: float | None = None

    def __call__(self, name: str) -> None:
        text = self.translate(FIRST_USE_STEPS.get(name, name))
        if self.t0 is None:
            from tqdm import tqdm

            self.t0 = time.perf_counter()
            self.bar = tqdm(total=len(FIRST_USE_STEPS), desc=self.translate("default lexicon"), unit="step", file=self.file,
                            disable=None, leave=False, bar_format="{desc}: {n}/{total}{postfix} [{elapsed}]")
            if self.bar.disable:
                self.bar = None
        if self.bar is not None:
            if name in FIRST_USE_STEPS:  # steps done before this one
                self.bar.update(list(FIRST_USE_STEPS).index(name) - self.bar.n)
            self.bar.set_postfix_str(text)
        else:
            print(f"[{time.perf_counter() - self.t0:7.1f}s] {text}", file=self.file, flush=True)

    def close(self) -> None:
        if self.t0 is None:
            return
        if self.bar is not None:
            self.bar.update(self.bar.total - self.bar.n)
            self.bar.set_postfix_str(self.translate("done"))  # refreshes: the last state is shown before the bar is cleared
            self.bar.close()
        else:
            print(f"[{time.perf_counter() - self.t0:7.1f}s] {self.translate('default lexicon built')}", file=self.file, flush=True)
        self.t0 = None


def default_lexicon(progress=None, verify: bool = False, stage=None, translate=None) -> Lexicon:
    """The default German lexicon, built from the packaged list on first use.

    The built bundle is cached (:func:`cache_dir`) under a name that includes the
    list's checksum, so a new packaged list is rebuilt automatically.
    ``progress`` gets notes (that the lexicon is being built and why);
    ``stage``, if given, is called with each step of a first-use build:
    ``"read"``, then :func:`build_bundle`'s ``"graph"``, ``"verify"``,
    ``"write"``; without it, a caller that gives ``progress`` gets a
    :class:`FirstUseProgress` on stderr (a bar on a terminal, timed lines
    otherwise), whose texts ``translate`` (a function of the English text) puts into the user's
    language.

    Raises:
        LexiconError: the packaged list is missing or the cache is unwritable.
    """
    import shutil

    src = default_words_path()
    if not src.is_file():
        raise LexiconError(f"{src}: the packaged default word list is missing (broken installation)")
    sha = remembered_sha256(src)  # hashed once per change of the packaged list, not at every start
    key = sha[:12]
    if key in _DEFAULT and not verify:
        return _DEFAULT[key]
    target = cache_dir() / f"default-{key}.lex"
    lex = None
    why = "first use only"
    if target.exists():
        try:
            lex = Lexicon.load(target, verify=verify)
        except LexiconError as exc:
            why = f"the cached copy is unusable: {exc}"
            shutil.rmtree(target, ignore_errors=True)
    if lex is None:
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise LexiconError(f"{target.parent}: cannot create the lexicon cache ({exc.strerror}); "
                               f"set GSE_CACHE_DIR to a writable directory") from None
        if progress:
            progress(f"building the default lexicon ({why})")
        own = FirstUseProgress(translate=translate) if stage is None and progress is not None else None
        step = stage or own or (lambda name: None)
        try:
            step("read")
            lex = build_bundle(read_packaged_words(src), target, source_name=f"packaged:{DEFAULT_WORDS}",
                               source_sha256=sha, progress=step)
        finally:
            if own is not None:
                own.close()
    _DEFAULT[key] = lex
    return lex


LEXICON_SUFFIXES = (".lex", ".kwg", ".kwg64")
"""How a lexicon's file name ends: a bundle directory (``.lex``, holding a KWG or a wide graph), a bare KWG
(``.kwg``, e.g. made by wolges), a bare wide graph (``.kwg64``, docs/kwg-format.md "The wide variant")."""


def lexicon_stem(path: str | os.PathLike) -> str:
    """The name a lexicon is known by: its file name without the suffix of :data:`LEXICON_SUFFIXES`
    (``/x/big.lex`` and ``big.kwg64`` are ``big``); what :func:`find_lexicon` finds again."""
    name = Path(str(path).rstrip("/\\")).name
    for suffix in LEXICON_SUFFIXES:
        if name.endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)]
    return name


def find_lexicon(name: str, near: Sequence[str | os.PathLike] = ()) -> Path | None:
    """Where the lexicon called ``name`` is: the one function that turns a lexicon's name into a path.

    Tries ``name`` itself and then ``name`` with each suffix of :data:`LEXICON_SUFFIXES` (a bundle
    ``name.lex``, a bare KWG ``name.kwg``, a bare wide graph ``name.kwg64``), in each directory of
    ``near`` and then in the lexicon cache (:func:`cache_dir`). A name holding a path separator or
    starting with a dot is not looked up (a record or a CGP does not get to point at arbitrary paths).

    Returns:
        the first path that exists, or ``None``.
    """
    if not name or "/" in name or "\\" in name or name.startswith("."):
        return None
    for base in [Path(b) for b in near] + [cache_dir()]:
        for cand in [base / name] + [base / f"{name}{suffix}" for suffix in LEXICON_SUFFIXES]:
            if cand.exists():
                return cand
    return None


def load_lexicon(path: str | os.PathLike | None = None, progress=None, verify: bool = False,
                 stage=None, translate=None) -> Lexicon:
    """Load ``path`` (bundle, ``.kwg`` or ``.kwg64``), or the default lexicon when ``None``.

    A ``path`` that does not exist and is a bare name (no directory) is looked up by
    :func:`find_lexicon` in the working directory and the lexicon cache, so ``--lexicon big`` finds
    ``big.lex``, ``big.kwg`` or ``big.kwg64``. ``verify`` forces the full check even when the files are
    unchanged since the last one (see :meth:`Lexicon.load`); ``progress`` gets notes; ``stage`` gets the
    steps of a first-use build of the default lexicon (:func:`default_lexicon`); ``translate`` puts the
    texts of that build's progress into the user's language.

    Raises:
        LexiconError: as :meth:`Lexicon.load` (a name found nowhere: "no such lexicon").
    """
    if path is None:
        return default_lexicon(progress, verify=verify, stage=stage, translate=translate)
    if not Path(path).exists():
        found = find_lexicon(str(path), near=["."])
        if found is not None:
            path = found
    return Lexicon.load(path, verify=verify, progress=progress)
