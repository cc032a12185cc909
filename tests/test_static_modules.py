"""The page scripts' ES modules after ``collectstatic`` as a site with DEBUG off serves them
(config/static_storage.py): every ``import ... from "./x.js";`` in a collected, hashed module names
the hashed file the manifest holds for it, so a page never mixes modules of two collections. Every
page script is a module (nav.js alone is classic: it must run before the first paint), and the
helpers they share live once, in static/js/lib/."""
import json
import posixpath
import re
from pathlib import Path

from django.core.management import call_command
from django.test import override_settings

ROOT = Path(__file__).resolve().parent.parent
IMPORT = re.compile(r"""^(?:import|export)\b[^;]*?\bfrom\s*"([^"]+)";""", re.M | re.S)


def test_it_rewrites_every_module_import_to_its_hashed_name(tmp_path):
    storages = {"default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
                "staticfiles": {"BACKEND": "config.static_storage.StaticStorage"}}
    with override_settings(STATIC_ROOT=tmp_path, STORAGES=storages):
        call_command("collectstatic", "--noinput", verbosity=0)
    paths = json.loads((tmp_path / "staticfiles.json").read_text())["paths"]
    modules = {name: hashed for name, hashed in paths.items() if name.startswith("js/") and name.endswith(".js")}
    sources = sorted(p.relative_to(ROOT / "static").as_posix() for p in (ROOT / "static/js").rglob("*.js"))
    assert sorted(modules) == sources
    hashed_names = set(paths.values())
    checked = 0
    for name, hashed in modules.items():
        for target in IMPORT.findall((tmp_path / hashed).read_text()):
            resolved = posixpath.normpath(posixpath.join(posixpath.dirname(hashed), target))
            assert resolved in hashed_names, (name, target)
            assert (tmp_path / resolved).exists()
            checked += 1
    assert checked > 50          # main.js alone imports two dozen modules


def _imports_of(module: str) -> set[str]:
    """Every module ``module`` (a path under static/) imports, directly or not."""
    found, todo = set(), [module]
    while todo:
        current = todo.pop()
        for target in IMPORT.findall((ROOT / "static" / current).read_text()):
            resolved = posixpath.normpath(posixpath.join(posixpath.dirname(current), target))
            if resolved not in found:
                found.add(resolved)
                todo.append(resolved)
    return found


def test_the_table_page_preloads_every_module():
    listed = set(re.findall(r"static '(js/[^']+)'", (ROOT / "templates/lobby/_table_modules.html").read_text()))
    modules = {p.relative_to(ROOT / "static").as_posix() for p in (ROOT / "static/js/table").rglob("*.js")}
    assert modules - {"js/table/main.js"} <= listed     # main.js is the page's own module script
    assert listed == _imports_of("js/table/main.js")


CLASSIC = {"js/nav.js"}       # runs in the <head> before the first paint; a module would wait


def test_every_page_script_is_a_module():
    tags = []
    for template in sorted((ROOT / "templates").rglob("*.html")):
        tags += re.findall(r"<script\b[^>]*\bsrc=[^>]*>", template.read_text())
    assert len(tags) > 10
    for tag in tags:
        script = re.search(r"static '([^']+)'", tag).group(1)
        assert ('type="module"' in tag) == (script not in CLASSIC), tag


# Helpers that live once, in static/js/lib/: a page script imports them rather than writing its own.
SHARED = {
    "el": re.compile(r"function el\(|\bel\s*=\s*(?:function|\()"),
    "fmt": re.compile(r"replace\(/\\\{\(\\w\+\)\\\}/g"),
    "reconnect-with-backoff": re.compile(r"Math\.pow\(2|\*\s*2\s*,\s*\d{4,}\)"),
    "the seat renderer": re.compile(r"replay-(?:slot|hand|name)\b"),
    "the card's text": re.compile(r"rankLabel\([^)]*\)\s*\+\s*[\w.]*SUIT"),
}


def test_the_shared_helpers_are_written_once():
    written = {name: [] for name in SHARED}
    for path in sorted((ROOT / "static/js").rglob("*.js")):
        for name, pattern in SHARED.items():
            if pattern.search(path.read_text()):
                written[name].append(path.relative_to(ROOT / "static/js").as_posix())
    assert all(len(places) == 1 and places[0].startswith("lib/") for places in written.values()), written
