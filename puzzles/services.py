"""The only writer of puzzles: take them from finished deals, check a player's plays, rate.

* **Taking puzzles** (``extract_match``): every finished deal of a finished match whose cards may be
  shown (not a private table, not a duplicate tournament's) is searched by
  ``games.bots.puzzle_solver.find`` where the bots search (games/thinking.py: the bot processes
  in embedded mode); a position found is stored once (unique per deal and step).
* **Solving** (``play``): the engine checks each play (an illegal one is refused with the rules'
  reason and costs nothing), the exact solver judges it (a worse play than the best fails the
  attempt) and plays the other seats' replies. An attempt is stored with every play, so the page
  can be left and taken up again.
* **Ratings**: a registered player's first finished attempt at a puzzle is a match between him
  and the puzzle (openskill, ratings/rating.py): solved, he wins; failed, the puzzle does. Later
  attempts, guests' and bots' count on the puzzle's figures but move no rating. Hard to farm: a
  first attempt from an address the puzzle's solution was shown to lately is not rated
  (``sightings``), and no attempt moves either rating by more than PUZZLE_MAX_CHANGE points (20:
  about what a settled player gains by solving a puzzle of his own rating, so a run of solves by
  someone who knew the answers buys a little instead of a newcomer's +50 a puzzle).
"""
from __future__ import annotations

import datetime
import logging

from django.conf import settings
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from games import reasons, thinking
from games.bots import puzzle_solver as solver
from games.engine.refusals import IllegalAction
from realtime.errors import ServiceError
from games.models import Deal, Match
from ratings import rating as R

from . import sightings
from .models import Attempt, DailyPuzzle, Puzzle, PuzzleRating

log = logging.getLogger(__name__)
PER_DEAL = 1            # puzzles taken from one deal at most


# --- taking puzzles ------------------------------------------------------------------------------
def extract_match(match_id: int) -> int:
    """Store the puzzles of a finished match's deals; how many new ones. Idempotent."""
    match = Match.objects.filter(pk=match_id, finished=True).select_related("table").first()
    if match is None or match.table.private or match.table.duplicate:
        return 0
    made = 0
    for deal in Deal.objects.filter(match=match, finished=True).order_by("number"):
        made += extract_deal(deal, match)
    return made


def extract_deal(deal: Deal, match: Match) -> int:
    try:
        found = thinking.offload(solver.find, deal.record, None, PER_DEAL)
    except Exception:       # a record the solver cannot read takes no puzzle, and stops nothing
        log.exception("puzzles: deal %s could not be searched", deal.pk)
        return 0
    made = 0
    for p in found:
        record = dict(deal.record, actions=deal.record.get("actions", [])[:p["step"]])
        record.pop("result", None)
        try:
            with transaction.atomic():
                _puzzle, created = Puzzle.objects.get_or_create(deal=deal, step=p["step"], defaults={
                    "match": match, "deal_number": deal.number, "game": match.table.game,
                    "variant": match.table.variant, "record": record, "seat": p["seat"],
                    "answer": p["answer"], "line": p["line"], "values": p["values"]})
        except IntegrityError:      # taken by another run meanwhile
            created = False
        made += created
    return made


# --- reading ------------------------------------------------------------------------------------
def daily(today: datetime.date | None = None) -> Puzzle | None:
    """The puzzle of the day: the same for everyone all day, in turn through all puzzles. Picked
    by the day's first request and stored, so puzzles taken later in the day change nothing."""
    today = today or timezone.localdate()
    kept = DailyPuzzle.objects.filter(date=today).select_related("puzzle").first()
    if kept is not None:
        return kept.puzzle
    puzzle = _next_daily(today)
    if puzzle is None:
        return None
    try:
        with transaction.atomic():
            DailyPuzzle.objects.create(date=today, puzzle=puzzle)
    except IntegrityError:          # another request picked it meanwhile: theirs counts
        return DailyPuzzle.objects.select_related("puzzle").get(date=today).puzzle
    return puzzle


