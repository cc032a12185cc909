"""The tournament manager: registration, start or cancel, rounds, byes, bot seats, idempotence."""
from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction

from games.models import Match, Table
from games.signals import match_finished
from tournaments import page, results, services
from tournaments.models import Entry, Game, Round, Tournament
from tournaments.services import TournamentError
from tournaments.tasks import tournament_tick

from .conftest import run_tournament

pytestmark = pytest.mark.django_db(transaction=True)


def make_tournament(clock, **kw):
    fields = dict(name="Cup", game="sixtysix", variant="kurnik", format="swiss", rounds=2,
                  starts_at=clock.now() + timedelta(seconds=60), bank_seconds=10, increment_seconds=0,
                  min_entries=2, max_entries=16, break_seconds=0)
    fields.update(kw)
    return Tournament.objects.create(**fields)


def test_it_registers_and_withdraws_until_the_start(make_user, clock, task_queue, advance_queue):
    t = make_tournament(clock, max_entries=2)
    ala, ola, ela = make_user("ala"), make_user("ola"), make_user("ela")
    services.register(t.pk, ala)
    services.register(t.pk, ala)                     # twice: still one entry
    services.register(t.pk, ola)
    with pytest.raises(TournamentError):
        services.register(t.pk, ela)                 # full
    services.withdraw(t.pk, ola)
    services.register(t.pk, ela)
    assert Entry.objects.filter(tournament=t, withdrawn=False).count() == 2
    clock.advance(61)
    tournament_tick()
    with pytest.raises(TournamentError):
        services.withdraw(t.pk, ala)
    with pytest.raises(TournamentError):
        services.register(t.pk, ola)


def test_it_refuses_guests_and_a_window_not_yet_open(make_user, clock):
    from accounts.models import guest_user
    t = make_tournament(clock, registration_opens_at=clock.now() + timedelta(seconds=30))
    with pytest.raises(TournamentError):
        services.register(t.pk, make_user("ala"))
    clock.advance(31)
    services.register(t.pk, make_user("ola"))
    with pytest.raises(TournamentError):
        services.register(t.pk, guest_user())


def test_it_cancels_with_a_reason_when_too_few_entered(make_user, clock, task_queue, advance_queue):
    t = make_tournament(clock, min_entries=4)
    for name in ("ala", "ola", "ela"):
        services.register(t.pk, make_user(name))
    tournament_tick()
    assert Tournament.objects.get(pk=t.pk).status == "scheduled"    # not before its time
    clock.advance(60)
    tournament_tick()
    t.refresh_from_db()
    assert t.status == "cancelled" and not Round.objects.filter(tournament=t).exists()
    assert "at least 4" in page.cancel_reason_text(t)
    tournament_tick()
    assert Tournament.objects.get(pk=t.pk).version == t.version      # nothing more happens


def test_it_never_creates_a_round_twice(bots, clock, task_queue, advance_queue):
    t = make_tournament(clock)
    for u in bots(4):
        services.register(t.pk, u)
    clock.advance(60)
    assert services.start(t.pk) is True
    assert services.start(t.pk) is False                              # delivered twice
    assert services.advance(t.pk) is False                            # nothing due yet
    assert Round.objects.filter(tournament=t).count() == 1
    assert Table.objects.count() == 2
    with pytest.raises(IntegrityError), transaction.atomic():
        Round.objects.create(tournament=t, number=1, started_at=clock.now())


def test_it_stores_a_result_with_the_match_and_recovers_one_that_was_missed(bots, clock, task_queue, advance_queue):
    t = make_tournament(clock, rounds=1)
    for u in bots(2):
        services.register(t.pk, u)
    clock.advance(60)
    tournament_tick()
    game = Game.objects.get(round__tournament=t)
    # The receiver missed (as if it had not been connected): no result, and no step after the match.
    match_finished.disconnect(dispatch_uid="tournaments.record_result")
    try:
        task_queue.run_all_of(game.table_id)
        while task_queue.pending:
            task_queue.run_due()
    finally:
        match_finished.connect(services.record_result, dispatch_uid="tournaments.record_result")
    assert Match.objects.get(table_id=game.table_id).finished
    assert Game.objects.get(pk=game.pk).result is None and Tournament.objects.get(pk=t.pk).status == "running"
    assert services.advance(t.pk) is True                # the next step rebuilds it
    t.refresh_from_db()
    game.refresh_from_db()
    assert t.status == "finished" and sorted(game.result["points"]) == [0.0, 1.0]


def test_it_gives_a_bye_worth_a_win_to_a_different_player_each_round(bots, clock, task_queue, advance_queue):
    t = make_tournament(clock, rounds=3)
    for u in bots(5):
        services.register(t.pk, u)
    clock.advance(60)
    t = run_tournament(t.pk, clock, task_queue, advance_queue)
    byes = Game.objects.filter(round__tournament=t, bye=True)
    assert byes.count() == 3 and len({g.players[0] for g in byes}) == 3
    assert all(g.result["points"] == [1.0] and g.table_id is None for g in byes)
    rows = services.state(t)["standings"]
    assert sum(r["match_points"] for r in rows) == 3 * 3       # two games and a bye per round


