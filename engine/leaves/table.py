"""Leave values: what the tiles kept on the rack are worth, in points.

A *leave* is the multiset of tiles a player keeps after a move (1..6 tiles of
the German set: 1,437,656 multisets). This module holds

* :class:`LeaveIndex` — a perfect ranking of all leaves of a tile set
  (bijection leave <-> ``0 .. N-1``), fast enough for the best-first generator
  (Numba, :mod:`engine.leaves._kernels`); the order is the sorted-tile-string
  order, which is also the word order of the KLV files of wolges, Macondo and
  MAGPIE, so our table *is* a KLV value array;
* :class:`LeaveTable` — a float32 value per leave (memory-mapped), looked up by
  rank; callable on a counts array, so it plugs into
  :func:`engine.movegen.generator.best_moves` as ``leave_value``;
* KLV/KLV2 read and write (:func:`read_klv`, :func:`write_klv`);
* :func:`default_table` — the table shipped with the package (made by self-play
  on the default lexicon with ``scripts/make_leaves.py``), decompressed from
  ``engine/data/leaves-german.klv2.xz`` into the user cache on first use;
* :class:`LeaveModel` — the regression the table is fitted with (tile levels,
  vowel/consonant balance, pair synergies, plus shrunken per-leave residuals).

How the shipped table was made, and the file formats: ``docs/leaves.md``.
"""

from __future__ import annotations

import json
import lzma
import os
import shutil
import struct
import tempfile
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np

from lexicon_tools.alphabet import BLANK, Alphabet, german
from lexicon_tools.bundle import sha256_file

from engine.leaves import _kernels as K

__all__ = [
    "MAXLEN",
    "LeaveIndex",
    "LeaveTable",
    "LeaveError",
    "leave_index",
    "default_table",
    "zero_table",
    "read_klv",
    "write_klv",
    "klv_bytes",
    "leave_dawg",
    "LeaveModel",
    "Observations",
    "DEFAULT_NAME",
]

MAXLEN = K.MAXLEN
DEFAULT_NAME = "leaves-german"
"""Stem of the shipped table: ``engine/data/leaves-german.klv2.xz`` + ``.json``."""

_ARC = 0x3FFFFF
_IS_END = 0x400000
_ACCEPTS = 0x800000


class LeaveError(ValueError):
    """A leave table or KLV file that cannot be used; the message names the file."""


# ---------------------------------------------------------------------------
# Ranking
# ---------------------------------------------------------------------------
class LeaveIndex:
    """The ranking of all leaves (1..6 tiles) of a tile set.

    Ranks run ``0 .. size-1`` in the order of the leaves' sorted tile strings
    (tile codes ascending, blank = 0 first), a prefix before its extensions:
    ``? ?? ??A ... A AA ...``. The empty leave has rank ``-1``.

    Args:
        alphabet: the tile set (default German).

    Attributes:
        alphabet: the tile set.
        cap: int64 (n_letters + 1,) most copies of each tile in a leave.
        H: int64 counting table of the ranking kernel.
        size: number of leaves (1,437,656 for German).
    """

    def __init__(self, alphabet: Alphabet | None = None):
        self.alphabet = alphabet or german()
        a = self.alphabet
        T = a.size + 1
        self.cap = np.minimum(a.counts.astype(np.int64), MAXLEN)
        G = np.zeros((T + 1, MAXLEN + 1), dtype=np.int64)
        G[T, :] = 1
        H = np.zeros((T, MAXLEN + 1, MAXLEN + 1), dtype=np.int64)
        for c in range(T - 1, -1, -1):
            for av in range(MAXLEN + 1):
                for r in range(MAXLEN + 1):
                    H[c, av, r] = sum(G[c + 1, r - k] for k in range(min(av, r) + 1))
            G[c, :] = H[c, min(int(self.cap[c]), MAXLEN), :]
        self.H = H
        self.size = int(G[0, MAXLEN] - 1)
        self.tile_values = a.values.astype(np.float64)

    @cached_property
    def prefix(self) -> np.ndarray:
        """int64 prefix sums of ``H`` for the leave-arrays kernel (:func:`engine.leaves._kernels.rank_prefix`)."""
        return K.rank_prefix(self.H, self.cap)

    def rank(self, leave) -> int:
        """Rank of a leave given as a counts array (index = tile code) or a rack string.

        Returns:
            ``0 .. size-1``; ``-1`` for the empty leave.

        Raises:
            ValueError: more than 6 tiles, or more of a tile than the bag holds.
        """
        counts = self.counts(leave)
        r = int(K.rank_counts(counts, self.H, self.cap))
        if r == -2:
            raise ValueError(f"{self.alphabet.rack_string(counts)!r} is not a leave "
                             f"(1..{MAXLEN} tiles, at most as many of a tile as the bag holds)")
        return r

    def counts(self, leave) -> np.ndarray:
        """A leave as an int64 counts array (from a counts array or a rack string, ``?`` = blank)."""
        if isinstance(leave, str):
            counts = np.zeros(self.alphabet.size + 1, dtype=np.int64)
            for ch in leave:
                if ch == "?":
                    counts[BLANK] += 1
                else:
                    counts[self.alphabet.code(ch.upper())] += 1
            return counts
        counts = np.asarray(leave)
        if counts.shape != (self.alphabet.size + 1,):
            raise ValueError(f"a leave is a counts array of shape ({self.alphabet.size + 1},)")
        return counts.astype(np.int64)

    @cached_property
    def tiles(self) -> np.ndarray:
        """uint8 (size, 6): every leave's tiles in rank order, padded with 255 (made once, ~9 MB)."""
        out, n = K.enumerate_leaves(self.cap, self.size)
        if n != self.size:  # pragma: no cover - an internal inconsistency
            raise RuntimeError(f"enumerated {n} leaves, expected {self.size}")
        out.setflags(write=False)
        return out

    @cached_property
    def lengths(self) -> np.ndarray:
        """int8 (size,): number of tiles of each leave."""
        return (self.tiles != K.NO_TILE).sum(axis=1).astype(np.int8)

    def string(self, rank: int) -> str:
        """The leave of a rank as a rack string (letters in code order, blanks last as ``?``)."""
        if rank == -1:
            return ""
        if not 0 <= rank < self.size:
            raise IndexError(f"leave rank {rank} out of range 0..{self.size - 1}")
        counts = np.zeros(self.alphabet.size + 1, dtype=np.int32)
        for t in self.tiles[rank]:
            if t != K.NO_TILE:
                counts[t] += 1
        return self.alphabet.rack_string(counts)

    def unrank_counts(self, rank: int) -> np.ndarray:
        """The leave of a rank as an int32 counts array."""
        counts = np.zeros(self.alphabet.size + 1, dtype=np.int32)
        if rank >= 0:
            for t in self.tiles[rank]:
                if t != K.NO_TILE:
                    counts[t] += 1
        return counts


