/* "Verify this deal": recomputes every deal of a finished match in the browser, from its deal
 * records, with Web Crypto (crypto.subtle SHA-256 and HMAC-SHA256), so the check does not depend
 * on the server's own code. It fetches the match's records (the JSON lines download), and for each
 * deal checks that the revealed server seed hashes to the commitment and that the hands (and
 * Sixty-six's stock and trump card) are the deck derived from the seeds, dealt by the rules.
 *
 * The derivation (docs/FAIRNESS.md, "cardroom-hmac-sha256-fisher-yates/1"):
 *   context  = UTF-8 of JSON.stringify(["cardroom-deal/1", label, deal_number, client_seeds])
 *   deal_key = HMAC-SHA256(key = server seed bytes, context)
 *   stream   = HMAC-SHA256(deal_key, uint32be(0)) || HMAC-SHA256(deal_key, uint32be(1)) || ...
 *   below(n) = next 32-bit big-endian word w of the stream, redrawn while w >= 2^32 - 2^32 % n; w % n
 *   deck     = the variant's cards in index order; for i = len-1 .. 1: swap deck[i], deck[below(i+1)]
 * Page: #verify (data-records-url, data-match), strings in #verify-i18n. No rule is asked of the
 * server: the deal orders below are docs/RULES.md's, as games/engine/<game>.py deal_cards has them.
 */
import { el } from "./lib/dom.js";
import { fmt } from "./lib/fmt.js";

