from django.urls import path

from . import views

urlpatterns = [
    path("puzzles/", views.index, name="puzzles"),
    path("puzzles/<int:puzzle_id>/", views.puzzle, name="puzzle"),
    path("puzzles/<int:puzzle_id>/start/", views.start, name="puzzle_start"),
    path("puzzles/<int:puzzle_id>/play/", views.play, name="puzzle_play"),
]
