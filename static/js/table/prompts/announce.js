/* Announcements beside a lead: exchanging the trump card, closing the stock, declaring the target
 * reached (a button each, as the legal actions offer them), and a marriage: a card that may be led
 * plainly, with its marriage, or with its marriage and a declaration asks which; the points shown
 * are the engine's (decision.marriages). Declaring ends the deal at once: the engine says what the
 * player has now (view.claim, with each marriage he may announce in the same step) and what a
 * false claim gives the opponent, so a claim short of the target asks first and says what it costs.
 * Closing the stock cannot be undone either: it always asks first, with the engine's price of a
 * failed close (view.close), the safe answer focused (a stray Enter cancels). */
import { Cards, el } from "../dom.js";
import { t } from "../i18n.js";
import { S, decision, legal, legalPlays, render } from "../state.js";
import { button } from "../controls.js";
import { act } from "../socket.js";

export const kinds = ["exchange", "close", "declare"];

export function prompt(ctx) {
  legal().filter((a) => kinds.indexOf(a.type) >= 0).forEach((a) => {
    const declare = a.type === "declare";
    ctx.actions.appendChild(button(t("act_" + a.type), () => (declare ? claim(a) : a.type === "close" ? close(a) : act(a)),
      declare && !claimShort(a) ? "primary" : "", { "data-action": a.type }));
  });
  if (S.confirmClose && !(S.view && S.view.close)) S.confirmClose = null;
  if (S.confirmClose) { confirmCloseBox(ctx.actions); return; }
  if (S.confirmClaim) { confirmClaimBox(ctx.actions); return; }
  if (S.marriageFor) marriageChoice(ctx);
}

/* Its points, as the engine counts them for this seat's lead now. */
function marriagePoints(card) {
  const d = decision();
  return d && d.marriages ? d.marriages[Cards.suitOf(card)] : undefined;
}

function marriageChoice(ctx) {
  const card = S.marriageFor, opts = legalPlays()[card] || [];
  const pts = marriagePoints(card);
  ctx.text.textContent = t("marriage_prompt", { points: pts });
  const bar = el("div", "marriage-choice");
  opts.forEach((a) => {
    const label = a.declare ? t("marriage_declare", { points: pts }) : a.marriage ? t("marriage_announce", { points: pts }) : t("play_plain");
    bar.appendChild(button(label, () => (a.declare ? claim(a) : act(a)),
      a.marriage && !(a.declare && claimShort(a)) ? "primary" : "",
      { "data-action": a.declare ? "marriage-declare" : a.marriage ? "marriage" : "play-plain" }));
  });
  bar.appendChild(button(t("cancel"), () => { S.marriageFor = null; render(); }, "subtle", { "data-action": "cancel" }));
  ctx.actions.appendChild(bar);
}

function claimPoints(action) {
  const c = S.view && S.view.claim;
  if (!c) return null;
  const withMarriage = action.card && action.declare ? c.with_marriage[Cards.suitOf(action.card)] : undefined;
  return withMarriage === undefined ? c.points : withMarriage;
}
function claimShort(action) {
  const c = S.view && S.view.claim, pts = claimPoints(action);
  return !!c && pts !== null && pts < c.target;
}
function claim(action) {
  if (!claimShort(action)) { act(action); return; }
  S.confirmClaim = action;
  render();
}
function confirmClaimBox(actions) {
  const a = S.confirmClaim, c = S.view.claim;
  const box = el("div", "claim-confirm");
  box.setAttribute("role", "alertdialog");
  const text = el("p", "", t("claim_confirm", { points: claimPoints(a), target: c.target, n: c.false_gives }));
  text.id = "claim-confirm-text";
  box.setAttribute("aria-describedby", text.id);
  box.appendChild(text);
  box.appendChild(button(t("claim_anyway"), () => { S.confirmClaim = null; act(a); }, "danger",
    { "data-action": "confirm-declare" }));
  const cancel = button(t("cancel"), () => { S.confirmClaim = null; render(); }, "subtle",
    { "data-action": "cancel-declare" });
  box.appendChild(cancel);
  actions.appendChild(box);
  setTimeout(() => { if (cancel.isConnected) cancel.focus(); }, 0);   // the safe answer first
}

function close(action) {
  if (!(S.view && S.view.close)) { act(action); return; }
  S.confirmClose = action;
  render();
}
function confirmCloseBox(actions) {
  const a = S.confirmClose, c = S.view.close;
  const box = el("div", "claim-confirm close-confirm");
  box.setAttribute("role", "alertdialog");
  const text = el("p", "", t("close_confirm", { points: c.points, target: c.target, n: c.fail_gives }));
  text.id = "close-confirm-text";
  box.setAttribute("aria-describedby", text.id);
  box.appendChild(text);
  box.appendChild(button(t("close_anyway"), () => { S.confirmClose = null; act(a); }, "danger",
    { "data-action": "confirm-close" }));
  const cancel = button(t("cancel"), () => { S.confirmClose = null; render(); }, "subtle",
    { "data-action": "cancel-close" });
  box.appendChild(cancel);
  actions.appendChild(box);
  setTimeout(() => { if (cancel.isConnected) cancel.focus(); }, 0);   // the safe answer first
}
