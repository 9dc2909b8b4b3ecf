"""URLs of the score sheets: boards, sheet entry, check, confirmation, rule set."""

from __future__ import annotations

from django.urls import path

from scoring.sheets import views

app_name = "scoring"
urlpatterns = [
    path("series/<int:pk>/board/", views.series_board, name="series_board"),
    path("series/<int:pk>/draw/", views.series_draw, name="series_draw"),
    path(
        "series/<int:series_pk>/tables/<int:number>/sheet/",
        views.sheet_entry,
        name="sheet_entry",
    ),
    path(
        "series/<int:series_pk>/tables/<int:number>/sheet/check/",
        views.sheet_check,
        name="sheet_check",
    ),
    path(
        "series/<int:series_pk>/tables/<int:number>/sheet/confirm/",
        views.sheet_confirm,
        name="sheet_confirm",
    ),
    path("events/<int:pk>/ruleset/", views.event_ruleset, name="event_ruleset"),
]
