"""Word-list normalisation (SPEC.md "The word list (lexicon)").

There is no built-in dictionary: players agree on a word list, and every entry
is normalised to the board alphabet before use. This module implements those
rules in pure Python (stdlib :mod:`unicodedata` only):

* surrounding whitespace is stripped and the entry is uppercased;
* ß and ẞ become ``SS`` (SCHLIESSEN);
* Ä Ö Ü stay themselves, never AE OE UE (ÜBER, not UEBER) -- also when the
  input is decomposed (NFD: ``U`` + combining diaeresis), because entries are
  composed with NFC first;
* other accents and diacritics are dropped: É→E, Ç→C, Ñ→N, Å→A; a stroke
  counts as a diacritic too (Ø→O, Ł→L, Đ→D);
* ligatures are split: Œ→OE, Æ→AE, Ĳ→IJ, ﬀ→FF, ﬁ→FI, ﬂ→FL, ﬃ→FFI, ﬄ→FFL,
  ﬅ/ﬆ→ST (NFKC is applied to the Alphabetic Presentation Forms ligatures
  only, so it never turns symbols such as ``™``, ``½`` or ``Ⓐ`` into letters);
* an entry is rejected -- with a short fixed reason code -- when it is not a
  single word of 2 to 15 tiles.

Reason codes, in priority order (when an entry has several problems the
*first* code of this list is reported, independent of where in the entry the
problems occur, so the result is deterministic)::

    empty       nothing left after stripping whitespace
    hyphen      - ‐ ‑ ‒ – — ― ⁃ ﹣ － and the soft hyphen U+00AD
    apostrophe  ' ’ ‘ ‛ ʼ ʻ ` ´ ′ ＇
    dot         . … ․ ‥ 。 ．
    digit       any numeric character (0-9, other scripts' digits, ², ½, Ⅻ)
    space       whitespace inside the entry (also tab, no-break space)
    symbol      any other non-letter, or a letter outside the tile set after
                normalisation (Greek α, Cyrillic ж, Þ, fullwidth letters, ...)
    too_short   fewer than 2 tiles after normalisation, or a single letter
                that expands to two tiles (a line holding only ß, ẞ, Æ or
                ﬀ is a letter, not the word SS, AE or FF)
    too_long    more than 15 tiles after normalisation

Proper names and abbreviations cannot be recognised from a single entry; word
list builders must filter them (see ``scripts/build_default_lexicon.py``).

Reading and writing helpers (:func:`read_lines`, :func:`write_atomic`,
:func:`write_words`, :func:`write_rejects`) raise :class:`WordListError`, a
:class:`ValueError`, with a message that names the file.
"""

from __future__ import annotations

import codecs
import functools
import gzip
import itertools
import lzma
import os
import re
import tempfile
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .alphabet import Alphabet, german

__all__ = [
    "MAX_LEN",
    "MIN_LEN",
    "REASONS",
    "REJECT_SAMPLES",
    "NormalizeResult",
    "WordListError",
    "normalize_entry",
    "normalize_file",
    "normalize_lines",
    "read_lines",
    "write_atomic",
    "write_rejects",
    "write_words",
]

MIN_LEN = 2
"""Shortest word, in tiles after normalisation (SPEC.md "The word list")."""
MAX_LEN = 15
"""Longest word, in tiles after normalisation (the board is 15 wide)."""

REASONS: tuple[str, ...] = (
    "empty",
    "hyphen",
    "apostrophe",
    "dot",
    "digit",
    "space",
    "symbol",
    "too_short",
    "too_long",
)
"""All rejection reason codes, in priority order (first applicable wins)."""

_PRIORITY = {r: i for i, r in enumerate(REASONS)}

_HYPHENS = frozenset("-\u00ad\u2010\u2011\u2012\u2013\u2014\u2015\u2043\ufe63\uff0d")
_APOSTROPHES = frozenset("'\u2019\u2018\u201b\u02bc\u02bb`\u00b4\u2032\uff07")
_DOTS = frozenset(".\u2026\u2024\u2025\u3002\uff0e")

