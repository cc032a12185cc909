"""The shape of the house: which module may import which (docs/ARCHITECTURE.md)."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APPS = ("accounts", "games", "ratings", "tournaments", "moderation", "config")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _project_modules() -> dict[str, Path]:
    found = {}
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" not in path.parts:
                found[_module_name(path)] = path
    return found


def _imports(path: Path, name: str, modules: dict[str, Path]) -> set[str]:
    """Every project module ``path`` imports, at any depth (a function's lazy import counts: it is
    a cycle all the same, only postponed)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            targets = [base] + [f"{base}.{a.name}" for a in node.names]
        else:
            continue
        out.update(t for t in targets if t in modules)
    out.discard(name)
    return out


def _graph() -> dict[str, set[str]]:
    modules = _project_modules()
    return {name: _imports(path, name, modules) for name, path in modules.items()}


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


def test_it_has_no_import_cycle_between_an_apps_services_and_its_tasks():
    graph = _graph()
    for app in APPS:
        services, tasks = f"{app}.services", f"{app}.tasks"
        if services in graph and tasks in graph:
            assert not (_reaches(graph, services, tasks) and _reaches(graph, tasks, services)), app


def test_it_keeps_the_writers_free_of_what_clients_receive_and_of_the_tasks():
    """games/services.py writes; the views clients receive are built in games/messages.py, which
    writes nothing and knows no writer."""
    graph = _graph()
    assert not _reaches(graph, "games.messages", "games.services")
    assert not _reaches(graph, "games.loading", "games.services")
    assert "games.tasks" not in graph["games.services"]


def test_it_keeps_the_engine_free_of_the_platform():
    graph = _graph()
    engine = [m for m in graph if m.startswith("games.engine")]
    assert engine
    for name in engine:
        assert all(t.startswith("games.engine") for t in graph[name]), name


def test_it_keeps_games_free_of_moderation():
    """Moderation plugs into the table socket (games/socket_hooks.py) and its snapshot
    (games/signals.py) from its AppConfig.ready; games imports none of it."""
    graph = _graph()
    for name in (m for m in graph if m.startswith("games")):
        assert not any(t.startswith("moderation") for t in graph[name]), name
