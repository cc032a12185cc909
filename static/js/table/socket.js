/* The connection (docs/PROTOCOL.md): one socket, reconnected with backoff; a snapshot on connect
 * (asked for with "sync" if it does not come); updates older than the version held are dropped;
 * an action goes once, with the version it was chosen on. Messages go to the handler main.js
 * installs. */
import { t } from "./i18n.js";
import { $, app, first } from "./dom.js";
import { S, boot, data, invite, render, tableId } from "./state.js";
import { toast } from "./controls.js";
import { trickStage } from "./stage.js";
import { watch } from "./heartbeat.js";
import { reconnectDelay } from "../lib/reconnect.js";

let handler = () => {};
export function onMessage(fn) { handler = fn; }

function wsUrl() {
  let u = first(data.wsUrl, boot.ws_url, boot.ws_path, "/ws/table/" + tableId + "/");
  if (!/^wss?:/.test(u)) u = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + u;
  if (invite && u.indexOf("invite=") < 0) {
    u += (u.indexOf("?") < 0 ? "?" : "&") + "invite=" + encodeURIComponent(invite);
  }
  return u;
}

export function connect() {
  setConn(S.reconnecting ? "lost" : "connecting");
  let ws;
  try { ws = new WebSocket(wsUrl()); } catch (e) { scheduleReconnect(); return; }
  S.ws = ws;
  S.gotSnapshot = false;
  // A handshake a stalled path holds would leave the page "connecting" for as long as it lasts.
  setTimeout(() => { if (S.ws === ws && ws.readyState === 0) dropStalled(ws); }, OPEN_TIMEOUT_MS);
  ws.onopen = () => {
    S.retry = 0;
    if (S.beat) S.beat.stop();
    S.beat = watch(ws, () => dropStalled(ws));
    if (!S.reconnecting) setConn("online");
    // The server sends a snapshot on connect; ask for one if it does not come.
    setTimeout(() => { if (S.ws === ws && !S.gotSnapshot) send({ type: "sync" }); }, 1500);
  };
  ws.onmessage = (ev) => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch (e) { return; }
    if (S.beat) S.beat.heard();
    if (msg.type === "pong") return;
    if (msg.type === "snapshot" && S.reconnecting) showReconnected();
    if (isStale(msg)) return;
    handler(msg);
  };
  ws.onclose = (ev) => {
    if (S.ws !== ws) return;
    S.ws = null;
    if (S.beat) { S.beat.stop(); S.beat = null; }
    clearBusy();
    if (ev.code === 4403 || ev.code === 4404 || ev.code === 4401) {
      setConn("forbidden");
      render();
      return;
    }
    if (GOING_AWAY.includes(ev.code)) {
      // The server is restarting (docs/PROTOCOL.md "Restarts"): another process takes the socket
      // at once; a little jitter so a whole process's sockets do not arrive in one instant.
      S.reconnecting = true;
      setConn("lost");
      setTimeout(connect, 100 + Math.random() * 400);
    } else {
      scheduleReconnect();
    }
    render();
  };
}

const GOING_AWAY = [4503, 1012, 1001];
const OPEN_TIMEOUT_MS = 5000;

/* A socket that went silent (heartbeat.js) or never opened: forgotten at once (its close may take
 * as long as the stall) and replaced; the player sees "reconnecting" until a snapshot comes. */
function dropStalled(ws) {
  if (S.ws !== ws) return;
  ws.onopen = ws.onmessage = ws.onclose = null;
  try { ws.close(); } catch (e) { /* already closing */ }
  S.ws = null;
  if (S.beat) { S.beat.stop(); S.beat = null; }
  clearBusy();
  scheduleReconnect();
  render();
}

/* Back after a loss: said for a few seconds, then the usual "Connected". */
function showReconnected() {
  S.reconnecting = false;
  setConn("reconnected");
  setTimeout(() => { if (S.conn === "reconnected") { setConn("online"); render(); } }, 4000);
}

/* An update older than what is shown (a snapshot overtook it) changes nothing. */
function isStale(msg) {
  return msg.type === "update" && S.version !== null && typeof msg.version === "number" && msg.version < S.version;
}

function scheduleReconnect() {
  S.reconnecting = true;
  setConn("lost");
  setTimeout(connect, reconnectDelay(S.retry++));
}

export function send(obj) {
  if (!S.ws || S.ws.readyState !== 1) { toast(t("not_connected")); return false; }
  S.ws.send(JSON.stringify(obj));
  return true;
}

/* Send quietly: nothing to tell the player if the socket is down (a client seed, a resync). */
export function sendQuiet(obj) {
  if (S.ws && S.ws.readyState === 1) S.ws.send(JSON.stringify(obj));
}

/* Sent and awaited: the buttons wait until the answer (or a while: then they come back). */
function markBusy() {
  S.busy = true;
  S.busyTimer = setTimeout(() => { clearBusy(); render(); }, 6000);
}

/* Send an action once, with the version it was chosen on. A refusal comes back as an error and
 * is shown; the server accepts a simultaneous action (the hearts pass) whatever the version
 * while the seat still owes it, so nothing is ever sent again. */
export function act(action) {
  if (S.busy) return;
  if (send({ type: "action", version: S.version, action: action })) {
    trickStage().hurry();   // the held trick makes way for the player's move
    markBusy();
    S.marriageFor = null;
    render();
  }
}

/* A request that moves the table on (the claim of a leaver's win): awaited like an action. */
export function request(obj) {
  if (S.busy) return;
  if (send(Object.assign({ version: S.version }, obj))) {
    markBusy();
    render();
  }
}

export function clearBusy() {
  S.busy = false;
  if (S.busyTimer) { clearTimeout(S.busyTimer); S.busyTimer = null; }
}

export function setConn(state) {
  S.conn = state;
  // Lost: the hand and the prompt are dimmed and do not take a click that would go nowhere.
  if (app) app.classList.toggle("conn-lost", state === "lost");
  const node = $("#conn-status");
  if (!node) return;
  node.className = "conn conn-" + state;
  node.textContent = t("conn_" + state);
}
