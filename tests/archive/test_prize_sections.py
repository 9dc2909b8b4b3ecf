"""The event archive carries the data of the prize-giving (issue 29): player gender, the
disqualification, categories with the director's choices (section "categories"), entry
fees, payments and the prize plan (section "prizes", registered by the prizes app)."""

import datetime as dt
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from clubs.models import Player
from prizes.models import EntryFee, EntryPayment, PrizePlan
from scoring.archive.dump import export_event
from scoring.archive.load import import_event
from scoring.archive.validate import VERSION, ArchiveError
from tests.archive.test_archive import event, results, roundtrip, wipe  # noqa: F401
from tournaments.models import Category, CategoryChoice, Participant

pytestmark = pytest.mark.django_db

WHEN = dt.datetime(2026, 3, 14, 18, 30, tzinfo=dt.UTC)


@pytest.fixture
def prize_event(event):  # noqa: F811
    """The archive test's event with everything of the prize-giving."""
    User = get_user_model()
    cashier = User.objects.create(username="kasse")
    director = User.objects.create(username="leitung")
    people = list(Participant.objects.filter(event=event).order_by("pk").select_related("player"))
    Player.objects.filter(pk=people[0].player_id).update(gender="f")
    Player.objects.filter(pk=people[1].player_id).update(gender="d", birth_year=2010)
    Participant.objects.filter(pk=people[2].pk).update(
        disqualified=True, disqualification_reason="Karten markiert"
    )
    youth = Category.objects.create(event=event, kind="youth", name="Jugend", age_limit=18)
    women = Category.objects.create(event=event, kind="women", name="Damen", order=1)
    club = Category.objects.create(event=event, kind="custom", name="Vereinswertung", order=2)
    CategoryChoice.objects.create(category=club, participant=people[3], included=True)
    CategoryChoice.objects.create(category=women, participant=people[0], included=False)
    EntryFee.objects.create(event=event, amount=Decimal("12.50"))
    EntryFee.objects.create(event=event, category=youth, amount=Decimal("5.00"))
    EntryPayment.objects.create(
        participant=people[0], status="cash", amount=Decimal("12.50"),
        recorded_by=cashier, recorded_at=WHEN,
    )  # fmt: skip
    EntryPayment.objects.create(
        participant=people[1], status="transfer", amount=Decimal("5.00"),
        recorded_by=cashier, recorded_at=WHEN, note="Überweisung vom 10.03.",
    )  # fmt: skip
    EntryPayment.objects.create(
        participant=people[4], status="waived", amount=Decimal("12.50"),
        recorded_by=director, recorded_at=WHEN, note="Ehrenmitglied",
    )  # fmt: skip
    PrizePlan.objects.create(
        event=event,
        prizes=[{"competition": "overall", "place": 1, "amount": "50.00"},
                {"competition": "series", "place": 1, "item": "Präsentkorb"}],
        one_prize_per_player=False,
        precedence=["series", "overall", "day", "category", "pairs", "teams"],
        costs=Decimal("20.00"), costs_note="Saalmiete", public_winners=True,
        public_amounts=True, updated_by=director, updated_at=WHEN,
    )  # fmt: skip
    return event


def prize_facts(target):
    """Everything of the prize-giving, keyed by player numbers and names, never by ids."""
    people = Participant.objects.filter(event=target).select_related("player")
    categories = Category.objects.filter(event=target).order_by("name")
    plan = PrizePlan.objects.filter(event=target).first()
    return {
        "gender": sorted((p.player.player_number, p.player.gender) for p in people),
        "dq": sorted(
            (p.player.player_number, p.disqualified, p.disqualification_reason) for p in people
        ),
        "categories": [(c.kind, c.name, c.age_limit, c.order) for c in categories],
        "choices": sorted(
            CategoryChoice.objects.filter(category__event=target).values_list(
                "category__name", "participant__player__player_number", "included"
            )
        ),
        "fees": sorted(
            EntryFee.objects.filter(event=target).values_list("category__name", "amount"),
            key=str,
        ),
        "payments": sorted(
            EntryPayment.objects.filter(participant__event=target).values_list(
                "participant__player__player_number",
                "status",
                "amount",
                "note",
                "recorded_by__username",
                "recorded_at",
            )
        ),
        "plan": plan
        and (
            plan.prizes,
            plan.one_prize_per_player,
            plan.precedence,
            plan.costs,
            plan.costs_note,
            plan.public_winners,
            plan.public_amounts,
            plan.updated_by.username,
            plan.updated_at,
        ),
    }


