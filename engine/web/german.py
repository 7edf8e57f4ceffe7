"""The director engine's refusals in German, for the arbitration screen and the players' phones.

The engine (:mod:`engine.director.event`) explains a refused action in English, in
terms of the ``simultan`` command line (`` `round --start --rack ...` ``, ``--choose``).
The browser pages must show neither English nor command-line syntax, so
:func:`reason_de` turns each known refusal into a German sentence (the table is
:data:`engine.lang_de.DIRECTOR_DE`, shared with the ``simultan`` command line). A reason it does
not know keeps its text, without backticked command syntax and without the
engine's own "nothing recorded" (the pages add "nichts eingetragen" once).

:func:`play_de` does the same for the refusals of the games against the computer
(:mod:`engine.web.play`) that the page does not translate itself: a damaged,
unreadable or too large game file, a full server, too many unfinished (or new)
games from one address, a game no longer on the server.
"""

from __future__ import annotations

import re

from engine.lang import tr_in
from engine.lang_de import director_de, os_error_de

__all__ = ["reason_de", "journal_de", "play_de", "refusal_de"]


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


# a request's refusal by the analysis routes (engine.web.api.BadRequest, a CGP or GCG error: a ValueError, 400)
_REFUSAL_DE: list[tuple[str, str]] = [
    (r"^cgp: expected a string$", "cgp: erwartet einen Text"),
    (r"^(cgp|move|word): (\d+) characters, at most (\d+) accepted$", r"\1: \2 Zeichen, erlaubt sind höchstens \3"),
    (r"^top: must be a whole number from 1 to (\d+), got (.*)$", r"top: muss eine ganze Zahl von 1 bis \1 sein, nicht \2"),
    (r"^offset: must be a whole number of at least 0, got (.*)$",
     r"offset: muss eine ganze Zahl von mindestens 0 sein, nicht \1"),
    (r"^sort: 'equity' or 'score', got (.*)$", r"sort: 'equity' oder 'score', nicht \1"),
    (r"^move: type a move such as '8H HAUS' \(across\) or 'H8 HAUS' \(down\)$",
     "move: einen Zug eingeben, z. B. '8H HAUS' (waagerecht) oder 'H8 HAUS' (senkrecht)"),
    (r"^word: type a word, e\.g\. 'HAUS'$", "word: ein Wort eingeben, z. B. 'HAUS'"),
]
_REFUSAL_DE_C = [(re.compile(p), r) for p, r in _REFUSAL_DE]


def refusal_de(reason: str) -> str:
    """A 400 of the analysis routes (``/api/moves``, ``/api/score``, ``/api/review``, ...) in German: the API's own
    field checks (:class:`engine.web.api.BadRequest`) here, the rest (a CGP's, a GCG record's, the word checker's
    reasons) by the command line's catalogue (:func:`engine.lang.tr_in`); a reason neither knows stays English."""
    text = str(reason)
    for pat, rep in _REFUSAL_DE_C:
        m = pat.fullmatch(text)
        if m:
            return m.expand(rep)
    return tr_in("de", text)


# the refusals of the games against the computer (engine.web.play) that the page (spielen.js) does not translate
_PLAY_WANT = {"1": "1", "0 or 1": "0 oder 1", "a whole number": "eine ganze Zahl",
              "two different names of letters, digits, '-' or '_'":
                  "zwei verschiedene Namen aus Buchstaben, Ziffern, '-' oder '_'",
              "a list": "eine Liste", "a text": "ein Text", "true or false": "true oder false",
              "an object": "ein Objekt", "a time (seconds since 1970)": "eine Zeit (Sekunden seit 1970)"}
