/* Leavers: away seats, claiming the win (docs/PROTOCOL.md, "Leavers").
 * A player whose every socket closed during the match is away: his seat in the table JSON has
 * away_since and grace_ends_at (epoch ms, server time). At grace_ends_at his opponent in a
 * two-player match may claim the win ({"type": "claim_win", "version"}; the server refuses it
 * earlier, or once he is back); in a match of more players a bot takes his seat (the server does
 * it). His seat shows an "away" badge counting down; a bar above the prompt says what happens
 * then, and offers the opponent the claim once it may be made. A reload closes a socket and opens
 * another: nothing is shown for the first AWAY_QUIET_MS. */
import { $, app, clear, el } from "./dom.js";
import { t } from "./i18n.js";
import { S, mySeat, nSeats, render, seatName, serverNow } from "./state.js";
import { button } from "./controls.js";
import { fmtClock } from "./clock.js";
import { request } from "./socket.js";

const AWAY_QUIET_MS = 3000;

/* null (here, or no match on), "quiet" (just gone), "counting" (the grace runs), "over". */
function awayPhase(seat) {
  const info = S.table && S.table.seats && S.table.seats[seat];
  const on = S.table && (S.table.status === "playing" || S.table.status === "between_deals");
  if (!on || !info || !info.away_since || !info.grace_ends_at || info.is_bot) return null;
  const now = serverNow();
  if (now - info.away_since < AWAY_QUIET_MS && now < info.grace_ends_at) return "quiet";
  return now < info.grace_ends_at ? "counting" : "over";
}
function graceLeft(seat) { return S.table.seats[seat].grace_ends_at - serverNow(); }
function awaySeats() {
  const out = [];
  for (let s = 0; s < nSeats(); s++) {
    const phase = s !== mySeat() && awayPhase(s);
    if (phase === "counting" || phase === "over") out.push(s);
  }
  return out;
}
/* What the tick compares to redraw when a seat goes quiet, counting or over. */
function leaverKey() {
  const key = [];
  for (let s = 0; s < nSeats(); s++) key.push(awayPhase(s) || "");
  return key.join(",");
}
function badgeText(seat) {
  const left = graceLeft(seat);
  return left > 0 ? t("away_countdown", { time: fmtClock(left) }) : t("away");
}

/* The seat's badge; true when the plain "away" badge is not wanted. */
export function leaverBadge(head, seat) {
  const phase = awayPhase(seat);
  if (!phase) return false;
  if (phase === "quiet") return true;
  const badge = el("span", "badge away leaver", badgeText(seat));
  badge.setAttribute("data-away-seat", seat);
  head.appendChild(badge);
  return true;
}

/* What the bar says of one away seat, and whether its opponent (this player) may claim now: a
 * claim when he plays alone against the leaver, a bot otherwise (the server decides which;
 * this only words it). */
function leaverLine(seat) {
  const left = graceLeft(seat), over = left <= 0, name = seatName(seat);
  if (nSeats() > 2) {
    return { text: over ? t("leaver_bot_now", { name: name }) :
               t("leaver_bot_in", { name: name, n: Math.ceil(left / 1000) }), claim: false };
  }
  const mine = mySeat() !== null;
  const key = (mine ? "leaver_claim_" : "leaver_watch_") + (over ? "now" : "in");
  return { text: t(key, { name: name, time: fmtClock(left) }), claim: mine && over };
}

function leaverBar() {
  let bar = document.getElementById("leaver-bar");
  if (bar) return bar;
  bar = el("div", "leaver-bar");
  bar.id = "leaver-bar";
  bar.hidden = true;
  const prompt = $("#prompt");
  prompt.parentNode.insertBefore(bar, prompt);
  return bar;
}

export function renderLeaver() {
  const bar = leaverBar(), seats = awaySeats();
  S.leaverKey = leaverKey();
  clear(bar);
  bar.hidden = !seats.length;
  seats.forEach((seat) => {
    const line = leaverLine(seat);
    const row = el("div", "leaver-line");
    row.setAttribute("data-leaver-seat", seat);
    const text = el("span", "leaver-text", line.text);
    text.setAttribute("data-leaver-text", seat);
    row.appendChild(text);
    if (line.claim) {
      row.appendChild(button(t("claim_win"), () => request({ type: "claim_win" }), "primary claim-win",
                             { "data-action": "claim-win" }));
    }
    bar.appendChild(row);
  });
}

/* Each tick: the countdowns; a seat going from quiet to counting to over redraws the table. */
export function tickLeaver() {
  if (S.leaverKey !== undefined && leaverKey() !== S.leaverKey) { render(); return; }
  app.querySelectorAll("[data-leaver-text]").forEach((node) => {
    node.textContent = leaverLine(+node.getAttribute("data-leaver-text")).text;
  });
  app.querySelectorAll("[data-away-seat]").forEach((node) => {
    node.textContent = badgeText(+node.getAttribute("data-away-seat"));
  });
}

/* The match-end box: who left the match (and so lost it). */
export function leaverNote(panel) {
  const m = S.table && S.table.match;
  if (!m || !m.abandoned || !m.abandoned.length) return;
  m.abandoned.forEach((seat) => {
    const note = el("p", "result-note leaver-note", t("ended_abandoned", { name: seatName(seat) }));
    note.setAttribute("data-abandoned-seat", seat);
    panel.appendChild(note);
  });
}
