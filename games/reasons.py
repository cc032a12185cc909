"""The engine's refusals in the player's language.

The engine (no Django) refuses with ``IllegalAction(code, **params)`` from one catalogue,
``games/engine/refusals.py``. Here each code has the same English template marked for gettext, so
``makemessages`` finds it and ``translate`` fills the active language's template with the
refusal's parameters. ``tests/games/test_reasons.py`` keeps this table and the catalogue equal.
"""
from __future__ import annotations

from django.utils.translation import gettext, gettext_noop, pgettext

from games.card_letters import card_text
from games.engine.refusals import IllegalAction, render


def _suit(letter: str) -> str:
    """A suit as in "(you hold a club)": the word alone, translated for that sentence."""
    return {
        "C": pgettext("you hold a ...", "club"),
        "D": pgettext("you hold a ...", "diamond"),
        "H": pgettext("you hold a ...", "heart"),
        "S": pgettext("you hold a ...", "spade"),
    }.get(letter, letter)


MESSAGES: dict[str, str] = {
    "not_an_action": gettext_noop("An action must be an object with a seat and a type."),
    "no_such_seat": gettext_noop("The action names no valid seat."),
    "no_type": gettext_noop("The action has no type."),
    "unknown_type": gettext_noop("Unknown action type %(kind)s; this game knows %(types)s."),
    "unknown_field": gettext_noop("A %(kind)s action has no field %(field)s."),
    "needs_card": gettext_noop('A play needs a card code such as "QS".'),
    "not_a_card": gettext_noop("%(value)s is not a card."),
    "deal_over": gettext_noop("This deal is over."),
    "match_over": gettext_noop("The match is over."),
    "not_your_turn": gettext_noop("It is not your turn."),
    "not_held": gettext_noop("You do not hold %(card)s."),
    "must_follow": gettext_noop("You must follow suit (you hold a %(suit)s)."),
    "must_beat": gettext_noop("You must follow suit and beat %(card)s (you hold a higher %(suit)s)."),
    "must_trump": gettext_noop("You must trump (you hold a %(suit)s)."),
    "not_playable": gettext_noop("That card may not be played now."),
    "not_legal_now": gettext_noop("That move is not legal now."),
    "already_passed": gettext_noop("You have already passed your cards."),
    "pass_three": gettext_noop("Pass exactly three cards."),
    "pass_distinct": gettext_noop("Pass three different cards."),
    "pass_from_hand": gettext_noop("Pass three cards of your hand."),
    "no_passing": gettext_noop("There is no passing in this deal."),
    "passing_done": gettext_noop("The cards have already been passed."),
    "pass_first": gettext_noop("Pass three cards before the play begins."),
    "moon_choice": gettext_noop('Choose "self" (26 off your score) or "others" (26 onto each opponent).'),
    "moon_not_yours": gettext_noop("Only a player who took every heart and QS chooses how to score the moon."),
    "moon_now": gettext_noop("The cards are all played; choose how to score the moon."),
    "moon_choose": gettext_noop("Choose how to score the moon."),
    "lead_two_clubs": gettext_noop("The first trick must be led with 2C."),
    "hearts_not_broken": gettext_noop("Hearts are not broken yet."),
    "first_trick_queen": gettext_noop("You may not play QS on the first trick while you hold a card "
                                      "that is neither a heart nor QS."),
    "first_trick_heart": gettext_noop("You may not play a heart on the first trick while you hold a "
                                      "card that is neither a heart nor QS."),
    "flags_not_bool": gettext_noop('"marriage" and "declare" must be true or false.'),
    "declare_needs_marriage": gettext_noop("66 is claimed with a card only together with a marriage; "
                                           "otherwise declare without playing."),
    "exchange_not_on_lead": gettext_noop("Only the player on lead may exchange, before leading."),
    "exchange_closed": gettext_noop("The stock is closed: no exchange."),
    "exchange_no_stock": gettext_noop("No exchange: the stock holds no face-down card besides the trump card."),
    "exchange_before_trick": gettext_noop("You may exchange only after winning a trick in this deal."),
    "exchange_not_held": gettext_noop("You do not hold %(card)s to exchange."),
    "close_not_on_lead": gettext_noop("Only the player on lead may close."),
    "already_closed": gettext_noop("The stock is already closed."),
    "close_empty": gettext_noop("The stock is empty: there is nothing to close."),
    "declare_not_on_lead": gettext_noop("Only the player on lead may declare 66."),
    "declare_after_close": gettext_noop("The opponent of the player who closed may not declare 66."),
    "marriage_not_on_lead": gettext_noop("Only the player on lead may announce a marriage."),
    "marriage_not_queen_king": gettext_noop("A marriage is announced by leading a queen or a king."),
    "marriage_partner_missing": gettext_noop("You do not hold %(partner)s to marry %(card)s."),
    "marriage_first_lead": gettext_noop("No marriage may be announced on the first lead of the deal."),
    "marriage_stock_closed": gettext_noop("Marriages may be announced only while the stock is open."),
    "bid_range": gettext_noop("A bid is a number of tricks from 0 (nil) to 13."),
    "blind_choice": gettext_noop('A blind nil choice needs "accept": true or false.'),
    "blind_not_offered": gettext_noop("Blind nil is only offered to a player whose team trails by 200 or more."),
    "blind_too_late": gettext_noop("Blind nil can only be chosen at the start of the deal, before any bid."),
    "blind_first": gettext_noop("First choose whether to bid blind nil (before seeing your cards)."),
    "bidding_over": gettext_noop("The bidding is over."),
    "bid_first": gettext_noop("The bidding is not over yet: bid before playing."),
    "spades_not_broken": gettext_noop("Spades are not broken yet."),
    "no_claims": gettext_noop("This game has no claim of the remaining tricks."),
    "claim_not_now": gettext_noop("The remaining tricks can be claimed only while the tricks are being played."),
    "claim_unproved": gettext_noop("The claim does not hold: another player could still take a trick."),
    "claim_too_hard": gettext_noop("This claim is too long to check now: play a few more tricks first."),
}


def translate(refusal: IllegalAction) -> str:
    """A refusal's sentence in the active language (English where no translation exists)."""
    template = MESSAGES.get(refusal.code)
    if template is None:
        return refusal.reason
    # A card is named as the reader's cards are lettered (games/card_letters.py); params stay codes.
    params = {k: card_text(v) if k in ("card", "partner") else v for k, v in refusal.params.items()}
    try:
        return render(refusal.code, params, gettext(template), _suit)
    except (KeyError, ValueError, TypeError):   # a broken translation must not hide the reason
        return refusal.reason
