"""What is played where and when: seasons, events, participants, pairs and teams, series,
tables and seats. Results (sheets and hands) live in `scoring`."""

from functools import cached_property

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from clubs.models import Club, Player
from rules import PRESETS, ruleset_from
from rules.standings.metrics import DEFAULT_CHAIN
from tournaments.draw import MAX_SEATS


def default_tie_break_chain() -> list[str]:
    """The tie-break chain a new event starts with (scoring.standings.DEFAULT_CHAIN)."""
    return list(DEFAULT_CHAIN)


RESULTS_FIELDS = ("results_version", "results_changed_at")


def default_prize_lines() -> list[int]:
    """Places 1..L win a prize or qualify; by default only the top place matters."""
    return [1]


class Season(models.Model):
    """A club's ranking year (Jahreswertung) across its club evenings."""

    club = models.ForeignKey(
        Club, on_delete=models.PROTECT, related_name="seasons", verbose_name=_("club")
    )
    name = models.CharField(_("name"), max_length=100)
    start_date = models.DateField(_("start"))
    end_date = models.DateField(_("end"))

    class RankingMode(models.TextChoices):
        TOTAL = "total", _("total")
        AVERAGE = "average", _("average per series")

    ranking_mode = models.CharField(
        _("ranking by"), max_length=10, choices=RankingMode.choices, default=RankingMode.TOTAL
    )
    minimum_series = models.PositiveSmallIntegerField(
        _("minimum number of series"),
        default=0,
        help_text=_("Players with fewer series played are listed but not ranked."),
    )
    drop_start = models.PositiveSmallIntegerField(
        _("drop results from series"),
        default=30,
        help_text=_("From this many series played on, the worst result is dropped."),
    )
    drop_every = models.PositiveSmallIntegerField(
        _("one more dropped result every"),
        default=5,
        help_text=_("Series after which one more worst result is dropped."),
    )
    drop_maximum = models.PositiveSmallIntegerField(
        _("at most dropped results"),
        default=5,
        help_text=_("0 drops nothing."),
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["-start_date"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="season_name_unique_per_club"),
            models.CheckConstraint(
                condition=Q(end_date__gte=models.F("start_date")),
                name="season_end_after_start",
                violation_error_message=_("A season cannot end before it starts."),
            ),
        ]

    def __str__(self):
        return f"{self.club.short_name} {self.name}"


# The rules engine names its presets in English; the UI shows them in the user's language.
PRESET_LABELS = {
    "german-minus": _("German Rummy, minus points"),
    "german-minus-20": _("German Rummy, joker 20, dealer's 14th card"),
    "melded-minus-held": _("German Rummy, melded minus held (4 jokers)"),
    "ranking-points": _("German Rummy, ranking points 5 / 8 / 3-2-1"),
    "drov-ranking-points": _("German Rummy, ranking points by the DRoV-style table"),
    "skat-style": _("German Rummy, skat-style performance points"),
    "treppenromme": _("Treppenrommé"),
}
PRESET_CHOICES = [(slug, PRESET_LABELS.get(slug, preset.name)) for slug, preset in PRESETS.items()]


