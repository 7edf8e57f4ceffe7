"""GCG read/write: German letters, blanks, played-through tiles, exchanges, passes, challenges,
end-of-game adjustments, round trips, CGP of any position, and clear errors for bad files."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.position.cgp import parse_cgp
from engine.game.game import TOURNAMENT, Game, Kind
from engine.game.gcg import GCGError, read_gcg, read_gcg_file, write_gcg, write_gcg_file
from engine.movegen.generator import exchanges, generate_moves
from engine.game.selfplay import game_seed, play_game
from lexicon_tools.alphabet import german
from lexicon_tools.bundle import build_bundle

A = german()
WORDS = ["SCORE", "SCORES", "ÜBER", "HAUS", "HAUSE", "ZUHAUSE", "ES", "AB", "ER", "EH", "QUAL", "HEXE",
         "TRAUBEN", "GÖRE", "HAUSTÜR", "DU", "DA", "JA", "OH", "ZU"]

HAND = """#character-encoding UTF-8
#player1 ana Ana Beispiel
#player2 ben Ben
#lexicon small
>ana: CEORSXY 8F SCORE +18 18
>ben: BEKLMNÜ I5 ÜBE. +12 12
>ana: ADHIUXY -XY +0 18
>ben: EKLMNST K7 ES +12 24
>ana: AABDHIU (challenge) -5 13
>ana: AABDHIU 4H AB +19 32
>ana: AABDHIU -- -19 13
>ben: EKLMNT? - +0 24
>ana: AABDHIU - +0 13
>ben: EKLMNT? - +0 24
>ana: AABDHIU (AABDHIU) -10 3
>ben: EKLMNT? (EKLMNT?) -12 12
"""


@pytest.fixture(scope="module")
def small_lex(tmp_path_factory):
    return build_bundle(WORDS, tmp_path_factory.mktemp("lex") / "small.lex", source_name="test")


def test_read_hand_written_game(small_lex):
    rec = read_gcg(HAND, small_lex)
    assert rec.players == ["ana", "ben"] and rec.names == ["Ana Beispiel", "Ben"]
    kinds = [(t.kind, t.player, t.score, t.total) for t in rec.turns]
    assert kinds == [
        (Kind.PLAY, 0, 18, 18), (Kind.PLAY, 1, 12, 12), (Kind.EXCHANGE, 0, 0, 18), (Kind.PLAY, 1, 12, 24),
        (Kind.CHALLENGE, 0, -5, 13), (Kind.WITHDRAWN, 0, 0, 13), (Kind.PASS, 1, 0, 24), (Kind.PASS, 0, 0, 13),
        (Kind.PASS, 1, 0, 24), (Kind.RACK, 0, -10, 3), (Kind.RACK, 1, -12, 12)]
    assert rec.turns[1].move.notation == "I5 ÜBE(R)"
    assert rec.turns[2].exchanged == "XY"
    assert rec.turns[5].move.score == 19 and rec.turns[5].line == 10
    assert sorted(w for w, _ in rec.turns[3].words) == ["ES", "SCORES"]
    assert rec.end_reason == "passes" and rec.scores == [3, 12]
    assert rec.result().winners == (1,)
    assert rec.final_racks == ["AABDHIU", "EKLMNT?"]


def test_write_back_identical_apart_from_header(small_lex):
    rec = read_gcg(HAND, small_lex)
    text = write_gcg(rec)
    body = [ln for ln in text.splitlines() if ln.startswith(">")]
    assert body == [ln for ln in HAND.splitlines() if ln.startswith(">")]
    assert read_gcg(text, small_lex).turns == rec.turns


def test_blanks_parentheses_and_plain_through(small_lex):
    text = """#player1 a A
#player2 b B
>a: AHRTUÜ? 8D HAUsTÜR +78 78
>b: ESUZ 8B ZU.......E +17 17
"""
    # ZU + HAUSTÜR + E is not a word of the small list: the file must not be accepted
    with pytest.raises(GCGError, match=r"line 4: illegal move 8B ZU\.{7}E: ZUHAUSTÜRE is not in the word list"):
        read_gcg(text, small_lex)
    rec = read_gcg(text, None)  # no word check: placement and scores only
    assert rec.turns[0].move.word == "HAUsTÜR" and rec.turns[0].score == 78  # (4+1+1+0+1+6+1) x 2 + 50
    assert rec.turns[0].bingo
    assert rec.turns[1].move.notation == "8B ZU(HAUsTÜR)E" and rec.turns[1].score == 17  # 3+1+12+1
    for word in ("ZU(HAUsTÜR)E", "ZU(HAUSTÜR)E", "ZUHAUsTÜRE"):
        assert read_gcg(text.replace("ZU.......E", word), None).turns == rec.turns
    assert write_gcg(rec).splitlines()[-1] == ">b: ESUZ 8B ZU.......E +17 17"


def test_zuhause_through_tiles_all_notations(small_lex):
    base = """#player1 a A
#player2 b B
>a: AHSU 8E HAUS +10 10
>b: EUZ 8C {} +11 11
"""
    for word in ("ZU....E", "ZU(HAUS)E", "ZUHAUSE", "ZU(HA)..E"):
        rec = read_gcg(base.format(word), small_lex)
        assert rec.turns[1].move.notation == "8C ZU(HAUS)E"
        assert rec.turns[1].score == 11  # Z3 + U on d 2 + HAUS 5 + E1, SPEC example 11
        assert write_gcg(rec).splitlines()[-1] == ">b: EUZ 8C ZU....E +11 11"


def test_end_out_entries_round_trip(small_lex):
    g = Game(["Ana", "Ben", "Cal"], small_lex, seed=1, first=0)
    for p in range(3):
        g.set_rack(p, "")
    for p, r in enumerate(["HAUS", "QE", "AB"]):
        g.set_rack(p, r)
    g.bag.draw(len(g.bag))
    g.play("8E HAUS")
    text = write_gcg(g)
    assert text.splitlines()[-3:] == [">Ben: EQ (EQ) -11 -11", ">Cal: AB (AB) -4 -4", ">Ana: (ABEQ) +15 25"]
    assert "#player3 Cal Cal" in text
    rec = read_gcg(text, small_lex)
    assert rec.turns == g.turns and rec.end_reason == "out" and rec.scores == [25, -11, -4]


def test_out_bonus_must_not_be_doubled(small_lex):
    text = """#player1 a A
