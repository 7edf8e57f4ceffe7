"""Build, check and read KWG lexicon graphs (a DAWG and a GADDAG in one array).

The node layout (``docs/kwg-format.md``) is the KWG format of wolges, also read
by Macondo and MAGPIE: a flat little-endian ``uint32`` array where node 0 points
at the DAWG root's arc list and node 1 at the GADDAG root's (Gordon 1994), with
tile 0 as the GADDAG separator. Each node is one arc::

    bits 24..31  tile code (0 = separator, 1..n = letters)
    bit  23      accepts: a word ends with this arc
    bit  22      is_end: last arc of its list
    bits 0..21   index of the child's arc list (0 = none)

The builder is deterministic: the same word set gives the same bytes.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from . import _kwg_kernels as K
from .alphabet import Alphabet, german

MAX_WORD_LENGTH = 15
ARC_MASK = 0x3FFFFF
IS_END = 0x400000
ACCEPTS = 0x800000
MAX_NODES = ARC_MASK
"""Most nodes a KWG can hold: arc indices are 22 bits (4,194,303), docs/kwg-format.md."""


class GraphError(ValueError):
    """A node array that is not a valid KWG for the alphabet."""


class GraphTooLargeError(GraphError):
    """The word list needs more nodes than the KWG format can address (22-bit arc indices).

    Attributes:
        nodes: nodes the graph needs.
        limit: nodes the format holds.
    """

    def __init__(self, nodes: int, limit: int):
        super().__init__(
            f"the graph needs {nodes:,} nodes, the KWG format holds {limit:,} (22-bit node indices, "
            f"docs/kwg-format.md): the list is too large for one KWG; build a smaller list "
            f"(e.g. drop the longest words) -- nothing was written")
        self.nodes = nodes
        self.limit = limit


def encode_words(words: Sequence[str], alphabet: Alphabet | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Encode normalised words as a padded tile-code matrix.

    Args:
        words: uppercase words over the alphabet, 2..15 letters.

    Returns:
        ``(codes, lengths)``: uint8 ``(n, 16)`` tile codes padded with 0, and
        int32 ``(n,)`` lengths.

    Raises:
        ValueError: a word is empty, longer than 15 letters or has a character
            outside the alphabet (the message names the word).
    """
    alphabet = alphabet or german()
    table = np.zeros(0x10000, dtype=np.uint8)
    for i, ch in enumerate(alphabet.letters):
        table[ord(ch)] = i + 1
    n = len(words)
    codes = np.zeros((n, 16), dtype=np.uint8)
    lengths = np.zeros(n, dtype=np.int32)
    if n == 0:
        return codes, lengths
    joined = "".join(words)
    flat = np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32)
    lens = np.fromiter((len(w) for w in words), dtype=np.int32, count=n)
    bad_len = np.nonzero((lens < 1) | (lens > MAX_WORD_LENGTH))[0]
    if len(bad_len):
        w = words[int(bad_len[0])]
        raise ValueError(f"word {w!r}: length {len(w)} outside 1..{MAX_WORD_LENGTH}")
    if flat.max(initial=0) >= 0x10000:
        bad = np.nonzero(flat >= 0x10000)[0][0]
        raise ValueError(f"character {joined[bad]!r} is not in the {alphabet.name} alphabet")
    mapped = table[flat]
    if (mapped == 0).any():
        bad = int(np.nonzero(mapped == 0)[0][0])
        owner = int(np.searchsorted(np.cumsum(lens), bad, side="right"))
        raise ValueError(f"word {words[owner]!r}: character {joined[bad]!r} is not in the {alphabet.name} alphabet")
    starts = np.concatenate(([0], np.cumsum(lens)[:-1]))
    rows = np.repeat(np.arange(n), lens)
    cols = np.arange(len(flat)) - np.repeat(starts, lens)
    codes[rows, cols] = mapped
    lengths[:] = lens
    return codes, lengths


def _sort_rows(rows: np.ndarray) -> np.ndarray:
    """Rows (0-padded byte strings, values < 64, width ≤ 20) in byte-string order."""
    hi, lo = K.pack_keys(rows)
    return rows[np.lexsort((lo, hi))]


