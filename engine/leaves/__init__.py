"""Leave values: the table of what a kept leave is worth (KLV files), with its Numba kernels.

Below the move generator, whose best-by-equity kernels read leave values. How a table is made (the
self-play leave pipeline) is analysis: :mod:`engine.analysis.leave_selfplay`.
"""

from engine._lazy import lazy_api

_API = {
    "LeaveTable": "table", "LeaveError": "table", "LeaveIndex": "table", "leave_index": "table",
    "default_table": "table", "zero_table": "table", "read_klv": "table", "write_klv": "table",
}
__all__ = sorted(_API)
__getattr__, __dir__ = lazy_api(__name__, _API)
