"""The spectators' part of a snapshot is built once per table version and language
(games/spectator_view.py), is never a seat's view, and has its clocks brought to the send time."""
import pytest
from django.utils import timezone, translation

from games import loading, messages, services, spectator_view

pytestmark = pytest.mark.django_db


@pytest.fixture
def playing(make_user, task_queue):
    ala, ola = make_user("ala"), make_user("ola")
    table = services.create_table(ala, "sixtysix", seats=["me", ola])
    assert loading.load(table.pk).table.status == "playing"
    return table, ala, ola


def test_spectators_share_one_build_per_version_and_seats_never_get_it(playing, monkeypatch):
    table, ala, ola = playing
    built = []
    real = messages.message

    def counted(live, seat, *args, **kwargs):
        built.append(seat)
        return real(live, seat, *args, **kwargs)

    monkeypatch.setattr(messages, "message", counted)
    watcher, _ = messages.snapshot(table.pk, None)
    again, _ = messages.snapshot(table.pk, None)
    assert built == [None]                              # once for both spectators
    assert watcher["view"] == again["view"] and watcher["you"] is None
    assert "hand" not in watcher["view"] or not watcher["view"]["hand"]
    for user, seat in ((ala, 0), (ola, 1)):
        mine, found = messages.snapshot(table.pk, user)
        assert found == seat and mine["you"] == seat and mine["view"]["hand"]
    assert built == [None, 0, 1]                        # a seat's view is built for it, each time
    messages.snapshot(table.pk, ala)
    assert built == [None, 0, 1, 0]
    with translation.override("pl"):
        messages.snapshot(table.pk, None)
    assert built == [None, 0, 1, 0, None]               # another language: its own build


def test_a_new_version_is_built_afresh_and_the_same_as_a_fresh_build(playing):
    table, ala, ola = playing
    first, _ = messages.snapshot(table.pk, None)
    live = loading.load(table.pk)
    seat = live.state.view(None)["to_act"][0]
    player = (ala, ola)[seat]
    action = live.state.view(seat)["legal"][0]
    services.act(table.pk, player, live.table.version, action)
    later, _ = messages.snapshot(table.pk, None)
    assert later["version"] == first["version"] + 1
    fresh = messages.message(loading.load(table.pk), None)
    for key in ("version", "view", "you"):
        assert later[key] == fresh[key]
    assert {k: v for k, v in later["table"].items() if k != "clocks"} == \
        {k: v for k, v in fresh["table"].items() if k != "clocks"}


def test_the_clocks_and_the_time_are_those_of_the_moment_it_is_sent(playing, monkeypatch):
    table, _ala, _ola = playing
    first, _ = messages.snapshot(table.pk, None)
    clocks = first["table"]["clocks"]
    running = clocks["running"]
    assert running and clocks["deadlines"][running[0]]
    later = timezone.now() + timezone.timedelta(seconds=3)
    monkeypatch.setattr(spectator_view.timezone, "now", lambda: later)
    second, _ = messages.snapshot(table.pk, None)
    now_ms = int(later.timestamp() * 1000)
    assert second["now"] == now_ms
    for seat, deadline in enumerate(second["table"]["clocks"]["deadlines"]):
        bank = second["table"]["clocks"]["banks_ms"][seat]
        assert bank == (max(0, deadline - now_ms) if deadline else clocks["banks_ms"][seat])
    assert first["now"] != now_ms and first["table"]["clocks"]["banks_ms"] != second["table"]["clocks"]["banks_ms"]


def test_the_seats_are_read_afresh_their_presence_moves_without_a_version(playing):
    from games.models import Seat

    table, _ala, _ola = playing
    first, _ = messages.snapshot(table.pk, None)
    Seat.objects.filter(table=table, index=1).update(connections=3, hints_used=2)
    second, _ = messages.snapshot(table.pk, None)
    assert second["version"] == first["version"]
    assert second["table"]["seats"][1]["connected"] and second["table"]["seats"][1]["hints_used"] == 2
    assert not first["table"]["seats"][1]["connected"]
    third, _ = messages.snapshot(table.pk, None)
    assert third["table"]["seats"] == second["table"]["seats"]
