"""Hearts (docs/RULES.md): four players, pass three cards, avoid hearts and QS.

Variants: ``standard`` (default) and ``jack_of_diamonds`` (JD is worth -10 to whoever takes it).

Phases, in order: ``pass`` (simultaneous, skipped every fourth deal), ``play`` (13 tricks), ``moon``
(only when one seat took every heart and QS: he chooses how the 26 are scored), ``over``.

Moves are ints, opaque outside this module:
  * a play is the card index 0..51;
  * a pass is ``PASS_FLAG | mask`` of the three passed cards;
  * the moon choices are ``MOON_SELF`` and ``MOON_OTHERS``.

Hands and taken cards are bitmasks (cards.py); the completed tricks of the deal are not stored on
the hot path but rebuilt from ``log`` when a view asks for them.
"""
from __future__ import annotations

from itertools import combinations

from . import cards as C
from .core import DealSetup, GameRules, IllegalAction, State, gettext_noop, register

MATCH_END = 100             # a match ends once someone reaches it
PASS_FLAG = 1 << 52
PASS_CARDS = 3           # each player passes this many cards
MOON_SELF = 1 << 53
MOON_OTHERS = MOON_SELF + 1

PASS, PLAY, MOON, OVER = range(4)
PHASE_NAMES = ("pass", "play", "moon", "over")

# Where the three cards go, by deal_number % 4: left, right, across, no pass.
PASS_OFFSETS = (1, 3, 2, 0)
PASS_DIRECTIONS = {1: "left", 3: "right", 2: "across", 0: "none"}

TWO_OF_CLUBS = C.card("2C")
QUEEN_OF_SPADES = C.card("QS")
JACK_OF_DIAMONDS = C.card("JD")
HEARTS_MASK = C.SUIT_MASK[C.HEARTS]
QS_BIT = 1 << QUEEN_OF_SPADES
JD_BIT = 1 << JACK_OF_DIAMONDS
MOON_CARDS = HEARTS_MASK | QS_BIT

_LOW13 = (1 << 13) - 1


def _suit_table(suit: int) -> tuple[tuple[int, ...], ...]:
    """table[field] = the cards (absolute indices) of a 13-bit field of ``suit``, low first."""
    table: list[tuple[int, ...]] = [()]
    for field in range(1, 1 << 13):
        rest = field & (field - 1)      # the field without its lowest card
        low = (field ^ rest).bit_length() - 1
        table.append((suit * 13 + low,) + table[rest])
    return tuple(table)


# Mask -> cards by table lookup is several times faster than a bit loop on the hot path.
_SUIT_CARDS = tuple(_suit_table(s) for s in range(4))


def cards_in(mask: int) -> tuple[int, ...]:
    """The cards of a mask in index order (clubs, diamonds, hearts, spades; low to high)."""
    return (_SUIT_CARDS[0][mask & _LOW13] + _SUIT_CARDS[1][mask >> 13 & _LOW13]
            + _SUIT_CARDS[2][mask >> 26 & _LOW13] + _SUIT_CARDS[3][mask >> 39 & _LOW13])


def trick_winner(leader: int, trick: list[int]) -> int:
    """The seat that played the highest card of the led suit (cards in play order from leader)."""
    led = C.SUIT_OF[trick[0]]
    best = 0
    for i in range(1, len(trick)):
        c = trick[i]
        if C.SUIT_OF[c] == led and c > trick[best]:
            best = i
    return (leader + best) % 4


