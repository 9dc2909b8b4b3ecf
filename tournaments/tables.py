import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from .models import Event, Participant, Season


class EventTable(tables.Table):
    name = tables.Column(linkify=True)
    club = tables.Column(accessor="club__short_name", verbose_name=_("club"))
    season = tables.Column(accessor="season__name", verbose_name=_("season"))
    participant_count = tables.Column(verbose_name=_("players"))
    series_count = tables.Column(verbose_name=_("series"))

    class Meta:
        model = Event
        fields = ("start_date", "name", "kind", "club", "season", "venue")
        sequence = ("start_date", "name", "kind", "club", "season", "venue", "...")
        order_by = ("-start_date",)
        attrs = {"class": "data-table"}
        empty_text = _("No events yet.")


class SeasonTable(tables.Table):
    club = tables.Column(accessor="club__short_name", verbose_name=_("club"))
    event_count = tables.Column(verbose_name=_("events"))
    edit = tables.TemplateColumn(
        template_name="tournaments/season_edit_cell.html",
        verbose_name=_("Actions"),
        orderable=False,
    )

    class Meta:
        model = Season
        fields = ("name", "club", "start_date", "end_date")
        attrs = {"class": "data-table"}
        empty_text = _("No seasons yet.")


class ParticipantTable(tables.Table):
    family_name = tables.Column(
        accessor="player__family_name",
        order_by=("player__sort_key",),
        verbose_name=_("family name"),
        linkify=lambda record: record.player.get_absolute_url(),
    )
    given_name = tables.Column(accessor="player__given_name", verbose_name=_("given name"))
    player_number = tables.Column(accessor="player__player_number", verbose_name=_("number"))
    club = tables.Column(accessor="club__short_name", verbose_name=_("club"), default="–")
    groups = tables.TemplateColumn(
        template_name="tournaments/participant_groups_cell.html",
        verbose_name=_("pair / team"),
        orderable=False,
    )
    checked_in = tables.TemplateColumn(
        template_name="tournaments/participant_checkin_cell.html",
        verbose_name=_("checked in"),
    )
    withdrawn_from_series = tables.TemplateColumn(
        template_name="tournaments/participant_withdraw_cell.html",
        verbose_name=_("withdrawn from series"),
    )

    class Meta:
        model = Participant
        fields = ()
        sequence = (
            "family_name",
            "given_name",
            "player_number",
            "club",
            "groups",
            "checked_in",
            "withdrawn_from_series",
        )
        order_by = ("family_name",)
        attrs = {"class": "data-table compact"}
        empty_text = _("No players registered yet.")