def build_kwg(words: Sequence[str], alphabet: Alphabet | None = None, max_nodes: int = MAX_NODES) -> np.ndarray:
    """Build a minimised KWG (DAWG + GADDAG) from normalised words.

    Algorithm: sorted-input minimal automaton construction (Daciuk et al. 2000)
    over the word set and its GADDAG strings (Gordon 1994), with one register of
    unique states shared by both so that common suffix states are stored once.

    Args:
        words: uppercase words over the alphabet (2..15 letters). Order and
            duplicates do not matter.
        max_nodes: refuse a graph with more nodes (default :data:`MAX_NODES`, the
            format's limit; a lower value is for tests).

    Returns:
        uint32 array ``(n_nodes,)``, the node array (little-endian when saved).

    Raises:
        ValueError: empty word set or a word outside the alphabet / length range.
        GraphTooLargeError: more than ``max_nodes`` nodes (their indices would not
            fit the 22-bit arc field and would silently wrap).
    """
    if max_nodes > MAX_NODES:
        raise ValueError(f"max_nodes {max_nodes:,}: the KWG format holds at most {MAX_NODES:,}")
    if len(words) == 0:
        raise ValueError("no words: cannot build a lexicon from an empty list")
    words = sorted(set(words))
    codes, lengths = encode_words(words, alphabet)
    dawg_rows = np.zeros((len(words), 17), dtype=np.uint8)
    dawg_rows[:, :16] = np.where(codes > 0, codes + 1, 0)
    dawg_rows = _sort_rows(dawg_rows)
    gaddag = _sort_rows(K.gaddag_rows(codes, lengths, int(lengths.sum())))
    cap_arcs = int(np.count_nonzero(dawg_rows)) + int(np.count_nonzero(gaddag)) + 64  # >= arcs ever registered
    cap_states = cap_arcs
    reg = (
        np.zeros(cap_arcs, dtype=np.uint8),
        np.zeros(cap_arcs, dtype=np.uint8),
        np.zeros(cap_arcs, dtype=np.int32),
        np.zeros(cap_states, dtype=np.int32),
        np.zeros(cap_states, dtype=np.int32),
        np.zeros(3, dtype=np.int64),
    )
    table = np.full(1 << 16, -1, dtype=np.int32)
    dawg_root, table = K.build_states(dawg_rows, reg, table)
    gaddag_root, table = K.build_states(gaddag, reg, table)
    nodes = K.layout(reg, dawg_root, gaddag_root)
    if nodes.shape[0] > max_nodes:
        raise GraphTooLargeError(int(nodes.shape[0]), max_nodes)
    return nodes


def validate_kwg(kwg: np.ndarray, alphabet: Alphabet | None = None, where: str = "graph") -> None:
    """Check that a node array is safe to hand to the Numba kernels.

    Raises:
        GraphError: too short, an arc index outside the array, an arc list
            without an end marker, or a tile code outside the alphabet
            (the message starts with ``where``).
    """
    alphabet = alphabet or german()
    if kwg.dtype != np.uint32 or kwg.ndim != 1:
        raise GraphError(f"{where}: expected a 1-D uint32 node array, got {kwg.dtype} {kwg.shape}")
    if kwg.shape[0] < 2:
        raise GraphError(f"{where}: {kwg.shape[0]} nodes, a KWG has at least 2")
    bad = K.check_structure(kwg)
    if bad >= 0:
        raise GraphError(f"{where}: node {bad} is malformed (arc index out of range or unterminated list)")
    tiles = kwg[2:] >> 24
    if tiles.size and int(tiles.max()) > alphabet.size:
        bad = int(np.argmax(tiles > alphabet.size)) + 2
        raise GraphError(
            f"{where}: node {bad} has tile code {int(kwg[bad] >> 24)}, "
            f"outside the {alphabet.name} alphabet (1..{alphabet.size})"
        )


def verify_kwg(kwg: np.ndarray, words: Sequence[str], alphabet: Alphabet | None = None,
               non_words: Sequence[str] = ()) -> None:
    """Verify a built graph against its word list.

    Every word must be accepted by the DAWG and, from every split point, by the
    GADDAG; the word count read back from the DAWG must equal the list's; every
    entry of ``non_words`` (words over the alphabet that are not in the list)
    must be rejected.

    Raises:
        GraphError: naming the first word or non-word that fails, or the counts.
    """
    alphabet = alphabet or german()
    codes, lengths = encode_words(list(words), alphabet)
    bad = K.verify_words(kwg, codes, lengths)
    if bad >= 0:
        raise GraphError(f"verification failed: the built graph ({kwg.shape[0]:,} nodes) does not accept the "
                         f"word {words[bad]!r} (DAWG or GADDAG) -- a builder bug, please report it with the list")
    n = K.count_words(kwg, 0)
    if n != len(set(words)):
        raise GraphError(f"verification failed: the built graph holds {n:,} words, the list {len(set(words)):,} "
                         f"-- a builder bug, please report it with the list")
    if non_words:
        ncodes, nlens = encode_words(list(non_words), alphabet)
        for i in range(len(non_words)):
            if K.accepts_path(kwg, 0, ncodes[i], nlens[i]):
                raise GraphError(f"graph accepts the non-word {non_words[i]!r}")


def word_count(kwg: np.ndarray) -> int:
    """Number of words in the DAWG of a validated node array (-1: cyclic graph)."""
    return int(K.count_words(kwg, 0))


def contains(kwg: np.ndarray, word: str, alphabet: Alphabet | None = None) -> bool:
    """True when the DAWG accepts ``word`` (uppercase, over the alphabet)."""
    alphabet = alphabet or german()
    if not word or not alphabet.is_word_chars(word) or len(word) > MAX_WORD_LENGTH:
        return False
    codes = alphabet.encode(word)
    return bool(K.accepts_path(kwg, 0, codes, len(codes)))


def iter_words(kwg: np.ndarray, alphabet: Alphabet | None = None):
    """Yield every word of the DAWG in tile-code order (pure Python; for tests and export)."""
    alphabet = alphabet or german()
    letters = ("",) + alphabet.letters

    def walk(p: int, prefix: str):
        while p:
            v = int(kwg[p])
            w = prefix + letters[v >> 24]
            if v & ACCEPTS:
                yield w
            if v & ARC_MASK:
                yield from walk(v & ARC_MASK, w)
            if v & IS_END:
                return
            p += 1

    yield from walk(int(kwg[0]) & ARC_MASK, "")
