"""The event archive: export, refuse broken files with the path of the first bad field,
import all or nothing, and get the same results back."""

import datetime as dt
import json
from collections import defaultdict

import pytest
from django.contrib.auth import get_user_model
from django.db.models import Sum

from clubs.models import Club, Membership, Player
from scoring.archive.dump import dumps, export_event
from scoring.archive.load import import_event, loads
from scoring.archive.validate import VERSION, ArchiveError
from scoring.demo.generate import Plan, generate_event
from scoring.models import Hand, HandSeat, Sheet, SheetVersion
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory
from tournaments.models import (
    Event,
    Group,
    GroupMember,
    Participant,
    Season,
    Seat,
    Series,
    Table,
)

pytestmark = pytest.mark.django_db

MODELS = [
    get_user_model(),
    Club,
    Player,
    Membership,
    Season,
    Event,
    Participant,
    Group,
    GroupMember,
    Series,
    Table,
    Seat,
    Sheet,
    SheetVersion,
    Hand,
    HandSeat,
]


def row_counts():
    return {model.__name__: model.objects.count() for model in MODELS}


@pytest.fixture
def event():
    """14 players of two clubs, 2 pairs and a team; series 1-2 confirmed, series 3 with an
    entered sheet, a draft and two tables without a sheet; series 4 only planned."""
    home = ClubFactory(name="Herz Dame Kassel", short_name="HDK", association_number="17-04")
    guest = ClubFactory(name="Kreuz Bube Fulda", short_name="KBF")
    players = []
    for i in range(14):
        player = PlayerFactory(player_number=f"K{i:04d}", given_name=f"Vorname{i}")
        MembershipFactory(player=player, club=home if i % 3 else guest)
        players.append(player)
    season = Season.objects.create(
        club=home, name="2026", start_date=dt.date(2026, 1, 1), end_date=dt.date(2026, 12, 31)
    )
    event = generate_event(
        Plan(name="Kasseler Herbstturnier", club=home, players=players, series=4, rounds=1,
             pairs=2, teams=1, confirmed_series=2, entered_tables=1, draft_tables=1,
             season=season)
    )  # fmt: skip
    Event.objects.filter(pk=event.pk).update(venue="Bürgerhaus", ruleset_overrides={})
    # A playoff-like series record that names participants by id inside its JSON.
    first, second = Participant.objects.filter(event=event).order_by("pk")[:2]
    Series.objects.filter(event=event, number=1).update(
        draw_violations=[{"code": "same-club", "table": 1, "players": [first.pk, second.pk]}]
    )
    return Event.objects.get(pk=event.pk)


def results(event):
    """What must survive the trip, keyed by player numbers and numbers, never by ids."""
    totals = dict(
        HandSeat.objects.filter(participant__event=event)
        .values_list("participant__player__player_number")
        .annotate(total=Sum("points"))
    )
    per_series = {
        (series, number): total
        for series, number, total in HandSeat.objects.filter(participant__event=event)
        .values_list("hand__sheet__table__series__number", "participant__player__player_number")
        .annotate(total=Sum("points"))
    }
    seating = defaultdict(list)
    for series, table, number in (
        Seat.objects.filter(series__event=event)
        .order_by("series__number", "table__number", "position")
        .values_list("series__number", "table__number", "participant__player__player_number")
    ):
        seating[(series, table)].append(number)
    sheets = {
        (s.table.series.number, s.table.number): (s.status, s.version, s.versions.count())
        for s in Sheet.objects.filter(table__series__event=event).select_related("table__series")
    }
    versions = sorted(
        SheetVersion.objects.filter(sheet__table__series__event=event).values_list(
            "sheet__table__series__number",
            "sheet__table__number",
            "number",
            "kind",
            "created_by__username",
            "created_at",
        )
    )
    groups = sorted(
        (
            g.kind,
            g.name,
            tuple(sorted(m.participant.player.player_number for m in g.memberships.all())),
        )
        for g in Group.objects.filter(event=event).prefetch_related(
            "memberships__participant__player"
        )
    )
    id_order = list(
        Participant.objects.filter(event=event)
        .order_by("pk")
        .values_list("player__player_number", flat=True)
    )
    series = list(
        Series.objects.filter(event=event)
        .order_by("number")
        .values_list(
            "number", "status", "draw_method", "draw_seed", "published", "drawn_by__username"
        )
    )
    return {
        "totals": totals,
        "per_series": per_series,
        "seating": dict(seating),
        "sheets": sheets,
        "versions": versions,
        "groups": groups,
        "participant_order": id_order,
        "series": series,
        "hands": Hand.objects.filter(sheet__table__series__event=event).count(),
    }


