from django import template

from ..forms import ReportForm
from ..models import Mute

register = template.Library()


@register.inclusion_tag("moderation/_profile_actions.html", takes_context=True)
def moderation_actions(context, person):
    """A profile's Mute/Unmute and Report buttons for the visitor (nothing for a bot or an
    anonymous visitor); on one's own profile, the link to the muted players."""
    user = context["request"].user
    own = user.is_authenticated and user.pk == person.pk
    can_act = user.is_authenticated and not own and not person.is_bot
    return {
        "person": person, "own": own, "can_act": can_act,
        "is_muted": can_act and Mute.objects.filter(muter=user, muted=person).exists(),
        "muted_count": Mute.objects.filter(muter=user).count() if own else 0,
        "form": ReportForm() if can_act else None,
        "next": context["request"].get_full_path(),
    }
