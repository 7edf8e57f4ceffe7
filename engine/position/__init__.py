"""Position and notation: the board, CGP, moves and their notation, scoring and the word checker.

The lowest layer of the engine: it knows the rules of placement and scoring (SPEC.md) and imports
only :mod:`lexicon_tools`. ``_rows`` holds the layout of a move record that the generator's kernels
write and :class:`MoveList` reads.
"""

from engine._lazy import lazy_api

_API = {
    "Board": "board", "Layout": "board", "ACROSS": "board", "DOWN": "board",
    "Position": "cgp", "CGPError": "cgp", "parse_cgp": "cgp", "format_cgp": "cgp",
    "Move": "moves", "MoveList": "moves",
    "IllegalMove": "scorer", "ScoredMove": "scorer", "check_move": "scorer", "score_placement": "scorer",
    "parse_move": "scorer",
}
__all__ = sorted(_API)
__getattr__, __dir__ = lazy_api(__name__, _API)
