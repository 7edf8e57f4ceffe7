"""Build, check and read KWG lexicon graphs (a DAWG and a GADDAG in one array).

The node layout (``docs/kwg-format.md``) is the KWG format of wolges, also read
by Macondo and MAGPIE: a flat little-endian ``uint32`` array where node 0 points
at the DAWG root's arc list and node 1 at the GADDAG root's (Gordon 1994), with
tile 0 as the GADDAG separator. Each node is one arc::

    bits 24..31  tile code (0 = separator, 1..n = letters)
    bit  23      accepts: a word ends with this arc
    bit  22      is_end: last arc of its list
    bits 0..21   index of the child's arc list (0 = none)

A graph of more than 4,194,303 nodes does not fit; the *wide* variant
(``format="wide"``, or ``"auto"`` past the limit) is the same layout in
``uint64`` nodes (tile in bits 56..63, accepts 55, is_end 54, arc index
0..53), read by this engine only (:mod:`lexicon_tools._kwg_nodes`).

The builder is deterministic: the same word set gives the same bytes.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ._build_aot import kernels
from ._kwg_layout import KWG, LAYOUTS, WIDE, Layout, layout_of  # noqa: F401  (Numba-free: see _build_aot)
from .alphabet import Alphabet, german

MAX_WORD_LENGTH = 15
ARC_MASK = 0x3FFFFF
IS_END = 0x400000
ACCEPTS = 0x800000
MAX_NODES = ARC_MASK
"""Most nodes a KWG can hold: arc indices are 22 bits (4,194,303), docs/kwg-format.md."""
MAX_WIDE_NODES = WIDE.max_nodes
"""Most nodes of a wide graph: the builder's int32 indices (2,147,483,647)."""
FORMATS = ("auto", "kwg", "wide")
"""``format`` of :func:`build_kwg`: ``kwg`` (uint32, refused past :data:`MAX_NODES`), ``wide`` (uint64),
``auto`` (``kwg`` when it fits, else ``wide``)."""


class GraphError(ValueError):
    """A node array that is not a valid KWG for the alphabet."""


class GraphTooLargeError(GraphError):
    """The word list needs more nodes than the KWG format can address (22-bit arc indices).

    Attributes:
        nodes: nodes the graph needs.
        limit: nodes the format holds.
    """

    def __init__(self, nodes: int, limit: int, wide: bool = False):
        if wide:
            msg = (f"the graph needs {nodes:,} nodes, the wide format of this builder holds {limit:,} "
                   f"(int32 indices): the list is too large -- nothing was written")
        else:
            msg = (f"the graph needs {nodes:,} nodes, the KWG format holds {limit:,} (22-bit node indices, "
                   f"docs/kwg-format.md); use --format wide (or auto) for the wide variant, which only "
                   f"this engine reads -- nothing was written")
        super().__init__(msg)
        self.nodes = nodes
        self.limit = limit


def _flat_codes(words: Sequence[str], alphabet: Alphabet) -> tuple[np.ndarray, np.ndarray]:
    """The tile codes of all words, concatenated (uint8), and the lengths (int32), checked.

    Vectorised over the whole list: one UTF-32 encoding of the joined words and
    one table look-up, no loop over the words in Python.

    Raises:
        ValueError: as :func:`encode_words`.
    """
    table = np.zeros(0x10000, dtype=np.uint8)
    for i, ch in enumerate(alphabet.letters):
        table[ord(ch)] = i + 1
    n = len(words)
    joined = "".join(words)
    flat = np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32)
    lens = np.fromiter(map(len, words), dtype=np.int32, count=n)
    bad_len = np.nonzero((lens < 1) | (lens > MAX_WORD_LENGTH))[0]
    if len(bad_len):
        w = words[int(bad_len[0])]
        raise ValueError(f"word {w!r}: length {len(w)} outside 1..{MAX_WORD_LENGTH}")
    if flat.max(initial=0) >= 0x10000:
        bad = np.nonzero(flat >= 0x10000)[0][0]
        raise ValueError(f"character {joined[bad]!r} is not in the {alphabet.name} alphabet")
    mapped = table[flat]
    if not mapped.all():
        bad = int(np.nonzero(mapped == 0)[0][0])
        owner = int(np.searchsorted(np.cumsum(lens), bad, side="right"))
        raise ValueError(f"word {words[owner]!r}: character {joined[bad]!r} is not in the {alphabet.name} alphabet")
    return mapped, lens


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
    if len(words) == 0:
        return np.zeros((0, 16), dtype=np.uint8), np.zeros(0, dtype=np.int32)
    flat, lens = _flat_codes(words, alphabet)
    return kernels().word_matrix(flat, lens, 16, 0), lens


