from django.urls import path

from . import views

urlpatterns = [
    path("staff/status/", views.status_page, name="ops_status"),
    path("staff/status.json", views.status_json, name="ops_status_json"),
]
