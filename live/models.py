"""Live results from the hall (docs/live.md): the laptop sends its event's changes to a
server as they happen; the server holds a read-only copy until the director takes it over.

Laptop side: `LiveLink` (where to send, what the server holds) and the outbox `LiveChange`
(one row per change, numbered without gaps per event, written in the change's transaction).
Server side: `LiveToken` (what a laptop shows to be let in; only its hash is kept) and
`ReceivedEvent` (whose event this is, the last change applied, who owns it now).
One code base: every installation has both; a laptop uses the first two, a server the rest.
"""

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from clubs.models import Club
from tournaments.models import Event


def new_installation_id() -> str:
    return uuid.uuid4().hex


class Installation(models.Model):
    """This installation's own id (one row): a server tells laptops apart by it, so two
    laptops' event 7 never meet."""

    key = models.CharField(max_length=32, unique=True, default=new_installation_id)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("installation")
        verbose_name_plural = _("installations")

    def __str__(self):
        return self.key


class LiveLink(models.Model):
    """The laptop's link of one event to a server (what the director entered on
    "Live veröffentlichen"), and how far the server has acknowledged."""

    event = models.OneToOneField(
        Event, on_delete=models.CASCADE, related_name="live_link", verbose_name=_("event")
    )
    server_url = models.URLField(_("server address"), max_length=300)
    # The laptop must send it with every batch: kept as entered (the server keeps a hash).
    token = models.CharField(_("token"), max_length=200)
    enabled = models.BooleanField(_("sending"), default=True)
    next_seq = models.PositiveBigIntegerField(default=1)  # the number of the next change
    acked_seq = models.PositiveBigIntegerField(default=0)  # the highest the server holds
    # Part key ("event", "roster", "series:3", "sheet:3:12", …) -> fingerprint of the content
    # the server acknowledged; a part whose fingerprint differs is sent again.
    sent_parts = models.JSONField(default=dict, blank=True)
    last_sent_at = models.DateTimeField(_("last sent"), null=True, blank=True)
    failing_since = models.DateTimeField(_("no connection since"), null=True, blank=True)
    failures = models.PositiveIntegerField(default=0)  # in a row: the backoff's step
    # When the push waiting in the database's task queue runs (None: none waits). Kept by
    # live.laptop.sender, read with every change: one column instead of the task table.
    push_after = models.DateTimeField(null=True, blank=True, editable=False)
    last_error = models.CharField(_("last error"), max_length=300, blank=True)
    # A refusal that waiting does not cure (token revoked, event taken over on the server).
    refused = models.CharField(_("refused by the server"), max_length=300, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords(
        excluded_fields=[
            "next_seq",
            "acked_seq",
            "sent_parts",
            "last_sent_at",
            "failing_since",
            "failures",
            "push_after",
            "last_error",
        ]
    )

    class Meta:
        verbose_name = _("live link")
        verbose_name_plural = _("live links")

    def __str__(self):
        return f"{self.event} → {self.server_url}"


class LiveChange(models.Model):
    """The outbox: one row per change of what the server must show, written in the same
    transaction as the change, numbered 1, 2, 3, … per event without gaps."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="live_changes")
    seq = models.PositiveBigIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    # The table whose sheet alone the change touched (a sheet's save or confirmation): a
    # push whose changes all name one dumps only those sheets. None: anything may have
    # changed. No foreign key: a deleted table's id finds no table, and the push dumps all.
    sheet_table = models.PositiveBigIntegerField(null=True, blank=True)

    class Meta:
        verbose_name = _("live change")
        verbose_name_plural = _("live changes")
        constraints = [
            models.UniqueConstraint(fields=["event", "seq"], name="live_change_seq_once"),
        ]

    def __str__(self):
        return f"{self.event_id}#{self.seq}"


class LiveToken(models.Model):
    """Lets one laptop send one club's event to this server. Shown once when made; only
    its SHA-256 is kept. Bound to the event its first push creates."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="live_tokens")
    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, null=True, blank=True, related_name="live_tokens"
    )
    label = models.CharField(_("label"), max_length=100, blank=True)
    token_hash = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(_("begins with"), max_length=12)  # to recognise it in lists
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)
    history = HistoricalRecords(excluded_fields=["last_used_at"])

    class Meta:
        verbose_name = _("live token")
        verbose_name_plural = _("live tokens")

    def __str__(self):
        return f"{self.prefix}… ({self.club})"


