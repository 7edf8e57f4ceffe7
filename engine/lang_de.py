"""The German texts of the command line: English message (the key, as written in the code) -> German.

Used by :func:`engine.lang.tr`. A key is the exact English template, fields included; the
German text has the same fields (tests/cli/test_lang.py checks both, and that every literal
message of the code is here). Terms as on the web pages (engine/web/static/i18n.js): Zug,
Punkte (Pkt.), Rest, Restwert, Equity, Differenz, Sieg %, Bänkchen, Beutel, Endspiel,
Vor-Endspiel, Hauptvariante. Table headings keep the English column width (abbreviated
where the German word is longer).
"""

from __future__ import annotations

DE: dict[str, str] = {
    # -- prefixes of stderr lines -------------------------------------------------------------------
    "note: {msg}": "Hinweis: {msg}",
    "warning: {message}": "Warnung: {message}",
    "error: {exc}": "Fehler: {exc}",
    "error: interrupted": "Fehler: abgebrochen",
    "error: {exc}; try again": "Fehler: {exc}; bitte noch einmal",
    "error: interrupted while compiling ({exc}); the steps done are kept: run `python -m engine warmup` again "
    "to finish": "Fehler: beim Übersetzen abgebrochen ({exc}); was fertig ist, bleibt: „python -m engine warmup“ "
                 "noch einmal aufrufen, um den Rest zu übersetzen",
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
    "move generator (all moves, best move, equity)": "Zuggenerator (alle Züge, bester Zug, Equity)",
    "move generator compiled ahead of time (a fast `best`/`moves`)":
        "Zuggenerator vorab übersetzt (schnelles „best“/„moves“)",
    "self-play game kernel": "Kernel für Partien Computer gegen Computer",
    "simulation rollouts": "Simulationsläufe",
    "endgame solver (full and pruned lexicon)": "Endspiel-Löser (volle und gekürzte Wortliste)",
    "rack inference": "Rückschluss auf das Bänkchen",
    "could not start the ahead-of-time build in the background ({exc}); `python -m engine warmup aot` does it":
        "konnte das Vorab-Übersetzen nicht im Hintergrund starten ({exc}); „python -m engine warmup aot“ erledigt es",
    "compiling the move generator ahead of time in the background (once, about 20 s of CPU) so that later "
    "starts skip Numba; `python -m engine warmup` compiles every kernel ahead; GSE_AOT=0 turns this off":
        "übersetze den Zuggenerator vorab im Hintergrund (einmal, etwa 20 s CPU), damit spätere Starts ohne Numba "
        "auskommen; „python -m engine warmup“ übersetzt alle Kernel vorab; GSE_AOT=0 schaltet das ab",
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
    "--time {text!r}: expected seconds, e.g. 10 or 10s": "--time {text!r}: Sekunden erwartet, z. B. 10 oder 10s",
    "--time must be positive, got {text!r}": "--time muss positiv sein, nicht {text!r}",
    "--time must be a finite number of seconds, got {text!r}": "--time muss eine endliche Zahl Sekunden sein, "
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


def _inner(template: str):
    """A replacement that puts the German of the message's last part (group ``k``) into ``template``."""
    def replace(m):
        from engine.lang import tr

        groups = list(m.groups())
        groups[-1] = tr(groups[-1])
        return template.format(*groups)
    return replace


PATTERNS_DE: list[tuple[str, object]] = [
    # a message with a place in front (a file, a line of a record): the place in German, the rest translated
    (r"^line (\d+): (.+)$", _inner("Zeile {0}: {1}")),
    (r"^illegal move (\S+ \S+): (.+)$", _inner("ungültiger Zug {0}: {1}")),
    (r"^(/\S+|\S+\.(?:gcg|lex|klv2?|txt|cgp)): (.+)$", _inner("{0}: {1}")),
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
    (r"^cannot read \(No such file or directory\)$", "nicht lesbar (keine solche Datei)"),
    (r"^cannot read \(Permission denied\)$", "nicht lesbar (keine Berechtigung)"),
    (r"^cannot read \((.+)\)$", r"nicht lesbar (\1)"),
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
    (r"^(\d+) scoreless turns in a row with the bag empty: the game is over$",
     r"\1 Züge ohne Punkte in Folge bei leerem Beutel: die Partie ist zu Ende"),
    (r"^(\d+) passes in a row \(the bag holds (\d+), too few to exchange\): the game is over$",
     r"\1-mal in Folge gepasst (im Beutel \2, zu wenige zum Tauschen): die Partie ist zu Ende"),
]
"""Messages with variable parts (the word checker's reasons, the end of a game) -> German, first match wins:
``(regular expression, replacement)`` for :func:`re.sub` (engine.lang.tr of a message not in :data:`DE`)."""
