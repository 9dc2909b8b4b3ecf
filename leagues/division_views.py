"""The officer's change of a division's promotion and relegation counts (with a reason)."""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from leagues.permissions import require_officer
from leagues.seasons import services as season_services
from leagues.views import _division, _form_view


class DivisionCountsForm(forms.Form):
    promoted = forms.IntegerField(label=gettext_lazy("teams promoted"), min_value=0, max_value=100)
    relegated = forms.IntegerField(
        label=gettext_lazy("teams relegated"), min_value=0, max_value=100
    )
    reason = forms.CharField(label=gettext_lazy("reason"), max_length=100)


@login_required
@require_http_methods(["GET", "POST"])
def division_edit(request, pk):
    division = _division(request, pk)
    require_officer(request.user, division.season)
    initial = {"promoted": division.promoted, "relegated": division.relegated}
    form = DivisionCountsForm(request.POST or None, initial=initial)

    def write(data):
        return season_services.update_division(
            request.user,
            division,
            promoted=data["promoted"],
            relegated=data["relegated"],
            reason=data["reason"],
        )

    return _form_view(request, form, write, title=_("Change the division"), back=division)
