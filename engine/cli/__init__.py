"""The command line, ``python -m engine`` (one module per command group).

``main`` holds ``moves``/``best``/``score`` and the dispatcher; ``analyze``, ``simulate``,
``endgame``, ``infer`` and ``game`` add their commands when asked for (the director's and the web's
commands live in :mod:`engine.director.cli` and :mod:`engine.web.cli`). docs/architecture.md says how
to add one.
"""


def main(argv=None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); returns the exit code."""
    from engine.cli.main import main as _main

    return _main(argv)
