"""Move generation: every legal move, or the best ones, by a GADDAG walk compiled with Numba.

``generator`` validates and wraps; the kernels are ``_movegen`` (best-first), ``_allmoves`` (all
moves) and ``_wordmap`` (MAGPIE-style word maps); ``_dispatch`` picks the JIT or the ahead-of-time
compiled entry kernels (``_aot``).
"""

from engine._lazy import lazy_api

_API = {
    "generate_moves": "generator", "generate_moves_many": "generator", "best_moves": "generator", "best_move_list": "generator",
    "exchanges": "generator", "position_moves": "generator", "CrossChecks": "generator",
    "word_map": "generator",
}
__all__ = sorted(_API)
__getattr__, __dir__ = lazy_api(__name__, _API)
