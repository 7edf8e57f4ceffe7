"""The web app's JSON answers, independent of the web framework.

Every function takes plain request values, validates them and returns a
JSON-ready ``dict``; bad input raises :class:`BadRequest` (or
:class:`engine.position.cgp.CGPError`, also a ``ValueError``) with a message that names
the field, square or letter, which :mod:`engine.web.app` turns into a 4xx
answer. The engine (the Numba kernels) only ever sees a position that
:func:`read_position` accepted.

The answers extend the CLI's ``--json`` contract (``engine.cli.main``): a move has
``move``, ``score``, ``tiles`` (``[row, col, LETTER, is_blank]``, 0-based),
``words`` (``[WORD, points]``, main word first) and ``leave``, and here also
``leave_value``, ``equity`` (points; :mod:`engine.game.equity`) and ``played``
(tiles taken from the rack). See docs/web.md.
"""

from __future__ import annotations

import time
from collections import deque

import numpy as np

from engine.position.board import ACROSS, COLUMNS, N, Board, square_name
from engine.position.cgp import Position, check_tile_counts, parse_cgp
from engine.position.scorer import IllegalMove, check_move, score_placement

__all__ = [
    "BadRequest",
    "MAX_CGP_CHARS",
    "MAX_PAGE",
    "MAX_MOVE_CHARS",
    "MAX_WORD_CHARS",
    "WORDS_FOR",
    "board_warnings",
    "moves_json",
    "pad_json",
    "word_json",
    "position_json",
    "read_position",
    "rules_json",
    "score_json",
]

MAX_CGP_CHARS = 1000
"""Longest CGP accepted (a full board with both racks and opcodes is about 300 characters)."""

MAX_PAGE = 2000
"""Most moves in one answer of :func:`moves_json` (about 400 kB of JSON); ``next_offset`` asks for the
rest. A full list of a blank-rich rack has about 19,000 moves (3.6 MB): one client asking for it
again and again kept the analysis pool busy for everyone."""

MAX_MOVE_CHARS = 60
"""Longest move text accepted by the word checker."""

WORDS_FOR = 100
"""The words of a move (main word and cross-words with points) are worked out
for the first ``WORDS_FOR`` moves of a list; later moves have ``"words": null``
and the page asks :func:`score_json` when one is shown (about 50 µs a move)."""


class BadRequest(ValueError):
    """Input the API refuses (answered with 400): the message names the field and the problem."""


# ---------------------------------------------------------------------------
# Input
# ---------------------------------------------------------------------------
def read_position(cgp: str) -> Position:
    """Parse and check a CGP sent by the page.

    Stricter than the CLI: the tiles on the board and the racks may not exceed
    the tile set (``parse_cgp(strict=True)``), since a position typed on the
    board editor with a tile too many is a typing error.

    Raises:
        BadRequest: not a string, or longer than :data:`MAX_CGP_CHARS`.
        engine.position.cgp.CGPError: the CGP is malformed or impossible (names the row,
            letter or field; an impossible position's message has no command-line
            hint, since the page has no ``--allow-impossible``).
    """
    if not isinstance(cgp, str):
        raise BadRequest("cgp: expected a string")
    if len(cgp) > MAX_CGP_CHARS:
        raise BadRequest(f"cgp: {len(cgp)} characters, at most {MAX_CGP_CHARS} accepted")
    pos = parse_cgp(cgp, allow_impossible=True)
    check_tile_counts(pos, hint=False)
    return pos