_INDEXES: dict[tuple, LeaveIndex] = {}


def leave_index(alphabet: Alphabet | None = None) -> LeaveIndex:
    """The (cached) :class:`LeaveIndex` of a tile set."""
    a = alphabet or german()
    key = (a.letters, tuple(int(c) for c in a.counts))
    if key not in _INDEXES:
        _INDEXES[key] = LeaveIndex(a)
    return _INDEXES[key]


# ---------------------------------------------------------------------------
# The table
# ---------------------------------------------------------------------------
@dataclass
class LeaveTable:
    """Leave values in points, one float32 per leave rank.

    Calling the table on a leave (int32 counts array, index 0 = blanks) returns
    its value; the empty leave is worth 0 and a leave that is not in the table
    (7 tiles) 0, so ``table`` can be passed to :func:`engine.movegen.generator.best_moves`
    as ``leave_value``.

    Attributes:
        index: the :class:`LeaveIndex` (tile set and ranking).
        values: float32 (index.size,) values by rank (possibly a read-only memory map).
        meta: how the table was made (games, seed, generations, method,
            equity parameters such as ``bag_ramp``), from the ``.json`` beside it.
        path: the file it was read from, if any.
    """

    index: LeaveIndex
    values: np.ndarray
    meta: dict = field(default_factory=dict)
    path: Path | None = None

    def __post_init__(self):
        if self.values.shape != (self.index.size,):
            raise LeaveError(f"leave table has {self.values.shape[0]} values, the {self.index.alphabet.name} "
                             f"tile set has {self.index.size} leaves")

    @property
    def alphabet(self) -> Alphabet:
        return self.index.alphabet

    def value(self, leave) -> float:
        """Value of a leave (counts array or rack string); 0 for the empty leave.

        Raises:
            ValueError: not a leave (more than 6 tiles, more of a tile than the bag holds).
        """
        r = self.index.rank(leave)
        return 0.0 if r < 0 else float(self.values[r])

    def __call__(self, leave) -> float:
        r = int(K.rank_counts(np.asarray(leave, dtype=np.int64), self.index.H, self.index.cap))
        return float(self.values[r]) if r >= 0 else 0.0

    def best(self, size: int, n: int = 10) -> list[tuple[str, float]]:
        """The ``n`` highest-valued leaves of ``size`` tiles (``[(leave, value), ...]``)."""
        return self._extreme(size, n, True)

    def worst(self, size: int, n: int = 10) -> list[tuple[str, float]]:
        """The ``n`` lowest-valued leaves of ``size`` tiles."""
        return self._extreme(size, n, False)

    def _extreme(self, size: int, n: int, best: bool) -> list[tuple[str, float]]:
        sel = np.nonzero(self.index.lengths == size)[0]
        v = np.asarray(self.values[sel], dtype=np.float64)
        order = np.argsort(-v if best else v, kind="stable")[:n]
        return [(self.index.string(int(sel[i])), float(v[i])) for i in order]

    # -- files ------------------------------------------------------------------
    def save(self, path: str | os.PathLike, version: int = 2) -> Path:
        """Write the table as KLV2 (``version=2``, float32) or KLV (``1``, int16 / 256)
        and its metadata as ``<path>.json`` beside it (only when ``meta`` is not empty)."""
        p = Path(path)
        write_klv(p, self.values, self.index, version=version)
        if self.meta:
            p.with_name(p.name + ".json").write_text(json.dumps(self.meta, indent=1, ensure_ascii=False) + "\n",
                                                    encoding="utf-8")
        return p

    @classmethod
    def load(cls, path: str | os.PathLike, alphabet: Alphabet | None = None, mmap: bool = True,
             note=None) -> "LeaveTable":
        """Read a KLV/KLV2 file (ours or one made by wolges/Macondo/MAGPIE), see :func:`read_klv`.

        Metadata is read from ``<path>.json`` when present.

        Args:
            note: optional callable given a message when the file does not
                cover every leave (how many are missing and valued 0, how many
                of its words are not leaves); the counts are in ``meta["klv"]``.

        Raises:
            LeaveError: as :func:`read_klv` (also NaN, infinite or absurd values, a damaged graph).
        """
        p = Path(path)
        values, info = read_klv(p, alphabet, mmap=mmap)
        if note is not None and (info["missing"] or info["skipped"]):
            msg = f"{p}: {info['missing']:,} of {values.shape[0]:,} leaves are not in the table (valued 0)"
            if info["skipped"]:
                msg += f"; {info['skipped']:,} of its words are not leaves of the tile set (ignored)"
            note(msg)
        meta = {}
        side = p.with_name(p.name + ".json")
        if side.is_file():
            try:
                meta = json.loads(side.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError) as exc:
                raise LeaveError(f"{side}: unreadable metadata ({exc})") from None
        meta = {**meta, "klv": info}
        return cls(leave_index(alphabet), values, meta, p)


