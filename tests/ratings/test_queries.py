"""Query counts of the leaderboard, profile and history pages on a big site: 10,000 users and
20,000 finished matches, 2,000 of them the hero's (bulk inserts, once for the module, rolled back at
the end). A count that grows with the rows shows at this size as at any larger one: five times the
matches only made the setup five times slower."""
import json
import random
import time
from datetime import timedelta

import pytest
from django.contrib.auth.hashers import make_password
from django.db import connection, transaction
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.models import Match, Table
from ratings import rating as R
from ratings.models import MatchPlayer, Rating, RatingChange

USERS = 10_000
MATCHES = 20_000
HERO_MATCHES = 2_000          # matches of the player whose pages we open
HEARTS_EVERY = 5              # one match in five is hearts (four seats), the rest sixty-six


def _insert(model, fields, rows):
    table = model._meta.db_table
    cols = ", ".join(connection.ops.quote_name(model._meta.get_field(f).column) for f in fields)
    sql = f"INSERT INTO {connection.ops.quote_name(table)} ({cols}) VALUES ({', '.join(['%s'] * len(fields))})"
    with connection.cursor() as cur:
        for i in range(0, len(rows), 20_000):
            cur.executemany(sql, rows[i:i + 20_000])


def _ids(model, first, n):
    return list(model.objects.filter(pk__gte=first).order_by("pk").values_list("pk", flat=True)[:n])


def populate():
    rng = random.Random(7)
    now = timezone.now()
    pw = make_password(None)
    first_user = (User.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1
    _insert(User, ["username", "password", "is_guest", "is_bot", "bot_level", "is_staff", "is_active",
                   "is_superuser", "first_name", "last_name", "email", "date_joined"],
            [(f"u{i:05d}", pw, False, False, "", False, True, False, "", "", "", now) for i in range(USERS)])
    users = _ids(User, first_user, USERS)
    hero = users[0]
    names = {u: f"u{i:05d}" for i, u in enumerate(users)}

    first_table = (Table.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1
    games = ["hearts" if i % HEARTS_EVERY == 0 else "sixtysix" for i in range(MATCHES)]
    variants = ["standard" if g == "hearts" else "kurnik" for g in games]
    _insert(Table, ["game", "variant", "rated", "bank_seconds", "increment_seconds", "private", "invite_token",
                    "status", "owner", "version", "created_at", "updated_at"],
            [(g, v, i % 3 != 0, 300, 5, i % 10 == 0, f"t{i}", "finished", users[i % USERS], 1, now, now)
             for i, (g, v) in enumerate(zip(games, variants))])
    tables = _ids(Table, first_table, MATCHES)
    states = {g: json.dumps({"game": g, "variant": v, "players": ["a"] * n, "dealer": 0, "scores": [0] * n,
                             "bags": None, "deal_number": 3, "results": []})
              for g, v, n in (("sixtysix", "kurnik", 2), ("hearts", "standard", 4))}
    when = [now - timedelta(minutes=i) for i in range(MATCHES)]
    _insert(Match, ["table", "state", "finished", "winners", "ranks", "timed_out", "ended_by", "started_at",
                    "finished_at"],
            [(t, states[g], True, "[0]", "[1, 2]", "[]", "score", when[i], when[i])
             for i, (t, g) in enumerate(zip(tables, games))])
    matches = _ids(Match, Match.objects.filter(table_id=tables[0]).get().pk, MATCHES)

    players, changes = [], []
    hero_slots = set(rng.sample(range(MATCHES), HERO_MATCHES))
    display = {}
    for i, (m, g, v) in enumerate(zip(matches, games, variants)):
        n = 4 if g == "hearts" else 2
        seated = rng.sample(users[1:], n)
        if i in hero_slots:
            seated[rng.randrange(n)] = hero
        ranks = list(range(1, n + 1))
        rng.shuffle(ranks)
        rated, private = i % 3 != 0, i % 10 == 0
        for seat, (u, rank) in enumerate(zip(seated, ranks)):
            result = "win" if rank == 1 else "loss"
            players.append((m, seat, u, names[u], rank, result, rng.randrange(0, 120), g, v, rated, private,
                            False, when[i]))
            if u == hero and rated:
                before = display.get(g, 1500)
                after = before + (12 if rank == 1 else -9)
                display[g] = after
                changes.append((m, u, g, v, 25.0, 8.0, 25.5, 7.9, before, after, 1, when[i]))
    _insert(MatchPlayer, ["match", "seat", "user", "name", "rank", "result", "score", "game", "variant", "rated",
                          "private", "timed_out", "finished_at"], players)
    _insert(RatingChange, ["match", "user", "game", "variant", "mu_before", "sigma_before", "mu_after",
                           "sigma_after", "display_before", "display_after", "games_after", "created_at"], changes)
    ratings = []
    for u in users:
        for g, v in (("sixtysix", "kurnik"), ("hearts", "standard")):
            mu = rng.gauss(25, 3)
            ratings.append((u, g, v, mu, 4.0, R.display(mu), rng.randrange(0, 40), rng.randrange(0, 10), now))
    _insert(Rating, ["user", "game", "variant", "mu", "sigma", "display", "games", "wins", "updated"], ratings)
    return {"hero": names[hero], "users": len(users), "matches": len(matches), "players": len(players)}


@pytest.fixture(scope="module")
def big_site(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        atomic = transaction.atomic()
        atomic.__enter__()
        try:
            start = time.monotonic()
            info = populate()
            info["seconds"] = time.monotonic() - start
            yield info
        finally:
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)


@pytest.fixture
def viewer(big_site, client, make_user):
    client.force_login(make_user("viewer"))
    return client


def test_the_site_is_big(big_site, db):
    assert User.objects.count() >= 10_000 and Match.objects.count() >= MATCHES
    assert MatchPlayer.objects.filter(user__username=big_site["hero"]).count() == HERO_MATCHES


@pytest.mark.parametrize("page", [1, 150])
def test_the_leaderboard_takes_a_bounded_number_of_queries(viewer, django_assert_max_num_queries, page):
    url = reverse("leaderboard", args=["sixtysix", "kurnik"]) + f"?page={page}"
    with django_assert_max_num_queries(5) as ctx:
        resp = viewer.get(url)
    assert resp.status_code == 200 and resp.content.count(b'href="/accounts/u/u') == 50
    print(f"leaderboard page {page}: {len(ctx.captured_queries)} queries")


def test_the_profile_takes_a_bounded_number_of_queries(viewer, big_site, django_assert_max_num_queries):
    url = reverse("profile", args=[big_site["hero"]])
    # One of them: the viewer's game in progress, linked from every page (games/in_progress.py).
    with django_assert_max_num_queries(13) as ctx:
        resp = viewer.get(url)
    assert resp.status_code == 200 and resp.content.count(b'class="rating-chart"') == 2
    print(f"profile: {len(ctx.captured_queries)} queries")


@pytest.mark.parametrize("query", ["", "?game=hearts", "?result=win", "?game=sixtysix&result=loss&page=7"])
def test_the_history_takes_a_bounded_number_of_queries(viewer, big_site, django_assert_max_num_queries, query):
    url = reverse("history", args=[big_site["hero"]]) + query
    with django_assert_max_num_queries(8) as ctx:          # with the game-in-progress link's query
        resp = viewer.get(url)
    assert resp.status_code == 200 and resp.content.count(b'<tr class="result-') == 25
    print(f"history {query or '(all)'}: {len(ctx.captured_queries)} queries")
