/* The prompt: what the table asks of this player now, in words and buttons. Before and after the
 * match it says so (start, sit as a guest); during it, the view's "decision" (the kinds of action
 * this seat may take) chooses the prompt modules, one per kind of decision, and the one that asks
 * for cards takes the hand's clicks. Nothing here knows which game is played. */
import { $, clear, el } from "../dom.js";
import { t } from "../i18n.js";
import { S, boot, decision, invite, isOwner, mySeat, seatName, toAct } from "../state.js";
import { button } from "../controls.js";
import { send } from "../socket.js";
import { trickStage } from "../stage.js";
import { setCardPrompt } from "../render/hand.js";
import * as pass from "./pass.js";
import * as bid from "./bid.js";
import * as choice from "./choice.js";
import * as play from "./play.js";
import * as announce from "./announce.js";
import * as hint from "./hint.js";

/* In the order they speak: the first that applies sets the words, the others add their buttons. */
const PROMPTS = [pass, bid, choice, play, announce];
/* A phase everyone waits through together, told to those not choosing in it. */
const WAITING = { pass: pass.waiting };

function active() {
  const d = decision();
  if (!d) return [];
  return PROMPTS.filter((p) => p.kinds.some((k) => d.kinds.indexOf(k) >= 0));
}
function kindOf(p) {
  const d = decision();
  return p.kinds.filter((k) => d.kinds.indexOf(k) >= 0)[0];
}

export function renderPrompt() {
  const box = clear($("#prompt"));
  const text = el("div", "prompt-text");
  const actions = el("div", "prompt-actions");
  box.appendChild(text);
  box.appendChild(actions);
  const v = S.view, tb = S.table, me = mySeat();
  if (S.conn === "forbidden") { text.textContent = t("forbidden"); return; }
  if (!tb) { text.textContent = t("conn_connecting"); return; }
  if (tb.status === "waiting" || !v) { waitingForPlayers(text, actions); return; }
  if (v.over || tb.status === "finished") {
    text.textContent = tb.status === "finished" || (tb.match && tb.match.over) ? t("match_over") : t("deal_over");
    return;
  }
  const mine = me !== null && toAct().indexOf(me) >= 0 && !!decision();
  const others = toAct().filter((s) => s !== me).map(seatName);
  // The finished trick is still on the felt: the turn is asked once the trick it is about shows.
  if (mine && !trickStage().idle()) return;
  const ctx = { text: text, actions: actions, view: v, others: others };
  if (!mine) {
    if (WAITING[v.phase]) WAITING[v.phase](ctx);
    else if (others.length) text.textContent = t("waiting_for", { names: others.join(", ") });
    return;
  }
  text.textContent = t("your_turn");
  text.classList.add("mine");
  active().forEach((p) => { ctx.kind = kindOf(p); p.prompt(ctx); });
  hint.prompt(ctx);
}

function waitingForPlayers(text, actions) {
  const tb = S.table, me = mySeat();
  text.textContent = t("waiting_players");
  const full = tb.seats && tb.seats.every((s) => !!s.name);
  if (me !== null && full && isOwner()) {
    actions.appendChild(button(t("start"), () => send({ type: "start" }), "primary", { "data-action": "start" }));
  }
  // A visitor may take an open seat as a guest: the header's guest form brings him back here
  // (with ?sit=1 from the lobby's Join, he sits at once).
  const guestForm = document.querySelector("form[data-guest-form]");
  if (!boot.user && !full && guestForm) {
    text.textContent = t("waiting_players") + " \u00b7 " + t("sit_as_guest_hint");
    actions.appendChild(button(t("sit_as_guest"), () => {
      const next = guestForm.querySelector("input[name=next]");
      if (next) next.value = location.pathname + "?sit=1" + (invite ? "&invite=" + encodeURIComponent(invite) : "");
      guestForm.submit();
    }, "primary", { "data-action": "sit-as-guest" }));
  }
}

/* The hand's marks and clicks: the active prompt that asks for cards decides them. */
function cardsPrompt() {
  const found = active().filter((p) => p.cards)[0];
  return found ? found.cards : null;
}
const NONE = { playable: () => false, pressable: false, onCard: () => {} };

setCardPrompt({
  marks() {
    const c = cardsPrompt() || NONE;
    const hinted = hint.hintedCard();
    return {
      playable: (code) => c.playable(code),
      selected: (code) => S.selected.indexOf(code) >= 0 || S.marriageFor === code,
      hinted: (code) => code === hinted,
      choosing: !!cardsPrompt(),
      pressable: c.pressable
    };
  },
  onCard(code) {
    if (S.busy || !trickStage().idle()) return;     // not playable yet: the felt shows the last trick
    (cardsPrompt() || NONE).onCard(code);
  }
});
