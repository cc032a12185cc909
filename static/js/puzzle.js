/* A puzzle (puzzles/views.py): every hand open, the puzzle's seat at the bottom. A click on one of
 * its cards posts the play; the server's engine checks it (an illegal card is refused with the
 * rules' reason), its solver judges it and answers for the other seats, and the board it sends
 * back is drawn. This script knows no rules. Data: #puzzle-data {id, game, seat, seats, can_play,
 * rates, teams, attempt: {status, board: {view, hands, to_act, legal}, solution?, source?, rating?}};
 * strings: #puzzle-i18n. */
import * as Cards from "./lib/cards.js";
import { el } from "./lib/dom.js";
import { fmt } from "./lib/fmt.js";
import { POSITIONS, drawSeat, hideSeats, seatBox, seatLine, trickCard } from "./lib/seats.js";

(function () {
  var root = document.getElementById("puzzle");
  if (!root) return;
  var data = JSON.parse(document.getElementById("puzzle-data").textContent);
  var T = JSON.parse(document.getElementById("puzzle-i18n").textContent);
  var attempt = data.attempt;
  var busy = false;

  var cardText = Cards.cardText;
  function posOf(seat) { return POSITIONS[data.seats][(seat - data.seat + data.seats) % data.seats]; }
  function nameOf(seat) {
    var pos = posOf(seat);
    if (pos === "bottom") return T.you;
    if (data.one_on_one) return T.opponent;
    if (partners(seat)) return T.partner;
    return pos === "top" ? T.across : T[pos];
  }
  function partners(seat) {       // the engine's teams (data.teams): one team holds both seats
    return (data.teams || []).some(function (team) {
      return team.length > 1 && team.indexOf(seat) >= 0 && team.indexOf(data.seat) >= 0;
    });
  }
  function csrf() {
    var input = document.querySelector("[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function legalPlay(code) {
    var legal = attempt.board.legal || [];
    for (var i = 0; i < legal.length; i++) {
      if (legal[i].type === "play" && legal[i].card === code) return legal[i];
    }
    return null;
  }

  function drawSeats(board) {
    var v = board.view;
    var myTurn = attempt.status !== "solved" && attempt.status !== "failed" && data.can_play &&
      board.to_act === data.seat;
    hideSeats(root);
    board.hands.forEach(function (hand, seat) {
      var line = seatLine(seat, v, T);
      if (board.card_points) line = (line ? line + " · " : "") + T.points + ": " + board.card_points[seat];
      var mine = seat === data.seat && myTurn;
      var box = drawSeat(seatBox(root, posOf(seat)), {
        seat: seat, name: nameOf(seat), acting: board.to_act === seat, line: line, hand: hand, game: data.game,
        card: function (code) {
          var card = Cards.face(code, mine ? "button" : "div");
          if (mine) {
            // Every card of the hand may be tried: the server says why an illegal one is refused.
            card.classList.add(legalPlay(code) ? "legal" : "not-legal");
            card.setAttribute("aria-label", fmt(T.play_card, { c: cardText(code) }));
            card.addEventListener("click", function () { play(code); });
          }
          return card;
        }
      });
      if (seat === data.seat && myTurn) {
        // A Sixty-six claim is a play too (the solver judges it like a card).
        (board.legal || []).filter(function (a) { return a.type === "declare"; }).forEach(function (a) {
          var claim = el("button", "btn small", T.claim);
          claim.type = "button";
          claim.setAttribute("data-action", "claim");
          claim.addEventListener("click", function () {
            if (!busy) post("/puzzles/" + data.id + "/play/", { action: a });
          });
          box.appendChild(claim);
        });
      }
    });
  }

  function drawCenter(board) {
    var v = board.view;
    var box = document.getElementById("puzzle-trick");
    box.textContent = "";
    (v.trick || []).forEach(function (c) { trickCard(box, posOf(c.seat), c.card); });
    var info = document.getElementById("puzzle-info");
    info.textContent = "";
    if (v.trump_suit) {
      info.appendChild(el("div", null, T.trump + ": " + Cards.SUIT_SYMBOL[v.trump_suit]));
    }
  }

  function drawAfter() {
    var over = attempt.status === "solved" || attempt.status === "failed";
    var after = document.getElementById("puzzle-after");
    after.hidden = !over;
    if (!over) return;
    var line = (attempt.solution || []).map(function (a) {
      return nameOf(a.seat) + " " + (a.card ? cardText(a.card) : a.type === "declare" ? T.claim : a.type);
    });
    document.getElementById("puzzle-solution").textContent = T.answer + " " + line.join(", ");
    var rating = document.getElementById("puzzle-rating");
    rating.textContent = attempt.rated && attempt.rating ?
      fmt(T.rating, { before: attempt.rating.before, after: attempt.rating.after }) : T.unrated;
    var source = document.getElementById("puzzle-source");
    if (attempt.source) {
      source.href = attempt.source.url;
      source.hidden = false;
    }
  }

  function message() {
    var text = "";
    if (attempt.status === "solved") text = T.solved;
    else if (attempt.status === "failed") text = T.failed;
    else if (!data.can_play) text = T.login;
    else if (attempt.moves && attempt.moves.length) text = T.right_play;
    else text = T.your_turn;
    document.getElementById("puzzle-message").textContent = text;
  }

  function draw() {
    root.setAttribute("data-status", attempt.status);
    root.className = "replay-app puzzle-app game-" + data.game + " seats-" + data.seats;
    drawSeats(attempt.board);
    drawCenter(attempt.board);
    drawAfter();
    message();
  }

  function showError(text) {
    var box = document.getElementById("puzzle-error");
    box.textContent = text || "";
    box.hidden = !text;
  }

  function post(url, body) {
    busy = true;
    return fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
      body: JSON.stringify(body || {})
    }).then(function (resp) {
      return resp.json().then(function (json) { return { ok: resp.ok, json: json }; });
    }).then(function (answer) {
      busy = false;
      if (!answer.ok) { showError(answer.json.reason || T.error); return; }
      showError("");
      attempt = answer.json;
      draw();
    }, function () { busy = false; showError(T.error); });
  }

  function play(code) {
    if (busy) return;
    var action = legalPlay(code) || { type: "play", card: code };
    post("/puzzles/" + data.id + "/play/", { action: action });
  }

  document.getElementById("puzzle-retry").addEventListener("click", function () {
    if (!busy) post("/puzzles/" + data.id + "/start/");
  });
  window.puzzleView = { get status() { return attempt.status; } };
  draw();
})();
