"""The league's rows: seasons of an association, divisions in levels, teams of clubs with
their rosters, match days (each an event of the host club once opened) with the teams'
line-ups, the submitted and approved results, and the moves of the season's end.

Every row keeps its history (django-simple-history) with the actor and the reason."""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from clubs.models import Club, Player
from federation.models import Association
from rules.leagues import parse_settings
from tournaments.models import Event, Participant


class LeagueSeason(models.Model):
    class Status(models.TextChoices):
        RUNNING = "running", _("running")
        CLOSED = "closed", _("closed")

    association = models.ForeignKey(
        Association,
        on_delete=models.PROTECT,
        related_name="league_seasons",
        verbose_name=_("association"),
    )
    name = models.CharField(_("name"), max_length=200)
    first_year = models.PositiveSmallIntegerField(_("first year"))
    last_year = models.PositiveSmallIntegerField(_("last year"))
    # rules.leagues.LeagueSettings as JSON (only parse_settings reads it).
    rules = models.JSONField(_("rules"), default=dict, blank=True)
    roster_deadline = models.DateField(_("roster deadline"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.RUNNING
    )
    previous = models.OneToOneField(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="next_season",
        verbose_name=_("previous season"),
    )
    public = models.BooleanField(_("public"), default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Raised on every change a public page shows: the pages' ETags and cache keys hold it.
    version = models.PositiveBigIntegerField(default=0, editable=False)
    changed_at = models.DateTimeField(null=True, blank=True, editable=False)
    history = HistoricalRecords(excluded_fields=["version", "changed_at"])

    class Meta:
        ordering = ["-first_year", "name"]
        verbose_name = _("league season")
        verbose_name_plural = _("league seasons")
        constraints = [
            models.UniqueConstraint(
                fields=["association", "name"], name="leagueseason_name_unique"
            ),
            models.CheckConstraint(
                condition=models.Q(last_year__gte=models.F("first_year")),
                name="leagueseason_years_in_order",
            ),
        ]

    def __str__(self):
        return self.name

    def save(self, *args, **kwargs):
        # Only bump() writes the version: a stale row must not write back an older one.
        if not self._state.adding and kwargs.get("update_fields") is None:
            kwargs["update_fields"] = [
                f.name
                for f in self._meta.concrete_fields
                if not f.primary_key and f.name not in ("version", "changed_at")
            ]
        super().save(*args, **kwargs)

    def get_absolute_url(self):
        return reverse("leagues:season", args=[self.pk])

    @property
    def settings(self):
        return parse_settings(self.rules)


class Division(models.Model):
    season = models.ForeignKey(
        LeagueSeason, on_delete=models.CASCADE, related_name="divisions", verbose_name=_("season")
    )
    name = models.CharField(_("name"), max_length=100)
    level = models.PositiveSmallIntegerField(_("level"), help_text=_("1 is the top level."))
    parent = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="children",
        verbose_name=_("promotion to"),
    )
    promoted = models.PositiveSmallIntegerField(_("teams promoted"), default=0)
    relegated = models.PositiveSmallIntegerField(_("teams relegated"), default=0)
    history = HistoricalRecords()

    class Meta:
        ordering = ["season", "level", "name"]
        verbose_name = _("division")
        verbose_name_plural = _("divisions")
        constraints = [
            models.UniqueConstraint(fields=["season", "name"], name="division_name_unique"),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("leagues:division", args=[self.pk])


class Team(models.Model):
    division = models.ForeignKey(
        Division, on_delete=models.CASCADE, related_name="teams", verbose_name=_("division")
    )
    club = models.ForeignKey(
        Club, on_delete=models.PROTECT, related_name="league_teams", verbose_name=_("club")
    )
    name = models.CharField(_("name"), max_length=100)
    captain_name = models.CharField(_("captain"), max_length=200, blank=True)
    captain = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="league_teams",
        verbose_name=_("captain's user account"),
    )
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    # The same team in the season before (its promotion or relegation brought it here).
    origin = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("previous season's team"),
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["division", "name"]
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        constraints = [
            models.UniqueConstraint(fields=["division", "name"], name="team_name_unique"),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("leagues:team", args=[self.pk])


class RosterEntry(models.Model):
    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="roster", verbose_name=_("team")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="league_rosters", verbose_name=_("player")
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["team", "player__sort_key"]
        verbose_name = _("roster entry")
        verbose_name_plural = _("roster entries")
        constraints = [
            models.UniqueConstraint(fields=["team", "player"], name="roster_player_once"),
        ]

    def __str__(self):
        return f"{self.team_id}: {self.player_id}"


class MatchDay(models.Model):
    class Status(models.TextChoices):
        PLANNED = "planned", _("planned")
        OPEN = "open", _("open")

    division = models.ForeignKey(
        Division, on_delete=models.CASCADE, related_name="match_days", verbose_name=_("division")
    )
    number = models.PositiveSmallIntegerField(_("match day"))
    date = models.DateField(_("date"))
    host = models.ForeignKey(
        Club, on_delete=models.PROTECT, related_name="hosted_match_days", verbose_name=_("host")
    )
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    series_count = models.PositiveSmallIntegerField(_("series"), default=3)
    lineup_deadline = models.DateTimeField(_("line-up deadline"), null=True, blank=True)
    teams = models.ManyToManyField(Team, related_name="match_days", verbose_name=_("teams"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PLANNED
    )
    event = models.OneToOneField(
        Event,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="match_day",
        verbose_name=_("event"),
    )
    lots_seed = models.BigIntegerField(_("lots seed"), null=True, blank=True)
    history = HistoricalRecords(m2m_fields=[teams])

    class Meta:
        ordering = ["division", "number"]
        verbose_name = _("match day")
        verbose_name_plural = _("match days")
        constraints = [
            models.UniqueConstraint(fields=["division", "number"], name="matchday_number_unique"),
        ]

    def __str__(self):
        return _("%(division)s, match day %(number)s") % {
            "division": self.division.name,
            "number": self.number,
        }

    def get_absolute_url(self):
        return reverse("leagues:match_day", args=[self.pk])


class LineupEntry(models.Model):
    """A player named for a team on a match day (and their entry in the day's event)."""

    match_day = models.ForeignKey(
        MatchDay, on_delete=models.CASCADE, related_name="lineup", verbose_name=_("match day")
    )
    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="lineups", verbose_name=_("team")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("player")
    )
    participant = models.ForeignKey(
        Participant, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["match_day", "team", "player__sort_key"]
        verbose_name = _("line-up entry")
        verbose_name_plural = _("line-up entries")
        constraints = [
            # one team per player and day: the database refuses a race the service missed
            models.UniqueConstraint(fields=["match_day", "player"], name="lineup_player_once"),
        ]

    def __str__(self):
        return f"{self.match_day_id}/{self.team_id}: {self.player_id}"


class MatchDayResult(models.Model):
    """The day's result as computed from the event's confirmed sheets; it counts in the
    table only once the officer has approved it."""

    class Status(models.TextChoices):
        SUBMITTED = "submitted", _("submitted")
        APPROVED = "approved", _("approved")
        REJECTED = "rejected", _("rejected")

    match_day = models.OneToOneField(
        MatchDay, on_delete=models.CASCADE, related_name="result", verbose_name=_("match day")
    )
    status = models.CharField(_("status"), max_length=10, choices=Status.choices)
    submitted_at = models.DateTimeField(_("submitted at"))
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    note = models.CharField(_("note"), max_length=200, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("match day result")
        verbose_name_plural = _("match day results")

    def __str__(self):
        return f"{self.match_day_id}: {self.status}"


class TeamDayResult(models.Model):
    result = models.ForeignKey(MatchDayResult, on_delete=models.CASCADE, related_name="teams")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="day_results")
    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="+")
    approved = models.BooleanField(default=False)  # copied from the result: one-query tables
    place = models.PositiveSmallIntegerField()
    points = models.IntegerField()
    score = models.IntegerField()
    series_totals = models.JSONField(default=list)
    series_won = models.PositiveSmallIntegerField()
    best_player = models.IntegerField(null=True)
    missing = models.PositiveSmallIntegerField(default=0)
    reason = models.JSONField(null=True)

    class Meta:
        ordering = ["result", "place"]
        indexes = [models.Index(fields=["division", "approved"], name="teamday_division")]

    def __str__(self):
        return f"{self.team_id}: {self.place}"


class PlayerDayResult(models.Model):
    result = models.ForeignKey(MatchDayResult, on_delete=models.CASCADE, related_name="players")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="+")
    approved = models.BooleanField(default=False)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    series_totals = models.JSONField(default=list)
    total = models.IntegerField()

    class Meta:
        ordering = ["result", "team", "-total"]
        indexes = [models.Index(fields=["division", "approved"], name="playerday_division")]

    def __str__(self):
        return f"{self.player_id}: {self.total}"


class TeamMove(models.Model):
    """A confirmed move of the season's end (the proposal changed by the officer, with the
    reason in the history)."""

    class Kind(models.TextChoices):
        UP = "up", _("promoted")
        DOWN = "down", _("relegated")
        STAY = "stay", _("stays")
        OUT = "out", _("leaves the league")

    season = models.ForeignKey(LeagueSeason, on_delete=models.CASCADE, related_name="moves")
    team = models.OneToOneField(Team, on_delete=models.CASCADE, related_name="move")
    kind = models.CharField(_("move"), max_length=5, choices=Kind.choices)
    target = models.ForeignKey(
        Division, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    proposed_kind = models.CharField(max_length=5, choices=Kind.choices)
    history = HistoricalRecords()

    class Meta:
        ordering = ["season", "team"]

    def __str__(self):
        return f"{self.team_id}: {self.kind}"
