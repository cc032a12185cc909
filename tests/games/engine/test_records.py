"""Deal records: every finished deal produces one, and it replays to the same result."""
import copy
import json

import pytest
from hypothesis import given, settings, strategies as st

from games.engine import records
from games.engine.core import get_rules

from .playouts import GAME_VARIANTS, finished_deal


@pytest.mark.parametrize("game,variant", GAME_VARIANTS)
def test_it_writes_a_record_with_the_documented_fields(game, variant):
    rec = finished_deal(game, variant, seed=1).record()
    expected = {"format", "game", "variant", "players", "dealer", "deal_number", "scores_before",
                "hands", "actions", "result"}
    if game == "sixtysix":
        expected |= {"stock", "trump_card"}
    if game == "spades":
        expected |= {"bags_before"}
    assert set(rec) == expected
    assert rec["format"] == "deal-record/1" and rec["game"] == game and rec["variant"] == variant
    assert all(a["seat"] in range(get_rules(game).seats) and "type" in a for a in rec["actions"])
    json.dumps(rec)  # JSON-ready as it is


@settings(max_examples=40, deadline=None)
@given(index=st.integers(0, len(GAME_VARIANTS) - 1), seed=st.integers(0, 2**32))
def test_it_replays_any_produced_record_to_the_same_result(index, seed):
    game, variant = GAME_VARIANTS[index]
    state = finished_deal(game, variant, seed=seed)
    rec = json.loads(json.dumps(state.record()))
    verdict = records.verify(rec)
    assert verdict.finished and verdict.matches and verdict.result == state.result()
    assert records.state_of(rec).record() == rec


@pytest.mark.parametrize("game,variant", GAME_VARIANTS)
def test_it_notices_a_result_that_differs(game, variant):
    rec = finished_deal(game, variant, seed=2).record()
    key = next(iter(rec["result"]))
    rec["result"][key] = "tampered"
    assert not records.verify(rec).matches


@pytest.mark.parametrize("game,variant", GAME_VARIANTS)
def test_it_stops_at_the_first_illegal_action_with_its_step(game, variant):
    rec = finished_deal(game, variant, seed=3).record()
    bad = copy.deepcopy(rec)
    step = len(bad["actions"]) // 2
    bad["actions"][step] = dict(bad["actions"][step], seat=(bad["actions"][step]["seat"] + 1) % len(rec["hands"]))
    with pytest.raises(records.RecordError) as err:
        records.state_of(bad)
    assert err.value.step == step and err.value.reason


def _mutations(rec):
    """Broken headers: each must be refused before any action is replayed."""
    yield "format", dict(rec, format="deal-record/0")
    yield "game", dict(rec, game="bridge")
    yield "variant", dict(rec, variant="nope")
    yield "players", dict(rec, players=rec["players"][:-1])
    yield "dealer", dict(rec, dealer=9)
    first, *rest = rec["hands"]
    yield "duplicate card", dict(rec, hands=[first, [first[0]] + rest[0][1:], *rest[1:]])
    yield "missing card", dict(rec, hands=[first[:-1], *rest])
    yield "bad code", dict(rec, hands=[["ZZ"] + first[1:], *rest])
    yield "hands not a list", dict(rec, hands="AS")


@pytest.mark.parametrize("game,variant", GAME_VARIANTS)
def test_it_refuses_a_header_that_is_not_a_real_deal(game, variant):
    rec = finished_deal(game, variant, seed=4).record()
    for what, bad in _mutations(rec):
        with pytest.raises(records.RecordError) as err:
            records.setup_of(bad)
        assert err.value.step is None, what


def test_it_refuses_what_is_not_an_object():
    for junk in [None, [], "record", 5]:
        with pytest.raises(records.RecordError):
            records.setup_of(junk)


def test_it_refuses_a_sixtysix_deal_of_the_wrong_hand_size_as_a_record_error():
    """The whole deck in equal hands is not enough: kurnik deals six each, so five each (two more
    cards in the stock) is a wrong header, refused by reason, not a crash of the caller."""
    rec = finished_deal("sixtysix", "kurnik", seed=5).record()
    (h0, h1), stock = rec["hands"], rec["stock"]
    bad = dict(rec, hands=[h0[:5], h1[:5]], stock=[h0[5], h1[5], *stock], actions=[])
    del bad["result"]
    with pytest.raises(records.RecordError) as err:
        records.setup_of(bad)
    assert err.value.step is None and "6 cards" in err.value.reason
