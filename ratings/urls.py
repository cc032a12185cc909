from django.urls import path

from . import views

urlpatterns = [
    path("leaderboard/", views.leaderboard, name="leaderboard_home"),
    path("leaderboard/<str:game>/<str:variant>/", views.leaderboard, name="leaderboard"),
    path("leaderboard/bots/<str:game>/<str:variant>/", views.leaderboard, {"bots": True}, name="bot_leaderboard"),
    path("ratings/help/", views.rules_help, name="ratings_help"),
]
