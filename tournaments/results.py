"""What tables' results are and what they add up to, read from the models: a finished match as a
tournament result (``result_of_match``), every stored result (``game_results``) and the standings
most formats rank by (``standings_rows``: tournaments/standings.py over them), and an entrant's
seeding rating. Reads only: the writers are tournaments/steps.py and the formats."""
from __future__ import annotations

import logging

from games.engine import core
from games.models import Match

from . import standings
from .models import Entry, Game, Tournament

log = logging.getLogger(__name__)
DEFAULT_RATING = 1500
# A bye: a win, worth one match point and no game points.
BYE_RESULT = {"points": [1.0], "game_points": [0.0], "ranks": [1], "timed_out": []}


def current_rating(user, game: str, variant: str) -> int:
    """The user's rating for seeding: from the ratings app when it is installed, else 1500."""
    try:
        from ratings.services import current_rating as rating_of
    except ImportError:
        return DEFAULT_RATING
    try:
        value = rating_of(user, game, variant)
    except Exception:   # a ratings bug must not stop a tournament from starting
        log.exception("rating of %s failed; seeding with %s", user, DEFAULT_RATING)
        return DEFAULT_RATING
    if value is None:
        return DEFAULT_RATING
    return int(round(getattr(value, "rating", value)))


def seeding_variant(t: Tournament) -> str:
    return t.variant or core.get_rules(t.game).variants[0]


def seat_teams(game: str, variant: str | None, seats: int) -> list[int] | None:
    """Each seat's team for the standings (None: everyone plays alone)."""
    rules = core.get_rules(game)
    if not rules.partnerships(variant):
        return None
    return [rules.team_of(s, variant) for s in range(seats)]


def result_of_match(game: str, variant: str | None, players: list, match: Match) -> dict:
    rules = core.get_rules(game)
    n = len(players)
    ranks = list(match.ranks or [1] * n)
    scores = (match.state or {}).get("scores") or [0] * len(rules.teams(variant))
    return {"points": standings.table_points(ranks, seat_teams(game, variant, n)),
            "game_points": rules.margins(variant, scores),
            "ranks": ranks, "timed_out": list(match.timed_out or [])}


def game_results(t: Tournament) -> list[standings.GameResult]:
    out = []
    for g in Game.objects.filter(round__tournament=t).select_related("round").order_by("round__number", "board"):
        if g.result is None:
            continue
        out.append(standings.GameResult(
            round=g.round.number, players=list(g.players), points=g.result["points"],
            game_points=g.result["game_points"], bye=g.bye,
            teams=None if g.bye else seat_teams(t.game, t.variant or None, len(g.players))))
    return out


def active_entries(t: Tournament) -> list[Entry]:
    """The entrants who have not withdrawn, with their users."""
    return list(t.entries.filter(withdrawn=False).select_related("user"))


def seed_order(entries: list[Entry]) -> list[Entry]:
    return sorted(entries, key=lambda e: (-(e.seed_rating or DEFAULT_RATING), e.pk))


def standings_rows(t: Tournament, entries: list[Entry] | None = None) -> list[standings.Row]:
    """Match points, Buchholz, game points (tournaments/standings.py) over every stored result."""
    entries = active_entries(t) if entries is None else entries
    ents = [standings.Entrant(id=e.pk, rating=e.seed_rating or DEFAULT_RATING, order=e.pk) for e in entries]
    return standings.compute(ents, game_results(t))
