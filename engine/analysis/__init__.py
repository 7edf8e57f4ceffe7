"""Analysis: simulation, inference, the endgame solver, the pre-endgame, the answer for a position's
phase, and the self-play pipeline that makes leave tables.

Kernels: ``_endgame`` (negamax), ``_wordprune`` (the endgame's pruned lexicon), ``_inference``;
``_sim_ray`` runs simulation chunks on Ray.
"""

from engine._lazy import lazy_api

_API = {
    "simulate": "simulation", "infer": "inference", "solve": "endgame", "endgame_position": "endgame",
    "preendgame": "preendgame", "phase_answer": "phase", "phase_of": "phase", "warm_up": "phase",
}
__all__ = sorted(_API)
__getattr__, __dir__ = lazy_api(__name__, _API)
