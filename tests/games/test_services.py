import json
import random
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from games import loading, messages, presence, services, tasks
from games.actions import bot_seats
from realtime.addresses import ToSeat
from games.models import Deal, Seat, Table
from realtime.errors import ServiceError

from .helpers import every_seat_moves, expire_clock, human_move, version

pytestmark = pytest.mark.django_db(transaction=True)


def two_player_table(make_user, **kw):
    ala, ola = make_user("ala"), make_user("ola")
    t = services.create_table(ala, "sixtysix", "kurnik", **kw)
    services.sit(t.pk, ola, 1)          # the last open seat: the match starts
    return t, ala, ola


def to_act_user(table_id, users):
    lv = loading.load(table_id)
    seat = lv.state.seats_to_act()[0]
    return seat, next(u for u in users if lv.seats[seat].user_id == u.id)


def test_it_applies_an_action_commits_it_and_bumps_the_version(make_user, task_queue):
    t, ala, ola = two_player_table(make_user)
    v = version(t.pk)
    seat, user = to_act_user(t.pk, [ala, ola])
    action = human_move(t.pk, user)
    assert version(t.pk) == v + 1
    deal = Deal.objects.get(match__table=t)
    assert deal.record["actions"][-1]["type"] == action["type"]
    assert deal.record["actions"][-1]["seat"] == seat


def test_it_refuses_a_stale_version_and_changes_nothing(make_user, task_queue):
    t, ala, ola = two_player_table(make_user)
    seat, user = to_act_user(t.pk, [ala, ola])
    lv = loading.load(t.pk)
    action = lv.state.view(seat)["legal"][0]
    with pytest.raises(ServiceError) as err:
        services.act(t.pk, user, lv.table.version - 1, action)
    assert err.value.code == "stale"
    assert version(t.pk) == lv.table.version
    assert Deal.objects.get(match__table=t).record["actions"] == []


def test_it_refuses_an_illegal_card_with_the_engines_reason(make_user, task_queue):
    t, ala, ola = two_player_table(make_user)
    seat, user = to_act_user(t.pk, [ala, ola])
    lv = loading.load(t.pk)
    not_mine = next(c for c in ["9H", "JH", "QH", "KH", "TH", "AH", "9S", "JS", "QS", "KS", "TS", "AS", "9C"]
                    if c not in lv.state.view(seat)["hand"])
    with pytest.raises(ServiceError) as err:
        services.act(t.pk, user, lv.table.version, {"type": "play", "card": not_mine})
    assert err.value.code == "not_held" and err.value.category == "illegal" and err.value.reason
    assert err.value.params == {"card": not_mine}
    assert version(t.pk) == lv.table.version


def test_it_refuses_a_player_out_of_turn(make_user, task_queue):
    t, ala, ola = two_player_table(make_user)
    seat, user = to_act_user(t.pk, [ala, ola])
    other = ola if user == ala else ala
    lv = loading.load(t.pk)
    card = lv.state.view(1 - seat)["hand"][0]
    with pytest.raises(ServiceError) as err:
        services.act(t.pk, other, lv.table.version, {"type": "play", "card": card})
    assert err.value.code == "not_your_turn"


def test_it_refuses_a_move_for_another_seat(make_user, task_queue):
    t, ala, ola = two_player_table(make_user)
    seat, user = to_act_user(t.pk, [ala, ola])
    other = ola if user == ala else ala
    lv = loading.load(t.pk)
    with pytest.raises(ServiceError) as err:
        services.act(t.pk, other, lv.table.version, dict(lv.state.view(seat)["legal"][0], seat=seat))
    assert err.value.code == "not_your_seat"


def test_it_refuses_a_spectator(make_user, task_queue):
    t, ala, ola = two_player_table(make_user)
    eve = make_user("eve")
    lv = loading.load(t.pk)
    with pytest.raises(ServiceError) as err:
        services.act(t.pk, eve, lv.table.version, {"type": "play", "card": "AS"})
    assert err.value.code == "spectator"


