"""The CLI's help texts in German (``python -m engine COMMAND --help`` in German mode).

:data:`HELP_DE` maps the English help text of every parser and option (the ``description``, ``epilog`` and
``help`` given to argparse) to its German; :data:`METAVAR_DE` the placeholders of the usage lines (``LEXICON``,
``DIR``, ...). :func:`engine.cli.main.translate_help` applies both to a built parser in German mode; argparse's
own words ("usage:", "options:", ...) come from :data:`engine.lang_de.ARGPARSE_DE`. A help text missing here is
shown in English (tests/cli/test_help_lang.py checks that every one of them has its German).
A ``%%`` in a help text is argparse's escaped percent sign and stays ``%%`` in the German.
"""

from __future__ import annotations

METAVAR_DE: dict[str, str] = {
    "LEXICON": "LEXIKON",
    "FILE": "DATEI",
    "file": "DATEI",
    "DIR": "VERZ",
    "MOVE": "ZUG",
    "move": "ZUG",
    "PLAYER": "SPIELER",
    "PLAYERS": "SPIELER",
    "STEP": "SCHRITT",
    "SEED": "STARTWERT",
    "TIME": "ZEIT",
    "SECONDS": "SEKUNDEN",
    "TEXT": "TEXT",
    "TILES": "STEINE",
    "RATE": "RATE",
    "RAY_ADDRESS": "RAY_ADRESSE",
    "BATCH_SIZE": "PAKETGRÖSSE",
    "PEER_FORMAT": "FORMAT",
    "LATE_SUBMISSION": "VERSPÄTUNG",
    "HOST": "HOST",
    "OUT": "AUSGABE",
    "PATH": "PFAD",
    "RULES": "REGELN",
    "PLIES": "HALBZÜGE",
    "ITERATIONS": "DURCHLÄUFE",
    "MIN_ITERATIONS": "MIN_DURCHLÄUFE",
    "WORKERS": "PROZESSE",
    "LEAVES": "RESTWERTE",
    "CLOCK": "UHR",
    "ERROR": "IRRTUM",
    "PTS": "PKT",
    "positions": "STELLUNGEN",
    "CMD": "BEFEHL",
    "COL": "SPALTE",
    "ADDR": "ADRESSE",
    "KEYS": "SCHLÜSSEL",
}
"""Placeholders of the usage lines (argparse's metavar, or the option's name in capitals) -> German."""

