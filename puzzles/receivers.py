"""On ``analysis.signals.analysed``: the match's puzzles are taken by a task of their own."""
from . import tasks


def on_analysed(sender, match_id: int, **kwargs) -> None:
    tasks.enqueue_extract(match_id)
