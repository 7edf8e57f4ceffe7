"""GCG game records (read and write), German dialect.

GCG is the plain-text game record of Quackle, Macondo and cross-tables
(https://www.poslfit.com/scrabble/gcg/). One line per score-pad entry::

    #character-encoding UTF-8
    #player1 ana Ana Beispiel
    #player2 ben Ben
    #lexicon default
    #tile-distribution german
    #rules home
    >ana: CEORSXY 8F SCORE +18 18
    >ben: BEKLMNÜ I5 ÜBE. +12 12          played-through tile as '.' (or ÜBE(R) when reading)
    >ana: CEHORXY -HXY +0 18               exchange (or -3 when the tiles are unknown)
    >ben: EKLMNTU - +0 12                  pass
    >ana: ... I6 BE. +6 24                 a play ...
    >ana: ... -- -6 18                     ... challenged off (withdrawn)
    >ben: ... (challenge) -5 7             wrong challenge: the challenger's penalty
    >ben: ... (time) -10 -3                time penalty
    >ben: EQ (EQ) -11 ...                  end of game: own remaining tiles
    >ana: (ABEQ) +15 ...                   end of game: the player who went out gains the total

German letters are written as themselves (Ä Ö Ü, UTF-8), blanks in lowercase
(``ä`` for a blank used as Ä), ``?`` for a blank on a rack. ``#player3`` and
``#player4`` extend the format to 3–4 players; ``#rules`` (a name from
:data:`engine.game.game.RULES`) and ``#seed`` (the bag's seed of an engine game)
are this project's pragmas; other pragmas are kept in ``GameRecord.notes``.

A score pad (the web app's Punkteblock, docs/web.md) may not know the racks:
such turns write the rack as ``...`` (:data:`UNKNOWN_RACK`). Such a turn is
checked as usual (placement, score, words, tiles left in the set, at most a
rack's worth of tiles placed or exchanged) except against a rack, and is read
with ``Turn.rack == ""``. A score pad's row of points typed by hand (no
placement: ``Kind.HAND``) is written as a note that other GCG readers keep as
a comment (Quackle, Macondo and MAGPIE all accept ``#note`` after a move)::

    #note by hand: >ben: ... +12 42

(:data:`HAND_NOTE`; the rack may be known). It is read as a turn of that player
in turn order whose points and running total are checked but not its
placement: the board stays without its tiles, and no later check can see them. ``#agreed WORD ...`` (before the first move) lists
words the table agreed on although the word list lacks them: they are
accepted as words.

``#rules simultan`` marks the master game of a simultaneous event
(:mod:`engine.director`): one player (``#player1`` only), every rack as the
director drew it. Reading it checks every play and score as for a normal game,
and each rack only against the tiles not on the board (the director's draws
follow their own vowel/consonant rules and may return a leave to the bag).

Reading replays the game on a board and checks every line: legal placement
(:mod:`engine.position.scorer`), tiles on the stated rack, words in the lexicon (when
one is given), the score (the engine's score is reported beside the file's),
running totals, turn order, racks consistent with earlier leaves, tile counts,
challenge and time penalties, and the German end-of-game settlement. Any
problem raises :class:`GCGError` naming the line.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import replace
from pathlib import Path

import numpy as np

from lexicon_tools.alphabet import BLANK, Alphabet, german

from engine.position.board import Board, format_start
from engine.game.game import RULES, GameRecord, Kind, Rules, Turn, _counts, invisible_char, name_fault, rack_value

__all__ = ["GCGError", "MAX_GCG_BYTES", "SIMULTAN", "UNKNOWN_RACK", "HAND_NOTE", "read_gcg", "read_gcg_file", "write_gcg",
           "write_gcg_file"]

SIMULTAN = Rules(name="simultan", min_players=1, max_players=1)
"""``#rules simultan``: the one-player master game of a simultaneous event (as :mod:`engine.director` writes it)."""


PACKAGED_SOURCE = "packaged:default_words.txt.xz"
"""The packaged default list's source name (``Lexicon.meta["source"]["name"]``); read as ``default``."""

MAX_GCG_BYTES = 1024 * 1024
"""The largest GCG file :func:`read_gcg_file` reads (the score pad's import limit, static/pad.js
IMPORT_BYTES); a 600-exchange game is 14 KB."""

UNKNOWN_RACK = "..."
"""The rack field of a turn whose rack is not known (a score pad's entry)."""

HAND_MAX = 9999
"""The most points one row by hand may give (the web pad's importer, pad.js, uses the same cap)."""

HAND_NOTE = "#note by hand: "
"""The start of the line of a turn of points typed by hand (``#note by hand: >ben: ... +12 42``): a GCG
note, so other readers skip it, followed by the turn as a move line without a placement."""


class _AgreedWords:
    """The lexicon plus the words of ``#agreed`` (``WORD in`` either)."""

    def __init__(self, lexicon, words):
        self.lexicon = lexicon
        self.words = frozenset(words)

    def __contains__(self, word) -> bool:
        return word in self.words or word in self.lexicon


class GCGError(ValueError):
    """A GCG file that cannot be read or does not check out.

    Attributes:
        line: 1-based line number (0 when the problem is not on one line).
        reason: what is wrong.
        source: the file name, if known.

    ``str(exc)`` is ``"[source: ]line N: reason"``.
    """

    def __init__(self, line: int, reason: str, source: str = ""):
        where = f"line {line}: " if line else ""
        super().__init__(f"{source + ': ' if source else ''}{where}{reason}")
        self.line = line
        self.reason = reason
        self.source = source


