"""Who has seen a puzzle's solution: an attempt that ends shows it (right, as a lesson), so a
first attempt from an address the solution was shown to lately is not rated. Without this a
guest (or a second account) fails a puzzle, reads the line, and the real account's rated first
attempt replays it (9 of 9, 1500 to 1929). Addresses are keyed hashes kept ADDRESS_KEY_DAYS days.
"""
from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from accounts import address_keys

from .models import SolutionShown


def record(puzzle_id: int, address: str | None) -> None:
    """The solution of ``puzzle_id`` was shown to ``address`` now (in the caller's transaction)."""
    if address:
        SolutionShown.objects.update_or_create(puzzle_id=puzzle_id, address=address,
                                               defaults={"shown_at": timezone.now()})


def seen(puzzle_id: int, address: str | None) -> bool:
    """Whether the solution was shown to ``address`` within the retention."""
    if not address:
        return False
    return SolutionShown.objects.filter(puzzle_id=puzzle_id, address=address, shown_at__gte=_since()).exists()


def forget_old() -> int:
    """Delete what is older than the retention; how many."""
    return SolutionShown.objects.filter(shown_at__lt=_since()).delete()[0]


def _since():
    return timezone.now() - timedelta(days=address_keys.retention_days())
