"""The prize plan page's forms: the lines (a formset; rows are added by a button that sends
the form back with more empty rows, removed by a tick: no script needed) and the rules.

The forms parse only; every rule a line must keep (one of amount, share or item, limits,
no place twice) is checked by `rules.payout.clean_lines` in the service, which
names the line."""

from __future__ import annotations

from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from prizes.models import MAX_AMOUNT, default_precedence

EXTRA_ROWS = 3
MORE_ROWS = 5
MAX_ROWS = 300

PRECEDENCE_LABELS = {
    "overall": _("Overall standing"),
    "day": _("Day standings"),
    "series": _("Series standings"),
    "category": _("Categories"),
    "pairs": _("Pairs"),
    "teams": _("Teams"),
}


def competition_choices(categories) -> list[tuple[str, str]]:
    """What a line may pay: the overall standing, every series, every day, pairs, teams and
    each of the event's categories ("category:<id>")."""
    choices = [
        ("overall", _("Overall standing")),
        ("series", _("Every series")),
        ("day", _("Every day")),
        ("pairs", _("Pairs")),
        ("teams", _("Teams")),
    ]
    for category in categories:
        choices.append(
            (f"category:{category.pk}", _("Category %(name)s") % {"name": category.name})
        )
    return choices


def number_input(step: str) -> forms.NumberInput:
    # Never localised: the browser shows "12,50" in German and sends "12.50".
    return forms.NumberInput(attrs={"step": step, "inputmode": "decimal", "class": "money"})


class PrizeLineForm(forms.Form):
    # An untouched empty row keeps its first choice: not a change, so it is skipped.
    competition = forms.ChoiceField(label=_("Standing"), initial="overall")
    place = forms.IntegerField(
        label=_("Place"), widget=forms.NumberInput(attrs={"class": "narrow", "step": "1"})
    )
    amount = forms.DecimalField(
        label=_("Amount (€)"), required=False, decimal_places=2, widget=number_input("0.01")
    )
    share = forms.DecimalField(
        label=_("Share of the pot (%)"), required=False, decimal_places=2,
        widget=number_input("0.01"),
    )  # fmt: skip
    item = forms.CharField(label=_("Non-cash prize"), required=False, max_length=120)

    def __init__(self, *args, categories=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["competition"].choices = competition_choices(categories)

    def as_line(self) -> dict:
        """The stored JSON of the line (`PrizePlan.prizes`)."""
        data = self.cleaned_data
        competition, _sep, ref = data["competition"].partition(":")
        line: dict = {"competition": competition, "place": data["place"]}
        if ref:
            line["ref"] = ref
        if data.get("amount") is not None:
            line["amount"] = str(data["amount"])
        if data.get("share") is not None:
            line["share"] = str(data["share"])
        if data.get("item"):
            line["item"] = data["item"].strip()
        return line


class BasePrizeLineFormSet(forms.BaseFormSet):
    def add_fields(self, form, index):
        super().add_fields(form, index)
        # The table's column heads do not label each row's inputs: name them per row.
        for name, field in form.fields.items():
            label = _("Remove") if name == "DELETE" else field.label
            field.widget.attrs["aria-label"] = (
                str(label)
                if index is None
                else _("Line %(line)d: %(label)s") % {"line": index + 1, "label": label}
            )

    def lines(self) -> list[dict]:
        """The lines typed, in order, without the removed and the untouched empty rows."""
        out = []
        for form in self.forms:
            if not form.has_changed() or self._should_delete_form(form):
                continue
            out.append(form.as_line())
        return out


PrizeLineFormSet = forms.formset_factory(
    PrizeLineForm,
    formset=BasePrizeLineFormSet,
    extra=EXTRA_ROWS,
    can_delete=True,
    max_num=MAX_ROWS,
    absolute_max=MAX_ROWS,
    validate_max=True,
)


def initial_lines(plan) -> list[dict]:
    """A stored plan's lines as the formset's initial rows."""
    out = []
    for line in (plan.prizes if plan else []) or []:
        competition = line.get("competition", "overall")
        if line.get("ref"):
            competition = f"{competition}:{line['ref']}"
        out.append(
            {
                "competition": competition,
                "place": line.get("place"),
                "amount": Decimal(line["amount"]) if line.get("amount") not in (None, "") else None,
                "share": Decimal(line["share"]) if line.get("share") not in (None, "") else None,
                "item": line.get("item", ""),
            }
        )
    return out


class PlanRulesForm(forms.Form):
    one_prize_per_player = forms.TypedChoiceField(
        label=_("Prizes per player"),
        choices=[
            ("1", _("One prize per player: the highest; the next in line moves up")),
            ("0", _("A player may win several prizes")),
        ],
        coerce=lambda value: value == "1",
        widget=forms.RadioSelect,
        initial="1",
    )
    costs = forms.DecimalField(
        label=_("Costs taken from the pot (€)"), min_value=Decimal("0"), max_value=MAX_AMOUNT,
        decimal_places=2, initial=Decimal("0"), widget=number_input("0.01"),
    )  # fmt: skip
    costs_note = forms.CharField(label=_("What the costs are"), required=False, max_length=200)
    public_winners = forms.BooleanField(
        label=_("Show the prize winners on the public page"), required=False, initial=True
    )
    public_amounts = forms.BooleanField(
        label=_("Show the amounts on the public page as well"), required=False
    )
    confirm_over_pot = forms.BooleanField(
        label=_("Save anyway (the plan pays more than the pot)"), required=False
    )
    # The stored plan this page was drawn from (services.plan_stamp): a save over a newer
    # one is refused (services.PlanChanged).
    seen = forms.CharField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        choices = list(PRECEDENCE_LABELS.items())
        for n, key in enumerate(default_precedence(), start=1):
            self.fields[f"precedence_{n}"] = forms.ChoiceField(
                label=_("Order of precedence %(n)d.") % {"n": n}, choices=choices, initial=key
            )

    def precedence_fields(self):
        return [self[f"precedence_{n}"] for n in range(1, len(PRECEDENCE_LABELS) + 1)]

    def precedence(self) -> list[str]:
        return [self.cleaned_data[f"precedence_{n}"] for n in range(1, len(PRECEDENCE_LABELS) + 1)]


def rules_initial(plan, stamp: str) -> dict:
    if plan is None:
        return {"seen": stamp}
    initial = {
        "seen": stamp,
        "one_prize_per_player": "1" if plan.one_prize_per_player else "0",
        "costs": plan.costs,
        "costs_note": plan.costs_note,
        "public_winners": plan.public_winners,
        "public_amounts": plan.public_amounts,
    }
    for n, key in enumerate(plan.precedence or default_precedence(), start=1):
        initial[f"precedence_{n}"] = key
    return initial
