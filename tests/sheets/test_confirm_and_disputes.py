"""Confirming exactly what is shown, disputes after a differing blind entry, started series."""

import copy

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from scoring.models import HandSeat, Sheet, SheetVersion
from scoring.sheets import disputes, services
from tests.factories import user_with_role
from tests.sheets.conftest import make_series, random_grid, scorer

pytestmark = pytest.mark.django_db


def _loser(hand):
    return next(i for i in range(4) if i != hand["winner"])


def _changed(grid, hand_index, value=None):
    out = copy.deepcopy(grid)
    hand = out["hands"][hand_index]
    seat = _loser(hand)
    old = hand["seats"][seat]["hand_points"]
    hand["seats"][seat]["hand_points"] = (
        value if value is not None else (old + 1 if old < 90 else 5)
    )
    return out, seat


def test_confirm_refuses_a_grid_that_differs_from_the_stored_version(club_a, scorer_a):
    _series, tables = make_series(club_a)
    grid = random_grid(seed=3)
    services.save_sheet(scorer_a, tables[0], grid, expected_version=0, submit=True)
    checker = scorer(club_a, "checker")
    edited, _seat = _changed(grid, 4)
    with pytest.raises(ValidationError, match="differs from the stored version in 1 cell"):
        services.confirm_sheet(checker, tables[0], edited, expected_version=1)
    sheet = Sheet.objects.get(table=tables[0])
    assert sheet.status == Sheet.Status.ENTERED and sheet.version == 1
    # The grid as stored confirms.
    services.confirm_sheet(checker, tables[0], copy.deepcopy(grid), expected_version=1)
    sheet.refresh_from_db()
    assert sheet.status == Sheet.Status.CONFIRMED and sheet.confirmed_by == checker


def test_confirm_after_a_conflict_confirms_only_the_grid_now_stored(club_a, scorer_a):
    """Two checkers load version 1; C saves a change; B's confirm from version 1 is a
    conflict, and B's own grid never confirms C's values."""
    _series, tables = make_series(club_a)
    grid = random_grid(seed=4)
    services.save_sheet(scorer_a, tables[0], grid, expected_version=0, submit=True)
    b, c = scorer(club_a, "b_checker"), scorer(club_a, "c_checker")
    theirs, seat = _changed(grid, 2)
    services.save_sheet(c, tables[0], theirs, expected_version=1, submit=True)
    with pytest.raises(services.SheetConflict) as conflict:
        services.confirm_sheet(b, tables[0], grid, expected_version=1)
    assert conflict.value.current_version == 2 and conflict.value.by == c
    # B now looks at version 2 but still shows their own grid: refused.
    with pytest.raises(ValidationError):
        services.confirm_sheet(b, tables[0], grid, expected_version=2)
    # B takes the stored values: confirmed, with exactly those values.
    services.confirm_sheet(b, tables[0], theirs, expected_version=2)
    sheet = Sheet.objects.get(table=tables[0])
    assert sheet.status == Sheet.Status.CONFIRMED and sheet.confirmed_by == b
    assert sheet.versions.get(number=3).grid == sheet.versions.get(number=2).grid
    hs = HandSeat.objects.get(hand__sheet=sheet, hand__number=3, position=seat)
    assert hs.hand_points == theirs["hands"][2]["seats"][seat]["hand_points"]


def test_sheets_are_refused_before_the_series_starts(club_a, scorer_a):
    series, tables = make_series(club_a)
    series.status = "seated"
    series.save()
    with pytest.raises(ValidationError, match="has not started yet") as refused:
        services.save_sheet(scorer_a, tables[0], random_grid(), expected_version=0, submit=True)
    assert "Start the series" in refused.value.messages[0]
    assert not Sheet.objects.exists()
    series.status = "complete"
    series.save()
    services.save_sheet(scorer_a, tables[0], random_grid(), expected_version=0, submit=True)
    assert Sheet.objects.get().status == Sheet.Status.ENTERED


def _disputed(club, first):
    _series, tables = make_series(club, blind=True)
    grid = random_grid(seed=9)
    services.save_sheet(first, tables[0], grid, expected_version=0, submit=True)
    second = scorer(club, "second")
    typo, seat = _changed(grid, 6)
    result = services.blind_confirm(second, tables[0], typo, expected_version=1)
    assert not result.confirmed
    return tables[0], grid, typo, seat, second


