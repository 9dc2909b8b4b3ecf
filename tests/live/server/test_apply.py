"""live.server.apply: the server creates its copy of a laptop's event from the first batch and
brings it up to date with later ones; the same parts twice change nothing; bad parts are
refused with nothing written."""

import copy
import hashlib

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import translation

from clubs.models import Player
from clubs.permissions import ORGANISER
from live.models import LiveToken, ReceivedEvent
from live.server.apply import ApplyError, apply_batch, create_event
from live.shared import protocol
from live.shared.parts import event_parts
from scoring.archive.dump import export_event
from scoring.demo.generate import Plan, generate_event
from scoring.models import Hand, Sheet, SheetVersion
from scoring.sheets.services import confirm_sheet, save_sheet
from tests.archive.test_archive import results, roundtrip
from tests.factories import (
    ClubFactory,
    MembershipFactory,
    ParticipantFactory,
    PlayerFactory,
    UserFactory,
    user_with_role,
)
from tournaments.models import Category, CategoryChoice, Event, Participant, Seat, Series, Table

pytestmark = pytest.mark.django_db

ORIGIN = "a" * 32
SUFFIX = " (Server)"


# ----- helpers shared with test_convergence ---------------------------------------------------


def laptop_event(players=14, series=4, seed=1):
    """The laptop's event, as the archive's tests make it: two clubs, pairs and a team,
    series 1-2 confirmed, series 3 with an entered sheet, a draft and two tables without
    a sheet, series 4 planned."""
    home = ClubFactory(name="Herz Dame Kassel", short_name="HDK", association_number="17-04")
    guest = ClubFactory(name="Kreuz Bube Fulda", short_name="KBF")
    people = []
    for i in range(players):
        player = PlayerFactory(player_number=f"K{i:04d}", given_name=f"Vorname{i}")
        MembershipFactory(player=player, club=home if i % 3 else guest)
        people.append(player)
    event = generate_event(
        Plan(name="Kasseler Herbstturnier", club=home, players=people, series=series,
             rounds=1, pairs=2, teams=1, confirmed_series=2, entered_tables=1,
             draft_tables=1, seed=seed)
    )  # fmt: skip
    return Event.objects.get(pk=event.pk)


def make_token(club):
    user = UserFactory(username="leitung", password=None)  # no hashing: quick
    return LiveToken.objects.create(
        club=club, token_hash=hashlib.sha256(b"t").hexdigest(), prefix="t", created_by=user
    )


def as_sent(parts: dict) -> dict:
    """The parts as the server reads them (through JSON). Laptop and server share one test
    database, so the server's copy is named apart: an event of the same name and day
    would be refused as a duplicate (as an archive import refuses it)."""
    parts = roundtrip(copy.deepcopy(parts))
    if protocol.EVENT in parts:
        parts[protocol.EVENT]["name"] += SUFFIX
    return parts


def batch(parts: dict, removed=(), *, event_id=1) -> dict:
    return {
        "protocol": protocol.PROTOCOL,
        "version": protocol.VERSION,
        "origin": ORIGIN,
        "event": event_id,
        "from_seq": 1,
        "to_seq": 1,
        "final": True,
        "parts": [{"key": key, "data": data} for key, data in as_sent(parts).items()],
        "removed": list(removed),
    }


def changed_parts(before: dict, after: dict) -> tuple[dict, list]:
    """What the laptop sends after a change: the parts that differ, and those gone."""
    parts = {k: v for k, v in after.items() if before.get(k) != v}
    return parts, [k for k in before if k not in after]


def comparable(event) -> dict:
    """The event's archive with what may differ between two installations taken out."""
    data = roundtrip(export_event(event))
    data.pop("exported_at")
    data["event"]["name"] = data["event"]["name"].removesuffix(SUFFIX)
    return data


def assert_same(laptop, server):
    assert comparable(server) == comparable(laptop)
    assert results(server) == results(laptop)


@pytest.fixture
def laptop():
    return laptop_event()


@pytest.fixture
def token(laptop):
    return make_token(laptop.club)


@pytest.fixture
def received(laptop, token):
    return create_event(token, batch(event_parts(laptop), event_id=laptop.pk))