HELP_DE: dict[str, str] = {
    # engine.cli.main
    "German Scrabble move generator and analysis.": "Zuggenerator und Analyse für deutsches Scrabble.",
    "language of the text output (default: GSE_LANG, else German when the locale (LC_ALL, LC_MESSAGES, LANG) is "
    "German, else English); anywhere on the command line; JSON is the same in both":
        "Sprache der Textausgabe (Vorgabe: GSE_LANG, sonst Deutsch, wenn die Locale (LC_ALL, LC_MESSAGES, LANG) "
        "deutsch ist, sonst Englisch); an beliebiger Stelle der Befehlszeile; JSON ist in beiden gleich",
    "list every legal move, by score then notation": "alle gültigen Züge, nach Punkten, dann Schreibweise",
    "the top-scoring move": "der Zug mit den meisten Punkten",
    "check and score a move typed as `8H HAUS` / `H8 HA(U)S`": "einen Zug prüfen und zählen, getippt als "
                                                                "„8H HAUS“ / „H8 HA(U)S“",
    "compile every kernel the commands use, once (a few minutes of CPU; Ctrl-C stops it and keeps what is done)":
        "alle Rechenkerne der Befehle einmal übersetzen (einige Minuten CPU; Strg+C hält an und behält das Fertige)",
    "engine against engine (static best-score or equity players)":
        "Engine gegen Engine (statische Spieler: meiste Punkte oder Equity)",
    "check a GCG game record; print its score pad or a position (CGP)":
        "eine GCG-Partie prüfen; ihren Punkteblock oder eine Stellung (CGP) ausgeben",
    "compare our move lists and speed with another generator's":
        "unsere Zuglisten und Geschwindigkeit mit denen eines anderen Generators vergleichen",
    "write complete move lists in the golden TSV format": "vollständige Zuglisten im Referenz-TSV-Format schreiben",
    "simultaneous (duplicate) Scrabble director": "Turnierleitung für Simultan-Scrabble",
    "rank a position's moves by static equity (score + leave value)":
        "die Züge einer Stellung nach statischer Equity ordnen (Punkte + Restwert)",
    "find a move in a dealt position; see how it ranks by score and equity":
        "in einer ausgeteilten Stellung einen Zug finden; sehen, wie er nach Punkten und Equity abschneidet",
    "Monte Carlo simulation of the top candidates (mean spread, win rate, confidence intervals)":
        "Monte-Carlo-Simulation der besten Kandidaten (mittlere Differenz, Siegquote, Konfidenzintervalle)",
    "solve the endgame exactly (bag empty, both racks known)":
        "das Endspiel exakt lösen (Beutel leer, beide Bänkchen bekannt)",
    "1-3 tiles in the bag: win rate per candidate over every draw":
        "1–3 Steine im Beutel: Siegquote je Kandidat über jede Ziehung",
    "which tiles did the opponent keep? (exact enumeration, static player as likelihood)":
        "welche Steine hat der Gegner behalten? (exakte Aufzählung, statischer Spieler als Wahrscheinlichkeit)",
    "board editor, analysis and projection page in the browser":
        "Brett-Editor, Analyse- und Projektionsseite im Browser",
    "the German tile set: letter, count, points": "der deutsche Steinsatz: Buchstabe, Anzahl, Punkte",
    "Partieanalyse: every turn of a GCG game against the engine's best move":
        "Partieanalyse: jeder Zug einer GCG-Partie gegen den besten Zug der Engine",
    "position in CGP notation (quote it)": "Stellung in CGP-Schreibweise (in Anführungszeichen)",
    "lexicon bundle from `python -m lexicon_tools build` (default: the packaged German list)":
        "Lexikon-Datei von „python -m lexicon_tools build“ (Vorgabe: die mitgelieferte deutsche Liste)",
    "print one JSON object": "ein JSON-Objekt ausgeben",
    "accept a composed position with more of a tile on the board and racks than the set holds (refused by default)":
        "eine zusammengestellte Stellung annehmen, die von einem Stein mehr auf Brett und Bänkchen hat, als der "
        "Satz enthält (sonst abgelehnt)",
    "only the N best moves": "nur die N besten Züge",
    "start square and whole word, e.g. '8H HA(U)S' (blank lowercase)":
        "Startfeld und ganzes Wort, z. B. '8H HA(U)S' (Joker klein)",
    "the lexicon the commands will use (default: the packaged German list)":
        "das Lexikon, das die Befehle benutzen werden (Vorgabe: die mitgelieferte deutsche Liste)",
    "compile again even what is done": "auch schon Fertiges neu übersetzen",
    "list the steps and which are done, compile nothing": "die Schritte auflisten und welche fertig sind, nichts übersetzen",
    "only these steps (see --list)": "nur diese Schritte (siehe --list)",
    # engine.cli.game
    "number of games": "Anzahl der Partien",
    "run seed (game i uses a seed derived from S and i)":
        "Startwert des Laufs (Partie i nutzt einen aus S und i abgeleiteten Startwert)",
    "write one GCG file per game into DIR": "je Partie eine GCG-Datei nach VERZ schreiben",
    "lexicon bundle (default: the packaged German list)": "Lexikon-Datei (Vorgabe: die mitgelieferte deutsche Liste)",
    "players per game (default 2)": "Spieler je Partie (Vorgabe 2)",
    "static player of every seat: best score, or equity with the packaged leave table (default score)":
        "statischer Spieler auf jedem Platz: meiste Punkte (score) oder Equity mit der mitgelieferten "
        "Restwert-Tabelle (Vorgabe score)",
    "rule variant (default home)": "Regelvariante (Vorgabe home)",
    "two named strengths (static, endgame, sim, full) on seat-swapped deal pairs (--games rounded up to pairs); "
    "the summary is A's":
        "zwei benannte Spielstärken (static, endgame, sim, full) auf Paaren gleicher Ziehung mit getauschten Plätzen "
        "(--games auf Paare aufgerundet); die Zusammenfassung gilt für A",
    "time per move of the searching strengths (default 1)": "Zeit je Zug der suchenden Spielstärken (Vorgabe 1)",
    "print the summary as one JSON object": "die Zusammenfassung als ein JSON-Objekt ausgeben",
    "no progress bar": "kein Fortschrittsbalken",
    "the .gcg file": "die .gcg-Datei",
    "lexicon bundle for the word check (default: the one the file's #lexicon names, if known; the packaged German "
    "list when it names none)":
        "Lexikon-Datei für die Wortprüfung (Vorgabe: das im #lexicon der Datei genannte, wenn bekannt; die "
        "mitgelieferte deutsche Liste, wenn keins genannt ist)",
    "check placements and scores only, not words": "nur Legen und Punkte prüfen, nicht die Wörter",
    "rule variant (default: the file's #rules, else home)": "Regelvariante (Vorgabe: #rules der Datei, sonst home)",
    "print the CGP of the position before turn K (0-based)": "die CGP der Stellung vor Zug K ausgeben (ab 0 gezählt)",
    # engine.compare.checker
    "Run another move generator on the same positions and compare the sets of (placed tiles, score) position by "
    "position; time both.":
        "Einen anderen Zuggenerator auf denselben Stellungen laufen lassen und die Mengen (gelegte Steine, Punkte) "
        "Stellung für Stellung vergleichen; beide messen.",
    "examples:\n  # our engine in another checkout (or version) as the peer, one process per position:\n"
    "  python -m engine compare tests/data/positions.tsv --lexicon LEX \\\n"
    "      --peer '/other/.venv/bin/python -m engine moves --json --lexicon {lexicon} --cgp {cgp}' \\\n"
    "      --peer-format engine-json\n"
    "  # outputs captured elsewhere (ID.txt / ID.json / ID.tsv), e.g. the golden lists:\n"
    "  python -m engine compare tests/data/positions.tsv --lexicon LEX --peer-dir tests/data/golden_moves\n\n"
    "placeholders in --peer: {cgp} {id} {python} {lexicon}; without {cgp} the CGP goes to stdin.\n"
    "formats: quackle, wolges, magpie, wolges-json, scrabble-solver, engine-json, tsv, auto (details: "
    "docs/compare.md).\n"
    "exit code: 0 all positions compared and identical, 1 differences or positions not compared, 2 usage error.":
        "Beispiele:\n  # unsere Engine in einem anderen Checkout (oder einer anderen Version) als Gegenstück, ein Prozess "
        "je Stellung:\n"
        "  python -m engine compare tests/data/positions.tsv --lexicon LEX \\\n"
        "      --peer '/other/.venv/bin/python -m engine moves --json --lexicon {lexicon} --cgp {cgp}' \\\n"
        "      --peer-format engine-json\n"
        "  # anderswo aufgezeichnete Ausgaben (ID.txt / ID.json / ID.tsv), z. B. die Referenzlisten:\n"
        "  python -m engine compare tests/data/positions.tsv --lexicon LEX --peer-dir tests/data/golden_moves\n\n"
        "Platzhalter in --peer: {cgp} {id} {python} {lexicon}; ohne {cgp} kommt die CGP über stdin.\n"
        "Formate: quackle, wolges, magpie, wolges-json, scrabble-solver, engine-json, tsv, auto (Einzelheiten: "
        "docs/compare.md).\n"
        "Rückgabewert: 0 alle Stellungen verglichen und gleich, 1 Unterschiede oder nicht verglichene Stellungen, "
        "2 Aufruffehler.",
    "position set: ID<TAB>CGP lines, or plain CGP lines (id = line number)":
        "Stellungen: Zeilen ID<TAB>CGP oder nur CGP (ID = Zeilennummer)",
    "peer command line, run once per position": "Befehlszeile des Gegenstücks, einmal je Stellung ausgeführt",
    "read stored peer outputs DIR/ID.{tsv,json,txt}": "gespeicherte Ausgaben des Gegenstücks lesen: VERZ/ID.{tsv,json,txt}",
    "adapter for the peer's output (default: auto)": "Leser für die Ausgabe des Gegenstücks (Vorgabe: auto)",
    "seconds per position (default 60)": "Sekunden je Stellung (Vorgabe 60)",
    "our lexicon bundle (default: the packaged German list)":
        "unsere Lexikon-Datei (Vorgabe: die mitgelieferte deutsche Liste)",
    "value of {lexicon} in --peer (default: our lexicon's path)":
        "Wert von {lexicon} in --peer (Vorgabe: der Pfad unseres Lexikons)",
    "timed runs of our generator per position after a warm-up (default 5)":
        "gemessene Läufe unseres Generators je Stellung nach einem Aufwärmlauf (Vorgabe 5)",
    "runs of the peer per position; its time is the median (default 1)":
        "Läufe des Gegenstücks je Stellung; seine Zeit ist der Median (Vorgabe 1)",
    "moves of each kind of difference printed per position (default 10)":
        "ausgegebene Züge je Art von Unterschied und Stellung (Vorgabe 10)",
    "comma-separated position ids to compare": "zu vergleichende Stellungs-IDs, durch Kommas getrennt",
    "with --peer-dir: per-position peer times (e.g. golden peer_timings.tsv)":
        "mit --peer-dir: Zeiten des Gegenstücks je Stellung (z. B. peer_timings.tsv der Referenz)",
    "column of --peer-timings, e.g. wolges_ms": "Spalte von --peer-timings, z. B. wolges_ms",
    "also write every result as JSON": "zusätzlich jedes Ergebnis als JSON schreiben",
    "on an empty board, add the transposed copy of each peer move (wolges generates only across openings there)":
        "auf leerem Brett zu jedem Zug des Gegenstücks die gespiegelte Kopie hinzufügen (wolges erzeugt dort nur "
        "waagerechte Eröffnungen)",
    "Write OUT/ID.tsv (NOTATION<TAB>SCORE<TAB>PLACEMENTS, by score then notation) for every position and "
    "OUT/summary.tsv.":
        "Für jede Stellung AUSGABE/ID.tsv (NOTATION<TAB>SCORE<TAB>PLACEMENTS, nach Punkten, dann Schreibweise) "
        "und AUSGABE/summary.tsv schreiben.",
    "output directory": "Ausgabeverzeichnis",
    "comma-separated position ids": "Stellungs-IDs, durch Kommas getrennt",
    # engine.director.cli
    "Simultaneous Scrabble: same rack for everyone, the top move each round. See docs/director.md.":
        "Simultan-Scrabble: dasselbe Bänkchen für alle, der Top-Zug jeder Runde. Siehe docs/director.md.",
    "create an event: players, seed, rules, round time; draws round 1":
        "ein Turnier anlegen: Spieler, Startwert, Regeln, Rundenzeit; zieht Runde 1",
    "show the open round: board, rack, round number, clock, moves entered":
        "die offene Runde zeigen: Brett, Bänkchen, Rundennummer, Uhr, eingegebene Züge",
    'enter a player\'s move: submit DIR PLAYER "8H WORT" ("-" = no move)':
        'den Zug eines Spielers eingeben: submit VERZ SPIELER "8H WORT" ("-" = kein Zug)',
    "deduct points from a player: penalty DIR PLAYER POINTS":
        "einem Spieler Punkte abziehen: penalty VERZ SPIELER PUNKTE",
    "give a player a warning: warn DIR PLAYER": "einen Spieler verwarnen: warn VERZ SPIELER",
    "a player arriving late: join DIR NAME (the rounds before count 0)":
        "ein Spieler kommt später: join VERZ NAME (die Runden davor zählen 0)",
    "a player leaving: leave DIR PLAYER (the later rounds count 0)":
        "ein Spieler geht: leave VERZ SPIELER (die späteren Runden zählen 0)",
    "close the round: place the top move, score everyone, draw the next rack":
        "die Runde schließen: Top-Zug legen, alle werten, das nächste Bänkchen ziehen",
    "standings: points, percentage of the top, tops, solos": "Stand: Punkte, Prozent vom Top, Tops, Solos",
    "take back the director's last action (submit, start or close)":
        "die letzte Aktion der Turnierleitung zurücknehmen (submit, start oder close)",
    "show what a damaged journal would lose; --apply salvages every intact entry":
        "zeigen, was ein beschädigtes Journal verlöre; --apply rettet jeden heilen Eintrag",
    "write results (CSV, JSON), master game (GCG), pictures (SVG, HTML)":
        "Ergebnisse (CSV, JSON), Meisterpartie (GCG), Bilder (SVG, HTML) schreiben",
    "play a whole master game by itself (top move every round)":
        "eine ganze Meisterpartie selbst spielen (Top-Zug jeder Runde)",
    "the event directory (instead of the first argument)": "das Turnierverzeichnis (statt des ersten Arguments)",
    "lexicon bundle (new/auto: default the packaged German list; other commands: override the path the event "
    "recorded)":
        "Lexikon-Datei (new/auto: Vorgabe die mitgelieferte deutsche Liste; andere Befehle: ersetzt den im Turnier "
        "gespeicherten Pfad)",
    "rules (fixed for the whole event)": "Regeln (fest für das ganze Turnier)",
    "the new event directory": "das neue Turnierverzeichnis",
    "player names (space or comma separated)": "Spielernamen (durch Leerzeichen oder Kommas getrennt)",
    "bag seed (default: random; recorded)": "Startwert des Beutels (Vorgabe: zufällig; wird gespeichert)",
    "event name (default: the directory name)": "Name des Turniers (Vorgabe: der Name des Verzeichnisses)",
    "players from a file, one a line: NAME or NAME;TABLE (after any --players)":
        "Spieler aus einer Datei, einer je Zeile: NAME oder NAME;TISCH (nach denen von --players)",
    "number the tables in seat order, N players each (tables from --players-file stay)":
        "Tische in Sitzreihenfolge nummerieren, je N Spieler (Tische aus --players-file bleiben)",
    "time per round: 180, 3:00 or 3m (default 3:00)": "Zeit je Runde: 180, 3:00 oder 3m (Vorgabe 3:00)",
    "order of tie-breaks among equal top scores, comma-separated from fewer-blanks, fewer-duplicates, more-tiles, "
    "fewer-tiles, notation (default fewer-blanks,fewer-duplicates,notation; notation always ends the list)":
        "Reihenfolge der Entscheidungen zwischen gleich hohen Top-Zügen, durch Kommas getrennt aus fewer-blanks, "
        "fewer-duplicates, more-tiles, fewer-tiles, notation (Vorgabe fewer-blanks,fewer-duplicates,notation; "
        "notation steht immer am Ende)",
    "rounds 1..N use the early minimum (default 15)": "Runden 1..N nutzen das frühe Minimum (Vorgabe 15)",
    "minimum vowels,consonants in the early rounds (default 2,2)":
        "Mindestzahl Vokale,Konsonanten in den frühen Runden (Vorgabe 2,2)",
    "minimum vowels,consonants after them (default 1,1)": "Mindestzahl Vokale,Konsonanten danach (Vorgabe 1,1)",
    "bonus for the only player to reach the top (default 0: none)":
        "Bonus für den einzigen Spieler, der den Top erreicht (Vorgabe 0: keiner)",
    "the solo bonus needs at least N players (default 16)": "der Solo-Bonus braucht mindestens N Spieler (Vorgabe 16)",
    "what a move handed in late costs (submit --late, or a phone's move after the round time): count (flagged only; "
    "default), zero (0 points) or penalty (--late-penalty)":
        "was ein zu spät abgegebener Zug kostet (submit --late, oder ein Handy-Zug nach der Rundenzeit): count (nur "
        "markiert; Vorgabe), zero (0 Punkte) oder penalty (--late-penalty)",
    "points deducted for a late move (implies --late-submission penalty)":
        "Punktabzug für einen verspäteten Zug (bedeutet --late-submission penalty)",
    "seconds after the round time before a phone's move is late (default 0)":
        "Sekunden nach der Rundenzeit, bevor ein Handy-Zug verspätet ist (Vorgabe 0)",
    "points deducted per warning beyond the free ones (default 0: warnings cost nothing)":
        "Punktabzug je Verwarnung über die freien hinaus (Vorgabe 0: Verwarnungen kosten nichts)",
    "warnings per player without a deduction (default 0)": "Verwarnungen je Spieler ohne Abzug (Vorgabe 0)",
    "racks come from a real bag: every `round --start` needs --rack (the tiles drawn), and the projection shows no "
    "rack before it":
        "die Bänkchen kommen aus einem echten Beutel: jedes „round --start“ braucht --rack (die gezogenen Steine), "
        "und die Projektion zeigt vorher kein Bänkchen",
    "start the round's clock now (recorded)": "die Uhr der Runde jetzt starten (wird gespeichert)",
    "with --start: the tiles drawn from a physical bag (the leave stays on the rack and is added; or give the whole "
    "rack); ? = blank. Checked against the bag and the vowel/consonant minimum":
        "mit --start: die aus einem echten Beutel gezogenen Steine (der Rest bleibt auf dem Bänkchen und kommt "
        "dazu; oder das ganze Bänkchen angeben); ? = Joker. Gegen den Beutel und das Vokal-/Konsonanten-Minimum "
        "geprüft",
    "one JSON object": "ein JSON-Objekt",
    "[DIR] PLAYER MOVE": "[VERZ] SPIELER ZUG",
    "refuse unless round N is the open round": "ablehnen, wenn nicht Runde N die offene ist",
    "the move was handed in late (it costs what new --late-submission says)":
        "der Zug wurde zu spät abgegeben (er kostet, was new --late-submission festlegt)",
    "[DIR] PLAYER POINTS": "[VERZ] SPIELER PUNKTE",
    "the round (default: the open round, after the end the last)":
        "die Runde (Vorgabe: die offene, nach dem Ende die letzte)",
    "why (shown in the standings and exports)": "Grund (im Stand und in den Exporten gezeigt)",
    "[DIR] PLAYER": "[VERZ] SPIELER",
    "why": "Grund",
    "[DIR] NAME": "[VERZ] NAME",
    "the player's table number": "die Tischnummer des Spielers",
    "place this one of the tied top moves instead of the tie-break's":
        "diesen der gleich hohen Top-Züge legen statt des durch die Entscheidungsregel gewählten",
    "standings after round N": "Stand nach Runde N",
    "refuse unless the last action is journal entry N (see --show): an undo that was interrupted and is run again "
    "does not take back a second action":
        "ablehnen, wenn die letzte Aktion nicht Journal-Eintrag N ist (siehe --show): ein unterbrochenes und "
        "wiederholtes Zurücknehmen nimmt keine zweite Aktion zurück",
    "only show which entry undo would take back": "nur zeigen, welchen Eintrag undo zurücknähme",
    "write the salvaged journal (the old one is kept as journal.damaged-TIME)":
        "das gerettete Journal schreiben (das alte bleibt als journal.damaged-ZEIT erhalten)",
    "output directory (default DIR/export)": "Ausgabeverzeichnis (Vorgabe VERZ/export)",
    "bag seed (new --seed S gives the same game)": "Startwert des Beutels (new --seed S ergibt dieselbe Partie)",
    "new directory for the event and its exports": "neues Verzeichnis für das Turnier und seine Exporte",
    "print a JSON summary": "eine JSON-Zusammenfassung ausgeben",
    "no per-round lines": "keine Zeilen je Runde",
    # engine.cli.analyze
    "instead of --cgp: a game record, the position before --turn K (default: after the last entry) as its mover "
    "sees it; with --infer the opponent's move before it is the last move":
        "statt --cgp: eine Partie, die Stellung vor --turn K (Vorgabe: nach dem letzten Eintrag), wie der Spieler "
        "am Zug sie sieht; mit --infer ist der Zug des Gegners davor der letzte Zug",
    "with --gcg: the turn about to be played (0-based)": "mit --gcg: der als Nächstes zu spielende Zug (ab 0 gezählt)",
    "leave table, KLV2 or KLV (default: the packaged German table)":
        "Restwert-Tabelle, KLV2 oder KLV (Vorgabe: die mitgelieferte deutsche Tabelle)",
    "the N best moves (default 20; best-first)": "die N besten Züge (Vorgabe 20; die besten zuerst)",
    "rank every move": "alle Züge ordnen",
    "seconds for the endgame / pre-endgame search (default 10); with more than 3 tiles in the bag, giving it runs a "
    "simulation for that long":
        "Sekunden für die Suche im Endspiel / Vor-Endspiel (Vorgabe 10); mit mehr als 3 Steinen im Beutel läuft "
        "so lange eine Simulation",
    "static equity only, no endgame, pre-endgame or simulation search":
        "nur statische Equity, keine Suche im Endspiel, Vor-Endspiel oder per Simulation",
    "moves the pre-endgame (default 8) or the simulation (default 10) evaluates, the best by static equity; --top "
    "only limits the static table":
        "Züge, die das Vor-Endspiel (Vorgabe 8) oder die Simulation (Vorgabe 10) bewertet, die besten nach "
        "statischer Equity; --top begrenzt nur die statische Tabelle",
    "seed of the simulation (bag > 3 tiles; default 1)": "Startwert der Simulation (Beutel > 3 Steine; Vorgabe 1)",
    "the simulation draws the opponent's rack from the leave inferred from --last-move (with --gcg: the move before "
    "the position; engine infer); needs --time":
        "die Simulation zieht das Bänkchen des Gegners aus dem Rest, der aus --last-move erschlossen wird (mit "
        "--gcg: der Zug vor der Stellung; engine infer); braucht --time",
    "with --infer: the opponent's last move on the CGP's board ('8H WO(R)T', --last-move=-3)":
        "mit --infer: der letzte Zug des Gegners auf dem Brett der CGP ('8H WO(R)T', --last-move=-3)",
    "with --infer: equity margin in points (default 5)": "mit --infer: Equity-Spielraum in Punkten (Vorgabe 5)",
    "deal seed (the same seed deals the same position)":
        "Startwert des Austeilens (derselbe Startwert teilt dieselbe Stellung aus)",
    "turns played before the position (default: 2..16, from the seed)":
        "vor der Stellung gespielte Züge (Vorgabe: 2..16, aus dem Startwert)",
    "your move ('8H WORT', 'H8 WO(R)T'; exchanges as --move=-QY or 'exchange QY'); default: read one line from stdin":
        "Ihr Zug ('8H WORT', 'H8 WO(R)T'; Tauschen als --move=-QY oder 'exchange QY'); Vorgabe: eine Zeile von "
        "stdin lesen",
    "best moves to show (default 5)": "Zahl der gezeigten besten Züge (Vorgabe 5)",
    "leave table (default: the packaged German table)": "Restwert-Tabelle (Vorgabe: die mitgelieferte deutsche Tabelle)",
    "seconds for the deeper answer of the position's phase: endgame solver (bag empty), pre-endgame (1-3 tiles) or "
    "simulation (default 5)":
        "Sekunden für die tiefere Antwort der Spielphase: Endspiel-Löser (Beutel leer), Vor-Endspiel (1–3 Steine) "
        "oder Simulation (Vorgabe 5)",
    "static equity only: no solver, no simulation": "nur statische Equity: kein Löser, keine Simulation",
    # engine.cli.simulate
    "Simulate the top candidates of a position: draw the opponent's rack from the unseen tiles, play the candidate "
    "and PLIES more moves with static players, report mean spread and win rate with 95% confidence intervals; "
    "candidates clearly behind are dropped early.":
        "Die besten Kandidaten einer Stellung simulieren: das Bänkchen des Gegners aus den ungesehenen Steinen "
        "ziehen, den Kandidaten und HALBZÜGE weitere Züge mit statischen Spielern spielen, mittlere Differenz und "
        "Siegquote mit 95-%-Konfidenzintervallen angeben; deutlich zurückliegende Kandidaten fallen früh heraus.",
    "simulate the N best moves by static equity (default 10)":
        "die N besten Züge nach statischer Equity simulieren (Vorgabe 10)",
    "simulate this move instead ('8H HA(U)S'; an exchange as --move=-ABC, a pass as --move=-); repeatable":
        "stattdessen diesen Zug simulieren ('8H HA(U)S'; Tauschen als --move=-ABC, Passen als --move=-); "
        "mehrfach möglich",
    "moves played after the candidate (default 2)": "nach dem Kandidaten gespielte Züge (Vorgabe 2)",
    "iterations per candidate (default 1000)": "Durchläufe je Kandidat (Vorgabe 1000)",
    "run seed (default random; printed)": "Startwert des Laufs (Vorgabe zufällig; wird ausgegeben)",
    "worker processes / Ray tasks (default: every core; 1 runs in this process)":
        "Arbeitsprozesse / Ray-Aufgaben (Vorgabe: jeder Kern; 1 rechnet in diesem Prozess)",
    "where iterations run (default: local for 1 worker, else process)":
        "wo die Durchläufe rechnen (Vorgabe: local bei 1 Prozess, sonst process)",
    "Ray cluster address (default: a local Ray instance)": "Adresse des Ray-Clusters (Vorgabe: eine lokale Ray-Instanz)",
    "static players: equity (default; engine.game.equity: score + bag-aware leave term, exchanges), score (best "
    "score), leave (score + leave table, no bag fade)":
        "statische Spieler: equity (Vorgabe; engine.game.equity: Punkte + Restwert je nach Beutel, Tauschen), "
        "score (meiste Punkte), leave (Punkte + Restwert-Tabelle, ohne Ausblenden zum Spielende)",
    "leave table file for --player leave/equity (default: packaged)":
        "Restwert-Tabelle für --player leave/equity (Vorgabe: die mitgelieferte)",
    "run every candidate to the full budget": "jeden Kandidaten bis zum vollen Budget rechnen",
    "what the early stop and the ranking compare (default spread)":
        "was der frühe Abbruch und die Rangfolge vergleichen (Vorgabe spread)",
    "early stop: successive elimination at error level --error (default), or the older interval-overlap rule":
        "früher Abbruch: schrittweises Ausscheiden mit Irrtumsniveau --error (Vorgabe) oder die ältere Regel der "
        "überlappenden Intervalle",
    "chance of ever dropping the best candidate, elimination rule (default 0.05)":
        "Wahrscheinlichkeit, den besten Kandidaten je auszuscheiden, Ausscheidungsregel (Vorgabe 0.05)",
    "iterations per candidate between stop checks": "Durchläufe je Kandidat zwischen zwei Abbruchprüfungen",
    "no early stop before this many iterations": "kein früher Abbruch vor so vielen Durchläufen",
    "stop after this long": "nach dieser Zeit anhalten",
    "use the CGP's opponent rack instead of drawing it": "das Bänkchen des Gegners aus der CGP nehmen statt es zu ziehen",
    "draw the opponent's rack from the leave inferred from their last move (engine infer)":
        "das Bänkchen des Gegners aus dem Rest ziehen, der aus seinem letzten Zug erschlossen wird (engine infer)",
    "with --infer: the opponent's last move, on the CGP's board ('8H WO(R)T', --last-move=-3 for an exchange of 3 "
    "tiles)":
        "mit --infer: der letzte Zug des Gegners auf dem Brett der CGP ('8H WO(R)T', --last-move=-3 für einen "
        "Tausch von 3 Steinen)",
    # engine.cli.endgame
    "position in CGP notation, racks 'MINE/THEIRS' (THEIRS may be left out: the unseen tiles)":
        "Stellung in CGP-Schreibweise, Bänkchen 'MEINS/SEINS' (SEINS darf fehlen: die ungesehenen Steine)",
    "stop after D plies (passes count)": "nach D Halbzügen anhalten (Passen zählt)",
    "time limit in seconds (10 or 10s), read on --clock; when it stops the search the answer is marked NOT SOLVED "
    "(the deepest completed depth's estimate)":
        "Zeitgrenze in Sekunden (10 oder 10s), gemessen nach --clock; beendet sie die Suche, ist die Antwort als "
        "NICHT GELÖST markiert (die Schätzung der tiefsten fertigen Tiefe)",
    "clock of --time: wall (elapsed, default) or cpu (CPU seconds of the solve)":
        "Uhr von --time: wall (verstrichene Zeit, Vorgabe) oder cpu (CPU-Sekunden der Lösung)",
    "node limit (after depth 1, which is always searched); marked NOT SOLVED when it stops":
        "Knotengrenze (nach Tiefe 1, die immer durchsucht wird); als NICHT GELÖST markiert, wenn sie die Suche "
        "beendet",
    "position in CGP notation (the opponent's rack may be unknown)":
        "Stellung in CGP-Schreibweise (das Bänkchen des Gegners darf unbekannt sein)",
    "candidates to evaluate (default 8, by equity)": "zu bewertende Kandidaten (Vorgabe 8, nach Equity)",
    "time budget in seconds for all candidates (default 10)": "Zeitbudget in Sekunden für alle Kandidaten (Vorgabe 10)",
    "plies for each endgame solve (default: to the end within the time budget)":
        "Halbzüge je Endspiel-Lösung (Vorgabe: bis zum Ende im Zeitbudget)",
    "the opponent's last move on this board (8H WO(R)T): weight its racks by the inference":
        "der letzte Zug des Gegners auf diesem Brett (8H WO(R)T): seine Bänkchen nach dem Rückschluss gewichten",
    "--time counts CPU seconds of this process, not wall time":
        "--time zählt CPU-Sekunden dieses Prozesses, nicht die verstrichene Zeit",
    # engine.cli.infer
    "From the opponent's last move, the distribution of the tiles they kept: every leave drawn from the unseen tiles "
    "is checked, the static equity player's best move from the full rack must be within --margin of the move played.":
        "Aus dem letzten Zug des Gegners die Verteilung der Steine, die er behalten hat: jeder aus den ungesehenen "
        "Steinen gezogene Rest wird geprüft; der beste Zug des statischen Equity-Spielers mit dem ganzen Bänkchen "
        "muss innerhalb von --margin beim gespielten Zug liegen.",
    "the position after the opponent's move (your rack; quote it)":
        "die Stellung nach dem Zug des Gegners (Ihr Bänkchen; in Anführungszeichen)",
    "the opponent's last move, on the board: '8H WO(R)T' (old tiles in parentheses), '--move=-3' (3 unseen tiles "
    "exchanged) or '--move=-ABC'":
        "der letzte Zug des Gegners auf dem Brett: '8H WO(R)T' (liegende Steine in Klammern), '--move=-3' (3 "
        "ungesehene Steine getauscht) oder '--move=-ABC'",
    "instead of --cgp/--move: a game record; the position before --turn K (default: after the last entry) and the "
    "opponent's move before it (an exchange counts as -N)":
        "statt --cgp/--move: eine Partie; die Stellung vor --turn K (Vorgabe: nach dem letzten Eintrag) und der "
        "Zug des Gegners davor (ein Tausch zählt als -N)",
    "with --cgp: tiles known to have been on the opponent's rack before the move (e.g. a play they took back since "
    "their last draw); the rack must hold them":
        "mit --cgp: Steine, die bekanntlich vor dem Zug auf dem Bänkchen des Gegners lagen (z. B. ein seit seinem "
        "letzten Ziehen zurückgenommener Zug); das Bänkchen muss sie enthalten",
    "with --cgp: unseen tiles known not to have been on it (e.g. the tiles you put back in an exchange after their "
    "last draw)":
        "mit --cgp: ungesehene Steine, die bekanntlich nicht darauf lagen (z. B. die Steine, die Sie nach seinem "
        "letzten Ziehen beim Tauschen zurückgelegt haben)",
    "equity margin in points (default 5, as MAGPIE)": "Equity-Spielraum in Punkten (Vorgabe 5, wie MAGPIE)",
    "most probable leaves to list (default 20)": "Zahl der aufgelisteten wahrscheinlichsten Reste (Vorgabe 20)",
    "enumerate exactly up to N candidate racks (default 60,000; about 0.2 ms each); beyond that check --samples "
    "racks drawn at random (not exact)":
        "bis zu N mögliche Bänkchen exakt aufzählen (Vorgabe 60.000; etwa 0,2 ms je Bänkchen); darüber --samples "
        "zufällig gezogene Bänkchen prüfen (nicht exakt)",
    "racks drawn when there are more than --max-racks (default 20,000)":
        "gezogene Bänkchen, wenn es mehr als --max-racks gibt (Vorgabe 20.000)",
    "seed of those random racks (default 0)": "Startwert dieser zufälligen Bänkchen (Vorgabe 0)",
    "leave table of the static player (default: the packaged one)":
        "Restwert-Tabelle des statischen Spielers (Vorgabe: die mitgelieferte)",
    # engine.web.cli
    "Serve the board editor and analysis page (and with --event the director's projection page) on loopback. "
    "docs/web.md":
        "Brett-Editor und Analyseseite (und mit --event die Projektionsseite der Turnierleitung) auf Loopback "
        "anbieten. docs/web.md",
    "TCP port (default 8765)": "TCP-Port (Vorgabe 8765)",
    "address to listen on (default 127.0.0.1, this machine only; 0.0.0.0 = every interface)":
        "Adresse, auf der gelauscht wird (Vorgabe 127.0.0.1, nur dieser Rechner; 0.0.0.0 = jede Schnittstelle)",
    "leave table (.klv/.klv2/.npz) for equity (default: the packaged table)":
        "Restwert-Tabelle (.klv/.klv2/.npz) für die Equity (Vorgabe: die mitgelieferte Tabelle)",
    "a simultaneous event directory to project on /director":
        "ein Simultan-Turnierverzeichnis, das auf /director projiziert wird",
    "with --event: the director's arbitration screen on /director/admin, guarded by a random key printed once at "
    "start":
        "mit --event: der Schiedsrichter-Bildschirm der Turnierleitung auf /director/admin, geschützt durch einen "
        "zufälligen Schlüssel, der beim Start einmal ausgegeben wird",
    "with --event: players enter their moves on their phones (/spieler); personal links are printed once (stored "
    "hashed in the event directory); use with --host 0.0.0.0":
        "mit --event: die Spieler geben ihre Züge am Handy ein (/spieler); persönliche Links werden einmal "
        "ausgegeben (gehasht im Turnierverzeichnis gespeichert); zusammen mit --host 0.0.0.0",
    "with --players-submit: make new player links (the old ones stop working)":
        "mit --players-submit: neue Spieler-Links erzeugen (die alten gelten nicht mehr)",
    "API requests per client (default 40/second)": "API-Anfragen je Client (Vorgabe 40/Sekunde)",
    "believe X-Forwarded-For from this reverse proxy (comma-separated addresses or networks); default: forwarded "
    "headers are ignored, the client is the connection's address":
        "X-Forwarded-For von diesem Reverse-Proxy glauben (Adressen oder Netze, durch Kommas getrennt); Vorgabe: "
        "weitergeleitete Kopfzeilen werden übergangen, der Client ist die Adresse der Verbindung",
    "analysis requests (/api/moves, /api/score) admitted at once, running or waiting; more get 503 with Retry-After "
    "(default 8)":
        "gleichzeitig zugelassene Analyse-Anfragen (/api/moves, /api/score), laufend oder wartend; weitere "
        "bekommen 503 mit Retry-After (Vorgabe 8)",
    "seconds a client has to send a whole request; slower ones are disconnected (default 10)":
        "Sekunden, in denen ein Client eine ganze Anfrage senden muss; langsamere werden getrennt (Vorgabe 10)",
    "where the games against the computer (/spielen) are kept (default: $GSE_GAMES_DIR, else "
    "~/.local/share/german-scrabble-engine/spiele); a game in progress played in the last 30 days is never deleted; "
    "a full server deletes untouched, finished and idle ones first":
        "wo die Partien gegen den Computer (/spielen) liegen (Vorgabe: $GSE_GAMES_DIR, sonst "
        "~/.local/share/german-scrabble-engine/spiele); eine laufende, in den letzten 30 Tagen gespielte Partie "
        "wird nie gelöscht; ein voller Server löscht zuerst unberührte, beendete und ruhende",
    "games against the computer kept at most (default 20000; a few KB each, a reviewed one up to ~100 KB); at most "
    "40 games in progress per address":
        "höchstens so viele Partien gegen den Computer aufbewahren (Vorgabe 20000; je einige KB, eine analysierte "
        "bis etwa 100 KB); höchstens 40 laufende Partien je Adresse",
    # engine.cli.review
    "the GCG record": "die GCG-Partie",
    "seconds per turn for a simulation: the loss in win %% (default: static equity, fast)":
        "Sekunden je Zug für eine Simulation: der Verlust in Sieg-%% (Vorgabe: statische Equity, schnell)",
    "review only this player's turns (nickname)": "nur die Züge dieses Spielers analysieren (Kürzel)",
    "write the win %% curve as SVG to FILE (*.svg)": "die Sieg-%%-Kurve als SVG nach DATEI schreiben (*.svg)",
    "time limit per endgame solve (default 10 s; exact when the solve completes)":
        "Zeitgrenze je Endspiel-Lösung (Vorgabe 10 s; exakt, wenn die Lösung fertig wird)",
    "review the turns with an empty bag by static equity": "die Züge bei leerem Beutel nach statischer Equity analysieren",
    "the simulation's seed (with --time; default 0)": "Startwert der Simulation (mit --time; Vorgabe 0)",
    "lexicon bundle (default: the record's #lexicon, else the packaged list)":
        "Lexikon-Datei (Vorgabe: #lexicon der Partie, sonst die mitgelieferte Liste)",
}
"""The help texts of ``python -m engine`` and its subcommands (English -> German)."""
