/* The last trick, small, with its winner marked. */
import { $, Cards, clear, el } from "../dom.js";
import { S, seatName } from "../state.js";

export function renderLastTrick() {
  const box = clear($("#last-trick"));
  const v = S.view;
  if (!v || !v.last_trick || !v.last_trick.cards) { box.appendChild(el("div", "muted", "\u2013")); return; }
  const row = el("div", "last-cards");
  v.last_trick.cards.forEach((p) => {
    const cell = el("div", "last-cell");
    const card = Cards.face(p.card);
    if (p.seat === v.last_trick.winner) card.classList.add("winner");
    cell.appendChild(card);
    cell.appendChild(el("div", "last-name", seatName(p.seat)));
    row.appendChild(cell);
  });
  box.appendChild(row);
}
