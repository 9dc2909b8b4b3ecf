from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from leagues.models import Division, LeagueSeason, MatchDay, MatchDayResult, Team

for model in (LeagueSeason, Division, Team, MatchDay, MatchDayResult):
    admin.site.register(model, SimpleHistoryAdmin)
