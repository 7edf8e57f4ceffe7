"""The German texts of the command line: English message (the key, as written in the code) -> German.

Used by :func:`engine.lang.tr`. A key is the exact English template, fields included; the
German text has the same fields (tests/cli/test_lang.py checks both, and that every literal
message of the code is here). Terms as on the web pages (engine/web/static/i18n.js): Zug,
Punkte (Pkt.), Rest, Restwert, Equity, Differenz, Sieg %, Bänkchen, Beutel, Endspiel,
Vor-Endspiel, Hauptvariante. Table headings keep the English column width (abbreviated
where the German word is longer).
"""

from __future__ import annotations

from engine.lang import german_number

DE: dict[str, str] = {
    # -- prefixes of stderr lines -------------------------------------------------------------------
    "note: {msg}": "Hinweis: {msg}",
    "warning: {message}": "Warnung: {message}",
    "error: {exc}": "Fehler: {exc}",
    "error: interrupted": "Fehler: abgebrochen",
    "cannot read": "nicht lesbar",
    # -- the default lexicon's first-use build (lexicon_tools.bundle.FirstUseProgress) ---------------
    "default lexicon": "Standard-Wortliste",
    "reading the packaged list": "lese die mitgelieferte Liste",
    "building graph (DAWG + GADDAG)": "baue den Graphen (DAWG + GADDAG)",
    "verifying graph": "prüfe den Graphen",
    "writing bundle": "schreibe die Wortliste",
    "done": "fertig",
    "default lexicon built": "Standard-Wortliste gebaut",
    "error: {exc}; try again": "Fehler: {exc}; bitte noch einmal",
    "error: interrupted while compiling ({step}); the steps done are kept: run the command again, or "
    "`python -m engine warmup`, to finish":
        "Fehler: beim Übersetzen abgebrochen ({step}); was fertig ist, bleibt: den Befehl noch einmal aufrufen "
        "oder „python -m engine warmup“, um den Rest zu übersetzen",
    # -- the short usage (engine.cli.main.COMMAND_GROUPS) --------------------------------------------------
    "argument {opt}: expected one value, not '--'": "Argument {opt}: ein Wert erwartet, nicht „--“",
    "COMMAND": "BEFEHL",
    "a position": "eine Stellung",
    "games": "Partien",
    "simultaneous Scrabble": "Simultan-Scrabble",
    "in the browser": "im Browser",
    "set-up and tools": "Einrichtung, Werkzeuge",
    "  (`python -m engine COMMAND --help`: the command's options)":
        "  („python -m engine BEFEHL --help“: die Optionen des Befehls)",
    "a GCG file needs #player1 and #player2 lines (one player only with #rules simultan)":
        "eine GCG-Datei braucht die Zeilen „#player1“ und „#player2“ (nur einen Spieler mit „#rules simultan“)",
    # -- moves, best, score, warmup -------------------------------------------------------------------
    "no legal placement; pass or exchange": "kein gültiges Legen; passen oder tauschen",
    "no legal placement; pass": "kein gültiges Legen; passen",
    "{move:<24} {score:>4}  leave {leave}": "{move:<24} {score:>4}  Rest {leave}",
    "# {n} placements, {x} exchanges, pass; generated in {ms:.2f} ms":
        "# {n} Legemöglichkeiten, {x} Tauschmöglichkeiten, Passen; erzeugt in {ms:.2f} ms",
    "illegal: {reason}": "ungültig: {reason}",
    "{move}: {score} points": "{move}: {score} Punkte",
    "  bingo             +50": "  Bingo             +50",
    "--top must be at least 1, got {n}": "--top muss mindestens 1 sein, nicht {n}",
    "unknown step(s) {unknown}; the steps: {steps}": "unbekannte(r) Schritt(e) {unknown}; die Schritte: {steps}",
    "to do": "offen",
    "done": "fertig",
    "{step:<11} {cpu:6.1f} s CPU  {what}": "{step:<11} {cpu:6.1f} s CPU  {what}",
    "every kernel is compiled already (`--force` compiles again)":
        "alle Kernel sind schon übersetzt („--force“ übersetzt sie noch einmal)",
    "compiled in {cpu:.1f} s of CPU ({wall:.0f} s wall); later runs load it from the cache":
        "übersetzt in {cpu:.1f} s CPU ({wall:.0f} s Uhrzeit); spätere Aufrufe laden es aus dem Zwischenspeicher",
    "the compiled move generator {what} is damaged and was not loaded (the JIT kernels answered); "
    "it is compiled again": "der vorübersetzte Zuggenerator {what} ist beschädigt und wurde nicht geladen (die "
                            "JIT-Kernel haben geantwortet); er wird neu übersetzt",
    "the ahead-of-time module was not written: the cache directory {dir} cannot be written ({why}); set "
    "GSE_CACHE_DIR to a writable directory, or GSE_AOT=0 to go without it":
        "das vorübersetzte Modul wurde nicht geschrieben: in den Zwischenspeicher {dir} kann nicht geschrieben "
        "werden ({why}); GSE_CACHE_DIR auf ein beschreibbares Verzeichnis setzen oder mit GSE_AOT=0 darauf "
        "verzichten",
    "the ahead-of-time module was not written: another process is compiling it right now (lock file in {dir}); "
    "run `python -m engine warmup aot` again when it is done":
        "das vorübersetzte Modul wurde nicht geschrieben: ein anderer Prozess übersetzt es gerade (Sperrdatei in "
        "{dir}); „python -m engine warmup aot“ noch einmal aufrufen, wenn er fertig ist",
    "the ahead-of-time compilation failed ({why}); the commands use the JIT kernels (remove {failed} or pass "
    "--force to try again)": "das Vorübersetzen ist gescheitert ({why}); die Befehle nutzen die JIT-Kernel "
                             "({failed} löschen oder --force angeben, um es noch einmal zu versuchen)",
    "the ahead-of-time module was not written into {dir}": "das vorübersetzte Modul wurde nicht in {dir} geschrieben",
    "move generator (all moves, best move, equity)": "Zuggenerator (alle Züge, bester Zug, Equity)",
    "move generator compiled ahead of time (a fast `best`/`moves`)":
        "Zuggenerator vorab übersetzt (schnelles „best“/„moves“)",
    "self-play game kernel": "Kernel für Partien Computer gegen Computer",
    "simulation rollouts": "Simulationsläufe",
    "endgame solver (full and pruned lexicon)": "Endspiel-Löser (volle und gekürzte Wortliste)",
    "rack inference": "Rückschluss auf das Bänkchen",
    "could not start the ahead-of-time build in the background ({exc}); `python -m engine warmup aot` does it":
        "konnte das Vorab-Übersetzen nicht im Hintergrund starten ({exc}); „python -m engine warmup aot“ erledigt es",
    "compiling the deep analysis in its worker process in the background (once; it is cached for later starts; "
    "a deep analysis asked for meanwhile waits for it, the Meister plays static equity)":
        "übersetze die genaue Analyse in ihrem Rechenprozess im Hintergrund (einmal; für spätere Starts "
        "zwischengespeichert; eine genaue Analyse wartet so lange, der Meister spielt nach statischer Equity)",
    "deep analysis ready ({s} s)": "genaue Analyse bereit ({s} s)",
    "starting the deep analysis worker failed ({exc}); the first deep analysis starts it":
        "der Rechenprozess der genauen Analyse ist nicht gestartet ({exc}); die erste genaue Analyse startet ihn",
    "compiling the move generator ahead of time in the background (once, about 20 s of CPU) so that later "
    "starts skip Numba; `python -m engine warmup` compiles every kernel ahead; GSE_AOT=0 turns this off":
        "übersetze den Zuggenerator vorab im Hintergrund (einmal, etwa 20 s CPU), damit spätere Starts ohne Numba "
        "auskommen; „python -m engine warmup“ übersetzt alle Kernel vorab; GSE_AOT=0 schaltet das ab",
    "the cache directory {dir} cannot be written ({why}): the move generator is not compiled ahead of time, and "
    "every start uses the JIT kernels (from Numba's cache, else compiled in memory); set GSE_CACHE_DIR to a "
    "writable directory, or GSE_AOT=0 to go without it":
        "in den Zwischenspeicher {dir} kann nicht geschrieben werden ({why}): der Zuggenerator wird nicht vorab "
        "übersetzt, jeder Start nutzt die JIT-Kernel (aus Numbas Zwischenspeicher, sonst im Speicher übersetzt); "
        "GSE_CACHE_DIR auf ein beschreibbares Verzeichnis setzen oder mit GSE_AOT=0 darauf verzichten",
    "first run: compiling the kernels this command needs, once ({n} step(s); they are cached for later runs, the "
    "time limit starts after this; `python -m engine warmup` does all of them ahead)":
        "erster Aufruf: die Kernel, die dieser Befehl braucht, werden einmal übersetzt ({n} Schritt(e); sie werden "
        "für spätere Aufrufe gespeichert, die Zeitgrenze beginnt danach; „python -m engine warmup“ übersetzt alle "
        "vorab)",
    "compiling {i}/{n} {step}, about {left} of CPU left ": "übersetze {i}/{n} {step}, noch etwa {left} CPU ",
    "compiling {i}/{n}: {what} (about {left} of CPU left in all)":
        "übersetze {i}/{n}: {what} (insgesamt noch etwa {left} CPU)",
    "interrupted (Ctrl-C); the figures reached so far follow (not exact where not solved)":
        "abgebrochen (Strg+C); es folgen die bisherigen Zahlen (nicht exakt, wo nicht gelöst)",
    # -- gcg and the score pad ------------------------------------------------------------------------
    "entry": "Eintrag",
    "file": "DATEI",
    "{move} withdrawn 0": "{move} zurück 0",
    "exchanges {n} 0": "tauscht {n} 0",
    "passes 0": "passt 0",
    "by hand {score:+d}": "von Hand {score:+d}",
    "not re-scored (points by hand, no placement): {rows}": "nicht nachgerechnet (Punkte von Hand, kein gelegter Zug): {rows}",
    "line {line} ({who} {score:+d})": "Zeile {line} ({who} {score:+d})",
    "left on rack": "Reststeine",
    "out bonus": "Ausgespielt",
    "time penalty": "Zeitstrafe",
    "challenge": "Anfechtung",
    " and ": " und ",
    "winner: {who} ({why})": "Sieger: {who} ({why})",
    "draw: {who} ({why})": "unentschieden: {who} ({why})",
    "ended by out": "Ende: ausgespielt",
    "ended by passes": "Ende: Züge ohne Punkte in Folge",
    "ended by agreement": "Ende: vereinbart",
    "ended by time": "Ende: Zeit abgelaufen",
    "--games must be at least 1, got {n}": "--games muss mindestens 1 sein, nicht {n}",
    "{rules} rules: {lo} to {hi} players, got {n}": "Regeln {rules}: {lo} bis {hi} Spieler, nicht {n}",
    "--strength takes two of {names} separated by a comma, got {got!r}":
        "--strength nimmt zwei von {names}, durch ein Komma getrennt, nicht {got!r}",
    "--strength plays two-player deal pairs and writes no GCG files: drop --players/--out":
        "--strength spielt Paare von Partien zu zweit und schreibt keine GCG-Dateien: --players/--out weglassen",
    "--seconds must be positive, got {s}": "--seconds muss positiv sein, nicht {s}",
    "pair {i}/{n}: {a} - {b} {spread:+.1f} a game so far": "Paar {i}/{n}: {a} - {b} bisher {spread:+.1f} je Partie",
    "{a} against {b} ({s:g} s a move), {pairs} deal pairs, {games} games":
        "{a} gegen {b} ({s:g} s je Zug), {pairs} Paare gleicher Ziehung, {games} Partien",
    "  {a}: {spread:+.1f} points a game (95 % interval {lo:+.1f} .. {hi:+.1f}), won {wins:g} of {games}":
        "  {a}: {spread:+.1f} Punkte je Partie (95-%-Intervall {lo:+.1f} .. {hi:+.1f}), {wins:g} von {games} gewonnen",
    "  CPU a move: {ca:.2f} s ({a}), {cb:.2f} s ({b})": "  CPU je Zug: {ca:.2f} s ({a}), {cb:.2f} s ({b})",
    "{games} games, {players} players, {s:.2f} s ({rate:.1f} games/s)":
        "{games} Partien, {players} Spieler, {s:.2f} s ({rate:.1f} Partien/s)",
    "  p{p}: mean score {mean:.1f}, wins {wins:g}": "  p{p}: im Mittel {mean:.1f} Punkte, {wins:g} Siege",
    "  draws {draws}, bingos/game {bingos:.2f}, moves/game {moves:.1f} (plays {plays:.1f})":
        "  unentschieden {draws}, Bingos je Partie {bingos:.2f}, Züge je Partie {moves:.1f} (gelegt {plays:.1f})",
    "  ended by {ends}": "  Ende: {ends}",
    "out": "ausgespielt",
    "passes": "Züge ohne Punkte",
    "agreement": "vereinbart",
    "master game (simultaneous Scrabble): {n} moves, {score} points":
        "Meisterpartie (Simultan-Scrabble): {n} Züge, {score} Punkte",
    "game not finished": "Partie nicht beendet",
    "--position {k}: the game has turns 0..{n}": "--position {k}: die Partie hat die Züge 0..{n}",
    "  GCG files in {out}": "  GCG-Dateien in {out}",
    "{file}: the record was played with '#lexicon {name}', which is not a known lexicon here (no {name}.lex "
    "beside the file or in the cache): pass --lexicon PATH of that word list, or --no-words to check placements "
    "and scores only":
        "{file}: die Partie wurde mit „#lexicon {name}“ gespielt, einer hier unbekannten Wortliste (keine "
        "{name}.lex neben der Datei oder im Zwischenspeicher): --lexicon PFAD dieser Wortliste angeben, oder "
        "--no-words, um nur Legen und Punkte zu prüfen",
    "{file}: the record was played with '#lexicon {name}', which is not a known lexicon here (no {name}.lex "
    "beside the file or in the cache): pass --lexicon PATH of that word list":
        "{file}: die Partie wurde mit „#lexicon {name}“ gespielt, einer hier unbekannten Wortliste (keine "
        "{name}.lex neben der Datei oder im Zwischenspeicher): --lexicon PFAD dieser Wortliste angeben",
    # -- analyze and practice -------------------------------------------------------------------------
    "move": "Zug",
    "score": "Pkt.",
    "leave": "Rest",
    "leave value": "Restwert",
    "equity": "Equity",
    "rack {rack}  bag {bag}  ({note})": "Bänkchen {rack}  Beutel {bag}  ({note})",
    "leave values × {scale:.2f}": "Restwerte × {scale:.2f}",
    "bag empty: going out +2×unseen, tiles kept −(2×value + {stuck:g})":
        "Beutel leer: Ausspielen +2×Ungesehene, behaltene Steine −(2×Wert + {stuck:g})",
    "--candidates must be 1..100, got {n}": "--candidates muss 1..100 sein, nicht {n}",
    "--last-move is read only with --infer": "--last-move gilt nur mit --infer",
    "--infer and --static exclude each other (--infer is for the simulation)":
        "--infer und --static schließen einander aus (--infer gilt der Simulation)",
    "--turn is read only with --gcg": "--turn gilt nur mit --gcg",
    "position {cgp} (the opponent's last move: {last})": "Stellung {cgp} (letzter Zug des Gegners: {last})",
    "position {cgp}": "Stellung {cgp}",
    "the position has no rack to move (CGP rack field is empty)":
        "die Stellung hat kein Bänkchen zum Ziehen (das Bänkchen-Feld der CGP ist leer)",
    "nothing to analyse: {why}": "nichts zu analysieren: {why}",
    "nothing to simulate: {why}": "nichts zu simulieren: {why}",
    "the player to move has no tiles left: the game is over":
        "der Spieler am Zug hat keine Steine mehr: die Partie ist zu Ende",
    "the opponent has played out their last tile: the game is over":
        "der Gegner hat seinen letzten Stein gelegt: die Partie ist zu Ende",
    "--turn {k}: the game has turns 0..{n}": "--turn {k}: die Partie hat die Züge 0..{n}",
    "no endgame search ({why})": "keine Endspielsuche ({why})",
    "endgame solver: best {move}, value {value:+d} (exact)": "Endspiel-Löser: bester Zug {move}, Wert {value:+d} (exakt)",
    "  pv: {pv}": "  Hauptvariante: {pv}",
    "endgame solver: {status}": "Endspiel-Löser: {status}",
    "  depth-{depth} estimate: {move}, value {value:+d}; pv: {pv}":
        "  Schätzung bei Tiefe {depth}: {move}, Wert {value:+d}; Hauptvariante: {pv}",
    "--infer draws the simulation's opponent racks: give --time too (e.g. --time 10s)":
        "--infer zieht die Bänkchen des Gegners für die Simulation: auch --time angeben (z. B. --time 10s)",
    "simulation (2 plies, {n} iterations in {s:.1f} s, stopped: {why}, error level {err:g} %, opponent's rack "
    "from the leave inferred from {last}):":
        "Simulation (2 Halbzüge, {n} Durchläufe in {s:.1f} s, beendet: {why}, Irrtumsniveau {err:g} %, Bänkchen "
        "des Gegners aus dem Rest, der aus {last} erschlossen ist):",
    "simulation (2 plies, {n} iterations in {s:.1f} s, stopped: {why}, error level {err:g} %):":
        "Simulation (2 Halbzüge, {n} Durchläufe in {s:.1f} s, beendet: {why}, Irrtumsniveau {err:g} %):",
    "  (dropped at {n})": "  (ausgeschieden bei {n})",
    "  {move:<24} win {win:5.1f} %  spread {spread:+.1f} ±{se:.1f}  n {n}":
        "  {move:<24} Sieg {win:5.1f} %  Differenz {spread:+.1f} ±{se:.1f}  n {n}",
    "--turns must be at least 0, got {n}": "--turns muss mindestens 0 sein, nicht {n}",
    "exchange: name the tiles to put back, e.g. -QY": "Tausch: die Steine nennen, die zurückgehen, z. B. -QY",
    "exchanging needs at least 7 tiles in the bag ({bag} left)":
        "Tauschen braucht mindestens 7 Steine im Beutel (noch {bag})",
    "exchange {tiles}: not all on the rack {rack}": "Tausch {tiles}: nicht alle auf dem Bänkchen {rack}",
    "illegal move {text!r}: {why}": "ungültiger Zug {text!r}: {why}",
    "your move (e.g. '8H WORT', 'H8 WO(R)T', '-QY' to exchange; empty line to stop): ":
        "Ihr Zug (z. B. „8H WORT“, „H8 WO(R)T“, „-QY“ zum Tauschen; leere Zeile beendet): ",
    "no move given (use --move or type one)": "kein Zug angegeben (--move oder einen eintippen)",
    "score: you {you}, opponent {them}; bag {bag} tiles": "Stand: Sie {you}, Gegner {them}; Beutel {bag} Steine",
    "your rack: {rack}": "Ihr Bänkchen: {rack}",
    "position: {cgp}": "Stellung: {cgp}",
    "your move {move}: {score} points, leave {leave} ({value:+.2f}), equity {equity:.2f}":
        "Ihr Zug {move}: {score} Punkte, Rest {leave} ({value:+.2f}), Equity {equity:.2f}",
    "  by score:  #{rank} of {n} placements": "  nach Punkten: Platz {rank} von {n} Legemöglichkeiten",
    "  by score:  - (an exchange scores 0; {n} placements)":
        "  nach Punkten: - (ein Tausch zählt 0; {n} Legemöglichkeiten)",
    "  by equity: #{rank} of {n} moves ({loss:.2f} below the best)":
        "  nach Equity: Platz {rank} von {n} Zügen ({loss:.2f} unter dem besten)",
    "best by equity:": "die besten nach Equity:",
    "best by score:": "die besten nach Punkten:",
    # -- simulation (engine.analysis.simulation, phase) ------------------------------------------------
    "iters": "Läufe",
    "spread": "Diff.",
    "win%": "Sieg %",
    "95% CI": "95 % KI",
    "win 95% CI": "Sieg 95 % KI",
    "{pct}% CI": "{pct} % KI",
    "win {pct}% CI": "Sieg {pct} % KI",
    "[{lo:+.1f}, {hi:+.1f}]": "[{lo:+.1f}; {hi:+.1f}]",
    "[{lo:.1f}, {hi:.1f}]": "[{lo:.1f}; {hi:.1f}]",
    "[{lo:>7.2f},{hi:>7.2f}]": "[{lo:>7.2f};{hi:>7.2f}]",
    "[{lo:>5.1f},{hi:>5.1f}]": "[{lo:>5.1f};{hi:>5.1f}]",
    "# seed {seed}, {plies} plies, {n} iterations in {s:.2f} s ({rate:.0f}/s, {backend} x{workers}); "
    "stopped: {why}":
        "# Startwert {seed}, {plies} Halbzüge, {n} Durchläufe in {s:.2f} s ({rate:.0f}/s, {backend} x{workers}); "
        "beendet: {why}",
    "single candidate": "nur ein Kandidat",
    "budget": "Durchläufe aufgebraucht",
    "one left": "einer übrig",
    "time": "Zeit um",
    "interrupted": "abgebrochen",
    "clearly ahead": "klar vorn",
    "simulation ({plies} plies, {n:,} iterations, {s:.1f} s; 95 % intervals{src}):":
        "Simulation ({plies} Halbzüge, {n:,} Durchläufe, {s:.1f} s; 95-%-Intervalle{src}):",
    "; opponent's rack from the leave inferred from {move}": "; Bänkchen des Gegners aus dem Rest, der aus {move} "
                                                             "erschlossen ist",
    " ({racks:,} of {possible:,} racks checked in time)": " ({racks:,} von {possible:,} Bänkchen rechtzeitig geprüft)",
    "interrupted (Ctrl-C) after {n:,} iterations; the figures so far follow":
        "abgebrochen (Strg+C) nach {n:,} Durchläufen; es folgen die bisherigen Zahlen",
    "-n/--candidates {n}: -n is how many of the best moves (by static equity) to simulate; give at least 1, or "
    "name moves with --move":
        "-n/--candidates {n}: -n ist die Zahl der besten Züge (nach statischer Equity), die simuliert werden; "
        "mindestens 1 angeben, oder Züge mit --move nennen",
    "-i/--iterations {n}: iterations per candidate, at least 1": "-i/--iterations {n}: Durchläufe je Kandidat, mindestens 1",
    "--time-limit must be a positive number of seconds, got {s:g}":
        "--time-limit muss eine positive Zahl von Sekunden sein, nicht {s:g}",
    "--leaves needs --player equity or --player leave": "--leaves braucht --player equity oder --player leave",
    "--infer needs the opponent's last move: --last-move '8H WO(R)T' (or --last-move=-3)":
        "--infer braucht den letzten Zug des Gegners: --last-move „8H WO(R)T“ (oder --last-move=-3)",
    "--infer and --known-opponent-rack exclude each other": "--infer und --known-opponent-rack schließen einander aus",
    "no kept rack is consistent with {move} within margin {margin:g}: the opponent's rack is drawn at random":
        "kein behaltener Rest passt zu {move} innerhalb von {margin:g} Punkten: das Bänkchen des Gegners wird "
        "zufällig gezogen",
    "opponent's leave inferred from {move}: {n:,} of {racks:,} racks consistent; most likely {top}":
        "Rest des Gegners aus {move} erschlossen: {n:,} von {racks:,} Bänkchen passen; am wahrscheinlichsten {top}",
    "opponent's leave inferred from {move}: {n:,} of {racks:,} racks consistent (sampled); most likely {top}":
        "Rest des Gegners aus {move} erschlossen: {n:,} von {racks:,} Bänkchen passen (Stichprobe); am "
        "wahrscheinlichsten {top}",
    # -- endgame, pre-endgame -------------------------------------------------------------------------
    "solved to the end of the game (exact), {nodes:,} nodes": "bis zum Ende der Partie gelöst (exakt), {nodes:,} Knoten",
    "NOT SOLVED: stopped by {why} after depth {depth}, {nodes:,} nodes; the move and value are the estimate of "
    "a {depth}-ply search, not the exact answer":
        "NICHT GELÖST: angehalten durch {why} nach Tiefe {depth}, {nodes:,} Knoten; Zug und Wert sind die "
        "Schätzung einer Suche über {depth} Halbzüge, nicht die exakte Antwort",
    "the time limit ({clock} clock)": "das Zeitlimit ({clock})",
    "wall": "Uhrzeit",
    "cpu": "CPU-Zeit",
    "the node limit": "das Knotenlimit",
    "the depth limit": "das Tiefenlimit",
    "Ctrl-C": "Strg+C",
    "a limit": "ein Limit",
    "nodes": "Knotenlimit",
    "depth": "Tiefenlimit",
    "interrupt": "Strg+C",
    "exact": "exakt",
    "yes": "ja",
    "no ({share:.0f} % of the draws solved)": "nein ({share:.0f} % der Ziehungen gelöst)",
    "depth {depth}, not exact (time limit)": "Tiefe {depth}, nicht exakt (Zeitlimit)",
    "endgame solver ({state}, {s:.1f} s): best {move}, value {value:+d} (final spread {final:+d})":
        "Endspiel-Löser ({state}, {s:.1f} s): bester Zug {move}, Wert {value:+d} (Endstand-Differenz {final:+d})",
    "  your move is the solver's best": "  Ihr Zug ist der beste des Lösers",
    "  your move {move} is not the solver's best": "  Ihr Zug {move} ist nicht der beste des Lösers",
    "partly approximated": "teils genähert",
    "pre-endgame ({state}, {s:.1f} s): {method}": "Vor-Endspiel ({state}, {s:.1f} s): {method}",
    "{option} {text!r}: expected seconds, e.g. 10 or 10s": "{option} {text!r}: Sekunden erwartet, z. B. 10 oder 10s",
    "{option} must be positive, got {text!r}": "{option} muss positiv sein, nicht {text!r}",
    "{option} must be a finite number of seconds, got {text!r}": "{option} muss eine endliche Zahl Sekunden sein, "
                                                               "nicht {text!r}",
    "max depth must be 1..{max} plies, got {n}": "die Tiefe muss 1..{max} Halbzüge sein, nicht {n}",
    "--nodes must be at least 1, got {n}": "--nodes muss mindestens 1 sein, nicht {n}",
    "depth {depth:>2}: {move:<22} value {value:+d}  nodes {nodes:,}  {s:.2f}s":
        "Tiefe {depth:>2}: {move:<22} Wert {value:+d}  Knoten {nodes:,}  {s:.2f}s",
    "  (complete)": "  (vollständig)",
    "interrupted (Ctrl-C); the answer of the deepest completed depth follows":
        "abgebrochen (Strg+C); es folgt die Antwort der tiefsten fertigen Tiefe",
    "racks {mine} / {theirs}, scores {a}/{b}": "Bänkchen {mine} / {theirs}, Stand {a}/{b}",
    "best move: {move}": "bester Zug: {move}",
    "value: {value:+d} (spread from now to the end, settlement included; final spread {final:+d})":
        "Wert: {value:+d} (Differenz von jetzt bis zum Ende, Abrechnung eingeschlossen; Endstand-Differenz "
        "{final:+d})",
    "pv: {pv}": "Hauptvariante: {pv}",
    "best move at depth {depth} (estimate): {move}": "bester Zug bei Tiefe {depth} (Schätzung): {move}",
    "value at depth {depth} (estimate, not exact): {value:+d}": "Wert bei Tiefe {depth} (Schätzung, nicht exakt): "
                                                                "{value:+d}",
    "pv (depth {depth}): {pv}": "Hauptvariante (Tiefe {depth}): {pv}",
    "complete (exact)": "vollständig (exakt)",
    "stopped by {why} (not exact)": "angehalten: {why} (nicht exakt)",
    "depth {depth}, {state}; {nodes:,} nodes in {wall:.2f} s wall, {cpu:.2f} s CPU":
        "Tiefe {depth}, {state}; {nodes:,} Knoten in {wall:.2f} s Uhrzeit, {cpu:.2f} s CPU",
    "pre-endgame, bag {bag} (unseen {unseen}), {s:.1f} s: {method}":
        "Vor-Endspiel, Beutel {bag} (ungesehen {unseen}), {s:.1f} s: {method}",
    "win %": "Sieg %",
    "draws": "Zieh.",
    ", draws sampled": ", Ziehungen als Stichprobe",
    ", the opponent's reply modelled": ", Antwort des Gegners nachgebildet",
    "--endgame-depth must be 1..60 plies, got {n}": "--endgame-depth muss 1..60 Halbzüge sein, nicht {n}",
    "round {i}: endgames up to {lim:,} nodes, {exact} of {of} moves exact":
        "Runde {i}: Endspiele bis {lim:,} Knoten, {exact} von {of} Zügen exakt",
    "no opponent rack is consistent with the last move {move!r} (engine infer explains); run without "
    "--last-move":
        "kein Bänkchen des Gegners passt zum letzten Zug {move!r} („engine infer“ erklärt es); ohne --last-move "
        "aufrufen",
    # -- review ---------------------------------------------------------------------------------------
    "turn": "Zug",
    "player": "Spieler",
    "rack": "Bänkchen",
    "played": "gespielt",
    "best": "bester Zug",
    "loss": "Verl.",
    "mark": "Wertung",
    "endgame": "Endspiel",
    "endgame, not exact": "Endspiel, nicht exakt",
    "bingo missed": "Bingo verpasst",
    "rack unknown": "Bänkchen unbekannt",
    "the simulation could not rank the played move": "die Simulation konnte den gespielten Zug nicht einordnen",
    "exchanged tiles unknown": "getauschte Steine unbekannt",
    "turns": "Züge",
    "avg loss": "Ø Verlust",
    "missed bingos": "verp. Bingos",
    "endgame loss": "Endspielverl.",
    "marks": "Wertungen",
    "(loss in equity points; endgame turns in spread points; marks: Ungenauigkeit/Fehler/Patzer, see "
    "docs/review.md)":
        "(Verlust in Equity-Punkten; Züge im Endspiel in Punkten der Differenz; Wertungen: "
        "Ungenauigkeit/Fehler/Patzer, siehe docs/review.md)",
    "(loss in win % points; marks: Ungenauigkeit/Fehler/Patzer, see docs/review.md)":
        "(Verlust in Prozentpunkten der Siegchance; Wertungen: Ungenauigkeit/Fehler/Patzer, siehe docs/review.md)",
    "(loss in spread points; marks: Ungenauigkeit/Fehler/Patzer, see docs/review.md)":
        "(Verlust in Punkten der Differenz; Wertungen: Ungenauigkeit/Fehler/Patzer, siehe docs/review.md)",
    "turn {what}": "Zug {what}",
    "win % curve written to {plot}": "Kurve der Siegchance nach {plot} geschrieben",
    "--plot {plot}: the picture is written as SVG, name the file *.svg":
        "--plot {plot}: das Bild wird als SVG geschrieben, die Datei *.svg nennen",
    "--player {player!r}: the game's players are {players}": "--player {player!r}: die Spieler der Partie sind {players}",
    # -- infer (engine.cli.infer, engine.analysis.inference) --------------------------------------------
    "--margin {text!r}: expected points, e.g. 5 or 2.5": "--margin {text!r}: Punkte erwartet, z. B. 5 oder 2.5",
    "--margin must be a finite number >= 0, got {text!r}": "--margin muss eine endliche Zahl >= 0 sein, nicht {text!r}",
    "give either --gcg FILE [--turn K], or --cgp and --move": "entweder --gcg DATEI [--turn K] angeben, oder --cgp und --move",
    "--on-rack and --not-on-rack are for --cgp; with --gcg the record says what is known":
        "--on-rack und --not-on-rack gelten für --cgp; mit --gcg sagt die Partie, was bekannt ist",
    "turn {k}": "Zug {k}",
    "after the last entry": "nach dem letzten Eintrag",
    "{when}: the opponent's last move {move}; position {cgp}": "{when}: letzter Zug des Gegners {move}; Stellung {cgp}",
    "give --cgp (the position after the opponent's move) and --move, or --gcg FILE":
        "--cgp (die Stellung nach dem Zug des Gegners) und --move angeben, oder --gcg DATEI",
    "--max-racks and --samples must be at least 1, got {a} and {b}":
        "--max-racks und --samples müssen mindestens 1 sein, nicht {a} und {b}",
    "last move {move}: withdrawn, its tiles {tiles} went back to the rack; the whole rack of {n} tiles, bag {bag}":
        "letzter Zug {move}: zurückgenommen, seine Steine {tiles} gingen aufs Bänkchen zurück; das ganze Bänkchen "
        "mit {n} Steinen, Beutel {bag}",
    "{racks:,} possible racks, weighted by their draws (no likelihood: a withdrawn play is no static player's "
    "choice)":
        "{racks:,} mögliche Bänkchen, gewichtet nach ihren Ziehungen (keine Wahrscheinlichkeit des Zugs: ein "
        "zurückgenommener Zug ist keine Wahl eines statischen Spielers)",
    "{move} ({score} points)": "{move} ({score} Punkte)",
    "exchange {move}": "Tausch {move}",
    "last move {what}: 1 tile kept, bag {bag} before the move, margin {margin:g}":
        "letzter Zug {what}: 1 Stein behalten, Beutel {bag} vor dem Zug, Spielraum {margin:g}",
    "last move {what}: {n} tiles kept, bag {bag} before the move, margin {margin:g}":
        "letzter Zug {what}: {n} Steine behalten, Beutel {bag} vor dem Zug, Spielraum {margin:g}",
    "{n:,} of {racks:,} possible racks consistent ({share:.1f} % of the draws), {leaves:,} distinct leaves":
        "{n:,} von {racks:,} möglichen Bänkchen passen ({share:.1f} % der Ziehungen), {leaves:,} verschiedene Reste",
    "from the record: {what}": "aus der Partie: {what}",
    "sampled, not exact: {n:,} possible racks, more than the exact limit; the weights count sampled racks":
        "Stichprobe, nicht exakt: {n:,} mögliche Bänkchen, mehr als die Grenze für exakt; die Gewichte zählen "
        "gezogene Bänkchen",
    "no rack is consistent with the move within the margin (try a larger --margin)":
        "kein Bänkchen passt zum Zug innerhalb des Spielraums (ein größeres --margin versuchen)",
    "tile": "Stein",
    "expected": "erwartet",
    "P(>=1)": "P(>=1)",
    "prior": "vorher",
    "... {n:,} more": "... {n:,} weitere",
    # -- simultan (engine.director.cli, repair): the tournament director's command -------------------
    "name the event directory (first argument, or --event DIR)":
        "das Turnierverzeichnis angeben (erstes Argument oder --event VERZ)",
    "--{name} {val!r}: write VOWELS,CONSONANTS, e.g. 2,2": "--{name} {val!r}: VOKALE,KONSONANTEN schreiben, z. B. 2,2",
    "--late-submission penalty needs --late-penalty POINTS": "--late-submission penalty braucht --late-penalty PUNKTE",
    "--players-file {path}: cannot read it ({why})": "--players-file {path}: nicht lesbar ({why})",
    "--players-file {path} line {i}: table {table!r} is not a number":
        "--players-file {path} Zeile {i}: Tisch {table!r} ist keine Zahl",
    "--players: empty player name in {given}; give every player a name":
        "--players: leerer Spielername in {given}; jedem Spieler einen Namen geben",
    " LATE (+{s:g} s)": " VERSPÄTET (+{s:g} s)",
    " HANDED IN LATE": " VERSPÄTET ABGEGEBEN",
    "no move": "kein Zug",
    ", would score {n}": ", hätte {n} Punkte",
    "{move} invalid: {reason}{would}{late}": "{move} ungültig: {reason}{would}{late}",
    "  {n} moves tie at {score}; tie-break ({order}) decided by: {decided}":
        "  {n} Züge gleichauf mit {score}; Stechen ({order}) entschieden durch: {decided}",
    ", then ": ", dann ",
    "fewer blanks played": "weniger Joker gelegt",
    "the leave keeps fewer duplicate letters": "der Rest behält weniger doppelte Buchstaben",
    "more tiles played": "mehr Steine gelegt",
    "fewer tiles played": "weniger Steine gelegt",
    "notation order": "Reihenfolge der Schreibweise",
    "  <- top": "  <- Top",
    "   {i:2d}. {move:<24} {score:>4}  blanks {blanks}  duplicates kept {dups}  tiles {tiles}  leave {leave}{mark}":
        "   {i:2d}. {move:<24} {score:>4}  Joker {blanks}  doppelt behalten {dups}  Steine {tiles}  Rest {leave}{mark}",
    "   ... and {n} more (results.json lists them all)": "   ... und {n} weitere (results.json führt alle auf)",
    "the event directory needs a name (an empty name would be the current directory)":
        "das Turnierverzeichnis braucht einen Namen (ein leerer Name wäre das aktuelle Verzeichnis)",
    "--table-size: at least 1 player per table": "--table-size: mindestens 1 Spieler je Tisch",
    ", ... ({n} more)": ", ... ({n} weitere)",
    "none": "keine",
    " at {n} tables": " an {n} Tischen",
    "event {name!r} created in {dir}: {n} players ({shown}){tables}, seed {seed}, round time {time}":
        "Turnier {name!r} angelegt in {dir}: {n} Spieler ({shown}){tables}, Startwert {seed}, Rundenzeit {time}",
    "a late move scores 0": "ein verspäteter Zug zählt 0",
    "a late move costs {n} points": "ein verspäteter Zug kostet {n} Strafpunkte",
    "a late move counts": "ein verspäteter Zug zählt",
    "each warning after the first {free} costs {n} points":
        "jede Verwarnung nach den ersten {free} kostet {n} Strafpunkte",
    "warnings cost nothing": "Verwarnungen kosten nichts",
    "penalties: {late} (phones: after the round time + {grace} s); {warn}":
        "Strafen: {late} (Handys: nach der Rundenzeit + {grace} s); {warn}",
    "the event is over: {why}": "das Turnier ist beendet: {why}",
    "round {n}: {what}": "Runde {n}: {what}",
    " ({n} rejected draw: {racks})": " ({n} verworfene Ziehung: {racks})",
    " ({n} rejected draws: {racks})": " ({n} verworfene Ziehungen: {racks})",
    "round {n}: rack {rack}{rej}; {bag} tiles in the bag": "Runde {n}: Buchstaben {rack}{rej}; {bag} Steine im Beutel",
    "draw the tiles from the bag (the leave {leave} stays on the rack), then `simultan round DIR --start --rack "
    "TILES`":
        "die Steine aus dem Beutel ziehen (der Rest {leave} bleibt auf der Bank), dann „simultan round VERZ --start "
        "--rack STEINE“",
    "draw the tiles from the bag, then `simultan round DIR --start --rack TILES`":
        "die Steine aus dem Beutel ziehen, dann „simultan round VERZ --start --rack STEINE“",
    "projector page: {page}": "Seite für den Projektor: {page}",
    "--rack goes with --start: `simultan round DIR --start --rack ABCDEFG`":
        "--rack gehört zu --start: „simultan round VERZ --start --rack ABCDEFG“",
    "the event is over after {n} rounds: {why}": "das Turnier ist nach {n} Runden beendet: {why}",
    "master total {total}; see `standings` and `export`": "Meistersumme {total}; siehe „standings“ und „export“",
    "round time {time}, clock not started (`round --start`)":
        "Rundenzeit {time}, Uhr nicht gestartet („round --start“)",
    "round time {time}, started {at}, {left}": "Rundenzeit {time}, gestartet {at}, {left}",
    "{time} left": "noch {time}",
    "time is up ({time} ago)": "Zeit ist um (seit {time})",
    "{name} - round {n} - {clock}": "{name} - Runde {n} - {clock}",
    "; {n} rejected draw(s) before it: {racks}": "; {n} verworfene Ziehung(en) davor: {racks}",
    "rack: {what}": "Buchstaben: {what}",
    "rack: {rack}   ({v}, {c}, {b}{rej})": "Buchstaben: {rack}   ({v}, {c}, {b}{rej})",
    "1 vowel": "1 Vokal",
    "{n} vowels": "{n} Vokale",
    "1 consonant": "1 Konsonant",
    "{n} consonants": "{n} Konsonanten",
    "1 blank": "1 Joker",
    "{n} blanks": "{n} Joker",
    "bag: {n} tiles": "Beutel: {n} Steine",
    "moves entered:": "eingetragene Züge:",
    "  (left in round {n})": "  (ausgeschieden in Runde {n})",
    "  [table {t}]": "  [Tisch {t}]",
    'submit needs a player and a move: submit DIR PLAYER "8H WORT" (or "-" for no move)':
        'submit braucht einen Spieler und einen Zug: submit VERZ SPIELER "8H WORT" (oder "-" für keinen Zug)',
    "{player}, round {n}: unchanged ({what} is already entered; nothing recorded)":
        "{player}, Runde {n}: unverändert ({what} ist schon eingetragen; nichts eingetragen)",
    " (replaces {what})": " (ersetzt {what})",
    "; entered LATE (+{s:g} s) after the round time (flagged late)":
        "; VERSPÄTET eingetragen (+{s:g} s) nach der Rundenzeit (als verspätet markiert)",
    "it counts": "er zählt",
    "it will score 0": "er zählt 0",
    "{n} points will be deducted": "{n} Strafpunkte werden abgezogen",
    "; handed in late: {cost}": "; verspätet abgegeben: {cost}",
    " + bingo {n}": " + Bingo {n}",
    "{player}, round {n}: {move} {score} points ({words}){replaced}":
        "{player}, Runde {n}: {move} {score} Punkte ({words}){replaced}",
    "{player}, round {n}: no move, 0 points{replaced}": "{player}, Runde {n}: kein Zug, 0 Punkte{replaced}",
    " (it would score {n})": " (er hätte {n} Punkte)",
    "{player}, round {n}: {move} recorded as invalid, 0 points: {reason}{would}{replaced}":
        "{player}, Runde {n}: {move} als ungültig eingetragen, 0 Punkte: {reason}{would}{replaced}",
    " (chosen by the director)": " (vom Schiedsrichter gewählt)",
    "round {n} closed. top: {move} {score} points ({words}){how}":
        "Runde {n} geschlossen. Top: {move} {score} Punkte ({words}){how}",
    "  TOP": "  TOP",
    "  SOLO +{n}": "  SOLO +{n}",
    "  0: handed in late": "  0: verspätet abgegeben",
    "  absent": "  abwesend",
    "  {player}  {points:>4}  {pct:6.2f}%  {what}{tag}": "  {player}  {points:>4}  {pct:6.2f}%  {what}{tag}",
    "warning {n}": "Verwarnung {n}",
    "late move": "verspäteter Zug",
    "penalty": "Strafe",
    "table {t}": "Tisch {t}",
    "joined in round {n}": "dabei ab Runde {n}",
    "left in round {n}": "ausgeschieden in Runde {n}",
    "absent 1 round": "1 Runde abwesend",
    "absent {n} rounds": "{n} Runden abwesend",
    "rounds 1 to {n} are closed": "geschlossen sind die Runden 1 bis {n}",
    "no round is closed yet": "noch keine Runde ist geschlossen",
    "final": "Endstand",
    "after round {n}": "nach Runde {n}",
    "before the first round closes": "bevor die erste Runde geschlossen ist",
    "{name} - standings {state} (master total {total})": "{name} - Rangliste {state} (Meistersumme {total})",
    "  no players (a master game only)": "  keine Spieler (nur eine Meisterpartie)",
    "  rank  {player}  points  % of top  tops  solos  invalid  missing  late  penalty  warnings":
        "  Rang  {player}  Punkte  % v. Top  Tops  Solos  ungült.  fehlend  spät  Strafp.  Verwarn.",
    "penalty needs a player and the points: penalty DIR PLAYER POINTS [--round N] [--reason TEXT]":
        "penalty braucht einen Spieler und die Punkte: penalty VERZ SPIELER PUNKTE [--round N] [--reason TEXT]",
    "penalty {pts!r}: the points are a whole number, e.g. 10":
        "penalty {pts!r}: die Punkte sind eine ganze Zahl, z. B. 10",
    "round {n}: {points} points deducted from {player}": "Runde {n}: {points} Strafpunkte für {player}",
    "round {n}: {points} points given back to {player}": "Runde {n}: {points} Punkte an {player} zurückgegeben",
    "warn needs a player: warn DIR PLAYER [--round N] [--reason TEXT]":
        "warn braucht einen Spieler: warn VERZ SPIELER [--round N] [--reason TEXT]",
    ", {n} points deducted": ", {n} Strafpunkte",
    ", no deduction": ", ohne Abzug",
    "round {n}: warning {k} for {player}{cost}": "Runde {n}: Verwarnung {k} für {player}{cost}",
    "join needs the new player's name: join DIR NAME [--table T] (quote a name with spaces)":
        "join braucht den Namen des neuen Spielers: join VERZ NAME [--table T] (einen Namen mit Leerzeichen in "
        "Anführungszeichen)",
    " at table {t}": " an Tisch {t}",
    "; round 1 counts 0": "; Runde 1 zählt 0",
    "; rounds 1 to {n} count 0": "; die Runden 1 bis {n} zählen 0",
    "{player} joins in round {n}{table}{before}": "{player} spielt ab Runde {n} mit{table}{before}",
    "leave needs a player: leave DIR PLAYER": "leave braucht einen Spieler: leave VERZ SPIELER",
    "{player} leaves in round {n}: {counts}no further move is taken; the later rounds count 0":
        "{player} scheidet in Runde {n} aus: {counts}kein weiterer Zug wird angenommen; die späteren Runden "
        "zählen 0",
    "the move entered for round {n} counts, ": "der für Runde {n} eingetragene Zug zählt, ",
    ", and with it 1 move sent from a phone after it (entry {entries})":
        ", und damit 1 danach vom Handy gesendeten Zug (Eintrag {entries})",
    ", and with it {n} moves sent from phones after it (entries {entries})":
        ", und damit {n} danach von Handys gesendete Züge (Einträge {entries})",
    "nothing to undo (the event has no action of the director after `new`)":
        "nichts rückgängig zu machen (das Turnier hat nach „new“ keine Aktion des Schiedsrichters)",
    "undo would take back entry {seq}: {what}": "undo würde Eintrag {seq} zurücknehmen: {what}",
    "run: simultan undo {dir} --expect {seq}": "aufrufen: simultan undo {dir} --expect {seq}",
    "undone: entry {seq}: {what}": "zurückgenommen: Eintrag {seq}: {what}",
    "nothing changed; run `simultan repair {dir} --apply` to write the salvaged journal (the old one is kept)":
        "nichts geändert; „simultan repair {dir} --apply“ schreibt das reparierte Journal (das alte bleibt erhalten)",
    "journal salvaged; the old one is kept as {path}": "Journal repariert; das alte bleibt erhalten als {path}",
    "{n} files written to {out} (index.html, current.html, master.gcg, results.json, rounds.csv, standings.csv, "
    "round-NN.svg/html)":
        "{n} Dateien nach {out} geschrieben (index.html, current.html, master.gcg, results.json, rounds.csv, "
        "standings.csv, round-NN.svg/html)",
    "  ({n} rejected)": "  ({n} verworfen)",
    "  [{n} tied]": "  [{n} gleichauf]",
    "master game, seed {seed}: {n} rounds, {total} points; ended: {why}":
        "Meisterpartie, Startwert {seed}: {n} Runden, {total} Punkte; Ende: {why}",
    "files in {out}/export (master.gcg, results.json, round-NN.svg/html, index.html)":
        "Dateien in {out}/export (master.gcg, results.json, round-NN.svg/html, index.html)",
    "unexpected argument(s) {args!r}": "unerwartete(s) Argument(e) {args!r}",
    "unexpected argument(s) {args!r} (players go after --players)":
        "unerwartete(s) Argument(e) {args!r} (Spieler gehören hinter --players)",
    "error: internal error ({kind}: {exc})": "Fehler: interner Fehler ({kind}: {exc})",
    # the repair report (engine.director.repair.RepairPlan.lines)
    "{path}: every entry verifies; nothing to repair": "{path}: jeder Eintrag ist in Ordnung; nichts zu reparieren",
    "lost: {where}: {why}": "verloren: {where}: {why}",
    "mended: line {line} (one damaged byte): entry {seq}": "geheilt: Zeile {line} (ein beschädigtes Byte): Eintrag {seq}",
    "recovered from {dir}/: entry {seq}": "aus {dir}/ wiederhergestellt: Eintrag {seq}",
    "recovered from {file} (the last acknowledged entry): entry {seq}":
        "aus {file} wiederhergestellt (der letzte bestätigte Eintrag): Eintrag {seq}",
    "interrupted write at the end ({n} bytes, never acknowledged): moved to journal.torn":
        "abgebrochenes Schreiben am Ende ({n} Bytes, nie bestätigt): nach journal.torn verschoben",
    "its creation": "Anlage",
    "kept: {n} entries (the event up to {what})": "behalten: {n} Einträge (das Turnier bis einschließlich: {what})",
    "not readable in the journal or any copy": "weder im Journal noch in einer Kopie lesbar",
    "acknowledged (journal.ack) but not in the journal or any copy":
        "bestätigt (journal.ack), aber weder im Journal noch in einer Kopie",
    "{file} is damaged: written again for the last entry kept":
        "{file} ist beschädigt: neu geschrieben für den letzten behaltenen Eintrag",
    "no tiles left": "keine Steine mehr",
    # -- the global option ----------------------------------------------------------------------------
    "--lang needs a value: de or en": "--lang braucht einen Wert: de oder en",
    "--lang {code!r}: choose de or en": "--lang {code!r}: de oder en wählen",
}
"""English message -> German message (:func:`engine.lang.tr`)."""


