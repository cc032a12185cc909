/* The match-end box: who left the match, each player's rating change once the server has computed
 * it (a "ratings" message), and the rematch: offered by a player, answered by the others (bots
 * accept at once), shown live to everyone; when all have accepted, everyone moves to the new table. */
import { el } from "../dom.js";
import { t } from "../i18n.js";
import { S, mySeat, nSeats, seatName } from "../state.js";
import { button, toast } from "../controls.js";
import { send } from "../socket.js";
import { leaverNote } from "../leavers.js";
import { exitNote } from "../exits.js";

export function renderMatchEnd(panel) {
  leaverNote(panel);
  exitNote(panel);
  if (S.table.rated && S.table.match.ended_by !== "aborted") panel.appendChild(ratingsBox());
  const box = S.table.tournament ? null : rematchBox();    // the tournament pairs the next match
  if (box) panel.appendChild(box);
}

function ratingsBox() {
  const box = el("div", "rating-changes");
  box.setAttribute("data-ratings", S.ratings ? "ready" : "pending");
  if (!S.ratings) { box.appendChild(el("p", "muted", t("ratings_pending"))); return box; }
  box.appendChild(el("h3", "", t("rating_changes")));
  S.ratings.forEach((r) => {
    const line = el("div", "rating-change " + (r.delta > 0 ? "up" : r.delta < 0 ? "down" : "same"));
    line.setAttribute("data-seat", r.seat);
    line.appendChild(el("span", "rating-name", seatName(r.seat)));
    const sign = r.delta > 0 ? "+" : r.delta < 0 ? "\u2212" : "\u00b1";
    line.appendChild(el("span", "rating-delta", sign + Math.abs(r.delta) + " (" + r.after + ")"));
    box.appendChild(line);
  });
  return box;
}

/* A "ratings" message: the changes, and each seat's rating beside its name. */
export function onRatings(changes) {
  S.ratings = changes || null;
  (S.ratings || []).forEach((r) => { if (S.seatRatings) S.seatRatings[r.seat] = r.after; });
}

function rematchBox() {
  const offer = S.table.rematch, me = mySeat();
  if (!offer && me === null) return null;
  const box = el("div", "rematch");
  box.setAttribute("data-rematch", offer ? offer.status : "none");
  if (offer && offer.status === "started") { box.appendChild(el("p", "", t("rematch_starting"))); return box; }
  if (offer && offer.status === "open") {
    box.appendChild(el("p", "rematch-offer", t("rematch_offered", { name: seatName(offer.by) })));
    const list = el("ul", "rematch-seats");
    for (let s = 0; s < nSeats(); s++) {
      const yes = offer.accepted.indexOf(s) >= 0;
      const li = el("li", yes ? "accepted" : "waiting", seatName(s) + ": " + t(yes ? "rematch_accepted" : "rematch_waiting"));
      li.setAttribute("data-seat", s);
      list.appendChild(li);
    }
    box.appendChild(list);
    if (me === null) return box;
    if (offer.accepted.indexOf(me) < 0) {
      box.appendChild(button(t("rematch_accept"), () => answerRematch("accept"), "primary", { "data-action": "rematch-accept" }));
    }
    const mine = offer.by === me;
    box.appendChild(button(t(mine ? "rematch_withdraw" : "rematch_decline"), () => answerRematch("decline"),
      "subtle", { "data-action": "rematch-decline" }));
    return box;
  }
  if (offer && offer.status === "cancelled") box.appendChild(el("p", "rematch-reason", rematchCancelReason(offer)));
  if (me !== null) {
    box.appendChild(button(t("rematch"), () => answerRematch("offer"), "primary", { "data-action": "rematch" }));
  }
  return box;
}

function rematchCancelReason(offer) {
  const key = offer.reason === "left" ? "rematch_left" :
    offer.seat === offer.by ? "rematch_withdrawn" : "rematch_declined";
  return t(key, { name: seatName(offer.seat) });
}

function answerRematch(answer) {
  send({ type: "rematch", answer: answer, version: S.version });
}

/* An offer reopens a closed match-end box; a cancelled one is told; a started one is followed. */
export function onRematch(ev) {
  if (ev.status === "open") delete S.overlayDismissed.match;
  if (ev.status === "cancelled") toast(rematchCancelReason(ev));
  followRematch();
}

export function followRematch() {
  const offer = S.table && S.table.rematch;
  if (!offer || offer.status !== "started" || !offer.table || S.leaving) return;
  if (mySeat() === null && S.table.private) return;   // the new table has a new invite link
  S.leaving = true;
  location.assign(location.pathname.replace(/\d+\/?$/, offer.table + "/"));
}
