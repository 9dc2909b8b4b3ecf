from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from . import models
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


@admin.register(models.Ranking)
class RankingAdmin(SimpleHistoryAdmin):
    list_display = ["name", "association", "as_of", "public"]
    list_filter = ["association"]
    search_fields = ["name"]


@admin.register(models.RankingStatus)
class RankingStatusAdmin(SimpleHistoryAdmin):
    list_display = ["event", "ranking", "event_class", "state", "requested_at", "decided_at"]
    list_filter = ["state", "ranking"]
    raw_id_fields = ["event"]


@admin.register(models.EventVersion)
class EventVersionAdmin(SimpleHistoryAdmin):
    list_display = ["status", "number", "source", "state", "submitted_at", "reviewed_at"]
    list_filter = ["state", "source"]
    raw_id_fields = ["status"]


@admin.register(models.RankingSnapshot)
class RankingSnapshotAdmin(admin.ModelAdmin):
    list_display = ["ranking", "number", "as_of", "computed_at"]
    list_filter = ["ranking"]


@admin.register(models.Championship)
class ChampionshipAdmin(SimpleHistoryAdmin):
    list_display = ["name", "ranking", "places_per_region", "reserves_per_region"]
    raw_id_fields = ["title_holders"]


@admin.register(models.Wildcard)
class WildcardAdmin(SimpleHistoryAdmin):
    list_display = ["championship", "player", "reason"]
    raw_id_fields = ["player"]


@admin.register(models.PublicHiding)
class PublicHidingAdmin(SimpleHistoryAdmin):
    list_display = ["player", "reason", "created_at"]
    raw_id_fields = ["player"]


@admin.register(models.Submission)
class SubmissionAdmin(SimpleHistoryAdmin):
    list_display = ["club", "source", "origin_event", "event", "state", "received_at"]
    list_filter = ["state", "source"]
    raw_id_fields = ["event", "token"]
    exclude = ["data"]


@admin.register(models.PlayerMatch)
class PlayerMatchAdmin(SimpleHistoryAdmin):
    list_display = ["player_number", "family_name", "given_name", "problem", "state"]
    list_filter = ["state", "problem"]
    raw_id_fields = ["submission", "player"]
