"""Rematch: offered at a finished table, answered by its players (bots at once), started as a new
table with the same seats and settings, or cancelled with a reason."""
import pytest

from games import loading, messages, services
from realtime.errors import ServiceError
from games.models import Match, Seat, Table

pytestmark = pytest.mark.django_db(transaction=True)


def finished_table(owner, seats, **kw) -> Table:
    """A started table whose match is then marked over (the rematch only needs a finished one)."""
    t = services.create_table(owner, "sixtysix", "kurnik", seats=seats, start=True, **kw)
    Match.objects.filter(table=t).update(finished=True, ranks=[1, 2], winners=[0], ended_by="score")
    Seat.objects.filter(table=t).update(turn_started_at=None)
    Table.objects.filter(pk=t.pk).update(status=Table.Status.FINISHED, due_at=None)
    loading.forget(t.pk)
    return Table.objects.get(pk=t.pk)


def offer_of(table_id) -> dict:
    return Table.objects.get(pk=table_id).rematch


def test_an_offer_accepted_by_all_starts_a_new_table_with_the_same_seats_and_settings(make_user, task_queue):
    ala, ola = make_user("ala"), make_user("ola")
    t = finished_table(ala, [ala, ola], rated=True, bank_seconds=120, increment_seconds=2, private=True)
    services.rematch(t.pk, ala, t.version, "offer")
    offer = offer_of(t.pk)
    assert offer["status"] == "open" and offer["by"] == 0 and offer["accepted"] == [0]
    services.rematch(t.pk, ola, offer["since"], "accept")
    offer = offer_of(t.pk)
    assert offer["status"] == "started" and offer["accepted"] == [0, 1]
    new = Table.objects.get(pk=offer["table"])
    assert new.pk != t.pk and new.status == Table.Status.PLAYING
    assert (new.game, new.variant, new.rated, new.bank_seconds, new.increment_seconds, new.private) == \
        ("sixtysix", "kurnik", True, 120, 2, True)
    assert [s.user_id for s in Seat.objects.filter(table=new)] == [ala.id, ola.id]
    assert new.owner_id == ala.id and Match.objects.filter(table=new).exists()
    # Everyone at the old table learns where the new match is.
    assert messages.table_json(loading.load(t.pk))["rematch"]["table"] == new.pk


def test_bots_accept_at_once_so_a_match_against_a_bot_restarts_on_the_offer(make_user, task_queue):
    ala = make_user("ala")
    t = finished_table(ala, ["me", "strong"])
    services.rematch(t.pk, ala, t.version, "offer")
    offer = offer_of(t.pk)
    assert offer["status"] == "started" and offer["accepted"] == [0, 1]
    assert [s.bot_level for s in Seat.objects.filter(table_id=offer["table"])] == ["", "strong"]


def test_a_decline_cancels_the_offer_with_its_reason_and_a_new_offer_may_follow(make_user, task_queue):
    ala, ola = make_user("ala"), make_user("ola")
    t = finished_table(ala, [ala, ola])
    services.rematch(t.pk, ala, t.version, "offer")
    v = Table.objects.get(pk=t.pk).version
    services.rematch(t.pk, ola, v, "decline")
    offer = offer_of(t.pk)
    assert (offer["status"], offer["reason"], offer["seat"]) == ("cancelled", "declined", 1)
    with pytest.raises(ServiceError) as err:
        services.rematch(t.pk, ala, v + 1, "accept")
    assert err.value.code == "no_rematch_offer" and err.value.reason
    services.rematch(t.pk, ola, v + 1, "offer")
    assert offer_of(t.pk)["status"] == "open" and offer_of(t.pk)["by"] == 1
    assert Table.objects.count() == 1


