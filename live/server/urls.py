"""The server's endpoint and pages of live results (included by live/urls.py, namespace
"live"): the laptops' API, the club's tokens, the take-over and the hand-back."""

from django.urls import path

from live.server import api, handback_views, views

urlpatterns = [
    path("api/live/v1/batches", api.batches, name="batches"),
    path("api/live/v1/status", api.status, name="status"),
    path("clubs/<int:pk>/live/", views.club_tokens, name="club_tokens"),
    path("live/tokens/<int:pk>/revoke/", views.token_revoke, name="token_revoke"),
    path("events/<int:pk>/live/take-over/", views.take_over, name="take_over"),
    path("events/<int:pk>/live/hand-back/", handback_views.hand_back, name="hand_back"),
    path(
        "events/<int:pk>/live/hand-back/cancel/",
        handback_views.hand_back_cancel,
        name="hand_back_cancel",
    ),
]
