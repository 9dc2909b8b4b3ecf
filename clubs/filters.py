import django_filters
from django import forms
from django.utils.translation import gettext_lazy as _

from .models import Club, Player


class PlayerFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(label=_("Name or number"), method="filter_name")
    club = django_filters.ModelChoiceFilter(
        label=_("Club"), queryset=Club.objects.none(), method="filter_club", empty_label=_("all")
    )
    active = django_filters.BooleanFilter(
        label=_("Active"),
        widget=forms.Select(choices=[("", _("all")), ("true", _("yes")), ("false", _("no"))]),
    )

    class Meta:
        model = Player
        fields = ["name", "club", "active"]

    def __init__(self, *args, clubs=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.filters["club"].queryset = clubs if clubs is not None else Club.objects.all()

    def filter_name(self, queryset, name, value):
        return queryset.matching(value)

    def filter_club(self, queryset, name, value):
        return queryset.filter(current_club_id=value.pk)
