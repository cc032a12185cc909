"""Spades (docs/RULES.md): four players, partners 0+2 against 1+3, spades always trump.

A deal runs through explicit phases:

* ``blind_nil`` — only when a team trails by 200 or more: each of its players, in bidding order,
  chooses before seeing his hand whether to bid blind nil. A player who accepts skips the bidding.
* ``bid``       — clockwise from the dealer, 0..13 tricks each (0 = nil).
* ``play``      — the dealer leads; follow suit; spades may not be led until broken.
* ``over``      — 13 tricks played.

Moves are small ints: a play is the card index 0..51, a bid of n tricks is ``BID + n``, and the
blind-nil choice is ``BLIND_ACCEPT`` or ``BLIND_DECLINE``. Scores and bags are per team.
"""
from __future__ import annotations

from . import cards as C
from .core import DealSetup, GameRules, IllegalAction, State, gettext_noop, register

BLIND_NIL, BID, PLAY, OVER = range(4)
PHASE_NAMES = ("blind_nil", "bid", "play", "over")

BID_BASE = 64                       # bid n tricks = BID_BASE + n, n in 0..13
BLIND_ACCEPT = 80
BLIND_DECLINE = 81
BID_MOVES = tuple(range(BID_BASE, BID_BASE + 14))
BLIND_MOVES = (BLIND_ACCEPT, BLIND_DECLINE)

SPADES = C.SPADES
SPADE_MASK = C.SUIT_MASK[SPADES]
NON_SPADE_MASK = C.FULL_DECK ^ SPADE_MASK
SUIT_MASK = C.SUIT_MASK
SUIT_OF = C.SUIT_OF
BIT = C.BIT

BLIND_NIL_MARGIN = 200              # a team trailing by this much may bid blind nil
WIN_SCORE = 500
LOSE_SCORE = -200
BAG_LIMIT = 10
BAG_PENALTY = 100
NIL_BONUS = 100
BLIND_NIL_BONUS = 200

_ACTION_FIELDS = {"play": {"seat", "type", "card"}, "bid": {"seat", "type", "tricks"},
                  "blind_nil": {"seat", "type", "accept"}}


def team_of(seat: int) -> int:
    return seat & 1


def blind_nil_seats(dealer: int, scores_before: list[int]) -> list[int]:
    """Seats offered blind nil, in bidding order: those whose team trails the other by 200+."""
    return [s for s in bidding_order(dealer)
            if scores_before[team_of(s) ^ 1] - scores_before[team_of(s)] >= BLIND_NIL_MARGIN]


def bidding_order(dealer: int) -> list[int]:
    """Bidding goes clockwise starting with the dealer."""
    return [(dealer + k) % 4 for k in range(4)]


def contract_of(bids: list[int], team: int) -> int:
    """The team's contract: the sum of its non-nil bids (a nil bid, blind or not, is 0)."""
    return bids[team] + bids[team + 2]


def score_breakdown(bids: list[int], blind: list[bool], tricks: list[int],
                    bags_before: list[int]) -> list[dict]:
    """Each team's deal score, part by part (``score_deal`` adds the parts up).

    ``bids[s]`` is 0 for a nil or blind nil, ``blind[s]`` True for a blind nil. Per team:
    ``contract``, ``taken`` (tricks toward it: a nil bidder's never count), ``made``,
    ``contract_points`` (+10 or −10 per contract trick), ``overtricks`` (+1 each, a bag each),
    ``nil``: ``[{"seat", "blind", "tricks", "points"}]`` (±100, blind ±200), ``nil_bags`` (every
    trick of a nil bidder: +1 and a bag each, decided), ``bags_before``, ``bag_penalty`` (−100 per
    10 bags), ``bags_after`` and ``points`` (the deal's total).
    """
    teams = []
    for team in (0, 1):
        seats = (team, team + 2)
        contract = contract_of(bids, team)
        taken = sum(tricks[s] for s in seats if bids[s] != 0)
        made = taken >= contract
        overtricks = taken - contract if made else 0
        nil = [{"seat": s, "blind": bool(blind[s]), "tricks": tricks[s],
                "points": (BLIND_NIL_BONUS if blind[s] else NIL_BONUS) * (1 if tricks[s] == 0 else -1)}
               for s in seats if bids[s] == 0]
        nil_bags = sum(n["tricks"] for n in nil)
        bags = bags_before[team] + overtricks + nil_bags
        penalties = bags // BAG_LIMIT
        contract_points = 10 * contract if made else -10 * contract
        points = (contract_points + overtricks + sum(n["points"] for n in nil) + nil_bags
                  - penalties * BAG_PENALTY)
        teams.append({"contract": contract, "taken": taken, "made": made,
                      "contract_points": contract_points, "overtricks": overtricks, "nil": nil,
                      "nil_bags": nil_bags, "bags_before": bags_before[team],
                      "bag_penalty": -penalties * BAG_PENALTY,
                      "bags_after": bags - penalties * BAG_LIMIT, "points": points})
    return teams


