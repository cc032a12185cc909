"""How much the sixty-six opponent's open-stock plays tell about his hand.

    python bench/sixtysix_reading.py --deals 1000 --jobs 2        # play, log, fit, measure
    python bench/sixtysix_reading.py --log FILE --measure-only     # again, on a saved log

A draw of his hand (``sampling.sixtysix_draws``) is uniform over what the rules allow. But he chose
each card he played while the stock was open from the hand he held then: a draw under which his
plays were likely could be worth more than one under which they were odd. This measures whether
that reading is worth anything:

* **His hand at each past decision** follows from a draw of his hand now, walked back trick by
  trick (``walk``): the card he played is put back, the card he drew after the trick taken out.
  Which card he drew is hidden, so the walk draws it among the cards he could have drawn then (not
  one he is known to have held earlier: a marriage's shown partner, the trump card he took by
  exchange; the last draw's face-up card is known).
* **A model of his play** (``FEATURES``, ``WEIGHTS``): each card of that hand gets a score from
  what it would do (lead or follow, head, trump, its points, a marriage it holds back...) and the
  card played is chosen with probability ``exp(score)`` over the hand's sum (a conditional logit),
  fitted here on the strong bot's own open-stock decisions in self-play (``fit``).
* **A draw's weight** is the likelihood of his plays under the model (``log_weight``), and
  ``weighted_draws`` is ``sampling.sixtysix_draws`` with it (a pool of uniform draws, picked by
  weight): what the tree search (``sixtysix_tree``) was measured with.

The measure: on held-out deals, at each decision with his earlier plays to read, how many cards
of his real hand an average draw holds, uniform and weighted (``overlap``). The figures and what
they decided are in docs/BOTS.md ("What the hidden cards are worth").
"""
from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import sys
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import sampling  # noqa: E402
from games.bots.lab import duel  # noqa: E402
from games.engine import cards as C  # noqa: E402
from games.engine import sixtysix as SS  # noqa: E402
from games.engine.core import Match, get_rules  # noqa: E402

POOL = 128          # uniform draws weighted per decision
TEMPER = 1.0        # the power of the model's likelihood a draw is weighted by

FEATURES = (
    # leading
    "lead_trump", "lead_strength", "lead_trump_strength", "lead_points", "lead_marriage",
    "lead_suit_length", "lead_lowest_of_suit", "lead_master",
    # following
    "head", "under", "ruff", "discard", "points_if_won", "points_if_lost", "lead_points_if_won",
    "follow_strength", "follow_trump_strength", "follow_marriage", "cheapest_winner",
    "follow_lowest_of_suit", "follow_suit_length",
)
WEIGHTS = {
    "lead_trump": -0.87,
    "lead_strength": -0.6,
    "lead_trump_strength": 0.05,
    "lead_points": -0.41,
    "lead_marriage": 2.85,
    "lead_suit_length": 0.64,
    "lead_lowest_of_suit": -0.02,
    "lead_master": 0.19,
    "head": 1.65,
    "under": -1.01,
    "ruff": 0.11,
    "discard": -0.75,
    "points_if_won": 1.29,
    "points_if_lost": -2.38,
    "lead_points_if_won": 1.56,
    "follow_strength": -0.55,
    "follow_trump_strength": -1.48,
    "follow_marriage": -1.28,
    "cheapest_winner": -0.01,
    "follow_lowest_of_suit": 0.1,
    "follow_suit_length": -0.51,
}

_STRENGTH = SS.STRENGTH
_POINTS = SS.POINTS
_HIGHER = SS.HIGHER
_PARTNER = SS.PARTNER


