"""A simultaneous Scrabble event in memory: rounds, submissions, the top move, scores, standings.

An :class:`Event` is rebuilt from its journal records (:mod:`engine.director.journal`).
Every change is first *planned* (``plan_*`` returns the journal record, the
state is not touched; bad input raises :class:`Rejected` or
:class:`DirectorError`), then the record is written and *applied*
(:meth:`Event.apply`). Replaying the journal applies the same records, so a
rebuilt event equals the live one exactly (board, bag with its RNG state,
racks, submissions, scores).

Record types (every record also has ``seq``, ``type`` and ``time``):

``new``
    ``settings`` (players, seed, rules, lexicon) and ``open`` (round 1).
``submit``
    ``round``, ``player``, ``move`` (as typed) and ``result`` (valid, notation,
    score, reason, words); ``source: "player"`` for a move sent from the player's
    phone. The latest submission of a player counts.
``start``
    ``round``: the round clock starts. With a rack from a physical bag
    (``round --start --rack``) also ``rack`` (the whole rack, leave included)
    and ``open`` (its tied top moves, number of legal moves, tiles left in the bag):
    the seeded draw's new tiles go back into the bag and the typed ones come out.
``close``
    ``round``, ``top`` (notation), ``chosen_by`` (``tie-break`` or
    ``director``) and ``open`` (the next round, or the end of the event).
``undo``
    ``undoes``: the ``seq`` of the action taken back: the director's last action not yet
    undone (moves sent from phones are skipped: a player corrects their own move, or the
    director's entry overrides it); ``drops``: the phone moves taken back with it because
    they depend on it (those sent after an undone ``start``, or a late arrival's after an
    undone ``join``).
``penalty``
    ``round``, ``player``, ``points`` (deducted; negative gives points back) and
    ``reason``: a deduction by the director (``simultan penalty``).
``warn``
    ``round``, ``player``, ``reason``: a warning; it costs the rules'
    ``warning_penalty`` once the player has had ``warnings_free`` warnings.
``join``
    ``player``, ``round`` (the open round, the first the player plays) and
    ``table``: a player arriving late; the rounds before count 0 (absent).
``leave``
    ``player``, ``round`` (the open round): a player leaving; a move already
    entered for that round counts, no further move is taken, the later rounds
    count 0 (absent).

A ``submit`` record may hold ``handed_late: true``: the move was handed in late
(marked by the director, or sent from a phone after the round time); what that
costs is the rules' ``late_submission``.

``open`` holds the round number, the rack, every rejected draw, the tied top
moves (computed when the round opens, so closing is instant and a replay need
not regenerate moves), the number of legal moves and the tiles left in the
bag; or ``end`` with the reason the event ends. Racks are re-drawn from the
seeded bag on replay and compared with the journal.
"""

from __future__ import annotations

import copy
import time as _time
import unicodedata
from dataclasses import asdict, dataclass, field

import numpy as np

from lexicon_tools.alphabet import BLANK, Alphabet

from engine.position.board import Board
from engine.game.game import Bag
from engine.position.scorer import IllegalMove, check_move, parse_move, score_placement

from .journal import JournalError
from .rules import SimultanRules, draw_rack
from .topmove import TopCandidate, top_moves

__all__ = [
    "DirectorError",
    "Rejected",
    "Settings",
    "Submission",
    "Round",
    "Standing",
    "Event",
    "replay",
    "percent",
    "rank_standings",
    "lexicon_id",
]

NO_MOVE = "-"
"""What ``submit`` takes for "no move handed in" (0 points)."""


class DirectorError(ValueError):
    """A director's command that cannot be carried out (no open round, nothing to undo, ...)."""


class Rejected(ValueError):
    """A submission refused as bad input (unknown player, closed round, unreadable notation,
    tiles not on the rack): nothing in the event changes.

    Attributes:
        reason: the explanation (also ``str(exc)``).
    """

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def lexicon_id(lexicon) -> str:
    """A fingerprint of a lexicon (the SHA-256 of its graph), stored in the journal."""
    sha = (getattr(lexicon, "meta", None) or {}).get("kwg", {}).get("sha256")
    if sha:
        return str(sha)
    import hashlib

    return hashlib.sha256(np.asarray(lexicon.graph).tobytes()).hexdigest()


@dataclass
class Settings:
    """What ``new`` fixes for the whole event.

    Attributes:
        name: the event's name (shown on pages and in exports).
        players: player names in the order given.
        seed: the bag's seed (every rack follows from it).
        rules: the :class:`~engine.director.rules.SimultanRules`.
        lexicon: path of the lexicon bundle, ``None`` for the packaged default.
        lexicon_id: fingerprint of the lexicon (:func:`lexicon_id`).
        alphabet: tile set name.
        tables: table number per player (``{}``: one table, no numbers).
    """

    name: str
    players: list[str]
    seed: int
    rules: SimultanRules
    lexicon: str | None
    lexicon_id: str
    alphabet: str = "german"
    tables: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        """JSON-ready dict (the ``new`` record's ``settings``; ``tables`` only when set)."""
        d = {"name": self.name, "players": list(self.players), "seed": self.seed,
             "rules": self.rules.to_dict(), "lexicon": self.lexicon, "lexicon_id": self.lexicon_id,
             "alphabet": self.alphabet}
        if self.tables:
            d["tables"] = {p: int(t) for p, t in self.tables.items()}
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "Settings":
        """Inverse of :meth:`to_dict`."""
        return cls(name=d["name"], players=list(d["players"]), seed=int(d["seed"]),
                   rules=SimultanRules.from_dict(d["rules"]), lexicon=d.get("lexicon"),
                   lexicon_id=d["lexicon_id"], alphabet=d.get("alphabet", "german"),
                   tables={str(p): int(t) for p, t in (d.get("tables") or {}).items()})


@dataclass
class Submission:
    """One player's move for one round, as checked.

    Attributes:
        seq: journal entry number.
        round: round number.
        player: the player's name.
        text: the move as typed (``-`` for no move).
        time: when it was entered (Unix time).
        valid: True when the move is legal and every word is in the list.
        notation: the move in standard notation (``""`` for no move).
        score: points (0 when not valid).
        reason: why it scores 0 (``""`` when valid).
        words: words formed with their points (valid moves).
        would_score: for a move refused only for its words or placement, the
            points it would have made (shown to the director), else ``None``.
        late: seconds after the round time (``round --start`` plus the rules'
            ``round_time``) when it was entered, ``None`` when in time. Late
            moves count; they are flagged in ``round``, ``standings`` and the exports.
        handed_late: the move was handed in late (``submit --late``, or sent from a
            phone after the round time plus the grace); it costs what the rules'
            ``late_submission`` says.
    """

    seq: int
    round: int
    player: str
    text: str
    time: float
    valid: bool
    notation: str
    score: int
    reason: str = ""
    words: list = field(default_factory=list)
    would_score: int | None = None
    late: float | None = None
    handed_late: bool = False
    source: str = "director"
    unchanged: bool = False

    def result(self) -> dict:
        """The journal's ``result`` dict."""
        return {"valid": self.valid, "notation": self.notation, "score": self.score, "reason": self.reason,
                "words": [list(w) for w in self.words], "would_score": self.would_score}


