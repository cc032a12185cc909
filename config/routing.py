"""The ASGI application without side effects (tests import this one)."""
from channels.auth import AuthMiddlewareStack
from channels.routing import ProtocolTypeRouter, URLRouter
from channels.security.websocket import AllowedHostsOriginValidator
from django.core.asgi import get_asgi_application

http = get_asgi_application()  # sets Django up before the consumers are imported

from botapi.auth import BearerTokenMiddleware  # noqa: E402
from botapi.routing import websocket_urlpatterns as botapi_ws  # noqa: E402
from games.routing import websocket_urlpatterns as games_ws  # noqa: E402
from tournaments.routing import websocket_urlpatterns as tournaments_ws  # noqa: E402

websocket_urlpatterns = games_ws + tournaments_ws + botapi_ws

application = ProtocolTypeRouter({
    "http": http,
    # A handshake with "Authorization: Bearer <token>" is a bot's (botapi/auth.py, docs/BOTS.md);
    # every other one goes through the browser stack unchanged.
    "websocket": BearerTokenMiddleware(
        bots=URLRouter(websocket_urlpatterns),
        browsers=AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))),
})
