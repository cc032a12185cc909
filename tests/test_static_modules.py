"""The table client's ES modules after ``collectstatic`` as a site with DEBUG off serves them
(config/static_storage.py): every ``import ... from "./x.js";`` in a collected, hashed module names
the hashed file the manifest holds for it, so a page never mixes modules of two collections."""
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
    modules = {name: hashed for name, hashed in paths.items() if name.startswith("js/table/")}
    sources = sorted(p.relative_to(ROOT / "static").as_posix() for p in (ROOT / "static/js/table").rglob("*.js"))
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


def test_the_table_page_preloads_every_module():
    listed = set(re.findall(r"static '(js/table/[^']+)'", (ROOT / "templates/lobby/_table_modules.html").read_text()))
    modules = {p.relative_to(ROOT / "static").as_posix() for p in (ROOT / "static/js/table").rglob("*.js")}
    assert listed == modules - {"js/table/main.js"}      # main.js is the page's own module script
