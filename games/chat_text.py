"""What a chat line may hold: no control characters and no bidirectional controls, removed on the
server before the line is stored.

- C0 and C1 controls (Unicode category Cc: NUL, escape, ...) are removed; the chat is one line,
  so a tab or a line break (and U+2028/U+2029, the line and paragraph separators) becomes a space.
- Every Bidi_Control character is removed: the embeddings, overrides and isolates (U+202A-U+202E,
  U+2066-U+2069), which make a line read in another order than it was typed (U+202E makes
  "gnp.exe" appear as "exe.png"), and the implicit marks (U+200E, U+200F, U+061C), invisible and
  of no use in the site's languages.
"""
from __future__ import annotations

import unicodedata

BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
LINE_BREAKS = frozenset("\t\n\v\f\r\x85\u2028\u2029")


def clean(text: str) -> str:
    """``text`` without control characters (line breaks and tabs as spaces), trimmed."""
    kept = []
    for char in text:
        if char in LINE_BREAKS:
            kept.append(" ")
        elif char in BIDI_CONTROLS or unicodedata.category(char) == "Cc":
            continue
        else:
            kept.append(char)
    return "".join(kept).strip()
