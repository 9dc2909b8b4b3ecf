from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from .models import HallSettings


@admin.register(HallSettings)
class HallSettingsAdmin(SimpleHistoryAdmin):
    list_display = ["pk", "remote_direction", "backup_folder"]
    search_fields = ["backup_folder"]
