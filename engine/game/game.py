"""A full game of German Scrabble: bag, racks, turns, challenges, clock, end of game, undo.

Everything here follows SPEC.md "Turns", "End of game" and "Challenges and
time", and the German rule texts in ``/work/shared/seeds`` where SPEC is
silent (score-pad entries, who starts, draws). ``docs/game.md`` lists the
decisions taken where both are silent.

Main pieces:

* :class:`Bag` — the tiles not yet drawn, with a seeded RNG (``random.Random``)
  so a game is reproducible from its seed;
* :class:`Rules` — the rule variants as data: :data:`HOME` (Scrabble
  Deutschland's general rules) and :data:`TOURNAMENT` / :data:`TOURNAMENT_25`
  (SDeV tournament: 2 players, 30 or 25 minutes);
* :class:`Turn` — one score-pad entry (a play, exchange, pass, withdrawn
  play, challenge penalty, time penalty, end-of-game rack adjustment);
* :class:`Game` — the live game: ``play``, ``exchange``, ``pass_turn``,
  ``undo``, ``position`` (CGP), ``result``;
* :class:`GameRecord` — a finished or running game as data (players, turns,
  final racks), what :mod:`engine.game.gcg` reads and writes; ``position(k)``
  gives the CGP position before any move.

Tile codes are those of :mod:`lexicon_tools.alphabet` (0 = blank, 1.. = letters
in German order A Ä B … Z); racks are int32 count arrays indexed by code.
"""

from __future__ import annotations

import math
import random
import unicodedata
from dataclasses import dataclass, field, replace
from typing import Iterable, Sequence

import numpy as np

from lexicon_tools.alphabet import BLANK, Alphabet, german

from engine.position.board import Board, Layout
from engine.position.cgp import Position
from engine.position.moves import Move

__all__ = [
    "Bag",
    "Rules",
    "HOME",
    "TOURNAMENT",
    "TOURNAMENT_25",
    "RULES",
    "rules_by_name",
    "Kind",
    "Turn",
    "GameError",
    "GameResult",
    "GameRecord",
    "Game",
    "draw_for_start",
    "time_penalty",
    "rack_value",
    "settle_out",
    "settle_passes",
    "name_fault",
    "invisible_char",
]

INVISIBLE = ("Cc", "Cf", "Zl", "Zp", "Co", "Cs")
"""Unicode categories a player's name may not hold: controls (NUL, tab, line breaks), format characters (zero-width
space, the right-to-left override U+202E, soft hyphen), line and paragraph separators, private use and surrogates
(a lone surrogate cannot be written as UTF-8). The director's player names refuse the same (engine.director.event)."""


def invisible_char(text: str, allow: str = "") -> str | None:
    """The first character of ``text`` of a category in :data:`INVISIBLE` (not in ``allow``), as ``"U+202E
    (RIGHT-TO-LEFT OVERRIDE)"`` (``"U+0000"`` for a character without a Unicode name), or ``None``."""
    bad = next((ch for ch in text if ch not in allow and unicodedata.category(ch) in INVISIBLE), None)
    if bad is None:
        return None
    name = unicodedata.name(bad, "")
    return f"U+{ord(bad):04X}" + (f" ({name})" if name else "")


def name_fault(name, nick: bool = True) -> str | None:
    """Why ``name`` cannot be a player's name in a game and its GCG record, or ``None`` when it can.

    A nickname (``nick``) is what GCG writes after ``#playerN`` and ``>`` on every move line: not empty, no white
    space, not starting with ``#`` or ``>`` (the start of a GCG pragma or move line, as in ``#player1`` or
    ``>Ana:``). Any name (a full name too): no character of the categories :data:`INVISIBLE`, so it encodes as
    UTF-8 and a GCG file never holds a control or invisible character.

    Returns:
        the reason in English (``"holds the control or invisible character U+202E (RIGHT-TO-LEFT OVERRIDE)"``).
    """
    if not isinstance(name, str) or not name:
        return "is empty"
    bad = invisible_char(name)
    if bad is not None:
        return f"holds the control or invisible character {bad}"
    if nick and any(ch.isspace() for ch in name):
        return "holds a space"
    if nick and name.startswith(("#", ">")):
        return "starts with '#' or '>' (the start of a GCG pragma or move line)"
    return None


class GameError(ValueError):
    """A turn the rules do not allow (exchange with too few tiles in the bag,
    tiles not on the rack, a move after the end of the game, nothing to undo ...).

    Attributes:
        reason: the explanation (also ``str(exc)``).
    """

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


