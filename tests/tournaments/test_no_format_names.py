"""No code around the formats decides anything by a format's name: services, controls, forms,
views, the page, the templates and the page's script ask the tournament's format
(tournaments/formats/) what it does. Only the format modules and their own partials may name
themselves, and they need not: each is the only one that knows what it is.

The names are the registry's, so a new format is covered the day it is registered."""
from __future__ import annotations

import re
from pathlib import Path

from tournaments.formats import NAMES

ROOT = Path(__file__).resolve().parent.parent.parent
NAME = "(?:" + "|".join(re.escape(n) for n in NAMES) + ")"
QUOTED = rf"""["']{NAME}["']"""

# Each a way to branch on a format by its name.
PATTERNS = [
    ("compares with a format name", re.compile(rf"(?:==|!=)=?\s*{QUOTED}")),
    ("compares a format name", re.compile(rf"{QUOTED}\s*(?:==|!=)")),
    ("tests membership in a list of formats", re.compile(rf"\bin\s*[(\[{{]\s*{QUOTED}")),
    ("names a member of a format enumeration", re.compile(r"\bFormat\.[A-Z][A-Z_]*\b")),
    ("compares a tournament's format", re.compile(r"\bformat\s*(?:==|!=|not\s+in\b|in\s*[(\[{])")),
    ("keys a table by format name", re.compile(rf"""(?:^\s*|[{{,(]\s*){QUOTED}\s*:""")),
    ("selects by a format name", re.compile(rf"""data-format\s*[~|^$*]?=\s*["']?{NAME}\b""")),
]


def sources() -> list[Path]:
    """tournaments/ (outside its formats and migrations), its templates outside their formats'
    partials, and the tournament page's script."""
    files = [p for p in sorted((ROOT / "tournaments").rglob("*.py"))
             if not {"formats", "migrations", "__pycache__"} & set(p.relative_to(ROOT).parts)]
    files += [p for p in sorted((ROOT / "templates" / "tournaments").rglob("*.html"))
              if "formats" not in p.relative_to(ROOT).parts]
    files += [ROOT / "static" / "js" / "tournament.js"]
    return files


def offences(text: str) -> list[tuple[int, str, str]]:
    return [(number, why, line.strip()) for number, line in enumerate(text.splitlines(), start=1)
            for why, pattern in PATTERNS if pattern.search(line)]


def test_it_scans_the_code_around_the_formats():
    names = {str(p.relative_to(ROOT)) for p in sources()}
    for expected in ("tournaments/services.py", "tournaments/controls.py", "tournaments/forms.py",
                     "tournaments/views.py", "tournaments/page.py", "tournaments/steps.py",
                     "templates/tournaments/_live.html", "templates/tournaments/list.html",
                     "static/js/tournament.js"):
        assert expected in names


def test_it_finds_no_branch_on_a_format_name_outside_the_formats():
    found = [f"{p.relative_to(ROOT)}:{n}: {why}: {line}" for p in sources()
             for n, why, line in offences(p.read_text(encoding="utf-8"))]
    assert found == [], "ask the format (tournaments/formats/) instead:\n" + "\n".join(found)


def test_it_would_notice_each_old_way_of_branching():
    """The ways the code branched before the formats were modules, each caught."""
    for line in ('if t.format == Format.ARENA:', 'is_duplicate = t.format == Format.DUPLICATE',
                 'if rules.seats != 2 and fmt in (Tournament.Format.ROUND_ROBIN, Tournament.Format.ELIMINATION):',
                 '{% if t.format == "arena" %}', '{% elif t.format == "swiss" or t.format == "duplicate" %}',
                 '{% if t.format != "arena" and t.format != "duplicate" %}', "if kind in ('swiss', 'duplicate'):",
                 'live.querySelector("[data-format=arena]")', 'STEPS = {"arena": arena_steps}',
                 "if 'round_robin' == fmt:"):
        assert offences(line), line
    for line in ('format = forms.ChoiceField(choices=formats.choices)', '"format": t.format,',
                 'data-format="{{ t.format }}"', "return format_html(x)", '"duplicate" in the docs'):
        assert not offences(line), line
