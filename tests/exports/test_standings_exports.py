"""Standings, season ranking and the whole-event workbook: what the files say equals
scoring.standings.selectors (the standings pages' layer) and the stored HandSeat.points."""

import datetime as dt
import re

import pytest
from django.urls import reverse

from scoring.exports.rendering import display, render_export
from scoring.models import HandSeat, Sheet
from scoring.standings import labels, selectors
from scoring.standings import season as standings_season
from tests.exports.conftest import IMG_NAME, pdf_lines, pdf_text, read_pdf, read_xlsx

pytestmark = pytest.mark.django_db

HOSTILE = '=HYPERLINK("http://x","y")'


def _people(club, count, prefix):
    from bench.rigs.datasets import _players

    return _players(count, [club], prefix)


def _hostile_player(club):
    from tests.factories import MembershipFactory, PlayerFactory

    player = PlayerFactory(given_name=HOSTILE, family_name="Fuchs", player_number="H0001")
    MembershipFactory(player=player, club=club)
    return player


@pytest.fixture
def event(club_a):
    """12 players (one named like a formula), 2 pairs, 1 team (named like markup), 3 series
    of one round each, every sheet confirmed; series 3 is played on a second day."""
    from scoring.demo.generate import Plan, generate_event
    from tournaments.models import Group, Series

    people = [*_people(club_a, 11, "E"), _hostile_player(club_a)]
    event = generate_event(
        Plan(name="Kasseler Herbstturnier ♠♥♦♣", club=club_a, players=people, series=3,
             rounds=1, pairs=2, teams=1, seed=11)
    )  # fmt: skip
    Series.objects.filter(event=event, number=3).update(day=2, published=False)
    Group.objects.filter(event=event, kind="team").update(name=IMG_NAME)
    return event


def _standing(event, competition=labels.INDIVIDUAL, scope=labels.OVERALL, number=None):
    return selectors.event_standing(
        event, competition=competition, scope=scope, number=number, only_published=False
    )


def _expected_sheets(event):
    """Worksheet name -> the ranking.EventStanding it must show."""
    return {
        "Overall": _standing(event),
        "Pairs": _standing(event, labels.PAIR),
        "Teams": _standing(event, labels.TEAM),
        "Series 1": _standing(event, scope=labels.SERIES, number=1),
        "Series 2": _standing(event, scope=labels.SERIES, number=2),
        "Series 3": _standing(event, scope=labels.SERIES, number=3),
        "Day 1": _standing(event, scope=labels.DAY, number=1),
        "Day 2": _standing(event, scope=labels.DAY, number=2),
    }


def _header_index(ws) -> dict[str, int]:
    return {cell.value: cell.column - 1 for cell in ws[1]}


def _assert_sheet_matches(ws, standing):
    columns = _header_index(ws)
    rows = list(ws.iter_rows(min_row=2, values_only=True))
    assert len(rows) == len(standing.rows) > 0
    tie_breaks = [k for k in standing.chain if k != "total"]
    for key in tie_breaks:
        assert labels.metric_label(key) in columns
    name_column = next(h for h in ("Player", "Pair", "Team") if h in columns)
    for values, row in zip(rows, standing.rows, strict=True):
        assert values[columns["Rank"]] == row.rank
        assert values[columns[name_column]] == row.name
        assert values[columns["Club"]] == (row.club or None)
        assert values[columns["Total"]] == row.total
        assert isinstance(values[columns["Total"]], int)
        for key in tie_breaks:
            assert values[columns[labels.metric_label(key)]] == row.values.get(key)
        if standing.scope != labels.SERIES:
            for n in standing.counted_series:
                assert values[columns[f"S{n}"]] == row.series_totals.get(n)


def test_standings_workbook_equals_the_ranking(event):
    content, filename, _ = render_export("standings", event, "xlsx")
    assert filename.endswith("-standings.xlsx")
    wb = read_xlsx(content)
    expected = _expected_sheets(event)
    assert wb.sheetnames == list(expected)
    for name, standing in expected.items():
        ws = wb[name]
        _assert_sheet_matches(ws, standing)
        # As the other exports: frozen bold header, autofilter, German number format.
        assert ws.freeze_panes == "A2" and ws["A1"].font.bold
        assert ws.auto_filter.ref.startswith("A1:")
        total_column = _header_index(ws)["Total"] + 1
        assert ws.cell(row=2, column=total_column).number_format == "#,##0"
    # Unpublished series 3 counts: it is the director's export of every confirmed sheet.
    assert expected["Overall"].counted_series == [1, 2, 3]
    assert "all confirmed sheets" in wb.properties.title


