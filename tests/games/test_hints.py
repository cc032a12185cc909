"""Hints (games/hints.py): allowed at unrated tables against the house bots only, counted on the
seat, answered to the asking socket alone, from that seat's own view."""
import pytest
from channels.db import database_sync_to_async as db
from django.test import Client
from django.urls import reverse

from games import hints, loading, messages, services
from games.engine import cards as C
from realtime.errors import ServiceError
from games.models import Seat

from .sockets import connect


def hearts_against_bots(user, **kw):
    """A hearts table of ``user`` and three bots: the match starts at once, in the passing, where
    every seat is to act (so it is the person's turn without waiting for a bot)."""
    return services.create_table(user, "hearts", seats=["me", "random", "random", "random"], **kw)


def rated_hearts_against_bots(user):
    """The same table marked rated, as one made before house bots' tables were refused rating
    (ratings/house_bots.py) would be: the hint's own refusal still answers there."""
    from games.models import Table

    table = hearts_against_bots(user)
    Table.objects.filter(pk=table.pk).update(rated=True)
    loading.forget(table.pk)
    table.refresh_from_db()
    return table


@pytest.mark.django_db
def test_it_gives_a_hint_at_an_unrated_table_against_bots_and_counts_it(make_user):
    ala = make_user("ala")
    table = hearts_against_bots(ala)
    taken = services.take_hint(table.pk, ala)
    assert taken["version"] == loading.load(table.pk).table.version
    assert taken["view"]["seat"] == 0 and len(taken["options"]) > 1
    assert all(o["type"] == "pass" and o["seat"] == 0 for o in taken["options"])
    assert Seat.objects.get(table=table, index=0).hints_used == 1
    live = loading.load(table.pk)
    msg = messages.message(live, 0)
    assert msg["view"]["hints_allowed"] is True
    assert msg["table"]["seats"][0]["hints_used"] == 1
    assert msg["table"]["seats"][1]["hints_used"] == 0


@pytest.mark.django_db
def test_it_refuses_a_second_hint_for_the_same_move(make_user):
    ala = make_user("ala")
    table = hearts_against_bots(ala)
    services.take_hint(table.pk, ala)
    with pytest.raises(ServiceError) as refused:
        services.take_hint(table.pk, ala)
    assert refused.value.code == hints.AGAIN and refused.value.reason
    assert Seat.objects.get(table=table, index=0).hints_used == 1


@pytest.mark.django_db
def test_it_refuses_hints_at_a_rated_table(make_user):
    ala = make_user("ala")
    table = rated_hearts_against_bots(ala)
    with pytest.raises(ServiceError) as refused:
        services.take_hint(table.pk, ala)
    assert refused.value.code == hints.RATED
    assert "rated" in refused.value.reason
    assert messages.message(loading.load(table.pk), 0)["view"]["hints_allowed"] is False
    assert Seat.objects.get(table=table, index=0).hints_used == 0


@pytest.mark.django_db
def test_it_refuses_hints_at_a_tournament_table(make_user):
    ala = make_user("ala")
    table = hearts_against_bots(ala, tournament=True)
    with pytest.raises(ServiceError) as refused:
        services.take_hint(table.pk, ala)
    assert refused.value.code == hints.TOURNAMENT and "tournament" in refused.value.reason


@pytest.mark.django_db
def test_it_refuses_hints_where_another_seat_is_a_person(make_user):
    ala, bob = make_user("ala"), make_user("bob")
    table = services.create_table(ala, "hearts", seats=["me", bob, "random", "random"])
    for who in (ala, bob):
        with pytest.raises(ServiceError) as refused:
            services.take_hint(table.pk, who)
        assert refused.value.code == hints.PEOPLE and "person" in refused.value.reason
    assert messages.message(loading.load(table.pk), 1)["view"]["hints_allowed"] is False


@pytest.mark.django_db
def test_it_refuses_hints_to_a_spectator_and_out_of_turn(make_user):
    ala, eve = make_user("ala"), make_user("eve")
    table = hearts_against_bots(ala)
    with pytest.raises(ServiceError) as refused:
        services.take_hint(table.pk, eve)
    assert refused.value.code == "spectator"
    table = services.create_table(ala, "sixtysix", seats=["me", "random"])
    live = loading.load(table.pk)
    if 0 in live.state.seats_to_act():       # the deal's leader is drawn: make it the bot's turn
        lead = next(a for a in live.state.legal_actions(0) if a["type"] == "play" and not a.get("marriage"))
        services.act(table.pk, ala, live.table.version, lead)
    with pytest.raises(ServiceError) as refused:
        services.take_hint(table.pk, ala)
    assert refused.value.code == hints.NOT_YOUR_TURN


