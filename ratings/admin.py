from django.contrib import admin

from .models import MatchPlayer, Rating, RatingChange


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ("user", "game", "variant", "display", "games", "wins", "updated")
    list_filter = ("game", "variant")
    search_fields = ("user__username",)
    raw_id_fields = ("user",)


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = ("match", "user", "game", "variant", "display_before", "display_after", "created_at")
    list_filter = ("game", "variant")
    search_fields = ("user__username",)
    raw_id_fields = ("match", "user")


@admin.register(MatchPlayer)
class MatchPlayerAdmin(admin.ModelAdmin):
    list_display = ("match", "seat", "name", "rank", "result", "score", "game", "variant", "rated", "finished_at")
    list_filter = ("game", "variant", "rated", "result")
    search_fields = ("name",)
    raw_id_fields = ("match", "user")
