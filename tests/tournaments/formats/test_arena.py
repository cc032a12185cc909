"""Arenas end to end in embedded mode (SQLite, in-memory layer; the test plays beat and the worker,
and moves the clock): basic bots (never a false claim: no luck in who loses on time) run from the start to the final ranking with every tick and task
delivered twice; an absent entrant is paused after one forfeit; a player who comes back near the
end plays a match that finishes after the window closed and still counts."""
from datetime import timedelta
import pytest

from tournaments import controls, services
from tournaments.models import Entry, Game, Round, Tournament

from ..conftest import run_tournament

pytestmark = pytest.mark.django_db(transaction=True)


def _games(t):
    return list(Game.objects.filter(round__tournament=t).select_related("table__match").order_by("board"))


def test_a_sixtysix_arena_of_bots_runs_from_start_to_final_ranking(make_user, bots, clock, task_queue,
                                                                  advance_queue):
    admin = make_user("arbiter", is_staff=True, is_superuser=True)
    t = Tournament.objects.create(
        name="Bots' Arena", game="sixtysix", variant="kurnik", format="arena", arena_minutes=1,
        starts_at=clock.now() + timedelta(seconds=5), bank_seconds=10, increment_seconds=0,
        min_entries=4, max_entries=16, created_by=admin)
    ghost, late = make_user("ghost"), make_user("late")     # people who never move
    # Basic bots: a random bot's false claim could end a match of ghost's or late's before their
    # clocks run out, and hand them a win they did not play for.
    for user in bots(5, "basic") + [ghost, late]:
        services.register(t.pk, user)
    came_back = []

    def script(i, tt):
        # "late" lost his first match on time (so he was paused); he comes back 3 s before the end.
        if tt.ends_at and not came_back and tt.ends_at - clock.now() <= timedelta(seconds=3):
            assert Entry.objects.get(tournament=tt, user=late).paused
            controls.come_back(tt.pk, late)
            came_back.append(clock.now())

    t = run_tournament(t.pk, clock, task_queue, advance_queue, step=1.0, redeliver=2, short=True,
                       on_step=script, limit=400)

    assert t.status == "finished" and came_back
    assert t.ends_at == t.started_at + timedelta(minutes=1)
    assert list(Round.objects.filter(tournament=t).values_list("number", "status")) == [(1, "finished")]
    games = _games(t)
    assert all(g.result is not None and g.table.match.finished for g in games)
    assert all(g.table.match.started_at < t.ends_at for g in games), "nobody is paired after the close"
    assert len(games) > 20

    # Nobody sits at two tables at once.
    entries = {e.user.username: e for e in Entry.objects.filter(tournament=t).select_related("user")}
    spans = {}
    for g in games:
        for p in g.players:
            spans.setdefault(p, []).append((g.table.match.started_at, g.table.match.finished_at))
    for p, s in spans.items():
        s.sort()
        assert all(a[1] <= b[0] for a, b in zip(s, s[1:])), p

    # An entrant who does not move loses every match on time, and after the first is paused: the
    # absent one for good, "late" until he came back.
    def lost_on_time(g, pk):
        return g.result["timed_out"] == [g.players.index(pk)]

    def matches_of(pk, until):
        return sorted((g for g in games if pk in g.players and g.table.match.started_at < until),
                      key=lambda g: g.table.match.started_at)

    ghost = matches_of(entries["ghost"].pk, t.ends_at)
    assert len(ghost) == 1 and lost_on_time(ghost[0], entries["ghost"].pk)
    assert Entry.objects.get(pk=entries["ghost"].pk).paused
    late_games = [g for g in games if entries["late"].pk in g.players]
    late = matches_of(entries["late"].pk, came_back[0])
    assert len(late) == 1 and lost_on_time(late[0], entries["late"].pk)
    assert len(late_games) == 2                 # and paired again after coming back
    # His last match, paired 3 s before the close with a 10 s clock: lost on time after it.
    last = late_games[-1]
    assert lost_on_time(last, entries["late"].pk)
    assert last.table.match.finished_at > t.ends_at, "a match running at the close finished after it"

    # A bot met the opponent of his previous match again only when no other bot was free then.
    bot_ids = {e.pk for e in entries.values() if e.user.is_bot}
    repeats = 0
    for b in bot_ids:
        mine = [g for g in games if b in g.players]
        for prev, g in zip(mine, mine[1:]):
            if set(prev.players) != set(g.players):
                continue
            repeats += 1
            at = g.table.match.started_at
            busy = {p for h in games if h is not g and h.table.match.started_at <= at
                    and (h.table.match.finished_at > at or h.table.match.started_at == at) for p in h.players}
            assert bot_ids - set(g.players) <= busy, (b, g.board)

    # The final ranking is the leaderboard, which counts every match, the late one included.
    board = services.state(t)["leaderboard"]
    assert [r["rank"] for r in board] == list(range(1, 8))
    final = {e.pk: e.final_rank for e in Entry.objects.filter(tournament=t)}
    assert all(final[r["entry"]] == r["rank"] for r in board)
    assert all(a["points"] >= b["points"] for a, b in zip(board, board[1:]))
    for r in board:                           # matches that finished after the close included
        assert r["games"] == sum(1 for g in games if r["entry"] in g.players), r
    opponent = next(p for p in last.players if p != entries["late"].pk)
    row = next(r for r in board if r["entry"] == opponent)
    assert sum(row["sheet"]) == row["points"]
    assert row["sheet"][-1] in (2, 4)           # won on time after the close, counted
    for r in board:                           # each streak bonus follows two wins
        for k, x in enumerate(r["sheet"]):
            assert x != 4 or (k >= 2 and r["sheet"][k - 1] in (2, 4) and r["sheet"][k - 2] in (2, 4))