@dataclass
class Round:
    """One round: its rack, top moves, submissions and (once closed) scores.

    Attributes:
        number: 1-based.
        rack: the round's rack (``?`` = blank).
        rejected: rejected draws before this rack, ``[(rack, reason), ...]``.
        tops: every top-scoring move, tie-break order (see :mod:`engine.director.topmove`).
        decided_by: the tie-break keys that narrowed the tied tops down to the top.
        n_moves: number of legal placements.
        bag: tiles left in the bag after the rack was drawn.
        board: the position (board) of the round, before the top move.
        opened_at, started_at, closed_at: Unix times (``started_at`` from ``round --start``).
        submissions: the counting submission per player.
        history: every submission in order (resubmissions included).
        leave: counts of the tiles kept from the last round (index 0 = blanks).
        rack_from: ``"seed"`` (drawn from the seeded bag) or ``"bag"`` (typed by the
            director from a physical bag, ``round --start --rack``).
        closed: True once the top move is placed.
        top: the top move placed (a member of ``tops``).
        chosen_by: ``"tie-break"`` or ``"director"`` (``close --choose``).
        words: words the top move formed, with points.
        scores: points per player this round (0 for no or invalid move), bonus excluded.
        bonus: solo bonus per player (only players who got one).
        penalties: deductions per player, ``{player: [{"seq", "kind", "points", "reason"}, ...]}``;
            ``kind`` is ``"penalty"`` (``simultan penalty``), ``"warning"`` (``simultan warn``;
            ``points`` 0 while the player's warnings are free) or ``"late"`` (a late move
            under ``late_submission = "penalty"``, added at the close).
        void_late: players whose late move scored 0 (``late_submission = "zero"``).
    """

    number: int
    rack: str
    rejected: list
    tops: list
    decided_by: list
    n_moves: int
    bag: int
    board: Board
    opened_at: float
    started_at: float | None = None
    leave: np.ndarray | None = None
    rack_from: str = "seed"
    submissions: dict = field(default_factory=dict)
    history: list = field(default_factory=list)
    closed: bool = False
    top: TopCandidate | None = None
    chosen_by: str = ""
    words: list = field(default_factory=list)
    scores: dict = field(default_factory=dict)
    bonus: dict = field(default_factory=dict)
    closed_at: float | None = None
    penalties: dict = field(default_factory=dict)
    void_late: list = field(default_factory=list)

    @property
    def top_score(self) -> int:
        """Points of the top move."""
        return self.tops[0].score if self.tops else 0

    def deduction(self, player: str) -> int:
        """Points deducted from the player in this round (penalties, warnings, late move)."""
        return sum(int(e["points"]) for e in self.penalties.get(player, ()))

    def warnings(self, player: str) -> int:
        """Warnings the player got in this round."""
        return sum(1 for e in self.penalties.get(player, ()) if e["kind"] == "warning")

    def total(self, player: str) -> int:
        """The player's points this round including the solo bonus, minus deductions."""
        return self.scores.get(player, 0) + self.bonus.get(player, 0) - self.deduction(player)

    def to_dict(self) -> dict:
        """JSON-ready dict (board as 15 text rows)."""
        return {
            "round": self.number, "rack": self.rack, "rejected": [list(r) for r in self.rejected],
            "tops": [t.to_dict() for t in self.tops], "decided_by": list(self.decided_by), "n_moves": self.n_moves,
            "bag": self.bag, "board": self.board.rows_text(), "opened_at": self.opened_at,
            "started_at": self.started_at, "closed": self.closed, "rack_from": self.rack_from,
            "top": self.top.to_dict() if self.top else None, "chosen_by": self.chosen_by,
            "words": [list(w) for w in self.words], "scores": dict(self.scores), "bonus": dict(self.bonus),
            "closed_at": self.closed_at, "penalties": {p: [dict(e) for e in v] for p, v in self.penalties.items()},
            "void_late": list(self.void_late),
            "submissions": {p: asdict(s) for p, s in self.submissions.items()},
            "history": [asdict(s) for s in self.history],
        }


@dataclass
class Standing:
    """One line of the standings.

    Attributes:
        rank: 1-based; equal totals share a rank (1, 1, 3).
        player: name.
        total: points including bonuses.
        points: points from moves.
        bonus: solo bonuses.
        percent: ``100 * total / top_total`` (two decimals), 0 before the first round closes.
        top_total: the master game's points over the same rounds.
        tops: rounds in which the player reached the top score.
        solos: rounds in which the player alone reached it (counted even without a bonus).
        invalid: rounds with an invalid move (0 points).
        missing: rounds without a move.
        late: rounds whose counting move was entered after the round time.
        penalty: points deducted (penalties, warnings, late moves; included in ``total``).
        warnings: warnings received.
        absent: rounds before the player joined or after they left (0 points; not ``missing``).
        table: the player's table number, ``None`` without tables.
        joined: the round a late arrival joined in (``None``: from the start).
        left: the round in which the player left (``None``: still playing).
        handed_late: rounds whose counting move was handed in late (``late_submission``).
    """

    rank: int
    player: str
    total: int
    points: int
    bonus: int
    percent: float
    top_total: int
    tops: int
    solos: int
    invalid: int
    missing: int
    late: int = 0
    penalty: int = 0
    warnings: int = 0
    absent: int = 0
    table: int | None = None
    joined: int | None = None
    left: int | None = None
    handed_late: int = 0


def percent(points: int, top: int) -> float:
    """``points`` as a percentage of ``top``, rounded to two decimals (0.0 when ``top`` is 0)."""
    return round(100.0 * points / top, 2) if top else 0.0


def rank_standings(totals: dict[str, int], order: list[str]) -> list[tuple[int, str]]:
    """``[(rank, player), ...]`` by total descending, equal totals sharing a rank (1, 1, 3), seat order within."""
    seat = {p: i for i, p in enumerate(order)}
    players = sorted(order, key=lambda p: (-totals[p], seat[p]))
    out, rank = [], 0
    for i, p in enumerate(players):  # the rank is 1 + the number of higher totals
        if i == 0 or totals[p] != totals[players[i - 1]]:
            rank = i + 1
        out.append((rank, p))
    return out


