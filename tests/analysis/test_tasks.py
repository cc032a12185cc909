"""The analysis app: created when a match ends, run once (twice delivered or concurrent), only the
people's decisions, and who may read it."""
import pytest
from django.test import Client

from analysis import scheduling, services, tasks
from analysis.models import Analysis, Takeover
from games.signals import match_finished, seat_taken_over
from games.models import Deal

from .records import FALSE_CLAIM, FALSE_CLAIM_STEP, NIL_COVER, NIL_COVER_STEP, make_finished_match

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def quick(settings, monkeypatch):
    settings.ANALYSIS_ITERATIONS = 24
    queued = []
    monkeypatch.setattr(scheduling, "_enqueue", queued.append)
    monkeypatch.setattr(scheduling, "_waiting", lambda: 0)     # the tasks are collected, not queued
    return queued


def test_a_finished_match_gets_an_analysis_queued_on_commit(quick, django_capture_on_commit_callbacks):
    match = make_finished_match([FALSE_CLAIM], {0: "ala"})
    with django_capture_on_commit_callbacks(execute=True):
        match_finished.send(sender=type(match), match=match, table=match.table)
    assert Analysis.objects.get(match=match).status == "pending"
    assert quick == [match.pk]


def test_no_analysis_when_no_person_played(quick, django_capture_on_commit_callbacks):
    match = make_finished_match([FALSE_CLAIM], {0: "ala"})
    match.table.seats.filter(index=0).update(user=None)
    with django_capture_on_commit_callbacks(execute=True):
        match_finished.send(sender=type(match), match=match, table=match.table)
    assert not Analysis.objects.filter(match=match).exists() and quick == []


def test_the_task_judges_only_the_human_seats_and_stores_the_blunder():
    match = make_finished_match([NIL_COVER], {0: "ala", 2: "bob"})
    Analysis.objects.create(match=match)
    assert tasks.analyse_match(match.pk) is True
    a = Analysis.objects.get(match=match)
    assert a.status == "done" and a.done == a.total > 0 and a.cpu_seconds > 0
    decisions = a.result["deals"][0]["decisions"]
    assert {d["seat"] for d in decisions} == {0, 2}
    blunder = next(d for d in decisions if d["step"] == NIL_COVER_STEP)
    assert blunder["label"] == "blunder" and blunder["seat"] == 0
    assert [r["seat"] for r in a.result["summary"]] == [0, 2]


def test_a_task_delivered_twice_does_nothing_the_second_time():
    match = make_finished_match([FALSE_CLAIM], {0: "ala"})
    Analysis.objects.create(match=match)
    assert tasks.analyse_match(match.pk) is True
    first = Analysis.objects.get(match=match)
    assert tasks.analyse_match(match.pk) is False
    again = Analysis.objects.get(match=match)
    assert (again.result, again.finished_at, again.claim) == (first.result, first.finished_at, first.claim)


def test_a_run_that_loses_its_claim_stores_nothing(monkeypatch):
    """Two workers at once: only the holder of the claim writes; the other stops at its next
    progress write."""
    match = make_finished_match([FALSE_CLAIM], {0: "ala"})
    a = Analysis.objects.create(match=match)
    real_analyse = services.A.analyse

    def contested(*args, **kwargs):
        Analysis.objects.filter(pk=a.pk).update(claim="someone-else")
        return real_analyse(*args, **kwargs)
    monkeypatch.setattr(services, "PROGRESS_EVERY", 0)
    monkeypatch.setattr(services.A, "analyse", contested)
    assert services.run(match.pk) is False
    a.refresh_from_db()
    assert a.status == "running" and a.result is None and a.claim == "someone-else"
    # ...and the run holding it is not disturbed by a second delivery meanwhile.
    assert services._claim(a.pk) is None


def test_the_moves_a_bot_made_for_a_player_are_not_judged():
    match = make_finished_match([NIL_COVER], {0: "ala", 2: "bob"})
    deal = Deal.objects.get(match=match)
    deal.record = dict(deal.record, actions=deal.record["actions"][:NIL_COVER_STEP])
    seat_taken_over.send(sender=type(match), match=match, seat=0, deal=deal)   # at step 16
    assert Takeover.objects.get(match=match, seat=0).step == NIL_COVER_STEP
    Analysis.objects.create(match=match)
    services.run(match.pk)
    decisions = Analysis.objects.get(match=match).result["deals"][0]["decisions"]
    assert max(d["step"] for d in decisions if d["seat"] == 0) < NIL_COVER_STEP
    assert any(d["step"] > NIL_COVER_STEP for d in decisions if d["seat"] == 2)


def test_a_bad_record_fails_the_analysis_once_with_a_reason():
    match = make_finished_match([FALSE_CLAIM], {0: "ala"})
    Deal.objects.filter(match=match).update(record=dict(FALSE_CLAIM, actions=[{"seat": 1, "type": "close"}]))
    Analysis.objects.create(match=match)
    assert services.run(match.pk) is False
    a = Analysis.objects.get(match=match)
    assert a.status == "failed" and "turn" in a.error


def test_the_sweeper_requeues_lost_analyses(quick):
    from datetime import timedelta
    from django.utils import timezone
    match = make_finished_match([FALSE_CLAIM], {0: "ala"})
    a = Analysis.objects.create(match=match)
    assert tasks.sweep() == 0
    Analysis.objects.filter(pk=a.pk).update(created_at=timezone.now() - timedelta(minutes=5))
    assert tasks.sweep() == 1 and quick == [match.pk]


