"""A self-play record with one worse move, for the review's tests (tests/analysis/test_review.py, tests/web)."""

from __future__ import annotations

from engine.game import equity as E
from engine.game.game import Game
from engine.game.gcg import write_gcg
from engine.leaves.table import default_table

BAD_TURN = 6


def _game_with_a_worse_move(lexicon, seed: int = 11, bad_turn: int = BAD_TURN):
    """(GCG text, played notation, independent loss) of an equity self-play game with turn
    ``bad_turn`` replaced by the first legal play that loses at least 10 points of equity."""
    table = default_table()
    g = Game(["ana", "ben"], lexicon, seed=seed, keep_undo=False, lexicon_name="golden")
    injected = None
    k = 0
    while not g.over:
        if k == bad_turn:
            bag = len(g.bag)
            rack = g.racks[g.to_move]
            best = E.best_equity(g.board, rack, lexicon, bag=bag, n=1, table=table, checks=g.checks)[0]
            worse = [c for c in E.rank_moves(g.board, rack, lexicon, bag=bag, table=table)
                     if c.kind == "play" and best.equity - c.equity >= 10.0]
            c = min(worse, key=lambda c: (best.equity - c.equity, c.notation))
            # independent figure: score + leave term of the tiles kept, against best_equity's best
            loss = best.equity - (c.score + E.leave_term(table, c.leave, bag))
            injected = (c.notation, loss, best.notation)
            E.apply(g, c)
        else:
            E.apply(g, E.choose(g, table))
        k += 1
    return write_gcg(g), injected




def best_from_moves_answer(ans: dict, state: dict) -> str:
    """The best move by equity in an ``/api/moves`` answer ``ans``: its best placement or its best exchange
    (the review ranks both), else exchange the whole rack or pass (``state`` is the /spielen game state)."""
    options = [(m["equity"], m["move"]) for m in ans["moves"][:1] + ans["best_exchanges"][:1]]
    if options:
        return max(options)[1]
    return f"-{state['rack']}" if state["can_exchange"] else "-"
