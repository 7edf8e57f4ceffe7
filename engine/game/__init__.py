"""The game: rules, a game as the score pad sees it, games played in kernels, self-play, GCG, Together.

The static players live here too (``equity``: static equity with the leave table), since the kernel
game plays them.
"""

from engine._lazy import lazy_api

_API = {
    "Game": "game", "GameError": "game", "Rules": "game", "RULES": "game", "HOME": "game",
    "rules_by_name": "game", "GameRecord": "game", "Turn": "game",
    "EquityParams": "equity", "Candidate": "equity", "best_equity": "equity", "rank_moves": "equity",
    "position_candidates": "equity",
    "KernelGame": "kernel_game", "play_kernel_game": "kernel_game", "DecisionLog": "kernel_game",
    "play_game": "selfplay", "play_equity_game": "selfplay", "selfplay": "selfplay", "match_summary": "selfplay",
    "read_gcg_file": "gcg", "write_gcg_file": "gcg",
}
__all__ = sorted(_API)
__getattr__, __dir__ = lazy_api(__name__, _API)