# ---------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------
def _gcg_word(move) -> str:
    return "".join("." if t else ch for ch, t in zip(move.word, move.through))


def _start(move) -> str:
    return format_start(move.row, move.col, move.direction)


def write_gcg(game) -> str:
    """Format a :class:`~engine.game.game.Game` or :class:`~engine.game.game.GameRecord` as GCG text (UTF-8).

    Returns:
        the GCG text, one line per score-pad entry (a withdrawn play is two
        lines: the play and ``--``), ending with a newline.
    """
    rec: GameRecord = game.record() if hasattr(game, "record") and callable(game.record) else game
    out = ["#character-encoding UTF-8"]
    names = rec.names or rec.players
    for i, (nick, name) in enumerate(zip(rec.players, names)):
        out.append(f"#player{i + 1} {nick} {name}")
    if rec.lexicon:
        out.append(f"#lexicon {rec.lexicon}")
    out.append(f"#tile-distribution {rec.alphabet.name}")
    out.append(f"#rules {rec.rules.name}")
    if rec.seed is not None:
        out.append(f"#seed {rec.seed}")
    for k, v in rec.notes.items():
        if k not in _OWN_PRAGMAS:
            out.append(f"#{k} {' '.join(str(v).split())}".rstrip())  # a tab in another program's pragma: a space
    for t in rec.turns:
        nick = rec.players[t.player]
        if t.kind in Kind.TURNS and not t.rack:
            t = replace(t, rack=UNKNOWN_RACK)
        if t.kind == Kind.PLAY:
            out.append(f">{nick}: {t.rack} {_start(t.move)} {_gcg_word(t.move)} +{t.score} {t.total}")
        elif t.kind == Kind.WITHDRAWN:
            s = t.move.score
            out.append(f">{nick}: {t.rack} {_start(t.move)} {_gcg_word(t.move)} +{s} {t.total + s}")
            out.append(f">{nick}: {t.rack} -- -{s} {t.total}")
        elif t.kind == Kind.EXCHANGE:
            out.append(f">{nick}: {t.rack} -{t.exchanged or t.exchange_count} +0 {t.total}")
        elif t.kind == Kind.PASS:
            out.append(f">{nick}: {t.rack} - +0 {t.total}")
        elif t.kind == Kind.HAND:
            out.append(f"{HAND_NOTE}>{nick}: {t.rack} {t.score:+d} {t.total}")
        elif t.kind == Kind.CHALLENGE:
            out.append(f">{nick}: {t.rack} (challenge) {t.score:+d} {t.total}")
        elif t.kind == Kind.TIME:
            out.append(f">{nick}: {t.rack} (time) {t.score:+d} {t.total}")
        elif t.kind == Kind.RACK:
            out.append(f">{nick}: {t.rack} ({t.rack}) -{-t.score} {t.total}")  # '-0' for blanks only
        elif t.kind == Kind.OUT:
            out.append(f">{nick}: ({t.rack}) {t.score:+d} {t.total}")
        else:  # pragma: no cover - all kinds handled
            raise ValueError(f"unknown entry kind {t.kind!r}")
    for k, line in enumerate(out, 1):  # never a control or invisible character (a NUL, U+202E) in a GCG file
        bad = invisible_char(line)
        if bad is not None:
            raise ValueError(f"cannot write GCG line {k} ({line[:40]!r}): it would hold the control or invisible "
                             f"character {bad}")
    return "\n".join(out) + "\n"


def write_gcg_file(path: str | Path, game) -> Path:
    """Write :func:`write_gcg` output to ``path`` (UTF-8) atomically; returns the path.

    Temp file in the same directory, fsync, rename; on any failure the temp file
    is removed and an existing file at ``path`` is left as it was.

    Raises:
        lexicon_tools.normalize.WordListError: the file cannot be written (a
            ValueError; the message names the file and the cause, e.g. a full disk).
    """
    from lexicon_tools.normalize import write_atomic

    path = Path(path)
    write_atomic(path, write_gcg(game))
    return path


# ---------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------
_OWN_PRAGMAS = {"character-encoding", "lexicon", "tile-distribution", "rules", "seed"}
_NUM = r"[+-]?[0-9]+"  # ASCII digits only (int() and \d also take other scripts' digits)
MAX_DIGITS = 100
"""At most this many digits in a score or total of a move line; longer numbers are refused naming the line
(:meth:`_Reader.number`). A real one has at most 4, and a shorter absurd one gets the move's own check (a score
that does not match, points by hand outside 0..9999); this limit only keeps Python's ``int()`` from refusing a
number of over 4300 digits with a message that names neither the file nor the line."""
MAX_SEED_DIGITS = 100
"""At most this many digits in ``#seed`` (an engine game's 63-bit seed has at most 19)."""


def _cut(text: str, n: int = 12) -> str:
    """``text``, cut to ``n`` characters with ``…`` when longer (a huge number in a message)."""
    return text if len(text) <= n else text[:n] + "…"
