"""Rankings of an association (issue 27, points 2, 3 and 5): the ranking and its settings,
ranking status of an event and the versions of its results that an officer reviews, the
computed lists (snapshots and their rows, every player's official results), and players
hidden from public lists.

The formulas are `rules.ranking` (pure); these rows hold what they read and write.
Imported by `federation.models`, so the app's models are one set."""

from __future__ import annotations

from django.conf import settings
from django.db import models, transaction
from django.db.models import OuterRef, Q, Subquery
from django.db.models.signals import pre_delete
from django.dispatch import receiver
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from clubs.models import Player
from common.json_text import JSONTextField
from tournaments.models import Event


class Ranking(models.Model):
    """A ranking list of an association: which events count and how (the settings are
    `rules.ranking_settings.RankingSettings.as_json()`)."""

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
    everywhere). ``number`` rises with every computation; the newest is the list.

    Its lines are stored as rows (`SnapshotLine`, one per player), so that a list page reads
    one page of rows and a card one row. ``lines`` reads them all back in the documented
    format (docs/federation.md); given to the constructor (``lines=[...]``), the rows are
    written when the snapshot is created, in its transaction."""

    ranking = models.ForeignKey(
        Ranking, on_delete=models.CASCADE, related_name="snapshots", verbose_name=_("ranking")
    )
    number = models.PositiveIntegerField(_("version"))
    computed_at = models.DateTimeField(_("computed at"), auto_now_add=True)
    as_of = models.DateField(_("as of"))
    settings = models.JSONField(default=dict)  # the settings it was computed with
    # The approved EventVersion ids it read.
    versions = models.JSONField(default=list)
    # The facts of the events its lines' results name, once each
    # (federation.rankings.snapshot_rows).
    events = models.JSONField(default=list, blank=True)
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

    def save(self, *args, **kwargs):
        from federation.rankings.snapshot_rows import ROW_FIELDS, insert, pack

        with transaction.atomic():
            if not getattr(self, "_unsaved_lines", False):
                return super().save(*args, **kwargs)
            self.events, rows = pack(None, self._lines, self.events or ())
            adding = self._state.adding
            super().save(*args, **kwargs)
            if not adding:
                self.rows.all().delete()
            insert(SnapshotLine, ROW_FIELDS, [(self.pk, *row[1:]) for row in rows])
            # Read back when asked (their results may have been given packed).
            self._unsaved_lines, self._lines = False, None

    @property
    def lines(self) -> list[dict]:
        """[{"player", "name", "club", "regions", "rank", "value", "listed", "hidden",
        "events_counted", "best", "reason", "results": [{"version", "event", "event_name",
        "date", "place", "field", "points", "counted", "reason"}]}] in the list's order
        (one query, kept on the instance)."""
        if getattr(self, "_lines", None) is None:
            from federation.rankings.snapshot_rows import shared_results, unpack

            rows = self.rows.order_by("position").values_list("line", shared_results())
            self._lines = [line | {"results": unpack(found, self.events)} for line, found in rows]
        return self._lines

    @lines.setter
    def lines(self, value) -> None:
        self._lines = list(value)
        self._unsaved_lines = True


class SnapshotLine(models.Model):
    """One player's line of a RankingSnapshot. ``line`` is the line without its results (the
    documented format), ``results`` its results; the columns beside them are what the pages
    filter and order by. ``player`` is a plain number: a snapshot outlives its players.

    A line whose results did not change since the last snapshot shares them: ``results_from``
    is the earlier row that holds them (never itself a sharing row) and ``results`` is
    empty (None on the instance); read them through `federation.rankings.snapshot_rows`
    (`shared_results`, `read_lines`). After one approval 400 of 10,000 lines hold their
    results."""

    # No index of its own: the unique (snapshot, position) serves every look-up by snapshot
    # (one index fewer to fill for 10,000 rows a computation).
    snapshot = models.ForeignKey(
        RankingSnapshot, on_delete=models.CASCADE, related_name="rows", db_index=False
    )
    position = models.PositiveIntegerField()  # the list's order, from 0
    player = models.BigIntegerField()
    # The line's regional association (one: the player's club's on the ranking date).
    region = models.BigIntegerField(null=True, blank=True)
    rank = models.PositiveIntegerField(null=True, blank=True)
    region_rank = models.PositiveIntegerField(null=True, blank=True)
    listed = models.BooleanField(default=True)
    hidden = models.BooleanField(default=False)
    # JSON as text: written and read whole, never queried inside (common.json_text).
    line = JSONTextField(default=dict)
    results = JSONTextField(default=list)
    # The row of an earlier snapshot of the ranking whose results these are (no constraint
    # and no index: written by the computation only, read through a join on its id).
    results_from = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        db_index=False,
        related_name="+",
    )
    # What a list page sorts by, so that it reads one page in that order (the same values
    # as the line's, names folded as clubs.models.fold_german: a-z0-9, any collation).
    sort_name = models.CharField(max_length=300, default="", blank=True)
    sort_club = models.CharField(max_length=300, default="", blank=True)
    events_counted = models.PositiveIntegerField(default=0)
    points = models.DecimalField(max_digits=18, decimal_places=2, default=0)
    # The line as the JSON API shows it (federation.rankings.public_lines.public_text), kept
    # as text so that its keys keep their order and the national list splices it as it is;
    # empty in rows written before it (read through the line then).
    public = models.TextField(default="", blank=True)

    class Meta:
        ordering = ["snapshot", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["snapshot", "position"], name="snapshotline_unique_position"
            )
        ]
        indexes = [
            models.Index(fields=["snapshot", "player"], name="snapshotline_player"),
            models.Index(fields=["snapshot", "region", "position"], name="snapshotline_region"),
            models.Index(fields=["snapshot", "sort_name"], name="snapshotline_name"),
        ]

    def __str__(self):
        return f"{self.snapshot} {self.position}: {self.player}"


@receiver(pre_delete, sender=RankingSnapshot)
def _hand_on_shared_results(sender, instance, **kwargs):
    """A snapshot about to go (the admin, its ranking deleted): the rows of later snapshots
    that share results its rows hold get a copy of them first (one UPDATE), so that no line
    is left without its results."""
    held = SnapshotLine.objects.filter(pk=OuterRef("results_from")).values("results")[:1]
    SnapshotLine.objects.filter(results_from__snapshot=instance).exclude(snapshot=instance).update(
        results=Subquery(held), results_from=None
    )


class OfficialResult(models.Model):
    """A player's place in one approved EventVersion of any ranking (a player card's "all
    official results", read in one query). Written by the ranking's computation for the
    versions it reads; a version no longer approved loses its rows there."""

    version = models.ForeignKey(
        EventVersion, on_delete=models.CASCADE, related_name="official_results"
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    date = models.DateField()  # the event's first day: the card's order
    place = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["version", "player"], name="officialresult_once_per_version"
            )
        ]
        indexes = [models.Index(fields=["player", "-date"], name="officialresult_player")]

    def __str__(self):
        return f"{self.version}: {self.player_id} {self.place}"


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
