"""A check both command lines run after ``argparse``: an option of one value given as ``--OPT=--``.

Python 3.11+ reads an attached ``--`` as "end of options" and stores an empty list as the option's
value, which the command would then use as a path or a position and fail with a traceback.
"""

from __future__ import annotations

import argparse

__all__ = ["empty_value_option"]


def empty_value_option(parser: argparse.ArgumentParser, args: argparse.Namespace) -> tuple[argparse.ArgumentParser, str] | None:
    """The (sub)parser and the option (``"--cgp"``) that argparse filled with ``[]``, else ``None``.

    Looks at ``parser``'s own options and those of the subcommand chosen in ``args`` (the
    subparsers' ``dest``); only options that take exactly one value (``nargs`` unset) are checked.
    """
    chosen = [parser]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            sub = action.choices.get(getattr(args, action.dest, None) or "")
            if sub is not None:
                chosen.append(sub)
    for p in chosen:
        for action in p._actions:
            if (isinstance(action, argparse._StoreAction) and action.nargs is None and action.option_strings
                    and getattr(args, action.dest, None) == []):
                return p, "/".join(action.option_strings)
    return None