#player2 b B
>a: AHSU 8E HAUS +10 10
>b: EQ (EQ) -11 -11
>a: (EQ) +22 32
"""
    with pytest.raises(GCGError, match=r"line 5: tiles EQ are worth 11: the player who went out gains \+11 "
                                       r"\(not doubled\), not \+22"):
        read_gcg(text, small_lex)
    ok = text.replace("+22 32", "+11 21")
    assert read_gcg(ok, small_lex).scores == [21, -11]


def test_tournament_challenge_and_time_entries(small_lex):
    g = Game(2, small_lex, rules=TOURNAMENT, seed=3, first=0)
    for p in range(2):
        g.set_rack(p, "")
    g.set_rack(0, "SCOREXY")
    g.set_rack(1, "ESKLMNP")
    g.play("8F SCORE", seconds=20 * 60)
    g.play("K7 ES", challenge=0, seconds=100)
    g.pass_turn(seconds=11 * 60 + 30)  # player 0: 31:30 used -> 2 started minutes over
    g.end_by_agreement()
    text = write_gcg(g)
    assert ">p1: XY????? (challenge) -20 -2".replace("XY?????", g.turns[2].rack) in text
    assert "(time) -20" in text and "#rules tournament" in text
    rec = read_gcg(text, small_lex)
    assert rec.turns == g.turns and rec.rules == TOURNAMENT and rec.end_reason == "agreement"
    bad = text.replace("(challenge) -20 -2", "(challenge) -5 13")
    with pytest.raises(GCGError, match="challenge penalty -5: under tournament rules"):
        read_gcg(bad, small_lex)


# -- bad input -------------------------------------------------------------------------------
BAD = [
    (">ana: CEORSXY 8F SCORE +20 20", "line 5: wrong score for 8F SCORE: the file says \\+20, the engine scores 18 \\(SCORE 18\\)"),
    (">ana: CEORSXY 8F SCORE +18 19", "line 5: running total 19 for ana does not match 0 \\+18 = 18"),
    (">ana: CEORSXY 8A SCORE +18 18", "line 5: illegal move 8A SCORE: the first move must cover the centre star"),
    (">ana: CEORSXY 8F SCHORE +18 18", "line 5: illegal move 8F SCHORE: tile H is not on the rack"),
    (">ana: CEORSXß 8F SCORE +18 18", "line 5: rack 'CEORSXß': 'ß' is not a letter of the German tile set \\(write SS for ß\\)"),
    (">ana: CEORSXY 8F SCORß +18 18", r"line 5: illegal move 8F SCORß: .*'ß' is not a letter"),
    (">ana: CEORSXY 8F SCORE +18", "line 5: cannot read 'CEORSXY 8F SCORE \\+18'.*truncated"),
    (">ana: CEORSXY 8F", "line 5: cannot read.*truncated"),
    (">ana: CEORSXYAB 8F SCORE +18 18", "line 5: rack 'CEORSXYAB': 9 tiles, at most 7"),
    (">bob: CEORSXY 8F SCORE +18 18", "line 5: player 'bob' is not declared"),
    (">ana: CEORSXY 8F SCORE +18 18\n>ana: AB - +0 18", "line 6: ana moves out of turn \\(expected ben\\)"),
    (">ana: CEORSXY 8F SCORE +18 18\n>ben: BEKLMNÜ I5 ÜB.. +12 12", "line 6: I5 ÜB\\.\\.: '\\.' at letter 3 marks an empty square"),
    (">ana: CEORSXY 8F CORE +16 16", "line 5: illegal move 8F CORE: CORE is not in the word list"),
    (">ana: CEORSXY -XY +3 3", "line 5: an exchange scores 0, not \\+3"),
    (">ana: QQ - +0 0", "line 5: rack QQ: 2 × Q but only 1 of the 1 are not on the board"),
    (">ana: CEORSXY 8F SCORE +18 18\n>ben: BEKLMNÜ -- -0 0", "line 6: '--' \\(play withdrawn\\) must follow"),
    (">ana: CEORSXY 8F SCORE +18 18\n>ben: EQ (EQ) -10 -10", "line 6: remaining tiles EQ are worth 11"),
    (">ana: CEORSXY 8F SCORE +18 18\n>ben: AB - +0 0\n>ana: ABC - +0 18",
     "line 7: rack ABC does not hold the tiles ana kept on line 5 \\(XY\\)"),
    # one player's remaining tiles deducted twice, a second going-out bonus, and remaining tiles that are not
    # in the set all together (each line alone is possible): the totals add up, the score would not be right
    (">ana: CEORSXY 8F SCORE +18 18\n>ben: EQ (EQ) -11 -11\n>ben: EQ (EQ) -11 -22",
     "line 7: ben's remaining tiles are deducted twice \\(also on line 6\\)"),
    (">ana: AHSU 8E HAUS +10 10\n>ben: EQ (EQ) -11 -11\n>ana: (EQ) +11 21\n>ana: (EQ) +11 32",
     "line 8: a second going-out line \\(the first is line 7\\)"),
    (">ana: CEORSXY 8F SCORE +18 18\n>ben: Q (Q) -10 -10\n>ana: Q (Q) -10 8",
     "line 7: remaining tiles of all players together \\(QQ\\): 2 × Q but only 1"),
    # the score pad's note that the game is over (written when no end-of-game line holds the end)
    (">ana: CEORSXY 8F SCORE +18 18\n#note end of game\n>ben: AB - +0 0",
     "line 7: ben moves after the note on line 6 that the game is over"),
    (">ana: CEORSXY 8F SCORE +18 18\n#note end of game, out: cal",
     "line 6: player 'cal' is not declared"),
    (">ana: AHSU 8E HAUS +10 10\n>ben: EQ (EQ) -11 -11\n>ana: (EQ) +11 21\n>ben: EQ (challenge) -5 -16",
     "line 8: ben: a challenge after the end-of-game entries"),
]


def test_going_out_needs_the_remaining_tiles_of_every_other_player(small_lex):
    # report-attack26m F6: three players, one went out, one remaining-tiles line left out: read with that
    # player's tiles neither deducted nor in the bonus (288/253 for 281/260 in the attack's game)
    head = "#player1 ana Ana\n#player2 ben Ben\n#player3 cal Cal\n>ana: AHSU 8E HAUS +10 10\n"
    with pytest.raises(GCGError, match=r"line 6: ana went out, but the remaining-tiles line of cal is missing"):
        read_gcg(head + ">ben: EQ (EQ) -11 -11\n>ana: (EQ) +11 21\n", small_lex)
    rec = read_gcg(head + ">ben: EQ (EQ) -11 -11\n>cal: AB (AB) -4 -4\n>ana: (ABEQ) +15 25\n", small_lex)
    assert rec.scores == [25, -11, -4] and rec.end_reason == "out"


@pytest.mark.parametrize("lines,message", BAD, ids=[str(i) for i in range(len(BAD))])
def test_bad_files_name_the_line(small_lex, lines, message):
    text = "#character-encoding UTF-8\n#player1 ana Ana\n#player2 ben Ben\n#lexicon small\n" + lines + "\n"
    with pytest.raises(GCGError, match=message) as exc:
        read_gcg(text, small_lex)
    assert isinstance(exc.value, ValueError) and exc.value.line >= 5


def test_wrong_score_never_accepted_without_lexicon():
    text = "#player1 a A\n#player2 b B\n>a: AHSU 8E HAUS +11 11\n"
    with pytest.raises(GCGError, match="the file says \\+11, the engine scores 10 \\(HAUS 10\\)"):
        read_gcg(text, None)


def test_header_errors(small_lex):
    with pytest.raises(GCGError, match="#player1 and #player2"):
        read_gcg("#player1 a A\n", small_lex)
    with pytest.raises(GCGError, match="line 2: #player3 out of order"):
        read_gcg("#player1 a A\n#player3 b B\n", small_lex)
    with pytest.raises(GCGError, match="unknown #rules"):
        read_gcg("#player1 a A\n#player2 b B\n#rules blitz\n", small_lex)
    with pytest.raises(GCGError, match="line 3: cannot read"):
        read_gcg("#player1 a A\n#player2 b B\nhello\n", small_lex)


# report-attack26c A2: names that were accepted and written into a GCG file as they were
BAD_NAMES = {"A\x00": "U+0000", "\u202eAna": "U+202E (RIGHT-TO-LEFT OVERRIDE)",
             "A\u200bB": "U+200B (ZERO WIDTH SPACE)", "\ud800x": "U+D800", "A\tB": "U+0009",
             "#player1": "starts with '#' or '>'", ">Ana:": "starts with '#' or '>'"}


@pytest.mark.parametrize("name", list(BAD_NAMES))
def test_a_name_with_a_control_character_or_a_gcg_line_start_is_refused(name):
    want = re.escape(BAD_NAMES[name].split(" (")[0])
    with pytest.raises(ValueError, match="without spaces" if "\t" in name else f"^player name .* {want}"):
        Game([name, "Computer"], None)
    if "\t" not in name:  # (a tab ends the nickname in a GCG line: it is the full name's below)
        with pytest.raises(GCGError, match=f"^line 2: .*{want}"):
            read_gcg(f"#player1 a A\n#player2 {name} B\n", None)
    if not name.startswith(("#", ">")):  # a full name holds no control character either
        with pytest.raises(GCGError, match=f"^line 1: .*{want}"):
            read_gcg(f"#player1 a Ana{name}\n#player2 b B\n", None)
    # a record built by hand: refused on writing, never written with the character
    rec = read_gcg("#player1 a A\n#player2 b B\n", None)
    rec.names = ["Ana" + name, "B"]
    if name.startswith(("#", ">")):
        assert f"#player1 a Ana{name}\n" in write_gcg(rec)  # inside a full name they are harmless
    else:
        with pytest.raises(ValueError, match=f"^cannot write GCG line 2 .*{want}"):
            write_gcg(rec)


def test_a_note_pragma_is_read_and_written_without_control_characters():
    rec = read_gcg("#player1 a A\n#player2 b B\n#description eins\tzwei\n", None)
    assert rec.notes["description"] == "eins\tzwei"
    assert "#description eins zwei\n" in write_gcg(rec)
    with pytest.raises(GCGError, match=r"^line 3: '#description' holds the control or invisible character U\+0000$"):
        read_gcg("#player1 a A\n#player2 b B\n#description eins\x00zwei\n", None)


def test_file_io_and_latin1(tmp_path, small_lex):
    rec = read_gcg(HAND, small_lex)
    p = write_gcg_file(tmp_path / "g.gcg", rec)
    assert read_gcg_file(p, small_lex).turns == rec.turns
    latin = tmp_path / "latin.gcg"
    latin.write_bytes(HAND.replace("UTF-8", "ISO-8859-1").encode("latin-1"))
    assert read_gcg_file(latin, small_lex).turns == rec.turns
    broken = tmp_path / "broken.gcg"
    broken.write_bytes(HAND.encode("utf-8")[:-30])
    with pytest.raises(GCGError, match="broken.gcg: line 16: cannot read"):
        read_gcg_file(broken, small_lex)
    with pytest.raises(GCGError, match="cannot read"):
        read_gcg_file(tmp_path / "missing.gcg", small_lex)


# -- engine games: round trips and positions -----------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_selfplay_round_trip(golden_lexicon, players):
    for i in range(3):
        g = play_game(golden_lexicon, game_seed(5, i), players, lexicon_name="golden")
        text = write_gcg(g)
        rec = read_gcg(text, golden_lexicon)
        assert rec.turns == g.turns
        assert rec.seed == g.seed and rec.lexicon == "golden" and rec.end_reason == g.end_reason
        assert rec.final_racks == [A.rack_string(r) for r in g.racks] or g.end_reason != "out"
        assert write_gcg(rec) == text


@pytest.mark.parametrize("players", [2, 3, 4])
def test_positions_of_a_read_game_match_the_live_game(golden_lexicon, players):
    g = Game(players, golden_lexicon, seed=99, keep_undo=True, lexicon_name="golden")
    live = []
    while not g.over:
        live.append(g.position().to_cgp())
        ms = g.best_moves(1)
        if ms:
            g.play_generated(ms[0])
        else:
            g.pass_turn()
    rec = read_gcg(write_gcg(g), golden_lexicon)
    for k, cgp in enumerate(live):
        pos = rec.position(k)
        want = parse_cgp(cgp)
        assert pos.board == want.board
        assert pos.rack_string == want.rack_string
        if players == 2:
            assert A.rack_string(pos.opponent_rack) == A.rack_string(want.opponent_rack)
        else:
            assert pos.opponent_rack is None and want.opponent_rack is None
        assert pos.scores == want.scores and pos.zero_turns == want.zero_turns
        assert parse_cgp(pos.to_cgp()).to_cgp() == pos.to_cgp()
        assert pos.bag_count == int(want.opcodes["bag"])


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2 ** 32), rnd=st.randoms(use_true_random=False), players=st.integers(2, 4),
       tournament=st.booleans())
def test_random_games_round_trip(golden_lexicon, seed, rnd, players, tournament):
    rules = TOURNAMENT if tournament else None
    if tournament:
        players = 2
    g = Game(players, golden_lexicon, seed=seed, **({"rules": rules} if rules else {}))
    while not g.over and len(g.turns) < 150:
        r = rnd.random()
        rack = g.racks[g.to_move]
        if r < 0.08:
            g.pass_turn(seconds=rnd.uniform(0, 200))
        elif r < 0.15 and len(g.bag) >= 7:
            g.exchange(rnd.choice(exchanges(rack, A, len(g.bag))))
        else:
            ml = generate_moves(g.board, rack, golden_lexicon)
            if not len(ml):
                g.pass_turn()
                continue
            m = ml[rnd.randrange(len(ml))]
            if r < 0.25:
                g.play(m, challenge=(g.to_move + 1) % players, seconds=rnd.uniform(0, 100))
            else:
                g.play_generated(m, seconds=rnd.uniform(0, 60))
    text = write_gcg(g)
    rec = read_gcg(text, golden_lexicon)
    assert rec.turns == g.turns
    assert write_gcg(rec) == text
    assert rec.scores == g.scores


def test_time_penalty_line_with_empty_rack_is_a_time_entry():
    """'(time)' with no rack before it also fits the went-out pattern '(TILES) +N TOTAL';
    it must be read as a time penalty (regression: it was read as an out entry of tiles 'time')."""
    from engine.game.game import Kind
    from engine.game.gcg import _Reader

    r = _Reader(None, None, None, False)
    assert r.classify("(time) -10 245", 1) == (Kind.TIME, ("", -10, 245))
    assert r.classify("(challenge) -5 100", 1) == (Kind.CHALLENGE, ("", -5, 100))
    assert r.classify("(QE) +11 300", 1) == (Kind.OUT, ("QE", 11, 300))


# ---------------------------------------------------------------------------
# One-player master game of a simultaneous event (#rules simultan)
# ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def master_game(tmp_path_factory, golden_lexicon):
    """(event, GCG text) of ``simultan auto --seed 5`` with the golden lexicon."""
    from engine.director.store import play_master

    d = tmp_path_factory.mktemp("sim") / "sim5"
    ev = play_master(d, 5, lexicon=golden_lexicon, name="sim5")
    return ev, d / "export" / "master.gcg"


def test_simultan_master_game_reads_back(master_game, golden_lexicon):
    ev, path = master_game
    text = path.read_text(encoding="utf-8")
    assert "#player2" not in text and "#rules simultan" in text
    rec = read_gcg_file(path, golden_lexicon)
    assert rec.players == ["Top"] and rec.rules.name == "simultan" and rec.rules.max_players == 1
    assert len(rec.moves) == len(ev.closed_rounds) > 10
    assert all(t.kind == Kind.PLAY for t in rec.turns)
    assert rec.scores == [sum(r.top.score for r in ev.closed_rounds)]
    assert [t.rack for t in rec.turns] == [A.rack_string(A.parse_rack(r.rack)) for r in ev.closed_rounds]
    assert [t.move.notation for t in rec.turns] == [r.top.notation for r in ev.closed_rounds]
    assert rec.end_reason is None and rec.final_racks is None  # no end-of-game settlement in duplicate
    # a rejected draw put a leave back into the bag: a two-player game would refuse this rack
    assert any((A.parse_rack(p.move.leave) > A.parse_rack(t.rack)).any() for p, t in zip(rec.turns, rec.turns[1:]))
    assert write_gcg(rec) == text
    assert rec.score_pad().splitlines()[-1].split()[-1] == str(rec.scores[0])
    assert rec.position(3).to_cgp().split()[0] != "15/" * 14 + "15"  # three plays on the board


def test_simultan_master_game_racks_need_not_hold_the_last_leave():
    """The director may put a rack back whole (vowel/consonant rule), so a rack need not hold the
    previous leave; it must only be made of tiles that are not on the board."""
    head = "#player1 Top Top\n#rules simultan\n"
    rec = read_gcg(head + ">Top: AHSUXYZ 8E HAUS +10 10\n>Top: ABEIORT 9D AB +9 19\n", None)
    assert rec.scores == [19] and [t.rack for t in rec.turns] == ["AHSUXYZ", "ABEIORT"]
    # a one-player file without '#rules simultan' is still refused
    with pytest.raises(GCGError, match="#player1 and #player2"):
        read_gcg("#player1 Top Top\n>Top: AHSUXYZ 8E HAUS +10 10\n", None)
    # more of a tile than the set minus the board holds: the set has one Y, and it is on the board
    with pytest.raises(GCGError, match="line 4: rack EEEY: 1 × Y but only 0 of the 1 are not on the board"):
        read_gcg(head + ">Top: AHSUY 8D YHAUS +50 50\n>Top: EEEY - +0 50\n", None)


def test_simultan_master_game_with_a_wrong_score_is_rejected(master_game, golden_lexicon, tmp_path):
    ev, path = master_game
    lines = path.read_text(encoding="utf-8").splitlines()
    moves = [i for i, s in enumerate(lines) if s.startswith(">Top:")]
    k = moves[len(moves) // 2]
    rack, start, word, score, total = lines[k].split()[1:]
    s, t = int(score), int(total)
    lines[k] = f">Top: {rack} {start} {word} +{s + 1} {t + 1}"
    for i in moves[moves.index(k) + 1:]:  # keep the running totals right: only the score is wrong
        f = lines[i].split()
        lines[i] = " ".join(f[:-1] + [str(int(f[-1]) + 1)])
    bad = tmp_path / "bad.gcg"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(GCGError, match=rf"line {k + 1}: wrong score for {start} {word}: the file says "
                                       rf"\+{s + 1}, the engine scores {s} ") as exc:
        read_gcg_file(bad, golden_lexicon)
    assert exc.value.line == k + 1 and exc.value.source == str(bad)


def test_gcg_cli_reads_a_simultan_master_game(master_game, capsys):
    from engine.cli.main import main

    ev, path = master_game
    assert main(["gcg", str(path), "--no-words"]) == 0
    out = capsys.readouterr().out
    assert f"{ev.closed_rounds[-1].top.notation} +{ev.closed_rounds[-1].top.score}" in out
    assert out.splitlines()[-2].split()[-1] == str(sum(r.top.score for r in ev.closed_rounds))


# -- issue 17 item 7: end-of-game records -------------------------------------------------------------
def test_missing_went_out_line_is_refused_naming_the_line(small_lex):
    text = """#player1 a A