def server_rows(event):
    return {
        "participants": Participant.objects.filter(event=event).count(),
        "versions": SheetVersion.objects.filter(sheet__table__series__event=event).count(),
        "hands": list(
            Hand.objects.filter(sheet__table__series__event=event).values_list("pk", flat=True)
        ),
        "seats": list(Seat.objects.filter(series__event=event).values_list("pk", flat=True)),
        "series_history": Series.history.filter(event_id=event.pk).count(),
        "version": Event.objects.get(pk=event.pk).results_version,
    }


# ----- creating ------------------------------------------------------------------------------


def test_the_first_batch_creates_an_equal_event(laptop, token, received):
    server = received.event
    assert server.pk != laptop.pk and server.club_id == laptop.club_id
    assert server.name == "Kasseler Herbstturnier (Server)"
    assert_same(laptop, server)
    assert (received.origin, received.origin_event, received.token) == (ORIGIN, laptop.pk, token)
    token.refresh_from_db()
    assert token.event == server
    # The laptop's participant ids find the server's participants, in the same order.
    refs = received.refs["participant"]
    laptop_ids = Participant.objects.filter(event=laptop).order_by("pk")
    server_ids = Participant.objects.filter(event=server).order_by("pk")
    assert [refs[str(p.pk)] for p in laptop_ids] == [p.pk for p in server_ids]
    assert received.refs.get("players", []) == []  # every player was known here already


def test_a_player_number_known_under_another_name_refuses_the_first_batch(laptop, token):
    parts = event_parts(laptop)
    # Another name than the random one it has (Faker's German names hold "Anders" too).
    renamed = Player.objects.get(player_number="K0003").family_name + "-Anders"
    Player.objects.filter(player_number="K0003").update(family_name=renamed)
    before = Event.objects.count()
    with translation.override("de"), pytest.raises(ApplyError) as refused:
        create_event(token, batch(parts, event_id=laptop.pk))
    assert "K0003" in refused.value.message and "nie zusammengeführt" in refused.value.message
    assert refused.value.path.startswith("roster $.players[")
    assert Event.objects.count() == before and not ReceivedEvent.objects.exists()


def test_another_clubs_event_is_refused(laptop):
    other = make_token(ClubFactory(short_name="XYZ"))
    with pytest.raises(PermissionDenied):
        create_event(other, batch(event_parts(laptop), event_id=laptop.pk))
    assert not ReceivedEvent.objects.exists()


def test_a_token_bound_to_an_event_creates_no_other(laptop, token, received):
    with pytest.raises(PermissionDenied):
        create_event(token, {**batch(event_parts(laptop)), "event": laptop.pk + 1})


def test_the_first_batch_needs_event_and_roster(laptop, token):
    parts = event_parts(laptop)
    parts.pop(protocol.ROSTER)
    with pytest.raises(ApplyError) as refused:
        create_event(token, batch(parts, event_id=laptop.pk))
    assert refused.value.path == "$.parts"


def test_a_first_batch_split_in_two_gives_the_same_event(laptop, token):
    parts = event_parts(laptop)
    first = {k: v for k, v in parts.items() if not k.startswith(("sheet:", "section:"))}
    rest = {k: v for k, v in parts.items() if k not in first}
    received = create_event(token, batch(first, event_id=laptop.pk))
    apply_batch(received, batch(rest, event_id=laptop.pk))
    assert_same(laptop, received.event)


# ----- later batches ---------------------------------------------------------------------------


def test_the_same_parts_again_change_nothing(laptop, received):
    server = received.event
    before = server_rows(server)
    apply_batch(received, batch(event_parts(laptop), event_id=laptop.pk))
    apply_batch(received, batch(event_parts(laptop), event_id=laptop.pk))
    assert server_rows(server) == before


def test_a_confirmation_and_a_correction_reach_the_server(laptop, received):
    server = received.event
    table = Table.objects.get(series__event=laptop, series__number=3, number=1)
    sheet = Sheet.objects.get(table=table)
    grid = sheet.versions.order_by("-number").first().grid
    confirmer = user_with_role(laptop.club, ORGANISER, username="zweite")
    before = event_parts(laptop)
    confirm_sheet(confirmer, table, grid, expected_version=sheet.version)
    after = event_parts(laptop)
    parts, removed = changed_parts(before, after)
    assert set(parts) == {"sheet:3:1"} and not removed
    version = Event.objects.get(pk=server.pk).results_version
    apply_batch(received, batch(parts, removed, event_id=laptop.pk))
    assert_same(laptop, server)
    assert Event.objects.get(pk=server.pk).results_version == version + 1

    # A correction: a hand's points change, so do the derived points on the server.
    grid = copy.deepcopy(grid)
    hand = grid["hands"][0]
    loser = next(i for i, s in enumerate(hand["seats"]) if i != hand["winner"])
    hand["seats"][loser]["hand_points"] = (hand["seats"][loser]["hand_points"] or 0) + 1
    hand["seats"][loser]["cards"] = None
    sheet.refresh_from_db()
    save_sheet(confirmer, table, grid, expected_version=sheet.version, reason="Tippfehler")
    parts, removed = changed_parts(after, event_parts(laptop))
    apply_batch(received, batch(parts, removed, event_id=laptop.pk))
    assert_same(laptop, server)