def option_features(hand: int, card: int, lead: int, trump: int, played: int) -> list[float]:
    """The features of playing ``card`` from ``hand`` (masks and card indices), the stock open:
    ``lead`` the card led to him (-1 when he leads), ``played`` every card seen played before (the
    lead included)."""
    suit = C.SUIT_OF[card]
    in_suit = hand & C.SUIT_MASK[suit]
    is_trump = suit == trump
    strength = _STRENGTH[card] / 5.0
    marriage = _PARTNER[card] >= 0 and hand >> _PARTNER[card] & 1
    lowest = _lowest(in_suit) == card
    length = in_suit.bit_count() / 6.0
    f = [0.0] * len(FEATURES)
    if lead < 0:
        f[0] = is_trump
        f[1] = 0.0 if is_trump else strength
        f[2] = strength if is_trump else 0.0
        f[3] = _POINTS[card] / 11.0
        f[4] = marriage
        f[5] = length
        f[6] = lowest
        f[7] = not _HIGHER[card] & ~hand & ~played
        return f
    lead_suit = C.SUIT_OF[lead]
    wins = _beats(card, lead, trump)
    f[8] = suit == lead_suit and wins
    f[9] = suit == lead_suit and not wins
    f[10] = is_trump and lead_suit != trump
    f[11] = suit != lead_suit and not is_trump
    f[12] = _POINTS[card] / 11.0 if wins else 0.0
    f[13] = 0.0 if wins else _POINTS[card] / 11.0
    f[14] = _POINTS[lead] / 11.0 if wins else 0.0
    f[15] = 0.0 if is_trump else strength
    f[16] = strength if is_trump else 0.0
    f[17] = marriage
    f[18] = wins and _cheapest_winner(hand, lead, trump) == card
    f[19] = lowest
    f[20] = length
    return f


def _lowest(mask: int) -> int:
    return min(C.iter_cards(mask), key=_STRENGTH.__getitem__)


def _beats(card: int, lead: int, trump: int) -> bool:
    if C.SUIT_OF[card] == C.SUIT_OF[lead]:
        return _STRENGTH[card] > _STRENGTH[lead]
    return C.SUIT_OF[card] == trump


def _cheapest_winner(hand: int, lead: int, trump: int) -> int:
    winners = [c for c in C.iter_cards(hand) if _beats(c, lead, trump)]
    return min(winners, key=lambda c: (C.SUIT_OF[c] == trump, _POINTS[c], _STRENGTH[c]))


def score(hand: int, card: int, lead: int, trump: int, played: int) -> float:
    """``WEIGHTS`` times the features (the definition ``_scores`` computes faster)."""
    return sum(WEIGHTS[name] * x for name, x in zip(FEATURES, option_features(hand, card, lead, trump, played)))


def play_log_probability(hand: int, card: int, lead: int, trump: int, played: int,
                         plain: bool = False) -> float:
    """The model's log-probability that he plays ``card`` from ``hand``; ``plain``: a queen or king
    led without announcing the marriage it makes with a card of ``hand`` (``PLAIN_MARRIAGE_LOG``)."""
    scores = _scores(hand, lead, trump, played)
    if plain and hand >> _PARTNER[card] & 1:
        scores[card] += PLAIN_MARRIAGE_LOG - WEIGHTS["lead_marriage"]
    top = max(scores.values())
    total = sum(math.exp(x - top) for x in scores.values())
    return scores[card] - top - math.log(total)


def _scores(hand: int, lead: int, trump: int, played: int) -> dict[int, float]:
    """``score`` of every card of ``hand``, on the hot path of the weighting: the features
    inlined."""
    w = WEIGHTS
    out = {}
    lowest_of = {}
    for suit in range(4):
        in_suit = hand & C.SUIT_MASK[suit]
        if in_suit:
            lowest_of[suit] = (_lowest(in_suit), in_suit.bit_count() / 6.0)
    if lead < 0:
        for card in C.iter_cards(hand):
            suit = C.SUIT_OF[card]
            strength = _STRENGTH[card] / 5.0
            low, length = lowest_of[suit]
            x = w["lead_points"] * _POINTS[card] / 11.0 + w["lead_suit_length"] * length
            if suit == trump:
                x += w["lead_trump"] + w["lead_trump_strength"] * strength
            else:
                x += w["lead_strength"] * strength
            partner = _PARTNER[card]
            if partner >= 0 and hand >> partner & 1:
                x += w["lead_marriage"]
            if low == card:
                x += w["lead_lowest_of_suit"]
            if not _HIGHER[card] & ~hand & ~played:
                x += w["lead_master"]
            out[card] = x
        return out
    lead_suit = C.SUIT_OF[lead]
    lead_points = _POINTS[lead] / 11.0
    cheapest = None
    for card in C.iter_cards(hand):
        suit = C.SUIT_OF[card]
        strength = _STRENGTH[card] / 5.0
        points = _POINTS[card] / 11.0
        low, length = lowest_of[suit]
        is_trump = suit == trump
        if suit == lead_suit:
            wins = _STRENGTH[card] > _STRENGTH[lead]
            x = w["head"] if wins else w["under"]
        else:
            wins = is_trump
            x = w["ruff"] if is_trump else w["discard"]
        if wins:
            x += w["points_if_won"] * points + w["lead_points_if_won"] * lead_points
            key = (is_trump, _POINTS[card], _STRENGTH[card])
            if cheapest is None or key < cheapest[0]:
                cheapest = (key, card)
        else:
            x += w["points_if_lost"] * points
        x += (w["follow_trump_strength"] if is_trump else w["follow_strength"]) * strength
        partner = _PARTNER[card]
        if partner >= 0 and hand >> partner & 1:
            x += w["follow_marriage"]
        if low == card:
            x += w["follow_lowest_of_suit"]
        x += w["follow_suit_length"] * length
        out[card] = x
    if cheapest is not None:
        out[cheapest[1]] += w["cheapest_winner"]
    return out


