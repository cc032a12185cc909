"""Cards as a reader of the page's language names them: the court cards' and the ace's letters
(German B D K A, Polish W D K A, Bulgarian В Д П А; docs/RULES.md "Card letters"), the ten as
"10", the suit as its symbol. Only what people read changes: card codes on the wire, in deal
records and in the engine stay "JH", "QS" (docs/RECORDS.md)."""
from django.utils.translation import pgettext

SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
COURT = "JQKA"


def rank_letters() -> dict[str, str]:
    """Jack, queen, king and ace's letters in the active language, by their code letters."""
    # Translators: the letters of jack, queen, king and ace on cards, separated by spaces.
    letters = pgettext("card letters: jack queen king ace", "J Q K A").split()
    return dict(zip(COURT, letters if len(letters) == len(COURT) else COURT))


def rank_label(code: str, letters: dict[str, str] | None = None) -> str:
    rank = code[0]
    return "10" if rank == "T" else (letters or rank_letters()).get(rank, rank)


def card_text(code: str, letters: dict[str, str] | None = None) -> str:
    """``"QS"`` → ``"Q♠"`` (German ``"D♠"``); anything else unchanged."""
    if not isinstance(code, str) or len(code) != 2 or code[1] not in SUIT_SYMBOLS:
        return code
    return rank_label(code, letters) + SUIT_SYMBOLS[code[1]]