# Explicit replacements, applied before anything else (keys are single chars).
_SPECIAL: dict[str, str] = {
    "ß": "SS",
    "ẞ": "SS",
    "Œ": "OE",
    "œ": "OE",
    "Æ": "AE",
    "æ": "AE",
    "Ĳ": "IJ",
    "ĳ": "IJ",
    # Strokes are diacritics that Unicode does not decompose.
    "Ø": "O",
    "ø": "O",
    "Ł": "L",
    "ł": "L",
    "Đ": "D",
    "đ": "D",
    "Ħ": "H",
    "ħ": "H",
    "Ŧ": "T",
    "ŧ": "T",
    "Ƶ": "Z",
    "ƶ": "Z",
}
_DIAERESIS = "\u0308"
_UMLAUT_BASES = frozenset("AOU")


class WordListError(ValueError):
    """A word list cannot be read or written (message names the file)."""


# -- per-character translation ------------------------------------------------
# A translation is either the replacement text (possibly "") or, for a character
# that makes the entry invalid, a reason code wrapped in a 1-tuple.


def _strip_marks(text: str) -> str:
    """Drop combining marks, except a diaeresis directly on A, O or U."""
    out: list[str] = []
    prev = ""
    for ch in unicodedata.normalize("NFD", text):
        if unicodedata.combining(ch) or unicodedata.category(ch).startswith("M"):
            if ch == _DIAERESIS and prev in _UMLAUT_BASES:
                out.append(ch)
                prev = ""  # only one diaeresis per base
            continue
        out.append(ch)
        prev = ch
    return unicodedata.normalize("NFC", "".join(out))


def _translate_char(ch: str, letters: frozenset[str]):
    """Translation of one character (after NFC of the entry); see module doc."""
    if ch in letters:
        return ch
    if ch in _SPECIAL:
        return _SPECIAL[ch]
    if ch in _HYPHENS:
        return ("hyphen",)
    if ch in _APOSTROPHES:
        return ("apostrophe",)
    if ch in _DOTS:
        return ("dot",)
    if ch.isnumeric():
        return ("digit",)
    if ch.isspace():
        return ("space",)
    cat = unicodedata.category(ch)
    if cat.startswith("M"):
        # A combining mark NFC could not compose onto its base: drop it.
        return ""
    if not cat.startswith("L"):
        return ("symbol",)
    if "\ufb00" <= ch <= "\ufb06":
        # Latin ligatures ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ: NFKC splits them (ﬅ → "st").
        up = unicodedata.normalize("NFKC", ch).upper()
    else:
        up = ch.upper()
    if all(c in letters for c in up):
        return up
    parts: list[str] = []
    for c in up:
        if c in letters:
            parts.append(c)
        elif c in _SPECIAL:
            parts.append(_SPECIAL[c])
        else:
            parts.append(_strip_marks(c))
    out = "".join(parts)
    if out and all(c in letters for c in out):
        return out
    return ("symbol",)


class _Normalizer:
    """Cached per-alphabet state: the letter set, fast-path regex, char table."""

    __slots__ = ("letters", "fast", "block", "table")

    def __init__(self, alphabet: Alphabet) -> None:
        self.letters = frozenset(alphabet.letters)
        cls = "".join(re.escape(c) for c in sorted(self.letters))
        self.fast = re.compile(f"[{cls}]{{{MIN_LEN},{MAX_LEN}}}").fullmatch
        # a piece of text whose every line the fast path takes unchanged
        self.block = re.compile(f"(?:[{cls}]{{{MIN_LEN},{MAX_LEN}}}\n)*").fullmatch
        self.table: dict[str, object] = {}

    def __call__(self, raw: str) -> tuple[str | None, str | None]:
        s = raw.strip()
        if s and s[0] == "\ufeff":  # stray byte-order mark
            s = s[1:].strip()
        if not s:
            return None, "empty"
        up = s.upper()
        if self.fast(up) is not None and len(s) >= MIN_LEN:  # "ß".upper() is "SS": one letter
            return up, None
        table = self.table
        letters = self.letters
        parts: list[str] = []
        worst = len(REASONS)
        n_letters = 0  # source letters that gave tiles (ß is one letter, two tiles)
        for ch in unicodedata.normalize("NFC", s):
            t = table.get(ch)
            if t is None:
                t = table[ch] = _translate_char(ch, letters)
            if type(t) is tuple:
                p = _PRIORITY[t[0]]
                if p < worst:
                    worst = p
            else:
                parts.append(t)
                n_letters += bool(t)
        if worst < len(REASONS):
            return None, REASONS[worst]
        word = "".join(parts)
        if len(word) < MIN_LEN or n_letters < MIN_LEN:
            return None, "too_short"
        if len(word) > MAX_LEN:
            return None, "too_long"
        return word, None


