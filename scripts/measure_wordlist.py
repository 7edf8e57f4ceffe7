#!/usr/bin/env python3
"""Measure a word list's precision and recall (issue 16; SPEC.md "The word list (lexicon)").

* ``sample LIST --seed N --size 400``: print a fixed-seed random sample of the
  list (``random.Random(N).sample(sorted(words), size)``, then sorted), one word
  a line, to be judged by hand.
* ``score LIST --precision TSV --recall TSV``: precision = share of the judged
  sample with verdict ``ok``; recall = share of the recall forms that LIST
  contains (per class tag as well).

Judged sample TSV: ``word<TAB>ok|reject<TAB>reason`` (reason for rejects).
Recall TSV: ``word<TAB>class<TAB>note``. Lines starting with ``#`` are comments.
LIST is a ``.txt`` or ``.txt.xz`` word list (normalised, one word a line).
"""

from __future__ import annotations

import argparse
import lzma
import random
import sys
from collections import Counter
from pathlib import Path


def load_list(path: Path) -> set[str]:
    """Words of a normalised list (.txt or .txt.xz)."""
    opener = lzma.open if path.suffix == ".xz" else open
    with opener(path, "rt", encoding="utf-8") as fh:
        return {line.strip() for line in fh if line.strip()}


def read_tsv(path: Path) -> list[list[str]]:
    """Rows of a TSV file, comments and blank lines skipped."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            rows.append(line.split("\t"))
    return rows


def draw_sample(words: set[str], seed: int, size: int) -> list[str]:
    """The fixed-seed sample: ``random.Random(seed).sample(sorted(words), size)``, sorted."""
    return sorted(random.Random(seed).sample(sorted(words), size))


def precision(rows: list[list[str]]) -> tuple[int, int]:
    """(number judged ok, number judged) of a judged sample."""
    verdicts = [r[1] for r in rows]
    bad = [v for v in verdicts if v not in ("ok", "reject")]
    if bad:
        raise ValueError(f"unknown verdicts: {sorted(set(bad))}")
    return verdicts.count("ok"), len(verdicts)


def recall(words: set[str], rows: list[list[str]]) -> tuple[int, int, dict[str, tuple[int, int]]]:
    """(found, total, {class: (found, total)}) of the recall forms in ``words``."""
    tot: Counter[str] = Counter()
    hit: Counter[str] = Counter()
    for r in rows:
        tot[r[1]] += 1
        hit[r[1]] += r[0] in words
    return sum(hit.values()), sum(tot.values()), {c: (hit[c], tot[c]) for c in sorted(tot)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("sample")
    s.add_argument("list", type=Path)
    s.add_argument("--seed", type=int, required=True)
    s.add_argument("--size", type=int, default=400)
    c = sub.add_parser("score")
    c.add_argument("list", type=Path)
    c.add_argument("--precision", type=Path)
    c.add_argument("--recall", type=Path)
    args = ap.parse_args(argv)
    words = load_list(args.list)
    if args.cmd == "sample":
        print("\n".join(draw_sample(words, args.seed, args.size)))
        return 0
    print(f"list: {args.list} ({len(words)} words)")
    if args.precision:
        rows = read_tsv(args.precision)
        missing = [r[0] for r in rows if r[0] not in words]
        ok, n = precision(rows)
        print(f"precision: {ok}/{n} = {100 * ok / n:.1f} %" + (f" ({len(missing)} sample words not in this list)" if missing else ""))
        print("rejected:", " ".join(r[0] for r in rows if r[1] == "reject"))
    if args.recall:
        found, total, per = recall(words, read_tsv(args.recall))
        print(f"recall: {found}/{total} = {100 * found / total:.1f} %")
        for cls, (h, t) in per.items():
            print(f"  {cls}: {h}/{t}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
