/* The seats of an open deal as the puzzles and the replay viewer draw them (templates
 * puzzles/puzzle.html, ratings/_replay_viewer.html): each seat's box holds its name, its figures
 * and its whole hand face up; the trick's cards lie in the middle, by where their seat sits. */
import { el } from "./dom.js";
import { face, sortHand } from "./cards.js";

/** Where each seat sits, the first one at the bottom. */
export const POSITIONS = { 2: ["bottom", "top"], 4: ["bottom", "left", "top", "right"] };

/** "Tricks: 3 · Points: 40 · Bid: 4": the figures ``view`` holds for ``seat``; ``words`` are the
 * page's translated labels {tricks, points, bid}. */
export function seatLine(seat, view, words) {
  const parts = [];
  if (view.tricks_won) parts.push(words.tricks + ": " + view.tricks_won[seat]);
  if (view.points_taken) parts.push(words.points + ": " + view.points_taken[seat]);
  if (view.points) parts.push(words.points + ": " + view.points[seat]);
  if (view.bids && view.bids[seat] !== null && view.bids[seat] !== undefined) parts.push(words.bid + ": " + view.bids[seat]);
  return parts.join(" · ");
}

/** Hides every seat box of ``root``; drawSeat shows those the deal has. */
export function hideSeats(root) {
  root.querySelectorAll(".replay-seat").forEach((box) => { box.hidden = true; });
}

/** The box of the seat at ``pos`` ("bottom", "left", ...). */
export function seatBox(root, pos) {
  return root.querySelector(".replay-seat[data-pos=" + pos + "]");
}

/** Draws a seat into ``box``: {seat, name, dealer (the badge's text, when it deals), acting, line,
 * hand, game, card (code -> the card's node; a plain face by default)}. Returns the box. */
export function drawSeat(box, s) {
  box.hidden = false;
  box.textContent = "";
  box.classList.toggle("acting", !!s.acting);
  box.setAttribute("data-seat", s.seat);
  const head = el("div", "replay-name");
  head.appendChild(el("strong", null, s.name));
  if (s.dealer) head.appendChild(el("span", "badge dealer", s.dealer));
  box.appendChild(head);
  box.appendChild(el("div", "replay-line muted", s.line));
  const hand = el("div", "replay-hand");
  hand.setAttribute("data-hand", s.seat);
  sortHand(s.hand || [], s.game).forEach((code) => hand.appendChild(s.card ? s.card(code) : face(code)));
  box.appendChild(hand);
  return box;
}

/** A card of the trick, placed by its seat's position; returns the card for the caller to mark. */
export function trickCard(box, pos, code) {
  const slot = el("div", "replay-slot pos-" + pos);
  const card = face(code);
  slot.appendChild(card);
  box.appendChild(slot);
  return card;
}
