"""Rankings of an association (issue 27, points 2, 3 and 5): the ranking and its settings,
ranking status of an event and the versions of its results that an officer reviews, the
computed lists, championships with their qualification, and players hidden from public lists.

The formulas are `scoring.rules.ranking` (pure); these rows hold what they read and write.
Imported by `federation.models`, so the app's models are one set."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from clubs.models import Player
from tournaments.models import Event


class Ranking(models.Model):
    """A ranking list of an association: which events count and how (the settings are
    `scoring.rules.ranking_settings.RankingSettings.as_json()`)."""

    association = models.ForeignKey(
        "federation.Association",
        on_delete=models.PROTECT,
        related_name="rankings",
        verbose_name=_("association"),
    )
    name = models.CharField(_("name"), max_length=200)
    settings = models.JSONField(_("settings"), default=dict, blank=True)
    # The window ends here; empty: today (a running list). A fixed date freezes a season.
    as_of = models.DateField(_("as of"), null=True, blank=True)
    public = models.BooleanField(_("public"), default=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["association__name", "name"]
        verbose_name = _("ranking")
        verbose_name_plural = _("rankings")
        constraints = [
            models.UniqueConstraint(
                fields=["association", "name"],
                name="ranking_unique_name_per_association",
                violation_error_message=_("This association already has a ranking of this name."),
            )
        ]

    def __str__(self):
        return self.name


class RankingStatus(models.Model):
    """An event's ranking status under one ranking, from the organiser's request to the
    officer's approval of a version of its results."""

    class State(models.TextChoices):
        REQUESTED = "requested", _("requested")
        GRANTED = "granted", _("granted")
        REFUSED = "refused", _("refused")
        SUBMITTED = "submitted", _("submitted for review")
        APPROVED = "approved", _("approved")
        WITHDRAWN = "withdrawn", _("withdrawn")

    class EventClass(models.TextChoices):
        RANKING = "ranking", _("ranking tournament")
        CHAMPIONSHIP = "championship", _("championship")

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="ranking_statuses", verbose_name=_("event")
    )
    ranking = models.ForeignKey(
        Ranking, on_delete=models.PROTECT, related_name="statuses", verbose_name=_("ranking")
    )
    event_class = models.CharField(
        _("event class"), max_length=20, choices=EventClass.choices, default=EventClass.RANKING
    )
    state = models.CharField(
        _("state"), max_length=20, choices=State.choices, default=State.REQUESTED
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    requested_at = models.DateTimeField(_("requested at"), auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["-requested_at"]
        verbose_name = _("ranking status")
        verbose_name_plural = _("ranking statuses")
        constraints = [
            models.UniqueConstraint(
                fields=["event", "ranking"],
                name="rankingstatus_one_per_event_and_ranking",
                violation_error_message=_("This event already has a status under this ranking."),
            )
        ]

    def __str__(self):
        return f"{self.event} – {self.ranking}: {self.get_state_display()}"


class EventVersion(models.Model):
    """One submitted version of an event's results under a ranking status: the figures the
    ranking reads, frozen when submitted. A corrected event comes back as a new version; the
    approved one counts until another is approved (``counted_from``/``counted_until``)."""

    class State(models.TextChoices):
        PENDING = "pending", _("waiting for review")
        APPROVED = "approved", _("approved")
        REJECTED = "rejected", _("rejected")
        SUPERSEDED = "superseded", _("superseded")

    class Source(models.TextChoices):
        HERE = "here", _("played on this installation")
        UPLOAD = "upload", _("archive uploaded")
        API = "api", _("sent with a club token")
        LIVE = "live", _("replicated live from the hall")

    status = models.ForeignKey(
        RankingStatus, on_delete=models.CASCADE, related_name="versions", verbose_name=_("status")
    )
    number = models.PositiveIntegerField(_("version"))
    source = models.CharField(_("source"), max_length=10, choices=Source.choices)
    state = models.CharField(
        _("state"), max_length=12, choices=State.choices, default=State.PENDING
    )
    # The event's results_version when the figures were read (a later change is a new version).
    results_version = models.PositiveBigIntegerField(default=0)
    field_size = models.PositiveIntegerField(_("players"), default=0)
    series_count = models.PositiveIntegerField(_("series"), default=0)
    # [{"player": id, "place": n, "score": n, "hands": n, "withdrawn": b, "disqualified": b}]
    results = models.JSONField(default=list, blank=True)
    # German texts of what blocks an approval (disputed or unconfirmed sheets, ...).
    problems = models.JSONField(default=list, blank=True)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    submitted_at = models.DateTimeField(_("submitted at"), auto_now_add=True)
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    reviewed_at = models.DateTimeField(_("reviewed at"), null=True, blank=True)
    review_note = models.CharField(_("note"), max_length=300, blank=True)
    counted_from = models.DateTimeField(null=True, blank=True)
    counted_until = models.DateTimeField(null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["status", "number"]
        verbose_name = _("event version")
        verbose_name_plural = _("event versions")
        constraints = [
            models.UniqueConstraint(
                fields=["status", "number"], name="eventversion_unique_number_per_status"
            ),
            # At most one version of a status counts at a time.
            models.UniqueConstraint(
                fields=["status"],
                condition=Q(state="approved"),
                name="eventversion_one_approved_per_status",
            ),
        ]

    def __str__(self):
        return f"{self.status.event} v{self.number}"


class RankingSnapshot(models.Model):
    """A computed ranking list: what the pages, prints and JSON read (one number the same
    everywhere). ``number`` rises with every computation; the newest is the list."""

    ranking = models.ForeignKey(
        Ranking, on_delete=models.CASCADE, related_name="snapshots", verbose_name=_("ranking")
    )
    number = models.PositiveIntegerField(_("version"))
    computed_at = models.DateTimeField(_("computed at"), auto_now_add=True)
    as_of = models.DateField(_("as of"))
    settings = models.JSONField(default=dict)  # the settings it was computed with
    # The approved EventVersion ids it read.
    versions = models.JSONField(default=list)
    # [{"player", "name", "club", "rank", "value", "listed", "hidden", "events_counted",
    #   "best", "reason", "results": [{"version", "event", "points", "counted", "reason"}]}]
    lines = models.JSONField(default=list)
    reason = models.CharField(max_length=200, blank=True)  # what asked for it

    class Meta:
        ordering = ["ranking", "-number"]
        verbose_name = _("ranking snapshot")
        verbose_name_plural = _("ranking snapshots")
        constraints = [
            models.UniqueConstraint(
                fields=["ranking", "number"], name="rankingsnapshot_unique_number"
            )
        ]

    def __str__(self):
        return f"{self.ranking} #{self.number}"


class Championship(models.Model):
    """A championship qualified for from a ranking: places per regional association, title
    holders, wildcards (`scoring.rules.qualification`)."""

    ranking = models.ForeignKey(
        Ranking, on_delete=models.PROTECT, related_name="championships", verbose_name=_("ranking")
    )
    name = models.CharField(_("name"), max_length=200)
    places_per_region = models.PositiveSmallIntegerField(_("places per region"), default=4)
    # {"<association id>": places} where a region has another number than the default.
    region_places = models.JSONField(_("places of single regions"), default=dict, blank=True)
    reserves_per_region = models.PositiveSmallIntegerField(_("reserves per region"), default=3)
    title_holders = models.ManyToManyField(
        Player, blank=True, related_name="+", verbose_name=_("title holders")
    )
    history = HistoricalRecords(m2m_fields=[title_holders])

    class Meta:
        ordering = ["name"]
        verbose_name = _("championship")
        verbose_name_plural = _("championships")

    def __str__(self):
        return self.name


class Wildcard(models.Model):
    championship = models.ForeignKey(
        Championship, on_delete=models.CASCADE, related_name="wildcards"
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    reason = models.CharField(_("reason"), max_length=200)
    granted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("wildcard")
        verbose_name_plural = _("wildcards")
        constraints = [
            models.UniqueConstraint(
                fields=["championship", "player"], name="wildcard_one_per_player"
            )
        ]

    def __str__(self):
        return f"{self.championship}: {self.player}"


class PublicHiding(models.Model):
    """A player who asked not to be shown on public lists (DSGVO): shown there as
    "nicht öffentlich" with the rank kept."""

    player = models.OneToOneField(
        Player, on_delete=models.CASCADE, related_name="public_hiding", verbose_name=_("player")
    )
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("hidden from public lists")
        verbose_name_plural = _("hidden from public lists")

    def __str__(self):
        return str(self.player)
