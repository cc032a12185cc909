/* Bidding: a button per legal bid (0 is nil); before it, where the rules offer one, the blind
 * nil's yes or no (the hand stays hidden until it is answered). */
import { el } from "../dom.js";
import { t } from "../i18n.js";
import { legal } from "../state.js";
import { button } from "../controls.js";
import { act } from "../socket.js";

export const kinds = ["bid", "blind_nil"];

export function prompt(ctx) {
  const blind = legal().filter((a) => a.type === "blind_nil");
  if (blind.length) {
    ctx.text.textContent = t("blind_prompt");
    blind.forEach((a) => {
      ctx.actions.appendChild(button(a.accept ? t("blind_accept") : t("blind_decline"), () => act(a),
        a.accept ? "danger" : "primary", { "data-action": a.accept ? "blind-accept" : "blind-decline" }));
    });
    return;
  }
  ctx.text.textContent = t("bid_prompt");
  const row = el("div", "bid-row");
  legal().filter((a) => a.type === "bid")
    .sort((a, b) => a.tricks - b.tricks)
    .forEach((a) => {
      row.appendChild(button(a.tricks === 0 ? t("nil") : String(a.tricks), () => act(a),
        "bid" + (a.tricks === 0 ? " nil" : ""), { "data-bid": a.tricks }));
    });
  ctx.actions.appendChild(row);
}
