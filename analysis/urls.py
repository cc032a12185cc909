from django.urls import path

from . import views

urlpatterns = [
    path("match/<int:match_id>/analysis.json", views.status, name="analysis_status"),
]