_NORMALIZERS: dict[tuple[str, ...], _Normalizer] = {}


def _normalizer(alphabet: Alphabet | None) -> _Normalizer:
    alphabet = alphabet if alphabet is not None else german()
    key = tuple(alphabet.letters)
    norm = _NORMALIZERS.get(key)
    if norm is None:
        norm = _NORMALIZERS[key] = _Normalizer(alphabet)
    return norm


def normalize_entry(raw: str, alphabet: Alphabet | None = None) -> tuple[str | None, str | None]:
    """Normalise one word-list entry (SPEC.md "The word list (lexicon)").

    Args:
        raw: the entry as found in the list (surrounding whitespace allowed).
        alphabet: tile set whose letters words may use; default the German
            set (:func:`lexicon_tools.alphabet.german`, A-Z plus Ä Ö Ü).

    Returns:
        ``(word, None)`` with ``word`` the uppercase normalised word
        (``"schließen"`` → ``("SCHLIESSEN", None)``), or ``(None, reason)``
        with ``reason`` one of :data:`REASONS` (``"Baden-Baden"`` →
        ``(None, "hyphen")``). When several reasons apply the first in
        :data:`REASONS` order is returned.

    Raises:
        Nothing for any ``str`` input (an invalid entry is a result, not an
        error); ``AttributeError``/``TypeError`` if ``raw`` is not a string.
    """
    return _normalizer(alphabet)(raw)


# -- reading --------------------------------------------------------------------
_BINARY_PROBE = 8192
_CHUNK = 1 << 18


def _check_path(path: Path) -> None:
    if not path.exists():
        raise WordListError(f"word list {str(path)!r}: no such file")
    if path.is_dir():
        raise WordListError(f"word list {str(path)!r}: is a directory, not a file")


def _chunks(path: Path, progress=None) -> Iterator[bytes]:
    """The file's bytes (decompressed if xz/gzip) in chunks of 256 KiB, read as they are needed.

    ``progress(done, total)`` gets the bytes of the *file* read so far (compressed
    bytes for a compressed file) and the file size, after each chunk.
    """
    _check_path(path)
    try:
        raw = open(path, "rb")
    except OSError as exc:
        raise WordListError(f"word list {str(path)!r}: cannot read ({exc.strerror or exc})") from None
    with raw:
        try:
            total = os.fstat(raw.fileno()).st_size
            magic = raw.read(6)
            raw.seek(0)
        except OSError as exc:
            raise WordListError(f"word list {str(path)!r}: cannot read ({exc.strerror or exc})") from None
        if magic == b"\xfd7zXZ\x00":
            stream, kind = lzma.LZMAFile(raw), "xz"
        elif magic[:2] == b"\x1f\x8b":
            stream, kind = gzip.GzipFile(fileobj=raw), "gzip"
        else:
            stream, kind = raw, ""
        while True:
            try:
                chunk = stream.read(_CHUNK)
            except EOFError:
                raise WordListError(f"word list {str(path)!r}: the {kind} file ends early "
                                    "(truncated download or copy?)") from None
            except (lzma.LZMAError, OSError) as exc:
                if kind and not isinstance(exc, (PermissionError, IsADirectoryError)):
                    raise WordListError(f"word list {str(path)!r}: corrupt compressed file ({exc})") from None
                raise WordListError(f"word list {str(path)!r}: cannot read ({getattr(exc, 'strerror', None) or exc})") from None
            if not chunk:
                return
            if progress is not None:
                try:
                    progress(raw.tell(), total)
                except (OSError, ValueError):
                    pass
            yield chunk


