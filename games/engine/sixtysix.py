"""Sixty-six (docs/RULES.md): variants ``kurnik`` (default), ``schnapsen``, ``santase``.

Moves are small ints:

* ``c`` (0..51): play card ``c`` (lead or follow);
* ``MARRIAGE + c``: lead the Q or K ``c`` announcing its marriage;
* ``MARRIAGE_DECLARE + c``: the same and claim 66 with it ("66 after marriage");
* ``EXCHANGE``, ``CLOSE``, ``DECLARE``: the actions of the player on lead before leading.

Decisions where the traditional rules leave room (docs/RULES.md collects them):

* Dealing order from a shuffled deck. ``kurnik``/``schnapsen``: ``deck[0:n]`` to the non-dealer,
  ``deck[n:2n]`` to the dealer, ``deck[2n]`` is the trump card, the rest is the stock in draw order.
  ``santase``: 3 to the non-dealer, 3 to the dealer, the trump card, 3 and 3 again, then the stock.
* "66 after marriage" in ``kurnik``/``schnapsen``: the marriage card is led (it lies in the trick,
  counted for nobody) and the deal ends at once. In ``santase`` the opponent completes the trick
  (by the rules of the current phase) and the claim is judged after it, the trick counted.
  "The opponent had taken no trick when the claim was made" is judged before that trick.
* Every score check (66, the loser under 33) uses points = cards taken + credited marriages
  (+ the last trick's 10 in a played-out deal). ``result["points"]`` holds exactly that at the end.
* A false claim by the closer is scored as a failed close; ``ended_by`` is still ``"declare"``.
  A closed deal played to its last card ends ``"close"``.
* ``declare`` is listed whenever the player on lead may claim, even on the first lead.
* Cards of a hand that became public (the old trump card taken by an exchange, the trump card
  drawn last, the partner of an announced marriage) are in ``known_cards``. A view names such a
  card only where everybody saw it go (``exchange``, ``trump_drawn``, ``trump_turned``); a
  marriage's partner only by its suit; no other card of another hand, never the stock's.
* Views carry the deal's public history (``history``): every completed trick (``tricks``, as
  hearts and spades show them), each marriage's card and trick, the exchange, the close. A player
  may remember every card he saw played; the opponent's points are still never in a view before
  the deal ends (docs/RULES.md), though a careful player can count them from ``tricks``.
"""
from __future__ import annotations

from . import cards as C
from .core import DealSetup, GameRules, IllegalAction, State, gettext_noop, register

MARRIAGE = 64
MARRIAGE_DECLARE = 128
EXCHANGE = 200
CLOSE = 201
DECLARE = 202

NINE, TEN, JACK, QUEEN, KING, ACE = (C.RANKS.index(r) for r in "9TJQKA")
_STRENGTH_OF_RANK = {NINE: 0, JACK: 1, QUEEN: 2, KING: 3, TEN: 4, ACE: 5}
_POINTS_OF_RANK = {NINE: 0, JACK: 2, QUEEN: 3, KING: 4, TEN: 10, ACE: 11}

STRENGTH = tuple(_STRENGTH_OF_RANK.get(C.RANK_OF[c], -1) for c in range(52))
POINTS = tuple(_POINTS_OF_RANK.get(C.RANK_OF[c], 0) for c in range(52))
# The cards of the same suit that beat card c (trick order 9 J Q K T A).
HIGHER = tuple(
    C.mask_of(d for d in range(52) if C.SUIT_OF[d] == C.SUIT_OF[c] and STRENGTH[d] > STRENGTH[c] >= 0)
    for c in range(52))
# The partner of a Q or K, else -1.
PARTNER = tuple(
    c + (KING - QUEEN) if C.RANK_OF[c] == QUEEN else c - (KING - QUEEN) if C.RANK_OF[c] == KING else -1
    for c in range(52))

# The fields each action type may carry (anything else is refused, so that an action is accepted
# only if it equals one listed by legal_actions, up to "marriage"/"declare": false).
_FIELDS = {
    "play": ("seat", "type", "card", "marriage", "declare"),
    "exchange": ("seat", "type"),
    "close": ("seat", "type"),
    "declare": ("seat", "type"),
}

TARGET = 66
UNDER = 33
LAST_TRICK_BONUS = 10


class _Variant:
    """The options of one variant, computed once."""

    def __init__(self, name: str, ranks: str, hand_size: int, lowest_trump_rank: int,
                 santase: bool, match_target: int):
        self.name = name
        self.deck_mask = C.deck_of_ranks(ranks)
        self.hand_size = hand_size
        self.lowest_trump_rank = lowest_trump_rank
        # santase: marriages in both phases (not on the first lead), credited once any trick is
        # won; the 66-after-marriage trick is completed; a failed close always gives 3; the
        # winner of a deal deals the next one.
        self.santase = santase
        self.match_target = match_target
        self.queens_and_kings = C.deck_of_ranks("QK")


