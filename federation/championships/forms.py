"""Forms of championships: places per region (with a field per regional association for an
exception), title holders and wildcards by player number."""

from __future__ import annotations

import re

from django import forms
from django.utils.translation import gettext_lazy as _

from common.once import SubmitsOnce
from federation.associations.forms import reason_field
from rules.ranking_settings import MAX_COUNT


class ChampionshipForm(SubmitsOnce, forms.Form):
    name = forms.CharField(label=_("name"), max_length=200)
    places_per_region = forms.IntegerField(
        label=_("places per regional association"), min_value=0, max_value=MAX_COUNT, initial=4
    )
    reserves_per_region = forms.IntegerField(
        label=_("reserves per regional association"), min_value=0, max_value=MAX_COUNT, initial=3
    )
    reason = reason_field()

    def __init__(self, *args, regions=(), championship=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.regions = list(regions)
        places = championship.region_places if championship else {}
        for region in self.regions:
            self.fields[f"region_{region.pk}"] = forms.IntegerField(
                label=_("places of %(region)s") % {"region": region.name},
                min_value=0,
                max_value=MAX_COUNT,
                required=False,
                initial=places.get(str(region.pk)),
                help_text=_("Empty: the number for every regional association."),
            )
        if championship is not None:
            self.fields["name"].initial = championship.name
            self.fields["places_per_region"].initial = championship.places_per_region
            self.fields["reserves_per_region"].initial = championship.reserves_per_region

    def region_places(self) -> dict[str, int]:
        data = self.cleaned_data
        return {
            str(r.pk): data[f"region_{r.pk}"]
            for r in self.regions
            if data.get(f"region_{r.pk}") is not None
        }


class TitleHoldersForm(forms.Form):
    numbers = forms.CharField(
        label=_("player numbers of the title holders"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Separated by commas, spaces or lines; empty: no title holder."),
    )
    reason = reason_field()

    def cleaned_numbers(self) -> list[str]:
        return [n for n in re.split(r"[,;\s]+", self.cleaned_data["numbers"]) if n]


class WildcardForm(forms.Form):
    player_number = forms.CharField(label=_("player number"), max_length=30)
    reason = forms.CharField(
        label=_("reason for the wildcard"),
        max_length=200,
        help_text=_("Shown on the qualification list and kept in the history."),
    )


class RemoveForm(forms.Form):
    reason = reason_field()
