"""URLs of the score sheets: boards, sheet entry, check, confirmation, rule set."""

from __future__ import annotations

from django.urls import path

from scoring.sheets import views
from scoring.sheets.table import views as table_views

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
    path(
        "events/<int:pk>/ruleset/changes/<slug:change_id>/status/",
        views.ruleset_change_status,
        name="ruleset_change_status",
    ),
    # Table links (issue 16): the director's page, and the phones' pages behind the token.
    path("series/<int:pk>/table-links/", table_views.series_table_links, name="table_links"),
    path("series/<int:pk>/table-links/pin/", table_views.table_link_pin, name="table_link_pin"),
    path(
        "series/<int:pk>/table-links/<int:link_pk>/revoke/",
        table_views.table_link_revoke,
        name="table_link_revoke",
    ),
    path(
        "series/<int:pk>/table-links/<int:number>/hands/<int:hand>/settle/",
        table_views.table_hand_settle,
        name="table_hand_settle",
    ),
    path("t/<str:token>/", table_views.table_phone, name="table_phone"),
    path("t/<str:token>/seat/", table_views.table_seat, name="table_seat"),
    path("t/<str:token>/hand/", table_views.table_hand, name="table_hand"),
    path("t/<str:token>/confirm/", table_views.table_confirm, name="table_confirm"),
    path("t/<str:token>/dispute/", table_views.table_dispute, name="table_dispute"),
]