VARIANTS = {
    "kurnik": _Variant("kurnik", "9TJQKA", 6, NINE, False, 7),
    "schnapsen": _Variant("schnapsen", "TJQKA", 5, JACK, False, 7),
    "santase": _Variant("santase", "9TJQKA", 6, NINE, True, 11),
}


_cards = C.cards_of


class SixtySixState(State):
    SEAT_KEYS = ("hand", "legal", "my_captured", "my_points")
    """One deal. Hands and won piles are bitmasks; the stock is a tuple read through a cursor."""

    def __init__(self, setup: DealSetup):
        super().__init__(setup)
        opts = VARIANTS[setup.variant]
        self.opts = opts
        try:
            hands = [C.mask_of_codes(h) for h in setup.hands]
            stock = tuple(C.card(c) for c in setup.stock or ())
            trump_card = C.card(setup.trump_card)
        except (ValueError, TypeError) as exc:
            raise ValueError(f"bad sixtysix setup: {exc}") from None
        self._check_setup(setup, hands, stock, trump_card)
        self.hands = hands
        self.stock = stock                 # face-down cards, first drawn first (shared by clones)
        self.stock_pos = 0                 # how many face-down cards were drawn
        self.trump_card = trump_card       # the card under the stock (changes with an exchange)
        self.trump = C.SUIT_OF[trump_card]
        self.trump_mask = C.SUIT_MASK[self.trump] & opts.deck_mask
        self.lowest_trump = self.trump * 13 + opts.lowest_trump_rank
        self.stock_open = True             # phase 1: neither closed nor exhausted
        self.trump_taken = False           # the trump card was drawn by someone
        self.closed_by = -1
        self.closer_opp_had_trick = False  # at the moment of closing
        self.leader = 1 - setup.dealer    # the non-dealer leads the first trick
        self.lead_card = -1
        self.won = [0, 0]
        self.card_points = [0, 0]
        self.tricks = [0, 0]
        self.pending = [0, 0]              # announced marriage points not credited yet
        self.credited = [0, 0]
        self.marriages: list[tuple[int, int, int]] = []   # (seat, suit, points)
        self.shown = 0                     # cards in a hand that are public knowledge
        self.claimer = -1                  # santase: a 66-after-marriage waiting for its trick
        self.claim_opp_had_trick = False
        self.last_trick: tuple[int, int, int, int] | None = None   # (leader, lead, follow, winner)
        self.over = False
        self.ended_by = ""
        self.ended_seat = -1               # who declared, or the closer of a closed deal
        self.claim_true = False            # a declaration's verdict
        self.game_points = [0, 0]
        self.bonus = [0, 0]

    @staticmethod
    def _check_setup(setup, hands, stock, trump_card):
        opts = VARIANTS[setup.variant]
        if len(hands) != 2 or any(len(h) != opts.hand_size for h in setup.hands):
            raise ValueError(f"sixtysix deals {opts.hand_size} cards to each of 2 seats")
        every = hands[0] | hands[1] | C.mask_of(stock) | C.BIT[trump_card]
        count = 2 * opts.hand_size + len(stock) + 1
        if every != opts.deck_mask or count != bin(opts.deck_mask).count("1"):
            raise ValueError("the hands, stock and trump card must hold the variant's deck once")

    # --- turn ------------------------------------------------------------------------------------
    def to_act(self):
        if self.over:
            return None
        return self.leader if self.lead_card < 0 else 1 - self.leader

    def is_over(self):
        return self.over

    def phase(self) -> str:
        if self.over:
            return "over"
        return "play1" if self.stock_open else "play2"

    def stock_size(self) -> int:
        """Face-down cards left in the stock (the trump card not counted)."""
        return len(self.stock) - self.stock_pos

    # --- legal moves -----------------------------------------------------------------------------
    def legal_moves(self, seat=None):
        to = self.to_act()
        if seat is None:
            seat = to
        if seat != to or to is None:
            return []
        if self.lead_card >= 0:
            return self._follow_moves(seat)
        return self._lead_moves(seat)

    def _may_exchange(self, seat):
        return (self.stock_open and self.tricks[seat] > 0 and self.stock_pos < len(self.stock)
                and self.hands[seat] >> self.lowest_trump & 1 == 1)

    def _may_declare(self, seat):
        return self.closed_by != 1 - seat

    def _may_marry(self):
        if self.opts.santase:
            return self.tricks[0] + self.tricks[1] > 0
        return self.stock_open

    def _lead_moves(self, seat):
        hand = self.hands[seat]
        moves = []
        if self._may_exchange(seat):
            moves.append(EXCHANGE)
        if self.stock_open:
            moves.append(CLOSE)
        may_declare = self._may_declare(seat)
        if may_declare:
            moves.append(DECLARE)
        in_hand = _cards(hand)
        moves += in_hand
        if hand & self.opts.queens_and_kings and self._may_marry():
            marriage_cards = [c for c in in_hand if PARTNER[c] >= 0 and hand >> PARTNER[c] & 1]
            if marriage_cards:
                moves += [MARRIAGE + c for c in marriage_cards]
                if may_declare:
                    moves += [MARRIAGE_DECLARE + c for c in marriage_cards]
        return moves

    def _follow_moves(self, seat):
        return _cards(self.follow_mask(seat))

    def follow_mask(self, seat):
        """Phase 1: any card. Phase 2: head the led suit, else follow it, else trump, else any."""
        hand = self.hands[seat]
        if self.stock_open:
            return hand
        lead = self.lead_card
        return (hand & HIGHER[lead] or hand & C.SUIT_MASK[C.SUIT_OF[lead]]
                or hand & self.trump_mask or hand)

    # --- applying --------------------------------------------------------------------------------
    def _apply(self, seat, move):
        if move < MARRIAGE:
            self._play(seat, move)
        elif move < MARRIAGE_DECLARE:
            self._announce(seat, move - MARRIAGE, False)
            self._play(seat, move - MARRIAGE)
        elif move < EXCHANGE:
            self._announce_and_claim(seat, move - MARRIAGE_DECLARE)
        elif move == EXCHANGE:
            self._exchange(seat)
        elif move == CLOSE:
            self.stock_open = False
            self.closed_by = seat
            self.closer_opp_had_trick = self.tricks[1 - seat] > 0
        else:
            self._judge_claim(seat, self.tricks[1 - seat] > 0)

    def _exchange(self, seat):
        old = self.trump_card
        self.hands[seat] ^= C.BIT[self.lowest_trump] | C.BIT[old]
        self.trump_card = self.lowest_trump
        self.shown |= C.BIT[old]

    def marriage_points(self, c) -> int:
        """A marriage of ``c``'s suit: 40 in trumps, else 20."""
        return 40 if C.SUIT_OF[c] == self.trump else 20

    def _announce(self, seat, c, at_once):
        points = self.marriage_points(c)
        self.marriages.append((seat, C.SUIT_OF[c], points))
        self.shown |= C.BIT[PARTNER[c]]
        if at_once or (self.opts.santase and self.tricks[seat]):
            self.credited[seat] += points
        else:
            self.pending[seat] += points

    def _announce_and_claim(self, seat, c):
        self._announce(seat, c, True)
        opp_had_trick = self.tricks[1 - seat] > 0
        if self.opts.santase:
            self.claimer = seat
            self.claim_opp_had_trick = opp_had_trick
            self._play(seat, c)
        else:
            # The card is led and stays in the trick; the deal ends before anyone answers.
            self.hands[seat] ^= C.BIT[c]
            self.lead_card = c
            self._judge_claim(seat, opp_had_trick)

    def _play(self, seat, c):
        self.hands[seat] ^= C.BIT[c]
        if self.lead_card < 0:
            self.lead_card = c
            return
        lead = self.lead_card
        leader = self.leader
        if C.SUIT_OF[c] == C.SUIT_OF[lead]:
            winner = seat if STRENGTH[c] > STRENGTH[lead] else leader
        else:
            winner = seat if C.SUIT_OF[c] == self.trump else leader
        self.card_points[winner] += POINTS[c] + POINTS[lead]
        self.won[winner] |= C.BIT[c] | C.BIT[lead]
        self.tricks[winner] += 1
        if self.pending[winner]:
            self.credited[winner] += self.pending[winner]
            self.pending[winner] = 0
        self.last_trick = (leader, lead, c, winner)
        self.lead_card = -1
        self.leader = winner
        if self.claimer >= 0:
            self._judge_claim(self.claimer, self.claim_opp_had_trick)
        elif self.stock_open:
            self._draw(winner)
            self._draw(1 - winner)
        elif not self.hands[0] and not self.hands[1]:
            self._end_of_cards(winner)

    def _draw(self, seat):
        if self.stock_pos < len(self.stock):
            self.hands[seat] |= C.BIT[self.stock[self.stock_pos]]
            self.stock_pos += 1
        else:
            self.hands[seat] |= C.BIT[self.trump_card]
            self.shown |= C.BIT[self.trump_card]
            self.trump_taken = True
            self.stock_open = False

    # --- scoring ---------------------------------------------------------------------------------
    def points(self, seat) -> int:
        """Cards taken + credited marriages (+ the last trick's 10 once a played-out deal ends)."""
        return self.card_points[seat] + self.credited[seat] + self.bonus[seat]

    def _win(self, winner, ended_by):
        loser = 1 - winner
        if self.tricks[loser] == 0:
            gp = 3
        elif self.points(loser) < UNDER:
            gp = 2
        else:
            gp = 1
        self._end(winner, gp, ended_by)

    def _end(self, winner, gp, ended_by):
        if winner >= 0:
            self.game_points[winner] = gp
        self.ended_by = ended_by
        self.over = True

    def _failed_close(self, ended_by):
        closer = self.closed_by
        gp = 3 if self.opts.santase or not self.closer_opp_had_trick else 2
        self._end(1 - closer, gp, ended_by)

    def _judge_claim(self, seat, opp_had_trick):
        self.ended_seat = seat
        self.claim_true = self.points(seat) >= TARGET
        if self.claim_true:
            self._win(seat, "declare")
        elif self.closed_by == seat:
            self._failed_close("declare")
        else:
            self._end(1 - seat, 2 if opp_had_trick else 3, "declare")

    def _end_of_cards(self, last_winner):
        self.ended_seat = self.closed_by
        if self.closed_by >= 0:
            if self.points(self.closed_by) >= TARGET:
                self._win(self.closed_by, "close")
            else:
                self._failed_close("close")
            return
        self.bonus[last_winner] = LAST_TRICK_BONUS
        p0, p1 = self.points(0), self.points(1)
        if p0 == p1:
            self._end(-1, 0, "played_out")
        else:
            self._win(0 if p0 > p1 else 1, "played_out")

    def outcome(self) -> dict:
        """How the deal ended, for the players: who ended it and how, and what decided the game
        points. ``why``: ``no_trick`` (3: the loser took no trick), ``under_33`` (2),
        ``33_or_more`` (1), ``false_claim`` (a claim short of 66: the opponent scores),
        ``failed_close`` (the closer did not reach 66), ``tie`` (played out, equal points)."""
        by = self.ended_seat if self.ended_seat >= 0 else None
        winner = next((s for s in (0, 1) if self.game_points[s]), None)
        if winner is None:
            why = "tie"
        elif self.ended_by == "declare" and not self.claim_true and self.closed_by != by:
            why = "false_claim"
        elif by is not None and self.closed_by == by and winner != by:
            why = "failed_close"
        else:
            loser = 1 - winner
            why = ("no_trick" if self.tricks[loser] == 0 else
                   "under_33" if self.points(loser) < UNDER else "33_or_more")
        return {"ended_by": self.ended_by, "by": by,
                "claim": (self.claim_true if self.ended_by == "declare" else None),
                "closed_by": self.closed_by if self.closed_by >= 0 else None,
                "winner": winner, "loser": None if winner is None else 1 - winner,
                "game_points": self.game_points[winner] if winner is not None else 0,
                "why": why, "points": [self.points(0), self.points(1)], "tricks": list(self.tricks)}

    def claim_check(self, seat) -> dict | None:
        """For the player on lead who may claim 66: his points now, with each marriage he may
        announce in the same step (its points count at once), and what a false claim gives the
        opponent. None when he may not claim."""
        if self.over or seat != self.to_act() or self.lead_card >= 0 or not self._may_declare(seat):
            return None
        now = self.points(seat)
        with_marriage = {}
        if self._may_marry():
            for c in _cards(self.hands[seat] & self.opts.queens_and_kings):
                if PARTNER[c] >= 0 and self.hands[seat] >> PARTNER[c] & 1:
                    suit = C.SUITS[C.SUIT_OF[c]]
                    with_marriage[suit] = now + self.marriage_points(c)
        if self.closed_by == seat:
            gives = 3 if self.opts.santase or not self.closer_opp_had_trick else 2
        else:
            gives = 2 if self.tricks[1 - seat] > 0 else 3
        return {"points": now, "enough": now >= TARGET, "with_marriage": with_marriage,
                "target": TARGET, "false_gives": gives}

    def close_check(self, seat) -> dict | None:
        """For the player on lead who may close the stock: closing cannot be undone, and binds him
        to reach the target with the tricks left; his points now, and what failing gives the
        opponent (as ``_failed_close`` scores it). None when he may not close."""
        if self.over or seat != self.to_act() or self.lead_card >= 0 or not self.stock_open:
            return None
        gives = 3 if self.opts.santase or self.tricks[1 - seat] == 0 else 2
        return {"points": self.points(seat), "target": TARGET, "fail_gives": gives}

    def decision(self, seat, legal):
        """Beside the kinds: ``marriages``, the points of each suit's marriage the seat may announce
        with its lead now (a client names them; it never counts them)."""
        found = super().decision(seat, legal)
        if found is not None:
            found["marriages"] = {a["card"][1]: self.marriage_points(C.INDEX[a["card"]])
                                  for a in legal if a.get("marriage")}
        return found

    def notes(self, seat):
        """``claim`` for the player on lead who may claim 66; ``close`` for one who may close the
        stock; ``outcome`` once the deal is over."""
        return {"claim": self.claim_check(seat) if seat is not None else None,
                "close": self.close_check(seat) if seat is not None else None,
                "outcome": self.outcome() if self.over else None}

    def result(self):
        if not self.over:
            raise ValueError("the deal is not over")
        return {"points": [self.points(0), self.points(1)],
                "game_points": list(self.game_points), "ended_by": self.ended_by}

    # --- action objects --------------------------------------------------------------------------
    def action_of(self, seat, move):
        if move == EXCHANGE:
            return {"seat": seat, "type": "exchange"}
        if move == CLOSE:
            return {"seat": seat, "type": "close"}
        if move == DECLARE:
            return {"seat": seat, "type": "declare"}
        action = {"seat": seat, "type": "play", "card": C.CODES[move % MARRIAGE]}
        if move >= MARRIAGE:
            action["marriage"] = True
        if move >= MARRIAGE_DECLARE:
            action["declare"] = True
        return action

    def move_of(self, action):
        kind = action.get("type")
        if not isinstance(kind, str):
            raise IllegalAction("no_type")
        if kind not in _FIELDS:
            raise IllegalAction("unknown_type", kind=kind, types=", ".join(_FIELDS))
        extra = [k for k in action if k not in _FIELDS[kind]]
        if extra:
            raise IllegalAction("unknown_field", kind=kind, field=str(extra[0]))
        if kind == "exchange":
            return EXCHANGE
        if kind == "close":
            return CLOSE
        if kind == "declare":
            return DECLARE
        code = action.get("card")
        if not isinstance(code, str) or not C.CODE_RE.match(code):
            raise IllegalAction("needs_card")
        c = C.INDEX[code]
        marriage = action.get("marriage", False)
        declare = action.get("declare", False)
        if not isinstance(marriage, bool) or not isinstance(declare, bool):
            raise IllegalAction("flags_not_bool")
        if declare and not marriage:
            raise IllegalAction("declare_needs_marriage")
        if declare:
            return MARRIAGE_DECLARE + c
        return MARRIAGE + c if marriage else c

    def explain(self, seat, move) -> IllegalAction:
        if self.over:
            return IllegalAction("deal_over")
        if seat != self.to_act():
            return IllegalAction("not_your_turn")
        on_lead = self.lead_card < 0
        if move == EXCHANGE:
            return self._explain_exchange(seat, on_lead)
        if move == CLOSE:
            return self._explain_close(on_lead)
        if move == DECLARE:
            return self._explain_declare(seat, on_lead)
        c = move % MARRIAGE
        if not self.hands[seat] >> c & 1:
            return IllegalAction("not_held", card=C.CODES[c])
        if move >= MARRIAGE:
            return self._explain_marriage(seat, c, on_lead, move >= MARRIAGE_DECLARE)
        if not on_lead:
            return self._explain_follow(seat)
        return IllegalAction("not_legal_now")

    def _explain_exchange(self, seat, on_lead) -> IllegalAction:
        if not on_lead:
            return IllegalAction("exchange_not_on_lead")
        if self.closed_by >= 0:
            return IllegalAction("exchange_closed")
        if not self.stock_open or self.stock_pos >= len(self.stock):
            return IllegalAction("exchange_no_stock")
        if not self.tricks[seat]:
            return IllegalAction("exchange_before_trick")
        return IllegalAction("exchange_not_held", card=C.CODES[self.lowest_trump])

    def _explain_close(self, on_lead) -> IllegalAction:
        if not on_lead:
            return IllegalAction("close_not_on_lead")
        if self.closed_by >= 0:
            return IllegalAction("already_closed")
        return IllegalAction("close_empty")

    def _explain_declare(self, seat, on_lead) -> IllegalAction:
        if not on_lead:
            return IllegalAction("declare_not_on_lead")
        if self.closed_by == 1 - seat:
            return IllegalAction("declare_after_close")
        return IllegalAction("not_legal_now")

    def _explain_marriage(self, seat, c, on_lead, declare) -> IllegalAction:
        if not on_lead:
            return IllegalAction("marriage_not_on_lead")
        if PARTNER[c] < 0:
            return IllegalAction("marriage_not_queen_king")
        if not self.hands[seat] >> PARTNER[c] & 1:
            return IllegalAction("marriage_partner_missing", partner=C.CODES[PARTNER[c]], card=C.CODES[c])
        if self.opts.santase:
            if not self.tricks[0] + self.tricks[1]:
                return IllegalAction("marriage_first_lead")
        elif not self.stock_open:
            return IllegalAction("marriage_stock_closed")
        if declare and self.closed_by == 1 - seat:
            return IllegalAction("declare_after_close")
        return IllegalAction("not_legal_now")

    def _explain_follow(self, seat) -> IllegalAction:
        hand = self.hands[seat]
        lead = self.lead_card
        suit = C.SUIT_OF[lead]
        if hand & HIGHER[lead]:
            return IllegalAction("must_beat", card=C.CODES[lead], suit=C.SUITS[suit])
        if hand & C.SUIT_MASK[suit]:
            return IllegalAction("must_follow", suit=C.SUITS[suit])
        if hand & self.trump_mask:
            return IllegalAction("must_trump", suit=C.SUITS[self.trump])
        return IllegalAction("not_legal_now")

    # --- copies, places, knowledge ---------------------------------------------------------------
    def clone(self):
        new = object.__new__(type(self))
        d = self.__dict__.copy()
        d["hands"] = self.hands[:]
        d["won"] = self.won[:]
        d["card_points"] = self.card_points[:]
        d["tricks"] = self.tricks[:]
        d["pending"] = self.pending[:]
        d["credited"] = self.credited[:]
        d["marriages"] = self.marriages[:]
        d["game_points"] = self.game_points[:]
        d["bonus"] = self.bonus[:]
        d["log"] = self.log[:]
        new.__dict__ = d
        return new

    def card_places(self):
        under = 0 if self.trump_taken else C.BIT[self.trump_card]
        return {
            "hand0": self.hands[0], "hand1": self.hands[1],
            "stock": C.mask_of(self.stock[self.stock_pos:]),
            "trump_card": under,
            "trick": C.BIT[self.lead_card] if self.lead_card >= 0 else 0,
            "won0": self.won[0], "won1": self.won[1],
        }

    def known_cards(self, seat):
        known = self.won[0] | self.won[1] | self.shown
        if self.lead_card >= 0:
            known |= C.BIT[self.lead_card]
        if not self.trump_taken:
            known |= C.BIT[self.trump_card]
        if seat is not None:
            known |= self.hands[seat]
        return known

    # --- history ---------------------------------------------------------------------------------
    def history(self) -> dict:
        """The deal's public history, rebuilt from the log (kept off the hot path): ``tricks``
        (every completed trick: leader, both cards by seat, winner, as hearts and spades show them),
        ``marriages`` (card led, trick index and claim per announcement, in order), ``exchange``
        (who took which trump card, at which trick index), ``closed_at`` (trick index of the
        close) and ``trump_drawn`` (who drew the trump card last, and which card it was).
        A trick index counts the tricks completed before the event."""
        tricks, cards, leader = [], [], -1
        marriages, exchange, closed_at, trump_drawn = [], None, None, None
        trump = self.trump
        # The face-down stock runs out (and the trick's loser draws the trump card) after the trick
        # whose draws pass its size, unless the stock was closed before.
        last_draw_trick = (bin(self.opts.deck_mask).count("1") - 2 * self.opts.hand_size) // 2
        for seat, move in self.log:
            if move >= EXCHANGE:
                if move == EXCHANGE:
                    exchange = {"seat": seat, "card": C.CODES[self.setup_trump_card()],
                                "trick": len(tricks)}
                elif move == CLOSE:
                    closed_at = len(tricks)
                continue
            c = move % MARRIAGE
            if move >= MARRIAGE:
                marriages.append({"card": C.CODES[c], "trick": len(tricks),
                                  "declare": move >= MARRIAGE_DECLARE})
            if not cards:
                leader = seat
            cards.append(c)
            if len(cards) == 2:
                lead, follow = cards
                if C.SUIT_OF[follow] == C.SUIT_OF[lead]:
                    winner = 1 - leader if STRENGTH[follow] > STRENGTH[lead] else leader
                else:
                    winner = 1 - leader if C.SUIT_OF[follow] == trump else leader
                tricks.append({"leader": leader,
                               "cards": [{"seat": leader, "card": C.CODES[lead]},
                                         {"seat": 1 - leader, "card": C.CODES[follow]}],
                               "winner": winner})
                cards = []
                if len(tricks) == last_draw_trick and closed_at is None:
                    drawn = self.lowest_trump if exchange else self.setup_trump_card()
                    trump_drawn = {"seat": 1 - winner, "card": C.CODES[drawn]}
        return {"tricks": tricks, "marriages": marriages, "exchange": exchange,
                "closed_at": closed_at, "trump_drawn": trump_drawn}

    def setup_trump_card(self) -> int:
        """The trump card turned up at the deal (before any exchange)."""
        return C.card(self.setup.trump_card)

    # --- view ------------------------------------------------------------------------------------
    def view(self, seat):
        s = self.setup
        over = self.over
        acting = seat is not None and seat in self.seats_to_act()
        trick = []
        if self.lead_card >= 0:
            trick.append({"seat": self.leader, "card": C.CODES[self.lead_card]})
        last = None
        if self.last_trick is not None:
            leader, lead, follow, winner = self.last_trick
            last = {"cards": [{"seat": leader, "card": C.CODES[lead]},
                              {"seat": 1 - leader, "card": C.CODES[follow]}], "winner": winner}
        history = self.history()
        view = {
            "game": self.game, "variant": self.variant, "phase": self.phase(), "seat": seat,
            "to_act": list(self.seats_to_act()), "players": list(s.players), "dealer": s.dealer,
            "deal_number": s.deal_number, "scores_before": list(s.scores_before),
            "hand": _display(self.hands[seat]) if seat is not None else [],
            "hand_sizes": [bin(h).count("1") for h in self.hands],
            "trick": trick,
            "leader": self.leader if not over or trick else None,
            "last_trick": last,
            "tricks_won": list(self.tricks),
            "legal": self.legal_actions(seat) if acting else [],
            "over": over,
            "result": self.result() if over else None,
            "trump_suit": C.SUITS[self.trump],
            "trump_card": None if self.trump_taken else C.CODES[self.trump_card],
            "stock_size": self.stock_size(),
            "closed": self.closed_by >= 0,
            "closed_by": self.closed_by if self.closed_by >= 0 else None,
            "marriages": [{"seat": m, "suit": C.SUITS[suit], "points": p, **h}
                          for (m, suit, p), h in zip(self.marriages, history["marriages"])],
            "tricks": history["tricks"],
            "exchange": history["exchange"],
            "closed_at": history["closed_at"],
            "trump_turned": self.setup.trump_card,
            "trump_drawn": history["trump_drawn"],
            "my_points": self.points(seat) if seat is not None else None,
            "my_captured": _display(self.won[seat]) if seat is not None else [],
            "pending_marriage_points": self.pending[seat] if seat is not None else 0,
        }
        if over:
            view["points"] = [self.points(0), self.points(1)]
        return view