def _read_bytes(path: Path) -> bytes:
    return b"".join(_chunks(path))


def _codec(path: Path, encoding: str | None) -> tuple[str | None, bool]:
    """(codec name or None for UTF-8, wide) -- wide: UTF-16/32, where a newline is not the byte 0x0A."""
    if encoding is None:
        return None, False
    try:
        codec = codecs.lookup(encoding).name
    except LookupError:
        raise WordListError(f"word list {str(path)!r}: unknown encoding {encoding!r}") from None
    return codec, codec.startswith(("utf-16", "utf-32"))


def _probe(first: bytes, path: Path, encoding: str | None, wide: bool) -> None:
    if not wide and b"\x00" in first[:_BINARY_PROBE]:
        if encoding is None and first[:2] in (b"\xff\xfe", b"\xfe\xff"):
            raise WordListError(
                f"word list {str(path)!r}: looks like UTF-16 (byte-order mark); pass --encoding utf-16"
            )
        raise WordListError(
            f"word list {str(path)!r}: binary file (NUL bytes in the first 8 KiB), not a text word list"
        )


def _decode_error(path: Path, encoding: str | None, exc: UnicodeDecodeError, data: bytes, line0: int,
                  at_end: bool) -> WordListError:
    line = line0 + data.count(b"\n", 0, exc.start)
    if at_end and exc.reason == "unexpected end of data":
        return WordListError(
            f"word list {str(path)!r}: cut off mid-line: line {line} ends inside a character "
            "(the file is truncated); get a complete copy")
    if encoding is None:
        return WordListError(
            f"word list {str(path)!r}: not valid UTF-8 (byte 0x{data[exc.start]:02x} on line {line}); "
            "the file looks like Latin-1 (ISO-8859-1 / Windows-1252) or is binary -- "
            "if it is Latin-1, pass --encoding latin-1 (encoding='latin-1')")
    return WordListError(f"word list {str(path)!r}: cannot decode as {encoding} (line {line}: {exc.reason})")


def _decode(data: bytes, path: Path, encoding: str | None) -> str:
    """Decode a whole file's bytes (kept for callers that hold the bytes already)."""
    codec, wide = _codec(path, encoding)
    _probe(data, path, encoding, wide)
    try:
        text = data.decode(encoding or "utf-8")
    except UnicodeDecodeError as exc:
        raise _decode_error(path, encoding, exc, data, 1, exc.end >= len(data)) from None
    return text[1:] if text[:1] == "\ufeff" else text


