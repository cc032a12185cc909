from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("play/<str:game>/", views.lobby, name="lobby"),
    path("play/<str:game>/new/", views.create_table, name="create_table"),
    path("table/<int:table_id>/", views.table, name="table"),
]
