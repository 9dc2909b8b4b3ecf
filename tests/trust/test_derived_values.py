"""One truth from the sheet: a hand typed as cards and the same hand typed as a number give
the same derived values everywhere (issue 11, item 2).

Two events play the same players under the same rule set; every seat of event "numbers" is
typed as hand points, every loser of event "cards" as the cards held. Every output is
compared field by field: standings JSON, standings page, XLSX, PDF text, the whole-event
workbook and the event archive (re-imported).
"""

import random
import re

import pytest
from django.urls import reverse
from django.utils import translation

from rules import PRESETS, random_hand
from scoring.archive.dump import export_event
from scoring.archive.load import import_event
from scoring.exports.rendering import render_export
from scoring.models import HandSeat
from scoring.sheets.services import change_ruleset, confirm_sheet, recompute_results, save_sheet
from scoring.standings import labels, selectors
from tests.exports.conftest import pdf_text, read_xlsx
from tests.factories import EventFactory, ParticipantFactory, SeriesFactory, seated_table

pytestmark = pytest.mark.django_db

CHAIN = ["total", "fewest_hand_points", "hands_won", "lots"]


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def _hands(seed: int, count: int = 4):
    """Hands from the rules engine with the cards each loser held kept."""
    ruleset = PRESETS["german-minus"]
    rng = random.Random(seed)
    hands = []
    for i in range(count):
        hand = random_hand(ruleset, 4, rng, dealer=i % 4, keep_cards=True, hand_romme_rate=0)
        hands.append(hand)
    return hands


def _grid(hands, *, as_cards: bool) -> dict:
    out = []
    for hand in hands:
        seats = []
        for k, seat in enumerate(hand.seats):
            value = seat.points(PRESETS["german-minus"])
            if as_cards and k != hand.winner and seat.cards:
                seats.append(
                    {
                        "hand_points": None,
                        "cards": " ".join(c.ascii for c in seat.cards),
                        "melded": seat.melded,
                    }
                )
            else:
                seats.append({"hand_points": value, "cards": None, "melded": seat.melded})
        out.append(
            {
                "dealer": hand.dealer,
                "winner": hand.winner,
                "hand_romme": hand.hand_romme,
                "seats": seats,
            }
        )
    return {"first_dealer": 0, "hands": out}


def _event(club, players, seriess, *, as_cards, scorer_a, organiser_a):
    event = EventFactory(
        club=club,
        name="Gleiches Turnier",
        rounds_per_series=1,
        ruleset_slug="german-minus",
        tie_break_chain=CHAIN,
        lots_seed=4711,
    )
    participants = [ParticipantFactory(event=event, player=p, club=club) for p in players]
    for number, hands in enumerate(seriess, start=1):
        series = SeriesFactory(event=event, number=number, planned_rounds=1, published=True)
        series.status = "in_play"
        series.save()
        table = seated_table(series, participants, 1)
        grid = _grid(hands, as_cards=as_cards)
        save_sheet(scorer_a, table, grid, expected_version=0, submit=True)
        confirm_sheet(organiser_a, table, grid, expected_version=1)
    return event


@pytest.fixture
def pair(club_a, scorer_a, organiser_a):
    from tests.factories import MembershipFactory, PlayerFactory

    players = []
    for i, (given, family) in enumerate(
        [("Anna", "Müller"), ("Bernd", "Becker"), ("Clara", "Schulz"), ("Dieter", "Wolf")]
    ):
        player = PlayerFactory(given_name=given, family_name=family, player_number=f"T{i}")
        MembershipFactory(player=player, club=club_a)
        players.append(player)
    seriess = [_hands(3), _hands(8)]
    numbers = _event(club_a, players, seriess, as_cards=False, scorer_a=scorer_a,
                     organiser_a=organiser_a)  # fmt: skip
    cards = _event(club_a, players, seriess, as_cards=True, scorer_a=scorer_a,
                   organiser_a=organiser_a)  # fmt: skip
    return numbers, cards


def _held(event):
    return list(
        HandSeat.objects.filter(hand__sheet__table__series__event=event)
        .order_by("hand__sheet__table__series__number", "hand__number", "position")
        .values_list("hand_points", "cards", "held_points", "points")
    )


def test_cards_are_stored_as_derived_hand_points(pair):
    numbers, cards = pair
    typed, counted = _held(numbers), _held(cards)
    assert any(c for _hp, c, _h, _p in counted), "the cards event has seats typed as cards"
    assert any(hp is None and c for hp, c, _h, _p in counted)
    for (hp, _c, held_n, points_n), (_hp2, _c2, held_c, points_c) in zip(
        typed, counted, strict=True
    ):
        assert held_n == hp
        assert (held_c, points_c) == (held_n, points_n)
    # Not trivially equal: somebody held cards worth something in a lost hand.
    assert any(h for _hp, c, h, _p in counted if c)


def _strip_ids(value):
    if isinstance(value, dict):
        return {k: _strip_ids(v) for k, v in value.items() if k not in ("id", "participant_id")}
    if isinstance(value, list):
        return [_strip_ids(v) for v in value]
    return value


