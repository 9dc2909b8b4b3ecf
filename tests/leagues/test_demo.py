"""`make run`'s demo league: two divisions of four teams, two match days approved in each
and the third open, so the table and its pages are filled."""

import pytest
from django.test import Client
from django.urls import reverse

from leagues.models import Division, LeagueSeason, MatchDay
from leagues.selectors import table_of
from scoring.demo.seed import seed_demo


@pytest.mark.django_db
def test_demo_league():
    seed_demo()
    seed_demo()  # once only
    season = LeagueSeason.objects.get(name="Ligasaison 2026 (Demo)")
    assert season.divisions.count() == 2
    for division in Division.objects.filter(season=season):
        table = table_of(division)
        assert len(table.lines) == 4
        assert all(line.played == 2 for line in table.lines)
        assert sum(line.points for line in table.lines) == 2 * (4 + 3 + 2 + 1)
    assert MatchDay.objects.filter(division__season=season, result__isnull=True).count() == 2
    client = Client()
    top = season.divisions.get(level=1)
    assert client.get(reverse("leagues_public:division", args=[top.pk])).status_code == 200
    captain = top.teams.exclude(captain=None).get().captain
    assert captain.username == "organiser"  # the demo organiser captains Kassel's first team
    client.force_login(captain)
    day = MatchDay.objects.get(division=top, number=3)
    page = client.get(reverse("leagues:match_day", args=[day.pk]))
    assert page.status_code == 200 and 'name="team"' in page.content.decode()