def wipe(event):
    """Remove the event, its players, clubs and users: a fresh installation."""
    club_ids = {
        event.club_id,
        *Participant.objects.filter(event=event).values_list("club_id", flat=True),
    }
    player_ids = list(Participant.objects.filter(event=event).values_list("player_id", flat=True))
    Hand.objects.filter(sheet__table__series__event=event).delete()
    Sheet.objects.filter(table__series__event=event).delete()
    Series.objects.filter(event=event).delete()
    season = event.season
    event.delete()
    if season:
        season.delete()
    Membership.objects.filter(player_id__in=player_ids).delete()
    Player.objects.filter(pk__in=player_ids).delete()
    Club.objects.filter(pk__in=club_ids).delete()
    get_user_model().objects.all().delete()


def roundtrip(data):
    return loads(dumps(data))


# ----- the format ------------------------------------------------------------------------


def test_export_holds_raw_facts_only(event):
    data = roundtrip(export_event(event))
    assert data["format"] == "romme-ledger-event" and data["version"] == VERSION
    assert data["event"]["ruleset"] == {"slug": "german-minus", "overrides": {}}
    assert data["event"]["club"]["short_name"] == "HDK"
    assert data["event"]["season"]["name"] == "2026"
    assert data["event"]["venue"] == "Bürgerhaus"
    assert data["event"]["created_by"] == "organiser"
    # Fields read from the model, including ones added after this module was written.
    concrete = {f.name for f in Event._meta.concrete_fields} - {"id", "club", "season"}
    concrete -= {"ruleset_slug", "ruleset_overrides"}
    # this installation's counter for caches (tournaments.results), not a fact of the event
    concrete -= {"results_version", "results_changed_at"}
    assert concrete <= set(data["event"])
    assert [c["short_name"] for c in data["clubs"]] == ["KBF"]
    assert len(data["players"]) == len(data["participants"]) == 14
    assert {g["kind"] for g in data["groups"]} == {"pair", "team"}
    assert data["series"][0]["draw_violations"][0]["players"] == [1, 2]
    sheet = data["series"][0]["tables"][0]["sheet"]
    assert sheet["status"] == "confirmed"
    assert [v["kind"] for v in sheet["versions"]] == ["entry", "confirmation"]
    assert sheet["versions"][0]["created_by"] == "scorer"
    text = json.dumps(data)
    assert '"points"' not in text  # derived points do not travel
    statuses = [t["sheet"] and t["sheet"]["status"] for t in data["series"][2]["tables"]]
    assert statuses == ["entered", "draft", None, None]
    assert data["series"][3]["tables"] == []


# ----- the round trip ---------------------------------------------------------------------


def test_round_trip_into_a_fresh_installation_gives_identical_results(event):
    before = results(event)
    data = roundtrip(export_event(event))
    wipe(event)
    assert not Player.objects.exists() and not Club.objects.exists()

    result = import_event(data)

    new = result.event
    assert results(new) == before
    assert new.name == "Kasseler Herbstturnier" and new.venue == "Bürgerhaus"
    assert new.club.association_number == "17-04"
    assert new.season.name == "2026" and new.season.club == new.club
    assert new.created_at.isoformat() == data["event"]["created_at"]
    assert Club.objects.filter(short_name="KBF").exists()
    # Users are recreated for the audit trail, without a way to log in.
    scorer = get_user_model().objects.get(username="scorer")
    assert not scorer.is_active and not scorer.has_usable_password()
    # Ids inside series JSON point at the new participants.
    first, second = Participant.objects.filter(event=new).order_by("pk")[:2]
    violations = Series.objects.get(event=new, number=1).draw_violations
    assert violations[0]["players"] == [first.pk, second.pk]
    # The same archive again from the imported event.
    again = roundtrip(export_event(new))
    for document in (again, data):
        document.pop("exported_at")
    assert again == data
    assert result.created["events"] == 1 and result.created["players"] == 14