def test_a_sheet_breaking_the_rules_is_refused_at_its_part_and_nothing_is_written(laptop, received):
    server = received.event
    before = server_rows(server)
    parts = event_parts(laptop)
    sheet = copy.deepcopy(parts["sheet:1:2"])
    hand = sheet["versions"][-1]["grid"]["hands"][0]
    loser = next(i for i in range(len(hand["seats"])) if i != hand["winner"])
    hand["seats"][loser] = {"hand_points": 999, "cards": None, "melded": None}
    with translation.override("de"), pytest.raises(ApplyError) as refused:
        apply_batch(
            received,
            batch({"series:4": parts["series:4"], "sheet:1:2": sheet}, event_id=laptop.pk),
        )
    assert refused.value.path.startswith("sheet:1:2 $.versions[")
    assert "Tisch 2" in refused.value.message
    assert server_rows(server) == before
    assert_same(laptop, server)


@pytest.mark.parametrize(
    "spoil, path",
    [
        (lambda b: b.update(parts="x"), "$.parts"),
        (lambda b: b["parts"].append({"key": "sheet:x", "data": {}}), "$.parts[1].key"),
        (lambda b: b["parts"].append({"key": "series:4", "data": {}}), "$.parts[1].key"),
        (lambda b: b["parts"].append({"key": "section:unknown", "data": {}}), "$.parts[1].key"),
        (lambda b: b["parts"].append({"key": "sheet:4:9", "data": {}}), "sheet:4:9 $"),
        (lambda b: b["parts"].append({"key": "series:9", "data": {"number": 8}}),
         "series:9 $.number"),
        (lambda b: b["parts"].append({"key": "roster", "data": []}), "roster $"),
        (lambda b: b.update(removed=["event"]), "$.removed[0]"),
    ],
)  # fmt: skip
def test_a_batch_of_the_wrong_form_is_refused(laptop, received, spoil, path):
    parts = event_parts(laptop)
    sent = batch({"series:4": parts["series:4"]}, event_id=laptop.pk)
    spoil(sent)
    with translation.override("de"), pytest.raises(ApplyError) as refused:
        apply_batch(received, sent)
    assert refused.value.path == path
    assert refused.value.message


def test_a_schema_error_names_the_part_and_its_field(laptop, received):
    parts = event_parts(laptop)
    series = copy.deepcopy(parts["series:4"])
    series["status"] = "verloren"
    with pytest.raises(ApplyError) as refused:
        apply_batch(received, batch({"series:4": series}, event_id=laptop.pk))
    assert refused.value.path == "series:4 $.status"


def test_removed_parts_and_a_rule_set_change(laptop, received):
    server = received.event
    before = event_parts(laptop)
    Sheet.objects.filter(
        table__series__event=laptop, table__series__number=3, table__number=2
    ).delete()
    Series.objects.filter(event=laptop, number=4).delete()
    parts, removed = changed_parts(before, event_parts(laptop))
    assert set(removed) == {"series:4", "sheet:3:2"}
    apply_batch(received, batch(parts, removed, event_id=laptop.pk))
    assert_same(laptop, server)

    # Another rule set: every sheet gets a recompute version and new derived points.
    from scoring.sheets.services import change_ruleset

    director = user_with_role(laptop.club, ORGANISER, username="chefin", password=None)
    before = event_parts(laptop)
    change_ruleset(director, laptop, "german-minus", {"win_points": 7}, "Hausregel")
    parts, removed = changed_parts(before, event_parts(laptop))
    assert "event" in parts
    apply_batch(received, batch(parts, removed, event_id=laptop.pk))
    assert_same(laptop, server)
    assert Event.objects.get(pk=server.pk).ruleset_overrides == {"win_points": 7}


