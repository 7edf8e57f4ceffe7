// German Scrabble engine – a game against the computer, the Partieanalyse and the puzzles (docs/web.md).
// Plain JavaScript, no build step. The games live on the server (engine/web/play.py); this browser keeps
// the ids of its games and the puzzles with their results in localStorage.
"use strict";

(() => {
  const N = 15;
  const COLS = "ABCDEFGHIJKLMNO";
  const KEY = "gse.spielen.v1";     // localStorage: {current, ids: [...], name, level, rules, owner}
  const CKEY = "gse.spielen.kopien.v1"; // localStorage: {id: {gcg, names, scores, level, created, kept}}: finished games
  const COPIES = 30;                   // finished games kept in the browser at most (the newest)
  const IDS = 200;                     // game ids kept: beyond this, finished games' ids go (oldest first); never a running one
  const LISTED = 40;                   // ids sent to /api/play/list (its limit)
  const PKEY = "gse.aufgaben.v1";   // localStorage: [{key, game, turn, player, board, rack, cgp, best, played, loss, unit, method, tries, solved}]
  const PREMIUM = { "3": ["tw"], "2": ["dw"], "t": ["tl"], "d": ["dl"], "*": ["star"] };  // labels: I18N.premium

  Object.assign(I18N.DICT.de, {
    "nav.play": "Gegen den Computer",
    "s.tab.game": "Partie", "s.tab.review": "Partieanalyse", "s.tab.puzzles": "Aufgaben",
    "s.new": "Neue Partie gegen den Computer", "s.level": "Spielstärke",
    "s.level.einsteiger": "Einsteiger", "s.level.einsteiger.help": "legt echte Wörter, aber selten den besten Zug (höchstens 24 Punkte, zufällig unter den guten)",
    "s.level.stark": "Stark", "s.level.stark.help": "der beste Zug nach statischer Equity (Punkte + Wert der Reststeine)",
    "s.level.meister": "Meister", "s.level.meister.help": "rechnet jeden Zug 3 Sekunden: Simulation, Vor-Endspiel, Endspiel exakt",
    "s.rules": "Regeln", "s.rules.home": "Hausregeln", "s.rules.home.help": "ein Wort, das nicht in der Wortliste steht, wird mit Grund abgelehnt",
    "s.rules.sdev": "SDeV-Turnier", "s.rules.sdev.help": "der Computer prüft jedes Wort: ein falsches wird angefochten, der Zug zurückgenommen, du setzt aus",
    "s.name": "Dein Name", "s.start": "Partie beginnen", "s.newgame": "Neue Partie", "s.analyse": "Partieanalyse",
    "s.play": "Zug legen", "s.pass": "Passen", "s.pass.sure": "Wirklich passen?", "s.exchange": "Tauschen", "s.exchange.ph": "Steine zum Tauschen, z. B. QY", "s.exchange.short": "Steine, z. B. QY",
    "s.bag": "Beutel", "s.bag.count": "{0} Steine", "s.unseen": "Ungesehene Steine",
    "s.unseen.help": "(Beutel und Bänkchen des Computers)",
    "s.saved": "Auf dem Server gespeichert: die Partie übersteht ein Neuladen und einen Neustart. Ist der Server voll, werden beendete Partien zuerst gelöscht; die letzten 30 beendeten behält auch dieser Browser (als GCG).",
    "s.copy.line": "{0} · {1} gegen {2} · {3}:{4} · nur noch in diesem Browser",
    "s.save.failed": "Achtung: der Speicher dieses Browsers ist voll – die Liste deiner Partien ist NICHT gespeichert und nach dem Neuladen weg. Speicher freigeben (z. B. alte Partien im Punkteblock löschen); die Partien selbst liegen auf dem Server.", "s.copy.gcg": "GCG", "s.copy.review": "Analysieren",
    "s.copy.full": "Der Speicher dieses Browsers ist voll: von dieser fertigen Partie gibt es keine Kopie im Browser, nur die auf dem Server (der löscht fertige Partien zuerst, wenn er voll ist). Speicher freigeben oder die Partie als GCG herunterladen.",
    "s.copy.forget": "Kopie löschen", "s.copy.forget.ask": "Die Kopie dieser Partie löschen? Der Server hat sie nicht mehr; sie ist dann ganz weg.",
    "s.yourturn": "Du bist am Zug", "s.thinking": "Der Computer überlegt …", "s.over": "Partie beendet",
    "s.answer": "Computer: {0}", "s.answer.pass": "Computer passt", "s.answer.exchange": "Computer tauscht {0} Steine",
    "s.challenged": "Der Computer ficht an: {0} steht nicht in der Wortliste. Der Zug wird zurückgenommen, du setzt aus.",
    "s.level.of": "Stufe: {0} · {1}", "s.rules.short.home": "Hausregeln", "s.rules.short.tournament": "SDeV",
    "s.result.won": "{0} gewinnt {1}:{2}", "s.result.draw": "Unentschieden {0}:{1}",
    "s.settle.out": "{0} hat ausgespielt und bekommt {1} Punkte", "s.settle.rack": "{0}: Reststeine {1}, −{2}",
    "s.end.passes": "Ende durch Passen", "s.games.none": "Noch keine Partien.",
    "s.game.line": "{0} · {1} gegen {2} · {3}:{4}{5}", "s.game.running": " · läuft", "s.open": "Öffnen",
    "s.game.unknown": "Partie {0} · nicht auf diesem Server gefunden", "s.game.damaged": "Partie {0}: {1}",
    "s.forget": "Entfernen",
    "s.review": "Partieanalyse", "s.review.file": "GCG-Datei analysieren", "s.review.wait": "Analyse läuft …",
    "s.review.help": "Zug antippen: die Stellung davor, <span class=\"k played\">gelegt</span> und <span class=\"k best\">besser</span>. Verlust in Equity-Punkten (Endspiel: exakt in Punkten), Marken: Ungenauigkeit ab 3, Fehler ab 7, Patzer ab 15.",
    "s.review.none": "Keine Analyse: Partie beenden oder eine GCG-Datei wählen.",
    "s.rv.player": "Spieler", "s.rv.turns": "Züge", "s.rv.avg": "Ø Verlust", "s.rv.bingos": "Bingos verpasst",
    "s.rv.endgame": "Verlust Endspiel", "s.rv.best": "bester Zug", "s.rv.loss": "Verlust {0}",
    "s.rv.unknown": "Bänkchen unbekannt", "s.rv.exact": "Endspiel, exakt", "s.rv.inexact": "Endspiel, nicht exakt",
    "s.rv.bingo": "Bingo verpasst", "s.rv.same": "bester Zug gespielt",
    "s.rv.hand": "Punkte von Hand", "s.rv.note.hand": "Punkte von Hand: kein Wort auf dem Brett, nicht analysiert",
    "s.rv.note.board": "Brett unvollständig (Punkte von Hand davor), nicht analysiert",
    "s.rv.note.exchange": "getauschte Steine unbekannt",
    "s.mark.Ungenauigkeit": "Ungenauigkeit", "s.mark.Fehler": "Fehler", "s.mark.Patzer": "Patzer",
    "s.puzzles": "Aufgaben aus den eigenen Fehlern",
    "s.puzzles.help": "Die Züge deiner analysierten Partien, die am meisten gekostet haben: finde den besseren Zug. Gespeichert in diesem Browser.",
    "s.puzzles.none": "Noch keine Aufgaben: analysiere eine Partie gegen den Computer.",
    "s.puzzle.ph": "z. B. 8H HAUS oder H8 HA(U)S", "s.puzzle.check": "Prüfen", "s.puzzle.show": "Lösung zeigen",
    "s.puzzle.line": "Zug {0}: {1} gelegt, Verlust {2}", "s.puzzle.solved": "gelöst", "s.puzzle.tries": "{0} Versuche", "s.puzzle.try": "1 Versuch",
    "s.puzzle.right": "Richtig! {0} ist so gut wie der beste Zug.", "s.puzzle.better": "Besser als dein Zug, aber nicht der beste ({0} weniger).",
    "s.puzzle.wrong": "Nicht besser als dein Zug.", "s.puzzle.answer": "Lösung: {0}",
    "s.puzzle.rack": "Bänkchen: {0}",
    "s.withdrawn": "angefochten, zurückgenommen", "s.exchanged": "tauscht {0}", "s.passed": "passt",
    "s.starting": "Die Partie wird vorbereitet …",
    "s.starting.slow": "Die Partie wird vorbereitet … Beim ersten Start nach dem Installieren übersetzt der Server seine Rechenkerne (einmalig, kann einige Minuten dauern). Die Partie geht nicht verloren, auch wenn du die Seite neu lädst.",
    "s.mv.pass": "Passen", "s.mv.exchange": "Tausch {0}",
    "s.puzzle.line.exchange": "Zug {0}: {1} getauscht, Verlust {2}", "s.puzzle.line.pass": "Zug {0}: gepasst, Verlust {1}",
    "s.exchange.rack": "{0} ist nicht auf dem Bänkchen ({1})", "s.exchange.times": "{0} ist nicht {1}-mal auf dem Bänkchen ({2})",
    "s.stale": "Die Partie wurde in einem anderen Fenster weitergespielt; hier ist der neue Stand.",
    "s.stale.now": "Hier ist der neue Stand.",
  });
  Object.assign(I18N.DICT.en, {
    "nav.play": "Play the computer",
    "s.tab.game": "Game", "s.tab.review": "Game review", "s.tab.puzzles": "Puzzles",
    "s.new": "New game against the computer", "s.level": "Strength",
    "s.level.einsteiger": "Beginner", "s.level.einsteiger.help": "plays real words but seldom the best move (at most 24 points, at random among the good ones)",
    "s.level.stark": "Strong", "s.level.stark.help": "the best move by static equity (score + value of the tiles kept)",
    "s.level.meister": "Master", "s.level.meister.help": "thinks 3 seconds a move: simulation, pre-endgame, exact endgame",
    "s.rules": "Rules", "s.rules.home": "Home rules", "s.rules.home.help": "a word not in the word list is refused with the reason",
    "s.rules.sdev": "SDeV tournament", "s.rules.sdev.help": "the computer checks every word: a phony is challenged off and you lose your turn",
    "s.name": "Your name", "s.start": "Start the game", "s.newgame": "New game", "s.analyse": "Game review",
    "s.play": "Play move", "s.pass": "Pass", "s.pass.sure": "Really pass?", "s.exchange": "Exchange", "s.exchange.ph": "tiles to exchange, e.g. QY", "s.exchange.short": "tiles, e.g. QY",
    "s.bag": "Bag", "s.bag.count": "{0} tiles", "s.unseen": "Unseen tiles",
    "s.unseen.help": "(the bag and the computer's rack)",
    "s.saved": "Saved on the server: the game survives a reload and a restart. When the server is full, finished games are deleted first; this browser also keeps the last 30 finished ones (as GCG).",
    "s.copy.line": "{0} · {1} against {2} · {3}:{4} · only in this browser now",
    "s.save.failed": "Warning: this browser's storage is full – the list of your games is NOT saved and will be gone after a reload. Free some storage (e.g. delete old games on the score pad); the games themselves are on the server.", "s.copy.gcg": "GCG", "s.copy.review": "Review",
    "s.copy.full": "This browser's storage is full: this finished game has no copy in the browser, only the server's (which deletes finished games first when it is full). Free some storage or download the game as GCG.",
    "s.copy.forget": "Delete copy", "s.copy.forget.ask": "Delete the copy of this game? The server no longer has it; it will be gone for good.",
    "s.yourturn": "Your turn", "s.thinking": "The computer is thinking …", "s.over": "Game over",
    "s.answer": "Computer: {0}", "s.answer.pass": "Computer passes", "s.answer.exchange": "Computer exchanges {0} tiles",
    "s.challenged": "The computer challenges: {0} is not in the word list. The play is taken back and you lose your turn.",
    "s.level.of": "Level: {0} · {1}", "s.rules.short.home": "home rules", "s.rules.short.tournament": "SDeV",
    "s.result.won": "{0} wins {1}:{2}", "s.result.draw": "Draw {0}:{1}",
    "s.settle.out": "{0} went out and gains {1} points", "s.settle.rack": "{0}: tiles left {1}, −{2}",
    "s.end.passes": "ended by passes", "s.games.none": "No games yet.",
    "s.game.line": "{0} · {1} against {2} · {3}:{4}{5}", "s.game.running": " · in progress", "s.open": "Open",
    "s.game.unknown": "Game {0} · not found on this server", "s.game.damaged": "Game {0}: {1}",
    "s.forget": "Remove",
    "s.review": "Game review", "s.review.file": "Review a GCG file", "s.review.wait": "Reviewing …",
    "s.review.help": "Tap a turn: the position before it, <span class=\"k played\">played</span> and <span class=\"k best\">better</span>. Loss in equity points (endgame: exact, in points); marks: inaccuracy from 3, mistake from 7, blunder from 15.",
    "s.review.none": "No review yet: finish a game or choose a GCG file.",
    "s.rv.player": "Player", "s.rv.turns": "Turns", "s.rv.avg": "Avg. loss", "s.rv.bingos": "bingos missed",
    "s.rv.endgame": "endgame loss", "s.rv.best": "best move", "s.rv.loss": "loss {0}",
    "s.rv.unknown": "rack unknown", "s.rv.exact": "endgame, exact", "s.rv.inexact": "endgame, not exact",
    "s.rv.bingo": "bingo missed", "s.rv.same": "best move played",
    "s.rv.hand": "points by hand", "s.rv.note.hand": "points by hand: no word on the board, not reviewed",
    "s.rv.note.board": "board incomplete (points by hand before it), not reviewed",
    "s.rv.note.exchange": "exchanged tiles unknown",
    "s.mark.Ungenauigkeit": "inaccuracy", "s.mark.Fehler": "mistake", "s.mark.Patzer": "blunder",
    "s.puzzles": "Puzzles from your own mistakes",
    "s.puzzles.help": "The turns of your reviewed games that cost the most: find the better move. Kept in this browser.",
    "s.puzzles.none": "No puzzles yet: review a game against the computer.",
    "s.puzzle.ph": "e.g. 8H HAUS or H8 HA(U)S", "s.puzzle.check": "Check", "s.puzzle.show": "Show the answer",
    "s.puzzle.line": "Turn {0}: played {1}, lost {2}", "s.puzzle.solved": "solved", "s.puzzle.tries": "{0} tries", "s.puzzle.try": "1 try",
    "s.puzzle.right": "Right! {0} is as good as the best move.", "s.puzzle.better": "Better than the move played, but not the best ({0} less).",
    "s.puzzle.wrong": "Not better than the move played.", "s.puzzle.answer": "Answer: {0}",
    "s.puzzle.rack": "Rack: {0}",
    "s.withdrawn": "challenged off", "s.exchanged": "exchanges {0}", "s.passed": "passes",
    "s.starting": "Preparing the game …",
    "s.starting.slow": "Preparing the game … On the first start after installing, the server compiles its kernels (once; this can take a few minutes). The game is not lost if you reload the page.",
    "s.mv.pass": "pass", "s.mv.exchange": "exchange {0}",
    "s.puzzle.line.exchange": "Turn {0}: exchanged {1}, lost {2}", "s.puzzle.line.pass": "Turn {0}: passed, lost {1}",
    "s.exchange.rack": "{0} is not on the rack ({1})", "s.exchange.times": "{0} is not on the rack {1} times ({2})",
    "s.stale": "The game went on in another window; this is where it stands now.",
    "s.stale.now": "This is where it stands now.",
  });
  // the server's messages of this page, in German
  const SERVER_DE = [
    [/^it is not your turn$/, "du bist nicht am Zug"],
    [/^the game is over$/, "die Partie ist beendet"],
    [/^unknown game$/, "unbekannte Partie"],
    [/^type a move such as.*$/, "einen Zug eingeben, z. B. 8H HAUS, -ABC (tauschen) oder - (passen)"],
  ];
  const T = I18N.t;
  function S(text) {
    if (I18N.lang !== "en") for (const [re, to] of SERVER_DE) if (re.test(text)) return text.replace(re, to);
    return I18N.server(text);
  }
  const $ = (sel) => document.querySelector(sel);

  let rules = null;
  const values = {};
  const letters = new Set();
  let store = { current: null, ids: [], name: "", level: "stark", rules: "home" };
  let state = null;                  // the open game, as the server sends it
  let lastAnswer = null;             // the computer's last turn (its tiles are shown)
  let review = null, reviewFor = null, reviewTurn = null;
  let puzzles = [];
  let puzzle = null;
  let squares = [];
  let busy = false;
  const entry = { start: null, dir: "across", word: "", blanks: new Set(), blankNext: false, answer: null, answerFor: "" };
  let checkNo = 0, checkTimer = null;

  // ---- helpers ------------------------------------------------------------------------------
  function escapeHtml(s) {
    return String(s).replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[ch]));
  }
  function showWord(text) {
    return Array.from(text).map((ch) => (ch !== ch.toUpperCase()
      ? `<span class="blank-letter">${escapeHtml(ch.toUpperCase())}</span>` : escapeHtml(ch))).join("");
  }
  const num = (x, digits = 1) => I18N.num(x, digits);
  // `timeout` (ms, optional): a request unanswered that long is given up (answered as "the server does not answer")
  async function call(method, url, body, timeout) {
    let r;
    try {
      r = await fetch(url, { method, headers: Object.assign({ "X-Lang": I18N.lang },
        body ? { "Content-Type": "application/json" } : {}), body: body ? JSON.stringify(body) : undefined,
        signal: timeout ? AbortSignal.timeout(timeout) : undefined });
    } catch (e) {
      return { error: I18N.server("the server is not reachable – please try again in a moment"), status: 0 };
    }
    let j = null;
    try { j = await r.json(); } catch (e) { j = null; }
    if (!r.ok) return { error: S((j && j.error) || `HTTP ${r.status}`), status: r.status };
    return j;
  }
  // a request the analysis pool may refuse for a moment (503): tried again, once a second, `tries` times
  async function callRetry(method, url, body, tries = 30) {
    for (let k = 0; ; k++) {
      const r = await call(method, url, body);
      if (!(r.status === 503 || r.status === 429) || k >= tries) return r;
      await new Promise((res) => setTimeout(res, 1000));
    }
  }
  // a move in the review's notation for people: "-" pass, "-RR" exchange, else the placement (blanks marked)
  function moveLabel(m) {   // plain text
    if (m === "-" || m === "pass") return T("s.mv.pass");
    if (typeof m === "string" && m.startsWith("-")) return T("s.mv.exchange", m.slice(1));
    return m || "";
  }
  function moveText(m) {    // HTML
    return typeof m === "string" && (m === "pass" || m.startsWith("-")) ? escapeHtml(moveLabel(m)) : showWord(m || "");
  }
  // a signed number of points with a real minus sign (−15, +8)
  const signed = (x) => (x > 0 ? `+${x}` : x < 0 ? `\u2212${-x}` : "0");
  // an empty message leaves the warning that the list of games is not saved (it stays until a save succeeds)
  function msg(text, bad) {
    if (!text && saveFailed) { text = T("s.save.failed"); bad = true; }
    const el = $("#msg"); el.textContent = text || ""; el.className = bad ? "bad" : "";
  }
  function squareName(r, c) { return COLS[c] + (r + 1); }
  function startText(start, dir) { return dir === "across" ? `${start.r + 1}${COLS[start.c]}` : `${COLS[start.c]}${start.r + 1}`; }

  // ---- storage ------------------------------------------------------------------------------
  function load() {
    try {
      const s = JSON.parse(localStorage.getItem(KEY) || "null");
      if (s && Array.isArray(s.ids)) store = Object.assign(store, s);
    } catch (e) { /* a damaged entry: start afresh */ }
    if (Array.isArray(store.gone)) for (const id of store.gone) forgotten.add(id);
    try {
      const p = JSON.parse(localStorage.getItem(PKEY) || "[]");
      puzzles = Array.isArray(p) ? p.filter((x) => x && x.key && Array.isArray(x.board)) : [];
    } catch (e) { puzzles = []; }
  }
  // this browser's random owner token: the server keeps each owner's newest games (a token, not the address,
  // so a phone changing networks keeps them); crypto.getRandomValues works on plain http too
  function ownerToken() {
    if (!/^[A-Za-z0-9_-]{16,64}$/.test(store.owner || "")) {
      store.owner = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
      save();
    }
    return store.owner;
  }
  // ids removed by hand (or a start the server refused) in this tab or another: never taken back from a save.
  // Kept in the stored entry as `gone` (the newest IDS), so a removal in one tab reaches the others.
  const forgotten = new Set();   // filled by load()
  function forget(id) {
    store.ids = store.ids.filter((x) => x !== id);
    store.done = (store.done || []).filter((x) => x !== id);
    forgotten.add(id);
    store.gone = (Array.isArray(store.gone) ? store.gone.filter((x) => x !== id) : []).concat([id]).slice(-IDS);
    if (store.current === id) store.current = null;
  }
  // another tab's stored entry joins this tab's: the union of both lists of ids, without the removed ones
  // (report-attack26i T1: a tab opened earlier wrote its stale list over the ids another tab had added;
  // report-attack26k T2: two tabs starting a game at the same instant each kept only their own id).
  // Answers whether this tab holds an id the stored entry lacks (then this tab saves, so no id is lost).
  function mergeEntry(cur) {
    if (!cur || !Array.isArray(cur.ids)) return false;
    if (Array.isArray(cur.gone)) for (const id of cur.gone) if (typeof id === "string" && !forgotten.has(id)) {
      forgotten.add(id);
      store.gone = (Array.isArray(store.gone) ? store.gone : []).concat([id]).slice(-IDS);
    }
    store.ids = store.ids.filter((x) => !forgotten.has(x));
    const theirs = new Set(cur.ids), have = new Set(store.ids);
    const missing = store.ids.some((x) => !theirs.has(x));
    for (const id of cur.ids) if (typeof id === "string" && !have.has(id) && !forgotten.has(id)) { store.ids.push(id); have.add(id); }
    if (Array.isArray(cur.done)) for (const id of cur.done) if (have.has(id)) markDone(id);
    store.done = (store.done || []).filter((x) => have.has(x));
    if (!/^[A-Za-z0-9_-]{16,64}$/.test(store.owner || "") && typeof cur.owner === "string") store.owner = cur.owner;
    store.ids = trimIds(store.ids);   // beyond IDS the oldest finished ones go, as when this tab adds one
    return missing;
  }
  function mergeStored() {
    let cur = null;
    try { cur = JSON.parse(localStorage.getItem(KEY) || "null"); } catch (e) { cur = null; }
    mergeEntry(cur);
  }
  let saveFailed = false;
  function save() {
    mergeStored();
    const text = JSON.stringify(store);
    for (let k = 0; k < 40; k++) {
      try {
        localStorage.setItem(KEY, text);
        if (saveFailed) { saveFailed = false; msg(""); }
        return true;
      } catch (e) {   // full: the oldest copy of a game the server still has makes room (the ids matter more)
        const c = loadCopies(), old = spareCopies(c);
        if (!old.length) break;   // report-attack26k Q2: a copy of a game the server deleted is the only one left
        delete c[old[0]];
        try { localStorage.setItem(CKEY, JSON.stringify(c)); } catch (e2) { break; }
      }
    }
    saveFailed = true;   // report-attack26i Q1: a new game's id was lost on the next reload, and nothing said so
    msg(T("s.save.failed"), true);
    return false;
  }
  // a game known to be over (its id may go when more than IDS are kept; the browser keeps a copy of it)
  function markDone(id) {
    if (!Array.isArray(store.done)) store.done = [];
    if (!store.done.includes(id)) store.done.push(id);
  }
  // the ids without the oldest finished games' beyond IDS; the id of a game not known to be over is never dropped
  function trimIds(ids) {
    const done = new Set(store.done || []);
    const out = ids.slice();
    for (let k = out.length - 1; out.length > IDS && k >= 0; k--) if (done.has(out[k])) out.splice(k, 1);
    store.done = (store.done || []).filter((x) => out.includes(x));
    return out;
  }
  // the finished games this browser keeps as GCG (the server deletes finished games first when it is full)
  function loadCopies() {
    try {
      const c = JSON.parse(localStorage.getItem(CKEY) || "{}");
      return c && typeof c === "object" && !Array.isArray(c) ? c : {};
    } catch (e) { return {}; }
  }
  // the copies that may go to make room, oldest first: those of games the server still had when last asked
  // (a copy of a game the server deleted is the only record of it: it goes only by hand, never to make room)
  function spareCopies(c, keep) {
    return Object.keys(c).filter((id) => c[id].server !== false && id !== keep).sort((a, b) => (c[a].kept || 0) - (c[b].kept || 0));
  }
  // what the server said of the copies' games: `known` it has, `unknown` it no longer has
  function markCopies(c, known, unknown) {
    let changed = false;
    for (const id of Object.keys(c)) {
      const on = known.has(id) ? true : unknown.has(id) ? false : c[id].server;
      if (on !== c[id].server) { c[id].server = on; changed = true; }
    }
    if (changed) try { localStorage.setItem(CKEY, JSON.stringify(c)); } catch (e) { /* the flags are set again next time */ }
  }
  // keeps at most COPIES (the newest); when storage is full, copies of games the server still has make room,
  // the new one last; answers false when it could not be kept (the server's copy stays the only one)
  function saveCopies(c, added) {
    const ids = Object.keys(c).sort((a, b) => (c[b].kept || 0) - (c[a].kept || 0));
    // beyond COPIES the oldest copies of games the server still has go; a copy of a deleted game goes only by hand
    const over = ids.length - COPIES;
    if (over > 0) for (const id of spareCopies(c, added).slice(0, over)) delete c[id];
    for (;;) {
      try { localStorage.setItem(CKEY, JSON.stringify(c)); return true; } catch (e) {
        const spare = spareCopies(c, added);
        if (!spare.length) { msg(T("s.copy.full"), true); return false; }
        delete c[spare[0]];
      }
    }
  }
  let copying = null;
  async function keepCopy(st) {
    if (!st || !st.over || copying === st.id || loadCopies()[st.id]) return;
    copying = st.id;
    try {
      const r = await fetch(`/api/play/gcg/${encodeURIComponent(st.id)}`, { headers: { "X-Lang": I18N.lang } });
      if (!r.ok) return;
      const gcg = await r.text();
      const c = loadCopies();
      c[st.id] = { gcg, names: st.names, scores: st.result ? st.result.scores : st.scores, level: st.level,
        created: st.created || null, kept: Date.now(), server: true };
      saveCopies(c, st.id);
    } catch (e) { /* offline: tried again when the game is shown next */ } finally { copying = null; }
  }
  function download(name, text) {
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" }));
    a.download = name;
    document.body.appendChild(a);
    a.click();
    setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
  }
  function savePuzzles() {
    try { localStorage.setItem(PKEY, JSON.stringify(puzzles)); } catch (e) { /* full or private mode */ }
  }

  // ---- the board ------------------------------------------------------------------------------
  function buildBoard(el, tap) {
    el.innerHTML = "";
    const sq = [];
    el.appendChild(Object.assign(document.createElement("div"), { className: "coord" }));
    for (let c = 0; c < N; c++) el.appendChild(Object.assign(document.createElement("div"), { className: "coord", textContent: COLS[c] }));
    for (let r = 0; r < N; r++) {
      el.appendChild(Object.assign(document.createElement("div"), { className: "coord", textContent: r + 1 }));
      sq.push([]);
      for (let c = 0; c < N; c++) {
        const d = document.createElement("div");
        d.dataset.square = squareName(r, c);
        d.setAttribute("role", "gridcell");
        if (tap) d.addEventListener("click", () => tap(r, c));
        el.appendChild(d);
        sq[r].push(d);
      }
    }
    return sq;
  }
  function tileHtml(letter, blank, extra) {
    const v = blank ? "" : `<sub>${values[letter] ?? ""}</sub>`;
    return `<div class="tile${blank ? " blank" : ""}${extra || ""}">${escapeHtml(letter)}${v}</div>`;
  }
  // draw rows (15 strings, "." empty, lowercase = blank) with extra tiles: {r*N+c: [LETTER, blank, class]}
  function paint(sq, rows, ghost, cursor) {
    for (let r = 0; r < N; r++) {
      for (let c = 0; c < N; c++) {
        const d = sq[r][c];
        const p = PREMIUM[rules.premiums[r][c]];
        const isStart = cursor && cursor.start && cursor.start.r === r && cursor.start.c === c;
        d.className = "sq" + (p ? " " + p[0] : "") + (isStart ? ` cursor ${cursor.dir}` : "");
        const ch = rows[r][c];
        const g = ghost[r * N + c];
        if (ch && ch !== ".") d.innerHTML = tileHtml(ch.toUpperCase(), ch !== ch.toUpperCase(), g && g[2] === " last" ? " last" : "");
        else if (g) d.innerHTML = tileHtml(g[0], g[1], g[2]);
        else d.textContent = p ? I18N.premium(rules.premiums[r][c]) : "";
      }
    }
  }
  function rackHtml(rack) {
    return Array.from(rack).map((ch) => (ch === "?" ? tileHtml("", true, "") : tileHtml(ch, false, ""))).join("");
  }

  // ---- the game: entry ------------------------------------------------------------------------
  function myTurn() { return state && !state.over && state.to_move === state.you && !busy; }
  function typedSquares() {
    if (!entry.start) return [];
    const out = [];
    Array.from(entry.word).forEach((ch, k) => {
      const r = entry.dir === "across" ? entry.start.r : entry.start.r + k;
      const c = entry.dir === "across" ? entry.start.c + k : entry.start.c;
      if (r < N && c < N) out.push([r, c, ch, entry.blanks.has(k), state.board[r][c] !== "."]);
    });
    return out;
  }
  function notation() {
    if (!entry.start || !entry.word) return "";
    const w = Array.from(entry.word).map((ch, k) => (entry.blanks.has(k) ? ch.toLowerCase() : ch)).join("");
    return `${startText(entry.start, entry.dir)} ${w}`;
  }
  function drawGame() {
    if (!state) return;
    const ghost = {};
    if (lastAnswer && lastAnswer.tiles) for (const [r, c] of lastAnswer.tiles) ghost[r * N + c] = ["", false, " last"];
    const ans = entry.answer && entry.answer.legal && entry.answerFor === notation() ? entry.answer : null;
    if (ans) for (const [r, c, ch, bl] of ans.tiles) ghost[r * N + c] = [ch, bl, " new"];
    else for (const [r, c, ch, bl, on] of typedSquares()) if (!on) ghost[r * N + c] = [ch, bl, entry.answer && !entry.answer.legal ? " illegal" : " typed"];
    paint(squares, state.board, ghost, myTurn() ? entry : null);
    $("#dir-across").classList.toggle("on", entry.dir === "across");
    $("#dir-down").classList.toggle("on", entry.dir === "down");
    $("#dir-across").setAttribute("aria-pressed", entry.dir === "across");
    $("#dir-down").setAttribute("aria-pressed", entry.dir === "down");
    $("#start-sq").textContent = entry.start ? T("p.pick.start", squareName(entry.start.r, entry.start.c),
      entry.dir === "across" ? "→" : "↓") : T("p.preview.start");
  }
  function tapSquare(r, c) {
    if (!myTurn()) return;
    if (entry.start && entry.word) {     // a typed letter on an empty square: toggle it as a blank
      const k = entry.dir === "across" ? (r === entry.start.r ? c - entry.start.c : -1) : (c === entry.start.c ? r - entry.start.r : -1);
      if (k >= 0 && k < entry.word.length && state.board[r][c] === ".") {
        if (entry.blanks.has(k)) entry.blanks.delete(k); else entry.blanks.add(k);
        typedChanged();
        return;
      }
    }
    if (entry.start && entry.start.r === r && entry.start.c === c) entry.dir = entry.dir === "across" ? "down" : "across";
    else entry.start = { r, c };
    typedChanged();
    $("#word").focus({ preventScroll: true });
  }
  function onWordInput() {
    const el = $("#word");
    const old = entry.word;
    const raw = el.value;
    const w = Array.from(raw.normalize("NFC").toUpperCase().replace(/ß/g, "SS")).filter((ch) => letters.has(ch)).join("");
    if (w !== raw) el.value = w;
    if (w.startsWith(old)) {
      if (entry.blankNext && w.length > old.length) { entry.blanks.add(old.length); entry.blankNext = false; }
    } else if (old.startsWith(w)) {
      for (const k of [...entry.blanks]) if (k >= w.length) entry.blanks.delete(k);
    } else entry.blanks.clear();
    entry.word = w;
    if (!entry.start) entry.start = { r: 7, c: 7 };
    typedChanged();
  }
  function typedChanged() {
    entry.answer = null;
    $("#play").disabled = true;
    drawGame();
    const text = notation();
    if (!text) { $("#preview").innerHTML = ""; return; }
    $("#preview").textContent = "…";
    clearTimeout(checkTimer);
    checkTimer = setTimeout(check, 150);
  }
  async function check() {
    const text = notation();
    if (!text || !state) return;
    const my = ++checkNo;
    // SDeV: the preview must not tell whether a word is valid (the computer challenges a phony once it is played)
    const ans = await call("POST", "/api/score", { cgp: state.cgp, move: text, words: state.rules !== "tournament" },
      20000);
    if (my !== checkNo || text !== notation()) return;
    if (ans.status === 429 || ans.status === 503) { clearTimeout(checkTimer); checkTimer = setTimeout(check, 1000); return; }
    if (ans.error && ans.status !== 400 && ans.status !== 422) {
      // no verdict on the move (the server does not answer, dropped the request or failed): shown, asked again
      $("#preview").innerHTML = `<span class="warn">${escapeHtml(ans.error)}</span>`;
      clearTimeout(checkTimer); checkTimer = setTimeout(check, 3000);
      return;
    }
    entry.answer = ans.error ? { legal: false, reason: ans.error } : ans;
    entry.answerFor = text;
    showPreview();
  }
  function showPreview() {
    const ans = entry.answer;
    const out = $("#preview");
    if (!ans.legal) {
      out.innerHTML = `<span class="bad">${escapeHtml(T("a.illegal", S(ans.reason)))}</span>`;
      $("#play").disabled = true;
      drawGame();
      return;
    }
    const tiles = ans.tiles.map(([, , ch, bl]) => (bl ? `<span class="blank-letter">${ch}</span>` : ch)).join(" ");
    const words = ans.words.map(([w, s]) => `${showWord(w)} ${s}`).join(" + ") +
      (ans.bingo ? ` + ${T("a.bingo", rules.bingo_bonus)}` : "");
    out.innerHTML = `<div>${T("p.preview.new", tiles)}</div><div class="words">${T("p.preview.words", words)}</div>` +
      `<div class="good">${escapeHtml(T("p.preview.total", ans.score))}</div>`;
    $("#play").disabled = !myTurn();
    drawGame();
    const btn = $("#play");
    const rect = btn.getBoundingClientRect();
    if (rect.bottom > window.innerHeight || rect.top < 0) btn.scrollIntoView({ block: "nearest" });
  }
  // why `tiles` (capitals, "?" blank) cannot be taken from `rack`, or "" when they can
  function notOnRack(tiles, rack) {
    const left = {};
    for (const ch of Array.from(rack)) left[ch] = (left[ch] || 0) + 1;
    const need = {};
    for (const ch of Array.from(tiles)) need[ch] = (need[ch] || 0) + 1;
    for (const ch of Object.keys(need)) {
      if ((left[ch] || 0) >= need[ch]) continue;
      const name = ch === "?" ? T("a.blank") : ch;
      return need[ch] === 1 || !left[ch] ? T("s.exchange.rack", name, rack) : T("s.exchange.times", name, need[ch], rack);
    }
    return "";
  }
  function clearEntry() {
    entry.start = null; entry.word = ""; entry.blanks.clear(); entry.blankNext = false; entry.answer = null;
    $("#word").value = "";
    $("#preview").innerHTML = "";
    $("#play").disabled = true;
  }

  // ---- the game: requests ------------------------------------------------------------------------
  async function send(move) {
    if (!myTurn()) return;
    busy = true;
    msg(T("s.thinking"));
    renderGame();
    const r = await callRetry("POST", "/api/play/move", { id: state.id, move, turn: state.turns.length });
    busy = false;
    if (r.error) {
      msg(r.error, true);
      renderGame();
      if (r.status === 409 && await refresh()) msg(`${r.error}. ${T("s.stale.now")}`, true);   // another tab moved
      else if (r.status === 400 && await refresh()) msg(`${r.error}. ${T("s.stale")}`, true);
      return;
    }
    state = r;
    lastAnswer = r.answer;
    clearEntry();
    let text = "";
    if (r.challenged && r.challenged.length) text = T("s.challenged", r.challenged.join(", "));
    msg(text, !!text);
    renderGame();
  }
  // the computer's last turn (a play, an exchange or a pass; not the settlement)
  function lastEngineTurn(st) {
    for (let i = st.turns.length - 1; i >= 0; i--) {
      const t = st.turns[i];
      if (t.p !== st.you && ["play", "withdrawn", "exchange", "pass"].includes(t.kind)) return t;
    }
    return null;
  }
  // the game again from the server (another tab may have moved): true when it changed here
  async function refresh() {
    if (!state || busy) return false;
    const id = state.id;
    const r = await call("POST", "/api/play/state", { id });
    if (r.error || !state || state.id !== id || busy) return false;
    if (r.turns.length <= state.turns.length && !(r.over && !state.over)) return false;   // nothing new (or older)
    state = r;
    lastAnswer = lastEngineTurn(r);
    clearEntry();
    renderGame();
    return true;
  }
  async function openGame(id) {
    busy = true;
    const r = await callRetry("POST", "/api/play/state", { id });
    busy = false;
    if (r.error) {
      // the id is kept (a server started on the wrong games folder says "unknown" too): the list offers to remove it
      if (r.status === 400 && store.current === id) { store.current = null; save(); }
      msg(r.error, true);
      showSetup();
      return;
    }
    state = r;
    lastAnswer = lastEngineTurn(r);
    store.current = id;
    if (!store.ids.includes(id) && !forgotten.has(id)) store.ids.push(id);   // report-attack26k T2: never lost while open
    if (r.over) markDone(id);
    save();
    clearEntry();
    review = null; reviewFor = null;
    $("#setup").hidden = true;
    $("#game").hidden = false;
    msg("");
    renderGame();
    renderHistory();
  }
  // a random game id (the server makes the game under it; the same request again answers that game)
  function newId() {
    const abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    return Array.from(crypto.getRandomValues(new Uint8Array(20)), (x) => abc[x & 63]).join("");
  }
  // start a game; `again`: the request of a start that a reload interrupted (kept in localStorage)
  async function startGame(again) {
    let req = again && again.id ? again : null;
    if (!req) {
      const level = document.querySelector("input[name=level]:checked").value;
      const rl = document.querySelector("input[name=rules]:checked").value;
      const name = $("#name").value.trim();
      store.level = level; store.rules = rl; store.name = name;
      req = { level, rules: rl, name: name || (I18N.lang === "en" ? "You" : "Du"), id: newId(), owner: ownerToken() };
    }
    if ($("#start").disabled) return;
    store.pending = req;   // kept before asking: a reload meanwhile asks again for the same game
    store.ids = trimIds([req.id, ...store.ids.filter((x) => x !== req.id)]);
    save();
    $("#start").disabled = true;
    const out = $("#setup-msg");
    out.className = "";
    out.textContent = T("s.starting");
    const slow = setTimeout(() => { out.textContent = T("s.starting.slow"); }, 2500);
    const r = await callRetry("POST", "/api/play/new", req, 900);
    clearTimeout(slow);
    $("#start").disabled = false;
    if (r.error) {
      out.className = "bad";
      out.textContent = r.error;
      if (r.status >= 400 && r.status < 500 && r.status !== 429) {   // refused: forget it; else keep it for a reload
        store.pending = null;
        forget(req.id);
        save();
      }
      return;
    }
    out.textContent = "";
    store.pending = null;
    save();
    await openGame(r.id);
  }
  function showSetup() {
    state = null;
    store.current = null;
    save();
    $("#game").hidden = true;
    $("#setup").hidden = false;
    $("#name").value = store.name || "";
    for (const el of document.querySelectorAll("input[name=level]")) el.checked = el.value === store.level;
    for (const el of document.querySelectorAll("input[name=rules]")) el.checked = el.value === store.rules;
    renderHistory();
  }

  // ---- the game: rendering -------------------------------------------------------------------------
  function levelName(level) { return T(`s.level.${level}`); }
  function entryText(t) {
    if (t.kind === "play") return `${showWord(t.move)}${t.bingo ? ' <span class="tag bingo">Bingo</span>' : ""}`;
    if (t.kind === "withdrawn") return `${showWord(t.move)} <span class="tag">${escapeHtml(T("s.withdrawn"))}</span>`;
    if (t.kind === "exchange") return escapeHtml(T("s.exchanged", t.count));
    if (t.kind === "pass") return escapeHtml(T("s.passed"));
    if (t.kind === "rack") return escapeHtml(T("s.settle.rack", t.player, t.tiles_left || "–", -t.score));
    if (t.kind === "out") return escapeHtml(T("s.settle.out", t.player, t.score));
    return escapeHtml(t.kind);
  }
  function renderGame() {
    if (!state) return;
    const names = state.names;
    $("#totals").innerHTML = names.map((n, i) => `<div class="tot${!state.over && state.to_move === i ? " current" : ""}">` +
      `<span class="name">${escapeHtml(n)}</span><span class="sum">${state.scores[i]}</span></div>`).join("") +
      `<span class="muted level">${escapeHtml(T("s.level.of", levelName(state.level), T(`s.rules.short.${state.rules}`)))}</span>`;
    $("#turn").textContent = state.over ? T("s.over") : (busy || state.to_move !== state.you ? T("s.thinking") : T("s.yourturn"));
    $("#rack-tiles").innerHTML = rackHtml(state.rack);
    $("#bag-count").textContent = T("s.bag.count", state.bag);
    $("#unseen").innerHTML = unseenHtml(state.unseen);
    let ans = "";
    if (lastAnswer) {
      const a = lastAnswer;
      if (a.kind === "play") ans = T("s.answer", `${showWord(a.move)} ${a.score}`) +
        (a.words ? ` <span class="muted">(${a.words.map(([w, s]) => `${showWord(w)} ${s}`).join(" + ")}` +
          `${a.bingo ? ` + ${escapeHtml(T("a.bingo", rules.bingo_bonus))}` : ""})</span>` : "");
      else if (a.kind === "exchange") ans = escapeHtml(T("s.answer.exchange", a.count));
      else if (a.kind === "pass") ans = escapeHtml(T("s.answer.pass"));
    }
    $("#answer").innerHTML = ans;
    $("#entry").hidden = state.over;
    $("#tracking").hidden = state.over;
    for (const id of ["#pass", "#exchange", "#word", "#exchange-tiles"]) $(id).disabled = !myTurn();
    $("#exchange").disabled = !myTurn() || !state.can_exchange;
    $("#exchange-tiles").disabled = !myTurn() || !state.can_exchange;
    const rows = [];
    let n = 0;
    for (const t of state.turns) {
      const turn = ["play", "withdrawn", "exchange", "pass"].includes(t.kind);
      if (turn) n++;
      rows.push(`<tr class="${turn ? "" : "adj"}${t.p === state.you ? " mine" : ""}"><td class="n">${turn ? n : ""}</td>` +
        `<td class="who">${escapeHtml(t.player)}</td><td class="what mv">${entryText(t)}</td>` +
        `<td class="n pts">${signed(t.score)} <span class="muted">${t.total < 0 ? signed(t.total) : t.total}</span></td></tr>`);
    }
    $("#rows tbody").innerHTML = rows.reverse().join("");
    $("#gcg").href = `/api/play/gcg/${encodeURIComponent(state.id)}`;
    $("#analyse").disabled = state.turns.length === 0;
    if (state.over) keepCopy(state);
    renderFinal();
    drawGame();
  }
  function unseenHtml(text) {
    const counts = {};
    for (const ch of Array.from(text)) counts[ch] = (counts[ch] || 0) + 1;
    return Object.keys(counts).map((ch) => `<span class="u">${ch === "?" ? "?" : escapeHtml(ch)}${counts[ch] > 1 ? `<sup>${counts[ch]}</sup>` : ""}</span>`).join(" ");
  }
  function renderFinal() {
    const box = $("#final");
    if (!state.over) { box.hidden = true; return; }
    const res = state.result;
    const s = res.scores;
    let head;
    if (res.draw) head = T("s.result.draw", s[0], s[1]);
    else { const w = res.winners[0]; head = T("s.result.won", state.names[w], s[w], s[1 - w]); }
    const lines = res.settlement.map((t) => `<li>${entryText(t)}</li>`).join("");
    box.innerHTML = `<h3 class="winner">${escapeHtml(head)}</h3>` +
      (res.end_reason === "passes" ? `<p>${escapeHtml(T("s.end.passes"))}</p>` : "") + `<ul>${lines}</ul>`;
    box.hidden = false;
  }
  async function renderHistory() {
    const ul = $("#games");
    const copies = loadCopies();
    if (!store.ids.length && !Object.keys(copies).length) { ul.innerHTML = `<li class="muted">${escapeHtml(T("s.games.none"))}</li>`; return; }
    // the server looks at 40 ids: the games not known to be over first (a paused game is never hidden)
    const over = new Set(store.done || []);
    const asked = store.ids.filter((x) => !over.has(x)).concat(store.ids.filter((x) => over.has(x))).slice(0, LISTED);
    const r = asked.length ? await call("POST", "/api/play/list", { ids: asked }) : { games: [], damaged: [] };
    if (r.error) { ul.innerHTML = `<li class="bad">${escapeHtml(r.error)}</li>`; return; }
    // the copies' games too, when their ids were not among those asked (report-attack26l F4: a copy's "the server
    // still has it" was never checked again, so a copy whose game the server deleted later could go to make room)
    const extra = Object.keys(copies).filter((id) => !asked.includes(id)).slice(0, LISTED);
    if (extra.length) {
      const r2 = await call("POST", "/api/play/list", { ids: extra });
      if (!r2.error) for (const k of ["games", "damaged", "unknown"]) r[k] = (r[k] || []).concat(r2[k] || []);
    }
    // no id is dropped here: an id the server does not know (or a damaged game) is listed with a button to remove it
    const known = new Set(r.games.concat(r.damaged || []).map((g) => g.id));
    const doneBefore = (store.done || []).length;
    for (const g of r.games) if (g.over) markDone(g.id);
    markCopies(copies, known, new Set(r.unknown || []));
    // saved only when a game was found over: an unconditional save here made two tabs with different current
    // games answer each other's storage event for ever (each save a new entry, each a list request)
    if ((store.done || []).length !== doneBefore) save();
    const when = (t) => new Date(t).toLocaleString(I18N.lang === "en" ? "en-GB" : "de-DE", { dateStyle: "short", timeStyle: "short" });
    const lines = r.games.map((g) => `<li><span class="when">${escapeHtml(when(g.created * 1000))}</span> ${escapeHtml(T("s.game.line", levelName(g.level), g.names[0], g.names[1],
        g.scores[0], g.scores[1], g.over ? "" : T("s.game.running")))} <button type="button" data-open="${escapeHtml(g.id)}">${escapeHtml(T("s.open"))}</button></li>`);
    // finished games the server no longer has (deleted to make room): this browser's copy, to download or review
    const short = (id) => escapeHtml(id.slice(0, 8));
    const forgetButton = (id) => `<button type="button" data-forget="${escapeHtml(id)}">${escapeHtml(T("s.forget"))}</button>`;
    for (const d of r.damaged || []) lines.push(`<li class="damaged">${escapeHtml(T("s.game.damaged", "\u0001", d.error)).replace("\u0001", short(d.id))} ${forgetButton(d.id)}</li>`);
    for (const id of r.unknown || []) {
      if (known.has(id) || copies[id]) continue;   // a finished game's copy is listed below
      lines.push(`<li class="unknown">${escapeHtml(T("s.game.unknown", "\u0001")).replace("\u0001", short(id))} ${forgetButton(id)}</li>`);
    }
    const gone = Object.keys(copies).filter((id) => !known.has(id)).sort((a, b) => (copies[b].kept || 0) - (copies[a].kept || 0));
    for (const id of gone) {
      const c = copies[id], nm = Array.isArray(c.names) ? c.names : ["?", "?"], sc = Array.isArray(c.scores) ? c.scores : ["?", "?"];
      lines.push(`<li class="copy"><span class="when">${escapeHtml(when(c.created ? c.created * 1000 : c.kept || 0))}</span> ` +
        `${escapeHtml(T("s.copy.line", levelName(c.level), nm[0], nm[1], sc[0], sc[1]))} ` +
        `<button type="button" data-copy-gcg="${escapeHtml(id)}">${escapeHtml(T("s.copy.gcg"))}</button> ` +
        `<button type="button" data-copy-review="${escapeHtml(id)}">${escapeHtml(T("s.copy.review"))}</button> ` +
        `<button type="button" data-copy-forget="${escapeHtml(id)}">${escapeHtml(T("s.copy.forget"))}</button></li>`);
    }
    ul.innerHTML = lines.length ? lines.join("") : `<li class="muted">${escapeHtml(T("s.games.none"))}</li>`;
    ul.querySelectorAll("button[data-open]").forEach((b) => b.addEventListener("click", () => { view("game"); openGame(b.dataset.open); }));
    ul.querySelectorAll("button[data-forget]").forEach((b) => b.addEventListener("click", () => {
      forget(b.dataset.forget);
      save();
      renderHistory();
    }));
    ul.querySelectorAll("button[data-copy-gcg]").forEach((b) => b.addEventListener("click", () => {
      const c = loadCopies()[b.dataset.copyGcg];
      if (c) download(`spiel-${b.dataset.copyGcg.slice(0, 8)}.gcg`, c.gcg);
    }));
    ul.querySelectorAll("button[data-copy-forget]").forEach((b) => b.addEventListener("click", () => {
      if (!window.confirm(T("s.copy.forget.ask"))) return;
      const c = loadCopies();
      delete c[b.dataset.copyForget];
      try { localStorage.setItem(CKEY, JSON.stringify(c)); } catch (e) { /* smaller than before: fits */ }
      renderHistory();
    }));
    ul.querySelectorAll("button[data-copy-review]").forEach((b) => b.addEventListener("click", () => {
      const c = loadCopies()[b.dataset.copyReview];
      if (c) analyseFile(c.gcg);
    }));
  }

  // ---- Partieanalyse -------------------------------------------------------------------------------------
  let rsquares = [], psquares = [];
  async function analyseGame() {
    if (!state) return;
    view("review");
    $("#review-msg").textContent = T("s.review.wait");
    $("#review-msg").className = "";
    $("#review-body").hidden = true;
    const r = await callRetry("POST", "/api/play/review", { id: state.id });
    if (r.error) { reviewError(r.error); return; }
    review = r; reviewFor = { game: state.id, player: state.names[state.you] };
    addPuzzles();
    showReview();
  }
  async function analyseFile(text) {
    view("review");
    $("#review-msg").textContent = T("s.review.wait");
    $("#review-msg").className = "";
    $("#review-body").hidden = true;
    const r = await callRetry("POST", "/api/review", { gcg: text });
    if (r.error) { reviewError(r.error); return; }
    review = r; reviewFor = null;
    showReview();
  }
  function reviewError(text) {
    const el = $("#review-msg");
    el.textContent = text;
    el.className = "bad";
  }
  function markTag(t) {
    return t.mark ? ` <span class="mark ${t.mark}">${escapeHtml(T(`s.mark.${t.mark}`))}</span>` : "";
  }
  // the review's reasons for a turn without a loss (engine/analysis/review.py NOTE_*), in the page's language
  const NOTES = { "rack unknown": "s.rv.unknown", "points by hand": "s.rv.note.hand", "board incomplete": "s.rv.note.board",
    "exchanged tiles unknown": "s.rv.note.exchange" };
  const noteText = (t) => (NOTES[t.note] ? T(NOTES[t.note]) : t.note);
  const playedText = (t) => (t.played === "by hand" ? escapeHtml(T("s.rv.hand")) : moveText(t.played));
  function lossText(t) {
    if (t.loss === null) return "";
    return t.unit === "win" ? `${num(t.loss)} %` : num(t.loss);
  }
  function showReview() {
    $("#review-msg").textContent = "";
    $("#review-msg").className = "";
    if (!review) { $("#review-msg").textContent = T("s.review.none"); return; }
    $("#review-body").hidden = false;
    const p = review.players;
    $("#review-players").innerHTML = `<tr><th>${T("s.rv.player")}</th><th class="n">${T("s.rv.turns")}</th><th class="n">${T("s.rv.avg")}</th>` +
      `<th class="n">${T("s.rv.bingos")}</th><th class="n">${T("s.rv.endgame")}</th></tr>` +
      Object.keys(p).map((k) => `<tr><td>${escapeHtml(k)}</td><td class="n">${p[k].turns}</td>` +
        `<td class="n">${p[k].average_loss === null ? "–" : num(p[k].average_loss)}</td><td class="n">${p[k].missed_bingos}</td>` +
        `<td class="n">${num(p[k].endgame_loss)}</td></tr>`).join("");
    $("#winplot").innerHTML = review.svg[I18N.lang === "en" ? "en" : "de"];
    $("#winplot").setAttribute("aria-label", T("s.review"));
    $("#review-turns").innerHTML = review.turns.map((t, i) => {
      let detail;
      if (t.loss === null) detail = `<span class="muted">${escapeHtml(noteText(t))}</span>`;
      else if (t.best === t.played || t.loss === 0) detail = `<span class="good">${escapeHtml(T("s.rv.same"))}</span>`;
      else detail = `${escapeHtml(T("s.rv.best"))}: <span class="mv">${moveText(t.best)}</span> · ${escapeHtml(T("s.rv.loss", lossText(t)))}`;
      const flags = (t.method === "endgame" ? ` <span class="tag">${escapeHtml(T(t.exact ? "s.rv.exact" : "s.rv.inexact"))}</span>` : "") +
        (t.bingo_missed ? ` <span class="tag bingo">${escapeHtml(T("s.rv.bingo"))}</span>` : "");
      return `<li><button type="button" class="rturn${t.mark ? " marked" : ""}" data-i="${i}"><b>${escapeHtml(t.player)}</b> ` +
        `<span class="mv">${playedText(t)}</span> ${t.score ? t.score : ""}${markTag(t)}<br><small>${detail}${flags}</small></button></li>`;
    }).join("");
    document.querySelectorAll("#review-turns .rturn").forEach((b) => b.addEventListener("click", () => showTurn(+b.dataset.i)));
    const first = review.turns.findIndex((t) => t.mark);
    showTurn(reviewTurn !== null && reviewTurn < review.turns.length ? reviewTurn : Math.max(first, 0));
  }
  function showTurn(i) {
    if (!review || !review.turns.length) return;
    reviewTurn = i;
    const t = review.turns[i];
    const ghost = {};
    for (const [r, c, ch, bl] of t.best_tiles || []) ghost[r * N + c] = [ch, bl, " best"];
    for (const [r, c, ch, bl] of t.played_tiles || []) ghost[r * N + c] = [ch, bl, ghost[r * N + c] ? " new best" : " new"];
    paint(rsquares, t.board, ghost, null);
    document.querySelectorAll("#review-turns .rturn").forEach((b) => b.classList.toggle("on", +b.dataset.i === i));
    $("#review-detail").innerHTML = `<b>${i + 1}. ${escapeHtml(t.player)}</b>` + (t.rack ? ` · ${escapeHtml(T("s.puzzle.rack", t.rack))}` : "") +
      `<br><span class="k played">${playedText(t)}</span> ${t.score}` +
      (t.best && t.best !== t.played ? ` · <span class="k best">${moveText(t.best)}</span> ${t.best_score ?? ""}` : "") +
      (t.loss ? ` · ${escapeHtml(T("s.rv.loss", lossText(t)))}${markTag(t)}` : "");
  }

  // ---- Aufgaben ------------------------------------------------------------------------------------------
  function addPuzzles() {
    if (!review || !reviewFor) return;
    for (const k of [...review.puzzles].reverse()) {  // the largest loss ends up first
      const t = review.turns[k];
      if (t.player !== reviewFor.player) continue;
      const key = `${reviewFor.game}:${k}`;
      if (puzzles.some((p) => p.key === key)) continue;
      puzzles.unshift({ key, game: reviewFor.game, turn: k, player: t.player, board: t.board, rack: t.rack, cgp: t.cgp,
        best: t.best, best_value: t.best_value, value: t.value, played: t.played, loss: t.loss, unit: t.unit, method: t.method,
        tries: 0, solved: false });
    }
    puzzles = puzzles.slice(0, 100);
    savePuzzles();
  }
  function puzzleLine(p) {
    if (p.played === "-") return T("s.puzzle.line.pass", p.turn + 1, num(p.loss));
    if (p.played && p.played.startsWith("-")) return T("s.puzzle.line.exchange", p.turn + 1, p.played.slice(1), num(p.loss));
    return T("s.puzzle.line", p.turn + 1, p.played, num(p.loss));
  }
  // an exchange ("-GQR") or a pass ("-") typed as a puzzle's answer: right when it is the best move's
  function checkPuzzleExchange(p, move) {
    const out = $("#puzzle-msg");
    const tiles = move.slice(1).replace(/\s+/g, "").toUpperCase().replace(/\*/g, "?");
    const problem = notOnRack(tiles, p.rack || "");
    if (problem) { out.className = "bad"; out.textContent = T("a.illegal", problem); return; }
    const sorted = (x) => Array.from(x).sort().join("");
    p.tries++;
    const good = p.best.startsWith("-") && sorted(p.best.slice(1)) === sorted(tiles);
    if (good) { p.solved = true; out.className = "good"; out.textContent = T("s.puzzle.right", moveLabel(p.best)); }
    else { out.className = "bad"; out.textContent = T("s.puzzle.wrong"); }
    paint(psquares, p.board, {}, null);
    savePuzzles();
    renderPuzzles();
  }
  function renderPuzzles() {
    const ul = $("#puzzle-list");
    if (!puzzles.length) { ul.innerHTML = `<li class="muted">${escapeHtml(T("s.puzzles.none"))}</li>`; $("#puzzle").hidden = true; return; }
    ul.innerHTML = puzzles.map((p, i) => `<li><button type="button" class="pz${puzzle === p ? " on" : ""}" data-i="${i}">` +
      `${escapeHtml(puzzleLine(p))}</button> ` +
      (p.solved ? `<span class="tag goal">${escapeHtml(T("s.puzzle.solved"))}</span> ` : "") +
      (p.tries ? `<span class="muted">${escapeHtml(p.tries === 1 ? T("s.puzzle.try") : T("s.puzzle.tries", p.tries))}</span>` : "") + `</li>`).join("");
    ul.querySelectorAll("button.pz").forEach((b) => b.addEventListener("click", () => openPuzzle(puzzles[+b.dataset.i])));
  }
  function openPuzzle(p) {
    puzzle = p;
    $("#puzzle").hidden = false;
    paint(psquares, p.board, {}, null);
    $("#puzzle-rack").innerHTML = `${escapeHtml(T("a.rack"))}: ${rackHtml(p.rack)}`;
    $("#puzzle-move").value = "";
    $("#puzzle-msg").textContent = "";
    renderPuzzles();
  }
  async function checkPuzzle() {
    const p = puzzle;
    let move = $("#puzzle-move").value.trim();
    if (!p || !move) return;
    if (move.startsWith("-")) { checkPuzzleExchange(p, move); return; }
    if (move === move.toLowerCase()) move = move.toUpperCase();   // typed all in lowercase: letters, not blanks
    const r = await callRetry("POST", "/api/score", { cgp: p.cgp, move });
    const out = $("#puzzle-msg");
    if (r.error || !r.legal) { out.className = "bad"; out.textContent = T("a.illegal", S(r.error || r.reason)); return; }
    p.tries++;
    let good;
    if (p.method === "static" && r.equity !== undefined) {
      good = r.equity >= p.best_value - 0.01;
      if (good) { out.className = "good"; out.textContent = T("s.puzzle.right", r.move); }
      else if (r.equity > p.value + 0.01) { out.className = "warn"; out.textContent = T("s.puzzle.better", num(p.best_value - r.equity)); }
      else { out.className = "bad"; out.textContent = T("s.puzzle.wrong"); }
    } else {
      good = r.move === p.best;
      out.className = good ? "good" : "bad";
      out.textContent = good ? T("s.puzzle.right", r.move) : T("s.puzzle.wrong");
    }
    if (good) p.solved = true;
    const ghost = {};
    for (const [rr, c, ch, bl] of r.tiles) ghost[rr * N + c] = [ch, bl, " new"];
    paint(psquares, p.board, ghost, null);
    savePuzzles();
    renderPuzzles();
  }
  function showSolution() {
    const p = puzzle;
    if (!p) return;
    $("#puzzle-msg").className = "";
    $("#puzzle-msg").textContent = T("s.puzzle.answer", moveLabel(p.best));
    if (p.best.startsWith("-")) { paint(psquares, p.board, {}, null); return; }
    call("POST", "/api/score", { cgp: p.cgp, move: p.best }).then((r) => {
      if (!r.legal) return;
      const ghost = {};
      for (const [rr, c, ch, bl] of r.tiles) ghost[rr * N + c] = [ch, bl, " best"];
      paint(psquares, p.board, ghost, null);
    });
  }

  // ---- views ------------------------------------------------------------------------------------------------
  function view(name) {
    for (const v of ["game", "review", "puzzles"]) {
      document.querySelectorAll(`.view-${v}`).forEach((el) => { el.classList.toggle("off", v !== name); });
      const b = document.querySelector(`.tabs button[data-view=${v}]`);
      b.classList.toggle("on", v === name);
      b.setAttribute("aria-pressed", v === name);
    }
    if (name === "review") { if (!review) $("#review-msg").textContent = T("s.review.none"); $("#review").hidden = false; }
    if (name === "puzzles") { $("#puzzles").hidden = false; renderPuzzles(); }
    if (location.hash !== `#${name}`) history.replaceState(null, "", name === "game" ? location.pathname : `#${name}`);
  }
  function relabel() {
    if (state) renderGame();
    if (state && entry.answer && entry.answerFor === notation()) showPreview();   // the move being typed stays
    if (review) showReview();
    renderPuzzles();
    renderHistory();
  }

  async function start() {
    I18N.apply();
    I18N.wireSwitch();
    rules = await call("GET", "/api/rules");
    if (rules.error) { document.body.insertAdjacentHTML("afterbegin", `<p class="bad">${escapeHtml(rules.error)}</p>`); return; }
    for (const l of rules.letters) { values[l.letter] = l.value; letters.add(l.letter); }
    squares = buildBoard($("#board"), tapSquare);
    rsquares = buildBoard($("#rboard"), null);
    psquares = buildBoard($("#pboard"), null);
    load();
    $("#start").addEventListener("click", startGame);
    $("#name").addEventListener("keydown", (e) => { if (e.key === "Enter") startGame(); });
    $("#new").addEventListener("click", () => { showSetup(); $("#setup").scrollIntoView(); });
    $("#word").addEventListener("input", onWordInput);
    $("#word").addEventListener("keydown", (e) => {
      if (e.key === "Enter") { e.preventDefault(); if (!$("#play").disabled) send(notation()); }
    });
    $("#dir-across").addEventListener("click", () => { entry.dir = "across"; typedChanged(); });
    $("#dir-down").addEventListener("click", () => { entry.dir = "down"; typedChanged(); });
    document.querySelectorAll("#letter-keys button").forEach((btn) => {
      btn.addEventListener("mousedown", (e) => e.preventDefault());
      btn.addEventListener("click", () => {
        const el = $("#word");
        if (btn.dataset.key === "?") { entry.blankNext = true; msg(T("a.next_blank")); el.focus(); return; }
        el.value = entry.word + btn.dataset.key;
        onWordInput();
        el.focus();
      });
    });
    $("#play").addEventListener("click", () => send(notation()));
    // a pass cannot be taken back: the first tap asks ("Wirklich passen?"), a second tap within 4 s passes
    let passArmed = null;
    const disarmPass = () => { clearTimeout(passArmed); passArmed = null; $("#pass").textContent = T("s.pass"); $("#pass").classList.remove("sure"); };
    $("#pass").addEventListener("click", () => {
      if (passArmed === null) {
        $("#pass").textContent = T("s.pass.sure");
        $("#pass").classList.add("sure");
        passArmed = setTimeout(disarmPass, 4000);
        return;
      }
      disarmPass();
      send("-");
    });
    $("#exchange").addEventListener("click", () => {
      const tiles = $("#exchange-tiles").value.trim().toUpperCase().replace(/\*/g, "?").replace(/\s+/g, "");
      if (!tiles) { msg(T("s.exchange.ph"), true); $("#exchange-tiles").focus(); return; }
      const problem = notOnRack(tiles, state.rack);
      if (problem) { msg(problem, true); $("#exchange-tiles").focus(); return; }
      $("#exchange-tiles").value = "";
      send(`-${tiles}`);
    });
    $("#analyse").addEventListener("click", analyseGame);
    $("#review-file").addEventListener("change", async (e) => {
      const f = e.target.files[0];
      if (f) {   // decoded as engine/game/gcg.py reads it (UTF-8, or ISO-8859-1 when the first line says so)
        let text;
        try { text = I18N.decodeGCG(new Uint8Array(await f.arrayBuffer())); } catch (err) {
          view("review");
          $("#review-body").hidden = true;
          reviewError(err.message);
          e.target.value = "";
          return;
        }
        analyseFile(text);
      }
      e.target.value = "";
    });
    $("#puzzle-check").addEventListener("click", checkPuzzle);
    $("#puzzle-move").addEventListener("keydown", (e) => { if (e.key === "Enter") checkPuzzle(); });
    $("#puzzle-show").addEventListener("click", showSolution);
    document.querySelectorAll(".tabs button").forEach((b) => b.addEventListener("click", () => {
      view(b.dataset.view);
      if (b.dataset.view === "review" && !review && state && state.over) analyseGame();
    }));
    I18N.onRelabel = relabel;
    view(["review", "puzzles"].includes(location.hash.slice(1)) ? location.hash.slice(1) : "game");
    const refreshSoon = () => { if (document.visibilityState === "visible" && state && !state.over) refresh(); };
    document.addEventListener("visibilitychange", refreshSoon);
    window.addEventListener("focus", refreshSoon);
    if (store.pending && store.pending.id) { view("game"); showSetup(); await startGame(store.pending); }
    else if (store.current) await openGame(store.current); else showSetup();
  }

  // for tests and the console (read only)
  window.SPIEL = { get state() { return state; }, get review() { return review; }, get puzzles() { return puzzles; },
    get copies() { return loadCopies(); },
    get busy() { return busy; }, message: S };
  // another tab saved: its list of games is this tab's too (its current game and entry stay)
  window.addEventListener("storage", (e) => {
    if (e.key !== KEY) return;
    try {
      const cur = JSON.parse(e.newValue || "null");
      if (!cur || !Array.isArray(cur.ids)) return;
      if (mergeEntry(cur)) save();   // an id the other tab had not seen yet: written back at once
      renderHistory();
    } catch (err) { /* a damaged entry: this tab's list stays */ }
  });
  document.addEventListener("DOMContentLoaded", start);
})();
