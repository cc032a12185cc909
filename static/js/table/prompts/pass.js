/* Passing cards: choose the view's decision.count cards from the hand, then confirm. Others see
 * which way the cards go and whom the pass waits for. */
import { el } from "../dom.js";
import { t } from "../i18n.js";
import { S, decision, mySeat, render } from "../state.js";
import { button } from "../controls.js";
import { act } from "../socket.js";
import { PASS_ARROW } from "../render/center.js";

export const kinds = ["pass"];

function count() { const d = decision(); return (d && d.count) || 0; }

function arrow(dir) {
  const node = el("span", "pass-arrow pass-" + dir, PASS_ARROW[dir] || "");
  node.setAttribute("aria-hidden", "true");
  return node;
}

export function prompt(ctx) {
  const dir = ctx.view.pass_direction, n = count();
  ctx.text.textContent = t("pass_" + dir) + " \u00b7 " + t("selected_n", { n: S.selected.length });
  ctx.text.classList.add("mine");
  const b = button(t("confirm_pass"), () => {
    if (S.selected.length === n) act({ type: "pass", cards: S.selected.slice() });
  }, "primary", { "data-action": "pass" });
  if (S.selected.length !== n) b.disabled = true;
  ctx.actions.appendChild(b);
  ctx.text.insertBefore(arrow(dir), ctx.text.firstChild);
}

/* The pass phase for a seat that is not choosing (done already, or watching). */
export function waiting(ctx) {
  const dir = ctx.view.pass_direction;
  if (mySeat() !== null && (ctx.view.passed || []).length) {
    ctx.text.textContent = t("passed_wait");
  } else {
    ctx.text.textContent = t("pass_" + dir) + (ctx.others.length ? " \u00b7 " + t("waiting_for", { names: ctx.others.join(", ") }) : "");
  }
  ctx.text.insertBefore(arrow(dir), ctx.text.firstChild);
}

/* Any card may be chosen; a click picks it or puts it back. */
export const cards = {
  playable: () => true,
  pressable: true,
  onCard(code) {
    const i = S.selected.indexOf(code);
    if (i >= 0) S.selected.splice(i, 1);
    else if (S.selected.length < count()) S.selected.push(code);
    render();
  }
};
