"""Running tournaments by hand: start now, add a round, pause and resume (admins and staff), and an
arena player's own pause; with the permission checks and the readable refusals."""
from datetime import timedelta

import pytest

from games.models import Match
from tournaments import controls, services
from tournaments.models import Entry, Game, Round, Tournament
from tournaments.services import TournamentError
from tournaments.tasks import tournament_tick

from .conftest import run_tournament

pytestmark = pytest.mark.django_db(transaction=True)


def make_tournament(clock, **kw):
    fields = dict(name="Cup", game="sixtysix", variant="kurnik", format="swiss", rounds=2,
                  starts_at=clock.now() + timedelta(hours=1), bank_seconds=10, increment_seconds=0,
                  min_entries=2, max_entries=16, break_seconds=5)
    fields.update(kw)
    return Tournament.objects.create(**fields)


@pytest.fixture
def people(make_user):
    admin = make_user("arbiter", is_superuser=True, is_staff=True)
    staff = make_user("steward", is_staff=True)
    player = make_user("ala")
    return admin, staff, player


def test_an_admin_starts_a_scheduled_tournament_now(people, bots, clock, task_queue, advance_queue):
    admin, staff, player = people
    t = make_tournament(clock, min_entries=3)
    services.register(t.pk, bots(1)[0])
    with pytest.raises(TournamentError, match="Only an admin can start a tournament early."):
        controls.start_now(t.pk, staff)
    with pytest.raises(TournamentError, match=r"Too few players have entered to start: 1 of at least 3."):
        controls.start_now(t.pk, admin)
    for b in bots(2, prefix="more"):
        services.register(t.pk, b)
    controls.start_now(t.pk, admin)
    t.refresh_from_db()
    assert t.status == "running" and t.started_at == clock.now() and t.starts_at == clock.now()
    assert Round.objects.filter(tournament=t, number=1).exists()
    with pytest.raises(TournamentError, match="already started"):
        controls.start_now(t.pk, admin)


def test_an_admin_adds_a_round_to_a_swiss_even_at_its_last_round(people, bots, clock, task_queue, advance_queue):
    admin, staff, player = people
    t = make_tournament(clock, rounds=1, break_seconds=0)
    for b in bots(4):
        services.register(t.pk, b)
    controls.start_now(t.pk, admin)
    with pytest.raises(TournamentError, match="Only an admin can add a round."):
        controls.add_round(t.pk, staff)
    controls.add_round(t.pk, admin)                 # round 1 of 1 is being played: now 1 of 2
    t = run_tournament(t.pk, clock, task_queue, advance_queue, short=True)
    assert t.status == "finished" and t.current_round == 2 and t.rounds == 2
    with pytest.raises(TournamentError, match="The tournament has ended."):
        controls.add_round(t.pk, admin)


@pytest.mark.parametrize("fmt, words", [
    ("round_robin", "A round robin has as many rounds as it needs"),
    ("elimination", "An elimination ends with its final"),
    ("arena", "An arena has no rounds"),
])
def test_adding_a_round_is_refused_with_a_reason_where_the_format_fixes_them(people, clock, fmt, words):
    with pytest.raises(TournamentError, match=words):
        controls.add_round(make_tournament(clock, format=fmt).pk, people[0])


def test_paused_no_round_starts_running_matches_count_and_resume_goes_on(people, bots, clock, task_queue,
                                                                         advance_queue):
    admin, staff, player = people
    t = make_tournament(clock, rounds=2)
    for b in bots(4):
        services.register(t.pk, b)
    controls.start_now(t.pk, admin)
    with pytest.raises(TournamentError, match="Only admins and staff can pause a tournament."):
        controls.pause(t.pk, player)
    controls.pause(t.pk, staff)
    with pytest.raises(TournamentError, match="already paused"):
        controls.pause(t.pk, admin)
    # Round 1's matches are played to their end and recorded while paused...
    for _ in range(30):
        tournament_tick()
        advance_queue.run_due(clock.now(), times=2)
        task_queue.run_due()
        clock.advance(1)
    t.refresh_from_db()
    assert Round.objects.get(tournament=t, number=1).status == "finished"
    assert all(g.result is not None for g in Game.objects.filter(round__tournament=t))
    # ...but round 2 does not start, the break long over.
    assert t.current_round == 1 and not Round.objects.filter(tournament=t, number=2).exists()
    assert services.state(t)["paused"] is True
    with pytest.raises(TournamentError, match="Only admins and staff can resume a tournament."):
        controls.resume(t.pk, player)
    controls.resume(t.pk, staff)
    with pytest.raises(TournamentError, match="The tournament is not paused."):
        controls.resume(t.pk, staff)
    advance_queue.run_due(clock.now())
    assert Round.objects.filter(tournament=t, number=2).exists()
    t = run_tournament(t.pk, clock, task_queue, advance_queue, short=True)
    assert t.status == "finished"


def test_a_last_round_ending_while_paused_waits_for_the_resume(people, bots, clock, task_queue, advance_queue):
    admin, staff, _ = people
    t = make_tournament(clock, rounds=1)
    for b in bots(2):
        services.register(t.pk, b)
    controls.start_now(t.pk, admin)
    controls.pause(t.pk, staff)
    for _ in range(30):
        tournament_tick()
        task_queue.run_due()
        clock.advance(1)
    t.refresh_from_db()
    assert t.status == "running" and Round.objects.get(tournament=t).status == "finished"
    controls.resume(t.pk, staff)
    advance_queue.run_due(clock.now())
    t.refresh_from_db()
    assert t.status == "finished" and sorted(Entry.objects.filter(tournament=t).values_list("final_rank", flat=True)) == [1, 2]