@pytest.mark.django_db
def test_the_match_page_shows_the_hints_used(make_user):
    from games.models import Match
    ala = make_user("ala")
    table = hearts_against_bots(ala)
    services.take_hint(table.pk, ala)
    Match.objects.filter(table=table).update(finished=True)
    client = Client()
    page = client.get(reverse("match", args=[table.match.pk]))
    assert page.status_code == 200
    assert "1 hint used" in page.content.decode()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_it_answers_the_asking_socket_only_with_nothing_hidden(make_user, monkeypatch):
    monkeypatch.setattr(hints, "BUDGET_MS", 30)
    ala = await db(make_user)("ala")
    table = await db(hearts_against_bots)(ala)
    player, _ = await connect(table.pk, ala)
    second, _ = await connect(table.pk, ala)        # the same player's other tab
    watcher, _ = await connect(table.pk)
    hand = set(player.last["view"]["hand"])
    assert player.last["view"]["hints_allowed"] is True and watcher.last["view"].get("hints_allowed") is None
    await player.send({"type": "hint"})
    answer = await player.recv(timeout=30)
    assert answer["type"] == "hint" and answer["version"] == player.version
    assert answer["action"] == answer["options"][0]["action"]
    assert answer["options"][0]["margin"] == 0
    scores = [o["score"] for o in answer["options"]]
    assert scores == sorted(scores, reverse=True)
    # Only the player's own cards appear in it: nobody else's hand, nor the deck.
    named = {c for o in answer["options"] for c in o["action"]["cards"]}
    assert named <= hand
    text = str(answer)
    others = set(C.CODES) - hand
    assert not any(f"'{code}'" in text for code in others)
    assert await second.drain() == [] and await watcher.drain() == []
    again = await player.request({"type": "hint"})
    assert again["type"] == "error" and again["code"] == hints.AGAIN
    for s in (player, second, watcher):
        await s.comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_socket_is_refused_a_hint_at_a_rated_table_with_a_reason(make_user):
    ala = await db(make_user)("ala")
    table = await db(rated_hearts_against_bots)(ala)
    player, _ = await connect(table.pk, ala)
    refused = await player.request({"type": "hint"})
    assert refused["type"] == "error" and refused["code"] == hints.RATED and refused["reason"]
    await player.comm.disconnect()


@pytest.mark.django_db
def test_it_refuses_hints_where_a_bot_took_over_a_persons_seat(make_user):
    ala, bob = make_user("ala"), make_user("bob")
    table = services.create_table(ala, "hearts", seats=["me", bob, "random", "random"])
    Seat.objects.filter(table=table, index=1).update(replaced_by_bot="random")
    loading.forget(table.pk)
    with pytest.raises(ServiceError) as refused:
        services.take_hint(table.pk, ala)
    assert refused.value.code == hints.PEOPLE


@pytest.mark.django_db
def test_the_hint_search_runs_in_the_bot_processes_when_there_are_some(make_user, monkeypatch):
    from concurrent.futures import ThreadPoolExecutor

    from games import thinking
    ala = make_user("ala")
    taken = services.take_hint(hearts_against_bots(ala).pk, ala)
    pool = ThreadPoolExecutor(max_workers=1)      # stands in for the process pool
    submitted = []
    real_submit = pool.submit
    monkeypatch.setattr(pool, "submit", lambda fn, *a: submitted.append(fn) or real_submit(fn, *a))
    monkeypatch.setattr(thinking, "_pool", lambda: pool)
    evaluations = thinking.hint_search(taken["view"], taken["options"], 20).result()
    assert submitted == [thinking._hint]
    assert [e["action"] for e in evaluations] == taken["options"]
    answer = hints.answer(taken["version"], evaluations)
    assert answer["options"][0]["margin"] == 0 and len(answer["options"]) == len(taken["options"])
    pool.shutdown()


@pytest.mark.django_db
def test_a_bot_account_gets_no_hints(make_user):
    program = make_user("prog", is_bot_account=True)
    table = hearts_against_bots(program, bots_allowed=True)
    with pytest.raises(ServiceError) as refused:
        services.take_hint(table.pk, program)
    assert refused.value.code == "bot_account"


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_second_hint_while_one_is_worked_out_is_refused(make_user, monkeypatch):
    from concurrent.futures import Future

    from games import thinking
    pending = Future()
    monkeypatch.setattr(thinking, "hint_search", lambda view, options, budget: pending)
    ala = await db(make_user)("ala")
    table = await db(hearts_against_bots)(ala)
    player, _ = await connect(table.pk, ala)
    await player.send({"type": "hint"})
    while not await db(lambda: Seat.objects.get(table=table, index=0).hints_used)():
        await player.comm.receive_nothing(timeout=0.02)
    busy = await player.request({"type": "hint"})
    assert busy["type"] == "error" and busy["code"] == "hint_busy" and busy["reason"]
    pending.set_result([{"action": {"seat": 0, "type": "pass", "cards": ["2C", "3C", "4C"]}, "mean": 1.0, "samples": 1}])
    answer = await player.recv(timeout=10)
    assert answer["type"] == "hint" and answer["options"][0]["margin"] == 0
    await player.comm.disconnect()
