"""The laptop's pages of live results (included by live/urls.py, namespace "live")."""

from django.urls import path

from live import laptop_views

urlpatterns = [
    path("events/<int:pk>/live/", laptop_views.publish, name="publish"),
]
