"""Every reason the rules give for refusing an action: one catalogue, codes with parameters.

An action is refused with ``IllegalAction(code, **params)``, e.g. ``IllegalAction("must_follow",
suit="C")``. The code and the parameters are data (a client may branch on them; the socket sends
both); ``reason`` is the English sentence for logs, tools and the record checker. The site shows a
translation of the same template keyed by the code (``games/reasons.py``). Parameters are protocol
values: card codes (``"QS"``), suit letters (``"C"``), action types and field names.
"""
from __future__ import annotations

SUIT_WORDS = {"C": "club", "D": "diamond", "H": "heart", "S": "spade"}

CATALOGUE: dict[str, str] = {
    # any game: the shape of the action and whose turn it is
    "not_an_action": "An action must be an object with a seat and a type.",
    "no_such_seat": "The action names no valid seat.",
    "no_type": "The action has no type.",
    "unknown_type": "Unknown action type %(kind)s; this game knows %(types)s.",
    "unknown_field": "A %(kind)s action has no field %(field)s.",
    "needs_card": 'A play needs a card code such as "QS".',
    "not_a_card": "%(value)s is not a card.",
    "deal_over": "This deal is over.",
    "match_over": "The match is over.",
    "not_your_turn": "It is not your turn.",
    # playing a card to a trick
    "not_held": "You do not hold %(card)s.",
    "must_follow": "You must follow suit (you hold a %(suit)s).",
    "must_beat": "You must follow suit and beat %(card)s (you hold a higher %(suit)s).",
    "must_trump": "You must trump (you hold a %(suit)s).",
    "not_playable": "That card may not be played now.",
    "not_legal_now": "That move is not legal now.",
    # hearts
    "already_passed": "You have already passed your cards.",
    "pass_three": "Pass exactly three cards.",
    "pass_distinct": "Pass three different cards.",
    "pass_from_hand": "Pass three cards of your hand.",
    "no_passing": "There is no passing in this deal.",
    "passing_done": "The cards have already been passed.",
    "pass_first": "Pass three cards before the play begins.",
    "moon_choice": 'Choose "self" (26 off your score) or "others" (26 onto each opponent).',
    "moon_not_yours": "Only a player who took every heart and QS chooses how to score the moon.",
    "moon_now": "The cards are all played; choose how to score the moon.",
    "moon_choose": "Choose how to score the moon.",
    "lead_two_clubs": "The first trick must be led with 2C.",
    "hearts_not_broken": "Hearts are not broken yet.",
    "first_trick_queen": "You may not play QS on the first trick while you hold a card that is "
                         "neither a heart nor QS.",
    "first_trick_heart": "You may not play a heart on the first trick while you hold a card that "
                         "is neither a heart nor QS.",
    # sixty-six
    "flags_not_bool": '"marriage" and "declare" must be true or false.',
    "declare_needs_marriage": "66 is claimed with a card only together with a marriage; otherwise "
                              "declare without playing.",
    "exchange_not_on_lead": "Only the player on lead may exchange, before leading.",
    "exchange_closed": "The stock is closed: no exchange.",
    "exchange_no_stock": "No exchange: the stock holds no face-down card besides the trump card.",
    "exchange_before_trick": "You may exchange only after winning a trick in this deal.",
    "exchange_not_held": "You do not hold %(card)s to exchange.",
    "close_not_on_lead": "Only the player on lead may close.",
    "already_closed": "The stock is already closed.",
    "close_empty": "The stock is empty: there is nothing to close.",
    "declare_not_on_lead": "Only the player on lead may declare 66.",
    "declare_after_close": "The opponent of the player who closed may not declare 66.",
    "marriage_not_on_lead": "Only the player on lead may announce a marriage.",
    "marriage_not_queen_king": "A marriage is announced by leading a queen or a king.",
    "marriage_partner_missing": "You do not hold %(partner)s to marry %(card)s.",
    "marriage_first_lead": "No marriage may be announced on the first lead of the deal.",
    "marriage_stock_closed": "Marriages may be announced only while the stock is open.",
    # spades
    "bid_range": "A bid is a number of tricks from 0 (nil) to 13.",
    "blind_choice": 'A blind nil choice needs "accept": true or false.',
    "blind_not_offered": "Blind nil is only offered to a player whose team trails by 200 or more.",
    "blind_too_late": "Blind nil can only be chosen at the start of the deal, before any bid.",
    "blind_first": "First choose whether to bid blind nil (before seeing your cards).",
    "bidding_over": "The bidding is over.",
    "bid_first": "The bidding is not over yet: bid before playing.",
    "spades_not_broken": "Spades are not broken yet.",
    # claiming the remaining tricks (claims.py)
    "no_claims": "This game has no claim of the remaining tricks.",
    "claim_not_now": "The remaining tricks can be claimed only while the tricks are being played.",
    "claim_unproved": "The claim does not hold: another player could still take a trick.",
    "claim_too_hard": "This claim is too long to check now: play a few more tricks first.",
}


def render(code: str, params: dict, template: str | None = None,
           suit_word=SUIT_WORDS.__getitem__) -> str:
    """The sentence of a refusal: ``template`` (default: the English one) filled with ``params``,
    a suit letter shown as a word."""
    text = CATALOGUE[code] if template is None else template
    if not params:
        return text
    shown = {k: suit_word(v) if k == "suit" else v for k, v in params.items()}
    return text % shown


class IllegalAction(Exception):
    """An action refused by the rules: ``code`` from ``CATALOGUE``, ``params`` for its template,
    ``reason`` the English sentence."""

    def __init__(self, code: str, **params):
        if code not in CATALOGUE:
            raise KeyError(f"no refusal {code!r} in the catalogue")
        self.code = code
        self.params = params
        self.reason = render(code, params)
        super().__init__(self.reason)
