"""The interface every game implements, the registry, and the match around the deals.

A game is a ``GameRules`` object (dealing and match-level arithmetic) and a ``State`` subclass (one
deal). Two ways to act on a state:

* ``apply(action)`` takes an action object exactly as in docs/RECORDS.md (``{"seat": 0, "type":
  "play", "card": "QS"}``), checks it and raises ``IllegalAction`` with a refusal code from
  ``refusals.CATALOGUE`` (and the parameters of its sentence).
  A refused action leaves the state exactly as it was. Consumers, services and replays use this.
* ``legal_moves()`` / ``apply_move(move)`` work on small opaque ints and check nothing beyond what
  is free: the hot path for bots and playouts. Moves are only ever taken from ``legal_moves()``.
"""
from __future__ import annotations

import importlib
import secrets
from dataclasses import dataclass, field, asdict
from typing import Any, ClassVar

from . import cards as C
from . import fair as F
from .refusals import IllegalAction  # noqa: F401  (part of this module's interface)


@dataclass
class DealSetup:
    """Everything a deal starts from: the header of its deal record."""

    game: str
    variant: str
    players: list[str]
    dealer: int
    deal_number: int
    scores_before: list[int]
    hands: list[list[str]]
    bags_before: list[int] | None = None   # spades only
    stock: list[str] | None = None          # sixtysix only, first drawn first
    trump_card: str | None = None           # sixtysix only
    fair: dict | None = None                # dealt from committed seeds: fair.fair_object (no seed)

    def header(self) -> dict[str, Any]:
        head = {k: v for k, v in asdict(self).items() if v is not None}
        return {"format": "deal-record/1", **head}


