"""Provably fair deals, the pure part: the commitment, the DRBG, the shuffle and the record check
(games/engine/fair.py, docs/FAIRNESS.md)."""
import copy
import hashlib
import hmac
import json

import pytest
from hypothesis import given, settings, strategies as st

from games.engine import cards as C, fair
from games.engine.core import Match, deal, get_rules

from .playouts import GAME_VARIANTS

seeds_ = st.binary(min_size=32, max_size=32)
client_seed_ = st.one_of(st.none(), st.text("0123456789abcdef", min_size=32, max_size=128)
                         .filter(lambda s: len(s) % 2 == 0))
label_ = st.from_regex(r"\A(match|round):[0-9]{1,9}\Z")
deal_number_ = st.integers(min_value=0, max_value=2 ** 40)
game_variant_ = st.sampled_from(GAME_VARIANTS)


def documented_shuffle(cards, server_seed, client_seeds, label, deal_number):
    """docs/FAIRNESS.md followed line by line, independently of fair.py."""
    context = json.dumps(["cardroom-deal/1", label, deal_number, list(client_seeds)],
                         separators=(",", ":")).encode()
    key = hmac.new(server_seed, context, hashlib.sha256).digest()
    stream = b"".join(hmac.new(key, i.to_bytes(4, "big"), hashlib.sha256).digest() for i in range(64))
    words = (int.from_bytes(stream[k:k + 4], "big") for k in range(0, len(stream), 4))
    deck = list(cards)
    for i in range(len(deck) - 1, 0, -1):
        n = i + 1
        w = next(words)
        while w >= 2 ** 32 - 2 ** 32 % n:
            w = next(words)
        j = w % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def test_the_commitment_is_the_sha256_of_the_seed_and_seeds_are_fresh():
    seed = fair.new_server_seed()
    assert len(seed) == 32 and fair.new_server_seed() != seed
    assert fair.commitment(seed) == hashlib.sha256(seed).hexdigest()


def test_a_known_answer_pins_the_derivation():
    """The vector of docs/FAIRNESS.md: changing the derivation must change its name."""
    seed = bytes(range(32))
    assert fair.commitment(seed) == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    assert fair.context_bytes("match:1", 0, ["00" * 16, None, None, None]) == \
        b'["cardroom-deal/1","match:1",0,["00000000000000000000000000000000",null,null,null]]'
    assert fair.shuffle(range(52), seed, ["00" * 16, None, None, None], "match:1", 0)[:8] == \
        [4, 27, 21, 32, 7, 50, 30, 16]


@settings(max_examples=60, deadline=None)
@given(seeds_, st.lists(client_seed_, min_size=2, max_size=4), label_, deal_number_, game_variant_)
def test_the_shuffle_is_what_the_document_says_and_a_permutation(seed, client_seeds, label, number, gv):
    cards = get_rules(gv[0]).deck(gv[1])
    deck = fair.shuffle(cards, seed, client_seeds, label, number)
    assert deck == documented_shuffle(cards, seed, client_seeds, label, number)
    assert sorted(deck) == sorted(cards)
    assert fair.shuffle(cards, seed, client_seeds, label, number) == deck       # deterministic


@settings(max_examples=60, deadline=None)
@given(seeds_, seeds_, st.lists(client_seed_, min_size=4, max_size=4), label_, deal_number_,
       st.text("0123456789abcdef", min_size=32, max_size=32))
def test_any_change_of_an_input_changes_the_deck(seed, other_seed, client_seeds, label, number, new_client):
    cards = list(range(52))
    deck = fair.shuffle(cards, seed, client_seeds, label, number)
    if other_seed != seed:
        assert fair.shuffle(cards, other_seed, client_seeds, label, number) != deck
    changed = list(client_seeds)
    changed[1] = new_client if changed[1] != new_client else None
    assert fair.shuffle(cards, seed, changed, label, number) != deck
    assert fair.shuffle(cards, seed, client_seeds, label + "0", number) != deck
    assert fair.shuffle(cards, seed, client_seeds, label, number + 1) != deck


def test_below_rejects_the_words_that_would_bias_it():
    class Scripted(fair.Drbg):
        def __init__(self, words):
            super().__init__(b"")
            self.words = list(words)

        def word(self):
            return self.words.pop(0)
    # n = 3: 2**32 % 3 == 1, so the single word 2**32 - 1 is rejected and the next one used.
    drbg = Scripted([2 ** 32 - 1, 7])
    assert drbg.below(3) == 1 and drbg.words == []
    assert Scripted([2 ** 32 - 2]).below(3) == (2 ** 32 - 2) % 3