def test_api_and_standing_rows_equal_field_by_field(client, pair, organiser_a):
    numbers, cards = pair
    client.force_login(organiser_a)
    for competition in (labels.INDIVIDUAL,):
        for query in ("", "&series=1", "&series=2"):
            url_n = reverse("standings:api", args=[numbers.pk])
            url_c = reverse("standings:api", args=[cards.pk])
            a = client.get(f"{url_n}?competition={competition}{query}").json()
            b = client.get(f"{url_c}?competition={competition}{query}").json()
            assert a["rows"], query
            assert _strip_ids(a) == _strip_ids(b), query
            hand_points = [r["tie_break"]["fewest_hand_points"] for r in a["rows"]]
            assert any(hand_points), "the tie-break compares real hand points"
    for scope, number in ((labels.OVERALL, None), (labels.SERIES, 1), (labels.SERIES, 2)):
        rows = [
            selectors.event_standing(e, scope=scope, number=number, only_published=False).rows
            for e in (numbers, cards)
        ]
        for row_n, row_c in zip(*rows, strict=True):
            assert (row_n.rank, row_n.name, row_n.total, row_n.values, row_n.series_totals) == (
                row_c.rank,
                row_c.name,
                row_c.total,
                row_c.values,
                row_c.series_totals,
            )
            assert row_n.reason == row_c.reason


def _page_text(html: str) -> str:
    """The standings table's cells, without links (whose ids differ between events)."""
    table = html[html.index("<table") : html.index("</table>")]
    text = re.sub(r"<[^>]+>", " ", table)
    return re.sub(r"\s+", " ", text).strip()


def test_standings_page_equal(client, pair, organiser_a):
    numbers, cards = pair
    client.force_login(organiser_a)
    pages = [
        client.get(reverse("standings:event", args=[e.pk])).content.decode()
        for e in (numbers, cards)
    ]
    assert _page_text(pages[0]) == _page_text(pages[1])
    assert "Müller" in _page_text(pages[0])


def _cells(content: bytes) -> dict:
    wb = read_xlsx(content)
    return {ws.title: [list(r) for r in ws.iter_rows(values_only=True)] for ws in wb}


def test_xlsx_pdf_and_workbook_equal(pair, monkeypatch):
    numbers, cards = pair
    for slug in ("standings", "event-workbook"):
        a = _cells(render_export(slug, numbers, "xlsx")[0])
        b = _cells(render_export(slug, cards, "xlsx")[0])
        assert a.keys() == b.keys()
        for title in a:
            assert a[title] == b[title], (slug, title)
    # The workbook's hand sheets carry the hand points held, cards counted.
    workbook = _cells(render_export("event-workbook", cards, "xlsx")[0])
    hand_sheets = [rows for title, rows in workbook.items() if "1: hand points" in rows[0]]
    assert hand_sheets
    header = hand_sheets[0][0]
    column = header.index("2: hand points")
    assert all(row[column] is not None for row in hand_sheets[0][1:])
    # The prints say when they were made; two renders may fall in different minutes.
    monkeypatch.setattr("scoring.exports.grids.printed_at", lambda: "Stand 1.1.2026 12:00")
    for slug in ("standings", "event-workbook"):
        text_n = pdf_text(render_export(slug, numbers, "pdf")[0])
        text_c = pdf_text(render_export(slug, cards, "pdf")[0])
        assert text_n == text_c, slug


def _without_typed_cells(data):
    """The archive with the seats' typed cells and the time stamps left out."""
    if isinstance(data, dict):
        return {
            k: _without_typed_cells(v)
            for k, v in data.items()
            if k not in ("hand_points", "cards") and not k.endswith("_at") and k != "created"
        }
    if isinstance(data, list):
        return [_without_typed_cells(v) for v in data]
    return data


def test_archive_equal_and_reimport_keeps_derived_values(pair):
    numbers, cards = pair
    a, b = export_event(numbers), export_event(cards)
    assert _without_typed_cells(a) == _without_typed_cells(b)
    imported = [import_event(data, rename=f"Kopie {i}").event for i, data in enumerate((a, b))]
    assert _held(imported[1]) == _held(cards)
    assert [h for _hp, _c, h, _p in _held(imported[0])] == [
        h for _hp, _c, h, _p in _held(imported[1])
    ]


def test_rule_set_change_and_command_recompute_held_points(pair, organiser_a):
    from django.core.management import call_command

    _numbers, cards = pair
    before = _held(cards)
    HandSeat.objects.filter(hand__sheet__table__series__event=cards).update(held_points=None)
    call_command("recompute_event", str(cards.pk), user=organiser_a.username, reason="Backfill")
    assert _held(cards) == before
    # A joker left in hand counts 20 instead of 30 under this preset.
    result = change_ruleset(organiser_a, cards, "german-minus-20", None, "Club decision")
    assert result.hand_seats == len(before)
    after = _held(cards)
    cards_ruleset = PRESETS["german-minus-20"]
    from rules import parse_hand_cards

    for _hp, c, held, _p in after:
        if c:
            assert held == sum(cards_ruleset.hand_values[x.rank] for x in parse_hand_cards(c))
    recompute_results(organiser_a, cards, "again")
    assert _held(cards) == after


def test_recompute_command_needs_an_organiser(pair, scorer_a):
    from django.core.management import CommandError, call_command

    _numbers, cards = pair
    with pytest.raises(CommandError):
        call_command("recompute_event", str(cards.pk), user=scorer_a.username, reason="x")


def test_the_migration_backfills_held_points_from_cards(pair):
    import importlib

    from django.apps import apps

    backfill = importlib.import_module("scoring.migrations.0003_trust_held_points").backfill
    _numbers, cards = pair
    before = _held(cards)
    HandSeat.objects.update(held_points=None)
    backfill(apps, None)
    assert _held(cards) == before
