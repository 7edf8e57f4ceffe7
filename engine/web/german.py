"""The director engine's refusals in German, for the arbitration screen and the players' phones.

The engine (:mod:`engine.director.event`) explains a refused action in English, in
terms of the ``simultan`` command line (`` `round --start --rack ...` ``, ``--choose``).
The browser pages must show neither English nor command-line syntax, so
:func:`reason_de` turns each known refusal into a German sentence. A reason it does
not know keeps its text, without backticked command syntax and without the
engine's own "nothing recorded" (the pages add "nichts eingetragen" once).

:func:`play_de` does the same for the refusals of the games against the computer
(:mod:`engine.web.play`) that the page does not translate itself: a damaged,
unreadable or too large game file, a full server.
"""

from __future__ import annotations

import re

__all__ = ["reason_de", "journal_de", "play_de"]

_N = r"(\d+)"
_RULES: list[tuple[str, str]] = [
    (rf"^round {_N} is closed \(the event is over\)", r"Runde \1 ist geschlossen (die Partie ist beendet)"),
    (rf"^round {_N} is closed \(the open round is {_N}\)", r"Runde \1 ist geschlossen (offen ist Runde \2)"),
    (rf"^round {_N} is not open yet \(the open round is {_N}\)", r"Runde \1 ist noch nicht offen (offen ist Runde \2)"),
    (rf"^round {_N} is not the open round \(the event is over\)", r"Runde \1 ist nicht die offene Runde (die Partie "
                                                                   r"ist beendet)"),
    (rf"^round {_N} is not the open round \(round {_N} is open\)", r"Runde \1 ist nicht die offene Runde (offen ist "
                                                                    r"Runde \2)"),
    (r"^the event is over \((.*)\); no round is open", r"Die Partie ist beendet (\1); keine Runde ist offen"),
    (r"^no round is open", "Keine Runde ist offen"),
    (rf"^round {_N} has not started", r"Runde \1 hat noch nicht begonnen."),
    (rf"^round {_N} already started at ([\d:]+)", r"Runde \1 läuft schon (seit \2)"),
    (rf"^round {_N}: this event draws from a physical bag", r"Runde \1: Dieses Turnier zieht aus einem echten "
                                                             r"Beutel; bitte die gezogenen Steine eingeben."),
    (rf"^(.+) left the event in round {_N}; nothing recorded \(a penalty or warning can still go to round "
     rf"{_N} or before\)", r"\1 hat das Turnier in Runde \2 verlassen; Strafen und Verwarnungen gehen nur bis "
                           r"Runde \2"),
    (rf"^(.+) left the event in round {_N}", r"\1 hat das Turnier in Runde \2 verlassen"),
    (rf"^(.+) left in round {_N} already", r"\1 ist schon in Runde \2 ausgeschieden"),
    (rf"^(.+) joined in round {_N}, after round {_N}", r"\1 spielt erst ab Runde \2, nach Runde \3"),
    (r"^unknown player (.+) \(players: (.*)\)$", r"Unbekannter Spieler \1 (Spieler: \2)"),
    (r"^player name (.+) is taken by (.+?)( \(left in round (\d+)\))?; choose another name",
     r"Der Name \1 ist schon vergeben (\2); bitte einen anderen wählen"),
    (r"^player name (.+): holds the invisible or control character (U\+[0-9A-F]+)",
     r"Name \1: enthält das unsichtbare oder Steuerzeichen \2; bitte ohne es eingeben"),
    (r"^player name (.+): must be non-empty", r"Name \1: darf nicht leer sein, höchstens 100 Zeichen, ohne "
                                              r"Zeilenumbruch, nicht mit '-' beginnend"),
    (rf"^round {_N} has not been played \(rounds 1 to {_N}\)", r"Runde \1 wurde nicht gespielt (Runden 1 bis \2)"),
    (r"^no round has been played", "Es wurde noch keine Runde gespielt"),
    (r"^table (.+): a number from 1 to 999", r"Tisch \1: eine Zahl von 1 bis 999"),
    (r"^reason: at most (\d+) characters \((\d+) given\)", r"Grund: höchstens \1 Zeichen (\2 eingegeben)"),
    (r"^--choose '(.+)' is not one of the tied top moves \((\d+) points(?:; it scores (\d+))?\): (.*)$",
     r"\1 ist keiner der gleichwertigen Top-Züge (\2 Punkte): \4"),
    (r"^nothing to undo", "Nichts rückgängig zu machen (noch keine Aktion des Schiedsrichters)"),
    (r"^the last action is entry (\d+) \((.*)\), not entry (\d+)",
     r"Die letzte Aktion ist Eintrag \1, nicht Eintrag \3 (wurde \3 schon zurückgenommen?)"),
    (r"^rack (\S+): no move is possible with it", r"Buchstaben \1: damit ist kein Zug möglich; die Steine "
                                                  r"zurücklegen und neu ziehen"),
    (r"^rack (\S+): the leave (\S+) stays on the rack; give the (\d+) tiles drawn, or the whole rack with (\S+)",
     r"Buchstaben \1: der Rest \2 bleibt auf der Bank; die \3 gezogenen Steine eingeben oder die ganze Bank mit \2"),
    (r"^rack (\S+): (\d+) tiles?; round (\d+) needs (.*)$", r"Buchstaben \1: \2 Steine; Runde \3 braucht \4"),
    (r"^rack (\S+): the bag holds no (.+?) \(the rest", r"Buchstaben \1: im Beutel ist kein \2 (die übrigen "
                                                        r"liegen auf dem Brett oder der Bank); bitte die gezogenen "
                                                        r"Steine prüfen"),
    (r"^rack (\S+): the bag holds only (\d+) (.+?)s? \(the rest", r"Buchstaben \1: im Beutel ist nur \2-mal \3 "
                                                                 r"(die übrigen liegen auf dem Brett oder der Bank); "
                                                                 r"bitte die gezogenen Steine prüfen"),
    (r"^rack (\S+): (\d+) vowels?, (\d+) consonants?: round (\d+) needs at least (\d+) vowels? and (\d+) consonants?",
     r"Buchstaben \1: \2 Vokale, \3 Konsonanten; Runde \4 braucht mindestens \5 Vokale und \6 Konsonanten: "
     r"die Steine zurücklegen und neu ziehen"),
    (r"^rack '(.*)': (\d+) × (.+), but the tile set has only (\d+)",
     r"Buchstaben '\1': \2 × \3, der Satz hat nur \4"),
    (r"^cannot read (.*)$", r"Nicht lesbar: \1"),
    (r"^(\S+) is not in the word list", r"\1 steht nicht in der Wortliste"),
    (r"^no move handed in", "kein Zug abgegeben"),
    (r"^no move$", "kein Zug"),
    (r"^(.+): uses (.+?)(?: \d+ times)?, but the round's rack is (\S+)",
     r"\1: braucht \2, aber die Buchstaben der Runde sind \3"),
]
_COMPILED = [(re.compile(p), r) for p, r in _RULES]


