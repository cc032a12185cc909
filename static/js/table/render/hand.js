/* The hand is kept, not redrawn: a card keeps its node, and so the keyboard focus, from one
 * update to the next; a played card leaves, new ones travel in (a new deal from the middle of
 * the table, a card drawn from the stock). Every card can take the focus (arrow keys, keyboard.js);
 * the playable ones are also Tab stops; each says whether it may be played now. A click goes to
 * the prompt that is asking for cards (prompts/index.js). */
import { $, Cards, clear, el } from "../dom.js";
import { t } from "../i18n.js";
import * as FX from "../fx.js";
import { S, mySeat, sortCards } from "../state.js";
import { trickStage } from "../stage.js";

/* How the prompts mark cards: installed by prompts/index.js. ``marks()`` -> {playable(code),
 * selected(code), choosing, pressable}; ``onCard(code)`` a click. */
let cardPrompt = { marks: () => ({ playable: () => false, selected: () => false, choosing: false, pressable: false }),
                   onCard: () => {} };
export function setCardPrompt(prompt) { cardPrompt = prompt; }

export function renderHand() {
  const wrap = $("#hand");
  const v = S.view, me = mySeat();
  if (!v || me === null) {
    clear(wrap).classList.add("empty");
    S.handDeal = null;
    if (v && me === null) wrap.appendChild(el("div", "hand-note", t("spectating")));
    return;
  }
  wrap.classList.remove("empty");
  const hand = v.hand || [];
  if (!hand.length && (v.hand_sizes || [])[me]) {      // dealt but not shown yet (a blind bid first)
    clear(wrap);
    for (let i = 0; i < v.hand_sizes[me]; i++) wrap.appendChild(Cards.back("hidden-hand"));
    wrap.appendChild(el("div", "hand-note", t("hand_hidden")));
    return;
  }
  const newDeal = S.handDeal !== v.deal_number;
  S.handDeal = v.deal_number;
  const codes = sortCards(hand);
  const arrivals = placeHandCards(wrap, codes, newDeal);
  wrap.classList.toggle("crowded", hand.length > 8);
  wrap.style.setProperty("--n", Math.max(codes.length, 1));
  updateHandCards(wrap, v);
  if (S.live && arrivals.length) animateArrivals(arrivals, newDeal);
}

/* Put the hand's nodes in ``codes`` order, reusing those still in hand; returns the new ones. */
function placeHandCards(wrap, codes, newDeal) {
  const existing = {}, arrivals = [];
  Array.prototype.slice.call(wrap.children).forEach((node, index) => {
    const code = node.getAttribute("data-card");
    if (code && !newDeal && node.classList.contains("in-hand")) existing[code] = { node: node, index: index };
    else wrap.removeChild(node);
  });
  const focused = document.activeElement;
  let lostFocusAt = null;
  codes.forEach((code, i) => {
    let node = existing[code] ? existing[code].node : null;
    delete existing[code];
    if (!node) { node = handCard(code); arrivals.push(node); }
    if (wrap.children[i] !== node) wrap.insertBefore(node, wrap.children[i] || null);
  });
  Object.keys(existing).forEach((code) => {
    const gone = existing[code];
    if (gone.node === focused) lostFocusAt = gone.index;
    wrap.removeChild(gone.node);
  });
  // A card played from the keyboard: the focus stays in the hand, on its neighbour.
  if (lostFocusAt !== null && wrap.children.length) {
    wrap.children[Math.min(lostFocusAt, wrap.children.length - 1)].focus({ preventScroll: true });
  }
  return arrivals;
}

function handCard(code) {
  const card = Cards.face(code, "button");
  card.classList.add("in-hand");
  card.addEventListener("click", () => cardPrompt.onCard(code));
  return card;
}

/* Each card's look, Tab stop and spoken name for the state now. */
function updateHandCards(wrap, v) {
  // As the prompt: no playable card while a finished trick is still shown.
  const m = trickStage().idle() ? cardPrompt.marks() : { playable: () => false, selected: cardPrompt.marks().selected,
                                                          choosing: false, pressable: false };
  const received = v.received || [];
  const cards = wrap.querySelectorAll("button.card.in-hand");
  let anyStop = false;
  cards.forEach((card) => {
    const code = card.getAttribute("data-card");
    const playable = m.playable(code);
    const selected = m.selected(code);
    card.classList.toggle("legal", playable);
    card.classList.toggle("illegal", !playable && m.choosing);    // dim only what may not be played now
    card.classList.toggle("idle", !playable && !m.choosing);
    card.classList.toggle("selected", selected);
    card.classList.toggle("received", received.indexOf(code) >= 0);
    card.classList.toggle("hinted", !!(m.hinted && m.hinted(code)));
    card.disabled = false;                         // focusable all the same: it says why not
    card.setAttribute("aria-disabled", playable ? "false" : "true");
    card.tabIndex = playable ? 0 : -1;
    anyStop = anyStop || playable;
    const state = selected ? "card_selected" : playable ? "card_playable" : m.choosing ? "card_not_playable" : null;
    const name = cardName(code);
    // What the card shows comes first, so the spoken name contains the visible one (WCAG 2.5.3).
    const shown = Cards.cardText(code);
    card.setAttribute("aria-label", shown + ", " + (state ? t(state, { card: name }) : name));
    if (m.pressable) card.setAttribute("aria-pressed", selected ? "true" : "false");
    else card.removeAttribute("aria-pressed");
  });
  if (!anyStop && cards.length) cards[0].tabIndex = 0;   // the hand stays reachable by Tab
}

/* "Queen of hearts": the suit's own phrase, so each language may word it its own way. */
function cardName(code) {
  const r = code.charAt(0);
  const rank = "AKQJ".indexOf(r) >= 0 ? t("rank_" + r) : Cards.rankLabel(code);
  return t("card_of_" + Cards.suitOf(code), { rank: rank });
}

/* A new deal flies in one card after another from the stock or the dealer; a single new card
 * (drawn from the stock, received in a pass) comes from the stock or the middle. */
function animateArrivals(nodes, dealt) {
  if (!FX.motionAllowed()) return;
  const v = S.view, stock = $(".talon .stock");
  const dealer = dealt && v && typeof v.dealer === "number" && v.dealer !== mySeat() && $('.seat-box[data-seat="' + v.dealer + '"]');
  const from = (stock || dealer || $("#felt")).getBoundingClientRect();
  const source = { left: from.left + from.width / 2 - 1, top: from.top + from.height / 2 - 1, width: 2, height: 2 };
  nodes.forEach((node, i) => {
    FX.flyIn(node, source, { delay: dealt ? i * 55 : 0, duration: dealt ? 340 : 300, rotate: dealt ? -12 : 0,
                             scale: 0.6, fade: true });
  });
}
