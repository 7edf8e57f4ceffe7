"""The round's top move: every move of the position, the highest score, a deterministic tie-break.

All placements of the round's rack are generated
(:func:`engine.movegen.generator.generate_moves`); the moves with the highest score are
the tied tops. They are ordered by the event's tie-break keys
(:data:`engine.director.rules.TIE_BREAKS`), by default:

1. ``fewer-blanks`` — fewer blanks played (a blank kept is worth more later);
2. ``fewer-duplicates`` — the leave keeps fewer duplicate letters: the sum over
   letters of (copies − 1), blanks not counted (leave ``EEN`` → 1, ``EEE`` → 2,
   ``EN?`` → 0);
3. ``notation`` — notation order (Python string order of the move as written,
   ``8H …`` before ``H8 …``, the order ``python -m engine moves`` lists
   moves of equal score in). Notations are unique, so this always decides.

The first candidate is the top move; the others are shown to the director.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field

import numpy as np

from engine.position.board import Board
from engine.movegen.generator import generate_moves
from engine.position.moves import Move

from .rules import TIE_BREAKS

__all__ = ["TopCandidate", "TopChoice", "duplicates_in", "candidate_of", "rank_candidates", "top_moves"]


def duplicates_in(leave: str) -> int:
    """Duplicate letters kept in a leave: sum over letters of (copies − 1); blanks (``?``) not counted."""
    return sum(n - 1 for ch, n in Counter(leave).items() if ch != "?" and n > 1)


@dataclass(frozen=True)
class TopCandidate:
    """One move of top score with the values the tie-break looks at.

    Attributes:
        notation: the move (``8H WORT``, blanks lowercase, played-through tiles in parentheses).
        score: its points.
        blanks: blanks played.
        duplicates: duplicate letters kept in the leave (:func:`duplicates_in`).
        tiles: tiles played.
        leave: tiles kept, as a rack string.
    """

    notation: str
    score: int
    blanks: int
    duplicates: int
    tiles: int
    leave: str

    def key(self, tie_break) -> tuple:
        """Sort key under the tie-break keys (smaller is better)."""
        out = []
        for k in tie_break:
            if k == "fewer-blanks":
                out.append(self.blanks)
            elif k == "fewer-duplicates":
                out.append(self.duplicates)
            elif k == "more-tiles":
                out.append(-self.tiles)
            elif k == "fewer-tiles":
                out.append(self.tiles)
            elif k == "notation":
                out.append(self.notation)
            else:
                raise ValueError(f"unknown tie-break {k!r}")
        return tuple(out)

    def to_dict(self) -> dict:
        """JSON-ready dict."""
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> "TopCandidate":
        """Inverse of :meth:`to_dict`."""
        return cls(**d)


def candidate_of(move: Move) -> TopCandidate:
    """The :class:`TopCandidate` of a generated move."""
    blanks = sum(1 for ch, t in zip(move.word, move.through) if not t and ch.islower())
    return TopCandidate(move.notation, int(move.score), blanks, duplicates_in(move.leave), move.tiles_played,
                        move.leave)


@dataclass
class TopChoice:
    """The tied top moves of a position, best first under the tie-break.

    Attributes:
        candidates: every move with the top score, in tie-break order (the first is the top).
        decided_by: the tie-break keys that narrowed the tied moves down to the
            top, in order (empty when there is only one top move).
        n_moves: number of legal placements of the position.
    """

    candidates: list[TopCandidate] = field(default_factory=list)
    decided_by: list = field(default_factory=list)
    n_moves: int = 0

    @property
    def top(self) -> TopCandidate | None:
        """The top move, ``None`` when no move is possible."""
        return self.candidates[0] if self.candidates else None

    @property
    def score(self) -> int:
        """The top score (0 when no move is possible)."""
        return self.candidates[0].score if self.candidates else 0


def rank_candidates(cands, tie_break) -> TopChoice:
    """Sort tied candidates by the tie-break and name the keys that decided.

    ``decided_by`` lists, in order, each key that narrowed the field: starting
    from all candidates, a key counts when keeping only the best under it
    removes someone; it stops when one candidate is left.
    """
    ranked = sorted(cands, key=lambda c: c.key(tie_break))
    decided: list[str] = []
    field_ = list(ranked)
    for i, name in enumerate(tie_break):
        if len(field_) <= 1:
            break
        best = min(c.key(tie_break)[i] for c in field_)
        kept = [c for c in field_ if c.key(tie_break)[i] == best]
        if len(kept) < len(field_):
            decided.append(name)
        field_ = kept
    return TopChoice(list(ranked), decided)


def top_moves(board: Board, rack: np.ndarray, lexicon, tie_break=("fewer-blanks", "fewer-duplicates", "notation"),
              checks=None) -> TopChoice:
    """All top-scoring moves of a position, ranked by the tie-break.

    Args:
        board: the round's board.
        rack: the round's rack (counts, index 0 = blanks).
        lexicon: the event's word list.
        tie_break: keys from :data:`~engine.director.rules.TIE_BREAKS` (``notation`` should be last).
        checks: the board's cross-checks if known.

    Returns:
        a :class:`TopChoice` (empty when no placement is possible).
    """
    for k in tie_break:
        if k not in TIE_BREAKS:
            raise ValueError(f"unknown tie-break {k!r}")
    ml = generate_moves(board, rack, lexicon, checks)
    if len(ml) == 0:
        return TopChoice([], [], 0)
    scores = ml.scores
    best = int(scores.max())
    cands = [candidate_of(ml.move(int(i))) for i in np.nonzero(scores == best)[0]]
    choice = rank_candidates(cands, tie_break)
    choice.n_moves = len(ml)
    return choice
