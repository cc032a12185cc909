"""What the pages call a game and a variant, in the reader's language. A game's name and goal are
the engine's words (``GameRules.title``, ``goal``: English, marked for translation), translated
here; the engine names variants by identifier (``GameRules.variants``) and imports no Django, so
their translated labels live here."""
from django.utils.translation import gettext, gettext_lazy as _, pgettext_lazy

from games.bots import levels

from .engine.core import GAME_NAMES, get_rules

VARIANT_LABELS = {
    "kurnik": _("Kurnik"),
    "schnapsen": _("Schnapsen"),
    "santase": _("Santase"),
    "standard": _("Standard"),
    "jack_of_diamonds": _("Jack of diamonds"),
}


def game_label(game: str | None) -> str:
    """The translated name of ``game``; an unknown one is shown as it is."""
    return gettext(get_rules(game).title) if game in GAME_NAMES else (game or "")


def game_goal(game: str) -> str:
    """What ends a match of ``game``, translated, with ``{n}`` left for its target."""
    return gettext(get_rules(game).goal)


def site_games() -> list[dict]:
    """Every game, in the engine's order: its name (the identifier in URLs) and translated label."""
    return [{"name": game, "label": game_label(game)} for game in GAME_NAMES]


def variant_label(variant: str | None) -> str:
    """The translated label of ``variant``; an unknown one is shown as it is."""
    return str(VARIANT_LABELS.get(variant, variant)) if variant else ""


# --- players -------------------------------------------------------------------------------------
# A bot is one user per level, named "bot:<level>" on the wire and in records (docs/RECORDS.md):
# an identifier, never shown. Pages show "Bot (strong)", and "Bot 2 (strong)" (its seat number)
# where another seat has a bot of the same level, so that two such bots can be told apart. The
# table and lobby clients (static/js) follow the same rule with the same words.
BOT_PREFIX = "bot:"
BOT_LEVEL_LABELS = {
    "random": pgettext_lazy("bot level", "random"),
    "basic": pgettext_lazy("bot level", "basic"),
    "medium": pgettext_lazy("bot level", "medium"),
    "strong": pgettext_lazy("bot level", "strong"),
    "expert": pgettext_lazy("bot level", "expert"),
}


def bot_level_of(name) -> str | None:
    """The level of a bot's wire name ("bot:strong" -> "strong"); None for a person."""
    if isinstance(name, str) and name.startswith(BOT_PREFIX):
        return name[len(BOT_PREFIX):]
    return None


def bot_label(level: str, seat: int | None = None) -> str:
    """A bot as pages name it; with ``seat`` (0-based) its seat number."""
    shown = str(BOT_LEVEL_LABELS.get(level, level))
    if seat is None:
        return gettext("Bot (%(level)s)") % {"level": shown}
    return gettext("Bot %(n)s (%(level)s)") % {"n": seat + 1, "level": shown}


def player_labels(names: list) -> list[str]:
    """The names of a match's seats (seat 0 first) as pages show them."""
    levels = [bot_level_of(n) for n in names]
    out = []
    for seat, (name, level) in enumerate(zip(names, levels)):
        if level is None:
            out.append(name or "")
        else:
            out.append(bot_label(level, seat if levels.count(level) > 1 else None))
    return out


def bot_level_choices(game: str) -> list[dict]:
    """The ladder of bot levels as pickers offer it in ``game``, weakest first (games/bots/levels.py:
    levels merged into the one below are left out): each level's value, label, rating (None where
    not measured) and its measured record against the level below, in words ("" where none)."""
    return [{"value": name, "label": str(BOT_LEVEL_LABELS.get(name, name)),
             "rating": levels.rating(game, name), "record": bot_level_record(game, name)}
            for name in levels.shown(game)]


def bot_level_record(game: str, name: str) -> str:
    """What level ``name`` means in play in ``game``, from the ladder's measurement: "wins about 68
    of 100 deals against basic"; "" where it was not measured."""
    found = levels.record(game, name)
    if not found:
        return ""
    return gettext("wins about %(n)s of 100 deals against %(level)s") % {
        "n": found["of_100"], "level": str(BOT_LEVEL_LABELS.get(found["against"], found["against"]))}
