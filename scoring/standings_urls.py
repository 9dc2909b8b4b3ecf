from django.urls import path

from . import standings_views as views

app_name = "standings"

urlpatterns = [
    path("events/<int:pk>/standings/", views.event_standings, name="event"),
    path("events/<int:pk>/standings/tie-break/", views.tie_break, name="tie_break"),
    path("events/<int:pk>/playoffs/new/", views.playoff_create, name="playoff_create"),
    path("series/<int:pk>/publish/", views.series_publish, name="series_publish"),
    path("public/events/<int:pk>/", views.public_standings, name="public"),
    path("public/events/<int:pk>/display/", views.display, name="display"),
    path("players/<int:pk>/results/", views.player_results, name="player"),
    path("api/events/<int:pk>/standings", views.api_standings, name="api"),
    path("seasons/<int:pk>/ranking/", views.season_ranking, name="season"),
]