def test_it_sends_each_seat_its_own_view_only_after_commit(make_user, task_queue, sent):
    t, ala, ola = two_player_table(make_user)
    for seat in (0, 1, None):                   # a socket at each seat, and a spectator's
        presence.place(t.pk, f"socket-{seat}", seat)
    sent.clear()
    seat, user = to_act_user(t.pk, [ala, ola])
    human_move(t.pk, user)
    groups = {g: p for g, p in sent}
    assert set(groups) == {ToSeat(t.pk, 0), ToSeat(t.pk, 1),
                           ToSeat(t.pk, None)}
    lv = loading.load(t.pk)
    for s in (0, 1):
        msg = json.loads(groups[ToSeat(t.pk, s)]["text"])
        assert msg["you"] == s and msg["view"]["hand"] == lv.state.view(s)["hand"]
    assert json.loads(groups[ToSeat(t.pk, None)]["text"])["view"]["hand"] == []


def test_it_sends_a_change_only_to_the_seats_someone_listens_at(make_user, task_queue, sent):
    t, ala, ola = two_player_table(make_user)
    presence.place(t.pk, "tab-1", 1)
    presence.place(t.pk, "tab-2", 1)            # two tabs
    presence.remove(t.pk, "tab-1")
    for n, expected in enumerate(([ToSeat(t.pk, 1)],
                                  [ToSeat(t.pk, 1), ToSeat(t.pk, None)])):
        sent.clear()
        human_move(t.pk, to_act_user(t.pk, [ala, ola])[1])
        assert [g for g, _p in sent] == expected
        presence.place(t.pk, f"watcher-{n}", None)  # then someone watches
    for socket in ("tab-2", "watcher-0", "watcher-1"):
        presence.remove(t.pk, socket)
    sent.clear()
    human_move(t.pk, to_act_user(t.pk, [ala, ola])[1])
    assert sent == [] and loading.load(t.pk).table.spectators == 0


def test_it_sends_nothing_when_an_action_is_refused(make_user, task_queue, sent):
    t, ala, ola = two_player_table(make_user)
    sent.clear()
    task_queue.pending.clear()
    with pytest.raises(ServiceError):
        services.act(t.pk, ala, -1, {"type": "play", "card": "AS"})
    assert sent == [] and task_queue.pending == []


def test_it_forfeits_a_two_player_match_when_a_clock_runs_out(make_user, task_queue):
    t, ala, ola = two_player_table(make_user)
    every_seat_moves(t.pk, [ala, ola])        # before that, running out of time aborts the match
    seat, user = to_act_user(t.pk, [ala, ola])
    assert task_queue.run_due() == 0          # the deadline is in the future
    expire_clock(t.pk, seat)
    services.advance(t.pk)
    lv = loading.load(t.pk)
    assert lv.table.status == "finished"
    assert lv.match.ended_by == "timeout" and lv.match.winners == [1 - seat]
    assert lv.match.ranks[seat] == 2 and lv.match.timed_out == [seat]


def test_it_sets_a_deadline_of_bank_plus_increment(make_user, task_queue):
    t, ala, ola = two_player_table(make_user, bank_seconds=60, increment_seconds=5)
    seat, _user = to_act_user(t.pk, [ala, ola])
    s = Seat.objects.get(table=t, index=seat)
    assert s.bank_ms == 65_000 and s.turn_started_at is not None
    table = Table.objects.get(pk=t.pk)
    assert table.due_at == s.turn_started_at + timedelta(seconds=65)
    # A deadline that far off is the sweeper's (no task waits 65 s in the broker) ...
    assert all(p[1] != table.version for p in task_queue.pending)
    Table.objects.filter(pk=t.pk).update(due_at=timezone.now() - timedelta(seconds=1))
    assert t.pk not in tasks.overdue_tables()        # within the grace: maybe a task is on it
    Table.objects.filter(pk=t.pk).update(due_at=timezone.now() - timedelta(seconds=5))
    from games.tasks import sweep
    assert t.pk in tasks.overdue_tables() and sweep() == 1


