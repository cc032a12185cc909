"""Provably fair deals: a deck that is a documented function of committed seeds (docs/FAIRNESS.md).

The server draws a secret server seed and publishes its SHA-256 (the commitment) before anyone
adds a client seed; the deck is then a deterministic function of (server seed, client seeds,
label, deal number): HMAC-SHA256 keyed by the server seed over the serialised context gives a
deal key; HMAC-SHA256 of a counter under that key is a stream of bytes; 32-bit words of it, by
rejection sampling, drive a Fisher-Yates shuffle of the game's starting deck; the rules then
deal it (``GameRules.deal_cards``). Once the server seed is revealed anyone can recompute it.

``label`` names what the deal belongs to: ``"match:<id>"`` for a table's match; a duplicate
tournament derives every board of a round from one seed with ``"round:<tournament>-<round>"``
(``round_label``), the board's index as the deal number and no client seeds.
Pure Python, no Django: the same module serves the site, ``games.engine.verify`` and tests.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Sequence

DERIVATION = "cardroom-hmac-sha256-fisher-yates/1"
DOMAIN = "cardroom-deal/1"          # the first element of the serialised context
SEED_BYTES = 32
CLIENT_SEED_RE = re.compile(r"^[0-9a-f]{32,128}$")      # 16 to 64 bytes, lowercase hex
LABEL_RE = re.compile(r"^[A-Za-z0-9._:/-]{1,64}$")
HEX64_RE = re.compile(r"^[0-9a-f]{64}$")


# --- seeds and the commitment ------------------------------------------------------------------------
def new_server_seed() -> bytes:
    """A fresh secret server seed (32 bytes from the OS's cryptographic source)."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(server_seed: bytes) -> str:
    """What the server publishes before the deal: SHA-256 of the raw seed bytes, lowercase hex."""
    return hashlib.sha256(server_seed).hexdigest()


def is_client_seed(value: Any) -> bool:
    return isinstance(value, str) and bool(CLIENT_SEED_RE.match(value))


def match_label(match_id: int) -> str:
    return f"match:{int(match_id)}"


def round_label(tournament_id: int, round_number: int) -> str:
    """A duplicate tournament's round: every table of it derives board k from this label."""
    return f"round:{int(tournament_id)}-{int(round_number)}"


# --- the DRBG --------------------------------------------------------------------------------------
def context_bytes(label: str, deal_number: int, client_seeds: Sequence[str | None]) -> bytes:
    """The serialised context: compact JSON (no spaces) of ``[DOMAIN, label, deal_number,
    client_seeds]``, UTF-8. Every string in it is ASCII from a closed alphabet, so any JSON
    encoder that writes no whitespace (Python's with these separators, JavaScript's
    JSON.stringify) gives the same bytes."""
    if not isinstance(label, str) or not LABEL_RE.match(label):
        raise ValueError(f"label must match {LABEL_RE.pattern}")
    if not isinstance(deal_number, int) or isinstance(deal_number, bool) or not 0 <= deal_number < 2 ** 53:
        raise ValueError("deal_number must be an integer from 0 to 2**53 - 1")
    seeds = list(client_seeds)
    if any(s is not None and not is_client_seed(s) for s in seeds):
        raise ValueError("a client seed must be 32 to 128 lowercase hex digits, or null")
    return json.dumps([DOMAIN, label, deal_number, seeds], separators=(",", ":")).encode("ascii")


@dataclass
class Drbg:
    """HMAC-SHA256 in counter mode under a per-deal key: block i = HMAC(deal_key, uint32be(i))."""

    deal_key: bytes
    _buffer: bytes = b""
    _counter: int = 0

    @classmethod
    def for_deal(cls, server_seed: bytes, context: bytes) -> "Drbg":
        return cls(hmac.new(server_seed, context, hashlib.sha256).digest())

    def _block(self) -> bytes:
        block = hmac.new(self.deal_key, self._counter.to_bytes(4, "big"), hashlib.sha256).digest()
        self._counter += 1
        return block

    def word(self) -> int:
        """The next 32-bit big-endian word of the stream."""
        if len(self._buffer) < 4:
            self._buffer += self._block()
        out, self._buffer = self._buffer[:4], self._buffer[4:]
        return int.from_bytes(out, "big")

    def below(self, n: int) -> int:
        """A uniform integer in [0, n): words at or above the largest multiple of n that fits in
        32 bits are thrown away and the next one is drawn (no modulo bias)."""
        if not 1 <= n <= 2 ** 32:
            raise ValueError("n must be in 1..2**32")
        limit = 2 ** 32 - (2 ** 32 % n)
        while True:
            w = self.word()
            if w < limit:
                return w % n


def shuffle(cards: Sequence[int], server_seed: bytes, client_seeds: Sequence[str | None],
            label: str, deal_number: int) -> list[int]:
    """Fisher-Yates over ``cards`` driven by the deal's DRBG: for i from the last index down to 1,
    swap position i with position ``below(i + 1)``."""
    if not isinstance(server_seed, (bytes, bytearray)) or len(server_seed) != SEED_BYTES:
        raise ValueError(f"the server seed must be {SEED_BYTES} bytes")
    drbg = Drbg.for_deal(bytes(server_seed), context_bytes(label, deal_number, client_seeds))
    deck = list(cards)
    for i in range(len(deck) - 1, 0, -1):
        j = drbg.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


# --- a deal from its seeds -----------------------------------------------------------------------
@dataclass(frozen=True)
class DealSeeds:
    """What a fair deal's deck comes from (the server seed is secret until the deal may be shown)."""

    server_seed: bytes
    client_seeds: tuple[str | None, ...]
    label: str
    # A duplicate round's board: the derivation's deal number when it is not the match's deal
    # index (a table plays the round's boards in its own order; the record says ``fair.board``).
    board: int | None = None

    def fair_object(self, *, reveal: bool = False) -> dict:
        out = fair_object(self.server_seed, self.client_seeds, self.label, reveal=reveal)
        if self.board is not None:
            out["board"] = self.board
        return out

    def number(self, deal_number: int) -> int:
        """The deal number the deck is derived with: the board's, else the match's."""
        return deal_number if self.board is None else self.board


def deal_from_seeds(rules, variant: str, dealer: int, seeds: DealSeeds, deal_number: int) -> dict:
    """What ``rules.deal_cards`` (a game's ``GameRules``) gives for the deck these seeds derive:
    ``{"hands": ...}`` plus, in Sixty-six, ``"stock"`` and ``"trump_card"``. The rules are given,
    not looked up: the registry (core.py) deals through this module."""
    variant = rules.check_variant(variant)
    deck = shuffle(rules.deck(variant), seeds.server_seed, seeds.client_seeds, seeds.label, seeds.number(deal_number))
    return rules.deal_cards(variant, dealer, deck)


def fair_object(server_seed: bytes, client_seeds: Sequence[str | None], label: str, *,
                reveal: bool = False) -> dict:
    """The deal record's ``fair`` object; ``server_seed`` only when ``reveal``."""
    out = {"derivation": DERIVATION, "commitment": commitment(server_seed), "label": label,
           "client_seeds": list(client_seeds)}
    if reveal:
        out["server_seed"] = server_seed.hex()
    return out


# --- checking a record ---------------------------------------------------------------------------
class NotVerified(Exception):
    """Why a record's deal is not the one its seeds derive (a sentence a person can read)."""


def dealt_cards(record: dict) -> dict:
    """The record's cards in ``deal_cards`` form."""
    out = {"hands": record.get("hands")}
    if "stock" in record or "trump_card" in record:
        out["stock"] = record.get("stock")
        out["trump_card"] = record.get("trump_card")
    return out


def differences(expected: dict, actual: dict) -> Iterator[str]:
    """Where a record's cards differ from the derived deal, one sentence per place."""
    for s, (want, got) in enumerate(zip(expected["hands"], actual.get("hands") or [])):
        if want != got:
            yield f"hand of seat {s} is {got}, the seeds deal {want}"
    if len(expected["hands"]) != len(actual.get("hands") or []):
        yield "the number of hands differs from the derived deal"
    for key in ("stock", "trump_card"):
        if key in expected and expected[key] != actual.get(key):
            yield f"{key} is {actual.get(key)}, the seeds deal {expected[key]}"


def check_record(record: Any, rules_of: Callable[[str], Any]) -> dict:
    """Verify a deal record's ``fair`` object; returns the derived deal, raises NotVerified.
    ``rules_of`` is the registry's lookup of a game's rules by name (``core.get_rules``)."""
    if not isinstance(record, dict):
        raise NotVerified("a deal record must be a JSON object")
    fair = record.get("fair")
    if not isinstance(fair, dict):
        raise NotVerified("the record has no fair object (it was not dealt from committed seeds)")
    if fair.get("derivation") != DERIVATION:
        raise NotVerified(f"unknown derivation {fair.get('derivation')!r} (this verifier knows {DERIVATION})")
    commit = fair.get("commitment")
    if not isinstance(commit, str) or not HEX64_RE.match(commit):
        raise NotVerified("the commitment must be 64 lowercase hex digits")
    seed_hex = fair.get("server_seed")
    if seed_hex is None:
        raise NotVerified("the server seed is not revealed yet (it is, once the deal may be shown)")
    if not isinstance(seed_hex, str) or not HEX64_RE.match(seed_hex):
        raise NotVerified("the server seed must be 64 lowercase hex digits")
    seed = bytes.fromhex(seed_hex)
    if commitment(seed) != commit:
        raise NotVerified("the commitment does not match the server seed")
    client_seeds = fair.get("client_seeds")
    players = record.get("players")
    if not isinstance(client_seeds, list) or (isinstance(players, list) and len(client_seeds) != len(players)):
        raise NotVerified("client_seeds must list one seed (or null) per seat")
    try:
        board = fair.get("board")
        if board is not None and (not isinstance(board, int) or isinstance(board, bool)):
            raise NotVerified("board must be an integer")
        seeds = DealSeeds(seed, tuple(client_seeds), fair.get("label"), board)
        expected = deal_from_seeds(rules_of(record.get("game")), record.get("variant"),
                                   record.get("dealer"), seeds, record.get("deal_number", 0))
    except (ValueError, TypeError, IndexError) as exc:
        raise NotVerified(f"cannot derive the deal: {exc}") from None
    diff = list(differences(expected, dealt_cards(record)))
    if diff:
        raise NotVerified("the cards differ from the derived deal: " + "; ".join(diff))
    return expected
