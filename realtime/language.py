"""The language a socket speaks: its language cookie, else its browser's Accept-Language, else
the site's default. Every socket consumer (tables, lobby, tournaments, bots) and the refusals
before one (realtime/socket_guard.py) word what they send in it."""
from __future__ import annotations

from django.conf import settings
from django.utils import translation


def of_scope(scope) -> str:
    cookie = scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME)
    supported = {code for code, _name in settings.LANGUAGES}
    if cookie in supported:
        return cookie
    for name, value in scope.get("headers", ()):
        if name == b"accept-language":
            for lang, _q in translation.trans_real.parse_accept_lang_header(value.decode("latin-1")):
                if lang.split("-")[0] in supported:
                    return lang.split("-")[0]
    return settings.LANGUAGE_CODE