class Event:
    """The state of a simultaneous event, rebuilt record by record.

    Attributes:
        settings: the event's :class:`Settings`.
        lexicon: the word list.
        alphabet: the tile set.
        board: the current board (after the last closed round).
        bag: the seeded bag (its RNG state included).
        rounds: every round opened so far; the last is open unless the event is over.
        over: True once no further round can be played.
        end_reason: why the event ended.
        end_rejected: rejected draws of the round that could not be opened.
        end_rack: the rack drawn for that round when it had no legal move, else ``""``.
        seq: the last journal entry applied.
        actions: the records applied after ``new`` and not undone (what ``undo`` takes back).
        created: Unix time of ``new``.
    """

    def __init__(self, settings: Settings, lexicon, alphabet: Alphabet | None = None):
        from lexicon_tools.alphabet import Alphabet as _A

        self.settings = settings
        self.lexicon = lexicon
        self.alphabet = alphabet or getattr(lexicon, "alphabet", None) or _A.load(settings.alphabet)
        self.board = Board(self.alphabet)
        self.bag = Bag(self.alphabet, settings.seed)
        self.rounds: list[Round] = []
        self.over = False
        self.end_reason = ""
        self.end_rejected: list = []
        self.end_rack = ""
        self.seq = 0
        self.actions: list[dict] = []
        self.created = 0.0
        self.roster: list[str] = list(settings.players)
        self.tables: dict[str, int] = dict(settings.tables)
        self.joined: dict[str, int] = {}
        self.left: dict[str, int] = {}
        self.warning_count: dict[str, int] = {}
        self._rack = np.zeros(self.alphabet.size + 1, dtype=np.int32)
        self._last: dict | None = None

    # -- queries ----------------------------------------------------------------------
    @property
    def rules(self) -> SimultanRules:
        """The event's rules."""
        return self.settings.rules

    @property
    def players(self) -> list[str]:
        """Player names in seat order (late arrivals after the others, in the order they joined)."""
        return self.roster

    def absent(self, player: str, rnd: "Round") -> bool:
        """True when ``player`` did not play round ``rnd``: it was before they joined, or they had
        left (in the round they left only when no move of theirs was entered)."""
        j = self.joined.get(player)
        if j is not None and rnd.number < j:
            return True
        lv = self.left.get(player)
        return lv is not None and (rnd.number > lv or (rnd.number == lv and player not in rnd.submissions))

    @property
    def current(self) -> Round | None:
        """The open round, ``None`` when the event is over."""
        if self.rounds and not self.rounds[-1].closed:
            return self.rounds[-1]
        return None

    @property
    def closed_rounds(self) -> list[Round]:
        """The rounds whose top move is placed."""
        return [r for r in self.rounds if r.closed]

    @property
    def rack_pending(self) -> bool:
        """True while the open round waits for its tiles from a physical bag (``rules.physical_bag``,
        clock not started): its seeded draw and that draw's top moves are no rack of the
        event and are shown nowhere (only the leave kept from the last round is)."""
        cur = self.current
        return bool(cur is not None and self.rules.physical_bag and cur.started_at is None)

    @property
    def rack(self) -> np.ndarray:
        """Counts of the open round's rack (a copy)."""
        return self._rack.copy()

    def find_player(self, name: str) -> str:
        """The player's name as entered at ``new`` (matching ignores case).

        Raises:
            Rejected: unknown player (the message lists the players).
        """
        for p in self.players:
            if p == name:
                return p
        key = name_key(name)
        for p in self.players:
            if name_key(p) == key:
                return p
        raise Rejected(f"unknown player {name!r} (players: {', '.join(self.players) or 'none'})")

    def standings(self, upto: int | None = None) -> list[Standing]:
        """The standings after the closed rounds (up to round ``upto``), best first."""
        rounds = [r for r in self.closed_rounds if upto is None or r.number <= upto]
        top_total = sum(r.top.score for r in rounds)
        totals = {p: sum(r.total(p) for r in rounds) for p in self.players}
        solos = [_solo(r, self.players) for r in rounds]
        out = []
        for rank, p in rank_standings(totals, self.players):
            subs = [r.submissions.get(p) for r in rounds]
            away = [self.absent(p, r) for r in rounds]
            out.append(Standing(
                rank=rank, player=p, total=totals[p],
                points=sum(r.scores.get(p, 0) for r in rounds),
                bonus=sum(r.bonus.get(p, 0) for r in rounds),
                percent=percent(totals[p], top_total), top_total=top_total,
                tops=sum(1 for r in rounds if r.scores.get(p, 0) == r.top.score),
                solos=sum(1 for s in solos if s == p),
                invalid=sum(1 for s in subs if s is not None and not s.valid and s.text != NO_MOVE),
                missing=sum(1 for s, a in zip(subs, away) if (s is None or s.text == NO_MOVE) and not a),
                late=sum(1 for s in subs if s is not None and s.late is not None),
                penalty=sum(r.deduction(p) for r in rounds),
                warnings=sum(r.warnings(p) for r in rounds),
                absent=sum(away), table=self.tables.get(p), joined=self.joined.get(p), left=self.left.get(p),
                handed_late=sum(1 for s in subs if s is not None and s.handed_late),
            ))
        return out

    def snapshot(self) -> dict:
        """The whole state as plain data (for comparing a live event with a replayed one)."""
        tiles, rng = self.bag.state()
        return {
            "settings": self.settings.to_dict(), "seq": self.seq, "board": self.board.rows_text(),
            "bag": sorted(tiles), "bag_order": list(tiles), "rng": repr(rng), "rack": self._rack.tolist(),
            "rounds": [r.to_dict() for r in self.rounds], "over": self.over, "end_reason": self.end_reason,
            "end_rejected": [list(r) for r in self.end_rejected], "end_rack": self.end_rack,
            "actions": [a["seq"] for a in self.actions], "roster": list(self.roster), "tables": dict(self.tables),
            "joined": dict(self.joined), "left": dict(self.left),
        }

    def tile_check(self) -> None:
        """Assert tile conservation: board + rack + bag = the full tile set.

        Raises:
            AssertionError: tiles were lost or duplicated.
        """
        a = self.alphabet
        on_board = np.bincount(np.where(self.board.blanks, 0, self.board.tiles)[self.board.tiles != 0],
                               minlength=a.size + 1)
        total = on_board + self._rack + self.bag.counts()
        assert total.tolist() == a.counts.tolist(), "tiles lost or duplicated"

    # -- planning ----------------------------------------------------------------------
    @classmethod
    def plan_new(cls, settings: Settings, lexicon, now: float | None = None) -> dict:
        """The ``new`` record: settings and the first round (drawn and solved here)."""
        now = _time.time() if now is None else now
        ev = cls(settings, lexicon)
        rec = {"type": "new", "format": "simultan-journal", "version": 1, "time": now,
               "settings": settings.to_dict()}
        rec["open"] = ev._open_round(1, np.zeros(ev.alphabet.size + 1, dtype=np.int32), None, now)
        return rec

    def plan_submit(self, player: str, text: str, round_no: int | None = None, now: float | None = None,
                    late: bool = False, source: str = "director") -> dict:
        """The ``submit`` record for a player's move in the open round.

        An illegal placement or a word not in the list is accepted and scores 0
        (the reason is recorded).

        A move entered after the round time is recorded with its time and
        flagged late (:attr:`Submission.late`).

        Args:
            late: the director marks the move as handed in late (``submit --late``).
            source: ``"director"`` (typed in by the director, from a slip: the clock
                marks nothing) or ``"player"`` (sent from the player's phone: a move
                sent after the round time plus ``late_grace`` is handed in late).

        Raises:
            Rejected: unknown player, the event is over, ``round_no`` is not the
                open round, the open round's clock has not been started
                (``round --start``), unreadable notation, or tiles not on the round's rack.
        """
        now = _time.time() if now is None else now
        p = self.find_player(player)
        cur = self.current
        if round_no is not None and (cur is None or round_no != cur.number):
            if cur is None or round_no < cur.number:
                raise Rejected(f"round {round_no} is closed ("
                               + ("the event is over" if cur is None else f"the open round is {cur.number}")
                               + "); nothing recorded")
            raise Rejected(f"round {round_no} is not open yet (the open round is {cur.number})")
        if cur is None:
            raise Rejected(f"the event is over ({self.end_reason}); no round is open")
        if cur.started_at is None:
            raise Rejected(f"round {cur.number} has not started: start its clock with `simultan round DIR "
                           f"--start` before entering moves")
        if p in self.left:
            raise Rejected(f"{p} left the event in round {self.left[p]}; nothing recorded")
        result = self._evaluate(text)
        rec = {"type": "submit", "time": now, "round": cur.number, "player": p, "move": text.strip(),
               "result": result}
        r = self.rules
        if source == "player" and r.round_time > 0 and now > cur.started_at + r.round_time + r.late_grace:
            late = True
        if late:
            rec["handed_late"] = True
        if source == "player":
            rec["source"] = "player"
        return rec

    def unchanged(self, rec: dict) -> "Submission | None":
        """The counting submission when ``rec`` (a planned ``submit``) repeats it exactly (same
        move, same lateness, same source): it need not be journaled again; else ``None``."""
        cur = self.current
        old = cur.submissions.get(rec["player"]) if cur is not None else None
        if (old is None or old.text != rec["move"] or old.handed_late != bool(rec.get("handed_late"))
                or old.source != rec.get("source", "director")):
            return None
        return old

    def undo_target(self) -> tuple[dict | None, list[int]]:
        """What ``undo`` takes back: ``(action, drops)`` — the director's last action not yet
        undone (``None``: nothing to undo) and the ``seq`` of the phone moves that go with it.

        Moves sent from phones are never the target: the player corrects their own move, and
        the director's entry for the player replaces it. Phone moves that depend on the
        director's action are taken back with it: every one sent after an undone ``start``
        (they were made under that clock and rack), a late arrival's after an undone ``join``.
        """
        return undo_target(self.actions)
    def _target_round(self, round_no: int | None) -> Round:
        """The round a penalty or warning goes to: ``round_no``, else the open round, else the last one."""
        if not self.rounds:
            raise DirectorError("no round has been played")
        if round_no is None:
            return self.current or self.rounds[-1]
        if not 1 <= round_no <= len(self.rounds):
            raise DirectorError(f"round {round_no} has not been played (rounds 1 to {len(self.rounds)})")
        return self.rounds[round_no - 1]

    def _playing(self, rnd: Round, player: str) -> str:
        """The player, if they played round ``rnd`` (a penalty or warning can go to it).

        Raises:
            Rejected: unknown player, or the player left before ``rnd`` (the same refusal as
                a move: "left the event in round N"); rounds up to the one they left in take
                deductions.
            DirectorError: the player joined after ``rnd``.
        """
        p = self.find_player(player)
        if self.joined.get(p, 0) > rnd.number:
            raise DirectorError(f"{p} joined in round {self.joined[p]}, after round {rnd.number}")
        if p in self.left and rnd.number > self.left[p]:
            raise Rejected(f"{p} left the event in round {self.left[p]}; nothing recorded (a penalty or warning "
                           f"can still go to round {self.left[p]} or before)")
        return p

    def plan_penalty(self, player: str, points: int, round_no: int | None = None, reason: str = "",
                     now: float | None = None) -> dict:
        """The ``penalty`` record: ``points`` deducted from ``player`` in a round (default the open
        round, after the event the last one); a negative number gives points back (a correction).

        Raises:
            Rejected: unknown player.
            DirectorError: ``points`` is 0 or beyond +-1000, the round has not been played, or the
                player joined after it.
        """
        now = _time.time() if now is None else now
        if isinstance(points, bool) or not isinstance(points, int) or points == 0 or abs(points) > 1000:
            raise DirectorError(f"penalty {points!r}: give the points to deduct, a whole number from 1 to 1000 "
                                f"(negative gives points back)")
        rnd = self._target_round(round_no)
        p = self._playing(rnd, player)
        return {"type": "penalty", "time": now, "round": rnd.number, "player": p, "points": points,
                "reason": _clean_reason(reason)}

    def plan_warn(self, player: str, round_no: int | None = None, reason: str = "",
                  now: float | None = None) -> dict:
        """The ``warn`` record: a warning for ``player`` in a round (default the open round).
        It costs ``rules.warning_penalty`` points once the player has had ``rules.warnings_free``.

        Raises:
            Rejected: unknown player.
            DirectorError: the round has not been played, or the player joined after it.
        """
        now = _time.time() if now is None else now
        rnd = self._target_round(round_no)
        p = self._playing(rnd, player)
        return {"type": "warn", "time": now, "round": rnd.number, "player": p, "reason": _clean_reason(reason)}

    def plan_join(self, name: str, table: int | None = None, now: float | None = None) -> dict:
        """The ``join`` record: a player arriving late plays from the open round on; the rounds
        before count 0 for them (absent).

        Raises:
            DirectorError: the event is over, the name is empty or taken (ignoring case), or the
                table number is not 1 to 999.
        """
        now = _time.time() if now is None else now
        cur = self._need_open()
        n = check_player_name(name)
        taken = [p for p in self.players if name_key(p) == name_key(n)]
        if taken:
            extra = f" (left in round {self.left[taken[0]]})" if taken[0] in self.left else ""
            raise DirectorError(f"player name {n!r} is taken by {taken[0]!r}{extra}; choose another name")
        if table is not None and (isinstance(table, bool) or not isinstance(table, int) or not 1 <= table <= 999):
            raise DirectorError(f"table {table!r}: a number from 1 to 999")
        return {"type": "join", "time": now, "round": cur.number, "player": n, "table": table}

    def plan_leave(self, player: str, now: float | None = None) -> dict:
        """The ``leave`` record: ``player`` leaves in the open round. A move already entered for
        it counts; no further move is taken; the later rounds count 0 (absent).

        Raises:
            Rejected: unknown player.
            DirectorError: the event is over, or the player has left already.
        """
        now = _time.time() if now is None else now
        cur = self._need_open()
        p = self.find_player(player)
        if p in self.left:
            raise DirectorError(f"{p} left in round {self.left[p]} already")
        return {"type": "leave", "time": now, "round": cur.number, "player": p}

    def plan_start(self, now: float | None = None, rack: str | None = None) -> dict:
        """The ``start`` record: the open round's clock starts.

        Args:
            now: the time recorded.
            rack: the rack drawn from a physical bag instead of the seeded draw: the
                tiles drawn (the leave stays on the rack and is added), or the whole
                rack, leave included; ``?`` = blank (see :meth:`check_rack`).

        Raises:
            DirectorError: no open round, or its clock already runs; the event uses a
                physical bag (``rules.physical_bag``) and no ``rack`` is given; the
                rack is refused (:meth:`check_rack`).
        """
        now = _time.time() if now is None else now
        cur = self._need_open()
        if cur.started_at is not None:
            raise DirectorError(f"round {cur.number} already started at {_clock(cur.started_at)}")
        rec = {"type": "start", "time": now, "round": cur.number}
        if rack is None and self.rules.physical_bag:
            raise DirectorError(f"round {cur.number}: this event draws from a physical bag; give the tiles drawn "
                                f"(`round --start --rack ...`)")
        if rack is not None:
            full = self.check_rack(rack)
            choice = top_moves(self.board, full, self.lexicon, self.rules.tie_break)
            rack_s = self.alphabet.rack_string(full)
            if not choice.candidates:
                raise DirectorError(f"rack {rack_s}: no move is possible with it; put the drawn tiles back and "
                                    f"draw again")
            left = int((self.bag.counts() + self._rack - full).sum())
            rec["rack"] = rack_s
            rec["open"] = {"tops": [t.to_dict() for t in choice.candidates], "decided_by": choice.decided_by,
                           "n_moves": choice.n_moves, "bag": left}
        return rec

    def check_rack(self, text: str) -> np.ndarray:
        """The open round's whole rack from tiles drawn out of a physical bag.

        ``text`` is either the tiles drawn (the round's leave, kept from the last
        round, is added) or the whole rack with the leave; spaces are ignored,
        ``?`` is a blank. The tiles drawn must be in the bag (the tile set minus
        the board and the leave), and the rack must meet the round's vowel and
        consonant minimum (:func:`engine.director.rules.rack_check`).

        Returns:
            the rack's counts (index 0 = blanks).

        Raises:
            DirectorError: no open round, an unknown letter, the wrong number of
                tiles, a leave tile missing, a tile the bag does not hold, or a rack
                that fails the vowel/consonant rule (the message says which).
        """
        from .rules import rack_check

        cur = self._need_open()
        a = self.alphabet
        typed = "".join(str(text).split())
        try:
            counts = a.parse_rack(typed) if typed else np.zeros(a.size + 1, dtype=np.int32)
        except ValueError as exc:
            raise DirectorError(str(exc)) from None
        leave = cur.leave if cur.leave is not None else np.zeros(a.size + 1, dtype=np.int32)
        pool = self.bag.counts() + self._rack - leave          # the physical bag: the seeded draw goes back
        size = min(a.rack_size, int(pool.sum() + leave.sum()))
        n, kept = int(counts.sum()), int(leave.sum())
        leave_s = a.rack_string(leave)
        if n == size and kept and np.all(counts >= leave) and n != size - kept:
            full = counts
        elif n == size - kept:
            full = counts + leave
        elif n == size and kept:
            raise DirectorError(f"rack {typed}: the leave {leave_s} stays on the rack; give the "
                                f"{size - kept} tiles drawn, or the whole rack with {leave_s}")
        else:
            want = f"{size - kept} tiles drawn (the leave {leave_s} stays on the rack)" if kept else f"{size} tiles"
            raise DirectorError(f"rack {typed or '(empty)'}: {n} tile{'s' * (n != 1)}; round {cur.number} needs "
                                f"{want}")
        drawn = full - leave
        short = np.nonzero(drawn > pool)[0]
        if len(short):
            k = int(short[0])
            name = "blank (?)" if k == BLANK else a.letter(k)
            have = int(pool[k])
            raise DirectorError(f"rack {a.rack_string(full)}: the bag holds {'no' if not have else f'only {have}'} "
                                f"{name}{'' if have <= 1 else 's'} (the rest of the tiles are on the board or the "
                                f"rack); check the tiles drawn")
        reason = rack_check(full, a, self.rules, cur.number)
        if reason:
            raise DirectorError(f"rack {a.rack_string(full)}: {reason}; put the tiles back and draw again")
        return full.astype(np.int32)

    def plan_close(self, choose: str | None = None, now: float | None = None, require_start: bool = True) -> dict:
        """The ``close`` record: the top move (tie-break, or ``choose`` among the tied tops)
        and the next round (drawn and solved on copies of board and bag).

        Args:
            choose: one of the tied top moves instead of the tie-break's choice.
            now: the time recorded.
            require_start: refuse a round whose clock has not been started
                (``round --start``); ``simultan auto`` closes without starting.

        Raises:
            DirectorError: no open round; the round has not started; ``choose``
                is not one of the tied top moves.
        """
        now = _time.time() if now is None else now
        cur = self._need_open()
        if require_start and cur.started_at is None:
            raise DirectorError(f"round {cur.number} has not started (no `round --start`), so it cannot be "
                                f"closed; was it closed twice? (`close --round N` closes only round N)")
        top = cur.tops[0]
        chosen_by = "tie-break"
        if choose:
            notation, score = choose.strip(), None
            try:  # the notation as the tops write it; no word check: a top move's words are fine
                loose = score_placement(self.board, parse_move(self.board, choose).tiles, None, rack=self._rack)
                notation, score = loose.move.notation, loose.score
            except IllegalMove:
                pass
            match = [t for t in cur.tops if t.notation == notation]
            if not match:
                tops = ", ".join(t.notation for t in cur.tops[:10])
                raise DirectorError(f"--choose {choose!r} is not one of the tied top moves ({cur.top_score} points"
                                    + (f"; it scores {score}" if score is not None else "") + f"): {tops}")
            top = match[0]
            chosen_by = "director" if top is not cur.tops[0] else "tie-break"
        rec = {"type": "close", "time": now, "round": cur.number, "top": top.notation, "score": top.score,
               "chosen_by": chosen_by}
        scratch = self._scratch()
        leave = scratch._close(rec)
        rec["open"] = scratch._open_round(cur.number + 1, leave, None, now)
        return rec

    def plan_undo(self, now: float | None = None, expect: int | None = None) -> dict:
        """The ``undo`` record taking back the last action not yet undone.

        Args:
            now: the time recorded.
            expect: refuse unless the action taken back is journal entry ``expect``
                (``undo --expect N``: an undo killed and retried does not take back a second action).

        Raises:
            DirectorError: nothing to undo (``new`` cannot be undone); the last
                action is not entry ``expect``.
        """
        now = _time.time() if now is None else now
        last, drops = self.undo_target()
        if last is None:
            raise DirectorError("nothing to undo (the event has no action of the director after `new`)"
                                + (f"; entry {expect} is not the last action" if expect is not None else ""))
        if expect is not None and last["seq"] != expect:
            raise DirectorError(f"the last action is entry {last['seq']} ({describe_action(last)}), not entry "
                                f"{expect}; nothing undone (was entry {expect} undone already?)")
        return {"type": "undo", "time": now, "undoes": last["seq"], "drops": drops, "what": describe_action(last)}

    # -- applying ----------------------------------------------------------------------
    def apply(self, rec: dict, recompute: bool = False) -> None:
        """Apply one journal record (not ``new`` or ``undo``: see :func:`replay`).

        Args:
            rec: the record.
            recompute: regenerate the next round's top moves and compare them
                with the journal (slower; tests and ``--verify``).

        Raises:
            JournalError: the record does not fit the state (wrong round,
                different rack or score than the seed and lexicon give).
        """
        t = rec.get("type")
        seq = rec.get("seq", self.seq + 1)
        try:
            if t == "submit":
                self._apply_submit(rec, seq)
            elif t == "start":
                cur = self._round_of(rec)
                if "rack" in rec:
                    self._set_rack(cur, rec, recompute)
                cur.started_at = float(rec["time"])
            elif t == "close":
                self._round_of(rec)
                leave = self._close(rec)
                self._open_round(int(rec["round"]) + 1, leave, rec["open"], float(rec["time"]), recompute)
            elif t in ("penalty", "warn"):
                self._apply_deduction(rec, seq)
            elif t == "join":
                self._round_of(rec)
                n = check_player_name(rec["player"])
                if any(name_key(p) == name_key(n) for p in self.players):
                    raise JournalError(f"journal entry {seq}: player {n!r} joins twice")
                self.roster.append(n)
                self.joined[n] = int(rec["round"])
                if rec.get("table") is not None:
                    self.tables[n] = int(rec["table"])
            elif t == "leave":
                self._round_of(rec)
                p = rec["player"]
                if p not in self.players or p in self.left:
                    raise JournalError(f"journal entry {seq}: {p!r} cannot leave (unknown, or left already)")
                self.left[p] = int(rec["round"])
            else:
                raise JournalError(f"journal entry {seq}: unknown type {t!r}")
        except (KeyError, TypeError) as exc:
            raise JournalError(f"journal entry {seq}: malformed {t} entry ({exc})") from None
        except (DirectorError, Rejected) as exc:
            raise JournalError(f"journal entry {seq}: {exc}") from None
        self.seq = seq
        self.actions.append(rec)
        self._last = rec

    def _apply_deduction(self, rec: dict, seq: int) -> None:
        """A ``penalty`` or ``warn`` record: the deduction goes to its round."""
        n = int(rec["round"])
        if not 1 <= n <= len(self.rounds):
            raise JournalError(f"journal entry {seq}: {rec['type']} for round {n}, which has not been played")
        rnd = self.rounds[n - 1]
        p = rec["player"]
        if p not in self.players:
            raise JournalError(f"journal entry {seq}: unknown player {p!r}")
        if rec["type"] == "penalty":
            entry = {"seq": seq, "kind": "penalty", "points": int(rec["points"]), "reason": rec.get("reason", "")}
        else:
            count = self.warning_count.get(p, 0) + 1
            self.warning_count[p] = count
            r = self.rules
            entry = {"seq": seq, "kind": "warning", "number": count, "reason": rec.get("reason", ""),
                     "points": r.warning_penalty if count > r.warnings_free else 0}
        rnd.penalties.setdefault(p, []).append(entry)

    def _apply_submit(self, rec: dict, seq: int) -> None:
        cur = self._round_of(rec)
        p = rec["player"]
        if p not in self.players:
            raise JournalError(f"journal entry {seq}: unknown player {p!r}")
        if p in self.left:
            raise JournalError(f"journal entry {seq}: {p} left in round {self.left[p]}")
        try:
            result = self._evaluate(rec["move"])
        except Rejected as exc:
            raise JournalError(f"journal entry {seq}: {p}'s move {rec['move']!r} no longer reads: {exc}") from None
        if result != rec["result"]:
            raise JournalError(f"journal entry {seq}: {p}'s move {rec['move']!r} now checks as {result}, "
                               f"the journal recorded {rec['result']} (different lexicon?)")
        t = float(rec["time"])
        late = None
        if cur.started_at is not None and self.rules.round_time > 0:
            over = t - (cur.started_at + self.rules.round_time)
            late = round(over, 1) if over > 0 else None
        sub = Submission(seq=seq, round=cur.number, player=p, text=rec["move"], time=t,
                         valid=result["valid"], notation=result["notation"], score=result["score"],
                         reason=result["reason"], words=[tuple(w) for w in result["words"]],
                         would_score=result["would_score"], late=late,
                         handed_late=bool(rec.get("handed_late", False)),
                         source="player" if rec.get("source") == "player" else "director")
        cur.submissions[p] = sub
        cur.history.append(sub)

    def _set_rack(self, cur: Round, rec: dict, recompute: bool) -> None:
        """A ``start`` record's rack from a physical bag: the seeded draw's new tiles back
        into the bag, the typed ones out of it, the record's top moves for the round."""
        a = self.alphabet
        new = a.parse_rack(rec["rack"])
        leave = cur.leave if cur.leave is not None else np.zeros(a.size + 1, dtype=np.int32)
        if np.any(new < leave):
            raise JournalError(f"journal entry {rec.get('seq')}: rack {rec['rack']} lacks the leave "
                               f"{a.rack_string(leave)}")
        self.bag.put_back(c for c in range(a.size + 1) for _ in range(int(self._rack[c] - leave[c])))
        try:
            self.bag.remove([c for c in range(a.size + 1) for _ in range(int(new[c] - leave[c]))])
        except Exception as exc:
            raise JournalError(f"journal entry {rec.get('seq')}: rack {rec['rack']}: {exc}") from None
        out = rec["open"]
        if recompute:
            choice = top_moves(self.board, new, self.lexicon, self.rules.tie_break)
            if [t.to_dict() for t in choice.candidates] != out["tops"]:
                raise JournalError(f"round {cur.number}: the top moves computed now for rack {rec['rack']} differ "
                                   f"from the journal's (different lexicon or engine version?)")
        self._rack = new.astype(np.int32)
        cur.rack, cur.rack_from, cur.rejected = rec["rack"], "bag", []
        cur.tops = [TopCandidate.from_dict(t) for t in out["tops"]]
        cur.decided_by = list(out.get("decided_by", []))
        cur.n_moves = int(out.get("n_moves", 0))
        cur.bag = int(out.get("bag", len(self.bag)))

    def _round_of(self, rec: dict) -> Round:
        cur = self.current
        if cur is None or cur.number != int(rec["round"]):
            raise JournalError(f"journal entry {rec.get('seq')}: {rec['type']} for round {rec['round']}, but "
                               f"{'the event is over' if cur is None else f'round {cur.number} is open'}")
        return cur

    def _need_open(self) -> Round:
        cur = self.current
        if cur is None:
            raise DirectorError(f"the event is over ({self.end_reason}); no round is open" if self.over
                                else "no round is open")
        return cur

    def _scratch(self) -> "Event":
        ev = Event(self.settings, self.lexicon, self.alphabet)
        ev.board = self.board.copy()
        ev.bag = self.bag.copy()
        ev.rounds = copy.deepcopy(self.rounds)
        ev._rack = self._rack.copy()
        ev.roster, ev.tables, ev.joined = list(self.roster), dict(self.tables), dict(self.joined)
        ev.left, ev.warning_count = dict(self.left), dict(self.warning_count)
        return ev

    def _evaluate(self, text: str) -> dict:
        text = text.strip()
        if text == NO_MOVE:
            return {"valid": False, "notation": "", "score": 0, "reason": "no move handed in", "words": [],
                    "would_score": None}
        a = self.alphabet
        try:
            placement = parse_move(self.board, text)
        except IllegalMove as exc:
            reason = exc.reason
            raise Rejected(reason if reason.startswith("cannot read") else f"cannot read {text!r}: {reason}") from None
        need = np.zeros(a.size + 1, dtype=np.int32)
        for _r, _c, ch, blank in placement.tiles:
            need[BLANK if blank else a.code(ch)] += 1
        short = np.nonzero(need > self._rack)[0]
        if len(short):
            k = int(short[0])
            name = "a blank (?)" if k == BLANK else a.letter(k)
            hint = " (lowercase letters stand for blanks)" if k == BLANK and any(c.islower() for c in text) else ""
            times = f" {int(need[k])} times" if self._rack[k] else ""
            raise Rejected(f"{text}: uses {name}{times}, but the round's rack is "
                           f"{a.rack_string(self._rack)}{hint}")
        try:
            scored = score_placement(self.board, placement.tiles, self.lexicon, rack=self._rack)
        except IllegalMove as exc:
            notation, would = placement.notation, None
            try:
                loose = score_placement(self.board, placement.tiles, None, rack=self._rack)
                notation, would = loose.move.notation, loose.score
            except IllegalMove:
                pass
            return {"valid": False, "notation": notation, "score": 0, "reason": exc.reason, "words": [],
                    "would_score": would}
        return {"valid": True, "notation": scored.move.notation, "score": scored.score, "reason": "",
                "words": [[w, s] for w, s in scored.words], "would_score": None}

    def _close(self, rec: dict) -> np.ndarray:
        """Place the record's top move, score the round; returns the leave."""
        cur = self.current
        match = [t for t in cur.tops if t.notation == rec["top"]]
        if not match:
            raise JournalError(f"journal entry {rec.get('seq')}: {rec['top']} is not a top move of round "
                               f"{cur.number}")
        top = match[0]
        try:
            scored = check_move(self.board, top.notation, self.lexicon, rack=self._rack)
        except IllegalMove as exc:
            raise JournalError(f"journal entry {rec.get('seq')}: top move {top.notation} of round {cur.number} "
                               f"is illegal here ({exc.reason}); different lexicon?") from None
        if scored.score != top.score or ("score" in rec and rec["score"] != top.score):
            raise JournalError(f"journal entry {rec.get('seq')}: top move {top.notation} scores {scored.score}, "
                               f"the journal says {top.score}")
        a = self.alphabet
        placed = [(r, c, a.code(ch), b) for r, c, ch, b in scored.tiles]
        self.board.place(placed)
        for _r, _c, code, b in placed:
            self._rack[BLANK if b else code] -= 1
        leave = self._rack.copy()
        self._rack[:] = 0
        cur.closed = True
        cur.top = top
        cur.chosen_by = rec.get("chosen_by", "tie-break")
        cur.words = [tuple(w) for w in scored.words]
        cur.closed_at = float(rec["time"])
        cur.scores = {p: (cur.submissions[p].score if p in cur.submissions else 0) for p in self.players}
        cur.bonus = {}
        r = self.rules
        cur.void_late = []
        for p in self.players:  # a move handed in late: what the rules say it costs
            sub = cur.submissions.get(p)
            if sub is None or not sub.handed_late or r.late_submission == "count":
                continue
            if r.late_submission == "zero":
                if cur.scores[p]:
                    cur.void_late.append(p)
                cur.scores[p] = 0
            else:
                cur.penalties.setdefault(p, []).append({"seq": sub.seq, "kind": "late", "points": r.late_penalty,
                                                        "reason": "handed in late"})
        solo = _solo(cur, self.players)
        present = sum(1 for p in self.players if not self.absent(p, cur))
        if solo is not None and r.solo_bonus and present >= r.solo_min_players:
            cur.bonus[solo] = r.solo_bonus
        return leave

    def _open_round(self, number: int, leave: np.ndarray, expect: dict | None, now: float,
                    recompute: bool = False) -> dict:
        """Draw round ``number``'s rack and set it up. Live (``expect`` None): solve it and
        return the ``open`` dict. Replay: check the draw against ``expect`` and take its tops."""
        a = self.alphabet
        draw = draw_rack(self.bag, leave, number, self.rules)
        rejected = [list(r) for r in draw.rejected]
        rack_s = a.rack_string(draw.rack) if draw.rack is not None else ""
        if expect is not None:
            if [list(r) for r in expect.get("rejected", [])] != rejected or expect.get("rack", "") != rack_s:
                raise JournalError(f"round {number}: the seeded bag draws {rack_s or 'no rack'} "
                                   f"(rejected {[r[0] for r in rejected]}), the journal says "
                                   f"{expect.get('rack') or 'no rack'} (rejected "
                                   f"{[r[0] for r in expect.get('rejected', [])]})")
        if draw.rack is None:
            self.over, self.end_reason, self.end_rejected = True, draw.end, rejected
            return {"round": number, "rack": "", "rejected": rejected, "end": draw.end}
        if expect is None or recompute:
            choice = top_moves(self.board, draw.rack, self.lexicon, self.rules.tie_break)
            out = {"round": number, "rack": rack_s, "rejected": rejected,
                   "tops": [t.to_dict() for t in choice.candidates], "decided_by": choice.decided_by,
                   "n_moves": choice.n_moves, "bag": len(self.bag), "end": ""}
            if not choice.candidates:
                out["end"] = f"no move is possible with the rack {rack_s}"
            if expect is not None and (out["tops"] != expect.get("tops") or out["end"] != expect.get("end", "")):
                raise JournalError(f"round {number}: the top moves computed now differ from the journal's "
                                   f"(different lexicon or engine version?)")
        else:
            out = expect
        if out.get("end"):
            self.bag.put_back(c for c in range(a.size + 1) for _ in range(int(draw.rack[c])))
            self.over, self.end_reason, self.end_rejected = True, out["end"], rejected
            self.end_rack = rack_s
            return out
        self._rack = draw.rack.astype(np.int32)
        tops = [TopCandidate.from_dict(t) for t in out["tops"]]
        self.rounds.append(Round(number=number, rack=rack_s, rejected=[tuple(r) for r in rejected], tops=tops,
                                 decided_by=list(out.get("decided_by", [])), n_moves=int(out.get("n_moves", 0)),
                                 bag=int(out.get("bag", len(self.bag))), board=self.board.copy(), opened_at=now,
                                 leave=leave.astype(np.int32).copy()))
        return out


