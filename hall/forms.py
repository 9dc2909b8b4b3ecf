from django import forms
from django.utils.translation import gettext_lazy as _

from hall.models import HallSettings


class FirstStartForm(forms.Form):
    club_name = forms.CharField(label=_("Club name"), max_length=200)
    club_short_name = forms.CharField(
        label=_("Short name"), max_length=30, help_text=_("As on lists, e.g. “RC Hameln”.")
    )
    town = forms.CharField(label=_("Town"), max_length=100, required=False)
    username = forms.CharField(
        label=_("Your user name"), max_length=150, help_text=_("You log in with it.")
    )
    password = forms.CharField(
        label=_("Password"), widget=forms.PasswordInput(attrs={"autocomplete": "new-password"})
    )
    password_again = forms.CharField(
        label=_("Password again"),
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean(self):
        data = super().clean()
        if data.get("password") and data.get("password") != data.get("password_again"):
            self.add_error("password_again", _("The two passwords differ."))
        return data


class HallSettingsForm(forms.ModelForm):
    class Meta:
        model = HallSettings
        fields = ["remote_direction", "backup_folder"]
