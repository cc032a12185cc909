/* At a tournament's table (docs/PROTOCOL.md "Tournament tables"): once its match is over, a
 * player's page listens on the tournament's socket and, whenever the tournament changes, asks for
 * his place in it (tournaments/follow.py). A new match takes him to its table with the turn's
 * chime; paused, the page says why, with one button to come back; else it says the next match
 * will come. */
import { app, el } from "./dom.js";
import { t } from "./i18n.js";
import { S, mySeat, tableId } from "./state.js";
import { button } from "./controls.js";
import * as FX from "./fx.js";
import { reconnectDelay } from "../lib/reconnect.js";

const wsPath = app ? app.dataset.tournamentWs : "", meUrl = app ? app.dataset.tournamentMe : "";
const CHIME_MS = 400;       // the chime is heard before the page changes
let socket = null, asking = false, again = false, gone = false, retry = 0;

/* Called on every render: starts listening once this player's tournament match is over. */
export function followTournament() {
  if (!wsPath || !meUrl || socket || gone || mySeat() === null || !S.table || S.table.status !== "finished") return;
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + wsPath);
  socket = ws;
  ws.onopen = () => { retry = 0; };
  ws.onmessage = ask;             // its snapshot first, then each change
  ws.onclose = () => {
    if (socket === ws) socket = null;
    if (!gone) setTimeout(followTournament, reconnectDelay(retry++));
  };
}

function ask() {
  if (asking) { again = true; return; }
  asking = true;
  fetch(meUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
    .then((r) => (r.ok ? r.json() : null))
    .then((me) => { if (me) show(me); })
    .catch(() => { /* the next change asks again */ })
    .then(() => { asking = false; if (again) { again = false; ask(); } });
}

function show(me) {
  if (me.url && String(me.table) !== String(tableId)) { go(me.url); return; }
  const box = document.getElementById("tournament-next");
  if (!box) return;
  box.textContent = "";
  box.hidden = !(me.entrant && me.status === "running");
  if (me.status === "finished" || me.status === "cancelled") stop();    // nothing more will come
  if (box.hidden) return;
  box.setAttribute("data-paused", me.paused ? "yes" : "no");
  if (!me.paused) { box.appendChild(el("p", "", t("tournament_next_match"))); return; }
  box.appendChild(el("p", "tournament-paused-why", me.why));
  box.appendChild(button(t("come_back"), (ev) => comeBack(me.come_back, ev.currentTarget), "primary",
    { "data-action": "come-back" }));
}

function comeBack(url, node) {
  if (node) node.disabled = true;
  fetch(url, { method: "POST", credentials: "same-origin", redirect: "manual",
    headers: { "X-CSRFToken": app.dataset.csrf || "" } })
    .catch(() => { /* still paused: the button comes back with the next answer */ })
    .then(ask);
}

function stop() {
  gone = true;
  if (socket) { socket.onclose = null; socket.close(); socket = null; }
}

function go(url) {
  stop();
  FX.sound.play("turn");
  setTimeout(() => location.assign(url), CHIME_MS);
}
