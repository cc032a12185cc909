/* The table from the keyboard: arrow keys along the hand (Home/End: its ends; Enter or Space
 * plays, as on any button), the skip links, Escape closes the result box. */
import { $ } from "./dom.js";
import { S } from "./state.js";
import { dismissOverlay } from "./render/results.js";

function onHandKey(e) {
  const cards = Array.prototype.slice.call($("#hand").querySelectorAll("button.card.in-hand"));
  const i = cards.indexOf(document.activeElement);
  if (i < 0) return;
  const next = { ArrowLeft: i - 1, ArrowUp: i - 1, ArrowRight: i + 1, ArrowDown: i + 1, Home: 0, End: cards.length - 1 }[e.key];
  if (next === undefined) return;
  e.preventDefault();
  cards[Math.max(0, Math.min(cards.length - 1, next))].focus();
}

/* The page's first Tab stops (templates/lobby/table.html): "Skip to your cards" lands on the card
 * the hand offers to Tab (a playable one when it is our turn), "Skip to the actions" on the
 * prompt's first button (the claim of a leaver's win first); each falls back to its region. */
const SKIP_TARGETS = {
  hand: ["#hand button.card[tabindex='0']", "#hand"],
  actions: ["#leaver-bar:not([hidden]) button:not([disabled])", "#prompt button:not([disabled])", "#prompt"]
};

export function bindKeyboard() {
  $("#hand").addEventListener("keydown", onHandKey);
  document.querySelectorAll("[data-skip-to]").forEach((link) => {
    link.addEventListener("click", (e) => {
      let found = null;
      (SKIP_TARGETS[link.getAttribute("data-skip-to")] || []).some((sel) => (found = $(sel)));
      if (!found) return;
      e.preventDefault();
      found.focus();
    });
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && S.overlay) dismissOverlay();
  });
}
