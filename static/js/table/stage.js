/* The middle of the table: the trick lives on a stage that keeps its cards between renders
 * (fx.js: cards travel in from their seats, a finished trick stays readable, then sweeps to its
 * winner). While it is not idle the prompt and the playable marks wait for it. */
import { $, Cards } from "./dom.js";
import * as FX from "./fx.js";
import { mySeat, position, render } from "./state.js";

let stageInstance = null;
export function trickStage() {
  if (stageInstance) return stageInstance;
  stageInstance = new FX.TrickStage({
    slotClass: (seat) => "pos-" + position(seat),
    face: (card) => Cards.face(card),
    origin: cardOrigin,
    winnerRect: seatRect,
    onCard: () => FX.sound.play("card"),
    onIdle: () => render()     // the result box waits for the last trick's sweep
  });
  return stageInstance;
}

export function presenting() { return !trickStage().idle(); }

/* Where a played card comes from: the card itself in our hand, else its player's seat box. */
function cardOrigin(seat, card) {
  const inHand = seat === mySeat() && $('#hand [data-card="' + card + '"]');
  if (inHand) return inHand.getBoundingClientRect();
  return seatRect(seat);
}
export function seatRect(seat) {
  const box = $('.seat-box[data-seat="' + seat + '"]');
  return box && !box.hidden ? box.getBoundingClientRect() : null;
}
