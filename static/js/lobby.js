/* The lobby of one game: the live table list from /ws/lobby/<game>/ and the create-table form.
 * Strings come from the translated JSON dictionary #lobby-i18n. */
import { el } from "./lib/dom.js";
import { fmt } from "./lib/fmt.js";
import { reconnectDelay } from "./lib/reconnect.js";

(function () {
  function readJSON(id) {
    var node = document.getElementById(id);
    if (!node) return null;
    try { return JSON.parse(node.textContent); } catch (e) { return null; }
  }
  var I18N = readJSON("lobby-i18n") || {};
  function t(key, params) {
    var s = I18N[key] !== undefined ? I18N[key] : key;
    return fmt(s, params);
  }

  var app = document.getElementById("lobby-app");
  if (!app) return;
  var game = app.dataset.game;
  var SEATS = Number(app.dataset.seats) || 4;      // the engine's seat count (lobby/views.py lobby)

  function tableUrl(id) {
    var pattern = app.dataset.tableUrl || "/table/0/";
    return pattern.replace(/0(\/?)$/, id + "$1");
  }
  function variantLabel(v) { return I18N["variant_" + v] || v; }

  /* ---------------------------------------------------------------- create form */
  var form = document.getElementById("create-form");
  if (form) {
    var select = document.getElementById("id_variant");
    var variants = readJSON("lobby-variants") || [];
    if (variants && !Array.isArray(variants) && typeof variants === "object") {
      variants = Object.keys(variants).map(function (k) { return [k, variants[k]]; });
    }
    variants.forEach(function (v) {
      var value = Array.isArray(v) ? v[0] : (v && typeof v === "object") ? (v.value || v.code || v.name) : v;
      var label = Array.isArray(v) ? v[1] : (v && typeof v === "object") ? (v.label || v.name) : null;
      var opt = el("option", "", I18N["variant_" + value] || label || value);
      opt.value = value;
      select.appendChild(opt);
    });
    var fields = document.getElementById("seat-fields");
    var tpl = document.getElementById("seat-template");
    var seatLabel = readJSON("lobby-seat-label") || "{n}";
    for (var i = 1; i < SEATS; i++) {
      var node = tpl.content.firstElementChild.cloneNode(true);
      node.querySelector(".seat-label").textContent = seatLabel.replace("{n}", i + 1);
      var sel = node.querySelector("select");
      sel.name = "seat_" + i;      // open for a player unless the creator picks a bot
      fields.appendChild(node);
    }
  }

  /* ---------------------------------------------------------------- live list */
  var rows = document.getElementById("lobby-rows");
  var conn = document.getElementById("lobby-conn");
  /* The list's connection, said in words (a coloured dot alone told nobody anything). */
  function setConn(state) {
    conn.className = "conn conn-" + state;
    conn.textContent = t("conn_" + state);
    conn.title = t("conn_" + state + "_title");
  }

  var me = app.dataset.me;      // the viewer's name ("" for a visitor), as the seats carry it
  function render(tables) {
    while (rows.firstChild) rows.removeChild(rows.firstChild);
    if (!tables.length) {
      var tr = el("tr");
      var td = el("td", "lobby-empty", t("no_tables"));
      td.colSpan = 6;
      tr.appendChild(td);
      rows.appendChild(tr);
      return;
    }
    tables.forEach(function (tb) {
      var tr = el("tr");
      tr.setAttribute("data-table", tb.id);
      tr.appendChild(el("td", "", String(tb.id)));
      var seats = el("td");
      var list = el("div", "seat-list");
      var open = 0;
      // One bot user per level: "Bot (strong)", numbered by seat where two seats have that level.
      var botLevel = function (s) { return s.is_bot && s.name && s.name.indexOf("bot:") === 0 ? (s.bot_level || s.name.slice(4)) : null; };
      var levels = (tb.seats || []).map(botLevel);
      (tb.seats || []).forEach(function (s) {
        var chip, level = botLevel(s);
        var same = levels.filter(function (l) { return l === level; }).length;
        if (!s.name) { open++; chip = el("span", "seat-chip open", t("open_seat")); }
        else chip = el("span", "seat-chip" + (s.is_bot ? " bot" : ""), !level ? s.name :
          t(same > 1 ? "bot_seat" : "bot_name", { n: s.seat + 1, level: t("level_" + level) }));
        chip.title = chip.textContent;   // a long name is cut with an ellipsis: the whole of it on hover
        if (s.bot_account) {             // a bot account (the bot API): marked wherever its name is
          var badge = el("span", "badge bot-account", t("bot_account"));
          badge.title = t("bot_account_title");
          chip.appendChild(document.createTextNode(" "));
          chip.appendChild(badge);
        }
        list.appendChild(chip);
      });
      seats.appendChild(list);
      tr.appendChild(seats);
      var vt = el("td");
      vt.appendChild(document.createTextNode(variantLabel(tb.variant) + " "));
      vt.appendChild(el("span", "tag" + (tb.rated ? " rated" : ""), tb.rated ? t("rated") : t("unrated")));
      if (tb.bots_allowed) {
        vt.appendChild(document.createTextNode(" "));
        vt.appendChild(el("span", "tag bots-allowed", t("bots_allowed")));
      }
      tr.appendChild(vt);
      var tc = tb.time_control || {};
      tr.appendChild(el("td", "hide-narrow", t("clock", { min: Math.round((tc.bank_seconds || 0) / 60 * 10) / 10, inc: tc.increment_seconds || 0 })));
      var st = el("td");
      st.appendChild(el("span", "tag status-" + tb.status, t("status_" + tb.status)));
      tr.appendChild(st);
      var act = el("td");
      var url = tableUrl(tb.id);
      var link = function (cls, label, href, action) {
        var a = el("a", "btn small" + cls, t(label));
        a.href = href;
        a.setAttribute("data-action", action);
        act.appendChild(a);
      };
      // The viewer's own table: back to it, not "Watch" (nor "Join": he sits there already).
      if (me && (tb.seats || []).some(function (s) { return s.name === me && !s.is_bot; })) {
        link(" primary", "your_table", url, "mine");
      } else {
        if (tb.status === "waiting" && open > 0) {
          link(" primary", "join", url + (url.indexOf("?") < 0 ? "?" : "&") + "sit=1", "join");
          act.appendChild(document.createTextNode(" "));
        }
        link("", "watch", url, "watch");
      }
      tr.appendChild(act);
      rows.appendChild(tr);
    });
  }

  var retry = 0;
  function connect() {
    var u = app.dataset.wsUrl || ("/ws/lobby/" + game + "/");
    if (!/^wss?:/.test(u)) u = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + u;
    var ws = new WebSocket(u);
    setConn(retry ? "lost" : "connecting");
    ws.onopen = function () { retry = 0; setConn("online"); };
    ws.onmessage = function (ev) {
      var msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      if (msg.type === "tables") render(msg.tables || []);
    };
    ws.onclose = function () {
      setConn("lost");
      setTimeout(connect, reconnectDelay(retry++));
    };
  }
  connect();
})();
