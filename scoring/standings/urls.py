"""URLs of the standings: pages, public page, hall display, JSON, tie-break, playoffs,
season ranking, player results."""

from __future__ import annotations

from django.urls import path

from scoring.standings import api, display, views

app_name = "standings"
urlpatterns = [
    path("events/<int:pk>/standings/", views.event_standings, name="event"),
    path("events/<int:pk>/standings/tie-break/", views.tie_break, name="tie_break"),
    path("events/<int:pk>/playoffs/new/", views.playoff_create, name="playoff_create"),
    path("series/<int:pk>/publish/", views.series_publish, name="series_publish"),
    path("public/events/<int:pk>/", views.public_standings, name="public"),
    path("public/events/<int:pk>/display/", display.display, name="display"),
    path("public/events/<int:pk>/version.json", views.results_version, name="version"),
    path("players/<int:pk>/results/", views.player_results, name="player"),
    path("api/events/<int:pk>/standings", api.api_standings, name="api"),
    path("seasons/<int:pk>/ranking/", views.season_ranking, name="season"),
]
