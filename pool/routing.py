from django.urls import path

from . import consumers

websocket_urlpatterns = [
    path("ws/pool/", consumers.PoolConsumer.as_asgi()),
]
