from django.urls import path

from . import home, views
from . import rules_views

urlpatterns = [
    path("", home.home, name="home"),
    path("play-now/", home.play_now, name="play_now"),
    path("play/<str:game>/", views.lobby, name="lobby"),
    path("play/<str:game>/new/", views.create_table, name="create_table"),
    path("rules/<str:game>/", rules_views.rules, name="rules"),
    path("table/<int:table_id>/", views.table, name="table"),
]
