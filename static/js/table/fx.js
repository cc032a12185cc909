/* How the table moves, sounds and signals a turn: helpers the table client (static/js/table/)
 * calls while it renders. Nothing here decides anything about the game: the client keeps
 * rendering the current state (the hand, the prompt, the legal moves); these helpers only let a
 * finished trick stay readable for a moment and make the cards travel.
 *
 *   prefs            remembered settings (localStorage, never throws)
 *   motionAllowed()  false under prefers-reduced-motion: reduce
 *   sound            Web Audio sounds, silent until a user gesture; mute remembered
 *   turnSignal()     tab title and favicon say "your turn"
 *   flyIn()          a card travels from a rectangle to where it now is
 *   TrickStage       the cards in the middle of the table, with a short visual queue */
const global = window;

/* ---------------------------------------------------------------- remembered settings */
var prefs = {
  get: function (key, fallback) {
    try { var v = global.localStorage.getItem("cards." + key); return v === null ? fallback : v; }
    catch (e) { return fallback; }
  },
  set: function (key, value) {
    try { global.localStorage.setItem("cards." + key, String(value)); } catch (e) { /* private mode */ }
  }
};

var reducedQuery = global.matchMedia ? global.matchMedia("(prefers-reduced-motion: reduce)") : null;
function motionAllowed() {
  return !(reducedQuery && reducedQuery.matches) && typeof Element.prototype.animate === "function";
}

/* ---------------------------------------------------------------- sound */
/* Synthesised, no audio files. Browsers refuse to start audio before the user interacts with
 * the page, so the context is created on the first gesture and earlier sounds are dropped. */
var sound = (function () {
  var ctx = null, unlocked = false;
  function enabled() { return prefs.get("sound", "on") !== "off"; }
  function setEnabled(on) { prefs.set("sound", on ? "on" : "off"); }
  function unlock() {
    unlocked = true;
    if (!ctx) {
      var AC = global.AudioContext || global.webkitAudioContext;
      if (!AC) return;
      try { ctx = new AC(); } catch (e) { ctx = null; return; }
    }
    if (ctx.state === "suspended" && ctx.resume) ctx.resume();
  }
  ["pointerdown", "keydown", "touchstart"].forEach(function (type) {
    global.addEventListener(type, unlock, { capture: true, passive: true });
  });

  function tone(freq, start, length, type, peak) {
    var osc = ctx.createOscillator(), gain = ctx.createGain();
    osc.type = type || "sine";
    osc.frequency.setValueAtTime(freq, start);
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(peak || 0.18, start + 0.012);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
    osc.connect(gain).connect(ctx.destination);
    osc.start(start);
    osc.stop(start + length + 0.02);
  }
  /* A card on the cloth: a short band of filtered noise. */
  function snap(start) {
    var len = Math.floor(ctx.sampleRate * 0.07), buf = ctx.createBuffer(1, len, ctx.sampleRate);
    var data = buf.getChannelData(0);
    for (var i = 0; i < len; i++) data[i] = (Math.random() * 2 - 1) * Math.pow(1 - i / len, 3);
    var src = ctx.createBufferSource(), filter = ctx.createBiquadFilter(), gain = ctx.createGain();
    src.buffer = buf;
    filter.type = "bandpass"; filter.frequency.value = 2200; filter.Q.value = 0.9;
    gain.gain.value = 0.5;
    src.connect(filter).connect(gain).connect(ctx.destination);
    src.start(start);
  }
  var SOUNDS = {
    card: function (at) { snap(at); },
    turn: function (at) { tone(660, at, 0.16, "sine", 0.14); tone(880, at + 0.13, 0.22, "sine", 0.14); },
    deal_end: function (at) {
      [523.25, 659.25, 783.99].forEach(function (f, i) { tone(f, at + i * 0.11, 0.3, "triangle", 0.12); });
    }
  };
  function play(name) {
    if (!enabled() || !unlocked || !ctx || !SOUNDS[name]) return false;
    if (ctx.state === "suspended") return false;
    SOUNDS[name](ctx.currentTime + 0.01);
    return true;
  }
  return { enabled: enabled, setEnabled: setEnabled, play: play };
})();

