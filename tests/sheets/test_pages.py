"""The sheet entry page, the check endpoint, the series board and the rule-set page."""

import copy
import re

import pytest
from django.urls import reverse

from scoring.models import Hand, HandSeat, Sheet, SheetVersion
from scoring.sheets import selectors, services
from tests.factories import ClubFactory, user_with_role
from tests.sheets.conftest import make_series, post_data, random_grid, scorer

pytestmark = pytest.mark.django_db


def _url(table, name="sheet_entry"):
    return reverse(f"scoring:{name}", args=[table.series_id, table.number])


def _loser(hand, skip=()):
    return next(i for i in range(4) if i != hand["winner"] and i not in skip)


@pytest.mark.parametrize(
    ("language", "lang_attr"), [("en", '<html lang="en">'), ("de", '<html lang="de">')]
)
def test_each_problem_reaches_the_page_with_table_hand_seat_and_rule_id(
    client, club_a, scorer_a, language, lang_attr
):
    _series, tables = make_series(club_a)
    client.force_login(scorer_a)
    grid = random_grid(seed=1)
    # Hand 3: a loser at 1 point; hand 5: two winners.
    h3 = grid["hands"][2]
    seat3 = _loser(h3)
    h3["seats"][seat3]["hand_points"] = 1
    h5 = grid["hands"][4]
    seat5 = _loser(h5)
    h5["seats"][seat5]["hand_points"] = 0
    # 19 hands only: the dealer count is wrong.
    grid["hands"] = grid["hands"][:19]
    names = ["Anna Müller", "Bernd Becker", "Clara Schulz", "Dieter Wolf"]

    response = client.post(_url(tables[0]), post_data(grid), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 400
    text = response.content.decode()
    assert lang_attr in text
    assert "[hand.loser-below-minimum]" in text
    assert "[hand.several-winners]" in text
    assert "[series.unequal-deals]" in text and "[series.round-count]" in text
    assert names[seat3] in text and names[seat5] in text
    if language == "en":
        assert (
            f"Table 1, hand 3, seat {seat3 + 1} ({names[seat3]}): hand points 1 are below "
            "the minimum of 2 [hand.loser-below-minimum]"
        ) in text
        assert f"Table 1, hand 5, seat {seat5 + 1} ({names[seat5]})" in text
    else:
        assert (
            f"Tisch 1, Spiel 3, Platz {seat3 + 1} ({names[seat3]}): die Augenzahl 1 liegt "
            "unter dem Minimum von 2 [hand.loser-below-minimum]"
        ) in text
        assert f"Tisch 1, Spiel 5, Platz {seat5 + 1} ({names[seat5]})" in text
    assert not Sheet.objects.exists()
    # What was typed stays in the grid.
    assert f'name="cell-3-{seat3 + 1}" value="1"' in text


def test_the_check_endpoint_answers_with_the_engine_problems_totals_and_readings(
    client, club_a, scorer_a
):
    _series, tables = make_series(club_a)
    client.force_login(scorer_a)
    grid = random_grid(seed=9, hands=3)
    h1 = grid["hands"][0]
    loser = _loser(h1)
    h1["seats"][loser] = {"hand_points": None, "cards": "Jo A K 7", "melded": None}
    h2 = grid["hands"][1]
    h2["seats"][_loser(h2)]["hand_points"] = 1
    data = post_data(grid, action="")
    data["cell-3-1"] = "Jo X"
    response = client.post(_url(tables[0], "sheet_check"), data, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    answer = response.json()
    codes = {(p["code"], p["hand"]) for p in answer["problems"]}
    assert ("hand.loser-below-minimum", 2) in codes
    assert ("card.unknown-token", 3) in codes
    assert {"hand": 1, "seat": loser, "text": "Jo A K 7 = 58"} in answer["readings"]
    assert answer["dealers"][:3] == [0, 1, 2] and len(answer["dealers"]) == 20
    assert answer["running"][0][loser] == -58 and answer["running"][1] is None
    assert answer["totals"][loser] <= -58
    assert answer["ready"] is False
    assert all("Table 1, hand" in p["message"] for p in answer["problems"])


def test_a_valid_sheet_posted_from_the_page_is_stored(client, club_a, scorer_a):
    _series, tables = make_series(club_a)
    client.force_login(scorer_a)
    grid = random_grid(seed=17, hand_romme_rate=0.3)
    response = client.post(_url(tables[0]), post_data(grid), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 302
    sheet = Sheet.objects.get(table=tables[0])
    assert sheet.status == "entered" and Hand.objects.filter(sheet=sheet).count() == 20
    assert list(
        Hand.objects.filter(sheet=sheet, hand_romme=True).values_list("number", flat=True)
    ) == [n for n, h in enumerate(grid["hands"], start=1) if h["hand_romme"]]
    page = client.get(_url(tables[0]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    totals = [0, 0, 0, 0]
    for seat in HandSeat.objects.filter(hand__sheet=sheet):
        totals[seat.position] += seat.points
    for total in totals:
        assert 'class="total" data-seat' in page and f">{total}</td>" in page
    assert "Sheet saved as version 1" in page


def test_a_draft_posted_from_the_page_keeps_what_is_typed(client, club_a, scorer_a):
    _series, tables = make_series(club_a)
    client.force_login(scorer_a)
    grid = random_grid(seed=5, hands=6)
    response = client.post(
        _url(tables[0]), post_data(grid, action="draft"), HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 302
    sheet = Sheet.objects.get(table=tables[0])
    assert sheet.status == "draft" and Hand.objects.filter(sheet=sheet).count() == 6
    page = client.get(_url(tables[0]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Draft saved as version 1: 6 complete hands." in page
    assert 'name="expected_version" value="1"' in page


def test_confirmation_by_the_one_who_entered_is_refused_by_the_page(client, club_a, scorer_a):
    _series, tables = make_series(club_a)
    grid = random_grid()
    services.save_sheet(scorer_a, tables[0], grid, expected_version=0, submit=True)
    client.force_login(scorer_a)
    page = client.get(_url(tables[0])).content.decode()
    assert "sheet-confirm" not in page
    response = client.post(_url(tables[0], "sheet_confirm"), post_data(grid, version=1))
    assert response.status_code == 403
    assert Sheet.objects.get(table=tables[0]).status == "entered"

    other = scorer(club_a, "second")
    client.force_login(other)
    assert 'id="sheet-confirm"' in client.get(_url(tables[0])).content.decode()
    # A confirm that does not carry the grid it confirms is refused.
    response = client.post(_url(tables[0], "sheet_confirm"), {"expected_version": "1"})
    assert response.status_code == 400
    assert Sheet.objects.get(table=tables[0]).status == "entered"
    response = client.post(_url(tables[0], "sheet_confirm"), post_data(grid, version=1))
    assert response.status_code == 302
    assert Sheet.objects.get(table=tables[0]).confirmed_by == other


def test_a_conflicting_save_shows_the_other_persons_changes(client, club_a, scorer_a):
    _series, tables = make_series(club_a)
    grid = random_grid(seed=23)
    services.save_sheet(scorer_a, tables[0], grid, expected_version=0, submit=True)
    changed = copy.deepcopy(grid)
    loser = _loser(changed["hands"][6])
    changed["hands"][6]["seats"][loser]["hand_points"] = 77
    services.save_sheet(scorer_a, tables[0], changed, expected_version=1, submit=True)

    other = scorer(club_a, "late")
    client.force_login(other)
    mine = copy.deepcopy(grid)
    mine_loser = _loser(mine["hands"][0])
    mine["hands"][0]["seats"][mine_loser]["hand_points"] = 66
    response = client.post(_url(tables[0]), post_data(mine, version=1), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 409
    text = response.content.decode()
    assert "Someone else saved this sheet" in text and "scorer_a" in text
    names = ["Anna Müller", "Bernd Becker", "Clara Schulz", "Dieter Wolf"]
    old = grid["hands"][6]["seats"][loser]["hand_points"]
    first = grid["hands"][0]["seats"][mine_loser]["hand_points"]
    # Exactly the two cells that differ: where, theirs, mine, who stored it and when.
    assert text.count('<tr data-name="cell-') == 2
    assert (
        f'<tr data-name="cell-1-{mine_loser + 1}">\n          <td>Hand 1, seat {mine_loser + 1} '
        f'({names[mine_loser]})</td>\n          <td class="mine">66</td>\n'
        f'          <td class="stored">{first}</td>'
    ) in text
    assert (
        f'<td>Hand 7, seat {loser + 1} ({names[loser]})</td>\n          <td class="mine">{old}'
        '</td>\n          <td class="stored">77</td>'
    ) in text
    assert "scorer_a, " in text and "(version 2)" in text and "(version 1)" in text
    # Nothing of the late save was stored; the page offers their entries with the new version.
    assert not SheetVersion.objects.filter(created_by=other).exists()
    assert (
        HandSeat.objects.get(
            hand__sheet__table=tables[0], hand__number=1, position=mine_loser
        ).points
        == -grid["hands"][0]["seats"][mine_loser]["hand_points"]
    )
    assert 'name="expected_version" value="2"' in text
    assert f'name="cell-1-{mine_loser + 1}" value="66"' in text


def test_blind_mode_hides_the_entry_and_a_mismatch_becomes_a_dispute(
    client, club_a, scorer_a, organiser_a
):
    _series, tables = make_series(club_a, blind=True)
    grid = random_grid(seed=29)
    services.save_sheet(scorer_a, tables[0], grid, expected_version=0, submit=True)
    second = scorer(club_a, "blind")
    client.force_login(second)
    page = client.get(_url(tables[0]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Blind confirmation" in page and 'value="blind"' in page
    assert "sheet-stored" not in page  # the stored values never reach a blind page
    first_loser = _loser(grid["hands"][0])
    points = grid["hands"][0]["seats"][first_loser]["hand_points"]
    assert f'name="cell-1-{first_loser + 1}" value=""' in page  # nothing of the entry shown

    typo = copy.deepcopy(grid)
    typo["hands"][0]["seats"][first_loser]["hand_points"] = points + 1 if points < 200 else 2
    response = client.post(_url(tables[0]), post_data(typo, version=1, action="blind"))
    assert response.status_code == 302
    page = client.get(_url(tables[0]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "the sheet is now disputed" in page
    assert "cell differs" not in page and "cells differ" not in page
    assert "cell-input" not in page and f">{points}<" not in page  # no retry, nothing shown
    # Trying again anyway is refused.
    response = client.post(_url(tables[0]), post_data(grid, version=2, action="blind"))
    assert response.status_code == 400 and Sheet.objects.get(table=tables[0]).status == "disputed"

    # The director sees both entries side by side and resolves.
    client.force_login(organiser_a)
    page = client.get(_url(tables[0]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="dispute-cells"' in page and 'class="cell differs' in page
    assert f'<td class="first">{points}</td>' in page
    assert (
        f'<td class="second">{typo["hands"][0]["seats"][first_loser]["hand_points"]}</td>' in page
    )
    assert 'value="resolve"' in page
    response = client.post(_url(tables[0]), post_data(grid, version=2, action="resolve"))
    assert response.status_code == 302
    sheet = Sheet.objects.get(table=tables[0])
    assert sheet.status == "confirmed" and sheet.resolved_by == organiser_a
    page = client.get(_url(tables[0]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "dispute resolved" in page and "blind re-entry" in page and "Dispute resolved by" in page


def test_the_board_counts_disputed_sheets(client, club_a, scorer_a):
    series, tables = make_series(club_a, blind=True, tables=2)
    grid = random_grid(seed=30)
    services.save_sheet(scorer_a, tables[0], grid, expected_version=0, submit=True)
    typo = copy.deepcopy(grid)
    loser = _loser(typo["hands"][3])
    typo["hands"][3]["seats"][loser]["hand_points"] = 99
    services.blind_confirm(scorer(club_a, "b"), tables[0], typo, expected_version=1)
    client.force_login(scorer_a)
    page = client.get(
        reverse("scoring:series_board", args=[series.pk]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert '<strong data-status="disputed">1</strong>' in page
    assert 'id="board-disputed"' in page and "Resolve dispute" in page


def test_writes_need_the_role_in_the_events_club(client, club_a, scorer_a, viewer_a, organiser_a):
    series, tables = make_series(club_a)
    grid = random_grid(seed=3)
    services.save_sheet(scorer_a, tables[0], grid, expected_version=0, submit=True)
    foreign = user_with_role(ClubFactory(), "organiser", username="foreign")
    event = series.event
    writes = [
        (_url(tables[1]), post_data(grid)),
        (_url(tables[0]), post_data(grid, version=1)),
        (_url(tables[1], "sheet_check"), post_data(grid)),
        (_url(tables[0], "sheet_confirm"), {"expected_version": "1"}),
        (
            reverse("scoring:event_ruleset", args=[event.pk]),
            {"slug": "german-minus", "hand_romme_multiplier": "2", "reason": "x"},
        ),
        (reverse("scoring:series_draw", args=[series.pk]), {}),
    ]
    before = (SheetVersion.objects.count(), Sheet.objects.count(), HandSeat.objects.count())
    for user in (foreign, viewer_a):
        client.force_login(user)
        for url, data in writes:
            assert client.post(url, data).status_code == 403, (user, url)
        assert client.get(reverse("scoring:event_ruleset", args=[event.pk])).status_code == 403
    # Reading needs a role in the event's club; an unconfirmed sheet the scorer role.
    client.force_login(foreign)
    assert client.get(_url(tables[0])).status_code == 403
    assert client.get(_url(tables[1])).status_code == 403
    assert client.get(reverse("scoring:series_board", args=[series.pk])).status_code == 403
    client.force_login(viewer_a)
    assert client.get(_url(tables[0])).status_code == 403
    assert client.get(_url(tables[1])).status_code == 200
    assert client.get(reverse("scoring:series_board", args=[series.pk])).status_code == 200
    # A scorer may enter but not change the rule set or correct a confirmed sheet.
    client.force_login(scorer_a)
    assert client.get(reverse("scoring:event_ruleset", args=[event.pk])).status_code == 403
    assert (SheetVersion.objects.count(), Sheet.objects.count(), HandSeat.objects.count()) == before
    event.refresh_from_db()
    assert event.ruleset_overrides == {}

    client.logout()
    for url, data in writes:
        response = client.post(url, data)
        assert response.status_code == 302 and "/login/" in response["Location"]
    response = client.get(_url(tables[0]))
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_a_viewer_reads_the_sheet_of_a_published_series_without_inputs(
    client, club_a, scorer_a, viewer_a
):
    series, tables = make_series(club_a, tables=2)
    grid = random_grid()
    services.save_sheet(scorer_a, tables[0], grid, expected_version=0, submit=True)
    client.force_login(viewer_a)
    board_url = reverse("scoring:series_board", args=[series.pk])
    # Unconfirmed values are for the club's scorers and organisers only; so are the
    # confirmed ones until the series is published (the standings show them then).
    assert client.get(_url(tables[0])).status_code == 403
    services.confirm_sheet(scorer(club_a, "s2"), tables[0], grid, expected_version=1)
    assert client.get(_url(tables[0])).status_code == 403
    board = client.get(board_url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert _url(tables[0]) not in board and _url(tables[1]) not in board  # (no dead links)
    series.published = True
    series.save()
    page = client.get(_url(tables[0]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "cell-input" not in page and "sheet.js" not in page and "Total" in page
    board = client.get(board_url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert _url(tables[0]) in board and _url(tables[1]) not in board
    client.force_login(scorer_a)
    board = client.get(board_url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert _url(tables[0]) in board and _url(tables[1]) in board


def test_the_correction_page_needs_a_reason(client, club_a, scorer_a, organiser_a):
    _series, tables = make_series(club_a)
    grid = random_grid(seed=6)
    services.save_sheet(scorer_a, tables[0], grid, expected_version=0, submit=True)
    services.confirm_sheet(scorer(club_a, "s2"), tables[0], grid, expected_version=1)
    client.force_login(scorer_a)
    assert client.post(_url(tables[0]), post_data(grid, version=2)).status_code == 403
    client.force_login(organiser_a)
    page = client.get(_url(tables[0]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Save correction" in page and 'name="reason"' in page
    response = client.post(_url(tables[0]), post_data(grid, version=2), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400 and "needs a reason" in response.content.decode()
    fixed = copy.deepcopy(grid)
    loser = _loser(fixed["hands"][0])
    fixed["hands"][0]["seats"][loser]["hand_points"] = 12
    response = client.post(_url(tables[0]), post_data(fixed, version=2, reason="Misread"))
    assert response.status_code == 302
    seat = HandSeat.objects.get(hand__sheet__table=tables[0], hand__number=1, position=loser)
    assert seat.points == -12
    page = client.get(_url(tables[0]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Misread" in page and "correction" in page


def test_the_ruleset_page_changes_the_rule_set_and_recomputes(
    client, club_a, scorer_a, organiser_a, settings
):
    from tests.factories import IMMEDIATE_TASKS

    settings.TASKS = IMMEDIATE_TASKS  # the worker's part: tests/sheets/test_ruleset_jobs.py
    series, tables = make_series(club_a)
    grid = random_grid(seed=13, hand_romme_rate=0.3)
    services.save_sheet(scorer_a, tables[0], grid, expected_version=0, submit=True)
    client.force_login(organiser_a)
    url = reverse("scoring:event_ruleset", args=[series.event.pk])
    assert client.get(url).status_code == 200
    response = client.post(
        url, {"slug": "german-minus", "hand_romme_multiplier": "2", "reason": ""}
    )
    assert response.status_code == 200  # the form asks for a reason
    response = client.post(
        url,
        {"slug": "german-minus", "hand_romme_multiplier": "2", "reason": "House rule"},
        HTTP_ACCEPT_LANGUAGE="en",
        follow=True,
    )
    assert "results on 1 sheets were recomputed" in response.content.decode()
    series.event.refresh_from_db()
    assert series.event.ruleset_overrides == {"hand_romme_multiplier": 2}


def test_the_board_shows_each_tables_sheet_and_counts(client, club_a, scorer_a, organiser_a):
    series, tables = make_series(club_a, tables=4)
    services.save_sheet(scorer_a, tables[0], random_grid(), expected_version=0, submit=True)
    services.save_sheet(scorer_a, tables[1], random_grid(hands=3), expected_version=0)
    services.save_sheet(scorer_a, tables[2], random_grid(seed=4), expected_version=0, submit=True)
    services.confirm_sheet(organiser_a, tables[2], random_grid(seed=4), expected_version=1)
    client.force_login(scorer_a)
    page = client.get(
        reverse("scoring:series_board", args=[series.pk]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    for status in ("missing", "draft", "entered", "confirmed"):
        assert f'<strong data-status="{status}">1</strong>' in page
    assert _url(tables[3]) in page and "Anna Müller" in page
    assert "draw-seating" not in page
    client.force_login(organiser_a)
    page = client.get(reverse("scoring:series_board", args=[series.pk])).content.decode()
    # Sheets exist: a redraw would be refused, so it is not offered.
    assert 'id="draw-seating"' not in page
    fresh, _tables = make_series(club_a, tables=2)
    fresh.status = "seated"
    fresh.save()
    page = client.get(reverse("scoring:series_board", args=[fresh.pk])).content.decode()
    assert 'id="draw-seating"' in page


def test_the_draw_button_passes_the_running_order(client, club_a, organiser_a, monkeypatch):
    import tournaments.seating

    series, _tables = make_series(club_a, tables=1)
    calls = []

    def fake_draw(actor, series_, *, seed=None, running_order=None):
        calls.append((actor, series_.pk, seed, running_order))

    monkeypatch.setattr(tournaments.seating, "draw_series", fake_draw)
    client.force_login(organiser_a)
    response = client.post(reverse("scoring:series_draw", args=[series.pk]))
    assert response.status_code == 302
    expected = selectors.running_order(series.event, before_series=1)
    assert calls == [(organiser_a, series.pk, None, expected)]


def _series_with_sheets(club, tables, user):
    series, made = make_series(club, tables=tables)
    for table in made:
        services.save_sheet(
            user, table, random_grid(seed=table.number), expected_version=0, submit=True
        )
    return series, made


@pytest.mark.parametrize("tables", [4, 20])
def test_page_selectors_run_a_fixed_number_of_queries(
    club_a, scorer_a, tables, django_assert_max_num_queries
):
    series, _made = _series_with_sheets(club_a, tables, scorer_a)
    with django_assert_max_num_queries(3):
        board = selectors.series_board(series.pk)
        assert len(board.rows) == tables and board.counts["entered"] == tables
        assert all(len(row.names) == 4 for row in board.rows)
    with django_assert_max_num_queries(3):
        page = selectors.sheet_page(series.pk, tables)
        history = selectors.version_history(page)
        assert len(page.current_grid()["hands"]) == 20 and len(history) == 1
    with django_assert_max_num_queries(1):
        assert len(selectors.running_order(series.event, before_series=2)) == 4 * tables


@pytest.mark.parametrize("tables", [4, 20])
def test_pages_run_a_fixed_number_of_queries(
    client, club_a, scorer_a, tables, django_assert_max_num_queries
):
    series, made = _series_with_sheets(club_a, tables, scorer_a)
    client.force_login(scorer_a)
    with django_assert_max_num_queries(5):  # session, user with roles (clubs.auth), 3 reads
        assert client.get(reverse("scoring:series_board", args=[series.pk])).status_code == 200
    with django_assert_max_num_queries(6):  # session, user with roles, 3 reads, who confirms
        assert client.get(_url(made[-1])).status_code == 200


def test_melded_values_appear_only_where_the_profile_needs_them(client, club_a, scorer_a):
    from rules import PRESETS

    _series, tables = make_series(club_a)
    client.force_login(scorer_a)
    assert 'name="melded-1-1"' not in client.get(_url(tables[0])).content.decode()

    _melded, melded_tables = make_series(club_a, slug="melded-minus-held")
    page = client.get(_url(melded_tables[0])).content.decode()
    assert 'name="melded-1-1"' in page and 'name="melded-20-4"' in page
    grid = random_grid(PRESETS["melded-minus-held"], seed=12)
    response = client.post(_url(melded_tables[0]), post_data(grid))
    assert response.status_code == 302
    seat = HandSeat.objects.get(hand__sheet__table=melded_tables[0], hand__number=1, position=0)
    assert seat.melded == grid["hands"][0]["seats"][0]["melded"]
    grid["hands"][0]["seats"][1]["melded"] = None
    response = client.post(
        _url(melded_tables[0]), post_data(grid, version=1), HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 400
    assert "[hand.melded-value-missing]" in response.content.decode()


def test_a_refused_save_sums_up_its_problems_above_the_grid_in_hand_order(client, club_a, scorer_a):
    _series, tables = make_series(club_a)
    client.force_login(scorer_a)
    grid = random_grid(seed=1)
    # The engine finds these out of order: a card it cannot read in hand 9, a loser
    # below the minimum in hand 3, two winners in hand 5; 19 hands break the sheet's rules.
    h9 = grid["hands"][8]
    seat9 = _loser(h9)
    h9["seats"][seat9] = {"hand_points": None, "cards": "Jo Xx", "melded": None}
    h3 = grid["hands"][2]
    seat3 = _loser(h3)
    h3["seats"][seat3]["hand_points"] = 1
    h5 = grid["hands"][4]
    seat5 = _loser(h5)
    h5["seats"][seat5]["hand_points"] = 0
    grid["hands"] = grid["hands"][:19]

    response = client.post(_url(tables[0]), post_data(grid))

    assert response.status_code == 400
    assert not Sheet.objects.exists()
    text = response.content.decode()
    # One list, at the top: the summary holds it and the end of the grid no copy.
    assert text.count('id="sheet-problems"') == 1
    summary = text[text.index('id="sheet-error-summary"') : text.index('id="sheet-form"')]
    items = re.findall(
        r'<li class="error" id="(sheet-problem-\d+)" data-hand="(\d*)" data-seat="(\d*)" '
        r'data-code="([\w.-]+)"><a href="#([\w-]+)"',
        summary,
    )
    count = len(items)
    assert f"{count} problems: nothing was saved." in summary
    assert "What you typed is still in the grid." in summary
    hands = [int(hand) if hand else 0 for _id, hand, _seat, _code, _target in items]
    assert hands == sorted(hands) and hands[0] == 0
    assert {"series.unequal-deals", "series.round-count"} <= {item[3] for item in items}
    by_code = {code: (ident, target) for ident, _hand, _seat, code, target in items}
    for code, hand, seat in (
        ("hand.loser-below-minimum", 3, seat3),
        ("hand.several-winners", 5, seat5),
        ("card.unknown-token", 9, seat9),
    ):
        ident, target = by_code[code]
        assert target == f"cell-{hand}-{seat + 1}"
        # The named cell is invalid and described by its message.
        cell = re.search(rf'<input [^>]*id="{target}"[^>]*>', text).group(0)
        assert 'aria-invalid="true"' in cell
        assert re.search(rf'aria-describedby="[^"]*\b{ident}\b', cell)
    # A cell no problem names stays valid.
    assert "aria-invalid" not in re.search(r'<input [^>]*id="cell-1-1"[^>]*>', text).group(0)
    # Each hand with a problem marks its row, the two winners' hand too.
    for hand in (3, 5, 9):
        assert re.search(rf'<tr data-hand="{hand}" class="[^"]*has-problem', text)
    assert not re.search(r'<tr data-hand="1" class="[^"]*has-problem', text)


def test_a_sheet_without_a_refused_save_lists_its_problems_below_the_grid(client, club_a, scorer_a):
    _series, tables = make_series(club_a)
    client.force_login(scorer_a)
    grid = random_grid(seed=1, hands=3)
    grid["hands"][1]["seats"][_loser(grid["hands"][1])]["hand_points"] = 1
    client.post(_url(tables[0]), post_data(grid, action="draft"))

    text = client.get(_url(tables[0])).content.decode()

    assert 'id="sheet-error-summary"' not in text
    assert text.count('id="sheet-problems"') == 1
    assert text.index('id="sheet-grid"') < text.index('id="sheet-problems"')
    assert "[hand.loser-below-minimum]" in text


def test_blind_mode_switched_on_while_a_confirm_page_is_open_shows_no_entry(
    client, club_a, scorer_a
):
    """Before, the refused confirm came back with the first entry in the blind grid, and one
    click on "Blinde Eingabe abgeben" confirmed it unseen."""
    series, tables = make_series(club_a)
    grid = random_grid(seed=31)
    services.save_sheet(scorer_a, tables[0], grid, expected_version=0, submit=True)
    second = scorer(club_a, "zweiter")
    client.force_login(second)
    assert client.get(_url(tables[0])).status_code == 200  # the confirm page, not blind yet
    event = series.event
    event.blind_confirmation = True
    event.save(update_fields=["blind_confirmation"])
    response = client.post(
        _url(tables[0], "sheet_confirm"), post_data(grid, version=1), HTTP_ACCEPT_LANGUAGE="de"
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert "Blinde Bestätigung" in page
    loser = _loser(grid["hands"][0])
    assert f'name="cell-1-{loser + 1}" value=""' in page  # nothing of the entry shown
    assert Sheet.objects.get(table=tables[0]).status == "entered"
