"""Resign, abort and claiming the remaining tricks through the services (games/actions/exits.py): what each
does to the match, its history rows and ratings, and every refusal's code and reason."""
import json

import pytest

from games import loading, presence, services
from games.actions import exits
from games.engine import cards as C
from realtime.errors import ServiceError
from games.models import Deal, Match, Seat, Table
from pool.services import seated_at
from ratings.models import MatchPlayer

from ..helpers import every_seat_moves, human_move, ratings_enqueued, version  # noqa: F401 (a fixture)
from ..test_leavers import away_for

pytestmark = pytest.mark.django_db(transaction=True)


def two_players(make_user, **kw):
    ala, ola = make_user("ala"), make_user("ola")
    t = services.create_table(ala, "sixtysix", "kurnik", seats=[ala, ola], start=True, **kw)
    return t, ala, ola


def both_move(t, ala, ola):
    every_seat_moves(t.pk, [ala, ola])


def refused(call, *args):
    with pytest.raises(ServiceError) as err:
        call(*args)
    return err.value


def test_abort_before_both_moved_ends_the_match_unrated_and_aborted_in_the_history(make_user, task_queue,
                                                                                 ratings_enqueued):
    t, ala, ola = two_players(make_user, rated=True)
    exits.abort(t.pk, ola, version(t.pk))
    m = Match.objects.get(table=t)
    assert m.finished and m.ended_by == "aborted" and m.winners == [] and m.ranks == [1, 1]
    rows = MatchPlayer.objects.filter(match=m)
    assert rows.count() == 2 and all(r.aborted and not r.rated for r in rows)
    assert ratings_enqueued == []
    assert seated_at(ala) is None and seated_at(ola) is None        # free for the pool again


def test_abort_is_refused_once_both_moved_and_at_tournament_tables(make_user, task_queue):
    t, ala, ola = two_players(make_user)
    both_move(t, ala, ola)
    err = refused(exits.abort, t.pk, ala, version(t.pk))
    assert err.code == "abort_refused" and "resign" in err.reason
    t2 = services.create_table(make_user("eva"), "sixtysix", seats=[make_user("iza"), make_user("ula")], start=True)
    Table.objects.filter(pk=t2.pk).update(tournament_table=True)
    loading.forget(t2.pk)
    iza = Seat.objects.get(table=t2, index=0).user
    err = refused(exits.abort, t2.pk, iza, version(t2.pk))
    assert err.code == "abort_refused" and "tournament" in err.reason


def test_resign_after_both_moved_is_a_loss_rated_and_recorded(make_user, task_queue, ratings_enqueued):
    t, ala, ola = two_players(make_user, rated=True)
    both_move(t, ala, ola)
    exits.resign(t.pk, ala, version(t.pk))
    m = Match.objects.get(table=t)
    assert m.ended_by == "resigned" and m.winners == [1] and m.ranks == [2, 1] and m.resigned == [0]
    rows = {r.seat: r for r in MatchPlayer.objects.filter(match=m)}
    assert rows[0].result == "loss" and rows[0].resigned and rows[1].result == "win" and rows[0].rated
    assert ratings_enqueued == [m.pk]
    assert seated_at(ala) is None


def test_a_resignation_before_both_moved_is_an_abort(make_user, task_queue, ratings_enqueued):
    t, ala, ola = two_players(make_user, rated=True)
    exits.resign(t.pk, ala, version(t.pk))
    m = Match.objects.get(table=t)
    assert m.ended_by == "aborted" and m.winners == [] and ratings_enqueued == []


def test_a_leavers_claim_before_both_moved_is_an_abort_not_a_win(make_user, task_queue, ratings_enqueued):
    t, ala, ola = two_players(make_user, rated=True)
    presence.place(t.pk, "ala-1", 0)
    away_for(t.pk, 1, 300)
    services.claim_win(t.pk, ala, version(t.pk))
    m = Match.objects.get(table=t)
    assert m.ended_by == "aborted" and m.winners == [] and ratings_enqueued == []
    assert all(r.aborted for r in MatchPlayer.objects.filter(match=m))


def test_refusals_of_spectators_and_finished_matches(make_user, task_queue):
    t, ala, ola = two_players(make_user)
    eve = make_user("eve")
    for call in (exits.resign, exits.abort, exits.claim_rest):
        assert refused(call, t.pk, eve, version(t.pk)).code == "spectator"
    assert refused(exits.resign, t.pk, ala, "x").code == "bad_request"
    exits.abort(t.pk, ala, version(t.pk))
    assert refused(exits.resign, t.pk, ola, version(t.pk)).reason == "No match is in progress."


def four(make_user, game, seats):
    owner = make_user("own")
    users = [make_user(f"p{i}") if s == "me" else s for i, s in enumerate(seats)]
    t = services.create_table(owner, game, seats=users, start=True)
    return t, [u if not isinstance(u, str) else None for u in users]


def test_hearts_resign_among_people_gives_the_seat_to_a_bot_and_he_ranks_last(make_user, task_queue):
    t, users = four(make_user, "hearts", ["me"] * 4)
    every_seat_moves(t.pk, users)
    exits.resign(t.pk, users[2], version(t.pk))
    seat = Seat.objects.get(table=t, index=2)
    m = Match.objects.get(table=t)
    assert seat.replaced_by_bot and m.resigned == [2] and not m.finished
    assert seated_at(users[2]) is None                              # free for the pool
    lv = loading.load(t.pk)
    assert services.final_ranks([1, 2, 3, 4], m.resigned)[2] == 4
    assert loading.seat_of(lv, users[2]) is None


