"""What happened at the tables: score sheets, their versions, hands and seats' results.

The raw facts written on a sheet are stored (dealer, who went out, hand Rommé, hand points
or cards, melded values). The derived values `HandSeat.points` (by `rules.score_hand`)
and `HandSeat.held_points` (the hand points a seat held, typed or counted from its cards by
`rules`) are computed when a sheet is saved and recomputed whenever the event's rule
set changes (`scoring.sheets.storage.recompute_event`); everything else reads them as stored.
"""

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.models import Participant, Table


class Sheet(models.Model):
    """The score sheet of one table in one series. No Sheet row means "missing"."""

    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        ENTERED = "entered", _("entered")
        CONFIRMED = "confirmed", _("confirmed")
        # A blind re-entry differed from the entry: a director or the first scorer decides.
        DISPUTED = "disputed", _("disputed")

    table = models.OneToOneField(
        Table, on_delete=models.CASCADE, related_name="sheet", verbose_name=_("table")
    )
    status = models.CharField(_("status"), max_length=10, choices=Status.choices)
    # Increases with every saved version; a save names the version it started from.
    version = models.PositiveIntegerField(_("version"), default=0)
    first_dealer = models.PositiveSmallIntegerField(_("first dealer"), default=0)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    entered_at = models.DateTimeField(null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    # Who decided a disputed sheet (a director, or the first scorer against the paper).
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("score sheet")
        verbose_name_plural = _("score sheets")
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["draft", "entered", "confirmed", "disputed"]),
                name="sheet_status_valid",
                violation_error_message=_("Unknown state of a score sheet."),
            ),
            # The four-eyes rule, kept by the database as well as by the service.
            models.CheckConstraint(
                condition=Q(confirmed_by__isnull=True) | ~Q(confirmed_by=models.F("entered_by")),
                name="sheet_confirmer_differs",
                violation_error_message=_("Whoever entered a score sheet cannot confirm it."),
            ),
        ]

    def __str__(self):
        return f"{self.table.series} – {self.table}"


class SheetVersion(models.Model):
    """One save of a sheet: the whole grid as typed, who, when and why. Never changed."""

    class Kind(models.TextChoices):
        DRAFT = "draft", _("draft")
        ENTRY = "entry", _("entry")
        BLIND = "blind", _("blind re-entry")
        CONFIRMATION = "confirmation", _("confirmation")
        CORRECTION = "correction", _("correction")
        RECOMPUTE = "recompute", _("recomputed after a rule change")
        RESOLUTION = "resolution", _("dispute resolved")

    sheet = models.ForeignKey(Sheet, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField(_("version"))
    kind = models.CharField(_("kind"), max_length=15, choices=Kind.choices)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("by")
    )
    created_at = models.DateTimeField(_("at"), auto_now_add=True)
    reason = models.TextField(_("reason"), blank=True)
    # {"first_dealer": 0, "hands": [{"dealer", "winner", "hand_romme",
    #   "seats": [{"hand_points", "cards", "melded"}]}]}: raw facts only, see docs/architecture.md
    grid = models.JSONField(_("grid"))

    class Meta:
        ordering = ["sheet", "-number"]
        verbose_name = _("sheet version")
        verbose_name_plural = _("sheet versions")
        constraints = [
            models.UniqueConstraint(fields=["sheet", "number"], name="sheet_version_unique"),
        ]

    def __str__(self):
        return f"{self.sheet} v{self.number}"