def score_deal(bids: list[int], blind: list[bool], tricks: list[int],
               bags_before: list[int]) -> tuple[list[int], list[int]]:
    """This deal's points per team (10-bag penalty included) and the bags after it."""
    teams = score_breakdown(bids, blind, tricks, bags_before)
    return [t["points"] for t in teams], [t["bags_after"] for t in teams]


def trick_winner_index(cards: list[int]) -> int:
    """Index in play order of the card winning a trick: highest spade, else highest of led suit."""
    led = SUIT_OF[cards[0]]
    best, best_key = 0, -1
    for i, c in enumerate(cards):
        suit = SUIT_OF[c]
        key = c + 100 if suit == SPADES else (c if suit == led else -1)
        if key > best_key:
            best, best_key = i, key
    return best


def _suit_tables() -> list[list[tuple[int, ...]]]:
    """SUIT_CARDS[suit][13-bit field] -> the cards of that field in ascending order (fast lists)."""
    tables = []
    for suit in range(4):
        table = [()] * 8192
        for m in range(1, 8192):
            low = m & -m
            table[m] = (low.bit_length() - 1 + 13 * suit,) + table[m ^ low]
        tables.append(table)
    return tables


SUIT_CARDS = _suit_tables()


def cards_of_mask(m: int) -> tuple[int, ...]:
    """The cards of a mask in ascending order."""
    return (SUIT_CARDS[0][m & 0x1FFF] + SUIT_CARDS[1][(m >> 13) & 0x1FFF]
            + SUIT_CARDS[2][(m >> 26) & 0x1FFF] + SUIT_CARDS[3][m >> 39])


