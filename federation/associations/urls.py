"""URLs of associations, affiliations and roles (included by federation/urls.py, namespace
`federation`)."""

from django.urls import path

from federation.associations import views

urlpatterns = [
    path("", views.association_list, name="association_list"),
    path("associations/new/", views.association_create, name="association_create"),
    path("associations/<int:pk>/", views.association_detail, name="association_detail"),
    path("associations/<int:pk>/edit/", views.association_edit, name="association_edit"),
    path("associations/<int:pk>/history/", views.association_history, name="association_history"),
    path("associations/<int:pk>/clubs/", views.affiliate, name="affiliate"),
    path("associations/<int:pk>/roles/", views.role_grant, name="role_grant"),
    path("roles/<int:pk>/revoke/", views.role_revoke, name="role_revoke"),
    path("affiliations/<int:pk>/", views.affiliation_detail, name="affiliation_detail"),
    path("affiliations/<int:pk>/move/", views.affiliation_move, name="affiliation_move"),
    path("affiliations/<int:pk>/end/", views.affiliation_end, name="affiliation_end"),
]