_RE_HEAD = re.compile(r">(\S+):\s*(.*)$")
_RE_PLAY = re.compile(rf"(\S+)\s+([0-9A-Oa-o]{{2,3}})\s+(\S+)\s+({_NUM})\s+({_NUM})$")
_RE_WITHDRAWN = re.compile(rf"(\S+)\s+--\s+({_NUM})\s+({_NUM})$")
_RE_PASS = re.compile(rf"(\S+)\s+-\s+({_NUM})\s+({_NUM})$")
_RE_EXCHANGE = re.compile(rf"(\S+)\s+-(\S+)\s+({_NUM})\s+({_NUM})$")
_RE_SPECIAL = re.compile(rf"(\S*)\s*\((challenge|time)\)\s+({_NUM})\s+({_NUM})$")
_RE_RACK = re.compile(rf"(\S+)\s+\((\S+)\)\s+({_NUM})\s+({_NUM})$")
_RE_OUT = re.compile(rf"\((\S+)\)\s+({_NUM})\s+({_NUM})$")
_RE_HAND = re.compile(rf"(\S+)\s+({_NUM})\s+({_NUM})$")  # the move line of a HAND_NOTE (no placement)
_RE_END_NOTE = re.compile(r"#note end of game(?:, out: (\S+))?$")
"""The score pad's note that a game is over when no end-of-game line holds it (engine/web/static/pad.js)."""
_HAND = "\n"  # starts the body of a HAND_NOTE in the reader's list of entries (no line of a file holds one)


