/* Speech bubbles: what a player announces appears by his seat for a moment (a marriage with its
 * points as the engine counted them in view.marriages, a claim, a close, an exchange). */
import { $, Cards, el } from "./dom.js";
import { t } from "./i18n.js";
import { S, position } from "./state.js";

export function bubbleFor(ev) {
  if (!ev || ev.kind !== "action" || !ev.action || !S.live || !S.view) return;
  const a = ev.action, parts = [];
  if (a.marriage && a.card) {
    const suit = Cards.suitOf(a.card);
    const found = (S.view.marriages || []).filter((m) => m.seat === ev.seat && m.suit === suit).pop();
    parts.push(found ? t("bubble_marriage", { points: found.points, suit: Cards.SUIT_SYMBOL[suit] })
                     : Cards.SUIT_SYMBOL[suit]);
  }
  if (a.type === "declare" || a.declare) parts.push(t("bubble_declare"));
  if (a.type === "close") parts.push(t("bubble_close"));
  if (a.type === "exchange") parts.push(t("bubble_exchange"));
  if (parts.length) showBubble(ev.seat, parts.join(" \u00b7 "));
}

function showBubble(seat, text) {
  const layer = $("#bubbles");
  if (!layer) return;
  const node = el("div", "bubble pos-" + position(seat), text);
  node.setAttribute("data-seat", seat);
  layer.appendChild(node);
  setTimeout(() => { if (node.parentNode) node.parentNode.removeChild(node); }, 3500);
}