def test_standings_pdf_shows_every_table_with_names_and_totals(event):
    content, _, content_type = render_export("standings", event, "pdf")
    assert content_type == "application/pdf"
    reader = read_pdf(content)
    text = pdf_text(content)
    expected = _expected_sheets(event)
    # The overall tables, each starting on a new page; every series and day are in the XLSX
    # and in the workbook's PDF (test_event_workbook_pdf_is_landscape).
    titles = [
        "Individual – overall standing",
        "Pairs – overall standing",
        "Teams – overall standing",
    ]
    pages = [page.extract_text() for page in reader.pages]
    first_pages = [next(i for i, p in enumerate(pages) if t in p) for t in titles]
    assert len(set(first_pages)) == len(titles) == len(reader.pages)
    assert "Page 1 of 3" in pages[0] and "Page 3 of 3" in pages[-1]
    assert "standing of series" not in text and "in the whole-event workbook" in text
    # Every table has its header row (repeated by WeasyPrint after a page break).
    page = render_export("standings", event, "html")[0].decode()
    assert page.count("<thead>") == len(titles) and page.count("next-table") == len(titles) - 1
    # Names are text, never markup.
    assert "&lt;img src=" in page and "<img src=" not in page
    assert "http://example.invalid" in text
    overall = expected["Overall"]
    total_column = next(c for c in _columns_of(event) if c.key == "total")
    # The overall table's pages: up to the one where the pairs begin.
    lines = []
    for page in reader.pages:
        if "Pairs – overall standing" in page.extract_text():
            break
        lines += [" ".join(" ".join(line).split()) for line in pdf_lines(page)]
    for row in overall.rows:
        found = [
            line
            for line in lines
            if re.match(rf"{row.rank} {re.escape(row.name)} ", line)
            and f" {display(row.total, total_column)} " in f" {line} "
        ]
        assert found, row.name
    assert "HYPERLINK" in text and "http://x" in text


def test_text_lists_align_cut_and_wrap():
    from scoring.exports.tables import Column, ExportTable
    from scoring.exports.textlists import MAX_TEXT, text_lists

    table = ExportTable(
        "T",
        [
            Column("rank", "Rank", "int"),
            Column("name", "Player"),
            Column("members", "Members"),
            Column("won", "Hands won", "int"),
        ],
        [
            {"rank": 1, "name": "Anna", "members": "A, B", "won": 1234},
            {"rank": 10, "name": "x" * 50, "won": 5},
        ],
    )
    [lines] = text_lists([table], detail_keys=("members",))
    top, bottom = lines.header.split("\n")  # "Hands won" wraps over the 5-wide numbers
    assert top.endswith("Hands") and bottom.startswith("Rank  Player") and bottom.endswith("won")
    first, detail = lines.rows[0][0].split("\n")
    assert first.startswith("   1  Anna") and first.endswith("1,234")
    assert detail.strip() == "Members: A, B" and detail.index("M") == first.index("A")
    second = lines.rows[1][0]
    assert "x" * (MAX_TEXT - 1) + "…" in second and "x" * MAX_TEXT not in second
    assert len(first) == len(second)  # numbers right-aligned in one column
    assert 5.0 <= float(lines.font_size.removesuffix("pt")) <= 8.0


def _columns_of(event):
    from scoring.exports.registry import get_exporter

    return get_exporter("standings").tables(event)[0].columns


def test_hostile_names_stay_text(event):
    for slug in ("standings", "event-workbook"):
        wb = read_xlsx(render_export(slug, event, "xlsx")[0])
        hits = []
        for ws in wb.worksheets:
            for row in ws.iter_rows():
                for cell in row:
                    assert cell.data_type != "f", (slug, ws.title, cell.coordinate)
                    if isinstance(cell.value, str) and cell.value.startswith(HOSTILE):
                        assert cell.data_type == "s" and cell.quotePrefix
                        hits.append(cell.value)
        assert hits and all(h == f"{HOSTILE} Fuchs" for h in hits), slug


