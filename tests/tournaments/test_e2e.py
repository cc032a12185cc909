"""End to end in embedded mode (SQLite, in-memory layer; the test plays beat and the worker):
an 8-entrant Swiss of bots with fast clocks runs from its start time to the final ranking by
itself, one entrant never connecting and losing every game on time."""
from datetime import timedelta

import pytest

from games.models import Match
from tournaments import services
from tournaments.models import Entry, Game, Round, Tournament

from .conftest import run_tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_it_runs_an_eight_player_swiss_of_bots_by_itself(make_user, bots, clock, task_queue, advance_queue):
    admin = make_user("arbiter", is_staff=True, is_superuser=True)
    t = Tournament.objects.create(
        name="Bots' Swiss", game="sixtysix", variant="kurnik", format="swiss", rounds=3,
        starts_at=clock.now() + timedelta(seconds=20), bank_seconds=10, increment_seconds=0,
        min_entries=4, max_entries=16, break_seconds=3, created_by=admin)
    ghost = make_user("ghost")                      # registers, then never connects
    for user in bots(7) + [ghost]:
        services.register(t.pk, user)

    seen_before_start = []

    def watch(i, tt):
        if clock.now() < tt.starts_at:
            seen_before_start.append(tt.status)

    # Every tick and every queued task is delivered twice: nothing may happen twice.
    t = run_tournament(t.pk, clock, task_queue, advance_queue, step=1.0, redeliver=2, on_step=watch)

    assert set(seen_before_start) == {"scheduled"}
    assert t.status == "finished" and t.current_round == 3
    rounds = list(Round.objects.filter(tournament=t))
    assert [r.number for r in rounds] == [1, 2, 3] and all(r.status == "finished" for r in rounds)
    assert rounds[0].started_at >= t.starts_at
    for a, b in zip(rounds, rounds[1:]):
        assert b.started_at >= a.finished_at + timedelta(seconds=t.break_seconds)   # the break
    games = list(Game.objects.filter(round__tournament=t))
    assert len(games) == 12 and all(g.result is not None and g.table_id for g in games)
    assert all(Match.objects.get(table_id=g.table_id).finished for g in games)

    met = [frozenset(g.players) for g in games]
    assert len(met) == len(set(met)), "no two entrants met twice"

    ghost_entry = Entry.objects.get(tournament=t, user=ghost)
    ghost_games = [g for g in games if ghost_entry.pk in g.players]
    assert len(ghost_games) == 3
    for g in ghost_games:
        seat = g.players.index(ghost_entry.pk)
        assert g.result["timed_out"] == [seat] and g.result["points"][seat] == 0.0

    ranks = sorted(Entry.objects.filter(tournament=t).values_list("final_rank", flat=True))
    assert ranks == list(range(1, 9))
    rows = services.state(t)["standings"]
    assert rows[0]["match_points"] >= rows[-1]["match_points"]
    assert sum(r["match_points"] for r in rows) == 12
    # The no-show scored nothing, so only entrants as pointless as he is (a bot that also lost every
    # game; Buchholz then orders them) may rank below him.
    ghost_row = next(r for r in rows if r["entry"] == ghost_entry.pk)
    assert ghost_row["match_points"] == 0
    assert all(r["match_points"] == 0 for r in rows if r["rank"] > ghost_row["rank"])