/* ---------------------------------------------------------------- tab title and favicon */
var turnSignal = (function () {
  var baseTitle = null, shown = null, original = null, link = null;
  function iconLink() {
    if (link) return link;
    link = document.querySelector("link[rel~='icon']");
    if (link) original = link.getAttribute("href");
    else {
      link = document.createElement("link");
      link.rel = "icon";
      document.head.appendChild(link);
    }
    return link;
  }
  /* A spade on green; with an orange dot when it is your turn. */
  function drawIcon(dot) {
    var c = document.createElement("canvas");
    c.width = c.height = 32;
    var g = c.getContext && c.getContext("2d");
    if (!g) return null;
    g.fillStyle = "#1f6b43";
    g.beginPath(); g.arc(16, 16, 15, 0, Math.PI * 2); g.fill();
    g.fillStyle = "#fff"; g.font = "bold 22px sans-serif"; g.textAlign = "center"; g.textBaseline = "middle";
    g.fillText("\u2660", 15, 17);
    if (dot) {
      g.fillStyle = "#f28c18"; g.strokeStyle = "#fff"; g.lineWidth = 2;
      g.beginPath(); g.arc(24, 8, 7, 0, Math.PI * 2); g.fill(); g.stroke();
    }
    return c.toDataURL("image/png");
  }
  /* ``text``: what the title says while it is your turn ("Your turn — Hearts #12"). */
  return function (mine, text) {
    if (baseTitle === null) baseTitle = document.title;
    if (shown === mine) return;
    shown = mine;
    document.title = mine ? "\u25cf " + text : baseTitle;
    var node = iconLink();
    var href = mine ? drawIcon(true) : (original || drawIcon(false));
    if (href) node.setAttribute("href", href);
    node.setAttribute("data-turn", mine ? "1" : "0");
  };
})();

/* ---------------------------------------------------------------- movement */
function centre(rect) { return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 }; }