def _word_rows(words: Sequence[str], alphabet: Alphabet) -> np.ndarray:
    """The distinct words as uint8 ``(m, 17)`` rows of ``tile + 1``, 0-padded, in tile order.

    Raises:
        ValueError: as :func:`encode_words`.
    """
    words = words if isinstance(words, list) else list(words)
    if not words:
        return np.zeros((0, 17), dtype=np.uint8)
    flat, lens = _flat_codes(words, alphabet)
    return kernels().sorted_word_rows(flat, lens)


def _row_word(row: np.ndarray, alphabet: Alphabet) -> str:
    return "".join(alphabet.letters[int(c) - 2] for c in row if c)


def build_kwg(words: Sequence[str], alphabet: Alphabet | None = None, max_nodes: int = MAX_NODES,
              verify: bool = False, format: str = "kwg") -> np.ndarray:
    """Build a minimised KWG (DAWG + GADDAG) from normalised words.

    Algorithm: sorted-input minimal automaton construction (Daciuk et al. 2000)
    over the word set and its GADDAG strings (Gordon 1994), with one register of
    unique states shared by both so that common suffix states are stored once.
    The GADDAG part after the separator is the DAWG itself (the state after
    ``rev(p) + separator`` is the DAWG state after p), so only the distinct
    reversed prefixes are sorted and built (``_kwg_kernels.build_gaddag``); the
    bytes are those of the full-string construction.

    Args:
        words: uppercase words over the alphabet (2..15 letters). Order and
            duplicates do not matter.
        max_nodes: the most nodes of a KWG (default :data:`MAX_NODES`, the
            format's limit; a lower value is for tests).
        verify: also run the check of :func:`verify_kwg` on the graph (reusing
            the encoded words).
        format: ``"kwg"`` (refuse more than ``max_nodes`` nodes), ``"wide"``
            (uint64 nodes, ``docs/kwg-format.md`` "The wide variant") or
            ``"auto"`` (``kwg`` when the graph fits in ``max_nodes``, else wide).

    Returns:
        the node array ``(n_nodes,)``: uint32 (KWG) or uint64 (wide); saved
        little-endian.

    Raises:
        ValueError: empty word set, a word outside the alphabet / length range,
            an unknown ``format``.
        GraphTooLargeError: ``format="kwg"`` and more than ``max_nodes`` nodes
            (their indices would not fit the 22-bit arc field and would silently
            wrap), or more than :data:`MAX_WIDE_NODES`.
        GraphError: ``verify`` is set and the graph fails the check.
    """
    if max_nodes > MAX_NODES:
        raise ValueError(f"max_nodes {max_nodes:,}: the KWG format holds at most {MAX_NODES:,}")
    if format not in FORMATS:
        raise ValueError(f"format {format!r}: expected one of {', '.join(FORMATS)}")
    if len(words) == 0:
        raise ValueError("no words: cannot build a lexicon from an empty list")
    alphabet = alphabet or german()
    dawg_rows = _word_rows(words, alphabet)
    nodes = _build_rows(dawg_rows, alphabet, max_nodes, format)
    if verify:
        validate_kwg(nodes, alphabet, where="built graph")
        _verify_rows(nodes, dawg_rows, alphabet)
    return nodes


def build_kwg_from_codes(codes: np.ndarray, alphabet: Alphabet | None = None) -> np.ndarray:
    """:func:`build_kwg` from encoded words: uint8 ``(n, 16)`` tile codes 1..n, 0-padded (duplicates allowed).

    For word sets made by kernels (the endgame's pruned lexicon), without a
    round trip through strings. Raises ValueError on an empty set.
    """
    alphabet = alphabet or german()
    if codes.shape[0] == 0:
        raise ValueError("no words: cannot build a lexicon from an empty list")
    rows = np.zeros((codes.shape[0], 17), dtype=np.uint8)
    np.add(codes[:, :16], 1, out=rows[:, :16], where=codes[:, :16] > 0)
    from . import _kwg_kernels as K

    hi, lo = K.pack_keys(rows)
    order = np.lexsort((lo, hi))
    hi, lo = hi[order], lo[order]
    keep = np.ones(order.shape[0], dtype=bool)
    keep[1:] = (hi[1:] != hi[:-1]) | (lo[1:] != lo[:-1])
    return _build_rows(rows[order[keep]], alphabet, MAX_NODES)


def _build_rows(dawg_rows: np.ndarray, alphabet: Alphabet, max_nodes: int, format: str = "kwg") -> np.ndarray:
    """:func:`build_kwg` on rows from :func:`_word_rows`."""
    K = kernels()
    st = K.graph_states(dawg_rows)
    n_nodes = int(st[-1])
    lay = WIDE if format == "wide" or (format == "auto" and n_nodes > max_nodes) else KWG
    if lay is KWG and n_nodes > max_nodes:
        raise GraphTooLargeError(n_nodes, max_nodes)
    if n_nodes > lay.max_nodes:
        raise GraphTooLargeError(n_nodes, lay.max_nodes, wide=True)
    nodes = np.zeros(n_nodes, dtype=lay.dtype)
    K.emit_nodes(nodes, *st[:-1], lay.tile_shift, lay.accepts, lay.is_end)
    return nodes