def test_only_a_director_or_the_first_scorer_resolves_a_dispute(club_a, scorer_a, organiser_a):
    table, grid, typo, seat, second = _disputed(club_a, scorer_a)
    third = scorer(club_a, "third")
    for user in (second, third):
        with pytest.raises(PermissionDenied):
            disputes.resolve_dispute(user, table, grid, expected_version=2)
    with pytest.raises(PermissionDenied):  # another club's organiser
        from tests.factories import ClubFactory

        other = user_with_role(ClubFactory(), "organiser", username="elsewhere")
        disputes.resolve_dispute(other, table, grid, expected_version=2)

    # The director takes the second entry's value for the disputed cell.
    version = disputes.resolve_dispute(organiser_a, table, typo, expected_version=2)
    sheet = Sheet.objects.get(table=table)
    assert sheet.status == Sheet.Status.CONFIRMED and version.kind == "resolution"
    assert sheet.resolved_by == organiser_a and sheet.confirmed_by == organiser_a
    assert sheet.entered_by == scorer_a and sheet.version == 3
    hs = HandSeat.objects.get(hand__sheet=sheet, hand__number=7, position=seat)
    assert hs.hand_points == typo["hands"][6]["seats"][seat]["hand_points"]
    kinds = list(sheet.versions.order_by("number").values_list("kind", "created_by__username"))
    assert kinds == [("entry", "scorer_a"), ("blind", "second"), ("resolution", "org_a")]
    with pytest.raises(ValidationError):
        disputes.resolve_dispute(organiser_a, table, grid, expected_version=3)


def test_the_first_scorer_resolves_against_the_paper(club_a, scorer_a):
    table, grid, _typo, _seat, second = _disputed(club_a, scorer_a)
    with pytest.raises(services.SheetConflict):
        disputes.resolve_dispute(scorer_a, table, grid, expected_version=1)
    broken = copy.deepcopy(grid)
    broken["hands"] = broken["hands"][:19]
    with pytest.raises(services.SheetInvalid):
        disputes.resolve_dispute(scorer_a, table, broken, expected_version=2)
    disputes.resolve_dispute(scorer_a, table, grid, expected_version=2, reason="paper says so")
    sheet = Sheet.objects.get(table=table)
    # Two people typed the sheet: the second entry's author stands as confirmer.
    assert sheet.status == Sheet.Status.CONFIRMED and sheet.resolved_by == scorer_a
    assert sheet.confirmed_by == second
    last = SheetVersion.objects.get(sheet=sheet, number=3)
    assert last.reason == "paper says so" and last.grid == sheet.versions.get(number=1).grid


def test_disputed_cells_compare_cards_by_value_and_show_both_texts(club_a, scorer_a):
    table, grid, typo, seat, _second = _disputed(club_a, scorer_a)
    cells = disputes.disputed_cells(grid, typo, table.series.event.ruleset)
    assert [(c.hand, c.seat, c.field) for c in cells] == [(7, seat, "entry")]
    assert cells[0].entry == str(grid["hands"][6]["seats"][seat]["hand_points"])
    assert cells[0].blind == str(typo["hands"][6]["seats"][seat]["hand_points"])


# ----- the page ----------------------------------------------------------------------------


def _page_url(table, name="sheet_entry"):
    from django.urls import reverse

    return reverse(f"scoring:{name}", args=[table.series_id, table.number])