# ---------------------------------------------------------------------------
# Rules and positions
# ---------------------------------------------------------------------------
def rules_json(board: Board | None = None) -> dict:
    """The tile set and board layout for drawing the board (SPEC.md "Tiles", "Board").

    Returns:
        ``letters``: ``[{"letter", "value", "count"}]`` in tile-code order;
        ``blank``: ``{"value", "count"}``; ``rack_size``; ``bingo_bonus``;
        ``columns``: ``"ABCDEFGHIJKLMNO"``; ``premiums``: 15 strings of 15
        characters, ``.`` plain, ``d``/``t`` double/triple letter,
        ``2``/``3`` double/triple word, ``*`` the centre star (a double word);
        ``game_rules``: the ``#rules`` names :func:`engine.game.gcg.read_gcg` knows, each
        ``{"min_players", "max_players", "challenge_penalty", "penalty_per_word"}`` (the score
        pad's GCG import holds a file to them as the reader does).
    """
    from engine.game.game import RULES
    from engine.game.gcg import SIMULTAN

    board = board or Board()
    a, lay = board.alphabet, board.layout
    code = {(1, 1): ".", (2, 1): "d", (3, 1): "t", (1, 2): "2", (1, 3): "3"}
    premiums = []
    for r in range(N):
        row = [code[int(lay.letter_mult[r, c]), int(lay.word_mult[r, c])] for c in range(N)]
        if r == N // 2:
            row[N // 2] = "*"
        premiums.append("".join(row))
    return {
        "letters": [{"letter": ch, "value": int(a.values[i + 1]), "count": int(a.counts[i + 1])}
                    for i, ch in enumerate(a.letters)],
        "blank": {"value": int(a.values[0]), "count": int(a.counts[0])},
        "rack_size": a.rack_size,
        "bingo_bonus": a.bingo_bonus,
        "columns": COLUMNS[:N],
        "premiums": premiums,
        "game_rules": {r.name: {"min_players": r.min_players, "max_players": r.max_players,
                                "challenge_penalty": r.challenge_penalty, "penalty_per_word": r.penalty_per_word}
                       for r in (*RULES.values(), SIMULTAN)},
    }


def _runs(board: Board):
    """Every run of 2+ tiles: ``(row, col, direction, word)``; blanks in lowercase."""
    rows = board.rows_text()
    for d in (ACROSS, 1):
        for line in range(N):
            text = rows[line] if d == ACROSS else "".join(rows[r][line] for r in range(N))
            k = 0
            while k < N:
                if text[k] == ".":
                    k += 1
                    continue
                j = k
                while j < N and text[j] != ".":
                    j += 1
                if j - k >= 2:
                    yield (line, k, d, text[k:j]) if d == ACROSS else (k, line, d, text[k:j])
                k = j


def board_warnings(board: Board, lexicon) -> list[str]:
    """What looks wrong with a board set up by hand (the engine still answers).

    * a word on the board that is not in the word list (named with its start square);
    * tiles on the board but none on the centre star H8;
    * tiles not connected to the tile on the centre star.

    Returns:
        English sentences, at most 10.
    """
    out: list[str] = []
    if board.is_empty:
        return out
    for r, c, d, word in _runs(board):
        if word.upper() not in lexicon:
            start = f"{r + 1}{COLUMNS[c]}" if d == ACROSS else f"{COLUMNS[c]}{r + 1}"
            out.append(f"{word.upper()} at {start} is not in the word list")
    centre = N // 2
    occupied = board.tiles != 0
    if not occupied[centre, centre]:
        out.append("no tile on the centre star H8")
    else:
        seen = np.zeros_like(occupied)
        todo = deque([(centre, centre)])
        seen[centre, centre] = True
        while todo:
            r, c = todo.popleft()
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= rr < N and 0 <= cc < N and occupied[rr, cc] and not seen[rr, cc]:
                    seen[rr, cc] = True
                    todo.append((rr, cc))
        loose = np.argwhere(occupied & ~seen)
        if len(loose):
            names = ", ".join(square_name(int(r), int(c)) for r, c in loose[:6])
            more = f" and {len(loose) - 6} more" if len(loose) > 6 else ""
            out.append(f"tiles not connected to the centre: {names}{more}")
    return out[:10]


def position_json(pos: Position, lexicon) -> dict:
    """A parsed position for the page.

    Returns:
        ``cgp`` (normalised), ``board`` (15 strings, ``.`` empty, lowercase blanks),
        ``rack`` (``?`` = blank), ``bag`` (tiles in the bag), ``scores``,
        ``tiles_on_board``, ``unseen`` (tiles not on the board or the rack,
        as a rack string: the opponent's rack and the bag), ``warnings``
        (:func:`board_warnings`).
    """
    unseen = np.maximum(pos.unseen(), 0)
    return {
        "cgp": pos.to_cgp(),
        "board": pos.board.rows_text(),
        "rack": pos.rack_string,
        "bag": pos.bag_count,
        "scores": list(pos.scores),
        "tiles_on_board": pos.board.tile_count,
        "unseen": pos.alphabet.rack_string(unseen),
        "warnings": board_warnings(pos.board, lexicon),
    }


# ---------------------------------------------------------------------------
# Moves
# ---------------------------------------------------------------------------
def _words(pos: Position, tiles) -> list:
    """``[[WORD, points], ...]`` of a placement (main word first), by the word checker's scoring."""
    scored = score_placement(pos.board, tiles, lexicon=None, rack=pos.rack, alphabet=pos.alphabet)
    return [[w, s] for w, s in scored.words]


def moves_json(pos: Position, lexicon, table=None, top: int | None = None, sort: str = "equity",
               offset: int = 0) -> dict:
    """Every legal placement of the position with score, leave and static equity.

    Args:
        pos: a position from :func:`read_position`.
        lexicon: the word list (:class:`lexicon_tools.bundle.Lexicon`).
        table: leave table (default: the packaged German table).
        top: ``top`` moves of the order from ``offset`` (1 to :data:`MAX_PAGE`; ``None``: :data:`MAX_PAGE`).
        offset: moves of the order skipped first (0: from the best; the page
            asks for the top 100 and pages the rest).
        sort: ``"equity"`` (equity, then score, then notation) or ``"score"``
            (score, then notation: the CLI's order).

    Returns:
        ``moves`` (see the module doc; ``words`` for the first :data:`WORDS_FOR`
        of the answer), ``offset`` (as asked), ``count`` (all placements), ``next_offset`` (the
        ``offset`` of the rest, ``None`` when the answer reaches the end), ``exchanges`` (the CLI's list of every
        exchange allowed), ``best_exchanges`` (the 10 best by equity:
        ``{"move": "-ABC", "leave", "leave_value", "equity"}``), ``pass``
        (always true), ``time_ms`` (generation time in milliseconds), and
        ``note`` when the rack is empty.

    Raises:
        BadRequest: ``top`` not 1 to :data:`MAX_PAGE`, ``offset`` below 0 or ``sort`` unknown.
    """
    from engine.game.equity import list_equity
    from engine.movegen.generator import exchanges, generate_moves

    if top is None:
        top = MAX_PAGE
    if isinstance(top, bool) or not isinstance(top, int) or not 1 <= top <= MAX_PAGE:
        raise BadRequest(f"top: must be a whole number from 1 to {MAX_PAGE}, got {top!r}")
    if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
        raise BadRequest(f"offset: must be a whole number of at least 0, got {offset!r}")
    if sort not in ("equity", "score"):
        raise BadRequest(f"sort: 'equity' or 'score', got {sort!r}")
    if not pos.rack.any():
        return {"moves": [], "count": 0, "offset": offset, "next_offset": None, "exchanges": [], "best_exchanges": [], "pass": True, "time_ms": 0.0,
                "note": "the rack is empty: type the tiles to play"}
    t0 = time.perf_counter()
    ml = generate_moves(pos.board, pos.rack, lexicon)
    elapsed = time.perf_counter() - t0
    eq, exch = list_equity(pos, ml, table, n_exchanges=10)
    notations = [ml.notation(i) for i in range(len(ml))]
    scores = ml.scores.tolist()
    eqs = np.round(eq, 3).tolist()
    if sort == "equity":
        order = sorted(range(len(ml)), key=lambda i: (-eqs[i], -scores[i], notations[i]))
    else:
        order = sorted(range(len(ml)), key=lambda i: (-scores[i], notations[i]))
    order = order[offset:offset + top]
    leaves = ml.leaves()
    placed = ml.placed_tiles(order)
    moves = []
    for k, i in enumerate(order):
        moves.append({
            "move": notations[i], "score": scores[i], "tiles": placed[k],
            "words": _words(pos, placed[k]) if k < WORDS_FOR else None,
            "leave": leaves[i], "leave_value": round(eqs[i] - scores[i], 3), "equity": eqs[i],
            "played": len(placed[k]),
        })
    return {
        "moves": moves, "count": len(ml), "offset": offset,
        "next_offset": offset + len(order) if offset + len(order) < len(ml) else None,
        "exchanges": exchanges(pos.rack, pos.alphabet, pos.bag_count),
        "best_exchanges": [{"move": c.notation, "leave": c.leave, "leave_value": round(c.leave_value, 3),
                            "equity": round(c.equity, 3)} for c in exch],
        "pass": True, "time_ms": round(elapsed * 1000, 4),
    }


def _tile_problem(pos: Position, scored) -> str:
    """Why a placement cannot come from one rack of the tile set (more tiles than a rack
    holds, or more of a letter than the set has off the board), or ``""``."""
    a = pos.alphabet
    if len(scored.tiles) > a.rack_size:
        return f"the move places {len(scored.tiles)} tiles; a rack holds {a.rack_size}"
    need = np.zeros(a.size + 1, dtype=np.int64)
    for _r, _c, ch, b in scored.tiles:
        need[0 if b else a.code(ch)] += 1
    free = np.maximum(pos.unseen(), 0)
    short = np.nonzero(need > free)[0]
    if len(short):
        k = int(short[0])
        name = "blank" if k == 0 else a.letter(k)
        used = int(a.counts[k] - free[k])
        where = f" and {used} {'is' if used == 1 else 'are'} on the board" if used else ""
        return f"the move needs {need[k]} × {name}, but the set has {a.counts[k]}{where}"
    return ""


def score_json(pos: Position, lexicon, text: str, table=None, *, words: bool = True) -> dict:
    """The word checker: read, check and score a move typed in notation.

    With a rack on the position, the rack is checked too, and a legal move is
    ranked among all legal placements by score and by equity (for practice).

    Args:
        pos: a position from :func:`read_position`.
        lexicon: the word list.
        text: the move, e.g. ``"8H HA(U)S"`` or ``"H8 HAuS"`` (blank lowercase).
        table: leave table for the equity (default: the packaged German table).
        words: False: the words formed are not looked up in ``lexicon`` and the move is not ranked (a
            preview under SDeV tournament rules must not tell the player whether a word is valid: the
            computer challenges a phony after it is played; report-attack26b N8).

    Returns:
        ``{"legal": false, "reason"}``, or ``{"legal": true, "move"`` (the notation
        as the engine writes it), ``"score", "tiles", "words", "bingo"`` and, with a
        rack, ``"leave", "leave_value", "equity", "rank_score", "rank_equity",
        "count"`` (rank 1 = nothing better; ties share the rank)``}``.

    Raises:
        BadRequest: the text is empty or longer than :data:`MAX_MOVE_CHARS`.
    """
    from engine.game.equity import list_equity
    from engine.movegen.generator import generate_moves

    if not isinstance(text, str) or not text.strip():
        raise BadRequest("move: type a move such as '8H HAUS' (across) or 'H8 HAUS' (down)")
    if len(text) > MAX_MOVE_CHARS:
        raise BadRequest(f"move: {len(text)} characters, at most {MAX_MOVE_CHARS} accepted")
    has_rack = bool(pos.rack.any())
    try:
        scored = check_move(pos.board, text, lexicon if words else None, rack=pos.rack if has_rack else None)
    except IllegalMove as exc:
        return {"legal": False, "reason": exc.reason}
    if not has_rack:  # no rack to check against: at most a rack's worth, and tiles left in the set
        problem = _tile_problem(pos, scored)
        if problem:
            return {"legal": False, "reason": problem}
    out = {"legal": True, "move": scored.move.notation, "score": scored.score,
           "tiles": [[r, c, ch, bool(b)] for r, c, ch, b in scored.tiles],
           "words": [[w, s] for w, s in scored.words], "bingo": scored.bingo}
    if has_rack and words:
        ml = generate_moves(pos.board, pos.rack, lexicon)
        eq, _ = list_equity(pos, ml, table)
        key = sorted([r, c, ch, bool(b)] for r, c, ch, b in scored.tiles)
        same = np.nonzero(ml.scores == scored.score)[0]
        mine = next((int(i) for i, t in zip(same, ml.placed_tiles(same)) if sorted(t) == key), None)
        if mine is not None:
            e = float(eq[mine])
            out.update({"leave": ml.move(mine).leave, "leave_value": round(e - scored.score, 3),
                        "equity": round(e, 3), "count": len(ml),
                        "rank_score": int((ml.scores > scored.score).sum()) + 1,
                        "rank_equity": int((np.round(eq, 3) > round(e, 3)).sum()) + 1})
    return out


def pad_json(pos: Position, lexicon, text: str, together: bool = False) -> dict:
    """The score pad's checker: a move typed on the pad's board, with words missing from the list named.

    Unlike :func:`score_json`, a placement whose words are not all in the list
    is still scored (the table may agree on a word), and the racks are not
    known: the move may place at most a rack's worth of tiles that the set
    still has off the board.

    Args:
        pos: the pad's board (a position from :func:`read_position`; its rack is ignored).
        lexicon: the word list.
        text: the move, e.g. ``"8H HAUS"`` (the whole word, tiles already on the
            board included) or ``"H8 HAuS"`` (blank lowercase).
        together: the Together · Team side: no premium squares, no points
            (``score`` 0, each word 0).

    Returns:
        ``{"legal": false, "reason"}`` for a placement against the rules, else
        ``{"legal": true, "move", "score", "tiles", "words", "bingo", "unknown"}``
        where ``unknown`` lists the words formed that are not in the list
        (``[]``: all are).

    Raises:
        BadRequest: the text is empty or longer than :data:`MAX_MOVE_CHARS`.
    """
    if not isinstance(text, str) or not text.strip():
        raise BadRequest("move: type a move such as '8H HAUS' (across) or 'H8 HAUS' (down)")
    if len(text) > MAX_MOVE_CHARS:
        raise BadRequest(f"move: {len(text)} characters, at most {MAX_MOVE_CHARS} accepted")
    try:
        scored = check_move(pos.board, text, None)
    except IllegalMove as exc:
        return {"legal": False, "reason": exc.reason}
    problem = _tile_problem(pos, scored)
    if problem:
        return {"legal": False, "reason": problem}
    words = [[w, 0 if together else s] for w, s in scored.words]
    unknown = list(dict.fromkeys(w for w, _s in words if w.upper() not in lexicon))
    return {"legal": True, "move": scored.move.notation, "score": 0 if together else scored.score,
            "tiles": [[r, c, ch, bool(b)] for r, c, ch, b in scored.tiles], "words": words,
            "bingo": scored.bingo, "unknown": unknown}


MAX_WORD_CHARS = 40
"""Longest text the word lookup accepts."""


def word_json(lexicon, text: str) -> dict:
    """The word lookup ("Wortchecker"): is a word in the list?

    The text is normalised as the word list was (SPEC.md "The word list":
    upper case, ß as SS, accents dropped), so ``"straße"`` is looked up as
    ``STRASSE``.

    Returns:
        ``{"word": WORD, "valid": bool}``, or ``{"word": null, "valid": false,
        "reason"}`` when the text cannot be a word (``reason`` as
        :data:`lexicon_tools.normalize.REASONS`, e.g. ``"too_short"``, ``"digit"``).

    Raises:
        BadRequest: not a string, empty, or longer than :data:`MAX_WORD_CHARS`.
    """
    from lexicon_tools.normalize import normalize_entry

    if not isinstance(text, str) or not text.strip():
        raise BadRequest("word: type a word, e.g. 'HAUS'")
    if len(text) > MAX_WORD_CHARS:
        raise BadRequest(f"word: {len(text)} characters, at most {MAX_WORD_CHARS} accepted")
    word, reason = normalize_entry(text)
    if word is None:
        return {"word": None, "valid": False, "reason": reason}
    return {"word": word, "valid": word in lexicon}
