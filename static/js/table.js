/* The live table client. It is driven only by server messages (docs/PROTOCOL.md): every
 * snapshot/update replaces the state and the whole table is re-rendered from it. The client never
 * decides what is legal: it shows view.legal and sends the chosen action object with the version
 * of the last snapshot/update. UI strings come from the translated JSON dictionary #table-i18n. */
(function () {
  "use strict";

  var C = window.Cards, el = C.el, FX = window.TableFx;

  function readJSON(id) {
    var node = document.getElementById(id);
    if (!node) return null;
    try {
      var value = JSON.parse(node.textContent);
      if (typeof value === "string") { try { value = JSON.parse(value); } catch (e) { /* plain */ } }
      return value;
    } catch (e) { return null; }
  }

  var I18N = readJSON("table-i18n") || {};
  function t(key, params) {
    var s = I18N[key] !== undefined ? I18N[key] : key;
    if (params) {
      s = s.replace(/\{(\w+)\}/g, function (m, k) { return params[k] !== undefined ? params[k] : m; });
    }
    return s;
  }

  var app = document.getElementById("table-app");
  if (!app) return;
  var boot = readJSON("table-boot") || {};
  var data = app.dataset;

  function first() {
    for (var i = 0; i < arguments.length; i++) {
      var v = arguments[i];
      if (v !== undefined && v !== null && v !== "" && v !== "None") return v;
    }
    return null;
  }

  var tableId = first(data.tableId, boot.table_id, boot.id,
                      (location.pathname.match(/(\d+)\/?$/) || [])[1]);
  var invite = first(data.invite, boot.invite, boot.invite_token,
                     new URLSearchParams(location.search).get("invite"));
  var lobbyUrl = first(data.lobbyUrl, boot.lobby_url, "/");

  var S = {
    version: null, table: null, view: null, you: null, chat: [],
    busy: false, busyTimer: null, selected: [], marriageFor: null,
    overlay: null, overlayDismissed: {}, ws: null, retry: 0, conn: "connecting",
    clockAt: Date.now(), skew: 0, gotSnapshot: false
  };
  /* ``presenting()``: the middle of the table is still showing a finished trick (held, or
   * sweeping to its winner); the prompt and the playable marks wait for it (tests read this). */
  window.tableClient = { state: S, t: t, presenting: function () { return !trickStage().idle(); } };

  var $ = function (sel) { return app.querySelector(sel); };

  /* ---------------------------------------------------------------- socket */
  function wsUrl() {
    var u = first(data.wsUrl, boot.ws_url, boot.ws_path, "/ws/table/" + tableId + "/");
    if (!/^wss?:/.test(u)) u = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + u;
    if (invite && u.indexOf("invite=") < 0) {
      u += (u.indexOf("?") < 0 ? "?" : "&") + "invite=" + encodeURIComponent(invite);
    }
    return u;
  }

  function connect() {
    setConn("connecting");
    var ws;
    try { ws = new WebSocket(wsUrl()); } catch (e) { scheduleReconnect(); return; }
    S.ws = ws;
    S.gotSnapshot = false;
    ws.onopen = function () {
      S.retry = 0;
      setConn("online");
      // The server sends a snapshot on connect; ask for one if it does not come.
      setTimeout(function () { if (S.ws === ws && !S.gotSnapshot) send({ type: "sync" }); }, 1500);
    };
    ws.onmessage = function (ev) {
      var msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      handle(msg);
    };
    ws.onclose = function (ev) {
      if (S.ws !== ws) return;
      S.ws = null;
      clearBusy();
      if (ev.code === 4403 || ev.code === 4404 || ev.code === 4401) {
        setConn("forbidden");
        render();
        return;
      }
      scheduleReconnect();
      render();
    };
  }

  function scheduleReconnect() {
    setConn("lost");
    var delay = Math.min(15000, 500 * Math.pow(2, S.retry++)) * (0.8 + Math.random() * 0.4);
    setTimeout(connect, delay);
  }

  function send(obj) {
    if (!S.ws || S.ws.readyState !== 1) { toast(t("not_connected")); return false; }
    S.ws.send(JSON.stringify(obj));
    return true;
  }

  /* Send an action once, with the version it was chosen on. A refusal comes back as an error and
   * is shown; the server accepts a simultaneous action (the hearts pass) whatever the version
   * while the seat still owes it, so nothing is ever sent again. */
  function act(action) {
    if (S.busy) return;
    if (send({ type: "action", version: S.version, action: action })) {
      trickStage().hurry();   // the held trick makes way for the player's move
      S.busy = true;
      S.busyTimer = setTimeout(function () { clearBusy(); render(); }, 6000);
      S.marriageFor = null;
      render();
    }
  }

  function clearBusy() {
    S.busy = false;
    if (S.busyTimer) { clearTimeout(S.busyTimer); S.busyTimer = null; }
  }

  function setConn(state) {
    S.conn = state;
    var node = $("#conn-status");
    if (!node) return;
    node.className = "conn conn-" + state;
    node.textContent = t("conn_" + state);
  }

  /* ---------------------------------------------------------------- messages */
  function handle(msg) {
    switch (msg.type) {
      case "snapshot":
        S.gotSnapshot = true;
        S.live = false;     // a whole new picture: shown as it is, nothing travels
        accept(msg);
        S.chat = msg.chat || [];
        pmSnapshot(msg);        /* players' menu: who I am, whom I muted */
        S.ratings = msg.ratings || null;
        if (msg.invite) S.invite = msg.invite;
        autoSit();
        renderChat();
        followRematch();
        break;
      case "update":
        if (S.version !== null && typeof msg.version === "number" && msg.version < S.version) return;
        S.live = true;      // what changed may be shown happening (table_fx.js)
        accept(msg);
        (msg.events || [msg.event]).forEach(bubbleFor);
        onEvent(msg.event);
        break;
      case "chat":
        if (msg.message) { S.chat.push(msg.message); appendChat(msg.message); }
        return;
      case "muted": case "reported":      /* players' menu */
        pmMessage(msg);
        return;
      case "ratings":
        S.ratings = msg.changes || null;
        (S.ratings || []).forEach(function (r) { if (S.seatRatings) S.seatRatings[r.seat] = r.after; });
        break;
      case "error":
        if (SEED_REFUSALS.indexOf(msg.code) >= 0) return;   /* a seed that came too late: nothing to show */
        // A stale action (someone moved first) is followed by a snapshot that shows what changed.
        clearBusy();
        toast(msg.reason || msg.code, "error");
        render();
        return;
      default:
        return;
    }
    addSeed();
    render();
  }

  /* Provably fair deals (docs/FAIRNESS.md): the server commits to the next deal's seed (its
   * SHA-256, table.fair.next) before the deal; a player's client then adds its own random seed,
   * once per commitment, so neither the server nor a player alone chooses the cards. */
  var SEED_REFUSALS = ["seed_too_late", "already_seeded"];
  var seededFor = {};
  var announced = {};      /* deal number -> the commitment announced before it was drawn */
  function addSeed() {
    var fair = S.table && S.table.fair;
    var next = fair && fair.next, dealt = fair && fair.deal;
    if (next) announced[next.deal_number] = next.commitment;
    if (dealt && announced[dealt.deal_number] && announced[dealt.deal_number] !== dealt.commitment) {
      delete announced[dealt.deal_number];
      toast(t("fair_commitment_changed"), "error");
    }
    var me = mySeat();
    if (!next || me === null || seededFor[next.commitment]) return;
    seededFor[next.commitment] = true;
    if ((next.seeded || []).indexOf(me) >= 0 || !window.crypto || !crypto.getRandomValues) return;
    var bytes = new Uint8Array(32);
    crypto.getRandomValues(bytes);
    var hex = Array.prototype.map.call(bytes, function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
    if (S.ws && S.ws.readyState === 1) S.ws.send(JSON.stringify({ type: "seed", commitment: next.commitment, seed: hex }));
  }

  function accept(msg) {
    var oldDeal = S.view ? S.view.deal_number : null;
    S.version = msg.version;
    if (msg.table) S.table = msg.table;
    S.view = msg.view || null;
    if (msg.you !== undefined) S.you = msg.you;
    if (msg.seat_ratings !== undefined) S.seatRatings = msg.seat_ratings;     // snapshots only
    S.clockAt = Date.now();
    var serverNow = first(msg.now, msg.server_time, S.table && S.table.clocks && S.table.clocks.now);
    if (typeof serverNow === "number") S.skew = serverNow - Date.now();
    clearBusy();
    var newDeal = S.view ? S.view.deal_number : null;
    if (newDeal !== oldDeal) { S.selected = []; S.marriageFor = null; }
    if (!S.view || !S.view.claim) S.confirmClaim = null;
    // keep only selected cards still in hand
    var hand = (S.view && S.view.hand) || [];
    S.selected = S.selected.filter(function (c) { return hand.indexOf(c) >= 0; });
  }

  /* "Join" in the lobby links here with ?sit=1: take the first open seat once. */
  var wantSit = new URLSearchParams(location.search).has("sit");
  function autoSit() {
    if (!wantSit || mySeat() !== null || !S.table || S.table.status !== "waiting") return;
    var open = (S.table.seats || []).filter(function (x) { return !x.name; })[0];
    if (open) { wantSit = false; send({ type: "sit", seat: open.seat }); }
  }

  function onEvent(ev) {
    if (!ev) return;
    if (ev.kind === "deal_end" && ev.result) {
      FX.sound.play("deal_end");
      showOverlay("deal", ev.result, S.view ? S.view.deal_number : null);
    } else if (ev.kind === "match_end") {
      showOverlay("match", ev.result || null, "match");
    } else if (ev.kind === "rematch") {
      onRematch(ev);
    }
  }

  /* ---------------------------------------------------------------- helpers */
  /* The game as the engine describes it (table JSON "rules": seats, teams in score-column order,
   * target, the result key of a deal's points): the client names no game to decide a rule. */
  function rules() { return (S.table && S.table.rules) || null; }
  function nSeats() {
    if (S.table && S.table.seats && S.table.seats.length) return S.table.seats.length;
    if (S.view && S.view.players) return S.view.players.length;
    if (rules()) return rules().seats;
    return boot.seats || 4;
  }
  function teams() {
    if (rules() && rules().teams) return rules().teams;
    var alone = [];
    for (var s = 0; s < nSeats(); s++) alone.push([s]);
    return alone;
  }
  function perTeam(perSeat) {
    return teams().map(function (team) {
      return team.reduce(function (sum, seat) { return sum + (perSeat[seat] || 0); }, 0);
    });
  }
  function game() { return (S.table && S.table.game) || (S.view && S.view.game) || data.game || boot.game; }
  function mySeat() { return typeof S.you === "number" ? S.you : null; }
  function position(seat) {
    var n = nSeats(), me = mySeat() === null ? 0 : mySeat();
    var rel = (seat - me + n) % n;
    if (n === 2) return rel === 0 ? "bottom" : "top";
    return ["bottom", "left", "top", "right"][rel];
  }
  /* A bot seat's wire name is "bot:<level>" (one bot user per level): shown translated as
   * "Bot (strong)", with its seat number where another seat has a bot of the same level ("Bot 2
   * (random)", "Bot 3 (random)"), as every page says it (games/labels.py). A seat a bot took over
   * keeps its player's name (and gets a bot badge). */
  function isBotName(name) { return typeof name === "string" && name.indexOf("bot:") === 0; }
  function botLevelAt(seat) {
    var info = S.table && S.table.seats && S.table.seats[seat];
    if (info && info.name) return info.is_bot && isBotName(info.name) ? (info.bot_level || info.name.slice(4)) : null;
    var pl = S.view && S.view.players && S.view.players[seat];
    return isBotName(pl) ? pl.slice(4) : null;
  }
  function botSeatName(seat, level) {
    var same = 0;
    for (var s = 0; s < nSeats(); s++) if (botLevelAt(s) === level) same++;
    var label = t("level_" + (level || "random"));
    return same > 1 ? t("bot_seat", { n: seat + 1, level: label }) : t("bot_name", { level: label });
  }
  function seatName(seat) {
    var info = S.table && S.table.seats && S.table.seats[seat];
    var level = botLevelAt(seat);
    if (level) return botSeatName(seat, level);
    if (info && info.name) return info.name;
    if (S.view && S.view.players && S.view.players[seat]) return S.view.players[seat];
    return t("seat_n", { n: seat + 1 });
  }
  function toAct() {
    if (S.table && S.table.status === "finished") return [];     // a forfeit leaves its deal unfinished
    if (S.view && S.view.to_act && !S.view.over) return S.view.to_act;
    if (S.table && S.table.clocks && S.table.clocks.to_act) return S.table.clocks.to_act;
    return [];
  }
  function legal() { return (S.view && S.table && S.table.status !== "finished" && S.view.legal) || []; }
  function legalPlays() {
    var map = {};
    legal().forEach(function (a) {
      if (a.type === "play") (map[a.card] = map[a.card] || []).push(a);
    });
    return map;
  }
  function fmtClock(ms) {
    if (ms === null || ms === undefined) return "";
    ms = Math.max(0, ms);
    var s = Math.ceil(ms / 1000), m = Math.floor(s / 60);
    s = s % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }
  function clockMs(seat) {
    var cl = S.table && S.table.clocks;
    if (!cl) return null;
    var tc = S.table.time_control;
    if (tc && !tc.bank_seconds && !tc.increment_seconds) return null;
    var running = cl.running ? cl.running.indexOf(seat) >= 0 : (cl.to_act || []).indexOf(seat) >= 0;
    var deadline = cl.deadlines ? cl.deadlines[seat] : running ? cl.deadline : null;
    if (running && deadline) return deadline - (Date.now() + S.skew);
    var acting = running;
    if (cl.banks_ms && cl.banks_ms[seat] !== undefined && cl.banks_ms[seat] !== null) {
      if (acting && S.table.status === "playing") return cl.banks_ms[seat] - (Date.now() - S.clockAt);
      return cl.banks_ms[seat];
    }
    return null;
  }
  function button(label, onClick, cls, attrs) {
    var b = el("button", "btn" + (cls ? " " + cls : ""), label);
    b.type = "button";
    if (S.busy) b.disabled = true;
    b.addEventListener("click", onClick);
    if (attrs) Object.keys(attrs).forEach(function (k) { b.setAttribute(k, attrs[k]); });
    return b;
  }
  function clear(node) { while (node && node.firstChild) node.removeChild(node.firstChild); return node; }

  /* ---------------------------------------------------------------- render */
  function render() {
    app.classList.toggle("busy", S.busy);
    app.setAttribute("data-phase", (S.view && S.view.phase) || "");
    app.setAttribute("data-status", (S.table && S.table.status) || "");
    app.setAttribute("data-version", S.version === null ? "" : S.version);
    renderHeader();
    renderSeats();
    renderCenter();
    renderPrompt();
    renderLeaver();     /* leavers: away seats, claiming the win */
    renderHand();
    renderMine();
    renderScores();
    renderLastTrick();
    maybeOverlay();
    renderOverlay();
    signalTurn();
    setConn(S.conn);
  }

  /* Our turn: a chime when it begins (not on a reload) and the tab's title and icon say so. */
  function myTurnNow() {
    var me = mySeat(), tb = S.table;
    return me !== null && !!S.view && !!tb && tb.status === "playing" && toAct().indexOf(me) >= 0 && legal().length > 0;
  }
  function signalTurn() {
    var mine = myTurnNow();
    if (mine && S.wasMyTurn === false && S.live) FX.sound.play("turn");
    S.wasMyTurn = mine;
    var title = $(".table-title strong");
    FX.turnSignal(mine, t("your_turn") + " \u2014 " + (title ? title.textContent.trim() + " " : "") + "#" + tableId);
  }

  /* The page's first Tab stops (templates/games/table.html): "Skip to your cards" lands on the card
   * the hand offers to Tab (a playable one when it is our turn), "Skip to the actions" on the
   * prompt's first button (the claim of a leaver's win first); each falls back to its region. */
  var SKIP_TARGETS = {
    hand: ["#hand button.card[tabindex='0']", "#hand"],
    actions: ["#leaver-bar:not([hidden]) button:not([disabled])", "#prompt button:not([disabled])", "#prompt"]
  };
  function bindSkipLinks() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-skip-to]"), function (link) {
      link.addEventListener("click", function (e) {
        var found = null;
        (SKIP_TARGETS[link.getAttribute("data-skip-to")] || []).some(function (sel) { return (found = $(sel)); });
        if (!found) return;
        e.preventDefault();
        found.focus();
      });
    });
  }

  /* The table's settings: the sound switch and the four-colour deck, both remembered. */
  function bindSettings() {
    var sound = document.getElementById("sound-on"), four = document.getElementById("four-colour");
    if (sound) {
      sound.checked = FX.sound.enabled();
      sound.addEventListener("change", function () { FX.sound.setEnabled(sound.checked); });
    }
    var applyFour = function (on) { app.classList.toggle("four-colour", on); };
    applyFour(FX.prefs.get("four_colour", "off") === "on");
    if (four) {
      four.checked = app.classList.contains("four-colour");
      four.addEventListener("change", function () {
        FX.prefs.set("four_colour", four.checked ? "on" : "off");
        applyFour(four.checked);
      });
    }
  }

  function renderHeader() {
    var tb = S.table;
    var node = $("#table-status");
    if (!node) return;
    var parts = [];
    if (tb) {
      parts.push(t("status_" + tb.status));
      if (tb.match && typeof tb.match.deal_number === "number" && tb.status !== "waiting") {
        var cut = tb.status === "finished" && S.view && !S.view.over;     // a forfeit mid-deal
        parts.push(t("deal_n", { n: tb.match.deal_number + (tb.status === "playing" || cut ? 1 : 0) }));
      }
    }
    node.textContent = parts.join(" \u00b7 ");
    var inv = $("#invite-box");
    if (inv) {
      var token = S.invite || invite;
      if (tb && tb.private && token && tb.status === "waiting") {
        inv.hidden = false;
        var input = inv.querySelector("input");
        var link = location.origin + location.pathname + "?invite=" + encodeURIComponent(token);
        if (input.value !== link) input.value = link;
      } else inv.hidden = true;
    }
    var role = $("#my-role");
    if (role) role.textContent = mySeat() === null ? t("spectating") : t("you_sit", { n: mySeat() + 1 });
  }

  function renderSeats() {
    var felt = $("#felt");
    var n = nSeats();
    app.classList.toggle("two-seats", n === 2);
    var acting = toAct();
    var v = S.view, tb = S.table;
    var waiting = tb && tb.status === "waiting";
    for (var seat = 0; seat < 4; seat++) {
      var box = felt.querySelector('.seat-box[data-slot="' + seat + '"]');
      if (!box) continue;
      if (seat >= n) { box.hidden = true; continue; }
      box.hidden = false;
      var pos = position(seat);
      box.className = "seat-box pos-" + pos + (acting.indexOf(seat) >= 0 ? " acting" : "") +
        (seat === mySeat() ? " mine" : "");
      box.setAttribute("data-seat", seat);
      clear(box);
      var info = tb && tb.seats ? tb.seats[seat] : null;
      var head = el("div", "seat-head");
      var name = el("span", "seat-name", info && !info.name ? t("empty_seat") : seatName(seat));
      name.classList.add("long-name");
      name.title = name.textContent;
      if (info && info.name) head.appendChild(avatar(name.textContent));
      head.appendChild(pmSeatName(name, info));     /* players' menu: a button for another player */
      if (info && info.is_bot && !isBotName(info.name)) head.appendChild(el("span", "badge bot", t("bot_" + (info.bot_level || "basic"))));
      if (info && info.bot_account && !info.is_bot) {   // a bot account (the bot API)
        var botBadge = el("span", "badge bot-account", t("bot_account"));
        botBadge.title = t("bot_account_title");
        head.appendChild(botBadge);
      }
      // Away: during a match the server says so (away_since, after a grace: leaverBadge); before
      // it, a seated player with no socket open is simply not at the table.
      if (!leaverBadge(head, seat) && info && info.name && !info.is_bot && info.connected === false &&
          tb && tb.status === "waiting") head.appendChild(el("span", "badge away", t("away")));
      if (v && v.dealer === seat) head.appendChild(el("span", "badge dealer", t("dealer_short")));
      box.appendChild(head);

      var line = el("div", "seat-line");
      var ms = clockMs(seat);
      if (ms !== null && tb && tb.status !== "waiting" && !(info && info.is_bot)) {   // a bot has no clock
        var clock = el("span", "clock" + (ms < 15000 && acting.indexOf(seat) >= 0 ? " low" : ""), fmtClock(ms));
        clock.setAttribute("data-clock-seat", seat);
        line.appendChild(clock);
      }
      var rating = info && info.name && S.seatRatings ? S.seatRatings[seat] : null;
      if (typeof rating === "number") {
        var rated = el("span", "stat seat-rating", t("rating_n", { n: rating }));
        rated.setAttribute("data-rating-seat", seat);
        line.appendChild(rated);
      }
      if (v) {
        line.appendChild(el("span", "stat", t("tricks_n", { n: (v.tricks_won || [])[seat] || 0 })));
        if (v.points_taken) line.appendChild(el("span", "stat", t("points_n", { n: v.points_taken[seat] })));
        if (v.bids) {
          var bid = v.bids[seat];
          var txt = v.blind_nil && v.blind_nil[seat] ? t("blind_nil") :
            bid === null || bid === undefined ? t("bid_none") : bid === 0 ? t("nil") : String(bid);
          line.appendChild(el("span", "stat bid", t("bid_is", { bid: txt })));
        }
      }
      box.appendChild(line);

      if (v && seat !== mySeat() && v.hand_sizes) {
        var backs = el("div", "mini-backs");
        var k = v.hand_sizes[seat] || 0;
        for (var i = 0; i < Math.min(k, 13); i++) backs.appendChild(el("span", "mini-back"));
        backs.setAttribute("title", String(k));
        box.appendChild(backs);
      }
      if (waiting && info && !info.name && mySeat() === null) {
        (function (s) {
          box.appendChild(button(t("sit"), function () { send({ type: "sit", seat: s }); }, "small", { "data-action": "sit" }));
        })(seat);
      }
      if (waiting && seat === mySeat()) {
        box.appendChild(button(t("leave"), function () { send({ type: "leave" }); }, "small subtle", { "data-action": "leave" }));
      }
      if (v && v.phase === "pass" && v.waiting_for_pass && v.waiting_for_pass.indexOf(seat) < 0) {
        box.appendChild(el("div", "seat-note", t("has_passed")));
      }
    }
  }

  /* A player's picture: the initials of the name shown, on a colour that follows from that name (the
   * same at every table; two bots of a level differ by their numbers). Decorative: the name beside
   * it says who it is. */
  var AVATAR_COLOURS = 8;
  function avatar(name) {
    var hash = 0;
    for (var i = 0; i < name.length; i++) hash = (hash * 31 + name.charCodeAt(i)) >>> 0;
    var node = el("span", "avatar avatar-" + (hash % AVATAR_COLOURS), initials(name));
    node.setAttribute("aria-hidden", "true");
    return node;
  }
  /* "Ala Kot" AK, "Bot 2 (basic)" B2, "guest-f1a2b3" and "guest-614233" GU (a code with digits
   * is no initial; a seat's number of one or two digits is), "demo" DE. The pages' initials filter
   * (games/templatetags/game_labels.py) follows the same rule. */
  function initials(name) {
    var words = name.split(/[^0-9A-Za-z\u00C0-\u024F\u0370-\u03FF\u0400-\u04FF]+/).filter(Boolean);
    if (!words.length) return name.charAt(0).toUpperCase();
    var second = words[1] || "";
    var usable = /^\d{1,2}$/.test(second) || (second && !/\d/.test(second));
    return (usable ? words[0].charAt(0) + second.charAt(0) : words[0].slice(0, 2)).toUpperCase();
  }

  /* The middle of the table: the trick lives on a stage that keeps its cards between renders
   * (table_fx.js: cards travel in from their seats, a finished trick stays readable, then sweeps
   * to its winner); the talon and notes around it are redrawn each time. */
  function renderCenter() {
    var area = $("#trick-area"), stage = trickStage();
    Array.prototype.slice.call(area.children).forEach(function (c) { if (c !== stage.node) area.removeChild(c); });
    if (stage.node.parentNode !== area) area.appendChild(stage.node);
    var v = S.view;
    if (!v) {
      stage.reset();
      area.appendChild(el("div", "center-note", S.table && S.table.status === "waiting" ? t("waiting_players") : ""));
      return;
    }
    var showsLast = v.phase !== "pass" && v.phase !== "bid" && v.phase !== "blind_nil";
    if (v.phase === "pass" && v.pass_direction) {     // Hearts: which way the three cards go
      var big = el("div", "pass-center pass-" + v.pass_direction, PASS_ARROW[v.pass_direction] || "");
      big.setAttribute("aria-hidden", "true");
      area.appendChild(big);
    }
    stage.update({ trick: v.trick || [], last_trick: showsLast ? v.last_trick : null }, !!S.live, FX.motionAllowed(),
                 myTurnNow());
    if (v.stock_size !== undefined) renderTalon(area, v);     // a game with a talon (sixty-six)
  }

  var stageInstance = null;
  function trickStage() {
    if (stageInstance) return stageInstance;
    stageInstance = new FX.TrickStage({
      slotClass: function (seat) { return "pos-" + position(seat); },
      face: function (card) { return C.face(card); },
      origin: cardOrigin,
      winnerRect: seatRect,
      onCard: function () { FX.sound.play("card"); },
      onIdle: function () { render(); }     // the result box waits for the last trick's sweep
    });
    return stageInstance;
  }

  /* Where a played card comes from: the card itself in our hand, else its player's seat box. */
  function cardOrigin(seat, card) {
    var inHand = seat === mySeat() && $('#hand [data-card="' + card + '"]');
    if (inHand) return inHand.getBoundingClientRect();
    return seatRect(seat);
  }
  function seatRect(seat) {
    var box = $('.seat-box[data-seat="' + seat + '"]');
    return box && !box.hidden ? box.getBoundingClientRect() : null;
  }

  function renderTalon(area, v) {
    var talon = el("div", "talon");
    var stock = el("div", "stock");
    var size = v.stock_size || 0;
    if (v.trump_card && !v.closed) {
      var tc = C.face(v.trump_card);
      tc.classList.add("trump-card");
      stock.appendChild(tc);
    } else if (v.closed && (size > 0 || v.trump_card)) {
      stock.appendChild(C.back("trump-card closed"));
    }
    if (size > (v.trump_card ? 1 : 0) || (v.closed && size > 0)) stock.appendChild(C.back("stock-pile"));
    talon.appendChild(stock);
    var suit = v.trump_suit;
    var lbl = el("div", "talon-label");
    if (suit) {
      var sym = el("span", "trump-suit suit-" + suit + " " + (suit === "H" || suit === "D" ? "red" : "black"), C.SUIT_SYMBOL[suit]);
      lbl.appendChild(document.createTextNode(t("trump") + " "));
      lbl.appendChild(sym);
    }
    talon.appendChild(lbl);
    talon.appendChild(el("div", "talon-label stock-size", t("stock_n", { n: size })));
    if (v.closed) {
      var by = v.closed_by;
      talon.appendChild(el("div", "talon-label closed-note",
        by === null || by === undefined ? t("closed") : t("closed_by", { name: seatName(by) })));
    }
    area.appendChild(talon);
  }

  function renderPrompt() {
    var box = clear($("#prompt"));
    var text = el("div", "prompt-text");
    var actions = el("div", "prompt-actions");
    box.appendChild(text);
    box.appendChild(actions);
    var v = S.view, tb = S.table, me = mySeat();
    if (S.conn === "forbidden") { text.textContent = t("forbidden"); return; }
    if (!tb) { text.textContent = t("conn_connecting"); return; }
    if (tb.status === "waiting" || !v) {
      text.textContent = t("waiting_players");
      var full = tb.seats && tb.seats.every(function (s) { return !!s.name; });
      if (me !== null && full && isOwner()) {
        actions.appendChild(button(t("start"), function () { send({ type: "start" }); }, "primary", { "data-action": "start" }));
      }
      // A visitor may take an open seat as a guest: the header's guest form brings him back here
      // (with ?sit=1 from the lobby's Join, he sits at once).
      var guestForm = document.querySelector("form[data-guest-form]");
      if (!boot.user && !full && guestForm) {
        text.textContent = t("waiting_players") + " \u00b7 " + t("sit_as_guest_hint");
        actions.appendChild(button(t("sit_as_guest"), function () {
          var next = guestForm.querySelector("input[name=next]");
          if (next) next.value = location.pathname + "?sit=1" + (invite ? "&invite=" + encodeURIComponent(invite) : "");
          guestForm.submit();
        }, "primary", { "data-action": "sit-as-guest" }));
      }
      return;
    }
    if (v.over || tb.status === "finished") {
      text.textContent = tb.status === "finished" || (tb.match && tb.match.over) ? t("match_over") : t("deal_over");
      return;
    }
    var acting = toAct();
    var mine = me !== null && acting.indexOf(me) >= 0 && legal().length > 0;
    var others = acting.filter(function (s) { return s !== me; }).map(seatName);
    // The finished trick is still on the felt: the turn is asked once the trick it is about shows.
    if (mine && !trickStage().idle()) return;

    if (v.phase === "pass") return promptPass(text, actions, v, mine, others);
    if (mine) {
      text.textContent = t("your_turn");
      text.classList.add("mine");
    } else if (others.length) {
      text.textContent = t("waiting_for", { names: others.join(", ") });
    }
    if (!mine) return;

    var extra = legal().filter(function (a) { return a.type !== "play"; });
    if (v.phase === "blind_nil" || v.phase === "bid") return promptBid(text, actions, v, extra);
    if (v.phase === "moon") {
      text.textContent = t("moon_prompt");
      extra.forEach(function (a) {
        actions.appendChild(button(t("moon_" + a.choice), function () { act(a); }, "primary", { "data-action": "moon-" + a.choice }));
      });
      return;
    }
    if (v.stock_size !== undefined) return promptSixtySix(text, actions, v, extra);
    text.textContent = t("your_turn_play");
  }

  var PASS_ARROW = { left: "\u2190", right: "\u2192", across: "\u2191", none: "\u2022" };
  function passArrow(dir) {
    var node = el("span", "pass-arrow pass-" + dir, PASS_ARROW[dir] || "");
    node.setAttribute("aria-hidden", "true");
    return node;
  }

  function promptPass(text, actions, v, mine, others) {
    var dir = v.pass_direction;
    if (mine) {
      text.textContent = t("pass_" + dir) + " \u00b7 " + t("selected_n", { n: S.selected.length });
      text.classList.add("mine");
      var b = button(t("confirm_pass"), function () {
        if (S.selected.length === 3) act({ type: "pass", cards: S.selected.slice() });
      }, "primary", { "data-action": "pass" });
      if (S.selected.length !== 3) b.disabled = true;
      actions.appendChild(b);
    } else if (mySeat() !== null && (v.passed || []).length) {
      text.textContent = t("passed_wait");
    } else {
      text.textContent = t("pass_" + dir) + (others.length ? " \u00b7 " + t("waiting_for", { names: others.join(", ") }) : "");
    }
    text.insertBefore(passArrow(dir), text.firstChild);
  }

  function promptBid(text, actions, v, extra) {
    if (v.phase === "blind_nil") {
      text.textContent = t("blind_prompt");
      extra.forEach(function (a) {
        actions.appendChild(button(a.accept ? t("blind_accept") : t("blind_decline"), function () { act(a); },
          a.accept ? "danger" : "primary", { "data-action": a.accept ? "blind-accept" : "blind-decline" }));
      });
      return;
    }
    if (v.phase === "bid") {
      text.textContent = t("bid_prompt");
      var row = el("div", "bid-row");
      extra.filter(function (a) { return a.type === "bid"; })
        .sort(function (a, b) { return a.tricks - b.tricks; })
        .forEach(function (a) {
          row.appendChild(button(a.tricks === 0 ? t("nil") : String(a.tricks), function () { act(a); },
            "bid" + (a.tricks === 0 ? " nil" : ""), { "data-bid": a.tricks }));
        });
      actions.appendChild(row);
    }
  }

  function marriagePoints(card, v) {
    return C.suitOf(card) === v.trump_suit ? 40 : 20;
  }

  function promptSixtySix(text, actions, v, extra) {
    text.textContent = legal().some(function (a) { return a.type === "play"; }) && !(v.trick || []).length ?
      t("your_lead") : t("your_turn_play");
    extra.forEach(function (a) {
      var key = a.type; // exchange | close | declare
      var declare = key === "declare";
      actions.appendChild(button(t("act_" + key), function () { declare ? claim(a) : act(a); },
        declare && !claimShort(a) ? "primary" : "", { "data-action": key }));
    });
    if (S.confirmClaim) return confirmClaimBox(actions);
    if (S.marriageFor) {
      var card = S.marriageFor, opts = legalPlays()[card] || [];
      var pts = marriagePoints(card, v);
      text.textContent = t("marriage_prompt", { points: pts });
      var bar = el("div", "marriage-choice");
      opts.forEach(function (a) {
        var label = a.declare ? t("marriage_declare", { points: pts }) : a.marriage ? t("marriage_announce", { points: pts }) : t("play_plain");
        bar.appendChild(button(label, function () { a.declare ? claim(a) : act(a); },
          a.marriage && !(a.declare && claimShort(a)) ? "primary" : "",
          { "data-action": a.declare ? "marriage-declare" : a.marriage ? "marriage" : "play-plain" }));
      });
      bar.appendChild(button(t("cancel"), function () { S.marriageFor = null; render(); }, "subtle", { "data-action": "cancel" }));
      actions.appendChild(bar);
    }
  }

  /* Declaring 66 ends the deal at once: the engine says what the player has now (view.claim,
   * with each marriage he may announce in the same step) and what a false claim gives the
   * opponent, so a claim short of 66 asks first and says what it costs. */
  function claimPoints(action) {
    var c = S.view && S.view.claim;
    if (!c) return null;
    var withMarriage = action.card && action.declare ? c.with_marriage[C.suitOf(action.card)] : undefined;
    return withMarriage === undefined ? c.points : withMarriage;
  }
  function claimShort(action) {
    var c = S.view && S.view.claim, pts = claimPoints(action);
    return !!c && pts !== null && pts < c.target;
  }
  function claim(action) {
    if (!claimShort(action)) { act(action); return; }
    S.confirmClaim = action;
    render();
  }
  function confirmClaimBox(actions) {
    var a = S.confirmClaim, c = S.view.claim;
    var box = el("div", "claim-confirm");
    box.setAttribute("role", "alertdialog");
    var text = el("p", "", t("claim_confirm", { points: claimPoints(a), target: c.target, n: c.false_gives }));
    text.id = "claim-confirm-text";
    box.setAttribute("aria-describedby", text.id);
    box.appendChild(text);
    box.appendChild(button(t("claim_anyway"), function () { S.confirmClaim = null; act(a); }, "danger",
      { "data-action": "confirm-declare" }));
    var cancel = button(t("cancel"), function () { S.confirmClaim = null; render(); }, "subtle",
      { "data-action": "cancel-declare" });
    box.appendChild(cancel);
    actions.appendChild(box);
    setTimeout(function () { if (cancel.isConnected) cancel.focus(); }, 0);   // the safe answer first
  }

  /* ---------------------------------------------------------------- speech bubbles */
  /* What a player announces appears by his seat for a moment: a marriage (its points as the
   * engine counted them, view.marriages), a claim of 66, a close. */
  function bubbleFor(ev) {
    if (!ev || ev.kind !== "action" || !ev.action || !S.live || !S.view || !S.view.marriages) return;
    var a = ev.action, parts = [];
    if (a.marriage && a.card) {
      var suit = C.suitOf(a.card), found = S.view.marriages.filter(function (m) {
        return m.seat === ev.seat && m.suit === suit;
      }).pop();
      parts.push(t("bubble_marriage", { points: found ? found.points : marriagePoints(a.card, S.view),
                                         suit: C.SUIT_SYMBOL[suit] }));
    }
    if (a.type === "declare" || a.declare) parts.push(t("bubble_declare"));
    if (a.type === "close") parts.push(t("bubble_close"));
    if (a.type === "exchange") parts.push(t("bubble_exchange"));
    if (parts.length) showBubble(ev.seat, parts.join(" \u00b7 "));
  }
  function showBubble(seat, text) {
    var layer = $("#bubbles");
    if (!layer) return;
    var node = el("div", "bubble pos-" + position(seat), text);
    node.setAttribute("data-seat", seat);
    layer.appendChild(node);
    setTimeout(function () { if (node.parentNode) node.parentNode.removeChild(node); }, 3500);
  }

  function isOwner() {
    var tb = S.table;
    if (boot.is_owner !== undefined) return !!boot.is_owner;
    if (data.isOwner) return data.isOwner === "true" || data.isOwner === "True";
    var me = first(boot.username, boot.user, data.username);
    if (tb && tb.owner !== undefined && tb.owner !== null && me !== null) return String(tb.owner) === String(me);
    return true;
  }

  /* The hand is kept, not redrawn: a card keeps its node, and so the keyboard focus, from one
   * update to the next; a played card leaves, new ones travel in (a new deal from the middle of
   * the table, a card drawn from the stock). Every card can take the focus (arrow keys); the
   * playable ones are also Tab stops; each says whether it may be played now. */
  function renderHand() {
    var wrap = $("#hand");
    var v = S.view, me = mySeat();
    if (!v || me === null) {
      clear(wrap).classList.add("empty");
      S.handDeal = null;
      if (v && me === null) wrap.appendChild(el("div", "hand-note", t("spectating")));
      return;
    }
    wrap.classList.remove("empty");
    var hand = v.hand || [];
    if (!hand.length && v.phase === "blind_nil" && (v.hand_sizes || [])[me]) {
      clear(wrap);
      for (var i = 0; i < v.hand_sizes[me]; i++) wrap.appendChild(C.back("hidden-hand"));
      wrap.appendChild(el("div", "hand-note", t("hand_hidden")));
      return;
    }
    var newDeal = S.handDeal !== v.deal_number;
    S.handDeal = v.deal_number;
    var codes = C.sortHand(hand, game());
    var arrivals = placeHandCards(wrap, codes, newDeal);
    wrap.classList.toggle("crowded", hand.length > 8);
    wrap.style.setProperty("--n", Math.max(codes.length, 1));
    updateHandCards(wrap, v);
    if (S.live && arrivals.length) animateArrivals(arrivals, newDeal);
  }

  /* Put the hand's nodes in ``codes`` order, reusing those still in hand; returns the new ones. */
  function placeHandCards(wrap, codes, newDeal) {
    var existing = {}, arrivals = [];
    Array.prototype.slice.call(wrap.children).forEach(function (node, index) {
      var code = node.getAttribute("data-card");
      if (code && !newDeal && node.classList.contains("in-hand")) existing[code] = { node: node, index: index };
      else wrap.removeChild(node);
    });
    var focused = document.activeElement, lostFocusAt = null;
    codes.forEach(function (code, i) {
      var node = existing[code] ? existing[code].node : null;
      delete existing[code];
      if (!node) { node = handCard(code); arrivals.push(node); }
      if (wrap.children[i] !== node) wrap.insertBefore(node, wrap.children[i] || null);
    });
    Object.keys(existing).forEach(function (code) {
      var gone = existing[code];
      if (gone.node === focused) lostFocusAt = gone.index;
      wrap.removeChild(gone.node);
    });
    // A card played from the keyboard: the focus stays in the hand, on its neighbour.
    if (lostFocusAt !== null && wrap.children.length) {
      wrap.children[Math.min(lostFocusAt, wrap.children.length - 1)].focus({ preventScroll: true });
    }
    return arrivals;
  }

  function handCard(code) {
    var card = C.face(code, "button");
    card.classList.add("in-hand");
    card.addEventListener("click", function () { onCard(code, legalPlays()[code], passingNow()); });
    return card;
  }

  function passingNow() {
    return !!S.view && S.view.phase === "pass" && legal().some(function (a) { return a.type === "pass"; });
  }

  /* Each card's look, Tab stop and spoken name for the state now. */
  function updateHandCards(wrap, v) {
    var settled = trickStage().idle();      // as the prompt: no playable card while a trick is held
    var plays = settled ? legalPlays() : {}, passing = settled && passingNow(), received = v.received || [];
    var choosing = passing || Object.keys(plays).length > 0;   // dim only what may not be played now
    var cards = wrap.querySelectorAll("button.card.in-hand"), anyStop = false;
    Array.prototype.forEach.call(cards, function (card) {
      var code = card.getAttribute("data-card");
      var playable = !!plays[code] || passing;
      var selected = S.selected.indexOf(code) >= 0 || S.marriageFor === code;
      card.classList.toggle("legal", playable);
      card.classList.toggle("illegal", !playable && choosing);
      card.classList.toggle("idle", !playable && !choosing);
      card.classList.toggle("selected", selected);
      card.classList.toggle("received", received.indexOf(code) >= 0);
      card.disabled = false;                         // focusable all the same: it says why not
      card.setAttribute("aria-disabled", playable ? "false" : "true");
      card.tabIndex = playable ? 0 : -1;
      anyStop = anyStop || playable;
      var state = selected ? "card_selected" : playable ? "card_playable" : choosing ? "card_not_playable" : null;
      var name = cardName(code);
      // What the card shows comes first, so the spoken name contains the visible one (WCAG 2.5.3).
      var shown = C.rankLabel(code) + C.SUIT_SYMBOL[C.suitOf(code)];
      card.setAttribute("aria-label", shown + ", " + (state ? t(state, { card: name }) : name));
      if (passing) card.setAttribute("aria-pressed", selected ? "true" : "false");
      else card.removeAttribute("aria-pressed");
    });
    if (!anyStop && cards.length) cards[0].tabIndex = 0;   // the hand stays reachable by Tab
  }

  /* "Queen of hearts": the suit's own phrase, so each language may word it its own way. */
  function cardName(code) {
    var r = code.charAt(0);
    var rank = "AKQJ".indexOf(r) >= 0 ? t("rank_" + r) : C.rankLabel(code);
    return t("card_of_" + C.suitOf(code), { rank: rank });
  }

  /* A new deal flies in one card after another from the stock (Sixty-six) or the dealer; a single
   * new card (drawn from the stock, received in a pass) comes from the stock or the middle. */
  function animateArrivals(nodes, dealt) {
    if (!FX.motionAllowed()) return;
    var v = S.view, stock = $(".talon .stock");
    var dealer = dealt && v && typeof v.dealer === "number" && v.dealer !== mySeat() && $('.seat-box[data-seat="' + v.dealer + '"]');
    var from = (stock || dealer || $("#felt")).getBoundingClientRect();
    var source = { left: from.left + from.width / 2 - 1, top: from.top + from.height / 2 - 1, width: 2, height: 2 };
    nodes.forEach(function (node, i) {
      FX.flyIn(node, source, { delay: dealt ? i * 55 : 0, duration: dealt ? 340 : 300, rotate: dealt ? -12 : 0,
                               scale: 0.6, fade: true });
    });
  }

  /* Arrow keys move along the hand (Home/End: its ends); Enter or Space plays, as on any button. */
  function onHandKey(e) {
    var cards = Array.prototype.slice.call($("#hand").querySelectorAll("button.card.in-hand"));
    var i = cards.indexOf(document.activeElement);
    if (i < 0) return;
    var next = { ArrowLeft: i - 1, ArrowUp: i - 1, ArrowRight: i + 1, ArrowDown: i + 1, Home: 0, End: cards.length - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    cards[Math.max(0, Math.min(cards.length - 1, next))].focus();
  }
  $("#hand").addEventListener("keydown", onHandKey);

  function onCard(code, actions, passing) {
    if (S.busy || !trickStage().idle()) return;     // not playable yet: the felt shows the last trick
    if (passing) {
      var i = S.selected.indexOf(code);
      if (i >= 0) S.selected.splice(i, 1);
      else if (S.selected.length < 3) S.selected.push(code);
      render();
      return;
    }
    if (!actions || !actions.length) return;
    if (actions.length === 1) { act(actions[0]); return; }
    S.marriageFor = S.marriageFor === code ? null : code;   // several ways to lead it: ask
    render();
  }

  function renderMine() {
    var box = clear($("#mine"));
    var v = S.view, g = game();
    if (!v) return;
    if (v.my_points !== undefined && mySeat() !== null) {
      box.appendChild(el("div", "mine-line", t("my_points", { n: v.my_points || 0 })));
      if (v.pending_marriage_points) {
        box.appendChild(el("div", "mine-line", t("pending_marriage", { n: v.pending_marriage_points })));
      }
      var cap = v.my_captured || [];
      if (cap.length) {
        var row = el("div", "captured");
        row.appendChild(el("span", "mine-label", t("captured")));
        C.sortHand(cap, g).forEach(function (c) { row.appendChild(C.face(c, "div")); });
        box.appendChild(row);
      }
    }
    if (v.marriages && v.marriages.length) {
      var m = el("div", "mine-line");
      m.textContent = t("marriages") + ": " + v.marriages.map(function (x) {
        if (typeof x === "string") return x;
        var s = x.suit || (x.card ? C.suitOf(x.card) : "");
        return seatName(x.seat) + " " + (C.SUIT_SYMBOL[s] || "") + (x.points ? " " + x.points : "");
      }).join(", ");
      box.appendChild(m);
    }
    if (v.team_tricks) {
      v.team_tricks.forEach(function (tricks, team) {
        var c = v.contracts ? v.contracts[team] : null;
        box.appendChild(el("div", "mine-line team-line",
          t("team_line", { team: teamName(team), tricks: tricks,
                           contract: c === null || c === undefined ? "\u2013" : c,
                           bags: (currentBags() || [])[team] || 0 })));
      });
    }
    // Hearts: the cards the pass brought, named with who passed them, until the first trick ends.
    if ((v.received || []).length && v.received_from !== null && v.received_from !== undefined &&
        !(v.last_trick && v.last_trick.cards)) {
      var got = el("div", "received-line");
      got.appendChild(el("span", "mine-label", t("received_from", { name: seatName(v.received_from) })));
      C.sortHand(v.received, g).forEach(function (c) { got.appendChild(C.face(c, "div")); });
      box.appendChild(got);
    }
    var flags = [];
    if (v.hearts_broken) flags.push(t("hearts_broken"));
    if (v.pass_direction && v.phase === "play") flags.push(t("pass_was_" + v.pass_direction));
    if (flags.length) box.appendChild(el("div", "mine-line", flags.join(" \u00b7 ")));
    if (v.spades_broken) box.appendChild(el("div", "mine-line", t("spades_broken")));
  }

  /* A score column's name: its seats' names ("A & C" for a partnership). */
  function teamName(team) {
    return (teams()[team] || []).map(seatName).join(" & ");
  }

  function scoreColumns() {
    return teams().map(function (_, team) { return teamName(team); });
  }

  function resultRow(res) {
    var key = rules() && rules().deal_points;
    return (res && key && res[key]) || [];
  }

  function renderScores() {
    var box = clear($("#scores"));
    var tb = S.table;
    var v = S.view;
    var cols = scoreColumns();
    var table = el("table", "score-table");
    var thead = el("tr");
    thead.appendChild(el("th", "", "#"));
    cols.forEach(function (c) {
      var th = el("th");
      th.appendChild(el("span", "long-name", c));     // whole; only a name beyond any sign-up's is cut
      th.title = c;
      thead.appendChild(th);
    });
    table.appendChild(thead);
    var results = (tb && tb.match && tb.match.results) || [];
    results.forEach(function (r, i) {
      var tr = el("tr");
      tr.appendChild(el("td", "", String(i + 1)));
      var row = resultRow(r);
      cols.forEach(function (_, k) { tr.appendChild(el("td", "", row[k] === undefined ? "" : String(row[k]))); });
      table.appendChild(tr);
    });
    var scores = (tb && tb.match && tb.match.scores) || (v && v.scores_before) || null;
    if (scores) {
      var tot = el("tr", "total");
      tot.appendChild(el("td", "", "\u03a3"));
      cols.forEach(function (_, k) { tot.appendChild(el("td", "", String(scores[k] === undefined ? "" : scores[k]))); });
      table.appendChild(tot);
    }
    box.appendChild(table);
    var goal = rules() && rules().target;
    var boards = tb && tb.match && tb.match.boards;
    if (boards) {       // a duplicate tournament's match: a fixed number of deals, no target
      var k = Math.min(boards, (v && v.deal_number !== undefined ? v.deal_number : tb.match.deal_number) + 1);
      box.appendChild(el("div", "score-goal", t("goal_boards", { k: k, n: boards })));
    } else if (goal) box.appendChild(el("div", "score-goal", t("goal_" + game(), { n: goal })));
    var bags = currentBags();
    if (bags) {
      box.appendChild(el("div", "score-goal", t("bags_line", { a: bags[0], b: bags[1] })));
    }
  }

  /* Spades bags as they stand: the match's, which count the last finished deal (defect 7: the
   * deal's own bags_before lagged one deal behind its result); else the deal's start. */
  function currentBags() {
    var tb = S.table, v = S.view;
    return (tb && tb.match && tb.match.bags) || (v && v.bags_before) || null;
  }

  function renderLastTrick() {
    var box = clear($("#last-trick"));
    var v = S.view;
    if (!v || !v.last_trick || !v.last_trick.cards) { box.appendChild(el("div", "muted", "\u2013")); return; }
    var row = el("div", "last-cards");
    v.last_trick.cards.forEach(function (p) {
      var cell = el("div", "last-cell");
      var card = C.face(p.card);
      if (p.seat === v.last_trick.winner) card.classList.add("winner");
      cell.appendChild(card);
      cell.appendChild(el("div", "last-name", seatName(p.seat)));
      row.appendChild(cell);
    });
    box.appendChild(row);
  }

  /* ---------------------------------------------------------------- result overlay */
  function maybeOverlay() {
    var v = S.view, tb = S.table;
    if (tb && (tb.status === "finished" || (tb.match && tb.match.over))) {
      showOverlay("match", v && v.result, "match");
    } else if (v && v.over && v.result) {
      showOverlay("deal", v.result, v.deal_number);
    }
  }

  function showOverlay(kind, result, key) {
    if (S.overlayDismissed[key]) return;
    if (S.overlay && S.overlay.key === key && S.overlay.kind === kind) {
      if (result) S.overlay.result = result;
      return;
    }
    if (S.overlay && S.overlay.kind === "match" && kind === "deal") return;
    var v = S.view, explained = v && v.over ? v : null;
    S.overlay = { kind: kind, result: result, key: key,
                  outcome: explained && explained.outcome, breakdown: explained && explained.breakdown };
  }

  /* Defect 3: the deal's result must never hide the next deal. It covers the felt only between
   * deals, when there is nothing on it to see; once the next deal is on it moves beside the
   * table (#result-dock) and closes by itself after DOCK_MS, or at once on Close or Escape. It
   * waits for the last trick to be seen and swept (the trick stage) before it shows. */
  var DOCK_MS = 9000;
  function overlayDocked(o) {
    var v = S.view;
    return o.kind === "deal" && !!v && !v.over && v.deal_number !== o.key;
  }

  function dismissOverlay() {
    if (!S.overlay) return;
    S.overlayDismissed[S.overlay.key] = true;
    S.overlay = null;
    render();
  }

  function startDockTimer(o) {
    if (o.dockTimer) return;
    o.dockTimer = setTimeout(function () { if (S.overlay === o) dismissOverlay(); }, DOCK_MS);
  }

  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape" && S.overlay) dismissOverlay();
  });

  /* How the overlay labels a deal's points, by the result key they are under. */
  var DEAL_POINTS_LABEL = { points: "points", game_points: "game_points", team_points: "deal_points" };

  function renderOverlay() {
    var over = $("#result-overlay"), dock = $("#result-dock");
    var o = S.overlay;
    var docked = !!o && overlayDocked(o);
    var box = docked ? dock : over, other = docked ? over : dock;
    if (other) { other.hidden = true; clear(other); }
    // The first time it waits for the deal's last trick to be swept; once shown it stays.
    if (!o || (!o.shown && !trickStage().idle()) || !box) {
      over.hidden = true; clear(over);
      if (dock) { dock.hidden = true; clear(dock); }
      return;
    }
    o.shown = true;
    if (docked) startDockTimer(o);
    box.hidden = false;
    clear(box);
    var tb = S.table;
    var panel = el("div", "result-panel");
    panel.setAttribute("data-kind", o.kind);
    panel.appendChild(el("h2", "", o.kind === "match" ? t("match_over") : t("deal_over")));
    var res = o.result;
    if (!res && o.kind === "match" && tb && tb.match && tb.match.results && tb.match.results.length) {
      res = tb.match.results[tb.match.results.length - 1];
    }
    var cols = scoreColumns();
    if (res) {
      var table = el("table", "score-table result-table");
      var hr = el("tr");
      hr.appendChild(el("td", ""));
      cols.forEach(function (c) { hr.appendChild(el("th", "", c)); });
      table.appendChild(hr);
      // The result's rows, each per score column: tricks (per seat, summed per team), card
      // points when the deal scores something else, the deal's points (rules.deal_points), bags.
      var key = rules() && rules().deal_points;
      var rows = [];
      if (res.tricks) rows.push([t("tricks"), perTeam(res.tricks)]);
      if (key && key !== "points" && res.points) rows.push([t("card_points"), res.points]);
      if (key) rows.push([t(DEAL_POINTS_LABEL[key] || "deal_points"), res[key]]);
      if (res.bags_after) rows.push([t("bags"), res.bags_after]);
      if (tb && tb.match && tb.match.scores) rows.push([t("match_score"), tb.match.scores]);
      rows.forEach(function (r) {
        if (!r[1]) return;
        var tr = el("tr");
        tr.appendChild(el("th", "", r[0]));
        cols.forEach(function (_, k) { tr.appendChild(el("td", "", r[1][k] === undefined ? "" : String(r[1][k]))); });
        table.appendChild(tr);
      });
      panel.appendChild(table);
      if (o.outcome) panel.appendChild(outcomeNote(o.outcome));
      else if (res.ended_by) panel.appendChild(el("p", "result-note", t("ended_" + res.ended_by)));
      if (o.breakdown) panel.appendChild(breakdownTable(o.breakdown, cols));
      if (res.moon !== null && res.moon !== undefined) {
        panel.appendChild(el("p", "result-note", t("moon_shot", { name: seatName(res.moon) })));
      }
    }
    if (o.kind === "match" && tb && tb.match) {
      var winners = tb.match.winners || [];
      var names = winners.map(seatName);
      var wtext = winners.length && winners.length === nSeats() ? t("draw") : t("winners", { names: names.join(", ") });
      panel.appendChild(el("p", "result-winner", wtext));
      renderMatchEnd(panel);
      var link = el("a", "btn primary", t("back_to_lobby"));
      link.href = lobbyUrl;
      panel.appendChild(link);
    } else if (!docked) {
      var note = el("p", "result-note muted", t("next_deal_soon"));
      note.setAttribute("data-next-deal", "1");
      panel.appendChild(note);
    }
    panel.setAttribute("data-docked", docked ? "1" : "0");
    panel.appendChild(button(t("close"), dismissOverlay, "subtle", { "data-action": "close-result" }));
    box.appendChild(panel);
  }

  /* Sixty-six: who ended the deal and how, and what decided the game points (view.outcome). */
  function outcomeNote(out) {
    var box = el("div", "result-note outcome");
    box.setAttribute("data-outcome", out.ended_by + ":" + out.why);
    var by = out.by === null ? null : seatName(out.by), pts = out.by === null ? null : out.points[out.by];
    var how;
    if (out.ended_by === "declare") how = t(out.claim ? "outcome_claim_true" : "outcome_claim_false", { name: by, points: pts });
    else if (out.ended_by === "close") how = t(out.why === "failed_close" ? "outcome_close_failed" : "outcome_close_made", { name: by, points: pts });
    else how = t("outcome_played_out");
    box.appendChild(el("p", "outcome-how", how));
    if (out.winner !== null) {
      var loser = 1 - out.winner;
      box.appendChild(el("p", "outcome-why", t("outcome_scores", { name: seatName(out.winner), n: out.game_points }) + " " +
        t("why_" + out.why, { name: seatName(loser), points: out.points[loser] })));
    } else {
      box.appendChild(el("p", "outcome-why", t("why_tie")));
    }
    return box;
  }

  /* Spades: each team's deal score part by part (view.breakdown, from the engine's scoring). */
  function breakdownTable(teams, cols) {
    var table = el("table", "score-table breakdown");
    table.setAttribute("data-breakdown", "1");
    var cap = el("caption", "", t("score_breakdown"));
    table.appendChild(cap);
    var hr = el("tr");
    hr.appendChild(el("td", ""));
    cols.forEach(function (c) { hr.appendChild(el("th", "", c)); });
    table.appendChild(hr);
    var signed = function (n) { return n > 0 ? "+" + n : n < 0 ? "\u2212" + Math.abs(n) : "0"; };
    var rows = [
      [t("bd_contract"), function (p) { return t(p.made ? "bd_made" : "bd_set", { bid: p.contract, took: p.taken }); }],
      [t("bd_contract_points"), function (p) { return signed(p.contract_points); }],
      [t("bd_overtricks"), function (p) { return p.overtricks ? signed(p.overtricks) : ""; }],
      [t("bd_nil"), function (p) {
        return p.nil.map(function (n) {
          return t(n.blind ? "bd_blind_nil_of" : "bd_nil_of", { name: seatName(n.seat), points: signed(n.points) });
        }).join(", ");
      }],
      [t("bd_nil_bags"), function (p) { return p.nil_bags ? signed(p.nil_bags) : ""; }],
      [t("bd_bag_penalty"), function (p) { return p.bag_penalty ? signed(p.bag_penalty) : ""; }],
      [t("bd_total"), function (p) { return signed(p.points); }],
      [t("bd_bags"), function (p) { return p.bags_before + " \u2192 " + p.bags_after; }]
    ];
    rows.forEach(function (r) {
      var cells = teams.map(r[1]);
      if (cells.every(function (c) { return !c; })) return;
      var tr = el("tr");
      tr.appendChild(el("th", "", r[0]));
      cells.forEach(function (c) { tr.appendChild(el("td", "", c)); });
      table.appendChild(tr);
    });
    return table;
  }

  /* ---------------------------------------------------------------- match end: ratings, rematch */
  /* The match-end box shows each player's rating change once the server has computed it (a
   * "ratings" message) and the rematch: offered by a player, answered by the others (bots accept
   * at once), shown live to everyone; when all have accepted, everyone moves to the new table. */
  function renderMatchEnd(panel) {
    leaverNote(panel);      /* leavers: who left the match */
    if (S.table.rated) panel.appendChild(ratingsBox());
    var box = rematchBox();
    if (box) panel.appendChild(box);
  }

  function ratingsBox() {
    var box = el("div", "rating-changes");
    box.setAttribute("data-ratings", S.ratings ? "ready" : "pending");
    if (!S.ratings) { box.appendChild(el("p", "muted", t("ratings_pending"))); return box; }
    box.appendChild(el("h3", "", t("rating_changes")));
    S.ratings.forEach(function (r) {
      var line = el("div", "rating-change " + (r.delta > 0 ? "up" : r.delta < 0 ? "down" : "same"));
      line.setAttribute("data-seat", r.seat);
      line.appendChild(el("span", "rating-name", seatName(r.seat)));
      var sign = r.delta > 0 ? "+" : r.delta < 0 ? "\u2212" : "\u00b1";
      line.appendChild(el("span", "rating-delta", sign + Math.abs(r.delta) + " (" + r.after + ")"));
      box.appendChild(line);
    });
    return box;
  }

  function rematchBox() {
    var offer = S.table.rematch, me = mySeat();
    if (!offer && me === null) return null;
    var box = el("div", "rematch");
    box.setAttribute("data-rematch", offer ? offer.status : "none");
    if (offer && offer.status === "started") { box.appendChild(el("p", "", t("rematch_starting"))); return box; }
    if (offer && offer.status === "open") {
      box.appendChild(el("p", "rematch-offer", t("rematch_offered", { name: seatName(offer.by) })));
      var list = el("ul", "rematch-seats");
      for (var s = 0; s < nSeats(); s++) {
        var yes = offer.accepted.indexOf(s) >= 0;
        var li = el("li", yes ? "accepted" : "waiting", seatName(s) + ": " + t(yes ? "rematch_accepted" : "rematch_waiting"));
        li.setAttribute("data-seat", s);
        list.appendChild(li);
      }
      box.appendChild(list);
      if (me === null) return box;
      if (offer.accepted.indexOf(me) < 0) {
        box.appendChild(button(t("rematch_accept"), function () { answerRematch("accept"); }, "primary", { "data-action": "rematch-accept" }));
      }
      var mine = offer.by === me;
      box.appendChild(button(t(mine ? "rematch_withdraw" : "rematch_decline"), function () { answerRematch("decline"); },
        "subtle", { "data-action": "rematch-decline" }));
      return box;
    }
    if (offer && offer.status === "cancelled") box.appendChild(el("p", "rematch-reason", rematchCancelReason(offer)));
    if (me !== null) {
      box.appendChild(button(t("rematch"), function () { answerRematch("offer"); }, "primary", { "data-action": "rematch" }));
    }
    return box;
  }

  function rematchCancelReason(offer) {
    var key = offer.reason === "left" ? "rematch_left" :
      offer.seat === offer.by ? "rematch_withdrawn" : "rematch_declined";
    return t(key, { name: seatName(offer.seat) });
  }

  function answerRematch(answer) {
    send({ type: "rematch", answer: answer, version: S.version });
  }

  /* An offer reopens a closed match-end box; a cancelled one is told; a started one is followed. */
  function onRematch(ev) {
    if (ev.status === "open") delete S.overlayDismissed.match;
    if (ev.status === "cancelled") toast(rematchCancelReason(ev));
    followRematch();
  }

  function followRematch() {
    var offer = S.table && S.table.rematch;
    if (!offer || offer.status !== "started" || !offer.table || S.leaving) return;
    if (mySeat() === null && S.table.private) return;   // the new table has a new invite link
    S.leaving = true;
    location.assign(location.pathname.replace(/\d+\/?$/, offer.table + "/"));
  }

  /* ---------------------------------------------------------------- chat, toasts */
  function chatLine(m) {
    var line = el("div", "chat-line");
    line.appendChild(pmChatFrom(m));      /* players' menu: the author's name, a button */
    line.appendChild(el("span", "chat-text", m.text || ""));
    return line;
  }
  function renderChat() {
    var log = clear($("#chat-log"));
    S.chat.forEach(function (m) { log.appendChild(chatLine(m)); });
    log.scrollTop = log.scrollHeight;
  }
  function appendChat(m) {
    var log = $("#chat-log");
    log.appendChild(chatLine(m));
    while (log.childNodes.length > 200) log.removeChild(log.firstChild);
    log.scrollTop = log.scrollHeight;
  }

  function toast(text, kind) {
    var box = document.getElementById("toasts") || $("#toasts");
    if (!box) return;
    var node = el("div", "toast" + (kind ? " " + kind : ""), text);
    node.setAttribute("role", "alert");
    box.appendChild(node);
    while (box.childNodes.length > 3) box.removeChild(box.firstChild);   // a short stack, never a wall
    setTimeout(function () { if (node.parentNode) node.parentNode.removeChild(node); }, 5000);
  }

  var form = $("#chat-form");
  if (form) {
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var input = form.querySelector("input");
      var text = (input.value || "").trim();
      if (!text) return;
      if (send({ type: "chat", text: text.slice(0, 500) })) input.value = "";
    });
  }

  /* local clock tick: only the clock texts change between messages */
  setInterval(function () {
    var nd = app.querySelector("[data-next-deal]"), at = S.table && S.table.next_deal_at;
    if (nd && at) {
      var left = Math.max(0, Math.ceil((at - Date.now() - S.skew) / 1000));
      nd.textContent = t("next_deal_in", { n: left });
    }
    tickLeaver();       /* leavers: the grace's countdown */
    var nodes = app.querySelectorAll("[data-clock-seat]");
    for (var i = 0; i < nodes.length; i++) {
      var seat = +nodes[i].getAttribute("data-clock-seat");
      var ms = clockMs(seat);
      nodes[i].textContent = fmtClock(ms);
      nodes[i].classList.toggle("low", ms !== null && ms < 15000 && toAct().indexOf(seat) >= 0);
    }
  }, 250);

  /* ================================================================ players' menu: mute, report
   * A player's name (a chat line's author, another player's seat box) is a button that opens a
   * small menu: Mute/Unmute and Report (a reason and optional words, then a "Report sent" toast).
   * The server keeps a muted player's chat away from all this user's sockets and leaves it out of
   * snapshots (docs/PROTOCOL.md, "Mute and report"); here the lines already shown go at once when
   * the "muted" list comes. Hooks elsewhere: handle() (snapshot, "muted", "reported"), chatLine()
   * and renderSeats(). Keyboard: arrows move through the menu, Escape closes it, Tab leaves it. */
  var PM = { me: null, muted: [], pop: null, trigger: null, name: null, where: null, pending: null };
  var PM_REASONS = ["abuse", "cheating", "spam", "other"];

  function pmSnapshot(msg) {
    PM.me = msg.me || null;
    PM.muted = msg.muted || [];
  }

  function pmMessage(msg) {
    if (msg.type === "reported") { toast(t("pm_report_sent")); return; }
    var before = PM.muted;
    PM.muted = msg.muted || [];
    var shown = S.chat.length;
    S.chat = S.chat.filter(function (m) { return PM.muted.indexOf(m.from) < 0; });
    if (S.chat.length !== shown) renderChat();
    var p = PM.pending;
    if (p && (p.kind === "mute") === (PM.muted.indexOf(p.name) >= 0)) {
      toast(t(p.kind === "mute" ? "pm_muted" : "pm_unmuted", { name: p.name }));
      PM.pending = null;
    }
    // Someone unmuted: a fresh snapshot brings his earlier lines back.
    if (before.some(function (name) { return PM.muted.indexOf(name) < 0; })) send({ type: "sync" });
  }

  /* Only a logged-in user (the snapshot's "me") acts on another person; bots are no one to mute. */
  function pmCanTarget(name) { return !!PM.me && !!name && name !== PM.me && !isBotName(name); }

  function pmTrigger(name, content, where) {
    var b = el("button", "player-name-btn");
    b.type = "button";
    b.setAttribute("aria-haspopup", "menu");
    b.setAttribute("aria-expanded", PM.pop && !PM.pop.hidden && PM.name === name && PM.where === where ? "true" : "false");
    b.setAttribute("data-player", name);
    b.setAttribute("data-where", where);
    b.appendChild(content);
    b.addEventListener("click", function () { pmOpen(name, b, where); });
    return b;
  }
  function pmChatFrom(m) {
    var from = el("span", "chat-from");
    if (!pmCanTarget(m.from)) { from.textContent = (m.from || "?") + ": "; return from; }
    from.appendChild(pmTrigger(m.from, el("span", null, m.from), "chat"));
    from.appendChild(document.createTextNode(": "));
    return from;
  }
  function pmSeatName(node, info) {
    return info && info.name && !info.is_bot && pmCanTarget(info.name) ? pmTrigger(info.name, node, "seat") : node;
  }

  function pmPopup() {
    if (PM.pop) return PM.pop;
    var pop = PM.pop = el("div", "player-menu");
    pop.id = "player-menu";
    pop.hidden = true;
    pop.addEventListener("keydown", pmKey);
    pop.addEventListener("focusout", function (e) {
      if (e.relatedTarget && !pop.contains(e.relatedTarget)) pmClose(false);
    });
    // A press elsewhere closes it (on pointerdown: a click inside may redraw it, leaving its target
    // outside by the time the click reaches the document).
    document.addEventListener("pointerdown", function (e) {
      if (!pop.hidden && !pop.contains(e.target) && !(e.target.closest && e.target.closest(".player-name-btn"))) pmClose(false);
    });
    app.appendChild(pop);
    return pop;
  }

  function pmItem(label, action, onClick) {
    var b = el("button", "player-menu-item", label);
    b.type = "button";
    b.setAttribute("role", "menuitem");
    b.setAttribute("tabindex", "-1");
    b.setAttribute("data-pm", action);
    b.addEventListener("click", onClick);
    return b;
  }

  function pmTitle(text) {
    var title = el("div", "player-menu-title", text);
    title.id = "player-menu-title";
    return title;
  }

  function pmOpen(name, trigger, where) {
    var pop = pmPopup();
    if (!pop.hidden && PM.name === name && PM.where === where) { pmClose(true); return; }   // a toggle
    pmExpanded(false);
    PM.name = name; PM.trigger = trigger; PM.where = where;
    clear(pop);
    pop.removeAttribute("role");
    pop.appendChild(pmTitle(name));
    var menu = el("div", "player-menu-items");
    menu.setAttribute("role", "menu");
    menu.setAttribute("aria-labelledby", "player-menu-title");
    var muted = PM.muted.indexOf(name) >= 0, kind = muted ? "unmute" : "mute";
    menu.appendChild(pmItem(t("pm_" + kind), kind, function () {
      PM.pending = { kind: kind, name: name };
      if (send({ type: kind, name: name })) pmClose(true);
    }));
    menu.appendChild(pmItem(t("pm_report"), "report", function () { pmReportForm(name); }));
    var profile = el("a", "player-menu-item", t("pm_profile"));
    profile.href = "/accounts/u/" + encodeURIComponent(name) + "/";      // accounts/urls.py "profile"
    profile.setAttribute("role", "menuitem");
    profile.setAttribute("tabindex", "-1");
    menu.appendChild(profile);
    pop.appendChild(menu);
    pop.hidden = false;
    pmPlace();
    pmExpanded(true);
    pmItems()[0].focus();
  }

  function pmReportForm(name) {
    var pop = PM.pop;
    clear(pop);
    pop.setAttribute("role", "dialog");
    pop.setAttribute("aria-labelledby", "player-menu-title");
    var form = el("form", "player-report");
    form.appendChild(pmTitle(t("pm_report_title", { name: name })));
    var reason = el("label", "player-report-field", t("pm_reason"));
    var select = el("select");
    select.name = "reason";
    PM_REASONS.forEach(function (r) {
      var o = el("option", null, t("pm_reason_" + r));
      o.value = r;
      select.appendChild(o);
    });
    reason.appendChild(select);
    form.appendChild(reason);
    var words = el("label", "player-report-field", t("pm_report_text"));
    var text = el("textarea");
    text.name = "text";
    text.rows = 3;
    text.maxLength = 1000;
    words.appendChild(text);
    form.appendChild(words);
    var row = el("div", "player-report-buttons");
    var submit = el("button", "btn small primary", t("pm_report_send"));
    submit.type = "submit";
    submit.setAttribute("data-pm", "send-report");
    var cancel = el("button", "btn small subtle", t("cancel"));
    cancel.type = "button";
    cancel.addEventListener("click", function () { pmClose(true); });
    row.appendChild(submit);
    row.appendChild(cancel);
    form.appendChild(row);
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      if (send({ type: "report", name: name, reason: select.value, text: text.value.trim().slice(0, 1000) })) pmClose(true);
    });
    pop.appendChild(form);
    pmPlace();
    select.focus();
  }

  function pmItems() { return Array.prototype.slice.call(PM.pop.querySelectorAll("[role=menuitem]")); }

  function pmKey(e) {
    if (e.key === "Escape" || e.key === "Esc") {
      e.preventDefault();
      e.stopPropagation();          // the result overlay's Escape handler is not for this one
      pmClose(true);
      return;
    }
    var items = pmItems();
    if (!items.length) return;      // the report form: the browser's own keys
    var at = items.indexOf(document.activeElement), next = null;
    if (e.key === "ArrowDown") next = (at + 1) % items.length;
    else if (e.key === "ArrowUp") next = (at - 1 + items.length) % items.length;
    else if (e.key === "Home") next = 0;
    else if (e.key === "End") next = items.length - 1;
    else if (e.key === "Tab") { e.preventDefault(); pmClose(true); return; }
    if (next === null) return;
    e.preventDefault();
    items[next].focus();
  }

  /* The name's button now: the seat box or chat line it was in may have been drawn again. */
  function pmTriggerNow() {
    if (PM.trigger && document.body.contains(PM.trigger)) return PM.trigger;
    var all = app.querySelectorAll('.player-name-btn[data-where="' + PM.where + '"]'), found = null;
    for (var i = 0; i < all.length; i++) if (all[i].getAttribute("data-player") === PM.name) found = all[i];
    return found;
  }
  function pmExpanded(open) {
    var b = PM.trigger && pmTriggerNow();
    if (b) b.setAttribute("aria-expanded", open ? "true" : "false");
  }

  /* Below the name, kept inside the window (left and right). */
  function pmPlace() {
    var pop = PM.pop, anchor = pmTriggerNow() || app;
    var r = anchor.getBoundingClientRect();
    var base = (pop.offsetParent || document.body).getBoundingClientRect();
    var left = r.left - base.left;
    pop.style.left = left + "px";
    pop.style.top = (r.bottom - base.top + 4) + "px";
    var p = pop.getBoundingClientRect(), width = document.documentElement.clientWidth;
    if (p.right > width - 8) pop.style.left = Math.max(8 - base.left, left - (p.right - width + 8)) + "px";
  }

  function pmClose(refocus) {
    var pop = PM.pop;
    if (!pop || pop.hidden) return;
    pop.hidden = true;
    pmExpanded(false);
    clear(pop);
    pop.removeAttribute("role");
    var b = refocus && pmTriggerNow();
    if (b) b.focus();
  }
  /* ================================================================ end of the players' menu */

  /* ================================================================ leavers: away seats, claiming the win
   * A player whose every socket closed during the match is away: his seat in the table JSON has
   * away_since and grace_ends_at (epoch ms, server time). At grace_ends_at his opponent in a
   * two-player match may claim the win ({"type": "claim_win", "version"}; the server refuses it
   * earlier, or once he is back); in a four-player match a bot takes his seat (the server does it).
   * His seat shows an "away" badge counting down; a bar above the prompt says what happens then,
   * and offers the opponent the claim once it may be made. A reload closes a socket and opens
   * another: nothing is shown for the first AWAY_QUIET_MS. Hooks elsewhere: renderSeats() (the
   * badge), render(), the clock tick, renderMatchEnd() (who left). */
  var AWAY_QUIET_MS = 3000;

  function serverNow() { return Date.now() + S.skew; }
  /* null (here, or no match on), "quiet" (just gone), "counting" (the grace runs), "over". */
  function awayPhase(seat) {
    var info = S.table && S.table.seats && S.table.seats[seat];
    var on = S.table && (S.table.status === "playing" || S.table.status === "between_deals");
    if (!on || !info || !info.away_since || !info.grace_ends_at || info.is_bot) return null;
    var now = serverNow();
    if (now - info.away_since < AWAY_QUIET_MS && now < info.grace_ends_at) return "quiet";
    return now < info.grace_ends_at ? "counting" : "over";
  }
  function graceLeft(seat) { return S.table.seats[seat].grace_ends_at - serverNow(); }
  function awaySeats() {
    var out = [];
    for (var s = 0; s < nSeats(); s++) {
      var phase = s !== mySeat() && awayPhase(s);
      if (phase === "counting" || phase === "over") out.push(s);
    }
    return out;
  }
  /* What the tick compares to redraw when a seat goes quiet, counting or over. */
  function leaverKey() {
    var key = [];
    for (var s = 0; s < nSeats(); s++) key.push(awayPhase(s) || "");
    return key.join(",");
  }
  function badgeText(seat) {
    var left = graceLeft(seat);
    return left > 0 ? t("away_countdown", { time: fmtClock(left) }) : t("away");
  }

  /* The seat's badge; true when the plain "away" badge is not wanted. */
  function leaverBadge(head, seat) {
    var phase = awayPhase(seat);
    if (!phase) return false;
    if (phase === "quiet") return true;
    var badge = el("span", "badge away leaver", badgeText(seat));
    badge.setAttribute("data-away-seat", seat);
    head.appendChild(badge);
    return true;
  }

  /* What the bar says of one away seat, and whether its opponent (this player) may claim now. */
  function leaverLine(seat) {
    var left = graceLeft(seat), over = left <= 0, name = seatName(seat);
    if (nSeats() > 2) {
      return { text: over ? t("leaver_bot_now", { name: name }) :
                 t("leaver_bot_in", { name: name, n: Math.ceil(left / 1000) }), claim: false };
    }
    var mine = mySeat() !== null;
    var key = (mine ? "leaver_claim_" : "leaver_watch_") + (over ? "now" : "in");
    return { text: t(key, { name: name, time: fmtClock(left) }), claim: mine && over };
  }

  function leaverBar() {
    var bar = document.getElementById("leaver-bar");
    if (bar) return bar;
    bar = el("div", "leaver-bar");
    bar.id = "leaver-bar";
    bar.hidden = true;
    var prompt = $("#prompt");
    prompt.parentNode.insertBefore(bar, prompt);
    return bar;
  }

  function renderLeaver() {
    var bar = leaverBar(), seats = awaySeats();
    S.leaverKey = leaverKey();
    clear(bar);
    bar.hidden = !seats.length;
    seats.forEach(function (seat) {
      var line = leaverLine(seat);
      var row = el("div", "leaver-line");
      row.setAttribute("data-leaver-seat", seat);
      var text = el("span", "leaver-text", line.text);
      text.setAttribute("data-leaver-text", seat);
      row.appendChild(text);
      if (line.claim) row.appendChild(button(t("claim_win"), claimWin, "primary claim-win", { "data-action": "claim-win" }));
      bar.appendChild(row);
    });
  }

  function claimWin() {
    if (S.busy) return;
    if (send({ type: "claim_win", version: S.version })) {
      S.busy = true;
      S.busyTimer = setTimeout(function () { clearBusy(); render(); }, 6000);
      render();
    }
  }

  /* Each tick: the countdowns; a seat going from quiet to counting to over redraws the table. */
  function tickLeaver() {
    if (S.leaverKey !== undefined && leaverKey() !== S.leaverKey) { render(); return; }
    var texts = app.querySelectorAll("[data-leaver-text]");
    for (var i = 0; i < texts.length; i++) texts[i].textContent = leaverLine(+texts[i].getAttribute("data-leaver-text")).text;
    var badges = app.querySelectorAll("[data-away-seat]");
    for (var j = 0; j < badges.length; j++) badges[j].textContent = badgeText(+badges[j].getAttribute("data-away-seat"));
  }

  /* The match-end box: who left the match (and so lost it). */
  function leaverNote(panel) {
    var m = S.table && S.table.match;
    if (!m || !m.abandoned || !m.abandoned.length) return;
    m.abandoned.forEach(function (seat) {
      var note = el("p", "result-note leaver-note", t("ended_abandoned", { name: seatName(seat) }));
      note.setAttribute("data-abandoned-seat", seat);
      panel.appendChild(note);
    });
  }

  bindSettings();
  bindSkipLinks();
  render();
  connect();
})();
