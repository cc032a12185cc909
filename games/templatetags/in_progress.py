"""``{% game_in_progress as url %}``: the link to the viewer's match in progress (none on that
table's own page)."""
from django import template

from games import in_progress

register = template.Library()


@register.simple_tag(takes_context=True)
def game_in_progress(context) -> str | None:
    request = context.get("request")
    if request is None:
        return None
    url = in_progress.link(getattr(request, "user", None))
    return None if url is None or request.path == url else url
