from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from .models import HandBack, Installation, LiveChange, LiveLink, LiveToken, ReceivedEvent


@admin.register(Installation)
class InstallationAdmin(admin.ModelAdmin):
    list_display = ["key", "created_at"]
    search_fields = ["key"]


@admin.register(LiveLink)
class LiveLinkAdmin(SimpleHistoryAdmin):
    list_display = ["event", "server_url", "enabled", "acked_seq", "next_seq", "last_sent_at"]
    search_fields = ["event__name", "server_url"]
    raw_id_fields = ["event"]
    # The token is the laptop's secret for the server: never shown here.
    exclude = ["token"]


@admin.register(LiveChange)
class LiveChangeAdmin(admin.ModelAdmin):
    list_display = ["event", "seq", "created_at"]
    search_fields = ["event__name"]
    raw_id_fields = ["event"]


@admin.register(LiveToken)
class LiveTokenAdmin(SimpleHistoryAdmin):
    list_display = ["prefix", "club", "event", "label", "created_at", "revoked_at"]
    search_fields = ["prefix", "label", "club__name"]
    raw_id_fields = ["club", "event"]
    exclude = ["token_hash"]


@admin.register(ReceivedEvent)
class ReceivedEventAdmin(SimpleHistoryAdmin):
    list_display = ["event", "origin", "origin_event", "owner", "last_seq", "last_push_at"]
    search_fields = ["event__name", "origin"]
    list_filter = ["owner"]
    raw_id_fields = ["event", "token"]


@admin.register(HandBack)
class HandBackAdmin(SimpleHistoryAdmin):
    list_display = ["received", "state", "created_at", "created_by", "completed_at"]
    search_fields = ["received__event__name", "from_origin", "to_origin", "reason"]
    list_filter = ["state"]
    raw_id_fields = ["received", "token"]
