"""Leavers: a player whose last socket closes during a match is away; within the grace he may come
back, after it his opponent may claim the win (2 players) or a bot takes his seat (4 players)."""
import json
from datetime import timedelta

import pytest
from django.utils import timezone

from games import loading, messages, presence, services, tasks
from realtime.addresses import ToSeat
from realtime.errors import ServiceError
from games.models import Deal, Match, Seat, Table

from .helpers import every_seat_moves, ratings_enqueued, version  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db(transaction=True)


def two_players(make_user, **kw):
    ala, ola = make_user("ala"), make_user("ola")
    t = services.create_table(ala, "sixtysix", "kurnik", **kw)
    services.sit(t.pk, ola, 1)          # the last open seat: the match starts
    presence.place(t.pk, "ala-1", 0)
    presence.place(t.pk, "ola-1", 1)
    return t, ala, ola


def away_for(table_id, seat, seconds):
    """As if ``seat`` had left ``seconds`` ago (and the table's due work were due then)."""
    Seat.objects.filter(table_id=table_id, index=seat).update(
        away_since=timezone.now() - timedelta(seconds=seconds))
    Table.objects.filter(pk=table_id).update(due_at=timezone.now() - timedelta(seconds=5))


def seat_json(table_id, seat):
    return messages.table_json(loading.load(table_id))["seats"][seat]


def refusal(table_id, user, version_=None):
    with pytest.raises(ServiceError) as err:
        services.claim_win(table_id, user, version(table_id) if version_ is None else version_)
    return err.value


def test_the_last_socket_closing_makes_a_player_away_and_everyone_is_told(make_user, task_queue, sent, settings):
    t, ala, ola = two_players(make_user)
    presence.place(t.pk, "eve-1", None)             # a spectator
    presence.place(t.pk, "ola-2", 1)                # ola's second tab
    v, due = version(t.pk), Table.objects.get(pk=t.pk).due_at
    presence.remove(t.pk, "ola-2")
    assert version(t.pk) == v and Seat.objects.get(table=t, index=1).away_since is None   # a tab still open
    presence.remove(t.pk, "ola-2")                  # told twice: still one tab open
    assert version(t.pk) == v and Seat.objects.get(table=t, index=1).connections == 1
    sent.clear()
    presence.remove(t.pk, "ola-1")
    away = Seat.objects.get(table=t, index=1).away_since
    assert away is not None and version(t.pk) == v + 1
    assert {g for g, _p in sent} == {ToSeat(t.pk, 0), ToSeat(t.pk, None)}
    msg = json.loads(sent[0][1]["text"])
    assert msg["event"] == {"kind": "away", "seat": 1, "since": messages.epoch_ms(away)}
    seat = msg["table"]["seats"][1]
    assert seat["connected"] is False and seat["away_since"] == messages.epoch_ms(away)
    assert seat["grace_ends_at"] == messages.epoch_ms(away + timedelta(seconds=settings.GAMES_LEAVER_GRACE_SECONDS))
    assert msg["table"]["seats"][0]["away_since"] is None
    # Two players: the grace's end is no due work (the opponent claims), so due_at is unchanged.
    assert Table.objects.get(pk=t.pk).due_at == due


def test_coming_back_within_the_grace_clears_it(make_user, task_queue, sent):
    t, ala, ola = two_players(make_user)
    presence.remove(t.pk, "ola-1")
    v = version(t.pk)
    sent.clear()
    presence.place(t.pk, "ola-2", 1)
    assert Seat.objects.get(table=t, index=1).away_since is None and version(t.pk) == v + 1
    msg = json.loads(dict(sent)[ToSeat(t.pk, 0)]["text"])
    assert msg["event"] == {"kind": "back", "seat": 1}
    assert msg["table"]["seats"][1]["away_since"] is None and msg["table"]["seats"][1]["connected"]
    assert refusal(t.pk, ala).code == "opponent_here"


def test_nobody_is_away_before_the_match_or_after_it_and_bots_never(make_user, task_queue):
    ala, ola = make_user("ala"), make_user("ola")
    t = services.create_table(ala, "sixtysix", "kurnik")
    presence.place(t.pk, "ala-1", 0)
    presence.remove(t.pk, "ala-1")                  # waiting for an opponent: leaving is free
    assert Seat.objects.get(table=t, index=0).away_since is None
    b = services.create_table(ala, "hearts", seats=["me", "random", "random", "random"], start=True)
    presence.place(b.pk, "bot-1", 1)
    presence.remove(b.pk, "bot-1")
    assert Seat.objects.get(table=b, index=1).away_since is None


