"""The registry of formats and the one interface behind it (tournaments/formats/): every format
registered is complete, the site finds it by the tournament's format, and a new format plugs in
with its module and its registry entry alone: run here end to end, page included."""
from __future__ import annotations

import ast
from datetime import timedelta
from pathlib import Path

import pytest
from django.template.loader import get_template

from tournaments import formats, services
from tournaments.formats.base import Format
from tournaments.formats.rounds import RoundFormat
from tournaments.forms import TournamentForm
from tournaments.models import Entry, Game, Round, Tournament

from ..conftest import run_tournament

ROOT = Path(__file__).resolve().parents[3]
INTERFACE = ("begin", "advance", "standings")


@pytest.mark.parametrize("name", formats.NAMES)
def test_it_registers_each_format_under_its_module_name_complete(name):
    fmt = formats.get(name)
    assert isinstance(fmt, Format) and fmt.name == name
    assert type(fmt).__module__ == f"tournaments.formats.{name}"
    assert str(fmt.label) and str(fmt.summary)
    for method in INTERFACE:                       # none left to the base's NotImplementedError
        assert getattr(type(fmt), method) is not getattr(Format, method), method
    # Its page partial is its own and extends the page's live part.
    assert fmt.template == f"tournaments/formats/{name}.html"
    source = (ROOT / "templates" / fmt.template).read_text(encoding="utf-8")
    assert source.startswith("{% extends ")
    get_template(fmt.template)


def test_it_finds_the_format_of_a_tournament_and_refuses_an_unknown_one():
    assert formats.of(Tournament(format="arena")) is formats.get("arena")
    with pytest.raises(KeyError):
        formats.get("marathon")


def test_the_admin_offers_exactly_the_registered_formats_in_order():
    choices = TournamentForm().fields["format"].choices
    assert [name for name, _label in choices] == list(formats.NAMES)


def test_what_the_organiser_may_do_is_the_formats_to_say():
    may_add = {name for name in formats.NAMES if not formats.get(name).add_round_refused}
    assert may_add == {"swiss", "duplicate"}
    assert {n for n in formats.NAMES if formats.get(n).players_pause_themselves} == {"arena"}
    assert formats.get("arena").total_rounds(Tournament(rounds=5), 8) is None     # no rounds to count
    assert formats.get("round_robin").total_rounds(Tournament(rounds=5), 5) == 5
    assert formats.get("swiss").total_rounds(Tournament(rounds=5), 8) == 5


@pytest.mark.parametrize("name, seats, field", [("round_robin", 4, "format"), ("elimination", 4, "format"),
                                                ("arena", 2, "arena_minutes"), ("duplicate", 2, "boards"),
                                                ("swiss", 2, "rounds")])
def test_each_format_checks_the_admins_form_for_itself(name, seats, field):
    bad = {"rounds": 0, "arena_minutes": 1, "boards": 30}
    assert field in {f for f, _reason in formats.get(name).clean(bad, seats)}
    good = {"rounds": 3, "arena_minutes": 30, "boards": 4}
    assert formats.get(name).clean(good, 2) == []


# --- the shape of the package ----------------------------------------------------------------------
def _tournament_imports() -> dict[str, set[str]]:
    """tournaments' modules → the tournaments modules each imports (lazy imports count)."""
    graph = {}
    for path in (ROOT / "tournaments").rglob("*.py"):
        if "migrations" in path.parts:
            continue
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        package = parts[:-1] if parts[-1] != "__init__" else parts
        name = ".".join(parts if parts[-1] != "__init__" else parts[:-1])
        out = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package[: len(package) - (node.level - 1)]
                    base = ".".join(anchor + ([base] if base else []))
                out.update([base] + [f"{base}.{a.name}" for a in node.names])
            elif isinstance(node, ast.Import):
                out.update(a.name for a in node.names)
        graph[name] = {m for m in out if m.startswith("tournaments") and m != name}
    return graph


def _reaches(graph, start, goal) -> bool:
    seen, todo = set(), [start]
    while todo:
        here = todo.pop()
        if here.startswith(goal):
            return True
        if here not in seen:
            seen.add(here)
            todo.extend(graph.get(here, ()))
    return False


def test_the_shared_steps_know_no_format_and_no_format_knows_the_services():
    graph = _tournament_imports()
    for shared in ("tournaments.steps", "tournaments.results", "tournaments.models", "tournaments.signals"):
        assert not _reaches(graph, shared, "tournaments.formats"), shared
        assert not _reaches(graph, shared, "tournaments.services"), shared
    for name in graph:
        if name.startswith("tournaments.formats"):
            assert not _reaches(graph, name, "tournaments.services"), name
            assert not _reaches(graph, name, "tournaments.page"), name
    # No cycle between any two of its modules.
    for a in graph:
        for b in graph[a]:
            if b in graph:
                assert not _reaches(graph, b, a) or a == b, (a, b)


def test_no_module_of_tournaments_uses_another_ones_underscore_names():
    found = []
    for path in (ROOT / "tournaments").rglob("*.py"):
        if "migrations" in path.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        modules = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                local = (node.module or "").startswith("tournaments") or node.level
                if local:
                    modules.update(a.asname or a.name for a in node.names)
                    found += [f"{path.name}: {a.name}" for a in node.names
                              if a.name.startswith("_") and not a.name.startswith("__")]
        found += [f"{path.name}: {n.value.id}.{n.attr}" for n in ast.walk(tree)
                  if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id in modules
                  and n.attr.startswith("_") and not n.attr.startswith("__")]
    assert found == []


# --- a format plugged in by the test --------------------------------------------------------------
class TopTwoFinal(RoundFormat):
    """One round: the two best seeds play each other, everyone else sits it out with a bye."""
    name = "top_two"
    label = "Top two"
    summary = "The two best seeds play one match."
    template = "tournaments/formats/round_robin.html"
    add_round_refused = "One match is all there is."
    seats = (2,)

    def plan(self, t, number, entries):
        from tournaments import results
        seeds = [e.pk for e in results.seed_order(entries)]
        return [(seeds[:2], False)] + [([p], True) for p in seeds[2:]]

    def total_rounds(self, t, entries):
        return 1


@pytest.mark.django_db(transaction=True)
def test_a_new_format_runs_with_its_module_and_a_registry_entry_alone(bots, clock, task_queue, advance_queue,
                                                                       monkeypatch, client):
    monkeypatch.setitem(formats.FORMATS, TopTwoFinal.name, TopTwoFinal())
    t = Tournament.objects.create(name="Final", game="sixtysix", variant="kurnik", format="top_two",
                                  starts_at=clock.now() + timedelta(seconds=60), bank_seconds=10,
                                  increment_seconds=0, min_entries=2, break_seconds=0)
    for u in bots(3):
        services.register(t.pk, u)
    clock.advance(60)
    t = run_tournament(t.pk, clock, task_queue, advance_queue, short=True)
    assert t.status == "finished" and t.current_round == 1
    assert list(Round.objects.filter(tournament=t).values_list("number", "status")) == [(1, "finished")]
    final = Game.objects.get(round__tournament=t, bye=False)
    loser = final.players[final.result["points"].index(0.0)]
    ranks = dict(Entry.objects.filter(tournament=t).values_list("pk", "final_rank"))
    assert sorted(ranks.values()) == [1, 2, 3] and ranks[loser] == 3     # the byes count as wins
    html = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "Top two" in html and 'data-action="add-round"' not in html and 'id="standings"' in html
    assert "Top two" in client.get("/tournaments/").content.decode()
