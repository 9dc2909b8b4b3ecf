from django.urls import path

from hall import views

app_name = "hall"
urlpatterns = [
    path("hall/setup/", views.setup, name="setup"),
    path("hall/guide/", views.guide, name="guide"),
    path("hall/settings/", views.hall_settings, name="settings"),
]
