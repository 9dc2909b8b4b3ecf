"""URLs of championships, their qualification list and its prints (included by
federation/urls.py, namespace `federation`)."""

from django.urls import path, re_path

from federation.championships import views
from federation.lists.urls import FMT

urlpatterns = [
    path(
        "rankings/<int:pk>/championships/new/",
        views.championship_create,
        name="championship_create",
    ),
    path("championships/<int:pk>/", views.championship_detail, name="championship_detail"),
    path("championships/<int:pk>/edit/", views.championship_edit, name="championship_edit"),
    path("championships/<int:pk>/titles/", views.championship_titles, name="championship_titles"),
    path("championships/<int:pk>/wildcards/", views.wildcard_add, name="wildcard_add"),
    path("wildcards/<int:pk>/remove/", views.wildcard_remove, name="wildcard_remove"),
    re_path(
        rf"^championships/(?P<pk>[0-9]+)/qualification\.{FMT}$",
        views.championship_export,
        name="championship_export",
    ),
]
