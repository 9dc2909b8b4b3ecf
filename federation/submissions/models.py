"""Events brought to the federation's installation from another one (issue 27, point 4):
the archive as it arrived (kept until its players are matched), and the officer's
matching list. The token is the live results' club token (`live.models.LiveToken`): one
kind of token for both. Imported by `federation.models`."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from clubs.models import Club, Player
from live.models import LiveToken
from tournaments.models import Event


class Submission(models.Model):
    """One arrival of an event: an uploaded or sent archive, or a live copy named for
    submission. Re-sending the same (origin, origin_event) arrives as a new row and
    replaces the event's content as a new version, never a second event."""

    class Source(models.TextChoices):
        UPLOAD = "upload", _("archive uploaded")
        API = "api", _("sent with a club token")
        LIVE = "live", _("replicated live from the hall")

    class State(models.TextChoices):
        # Stored by the API at once; the worker reads it (checks, matching, taking in).
        RECEIVED = "received", _("received, being read")
        MATCHING = "matching", _("players to match")
        IMPORTED = "imported", _("taken in")
        REPLACED = "replaced", _("replaced by a newer arrival")
        REFUSED = "refused", _("refused")

    club = models.ForeignKey(
        Club, on_delete=models.PROTECT, related_name="submissions", verbose_name=_("club")
    )
    token = models.ForeignKey(
        LiveToken, on_delete=models.SET_NULL, null=True, blank=True, related_name="submissions"
    )
    source = models.CharField(_("source"), max_length=10, choices=Source.choices)
    # Where the event comes from: the sending installation's key and its event id there.
    origin = models.CharField(_("origin"), max_length=64)
    origin_event = models.BigIntegerField(_("event id there"))
    event = models.ForeignKey(
        Event,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="submissions",
        verbose_name=_("event"),
    )
    data = models.JSONField(default=dict, blank=True)  # the archive document, until taken in
    state = models.CharField(
        _("state"), max_length=10, choices=State.choices, default=State.MATCHING
    )
    message = models.CharField(_("message"), max_length=300, blank=True)
    received_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    received_at = models.DateTimeField(_("received at"), auto_now_add=True)
    history = HistoricalRecords(excluded_fields=["data"])

    class Meta:
        ordering = ["-received_at"]
        verbose_name = _("submission")
        verbose_name_plural = _("submissions")
        indexes = [models.Index(fields=["origin", "origin_event"], name="submission_origin")]

    def __str__(self):
        return f"{self.club.short_name} {self.origin_event} ({self.get_state_display()})"


class PlayerMatch(models.Model):
    """A player of a submission the officer must match: a pass number unknown here, or
    known with another name or birth year. Never merged or created silently."""

    class Problem(models.TextChoices):
        UNKNOWN = "unknown", _("player number unknown here")
        DIFFERENT = "different", _("player number known with other data")
        DUPLICATE = "duplicate", _("player number twice in the event")

    class State(models.TextChoices):
        OPEN = "open", _("open")
        MATCHED = "matched", _("matched to a player")
        CREATED = "created", _("created as a new player")

    submission = models.ForeignKey(
        Submission, on_delete=models.CASCADE, related_name="matches", verbose_name=_("submission")
    )
    player_number = models.CharField(_("player number"), max_length=20)
    given_name = models.CharField(_("given name"), max_length=100)
    family_name = models.CharField(_("family name"), max_length=100)
    birth_year = models.PositiveSmallIntegerField(_("birth year"), null=True, blank=True)
    club_short_name = models.CharField(_("club"), max_length=30, blank=True)
    problem = models.CharField(_("problem"), max_length=10, choices=Problem.choices)
    state = models.CharField(_("state"), max_length=10, choices=State.choices, default=State.OPEN)
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["submission", "family_name", "given_name"]
        verbose_name = _("player to match")
        verbose_name_plural = _("players to match")

    def __str__(self):
        return f"{self.player_number} {self.given_name} {self.family_name}"
