"""URLs of rankings, the ranking status and the review (included by federation/urls.py)."""

from django.urls import path

from federation.rankings import views

urlpatterns = [
    path("rankings/", views.ranking_list, name="ranking_list"),
    path("associations/<int:pk>/rankings/new/", views.ranking_create, name="ranking_create"),
    path("rankings/<int:pk>/", views.ranking_detail, name="ranking_detail"),
    path("rankings/<int:pk>/edit/", views.ranking_edit, name="ranking_edit"),
    path("rankings/<int:pk>/recompute/", views.ranking_recompute, name="ranking_recompute"),
    path("rankings/<int:pk>/versions/", views.ranking_history, name="ranking_history"),
    path("review/", views.review_queue, name="review_queue"),
    path("events/<int:event_pk>/status/", views.status_request, name="status_request"),
    path("status/<int:pk>/", views.status_detail, name="status_detail"),
    path("status/<int:pk>/decide/", views.status_decide, name="status_decide"),
    path("status/<int:pk>/submit/", views.status_submit, name="status_submit"),
    path("versions/<int:pk>/", views.version_detail, name="version_detail"),
    path(
        "versions/<int:pk>/approve/",
        views.version_review,
        {"action": "approve"},
        name="version_approve",
    ),
    path(
        "versions/<int:pk>/reject/",
        views.version_review,
        {"action": "reject"},
        name="version_reject",
    ),
]