ARGPARSE_DE: dict[str, str] = {
    "usage: ": "Aufruf: ",
    "%(prog)s: error: %(message)s\n": "%(prog)s: Fehler: %(message)s\n",
    "positional arguments": "Argumente",
    "options": "Optionen",
    "show this help message and exit": "diese Hilfe zeigen und beenden",
    "the following arguments are required: %s": "diese Argumente fehlen: %s",
    "unrecognized arguments: %s": "unbekannte Argumente: %s",
    "invalid choice: %(value)r (choose from %(choices)s)": "ungültige Wahl: %(value)r (möglich: %(choices)s)",
    "invalid %(type)s value: %(value)r": "ungültiger Wert (%(type)s): %(value)r",
    "argument %(argument_name)s: %(message)s": "Argument %(argument_name)s: %(message)s",
    "expected one argument": "ein Wert erwartet",
    "expected at most one argument": "höchstens ein Wert erwartet",
    "expected at least one argument": "mindestens ein Wert erwartet",
    "expected %s argument": "%s Wert erwartet",
    "expected %s arguments": "%s Werte erwartet",
    "not allowed with argument %s": "nicht zusammen mit %s erlaubt",
    "one of the arguments %s is required": "eines dieser Argumente ist nötig: %s",
    "ambiguous option: %(option)s could match %(matches)s": "mehrdeutige Option: %(option)s passt auf %(matches)s",
    "ignored explicit argument %r": "Wert %r ignoriert",
    "can't open '%(filename)s': %(error)s": "kann „%(filename)s“ nicht öffnen: %(error)s",
}
"""argparse's own texts (it looks them up through gettext's ``_``) -> German (engine.cli.main)."""


