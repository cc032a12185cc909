"""Duplicate tournaments end to end in embedded mode (SQLite, in-memory layer; the test plays beat and
the worker, moves the clock and delivers every tick and task twice): bots play a Sixty-six and a
Hearts tournament; the stored deal records prove every table of a round played the same cards
(Sixty-six: the hands swapped at every second table) and each verifies with games.engine.verify
against the round's seed, which nothing showed before the round was over."""
import io
import json
from contextlib import contextmanager
from datetime import timedelta

import pytest

from games.engine import fair, verify
from games.models import Deal
from games.signals import match_finished
from archive.visibility import deal_is_public, public_record
from tournaments import duplicate, services
from tournaments.models import Entry, Game, Round, Tournament

from ..conftest import run_tournament

pytestmark = pytest.mark.django_db(transaction=True)


def _tournament(clock, game, variant, entrants, **kw):
    t = Tournament.objects.create(
        name=f"Duplicate {game}", game=game, variant=variant, format="duplicate",
        starts_at=clock.now() + timedelta(seconds=2), bank_seconds=120, increment_seconds=0,
        min_entries=2, break_seconds=5, bot_level="random", **kw)
    for user in entrants:
        services.register(t.pk, user)
    return t


def _records(game):
    """The table's deal records by board (each table plays the boards in its own order: the
    record's ``fair.board``), as anyone may download them."""
    match = game.table.match
    records = [public_record(match, d) for d in Deal.objects.filter(match=match).order_by("number")]
    return {r["fair"]["board"]: r for r in records}


@contextmanager
def at_each_match_end(tid, look):
    """Call ``look(tournament)`` whenever a match ends, inside its transaction: while its round is
    still being played (the round's last table closes it right after that commit)."""
    def receiver(sender, match, table, **kwargs):
        look(Tournament.objects.get(pk=tid))

    match_finished.connect(receiver, dispatch_uid="at-each-match-end")
    try:
        yield
    finally:
        match_finished.disconnect(dispatch_uid="at-each-match-end")


class SecretWatch:
    """Each step, while a round is being played: its seed is on no page state and in no record
    anyone may download (also of a table whose match has finished), its tables are private. It
    looks as well the moment each match ends (inside its transaction, ``watching``): the round's
    last table closes the round right after that commit, so no step sees it finished in between."""

    def __init__(self):
        self.finished_tables_checked = 0

    def watching(self, tid):
        return at_each_match_end(tid, lambda t: self(None, t))


    def __call__(self, i, t):
        page = json.dumps(services.state(t))
        for rnd in Round.objects.filter(tournament=t):
            assert rnd.commitment == fair.commitment(bytes.fromhex(rnd.seed)) and rnd.commitment in page
            if rnd.status == Round.Status.FINISHED:
                continue
            assert rnd.seed not in page
            for g in rnd.games.filter(bye=False).select_related("table__match"):
                assert g.table.private
                match = g.table.match
                for d in Deal.objects.filter(match=match):
                    assert not deal_is_public(match, d) and "server_seed" not in public_record(match, d)["fair"]
                if g.result is not None:
                    self.finished_tables_checked += 1


def _verifies(records):
    out = io.StringIO()
    lines = "\n".join(json.dumps(r) for r in records)
    code = verify.main(["-"], stdin=io.StringIO(lines), out=out)
    assert code == 0, out.getvalue()
    return out.getvalue()


