from django.urls import path

from . import views

urlpatterns = [
    path("leaderboard/", views.leaderboard, name="leaderboard_home"),
    path("leaderboard/<str:game>/<str:variant>/", views.leaderboard, name="leaderboard"),
    path("leaderboard/bots/<str:game>/<str:variant>/", views.leaderboard, {"bots": True}, name="bot_leaderboard"),
    path("ratings/help/", views.rules_help, name="ratings_help"),
    path("history/", views.my_history, name="my_history"),
    path("players/<str:username>/matches/", views.history, name="history"),
    path("match/<int:match_id>/", views.match, name="match"),
    path("match/<int:match_id>/match.jsonl", views.download_match, name="download_match"),
    path("match/<int:match_id>/verify/", views.verify_match, name="verify_match"),
    path("match/<int:match_id>/deal/<int:number>/", views.replay, name="replay"),
    path("match/<int:match_id>/deal/<int:number>/record.json", views.download_deal, name="download_deal"),
    path("replay/upload/", views.upload, name="upload_record"),
]
