"""The archive's part of other apps' pages (accounts.signals.profile_shown)."""


def on_profile(sender, person, viewer, **kwargs):
    """A profile page's totals and recent matches."""
    from .views import profile_context     # the pages' module, loaded once the apps are

    return profile_context(person, viewer)