def _text_pieces(path: Path, encoding: str | None, progress=None) -> Iterator[tuple[str, bool, str]]:
    """Decoded text of the file in pieces that end at a line end: ``(text, complete, separator)``.

    The last piece has ``complete=False`` when the file does not end with a line end.
    Lines end with ``\\n`` (``\\r\\n`` too), or ``\\r`` alone in an old Mac file (no
    ``\\n`` in its first 64 KiB); the separator is left in the text (one per line).
    """
    codec, wide = _codec(path, encoding)
    chunks = _chunks(path, progress)
    first = next(chunks, b"")
    _probe(first, path, encoding, wide)
    if wide:
        dec = codecs.getincrementaldecoder(codec)("strict")
        carry = ""
        lines_before = 1
        for chunk in itertools.chain((first,), chunks):
            try:
                text = carry + dec.decode(chunk)
            except UnicodeError as exc:  # also "UTF-16 stream does not start with BOM"
                raise WordListError(f"word list {str(path)!r}: cannot decode as {encoding} "
                                    f"(after line {lines_before}: {getattr(exc, 'reason', exc)})") from None
            cut = text.rfind("\n") + 1
            carry = text[cut:]
            if cut:
                lines_before += text.count("\n", 0, cut)
                yield text[:cut], True, "\n"
        try:
            carry += dec.decode(b"", final=True)
        except UnicodeError:
            raise WordListError(f"word list {str(path)!r}: cut off mid-line: line {lines_before} ends inside "
                                f"a character (the file is truncated)") from None
        if carry:
            yield carry, False, "\n"
        return
    sep = b"\r" if (b"\n" not in first[:_BINARY_PROBE * 8] and b"\r" in first) else b"\n"
    tsep = sep.decode("ascii")
    name = encoding or "utf-8"
    carry = b""
    line = 1
    pending = [first]
    del first
    for chunk in itertools.chain(pending, chunks):
        pending.clear()
        data = carry + chunk if carry else chunk
        del chunk
        cut = data.rfind(sep) + 1
        if not cut:
            carry = data
            continue
        carry = data[cut:]
        piece = data[:cut]
        del data
        try:
            text = piece.decode(name)
        except UnicodeDecodeError as exc:
            raise _decode_error(path, encoding, exc, piece, line, False) from None
        except (UnicodeError, LookupError) as exc:  # a codec that cannot decode text at all (e.g. idna)
            raise WordListError(f"word list {str(path)!r}: cannot decode as {encoding} (line {line}: {exc})") from None
        line += piece.count(sep)
        del piece
        yield text, True, tsep
        del text
    if carry:
        try:
            text = carry.decode(name)
        except UnicodeDecodeError as exc:
            raise _decode_error(path, encoding, exc, carry, line, exc.end >= len(carry)) from None
        except (UnicodeError, LookupError) as exc:
            raise WordListError(f"word list {str(path)!r}: cannot decode as {encoding} (line {line}: {exc})") from None
        yield text, False, tsep


def read_lines(path: str | os.PathLike, encoding: str | None = None, *, progress=None,
               on_warning=None) -> Iterator[tuple[int, str]]:
    """Yield ``(line_number, entry)`` for every entry of a word-list file, streaming.

    The file is read in chunks of 256 KiB as entries are consumed, so memory
    does not grow with the file (a 1 GB list is fine). Line numbers are 1-based
    physical lines (``\\n``, ``\\r\\n``, or ``\\r`` alone for old Mac files); each
    entry is stripped of surrounding whitespace; blank lines and lines whose first
    non-blank character is ``#`` are skipped. A leading byte-order mark is
    dropped. Files compressed with xz or gzip (recognised by their magic bytes)
    are decompressed on the fly. Entries are *not* normalised: see
    :func:`normalize_lines` and SPEC.md "The word list (lexicon)".

    Args:
        path: the word list.
        encoding: ``None`` (default) for UTF-8 with or without BOM; otherwise
            any Python codec name (``"latin-1"``, ``"cp1252"``, ``"utf-16"``).
        progress: optional ``progress(bytes_read, file_size)`` callback (bytes of
            the file as stored, compressed or not), called after each chunk.
        on_warning: optional ``on_warning(message)`` callback; told when the last
            line has no line end (the file may be cut off: the last entry is read
            all the same, since many hand-made lists lack the final newline).

    Raises:
        WordListError: the path does not exist, is a directory or cannot be
            read; the file is binary (NUL bytes in its first 8 KiB); it is
            not valid UTF-8 and no ``encoding`` was given (message names the
            line and suggests ``--encoding latin-1``); it cannot be decoded
            with ``encoding``; ``encoding`` is unknown; the file is cut off
            inside a character or a compressed file ends early. Raised when
            the reader reaches the problem (the first ``next()`` for problems
            of the file as a whole).
    """
    for text, complete, sep, lineno in _pieces(Path(path), encoding, progress, on_warning):
        yield from _piece_entries(text, complete, sep, lineno)