MAX_WORDS = 20_000_000
"""A graph with more words than this is refused on load (the German list has ~300,000)."""

_CHECK_MESSAGES = {
    1: "fewer than 2 nodes",
    3: "the last node does not end an arc list (truncated?)",
    5: "an arc list whose tiles are not in increasing order (an arc twice or a damaged tile code)",
    8: "the separator (tile 0) below the DAWG root; it belongs to the GADDAG only",
    9: "the separator (tile 0) in the GADDAG root list; a GADDAG string starts with a letter",
    10: "the separator (tile 0) twice on one path",
    11: "a separator arc that ends a word or leads nowhere",
    16: "an arc list longer than the alphabet",
}


def validate_kwg(kwg: np.ndarray, alphabet: Alphabet | None = None, where: str = "graph",
                 language: bool = True, max_words: int = MAX_WORDS) -> int:
    """Check completely that a node array is a KWG the kernels may walk.

    Structure: arc indices inside the array, every list terminated, tile codes
    inside the alphabet, tiles of a list strictly increasing. Shape: no cycle,
    no path longer than a 15-letter word (plus the separator in the GADDAG),
    the separator only in the GADDAG (once per path, never first, never
    accepting), no one-letter word. With ``language``: at most ``max_words``
    words, and the GADDAG holds exactly the GADDAG strings of the DAWG's words
    (so moves generated from the GADDAG are the words the DAWG accepts). The
    work is done by the Numba kernels of :mod:`lexicon_tools._kwg_check`
    (linear in the nodes for the structure, about 0.1 s for the German graph;
    the language check walks each DAWG prefix once per split point, about
    0.5 s for 300,000 words).

    Returns:
        the number of words of the DAWG (``-1`` when ``language`` is false).

    Raises:
        GraphError: the first problem found, naming ``where`` and the node.
    """
    alphabet = alphabet or german()
    try:
        lay = layout_of(kwg)
    except ValueError as exc:
        raise GraphError(f"{where}: {exc}") from None
    if kwg.shape[0] < 2:
        raise GraphError(f"{where}: {kwg.shape[0]} nodes, a KWG has at least 2")
    kwg = np.ascontiguousarray(kwg)
    code, node = kernels().check_structure_full(kwg, alphabet.size, MAX_WORD_LENGTH)
    code, node = int(code), int(node)
    if code == 0 and not language:
        return -1
    from . import _kwg_check as C
    from . import _kwg_kernels as K

    if code == C.E_ARC:
        raise GraphError(f"{where}: node {node} points at arc {lay.arc(kwg[node])}, outside the "
                         f"{kwg.shape[0]} nodes or at the GADDAG root pointer (damaged file)")
    if code == C.E_TILE:
        raise GraphError(f"{where}: node {node} has tile code {lay.tile(kwg[node])}, "
                         f"outside the {alphabet.name} alphabet (1..{alphabet.size})")
    if code == C.E_CYCLE:
        raise GraphError(f"{where}: the graph has a cycle (the arc at node {node} leads back to a list on its "
                         f"own path); a word graph has none: the file is damaged")
    if code == C.E_DEEP:
        raise GraphError(f"{where}: a path longer than {MAX_WORD_LENGTH} letters at node {node} "
                         f"(words have at most {MAX_WORD_LENGTH}; damaged file?)")
    if code == C.E_ONE_LETTER:
        t = lay.tile(kwg[node])
        letter = alphabet.letters[t - 1] if 0 < t <= alphabet.size else "?"
        raise GraphError(f"{where}: holds the one-letter word {letter!r} (node {node}); Scrabble words have "
                         f"2..{MAX_WORD_LENGTH} letters: rebuild the graph without one-letter words")
    if code != C.OK:
        raise GraphError(f"{where}: node {node}: {_CHECK_MESSAGES.get(code, f'malformed (check {code})')}")
    if not language:
        return -1
    n_words = int(K.count_words(kwg, 0))
    if n_words > max_words:
        raise GraphError(f"{where}: the graph holds {n_words:,} words, more than {max_words:,}: "
                         f"not a word list (damaged or made up)")
    if n_words and not lay.arc(kwg[1]):
        raise GraphError(f"{where}: the graph has a DAWG of {n_words:,} words but no GADDAG (a DAWG-only "
                         f"file?); the move generator needs both (build one with `python -m lexicon_tools build`)")
    codes, lengths = C.dawg_words(kwg, n_words, MAX_WORD_LENGTH)
    bad = int(C.gaddag_missing(kwg, codes, lengths))
    if bad >= 0:
        word = "".join(alphabet.letters[int(t) - 1] for t in codes[bad, : lengths[bad]])
        raise GraphError(f"{where}: the GADDAG lacks a form of the word {word!r} that the DAWG holds: "
                         f"the two halves disagree (damaged file)")
    g_paths, expect = int(K.count_words(kwg, 1)), int(lengths.sum(dtype=np.int64))
    if g_paths != expect:
        raise GraphError(f"{where}: the GADDAG holds {g_paths:,} strings, the DAWG's {n_words:,} words make "
                         f"{expect:,}: the two halves disagree (damaged file)")
    return n_words