class SpadesState(State):
    """One deal of spades. Hands are bitmasks; bids are -1 until made (a blind nil is bid 0)."""

    def __init__(self, setup: DealSetup):
        super().__init__(setup)
        hands = [C.mask_of_codes(h) for h in setup.hands]
        if len(setup.hands) != 4 or any(len(h) != 13 for h in setup.hands) \
                or any(hands[i].bit_count() != 13 for i in range(4)) \
                or hands[0] | hands[1] | hands[2] | hands[3] != C.FULL_DECK:
            raise ValueError("spades needs four hands of 13 distinct cards covering the deck")
        if setup.bags_before is None:
            setup.bags_before = [0, 0]
        self.dealer = setup.dealer
        self.hands = hands
        self.bids = [-1, -1, -1, -1]
        self.blind = [None, None, None, None]       # None: not offered or undecided
        self.blind_offered = blind_nil_seats(setup.dealer, setup.scores_before)
        self.blind_pos = 0
        self.trick: list[int] = []                  # cards of the current trick in play order
        self.leader = setup.dealer
        self.tricks = [0, 0, 0, 0]
        self.won = 0                                # mask of cards in completed tricks
        self.done: list[tuple] = []                 # completed tricks: (leader, cards tuple, winner)
        self.spades_broken = False
        if self.blind_offered:
            self.phase, self.turn = BLIND_NIL, self.blind_offered[0]
        else:
            self.phase, self.turn = BID, setup.dealer

    # --- turn and phase -------------------------------------------------------------------------
    def to_act(self) -> int | None:
        return None if self.phase == OVER else self.turn

    def is_over(self) -> bool:
        return self.phase == OVER

    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    # --- legal moves, one helper per phase ------------------------------------------------------
    def legal_moves(self, seat: int | None = None) -> list[int]:
        turn = self.turn
        if seat is not None and seat != turn:
            return []
        phase = self.phase
        if phase == PLAY:
            return list(cards_of_mask(self._playable(turn)))
        if phase == BID:
            return list(BID_MOVES)
        if phase == BLIND_NIL:
            return list(BLIND_MOVES)
        return []

    def _playable(self, seat: int) -> int:
        hand = self.hands[seat]
        trick = self.trick
        if trick:
            follow = hand & SUIT_MASK[SUIT_OF[trick[0]]]
            return follow or hand
        if self.spades_broken:
            return hand
        return (hand & NON_SPADE_MASK) or hand

    def random_move(self, rng) -> int:
        if self.phase == PLAY:
            cards = cards_of_mask(self._playable(self.turn))
            return cards[int(rng.random() * len(cards))]
        return rng.choice(self.legal_moves())

    # --- applying -------------------------------------------------------------------------------
    def _apply(self, seat: int, move: int) -> None:
        if move < 52:
            self._play(seat, move)
        elif move >= BLIND_ACCEPT:
            self._choose_blind(seat, move == BLIND_ACCEPT)
        else:
            self._bid(seat, move - BID_BASE)

    def _choose_blind(self, seat: int, accept: bool) -> None:
        self.blind[seat] = accept
        if accept:
            self.bids[seat] = 0
        self.blind_pos += 1
        if self.blind_pos < len(self.blind_offered):
            self.turn = self.blind_offered[self.blind_pos]
        else:
            self.phase = BID
            self.turn = self.dealer
            self._next_bidder(self.dealer, include_self=True)

    def _bid(self, seat: int, tricks: int) -> None:
        self.bids[seat] = tricks
        self._next_bidder(seat, include_self=False)

    def _next_bidder(self, seat: int, include_self: bool) -> None:
        """Move the turn to the next seat that has not bid (blind nil bidders skip); else play."""
        bids = self.bids
        for k in range(0 if include_self else 1, 4):
            s = (seat + k) & 3
            if bids[s] < 0:
                self.turn = s
                return
        self.phase = PLAY
        self.turn = self.leader = self.dealer

    def _play(self, seat: int, c: int) -> None:
        self.hands[seat] ^= BIT[c]
        trick = self.trick
        if not trick:
            self.leader = seat
        trick.append(c)
        if c >= 39:                                 # any spade played breaks spades
            self.spades_broken = True
        if len(trick) < 4:
            self.turn = (seat + 1) & 3
            return
        winner = (self.leader + trick_winner_index(trick)) & 3
        self.tricks[winner] += 1
        self.won |= BIT[trick[0]] | BIT[trick[1]] | BIT[trick[2]] | BIT[trick[3]]
        self.done.append((self.leader, tuple(trick), winner))
        self.trick = []
        self.turn = self.leader = winner
        if len(self.done) == 13:
            self.phase = OVER

    # --- actions --------------------------------------------------------------------------------
    def action_of(self, seat: int, move: int) -> dict:
        if move < 52:
            return {"seat": seat, "type": "play", "card": C.CODES[move]}
        if move >= BLIND_ACCEPT:
            return {"seat": seat, "type": "blind_nil", "accept": move == BLIND_ACCEPT}
        return {"seat": seat, "type": "bid", "tricks": move - BID_BASE}

    def move_of(self, action: dict) -> int:
        kind = action.get("type")
        if not isinstance(kind, str):
            raise IllegalAction("no_type")
        if kind not in _ACTION_FIELDS:
            raise IllegalAction("unknown_type", kind=kind, types=", ".join(_ACTION_FIELDS))
        extra = sorted(str(k) for k in action if k not in _ACTION_FIELDS[kind])
        if extra:
            raise IllegalAction("unknown_field", kind=kind, field=extra[0])
        if kind == "play":
            code = action.get("card")
            if not isinstance(code, str) or code not in C.INDEX:
                raise IllegalAction("needs_card")
            return C.INDEX[code]
        if kind == "bid":
            tricks = action.get("tricks")
            if not isinstance(tricks, int) or isinstance(tricks, bool) or not 0 <= tricks <= 13:
                raise IllegalAction("bid_range")
            return BID_BASE + tricks
        accept = action.get("accept")
        if not isinstance(accept, bool):
            raise IllegalAction("blind_choice")
        return BLIND_ACCEPT if accept else BLIND_DECLINE

    def explain(self, seat: int, move: int) -> IllegalAction:
        phase = self.phase
        if phase == OVER:
            return IllegalAction("deal_over")
        if seat != self.turn:
            return IllegalAction("not_your_turn")
        if move >= BLIND_ACCEPT:
            if seat not in self.blind_offered:
                return IllegalAction("blind_not_offered")
            return IllegalAction("blind_too_late")
        if phase == BLIND_NIL:
            return IllegalAction("blind_first")
        if move >= BID_BASE:
            return IllegalAction("bidding_over" if phase == PLAY else "bid_range")
        if phase == BID:
            return IllegalAction("bid_first")
        return self._explain_play(seat, move)

    def _explain_play(self, seat: int, c: int) -> IllegalAction:
        hand = self.hands[seat]
        if not hand & BIT[c]:
            return IllegalAction("not_held", card=C.CODES[c])
        if self.trick:
            led = SUIT_OF[self.trick[0]]
            if hand & SUIT_MASK[led]:
                return IllegalAction("must_follow", suit=C.SUITS[led])
        elif SUIT_OF[c] == SPADES and not self.spades_broken:
            return IllegalAction("spades_not_broken")
        return IllegalAction("not_playable")

    # --- results --------------------------------------------------------------------------------
    def result(self) -> dict:
        if self.phase != OVER:
            raise ValueError("the deal is not over")
        blind = [b is True for b in self.blind]
        team_points, bags_after = score_deal(self.bids, blind, self.tricks, self.setup.bags_before)
        return {"tricks": list(self.tricks), "team_points": team_points, "bags_after": bags_after}

    # --- information ----------------------------------------------------------------------------
    def hand_hidden(self, seat: int) -> bool:
        """A player offered blind nil sees his hand only once he has made his choice."""
        return self.phase == BLIND_NIL and seat in self.blind_offered and self.blind[seat] is None

    def played_mask(self) -> int:
        m = self.won
        for c in self.trick:
            m |= BIT[c]
        return m

    def card_places(self) -> dict[str, int]:
        places = {f"hand{s}": self.hands[s] for s in range(4)}
        places["trick"] = self.played_mask() & ~self.won
        places["won"] = self.won
        return places

    def known_cards(self, seat: int | None) -> int:
        known = self.played_mask()
        if seat is not None and not self.hand_hidden(seat):
            known |= self.hands[seat]
        return known

    def view(self, seat: int | None) -> dict:
        setup = self.setup
        over = self.phase == OVER
        bidding_done = self.phase >= PLAY
        may_act = seat is not None and not over and seat == self.turn
        show_hand = seat is not None and not self.hand_hidden(seat)
        last = self.done[-1] if self.done else None
        return {
            "game": self.game, "variant": self.variant, "phase": self.phase_name(), "seat": seat,
            "to_act": list(self.seats_to_act()), "players": list(setup.players),
            "dealer": self.dealer, "deal_number": setup.deal_number,
            "scores_before": list(setup.scores_before), "bags_before": list(setup.bags_before),
            "hand": C.codes_of(self.hands[seat]) if show_hand else [],
            "hand_sizes": [h.bit_count() for h in self.hands],
            "trick": _seat_cards(self.leader, self.trick) if self.phase == PLAY else [],
            "leader": self.leader if self.phase == PLAY else None,
            "last_trick": None if last is None else
            {"cards": _seat_cards(last[0], last[1]), "winner": last[2]},
            "tricks_won": list(self.tricks),
            "legal": self.legal_actions(seat) if may_act else [],
            "over": over, "result": self.result() if over else None,
            "bids": [b if b >= 0 else None for b in self.bids],
            "blind_nil": list(self.blind),
            "blind_nil_offered": list(self.blind_offered),
            "spades_broken": self.spades_broken,
            "team_tricks": [self.tricks[0] + self.tricks[2], self.tricks[1] + self.tricks[3]],
            "tricks": [{"leader": lead, "cards": _seat_cards(lead, cs), "winner": w}
                       for lead, cs, w in self.done],
            "contracts": [contract_of(self.bids, 0), contract_of(self.bids, 1)]
            if bidding_done else None,
        }

    def notes(self, seat: int | None) -> dict:
        """``breakdown``: each team's deal score part by part, once the deal is over."""
        if self.phase != OVER:
            return {"breakdown": None}
        blind = [b is True for b in self.blind]
        return {"breakdown": score_breakdown(self.bids, blind, self.tricks, self.setup.bags_before)}

    # --- claims (claims.py) -----------------------------------------------------------------------
    CLAIMS = True

    def claimable(self) -> bool:
        return self.phase == PLAY

    def trick_done(self) -> bool:
        return not self.trick and bool(self.log) and self.log[-1][1] < 52

    def winning_seat(self) -> int | None:
        return (self.leader + trick_winner_index(self.trick)) & 3 if self.trick else None

    def claim_key(self) -> tuple:
        return (tuple(self.hands), tuple(self.trick), self.leader, self.turn, self.spades_broken)

    def clone(self) -> "SpadesState":
        other = SpadesState.__new__(SpadesState)
        other.__dict__.update(self.__dict__)
        other.log = self.log[:]
        other.hands = self.hands[:]
        other.bids = self.bids[:]
        other.blind = self.blind[:]
        other.trick = self.trick[:]
        other.tricks = self.tricks[:]
        other.done = self.done[:]
        return other