def test_applying_leaves_the_servers_document_as_it_was_read(laptop, received, monkeypatch):
    """The batch is laid over a copy of only the levels `overlay` changes (no deep copy):
    the document read from the server's rows, which the writer compares with, stays as
    it was through overlay, checks and writes (sheets, a series, removals)."""
    from live.server import apply

    read = []

    def reading(event, refs):
        document = original(event, refs)
        read.append((document, copy.deepcopy(document)))
        return document

    original = apply.current_document
    monkeypatch.setattr(apply, "current_document", reading)
    before = event_parts(laptop)
    table = Table.objects.get(series__event=laptop, series__number=3, number=1)
    sheet = Sheet.objects.get(table=table)
    confirmer = user_with_role(laptop.club, ORGANISER, username="zweite")
    confirm_sheet(confirmer, table, sheet.versions.first().grid, expected_version=sheet.version)
    Sheet.objects.filter(
        table__series__event=laptop, table__series__number=3, table__number=2
    ).delete()
    Series.objects.filter(event=laptop, number=4).update(planned_rounds=3)
    parts, removed = changed_parts(before, event_parts(laptop))
    assert {"sheet:3:1", "series:4"} <= set(parts) and removed == ["sheet:3:2"]
    apply_batch(received, batch(parts, removed, event_id=laptop.pk))
    assert_same(laptop, received.event)
    ((document, as_read),) = read
    assert document == as_read


def test_new_players_are_created_and_a_laptops_own_player_follows_its_corrections(laptop, received):
    server = received.event
    before = event_parts(laptop)
    newcomer = ParticipantFactory(
        event=laptop, player=PlayerFactory(player_number="Z0001", family_name="Neu")
    )
    parts, removed = changed_parts(before, event_parts(laptop))
    # The server has not seen Z0001: the test shares one database, so take it out here.
    sent = batch(parts, removed, event_id=laptop.pk)
    player = newcomer.player
    Participant.objects.filter(pk=newcomer.pk).delete()
    Player.objects.filter(pk=player.pk).delete()
    apply_batch(received, sent)
    made = Player.objects.get(player_number="Z0001")
    assert Participant.objects.filter(event=server, player=made).exists()
    received.refresh_from_db()
    assert received.refs["players"] == ["Z0001"]
    # The laptop corrects the name of the player it sent: the server follows.
    roster = copy.deepcopy(sent["parts"][0]["data"])
    entry = next(p for p in roster["players"] if p["player_number"] == "Z0001")
    entry["family_name"] = "Neumann"
    apply_batch(received, {**sent, "parts": [{"key": "roster", "data": roster}]})
    assert Player.objects.get(player_number="Z0001").family_name == "Neumann"
    # A registered player of this server is never renamed by a laptop.
    entry = next(p for p in roster["players"] if p["player_number"] == "K0001")
    entry["family_name"] = "Fremd"
    with pytest.raises(ApplyError) as refused:
        apply_batch(received, {**sent, "parts": [{"key": "roster", "data": roster}]})
    assert "K0001" in refused.value.message
    assert Player.objects.get(player_number="K0001").family_name != "Fremd"


def test_categories_and_prizes_are_replaced_as_sections(laptop, received):
    from prizes.models import EntryFee, EntryPayment

    server = received.event
    before = event_parts(laptop)
    people = list(Participant.objects.filter(event=laptop).order_by("pk"))
    category = Category.objects.create(event=laptop, kind="seniors", name="Senioren", age_limit=60)
    CategoryChoice.objects.create(category=category, participant=people[0], included=True)
    EntryFee.objects.create(event=laptop, category=None, amount="12.50")
    EntryFee.objects.create(event=laptop, category=category, amount="5.00")
    EntryPayment.objects.create(participant=people[1], status="cash", amount="12.50")
    parts, removed = changed_parts(before, event_parts(laptop))
    assert set(parts) == {"section:categories", "section:prizes"}
    apply_batch(received, batch(parts, removed, event_id=laptop.pk))
    assert_same(laptop, server)
    assert (
        EntryPayment.objects.get(participant__event=server).participant.player == people[1].player
    )
    # The category renamed: its fee follows (the prizes section names it).
    before = event_parts(laptop)
    Category.objects.filter(pk=category.pk).update(name="Ü60")
    parts, removed = changed_parts(before, event_parts(laptop))
    apply_batch(received, batch(parts, removed, event_id=laptop.pk))
    assert_same(laptop, server)