class State:
    """One deal in progress. Subclasses implement the methods marked "game".

    ``log`` holds ``(seat, move)`` for every move applied, which is all a record needs.
    """

    rules: ClassVar["GameRules"]

    def __init__(self, setup: DealSetup):
        self.setup = setup
        self.variant = setup.variant
        self.log: list[tuple[int, int]] = []

    # --- game ---------------------------------------------------------------------------------
    def to_act(self) -> int | None:
        """The seat whose move ``legal_moves()`` lists; None once the deal is over."""
        raise NotImplementedError

    def seats_to_act(self) -> tuple[int, ...]:
        """Every seat that may act now (several in simultaneous phases such as the hearts pass)."""
        seat = self.to_act()
        return () if seat is None else (seat,)

    def is_over(self) -> bool:
        raise NotImplementedError

    def commutes(self, action: dict) -> bool:
        """Whether ``action`` means the same whatever other seats did since its sender looked:
        true in simultaneous phases (the hearts pass), where the platform accepts it from an
        earlier version of the table."""
        return False

    def legal_moves(self, seat: int | None = None) -> list[int]:
        """Legal moves of ``seat`` (default ``to_act()``) in a stable order."""
        raise NotImplementedError

    def _apply(self, seat: int, move: int) -> None:
        """Apply a legal move of ``seat`` (game)."""
        raise NotImplementedError

    def action_of(self, seat: int, move: int) -> dict:
        """The deal record's action object of a move (docs/RECORDS.md)."""
        raise NotImplementedError

    def move_of(self, action: dict) -> int:
        """Parse an action object into a move; IllegalAction for a malformed or unknown one.
        Need not check legality: ``apply`` does that by membership in ``legal_moves``."""
        raise NotImplementedError

    def explain(self, seat: int, move: int) -> IllegalAction:
        """Why a well-formed move is not legal now: the most specific refusal the rules give."""
        raise NotImplementedError

    def result(self) -> dict:
        """The deal record's ``result`` of a finished deal (docs/RECORDS.md)."""
        raise NotImplementedError

    def view(self, seat: int | None) -> dict:
        """What ``seat`` may see (None: a spectator, public information only). JSON-ready."""
        raise NotImplementedError

    def clone(self) -> "State":
        raise NotImplementedError

    def notes(self, seat: int | None) -> dict:
        """What the rules explain to ``seat`` beside its view (how a deal ended, what a claim
        would cost, a score's parts): extra keys for the view a client receives. Kept out of
        ``view``, whose keys are the rules' contract with bots and records. JSON-ready."""
        return {}

    def decision(self, seat: int | None, legal: list[dict]) -> dict | None:
        """What ``seat`` is asked to decide now, for a client to choose its prompt by: ``kinds``,
        the types of its legal actions (``legal``, as its view holds them) in their order, plus what
        a game adds (a Hearts pass's card count, each Sixty-six marriage's points). None: nothing
        to decide. JSON-ready."""
        if not legal:
            return None
        return {"kinds": list(dict.fromkeys(a["type"] for a in legal))}

    # Keys of ``view`` that belong to the viewing seat (empty in a spectator's view) or repeat the
    # deal's history; a replay frame, which shows every hand beside it, leaves them out.
    SEAT_KEYS: ClassVar[tuple[str, ...]] = ("hand", "legal")
    HISTORY_KEYS: ClassVar[tuple[str, ...]] = ("tricks",)

    def replay_frame(self) -> dict:
        """The public view of this moment with every hand shown: a finished deal's replay."""
        omit = self.SEAT_KEYS + self.HISTORY_KEYS
        view = {k: v for k, v in self.view(None).items() if k not in omit}
        return {"view": view, "hands": [self.view(s)["hand"] for s in range(self.rules.seats)]}

    def card_places(self) -> dict[str, int]:
        """Where every card of the deck is now, as place name -> mask (``"hand0"``, ``"stock"``,
        ``"trick"``, ``"won1"``, ...). The masks are disjoint and cover the deck: tests check it."""
        raise NotImplementedError

    def known_cards(self, seat: int | None) -> int:
        """Mask of every card whose place ``seat`` may know now (own hand, cards seen played or
        shown, own passed cards, ...). A view never names a card outside it; bots sample the rest."""
        raise NotImplementedError

    # --- claiming the remaining tricks (claims.py); games of tricks where it is allowed --------------
    CLAIMS: ClassVar[bool] = False      # whether a seat may claim every remaining trick

    def claimable(self) -> bool:
        """Whether the deal is in its play of tricks, where a claim may be made (game)."""
        return False

    def trick_done(self) -> bool:
        """Whether the last move completed a trick (its winner then leads: ``leader``) (game)."""
        raise NotImplementedError

    def winning_seat(self) -> int | None:
        """The seat whose card wins the trick in progress so far (None: no card on it) (game)."""
        raise NotImplementedError

    def claim_key(self) -> tuple:
        """What decides the rest of the play from here: equal keys, equal claims (game)."""
        raise NotImplementedError

    def random_move(self, rng) -> int:
        """A uniformly chosen legal move of ``to_act()`` (games may speed this up)."""
        return rng.choice(self.legal_moves())

    # --- shared ---------------------------------------------------------------------------------
    @property
    def game(self) -> str:
        return self.rules.name

    def apply_move(self, move: int, seat: int | None = None) -> None:
        if seat is None:
            seat = self.to_act()
        self.log.append((seat, move))
        self._apply(seat, move)

    def legal_actions(self, seat: int | None = None) -> list[dict]:
        if seat is None:
            seat = self.to_act()
        if seat is None:
            return []
        return [self.action_of(seat, m) for m in self.legal_moves(seat)]

    def apply(self, action: Any) -> None:
        """Check and apply an action object; on refusal raise IllegalAction and change nothing."""
        if not isinstance(action, dict):
            raise IllegalAction("not_an_action")
        if self.is_over():
            raise IllegalAction("deal_over")
        seat = action.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.rules.seats:
            raise IllegalAction("no_such_seat")
        if seat not in self.seats_to_act():
            raise IllegalAction("not_your_turn")
        move = self.move_of(action)
        if move not in self.legal_moves(seat):
            raise self.explain(seat, move)
        self.apply_move(move, seat)

    def actions(self) -> list[dict]:
        return [self.action_of(seat, move) for seat, move in self.log]

    def record(self) -> dict:
        """The deal record (docs/RECORDS.md); ``result`` only once the deal is over."""
        rec = self.setup.header()
        rec["actions"] = self.actions()
        if self.is_over():
            rec["result"] = self.result()
        return rec


