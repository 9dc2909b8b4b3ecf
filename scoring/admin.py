from django.contrib import admin

from .models import (
    ArchiveImport,
    ExportJob,
    Hand,
    HandSeat,
    PlayerPin,
    PrerenderedExport,
    RulesetChange,
    SeatTotal,
    Sheet,
    SheetVersion,
    TableHand,
    TableLink,
)


class SheetVersionInline(admin.TabularInline):
    model = SheetVersion
    extra = 0
    fields = ["number", "kind", "created_by", "created_at", "reason"]
    readonly_fields = fields
    can_delete = False


@admin.register(Sheet)
class SheetAdmin(admin.ModelAdmin):
    list_display = ["table", "status", "version", "entered_by", "confirmed_by", "resolved_by"]
    search_fields = ["table__series__event__name"]
    list_filter = ["status", "table__series__event"]
    raw_id_fields = ["table"]
    inlines = [SheetVersionInline]


@admin.register(SheetVersion)
class SheetVersionAdmin(admin.ModelAdmin):
    list_display = ["sheet", "number", "kind", "created_by", "created_at"]
    search_fields = ["sheet__table__series__event__name", "reason", "created_by__username"]
    list_filter = ["kind"]
    raw_id_fields = ["sheet"]


class HandSeatInline(admin.TabularInline):
    model = HandSeat
    extra = 0
    raw_id_fields = ["participant"]


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ["sheet", "number", "dealer", "winner", "hand_romme"]
    search_fields = ["sheet__table__series__event__name"]
    list_filter = ["hand_romme"]
    raw_id_fields = ["sheet"]
    inlines = [HandSeatInline]


@admin.register(HandSeat)
class HandSeatAdmin(admin.ModelAdmin):
    list_display = [
        "hand",
        "position",
        "participant",
        "hand_points",
        "held_points",
        "melded",
        "points",
    ]
    search_fields = ["participant__player__family_name", "participant__player__player_number"]
    raw_id_fields = ["hand", "participant"]


@admin.register(SeatTotal)
class SeatTotalAdmin(admin.ModelAdmin):
    """Derived from the stored hands (scoring.sheets.storage): shown, never edited here."""

    list_display = ["sheet", "position", "participant", "points", "lost_hand_points",
                    "hands_won", "hand_rommes"]  # fmt: skip
    search_fields = ["participant__player__family_name", "participant__player__player_number"]
    raw_id_fields = ["sheet", "participant"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(TableLink)
class TableLinkAdmin(admin.ModelAdmin):
    """Table links are made and revoked on the series' table-links page (audited there)."""

    list_display = ["table", "created_by", "created_at", "revoked_by", "revoked_at"]
    search_fields = ["table__series__event__name", "created_by__username"]
    raw_id_fields = ["table", "created_by", "revoked_by"]
    readonly_fields = ["token", "seat_codes", "created_at"]


@admin.register(TableHand)
class TableHandAdmin(admin.ModelAdmin):
    list_display = ["table", "number", "writer", "status", "decided_by", "created_at"]
    search_fields = ["table__series__event__name", "client_id"]
    list_filter = ["status"]
    raw_id_fields = ["link", "table"]


@admin.register(PlayerPin)
class PlayerPinAdmin(admin.ModelAdmin):
    """PINs are set on the series' table-links page; here only read (the hash, never the PIN)."""

    list_display = ["participant", "set_by", "set_at"]
    search_fields = ["participant__player__family_name", "participant__player__player_number"]
    raw_id_fields = ["participant", "set_by"]
    readonly_fields = ["pin_hash", "set_at"]


class TaskRowAdmin(admin.ModelAdmin):
    """Rows of background tasks: read only (the worker writes them); a stuck one may be
    deleted, which the page of whoever started it then reports as gone."""

    list_filter = ["state"]
    raw_id_fields = ["user"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(ExportJob)
class ExportJobAdmin(TaskRowAdmin):
    list_display = ["exporter", "fmt", "user", "state", "done", "total", "size", "updated_at"]
    search_fields = ["exporter", "user__username", "filename"]
    exclude = ["content"]


@admin.register(RulesetChange)
class RulesetChangeAdmin(TaskRowAdmin):
    list_display = ["event", "slug", "user", "state", "updated_at"]
    search_fields = ["event__name", "slug", "user__username"]
    raw_id_fields = ["user", "event"]


@admin.register(ArchiveImport)
class ArchiveImportAdmin(TaskRowAdmin):
    list_display = ["filename", "user", "check_only", "state", "event", "updated_at"]
    search_fields = ["filename", "user__username"]
    raw_id_fields = ["user", "event"]
    exclude = ["text"]


@admin.register(PrerenderedExport)
class PrerenderedExportAdmin(admin.ModelAdmin):
    list_display = ["event", "exporter", "fmt", "language", "results_version", "filename"]
    search_fields = ["exporter", "event__name", "filename"]
    raw_id_fields = ["event"]
