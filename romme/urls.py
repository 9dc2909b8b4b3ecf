from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.generic import TemplateView

from . import health, views

# A fault of the database or the disk raised in a middleware still gets the 503 page.
handler500 = "romme.faults.server_error"

urlpatterns = [
    # First: the public standings, hall display and JSON are most of the traffic, and a
    # cached answer costs little more than resolving its URL (no pattern here overlaps).
    path("", include("scoring.standings.urls")),
    path("", views.home, name="home"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("healthz", health.healthz, name="healthz"),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("about/", TemplateView.as_view(template_name="about.html"), name="about"),
    path("", include("clubs.urls")),
    path("", include("tournaments.urls")),
    path("", include("scoring.sheets.urls")),
    path("exports/", include("scoring.exports.urls")),
    path("archive/", include("scoring.archive.urls")),
    path("", include("prizes.urls")),
    path("federation/", include("federation.urls")),
    path("", include("federation.public.urls")),
    path("", include("federation.submissions.urls")),
    path("ligen/", include("leagues.urls")),
    path("", include("leagues.public.urls")),
    path("", include("live.urls")),
    path("hall/doctor/", views.doctor, name="doctor"),
    path("", include("hall.urls")),
]
