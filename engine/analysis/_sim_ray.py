"""Ray backend of :func:`engine.analysis.simulation.simulate`: the same task function on a Ray cluster.

Only imported for ``backend="ray"``; Ray is an optional dependency
(``pip install 'german-scrabble-engine[ray]'``).

The :class:`~engine.analysis.simulation.SimContext` is put into the object store once;
every task is :func:`engine.analysis.simulation.run_chunk` on ``(candidate, start,
stop)``, so a Ray run computes exactly the iterations a local run computes.
Each worker process loads the lexicon from ``ctx.lexicon_path`` on its first
task and keeps it (with the board's cross-checks) for the rest of the run:
on a multi-node cluster the lexicon must exist at that path on every node
(or build it there with ``python -m lexicon_tools build``).
"""

from __future__ import annotations

from typing import Callable, Iterator, Sequence

import numpy as np

import ray


def ensure_ray(num_cpus: int, address: str | None = None) -> None:
    """Connect to Ray: ``address`` if given, else the running instance, else a new local one with ``num_cpus`` CPUs."""
    if ray.is_initialized():
        return
    if address is not None:
        ray.init(address=address, ignore_reinit_error=True)
    else:
        ray.init(num_cpus=num_cpus, include_dashboard=False, ignore_reinit_error=True, log_to_driver=False)


@ray.remote
def _chunk_task(task: Callable, ctx, cand: int, start: int, stop: int):
    return (cand, start, stop), task(ctx, cand, start, stop)


class RayRunner:
    """Runs batches of chunks as Ray tasks, at most ``workers`` in flight; yields them as they finish."""

    def __init__(self, ctx, task: Callable, workers: int, address: str | None = None):
        """``task(ctx, candidate, start, stop)`` runs one chunk (:func:`engine.analysis.simulation.run_chunk`,
        passed in so that this module does not import the simulation that imports it)."""
        if ctx.lexicon_path is None:
            raise ValueError("the Ray backend loads the lexicon in each worker: the lexicon needs a path")
        ensure_ray(workers, address)
        self.workers = workers
        self.ref = ray.put(ctx)
        self.task = task

    def run(self, chunks: Sequence[tuple[int, int, int]]) -> Iterator[tuple[tuple[int, int, int], np.ndarray]]:
        queue = list(chunks)
        pending = []
        limit = max(1, 2 * self.workers)
        while queue or pending:
            while queue and len(pending) < limit:
                c, s, e = queue.pop(0)
                pending.append(_chunk_task.remote(self.task, self.ref, c, s, e))
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                yield ray.get(ref)

    def close(self) -> None:
        self.ref = None
