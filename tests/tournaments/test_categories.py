"""Event categories and disqualifications: services, the categories page, permissions and
bad input (tournaments.categories, tournaments.category_views)."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import translation

from tests.factories import user_with_role
from tests.tournaments.conftest import make_participants
from tournaments import categories as services
from tournaments.models import Category, CategoryChoice, Event, Participant

pytestmark = pytest.mark.django_db


def version(event) -> int:
    return Event.objects.values_list("results_version", flat=True).get(pk=event.pk)


def player(participant, **fields):
    for name, value in fields.items():
        setattr(participant.player, name, value)
    participant.player.save()


@pytest.fixture
def people(event_a, club_a):
    return make_participants(event_a, 4, club=club_a)


# ----------------------------------------------------------------------------- services


def test_standard_categories_once_in_german(event_a, organiser_a):
    with translation.override("de"):
        added = services.add_standard_categories(organiser_a, event_a)
    assert [(c.kind, c.name, c.age_limit) for c in added] == [
        ("women", "Damen", None),
        ("seniors", "Senioren ab 60", 60),
        ("youth", "Jugend bis 18", 18),
    ]
    assert services.add_standard_categories(organiser_a, event_a) == []
    assert Category.objects.filter(event=event_a).count() == 3
    assert added[0].history.get().history_user == organiser_a


def test_every_write_raises_the_results_version(event_a, organiser_a, people):
    steps = [
        lambda: services.add_category(organiser_a, event_a, "Verein"),
        lambda: services.set_category_choice(organiser_a, Category.objects.get(), people[0], True),
        lambda: services.set_category_choice(organiser_a, Category.objects.get(), people[0], None),
        lambda: services.update_category(organiser_a, Category.objects.get(), name="Vereinsintern"),
        lambda: services.disqualify(organiser_a, people[1], "Absprache"),
        lambda: services.undo_disqualification(organiser_a, people[1]),
        lambda: services.delete_category(organiser_a, Category.objects.get()),
    ]
    for step in steps:
        before = version(event_a)
        step()
        assert version(event_a) == before + 1


def test_bad_names_and_age_limits_are_refused(event_a, organiser_a):
    services.add_category(organiser_a, event_a, "Damen", Category.Kind.WOMEN)
    with pytest.raises(ValidationError, match="name for the category"):
        services.add_category(organiser_a, event_a, "   ")
    with pytest.raises(ValidationError, match="already has a category “damen”"):
        services.add_category(organiser_a, event_a, "damen")
    with pytest.raises(ValidationError, match="at most 60"):
        services.add_category(organiser_a, event_a, "x" * 61)
    for bad in (0, 121, "sechzig", -5):
        with pytest.raises(ValidationError, match="age limit"):
            services.add_category(organiser_a, event_a, "Senioren", Category.Kind.SENIORS, bad)
    with pytest.raises(ValidationError):
        services.add_category(organiser_a, event_a, "Veteranen", "veterans")
    assert list(Category.objects.values_list("name", flat=True)) == ["Damen"]


def test_a_new_age_limit_carries_the_standard_name_along(event_a, organiser_a):
    services.add_standard_categories(organiser_a, event_a)
    seniors = Category.objects.get(kind="seniors")
    services.update_category(organiser_a, seniors, name=seniors.name, age_limit=65)
    seniors.refresh_from_db()
    assert (seniors.name, seniors.age_limit) == ("Seniors from 65", 65)
    services.update_category(organiser_a, seniors, name="Ü65", age_limit=66)
    seniors.refresh_from_db()
    assert (seniors.name, seniors.age_limit) == ("Ü65", 66)
    with pytest.raises(ValidationError, match="age limit"):
        services.update_category(organiser_a, seniors, age_limit=200)


def test_choices_in_out_and_back_to_the_registry(event_a, organiser_a, people):
    women = services.add_category(organiser_a, event_a, "Damen", Category.Kind.WOMEN)
    player(people[0], gender="f")
    assert services.category_members(event_a)[women.pk] == {people[0].pk}
    services.set_category_choice(organiser_a, women, people[0], False)
    services.set_category_choice(organiser_a, women, people[1], True)
    assert services.category_members(event_a)[women.pk] == {people[1].pk}
    services.set_category_choice(organiser_a, women, people[0], None)
    assert services.category_members(event_a)[women.pk] == {people[0].pk, people[1].pk}
    assert CategoryChoice.objects.count() == 1


def test_choices_in_bulk_are_all_or_nothing(event_a, organiser_a, people, club_a):
    club = services.add_category(organiser_a, event_a, "Verein")
    other = make_participants(
        services.Event.objects.create(club=club_a, name="Anderes", start_date="2026-01-01"), 1
    )[0]
    with pytest.raises(ValidationError, match="not of this event"):
        services.set_category_choices(
            organiser_a, event_a, {(club.pk, people[0].pk): True, (club.pk, other.pk): True}
        )
    assert not CategoryChoice.objects.exists()
    assert services.set_category_choices(organiser_a, event_a, {(club.pk, people[0].pk): True})
    assert services.category_members(event_a)[club.pk] == {people[0].pk}


def test_disqualification_needs_a_reason(event_a, organiser_a, people):
    with pytest.raises(ValidationError, match="reason"):
        services.disqualify(organiser_a, people[0], "  ")
    with pytest.raises(ValidationError, match="at most 200"):
        services.disqualify(organiser_a, people[0], "x" * 201)
    people[0].refresh_from_db()
    assert not people[0].disqualified
    services.disqualify(organiser_a, people[0], "Falsche  Angaben")
    people[0].refresh_from_db()
    assert (people[0].disqualified, people[0].disqualification_reason) == (True, "Falsche Angaben")
    assert people[0].history.first().history_change_reason.startswith("Disqualified")
    services.undo_disqualification(organiser_a, people[0])
    people[0].refresh_from_db()
    assert (people[0].disqualified, people[0].disqualification_reason) == (False, "")


def test_writes_need_the_organiser_role(event_a, club_a, people):
    scorer = user_with_role(club_a, "scorer", username="scorer_x")
    services.add_category(user_with_role(club_a, "organiser", username="org_x"), event_a, "V")
    category = Category.objects.get()
    for write in (
        lambda: services.add_standard_categories(scorer, event_a),
        lambda: services.add_category(scorer, event_a, "W"),
        lambda: services.update_category(scorer, category, name="Z"),
        lambda: services.delete_category(scorer, category),
        lambda: services.set_category_choice(scorer, category, people[0], True),
        lambda: services.disqualify(scorer, people[0], "Grund"),
        lambda: services.undo_disqualification(scorer, people[0]),
    ):
        with pytest.raises(PermissionDenied):
            write()


def test_the_members_read_three_queries_whatever_the_field(
    event_a, organiser_a, club_a, django_assert_num_queries
):
    services.add_standard_categories(organiser_a, event_a)
    for size in (3, 20):
        make_participants(event_a, size, club=club_a)
        with django_assert_num_queries(3):
            services.category_members(event_a)


# ----------------------------------------------------------------------------- the page


def url(event):
    return reverse("tournaments:categories", args=[event.pk])


def test_the_page_in_german_with_counts_choices_and_sorting(client, event_a, organiser_a, people):
    player(people[0], gender="f", birth_year=1950)
    player(people[1], gender="m", birth_year=2010)
    client.force_login(organiser_a)
    client.post(url(event_a), {"standard": "1"}, HTTP_ACCEPT_LANGUAGE="de")
    page = client.get(url(event_a), HTTP_ACCEPT_LANGUAGE="de")
    text = page.content.decode()
    assert page.status_code == 200
    assert "Kategorien" in text and "Senioren ab 60" in text and "Disqualifizieren" in text
    counts = {item["category"].kind: item["members"] for item in page.context["categories"]}
    assert counts == {"women": 1, "seniors": 1, "youth": 1}
    by_birth = client.get(url(event_a), {"sort": "-birth_year"}).context["rows"]
    assert (by_birth[0]["id"], by_birth[-1]["id"]) == (people[1].pk, people[0].pk)
    player(people[3], birth_year=None)  # unknown last in either direction
    for sort in ("birth_year", "-birth_year"):
        rows = client.get(url(event_a), {"sort": sort}).context["rows"]
        assert rows[-1]["id"] == people[3].pk
    # the event page links here
    assert url(event_a) in client.get(event_a.get_absolute_url()).content.decode()


def test_the_page_saves_choices_and_disqualifies(client, event_a, organiser_a, people):
    client.force_login(organiser_a)
    client.post(url(event_a), {"name": "Vereinsmeister", "kind": "custom"})
    club = Category.objects.get()
    response = client.post(
        reverse("tournaments:category_choices", args=[event_a.pk]),
        {f"choice-{club.pk}-{people[0].pk}": "in", f"choice-{club.pk}-{people[1].pk}": "auto"},
    )
    assert response.status_code == 302
    assert services.category_members(event_a)[club.pk] == {people[0].pk}
    client.post(
        reverse("tournaments:participant_disqualify", args=[people[2].pk]), {"reason": "Betrug"}
    )
    assert Participant.objects.get(pk=people[2].pk).disqualified
    client.post(reverse("tournaments:participant_requalify", args=[people[2].pk]))
    assert not Participant.objects.get(pk=people[2].pk).disqualified
    edit = reverse("tournaments:category_edit", args=[event_a.pk])
    client.post(edit, {"category": club.pk, "name": "Meister"})
    assert Category.objects.get().name == "Meister"
    client.post(edit, {"category": club.pk, "delete": "1"})
    assert not Category.objects.exists()


@pytest.mark.parametrize(
    "data, message",
    [
        ({"name": ""}, "Bitte einen Namen für die Kategorie angeben."),
        ({"name": "Ü60", "kind": "seniors", "age_limit": "999"}, "Die Altersgrenze"),
        ({"name": "Damen", "kind": "women"}, "hat schon eine Kategorie „Damen“"),
    ],
)
def test_bad_input_gets_a_german_message(client, event_a, organiser_a, data, message):
    services.add_category(organiser_a, event_a, "Damen", Category.Kind.WOMEN)
    client.force_login(organiser_a)
    response = client.post(url(event_a), data, follow=True, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 200
    assert message in response.content.decode()
    assert Category.objects.count() == 1


def test_a_bad_choice_or_missing_reason_changes_nothing(client, event_a, organiser_a, people):
    client.force_login(organiser_a)
    club = services.add_category(organiser_a, event_a, "Verein")
    choices = reverse("tournaments:category_choices", args=[event_a.pk])
    for data in (
        {f"choice-{club.pk}-{people[0].pk}": "vielleicht"},
        {f"choice-{club.pk}-x": "in"},
        {f"choice-{club.pk + 99}-{people[0].pk}": "in"},
    ):
        response = client.post(choices, data, follow=True, HTTP_ACCEPT_LANGUAGE="de")
        assert response.status_code == 200
    assert not CategoryChoice.objects.exists()
    response = client.post(
        reverse("tournaments:participant_disqualify", args=[people[0].pk]),
        {"reason": ""},
        follow=True,
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert "Bitte den Grund der Disqualifikation angeben." in response.content.decode()
    assert not Participant.objects.get(pk=people[0].pk).disqualified


def test_others_are_refused(client, event_a, club_b, people, scorer_a):
    club = Category.objects.create(event=event_a, kind="custom", name="V")
    urls = [
        url(event_a),
        reverse("tournaments:category_edit", args=[event_a.pk]),
        reverse("tournaments:category_choices", args=[event_a.pk]),
        reverse("tournaments:participant_disqualify", args=[people[0].pk]),
        reverse("tournaments:participant_requalify", args=[people[0].pk]),
    ]
    for user in (scorer_a, user_with_role(club_b, "organiser", username="org_b")):
        client.force_login(user)
        for u in urls:
            assert client.get(u).status_code in (403, 405)
            data = {"category": club.pk, "name": "X", "reason": "R", "delete": "1"}
            assert client.post(u, data).status_code == 403
    client.logout()
    assert client.get(urls[0]).status_code == 302  # to the login
    assert Category.objects.get().name == "V"
    assert not Participant.objects.get(pk=people[0].pk).disqualified
