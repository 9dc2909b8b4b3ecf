"""Forms of rankings and the ranking status. The settings are checked by the rules
themselves (`RankingSettings`); their messages are shown in German on the field."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from clubs.widgets import IsoDateInput
from common.once import SubmitsOnce
from federation.associations.forms import reason_field
from federation.rankings.models import RankingStatus
from federation.rankings.status_services import NOTE_MAX
from rules.ranking import (
    AVERAGE_PER_HAND,
    CHAMPIONSHIP,
    PLACES,
    RANKING_TOURNAMENT,
    RankingError,
    RankingSettings,
)

FORMULA_CHOICES = [
    (PLACES, _("points by place (field size − place + 1)")),
    (AVERAGE_PER_HAND, _("average per hand")),
]
# form field -> the setting it sets
_COUNTS = ("window_months", "best_n", "min_events", "min_hands", "min_field", "min_series")


class RankingForm(SubmitsOnce, forms.Form):
    name = forms.CharField(label=_("name"), max_length=200)
    formula = forms.ChoiceField(label=_("formula"), choices=FORMULA_CHOICES)
    window_months = forms.IntegerField(label=_("window in months"), initial=24)
    best_n = forms.IntegerField(label=_("results that count"), initial=5)
    min_events = forms.IntegerField(label=_("events needed to be listed"), initial=2)
    min_hands = forms.IntegerField(
        label=_("hands needed to be listed"),
        initial=48,
        help_text=_("Only for the average per hand."),
    )
    min_field = forms.IntegerField(
        label=_("players an event needs"), initial=0, help_text=_("0: no minimum.")
    )
    min_series = forms.IntegerField(
        label=_("series an event needs"), initial=0, help_text=_("0: no minimum.")
    )
    factor_ranking = forms.CharField(label=_("factor of a ranking tournament"), initial="1")
    factor_championship = forms.CharField(label=_("factor of a championship"), initial="2")
    as_of = forms.DateField(
        label=_("as of"),
        required=False,
        widget=IsoDateInput,
        help_text=_("Empty: today (a running list). A date freezes a season."),
    )
    public = forms.BooleanField(label=_("public"), required=False, initial=True)
    reason = reason_field()

    @classmethod
    def for_ranking(cls, ranking, data=None):
        settings = RankingSettings.from_json(ranking.settings or {})
        initial = {name: getattr(settings, name) for name in (*_COUNTS, "formula")}
        factors = settings.class_factors
        initial |= {
            "name": ranking.name,
            "factor_ranking": str(factors.get(RANKING_TOURNAMENT, "0")),
            "factor_championship": str(factors.get(CHAMPIONSHIP, "0")),
            "as_of": ranking.as_of,
            "public": ranking.public,
        }
        return cls(data, initial=initial)

    def clean(self):
        data = super().clean()
        if any(name in self.errors for name in (*_COUNTS, "formula")):
            return data
        raw = {name: data.get(name) for name in (*_COUNTS, "formula")}
        raw["class_factors"] = {
            RANKING_TOURNAMENT: data.get("factor_ranking", ""),
            CHAMPIONSHIP: data.get("factor_championship", ""),
        }
        try:
            data["settings"] = RankingSettings(**raw)
        except RankingError as error:
            field = {
                "ranking.window": "window_months",
                "ranking.formula": "formula",
                "ranking.count": error.params.get("setting"),
            }.get(error.code)
            if error.code == "ranking.factor":
                field = "factor_" + str(error.params.get("event_class"))
            self.add_error(field if field in self.fields else None, error.message(gettext))
        return data


class StatusRequestForm(forms.Form):
    ranking = forms.ModelChoiceField(label=_("ranking"), queryset=None, empty_label=None)
    event_class = forms.ChoiceField(
        label=_("event class"), choices=RankingStatus.EventClass.choices
    )
    reason = forms.CharField(label=_("note"), max_length=NOTE_MAX, required=False)

    def __init__(self, *args, rankings, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["ranking"].queryset = rankings


class DecisionForm(forms.Form):
    decision = forms.ChoiceField(
        label=_("decision"), choices=[("grant", _("grant")), ("refuse", _("refuse"))]
    )
    reason = forms.CharField(
        label=_("reason"),
        max_length=NOTE_MAX,
        required=False,
        help_text=_("Required for a refusal."),
    )


class NoteForm(forms.Form):
    note = forms.CharField(label=_("note"), max_length=NOTE_MAX, required=False)
