/* The tournament page: listens on /ws/tournament/<id>/ and, when the tournament changes, swaps in
 * the server-rendered live part (translated and with the viewer's register button) from
 * data-live-url. Reconnects with backoff; a reconnect refreshes too, so nothing is missed. */
import { localTimes } from "./local_times.js";
import { reconnectDelay } from "./lib/reconnect.js";

(function () {
  var app = document.getElementById("tournament-app");
  if (!app) return;
  var live = document.getElementById("tournament-live");
  var conn = document.getElementById("tournament-conn");
  var shown = -1, loading = false, again = false, retry = 0;

  /* The connection, said in words: the span's data-connecting / data-online / data-lost. */
  function setConn(state) {
    if (!conn) return;
    conn.className = "conn conn-" + state;
    conn.textContent = conn.getAttribute("data-" + state) || "";
  }

  function currentVersion() {
    var node = live.querySelector("[data-version]");
    return node ? parseInt(node.dataset.version, 10) : -1;
  }
  shown = currentVersion();

  function refresh() {
    if (loading) { again = true; return; }
    loading = true;
    fetch(app.dataset.liveUrl, { credentials: "same-origin", headers: { "X-Requested-With": "fetch" } })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        live.innerHTML = html; shown = currentVersion();
        localTimes(live);
        followMyTable(); tick(); stopIfOver();
      })
      .catch(function () { /* the next message or reconnect tries again */ })
      .then(function () { loading = false; if (again) { again = false; refresh(); } });
  }
  // A format that says so (data-follow-my-table: the arena) takes you to a new match's table (a
  // table you had when the page opened only shows the "Your table" link: you came to look).
  function myTable() {
    var node = live.querySelector("[data-my-table]");
    return node ? node.dataset.myTable : null;
  }
  var lastTable = myTable();
  function followMyTable() {
    var table = myTable();
    if (table && table !== lastTable) {
      var link = document.getElementById("your-table");
      if (link && live.querySelector("[data-follow-my-table]")) location.assign(link.href);
    }
    lastTable = table;
  }

  // Arena: the progress bar and the time left, from the server's clock at render time.
  function tick() {
    var bar = document.getElementById("arena-progress");
    if (!bar) return;
    if (!bar.dataset.clientAt) bar.dataset.clientAt = String(Date.now() / 1000);
    if (bar.hasAttribute("data-paused")) return;
    var skew = parseFloat(bar.dataset.serverNow) - parseFloat(bar.dataset.clientAt);
    var left = Math.max(0, Math.round(parseFloat(bar.dataset.endsAt) - (Date.now() / 1000 + skew)));
    var max = parseFloat(bar.getAttribute("max"));
    bar.value = Math.max(0, max - left);
    var text = document.getElementById("arena-left");
    if (text) text.textContent = Math.floor(left / 60) + ":" + ("0" + (left % 60)).slice(-2);
  }
  tick();
  setInterval(tick, 1000);

  window.tournamentPage = { refresh: refresh, version: function () { return shown; } };

  // A tournament that is over changes no more: the page stops listening and drops its "Live" dot
  // (rendered finished, it has neither: the server leaves the dot out).
  function over() {
    var node = live.querySelector("[data-status]");
    return !!node && (node.dataset.status === "finished" || node.dataset.status === "cancelled");
  }
  var socket = null;
  function stopIfOver() {
    if (!over()) return false;
    if (conn) conn.remove();
    conn = null;
    if (socket) { socket.onclose = null; socket.close(); socket = null; }
    return true;
  }

  function connect() {
    if (stopIfOver()) return;
    var proto = location.protocol === "https:" ? "wss://" : "ws://";
    var ws = socket = new WebSocket(proto + location.host + app.dataset.wsUrl);
    setConn(retry ? "lost" : "connecting");
    ws.onopen = function () { retry = 0; setConn("online"); };
    ws.onmessage = function (ev) {
      var msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      if (!msg.state) return;
      // The snapshot after a reconnect, or any update: refresh when the page is behind, and on
      // every update (a table finishing changes results without bumping the version).
      if (msg.type === "update" || msg.state.version !== shown) refresh();
    };
    ws.onclose = function () {
      setConn("lost");
      setTimeout(connect, reconnectDelay(retry++));
    };
  }
  connect();
})();