def gettext_noop(text: str) -> str:
    """Marks the words a game describes itself with for translation, and returns them as they are:
    the engine knows no language (no Django); the site translates them where it shows them
    (games/labels.py), and Django's makemessages finds them by this name."""
    return text


class GameRules:
    """Dealing and match-level rules of one game; one instance per game in ``GAMES``."""

    name: str
    variants: tuple[str, ...]      # the first is the default
    seats: int
    state_class: type[State]
    # Words for people, in English, marked for translation (``gettext_noop``).
    title: str                     # the game's name
    goal: str                      # what ends a match, with ``{n}`` for ``target``

    def check_variant(self, variant: str | None) -> str:
        variant = variant or self.variants[0]
        if variant not in self.variants:
            raise ValueError(f"{self.name} has no variant {variant!r}; choose from {self.variants}")
        return variant

    # --- how the game looks from outside: what the site reads instead of naming a game --------
    # Score columns: a match keeps one score per team (``teams``), a team being one seat in
    # every game but partnership ones. A deal's result gives each column ``deal_points_key``.
    lower_wins: bool = False          # a lower score ranks better (hearts)
    deal_points_key: str = "points"
    rank_order: str = C.RANKS         # the ranks from weakest to strongest in a trick

    def teams(self, variant: str | None = None) -> list[list[int]]:
        """Seats per team, in score-column order (the default: every seat plays alone)."""
        return [[seat] for seat in range(self.seats)]

    def team_of(self, seat: int, variant: str | None = None) -> int:
        """The score column of ``seat``."""
        return next(i for i, team in enumerate(self.teams(variant)) if seat in team)

    def partners(self, seat: int, variant: str | None = None) -> list[int]:
        """The other seats of ``seat``'s team (empty where everyone plays alone)."""
        return [s for s in self.teams(variant)[self.team_of(seat, variant)] if s != seat]

    def partnerships(self, variant: str | None = None) -> bool:
        """Whether partners share a score (some team holds several seats)."""
        return any(len(team) > 1 for team in self.teams(variant))

    def one_on_one(self, variant: str | None = None) -> bool:
        """Whether a match is two players against each other, each alone: beating the other wins
        it, and a player who abandons it loses it to the other."""
        return self.seats == 2 and not self.partnerships(variant)

    def seat_scores(self, variant: str, scores: list[int]) -> list[int]:
        """A match's scores per seat: each seat gets its team's column."""
        return [scores[self.team_of(seat, variant)] for seat in range(self.seats)]

    def deal_points(self, result: dict) -> list[int]:
        """A finished deal's points per score column."""
        return list(result[self.deal_points_key])

    def margins(self, variant: str, scores: list[int]) -> list[float]:
        """How far each seat finished ahead of its opponents, in the game's own points (positive
        is better, whatever the direction of the score): a team's score minus the other teams'
        mean. Tournaments break ties on it."""
        teams = self.teams(variant)
        sign = -1.0 if self.lower_wins else 1.0
        out = []
        for seat in range(self.seats):
            mine = self.team_of(seat, variant)
            others = [scores[t] for t in range(len(teams)) if t != mine]
            out.append(sign * (scores[mine] - sum(others) / len(others)) + 0.0)   # never -0.0
        return out

    def target(self, variant: str) -> int:
        """The score that ends a match (see ``match_over`` for the exact condition)."""
        raise NotImplementedError

    def describe(self, variant: str | None = None) -> dict:
        """The game as the site's pages and the table client need it (JSON-ready)."""
        variant = self.check_variant(variant)
        return {"game": self.name, "variant": variant, "seats": self.seats,
                "teams": self.teams(variant), "partnerships": self.partnerships(variant),
                "one_on_one": self.one_on_one(variant), "lower_wins": self.lower_wins,
                "target": self.target(variant), "deal_points": self.deal_points_key,
                "rank_order": self.rank_order}

    def public_action(self, action: dict) -> dict:
        """What everyone may learn of a stored action (games override: a hearts pass hides its
        cards). The default: all of it."""
        return dict(action)

    # dealing
    def state_from_view(self, view: dict, hidden: dict) -> State:
        """The state at a seat's view with its unseen cards ``hidden`` (a sample of what the view
        leaves open): how a bot's search resamples a state from what the seat knows (OpenSpiel's
        ``ResampleFromInfostate``; the sampling itself is the bots')."""
        raise NotImplementedError

    def deck(self, variant: str) -> list[int]:
        raise NotImplementedError

    def deal_cards(self, variant: str, dealer: int, deck: list[int]) -> dict:
        """Deal a shuffled deck in the rules' order: ``{"hands": [[codes]...]}`` plus, for
        sixtysix, ``"stock"`` and ``"trump_card"``."""
        raise NotImplementedError

    def new_state(self, setup: DealSetup) -> State:
        return self.state_class(setup)

    # match level
    def initial_scores(self, variant: str) -> list[int]:
        raise NotImplementedError

    def initial_bags(self, variant: str) -> list[int] | None:
        return None

    def next_dealer(self, variant: str, dealer: int, result: dict) -> int:
        return (dealer + 1) % self.seats

    def add_result(self, variant: str, scores: list[int], bags: list[int] | None,
                   result: dict) -> tuple[list[int], list[int] | None]:
        """Scores (and bags) after a finished deal's result."""
        raise NotImplementedError

    def match_over(self, variant: str, scores: list[int]) -> bool:
        raise NotImplementedError

    def ranks(self, variant: str, scores: list[int]) -> list[int]:
        """Final rank of each seat, 1 best, equal scores sharing a rank."""
        raise NotImplementedError


