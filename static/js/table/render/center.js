/* The middle of the table: the trick on its stage (stage.js), the pass's arrow, and the talon
 * when the view has one (a stock and a trump card); notes around them are redrawn each time. */
import { $, Cards, el } from "../dom.js";
import { t } from "../i18n.js";
import * as FX from "../fx.js";
import { S, myTurnNow, seatName } from "../state.js";
import { trickStage } from "../stage.js";

export const PASS_ARROW = { left: "\u2190", right: "\u2192", across: "\u2191", none: "\u2022" };
/* Phases whose middle shows no last trick (the deal's first decisions come before any trick). */
const NO_TRICK_PHASES = ["pass", "bid", "blind_nil"];

export function renderCenter() {
  const area = $("#trick-area"), stage = trickStage();
  Array.prototype.slice.call(area.children).forEach((c) => { if (c !== stage.node) area.removeChild(c); });
  if (stage.node.parentNode !== area) area.appendChild(stage.node);
  const v = S.view;
  if (!v) {
    stage.reset();
    area.appendChild(el("div", "center-note", S.table && S.table.status === "waiting" ? t("waiting_players") : ""));
    return;
  }
  const showsLast = NO_TRICK_PHASES.indexOf(v.phase) < 0;
  if (v.phase === "pass" && v.pass_direction) {     // which way the passed cards go
    const big = el("div", "pass-center pass-" + v.pass_direction, PASS_ARROW[v.pass_direction] || "");
    big.setAttribute("aria-hidden", "true");
    area.appendChild(big);
  }
  stage.update({ trick: v.trick || [], last_trick: showsLast ? v.last_trick : null }, !!S.live, FX.motionAllowed(),
               myTurnNow());
  if (typeof v.stock_size === "number") renderTalon(area, v);
}

/* The stock, the trump card turned under it (or face down once closed), and what they mean. */
function renderTalon(area, v) {
  const C = Cards;
  const talon = el("div", "talon");
  const stock = el("div", "stock");
  const size = v.stock_size || 0;
  if (v.trump_card && !v.closed) {
    const tc = C.face(v.trump_card);
    tc.classList.add("trump-card");
    stock.appendChild(tc);
  } else if (v.closed && (size > 0 || v.trump_card)) {
    stock.appendChild(C.back("trump-card closed"));
  }
  if (size > (v.trump_card ? 1 : 0) || (v.closed && size > 0)) stock.appendChild(C.back("stock-pile"));
  talon.appendChild(stock);
  const suit = v.trump_suit;
  const lbl = el("div", "talon-label");
  if (suit) {
    const sym = el("span", "trump-suit suit-" + suit + " " + (suit === "H" || suit === "D" ? "red" : "black"), C.SUIT_SYMBOL[suit]);
    lbl.appendChild(document.createTextNode(t("trump") + " "));
    lbl.appendChild(sym);
  }
  talon.appendChild(lbl);
  talon.appendChild(el("div", "talon-label stock-size", t("stock_n", { n: size })));
  if (v.closed) {
    const by = v.closed_by;
    talon.appendChild(el("div", "talon-label closed-note",
      by === null || by === undefined ? t("closed") : t("closed_by", { name: seatName(by) })));
  }
  area.appendChild(talon);
}