class _Reader:
    def __init__(self, lexicon, rules: Rules | None, alphabet: Alphabet | None, phonies_ok: bool):
        self.lexicon = lexicon
        self.rules_arg = rules
        self.alphabet = alphabet or getattr(lexicon, "alphabet", None) or german()
        self.phonies_ok = phonies_ok

    # -- helpers ------------------------------------------------------------
    def tiles(self, text: str, ln: int, what: str) -> np.ndarray:
        a = self.alphabet
        counts = np.zeros(a.size + 1, dtype=np.int32)
        for ch in text:
            if ch == "?":
                counts[BLANK] += 1
            elif len(ch.upper()) == 1 and a.is_word_chars(ch.upper()):
                counts[a.code(ch.upper())] += 1
            else:
                raise GCGError(ln, f"{what} {text!r}: {a.not_a_letter(ch)}")
        return counts

    def rack(self, text: str, ln: int) -> np.ndarray:
        counts = self.tiles(text, ln, "rack")
        if int(counts.sum()) > self.alphabet.rack_size:
            raise GCGError(ln, f"rack {text!r}: {int(counts.sum())} tiles, at most {self.alphabet.rack_size}")
        return counts

    def number(self, text: str, ln: int) -> int:
        """A score or total of a move line (ASCII digits, :data:`_NUM`).

        Raises:
            GCGError: more than :data:`MAX_DIGITS` digits, naming the line (report-attack26b N4).
        """
        digits = len(text.lstrip("+-"))
        if digits > MAX_DIGITS:
            raise GCGError(ln, f"the number {_cut(text)} has {digits:,} digits; a score or total has at most "
                               f"{MAX_DIGITS}")
        return int(text)

    # -- main ----------------------------------------------------------------
    def read(self, text: str) -> GameRecord:
        from engine.position.scorer import IllegalMove, check_move

        a = self.alphabet
        lines = text.removeprefix("\ufeff").splitlines()  # a UTF-8 byte-order mark (Windows editors)
        players: list[str] = []
        names: list[str] = []
        notes: dict[str, str] = {}
        lexicon_name = ""
        seed = None
        rules = self.rules_arg
        rules_name = None
        raw: list[tuple[int, str, str]] = []  # (line, nick, body)
        end_note = None  # the line of the score pad's "#note end of game"
        for i, line in enumerate(lines, start=1):
            s = line.strip()
            if not s:
                continue
            if s.startswith(HAND_NOTE.strip()):  # a turn of points by hand (before or after the first move)
                m = _RE_HEAD.match(s[len(HAND_NOTE.strip()):].strip())
                if not m:
                    raise GCGError(i, f"cannot read {s[:50]!r}: expected '{HAND_NOTE}>nick: RACK +POINTS TOTAL'")
                if m.group(1) not in players:
                    raise GCGError(i, f"player {m.group(1)!r} is not declared with #player1..#player4")
                raw.append((i, m.group(1), _HAND + m.group(2).strip()))
                continue
            if s.startswith("#"):
                if raw:
                    end = _RE_END_NOTE.match(s)
                    if end and end.group(1) is not None and end.group(1) not in players:
                        raise GCGError(i, f"player {end.group(1)!r} is not declared with #player1..#player4")
                    if end and end_note is None:
                        end_note = i  # the score pad's end of the game: no move may follow
                    if s.startswith("#note"):
                        continue  # notes on moves are not kept
                    raise GCGError(i, f"pragma {s.split()[0]} after the first move")
                bad = invisible_char(s, allow="\t")
                if bad is not None:  # kept (names, notes) and written again: no NUL, no U+202E, no lone surrogate
                    raise GCGError(i, f"{s.split()[0][:20]!r} holds the control or invisible character {bad}")
                name, _, value = s[1:].partition(" ")
                value = value.strip()
                m = re.fullmatch(r"player([1-4])", name)
                if m:
                    k = int(m.group(1))
                    if k != len(players) + 1:
                        raise GCGError(i, f"#player{k} out of order (expected #player{len(players) + 1})")
                    nick, _, full = value.partition(" ")
                    if not nick:
                        raise GCGError(i, f"#player{k} needs a nickname")
                    fault = name_fault(nick) or (full.strip() and name_fault(full.strip(), nick=False))
                    if fault:
                        raise GCGError(i, f"#player{k}: the name {(nick if name_fault(nick) else full.strip())!r} "
                                          f"{fault}")
                    if nick in players:
                        raise GCGError(i, f"nickname {nick!r} used twice")
                    players.append(nick)
                    names.append(full.strip() or nick)
                elif name == "lexicon":
                    lexicon_name = value
                elif name == "seed":
                    if not re.fullmatch(r"-?[0-9]+", value):
                        raise GCGError(i, f"#seed {value[:30]!r} is not a number")
                    if len(value.lstrip("-")) > MAX_SEED_DIGITS:
                        raise GCGError(i, f"#seed {_cut(value)} has {len(value.lstrip('-')):,} digits; a seed has "
                                          f"at most {MAX_SEED_DIGITS}")
                    seed = int(value)
                elif name == "rules":
                    rules_name = value
                elif name == "tile-distribution":
                    if value and value != a.name:
                        raise GCGError(i, f"tile distribution {value!r}: this reader uses the {a.set_label}")
                elif name == "character-encoding":
                    if value.upper().replace("_", "-") not in ("UTF-8", "UTF8", "ISO-8859-1", "ISO 8859-1"):
                        raise GCGError(i, f"unsupported character encoding {value!r}")
                else:
                    notes.setdefault(name, value)
                continue
            if not s.startswith(">"):
                raise GCGError(i, f"cannot read {s[:40]!r}: expected '#pragma' or '>nick: ...'")
            m = _RE_HEAD.match(s)
            if not m:
                raise GCGError(i, f"cannot read {s[:40]!r}: expected '>nick: RACK ...'")
            if m.group(1) not in players:
                raise GCGError(i, f"player {m.group(1)!r} is not declared with #player1..#player4")
            raw.append((i, m.group(1), m.group(2).strip()))
        if rules is None:
            if rules_name is None:
                rules = RULES["home"]
            elif rules_name in RULES:
                rules = RULES[rules_name]
            elif rules_name == SIMULTAN.name:
                rules = SIMULTAN
            else:
                raise GCGError(0, f"unknown #rules {rules_name!r} (known: {', '.join([*RULES, SIMULTAN.name])}; "
                                  f"pass rules= to read it)")
        if notes.get("agreed") and self.lexicon is not None:
            self.lexicon = _AgreedWords(self.lexicon, notes["agreed"].upper().split())
        n = len(players)
        self.players_seen = players
        simultan = rules.name == SIMULTAN.name  # racks as drawn by the director: not checked against leaves
        if n < 2 and not (n == 1 and simultan):
            raise GCGError(0, "a GCG file needs #player1 and #player2 lines (one player only with #rules simultan)")
        if not rules.min_players <= n <= rules.max_players:
            raise GCGError(0, f"{rules.name} rules: {rules.min_players} to {rules.max_players} players, got {n}")

        board = Board(a)
        code = {ch: i + 1 for i, ch in enumerate(a.letters)}
        totals = [0] * n
        turns: list[Turn] = []
        kept: list[tuple[np.ndarray, int] | None] = [None] * n  # tiles a player still holds, and from which line
        last_turn_player = None
        last_play_words: list[str] = []
        end_seen = False
        final_racks = [""] * n
        rack_entries: list[tuple[int, str]] = []
        out_entry = None
        forfeits: list[int] = []
        j = 0
        while j < len(raw):
            ln, nick, body = raw[j]
            p = players.index(nick)
            kind, fields = self.classify(body, ln)
            score, total = fields[-2], fields[-1]
            if totals[p] + score != total:
                raise GCGError(ln, f"running total {total} for {nick} does not match {totals[p]} {score:+d} "
                                   f"= {totals[p] + score}")
            if kind in Kind.TURNS or kind == "withdraw-line":
                if end_seen:
                    raise GCGError(ln, f"{nick} moves after the end-of-game entries")
                if end_note is not None and ln > end_note:
                    raise GCGError(ln, f"{nick} moves after the note on line {end_note} that the game is over")
                over = self.game_over(turns, n, rules, board, None if fields[0] == UNKNOWN_RACK else fields[0], ln) \
                    if kind in Kind.TURNS and not simultan else None
                if over:  # nothing after the end is replayed (a file of 200,000 passes stops here)
                    raise GCGError(ln, f"{nick} moves after the game ended ({over}); only the end-of-game "
                                       f"entries may follow")
                if kind == "withdraw-line":
                    raise GCGError(ln, "'--' (play withdrawn) must follow the play it takes back")
                if last_turn_player is not None and p != (last_turn_player + 1) % n:
                    raise GCGError(ln, f"{nick} moves out of turn (expected {players[(last_turn_player + 1) % n]})")
                last_turn_player = p
            rack_text = fields[0]
            unknown = kind in Kind.TURNS and rack_text == UNKNOWN_RACK  # a score pad's turn
            if unknown:
                rack, rack_s = None, ""
            elif kind in Kind.TURNS:
                rack = self.rack(rack_text, ln)
                self.check_available(board, rack, ln, "rack " + rack_text)
                k = kept[p]
                if k is not None and not simultan and (k[0] > rack).any():
                    raise GCGError(ln, f"rack {rack_text} does not hold the tiles {nick} kept on line {k[1]} "
                                       f"({a.rack_string(k[0])})")
                rack_s = a.rack_string(rack)
            if kind == Kind.PLAY:
                start, word = fields[1], fields[2]
                withdrawn = (j + 1 < len(raw) and raw[j + 1][1] == nick
                             and self.classify(raw[j + 1][2], raw[j + 1][0])[0] == "withdraw-line")
                notation = self.notation(board, start, word, ln)
                lex = None if (withdrawn or self.phonies_ok) else self.lexicon
                try:
                    scored = check_move(board, notation, lex, rack=rack)
                except IllegalMove as exc:
                    raise GCGError(ln, f"illegal move {start} {word}: {exc.reason}") from None
                if scored.score != score:
                    raise GCGError(ln, f"wrong score for {start} {word}: the file says {score:+d}, "
                                       f"the engine scores {scored.score} ({_words(scored)})")
                if unknown:  # no rack to check against: a rack's worth of tiles the set still has
                    placed = _counts("".join("?" if b else ch for _r, _c, ch, b in scored.tiles), a)
                    if int(placed.sum()) > a.rack_size:
                        raise GCGError(ln, f"{start} {word} places {int(placed.sum())} tiles; a rack holds "
                                           f"{a.rack_size}")
                    self.check_available(board, placed, ln, f"{start} {word}")
                if withdrawn:
                    ln2, _nick2, body2 = raw[j + 1]
                    _k2, f2 = self.classify(body2, ln2)
                    if f2[0] != rack_text and self.rack(f2[0], ln2).tolist() != rack.tolist():
                        raise GCGError(ln2, f"rack {f2[0]} differs from the withdrawn play's rack {rack_text}")
                    if f2[1] != -score:
                        raise GCGError(ln2, f"withdrawn play scored {score:+d}, so '--' takes back {-score:+d}, "
                                            f"not {f2[1]:+d}")
                    if f2[2] != total - score:
                        raise GCGError(ln2, f"running total {f2[2]} for {nick} does not match {total} "
                                            f"{-score:+d} = {total - score}")
                    turns.append(Turn(Kind.WITHDRAWN, p, rack_s, 0, totals[p], move=scored.move,
                                      words=tuple(scored.words), line=ln))
                    kept[p] = None if unknown else (rack, ln)
                    last_play_words = []
                    j += 2
                    continue
                board.place([(r, c, code[ch], b) for r, c, ch, b in scored.tiles])
                totals[p] = total
                turns.append(Turn(Kind.PLAY, p, rack_s, score, total, move=scored.move,
                                  words=tuple(scored.words), line=ln))
                kept[p] = None if unknown else (a.parse_rack(scored.move.leave), ln)
                last_play_words = [w for w, _s in scored.words]
            elif kind == Kind.EXCHANGE:
                what = fields[1]
                if score != 0:
                    raise GCGError(ln, f"an exchange scores 0, not {score:+d}")
                if what.isdigit():
                    cnt = int(what)
                    have = a.rack_size if unknown else int(rack.sum())
                    if not 1 <= cnt <= have:
                        raise GCGError(ln, f"exchange of {cnt} tiles from a rack of {have}")
                    exchanged, count = "", cnt   # only the number is known: kept, written back as -N
                    kept[p] = None
                else:
                    ex = self.tiles(what, ln, "exchanged tiles")
                    if unknown:
                        if int(ex.sum()) > a.rack_size:
                            raise GCGError(ln, f"exchange of {int(ex.sum())} tiles from a rack of {a.rack_size}")
                        self.check_available(board, ex, ln, f"exchanged tiles {what}")
                    elif (ex > rack).any():
                        raise GCGError(ln, f"exchanged tiles {what} are not all on the rack {rack_text}")
                    exchanged, count = a.rack_string(ex), int(ex.sum())
                    kept[p] = None if unknown else (rack - ex, ln)
                turns.append(Turn(Kind.EXCHANGE, p, rack_s, 0, total, exchanged=exchanged,
                                  exchange_count=count, line=ln))
                last_play_words = []
            elif kind == Kind.HAND:
                if not 0 <= score <= HAND_MAX:
                    raise GCGError(ln, f"points by hand {score:+d}: a turn scores 0 to {HAND_MAX}")
                turns.append(Turn(Kind.HAND, p, rack_s, score, total, line=ln))
                kept[p] = None  # the tiles played are not known
                last_play_words = []
            elif kind == Kind.PASS:
                if score != 0:
                    raise GCGError(ln, f"a pass scores 0, not {score:+d}")
                turns.append(Turn(Kind.PASS, p, rack_s, 0, total, line=ln))
                kept[p] = None if unknown else (rack, ln)
                last_play_words = []
            elif kind == Kind.CHALLENGE:
                if end_seen:  # report-attack26m F7: the pad refuses it too
                    raise GCGError(ln, f"{nick}: a challenge after the end-of-game entries")
                pen = rules.challenge_penalty
                ok_values = ([-pen * k for k in range(1, len(last_play_words) + 1)] if rules.penalty_per_word
                             else [-pen])
                if not last_play_words or score not in ok_values:
                    raise GCGError(ln, f"challenge penalty {score:+d}: under {rules.name} rules a wrong "
                                       f"challenge of the last play costs "
                                       f"{' or '.join(f'{v:+d}' for v in ok_values) if last_play_words else 'nothing (no play to challenge)'}")
                turns.append(Turn(Kind.CHALLENGE, p, self.canon(rack_text, ln), score, total, line=ln))
            elif kind == Kind.TIME:
                if score >= 0 or score % rules.overtime_penalty:
                    raise GCGError(ln, f"time penalty {score:+d}: must be -{rules.overtime_penalty} per "
                                       f"started minute over")
                if -score > rules.overtime_limit_minutes * rules.overtime_penalty:
                    forfeits.append(p)
                turns.append(Turn(Kind.TIME, p, self.canon(rack_text, ln), score, total, line=ln))
                end_seen = True
            elif kind == Kind.RACK:
                left = fields[1]
                counts = self.tiles(left, ln, "remaining tiles")
                self.check_available(board, counts, ln, f"remaining tiles {left}")
                value = rack_value(counts, a)
                if score != -value:
                    raise GCGError(ln, f"remaining tiles {left} are worth {value}: the entry must be "
                                       f"{-value:+d}, not {score:+d}")
                if any(q == p for q, _r in rack_entries):
                    first = next(t.line for t in turns if t.kind == Kind.RACK and t.player == p)
                    raise GCGError(ln, f"{nick}'s remaining tiles are deducted twice (also on line {first})")
                together = _counts("".join(r for _q, r in rack_entries), a) + counts
                self.check_available(board, together, ln, f"remaining tiles of all players together "
                                                          f"({a.rack_string(together)})")
                final_racks[p] = a.rack_string(counts)
                rack_entries.append((p, final_racks[p]))
                turns.append(Turn(Kind.RACK, p, final_racks[p], score, total, line=ln))
                end_seen = True
            elif kind == Kind.OUT:
                left = fields[0]
                counts = self.tiles(left, ln, "tiles")
                value = rack_value(counts, a)
                if score != value:
                    raise GCGError(ln, f"tiles {left} are worth {value}: the player who went out gains "
                                       f"{value:+d} (not doubled), not {score:+d}")
                if out_entry is not None:
                    raise GCGError(ln, f"a second going-out line (the first is line {out_entry[0]}): one player "
                                       f"gains the others' remaining tiles once")
                out_entry = (ln, p, counts)
                turns.append(Turn(Kind.OUT, p, a.rack_string(counts), score, total, line=ln))
                end_seen = True
            totals[p] = total
            j += 1

        end_reason = None
        if out_entry is not None:
            ln, p, counts = out_entry
            others = _counts("".join(r for q, r in rack_entries if q != p), a)
            if others.tolist() != counts.tolist():
                raise GCGError(ln, f"the out bonus counts {a.rack_string(counts)} but the other players' "
                                   f"remaining tiles are {a.rack_string(others) or 'none'}")
            if any(q == p for q, _r in rack_entries):
                raise GCGError(ln, f"{players[p]} went out but also has remaining tiles")
            # report-attack26m F6: when one went out, every other player holds tiles (a second empty rack would
            # have ended the game before); a missing line left them undeducted and out of the bonus
            missing = [players[q] for q in range(n) if q != p and all(r != q for r, _t in rack_entries)]
            if missing:
                raise GCGError(ln, f"{players[p]} went out, but the remaining-tiles line of {', '.join(missing)} "
                                   f"is missing ('>nick: RACK (RACK) -VALUE TOTAL' before this line)")
            end_reason = "out"
        else:
            moves = [t for t in turns if t.kind in Kind.TURNS]
            tail = moves[-rules.end_pass_rounds * n:]
            passes = n > 1 and len(tail) == rules.end_pass_rounds * n and all(
                t.kind == Kind.PASS or (t.kind == Kind.WITHDRAWN and rules.withdrawn_counts_as_pass) for t in tail)
            last_line = raw[-1][0] if raw else 0
            if rack_entries and moves and moves[-1].kind == Kind.PLAY and not moves[-1].move.leave \
                    and not forfeits:
                # the last mover has no tiles left and the others' tiles are deducted: that is going out
                q = moves[-1].player
                others = {r for r, _t in rack_entries}
                if q not in others and others == set(range(n)) - {q}:
                    left = _counts("".join(t for r, t in rack_entries), a)
                    raise GCGError(last_line + 1, f"{players[q]} went out with the play on line {moves[-1].line} "
                                   f"(no tiles left) and the others' remaining tiles are deducted, but the "
                                   f"line that gives them to {players[q]} is missing: expected "
                                   f"'>{players[q]}: ({a.rack_string(left)}) +{rack_value(left, a)} "
                                   f"{totals[q] + rack_value(left, a)}'")
            if passes and not forfeits:
                # every player passed: each one's rack is known from the last pass line; each needs its deduction
                last_rack = {t.player: t for t in tail if t.kind == Kind.PASS}
                done = {r: t for r, t in rack_entries}
                for q in range(n):
                    t = last_rack.get(q)
                    if t is None or not t.rack:
                        continue
                    if q not in done:
                        value = rack_value(_counts(t.rack, a), a)
                        raise GCGError(last_line + 1, f"the game ended by {len(tail)} scoreless turns in a row, "
                                       f"but the deduction of {players[q]}'s remaining tiles (rack {t.rack} from "
                                       f"the pass on line {t.line}) is missing: expected '>{players[q]}: {t.rack} "
                                       f"({t.rack}) -{value} {totals[q] - value}'")
                    if _counts(done[q], a).tolist() != _counts(t.rack, a).tolist():
                        ln = next(tt.line for tt in turns if tt.kind == Kind.RACK and tt.player == q)
                        raise GCGError(ln, f"{players[q]}'s remaining tiles {done[q]} differ from the rack "
                                           f"{t.rack} of the pass on line {t.line}")
            if rack_entries:
                end_reason = "passes" if passes else "agreement"
            elif forfeits:
                end_reason = "time"
        return GameRecord(players=players, turns=turns, rules=rules, alphabet=a, names=names,
                          lexicon=lexicon_name, seed=seed,
                          final_racks=final_racks if end_reason else None,
                          end_reason=end_reason, forfeits=tuple(forfeits), notes=notes)

    def game_over(self, turns: list, n: int, rules: Rules, board: Board, rack_text: str | None,
                  ln: int) -> str | None:
        """Why the game was over before the turn on line ``ln`` (``None``: it was not).

        Over after ``rules.end_pass_rounds * n`` scoreless turns in a row (passes; withdrawn
        plays when the rules count them), and, with two players, after a play that emptied a
        known rack when the tiles off the board are only those of the next rack (``rack_text``,
        the other player's, as the file shows it on line ``ln``): the bag was empty, the mover
        went out. (A short rack alone does not tell: hand-written records often give only the
        tiles that matter.)
        """
        moves = []
        for t in reversed(turns):
            if t.kind in Kind.TURNS:
                moves.append(t)
                if len(moves) >= rules.end_pass_rounds * n:
                    break
        if n > 1 and len(moves) == rules.end_pass_rounds * n and all(
                t.kind == Kind.PASS or (t.kind == Kind.WITHDRAWN and rules.withdrawn_counts_as_pass) for t in moves):
            return f"{len(moves)} scoreless turns in a row, lines {moves[-1].line} to {moves[0].line}"
        last = moves[0] if moves else None
        if last is None or last.kind != Kind.PLAY or not last.rack or last.move.leave:
            return None
        a = self.alphabet
        if n == 2 and rack_text:
            off_board = int(a.counts.sum()) - int(board.tile_count)
            if off_board - int(self.rack(rack_text, ln).sum()) <= 0:
                return f"{self.players_seen[last.player]} went out on line {last.line}: the bag was empty"
        return None

    def canon(self, rack_text: str, ln: int) -> str:
        return self.alphabet.rack_string(self.rack(rack_text, ln)) if rack_text else ""

    def classify(self, body: str, ln: int):
        """(kind, fields) of a move line body; numbers converted."""
        if body.startswith(_HAND):
            m = _RE_HAND.fullmatch(body[len(_HAND):])
            if not m:
                raise GCGError(ln, f"cannot read {body[len(_HAND):]!r}: expected '{HAND_NOTE}>nick: RACK "
                                   f"+POINTS TOTAL' (RACK '...' when unknown)")
            return Kind.HAND, (m.group(1), self.number(m.group(2), ln), self.number(m.group(3), ln))
        # '(challenge)' and '(time)' first: with an empty rack they also fit the out pattern
        m = _RE_SPECIAL.fullmatch(body)
        if m:
            kind = Kind.CHALLENGE if m.group(2) == "challenge" else Kind.TIME
            return kind, (m.group(1), self.number(m.group(3), ln), self.number(m.group(4), ln))
        m = _RE_OUT.fullmatch(body)
        if m:
            return Kind.OUT, (m.group(1), self.number(m.group(2), ln), self.number(m.group(3), ln))
        m = _RE_RACK.fullmatch(body)
        if m:
            if m.group(1) != m.group(2) and self.tiles(m.group(1), ln, "rack").tolist() != \
                    self.tiles(m.group(2), ln, "remaining tiles").tolist():
                raise GCGError(ln, f"rack {m.group(1)} and remaining tiles ({m.group(2)}) differ")
            return Kind.RACK, (m.group(1), m.group(2), self.number(m.group(3), ln), self.number(m.group(4), ln))
        m = _RE_WITHDRAWN.fullmatch(body)
        if m:
            return "withdraw-line", (m.group(1), self.number(m.group(2), ln), self.number(m.group(3), ln))
        m = _RE_PASS.fullmatch(body)
        if m:
            return Kind.PASS, (m.group(1), self.number(m.group(2), ln), self.number(m.group(3), ln))
        m = _RE_EXCHANGE.fullmatch(body)
        if m:
            return Kind.EXCHANGE, (m.group(1), m.group(2), self.number(m.group(3), ln), self.number(m.group(4), ln))
        m = _RE_PLAY.fullmatch(body)
        if m:
            return Kind.PLAY, (m.group(1), m.group(2), m.group(3), self.number(m.group(4), ln), self.number(m.group(5), ln))
        raise GCGError(ln, f"cannot read {body!r}: expected 'RACK SQUARE WORD +SCORE TOTAL', 'RACK -TILES +0 TOTAL', "
                           f"'RACK - +0 TOTAL', 'RACK -- -SCORE TOTAL', '(challenge)', '(time)' or an "
                           f"end-of-game rack entry (truncated line?)")

    def notation(self, board: Board, start: str, word: str, ln: int) -> str:
        """Turn a GCG word with '.' for played-through tiles into scorer notation with parentheses."""
        from engine.position.scorer import IllegalMove, expand_dots

        try:
            return f"{start} {expand_dots(board, start, word)}"
        except IllegalMove as exc:
            raise GCGError(ln, exc.reason) from None

    def check_available(self, board: Board, counts: np.ndarray, ln: int, what: str) -> None:
        a = self.alphabet
        on_board = np.bincount(np.where(board.blanks, 0, board.tiles)[board.tiles != 0], minlength=a.size + 1)
        over = np.nonzero(on_board + counts > a.counts)[0]
        if len(over):
            c = int(over[0])
            name = "blank" if c == BLANK else a.letter(c)
            raise GCGError(ln, f"{what}: {int(counts[c])} × {name} but only {int(a.counts[c] - on_board[c])} "
                               f"of the {int(a.counts[c])} are not on the board")