GAMES: dict[str, GameRules] = {}
GAME_NAMES = ("sixtysix", "hearts", "spades")   # each is the module games.engine.<name>


def register(rules: GameRules) -> GameRules:
    GAMES[rules.name] = rules
    rules.state_class.rules = rules
    return rules


def get_rules(game: str) -> GameRules:
    """The rules of a game, importing its module on first use (each module registers itself)."""
    if game not in GAMES and game in GAME_NAMES:
        importlib.import_module(f"{__package__}.{game}")
    try:
        return GAMES[game]
    except KeyError:
        raise ValueError(f"unknown game {game!r}; choose from {list(GAME_NAMES)}") from None


def new_state(setup: DealSetup) -> State:
    rules = get_rules(setup.game)
    setup.variant = rules.check_variant(setup.variant)
    return rules.new_state(setup)


def deal(game: str, variant: str | None = None, *, players: list[str] | None = None,
         dealer: int = 0, deal_number: int = 0, scores_before: list[int] | None = None,
         bags_before: list[int] | None = None, rng=None, seeds: F.DealSeeds | None = None) -> State:
    """A freshly shuffled deal: from committed ``seeds`` (fair.py, the record gets its ``fair``
    object), else from ``rng`` (tests, bots), else a cryptographic shuffle."""
    rules = get_rules(game)
    variant = rules.check_variant(variant)
    dealt = _dealt(rules, variant, dealer, deal_number, rng, seeds)
    setup = DealSetup(
        game=game, variant=variant,
        players=list(players or [f"seat{i}" for i in range(rules.seats)]),
        dealer=dealer, deal_number=deal_number,
        scores_before=list(scores_before if scores_before is not None else rules.initial_scores(variant)),
        bags_before=list(bags_before) if bags_before is not None else rules.initial_bags(variant),
        **dealt,
    )
    return rules.new_state(setup)


def _dealt(rules: GameRules, variant: str, dealer: int, deal_number: int, rng,
           seeds: F.DealSeeds | None) -> dict:
    """``deal_cards`` of a shuffled deck, plus ``fair`` (without the server seed) for seeds."""
    if seeds is None:
        return rules.deal_cards(variant, dealer, C.shuffled(rules.deck(variant), rng))
    dealt = F.deal_from_seeds(rules, variant, dealer, seeds, deal_number)
    return dict(dealt, fair=seeds.fair_object())


