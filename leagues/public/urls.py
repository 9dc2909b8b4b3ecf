from django.urls import include, path

from leagues.public import views as public_views

app_name = "leagues_public"

pages = [
    path("", public_views.index, name="index"),
    path("<int:pk>/", public_views.season, name="season"),
    path("staffeln/<int:pk>/", public_views.division, name="division"),
    path(
        "staffeln/<int:pk>/<slug:slug>.<str:fmt>",
        public_views.division_export,
        name="division_export",
    ),
    path("spieltage/<int:pk>/", public_views.match_day, name="match_day"),
    path("mannschaften/<int:pk>/", public_views.team, name="team"),
]

urlpatterns = [
    path("public/ligen/", include(pages)),
    path("api/ligen/v1/staffeln/<int:pk>.json", public_views.division_json, name="division_json"),
    # The address before it had ".json"; kept for the club web pages that read it.
    path(
        "api/ligen/v1/staffeln/<int:pk>/",
        public_views.division_json,
        name="division_json_slash",
    ),
]
