from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("", include("ratings.urls")),
    path("", include("games.urls")),
]