def _next_daily(today: datetime.date) -> Puzzle | None:
    """The puzzle after the last day's (by id, round again after the newest)."""
    last = DailyPuzzle.objects.filter(date__lt=today).order_by("-date").values_list("puzzle_id", flat=True).first()
    after = Puzzle.objects.order_by("pk")
    return (after.filter(pk__gt=last).first() if last is not None else None) or after.first()


def state_of(puzzle: Puzzle, moves: list[dict]):
    state = solver.position(puzzle.record, len(puzzle.record.get("actions", [])))
    for action in moves:
        state.apply(action)
    return state


def board(puzzle: Puzzle, moves: list[dict], playing: bool) -> dict:
    """What the page draws: every hand (a double-dummy puzzle) and the public view at this point
    of the line, and the puzzle player's legal plays when it is his turn."""
    state = state_of(puzzle, moves)
    frame = state.replay_frame()
    mine = playing and not state.is_over() and state.to_act() == puzzle.seat
    frame["to_act"] = state.to_act()
    frame["legal"] = state.legal_actions(puzzle.seat) if mine else []
    frame.update(solver.shown(state))
    return frame


def current_attempt(puzzle: Puzzle, user) -> Attempt | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return Attempt.objects.filter(puzzle=puzzle, user=user).order_by("-id").first()


def source_of(puzzle: Puzzle) -> dict | None:
    """The puzzle's source deal for after solving: its replay, when its cards may be shown."""
    from archive.visibility import deal_is_public
    if puzzle.deal_id is None or puzzle.match_id is None:
        return None
    if not deal_is_public(puzzle.match, puzzle.deal):
        return None
    return {"match": puzzle.match_id, "deal": puzzle.deal_number + 1,
            "url": reverse("replay", args=[puzzle.match_id, puzzle.deal_number + 1])}


def rating_of(user) -> PuzzleRating | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return PuzzleRating.objects.filter(user=user).first()


def rates(user) -> bool:
    """Whether a user's attempts may be rated: registered people only (guests and bots not)."""
    return bool(getattr(user, "is_authenticated", False) and not user.is_guest and not user.is_bot
                and not getattr(user, "is_bot_account", False))


# --- solving ------------------------------------------------------------------------------------
def _require_player(user) -> None:
    if not getattr(user, "is_authenticated", False):
        raise ServiceError("forbidden", _("Log in or play as a guest to solve puzzles."))


def start(puzzle_id: int, user, address: str | None = None) -> Attempt:
    """A new attempt (the first of a registered player is rated, unless the solution was shown to
    his ``address``, a keyed hash, lately); an unfinished one is taken up."""
    _require_player(user)
    with transaction.atomic():
        puzzle = Puzzle.objects.filter(pk=puzzle_id).first()
        if puzzle is None:
            raise ServiceError("not_found", _("There is no such puzzle."))
        last = Attempt.objects.select_for_update().filter(puzzle=puzzle, user=user).order_by("-id").first()
        if last is not None and last.status == Attempt.Status.PLAYING:
            return last
        rated = last is None and rates(user) and not sightings.seen(puzzle.pk, address)
        return Attempt.objects.create(puzzle=puzzle, user=user, rated=rated)


