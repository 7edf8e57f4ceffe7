"""Gegen den Computer (``/spielen``): games against the engine, kept on disk.

A game is a small JSON file in the games directory (``--games DIR``, default
:func:`default_games_dir`): the players, the level, the rules, the bag's seed
and every action in order (``{"p", "kind", "move" | "tiles"}``). Nothing of a
game lives only in the server's memory: each request reads the file, replays
the actions on a :class:`engine.game.game.Game` (same seed, same draws) and writes
the file again atomically (temp file, fsync, rename), so a game survives a
reload of the page and a restart of the server. The newest :data:`KEEP` games
are kept; older files are deleted when a new game starts. A game's id is a
random token: who knows it can play and read it (the page keeps its ids in
``localStorage``).

The engine's levels (:data:`LEVELS`):

* ``einsteiger`` — a real word, but not the best: among the placements scoring
  at most :data:`BEGINNER_CAP` points (all placements if none does), one of the
  :data:`BEGINNER_TOP` best by static equity, chosen at random (seeded by the
  game's seed and the turn); exchanges only when no placement is possible.
* ``stark`` — static equity (:func:`engine.game.equity.choose`, the packaged leave table).
* ``meister`` — the deeper answer for the position's phase in :data:`MASTER_SECONDS`
  seconds (:func:`engine.analysis.phase.phase_answer` in the web's worker process: the
  endgame solver with the bag empty, the pre-endgame with 1–3 tiles, else a 2-ply
  simulation of the best candidates); static equity when that worker is busy.

Rules: ``home`` (a word not in the list is refused with the reason) or
``tournament`` (SDeV: the engine challenges a word not in the list, the play is
withdrawn and the turn is lost; the engine's own plays are always valid words, so
a challenge of them costs the challenger the penalty — the page does not offer it).
The end of the game and its settlement are :class:`engine.game.game.Game`'s.
"""

from __future__ import annotations

import json
import os
import random
import re
import secrets
import threading
import time
from pathlib import Path

__all__ = ["BEGINNER_CAP", "BEGINNER_TOP", "GameStore", "KEEP", "LEVELS", "MASTER_SECONDS", "PlayError",
           "default_games_dir"]

KEEP = 20
"""Games kept on disk (the newest by last change)."""
LEVELS = ("einsteiger", "stark", "meister")
"""The engine's strengths, weakest first."""
BEGINNER_CAP = 24
"""Einsteiger: placements scoring more than this are left out (unless nothing else is possible)."""
BEGINNER_TOP = 8
"""Einsteiger: the move is drawn from this many best (by static equity) of the capped placements."""
MASTER_SECONDS = 3.0
"""Meister: time per move for the phase's search (seconds)."""
PLAY_RULES = ("home", "tournament")
_ID = re.compile(r"[A-Za-z0-9_-]{8,40}")


class PlayError(ValueError):
    """A request the game cannot take (unknown game, not your turn, game over, a bad move); the message says why."""


