"""Public federation pages and JSON (anonymous; federation.public_views, federation.api)."""

from django.urls import include, path

from . import api, public_views

pages = (
    [
        path("", public_views.index, name="index"),
        path("calendar/", public_views.calendar, name="calendar"),
        path("archive/", public_views.archive, name="archive"),
        path("rankings/<int:pk>/", public_views.ranking, name="ranking"),
        path("rankings/<int:pk>/players/<int:player>/", public_views.player_card, name="card"),
    ],
    "federation_public",
)
json = (
    [
        path("rankings/", api.rankings, name="rankings"),
        path("rankings/<int:pk>/", api.ranking, name="ranking"),
        path("rankings/<int:pk>/players/<int:player>/", api.player, name="player"),
    ],
    "federation_api",
)

urlpatterns = [
    path("public/federation/", include(pages)),
    path("api/federation/v1/", include(json)),
]
