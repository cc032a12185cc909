"""Every UI string has a Polish, a Bulgarian and a German translation, compiled (no gettext at run
time), and the browser's language picks it."""
import re
from pathlib import Path

import pytest
from django.utils import translation

LOCALE = Path(__file__).resolve().parent.parent / "locale"
TRANSLATED = ["pl", "bg", "de"]


def po_entries(lang):
    po = (LOCALE / lang / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    return po.split("\n\n")[1:]


def unquote(lines):
    return "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', "\n".join(lines)))


def msgid_and_msgstrs(entry):
    """An entry's msgid and its translations (one, or one per plural form); obsolete entries are skipped."""
    lines = [line for line in entry.splitlines() if not line.startswith("#")]
    fields, current = {}, None
    for line in lines:
        keyword = re.match(r"^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d\])?) ", line)
        if keyword:
            current = keyword.group(1)
            fields[current] = [line[keyword.end():]]
        elif current:
            fields[current].append(line)
    values = {key: unquote(value) for key, value in fields.items()}
    return values.get("msgid", ""), [v for k, v in values.items() if k.startswith("msgstr")]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_it_translates_every_string(lang):
    assert (LOCALE / lang / "LC_MESSAGES" / "django.mo").exists()
    entries = po_entries(lang)
    untranslated = [e for e in entries if 'msgstr ""' in e and "\n\"" not in e.split('msgstr ""')[1]
                    and not e.lstrip().startswith("#~")]
    assert untranslated == []
    # makemessages marks a guess from a similar old string "fuzzy"; gettext never shows it.
    fuzzy = [e for e in entries if "#, fuzzy" in e]
    assert fuzzy == []


# What German players read as it is: names, and words German card sites use unchanged.
GERMAN_AS_IN_ENGLISH = {
    "Kurnik", "Live", "Schnapsen", "Santase", "Standard", "Hearts", "Spades", "BOT", "Moderation", "Spam",
    "Name", "Token", "Lobby", "Status", "Chat", "Board", "Boards", "Board %(n)s", "Buchholz", "Arena",
    "Duplicate", "–", "66!", "%(n)s min", "%(n)s s", "%(min)s s + %(inc)s s", "{min} min + {inc} s",
    "Bot: %(level)s", "Bot (%(level)s)", "Bot %(n)s (%(level)s)", "Bot ({level})", "Bot {n} ({level})",
}
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w*\}")
ENGLISH_WORDS = re.compile(r"\b(the|you|your|and|with|is|are|of|to|not|this|that|for|has|have|here|"
                           r"there|when|must|may|cannot|please|seat|table|deal|trick)\b")


def test_no_english_is_left_in_german():
    pairs = [msgid_and_msgstrs(e) for e in po_entries("de") if not e.lstrip().startswith("#~")]
    copied = sorted({msgid for msgid, msgstrs in pairs if msgid in msgstrs} - GERMAN_AS_IN_ENGLISH)
    assert copied == []
    english = [s for _msgid, msgstrs in pairs for s in msgstrs if ENGLISH_WORDS.search(PLACEHOLDER.sub("", s))]
    assert english == []


def test_it_answers_in_polish_bulgarian_and_german():
    with translation.override("pl"):
        assert translation.gettext("It is not your turn.") == "To nie twoja kolej."
    with translation.override("bg"):
        assert translation.gettext("It is not your turn.") == "Не е ваш ред."
    with translation.override("de"):
        assert translation.gettext("It is not your turn.") == "Du bist nicht am Zug."
        assert translation.gettext("Close the stock") == "Zudrehen"
        assert translation.ngettext("%(n)s player", "%(n)s players", 1) == "%(n)s Spieler"
        assert translation.ngettext("%(n)s rated match", "%(n)s rated matches", 2) == "%(n)s gewertete Partien"


@pytest.mark.django_db
@pytest.mark.parametrize("accept", ["de", "de-DE,de;q=0.9,en;q=0.8", "de-AT", "de-CH;q=0.9, en;q=0.5"])
def test_the_browsers_german_picks_german(client, accept):
    html = client.get("/", HTTP_ACCEPT_LANGUAGE=accept).content.decode()
    assert '<html lang="de">' in html
    assert "Wähle ein Spiel" in html and "Sechsundsechzig" in html


@pytest.mark.django_db
@pytest.mark.parametrize("accept", ["en-US,en;q=0.9", "fr-FR"])
def test_other_browsers_still_read_english(client, accept):
    html = client.get("/", HTTP_ACCEPT_LANGUAGE=accept).content.decode()
    assert '<html lang="en">' in html and "Pick a game" in html


@pytest.mark.django_db
def test_the_language_picker_offers_deutsch(client):
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    picker = html.split('name="language"', 1)[1].split("</select>", 1)[0]
    assert '<option value="de">Deutsch</option>' in picker
    for code, name in (("en", "English"), ("pl", "polski"), ("bg", "български")):
        assert f'value="{code}"' in picker and name in picker


@pytest.mark.django_db
def test_the_password_reset_email_is_in_german_for_a_german_browser(client, make_user):
    from django.core import mail
    from django.urls import reverse
    make_user("ala", email="ala@example.com")
    page = client.post(reverse("password_reset"), {"email": "ala@example.com"}, HTTP_ACCEPT_LANGUAGE="de-AT",
                       follow=True).content.decode()
    assert "Sieh in deinen E-Mails nach" in page
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert "Passwort" in message.subject
    assert "das Passwort deines Kontos ala zurückzusetzen" in message.body
    assert "Hier kannst du ein neues festlegen:" in message.body


@pytest.mark.parametrize("accept", [b"de-AT,de;q=0.9", b"de-DE", b"fr-FR,de-CH;q=0.7"])
def test_the_table_socket_answers_a_german_browser_in_german(accept):
    from realtime import language
    assert language.of_scope({"headers": [(b"accept-language", accept)], "cookies": {}}) == "de"
