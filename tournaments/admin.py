from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _

from . import controls, formats
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
    fields = ("number", "status", "started_at", "finished_at", "commitment")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False   # rounds are made by the tournament itself


class FormatFilter(admin.SimpleListFilter):
    """The formats of the registry (tournaments/formats/), by their names for people."""
    title = _("format")
    parameter_name = "format"

    def lookups(self, request, model_admin):
        return formats.choices()

    def queryset(self, request, queryset):
        return queryset.filter(format=self.value()) if self.value() else queryset


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    form = TournamentForm
    list_display = ("name", "game", "variant", "format_label", "starts_at", "status", "current_round")
    list_filter = ("status", "game", FormatFilter)
    readonly_fields = ("status", "cancel_reason", "current_round", "next_round_at", "ends_at", "paused_at",
                       "started_at", "finished_at", "version")
    inlines = [EntryInline, RoundInline]
    actions = ["start_now", "add_round", "pause", "resume"]

    def _run(self, request, queryset, change, done):
        """One control per selected tournament; each refusal is shown with its reason."""
        ok = 0
        for t in queryset:
            try:
                change(t.pk, request.user)
                ok += 1
            except controls.TournamentError as err:
                self.message_user(request, f"{t.name}: {err}", messages.ERROR)
        if ok:
            self.message_user(request, done % {"n": ok}, messages.SUCCESS)

    @admin.action(description=_("Start now"))
    def start_now(self, request, queryset):
        self._run(request, queryset, controls.start_now, _("Started: %(n)s."))

    @admin.action(description=_("Add a round"))
    def add_round(self, request, queryset):
        self._run(request, queryset, controls.add_round, _("A round added to %(n)s."))

    @admin.action(description=_("Pause"))
    def pause(self, request, queryset):
        self._run(request, queryset, controls.pause, _("Paused: %(n)s."))

    @admin.action(description=_("Resume"))
    def resume(self, request, queryset):
        self._run(request, queryset, controls.resume, _("Resumed: %(n)s."))

    @admin.display(description=_("format"), ordering="format")
    def format_label(self, obj):
        return formats.of(obj).label

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
    readonly_fields = ("tournament", "number", "status", "started_at", "finished_at", "commitment")
    exclude = ("seed",)          # a duplicate round's secret until the round is over: never edited
    inlines = [GameInline]
