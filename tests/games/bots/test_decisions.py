"""Every kind of decision of every game is met by every level, and basic follows its rules."""
from __future__ import annotations

import itertools
import random

import pytest

from games.bots import base, basic, spades_basic, strong
from games.bots import random as random_bot
from games.engine.core import DealSetup, deal, new_state

from .helpers import is_legal, new_deal

LEVELS = [("random", random_bot.choose_action), ("basic", basic.choose_action),
          ("strong", lambda v, r: strong.choose_action(v, r, iterations=3))]


def first_views_where(game, variant, wanted, deals=60, seed=0):
    """Views (one per wanted action kind) met in random play: kind -> view."""
    rng = random.Random(seed)
    found = {}
    for k in range(deals):
        state = new_deal(game, variant, k, rng)
        while not state.is_over() and len(found) < len(wanted):
            seat = state.seats_to_act()[0]
            view = state.view(seat)
            for kind in wanted:
                if kind not in found and wanted[kind](view):
                    found[kind] = view
            state.apply_move(state.random_move(rng), seat)
    return found


def _has(kind, **fields):
    return lambda view: any(a["type"] == kind and all(a.get(f) == v for f, v in fields.items())
                            for a in view["legal"])


DECISIONS = {
    ("sixtysix", "kurnik"): {"exchange": _has("exchange"), "close": _has("close"),
                             "marriage": _has("play", marriage=True), "declare": _has("declare")},
    ("sixtysix", "santase"): {"exchange": _has("exchange"), "marriage": _has("play", marriage=True),
                              "declare_marriage": _has("play", declare=True)},
    ("hearts", "standard"): {"pass": _has("pass"), "play": _has("play")},
    ("spades", "standard"): {"blind_nil": _has("blind_nil"), "bid": _has("bid"), "play": _has("play")},
}


@pytest.mark.parametrize("game,variant", sorted(DECISIONS))
def test_it_meets_every_decision_with_a_legal_action(game, variant):
    wanted = DECISIONS[(game, variant)]
    found = first_views_where(game, variant, wanted)
    assert set(found) == set(wanted)
    for kind, view in found.items():
        for name, choose in LEVELS:
            action = choose(view, random.Random(1))
            assert is_legal(view, action), (name, kind, action)


