"""Provably fair deals through the services: commit, client seeds, draw, reveal (games/fair_deals.py,
docs/FAIRNESS.md). The seed wait is 0 in the test settings; the tests of the wait set it."""
import io
import json
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import loading, messages, services
from games.engine import fair, verify
from games.engine.core import get_rules
from realtime.errors import ServiceError
from games.models import Deal, Match, Seat, Table

from .helpers import human_move

pytestmark = pytest.mark.django_db(transaction=True)
SEED_A, SEED_B = "a1" * 16, "b2" * 32


@pytest.fixture
def seed_wait(settings):
    settings.GAMES_FAIR_SEED_WAIT_MS = 1500
    settings.GAMES_DEAL_PAUSE_MS = 0
    return settings


def pending(table_id) -> dict:
    return Table.objects.get(pk=table_id).fair_pending


def public_fair(table_id) -> dict:
    return messages.table_json(loading.load(table_id))["fair"]


def test_play_now_commits_first_then_draws_from_the_players_seed_at_once(make_user, task_queue, sent, seed_wait):
    ala = make_user("ala")
    t = services.create_table(ala, "sixtysix", seats=["me", "random"], start=True)
    # Committed, not drawn: no deal, no card, the commitment for everyone, never the seed.
    assert Table.objects.get(pk=t.pk).status == Table.Status.BETWEEN_DEALS
    assert not Deal.objects.filter(match__table=t).exists()
    committed = pending(t.pk)
    assert committed["awaiting"] == [0] and committed["commitment"] == fair.commitment(bytes.fromhex(committed["seed"]))
    shown = public_fair(t.pk)
    assert shown == {"deal": None, "next": {"deal_number": 0, "commitment": committed["commitment"],
                                            "seeded": [], "awaiting": [0]}}
    assert committed["seed"] not in json.dumps(messages.table_json(loading.load(t.pk)))
    Table.objects.filter(pk=t.pk).update(spectators=1)      # someone watches: the change is sent
    loading.forget(t.pk)
    services.seed(t.pk, ala, committed["commitment"], SEED_A)
    # Every awaited seat seeded: drawn in the same change, from the committed seed and hers.
    deal = Deal.objects.get(match__table=t)
    assert deal.server_seed == committed["seed"] and pending(t.pk) is None
    assert deal.record["fair"] == {"derivation": fair.DERIVATION, "commitment": committed["commitment"],
                                   "label": f"match:{deal.match_id}", "client_seeds": [SEED_A, None]}
    revealed = dict(deal.record, fair=dict(deal.record["fair"], server_seed=deal.server_seed))
    assert fair.check_record(revealed, get_rules)
    assert public_fair(t.pk)["deal"] == dict(deal.record["fair"], deal_number=0)
    assert Table.objects.get(pk=t.pk).status == Table.Status.PLAYING
    texts = [m[1].get("text", "") for m in sent]
    assert not [x for x in texts if committed["seed"] in x]
    events = [e["kind"] for x in texts if x for e in json.loads(x).get("events", [])]
    assert events[-2:] == ["seeded", "deal_start"]


def test_without_a_seed_the_deal_is_drawn_when_the_window_is_over(make_user, task_queue, seed_wait):
    ala = make_user("ala")
    t = services.create_table(ala, "hearts", seats=["me", "random", "random", "random"], start=True)
    table = Table.objects.get(pk=t.pk)
    assert table.due_at == table.next_deal_at and table.next_deal_at > timezone.now()
    assert task_queue.run_all_of(t.pk) == 1           # run early: the window is not over, nothing drawn
    assert not Deal.objects.filter(match__table=t).exists()
    # The window passes (the stored times move into the past, as in the clock tests).
    past = timezone.now() - timedelta(seconds=1)
    Table.objects.filter(pk=t.pk).update(next_deal_at=past, due_at=past)
    loading.forget(t.pk)
    services.advance(t.pk)
    deal = Deal.objects.get(match__table=t, number=0)
    assert deal.record["fair"]["client_seeds"] == [None] * 4
    assert deal.record["fair"]["commitment"] == fair.commitment(bytes.fromhex(deal.server_seed))


def test_the_next_deals_commitment_is_made_when_a_deal_ends_and_awaits_only_connected_players(
        make_user, task_queue, seed_wait):
    ala, ola = make_user("ala"), make_user("ola")
    t = services.create_table(ala, "sixtysix", seats=["me", ""])
    services.sit(t.pk, ola, 1)
    first = pending(t.pk)
    services.seed(t.pk, ala, first["commitment"], SEED_A)
    assert not Deal.objects.filter(match__table=t).exists()      # still waiting for ola
    services.seed(t.pk, ola, first["commitment"], SEED_B)
    assert Deal.objects.get(match__table=t).record["fair"]["client_seeds"] == [SEED_A, SEED_B]
    Seat.objects.filter(table=t, index=1).update(connections=1)     # ola's page is open, ala's not
    loading.forget(t.pk)
    while not Deal.objects.get(match__table=t, number=0).finished:
        lv = loading.load(t.pk)
        user = ala if lv.state.seats_to_act()[0] == 0 else ola
        human_move(t.pk, user)
    # The first deal is over: the second's commitment exists before the deal, awaiting ola only.
    second = pending(t.pk)
    assert second["deal_number"] == 1 and second["awaiting"] == [1] and second["commitment"] != first["commitment"]
    with pytest.raises(ServiceError) as err:
        services.seed(t.pk, ala, first["commitment"], SEED_A)   # the drawn deal's commitment
    assert err.value.code == "seed_too_late"
    services.seed(t.pk, ola, second["commitment"], SEED_B)
    deal = Deal.objects.get(match__table=t, number=1)
    assert deal.record["fair"]["client_seeds"] == [None, SEED_B]
    assert deal.record["fair"]["commitment"] == second["commitment"]