def test_hearts_resign_against_bots_only_ends_the_match_as_a_loss(make_user, task_queue):
    t, users = four(make_user, "hearts", ["me", "random", "random", "random"])
    task_queue.run_due()                        # the bots pass
    human_move(t.pk, users[0])                  # and so does the person: every seat moved
    task_queue.run_due()
    exits.resign(t.pk, users[0], version(t.pk))
    m = Match.objects.get(table=t)
    assert m.finished and m.ended_by == "resigned" and m.resigned == [0] and m.ranks[0] == 4
    assert 0 not in m.winners


def test_hearts_resign_before_the_person_moved_is_an_abort(make_user, task_queue):
    t, users = four(make_user, "hearts", ["me", "random", "random", "random"])
    task_queue.run_due()
    exits.resign(t.pk, users[0], version(t.pk))
    m = Match.objects.get(table=t)
    assert m.finished and m.ended_by == "aborted" and m.winners == []


def _spades_with_hands(make_user, task_queue):
    """Four people at spades; the dealer holds every spade, the others one suit each; bids made."""
    t, users = four(make_user, "spades", ["me"] * 4)
    deal = Deal.objects.get(match__table=t)
    dealer = deal.record["dealer"]
    suits = ["S", "H", "D", "C"]
    hands = [None] * 4
    for k in range(4):
        hands[(dealer + k) % 4] = [r + suits[k] for r in C.RANKS]
    deal.record["hands"] = hands
    deal.record.pop("fair", None)
    deal.save()
    loading.forget(t.pk)
    for k in range(4):
        seat = (dealer + k) % 4
        services.act(t.pk, users[seat], version(t.pk), {"type": "bid", "tricks": 3})
    return t, users, dealer


def test_a_proved_claim_plays_out_at_once_and_shows_the_claimers_cards(make_user, task_queue, sent):
    t, users, dealer = _spades_with_hands(make_user, task_queue)
    presence.place(t.pk, "watcher-1", None)
    sent.clear()
    exits.claim_rest(t.pk, users[dealer], version(t.pk))
    deal = Deal.objects.get(match__table=t, number=0)
    assert deal.finished and deal.result["tricks"][dealer] == 13
    assert len(deal.record["actions"]) == 4 + 52                   # the bids, then every card played out
    msg = json.loads(sent[0][1]["text"])
    claim = next(e for e in msg["events"] if e["kind"] == "claim")
    assert claim == {"kind": "claim", "seat": dealer, "cards": [r + "S" for r in C.RANKS], "tricks": 13}


def test_an_unprovable_claim_is_refused_with_the_reason_and_changes_nothing(make_user, task_queue):
    t, users, dealer = _spades_with_hands(make_user, task_queue)
    v = version(t.pk)
    other = (dealer + 1) % 4
    err = refused(exits.claim_rest, t.pk, users[other], v)
    assert err.code == "claim_unproved" and "another player could still take a trick" in err.reason
    assert version(t.pk) == v
    assert refused(exits.claim_rest, t.pk, users[dealer], v - 1).code == "stale"


def test_no_claim_in_a_game_without_claims(make_user, task_queue):
    t, ala, ola = two_players(make_user)
    assert refused(exits.claim_rest, t.pk, ala, version(t.pk)).code == "no_claims"


def test_the_history_and_the_match_page_say_aborted_and_resigned(client, make_user, task_queue):
    from django.urls import reverse
    t, ala, ola = two_players(make_user, rated=True)
    exits.abort(t.pk, ala, version(t.pk))
    aborted = Match.objects.get(table=t)
    t2, ala2, ola2 = two_players_named(make_user, "ela", "iga")
    both_move(t2, ala2, ola2)
    exits.resign(t2.pk, ola2, version(t2.pk))
    resigned = Match.objects.get(table=t2)
    page = client.get(reverse("match", args=[aborted.pk])).content.decode()
    assert "aborted: not rated" in page
    page = client.get(reverse("match", args=[resigned.pk])).content.decode()
    assert "a player resigned" in page and "(resigned)" in page
    client.force_login(ala)
    history = client.get(reverse("my_history"), follow=True).content.decode()
    assert 'result-badge aborted">aborted<' in history


def two_players_named(make_user, a, b):
    ala, ola = make_user(a), make_user(b)
    t = services.create_table(ala, "sixtysix", "kurnik", seats=[ala, ola], start=True, rated=True)
    return t, ala, ola


def test_a_claim_proved_while_the_table_moved_on_is_stale_and_changes_nothing(make_user, task_queue, monkeypatch):
    from django.db.models import F

    t, users, dealer = _spades_with_hands(make_user, task_queue)
    real = exits.claims.claim_line

    def meanwhile(state, seat):         # another change commits while the proof runs (no lock held)
        line = real(state, seat)
        Table.objects.filter(pk=t.pk).update(version=F("version") + 1)
        return line
    monkeypatch.setattr(exits.claims, "claim_line", meanwhile)
    v = version(t.pk)
    assert refused(exits.claim_rest, t.pk, users[dealer], v).code == "stale"
    deal = Deal.objects.get(match__table=t, number=0)
    assert not deal.finished and len(deal.record["actions"]) == 4
