/* The seats around the felt: name and picture, badges (bot, away, dealer), clock, rating, the
 * seat's counts from the view (tricks, points, bid), the backs of its cards, sit/leave. */
import { $, app, clear, el } from "../dom.js";
import { t } from "../i18n.js";
import { S, isBotName, mySeat, nSeats, position, seatName, toAct } from "../state.js";
import { button } from "../controls.js";
import { clockMs, fmtClock } from "../clock.js";
import { send } from "../socket.js";
import { leaverBadge } from "../leavers.js";
import { pmSeatName } from "../players_menu.js";

const SLOTS = 4;      // the felt's seat boxes (templates/lobby/table.html)

export function renderSeats() {
  const felt = $("#felt");
  const n = nSeats();
  app.classList.toggle("two-seats", n === 2);
  const acting = toAct();
  const v = S.view, tb = S.table;
  const waiting = tb && tb.status === "waiting";
  for (let seat = 0; seat < SLOTS; seat++) {
    const box = felt.querySelector('.seat-box[data-slot="' + seat + '"]');
    if (!box) continue;
    if (seat >= n) { box.hidden = true; continue; }
    box.hidden = false;
    box.className = "seat-box pos-" + position(seat) + (acting.indexOf(seat) >= 0 ? " acting" : "") +
      (seat === mySeat() ? " mine" : "");
    box.setAttribute("data-seat", seat);
    clear(box);
    const info = tb && tb.seats ? tb.seats[seat] : null;
    box.appendChild(seatHead(seat, info, v, tb));
    box.appendChild(seatLine(seat, info, v, tb, acting));
    if (v && seat !== mySeat() && v.hand_sizes) {
      const backs = el("div", "mini-backs");
      const k = v.hand_sizes[seat] || 0;
      for (let i = 0; i < Math.min(k, 13); i++) backs.appendChild(el("span", "mini-back"));
      backs.setAttribute("title", String(k));
      box.appendChild(backs);
    }
    if (waiting && info && !info.name && mySeat() === null) {
      box.appendChild(button(t("sit"), () => send({ type: "sit", seat: seat }), "small", { "data-action": "sit" }));
    }
    if (waiting && seat === mySeat()) {
      box.appendChild(button(t("leave"), () => send({ type: "leave" }), "small subtle", { "data-action": "leave" }));
    }
    if (v && v.phase === "pass" && v.waiting_for_pass && v.waiting_for_pass.indexOf(seat) < 0) {
      box.appendChild(el("div", "seat-note", t("has_passed")));
    }
  }
}

function seatHead(seat, info, v, tb) {
  const head = el("div", "seat-head");
  const name = el("span", "seat-name", info && !info.name ? t("empty_seat") : seatName(seat));
  name.classList.add("long-name");
  name.title = name.textContent;
  if (info && info.name) head.appendChild(avatar(name.textContent));
  head.appendChild(pmSeatName(name, info));     /* players' menu: a button for another player */
  if (info && info.is_bot && !isBotName(info.name)) head.appendChild(el("span", "badge bot", t("bot_" + (info.bot_level || "basic"))));
  if (info && info.bot_account && !info.is_bot) {   // a bot account (the bot API)
    const botBadge = el("span", "badge bot-account", t("bot_account"));
    botBadge.title = t("bot_account_title");
    head.appendChild(botBadge);
  }
  // Away: during a match the server says so (away_since, after a grace: leaverBadge); before
  // it, a seated player with no socket open is simply not at the table.
  if (!leaverBadge(head, seat) && info && info.name && !info.is_bot && info.connected === false &&
      tb && tb.status === "waiting") head.appendChild(el("span", "badge away", t("away")));
  if (v && v.dealer === seat) head.appendChild(el("span", "badge dealer", t("dealer_short")));
  return head;
}

function seatLine(seat, info, v, tb, acting) {
  const line = el("div", "seat-line");
  const ms = clockMs(seat);
  if (ms !== null && tb && tb.status !== "waiting" && !(info && info.is_bot)) {   // a bot has no clock
    const clock = el("span", "clock" + (ms < 15000 && acting.indexOf(seat) >= 0 ? " low" : ""), fmtClock(ms));
    clock.setAttribute("data-clock-seat", seat);
    line.appendChild(clock);
  }
  const rating = info && info.name && S.seatRatings ? S.seatRatings[seat] : null;
  if (typeof rating === "number") {
    const rated = el("span", "stat seat-rating", t("rating_n", { n: rating }));
    rated.setAttribute("data-rating-seat", seat);
    line.appendChild(rated);
  }
  if (v) {
    line.appendChild(el("span", "stat", t("tricks_n", { n: (v.tricks_won || [])[seat] || 0 })));
    if (v.points_taken) line.appendChild(el("span", "stat", t("points_n", { n: v.points_taken[seat] })));
    if (v.bids) {       // a game of bids: each seat's, as the view states it
      const bid = v.bids[seat];
      const txt = v.blind_nil && v.blind_nil[seat] ? t("blind_nil") :
        bid === null || bid === undefined ? t("bid_none") : bid === 0 ? t("nil") : String(bid);
      line.appendChild(el("span", "stat bid", t("bid_is", { bid: txt })));
    }
  }
  return line;
}

/* Each tick: the clocks' texts (nothing else changes between messages). */
export function tickClocks() {
  const acting = toAct();
  app.querySelectorAll("[data-clock-seat]").forEach((node) => {
    const seat = +node.getAttribute("data-clock-seat");
    const ms = clockMs(seat);
    node.textContent = fmtClock(ms);
    node.classList.toggle("low", ms !== null && ms < 15000 && acting.indexOf(seat) >= 0);
  });
}

/* A player's picture: the initials of the name shown, on a colour that follows from that name (the
 * same at every table; two bots of a level differ by their numbers). Decorative: the name beside
 * it says who it is. */
const AVATAR_COLOURS = 8;
function avatar(name) {
  let hash = 0;
  for (let i = 0; i < name.length; i++) hash = (hash * 31 + name.charCodeAt(i)) >>> 0;
  const node = el("span", "avatar avatar-" + (hash % AVATAR_COLOURS), initials(name));
  node.setAttribute("aria-hidden", "true");
  return node;
}
/* "Ala Kot" AK, "Bot 2 (basic)" B2, "guest-f1a2b3" and "guest-614233" GU (a code with digits
 * is no initial; a seat's number of one or two digits is), "demo" DE. The pages' initials filter
 * (games/templatetags/game_labels.py) follows the same rule. */
export function initials(name) {
  const words = name.split(/[^0-9A-Za-z\u00C0-\u024F\u0370-\u03FF\u0400-\u04FF]+/).filter(Boolean);
  if (!words.length) return name.charAt(0).toUpperCase();
  const second = words[1] || "";
  const usable = /^\d{1,2}$/.test(second) || (second && !/\d/.test(second));
  return (usable ? words[0].charAt(0) + second.charAt(0) : words[0].slice(0, 2)).toUpperCase();
}
