"""No module outside the engine names a game to decide a rule, list the games or stand a seat count
in for one: every app (its subpackages, management commands and templates too), the site's
templates and the browser clients read the engine's description instead (``GameRules.teams``,
``partnerships``, ``one_on_one``, ``title``, ``goal``, ``describe``; the registry
``core.GAME_NAMES``; the table JSON's ``rules``). Both quoting forms count: ``"sixtysix"`` and
``sixtysix=`` (a keyword, ``dict(sixtysix=...)``).

Left out on purpose: ``games/engine/`` (the rules themselves), each game's own bot modules
(``games/bots/<game>_*.py``, registered through ``games/bots/parts.py``, and ``trick_solver.py``,
the exact solver of the two trick games), ``games/bots/lab/`` (the measuring tools report each
game's own statistics: spades nils and bags, hearts moons), migrations (history), ``static/js/lib/cards.js`` (it only picks a rank order for drawing a
hand) and ``static/js/verify.js`` (the provably fair deal check: on purpose a second
implementation of each game's deck and deal order, so that it does not trust the server's).
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GAME = r"(?:sixtysix|hearts|spades)"
QUOTED = rf"""["']{GAME}["']"""

# Each a way the old code decided a rule by a game's name or by seat parity.
PATTERNS = [
    ("compares with a game name", re.compile(rf"(?:==|!=)=?\s*{QUOTED}")),
    ("compares a game name", re.compile(rf"{QUOTED}\s*(?:==|!=)")),
    ("tests membership in a list of games", re.compile(rf"\bin\s*[(\[{{]\s*{QUOTED}")),
    ("tests the game against a literal list", re.compile(r"""\bgame\s+(?:not\s+)?in\s*[(\[{]\s*["']""")),
    ("keys a table by game name", re.compile(rf"""(?:^\s*|[{{,(]\s*){QUOTED}\s*:""")),
    ("finds a seat's team by parity", re.compile(r"\b(?:seat|s|index|idx)\s*(?:%\s*2|&\s*1)\b")),
    ("indexes a score by seat modulo", re.compile(r"%\s*len\(\s*scores\s*\)")),
    ("finds a partner by seat arithmetic", re.compile(r"\b(?:seat|team)\s*\+\s*2\b|\[\s*[st]\s*\+\s*2\s*\]")),
    ("pairs a game name with a label", re.compile(rf"[(\[]\s*{QUOTED}\s*,")),
    ("keys words by a game's name", re.compile(rf"""["']\w*_{GAME}["']""")),
    ("links to a game by name", re.compile(rf"""{{%\s*url\s+['"][\w-]+['"]\s+{QUOTED}""")),
    ("names a game as a keyword", re.compile(rf"(?:^\s*|[(,]\s*){GAME}\s*=(?!=)")),
    # The seat count standing in for the game: ask the engine (GameRules.one_on_one, partnerships).
    ("takes the seat count for the game", re.compile(
        r"\bseats\s*(?:===?|!==?|<=?|>=?)\s*\d|\d\s*(?:===?|!==?|<=?|>=?)\s*[\w.]*\bseats\b"
        r"|len\(\s*[\w.]*\bseats\s*\)\s*(?:==|!=|<=?|>=?)\s*\d")),
    ("tells a partnership by team sizes", re.compile(
        r"len\([\w.]*teams[\w.()]*\)\s*(?:==|!=|<=?|>=?)\s*[\w.]*\bseats\b|len\(\s*teams\[\d\]\s*\)\s*[=!]=\s*1")),
]
# A JavaScript object literal may key by a bare name ({ sixtysix: 7 }); in Python that would be an
# annotation (``spades: int``), so this one is for scripts only.
JS_PATTERNS = [
    ("keys a table by game name", re.compile(rf"[{{,]\s*{GAME}\s*:")),
]

# Every app (tests/test_architecture.py's list), each with its subpackages.
PY_DIRS = ("games", "lobby", "accounts", "analysis", "moderation", "botapi", "ratings", "archive", "tournaments", "pool",
           "puzzles", "realtime", "ops", "config")
SKIP_PARTS = {"migrations", "__pycache__"}
SKIP_DIRS = ("games/engine/", "games/bots/lab/")
# A game's own bot module: its name starts with the game's (sixtysix_search.py, hearts_basic.py).
OWN_BOT_MODULE = re.compile(rf"^games/bots/(?:{GAME}_\w+|trick_solver)\.py$")
JS_SKIP = {"cards.js", "verify.js"}


def _sources() -> list[Path]:
    files = []
    for top in PY_DIRS:
        files += [p for p in sorted((ROOT / top).rglob("*.py")) if not SKIP_PARTS & set(p.relative_to(ROOT).parts)
                  and not str(p.relative_to(ROOT)).startswith(SKIP_DIRS)
                  and not OWN_BOT_MODULE.match(str(p.relative_to(ROOT)))]
    files += [p for p in sorted((ROOT / "static" / "js").rglob("*.js"))
              if p.name not in JS_SKIP and not p.name.endswith(".min.js")]
    files += sorted((ROOT / "templates").rglob("*.html"))
    return files


def offences(text: str, script: bool = False) -> list[tuple[int, str, str]]:
    found = []
    patterns = PATTERNS + JS_PATTERNS if script else PATTERNS
    for number, line in enumerate(text.splitlines(), start=1):
        for why, pattern in patterns:
            if pattern.search(line):
                found.append((number, why, line.strip()))
    return found


def test_it_finds_no_game_name_deciding_a_rule_outside_the_engine():
    problems = []
    for path in _sources():
        for number, why, line in offences(path.read_text(encoding="utf-8"), script=path.suffix == ".js"):
            problems.append(f"{path.relative_to(ROOT)}:{number}: {why}: {line}")
    assert not problems, "ask the engine (core.get_rules(game)) instead:\n" + "\n".join(problems)


def test_it_looks_where_it_should():
    names = {str(p.relative_to(ROOT)) for p in _sources()}
    assert {"ratings/rating.py", "ratings/services.py", "tournaments/services.py", "tournaments/standings.py",
            "games/messages.py", "static/js/table/main.js", "static/js/table/prompts/index.js",
            "static/js/lobby.js", "static/js/replay.js",
            "lobby/rules_views.py", "games/templatetags/game_labels.py", "ops/management/commands/demo_data.py",
            "templates/base.html", "templates/lobby/_table_i18n.html"} <= names
    for app in ("games", "lobby", "accounts", "analysis", "moderation", "botapi", "ratings", "archive", "tournaments",
                "pool", "realtime", "config"):
        assert any(n.startswith(app + "/") for n in names), app
    assert {"games/bots/strong.py", "games/bots/basic.py", "games/bots/sampling.py", "games/bots/paired.py",
            "games/bots/analyse.py", "games/bots/puzzle_solver.py", "games/bots/parts.py"} <= names
    assert not any(n.startswith(("games/engine/", "games/bots/lab/")) or n == "static/js/lib/cards.js" for n in names)
    assert not {"games/bots/sixtysix_search.py", "games/bots/hearts_basic.py", "games/bots/trick_solver.py"} & names


# What the rule was written against: lines of the code before the engine described the games.
OLD_LINES = [
    'TEAMS = {\n    "sixtysix": [[0], [1]],\n    "spades": [[0, 2], [1, 3]],\n}',
    'POINTS_KEY = {"sixtysix": "game_points", "hearts": "points", "spades": "team_points"}',
    '        score=scores[s.index % len(scores)],            # spades: the team\'s score',
    '    if game == "spades":',
    '        if t.game == "spades":',
    '    spades = t.game == "spades"',
    '    teams = [s % 2 for s in range(n)] if game == "spades" else None',
    '        return [float(scores[s % 2] - scores[1 - s % 2]) for s in range(seats)]',
    '        out.append(float(-margin if game == "hearts" else margin))',
    '    if game in ("hearts", "spades"):',
    '    if kind in ["spades", "hearts"]:',
    '    if game not in ("sixtysix",):',
    '    return data.game === "sixtysix" ? 2 : 4;',
    '  var SEATS = game === "sixtysix" ? 2 : 4;',
    '  function teamOf(seat) { return seat % 2; }',
    '    if (g === "spades") return [0, 1].map(teamName);',
    '    if ("hearts" === g) return res.points;',
    '    if (g !== "sixtysix") return;',
    '    var goal = { "sixtysix": 7, "hearts": 100 }[game()];',
    '    return seatName(team) + " & " + seatName(team + 2);',
    '        return deal.players[t] + " & " + deal.players[t + 2];',
    '        return [team_rank[s & 1] for s in range(4)]',
    '{% if table.game == "spades" %}',
    'TITLES = dict(sixtysix={"en": "Sixty-six: the rules"}, hearts={"en": "Hearts: the rules"})',
    '    sixtysix={',
    'GAME_CHOICES = [("sixtysix", _("Sixty-six")), ("hearts", _("Hearts")), ("spades", _("Spades"))]',
    '  "goal_spades": "{% filter escapejs %}{% blocktrans %}First team to {n}{% endblocktrans %}{% endfilter %}",',
    "    <a href=\"{% url 'lobby' 'spades' %}\">{% trans \"Spades\" %}</a>",
    '    return labels(hearts=_("Hearts"), spades=_("Spades"))',
    '    return len(live.seats) > 2',
    '    if rules.seats == 2:',
    '  {% if t.seats == 2 %}',
    '    partnerships = len(teams) < rules.seats',
    '    if len(teams[0]) == 1:',
    '    if len(rules.teams(variant)) == seats:',
]

FINE_LINES = [
    '    if len(order) % 2:',
    '        return n - 1 if n % 2 == 0 else n',
    '    if goal: box.appendChild(el("div", "score-goal", t("goal_" + game(), { n: goal })));',
    '    teams = rules.teams(t.variant or None)',
    '    spades_broken: bool = False',
    '    spades: int = 0',
    '    if (v.spades_broken) box.appendChild(el("div", "mine-line", t("spades_broken")));',
    '    game = models.CharField(_("game"), max_length=16, choices=GAME_CHOICES)',
    '    if (v.stock_size !== undefined) renderTalon(area, v);',
    '    for seat in range(seats + 2):',
    '    if game not in (None, *GAME_NAMES):',
    '    state = replace(state, spades_broken=True, hearts_broken=False)',
    '    if len(spec) != rules.seats or spec.count("me") > 1:',
    '    seats = [None] * rules.seats',
    '  "spades_broken": "{% filter escapejs %}{% trans "Spades are broken" %}{% endfilter %}",',
    '  {% for g in goals %}  "goal_{{ g.name }}": "{{ g.goal|escapejs }}",{% endfor %}',
    '    if (n === 2) return rel === 0 ? "bottom" : "top";',
]


@pytest.mark.parametrize("line", OLD_LINES)
def test_it_catches_the_old_ways_of_naming_a_game(line):
    assert offences(line) and offences(line, script=True), line


def test_it_catches_a_script_keying_by_a_bare_game_name():
    line = '    var goal = { sixtysix: 7, hearts: 100, spades: 500 }[game()];'
    assert offences(line, script=True) and not offences("    spades: int = 0")


@pytest.mark.parametrize("line", FINE_LINES)
def test_it_lets_legitimate_lines_be(line):
    assert not offences(line, script=True), offences(line, script=True)