def _pieces(p: Path, encoding: str | None, progress, on_warning) -> Iterator[tuple[str, bool, str, int]]:
    """:func:`_text_pieces` with the byte-order mark dropped and the number of lines before each piece;
    warns (``on_warning``) after the last piece when it has no line end."""
    lineno = 0
    first = True
    for text, complete, sep in _text_pieces(p, encoding, progress):
        if first:
            first = False
            if text[:1] == "\ufeff":
                text = text[1:]
        yield text, complete, sep, lineno
        lineno += text.count(sep) + (0 if complete else 1)
        if not complete and on_warning is not None and text.strip():
            on_warning(f"word list {str(p)!r}: the last line ({lineno}: {text.strip()[:40]!r}) has no line "
                       "end; if the file was cut off, that entry may be incomplete")


def _piece_entries(text: str, complete: bool, sep: str, lineno: int) -> Iterator[tuple[int, str]]:
    """``(line_number, entry)`` of one piece (see :func:`read_lines`); ``lineno`` lines came before it."""
    lines = text.split(sep)
    if complete:
        lines.pop()  # the empty string after the last separator
    for line in lines:
        lineno += 1
        entry = line.strip()
        if entry and entry[0] != "#":
            yield lineno, entry


# -- normalising a whole list -----------------------------------------------------
@dataclass
class NormalizeResult:
    """Outcome of normalising a word list (SPEC.md "The word list (lexicon)").

    Attributes:
        words: the distinct normalised words, sorted by Python string order
            (code point order: A..Z, then Ä Ö Ü).
        rejects: ``(raw_entry, line_number, reason)`` for every rejected
            entry, in input order; ``reason`` is one of :data:`REASONS` (only
            the first :data:`REJECT_SAMPLES` with ``keep_rejects=False``).
        rejected: number of rejected entries (all of them, also when
            ``rejects`` holds only a sample).
        reason_counts: rejected entries per reason code (only codes that
            occurred, in :data:`REASONS` order).
        duplicates: accepted entries that normalised to a word already seen
            (``Straße`` after ``STRASSE``) and were merged.
        lines: entries read (non-blank, non-comment lines).
    """

    words: list[str] = field(default_factory=list)
    rejects: list[tuple[str, int, str]] = field(default_factory=list)
    rejected: int = 0
    reason_counts: dict[str, int] = field(default_factory=dict)
    duplicates: int = 0
    lines: int = 0


REJECT_SAMPLES = 100
"""Rejected entries kept (the first ones) by :func:`normalize_lines` with ``keep_rejects=False``."""


def normalize_lines(
    lines: Iterable[tuple[int, str]], alphabet: Alphabet | None = None, keep_rejects: bool = True,
) -> NormalizeResult:
    """Normalise ``(line_number, entry)`` pairs (as from :func:`read_lines`), streaming.

    Each entry goes through :func:`normalize_entry`; accepted words are
    de-duplicated and sorted, rejected entries are recorded with their line
    number and reason (SPEC.md "The word list (lexicon)"). ``lines`` is consumed
    one pair at a time, so memory is bounded by the distinct words (what the
    graph is built from), not by the input: a list repeated ten times needs no
    more memory than the list once (with ``keep_rejects=False``).

    Args:
        lines: iterable of ``(line_number, raw_entry)``.
        alphabet: tile set; default the German set.
        keep_rejects: keep every rejected entry (``True``), or only the first
            :data:`REJECT_SAMPLES` (``False``; the counts stay complete).

    Returns:
        A :class:`NormalizeResult`.

    Raises:
        WordListError: propagated from ``lines`` (e.g. :func:`read_lines`).
    """
    c = _Collector(_normalizer(alphabet), keep_rejects)
    c.add_entries(lines)
    return c.result()


