"""Deal records (docs/RECORDS.md): from a record back to a state, checked step by step.

A record may come from anywhere (an upload, a file on the command line), so everything in it is
checked before the engine sees it: the header must describe a real deal of its game, and every action
goes through ``State.apply`` with the same reasons a player at the table would get.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable

from . import cards as C
from .core import DealSetup, IllegalAction, State, get_rules, new_state

FORMAT = "deal-record/1"


class RecordError(Exception):
    """A record that cannot be replayed. ``step`` is the index of the refused action, or None when
    the header itself is wrong."""

    def __init__(self, reason: str, step: int | None = None, action: Any = None):
        where = "record" if step is None else f"step {step}"
        super().__init__(f"{where}: {reason}")
        self.reason = reason
        self.step = step
        self.action = action


@dataclass(frozen=True)
class Parsed:
    """One record read from a text: where it was (its line, or its place in a JSON list), the
    record, or why that line is not JSON (the decoder's message; the record is then None)."""
    line: int
    record: Any
    error: str | None = None


def parse_records(text: str) -> list[Parsed]:
    """The records a text holds: one JSON document (a JSON list is a list of records, each numbered
    by its place from 1), or JSON lines, one record a line (blank lines skipped; a line that is
    not JSON is kept with its error, so every other record can still be checked)."""
    try:
        doc = json.loads(text)
    except ValueError:
        pass
    else:
        if isinstance(doc, list):
            return [Parsed(place, record) for place, record in enumerate(doc, 1)]
        return [Parsed(1, doc)]
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                out.append(Parsed(number, json.loads(line)))
            except ValueError as exc:
                out.append(Parsed(number, None, str(exc)))
    return out


def _require(cond: bool, reason: str) -> None:
    if not cond:
        raise RecordError(reason)


def _int_list(value: Any, length: int, name: str) -> list[int]:
    _require(isinstance(value, list) and len(value) == length
             and all(isinstance(v, int) and not isinstance(v, bool) for v in value),
             f"{name} must be a list of {length} integers")
    return list(value)


def _codes(value: Any, name: str) -> list[str]:
    _require(isinstance(value, list) and all(isinstance(c, str) and C.CODE_RE.match(c) for c in value),
             f"{name} must be a list of card codes")
    return list(value)


def setup_of(record: Any) -> DealSetup:
    """The DealSetup a record starts from, after checking that its header is a real deal."""
    setup = _header_of(record)
    _initial_state(setup)
    return setup


def _header_of(record: Any) -> DealSetup:
    _require(isinstance(record, dict), "a deal record must be a JSON object")
    _require(record.get("format") == FORMAT, f"format must be {FORMAT!r}")
    try:
        rules = get_rules(record.get("game"))
        variant = rules.check_variant(record.get("variant"))
    except (ValueError, TypeError) as exc:
        raise RecordError(str(exc)) from None
    seats = rules.seats
    players = record.get("players")
    _require(isinstance(players, list) and len(players) == seats
             and all(isinstance(p, str) for p in players), f"players must name {seats} seats")
    dealer = record.get("dealer")
    _require(isinstance(dealer, int) and not isinstance(dealer, bool) and 0 <= dealer < seats,
             "dealer must be a seat index")
    deal_number = record.get("deal_number", 0)
    _require(isinstance(deal_number, int) and deal_number >= 0, "deal_number must be >= 0")
    n_scores = len(rules.initial_scores(variant))
    scores = _int_list(record.get("scores_before", rules.initial_scores(variant)), n_scores, "scores_before")
    bags = rules.initial_bags(variant)
    if bags is not None:
        bags = _int_list(record.get("bags_before", bags), len(bags), "bags_before")

    hands = record.get("hands")
    _require(isinstance(hands, list) and len(hands) == seats, f"hands must list {seats} hands")
    hands = [_codes(h, f"hands[{i}]") for i, h in enumerate(hands)]
    stock = trump_card = None
    dealt = [c for h in hands for c in h]
    if "stock" in record or "trump_card" in record or rules.name == "sixtysix":
        stock = _codes(record.get("stock"), "stock")
        trump_card = record.get("trump_card")
        _require(isinstance(trump_card, str) and bool(C.CODE_RE.match(trump_card)),
                 "trump_card must be a card code")
        dealt += stock + [trump_card]
    _require(len(dealt) == len(set(dealt)), "a card is dealt twice")
    _require(C.mask_of_codes(dealt) == C.mask_of(rules.deck(variant)),
             f"the cards dealt are not the {rules.name} {variant} deck")
    sizes = {len(h) for h in hands}
    _require(len(sizes) == 1, "the hands are not of equal size")

    return DealSetup(game=rules.name, variant=variant, players=list(players), dealer=dealer,
                     deal_number=deal_number, scores_before=scores, bags_before=bags,
                     hands=hands, stock=stock, trump_card=trump_card)


def _initial_state(setup: DealSetup) -> State:
    try:
        # The game's own checks of a deal (Sixty-six: the hand size of the variant) run where a
        # state is built; a record that fails them is a wrong header, not a caller's crash.
        return new_state(setup)
    except ValueError as exc:
        raise RecordError(str(exc)) from None


def state_of(record: Any, on_step: Callable[[int, State, Any], None] | None = None) -> State:
    """Replay a record: the state after all its actions. ``on_step(step, state, action)`` is called
    before each action. Raises RecordError at the first action the engine refuses."""
    state = _initial_state(_header_of(record))
    actions = record.get("actions", [])
    _require(isinstance(actions, list), "actions must be a list")
    for step, action in enumerate(actions):
        if on_step is not None:
            on_step(step, state, action)
        try:
            state.apply(action)
        except IllegalAction as exc:
            raise RecordError(exc.reason, step, action) from None
    return state


@dataclass
class Verdict:
    result: dict | None        # what the engine computed (None while the deal is unfinished)
    matches: bool              # the record's own result, if any, equals the computed one
    finished: bool


def verify(record: Any) -> Verdict:
    """Replay a record and compare the computed result with the one it states."""
    state = state_of(record)
    result = state.result() if state.is_over() else None
    stated = record.get("result")
    matches = stated is None or stated == result
    return Verdict(result=result, matches=matches, finished=state.is_over())
