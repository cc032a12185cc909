from django.contrib import admin

from .models import Attempt, Puzzle, PuzzleRating


@admin.register(Puzzle)
class PuzzleAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "variant", "deal", "step", "seat", "rating", "attempts", "solves")
    list_filter = ("game",)
    raw_id_fields = ("deal", "match")


@admin.register(Attempt)
class AttemptAdmin(admin.ModelAdmin):
    list_display = ("id", "puzzle", "user", "status", "rated", "rating_before", "rating_after", "created_at")
    raw_id_fields = ("puzzle", "user")


@admin.register(PuzzleRating)
class PuzzleRatingAdmin(admin.ModelAdmin):
    list_display = ("user", "rating", "attempts", "solved")
    raw_id_fields = ("user",)
