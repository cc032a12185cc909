/* The live table client (docs/ARCHITECTURE.md, "The client"). It is driven only by server
 * messages (docs/PROTOCOL.md): every snapshot/update replaces the state and the whole table is
 * re-rendered from it. The client never decides what is legal: it shows view.legal, asks what the
 * view's decision describes, and sends the chosen action object with the version of the last
 * snapshot/update. UI strings come from the translated JSON dictionary #table-i18n. This module
 * wires the others together: messages in, one render, the clock's tick, the page's settings. */
import { app } from "./dom.js";
import { t } from "./i18n.js";
import * as FX from "./fx.js";
import { S, myTurnNow, mySeat, setRenderer, tableId } from "./state.js";
import { toast } from "./controls.js";
import { clearBusy, connect, onMessage, send, setConn } from "./socket.js";
import { SEED_REFUSALS, addSeed } from "./seeds.js";
import { presenting } from "./stage.js";
import { appendChat, bindChat, renderChat, setAuthor } from "./chat.js";
import { pmChatFrom, pmMessage, pmSnapshot } from "./players_menu.js";
import { renderLeaver, tickLeaver } from "./leavers.js";
import { exitEvent, renderExits } from "./exits.js";
import { bubbleFor } from "./bubbles.js";
import { bindKeyboard } from "./keyboard.js";
import { renderHeader } from "./render/header.js";
import { renderSeats, tickClocks } from "./render/seats.js";
import { renderCenter } from "./render/center.js";
import { renderHand } from "./render/hand.js";
import { renderMine } from "./render/mine.js";
import { renderScores } from "./render/scores.js";
import { renderLastTrick } from "./render/last_trick.js";
import { maybeOverlay, renderOverlay, showOverlay, tickNextDeal } from "./render/results.js";
import { followRematch, onRatings, onRematch } from "./render/match_end.js";
import { renderPrompt } from "./prompts/index.js";
import { onHint } from "./prompts/hint.js";
import { followTournament } from "./tournament_follow.js";

/* What tests and the page's other scripts may read; ``presenting()``: the middle of the table is
 * still showing a finished trick (held, or sweeping to its winner); the prompt and the playable
 * marks wait for it; ``fx``: motion and sound (fx.js). */
window.tableClient = { state: S, t: t, presenting: presenting, fx: FX };

function render() {
  app.classList.toggle("busy", S.busy);
  app.setAttribute("data-phase", (S.view && S.view.phase) || "");
  app.setAttribute("data-status", (S.table && S.table.status) || "");
  app.setAttribute("data-version", S.version === null ? "" : S.version);
  renderHeader();
  renderSeats();
  renderCenter();
  renderPrompt();
  renderLeaver();
  renderHand();
  renderMine();
  renderExits();
  renderScores();
  renderLastTrick();
  maybeOverlay();
  renderOverlay();
  signalTurn();
  setConn(S.conn);
  followTournament();
}

/* Our turn: a chime when it begins (not on a reload) and the tab's title and icon say so. */
function signalTurn() {
  const mine = myTurnNow();
  if (mine && S.wasMyTurn === false && S.live) FX.sound.play("turn");
  S.wasMyTurn = mine;
  const title = app.querySelector(".table-title strong");
  FX.turnSignal(mine, t("your_turn") + " \u2014 " + (title ? title.textContent.trim() + " " : "") + "#" + tableId);
}

/* A snapshot or update: the new table and view (and what a new deal resets). */
function accept(msg) {
  const oldDeal = S.view ? S.view.deal_number : null;
  S.version = msg.version;
  if (msg.table) S.table = msg.table;
  S.view = msg.view || null;
  if (msg.you !== undefined) S.you = msg.you;
  if (msg.seat_ratings !== undefined) S.seatRatings = msg.seat_ratings;     // snapshots only
  S.clockAt = Date.now();
  const serverTime = [msg.now, msg.server_time, S.table && S.table.clocks && S.table.clocks.now]
    .filter((x) => typeof x === "number")[0];
  if (serverTime !== undefined) S.skew = serverTime - Date.now();
  clearBusy();
  const newDeal = S.view ? S.view.deal_number : null;
  if (newDeal !== oldDeal) { S.selected = []; S.marriageFor = null; }
  if (!S.view || !S.view.claim) S.confirmClaim = null;
  // keep only selected cards still in hand
  const hand = (S.view && S.view.hand) || [];
  S.selected = S.selected.filter((c) => hand.indexOf(c) >= 0);
}

/* "Join" in the lobby links here with ?sit=1: take the first open seat once. */
let wantSit = new URLSearchParams(location.search).has("sit");
function autoSit() {
  if (!wantSit || mySeat() !== null || !S.table || S.table.status !== "waiting") return;
  const open = (S.table.seats || []).filter((x) => !x.name)[0];
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

function handle(msg) {
  switch (msg.type) {
    case "snapshot":
      S.gotSnapshot = true;
      S.live = false;     // a whole new picture: shown as it is, nothing travels
      accept(msg);
      S.chat = msg.chat || [];
      pmSnapshot(msg);
      S.ratings = msg.ratings || null;
      if (msg.invite) S.invite = msg.invite;
      autoSit();
      renderChat();
      followRematch();
      break;
    case "update":
      S.live = true;      // what changed may be shown happening (fx.js)
      accept(msg);
      (msg.events || [msg.event]).forEach(bubbleFor);
      (msg.events || [msg.event]).forEach(exitEvent);
      onEvent(msg.event);
      break;
    case "chat":
      if (msg.message) appendChat(msg.message);
      return;
    case "muted": case "reported":
      pmMessage(msg);
      return;
    case "ratings":
      onRatings(msg.changes);
      break;
    case "hint":
      onHint(msg);
      return;
    case "error":
      if (SEED_REFUSALS.indexOf(msg.code) >= 0) return;
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

/* The table's settings: the sound switch and the four-colour deck, both remembered. */
function bindSettings() {
  const sound = document.getElementById("sound-on"), four = document.getElementById("four-colour");
  if (sound) {
    sound.checked = FX.sound.enabled();
    sound.addEventListener("change", () => FX.sound.setEnabled(sound.checked));
  }
  const applyFour = (on) => app.classList.toggle("four-colour", on);
  applyFour(FX.prefs.get("four_colour", "off") === "on");
  if (four) {
    four.checked = app.classList.contains("four-colour");
    four.addEventListener("change", () => {
      FX.prefs.set("four_colour", four.checked ? "on" : "off");
      applyFour(four.checked);
    });
  }
}

if (app) {
  setRenderer(render);
  onMessage(handle);
  setAuthor(pmChatFrom);
  bindSettings();
  bindKeyboard();
  bindChat();
  render();
  connect();
  /* The local tick: only the clocks' and countdowns' texts change between messages. */
  setInterval(() => { tickNextDeal(); tickLeaver(); tickClocks(); }, 250);
}