class _Collector:
    """The running state of :func:`normalize_lines`: distinct words, rejects, counts."""

    def __init__(self, norm: _Normalizer, keep_rejects: bool) -> None:
        self.norm = norm
        self.keep_rejects = keep_rejects
        # a dict, not a set: insertion order survives, so sorting an already (nearly) sorted list is fast
        self.seen: dict[str, None] = {}
        self.rejects: list[tuple[str, int, str]] = []
        self.counts: dict[str, int] = {}
        self.n = 0
        self.accepted = 0
        self.n_rejected = 0

    def add_entries(self, lines: Iterable[tuple[int, str]]) -> None:
        norm, seen, counts, rejects, keep = self.norm, self.seen, self.counts, self.rejects, self.keep_rejects
        n = accepted = n_rejected = 0
        n_rejected0 = self.n_rejected
        for lineno, raw in lines:
            n += 1
            word, reason = norm(raw)
            if word is None:
                n_rejected += 1
                counts[reason] = counts.get(reason, 0) + 1  # type: ignore[index]
                if keep or n_rejected0 + n_rejected <= REJECT_SAMPLES:
                    rejects.append((raw, lineno, reason))  # type: ignore[arg-type]
            else:
                accepted += 1
                seen[word] = None
        self.n += n
        self.accepted += accepted
        self.n_rejected += n_rejected

    def add_clean(self, words: list[str]) -> None:
        """Words that are already normalised (each one entry)."""
        self.seen.update(dict.fromkeys(words))
        self.n += len(words)
        self.accepted += len(words)

    def result(self) -> NormalizeResult:
        return NormalizeResult(
            words=sorted(self.seen),
            rejects=self.rejects,
            rejected=self.n_rejected,
            reason_counts={r: self.counts[r] for r in REASONS if r in self.counts},
            duplicates=self.accepted - len(self.seen),
            lines=self.n,
        )


def normalize_path(path: str | os.PathLike, encoding: str | None = None, alphabet: Alphabet | None = None,
                   keep_rejects: bool = True, *, progress=None, on_warning=None) -> NormalizeResult:
    """``normalize_lines(read_lines(path, encoding, progress=..., on_warning=...), alphabet, keep_rejects)``, faster.

    A piece of the file (about 256 KiB) in which every line, upper-cased, is
    already a word of MIN_LEN..MAX_LEN letters of the alphabet -- entries that
    :func:`normalize_entry` takes unchanged after ``upper()`` -- is taken with
    one ``upper()`` and one regular-expression match instead of line by line;
    any other piece goes line by line. Same result, same errors and warnings
    as the composition above (see :func:`read_lines` and :func:`normalize_lines`).
    """
    norm = _normalizer(alphabet)
    c = _Collector(norm, keep_rejects)
    for text, complete, sep, lineno in _pieces(Path(path), encoding, progress, on_warning):
        if complete and sep == "\n":
            up = text.upper()
            if norm.block(up) is not None:
                words = up.split("\n")
                words.pop()
                c.add_clean(words)
                continue
        c.add_entries(_piece_entries(text, complete, sep, lineno))
    return c.result()


def normalize_file(
    path: str | os.PathLike, encoding: str | None = None, alphabet: Alphabet | None = None
) -> NormalizeResult:
    """Read and normalise a word-list file: ``normalize_lines(read_lines(path, encoding))``.

    See SPEC.md "The word list (lexicon)" for the rules.

    Raises:
        WordListError: as :func:`read_lines` (missing path, directory,
            binary file, not UTF-8 without ``encoding``, undecodable).
    """
    return normalize_lines(read_lines(path, encoding), alphabet)