/* ``node`` is already where it belongs; it is drawn travelling there from ``from`` (a rect). */
function flyIn(node, from, options) {
  if (!from || !motionAllowed()) return null;
  var to = centre(node.getBoundingClientRect()), start = centre(from);
  var dx = start.x - to.x, dy = start.y - to.y;
  var o = options || {};
  return node.animate([
    { transform: "translate(" + dx + "px," + dy + "px) scale(" + (o.scale || 0.85) + ") rotate(" + (o.rotate || 0) + "deg)",
      opacity: o.fade ? 0 : 1 },
    { transform: "none", opacity: 1 }
  ], { duration: o.duration || 280, delay: o.delay || 0, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" });
}

/* ``node`` travels from where it is to ``to`` (a rect) and fades out. */
function flyOut(node, to, duration) {
  var from = centre(node.getBoundingClientRect()), end = centre(to);
  return node.animate([
    { transform: "none", opacity: 1 },
    { transform: "translate(" + (end.x - from.x) + "px," + (end.y - from.y) + "px) scale(.45)", opacity: 0 }
  ], { duration: duration, easing: "cubic-bezier(.5,0,.8,.4)", fill: "forwards" });
}

/* ---------------------------------------------------------------- the trick in the middle */
/* The server moves on the moment a trick is complete (a bot may lead the next one at once), so
 * the stage keeps its own short queue: the finished trick stays HOLD_MS, sweeps to its winner,
 * then the cards played since appear. Everything else on the page is current all along; the
 * player whose turn it is may play at any time (``hurry`` cuts the hold short).
 *
 * options: slotClass(seat) -> "pos-bottom"..., face(card) -> node, origin(seat, card) -> rect,
 *          winnerRect(seat) -> rect, onCard() (a card arrives), onIdle() (the queue is empty). */
var HOLD_MS = 1200, FLY_MS = 280, SWEEP_MS = 380, HURRY_SWEEP_MS = 140;
/* While the player is to act the middle must show the trick they play to: a held trick is cut
 * down to this (still long enough to see who took it; the "Last trick" panel keeps it). */
var URGENT_HOLD_MS = 650;

function TrickStage(options) {
  this.o = options;
  this.node = document.createElement("div");
  this.node.className = "trick-stage";
  this.shown = [];         // [{seat, card, slot}] in the order played
  this.lastKey = null;     // the last finished trick seen, to notice a new one
  this.hold = null;        // {timer, winner} while a finished trick is held
  this.waiting = null;     // the current trick, to show once the hold is over
  this.sweeping = false;
}

function trickKey(cards) {
  return (cards || []).map(function (p) { return p.seat + ":" + p.card; }).join(",");
}

TrickStage.prototype.idle = function () { return !this.hold && !this.sweeping; };

/* Bring the stage to ``view``. ``live``: the view follows an update (not a snapshot), so what
 * changed may be shown happening; ``motion``: movement is allowed; ``urgent``: the player is to
 * act now (a held trick makes way sooner). */
TrickStage.prototype.update = function (view, live, motion, urgent) {
  var trick = view.trick || [], last = view.last_trick;
  var lastKey = last && last.cards ? trickKey(last.cards) : "";
  var finished = live && this.lastKey !== null && lastKey && lastKey !== this.lastKey;
  this.lastKey = lastKey;
  if (!live || !motion) {
    var newCards = live ? this.unseen(finished ? last.cards.concat(trick) : trick) : [];
    this.cancel();
    this.setCards(trick.length || !last || !last.cards ? trick : last.cards, !trick.length, last && last.winner);
    if (newCards.length) this.o.onCard();
    return;
  }
  if (finished) {
    if (this.hold) { this.waiting = null; this.endHold(true); }
    this.waiting = trick;
    this.sync(last.cards);
    this.startHold(last.winner, urgent);
  } else if (this.hold || this.sweeping) {
    this.waiting = trick;
    if (urgent) this.shorten();
  } else {
    this.sync(trick);
  }
};

/* Cards of ``cards`` not on the stage now. */
TrickStage.prototype.unseen = function (cards) {
  var shown = this.shown;
  return cards.filter(function (p) { return !shown.some(function (s) { return s.card === p.card; }); });
};

/* Show ``cards`` as the trick, travelling in those that are new; drop what is not in it. */
TrickStage.prototype.sync = function (cards) {
  var keep = cards.map(function (p) { return p.card; });
  this.shown = this.shown.filter(function (s) {
    if (keep.indexOf(s.card) >= 0) return true;
    if (s.slot.parentNode) s.slot.parentNode.removeChild(s.slot);
    return false;
  });
  this.addCards(cards);
};

TrickStage.prototype.addCards = function (cards) {
  var self = this;
  this.unseen(cards).forEach(function (p, i) {
    var from = self.o.origin(p.seat, p.card);
    var slot = self.makeSlot(p, false);
    self.node.appendChild(slot);
    self.shown.push({ seat: p.seat, card: p.card, slot: slot });
    flyIn(slot.firstChild, from, { duration: FLY_MS, delay: i * 90 });
    self.o.onCard();
  });
};

TrickStage.prototype.makeSlot = function (p, previous) {
  var slot = document.createElement("div");
  slot.className = "trick-slot " + this.o.slotClass(p.seat) + (previous ? " previous" : "");
  slot.setAttribute("data-seat", p.seat);
  slot.appendChild(this.o.face(p.card));
  return slot;
};

/* Without movement: the trick as it is (the finished one, dimmed, while none is begun). */
TrickStage.prototype.setCards = function (cards, previous, winner) {
  while (this.node.firstChild) this.node.removeChild(this.node.firstChild);
  var self = this;
  this.shown = cards.map(function (p) {
    var slot = self.makeSlot(p, previous);
    if (previous && p.seat === winner) slot.firstChild.classList.add("winner");
    self.node.appendChild(slot);
    return { seat: p.seat, card: p.card, slot: slot };
  });
};

TrickStage.prototype.startHold = function (winner, urgent) {
  this.node.setAttribute("data-holding", "1");
  this.shown.forEach(function (s) {
    if (s.seat === winner) s.slot.firstChild.classList.add("winner");
  });
  this.hold = { winner: winner, start: Date.now(), urgent: false, timer: null };
  this.schedule(HOLD_MS + FLY_MS);
  if (urgent) this.shorten();
};

TrickStage.prototype.schedule = function (ms) {
  var self = this;
  clearTimeout(this.hold.timer);
  this.hold.timer = setTimeout(function () { self.endHold(false); }, Math.max(0, ms));
};

TrickStage.prototype.shorten = function () {
  if (!this.hold || this.hold.urgent) return;
  this.hold.urgent = true;
  this.schedule(URGENT_HOLD_MS + FLY_MS - (Date.now() - this.hold.start));
};

/* The held trick sweeps to its winner; then the cards played meanwhile come in. */
TrickStage.prototype.endHold = function (fast) {
  if (!this.hold) return;
  clearTimeout(this.hold.timer);
  var winner = this.hold.winner, gone = this.shown, self = this;
  this.hold = null;
  this.node.removeAttribute("data-holding");
  this.shown = [];
  var to = this.o.winnerRect(winner);
  var flights = gone.map(function (s) {
    if (!to || !motionAllowed()) { s.slot.remove(); return null; }
    var a = flyOut(s.slot.firstChild, to, fast ? HURRY_SWEEP_MS : SWEEP_MS);
    return a.finished.then(function () { s.slot.remove(); }, function () { s.slot.remove(); });
  }).filter(Boolean);
  this.sweeping = flights.length > 0;
  var after = function () {
    self.sweeping = false;
    if (self.hold) return;            // another finished trick came meanwhile: it is held now
    if (self.waiting) { var next = self.waiting; self.waiting = null; self.sync(next); }
    if (self.idle()) self.o.onIdle();
  };
  if (flights.length && !fast) Promise.all(flights).then(after);
  else after();
};

/* The player acts: the held trick goes now instead of after the pause. */
TrickStage.prototype.hurry = function () { if (this.hold) this.endHold(true); };

TrickStage.prototype.cancel = function () {
  if (this.hold) clearTimeout(this.hold.timer);
  this.hold = null;
  this.sweeping = false;
  this.waiting = null;
  this.node.removeAttribute("data-holding");
};

/* A new table state with no trick (waiting, a new snapshot): start from nothing. */
TrickStage.prototype.reset = function () {
  this.cancel();
  this.setCards([], false);
  this.lastKey = null;
};

export { prefs, motionAllowed, sound, turnSignal, flyIn, flyOut, TrickStage, HOLD_MS };
