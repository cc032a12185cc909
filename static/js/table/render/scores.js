/* The score sheet: one column per team as the rules describe them, a row per finished deal (the
 * result's rules.deal_points), the match's totals, the goal, and bags where the match keeps them. */
import { $, clear, el } from "../dom.js";
import { t } from "../i18n.js";
import { S, game, rules, scoreColumns } from "../state.js";

/* A deal result's points per score column. */
export function resultRow(res) {
  const key = rules() && rules().deal_points;
  return (res && key && res[key]) || [];
}

/* Bags as they stand, per team: the match's, which count the last finished deal; else the
 * deal's start. null where the game keeps none. */
export function currentBags() {
  const tb = S.table, v = S.view;
  return (tb && tb.match && tb.match.bags) || (v && v.bags_before) || null;
}

export function renderScores() {
  const box = clear($("#scores"));
  const tb = S.table, v = S.view;
  const cols = scoreColumns();
  const table = el("table", "score-table");
  const thead = el("tr");
  thead.appendChild(el("th", "", "#"));
  cols.forEach((c) => {
    const th = el("th");
    th.appendChild(el("span", "long-name", c));     // whole; only a name beyond any sign-up's is cut
    th.title = c;
    thead.appendChild(th);
  });
  table.appendChild(thead);
  box.appendChild(table);
  fitHeads(thead);
  const results = (tb && tb.match && tb.match.results) || [];
  results.forEach((r, i) => {
    const tr = el("tr");
    tr.appendChild(el("td", "", String(i + 1)));
    const row = resultRow(r);
    cols.forEach((_, k) => tr.appendChild(el("td", "", row[k] === undefined ? "" : String(row[k]))));
    table.appendChild(tr);
  });
  const scores = (tb && tb.match && tb.match.scores) || (v && v.scores_before) || null;
  if (scores) {
    const tot = el("tr", "total");
    tot.appendChild(el("td", "", "\u03a3"));
    cols.forEach((_, k) => tot.appendChild(el("td", "", String(scores[k] === undefined ? "" : scores[k]))));
    table.appendChild(tot);
  }
  const goal = rules() && rules().target;
  const boards = tb && tb.match && tb.match.boards;
  if (boards) {       // a duplicate tournament's match: a fixed number of deals, no target
    const k = Math.min(boards, (v && v.deal_number !== undefined ? v.deal_number : tb.match.deal_number) + 1);
    box.appendChild(el("div", "score-goal", t("goal_boards", { k: k, n: boards })));
  } else if (goal) box.appendChild(el("div", "score-goal", t("goal_" + game(), { n: goal })));
  const bags = currentBags();
  if (bags) box.appendChild(el("div", "score-goal", t("bags") + ": " + bags.join(" / ")));     // per team, in column order
}

/* Four names share the sheet's width: where a word is wider than its column (a long user name,
 * "(medium)"), the heads are set smaller, all alike, down to SMALLEST px, rather than a word broken
 * inside; only a word wider still breaks anywhere. The size found is kept per names and column
 * width: the sheet is redrawn on every move. */
const SMALLEST = 9;
const fitted = new Map();

function fitHeads(row) {
  const names = [...row.querySelectorAll(".long-name")];
  const width = names.length ? names[0].clientWidth : 0;
  if (!width) return;                                     // not laid out (a hidden panel)
  const key = names.map((n) => n.textContent).join("\n") + "|" + width;
  if (!fitted.has(key)) fitted.set(key, fitSize(names));
  const size = fitted.get(key);
  if (size) names.forEach((n) => { n.style.fontSize = size + "px"; });
  else if (size === 0) names.forEach((n) => { if (overflows(n)) n.classList.add("break-anywhere"); });
}

const overflows = (name) => name.scrollWidth > name.clientWidth + 1;

/* The largest font size (px) at which no word of any name overflows its column; null: they fit
 * as they are; 0: not even at SMALLEST. */
function fitSize(names) {
  const tooWide = () => names.some(overflows);
  if (!tooWide()) return null;
  let found = 0;
  for (let px = Math.floor(parseFloat(getComputedStyle(names[0]).fontSize)) - 1; !found && px >= SMALLEST; px--) {
    names.forEach((n) => { n.style.fontSize = px + "px"; });
    if (!tooWide()) found = px;
  }
  names.forEach((n) => { n.style.fontSize = ""; });
  return found;
}
