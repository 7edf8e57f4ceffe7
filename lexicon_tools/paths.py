"""Where the project keeps what it builds on a user's machine.

A leaf module (it imports nothing of the project), so that every layer can ask for the cache
directory without importing the lexicon bundle.
"""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    """Where built default lexicons and ahead-of-time compiled kernels are kept.

    ``$GSE_CACHE_DIR`` when set, else ``$XDG_CACHE_HOME/german-scrabble-engine`` (default
    ``~/.cache/german-scrabble-engine``). The directory is not created here.
    """
    env = os.environ.get("GSE_CACHE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "german-scrabble-engine"
