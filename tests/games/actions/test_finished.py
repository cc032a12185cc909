"""The writers of finished tables (games/actions/finished.py): a match played outside any table
stored as a finished one, and a duplicate table's deals revealed as a versioned change."""
from __future__ import annotations

import json
import random

import pytest

from games import bots, loading, presence, services
from realtime.addresses import ToSeat
from games.engine.core import Match as EngineMatch
from games.models import Deal, Seat, Table

pytestmark = pytest.mark.django_db(transaction=True)


def finished_match(make_user):
    """A whole match of two players played through the engine, as puzzles' demo plays one."""
    rng = random.Random("finished")
    engine = EngineMatch.start("sixtysix", players=["ala", "ola"], first_dealer=0)
    records = []
    while not engine.is_over():
        state = engine.new_deal(rng)
        while not state.is_over():
            seat = state.seats_to_act()[0]
            state.apply(bots.choose_action("random", state.view(seat), rng))
        records.append(state.record())
        engine.finish_deal(state)
    players = [make_user("ala"), make_user("ola")]
    return services.store_finished_match("sixtysix", engine, records, players), engine, records, players


def test_a_match_played_elsewhere_is_stored_as_a_finished_table(make_user):
    stored, engine, records, players = finished_match(make_user)
    table = Table.objects.get(pk=stored.table_id)
    assert table.status == Table.Status.FINISHED and table.owner == players[0] and not table.rated
    assert [s.user for s in Seat.objects.filter(table=table).order_by("index")] == players
    assert stored.finished and stored.ended_by == "score"
    assert (stored.winners, stored.ranks) == (engine.winners(), engine.ranks())
    deals = Deal.objects.filter(match=stored).order_by("number")
    assert [d.record for d in deals] == records and all(d.finished for d in deals)
    assert loading.load(table.pk).match.pk == stored.pk      # it loads as any finished table


def test_revealing_a_duplicate_table_is_a_versioned_change_its_sockets_hear(make_user, sent):
    stored, *_ = finished_match(make_user)
    table_id = stored.table_id
    Table.objects.filter(pk=table_id).update(private=True, duplicate={"label": "round:1-1", "revealed": False})
    presence.place(table_id, "socket-0", 0)
    before = Table.objects.get(pk=table_id).version
    sent.clear()
    services.reveal_deals(table_id)
    table = Table.objects.get(pk=table_id)
    assert table.duplicate == {"label": "round:1-1", "revealed": True} and not table.private
    assert table.version == before + 1
    [(group, payload)] = sent
    assert group == ToSeat(table_id, 0)
    message = json.loads(payload["text"])
    assert message["version"] == before + 1 and message["events"][-1] == {"kind": "revealed"}


def test_revealing_twice_or_a_table_that_is_not_duplicate_changes_nothing(make_user, sent):
    stored, *_ = finished_match(make_user)
    table_id = stored.table_id
    services.reveal_deals(table_id)                 # not a duplicate table
    Table.objects.filter(pk=table_id).update(duplicate={"label": "round:1-1", "revealed": True})
    services.reveal_deals(table_id)                 # revealed already
    assert Table.objects.get(pk=table_id).version == 0 and sent == []