def _seat_cards(leader: int, cards) -> list[dict]:
    return [{"seat": (leader + i) & 3, "card": C.CODES[c]} for i, c in enumerate(cards)]


class SpadesRules(GameRules):
    name = "spades"
    title = gettext_noop("Spades")
    goal = gettext_noop("First team to {n}")
    variants = ("standard",)
    seats = 4
    state_class = SpadesState

    def state_from_view(self, view, hidden):
        return state_from_view(view, hidden)

    def deck(self, variant: str) -> list[int]:
        return list(range(52))

    def deal_cards(self, variant: str, dealer: int, deck: list[int]) -> dict:
        """One card at a time clockwise, starting with the player left of the dealer (seat
        dealer + 1), so deck[i] goes to seat (dealer + 1 + i) % 4; hands listed in card order."""
        hands = [0, 0, 0, 0]
        for i, c in enumerate(deck):
            hands[(dealer + 1 + i) % 4] |= BIT[c]
        return {"hands": [C.codes_of(h) for h in hands]}

    def initial_scores(self, variant: str) -> list[int]:
        return [0, 0]

    def initial_bags(self, variant: str) -> list[int]:
        return [0, 0]

    def next_dealer(self, variant: str, dealer: int, result: dict) -> int:
        return (dealer + 1) % 4

    def add_result(self, variant, scores, bags, result):
        points = result["team_points"]
        return [scores[0] + points[0], scores[1] + points[1]], list(result["bags_after"])

    deal_points_key = "team_points"

    def teams(self, variant=None):
        """Partners sit opposite: seats 0+2 against 1+3."""
        return [[0, 2], [1, 3]]

    def target(self, variant: str) -> int:
        return WIN_SCORE

    def match_over(self, variant: str, scores: list[int]) -> bool:
        return any(s >= WIN_SCORE or s <= LOSE_SCORE for s in scores)

    def ranks(self, variant: str, scores: list[int]) -> list[int]:
        """Per seat: each seat gets its team's rank; equal scores both rank first."""
        team_rank = [1 if scores[0] >= scores[1] else 2, 1 if scores[1] >= scores[0] else 2]
        return [team_rank[s & 1] for s in range(4)]


