"""Reports land here: filters by status, reason and date; the table's chat and deal records as
they were when the report was sent, read-only and formatted; actions to close (and reopen)."""
import json

from django.contrib import admin, messages
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _, ngettext

from . import services
from .models import Mute, Report


@admin.register(Mute)
class MuteAdmin(admin.ModelAdmin):
    list_display = ("muter", "muted", "created")
    search_fields = ("muter__username", "muted__username")
    list_select_related = ("muter", "muted")
    raw_id_fields = ("muter", "muted")


def _compact(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ("id", "created", "reported", "reporter", "reason", "status", "table", "short_text")
    list_display_links = ("id", "created")
    list_filter = ("status", "reason", "created")
    search_fields = ("reported__username", "reporter__username", "text")
    list_select_related = ("reported", "reporter", "table")
    date_hierarchy = "created"
    actions = ["close_reports", "reopen_reports"]
    fieldsets = (
        (None, {"fields": ("status", "closed_at", "reported", "reporter", "table_link", "reason", "text", "created")}),
        (_("Chat at the time of the report"), {"fields": ("chat_log",)}),
        (_("Deal records at the time of the report"), {"fields": ("deal_records",)}),
    )
    readonly_fields = ("closed_at", "reported", "reporter", "table_link", "reason", "text", "created",
                       "chat_log", "deal_records")

    class Media:
        css = {"all": ["moderation/admin.css"]}

    def has_add_permission(self, request):
        return False        # reports come from players (moderation/services.py)

    def save_model(self, request, obj, form, change):
        """Only the status is editable here: through the services, which keep ``closed_at``."""
        if "status" in form.changed_data:
            rows = Report.objects.filter(pk=obj.pk)
            if obj.status == Report.Status.CLOSED:
                services.close(rows)
            else:
                services.reopen(rows)

    @admin.display(description=_("text"))
    def short_text(self, obj):
        return obj.text if len(obj.text) <= 60 else obj.text[:59] + "…"

    @admin.display(description=_("table"))
    def table_link(self, obj):
        if obj.table_id is None:
            return _("none (sent from the player's profile: the chat is their last lines anywhere)")
        return format_html('<a href="{}">{}</a> · <a href="{}">{}</a>',
                           reverse("admin:games_table_change", args=[obj.table_id]), obj.table,
                           reverse("table", args=[obj.table_id]), _("open the table"))

    @admin.display(description=_("chat"))
    def chat_log(self, obj):
        if not obj.chat:
            return _("No chat.")
        reported = obj.reported_id
        rows = format_html_join(
            "", '<tr class="{}"><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>',
            (("by-reported" if line.get("user_id") == reported and reported else "",
              (line.get("at") or "")[:19].replace("T", " "), line.get("table") or "",
              line.get("from", ""), line.get("text", "")) for line in obj.chat))
        return format_html('<table class="report-chat"><thead><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th>'
                           '</tr></thead><tbody>{}</tbody></table>',
                           _("time (UTC)"), _("table"), _("from"), _("text"), rows)

    @admin.display(description=_("deal records"))
    def deal_records(self, obj):
        if not obj.records:
            return _("No deal records.")
        return format_html_join("", "{}", ((self._deal(d),) for d in obj.records))

    def _deal(self, deal: dict):
        record = deal.get("record") or {}
        players = record.get("players") or []

        def who(seat):
            return f"{seat} {players[seat]}" if isinstance(seat, int) and 0 <= seat < len(players) else str(seat)

        header = [(_("players"), ", ".join(str(p) for p in players)), (_("dealer"), who(record.get("dealer")))]
        header += [(_("hand of %(seat)s") % {"seat": who(i)}, " ".join(hand))
                   for i, hand in enumerate(record.get("hands") or [])]
        header += [(key, _compact(record[key])) for key in ("trump_card", "stock", "scores_before", "bags_before")
                   if key in record]
        actions = format_html_join("", "<li>{}: {}</li>", (
            (who(a.get("seat")), " ".join([str(a.get("type", ""))] + [
                f"{k}={_compact(v) if not isinstance(v, str) else v}" for k, v in a.items() if k not in ("seat", "type")]))
            for a in record.get("actions") or []))
        state = _("finished") if deal.get("finished") else _("in progress")
        return format_html(
            '<details class="report-deal" open><summary>{} {} ({})</summary><dl>{}</dl>'
            '<ol start="0" class="report-actions">{}</ol><p>{}: <code>{}</code></p>'
            '<details><summary>{}</summary><pre>{}</pre></details></details>',
            _("Deal"), deal.get("number"), state,
            format_html_join("", "<dt>{}</dt><dd>{}</dd>", header), actions,
            _("result"), _compact(deal.get("result")), _("raw JSON"), json.dumps(record, indent=1, ensure_ascii=False))

    @admin.action(description=_("Close the selected reports"))
    def close_reports(self, request, queryset):
        n = services.close(queryset)
        self.message_user(request, ngettext("%(n)d report closed.", "%(n)d reports closed.", n) % {"n": n},
                          messages.SUCCESS)

    @admin.action(description=_("Reopen the selected reports"))
    def reopen_reports(self, request, queryset):
        n = services.reopen(queryset)
        self.message_user(request, ngettext("%(n)d report reopened.", "%(n)d reports reopened.", n) % {"n": n},
                          messages.SUCCESS)
