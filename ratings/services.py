"""Ratings: the writers (``record_players``, ``rate_match``) and the readers of ratings the pages
use. ``rating.py`` does the arithmetic; this module ties it to the models. A match's history, page
and replays are the archive's (``archive/``).

Exactly once: ``rate_match`` locks the Match row (``select_for_update``; SQLite: the IMMEDIATE
transaction takes the write lock up front) and applies only when the match has no RatingChange yet.
The unique (match, user) constraint on RatingChange backs it: two writers that somehow passed the
check cannot both insert, and the loser's transaction rolls back whole.
"""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from games import messages
from realtime import broadcast
from games.engine import core
from games.models import Match, Seat

from . import house_bots, rating as R
from .models import MatchPlayer, Rating, RatingChange

Result = MatchPlayer.Result


# --- for other apps -------------------------------------------------------------------------------
def current_rating(user, game: str, variant: str) -> int:
    """A player's rating on the display scale (``rating.DEFAULT_DISPLAY`` while unrated)."""
    user_id = getattr(user, "pk", user)
    value = (Rating.objects.filter(user_id=user_id, game=game, variant=variant)
             .values_list("display", flat=True).first())
    return R.DEFAULT_DISPLAY if value is None else value


def current_ratings(users, game: str, variant: str) -> dict[int, int]:
    """``current_rating`` for many players in one query: user id -> display rating."""
    ids = [getattr(u, "pk", u) for u in users]
    found = dict(Rating.objects.filter(user_id__in=ids, game=game, variant=variant)
                 .values_list("user_id", "display"))
    return {i: found.get(i, R.DEFAULT_DISPLAY) for i in ids}


# --- writers ----------------------------------------------------------------------------------------
def result_of(rank: int, ranks: list[int]) -> str:
    if all(r == 1 for r in ranks):
        return Result.DRAW
    return Result.WIN if rank == 1 else Result.LOSS


def record_players(match: Match, table=None) -> list[MatchPlayer]:
    """The history rows of a finished match, one per seat (idempotent)."""
    existing = list(MatchPlayer.objects.filter(match=match))
    if existing or not match.finished:
        return existing
    table = table or match.table
    seat_scores = core.get_rules(table.game).seat_scores(table.variant, match.state["scores"])
    ranks = match.ranks
    aborted = match.ended_by == "aborted"
    seats = list(Seat.objects.filter(table_id=match.table_id).select_related("user").order_by("index"))
    rated = table.rated and not aborted and not house_bots.has_house_bot(s.user for s in seats)
    rows = [MatchPlayer(
        match=match, seat=s.index, user=s.user, name=s.user.display_name if s.user_id else "",
        rank=ranks[s.index], result=result_of(ranks[s.index], ranks),
        score=seat_scores[s.index],                      # a partnership's seats: the team's score
        game=table.game, variant=table.variant, rated=rated, private=table.private,
        timed_out=s.index in match.timed_out, abandoned=s.index in (match.abandoned or []),
        resigned=s.index in (match.resigned or []), aborted=aborted,
        finished_at=match.finished_at or timezone.now(),
    ) for s in seats]
    MatchPlayer.objects.bulk_create(rows, ignore_conflicts=True)
    return list(MatchPlayer.objects.filter(match=match))


def rate_match(match_id: int) -> list[RatingChange]:
    """Apply a finished rated match to its players' ratings, once. Returns the changes made (empty
    when there is nothing to do: unrated, unfinished, or already applied)."""
    with transaction.atomic():
        match = Match.objects.select_for_update().select_related("table").filter(pk=match_id).first()
        if match is None or not match.finished or not match.table.rated or match.ended_by == "aborted":
            return []
        if RatingChange.objects.filter(match=match).exists():
            return []
        players = sorted(record_players(match), key=lambda p: p.seat)
        if not players or any(p.user_id is None for p in players):
            return []
        if house_bots.has_house_bot(p.user for p in players):
            return []
        table = match.table
        game, variant = table.game, table.variant
        user_ids = sorted({p.user_id for p in players})
        Rating.objects.bulk_create([Rating(user_id=u, game=game, variant=variant) for u in user_ids],
                                   ignore_conflicts=True)
        # Lock in a fixed order: two matches of the same players finishing at once cannot deadlock.
        ratings = {r.user_id: r for r in Rating.objects.select_for_update()
                   .filter(user_id__in=user_ids, game=game, variant=variant).order_by("user_id")}
        skills = [R.Skill(ratings[p.user_id].mu, ratings[p.user_id].sigma) for p in players]
        lost = sorted(set(match.timed_out) | set(match.resigned or []))     # ranked last: their side lost
        new = R.rate_match(game, skills, [p.rank for p in players], lost, variant)
        now = timezone.now()
        changes = []
        for uid in user_ids:
            r = ratings[uid]
            mine = [p for p in players if p.user_id == uid]
            skill = R.merge([new[p.seat] for p in mine])
            change = RatingChange(match=match, user_id=uid, game=game, variant=variant,
                                  mu_before=r.mu, sigma_before=r.sigma, display_before=r.display,
                                  mu_after=skill.mu, sigma_after=skill.sigma,
                                  display_after=R.display(skill.mu), games_after=r.games + 1)
            r.mu, r.sigma, r.display = skill.mu, skill.sigma, change.display_after
            r.games += 1
            r.wins += any(p.result == Result.WIN for p in mine)
            r.updated = now
            changes.append(change)
        RatingChange.objects.bulk_create(changes)
        Rating.objects.bulk_update(list(ratings.values()), ["mu", "sigma", "display", "games", "wins", "updated"])
        _announce(table, [p.user_id for p in players], changes)
        return changes


