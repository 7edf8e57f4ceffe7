"""German Scrabble engine: board, rules as data, Numba GADDAG move generation, analysis."""

__version__ = "0.1.0"