def _solo(rnd: Round, players: list[str]) -> str | None:
    """The only player who reached the top score of a closed round, else None."""
    if not rnd.closed or rnd.top is None:
        return None
    hit = [p for p in players if rnd.scores.get(p, 0) == rnd.top.score]
    return hit[0] if len(hit) == 1 else None


def _clock(t: float) -> str:
    return _time.strftime("%H:%M:%S", _time.localtime(t))


def describe_action(rec: dict) -> str:
    """A short description of a journal action for people."""
    t = rec.get("type")
    if t == "submit":
        return f"{rec['player']}'s move {rec['move']} in round {rec['round']}"
    if t == "close":
        return f"closing round {rec['round']} (top {rec['top']})"
    if t == "start":
        return f"starting the clock of round {rec['round']}"
    if t == "penalty":
        return f"a penalty of {rec['points']} points for {rec['player']} in round {rec['round']}"
    if t == "warn":
        return f"a warning for {rec['player']} in round {rec['round']}"
    if t == "join":
        return f"{rec['player']} joining in round {rec['round']}"
    if t == "leave":
        return f"{rec['player']} leaving in round {rec['round']}"
    return str(t)


MAX_REASON_CHARS = 200


def _clean_reason(text: str) -> str:
    """A penalty's or warning's reason on one line, at most :data:`MAX_REASON_CHARS` characters."""
    out = " ".join(str(text or "").split())
    if len(out) > MAX_REASON_CHARS:
        raise DirectorError(f"reason: at most {MAX_REASON_CHARS} characters ({len(out)} given)")
    return out


