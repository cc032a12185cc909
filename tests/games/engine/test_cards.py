import random

import pytest

from games.engine import cards as C


def test_it_round_trips_every_code():
    assert len(C.CODES) == 52
    for i, code in enumerate(C.CODES):
        assert C.card(code) == i and C.code(i) == code


def test_it_refuses_what_is_not_a_card():
    for junk in ["", "1S", "QX", "qs", "10H", None, 5]:
        with pytest.raises(ValueError):
            C.card(junk)


def test_it_lays_out_one_suit_per_13_bit_field():
    assert C.codes_of(C.SUIT_MASK[C.SPADES]) == [r + "S" for r in C.RANKS]
    assert C.card("2C") == 0 and C.card("AS") == 51


def test_it_converts_between_masks_and_cards():
    cards = [C.card(c) for c in ["QS", "9C", "TH"]]
    mask = C.mask_of(cards)
    assert mask.bit_count() == 3
    assert C.cards_of(mask) == sorted(cards)
    assert C.codes_of(mask) == ["9C", "TH", "QS"]
    assert C.lowest(mask) == C.card("9C") and C.highest(mask) == C.card("QS")


def test_it_builds_the_small_decks_by_rank():
    assert C.deck_of_ranks("9TJQKA").bit_count() == 24
    assert C.deck_of_ranks("TJQKA").bit_count() == 20


def test_it_shuffles_a_copy_and_keeps_every_card():
    deck = list(range(52))
    shuffled = C.shuffled(deck)
    assert sorted(shuffled) == deck and shuffled is not deck
    assert C.shuffled(deck, random.Random(1)) == C.shuffled(deck, random.Random(1))


def test_its_cryptographic_shuffle_puts_every_card_everywhere():
    # 4,000 shuffles of 4 cards: each card lands in each position about 1,000 times.
    counts = [[0] * 4 for _ in range(4)]
    for _ in range(4000):
        for pos, c in enumerate(C.shuffled(range(4))):
            counts[c][pos] += 1
    assert all(800 < n < 1200 for row in counts for n in row)
