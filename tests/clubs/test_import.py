"""Player import: preview first, nothing written until confirmed, re-import updates."""

import datetime as dt
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import Workbook

from clubs import services
from clubs.importing import ImportFileError, read_player_file
from clubs.models import Membership, Player, PlayerImport
from tests.factories import MembershipFactory

pytestmark = pytest.mark.django_db

GOOD = (
    "Spielernummer;Vorname;Nachname;Geburtsjahr;Aktiv;Mitglied seit\n"
    "100;Anna;Müller;1961;ja;01.03.2020\n"
    "101;Jürgen;Schäfer;;nein;\n"
    "102;Zoë;Weiß;1990;;2021-05-01\n"
)


def _upload(user, club, text_or_bytes, name="spieler.csv"):
    content = text_or_bytes.encode("utf-8") if isinstance(text_or_bytes, str) else text_or_bytes
    return services.upload_player_file(user, club, name, content)


def test_preview_writes_nothing_and_confirm_creates_players(club_a, organiser_a):
    player_import = _upload(organiser_a, club_a, "\ufeff" + GOOD)
    parsed = services.preview_player_import(organiser_a, player_import)
    assert [r.action for r in parsed.rows] == ["create", "create", "create"]
    assert [r.row for r in parsed.rows] == [2, 3, 4]
    assert Player.objects.count() == 0

    outcome = services.apply_player_import(organiser_a, player_import)
    assert (outcome.created, outcome.updated, outcome.skipped) == (3, 0, 0)
    anna = Player.objects.get(player_number="100")
    assert (anna.given_name, anna.family_name, anna.birth_year, anna.active) == (
        "Anna", "Müller", 1961, True,
    )  # fmt: skip
    assert not Player.objects.get(player_number="101").active
    assert Membership.objects.get(player=anna).valid_from == dt.date(2020, 3, 1)
    assert Membership.objects.get(player__player_number="102").valid_from == dt.date(2021, 5, 1)
    assert anna.history.get().history_user == organiser_a
    player_import.refresh_from_db()
    assert player_import.status == PlayerImport.Status.APPLIED


def test_each_kind_of_bad_row_is_reported_with_row_column_and_message(club_a, organiser_a):
    text = (
        "Spielernummer,Vorname,Nachname,Geburtsjahr,Aktiv,Mitglied seit\n"
        "1,Anna,Müller,1961,ja,01.01.2020\n"  # good
        ",Bernd,Becker,1950,ja,\n"  # number missing
        "3,,Becker,1950,ja,\n"  # given name missing
        "1,Doppelt,Nummer,1950,ja,\n"  # number repeated
        "5,Eva,Klein,neunzehn,ja,\n"  # birth year not a number
        "6,Fritz,Groß,1850,ja,\n"  # birth year implausible
        "7,Gabi,Lang,1950,vielleicht,\n"  # active not yes/no
        "8,Hans,Kurz,1950,ja,31.02.2020\n"  # impossible date
        f"9,{'X' * 101},Zu lang,1950,ja,\n"  # too long
    )
    parsed = services.preview_player_import(organiser_a, _upload(organiser_a, club_a, text))
    problems = {(p.row, p.column) for r in parsed.rows for p in r.problems}
    assert problems == {
        (3, "player_number"),
        (4, "given_name"),
        (5, "player_number"),
        (6, "birth_year"),
        (7, "birth_year"),
        (8, "active"),
        (9, "member_from"),
        (10, "given_name"),
    }
    by_row = {r.row: r for r in parsed.rows}
    assert "row 2" in by_row[5].problems[0].message
    assert "“vielleicht” is not yes or no" in by_row[8].problems[0].message
    assert [r.action for r in parsed.rows].count("create") == 1
    outcome = services.apply_player_import(organiser_a, PlayerImport.objects.get())
    assert (outcome.created, outcome.skipped) == (1, 8)
    assert list(Player.objects.values_list("player_number", flat=True)) == ["1"]


def test_reimport_updates_by_player_number_instead_of_duplicating(club_a, organiser_a):
    services.apply_player_import(organiser_a, _upload(organiser_a, club_a, GOOD))
    again = _upload(organiser_a, club_a, GOOD)
    parsed = services.preview_player_import(organiser_a, again)
    assert {r.action for r in parsed.rows} == {"unchanged"}
    changed = GOOD.replace("Müller;1961", "Müller-Lüdenscheidt;1962")
    outcome = services.apply_player_import(organiser_a, _upload(organiser_a, club_a, changed))
    assert (outcome.created, outcome.updated, outcome.unchanged) == (0, 1, 2)
    assert Player.objects.count() == 3
    anna = Player.objects.get(player_number="100")
    assert (anna.family_name, anna.birth_year) == ("Müller-Lüdenscheidt", 1962)
    assert anna.history.count() == 2


