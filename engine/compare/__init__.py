"""The cross-generator checker: our move lists against other generators' (``python -m engine compare``).

``peers`` reads the output of wolges, MAGPIE, Macondo and Quackle harnesses; ``checker`` runs them
and compares move for move (docs/compare.md).
"""
