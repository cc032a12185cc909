"""A player's finished matches as his history page and profile show them: the rows (ratings'
MatchPlayer, written when a match finishes), their context, his totals."""
from __future__ import annotations

from django.db.models import Count, Q

from games.engine import core
from games.labels import player_labels
from ratings.models import MatchPlayer, RatingChange

Result = MatchPlayer.Result


def history(person, viewer, *, game: str | None = None, variant: str | None = None,
            result: str | None = None):
    """A player's finished matches, newest first (a queryset: the view paginates it). Others see
    only his public matches."""
    qs = MatchPlayer.objects.filter(user=person)
    if not (viewer.is_authenticated and (viewer.pk == person.pk or viewer.is_staff)):
        qs = qs.filter(private=False)
    if game:
        qs = qs.filter(game=game)
    if variant:
        qs = qs.filter(variant=variant)
    if result:
        qs = qs.filter(result=result)
    return qs.order_by("-finished_at", "-id")


def with_context(rows: list[MatchPlayer], person) -> list[MatchPlayer]:
    """Attach to each history row its match's other players (``.others``), the person's rating
    change (``.change``) and how many sides played (``.sides``: a place says more than "loss" where
    there were more than two): two queries for a whole page."""
    ids = [r.match_id for r in rows]
    seats: dict[int, list[MatchPlayer]] = {}
    for p in (MatchPlayer.objects.filter(match_id__in=ids).select_related("user")
              .only("match_id", "seat", "name", "user__username", "user__is_bot_account", "rank", "score")):
        seats.setdefault(p.match_id, []).append(p)
    changes = {c.match_id: c for c in RatingChange.objects.filter(match_id__in=ids, user=person)}
    for match_seats in seats.values():
        match_seats.sort(key=lambda p: p.seat)
        for p, label in zip(match_seats, player_labels([p.name for p in match_seats])):
            p.label = label
    for r in rows:
        r.others = [p for p in seats.get(r.match_id, []) if p.seat != r.seat]
        r.change = changes.get(r.match_id)
        r.sides = len(core.get_rules(r.game).teams(r.variant))
    return rows


def totals(person) -> dict:
    agg = MatchPlayer.objects.filter(user=person, aborted=False).aggregate(
        games=Count("id"), wins=Count("id", filter=Q(result=Result.WIN)),
        draws=Count("id", filter=Q(result=Result.DRAW)), abandoned=Count("id", filter=Q(abandoned=True)))
    agg["win_rate"] = round(100 * agg["wins"] / agg["games"]) if agg["games"] else 0
    return agg