def test_it_schedules_a_task_for_a_deadline_within_the_horizon(make_user, task_queue, settings):
    settings.GAMES_TASK_HORIZON_SECONDS = 120
    t, ala, ola = two_player_table(make_user, bank_seconds=60, increment_seconds=5)
    table = Table.objects.get(pk=t.pk)
    assert task_queue.pending[-1] == (t.pk, table.version, table.due_at)


def test_it_gives_a_timed_out_seat_to_a_bot_in_four_player_games_and_ranks_him_last(make_user, task_queue, settings):
    ala = make_user("ala")
    t = services.create_table(ala, "hearts", seats=["me", "random", "random", "random"], start=True)
    # Hearts opens with a simultaneous pass: the bots pass, ala does not.
    task_queue.run_due()
    lv = loading.load(t.pk)
    assert 0 in lv.state.seats_to_act()
    expire_clock(t.pk, 0)
    services.advance(t.pk)  # what the deadline's task (or the sweeper) does
    task_queue.run_due()   # the timeout, then the bots (ala's seat included) play on to the end
    lv = loading.load(t.pk)
    assert lv.seats[0].replaced_by_bot == bot_seats.replacement_bot()
    assert loading.seat_of(lv, ala) is None
    assert lv.table.status == "finished" and lv.match.ended_by == "score"
    assert lv.match.ranks[0] == 4 and 0 not in lv.match.winners


def test_it_ranks_timed_out_seats_last_keeping_the_others_order():
    assert services.final_ranks([1, 2, 3, 4], [0]) == [4, 1, 2, 3]
    assert services.final_ranks([1, 1, 3, 3], [2]) == [1, 1, 4, 3]
    assert services.final_ranks([2, 1, 2, 1], [1, 3]) == [1, 3, 1, 3]


def test_it_does_nothing_when_a_task_runs_twice_or_late(make_user, task_queue):
    ala = make_user("ala")
    t = services.create_table(ala, "sixtysix", seats=["random", "random"], start=True)
    table_id, v, _due = task_queue.pending[-1]
    task_queue.pending.clear()
    from games.tasks import advance_table
    advance_table(table_id, v)
    assert version(t.pk) == v + 1
    n_actions = len(Deal.objects.get(match__table=t).record["actions"])
    advance_table(table_id, v)              # the same task again
    advance_table(table_id, v - 1)          # a late one
    assert version(t.pk) == v + 1
    assert len(Deal.objects.get(match__table=t).record["actions"]) == n_actions


def test_it_waits_between_deals_then_deals_the_next(make_user, task_queue, settings):
    settings.GAMES_DEAL_PAUSE_MS = 60_000
    t = services.create_table(make_user("ala"), "sixtysix", seats=["random", "random"], start=True)
    task_queue.run_due()
    table = Table.objects.get(pk=t.pk)
    assert table.status == "between_deals"
    assert table.due_at == table.next_deal_at > timezone.now() + timedelta(seconds=50)
    assert services.advance(t.pk, table.version) == table.due_at   # too early: nothing happens
    assert Table.objects.get(pk=t.pk).version == table.version
    over = timezone.now() - timedelta(seconds=5)
    Table.objects.filter(pk=t.pk).update(due_at=over, next_deal_at=over)
    from games.tasks import sweep
    sweep()                                  # the pause is over (60 s: the sweeper's to find)
    assert Deal.objects.filter(match__table=t).count() >= 2


def test_it_sweeps_tables_whose_task_was_lost(make_user, task_queue):
    t = services.create_table(make_user("ala"), "sixtysix", seats=["random", "random"], start=True)
    task_queue.pending.clear()              # the task is lost
    v = version(t.pk)
    Table.objects.filter(pk=t.pk).update(due_at=timezone.now() - timedelta(seconds=10))
    from games.tasks import sweep
    assert sweep() == 1
    assert version(t.pk) == v + 1


