"""The laptop's pages of live results (included by live/urls.py, namespace "live")."""

from django.urls import path

from live.laptop import views

urlpatterns = [
    path("events/<int:pk>/live/", views.publish, name="publish"),
]