OS_ERRORS_DE = {
    "No such file or directory": "keine solche Datei",
    "Permission denied": "keine Berechtigung",
    "Is a directory": "das ist ein Verzeichnis",
    "Not a directory": "ein Teil des Pfads ist kein Verzeichnis",
    "File name too long": "Dateiname zu lang",
    "Too many levels of symbolic links": "zu viele symbolische Links hintereinander",
    "Read-only file system": "schreibgeschütztes Dateisystem",
    "No space left on device": "kein Platz mehr auf dem Datenträger",
    "Disk quota exceeded": "Speicherkontingent erschöpft",
    "Input/output error": "Ein-/Ausgabefehler",
    "No such device or address": "kein solches Gerät",
    "Operation not permitted": "nicht erlaubt",
}
"""The operating system's messages (``OSError.strerror``) that a user meets reading or writing a file -> German."""


def os_error_de(text: str) -> str:
    """An operating system's message (``strerror``) in German, else unchanged."""
    return OS_ERRORS_DE.get(text, text)


def _de(text: str) -> str:
    """``text`` in German by :data:`DE` and :data:`PATTERNS_DE` (engine.lang.tr_in)."""
    from engine.lang import tr_in

    return tr_in("de", text)


def _inner(template: str):
    """A replacement that puts the German of the message's last part (group ``k``) into ``template``."""
    def replace(m):
        groups = list(m.groups())
        groups[-1] = _de(groups[-1])  # German, also when a German text is asked for in an English run (the web)
        return template.format(*groups)
    return replace