class ReceivedEvent(models.Model):
    """A server's copy of a laptop's event: where it comes from, the last change applied,
    and who owns it (the laptop: read-only here; the server once taken over)."""

    class Owner(models.TextChoices):
        LAPTOP = "laptop", _("the laptop in the hall")
        SERVER = "server", _("this server")

    event = models.OneToOneField(
        Event, on_delete=models.CASCADE, related_name="live_source", verbose_name=_("event")
    )
    origin = models.CharField(_("installation"), max_length=32)
    origin_event = models.PositiveBigIntegerField(_("event on the laptop"))
    token = models.ForeignKey(
        LiveToken, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    last_seq = models.PositiveBigIntegerField(default=0)
    last_push_at = models.DateTimeField(_("last change received"), null=True, blank=True)
    owner = models.CharField(_("owner"), max_length=10, choices=Owner.choices, default="laptop")
    taken_over_at = models.DateTimeField(_("taken over"), null=True, blank=True)
    taken_over_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    # The laptop's ids -> this server's, within this event only: {"participant": {"17": 905},
    # "series": {...}, "table": {...}, ...}. Never used to reach anything outside the event.
    refs = models.JSONField(default=dict, blank=True)
    history = HistoricalRecords(excluded_fields=["last_seq", "last_push_at", "refs"])

    class Meta:
        verbose_name = _("received event")
        verbose_name_plural = _("received events")
        constraints = [
            models.UniqueConstraint(
                fields=["origin", "origin_event"], name="received_event_once_per_origin"
            ),
        ]

    def __str__(self):
        return str(self.event)


class HandBack(models.Model):
    """A director gives an event this server holds (taken over) back to a laptop: a token
    bound to the event, shown once, and the event archive to import there. Until the
    laptop's first push the server's copy is read-only again (``ReceivedEvent.owner`` is
    "laptop"); that push re-binds the received event to the new laptop (``live.server.handback``).
    Every hand-back stays as a row: who, when, why, from which laptop to which."""

    class State(models.TextChoices):
        PENDING = "pending", _("waiting for the laptop's first push")
        DONE = "done", _("the laptop holds the event")
        CANCELLED = "cancelled", _("cancelled")

    received = models.ForeignKey(
        ReceivedEvent, on_delete=models.CASCADE, related_name="handbacks", verbose_name=_("event")
    )
    token = models.ForeignKey(
        LiveToken, on_delete=models.PROTECT, related_name="handbacks", verbose_name=_("token")
    )
    state = models.CharField(_("state"), max_length=10, choices=State.choices, default="pending")
    reason = models.CharField(_("reason"), max_length=100)
    created_at = models.DateTimeField(_("handed back"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    # The copy that sent the event before (its pushes stay refused) and the one after.
    from_origin = models.CharField(max_length=32)
    from_origin_event = models.PositiveBigIntegerField()
    to_origin = models.CharField(max_length=32, blank=True)
    to_origin_event = models.PositiveBigIntegerField(null=True, blank=True)
    completed_at = models.DateTimeField(_("first push received"), null=True, blank=True)
    cancelled_at = models.DateTimeField(_("cancelled"), null=True, blank=True)
    cancelled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    # The part keys of the laptop's first range of changes while it arrives in several
    # batches; what the server holds beyond them is removed with the range's last batch.
    receiving_keys = models.JSONField(null=True, blank=True)
    history = HistoricalRecords(excluded_fields=["receiving_keys"])

    class Meta:
        verbose_name = _("hand-back")
        verbose_name_plural = _("hand-backs")
        constraints = [
            models.UniqueConstraint(
                fields=["received"],
                condition=models.Q(state="pending"),
                name="handback_one_pending_per_event",
            ),
        ]
        indexes = [models.Index(fields=["from_origin", "from_origin_event"])]

    def __str__(self):
        return f"{self.received} ({self.get_state_display()})"
