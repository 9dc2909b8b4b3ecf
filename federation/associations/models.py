"""The federation above the clubs: associations (a national one and regional ones below
it), each club's affiliation with one regional association, and roles per association.

clubs knows nothing of this app: the affiliation points at the club, never the other way."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from simple_history.models import HistoricalRecords

from clubs.models import Club


class Association(models.Model):
    class Kind(models.TextChoices):
        NATIONAL = "national", _("national association")
        REGIONAL = "regional", _("regional association")

    name = models.CharField(_("name"), max_length=200, unique=True)
    short_name = models.CharField(_("short name"), max_length=30, unique=True)
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    parent = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="children",
        verbose_name=_("parent association"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]
        verbose_name = _("association")
        verbose_name_plural = _("associations")
        constraints = [
            # The tree has two levels: national at the top, regional ones right below.
            models.CheckConstraint(
                condition=Q(kind="national", parent__isnull=True)
                | Q(kind="regional", parent__isnull=False),
                name="association_kind_matches_parent",
                violation_error_message=_(
                    "A national association has no parent; a regional one belongs to a "
                    "national association."
                ),
            ),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("federation:association_detail", args=[self.pk])

    def clean(self):
        super().clean()
        if self.kind == self.Kind.NATIONAL and self.parent_id is not None:
            raise ValidationError({"parent": _("A national association has no parent.")})
        if self.kind == self.Kind.REGIONAL:
            if self.parent_id is None:
                raise ValidationError(
                    {"parent": _("Choose the national association this one belongs to.")}
                )
            if self.pk is not None and self.parent_id == self.pk:
                raise ValidationError({"parent": _("An association cannot be its own parent.")})
            if self.parent.kind != self.Kind.NATIONAL:
                raise ValidationError(
                    {"parent": _("A regional association belongs to a national association.")}
                )
        if self.pk is not None and self.kind == self.Kind.REGIONAL and self.children.exists():
            raise ValidationError(
                {"kind": _("This association has regional associations below it.")}
            )
        if self.pk is not None and self.kind == self.Kind.NATIONAL and self.affiliations.exists():
            raise ValidationError(
                {"kind": _("Clubs belong to this association; only a regional one has clubs.")}
            )


class Affiliation(models.Model):
    """A club's membership of one regional association; ending it deletes the row (the
    history keeps it)."""

    club = models.OneToOneField(
        Club, on_delete=models.CASCADE, related_name="affiliation", verbose_name=_("club")
    )
    association = models.ForeignKey(
        Association,
        on_delete=models.PROTECT,
        related_name="affiliations",
        verbose_name=_("association"),
    )
    since = models.DateField(_("since"))
    note = models.CharField(_("note"), max_length=200, blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["club__name"]
        verbose_name = _("affiliation")
        verbose_name_plural = _("affiliations")

    def __str__(self):
        return f"{self.club} – {self.association}"

    def clean(self):
        super().clean()
        if self.association_id is not None and (self.association.kind != Association.Kind.REGIONAL):
            raise ValidationError(
                {"association": _("A club joins a regional association, not a national one.")}
            )


class AssociationRole(models.Model):
    """What one user may do in one association and every association below it."""

    class Role(models.TextChoices):
        OFFICER = "officer", _("ranking officer")
        VIEWER = "viewer", pgettext_lazy("association role", "viewer")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="association_roles",
        verbose_name=_("user"),
    )
    association = models.ForeignKey(
        Association, on_delete=models.CASCADE, related_name="roles", verbose_name=_("association")
    )
    role = models.CharField(_("role"), max_length=20, choices=Role.choices)
    history = HistoricalRecords()

    class Meta:
        ordering = ["association", "user__username"]
        verbose_name = _("association role")
        verbose_name_plural = _("association roles")
        constraints = [
            models.UniqueConstraint(
                fields=["user", "association"],
                name="associationrole_one_per_user_and_association",
                violation_error_message=_("This user already holds a role in this association."),
            ),
            models.CheckConstraint(
                condition=Q(role__in=["officer", "viewer"]),
                name="associationrole_role_valid",
                violation_error_message=_("Choose ranking officer or viewer as the role."),
            ),
        ]

    def __str__(self):
        return f"{self.user} – {self.association.short_name}: {self.get_role_display()}"
