from django.contrib import admin
from django.http import HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path


def favicon(request):
    """Browsers ask for /favicon.ico where a page names no icon (the admin's pages)."""
    return HttpResponsePermanentRedirect(static("img/favicon.svg"))


urlpatterns = [
    path("favicon.ico", favicon),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("accounts/", include("moderation.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("", include("botapi.urls")),
    path("", include("ratings.urls")),
    path("", include("archive.urls")),
    path("", include("analysis.urls")),
    path("", include("puzzles.urls")),
    path("", include("ops.urls")),
    path("", include("lobby.urls")),
]
