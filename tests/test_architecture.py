"""The shape of the house: no import cycle, and apps importing only down the layers
(docs/ARCHITECTURE.md, "Layers"; ``python -m tools.import_graph`` prints the same)."""
from __future__ import annotations

import functools
import subprocess
import sys

from tools import import_graph as IG

# What this covers: every app of the site, as settings install them (a new one must be placed in the
# layers too, or the first test fails).
APPS = IG.APPS


@functools.cache
def _read_tree() -> dict[str, frozenset[str]]:
    """The tree's import graph, read once: reading every module's AST took a second per test."""
    return {name: frozenset(imported) for name, imported in IG.graph().items()}


def _tree() -> dict[str, set[str]]:
    """A copy of the tree's graph for one test to use as it likes."""
    return {name: set(imported) for name, imported in _read_tree().items()}


def _graph() -> dict[str, set[str]]:
    return IG.without(IG.KNOWN_CYCLE_EDGES, _tree())


def _reaches(graph: dict[str, set[str]], start: str, goal: str) -> bool:
    seen, todo = set(), [start]
    while todo:
        here = todo.pop()
        if here == goal:
            return True
        if here not in seen:
            seen.add(here)
            todo.extend(graph.get(here, ()))
    return False


def test_it_reads_every_app_and_places_each_in_a_layer():
    graph = _tree()
    assert {"config", "accounts", "realtime", "games", "puzzles", "ops"} <= set(APPS)
    for app in APPS:
        assert any(m == app or m.startswith(app + ".") for m in graph), app
        assert IG.layer_of(app) is not None, app
    assert {m for m in graph if m.startswith("games.engine.")} and "analysis.services" in graph


def test_the_apps_are_the_installed_ones(tmp_path):
    """The apps come from INSTALLED_APPS (read, not imported): the project's own packages, in order;
    Django's and third parties' apps and dotted AppConfig paths are no package of this tree."""
    for app in ("shop", "games"):
        (tmp_path / app).mkdir()
        (tmp_path / app / "__init__.py").write_text("")
    settings = tmp_path / "settings.py"
    settings.write_text('DEBUG = True\nINSTALLED_APPS = [\n    "django.contrib.admin",\n    "channels",\n'
                        '    "games",   # a comment\n    "shop",\n]\n')
    assert IG.installed_apps(settings, tmp_path) == ("games", "shop")


def test_the_transport_is_below_every_app_that_uses_it():
    """realtime carries every app's messages and knows none of them: it imports only accounts
    (and itself), and the apps that talk over sockets reach it, not games' insides, for it."""
    graph = _tree()
    transport = [m for m in graph if m.startswith("realtime.")]
    assert "realtime.broadcast" in transport and "realtime.socket_limit" in transport
    for name in transport:
        assert all(t.split(".")[0] in ("realtime", "accounts") for t in graph[name]), name
    for app in ("botapi", "pool", "tournaments", "moderation"):
        assert any(t.startswith("realtime.") for m in graph if m.startswith(app + ".") for t in graph[m]), app


def test_it_has_no_import_cycle_between_modules():
    assert IG.cycles(_graph()) == []


def test_it_has_no_import_cycle_between_apps():
    assert IG.cycles(IG.component_graph(_graph())) == []


def test_every_app_imports_only_apps_below_it():
    assert IG.against_layers(_graph()) == []


def test_the_known_cycles_being_removed_are_few_and_named():
    """Imports left out while other branches remove them (tools/import_graph.py): only these, and
    each still there (else it must leave the list)."""
    graph = _tree()
    assert len(IG.KNOWN_CYCLE_EDGES) <= 5
    assert all(b in graph.get(a, ()) for a, b in IG.KNOWN_CYCLE_EDGES)


def test_it_counts_a_functions_import_and_both_import_forms(tmp_path):
    """A lazy import inside a function is a cycle all the same, only postponed; ``from a import b``
    of a module is an edge to that module; an import only for type checking is none."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from . import b\n")
    (package / "b.py").write_text("def f():\n    from pkg.c import thing\n")
    (package / "c.py").write_text("import pkg.a\n")
    (package / "d.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import a\n")
    graph = IG.graph(tmp_path, ("pkg",))
    assert graph["pkg.a"] == {"pkg.b"} and graph["pkg.b"] == {"pkg.c"} and graph["pkg.d"] == set()
    assert IG.cycles(graph) == [["pkg.a", "pkg.b", "pkg.c", "pkg.a"]]


def test_it_finds_a_cycle_between_apps_and_an_import_up_the_layers():
    """Modules in no cycle of their own can still tie two apps together; and an import is judged
    by the layers of the two components (the engine is below games, accounts below games)."""
    apps_tied = {"accounts.models": {"games.models"}, "games.models": set(),
                 "games.views": {"accounts.views"}, "accounts.views": set()}
    assert IG.cycles(apps_tied) == []
    assert IG.cycles(IG.component_graph(apps_tied)) == [["accounts", "games", "accounts"]]
    crossing = IG.against_layers({"accounts.models": {"games.models"}, "games.models": {"accounts.models"},
                                  "games.engine.core": {"games.models"}, "bench.live": {"games.models"}})
    assert crossing == ["accounts.models -> games.models", "games.engine.core -> games.models"]


def test_the_command_exits_zero_on_this_tree_and_prints_the_count():
    ran = subprocess.run([sys.executable, "-m", "tools.import_graph"], cwd=IG.ROOT, capture_output=True,
                         text=True, timeout=60)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "0 cycle(s)" in ran.stdout


# --- rules within an app ---------------------------------------------------------------------------
def test_it_keeps_the_writers_free_of_what_clients_receive_and_of_the_tasks():
    """games/services.py writes; the views clients receive are built in games/messages.py, which
    writes nothing and knows no writer; no app's services import its tasks (they enqueue by name)."""
    graph = _graph()
    assert not _reaches(graph, "games.messages", "games.services")
    assert not _reaches(graph, "games.loading", "games.services")
    for app in APPS:
        if f"{app}.services" in graph and f"{app}.tasks" in graph:
            assert not _reaches(graph, f"{app}.services", f"{app}.tasks"), app


def test_it_keeps_the_engine_free_of_the_platform():
    graph = _tree()
    engine = [m for m in graph if m.startswith("games.engine")]
    assert engine
    for name in engine:
        assert all(t.startswith("games.engine") for t in graph[name]), name


def test_strict_shows_what_the_known_list_leaves_out(capsys):
    """``--strict`` leaves nothing out: it fails exactly while the known list still has work."""
    assert (IG.main(["--strict"]) == 1) == bool(IG.KNOWN_CYCLE_EDGES)
    out = capsys.readouterr().out
    assert all(f"{a} -> {b}" in out or a in out for a, b in IG.KNOWN_CYCLE_EDGES)


def test_it_keeps_games_free_of_moderation():
    """Moderation plugs into the table socket (games/socket_hooks.py) and its snapshot
    (games/signals.py) from its AppConfig.ready; games imports none of it."""
    graph = _tree()
    for name in (m for m in graph if m.startswith("games")):
        assert not any(t.startswith("moderation") for t in graph[name]), name
