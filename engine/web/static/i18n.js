// German Scrabble engine – labels of the pages in German (default) and English (docs/web.md).
// Plain JavaScript, no build step. The language is remembered in localStorage ("gse.lang").
//   t(key, ...args)   the label in the page's language ({0}, {1} … replaced by args)
//   server(text)      a message of the server (English) in the page's language
//   apply(root)       fill [data-i18n] (text), [data-i18n-ph] (placeholder), [data-i18n-title],
//                     [data-i18n-aria] (aria-label) and [data-i18n-html] (markup) from the dictionary
"use strict";

(() => {
  const DICT = {
    de: {
      "app.title": "Scrabble auf Deutsch",
      "nav.analysis": "Analyse",
      "nav.pad": "Punkteblock",
      "nav.director": "Simultan-Projektion",
      "lang.switch": "English",
      "lang.title": "Switch to English",
      "lexicon": "Wortliste: {0} ({1} Wörter)",
      "lexicon.packaged": "mitgelieferte Liste",
      // analysis page
      "a.board.aria": "Spielbrett: Feld antippen, dann Buchstaben tippen",
      "a.rack": "Bänkchen",
      "a.rack.ph": "z. B. AEHNRST, ? = Joker",
      "a.help": "Feld anklicken (nochmals: <b>waagerecht → / senkrecht ↓</b>, oder Leertaste), dann tippen. " +
        "<b>Umschalt</b>+Buchstabe oder <b>?</b> und Buchstabe: Joker. Ä Ö Ü direkt oder mit den Knöpfen. " +
        "Rücktaste, Entf, Pfeiltasten; <b>Strg+Z</b> rückgängig. Joker auf dem Bänkchen: <b>?</b>",
      "a.help.touch": "Feld antippen (nochmals antippen oder <b>Richtung</b>: waagerecht → / senkrecht ↓), dann " +
        "Buchstaben tippen. Joker: erst <b>Joker</b>, dann den Buchstaben. Ä Ö Ü mit den Knöpfen, ⌫ löscht. " +
        "Joker auf dem Bänkchen: <b>?</b>",
      "a.undo": "Rückgängig",
      "a.clear": "Brett leeren",
      "a.play": "Zug legen",
      "a.play.title": "den gewählten (oder geprüften) Zug aufs Brett legen",
      "a.cgp.ph": "Stellung als CGP einfügen, Eingabe drücken",
      "a.load": "Laden",
      "a.copy": "Kopieren",
      "a.check": "Zug prüfen",
      "a.check.ph": "8H HAUS waagerecht, H8 HA(U)S senkrecht, Joker klein",
      "a.f.word": "Wort enthält",
      "a.f.word.aria": "nach Wort filtern",
      "a.f.square": "Feld, z. B. H8",
      "a.f.square.aria": "nach Feld filtern",
      "a.f.tiles": "legt Steine",
      "a.f.tiles.aria": "nach gelegten Steinen filtern",
      "a.f.count.aria": "nach Zahl der gelegten Steine filtern",
      "a.f.any": "beliebig viele Steine",
      "a.f.bingo": "7 (Bingo)",
      "a.moves.aria": "Züge: Pfeiltasten wählen, Eingabe legt",
      "a.th.move": "Zug", "a.th.score": "Punkte", "a.th.leave": "Rest", "a.th.leave_value": "Restwert",
      "a.th.equity": "Equity", "a.th.played": "Steine",
      "a.more": "Weitere {0} Züge laden",
      "a.all": "Alle laden",
      "a.nothing_to_undo": "nichts rückgängig zu machen",
      "a.analysing": "rechne …",
      "a.status": "{0} Züge, erzeugt in {1} ms",
      "a.best_exchange": " · bester Tausch {0} (Equity {1})",
      "a.unseen": "Ungesehen ({0}): {1} · Beutel {2}",
      "a.scores": "Spielstand laut CGP: am Zug {0} · Gegner {1}",
      "a.summary.all": "{0} Züge",
      "a.summary.loaded": "die besten {0} von {1} Zügen geladen",
      "a.summary.match": "{0} von {1} Zügen passen",
      "a.summary.cut": " · die ersten {0} gezeigt (Filter schränkt ein)",
      "a.summary.hint": " · Zug berühren: auf dem Brett zeigen, antippen: behalten",
      "a.points": "{0} Punkte",
      "a.bingo": "Bingo {0}",
      "a.detail": "Rest {0} ({1}) · Equity {2} · Platz {3} von {4}",
      "a.illegal": "✗ ungültig: {0}",
      "a.rank": "Platz {0} von {1} nach Punkten, {2} nach Equity (Equity {3}, Rest {4})",
      "a.edge": "Rand des Bretts: ein Feld antippen, um weiterzuschreiben",
      "a.not_tile": "{0} ist kein Stein des deutschen Satzes",
      "a.eszett": "ß ist kein Stein: S S tippen",
      "a.next_blank": "nächster Buchstabe: Joker",
      "a.rack.bad": "Bänkchen: {0} ist kein Stein des deutschen Satzes",
      "a.rack.many": "Bänkchen: {0} Steine, höchstens {1} passen aufs Bänkchen",
      "a.cgp.first": "zuerst eine CGP einfügen",
      "a.cgp.bad": "CGP nicht geladen: {0}",
      "a.cgp.copied": "CGP kopiert",
      "a.cgp.nocopy": "CGP-Feld markieren und kopieren (der Browser verweigert die Zwischenablage)",
      "a.blank": "Joker",
      "a.blank.title": "der nächste Buchstabe ist ein Joker",
      "a.dir": "Richtung",
      "a.dir.title": "waagerecht → / senkrecht ↓",
      // deeper analysis (POST /api/deep)
      "d.run": "Genauer rechnen",
      "d.time.aria": "Rechenzeit",
      "d.phase.endgame": "Endspiel (Beutel leer): Endspiel-Löser",
      "d.phase.preendgame": "Vor-Endspiel ({0} im Beutel): jede Ziehung durchgerechnet",
      "d.phase.simulation": "Simulation: 2 Züge vorausgespielt",
      "d.running": "rechne bis zu {0} s …",
      "d.exact": "exakt",
      "d.not_exact": "nicht exakt (Zeit um, Tiefe {0})",
      "d.partly": "teils genähert",
      "d.endgame": "Endspiel-Löser: bester Zug {0}, Wert {1} ({2})",
      "d.pv": "Hauptvariante: {0}",
      "d.final": "Endstand-Differenz danach: {0}",
      "d.pre": "Vor-Endspiel ({0}, {1} s)",
      "d.approx": "genähert", "d.th.exact": "exakt?",
      "d.sim": "Simulation: {0} Durchläufe in {1} s, 95-%-Intervalle",
      "d.th.move": "Zug", "d.th.win": "Sieg %", "d.th.spread": "Differenz", "d.th.ci": "95 % KI",
      "d.th.score": "Punkte", "d.th.iters": "Läufe", "d.th.winci": "Sieg 95 % KI",
      "d.pass": "passen",
      "blank.word": "Joker",
      // word lookup
      "w.label": "Wortchecker",
      "w.ph": "Wort nachschlagen",
      "w.yes": "✓ {0} steht in der Wortliste",
      "w.no": "✗ {0} steht nicht in der Wortliste",
      "w.bad": "✗ kein Wort ({0})",
      "w.reason.digit": "Ziffer", "w.reason.hyphen": "Bindestrich", "w.reason.apostrophe": "Apostroph",
      "w.reason.dot": "Punkt", "w.reason.space": "Leerzeichen", "w.reason.symbol": "Zeichen",
      "w.reason.too_short": "zu kurz", "w.reason.too_long": "zu lang", "w.reason.empty": "leer",
      // score pad
      "p.mode.classic": "Klassisch",
      "p.mode.together": "Together · Team",
      "p.new": "Neue Partie",
      "p.players": "Spieler (2 bis 4)",
      "p.player": "Spieler {0}",
      "p.start": "Partie beginnen",
      "p.need2": "mindestens zwei Namen eintragen",
      "p.names.unique": "jeder Name nur einmal",
      "p.names.max": "{0}: {1} von höchstens {2} Zeichen",
      "p.turn": "Am Zug: {0}",
      "p.move.help": "Startfeld antippen, → oder ↓ wählen und das ganze Wort schreiben, auch die Buchstaben, " +
        "die schon liegen. Joker: erst „Joker“, dann den Buchstaben – oder den Stein auf dem Brett antippen.",
      "p.word.ph": "Wort, z. B. HAUS",
      "p.board.aria": "Spielbrett: Startfeld antippen oder mit den Pfeiltasten wählen, Leertaste dreht die Richtung",
      "p.word.aria": "das ganze Wort ab dem Startfeld",
      "p.across": "→ waagerecht",
      "p.down": "↓ senkrecht",
      "p.save": "Zug speichern",
      "p.save.agreed": "Trotzdem speichern (am Tisch vereinbart)",
      "p.points": "oder Punkte von Hand",
      "p.points.ph": "Punkte",
      "p.points.save": "Punkte eintragen",
      "p.pass": "Passen (0)",
      "p.exchange": "Tauschen (0)",
      "p.undo": "Letzten Zug zurück",
      "p.preview.new": "neue Steine: {0}",
      "p.preview.words": "Wörter: {0}",
      "p.preview.total": "Zugwert: {0} Punkte",
      "p.preview.unknown": "nicht in der Wortliste: {0} – am Tisch vereinbart? Dann trotzdem speichern.",
      "p.preview.start": "zuerst das Startfeld antippen",
      "p.pick.start": "Startfeld {0} {1}: jetzt das Wort schreiben",
      "p.th.round": "Zug",
      "p.th.entry": "Eintrag",
      "p.sum": "Summe",
      "p.row.pass": "passt",
      "p.row.exchange": "tauscht",
      "p.row.points": "von Hand",
      "p.row.agreed": "vereinbart",
      "p.row.corrected": "korrigiert",
      "p.row.edit": "Ändern",
      "p.row.remove": "Zeile entfernen",
      "p.row.editing": "Zug {0} ändern: neues Wort schreiben oder Punkte eintragen",
      "p.row.cancel": "Abbrechen",
      "p.nothing": "noch kein Zug",
      "p.end": "Spielende",
      "p.end.help": "Reststeine je Spieler als Buchstaben (z. B. QE) oder als Punktzahl; wer ausgespielt hat, " +
        "bekommt die Reststeine der anderen gutgeschrieben.",
      "p.rest": "Reststeine",
      "p.out": "Ausgespielt",
      "p.out.none": "niemand (alle haben gepasst)",
      "p.end.apply": "Abrechnen",
      "p.end.undo": "Abrechnung zurücknehmen",
      "p.end.bad": "{0}: Reststeine als Buchstaben (z. B. QE) oder als Zahl",
      "p.end.out_rest": "{0} hat ausgespielt und hat daher keine Reststeine",
      "p.out.ask": "– bitte wählen –",
      "p.out.need": "Bitte wählen, wer ausgespielt hat (oder „niemand“).",
      "p.end.too_many": "{0}: {1} Reststeine – auf der Bank liegen höchstens {2}",
      "p.end.no_tiles": "{0}: {1} × {2}, aber vom Satz ({3} × {2}) sind nur {4} nicht auf dem Brett{5}",
      "p.end.no_tiles.others": " oder bei den anderen Reststeinen",
      "p.blank": "Blanko",
      "p.end.empty": "Noch kein Zug eingetragen. Trotzdem abrechnen? Zum Bestätigen noch einmal „Abrechnen“ tippen.",
      "p.final": "Endstand",
      "p.winner": "Sieg: {0}",
      "p.draw": "Unentschieden: {0}",
      "p.over": "Die Partie ist abgerechnet.",
      "p.saved": "Im Browser gespeichert (nur auf diesem Gerät).",
      "p.history": "Frühere Partien",
      "p.history.none": "noch keine früheren Partien",
      "p.open": "Öffnen",
      "p.current": "(aktuell)",
      "p.delete": "Löschen",
      "p.export": "Als GCG exportieren",
      "p.import": "GCG importieren",
      "p.export.no_hand": "GCG braucht auf dem Brett eingetippte Züge: Zug {0} hat nur Punkte von Hand",
      "p.export.no_rest": "GCG braucht die Reststeine als Buchstaben ({0})",
      "p.export.done": "GCG-Datei erstellt",
      "p.import.bad": "GCG nicht gelesen: {0}",
      "p.import.done": "GCG gelesen: {0} Einträge",
      // timer
      "tm.title": "Uhr",
      "tm.mode": "Zeit",
      "tm.off": "ohne Uhr",
      "tm.player30": "je Spieler 30 Minuten (SDeV)",
      "tm.player25": "je Spieler 25 Minuten (SDeV)",
      "tm.game": "für die ganze Partie",
      "tm.move": "Zugzeit",
      "tm.minutes": "Minuten",
      "tm.seconds": "Sekunden je Zug",
      "tm.start": "Start",
      "tm.pause": "Pause",
      "tm.next": "Weiter (nächster Spieler)",
      "tm.reset": "Uhr zurücksetzen",
      "tm.over": "{0}: {1} über der Zeit – {2} Punkte Abzug",
      "tm.lost": "{0}: mehr als 5 Minuten über der Zeit – Partie verloren",
      "tm.penalty": "Zeitstrafe",
      // Together
      "tg.goals": "Erfüllte Zielkarten: {0} von {1}",
      "tg.won": "Gewonnen! {0} Zielkarten erfüllt.",
      "tg.goal": "erfüllt die aktuelle Zielkarte",
      "tg.hint": "Hilfskarte benutzt",
      "tg.help": "Das gemeinsame Brett: keine Prämienfelder, keine Punkte. Vor dem Speichern markieren, ob das Wort " +
        "die aktuelle Zielkarte erfüllt; die Aufgabe steht auf eurer Karte.",
      "tg.row.goal": "Ziel {0}",
      "tg.row.nogoal": "kein Ziel",
      "tg.hints": "Hilfskarten: {0}",
      "tg.team": "Team",
    },
    en: {
      "app.title": "German Scrabble engine",
      "nav.analysis": "Analysis",
      "nav.pad": "Score pad",
      "nav.director": "Director's projection",
      "lang.switch": "Deutsch",
      "lang.title": "Auf Deutsch umschalten",
      "lexicon": "lexicon: {0} ({1} words)",
      "lexicon.packaged": "packaged list",
      "a.board.aria": "board: tap a square, type letters",
      "a.rack": "Rack",
      "a.rack.ph": "e.g. AEHNRST, ? = blank",
      "a.help": "Click a square (again to switch <b>across → / down ↓</b>, or Space), then type. " +
        "<b>Shift</b>+letter or <b>?</b> then a letter: blank. Ä Ö Ü as typed or with the buttons. " +
        "Backspace, Delete, arrows; <b>Ctrl+Z</b> undo. Blank in the rack: <b>?</b>",
      "a.help.touch": "Tap a square (tap again or <b>Direction</b>: across → / down ↓), then type letters. " +
        "Blank: <b>Blank</b> first, then the letter. Ä Ö Ü with the buttons, ⌫ deletes. Blank in the rack: <b>?</b>",
      "a.undo": "Undo",
      "a.clear": "Clear board",
      "a.play": "Play move",
      "a.play.title": "place the selected (or checked) move on the board",
      "a.cgp.ph": "paste a position in CGP and press Enter",
      "a.load": "Load",
      "a.copy": "Copy",
      "a.check": "Check a move",
      "a.check.ph": "8H HAUS across, H8 HA(U)S down, blank lowercase",
      "a.f.word": "word contains",
      "a.f.word.aria": "filter by word",
      "a.f.square": "square, e.g. H8",
      "a.f.square.aria": "filter by square",
      "a.f.tiles": "uses tiles",
      "a.f.tiles.aria": "filter by tiles used",
      "a.f.count.aria": "filter by number of tiles played",
      "a.f.any": "any number of tiles",
      "a.f.bingo": "7 (bingo)",
      "a.moves.aria": "moves: arrow keys select, Enter plays",
      "a.th.move": "Move", "a.th.score": "Score", "a.th.leave": "Leave", "a.th.leave_value": "Leave value",
      "a.th.equity": "Equity", "a.th.played": "Tiles",
      "a.more": "Load {0} more moves",
      "a.all": "Load all",
      "a.nothing_to_undo": "nothing to undo",
      "a.analysing": "analysing…",
      "a.status": "{0} moves, generated in {1} ms",
      "a.best_exchange": " · best exchange {0} (equity {1})",
      "a.unseen": "Unseen ({0}): {1} · bag {2}",
      "a.scores": "Scores in the CGP: player to move {0} · opponent {1}",
      "a.summary.all": "{0} moves",
      "a.summary.loaded": "the best {0} of {1} moves loaded",
      "a.summary.match": "{0} of {1} moves match",
      "a.summary.cut": " · the first {0} shown (filter to narrow)",
      "a.summary.hint": " · hover a move to see it on the board, click to keep it",
      "a.points": "{0} points",
      "a.bingo": "bingo {0}",
      "a.detail": "leave {0} ({1}) · equity {2} · rank {3} of {4}",
      "a.illegal": "✗ illegal: {0}",
      "a.rank": "rank {0} of {1} by score, {2} by equity (equity {3}, leave {4})",
      "a.edge": "the edge of the board: click a square to go on",
      "a.not_tile": "{0} is not a tile of the German set",
      "a.eszett": "ß is not a tile: type S S",
      "a.next_blank": "next letter: a blank",
      "a.rack.bad": "rack: {0} is not a tile of the German set",
      "a.rack.many": "rack: {0} tiles, a rack holds at most {1}",
      "a.cgp.first": "paste a CGP first",
      "a.cgp.bad": "CGP not loaded: {0}",
      "a.cgp.copied": "CGP copied",
      "a.cgp.nocopy": "select and copy the CGP field (the browser refused the clipboard)",
      "a.blank": "Blank",
      "a.blank.title": "the next letter is a blank",
      "a.dir": "Direction",
      "a.dir.title": "across → / down ↓",
      // deeper analysis (POST /api/deep)
      "d.run": "Analyse deeper",
      "d.time.aria": "time budget",
      "d.phase.endgame": "Endgame (bag empty): endgame solver",
      "d.phase.preendgame": "Pre-endgame ({0} in the bag): every draw worked out",
      "d.phase.simulation": "Simulation: 2 moves played ahead",
      "d.running": "analysing for up to {0} s…",
      "d.exact": "exact",
      "d.not_exact": "not exact (time up, depth {0})",
      "d.partly": "partly approximated",
      "d.endgame": "Endgame solver: best move {0}, value {1} ({2})",
      "d.pv": "Principal variation: {0}",
      "d.final": "Final spread after it: {0}",
      "d.pre": "Pre-endgame ({0}, {1} s)",
      "d.approx": "approximate", "d.th.exact": "exact?",
      "d.sim": "Simulation: {0} iterations in {1} s, 95 % intervals",
      "d.th.move": "Move", "d.th.win": "Win %", "d.th.spread": "Spread", "d.th.ci": "95 % CI",
      "d.th.score": "Score", "d.th.iters": "Iters", "d.th.winci": "Win 95 % CI",
      "d.pass": "pass",
      "blank.word": "blank",
      "w.label": "Word checker",
      "w.ph": "look up a word",
      "w.yes": "✓ {0} is in the word list",
      "w.no": "✗ {0} is not in the word list",
      "w.bad": "✗ not a word ({0})",
      "w.reason.digit": "digit", "w.reason.hyphen": "hyphen", "w.reason.apostrophe": "apostrophe",
      "w.reason.dot": "dot", "w.reason.space": "space", "w.reason.symbol": "symbol",
      "w.reason.too_short": "too short", "w.reason.too_long": "too long", "w.reason.empty": "empty",
      "p.mode.classic": "Classic",
      "p.mode.together": "Together · Team",
      "p.new": "New game",
      "p.players": "Players (2 to 4)",
      "p.player": "Player {0}",
      "p.start": "Start the game",
      "p.need2": "enter at least two names",
      "p.names.unique": "each name only once",
      "p.names.max": "{0}: {1} of at most {2} characters",
      "p.turn": "To move: {0}",
      "p.move.help": "Tap the start square, choose → or ↓ and write the whole word, including the letters already " +
        "there. Blank: first “Blank”, then the letter – or tap its tile on the board.",
      "p.word.ph": "word, e.g. HAUS",
      "p.board.aria": "board: tap the start square or choose it with the arrow keys, Space turns the direction",
      "p.word.aria": "the whole word from the start square",
      "p.across": "→ across",
      "p.down": "↓ down",
      "p.save": "Save move",
      "p.save.agreed": "Save anyway (agreed at the table)",
      "p.points": "or points by hand",
      "p.points.ph": "points",
      "p.points.save": "Enter points",
      "p.pass": "Pass (0)",
      "p.exchange": "Exchange (0)",
      "p.undo": "Undo last move",
      "p.preview.new": "new tiles: {0}",
      "p.preview.words": "words: {0}",
      "p.preview.total": "move scores {0} points",
      "p.preview.unknown": "not in the word list: {0} – agreed at the table? Then save anyway.",
      "p.preview.start": "tap the start square first",
      "p.pick.start": "start square {0} {1}: now write the word",
      "p.th.round": "Move",
      "p.th.entry": "Entry",
      "p.sum": "Total",
      "p.row.pass": "passes",
      "p.row.exchange": "exchanges",
      "p.row.points": "by hand",
      "p.row.agreed": "agreed",
      "p.row.corrected": "corrected",
      "p.row.edit": "Edit",
      "p.row.remove": "Remove row",
      "p.row.editing": "editing move {0}: write the new word or enter points",
      "p.row.cancel": "Cancel",
      "p.nothing": "no move yet",
      "p.end": "End of game",
      "p.end.help": "Remaining tiles per player as letters (e.g. QE) or as points; the player who went out gains " +
        "the others' remaining tiles.",
      "p.rest": "Remaining tiles",
      "p.out": "Went out",
      "p.out.none": "nobody (everyone passed)",
      "p.end.apply": "Settle",
      "p.end.undo": "Take back the settlement",
      "p.end.bad": "{0}: remaining tiles as letters (e.g. QE) or as a number",
      "p.end.out_rest": "{0} went out and so has no remaining tiles",
      "p.out.ask": "– please choose –",
      "p.out.need": "Please choose who went out (or “nobody”).",
      "p.end.too_many": "{0}: {1} remaining tiles – a rack holds at most {2}",
      "p.end.no_tiles": "{0}: {1} × {2}, but of the set ({3} × {2}) only {4} are not on the board{5}",
      "p.end.no_tiles.others": " or among the other remaining tiles",
      "p.blank": "blank",
      "p.end.empty": "No move entered yet. Settle anyway? Tap “Settle” again to confirm.",
      "p.final": "Final standings",
      "p.winner": "Winner: {0}",
      "p.draw": "Draw: {0}",
      "p.over": "The game is settled.",
      "p.saved": "Saved in this browser (this device only).",
      "p.history": "Earlier games",
      "p.history.none": "no earlier games yet",
      "p.open": "Open",
      "p.current": "(current)",
      "p.delete": "Delete",
      "p.export": "Export as GCG",
      "p.import": "Import GCG",
      "p.export.no_hand": "GCG needs moves typed on the board: move {0} has points by hand only",
      "p.export.no_rest": "GCG needs the remaining tiles as letters ({0})",
      "p.export.done": "GCG file made",
      "p.import.bad": "GCG not read: {0}",
      "p.import.done": "GCG read: {0} entries",
      "tm.title": "Clock",
      "tm.mode": "Time",
      "tm.off": "no clock",
      "tm.player30": "30 minutes per player (SDeV)",
      "tm.player25": "25 minutes per player (SDeV)",
      "tm.game": "for the whole game",
      "tm.move": "move timer",
      "tm.minutes": "minutes",
      "tm.seconds": "seconds per move",
      "tm.start": "Start",
      "tm.pause": "Pause",
      "tm.next": "Next player",
      "tm.reset": "Reset clock",
      "tm.over": "{0}: {1} over time – {2} points off",
      "tm.lost": "{0}: more than 5 minutes over time – game lost",
      "tm.penalty": "time penalty",
      "tg.goals": "Goal cards fulfilled: {0} of {1}",
      "tg.won": "Won! {0} goal cards fulfilled.",
      "tg.goal": "fulfils the current goal card",
      "tg.hint": "hint card used",
      "tg.help": "The shared board: no premium squares, no points. Before saving, mark whether the word fulfils " +
        "the current goal card; the task is on your card.",
      "tg.row.goal": "goal {0}",
      "tg.row.nogoal": "no goal",
      "tg.hints": "Hint cards: {0}",
      "tg.team": "Team",
    },
  };

  // the server's English messages in German (the most common ones; others are shown as they are)
  const SERVER_DE = [
    [/^(.+) is not in the word list \(nor (.+)\)$/, "$1 steht nicht in der Wortliste (auch nicht $2)"],
    [/^(.+) is not in the word list$/, "$1 steht nicht in der Wortliste"],
    [/^the move does not touch any tile on the board$/, "der Zug berührt keinen Stein auf dem Brett"],
    [/^the first move must cover the centre star (\w+)$/, "der erste Zug muss über den Stern $1 gehen"],
    [/^the first move must place at least two tiles$/, "der erste Zug legt mindestens zwei Steine"],
    [/^the tiles are not in one row or column$/, "die Steine liegen nicht in einer Zeile oder Spalte"],
    [/^square (\w+) holds (.+), not (.+)$/, "auf $1 liegt $2, nicht $3"],
    [/^square (\w+) is already occupied \(by (.+)\)$/, "$1 ist schon belegt ($2)"],
    [/^gap at (\w+): .*$/, "Lücke bei $1: neue und liegende Steine bilden keine durchgehende Reihe"],
    [/^(.+) from (\w+) runs off the board: .*$/, "$1 ab $2 läuft über den Rand des Bretts"],
    [/^(.+) places no tile: .*$/, "$1 legt keinen Stein: jedes Feld hat seinen Buchstaben schon"],
    [/^the move places (\d+) tiles; a rack holds (\d+)$/, "der Zug legt $1 Steine; aufs Bänkchen passen $2"],
    [/^the move needs (\d+) × (.+), but the set has (\d+) and (\d+) (?:is|are) on the board$/,
      "der Zug braucht $1 × $2, der Satz hat $3 und $4 liegen schon"],
    [/^the move needs (\d+) × (.+), but the set has (\d+)$/, "der Zug braucht $1 × $2, der Satz hat $3"],
    [/^tile (.+) is not on the rack \(rack (.+?)\)(; .*)?$/, "$1 ist nicht auf dem Bänkchen ($2)"],
    [/^tile (.+) is not on the rack (\d+) times .*$/, "$1 ist nicht $2-mal auf dem Bänkchen"],
    [/^cannot read (.+): expected .*$/, "nicht lesbar: $1 – erwartet z. B. 8H HAUS (waagerecht) oder H8 HAUS (senkrecht)"],
    [/^the rack is empty: type the tiles to play$/, "das Bänkchen ist leer: die Steine eintippen"],
    [/^too many requests.*$/, "zu viele Anfragen: kurz warten"],
    [/^busy: the analysis worker stopped.*$/, "der Rechenprozess ist abgebrochen; die nächste Anfrage startet ihn neu"],
    [/^busy: another deep analysis is running.*$/, "eine andere genaue Analyse läuft gerade: gleich noch einmal"],
    [/^busy: .*$/, "der Server rechnet gerade viel: gleich noch einmal"],
    [/^the position has no rack to move.*$/, "das Bänkchen ist leer: die Steine eintippen"],
    [/^endgame: a rack is empty, the game is already over$/, "Endspiel: ein Bänkchen ist leer, die Partie ist schon aus"],
    [/^endgame: (\d+) consecutive passes, the game is already over$/, "Endspiel: $1-mal in Folge gepasst, die Partie ist schon aus"],
    [/^endgame: (.*)$/, "Endspiel: $1"],
    [/^rack '(.*)': (\d+) × (.+), but the tile set has only (\d+)$/, "Bänkchen '$1': $2 × $3, der Satz hat nur $4"],
    [/^more (.+) tiles on the board and racks than the German set holds \((\d+)\)$/,
      "mehr $1 auf Brett und Bänkchen, als der deutsche Satz hat ($2)"],
    [/^the server does not answer.*$/, "der Server antwortet nicht – läuft `python -m engine web` noch?"],
    [/^board has (\d+) rows?.*$/, (_m, n) => `das Brett hat ${n} ${n === "1" ? "Zeile" : "Zeilen"}, nicht 15`],
    [/^impossible position: (\d+) × (.+?) \((.+)\), the German tile set has (\d+)(?::.*)?$/,
      (_m, n, tile, parts, set) => {
        const name = tile === "blank" ? "Blanko" : tile;
        const where = parts.replace(/(\d+) on the opponent's rack/, "$1 auf dem Bänkchen des Gegners")
          .replace(/(\d+) on the board/, "$1 auf dem Brett").replace(/(\d+) on the rack/, "$1 auf dem Bänkchen");
        return `unmögliche Stellung: ${n} × ${name} (${where}), der deutsche Satz hat nur ${set}`;
      }],
    [/ is not in the word list/g, " steht nicht in der Wortliste"],
    [/^no tile on the centre star H8$/, "kein Stein auf dem Stern H8"],
    [/^tiles not connected to the centre: (.+)$/, "Steine ohne Verbindung zur Mitte: $1"],
    [/^(.+) at (\w+) steht nicht in der Wortliste$/, "$1 bei $2 steht nicht in der Wortliste"],
  ];

  let lang = "de";
  try { lang = localStorage.getItem("gse.lang") || "de"; } catch (e) { lang = "de"; }
  if (!DICT[lang]) lang = "de";

  function t(key, ...args) {
    const s = (DICT[lang] && DICT[lang][key]) ?? DICT.de[key] ?? key;
    return s.replace(/\{(\d+)\}/g, (_m, k) => String(args[+k] ?? ""));
  }
  function server(text) {
    if (typeof text !== "string") return text;
    // a command named in a message (`simultan new`): quotation marks of the language, never backticks
    const quoted = text.replace(/`([^`]*)`/g, lang === "de" ? "„$1“" : "“$1”");
    if (lang !== "de") return quoted;
    let out = quoted;
    for (const [re, to] of SERVER_DE) {
      if (re.global) { out = out.replace(re, to); continue; }
      if (re.test(out)) { out = out.replace(re, to); }
    }
    return out;
  }
  function apply(root) {
    const r = root || document;
    r.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
    r.querySelectorAll("[data-i18n-html]").forEach((el) => { el.innerHTML = t(el.dataset.i18nHtml); });
    r.querySelectorAll("[data-i18n-ph]").forEach((el) => { el.placeholder = t(el.dataset.i18nPh); });
    r.querySelectorAll("[data-i18n-title]").forEach((el) => { el.title = t(el.dataset.i18nTitle); });
    r.querySelectorAll("[data-i18n-aria]").forEach((el) => { el.setAttribute("aria-label", t(el.dataset.i18nAria)); });
    document.documentElement.lang = lang;
  }
  // a page that can draw itself again in the new language sets I18N.onRelabel (the score pad: the move being
  // typed and its preview stay); any other page is reloaded
  let onRelabel = null;
  function setLang(l) {
    try { localStorage.setItem("gse.lang", l); } catch (e) { /* private window: this page only */ }
    if (!onRelabel || !DICT[l]) { location.reload(); return; }
    lang = l;
    apply();
    labelSwitch();
    onRelabel();
  }
  function labelSwitch() {
    const b = document.getElementById("lang");
    if (!b) return;
    b.textContent = t("lang.switch");
    b.title = t("lang.title");
  }
  // the language button in the header (any element with id "lang")
  function wireSwitch() {
    const b = document.getElementById("lang");
    if (!b) return;
    labelSwitch();
    b.addEventListener("click", () => setLang(lang === "de" ? "en" : "de"));
  }
  // a number in the page's language: decimal comma in German ("24,5"), point in English; no grouping
  function num(x, digits = 1) {
    if (x === null || x === undefined || Number.isNaN(x)) return "–";
    return Number(x).toLocaleString(lang === "de" ? "de-DE" : "en-US",
      { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false });
  }
  // premium squares, one convention per language: B (Buchstabe) and W (Wort) in German, L and W in English
  function premium(code) {
    const de = lang === "de";
    return { "3": "3W", "2": "2W", "t": de ? "3B" : "3L", "d": de ? "2B" : "2L", "*": "★" }[code] || "";
  }
  window.I18N = { t, server, apply, setLang, wireSwitch, num, premium, get lang() { return lang; }, DICT,
    get onRelabel() { return onRelabel; }, set onRelabel(fn) { onRelabel = fn; } };
})();
