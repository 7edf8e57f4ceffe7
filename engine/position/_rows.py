"""The layout of the move generator's output rows (no Numba: read by :mod:`engine.position.moves`).

Output rows (int32, ``OUT_WIDTH`` columns): score, row, col (of the first
square of the main word, 0-based), direction (0 across, 1 down), main word
length, tiles placed, then one column per square of the main word: the placed
letter code (``| BLANK_FLAG`` for a blank) or 0 for a tile already on the
board. The kernels of :mod:`engine.movegen._movegen` write them; keeping the layout
here lets a command that only reads moves (e.g. ``score``) start without
importing Numba.
"""

BLANK_FLAG = 0x40
N = 15
OUT_SCORE, OUT_ROW, OUT_COL, OUT_DIR, OUT_LEN, OUT_NTILES, OUT_TILES = 0, 1, 2, 3, 4, 5, 6
OUT_WIDTH = OUT_TILES + N