def play(puzzle_id: int, user, action, address: str | None = None) -> dict:
    """The player's next play in his current attempt: refused (ServiceError: an illegal play with
    the rules' reason, or no attempt in progress), or judged: ``{"status", "played" (his play
    and the replies), "board", "solution"/"source"/"rating" once it is over}``."""
    _require_player(user)
    if not isinstance(action, dict):
        raise ServiceError("bad_request", _("A play must be an object with a type, such as a card to play."))
    with transaction.atomic():
        attempt = (Attempt.objects.select_for_update().select_related("puzzle")
                   .filter(puzzle_id=puzzle_id, user=user).order_by("-id").first())
        if attempt is None:
            attempt = start(puzzle_id, user, address)
        if attempt.status != Attempt.Status.PLAYING:
            raise ServiceError("puzzle_over", _("This attempt is over: start the puzzle again to replay it."),
                               category="bad_request")
        puzzle = attempt.puzzle
        state = state_of(puzzle, attempt.moves)
        action = dict(action, seat=puzzle.seat)
        try:
            state.clone().apply(action)     # the rules' check first: an illegal play changes nothing
        except IllegalAction as exc:
            raise ServiceError(exc.code, reasons.translate(exc), params=exc.params, category="illegal") from None
        right = solver.judge(state, puzzle.seat, action)
        state.apply(action)
        played = [action]
        if right:
            played += solver.play_replies(state, puzzle.seat)
        attempt.moves = attempt.moves + played
        out = {"status": Attempt.Status.PLAYING, "played": played}
        if not right:
            _finish(attempt, puzzle, solved=False)
        elif solver.finished(state, puzzle.seat):
            _finish(attempt, puzzle, solved=True)
        if attempt.status != Attempt.Status.PLAYING:      # the answer shows the solution
            sightings.record(puzzle.pk, address)
        attempt.save()
        out["status"] = attempt.status
    return dict(out, **result_of(attempt))


def result_of(attempt: Attempt) -> dict:
    """The page's part of an attempt: the board at its point, and once it is over the solution,
    the source deal and the rating change."""
    puzzle = attempt.puzzle
    playing = attempt.status == Attempt.Status.PLAYING
    out = {"status": attempt.status, "board": board(puzzle, attempt.moves, playing), "moves": attempt.moves}
    if not playing:
        out["solution"] = puzzle.line
        out["source"] = source_of(puzzle)
        out["rated"] = attempt.rated
        if attempt.rated:
            out["rating"] = {"before": attempt.rating_before, "after": attempt.rating_after}
        out["puzzle_rating"] = puzzle.rating
    return out


def bounded(mu_before: float, after: R.Skill) -> R.Skill:
    """``after`` with its move from ``mu_before`` cut to PUZZLE_MAX_CHANGE display points either way."""
    most = settings.PUZZLE_MAX_CHANGE / R.DISPLAY_PER_MU
    return R.Skill(min(max(after.mu, mu_before - most), mu_before + most), after.sigma)


def _finish(attempt: Attempt, puzzle: Puzzle, *, solved: bool) -> None:
    """End an attempt (in the caller's transaction): the puzzle's counts, and the ratings when it
    is rated."""
    attempt.status = Attempt.Status.SOLVED if solved else Attempt.Status.FAILED
    attempt.finished_at = timezone.now()
    locked = Puzzle.objects.select_for_update().get(pk=puzzle.pk)
    locked.attempts += 1
    locked.solves += int(solved)
    if attempt.rated:
        mine, _created = PuzzleRating.objects.get_or_create(user=attempt.user)
        mine = PuzzleRating.objects.select_for_update().get(pk=mine.pk)
        player, its = R.rate([[R.Skill(mine.mu, mine.sigma)], [R.Skill(locked.mu, locked.sigma)]],
                             [1, 2] if solved else [2, 1])
        player, its = [bounded(mine.mu, player[0])], [bounded(locked.mu, its[0])]
        attempt.rating_before = mine.rating
        mine.mu, mine.sigma = player[0].mu, player[0].sigma
        mine.rating = R.display(mine.mu)
        mine.attempts += 1
        mine.solved += int(solved)
        mine.save()
        attempt.rating_after = mine.rating
        locked.mu, locked.sigma = its[0].mu, its[0].sigma
        locked.rating = R.display(locked.mu)
    locked.save()
    puzzle.rating, puzzle.attempts, puzzle.solves = locked.rating, locked.attempts, locked.solves