# ---------------------------------------------------------------------------
# The bag
# ---------------------------------------------------------------------------
class Bag:
    """The tiles not yet drawn, drawn uniformly at random from a seeded RNG.

    The bag is a list of tile codes; a draw picks a uniformly random position
    (``int(rng.random() * len)``) and swaps it out, so the order of the list
    never matters and a game is reproducible from ``seed`` alone (Python's
    ``random.Random`` Mersenne Twister, stable across Python versions).

    Args:
        alphabet: the tile set (default German, 102 tiles).
        seed: int seed; ``None`` picks one from the OS and keeps it in ``seed``.
        tiles: start from these tile codes instead of the full set.

    Attributes:
        seed: the seed used.
        alphabet: the tile set.
    """

    __slots__ = ("alphabet", "seed", "_rng", "_tiles")

    def __init__(self, alphabet: Alphabet | None = None, seed: int | None = None,
                 tiles: Iterable[int] | None = None):
        self.alphabet = alphabet or german()
        if seed is None:
            seed = random.SystemRandom().randrange(2 ** 63)
        self.seed = int(seed)
        self._rng = random.Random(self.seed)
        if tiles is None:
            self._tiles = [c for c in range(self.alphabet.size + 1) for _ in range(int(self.alphabet.counts[c]))]
        else:
            self._tiles = [int(t) for t in tiles]

    def __len__(self) -> int:
        return len(self._tiles)

    def __repr__(self) -> str:
        return f"<Bag {len(self._tiles)} tiles>"

    def draw(self, n: int) -> list[int]:
        """Draw up to ``n`` tiles (fewer when the bag runs out); returns their codes."""
        t = self._tiles
        rnd = self._rng.random
        out = []
        for _ in range(min(n, len(t))):
            i = int(rnd() * len(t))
            t[i], t[-1] = t[-1], t[i]
            out.append(t.pop())
        return out

    def put_back(self, codes: Iterable[int]) -> None:
        """Return tiles to the bag (they are mixed in: draws are uniformly random)."""
        self._tiles.extend(int(c) for c in codes)

    def remove(self, codes: Iterable[int]) -> None:
        """Take specific tiles out of the bag (setting up a position).

        Raises:
            GameError: a tile is not in the bag (the message names it).
        """
        for c in codes:
            try:
                self._tiles.remove(int(c))
            except ValueError:
                raise GameError(f"tile {self.alphabet.letter(int(c))} is not in the bag") from None

    def counts(self) -> np.ndarray:
        """int32 ``(n_letters + 1,)`` tiles per code still in the bag."""
        return np.bincount(np.asarray(self._tiles, dtype=np.int64),
                           minlength=self.alphabet.size + 1).astype(np.int32)

    def refill(self, rack: np.ndarray) -> list[int]:
        """Draw into ``rack`` (counts, modified in place) up to ``alphabet.rack_size`` tiles.

        Returns:
            the codes drawn.
        """
        drawn = self.draw(self.alphabet.rack_size - int(rack.sum()))
        for c in drawn:
            rack[c] += 1
        return drawn

    def state(self) -> tuple:
        """An opaque snapshot (tiles and RNG state) for :meth:`restore`."""
        return (list(self._tiles), self._rng.getstate())

    def restore(self, state: tuple) -> None:
        """Restore a :meth:`state` snapshot exactly."""
        self._tiles = list(state[0])
        self._rng.setstate(state[1])

    def copy(self) -> "Bag":
        """An independent copy (same tiles, same RNG state)."""
        b = Bag(self.alphabet, self.seed, tiles=())
        b.restore(self.state())
        return b


def draw_for_start(bag: Bag, n_players: int) -> tuple[int, list[list[tuple[int, int]]]]:
    """Decide who starts: everyone draws one tile, the lowest tile code starts.

    Code order is the German sort order with the blank first (blank, A, Ä, B,
    …, O, Ö, …, U, Ü, …, Z; seeds "Vorbereitung und Start"). Players tied on
    the lowest tile draw again among themselves. All drawn tiles go back into
    the bag after each round (decision: the seeds only say they go back).

    Args:
        bag: the full bag (its RNG decides the draws; it is left with the same tiles).
        n_players: number of players.

    Returns:
        ``(first, rounds)``: the starting player's index and every round's draws
        as ``[(player, code), ...]``.

    Raises:
        GameError: fewer tiles than players, or 10,000 tied rounds in a row.
    """
    if len(bag) < n_players:
        raise GameError(f"{len(bag)} tiles in the bag: cannot draw for {n_players} players")
    contenders = list(range(n_players))
    rounds: list[list[tuple[int, int]]] = []
    for _ in range(10_000):
        codes = bag.draw(len(contenders))
        bag.put_back(codes)
        draws = list(zip(contenders, codes))
        rounds.append(draws)
        low = min(codes)
        contenders = [p for p, c in draws if c == low]
        if len(contenders) == 1:
            return contenders[0], rounds
    raise GameError("the draw for the first move keeps tying (a bag of identical tiles?)")


# ---------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Rules:
    """A rule variant (SPEC.md "Turns", "End of game", "Challenges and time").

    Attributes:
        name: ``"home"``, ``"tournament"``, ``"tournament-25"`` or your own.
        min_players, max_players: allowed number of players (home 2–4, tournament 2).
        challenge_penalty: points the challenger loses for a wrong challenge
            (home 5, tournament 10).
        penalty_per_word: True: ``challenge_penalty`` for each valid word
            wrongly challenged (tournament); False: once per challenge (home).
        end_pass_rounds: the game ends after this many consecutive rounds in
            which every player passed (2; for two players "both pass twice in a row").
        withdrawn_counts_as_pass: a play withdrawn after a challenge is a lost
            turn ("setzt aus") and counts as a pass for the end of the game.
        min_bag_for_exchange: exchanging needs at least this many tiles in the bag (7).
        clock_minutes: time per player for the whole game (tournament 30 or 25),
            ``None`` for no clock.
        overtime_penalty: points lost per started minute over time (10).
        overtime_limit_minutes: more than this many minutes over loses the game (5).
        draw_value: what a draw counts, in wins (tournament: half a win).
    """

    name: str = "home"
    min_players: int = 2
    max_players: int = 4
    challenge_penalty: int = 5
    penalty_per_word: bool = False
    end_pass_rounds: int = 2
    withdrawn_counts_as_pass: bool = True
    min_bag_for_exchange: int = 7
    clock_minutes: int | None = None
    overtime_penalty: int = 10
    overtime_limit_minutes: int = 5
    draw_value: float = 0.5


HOME = Rules()
"""Scrabble Deutschland's general rules for play at home (2–4 players, 5-point challenge penalty, no clock)."""

TOURNAMENT = Rules(name="tournament", max_players=2, challenge_penalty=10, penalty_per_word=True, clock_minutes=30)
"""SDeV tournament: 2 players, 10 points per wrongly challenged word, 30 minutes each."""

TOURNAMENT_25 = replace(TOURNAMENT, name="tournament-25", clock_minutes=25)
"""SDeV tournament with 25 minutes per player (when the event says so)."""

RULES = {r.name: r for r in (HOME, TOURNAMENT, TOURNAMENT_25)}
"""The predefined variants by name."""


def rules_by_name(name: str) -> Rules:
    """One of :data:`RULES` by name.

    Raises:
        ValueError: unknown name (the message lists the known ones).
    """
    try:
        return RULES[name]
    except KeyError:
        raise ValueError(f"unknown rules {name!r}: choose one of {', '.join(RULES)}") from None


