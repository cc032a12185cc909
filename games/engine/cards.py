"""Card codes and bitmasks.

A card is an int 0..51: ``suit * 13 + rank`` with suits C D H S and ranks 2..A, so a hand is an int
bitmask and the cards of one suit are one contiguous 13-bit field. Games that order ranks differently
(Sixty-six: 9 J Q K T A) keep their own strength tables; the index is only an identity.
"""
from __future__ import annotations

import re
import secrets
from typing import Iterable, Iterator

RANKS = "23456789TJQKA"
SUITS = "CDHS"
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)

CODES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
INDEX: dict[str, int] = {c: i for i, c in enumerate(CODES)}
CODE_RE = re.compile(r"^[2-9TJQKA][CDHS]$")

SUIT_OF: tuple[int, ...] = tuple(i // 13 for i in range(52))
RANK_OF: tuple[int, ...] = tuple(i % 13 for i in range(52))
SUIT_MASK: tuple[int, ...] = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
BIT: tuple[int, ...] = tuple(1 << i for i in range(52))
FULL_DECK = (1 << 52) - 1


def card(code: str) -> int:
    """The index of a card code such as ``"QS"``; ValueError for anything else."""
    try:
        return INDEX[code]
    except (KeyError, TypeError):
        raise ValueError(f"{code!r} is not a card") from None


def code(c: int) -> str:
    return CODES[c]


def make(rank: str, suit: int) -> int:
    return suit * 13 + RANKS.index(rank)


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def mask_of_codes(codes: Iterable[str]) -> int:
    return mask_of(card(c) for c in codes)


def iter_cards(mask: int) -> Iterator[int]:
    """The cards of a mask, lowest index first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def cards_of(mask: int) -> list[int]:
    """The cards of a mask, lowest index first (an inline loop: this is on the hot path)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def codes_of(mask: int) -> list[str]:
    """Codes in index order (clubs, diamonds, hearts, spades; low to high within a suit)."""
    return [CODES[c] for c in iter_cards(mask)]


def lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def highest(mask: int) -> int:
    return mask.bit_length() - 1


def deck_of_ranks(ranks: str) -> int:
    """The mask of every card whose rank is in ``ranks`` (e.g. ``"9TJQKA"``)."""
    return mask_of(make(r, s) for s in range(4) for r in ranks)


def shuffled(cards: Iterable[int], rng=None) -> list[int]:
    """A shuffled copy. Production passes no rng: the shuffle then comes from the OS's
    cryptographic source (``secrets``), read once per deal instead of once per swap."""
    deck = list(cards)
    if rng is not None:
        rng.shuffle(deck)
        return deck
    # Fisher-Yates with 64-bit draws: the modulo bias (< 52 / 2**64) is far below detectability.
    entropy = secrets.token_bytes(8 * len(deck))
    for i in range(len(deck) - 1, 0, -1):
        j = int.from_bytes(entropy[8 * i:8 * i + 8], "little") % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck
