"""URLs of the members' ranking list, player card and their prints (included by
federation/urls.py, namespace `federation`)."""

from django.urls import path, re_path

from federation.lists import views

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
]