def test_event_workbook_has_every_hand_with_the_stored_points(event):
    from tournaments.models import Series

    wb = read_xlsx(render_export("event-workbook", event, "xlsx")[0])
    hand_sheets = [f"Series {n} – hands" for n in (1, 2, 3)]
    assert wb.sheetnames[:3] == hand_sheets
    # Plus the standings, the same as the standings export.
    assert wb.sheetnames[3:] == list(_expected_sheets(event))
    standings = read_xlsx(render_export("standings", event, "xlsx")[0])
    for name in standings.sheetnames:
        assert list(wb[name].values) == list(standings[name].values)

    stored = {
        (s_number, table, hand, position): (name, points)
        for s_number, table, hand, position, name, points in HandSeat.objects.filter(
            hand__sheet__table__series__event=event
        ).values_list(
            "hand__sheet__table__series__number",
            "hand__sheet__table__number",
            "hand__number",
            "position",
            "participant__player__family_name",
            "points",
        )
    }
    for number, sheet_name in zip((1, 2, 3), hand_sheets, strict=True):
        series = Series.objects.get(event=event, number=number)
        ws = wb[sheet_name]
        columns = _header_index(ws)
        rows = list(ws.iter_rows(min_row=2, values_only=True))
        hands = (
            HandSeat.objects.filter(hand__sheet__table__series=series)
            .values("hand_id")
            .distinct()
            .count()
        )
        assert len(rows) == hands > 0
        seats = sorted(int(h.split(":")[0]) for h in columns if h.endswith(": points"))
        checked = 0
        for values in rows:
            table, hand = values[columns["Table"]], values[columns["Hand"]]
            assert isinstance(table, int) and isinstance(hand, int)
            dealer_seen = False
            for seat in seats:
                key = (number, table, hand, seat - 1)
                if key not in stored:
                    assert values[columns[f"Seat {seat}"]] is None  # a table of three
                    continue
                family, points = stored[key]
                assert values[columns[f"{seat}: points"]] == points
                assert values[columns[f"Seat {seat}"]].endswith(family)
                dealer_seen |= values[columns["Dealer"]] == values[columns[f"Seat {seat}"]]
                checked += 1
            assert dealer_seen
        assert checked == HandSeat.objects.filter(hand__sheet__table__series=series).count()


def test_event_workbook_pdf_is_landscape(event):
    content, _, _ = render_export("event-workbook", event, "pdf")
    reader = read_pdf(content)
    box = reader.pages[0].mediabox
    assert box.width > box.height
    text = pdf_text(content)
    assert "Series 1 – every hand (confirmed sheets)" in text
    assert "Individual – overall standing" in text
    # Every series and day standing, as bordered grids on portrait pages after the hands.
    for n in (1, 2, 3):
        assert f"Individual – standing of series {n}" in text
    assert "Individual – standing of day 2" in text
    last = reader.pages[-1].mediabox
    assert last.width < last.height


def test_unconfirmed_sheets_never_count_and_rows_say_provisional(club_a):
    from scoring.demo.generate import Plan, generate_event
    from tournaments.models import Seat

    event = generate_event(
        Plan(name="Halbfertig", club=club_a, players=_people(club_a, 12, "P"), series=3,
             rounds=1, pairs=2, confirmed_series=2, entered_tables=1, seed=5)
    )  # fmt: skip
    waiting = set(
        Seat.objects.filter(series__event=event, series__number=3).values_list(
            "participant_id", flat=True
        )
    )
    assert Sheet.objects.filter(table__series__event=event, status="entered").exists()
    wb = read_xlsx(render_export("standings", event, "xlsx")[0])
    # Series 3 has no confirmed sheet: no table of its own.
    assert wb.sheetnames == ["Overall", "Pairs", "Series 1", "Series 2"]
    overall = _standing(event)
    assert not overall.provisional
    ws = wb["Overall"]
    columns = _header_index(ws)
    marker = columns["Provisional: sheets not confirmed"]
    by_name = {r.name: r for r in overall.rows}
    rows = list(ws.iter_rows(min_row=2, values_only=True))
    for values in rows:
        row = by_name[values[columns["Player"]]]
        assert values[columns["Total"]] == row.total
        assert values[marker] == ("S3" if row.participant_id in waiting else None)
    assert "S3" in {v[marker] for v in rows}
    # Series 1 and 2 are complete: no marker column there.
    assert "Provisional: sheets not confirmed" not in _header_index(wb["Series 1"])


