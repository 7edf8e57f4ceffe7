"""The director's live projection page of the web app: ``GET /director`` and ``GET /api/director``.

``python -m engine web --event DIR`` serves a simultaneous event (made with
``python -m engine simultan new``) to a projector. Every request reads the
event's journal afresh (under the event's shared lock, like every
``simultan`` command), so the page follows the director's commands at once.

* :func:`director_state` — the event as JSON: the open round (number, rack,
  board, bag, clock), the last closed round (top move, words, tiles placed,
  every player's move and score), the standings, and two keys for the page:
  ``seq`` (the journal's last entry number; changes with every command) and
  ``view`` (changes only when what the page shows changes).
* :func:`director_page` — the same page as the exported ``current.html``
  (:func:`engine.director.export.current_page`), except that it does not reload
  every 5 s: it asks ``/api/director`` every 2 s and reloads only when ``view``
  has changed, so a submission (which the page does not show) causes no reload and
  the projector does not flicker. The countdown runs in the browser on the
  server's clock. When ``/api/director`` answers an error (a damaged journal,
  the event directory gone) or does not answer (the server stopped), the page
  says so in a large banner and keeps asking; the banner goes when the answers
  are normal again. A script in the page fits it to the screen
  (:mod:`engine.director.render`).
"""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path

from engine.director.event import Event
from engine.director.export import current_page, round_score_rows, shown_rack, standings_rows, top_tiles
from engine.director.store import EventDir

__all__ = ["director_state", "director_page", "API_URL", "POLL_SECONDS"]

API_URL = "/api/director"
"""Where the live page asks whether anything changed."""
POLL_SECONDS = 2.0
"""How often the live page asks."""
LOCK_WAIT_SECONDS = 2.0
"""How long a read waits for a director's command that holds the event (then it answers
that the event is busy, and the page asks again: no request waits long)."""


def load_event(event_dir: Path, lexicon) -> Event:
    """The event of ``event_dir`` as its journal has it now (no exports are written).

    Raises:
        ValueError: not an event directory, a damaged journal, the event busy
            beyond the lock timeout, or a lexicon other than the one the event
            was created with (the fingerprint differs; start the server with that
            lexicon's ``--lexicon``); the message says which.
    """
    from engine.director.event import DirectorError
    from engine.director.journal import JournalError

    from .german import journal_de

    try:
        return EventDir(event_dir, lexicon=lexicon, export=False, notes=None).load(timeout=LOCK_WAIT_SECONDS)
    except (JournalError, DirectorError) as exc:  # German for the pages, the engine's detail after it
        raise ValueError(journal_de(exc)) from None
    except OSError as exc:
        raise ValueError(journal_de(f"{event_dir}: cannot read the event ({exc.strerror or exc})")) from None


def _view_key(state: dict) -> str:
    shown = {k: v for k, v in state.items() if k not in ("seq", "view", "now")}
    text = json.dumps(shown, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def event_state(ev: Event, now: float | None = None) -> dict:
    """The JSON answer of ``/api/director`` for a loaded event (see :func:`director_state`)."""
    cur = ev.current
    current = None
    if cur is not None:
        current = {"round": cur.number, "rack": shown_rack(ev), "board": ev.board.rows_text(), "bag": cur.bag,
                   "clock": {"start": cur.started_at, "seconds": int(ev.rules.round_time)}}
    closed = ev.closed_rounds
    last = None
    if closed:
        rnd = closed[-1]
        last = {"round": rnd.number, "rack": rnd.rack, "top": rnd.top.notation, "score": rnd.top.score,
                "words": [[w, s] for w, s in rnd.words],
                "tiles": [[int(r), int(c), ch, bool(b)] for r, c, ch, b in top_tiles(ev, rnd)],
                "tied_tops": len(rnd.tops), "scores": round_score_rows(ev, rnd)}
    state = {
        "event": {"name": ev.settings.name, "players": list(ev.players), "round_time": int(ev.rules.round_time)},
        "seq": ev.seq,
        "over": ev.over,
        "end_reason": ev.end_reason,
        "current": current,
        "last_round": last,
        "master_total": sum(r.top.score for r in closed),
        "standings": standings_rows(ev),
    }
    state["view"] = _view_key(state)
    state["now"] = time.time() if now is None else now
    return state


def director_state(event_dir: Path, lexicon) -> dict:
    """The event as JSON for ``GET /api/director``.

    Args:
        event_dir: the event directory (``simultan new``).
        lexicon: the lexicon the event was created with.

    Returns:
        a JSON-ready dict:

        * ``event``: ``name``, ``players`` (seat order), ``round_time`` (seconds);
        * ``seq``: the journal's last entry number (changes with every command,
          submissions and undo included);
        * ``view``: a short hash of everything below except ``now``; it changes
          only when the projected page would change (the page reloads on it);
        * ``now``: the server's Unix time (the page's countdown runs on it);
        * ``over``, ``end_reason``: whether the event has ended and why;
        * ``current``: the open round, or ``None`` after the event: ``round``,
          ``rack`` (``?`` = blank), ``board`` (15 rows of 15 characters, ``.``
          empty, lowercase = blank), ``bag`` (tiles left), ``clock``
          (``{"start": Unix time or None before round --start, "seconds"}``);
        * ``last_round``: the last closed round, or ``None``: ``round``, ``rack``,
          ``top`` (notation), ``score``, ``words`` (``[word, points]``), ``tiles``
          placed (``[row, col, letter, blank]``, 0-based), ``tied_tops``, ``scores``
          per player best first (:func:`engine.director.export.round_score_rows`:
          ``rank``, ``player``, ``move``, ``valid``, ``reason``, ``score``,
          ``bonus``, ``total``, ``top``);
        * ``master_total``: the top moves' points so far;
        * ``standings``: :func:`engine.director.export.standings_rows`.

    Raises:
        ValueError: the directory holds no readable event, or ``lexicon`` is not
            the event's (see :func:`load_event`).
    """
    return event_state(load_event(event_dir, lexicon))


def director_page(event_dir: Path, lexicon) -> str:
    """The projection page for ``GET /director``: board, round, rack, countdown, the last
    top move and that round's scores (after the event: the final standings).

    The page polls :data:`API_URL` every :data:`POLL_SECONDS` seconds and reloads
    only when the answer's ``view`` differs from the one it was made with; an error
    answer or none at all shows a banner until the answers are normal again.

    Returns:
        the HTML page (self-contained apart from the polling).

    Raises:
        ValueError: as :func:`director_state`.
    """
    ev = load_event(event_dir, lexicon)
    state = event_state(ev)
    return current_page(ev, refresh=False, poll={"url": API_URL, "key": state["view"], "every": POLL_SECONDS,
                                                 "now": state["now"]})
