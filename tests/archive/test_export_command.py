"""The commands: export_event / import_event move an event between installations; export
renders any registered export to a file."""

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db.models import Sum

from scoring.demo.generate import Plan, generate_event
from scoring.models import HandSeat
from tests.archive.test_archive import results, row_counts, wipe
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    club = ClubFactory(name="Herz Dame Kassel", short_name="HDK")
    names = ["Müller", "Özdemir", "Weiß", "Äbersold", "Bäcker", "Schröder", "Krüger", "Hoß"]
    players = []
    for i, family in enumerate(names):
        player = PlayerFactory(player_number=f"K{i:04d}", family_name=family, given_name="Jürgen")
        MembershipFactory(player=player, club=club)
        players.append(player)
    return generate_event(
        Plan(name="Herbstturnier", club=club, players=players, series=2, rounds=1, pairs=1,
             confirmed_series=1, entered_tables=1)
    )  # fmt: skip


def test_export_event_then_import_event(event, tmp_path):
    path = tmp_path / "event.json"
    before = results(event)
    call_command("export_event", event.pk, "-o", str(path), stderr=io.StringIO())
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["event"]["name"] == "Herbstturnier"
    wipe(event)

    out = io.StringIO()
    call_command("import_event", str(path), stdout=out, stderr=io.StringIO())
    assert "Imported 'Herbstturnier' as event" in out.getvalue()
    from tournaments.models import Event

    imported = Event.objects.get(name="Herbstturnier")
    assert results(imported) == before


def test_export_event_to_stdout(event, capsys):
    call_command("export_event", event.pk)
    assert json.loads(capsys.readouterr().out)["format"] == "romme-ledger-event"


def test_import_event_refusals_name_the_path_and_keep_nothing(event, tmp_path):
    path = tmp_path / "event.json"
    call_command("export_event", event.pk, "-o", str(path), stderr=io.StringIO())
    counts = row_counts()
    with pytest.raises(CommandError, match=r"\$\.event\.name: .*--rename"):
        call_command("import_event", str(path))
    data = json.loads(path.read_text(encoding="utf-8"))
    data["participants"][1]["ref"] = "zwei"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(
        CommandError, match=r"Refused, nothing imported: \$\.participants\[1\]\.ref"
    ):
        call_command("import_event", str(path), "--rename", "Anders")
    assert row_counts() == counts


def test_import_event_check_and_rename(event, tmp_path):
    path = tmp_path / "event.json"
    call_command("export_event", event.pk, "-o", str(path), stderr=io.StringIO())
    counts = row_counts()
    out = io.StringIO()
    call_command("import_event", str(path), "--rename", "Probe", "--check", stdout=out)
    assert "Would import 'Probe'" in out.getvalue() and "nothing was kept" in out.getvalue()
    assert row_counts() == counts
    call_command("import_event", str(path), "--rename", "Probe", stdout=io.StringIO())
    total = HandSeat.objects.filter(participant__event__name="Probe").aggregate(s=Sum("points"))
    original = HandSeat.objects.filter(participant__event=event).aggregate(s=Sum("points"))
    assert total == original


def test_export_event_unknown_id():
    with pytest.raises(CommandError, match="no event with id 999"):
        call_command("export_event", 999, "-o", "x.json")


# ----- export ------------------------------------------------------------------------------


def test_export_series_as_xlsx(event, tmp_path):
    from openpyxl import load_workbook

    path = tmp_path / "seating.xlsx"
    call_command(
        "export", event.pk, "seating", "--format", "xlsx", "--series", "1", "-o", str(path),
        "--language", "en", stderr=io.StringIO(),
    )  # fmt: skip
    book = load_workbook(path)
    cells = [
        str(c) for ws in book.worksheets for row in ws.iter_rows(values_only=True) for c in row
    ]
    assert any("Müller" in c for c in cells)


def test_export_club_as_pdf(event, tmp_path):
    from pypdf import PdfReader

    path = tmp_path / "players.pdf"
    call_command(
        "export", event.pk, "players", "--format", "pdf", "-o", str(path), stderr=io.StringIO()
    )
    text = "\n".join(page.extract_text() for page in PdfReader(path).pages)
    assert "Özdemir" in text and "Herz Dame Kassel" in text


def test_export_score_sheets_pdf(event, tmp_path):
    from pypdf import PdfReader

    path = tmp_path / "sheets.pdf"
    call_command(
        "export", event.pk, "score-sheets", "--format", "pdf", "--series", "2", "-o", str(path),
        stderr=io.StringIO(),
    )  # fmt: skip
    text = "\n".join(page.extract_text() for page in PdfReader(path).pages)
    assert "Weiß" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["seating", "--format", "xlsx"], r"give --series N \(this event has 1, 2\)"),
        (["seating", "--series", "7"], "no series 7"),
        (["players", "--series", "1"], "--series does not apply"),
        (["nonsense"], "Unknown export 'nonsense'. Known: .*seating \\(series\\)"),
    ],
)
def test_export_refusals(event, tmp_path, args, message):
    with pytest.raises(CommandError, match=message):
        call_command("export", event.pk, *args, "-o", str(tmp_path / "x"))


def test_import_event_refuses_in_the_language_asked_for(event, tmp_path):
    path = tmp_path / "event.json"
    call_command("export_event", event.pk, "-o", str(path), stderr=io.StringIO())
    with pytest.raises(CommandError) as german:
        call_command("import_event", str(path))
    assert "importieren Sie sie unter einem anderen Namen (--rename NEW_NAME)" in str(german.value)
    with pytest.raises(CommandError) as english:
        call_command("import_event", str(path), "--language", "en")
    assert "import it under another name (--rename NEW_NAME)" in str(english.value)