# --- to the table ---------------------------------------------------------------------------------
def seat_rating_changes(seat_users: list[int | None], changes) -> list[dict]:
    """Each seat's rating change (by the seat's user): ``{"seat", "before", "after", "delta"}``."""
    by_user = {c.user_id: c for c in changes}
    out = []
    for seat, user_id in enumerate(seat_users):
        c = by_user.get(user_id)
        if c is not None:
            out.append({"seat": seat, "before": c.display_before, "after": c.display_after,
                        "delta": c.display_after - c.display_before})
    return out


def _announce(table, seat_users: list[int | None], changes: list[RatingChange]) -> None:
    """Once the ratings commit, tell everyone at the table (the match-end box shows them)."""
    payload = {"type": "ratings", "changes": seat_rating_changes(seat_users, changes)}
    table_id, game = table.pk, table.game
    broadcast.send_on_commit(lambda: messages.table_payloads(table_id, game, payload))


def snapshot_ratings(live) -> dict:
    """What a socket's snapshot says of ratings (games.signals snapshot_extras): each seat's
    player's rating in the table's game and variant (``seat_ratings``; None for an empty seat), and
    at a finished rated match its rating changes (``ratings``)."""
    extra = {"seat_ratings": seat_ratings(live)}
    match = live.match
    if live.table.rated and match is not None and match.finished:
        changes = list(RatingChange.objects.filter(match=match))
        if changes:
            extra["ratings"] = seat_rating_changes([s.user_id for s in live.seats], changes)
    return extra


def seat_ratings(live) -> list[int | None]:
    """The display rating of each seat's player (the table's game and variant), in one query."""
    users = [s.user_id for s in live.seats]
    known = current_ratings([u for u in users if u], live.table.game, live.table.variant)
    return [house_bots.ladder_rating(live.table.game, s.user.bot_level) if u and s.user.is_bot
            else known.get(u) if u else None for s, u in zip(live.seats, users)]


def unrated_matches(limit: int = 200, within_days: int = 2) -> list[int]:
    """Finished rated matches whose rating task was lost (the sweeper re-runs them)."""
    since = timezone.now() - timezone.timedelta(days=within_days)
    return list(MatchPlayer.objects.filter(rated=True, seat=0, finished_at__gte=since,
                                           finished_at__lte=timezone.now() - timezone.timedelta(seconds=10))
                .exclude(match__rating_changes__isnull=False)
                .values_list("match_id", flat=True)[:limit])


# --- readers for the pages ---------------------------------------------------------------------------
def ratings_of(person, points: int = 100) -> list[Rating]:
    """The person's ratings with ``.history`` (display values, oldest first, at most ``points``);
    one query per game and variant played (at most six). A house bot has none (house_bots.py),
    whatever rows were left from before it was never rated."""
    if person.is_bot:
        return []
    out = list(Rating.objects.filter(user=person, games__gt=0).order_by("game", "variant"))
    for r in out:
        values = list(RatingChange.objects.filter(user=person, game=r.game, variant=r.variant)
                      .order_by("-created_at", "-id").values_list("display_after", flat=True)[:points])
        if len(values) < points:
            values.append(R.DEFAULT_DISPLAY)     # where everyone starts
        r.history = values[::-1]
    return out


def leaderboard(game: str, variant: str, *, bot_accounts: bool = False):
    """Players with a rated match, best first. Bot accounts (the bot API) are rated like everyone
    but listed apart: ``bot_accounts`` True gives their leaderboard, False everyone else's."""
    return (Rating.objects.filter(game=game, variant=variant, games__gt=0, user__is_bot_account=bot_accounts,
                                  user__is_bot=False)       # house bots are never rated (house_bots.py)
            .select_related("user")
            .only("display", "games", "wins", "user__username", "user__is_bot", "user__bot_level",
                  "user__is_bot_account")
            .order_by("-display", "-games", "user_id"))