def zero_table(alphabet: Alphabet | None = None) -> LeaveTable:
    """A table of zeros (equity = score: the pure score player)."""
    idx = leave_index(alphabet)
    return LeaveTable(idx, np.zeros(idx.size, dtype=np.float32), {"name": "zero"})


# ---------------------------------------------------------------------------
# KLV files
# ---------------------------------------------------------------------------
def leave_dawg(index: LeaveIndex) -> np.ndarray:
    """The minimal DAWG of all leaves of ``index`` as KWG nodes (uint32).

    Words are leaves written as tile codes in ascending order (blank = 0). Node
    0 points at the root's arc list (a DAWG-only KWG, as wolges writes for
    KLV); every arc accepts, because every non-empty prefix of a leave is a
    leave. A state is "tiles >= L may follow, tile L at most ``a`` more times,
    at most ``r`` more tiles"; equal arc lists are stored once, lists are laid
    out breadth-first from the root.
    """
    cap = [int(c) for c in index.cap]
    T = len(cap)
    lists: list[tuple] = []
    by_arcs: dict[tuple, int] = {}
    memo: dict[tuple, int] = {}

    def state(L: int, a: int, r: int) -> int:
        if r <= 0:
            return -1
        a = min(a, r)
        key = (L, a, r)
        if key in memo:
            return memo[key]
        arcs = []
        if L >= 0 and a >= 1:
            arcs.append((L, state(L, a - 1, r - 1)))
        for M in range(L + 1, T):
            if cap[M] >= 1:
                arcs.append((M, state(M, cap[M] - 1, r - 1)))
        if not arcs:
            sid = -1
        else:
            tup = tuple(arcs)
            sid = by_arcs.get(tup)
            if sid is None:
                sid = len(lists)
                lists.append(tup)
                by_arcs[tup] = sid
        memo[key] = sid
        return sid

    root = state(-1, 0, MAXLEN)
    # breadth-first layout
    offset: dict[int, int] = {}
    order: list[int] = []
    nxt = 1
    queue = [root] if root >= 0 else []
    if root >= 0:
        offset[root] = nxt
        nxt += len(lists[root])
    qi = 0
    while qi < len(queue):
        sid = queue[qi]
        qi += 1
        order.append(sid)
        for _tile, child in lists[sid]:
            if child >= 0 and child not in offset:
                offset[child] = nxt
                nxt += len(lists[child])
                queue.append(child)
    nodes = np.zeros(nxt, dtype=np.uint32)
    nodes[0] = _IS_END | (offset[root] if root >= 0 else 0)
    for sid in order:
        base = offset[sid]
        arcs = lists[sid]
        for i, (tile, child) in enumerate(arcs):
            v = (tile << 24) | _ACCEPTS | (offset[child] if child >= 0 else 0)
            if i == len(arcs) - 1:
                v |= _IS_END
            nodes[base + i] = v
    return nodes


