"""The node layouts of a graph (``kwg``: uint32, ``wide``: uint64) for plain Python: no Numba here.

:mod:`lexicon_tools._kwg_nodes` (the decoding helpers inside kernels) re-exports
these; the builder's Python side imports them from here so that a build with
the ahead-of-time compiled kernels (``lexicon_tools._build_aot``) never imports
Numba. Field table: :mod:`lexicon_tools._kwg_nodes`, ``docs/kwg-format.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Layout:
    """One node layout: dtype and the bit fields (see the module docstring).

    Attributes:
        name: ``"kwg"`` or ``"wide"`` (the bundle's ``meta.json`` ``kwg.layout``).
        dtype: numpy dtype of the node array (``uint32`` / ``uint64``).
        tile_shift: the tile code is ``v >> tile_shift``.
        accepts, is_end: the flag bits.
        arc_mask: the arc index is ``v & arc_mask``.
        max_nodes: most nodes a graph of this layout may have (the KWG's 22-bit
            field; for ``wide`` the builder's int32 state and arc indices).
        suffix: file name ending of a bare graph file (``.kwg`` / ``.kwg64``).
    """

    name: str
    dtype: type
    tile_shift: int
    accepts: int
    is_end: int
    arc_mask: int
    max_nodes: int
    suffix: str

    @property
    def itemsize(self) -> int:
        """Bytes per node (4 or 8)."""
        return np.dtype(self.dtype).itemsize

    def tile(self, v) -> int:
        return int(v) >> self.tile_shift

    def arc(self, v) -> int:
        return int(v) & self.arc_mask


KWG = Layout("kwg", np.uint32, 24, 1 << 23, 1 << 22, (1 << 22) - 1, (1 << 22) - 1, ".kwg")
WIDE = Layout("wide", np.uint64, 56, 1 << 55, 1 << 54, (1 << 54) - 1, (1 << 31) - 1, ".kwg64")
LAYOUTS = {KWG.name: KWG, WIDE.name: WIDE}


def layout_of(nodes: np.ndarray) -> Layout:
    """The layout of a node array, by its dtype.

    Raises:
        ValueError: neither uint32 nor uint64 (or not 1-D).
    """
    if nodes.ndim == 1 and nodes.dtype == np.uint32:
        return KWG
    if nodes.ndim == 1 and nodes.dtype == np.uint64:
        return WIDE
    raise ValueError(f"expected a 1-D uint32 (KWG) or uint64 (wide) node array, got {nodes.dtype} {nodes.shape}")