@pytest.mark.parametrize("bad", ["", "ABCDEF" * 8, "ab" * 15, "ab" * 65, 123, "zz" * 16])
def test_it_refuses_malformed_client_seeds(bad):
    with pytest.raises(ValueError):
        fair.context_bytes("match:1", 0, [bad])


@pytest.mark.parametrize("label", ["", "match 1", "match:\u00e9", "x" * 65, 'a"b'])
def test_it_refuses_labels_outside_the_alphabet(label):
    with pytest.raises(ValueError):
        fair.context_bytes(label, 0, [])


@pytest.mark.parametrize("game,variant", GAME_VARIANTS)
def test_a_deal_from_seeds_is_the_rules_deal_of_the_derived_deck_and_carries_its_fair_object(game, variant):
    seeds = fair.DealSeeds(fair.new_server_seed(), ("ab" * 16,) + (None,) * (get_rules(game).seats - 1), "match:5")
    state = deal(game, variant, dealer=1, deal_number=3, seeds=seeds)
    rules = get_rules(game)
    deck = fair.shuffle(rules.deck(variant), seeds.server_seed, seeds.client_seeds, "match:5", 3)
    dealt = rules.deal_cards(variant, 1, deck)
    assert state.setup.hands == dealt["hands"]
    assert state.setup.stock == dealt.get("stock") and state.setup.trump_card == dealt.get("trump_card")
    record = state.record()
    assert record["fair"] == {"derivation": fair.DERIVATION, "commitment": fair.commitment(seeds.server_seed),
                              "label": "match:5", "client_seeds": list(seeds.client_seeds)}
    assert seeds.server_seed.hex() not in json.dumps(record)
    all_cards = [c for h in state.setup.hands for c in h] + (state.setup.stock or []) + \
        ([state.setup.trump_card] if state.setup.trump_card else [])
    assert C.mask_of_codes(all_cards) == C.mask_of(rules.deck(variant)) and len(all_cards) == len(set(all_cards))


def revealed_record(game="hearts", variant="standard"):
    seed = fair.new_server_seed()
    n = get_rules(game).seats
    match = Match.start(game, variant, first_dealer=2 % n)
    match.deal_number = 4
    state = match.new_deal(seeds=fair.DealSeeds(seed, ("12" * 20,) + (None,) * (n - 1), "match:9"))
    record = state.record()
    record["fair"]["server_seed"] = seed.hex()
    return record


@pytest.mark.parametrize("game,variant", GAME_VARIANTS)
def test_a_revealed_record_verifies(game, variant):
    assert fair.check_record(revealed_record(game, variant), get_rules)["hands"]


def _fails(record, words):
    with pytest.raises(fair.NotVerified) as err:
        fair.check_record(record, get_rules)
    assert words in str(err.value)


def test_a_changed_seed_client_seed_card_or_context_fails_with_its_reason():
    good = revealed_record()
    rec = copy.deepcopy(good)
    rec["fair"]["server_seed"] = fair.new_server_seed().hex()
    _fails(rec, "commitment does not match")
    rec = copy.deepcopy(good)
    rec["fair"]["client_seeds"][0] = "34" * 20
    _fails(rec, "cards differ")
    rec = copy.deepcopy(good)
    h0, h1 = rec["hands"][0], rec["hands"][1]
    h0[0], h1[0] = h1[0], h0[0]
    _fails(rec, "hand of seat 0")
    rec = copy.deepcopy(good)
    rec["deal_number"] += 1
    _fails(rec, "cards differ")
    rec = copy.deepcopy(good)
    rec["dealer"] = (rec["dealer"] + 1) % 4
    _fails(rec, "cards differ")
    rec = copy.deepcopy(good)
    del rec["fair"]["server_seed"]
    _fails(rec, "not revealed")
    rec = copy.deepcopy(good)
    del rec["fair"]
    _fails(rec, "no fair object")


def test_a_changed_stock_or_trump_card_fails_in_sixtysix():
    good = revealed_record("sixtysix", "santase")
    rec = copy.deepcopy(good)
    rec["stock"][0], rec["stock"][1] = rec["stock"][1], rec["stock"][0]
    _fails(rec, "stock is")
    rec = copy.deepcopy(good)
    rec["trump_card"], rec["stock"][-1] = rec["stock"][-1], rec["trump_card"]
    _fails(rec, "trump_card is")
