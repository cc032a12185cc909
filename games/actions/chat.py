"""A table's chat: a message checked, stored and sent on commit (not a versioned change)."""
from __future__ import annotations

from django.utils.translation import gettext as _

from games import chat_text, limits, messages
from realtime import broadcast
from realtime.errors import ServiceError
from games.models import ChatMessage, Table


def chat(table_id: int, user, text) -> dict:
    if user is None or not user.is_authenticated:
        raise ServiceError("forbidden", _("Log in or play as a guest to chat."))
    if isinstance(text, str):
        text = chat_text.clean(text)     # no control or bidi-override characters
    if not isinstance(text, str) or not text or len(text) > 500:
        raise ServiceError("bad_request", _("A chat message has 1 to 500 characters."))
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise ServiceError("not_found", _("There is no such table."))
    limits.check_chat(user, text)       # per user, in the shared cache: rate and repeated words
    msg = ChatMessage.objects.create(table=table, user=user, name=user.display_name, text=text)
    game = table.game
    broadcast.send_on_commit(lambda: messages.chat_messages(table_id, game, msg))
    return msg.as_json()