# === his past decisions ============================================================================

def history(view: dict) -> dict:
    """What a walk back from a draw of his hand needs, read once per decision from ``view``:
    ``steps`` (latest first: per trick he played in with the stock open, the card he played, the
    card led to him or -1, the cards seen played before it, whether he drew after it and which card
    if known, the exchange before it), and the cards he is known to have held from a trick on."""
    seat = view["seat"]
    opp = 1 - seat
    opts = SS.VARIANTS[view["variant"]]
    trump = C.SUITS.index(view["trump_suit"])
    last_draw_trick = (opts.deck_mask.bit_count() - 2 * opts.hand_size) // 2
    closed_at = view["closed_at"]
    open_until = last_draw_trick if closed_at is None else min(closed_at, last_draw_trick)
    exchange = view["exchange"]
    exchange_at = exchange["trick"] if exchange and exchange["seat"] == opp else None
    turned = C.INDEX[view["trump_turned"]]
    lowest_trump = trump * 13 + opts.lowest_trump_rank
    drawn = view["trump_drawn"]
    last_draw = C.INDEX[drawn["card"]] if drawn and drawn["seat"] == opp else -1
    # Cards known in his hand from a trick on: a marriage's partner, the card taken by exchange.
    known_from: list[tuple[int, int]] = []
    for m in view["marriages"]:
        if m["seat"] == opp:
            known_from.append((m["trick"], SS.PARTNER[C.INDEX[m["card"]]]))
    if exchange_at is not None:
        known_from.append((exchange_at, turned))
    tricks = [[C.INDEX[p["card"]] for p in t["cards"]] + [t["cards"][0]["seat"]] for t in view["tricks"]]
    steps = []
    played = 0
    for k, (lead, follow, leader) in enumerate(tricks):
        if k < open_until:
            his = lead if leader == opp else follow
            steps.append({"trick": k, "card": his, "lead": -1 if leader == opp else lead,
                          "played": played | (0 if leader == opp else 1 << lead),
                          "plain_marriage_lead": leader == opp and _plain_marriage(view, k, lead),
                          "draw": True, "forced_draw": last_draw if k == last_draw_trick - 1 else -1,
                          "exchange": exchange_at == k})
        played |= 1 << lead | 1 << follow
    trick = view["trick"]
    if trick and trick[0]["seat"] == opp and len(tricks) < open_until:
        lead = C.INDEX[trick[0]["card"]]
        steps.append({"trick": len(tricks), "card": lead, "lead": -1, "played": played,
                      "plain_marriage_lead": _plain_marriage(view, len(tricks), lead),
                      "draw": False, "forced_draw": -1, "exchange": exchange_at == len(tricks)})
    steps.reverse()
    return {"steps": steps, "trump": trump, "known_from": known_from, "turned": turned,
            "lowest_trump": lowest_trump}


def _plain_marriage(view, k, card) -> bool:
    """He led a queen or king at trick ``k`` without announcing its marriage."""
    if SS.PARTNER[card] < 0:
        return False
    return not any(m["trick"] == k and C.INDEX[m["card"]] == card for m in view["marriages"])


def log_weight(hand: int, past: dict, rng) -> float:
    """The model's log-likelihood of his past open-stock plays given ``hand`` (his cards now), the
    cards he drew after each trick drawn by ``rng`` among those he could have drawn."""
    trump = past["trump"]
    total = 0.0
    for step, then in walk(hand, past, lambda step, choices: choices[rng.randrange(len(choices))]):
        if then < 0:
            return -math.inf
        card = step["card"]
        total += play_log_probability(then, card, step["lead"], trump, step["played"],
                                      step["plain_marriage_lead"])
    return total


