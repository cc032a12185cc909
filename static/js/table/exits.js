/* The ways out of a match (docs/PROTOCOL.md, "Resign, abort, claim"): a bar under the hand offers
 * a seated player "Abort" while the server says the match may still be aborted (table.match.abortable:
 * not every seat has moved), else "Resign", and "Claim the rest" while a deal's tricks are played in
 * a game with claims (table.match.claims; the server proves the claim or says why not). Each asks
 * for a confirmation first: an alert dialog in the bar whose safe answer (Cancel) has the focus,
 * Escape cancels; plain buttons, so a keyboard and a phone's finger work alike. The claim and the
 * endings are told to everyone: the claimer's cards in a toast, the match-end box says who
 * resigned or that the match was aborted. */
import { $, clear, el } from "./dom.js";
import { t } from "./i18n.js";
import { S, mySeat, render, seatName } from "./state.js";
import { button, toast } from "./controls.js";
import { request } from "./socket.js";

const ASK = {
  abort: { type: "abort", ask: "abort_confirm", yes: "abort_yes" },
  resign: { type: "resign", ask: "resign_confirm", yes: "resign_yes" },
  claim: { type: "claim_rest", ask: "claim_rest_confirm", yes: "claim_rest_yes" },
};

function running() {
  const tb = S.table;
  return !!tb && (tb.status === "playing" || tb.status === "between_deals") && !!tb.match && !tb.match.over;
}

function exitBar() {
  let bar = document.getElementById("exit-bar");
  if (bar) return bar;
  bar = el("div", "exit-bar");
  bar.id = "exit-bar";
  bar.setAttribute("role", "group");
  bar.setAttribute("aria-label", t("ways_out"));
  const mine = $("#mine");
  mine.parentNode.insertBefore(bar, mine.nextSibling);
  return bar;
}

/* Redrawn only when what it offers changes: an update about something else (a bot's card) leaves
 * its buttons, and the keyboard's focus on them, alone. */
export function renderExits() {
  const bar = exitBar();
  const on = running() && mySeat() !== null;
  const m = on ? S.table.match : null;
  if (!on) S.confirmExit = null;
  else if (S.confirmExit === "claim" && !m.claims) S.confirmExit = null;
  const key = JSON.stringify(on ? [S.confirmExit, !!m.claims, !!m.abortable, !!S.busy] : null);
  if (bar.getAttribute("data-key") === key) return;
  bar.setAttribute("data-key", key);
  const focused = bar.contains(document.activeElement) ? document.activeElement.getAttribute("data-action") : null;
  clear(bar);
  bar.hidden = !on;
  if (!on) return;
  if (S.confirmExit) { bar.appendChild(confirmBox(S.confirmExit, focused)); return; }
  const ask = (what) => () => { S.confirmExit = what; S.exitFocus = true; render(); };
  if (m.claims) bar.appendChild(button(t("claim_rest"), ask("claim"), "subtle", { "data-action": "claim-rest" }));
  if (m.abortable) bar.appendChild(button(t("abort"), ask("abort"), "subtle", { "data-action": "abort" }));
  else bar.appendChild(button(t("resign"), ask("resign"), "subtle danger-text", { "data-action": "resign" }));
  if (focused) refocus(bar, focused);
}

function confirmBox(what, focused) {
  const spec = ASK[what];
  const box = el("div", "exit-confirm");
  box.setAttribute("role", "alertdialog");
  box.setAttribute("data-confirm", what);
  const text = el("p", "", t(spec.ask));
  text.id = "exit-confirm-text";
  box.setAttribute("aria-labelledby", text.id);      // the question is the dialog's name
  box.appendChild(text);
  box.appendChild(button(t(spec.yes), () => { S.confirmExit = null; request({ type: spec.type }); },
    "danger", { "data-action": "confirm-" + what }));
  const cancel = button(t("cancel"), cancelExit, "subtle", { "data-action": "cancel-exit" });
  box.appendChild(cancel);
  box.addEventListener("keydown", (e) => { if (e.key === "Escape") { e.preventDefault(); cancelExit(); } });
  if (S.exitFocus || focused) {
    const target = S.exitFocus ? "cancel-exit" : focused;     // the safe answer first
    S.exitFocus = false;
    setTimeout(() => refocus(box, target), 0);
  }
  return box;
}

function cancelExit() {
  S.confirmExit = null;
  render();
  const bar = document.getElementById("exit-bar");
  if (bar) refocus(bar, null);
}

function refocus(root, action) {
  const node = (action && root.querySelector('[data-action="' + action + '"]')) || root.querySelector("button");
  if (node && node.isConnected) node.focus();
}

/* An update's events: a claim shows the claimer's cards to everyone, at once and in the deal's box. */
export function exitEvent(ev) {
  if (!ev || ev.kind !== "claim") return;
  const text = t("claimed_rest", { name: seatName(ev.seat), n: ev.tricks, cards: (ev.cards || []).join(" ") });
  S.claimNote = { key: S.view ? S.view.deal_number : null, text: text };
  toast(text);
}

/* The deal's result box: the claim that ended it. */
export function claimNote(panel, key) {
  if (!S.claimNote || S.claimNote.key !== key) return;
  const note = el("p", "result-note claim-note", S.claimNote.text);
  note.setAttribute("data-claim-note", "1");
  panel.appendChild(note);
}

/* The match-end box: who resigned, or that the match was aborted (unrated, no winner). */
export function exitNote(panel) {
  const m = S.table && S.table.match;
  if (!m) return;
  if (m.ended_by === "aborted") {
    const note = el("p", "result-note aborted-note", t("ended_aborted"));
    note.setAttribute("data-aborted", "1");
    panel.appendChild(note);
  }
  (m.resigned || []).forEach((seat) => {
    const note = el("p", "result-note resigned-note", t("ended_resigned", { name: seatName(seat) }));
    note.setAttribute("data-resigned-seat", seat);
    panel.appendChild(note);
  });
}

