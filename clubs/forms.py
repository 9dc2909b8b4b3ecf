from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from common import limits
from common.forms import RefusesStaleEdits
from common.once import SubmitsOnce
from common.safety import PlausibleDatesMixin

from .models import Club, ClubRole, Player
from .widgets import IsoDateInput


class ClubForm(SubmitsOnce, RefusesStaleEdits, forms.ModelForm):
    class Meta:
        model = Club
        fields = ["name", "short_name", "town", "association_number"]


class PlayerForm(RefusesStaleEdits, PlausibleDatesMixin, forms.ModelForm):
    class Meta:
        model = Player
        fields = ["given_name", "family_name", "player_number", "birth_year", "gender", "active"]


class NewPlayerForm(SubmitsOnce, PlayerForm):
    member_from = forms.DateField(
        label=_("member from"),
        initial=timezone.localdate,
        widget=IsoDateInput(),
    )
    allow_lookalike = forms.BooleanField(
        label=_("This is a different person; create a new player anyway"),
        required=False,
        widget=forms.HiddenInput,
    )


class JoinClubForm(PlausibleDatesMixin, forms.Form):
    club = forms.ModelChoiceField(queryset=Club.objects.none(), label=_("club"))
    valid_from = forms.DateField(label=_("from"), initial=timezone.localdate, widget=IsoDateInput())

    def __init__(self, *args, clubs, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = clubs


class EndMembershipForm(PlausibleDatesMixin, forms.Form):
    valid_until = forms.DateField(
        label=_("until"), initial=timezone.localdate, widget=IsoDateInput()
    )


class ClubUserForm(forms.Form):
    username = forms.CharField(label=_("user name"), max_length=150)
    password = forms.CharField(label=_("password"), widget=forms.PasswordInput)
    role = forms.ChoiceField(label=_("role"), choices=ClubRole.Role.choices)


class RoleForm(forms.Form):
    role = forms.ChoiceField(label=_("role"), choices=ClubRole.Role.choices)


class PlayerFileForm(forms.Form):
    file = forms.FileField(
        label=_("file (CSV or Excel)"),
        help_text=_(
            "First row: Spielernummer, Vorname, Nachname; optional Geburtsjahr, Aktiv, "
            "Mitglied seit."
        ),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        try:
            limits.check_size(upload.size, "player_file_bytes")
        except limits.LimitExceeded as error:
            raise forms.ValidationError(str(error), code=error.name) from None
        return upload
