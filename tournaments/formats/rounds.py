"""The formats played in rounds (Swiss, round robin, elimination, duplicate): everyone's games of
a round are created together; the round closes when its last table has ended; after the break the
next round is planned, or after the last one the final ranking is published. A format in rounds
says how a round is planned (``plan``) and how many there are (``total_rounds``); the rest is here.
"""
from __future__ import annotations

from datetime import datetime, timedelta

from .. import results, steps
from ..models import Entry, Round, Tournament
from .base import Format, PageData

Plan = list[tuple[list, bool]]      # the round's tables: (entry ids per seat, None a bot seat; a bye?)


class RoundFormat(Format):
    template = "tournaments/formats/rounds.html"
    own_settings = ("break_seconds",)

    def begin(self, t: Tournament, entries: list[Entry], now: datetime) -> None:
        self.start_round(t, 1, now)

    def plan(self, t: Tournament, number: int, entries: list[Entry]) -> Plan:
        raise NotImplementedError

    def start_round(self, t: Tournament, number: int, now: datetime) -> Round:
        """Plan round ``number`` and create its tables, all in the caller's transaction."""
        entries = results.active_entries(t)
        plan = self.plan(t, number, entries)
        rnd = self.create_round(t, number, now)
        users = {e.pk: e.user for e in entries}
        tables, count = 0, sum(1 for _players, bye in plan if not bye)
        for board, (players, bye) in enumerate(plan, start=1):
            if bye:
                steps.create_bye(rnd, board, players)
            else:
                steps.create_game(t, rnd, board, players, users, **self.table_options(t, rnd, tables, count))
                tables += 1
        t.current_round = number
        t.next_round_at = None
        steps.bump(t)
        return rnd

    def create_round(self, t: Tournament, number: int, now: datetime) -> Round:
        return Round.objects.create(tournament=t, number=number, started_at=now)

    def table_options(self, t: Tournament, rnd: Round, index: int, count: int) -> dict:
        """What the round's ``index``-th table of ``count`` (byes not counted) is made with besides
        its players (``steps.create_game``'s keywords)."""
        return {}

    def round_closed(self, t: Tournament, rnd: Round) -> None:
        """Its last table has ended (in the step's transaction)."""

    def advance(self, t: Tournament, now: datetime) -> bool:
        """Record finished tables, close the round when its last table has ended, start the next
        round when the break is over, or finish."""
        if t.current_round == 0:
            return False
        rnd = Round.objects.get(tournament=t, number=t.current_round)
        games = list(rnd.games.select_related("table"))
        self.record_missing(t, games)
        if rnd.status == Round.Status.PLAYING:
            if any(g.result is None for g in games):
                return False
            rnd.status = Round.Status.FINISHED
            rnd.finished_at = now
            rnd.save(update_fields=["status", "finished_at"])
            self.round_closed(t, rnd)
            if self.is_last_round(t, rnd.number):
                if t.paused_at is None:
                    self.finish(t, now)
                else:                    # held: the staff may still add a round before resuming
                    steps.bump(t)
                return True
            t.next_round_at = now + timedelta(seconds=t.break_seconds)
            steps.bump(t)
            steps.enqueue_advance_at(t.pk, t.next_round_at)
            return True
        if t.paused_at is not None:       # paused: no round starts, running matches go on
            return False
        if self.is_last_round(t, rnd.number):  # the last round ended while paused
            self.finish(t, now)
            return True
        if t.next_round_at is None or t.next_round_at <= now:
            self.start_round(t, rnd.number + 1, now)
            return True
        return False

    def total_rounds(self, t: Tournament, entries: int) -> int:
        return t.rounds

    def is_last_round(self, t: Tournament, number: int) -> bool:
        return number >= self.total_rounds(t, t.entries.filter(withdrawn=False).count())

    def standings(self, t: Tournament, entries: list[Entry]) -> list:
        """Match points, Buchholz, game points (tournaments/standings.py)."""
        return results.standings_rows(t, entries)

    def page_state(self, t: Tournament, page: PageData) -> dict:
        """The standings: match points, Buchholz, game points."""
        rows = self.standings(t, page.active) if page.started else []
        ratings = {e.pk: e.seed_rating for e in page.active}
        final = page.final
        return {"standings": [
            {"rank": final.get(r.id) or r.rank, "entry": r.id, "name": page.names.get(r.id),
             "rating": ratings.get(r.id), "playing": r.id in page.playing,
             "match_points": r.match_points, "buchholz": r.buchholz,
             "game_points": r.game_points, "games": r.games, "byes": r.byes}
            for r in sorted(rows, key=lambda r: (final.get(r.id) or r.rank, r.rank))]}

