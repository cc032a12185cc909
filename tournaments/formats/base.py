"""The one interface every tournament format implements. The site asks the tournament's format
(``tournaments.formats.of(t)``) instead of testing its name:

* the steps, each inside the tournament's lock (tournaments/services.py calls them):
  ``begin`` (entrants seeded, the tournament running: pair or plan the first games),
  ``advance`` (whatever is due: record, close, pair or plan what comes next, or ``finish``),
  ``after_result`` (in the transaction that stored a table's result);
* the ranking: ``total_rounds``, ``standings`` (rows with ``id`` and ``rank``), ``final_ranks``;
* the page: ``template`` (its partial, which extends tournaments/_live.html and owns the format's
  rules text), ``page_state`` (what it adds to the page's state), ``page_context`` (what its
  partial needs besides), ``games_shown``, and ``summary`` for the list of formats;
* the organiser: ``clean`` (the admin form's checks), ``add_round_refused`` (why a round may not
  be added, or None), ``players_pause_themselves``, ``own_settings`` (what the staff's form asks).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.utils.translation import gettext_lazy as _

from .. import results, steps
from ..models import Entry, Game, Tournament


@dataclass
class PageData:
    """What the page's builder (tournaments/page.py) has already read, for a format's part."""
    names: dict[int, str]            # entry id → user name (withdrawn entrants too)
    active: list[Entry]              # the entrants still in
    final: dict[int, int | None]     # entry id → final rank (once finished)
    playing: set[int]                # entries whose match is being played now
    started: bool                    # running or finished
    rounds: list[dict]               # the page's rounds, which a format may annotate


class Format:
    name = ""                        # stored in Tournament.format; its module's name
    label = ""                       # the format's name for people (lazy gettext)
    summary = ""                     # one paragraph for the list page's "How tournaments work"
    template = ""                    # the page's live part, "tournaments/formats/<name>.html"
    add_round_refused = None         # why an organiser may not add a round (None: he may)
    players_pause_themselves = False
    # Whether a table's end runs the next step at once, in the thread that finished the match
    # (a round closes with its last table); else the step is queued (an arena pairs there).
    step_right_after_a_match = True
    # The seat counts (players per table of the game) the format can run (None: any).
    seats: tuple[int, ...] | None = None
    # The tournament's settings this format reads besides the ones every format has (the staff's
    # page, /tournaments/new/, asks for these only).
    own_settings: tuple[str, ...] = ()

    # --- the admin's form ---
    def clean(self, data: dict, seats: int) -> list[tuple[str, str]]:
        """(field, reason) for each of the form's values this format cannot run with."""
        if self.seats is not None and seats not in self.seats:
            return [("format", _("Four-player games are played as Swiss tournaments."))]
        return []

    # --- the steps ---
    def begin(self, t: Tournament, entries: list[Entry], now: datetime) -> None:
        raise NotImplementedError

    def advance(self, t: Tournament, now: datetime) -> bool:
        """Whatever is due; returns whether anything happened."""
        raise NotImplementedError

    def after_result(self, g: Game) -> None:
        """A table of the tournament has its result (in the transaction that stored it)."""

    def record_missing(self, t: Tournament, games: list[Game]) -> None:
        for g in steps.fill_missing_results(t, games):
            self.after_result(g)

    def finish(self, t: Tournament, now: datetime) -> None:
        entries = results.active_entries(t)
        steps.finish(t, now, self.final_ranks(t, entries), entries)

    # --- the ranking ---
    def total_rounds(self, t: Tournament, entries: int) -> int | None:
        """How many rounds it will have with ``entries`` entrants (None: it has no rounds)."""
        return None

    def standings(self, t: Tournament, entries: list[Entry]) -> list:
        """The current order: rows with at least ``id`` (the entry) and ``rank``."""
        raise NotImplementedError

    def final_ranks(self, t: Tournament, entries: list[Entry]) -> dict[int, int]:
        """Entry id → final rank, when it is over: the standings unless the format says otherwise."""
        return {r.id: r.rank for r in self.standings(t, entries)}

    # --- the page ---
    def page_state(self, t: Tournament, page: PageData) -> dict:
        """The format's keys of the page's state (its standings or leaderboard, ...)."""
        return {}

    def page_context(self, t: Tournament, now: datetime) -> dict:
        """What the format's partial needs besides the state (an arena's clock)."""
        return {}

    def games_shown(self, games: list[Game]) -> list[Game]:
        return games