(function () {
  var root = document.getElementById("verify");
  if (!root) return;
  var T = JSON.parse(document.getElementById("verify-i18n").textContent);
  var list = document.getElementById("verify-deals");
  var summary = document.getElementById("verify-summary");
  var DERIVATION = "cardroom-hmac-sha256-fisher-yates/1";
  var DOMAIN = "cardroom-deal/1";
  var RANKS = "23456789TJQKA", SUITS = "CDHS";
  var SIXTYSIX = {            // ranks played, cards per hand, Santase's 3-3-trump-3-3 deal
    kurnik: { ranks: "9TJQKA", hand: 6, santase: false },
    schnapsen: { ranks: "TJQKA", hand: 5, santase: false },
    santase: { ranks: "9TJQKA", hand: 6, santase: true }
  };


  /* --- bytes ------------------------------------------------------------------------------- */
  function hexToBytes(hex) {
    var out = new Uint8Array(hex.length / 2);
    for (var i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
    return out;
  }
  function bytesToHex(buf) {
    return Array.prototype.map.call(new Uint8Array(buf), function (b) {
      return (b < 16 ? "0" : "") + b.toString(16);
    }).join("");
  }
  function hmac(keyBytes, data) {
    return crypto.subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"])
      .then(function (key) { return crypto.subtle.sign("HMAC", key, data); })
      .then(function (sig) { return new Uint8Array(sig); });
  }
  function uint32be(n) {
    var b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, n, false);
    return b;
  }

  /* --- the DRBG and the shuffle ------------------------------------------------------------ */
  function Drbg(dealKey) {
    this.key = dealKey;
    this.buffer = new Uint8Array(0);
    this.counter = 0;
  }
  Drbg.prototype.word = function () {
    var self = this;
    var ready = self.buffer.length >= 4 ? Promise.resolve() :
      hmac(self.key, uint32be(self.counter++)).then(function (block) {
        var joined = new Uint8Array(self.buffer.length + block.length);
        joined.set(self.buffer, 0);
        joined.set(block, self.buffer.length);
        self.buffer = joined;
      });
    return ready.then(function () {
      var w = new DataView(self.buffer.buffer, self.buffer.byteOffset, 4).getUint32(0, false);
      self.buffer = self.buffer.slice(4);
      return w;
    });
  };
  Drbg.prototype.below = function (n) {
    var self = this, limit = 4294967296 - (4294967296 % n);
    return self.word().then(function (w) { return w < limit ? w % n : self.below(n); });
  };

  function contextBytes(label, dealNumber, clientSeeds) {
    return new TextEncoder().encode(JSON.stringify([DOMAIN, label, dealNumber, clientSeeds]));
  }

  function shuffle(cards, seedBytes, clientSeeds, label, dealNumber) {
    var deck = cards.slice();
    return hmac(seedBytes, contextBytes(label, dealNumber, clientSeeds)).then(function (dealKey) {
      var drbg = new Drbg(dealKey);
      function step(i) {
        if (i < 1) return deck;
        return drbg.below(i + 1).then(function (j) {
          var tmp = deck[i]; deck[i] = deck[j]; deck[j] = tmp;
          return step(i - 1);
        });
      }
      return step(deck.length - 1);
    });
  }

  /* --- decks and deal orders (docs/RULES.md) ----------------------------------------------- */
  function code(index) { return RANKS[index % 13] + SUITS[Math.floor(index / 13)]; }
  function startingDeck(game, variant) {
    var all = [];
    for (var i = 0; i < 52; i++) all.push(i);
    if (game !== "sixtysix") return all;
    var ranks = SIXTYSIX[variant].ranks;
    return all.filter(function (c) { return ranks.indexOf(RANKS[c % 13]) >= 0; });
  }
  function dealCards(game, variant, dealer, deck) {
    var codes = deck.map(code);
    if (game === "sixtysix") {
      var opts = SIXTYSIX[variant], hands = [[], []], first = 1 - dealer, second = dealer, trump, stock;
      if (opts.santase) {
        hands[first] = codes.slice(0, 3).concat(codes.slice(7, 10));
        hands[second] = codes.slice(3, 6).concat(codes.slice(10, 13));
        trump = codes[6]; stock = codes.slice(13);
      } else {
        var n = opts.hand;
        hands[first] = codes.slice(0, n);
        hands[second] = codes.slice(n, 2 * n);
        trump = codes[2 * n]; stock = codes.slice(2 * n + 1);
      }
      return { hands: hands, stock: stock, trump_card: trump };
    }
    // Hearts and Spades: one card at a time clockwise from the dealer's left; hands in card order.
    var byIndex = [[], [], [], []];
    deck.forEach(function (c, i) { byIndex[(dealer + 1 + i) % 4].push(c); });
    return { hands: byIndex.map(function (h) {
      return h.sort(function (a, b) { return a - b; }).map(code);
    }) };
  }

  /* --- one record -------------------------------------------------------------------------- */
  function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

  function verifyRecord(rec, label) {
    var fair = rec && rec.fair;
    var out = { number: (rec && rec.deal_number || 0) + 1, checks: [], diffs: [], verdict: "fail", fair: fair };
    if (!fair || typeof fair !== "object") { out.verdict = "unfair"; out.reason = T.no_fair; return Promise.resolve(out); }
    if (fair.derivation !== DERIVATION) { out.reason = fmt(T.unknown_derivation, { d: String(fair.derivation) }); return Promise.resolve(out); }
    if (typeof fair.server_seed !== "string") { out.verdict = "unrevealed"; out.reason = T.not_revealed; return Promise.resolve(out); }
    if (!/^[0-9a-f]{64}$/.test(fair.server_seed)) { out.reason = T.bad_seed; return Promise.resolve(out); }
    if (!(rec.game === "sixtysix" ? SIXTYSIX[rec.variant] : (rec.game === "hearts" || rec.game === "spades"))) {
      out.reason = fmt(T.unknown_game, { g: String(rec.game) + " " + String(rec.variant) });
      return Promise.resolve(out);
    }
    var seed = hexToBytes(fair.server_seed);
    out.checks.push({ ok: fair.label === label, text: fmt(T.label_check, { label: String(fair.label) }) });
    return crypto.subtle.digest("SHA-256", seed).then(function (digest) {
      out.checks.push({ ok: bytesToHex(digest) === fair.commitment, text: T.commitment_check });
      // A duplicate round's board (fair.board) is derived with its own number, not the match's deal index.
      var number = typeof fair.board === "number" ? fair.board : (rec.deal_number || 0);
      return shuffle(startingDeck(rec.game, rec.variant), seed, fair.client_seeds, fair.label, number);
    }).then(function (deck) {
      var want = dealCards(rec.game, rec.variant, rec.dealer, deck);
      want.hands.forEach(function (hand, s) {
        if (!same(hand, (rec.hands || [])[s])) {
          out.diffs.push(fmt(T.hand_differs, { seat: s + 1, got: ((rec.hands || [])[s] || []).join(" "), want: hand.join(" ") }));
        }
      });
      if (want.stock && !same(want.stock, rec.stock)) {
        out.diffs.push(fmt(T.stock_differs, { got: (rec.stock || []).join(" "), want: want.stock.join(" ") }));
      }
      if (want.trump_card && want.trump_card !== rec.trump_card) {
        out.diffs.push(fmt(T.trump_differs, { got: String(rec.trump_card), want: want.trump_card }));
      }
      out.checks.push({ ok: out.diffs.length === 0, text: T.cards_check });
      out.verdict = out.checks.every(function (c) { return c.ok; }) ? "ok" : "fail";
      return out;
    });
  }

  /* --- the page ---------------------------------------------------------------------------- */
  function show(res) {
    var box = el("section", "verify-deal verdict-" + res.verdict);
    box.id = "deal-" + res.number;
    box.setAttribute("data-deal", res.number);
    box.setAttribute("data-verdict", res.verdict);
    var head = el("h2", "", fmt(T.deal, { n: res.number }) + " — ");
    head.appendChild(el("span", "verdict", T["verdict_" + res.verdict]));
    box.appendChild(head);
    if (res.reason) box.appendChild(el("p", "verify-reason", res.reason));
    if (res.checks.length) {
      var ul = el("ul", "verify-checks");
      res.checks.forEach(function (c) {
        var li = el("li", c.ok ? "ok" : "bad", (c.ok ? "✓ " : "✗ ") + c.text);
        li.setAttribute("data-ok", c.ok ? "1" : "0");
        ul.appendChild(li);
      });
      box.appendChild(ul);
    }
    if (res.diffs.length) {
      var diffs = el("ul", "verify-diffs");
      res.diffs.forEach(function (d) { diffs.appendChild(el("li", "", d)); });
      box.appendChild(diffs);
    }
    if (res.fair && typeof res.fair === "object") {
      var dl = el("dl", "verify-seeds");
      function row(k, v) { dl.appendChild(el("dt", "", k)); dl.appendChild(el("dd", "mono", v)); }
      row(T.commitment, String(res.fair.commitment));
      row(T.server_seed, res.fair.server_seed ? String(res.fair.server_seed) : "—");
      (res.fair.client_seeds || []).forEach(function (s, i) {
        row(fmt(T.client_seed, { seat: i + 1 }), s || T.no_client_seed);
      });
      box.appendChild(dl);
    }
    list.appendChild(box);
  }

  function run() {
    if (!window.crypto || !crypto.subtle || !window.TextEncoder) {
      summary.textContent = T.no_web_crypto;
      return;
    }
    var matchId = root.getAttribute("data-match");
    // The label the deals must carry: the match's, or (a duplicate tournament) its round's.
    var label = root.getAttribute("data-label") || "match:" + matchId;
    fetch(root.getAttribute("data-records-url"), { credentials: "same-origin" }).then(function (resp) {
      if (!resp.ok) throw new Error(fmt(T.fetch_failed, { status: resp.status }));
      return resp.text();
    }).then(function (text) {
      var records = text.split("\n").filter(function (l) { return l.trim(); }).map(function (l) {
        try { return JSON.parse(l); } catch (e) { return null; }
      });
      return records.reduce(function (chain, rec) {
        return chain.then(function (done) {
          return verifyRecord(rec, label).then(function (res) { show(res); done.push(res); return done; });
        });
      }, Promise.resolve([]));
    }).then(function (results) {
      var ok = results.filter(function (r) { return r.verdict === "ok"; }).length;
      var bad = results.filter(function (r) { return r.verdict === "fail"; }).length;
      summary.textContent = fmt(T.summary, { ok: ok, total: results.length, bad: bad });
      root.setAttribute("data-state", bad ? "failed" : ok === results.length ? "verified" : "incomplete");
      var target = location.hash && document.getElementById(location.hash.slice(1));
      if (target) { target.classList.add("highlight"); target.scrollIntoView(); }
    }).catch(function (err) {
      summary.textContent = String(err.message || err);
      root.setAttribute("data-state", "error");
    });
  }

  run();
})();