#player2 b B
>a: AHSU 8E HAUS +10 10
>b: EQ (EQ) -11 -11
"""
    # a played every tile (leave empty) and b's tiles are deducted: a went out, the '+11' line is missing
    with pytest.raises(GCGError, match=r"line 5: a went out with the play on line 3 \(no tiles left\) .* "
                                       r"expected '>a: \(EQ\) \+11 21'"):
        read_gcg(text, small_lex)
    assert read_gcg(text + ">a: (EQ) +11 21\n", small_lex).end_reason == "out"


def test_passes_ending_needs_every_deduction(small_lex):
    missing = HAND.replace(">ben: EKLMNT? (EKLMNT?) -12 12\n", "")
    with pytest.raises(GCGError, match=r"line 16: the game ended by 4 scoreless turns in a row, but the "
                                       r"deduction of ben's remaining tiles \(rack EKLMNT\? from the pass on "
                                       r"line 14\) is missing: expected '>ben: EKLMNT\? \(EKLMNT\?\) -12 12'"):
        read_gcg(missing, small_lex)
    none = missing.replace(">ana: AABDHIU (AABDHIU) -10 3\n", "")
    with pytest.raises(GCGError, match=r"deduction of ana's remaining tiles \(rack AABDHIU from the pass on "
                                       r"line 13\) is missing"):
        read_gcg(none, small_lex)
    other = HAND.replace(">ben: EKLMNT? (EKLMNT?) -12 12", ">ben: EKLMN? (EKLMN?) -11 13")
    with pytest.raises(GCGError, match=r"line 16: ben's remaining tiles EKLMN\? differ from the rack EKLMNT\? "
                                       r"of the pass on line 14"):
        read_gcg(other, small_lex)


def test_gcg_cli_uses_the_files_lexicon_header(small_lex, tmp_path, capsys):
    from engine.cli.main import main

    f = tmp_path / "g.gcg"
    f.write_text(HAND.replace("#lexicon small", "#lexicon nosuchlist"), encoding="utf-8")
    assert main(["gcg", str(f)]) == 2
    err = capsys.readouterr().err
    assert "'#lexicon nosuchlist', which is not a known lexicon" in err and "pass --lexicon PATH" in err
    # the header names a bundle beside the file: it is used (the small list has every word of the game)
    import shutil

    shutil.copytree(small_lex.path, tmp_path / "small.lex")
    f.write_text(HAND, encoding="utf-8")
    assert main(["gcg", str(f)]) == 0
    assert "winner: ben (ended by passes)" in capsys.readouterr().out
    # checked against the named list for real: a word missing from it is refused
    shutil.rmtree(tmp_path / "small.lex")
    build_bundle([w for w in WORDS if w != "SCORE"], tmp_path / "small.lex", source_name="test")
    assert main(["gcg", str(f)]) == 2
    assert "line 5: illegal move 8F SCORE" in capsys.readouterr().err


def test_selfplay_writes_gcg_files_atomically(golden_lexicon, tmp_path, monkeypatch, capsys):
    """issue 17 items 4 and 9: a failing write names the file, exits 2, leaves no 0-byte or temp file."""
    import os as _os

    from engine.cli.main import main

    real = _os.fsync
    n = []

    def fsync(fd):
        n.append(fd)
        if len(n) == 2:
            raise OSError(28, "No space left on device")
        return real(fd)

    monkeypatch.setattr("lexicon_tools.normalize.os.fsync", fsync)
    out = tmp_path / "games"
    rc = main(["selfplay", "--games", "3", "--out", str(out), "--lexicon", str(golden_lexicon.path),
               "--no-progress"])
    err = capsys.readouterr().err
    assert rc == 2 and f"error: cannot write '{out / 'game_00001.gcg'}': No space left on device" in err
    assert [p.name for p in out.iterdir()] == ["game_00000.gcg"]
    assert read_gcg_file(out / "game_00000.gcg", golden_lexicon).end_reason is not None


# ---------------------------------------------------------------------------
# a score pad's record: racks unknown ("..."), words agreed at the table
# ---------------------------------------------------------------------------
PAD_GCG = """#character-encoding UTF-8
#player1 Ana Ana
#player2 Ben Ben
#player3 Cal Cal
#rules home
{agreed}>Ana: ... 8H HAUS +10 10
>Ben: ... K8 .EHR +10 10
>Cal: ... - +0 0
>Ana: ... -4 +0 10
>Ben: ... 11K .AsEN +4 14
>Cal: ... H8 .ASEN +7 7
>Ana: ... 8H ....ER +8 18
>Ben: QE (QE) -11 3
>Cal: AB (AB) -4 3
>Ana: (QEAB) +15 33
"""


def test_score_pad_record_with_unknown_racks_and_an_agreed_word(golden_lexicon):
    # scores worked out by hand: HAUS (2+1+1+1) × 2 = 10; SEHR (1+1+2+1) × 2 on K11 = 10;
    # RASEN with a blank S: 1+1+0+1+1 = 4 (no premium under L11..O11 but the 2W on K11 is old);
    # HASEN 2+1+1+1+1 with the double letter on H12: +1 = 7; HAUSER with E on the double letter L8 = 8
    rec = read_gcg(PAD_GCG.format(agreed="#agreed HAUSER\n"), golden_lexicon)
    assert rec.scores == [33, 3, 3] and rec.end_reason == "out"      # SPEC: -11, -4 and +15
    assert [t.rack for t in rec.moves] == [""] * 7
    assert rec.moves[3].kind == "exchange"
    with pytest.raises(GCGError, match="line 12: illegal move 8H ....ER: HAUSER is not in the word list"):
        read_gcg(PAD_GCG.format(agreed=""), golden_lexicon)
    # an unknown rack still holds at most 7 tiles, and the set's tiles are counted
    with pytest.raises(GCGError, match="exchange of 8 tiles from a rack of 7"):
        read_gcg(PAD_GCG.format(agreed="").replace("-4 +0 10", "-8 +0 10"), None)
    # QUA across the star: (10 + 1 + 1) × 2 = 24; then a second Q above the U: QU 10 + 1 = 11, but the set has one Q
    two_q = "#player1 a a\n#player2 b b\n>a: ... 8G QUA +24 24\n>b: ... H7 Q. +11 11\n"
    assert read_gcg(two_q.split(">b")[0], None).scores == [24, 0]
    with pytest.raises(GCGError, match=r"line 4: H7 Q\.: 1 × Q but only 0 of the 1 are not on the board"):
        read_gcg(two_q, None)


def test_score_pad_export_header_is_read_by_the_gcg_cli(tmp_path, capsys):
    # the pad used to write the list's source name; the CLI now reads it as the packaged default list
    from engine.cli.main import main
    from engine.game.gcg import PACKAGED_SOURCE, resolve_lexicon_name

    assert PACKAGED_SOURCE == "packaged:default_words.txt.xz"
    assert resolve_lexicon_name("packaged:default_words.txt.xz") == "default"
    assert resolve_lexicon_name("default") == "default"
    f = tmp_path / "punkteblock.gcg"
    head = PAD_GCG.format(agreed="#agreed HAUSER\n").replace("#rules home", "#lexicon packaged:default_words.txt.xz\n"
                                                             "#tile-distribution german\n#rules home")
    f.write_text(head, encoding="utf-8")
    assert main(["gcg", str(f)]) == 0
    out = capsys.readouterr().out
    assert "winner: Ana (ended by out)" in out
    # and what the pad writes now ("default", from GET /api/rules lexicon.gcg) reads too
    f.write_text(head.replace("packaged:default_words.txt.xz", "default"), encoding="utf-8")
    assert main(["gcg", str(f)]) == 0
    assert "winner: Ana (ended by out)" in capsys.readouterr().out


def test_record_lexicon_name_is_one_the_reader_resolves(tmp_path, small_lex):
    from engine.game.gcg import PACKAGED_SOURCE, record_lexicon_name, resolve_lexicon_name

    packaged = build_bundle(WORDS, tmp_path / "default-0123456789ab.lex", source_name=PACKAGED_SOURCE)
    assert record_lexicon_name(packaged) == "default"
    assert record_lexicon_name(small_lex) == "small"                 # small.lex: its file name
    assert resolve_lexicon_name("small", small_lex.path.parent) == small_lex.path


def test_exchange_of_a_number_of_tiles_keeps_the_number(tmp_path, capsys):
    # ">Ana: ... -4 +0 10": the pad knows how many tiles, not which; read, shown and written back as -4
    from engine.cli.main import main

    text = PAD_GCG.format(agreed="")
    rec = read_gcg(text, None)
    ex = rec.moves[3]
    assert ex.kind == "exchange" and ex.exchanged == "" and ex.exchange_count == 4
    out = write_gcg(rec)
    assert ">Ana: ... -4 +0 10" in out.splitlines()
    assert read_gcg(out, None).moves[3].exchange_count == 4
    # known tiles: the count is their number, written as the tiles
    hand = read_gcg(HAND, None)
    assert hand.moves[2].exchanged == "XY" and hand.moves[2].exchange_count == 2
    assert ">ana: ADHIUXY -XY +0 18" in write_gcg(hand).splitlines()
    f = tmp_path / "pad.gcg"
    f.write_text(text, encoding="utf-8")
    assert main(["--lang", "de", "gcg", str(f), "--no-words"]) == 0
    pad = capsys.readouterr().out
    assert "Ana: tauscht 4 0" in pad and "Ana: passt" not in pad


# -- issue 26 items 5 and 6: nothing after the end of the game; a byte-order mark ----------------------
_PASSES_END = HAND.index(">ana: AABDHIU (AABDHIU) -10 3")


def test_a_move_after_the_scoreless_turns_that_ended_the_game_is_refused(small_lex):
    late = HAND[:_PASSES_END] + ">ana: AABDHIU 4H AB +19 32\n" + HAND[_PASSES_END:]
    with pytest.raises(GCGError, match=r"^line 15: ana moves after the game ended \(4 scoreless turns in a "
                                       r"row, lines 10 to 14\)") as exc:
        read_gcg(late, small_lex)
    assert exc.value.line == 15


def test_two_hundred_thousand_passes_stop_at_the_end_of_the_game(small_lex):
    """The reader stops at the first turn after the end: no replay of 200,000 lines (the
    error names the line right after the fourth pass in a row)."""
    head = HAND[:HAND.index(">ben: EKLMNT? - +0 24")]
    passes = "".join(">ben: EKLMNT? - +0 24\n>ana: AABDHIU - +0 13\n" for _ in range(100_000))
    lines_before = head.count("\n")
    with pytest.raises(GCGError, match=rf"^line {lines_before + 4}: ana moves after the game ended \(4 "
                                       rf"scoreless turns in a row, lines 10 to {lines_before + 3}\)"):
        read_gcg(head + passes, small_lex)


def test_a_move_after_a_player_went_out_is_refused(golden_lexicon):
    """A self-played game that ends with a player going out: a pass of the other player put in after
    that play is refused (the tiles off the board are only the passer's rack: the bag was empty)."""
    for i in range(40):
        g = play_game(golden_lexicon, game_seed(26, i), 2, lexicon_name="golden")
        if g.end_reason == "out":
            break
    else:
        pytest.fail("no self-played game ended by going out")
    lines = write_gcg(g).splitlines()
    # the end-of-game entries: '>q: RACK (RACK) -v t' for the other player, then '>p: (RACK) +v t'
    out_line = next(k for k, s in enumerate(lines) if s.startswith(">") and s.split()[2].startswith("("))
    last_play = out_line - 1
    mover = lines[last_play][1:].split(":")[0]
    other = lines[out_line][1:].split(":")[0]
    rack = lines[out_line].split()[1]
    total = next(s.split()[-1] for s in reversed(lines[:last_play]) if s.startswith(f">{other}:"))
    text = "\n".join(lines[:out_line] + [f">{other}: {rack} - +0 {total}"] + lines[out_line:]) + "\n"
    with pytest.raises(GCGError, match=rf"^line {out_line + 1}: {other} moves after the game ended \({mover} "
                                       rf"went out on line {last_play + 1}: the bag was empty\)"):
        read_gcg(text, golden_lexicon)
    assert read_gcg("\n".join(lines) + "\n", golden_lexicon).end_reason == "out"


def test_a_gcg_file_with_a_utf8_byte_order_mark_is_read(small_lex, tmp_path):
    f = tmp_path / "bom.gcg"
    f.write_bytes(b"\xef\xbb\xbf" + HAND.encode("utf-8"))
    rec = read_gcg_file(f, small_lex)
    assert rec.players == ["ana", "ben"] and rec.scores == [3, 12]
    assert read_gcg("\ufeff" + HAND, small_lex).turns == rec.turns
    from engine.game.gcg import header_lexicon

    f.write_bytes(b"\xef\xbb\xbf#lexicon small\n" + HAND.encode("utf-8"))
    assert header_lexicon(f) == "small"


# -- issue 26 item 7 and issue 25: a score pad's rows of points by hand, and racks typed on the pad ------
# Scores worked out by hand: HAUS over the star (2 + 1 + 1 + 1) × 2 = 10; SEHR down from the S of HAUS to
# the double word on K11: (1 + 1 + 2 + 1) × 2 = 10. Ben's rows are points typed by hand (12, then 7).
PAD_HAND = """#character-encoding UTF-8
#player1 Ana Ana
#player2 Ben Ben
#rules home
>Ana: AHSUERT 8H HAUS +10 10
#note by hand: >Ben: ... +12 12
>Ana: EHRTNNO K8 .EHR +10 20
#note by hand: >Ben: EEILNRS +7 19
>Ana: NNOTAAB - +0 20
"""


def test_rows_of_points_by_hand_and_racks_round_trip():
    rec = read_gcg(PAD_HAND, None)
    assert [(t.kind, t.player, t.score, t.total, t.line) for t in rec.turns] == [
        (Kind.PLAY, 0, 10, 10, 5), (Kind.HAND, 1, 12, 12, 6), (Kind.PLAY, 0, 10, 20, 7),
        (Kind.HAND, 1, 7, 19, 8), (Kind.PASS, 0, 0, 20, 9)]
    assert [t.rack for t in rec.moves] == ["AEHRSTU", "", "EHNNORT", "EEILNRS", "AABNNOT"]   # tile-code order
    assert rec.moves[1].move is None and rec.scores == [20, 19] and rec.end_reason is None
    out = write_gcg(rec)
    assert "#note by hand: >Ben: ... +12 12" in out.splitlines()
    assert "#note by hand: >Ben: EEILNRS +7 19" in out.splitlines()
    assert ">Ana: AEHRSTU 8H HAUS +10 10" in out.splitlines()
    assert read_gcg(out, None).turns == rec.turns
    # the board does not change with a row by hand: before Ana's SEHR it holds HAUS only
    pos = rec.position(2)
    assert pos.board.tile_count == 4 and pos.scores == (10, 12) and pos.zero_turns == 0
    assert rec.position(3).board.tile_count == 7
    assert "  2 Ben: von Hand +12" in rec.score_pad("de") and "  2 Ben: by hand +12" in rec.score_pad("en")
    # a row by hand as the very first entry (a note before any move line) reads too
    first = "#player1 a a\n#player2 b b\n#note by hand: >a: ... +30 30\n>b: ... 8H HAUS +10 10\n"
    assert [(t.kind, t.total) for t in read_gcg(first, None).turns] == [(Kind.HAND, 30), (Kind.PLAY, 10)]


@pytest.mark.parametrize("change, message", [
    (("+12 12", "-3 -3"), "line 6: points by hand -3: a turn scores 0 to 9999"),
    (("+12 12", "+10000 10000"), "line 6: points by hand +10000: a turn scores 0 to 9999"),
    (("+12 12", "+99999999999999999999999 99999999999999999999999"), "line 6: points by hand +99999999999999999999999"),
    (("+12 12", "+\u0661\u0662 \u0661\u0662"), "line 6: cannot read"),   # Arabic-Indic 12: ASCII digits only
    (("+12 12", "+12 13"), "line 6: running total 13 for Ben does not match 0 +12 = 12"),
    (("#note by hand: >Ben: ... +12", "#note by hand: >Cal: ... +12"), "line 6: player 'Cal' is not declared"),
    (("#note by hand: >Ben: ... +12 12", "#note by hand: >Ben: ... 8H +12 12"), "line 6: cannot read"),
    (("#note by hand: >Ben: ... +12 12", "#note by hand: Ben +12 12"), "line 6: cannot read"),
    (("#note by hand: >Ben: ... +12 12", "#note by hand: >Ana: ... +12 22"), "line 6: Ana moves out of turn"),
    # Ana kept E R T after HAUS (line 5): her next rack must hold them, a row by hand in between or not
    (("EHRTNNO K8", "AHRTNNO K8"), "line 7: rack AHRTNNO does not hold the tiles Ana kept on line 5 (ERT)"),
    # a rack on a row by hand is checked against the set: one Q in the set, none on the board, not two
    (("EEILNRS +7", "EEILNQQ +7"), "line 8: rack EEILNQQ: 2 × Q but only 1 of the 1 are not on the board"),
])
def test_bad_rows_by_hand_and_racks_name_the_line(change, message):
    with pytest.raises(GCGError, match=message.replace("(", r"\(").replace(")", r"\)").replace("+", r"\+")):
        read_gcg(PAD_HAND.replace(*change), None)


def test_gcg_cli_names_the_rows_it_could_not_rescore(tmp_path, capsys):
    from engine.cli.main import main

    f = tmp_path / "pad.gcg"
    f.write_text(PAD_HAND, encoding="utf-8")
    assert main(["gcg", str(f), "--no-words"]) == 0
    out = capsys.readouterr().out
    assert "not re-scored (points by hand, no placement): line 6 (Ben +12), line 8 (Ben +7)" in out
    rows = [ln.split() for ln in out.splitlines() if ln.strip()[:1].isdigit()]
    assert [r[-2:] for r in rows] == [["10", "0"], ["10", "12"], ["20", "12"], ["20", "19"], ["20", "19"]]
    assert main(["gcg", str(f), "--no-words", "--position", "3"]) == 0      # the position before Ben's 2nd row
    # HAUS on row 8, SEHR down column K from its S; Ben to move with his rack, Ana's next rack; 12 to 20
    assert capsys.readouterr().out == "15/15/15/15/15/15/15/7HAUS4/10E4/10H4/10R4/15/15/15/15 EEILNRS/AABNNOT 12/20 0\n"


def test_a_row_by_hand_of_9999_points_reads():
    rec = read_gcg(PAD_HAND.replace("+12 12", "+9999 9999").replace("+7 19", "+7 10006"), None)
    assert [t.total for t in rec.turns if t.kind == Kind.HAND] == [9999, 10006]


def test_non_ascii_digits_are_refused_in_seed_and_move_lines():
    with pytest.raises(GCGError, match=r"#seed '\u0661\u0662' is not a number"):
        read_gcg(PAD_HAND.replace("#player2", "#seed \u0661\u0662\n#player2"), None)
    with pytest.raises(GCGError, match="cannot read"):
        read_gcg(PAD_HAND.replace("HAUS +10 10", "HAUS +\u0661\u0660 \u0661\u0660"), None)


BIG = "1" * 5000  # over Python's 4300-digit limit of int(): its own message named neither the file nor the line


@pytest.mark.parametrize("change, line", [
    (("HAUS +10 10", f"HAUS +{BIG} 10"), 5),                                # a move line's score
    (("HAUS +10 10", f"HAUS +10 {BIG}"), 5),                                # its total
    (("+12 12", f"+{BIG} 12"), 6),                                          # a row of points by hand
    (("NNOTAAB - +0 20", f"NNOTAAB -{BIG[:3]} +0 -{BIG}"), 9),               # a pass or exchange line
    (("#player2", f"#seed {BIG}\n#player2"), 3),                            # the seed
])
def test_a_number_of_thousands_of_digits_is_refused_naming_the_line(change, line):
    """report-attack26b N4."""
    with pytest.raises(GCGError) as caught:
        read_gcg(PAD_HAND.replace(*change), None)
    assert caught.value.line == line and "5,000 digits" in caught.value.reason and "4300" not in str(caught.value)


def test_a_huge_number_in_german(tmp_path, capsys):
    from engine.cli.main import main

    f = tmp_path / "big.gcg"
    f.write_text(PAD_HAND.replace("HAUS +10 10", f"HAUS +{BIG} 10"), encoding="utf-8")
    assert main(["--lang", "de", "gcg", str(f), "--no-words"]) == 2
    assert capsys.readouterr().err == (f"Fehler: {f}: Zeile 5: die Zahl +11111111111… hat 5.000 Ziffern; Punkte oder "
                                       f"Stand haben höchstens 100\n")
