"""The project's import graph and its cycles: ``python -m tools.import_graph``.

Reads the source (nothing is imported or run) and prints every import cycle between the project's
modules, then exits 1 if there is one, 0 if there is none. Every import counts: at module level, in
a function or a class (a lazy import is the same cycle, only postponed), ``import a.b`` and ``from a
import b`` alike; only imports under ``if TYPE_CHECKING:`` do not, as they never run.

    python -m tools.import_graph            cycles between modules, then imports against the
                                            layers (exit 1 on either)
    python -m tools.import_graph --apps     the graph between components (apps, the engine, bots)
    python -m tools.import_graph --edges    every edge, "importer -> imported"
    python -m tools.import_graph --strict   as the first, without leaving out KNOWN_CYCLE_EDGES

The layers (``LAYERS``, docs/ARCHITECTURE.md "Layers"): a component imports only components of
lower layers, never one of its own layer or above. ``tests/test_architecture.py`` runs the same
checks.
"""
from __future__ import annotations

import ast
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = ROOT / "config" / "settings.py"


def installed_apps(settings: Path = SETTINGS, root: Path = ROOT) -> tuple[str, ...]:
    """The project's own apps in settings' INSTALLED_APPS (read from the source, not imported):
    the entries that are a package of this tree, so that a new app cannot be left unchecked."""
    for node in ast.walk(ast.parse(settings.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "INSTALLED_APPS" for t in node.targets):
            entries = [ast.literal_eval(element) for element in node.value.elts]
            return tuple(e for e in entries if "." not in e and (root / e / "__init__.py").is_file())
    raise LookupError(f"no INSTALLED_APPS in {settings}")


# Every package of the site (config wires the installed apps into one site), and the scripts around
# it (bench/, tools/: they import the site, which never imports them back; they are in no layer).
APPS = ("config",) + installed_apps()
PACKAGES = APPS + ("bench", "tools")

# Known cycles being removed in other branches; each entry is the import that closes one, which
# the check leaves out. Empty it once they are merged: the list must end up empty.
KNOWN_CYCLE_EDGES: frozenset[tuple[str, str]] = frozenset({
})


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules(root: Path = ROOT, packages: Iterable[str] = PACKAGES) -> dict[str, Path]:
    found = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            if "migrations" not in path.parts:
                found[module_name(path, root)] = path
    return found


def _type_checking_only(node: ast.AST) -> bool:
    test = getattr(node, "test", None)
    return isinstance(node, ast.If) and (
        (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
        or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"))


def _import_nodes(tree: ast.AST):
    todo = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        for child in ast.iter_child_nodes(node):
            if _type_checking_only(child):
                todo.extend(child.orelse)       # the else branch does run
            else:
                todo.append(child)


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project modules ``name`` (at ``path``) imports. ``from a import b`` is an edge to the
    module ``a.b`` if there is one, else to ``a`` (``b`` is a name defined there)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in _import_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                       for alias in node.names]
        out.update(target for target in targets if target in modules)
    out.discard(name)
    return out


def graph(root: Path = ROOT, packages: Iterable[str] = PACKAGES) -> dict[str, set[str]]:
    modules = project_modules(root, packages)
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def without(edges: Iterable[tuple[str, str]], g: dict[str, set[str]]) -> dict[str, set[str]]:
    drop = set(edges)
    return {a: {b for b in targets if (a, b) not in drop} for a, targets in g.items()}


def strongly_connected(g: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's components of more than one node (a cycle's modules), each sorted; iterative."""
    index, low, on_stack, stack, out, counter = {}, {}, set(), [], [], [0]
    for start in sorted(g):
        if start in index:
            continue
        work = [(start, iter(sorted(g.get(start, ()))))]
        index[start] = low[start] = counter[0]; counter[0] += 1
        stack.append(start); on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter[0]; counter[0] += 1
                    stack.append(child); on_stack.add(child)
                    work.append((child, iter(sorted(g.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    members = []
                    while True:
                        member = stack.pop(); on_stack.discard(member); members.append(member)
                        if member == node:
                            break
                    if len(members) > 1:
                        out.append(sorted(members))
    return sorted(out)


def a_cycle(g: dict[str, set[str]], members: list[str]) -> list[str]:
    """One shortest cycle through the component's first module, as a path back to it."""
    inside, start = set(members), members[0]
    previous: dict[str, str] = {}
    todo = [start]
    while todo:
        following = []
        for node in todo:
            for child in sorted(g.get(node, ())):
                if child == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(previous[path[-1]])
                    return path[::-1] + [start]
                if child in inside and child not in previous:
                    previous[child] = node
                    following.append(child)
        todo = following
    return members


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """A shortest cycle through each group of modules that import each other."""
    return [a_cycle(g, members) for members in strongly_connected(g)]


# --- components: the apps, and the pure packages below them ------------------------------------------
# The pure packages are components of their own (no Django: docs/ARCHITECTURE.md, 1 and 6), so that
# an app may use the rules or the bots' ladder without depending on the games app.
PURE = ("games.engine", "games.bots")


def component(module: str) -> str:
    for pure in PURE:
        if module == pure or module.startswith(pure + "."):
            return pure
    return module.split(".")[0]


def component_graph(g: dict[str, set[str]]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for a, targets in g.items():
        out.setdefault(component(a), set())
        out[component(a)].update(component(b) for b in targets if component(b) != component(a))
    return out


# Lowest first. The engine's rules, then the bots that play by them (both pure), then the users;
# the socket transport every app shares (realtime) knows users and no game; the tables (games) use
# both; ratings and moderation react to games (games/signals.py) and the lobby's pages show them;
# the archive shows finished matches with their ratings, the analysis judges them, the puzzles come
# from the analysis; tournaments run tables; the bot API serves all of these to programs; ops
# watches them all (and fills a fresh site: demo_data); config wires every app into one site.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("games.engine",),
    ("games.bots",),
    ("accounts",),
    ("realtime",),
    ("games",),
    ("ratings", "moderation", "lobby"),
    ("archive",),
    ("analysis",),
    ("puzzles",),
    ("tournaments", "pool"),
    ("botapi",),
    ("ops",),
    ("config",),
)


def layer_of(name: str) -> int | None:
    return next((i for i, layer in enumerate(LAYERS) if name in layer), None)


def against_layers(g: dict[str, set[str]]) -> list[str]:
    """``importer -> imported`` for every import of a component of the same layer or above; an
    import from a script (no layer) is free."""
    out = []
    for a in sorted(g):
        here = layer_of(component(a))
        if here is None:
            continue
        for b in sorted(g[a]):
            there = layer_of(component(b))
            if component(b) != component(a) and (there is None or there >= here):
                out.append(f"{a} -> {b}")
    return out


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    g = graph()
    known = frozenset() if "--strict" in args else KNOWN_CYCLE_EDGES
    if "--edges" in args:
        for a in sorted(g):
            for b in sorted(g[a]):
                print(f"{a} -> {b}")
        return 0
    for a, b in sorted(known):
        if b in g.get(a, ()):
            print(f"left out, known and being removed: {a} -> {b}")
    if "--apps" in args:
        shown = component_graph(without(known, g))
        for a in sorted(shown):
            print(f"{a}: {', '.join(sorted(shown[a])) or '-'}")
    else:
        shown = without(known, g)
    found = cycles(shown)
    for cycle in found:
        tied = next(m for m in strongly_connected(shown) if cycle[0] in m)
        more = sorted(set(tied) - set(cycle))
        print("cycle:", " -> ".join(cycle) + (f"   (tied with it: {', '.join(more)})" if more else ""))
    print(f"{len(found)} cycle(s) among {len(g)} modules" + ("" if "--apps" not in args else " (components)"))
    crossing = against_layers(without(known, g))
    for edge in crossing:
        print("against the layers:", edge)
    print(f"{len(crossing)} import(s) against the layers")
    return 1 if found or crossing else 0


if __name__ == "__main__":
    sys.exit(main())
