"""URLs of the members' ranking list, player card, championships and their prints
(included by federation/urls.py)."""

from django.urls import path, re_path

from . import list_views as views

FMT = r"(?P<fmt>pdf|xlsx|html)"

urlpatterns = [
    path("rankings/<int:pk>/list/", views.ranking_lines, name="ranking_lines"),
    re_path(
        rf"^rankings/(?P<pk>[0-9]+)/list\.{FMT}$",
        views.ranking_lines_export,
        name="ranking_lines_export",
    ),
    path(
        "rankings/<int:pk>/players/<int:player_pk>/",
        views.player_card_page,
        name="player_card",
    ),
    re_path(
        rf"^rankings/(?P<pk>[0-9]+)/players/(?P<player_pk>[0-9]+)/card\.{FMT}$",
        views.player_card_export,
        name="player_card_export",
    ),
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
