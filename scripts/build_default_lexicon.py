#!/usr/bin/env python3
"""Build the project's default German word list (SPEC.md "The word list (lexicon)").

Source: Debian package ``wngerman`` (igerman98 by Björn Jacke, GPL-2 or GPL-3),
file ``/usr/share/dict/ngerman`` (UTF-8, one entry per line, case-sensitive).
Install it with ``apt-get install -y wngerman``. The committed output was made
from wngerman 20161207-11.

Method (documented so the list can be rebuilt and audited):

1. Read the list with :func:`lexicon_tools.normalize.read_lines`.
2. Drop abbreviations recognisable from the raw, case-sensitive spelling:

   a. ALL CAPS with at least 2 letters (``ABC``, ``ADAC``, ``AG``) and, more
      generally, any entry whose first two characters are capitals (``PCs``,
      ``ACLs``, ``GHz``, ``MBit``, ``KPdSU``): German words never start so;
   b. entries with a dot (``z.B.``) -- rejected by normalisation ("dot");
      igerman98 writes abbreviations without dots, so there are none;
   c. a lowercase letter followed by an uppercase one (``GmbH``, ``kWh``,
      ``eBay``, ``YouTube``, ``McDonald``): abbreviations, units and brand names;
      German words never have an internal capital.

3. Normalise the rest with :func:`lexicon_tools.normalize.normalize_lines`
   (uppercase, ß→SS, Ä Ö Ü kept, accents dropped, 2..15 tiles, ...).
4. Remove the words in ``scripts/default_exclude.txt`` and their genitives in -S (curated abbreviations
   written without capitals or dots, foreign phrase fragments, and obvious
   proper names) and add the words in ``scripts/default_add.txt`` (valid short
   words that igerman98 lacks, e.g. HA, AI, ÄH). Proper names are *not*
   filtered completely: igerman98 mixes many of them with capitalised nouns and
   only a morphological dictionary could separate them; extend the exclusion
   list as they are found.
5. Write ``lexicon_tools/data/default_words.txt.xz`` (one word per line,
   sorted by Python string order, UTF-8, xz preset 9) and
   ``lexicon_tools/data/LICENSE-wordlist.txt``, both atomically.

Usage::

    .venv/bin/python scripts/build_default_lexicon.py [--source PATH] [--rejects PATH]

It prints the counts per length and all two-letter words. Output is
deterministic for the same source file.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from lexicon_tools.normalize import (  # noqa: E402
    MAX_LEN,
    WordListError,
    normalize_entry,
    normalize_lines,
    read_lines,
    write_atomic,
    write_rejects,
    write_words,
)

SOURCE = Path("/usr/share/dict/ngerman")
EXCLUDE = ROOT / "scripts" / "default_exclude.txt"
ADD = ROOT / "scripts" / "default_add.txt"
OUTPUT = ROOT / "lexicon_tools" / "data" / "default_words.txt.xz"
LICENSE = ROOT / "lexicon_tools" / "data" / "LICENSE-wordlist.txt"
PACKAGE = "wngerman"
EXPECTED_UPSTREAM = "20161207"

# (a) ALL CAPS abbreviation, or starting with two capitals: ABC, PCs, GHz.
_ALL_CAPS = re.compile(r"[A-ZÄÖÜ]{2}")
# (c) internal capital after a lowercase letter: GmbH, kWh, eBay.
_INNER_CAP = re.compile(r"[a-zäöüß][A-ZÄÖÜ]")


def abbreviation_rule(raw: str) -> str | None:
    """Return the filter code ("leading_caps", "inner_capital") for a raw entry, else None."""
    if _ALL_CAPS.match(raw):
        return "leading_caps"
    if _INNER_CAP.search(raw):
        return "inner_capital"
    return None


def load_word_file(path: Path) -> list[str]:
    """Read a curated list (exclude/add); every entry must normalise to a word."""
    out = []
    for lineno, raw in read_lines(path):
        raw = raw.split("#", 1)[0].strip()
        if not raw:
            continue
        word, reason = normalize_entry(raw)
        if word is None:
            raise SystemExit(f"{path}:{lineno}: {raw!r} is not a valid word ({reason})")
        out.append(word)
    return out


def package_version() -> str | None:
    try:
        res = subprocess.run(
            ["dpkg-query", "-W", "-f=${Version}", PACKAGE], capture_output=True, text=True, check=False
        )
    except OSError:
        return None
    return res.stdout.strip() or None


LICENSE_TEXT = """\
Default German word list: lexicon_tools/data/default_words.txt.xz
=================================================================

Source
------
igerman98 -- German dictionary for ispell/hunspell (new orthography),
Copyright (C) 1999-2016 Björn Jacke <bjoern@j3e.de>
https://www.j3e.de/ispell/igerman98/

as distributed in the Debian package wngerman {version}
(source package igerman98, upstream version 20161207), file
/usr/share/dict/ngerman (sha256 {sha256}).