def walk(hand: int, past: dict, pick):
    """His hand at each of his past open-stock plays (``past["steps"]``, latest first), walked back
    from ``hand``: yields (step, his hand when he played it), or (step, -1) where ``hand`` cannot
    have been reached. ``pick(step, cards)`` chooses the card he drew after the step's trick among those he could
    have drawn (a list of card indices)."""
    known_from = past["known_from"]
    cur = hand
    for step in past["steps"]:
        if step["draw"]:
            forced = step["forced_draw"]
            if forced >= 0:
                choices = [forced] if cur >> forced & 1 else []
            else:
                held = 0
                for k, card in known_from:
                    if k <= step["trick"]:
                        held |= 1 << card
                choices = list(C.iter_cards(cur & ~held))
            if not choices:
                yield step, -1
                return
            cur &= ~(1 << pick(step, choices))
        cur |= 1 << step["card"]
        yield step, cur
        if step["exchange"]:
            cur = cur & ~(1 << past["turned"]) | 1 << past["lowest_trump"]


# He announces a marriage whose card he leads (the strong bot did at every one of 43 such leads):
# a queen or king led plain while holding its partner is this unlikely.
PLAIN_MARRIAGE_LOG = math.log(0.05)


def weighted_draws(view: dict, rng, pool: int = POOL) -> Callable[[], tuple[int, tuple[int, ...]]]:
    """``sampling.sixtysix_draws`` with his play read: ``pool`` uniform draws of his hand, each
    weighted by the likelihood of his open-stock plays under it (``TEMPER``); a call picks one by
    weight and deals the stock from the rest anew."""
    uniform = sampling.sixtysix_draws(view, rng)
    past = history(view)
    if not past["steps"]:
        return uniform
    draws = [uniform() for _ in range(pool)]
    logs = [TEMPER * log_weight(hand, past, rng) for hand, _ in draws]
    top = max(logs)
    if top == -math.inf:
        return uniform
    cumulative = []
    running = 0.0
    for x in logs:
        running += math.exp(x - top)
        cumulative.append(running)
    stocks = [list(stock) for _, stock in draws]

    def draw() -> tuple[int, tuple[int, ...]]:
        i = _bisect(cumulative, rng.random() * running)
        stock = stocks[i]
        rng.shuffle(stock)
        return draws[i][0], tuple(stock)
    return draw


def _bisect(cumulative, x) -> int:
    lo, hi = 0, len(cumulative) - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if cumulative[mid] > x:
            hi = mid
        else:
            lo = mid + 1
    return lo


# === the measurement ===============================================================================

def _log_deal(args) -> list[dict]:
    """One self-play deal of ``level`` (kurnik, budgets on the CPU clock): per card played while the
    stock was open, the player's view and the card, and the opponent's hand then."""
    level, pair = args
    rules = get_rules("sixtysix")
    match = Match.start("sixtysix", "kurnik", first_dealer=pair % 2)
    deck = C.shuffled(rules.deck(match.variant), random.Random(f"reading-{pair}"))
    state = rules.new_state(match.setup_for(**rules.deal_cards(match.variant, match.dealer, deck)))
    rngs = [random.Random(f"reading-{pair}-{seat}") for seat in range(2)]
    rows = []
    with duel.budgets_on_cpu_clock(True):
        while not state.is_over():
            seat = state.seats_to_act()[0]
            view = state.view(seat)
            action = duel.choose_action(level, view, rngs[seat], None)
            if view["phase"] == "play1" and not view["closed"] and action["type"] == "play":
                view = {k: v for k, v in view.items() if k != "legal"}
                rows.append({"pair": pair, "view": view, "card": action["card"],
                             "opponent_hand": C.codes_of(state.hands[1 - seat])})
            state.apply(action)
    return rows


def decision_of(view: dict, card: str) -> dict:
    """The model's inputs for one decision of ``view``'s seat: masks and card indices."""
    lead = C.INDEX[view["trick"][0]["card"]] if view["trick"] else -1
    return {"hand": C.mask_of_codes(view["hand"]), "card": C.INDEX[card], "lead": lead,
            "trump": C.SUITS.index(view["trump_suit"]), "played": sampling._played(view)}