@pytest.mark.parametrize("game", ["sixtysix", "hearts", "spades"])
def test_it_plays_a_bot_match_to_the_end_with_nobody_connected(make_user, task_queue, game):
    n = 2 if game == "sixtysix" else 4
    t = services.create_table(make_user("ala"), game, seats=["random"] * n, start=True)
    task_queue.run_due()
    lv = loading.load(t.pk)
    assert lv.table.status == "finished" and lv.match.finished and lv.match.winners
    deals = list(Deal.objects.filter(match__table=t))
    assert all(d.finished for d in deals) and len(deals) == len(lv.engine.results)
    # The stored records replay to their stored results.
    for d in deals:
        assert loading.rebuild_state(d.record).result() == d.result


def test_it_keeps_guests_off_rated_tables(make_user, task_queue):
    t = services.create_table(make_user("ala"), "sixtysix", rated=True)
    guest = User.objects.create(username="guest-x", is_guest=True)
    with pytest.raises(ServiceError) as err:
        services.sit(t.pk, guest, 1)
    assert err.value.code == "forbidden"
    with pytest.raises(ServiceError):
        services.create_table(guest, "sixtysix", rated=True)


def test_it_lets_only_the_owner_start_a_full_table_kept_waiting(make_user, task_queue):
    ala, ola = make_user("ala"), make_user("ola")
    t = services.create_table(ala, "sixtysix")
    with pytest.raises(ServiceError):
        services.start(t.pk, ala)           # seat 1 is open
    t = services.create_table(ala, "sixtysix", seats=["me", ola], start=False)
    assert Table.objects.get(pk=t.pk).status == "waiting"
    with pytest.raises(ServiceError) as err:
        services.start(t.pk, ola)
    assert err.value.code == "forbidden"
    services.start(t.pk, ala)
    assert Table.objects.get(pk=t.pk).status == "playing"
    with pytest.raises(ServiceError) as err:
        services.start(t.pk, ala)
    assert err.value.code == "bad_request"


def test_taking_the_last_open_seat_starts_the_match_in_the_same_change(make_user, task_queue, sent):
    """A demo table was a dead end: joining it filled it, then only its (absent) owner could
    start it. The last seat taken starts the match, and one update tells of both."""
    ala, ola, eve = make_user("ala"), make_user("ola"), make_user("eve")
    t = services.create_table(ala, "hearts", seats=["", "basic", "", "basic"])
    services.sit(t.pk, ola, 0)
    assert Table.objects.get(pk=t.pk).status == "waiting"     # a seat is still open
    v = version(t.pk)
    Table.objects.filter(pk=t.pk).update(spectators=1)        # someone watches: he is told
    loading.forget(t.pk)
    sent.clear()
    services.sit(t.pk, eve, 2)
    lv = loading.load(t.pk)
    assert lv.table.status == "playing" and lv.table.version == v + 1      # one change
    assert lv.match is not None and lv.state is not None
    assert Deal.objects.filter(match__table=t).count() == 1
    assert len(lv.state.view(2)["hand"]) == 13
    resyncs = [p for g, p in sent if g == ToSeat(t.pk, None)]
    assert [[e["kind"] for e in p["events"]] for p in resyncs] == [["seat", "match_start"]]
    assert resyncs[0]["type"] == "table.resync" and resyncs[0]["events"][0]["seat"] == 2
    lobby = [p for g, p in sent if g == messages.lobby_group("hearts")]
    assert lobby and lobby[-1]["tables"][0]["status"] == "playing"
    assert any(p[0] == t.pk and p[1] == v + 1 for p in task_queue.pending)    # the bots' passes


