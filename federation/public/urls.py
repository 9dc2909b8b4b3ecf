"""Public federation pages and JSON (anonymous; federation.public.views, federation.public.api),
included at the root by romme/urls.py."""

from django.urls import include, path

from federation.public import api, views

pages = (
    [
        path("", views.index, name="index"),
        path("calendar/", views.calendar, name="calendar"),
        path("archive/", views.archive, name="archive"),
        path("rankings/<int:pk>/", views.ranking, name="ranking"),
        path("rankings/<int:pk>/players/<int:player>/", views.player_card, name="card"),
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
