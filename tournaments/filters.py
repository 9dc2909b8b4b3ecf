import django_filters
from django.utils.translation import gettext_lazy as _

from clubs.models import Club

from .models import Event, Season


class EventFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(label=_("Name"), lookup_expr="icontains")
    club = django_filters.ModelChoiceFilter(
        label=_("Club"), queryset=Club.objects.all(), empty_label=_("all")
    )
    kind = django_filters.ChoiceFilter(
        label=_("Kind"), choices=Event.Kind.choices, empty_label=_("all")
    )
    season = django_filters.ModelChoiceFilter(
        label=_("Season"), queryset=Season.objects.select_related("club"), empty_label=_("all")
    )

    class Meta:
        model = Event
        fields = ["name", "club", "kind", "season"]
