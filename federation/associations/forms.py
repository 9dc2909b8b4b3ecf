"""Forms of the federation pages. Every write asks for a reason: the history keeps it."""

from __future__ import annotations

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from clubs.widgets import IsoDateInput
from common.forms import RefusesStaleEdits
from common.once import SubmitsOnce
from common.safety import PlausibleDatesMixin
from federation.associations.models import Association, AssociationRole
from federation.associations.services import REASON_MAX


def reason_field():
    return forms.CharField(
        label=_("reason"),
        max_length=REASON_MAX,
        help_text=_("Kept in the history with your name and the time."),
    )


class AssociationForm(SubmitsOnce, RefusesStaleEdits, forms.ModelForm):
    reason = reason_field()

    class Meta:
        model = Association
        fields = ["name", "short_name", "kind", "parent"]

    def __init__(self, *args, may_reshape: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        parents = Association.objects.filter(kind=Association.Kind.NATIONAL)
        if self.instance.pk:
            parents = parents.exclude(pk=self.instance.pk)
        self.fields["parent"].queryset = parents
        self.fields["parent"].help_text = _("Only for a regional association.")
        if not may_reshape:
            # Officers rename; only an administrator moves an association in the tree.
            for name in ("kind", "parent"):
                self.fields[name].disabled = True


class AffiliateForm(PlausibleDatesMixin, forms.Form):
    club = forms.ModelChoiceField(queryset=Club.objects.none(), label=_("club"))
    since = forms.DateField(label=_("since"), initial=timezone.localdate, widget=IsoDateInput())
    note = forms.CharField(label=_("note"), max_length=200, required=False)
    reason = reason_field()

    def __init__(self, *args, clubs=None, **kwargs):
        super().__init__(*args, **kwargs)
        # A posted club is looked up among all clubs: the service decides and says why not.
        self.fields["club"].queryset = clubs if clubs is not None else Club.objects.all()


class MoveForm(PlausibleDatesMixin, forms.Form):
    association = forms.ModelChoiceField(
        queryset=Association.objects.none(), label=_("new regional association")
    )
    since = forms.DateField(label=_("since"), initial=timezone.localdate, widget=IsoDateInput())
    reason = reason_field()

    def __init__(self, *args, targets=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["association"].queryset = (
            targets if targets is not None else Association.objects.all()
        )


class ReasonForm(forms.Form):
    reason = reason_field()


class GrantRoleForm(forms.Form):
    username = forms.CharField(label=_("user name"), max_length=150)
    role = forms.ChoiceField(label=_("role"), choices=AssociationRole.Role.choices)
    reason = reason_field()
