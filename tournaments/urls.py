from django.urls import path

from . import category_views, season_views, views

app_name = "tournaments"

urlpatterns = [
    path("events/", views.event_list, name="event_list"),
    path("events/new/", views.event_create, name="event_create"),
    path("events/<int:pk>/", views.event_detail, name="event_detail"),
    path("events/<int:pk>/edit/", views.event_edit, name="event_edit"),
    path("events/<int:pk>/participants/add/", views.participant_add, name="participant_add"),
    path(
        "events/<int:pk>/participants/add-list/",
        views.participant_add_list,
        name="participant_add_list",
    ),
    path("events/<int:pk>/participants/new/", views.participant_new, name="participant_new"),
    path("events/<int:pk>/groups/new/", views.group_create, name="group_create"),
    path("events/<int:pk>/series/new/", views.series_create, name="series_create"),
    path("events/<int:pk>/categories/", category_views.categories, name="categories"),
    path("events/<int:pk>/categories/edit/", category_views.category_edit, name="category_edit"),
    path(
        "events/<int:pk>/categories/choices/",
        category_views.category_choices,
        name="category_choices",
    ),
    path(
        "participants/<int:pk>/disqualify/",
        category_views.participant_disqualify,
        name="participant_disqualify",
    ),
    path(
        "participants/<int:pk>/requalify/",
        category_views.participant_requalify,
        name="participant_requalify",
    ),
    path(
        "participants/<int:pk>/check-in/",
        views.participant_check_in,
        name="participant_check_in",
    ),
    path(
        "participants/<int:pk>/withdraw/",
        views.participant_withdraw,
        name="participant_withdraw",
    ),
    path(
        "participants/<int:pk>/reinstate/",
        views.participant_reinstate,
        name="participant_reinstate",
    ),
    path("participants/<int:pk>/remove/", views.participant_remove, name="participant_remove"),
    path("groups/<int:pk>/delete/", views.group_delete, name="group_delete"),
    path("series/<int:pk>/seating/", views.seating, name="seating"),
    path("series/<int:pk>/swap/", views.seat_swap, name="seat_swap"),
    path("series/<int:pk>/start/", views.series_start, name="series_start"),
    path("series/<int:pk>/complete/", views.series_complete, name="series_complete"),
    path("series/<int:pk>/delete/", views.series_delete, name="series_delete"),
    path("seasons/", season_views.season_list, name="season_list"),
    path("clubs/<int:club_pk>/seasons/new/", season_views.season_create, name="season_create"),
    path("seasons/<int:pk>/edit/", season_views.season_edit, name="season_edit"),
]