def test_season_ranking_of_the_newest_season(club_a):
    from scoring.demo.generate import Plan, generate_event
    from tournaments.models import Season

    Season.objects.create(
        club=club_a, name="2025", start_date=dt.date(2025, 1, 1), end_date=dt.date(2025, 12, 31)
    )
    season = Season.objects.create(
        club=club_a, name="2026", start_date=dt.date(2026, 1, 1), end_date=dt.date(2026, 12, 31),
        drop_start=1, drop_every=1, drop_maximum=1,
    )  # fmt: skip
    people = _people(club_a, 8, "V")
    for evening in range(2):
        generate_event(
            Plan(name=f"Spielabend {evening + 1}", club=club_a, players=people, series=2,
                 rounds=1, season=season, seed=evening,
                 start_date=dt.date(2026, 2, 1) + dt.timedelta(days=7 * evening))
        )  # fmt: skip
    wb = read_xlsx(render_export("season-ranking", club_a, "xlsx")[0])
    ws = wb.worksheets[0]
    assert ws.title == "Season 2026"
    columns = _header_index(ws)
    standing = standings_season.season_standing(season, only_published=False)
    rows = list(ws.iter_rows(min_row=2, values_only=True))
    assert len(rows) == len(standing.lines) == 8
    for values, line in zip(rows, standing.lines, strict=True):
        assert values[columns["Rank"]] == line.row.rank
        assert values[columns["Player"]] == line.name
        assert values[columns["Series played"]] == line.row.played == 4
        assert values[columns["Counted total"]] == line.row.counted_total
        assert values[columns["Average"]] == pytest.approx(line.row.average, abs=0.005)
        assert values[columns["Dropped"]] == len(line.dropped) == 1
        # In brackets, formatted like the totals (English here: "[-1,401] ...").
        dropped = f"{line.dropped[0].total:,}"
        assert values[columns["Dropped results"]].startswith(f"[{dropped}] ")
    assert "Season ranking 2026" in pdf_text(render_export("season-ranking", club_a, "pdf")[0])


def test_season_ranking_without_a_season(club_b):
    wb = read_xlsx(render_export("season-ranking", club_b, "xlsx")[0])
    assert wb.worksheets[0].max_row == 1


# ----- roles, as in test_views -----------------------------------------------------------------


def export_url(scope, pk, slug, fmt):
    return reverse("exports:export", args=[scope, pk, slug, fmt])


def test_new_exports_need_a_scorer_of_the_club(client, event, club_a, club_b, viewer_a, scorer_a):
    from tests.factories import user_with_role

    urls = [
        export_url("event", event.pk, "standings", "xlsx"),
        export_url("event", event.pk, "standings", "pdf"),
        export_url("event", event.pk, "event-workbook", "xlsx"),
        export_url("event", event.pk, "event-workbook", "html"),
        export_url("club", club_a.pk, "season-ranking", "xlsx"),
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    # Viewers read published standings on the pages; the export counts unpublished series.
    client.force_login(viewer_a)
    for url in urls:
        assert client.get(url).status_code == 403, url
    menu = client.get(reverse("exports:menu", args=["event", event.pk])).content.decode()
    assert "standings.xlsx" not in menu and "event-workbook" not in menu
    job_url = reverse("exports:job_start", args=["event", event.pk, "event-workbook", "pdf"])
    assert client.post(job_url).status_code == 403

    menu_url = reverse("exports:menu", args=["event", event.pk])
    event_page = reverse("tournaments:event_detail", args=[event.pk])
    assert menu_url in client.get(event_page).content.decode()

    client.force_login(user_with_role(club_b, "organiser", username="org_b"))
    for url in urls:
        assert client.get(url).status_code == 403, url
    # Another club's event page offers no menu that would answer 403.
    assert client.get(menu_url).status_code == 403
    assert menu_url not in client.get(event_page).content.decode()

    client.force_login(scorer_a)
    for url in urls:
        assert client.get(url).status_code == 200, url
    menu = client.get(reverse("exports:menu", args=["event", event.pk])).content.decode()
    for slug in ("standings", "event-workbook"):
        for fmt in ("xlsx", "pdf", "html"):
            assert export_url("event", event.pk, slug, fmt) in menu
    # Scope and slug must match.
    assert client.get(export_url("series", event.pk, "standings", "xlsx")).status_code == 404


def test_event_workbook_runs_as_a_job(client, event, scorer_a, monkeypatch):
    from scoring.exports.registry import get_exporter

    exporter = get_exporter("event-workbook")
    assert not exporter.is_long(event, "xlsx")
    monkeypatch.setattr(type(exporter), "is_long", lambda self, obj, fmt: True)
    client.force_login(scorer_a)
    menu = client.get(reverse("exports:menu", args=["event", event.pk])).content.decode()
    url = reverse("exports:job_start", args=["event", event.pk, "event-workbook", "xlsx"])
    assert url in menu
    job = client.post(url, HTTP_ACCEPT="application/json").json()
    status = client.get(job["status_url"]).json()
    assert status["state"] == "done" and status["percent"] == 100
    content = b"".join(client.get(status["download_url"]).streaming_content)
    assert "Series 1 – hands" in read_xlsx(content).sheetnames
