/* A deal's and a match's result box. The deal's result must never hide the next deal: it covers
 * the felt only between deals, when there is nothing on it to see; once the next deal is on it
 * moves beside the table (#result-dock) and closes by itself after DOCK_MS, or at once on Close or
 * Escape. It waits for the last trick to be seen and swept (the trick stage) before it shows. */
import { $, clear, el } from "../dom.js";
import { t } from "../i18n.js";
import { S, lobbyUrl, nSeats, perTeam, render, rules, scoreColumns, seatName } from "../state.js";
import { button } from "../controls.js";
import { trickStage } from "../stage.js";
import { renderMatchEnd } from "./match_end.js";
import { claimNote } from "../exits.js";

const DOCK_MS = 9000;
/* How the box labels a deal's points, by the result key they are under. */
const DEAL_POINTS_LABEL = { points: "points", game_points: "game_points", team_points: "deal_points" };

/* After each message: a finished match or deal opens its box (once; a closed one stays closed). */
export function maybeOverlay() {
  const v = S.view, tb = S.table;
  if (tb && (tb.status === "finished" || (tb.match && tb.match.over))) {
    showOverlay("match", v && v.result, "match");
  } else if (v && v.over && v.result) {
    showOverlay("deal", v.result, v.deal_number);
  }
}

export function showOverlay(kind, result, key) {
  if (S.overlayDismissed[key]) return;
  if (S.overlay && S.overlay.key === key && S.overlay.kind === kind) {
    if (result) S.overlay.result = result;
    return;
  }
  if (S.overlay && S.overlay.kind === "match" && kind === "deal") return;
  const v = S.view, explained = v && v.over ? v : null;
  S.overlay = { kind: kind, result: result, key: key,
                outcome: explained && explained.outcome, breakdown: explained && explained.breakdown };
}

function overlayDocked(o) {
  const v = S.view;
  return o.kind === "deal" && !!v && !v.over && v.deal_number !== o.key;
}

export function dismissOverlay() {
  if (!S.overlay) return;
  S.overlayDismissed[S.overlay.key] = true;
  S.overlay = null;
  render();
}

function startDockTimer(o) {
  if (o.dockTimer) return;
  o.dockTimer = setTimeout(() => { if (S.overlay === o) dismissOverlay(); }, DOCK_MS);
}

export function renderOverlay() {
  const over = $("#result-overlay"), dock = $("#result-dock");
  const o = S.overlay;
  const docked = !!o && overlayDocked(o);
  const box = docked ? dock : over, other = docked ? over : dock;
  if (other) { other.hidden = true; clear(other); }
  // The first time it waits for the deal's last trick to be swept; once shown it stays.
  if (!o || (!o.shown && !trickStage().idle()) || !box) {
    over.hidden = true; clear(over);
    if (dock) { dock.hidden = true; clear(dock); }
    return;
  }
  o.shown = true;
  if (docked) startDockTimer(o);
  box.hidden = false;
  clear(box);
  const tb = S.table;
  const panel = el("div", "result-panel");
  panel.setAttribute("data-kind", o.kind);
  panel.appendChild(el("h2", "", o.kind === "match" ? t("match_over") : t("deal_over")));
  let res = o.result;
  if (!res && o.kind === "match" && tb && tb.match && tb.match.results && tb.match.results.length) {
    res = tb.match.results[tb.match.results.length - 1];
  }
  const cols = scoreColumns();
  if (res) resultTables(panel, res, o, cols);
  if (o.kind === "deal") claimNote(panel, o.key);
  if (o.kind === "match" && tb && tb.match) {
    const winners = tb.match.winners || [];
    const names = winners.map(seatName);
    const wtext = tb.match.ended_by === "aborted" ? t("match_aborted") :
      winners.length && winners.length === nSeats() ? t("draw") : t("winners", { names: names.join(", ") });
    panel.appendChild(el("p", "result-winner", wtext));
    renderMatchEnd(panel);
    // A tournament's table leads back to its tournament (its next match comes from there).
    const home = tb.tournament ? document.querySelector("a.table-tournament") : null;
    const link = el("a", "btn primary", t(home ? "back_to_tournament" : "back_to_lobby"));
    link.href = home ? home.href : lobbyUrl;
    panel.appendChild(link);
  } else if (!docked) {
    const note = el("p", "result-note muted", t("next_deal_soon"));
    note.setAttribute("data-next-deal", "1");
    panel.appendChild(note);
  }
  panel.setAttribute("data-docked", docked ? "1" : "0");
  panel.appendChild(button(t("close"), dismissOverlay, "subtle", { "data-action": "close-result" }));
  box.appendChild(panel);
}

/* The result's rows, each per score column: tricks (per seat, summed per team), card points when
 * the deal scores something else, the deal's points (rules.deal_points), bags, the match score;
 * then what the engine explains of it (view.outcome, view.breakdown) and a shot moon. */