def test_the_prize_giving_travels_and_comes_back_identical(prize_event):
    before, facts = results(prize_event), prize_facts(prize_event)
    data = roundtrip(export_event(prize_event))
    assert data["version"] == VERSION == 2
    assert [c["name"] for c in data["categories"]] == ["Jugend", "Damen", "Vereinswertung"]
    assert data["prizes"]["fees"] == [
        {"category": None, "amount": "12.50"},
        {"category": "Jugend", "amount": "5.00"},
    ]
    assert data["prizes"]["payments"][0]["recorded_by"] == "kasse"
    assert data["prizes"]["plan"]["updated_by"] == "leitung"
    assert data["participants"][2]["disqualified"] is True
    wipe(prize_event)
    assert not EntryPayment.objects.exists() and not Category.objects.exists()

    result = import_event(data)

    assert prize_facts(result.event) == facts
    assert results(result.event) == before
    assert result.created["categories"] == 3 and result.created["payments"] == 3
    # The history names the import; missing users come back without a way to log in.
    kasse = get_user_model().objects.get(username="kasse")
    assert not kasse.is_active and not kasse.has_usable_password()
    payment = EntryPayment.objects.get(participant__event=result.event, status="cash")
    assert payment.history.first().history_change_reason == "Imported from an event archive"


def test_an_archive_of_version_1_without_the_sections_still_imports(prize_event):
    data = roundtrip(export_event(prize_event))
    for key in ("categories", "prizes"):
        del data[key]
    for player in data["players"]:
        del player["gender"]
    for participant in data["participants"]:
        del participant["disqualified"], participant["disqualification_reason"]
    data["version"] = 1
    wipe(prize_event)

    new = import_event(data).event

    assert not Category.objects.filter(event=new).exists()
    assert not EntryFee.objects.filter(event=new).exists()
    assert not PrizePlan.objects.filter(event=new).exists()
    assert not Participant.objects.filter(event=new, disqualified=True).exists()
    assert Participant.objects.filter(event=new).count() == 14


def test_an_event_without_prize_data_exports_empty_sections(event):  # noqa: F811
    data = roundtrip(export_event(event))
    assert data["categories"] == []
    assert data["prizes"] == {"fees": [], "payments": [], "plan": None}
    wipe(event)
    new = import_event(data).event
    assert not EntryPayment.objects.filter(participant__event=new).exists()


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda d: d["prizes"]["fees"][1].update(category="Senioren"), "$.prizes.fees[1].category"),
        (lambda d: d["prizes"]["payments"][0].update(participant=99),
         "$.prizes.payments[0].participant"),
        (lambda d: d["prizes"]["payments"][1].update(participant=1),
         "$.prizes.payments[1].participant"),
        (lambda d: d["prizes"]["payments"][0].update(status="paid"),
         "$.prizes.payments[0].status"),
        (lambda d: d["prizes"]["fees"][0].update(amount="-3"), "$.prizes.fees[0].amount"),
        (lambda d: d["categories"][1].update(name="Jugend"), "$.categories[1].name"),
        (lambda d: d["categories"][2]["choices"][0].update(participant=77),
         "$.categories[2].choices[0].participant"),
        (lambda d: d["players"][0].update(gender="x"), "$.players[0].gender"),
    ],
)  # fmt: skip
def test_a_bad_prize_section_is_refused_at_its_path_and_nothing_is_written(
    prize_event, change, path
):
    data = roundtrip(export_event(prize_event))
    change(data)
    wipe(prize_event)
    with pytest.raises(ArchiveError) as refused:
        import_event(data)
    assert refused.value.path == path
    assert not EntryFee.objects.exists() and not Category.objects.exists()


def test_a_recorded_time_without_offset_is_read_as_utc(prize_event):
    data = roundtrip(export_event(prize_event))
    data["prizes"]["payments"][0]["recorded_at"] = "2026-03-14T18:30:00"
    wipe(prize_event)
    new = import_event(data).event
    payment = EntryPayment.objects.get(participant__event=new, status="cash")
    assert payment.recorded_at == WHEN and timezone.is_aware(payment.recorded_at)
