// German Scrabble engine – the score pad (Punkteblock) and Together · Team (docs/web.md).
// Plain JavaScript, no build step. Games live in this browser's localStorage only; the server is asked
// nothing but to check a move typed on the board (POST /api/pad) and for the tile set (GET /api/rules).
"use strict";

(() => {
  const N = 15;
  const COLS = "ABCDEFGHIJKLMNO";
  const KEY = "gse.punkte.v1";     // localStorage: {current, games: [...]}
  const KEEP = 20;                 // games kept ("die letzten 20 Partien")
  const GOALS = 20;                // Together: fulfilled goal cards that win
  const PREMIUM = { "3": ["tw"], "2": ["dw"], "t": ["tl"], "d": ["dl"], "*": ["star"] };  // labels: I18N.premium
  const T = I18N.t, S = I18N.server;
  const $ = (sel) => document.querySelector(sel);

  let rules = null;
  const values = {};               // letter -> points
  const letters = new Set();
  let store = { current: null, games: [] };
  let game = null;                 // the open game (an element of store.games)
  let squares = [];

  // the move being typed
  const entry = { start: null, dir: "across", word: "", blanks: new Set(), blankNext: false, answer: null,
    answerFor: "", illegal: null, editing: null };
  let checkNo = 0, checkTimer = null;

  // ---- helpers ---------------------------------------------------------------------------
  function escapeHtml(s) {
    return String(s).replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[ch]));
  }
  function showWord(text) { // blanks (lowercase) in red
    return Array.from(text).map((ch) => (ch !== ch.toUpperCase()
      ? `<span class="blank-letter" title="${T("blank.word")}">${escapeHtml(ch.toUpperCase())}</span>` : escapeHtml(ch))).join("");
  }
  async function call(method, url, body) {
    let r;
    try {
      r = await fetch(url, { method, headers: Object.assign({ "X-Lang": I18N.lang },
        body ? { "Content-Type": "application/json" } : {}),
        body: body ? JSON.stringify(body) : undefined });
    } catch (e) {
      return { error: S("the server is not reachable – please try again in a moment"), status: 0 };
    }
    let j = null;
    try { j = await r.json(); } catch (e) { j = null; }
    if (!r.ok) return { error: S((j && j.error) || `HTTP ${r.status}`), status: r.status };
    return j;
  }
  // one step per deliberate tap: a second click on the same button within TAP_MS (a double tap) is ignored
  const TAP_MS = 400;
  function oneTap(fn) {
    let last = -Infinity;
    return (e) => {
      const now = performance.now();
      if (now - last < TAP_MS) return;
      last = now;
      fn(e);
    };
  }
  function msg(text, bad) { const el = $("#msg"); el.textContent = text || ""; el.className = bad ? "bad" : ""; }
  function squareName(r, c) { return COLS[c] + (r + 1); }
  function startText(start, dir) { return dir === "across" ? `${start.r + 1}${COLS[start.c]}` : `${COLS[start.c]}${start.r + 1}`; }
  function rackValue(text) {
    let v = 0;
    for (const ch of Array.from(text.toUpperCase())) v += ch === "?" ? 0 : (values[ch] || 0);
    return v;
  }
  function fmtTime(ms) {
    const neg = ms < 0;
    const s = Math.ceil(Math.abs(ms) / 1000 - 1e-9);
    return `${neg ? "−" : ""}${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  }

  // ---- storage ------------------------------------------------------------------------------
  // the stored games (validated), or null: nothing stored or not readable
  function readStored(raw) {
    try {
      const s = JSON.parse(raw || "null");
      if (!s || !Array.isArray(s.games)) return null;
      // a damaged entry is dropped, not a broken page
      s.games = s.games.filter((g) => g && typeof g.id === "string" && Array.isArray(g.players) && g.players.length &&
        Array.isArray(g.turns) && g.turns.every((t) => t && Number.isInteger(t.p) && t.p >= 0 && t.p < g.players.length &&
          Number.isFinite(t.score) && (t.rack === undefined || typeof t.rack === "string") &&
          (t.kind !== "play" || (Array.isArray(t.tiles) && typeof t.move === "string"))));
      for (const g of s.games) {
        if (!g.clock || !Array.isArray(g.clock.used)) g.clock = freshClock("off", g.players.length);
        if (g.mode !== "together") g.mode = "classic";
      }
      return s;
    } catch (e) { return null; }
  }
  function rawStored() { try { return localStorage.getItem(KEY); } catch (e) { return null; } }
  // several tabs share the store (report-attack26h H1): `seen` is the stored text this tab last read or wrote;
  // a save writes only this tab's changes (its open game, games it deleted or added) into what is stored now
  let seen = null;
  const dropIds = new Set(), putGames = new Set();
  function load() {
    seen = rawStored();
    store = readStored(seen) || { current: null, games: [] };
    game = store.games.find((g) => g.id === store.current) || null;
  }
  // another tab saved: show what is stored now; this tab's open game stays open (unless it was deleted there)
  function reread() {
    const raw = rawStored();
    if (raw === seen) return;
    const keep = saveFailed ? game : null;    // rows this tab could not save are still shown, not replaced
    const id = game && game.id;
    seen = raw;
    store = readStored(raw) || { current: null, games: [] };
    const fresh = store.games.find((g) => g.id === id) || null;
    if (keep) store.games = store.games.map((g) => (g.id === id ? keep : g));
    const changed = !keep && game && (!fresh || JSON.stringify(fresh.turns) !== JSON.stringify(game.turns));
    game = keep || fresh;
    const wasEditing = changed && entry.editing !== null;
    if (wasEditing) clearEntry();                           // the row being edited may be another one now
    if (!game) { if (id) showSetup(); render(); return; }   // names typed into the setup stay
    render();
    if (changed && notation()) typedChanged();             // the typed move is checked again on the new board
    // said, not silent (report-attack26l): the edit was left, or what is typed here goes to whoever is to move now
    if (wasEditing) msg(T("p.tab.edit_left"), true);
    else if (changed && (notation() || $("#points").value.trim())) msg(T("p.tab.typed", game.players[nextPlayer()]), true);
  }
  // true when the store reached localStorage; false when the browser refused it (over its quota, storage
  // blocked): then a warning stays on the page until a save succeeds (the rows shown are not saved)
  function save(quiet) {
    const raw = rawStored();
    let clash = false;
    if (raw !== seen) {                        // another tab saved since this one read: merge by game id
      const disk = readStored(raw) || { current: null, games: [] };
      const base = readStored(seen) || { current: null, games: [] };
      const text = (list, id) => { const g = list.find((x) => x.id === id); return g ? JSON.stringify(g) : null; };
      // the same game changed there too: its stored rows win, this tab's last step is not saved (and says so)
      clash = !!game && text(disk.games, game.id) !== null && text(disk.games, game.id) !== text(base.games, game.id);
      const put = new Map([...putGames, ...(game && !clash ? [game] : [])].map((g) => [g.id, g]));
      const ids = new Set(disk.games.map((g) => g.id));
      store.games = disk.games.map((g) => put.get(g.id) || g);
      for (const g of put.values()) if (!ids.has(g.id)) store.games.push(g);
      store.games = store.games.filter((g) => !dropIds.has(g.id));
      if (clash) game = store.games.find((g) => g.id === game.id);
    }
    dropIds.clear();
    putGames.clear();
    if (game && !clash) game.updated = Date.now();
    store.current = game ? game.id : null;
    store.games.sort((a, b) => b.updated - a.updated);
    let ok = true;
    const text = JSON.stringify(store);
    try { localStorage.setItem(KEY, text); seen = text; } catch (e) { ok = false; }
    saveFailed = !ok;
    showSaveWarn();
    if (!ok && !quiet) msg(T("p.save.failed"), true);
    if (clash) { clearEntry(); msg(T("p.tab.clash"), true); }
    return ok && !clash;
  }
  // room for one more game within KEEP: the least recently changed games without rows go first, then finished
  // ones (settled, or Together won); an unfinished game with rows is never dropped (report-attack26f F6).
  // true when there is room; false: nothing was dropped, and the caller says so (p.full.new, p.full.import)
  function makeRoom() {
    const g0 = game;
    const fin = (g) => { game = g; const done = !!g.end || (g.mode === "together" && goals() >= GOALS); game = g0; return done; };
    const over = store.games.length + 1 - KEEP;
    if (over <= 0) return true;
    const byAge = store.games.slice().sort((a, b) => a.updated - b.updated);
    const drop = [...byAge.filter((g) => !g.turns.length && !g.end), ...byAge.filter((g) => g.turns.length && fin(g))];
    if (drop.length < over) return false;
    const gone = new Set(drop.slice(0, over));
    for (const g of gone) dropIds.add(g.id);
    store.games = store.games.filter((g) => !gone.has(g));
    if (gone.has(game)) game = null;
    return true;
  }
  let saveFailed = false;
  function showSaveWarn() {
    const el = $("#save-warn");
    el.hidden = !saveFailed;
    el.textContent = saveFailed ? T("p.save.failed") : "";
  }
  function newGame(mode, players) {
    const now = Date.now();
    return { id: `${now}-${Math.random().toString(36).slice(2, 8)}`, created: now, updated: now, mode, players,
      turns: [], end: null, clock: freshClock("off", players.length) };
  }

  // ---- the game's arithmetic ------------------------------------------------------------------
  const together = () => game && game.mode === "together";
  // the player after the last turn; a wrong challenge's penalty row ("(challenge)") is not a turn (engine/game/gcg.py)
  function nextPlayer() {
    for (let i = game.turns.length - 1; i >= 0; i--) {
      if (!game.turns[i].challenge) return (game.turns[i].p + 1) % game.players.length;
    }
    return 0;
  }
  // the board of the plays before row `upto` (default: all), without row `except` (the row being edited);
  // `turns`: the rows (default: the open game's; an import's own while it is read)
  function boardOf(except, upto, turns = game.turns) {
    const b = Array.from({ length: N }, () => Array(N).fill(""));
    turns.forEach((t, i) => {
      if (i === except || t.kind !== "play" || (upto !== undefined && i >= upto)) return;
      for (const [r, c, ch, bl] of t.tiles) b[r][c] = bl ? ch.toLowerCase() : ch;
    });
    return b;
  }
  function boardCGP(b) {
    return b.map((row) => {
      let out = "", empty = 0;
      for (const ch of row) {
        if (!ch) { empty++; continue; }
        if (empty) { out += empty; empty = 0; }
        out += ch;
      }
      return out + (empty ? empty : "");
    }).join("/") + " / 0/0 0";
  }
  // running totals: [{turn totals}], and the end-of-game adjustments
  function totals() {
    const tot = game.players.map(() => 0);
    for (const t of game.turns) tot[t.p] += t.score;
    if (game.end) for (const a of adjustments()) tot[a.p] += a.score;
    return tot;
  }
  // the end-of-game rows: "Reststeine" (each player's own tiles, lost), "Ausgespielt" (the player who went out
  // gains the others' tiles, SPEC "End of game"), time penalties (10 points per started minute over)
  function adjustments() {
    const out = [];
    const e = game.end;
    if (!e) return out;
    // a rest of letters worth 0 (a blank) is a row too: the export writes it, so the end survives (report-attack26e E4)
    e.rest.forEach((r, p) => { if (p !== e.out && (r.value || r.text)) out.push({ kind: "rest", p, score: -r.value, text: r.text }); });
    if (e.out !== null && e.out !== undefined) {
      const sum = e.rest.reduce((s, r, p) => s + (p === e.out ? 0 : r.value), 0);
      const tiles = e.rest.map((r, p) => (p === e.out ? "" : r.text)).join("");
      out.push({ kind: "out", p: e.out, score: sum, text: tiles });
    }
    (e.time || []).forEach((pen, p) => { if (pen) out.push({ kind: "time", p, score: -pen }); });
    return out;
  }
  function goals() { return game.turns.filter((t) => t.goal).length; }
  function hints() { return game.turns.filter((t) => t.hint).length; }

  // ---- board ------------------------------------------------------------------------------------
  function buildBoard() {
    const b = $("#board");
    b.innerHTML = "";
    squares = [];
    b.appendChild(Object.assign(document.createElement("div"), { className: "coord" }));
    for (let c = 0; c < N; c++) b.appendChild(Object.assign(document.createElement("div"), { className: "coord", textContent: COLS[c] }));
    for (let r = 0; r < N; r++) {
      b.appendChild(Object.assign(document.createElement("div"), { className: "coord", textContent: r + 1 }));
      squares.push([]);
      for (let c = 0; c < N; c++) {
        const d = document.createElement("div");
        d.dataset.square = squareName(r, c);
        d.setAttribute("role", "gridcell");
        d.addEventListener("click", () => tapSquare(r, c));
        b.appendChild(d);
        squares[r].push(d);
      }
    }
  }
  function tileHtml(letter, blank, extra) {
    const v = blank || together() ? "" : `<sub>${values[letter] ?? ""}</sub>`;
    return `<div class="tile${blank ? " blank" : ""}${extra || ""}">${escapeHtml(letter)}${v}</div>`;
  }
  // the squares the typed word covers, with its letters: [[r, c, LETTER, blank, onBoard]]
  function typedSquares(board) {
    if (!entry.start) return [];
    const out = [];
    Array.from(entry.word).forEach((ch, k) => {
      const r = entry.dir === "across" ? entry.start.r : entry.start.r + k;
      const c = entry.dir === "across" ? entry.start.c + k : entry.start.c;
      if (r < N && c < N) out.push([r, c, ch, entry.blanks.has(k), !!board[r][c]]);
    });
    return out;
  }
  function drawBoard() {
    const board = boardOf(entry.editing);
    const ans = entry.answer && entry.answer.legal && entry.answerFor === notation() ? entry.answer : null;
    const ghost = {};
    if (ans) for (const [r, c, ch, bl] of ans.tiles) ghost[r * N + c] = [ch, bl, " new"];
    else for (const [r, c, ch, bl, on] of typedSquares(board)) if (!on) ghost[r * N + c] = [ch, bl, entry.illegal ? " illegal" : " typed"];
    const plain = together();
    for (let r = 0; r < N; r++) {
      for (let c = 0; c < N; c++) {
        const d = squares[r][c];
        const p = plain ? null : PREMIUM[rules.premiums[r][c]];
        const isStart = entry.start && entry.start.r === r && entry.start.c === c;
        d.className = "sq" + (p ? " " + p[0] : "") + (plain && r === 7 && c === 7 ? " centre" : "") +
          (isStart ? ` cursor ${entry.dir}` : "");
        const ch = board[r][c];
        const g = ghost[r * N + c];
        if (ch) d.innerHTML = tileHtml(ch.toUpperCase(), ch !== ch.toUpperCase(), "");
        else if (g) d.innerHTML = tileHtml(g[0], g[1], g[2]);
        else d.textContent = p ? I18N.premium(rules.premiums[r][c]) : "";
      }
    }
    $("#dir-across").classList.toggle("on", entry.dir === "across");
    $("#dir-down").classList.toggle("on", entry.dir === "down");
    $("#dir-across").setAttribute("aria-pressed", entry.dir === "across");
    $("#dir-down").setAttribute("aria-pressed", entry.dir === "down");
    $("#start-sq").textContent = entry.start ? T("p.pick.start", squareName(entry.start.r, entry.start.c),
      entry.dir === "across" ? "→" : "↓") : T("p.preview.start");
  }
  function tapSquare(r, c) {
    if (game.end) return;
    const board = boardOf(entry.editing);
    if (entry.start && entry.word) {     // a typed letter on an empty square: toggle it as a blank
      const k = entry.dir === "across" ? (r === entry.start.r ? c - entry.start.c : -1) : (c === entry.start.c ? r - entry.start.r : -1);
      if (k >= 0 && k < entry.word.length && !board[r][c]) {
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
  // the board by keyboard: arrows move the start square, Space turns the direction, a letter goes to the word
  function onBoardKey(e) {
    if (!game || game.end || e.ctrlKey || e.metaKey || e.altKey) return;
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (moves[e.key]) {
      e.preventDefault();
      const st = entry.start || { r: 7, c: 7 };
      entry.start = { r: Math.min(N - 1, Math.max(0, st.r + (entry.start ? moves[e.key][0] : 0))),
        c: Math.min(N - 1, Math.max(0, st.c + (entry.start ? moves[e.key][1] : 0))) };
      typedChanged();
    } else if (e.key === " " || e.key === "Enter") {
      e.preventDefault();
      if (e.key === "Enter" && !$("#save").disabled) { saveMove(false); return; }
      if (!entry.start) entry.start = { r: 7, c: 7 }; else entry.dir = entry.dir === "across" ? "down" : "across";
      typedChanged();
    } else if (e.key.length === 1 && letters.has(e.key.toUpperCase())) {
      e.preventDefault();
      if (!entry.start) entry.start = { r: 7, c: 7 };
      const el = $("#word");
      el.value = entry.word + e.key.toUpperCase();
      el.focus();
      onWordInput();
    }
  }
  function notation() {
    if (!entry.start || !entry.word) return "";
    const w = Array.from(entry.word).map((ch, k) => (entry.blanks.has(k) ? ch.toLowerCase() : ch)).join("");
    return `${startText(entry.start, entry.dir)} ${w}`;
  }

  // ---- typing the word ----------------------------------------------------------------------------
  function cleanWord(text) {
    return Array.from(text.normalize("NFC").toUpperCase().replace(/ß/g, "SS")).filter((ch) => letters.has(ch)).join("");
  }
  function onWordInput() {
    const el = $("#word");
    const old = entry.word;
    const raw = el.value;
    const w = cleanWord(raw);
    if (w !== raw) { el.value = w; }
    if (w.startsWith(old)) {
      if (entry.blankNext && w.length > old.length) { entry.blanks.add(old.length); entry.blankNext = false; }
    } else if (old.startsWith(w)) {
      for (const k of [...entry.blanks]) if (k >= w.length) entry.blanks.delete(k);
    } else entry.blanks.clear();
    entry.word = w;
    if (raw.normalize("NFC").toUpperCase().includes("ß")) msg(T("a.eszett"));
    typedChanged();
  }
  function typedChanged() {
    entry.answer = null;
    entry.illegal = null;
    $("#save").disabled = true;
    $("#save-agreed").hidden = true;
    drawBoard();
    const text = notation();
    if (!text) { $("#preview").innerHTML = ""; rackCheck(); return; }
    $("#preview").innerHTML = "…";
    clearTimeout(checkTimer);
    checkTimer = setTimeout(check, 150);
  }
  async function check() {
    const text = notation();
    if (!text) return;
    const my = ++checkNo;
    // an edited row is checked on the board before it: a later row's tile was not there yet (report-attack26h H2b)
    const before = entry.editing !== null ? boardOf(entry.editing, entry.editing) : boardOf(null);
    const ans = await call("POST", "/api/pad", { cgp: boardCGP(before), move: text, together: together() });
    if (my !== checkNo || text !== notation()) return;
    if ((ans.status === 429 || ans.status === 503)) { clearTimeout(checkTimer); checkTimer = setTimeout(check, 1000); return; }
    entry.answer = ans;
    entry.answerFor = text;
    showAnswer();
    showSave();
  }
  // the preview of the checked move (entry.answer), in the page's language
  function showAnswer() {
    const ans = entry.answer;
    const out = $("#preview");
    if (ans.error) { out.innerHTML = `<span class="bad">${escapeHtml(ans.error)}</span>`; entry.illegal = true; drawBoard(); return; }
    if (!ans.legal) {
      entry.illegal = true;
      out.innerHTML = `<span class="bad">${escapeHtml(T("a.illegal", S(ans.reason)))}</span>`;
      drawBoard();
      return;
    }
    const tiles = ans.tiles.map(([, , ch, bl]) => (bl ? `<span class="blank-letter">${ch}</span>` : ch)).join(" ");
    const words = ans.words.map(([w, s]) => (together() ? showWord(w) : `${showWord(w)} ${s}`)).join(" + ") +
      (ans.bingo && !together() ? ` + ${T("a.bingo", rules.bingo_bonus)}` : "");
    let html = `<div>${T("p.preview.new", tiles)}</div><div class="words">${T("p.preview.words", words)}</div>`;
    if (!together()) html += `<div class="good">${escapeHtml(T("p.preview.total", ans.score))}</div>`;
    if (ans.unknown.length) html += `<div class="warn">${escapeHtml(T("p.preview.unknown", ans.unknown.join(", ")))}</div>`;
    const later = entry.editing !== null ? editProblem(entry.editing, { kind: "play", tiles: ans.tiles }) : null;
    if (later) html += `<div class="bad">${escapeHtml(later)}</div>`;
    out.innerHTML = html;
    const rackBad = rackCheck();
    $("#save").disabled = ans.unknown.length > 0 || wonTogether() || !!rackBad || !!later;
    $("#save-agreed").hidden = !ans.unknown.length;
    $("#save-agreed").disabled = wonTogether() || !!rackBad || !!later;
    drawBoard();
  }
  // on a phone the preview and "Zug speichern" lie below the board: bring them into view once the move is checked
  function showSave() {
    const btn = $("#save-agreed").hidden ? $("#save") : $("#save-agreed");
    const r = btn.getBoundingClientRect();
    if (r.bottom > window.innerHeight || r.top < 0) btn.scrollIntoView({ block: "nearest" });
  }

  // ---- saving entries ----------------------------------------------------------------------------------
  function clearEntry() {
    Object.assign(entry, { start: null, word: "", answer: null, answerFor: "", illegal: null, editing: null, blankNext: false });
    entry.blanks = new Set();
    $("#word").value = "";
    $("#points").value = "";
    $("#points").min = 0;
    $("#rack").value = "";
    showRackMsg("");
    $("#goal").checked = false;
    $("#hint").checked = false;
    $("#preview").innerHTML = "";
    $("#save").disabled = true;
    $("#save-agreed").hidden = true;
  }
  function commit(turn) {
    if (!together()) {                       // the rack typed for this move (optional): checked, kept with the row
      const r = readRack($("#rack").value);
      const bad = r.error || (r.rack ? rackProblem(r.rack, rowIndex(), turn, rowPlayer()) : null);
      if (bad) { showRackMsg(bad); $("#rack-msg").scrollIntoView({ block: "nearest" }); return; }
      if (r.rack) turn.rack = r.rack;
    }
    if (entry.editing !== null) {
      const old = game.turns[entry.editing];
      if (old.challenge) {                   // a wrong challenge's row stays one (it is no turn: report-attack26f F5)
        if (turn.kind !== "points") { msg(T("p.row.challenge.only"), true); return; }
        turn.challenge = true;
      }
      const later = editProblem(entry.editing, turn);
      if (later) { msg(later, true); return; }
      turn.p = old.p;
      turn.corrected = true;
      game.turns[entry.editing] = turn;
    } else {
      turn.p = nextPlayer();
      game.turns.push(turn);
      clockPassed();
    }
    clearEntry();
    msg("");
    save();
    render();
    $("#board-wrap").scrollIntoView({ block: "nearest" });   // on a phone: the board again, for the next move
  }
  function saveMove(agreed) {
    const ans = entry.answer;
    if (!ans || !ans.legal || entry.answerFor !== notation()) return;
    if (ans.unknown.length && !agreed) return;
    if (wonTogether()) return;
    const turn = { kind: "play", move: ans.move, tiles: ans.tiles, words: ans.words, score: together() ? 0 : ans.score,
      bingo: ans.bingo, agreed: ans.unknown.length > 0, unknown: ans.unknown };
    if (together()) { turn.goal = $("#goal").checked; turn.hint = $("#hint").checked; }
    commit(turn);
  }
  function savePoints() {
    const text = $("#points").value.trim();
    const v = text === "" ? 0 : Number(text);
    // a wrong challenge's row (edited) may be negative: its penalty (−5, −10)
    const low = entry.editing !== null && game.turns[entry.editing].challenge ? -999 : 0;
    if (!Number.isInteger(v) || v < low || v > 999) { msg(T("p.points.ph") + `: ${low ? "−999" : "0"}–999`, true); return; }
    commit({ kind: "points", score: v });
  }
  function wonTogether() { return together() && goals() >= GOALS; }

  // ---- the rack typed for a move (optional; for the review: GCG's rack column) -----------------------------
  // the typed text as a rack: letters of the set and "?" (or "*") for a blank; {rack: "" } when empty
  function readRack(text) {
    const s = text.normalize("NFC").toUpperCase().replace(/\*/g, "?").replace(/\s+/g, "");
    for (const ch of Array.from(s)) if (ch !== "?" && !letters.has(ch)) return { rack: "", error: T("p.rack.bad", ch) };
    const n = Array.from(s).length;
    if (n > rules.rack_size) return { rack: "", error: T("p.rack.long", n, rules.rack_size) };
    return { rack: s, error: null };
  }
  function countTiles(text) {
    const m = {};
    for (const ch of Array.from(text)) m[ch] = (m[ch] || 0) + 1;
    return m;
  }
  function setCounts() {
    const set = { "?": rules.blank.count };
    for (const l of rules.letters) set[l.letter] = l.count;
    return set;
  }
  // tiles on a board (boardOf) by letter, a blank as "?"
  function boardCounts(b) {
    const used = {};
    for (const row of b) for (const ch of row) {
      if (!ch) continue;
      const k = ch !== ch.toUpperCase() ? "?" : ch;
      used[k] = (used[k] || 0) + 1;
    }
    return used;
  }
  const tileName = (ch) => (ch === "?" ? T("p.blank") : ch);
  // the tiles a player surely still holds after row t (null: not known)
  function keptAfter(t) {
    if (!t.rack) return null;
    if (t.kind === "pass") return t.rack;
    if (t.kind !== "play") return null;                // an exchange of a number of tiles, points by hand
    const left = countTiles(t.rack);
    for (const [, , ch, bl] of t.tiles) { const k = bl ? "?" : ch; if (left[k]) left[k]--; }
    return Object.entries(left).map(([ch, k]) => ch.repeat(k)).join("");
  }
  // what is wrong with `rack` for row i (a new row: the number of rows) of player p, or null: more of a tile
  // than the set has off the board before it, a tile the move places that the rack lacks, more tiles exchanged
  // than it holds, or not the tiles the player kept at their last turn with a rack (engine/game/gcg.py checks
  // the same when it reads the export). `turns`, `names`: an import's rows and players (default: the open game's)
  function rackProblem(rack, i, turn, p, turns = game.turns, names = game.players) {
    const set = setCounts(), used = boardCounts(boardOf(null, i, turns)), mine = countTiles(rack);
    for (const [ch, k] of Object.entries(mine)) {
      const left = set[ch] - (used[ch] || 0);
      if (k > left) return T("p.rack.unseen", k, tileName(ch), set[ch], Math.max(0, left));
    }
    if (turn.kind === "play") {
      const need = countTiles(turn.tiles.map(([, , ch, bl]) => (bl ? "?" : ch)).join(""));
      for (const [ch, k] of Object.entries(need)) if (k > (mine[ch] || 0)) return T("p.rack.tiles", rack, tileName(ch));
    } else if (turn.kind === "exchange" && (turn.n || 7) > Array.from(rack).length) {
      return T("p.rack.exchange", turn.n || 7, Array.from(rack).length);
    } else if (turn.kind === "exchange" && turn.swapped) {     // the tiles named must be on the rack
      for (const [ch, k] of Object.entries(countTiles(turn.swapped))) if (k > (mine[ch] || 0)) return T("p.rack.tiles", rack, tileName(ch));
    }
    for (let j = i - 1; j >= 0; j--) {
      const t = turns[j];
      if (t.p !== p) continue;
      const kept = keptAfter(t);
      if (kept) for (const [ch, k] of Object.entries(countTiles(kept))) {
        if (k > (mine[ch] || 0)) return T("p.rack.kept", names[p], j + 1, kept);
      }
      break;
    }
    return null;
  }
  const rowIndex = () => (entry.editing !== null ? entry.editing : game.turns.length);
  const rowPlayer = () => (entry.editing !== null ? game.turns[entry.editing].p : nextPlayer());
  function showRackMsg(text) { $("#rack-msg").textContent = text || ""; }
  // the typed rack against the move being typed (when the checker has answered for it): the problem, shown, or null
  function rackCheck() {
    if (!game || together()) return null;
    const r = readRack($("#rack").value);
    let bad = r.error;
    if (!bad && r.rack) {
      const ans = entry.answer && entry.answer.legal && entry.answerFor === notation() ? entry.answer : null;
      bad = rackProblem(r.rack, rowIndex(), ans ? { kind: "play", tiles: ans.tiles } : { kind: "none" }, rowPlayer());
    }
    showRackMsg(bad);
    return bad;
  }
  function onRackInput() {
    const ans = entry.answer;
    if (ans && !ans.error && ans.legal && entry.answerFor === notation()) showAnswer();   // save follows the rack
    else rackCheck();
  }
  // "Abrechnung zurücknehmen" (or ↶ on a settled game): the rows of the end go, but time penalties that
  // the clock cannot give again (an import's "(time)" lines, a clock reset since) are kept for the next
  // "Abrechnen" (report-attack26j J2: they were lost)
  function unsettle() {
    const e = game.end;
    if (e && (e.time || []).some((x) => x)) game.keptTime = { time: e.time, lost: e.lost, timeParts: e.timeParts };
    game.end = null;
    save();
    render();
  }
  function undoLast() {
    if (game.end) { unsettle(); return; }
    if (!game.turns.length) { msg(T("a.nothing_to_undo")); return; }
    game.turns.pop();
    clearEntry();
    save();
    render();
  }
  function editRow(i) {
    const t = game.turns[i];
    clearEntry();
    entry.editing = i;
    if (t.kind === "play") {
      // the whole word from its notation: "8H HA(U)S" -> start 8H across, HAUS, blanks in lowercase
      const { r, c, across, w } = moveStart(t.move);
      entry.start = { r, c };
      entry.dir = across ? "across" : "down";
      const plain = w.replace(/[()]/g, "");
      entry.word = plain.toUpperCase();
      Array.from(plain).forEach((ch, k) => { if (ch !== ch.toUpperCase()) entry.blanks.add(k); });
      $("#word").value = entry.word;
      if (together()) { $("#goal").checked = !!t.goal; $("#hint").checked = !!t.hint; }
    } else if (t.kind === "points") $("#points").value = t.score;
    $("#points").min = t.challenge ? -999 : 0;
    $("#rack").value = t.rack || "";
    render();
    typedChanged();
    $("#entry").scrollIntoView({ block: "nearest" });
  }
  // a second tap confirms (no dialog on a phone): not sooner than CONFIRM_MS after the first, so a double tap is
  // one tap (report-attack26h H9), and within ARMED_MS; then the button shows its own label again
  const CONFIRM_MS = 300, ARMED_MS = 5000;
  function confirmed(btn, label) {
    const now = performance.now(), at = +btn.dataset.armedAt || 0;
    if (btn.dataset.armed === "1" && now - at < ARMED_MS) return now - at >= CONFIRM_MS;
    if (btn.dataset.armed !== "1") btn.dataset.label = btn.textContent;
    Object.assign(btn.dataset, { armed: "1", armedAt: String(now) });
    btn.textContent = label;
    btn.classList.add("armed");
    clearTimeout(btn.disarm);
    btn.disarm = setTimeout(() => { btn.dataset.armed = ""; btn.textContent = btn.dataset.label; btn.classList.remove("armed"); }, ARMED_MS);
    return false;
  }
  function removeRow(i, btn) {
    const middle = !game.turns[i].challenge && game.turns.slice(i + 1).some((x) => !x.challenge);
    if (!confirmed(btn, T(middle ? "p.row.to_pass" : "p.row.remove") + "?")) return;
    const t = game.turns[i];
    // a turn with later turns after it becomes a pass of the same player: every later row keeps its player and
    // the turns still go round (the export imports again; report-attack26f F4). A wrong challenge's row is no
    // turn, and the last turn simply goes.
    if (!middle) game.turns.splice(i, 1);
    else if (t.kind === "pass" && !t.withdrawn) { render(); msg(T("p.row.remove.pass", i + 1)); return; }
    else {
      const on = t.kind === "play" ? laterPlayOn(i) : -1;
      if (on >= 0) { render(); msg(T("p.row.remove.built", i + 1, on + 1), true); return; }
      game.turns[i] = { p: t.p, kind: "pass", score: 0, corrected: true };
      msg(T("p.row.removed.pass", i + 1, game.players[t.p]));
    }
    clearEntry();
    save();
    render();
  }
  // a stored play's notation ("8H HA(U)S"): its start square, direction and word as written
  function moveStart(move) {
    const [start, w] = move.split(" ");
    const across = /^\d/.test(start);
    const m = across ? /^(\d+)([A-O])$/.exec(start) : /^([A-O])(\d+)$/.exec(start);
    return { r: across ? +m[1] - 1 : +m[2] - 1, c: COLS.indexOf(across ? m[2] : m[1]), across, w };
  }
  // the squares of a stored play's word ("8H HA(U)S"), its own tiles and those it lies on: [[r, c]]
  function wordSquares(move) {
    const { across, w, r, c } = moveStart(move);
    return Array.from(w.replace(/[()]/g, "")).map((_ch, k) => (across ? [r, c + k] : [r + k, c]));
  }
  // the squares beside a stored play that its words depend on: across the play from each of its own tiles (a
  // tile there made a cross-word: the play hooked onto it) and just before and after its word
  function besideSquares(t) {
    const { across, w, r, c } = moveStart(t.move);
    const len = Array.from(w.replace(/[()]/g, "")).length;
    const out = across ? [[r, c - 1], [r, c + len]] : [[r - 1, c], [r + len, c]];
    for (const [tr, tc] of t.tiles) out.push(...(across ? [[tr - 1, tc], [tr + 1, tc]] : [[tr, tc - 1], [tr, tc + 1]]));
    return out.filter(([a, b]) => a >= 0 && a < N && b >= 0 && b < N);
  }
  // the first later play (after row i) that a change of row i would change: its word runs through a square in
  // `gone` (a tile taken away or changed) or it hooked onto one, or a tile in `added` lands beside it or where
  // it lays its own (report-attack26j J1: a play hooking onto row i's tile was left hanging). {j, sq, kind}
  // ("built", "hook", "later", "beside") or null
  function laterConflict(i, gone, added) {
    for (let j = i + 1; j < game.turns.length; j++) {
      const t = game.turns[j];
      if (t.kind !== "play") continue;
      const on = wordSquares(t.move).find(([r, c]) => gone.has(r * N + c));
      if (on) return { j, sq: on, kind: "built" };
      const beside = besideSquares(t);
      const hook = beside.find(([r, c]) => gone.has(r * N + c));
      if (hook) return { j, sq: hook, kind: "hook" };
      const over = t.tiles.find(([r, c]) => added.has(r * N + c));
      if (over) return { j, sq: [over[0], over[1]], kind: "later" };
      const next = beside.find(([r, c]) => added.has(r * N + c));
      if (next) return { j, sq: next, kind: "beside" };
    }
    return null;
  }
  // the first later play that lies on, or hooked onto, a tile of play row i (-1: none); such a row cannot go
  function laterPlayOn(i) {
    const x = laterConflict(i, new Set(game.turns[i].tiles.map(([r, c]) => r * N + c)), new Set());
    return x ? x.j : -1;
  }
  // why row i cannot become `turn` (✎), or null: every later play must still lie where it lies (report-attack26h
  // H2, H2b). A tile of row i that a later play's word runs through stays, with its letter and blank (as a pass,
  // points or a play elsewhere it would be gone: the export wrote "." and the import lost the letter), and no new
  // tile goes on a square where a later row lays its own
  function editProblem(i, turn) {
    const old = game.turns[i];
    const tile = (r, c, ch, bl) => [r * N + c, `${ch}${bl ? "?" : ""}`];
    const now = new Map(turn.kind === "play" ? turn.tiles.map((x) => tile(...x)) : []);
    const was = new Map(old.kind !== "play" ? [] : old.tiles.map((x) => tile(...x)));
    const gone = new Set([...was].filter(([k, v]) => now.get(k) !== v).map(([k]) => k));
    const added = new Set([...now].filter(([k, v]) => was.get(k) !== v).map(([k]) => k));
    const x = laterConflict(i, gone, added);
    return x ? T(`p.row.edit.${x.kind}`, i + 1, x.j + 1, squareName(...x.sq)) : null;
  }

  // ---- end of game -----------------------------------------------------------------------------------
  function renderEndInputs() {
    const box = $("#rest-inputs");
    const typed = {};        // what was typed before this render (a new move, a relabel): kept for the same game
    if (box.dataset.game === game.id) box.querySelectorAll("input").forEach((i) => { typed[i.dataset.p] = i.value; });
    box.dataset.game = game.id;
    box.innerHTML = "";
    game.players.forEach((name, p) => {
      const lab = document.createElement("label");
      lab.className = "rest";
      lab.innerHTML = `<span>${escapeHtml(name)}</span> <input data-p="${p}" autocomplete="off" autocapitalize="characters"
        spellcheck="false" maxlength="9" placeholder="${escapeHtml(T("p.rest"))}" aria-label="${escapeHtml(T("p.rest") + " " + name)}">
        <span class="rest-value muted"></span>`;
      box.appendChild(lab);
      const inp = lab.querySelector("input");
      if (game.end) inp.value = game.end.rest[p].text || (game.end.rest[p].value ? String(game.end.rest[p].value) : "");
      else if (typed[p] !== undefined) inp.value = typed[p];
      const shown = () => {
        const r = readRest(inp.value);
        lab.querySelector(".rest-value").textContent = r && inp.value.trim() ? `−${r.value}` : "";
      };
      shown();
      inp.addEventListener("input", () => { shown(); autoOut(); });
    });
    const sel = $("#out");
    const keep = sel.dataset.chosen === "1" && sel.dataset.game === game.id ? sel.value : null;
    sel.innerHTML = `<option value="ask">${escapeHtml(T("p.out.ask"))}</option>` +
      `<option value="">${escapeHtml(T("p.out.none"))}</option>` +
      game.players.map((n, p) => `<option value="${p}">${escapeHtml(n)}</option>`).join("");
    sel.dataset.game = game.id;
    if (game.end) { sel.value = game.end.out === null ? "" : String(game.end.out); sel.dataset.chosen = ""; }
    else if (keep !== null) sel.value = keep;       // a choice made by hand stays (a relabel, a new move)
    else { sel.dataset.chosen = ""; autoOut(); }
    $("#settle").dataset.armed = "";
    const kept = game.end ? null : keptTime();
    $("#end-kept").hidden = !kept;
    $("#end-kept").textContent = kept ? T("p.end.kept", kept.time.map((x, p) => (x ? `${game.players[p]} −${x}` : "")).filter(Boolean).join(", ")) : "";
  }
  // the time penalties of a settlement taken back (unsettle), when they fit this game's players; else null
  function keptTime() {
    const k = game.keptTime, n = game.players.length;
    const okList = (a, f) => Array.isArray(a) && a.length === n && a.every(f);
    if (!k || !okList(k.time, (x) => Number.isSafeInteger(x) && x >= 0 && x <= SCORE_MAX) || !k.time.some((x) => x)) return null;
    return { time: k.time, lost: okList(k.lost, (x) => typeof x === "boolean") ? k.lost : k.time.map((x) => x > LOST_OVER),
      timeParts: okList(k.timeParts, (a) => Array.isArray(a) && a.every((x) => Number.isSafeInteger(x) && x > 0)) ? k.timeParts : undefined };
  }
  // letters ("QE", blank "?") or a number of points; null when neither
  function readRest(text) {
    const s = text.trim().toUpperCase().replace(/\*/g, "?");
    if (s === "") return { text: "", value: 0 };
    if (/^\d{1,3}$/.test(s)) return { text: "", value: +s };
    if (Array.from(s).every((ch) => ch === "?" || letters.has(ch))) return { text: s, value: rackValue(s) };
    return null;
  }
  // who went out, while not chosen by hand: exactly one player without tiles went out, nobody when every player
  // has tiles left; otherwise (several without tiles, e.g. all fields still empty) the player must choose
  function autoOut() {
    const sel = $("#out");
    if (sel.dataset.chosen === "1") return;
    const empty = [...document.querySelectorAll("#rest-inputs input")].filter((i) => {
      const r = readRest(i.value);
      return r && !r.value && !r.text;
    });
    sel.value = empty.length === 1 ? empty[0].dataset.p : empty.length === 0 ? "" : "ask";
  }
  // the remaining tiles must be possible: at most a rack's worth each, and no more of a letter than the German
  // set minus the tiles on the board (a blank on the board counts as a blank) and minus the other entries
  function restProblem(rest) {
    const set = setCounts();
    const used = boardCounts(boardOf(null));
    const board = { ...used };
    for (let p = 0; p < rest.length; p++) {
      const tiles = Array.from(rest[p].text);
      if (tiles.length > rules.rack_size) return T("p.end.too_many", game.players[p], tiles.length, rules.rack_size);
      const mine = {};
      for (const ch of tiles) mine[ch] = (mine[ch] || 0) + 1;
      for (const [ch, n] of Object.entries(mine)) {
        const left = set[ch] - (used[ch] || 0);
        if (n > left) {
          const others = (used[ch] || 0) > (board[ch] || 0) ? T("p.end.no_tiles.others") : "";
          return T("p.end.no_tiles", game.players[p], n, ch === "?" ? T("p.blank") : ch, set[ch], Math.max(0, left), others);
        }
      }
      for (const [ch, n] of Object.entries(mine)) used[ch] = (used[ch] || 0) + n;
    }
    return null;
  }
  function settle() {
    const rest = [];
    for (const inp of document.querySelectorAll("#rest-inputs input")) {
      const r = readRest(inp.value);
      if (!r) { $("#end-msg").textContent = T("p.end.bad", game.players[+inp.dataset.p]); return; }
      rest.push(r);
    }
    const bad = restProblem(rest);
    if (bad) { $("#end-msg").textContent = bad; return; }
    const o = $("#out").value;
    if (o === "ask") { $("#end-msg").textContent = T("p.out.need"); return; }
    const out = o === "" ? null : +o;
    const btn = $("#settle");
    if (!game.turns.length && btn.dataset.armed !== "1") {   // nothing played yet: a second tap settles
      btn.dataset.armed = "1";
      $("#end-msg").textContent = T("p.end.empty");
      return;
    }
    btn.dataset.armed = "";
    if (out !== null && (rest[out].value || rest[out].text)) { $("#end-msg").textContent = T("p.end.out_rest", game.players[out]); return; }
    const pen = clockPenalties();
    const kept = keptTime();
    if (kept && !pen.some((x) => x.points)) {   // the clock gives none: the penalties of the settlement taken back
      game.end = { rest, out, time: kept.time, lost: kept.lost };
      if (kept.timeParts) game.end.timeParts = kept.timeParts;
    } else game.end = { rest, out, time: pen.map((x) => x.points), lost: pen.map((x) => x.lost) };
    delete game.keptTime;
    if (game.clock.running) clockPause();
    $("#end-msg").textContent = "";
    clearEntry();
    save();
    render();
  }

  // ---- clock (timestamps: it goes on counting while the tab is hidden) --------------------------------
  function freshClock(mode, n, amount) {
    const limit = { off: 0, p30: 1800, p25: 1500, game: (amount || 60) * 60, move: amount || 120 }[mode];
    const slots = mode === "game" ? 1 : n;
    return { mode, limit, amount: amount || null, used: Array(slots).fill(0), running: false, slot: 0, since: null,
      beeped: Array(slots).fill(false) };
  }
  const perPlayer = () => ["p30", "p25"].includes(game.clock.mode);
  function elapsed(k) {
    const c = game.clock;
    return c.used[k] + (c.running && c.slot === k ? Date.now() - c.since : 0);
  }
  function clockStart() {
    const c = game.clock;
    if (c.mode === "off" || c.running) return;
    audio();
    if (c.mode !== "game") c.slot = nextPlayer();
    c.running = true;
    c.since = Date.now();
    save();
    renderClock();
  }
  function clockPause() {
    const c = game.clock;
    if (!c.running) return;
    c.used[c.slot] += Date.now() - c.since;
    c.running = false;
    c.since = null;
    save();
    renderClock();
  }
  function clockSwitch(to) {
    const c = game.clock;
    if (c.mode === "off" || c.mode === "game") return;
    const now = Date.now();
    if (c.running) { c.used[c.slot] += now - c.since; c.since = now; }
    c.slot = to;
    if (c.mode === "move") { c.used[to] = 0; c.beeped[to] = false; }
  }
  function clockPassed() { clockSwitch(nextPlayer()); }
  function clockNext() { clockSwitch((game.clock.slot + 1) % game.players.length); save(); renderClock(); }
  // SPEC "Challenges and time": 10 points per started minute over, more than 5 minutes over loses (a penalty
  // over LOST_OVER points: how an import knows the game was lost on time)
  const LOST_OVER = 50;
  function clockPenalties() {
    return game.players.map((_n, p) => {
      if (!perPlayer()) return { points: 0, lost: false, over: 0 };
      const over = elapsed(p) - game.clock.limit * 1000;
      if (over <= 0) return { points: 0, lost: false, over: 0 };
      return { points: Math.ceil(over / 60000 - 1e-9) * 10, lost: over > 300000, over };
    });
  }
  let audioCtx = null;
  function audio() {
    try { audioCtx = audioCtx || new (window.AudioContext || window.webkitAudioContext)(); audioCtx.resume(); } catch (e) { audioCtx = null; }
  }
  function beep() {
    const faces = $("#tm-faces");
    faces.dataset.beeps = String(+(faces.dataset.beeps || 0) + 1);
    if (!audioCtx) return;
    const t0 = audioCtx.currentTime;
    for (let k = 0; k < 3; k++) {
      const o = audioCtx.createOscillator(), g = audioCtx.createGain();
      o.type = "square"; o.frequency.value = 880;
      g.gain.setValueAtTime(0.0001, t0 + k * 0.3);
      g.gain.exponentialRampToValueAtTime(0.3, t0 + k * 0.3 + 0.02);
      g.gain.exponentialRampToValueAtTime(0.0001, t0 + k * 0.3 + 0.2);
      o.connect(g).connect(audioCtx.destination);
      o.start(t0 + k * 0.3); o.stop(t0 + k * 0.3 + 0.22);
    }
  }
  function renderClock() {
    if (!game) return;
    const c = game.clock;
    $("#tm-mode").value = c.mode;
    const amount = c.mode === "game" || c.mode === "move";
    $("#tm-amount-wrap").hidden = !amount;
    if (amount) {
      $("#tm-unit").textContent = c.mode === "game" ? T("tm.minutes") : T("tm.seconds");
      if (document.activeElement !== $("#tm-amount")) $("#tm-amount").value = c.mode === "game" ? c.limit / 60 : c.limit;
    }
    const faces = $("#tm-faces");
    const badge = $("#clock-badge");
    if (c.mode === "off") { faces.innerHTML = ""; $("#tm-penalties").innerHTML = ""; if (badge) badge.textContent = ""; return; }
    const names = c.mode === "game" ? [T("tm.game")] : game.players;
    let html = "";
    names.forEach((name, k) => {
      const left = c.limit * 1000 - elapsed(k);
      if (left <= 0 && c.running && c.slot === k && !c.beeped[k]) { c.beeped[k] = true; beep(); save(); }
      html += `<div class="face${c.slot === k ? " active" : ""}${left <= 0 ? " over" : ""}" data-slot="${k}">` +
        `<span>${escapeHtml(name)}</span><b>${fmtTime(left)}</b></div>`;
    });
    faces.innerHTML = html;
    const left = c.limit * 1000 - elapsed(c.slot);
    if (badge) badge.textContent = `${c.running ? "⏱" : "⏸"} ${fmtTime(left)}`;
    const pens = clockPenalties();
    $("#tm-penalties").innerHTML = pens.map((x, p) => (x.lost ? `<div class="bad">${escapeHtml(T("tm.lost", game.players[p]))}</div>`
      : x.points ? `<div class="warn">${escapeHtml(T("tm.over", game.players[p], fmtTime(-x.over).replace("−", ""), x.points))}</div>` : "")).join("");
    $("#tm-start").disabled = c.running;
    $("#tm-pause").disabled = !c.running;
  }

  // ---- GCG (engine/game/gcg.py's dialect: racks unknown as "...", #agreed words, rows of points by hand as
  // "#note by hand: >nick: RACK +POINTS TOTAL", which other GCG readers keep as a note) ------------------------
  // control and invisible characters (NUL, tab, U+202E, zero-width space, lone surrogates): never in a GCG file,
  // refused in names as engine/game/game.py's name_fault refuses them
  const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cs}]/u, INVISIBLE_ALL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cs}]/gu;
  function invisibleChar(text, allow = "") {   // "U+202E" of the first such character, or null
    const ch = Array.from(text).find((c) => !allow.includes(c) && INVISIBLE.test(c));
    return ch === undefined ? null : "U+" + ch.codePointAt(0).toString(16).toUpperCase().padStart(4, "0");
  }
  function nicks() {
    const out = [];
    game.players.forEach((name, p) => {
      let n = name.replace(INVISIBLE_ALL, "").trim().replace(/[\s:#>()]+/g, "_") || `p${p + 1}`;
      while (out.includes(n)) n += p + 1;
      out.push(n);
    });
    return out;
  }
  // "8H HA(U)S" as GCG writes it: "8H HA.S" (a letter already on the board is a dot)
  // a play in GCG: a letter on the board already is "."; after a row by hand the pad's board may lack it
  // (that row's tiles are unknown), then it stays "(H)", which the import reads back (report-attack26j J6:
  // it became ".", and the letter was lost). `board`: the pad's board before this play (boardBefore).
  function gcgPlay(move, board) {
    const [start, w] = move.split(" ");
    const across = /^\d/.test(start);
    const mm = across ? /^(\d+)([A-O])$/.exec(start) : /^([A-O])(\d+)$/.exec(start);
    if (!board || !mm) return `${start} ${w.replace(/\(([^)]*)\)/g, (_m, inner) => ".".repeat(Array.from(inner).length))}`;
    let r = across ? +mm[1] - 1 : +mm[2] - 1, c = across ? COLS.indexOf(mm[2]) : COLS.indexOf(mm[1]);
    let out = "", inParens = false, open = false;
    for (const ch of Array.from(w)) {
      if (ch === "(") { inParens = true; continue; }
      if (ch === ")") { inParens = false; continue; }
      const known = inParens && ch !== "." && r < N && c < N && !(board[r] && board[r][c]);
      if (known && !open) { out += "("; open = true; }
      if (!known && open) { out += ")"; open = false; }
      out += inParens && !known ? "." : ch;
      if (across) c++; else r++;
    }
    return `${start} ${out}${open ? ")" : ""}`;
  }
  function gcgText() {
    // plain integers only (a score of 1e23 was written as "+1e+23", which no reader takes back)
    const rowsBad = game.turns.findIndex((t) => !Number.isSafeInteger(t.score) || Math.abs(t.score) > SCORE_MAX);
    if (rowsBad >= 0) return { error: T("p.export.number", rowsBad + 1, game.turns[rowsBad].score, SCORE_MAX) };
    if (game.end && !adjustments().every((a) => Number.isSafeInteger(a.score))) return { error: T("p.export.number", "–", "?", SCORE_MAX) };
    for (let i = 0; i < game.turns.length; i++) {       // a rack that an earlier row's correction made impossible
      const t = game.turns[i];
      const bad = t.rack ? rackProblem(t.rack, i, t, t.p) : null;
      if (bad) return { error: T("p.export.rack", i + 1, bad) };
    }
    const nk = nicks();
    const lines = ["#character-encoding UTF-8"];
    game.players.forEach((name, p) => lines.push(`#player${p + 1} ${nk[p]} ${name.replace(INVISIBLE_ALL, "").trim() || nk[p]}`));
    // the name engine/game/gcg.py resolves ("default" for the packaged list), not the list's source name
    if (rules.lexicon && rules.lexicon.gcg) lines.push(`#lexicon ${rules.lexicon.gcg}`);
    // an imported game's own rules (report-attack26e E5); a stored value that is no such name: home
    lines.push("#tile-distribution german", `#rules ${/^[a-z0-9_-]{1,30}$/i.test(game.rules || "") ? game.rules : "home"}`);
    const agreed = [...new Set(game.turns.flatMap((t) => (t.kind === "play" && t.agreed ? t.unknown : [])))];
    if (agreed.length) lines.push(`#agreed ${agreed.join(" ")}`);
    const tot = game.players.map(() => 0);
    game.turns.forEach((t, i) => {
      tot[t.p] += t.score;
      const head = `>${nk[t.p]}: ${t.rack || "..."}`;
      if (t.kind === "play") lines.push(`${head} ${gcgPlay(t.move, boardOf(undefined, i))} +${t.score} ${tot[t.p]}`);
      else if (t.kind === "pass" && typeof t.withdrawn === "string" && / \S/.test(t.withdrawn) &&
          Number.isSafeInteger(t.withdrawnScore) && t.withdrawnScore >= 0 && t.withdrawnScore <= SCORE_MAX) {
        // a play challenged off: the play and its "--" line, as GCG writes it (report-attack26e E5)
        lines.push(`${head} ${gcgPlay(t.withdrawn, boardOf(undefined, i))} +${t.withdrawnScore} ${tot[t.p] + t.withdrawnScore}`, `${head} -- -${t.withdrawnScore} ${tot[t.p]}`);
      } else if (t.kind === "pass") lines.push(`${head} - +0 ${tot[t.p]}`);
      else if (t.kind === "exchange") {     // the tiles named by an import, or the whole rack: the tiles are known
        const all = t.rack && Array.from(t.rack).length === (t.n || 7);
        const tiles = typeof t.swapped === "string" && Array.from(t.swapped).length === (t.n || 7) ? t.swapped : "";
        lines.push(`${head} -${tiles || (all ? t.rack : t.n || 7)} +0 ${tot[t.p]}`);
      } else if (t.kind === "points" && t.challenge) {   // a wrong challenge's penalty, as it was read (signed)
        lines.push(`>${nk[t.p]}: ${t.rack ? `${t.rack} ` : ""}(challenge) ${t.score < 0 ? "" : "+"}${t.score} ${tot[t.p]}`);
      } else if (t.kind === "points") lines.push(`#note by hand: ${head} +${t.score} ${tot[t.p]}`);
    });
    if (game.end) {
      const bad = passesRestProblem();
      if (bad) return { error: bad };
      const adj = adjustments();
      const needLetters = adj.filter((a) => (a.kind === "rest" || a.kind === "out") && a.score && !a.text);
      if (needLetters.length) return { error: T("p.export.no_rest", needLetters.map((a) => game.players[a.p]).join(", ")) };
      // every line even at 0 points ("-0" for a blank, "+0" for going out against a blank): the end is kept
      // (report-attack26e E4); when no line can hold it (nothing left anywhere), END_NOTE says it is over
      const before = lines.length;
      for (const a of adj) {
        tot[a.p] += a.score;
        if (a.kind === "rest") lines.push(`>${nk[a.p]}: ${a.text} (${a.text}) -${-a.score} ${tot[a.p]}`);
        else if (a.kind === "out") { if (a.text) lines.push(`>${nk[a.p]}: (${a.text}) +${a.score} ${tot[a.p]}`); }
        else {                  // an import's several time lines of one player: each again (report-attack26h H4)
          const parts = ((game.end.timeParts || [])[a.p] || []).filter((x) => Number.isSafeInteger(x) && x > 0);
          let run = tot[a.p] - a.score;
          for (const x of parts.length > 1 && parts.reduce((s, x) => s + x, 0) === -a.score ? parts : [-a.score]) {
            run -= x;
            lines.push(`>${nk[a.p]}: (time) -${x} ${run}`);
          }
        }
      }
      const outLine = game.end.out !== null && game.end.out !== undefined && adj.some((a) => a.kind === "out" && a.text);
      if (lines.length === before || (game.end.out !== null && game.end.out !== undefined && !outLine)) {
        lines.push(game.end.out !== null && game.end.out !== undefined ? `${END_NOTE}, out: ${nk[game.end.out]}` : END_NOTE);
      }
    }
    return { text: lines.join("\n") + "\n" };
  }
  // the end of a game settled with nothing to write (no remaining tiles, nobody's tiles to gain, no time
  // penalty): a note, which `python -m engine gcg` skips and the pad's import reads as the end
  const END_NOTE = "#note end of game";
  // a game ended by passes (every player passed twice in a row, nobody went out): a player's remaining tiles are
  // the rack of their last pass when it was typed (engine/game/gcg.py refuses the file otherwise)
  function passesRestProblem() {
    const n = game.players.length, tail = game.turns.slice(-2 * n);
    if (game.end.out !== null || tail.length < 2 * n || !tail.every((t) => t.kind === "pass")) return null;
    for (let p = 0; p < n; p++) {
      const i = game.turns.lastIndexOf(tail.filter((t) => t.p === p).pop());
      const t = game.turns[i], rest = game.end.rest[p];
      if (!t || !t.rack) continue;
      const same = (a, b) => Array.from(a).sort().join("") === Array.from(b).sort().join("");
      if (!same(rest.text || "", t.rack)) return T("p.export.pass_rest", game.players[p], rest.text || rest.value || "–", t.rack, i + 1);
    }
    return null;
  }
  function exportGCG() {
    const r = gcgText();
    const out = $("#gcg-out");
    if (r.error) { $("#io-msg").textContent = r.error; $("#io-msg").className = "bad"; out.hidden = true; return; }
    out.value = r.text;
    out.hidden = false;
    $("#io-msg").textContent = T("p.export.done");
    $("#io-msg").className = "";
    try {
      const a = document.createElement("a");
      a.href = URL.createObjectURL(new Blob([r.text], { type: "text/plain;charset=utf-8" }));
      const d = new Date(game.created);
      a.download = `punkteblock-${d.toISOString().slice(0, 10)}.gcg`;
      document.body.appendChild(a); a.click(); a.remove();
      setTimeout(() => URL.revokeObjectURL(a.href), 5000);
    } catch (e) { /* the text field has it */ }
  }
  // a GCG file as a new game: plays placed on the board as written (the file's scores kept)
  // a GCG rack field as the pad keeps it ("" for "..."), lowercase read as uppercase, as engine/game/gcg.py
  // reads it; anything that is not a rack (a "*" too, which the pad's field takes for a blank) is refused naming
  // line ln (report-attack26l)
  function rackField(text, ln) {
    if (!text || text === "...") return "";
    const r = text.includes("*") ? { error: T("p.rack.bad", "*") } : readRack(text);
    if (r.error) throw new Error(T("p.import.hand.rack", ln, r.error));
    return r.rack;
  }
  // a "#note by hand: >nick: RACK +POINTS TOTAL" line (ln: its number) as engine/game/gcg.py reads it, with
  // points 0..HAND_MAX in ASCII digits and TOTAL = the player's total so far (run) + POINTS; the rack "..." or
  // letters of the set and "?" (at most a rack, tiles off the board b). {p, score, total, rack}; throws
  // a message in the page's language naming the line
  const HAND_MAX = 9999;
  function handRow(s, ln, nk, run, b) {
    const bad = (key, ...a) => new Error(T(key, ln, ...a));
    const m = /^#note by hand:\s*>(\S+):\s*(\S+)\s+([+-]?[0-9]+)\s+([+-]?[0-9]+)$/.exec(s);
    if (!m) throw bad("p.import.hand", s.slice(0, 50));
    if (!nk.includes(m[1])) throw bad("p.import.hand.nick", m[1]);
    const p = nk.indexOf(m[1]);
    const digits = m[3].replace(/^[+-]/, "").replace(/^0+(?=.)/, "");
    const score = m[3].startsWith("-") && +digits ? -1 : digits.length > 4 ? HAND_MAX + 1 : +digits;
    if (score < 0 || score > HAND_MAX) throw bad("p.import.hand.points", m[3], HAND_MAX);
    const prev = run[p] || 0;
    if (m[4].replace(/^[+-]/, "").length > 9 || +m[4] !== prev + score) {
      throw bad("p.import.hand.total", m[4], m[1], prev, score, prev + score);
    }
    let rack = "";
    if (m[2] !== "...") {
      const tiles = [];
      for (const ch of Array.from(m[2])) {
        const up = ch === "?" ? "?" : ch.toUpperCase();
        if (up !== "?" && !(Array.from(up).length === 1 && letters.has(up))) throw bad("p.import.hand.rack", T("p.rack.bad", ch));
        tiles.push(up);
      }
      if (tiles.length > rules.rack_size) throw bad("p.import.hand.rack", T("p.rack.long", tiles.length, rules.rack_size));
      const set = setCounts(), used = boardCounts(b), have = countTiles(tiles.join(""));
      for (const [ch, k] of Object.entries(have)) {
        const free = (set[ch] || 0) - (used[ch] || 0);
        if (k > free) throw bad("p.import.hand.rack", T("p.import.hand.free", m[2], k, tileName(ch), free));
      }
      rack = tiles.join("");
    }
    return { p, score, total: +m[4], rack };
  }
  // limits of an import, checked before the file is read (a 200,000-pass file froze the page for a minute):
  // the file's size, the move lines (">nick:", "#note by hand:") of one game
  const IMPORT_BYTES = 1024 * 1024, IMPORT_TURNS = 2000, IMPORT_NAME = 30;
  const fmtMB = (bytes) => (bytes / 1024 / 1024).toFixed(1).replace(".", I18N.lang === "de" ? "," : ".");
  // a score of a move line: ASCII digits (the regex), at most SCORE_MAX either way: a real one has at most 4 digits
  // and engine/game/gcg.py re-scores the move, so a larger one is refused there too (10^400 was read as Infinity)
  const SCORE_MAX = 9999, TOTAL_DIGITS = 9;
  const cutNum = (text) => (text.length <= 12 ? text : text.slice(0, 12) + "…");
  const decodeGCG = I18N.decodeGCG;   // i18n.js: shared with /spielen
  function importGCG(text) {
    const players = [], nk = [], run = [];
    const g = newGame("classic", []);
    const b = Array.from({ length: N }, () => Array(N).fill(""));
    const rest = [], restLine = [], time = [], timeParts = [];
    let out = null, n = 0, lastTurn = null, ended = false, outLine = null, outTiles = "";
    let endLine = null;                       // the first line of the game's end (rest, out, time): no turn after it
    let incomplete = false;                   // a row by hand placed no tiles: the board lacks them from here on
    // lines end as Python's str.splitlines() ends them, which engine/game/gcg.py uses (a CR alone too)
    const lines = text.split(/\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/);
    const moveLines = lines.filter((l) => /^\s*(>|#note by hand:)/.test(l)).length;
    if (moveLines > IMPORT_TURNS) throw new Error(T("p.import.lines", moveLines, IMPORT_TURNS));
    const fail = (i, key, ...a) => new Error(T(key, i + 1, ...a));
    // the file's #rules, as engine/game/gcg.py holds a file to them: a name it knows (home without the line), a
    // number of players they allow; their challenge penalty (report-attack26l)
    let rulesAt = null, lastWords = 0;        // the #rules line; the words the last play formed (0: none since)
    const gameRules = () => {
      const name = g.rules || "home", known = rules.game_rules || {};
      if (!Object.prototype.hasOwnProperty.call(known, name)) {
        throw fail(rulesAt, "p.import.rules", name.slice(0, 30), Object.keys(known).join(", "));
      }
      return known[name];
    };
    // a row just read (the last of g.turns) against its rack as the export checks it (rackProblem); without a
    // rack: at most a rack's worth of tiles placed or exchanged, all of them still off the board (engine/game/gcg.py)
    const rowTiles = (i, what) => {
      const at = g.turns.length - 1, t = g.turns[at];
      if (t.kind === "exchange" && (t.n < 1 || (!t.rack && t.n > rules.rack_size))) {
        throw fail(i, "p.import.exchange", t.n, t.rack ? Array.from(t.rack).length : rules.rack_size);
      }
      if (t.rack) {
        const bad = rackProblem(t.rack, at, t, t.p, g.turns, players);
        if (bad) throw fail(i, "p.import.hand.rack", bad);
        return;
      }
      const need = t.kind === "play" ? t.tiles.map(([, , ch, bl]) => (bl ? "?" : ch)).join("") : t.swapped || "";
      const k = Array.from(need).length;
      if (k > rules.rack_size) throw fail(i, "p.import.hand.rack", T("p.rack.long", k, rules.rack_size));
      const set = setCounts(), used = boardCounts(boardOf(null, at, g.turns));
      for (const [ch, m] of Object.entries(countTiles(need))) {
        const free = set[ch] - (used[ch] || 0);
        if (m > free) throw fail(i, "p.import.unseen", what, m, tileName(ch), set[ch], Math.max(0, free));
      }
    };
    // the words a play of `tiles` (on b already) formed: its word along `across` and each cross-word of 2+ letters
    const wordsOf = (tiles, across) => {
      const run = (r, c, dr, dc) => {
        let k = 1;
        for (const s of [1, -1]) {
          for (let rr = r + s * dr, cc = c + s * dc; rr >= 0 && rr < N && cc >= 0 && cc < N && b[rr][cc]; rr += s * dr, cc += s * dc) k++;
        }
        return k;
      };
      if (!tiles.length) return 0;
      const [r0, c0] = tiles[0];
      return (run(r0, c0, across ? 0 : 1, across ? 1 : 0) > 1 ? 1 : 0) +
        tiles.filter(([r, c]) => run(r, c, across ? 1 : 0, across ? 0 : 1) > 1).length;
    };
    // the turns (plays, passes, exchanges, rows by hand) go round in the order of #player1..: engine/game/gcg.py
    const inTurn = (i, p) => {
      if (endLine !== null) throw fail(i, "p.import.after_end", endLine + 1);
      if (lastTurn !== null && p !== (lastTurn + 1) % nk.length) {
        throw fail(i, "p.import.turn", nk[p], nk[(lastTurn + 1) % nk.length]);
      }
      lastTurn = p;
    };
    // a word's letters: the German set only (HAU5, ß refused as engine/game/gcg.py refuses them)
    const letterOk = (i, ch, blank) => {     // blank: "?" allowed (remaining tiles)
      const up = ch === "?" ? "?" : ch.toUpperCase();
      if (up === "?" ? !blank : !(Array.from(up).length === 1 && letters.has(up))) {
        throw fail(i, ch === "ß" ? "p.import.eszett" : "p.import.letter", ch);
      }
      return up;
    };
    for (let i = 0; i < lines.length; i++) {
      const s = lines[i].trim();
      if (!s) continue;
      if (s.startsWith("#note by hand:")) {     // points by hand: imported exactly or refused (engine/game/gcg.py)
        const h = handRow(s, i + 1, nk, run, b);
        inTurn(i, h.p);
        incomplete = true;
        run[h.p] = h.total;
        const t = { p: h.p, kind: "points", score: h.score };
        if (h.rack) t.rack = h.rack;
        g.turns.push(t);
        rowTiles(i, "");
        lastWords = 0;
        n++;
        continue;
      }
      const endNote = s.startsWith(END_NOTE) ? /^#note end of game(?:, out: (\S+))?$/.exec(s) : null;
      if (endNote) {                            // the end of a game settled with nothing to write (gcgText)
        ended = true;
        if (endLine === null) endLine = i;
        if (endNote[1] !== undefined && !nk.includes(endNote[1])) throw fail(i, "p.import.hand.nick", endNote[1]);
        if (endNote[1] !== undefined) out = nk.indexOf(endNote[1]);
        continue;
      }
      if (s.startsWith("#")) {                  // a pragma, read as engine/game/gcg.py reads it (case-sensitive)
        if (n) {                                // after the first move only notes ("#note ..."); "#NOTE BY HAND:"
          if (s.startsWith("#note")) continue;  // is no note: refused, as `python -m engine gcg` refuses it
          throw new Error(T("p.import.pragma", i + 1, s.split(/\s/)[0]));
        }
        const bad = invisibleChar(s, "\t");
        if (bad) throw new Error(T("p.import.invisible", i + 1, s.split(/\s/)[0].slice(0, 20), bad));
        const sp = s.indexOf(" ");
        const name = sp < 0 ? s.slice(1) : s.slice(1, sp), value = sp < 0 ? "" : s.slice(sp + 1).trim();
        const pl = /^player([1-4])$/.exec(name);
        if (pl) {
          if (+pl[1] !== nk.length + 1) throw new Error(T("p.import.player.order", i + 1, pl[1], nk.length + 1));
          const q = value.indexOf(" ");
          const nick = q < 0 ? value : value.slice(0, q), full = q < 0 ? "" : value.slice(q + 1).trim();
          if (!nick) throw new Error(T("p.import.player.nick", i + 1, pl[1]));
          const tab = invisibleChar(nick + full);
          if (tab) throw new Error(T("p.import.invisible", i + 1, `#player${pl[1]}`, tab));
          if (/^[#>]/.test(nick)) throw new Error(T("p.import.player.start", i + 1, pl[1], nick));
          if (nk.includes(nick)) throw new Error(T("p.import.player.twice", i + 1, nick));
          // a name as long as a line widened the page (report-attack26h H7); setup allows 20 characters
          const shown = Array.from(full || nick);
          if (shown.length > IMPORT_NAME) {
            throw new Error(T("p.import.player.long", i + 1, pl[1], shown.slice(0, 20).join("") + "…", IMPORT_NAME));
          }
          nk.push(nick);
          players.push(full || nick);
        } else if (name === "rules") {          // exported again (E5); checked at the first move line and the end
          g.rules = value;
          rulesAt = i;
        }
        continue;                               // other pragmas: nothing the pad keeps
      }
      if (!n) gameRules();
      let m = /^>(\S+):\s*(.*)$/.exec(s);
      if (!m) throw fail(i, "p.import.line", s.slice(0, 40));
      if (!nk.includes(m[1])) throw fail(i, "p.import.hand.nick", m[1]);
      const p = nk.indexOf(m[1]);
      const body = m[2].trim();
      // every move line ends in its score and the player's running total (engine/game/gcg.py checks both)
      const nums = /(?:^|\s)([+-]?[0-9]+)\s+([+-]?[0-9]+)$/.exec(body);
      if (!nums) throw fail(i, "p.import.line", body.slice(0, 40));
      const digits = nums[1].replace(/^[+-]/, "").replace(/^0+(?=.)/, "");
      if (digits.length > 4) throw fail(i, "p.import.number", cutNum(nums[1]), SCORE_MAX);
      const score = nums[1].startsWith("-") && +digits ? -digits : +digits;
      const prev = run[p] || 0;
      if (nums[2].replace(/^[+-]/, "").replace(/^0+(?=.)/, "").length > TOTAL_DIGITS || +nums[2] !== prev + score) {
        throw fail(i, "p.import.total", cutNum(nums[2]), m[1], prev, (score < 0 ? "−" : "+") + Math.abs(score), prev + score);
      }
      run[p] = prev + score;
      const NUM = "([+-]?\\d+)";
      let k;
      if ((k = new RegExp(`^(\\S*)\\s*\\((time|challenge)\\)\\s+${NUM}\\s+${NUM}$`).exec(body))) {
        if (k[2] === "time") {                // several lines of one player: each kept, written back (H4)
          // −10 per started minute over, as engine/game/gcg.py checks (report-attack26j J5: "+10" came back "--10")
          if (score >= 0 || score % 10) throw fail(i, "p.import.time", nums[1]);
          (timeParts[p] = timeParts[p] || []).push(-score);
          time[p] = (time[p] || 0) - score;
          if (endLine === null) endLine = i;
        } else {
          if (endLine !== null) throw fail(i, "p.import.after_end", endLine + 1);
          // the rules' penalty (tournament: per word of the last play), as engine/game/gcg.py checks it
          const gr = gameRules(), pen = gr.challenge_penalty;
          const ok = gr.penalty_per_word ? Array.from({ length: lastWords }, (_x, w) => -pen * (w + 1)) : [-pen];
          if (!lastWords) throw fail(i, "p.import.challenge.none", nums[1]);
          if (!ok.includes(score)) {
            throw fail(i, "p.import.challenge", nums[1], g.rules || "home", ok.map((v) => `−${-v}`).join(T("p.import.or")));
          }
          const t = { p, kind: "points", score, challenge: true };      // exported as "(challenge)" again
          const rack = rackField(k[1], i + 1);
          if (rack) t.rack = rack;                                        // with its rack (report-attack26h H4)
          g.turns.push(t);
          rowTiles(i, "");
        }
      } else if ((k = new RegExp(`^\\((\\S+)\\)\\s+${NUM}\\s+${NUM}$`).exec(body))) {
        const tiles = Array.from(k[1]).map((ch) => letterOk(i, ch, true)).join("");
        if (rackValue(tiles) !== score) throw fail(i, "p.import.out.value", k[1], rackValue(tiles), nums[1]);
        if (out !== null) throw fail(i, "p.import.out.twice", outLine + 1);
        out = p;
        outLine = i;
        outTiles = tiles;
        if (endLine === null) endLine = i;
      } else if ((k = new RegExp(`^(\\S+)\\s+\\((\\S+)\\)\\s+${NUM}\\s+${NUM}$`).exec(body))) {
        // as engine/game/gcg.py: the tiles' value, once per player, the rack field (when given) the same tiles;
        // whether the set still has them is checked at the end (restProblem), as "Abrechnen" does (report-attack26l)
        if (rest[p]) throw fail(i, "p.import.rest.twice", players[p], restLine[p] + 1);
        const tiles = Array.from(k[2]).map((ch) => letterOk(i, ch, true)).join("");
        if (rackValue(tiles) !== -score) throw fail(i, "p.import.rest.value", k[2], rackValue(tiles), nums[1]);
        const sorted = (x) => Array.from(x).sort().join("");
        const rack = k[1] === "..." ? "..." : rackField(k[1], i + 1);   // "..." is no rack here (as the CLI)
        if (rack && sorted(rack) !== sorted(tiles)) throw fail(i, "p.import.rest.rack", k[1], k[2]);
        rest[p] = { text: tiles, value: -score };
        restLine[p] = i;
        if (endLine === null) endLine = i;
      } else if ((k = new RegExp(`^(\\S+)\\s+--\\s+${NUM}\\s+${NUM}$`).exec(body))) {
        const last = g.turns[g.turns.length - 1];
        if (!last || last.kind !== "play" || last.p !== p || last.withdrawn) throw fail(i, "p.import.withdraw");
        for (const [r, c] of last.tiles) b[r][c] = "";
        g.turns[g.turns.length - 1] = { p: last.p, kind: "pass", score: 0, withdrawn: last.move, withdrawnScore: last.score,
          rack: last.rack };
        lastWords = 0;
      } else if ((k = new RegExp(`^(\\S+)\\s+-\\s+${NUM}\\s+${NUM}$`).exec(body))) {
        inTurn(i, p);
        g.turns.push({ p, kind: "pass", score: 0, rack: rackField(k[1], i + 1) });
        rowTiles(i, "");
        lastWords = 0;
      } else if ((k = new RegExp(`^(\\S+)\\s+-(\\S+)\\s+${NUM}\\s+${NUM}$`).exec(body))) {
        inTurn(i, p);
        const t = { p, kind: "exchange", score: 0, n: /^\d+$/.test(k[2]) ? +k[2] : Array.from(k[2]).length,
          rack: rackField(k[1], i + 1) };
        // the tiles exchanged, when the file names them: kept and written back (report-attack26h H4: "-EEI" was "-3")
        if (!/^\d+$/.test(k[2])) t.swapped = Array.from(k[2]).map((ch) => letterOk(i, ch, true)).join("");
        g.turns.push(t);
        rowTiles(i, `-${k[2]}`);
        lastWords = 0;
      } else if ((k = new RegExp(`^(\\S+)\\s+([0-9A-Oa-o]{2,3})\\s+(\\S+)\\s+${NUM}\\s+${NUM}$`).exec(body))) {
        inTurn(i, p);
        const st = k[2].toUpperCase();
        const across = /^\d/.test(st);
        const mm = across ? /^(\d+)([A-O])$/.exec(st) : /^([A-O])(\d+)$/.exec(st);
        if (!mm) throw fail(i, "p.import.square", st);
        let r = across ? +mm[1] - 1 : +mm[2] - 1, c = across ? COLS.indexOf(mm[2]) : COLS.indexOf(mm[1]);
        if (r < 0 || r >= N) throw fail(i, "p.import.square", st);   // row 0 ("0H", "H0"): no square either
        const tiles = [];
        let written = "", inParens = false;
        for (const ch of Array.from(k[3].normalize("NFC"))) {
          if (ch === "(") { inParens = true; written += "("; continue; }
          if (ch === ")") { inParens = false; written += ")"; continue; }
          if (r >= N || c >= N) throw fail(i, "p.import.offboard", k[3]);
          if (ch !== ".") letterOk(i, ch);
          const sqName = across ? `${r + 1}${COLS[c]}` : `${COLS[c]}${r + 1}`;
          // a letter in brackets (or ".") lies on the board already; a letter outside them is laid on an empty
          // square, or is the letter that lies there (engine/game/gcg.py refuses the rest). After a row by hand
          // the pad's board lacks that row's tiles: a bracketed letter on an empty square is taken then
          if ((ch === "." || inParens) && !b[r][c] && !incomplete) throw fail(i, "p.import.through", k[3], sqName);
          if (ch !== "." && b[r][c] && b[r][c].toUpperCase() !== ch.toUpperCase()) {
            throw fail(i, "p.import.occupied", k[3], sqName, b[r][c].toUpperCase());
          }
          if (ch === "." || inParens || b[r][c]) {
            const on = b[r][c] || ch;
            written += inParens ? on : `(${on})`;
          } else {
            const up = ch.toUpperCase();
            tiles.push([r, c, up, ch !== up]);
            written += ch;
          }
          if (across) c++; else r++;
        }
        for (const [tr, tc, L, bl] of tiles) b[tr][tc] = bl ? L.toLowerCase() : L;
        g.turns.push({ p, kind: "play", move: `${st} ${written.replace(/\)\(/g, "")}`, tiles, words: [], score,
          rack: rackField(k[1], i + 1),
          bingo: tiles.length === 7, agreed: false, unknown: [] });
        rowTiles(i, k[3]);
        lastWords = wordsOf(tiles, across);
      } else throw fail(i, "p.import.line", body.slice(0, 40));
      n++;
    }
    if (players.length < 2) throw new Error(T("p.import.players"));
    const gr = gameRules();
    if (players.length < gr.min_players || players.length > gr.max_players) {
      throw fail(rulesAt, "p.import.rules.players", g.rules, gr.min_players, gr.max_players, players.length);
    }
    g.players = players;
    g.clock = freshClock("off", players.length);
    if (rest.length || out !== null || time.length || ended) {
      // lost on time: more than 5 minutes over, i.e. a penalty over 5 × 10 points (clockPenalties; E4)
      g.end = { rest: players.map((_x, p) => rest[p] || { text: "", value: 0 }), out,
        time: players.map((_x, p) => time[p] || 0), lost: players.map((_x, p) => (timeParts[p] || []).some((x) => x > LOST_OVER)) };
      if (timeParts.some((x) => x && x.length > 1)) g.end.timeParts = players.map((_x, p) => timeParts[p] || []);
      // going out: the bonus counts exactly the others' remaining tiles, and the player who went out has none
      // (engine/game/gcg.py; report-attack26l: "(QI)" against "EN", "(YY)" against "Y", a rest line of the player
      // who went out were taken and changed on export)
      if (out !== null) {
        const sorted = (x) => Array.from(x).sort().join("");
        if (rest[out]) throw new Error(T("p.import.out.rest", Math.max(outLine, restLine[out]) + 1, players[out]));
        const others = rest.map((r, q) => (q === out || !r ? "" : r.text)).join("");
        if (sorted(others) !== sorted(outTiles)) throw new Error(T("p.import.out.tiles", outLine + 1, outTiles, others || "–"));
      }
      const g0 = game;
      game = g;                                 // restProblem reads the game's board and players
      let bad;
      try { bad = restProblem(g.end.rest); } finally { game = g0; }
      if (bad) throw new Error(T("p.import.rest.tiles", Math.max(...restLine.filter((x) => x !== undefined)) + 1, bad));
      // a player without remaining tiles went out: the file says so (engine/game/gcg.py asks for that line)
      const lastRest = Math.max(-1, ...restLine.filter((x) => x !== undefined));
      const bare = players.findIndex((_x, q) => !rest[q] && q !== out);
      // report-attack26m F6: when one went out, every other player holds tiles: a missing line is theirs
      if (out !== null && bare >= 0) throw new Error(T("p.import.rest.missing", outLine + 1, players[out], players[bare]));
      if (lastRest >= 0 && bare >= 0) throw new Error(T("p.import.out.missing", lastRest + 1, players[bare]));
    }
    return { game: g, entries: n };
  }

  // ---- drawing the pad ----------------------------------------------------------------------------------
  function render() {
    showSaveWarn();
    const has = !!game;
    $("#game").hidden = !has;
    if (!has) { $("#setup").hidden = false; renderHistory(); return; }
    const tg = together();
    document.body.classList.toggle("together", tg);
    const tot = totals();
    const cur = nextPlayer();
    // totals bar: always visible (sticky)
    let bar = "";
    if (tg) {
      const gl = goals();
      bar = `<div class="goal-count${gl >= GOALS ? " won" : ""}">${escapeHtml(gl >= GOALS ? T("tg.won", gl) : T("tg.goals", gl, GOALS))}</div>` +
        `<div class="muted">${escapeHtml(game.players.join(", "))} · ${escapeHtml(T("tg.hints", hints()))}</div>`;
    } else {
      bar = game.players.map((name, p) => `<div class="tot${p === cur && !game.end ? " current" : ""}" data-p="${p}">` +
        `<span class="name">${escapeHtml(name)}</span><b class="sum">${tot[p]}</b></div>`).join("") +
        `<span id="clock-badge" class="muted"></span>`;
    }
    $("#totals").innerHTML = bar;
    $("#turn").textContent = game.end ? T("p.over") : tg ? "" : T("p.turn", game.players[cur]);
    const editing = entry.editing !== null;
    $("#edit-banner").hidden = !editing;
    $("#edit-cancel").hidden = !editing;
    if (editing) $("#edit-banner").textContent = T(game.turns[entry.editing].challenge ? "p.row.editing.challenge" : "p.row.editing", entry.editing + 1);
    $("#entry").hidden = !!game.end;
    $("#together-marks").hidden = !tg;
    $("#other-row").hidden = tg;
    $("#rack-row").hidden = tg;
    $("#end").hidden = tg;
    $("#clock").hidden = tg;
    $("#export").hidden = tg;
    $("label[for=import-file]").hidden = tg;
    $("#undo").textContent = game.end ? T("p.end.undo") : T("p.undo");
    renderRows(tot);
    if (!tg) renderEndInputs();
    $("#settle").hidden = !!game.end;
    $("#unsettle").hidden = !game.end;
    renderFinal(tot);
    renderClock();
    renderHistory();
    drawBoard();
  }
  function entryHtml(t) {
    const tags = [];
    if (t.agreed) tags.push(`<span class="tag agreed" title="${escapeHtml(t.unknown.join(", "))}">${escapeHtml(T("p.row.agreed"))}</span>`);
    if (t.corrected) tags.push(`<span class="tag">${escapeHtml(T("p.row.corrected"))}</span>`);
    if (t.bingo && !together()) tags.push(`<span class="tag bingo">Bingo</span>`);
    if (together() && t.kind === "play") {
      tags.push(t.goal ? `<span class="tag goal">✓ ${escapeHtml(T("tg.row.goal", t.goalNo))}</span>`
        : `<span class="tag nogoal">${escapeHtml(T("tg.row.nogoal"))}</span>`);
      if (t.hint) tags.push(`<span class="tag">${escapeHtml(T("tg.hint"))}</span>`);
    }
    let what;
    if (t.kind === "play") what = `<span class="mv">${showWord(t.move)}</span>`;
    else if (t.kind === "pass") what = escapeHtml(T("p.row.pass")) + (t.withdrawn ? ` (${escapeHtml(t.withdrawn)})` : "");
    else if (t.kind === "exchange") what = `${escapeHtml(T("p.row.exchange"))} ${t.n || ""}${t.swapped ? ` (${escapeHtml(t.swapped)})` : ""}`;
    else what = escapeHtml(T(t.challenge ? "p.row.challenge" : "p.row.points"));
    if (t.rack && !together()) what += ` <span class="rk">${escapeHtml(T("p.row.rack", t.rack))}</span>`;
    return what + " " + tags.join(" ");
  }
  function renderRows(tot) {
    const body = $("#rows tbody");
    body.innerHTML = "";
    const tg = together();
    let goalNo = 0;
    const run = game.players.map(() => 0);
    game.turns.forEach((t, i) => {
      if (t.goal) t.goalNo = ++goalNo;
      run[t.p] += t.score;
      const tr = document.createElement("tr");
      tr.className = "turn" + (entry.editing === i ? " editing" : "");
      tr.dataset.i = i;
      tr.innerHTML = `<td class="n">${i + 1}</td><td class="who">${tg ? "" : escapeHtml(game.players[t.p])}</td>` +
        `<td class="what">${entryHtml(t)}</td><td class="n pts">${tg ? "" : t.score}</td>` +
        `<td class="act"><button type="button" class="edit" aria-label="${escapeHtml(T("p.row.edit"))} ${i + 1}">✎</button>` +
        `<button type="button" class="remove" aria-label="${escapeHtml(T("p.row.remove"))} ${i + 1}">×</button></td>`;
      if (!game.end) {
        tr.querySelector(".edit").addEventListener("click", () => editRow(i));
        for (const cell of tr.querySelectorAll("td.n")) {     // the seeds: tap the number or the points to correct
          cell.classList.add("tap");
          cell.addEventListener("click", () => editRow(i));
        }
        tr.querySelector(".remove").addEventListener("click", (e) => removeRow(i, e.currentTarget));
      } else tr.querySelectorAll("button").forEach((b) => { b.disabled = true; });
      body.appendChild(tr);
    });
    if (!game.turns.length) body.innerHTML = `<tr><td colspan="5" class="muted">${escapeHtml(T("p.nothing"))}</td></tr>`;
    if (game.end) {
      for (const a of adjustments()) {
        const label = { rest: T("p.rest"), out: T("p.out"), time: T("tm.penalty") }[a.kind];
        const tr = document.createElement("tr");
        tr.className = "adj " + a.kind;
        tr.innerHTML = `<td></td><td class="who">${escapeHtml(game.players[a.p])}</td><td class="what">${escapeHtml(label)}` +
          `${a.text ? ` (${escapeHtml(a.text)})` : ""}</td><td class="n pts">${a.score > 0 ? "+" : ""}${a.score}</td><td></td>`;
        body.appendChild(tr);
      }
    }
    if (!tg) {
      const tr = document.createElement("tr");
      tr.className = "sum-row";
      tr.innerHTML = `<td></td><td colspan="4">${escapeHtml(T("p.sum"))}: ` +
        game.players.map((n, p) => `${escapeHtml(n)} <b>${tot[p]}</b>`).join(" · ") + "</td>";
      body.appendChild(tr);
    }
  }
  function renderFinal(tot) {
    const el = $("#final");
    if (!game.end || together()) { el.hidden = true; return; }
    const lost = game.end.lost || [];
    const order = game.players.map((n, p) => p).sort((a, b) => tot[b] - tot[a]);
    const eligible = order.filter((p) => !lost[p]);
    const best = eligible.length ? tot[eligible[0]] : null;
    const winners = eligible.filter((p) => tot[p] === best);
    const head = winners.length > 1 ? T("p.draw", winners.map((p) => game.players[p]).join(", "))
      : winners.length ? T("p.winner", game.players[winners[0]]) : "";
    el.innerHTML = `<h3>${escapeHtml(T("p.final"))}</h3><ol id="standings">` + order.map((p) =>
      `<li data-p="${p}"><span class="name">${escapeHtml(game.players[p])}</span> <b class="sum">${tot[p]}</b>` +
      `${lost[p] ? ` <span class="bad">${escapeHtml(T("tm.lost", game.players[p]))}</span>` : ""}</li>`).join("") +
      `</ol><p class="winner">${escapeHtml(head)}</p>`;
    el.hidden = false;
  }
  let deleted = null;                // the last game deleted from the list: {g, open}, for "Rückgängig"
  function summaryOf(g) {
    const saved = game;
    game = g;
    const tot = g.mode === "together" ? null : totals();
    const text = g.mode === "together" ? `${T("p.mode.together")}: ${T("tg.goals", goals(), GOALS)}`
      : g.players.map((n, p) => `${n} ${tot[p]}`).join(" · ");
    game = saved;
    return text;
  }
  function undoDelete() {
    const { g, open } = deleted;
    deleted = null;
    if (!store.games.some((x) => x.id === g.id)) {
      if (!makeRoom()) { render(); msg(T("p.full.new", KEEP), true); return; }
      store.games.push(g);
      putGames.add(g);
    }
    if (open) { game = g; $("#setup").hidden = true; }
    save();
    render();
  }
  function renderHistory() {
    const ul = $("#games");
    ul.innerHTML = "";
    if (deleted) {
      const li = document.createElement("li");
      li.className = "deleted";
      li.innerHTML = `<span class="muted">${escapeHtml(T("p.deleted", summaryOf(deleted.g)))}</span> ` +
        `<button type="button" class="undo-delete">${escapeHtml(T("p.delete.undo"))}</button>`;
      li.querySelector(".undo-delete").addEventListener("click", undoDelete);
      ul.appendChild(li);
    }
    if (!store.games.length) { ul.insertAdjacentHTML("beforeend", `<li class="muted">${escapeHtml(T("p.history.none"))}</li>`); return; }
    const loc = I18N.lang === "de" ? "de-DE" : "en-GB";
    for (const g of store.games) {
      const li = document.createElement("li");
      li.dataset.id = g.id;
      const d = new Date(g.created).toLocaleString(loc, { dateStyle: "short", timeStyle: "short" });
      li.innerHTML = `<span class="when">${escapeHtml(d)}</span> <span class="what">${escapeHtml(summaryOf(g))}</span> ` +
        (g === game ? `<span class="muted">${escapeHtml(T("p.current"))}</span>` :
          `<button type="button" class="open">${escapeHtml(T("p.open"))}</button>`) +
        ` <button type="button" class="delete" aria-label="${escapeHtml(T("p.delete"))}">${escapeHtml(T("p.delete"))}</button>`;
      const open = li.querySelector(".open");
      if (open) open.addEventListener("click", () => { game = g; clearEntry(); save(); $("#setup").hidden = true; render(); window.scrollTo(0, 0); });
      // a second tap deletes (report-attack26h H3), and "Rückgängig" brings the game back
      li.querySelector(".delete").addEventListener("click", (e) => {
        if (!confirmed(e.currentTarget, T("p.delete.confirm"))) return;
        deleted = { g, open: game === g };
        store.games = store.games.filter((x) => x !== g);
        dropIds.add(g.id);
        if (game === g) game = null;
        save();
        render();
      });
      ul.appendChild(li);
    }
  }

  // ---- the word checker at the top ------------------------------------------------------------------------
  let lookupNo = 0, lookupTimer = null;
  async function lookup() {
    const text = $("#lookup").value.trim();
    const out = $("#lookup-result");
    const my = ++lookupNo;
    if (!text) { out.textContent = ""; out.className = ""; return; }
    const ans = await call("POST", "/api/word", { word: text });
    if (my !== lookupNo) return;
    if ((ans.status === 429 || ans.status === 503)) { clearTimeout(lookupTimer); lookupTimer = setTimeout(lookup, 1000); return; }
    if (ans.error) { out.textContent = ans.error; out.className = "bad"; return; }
    out.textContent = ans.word === null ? T("w.bad", T("w.reason." + ans.reason)) : T(ans.valid ? "w.yes" : "w.no", ans.word);
    out.className = ans.valid ? "good" : "bad";
  }

  // ---- start ----------------------------------------------------------------------------------------------
  function showSetup() {
    $("#setup").hidden = false;
    const names = game ? game.players : [];
    for (let k = 1; k <= 4; k++) {
      const inp = $(`#name${k}`);
      inp.placeholder = T("p.player", k);
      inp.value = names[k - 1] || "";
    }
    if (game) document.querySelector(`input[name=mode][value=${game.mode}]`).checked = true;
    nameHint();
    $("#name1").focus();
  }
  // a name is cut at the field's maxlength (20): say so when one gets close, instead of cutting it silently
  function nameHint() {
    const out = [];
    for (let k = 1; k <= 4; k++) {
      const inp = $(`#name${k}`);
      const max = inp.maxLength, n = Array.from(inp.value).length;
      if (max > 0 && n >= max - 4) out.push(T("p.names.max", inp.value.trim() || T("p.player", k), n, max));
    }
    $("#name-hint").textContent = out.join(" · ");
  }
  function startGame() {
    const names = [1, 2, 3, 4].map((k) => $(`#name${k}`).value.trim()).filter((s) => s);
    const mode = document.querySelector("input[name=mode]:checked").value;
    if (mode === "classic" && names.length < 2) { $("#setup-msg").textContent = T("p.need2"); return; }
    if (new Set(names.map((s) => s.toLowerCase())).size !== names.length) { $("#setup-msg").textContent = T("p.names.unique"); return; }
    const hidden = names.map((s) => invisibleChar(s)).find((c) => c);
    if (hidden) { $("#setup-msg").textContent = T("p.names.invisible", hidden); return; }
    if (!makeRoom()) { $("#setup-msg").textContent = T("p.full.new", KEEP); return; }
    $("#setup-msg").textContent = "";
    game = newGame(mode, names.length ? names : [T("tg.team")]);
    store.games.unshift(game);
    clearEntry();
    msg("");
    save();
    $("#setup").hidden = true;
    $("#gcg-out").hidden = true;
    $("#io-msg").textContent = "";
    render();
  }
  // the language switched: every label again; the move being typed, its preview and the typed end entries stay
  function relabel() {
    for (let k = 1; k <= 4; k++) $(`#name${k}`).placeholder = T("p.player", k);
    nameHint();
    render();
    if (!game) return;
    if (entry.answer && entry.answerFor === notation()) showAnswer();
    else if (notation()) typedChanged();
    else rackCheck();
  }
  async function start() {
    I18N.apply();
    I18N.wireSwitch();
    rules = await call("GET", "/api/rules");
    if (rules.error) { document.body.insertAdjacentHTML("afterbegin", `<p class="bad">${escapeHtml(rules.error)}</p>`); return; }
    for (const l of rules.letters) { values[l.letter] = l.value; letters.add(l.letter); }
    buildBoard();
    load();
    for (let k = 1; k <= 4; k++) $(`#name${k}`).placeholder = T("p.player", k);
    $("#start").addEventListener("click", startGame);
    $("#lookup").addEventListener("input", () => { clearTimeout(lookupTimer); lookupTimer = setTimeout(lookup, 200); });
    for (let k = 1; k <= 4; k++) {
      $(`#name${k}`).addEventListener("keydown", (e) => { if (e.key === "Enter") startGame(); });
      $(`#name${k}`).addEventListener("input", nameHint);
    }
    $("#new").addEventListener("click", () => { showSetup(); $("#setup").scrollIntoView(); });
    $("#word").addEventListener("input", onWordInput);
    $("#rack").addEventListener("input", onRackInput);
    $("#rack").addEventListener("keydown", (e) => {
      if (e.key === "Enter") { e.preventDefault(); if (!$("#save").disabled) saveMove(false); }
    });
    $("#board").addEventListener("keydown", onBoardKey);
    $("#word").addEventListener("keydown", (e) => {
      if (e.key === "Enter") { e.preventDefault(); if (!$("#save").disabled) saveMove(false); }
    });
    // the direction buttons never take the focus from the word field (letters typed next would be lost)
    for (const id of ["#dir-across", "#dir-down"]) {
      $(id).addEventListener("pointerdown", (e) => { if (document.activeElement === $("#word")) e.preventDefault(); });
      $(id).addEventListener("mousedown", (e) => { if (document.activeElement === $("#word")) e.preventDefault(); });
    }
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
    $("#save").addEventListener("click", () => saveMove(false));     // disabled until the next move is checked
    $("#save-agreed").addEventListener("click", () => saveMove(true));
    $("#save-points").addEventListener("click", oneTap(savePoints));
    $("#points").addEventListener("keydown", (e) => { if (e.key === "Enter") savePoints(); });
    $("#pass").addEventListener("click", oneTap(() => commit({ kind: "pass", score: 0 })));
    $("#exchange").addEventListener("click", oneTap(() => commit({ kind: "exchange", score: 0, n: +$("#exchange-n").value })));
    $("#undo").addEventListener("click", oneTap(undoLast));
    $("#edit-cancel").addEventListener("click", () => { clearEntry(); render(); });
    $("#settle").addEventListener("click", oneTap(settle));
    $("#out").addEventListener("change", () => { $("#out").dataset.chosen = "1"; $("#end-msg").textContent = ""; });
    $("#unsettle").addEventListener("click", unsettle);
    $("#export").addEventListener("click", exportGCG);
    $("#import-file").addEventListener("change", async (e) => {
      const f = e.target.files[0];
      if (!f) return;
      e.target.value = "";
      const say = (text, bad) => { $("#io-msg").textContent = text; $("#io-msg").className = bad ? "bad" : ""; };
      if (f.size > IMPORT_BYTES) { say(T("p.import.bad", T("p.import.size", fmtMB(f.size), fmtMB(IMPORT_BYTES))), true); return; }
      let r;
      try { r = importGCG(decodeGCG(new Uint8Array(await f.arrayBuffer()))); } catch (err) { say(T("p.import.bad", err.message), true); return; }
      // kept only once it is saved: a game over the browser's quota is taken back, the saved state stays
      const before = { games: store.games.slice(), game };
      if (!makeRoom()) { say(T("p.full.import", KEEP), true); return; }
      game = r.game;
      store.games.unshift(game);
      if (!save(true)) {
        store.games = before.games;
        game = before.game;
        save(true);            // the state before the import (saved already; a failure stays shown)
        render();
        say(T("p.import.quota"), true);
        return;
      }
      clearEntry();
      msg("");                 // a message about the game shown before
      render();
      say(T("p.import.done", r.entries), false);
    });
    $("#tm-mode").addEventListener("change", () => {
      const mode = $("#tm-mode").value;
      game.clock = freshClock(mode, game.players.length);
      save(); renderClock();
    });
    $("#tm-amount").addEventListener("change", () => {
      const v = Math.max(1, Math.min(999, Math.round(+$("#tm-amount").value || 1)));
      game.clock = freshClock(game.clock.mode, game.players.length, v);
      save(); renderClock();
    });
    $("#tm-start").addEventListener("click", clockStart);
    $("#tm-pause").addEventListener("click", clockPause);
    $("#tm-next").addEventListener("click", clockNext);
    $("#tm-reset").addEventListener("click", () => {
      game.clock = freshClock(game.clock.mode, game.players.length, game.clock.amount);
      save(); renderClock();
    });
    // another tab of this browser saved (report-attack26h H1): show its rows before this tab takes input
    window.addEventListener("storage", (e) => { if (e.key === KEY || e.key === null) reread(); });
    window.addEventListener("focus", reread);
    setInterval(() => { if (game && game.clock.mode !== "off") renderClock(); }, 250);
    document.addEventListener("visibilitychange", () => { if (!document.hidden) renderClock(); });
    I18N.onRelabel = relabel;          // from now on the language switches without a reload
    if (!game) showSetup();
    render();
  }

  // for tests and the console: the pad's data (read only)
  window.PAD = { get game() { return game; }, get store() { return store; }, totals: () => (game ? totals() : null), gcgText: () => gcgText(),
    nextPlayer: () => (game ? nextPlayer() : null) };
  document.addEventListener("DOMContentLoaded", start);
})();