def test_a_paused_arena_pairs_nobody_and_its_window_waits(people, bots, clock, task_queue, advance_queue):
    admin, staff, _ = people
    t = make_tournament(clock, format="arena", arena_minutes=5)
    for b in bots(4):
        services.register(t.pk, b)
    controls.start_now(t.pk, admin)
    t.refresh_from_db()
    ends = t.ends_at
    assert ends == clock.now() + timedelta(minutes=5) and Game.objects.filter(round__tournament=t).count() == 2
    controls.pause(t.pk, staff)
    for _ in range(20):                 # the two matches end; nobody is paired again
        tournament_tick()
        advance_queue.run_due(clock.now())
        task_queue.run_due()
        clock.advance(1)
    games = Game.objects.filter(round__tournament=t)
    assert games.count() == 2 and all(g.result is not None for g in games)
    controls.resume(t.pk, staff)
    t.refresh_from_db()
    assert t.ends_at == ends + timedelta(seconds=20)
    advance_queue.run_due(clock.now())
    assert Game.objects.filter(round__tournament=t).count() == 4


def test_an_arena_player_pauses_and_comes_back(people, bots, clock, task_queue, advance_queue):
    admin, staff, player = people
    t = make_tournament(clock, format="arena", arena_minutes=5)
    services.register(t.pk, player)
    for b in bots(2):
        services.register(t.pk, b)
    with pytest.raises(TournamentError, match="The arena is not running."):
        controls.pause_me(t.pk, player)
    controls.start_now(t.pk, admin)
    with pytest.raises(TournamentError, match="You are not playing in this arena."):
        controls.pause_me(t.pk, staff)
    me = Entry.objects.get(tournament=t, user=player)
    playing = [g for g in Game.objects.filter(round__tournament=t) if me.pk in g.players]
    assert len(playing) == 1
    controls.pause_me(t.pk, player)
    # The match he is playing goes on; once it is over he is not paired again.
    for _ in range(15):
        tournament_tick()
        advance_queue.run_due(clock.now())
        task_queue.run_due()
        clock.advance(1)
    mine = [g for g in Game.objects.filter(round__tournament=t) if me.pk in g.players]
    assert len(mine) == len(playing) and all(g.result is not None for g in mine)
    assert all(Match.objects.get(table_id=g.table_id).finished for g in mine)
    controls.come_back(t.pk, player)
    me.refresh_from_db()
    assert not me.paused and me.free_since == clock.now()


def test_pausing_oneself_is_for_arenas(people, clock):
    t = make_tournament(clock)
    with pytest.raises(TournamentError, match="Only arena players pause themselves."):
        controls.pause_me(t.pk, people[2])


# --- the page ----------------------------------------------------------------------------------------
def test_the_page_shows_the_controls_to_admins_and_staff_only(client, people, clock):
    admin, staff, player = people
    t = make_tournament(clock)
    client.force_login(player)
    html = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert 'data-action="start-now"' not in html and 'data-action="pause"' not in html
    assert "Schedule and rules" in html and "Swiss: everyone plays every round." in html
    r = client.post(f"/tournaments/{t.pk}/start-now/", follow=True)
    assert "Only an admin can start a tournament early." in r.content.decode()
    client.force_login(admin)
    html = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert 'data-action="start-now"' in html and 'data-action="add-round"' in html
    client.post(f"/tournaments/{t.pk}/add-round/")
    t.refresh_from_db()
    assert t.rounds == 3
    assert client.post(f"/tournaments/{t.pk}/no-such-thing/").status_code == 404


def test_the_admin_actions_run_the_controls_and_show_refusals(admin_client, clock, bots):
    t = make_tournament(clock, min_entries=2)
    for b in bots(2):
        services.register(t.pk, b)
    r = admin_client.post("/admin/tournaments/tournament/", {"action": "pause", "_selected_action": [t.pk]},
                          follow=True)
    assert "Only a running tournament can be paused." in r.content.decode()
    r = admin_client.post("/admin/tournaments/tournament/", {"action": "start_now", "_selected_action": [t.pk]},
                          follow=True)
    assert "Started: 1." in r.content.decode()
    assert Tournament.objects.get(pk=t.pk).status == "running"


def test_an_arena_page_shows_the_leaderboard_the_time_left_your_table_and_the_pause_button(
        client, people, bots, clock, task_queue, advance_queue):
    admin, staff, player = people
    t = make_tournament(clock, format="arena", arena_minutes=30)
    services.register(t.pk, player)
    services.register(t.pk, bots(1)[0])
    controls.start_now(t.pk, admin)
    client.force_login(player)
    html = " ".join(client.get(f"/tournaments/{t.pk}/").content.decode().split())
    table = Game.objects.get(round__tournament=t).table_id
    assert 'id="leaderboard"' in html and 'id="arena-progress"' in html and 'max="1800"' in html
    assert "Time left: <strong id=\"arena-left\">30:00</strong>" in html
    assert f'data-my-table="{table}"' in html and f'href="/table/{table}/"' in html
    assert 'data-action="pause-me"' in html
    assert "After two wins in a row every further win counts double" in html
    table_page = client.get(f"/table/{table}/").content.decode()
    assert f'class="table-tournament" href="/tournaments/{t.pk}/"' in table_page
    client.post(f"/tournaments/{t.pk}/pause-me/")
    html = client.get(f"/tournaments/{t.pk}/live/").content.decode()
    assert 'data-action="come-back"' in html and "You are paused" in html
