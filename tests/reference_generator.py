"""A slow, obviously-correct reference move generator for tests.

It shares nothing with the GADDAG generator (:mod:`engine.movegen._movegen`): no lexicon
graph, no anchors, no cross-check bit sets. It enumerates, for every row and
every column, every segment of squares that could be exactly covered by a move
and matches the segment's pattern (fixed board letters, letters allowed under
the empty squares) against the words of that length with a regular expression.
Every match is then turned into concrete tile placements (which squares use a
blank) and scored by the SPEC rules.

A move is the set of tiles it places (golden README), so the result is a
``set[(placements, score)]`` in the format of
:meth:`engine.position.moves.MoveList.placement_set`: ``"H8:A,I8:b"`` sorted by
(row, column), square = column letter + row number, lowercase = blank.

:func:`rescore` is a second, independent scorer that works from a finished
board (find every maximal run through a new tile) rather than from a line and
its cross-words; tests use it to re-score the generator's moves.
"""

from __future__ import annotations

import re
from collections import Counter
from itertools import combinations
from typing import Iterable

import numpy as np

from engine.position.board import Board, square_name

N = 15
CENTER = (7, 7)


class WordIndex:
    """Words grouped by length, each group one newline-joined string for regex search."""

    def __init__(self, words: Iterable[str]):
        self.words = frozenset(words)
        by_len: dict[int, list[str]] = {}
        for w in sorted(self.words):
            by_len.setdefault(len(w), []).append(w)
        self.text = {n: "\n".join(ws) + "\n" for n, ws in by_len.items()}

    def __contains__(self, word: str) -> bool:
        return word in self.words

    def match(self, classes: list[str]) -> list[str]:
        """Words whose i-th letter is in ``classes[i]`` (a string of allowed letters)."""
        text = self.text.get(len(classes))
        if text is None or any(not c for c in classes):
            return []
        pat = "".join(re.escape(c) if len(c) == 1 else "[" + "".join(re.escape(ch) for ch in c) + "]"
                      for c in classes)
        return re.findall(f"^{pat}$", text, flags=re.M)


_INDEX_CACHE: dict[int, tuple[object, WordIndex]] = {}


def word_index(words) -> WordIndex:
    """A :class:`WordIndex` for a word collection (cached by object identity)."""
    if isinstance(words, WordIndex):
        return words
    hit = _INDEX_CACHE.get(id(words))
    if hit is not None and hit[0] is words:
        return hit[1]
    idx = WordIndex(words)
    _INDEX_CACHE[id(words)] = (words, idx)
    return idx


def _letter_grid(board: Board) -> list[list[str]]:
    """Board as uppercase letters ('' = empty)."""
    letters = board.alphabet.letters
    return [[letters[int(board.tiles[r, c]) - 1] if board.tiles[r, c] else "" for c in range(N)]
            for r in range(N)]


def _value_grid(board: Board) -> list[list[int]]:
    """Face value of the tile on each square: letter value, 0 for a blank or an empty square."""
    a = board.alphabet
    return [[0 if (not board.tiles[r, c] or board.blanks[r, c]) else int(a.values[int(board.tiles[r, c])])
             for c in range(N)] for r in range(N)]


