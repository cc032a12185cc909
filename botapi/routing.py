from django.urls import path

from . import consumers

websocket_urlpatterns = [
    path("ws/bot/", consumers.BotEventConsumer.as_asgi()),
]
