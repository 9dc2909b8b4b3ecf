"""Championships qualified for from a ranking (issue 27, point 5): places per regional
association, title holders, and the officer's wildcards (`rules.qualification`)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from clubs.models import Player
from federation.rankings.models import Ranking


class Championship(models.Model):
    """A championship qualified for from a ranking: places per regional association, title
    holders, wildcards (`rules.qualification`)."""

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
