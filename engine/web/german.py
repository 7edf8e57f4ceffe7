"""The director engine's refusals in German, for the arbitration screen and the players' phones.

The engine (:mod:`engine.director.event`) explains a refused action in English, in
terms of the ``simultan`` command line (`` `round --start --rack ...` ``, ``--choose``).
The browser pages must show neither English nor command-line syntax, so
:func:`reason_de` turns each known refusal into a German sentence (the table is
:data:`engine.lang_de.DIRECTOR_DE`, shared with the ``simultan`` command line). A reason it does
not know keeps its text, without backticked command syntax and without the
engine's own "nothing recorded" (the pages add "nichts eingetragen" once).
"""

from __future__ import annotations

import re

from engine.lang_de import director_de

__all__ = ["reason_de", "journal_de"]


def reason_de(reason: str) -> str:
    """The engine's refusal ``reason`` in German, without command-line syntax.

    Known refusals (closed or unstarted rounds, unknown players, racks the bag cannot
    hold, ...) become German sentences; an unknown one keeps its words but loses
    backticked command syntax and the engine's "nothing recorded".
    """
    text = str(reason).strip()
    out = director_de(text)
    if out is not None:
        return out
    text = re.sub(r"\s*\(?`[^`]*`\)?", "", text)
    text = re.sub(r";?\s*nothing (recorded|undone)\b.*$", "", text)
    return text.strip(" ;:")


def journal_de(exc: Exception | None = None) -> str:
    """An event that cannot be read (a damaged journal, another lexicon), in German; with
    ``exc`` the engine's (English) detail follows for the director, without it (a player's
    phone) only the advice."""
    text = ("Die Partie kann gerade nicht gelesen werden (das Journal ist beschädigt oder gesperrt, oder der "
            "Server nutzt eine andere Wortliste)")
    if exc is None:
        return text + "; bitte den Schiedsrichter fragen."
    return f"{text}. Einzelheiten für den Schiedsrichter: {exc}"
