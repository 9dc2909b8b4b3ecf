from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from .models import (
    Category,
    CategoryChoice,
    Event,
    Group,
    GroupMember,
    Participant,
    Season,
    Seat,
    Series,
    Table,
)


@admin.register(Season)
class SeasonAdmin(SimpleHistoryAdmin):
    list_display = ["name", "club", "start_date", "end_date"]
    search_fields = ["name", "club__name"]
    list_filter = ["club"]


@admin.register(Event)
class EventAdmin(SimpleHistoryAdmin):
    list_display = ["name", "kind", "club", "start_date", "ruleset_slug"]
    search_fields = ["name", "club__name", "venue"]
    list_filter = ["kind", "club", "ruleset_slug"]
    date_hierarchy = "start_date"


@admin.register(Participant)
class ParticipantAdmin(SimpleHistoryAdmin):
    list_display = ["player", "event", "club", "checked_in", "withdrawn_from_series"]
    search_fields = ["player__family_name", "player__given_name", "player__player_number"]
    list_filter = ["event", "checked_in"]
    raw_id_fields = ["player", "event"]


class GroupMemberInline(admin.TabularInline):
    model = GroupMember
    extra = 0
    raw_id_fields = ["participant"]


@admin.register(Group)
class GroupAdmin(SimpleHistoryAdmin):
    list_display = ["name", "kind", "event"]
    search_fields = ["name", "event__name"]
    list_filter = ["kind", "event"]
    inlines = [GroupMemberInline]


@admin.register(GroupMember)
class GroupMemberAdmin(admin.ModelAdmin):
    list_display = ["group", "participant", "kind"]
    search_fields = ["group__name", "participant__player__family_name"]
    list_filter = ["kind"]
    raw_id_fields = ["group", "participant"]


@admin.register(Series)
class SeriesAdmin(SimpleHistoryAdmin):
    list_display = ["event", "number", "status", "planned_rounds", "draw_seed", "published"]
    search_fields = ["event__name"]
    list_filter = ["status", "published"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["series", "number"]
    search_fields = ["series__event__name"]
    list_filter = ["series__event"]


@admin.register(Seat)
class SeatAdmin(SimpleHistoryAdmin):
    list_display = ["table", "position", "participant"]
    search_fields = ["participant__player__family_name", "participant__player__player_number"]
    list_filter = ["series__event"]
    raw_id_fields = ["table", "series", "participant"]


@admin.register(Category)
class CategoryAdmin(SimpleHistoryAdmin):
    list_display = ["name", "kind", "age_limit", "event"]
    search_fields = ["name", "event__name"]
    list_filter = ["kind"]
    raw_id_fields = ["event"]


@admin.register(CategoryChoice)
class CategoryChoiceAdmin(SimpleHistoryAdmin):
    list_display = ["participant", "category", "included"]
    search_fields = ["category__name", "participant__player__family_name"]
    raw_id_fields = ["category", "participant"]
