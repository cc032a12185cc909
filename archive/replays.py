"""A deal record step by step, for the replay viewer (a finished deal, or records a visitor uploads).

The engine replays it (``records.state_of``, the same checks as the command line's
``python -m games.engine.replay``); this module keeps a frame after each step: the public view,
every hand, the action and the trick it went to.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine import core, records
from games.labels import player_labels


@dataclass
class Replay:
    game: str
    variant: str
    players: list[str]
    frames: list[dict]
    result: dict | None       # computed by the engine; None while the deal is unfinished
    stated: dict | None       # the record's own result
    finished: bool

    @property
    def matches(self) -> bool:
        return self.stated is None or self.stated == self.result

    def as_json(self, title: str = "") -> dict:
        return {"title": title, "game": self.game, "variant": self.variant,
                "players": player_labels(self.players),
                "rules": core.get_rules(self.game).describe(self.variant),
                "frames": self.frames, "result": self.result, "finished": self.finished}


def _frame(state: core.State, trick: int | None) -> dict:
    """One step: the action that led here (None before the first), the trick it played to, and the
    engine's replay frame (the public view and every hand)."""
    done = state.actions()
    return {"action": done[-1] if done else None, "trick": trick, **state.replay_frame()}


def _trick_of(state: core.State, action: Any) -> int | None:
    """The trick a card played now goes to (counted from 1); None for any other action."""
    if isinstance(action, dict) and action.get("type") == "play":
        return sum(state.view(None)["tricks_won"]) + 1
    return None


def replay(record: Any) -> Replay:
    """Every step of a deal record as the engine sees it (only ever called for a finished deal or a
    record the user brought). Raises RecordError at the first action the engine refuses."""
    frames: list[dict] = []
    trick: list[int | None] = [None]        # the trick of the action about to be applied

    def before(_step: int, state: core.State, action: Any) -> None:
        frames.append(_frame(state, trick[0]))
        trick[0] = _trick_of(state, action)

    state = records.state_of(record, before)
    frames.append(_frame(state, trick[0]))
    setup = records.setup_of(record)
    over = state.is_over()
    return Replay(game=setup.game, variant=setup.variant, players=list(setup.players), frames=frames,
                  result=state.result() if over else None, stated=record.get("result"), finished=over)
