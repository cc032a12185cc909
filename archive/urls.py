from django.urls import path

from . import views

urlpatterns = [
    path("history/", views.my_history, name="my_history"),
    path("players/<str:username>/matches/", views.history, name="history"),
    path("match/<int:match_id>/", views.match, name="match"),
    path("match/<int:match_id>/match.jsonl", views.download_match, name="download_match"),
    path("match/<int:match_id>/verify/", views.verify_match, name="verify_match"),
    path("match/<int:match_id>/deal/<int:number>/", views.replay, name="replay"),
    path("match/<int:match_id>/deal/<int:number>/record.json", views.download_deal, name="download_deal"),
    path("replay/upload/", views.upload, name="upload_record"),
]
