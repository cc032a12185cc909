"""Browser tests: a real Daphne (embedded Celery worker, bots without delay) on a throw-away SQLite
database, driven by Debian's chromium through Playwright's sync API.

pytest-django's live_server speaks no websockets, so the server is a subprocess; a test that needs
the server-side truth (which cards are hidden) asks it through ``server.state(table_id)``, and a
test that needs a chosen deal starts its table with ``server.scenario(spec)`` (tests/browser/scenarios.py).
"""
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.services import require

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(__file__).parent / "artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]

STATE_SCRIPT = """
import json
from games import services
live = services.load({table_id})
st = live.state
print(json.dumps({{
    "status": live.table.status,
    "hands": [st.view(s)["hand"] for s in range(len(live.seats))] if st is not None else [],
    "to_act": list(st.seats_to_act()) if st is not None else [],
}}))
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for_port(port: int, proc, timeout: float = 30) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError("daphne exited early")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("daphne did not start listening")


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    require(Path(CHROMIUM).exists(), "Debian's chromium is not installed (apt-get install chromium)")
    pytest.importorskip("playwright.sync_api")
    work = tmp_path_factory.mktemp("browser")
    env = dict(os.environ)
    for key in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL"):
        env.pop(key, None)
    env.update({
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "SQLITE_PATH": str(work / "db.sqlite3"),
        "EMBEDDED_WORKER": "1",
        "BOT_DELAY_MS": "0",
        "DEAL_PAUSE_MS": "400",
        "SWEEP_SECONDS": "1",
        "DEBUG": "1",
        "LOG_LEVEL": "WARNING",
    })
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    port = _free_port()
    log = open(work / "daphne.log", "w")
    proc = subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                             "config.asgi:application"], cwd=ROOT, env=env, stdout=log,
                            stderr=subprocess.STDOUT)
    try:
        _wait_for_port(port, proc)

        def state(table_id: int) -> dict:
            out = subprocess.run([sys.executable, "manage.py", "shell", "-c",
                                  STATE_SCRIPT.format(table_id=int(table_id))],
                                 cwd=ROOT, env=env, check=True, capture_output=True, text=True)
            return json.loads(out.stdout.strip().splitlines()[-1])

        def scenario(spec: dict) -> int:
            """A started table whose deal comes from ``spec`` (see tests/browser/scenarios.py)."""
            out = subprocess.run([sys.executable, "manage.py", "shell", "-c",
                                  "import os; from tests.browser.scenarios import main; "
                                  "main(os.environ['SCENARIO_SPEC'])"],
                                 cwd=ROOT, env=dict(env, SCENARIO_SPEC=json.dumps(spec)), check=True,
                                 capture_output=True, text=True)
            return json.loads(out.stdout.strip().splitlines()[-1])["table_id"]

        yield SimpleNamespace(url=f"http://127.0.0.1:{port}", state=state, scenario=scenario,
                              log=work / "daphne.log")
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="session")
def browser(server):
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def new_page(browser):
    """``new_page(width=1280, height=860)``: a page in a fresh context (own cookies)."""
    contexts = []

    def make(width: int = 1280, height: int = 860):
        ctx = browser.new_context(viewport={"width": width, "height": height})
        ctx.set_default_timeout(15000)
        contexts.append(ctx)
        page = ctx.new_page()
        page.js_errors = []
        page.on("pageerror", lambda exc: page.js_errors.append(str(exc)))
        return page

    yield make
    for ctx in contexts:
        ctx.close()


@pytest.fixture(scope="session")
def artifacts():
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