def time_penalty(seconds_over: float, rules: Rules) -> tuple[int, bool]:
    """Points lost for running over time, and whether the game is lost (SPEC.md "Challenges and time").

    Args:
        seconds_over: time used beyond the allowance, in seconds (<= 0: none).
        rules: the variant (``overtime_penalty`` per started minute;
            more than ``overtime_limit_minutes`` minutes over loses).

    Returns:
        ``(points, lost)``, e.g. 61 s over -> ``(20, False)``; 301 s -> ``(60, True)``.
    """
    if seconds_over <= 0:
        return 0, False
    minutes = math.ceil(seconds_over / 60.0)
    return minutes * rules.overtime_penalty, seconds_over > rules.overtime_limit_minutes * 60


def rack_value(rack: str | np.ndarray, alphabet: Alphabet | None = None) -> int:
    """Sum of the tile values of a rack (string or counts); blanks count 0."""
    alphabet = alphabet or german()
    if isinstance(rack, str):
        rack = _counts(rack, alphabet)
    return int(np.dot(np.asarray(rack, dtype=np.int64), alphabet.values.astype(np.int64)))


def settle_out(out_player: int, racks: Sequence[int]) -> list[int]:
    """German settlement when a player has played out (SPEC.md "End of game").

    Every other player loses the value of their rack; the player who went out
    gains the total (once, not doubled).

    Args:
        out_player: index of the player who went out.
        racks: rack values (points) per player.

    Returns:
        score adjustments per player, e.g. ``settle_out(0, [0, 11, 4]) == [15, -11, -4]``.
    """
    adj = [-int(v) for v in racks]
    adj[out_player] = sum(int(v) for i, v in enumerate(racks) if i != out_player)
    return adj


def settle_passes(racks: Sequence[int]) -> list[int]:
    """Settlement when the game ends by passes (or agreement): each player loses their own rack's value."""
    return [-int(v) for v in racks]


# ---------------------------------------------------------------------------
# Turns (score-pad entries)
# ---------------------------------------------------------------------------
class Kind:
    """Kinds of :class:`Turn` (score-pad entries). ``TURNS`` are a player's turn (play, withdrawn play,
    exchange, pass, points by hand); ``ADJUSTMENTS`` the penalties and the end-of-game entries."""

    PLAY = "play"
    """A placement that stands (scored)."""
    WITHDRAWN = "withdrawn"
    """A placement challenged off: tiles taken back, 0 points, turn lost."""
    EXCHANGE = "exchange"
    PASS = "pass"
    CHALLENGE = "challenge"
    """The penalty of a wrong challenge (points lost by the challenger)."""
    TIME = "time"
    """A time penalty (10 points per started minute over)."""
    RACK = "rack"
    """End of game: the value of the player's own remaining tiles, lost ("Reststeine")."""
    OUT = "out"
    """End of game: what the player who went out gains from the others' racks ("Ausgespielt")."""
    HAND = "hand"
    """A turn scored by hand on a score pad: its points are known, its placement is not (the board
    does not change, nothing can be re-scored; GCG ``#note by hand: >nick: RACK +12 42``)."""

    TURNS = frozenset({PLAY, WITHDRAWN, EXCHANGE, PASS, HAND})
    ADJUSTMENTS = frozenset({CHALLENGE, TIME, RACK, OUT})


@dataclass(frozen=True)
class Turn:
    """One score-pad entry.

    Attributes:
        kind: one of :class:`Kind` (``"play"``, ``"withdrawn"``, ``"exchange"``,
            ``"pass"``, ``"hand"``, ``"challenge"``, ``"time"``, ``"rack"``, ``"out"``).
        player: index of the player the entry belongs to.
        rack: the player's rack before the entry (``?`` = blank; ``""`` when
            unknown); for ``rack``/``out`` entries the tiles counted.
        score: points of the entry (negative for penalties and deductions;
            0 for withdrawn plays, exchanges and passes; a ``hand`` turn's points as typed).
        total: the player's cumulative score after the entry.
        move: for ``play`` and ``withdrawn``: the placement, with the score
            it is worth (announced) in ``move.score``.
        exchanged: for ``exchange``: the tiles put back (rack string; ``""``
            when only their number is known, as on a score pad's ``-3``).
        exchange_count: for ``exchange``: the number of tiles put back
            (``len(exchanged)`` when the tiles are known).
        drawn: tiles drawn after the entry (live games; not part of the score
            pad, ignored by ``==``).
        words: for validated plays: ``((WORD, points), ...)`` (ignored by ``==``).
        line: source line in a GCG file (ignored by ``==``).
    """

    kind: str
    player: int
    rack: str
    score: int
    total: int
    move: Move | None = None
    exchanged: str = ""
    exchange_count: int = 0
    drawn: str = field(default="", compare=False)
    words: tuple = field(default=(), compare=False)
    line: int = field(default=0, compare=False)

    def __post_init__(self):
        if self.exchanged and not self.exchange_count:
            object.__setattr__(self, "exchange_count", len(self.exchanged))  # frozen: set once here

    @property
    def is_turn(self) -> bool:
        """True for a player's own turn (play, withdrawn play, exchange, pass, points by hand)."""
        return self.kind in Kind.TURNS

    @property
    def bingo(self) -> bool:
        """True for a standing play of all 7 rack tiles."""
        return self.kind == Kind.PLAY and self.move is not None and self.move.tiles_played == 7


@dataclass(frozen=True)
class GameResult:
    """The outcome of a finished game.

    Attributes:
        scores: final scores per player (after settlement and penalties).
        winners: indices of the players with the top score (all of them on a
            tie); a player who lost on time never wins.
        draw: True when more than one player shares the top score.
        wins: per player 1.0 (sole winner), ``draw_value`` (shared top score,
            tournament half a win), 0.0 otherwise.
        end_reason: ``"out"``, ``"passes"``, ``"agreement"`` or ``"time"``.
        forfeits: players who lost by running more than 5 minutes over time.
    """

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    draw: bool
    wins: tuple[float, ...]
    end_reason: str
    forfeits: tuple[int, ...] = ()