def _display(mask: int) -> list[str]:
    """Codes sorted by suit, then by Sixty-six strength (9 J Q K T A)."""
    return [C.CODES[c] for c in sorted(_cards(mask), key=lambda c: (C.SUIT_OF[c], STRENGTH[c]))]


class SixtySixRules(GameRules):
    name = "sixtysix"
    title = gettext_noop("Sixty-six")
    goal = gettext_noop("First to {n} game points")
    variants = ("kurnik", "schnapsen", "santase")
    seats = 2
    state_class = SixtySixState
    rank_order = "9JQKTA"

    def state_from_view(self, view, hidden):
        return state_from_view(view, hidden)

    def deck(self, variant):
        return C.cards_of(VARIANTS[variant].deck_mask)

    def deal_cards(self, variant, dealer, deck):
        """Non-dealer first. kurnik/schnapsen: n, n, trump card, stock. santase: 3, 3, trump card,
        3, 3, stock (see the module docstring)."""
        opts = VARIANTS[variant]
        codes = [C.CODES[c] for c in deck]
        first, second = 1 - dealer, dealer
        hands: list[list[str]] = [[], []]
        if opts.santase:
            hands[first] = codes[0:3] + codes[7:10]
            hands[second] = codes[3:6] + codes[10:13]
            trump_card, stock = codes[6], codes[13:]
        else:
            n = opts.hand_size
            hands[first] = codes[0:n]
            hands[second] = codes[n:2 * n]
            trump_card, stock = codes[2 * n], codes[2 * n + 1:]
        return {"hands": hands, "stock": stock, "trump_card": trump_card}

    def initial_scores(self, variant):
        return [0, 0]

    def next_dealer(self, variant, dealer, result):
        """kurnik/schnapsen alternate; santase: the deal's winner deals (the loser leads)."""
        g0, g1 = result["game_points"]
        if VARIANTS[variant].santase and g0 != g1:
            return 0 if g0 > g1 else 1
        return 1 - dealer

    def add_result(self, variant, scores, bags, result):
        return [scores[i] + result["game_points"][i] for i in range(2)], bags

    deal_points_key = "game_points"

    def target(self, variant):
        return VARIANTS[variant].match_target

    def match_over(self, variant, scores):
        return max(scores) >= VARIANTS[variant].match_target

    def ranks(self, variant, scores):
        return [1 + sum(other > mine for other in scores) for mine in scores]