_DAWGS: dict[int, np.ndarray] = {}


def _dawg_for(index: LeaveIndex) -> np.ndarray:
    key = id(index)
    if key not in _DAWGS:
        _DAWGS[key] = leave_dawg(index)
    return _DAWGS[key]


def klv_bytes(values: np.ndarray, index: LeaveIndex | None = None, version: int = 2) -> bytes:
    """A KLV2 (float32) or KLV (int16, value × 256) file's bytes for values in rank order.

    Layout (little-endian): u32 node count, the KWG nodes (u32 each), u32 leave
    count, then the values (f32 for KLV2, i16 for KLV).
    """
    index = index or leave_index()
    values = np.asarray(values)
    if values.shape != (index.size,):
        raise ValueError(f"{values.shape[0]} values for {index.size} leaves")
    nodes = _dawg_for(index)
    if version == 2:
        payload = values.astype("<f4").tobytes()
    elif version == 1:
        payload = np.clip(np.round(values.astype(np.float64) * 256), -32768, 32767).astype("<i2").tobytes()
    else:
        raise ValueError(f"KLV version must be 1 or 2, got {version}")
    return (struct.pack("<I", nodes.shape[0]) + nodes.astype("<u4").tobytes()
            + struct.pack("<I", index.size) + payload)


def write_klv(path: str | os.PathLike, values: np.ndarray, index: LeaveIndex | None = None,
              version: int = 2) -> Path:
    """Write values (rank order) as a KLV2/KLV file (atomically: temp file, then rename)."""
    p = Path(path)
    data = klv_bytes(values, index, version)
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=p.parent, prefix=p.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, p)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return p


def read_klv(path: str | os.PathLike, alphabet: Alphabet | None = None,
             mmap: bool = True) -> tuple[np.ndarray, dict]:
    """Read a KLV2 or KLV file into values by our rank.

    The file's DAWG is walked depth-first; the ``i``-th word (a leave as tile
    codes) gets the ``i``-th value. A file holding exactly our leaves, in any
    node layout, lists them in rank order, so its value array is used as it is
    (memory-mapped, read-only, when ``mmap``). Otherwise values are placed by
    rank: leaves missing from the file get 0 (as wolges does), words that are
    not leaves of this tile set (unsorted, too long, too many of a tile) are
    skipped and counted.

    Returns:
        ``(values, info)``: float32 (N,) values and ``{"version", "words",
        "missing", "skipped"}``.

    Raises:
        LeaveError: missing, truncated or malformed file; a damaged graph (sibling arcs out of
            order, words out of order, as many words as leaves but not all leaves); a value not
            finite or beyond :data:`LEAVE_LIMIT` points (the message names the file and the reason).
    """
    p = Path(path)
    index = leave_index(alphabet)
    try:
        raw = p.read_bytes() if not mmap else None
        size = p.stat().st_size
    except OSError as exc:
        raise LeaveError(f"{p}: cannot read ({exc.strerror or exc})") from None
    buf = np.memmap(p, dtype=np.uint8, mode="r") if mmap and size else np.frombuffer(raw or b"", dtype=np.uint8)
    if size < 8:
        raise LeaveError(f"{p}: {size} bytes is not a KLV file (truncated?)")
    n_nodes = int(buf[:4].view("<u4")[0])
    end_nodes = 4 + 4 * n_nodes
    if n_nodes < 1 or end_nodes + 4 > size:
        raise LeaveError(f"{p}: header says {n_nodes} nodes, the file has {size} bytes (truncated?)")
    nodes = np.frombuffer(bytes(buf[4:end_nodes]), dtype="<u4").astype(np.uint32)
    n_leaves = int(buf[end_nodes:end_nodes + 4].view("<u4")[0])
    start = end_nodes + 4
    if size >= start + 4 * n_leaves:
        version, width, dtype = 2, 4, "<f4"
    elif size >= start + 2 * n_leaves:
        version, width, dtype = 1, 2, "<i2"
    else:
        raise LeaveError(f"{p}: {n_leaves} leaves need {start + 2 * n_leaves} bytes at least, "
                         f"the file has {size} (truncated?)")
    if size != start + width * n_leaves:
        raise LeaveError(f"{p}: {size} bytes, a KLV{'2' if version == 2 else ''} with {n_leaves} leaves "
                         f"has {start + width * n_leaves}")
    root = int(nodes[0] & _ARC)
    if (nodes & _ARC).max(initial=0) >= n_nodes:
        raise LeaveError(f"{p}: an arc points outside the {n_nodes} nodes (corrupted)")
    _check_arc_order(p, nodes)
    ranks, count, status = K.dawg_word_ranks(nodes, root, index.H, index.cap, max(n_leaves, 1))
    if status == 1 or (status == 0 and count != n_leaves):
        raise LeaveError(f"{p}: the graph holds {count}{'+' if status == 1 else ''} leaves, the header says {n_leaves} "
                         f"(corrupted)")
    if status:
        raise LeaveError(f"{p}: malformed leave graph (corrupted)")
    ranks = ranks[:count]
    complete = count == index.size and bool(np.array_equal(ranks, np.arange(index.size)))
    known = ranks[ranks >= 0]
    if len(known) > 1 and not (np.diff(known) > 0).all():
        at = int(np.argmax(np.diff(known) <= 0))
        raise LeaveError(f"{p}: damaged leave graph: leave {index.string(int(known[at + 1]))!r} comes after "
                         f"{index.string(int(known[at]))!r} (the words of a leave graph are in order; corrupted)")
    if count == index.size and not complete:  # as many words as leaves, but not the leaves: damage
        raise LeaveError(f"{p}: damaged leave graph: {count:,} words as the table has leaves, but "
                         f"{int((ranks < 0).sum()):,} of them are not leaves of the tile set (corrupted)")
    if version == 2 and complete:
        if mmap:
            vals = np.memmap(p, dtype="<f4", mode="r", offset=start, shape=(n_leaves,))
        else:
            vals = np.frombuffer(raw, dtype="<f4", count=n_leaves, offset=start).copy()
        _check_values(p, vals, np.arange(n_leaves), index)
        info = {"version": 2, "words": count, "missing": 0, "skipped": 0}
        return vals, info
    file_vals = np.frombuffer(bytes(buf[start:start + width * n_leaves]), dtype=dtype).astype(np.float32)
    if version == 1:
        file_vals = file_vals / np.float32(256.0)
    _check_values(p, file_vals, ranks, index)
    values = np.zeros(index.size, dtype=np.float32)
    ok = ranks >= 0
    values[ranks[ok]] = file_vals[ok]
    present = np.zeros(index.size, dtype=bool)
    present[ranks[ok]] = True
    info = {"version": version, "words": count, "missing": int(index.size - present.sum()),
            "skipped": int((~ok).sum())}
    return values, info


