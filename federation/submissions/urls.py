"""Events from other installations (issue 27, point 4): the submissions endpoint, the
officer's matching list, the club tokens, and the sending form on an event. Included at
the root (romme/urls.py): the endpoint and the event's page live outside /federation/."""

from django.urls import path

from federation.submissions import api, views

app_name = "federation_submit"

urlpatterns = [
    path("api/federation/v1/submissions", api.submissions_endpoint, name="submissions"),
    path(
        "api/federation/v1/submissions/<int:pk>",
        api.submission_status,
        name="submission_status",
    ),
    path("federation/submissions/<int:pk>/", views.submission_detail, name="submission"),
    path("federation/matching/", views.matching_list, name="matching_list"),
    path("federation/matching/<int:pk>/", views.matching_row, name="matching_row"),
    path("federation/clubs/<int:pk>/tokens/", views.club_tokens, name="club_tokens"),
    path("federation/tokens/<int:pk>/revoke/", views.token_revoke, name="token_revoke"),
    path("events/<int:pk>/submit/", views.event_submit, name="event_submit"),
    path(
        "events/<int:pk>/submit/status/",
        views.event_submit_status,
        name="event_submit_status",
    ),
]