def _words(scored) -> str:
    s = " + ".join(f"{w} {v}" for w, v in scored.words)
    if scored.bingo:
        s += f" + bingo {scored.score - sum(v for _w, v in scored.words)}"
    return s


def read_gcg(text: str, lexicon=None, *, rules: Rules | None = None, alphabet: Alphabet | None = None,
             phonies_ok: bool = False) -> GameRecord:
    """Read and check a GCG game record.

    Args:
        text: the GCG text.
        lexicon: word list for checking words (``WORD in lexicon``); ``None``
            checks placement, racks and scores but not words.
        rules: the variant (default: the file's ``#rules``, else home rules).
        alphabet: the tile set (default: the lexicon's, else German).
        phonies_ok: accept plays with words missing from the lexicon that
            were not challenged off.

    Returns:
        a :class:`~engine.game.game.GameRecord` (``turns[i].line`` is the source line).

    Raises:
        GCGError: the first problem, naming the line: unreadable or truncated
            line, unknown letter, illegal move (with the scorer's reason), a
            score that differs from the engine's (both shown), wrong running
            total, move out of turn, rack inconsistent with earlier leaves or
            the tile set, wrong penalty or end-of-game adjustment.
    """
    return _Reader(lexicon, rules, alphabet, phonies_ok).read(text)


