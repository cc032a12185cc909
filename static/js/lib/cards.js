/* Card rendering shared by the table, the puzzles and the replay viewer: CSS + Unicode suit
 * symbols, no images. A card code is rank + suit ("QS", "TH", "9C"); see docs/RECORDS.md. */
import { el } from "./dom.js";

export const SUIT_SYMBOL = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
// The reader's letters of jack, queen, king and ace (German B D K A: the page's
// <meta name="card-letters">, games/card_letters.py); codes stay "JH", "QS".
const RANK_LABEL = { T: "10" };
const LETTERS_META = document.querySelector("meta[name=card-letters]");
const LETTERS = ((LETTERS_META && LETTERS_META.getAttribute("content")) || "").split(" ");
if (LETTERS.length === 4) "JQKA".split("").forEach((r, i) => { if (LETTERS[i]) RANK_LABEL[r] = LETTERS[i]; });
const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 };   // alternating colours in a hand
const RANK_ORDER = {
  standard: "23456789TJQKA",
  sixtysix: "9JQKTA"                            // Sixty-six trick order, low to high
};

export { el };
export function rankLabel(code) { const r = code.charAt(0); return RANK_LABEL[r] || r; }
export function suitOf(code) { return code.charAt(1); }
export function isRed(code) { const s = suitOf(code); return s === "H" || s === "D"; }
/** The card as a reader writes it: "10♥", "Q♠" (in German "D♠"). */
export function cardText(code) { return rankLabel(code) + SUIT_SYMBOL[suitOf(code)]; }

/** A face-up card. ``tag`` is "button" for playable hand cards, "div" otherwise. */
export function face(code, tag) {
  const card = el(tag || "div", "card " + (isRed(code) ? "red" : "black") + " suit-" + suitOf(code));
  card.setAttribute("data-card", code);
  card.setAttribute("aria-label", cardText(code));
  if (tag === "button") card.type = "button";
  else card.setAttribute("role", "img");        // a picture named by its aria-label (a div has no name)
  const corner = el("span", "corner");
  corner.appendChild(el("span", "rank", rankLabel(code)));
  corner.appendChild(el("span", "suit", SUIT_SYMBOL[suitOf(code)]));
  card.appendChild(corner);
  card.appendChild(el("span", "pip", SUIT_SYMBOL[suitOf(code)]));
  return card;
}

/** A face-down card: it never carries a code. */
export function back(extraClass) {
  return el("div", "card back" + (extraClass ? " " + extraClass : ""));
}

/** ``rankOrder``: the ranks weakest first as the engine describes the game (the table JSON's
 * rules.rank_order); without it, by the game's name (the replay viewer). */
export function sortHand(codes, game, rankOrder) {
  const order = rankOrder || RANK_ORDER[game === "sixtysix" ? "sixtysix" : "standard"];
  return codes.slice().sort((a, b) => {
    const ds = SUIT_ORDER[suitOf(a)] - SUIT_ORDER[suitOf(b)];
    if (ds) return ds;
    return order.indexOf(a.charAt(0)) - order.indexOf(b.charAt(0));
  });
}
