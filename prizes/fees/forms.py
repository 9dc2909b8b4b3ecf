"""The entry fee form: amounts as typed ("12,50"); the service checks and parses them."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from common.forms import RefusesStaleEdits


class FeeForm(RefusesStaleEdits, forms.Form):
    """The general fee and one field per category of the event ("category-<id>")."""

    general = forms.CharField(
        label=_("Entry fee"),
        max_length=20,
        help_text=_("In euros, e.g. 12,50. 0 for no fee."),
        widget=forms.TextInput(attrs={"inputmode": "decimal", "size": 8}),
    )

    def __init__(self, *args, categories=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.categories = list(categories)
        for category in self.categories:
            self.fields[f"category-{category.pk}"] = forms.CharField(
                label=_("Entry fee for “%(category)s”") % {"category": category.name},
                max_length=20,
                required=False,
                help_text=_("Empty: the general fee."),
                widget=forms.TextInput(attrs={"inputmode": "decimal", "size": 8}),
            )

    def category_values(self) -> dict[int, str]:
        return {c.pk: self.cleaned_data.get(f"category-{c.pk}", "") for c in self.categories}


def initial_fees(schedule) -> dict[str, str]:
    """The form's start values: amounts as plain numbers, never localised in an <input>."""
    initial = {"general": "" if schedule.general is None else str(schedule.general)}
    for category_id, amount in schedule.by_category.items():
        initial[f"category-{category_id}"] = str(amount)
    return initial
