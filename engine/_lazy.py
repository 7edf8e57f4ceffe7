"""Lazy public names for the package ``__init__`` modules.

A package's ``__init__`` lists its public API as ``{name: "module"}``; a name is imported from
its module on first use (PEP 562), so ``import engine`` or ``python -m engine best`` pays only for
what it touches (the command line's start-up imports neither Numba nor the web stack).
"""

from __future__ import annotations

import importlib
from typing import Callable


def lazy_api(package: str, names: dict[str, str]) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for ``package`` exporting ``names``.

    Args:
        package: the package's ``__name__``.
        names: public name -> module that defines it, relative to ``package`` (``"board"``) or absolute
            (``"engine.position.cgp"``); a value ``"module:attr"`` exports ``attr`` under another name.

    Returns:
        the module-level ``__getattr__`` (raises ``AttributeError`` for any other name) and ``__dir__``.
    """

    def __getattr__(name: str):
        try:
            target = names[name]
        except KeyError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        mod, _, attr = target.partition(":")
        module = importlib.import_module(mod if mod.startswith("engine") or mod.startswith("lexicon_tools")
                                         else f"{package}.{mod}")
        value = getattr(module, attr or name)
        return value

    def __dir__() -> list[str]:
        return sorted(names)

    return __getattr__, __dir__
