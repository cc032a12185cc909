from django.contrib import admin

from .models import Analysis


@admin.register(Analysis)
class AnalysisAdmin(admin.ModelAdmin):
    list_display = ("match", "status", "done", "total", "cpu_seconds", "created_at", "finished_at")
    list_filter = ("status",)
    raw_id_fields = ("match",)
    exclude = ("result",)
