from django.urls import path

from leagues import division_views, views
from leagues.closing import views as closing_views

app_name = "leagues"

urlpatterns = [
    path("", views.season_list, name="season_list"),
    path("neu/", views.season_new, name="season_new"),
    path("<int:pk>/", views.season_detail, name="season"),
    path("<int:pk>/bearbeiten/", views.season_edit, name="season_edit"),
    path("<int:pk>/staffel-neu/", views.division_new, name="division_new"),
    path("<int:pk>/saisonende/", closing_views.close_season, name="close_season"),
    path("staffeln/<int:pk>/", views.division_detail, name="division"),
    path("staffeln/<int:pk>/bearbeiten/", division_views.division_edit, name="division_edit"),
    path("staffeln/<int:pk>/mannschaft-neu/", views.team_new, name="team_new"),
    path("staffeln/<int:pk>/spieltag-neu/", views.match_day_new, name="match_day_new"),
    path("staffeln/<int:pk>/<slug:slug>.<str:fmt>", views.division_export, name="division_export"),
    path("mannschaften/<int:pk>/", views.team_detail, name="team"),
    path("mannschaften/<int:pk>/rueckzug/", views.team_withdraw, name="team_withdraw"),
    path("kader/<int:pk>/entfernen/", views.roster_remove, name="roster_remove"),
    path("spieltage/<int:pk>/", views.match_day_detail, name="match_day"),
    path("spieltage/<int:pk>/oeffnen/", views.match_day_open, name="match_day_open"),
    path("spieltage/<int:pk>/ergebnis/", views.match_day_submit, name="match_day_submit"),
    path("spieltage/<int:pk>/entscheiden/", views.match_day_decide, name="match_day_decide"),
]