class Event(models.Model):
    """A tournament (one or more days) or a club evening, played under one rule set."""

    class Kind(models.TextChoices):
        TOURNAMENT = "tournament", _("tournament")
        CLUB_EVENING = "club_evening", _("club evening")

    class Seating(models.TextChoices):
        LOT = "lot", _("by lot")
        RANKED = "ranked", _("by running total")

    club = models.ForeignKey(
        Club,
        on_delete=models.PROTECT,
        related_name="events",
        verbose_name=_("organising club"),
        help_text=_("Its organisers manage the event; its scorers enter the sheets."),
    )
    season = models.ForeignKey(
        Season,
        on_delete=models.PROTECT,
        related_name="events",
        null=True,
        blank=True,
        verbose_name=_("season"),
    )
    name = models.CharField(_("name"), max_length=200)
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices, default=Kind.TOURNAMENT)
    start_date = models.DateField(_("first day"))
    end_date = models.DateField(_("last day"), null=True, blank=True)
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    ruleset_slug = models.CharField(
        _("rule set"), max_length=50, choices=PRESET_CHOICES, default="german-minus"
    )
    # Only the fields that differ from the preset, as RuleSet.overrides() gives them.
    ruleset_overrides = models.JSONField(_("rule set overrides"), default=dict, blank=True)
    rounds_per_series = models.PositiveSmallIntegerField(
        _("rounds per series"),
        default=5,
        validators=[MinValueValidator(1)],
        help_text=_("A round is one deal per player: 5 rounds are 20 hands at a 4-table."),
    )
    later_series_seating = models.CharField(
        _("seating of later series"), max_length=10, choices=Seating.choices, default=Seating.RANKED
    )
    avoid_same_club = models.BooleanField(_("avoid players of one club at a table"), default=False)
    avoid_repeat_opponents = models.BooleanField(_("avoid repeat opponents"), default=False)
    blind_confirmation = models.BooleanField(
        _("blind confirmation"),
        default=False,
        help_text=_("The confirmer types the sheet again without seeing the first entry."),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # Standings: metric keys of scoring.standings.METRICS, "total" first, "lots" last.
    tie_break_chain = models.JSONField(_("tie-break chain"), default=default_tie_break_chain)
    # Drawn with `secrets` the first time a tie needs lots, then kept for audit.
    lots_seed = models.BigIntegerField(_("lots seed"), null=True, blank=True)
    prize_lines = models.JSONField(
        _("prize lines"),
        default=default_prize_lines,
        blank=True,
        help_text=_("Places 1..L win a prize or qualify; a tie across such a line is played off."),
    )
    # Raised (tournaments.results.bump_results_version) in the transaction of every write
    # that can change a public figure; public pages key their ETags and cache entries on it.
    results_version = models.PositiveBigIntegerField(default=0, editable=False)
    results_changed_at = models.DateTimeField(null=True, blank=True, editable=False)
    history = HistoricalRecords(excluded_fields=["results_version", "results_changed_at"])

    class Meta:
        ordering = ["-start_date", "name"]
        verbose_name = _("event")
        verbose_name_plural = _("events")
        constraints = [
            models.CheckConstraint(
                condition=Q(end_date__isnull=True) | Q(end_date__gte=models.F("start_date")),
                name="event_end_after_start",
                violation_error_message=_("The last day cannot be before the first day."),
            ),
            models.CheckConstraint(
                condition=Q(rounds_per_series__gte=1),
                name="event_at_least_one_round",
                violation_error_message=_("A series needs at least one round."),
            ),
        ]

    def __str__(self):
        return self.name

    def save(self, *args, **kwargs):
        # A save of an event loaded earlier must not write back an older results version
        # (a later ETag could then match an older page): only the bump writes these fields.
        if not self._state.adding and kwargs.get("update_fields") is None:
            kwargs["update_fields"] = [
                f.name
                for f in self._meta.concrete_fields
                if not f.primary_key and f.name not in RESULTS_FIELDS
            ]
        super().save(*args, **kwargs)

    def get_absolute_url(self):
        return reverse("tournaments:event_detail", args=[self.pk])

    @cached_property
    def ruleset(self):
        """The rules.RuleSet this event plays under (preset plus overrides)."""
        return ruleset_from(self.ruleset_slug, self.ruleset_overrides)


class Participant(models.Model):
    """A registered player of one event; withdrawn players sit out from a series on."""

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="participants", verbose_name=_("event")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="participations", verbose_name=_("player")
    )
    # The club the player played for at this event, kept even if they move later.
    club = models.ForeignKey(
        Club,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("club"),
    )
    checked_in = models.BooleanField(_("checked in"), default=False)
    withdrawn_from_series = models.PositiveSmallIntegerField(
        _("withdrawn from series"),
        null=True,
        blank=True,
        help_text=_("The first series the player no longer plays."),
    )
    # Disqualified players stay in the standings, marked, and win no prize.
    disqualified = models.BooleanField(_("disqualified"), default=False)
    disqualification_reason = models.CharField(
        _("reason for the disqualification"), max_length=200, blank=True
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["event", "player__sort_key"]
        verbose_name = _("participant")
        verbose_name_plural = _("participants")
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="participant_once_per_event")
        ]

    def __str__(self):
        return str(self.player)

    def plays_in(self, series_number: int) -> bool:
        return self.withdrawn_from_series is None or series_number < self.withdrawn_from_series


