from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from .models import Club, ClubRole, Membership, Player, PlayerImport


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["club"]


@admin.register(Club)
class ClubAdmin(SimpleHistoryAdmin):
    list_display = ["name", "short_name", "town", "association_number"]
    search_fields = ["name", "short_name", "town", "association_number"]
    list_filter = ["town"]


@admin.register(Player)
class PlayerAdmin(SimpleHistoryAdmin):
    list_display = ["player_number", "family_name", "given_name", "birth_year", "active"]
    search_fields = ["player_number", "family_name", "given_name"]
    list_filter = ["active", "memberships__club"]
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(SimpleHistoryAdmin):
    list_display = ["player", "club", "valid_from", "valid_until"]
    search_fields = ["player__family_name", "player__given_name", "player__player_number"]
    list_filter = ["club", "valid_until"]
    autocomplete_fields = ["player", "club"]


@admin.register(ClubRole)
class ClubRoleAdmin(SimpleHistoryAdmin):
    list_display = ["user", "club", "role"]
    search_fields = ["user__username", "club__name"]
    list_filter = ["role", "club"]
    autocomplete_fields = ["club"]


@admin.register(PlayerImport)
class PlayerImportAdmin(admin.ModelAdmin):
    list_display = ["filename", "club", "created_by", "created_at", "status"]
    search_fields = ["filename", "club__name", "created_by__username"]
    list_filter = ["status", "club"]
    exclude = ["content"]
    readonly_fields = ["club", "created_by", "filename", "status", "applied_at", "summary"]
