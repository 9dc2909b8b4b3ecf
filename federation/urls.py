"""The members' federation pages under /federation/ (namespace `federation`), one include per
room. The public pages and JSON (`federation.public.urls`) and the submissions
(`federation.submissions.urls`) are included at the root by romme/urls.py."""

from django.urls import include, path

app_name = "federation"

urlpatterns = [
    path("", include("federation.associations.urls")),
    path("", include("federation.rankings.urls")),
    path("", include("federation.lists.urls")),
    path("", include("federation.championships.urls")),
]
