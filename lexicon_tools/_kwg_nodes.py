"""Decoding and encoding one graph node, for both node layouts (``docs/kwg-format.md``).

A node is one arc: tile code, *accepts*, *is_end* and the index of the child's
arc list, packed into one unsigned integer. Two layouts share the field order
(tile in the top 8 bits, then accepts, then is_end, then the arc index in the
low bits) and differ only in the width:

=========  ========  ==========  =======  ======  ==============================
layout     dtype     tile bits   accepts  is_end  arc index (most nodes)
=========  ========  ==========  =======  ======  ==============================
``kwg``    uint32    24..31      23       22      0..21 (4,194,303; wolges' KWG)
``wide``   uint64    56..63      55       54      0..53 (builder: 2**31 - 1)
=========  ========  ==========  =======  ======  ==============================

The helpers :func:`node_tile`, :func:`node_arc`, :func:`node_accepts` and
:func:`node_is_end` are called inside Numba kernels with ``kwg[i]``; Numba
picks the implementation from the node's type when it compiles a kernel for a
node array (``@overload``), so a kernel compiled for a uint32 array runs the
very expressions it ran before (``v >> 24``, ``v & 0x3FFFFF``, ...) and a
second specialisation serves uint64 arrays. Plain Python callers (tests,
:func:`lexicon_tools.kwg.iter_words`) use :class:`Layout`.
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import overload

from ._kwg_layout import KWG, LAYOUTS, WIDE, Layout, layout_of  # noqa: F401  (re-exported)


# The uint32 implementations are the expressions the kernels used before the wide layout
# existed (Numba types them as uint64 values); the uint64 ones use the wide fields.
_W_SHIFT = np.uint64(WIDE.tile_shift)
_W_ACCEPTS = np.uint64(WIDE.accepts)
_W_IS_END = np.uint64(WIDE.is_end)
_W_ARC = np.uint64(WIDE.arc_mask)
_ACCEPTS = np.uint32(KWG.accepts)
_IS_END = np.uint32(KWG.is_end)
_ARC = np.uint32(KWG.arc_mask)


def _wide(v) -> bool:
    return isinstance(v, types.Integer) and v.bitwidth == 64


def node_tile(v):
    """Tile code of node ``v`` (0 = GADDAG separator)."""
    return int(v) >> (WIDE.tile_shift if isinstance(v, np.uint64) else KWG.tile_shift)


def node_arc(v):
    """Arc index of node ``v`` (first node of the child's list; 0 = none), as int64 in kernels."""
    return int(v) & (WIDE.arc_mask if isinstance(v, np.uint64) else KWG.arc_mask)


def node_accepts(v):
    """Non-zero when following node ``v`` completes a word."""
    return int(v) & (WIDE.accepts if isinstance(v, np.uint64) else KWG.accepts)


def node_is_end(v):
    """Non-zero when node ``v`` is the last arc of its list."""
    return int(v) & (WIDE.is_end if isinstance(v, np.uint64) else KWG.is_end)


@overload(node_tile, inline="always")
def _ol_tile(v):
    if _wide(v):
        return lambda v: v >> _W_SHIFT
    return lambda v: v >> 24


@overload(node_arc, inline="always")
def _ol_arc(v):
    if _wide(v):
        return lambda v: np.int64(v & _W_ARC)
    return lambda v: np.int64(v & _ARC)


@overload(node_accepts, inline="always")
def _ol_accepts(v):
    if _wide(v):
        return lambda v: v & _W_ACCEPTS
    return lambda v: v & _ACCEPTS


@overload(node_is_end, inline="always")
def _ol_is_end(v):
    if _wide(v):
        return lambda v: v & _W_IS_END
    return lambda v: v & _IS_END