RULES = register(SixtySixRules())


def state_from_view(view: dict, hidden: dict) -> SixtySixState:
    """A state at ``view``'s position whose unseen cards are ``hidden`` (for bots' determinization).

    ``hidden`` holds ``"hand"`` (the opponent's cards now) and ``"stock"`` (the face-down stock in
    draw order, ``view["stock_size"]`` cards). The view's public history (``tricks``,
    ``marriages``, ``exchange``, ``closed_at``) gives the rest exactly: both captured piles, which
    marriage points are credited or pending, whether the closer's opponent had a trick at the close,
    a santase claim waiting for its trick; the state's log is rebuilt from it too.
    """
    seat = view["seat"]
    opp = 1 - seat
    opts = VARIANTS[view["variant"]]
    state = object.__new__(SixtySixState)
    trump_suit = C.SUITS.index(view["trump_suit"])
    setup = DealSetup(game="sixtysix", variant=view["variant"], players=list(view["players"]),
                      dealer=view["dealer"], deal_number=view["deal_number"],
                      scores_before=list(view["scores_before"]), hands=[[], []],
                      trump_card=view["trump_turned"])
    State.__init__(state, setup)
    state.opts = opts
    hands = [0, 0]
    hands[seat] = C.mask_of_codes(view["hand"])
    hands[opp] = C.mask_of_codes(hidden["hand"])
    state.hands = hands
    state.stock = tuple(C.card(c) for c in hidden["stock"])
    state.stock_pos = 0
    state.trump = trump_suit
    state.trump_mask = C.SUIT_MASK[trump_suit] & opts.deck_mask
    state.lowest_trump = trump_suit * 13 + opts.lowest_trump_rank
    exchange = view["exchange"]
    turned = C.card(view["trump_turned"])
    state.trump_taken = view["trump_card"] is None
    state.trump_card = state.lowest_trump if exchange else turned
    state.closed_by = -1 if view["closed_by"] is None else view["closed_by"]
    state.stock_open = state.closed_by < 0 and not state.trump_taken

    tricks = view["tricks"]
    won = [0, 0]
    count = [0, 0]
    log = []
    marriages = view["marriages"]
    by_trick: dict[int, list] = {}
    for m in marriages:
        by_trick.setdefault(m["trick"], []).append(m)
    closed_at = view["closed_at"]

    def events_before(k, leader, lead_code):
        if exchange and exchange["trick"] == k:
            log.append((exchange["seat"], EXCHANGE))
        if closed_at == k:
            log.append((state.closed_by, CLOSE))
        move = C.card(lead_code)
        for m in by_trick.get(k, ()):
            if m["seat"] == leader and m["card"] == lead_code:
                move += MARRIAGE_DECLARE if m["declare"] else MARRIAGE
        log.append((leader, move))

    for k, t in enumerate(tricks):
        (lead, follow), winner = t["cards"], t["winner"]
        events_before(k, lead["seat"], lead["card"])
        log.append((follow["seat"], C.card(follow["card"])))
        won[winner] |= C.BIT[C.card(lead["card"])] | C.BIT[C.card(follow["card"])]
        count[winner] += 1
    trick = view["trick"]
    if trick:
        events_before(len(tricks), trick[0]["seat"], trick[0]["card"])
    else:
        if exchange and exchange["trick"] == len(tricks):
            log.append((exchange["seat"], EXCHANGE))
        if closed_at == len(tricks):
            log.append((state.closed_by, CLOSE))
    state.log = log
    state.won = won
    state.tricks = count
    state.card_points = [sum(POINTS[c] for c in _cards(w)) for w in won]
    state.closer_opp_had_trick = state.closed_by >= 0 and any(
        t["winner"] != state.closed_by for t in tricks[:closed_at])
    state.leader = trick[0]["seat"] if trick else view["leader"]
    state.lead_card = C.card(trick[0]["card"]) if trick else -1

    # Marriage points: credited at once with a claim; santase once the player has any trick;
    # kurnik/schnapsen once he wins the trick it was led in or a later one.
    state.marriages = [(m["seat"], C.SUITS.index(m["suit"]), m["points"]) for m in marriages]
    pending = [0, 0]
    credited = [0, 0]
    shown = 0
    for m in marriages:
        who, p = m["seat"], m["points"]
        shown |= C.BIT[PARTNER[C.card(m["card"])]]
        if m["declare"] or (opts.santase and count[who]) or any(
                t["winner"] == who for t in tricks[m["trick"]:]):
            credited[who] += p
        else:
            pending[who] += p
    state.pending = pending
    state.credited = credited
    if exchange:
        shown |= C.BIT[turned]
    if state.trump_taken:
        shown |= C.BIT[state.trump_card]
    state.shown = shown
    state.claimer = -1
    state.claim_opp_had_trick = False
    if trick and opts.santase and marriages and marriages[-1]["declare"] \
            and marriages[-1]["trick"] == len(tricks):
        state.claimer = trick[0]["seat"]
        state.claim_opp_had_trick = count[1 - state.claimer] > 0
    state.last_trick = None if not tricks else (
        tricks[-1]["cards"][0]["seat"], C.card(tricks[-1]["cards"][0]["card"]),
        C.card(tricks[-1]["cards"][1]["card"]), tricks[-1]["winner"])
    state.over = False
    state.ended_by = ""
    state.ended_seat = -1
    state.claim_true = False
    state.game_points = [0, 0]
    state.bonus = [0, 0]
    return state