def test_a_table_created_with_no_open_seat_starts_at_once(make_user, task_queue):
    ala = make_user("ala")
    t = services.create_table(ala, "sixtysix", "santase", seats=["me", "basic"])
    lv = loading.load(t.pk)
    assert lv.table.status == "playing" and lv.state is not None and lv.state.view(0)["hand"]
    t = services.create_table(ala, "sixtysix", seats=["me", ""])
    assert Table.objects.get(pk=t.pk).status == "waiting"


def test_it_persists_chat(make_user, task_queue):
    ala = make_user("ala")
    t = services.create_table(ala, "sixtysix")
    services.chat(t.pk, ala, "hello")
    msg, _seat = messages.snapshot(t.pk, ala)
    assert [m["text"] for m in msg["chat"]] == ["hello"]
    with pytest.raises(ServiceError):
        services.chat(t.pk, ala, "x" * 501)


def test_it_seats_named_users_and_signals_the_finished_match_once(make_user, task_queue):
    from games.signals import match_finished
    ala, ola = make_user("ala"), make_user("ola")
    finished = []

    def receiver(sender, match, table, **kw):
        finished.append((match.pk, table.pk, list(match.ranks)))
    match_finished.connect(receiver)
    try:
        t = services.create_table(ala, "sixtysix", "kurnik", seats=[ola, "random"], start=True)
        assert [s.user for s in Seat.objects.filter(table=t)][0] == ola
        for _ in range(2000):
            lv = loading.load(t.pk)
            if lv.table.status == "finished":
                break
            if lv.state is not None and not lv.state.is_over() and 0 in lv.state.seats_to_act():
                human_move(t.pk, ola)
            else:
                task_queue.run_due()
        assert loading.load(t.pk).table.status == "finished"
    finally:
        match_finished.disconnect(receiver)
    assert len(finished) == 1 and finished[0][1] == t.pk and sorted(finished[0][2]) == [1, 2]


def hearts_passing_table(make_user):
    users = [make_user(f"hp{i}") for i in range(4)]
    t = services.create_table(users[0], "hearts", seats=["me", *users[1:]], start=True)
    lv = loading.load(t.pk)
    assert lv.state.view(0)["phase"] == "pass"
    return t, users, lv


def three_of(lv, seat):
    return lv.state.view(seat)["hand"][:3]


def test_it_accepts_a_pass_sent_before_another_seats_pass_was_stored(make_user, task_queue):
    """Passes are simultaneous: a pass does not depend on the passes stored since its sender looked."""
    t, users, lv = hearts_passing_table(make_user)
    v = lv.table.version
    services.act(t.pk, users[0], v, {"type": "pass", "cards": three_of(lv, 0)})
    services.act(t.pk, users[1], v, {"type": "pass", "cards": three_of(lv, 1)})      # one version behind
    after = loading.load(t.pk)
    assert after.table.version == v + 2
    assert set(after.state.seats_to_act()) == {2, 3}
    with pytest.raises(ServiceError) as err:              # a seat that passed owes nothing more
        services.act(t.pk, users[1], v, {"type": "pass", "cards": three_of(lv, 1)})
    assert err.value.code == "stale"
    assert loading.load(t.pk).table.version == v + 2


def test_it_still_refuses_a_stale_play_and_a_pass_from_before_the_deal(make_user, task_queue):
    t, users, lv = hearts_passing_table(make_user)
    v = lv.table.version
    with pytest.raises(ServiceError) as err:              # from before this deal began
        services.act(t.pk, users[0], v - 1, {"type": "pass", "cards": three_of(lv, 0)})
    assert err.value.code == "stale"
    for seat in range(4):
        services.act(t.pk, users[seat], v, {"type": "pass", "cards": three_of(lv, seat)})
    lv = loading.load(t.pk)
    seat = lv.state.seats_to_act()[0]
    play = lv.state.view(seat)["legal"][0]
    with pytest.raises(ServiceError) as err:              # turn-based play must see the table as it is
        services.act(t.pk, users[seat], lv.table.version - 1, play)
    assert err.value.code == "stale"