LEAVE_LIMIT = 100.0
"""Largest leave value (points, either sign) a table may hold: more than a bingo and a half. Real
tables stay far inside (the packaged German one: -62.2 to +55.1); a table beyond it is damaged or
made wrongly (e.g. a KLV2 cut to a KLV length reads its float bytes as int16 values up to ±128)."""


def _check_arc_order(p: Path, nodes: np.ndarray) -> None:
    """Refuse a graph whose sibling arcs are not in increasing tile order (a DAWG's arc lists are
    sorted; a flipped bit in a tile field breaks that).

    Raises:
        LeaveError: naming the file and the first pair of nodes out of order.
    """
    tiles = nodes >> np.uint32(24)
    open_list = (nodes[:-1] & _IS_END) == 0
    bad = np.nonzero(open_list & (tiles[:-1] >= tiles[1:]))[0]
    if len(bad):
        k = int(bad[0])
        raise LeaveError(f"{p}: damaged leave graph: the arcs of nodes {k} and {k + 1} are out of order "
                         f"(tile {int(tiles[k])} before tile {int(tiles[k + 1])}; {len(bad):,} such place"
                         f"{'s' if len(bad) > 1 else ''}; corrupted)")


def _check_values(p: Path, values: np.ndarray, ranks: np.ndarray, index: LeaveIndex) -> None:
    """Refuse NaN, infinite and absurd leave values (a NaN would rank an exchange above a 68-point
    bingo; a value beyond :data:`LEAVE_LIMIT` points is no leave's worth).

    Raises:
        LeaveError: naming the file, the first such leave (or word number) and how many there are.
    """
    def name(first: int) -> str:
        r = int(ranks[first]) if first < len(ranks) else -1
        return repr(index.string(r)) if r >= 0 else f"number {first}"

    bad = ~np.isfinite(values)
    if bad.any():
        first = int(np.argmax(bad))
        raise LeaveError(f"{p}: leave {name(first)} has the value {float(values[first])}; {int(bad.sum()):,} value"
                         f"{'s are' if bad.sum() > 1 else ' is'} not a finite number (damaged or badly made table)")
    big = np.abs(values) > LEAVE_LIMIT
    if big.any():
        first = int(np.argmax(big))
        raise LeaveError(f"{p}: leave {name(first)} has the value {float(values[first]):g}; {int(big.sum()):,} "
                         f"value{'s are' if big.sum() > 1 else ' is'} beyond ±{LEAVE_LIMIT:g} points, no leave is "
                         f"worth that (damaged, cut short, or badly made table)")


# ---------------------------------------------------------------------------
# The shipped table
# ---------------------------------------------------------------------------
def data_path(name: str = DEFAULT_NAME) -> Path:
    """Path of a packaged table: ``engine/data/<name>.klv2.xz``."""
    return Path(__file__).parents[1] / "data" / f"{name}.klv2.xz"


