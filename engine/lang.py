"""The language of the command line's text: German or English, one per run.

A message is written in English in the code and passed to :func:`tr` with its
fields as keywords, ``tr("winner: {who} (ended by {why})", who=..., why=...)``:
the English text is the key (gettext's *msgid*), the German text comes from the
catalogue :data:`engine.lang_de.DE`. The fields are formatted as in an f-string
(same format specs), and in German numbers get the German separators: a decimal
comma and a dot between thousands (``{x:.1f}`` → ``75,4``, ``{n:,}`` → ``12.842``).
A message missing from the catalogue is printed in English (tests/cli/test_lang.py
checks that every literal message given to :func:`tr` has its German text).

The language of a run (:func:`lang`): the one :func:`set_lang` chose (the CLI's
``--lang de|en``), else the environment variable ``GSE_LANG`` (``de`` or ``en``),
else the locale: the first of ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set
(the POSIX order) starting with ``de`` gives German, anything else English.

JSON output never goes through :func:`tr`: its keys and values are the same in
both languages.
"""

from __future__ import annotations

import os
import string

LANGS = ("de", "en")
"""The languages: German, English."""

_chosen: str | None = None


def default_lang(environ=None) -> str:
    """The language a run starts with: ``GSE_LANG``, else the locale's (``"de"`` or ``"en"``).

    Args:
        environ: the environment (default :data:`os.environ`).
    """
    env = os.environ if environ is None else environ
    forced = env.get("GSE_LANG", "").strip().lower()
    if forced in LANGS:
        return forced
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            return "de" if value.lower().startswith("de") else "en"
    return "en"


def set_lang(code: str | None) -> None:
    """Choose the language of this process (``None``: back to :func:`default_lang`).

    Raises:
        ValueError: ``code`` is not one of :data:`LANGS`.
    """
    global _chosen
    if code is not None and code not in LANGS:
        raise ValueError(tr("--lang {code!r}: choose de or en", code=code))
    _chosen = code


def lang() -> str:
    """The language of this run: ``"de"`` or ``"en"``."""
    return _chosen if _chosen is not None else default_lang()


def german_number(text: str) -> str:
    """A number formatted the English way (``1,234.5``) written the German way (``1.234,5``)."""
    return text.replace(",", "\x00").replace(".", ",").replace("\x00", ".")


class _Formatter(string.Formatter):
    """``str.format`` with the German separators for numbers in German."""

    def __init__(self, german: bool):
        super().__init__()
        self.german = german

    def format_field(self, value, format_spec):
        text = format(value, format_spec)
        if self.german and isinstance(value, (int, float)) and not isinstance(value, bool):
            text = german_number(text)
        return text


_FORMAT = {"de": _Formatter(True), "en": _Formatter(False)}


def tr(msgid: str, /, **fields) -> str:
    """The message ``msgid`` (English) in this run's language, its ``{fields}`` filled in.

    Args:
        msgid: the English text, a :meth:`str.format` template.
        **fields: the values of the template's fields (numbers get the language's separators).
    """
    return tr_in(lang(), msgid, **fields)


def tr_in(code: str, msgid: str, /, **fields) -> str:
    """:func:`tr` in the language ``code`` (``"de"`` or ``"en"``) rather than this run's."""
    text = msgid
    if code == "de":
        from engine.lang_de import DE

        text = DE.get(msgid)
        if text is None:
            text = _by_pattern(msgid)
    return _FORMAT[code].format(text, **fields) if fields else text.replace("{{", "{").replace("}}", "}")


def _by_pattern(msgid: str) -> str:
    """A message with variable parts in German (:data:`engine.lang_de.PATTERNS_DE`), else unchanged.

    A pattern's replacement is a :func:`re.sub` template or a function of the match."""
    import re

    from engine.lang_de import PATTERNS_DE

    for pattern, german in PATTERNS_DE:
        out, n = re.subn(pattern, german, msgid)
        if n:
            return out
    return msgid


def num(value, spec: str = "") -> str:
    """One number in this run's language: ``num(75.4, ".1f")`` is ``75,4`` in German."""
    return _FORMAT[lang()].format_field(value, spec)


def percent(value: float, decimals: int = 1) -> str:
    """A share (0..1) as a percentage: ``percent(0.754)`` is ``75,4 %`` in German, ``75.4 %`` in English."""
    return f"{num(100 * value, f'.{decimals}f')} %"