PATTERNS_DE: list[tuple[str, object]] = [
    # a message with a place in front (a file, a line of a record): the place in German, the rest translated
    (r"^line (\d+): (.+)$", _inner("Zeile {0}: {1}")),
    (r"^illegal move (\S+ \S+): (.+)$", _inner("ungültiger Zug {0}: {1}")),
    (r"^(/\S+|\S+\.(?:gcg|lex|klv2?|txt|cgp)): (.+)$", _inner("{0}: {1}")),
    (r"^Numba's cache of (\S+) could not be read \((.+)\); deleted (\d+) file\(s\) in (\S+), the kernel is "
     r"compiled again$", r"Numbas Zwischenspeicher von \1 war nicht lesbar (\2); \3 Datei(en) in \4 gelöscht, der "
                         r"Kernel wird neu übersetzt"),
    (r"^cannot write ('.*'): directory ('.*') does not exist$", r"kann \1 nicht schreiben: das Verzeichnis \2 gibt es "
                                                               r"nicht"),
    (r"^cannot write ('.*'): it is a directory$", r"kann \1 nicht schreiben: das ist ein Verzeichnis"),
    (r"^cannot write ('.*'): directory ('.*') is not writable \((.*)\)$",
     r"kann \1 nicht schreiben: in das Verzeichnis \2 kann nicht geschrieben werden (\3)"),
    (r"^turn (\d+): their withdrawn play (\S+ \S+) put (\S+) back on the rack$",
     r"Zug \1: sein zurückgenommener Zug \2 brachte \3 aufs Bänkchen zurück"),
    (r"^turn (\d+): your exchange put (\S+) into the bag after their last draw$",
     r"Zug \1: Ihr Tausch brachte \2 in den Beutel, nachdem der Gegner zuletzt zog"),
    (r"^turn (\d+) is a (\w+): it tells nothing about the tiles kept$",
     r"Zug \1 ist \2: er sagt nichts über die behaltenen Steine"),
    # the pre-endgame's method (engine.analysis.preendgame: English in its JSON, German in the text)
    (r"^draws enumerated \(sampled above (\d+) per move\), greedy playouts, then exact endgames for the moves in "
     r"contention; (\d+) of (\d+) moves exact$",
     r"Ziehungen aufgezählt (über \1 je Zug eine Stichprobe), gierig zu Ende gespielt, dann exakte Endspiele für "
     r"die Züge in der engeren Wahl; \2 von \3 Zügen exakt"),
    (r"^cannot read \((.+)\)$", lambda m: f"nicht lesbar ({os_error_de(m[1])})"),
    (r"^not a regular file$", "keine gewöhnliche Datei"),
    (r"^(\d+) bytes is not a KLV file \(truncated\?\)$", r"\1 Bytes sind keine KLV-Datei (abgeschnitten?)"),
    (r"^building the default lexicon \(first use only\)$", "baue die Standard-Wortliste (nur beim ersten Mal)"),
    (r"^building the default lexicon \(the cached copy is unusable: (.+)\)$",
     lambda m: f"baue die Standard-Wortliste (die gespeicherte Kopie ist unbrauchbar: {_de(m[1])})"),
    (r"^unpacking the default leave table \(first use\)$", "entpacke die Standard-Restwerttabelle (erste Nutzung)"),
    (r"^unpacking the default leave table \(the cached copy is unusable: (.+)\)$",
     lambda m: f"entpacke die Standard-Restwerttabelle (die gespeicherte Kopie ist unbrauchbar: {_de(m[1])})"),
    (r"^unpacking the default leave table \((.+) does not match its checksum \(damaged\)\)$",
     r"entpacke die Standard-Restwerttabelle (\1 passt nicht zu ihrer Prüfsumme: beschädigt)"),
    (r"^over (\d+) MB: not a GCG file$", r"über \1 MB: keine GCG-Datei"),
    (r"^UTF-16 \(save it as UTF-8\)$", "UTF-16 (bitte als UTF-8 speichern)"),
    (r"^not valid utf-8 \(declare #character-encoding ISO-8859-1\?\)$",
     "kein gültiges UTF-8 (#character-encoding ISO-8859-1 angeben?)"),
    (r"^no such lexicon \(build one with `python -m lexicon_tools build`\)$",
     "keine solche Wortliste (eine bauen: „python -m lexicon_tools build“)"),
    (r"^board has (\d+) rows?, expected 15$", r"das Brett hat \1 Zeilen, nicht 15"),
    # the word checker's reasons (engine.position.scorer.IllegalMove); as the web pages' SERVER_DE (static/i18n.js)
    (r"^(.+) is not in the word list \(nor (.+)\)$", r"\1 steht nicht in der Wortliste (auch nicht \2)"),
    (r"^(.+) is not in the word list$", r"\1 steht nicht in der Wortliste"),
    (r"^the move does not touch any tile on the board$", "der Zug berührt keinen Stein auf dem Brett"),
    (r"^the first move must cover the centre star (\w+)$", r"der erste Zug muss über den Stern \1 gehen"),
    (r"^the first move must place at least two tiles$", "der erste Zug legt mindestens zwei Steine"),
    (r"^the tiles are not in one row or column$", "die Steine liegen nicht in einer Zeile oder Spalte"),
    (r"^the move places no tile$", "der Zug legt keinen Stein"),
    (r"^two tiles on square (\w+)$", r"zwei Steine auf \1"),
    (r"^square (\w+) holds (.+), not (.+)$", r"auf \1 liegt \2, nicht \3"),
    (r"^square (\w+) is already occupied \(by (.+)\)$", r"\1 ist schon belegt (\2)"),
    (r"^square (\w+) is empty, but \((.+)\) marks a tile already on the board$",
     r"\1 ist leer, aber (\2) steht für einen Stein, der schon liegt"),
    (r"^gap at (\w+): .*$", r"Lücke bei \1: neue und liegende Steine bilden keine durchgehende Reihe"),
    (r"^(.+) from (\w+) runs off the board: .*$", r"\1 ab \2 läuft über den Rand des Bretts"),
    (r"^(.+) places no tile: .*$", r"\1 legt keinen Stein: jedes Feld hat seinen Buchstaben schon"),
    (r"^tile (.+) is not on the rack \(rack empty\)(; .*)?$", r"\1 ist nicht auf dem Bänkchen (Bänkchen leer)"),
    (r"^tile (.+) is not on the rack \(rack (.+?)\); to play the blank as (.+), write it lowercase$",
     r"\1 ist nicht auf dem Bänkchen (\2); den Joker als \3 klein schreiben"),
    (r"^tile (.+) is not on the rack \(rack (.+?)\)$", r"\1 ist nicht auf dem Bänkchen (\2)"),
    (r"^tile (.+) is not on the rack (\d+) times \(rack (.+) holds (\d+)\)$",
     r"\1 ist nicht \2-mal auf dem Bänkchen (\3 hat \4)"),
    (r"^\? \(blank\)", "? (Joker)"),
    # the GCG reader (engine.game.gcg): a hand row, a move line, racks against the tile set, the header
    (r"^cannot read (.+): expected '#note by hand: >nick: RACK \+POINTS TOTAL'( \(RACK '\.\.\.' when unknown\))?$",
     r"nicht lesbar: \1 – erwartet „#note by hand: >Kürzel: BÄNKCHEN +PUNKTE STAND“ (BÄNKCHEN „...“, wenn "
     r"unbekannt)"),
    (r"^cannot read (.+): expected 'RACK SQUARE WORD \+SCORE TOTAL', .*$",
     r"nicht lesbar: \1 – erwartet „BÄNKCHEN FELD WORT +PUNKTE STAND“, „BÄNKCHEN -STEINE +0 STAND“, „BÄNKCHEN - +0 "
     r"STAND“, „BÄNKCHEN -- -PUNKTE STAND“, „(challenge)“, „(time)“ oder die Reststeine am Ende (Zeile "
     r"abgeschnitten?)"),
    (r"^points by hand ([+-]\d+): a turn scores 0 to (\d+)$",
     r"Punkte von Hand \1: erlaubt sind ganze Zahlen von 0 bis \2"),
    (r"^remaining tiles of all players together \((.+)\): (\d+) × (.+) but only (\d+) of the (\d+) are not on the board$",
     lambda m: f"Reststeine aller Spieler zusammen ({m[1]}): {m[2]} × {'Joker' if m[3] == 'blank' else m[3]}, aber "
               f"außerhalb des Bretts gibt es nur noch {m[4]} (der Satz hat {m[5]})"),
    (r"^(\S+) went out, but the remaining-tiles line of (.+) is missing \(.*\)$",
     r"\1 hat ausgespielt, aber die Reststeine-Zeile von \2 fehlt („>Kürzel: BANK (BANK) -WERT STAND“ vor dieser Zeile)"),
    (r"^(\S+)'s remaining tiles are deducted twice \(also on line (\d+)\)$",
     r"die Reststeine von \1 sind zweimal abgezogen (auch in Zeile \2)"),
    (r"^a second going-out line \(the first is line (\d+)\): one player gains the others' remaining tiles once$",
     r"eine zweite Zeile fürs Ausspielen (die erste ist Zeile \1): nur einer bekommt die Reststeine der anderen, einmal"),
    (r"^(\S+): a challenge after the end-of-game entries$", r"\1: ein Einspruch nach den Einträgen des Partieendes"),
    (r"^(\S+) moves after the note on line (\d+) that the game is over$",
     r"\1 zieht nach dem Vermerk in Zeile \2, dass die Partie zu Ende ist"),
    (r"^(rack|exchanged tiles|remaining tiles) (.+): (\d+) × (.+) but only (\d+) of the (\d+) are not on the board$",
     lambda m: f"{ {'rack': 'Bänkchen', 'exchanged tiles': 'getauschte Steine', 'remaining tiles': 'Reststeine'}[m[1]]} "
               f"{m[2]}: {m[3]} × {'Joker' if m[4] == 'blank' else m[4]}, aber außerhalb des Bretts gibt es nur noch "
               f"{m[5]} (der Satz hat {m[6]})"),
    (r"^(\S+ \S+): (\d+) × (.+) but only (\d+) of the (\d+) are not on the board$",
     lambda m: f"{m[1]}: {m[2]} × {'Joker' if m[3] == 'blank' else m[3]}, aber außerhalb des Bretts gibt es nur noch "
               f"{m[4]} (der Satz hat {m[5]})"),
    # a square typed off the board (engine.position.board)
    (r"^square ('.*') is not on the board \(rows 1-15, columns A-O; 8H across, H8 down\)$",
     r"das Feld \1 gibt es nicht (Zeilen 1–15, Spalten A–O; 8H waagerecht, H8 senkrecht)"),
    # endgame and pre-endgame positions (engine.analysis.endgame, engine.analysis.preendgame)
    (r"^endgame: the bag must be empty \(opcode bag (.+)\)$",
     r"Endspiel: der Beutel muss leer sein (laut CGP liegen \1 Steine darin)"),
    (r"^endgame: the bag must be empty, but (\d+) tiles are unseen \(at most (\d+) can be on the opponent's rack\)$",
     r"Endspiel: der Beutel muss leer sein, aber \1 Steine sind nicht zu sehen (auf dem Bänkchen des Gegners "
     r"liegen höchstens \2)"),
    (r"^endgame: the bag must be empty, but (\d+) tiles of the (\w+) set are not on the board or the racks "
     r"\((.*)\)$", r"Endspiel: der Beutel muss leer sein, aber \1 Steine des Satzes liegen weder auf dem Brett noch "
                   r"auf den Bänkchen (\3)"),
    (r"^endgame: a rack is empty, the game is already over$",
     "Endspiel: ein Bänkchen ist leer, die Partie ist schon zu Ende"),
    (r"^endgame: (\d+) consecutive passes, the game is already over$",
     r"Endspiel: \1-mal in Folge gepasst, die Partie ist schon zu Ende"),
    (r"^endgame: more (.+) tiles on the board and racks than the (\w+) set holds \((\d+)\)$",
     lambda m: f"Endspiel: mehr {'Joker' if m[1] == 'blank' else m[1]} auf Brett und Bänkchen, als der Satz hat "
               f"({m[3]})"),
    (r"^opcode bag (\d+): only (\d+) tiles are not on the board or the racks$",
     r"Opcode bag \1: nur \2 Steine liegen nicht auf dem Brett oder den Bänkchen"),
    (r"^opcode bag (\d+): that leaves (\d+) tiles unaccounted for, but the other racks hold at most (\d+)$",
     r"Opcode bag \1: dann fehlen \2 Steine, aber auf die anderen Bänkchen passen höchstens \3"),
    (r"^preendgame: the bag is empty \(the unseen tiles are the opponent's rack\): this is an endgame, use "
     r"`engine endgame`$",
     "Vor-Endspiel: der Beutel ist leer (die ungesehenen Steine sind das Bänkchen des Gegners): das ist ein "
     "Endspiel, dafür „python -m engine endgame“ aufrufen"),
    (r"^preendgame: the bag must hold 1 to (\d+) tiles, it holds (\d+)$",
     r"Vor-Endspiel: im Beutel müssen 1 bis \1 Steine liegen, es sind \2"),
    (r"^--port (.+): expected 1\.\.65535$", r"--port \1: erwartet 1 bis 65535"),
    (r"^--max-games must be at least 1, got (.+)$", r"--max-games muss mindestens 1 sein, nicht \1"),
    (r"^--games (.+): another 'engine web' uses this games folder; stop it, or give this one its own --games DIR$",
     r"--games \1: ein anderes „engine web“ benutzt diesen Spiele-Ordner; das andere beenden oder diesem einen "
     r"eigenen --games-Ordner geben"),
    (r"^--games (.+): cannot use it \((.+)\)$", r"--games \1: nicht benutzbar (\2)"),
    (r"^cannot read (.+): expected .*$",
     r"nicht lesbar: \1 – erwartet z. B. 8H HAUS (waagerecht) oder H8 HAUS (senkrecht)"),
    (r"^(.+): nested '\(' \(parentheses mark tiles already on the board\)$",
     r"\1: „(“ in „(“ (Klammern stehen für Steine, die schon liegen)"),
    (r"^(.+): '\)' without '\('$", r"\1: „)“ ohne „(“"),
    (r"^(.+): empty parentheses$", r"\1: leere Klammern"),
    (r"^(.+): '\(' is not closed$", r"\1: „(“ wird nicht geschlossen"),
    (r"^(.+): no letters$", r"\1: keine Buchstaben"),
    (r"^(.+): '(.+)' is not a letter of the German tile set \(write SS for ß\)$",
     r"\1: „\2“ ist kein Stein des deutschen Satzes (für ß SS schreiben)"),
    (r"^(.+): '(.+)' is not a letter of the German tile set$", r"\1: „\2“ ist kein Stein des deutschen Satzes"),
    (r"^(.+): '\.' at letter (\d+) lies beyond the edge of the board$", r"\1: „.“ bei Buchstabe \2 liegt jenseits des Rands"),
    (r"^(.+): '\.' at letter (\d+) marks an empty square \((\w+)\)$",
     r"\1: „.“ bei Buchstabe \2 steht für ein leeres Feld (\3)"),
    (r"^the number (\S+) has ([\d,]+) digits; a score or total has at most (\d+)$",
     lambda m: f"die Zahl {m[1]} hat {german_number(m[2])} Ziffern; Punkte oder Stand haben höchstens {m[3]}"),
    (r"^#seed (\S+) has ([\d,]+) digits; a seed has at most (\d+)$",
     lambda m: f"#seed {m[1]} hat {german_number(m[2])} Ziffern; ein Startwert hat höchstens {m[3]}"),
    (r"^(\d+) scoreless turns in a row with the bag empty: the game is over$",
     r"\1 Züge ohne Punkte in Folge bei leerem Beutel: die Partie ist zu Ende"),
    (r"^(\d+) passes in a row \(the bag holds (\d+), too few to exchange\): the game is over$",
     r"\1-mal in Folge gepasst (im Beutel \2, zu wenige zum Tauschen): die Partie ist zu Ende"),
]
"""Messages with variable parts (the word checker's reasons, the end of a game) -> German, first match wins:
``(regular expression, replacement)`` for :func:`re.sub` (engine.lang.tr of a message not in :data:`DE`)."""