def _perp_parts(grid, r: int, c: int, dr: int, dc: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Occupied squares directly before and after (r, c) along direction (dr, dc)."""
    before = []
    rr, cc = r - dr, c - dc
    while 0 <= rr < N and 0 <= cc < N and grid[rr][cc]:
        before.append((rr, cc))
        rr, cc = rr - dr, cc - dc
    before.reverse()
    after = []
    rr, cc = r + dr, c + dc
    while 0 <= rr < N and 0 <= cc < N and grid[rr][cc]:
        after.append((rr, cc))
        rr, cc = rr + dr, cc + dc
    return before, after


def reference_moves(board: Board, rack: np.ndarray, words) -> set[tuple[str, int]]:
    """Every legal placement of ``rack`` on ``board`` with its score.

    Args:
        board: the position.
        rack: int32 counts per tile code (index 0 = blanks), as from ``parse_rack``.
        words: a set of uppercase words (or a :class:`WordIndex`).

    Returns:
        ``{(placements, score)}`` like :meth:`MoveList.placement_set`.
    """
    idx = word_index(words)
    a = board.alphabet
    letters = a.letters
    values = {ch: int(a.values[i + 1]) for i, ch in enumerate(letters)}
    rack_letters = Counter({letters[i - 1]: int(rack[i]) for i in range(1, a.size + 1) if rack[i] > 0})
    n_blanks = int(rack[0])
    rack_total = n_blanks + sum(rack_letters.values())
    lm = board.layout.letter_mult
    wm = board.layout.word_mult
    grid = _letter_grid(board)
    vals = _value_grid(board)
    empty_board = not any(grid[r][c] for r in range(N) for c in range(N))
    all_letters = "".join(letters)
    hand_letters = all_letters if n_blanks else "".join(sorted(rack_letters, key=letters.index))

    out: set[tuple[str, int]] = set()
    if rack_total == 0:
        return out

    for direction in (0, 1):
        # (dr, dc): along the line; (pr, pc): perpendicular
        dr, dc = (0, 1) if direction == 0 else (1, 0)
        pr, pc = dc, dr
        for line in range(N):
            squares = [(line, k) if direction == 0 else (k, line) for k in range(N)]
            # per empty square: allowed letters (cross-check) and cross-word parts
            allowed: list[str | None] = []
            cross: list[tuple | None] = []
            for (r, c) in squares:
                if grid[r][c]:
                    allowed.append(None)
                    cross.append(None)
                    continue
                before, after = _perp_parts(grid, r, c, pr, pc)
                if not before and not after:
                    allowed.append(all_letters)
                    cross.append(None)
                else:
                    pre = "".join(grid[x][y] for x, y in before)
                    suf = "".join(grid[x][y] for x, y in after)
                    allowed.append("".join(L for L in all_letters if pre + L + suf in idx))
                    cross.append((sum(vals[x][y] for x, y in before + after),))
            for i in range(N):
                if i > 0 and grid[squares[i - 1][0]][squares[i - 1][1]]:
                    continue  # square before the segment must be empty or the edge
                n_empty = 0
                for j in range(i, N):
                    r, c = squares[j]
                    if not grid[r][c]:
                        n_empty += 1
                    if n_empty > rack_total:
                        break
                    if j + 1 < N and grid[squares[j + 1][0]][squares[j + 1][1]]:
                        continue  # square after the segment must be empty or the edge
                    length = j - i + 1
                    if length < 2 or n_empty == 0:
                        continue
                    seg = squares[i:j + 1]
                    if empty_board:
                        if CENTER not in seg:
                            continue
                    else:
                        connected = any(grid[x][y] for x, y in seg) or any(
                            cross[i + k] is not None for k in range(length))
                        if not connected:
                            continue
                    classes = []
                    for k, (x, y) in enumerate(seg):
                        if grid[x][y]:
                            classes.append(grid[x][y])
                        else:
                            classes.append("".join(ch for ch in allowed[i + k] if ch in hand_letters))
                    for word in idx.match(classes):
                        _emit(out, word, seg, i, grid, vals, cross, lm, wm, values,
                              rack_letters, n_blanks, a.rack_size, a.bingo_bonus)
    return out


def _emit(out, word, seg, i, grid, vals, cross, lm, wm, values, rack_letters, n_blanks, rack_size, bingo):
    """Add every blank/real-tile assignment of ``word`` on segment ``seg`` to ``out``."""
    new = [k for k, (x, y) in enumerate(seg) if not grid[x][y]]
    need = Counter(word[k] for k in new)
    for nb in range(0, min(n_blanks, len(new)) + 1):
        for blank_pos in combinations(new, nb):
            real = need.copy()
            for k in blank_pos:
                real[word[k]] -= 1
            if any(real[L] > rack_letters.get(L, 0) for L in real):
                continue
            bset = set(blank_pos)
            # main word
            main = 0
            mult = 1
            total_cross = 0
            for k, (x, y) in enumerate(seg):
                if grid[x][y]:
                    main += vals[x][y]
                    continue
                tv = 0 if k in bset else values[word[k]] * int(lm[x, y])
                main += tv
                mult *= int(wm[x, y])
                cr = cross[i + k]
                if cr is not None:
                    total_cross += (cr[0] + tv) * int(wm[x, y])
            score = main * mult + total_cross + (bingo if len(new) == rack_size else 0)
            key = ",".join(
                f"{square_name(x, y)}:{word[k].lower() if k in bset else word[k]}"
                for k, (x, y) in sorted(((k, seg[k]) for k in new), key=lambda t: t[1]))
            out.add((key, score))


# -- independent re-scoring ---------------------------------------------------------
def parse_placements(text: str, board: Board) -> list[tuple[int, int, int, bool]]:
    """``"H8:A,I8:b"`` -> ``[(row, col, code, is_blank), ...]``."""
    out = []
    for part in text.split(","):
        sq, ch = part.split(":")
        col = "ABCDEFGHIJKLMNO".index(sq[0])
        row = int(sq[1:]) - 1
        out.append((row, col, board.alphabet.code(ch.upper()), ch.islower()))
    return out


def rescore(board: Board, placements: list[tuple[int, int, int, bool]], words=None) -> int:
    """Score a placement from the finished board: every maximal run of 2+ tiles through a
    new tile, in both directions, is a word; premiums under new tiles only.

    Also checks legality: one line, gapless, not on occupied squares, connected or
    covering H8 with 2+ tiles on an empty board, every word formed in ``words``
    (when given). Raises AssertionError when the placement is illegal.
    """
    a = board.alphabet
    assert placements, "no tiles"
    rows = {p[0] for p in placements}
    cols = {p[1] for p in placements}
    assert len(rows) == 1 or len(cols) == 1, "not in one line"
    assert len({(p[0], p[1]) for p in placements}) == len(placements), "square used twice"
    for r, c, _, _ in placements:
        assert board.tiles[r, c] == 0, f"{square_name(r, c)} occupied"
    was_empty = board.is_empty
    after = board.copy()
    after.place(placements)
    new = {(r, c) for r, c, _, _ in placements}
    # gapless: the squares between the first and last new tile are all occupied after the move
    (r0, c0), (r1, c1) = min(new), max(new)
    for r in range(r0, r1 + 1):
        for c in range(c0, c1 + 1):
            assert after.tiles[r, c], f"gap at {square_name(r, c)}"
    if was_empty:
        assert len(placements) >= 2 and CENTER in new, "first move must cover H8 with 2+ tiles"
    else:
        touches = False
        for r, c in new:
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= rr < N and 0 <= cc < N and board.tiles[rr, cc]:
                    touches = True
        assert touches, "not connected"
    vals = after.tile_values()
    lm = board.layout.letter_mult
    wm = board.layout.word_mult
    runs = set()
    for r, c in new:
        for dr, dc in ((0, 1), (1, 0)):
            rr, cc = r, c
            while 0 <= rr - dr and 0 <= cc - dc and after.tiles[rr - dr, cc - dc]:
                rr, cc = rr - dr, cc - dc
            sq = []
            while rr < N and cc < N and after.tiles[rr, cc]:
                sq.append((rr, cc))
                rr, cc = rr + dr, cc + dc
            if len(sq) >= 2:
                runs.add(tuple(sq))
    assert runs, "no word formed"
    total = 0
    for run in runs:
        word = "".join(a.letters[int(after.tiles[x, y]) - 1] for x, y in run)
        if words is not None:
            assert word in words, f"{word} is not a word"
        s = 0
        m = 1
        for x, y in run:
            if (x, y) in new:
                s += int(vals[x, y]) * int(lm[x, y])
                m *= int(wm[x, y])
            else:
                s += int(vals[x, y])
        total += s * m
    if len(placements) == a.rack_size:
        total += a.bingo_bonus
    return total
