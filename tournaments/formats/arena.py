"""Arena: all games, for a time window rather than in rounds. Whenever a player is free he is
paired at once (tournaments/arena_scoring.py, pure: pairing and scoring); a step records finished matches,
pairs every free player and, once the window has closed and the last running match has ended,
publishes the final ranking. Like every step it does only what is due, so a task delivered twice
pairs nobody twice: a player at a running arena table is not free, and boards are unique.

The arena's games hang off one ``Round`` row, its window (started when the arena begins, finished
when its last match has ended), numbered by board in the order they were paired; it counts no
rounds: ``Tournament.current_round`` stays 0 and the page shows the time left, not a round.

Who is *free*: registered, not paused, and not at a running arena table. Presence is "not
paused": a player pauses himself with the page's button, and a player who loses a match on time
or by leaving it is paused by the step that records it, so an absent player costs his opponents
one forfeit at most; he comes back with the same button.
"""
from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.engine import core

from .. import arena_scoring, pairing, results, steps
from ..models import Entry, Game, Round, Tournament
from .base import Format, PageData

GAMES_SHOWN = 40          # the latest matches on the page; the leaderboard holds the rest


def window(t: Tournament) -> Round | None:
    """The Round row the arena's games hang off (the only one it has)."""
    return Round.objects.filter(tournament=t).order_by("number").first()


def match_results(games) -> list[arena_scoring.ArenaResult]:
    return [arena_scoring.ArenaResult(players=list(g.players), shares=list(g.result["points"]))
            for g in sorted(games, key=lambda g: g.board) if g.result is not None]


def standings(t: Tournament, entries: list[Entry]) -> list[arena_scoring.Row]:
    games = Game.objects.filter(round__tournament=t).only("board", "players", "result")
    ents = [arena_scoring.Entrant(id=e.pk, rating=e.seed_rating or results.DEFAULT_RATING, order=e.pk) for e in entries]
    return arena_scoring.standings(ents, match_results(games))


