"""Simultaneous (duplicate) Scrabble director: same rack for everyone, the common top move each round.

Every player plays from the same rack at the same time; when the round closes
the top-scoring move is placed on every board and the game goes on from there.
This package draws the racks, finds the top move, checks and scores every
player's move and keeps the standings (SPEC.md "Simultaneous Scrabble").

Modules:

* :mod:`~engine.director.rules` — the event's rules: rack draw (vowels and
  consonants), tie-break order, solo bonus, round time;
* :mod:`~engine.director.topmove` — the tied top moves of a position and the tie-break;
* :mod:`~engine.director.journal` — the append-only, fsynced journal and the lock;
* :mod:`~engine.director.event` — the event rebuilt from the journal (rounds,
  submissions, scores, standings, undo);
* :mod:`~engine.director.store` — an event directory: commands under the lock;
  :func:`~engine.director.store.play_master` for ``simultan auto``;
* :mod:`~engine.director.export` and :mod:`~engine.director.render` — CSV,
  JSON, GCG, SVG and HTML;
* :mod:`~engine.director.cli` — ``python -m engine simultan ...`` (docs/director.md).
"""

from .event import DirectorError, Event, Rejected, Round, Settings, Standing, Submission, replay
from .rules import SimultanRules, draw_rack, rack_check
from .store import EventDir, play_master
from .topmove import TopCandidate, TopChoice, top_moves

__all__ = [
    "DirectorError",
    "Event",
    "EventDir",
    "Rejected",
    "Round",
    "Settings",
    "SimultanRules",
    "Standing",
    "Submission",
    "TopCandidate",
    "TopChoice",
    "draw_rack",
    "play_master",
    "rack_check",
    "replay",
    "top_moves",
]
