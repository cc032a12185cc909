from django.contrib import admin

from .forms import TournamentForm
from .models import Entry, Game, Round, Tournament


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    fields = ("user", "withdrawn", "seed_rating", "final_rank")
    readonly_fields = ("seed_rating", "final_rank")
    raw_id_fields = ("user",)


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    can_delete = False
    fields = ("number", "status", "started_at", "finished_at")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False   # rounds are made by the tournament itself


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    form = TournamentForm
    list_display = ("name", "game", "variant", "format", "starts_at", "status", "current_round")
    list_filter = ("status", "game", "format")
    readonly_fields = ("status", "cancel_reason", "current_round", "next_round_at", "started_at",
                       "finished_at", "version")
    inlines = [EntryInline, RoundInline]

    def save_model(self, request, obj, form, change):
        if not change and obj.created_by_id is None:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)


class GameInline(admin.TabularInline):
    model = Game
    extra = 0
    can_delete = False
    fields = ("board", "table", "players", "bye", "result")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("tournament", "number", "status", "started_at", "finished_at")
    readonly_fields = ("tournament", "number", "status", "started_at", "finished_at")
    inlines = [GameInline]