_N = r"(\d+)"
DIRECTOR_DE: list[tuple[str, str]] = [
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
    (r"^unknown player (.+) \(players: none\)$", r"Unbekannter Spieler \1 (noch keine Spieler)"),
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
    (r"^cannot read ('[^']*'): (.+)$", lambda m: f"Nicht lesbar: {m[1]}: {_de(m[2])}"),
    (r"^cannot read (.*)$", r"Nicht lesbar: \1"),
    (r"^(\S+) is not in the word list", r"\1 steht nicht in der Wortliste"),
    (r"^no move handed in", "kein Zug abgegeben"),
    (r"^no move$", "kein Zug"),
    (r"^(.+): uses (.+?)(?: \d+ times)?, but the round's rack is (\S+)",
     r"\1: braucht \2, aber die Buchstaben der Runde sind \3"),
]
"""The director engine's refusals (engine.director.event, English, naming ``simultan`` options) -> German
sentences without command-line syntax: ``(regular expression, re.Match.expand template)``, first match
wins; the part of a refusal after the match (a hint at a command) is dropped. Used by the web pages
(engine.web.german.reason_de) and, after :data:`DE` and :data:`PATTERNS_DE`, by ``simultan``."""


def director_de(text: str) -> str | None:
    """A refusal of the director engine in German by :data:`DIRECTOR_DE`, or ``None`` when no rule knows it."""
    import re

    text = str(text).strip()
    for pat, rep in DIRECTOR_DE:
        m = re.search(pat, text)
        if m:
            out = m.expand(rep) if isinstance(rep, str) else rep(m)
            return re.sub(r"\s+", " ", out).strip()  # a group that did not take part gives ""
    return None