def test_it_fills_a_hearts_table_with_bot_seats(bots, clock, task_queue, advance_queue):
    t = make_tournament(clock, game="hearts", variant="standard", rounds=1, bot_level="random")
    for u in bots(6):
        services.register(t.pk, u)
    clock.advance(60)
    t = run_tournament(t.pk, clock, task_queue, advance_queue, short=True)
    games = list(Game.objects.filter(round__tournament=t))
    assert [g.players.count(None) for g in games] == [1, 1]      # 3 + 3 entrants, a bot each
    for g in games:
        table = Table.objects.get(pk=g.table_id)
        bot_seat = g.players.index(None)
        assert table.seats.get(index=bot_seat).user.username == "bot-random"
        assert len(g.result["points"]) == 4
    assert sorted(Entry.objects.filter(tournament=t).values_list("final_rank", flat=True)) == [1, 2, 3, 4, 5, 6]


def test_it_partners_spades_entrants_one_and_four_against_two_and_three(bots, clock, task_queue, advance_queue):
    t = make_tournament(clock, game="spades", variant="standard", rounds=1)
    entrants = bots(4)
    for u in entrants:
        services.register(t.pk, u)
    clock.advance(60)
    tournament_tick()
    g = Game.objects.get(round__tournament=t)
    seeds = [e.pk for e in results.seed_order(list(Entry.objects.filter(tournament=t)))]
    assert g.players == [seeds[0], seeds[1], seeds[3], seeds[2]]      # seats 0+2 partners


def test_it_runs_a_round_robin_and_an_elimination(bots, clock, task_queue, advance_queue):
    rr = make_tournament(clock, format="round_robin")
    el = make_tournament(clock, format="elimination")
    players = bots(5)
    for u in players:
        services.register(rr.pk, u)
        services.register(el.pk, u)
    clock.advance(60)
    rr = run_tournament(rr.pk, clock, task_queue, advance_queue, short=True)
    el = run_tournament(el.pk, clock, task_queue, advance_queue, short=True)
    assert rr.current_round == 5
    pairs = [frozenset(g.players) for g in Game.objects.filter(round__tournament=rr, bye=False)]
    assert len(pairs) == len(set(pairs)) == 10
    assert el.current_round == 3
    ranks = sorted(Entry.objects.filter(tournament=el).values_list("final_rank", flat=True))
    assert ranks == [1, 2, 3, 3, 5]
    # Round 1 of 5: the three top seeds have byes (a bracket of 8).
    assert Game.objects.filter(round__tournament=el, round__number=1, bye=True).count() == 3


def test_it_finishes_even_when_every_task_is_lost_thanks_to_the_tick(bots, clock, task_queue, advance_queue):
    t = make_tournament(clock, rounds=2, break_seconds=5)
    for u in bots(4):
        services.register(t.pk, u)
    clock.advance(60)

    from tournaments import scheduling
    original = scheduling._enqueue
    scheduling._enqueue = lambda tid, eta=None: None
    try:
        t = run_tournament(t.pk, clock, task_queue, advance_queue)
    finally:
        scheduling._enqueue = original
    assert t.status == "finished" and Round.objects.filter(tournament=t).count() == 2


def test_the_page_hears_the_round_is_over_with_the_commit_of_its_last_table(bots, clock, task_queue, advance_queue):
    """Closing the round (and revealing a duplicate round's seed) does not wait for a queued step:
    in a busy worker that step, or the next tick, came seconds later, and the page said
    "Round 1 · playing" meanwhile. No tournament task runs here: the table's end alone must do it."""
    from realtime.broadcast import collecting
    from games.messages import tournament_group

    t = make_tournament(clock, format="duplicate", rounds=2, boards=1, break_seconds=60, bot_level="random")
    for u in bots(2):
        services.register(t.pk, u)
    clock.advance(60)
    tournament_tick()
    advance_queue.pending.clear()
    game = Game.objects.get(round__tournament=t)
    with collecting() as sent:
        while task_queue.pending:                # the bots play the round's only table to its end
            task_queue.run_due()
    assert Match.objects.get(table_id=game.table_id).finished
    rnd = Round.objects.get(tournament=t, number=1)
    assert rnd.status == Round.Status.FINISHED
    assert Table.objects.get(pk=game.table_id).duplicate["revealed"] is True
    page = [payload["state"] for group, payload in sent if group == tournament_group(t.pk)]
    assert page, "the page heard nothing of the table's end"
    last = page[-1]
    assert last["rounds"][0]["status"] == "finished"
    assert last["rounds"][0]["duplicate"]["seed"] == rnd.seed
    assert not advance_queue.pending or all(eta is not None for _tid, eta in advance_queue.pending)


def test_the_page_names_each_players_rating_and_who_is_playing(bots, make_user, clock, task_queue, advance_queue):
    from ratings.models import Rating

    t = make_tournament(clock, rounds=1, bank_seconds=600)
    ala = make_user("ala")
    Rating.objects.create(user=ala, game="sixtysix", variant="kurnik", display=1612, games=4)
    for u in [ala] + bots(1):
        services.register(t.pk, u)
    before = services.state(Tournament.objects.get(pk=t.pk))
    assert {e["name"]: e["rating"] for e in before["entries"]} == {"ala": 1612, "tbot0": 1500}
    clock.advance(60)
    tournament_tick()                      # round 1: ala's table waits for her move
    rows = services.state(Tournament.objects.get(pk=t.pk))["standings"]
    assert {r["name"]: (r["rating"], r["playing"]) for r in rows} == {"ala": (1612, True), "tbot0": (1500, True)}