def test_reimport_into_another_club_needs_that_clubs_organiser(club_a, club_b, organiser_a):
    MembershipFactory(club=club_b, player__player_number="100")
    parsed = services.preview_player_import(organiser_a, _upload(organiser_a, club_a, GOOD))
    first = parsed.rows[0]
    assert first.action == "skip"
    assert "Kreuz Bube Fulda" in first.problems[0].message


def test_lookalike_rows_are_warned_but_imported(club_a, organiser_a):
    services.create_player(
        organiser_a, club_a, given_name="Anna", family_name="Müller", player_number="9",
        birth_year=1961,
    )  # fmt: skip
    parsed = services.preview_player_import(organiser_a, _upload(organiser_a, club_a, GOOD))
    anna = parsed.rows[0]
    assert anna.action == "create"
    assert anna.problems[0].severity == "warning" and "9" in anna.problems[0].message


def test_windows_1252_file_is_read_with_a_notice():
    parsed = read_player_file("liste.csv", GOOD.encode("cp1252"))
    assert parsed.rows[0].values["family_name"] == "Müller"
    assert "Windows-1252" in parsed.notices[0]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "empty"),
        (b"  \n\n ", "empty"),
        ("Vorname;Nachname\nAnna;Müller\n".encode(), "Columns missing: Spielernummer"),
        ("Nummer;Name\n".encode("utf-16-le"), "not a text file"),
        (b"Spielernummer;Vorname;Nachname\n1;\x81\xff;x\n", "encoding"),
    ],
)
def test_unreadable_files_get_a_clear_answer(content, message):
    with pytest.raises(ImportFileError, match=message):
        read_player_file("liste.csv", content)


def test_wrong_file_type_and_broken_excel_are_refused():
    with pytest.raises(ImportFileError, match=r"\.csv or \.xlsx"):
        read_player_file("liste.pdf", b"%PDF-1.7")
    with pytest.raises(ImportFileError, match="Excel"):
        read_player_file("liste.xlsx", b"PK\x03\x04 not really a zip")


def test_excel_file_with_numbers_and_dates():
    workbook = Workbook()
    sheet = workbook.active
    sheet.append(["Passnummer", "Vorname", "Nachname", "Jahrgang", "Mitglied seit"])
    sheet.append([4711, "Anna", "Müller", 1961, dt.datetime(2020, 3, 1)])
    buffer = io.BytesIO()
    workbook.save(buffer)
    parsed = read_player_file("liste.xlsx", buffer.getvalue())
    values = parsed.rows[0].values
    assert (values["player_number"], values["birth_year"], values["member_from"]) == (
        "4711", 1961, dt.date(2020, 3, 1),
    )  # fmt: skip


def test_ten_thousand_rows_through_the_pages(client, club_a, organiser_a):
    lines = ["Spielernummer;Vorname;Nachname;Geburtsjahr"]
    lines += [f"N{i};Vorname{i};Nachname{i % 500};{1940 + i % 60}" for i in range(10_000)]
    client.force_login(organiser_a)
    upload = SimpleUploadedFile("gross.csv", "\n".join(lines).encode())
    response = client.post(reverse("clubs:import_upload", args=[club_a.pk]), {"file": upload})
    assert response.status_code == 302
    preview = client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="en")
    assert preview.status_code == 200
    assert "Import 10000 rows" in preview.content.decode()
    assert Player.objects.count() == 0
    done = client.post(response["Location"], {"confirm": "1"})
    assert done.status_code == 302
    assert Player.objects.count() == 10_000
    assert Membership.objects.filter(club=club_a).count() == 10_000


def test_bad_file_through_the_page_is_a_form_error_not_a_500(client, club_a, organiser_a):
    client.force_login(organiser_a)
    upload = SimpleUploadedFile("leer.csv", b"")
    response = client.post(
        reverse("clubs:import_upload", args=[club_a.pk]),
        {"file": upload},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200
    assert "The submitted file is empty" in response.content.decode()
    upload = SimpleUploadedFile("x.csv", b"Vorname\nAnna\n")
    response = client.post(
        reverse("clubs:import_upload", args=[club_a.pk]),
        {"file": upload},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200 and "Columns missing" in response.content.decode()
    assert PlayerImport.objects.count() == 0
