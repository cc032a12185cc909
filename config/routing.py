"""The ASGI application without side effects (tests import this one)."""
from channels.auth import AuthMiddlewareStack
from channels.routing import ProtocolTypeRouter, URLRouter
from channels.security.websocket import AllowedHostsOriginValidator
from django.core.asgi import get_asgi_application
from django.urls import re_path

http = get_asgi_application()  # sets Django up before the consumers are imported

from botapi.auth import BearerTokenMiddleware  # noqa: E402
from botapi.routing import websocket_urlpatterns as botapi_ws  # noqa: E402
from games.routing import websocket_urlpatterns as games_ws  # noqa: E402
from games.pings import AnswerPings  # noqa: E402
from realtime.socket_guard import NoRouteConsumer, SocketSlots  # noqa: E402
from ops.context import HttpContext, SocketContext  # noqa: E402
from ops.probes import Probes  # noqa: E402
from pool.routing import websocket_urlpatterns as pool_ws  # noqa: E402
from tournaments.routing import websocket_urlpatterns as tournaments_ws  # noqa: E402

# Last, every other path: closed with 4404 (an unmatched path would raise in the router: a 500
# and a traceback per request).
websocket_urlpatterns = games_ws + pool_ws + tournaments_ws + botapi_ws + [re_path(r"", NoRouteConsumer.as_asgi())]

application = ProtocolTypeRouter({
    # /healthz, /readyz and /metrics are answered before Django (ops/probes.py); every other
    # request is given its request id and table for the log lines (ops/context.py).
    "http": Probes(HttpContext(http)),
    # A handshake with "Authorization: Bearer <token>" is a bot's (botapi/auth.py, docs/BOTS.md);
    # every other one goes through the browser stack unchanged. Either way, once its user is
    # known, a socket takes its address's and its account's slots (realtime/socket_guard.py).
    # The heartbeat's pings are answered before all that (games/pings.py).
    "websocket": AnswerPings(BearerTokenMiddleware(
        bots=SocketContext(SocketSlots(URLRouter(websocket_urlpatterns))),
        browsers=AllowedHostsOriginValidator(AuthMiddlewareStack(SocketContext(SocketSlots(URLRouter(websocket_urlpatterns))))))),
})
