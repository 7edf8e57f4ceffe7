"""Rules of a simultaneous (duplicate) Scrabble event: rack draw, tie-break, scoring.

Everything an event agrees on before the first round is one frozen
:class:`SimultanRules`, stored in the event's journal, so a replay uses the
rules the event started with.

Rack draw (defaults from duplicate practice, as Eliot applies them):

* the rack keeps the top move's leave and is completed from the bag to 7;
* rounds ``1..vc_rounds`` (15): at least 2 vowels and 2 consonants; later
  rounds at least 1 vowel and 1 consonant. Vowels are A E I O U Ä Ö Ü
  (Y is a consonant); a blank counts as whichever is missing;
* a rack that fails goes back whole (leave included) into the bag and 7 new
  tiles are drawn, as often as needed; every rejected draw is recorded;
* when the tiles left (bag + leave) cannot make a valid rack at all, the event
  ends. Near the end the rack is the whole rest (fewer than 7 tiles) and must
  meet the same minimum.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

import numpy as np

from lexicon_tools.alphabet import BLANK, Alphabet

from engine.game.game import Bag

__all__ = [
    "TIE_BREAKS",
    "LATE_SUBMISSION",
    "SimultanRules",
    "DrawResult",
    "rack_balance",
    "rack_check",
    "can_make_rack",
    "draw_rack",
    "parse_time",
    "format_time",
]

TIE_BREAKS = {
    "fewer-blanks": "fewer blanks played",
    "fewer-duplicates": "the leave keeps fewer duplicate letters",
    "more-tiles": "more tiles played",
    "fewer-tiles": "fewer tiles played",
    "notation": "notation order",
}
"""Tie-break keys for equal top scores (applied in the configured order; ``notation`` is always last)."""

LATE_SUBMISSION = {
    "count": "a late move counts (flagged late)",
    "zero": "a late move scores 0",
    "penalty": "a late move counts minus late_penalty points",
}
"""What a move handed in late costs (:attr:`SimultanRules.late_submission`)."""

_OPTIONAL = {"physical_bag": False, "late_submission": "count", "late_penalty": 0, "late_grace": 0,
             "warning_penalty": 0, "warnings_free": 0}

_ALIASES = {"blanks": "fewer-blanks", "duplicates": "fewer-duplicates", "tiles": "more-tiles"}


def _tie_break_tuple(keys) -> tuple[str, ...]:
    if isinstance(keys, str):
        keys = [k for k in keys.replace(" ", ",").split(",") if k]
    out = []
    for k in keys:
        k = _ALIASES.get(k, k)
        if k not in TIE_BREAKS:
            raise ValueError(f"unknown tie-break {k!r}: choose from {', '.join(TIE_BREAKS)}")
        if k not in out:
            out.append(k)
    if "notation" in out:
        out.remove("notation")
    out.append("notation")  # always decides in the end: notations are unique
    return tuple(out)


@dataclass(frozen=True)
class SimultanRules:
    """What a simultaneous event agrees on before it starts.

    Attributes:
        vc_rounds: rounds ``1..vc_rounds`` use the early minimum (15).
        early_vowels, early_consonants: minimum vowels / consonants on a rack
            in the early rounds (2 and 2).
        late_vowels, late_consonants: minimum after ``vc_rounds`` (1 and 1).
        vowels: letters that count as vowels (default: the tile set's,
            A E I O U Ä Ö Ü for German); every other letter is a consonant, a
            blank counts as either.
        tie_break: order of tie-break keys among equal top scores, from
            :data:`TIE_BREAKS`; ``notation`` is always appended last. Default:
            fewer blanks played, then fewer duplicate letters kept, then notation.
        solo_bonus: points for a player who alone reaches the top score of a
            round (0 = no solo bonus).
        solo_min_players: the solo bonus needs at least this many players (16).
        round_time: seconds per round (180); shown, timed from ``round --start``.
        max_redraws: safety cap on redraws of one rack (a valid rack exists
            whenever a draw is attempted, so this only guards against a broken RNG).
        physical_bag: racks come from a real bag: every ``round --start`` needs the
            tiles drawn (``--rack``), and the projection shows no rack before it.
        late_submission: what a move handed in late costs (a move the director marks
            late, ``submit --late``, or one sent from a phone after the round time plus
            ``late_grace``): ``"count"`` (it counts, only flagged; the default),
            ``"zero"`` (0 points, as duplicate rules have it for a slip handed in after
            the time) or ``"penalty"`` (it counts, minus ``late_penalty`` points).
        late_penalty: points deducted for a late move under ``"penalty"``.
        late_grace: seconds after the round time before a phone's move is late.
        warning_penalty: points deducted for each warning beyond the first
            ``warnings_free`` of a player (0: warnings are only recorded and shown).
        warnings_free: warnings per player (over the whole event) without a deduction.
    """

    vc_rounds: int = 15
    early_vowels: int = 2
    early_consonants: int = 2
    late_vowels: int = 1
    late_consonants: int = 1
    vowels: str = "AEIOUÄÖÜ"
    tie_break: tuple[str, ...] = ("fewer-blanks", "fewer-duplicates", "notation")
    solo_bonus: int = 0
    solo_min_players: int = 16
    round_time: int = 180
    max_redraws: int = 100_000
    physical_bag: bool = False
    late_submission: str = "count"
    late_penalty: int = 0
    late_grace: int = 0
    warning_penalty: int = 0
    warnings_free: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "tie_break", _tie_break_tuple(self.tie_break))
        for name in ("vc_rounds", "early_vowels", "early_consonants", "late_vowels", "late_consonants",
                     "solo_bonus", "solo_min_players", "round_time", "late_penalty", "late_grace",
                     "warning_penalty", "warnings_free"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise ValueError(f"rule {name} must be a whole number >= 0, got {v!r}")
        if self.early_vowels + self.early_consonants > 7 or self.late_vowels + self.late_consonants > 7:
            raise ValueError("a rack of 7 cannot hold that many vowels and consonants")
        if not isinstance(self.physical_bag, bool):
            raise ValueError(f"rule physical_bag must be true or false, got {self.physical_bag!r}")
        if self.late_submission not in LATE_SUBMISSION:
            raise ValueError(f"rule late_submission {self.late_submission!r}: choose from "
                             f"{', '.join(LATE_SUBMISSION)}")
        if self.late_submission == "penalty" and not self.late_penalty:
            raise ValueError("late_submission 'penalty' needs late_penalty > 0 (the points deducted)")
        if self.max_redraws < 1:
            raise ValueError("max_redraws must be at least 1")

    def minimum(self, round_no: int) -> tuple[int, int]:
        """``(vowels, consonants)`` a rack of round ``round_no`` (1-based) must hold."""
        if round_no <= self.vc_rounds:
            return self.early_vowels, self.early_consonants
        return self.late_vowels, self.late_consonants

    def to_dict(self) -> dict:
        """JSON-ready dict (the journal's form)."""
        d = asdict(self)
        d["tie_break"] = list(self.tie_break)
        for k, default in _OPTIONAL.items():  # journals without these rules read (and checksum) as before
            if d[k] == default:
                del d[k]
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "SimultanRules":
        """Inverse of :meth:`to_dict`; unknown keys are an error (a newer journal).

        Raises:
            ValueError: unknown key or bad value.
        """
        known = set(cls.__dataclass_fields__)
        extra = set(d) - known
        if extra:
            raise ValueError(f"unknown rule(s) {', '.join(sorted(extra))}")
        return cls(**d)

    @classmethod
    def for_alphabet(cls, alphabet: Alphabet, **kwargs) -> "SimultanRules":
        """Rules with the tile set's vowels (``alphabet.vowels``) unless ``vowels`` is given."""
        if "vowels" not in kwargs and alphabet.vowels:
            kwargs["vowels"] = "".join(ch for ch in alphabet.letters if ch in alphabet.vowels)
        return cls(**kwargs)


def rack_balance(rack: np.ndarray, alphabet: Alphabet, vowels: str) -> tuple[int, int, int]:
    """``(vowels, consonants, blanks)`` on a rack (counts array, index 0 = blanks)."""
    vset = set(vowels)
    v = sum(int(rack[i + 1]) for i, ch in enumerate(alphabet.letters) if ch in vset)
    b = int(rack[BLANK])
    return v, int(rack.sum()) - v - b, b


def _deficit(v: int, c: int, b: int, need_v: int, need_c: int) -> bool:
    return max(0, need_v - v) + max(0, need_c - c) <= b


def rack_check(rack: np.ndarray, alphabet: Alphabet, rules: SimultanRules, round_no: int) -> str:
    """Why a rack fails the round's vowel/consonant rule; ``""`` when it passes.

    A blank counts as a vowel or a consonant, whichever is missing.
    """
    need_v, need_c = rules.minimum(round_no)
    v, c, b = rack_balance(rack, alphabet, rules.vowels)
    if _deficit(v, c, b, need_v, need_c):
        return ""
    have = f"{v} vowel{'s' * (v != 1)}, {c} consonant{'s' * (c != 1)}"
    if b:
        have += f", {b} blank{'s' * (b != 1)}"
    return f"{have}: round {round_no} needs at least {need_v} vowel{'s' * (need_v != 1)} and {need_c} consonant{'s' * (need_c != 1)}"


def can_make_rack(pool: np.ndarray, alphabet: Alphabet, rules: SimultanRules, round_no: int) -> bool:
    """True when some rack of ``min(7, tiles in pool)`` tiles from ``pool`` passes the round's rule.

    Args:
        pool: counts of the tiles left (bag + leave), index 0 = blanks.
    """
    total = int(pool.sum())
    k = min(alphabet.rack_size, total)
    if k == 0:
        return False
    need_v, need_c = rules.minimum(round_no)
    V, C, B = rack_balance(pool, alphabet, rules.vowels)
    for v in range(min(V, k) + 1):
        for b in range(min(B, k - v) + 1):
            c = k - v - b
            if c <= C and _deficit(v, c, b, need_v, need_c):
                return True
    return False


@dataclass
class DrawResult:
    """The outcome of drawing a round's rack.

    Attributes:
        rack: the valid rack (counts), or ``None`` when the event ends.
        rejected: every rejected draw as ``(rack string, reason)``, in order.
        end: why the event ends (no valid rack can be made), else ``""``.
    """

    rack: np.ndarray | None
    rejected: list[tuple[str, str]] = field(default_factory=list)
    end: str = ""


def _tiles_of(counts: np.ndarray) -> list[int]:
    return [c for c in range(len(counts)) for _ in range(int(counts[c]))]


def draw_rack(bag: Bag, leave: np.ndarray, round_no: int, rules: SimultanRules) -> DrawResult:
    """Draw the rack of round ``round_no``: the leave completed from the bag, redrawn until valid.

    A failing rack goes back whole into the bag (the leave too) and 7 new
    tiles are drawn; each failure is recorded. When the tiles left (bag +
    leave) cannot make a valid rack the event ends: the leave goes back into
    the bag and ``end`` says why.

    Args:
        bag: the bag (drawn from; its RNG decides, so a seed reproduces every rack).
        leave: counts of the tiles kept from the last round (not modified).
        round_no: 1-based round number (selects the vowel/consonant minimum).
        rules: the event's rules.

    Returns:
        a :class:`DrawResult`.
    """
    a = bag.alphabet
    pool = bag.counts() + leave
    if not can_make_rack(pool, a, rules, round_no):
        bag.put_back(_tiles_of(leave))
        total = int(pool.sum())
        if total == 0:
            return DrawResult(None, [], "no tiles left")
        need_v, need_c = rules.minimum(round_no)
        left = a.rack_string(pool) if total <= 2 * a.rack_size else f"{total} tiles"
        return DrawResult(None, [], f"the tiles left ({left}) cannot make a rack with at least "
                                    f"{need_v} vowel{'s' * (need_v != 1)} and {need_c} consonant{'s' * (need_c != 1)}")
    rack = leave.astype(np.int32).copy()
    bag.refill(rack)
    rejected: list[tuple[str, str]] = []
    while True:
        reason = rack_check(rack, a, rules, round_no)
        if not reason:
            return DrawResult(rack, rejected, "")
        rejected.append((a.rack_string(rack), reason))
        if len(rejected) >= rules.max_redraws:  # pragma: no cover - needs a broken RNG
            bag.put_back(_tiles_of(rack))
            return DrawResult(None, rejected, f"no valid rack after {len(rejected)} draws")
        bag.put_back(_tiles_of(rack))
        rack[:] = 0
        bag.refill(rack)


def parse_time(text: str | int) -> int:
    """Round time in seconds from ``"180"``, ``"3:00"``, ``"3m"`` or ``"90s"``.

    Raises:
        ValueError: anything else, or a negative time.
    """
    if isinstance(text, int):
        secs = text
    else:
        t = str(text).strip().lower()
        try:
            if ":" in t:
                m, s = t.split(":")
                if not (m.isdigit() and s.isdigit() and len(s) == 2 and int(s) < 60):
                    raise ValueError
                secs = int(m) * 60 + int(s)
            elif t.endswith("m") and t[:-1].isdigit():
                secs = int(t[:-1]) * 60
            elif t.endswith("s") and t[:-1].isdigit():
                secs = int(t[:-1])
            elif t.isdigit():
                secs = int(t)
            else:
                raise ValueError
        except ValueError:
            raise ValueError(f"round time {text!r}: write seconds (180), minutes:seconds (3:00) or 3m") from None
    if secs < 0:
        raise ValueError(f"round time {text!r} is negative")
    return secs


def format_time(seconds: float) -> str:
    """``m:ss`` (negative times as ``-m:ss``)."""
    s = int(round(seconds))
    sign = "-" if s < 0 else ""
    s = abs(s)
    return f"{sign}{s // 60}:{s % 60:02d}"
