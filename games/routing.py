from django.urls import path

from . import consumers

websocket_urlpatterns = [
    path("ws/table/<int:table_id>/", consumers.TableConsumer.as_asgi()),
    path("ws/lobby/<str:game>/", consumers.LobbyConsumer.as_asgi()),
]
