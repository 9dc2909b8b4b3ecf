from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from .models import EntryFee, EntryPayment, PrizePlan


@admin.register(EntryFee)
class EntryFeeAdmin(SimpleHistoryAdmin):
    list_display = ["event", "category", "amount"]
    search_fields = ["event__name", "category__name"]
    raw_id_fields = ["event", "category"]


@admin.register(EntryPayment)
class EntryPaymentAdmin(SimpleHistoryAdmin):
    list_display = ["participant", "status", "amount", "recorded_by", "recorded_at"]
    search_fields = ["participant__player__family_name", "participant__event__name"]
    list_filter = ["status"]
    raw_id_fields = ["participant"]


@admin.register(PrizePlan)
class PrizePlanAdmin(SimpleHistoryAdmin):
    list_display = ["event", "one_prize_per_player", "costs", "updated_by", "updated_at"]
    search_fields = ["event__name"]
    raw_id_fields = ["event"]
