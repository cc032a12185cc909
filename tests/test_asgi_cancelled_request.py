"""A request cancelled while a sync middleware still runs it must not freeze the server's loop.

Django runs a sync-only middleware (WhiteNoise's) in a thread and the async rest of the chain back
on the event loop. asgiref before 3.12 ended such a request, once its task was cancelled twice
(one cancel waits for the thread; a second stops that wait), by joining the thread on the loop
while the thread waited for the loop: a browser run's embedded site stopped for good (its loop
watch's stacks; asgiref #535). This runs one such request in a process of its own, as a frozen
loop would hang the test's; with asgiref 3.9.2 it never ends."""
import subprocess
import sys

from tests.embedded import ROOT

A_REQUEST_CANCELLED_TWICE_IN_ITS_SYNC_MIDDLEWARE = """
import asyncio, time
import django
from django.conf import settings
settings.configure(ROOT_URLCONF=__name__, MIDDLEWARE=[__name__ + ".sync_only"], ALLOWED_HOSTS=["*"])
django.setup()
from django.core.asgi import get_asgi_application
from django.http import HttpResponse
from django.urls import path

def sync_only(get_response):
    def middleware(request):
        time.sleep(0.3)                        # the request is cancelled meanwhile, twice
        return get_response(request)           # the async view, back on the loop
    return middleware

async def view(request):
    return HttpResponse("ok")

urlpatterns = [path("", view)]

async def main():
    async def receive():
        await asyncio.sleep(10)
        return {"type": "http.disconnect"}
    async def send(message):
        pass
    scope = {"type": "http", "method": "GET", "path": "/", "query_string": b"", "headers": [],
             "asgi": {"version": "3.0"}}
    first = [{"type": "http.request", "body": b"", "more_body": False}]
    async def receive_first():
        return first.pop() if first else await receive()
    task = asyncio.create_task(get_asgi_application()(scope, receive_first, send))
    await asyncio.sleep(0.05); task.cancel()
    await asyncio.sleep(0.05); task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        pass
    await asyncio.sleep(0.5)                   # the loop comes round again

asyncio.run(main())
print("the loop came round")
"""


def test_a_request_cancelled_during_a_sync_middleware_leaves_the_loop_running():
    try:
        run = subprocess.run([sys.executable, "-c", A_REQUEST_CANCELLED_TWICE_IN_ITS_SYNC_MIDDLEWARE],
                             cwd=ROOT, capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        raise AssertionError("the event loop froze: the request's thread was joined on it") from None
    assert run.stdout.strip() == "the loop came round", run.stderr
