#!/usr/bin/env python3
"""Measure a word list's precision and recall (issue 16; SPEC.md "The word list (lexicon)").

* ``sample LIST --seed N --size 400``: print a fixed-seed random sample of the
  list (``random.Random(N).sample(sorted(words), size)``, then sorted), one word
  a line, to be judged by hand.
* ``score [LIST] [--precision TSV ...] [--recall TSV ...] [--names TSV ...]
  [--lookalikes TSV ...]``: precision = share of a judged sample with verdict
  ``ok``; recall = share of the recall forms that LIST contains (per class tag
  as well); names = share of a proper-name sample that LIST contains (must be
  0: every entry is a name only); look-alikes = share of a sample of common
  nouns that look like names (demonyms, months, units, languages, animals)
  that LIST keeps. Without any sample option every sample committed in
  ``tests/data`` is scored (``DEFAULT_SAMPLES``); without LIST the packaged
  list ``lexicon_tools/data/default_words.txt.xz`` is scored. The seed and
  the command that drew each random sample are printed from its header.

Judged sample TSV: ``word<TAB>ok|reject<TAB>reason`` (reason for rejects).
Recall, names and look-alike TSV: ``word<TAB>class<TAB>note``. Lines starting
with ``#`` are comments. LIST is a ``.txt`` or ``.txt.xz`` word list
(normalised, one word a line).

Exit status: 0, or 2 with a message when a file cannot be read.
"""

from __future__ import annotations

import argparse
import lzma
import random
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
DEFAULT_LIST = ROOT / "lexicon_tools" / "data" / "default_words.txt.xz"
# every judged sample in the repository, by kind (README "The default lexicon")
DEFAULT_SAMPLES = {
    "precision": [DATA / "wordlist_precision_sample.tsv", DATA / "wordlist_precision_sample_old.tsv",
                  DATA / "wordlist_precision_sample_2.tsv"],
    "recall": [DATA / "wordlist_recall_forms.tsv", DATA / "wordlist_recall_forms_2.tsv"],
    "names": [DATA / "wordlist_names_heldout.tsv", DATA / "wordlist_names_fresh.tsv",
              DATA / "wordlist_names_fresh3.tsv", DATA / "wordlist_names_fresh4.tsv",
              DATA / "wordlist_names_fresh5.tsv", DATA / "wordlist_names_fresh6.tsv"],
    "lookalikes": [DATA / "wordlist_name_lookalikes.tsv"],
}


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


def sample_seed(path: Path) -> str | None:
    """The ``--seed N`` written in a sample's header comment, or None for a hand-written sample."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        m = re.search(r"--seed (\d+)", line)
        if m:
            return m.group(1)
    return None


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


def _pct(a: int, b: int) -> str:
    return f"{a}/{b} = {100 * a / b:.1f} %" if b else "0/0"


def score(words: set[str], samples: dict[str, list[Path]]) -> list[str]:
    """Report lines for ``words`` against every sample file, by kind (see the module docstring)."""
    out: list[str] = []
    for path in samples.get("precision", []):
        rows = read_tsv(path)
        ok, n = precision(rows)
        absent = [r[0] for r in rows if r[0] not in words]
        seed = sample_seed(path)
        out.append(f"precision {path.name} (seed {seed or '-'}): {_pct(ok, n)}"
                   + (f" ({len(absent)} sample words not in this list)" if absent else ""))
        kept = [r[0] for r in rows if r[1] == "reject" and r[0] in words]
        out.append("  rejected: " + " ".join(r[0] for r in rows if r[1] == "reject")
                   + (f"; still in the list: {' '.join(kept)}" if kept else ""))
    for path in samples.get("recall", []):
        rows = read_tsv(path)
        found, total, per = recall(words, rows)
        out.append(f"recall {path.name}: {_pct(found, total)}")
        out.append("  " + ", ".join(f"{cls} {h}/{t}" for cls, (h, t) in per.items()))
        missing = [r[0] for r in rows if r[0] not in words]
        if missing:
            out.append("  missing: " + " ".join(missing))
    for path in samples.get("names", []):
        rows = read_tsv(path)
        found, total, per = recall(words, rows)
        out.append(f"names {path.name}: {_pct(found, total)} in the list (target <= 2 %)")
        if found:
            out.append("  in the list: " + " ".join(r[0] for r in rows if r[0] in words))
    for path in samples.get("lookalikes", []):
        rows = read_tsv(path)
        found, total, per = recall(words, rows)
        out.append(f"look-alikes {path.name}: {_pct(found, total)} kept")
        if found < total:
            out.append("  removed: " + " ".join(r[0] for r in rows if r[0] not in words))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("sample", help="print a fixed-seed random sample of LIST")
    s.add_argument("list", type=Path)
    s.add_argument("--seed", type=int, required=True)
    s.add_argument("--size", type=int, default=400)
    c = sub.add_parser("score", help="score LIST against judged samples (default: all in tests/data)")
    c.add_argument("list", type=Path, nargs="?", default=DEFAULT_LIST)
    for kind in DEFAULT_SAMPLES:
        c.add_argument(f"--{kind}", type=Path, action="append", metavar="TSV")
    args = ap.parse_args(argv)
    try:
        words = load_list(args.list)
        if args.cmd == "sample":
            print("\n".join(draw_sample(words, args.seed, args.size)))
            return 0
        samples = {k: getattr(args, k) for k in DEFAULT_SAMPLES if getattr(args, k)}
        if not samples:
            samples = {k: [p for p in v if p.exists()] for k, v in DEFAULT_SAMPLES.items()}
        lines = score(words, samples)
    except (OSError, lzma.LZMAError, UnicodeDecodeError, ValueError, IndexError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"list: {args.list} ({len(words)} words)")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
