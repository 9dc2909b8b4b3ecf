"""The league's forms: they parse; the services check and write (and say what is wrong in
German, naming the field, team or player)."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from common.forms import ModelIdsField
from rules.leagues import LeagueError, parse_settings
from rules.leagues.settings import ANNUL, KEEP, PENALTY, WORST, ZERO

REASON = forms.CharField(label=_("reason"), max_length=100, required=False)


def _points_text(points: dict) -> str:
    return "; ".join(f"{k}: {'-'.join(map(str, v))}" for k, v in points.items())


def parse_points(text: str) -> dict:
    """ "4: 4-3-2-1; 3: 3-2-1" -> {"4": [4, 3, 2, 1], ...}; ValueError when unreadable."""
    out = {}
    for part in filter(None, (p.strip() for p in text.split(";"))):
        teams, _sep, values = part.partition(":")
        out[str(int(teams))] = [int(v) for v in values.replace(" ", "").split("-")]
    return out


class SeasonForm(forms.Form):
    association = forms.ModelChoiceField(queryset=None, label=_("association"))
    name = forms.CharField(label=_("name"), max_length=200)
    first_year = forms.IntegerField(label=_("first year"), min_value=1900, max_value=2200)
    last_year = forms.IntegerField(label=_("last year"), min_value=1900, max_value=2200)
    roster_deadline = forms.DateField(
        label=_("roster deadline"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    roster_min = forms.IntegerField(label=_("smallest roster"), initial=4)
    roster_max = forms.IntegerField(label=_("largest roster"), initial=8)
    team_size = forms.IntegerField(label=_("players per team and match day"), initial=4)
    drop_days = forms.IntegerField(
        label=_("match days in a higher team before a player may not drop"), initial=3
    )
    guest_players = forms.BooleanField(label=_("guest players allowed"), required=False)
    missing = forms.ChoiceField(
        label=_("a missing player counts"),
        choices=[
            (ZERO, _("0 points")),
            (WORST, _("the worst score of the day")),
            (PENALTY, _("a fixed penalty")),
        ],
    )
    missing_penalty = forms.IntegerField(label=_("penalty"), initial=0)
    points = forms.CharField(
        label=_("league points"),
        required=False,
        help_text=_("Per number of teams, e.g. “4: 4-3-2-1; 3: 3-2-1”; empty: n, n-1, …, 1."),
    )
    min_series = forms.IntegerField(label=_("series for the players' table"), initial=3)
    withdrawn = forms.ChoiceField(
        label=_("results of a withdrawn team"),
        choices=[(ANNUL, _("struck out")), (KEEP, _("kept"))],
    )
    one_club_per_division = forms.BooleanField(
        label=_("two teams of one club may not play in one division"), required=False, initial=True
    )
    reason = REASON

    def __init__(self, *args, associations=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["association"].queryset = associations

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        try:
            points = parse_points(data.get("points") or "")
        except ValueError:
            self.add_error("points", _("Write the points as “4: 4-3-2-1; 3: 3-2-1”."))
            return data
        rules = {
            k: data[k]
            for k in (
                "roster_min",
                "roster_max",
                "team_size",
                "drop_days",
                "guest_players",
                "missing",
                "missing_penalty",
                "min_series",
                "withdrawn",
                "one_club_per_division",
            )
        }
        rules["points"] = points
        try:
            data["rules"] = parse_settings(rules).to_json()
        except LeagueError as error:
            self.add_error(None, error.message(_))
        return data

    @staticmethod
    def initial_from(season) -> dict:
        cfg = season.settings
        data = cfg.to_json()
        data["points"] = _points_text(cfg.points)
        data.update(
            association=season.association_id,
            name=season.name,
            first_year=season.first_year,
            last_year=season.last_year,
            roster_deadline=season.roster_deadline,
        )
        return data


class DivisionForm(forms.Form):
    name = forms.CharField(label=_("name"), max_length=100)
    level = forms.IntegerField(label=_("level"), min_value=1, max_value=20, initial=1)
    parent = forms.ModelChoiceField(queryset=None, label=_("promotion to"), required=False)
    promoted = forms.IntegerField(label=_("teams promoted"), min_value=0, max_value=100, initial=0)
    relegated = forms.IntegerField(
        label=_("teams relegated"), min_value=0, max_value=100, initial=0
    )
    reason = REASON

    def __init__(self, *args, season=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["parent"].queryset = season.divisions.all()


class TeamForm(forms.Form):
    club = forms.ModelChoiceField(queryset=None, label=_("club"))
    name = forms.CharField(label=_("team name"), max_length=100)
    captain_name = forms.CharField(label=_("captain"), max_length=200, required=False)
    captain_username = forms.CharField(
        label=_("captain's user name"), max_length=150, required=False
    )
    reason = REASON

    def __init__(self, *args, clubs=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = clubs

    def clean_captain_username(self):
        name = self.cleaned_data["captain_username"].strip()
        if not name:
            return None
        user = get_user_model().objects.filter(username=name).first()
        if user is None:
            raise forms.ValidationError(_("There is no user “%(name)s”.") % {"name": name})
        return user


class RosterForm(forms.Form):
    player = forms.ModelChoiceField(queryset=None, label=_("player"))
    reason = REASON

    def __init__(self, *args, players=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = players


class MatchDayForm(forms.Form):
    number = forms.IntegerField(label=_("match day"), min_value=1, max_value=100)
    date = forms.DateField(label=_("date"), widget=forms.DateInput(attrs={"type": "date"}))
    host = forms.ModelChoiceField(queryset=None, label=_("host"))
    venue = forms.CharField(label=_("venue"), max_length=200, required=False)
    teams = ModelIdsField(queryset=None, label=_("teams"), widget=forms.CheckboxSelectMultiple)
    series_count = forms.IntegerField(label=_("series"), min_value=1, max_value=20, initial=3)
    reason = REASON

    def __init__(self, *args, division=None, clubs=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["host"].queryset = clubs
        self.fields["teams"].queryset = division.teams.all()


class LineupForm(forms.Form):
    players = ModelIdsField(
        queryset=None, label=_("line-up"), widget=forms.CheckboxSelectMultiple, required=False
    )
    reason = REASON

    def __init__(self, *args, roster=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["players"].queryset = roster


class DecideForm(forms.Form):
    decision = forms.ChoiceField(
        label=_("decision"), choices=[("approve", _("approve")), ("reject", _("reject"))]
    )
    note = forms.CharField(label=_("note"), max_length=200, required=False)


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("reason"), max_length=100)
