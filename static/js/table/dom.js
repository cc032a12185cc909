/* The page the client draws into: the #table-app node, its JSON data blocks and small DOM helpers.
 * Cards (static/js/lib/cards.js, shared with the puzzles and the replay viewer) draws the cards. */
import * as Cards from "../lib/cards.js";
import { el } from "../lib/dom.js";

export { Cards, el };

export function readJSON(id) {
  const node = document.getElementById(id);
  if (!node) return null;
  try {
    let value = JSON.parse(node.textContent);
    if (typeof value === "string") { try { value = JSON.parse(value); } catch (e) { /* plain */ } }
    return value;
  } catch (e) { return null; }
}

export const app = document.getElementById("table-app");
export const $ = (sel) => app.querySelector(sel);

export function clear(node) {
  while (node && node.firstChild) node.removeChild(node.firstChild);
  return node;
}

/* The first of its arguments that holds a value (the page's data attributes say "None" for one). */
export function first(...values) {
  for (const v of values) if (v !== undefined && v !== null && v !== "" && v !== "None") return v;
  return null;
}
