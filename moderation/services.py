"""The only writer of mutes and reports. Refusals are ``realtime.errors.ServiceError``s with a reason
for the player, as the table socket answers them (docs/PROTOCOL.md "Mute and report").

A change of a user's mutes is announced, on commit, to his own group (``mutes.user_group``),
which every table socket of his joins (moderation/sockets.py), on whichever process: each reloads his mutes, so the muted
player's chat stops reaching all of them at once.
"""
from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from realtime import broadcast
from realtime.errors import ServiceError
from games.models import ChatMessage, Deal, Table

from .models import Mute, Report
from .mutes import user_group

REPORT_TEXT_MAX = 1000
CHAT_EVIDENCE = 100         # chat lines copied into a report
DAY = timedelta(days=1)


def reports_per_day() -> int:
    """How many reports a user may send in 24 hours (the setting ``REPORTS_PER_DAY``, default 10)."""
    return getattr(settings, "REPORTS_PER_DAY", 10)


def _player(user, name, *, verb: str):
    """The player called ``name`` whom ``user`` may mute or report (``verb``), or a refusal."""
    if user is None or not user.is_authenticated:
        raise ServiceError("forbidden", _("Log in or play as a guest first."))
    if not isinstance(name, str) or not name.strip():
        raise ServiceError("bad_request", _("Which player? The message needs a name."))
    name = name.strip()
    target = get_user_model().objects.filter(username=name).first()
    if target is not None and target.pk == user.pk:
        raise ServiceError("bad_request", _("You cannot mute yourself.") if verb == "mute"
                           else _("You cannot report yourself."))
    if (target is not None and target.is_bot) or name.startswith("bot:"):   # a bot seat's name
        raise ServiceError("bad_request", _("Bots do not chat: there is nothing to mute.") if verb == "mute"
                           else _("Bots cannot be reported."))
    if target is None:
        raise ServiceError("not_found", _("There is no player called %(name)s.") % {"name": name})
    return target


def _announce(user) -> None:
    """On commit, every socket of ``user`` reloads his mutes (moderation/sockets.py ``Mutes``)."""
    uid = user.pk
    broadcast.send_on_commit(lambda: [(user_group(uid), {"type": "user.mutes"})])


def mute(user, name) -> Mute:
    """Mute the player called ``name`` for ``user``: his chat no longer reaches ``user`` at any
    table. Muting him again changes nothing."""
    target = _player(user, name, verb="mute")
    with transaction.atomic():
        found, _created = Mute.objects.get_or_create(muter=user, muted=target)
        _announce(user)     # also when nothing changed: the asking socket gets its answer
    return found


def unmute(user, name) -> None:
    """Show the chat of the player called ``name`` to ``user`` again (nothing if not muted)."""
    target = _player(user, name, verb="mute")
    with transaction.atomic():
        Mute.objects.filter(muter=user, muted=target).delete()
        _announce(user)


def report(user, name, reason, text="", table_id: int | None = None) -> Report:
    """Report the player called ``name`` (``reason``: one of Report.Reason; ``text``: optional
    words), from a table (``table_id``: its chat and deal records are kept with the report) or
    from the player's profile (none: his last chat lines anywhere are kept). A user sends at most
    ``reports_per_day()`` reports in 24 hours, and one open report per player and table."""
    target = _player(user, name, verb="report")
    if reason not in Report.Reason.values:
        raise ServiceError("bad_request", _("Choose a reason: abuse, cheating, spam or other."))
    if text is None:
        text = ""
    if not isinstance(text, str) or len(text) > REPORT_TEXT_MAX:
        raise ServiceError("bad_request", _("A report's text has at most %(n)d characters.") % {"n": REPORT_TEXT_MAX})
    table = None
    if table_id is not None:
        table = Table.objects.filter(pk=table_id).first()
        if table is None:
            raise ServiceError("not_found", _("There is no such table."))
    now = timezone.now()
    with transaction.atomic():
        recent = list(Report.objects.filter(reporter=user, created__gt=now - DAY)
                      .order_by("created").values_list("created", flat=True))
        if len(recent) >= reports_per_day():
            wait = max(1, int((recent[0] + DAY - now).total_seconds()) + 1)
            raise ServiceError("rate_limited", _("You have sent %(n)d reports today: the limit. "
                                                 "Please try again later.") % {"n": len(recent)},
                               params={"retry_after": wait})
        if Report.objects.filter(reporter=user, reported=target, table=table,
                                 status=Report.Status.OPEN).exists():
            raise ServiceError("already_reported", _("You have already reported %(name)s here; "
                                                     "the moderators will look at it.") % {"name": target.username},
                               category="bad_request")
        return Report.objects.create(reporter=user, reported=target, table=table, reason=reason,
                                     text=text.strip(), chat=_chat_evidence(table, target),
                                     records=_records(table))


def close(reports) -> int:
    """Close open reports (the admin's action); returns how many were closed."""
    return reports.filter(status=Report.Status.OPEN).update(status=Report.Status.CLOSED, closed_at=timezone.now())


def reopen(reports) -> int:
    return reports.filter(status=Report.Status.CLOSED).update(status=Report.Status.OPEN, closed_at=None)


# --- evidence --------------------------------------------------------------------------------------
def _chat_evidence(table, target) -> list[dict]:
    lines = ChatMessage.objects.filter(table=table) if table is not None else ChatMessage.objects.filter(user=target)
    rows = reversed(lines.order_by("-id")[:CHAT_EVIDENCE])
    return [{"id": c.pk, "table": c.table_id, "user_id": c.user_id, "from": c.name, "text": c.text,
             "at": c.created_at.isoformat()} for c in rows]


def _records(table) -> list[dict]:
    if table is None:
        return []
    return [{"number": d.number, "finished": d.finished, "result": d.result, "record": d.record}
            for d in Deal.objects.filter(match__table=table).order_by("number")]