def verify_kwg(kwg: np.ndarray, words: Sequence[str], alphabet: Alphabet | None = None,
               non_words: Sequence[str] = ()) -> None:
    """Verify a built graph against its word list.

    The DAWG must accept every word and hold no other (its word count must
    equal the list's); the GADDAG must hold exactly Gordon's strings of the
    words from every split point: for each distinct prefix p, ``rev(p)`` accepts
    exactly when p is a word and leads to a separator arc exactly when a word
    extends p, pointing at the DAWG's arc list after p; its count of such marks
    must equal the list's (``_kwg_kernels.verify_sorted``; linear in the
    prefixes). Every entry of ``non_words`` (words over the alphabet that are
    not in the list) must be rejected.

    Raises:
        GraphError: naming the first word or non-word that fails, or the counts.
    """
    alphabet = alphabet or german()
    _verify_rows(kwg, _word_rows(words, alphabet), alphabet, non_words)


def _verify_rows(kwg: np.ndarray, rows: np.ndarray, alphabet: Alphabet, non_words: Sequence[str] = ()) -> None:
    """:func:`verify_kwg` on rows from :func:`_word_rows`."""
    non_words = list(non_words)
    ncodes, nlens = encode_words(non_words, alphabet)
    status, a, b = (int(x) for x in kernels().verify_graph(kwg, rows, ncodes, nlens))
    if status == 1:
        raise GraphError(f"verification failed: the built graph ({kwg.shape[0]:,} nodes) does not accept the "
                         f"word {_row_word(rows[a], alphabet)!r} exactly (DAWG or GADDAG) -- a builder bug, "
                         f"please report it with the list")
    if status == 2:
        raise GraphError(f"verification failed: the built graph holds {a:,} words, the list {rows.shape[0]:,} "
                         f"-- a builder bug, please report it with the list")
    if status == 3:
        raise GraphError(f"verification failed: the built GADDAG holds {a:,} strings before the separator, "
                         f"the list makes {b:,} -- a builder bug, please report it with the list")
    if status == 4:
        raise GraphError(f"graph accepts the non-word {non_words[a]!r}")


def word_count(kwg: np.ndarray) -> int:
    """Number of words in the DAWG of a validated node array (-1: cyclic graph)."""
    from . import _kwg_kernels as K

    return int(K.count_words(kwg, 0))


def contains(kwg: np.ndarray, word: str, alphabet: Alphabet | None = None) -> bool:
    """True when the DAWG accepts ``word`` (uppercase, over the alphabet)."""
    alphabet = alphabet or german()
    if not word or not alphabet.is_word_chars(word) or len(word) > MAX_WORD_LENGTH:
        return False
    codes = alphabet.encode(word)
    from . import _kwg_kernels as K

    return bool(K.accepts_path(kwg, 0, codes, len(codes)))


def iter_words(kwg: np.ndarray, alphabet: Alphabet | None = None):
    """Yield every word of the DAWG in tile-code order (pure Python; for tests and export).

    The walk is iterative and stops descending below :data:`MAX_WORD_LENGTH`
    letters, so it ends on any node array whose arc indices are in range
    (:func:`validate_kwg` refuses cycles and longer paths before this is used).
    """
    alphabet = alphabet or german()
    lay = layout_of(kwg)
    shift, accepts, is_end, arc_mask = lay.tile_shift, lay.accepts, lay.is_end, lay.arc_mask
    letters = ("",) + alphabet.letters
    n = int(kwg.shape[0])
    root = int(kwg[0]) & arc_mask
    if not root:
        return
    stack = [root]
    path: list[str] = []
    while stack:
        d = len(stack) - 1
        v = int(kwg[stack[d]])
        t = v >> shift
        del path[d:]
        path.append(letters[t] if t < len(letters) else "?")
        if v & accepts:
            yield "".join(path)
        c = v & arc_mask
        if c and c < n and len(stack) < MAX_WORD_LENGTH:
            stack.append(c)
            continue
        while stack:  # next arc, climbing out of finished lists
            p = stack[-1]
            if int(kwg[p]) & is_end or p + 1 >= n:
                stack.pop()
            else:
                stack[-1] = p + 1
                break