_DEFAULT: dict[tuple, tuple[LeaveTable, tuple | None]] = {}
"""Tables made by :func:`default_table`, keyed by the packaged files' identity (path, inode, size,
mtime, ctime of the table and its metadata) and the cache directory, with the state of the cached
copy they were read from: a changed file is a new key, a changed copy is checked again."""


def _file_state(path: Path):
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _cache_intact(target: Path, sums: Path) -> bool:
    """True when the cached table matches the SHA-256 recorded when it was decompressed.

    The hash is computed once per file change (the verified state of
    :class:`lexicon_tools.bundle.VerifiedState`, keyed by inode, size, mtime
    and ctime, sits beside the table), like the lexicon cache.
    """
    from lexicon_tools.bundle import VerifiedState

    try:
        expected = sums.read_text(encoding="ascii").split()[0]
    except (OSError, UnicodeDecodeError, IndexError):
        return False
    state = VerifiedState(target.with_name(target.name + ".verified.json"), {"sha256": expected})
    keys = state.keys({"table": target, "sha256": sums})
    if state.valid(keys):
        return True
    try:
        if sha256_file(target) != expected:
            state.forget()
            return False
    except OSError:
        return False
    state.record(keys)
    return True


def default_table(name: str = DEFAULT_NAME, progress=None) -> LeaveTable:
    """The packaged German leave table (cached; memory-mapped from the user cache).

    On first use ``engine/data/<name>.klv2.xz`` is decompressed into the cache
    directory of :func:`lexicon_tools.bundle.cache_dir` as
    ``<name>-<sha12>.klv2`` (the hash of the packaged file, so a new table
    replaces the old one) with its metadata beside it and the SHA-256 of the
    decompressed table in ``<name>-<sha12>.klv2.sha256``. A cached table that
    no longer matches its checksum (checked once per file change) is
    decompressed again. Later calls in the process return the same table after
    one ``stat`` of the packaged files and of the cached copy (device, inode,
    size, mtime, ctime); a changed file is hashed and checked again.

    Args:
        progress: optional callable given a note when the cache is (re)made.

    Raises:
        LeaveError: the packaged table is missing or the cache is unwritable.
    """
    import hashlib

    from lexicon_tools.bundle import cache_dir

    src = data_path(name)
    meta_src = src.with_name(f"{name}.json")
    state = _file_state(src)
    if state is None or not src.is_file():
        raise LeaveError(f"{src}: the packaged leave table is missing (broken installation)")
    cdir = cache_dir()
    memo = (name, str(src), state, _file_state(meta_src), str(cdir))
    hit = _DEFAULT.get(memo)
    if hit is not None and _file_state(hit[0].path) == hit[1]:
        return hit[0]  # the packaged files and the cached copy are unchanged since they were hashed and checked
    key = sha256_file(src)[:12]
    target = cdir / f"{name}-{key}.klv2"
    meta = json.loads(meta_src.read_text(encoding="utf-8")) if meta_src.is_file() else {}
    sums = target.with_name(target.name + ".sha256")
    table = None
    why = "first use"
    if target.is_file():
        if _cache_intact(target, sums):
            try:
                table = LeaveTable.load(target)
            except LeaveError as exc:
                why = f"the cached copy is unusable: {exc}"
        else:
            why = f"{target} does not match its checksum (damaged)"
        if table is None:
            target.unlink(missing_ok=True)
    if table is None:
        if progress:
            progress(f"unpacking the default leave table ({why})")
        tmp = None
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=target.name, suffix=".tmp")
            h = hashlib.sha256()
            with os.fdopen(fd, "wb") as out, lzma.open(src, "rb") as inp:
                for chunk in iter(lambda: inp.read(1 << 20), b""):
                    h.update(chunk)
                    out.write(chunk)
                out.flush()
                os.fsync(out.fileno())
            fd2, tmp2 = tempfile.mkstemp(dir=target.parent, prefix=sums.name, suffix=".tmp")
            try:
                with os.fdopen(fd2, "w", encoding="ascii") as f:
                    f.write(f"{h.hexdigest()}  {target.name}\n")
                    f.flush()
                    os.fsync(f.fileno())
                os.replace(tmp2, sums)
            except BaseException:
                Path(tmp2).unlink(missing_ok=True)
                raise
            os.replace(tmp, target)
            tmp = None
        except OSError as exc:
            raise LeaveError(f"{target.parent}: cannot write the leave table cache ({exc.strerror or exc}); "
                             f"set GSE_CACHE_DIR to a writable directory") from None
        except lzma.LZMAError as exc:
            raise LeaveError(f"{src}: corrupted packaged leave table ({exc})") from None
        finally:
            if tmp is not None:
                Path(tmp).unlink(missing_ok=True)
        table = LeaveTable.load(target)
    table.meta = {**meta, **{"klv": table.meta.get("klv", {})}}
    _DEFAULT[memo] = (table, _file_state(target))
    return table


