"""One exporter registry for every export: XLSX, PDF and print page from one table definition."""

from django.urls import path, register_converter

from . import views


class ScopeConverter:
    regex = "club|event|series|category"

    def to_python(self, value):
        return value

    def to_url(self, value):
        return value


class FormatConverter:
    regex = "xlsx|pdf|html|json"

    def to_python(self, value):
        return value

    def to_url(self, value):
        return value


register_converter(ScopeConverter, "export_scope")
register_converter(FormatConverter, "export_format")

app_name = "exports"

urlpatterns = [
    path("<export_scope:scope>/<int:pk>/", views.menu, name="menu"),
    path(
        "<export_scope:scope>/<int:pk>/<slug:slug>.<export_format:fmt>",
        views.export,
        name="export",
    ),
    path(
        "<export_scope:scope>/<int:pk>/<slug:slug>.<export_format:fmt>/job/",
        views.job_start,
        name="job_start",
    ),
    path("jobs/<slug:job_id>/", views.job, name="job"),
    path("jobs/<slug:job_id>/status/", views.job_status, name="job_status"),
    path("jobs/<slug:job_id>/download/", views.job_download, name="job_download"),
    path("s/<str:code>/", views.sheet_code, name="sheet_code"),
]
