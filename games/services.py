"""The writers of live games: the one front other code calls (``services.act``, ...).

Each writer lives in ``games/actions/`` with its concern, and each follows one pattern
(docs/ARCHITECTURE.md): ``loading.locked`` opens a transaction with the table row's lock and loads
the table; the writer checks, applies through the engine, stores the deal record and bumps
``Table.version``; then, only on commit, each listening seat group gets its own view and the
spectators the public one, and the table's next due work is scheduled (games/actions/steps.py).
"""
from __future__ import annotations

from games.actions.bot_turns import advance
from games.actions.chat import chat
from games.actions.exits import abort, claim_rest, resign
from games.actions.finished import reveal_deals, store_finished_match
from games.actions.forfeits import claim_win
from games.actions.moves import act, take_hint
from games.actions.presence import seat_presence_changed
from games.actions.rematch import rematch, rematch_left
from games.actions.seeds import seed
from games.actions.steps import final_ranks
from games.actions.tables import create_table, leave, sit, start
from realtime.errors import ServiceError

__all__ = ["ServiceError", "create_table", "sit", "leave", "start", "act", "advance", "chat",
           "seat_presence_changed", "claim_win", "final_ranks", "rematch", "rematch_left", "seed", "take_hint",
           "resign", "abort", "claim_rest", "store_finished_match", "reveal_deals"]