def default_games_dir() -> Path:
    """``$GSE_GAMES_DIR``, else ``$XDG_DATA_HOME/german-scrabble-engine/spiele`` (``~/.local/share/...``)."""
    env = os.environ.get("GSE_GAMES_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "german-scrabble-engine" / "spiele"


class GameStore:
    """The games against the computer in one directory.

    Args:
        directory: where the game files live (created on the first game).
        lexicon: the word list; table: the leave table (static equity).
        deep: a :class:`engine.web.deep.DeepWorker` for the Meister level (``None``: Meister plays static equity).
        keep: games kept.
    """

    def __init__(self, directory: str | Path, lexicon, table, deep=None, keep: int = KEEP):
        self.dir = Path(directory)
        self.lexicon = lexicon
        self.table = table
        self.deep = deep
        self.keep = keep
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    # -- files -------------------------------------------------------------------------
    def _path(self, gid: str) -> Path:
        if not isinstance(gid, str) or not _ID.fullmatch(gid):
            raise PlayError("unknown game")
        return self.dir / f"{gid}.json"

    def _lock(self, gid: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(gid, threading.Lock())

    def _read(self, gid: str) -> dict:
        p = self._path(gid)
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise PlayError("unknown game (games older than the last 20 are deleted)") from None
        except (OSError, ValueError) as exc:
            raise PlayError(f"the game file cannot be read ({exc})") from None
        return data

    def _write(self, meta: dict) -> None:
        from lexicon_tools.normalize import write_atomic

        self.dir.mkdir(parents=True, exist_ok=True)
        meta["updated"] = time.time()
        write_atomic(self._path(meta["id"]), json.dumps(meta, ensure_ascii=False, indent=1))

    def _prune(self) -> None:
        files = sorted(self.dir.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
        for p in files[self.keep:]:
            try:
                p.unlink()
            except OSError:
                pass

    # -- the game --------------------------------------------------------------------------
    def _replay(self, meta: dict):
        from engine.game.game import Game, rules_by_name
        from engine.game.gcg import record_lexicon_name

        names = meta["names"]
        g = Game(names, self.lexicon, rules=rules_by_name(meta["rules"]), seed=meta["seed"], keep_undo=False,
                 lexicon_name=record_lexicon_name(self.lexicon))
        for a in meta["actions"]:
            if a["kind"] == "play":
                g.play(a["move"])
            elif a["kind"] == "withdrawn":
                g.play(a["move"], challenge=1 - g.to_move)
            elif a["kind"] == "exchange":
                g.exchange(a["tiles"])
            else:
                g.pass_turn()
        return g

    def new(self, level: str, rules: str = "home", name: str = "Du", seed: int | None = None,
            gid: str | None = None) -> dict:
        """Start a game (the engine moves first when the draw says so); returns :meth:`state`.

        ``gid``: the id the page chose (16 to 40 of ``A-Za-z0-9_-``, random), so that it can keep the id
        before the answer comes (the first start may compile for minutes) and send the same request again
        after a reload: a game with that id already on disk is answered as :meth:`state`, not made twice.

        Raises:
            PlayError: an unknown level or rules, a bad name or id.
        """
        if level not in LEVELS:
            raise PlayError(f"level {level!r}: choose one of {', '.join(LEVELS)}")
        if rules not in PLAY_RULES:
            raise PlayError(f"rules {rules!r}: choose one of {', '.join(PLAY_RULES)}")
        nick = re.sub(r"[^\w-]", "", (name or "").strip())[:20] or "Du"
        engine = "Computer" if nick.lower() != "computer" else "Engine"
        if gid is not None and (not isinstance(gid, str) or len(gid) < 16 or not _ID.fullmatch(gid)):
            raise PlayError("game id: 16 to 40 letters, digits, '-' or '_'")
        seed = secrets.randbelow(2**31) if seed is None else int(seed)
        meta = {"version": 1, "id": gid or secrets.token_urlsafe(12), "created": time.time(), "level": level,
                "rules": rules, "names": [nick, engine], "you": 0, "seed": seed, "actions": []}
        with self._lock(meta["id"]):
            if gid is not None and self._path(gid).exists():
                meta = self._read(gid)  # the same request again (a reload while the first one ran)
            else:
                self._write(meta)
                self._prune()
            g = self._replay(meta)
            self._engine_turns(meta, g)
            return self._state(meta, g)

    def state(self, gid: str) -> dict:
        """The game as the player sees it (see :meth:`_state`); the engine moves first if it is its turn."""
        with self._lock(gid):
            meta = self._read(gid)
            g = self._replay(meta)
            self._engine_turns(meta, g)
            return self._state(meta, g)

    def move(self, gid: str, text: str) -> dict:
        """The player's move, then the engine's answer; returns :meth:`state` with ``"answer"`` (the
        engine's turn, or ``None``) and ``"challenged"`` (a withdrawn play's invalid words).

        ``text``: ``8H WORT`` / ``H8 WO(R)T`` (blank lowercase), ``-ABC`` (exchange A, B, C; ``?`` blank),
        ``-`` (pass).

        Raises:
            PlayError: unknown game, game over, not the player's turn, an illegal move (the reason).
        """
        from engine.game.game import GameError
        from engine.position.scorer import IllegalMove, check_move

        if not isinstance(text, str) or not text.strip() or len(text) > 40:
            raise PlayError("type a move such as '8H HAUS', '-ABC' (exchange) or '-' (pass)")
        text = text.strip()
        with self._lock(gid):
            meta = self._read(gid)
            g = self._replay(meta)
            if g.over:
                raise PlayError("the game is over")
            if g.to_move != meta["you"]:
                raise PlayError("it is not your turn")
            challenged = []
            try:
                if text == "-":
                    g.pass_turn()
                    act = {"kind": "pass"}
                elif text.startswith("-"):
                    tiles = text[1:].strip()
                    g.exchange(tiles)
                    act = {"kind": "exchange", "tiles": tiles}
                else:
                    scored = check_move(g.board, text, None, rack=g.racks[g.to_move])
                    invalid = [w for w, _s in scored.words if w not in self.lexicon]
                    if invalid and meta["rules"] == "tournament":
                        t = g.play(text, challenge=1 - g.to_move)
                        act = {"kind": "withdrawn", "move": t.move.notation}
                        challenged = list(dict.fromkeys(invalid))
                    else:
                        t = g.play(text)  # home rules: a word not in the list raises with the reason
                        act = {"kind": "play", "move": t.move.notation}
            except (IllegalMove, GameError, ValueError) as exc:
                raise PlayError(getattr(exc, "reason", None) or str(exc)) from None
            act["p"] = meta["you"]
            meta["actions"].append(act)
            meta.pop("review", None)
            self._write(meta)
            answer = self._engine_turns(meta, g)
            out = self._state(meta, g)
            out["answer"] = answer
            out["challenged"] = challenged
            return out

    def gcg(self, gid: str) -> tuple[str, str]:
        """``(file name, GCG text)`` of a game (finished or not)."""
        from engine.game.gcg import write_gcg

        with self._lock(gid):
            meta = self._read(gid)
            g = self._replay(meta)
        stamp = time.strftime("%Y-%m-%d-%H%M", time.localtime(meta["created"]))
        return f"spiel-{stamp}-{meta['level']}.gcg", write_gcg(g)

    def record(self, gid: str):
        """The game's :class:`engine.game.game.GameRecord`, and its file data."""
        with self._lock(gid):
            meta = self._read(gid)
            g = self._replay(meta)
        return g.record(), meta

    def save_review(self, gid: str, review: dict) -> None:
        """Keep a finished game's review in its file (``state`` returns it as ``"review"``)."""
        with self._lock(gid):
            meta = self._read(gid)
            meta["review"] = review
            self._write(meta)

    def summaries(self, ids: list[str]) -> list[dict]:
        """Short descriptions of the games named (unknown ids left out), newest first."""
        out = []
        for gid in ids[: self.keep * 2]:
            try:
                meta = self._read(gid)
            except PlayError:
                continue
            g = self._replay(meta)
            out.append({"id": gid, "created": meta["created"], "updated": meta.get("updated", meta["created"]),
                        "level": meta["level"], "rules": meta["rules"], "names": meta["names"],
                        "scores": list(g.scores), "over": bool(g.over), "turns": len(g.record().moves)})
        out.sort(key=lambda d: -d["updated"])
        return out

    # -- the engine ------------------------------------------------------------------------
    def _engine_turns(self, meta: dict, g) -> dict | None:
        """Let the engine move while it is its turn; returns its last turn (JSON) or ``None``."""
        last = None
        while not g.over and g.to_move != meta["you"]:
            act = self._engine_action(meta, g)
            p = g.to_move
            if act["kind"] == "play":
                t = g.play(act["move"])
                act["move"] = t.move.notation
            elif act["kind"] == "exchange":
                t = g.exchange(act["tiles"])
            else:
                t = g.pass_turn()
            act["p"] = p
            meta["actions"].append(act)
            self._write(meta)
            last = _turn_json(t, meta["names"])
        return last

    def _engine_action(self, meta: dict, g) -> dict:
        from engine.game.equity import best_equity, choose

        level = meta["level"]
        if level == "meister" and self.deep is not None:
            act = self._master(g, meta["id"])
            if act is not None:
                return act
        if level == "einsteiger":
            rack = g.racks[g.to_move]
            cands = best_equity(g.board, rack, self.lexicon, bag=len(g.bag), n=60, table=self.table,
                                checks=g.checks, exchanges=False)
            plays = [c for c in cands if c.kind == "play"]
            capped = [c for c in plays if c.score <= BEGINNER_CAP] or plays
            if capped:
                rng = random.Random(f"{meta['seed']}:{len(meta['actions'])}")
                c = rng.choice(capped[:BEGINNER_TOP])
                return {"kind": "play", "move": c.move.notation}
        c = choose(g, self.table)
        if c.kind == "play":
            return {"kind": "play", "move": c.move.notation}
        if c.kind == "exchange":
            return {"kind": "exchange", "tiles": c.exchanged}
        return {"kind": "pass"}

    def _master(self, g, gid: str) -> dict | None:
        from .server import Busy

        pos = g.position()
        cgp = pos.to_cgp() if pos.opponent_rack is None else _without_opponent(pos).to_cgp()
        for _ in range(20):
            try:
                ans = self.deep.run(cgp, MASTER_SECONDS, client=f"spielen:{gid}")
                break
            except Busy:
                time.sleep(0.5)
        else:
            return None
        move = ans.get("move") if ans.get("phase") == "endgame" else (ans.get("moves") or [{}])[0].get("move")
        if not move:
            return None
        if move in ("pass", "-"):
            return {"kind": "pass"}
        if move.startswith("-"):
            return {"kind": "exchange", "tiles": move[1:]}
        return {"kind": "play", "move": move}

    # -- what the page sees --------------------------------------------------------------------
    def _state(self, meta: dict, g) -> dict:
        """The game for the page: board (15 rows, ``.`` empty, lowercase blanks), the player's rack, scores,
        bag count, unseen tiles (bag + the engine's rack), the score pad, the result when over, and a CGP of
        the player's view (for the word checker)."""
        from engine.game.game import Kind

        a = g.alphabet
        you = meta["you"]
        rec = g.record()
        pos = g.position() if g.to_move == you else None
        view = _player_view(g, you)
        unseen = view.unseen()
        out = {"id": meta["id"], "level": meta["level"], "rules": meta["rules"], "names": meta["names"],
               "you": you, "to_move": g.to_move, "over": bool(g.over), "scores": list(g.scores),
               "board": g.board.rows_text(), "rack": a.rack_string(g.racks[you]), "bag": len(g.bag),
               "unseen": a.rack_string(unseen), "cgp": view.to_cgp(), "created": meta["created"],
               "turns": [_turn_json(t, meta["names"]) for t in rec.turns],
               "can_exchange": len(g.bag) >= g.rules.min_bag_for_exchange}
        del pos
        if g.over:
            res = g.result()
            out["result"] = {"scores": list(res.scores), "winners": list(res.winners), "draw": res.draw,
                             "end_reason": res.end_reason,
                             "settlement": [_turn_json(t, meta["names"]) for t in rec.turns
                                            if t.kind in (Kind.RACK, Kind.OUT)]}
            if "review" in meta:
                out["review"] = meta["review"]
        return out


def _without_opponent(pos):
    from dataclasses import replace

    return replace(pos, opponent_rack=None)


def _player_view(g, seat: int):
    """The position as ``seat`` sees it: its own rack, the opponent's unknown, scores (seat first)."""
    from engine.position.cgp import Position

    other = 1 - seat
    return Position(g.board.copy(), g.racks[seat].copy(), None, (g.scores[seat], g.scores[other]),
                    g.scoreless_turns, {"bag": str(len(g.bag))})


def _turn_json(t, names) -> dict:
    """One score-pad entry for the page: ``{"player", "kind", "move", "score", "total", "rack"?, "words", "tiles"}``."""
    from engine.game.game import Kind

    d = {"player": names[t.player], "p": t.player, "kind": t.kind, "score": int(t.score), "total": int(t.total)}
    if t.move is not None:
        d["move"] = t.move.notation
        d["tiles"] = [[r, c, ch, bool(b)] for r, c, ch, b in t.move.tiles]
        d["bingo"] = t.kind == Kind.PLAY and t.move.tiles_played == 7
    if t.words:
        d["words"] = [[w, int(s)] for w, s in t.words]
    if t.kind == Kind.EXCHANGE:
        d["count"] = int(t.exchange_count)
    if t.kind in (Kind.RACK, Kind.OUT):
        d["tiles_left"] = t.rack
    return d


# ---------------------------------------------------------------------------
# Partieanalyse for the page
# ---------------------------------------------------------------------------
REVIEW_ENDGAME_SECONDS = 2.0
"""Time limit per endgame solve in the web's review (an endgame turn not solved in time is marked not exact)."""


def review_payload(gcg: str, lexicon, table, endgame_seconds: float = REVIEW_ENDGAME_SECONDS) -> dict:
    """The review of a GCG text for the page: :meth:`engine.analysis.review.Review.to_json` plus, per turn,
    the new tiles of the played and of the best move (``played_tiles``, ``best_tiles``: ``[[row, col,
    LETTER, blank]]``) and the board before it (``board``: 15 rows), the win % picture (``svg``:
    ``{"de", "en"}``), the puzzles (``puzzles``: turn numbers, largest loss first) and the players' names.

    Raises:
        ValueError: the GCG cannot be read (:class:`engine.game.gcg.GCGError`, naming the line).
    """
    from engine.analysis.review import review, win_svg
    from engine.position.cgp import parse_cgp
    from engine.game.gcg import read_gcg
    from engine.position.scorer import IllegalMove, check_move

    rec = read_gcg(gcg, lexicon)
    rv = review(rec, lexicon, table=table, endgame_seconds=endgame_seconds)
    out = rv.to_json()
    for t, d in zip(rv.turns, out["turns"]):
        board = parse_cgp(t.cgp).board if t.cgp else rec.position(t.turn).board
        d["board"] = board.rows_text()
        for key, move in (("played_tiles", t.played), ("best_tiles", t.best)):
            tiles = []
            if move and not move.startswith("-"):
                try:
                    tiles = [[r, c, ch, bool(b)] for r, c, ch, b in check_move(board, move).tiles]
                except (IllegalMove, ValueError):
                    tiles = []
            d[key] = tiles
    out["svg"] = {"de": win_svg(rv), "en": win_svg(rv, en=True)}
    out["puzzles"] = [t.turn for t in rv.puzzles()]
    out["names"] = list(rec.names or rec.players)
    return out
