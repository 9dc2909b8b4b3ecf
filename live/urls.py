"""The live app's URLs: the server's endpoint and pages (live.api, live.server_views) and the
laptop's pages (live.laptop_urls, once there)."""

from importlib import import_module
from importlib.util import find_spec

from django.urls import path

from live import api, handback_views, server_views

app_name = "live"

urlpatterns = [
    path("api/live/v1/batches", api.batches, name="batches"),
    path("api/live/v1/status", api.status, name="status"),
    path("clubs/<int:pk>/live/", server_views.club_tokens, name="club_tokens"),
    path("live/tokens/<int:pk>/revoke/", server_views.token_revoke, name="token_revoke"),
    path("events/<int:pk>/live/take-over/", server_views.take_over, name="take_over"),
    path("events/<int:pk>/live/hand-back/", handback_views.hand_back, name="hand_back"),
    path(
        "events/<int:pk>/live/hand-back/cancel/",
        handback_views.hand_back_cancel,
        name="hand_back_cancel",
    ),
]

# The laptop's pages (helper L2's live/laptop_urls.py), in the same namespace.
if find_spec("live.laptop_urls") is not None:
    urlpatterns += import_module("live.laptop_urls").urlpatterns
