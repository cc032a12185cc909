/* Replay viewer: steps through a finished deal card by card (forward, back, jump to a trick).
 *
 * The server replays the deal record through the engine and sends every step: the public view
 * after the action plus every hand (the deal is over, so nothing is hidden any more). This script
 * only draws frames; it knows no rules. Data: #replay-data {"deals": [{title, game, players, rules
 * (the engine's description: teams in score-column order, ...), frames: [{action, trick, view,
 * hands}], result, finished}]}; strings: #replay-i18n.
 */
import * as Cards from "./lib/cards.js";
import { el } from "./lib/dom.js";
import { fmt } from "./lib/fmt.js";
import { POSITIONS, drawSeat, hideSeats, seatBox, seatLine, trickCard } from "./lib/seats.js";

(function () {
  var root = document.getElementById("replay");
  if (!root) return;
  var data = JSON.parse(document.getElementById("replay-data").textContent || "null");
  var T = JSON.parse(document.getElementById("replay-i18n").textContent);
  if (!data || !data.deals || !data.deals.length) return;
  // A deal result's figures per score column, in the order shown: [result key, string key].
  var RESULT_FIELDS = [["points", "points"], ["game_points", "game_points"], ["team_points", "team_points"],
                       ["bags_after", "bags"]];
  var deal = null;
  var step = 0;

  var cardText = Cards.cardText;
  // The seat figures' labels: the replay's own word for a bid ("bid" is its caption of a bid).
  var SEAT_WORDS = { tricks: T.tricks, points: T.points, bid: T.bid_label };
  function posOf(seat) { return POSITIONS[deal.players.length][seat]; }

  function describe(frame) {
    var a = frame.action;
    var v = frame.view;
    if (!a) return fmt(T.dealt, { p: deal.players[v.dealer] });
    var p = deal.players[a.seat];
    switch (a.type) {
      case "play":
        if (a.marriage) return fmt(a.declare ? T.marriage66 : T.marriage, { p: p, c: cardText(a.card) });
        return fmt(T.play, { p: p, c: cardText(a.card) });
      case "exchange": return fmt(T.exchange, { p: p });
      case "close": return fmt(T.close, { p: p });
      case "declare": return fmt(T.declare, { p: p });
      case "pass": return fmt(T.pass, { p: p, c: (a.cards || []).map(cardText).join(" ") });
      case "moon": return fmt(a.choice === "self" ? T.moon_self : T.moon_others, { p: p });
      case "blind_nil": return fmt(a.accept ? T.blind_yes : T.blind_no, { p: p });
      case "bid": return a.tricks === 0 ? fmt(T.nil, { p: p }) : fmt(T.bid, { p: p, n: a.tricks });
      default: return p + ": " + a.type;
    }
  }

  /** The cards on the table: the trick in play, or the trick the last card completed. */
  function trickOf(frame) {
    var v = frame.view;
    if (v.trick && v.trick.length) return { cards: v.trick, winner: null };
    if (frame.action && frame.action.type === "play" && v.last_trick) {
      return { cards: v.last_trick.cards, winner: v.last_trick.winner };
    }
    return { cards: [], winner: null };
  }

  function drawSeats(frame) {
    var v = frame.view;
    var acting = v.to_act || [];
    hideSeats(root);
    deal.players.forEach(function (name, seat) {
      drawSeat(seatBox(root, posOf(seat)), {
        seat: seat, name: name, dealer: v.dealer === seat ? T.dealer : "", acting: acting.indexOf(seat) >= 0,
        line: seatLine(seat, v, SEAT_WORDS), hand: frame.hands[seat], game: deal.game
      });
    });
  }

  function drawCenter(frame) {
    var v = frame.view;
    var trick = trickOf(frame);
    var box = document.getElementById("replay-trick");
    box.textContent = "";
    trick.cards.forEach(function (c) {
      var card = trickCard(box, posOf(c.seat), c.card);
      if (trick.winner === c.seat) card.classList.add("winner");
    });
    var info = document.getElementById("replay-info");
    info.textContent = "";
    if (v.stock_size !== undefined) {          // a game with a talon (sixty-six)
      var line = el("div", null, T.trump + ": ");
      if (v.trump_card && v.stock_size > 0) line.appendChild(Cards.face(v.trump_card));
      else line.appendChild(el("span", "trump-suit " + (v.trump_suit === "H" || v.trump_suit === "D" ? "red" : "black"), Cards.SUIT_SYMBOL[v.trump_suit]));
      info.appendChild(line);
      info.appendChild(el("div", null, T.stock + ": " + v.stock_size + (v.closed ? " (" + T.closed + ")" : "")));
    }
    if (trick.winner !== null) info.appendChild(el("div", "replay-takes", fmt(T.takes, { p: deal.players[trick.winner] })));
  }

  function drawResult(frame) {
    var box = document.getElementById("replay-result");
    var last = step === deal.frames.length - 1;
    box.hidden = !last;
    if (!last) return;
    box.textContent = "";
    if (!deal.finished || !deal.result) { box.appendChild(el("p", "muted", T.unfinished)); return; }
    box.appendChild(el("h3", null, T.result));
    var r = deal.result;
    // One line per score column (a team: "A & C"), with every per-column figure of the result.
    var teams = (deal.rules && deal.rules.teams) || deal.players.map(function (_, s) { return [s]; });
    var fields = RESULT_FIELDS.filter(function (f) { return r[f[0]] && r[f[0]].length === teams.length; });
    var rows = teams.map(function (team, k) {
      return team.map(function (s) { return deal.players[s]; }).join(" & ") + " — " +
        fields.map(function (f) { return T[f[1]] + ": " + r[f[0]][k]; }).join(", ");
    });
    var ul = el("ul");
    rows.forEach(function (line) { ul.appendChild(el("li", null, line)); });
    box.appendChild(ul);
  }

  function draw() {
    var frame = deal.frames[step];
    root.setAttribute("data-step", step);
    root.className = "replay-app game-" + deal.game + " seats-" + deal.players.length;
    drawSeats(frame);
    drawCenter(frame);
    drawResult(frame);
    document.getElementById("replay-caption").textContent = describe(frame);
    document.getElementById("replay-step").textContent = fmt(T.step, { i: step, n: deal.frames.length - 1 });
    var slider = document.getElementById("replay-slider");
    slider.max = deal.frames.length - 1;
    slider.value = step;
    root.querySelector("[data-go=back]").disabled = root.querySelector("[data-go=start]").disabled = step === 0;
    root.querySelector("[data-go=forward]").disabled = root.querySelector("[data-go=end]").disabled = step === deal.frames.length - 1;
    var current = frame.trick;
    if (current === null || current === undefined) {
      for (var i = step; i >= 0; i--) { if (deal.frames[i].trick) { current = deal.frames[i].trick; break; } }
    }
    Array.prototype.forEach.call(root.querySelectorAll("[data-trick]"), function (b) {
      b.classList.toggle("current", Number(b.getAttribute("data-trick")) === current);
    });
  }

  function go(to) {
    step = Math.max(0, Math.min(deal.frames.length - 1, to));
    draw();
  }

  function buildTricks() {
    var box = document.getElementById("replay-tricks");
    Array.prototype.forEach.call(box.querySelectorAll("button"), function (b) { b.remove(); });
    var firsts = {};
    deal.frames.forEach(function (f, i) { if (f.trick && firsts[f.trick] === undefined) firsts[f.trick] = i; });
    Object.keys(firsts).map(Number).sort(function (a, b) { return a - b; }).forEach(function (k) {
      var b = el("button", "btn small", String(k));
      b.type = "button";
      b.setAttribute("data-trick", k);
      b.addEventListener("click", function () { go(firsts[k]); });
      box.appendChild(b);
    });
  }

  function load(index) {
    deal = data.deals[index];
    step = 0;
    buildTricks();
    draw();
  }

  root.addEventListener("click", function (e) {
    var b = e.target.closest("[data-go]");
    if (!b) return;
    var to = { start: 0, back: step - 1, forward: step + 1, end: deal.frames.length - 1 }[b.getAttribute("data-go")];
    go(to);
  });
  document.getElementById("replay-slider").addEventListener("input", function (e) { go(Number(e.target.value)); });
  document.addEventListener("keydown", function (e) {
    if (e.target.closest && e.target.closest("input, textarea, select")) return;
    if (e.key === "ArrowRight") { go(step + 1); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { go(step - 1); e.preventDefault(); }
    else if (e.key === "Home") { go(0); e.preventDefault(); }
    else if (e.key === "End") { go(deal.frames.length - 1); e.preventDefault(); }
  });
  if (data.deals.length > 1) {
    var pick = document.getElementById("replay-deal");
    data.deals.forEach(function (d, i) { pick.appendChild(new Option(d.title, i)); });
    pick.addEventListener("change", function () { load(Number(pick.value)); });
    document.getElementById("replay-pick").hidden = false;
  }
  window.replayViewer = { go: go, get step() { return step; }, get deal() { return deal; } };
  load(0);
})();