# -- writing --------------------------------------------------------------------
@functools.cache
def _default_mode() -> int:
    """Mode for new files: 0o666 minus the process umask (like ``open()``)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return 0o666 & ~int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    old = os.umask(0o022)
    os.umask(old)
    return 0o666 & ~old


def _temp_beside(dest: Path) -> tuple[int, str]:
    """``(fd, path)`` of a new temporary file in ``dest``'s directory (what :func:`write_atomic` renames).

    Raises:
        WordListError: the directory does not exist or is not writable, or ``dest`` is a directory.
    """
    parent = dest.parent if str(dest.parent) else Path(".")
    if not parent.is_dir():
        raise WordListError(f"cannot write {str(dest)!r}: directory {str(parent)!r} does not exist")
    if dest.is_dir():
        raise WordListError(f"cannot write {str(dest)!r}: it is a directory")
    try:
        return tempfile.mkstemp(dir=parent, prefix=f".{dest.name}.", suffix=".tmp")
    except OSError as exc:
        raise WordListError(
            f"cannot write {str(dest)!r}: directory {str(parent)!r} is not writable ({exc.strerror or exc})"
        ) from None


def check_writable(path: str | os.PathLike) -> None:
    """Check, before long work, that :func:`write_atomic` can write ``path`` later (a temporary file is created
    beside it and removed; the file itself is not touched).

    Raises:
        WordListError: as :func:`write_atomic` (no directory, not writable, a directory), message naming the path.
    """
    fd, tmp = _temp_beside(Path(path))
    os.close(fd)
    try:
        os.unlink(tmp)
    except OSError:
        pass


def write_atomic(path: str | os.PathLike, text_or_lines: str | bytes | Iterable[str]) -> None:
    """Write a file atomically: temp file in the same directory, then ``os.replace``.

    Either the complete new file appears at ``path`` or (on any error) the old
    file, if any, is left untouched and no temporary file remains.

    Args:
        path: destination file.
        text_or_lines: ``str`` (written as UTF-8 exactly as given), ``bytes``
            (written as is), or an iterable of lines (each written followed
            by ``\\n``; lines must not contain newlines).

    Raises:
        WordListError: the directory does not exist or is not writable, or
            ``path`` is a directory, or writing fails (message names the path).
            Exceptions raised by a ``text_or_lines`` iterator propagate
            unchanged (and nothing is written).
    """
    dest = Path(path)
    fd, tmp = _temp_beside(dest)
    try:
        with os.fdopen(fd, "wb") as fh:
            if isinstance(text_or_lines, bytes):
                fh.write(text_or_lines)
            elif isinstance(text_or_lines, str):
                fh.write(text_or_lines.encode("utf-8"))
            else:
                buf: list[str] = []
                for line in text_or_lines:
                    buf.append(line)
                    buf.append("\n")
                    if len(buf) >= 65536:
                        fh.write("".join(buf).encode("utf-8"))
                        buf.clear()
                fh.write("".join(buf).encode("utf-8"))
            fh.flush()
            os.fsync(fh.fileno())
        try:
            mode = dest.stat().st_mode & 0o7777 if dest.exists() else _default_mode()
            os.chmod(tmp, mode)
        except OSError:
            pass
        os.replace(tmp, dest)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise WordListError(f"cannot write {str(dest)!r}: {exc.strerror or exc}") from None
        raise


def write_words(path: str | os.PathLike, words: Iterable[str]) -> None:
    """Write words one per line, UTF-8, ``\\n`` endings, trailing newline (atomically).

    If ``path`` ends in ``.xz`` the file is xz-compressed (preset 9), the
    format of ``lexicon_tools/data/default_words.txt.xz``; :func:`read_lines`
    reads both.

    Raises:
        WordListError: as :func:`write_atomic`.
    """
    if str(path).endswith(".xz"):
        text = "".join(w + "\n" for w in words)
        write_atomic(path, lzma.compress(text.encode("utf-8"), preset=9))
    else:
        write_atomic(path, words)


def _tsv_field(s: str) -> str:
    if "\\" in s or "\t" in s or "\n" in s or "\r" in s:
        s = s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")
    return s


def write_rejects(path: str | os.PathLike, rejects: Iterable[tuple[str, int, str]]) -> None:
    """Write rejected entries as TSV (atomically): header ``entry<TAB>line<TAB>reason``.

    One row per reject, as in :attr:`NormalizeResult.rejects`. Backslash, tab,
    CR and LF inside an entry are escaped as ``\\\\``, ``\\t``, ``\\r``, ``\\n``.

    Raises:
        WordListError: as :func:`write_atomic`.
    """
    rows = ["entry\tline\treason"]
    rows.extend(f"{_tsv_field(raw)}\t{lineno}\t{reason}" for raw, lineno, reason in rejects)
    write_atomic(path, rows)