def test_the_sweeper_sends_nothing_while_the_queue_holds_a_backlog(quick, monkeypatch):
    """The pending analyses are in the backlog: a copy each minute would pile up in the broker."""
    from datetime import timedelta
    from django.utils import timezone
    match = make_finished_match([FALSE_CLAIM], {0: "ala"})
    Analysis.objects.create(match=match, created_at=timezone.now() - timedelta(minutes=5))
    monkeypatch.setattr(scheduling, "_waiting", lambda: 3)
    assert tasks.sweep() == 0 and quick == []


def test_past_the_queue_limit_an_analysis_waits_in_the_database_for_the_sweeper(quick, monkeypatch, settings):
    settings.ANALYSIS_QUEUE_LIMIT = 3
    monkeypatch.setattr(scheduling, "_waiting", lambda: 3)
    scheduling.enqueue_analysis(7)
    monkeypatch.setattr(scheduling, "_waiting", lambda: 2)
    scheduling.enqueue_analysis(8)
    assert quick == [8]


def test_a_broker_that_cannot_count_its_queue_still_gets_the_task(quick, monkeypatch):
    def down():
        raise ConnectionError("broker away")
    monkeypatch.setattr(scheduling, "_waiting", down)
    scheduling.enqueue_analysis(9)
    assert quick == [9]


def test_the_queue_counts_the_messages_no_worker_has_taken():
    """Against the broker itself (the embedded mode's in-memory one here; tests/scaled: Redis)."""
    from celery import current_app
    with current_app.connection_for_write() as connection:
        connection.default_channel.queue_declare(queue=scheduling.QUEUE)
        connection.default_channel.queue_purge(scheduling.QUEUE)
        before = scheduling._celery_waiting()
        scheduling._celery_enqueue(41)
        scheduling._celery_enqueue(42)
        try:
            assert (before, scheduling._celery_waiting()) == (0, 2)
        finally:
            connection.default_channel.queue_purge(scheduling.QUEUE)


# --- the JSON the pages poll -------------------------------------------------------------------
def _get(client, match):
    return client.get(f"/match/{match.pk}/analysis.json")


def test_json_shows_progress_then_the_result():
    match = make_finished_match([FALSE_CLAIM], {0: "ala"})
    client = Client()
    assert _get(client, match).json()["status"] == "none"
    Analysis.objects.create(match=match, status="running", done=2, total=5)
    data = _get(client, match).json()
    assert (data["status"], data["done"], data["total"]) == ("running", 2, 5) and "result" not in data
    Analysis.objects.filter(match=match).update(status="pending")
    services.run(match.pk)
    data = _get(client, match).json()
    assert data["status"] == "done" and data["result"]["summary"][0]["blunders"] == 1
    assert data["seats"] == ["ala", "Bot (basic)"]


def test_json_only_for_finished_matches():
    match = make_finished_match([FALSE_CLAIM], {0: "ala"}, finished=False)
    assert _get(Client(), match).status_code == 404


def test_json_of_a_private_match_only_for_its_players(make_user):
    match = make_finished_match([FALSE_CLAIM], {0: "ala"}, private=True)
    assert _get(Client(), match).status_code == 404
    stranger = Client()
    make_user("eve")
    stranger.login(username="eve", password="a-Secret-123")
    assert _get(stranger, match).status_code == 404
    player = Client()
    player.login(username="ala", password="a-Secret-123")
    assert _get(player, match).status_code == 200


def test_the_pages_carry_the_panel_only_when_finished():
    match = make_finished_match([FALSE_CLAIM], {0: "ala"})
    client = Client()
    page = client.get(f"/match/{match.pk}/").content.decode()
    assert 'id="analysis"' in page and f"/match/{match.pk}/analysis.json" in page
    replay = client.get(f"/match/{match.pk}/deal/1/").content.decode()
    assert 'data-deal="1"' in replay
    unfinished = make_finished_match([FALSE_CLAIM], {0: "ola"}, finished=False)
    assert 'id="analysis"' not in client.get(f"/match/{unfinished.pk}/").content.decode()


@pytest.mark.django_db(transaction=True)
def test_a_real_timeout_in_a_four_player_match_leaves_the_bots_moves_out(make_user, task_queue, quick):
    """Through the services: ala times out at the hearts pass, a bot plays her seat to the end; the
    analysis created at the end judges none of her seat's moves."""
    from tests.games.helpers import expire_clock
    from games import loading, services as game_services

    ala = make_user("ala")
    t = game_services.create_table(ala, "hearts", seats=["me", "random", "random", "random"], start=True)
    task_queue.run_due()
    expire_clock(t.pk, 0)
    game_services.advance(t.pk)
    task_queue.run_due()
    live = loading.load(t.pk)
    assert live.table.status == "finished"
    takeover = Takeover.objects.get(match=live.match, seat=0)
    assert (takeover.deal_number, takeover.step) == (0, 3)          # the three bots had passed
    assert Analysis.objects.filter(match=live.match).exists()
    assert services.run(live.match.pk) is True
    assert Analysis.objects.get(match=live.match).result["summary"] == []