def _hearts_arena(clock, entrants, **kw):
    t = Tournament.objects.create(
        name="Hearts Arena", game="hearts", variant="standard", format="arena", arena_minutes=1,
        starts_at=clock.now() + timedelta(seconds=2), bank_seconds=10, increment_seconds=0,
        min_entries=2, max_entries=16, bot_level="random", **kw)
    for user in entrants:
        services.register(t.pk, user)
    return t


def test_a_hearts_arena_seats_people_four_at_a_time_and_the_one_left_over_rotates(
        settings, bots, clock, task_queue, advance_queue):
    settings.TOURNAMENT_ARENA_WAIT_SECONDS = 4
    t = _hearts_arena(clock, bots(5))
    t = run_tournament(t.pk, clock, task_queue, advance_queue, step=2.0, redeliver=2, short=True, limit=200)

    assert t.status == "finished"
    games = _games(t)
    assert all(len(g.players) == 4 and None not in g.players for g in games), "four people free: no bots"
    everyone = set(Entry.objects.filter(tournament=t).values_list("pk", flat=True))
    for prev, g in zip(games, games[1:]):       # who waited gets the next table: nobody waits twice
        assert everyone - set(prev.players) <= set(g.players), (prev.board, g.board)
    board = services.state(t)["leaderboard"]
    assert [r["rank"] for r in board] == [1, 2, 3, 4, 5]
    assert sorted(Entry.objects.filter(tournament=t).values_list("final_rank", flat=True)) == [1, 2, 3, 4, 5]
    assert sum(r["games"] for r in board) == 4 * len(games)


def test_fewer_than_four_free_wait_then_house_bots_fill_the_table(settings, bots, clock, task_queue, advance_queue):
    settings.TOURNAMENT_ARENA_WAIT_SECONDS = 4
    t = _hearts_arena(clock, bots(2))
    t = run_tournament(t.pk, clock, task_queue, advance_queue, step=1.0, redeliver=2, short=True, limit=200)

    assert t.status == "finished"
    games = _games(t)
    assert len(games) >= 5
    for prev, g in zip(games, games[1:]):
        assert g.players.count(None) == 2
        assert g.table.match.started_at - prev.table.match.finished_at >= timedelta(seconds=4)
    for g in games:
        seats = list(g.table.seats.select_related("user"))
        assert all(s.user.is_bot and s.user.bot_level == "random" for p, s in zip(g.players, seats) if p is None)
    board = services.state(t)["leaderboard"]
    assert sorted(r["rank"] for r in board) == [1, 2] and all(r["games"] == len(games) for r in board)


def test_a_spades_arena_seats_partners_as_the_swiss_does_and_scores_the_partnership(bots, clock, task_queue,
                                                                                    advance_queue):
    t = Tournament.objects.create(
        name="Spades Arena", game="spades", variant="standard", format="arena", arena_minutes=1,
        starts_at=clock.now() + timedelta(seconds=2), bank_seconds=10, increment_seconds=0, min_entries=2)
    for user in bots(4):
        services.register(t.pk, user)
    t = run_tournament(t.pk, clock, task_queue, advance_queue, step=2.0, redeliver=2, short=True, limit=200)
    assert t.status == "finished"
    games = _games(t)
    assert games and all(None not in g.players for g in games)
    for g in games:
        # Partners (seats 0+2, 1+3) score alike: 2 and 2 for the winners, 0 and 0 for the others.
        points = [2 if share == 1 else 1 if share >= 0.5 else 0 for share in g.result["points"]]
        assert points[0] == points[2] and points[1] == points[3] and sorted(points) in ([0, 0, 2, 2], [1, 1, 1, 1])