class Arena(Format):
    name = "arena"
    own_settings = ("arena_minutes",)
    label = _("Arena")
    summary = _("All games, for a set time: whenever you are free you are paired at once with someone free of close score (in Hearts and Spades, at the next table of four, bots filling seats after a short wait). A win is worth 2, a draw 1; after two wins in a row wins count double. Pause and come back as you like; matches still running when the time is up count.")
    template = "tournaments/formats/arena.html"
    add_round_refused = _("An arena has no rounds: it runs for its time window.")
    players_pause_themselves = True
    step_right_after_a_match = False

    def clean(self, data: dict, seats: int) -> list[tuple[str, str]]:
        errors = super().clean(data, seats)
        minutes = data.get("arena_minutes")
        if minutes is not None and not 5 <= minutes <= 720:
            errors.append(("arena_minutes", _("Between 5 and 720 minutes.")))
        return errors

    def begin(self, t: Tournament, entries: list[Entry], now: datetime) -> None:
        """Open the window and pair everyone (in the caller's transaction, the row locked)."""
        t.ends_at = now + timedelta(minutes=t.arena_minutes)
        Entry.objects.filter(pk__in=[e.pk for e in entries]).update(free_since=now, paused=False)
        rnd = Round.objects.create(tournament=t, number=1, started_at=now)
        t.next_round_at = None
        self._pair(t, rnd, [], now)
        steps.bump(t)
        steps.enqueue_advance_at(t.pk, t.ends_at)

    def advance(self, t: Tournament, now: datetime) -> bool:
        """Whatever is due: pair the free players, or after the window the final ranking."""
        rnd = window(t)
        if rnd is None:
            return False
        games = list(rnd.games.all())
        self.record_missing(t, games)
        if t.paused_at is not None:             # matches go on; nothing new, the window waits too
            return False
        if now >= t.ends_at:
            if any(g.result is None for g in games):
                return False                    # running matches finish and count
            rnd.status = Round.Status.FINISHED
            rnd.finished_at = now
            rnd.save(update_fields=["status", "finished_at"])
            self.finish(t, now)
            return True
        created, fill_in = self._pair(t, rnd, games, now)
        # When the waiting get bots: one task for that moment, not one per step that finds them waiting.
        fill_at = None if fill_in is None else now + timedelta(seconds=fill_in)
        if fill_at != t.next_round_at:
            t.next_round_at = fill_at
            if fill_at is not None:
                steps.enqueue_advance_at(t.pk, fill_at)
            if not created:
                t.save(update_fields=["next_round_at"])
        if created:
            steps.bump(t)
        return bool(created)

    def after_result(self, g: Game, now: datetime | None = None) -> None:
        """Its players are free from now, and whoever lost it on time or by leaving is paused."""
        now = now or timezone.now()
        timed_out = set(g.result.get("timed_out") or [])
        away = [p for s, p in enumerate(g.players) if p is not None and s in timed_out]
        here = [p for s, p in enumerate(g.players) if p is not None and s not in timed_out]
        Entry.objects.filter(pk__in=here).update(free_since=now)
        Entry.objects.filter(pk__in=away).update(free_since=now, paused=True)

    def standings(self, t: Tournament, entries: list[Entry]) -> list[arena_scoring.Row]:
        return standings(t, entries)

    def _pair(self, t: Tournament, rnd: Round, games: list[Game], now: datetime) -> tuple[int, float | None]:
        """Seat the free players; returns (tables made, seconds until the waiting get bots)."""
        busy = {p for g in games if g.result is None for p in g.players if p is not None}
        entries = [e for e in results.active_entries(t) if not e.paused and e.pk not in busy]
        if not entries:
            return 0, None
        rows = {r.id: r for r in arena_scoring.standings(
            [arena_scoring.Entrant(id=e.pk) for e in entries], match_results(games))}
        free = [arena_scoring.Free(id=e.pk, points=rows[e.pk].points, rating=e.seed_rating or results.DEFAULT_RATING,
                           last_opponents=rows[e.pk].last_opponents, games=rows[e.pk].games,
                           waited=(now - (e.free_since or t.started_at or now)).total_seconds())
                for e in entries]
        seats = steps.seats_of(t)
        wait = settings.TOURNAMENT_ARENA_WAIT_SECONDS
        plan = (arena_scoring.pair_two(free, repeat_after=wait) if t.one_on_one
                else arena_scoring.seat_four(free, wait, seats))
        users = {e.pk: e.user for e in entries}
        board = max((g.board for g in games), default=0)
        for table in plan.tables:
            board += 1
            steps.create_game(t, rnd, board, _seating(t, table, free), users)
        return len(plan.tables), plan.fill_in

    # --- the page ---
    def page_state(self, t: Tournament, page: PageData) -> dict:
        """The leaderboard: points per match, streaks, who is playing or paused."""
        if not page.started:
            return {"leaderboard": []}
        paused = {e.pk for e in page.active if e.paused}
        ratings = {e.pk: e.seed_rating for e in page.active}
        return {"leaderboard": [
            {"rank": page.final.get(r.id) or r.rank, "entry": r.id, "name": page.names.get(r.id),
             "points": r.points, "rating": ratings.get(r.id),
             "sheet": r.sheet, "on_fire": r.on_fire, "games": r.games, "wins": r.wins,
             "playing": r.id in page.playing, "paused": r.id in paused}
            for r in standings(t, page.active)]}

    def games_shown(self, games: list[Game]) -> list[Game]:
        return sorted(games, key=lambda g: -g.board)[:GAMES_SHOWN]

    def page_context(self, t: Tournament, now: datetime) -> dict:
        """The progress bar: seconds of the window (pauses included) and gone so far."""
        if t.started_at is None or t.ends_at is None:
            return {}
        now = t.paused_at or now
        total = max(1, int((t.ends_at - t.started_at).total_seconds()))
        elapsed = min(total, max(0, int((now - t.started_at).total_seconds())))
        left = total - elapsed
        return {"arena_total": total, "arena_elapsed": elapsed, "ended": left <= 0,
                "arena_left_text": f"{left // 60}:{left % 60:02d}"}


def _seating(t: Tournament, table: list, free: list[arena_scoring.Free]) -> list:
    """Partnership games: partners chosen inside the table as the Swiss does (1st+4th against
    2nd+3rd by points); otherwise in points order, bots last."""
    rules = core.get_rules(t.game)
    if not rules.partnerships(t.variant or None):
        return list(table)
    teams = rules.teams(t.variant or None)
    by_id = {f.id: pairing.Player(id=f.id, score=f.points, rating=f.rating) for f in free}
    return pairing.partnership_seating([by_id.get(p) for p in table], teams)


FORMAT = Arena()
