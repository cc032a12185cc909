from django.contrib import admin

from .models import ChatMessage, Deal, Match, Seat, Table


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "variant", "rated", "private", "status", "owner", "version", "created_at")
    list_filter = ("game", "status", "rated", "private")
    inlines = [SeatInline]


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("id", "table", "finished", "ended_by", "started_at", "finished_at")


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
    list_display = ("id", "match", "number", "finished")


@admin.register(ChatMessage)
class ChatAdmin(admin.ModelAdmin):
    list_display = ("table", "name", "text", "created_at")
