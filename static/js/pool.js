/* "Play a person" (templates/pool/_panel.html, on the home page and the lobbies): one socket,
 * /ws/pool/, for the live counts of people waiting per pool, joining and leaving a pool, the bot
 * offered after a wait (the player chooses), and the table once paired (docs/PROTOCOL.md, "Pool").
 * Strings come from the translated JSON dictionary #pool-i18n. */
import { fmt } from "./lib/fmt.js";
import { reconnectDelay } from "./lib/reconnect.js";

(function () {
  var panels = Array.prototype.slice.call(document.querySelectorAll("[data-pool-game]"));
  if (!panels.length) return;

  var I18N = {};
  try { I18N = JSON.parse(document.getElementById("pool-i18n").textContent); } catch (e) { /* keys then */ }
  function t(key, params) {
    var s = I18N[key] !== undefined ? I18N[key] : key;
    return fmt(s, params);
  }
  function panelOf(poolKey) {
    var game = String(poolKey || "").split("/")[0];
    for (var i = 0; i < panels.length; i++) if (panels[i].dataset.poolGame === game) return panels[i];
    return null;
  }
  function part(panel, name) { return panel.querySelector("[data-" + name + "]"); }
  function labelOf(panel, poolKey) {
    var item = panel.querySelector('[data-pool-count="' + poolKey + '"] span');
    return item ? item.textContent : poolKey;
  }

  var sock = null, retry = 0, lastPanel = null;
  var waiting = null;         // {pool, since (ms, this page's clock), panel}
  var ticker = null;

  function showError(panel, text, url) {
    /* ``url``: where the refusal points (at_table: the table the player sits at). */
    var box = panel && part(panel, "pool-error");
    if (!box) return;
    box.textContent = text || "";
    if (text && url) {
      var link = document.createElement("a");
      link.href = url;
      link.setAttribute("data-pool-table-link", "");
      link.textContent = t("to_table");
      box.appendChild(document.createTextNode(" "));
      box.appendChild(link);
    }
    box.hidden = !text;
  }
  function setState(panel, state) {
    /* "idle": the pool picker; "waiting": the status and "Stop waiting"; "offer": and the bot offer. */
    var choose = panel.querySelector(".pool-choose");
    if (choose) choose.hidden = state !== "idle";
    var wait = part(panel, "pool-waiting");
    if (wait) wait.hidden = state === "idle";
    var offer = part(panel, "pool-offer");
    if (offer) offer.hidden = state !== "offer";
    panel.dataset.poolState = state;
  }
  function tick() {
    if (!waiting) return;
    var status = part(waiting.panel, "pool-status");
    var seconds = Math.max(0, Math.round((Date.now() - waiting.since) / 1000));
    if (status) status.textContent = t("waiting", {pool: labelOf(waiting.panel, waiting.pool), seconds: seconds});
  }
  function stopWaiting(message) {
    if (ticker) { clearInterval(ticker); ticker = null; }
    if (waiting) {
      setState(waiting.panel, "idle");
      showError(waiting.panel, message || "");
    }
    waiting = null;
  }

  function onMessage(msg) {
    if (msg.type === "pools") {
      Object.keys(msg.counts || {}).forEach(function (key) {
        var item = document.querySelector('[data-pool-count="' + key + '"]');
        if (!item) return;
        item.querySelector("[data-count]").textContent = msg.counts[key];
        item.classList.toggle("busy", msg.counts[key] > 0);
      });
    } else if (msg.type === "waiting") {
      var panel = panelOf(msg.pool);
      if (!panel) return;
      if (waiting && waiting.panel !== panel) setState(waiting.panel, "idle");
      waiting = {pool: msg.pool, since: Date.now() - 1000 * (msg.waited || 0), panel: panel};
      showError(panel, "");
      var select = part(panel, "pool-select");
      if (select) select.value = msg.pool;
      setState(panel, "waiting");
      tick();
      if (!ticker) ticker = setInterval(tick, 1000);
    } else if (msg.type === "bot_offer") {
      if (waiting && waiting.pool === msg.pool) setState(waiting.panel, "offer");
    } else if (msg.type === "paired") {
      var to = panelOf(msg.pool);
      if (to) { setState(to, "waiting"); part(to, "pool-status").textContent = t("paired"); }
      if (ticker) { clearInterval(ticker); ticker = null; }
      window.location.assign(msg.url);
    } else if (msg.type === "left") {
      var why = msg.reason === "expired" ? t("left_expired") : msg.reason === "at_table" ? t("left_at_table") : "";
      stopWaiting(why);
    } else if (msg.type === "error") {
      showError(waiting ? waiting.panel : lastPanel, msg.reason, msg.params && msg.params.url);
    }
  }

  // A click before the socket is open (the page just loaded, or a reconnect) waits for it: dropped,
  // "Play a person" would do nothing at all.
  var unsent = [];
  function send(data) {
    if (sock && sock.readyState === WebSocket.OPEN) sock.send(JSON.stringify(data));
    else unsent.push(data);
  }
  function connect() {
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    sock = new WebSocket(scheme + window.location.host + "/ws/pool/");
    sock.onopen = function () {
      retry = 0;
      unsent.splice(0).forEach(function (data) { sock.send(JSON.stringify(data)); });
    };
    sock.onmessage = function (e) {
      var msg;
      try { msg = JSON.parse(e.data); } catch (err) { return; }
      onMessage(msg);
    };
    sock.onclose = function (e) {
      // The place in a pool is held by this socket: closed, it is gone (pool/consumers.py).
      if (waiting) stopWaiting(t("lost"));
      if (e.code === 4429 || e.code === 4403 || e.code === 4404) return;
      setTimeout(connect, reconnectDelay(retry++));
    };
  }

  panels.forEach(function (panel) {
    setState(panel, "idle");
    panel.addEventListener("click", function (e) {
      var button = e.target.closest("[data-action]");
      if (!button || !panel.contains(button)) return;
      lastPanel = panel;
      var action = button.dataset.action;
      if (action === "play-person") {
        showError(panel, "");
        send({type: "join", pool: part(panel, "pool-select").value});
      } else if (action === "leave-pool") {
        send({type: "leave"});
      } else if (action === "play-bot") {
        send({type: "play_bot", level: part(panel, "pool-level").value});
      }
    });
  });
  connect();
})();