_PLAY_DAMAGE: list[tuple[str, object]] = [  # (pattern, re.Match.expand template or a function of the match)
    (r"^not a JSON object$", "kein JSON-Objekt"),
    (r"^it holds text that is not UTF-8 \(a lone surrogate\)$",
     "sie enthält Text, der kein UTF-8 ist (ein einzelnes Surrogat)"),
    (r"^it is a symbolic link, not a file$", "ein symbolischer Link, keine Datei"),
    (r"^it is not a regular file$", "keine gewöhnliche Datei"),
    (r"^field '(\w+)' is missing$", r"das Feld '\1' fehlt"),
    (r"^field '(\w+)' must be one of (.*)$", r"das Feld '\1' muss eins von \2 sein"),
    (r"^its id '(.*)' is not its file name$", r"ihre Kennung '\1' ist nicht ihr Dateiname"),
    (r"^action (\d+) is not an object$", r"Aktion \1 ist kein Objekt"),
    (r"^action (\d+): the kind must be one of (.*)$", r"Aktion \1: die Art muss eins von \2 sein"),
    (r"^action (\d+): the player must be 0 or 1$", r"Aktion \1: der Spieler muss 0 oder 1 sein"),
    (r"^action (\d+): the move is missing$", r"Aktion \1: der Zug fehlt"),
    (r"^action (\d+): the exchanged tiles are missing$", r"Aktion \1: die getauschten Steine fehlen"),
    (r"^action (\d+): the game was over before it$", r"Aktion \1: die Partie war davor schon beendet"),
    (r"^action (\d+): player (\d) is not the player to move \((\d)\)$",
     r"Aktion \1: Spieler \2 ist nicht am Zug (sondern \3)"),
    (r"^action (\d+) \((.*?)\): (.*)$", lambda m: f"Aktion {m[1]} ({m[2]}) geht nicht: {tr_in('de', m[3])}"),
]
_PLAY_RULES: list[tuple[str, object]] = [
    (r"^the game file cannot be read \((.*)\)$", lambda m: f"Die Spieldatei ist nicht lesbar ({os_error_de(m[1])})"),
    (r"^the server's disk is full: the game was not saved; try again later$",
     "Die Festplatte des Servers ist voll: die Partie wurde nicht gespeichert; später noch einmal versuchen"),
    (r"^the games folder of this server was moved or deleted while it ran: .*$",
     "Der Spiele-Ordner dieses Servers wurde verschoben oder gelöscht, während er lief: er speichert nichts mehr; "
     "der Server muss neu gestartet werden"),
    (r"^your move was saved; the computer's answer was not: (.*)$",
     lambda m: f"Dein Zug ist gespeichert, die Antwort des Computers nicht: {play_de(m[1])}"),
    (r"^the server cannot save the game \((.*)\)$",
     lambda m: f"Der Server kann die Partie nicht speichern ({os_error_de(m[1])})"),
    (r"^the game file is too large \(over (\d+) MB\).*$",
     r"Die Spieldatei ist zu groß (über \1 MB): das kann keine Partie sein"),
    (r"^too many games on this server \((\d+)\).*$",
     r"Zu viele Partien auf diesem Server (\1); keine laufende Partie wurde gelöscht, um Platz zu schaffen: "
     r"später noch einmal versuchen oder den Betreiber fragen"),
    (r"^the game has moved on in another tab or window \(it has (\d+) turns, this page showed (\d+)\); the move "
     r"was not played$",
     r"Die Partie ist in einem anderen Tab oder Fenster weitergegangen (sie hat \1 Züge, diese Seite zeigte \2); "
     r"der Zug wurde nicht gespielt"),
    (r"^too many new games from your address in 24 hours \((\d+)\).*$",
     r"Zu viele neue Partien von deiner Adresse in 24 Stunden (\1); keine Partie wurde gelöscht: morgen noch einmal "
     r"versuchen"),
    (r"^unknown game: it is not on this server \(any more\); .* for ([\d.]+) days, .* after ([\d.]+) day\(s\)"
     r" \(sooner when one address holds more than (\d+)\)$",
     lambda m: ("unbekannte Partie: sie ist nicht (mehr) auf diesem Server; ist er voll, löscht er beendete Partien, "
                f"Partien, in denen {m[1].replace('.', ',')} Tage lang niemand gezogen hat, und Partien, in denen nach "
                f"{m[2].replace('.', ',')} Tag(en) noch nicht gezogen wurde (früher, wenn eine Adresse mehr als {m[3]} "
                "davon hat)")),
    (r"^too many unfinished games from your address \((\d+)\); this game waited more than ([\d.]+) day\(s\).*$",
     lambda m: (f"Zu viele unbeendete Partien von deiner Adresse ({m[1]}); diese Partie hat mehr als "
                f"{m[2].replace('.', ',')} Tag(e) auf deinen ersten Zug gewartet und wird nicht weitergespielt: eine "
                "der anderen zu Ende spielen oder später eine neue beginnen")),
    (r"^too many unfinished games from your address \((\d+)\).*$",
     r"Zu viele unbeendete Partien von deiner Adresse (\1); keine wurde gelöscht: eine davon zu Ende spielen oder "
     r"später noch einmal versuchen"),
]
_PLAY_DAMAGE_C = [(re.compile(p), r) for p, r in _PLAY_DAMAGE]
_PLAY_RULES_C = [(re.compile(p), r) for p, r in _PLAY_RULES]


def play_de(reason: str) -> str:
    """A refusal of the games against the computer (:mod:`engine.web.play`) in German: a damaged, unreadable
    or too large game file, a full server, too many unfinished (or new) games from one address, a game no longer
    on the server. Other reasons (a
    move's, "not your turn") are returned unchanged: the page translates those itself."""
    text = str(reason)
    prefix = "this game file is damaged: "
    if text.startswith(prefix):
        detail = text[len(prefix):]
        m = re.fullmatch(r"field '(\w+)' must be (.*)", detail)
        if m and m[2] in _PLAY_WANT:
            return f"Diese Spieldatei ist beschädigt: das Feld '{m[1]}' muss {_PLAY_WANT[m[2]]} sein"
        for pat, rep in _PLAY_DAMAGE_C:
            m = pat.fullmatch(detail)
            if m:
                return "Diese Spieldatei ist beschädigt: " + (m.expand(rep) if isinstance(rep, str) else rep(m))
        return "Diese Spieldatei ist beschädigt: " + detail
    for pat, rep in _PLAY_RULES_C:
        m = pat.fullmatch(text)
        if m:
            return m.expand(rep) if isinstance(rep, str) else rep(m)
    return text