def test_a_player_leaving_cancels_the_offer(make_user, task_queue):
    ala, ola = make_user("ala"), make_user("ola")
    t = finished_table(ala, [ala, ola])
    services.rematch(t.pk, ala, t.version, "offer")
    Seat.objects.filter(table=t, index=1).update(connections=1)
    services.rematch_left(t.pk, 1)            # another socket of his is still open: nothing
    assert offer_of(t.pk)["status"] == "open"
    Seat.objects.filter(table=t, index=1).update(connections=0)
    services.rematch_left(t.pk, 1)
    assert (offer_of(t.pk)["status"], offer_of(t.pk)["reason"]) == ("cancelled", "left")


def test_only_the_matchs_players_may_offer_and_only_once_it_is_over(make_user, task_queue):
    ala, ola, eve = make_user("ala"), make_user("ola"), make_user("eve")
    t = finished_table(ala, [ala, ola])
    for who in (eve, None):
        with pytest.raises(ServiceError) as err:
            services.rematch(t.pk, who, t.version, "offer")
        assert err.value.code == "spectator" and err.value.reason
    playing = services.create_table(ala, "sixtysix", seats=["me", "random"], start=True)
    with pytest.raises(ServiceError) as err:
        services.rematch(playing.pk, ala, Table.objects.get(pk=playing.pk).version, "offer")
    assert err.value.code == "match_not_over"
    with pytest.raises(ServiceError) as err:
        services.rematch(t.pk, ala, t.version, "maybe")
    assert err.value.code == "bad_request"
    assert offer_of(t.pk) is None


def test_accepting_twice_is_harmless_and_an_unseen_offer_is_stale(make_user, task_queue):
    ala, ola, ela = make_user("ala"), make_user("ola"), make_user("ela")
    t = services.create_table(ala, "hearts", seats=[ala, ola, ela, "basic"], start=True)
    Match.objects.filter(table=t).update(finished=True, ranks=[1, 2, 3, 4], winners=[0])
    Seat.objects.filter(table=t).update(turn_started_at=None)
    Table.objects.filter(pk=t.pk).update(status=Table.Status.FINISHED, due_at=None)
    loading.forget(t.pk)
    before = Table.objects.get(pk=t.pk).version
    with pytest.raises(ServiceError):
        services.rematch(t.pk, ala, before, "accept")        # nothing to accept yet
    services.rematch(t.pk, ala, before, "offer")
    offer = offer_of(t.pk)
    assert offer["accepted"] == [0, 3]                           # the bot at once
    with pytest.raises(ServiceError) as err:
        services.rematch(t.pk, ola, before, "accept")           # shown before the offer existed
    assert err.value.code == "stale"
    services.rematch(t.pk, ola, offer["since"], "accept")
    v = Table.objects.get(pk=t.pk).version
    services.rematch(t.pk, ola, offer["since"], "accept")
    services.rematch(t.pk, ala, offer["since"], "offer")         # offering again: an accept, done
    assert Table.objects.get(pk=t.pk).version == v and offer_of(t.pk)["accepted"] == [0, 1, 3]
    services.rematch(t.pk, ela, offer["since"], "accept")
    offer = offer_of(t.pk)
    assert offer["status"] == "started"
    assert [s.user_id for s in Seat.objects.filter(table_id=offer["table"])][:3] == [ala.id, ola.id, ela.id]
    with pytest.raises(ServiceError) as err:
        services.rematch(t.pk, ala, Table.objects.get(pk=t.pk).version, "offer")
    assert err.value.code == "rematch_started"


def test_a_tournament_table_offers_no_rematch_the_tournament_pairs_the_next_match(make_user, task_queue):
    ala, ola = make_user("ala"), make_user("ola")
    t = finished_table(ala, [ala, ola], tournament=True)
    with pytest.raises(ServiceError) as err:
        services.rematch(t.pk, ala, t.version, "offer")
    assert err.value.code == "tournament_table" and "tournament pairs your next match" in err.value.reason
    assert offer_of(t.pk) is None and Table.objects.count() == 1
    live = loading.load(t.pk)
    assert messages.table_json(live)["tournament"] is True
