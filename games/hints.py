"""Hints: the strong bot's verdict on a player's options, at unrated tables against bots only.

A hint is the post-match analysis's search (``strong.evaluate``, games/bots/analyse.py) run on
the asking seat's own view (``State.view(seat)``: never another seat's hidden cards) while the
player thinks. Who may ask (``refusal``) is decided under the table's lock by
``services.take_hint``, which also counts the hint on the seat (``Seat.hints_used``, shown with
the result); the search itself runs after, with no lock held, in the bot processes when there are
some (games/thinking.py). The answer goes to the asking socket only (games/consumers.py).

Refused, with a reason the player reads: spectators, rated tables, tournament tables, tables where
any other seat is a person (or a person's program, a bot account), when it is not the player's
turn, when there is no choice to make, and over ``HINT_RATE`` or twice for the same move.
"""
from __future__ import annotations

import logging

from django.conf import settings
from django.utils.translation import gettext as _

from realtime.errors import ServiceError
from .loading import Live

log = logging.getLogger(__name__)

# Thinking time of one hint: the strong level's ordinary budget, twice (a hint is asked for
# now and then, not at every move of every table as the bots' moves are).
BUDGET_MS = 400
# Refusal codes (docs/PROTOCOL.md, "Hints"); each raised with its reason in the player's language.
RATED, TOURNAMENT, PEOPLE, NOT_YOUR_TURN, NO_CHOICE, AGAIN = (
    "hint_rated", "hint_tournament", "hint_people", "not_your_turn", "hint_no_choice", "hint_again")


def refused_because(live: Live, seat: int | None) -> str | None:
    """The code of why hints are refused at this table for ``seat`` (None: allowed there). Reads
    only what the table's load holds, and builds no message: every seat's view asks it at every
    move (its ``hints_allowed``), so it is the cheap part; ``table_refusal`` words it."""
    t = live.table
    if seat is None:
        return "spectator"
    if t.rated:
        return RATED
    if t.tournament_table or t.duplicate:
        return TOURNAMENT
    for s in live.seats:
        # A house bot's seat only: not a person's, not a bot account's, nor a person's a bot took
        # over (the match was a people's match).
        house_bot = s.user_id is not None and s.user.is_bot and not s.user.is_bot_account
        if s.index != seat and not house_bot:
            return PEOPLE
    return None


def table_refusal(live: Live, seat: int | None) -> ServiceError | None:
    """Why hints are refused at this table for ``seat``, as the error the player reads."""
    code, version = refused_because(live, seat), live.table.version
    if code is None:
        return None
    if code == "spectator":
        return ServiceError("spectator", _("Only a player at the table can ask for a hint."), version)
    if code == RATED:
        return ServiceError(RATED, _("Hints are only for unrated tables: this table is rated."), version,
                            category="forbidden")
    if code == TOURNAMENT:
        return ServiceError(TOURNAMENT, _("No hints in a tournament."), version, category="forbidden")
    return ServiceError(PEOPLE, _("Hints are only for tables against the house bots: another "
                                  "seat here is a person."), version, category="forbidden")


def allowed(live: Live, seat: int | None) -> bool:
    """The per-seat view's ``hints_allowed``: whether the client shows the hint button."""
    return refused_because(live, seat) is None


def options_of(view: dict) -> list[dict]:
    """The options a hint compares: the legal actions (a hearts pass: the triples worth searching,
    as the analysis does)."""
    from games.bots import analyse
    legal = view.get("legal") or []
    if legal and legal[0]["type"] == "pass":
        return analyse.pass_candidates(view)
    return [dict(a) for a in legal]


def check_choice(view: dict, options: list[dict], version: int) -> None:
    if len(options) < 2 or options[0]["type"] == "moon":
        raise ServiceError(NO_CHOICE, _("There is nothing to choose here: no hint is needed."), version,
                           category="bad_request")


def take_allowance(user, seat, version: int) -> None:
    """Refuse a second hint for the same move (``Seat.hint_version``), and count one hint of
    ``user`` against HINT_RATE (a broken cache limits nothing)."""
    from .limits import count_user_rate
    if seat.hint_version == version:
        raise ServiceError(AGAIN, _("You already have the hint for this move."), version,
                           category="rate_limited")
    try:
        count_user_rate(user, "limit.hint", settings.HINT_RATE, _("You are asking for hints too often."))
    except ServiceError:
        raise
    except Exception:
        log.warning("hint limit: the cache failed; not limiting", exc_info=True)


def answer(version: int, evaluations: list[dict]) -> dict:
    """The socket's ``hint`` message: the best action and every option's score (the search's mean
    outcome of the deal for the seat, in the analysis's units: docs/ANALYSIS.md) and its margin
    behind the best, best first."""
    ranked = sorted(evaluations, key=lambda e: -e["mean"])
    best = ranked[0]["mean"]
    return {"type": "hint", "version": version, "action": ranked[0]["action"],
            "options": [{"action": e["action"], "score": round(e["mean"], 3),
                         "margin": round(best - e["mean"], 3)} for e in ranked]}
