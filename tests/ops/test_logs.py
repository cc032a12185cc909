"""LOG_FORMAT=json: one JSON object a line with the table, user and request id (ops/logs.py,
ops/context.py, games/log_context.py); the default stays a readable line; errors are counted."""
from __future__ import annotations

import io
import json
import logging
import logging.config
import os
import subprocess
import sys

import pytest
from django.test import override_settings

from games import log_context, services
from ops import metrics
from ops.context import request_id
from ops.logs import logging_config
from tests.embedded import ROOT
from tests.ops.asgi import get


def _configure(fmt: str, stream) -> None:
    """The site's LOGGING (config/settings.py) with the given format, writing to ``stream``."""
    config = logging_config(fmt, "INFO")
    config["handlers"]["console"]["stream"] = stream
    logging.config.dictConfig(config)


@pytest.fixture
def logged():
    stream = io.StringIO()
    saved = logging.root.handlers[:], logging.root.level
    yield stream
    logging.root.handlers[:], level = saved
    logging.root.setLevel(level)


def test_a_json_line_names_the_table_the_user_and_the_request(logged):
    _configure("json", logged)
    with log_context.about_table(42):
        token_user, token_request = log_context.user_id.set(7), log_context.request_id.set("abc123")
        try:
            logging.getLogger("games.services").warning("gracz %s się spóźnia", "Łucja")
        finally:
            log_context.user_id.reset(token_user)
            log_context.request_id.reset(token_request)
    logging.getLogger("games").warning("outside")
    first, second = [json.loads(line) for line in logged.getvalue().splitlines()]
    assert first["message"] == "gracz Łucja się spóźnia"
    assert (first["table_id"], first["user_id"], first["request_id"]) == (42, 7, "abc123")
    assert first["level"] == "WARNING" and first["logger"] == "games.services"
    assert first["process_name"] and first["time"]
    assert "context" not in first
    assert (second["table_id"], second["user_id"], second["request_id"]) == (None, None, None)


def test_an_exception_is_one_json_line_with_its_traceback(logged):
    _configure("json", logged)
    try:
        raise ValueError("boom")
    except ValueError:
        logging.getLogger("games").exception("it failed")
    lines = logged.getvalue().splitlines()
    assert len(lines) == 1
    record = json.loads(lines[0])
    assert record["level"] == "ERROR" and "ValueError: boom" in record["exc_info"]


def test_the_default_stays_a_readable_line_with_the_context_appended(logged):
    _configure("text", logged)
    with log_context.about_table(5):
        logging.getLogger("games").warning("a slow move")
    logging.getLogger("games").warning("plain")
    assert logged.getvalue().splitlines() == ["a slow move [table=5]", "plain"]


def test_errors_are_counted_by_logger(logged):
    _configure("text", logged)
    before = metrics.ERRORS.labels("games.tasks")._value.get()
    logging.getLogger("games.tasks").error("lost")
    logging.getLogger("games.tasks").warning("only a warning")
    assert metrics.ERRORS.labels("games.tasks")._value.get() == before + 1


def test_a_request_id_of_the_proxy_is_kept_and_anything_else_replaced():
    assert request_id("5f0c2a9e1d") == "5f0c2a9e1d"
    assert request_id(None) != request_id(None)
    assert request_id("a b\nforged") != "a b\nforged" and len(request_id("a b\nforged")) == 32


@pytest.mark.django_db(transaction=True)
async def test_a_page_logs_its_request_id_user_and_table_even_in_djangos_own_lines(client, make_user, logged):
    from asgiref.sync import sync_to_async
    from django.conf import settings

    from config.routing import application

    _configure("json", logged)
    ala = await sync_to_async(make_user)("ala")
    table = await sync_to_async(services.create_table)(ala, "sixtysix", "kurnik")
    await sync_to_async(client.force_login)(ala)
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    answer = await get(application, f"/table/{table.pk}/nope/", headers={"X-Request-ID": "req-77", "Cookie": cookie})
    assert answer.status == 404
    lines = [json.loads(line) for line in logged.getvalue().splitlines()]
    not_found = [line for line in lines if line["logger"] == "django.request"]
    assert not_found, lines
    assert (not_found[0]["table_id"], not_found[0]["user_id"], not_found[0]["request_id"]) == (table.pk, ala.pk, "req-77")


def test_log_format_is_checked():
    env = {**os.environ, "LOG_FORMAT": "xml", "DJANGO_SETTINGS_MODULE": "config.settings"}
    done = subprocess.run([sys.executable, "-c", "import django; django.setup()"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "LOG_FORMAT is text or json" in done.stderr


def test_celery_workers_log_through_the_sites_handlers(logged):
    from config.celery import app

    _configure("json", logged)
    handlers = logging.root.handlers[:]
    app.log.setup_logging_subsystem(loglevel="INFO")
    assert logging.root.handlers == handlers
    logging.getLogger("games.tasks").warning("a task was late")
    assert json.loads(logged.getvalue().splitlines()[-1])["message"] == "a task was late"