def test_it_refuses_seeds_from_spectators_bots_twice_or_malformed(make_user, task_queue, seed_wait):
    ala, eve = make_user("ala"), make_user("eve")
    t = services.create_table(ala, "spades", seats=["me", "random", "", "random"])
    services.sit(t.pk, make_user("ola"), 2)
    commitment = pending(t.pk)["commitment"]
    version = Table.objects.get(pk=t.pk).version
    for user, seed, code in [(eve, SEED_A, "spectator"), (ala, "ABC", "bad_seed"), (ala, SEED_A.upper(), "bad_seed"),
                             (ala, None, "bad_seed"), (Seat.objects.get(table=t, index=1).user, SEED_A, "spectator")]:
        with pytest.raises(ServiceError) as err:
            services.seed(t.pk, user, commitment, seed)
        assert err.value.code == code and err.value.reason
    with pytest.raises(ServiceError) as err:
        services.seed(t.pk, ala, "00" * 32, SEED_A)
    assert err.value.code == "seed_too_late"
    assert Table.objects.get(pk=t.pk).version == version          # refusals change nothing
    services.seed(t.pk, ala, commitment, SEED_A)
    with pytest.raises(ServiceError) as err:
        services.seed(t.pk, ala, commitment, SEED_B)
    assert err.value.code == "already_seeded"
    assert pending(t.pk)["client_seeds"] == [SEED_A, None, None, None]


def test_with_no_wait_the_match_starts_with_its_deal_and_records_its_commitment(make_user, task_queue):
    t = services.create_table(make_user("ala"), "hearts", seats=["me", "random", "random", "random"], start=True)
    deal = Deal.objects.get(match__table=t)
    assert deal.record["fair"]["client_seeds"] == [None] * 4
    assert Table.objects.get(pk=t.pk).status == Table.Status.PLAYING and pending(t.pk) is None


def test_the_seed_is_revealed_in_the_records_only_once_the_match_is_over(make_user, task_queue, client):
    ala = make_user("ala")
    t = services.create_table(ala, "sixtysix", seats=["random", "random"], start=True)
    match = Match.objects.get(table=t)
    task_queue.run_due(limit=3)
    assert not match.deals.filter(finished=True).exists() or not Match.objects.get(pk=match.pk).finished
    assert client.get(reverse("download_match", args=[match.pk])).status_code == 404
    assert client.get(reverse("download_deal", args=[match.pk, 1])).status_code == 404
    task_queue.run_due()
    match.refresh_from_db()
    assert match.finished and match.deals.count() >= 2
    text = client.get(reverse("download_match", args=[match.pk])).content.decode()
    records = [json.loads(line) for line in text.splitlines()]
    assert [r["fair"]["server_seed"] for r in records] == [d.server_seed for d in match.deals.order_by("number")]
    out = io.StringIO()
    assert verify.main(["-"], stdin=io.StringIO(text), out=out) == 0, out.getvalue()
    one = json.loads(client.get(reverse("download_deal", args=[match.pk, 1])).content)
    assert one == records[0]
    # The stored record itself never holds the seed (reports copy it, the analysis reads it).
    assert all("server_seed" not in d.record["fair"] for d in match.deals.all())
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert reverse("verify_match", args=[match.pk]) + "#deal-1" in page
    verify_page = client.get(reverse("verify_match", args=[match.pk])).content.decode()
    assert reverse("download_match", args=[match.pk]) in verify_page and "js/verify.js" in verify_page


def test_a_match_ended_on_time_never_reveals_its_cut_deal(make_user, task_queue):
    from archive.visibility import public_record

    ala, ola = make_user("ala"), make_user("ola")
    t = services.create_table(ala, "sixtysix", seats=["me", ""])
    services.sit(t.pk, ola, 1)
    from .helpers import expire_clock
    lv = loading.load(t.pk)
    expire_clock(t.pk, lv.state.seats_to_act()[0])
    services.advance(t.pk)
    match = Match.objects.get(table=t)
    # Nobody had moved: the clock's end aborts the match (games/first_moves.py); its deal stays hidden.
    assert match.finished and match.ended_by == "aborted"
    deal = match.deals.get()
    assert deal.server_seed and "server_seed" not in public_record(match, deal)["fair"]
    assert Table.objects.get(pk=t.pk).fair_pending is None