def test_derived_points_are_recomputed_not_copied(event):
    before = results(event)
    data = roundtrip(export_event(event))
    # Spoil the source's stored points: the import must not care.
    HandSeat.objects.filter(participant__event=event).update(points=0)
    result = import_event(data, rename="Kopie")
    assert results(result.event)["totals"] == before["totals"]
    assert results(result.event)["per_series"] == before["per_series"]


def test_existing_players_are_reused_and_conflicts_only_warned(event):
    data = roundtrip(export_event(event))
    Player.objects.filter(player_number="K0003").update(given_name="Anders")
    players = Player.objects.count()
    result = import_event(data, rename="Zweitimport")
    assert Player.objects.count() == players
    assert Player.objects.get(player_number="K0003").given_name == "Anders"
    assert any("K0003" in w for w in result.warnings)
    assert "players" not in result.created
    assert Club.objects.filter(short_name="HDK").count() == 1


def test_unknown_fields_are_ignored_with_a_warning(event):
    data = roundtrip(export_event(event))
    data["event"]["future_field"] = 3
    data["series"][0]["another"] = "x"
    result = import_event(data, rename="Neu")
    assert "event: field 'future_field' is not known here and was ignored" in result.warnings
    assert any("'another'" in w for w in result.warnings)


# ----- refusals ---------------------------------------------------------------------------


def refused(data, **kwargs):
    before = row_counts()
    with pytest.raises(ArchiveError) as info:
        import_event(data, **kwargs)
    assert row_counts() == before
    return info.value


def test_a_schema_error_names_the_first_bad_field_and_writes_nothing(event):
    data = roundtrip(export_event(event))
    Event.objects.filter(pk=event.pk).update(name="Anderer Name")  # no duplicate refusal
    data["series"][1]["tables"][2]["sheet"]["versions"][0]["grid"]["hands"][0]["winner"] = 7
    data["series"][1]["tables"][3]["number"] = "drei"  # later in the file: not reported
    error = refused(data)
    assert error.path == "$.series[1].tables[2].sheet.versions[0].grid.hands[0].winner"
    assert "7" in error.message
    assert str(error).startswith("$.series[1].tables[2].sheet.versions[0].grid.hands[0].winner: ")


@pytest.mark.parametrize(
    ("spoil", "path", "words"),
    [
        (lambda d: d.pop("players"), "$", "'players' is a required property"),
        (lambda d: d.update(format="other"), "$.format", "romme-ledger-event"),
        (lambda d: d["participants"][2].update(checked_in="ja"), "$.participants[2].checked_in",
         "boolean"),
        (lambda d: d["event"].update(start_date="14.03.2026"), "$.event.start_date",
         "does not match"),
    ],
)  # fmt: skip
def test_schema_errors(event, spoil, path, words):
    data = roundtrip(export_event(event))
    spoil(data)
    error = refused(data, rename="Neu")
    assert error.path == path
    assert words in error.message


def _loser(hand):
    return next(i for i in range(len(hand["seats"])) if i != hand["winner"])


@pytest.mark.parametrize(
    ("spoil", "path", "words"),
    [
        (
            lambda d: d["series"][0]["tables"][1]["seats"].__setitem__(2, 99),
            "$.series[0].tables[1].seats[2]",
            "no participant with ref 99",
        ),
        (
            lambda d: d["series"][0]["tables"][1]["seats"].__setitem__(
                2, d["series"][0]["tables"][0]["seats"][0]
            ),
            "$.series[0].tables[1].seats[2]",
            "seated twice",
        ),
        (
            lambda d: d["players"][5].update(player_number=d["players"][4]["player_number"]),
            "$.players[5].player_number",
            "appears twice",
        ),
        (
            lambda d: d["series"][1]["tables"][0]["seats"].__delitem__(slice(2, None)),
            "$.series[1].tables[0].seats",
            "a table seats 3 to 5",
        ),
        (
            lambda d: d["groups"][0]["members"].append(99),
            "$.groups[0].members[2]",
            "no participant",
        ),
        (
            lambda d: d["event"]["ruleset"].update(slug="bridge"),
            "$.event.ruleset.slug",
            "unknown rule set",
        ),
        (
            lambda d: d["participants"][0].update(club_short_name="XYZ"),
            "$.participants[0].club_short_name",
            "XYZ",
        ),
    ],
)  # fmt: skip
def test_semantic_errors(event, spoil, path, words):
    data = roundtrip(export_event(event))
    spoil(data)
    error = refused(data, rename="Neu")
    assert error.path == path
    assert words in error.message


