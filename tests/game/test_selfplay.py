"""Self-play: reproducible from the seed, static best-score players, GCG output, summary, CLI."""

from __future__ import annotations

import json

import numpy as np
import pytest

from engine.cli.main import main
from engine.game.game import TOURNAMENT, Kind
from engine.game.gcg import read_gcg, read_gcg_file, write_gcg
from engine.movegen.generator import generate_moves
from engine.game.selfplay import SelfPlayStats, game_seed, play_game, selfplay
from lexicon_tools.alphabet import german

A = german()


def test_game_seed_stable():
    assert game_seed(0, 0) == game_seed(0, 0)
    assert len({game_seed(s, i) for s in range(3) for i in range(50)}) == 150
    assert game_seed(1, 0) == 3717377837946358015  # numpy SeedSequence is stable across versions
    assert 0 <= game_seed(-5, 3) < 2 ** 63


def test_reproducible_from_seed(golden_lexicon):
    a = write_gcg(play_game(golden_lexicon, 12345))
    b = write_gcg(play_game(golden_lexicon, 12345))
    c = write_gcg(play_game(golden_lexicon, 12346))
    assert a == b and a != c


@pytest.mark.parametrize("players", [2, 3, 4])
def test_games_finish_and_check_out(golden_lexicon, players):
    for i in range(4):
        g = play_game(golden_lexicon, game_seed(7, i), players)
        assert g.over and g.end_reason in ("out", "passes")
        assert g.tile_total() == 102
        rec = read_gcg(write_gcg(g), golden_lexicon)  # re-scores every move, checks totals and racks
        assert rec.scores == g.scores
        if g.end_reason == "out":
            assert sum(t.score for t in g.turns if t.kind == Kind.OUT) == \
                -sum(t.score for t in g.turns if t.kind == Kind.RACK)


def test_players_play_the_top_score(golden_lexicon):
    g = play_game(golden_lexicon, 77)
    rec = g.record()
    for k, t in enumerate(rec.moves):
        pos = rec.position(k)
        ml = generate_moves(pos.board, pos.rack, golden_lexicon)
        if t.kind == Kind.PLAY:
            assert t.score == int(ml.scores.max())
            assert t.move.notation == ml.top(1)[0].notation  # ties broken by notation
        else:
            assert len(ml) == 0  # no placement: exchange or pass


def test_tournament_selfplay(golden_lexicon):
    stats = selfplay(golden_lexicon, 3, seed=4, rules=TOURNAMENT)
    assert stats.games == 3 and stats.players == 2
    with pytest.raises(ValueError, match="2 to 2 players"):
        selfplay(golden_lexicon, 1, players=3, rules=TOURNAMENT)
    with pytest.raises(ValueError, match="at least 1"):
        selfplay(golden_lexicon, 0)


def test_selfplay_run_writes_gcg_and_summary(golden_lexicon, tmp_path):
    seen = []
    stats = selfplay(golden_lexicon, 5, seed=3, out_dir=tmp_path / "out", on_game=lambda i, g: seen.append(g))
    files = sorted((tmp_path / "out").glob("*.gcg"))
    assert [f.name for f in files] == [f"game_{i:05d}.gcg" for i in range(5)]
    for f, g in zip(files, seen):
        rec = read_gcg_file(f, golden_lexicon)
        assert rec.turns == g.turns and rec.seed == g.seed
        assert "run seed 3, game" in rec.notes["description"]
    s = stats.summary()
    assert s["games"] == 5 and len(s["mean_score"]) == 2
    assert np.isclose(sum(s["wins"]) , 5)
    assert s["mean_score"][0] == pytest.approx(np.mean([g.scores[0] for g in seen]), abs=0.01)
    bingos = sum(t.bingo for g in seen for t in g.turns)
    assert s["bingos_per_game"] == pytest.approx(bingos / 5, abs=1e-3)
    moves = sum(t.is_turn for g in seen for t in g.turns)
    assert s["moves_per_game"] == pytest.approx(moves / 5, abs=0.01)
    assert s["games_per_second"] > 0
    assert "games/s" in stats.format()
    again = selfplay(golden_lexicon, 5, seed=3)
    assert again.summary()["mean_score"] == s["mean_score"]


def test_stats_empty():
    assert SelfPlayStats().summary()["games"] == 0


# -- CLI --------------------------------------------------------------------------------------
def test_cli_selfplay_json(golden_lexicon, tmp_path, capsys):
    rc = main(["selfplay", "--games", "3", "--seed", "9", "--out", str(tmp_path), "--lexicon",
               str(golden_lexicon.path), "--json", "--no-progress"])
    out = capsys.readouterr().out
    assert rc == 0
    s = json.loads(out)
    assert s["games"] == 3 and {"mean_score", "bingos_per_game", "moves_per_game", "games_per_second"} <= set(s)
    assert len(list(tmp_path.glob("*.gcg"))) == 3


def test_cli_selfplay_text(golden_lexicon, capsys):
    rc = main(["selfplay", "--games", "2", "--players", "3", "--lexicon", str(golden_lexicon.path),
               "--no-progress"])
    out = capsys.readouterr().out
    assert rc == 0 and "p3: mean score" in out and "bingos/game" in out


@pytest.mark.parametrize("argv,msg", [
    (["selfplay", "--games", "0"], "--games must be at least 1"),
    (["selfplay", "--games", "1", "--lexicon", "/nonexistent/lex"], "error:"),
    (["selfplay", "--games", "1", "--players", "3", "--rules", "tournament"], "2 to 2 players"),
])
def test_cli_selfplay_errors(argv, msg, capsys):
    rc = main(argv)
    err = capsys.readouterr().err
    assert rc == 2 and err.startswith("error:") and msg in err and "Traceback" not in err


def test_cli_gcg(golden_lexicon, tmp_path, capsys):
    g = play_game(golden_lexicon, 5)
    f = tmp_path / "g.gcg"
    f.write_text(write_gcg(g), encoding="utf-8")
    assert main(["gcg", str(f), "--lexicon", str(golden_lexicon.path)]) == 0
    out = capsys.readouterr().out
    assert "winner:" in out or "draw:" in out
    assert main(["gcg", str(f), "--no-words", "--position", "3"]) == 0
    cgp = capsys.readouterr().out.strip()
    assert cgp == g.record().position(3).to_cgp()
    lines = f.read_text(encoding="utf-8").splitlines()
    i = next(k for k, ln in enumerate(lines) if ln.startswith(">"))
    head, score, total = lines[i].rsplit(" ", 2)
    lines[i] = f"{head} +{int(score) + 1} {int(total) + 1}"
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["gcg", str(f), "--no-words"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and f"line {i + 1}: wrong score" in err and "the engine scores" in err
    assert main(["gcg", str(tmp_path / "none.gcg"), "--no-words"]) == 2
    assert main(["gcg", str(f), "--no-words", "--position", "999"]) == 2
