from django.urls import path

from hall import backup_views, views

app_name = "hall"
urlpatterns = [
    path("hall/setup/", views.setup, name="setup"),
    path("hall/guide/", views.guide, name="guide"),
    path("hall/settings/", views.hall_settings, name="settings"),
    path("hall/backups/", backup_views.backup_list, name="backups"),
    path("hall/backups/restore/", backup_views.backup_restore, name="backup_restore"),
]
