from django.urls import path

from . import views

urlpatterns = [
    path("u/<str:username>/mute/", views.mute, name="mute"),
    path("u/<str:username>/unmute/", views.unmute, name="unmute"),
    path("u/<str:username>/report/", views.report, name="report_player"),
    path("muted/", views.muted, name="muted_players"),
]
