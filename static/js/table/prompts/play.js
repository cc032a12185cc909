/* Playing a card: the legal cards are marked in the hand; a click plays the card, or, where the
 * card may be played in several ways (a marriage announced with it), asks which (announce.js). */
import { t } from "../i18n.js";
import { S, legalPlays, render } from "../state.js";
import { act } from "../socket.js";

export const kinds = ["play"];

export function prompt(ctx) {
  ctx.text.textContent = !(ctx.view.trick || []).length ? t("your_lead") : t("your_turn_play");
  ctx.text.classList.add("mine");
}

export const cards = {
  playable: (code) => !!legalPlays()[code],
  pressable: false,
  onCard(code) {
    const actions = legalPlays()[code];
    if (!actions || !actions.length) return;
    if (actions.length === 1) { act(actions[0]); return; }
    S.marriageFor = S.marriageFor === code ? null : code;   // several ways to lead it: ask
    render();
  }
};