class Group(models.Model):
    """A pair (tandem, 2 players) or team (Mannschaft, 4 players): a competition of sums."""

    class Kind(models.TextChoices):
        PAIR = "pair", _("pair")
        TEAM = "team", _("team")

    SIZE = {Kind.PAIR: 2, Kind.TEAM: 4}

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="groups", verbose_name=_("event")
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    name = models.CharField(_("name"), max_length=100)
    members = models.ManyToManyField(
        Participant, through="GroupMember", related_name="groups", verbose_name=_("members")
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["event", "kind", "name"]
        verbose_name = _("pair or team")
        verbose_name_plural = _("pairs and teams")
        constraints = [
            models.UniqueConstraint(fields=["event", "kind", "name"], name="group_name_unique"),
        ]

    def __str__(self):
        return f"{self.get_kind_display()} {self.name}"


class Category(models.Model):
    """A standing of part of the field beside the overall one: women, seniors, youth (from
    the registry's gender and birth year, rules.categories) or the club's own
    category, whose members the director chooses."""

    class Kind(models.TextChoices):
        WOMEN = "women", _("women")
        SENIORS = "seniors", _("seniors")
        YOUTH = "youth", _("youth")
        CUSTOM = "custom", _("club category")

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="categories", verbose_name=_("event")
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    name = models.CharField(_("name"), max_length=60)
    # Seniors: this age or older in the event's year; youth: this age or younger.
    age_limit = models.PositiveSmallIntegerField(_("age limit"), null=True, blank=True)
    order = models.PositiveSmallIntegerField(_("order"), default=0)
    history = HistoricalRecords()

    class Meta:
        ordering = ["event", "order", "name"]
        verbose_name = _("category")
        verbose_name_plural = _("categories")
        constraints = [
            models.UniqueConstraint(
                fields=["event", "name"],
                name="category_name_unique",
                violation_error_message=_("The event already has a category of this name."),
            ),
        ]

    def __str__(self):
        return self.name


class CategoryChoice(models.Model):
    """The director's word that a participant is, or is not, in a category, whatever the
    registry says (the only way into a club category)."""

    category = models.ForeignKey(Category, on_delete=models.CASCADE, related_name="choices")
    participant = models.ForeignKey(
        Participant, on_delete=models.CASCADE, related_name="category_choices"
    )
    included = models.BooleanField(_("in the category"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("category choice")
        verbose_name_plural = _("category choices")
        constraints = [
            models.UniqueConstraint(fields=["category", "participant"], name="one_category_choice"),
        ]

    def __str__(self):
        return f"{self.participant} – {self.category}: {self.included}"


class GroupMember(models.Model):
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="memberships")
    participant = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="+")
    # Copied from the group so the database can refuse a second pair (or team) per player.
    kind = models.CharField(max_length=10, choices=Group.Kind.choices)

    class Meta:
        verbose_name = _("member of a pair or team")
        verbose_name_plural = _("members of pairs and teams")
        constraints = [
            models.UniqueConstraint(fields=["participant", "kind"], name="one_group_of_each_kind"),
        ]

    def __str__(self):
        return f"{self.group}: {self.participant}"


class Series(models.Model):
    """A block of rounds at fixed seats (Serie)."""

    class Status(models.TextChoices):
        PLANNED = "planned", _("planned")
        SEATED = "seated", _("seated")
        IN_PLAY = "in_play", _("in play")
        COMPLETE = "complete", _("complete")

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="series", verbose_name=_("event")
    )
    number = models.PositiveSmallIntegerField(_("number"))
    planned_rounds = models.PositiveSmallIntegerField(
        _("planned rounds"), validators=[MinValueValidator(1)]
    )
    day = models.PositiveSmallIntegerField(_("day"), default=1)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PLANNED
    )
    draw_method = models.CharField(
        _("draw"), max_length=10, choices=Event.Seating.choices, blank=True
    )
    draw_seed = models.BigIntegerField(_("draw seed"), null=True, blank=True)
    # What the draw could not keep, as tournaments.draw reports it (code, table, players, detail).
    draw_violations = models.JSONField(default=list, blank=True)
    drawn_at = models.DateTimeField(null=True, blank=True)
    drawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    published = models.BooleanField(_("published"), default=False)

    class Kind(models.TextChoices):
        REGULAR = "regular", _("regular series")
        PLAYOFF = "playoff", _("playoff")

    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices, default=Kind.REGULAR)
    # For a playoff: the tie it breaks, {"line": L, "first_place": p, "participants": [ids],
    # "total": the tied total}. Regular standings never count playoff series.
    playoff_of = models.JSONField(_("playoff of"), null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["event", "number"]
        verbose_name = _("series")
        verbose_name_plural = _("series")
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="series_number_unique"),
            models.CheckConstraint(
                condition=Q(number__gte=1),
                name="series_number_positive",
                violation_error_message=_("Series are numbered from 1."),
            ),
            models.CheckConstraint(
                condition=Q(planned_rounds__gte=1),
                name="series_rounds_positive",
                violation_error_message=_("A series needs at least one round."),
            ),
        ]

    def __str__(self):
        return _("Series %(number)d") % {"number": self.number}

    @property
    def is_playoff(self) -> bool:
        return self.kind == self.Kind.PLAYOFF


class Table(models.Model):
    series = models.ForeignKey(
        Series, on_delete=models.CASCADE, related_name="tables", verbose_name=_("series")
    )
    number = models.PositiveSmallIntegerField(_("table"))

    class Meta:
        ordering = ["series", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["series", "number"], name="table_number_unique"),
        ]

    def __str__(self):
        return _("Table %(number)d") % {"number": self.number}


class Seat(models.Model):
    """Who sits where; position 0 is seat 1, the others follow clockwise."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    # Copied from the table so the database can refuse a player seated twice in a series.
    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveSmallIntegerField(_("seat"))
    participant = models.ForeignKey(
        Participant, on_delete=models.PROTECT, related_name="seats", verbose_name=_("player")
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["table", "position"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["series", "participant"], name="seat_once_per_series"),
            models.CheckConstraint(
                condition=Q(position__lte=MAX_SEATS - 1),
                name="seat_position_range",
                violation_error_message=_("A table has no seat with this number."),
            ),
        ]

    def __str__(self):
        return f"{self.table} / {self.position + 1}: {self.participant}"