License
-------
igerman98 is free software; you can redistribute it and/or modify it under
the terms of the GNU General Public License version 2 or version 3, as
published by the Free Software Foundation (Debian: "GPL-2+", "version 2 or 3").
It is distributed in the hope that it will be useful, but WITHOUT ANY
WARRANTY; without even the implied warranty of MERCHANTABILITY or FITNESS FOR
A PARTICULAR PURPOSE. See the GNU General Public License for more details:
https://www.gnu.org/licenses/old-licenses/gpl-2.0.html
https://www.gnu.org/licenses/gpl-3.0.html

This derived list is distributed under the same terms (GPL-2 or GPL-3).

Modifications (this is a modified version of the igerman98 word list)
-------------------------------------------------------------------------
Made by scripts/build_default_lexicon.py of this project:
- entries normalised to the German Scrabble tile set (uppercase, ß -> SS,
  Ä Ö Ü kept, other diacritics dropped, ligatures split);
- entries with hyphens, apostrophes, dots, digits, spaces or other symbols,
  and words shorter than 2 or longer than 15 tiles, removed;
- abbreviations removed (entries starting with two capitals such as ABC, PCs,
  GHz; entries with an internal capital such as GmbH, kWh);
- the curated exclusions in scripts/default_exclude.txt removed ({n_excluded}
  words: abbreviations, foreign phrase fragments, some proper names);
- the words in scripts/default_add.txt added ({n_added} words, e.g. HA, AI, ÄH).

Result: {n_words} words.
"""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--source", type=Path, default=SOURCE, help=f"ngerman word list (default {SOURCE})")
    ap.add_argument("--output", type=Path, default=OUTPUT, help="output .txt.xz (default: package data)")
    ap.add_argument("--license", type=Path, default=LICENSE, help="license/credits file to write")
    ap.add_argument("--rejects", type=Path, help="also write every dropped entry as TSV here")
    args = ap.parse_args(argv)

    if not args.source.exists():
        print(
            f"error: {args.source} not found; install the Debian package: apt-get install -y {PACKAGE}",
            file=sys.stderr,
        )
        return 1
    version = package_version() if args.source == SOURCE else None
    if version is not None and not version.startswith(EXPECTED_UPSTREAM):
        print(
            f"warning: {PACKAGE} {version} differs from {EXPECTED_UPSTREAM}-*; output will differ from the committed list",
            file=sys.stderr,
        )
    sha256 = hashlib.sha256(args.source.read_bytes()).hexdigest()

    try:
        entries = list(read_lines(args.source))
        exclude = load_word_file(EXCLUDE)
        add = load_word_file(ADD)
    except WordListError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1

    filtered: list[tuple[int, str]] = []
    dropped: list[tuple[str, int, str]] = []
    for lineno, raw in entries:
        rule = abbreviation_rule(raw)
        if rule is None:
            filtered.append((lineno, raw))
        else:
            dropped.append((raw, lineno, rule))
    res = normalize_lines(filtered)

    words = set(res.words)
    # an excluded name or abbreviation takes its genitive along (TINA -> TINAS, IRAN -> IRANS);
    # a genitive that is also a German word of its own would have to be added back in default_add.txt
    exclude_set = set(exclude) | {w + "S" for w in exclude if len(w) >= 3}
    stale = sorted(exclude_set - words)
    removed = sorted(exclude_set & words)
    already = sorted(set(add) & words)
    words -= exclude_set
    words |= set(add)
    final = sorted(words)
    assert all(2 <= len(w) <= MAX_LEN for w in final)

    try:
        write_words(args.output, final)
        write_atomic(
            args.license,
            LICENSE_TEXT.format(
                version=version or "20161207-11",
                sha256=sha256,
                n_excluded=len(removed),
                n_added=len(set(add) - set(already)),
                n_words=len(final),
            ),
        )
        if args.rejects:
            all_rejects = sorted(dropped + res.rejects, key=lambda r: r[1])
            all_rejects += [(w, 0, "excluded") for w in removed]
            write_rejects(args.rejects, all_rejects)
    except WordListError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1

    rule_counts = Counter(r for _, _, r in dropped)
    print(f"source: {args.source} ({PACKAGE} {version or '?'}, sha256 {sha256[:16]}...)")
    print(f"entries read: {len(entries)}")
    print(f"dropped as abbreviations: leading_caps {rule_counts['leading_caps']}, inner_capital {rule_counts['inner_capital']}")
    print(f"normalisation rejects: {res.reason_counts or '{}'} (dot: {res.reason_counts.get('dot', 0)})")
    print(f"merged duplicates: {res.duplicates}")
    print(f"curated exclusions removed: {len(removed)} (not present: {len(stale)}{' ' + ' '.join(stale) if stale else ''})")
    print(f"curated additions: {len(set(add))} ({len(already)} already present{': ' + ' '.join(already) if already else ''})")
    print(f"words written: {len(final)} -> {args.output}")
    per_len = Counter(len(w) for w in final)
    print("words per length:")
    for n in sorted(per_len):
        print(f"  {n:2d}: {per_len[n]}")
    two = [w for w in final if len(w) == 2]
    print(f"two-letter words ({len(two)}): {' '.join(two)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