def test_a_rule_problem_on_a_confirmed_sheet_is_refused_at_its_cell(event):
    data = roundtrip(export_event(event))
    sheet = data["series"][1]["tables"][1]["sheet"]
    content = sheet["versions"][-1]  # the confirmation holds the content
    hand = content["grid"]["hands"][2]
    loser = _loser(hand)
    hand["seats"][loser] = {"hand_points": 30000, "cards": None, "melded": None}
    error = refused(data, rename="Neu")
    assert error.path == (
        f"$.series[1].tables[1].sheet.versions[{len(sheet['versions']) - 1}]"
        f".grid.hands[2].seats[{loser}]"
    )
    assert "[hand.loser-above-maximum]" in error.message


def test_an_older_version_is_not_checked_against_the_rules(event):
    """Only the current content is scored; history may hold what was corrected later."""
    data = roundtrip(export_event(event))
    sheet = data["series"][1]["tables"][1]["sheet"]
    hand = sheet["versions"][0]["grid"]["hands"][0]
    hand["seats"][_loser(hand)]["hand_points"] = 30000
    assert import_event(data, rename="Neu").event.pk


def test_an_incomplete_entered_sheet_is_refused(event):
    data = roundtrip(export_event(event))
    entered = data["series"][2]["tables"][0]["sheet"]
    assert entered["status"] == "entered"
    entered["versions"][-1]["grid"]["hands"].pop()
    error = refused(data, rename="Neu")
    assert error.path.startswith("$.series[2].tables[0].sheet.versions[0].grid")
    assert "series." in error.message


def test_a_draft_keeps_only_its_valid_hands(event):
    data = roundtrip(export_event(event))
    draft = data["series"][2]["tables"][1]["sheet"]
    assert draft["status"] == "draft"
    hands = draft["versions"][-1]["grid"]["hands"]
    hands[0]["seats"][_loser(hands[0])]["hand_points"] = 30000  # a problem a draft may have
    result = import_event(data, rename="Neu")
    sheet = Sheet.objects.get(table__series__event=result.event, status="draft")
    assert sorted(sheet.hands.values_list("number", flat=True)) == list(range(2, len(hands) + 1))


def test_reimport_of_the_same_file_is_refused_unless_renamed(event):
    data = roundtrip(export_event(event))
    error = refused(data)
    assert error.path == "$.event.name" and error.code == "duplicate"
    assert "import it under another name" in error.message
    result = import_event(data, rename="Kasseler Herbstturnier (Kopie)")
    assert result.event.name == "Kasseler Herbstturnier (Kopie)"
    assert results(result.event)["totals"] == results(event)["totals"]
    error = refused(data, rename="Kasseler Herbstturnier (Kopie)")
    assert error.path == "$.event.name"


def test_a_failure_half_way_rolls_everything_back(event):
    """A value only the model refuses is found while writing; the transaction is undone."""
    data = roundtrip(export_event(event))
    data["series"][2]["status"] = "exploded"
    data["players"].append(
        {"player_number": "NEU1", "given_name": "Neu", "family_name": "Ling", "birth_year": None,
         "active": True}
    )  # fmt: skip
    data["clubs"].append({"name": "Pik As Gießen", "short_name": "PAG"})
    error = refused(data, rename="Neu")
    assert error.path == "$.series[2].status"
    assert not Player.objects.filter(player_number="NEU1").exists()
    assert not Club.objects.filter(short_name="PAG").exists()


def test_not_json_is_refused():
    with pytest.raises(ArchiveError) as info:
        loads("{not json")
    assert info.value.path == "$"