class HeartsState(State):
    SEAT_KEYS = ("hand", "legal", "passed", "received")
    _tricks_memo: tuple[int, list[dict]] | None = None      # (log length, its finished tricks)
    def __init__(self, setup: DealSetup):
        super().__init__(setup)
        self.jack_counts = setup.variant == "jack_of_diamonds"
        self.hands = [_mask_of_codes(h) for h in setup.hands]
        everything = 0
        for h in self.hands:
            everything |= h
        if (len(self.hands) != 4 or any(h.bit_count() != 13 for h in self.hands)
                or everything != C.FULL_DECK):
            raise ValueError("hearts needs four hands of 13 distinct cards covering the deck")
        self.pass_offset = PASS_OFFSETS[setup.deal_number % 4]
        self.passed = [0, 0, 0, 0]      # cards each seat put aside to pass (0: not passed yet)
        self.received = [0, 0, 0, 0]    # cards each seat got, once all four have passed
        self.won = [0, 0, 0, 0]         # cards taken in tricks
        self.trick: list[int] = []      # cards of the current trick, in play order
        self.leader = 0
        self.tricks_done = 0
        self.hearts_broken = False
        self.moon_shooter: int | None = None
        self.moon_choice: int | None = None
        if self.pass_offset:
            self.phase = PASS
            self.turn: int | None = 0     # the lowest seat that has not passed
        else:
            self._start_play()

    def _start_play(self) -> None:
        self.phase = PLAY
        self.leader = self.turn = next(s for s in range(4) if self.hands[s] >> TWO_OF_CLUBS & 1)

    # --- turn ------------------------------------------------------------------------------------
    def to_act(self) -> int | None:
        return self.turn

    def commutes(self, action: dict) -> bool:
        """Passes are simultaneous: a pass of a seat that still owes one does not depend on the
        passes made before it."""
        return (self.phase == PASS and isinstance(action, dict) and action.get("type") == "pass"
                and action.get("seat") in self.seats_to_act())

    def seats_to_act(self) -> tuple[int, ...]:
        if self.phase == PASS:
            return tuple(s for s in range(4) if not self.passed[s])
        return super().seats_to_act()

    def is_over(self) -> bool:
        return self.phase == OVER

    # --- legal moves, one helper per phase --------------------------------------------------------
    def legal_moves(self, seat: int | None = None) -> list[int]:
        if seat is None:
            seat = self.to_act()
        if seat is None or seat not in self.seats_to_act():
            return []
        if self.phase == PLAY:
            return list(cards_in(self._playable(seat)))
        if self.phase == PASS:
            return self._pass_moves(seat)
        return [MOON_SELF, MOON_OTHERS]

    def _pass_moves(self, seat: int) -> list[int]:
        """Every triple of the seat's hand (286): for bots; apply checks a pass without them."""
        return [PASS_FLAG | (1 << a) | (1 << b) | (1 << c)
                for a, b, c in combinations(cards_in(self.hands[seat]), 3)]

    def _is_legal_pass(self, seat: int, move: int) -> bool:
        cards = move ^ PASS_FLAG
        return (move & PASS_FLAG and not self.passed[seat] and cards.bit_count() == PASS_CARDS
                and cards & self.hands[seat] == cards)

    def _playable(self, seat: int) -> int:
        """Mask of the cards ``seat`` may play now (play phase, his turn)."""
        hand = self.hands[seat]
        if not self.trick:
            if self.tricks_done == 0:
                return 1 << TWO_OF_CLUBS
            if self.hearts_broken or not hand & ~MOON_CARDS:
                return hand     # broken, or nothing but hearts (and perhaps QS) to lead
            return hand & ~HEARTS_MASK
        follow = hand & C.SUIT_MASK[C.SUIT_OF[self.trick[0]]]
        if follow:
            return follow
        if self.tricks_done == 0:
            return hand & ~MOON_CARDS or hand   # no points on the first trick unless nothing else
        return hand

    def random_move(self, rng) -> int:
        seat = self.turn
        if self.phase == PLAY:
            trick = self.trick
            if trick:   # following suit is the common case: one table lookup
                led = trick[0] // 13
                follow = self.hands[seat] >> (13 * led) & _LOW13
                choices = _SUIT_CARDS[led][follow] if follow else cards_in(self._playable(seat))
            else:
                choices = cards_in(self._playable(seat))
            return choices[int(rng.random() * len(choices))]
        if self.phase == PASS:
            return PASS_FLAG | C.mask_of(rng.sample(cards_in(self.hands[seat]), 3))
        return rng.choice((MOON_SELF, MOON_OTHERS))

    # --- applying ----------------------------------------------------------------------------------
    def apply(self, action) -> None:
        """As ``State.apply``, but a pass is checked directly instead of among 286 triples."""
        if self.phase != PASS:
            return super().apply(action)
        if not isinstance(action, dict):
            raise IllegalAction("not_an_action")
        seat = action.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 4:
            raise IllegalAction("no_such_seat")
        if self.passed[seat]:
            raise IllegalAction("already_passed")
        move = self.move_of(action)
        if not self._is_legal_pass(seat, move):
            raise self.explain(seat, move)
        self.apply_move(move, seat)

    def _apply(self, seat: int, move: int) -> None:
        if move < 52:
            self._play(seat, move)
        elif move & PASS_FLAG:
            self._pass(seat, move ^ PASS_FLAG)
        else:
            self.moon_choice = move
            self.phase = OVER
            self.turn = None

    def _pass(self, seat: int, cards: int) -> None:
        self.hands[seat] ^= cards
        self.passed[seat] = cards
        if 0 in self.passed:
            self.turn = self.passed.index(0)
            return
        # All four have passed: only now do the cards reach their receivers.
        for s in range(4):
            to = (s + self.pass_offset) % 4
            self.hands[to] |= self.passed[s]
            self.received[to] = self.passed[s]
        self._start_play()

    def _play(self, seat: int, c: int) -> None:
        self.hands[seat] ^= 1 << c
        trick = self.trick
        trick.append(c)
        if not self.hearts_broken and (26 <= c < 39 or c == QUEEN_OF_SPADES):
            self.hearts_broken = True
        if len(trick) < 4:
            self.turn = (seat + 1) % 4
            return
        winner = trick_winner(self.leader, trick)
        self.won[winner] |= (1 << trick[0]) | (1 << trick[1]) | (1 << trick[2]) | (1 << trick[3])
        self.trick = []
        self.leader = self.turn = winner
        self.tricks_done += 1
        if self.tricks_done == 13:
            self._end_play()

    def _end_play(self) -> None:
        for s in range(4):
            if self.won[s] & MOON_CARDS == MOON_CARDS:
                self.moon_shooter = self.turn = s
                self.phase = MOON
                return
        self.phase = OVER
        self.turn = None

    # --- actions -------------------------------------------------------------------------------------
    def action_of(self, seat: int, move: int) -> dict:
        if move < 52:
            return {"seat": seat, "type": "play", "card": C.CODES[move]}
        if move & PASS_FLAG:
            return {"seat": seat, "type": "pass", "cards": C.codes_of(move ^ PASS_FLAG)}
        return {"seat": seat, "type": "moon", "choice": "self" if move == MOON_SELF else "others"}

    def legal_actions(self, seat: int | None = None) -> list[dict]:
        """In the pass phase, one summary action naming every passable card (replay --trace)."""
        if self.phase != PASS:
            return super().legal_actions(seat)
        if seat is None:
            seat = self.to_act()
        if seat is None or self.passed[seat]:
            return []
        return [{"seat": seat, "type": "pass", "cards": C.codes_of(self.hands[seat])}]

    def move_of(self, action: dict) -> int:
        kind = action.get("type")
        if kind == "play":
            return _card_field(action.get("card"))
        if kind == "pass":
            cards = action.get("cards")
            if not isinstance(cards, list) or len(cards) != PASS_CARDS:
                raise IllegalAction("pass_three")
            mask = C.mask_of(_card_field(c) for c in cards)
            if mask.bit_count() != 3:
                raise IllegalAction("pass_distinct")
            return PASS_FLAG | mask
        if kind == "moon":
            choice = action.get("choice")
            if choice == "self":
                return MOON_SELF
            if choice == "others":
                return MOON_OTHERS
            raise IllegalAction("moon_choice")
        if not isinstance(kind, str):
            raise IllegalAction("no_type")
        raise IllegalAction("unknown_type", kind=kind, types="play, pass, moon")

    def explain(self, seat: int, move: int) -> IllegalAction:
        phase = self.phase
        if move >= 52 and move & PASS_FLAG:
            if phase != PASS:
                if not self.pass_offset:
                    return IllegalAction("no_passing")
                return IllegalAction("passing_done")
            if self.passed[seat]:
                return IllegalAction("already_passed")
            missing = (move ^ PASS_FLAG) & ~self.hands[seat]
            if missing:
                return IllegalAction("not_held", card=C.CODES[C.lowest(missing)])
            return IllegalAction("pass_from_hand")
        if move >= 52:
            if phase != MOON:
                return IllegalAction("moon_not_yours")
            return IllegalAction("moon_choose")
        if phase == PASS:
            return IllegalAction("pass_first")
        if phase == MOON:
            return IllegalAction("moon_now")
        return self._explain_play(seat, move)

    def _explain_play(self, seat: int, c: int) -> IllegalAction:
        hand = self.hands[seat]
        if not hand >> c & 1:
            return IllegalAction("not_held", card=C.CODES[c])
        if not self.trick:
            if self.tricks_done == 0:
                return IllegalAction("lead_two_clubs")
            if C.SUIT_OF[c] == C.HEARTS:
                return IllegalAction("hearts_not_broken")
        else:
            led = C.SUIT_OF[self.trick[0]]
            if C.SUIT_OF[c] != led and hand & C.SUIT_MASK[led]:
                return IllegalAction("must_follow", suit=C.SUITS[led])
            if self.tricks_done == 0 and (1 << c) & MOON_CARDS:
                return IllegalAction("first_trick_queen" if c == QUEEN_OF_SPADES else "first_trick_heart")
        return IllegalAction("not_playable")

    # --- scoring ---------------------------------------------------------------------------------------
    def card_points(self, seat: int) -> int:
        """Points of the cards ``seat`` has taken so far: hearts 1, QS 13 (and JD -10 in the
        jack variant), before any moon adjustment."""
        won = self.won[seat]
        points = (won & HEARTS_MASK).bit_count() + (13 if won & QS_BIT else 0)
        if self.jack_counts and won & JD_BIT:
            points -= 10
        return points

    def result(self) -> dict:
        shooter = self.moon_shooter
        if shooter is None:
            points = [self.card_points(s) for s in range(4)]
        else:
            if self.moon_choice == MOON_SELF:
                points = [-26 if s == shooter else 0 for s in range(4)]
            else:
                points = [0 if s == shooter else 26 for s in range(4)]
            if self.jack_counts:
                for s in range(4):
                    if self.won[s] & JD_BIT:
                        points[s] -= 10
        return {"points": points, "moon": shooter}

    # --- views -------------------------------------------------------------------------------------
    def played_cards(self) -> int:
        """Every card played face up so far (taken or on the table)."""
        m = self.won[0] | self.won[1] | self.won[2] | self.won[3]
        for c in self.trick:
            m |= 1 << c
        return m

    def completed_tricks(self) -> list[dict]:
        """The finished tricks of this deal, rebuilt from the log (kept off the hot path, the
        moves), once per move for every view of it: the log only grows, so its length names it."""
        memo = self._tricks_memo
        if memo is not None and memo[0] == len(self.log):
            return memo[1]
        tricks = self._rebuild_tricks()
        self._tricks_memo = (len(self.log), tricks)
        return tricks

    def _rebuild_tricks(self) -> list[dict]:
        tricks, cards, leader = [], [], None
        for seat, move in self.log:
            if move >= 52:
                continue
            if not cards:
                leader = seat
            cards.append(move)
            if len(cards) == 4:
                tricks.append({"leader": leader,
                               "cards": [{"seat": (leader + i) % 4, "card": C.CODES[c]}
                                         for i, c in enumerate(cards)],
                               "winner": trick_winner(leader, cards)})
                cards = []
        return tricks

    def view(self, seat: int | None) -> dict:
        setup = self.setup
        own = seat is not None
        tricks = self.completed_tricks()
        acting = self.seats_to_act()
        all_passed = self.phase != PASS and bool(self.pass_offset)
        return {
            "game": self.game,
            "variant": self.variant,
            "phase": PHASE_NAMES[self.phase],
            "seat": seat,
            "to_act": list(acting),
            "players": list(setup.players),
            "dealer": setup.dealer,
            "deal_number": setup.deal_number,
            "scores_before": list(setup.scores_before),
            "hand": C.codes_of(self.hands[seat]) if own else [],
            "hand_sizes": [h.bit_count() for h in self.hands],
            "trick": [{"seat": (self.leader + i) % 4, "card": C.CODES[c]}
                      for i, c in enumerate(self.trick)],
            "leader": self.leader if self.phase == PLAY else None,
            "last_trick": ({"cards": tricks[-1]["cards"], "winner": tricks[-1]["winner"]}
                           if tricks else None),
            "tricks_won": [w.bit_count() // 4 for w in self.won],
            "legal": self.legal_actions(seat) if own and seat in acting else [],
            "over": self.is_over(),
            "result": self.result() if self.is_over() else None,
            "pass_direction": PASS_DIRECTIONS[self.pass_offset],
            "passed": C.codes_of(self.passed[seat]) if own else [],
            "received": C.codes_of(self.received[seat]) if own and all_passed else [],
            "waiting_for_pass": list(acting) if self.phase == PASS else [],
            "hearts_broken": self.hearts_broken,
            "points_taken": [self.card_points(s) for s in range(4)],
            "tricks": tricks,
            "moon_shooter": self.moon_shooter,
        }

    def card_places(self) -> dict[str, int]:
        places = {}
        for s in range(4):
            places[f"hand{s}"] = self.hands[s]
            # Passed cards lie aside until all four have passed; then they are in hands.
            places[f"passing{s}"] = self.passed[s] if self.phase == PASS else 0
            places[f"won{s}"] = self.won[s]
        places["trick"] = C.mask_of(self.trick)
        return places

    def known_cards(self, seat: int | None) -> int:
        known = self.played_cards()
        if seat is not None:
            known |= self.hands[seat] | self.passed[seat]
        return known

    def decision(self, seat, legal):
        """Beside the kinds: a pass's ``count`` (how many cards the seat chooses)."""
        found = super().decision(seat, legal)
        if found is not None and "pass" in found["kinds"]:
            found["count"] = PASS_CARDS
        return found

    def notes(self, seat: int | None) -> dict:
        """``received_from``: the seat whose three passed cards this seat received (after the pass);
        ``breakdown``: once the deal is over, each seat's points part by part (``score_breakdown``)."""
        passed = seat is not None and self.phase != PASS and bool(self.pass_offset)
        return {"received_from": (seat - self.pass_offset) % 4 if passed else None,
                "breakdown": self.score_breakdown() if self.phase == OVER else None}

    def score_breakdown(self) -> list[dict]:
        """Per seat: ``hearts`` taken, ``queen`` (took QS: 13), ``jack`` (took JD: -10; None when
        the variant does not count it), ``moon`` ("self": he shot and took -26, "others": he shot
        and gave the others 26; None) and ``points``, the deal's (``result``'s)."""
        points = self.result()["points"]
        moon = None if self.moon_choice is None else ("self" if self.moon_choice == MOON_SELF else "others")
        return [{"hearts": (self.won[s] & HEARTS_MASK).bit_count(), "queen": bool(self.won[s] & QS_BIT),
                 "jack": bool(self.won[s] & JD_BIT) if self.jack_counts else None,
                 "moon": moon if s == self.moon_shooter else None, "points": points[s]}
                for s in range(4)]

    # --- claims (claims.py) -----------------------------------------------------------------------
    CLAIMS = True

    def claimable(self) -> bool:
        return self.phase == PLAY

    def trick_done(self) -> bool:
        return not self.trick and bool(self.log) and self.log[-1][1] < 52

    def winning_seat(self) -> int | None:
        return trick_winner(self.leader, self.trick) if self.trick else None

    def claim_key(self) -> tuple:
        return (tuple(self.hands), tuple(self.trick), self.leader, self.turn, self.hearts_broken)

    def clone(self) -> "HeartsState":
        new = object.__new__(HeartsState)
        new.__dict__.update(self.__dict__)
        new.log = list(self.log)
        new.hands = list(self.hands)
        new.passed = list(self.passed)
        new.received = list(self.received)
        new.won = list(self.won)
        new.trick = list(self.trick)
        return new


def _mask_of_codes(codes) -> int:
    """C.mask_of_codes, unrolled: it runs once per seat for every deal a bot or playout makes."""
    mask = 0
    try:
        for code in codes:
            mask |= 1 << C.INDEX[code]
    except (KeyError, TypeError):
        raise ValueError(f"not a list of card codes: {codes!r}") from None
    return mask


def _card_field(value) -> int:
    if not isinstance(value, str) or value not in C.INDEX:
        raise IllegalAction("not_a_card", value=str(value))
    return C.INDEX[value]


class HeartsRules(GameRules):
    name = "hearts"
    title = gettext_noop("Hearts")
    goal = gettext_noop("The match ends at {n}; lowest score wins")
    variants = ("standard", "jack_of_diamonds")
    seats = 4
    state_class = HeartsState

    def public_action(self, action: dict) -> dict:
        """A pass is public, its cards are not (only the receiver learns them)."""
        if action.get("type") == "pass":
            return {"seat": action["seat"], "type": "pass"}
        return dict(action)

    def state_from_view(self, view, hidden):
        return state_from_view(view, hidden)

    def deck(self, variant: str) -> list[int]:
        return list(range(52))

    def deal_cards(self, variant: str, dealer: int, deck: list[int]) -> dict:
        """One card at a time clockwise, the first to the dealer's left (seat dealer + 1)."""
        return {"hands": [[C.CODES[c] for c in sorted(deck[(seat - dealer - 1) % 4::4])]
                          for seat in range(4)]}

    def initial_scores(self, variant: str) -> list[int]:
        return [0, 0, 0, 0]

    def add_result(self, variant, scores, bags, result):
        return [s + p for s, p in zip(scores, result["points"])], bags

    lower_wins = True
    deal_points_key = "points"

    def target(self, variant: str) -> int:
        return MATCH_END

    def match_over(self, variant: str, scores: list[int]) -> bool:
        return max(scores) >= MATCH_END

    def ranks(self, variant: str, scores: list[int]) -> list[int]:
        """Lowest score first; equal scores share a rank (1, 1, 3, 4)."""
        return [1 + sum(other < mine for other in scores) for mine in scores]


RULES = register(HeartsRules())


def state_from_view(view: dict, hidden: dict) -> HeartsState:
    """A state at ``view``'s position whose unseen cards are ``hidden`` (for bots' determinization).

    ``hidden["hands"]`` maps every other seat to the cards it holds now (codes). The state is rebuilt
    by replaying the view's public tricks from the hands as they were when play began, so every
    derived field (hearts broken, leader, taken cards) is the engine's own. In the pass phase the
    state is the deal before anybody passed; the view's own pass (if made) is applied.
    """
    seat = view["seat"]
    now = [0, 0, 0, 0]
    for s in range(4):
        now[s] = _mask_of_codes(view["hand"]) if s == seat else _mask_of_codes(hidden["hands"][s])
    plays: list[tuple[int, int]] = []
    for trick in view["tricks"]:
        plays += [(p["seat"], C.INDEX[p["card"]]) for p in trick["cards"]]
    plays += [(p["seat"], C.INDEX[p["card"]]) for p in view["trick"]]
    start = list(now)
    for s, c in plays:
        start[s] |= 1 << c
    phase = view["phase"]
    own_passed = _mask_of_codes(view.get("passed") or [])
    if phase == "pass":
        start[seat] |= own_passed
    setup = DealSetup(game="hearts", variant=view["variant"], players=list(view["players"]),
                      dealer=view["dealer"],
                      deal_number=view["deal_number"] if phase == "pass" else 3,
                      scores_before=list(view["scores_before"]),
                      hands=[C.codes_of(h) for h in start])
    state = HeartsState(setup)
    if phase == "pass":
        if own_passed:
            state.apply_move(PASS_FLAG | own_passed, seat)
        return state
    # Play began after the (already applied) pass: the pass direction no longer matters.
    state.pass_offset = PASS_OFFSETS[view["deal_number"] % 4]
    for s, c in plays:
        state.apply_move(c, s)
    return state