class Hand(models.Model):
    """One deal as the current version of the sheet records it."""

    sheet = models.ForeignKey(Sheet, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField(_("hand"))
    dealer = models.PositiveSmallIntegerField(_("dealer"))
    winner = models.PositiveSmallIntegerField(_("went out"), null=True, blank=True)
    hand_romme = models.BooleanField(_("hand Rommé"), default=False)

    class Meta:
        ordering = ["sheet", "number"]
        verbose_name = _("hand")
        verbose_name_plural = _("hands")
        constraints = [
            models.UniqueConstraint(fields=["sheet", "number"], name="hand_number_unique"),
            models.CheckConstraint(
                condition=Q(number__gte=1),
                name="hand_number_positive",
                violation_error_message=_("Hands are numbered from 1."),
            ),
        ]

    def __str__(self):
        return f"{self.sheet} #{self.number}"


class HandSeat(models.Model):
    """One seat's line of one hand: raw facts and the derived points."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField(_("seat"))
    # Copied from the seating so standings aggregate without walking the tables.
    participant = models.ForeignKey(
        Participant, on_delete=models.PROTECT, related_name="hand_seats"
    )
    hand_points = models.PositiveSmallIntegerField(_("hand points"), null=True, blank=True)
    cards = models.CharField(_("cards"), max_length=200, blank=True)
    melded = models.IntegerField(_("melded value"), null=True, blank=True)
    # Derived: the hand points the seat held, as typed or counted from ``cards`` under the
    # event's rule set (``SeatResult.points``); None when neither was written. Standings
    # ("fewest hand points"), exports and the API read this, never ``hand_points``.
    held_points = models.IntegerField(_("hand points held"), null=True, blank=True)
    points = models.IntegerField(_("points"))

    class Meta:
        ordering = ["hand", "position"]
        verbose_name = _("seat of a hand")
        verbose_name_plural = _("seats of hands")
        constraints = [
            models.UniqueConstraint(fields=["hand", "position"], name="hand_seat_unique"),
        ]
        indexes = [models.Index(fields=["participant", "hand"], name="handseat_participant_idx")]

    def __str__(self):
        return f"{self.hand} / {self.position + 1}"


class SeatTotal(models.Model):
    """Derived: one seat's sums over the stored hands of one sheet, written with the hands
    (`scoring.sheets.storage`). Standings aggregate these few rows per sheet instead of
    every hand seat; the hands stay the record they are summed from."""

    sheet = models.ForeignKey(Sheet, on_delete=models.CASCADE, related_name="seat_totals")
    position = models.PositiveSmallIntegerField(_("seat"))
    participant = models.ForeignKey(
        Participant, on_delete=models.PROTECT, related_name="seat_totals"
    )
    points = models.IntegerField(_("points"))
    # held_points summed over the hands this seat lost (the "fewest hand points" metric)
    lost_hand_points = models.IntegerField(_("hand points held in lost hands"))
    hands_won = models.PositiveSmallIntegerField(_("hands won"))
    hand_rommes = models.PositiveSmallIntegerField(_("hand Rommés"))

    class Meta:
        ordering = ["sheet", "position"]
        verbose_name = _("seat total of a sheet")
        verbose_name_plural = _("seat totals of sheets")
        constraints = [
            models.UniqueConstraint(fields=["sheet", "position"], name="seat_total_unique"),
        ]

    def __str__(self):
        return f"{self.sheet} / {self.position + 1}"


class TableLink(models.Model):
    """A table's phone link for one series: the token behind the QR on the table and a short
    code per seat. Gives access to this table's sheet only; revoked by a director, closed
    once the series is complete (``scoring.sheets.table.links``)."""

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="links", verbose_name=_("table")
    )
    token = models.CharField(max_length=64, unique=True)
    # The code of each seat (0-based position -> code), printed next to the seat.
    seat_codes = models.JSONField(default=list)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("table link")
        verbose_name_plural = _("table links")
        constraints = [
            # Revoked links stay as the record of who locked a table; one live link per table.
            models.UniqueConstraint(
                fields=["table"], condition=Q(revoked_at__isnull=True), name="table_link_one_live"
            ),
        ]

    def __str__(self):
        return f"{self.table.series} – {self.table} (link {self.pk})"


class TableHand(models.Model):
    """One hand as a phone at the table sent it, and what the other seats said about it.

    The sheet's content stays in `SheetVersion`/`Hand`; this row records who wrote the hand,
    its client id (a resend with the same id is answered with this row, never stored twice)
    and its confirmation or dispute by another seat.
    """

    class Status(models.TextChoices):
        ENTERED = "entered", _("entered")
        CONFIRMED = "confirmed", _("confirmed")
        DISPUTED = "disputed", _("disputed")
        REPLACED = "replaced", _("replaced")

    link = models.ForeignKey(TableLink, on_delete=models.CASCADE, related_name="hands")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="phone_hands")
    client_id = models.CharField(max_length=64)
    number = models.PositiveSmallIntegerField(_("hand"))
    writer = models.PositiveSmallIntegerField(_("written by seat"))
    hand = models.JSONField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ENTERED)
    version = models.PositiveIntegerField(_("version"))
    created_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.PositiveSmallIntegerField(null=True, blank=True)  # confirming/disputing
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table", "number", "-pk"]
        verbose_name = _("hand from a phone")
        verbose_name_plural = _("hands from phones")
        constraints = [
            models.UniqueConstraint(fields=["table", "client_id"], name="table_hand_client_once"),
            models.CheckConstraint(
                condition=Q(decided_by__isnull=True) | ~Q(decided_by=models.F("writer")),
                name="table_hand_other_seat_decides",
                violation_error_message=_("Another seat than the hand's writer decides on it."),
            ),
        ]

    def __str__(self):
        return f"{self.table} #{self.number} ({self.client_id})"


# Background jobs (task workers, django-tasks): a job waiting or running whose row has not
# moved for this long died with its worker, or no worker runs.
JOB_STALE_AFTER = timedelta(minutes=10)


class JobState(models.TextChoices):
    QUEUED = "queued", _("queued")
    RUNNING = "running", _("running")
    DONE = "done", _("done")
    FAILED = "failed", _("failed")


class TaskRow(models.Model):
    """What every row a task worker runs shares: who asked, the state and the task."""

    State = JobState

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    language = models.CharField(max_length=8)
    state = models.CharField(max_length=8, choices=State.choices, default=State.QUEUED)
    task_id = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        abstract = True

    @classmethod
    def remove_old(cls, task, max_age: timedelta) -> int:
        """Delete rows not touched for ``max_age`` and ``task``'s results that finished
        before then or were queued and never taken; returns how many rows went."""
        from django_tasks_db.models import DBTaskResult

        cutoff = timezone.now() - max_age
        removed, _counts = cls.objects.filter(updated_at__lt=cutoff).delete()
        DBTaskResult.objects.filter(
            Q(finished_at__lt=cutoff)
            | Q(finished_at=None, enqueued_at__lt=cutoff - JOB_STALE_AFTER),
            task_path=task.module_path,
        ).delete()
        return removed


class ExportJob(TaskRow):
    """A long export rendered by a task worker (`scoring.exports.jobs`). Status, progress and
    the finished file's bytes are this row, so every app server answers the polling and the
    download, whichever machine's worker rendered it. Rows live an hour."""

    id = models.CharField(primary_key=True, max_length=32)  # random, the job's URL
    exporter = models.CharField(max_length=64)
    scope = models.CharField(max_length=10)
    object_id = models.PositiveIntegerField()
    fmt = models.CharField(max_length=4)
    base_url = models.CharField(max_length=300, blank=True)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    unit = models.CharField(max_length=8)
    filename = models.CharField(max_length=255)
    content_type = models.CharField(max_length=100)
    content = models.BinaryField(null=True, editable=False)
    size = models.PositiveIntegerField(default=0)
    error = models.CharField(max_length=100, blank=True)

    class Meta:
        verbose_name = _("export job")
        verbose_name_plural = _("export jobs")

    def __str__(self):
        return f"{self.exporter}.{self.fmt} ({self.state})"


class RulesetChange(TaskRow):
    """A rule-set change of an event, applied by a task worker (`scoring.sheets.ruleset_jobs`):
    recomputing a championship's 40,000 results takes up to two minutes, too long for a
    request. `result` holds the counts of `RecomputeResult` once done."""

    id = models.CharField(primary_key=True, max_length=32)  # random
    event = models.ForeignKey("tournaments.Event", on_delete=models.CASCADE, related_name="+")
    slug = models.CharField(max_length=64)
    overrides = models.JSONField(null=True, blank=True)
    reason = models.TextField()
    result = models.JSONField(default=dict, blank=True)
    error = models.CharField(max_length=300, blank=True)

    class Meta:
        verbose_name = _("rule-set change")
        verbose_name_plural = _("rule-set changes")

    def __str__(self):
        return f"{self.event_id} -> {self.slug} ({self.state})"


class ArchiveImport(TaskRow):
    """An uploaded event archive (docs/event-format.md), imported by a task worker
    (`scoring.archive.jobs`): checking and writing a championship's 10,000 hands takes
    longer than a request should. The upload's text waits here for the worker and is
    cleared when it is done; `result` holds what was created, the warnings and the new
    event's id. `check_only` runs the whole import and rolls it back."""

    id = models.CharField(primary_key=True, max_length=32)  # random, the page's URL
    filename = models.CharField(max_length=255, blank=True)
    size = models.PositiveIntegerField(default=0)
    text = models.TextField(blank=True)
    rename = models.CharField(max_length=200, blank=True)
    check_only = models.BooleanField(default=False)
    step = models.PositiveSmallIntegerField(default=0)  # of STEPS, while running
    event = models.ForeignKey(
        "tournaments.Event", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    result = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True)
    error_path = models.CharField(max_length=300, blank=True)

    STEPS = 3  # read the file, check it, write the event

    class Meta:
        verbose_name = _("event archive import")
        verbose_name_plural = _("event archive imports")

    def __str__(self):
        return f"{self.filename} ({self.state})"


class PlayerPin(models.Model):
    """A 4-digit PIN a director sets for a participant: with the player's number it names the
    player's seat on the table links of the event, instead of the seat code. Stored hashed.
    Rows are never changed: the newest row of a participant counts (an empty hash: the PIN
    was cleared), so the table is the history of who set a PIN when."""

    participant = models.ForeignKey(
        Participant, on_delete=models.CASCADE, related_name="pins", verbose_name=_("participant")
    )
    pin_hash = models.CharField(max_length=128, blank=True)
    set_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    set_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("player PIN")
        verbose_name_plural = _("player PINs")
        indexes = [models.Index(fields=["participant", "-id"], name="player_pin_latest")]

    def __str__(self):
        return f"{self.participant} ({self.set_at:%Y-%m-%d %H:%M})"


class PrerenderedExport(models.Model):
    """A print rendered ahead of the click (`scoring.exports.prerender`): the standings PDF
    of an event, rendered by a task worker once the results have settled, so the director's
    click after the last confirmation is answered at once. One row per event, export, format
    and language; served only while the event's results version and the seats still waiting
    for a confirmed sheet (`seating`) are those it was rendered from, never stale. The file
    is in the database, so every app server answers with it."""

    event = models.ForeignKey("tournaments.Event", on_delete=models.CASCADE, related_name="+")
    exporter = models.CharField(max_length=64)
    fmt = models.CharField(max_length=4)
    language = models.CharField(max_length=8)
    results_version = models.PositiveIntegerField()
    seating = models.CharField(max_length=64)
    filename = models.CharField(max_length=255)
    content_type = models.CharField(max_length=100)
    content = models.BinaryField(editable=False)
    size = models.PositiveIntegerField(default=0)
    seconds = models.FloatField(default=0)  # how long the worker took to render it
    rendered_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("rendered print")
        verbose_name_plural = _("rendered prints")
        constraints = [
            models.UniqueConstraint(
                fields=["event", "exporter", "fmt", "language"], name="prerendered_export_once"
            )
        ]

    def __str__(self):
        return f"{self.exporter}.{self.fmt} {self.language} v{self.results_version}"