def moon_view():
    """A finished hearts play where seat 1 took every heart and QS: the moon choice."""
    hands = [["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "2D"],
             ["AC", "AD", "KD", "QD", "JD", "TD", "9D", "8D", "7D", "6D", "5D", "4D", "3D"],
             [f"{r}H" for r in "23456789TJQKA"],
             [f"{r}S" for r in "23456789TJQKA"]]
    state = new_state(DealSetup("hearts", "standard", ["a", "b", "c", "d"], 0, 3, [90, 10, 50, 60], hands))
    rng = random.Random(0)
    while state.phase != 2:
        moves = state.legal_moves()
        seat = state.to_act()
        # seat 1 wins everything by leading its diamonds; others throw points when void.
        pick = max(moves) if seat == 1 else max(moves, key=lambda c: (c // 13 in (2, 3), c))
        state.apply_move(pick)
    return state


def test_it_chooses_the_moon_in_favour_of_the_standing():
    state = moon_view()
    assert state.moon_shooter == 1
    view = state.view(1)
    # Others: 26 onto each opponent ends the game at 116 with the shooter lowest: a win.
    assert basic.choose_action(view) == {"seat": 1, "type": "moon", "choice": "others"}
    assert strong.choose_action(view, random.Random(0))["choice"] == "others"


def hearts_void_state():
    """Seat 1 holds QS and no club; trick 2 is a club lead by seat 2 and seat 1 plays last."""
    hands = [["2C", "3C", "4C", "5C", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH"],
             ["QS", "2D", "3D", "4D", "5D", "6D", "7D", "2S", "3S", "4S", "5S", "6S", "7S"],
             ["6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC", "8D", "9D", "TD", "JD"],
             ["QD", "KD", "AD", "8S", "9S", "TS", "JS", "KS", "AS", "JH", "QH", "KH", "AH"]]
    state = new_state(DealSetup("hearts", "standard", ["a", "b", "c", "d"], 0, 3, [0] * 4, hands))
    for seat, card in ((0, "2C"), (1, "2D"), (2, "6C"), (3, "QD"), (2, "7C"), (3, "KD"), (0, "3C")):
        state.apply({"seat": seat, "type": "play", "card": card})
    return state


def test_it_dumps_the_queen_of_spades_when_void():
    view = hearts_void_state().view(1)
    assert basic.choose_action(view)["card"] == "QS"
    assert strong.choose_action(view, random.Random(0), iterations=20)["card"] == "QS"


def test_it_passes_the_dangerous_cards():
    hands = [["QS", "AS", "KH", "AH", "2C", "3C", "4C", "5D", "6D", "7D", "8D", "9D", "TD"],
             ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "KS", "2H", "3H"],
             ["AC", "KC", "QC", "JC", "TC", "9C", "8C", "7C", "6C", "5C", "4H", "5H", "6H"],
             ["7H", "8H", "9H", "TH", "JH", "QH", "2D", "3D", "4D", "JD", "QD", "KD", "AD"]]
    state = new_state(DealSetup("hearts", "standard", ["a", "b", "c", "d"], 0, 0, [0] * 4, hands))
    action = basic.choose_action(state.view(0))
    assert set(action["cards"]) == {"QS", "AS", "AH"}
    state.apply(action)


def spades_state(hands, dealer=0, scores=(0, 0)):
    return new_state(DealSetup("spades", "standard", ["a", "b", "c", "d"], dealer, 0, list(scores),
                               hands, bags_before=[0, 0]))


SPADES_HANDS = [["AS", "KS", "QS", "JS", "AH", "KH", "AD", "2C", "3C", "4C", "5D", "6D", "2H"],
                ["2S", "3S", "4S", "3H", "4H", "5H", "6C", "7C", "8C", "3D", "4D", "7D", "8D"],
                ["5S", "6S", "7S", "8S", "9S", "TS", "6H", "7H", "8H", "9C", "TC", "JC", "QC"],
                ["9H", "TH", "JH", "QH", "5C", "KC", "AC", "2D", "9D", "TD", "JD", "QD", "KD"]]


def test_it_bids_the_counted_winners():
    hands = [list(h) for h in SPADES_HANDS]
    state = spades_state(hands)
    view = state.view(0)
    bid = basic.choose_action(view)["tricks"]
    counted = spades_basic.spades_count_winners([basic.IDX[c] for c in view["hand"]])
    assert bid == int(counted + 0.5) and 5 <= bid <= 8
    state.apply(basic.choose_action(view))
    # Seat 1 has no winner at all: nil.
    assert basic.choose_action(state.view(1)) == {"seat": 1, "type": "bid", "tricks": 0}
    assert strong.choose_action(state.view(1), random.Random(0), iterations=4)["type"] == "bid"


def test_it_takes_blind_nil_only_far_behind():
    hands = [list(h) for h in SPADES_HANDS]
    far = spades_state(hands, scores=(0, 320)).view(0)
    near = spades_state(hands, scores=(0, 210)).view(0)
    assert far["hand"] == [] and far["legal"][0]["type"] == "blind_nil"
    assert basic.choose_action(far)["accept"] is True
    assert basic.choose_action(near)["accept"] is False
    assert strong.choose_action(far, random.Random(0), iterations=4)["type"] == "blind_nil"


def sixtysix_state(hands, stock, trump, dealer=1, variant="kurnik"):
    return new_state(DealSetup("sixtysix", variant, ["a", "b"], dealer, 0, [0, 0], hands,
                               stock=stock, trump_card=trump))


def test_it_announces_a_marriage_on_lead():
    state = sixtysix_state([["AH", "TH", "9S", "QS", "KS", "9C"], ["JH", "QH", "KH", "JD", "QD", "KD"]],
                           ["AD", "TD", "9D", "AC", "TC", "JC", "QC", "KC", "AS", "TS", "JS"], "9H")
    view = state.view(0)
    action = basic.choose_action(view)
    assert action == {"seat": 0, "type": "play", "card": "QS", "marriage": True}
    assert is_legal(view, strong.choose_action(view, random.Random(0), iterations=10))


def test_it_declares_when_it_has_66():
    rng = random.Random(3)
    seen = 0
    for k in range(80):
        state = deal("sixtysix", "kurnik", rng=rng, dealer=k % 2)
        while not state.is_over():
            seat = state.to_act()
            view = state.view(seat)
            if view["my_points"] >= 66 and any(a["type"] == "declare" for a in view["legal"]):
                assert basic.choose_action(view)["type"] == "declare"
                assert strong.choose_action(view, random.Random(0))["type"] == "declare"
                seen += 1
                break
            state.apply_move(state.random_move(rng))
    assert seen >= 3


def test_it_exchanges_the_lowest_trump_when_it_may():
    rng = random.Random(4)
    for k in range(200):
        state = deal("sixtysix", "kurnik", rng=rng)
        while not state.is_over():
            view = state.view(state.to_act())
            if any(a["type"] == "exchange" for a in view["legal"]) and view["my_points"] < 66:
                assert basic.choose_action(view)["type"] == "exchange"
                return
            state.apply_move(state.random_move(rng))
    pytest.fail("no exchange met")


def test_it_closes_when_safe():
    hands = [["AH", "TH", "AD", "TD", "AC", "TC"], ["9H", "JH", "9D", "JD", "9C", "JC"]]
    stock = ["AS", "KH", "TS", "QH", "KS", "KD", "QD", "QC", "KC", "JS", "QS"]
    state = sixtysix_state(hands, stock, "9S")
    for lead, follow in (("AH", "9H"), ("TH", "JH"), ("AD", "9D")):
        state.apply({"seat": 0, "type": "play", "card": lead})
        state.apply({"seat": 1, "type": "play", "card": follow})
    view = state.view(0)
    assert view["my_points"] == 34 and sorted(view["hand"]) == ["AC", "AS", "KS", "TC", "TD", "TS"]
    # 34 taken, AS TS KS draw the trumps, then AC and TD: 66 is safe, so close.
    assert basic.choose_action(view) == {"seat": 0, "type": "close"}
    assert is_legal(view, strong.choose_action(view, random.Random(0), iterations=10))


def test_it_takes_the_trump_ten_with_the_trump_jack_before_the_stock_runs_out(monkeypatch):
    # Schnapsen, trumps spades, TS face up, one face-down card left: seat 1 holds JS and leads. If
    # it leads without exchanging and wins, the opponent draws TS; the exchange is now or never.
    state = sixtysix_state([["KH", "QC", "AC", "JH", "AS"], ["TC", "KC", "AD", "QS", "KD"]],
                           ["JD", "AH", "JC", "TH", "QH", "JS", "KS", "TD", "QD"], "TS",
                           variant="schnapsen", dealer=0)
    for seat, card, marriage in ((1, "TC", False), (0, "JH", False), (1, "JD", False), (0, "AS", False),
                                 (0, "QC", False), (1, "KD", False), (0, "QH", True), (1, "QS", False)):
        state.apply({"seat": seat, "type": "play", "card": card, **({"marriage": True} if marriage else {})})
    view = state.view(1)
    assert view["hand"] == ["KC", "AD", "TH", "JS", "KS"] and view["stock_size"] == 1
    assert strong.choose_action(view, random.Random(0), iterations=60) == {"seat": 1, "type": "exchange"}
    # Its time budget read on a clock that moves only when read, not with the machine's speed.
    reads = itertools.count()
    monkeypatch.setattr(base, "clock", lambda: next(reads) * 0.0005)
    assert strong.choose_action(view, random.Random(1)) == {"seat": 1, "type": "exchange"}


def test_it_answers_a_clear_decision_well_before_its_draw_limit(monkeypatch):
    # The exchange above is worth about 2 game points more than anything else: the paired bounds
    # separate it after a few dozen draws. The clock never moves here, so only they can stop it.
    monkeypatch.setattr(base, "clock", lambda: 0.0)
    state = sixtysix_state([["KH", "QC", "AC", "JH", "AS"], ["TC", "KC", "AD", "QS", "KD"]],
                           ["JD", "AH", "JC", "TH", "QH", "JS", "KS", "TD", "QD"], "TS",
                           variant="schnapsen", dealer=0)
    for seat, card, marriage in ((1, "TC", False), (0, "JH", False), (1, "JD", False), (0, "AS", False),
                                 (0, "QC", False), (1, "KD", False), (0, "QH", True), (1, "QS", False)):
        state.apply({"seat": seat, "type": "play", "card": card, **({"marriage": True} if marriage else {})})
    view = state.view(1)
    result = strong._run(view, view["legal"], random.Random(0), 200, None, 800, race=True)
    assert view["legal"][result["choice"]]["type"] == "exchange"
    assert result["draws"] < strong.MAX_ITERATIONS // 2


def test_it_plays_an_exact_endgame_it_can_infer_from_the_tricks_it_saw():
    # Kurnik, the stock is gone: every card not in seat 0's hand was played or is in seat 1's, and
    # seat 0 remembers the tricks. Only some leads keep its 2 game points (exact values below);
    # the old bot, blind to the tricks, led 9S and got 1.
    from games.bots import sixtysix_solver
    state = sixtysix_state([["TH", "AS", "9S", "AC", "KH", "9C"], ["QC", "QS", "AD", "KC", "9H", "KD"]],
                           ["KS", "JS", "9D", "QD", "JH", "QH", "AH", "TD", "JC", "JD", "TS"], "TC")
    for seat, card in ((0, "AS"), (1, "AD"), (0, "TH"), (1, "JS"), (0, "AC"), (1, "QS"), (0, "9D"),
                       (1, "KD"), (1, "9H"), (0, "KH"), (0, "9C"), (1, "QH")):
        state.apply({"seat": seat, "type": "play", "card": card})
    view = state.view(0)
    assert view["hand"] == ["JC", "TD", "JH", "9S", "KS", "TS"] and view["phase"] == "play2"
    values = {}
    for a in view["legal"]:
        s = state.clone()
        s.apply(a)
        values[a.get("card", a["type"])] = (s.game_points[0] - s.game_points[1] if s.is_over()
                                            else sixtysix_solver.solve(s, 0))
    assert values["9S"] < max(values.values())
    best = {c for c, v in values.items() if v == max(values.values())}
    for seed in range(3):
        assert strong.choose_action(view, random.Random(seed))["card"] in best
        assert strong.choose_action(view, random.Random(seed), iterations=2)["card"] in best
