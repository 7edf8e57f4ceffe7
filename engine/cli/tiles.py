"""CLI plug-in (see :data:`engine.cli.main.PLUGINS`): ``tiles``.

* ``python -m engine tiles [--json]`` — the German tile set
  (:func:`lexicon_tools.alphabet.german`, data in ``lexicon_tools/data/german.json``):
  one line per tile, ``LETTER COUNT POINTS``, in code order (German sort order),
  the blank last as ``?``; ``--json`` prints one object
  ``{"tiles": [{"letter": "A", "count": 5, "points": 1}, ...], "total": 102}``.
"""

from __future__ import annotations

import json
import sys


def tile_rows(alphabet) -> list[dict]:
    """``[{"letter", "count", "points"}, ...]``: the letters in code order, then the blank (``?``)."""
    codes = list(range(1, alphabet.size + 1)) + [0]
    return [{"letter": alphabet.letter(c), "count": int(alphabet.counts[c]), "points": int(alphabet.values[c])}
            for c in codes]


def cmd_tiles(args) -> int:
    """``tiles``: print the tile set."""
    from lexicon_tools.alphabet import german

    alphabet = german()
    rows = tile_rows(alphabet)
    if args.json:
        json.dump({"tiles": rows, "total": alphabet.total_tiles}, sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
        return 0
    for r in rows:
        print(f"{r['letter']} {r['count']:>2} {r['points']:>2}")
    return 0


def add_parser(subparsers) -> None:
    sp = subparsers.add_parser("tiles", help="the German tile set: letter, count, points")
    sp.add_argument("--json", action="store_true", help="print one JSON object")
    sp.set_defaults(func=cmd_tiles)