# ---------------------------------------------------------------------------
# Fitting
# ---------------------------------------------------------------------------
@dataclass
class Observations:
    """Leaves kept in self-play and what followed, aggregated per leave.

    Attributes:
        ranks: int64 (m,) distinct leave ranks observed (``-1`` = empty leave).
        n: float64 (m,) number of observations of each.
        mean: float64 (m,) mean target (points) of each.
        sq: float64 (m,) sum of squared deviations from the mean (for the noise variance).
    """

    ranks: np.ndarray
    n: np.ndarray
    mean: np.ndarray
    sq: np.ndarray

    @classmethod
    def from_samples(cls, ranks: np.ndarray, y: np.ndarray) -> "Observations":
        """Aggregate raw ``(rank, target)`` samples."""
        ranks = np.asarray(ranks, dtype=np.int64)
        y = np.asarray(y, dtype=np.float64)
        if ranks.size == 0:
            z = np.zeros(0)
            return cls(np.zeros(0, dtype=np.int64), z, z, z)
        uniq, inv = np.unique(ranks, return_inverse=True)
        n = np.bincount(inv).astype(np.float64)
        s = np.bincount(inv, weights=y)
        mean = s / n
        sq = np.bincount(inv, weights=(y - mean[inv]) ** 2)
        return cls(uniq, n, mean, sq)

    @property
    def total(self) -> int:
        return int(self.n.sum())