def test_a_claim_before_the_grace_is_over_is_refused_with_the_time_left(make_user, task_queue, settings):
    t, ala, ola = two_players(make_user)
    presence.remove(t.pk, "ola-1")
    err = refusal(t.pk, ala)
    assert err.code == "claim_too_early" and err.reason
    assert 55 <= err.params["retry_after"] <= settings.GAMES_LEAVER_GRACE_SECONDS
    assert loading.load(t.pk).table.status == "playing"


def test_a_claim_is_refused_to_spectators_the_leaver_himself_and_a_stale_version(make_user, task_queue):
    t, ala, ola = two_players(make_user)
    presence.remove(t.pk, "ola-1")
    away_for(t.pk, 1, 61)
    assert refusal(t.pk, make_user("eve")).code == "spectator"
    assert refusal(t.pk, ola).code == "opponent_here"        # he is away, his opponent is not
    assert refusal(t.pk, ala, version(t.pk) - 1).code == "stale"
    assert refusal(t.pk, ala, "x").code == "stale"
    assert loading.load(t.pk).table.status == "playing"


def test_a_claim_after_the_grace_wins_the_match_as_a_forfeit(make_user, task_queue, sent, ratings_enqueued):
    t, ala, ola = two_players(make_user, rated=True)
    every_seat_moves(t.pk, [ala, ola])          # before that, the claim aborts the match (actions/test_exits.py)
    presence.remove(t.pk, "ola-1")
    away_for(t.pk, 1, 61)
    sent.clear()
    services.claim_win(t.pk, ala, version(t.pk))
    lv = loading.load(t.pk)
    m = lv.match
    assert lv.table.status == "finished" and m.finished and m.ended_by == "abandoned"
    assert m.ranks == [1, 2] and m.winners == [0] and m.timed_out == [1] and m.abandoned == [1]
    assert ratings_enqueued == [m.pk]
    from archive.visibility import deal_is_public
    from ratings import services as ratings
    from ratings.models import MatchPlayer
    deal = Deal.objects.filter(match=m).latest("number")
    assert not deal.finished and not deal_is_public(m, deal)     # the cards stay hidden
    rows = {p.seat: p for p in MatchPlayer.objects.filter(match=m)}
    assert (rows[1].result, rows[1].abandoned, rows[1].timed_out) == ("loss", True, True)
    assert (rows[0].result, rows[0].abandoned) == ("win", False)
    msg = json.loads(dict(sent)[ToSeat(t.pk, 0)]["text"])
    assert [e["kind"] for e in msg["events"]] == ["abandoned", "match_end"]
    assert msg["event"]["ended_by"] == "abandoned" and msg["table"]["match"]["abandoned"] == [1]
    assert msg["table"]["seats"][1]["away_since"] is None      # no match on: nothing to wait for
    changes = {c.user_id: c for c in ratings.rate_match(m.pk)}
    assert changes[ola.id].delta < 0 < changes[ala.id].delta       # a loss, as on time
    err = refusal(t.pk, ala)
    assert err.code == "bad_request"                           # the match is over
    # The leaver coming back to the finished table changes nothing.
    v = version(t.pk)
    presence.place(t.pk, "ola-2", 1)
    assert version(t.pk) == v and Seat.objects.get(table=t, index=1).away_since is None