def _result(scores: Sequence[int], end_reason: str, forfeits: Sequence[int], rules: Rules) -> GameResult:
    n = len(scores)
    eligible = [p for p in range(n) if p not in forfeits] or list(range(n))
    top = max(scores[p] for p in eligible)
    winners = tuple(p for p in eligible if scores[p] == top)
    draw = len(winners) > 1
    wins = tuple((rules.draw_value if draw else 1.0) if p in winners else 0.0 for p in range(n))
    return GameResult(tuple(int(s) for s in scores), winners, draw, wins, end_reason, tuple(forfeits))


def _counts(text: str, alphabet: Alphabet) -> np.ndarray:
    """Counts of a tile string of any length (``?`` = blank; lowercase letters are letters)."""
    counts = np.zeros(alphabet.size + 1, dtype=np.int32)
    for ch in text:
        up = ch.upper()
        if ch != "?" and (len(up) != 1 or not alphabet.is_word_chars(up)):
            raise ValueError(f"{text!r}: {alphabet.not_a_letter(ch)}")
        counts[BLANK if ch == "?" else alphabet.code(up)] += 1
    return counts


def _placements(move: Move, code: dict) -> list[tuple[int, int, int, bool]]:
    return [(r, c, code[ch], b) for r, c, ch, b in move.tiles]


# ---------------------------------------------------------------------------
# Records
# ---------------------------------------------------------------------------
@dataclass
class GameRecord:
    """A game as data: what :mod:`engine.game.gcg` reads and writes.

    Attributes:
        players: nicknames (no spaces), in seat order.
        names: full names (default: the nicknames).
        turns: the score-pad entries in order.
        rules: the variant played.
        alphabet: the tile set.
        lexicon: name of the word list (``#lexicon`` in GCG), ``""`` if unknown.
        seed: the bag's seed for engine games (``#seed``), else ``None``.
        final_racks: every player's rack after the last entry (``None`` if unknown).
        end_reason: ``"out"``, ``"passes"``, ``"agreement"``, ``"time"`` or ``None`` (not over).
        forfeits: players who lost on time.
        notes: other GCG pragmas, ``{name: value}``.
    """

    players: list[str]
    turns: list[Turn]
    rules: Rules = HOME
    alphabet: Alphabet = field(default_factory=german)
    names: list[str] | None = None
    lexicon: str = ""
    seed: int | None = None
    final_racks: list[str] | None = None
    end_reason: str | None = None
    forfeits: tuple[int, ...] = ()
    notes: dict[str, str] = field(default_factory=dict)

    @property
    def n_players(self) -> int:
        """Number of players (2–4)."""
        return len(self.players)

    @property
    def scores(self) -> list[int]:
        """Current (final, when over) score per player."""
        out = [0] * self.n_players
        for t in self.turns:
            out[t.player] = t.total
        return out

    @property
    def moves(self) -> list[Turn]:
        """The players' turns only (plays, withdrawn plays, exchanges, passes, points by hand)."""
        return [t for t in self.turns if t.kind in Kind.TURNS]

    def result(self) -> GameResult:
        """The outcome (meaningful when ``end_reason`` is set)."""
        return _result(self.scores, self.end_reason or "", self.forfeits, self.rules)

    def position(self, k: int | None = None, lexicon_name: str | None = None) -> Position:
        """The position before the ``k``-th player turn (0-based; default: after the last entry).

        The rack is the mover's rack as recorded; the opponent's rack (two
        players) is taken from their next recorded turn or the final racks,
        ``None`` when unknown. CGP holds two scores: the mover's and the next
        player's. Opcodes: ``lex`` (when known) and, with more than two
        players, ``bag`` (tiles left). After a turn of points by hand (``Kind.HAND``)
        the board lacks that turn's tiles (they were never recorded).

        Raises:
            IndexError: ``k`` beyond the number of turns.
        """
        a = self.alphabet
        moves_idx = [i for i, t in enumerate(self.turns) if t.kind in Kind.TURNS]
        if k is None:
            k = len(moves_idx)
        if not 0 <= k <= len(moves_idx):
            raise IndexError(f"turn {k} out of range (0..{len(moves_idx)})")
        stop = moves_idx[k] if k < len(moves_idx) else len(self.turns)
        board = Board(a)
        code = {ch: i + 1 for i, ch in enumerate(a.letters)}
        scores = [0] * self.n_players
        zero = 0
        for t in self.turns[:stop]:
            scores[t.player] = t.total
            if t.kind == Kind.PLAY:
                board.place(_placements(t.move, code))
                zero = 0 if t.score else zero + 1
            elif t.kind == Kind.HAND:  # points by hand: the board stays as it is
                zero = 0 if t.score else zero + 1
            elif t.kind in Kind.TURNS:
                zero += 1
        if k < len(moves_idx):
            mover = self.turns[stop].player
            rack = self.turns[stop].rack
        else:
            last = self.turns[moves_idx[-1]].player if moves_idx else -1
            mover = (last + 1) % self.n_players
            rack = self.final_racks[mover] if self.final_racks else ""
        opp = (mover + 1) % self.n_players
        later = {}  # each other player's rack at this point: their next recorded rack (it changes only on their turn)
        for t in self.turns[stop:]:
            if t.player != mover and t.player not in later and (t.kind in Kind.TURNS or t.kind == Kind.RACK):
                later[t.player] = t.rack
        for p in range(self.n_players):
            if p != mover and p not in later and self.final_racks:
                later[p] = self.final_racks[p]
        opp_rack = later.get(opp) if self.n_players == 2 else None
        opcodes = {}
        name = lexicon_name if lexicon_name is not None else self.lexicon
        if name:
            opcodes["lex"] = name
        rack_c = a.parse_rack(rack) if rack else np.zeros(a.size + 1, dtype=np.int32)
        if self.n_players > 2:
            others = sum(len(later[p]) if p in later else a.rack_size for p in range(self.n_players) if p != mover)
            opcodes["bag"] = str(max(0, a.total_tiles - board.tile_count - int(rack_c.sum()) - others))
        return Position(board, rack_c, a.parse_rack(opp_rack) if opp_rack is not None else None,
                        (scores[mover], scores[opp]), zero, opcodes)

    def score_pad(self, lang: str | None = None) -> str:
        """The score pad as text: one row per entry with every player's running total.

        Rows: move number (player turns), the entry, then the totals; end-of-game
        rack deductions and the out bonus are their own rows ("Reststeine",
        "Ausgespielt" in German, as on the seeds' score pad; "left on rack", "out bonus"
        in English).

        Args:
            lang: ``"de"`` or ``"en"``; default this run's language (:func:`engine.lang.lang`).
        """
        from engine.lang import lang as run_lang, tr_in

        code = lang or run_lang()
        n = self.n_players
        width = max(10, *(len(p) for p in self.players))
        head = f"{'#':>3} {tr_in(code, 'entry'):<28}" + "".join(f"{p:>{width}}" for p in self.players)
        lines = [head, "-" * len(head)]
        totals = [0] * n
        num = 0
        labels = {Kind.RACK: "left on rack", Kind.OUT: "out bonus", Kind.TIME: "time penalty",
                  Kind.CHALLENGE: "challenge"}
        for t in self.turns:
            totals[t.player] = t.total
            if t.kind in Kind.TURNS:
                num += 1
                if t.kind == Kind.PLAY:
                    what = f"{t.move.notation} {t.score:+d}"
                elif t.kind == Kind.WITHDRAWN:
                    what = tr_in(code, "{move} withdrawn 0", move=t.move.notation)
                elif t.kind == Kind.EXCHANGE:
                    what = tr_in(code, "exchanges {n} 0", n=t.exchange_count or len(t.exchanged))
                elif t.kind == Kind.HAND:
                    what = tr_in(code, "by hand {score:+d}", score=t.score)
                else:
                    what = tr_in(code, "passes 0")
                label = f"{num:>3}"
            else:
                sign = "-" if t.score < 0 or t.kind == Kind.RACK else "+"
                what = f"{tr_in(code, labels[t.kind])} {sign}{abs(t.score)}"
                label = "   "
            what = f"{self.players[t.player]}: {what}"
            lines.append(f"{label} {what:<28}" + "".join(f"{v:>{width}}" for v in totals))
        return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------