@dataclass
class Match:
    """A match: its deals' results folded into scores, the dealer rotation and the end.

    JSON-serialisable through ``to_dict``/``from_dict`` so the platform can persist it.

    A duplicate match (``boards``) plays a fixed number of deals instead of playing to a target:
    deal k's dealer is ``dealers[k]`` and every deal is scored on its own (Spades' bags start from
    zero at every board), so the same cards played the same way score the same at every table.
    """

    game: str
    variant: str
    players: list[str]
    dealer: int
    scores: list[int]
    bags: list[int] | None = None
    deal_number: int = 0
    results: list[dict] = field(default_factory=list)
    boards: int | None = None              # duplicate: this many deals, then the match is over
    dealers: list[int] | None = None       # duplicate: the dealer of each board

    @classmethod
    def start(cls, game: str, variant: str | None = None, players: list[str] | None = None,
              first_dealer: int | None = None, *, dealers: list[int] | None = None) -> "Match":
        """A new match; ``dealers`` (one per board) makes it a duplicate match of that many deals."""
        rules = get_rules(game)
        variant = rules.check_variant(variant)
        if dealers is not None:
            if not dealers or any(not isinstance(d, int) or not 0 <= d < rules.seats for d in dealers):
                raise ValueError(f"dealers must be seats 0..{rules.seats - 1}, one per board")
            first_dealer = dealers[0]
        if first_dealer is None:
            first_dealer = secrets.randbelow(rules.seats)
        return cls(game=game, variant=variant,
                   players=list(players or [f"seat{i}" for i in range(rules.seats)]),
                   dealer=first_dealer, scores=rules.initial_scores(variant),
                   bags=rules.initial_bags(variant),
                   boards=None if dealers is None else len(dealers),
                   dealers=None if dealers is None else list(dealers))

    @property
    def rules(self) -> GameRules:
        return get_rules(self.game)

    def setup_for(self, hands: list[list[str]], stock: list[str] | None = None,
                  trump_card: str | None = None, fair: dict | None = None) -> DealSetup:
        return DealSetup(game=self.game, variant=self.variant, players=list(self.players),
                         dealer=self.dealer, deal_number=self.deal_number,
                         scores_before=list(self.scores),
                         bags_before=list(self.bags) if self.bags is not None else None,
                         hands=hands, stock=stock, trump_card=trump_card, fair=fair)

    def new_deal(self, rng=None, seeds: F.DealSeeds | None = None) -> State:
        """The next deal: from committed ``seeds`` (fair.py), else shuffled by ``rng`` (tests,
        bots), else by a cryptographic shuffle."""
        if self.is_over():
            raise IllegalAction("match_over")
        dealt = _dealt(self.rules, self.variant, self.dealer, self.deal_number, rng, seeds)
        return self.rules.new_state(self.setup_for(**dealt))

    def finish_deal(self, state: State) -> None:
        """Fold a finished deal of this match into the scores and move the dealer on."""
        if not state.is_over():
            raise ValueError("the deal is not over")
        if state.setup.deal_number != self.deal_number:
            raise ValueError("that deal is not this match's current deal")
        result = state.result()
        rules = self.rules
        self.scores, self.bags = rules.add_result(self.variant, list(self.scores),
                                                  list(self.bags) if self.bags is not None else None,
                                                  result)
        self.results.append(result)
        self.deal_number += 1
        if self.boards is None:
            self.dealer = rules.next_dealer(self.variant, self.dealer, result)
            return
        if self.bags is not None:
            self.bags = rules.initial_bags(self.variant)
        if self.deal_number < self.boards:
            self.dealer = self.dealers[self.deal_number]

    def is_over(self) -> bool:
        if self.boards is not None:
            return self.deal_number >= self.boards
        return self.rules.match_over(self.variant, self.scores)

    def ranks(self) -> list[int]:
        """Rank per seat (1 best; ties share). Spades: both partners get their team's rank."""
        return self.rules.ranks(self.variant, self.scores)

    def winners(self) -> list[int]:
        """Seats ranked first; every seat when the match is drawn."""
        return [s for s, r in enumerate(self.ranks()) if r == 1]

    def is_draw(self) -> bool:
        return self.is_over() and len(self.winners()) == self.rules.seats

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "Match":
        return cls(**data)
