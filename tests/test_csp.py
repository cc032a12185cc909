"""The Content-Security-Policy header (django-csp, config/csp.py) is on every page, the admin's and
the error pages included, and the templates and scripts hold nothing it would refuse (inline
handlers, inline code, style attributes, eval). tests/browser/test_csp.py checks it in Chromium."""
import re

import pytest

from tests.embedded import ROOT

POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}


def directives(response) -> dict[str, list[str]]:
    header = response.headers.get("Content-Security-Policy")
    assert header, f"no Content-Security-Policy on {response.status_code} {response.request['PATH_INFO']}"
    parts = [p.split() for p in header.split(";") if p.strip()]
    return {p[0]: p[1:] for p in parts}


@pytest.mark.django_db
@pytest.mark.parametrize("path, status", [
    ("/", 200), ("/play/sixtysix/", 200), ("/rules/hearts/", 200), ("/tournaments/", 200),
    ("/leaderboard/", 302), ("/accounts/login/", 200), ("/accounts/register/", 200),
    ("/admin/login/", 200), ("/admin/", 302), ("/no-such-page/", 404),
])
def test_every_page_carries_the_policy(client, path, status):
    response = client.get(path)
    assert response.status_code == status
    got = directives(response)
    for name, sources in POLICY.items():
        assert got.get(name) == sources, (name, got)
    assert got["connect-src"] == ["'self'", "ws://testserver"]
    assert "'unsafe-inline'" not in response.headers["Content-Security-Policy"]
    assert "'unsafe-eval'" not in response.headers["Content-Security-Policy"]


@pytest.mark.django_db
def test_the_websocket_origin_follows_the_request(client):
    assert directives(client.get("/", secure=True))["connect-src"] == ["'self'", "wss://testserver"]
    assert directives(client.get("/", HTTP_HOST="localhost:8000"))["connect-src"] == ["'self'", "ws://localhost:8000"]


@pytest.mark.django_db
def test_a_refused_host_is_answered_without_naming_it(client):
    response = client.get("/", HTTP_HOST="evil.example.com")
    assert response.status_code == 400
    assert directives(response)["connect-src"] == ["'self'"]


# What the policy refuses, as it would be written in a template or a script.
INLINE_HANDLER = re.compile(r"<[a-z][^>]*\son[a-z]+\s*=", re.I | re.S)
STYLE_ATTRIBUTE = re.compile(r"<[a-z][^>]*\sstyle\s*=", re.I | re.S)
SCRIPT_TAG = re.compile(r"<script\b([^>]*)>", re.I)
JAVASCRIPT_URL = re.compile(r"javascript:", re.I)
EVAL = re.compile(r"\beval\s*\(|\bnew\s+Function\s*\(|set(?:Timeout|Interval)\s*\(\s*[\"'`]"
                  r"|<style|\bstyle\s*=|setAttribute\(\s*[\"']style|cssText|document\.write")


def test_templates_hold_no_inline_code_or_style():
    bad = []
    for path in sorted((ROOT / "templates").rglob("*.html")):
        text = path.read_text()
        name = path.relative_to(ROOT)
        bad += [f"{name}: inline handler" for _ in INLINE_HANDLER.findall(text)]
        bad += [f"{name}: style attribute" for _ in STYLE_ATTRIBUTE.findall(text)]
        bad += [f"{name}: <style>" for _ in re.findall(r"<style\b", text, re.I)]
        bad += [f"{name}: javascript: URL" for _ in JAVASCRIPT_URL.findall(text)]
        for attrs in SCRIPT_TAG.findall(text):
            if "src=" not in attrs and 'type="application/json"' not in attrs:
                bad.append(f"{name}: inline <script{attrs}>")
    assert not bad, "\n".join(bad)


def test_scripts_use_nothing_the_policy_refuses():
    bad = []
    for path in sorted((ROOT / "static" / "js").rglob("*.js")):
        for n, line in enumerate(path.read_text().splitlines(), start=1):
            if EVAL.search(line) or JAVASCRIPT_URL.search(line):
                bad.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not bad, "\n".join(bad)
