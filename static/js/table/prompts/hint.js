/* The hint (at unrated tables against bots): a "Hint" button beside the prompt asks the server
 * for the strong bot's preferred play from this seat's own view ({"type": "hint", "version"}); the
 * answer {"type": "hint", "version", "action", "options": [{"action", "score", "margin"}], best first}
 * names that action (its card is marked in the hand) and how much better it is than the next best
 * (the second option's margin behind the best). Inactive unless the server says hints are allowed
 * (the table JSON's or the view's hints_allowed): it refuses them elsewhere in any case. */
import { Cards, el } from "../dom.js";
import { t } from "../i18n.js";
import { S, render } from "../state.js";
import { button } from "../controls.js";
import { send } from "../socket.js";

export function allowed() {
  return !!((S.table && S.table.hints_allowed) || (S.view && S.view.hints_allowed));
}

/* The hint shown, for the version it was asked at (a move later it is stale and goes). */
function current() { return S.hint && S.hint.version === S.version ? S.hint : null; }

export function hintedCard() {
  const h = current();
  return h && h.action && h.action.card ? h.action.card : null;
}

/* Beside a decision of this seat's: the button, then the answer once it came. */
export function prompt(ctx) {
  if (!allowed()) return;
  const h = current();
  if (h && h.action) {
    ctx.actions.appendChild(answer(h));
    return;
  }
  const b = button(t("hint"), () => {
    if (send({ type: "hint", version: S.version })) { S.hint = { version: S.version, asked: true }; render(); }
  }, "subtle hint", { "data-action": "hint" });
  if (h && h.asked) b.disabled = true;
  ctx.actions.appendChild(b);
}

/* A "hint" message from the server. */
export function onHint(msg) {
  S.hint = { version: typeof msg.version === "number" ? msg.version : S.version, action: msg.action || null,
             margins: (msg.options || []).slice(1).map((o) => o.margin) };
  render();
}

function describe(action) {
  if (action.card) return Cards.cardText(action.card);
  if (action.type === "bid") return action.tricks === 0 ? t("nil") : String(action.tricks);
  if (action.type === "pass" && action.cards) {
    return action.cards.map(Cards.cardText).join(" ");
  }
  return t("act_" + action.type);
}

/* How much better than the next best: the first margin, a number or {margin}. */
function margin(margins) {
  const m = margins && margins.length ? margins[0] : null;
  const n = typeof m === "number" ? m : m && typeof m.margin === "number" ? m.margin : null;
  return n === null ? null : Math.round(n * 10) / 10;
}

function answer(h) {
  const box = el("div", "hint-answer");
  box.setAttribute("data-hint", JSON.stringify(h.action));
  box.setAttribute("role", "status");
  const m = margin(h.margins);
  box.textContent = t("hint_is", { action: describe(h.action) }) + (m === null ? "" : " " + t("hint_margin", { n: m }));
  return box;
}
