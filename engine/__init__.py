"""German Scrabble engine: board, rules as data, Numba GADDAG move generation, analysis.

The names a Python user reaches for first (imported on first use)::

    import engine
    lexicon = engine.load_lexicon()                    # the default German lexicon
    position = engine.parse_cgp(cgp)                   # a CGP string
    moves = engine.generate_moves(position.board, position.rack, lexicon)
    engine.check_move(position.board, "8H HAUS", lexicon)   # words, points, or IllegalMove

Packages, lowest layer first (docs/architecture.md): :mod:`engine.position`, :mod:`engine.leaves`,
:mod:`engine.movegen`, :mod:`engine.game`, :mod:`engine.analysis` and :mod:`engine.compare`,
:mod:`engine.director`, :mod:`engine.web`, :mod:`engine.cli`.
"""

from engine._lazy import lazy_api

__version__ = "0.2.0"

_API = {
    "load_lexicon": "lexicon_tools.bundle",
    "Board": "engine.position.board", "Position": "engine.position.cgp", "parse_cgp": "engine.position.cgp",
    "format_cgp": "engine.position.cgp", "Move": "engine.position.moves", "MoveList": "engine.position.moves",
    "check_move": "engine.position.scorer", "IllegalMove": "engine.position.scorer",
    "generate_moves": "engine.movegen.generator", "best_moves": "engine.movegen.generator",
    "best_equity": "engine.game.equity", "Game": "engine.game.game", "read_gcg_file": "engine.game.gcg",
    "analyze": "engine.analysis.phase:phase_answer",
}
__all__ = sorted(_API)
__getattr__, __dir__ = lazy_api(__name__, _API)
