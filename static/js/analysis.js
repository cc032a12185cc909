/* The strong bot's analysis of a finished match (analysis app; docs/ANALYSIS.md).
 *
 * Polls #analysis[data-url] (JSON: status, done, total, seats, result) while the job runs, with a
 * progress bar, and draws the result when it is done, without a reload. On the match page: the
 * per-match summary and one row per deal. On a replay page (data-deal): that deal's summary, and the
 * verdict on the move the replay viewer (static/js/replay.js) is showing, each option's expected
 * result with the best marked; it follows the viewer through #replay's data-step attribute.
 */
import { cardText as card } from "./lib/cards.js";
import { el } from "./lib/dom.js";
import { fmt } from "./lib/fmt.js";

(function () {
  var root = document.getElementById("analysis");
  if (!root) return;
  var T = JSON.parse(document.getElementById("analysis-i18n").textContent);
  var url = root.getAttribute("data-url");
  var dealNumber = root.hasAttribute("data-deal") ? Number(root.getAttribute("data-deal")) : null;
  var POLL_MS = 1500;
  var LABELS = ["inaccuracies", "mistakes", "blunders"];
  var seats = [];
  var result = null;

  function num(x) { return (Math.round(x * 100) / 100).toFixed(2); }
  function signed(x) { return (x > 0 ? "+" : "") + num(x); }
  function seatName(seat) { return seats[seat] || String(seat + 1); }

  function actionText(a) {
    switch (a.type) {
      case "play":
        if (a.marriage) return fmt(a.declare ? T.marriage66 : T.marriage, { c: card(a.card) });
        return card(a.card);
      case "pass": return fmt(T.pass, { c: a.cards.map(card).join(" ") });
      case "bid": return a.tricks === 0 ? T.nil : fmt(T.bid, { n: a.tricks });
      case "blind_nil": return a.accept ? T.blind_yes : T.blind_no;
      case "declare": return T.declare;
      case "exchange": return T.exchange;
      case "close": return T.close;
      default: return a.type;
    }
  }

  // --- progress -------------------------------------------------------------------------------
  function showProgress(data) {
    var box = document.getElementById("analysis-progress");
    var bar = document.getElementById("analysis-bar");
    box.hidden = false;
    bar.max = Math.max(1, data.total || 0);
    bar.value = data.done || 0;
    bar.setAttribute("aria-valuetext", fmt(T.count, { done: data.done || 0, total: data.total || 0 }));
    document.getElementById("analysis-count").textContent =
      data.status === "pending" ? T.waiting : fmt(T.count, { done: data.done || 0, total: data.total || 0 });
  }
  function message(text) {
    var p = document.getElementById("analysis-message");
    p.textContent = text || "";
    p.hidden = !text;
  }

  // --- summaries ------------------------------------------------------------------------------
  function summaryTable(caption, rows, dealLinks) {
    var table = el("table", "analysis-summary-table");
    table.appendChild(el("caption", null, caption));
    var head = el("tr");
    [T.player, T.decisions, T.average_loss, T.inaccuracies, T.mistakes, T.blunders].forEach(function (h) {
      var th = el("th", null, h);
      th.scope = "col";
      head.appendChild(th);
    });
    var thead = el("thead");
    thead.appendChild(head);
    table.appendChild(thead);
    var body = el("tbody");
    rows.forEach(function (r) {
      var tr = el("tr");
      var th = el("th", null, seatName(r.seat));
      th.scope = "row";
      tr.appendChild(th);
      tr.appendChild(el("td", null, String(r.decisions)));
      tr.appendChild(el("td", null, num(r.average_loss)));
      LABELS.forEach(function (k) {
        var td = el("td", r[k] && k === "blunders" ? "has-blunders" : null, String(r[k]));
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
    table.appendChild(body);
    // On a narrow screen the table scrolls sideways in its box; its headings break between words only.
    var scroll = el("div", "analysis-table-scroll");
    scroll.tabIndex = 0;                              // a box that scrolls is reached by keyboard too
    scroll.setAttribute("role", "region");
    scroll.setAttribute("aria-label", caption);
    scroll.appendChild(table);
    return scroll;
  }

  function drawSummary() {
    var box = document.getElementById("analysis-summary");
    box.textContent = "";
    var t = result.thresholds;
    if (t) box.appendChild(el("p", "muted", fmt(T.units, { i: t.inaccuracy, m: t.mistake, b: t.blunder }) +
                                             " " + fmt(T.samples, { n: result.iterations })));
    if (dealNumber === null) {
      box.appendChild(summaryTable(T.match_summary, result.summary));
      result.deals.forEach(function (d) {
        if (!d.summary.length) return;
        var wrap = el("div", "analysis-deal");
        wrap.appendChild(summaryTable(fmt(T.deal_n, { n: d.deal_number + 1 }), d.summary));
        var link = el("a", "replay-link", T.open_deal);
        link.href = url.replace(/analysis\.json$/, "deal/" + (d.deal_number + 1) + "/");
        wrap.appendChild(link);
        box.appendChild(wrap);
      });
    } else {
      var deal = dealOf();
      if (deal) box.appendChild(summaryTable(T.deal_summary, deal.summary));
      box.appendChild(summaryTable(T.match_summary, result.summary));
    }
  }

  // --- one decision (replay page) -------------------------------------------------------------
  function dealOf() {
    if (!result) return null;
    for (var i = 0; i < result.deals.length; i++) {
      if (result.deals[i].deal_number === dealNumber - 1) return result.deals[i];
    }
    return null;
  }

  function drawDecision() {
    var box = document.getElementById("analysis-decision");
    if (!box || dealNumber === null || !result) return;
    box.textContent = "";
    var replay = document.getElementById("replay");
    var frame = replay ? Number(replay.getAttribute("data-step") || 0) : 0;
    var deal = dealOf();
    if (!deal) return;
    // Frame i shows the position after action i-1: the verdict is on the move just shown.
    var v = null;
    deal.decisions.forEach(function (d) { if (d.step === frame - 1) v = d; });
    if (!v) {
      box.appendChild(el("p", "muted", frame === 0 ? T.no_decision : T.not_analysed));
      return;
    }
    var label = v.label ? T[v.label] : T.good;
    var head = el("p", "analysis-verdict" + (v.label ? " label-" + v.label : " label-good"));
    head.textContent = fmt(T.verdict, { p: seatName(v.seat), a: actionText(v.played), label: label, loss: num(v.loss) });
    box.appendChild(head);
    var table = el("table", "analysis-options");
    var tr = el("tr");
    [T.option, T.expected, ""].forEach(function (h) { var th = el("th", null, h); th.scope = "col"; tr.appendChild(th); });
    var thead = el("thead");
    thead.appendChild(tr);
    table.appendChild(thead);
    var body = el("tbody");
    var order = v.options.map(function (_, j) { return j; });
    order.sort(function (a, b) { return v.options[b].mean - v.options[a].mean || a - b; });
    order.forEach(function (j) {
      var o = v.options[j];
      var row = el("tr", (j === v.best ? "best " : "") + (j === v.played_index ? "played" : ""));
      row.appendChild(el("td", null, actionText(o.action)));
      row.appendChild(el("td", "num", signed(o.mean)));
      var marks = [];
      if (j === v.best) marks.push("\u2605 " + T.best);
      if (j === v.played_index) marks.push("\u25B6 " + T.played);
      row.appendChild(el("td", "marks", marks.join(" · ")));
      body.appendChild(row);
    });
    table.appendChild(body);
    box.appendChild(table);
  }

  // --- polling --------------------------------------------------------------------------------
  function poll() {
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
      .then(function (data) {
        seats = data.seats || [];
        if (data.status === "done") {
          document.getElementById("analysis-progress").hidden = true;
          message("");
          result = data.result;
          root.setAttribute("data-status", "done");
          drawSummary();
          drawDecision();
          return;
        }
        root.setAttribute("data-status", data.status);
        if (data.status === "failed") { document.getElementById("analysis-progress").hidden = true; message(T.failed); return; }
        if (data.status === "none") { message(T.none); return; }
        showProgress(data);
        setTimeout(poll, POLL_MS);
      })
      .catch(function () { message(T.error); setTimeout(poll, POLL_MS * 4); });
  }

  var replay = document.getElementById("replay");
  if (replay && dealNumber !== null) {
    new MutationObserver(drawDecision).observe(replay, { attributes: true, attributeFilter: ["data-step"] });
  }
  poll();
})();
