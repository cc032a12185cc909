/* Card rendering shared by the table and the lobby: CSS + Unicode suit symbols, no images.
 * A card code is rank + suit ("QS", "TH", "9C"); see docs/RECORDS.md. */
(function (global) {
  "use strict";

  var SUIT_SYMBOL = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  // The reader's letters of jack, queen, king and ace (German B D K A: the page's
  // <meta name="card-letters">, games/card_letters.py); codes stay "JH", "QS".
  var RANK_LABEL = { T: "10" };
  var LETTERS_META = document.querySelector("meta[name=card-letters]");
  var LETTERS = ((LETTERS_META && LETTERS_META.getAttribute("content")) || "").split(" ");
  if (LETTERS.length === 4) "JQKA".split("").forEach(function (r, i) { if (LETTERS[i]) RANK_LABEL[r] = LETTERS[i]; });
  var SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 };   // alternating colours in a hand
  var RANK_ORDER = {
    standard: "23456789TJQKA",
    sixtysix: "9JQKTA"                          // Sixty-six trick order, low to high
  };

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  function rankLabel(code) { var r = code.charAt(0); return RANK_LABEL[r] || r; }
  function suitOf(code) { return code.charAt(1); }
  function isRed(code) { var s = suitOf(code); return s === "H" || s === "D"; }

  /** A face-up card. ``tag`` is "button" for playable hand cards, "div" otherwise. */
  function face(code, tag) {
    var card = el(tag || "div", "card " + (isRed(code) ? "red" : "black") + " suit-" + suitOf(code));
    card.setAttribute("data-card", code);
    card.setAttribute("aria-label", rankLabel(code) + SUIT_SYMBOL[suitOf(code)]);
    if (tag === "button") card.type = "button";
    else card.setAttribute("role", "img");        // a picture named by its aria-label (a div has no name)
    var corner = el("span", "corner");
    corner.appendChild(el("span", "rank", rankLabel(code)));
    corner.appendChild(el("span", "suit", SUIT_SYMBOL[suitOf(code)]));
    card.appendChild(corner);
    card.appendChild(el("span", "pip", SUIT_SYMBOL[suitOf(code)]));
    return card;
  }

  /** A face-down card: it never carries a code. */
  function back(extraClass) {
    return el("div", "card back" + (extraClass ? " " + extraClass : ""));
  }

  /** ``rankOrder``: the ranks weakest first as the engine describes the game (the table JSON's
   * rules.rank_order); without it, by the game's name (the replay viewer). */
  function sortHand(codes, game, rankOrder) {
    var order = rankOrder || RANK_ORDER[game === "sixtysix" ? "sixtysix" : "standard"];
    return codes.slice().sort(function (a, b) {
      var ds = SUIT_ORDER[suitOf(a)] - SUIT_ORDER[suitOf(b)];
      if (ds) return ds;
      return order.indexOf(a.charAt(0)) - order.indexOf(b.charAt(0));
    });
  }

  global.Cards = {
    SUIT_SYMBOL: SUIT_SYMBOL, face: face, back: back, sortHand: sortHand,
    suitOf: suitOf, rankLabel: rankLabel, isRed: isRed, el: el
  };
})(window);
