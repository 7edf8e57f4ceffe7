"""Racks from a physical bag (issue 15, part 2): ``round --start --rack``: the tiles drawn are
checked against the bag (tile set minus board and leave) and the vowel/consonant minimum; a
refused rack writes nothing; an accepted one replays exactly and its top moves are the move
generator's best."""

from __future__ import annotations

import numpy as np
import pytest

from engine.cli.main import main
from engine.director import SimultanRules
from engine.director.event import DirectorError
from engine.director.export import current_page
from engine.director.store import EventDir
from engine.movegen.generator import generate_moves
from lexicon_tools.alphabet import german

A = german()


class Clock:
    def __init__(self):
        self.t = 1_800_000_000.0

    def __call__(self):
        self.t += 1.0
        return self.t


@pytest.fixture
def d(tmp_path, golden_lexicon):
    return EventDir.create(tmp_path / "ev", ["Ana", "Ben"], seed=42, lexicon=golden_lexicon, now=Clock(),
                           export=False, notes=None, rules=SimultanRules.for_alphabet(A))


def journal_bytes(d) -> bytes:
    return d.journal.path.read_bytes()


def best_score(board, rack: str, lex) -> int:
    return generate_moves(board, A.parse_rack(rack), lex).sorted()[0].score


def test_round_one_rack_typed_from_the_bag(d, golden_lexicon):
    ev = d.load()
    seeded = ev.current.rack
    typed = "AEHNRST" if seeded != "AEHNRST" else "EILNRST"
    rnd = d.start(typed)
    assert rnd.rack == typed and rnd.rack_from == "bag" and rnd.rejected == []
    assert rnd.tops[0].score == best_score(ev.board, typed, golden_lexicon)
    ev = d.load()
    ev.tile_check()                                   # board + rack + bag = the tile set
    assert len(ev.bag) == A.total_tiles - 7 and rnd.bag == A.total_tiles - 7
    # a fresh replay of the journal gives the same event (bag order and RNG state included)
    again = EventDir(d.path, golden_lexicon, notes=None, export=False).load()
    assert again.snapshot() == ev.snapshot()
    # moves are checked against the typed rack
    top = rnd.tops[0]
    sub = d.submit("Ana", top.notation)
    assert sub.valid and sub.score == top.score
    closed = d.close()
    assert closed.rack == typed and closed.top.notation == top.notation


@pytest.mark.parametrize("typed, words", [
    ("ABC", "3 tiles; round 1 needs 7 tiles"),
    ("BCDFGHK", "0 vowels, 7 consonants: round 1 needs at least 2 vowels and 2 consonants"),
    ("AEIOUÄB", "6 vowels, 1 consonant: round 1 needs at least 2 vowels and 2 consonants"),
    ("QQAEIRS", "2 × Q, but the tile set has only 1"),
    ("AEIRS1T", "'1' is not a letter of the German tile set"),
])
def test_refused_racks_write_nothing(d, typed, words):
    before = journal_bytes(d)
    with pytest.raises(DirectorError, match=words.replace("(", r"\(").replace("×", "×")):
        d.start(typed)
    assert journal_bytes(d) == before
    assert d.load().current.started_at is None


def test_leave_stays_and_the_bag_must_hold_the_tiles(d, golden_lexicon):
    d.start()
    ev = d.load()
    d.close()
    ev = d.load()
    cur = ev.current
    leave = A.rack_string(cur.leave)
    # what is on the board or kept cannot come out of the bag: a letter whose every copy is there
    board = np.bincount(np.where(ev.board.blanks, 0, ev.board.tiles)[ev.board.tiles != 0], minlength=A.size + 1)
    gone = [c for c in range(1, A.size + 1) if board[c] + cur.leave[c] == A.counts[c]]
    assert gone, "the first top move used up no letter"     # seed 42 on the golden list: it does
    n = 7 - len(leave)
    before = journal_bytes(d)
    letter = A.letter(gone[0])
    filler = [ch for ch in "EANRSTI" if ch != letter]
    with pytest.raises(DirectorError, match=f"the bag holds no {letter}"):
        d.start(letter + "".join(filler[: n - 1]))
    assert journal_bytes(d) == before
    assert leave, "seed 42 on the golden list keeps a leave after round 1"
    # a whole rack without the leave is refused; the tiles drawn alone are completed with it
    without = [ch for ch in "EANRSTIOLU" if ch not in leave][:7]
    with pytest.raises(DirectorError, match=f"the leave {leave} stays on the rack"):
        d.start("".join(without))
    assert journal_bytes(d) == before
    vowels = [ch for ch in "AEIOU" if ch != letter]
    cons = [ch for ch in "NRSTL" if ch != letter]
    cand = "".join((vowels[:2] + cons)[:n])          # at least 2 vowels and 2 consonants with any leave
    rnd = d.start(cand)
    assert sorted(rnd.rack) == sorted(leave + cand)
    ev = d.load()
    ev.tile_check()
    assert rnd.tops[0].score == best_score(ev.board, rnd.rack, golden_lexicon)
    again = EventDir(d.path, golden_lexicon, notes=None, export=False).load()
    assert again.snapshot() == ev.snapshot()


def test_physical_bag_event_needs_the_rack_and_hides_the_seeded_one(tmp_path, golden_lexicon):
    d = EventDir.create(tmp_path / "phys", ["Ana"], seed=5, lexicon=golden_lexicon, now=Clock(), export=False,
                        notes=None, rules=SimultanRules.for_alphabet(A, physical_bag=True))
    ev = d.load()
    with pytest.raises(DirectorError, match="physical bag"):
        d.start()
    page = current_page(ev, refresh=False)
    assert 'class="tile' not in page and "Die Buchstaben werden gezogen" in page
    d.start("AEHNRST")
    page = current_page(d.load(), refresh=False)
    assert page.count('<div class="tile">') == 7


def test_cli_round_start_rack(tmp_path, capsys, golden_lexicon):
    ev = tmp_path / "club"
    assert main(["simultan", "new", str(ev), "--players", "Ana", "--seed", "42", "--lexicon",
                 str(golden_lexicon.path), "--physical-bag"]) == 0
    capsys.readouterr()
    assert main(["simultan", "round", str(ev), "--start"]) == 2
    err = capsys.readouterr().err
    assert err.strip().splitlines()[-1].startswith("error: round 1: this event draws from a physical bag")
    assert main(["simultan", "round", str(ev), "--rack", "AEHNRST"]) == 2
    assert "--rack goes with --start" in capsys.readouterr().err
    assert main(["simultan", "round", str(ev), "--start", "--rack", "BCDFGHK"]) == 2
    err = [ln for ln in capsys.readouterr().err.splitlines() if not ln.startswith("note:")]
    assert len(err) == 1 and "needs at least 2 vowels" in err[0]
    assert main(["simultan", "round", str(ev), "--start", "--rack", "A E H N R S T"]) == 0
    out = capsys.readouterr().out
    assert "rack: A E H N R S T" in out and "left" in out
