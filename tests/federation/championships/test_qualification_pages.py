"""Championships: the services (history, German messages, roles) and the qualification
list from the newest snapshot through `rules.qualification.qualify`."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import translation

from federation.championships import services
from federation.championships.selectors import qualification_page
from federation.models import Championship, Wildcard
from tests.federation.list_helpers import computed_world

DE = {"HTTP_ACCEPT_LANGUAGE": "de"}


@pytest.fixture
def world(national, region_a, region_b, affiliation_a, affiliation_b, club_a, club_b):
    return computed_world(national, club_a, club_b)


@pytest.fixture
def cup(world, national_officer):
    return services.create_championship(
        national_officer, world["ranking"], name="Deutsche Meisterschaft 2025",
        places_per_region=2, reserves_per_region=1, reason="Ausschreibung",
    )  # fmt: skip


def names(entries):
    return [e.name for e in entries]


def test_places_per_region_cut_line_and_reserves(cup, region_a, region_b):
    page = qualification_page(None, cup)
    a, b = page.blocks  # by name: Hessen, Thüringen
    assert a.region == region_a and b.region == region_b
    assert names(a.qualified) == ["Anna Albrecht", "Arno Adler"] and a.cut_rank == 3
    assert names(a.reserves) == ["Alma Arndt"]
    assert names(b.qualified) == ["Bernd Becker", "Berta Brandt"] and b.reserves == []
    assert page.qualified_count == 4 and names(page.reserves) == ["Alma Arndt"]


def test_title_holder_wildcard_and_exceptions(cup, world, national_officer, region_a):
    services.set_title_holders(national_officer, cup, [world["anna"]], reason="Meister 2024")
    services.add_wildcard(national_officer, cup, world["dora"], reason="Ausrichterin")
    services.update_championship(
        national_officer, cup, name=cup.name, places_per_region=2,
        region_places={str(region_a.pk): 1}, reserves_per_region=2, reason="Hessen 1 Platz",
    )  # fmt: skip
    cup.refresh_from_db()
    with translation.override("de"):
        page = qualification_page(None, cup)
    assert names(page.titles) == ["Anna Albrecht"]
    assert names(page.blocks[0].qualified) == ["Arno Adler"]  # Anna takes no place of Hessen
    assert names(page.blocks[0].reserves) == ["Alma Arndt"]
    assert names(page.wildcards) == ["Dora Dietz"] and page.wildcards[0].note == "Ausrichterin"
    assert page.wildcards[0].rank is None  # not listed, qualifies by the wildcard
    assert any("Titelverteidiger" in text or "Title" in text for text in page.explanations)
    assert len(page.explanations) >= 5
    assert cup.history.first().history_change_reason == "Hessen 1 Platz"


def test_services_refuse_bad_input_in_german(cup, world, national_officer, officer_a):
    with translation.override("de"):
        with pytest.raises(ValidationError) as error:
            services.create_championship(national_officer, world["ranking"], name=" ",
                                         reason="x")  # fmt: skip
        assert "Namen" in str(error.value)
        with pytest.raises(ValidationError):
            services.update_championship(
                national_officer, cup, name="X", places_per_region=-1, reserves_per_region=1,
                reason="x",
            )  # fmt: skip
        with pytest.raises(ValidationError) as error:
            services.update_championship(
                national_officer, cup, name="X", places_per_region=1, reserves_per_region=1,
                region_places={"99999": 2}, reason="x",
            )  # fmt: skip
        assert "Landesverband" in str(error.value)
        with pytest.raises(ValidationError):
            services.add_wildcard(national_officer, cup, world["dora"], reason="  ")
        with pytest.raises(ValidationError) as error:
            services.players_by_number(["A-1", "NIX-9"])
        assert "NIX-9" in str(error.value)
        with pytest.raises(ValidationError):
            services.create_championship(national_officer, world["ranking"], name="X",
                                         reason="")  # fmt: skip
    with pytest.raises(PermissionDenied):  # a regional officer may not act on the nation
        services.add_wildcard(officer_a, cup, world["dora"], reason="Gast")
    assert not Wildcard.objects.exists()


def test_the_page_and_its_forms(client, cup, world, national_officer, viewer_region_a):
    client.force_login(national_officer)
    url = reverse("federation:championship_detail", args=[cup.pk])
    text = client.get(url, **DE).content.decode()
    for expected in ("Anna Albrecht", "Schnittlinie nach Rang 3", "Nachrücker",
                     "Wie die Liste entsteht"):  # fmt: skip
        assert expected in text, expected
    answer = client.post(
        reverse("federation:championship_titles", args=[cup.pk]),
        {"numbers": "A-1, NIX-9", "reason": "Meister"}, **DE,
    )  # fmt: skip
    assert answer.status_code == 400 and "NIX-9" in answer.content.decode()
    assert not cup.title_holders.exists()
    client.post(reverse("federation:championship_titles", args=[cup.pk]),
                {"numbers": "A-1", "reason": "Meister"})  # fmt: skip
    assert list(cup.title_holders.all()) == [world["anna"]]
    client.post(reverse("federation:wildcard_add", args=[cup.pk]),
                {"player_number": "B-3", "reason": "Ausrichterin"})  # fmt: skip
    card = Wildcard.objects.get()
    assert card.player == world["dora"] and card.granted_by == national_officer
    text = client.get(url, **DE).content.decode()
    assert "Ausrichterin" in text and "Dora Dietz" in text
    remove = reverse("federation:wildcard_remove", args=[card.pk])
    client.post(remove, {"reason": ""})
    assert Wildcard.objects.exists()
    client.post(remove, {"reason": "zurückgezogen"})
    assert not Wildcard.objects.exists()
    client.force_login(viewer_region_a)  # a regional viewer sees no national championship
    assert client.get(url).status_code == 404


def test_create_and_who_may(client, world, national_officer, officer_b, region_a):
    from tests.federation.conftest import holder

    national_viewer = holder(world["ranking"].association, "viewer", "bundesleser")
    new = reverse("federation:championship_create", args=[world["ranking"].pk])
    client.force_login(officer_b)
    assert client.get(new).status_code == 404
    client.force_login(national_viewer)
    assert client.get(new).status_code == 403
    client.force_login(national_officer)
    data = {"name": "DM", "places_per_region": 3, "reserves_per_region": 2,
            f"region_{region_a.pk}": 5, "reason": "Ausschreibung"}  # fmt: skip
    answer = client.post(new, data)
    cup = Championship.objects.get(name="DM")
    assert answer.status_code == 302 and cup.region_places == {str(region_a.pk): 5}
    client.force_login(national_viewer)
    detail = reverse("federation:championship_detail", args=[cup.pk])
    assert client.get(detail).status_code == 200
    wildcard = reverse("federation:wildcard_add", args=[cup.pk])
    assert client.post(wildcard, {"player_number": "B-3", "reason": "x"}).status_code == 403
    client.logout()
    assert client.get(detail).status_code == 302