def fit(rows: list[dict], epochs: int = 1500, rate: float = 3.0, l2: float = 1e-3) -> list[float]:
    """``FEATURES``' weights of greatest penalized log-likelihood on ``decision_of`` rows
    (full-batch gradient ascent, a decaying step)."""
    data = [_options(r) for r in rows]
    w = [0.0] * len(FEATURES)
    for epoch in range(epochs):
        grad = [0.0] * len(FEATURES)
        for feats, chosen in data:
            for i, (f, p) in enumerate(zip(feats, _probs(w, feats))):
                p -= i == chosen
                for j, x in enumerate(f):
                    if x:
                        grad[j] -= p * x
        step = rate / (1 + epoch / 20)
        w = [wi + step * (g / len(data) - l2 * wi) for wi, g in zip(w, grad)]
    return w


def _options(row) -> tuple[list[list[float]], int]:
    cards = list(C.iter_cards(row["hand"]))
    feats = [[float(x) for x in option_features(row["hand"], c, row["lead"], row["trump"], row["played"])]
             for c in cards]
    return feats, cards.index(row["card"])


def _probs(w, feats) -> list[float]:
    scores = [sum(a * b for a, b in zip(w, f)) for f in feats]
    top = max(scores)
    e = [math.exp(s - top) for s in scores]
    return [x / sum(e) for x in e]


def predictions(w, rows) -> dict:
    """How well weights ``w`` predict the card played: accuracy and log-likelihood a decision,
    and a uniform choice's."""
    hits = ll = uniform = 0.0
    for row in rows:
        feats, chosen = _options(row)
        probs = _probs(w, feats)
        hits += max(range(len(probs)), key=probs.__getitem__) == chosen
        ll += math.log(probs[chosen])
        uniform -= math.log(len(probs))
    n = max(1, len(rows))
    return {"decisions": len(rows), "accuracy": round(hits / n, 3),
            "log_likelihood": round(ll / n, 3), "uniform": round(uniform / n, 3)}


def overlap(records: list[dict], draws: int = 256, seed: int = 1) -> dict:
    """Over the decisions with the opponent's earlier open-stock plays to read: how many cards of his
    real hand a draw of it holds on average, uniform and weighted by ``log_weight``, and the
    weights' effective share of the draws."""
    uniform = weighted = share = 0.0
    n = 0
    for rec in records:
        view = rec["view"]
        past = history(view)
        if not past["steps"]:
            continue
        rng = random.Random(f"{seed}-{rec['pair']}-{n}")
        truth = C.mask_of_codes(rec["opponent_hand"])
        draw = sampling.sixtysix_draws(view, rng)
        hands = [draw()[0] for _ in range(draws)]
        logs = [TEMPER * log_weight(h, past, rng) for h in hands]
        top = max(logs)
        ws = [math.exp(x - top) for x in logs]
        total = sum(ws)
        uniform += sum((h & truth).bit_count() for h in hands) / draws
        weighted += sum(w * (h & truth).bit_count() for w, h in zip(ws, hands)) / total
        share += total * total / sum(w * w for w in ws) / draws
        n += 1
    n = max(1, n)
    return {"decisions": n, "uniform": round(uniform / n, 3), "weighted": round(weighted / n, 3),
            "effective_share": round(share / n, 3)}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--deals", type=int, default=1000)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--level", default="strong")
    p.add_argument("--log", default="sixtysix_reading.jsonl", help="the decisions, one JSON line each")
    p.add_argument("--measure-only", action="store_true", help="read --log instead of playing")
    args = p.parse_args(argv)
    if not args.measure_only:
        with multiprocessing.Pool(args.jobs) as pool, open(args.log, "w") as out:
            tasks = [(args.level, i) for i in range(args.deals)]
            for rows in pool.imap_unordered(_log_deal, tasks):
                out.writelines(json.dumps(row) + "\n" for row in rows)
    records = [json.loads(line) for line in open(args.log)]
    held = {r["pair"] for r in records if r["pair"] % 10 == 0}       # a tenth of the deals
    train = [decision_of(r["view"], r["card"]) for r in records if r["pair"] not in held]
    test = [r for r in records if r["pair"] in held]
    w = fit(train)
    WEIGHTS.update(zip(FEATURES, w))
    print("fitted on", len(train), "decisions; held out:",
          json.dumps(predictions(w, [decision_of(r["view"], r["card"]) for r in test])))
    print("WEIGHTS =", json.dumps({name: round(x, 2) for name, x in zip(FEATURES, w)}))
    print("cards of his real hand in a draw, held out:", json.dumps(overlap(test)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