class LeaveModel:
    """A linear model of leave values with regularisation, plus shrunken per-leave corrections.

    ``value(L) = size[|L|] + sum_c sum_{k<=count_c} level[c, k] + vc[vowels, consonants]
    + sum_{c<d in L} pair[c, d] + shrink(L) * residual(L)``

    Fitted by weighted ridge regression on the observed leaves' mean targets
    (an unpenalised intercept is the value of the empty leave, so the empty
    leave is worth exactly 0). Penalties per feature group are in units of
    observations (a weight is pulled to 0 as if ``lambda`` observations said 0).
    The per-leave residual (mean target minus model) is shrunk by the
    empirical-Bayes factor ``n / (n + sigma^2 / tau^2)``, ``sigma^2`` the noise
    variance of one observation and ``tau^2`` the variance of the true
    residuals, both estimated from the data (method of moments). Leaves never
    seen get the model value alone: the back-off for the many 5- and 6-tile
    leaves that self-play never produces.

    Args:
        index: the leave ranking.
        pairs: include pair-synergy features.
        penalties: ``{"size": .., "level": .., "vc": .., "pair": ..}`` ridge penalties.
    """

    GROUPS = ("size", "level", "vc", "pair")

    def __init__(self, index: LeaveIndex, pairs: bool = True, penalties: dict | None = None):
        self.index = index
        a = index.alphabet
        T = a.size + 1
        self.penalties = {"size": 1.0, "level": 50.0, "vc": 50.0, "pair": 200.0, **(penalties or {})}
        names: list[str] = []
        groups: list[str] = []
        self.size_base = 0
        for n in range(1, MAXLEN + 1):
            names.append(f"size{n}")
            groups.append("size")
        self.level_base = np.zeros(T, dtype=np.int64)
        for c in range(T):
            self.level_base[c] = len(names)
            for k in range(1, int(index.cap[c]) + 1):
                names.append(a.letter(c) * k)
                groups.append("level")
        self.is_vowel = np.zeros(T, dtype=np.bool_)
        for c in range(1, T):
            self.is_vowel[c] = a.letter(c) in a.vowels
        self.vc_index = np.full((MAXLEN + 1, MAXLEN + 1), -1, dtype=np.int64)
        for v in range(MAXLEN + 1):
            for c in range(MAXLEN + 1 - v):
                if v + c == 0:
                    continue
                self.vc_index[v, c] = len(names)
                names.append(f"v{v}c{c}")
                groups.append("vc")
        self.pair_index = np.full((T, T), -1, dtype=np.int64)
        for c in range(T):
            for d in range(c + 1, T):
                self.pair_index[c, d] = len(names)
                names.append(f"{a.letter(c)}+{a.letter(d)}")
                groups.append("pair")
        self.names = names
        self.groups = np.array(groups)
        self.mask = np.ones(len(names), dtype=np.bool_)
        if not pairs:
            self.mask[self.groups == "pair"] = False
        self.coef = np.zeros(len(names))
        self.intercept = 0.0
        self.sigma2 = 0.0
        self.tau2 = 0.0
        self.lam_scale = 1.0

    @property
    def n_features(self) -> int:
        return len(self.names)

    def _args(self):
        return (self.level_base, self.pair_index, self.is_vowel, self.vc_index, self.size_base)

    def normal_equations(self, obs: Observations) -> tuple[np.ndarray, np.ndarray]:
        """``(X'WX, X'Wy)`` of the observations (intercept = column 0)."""
        return K.accumulate_normal(self.index.tiles, obs.ranks, obs.n, obs.mean, *self._args(),
                                   self.n_features, self.mask)

    def solve(self, A: np.ndarray, b: np.ndarray, lam_scale: float = 1.0) -> None:
        """Solve the ridge system for given normal equations (penalties × ``lam_scale``)."""
        P = self.n_features + 1
        pen = np.zeros(P)
        for g in self.GROUPS:
            pen[1:][self.groups == g] = self.penalties[g] * lam_scale
        pen[1:][~self.mask] = 1.0  # unused columns: keep the system regular, weight 0
        M = A + np.diag(pen)
        sol = np.linalg.solve(M, b)
        self.intercept = float(sol[0])
        self.coef = sol[1:] * self.mask
        self.lam_scale = lam_scale

    def predict_ranks(self, ranks: np.ndarray) -> np.ndarray:
        """Model value (without the intercept and residual) of the given leave ranks (-1: empty -> 0)."""
        out = np.zeros(len(ranks))
        ok = ranks >= 0
        if ok.any():
            allv = self.predict_all()
            out[ok] = allv[ranks[ok]]
        return out

    def predict_all(self) -> np.ndarray:
        """Model value of every leave, rank order (float64)."""
        return K.predict_all(self.index.tiles, self.coef, *self._args())

    def fit(self, obs: Observations, holdout: Observations | None = None,
            lam_grid=(0.0625, 0.125, 0.25, 0.5, 1.0, 2.0, 4.0)) -> dict:
        """Fit on ``obs``; with ``holdout``, pick the penalty multiplier with the least held-out error.

        Returns:
            a report: chosen multiplier, held-out mean squared error per
            multiplier, sigma^2, tau^2, intercept.
        """
        A, b = self.normal_equations(obs)
        report: dict = {"observations": obs.total, "distinct_leaves": int(len(obs.ranks))}
        grid = list(lam_grid) if holdout is not None and holdout.total else [1.0]
        errs = {}
        best = None
        for lam in grid:
            self.solve(A, b, lam)
            if holdout is not None and holdout.total:
                pred = self.intercept + self.predict_ranks(holdout.ranks)
                # per-observation squared error = within-leave scatter + (mean - pred)^2 per observation
                mse = float((holdout.sq.sum() + (holdout.n * (holdout.mean - pred) ** 2).sum()) / holdout.n.sum())
                errs[lam] = mse
                total = float((holdout.sq.sum() + (holdout.n * (holdout.mean - np.average(
                    holdout.mean, weights=holdout.n)) ** 2).sum()) / holdout.n.sum())
                if best is None or mse < errs[best]:
                    best = lam
        lam = best if best is not None else grid[0]
        self.solve(A, b, lam)
        report["lambda_scale"] = lam
        if errs:
            report["holdout_mse"] = {str(k): round(v, 4) for k, v in errs.items()}
            report["holdout_r2"] = round(1.0 - errs[lam] / total, 5)
        # noise and residual variances (method of moments): for a leave seen n times,
        # E[(mean - model)^2] = tau^2 + sigma_leave^2 / n, sigma_leave^2 from its own scatter
        multi = obs.n >= 2
        self.sigma2 = float(obs.sq[multi].sum() / max((obs.n[multi] - 1).sum(), 1.0))
        pred = self.intercept + self.predict_ranks(obs.ranks)
        e2 = (obs.mean - pred) ** 2
        many = obs.n >= 10
        if many.any():
            s2 = obs.sq[many] / (obs.n[many] - 1)
            self.tau2 = float(max(1e-6, np.mean(e2[many] - s2 / obs.n[many])))
        else:
            self.tau2 = 1e-6
        report["leaves_seen_10_times"] = int(many.sum())
        report.update({"sigma2": round(self.sigma2, 3), "tau2": round(self.tau2, 4),
                       "intercept": round(self.intercept, 4)})
        self._obs = obs
        return report

    def shrink_factor(self, n: np.ndarray) -> np.ndarray:
        """Weight of a leave's own residual after ``n`` observations: ``n tau^2 / (n tau^2 + sigma^2)``."""
        return n * self.tau2 / (n * self.tau2 + self.sigma2)

    def table_values(self, residuals: bool = True, quantum: float = 1 / 256) -> np.ndarray:
        """float32 values of every leave: model + shrunken residual, rounded to ``quantum`` points."""
        vals = self.predict_all()
        obs = getattr(self, "_obs", None)
        if residuals and obs is not None and len(obs.ranks):
            ok = obs.ranks >= 0
            r = obs.ranks[ok]
            resid = obs.mean[ok] - (self.intercept + vals[r])
            vals[r] += self.shrink_factor(obs.n[ok]) * resid
        if quantum:
            vals = np.round(vals / quantum) * quantum
        return vals.astype(np.float32)

    def weights(self) -> dict[str, float]:
        """Feature name -> weight (used features only)."""
        return {n: float(c) for n, c, m in zip(self.names, self.coef, self.mask) if m}
