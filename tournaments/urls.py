from django.urls import path

from . import new_views, views

urlpatterns = [
    path("", views.tournament_list, name="tournaments"),
    path("new/", new_views.new, name="tournament_new"),
    path("new/check/", new_views.check, name="tournament_new_check"),
    path("<int:tournament_id>/", views.detail, name="tournament"),
    path("<int:tournament_id>/live/", views.live, name="tournament_live"),
    path("<int:tournament_id>/register/", views.register, name="tournament_register"),
    path("<int:tournament_id>/withdraw/", views.withdraw, name="tournament_withdraw"),
    path("<int:tournament_id>/me/", views.me, name="tournament_me"),
    path("<int:tournament_id>/<str:action>/", views.control, name="tournament_control"),
]
