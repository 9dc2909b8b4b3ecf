from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from .models import Affiliation, Association, AssociationRole


@admin.register(Association)
class AssociationAdmin(SimpleHistoryAdmin):
    list_display = ["name", "short_name", "kind", "parent", "created_at"]
    search_fields = ["name", "short_name"]
    list_filter = ["kind"]


@admin.register(Affiliation)
class AffiliationAdmin(SimpleHistoryAdmin):
    list_display = ["club", "association", "since", "note"]
    search_fields = ["club__name", "club__short_name", "association__name"]
    list_filter = ["association"]
    autocomplete_fields = ["club", "association"]


@admin.register(AssociationRole)
class AssociationRoleAdmin(SimpleHistoryAdmin):
    list_display = ["user", "association", "role"]
    search_fields = ["user__username", "association__name"]
    list_filter = ["role", "association"]
    autocomplete_fields = ["association"]
