"""A real site by default: DEBUG off unless asked for, friendly error pages in the visitor's language,
and `check --deploy` clean for the production settings (HTTPS=1, a secret key, real hosts)."""
import os
import secrets
import subprocess
import sys

import pytest
from django.test import RequestFactory
from django.utils import translation
from django.views.defaults import server_error

from tests.embedded import ROOT


def _clean_env(**env: str) -> dict:
    clean = {k: v for k, v in os.environ.items()
             if k not in ("DEBUG", "SECRET_KEY", "DATABASE_URL", "REDIS_URL", "HTTPS")}
    clean.update({"DJANGO_SETTINGS_MODULE": "config.settings"}, **env)
    return clean


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=_clean_env(**env),
                          capture_output=True, text=True)


def _setting(expression: str, **env: str) -> str:
    """``expression`` of the production settings read in a process started with ``env``: the
    settings module alone, not a manage.py shell that loads every app (a second of CPU each)."""
    code = f"from django.conf import settings; print({expression})"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=_clean_env(**env),
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()[-1]


def test_debug_is_off_unless_asked_for():
    assert _setting("settings.DEBUG") == "False"
    assert _setting("settings.DEBUG", DEBUG="1") == "True"


def test_deploy_check_is_clean_for_production_settings():
    out = _manage("check", "--deploy", "--fail-level", "WARNING", HTTPS="1",
                  SECRET_KEY=secrets.token_urlsafe(50), ALLOWED_HOSTS="cards.example.com")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "no issues" in out.stdout


def test_scaled_mode_refuses_to_start_without_a_secret_key():
    out = _manage("check", DATABASE_URL="postgres://nobody@127.0.0.1:1/none")
    assert out.returncode != 0
    assert "SECRET_KEY must be set" in out.stderr


@pytest.mark.django_db
@pytest.mark.parametrize("language, heading", [("en", "Page not found"), ("pl", "Nie ma takiej strony"),
                                               ("bg", "Няма такава страница"), ("de", "Seite nicht gefunden")])
def test_missing_page_is_a_friendly_404_in_the_visitors_language(client, language, heading):
    response = client.get("/no-such-page/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 404
    body = response.content.decode()
    assert heading in body
    assert "Traceback" not in body and "SECRET_KEY" not in body


@pytest.mark.django_db
@pytest.mark.parametrize("language, heading", [("en", "Something went wrong"), ("pl", "Coś poszło nie tak"),
                                               ("bg", "Нещо се обърка"), ("de", "Etwas ist schiefgegangen")])
def test_server_error_page_stands_alone_in_the_visitors_language(language, heading):
    request = RequestFactory().get("/")
    with translation.override(language):
        response = server_error(request)
    body = response.content.decode()
    assert response.status_code == 500
    assert heading in body
    assert f'lang="{language}"' in body


def test_sites_on_two_redis_database_numbers_do_not_hear_each_others_channels():
    """Redis pub/sub channels are server-wide: the channel layer's prefix follows the database
    number, as the cache's keys and Celery's queues already do by living in that database."""
    prefixes = [_setting("settings.CHANNEL_LAYERS['default']['CONFIG']['prefix']", DEBUG="1", REDIS_URL=url)
                for url in ("redis://127.0.0.1:6379/12", "redis://127.0.0.1:6379/13", "redis://127.0.0.1:6379")]
    assert prefixes == ["cards12", "cards13", "cards0"]
