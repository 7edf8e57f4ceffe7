/* A player's phone page (/spieler#t=TOKEN): see engine/web/players.py. */
(function () {
  "use strict";
  var KEY = "playerToken";
  var $ = function (s) { return document.querySelector(s); };
  // German numbers with the real minus sign (U+2212), as the exported pages write them
  function deFormat(opts) {
    var f = new Intl.NumberFormat("de-DE", opts);
    return {format: function (n) { return f.format(n).replace("-", "\u2212"); }};
  }
  var num = deFormat();
  var pct = deFormat({minimumFractionDigits: 2, maximumFractionDigits: 2});
  var m = /(?:^#|&)t=([^&]+)/.exec(location.hash);
  if (m) { localStorage.setItem(KEY, decodeURIComponent(m[1])); history.replaceState(null, "", location.pathname); }
  var token = localStorage.getItem(KEY) || "";
  var state = null, skew = 0, end = null;

  function message(text, ok) { var el = $("#msg"); el.textContent = text || ""; el.className = text ? (ok ? "ok" : "err") : ""; }

  function call(path, body) {
    var opts = {method: body === undefined ? "GET" : "POST", cache: "no-store", headers: {"X-Player-Token": token}};
    if (body !== undefined) { opts.headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body); }
    return fetch("/api/player/" + path, opts).then(function (r) {
      return r.json().catch(function () { return {error: "Antwort " + r.status}; }).then(function (d) {
        if (!r.ok) throw new Error(d.error || ("Fehler " + r.status));
        render(d.state);
        return d;
      });
    });
  }

  function render(st) {
    state = st;
    skew = Date.now() / 1000 - st.now;
    $("#name").textContent = st.event;
    $("#who").textContent = st.player;
    var cur = st.current;
    $("#round").hidden = !cur;
    if (cur) {
      $("#round-title").textContent = "Runde " + cur.round;
      var gone = st.left !== null && st.left !== undefined;
      $("#wait").textContent = gone ? "Du hast das Turnier in Runde " + st.left + " verlassen." :
        "Die Runde hat noch nicht begonnen …";
      $("#wait").hidden = cur.started && !gone;
      $("#play").hidden = !cur.started || gone;
      $("#rack").textContent = cur.rack.split("").join(" ");
      end = cur.seconds === null ? null : st.now + cur.seconds;
      $("#mine").textContent = cur.mine ? "Eingegangen: " + cur.mine + " – bis zum Ende der Runde änderbar." : "Noch kein Zug abgegeben.";
    }
    var last = st.last;
    $("#last").hidden = !last;
    if (last) {
      $("#last").textContent = "Runde " + last.round + ": Top " + last.top + " · " + num.format(last.score) +
        " Punkte. Dein Zug: " + (last.move || "keiner") + " · " + num.format(last.points) + " Punkte" +
        (last.valid === false && last.move ? " (" + last.reason + ")" : "");
    }
    $("#total").hidden = !last;
    $("#total").textContent = "Gesamt: " + num.format(st.total) + " Punkte · Platz " + st.rank + " · " +
      pct.format(st.percent) + "\u00a0% vom Top";
    tick();
  }

  function tick() {
    var el = $("#clock");
    if (end === null) { el.textContent = ""; return; }
    var left = end - (Date.now() / 1000 - skew);
    if (left <= 0) { el.textContent = "Zeit!"; el.className = "clock low"; return; }
    var s = Math.ceil(left);
    el.textContent = Math.floor(s / 60) + ":" + ("0" + (s % 60)).slice(-2);
    el.className = "clock" + (left <= 30 ? " low" : "");
  }
  setInterval(tick, 500);

  $("#form").addEventListener("submit", function (e) {
    e.preventDefault();
    var move = $("#move").value.trim();
    if (!move || !state || !state.current) return;
    call("submit", {round: state.current.round, move: move}).then(function (d) {
      message((d.received.unchanged ? "Unverändert: " : "Eingegangen: ") + d.received.move +
              (d.received.late ? " (nach Ablauf der Zeit: gilt als verspätet)" : ""), true);
      $("#move").value = "";
    }).catch(function (err) { message(err.message, false); });
  });

  if (!token) { $("#nolink").hidden = false; return; }
  function refresh() { call("state").catch(function (err) { message(err.message, false); }); }
  refresh();
  setInterval(function () { if (document.activeElement !== $("#move")) refresh(); }, 3000);
})();
