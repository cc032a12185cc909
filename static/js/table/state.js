/* The one state of the table client and what it reads from it. Every snapshot/update replaces the
 * table and the view (socket.js); everything else is drawn from them (render modules, prompts).
 * The game is what the server describes (the table JSON's "rules": seats, teams in score-column
 * order, target, the result key of a deal's points, the rank order; the view's "decision": what this
 * seat is asked to decide): nothing here names a game or counts its points. */
import { Cards, app, first, readJSON } from "./dom.js";
import { t } from "./i18n.js";

export const boot = readJSON("table-boot") || {};
export const data = app ? app.dataset : {};

export const tableId = app ? first(data.tableId, boot.table_id, boot.id,
                                   (location.pathname.match(/(\d+)\/?$/) || [])[1]) : null;
export const invite = first(data.invite, boot.invite, boot.invite_token,
                            new URLSearchParams(location.search).get("invite"));
export const lobbyUrl = first(data.lobbyUrl, boot.lobby_url, "/");

export const S = {
  version: null, table: null, view: null, you: null, chat: [],
  busy: false, busyTimer: null, selected: [], marriageFor: null,
  overlay: null, overlayDismissed: {}, ws: null, retry: 0, conn: "connecting",
  clockAt: Date.now(), skew: 0, gotSnapshot: false
};

/* Redraw everything from S: main.js installs the renderer (modules below it call render()). */
let renderer = () => {};
export function setRenderer(fn) { renderer = fn; }
export function render() { renderer(); }

export function rules() { return (S.table && S.table.rules) || null; }
export function nSeats() {
  if (S.table && S.table.seats && S.table.seats.length) return S.table.seats.length;
  if (S.view && S.view.players) return S.view.players.length;
  if (rules()) return rules().seats;
  return boot.seats || 4;
}
/* Score columns: the rules' teams (one seat each where players play alone). */
export function teams() {
  if (rules() && rules().teams) return rules().teams;
  const alone = [];
  for (let s = 0; s < nSeats(); s++) alone.push([s]);
  return alone;
}
export function perTeam(perSeat) {
  return teams().map((team) => team.reduce((sum, seat) => sum + (perSeat[seat] || 0), 0));
}
export function game() { return (S.table && S.table.game) || (S.view && S.view.game) || data.game || boot.game; }
/* Sorts a hand in the engine's rank order (strongest last). */
export function sortCards(codes) {
  return Cards.sortHand(codes, game(), rules() && rules().rank_order);
}
export function mySeat() { return typeof S.you === "number" ? S.you : null; }
export function position(seat) {
  const n = nSeats(), me = mySeat() === null ? 0 : mySeat();
  const rel = (seat - me + n) % n;
  if (n === 2) return rel === 0 ? "bottom" : "top";
  return ["bottom", "left", "top", "right"][rel];
}
export function serverNow() { return Date.now() + S.skew; }

/* A bot seat's wire name is "bot:<level>" (one bot user per level): shown translated as
 * "Bot (strong)", with its seat number where another seat has a bot of the same level ("Bot 2
 * (random)", "Bot 3 (random)"), as every page says it (games/labels.py). A seat a bot took over
 * keeps its player's name (and gets a bot badge). */
export function isBotName(name) { return typeof name === "string" && name.indexOf("bot:") === 0; }
function botLevelAt(seat) {
  const info = S.table && S.table.seats && S.table.seats[seat];
  if (info && info.name) return info.is_bot && isBotName(info.name) ? (info.bot_level || info.name.slice(4)) : null;
  const pl = S.view && S.view.players && S.view.players[seat];
  return isBotName(pl) ? pl.slice(4) : null;
}
function botSeatName(seat, level) {
  let same = 0;
  for (let s = 0; s < nSeats(); s++) if (botLevelAt(s) === level) same++;
  const label = t("level_" + (level || "random"));
  return same > 1 ? t("bot_seat", { n: seat + 1, level: label }) : t("bot_name", { level: label });
}
export function seatName(seat) {
  const info = S.table && S.table.seats && S.table.seats[seat];
  const level = botLevelAt(seat);
  if (level) return botSeatName(seat, level);
  if (info && info.name) return info.name;
  if (S.view && S.view.players && S.view.players[seat]) return S.view.players[seat];
  return t("seat_n", { n: seat + 1 });
}
/* A score column's name: its seats' names ("A & C" for a partnership). */
export function teamName(team) { return (teams()[team] || []).map(seatName).join(" & "); }
export function scoreColumns() { return teams().map((_, team) => teamName(team)); }

export function toAct() {
  if (S.table && S.table.status === "finished") return [];     // a forfeit leaves its deal unfinished
  if (S.view && S.view.to_act && !S.view.over) return S.view.to_act;
  if (S.table && S.table.clocks && S.table.clocks.to_act) return S.table.clocks.to_act;
  return [];
}
export function legal() { return (S.view && S.table && S.table.status !== "finished" && S.view.legal) || []; }
/* What this seat is asked to decide now (the view's "decision": its kinds and their details). */
export function decision() {
  return (legal().length && S.view.decision) || null;
}
export function deciding(kind) {
  const d = decision();
  return !!d && d.kinds.indexOf(kind) >= 0;
}
export function legalPlays() {
  const map = {};
  legal().forEach((a) => { if (a.type === "play") (map[a.card] = map[a.card] || []).push(a); });
  return map;
}
export function myTurnNow() {
  const me = mySeat(), tb = S.table;
  return me !== null && !!S.view && !!tb && tb.status === "playing" && toAct().indexOf(me) >= 0 && legal().length > 0;
}
export function isOwner() {
  const tb = S.table;
  if (boot.is_owner !== undefined) return !!boot.is_owner;
  if (data.isOwner) return data.isOwner === "true" || data.isOwner === "True";
  const me = first(boot.username, boot.user, data.username);
  if (tb && tb.owner !== undefined && tb.owner !== null && me !== null) return String(tb.owner) === String(me);
  return true;
}
