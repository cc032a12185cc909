"""Browser tests: a real Daphne (embedded Celery worker, bots without delay) on a throw-away SQLite
database, driven by Debian's chromium through Playwright's sync API.

pytest-django's live_server speaks no websockets, so the server is a subprocess; a test that needs
the server-side truth (which cards are hidden) asks it through ``server.state(table_id)``, and a
test that needs a chosen deal starts its table with ``server.scenario(spec)`` (tests/browser/scenarios.py).
Other data (a user the register form would refuse) comes from ``server.shell(code)``, which runs
``manage.py shell -c code`` against the server's database and returns the output's last line.
"""
import json
import os
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.embedded import embedded_site
from tests.services import per_worker, require

ARTIFACTS = Path(__file__).parent / "artifacts"
SERVER_LOGS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
# Screenshots for people to look at (tests/browser/artifacts/), not for any assertion: taken when
# SCREENSHOTS=1. A full-page PNG is chromium's most costly step of many tests (0.6 s of CPU for a
# long page), and a test run whose screenshots nobody opens should not pay for them.
SCREENSHOTS = os.environ.get("SCREENSHOTS", "") not in ("", "0")

STATE_SCRIPT = """
import json
from games import loading, services
live = loading.load({table_id})
st = live.state
print(json.dumps({{
    "status": live.table.status,
    "hands": [st.view(s)["hand"] for s in range(len(live.seats))] if st is not None else [],
    "to_act": list(st.seats_to_act()) if st is not None else [],
}}))
"""


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    require(Path(CHROMIUM).exists(), "Debian's chromium is not installed (apt-get install chromium)")
    pytest.importorskip("playwright.sync_api")
    with embedded_site(tmp_path_factory.mktemp("browser")) as site:

        def state(table_id: int) -> dict:
            return json.loads(site.shell(STATE_SCRIPT.format(table_id=int(table_id))))

        def scenario(spec: dict) -> int:
            """A started table whose deal comes from ``spec`` (see tests/browser/scenarios.py)."""
            out = site.shell("import os; from tests.browser.scenarios import main; "
                             "main(os.environ['SCENARIO_SPEC'])", {"SCENARIO_SPEC": json.dumps(spec)})
            return json.loads(out)["table_id"]

        try:
            yield SimpleNamespace(url=site.url, state=state, scenario=scenario, log=site.log, shell=site.shell)
        finally:
            # Kept where a failed run's other logs are: a stalled loop writes its stacks here
            # (games/web_process/loop_watch.py).
            SERVER_LOGS.mkdir(exist_ok=True)
            shutil.copy(site.log, SERVER_LOGS / per_worker("browser-server.log"))


@pytest.fixture(scope="session")
def browser(server):
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def new_page(browser, request):
    """``new_page(width=1280, height=860, locale=None)``: a page in a fresh context (own cookies);
    a locale such as "de-AT" is the browser's language (its Accept-Language).

    Its browser asks for reduced motion unless the test is marked ``motion``: the table then shows
    each change at once (static/js/table/fx.js), as it does for a player who asks for it. A moving
    table holds each finished trick for over a second and draws every flight in software, about
    half of a browser journey's time and of chromium's CPU (docs/TESTING.md). The tests of how the
    table moves, and one whole match, are marked ``motion`` and move as a player's page does."""
    contexts = []
    motion = "no-preference" if request.node.get_closest_marker("motion") else "reduce"

    def make(width: int = 1280, height: int = 860, locale: str | None = None):
        ctx = browser.new_context(viewport={"width": width, "height": height}, reduced_motion=motion,
                                  **({"locale": locale} if locale else {}))
        ctx.set_default_timeout(15000)
        contexts.append(ctx)
        page = ctx.new_page()
        if not SCREENSHOTS:
            page.screenshot = _artifacts_skipped(page.screenshot)
        page.js_errors = []
        page.on("pageerror", lambda exc: page.js_errors.append(str(exc)))
        return page

    yield make
    for ctx in contexts:
        ctx.close()


def _artifacts_skipped(screenshot):
    """``page.screenshot`` that takes none for tests/browser/artifacts/ (returns no bytes)."""
    def maybe(*args, path=None, **kwargs):
        if path is not None and Path(path).resolve().is_relative_to(ARTIFACTS.resolve()):
            return b""
        return screenshot(*args, path=path, **kwargs)
    return maybe


@pytest.fixture(scope="session")
def artifacts():
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