RULES = register(SpadesRules())


def state_from_view(view: dict, hidden: dict) -> SpadesState:
    """A state at ``view``'s position whose unseen cards are ``hidden`` (for bots' determinization).

    ``hidden["hands"]`` maps every other seat to the cards it holds now (codes); when the view's
    own hand is hidden (before a blind-nil choice), ``hidden["hands"]`` names that seat's hand too.
    The blind-nil choices, bids and tricks of the view are replayed from the hands as they were
    when play began, so every derived field is the engine's own.
    """
    seat = view["seat"]
    now = []
    for s in range(4):
        if s == seat and view["hand"]:
            now.append(C.mask_of_codes(view["hand"]))
        else:
            now.append(C.mask_of_codes(hidden["hands"][s]))
    plays: list[tuple[int, int]] = []
    for trick in view["tricks"]:
        plays += [(p["seat"], C.INDEX[p["card"]]) for p in trick["cards"]]
    plays += [(p["seat"], C.INDEX[p["card"]]) for p in view["trick"]]
    start = list(now)
    for s, c in plays:
        start[s] |= BIT[c]
    setup = DealSetup(game="spades", variant=view["variant"], players=list(view["players"]),
                      dealer=view["dealer"], deal_number=view["deal_number"],
                      scores_before=list(view["scores_before"]),
                      bags_before=list(view["bags_before"]),
                      hands=[C.codes_of(h) for h in start])
    state = SpadesState(setup)
    blind = view["blind_nil"]
    for s in state.blind_offered:
        if blind[s] is None:
            break
        state.apply_move(BLIND_ACCEPT if blind[s] else BLIND_DECLINE, s)
    bids = view["bids"]
    while state.phase == BID and bids[state.turn] is not None:
        state.apply_move(BID_BASE + bids[state.turn], state.turn)
    for s, c in plays:
        state.apply_move(c, s)
    return state