def reason_de(reason: str) -> str:
    """The engine's refusal ``reason`` in German, without command-line syntax.

    Known refusals (closed or unstarted rounds, unknown players, racks the bag cannot
    hold, ...) become German sentences; an unknown one keeps its words but loses
    backticked command syntax and the engine's "nothing recorded".
    """
    text = str(reason).strip()
    for pat, rep in _COMPILED:
        m = pat.search(text)
        if m:
            out = m.expand(rep)  # a group that did not take part gives ""
            return re.sub(r"\s+", " ", out).strip()
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


# the refusals of the games against the computer (engine.web.play) that the page (spielen.js) does not translate
_PLAY_WANT = {"1": "1", "0 or 1": "0 oder 1", "two names": "zwei Namen", "a whole number": "eine ganze Zahl",
              "a list": "eine Liste", "a text": "ein Text", "true or false": "true oder false",
              "an object": "ein Objekt", "a time (seconds since 1970)": "eine Zeit (Sekunden seit 1970)"}
_PLAY_DAMAGE: list[tuple[str, str]] = [
    (r"^not a JSON object$", "kein JSON-Objekt"),
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
    (r"^action (\d+) \((.*?)\): (.*)$", r"Aktion \1 (\2) geht nicht: \3"),
]
_PLAY_RULES: list[tuple[str, str]] = [
    (r"^the game file cannot be read \((.*)\)$", r"Die Spieldatei ist nicht lesbar (\1)"),
    (r"^the game file is too large \(over (\d+) MB\).*$",
     r"Die Spieldatei ist zu groß (über \1 MB): das kann keine Partie sein"),
    (r"^too many games on this server \((\d+)\).*$",
     r"Zu viele Partien auf diesem Server (\1); keine wurde gelöscht, um Platz zu schaffen: später noch einmal "
     r"versuchen oder den Betreiber fragen"),
]
_PLAY_DAMAGE_C = [(re.compile(p), r) for p, r in _PLAY_DAMAGE]
_PLAY_RULES_C = [(re.compile(p), r) for p, r in _PLAY_RULES]


def play_de(reason: str) -> str:
    """A refusal of the games against the computer (:mod:`engine.web.play`) in German: a damaged, unreadable
    or too large game file, or a full server. Other reasons (a move's, "not your turn") are returned
    unchanged: the page translates those itself."""
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
                return "Diese Spieldatei ist beschädigt: " + m.expand(rep)
        return "Diese Spieldatei ist beschädigt: " + detail
    for pat, rep in _PLAY_RULES_C:
        m = pat.fullmatch(text)
        if m:
            return m.expand(rep)
    return text
