/* A choice between named options with no card (shooting the moon: add to the others' scores or
 * take from one's own): a button per legal action, labelled by its type and choice. */
import { t } from "../i18n.js";
import { legal } from "../state.js";
import { button } from "../controls.js";
import { act } from "../socket.js";

export const kinds = ["moon"];

export function prompt(ctx) {
  ctx.text.textContent = t(ctx.kind + "_prompt");
  legal().filter((a) => a.type === ctx.kind).forEach((a) => {
    ctx.actions.appendChild(button(t(a.type + "_" + a.choice), () => act(a), "primary",
                                   { "data-action": a.type + "-" + a.choice }));
  });
}
