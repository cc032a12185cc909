"""The engine's refusal reasons in the player's language.

The engine (``games/engine``, no Django) refuses an action with ``IllegalAction(reason)``: one English
sentence, some with parameters ("You do not hold JD.", "You must follow suit (you hold a club).").
Here, at the platform's edge, each reason the engine can give is a pattern with named groups and a
gettext-marked template with the same names; ``translate`` finds the pattern, translates the
template into the active language and fills it in. A reason without a pattern stays in English.

``tests/games/test_reasons.py`` drives random illegal actions through every game and fails on a
reason that no pattern here matches: a new engine sentence needs its line below.
"""
from __future__ import annotations

import re

from django.utils.translation import gettext, gettext_noop, pgettext

CARD = r"[2-9TJQKA][CDHS]"
SUIT = r"club|diamond|heart|spade"


def _suit(word: str) -> str:
    """A suit as in "(you hold a club)": the word alone, translated for that sentence."""
    return {
        "club": pgettext("you hold a ...", "club"),
        "diamond": pgettext("you hold a ...", "diamond"),
        "heart": pgettext("you hold a ...", "heart"),
        "spade": pgettext("you hold a ...", "spade"),
    }.get(word, word)


# How a captured parameter is shown: suits are words to translate; cards, field names and action
# types are codes of the protocol and stay as they are.
CONVERT = {"suit": _suit}

# Reasons without parameters: the pattern is the sentence itself.
FIXED = [
    # core (every game)
    gettext_noop("An action must be an object with a seat and a type."),
    gettext_noop("This deal is over."),
    gettext_noop("The action names no valid seat."),
    gettext_noop("It is not your turn."),
    gettext_noop("The match is over."),
    # hearts
    gettext_noop("You have already passed your cards."),
    gettext_noop("Pass exactly three cards."),
    gettext_noop("Pass three different cards."),
    gettext_noop('Choose "self" (26 off your score) or "others" (26 onto each opponent).'),
    gettext_noop("The action has no type."),
    gettext_noop("There is no passing in this deal."),
    gettext_noop("The cards have already been passed."),
    gettext_noop("Pass three cards of your hand."),
    gettext_noop("Only a player who took every heart and QS chooses how to score the moon."),
    gettext_noop("Choose how to score the moon."),
    gettext_noop("Pass three cards before the play begins."),
    gettext_noop("The cards are all played; choose how to score the moon."),
    gettext_noop("The first trick must be led with 2C."),
    gettext_noop("Hearts are not broken yet."),
    gettext_noop("You may not play QS on the first trick while you hold a card that is neither a heart nor QS."),
    gettext_noop("You may not play a heart on the first trick while you hold a card that is neither a heart nor QS."),
    gettext_noop("That card may not be played now."),
    # sixty-six
    gettext_noop("Unknown action type: use play, exchange, close or declare."),
    gettext_noop('A play needs a card code such as "QS".'),
    gettext_noop('"marriage" and "declare" must be true or false.'),
    gettext_noop("66 is claimed with a card only together with a marriage; otherwise declare without playing."),
    gettext_noop("That move is not legal now."),
    gettext_noop("Only the player on lead may exchange, before leading."),
    gettext_noop("The stock is closed: no exchange."),
    gettext_noop("No exchange: the stock holds no face-down card besides the trump card."),
    gettext_noop("You may exchange only after winning a trick in this deal."),
    gettext_noop("Only the player on lead may close."),
    gettext_noop("The stock is already closed."),
    gettext_noop("The stock is empty: there is nothing to close."),
    gettext_noop("Only the player on lead may declare 66."),
    gettext_noop("The opponent of the player who closed may not declare 66."),
    gettext_noop("Only the player on lead may announce a marriage."),
    gettext_noop("A marriage is announced by leading a queen or a king."),
    gettext_noop("No marriage may be announced on the first lead of the deal."),
    gettext_noop("Marriages may be announced only while the stock is open."),
    # spades
    gettext_noop("Unknown action type; spades knows play, bid and blind_nil."),
    gettext_noop("A bid is a number of tricks from 0 (nil) to 13."),
    gettext_noop('A blind nil choice needs "accept": true or false.'),
    gettext_noop("Blind nil is only offered to a player whose team trails by 200 or more."),
    gettext_noop("Blind nil can only be chosen at the start of the deal, before any bid."),
    gettext_noop("First choose whether to bid blind nil (before seeing your cards)."),
    gettext_noop("The bidding is over."),
    gettext_noop("A bid is from 0 (nil) to 13 tricks."),
    gettext_noop("The bidding is not over yet: bid before playing."),
    gettext_noop("Spades are not broken yet."),
    gettext_noop("That card cannot be played now."),
]

# Reasons with parameters: (the engine's sentence as a regex with named groups, the template).
PARAMETERISED = [
    (rf"You do not hold (?P<card>{CARD})\.",
     gettext_noop("You do not hold %(card)s.")),
    (rf"You do not hold (?P<card>{CARD}) to exchange\.",
     gettext_noop("You do not hold %(card)s to exchange.")),
    (rf"You do not hold (?P<partner>{CARD}) to marry (?P<card>{CARD})\.",
     gettext_noop("You do not hold %(partner)s to marry %(card)s.")),
    (rf"You must follow suit \(you hold a (?P<suit>{SUIT})\)\.",
     gettext_noop("You must follow suit (you hold a %(suit)s).")),
    (rf"You must follow suit and beat (?P<card>{CARD}) \(you hold a higher (?P<suit>{SUIT})\)\.",
     gettext_noop("You must follow suit and beat %(card)s (you hold a higher %(suit)s).")),
    (rf"You must trump \(you hold a (?P<suit>{SUIT})\)\.",
     gettext_noop("You must trump (you hold a %(suit)s).")),
    (r"Hearts has no action (?P<kind>.+)\.",
     gettext_noop("Hearts has no action %(kind)s.")),
    (r"A (?P<kind>\w+) action has no field (?P<field>.+)\.",
     gettext_noop("A %(kind)s action has no field %(field)s.")),
    (r"(?P<value>.+) is not a card\.",
     gettext_noop("%(value)s is not a card.")),
]

REASONS: list[tuple[re.Pattern, str]] = (
    [(re.compile(re.escape(text)), text) for text in FIXED]
    + [(re.compile(pattern), template) for pattern, template in PARAMETERISED]
)


def match(reason: str) -> tuple[str, dict[str, str]] | None:
    """The template and the parameters of an engine reason (None: an unknown reason)."""
    for pattern, template in REASONS:
        m = pattern.fullmatch(reason)
        if m:
            return template, m.groupdict()
    return None


def translate(reason: str) -> str:
    """An engine reason in the active language; an unknown one as it is (English)."""
    found = match(reason) if isinstance(reason, str) else None
    if found is None:
        return reason
    template, params = found
    text = gettext(template)
    if not params:
        return text
    try:
        return text % {k: CONVERT.get(k, str)(v) for k, v in params.items()}
    except (KeyError, ValueError, TypeError):   # a broken translation must not hide the reason
        return template % params