# The live game
# ---------------------------------------------------------------------------
class Game:
    """A game in progress: board, bag, racks, scores and the score pad (history).

    Args:
        players: number of players (2–4) or their nicknames (no spaces).
        lexicon: the word list (:class:`lexicon_tools.bundle.Lexicon`, or any
            object supporting ``WORD in lexicon`` and, for move generation,
            ``.graph``); ``None`` loads the packaged default lexicon.
        rules: the variant (:data:`HOME`, :data:`TOURNAMENT`, ...).
        seed: the bag's seed (``None``: random, kept in ``seed``).
        first: who starts (index); ``None`` decides by drawing tiles
            (:func:`draw_for_start`).
        alphabet, layout: tile set and board (default German / standard).
        keep_undo: keep a snapshot before every action so :meth:`undo` works
            (a few microseconds per turn; self-play may turn it off).
        lexicon_name: name written to records (default: the lexicon's path name).

    Attributes:
        board, bag, racks (list of int32 count arrays), scores (list of int),
        turns (list of :class:`Turn`), to_move, first, start_draws,
        time_used (seconds per player), over, end_reason, forfeits.

    Raises:
        ValueError: number of players outside the rules' range, duplicate names, a name :func:`name_fault` refuses.
    """

    def __init__(self, players: int | Sequence[str] = 2, lexicon=None, rules: Rules = HOME,
                 seed: int | None = None, first: int | None = None, alphabet: Alphabet | None = None,
                 layout: Layout | None = None, keep_undo: bool = True, lexicon_name: str | None = None):
        if isinstance(players, int):
            names = [f"p{i + 1}" for i in range(players)]
        else:
            names = [str(p) for p in players]
        n = len(names)
        if not rules.min_players <= n <= rules.max_players:
            raise ValueError(f"{rules.name} rules: {rules.min_players} to {rules.max_players} players, got {n}")
        if len(set(names)) != n or any(not p or any(ch.isspace() for ch in p) for p in names):
            raise ValueError(f"player names must be distinct and without spaces: {names}")
        for p in names:
            fault = name_fault(p)
            if fault:
                raise ValueError(f"player name {p!r} {fault}")
        if lexicon is None:
            from lexicon_tools.bundle import load_lexicon

            lexicon = load_lexicon(None)
        self.lexicon = lexicon
        self.lexicon_name = lexicon_name if lexicon_name is not None else _lexicon_name(lexicon)
        self.alphabet = alphabet or getattr(lexicon, "alphabet", None) or german()
        self.rules = rules
        self.players = names
        self.n = n
        self.board = Board(self.alphabet, layout)
        self.bag = Bag(self.alphabet, seed)
        self.seed = self.bag.seed
        self._code = {ch: i + 1 for i, ch in enumerate(self.alphabet.letters)}
        if first is None:
            self.first, self.start_draws = draw_for_start(self.bag, n)
        else:
            if not 0 <= first < n:
                raise ValueError(f"first player {first} out of range 0..{n - 1}")
            self.first, self.start_draws = int(first), []
        self.racks = [np.zeros(self.alphabet.size + 1, dtype=np.int32) for _ in range(n)]
        for i in range(n):
            self.bag.refill(self.racks[(self.first + i) % n])
        self.scores = [0] * n
        self.turns: list[Turn] = []
        self.to_move = self.first
        self.time_used = [0.0] * n
        self.over = False
        self.end_reason: str | None = None
        self.forfeits: tuple[int, ...] = ()
        self._passes = 0
        self._scoreless = 0
        self._checks = None
        self.keep_undo = keep_undo
        self._undo: list[tuple] = []

    # -- queries ----------------------------------------------------------------
    def rack_string(self, player: int | None = None) -> str:
        """A player's rack (default: the player to move) as letters, ``?`` = blank."""
        return self.alphabet.rack_string(self.racks[self.to_move if player is None else player])

    @property
    def checks(self):
        """The board's :class:`~engine.movegen.generator.CrossChecks`, kept up to date after every placement."""
        if self._checks is None:
            from engine.movegen.generator import CrossChecks

            self._checks = CrossChecks(self.board, self.lexicon)
        return self._checks

    @property
    def scoreless_turns(self) -> int:
        """Consecutive player turns that scored nothing (passes, exchanges, withdrawn plays)."""
        return self._scoreless

    @property
    def consecutive_passes(self) -> int:
        """Consecutive passes (withdrawn plays included, see :class:`Rules`) toward the end of the game."""
        return self._passes

    def tile_total(self) -> int:
        """Tiles in the bag + on the racks + on the board (always ``alphabet.total_tiles``)."""
        return len(self.bag) + sum(int(r.sum()) for r in self.racks) + self.board.tile_count

    def record(self) -> GameRecord:
        """The game as a :class:`GameRecord` (turns copied; current racks as ``final_racks``)."""
        return GameRecord(
            players=list(self.players), turns=list(self.turns), rules=self.rules, alphabet=self.alphabet,
            lexicon=self.lexicon_name, seed=self.seed,
            final_racks=[self.alphabet.rack_string(r) for r in self.racks],
            end_reason=self.end_reason, forfeits=self.forfeits)

    def position(self, k: int | None = None) -> Position:
        """The position before the ``k``-th player turn, or the current one (``k=None``).

        The current position has exact racks for both players (two players)
        and a ``bag`` opcode; see :meth:`GameRecord.position` for earlier ones.
        """
        if k is not None:
            return self.record().position(k)
        me, opp = self.to_move, (self.to_move + 1) % self.n
        opcodes = {}
        if self.lexicon_name:
            opcodes["lex"] = self.lexicon_name
        opcodes["bag"] = str(len(self.bag))
        return Position(self.board.copy(), self.racks[me].copy(), self.racks[opp].copy() if self.n == 2 else None,
                        (self.scores[me], self.scores[opp]), self._scoreless, opcodes)

    def result(self) -> GameResult:
        """The outcome; ties are draws (:class:`GameResult`).

        Raises:
            GameError: the game is not over.
        """
        if not self.over:
            raise GameError("the game is not over yet")
        return _result(self.scores, self.end_reason or "", self.forfeits, self.rules)

    def best_moves(self, n: int = 1) -> list[Move]:
        """The ``n`` top-scoring placements for the player to move (:func:`engine.movegen.generator.best_moves`)."""
        from engine.movegen.generator import best_moves

        return best_moves(self.board, self.racks[self.to_move], self.lexicon, n, self.checks)

    # -- turns ------------------------------------------------------------------
    def play(self, move, *, challenge: int | None = None, challenged_words: Sequence[str] | None = None,
             phony_ok: bool = False, seconds: float | None = None, withdrawn: bool | None = None) -> Turn:
        """The player to move places tiles; the engine checks and scores the move.

        Args:
            move: notation (``"8H HAUS"``, ``"H8 HA(U)S"``, blanks lowercase), a
                :class:`~engine.position.moves.Move` or a :class:`~engine.position.scorer.ScoredMove`.
                The score is always the engine's (a ``Move``'s own score is ignored).
            challenge: index of the player who challenges the move, or ``None``.
                Invalid challenged word -> the move is withdrawn: tiles back on
                the rack, 0 points, turn lost. All valid -> the move stands and
                the challenger loses ``rules.challenge_penalty`` (home: once;
                tournament: per wrongly challenged word), as its own entry.
            challenged_words: the words challenged (default: every word the move forms).
            phony_ok: accept words missing from the lexicon when nobody
                challenges (a phony that stands); otherwise such a move raises.
            seconds: time the player used for this turn (clock).
            withdrawn: with ``challenge``, the challenge's verdict as a record gives it (``True``: the play
                was challenged off; ``False``: it stood), instead of the lexicon's: a game replayed under
                another word list keeps what happened at the table. ``None``: the lexicon decides.

        Returns:
            the :class:`Turn` of the move (``play`` or ``withdrawn``).

        Raises:
            IllegalMove: unreadable or illegal placement, tiles not on the
                rack, a word not in the lexicon (unchallenged, without ``phony_ok``).
            GameError: the game is over; bad ``challenge`` / ``challenged_words``.
        """
        from engine.position.scorer import IllegalMove, ScoredMove, check_move, score_placement

        self._check_live()
        if isinstance(challenge, bool):
            raise GameError("challenge= takes the challenger's index, not True/False")
        rack = self.racks[self.to_move]
        if isinstance(move, str):
            scored = check_move(self.board, move, None, rack=rack)
        elif isinstance(move, ScoredMove):
            scored = score_placement(self.board, move.tiles, None, rack=rack)
        elif isinstance(move, Move):
            scored = score_placement(self.board, move.tiles, None, rack=rack)
        else:
            raise TypeError(f"play() takes notation, a Move or a ScoredMove, not {type(move).__name__}")
        words = tuple(scored.words)
        invalid = [w for w, _s in words if w not in self.lexicon]
        if challenge is None:
            if invalid and not phony_ok:
                reason = f"{invalid[0]} is not in the word list"
                if len(invalid) > 1:
                    reason += f" (nor {', '.join(dict.fromkeys(invalid[1:]))})"
                raise IllegalMove(reason)
            self._snapshot()
            return self._apply_play(scored.move, words, seconds)
        if not 0 <= challenge < self.n or challenge == self.to_move:
            raise GameError(f"challenger {challenge} must be another player (0..{self.n - 1})")
        formed = [w for w, _s in words]
        if challenged_words is None:
            challenged = formed
        else:
            challenged = [w.upper() for w in challenged_words]
            missing = [w for w in challenged if w not in formed]
            if missing or not challenged:
                raise GameError(f"challenged word {missing[0] if missing else '(none)'} is not formed by "
                                f"the move (it forms {', '.join(formed)})")
        self._snapshot()
        if withdrawn if withdrawn is not None else any(w not in self.lexicon for w in challenged):
            return self._apply_withdrawn(scored.move, words, seconds)
        turn = self._apply_play(scored.move, words, None, check_end=False)
        per = len(challenged) if self.rules.penalty_per_word else 1
        self._adjust(Kind.CHALLENGE, challenge, -self.rules.challenge_penalty * per,
                     self.alphabet.rack_string(self.racks[challenge]))
        self._add_time(turn.player, seconds)
        self._after_play(turn.player)
        return turn

    def play_generated(self, move: Move, seconds: float | None = None) -> Turn:
        """Fast path for engine players: play a move the generator produced for this position.

        The move is trusted (it came from :func:`engine.movegen.generator.best_moves` /
        ``generate_moves`` on this board and the mover's rack): no re-check,
        ``move.score`` is recorded. Use :meth:`play` for anything else.
        """
        self._check_live()
        if self.keep_undo:
            self._snapshot()
        if getattr(move, "equity", None) is not None:
            move = replace(move, equity=None)  # the record keeps what the score pad shows
        return self._apply_play(move, (), seconds)

    def exchange(self, tiles: str, seconds: float | None = None) -> Turn:
        """Exchange tiles (SPEC.md "Turns"): new tiles are drawn first, then the old ones go back.

        Args:
            tiles: the tiles to put back as a rack string (``?`` = blank), e.g. ``"QXY"``.

        Raises:
            GameError: fewer than ``rules.min_bag_for_exchange`` (7) tiles in the
                bag, no tiles given, or tiles not on the rack; game over.
            ValueError: unknown letters.
        """
        self._check_live()
        a = self.alphabet
        if len(self.bag) < self.rules.min_bag_for_exchange:
            raise GameError(f"exchanging needs at least {self.rules.min_bag_for_exchange} tiles in the bag "
                            f"({len(self.bag)} left)")
        if not tiles:
            raise GameError("exchange: no tiles given")
        out = _counts(tiles, a)
        rack = self.racks[self.to_move]
        if (out > rack).any():
            c = int(np.nonzero(out > rack)[0][0])
            raise GameError(f"exchange {tiles}: tile {a.letter(c)} is not on the rack "
                            f"{a.rack_string(rack)} {int(out[c])} time(s)")
        self._snapshot()
        p = self.to_move
        before = a.rack_string(rack)
        drawn = self.bag.draw(int(out.sum()))
        rack -= out
        for c in drawn:
            rack[c] += 1
        self.bag.put_back(c for c in range(a.size + 1) for _ in range(int(out[c])))
        turn = Turn(Kind.EXCHANGE, p, before, 0, self.scores[p], exchanged=a.rack_string(out),
                    drawn=_tile_string(drawn, a))
        self.turns.append(turn)
        self._passes = 0
        self._scoreless += 1
        self._add_time(p, seconds)
        if not self.over:
            self._next()
        return turn

    def exchange_all(self, seconds: float | None = None) -> Turn:
        """Exchange the whole rack (:meth:`exchange`)."""
        return self.exchange(self.rack_string(), seconds)

    def pass_turn(self, seconds: float | None = None) -> Turn:
        """Pass (0 points). The game ends when every player passed ``rules.end_pass_rounds``
        rounds in a row; then each player loses their own rack's value.

        Raises:
            GameError: the game is over.
        """
        self._check_live()
        self._snapshot()
        p = self.to_move
        turn = Turn(Kind.PASS, p, self.alphabet.rack_string(self.racks[p]), 0, self.scores[p])
        self.turns.append(turn)
        self._passes += 1
        self._scoreless += 1
        self._add_time(p, seconds)
        self._after_scoreless()
        return turn

    def end_by_agreement(self) -> None:
        """End the game because the players agree no word can be placed (SDeV tournament):
        each player loses their own rack's value.

        Raises:
            GameError: the game is already over.
        """
        self._check_live()
        self._snapshot()
        self._finish_passes("agreement")

    def add_time(self, player: int, seconds: float) -> None:
        """Add clock time (seconds) used by ``player`` outside a turn call (e.g. a challenge's pondering)."""
        self._check_live()
        if not 0 <= player < self.n:
            raise GameError(f"player {player} out of range 0..{self.n - 1}")
        self._snapshot()
        self._add_time(player, seconds)

    def set_rack(self, player: int, tiles: str) -> None:
        """Give ``player`` exactly ``tiles`` (setting up a position, entering a real rack):
        the current rack goes back into the bag, then ``tiles`` are taken out of it.

        Raises:
            GameError: a tile is neither in the bag nor on the rack (rack unchanged);
                more than ``rack_size`` tiles; game over.
            ValueError: unknown letters.
        """
        self._check_live()
        a = self.alphabet
        want = _counts(tiles, a)
        if int(want.sum()) > a.rack_size:
            raise GameError(f"rack {tiles!r}: {int(want.sum())} tiles, at most {a.rack_size}")
        avail = self.bag.counts() + self.racks[player]
        if (want > avail).any():
            c = int(np.nonzero(want > avail)[0][0])
            raise GameError(f"rack {tiles!r}: no {a.letter(c) if c else 'blank'} left in the bag")
        self._snapshot()
        rack = self.racks[player]
        self.bag.put_back(c for c in range(a.size + 1) for _ in range(int(rack[c])))
        self.bag.remove(c for c in range(a.size + 1) for _ in range(int(want[c])))
        rack[:] = want

    def undo(self) -> None:
        """Take back the last action (turn, exchange, pass, agreement, time added) exactly:
        board, racks, bag (tiles and RNG state), scores, clock and score pad.

        Raises:
            GameError: nothing to undo, or the game was created with ``keep_undo=False``.
        """
        if not self._undo:
            raise GameError("nothing to undo" if self.keep_undo else "undo is off for this game (keep_undo=False)")
        (n_turns, tiles, blanks, racks, bag_state, scores, to_move, time_used, over, end_reason, forfeits,
         passes, scoreless) = self._undo.pop()
        del self.turns[n_turns:]
        self.board.tiles[:] = tiles
        self.board.blanks[:] = blanks
        for r, saved in zip(self.racks, racks):
            r[:] = saved
        self.bag.restore(bag_state)
        self.scores = list(scores)
        self.to_move = to_move
        self.time_used = list(time_used)
        self.over, self.end_reason, self.forfeits = over, end_reason, forfeits
        self._passes, self._scoreless = passes, scoreless
        self._checks = None

    # -- internals --------------------------------------------------------------
    def _check_live(self) -> None:
        if self.over:
            raise GameError(f"the game is over ({self.end_reason})")

    def _snapshot(self) -> None:
        if not self.keep_undo:
            return
        self._undo.append((len(self.turns), self.board.tiles.copy(), self.board.blanks.copy(),
                           [r.copy() for r in self.racks], self.bag.state(), list(self.scores), self.to_move,
                           list(self.time_used), self.over, self.end_reason, self.forfeits,
                           self._passes, self._scoreless))

    def _next(self) -> None:
        self.to_move = (self.to_move + 1) % self.n

    def _add_time(self, player: int, seconds: float | None) -> None:
        if not seconds:
            return
        if seconds < 0:
            raise GameError(f"negative time {seconds}")
        self.time_used[player] += float(seconds)
        if self.rules.clock_minutes is None:
            return
        over = self.time_used[player] - self.rules.clock_minutes * 60
        if time_penalty(over, self.rules)[1] and not self.over:
            self.forfeits = (player,)
            self._finish("time")

    def _apply_play(self, move: Move, words: tuple, seconds: float | None, check_end: bool = True) -> Turn:
        p = self.to_move
        a = self.alphabet
        rack = self.racks[p]
        before = _rack_str(rack, a.letters)
        placed = _placements(move, self._code)
        self.board.place(placed)
        if self._checks is not None:
            self._checks.update(self.board, placed)
        for _r, _c, code, blank in placed:
            rack[BLANK if blank else code] -= 1
        drawn = self.bag.refill(rack)
        self.scores[p] += move.score
        turn = Turn(Kind.PLAY, p, before, move.score, self.scores[p], move=move,
                    drawn=_tile_string(drawn, a), words=words)
        self.turns.append(turn)
        self._passes = 0
        self._scoreless = 0 if move.score else self._scoreless + 1
        self._add_time(p, seconds)
        if check_end:
            self._after_play(p)
        return turn

    def _after_play(self, p: int) -> None:
        if self.over:
            return
        if not len(self.bag) and not self.racks[p].any():
            self._finish_out(p)
        else:
            self._next()

    def _apply_withdrawn(self, move: Move, words: tuple, seconds: float | None) -> Turn:
        p = self.to_move
        turn = Turn(Kind.WITHDRAWN, p, self.alphabet.rack_string(self.racks[p]), 0, self.scores[p],
                    move=move, words=words)
        self.turns.append(turn)
        self._scoreless += 1
        if self.rules.withdrawn_counts_as_pass:
            self._passes += 1
        self._add_time(p, seconds)
        self._after_scoreless()
        return turn

    def _after_scoreless(self) -> None:
        if self.over:
            return
        if self._passes >= self.rules.end_pass_rounds * self.n:
            self._finish_passes("passes")
        else:
            self._next()

    def _adjust(self, kind: str, player: int, points: int, rack: str) -> None:
        self.scores[player] += points
        self.turns.append(Turn(kind, player, rack, points, self.scores[player]))

    def _finish_out(self, out_player: int) -> None:
        a = self.alphabet
        order = [(out_player + i) % self.n for i in range(1, self.n)]
        values = [rack_value(r, a) for r in self.racks]
        adj = settle_out(out_player, values)
        left = ""
        for p in order:
            s = a.rack_string(self.racks[p])
            left += s
            self._adjust(Kind.RACK, p, adj[p], s)
        self._adjust(Kind.OUT, out_player, adj[out_player], a.rack_string(_counts(left, a)))
        self._finish("out")

    def _finish_passes(self, reason: str) -> None:
        a = self.alphabet
        start = (self.to_move + 1) % self.n
        for i in range(self.n):
            p = (start + i) % self.n
            if self.racks[p].any():
                self._adjust(Kind.RACK, p, -rack_value(self.racks[p], a), a.rack_string(self.racks[p]))
        self._finish(reason)

    def _finish(self, reason: str) -> None:
        self.over = True
        self.end_reason = reason
        if self.rules.clock_minutes is not None:
            limit = self.rules.clock_minutes * 60
            for p in range(self.n):
                pts, _lost = time_penalty(self.time_used[p] - limit, self.rules)
                if pts:
                    self._adjust(Kind.TIME, p, -pts, self.alphabet.rack_string(self.racks[p]))


def _rack_str(rack: np.ndarray, letters: Sequence[str]) -> str:
    """``Alphabet.rack_string`` without its per-letter loop (hot path of self-play)."""
    t = rack.tolist()
    return "".join([letters[c - 1] * k for c, k in enumerate(t) if k and c]) + "?" * t[0]


def _tile_string(codes: Iterable[int], alphabet: Alphabet) -> str:
    return "".join("?" if c == BLANK else alphabet.letters[c - 1] for c in codes)


def _lexicon_name(lexicon) -> str:
    path = getattr(lexicon, "path", None)
    if path is None:
        return ""
    from lexicon_tools.bundle import lexicon_stem

    return lexicon_stem(path)