# letters that print as nothing although Unicode does not class them as format characters
_BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e")
# scripts with letters that look like Latin ones (Cyrillic А, Greek Ο ...)
_LOOKALIKE_SCRIPTS = frozenset({"LATIN", "CYRILLIC", "GREEK"})


def check_player_name(name: str) -> str:
    """A player's name, stripped and in Unicode NFC (so ``Döra`` typed with a combining
    diaeresis is the same name as with ``ö``).

    Raises:
        DirectorError: empty, over 100 characters, starting with ``-``, or holding a control
            character (tabs, line breaks) or an invisible format character (Unicode category
            Cf: zero-width spaces, direction overrides such as U+202E, soft hyphens), named by
            its code point; holding a letter that prints as nothing (Hangul fillers, the blank
            Braille pattern); or mixing Latin, Cyrillic and Greek letters (look-alikes such as
            Cyrillic ``А`` in ``Аna``).
    """
    n = unicodedata.normalize("NFC", str(name)).strip()
    bad = next((ch for ch in n if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Co", "Cs")), None)
    if bad is not None:
        raise DirectorError(f"player name {n!r}: holds the invisible or control character U+{ord(bad):04X} "
                            f"({unicodedata.name(bad, 'unnamed')}); type the name without it")
    bad = next((ch for ch in n if ch in _BLANK_LOOKING), None)
    if bad is not None:
        raise DirectorError(f"player name {n!r}: holds the blank-looking character U+{ord(bad):04X} "
                            f"({unicodedata.name(bad, 'unnamed')}); type the name without it")
    scripts = sorted({unicodedata.name(ch, "?").split()[0] for ch in n if ch.isalpha()} & _LOOKALIKE_SCRIPTS)
    if len(scripts) > 1:
        raise DirectorError(f"player name {n!r}: mixes {' and '.join(s.title() for s in scripts)} letters, "
                            f"which look alike; type it in one alphabet")
    if not n or n.startswith("-") or len(n) > 100:
        raise DirectorError(f"player name {n!r}: must be non-empty, at most 100 characters, without tabs or "
                            f"line breaks, and not start with '-'")
    return n


def name_key(name: str) -> str:
    """The key two player names must not share: NFC, then casefold (``Ana`` = ``ANA``)."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", str(name)).strip().casefold())


def undo_target(actions: list[dict]) -> tuple[dict | None, list[int]]:
    """:meth:`Event.undo_target` for a list of action records (oldest first)."""
    for i in range(len(actions) - 1, -1, -1):
        a = actions[i]
        if a.get("type") == "submit" and a.get("source") == "player":
            continue
        after = actions[i + 1:]  # only phone moves
        if a.get("type") == "start":
            drops = [b["seq"] for b in after]
        elif a.get("type") == "join":
            drops = [b["seq"] for b in after if b.get("player") == a.get("player")]
        else:
            drops = []
        return a, drops
    return None, []


def replay(records: list[dict], lexicon, recompute: bool = False) -> Event:
    """Rebuild an event from its journal records.

    ``undo`` records take back the last action not yet undone; the remaining
    actions are applied in order to a fresh event made from the ``new`` record.

    Args:
        records: the journal's records in order (``seq`` 1, 2, ...).
        lexicon: the event's word list.
        recompute: regenerate every round's top moves and compare with the journal.

    Raises:
        JournalError: the records do not make a consistent event.
    """
    if not records or records[0].get("type") != "new":
        raise JournalError("the journal does not start with a `new` entry")
    new = records[0]
    if new.get("format") != "simultan-journal" or new.get("version") != 1:
        raise JournalError(f"journal format {new.get('format')!r} version {new.get('version')!r}: "
                           f"this program reads simultan-journal version 1")
    effective: list[dict] = []
    for rec in records[1:]:
        if rec.get("type") == "undo":
            target, drops = undo_target(effective)
            if target is None or target["seq"] != rec.get("undoes") or drops != list(rec.get("drops", [])):
                raise JournalError(f"journal entry {rec.get('seq')}: undoes entry {rec.get('undoes')}, which is "
                                   f"not the director's last action")
            gone = {target["seq"], *drops}
            effective = [r for r in effective if r["seq"] not in gone]
        elif rec.get("type") == "new":
            raise JournalError(f"journal entry {rec.get('seq')}: a second `new`")
        else:
            effective.append(rec)
    try:
        settings = Settings.from_dict(new["settings"])
    except (KeyError, TypeError, ValueError) as exc:
        raise JournalError(f"journal entry 1: bad settings ({exc})") from None
    ev = Event(settings, lexicon)
    ev.created = float(new.get("time", 0.0))
    ev._open_round(1, np.zeros(ev.alphabet.size + 1, dtype=np.int32), new["open"], ev.created, recompute)
    ev.seq = 1
    ev._last = new
    for rec in effective:
        ev.apply(rec, recompute)
    ev.seq = records[-1]["seq"]
    ev._last = records[-1]
    return ev