function resultTables(panel, res, o, cols) {
  const tb = S.table;
  const table = el("table", "score-table result-table");
  const hr = el("tr");
  hr.appendChild(el("td", ""));
  cols.forEach((c) => hr.appendChild(el("th", "", c)));
  table.appendChild(hr);
  const key = rules() && rules().deal_points;
  const rows = [];
  if (res.tricks) rows.push([t("tricks"), perTeam(res.tricks)]);
  if (key && key !== "points" && res.points) rows.push([t("card_points"), res.points]);
  if (key) rows.push([t(DEAL_POINTS_LABEL[key] || "deal_points"), res[key]]);
  if (res.bags_after) rows.push([t("bags"), res.bags_after]);
  if (tb && tb.match && tb.match.scores) rows.push([t("match_score"), tb.match.scores]);
  rows.forEach((r) => {
    if (!r[1]) return;
    const tr = el("tr");
    tr.appendChild(el("th", "", r[0]));
    cols.forEach((_, k) => tr.appendChild(el("td", "", r[1][k] === undefined ? "" : String(r[1][k]))));
    table.appendChild(tr);
  });
  panel.appendChild(table);
  if (o.outcome) panel.appendChild(outcomeNote(o.outcome));
  else if (res.ended_by) panel.appendChild(el("p", "result-note", t("ended_" + res.ended_by)));
  if (o.breakdown) panel.appendChild(breakdownTable(o.breakdown, cols));
  if (res.moon !== null && res.moon !== undefined) {
    panel.appendChild(el("p", "result-note", t("moon_shot", { name: seatName(res.moon) })));
  }
}

/* Who ended the deal and how, and what decided the game points (view.outcome: its winner and
 * loser are the engine's). */
function outcomeNote(out) {
  const box = el("div", "result-note outcome");
  box.setAttribute("data-outcome", out.ended_by + ":" + out.why);
  const by = out.by === null ? null : seatName(out.by), pts = out.by === null ? null : out.points[out.by];
  let how;
  if (out.ended_by === "declare") how = t(out.claim ? "outcome_claim_true" : "outcome_claim_false", { name: by, points: pts });
  else if (out.ended_by === "close") how = t(out.why === "failed_close" ? "outcome_close_failed" : "outcome_close_made", { name: by, points: pts });
  else how = t("outcome_played_out");
  box.appendChild(el("p", "outcome-how", how));
  if (out.winner !== null && out.loser !== null && out.loser !== undefined) {
    box.appendChild(el("p", "outcome-why", t("outcome_scores", { name: seatName(out.winner), n: out.game_points }) + " " +
      t("why_" + out.why, { name: seatName(out.loser), points: out.points[out.loser] })));
  } else {
    box.appendChild(el("p", "outcome-why", t("why_tie")));
  }
  return box;
}

/* Each team's (or seat's) deal score part by part (view.breakdown, from the engine's scoring): a
 * row for each part the breakdown has (a contract and bags, or hearts, queen, jack and moon). */
function breakdownTable(parts, cols) {
  const table = el("table", "score-table breakdown");
  table.setAttribute("data-breakdown", "1");
  table.appendChild(el("caption", "", t("score_breakdown")));
  const hr = el("tr");
  hr.appendChild(el("td", ""));
  cols.forEach((c) => hr.appendChild(el("th", "", c)));
  table.appendChild(hr);
  const signed = (n) => (n > 0 ? "+" + n : n < 0 ? "\u2212" + Math.abs(n) : "0");
  const has = (p, key) => p[key] !== undefined && p[key] !== null;
  const rows = [
    [t("bd_contract"), (p) => (has(p, "contract") ? t(p.made ? "bd_made" : "bd_set", { bid: p.contract, took: p.taken }) : "")],
    [t("bd_contract_points"), (p) => (has(p, "contract_points") ? signed(p.contract_points) : "")],
    [t("bd_overtricks"), (p) => (p.overtricks ? signed(p.overtricks) : "")],
    [t("bd_nil"), (p) => (p.nil || []).map((n) => t(n.blind ? "bd_blind_nil_of" : "bd_nil_of",
                                                     { name: seatName(n.seat), points: signed(n.points) })).join(", ")],
    [t("bd_nil_bags"), (p) => (p.nil_bags ? signed(p.nil_bags) : "")],
    [t("bd_bag_penalty"), (p) => (p.bag_penalty ? signed(p.bag_penalty) : "")],
    [t("bd_heart_cards"), (p) => (has(p, "hearts") ? signed(p.hearts) : "")],
    [t("bd_queen"), (p) => (p.queen ? signed(13) : "")],
    [t("bd_jack"), (p) => (p.jack ? signed(-10) : "")],
    [t("bd_moon"), (p) => (p.moon ? t(p.moon === "self" ? "bd_moon_self" : "bd_moon_others") : "")],
    [t("bd_total"), (p) => signed(p.points)],
    [t("bd_bags"), (p) => (has(p, "bags_before") ? p.bags_before + " \u2192 " + p.bags_after : "")]
  ];
  rows.forEach((r) => {
    const cells = parts.map(r[1]);
    if (cells.every((c) => !c)) return;
    const tr = el("tr");
    tr.appendChild(el("th", "", r[0]));
    cells.forEach((c) => tr.appendChild(el("td", "", c)));
    table.appendChild(tr);
  });
  return table;
}

/* Each tick: the next deal's countdown in the box. */
export function tickNextDeal() {
  const nd = document.querySelector("#table-app [data-next-deal]"), at = S.table && S.table.next_deal_at;
  if (nd && at) nd.textContent = t("next_deal_in", { n: Math.max(0, Math.ceil((at - Date.now() - S.skew) / 1000)) });
}
