"""Who plays and who may do what: clubs, players, memberships and per-club roles."""

import functools
import unicodedata

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords


class Club(models.Model):
    name = models.CharField(_("name"), max_length=200, unique=True)
    short_name = models.CharField(_("short name"), max_length=30, unique=True)
    town = models.CharField(_("town"), max_length=100, blank=True)
    association_number = models.CharField(
        _("association number"),
        max_length=30,
        blank=True,
        help_text=_("The club's number with the federation, if it has one."),
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        constraints = [
            # Blank means "none yet": several clubs may lack a number, none may share one.
            models.UniqueConstraint(
                fields=["association_number"],
                condition=~Q(association_number=""),
                name="club_association_number_unique",
            ),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("clubs:club_detail", args=[self.pk])


class PlayerQuerySet(models.QuerySet):
    def matching(self, query: str):
        """Players matching every word: part of a name (any case, Müller = Muller) or number."""
        condition = Q()
        for word in query.split():
            folded = fold_german(word)
            word_matches = Q(name_key__contains=word.casefold()) | Q(player_number__icontains=word)
            if folded:
                word_matches |= Q(sort_key__contains=folded)
            condition &= word_matches
        return self.filter(condition)

    def with_current_club(self, on=None):
        """Annotate the short name of the club the player belongs to on a day (today)."""
        from django.db.models import OuterRef, Subquery
        from django.utils import timezone

        day = on or timezone.localdate()
        current = (
            Membership.objects.filter(player=OuterRef("pk"), valid_from__lte=day)
            .filter(Q(valid_until__isnull=True) | Q(valid_until__gte=day))
            .order_by("-valid_from")
        )
        return self.annotate(
            current_club_id=Subquery(current.values("club_id")[:1]),
            current_club_short=Subquery(current.values("club__short_name")[:1]),
        )


def make_name_key(given_name: str, family_name: str) -> str:
    return f"{given_name.strip()} {family_name.strip()}".casefold()


@functools.lru_cache(maxsize=65_536)  # a federation's 10,000 names and clubs, sorted often
def fold_german(text: str) -> str:
    """DIN 5007-1 folding: Ä with A, ß as ss, accents dropped; only a-z and digits remain."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if c.isascii() and c.isalnum())


def make_sort_key(given_name: str, family_name: str, player_number: str = "") -> str:
    # Only [a-z0-9] with "0" as separator: byte order (SQLite, PostgreSQL "C") and
    # linguistic collations (PostgreSQL de_DE, ICU) then agree, so lists sort alike everywhere.
    return "0".join(
        [fold_german(family_name), fold_german(given_name), fold_german(player_number)]
    )[:240]


class Gender(models.TextChoices):
    FEMALE = "f", _("female")
    MALE = "m", _("male")
    DIVERSE = "d", _("diverse")


class Player(models.Model):
    given_name = models.CharField(_("given name"), max_length=100)
    family_name = models.CharField(_("family name"), max_length=100)
    player_number = models.CharField(
        _("player number"),
        max_length=30,
        unique=True,
        help_text=_("A unique number, such as the federation's pass number."),
    )
    birth_year = models.PositiveSmallIntegerField(_("birth year"), null=True, blank=True)
    # Optional; only the women's category standing reads it (rules.categories).
    gender = models.CharField(_("gender"), max_length=1, choices=Gender.choices, blank=True)
    active = models.BooleanField(_("active"), default=True)
    # Case-folded "given family" for search and look-alike checks; SQLite folds only ASCII.
    name_key = models.CharField(max_length=201, editable=False, db_index=True, default="")
    # German alphabetical order (family, given, number); see make_sort_key.
    sort_key = models.CharField(max_length=240, editable=False, db_index=True, default="")
    clubs = models.ManyToManyField(Club, through="Membership", related_name="players")
    history = HistoricalRecords()

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["sort_key"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.CheckConstraint(
                condition=Q(birth_year__isnull=True)
                | (Q(birth_year__gte=1900) & Q(birth_year__lte=2100)),
                name="player_birth_year_plausible",
                violation_error_message=_("Enter a birth year between 1900 and 2100."),
            ),
            models.CheckConstraint(
                condition=~Q(player_number=""),
                name="player_number_not_blank",
                violation_error_message=_("The player number may not be empty."),
            ),
        ]

    def __str__(self):
        return f"{self.family_name}, {self.given_name}"

    def save(self, *args, **kwargs):
        self.derive_keys()
        if kwargs.get("update_fields") is not None:
            kwargs["update_fields"] = {*kwargs["update_fields"], "name_key", "sort_key"}
        super().save(*args, **kwargs)

    def get_absolute_url(self):
        return reverse("clubs:player_detail", args=[self.pk])

    def derive_keys(self) -> None:
        """Search and sort keys from the names; every write path calls this (bulk ones too)."""
        self.name_key = make_name_key(self.given_name, self.family_name)
        self.sort_key = make_sort_key(self.given_name, self.family_name, self.player_number)

    @property
    def full_name(self):
        return f"{self.given_name} {self.family_name}"


class Membership(models.Model):
    """A player's membership of a club over a period; ended ones stay as history."""

    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("player")
    )
    club = models.ForeignKey(
        Club, on_delete=models.PROTECT, related_name="memberships", verbose_name=_("club")
    )
    valid_from = models.DateField(_("from"))
    valid_until = models.DateField(_("until"), null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["player", "-valid_from"]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.CheckConstraint(
                condition=Q(valid_until__isnull=True) | Q(valid_until__gte=models.F("valid_from")),
                name="membership_until_after_from",
                violation_error_message=_("A membership cannot end before it begins."),
            ),
            models.UniqueConstraint(
                fields=["player", "club"],
                condition=Q(valid_until__isnull=True),
                name="membership_one_open_per_club",
            ),
        ]

    def __str__(self):
        until = self.valid_until.isoformat() if self.valid_until else "…"
        return f"{self.player} – {self.club.short_name} ({self.valid_from.isoformat()}–{until})"

    def is_current(self, on):
        return self.valid_from <= on and (self.valid_until is None or self.valid_until >= on)


class ClubRole(models.Model):
    """What one user may do in one club; enforced by clubs.permissions on every write."""

    class Role(models.TextChoices):
        ORGANISER = "organiser", _("organiser")
        SCORER = "scorer", _("scorer")
        VIEWER = "viewer", _("viewer")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="club_roles",
        verbose_name=_("user"),
    )
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="roles", verbose_name=_("club")
    )
    role = models.CharField(_("role"), max_length=20, choices=Role.choices)
    history = HistoricalRecords()

    class Meta:
        ordering = ["club", "user__username"]
        verbose_name = _("club role")
        verbose_name_plural = _("club roles")
        constraints = [
            models.UniqueConstraint(fields=["user", "club"], name="clubrole_one_per_user_and_club"),
            models.CheckConstraint(
                condition=Q(role__in=["organiser", "scorer", "viewer"]),
                name="clubrole_role_valid",
                violation_error_message=_("Choose organiser, scorer or viewer as the role."),
            ),
        ]

    def __str__(self):
        return f"{self.user} – {self.club.short_name}: {self.get_role_display()}"


class PlayerImport(models.Model):
    """An uploaded registry file, kept so the preview and the confirmation read the same bytes."""

    class Status(models.TextChoices):
        PREVIEW = "preview", _("preview")
        APPLIED = "applied", _("applied")
        DISCARDED = "discarded", _("discarded")

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="imports", verbose_name=_("club")
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, verbose_name=_("uploaded by")
    )
    created_at = models.DateTimeField(_("uploaded at"), auto_now_add=True)
    filename = models.CharField(_("file name"), max_length=255)
    content = models.BinaryField()
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.PREVIEW
    )
    applied_at = models.DateTimeField(_("applied at"), null=True, blank=True)
    summary = models.JSONField(_("summary"), default=dict, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("player import")
        verbose_name_plural = _("player imports")

    def __str__(self):
        return f"{self.filename} ({self.club.short_name}, {self.get_status_display()})"
