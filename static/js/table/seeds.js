/* Provably fair deals (docs/FAIRNESS.md): the server commits to the next deal's seed (its
 * SHA-256, table.fair.next) before the deal; a player's client then adds its own random seed,
 * once per commitment, so neither the server nor a player alone chooses the cards. */
import { t } from "./i18n.js";
import { S, mySeat } from "./state.js";
import { toast } from "./controls.js";
import { sendQuiet } from "./socket.js";

/* A seed that came too late: nothing to show. */
export const SEED_REFUSALS = ["seed_too_late", "already_seeded"];

const seededFor = {};
const announced = {};      /* deal number -> the commitment announced before it was drawn */

export function addSeed() {
  const fair = S.table && S.table.fair;
  const next = fair && fair.next, dealt = fair && fair.deal;
  if (next) announced[next.deal_number] = next.commitment;
  if (dealt && announced[dealt.deal_number] && announced[dealt.deal_number] !== dealt.commitment) {
    delete announced[dealt.deal_number];
    toast(t("fair_commitment_changed"), "error");
  }
  const me = mySeat();
  if (!next || me === null || seededFor[next.commitment]) return;
  seededFor[next.commitment] = true;
  if ((next.seeded || []).indexOf(me) >= 0 || !window.crypto || !crypto.getRandomValues) return;
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  const hex = Array.prototype.map.call(bytes, (b) => (b < 16 ? "0" : "") + b.toString(16)).join("");
  sendQuiet({ type: "seed", commitment: next.commitment, seed: hex });
}
