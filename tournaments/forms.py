from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from clubs.widgets import IsoDateInput
from common.forms import RefusesStaleEdits
from common.once import SubmitsOnce
from common.safety import PlausibleDatesMixin
from rules import PRESETS, RuleSetError
from tournaments import services

from .models import Event, Group, Participant, Season, Series

# The common overrides offered when an event is created: (field, label).
OVERRIDE_FIELDS = (
    "joker_points",
    "first_meld_minimum",
    "hand_romme_multiplier",
    "target_score",
    "ties",
)
YES_NO_PRESET = [("", _("as the rule set says")), ("yes", _("yes")), ("no", _("no"))]
TIES_CHOICES = [
    ("", _("as the rule set says")),
    ("playoff", _("level totals share the rank and are played off")),
    ("chain", _("the tie-break chain separates them")),
]


class EventForm(SubmitsOnce, RefusesStaleEdits, PlausibleDatesMixin, forms.ModelForm):
    """Create or edit an event; the rule-set part is left out once the event has series."""

    joker_points = forms.IntegerField(
        label=_("joker in hand counts"),
        required=False,
        help_text=_("Leave empty for the rule set's value."),
    )
    first_meld_minimum = forms.IntegerField(
        label=_("first meld at least"),
        required=False,
        help_text=_("Leave empty for the rule set's value."),
    )
    hand_romme_multiplier = forms.IntegerField(
        label=_("hand Rommé multiplies hand points by"),
        required=False,
        help_text=_("Leave empty for the rule set's value."),
    )
    target_score = forms.IntegerField(
        label=_("a session ends when a player reaches"),
        required=False,
        min_value=0,
        help_text=_(
            "Points, e.g. 500 (Treppenrommé). 0: no target, a fixed number of rounds per "
            "dealer. Leave empty for the rule set's value."
        ),
    )
    ties = forms.ChoiceField(label=_("ties"), choices=TIES_CHOICES, required=False)
    stock_may_run_out = forms.TypedChoiceField(
        label=_("a hand may end when the stock runs out"),
        choices=YES_NO_PRESET,
        required=False,
        coerce=lambda v: {"yes": True, "no": False}.get(v),
        empty_value=None,
    )

    class Meta:
        model = Event
        fields = [
            "club",
            "name",
            "kind",
            "season",
            "start_date",
            "end_date",
            "venue",
            "ruleset_slug",
            "rounds_per_series",
            "later_series_seating",
            "avoid_same_club",
            "avoid_repeat_opponents",
            "blind_confirmation",
        ]
        widgets = {"start_date": IsoDateInput(), "end_date": IsoDateInput()}

    def __init__(self, *args, clubs=None, **kwargs):
        super().__init__(*args, **kwargs)
        editing = self.instance.pk is not None
        if editing:
            del self.fields["club"]
            self.fields["season"].queryset = Season.objects.filter(club_id=self.instance.club_id)
        else:
            clubs = clubs if clubs is not None else Club.objects.none()
            self.fields["club"].queryset = clubs
            self.fields["season"].queryset = Season.objects.filter(club__in=clubs).select_related(
                "club"
            )
            if len(clubs) == 1:
                self.fields["club"].initial = clubs[0].pk
        self.ruleset_editable = not (editing and self.instance.series.exists())
        if not self.ruleset_editable:
            for name in ("ruleset_slug", *OVERRIDE_FIELDS, "stock_may_run_out"):
                del self.fields[name]
        elif editing:
            overrides = self.instance.ruleset_overrides or {}
            for name in OVERRIDE_FIELDS:
                self.fields[name].initial = overrides.get(name)
            if "target_score" in overrides and overrides["target_score"] is None:
                self.fields["target_score"].initial = 0
            if "stock_may_run_out" in overrides:
                self.fields["stock_may_run_out"].initial = (
                    "yes" if overrides["stock_may_run_out"] else "no"
                )

    def clean(self):
        data = super().clean()
        if self.ruleset_editable and data.get("ruleset_slug") in PRESETS:
            overrides = dict(self.instance.ruleset_overrides or {}) if self.instance.pk else {}
            for name in (*OVERRIDE_FIELDS, "stock_may_run_out"):
                overrides.pop(name, None)
                if data.get(name) not in (None, ""):
                    overrides[name] = data[name]
            if overrides.get("target_score") == 0:
                overrides["target_score"] = None  # 0: fixed rounds, no target
            try:
                ruleset = PRESETS[data["ruleset_slug"]].derive(**overrides)
            except RuleSetError as error:
                for name, messages in services.ruleset_errors(error).items():
                    self.add_error(name if name in self.fields else None, messages)
            else:
                data["ruleset_overrides"] = ruleset.overrides()
        return data

    def service_fields(self) -> dict:
        """The cleaned data as the event services take it."""
        data = dict(self.cleaned_data)
        for name in (*OVERRIDE_FIELDS, "stock_may_run_out"):
            data.pop(name, None)
        return data


