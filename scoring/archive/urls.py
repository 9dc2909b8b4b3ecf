"""The event archive on the web: import page and the import's progress. The download is an
export job (`scoring.exports`, exporter "event-archive")."""

from django.urls import path

from . import views

app_name = "archive"

urlpatterns = [
    path("import/", views.import_archive, name="import"),
    path("imports/<slug:import_id>/", views.import_job, name="import_job"),
    path("imports/<slug:import_id>/status/", views.import_status, name="import_status"),
]
