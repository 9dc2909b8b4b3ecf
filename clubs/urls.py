from django.urls import path

from . import views

app_name = "clubs"

urlpatterns = [
    path("clubs/", views.club_list, name="club_list"),
    path("clubs/new/", views.club_create, name="club_create"),
    path("clubs/<int:pk>/", views.club_detail, name="club_detail"),
    path("clubs/<int:pk>/edit/", views.club_edit, name="club_edit"),
    path("clubs/<int:pk>/users/", views.club_users, name="club_users"),
    path("clubs/<int:pk>/users/role/", views.club_role_set, name="club_role_set"),
    path("clubs/roles/<int:pk>/remove/", views.club_role_remove, name="club_role_remove"),
    path("clubs/<int:club_pk>/players/new/", views.player_create, name="player_create"),
    path("clubs/<int:pk>/import/", views.import_upload, name="import_upload"),
    path("clubs/<int:pk>/import/<int:import_pk>/", views.import_preview, name="import_preview"),
    path("players/", views.player_list, name="player_list"),
    path("players/<int:pk>/", views.player_detail, name="player_detail"),
    path("players/<int:pk>/edit/", views.player_edit, name="player_edit"),
    path("players/<int:pk>/join/", views.player_join_club, name="player_join_club"),
    path("memberships/<int:pk>/end/", views.membership_end, name="membership_end"),
]
