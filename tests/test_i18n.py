"""Every UI string has a Polish and a Bulgarian translation, compiled (no gettext at run time)."""
from pathlib import Path

import pytest
from django.utils import translation

LOCALE = Path(__file__).resolve().parent.parent / "locale"


@pytest.mark.parametrize("lang", ["pl", "bg"])
def test_it_translates_every_string(lang):
    po = (LOCALE / lang / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    assert (LOCALE / lang / "LC_MESSAGES" / "django.mo").exists()
    entries = po.split("\n\n")[1:]
    untranslated = [e for e in entries if 'msgstr ""' in e and "\n\"" not in e.split('msgstr ""')[1]
                    and not e.lstrip().startswith("#~")]
    assert untranslated == []
    # makemessages marks a guess from a similar old string "fuzzy"; gettext never shows it.
    fuzzy = [e for e in entries if "#, fuzzy" in e]
    assert fuzzy == []


def test_it_answers_in_polish_and_bulgarian():
    with translation.override("pl"):
        assert translation.gettext("It is not your turn.") == "To nie twoja kolej."
    with translation.override("bg"):
        assert translation.gettext("It is not your turn.") == "Не е ваш ред."
