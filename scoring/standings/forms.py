"""Forms of the standings pages: the tie-break chain with prize lines, season settings."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy

from common.forms import RefusesStaleEdits, parse_int
from rules.standings import metrics
from scoring.standings import labels
from tournaments.models import Season


class TieBreakForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Reason"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )
    prize_lines = forms.CharField(
        label=gettext_lazy("Prize lines"),
        required=False,
        help_text=gettext_lazy("Places that win a prize or qualify, e.g. “1, 3, 8”."),
    )

    def __init__(self, *args, chain=(), **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", "–")] + [
            (key, labels.metric_label(key)) for key in metrics.METRICS if key != "total"
        ]
        tie_breaks = [k for k in chain if k != "total"]
        for i in range(len(metrics.METRICS) - 1):
            self.fields[f"step_{i + 1}"] = forms.ChoiceField(
                label=gettext_lazy("Tie-break %(step)d") % {"step": i + 1},
                choices=choices,
                required=False,
                initial=tie_breaks[i] if i < len(tie_breaks) else "",
            )

    def chain(self) -> list[str]:
        steps = [self.cleaned_data.get(f"step_{i + 1}") for i in range(len(metrics.METRICS) - 1)]
        return ["total", *(s for s in steps if s)]

    def lines(self) -> list[int] | None:
        text = self.cleaned_data.get("prize_lines", "").replace(";", ",")
        if not text.strip():
            return None
        return [parse_int(x.strip(), -1) for x in text.split(",") if x.strip()]


class SeasonSettingsForm(RefusesStaleEdits, forms.ModelForm):
    class Meta:
        model = Season
        fields = ["ranking_mode", "minimum_series", "drop_start", "drop_every", "drop_maximum"]
