"""The rules pages: one page per game (docs/RULES.md for players), in English, Polish, Bulgarian
and German.

The text lives in per-language template fragments, ``templates/rules/<game>.<lang>.html``, written
by hand in each language (no gettext), and ``templates/rules/page.html`` wraps the one for the
reader's language. The few words the view itself needs (the words around the game's name in the page title, the
lobby's link label) are the small per-language tables below; the game's name is the engine's,
translated like every other label of the site.
"""
from django.http import Http404
from django.shortcuts import render
from django.template.loader import select_template
from django.utils import translation

from games.engine.core import GAME_NAMES
from games.labels import game_label

LANGS = ("en", "pl", "bg", "de")
DEFAULT_LANG = "en"

# The page's <title> and <h1>, per language: the game's name (the engine's ``GameRules.title``, in
# the reader's language through the catalogue, as everywhere on the site) and these words.
TITLE_FORMS = {"en": "{game}: the rules", "pl": "{game}: zasady gry", "bg": "{game}: правила на играта",
               "de": "{game}: Spielregeln"}

# The label of the link from a game's lobby to its rules page, and back.
RULES_LINK_LABELS = {"en": "Rules", "pl": "Zasady gry", "bg": "Правила", "de": "Spielregeln"}
PLAY_LINK_LABELS = {"en": "Find a table", "pl": "Znajdź stół", "bg": "Намери маса", "de": "Tisch finden"}


def reader_language(code: str | None) -> str:
    """One of LANGS for a language code such as ``request.LANGUAGE_CODE`` ("pl", "bg", "en-gb");
    anything else reads English."""
    base = (code or "").split("-")[0].lower()
    return base if base in LANGS else DEFAULT_LANG


def rules_link_label(code: str | None) -> str:
    """The lobby's "Rules" link text in the reader's language."""
    return RULES_LINK_LABELS[reader_language(code)]


def title(game: str, lang: str) -> str:
    """A rules page's title in ``lang`` (one of LANGS)."""
    with translation.override(lang):
        return TITLE_FORMS[lang].format(game=game_label(game))


def rules(request, game):
    if game not in GAME_NAMES:
        raise Http404("no such game")
    lang = reader_language(getattr(request, "LANGUAGE_CODE", None))
    fragment = select_template([f"rules/{game}.{lang}.html", f"rules/{game}.{DEFAULT_LANG}.html"])
    if fragment.template.name != f"rules/{game}.{lang}.html":
        lang = DEFAULT_LANG          # the text fell back to English: so do its title and labels
    return render(request, "rules/page.html", {
        "game": game,
        "lang": lang,
        "title": title(game, lang),
        "fragment": fragment,
        "play_label": PLAY_LINK_LABELS[lang],
    })
