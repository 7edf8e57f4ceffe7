"""The command line, ``python -m engine`` (one module per command group).

``main`` holds ``moves``/``best``/``score`` and the dispatcher; ``analyze``, ``simulate``,
``endgame``, ``infer``, ``game`` and ``tiles`` add their commands when asked for (the director's and the web's
commands live in :mod:`engine.director.cli` and :mod:`engine.web.cli`). docs/architecture.md says how
to add one. The entry point is :func:`engine.cli.main.main`.
"""

