"""The tile set as data: letters, tile codes, values and counts.

A tile set is a JSON file in ``lexicon_tools/data/`` (``german.json`` is the
default, SPEC.md "Tiles"). Tile codes are small integers used everywhere in the
lexicon graph and on the board:

* ``0`` is the blank (and, inside the GADDAG, the separator);
* ``1..n`` are the letters in the order the file lists them. For German this is
  the German sort order A Ä B C D E F G H I J K L M N O Ö P Q R S T U Ü V W X Y Z,
  the order used to decide who starts and the order wolges uses, so ``.kwg``
  files interoperate.

On the board and in racks a blank that stands for a letter is written as that
letter in lowercase (``ä`` for a blank used as Ä); in racks an undesignated blank
is ``?``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

BLANK = 0
"""Tile code of the blank (and of the GADDAG separator)."""


@dataclass(frozen=True)
class Alphabet:
    """A tile set: letters with their codes, values and counts.

    Attributes:
        name: short name of the edition (``"german"``).
        letters: the letters in code order; ``letters[i]`` has code ``i + 1``.
        values: int32 array of shape ``(n + 1,)``, points per tile code
            (``values[0]`` is the blank's value, 0).
        counts: int32 array of shape ``(n + 1,)``, tiles per code in a full bag
            (``counts[0]`` is the number of blanks).
        vowels: the letters that count as vowels (for rack-draw rules).
        rack_size: tiles on a full rack (7).
        bingo_bonus: points for playing a full rack (50).
    """

    name: str
    letters: tuple[str, ...]
    values: np.ndarray
    counts: np.ndarray
    vowels: frozenset[str]
    rack_size: int = 7
    bingo_bonus: int = 50
    _code: dict[str, int] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._code.update({ch: i + 1 for i, ch in enumerate(self.letters)})

    # -- construction -----------------------------------------------------
    @classmethod
    def load(cls, name_or_path: str | Path = "german") -> "Alphabet":
        """Load a tile set by name (a file in ``lexicon_tools/data``) or path.

        Raises:
            ValueError: the file is missing or malformed (message names the file).
        """
        path = Path(name_or_path)
        try:
            if path.suffix == ".json" or path.exists():
                text = path.read_text(encoding="utf-8")
                where = str(path)
            else:
                ref = Path(__file__).parent / "data" / f"{name_or_path}.json"  # no importlib.resources at start-up
                text = ref.read_text(encoding="utf-8")
                where = str(ref)
        except (OSError, FileNotFoundError) as exc:
            raise ValueError(f"tile set {name_or_path!r}: cannot read ({exc})") from None
        try:
            data = json.loads(text)
            letters = tuple(str(ch) for ch, _, _ in data["letters"])
            values = [int(data["blank"]["value"])] + [int(v) for _, v, _ in data["letters"]]
            counts = [int(data["blank"]["count"])] + [int(c) for _, _, c in data["letters"]]
        except (KeyError, TypeError, ValueError, json.JSONDecodeError) as exc:
            raise ValueError(f"tile set {where}: malformed ({exc})") from None
        if len(set(letters)) != len(letters) or any(len(ch) != 1 or not ch.isupper() for ch in letters):
            raise ValueError(f"tile set {where}: letters must be distinct single uppercase characters")
        if len(letters) > 31:
            raise ValueError(f"tile set {where}: at most 31 letters fit the lexicon graph")
        values_arr = np.array(values, dtype=np.int32)
        counts_arr = np.array(counts, dtype=np.int32)
        values_arr.setflags(write=False)
        counts_arr.setflags(write=False)
        return cls(
            name=str(data.get("name", path.stem)),
            letters=letters,
            values=values_arr,
            counts=counts_arr,
            vowels=frozenset(data.get("vowels", "")),
            rack_size=int(data.get("rack_size", 7)),
            bingo_bonus=int(data.get("bingo_bonus", 50)),
        )

    # -- queries ------------------------------------------------------------
    @property
    def size(self) -> int:
        """Number of letters (29 for German); codes run ``1..size``."""
        return len(self.letters)

    @property
    def total_tiles(self) -> int:
        """Tiles in a full bag, blanks included (102 for German)."""
        return int(self.counts.sum())

    @property
    def set_label(self) -> str:
        """The tile set's name for messages, one spelling everywhere: ``"German tile set"``."""
        return f"{self.name.capitalize()} tile set"

    def not_a_letter(self, ch: str) -> str:
        """Message fragment ``'x' is not a letter of the German tile set`` (with a hint for ß: write SS)."""
        hint = " (write SS for ß)" if ch in ("ß", "ẞ") else ""
        return f"{ch!r} is not a letter of the {self.set_label}{hint}"

    def code(self, letter: str) -> int:
        """Tile code of an uppercase letter.

        Raises:
            ValueError: the letter is not in the tile set.
        """
        try:
            return self._code[letter]
        except KeyError:
            raise ValueError(f"letter {letter!r} is not in the {self.set_label}") from None

    def letter(self, code: int) -> str:
        """Uppercase letter for a code in ``1..size`` (``?`` for 0, the blank)."""
        return "?" if code == BLANK else self.letters[code - 1]

    def encode(self, word: str) -> np.ndarray:
        """Encode an uppercase word as a uint8 array of tile codes.

        Raises:
            ValueError: a character is not a letter of the tile set.
        """
        return np.fromiter((self.code(ch) for ch in word), dtype=np.uint8, count=len(word))

    def decode(self, codes) -> str:
        """Inverse of :meth:`encode`."""
        return "".join(self.letters[int(c) - 1] for c in codes)

    def is_word_chars(self, word: str) -> bool:
        """True when every character of ``word`` is a letter of the tile set."""
        return all(ch in self._code for ch in word)

    def parse_rack(self, rack: str) -> np.ndarray:
        """Parse a rack string (``"AEINRS?"``, ``?`` = blank) into per-code counts.

        Returns:
            int32 array of shape ``(size + 1,)``; index 0 counts blanks.

        Raises:
            ValueError: an unknown letter, more tiles than ``rack_size``, or more
                of a tile than the tile set has.
        """
        counts = np.zeros(self.size + 1, dtype=np.int32)
        for ch in rack:
            if ch == "?":
                counts[BLANK] += 1
            else:
                up = ch.upper()
                if up not in self._code:
                    raise ValueError(f"rack {rack!r}: {self.not_a_letter(ch)}")
                counts[self._code[up]] += 1
        if counts.sum() > self.rack_size:
            raise ValueError(f"rack {rack!r}: {int(counts.sum())} tiles, at most {self.rack_size}")
        over = np.nonzero(counts > self.counts)[0]
        if len(over):
            c = int(over[0])
            raise ValueError(
                f"rack {rack!r}: {counts[c]} × {self.letter(c)}, but the tile set has only {self.counts[c]}"
            )
        return counts

    def rack_string(self, counts) -> str:
        """Inverse of :meth:`parse_rack`: letters in code order, blanks last as ``?``."""
        out = [self.letters[c - 1] * int(counts[c]) for c in range(1, self.size + 1)]
        return "".join(out) + "?" * int(counts[BLANK])


_CACHE: dict[str, Alphabet] = {}


def german() -> Alphabet:
    """The German standard tile set (cached)."""
    if "german" not in _CACHE:
        _CACHE["german"] = Alphabet.load("german")
    return _CACHE["german"]