def test_in_four_player_games_a_bot_takes_the_seat_once_the_grace_is_over(make_user, task_queue, settings):
    ala, ola = make_user("ala"), make_user("ola")
    t = services.create_table(ala, "hearts", seats=["me", ola, "random", "random"], start=True)
    presence.place(t.pk, "ala-1", 0)
    presence.place(t.pk, "ola-1", 1)
    task_queue.run_due()                 # the bots pass; the people owe theirs
    presence.remove(t.pk, "ola-1")
    table = Table.objects.get(pk=t.pk)
    away = Seat.objects.get(table=t, index=1).away_since
    assert table.due_at == away + timedelta(seconds=settings.GAMES_LEAVER_GRACE_SECONDS)  # before any clock
    assert seat_json(t.pk, 1)["grace_ends_at"] == messages.epoch_ms(table.due_at)
    assert services.advance(t.pk) == table.due_at                # not yet
    assert refusal(t.pk, ala).code == "bad_request"              # nobody claims here
    away_for(t.pk, 1, 61)
    assert tasks.sweep() == 1                                    # with nobody connected, the sweeper
    lv = loading.load(t.pk)
    assert lv.seats[1].replaced_by_bot and lv.seats[1].away_since is None
    assert loading.seat_of(lv, ola) is None and lv.match.abandoned == [1] == lv.match.timed_out
    assert lv.table.status == "playing"
    # Play goes on: ala plays, the bots (ola's seat included) answer, to the match's end.
    from .helpers import human_move
    for _ in range(2000):
        task_queue.run_due()
        lv = loading.load(t.pk)
        if lv.table.status == "finished":
            break
        if lv.table.status == "playing" and 0 in lv.state.seats_to_act():
            human_move(t.pk, ala)
        elif lv.table.status == "between_deals":
            Table.objects.filter(pk=t.pk).update(due_at=timezone.now(), next_deal_at=timezone.now())
            services.advance(t.pk)
    m = Match.objects.get(table=t)
    assert m.finished and m.ended_by == "score" and m.ranks[1] == 4 and 1 not in m.winners


def test_a_seat_a_bot_took_is_not_away_when_its_players_socket_moves_to_the_spectators(make_user, task_queue):
    ala, ola = make_user("ala"), make_user("ola")     # two people: a bot takes the leaver's seat
    t = services.create_table(ala, "hearts", seats=["me", ola, "random", "random"], start=True)
    presence.place(t.pk, "ala-1", 0)
    presence.place(t.pk, "ola-1", 1)
    task_queue.run_due()
    presence.remove(t.pk, "ala-1")
    away_for(t.pk, 0, 61)
    services.advance(t.pk)
    presence.place(t.pk, "ala-2", None)             # his socket comes back as a spectator's
    assert Seat.objects.get(table=t, index=0).away_since is None


def test_a_player_with_a_socket_open_is_never_taken_for_away_whatever_away_since_says(make_user, task_queue):
    """The leaver rules key off the sockets open at the seat: a stale ``away_since`` beside an open
    socket neither lets the opponent claim nor lets a bot take the seat."""
    t, ala, ola = two_players(make_user)
    away_for(t.pk, 1, 61)                        # ola's socket is still open
    assert refusal(t.pk, ala).code == "opponent_here"
    b = services.create_table(ala, "hearts", seats=["me", ola, "random", "random"], start=True)
    presence.place(b.pk, "ala-b", 0)
    presence.place(b.pk, "ola-b", 1)
    away_for(b.pk, 1, 61)
    tasks.sweep()
    lv = loading.load(b.pk)
    assert not lv.seats[1].replaced_by_bot and loading.seat_of(lv, ola) == 1


@pytest.mark.parametrize("game", ["sixtysix", "hearts"])
def test_a_player_alone_among_bots_who_leaves_ends_the_match_when_his_grace_is_over(
        game, make_user, task_queue, settings, sent):
    """A guest's "Play now" table left behind: no one is left to claim or to play, so the match
    ends as abandoned at the grace's end instead of showing as playing for as long as his clock
    (two players) or the bots' whole match (four) would last."""
    from games.engine.core import get_rules
    guest = make_user("guest-1", is_guest=True)
    seats = ["me"] + ["random"] * (get_rules(game).seats - 1)
    t = services.create_table(guest, game, seats=seats, start=True)
    presence.place(t.pk, "guest-1", 0)
    every_seat_moves(t.pk, [guest] + [None] * (len(seats) - 1), task_queue)  # else leaving aborts it
    presence.remove(t.pk, "guest-1")
    away = Seat.objects.get(table=t, index=0).away_since
    grace_end = away + timedelta(seconds=settings.GAMES_LEAVER_GRACE_SECONDS)
    assert Table.objects.get(pk=t.pk).due_at <= grace_end        # the grace's end is due work
    assert Table.objects.get(pk=t.pk).status == "playing"
    away_for(t.pk, 0, 61)
    sent.clear()
    tasks.sweep()
    table = Table.objects.get(pk=t.pk)
    m = Match.objects.get(table=t)
    assert table.status == "finished" and m.finished and m.ended_by == "abandoned"
    assert m.abandoned == [0] and 0 not in m.winners
    assert not Seat.objects.get(table=t, index=0).replaced_by_bot
    lobby = [payload["tables"] for group, payload in sent if payload.get("type") == "lobby.send"]
    assert lobby and t.pk not in [row["id"] for row in lobby[-1]]       # gone from the lobby's list