def test_a_duplicate_sixtysix_round_swaps_the_hands_between_tables_and_verifies(bots, clock, task_queue,
                                                                             advance_queue):
    t = _tournament(clock, "sixtysix", "kurnik", bots(4), rounds=1, boards=4)
    watch = SecretWatch()
    with watch.watching(t.pk):
        t = run_tournament(t.pk, clock, task_queue, advance_queue, step=1.0, redeliver=2, on_step=watch, limit=300)

    assert t.status == "finished" and watch.finished_tables_checked
    rnd = Round.objects.get(tournament=t)
    games = list(Game.objects.filter(round=rnd).select_related("table__match").order_by("board"))
    assert len(games) == 2 and all(g.table.match.finished and not g.table.private for g in games)
    a, b = (_records(g) for g in games)
    assert sorted(a) == sorted(b) == [0, 1, 2, 3], "every table plays exactly the round's boards"
    for k in range(4):
        ra, rb = a[k], b[k]
        assert ra["dealer"] == k % 2 and rb["dealer"] == 1 - ra["dealer"]
        # The same deal with the hands swapped: seat s at table 1 held what seat 1 - s held at table 2.
        assert ra["hands"][0] == rb["hands"][1] and ra["hands"][1] == rb["hands"][0]
        assert ra["stock"] == rb["stock"] and ra["trump_card"] == rb["trump_card"]
        for r in (ra, rb):
            f = r["fair"]
            assert (f["label"], f["board"]) == (f"round:{t.pk}-1", k)
            assert f["server_seed"] == rnd.seed and f["commitment"] == rnd.commitment
            assert f["client_seeds"] == [None, None]
    report = _verifies([*a.values(), *b.values()])
    assert report.count("verified") == 8

    # The page: per board, each hand held at both tables, with the matchpoints of a top of 2.
    state = services.state(t)
    dup, shown = state["duplicate"], state["rounds"][0]["duplicate"]
    assert shown["seed"] == rnd.seed and len(shown["boards"]) == 4
    for board in shown["boards"]:
        assert len(board["hands"]) == 2 and board["trump"]
        for hand in board["hands"]:
            assert [len(c) for c in hand["cards"]] == [6] and [r["table"] for r in hand["results"]] == [1, 2]
            assert sum(r["mp"] for r in hand["results"]) == 2
    rows = dup["standings"]
    assert [r["rank"] for r in rows] == [1, 2, 3, 4] and all(r["boards"] == 4 for r in rows)
    # Opponents at one table hold each other's hands: the four percentages average 50.
    assert sum(r["pct"] for r in rows) == pytest.approx(200, abs=0.1)
    final = dict(Entry.objects.filter(tournament=t).values_list("pk", "final_rank"))
    assert all(final[r["entry"]] == r["rank"] for r in rows)


def test_a_duplicate_hearts_tournament_deals_the_same_cards_at_every_table(bots, clock, task_queue,
                                                                          advance_queue):
    t = _tournament(clock, "hearts", "standard", bots(7), rounds=2, boards=2)
    watch = SecretWatch()
    with watch.watching(t.pk):
        t = run_tournament(t.pk, clock, task_queue, advance_queue, step=1.0, redeliver=2, on_step=watch, limit=400)

    assert t.status == "finished" and watch.finished_tables_checked
    rounds = list(Round.objects.filter(tournament=t).order_by("number"))
    assert len(rounds) == 2 and rounds[0].seed != rounds[1].seed
    everything = []
    for rnd in rounds:
        games = list(Game.objects.filter(round=rnd).select_related("table__match").order_by("board"))
        assert len(games) == 2 and [g.players.count(None) for g in games] == [0, 1]   # 7: 4 + 3 and a bot
        records = [_records(g) for g in games]
        for k in range(2):
            first = records[0][k]
            assert first["dealer"] == k and first["fair"]["label"] == f"round:{t.pk}-{rnd.number}"
            for other in records[1:]:
                assert other[k]["hands"] == first["hands"] and other[k]["dealer"] == first["dealer"]
            everything += [r[k] for r in records]
        assert {r["fair"]["server_seed"] for r in everything[-4:]} == {rnd.seed}
    _verifies(everything)

    state = services.state(t)
    dup = state["duplicate"]
    for rnd in rounds:
        boards = state["rounds"][rnd.number - 1]["duplicate"]["boards"]
        assert len(boards) == 2
        for board in boards:
            assert len(board["hands"]) == 4           # each seat's hand, held at both tables
            for hand in board["hands"]:
                assert [len(c) for c in hand["cards"]] == [13] and len(hand["results"]) == 2
                assert sum(r["mp"] for r in hand["results"]) == 2
    rows = dup["standings"]
    assert len(rows) == 7 and all(r["boards"] == 4 for r in rows)
    assert [r["rank"] for r in rows] == list(range(1, 8))
    assert rows == sorted(rows, key=lambda r: -r["pct"])


def test_the_page_shows_the_comparison_only_after_the_round(make_user, client, bots, clock, task_queue,
                                                          advance_queue):
    t = _tournament(clock, "sixtysix", "kurnik", bots(4), rounds=1, boards=2)
    pages = []

    def look(tt):
        if not pages:
            html = client.get(f"/tournaments/{tt.pk}/").content.decode()
            rnd = Round.objects.get(tournament=tt)
            assert rnd.commitment in html and rnd.seed not in html
            assert "data-duplicate-board" not in html
            pages.append(html)
    with at_each_match_end(t.pk, look):
        t = run_tournament(t.pk, clock, task_queue, advance_queue, step=1.0, limit=300)
    assert pages
    html = client.get(f"/tournaments/{t.pk}/").content.decode()
    rnd = Round.objects.get(tournament=t)
    assert rnd.seed in html and html.count("data-duplicate-board") == 2
    assert "Duplicate" in html and "matchpoints" in html