def _fits(m):
    """``WHAT: does not fit the event (WHY)`` of the repair report, both parts in German."""
    from engine.lang import tr

    return f"{tr(m.group(1))}: passt nicht zum Turnier ({tr(m.group(2))})"


_RUN_REPAIR = r"run `python -m engine simultan repair (.+)` to see what can be salvaged"
_REPAIR_DE = r"„python -m engine simultan repair \{0}“ zeigt, was zu retten ist"

SIMULTAN_PATTERNS_DE: list[tuple[str, object]] = [
    # journal actions (engine.director.event.describe_action; the journal keeps the English text; the
    # arbitration screen shows them too: engine.web.admin.describe_de)
    (r"^(.+)'s move (.+) in round (\d+)$", r"Zug von \1 in Runde \3: \2"),
    (r"^closing round (\d+) \(top (.+)\)$", r"Schließen von Runde \1 (Top \2)"),
    (r"^starting the clock of round (\d+)$", r"Start von Runde \1"),
    (r"^a penalty of (-?\d+) points for (.+) in round (\d+)$", r"Strafe \1 Punkte für \2 in Runde \3"),
    (r"^a warning for (.+) in round (\d+)$", r"Verwarnung für \1 in Runde \2"),
    (r"^(.+) joining in round (\d+)$", r"Aufnahme von \1 in Runde \2"),
    (r"^(.+) leaving in round (\d+)$", r"Ausscheiden von \1 in Runde \2"),
    # the repair report's places and losses (engine.director.repair)
    (r"^line (\d+)$", r"Zeile \1"),
    (r"^entry (\d+)$", r"Eintrag \1"),
    (r"^damaged \((.*)\)$", r"beschädigt (\1)"),
    (r"^entry number (.+) out of place$", r"Eintragsnummer \1 an falscher Stelle"),
    (r"^undo of entry (\d+), which is lost$", r"Rücknahme von Eintrag \1, der verloren ist"),
    (r"^(.+): does not fit the event \((.*)\)$", _fits),
    # a damaged or missing journal (engine.director.journal, store, repair)
    (rf"^(.+) line (\d+): damaged entry \((.*)\); the event cannot be rebuilt safely - {_RUN_REPAIR}$",
     r"\1 Zeile \2: beschädigter Eintrag (\3); das Turnier lässt sich nicht sicher wiederherstellen – "
     + _REPAIR_DE.format(4)),
    (rf"^(.+) line (\d+): checksum mismatch \(damaged entry\); the event cannot be rebuilt safely - {_RUN_REPAIR}$",
     r"\1 Zeile \2: Prüfsumme falsch (beschädigter Eintrag); das Turnier lässt sich nicht sicher wiederherstellen – "
     + _REPAIR_DE.format(3)),
    (rf"^(.+) line (\d+): the last entry is complete but its end is damaged \(not an interrupted write\); the event "
     rf"cannot be rebuilt safely - {_RUN_REPAIR}$",
     r"\1 Zeile \2: der letzte Eintrag ist vollständig, aber sein Ende ist beschädigt (kein abgebrochenes "
     r"Schreiben); das Turnier lässt sich nicht sicher wiederherstellen – " + _REPAIR_DE.format(3)),
    (rf"^(.+) line (\d+): entry (\d+) was acknowledged \((.+?)\) but its line is cut short \((\d+) bytes left\): "
     rf"damage, not an interrupted write; the event cannot be rebuilt safely - {_RUN_REPAIR}$",
     lambda m: (f"{m[1]} Zeile {m[2]}: Eintrag {m[3]} war bestätigt ({m[4].replace('a copy in', 'eine Kopie in')}), "
                f"aber seine Zeile ist abgeschnitten (noch {m[5]} Bytes): ein Schaden, kein abgebrochenes Schreiben; "
                f"das Turnier lässt sich nicht sicher wiederherstellen – „python -m engine simultan repair {m[6]}“ "
                f"zeigt, was zu retten ist")),
    (rf"^(.+) line (\d+): the journal ends after entry (\d+), but entry (\d+) was acknowledged \((\S+)\): "
     rf"acknowledged entries are missing; {_RUN_REPAIR}$",
     r"\1 Zeile \2: das Journal endet nach Eintrag \3, aber Eintrag \4 war bestätigt (\5): bestätigte Einträge "
     r"fehlen; " + _REPAIR_DE.format(6)),
    (rf"^(.+): damaged(?: \(its entry does not verify\))?: it cannot tell whether acknowledged entries are missing; "
     rf"{_RUN_REPAIR}$",
     r"\1: beschädigt: ob bestätigte Einträge fehlen, ist nicht zu erkennen; " + _REPAIR_DE.format(2)),
    (rf"^(.+) line (\d+): the journal ends after entry (\d+), and (.+), but it names entry (\d+) as acknowledged: "
     rf"acknowledged entries may be missing; {_RUN_REPAIR}$",
     lambda m: (f"{m[1]} Zeile {m[2]}: das Journal endet nach Eintrag {m[3]}, und "
                f"{m[4].replace(': damaged (its entry does not verify)', ': beschädigt (sein Eintrag stimmt nicht)').replace(': damaged', ': beschädigt')}"
                f", nennt aber Eintrag {m[5]} als bestätigt: bestätigte Einträge fehlen womöglich; "
                f"„python -m engine simultan repair {m[6]}“ zeigt, was zu retten ist")),
    (rf"^(.+) line (\d+): the last entry is cut short and (.+), so it cannot be told from an interrupted write; "
     rf"{_RUN_REPAIR}$",
     r"\1 Zeile \2: der letzte Eintrag ist abgeschnitten und \3, daher nicht von einem abgebrochenen Schreiben zu "
     r"unterscheiden; " + _REPAIR_DE.format(4)),
    (rf"^(.+) line (\d+): entry number (.+), expected (\d+); {_RUN_REPAIR}$",
     r"\1 Zeile \2: Eintragsnummer \3, erwartet \4; " + _REPAIR_DE.format(5)),
    (r"^(.+): not an event directory \(no (\S+)\); create one with `python -m engine simultan new`$",
     r"\1: kein Turnierverzeichnis (kein \2); eines anlegen mit „python -m engine simultan new“"),
    (r"^(.+): not an event directory \(no (\S+)\)$", r"\1: kein Turnierverzeichnis (kein \2)"),
    (r"^(.+): no such event directory$", r"\1: kein solches Turnierverzeichnis"),
    (r"^(.+?) already holds an event(?: \(\S+\))?; choose another directory$",
     r"\1 enthält schon ein Turnier; ein anderes Verzeichnis wählen"),
    (r"^(.+): the event is busy \(another director's command holds (.+) for more than (\S+) s\); try again$",
     r"\1: das Turnier ist belegt (ein anderer Befehl des Schiedsrichters hält \2 länger als \3 s); bitte noch "
     r"einmal"),
    (r"^(.+): empty journal$", r"\1: leeres Journal"),
    (r"^(.+): the first entry \(`new`: the event's settings\) is damaged and no copy in (\S+)/ has it; the event "
     r"cannot be salvaged$",
     r"\1: der erste Eintrag („new“: die Einstellungen des Turniers) ist beschädigt und keine Kopie in \2/ hat "
     r"ihn; das Turnier lässt sich nicht retten"),
    (r"^the lexicon given is not the one this event was created with \(fingerprint (\w+)\); repair needs the "
     r"event's lexicon \(--lexicon\)$",
     r"die angegebene Wortliste ist nicht die, mit der das Turnier angelegt wurde (Fingerabdruck \1); repair "
     r"braucht die Wortliste des Turniers (--lexicon)"),
    (r"^the lexicon (.+) is not the one this event was created with \(fingerprint (\w+), the event has (\w+)\); "
     r"the event cannot be rebuilt with it$",
     r"die Wortliste \1 ist nicht die, mit der das Turnier angelegt wurde (Fingerabdruck \2, das Turnier hat "
     r"\3); damit lässt sich das Turnier nicht wiederherstellen"),
    (r"^(.+) changed since the repair was planned; run repair again$",
     r"\1 hat sich seit der Planung der Reparatur geändert; repair noch einmal aufrufen"),
    (r"^journal entry (\d+): (.+)$", _inner("Journaleintrag {0}: {1}")),
    # notes while reading an event (engine.director.store)
    (r"^ignoring an incomplete last journal entry \((\d+) bytes, an interrupted write\)$",
     r"ein unvollständiger letzter Journaleintrag wird übergangen (\1 Bytes, ein abgebrochenes Schreiben)"),
    (r"^removed an interrupted write from the end of the journal \(an entry never acknowledged; its bytes are kept "
     r"in journal\.torn\)$",
     r"ein abgebrochenes Schreiben am Ende des Journals entfernt (ein nie bestätigter Eintrag; seine Bytes "
     r"stehen in journal.torn)"),
    (r"^rebuilt (.+) \(it did not show the journal's last entry\)$",
     r"\1 neu geschrieben (es zeigte den letzten Journaleintrag nicht)"),
    (r"^(.+) does not show the journal's last entry and could not be rebuilt: (.+)$",
     _inner("{0} zeigt den letzten Journaleintrag nicht und konnte nicht neu geschrieben werden: {1}")),
    # refusals whose command hint the director at the command line needs (engine.director.event); the
    # others: DIRECTOR_DE, shared with the web pages
    (r"^round (\d+) has not started: start its clock with `simultan round DIR --start` before entering moves$",
     r"Runde \1 hat noch nicht begonnen: erst ihre Uhr starten („simultan round VERZ --start“), dann Züge "
     r"eintragen"),
    (r"^round (\d+): this event draws from a physical bag; give the tiles drawn \(`round --start --rack \.\.\.`\)$",
     r"Runde \1: dieses Turnier zieht aus einem echten Beutel; die gezogenen Steine angeben („round --start "
     r"--rack ...“)"),
    (r"^round (\d+) has not started \(no `round --start`\), so it cannot be closed; was it closed twice\? "
     r"\(`close --round N` closes only round N\)$",
     r"Runde \1 hat noch nicht begonnen (kein „round --start“) und kann nicht geschlossen werden; wurde sie "
     r"zweimal geschlossen? („close --round N“ schließt nur Runde N)"),
    (r"^nothing to undo \(the event has no action of the director after `new`\); entry (\d+) is not the last "
     r"action$",
     r"nichts rückgängig zu machen (das Turnier hat nach „new“ keine Aktion des Schiedsrichters); Eintrag \1 "
     r"ist nicht die letzte Aktion"),
    (r"^the event is over \((.+)\); no round is open$", _inner("das Turnier ist beendet ({0}); keine Runde ist offen")),
    # the director's own checks of what the director typed (engine.director.event, store, rules)
    (r"^penalty (.+): give the points to deduct, a whole number from 1 to 1000 \(negative gives points back\)$",
     r"penalty \1: die abzuziehenden Punkte angeben, eine ganze Zahl von 1 bis 1000 (negativ gibt Punkte "
     r"zurück)"),
    (r"^player name (.+) given twice(?: \(as (.+): the same name ignoring case and Unicode form\))?$",
     r"Spielername \1 doppelt angegeben"),
    (r"^table for (.+), who is not among the players$", r"Tisch für \1, der nicht unter den Spielern ist"),
    (r"^table (.+) for (.+): a number from 1 to 999$", r"Tisch \1 für \2: eine Zahl von 1 bis 999"),
    (r"^player name (.+): holds the blank-looking character (U\+[0-9A-F]+) \((.+)\); type the name without it$",
     r"Spielername \1: enthält das leer aussehende Zeichen \2 (\3); den Namen ohne es eingeben"),
    (r"^player name (.+): mixes (.+) letters, which look alike; type it in one alphabet$",
     r"Spielername \1: mischt Buchstaben verschiedener Schriften (\2), die gleich aussehen; in einer Schrift "
     r"eingeben"),
    (r"^round time (.+): write seconds \(180\), minutes:seconds \(3:00\) or 3m$",
     r"Rundenzeit \1: Sekunden (180), Minuten:Sekunden (3:00) oder 3m schreiben"),
    (r"^round time (.+) is negative$", r"Rundenzeit \1 ist negativ"),
    (r"^unknown tie-break (.+): choose from (.+)$", r"unbekanntes Stechen \1: eines von \2 wählen"),
    # why an event ended (engine.director.rules.draw_rack, event)
    (r"^no move is possible with the rack (\S+)$", r"mit den Buchstaben \1 ist kein Zug möglich"),
    (r"^the tiles left \((.+)\) cannot make a rack with at least (\d+) vowels? and (\d+) consonants?$",
     r"die übrigen Steine (\1) ergeben keine Buchstaben mit mindestens \2 Vokal(en) und \3 Konsonant(en)"),
    (r"^no valid rack after (\d+) draws$", r"keine gültigen Buchstaben nach \1 Ziehungen"),
]
"""``simultan``'s messages with variable parts (engine.director: journal actions, the repair report, a damaged
journal, notes, refusals with a command hint, the end of an event) -> German; the head of :data:`PATTERNS_DE`."""


