"""The language a socket's reader reads: the site's language cookie, else the browser's
Accept-Language, else the site's default (every socket answers in it: refusals, errors)."""
from __future__ import annotations

from django.conf import settings
from django.utils import translation


def language_of(scope) -> str:
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