def test_a_table_that_forfeits_scores_average_plus_and_minus(make_user, bots, clock, task_queue, advance_queue):
    ghost = make_user("ghost")          # never moves: loses his match on time, its boards unplayed
    # Basic bots: a random one may lead a marriage with a false claim of 66, ending a deal the
    # ghost never touched.
    t = _tournament(clock, "sixtysix", "kurnik", bots(3, "basic") + [ghost], rounds=1, boards=3)
    Tournament.objects.filter(pk=t.pk).update(bank_seconds=10)
    t = run_tournament(t.pk, clock, task_queue, advance_queue, step=2.0, limit=300)
    assert t.status == "finished"
    ghost_entry = Entry.objects.get(tournament=t, user=ghost)
    game = next(g for g in Game.objects.filter(round__tournament=t) if ghost_entry.pk in g.players)
    assert game.result["timed_out"] == [game.players.index(ghost_entry.pk)]
    # He never moved, so the first board never finished: all three are artificial scores.
    assert not Deal.objects.filter(match__table=game.table, finished=True).exists()
    rows = {r["entry"]: r for r in services.state(t)["duplicate"]["standings"]}
    opponent = next(p for p in game.players if p != ghost_entry.pk)
    assert rows[ghost_entry.pk]["pct"] == duplicate.AVERAGE_MINUS and rows[opponent]["pct"] == duplicate.AVERAGE_PLUS
    assert rows[ghost_entry.pk]["rank"] == 4 and rows[ghost_entry.pk]["boards"] == 3


def test_an_odd_sixtysix_field_gives_a_bye_worth_half_of_every_board(bots, clock, task_queue, advance_queue):
    t = _tournament(clock, "sixtysix", "kurnik", bots(5), rounds=1, boards=2)
    t = run_tournament(t.pk, clock, task_queue, advance_queue, step=1.0, redeliver=2, limit=300)
    assert t.status == "finished"
    games = list(Game.objects.filter(round__tournament=t).order_by("board"))
    assert [g.bye for g in games] == [False, False, True]
    rows = {r["entry"]: r for r in services.state(t)["duplicate"]["standings"]}
    bye = rows[games[2].players[0]]
    assert (bye["pct"], bye["boards"], bye["byes"]) == (50.0, 2, 1)
    # The two tables still compared each hand (a group of two per hand and board).
    shown = services.state(t)["rounds"][0]["duplicate"]
    assert all(len(h["results"]) == 2 for b in shown["boards"] for h in b["hands"])


def test_an_admin_adds_a_round_to_a_duplicate_and_the_form_checks_its_boards(make_user, bots, clock, task_queue,
                                                                           advance_queue):
    from tournaments import controls
    from tournaments.forms import TournamentForm

    admin = make_user("arbiter", is_superuser=True, is_staff=True)
    t = _tournament(clock, "hearts", "standard", bots(4), rounds=1, boards=1)
    controls.add_round(t.pk, admin)
    t = run_tournament(t.pk, clock, task_queue, advance_queue, step=1.0, limit=300)
    assert t.status == "finished" and Round.objects.filter(tournament=t).count() == 2
    data = {"name": "D", "game": "spades", "variant": "", "format": "duplicate", "rounds": 3, "boards": 0,
            "starts_at": "2030-01-01 10:00", "bank_seconds": 300, "increment_seconds": 5, "min_entries": 4,
            "max_entries": 16, "break_seconds": 30, "bot_level": "basic", "arena_minutes": 45}
    form = TournamentForm(data)
    assert not form.is_valid() and "boards" in form.errors
    form = TournamentForm(dict(data, boards=4))
    assert form.is_valid(), form.errors


def test_a_duplicate_spades_round_compares_partnerships(bots, clock, task_queue, advance_queue):
    t = _tournament(clock, "spades", "standard", bots(8), rounds=1, boards=2)
    seen_running = []

    def look(tt):
        seen_running.append(services.state(tt)["duplicate"]["standings"])
    with at_each_match_end(t.pk, look):
        t = run_tournament(t.pk, clock, task_queue, advance_queue, step=1.0, redeliver=2, limit=300)
    assert t.status == "finished" and seen_running and seen_running[0] == []    # nothing ranked mid-round
    shown = services.state(t)["rounds"][0]["duplicate"]
    for board in shown["boards"]:
        assert [h["label"] for h in board["hands"]] == ["The dealer's partnership", "The other partnership"]
        for hand in board["hands"]:
            assert [len(c) for c in hand["cards"]] == [13, 13] and len(hand["results"]) == 2
            assert all(len(r["players"]) == 2 for r in hand["results"])
            assert sum(r["mp"] for r in hand["results"]) == 2
    rows = services.state(t)["duplicate"]["standings"]
    pct = {r["entry"]: r["pct"] for r in rows}
    for g in Game.objects.filter(round__tournament=t):
        assert pct[g.players[0]] == pct[g.players[2]] and pct[g.players[1]] == pct[g.players[3]]   # partners alike
