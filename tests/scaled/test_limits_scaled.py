"""The limits on abuse hold across web processes: two Daphnes on PostgreSQL + Redis count the same
failed logins (django-axes, in the database) and the same guests per address (django-ratelimit, in
the Redis cache); requests alternate between them until the limit, which neither would reach
alone."""
import http.client
import re
import socket
import time
from http.cookies import SimpleCookie
from urllib.parse import urlencode

import pytest

from tests.scaled.test_scaled import BIN, ROOT, Procs, _free_port, manage_shell, scaled_env

pytestmark = pytest.mark.scaled

DB = "cards_limits_test"


def _wait_for(port, timeout=30):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"daphne on {port} did not come up")


class Browser:
    """One visitor's cookies; requests to any of the processes, redirects not followed."""

    def __init__(self):
        self.cookies: dict[str, str] = {}

    def request(self, port, method, path, form=None):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        body = None
        if form is not None:
            body = urlencode(dict(form, csrfmiddlewaretoken=self.cookies.get("csrftoken", "")))
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        conn.request(method, path, body=body, headers=headers)
        r = conn.getresponse()
        text = r.read().decode()
        for value in r.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(value).items():
                self.cookies[name] = morsel.value
        conn.close()
        return r.status, text

    def post(self, port, path, form):
        if "csrftoken" not in self.cookies:
            self.request(port, "GET", "/accounts/login/")
        return self.request(port, "POST", path, form)


def test_it_counts_logins_and_guests_across_two_daphnes():
    env = scaled_env(DB, LOGIN_FAILURE_LIMIT="4", LOGIN_COOLOFF_MINUTES="15", GUEST_RATE="3/d")
    manage_shell(env, "import json; from accounts.models import User; "
                      "User.objects.create_user(username='ala', password='a-Secret-123'); print(json.dumps(1))")
    (ROOT / "test-artifacts").mkdir(exist_ok=True)
    ports = [_free_port(), _free_port()]
    procs = Procs(env)
    try:
        for n, port in enumerate(ports):
            procs.start(f"limits-daphne{n}", BIN / "daphne", "-b", "127.0.0.1", "-p", port, "config.asgi:application")
        for port in ports:
            _wait_for(port)

        # Failed logins, alternately on each process: the 4th failure locks out, though each
        # process saw only two.
        visitor = Browser()
        answers = [visitor.post(ports[n % 2], "/accounts/login/", {"username": "ala", "password": "wrong"})
                   for n in range(4)]
        assert [status for status, _ in answers] == [200, 200, 200, 429]
        assert "correct username and password" in answers[0][1]
        assert "Too many failed logins" in answers[3][1] and "Please try again in 15 minutes." in answers[3][1]
        for port in ports:              # locked on both, even with the right password
            status, page = Browser().post(port, "/accounts/login/", {"username": "ala", "password": "a-Secret-123"})
            assert status == 429 and "Too many failed logins" in page

        # Guests from one address, alternately on each process: the 4th is refused.
        made = [Browser().post(ports[n % 2], "/accounts/guest/", {"next": "/"}) for n in range(4)]
        assert [status for status, _ in made] == [302, 302, 302, 429], [p[-300:] for _, p in made]
        assert "Too many guest accounts were made from your address lately." in made[3][1]
        guests = manage_shell(env, "import json; from accounts.models import User; "
                                   "print(json.dumps(User.objects.filter(is_guest=True).count()))")
        assert guests == 3
    finally:
        procs.stop_all()