def header_lexicon(path: str | Path) -> str:
    """The ``#lexicon`` pragma of a GCG file (``""`` when it has none or cannot be read).

    Only the pragma lines before the first move are looked at. A path that is not a regular file (a FIFO
    would block the open, a device never end) gives ``""``; the reader then refuses it with the reason.
    """
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return ""
        with open(path, "rb") as f:
            head = f.read(1 << 16)
    except OSError:
        return ""
    for raw in head.removeprefix(b"\xef\xbb\xbf").decode("utf-8", errors="replace").splitlines():
        s = raw.strip()
        if s.startswith(">"):
            break
        if s.startswith("#lexicon"):
            name, _, value = s[1:].partition(" ")
            if name == "lexicon":
                return value.strip()
    return ""


def record_lexicon_name(lexicon) -> str:
    """The ``#lexicon`` name a record of a game played with ``lexicon`` should carry.

    ``"default"`` for the packaged German list (its source name is
    :data:`PACKAGED_SOURCE`), else the lexicon's file name without ``.lex`` /
    ``.kwg`` / ``.kwg64`` (what :func:`resolve_lexicon_name` finds beside the record or in
    the cache); ``""`` for an object without a path. Every name returned is one
    :func:`resolve_lexicon_name` reads back.
    """
    from engine.game.game import _lexicon_name

    meta = getattr(lexicon, "meta", None) or {}
    if (meta.get("source") or {}).get("name") == PACKAGED_SOURCE:
        return "default"
    return _lexicon_name(lexicon)


