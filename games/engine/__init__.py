"""The rules of every game: pure Python, no Django, Channels or Celery (tests/games/engine/test_purity.py).

``core`` holds the interface (State, GameRules, Match, IllegalAction) and the registry; one module per
game (``sixtysix``, ``hearts``, ``spades``) registers itself when first asked for through
``core.get_rules``; ``records`` builds and replays deal records; ``replay`` is the verifier CLI.
"""
from .core import GAME_NAMES, IllegalAction, Match, State, deal, get_rules, new_state  # noqa: F401