def test_the_page_refuses_a_sheet_before_the_series_starts_in_german(client, club_a, scorer_a):
    from tests.sheets.conftest import post_data

    series, tables = make_series(club_a)
    series.status = "seated"
    series.save()
    client.force_login(scorer_a)
    page = client.get(_page_url(tables[0]), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert 'id="sheet-not-started"' in page and "cell-input" not in page
    response = client.post(
        _page_url(tables[0]), post_data(random_grid()), HTTP_ACCEPT_LANGUAGE="de"
    )
    assert response.status_code == 400
    text = response.content.decode()
    assert "Serie 1 hat noch nicht begonnen" in text and "„Serie beginnen“" in text
    assert not Sheet.objects.exists()


def test_the_page_refuses_to_confirm_an_edited_grid_in_german_and_lists_the_cells(
    client, club_a, scorer_a
):
    from tests.sheets.conftest import post_data

    _series, tables = make_series(club_a)
    grid = random_grid(seed=12)
    services.save_sheet(scorer_a, tables[0], grid, expected_version=0, submit=True)
    client.force_login(scorer(club_a, "checker"))
    edited, seat = _changed(grid, 1)
    response = client.post(
        _page_url(tables[0], "sheet_confirm"),
        post_data(edited, version=1),
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert response.status_code == 400
    text = response.content.decode()
    assert "weicht in 1 Feld von der gespeicherten Version ab" in text
    assert text.count('<tr data-name="cell-') == 1 and f'data-name="cell-2-{seat + 1}"' in text
    # What was typed stays; the confirm button is not offered for it.
    value = edited["hands"][1]["seats"][seat]["hand_points"]
    assert f'name="cell-2-{seat + 1}" value="{value}"' in text
    button = text.split('id="sheet-confirm"')[1].split(">")[0]
    assert button.endswith(" hidden")
    assert Sheet.objects.get(table=tables[0]).status == Sheet.Status.ENTERED


def test_the_one_who_entered_sees_that_a_second_person_must_confirm_and_who(
    client, club_a, scorer_a, organiser_a
):
    from tests.factories import ClubFactory

    _series, tables = make_series(club_a)
    scorer(club_a, "checker")
    user_with_role(ClubFactory(), "scorer", username="elsewhere")
    services.save_sheet(scorer_a, tables[0], random_grid(), expected_version=0, submit=True)
    client.force_login(scorer_a)
    page = client.get(_page_url(tables[0]), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert 'id="sheet-needs-confirmation"' in page
    assert "Eine zweite Person muss sie an der Papierliste prüfen" in page
    names = page.split('id="sheet-confirmers">')[1].split("</span>")[0]
    assert "checker" in names and "org_a" in names
    assert "scorer_a" not in names and "elsewhere" not in names


def test_a_disputed_sheet_shows_its_values_only_to_those_who_resolve_it(
    client, club_a, scorer_a, organiser_a
):
    table, grid, typo, seat, second = _disputed(club_a, scorer_a)
    value = typo["hands"][6]["seats"][seat]["hand_points"]
    right = grid["hands"][6]["seats"][seat]["hand_points"]
    for user in (second, scorer(club_a, "third")):
        client.force_login(user)
        page = client.get(_page_url(table), HTTP_ACCEPT_LANGUAGE="de").content.decode()
        assert 'id="sheet-dispute"' in page and 'id="dispute-cells"' not in page
        assert "cell-input" not in page and 'value="resolve"' not in page
        assert "sheet-stored" not in page
    # The first scorer resolves against the paper, from the page.
    from tests.sheets.conftest import post_data

    client.force_login(scorer_a)
    page = client.get(_page_url(table), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert f'<td class="first">{right}</td>' in page
    assert f'<td class="second">{value}</td>' in page
    response = client.post(_page_url(table), post_data(typo, version=2, action="resolve"))
    assert response.status_code == 302
    sheet = Sheet.objects.get(table=table)
    assert sheet.status == Sheet.Status.CONFIRMED and sheet.resolved_by == scorer_a


def test_the_history_shows_every_version_with_author_kind_and_changed_cells(
    client, club_a, scorer_a, organiser_a
):
    table, _grid, typo, seat, _second = _disputed(club_a, scorer_a)
    disputes.resolve_dispute(organiser_a, table, typo, expected_version=2)
    client.force_login(organiser_a)
    page = client.get(_page_url(table), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    history = page.split('id="sheet-history"')[1]
    rows = history.split("<tr>")[2:]  # after the head row
    assert len(rows) == 3
    kinds = [("Streitfall entschieden", "org_a"), ("blinde Zweiterfassung", "second")]
    kinds.append(("Erfassung", "scorer_a"))
    for row, (kind, by) in zip(rows, kinds, strict=True):
        assert f"<td>{kind}</td>" in row and f"<td>{by}</td>" in row
    # The resolution and the blind entry changed the one disputed cell; the entry all.
    value = typo["hands"][6]["seats"][seat]["hand_points"]
    assert f"Spiel 7, Platz {seat + 1}" in rows[0] and f"→ {value}" in rows[0]
    assert "1 Feld<" in rows[0] and "1 Feld<" in rows[1]


def test_disputed_and_resolved_sheets_survive_the_event_archive(club_a, scorer_a, organiser_a):
    from scoring.archive.dump import dumps, export_event
    from scoring.archive.load import import_event, loads

    table, _grid, _typo, _seat, second = _disputed(club_a, scorer_a)
    other = table.series.tables.get(number=2)
    grid2 = random_grid(seed=50)
    services.save_sheet(scorer_a, other, grid2, expected_version=0, submit=True)
    typo2, _s = _changed(grid2, 0)
    services.blind_confirm(second, other, typo2, expected_version=1)
    disputes.resolve_dispute(organiser_a, other, typo2, expected_version=2)
    event = table.series.event
    data = loads(dumps(export_event(event)))
    result = import_event(data, rename="Kopie")
    copied = {
        s.table.number: s
        for s in Sheet.objects.filter(table__series__event__name="Kopie").select_related(
            "table", "resolved_by"
        )
    }
    assert copied[1].status == Sheet.Status.DISPUTED and copied[1].resolved_by is None
    assert copied[2].status == Sheet.Status.CONFIRMED
    assert copied[2].resolved_by.username == "org_a"
    kinds = list(copied[2].versions.order_by("number").values_list("kind", flat=True))
    assert kinds == ["entry", "blind", "resolution"]
    assert result is not None