def resolve_lexicon_name(name: str, near: str | Path | None = None):
    """Where the lexicon a record or CGP names can be found.

    Returns:
        ``"default"`` for a name of the packaged German list (``default``,
        ``default-<checksum>`` as engine games write it, ``packaged:default_words.txt.xz``
        (:data:`PACKAGED_SOURCE`, the list's source name in the bundle, as
        older score-pad exports wrote it) and the names in
        :data:`engine.position.cgp.KNOWN_LEXICONS`); the :class:`~pathlib.Path` of the lexicon
        called ``name`` (``name``, ``name.lex``, ``name.kwg`` or ``name.kwg64``) beside
        ``near`` or in the lexicon cache (:func:`lexicon_tools.bundle.find_lexicon`);
        ``None`` when the name is not known.
    """
    from lexicon_tools.bundle import find_lexicon

    from engine.position.cgp import KNOWN_LEXICONS

    if not name:
        return None
    up = name.upper()
    if up in KNOWN_LEXICONS or re.fullmatch(r"DEFAULT(-[0-9A-F]{12})?", up) or up == PACKAGED_SOURCE.upper():
        return "default"
    return find_lexicon(name, [near] if near is not None else [])  # no path separators, every format


def read_gcg_file(path: str | Path, lexicon=None, **kwargs) -> GameRecord:
    """:func:`read_gcg` on a file; UTF-8 (a byte-order mark is skipped) unless it starts with
    ``#character-encoding ISO-8859-1``.

    Raises:
        GCGError: as :func:`read_gcg`, or the file cannot be read / decoded.
    """
    path = Path(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a FIFO without a writer: no wait
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):  # /dev/zero, a pipe, a FIFO: never ends
                raise GCGError(0, "not a regular file", str(path))
            data = f.read(MAX_GCG_BYTES + 1)
    except OSError as exc:
        raise GCGError(0, f"cannot read ({exc.strerror or exc})", str(path)) from None
    if len(data) > MAX_GCG_BYTES:
        raise GCGError(0, f"over {MAX_GCG_BYTES // (1024 * 1024)} MB: not a GCG file", str(path))
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise GCGError(0, "UTF-16 (save it as UTF-8)", str(path))
    data = data.removeprefix(b"\xef\xbb\xbf")  # a UTF-8 byte-order mark (Windows editors write one)
    first = data.split(b"\n", 1)[0].strip().lower()
    enc = "latin-1" if first.startswith(b"#character-encoding") and b"8859" in first else "utf-8"
    try:
        text = data.decode(enc)
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise GCGError(line, f"not valid {enc} (declare #character-encoding ISO-8859-1?)", str(path)) from None
    try:
        return read_gcg(text, lexicon, **kwargs)
    except GCGError as exc:
        raise GCGError(exc.line, exc.reason, str(path)) from None
