// German Scrabble engine – board editor and analysis page (docs/web.md).
// Plain JavaScript, no build step. Talks to the JSON API of engine/web/app.py.
"use strict";

(() => {
  const N = 15;
  const COLS = "ABCDEFGHIJKLMNO";
  const MAX_ROWS = 300;            // rows drawn in the move table (the rest: filter to narrow)
  const PAGE = 100;                // moves asked for at first; "more" asks for the next ones
  const T = I18N.t, S = I18N.server;
  const SENTINEL = "#";            // kept in the hidden board input so that Backspace on a phone has something to delete
  const PREMIUM = { "3": ["tw"], "2": ["dw"], "t": ["tl"], "d": ["dl"], "*": ["star"] };  // labels: I18N.premium

  let rules = null;                // GET /api/rules
  let values = {};                 // letter -> points
  let letters = new Set();         // tile letters (uppercase)
  const $ = (sel) => document.querySelector(sel);

  // ---- the position being edited -------------------------------------------------
  const emptyBoard = () => Array.from({ length: N }, () => Array(N).fill(""));
  const state = {
    board: emptyBoard(),   // "" empty, "A" tile, "a" blank played as A
    rack: "",              // "?" = blank
    opp: "",               // opponent rack from a loaded CGP (kept as is)
    tail: "0/0 0",         // scores and scoreless turns of a loaded CGP
    opcodes: "",           // opcodes of a loaded CGP (the bag opcode is dropped once tiles change)
    cursor: null,          // {r, c, dir: "across"|"down"}
  };
  const history = [];      // snapshots for undo
  let pendingBlank = false;

  // ---- analysis ----------------------------------------------------------------------
  let analysis = { moves: [], count: 0 };
  const view = { key: "rank", dir: 1, selected: null, hover: null, check: null, illegal: null };
  let requestNo = 0;
  let checkNo = 0;
  let timer = null;
  let checkTimer = null;
  let deepNo = 0;          // the deeper analysis answer being waited for (POST /api/deep)

  // ---- helpers -------------------------------------------------------------------------
  async function call(method, url, body) {
    let r;
    try {
      r = await fetch(url, {
        method, headers: Object.assign({ "X-Lang": I18N.lang }, body ? { "Content-Type": "application/json" } : {}),
        body: body ? JSON.stringify(body) : undefined,
      });
    } catch (e) {
      return { error: S("the server is not reachable – please try again in a moment"), status: 0 };
    }
    let j = null;
    try { j = await r.json(); } catch (e) { j = null; }
    if (!r.ok) return { error: S((j && j.error) || `HTTP ${r.status}`), status: r.status };
    return j;
  }
  const post = (url, body) => call("POST", url, body);

  function snapshot() {
    return JSON.stringify({ board: state.board, rack: state.rack, opp: state.opp, tail: state.tail, opcodes: state.opcodes });
  }
  function remember() {
    const s = snapshot();
    if (history.length && history[history.length - 1] === s) return;
    history.push(s);
    if (history.length > 500) history.shift();
  }
  function undo() {
    if (!history.length) { setStatus(T("a.nothing_to_undo")); return; }
    const s = JSON.parse(history.pop());
    Object.assign(state, s);
    $("#rack").value = state.rack;
    changed(false);
  }

  function boardCGP() {
    return state.board.map((row) => {
      let out = "", empty = 0;
      for (const ch of row) {
        if (!ch) { empty++; continue; }
        if (empty) { out += empty; empty = 0; }
        out += ch;
      }
      return out + (empty ? empty : "");
    }).join("/");
  }
  function currentCGP() {
    const ops = state.opcodes ? " " + state.opcodes : "";
    return `${boardCGP()} ${state.rack}/${state.opp} ${state.tail}${ops}`;
  }
  function readCGP(cgp, board) {
    // the server has parsed and normalised it; keep its tail (scores, turns, opcodes)
    const parts = cgp.trim().split(/\s+/);
    const rackField = parts[1] || "/";
    const slash = rackField.indexOf("/");
    state.board = board.map((row) => Array.from(row).map((ch) => (ch === "." ? "" : ch)));
    state.rack = slash < 0 ? rackField : rackField.slice(0, slash);
    state.opp = slash < 0 ? "" : rackField.slice(slash + 1);
    state.tail = `${parts[2] || "0/0"} ${parts[3] || "0"}`;
    state.opcodes = parts.slice(4).join(" ");
    $("#rack").value = state.rack;
  }
  function dropBagOpcode() {
    state.opcodes = state.opcodes.split(";").map((s) => s.trim()).filter((s) => s && !/^bag\b/.test(s))
      .map((s) => s + ";").join(" ");
  }

  function squareName(r, c) { return COLS[c] + (r + 1); }
  function parseSquare(text) {
    const t = text.trim().toUpperCase();
    let m = /^([A-O])(\d{1,2})$/.exec(t) || null;
    if (m) return { r: +m[2] - 1, c: COLS.indexOf(m[1]) };
    m = /^(\d{1,2})([A-O])$/.exec(t);
    if (m) return { r: +m[1] - 1, c: COLS.indexOf(m[2]) };
    return null;
  }
  // squares covered by a move's main word, from its notation ("8H WO(R)T" / "H8 WO(R)T")
  function covered(notation) {
    const [start, word] = notation.split(" ");
    const across = /^\d/.test(start);
    const sq = parseSquare(start);
    const len = word.replace(/[()]/g, "").length;
    const out = [];
    for (let k = 0; k < len; k++) out.push(across ? [sq.r, sq.c + k] : [sq.r + k, sq.c]);
    return out;
  }
  function escapeHtml(s) {
    return String(s).replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[ch]));
  }
  function showWord(text) { // blanks (lowercase) in red
    return Array.from(text).map((ch) => (ch !== ch.toUpperCase()
      ? `<span class="blank-letter" title="${T("blank.word")}">${escapeHtml(ch.toUpperCase())}</span>` : escapeHtml(ch))).join("");
  }
  function setStatus(text, error) {
    const el = $("#status");
    el.textContent = text;
    el.className = error ? "error" : "";
  }
  // a hint about what was just typed (stays until the next key that works; analysis does not overwrite it)
  function notice(text) { $("#notice").textContent = text || ""; }

  // ---- board drawing ------------------------------------------------------------------
  const squares = [];
  function buildBoard() {
    const b = $("#board");
    b.innerHTML = "";
    b.appendChild(document.createElement("div"));
    for (let c = 0; c < N; c++) {
      const d = document.createElement("div");
      d.className = "coord";
      d.textContent = COLS[c];
      b.appendChild(d);
    }
    for (let r = 0; r < N; r++) {
      const label = document.createElement("div");
      label.className = "coord";
      label.textContent = r + 1;
      b.appendChild(label);
      squares.push([]);
      for (let c = 0; c < N; c++) {
        const d = document.createElement("div");
        const p = PREMIUM[rules.premiums[r][c]];
        d.className = "sq" + (p ? " " + p[0] : "");
        d.dataset.r = r;
        d.dataset.c = c;
        d.dataset.square = squareName(r, c);
        d.dataset.premium = p ? I18N.premium(rules.premiums[r][c]) : "";
        d.setAttribute("role", "gridcell");
        d.addEventListener("mousedown", (e) => { e.preventDefault(); clickSquare(r, c); });
        b.appendChild(d);
        squares[r].push(d);
      }
    }
  }
  function tileHtml(letter, blank, extra) {
    const v = blank ? "" : `<sub>${values[letter] ?? ""}</sub>`;
    return `<div class="tile${blank ? " blank" : ""}${extra || ""}">${escapeHtml(letter)}${v}</div>`;
  }
  // squares of every word a move forms (main word and cross-words): the runs of 2+
  // tiles through each new tile, across and down, on the board with the move placed
  function wordSquares(tiles, ghost) {
    const filled = (r, c) => r >= 0 && r < N && c >= 0 && c < N && (state.board[r][c] || ghost[r * N + c]);
    const out = new Set();
    for (const [r, c] of tiles) {
      for (const [dr, dc] of [[0, 1], [1, 0]]) {
        let r0 = r, c0 = c;
        while (filled(r0 - dr, c0 - dc)) { r0 -= dr; c0 -= dc; }
        const run = [];
        for (let rr = r0, cc = c0; filled(rr, cc); rr += dr, cc += dc) run.push(rr * N + cc);
        if (run.length >= 2) run.forEach((k) => out.add(k));
      }
    }
    return out;
  }
  function drawBoard() {
    const ghost = {};
    const shown = view.hover || view.selected || (view.check && view.check.legal ? view.check : null);
    if (shown && shown.tiles) for (const [r, c, ch, bl] of shown.tiles) ghost[r * N + c] = [ch, bl];
    else if (view.illegal) for (const [r, c, ch, bl] of view.illegal) ghost[r * N + c] = [ch, bl, true];
    const inWord = shown && shown.tiles ? wordSquares(shown.tiles, ghost) : new Set();
    for (let r = 0; r < N; r++) {
      for (let c = 0; c < N; c++) {
        const d = squares[r][c];
        const ch = state.board[r][c];
        const g = ghost[r * N + c];
        if (ch) d.innerHTML = tileHtml(ch.toUpperCase(), ch !== ch.toUpperCase(), "");
        else if (g) d.innerHTML = tileHtml(g[0], g[1], g[2] ? " illegal" : " new");
        else d.textContent = d.dataset.premium;
        d.classList.toggle("inword", ch !== "" && inWord.has(r * N + c));
        const cur = state.cursor && state.cursor.r === r && state.cursor.c === c;
        d.classList.toggle("cursor", !!cur);
        d.classList.toggle("across", !!cur && state.cursor.dir === "across");
        d.classList.toggle("down", !!cur && state.cursor.dir === "down");
      }
    }
    placeInput();
    const rt = $("#rack-tiles");
    rt.innerHTML = Array.from(state.rack).map((ch) => (ch === "?" ? tileHtml("?", true, "") : tileHtml(ch, false, ""))).join("");
  }

  // ---- editing --------------------------------------------------------------------------
  // the hidden input over the cursor square: focusing it opens a phone's keyboard
  function placeInput() {
    const inp = $("#board-input");
    const cur = state.cursor;
    const d = cur ? squares[cur.r][cur.c] : null;
    if (!inp || !d) return;
    inp.style.left = d.offsetLeft + "px";
    inp.style.top = d.offsetTop + "px";
  }
  function focusInput() {
    const inp = $("#board-input");
    inp.value = SENTINEL;
    inp.focus({ preventScroll: true });
    inp.setSelectionRange(1, 1);
  }
  // a phone's keyboard sends "input" events (its keydown says "Unidentified"): the text typed or a deletion
  function onBoardInput(e) {
    const inp = e.target;
    const v = inp.value;
    const fake = (key) => onBoardKey({ key, shiftKey: false, ctrlKey: false, metaKey: false, altKey: false,
      preventDefault() {} });
    if (e.inputType === "deleteContentBackward" || !v.startsWith(SENTINEL)) fake("Backspace");
    else for (const ch of Array.from(v.slice(SENTINEL.length).normalize("NFC"))) fake(ch === " " ? " " : ch);
    inp.value = SENTINEL;
    inp.setSelectionRange(1, 1);
  }
  function clickSquare(r, c) {
    focusInput();
    if (state.cursor && state.cursor.r === r && state.cursor.c === c) {
      state.cursor.dir = state.cursor.dir === "across" ? "down" : "across";
      state.cursor.end = false;
    } else {
      state.cursor = { r, c, dir: state.cursor ? state.cursor.dir : "across" };
    }
    pendingBlank = false;
    drawBoard();
  }
  function step(delta) {
    const cur = state.cursor;
    const next = (cur.dir === "across" ? cur.c : cur.r) + delta;
    cur.end = next > N - 1;                 // typed onto the last square: the next letter has nowhere to go
    const k = Math.min(N - 1, Math.max(0, next));
    if (cur.dir === "across") cur.c = k; else cur.r = k;
  }
  function putTile(letter, blank) {
    const cur = state.cursor;
    if (cur.end) { notice(T("a.edge")); return; }
    remember();
    state.board[cur.r][cur.c] = blank ? letter.toLowerCase() : letter;
    step(1);
    changed(true);
  }
  function onBoardKey(e) {
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "z") { e.preventDefault(); if (!e.shiftKey) undo(); return; }
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (!state.cursor) {
      if (e.key.length === 1 || e.key.startsWith("Arrow")) { state.cursor = { r: 7, c: 7, dir: "across" }; }
      else return;
    }
    const cur = state.cursor;
    const key = e.key;
    if (["Shift", "Control", "Alt", "Meta", "CapsLock", "AltGraph", "Dead"].includes(key)) return;
    if (key === "?") { pendingBlank = true; notice(T("a.next_blank")); e.preventDefault(); return; }
    notice("");
    if (key.length !== 1) pendingBlank = false;   // arrows, Backspace, ...: the blank marker is dropped
    if (key === " ") {
      cur.dir = cur.dir === "across" ? "down" : "across"; cur.end = false; e.preventDefault(); drawBoard(); return;
    }
    if (key.startsWith("Arrow")) {
      const [dr, dc] = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[key];
      cur.r = Math.min(N - 1, Math.max(0, cur.r + dr));
      cur.c = Math.min(N - 1, Math.max(0, cur.c + dc));
      cur.end = false;
      e.preventDefault(); drawBoard(); return;
    }
    if (key === "Backspace") {
      e.preventDefault();
      if (cur.end) cur.end = false;          // the last square holds the letter just typed: delete it
      else if (!state.board[cur.r][cur.c]) step(-1);
      if (state.board[cur.r][cur.c]) { remember(); state.board[cur.r][cur.c] = ""; changed(true); } else drawBoard();
      return;
    }
    if (key === "Delete") {
      e.preventDefault();
      if (state.board[cur.r][cur.c]) { remember(); state.board[cur.r][cur.c] = ""; changed(true); }
      return;
    }
    if (key === "Escape") { state.cursor = null; pendingBlank = false; drawBoard(); return; }
    if (key.length !== 1) return;
    const up = key.toUpperCase();
    e.preventDefault();
    if (!letters.has(up)) {
      notice(key === "ß" ? T("a.eszett") : T("a.not_tile", key));
      return;
    }
    putTile(up, e.shiftKey || pendingBlank);
    pendingBlank = false;
  }

  // rack text as tiles: upper case, "*" for "?", no spaces; composed umlauts; ß refused (it is SS)
  function cleanRack(text) {
    return Array.from(text.normalize("NFC").replace(/\*/g, "?").replace(/\s+/g, "").replace(/ß/g, ""))
      .map((ch) => (ch === "?" ? "?" : ch.toUpperCase())).join("");
  }
  function onRackInput() {
    const el = $("#rack");
    const raw = el.value;
    const clean = cleanRack(raw);
    if (clean !== raw) {
      const caret = cleanRack(raw.slice(0, el.selectionStart)).length;
      el.value = clean;
      el.setSelectionRange(caret, caret);
    }
    remember();
    state.rack = clean;
    changed(true);
    notice(raw.includes("ß") ? T("a.eszett") : "");
  }
  function rackProblem(rack) {
    const bad = Array.from(rack).filter((ch) => ch !== "?" && !letters.has(ch));
    if (bad.length) return T("a.rack.bad", bad.join(", "));
    if (rack.length > rules.rack_size) return T("a.rack.many", rack.length, rules.rack_size);
    return "";
  }

  // any change of board or rack: redraw, re-analyse (debounced)
  function changed(tilesChanged) {
    if (tilesChanged) dropBagOpcode();      // the bag count no longer fits: the engine works it out
    view.stale = true;                      // the list is of the old position until the answer comes
    $("#moves-wrap").classList.add("stale");
    document.querySelectorAll("#moves tr.selected").forEach((x) => x.classList.remove("selected"));
    view.check = null;                      // checked again once the new answer is in
    view.illegal = null;
    checkNo++;
    view.selected = null; view.hover = null;
    $("#play").disabled = true;
    $("#detail").innerHTML = "";
    deepNo++;                               // an answer still on its way is of the old position
    $("#deep-result").innerHTML = "";
    $("#deep").disabled = false;
    drawBoard();
    $("#cgp").value = currentCGP();
    clearTimeout(timer);
    timer = setTimeout(analyse, 150);
  }

  // ---- talking to the engine -------------------------------------------------------
  async function analyse() {
    const my = ++requestNo;
    const cgp = currentCGP();
    const problem = rackProblem(state.rack);
    if (problem) { showAnswerError(problem); return; }
    setStatus(T("a.analysing"));
    const [pos, mv] = await Promise.all([post("/api/position", { cgp }), post("/api/moves", { cgp, top: PAGE })]);
    if (my !== requestNo) return;          // a newer request is under way
    const err = pos.error ? pos : mv.error ? mv : null;
    if (err) {
      showAnswerError(err.error);
      if (err.status === 429 || err.status === 503) { clearTimeout(timer); timer = setTimeout(analyse, 1000); }
      return;
    }
    $("#warnings").innerHTML = pos.warnings.map((w) => `<li>${escapeHtml(S(w))}</li>`).join("");
    $("#unseen").textContent = T("a.unseen", pos.unseen.length, pos.unseen || "–", pos.bag);
    $("#scores").textContent = T("a.scores", pos.scores[0], pos.scores[1]);
    $("#deep-phase").textContent = T("d.phase." + phaseOf(pos.bag), pos.bag);
    analysis = mv;
    analysis.cgp = cgp;
    analysis.moves.forEach((m, i) => { m.rank = i + 1; });
    view.stale = false;
    $("#moves-wrap").classList.remove("stale");
    const ex = mv.best_exchanges.length ? T("a.best_exchange", mv.best_exchanges[0].move, I18N.num(mv.best_exchanges[0].equity, 1)) : "";
    setStatus(mv.note ? S(mv.note) : T("a.status", mv.count.toLocaleString(I18N.lang), I18N.num(mv.time_ms, 2)) + ex);
    if (needAll()) await loadMore(null); else renderMoves();
    if (my !== requestNo) return;
    if ($("#check").value.trim()) checkMove();
  }
  function showAnswerError(message) {
    setStatus(message, true);
    analysis = { moves: [], count: 0 };
    view.illegal = null;
    $("#scores").textContent = "";
    view.stale = false;
    $("#moves-wrap").classList.remove("stale");
    view.check = null;
    checkNo++;                              // a checker answer still on its way is of no use now
    $("#check-result").innerHTML = "";
    drawBoard();
    $("#warnings").innerHTML = "";
    $("#unseen").textContent = "";
    renderMoves();
  }

  // ---- the deeper analysis: endgame solver, pre-endgame or simulation (POST /api/deep) ----------------
  function phaseOf(bag) { return bag <= 0 ? "endgame" : bag <= 3 ? "preendgame" : "simulation"; }
  const signed = (x, d = 1) => (x === null || x === undefined ? "–" : (x > 0 ? "+" : "") + I18N.num(x, d));
  const pct = (x) => (x === null || x === undefined ? "–" : I18N.num(100 * x, 1));
  const moveName = (m) => escapeHtml(m === "pass" || m === "-" ? T("d.pass") : m);
  async function runDeep() {
    const problem = rackProblem(state.rack);
    if (problem) { $("#deep-result").innerHTML = `<p class="bad">${escapeHtml(problem)}</p>`; return; }
    const my = ++deepNo;
    const seconds = Number($("#deep-time").value) || 5;
    $("#deep").disabled = true;
    $("#deep-result").innerHTML = `<p class="muted">${escapeHtml(T("d.running", seconds))}</p>`;
    const mine = view.check && view.check.legal ? view.check.move : view.selected ? view.selected.move : null;
    const r = await post("/api/deep", { cgp: currentCGP(), seconds, include: mine ? [mine] : [] });
    if (my !== deepNo) return;             // the position changed meanwhile
    $("#deep").disabled = false;
    $("#deep-result").innerHTML = r.error ? `<p class="bad">${escapeHtml(S(r.error))}</p>` : deepHtml(r, mine);
  }
  function deepHtml(r, mine) {
    const mark = (m) => (m.move === mine ? ' class="mine"' : "");
    if (r.phase === "endgame") {
      const state = r.complete ? T("d.exact") : T("d.not_exact", r.depth);
      return `<p class="deep-best" data-phase="endgame" data-complete="${r.complete}">` +
        `${escapeHtml(T("d.endgame", "\u0000", signed(r.value, 0), state)).replace("\u0000", `<b>${moveName(r.move)}</b>`)}</p>` +
        `<p>${escapeHtml(T("d.pv", r.pv.map((m) => (m === "pass" ? T("d.pass") : m)).join(" · ")))}</p>` +
        `<p class="muted">${escapeHtml(T("d.final", signed(r.final_spread, 0)))}</p>`;
    }
    if (r.phase === "preendgame") {
      const state = r.complete ? T("d.exact") : T("d.partly");
      const rows = r.moves.map((m) => `<tr${mark(m)}><td>${moveName(m.move)}</td><td class="n">${pct(m.win)}</td>` +
        `<td class="n">${signed(m.spread)}</td><td>${m.exact ? T("d.exact") : T("d.approx")}</td></tr>`).join("");
      return `<p data-phase="preendgame" data-complete="${r.complete}">${escapeHtml(T("d.pre", state, I18N.num(r.seconds, 1)))}</p>` +
        `<div class="deep-wrap"><table class="deep"><thead><tr><th>${T("d.th.move")}</th><th class="n">${T("d.th.win")}</th>` +
        `<th class="n">${T("d.th.spread")}</th><th>${T("d.th.exact")}</th></tr></thead><tbody>${rows}</tbody></table></div>`;
    }
    const rows = r.moves.map((m) => `<tr${mark(m)}><td>${moveName(m.move)}</td><td class="n wide">${m.score}</td>` +
      `<td class="n wide">${m.iterations}</td><td class="n">${signed(m.spread)}</td>` +
      `<td class="n">[${signed(m.ci[0])}, ${signed(m.ci[1])}]</td><td class="n">${pct(m.win)}</td>` +
      `<td class="n wide">[${pct(m.win_ci[0])}, ${pct(m.win_ci[1])}]</td></tr>`).join("");
    return `<p data-phase="simulation">${escapeHtml(T("d.sim", r.iterations.toLocaleString(I18N.lang), I18N.num(r.seconds, 1)))}</p>` +
      `<div class="deep-wrap"><table class="deep"><thead><tr><th>${T("d.th.move")}</th><th class="n wide">${T("d.th.score")}</th>` +
      `<th class="n wide">${T("d.th.iters")}</th><th class="n">${T("d.th.spread")}</th><th class="n">${T("d.th.ci")}</th>` +
      `<th class="n">${T("d.th.win")}</th><th class="n wide">${T("d.th.winci")}</th></tr></thead><tbody>${rows}</tbody></table></div>`;
  }

  // ---- paging: the best PAGE moves first, more on request (or all, for a filter or another order) ----------
  function needAll() {
    const filtering = ["#f-word", "#f-square", "#f-tiles", "#f-count"].some((id) => $(id).value.trim() !== "");
    return filtering || !["rank", "equity"].includes(view.key);
  }
  async function loadMore(count) {
    const a = analysis;
    if (!a.cgp || a.moves.length >= a.count) { renderMoves(); return; }
    const my = requestNo;
    const body = { cgp: a.cgp, offset: a.moves.length };
    if (count) body.top = count;
    const mv = await post("/api/moves", body);
    if (my !== requestNo || analysis !== a) return;      // the position changed meanwhile
    if (mv.status === 429 || mv.status === 503) { setTimeout(() => { if (analysis === a) loadMore(count); }, 1000); return; }
    if (mv.error) { setStatus(mv.error, true); return; }
    const base = a.moves.length;
    mv.moves.forEach((m, i) => { m.rank = base + i + 1; });
    a.moves = a.moves.concat(mv.moves);
    renderMoves();
    // the server answers at most a page of moves (MAX_PAGE); "all" asks on for the rest
    if (!count && mv.next_offset !== null && mv.next_offset !== undefined && a.moves.length < a.count) await loadMore(null);
  }

  // ---- move table ------------------------------------------------------------------------
  function filtered() {
    const word = $("#f-word").value.normalize("NFC").trim().toUpperCase();
    const sqText = $("#f-square").value.trim();
    let sq = sqText ? parseSquare(sqText) : null;
    if (sq && (sq.r < 0 || sq.r >= N)) sq = null;
    $("#f-square").classList.toggle("bad", sqText !== "" && !sq);   // not a square: marked, not applied
    const need = Array.from(cleanRack($("#f-tiles").value));
    const count = $("#f-count").value;
    return analysis.moves.filter((m) => {
      if (word && !m.move.split(" ")[1].replace(/[()]/g, "").toUpperCase().includes(word)) return false;
      if (count && m.played !== +count) return false;
      if (sq && !covered(m.move).some(([r, c]) => r === sq.r && c === sq.c)) return false;
      if (need.length) {
        const have = m.tiles.map(([, , ch, bl]) => (bl ? "?" : ch));
        for (const ch of need) {
          const k = have.indexOf(ch);
          if (k < 0) return false;
          have.splice(k, 1);
        }
      }
      return true;
    });
  }
  function renderMoves() {
    let rows = filtered();
    const { key, dir } = view;
    if (key !== "rank") {
      rows = rows.slice().sort((a, b) => {
        const x = a[key], y = b[key];
        const d = typeof x === "number" ? x - y : String(x).localeCompare(String(y), "de");
        return d * dir || a.rank - b.rank;
      });
    } else if (dir < 0) rows = rows.slice().reverse();
    document.querySelectorAll("#moves th").forEach((th) => {
      th.classList.toggle("sorted-desc", th.dataset.key === key && dir < 0);
      th.classList.toggle("sorted-asc", th.dataset.key === key && dir > 0);
      if (th.dataset.key === key) th.setAttribute("aria-sort", dir < 0 ? "descending" : "ascending");
      else th.removeAttribute("aria-sort");
    });
    const body = $("#moves tbody");
    view.rows = rows.slice(0, MAX_ROWS);
    if (view.hover) {                       // its row is replaced: no mouseleave will come
      view.hover = null;
      showDetail(view.selected);
      drawBoard();
    }
    if (view.selected && !view.rows.includes(view.selected)) {   // filtered away: nothing hidden stays selected
      view.selected = null;
      $("#play").disabled = true;
      showDetail(null);
      drawBoard();
    }
    body.innerHTML = "";
    const frag = document.createDocumentFragment();
    for (const m of rows.slice(0, MAX_ROWS)) {
      const tr = document.createElement("tr");
      tr.innerHTML = `<td class="n">${m.rank}</td><td class="mv">${showWord(m.move)}</td><td class="n">${m.score}</td>` +
        `<td>${escapeHtml(m.leave || "–")}</td><td class="n">${I18N.num(m.leave_value, 2)}</td>` +
        `<td class="n">${I18N.num(m.equity, 2)}</td><td class="n">${m.played}</td>`;
      tr.dataset.move = m.move;
      if (view.selected === m) tr.className = "selected";
      tr.addEventListener("mouseenter", () => {
        if (view.stale) return;               // a move of the position before the last edit
        view.hover = m; showDetail(m); drawBoard();
      });
      tr.addEventListener("mouseleave", () => { view.hover = null; showDetail(view.selected); drawBoard(); });
      tr.addEventListener("click", () => { select(m, tr); $("#moves-wrap").focus({ preventScroll: true }); });
      frag.appendChild(tr);
    }
    body.appendChild(frag);
    const total = analysis.moves.length;
    const partial = total < analysis.count;
    $("#summary").textContent = total === 0 ? "" :
      (rows.length !== total ? T("a.summary.match", rows.length, total)
        : partial ? T("a.summary.loaded", total, analysis.count) : T("a.summary.all", total)) +
      (rows.length > MAX_ROWS ? T("a.summary.cut", MAX_ROWS) : "") +
      T(window.matchMedia && matchMedia("(pointer: coarse)").matches ? "a.summary.hint.touch" : "a.summary.hint");
    $("#more-row").hidden = !partial;
    if (partial) $("#more").textContent = T("a.more", Math.min(2 * PAGE, analysis.count - total));
  }
  // arrow keys in the move table: select the next / previous move; Enter plays it
  function onTableKey(e) {
    const rows = view.rows || [];
    if (!rows.length || view.stale) return;
    if (e.key === "Enter" && view.selected) { e.preventDefault(); playSelected(); return; }
    const at = rows.indexOf(view.selected);
    const go = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: rows.length - 1 }[e.key];
    if (go === undefined) return;
    e.preventDefault();
    const k = at < 0 && e.key.startsWith("Arrow") ? 0 : Math.min(rows.length - 1, Math.max(0, go));
    const tr = $("#moves tbody").children[k];
    if (rows[k] !== view.selected) select(rows[k], tr);
    tr.scrollIntoView({ block: "nearest" });
  }
  function select(m, tr) {
    if (view.stale) return;                 // a move of the position before the last edit
    view.selected = view.selected === m ? null : m;
    document.querySelectorAll("#moves tr.selected").forEach((x) => x.classList.remove("selected"));
    if (view.selected) tr.classList.add("selected");
    $("#play").disabled = !view.selected;
    showDetail(view.selected);
    drawBoard();
  }
  async function showDetail(m) {
    const el = $("#detail");
    if (!m) { el.innerHTML = ""; return; }
    if (!m.words) {
      el.innerHTML = `<b>${showWord(m.move)}</b> ${T("a.points", m.score)} …`;
      // words of moves past the first 100 come from the checker: ask only once the pointer rests
      await new Promise((resolve) => setTimeout(resolve, 120));
      if (view.hover !== m && view.selected !== m) return;
      const ans = await post("/api/score", { cgp: currentCGP(), move: m.move });
      if (ans.error || !ans.legal) { el.textContent = ans.error || S(ans.reason); return; }
      m.words = ans.words;
      if (view.hover !== m && view.selected !== m) return;
    }
    const words = m.words.map(([w, s]) => `${escapeHtml(w)} ${s}`).join(" + ");
    const bingo = m.played === rules.rack_size ? ` + ${T("a.bingo", rules.bingo_bonus)}` : "";
    el.innerHTML = `<b>${showWord(m.move)}</b> ${T("a.points", m.score)} = <span class="words">${words}${bingo}</span><br>` +
      escapeHtml(T("a.detail", m.leave || "–", I18N.num(m.leave_value, 2), I18N.num(m.equity, 2), m.rank, analysis.count));
  }
  function playSelected() {
    const m = view.selected || (view.check && view.check.legal ? view.check : null);   // or the move typed in the checker
    if (!m || view.stale) return;
    remember();
    let rack = Array.from(state.rack);
    for (const [r, c, ch, bl] of m.tiles) {
      state.board[r][c] = bl ? ch.toLowerCase() : ch;
      const k = rack.indexOf(bl ? "?" : ch);
      if (k >= 0) rack.splice(k, 1);
    }
    state.rack = rack.join("");
    $("#rack").value = state.rack;
    $("#check").value = "";
    view.check = null;
    $("#check-result").innerHTML = "";
    changed(true);
  }

  // ---- word checker ------------------------------------------------------------------------
  // the new tiles of a typed move ("8H HAUSX", "H8 HA(U)S"), as far as it can be read: for drawing an illegal one
  function typedTiles(text) {
    const m = /^\s*(\d{1,2}[A-Oa-o]|[A-Oa-o]\d{1,2})\s+(\S+)\s*$/.exec(text);
    if (!m) return null;
    const across = /^\d/.test(m[1]);
    const sq = parseSquare(m[1]);
    if (!sq || sq.r < 0 || sq.r >= N) return null;
    const out = [];
    let k = 0;
    for (const ch of Array.from(m[2].normalize("NFC"))) {
      if (ch === "(" || ch === ")" || ch === ".") { if (ch === ".") k++; continue; }
      const r = across ? sq.r : sq.r + k, c = across ? sq.c + k : sq.c;
      k++;
      if (r >= N || c >= N) break;
      if (state.board[r][c]) continue;
      const up = ch.toUpperCase();
      if (!letters.has(up)) continue;
      out.push([r, c, up, ch !== up]);
    }
    return out.length ? out : null;
  }
  async function checkMove() {
    const text = $("#check").value.trim();
    const out = $("#check-result");
    const my = ++checkNo;
    if (!text) { view.check = null; view.illegal = null; out.innerHTML = ""; $("#play").disabled = !view.selected; drawBoard(); return; }
    const ans = await post("/api/score", { cgp: currentCGP(), move: text });
    if (my !== checkNo) return;
    if (ans.status === 429 || ans.status === 503) { clearTimeout(checkTimer); checkTimer = setTimeout(checkMove, 1000); }
    view.check = ans.legal ? ans : null;
    view.illegal = ans.legal === false ? typedTiles(text) : null;   // drawn in the illegal style
    $("#play").disabled = !(view.selected || (view.check && !view.stale));
    if (ans.error) out.innerHTML = `<span class="bad">${escapeHtml(ans.error)}</span>`;
    else if (!ans.legal) out.innerHTML = `<span class="bad">${escapeHtml(T("a.illegal", S(ans.reason)))}</span>`;
    else {
      const words = ans.words.map(([w, s]) => `${escapeHtml(w)} ${s}`).join(" + ");
      const bingo = ans.bingo ? ` + ${T("a.bingo", rules.bingo_bonus)}` : "";
      const rank = ans.rank_score ? "<br>" + escapeHtml(T("a.rank", ans.rank_score, ans.count, ans.rank_equity,
        I18N.num(ans.equity, 2), ans.leave || "–")) : "";
      out.innerHTML = `<span class="good">✓ ${showWord(ans.move)} ${T("a.points", ans.score)}</span> = ` +
        `<span class="words">${words}${bingo}</span>${rank}`;
    }
    drawBoard();
  }

  // ---- start -----------------------------------------------------------------------------------
  async function start() {
    rules = await call("GET", "/api/rules");
    if (rules.error) { setStatus(rules.error, true); return; }
    for (const l of rules.letters) { values[l.letter] = l.value; letters.add(l.letter); }
    $("#lexicon").textContent = T("lexicon", rules.lexicon.packaged ? T("lexicon.packaged") : rules.lexicon.name,
      rules.lexicon.words.toLocaleString(I18N.lang));
    buildBoard();
    const b = $("#board");
    b.addEventListener("keydown", onBoardKey);
    const bi = $("#board-input");
    bi.addEventListener("keydown", onBoardKey);
    bi.addEventListener("input", onBoardInput);
    b.addEventListener("focus", () => { if (state.cursor) focusInput(); });
    document.querySelectorAll("#letter-keys button").forEach((btn) => {
      btn.addEventListener("mousedown", (e) => e.preventDefault());      // the board keeps the keyboard
      btn.addEventListener("click", () => {
        onBoardKey({ key: btn.dataset.key, shiftKey: false, ctrlKey: false, metaKey: false, altKey: false,
          preventDefault() {} });
        focusInput();
      });
    });
    $("#more").addEventListener("click", () => loadMore(2 * PAGE));
    $("#deep").addEventListener("click", runDeep);
    $("#all").addEventListener("click", () => loadMore(null));
    $("#rack").addEventListener("input", onRackInput);
    $("#rack").addEventListener("keydown", (e) => {   // the page's undo, not the field's own
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "z") { e.preventDefault(); if (!e.shiftKey) undo(); }
    });
    $("#undo").addEventListener("click", undo);
    $("#clear").addEventListener("click", () => { remember(); state.board = emptyBoard(); state.opcodes = ""; changed(true); });
    $("#play").addEventListener("click", playSelected);
    $("#moves-wrap").addEventListener("keydown", onTableKey);
    $("#cgp-load").addEventListener("click", loadCGP);
    $("#cgp").addEventListener("keydown", (e) => { if (e.key === "Enter") loadCGP(); });
    $("#cgp-copy").addEventListener("click", copyCGP);
    $("#check").addEventListener("input", () => {
      view.hover = null;                      // a phone's "hover" sticks to the last row tapped: the typed move wins
      if (view.selected) { view.selected = null; $("#play").disabled = true; renderMoves(); }
      clearTimeout(checkTimer); checkTimer = setTimeout(checkMove, 200);
    });
    const refilter = () => {   // at once on the moves loaded; then on all of them, once loaded
      renderMoves();
      if (needAll() && analysis.moves.length < analysis.count) loadMore(null);
    };
    for (const id of ["#f-word", "#f-square", "#f-tiles", "#f-count"]) $(id).addEventListener("input", refilter);
    document.querySelectorAll("#moves th").forEach((th) => th.addEventListener("click", () => {
      const k = th.dataset.key;
      if (view.key === k) view.dir = -view.dir;
      else { view.key = k; view.dir = ["score", "equity", "leave_value", "played"].includes(k) ? -1 : 1; }
      refilter();
    }));
    document.addEventListener("keydown", (e) => {
      const inField = ["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement.tagName);
      if (!inField && document.activeElement !== b && (e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "z") {
        e.preventDefault(); if (!e.shiftKey) undo();
      }
    });
    $("#director-link").hidden = !rules.director;
    const fromUrl = new URLSearchParams(location.search).get("cgp");
    if (fromUrl) { $("#cgp").value = fromUrl; if (!(await loadCGP())) changed(false); } else changed(false);
  }
  async function loadCGP() {
    const cgp = $("#cgp").value.trim();
    if (!cgp) { setStatus(T("a.cgp.first"), true); return false; }
    const pos = await post("/api/position", { cgp });
    if (pos.error) { setStatus(T("a.cgp.bad", pos.error), true); notice(T("a.cgp.bad", pos.error)); return false; }
    remember();
    readCGP(pos.cgp, pos.board);
    changed(false);
    return true;
  }
  async function copyCGP() {
    const text = currentCGP();
    try { await navigator.clipboard.writeText(text); setStatus(T("a.cgp.copied")); }
    catch (e) { $("#cgp").select(); setStatus(T("a.cgp.nocopy")); }
  }

  document.addEventListener("DOMContentLoaded", () => {
    // keyboard help on a computer, touch help on a phone or tablet (no Strg+Z where there is no keyboard)
    if (window.matchMedia && matchMedia("(pointer: coarse)").matches) $(".help").dataset.i18nHtml = "a.help.touch";
    I18N.apply(); I18N.wireSwitch(); start();
  });
})();