class SeasonForm(SubmitsOnce, RefusesStaleEdits, PlausibleDatesMixin, forms.ModelForm):
    class Meta:
        model = Season
        fields = ["name", "start_date", "end_date"]
        widgets = {"start_date": IsoDateInput(), "end_date": IsoDateInput()}

    def clean(self):
        data = super().clean()
        start, end = data.get("start_date"), data.get("end_date")
        if start and end and end < start:
            self.add_error("end_date", _("The season ends before it starts."))
        return data


class PlayerSearchForm(forms.Form):
    q = forms.CharField(label=_("Name or number"), required=False, max_length=100)


class ParticipantListForm(forms.Form):
    """Many players at once: a pasted list (numbers or names, one per line) or a club."""

    text = forms.CharField(
        label=_("Player numbers or names, one per line"),
        help_text=_(
            "A family name alone is enough where one player has it, or one member of the "
            "event's club."
        ),
        required=False,
        max_length=50_000,
        widget=forms.Textarea(attrs={"rows": 6}),
    )
    club = forms.ModelChoiceField(
        label=_("or all active members of the club"),
        queryset=Club.objects.none(),
        required=False,
        empty_label="–",
    )
    checked_in = forms.BooleanField(label=_("checked in"), required=False, initial=True)

    def __init__(self, *args, clubs, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = clubs

    def clean(self):
        data = super().clean()
        if not data.get("text", "").strip() and data.get("club") is None:
            raise ValidationError(_("Paste a list of players or choose a club."))
        return data


class NewPlayerForm(SubmitsOnce, PlausibleDatesMixin, forms.Form):
    """A player registered on the spot, who is not in the registry yet."""

    given_name = forms.CharField(label=_("given name"), max_length=100)
    family_name = forms.CharField(label=_("family name"), max_length=100)
    player_number = forms.CharField(
        label=_("player number"),
        max_length=30,
        required=False,
        help_text=_("Leave empty if the player has none; a number is generated."),
    )
    birth_year = forms.IntegerField(
        label=_("birth year"), required=False, min_value=1900, max_value=2100
    )
    club = forms.ModelChoiceField(
        label=_("club"),
        queryset=Club.objects.all(),
        required=False,
        help_text=_("Recorded as a membership only in clubs where you are an organiser."),
    )
    checked_in = forms.BooleanField(label=_("checked in"), required=False, initial=True)
    allow_lookalike = forms.BooleanField(
        label=_("This is a different person; create a new player anyway"),
        required=False,
        widget=forms.HiddenInput,
    )


class WithdrawForm(forms.Form):
    from_series = forms.IntegerField(label=_("from series"), min_value=1)


class GroupForm(SubmitsOnce, forms.Form):
    kind = forms.ChoiceField(label=_("kind"), choices=Group.Kind.choices)
    name = forms.CharField(label=_("name"), max_length=100)
    member_1 = forms.ModelChoiceField(label=_("player 1"), queryset=Participant.objects.none())
    member_2 = forms.ModelChoiceField(label=_("player 2"), queryset=Participant.objects.none())
    member_3 = forms.ModelChoiceField(
        label=_("player 3"),
        queryset=Participant.objects.none(),
        required=False,
        help_text=_("Teams only."),
    )
    member_4 = forms.ModelChoiceField(
        label=_("player 4"),
        queryset=Participant.objects.none(),
        required=False,
        help_text=_("Teams only."),
    )
    MEMBER_FIELDS = ("member_1", "member_2", "member_3", "member_4")

    def __init__(self, *args, event: Event, **kwargs):
        super().__init__(*args, **kwargs)
        participants = Participant.objects.filter(event=event).select_related("player")
        for name in self.MEMBER_FIELDS:
            self.fields[name].queryset = participants

    def members(self) -> list[Participant]:
        return [self.cleaned_data[n] for n in self.MEMBER_FIELDS if self.cleaned_data.get(n)]


class SeriesForm(SubmitsOnce, PlausibleDatesMixin, forms.ModelForm):
    class Meta:
        model = Series
        fields = ["planned_rounds", "day"]


class SwapForm(forms.Form):
    player_a = forms.TypedChoiceField(label=_("player"), coerce=int)
    player_b = forms.TypedChoiceField(label=_("swap with"), coerce=int)

    def __init__(self, *args, seats=(), **kwargs):
        super().__init__(*args, **kwargs)
        choices = [
            (row.participant.pk, f"{row.participant.player} ({row.table}/{row.seat})")
            for row in seats
        ]
        self.fields["player_a"].choices = choices
        self.fields["player_b"].choices = choices

    def clean(self):
        data = super().clean()
        if data.get("player_a") is not None and data.get("player_a") == data.get("player_b"):
            raise ValidationError(_("Choose two different players."))
        return data
