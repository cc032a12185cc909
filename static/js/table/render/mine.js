/* Beside the hand: what the view tells this seat of its own deal (points, captured cards, a
 * marriage's pending points), the marriages announced, each team's tricks against its contract,
 * the cards a pass brought, and the deal's flags (hearts or spades broken, the pass's direction). */
import { $, Cards, clear, el } from "../dom.js";
import { t } from "../i18n.js";
import { S, mySeat, seatName, sortCards, teamName } from "../state.js";
import { currentBags } from "./scores.js";

export function renderMine() {
  const box = clear($("#mine"));
  const v = S.view;
  if (!v) return;
  if (v.my_points !== undefined && v.my_points !== null && mySeat() !== null) {
    box.appendChild(el("div", "mine-line", t("my_points", { n: v.my_points || 0 })));
    if (v.pending_marriage_points) {
      box.appendChild(el("div", "mine-line", t("pending_marriage", { n: v.pending_marriage_points })));
    }
    const cap = v.my_captured || [];
    if (cap.length) {
      const row = el("div", "captured");
      row.appendChild(el("span", "mine-label", t("captured")));
      sortCards(cap).forEach((c) => row.appendChild(Cards.face(c, "div")));
      box.appendChild(row);
    }
  }
  if (v.marriages && v.marriages.length) {
    const m = el("div", "mine-line");
    m.textContent = t("marriages") + ": " + v.marriages.map((x) => {
      if (typeof x === "string") return x;
      const s = x.suit || (x.card ? Cards.suitOf(x.card) : "");
      return seatName(x.seat) + " " + (Cards.SUIT_SYMBOL[s] || "") + (x.points ? " " + x.points : "");
    }).join(", ");
    box.appendChild(m);
  }
  if (v.team_tricks) {
    v.team_tricks.forEach((tricks, team) => {
      const c = v.contracts ? v.contracts[team] : null;
      box.appendChild(el("div", "mine-line team-line",
        t("team_line", { team: teamName(team), tricks: tricks,
                         contract: c === null || c === undefined ? "\u2013" : c,
                         bags: (currentBags() || [])[team] || 0 })));
    });
  }
  // The cards the pass brought, named with who passed them, until the first trick ends.
  if ((v.received || []).length && v.received_from !== null && v.received_from !== undefined &&
      !(v.last_trick && v.last_trick.cards)) {
    const got = el("div", "received-line");
    got.appendChild(el("span", "mine-label", t("received_from", { name: seatName(v.received_from) })));
    sortCards(v.received).forEach((c) => got.appendChild(Cards.face(c, "div")));
    box.appendChild(got);
  }
  const flags = [];
  if (v.hearts_broken) flags.push(t("hearts_broken"));
  if (v.pass_direction && v.phase === "play") flags.push(t("pass_was_" + v.pass_direction));
  if (flags.length) box.appendChild(el("div", "mine-line", flags.join(" \u00b7 ")));
  if (v.spades_broken) box.appendChild(el("div", "mine-line", t("spades_broken")));
}