def _cgp_place(place: str) -> str:
    """The place of a CGP error in German: ``board row 3``, ``rack 'X'``, ``opponent rack: rack 'X'``."""
    import re

    m = re.fullmatch(r"board row (\d+)", place)
    if m:
        return f"Brettzeile {m[1]}"
    m = re.fullmatch(r"(opponent rack: )?rack ('.*')", place)
    return f"{'Bänkchen des Gegners' if m[1] else 'Bänkchen'} {m[2]}"


def _impossible_de(m) -> str:
    import re

    where = {"board": "auf dem Brett", "rack": "auf dem Bänkchen", "opponent's rack": "auf dem Bänkchen des Gegners"}
    parts = ", ".join(f"{n} {where[w]}" for n, w in re.findall(r"(\d+) on the (board|rack|opponent's rack)", m[3]))
    tile = "Joker" if m[2] == "blank" else m[2]
    hint = " (für eine zusammengestellte Aufgabe: --allow-impossible in der Befehlszeile)" if m[5] else ""
    return (f"unmögliche Stellung: {m[1]} × {tile} ({parts}), der Satz hat {m[4]}: mehr {tile} auf Brett und "
            f"Bänkchen, als der Satz enthält{hint}")


CGP_PATTERNS_DE: list[tuple[str, object]] = [
    # a rack or a board row: the place in German, then the reason (engine.position.cgp, lexicon_tools.alphabet)
    (r"^(board row \d+|rack '[^']*'|opponent rack: rack '[^']*'): ('.*' is not a letter of the .*|\d+ tiles, at "
     r"most \d+|\d+ × .+, but the tile set has only \d+)$",
     lambda m: f"{_cgp_place(m[1])}: {_de(m[2])}"),
    (r"^'(.+)' is not a letter of the (?:.+) tile set \(write SS for ß\)$",
     r"„\1“ ist kein Stein des Satzes (für ß SS schreiben)"),
    (r"^'(.+)' is not a letter of the (?:.+) tile set$", r"„\1“ ist kein Stein des Satzes"),
    (r"^(\d+) tiles, at most (\d+)$", r"\1 Steine, höchstens \2"),
    (r"^(\d+) × (.+), but the tile set has only (\d+)$", r"\1 × \2, der Satz hat nur \3"),
    (r"^CGP of ([\d,]+) characters: a position is at most ([\d,]+) \(starts (.*)\)$",
     lambda m: f"CGP mit {german_number(m[1])} Zeichen: eine Stellung hat höchstens {german_number(m[2])} "
               f"(beginnt mit {m[3]})"),
    (r"^empty CGP$", "leere CGP"),
    (r"^CGP needs at least the board and the rack$", "eine CGP braucht mindestens das Brett und das Bänkchen"),
    (r"^board row (\d+): ('.*') is not a digit 0-9 \(empty squares are counted with 0-9\)$",
     r"Brettzeile \1: \2 ist keine Ziffer 0–9 (leere Felder werden mit 0–9 gezählt)"),
    (r"^board row (\d+): more than (\d+) squares$", r"Brettzeile \1: mehr als \2 Felder"),
    (r"^board row (\d+) \((.*)\): (\d+) squares, expected (\d+)$", r"Brettzeile \1 (\2): \3 Felder statt \4"),
    (r"^rack field (.*): expected RACK/OPPONENT-RACK \(one '/'\)$",
     r"Bänkchen-Feld \1: erwartet BÄNKCHEN/BÄNKCHEN-DES-GEGNERS (ein „/“)"),
    (r"^scores field (.*): expected two numbers like 120/95$", r"Punkte-Feld \1: erwartet zwei Zahlen wie 120/95"),
    (r"^scoreless-turn field (.*): expected a number \(digits 0-9\)$",
     r"Feld der Züge ohne Punkte \1: erwartet eine Zahl (Ziffern 0–9)"),
    (r"^text after the scoreless-turn field: (.*) is not an opcode \(opcodes are 'name value;', ending with ';'\)$",
     r"Text nach dem Feld der Züge ohne Punkte: \1 ist kein Opcode (ein Opcode ist „name wert;“, mit „;“ am Ende)"),
    (r"^opcode (.*): (.*) is not an opcode name \(lowercase letters\)$",
     r"Opcode \1: \2 ist kein Opcode-Name (Kleinbuchstaben)"),
    (r"^opcode (.*) given twice$", r"Opcode \1 doppelt angegeben"),
    (r"^opcode bag (.*): expected a number of tiles \(digits 0-9\)$",
     r"Opcode bag \1: erwartet eine Zahl von Steinen (Ziffern 0–9)"),
    (r"^(rack|opponent rack) (.*): lowercase (.*): a CGP rack is written in capitals \(a blank is '\?'; lowercase "
     r"marks a blank only on the board\)$",
     lambda m: f"{'Bänkchen' if m[1] == 'rack' else 'Bänkchen des Gegners'} {m[2]}: Kleinbuchstabe {m[3]}: in "
               f"einer CGP steht das Bänkchen in Großbuchstaben (ein Joker ist „?“; klein steht nur auf dem Brett "
               f"für einen Joker)"),
    (r"^impossible position: (\d+) × (\S+) \((.+)\), the .+? has (\d+): more \S+ tiles on the board and racks than "
     r"the set holds( \(for a composed puzzle: --allow-impossible on the command line\))?$", _impossible_de),
    # a lexicon named by --lexicon (lexicon_tools.bundle.LexiconError: the path first)
    (r"^(.+?): no such lexicon \(build one with `python -m lexicon_tools build`\)$",
     r"\1: keine solche Wortliste (eine bauen: „python -m lexicon_tools build“)"),
    (r"^(.+?): not a lexicon bundle \((\S+) missing\)$", r"\1: keine Lexikon-Datei (\2 fehlt)"),
    (r"^CGP opcode ('.*') is not one this program knows \((.*)\); it is kept but not used$",
     r"CGP-Opcode \1 kennt dieses Programm nicht (\2); er bleibt erhalten, wird aber nicht benutzt"),
    (r"^CGP opcode lex ('.*'): not a known German word list \((.*)\); the position is checked against the lexicon "
     r"given to the engine$",
     r"CGP-Opcode lex \1: keine bekannte deutsche Wortliste (\2); die Stellung wird gegen das Lexikon der Engine "
     r"geprüft"),
]
"""The CGP reader's refusals and notes (engine.position.cgp; a rack's letters from lexicon_tools.alphabet) -> German;
ahead of :data:`PATTERNS_DE`'s general patterns, after ``simultan``'s."""

PATTERNS_DE[:0] = CGP_PATTERNS_DE
PATTERNS_DE[:0] = SIMULTAN_PATTERNS_DE
