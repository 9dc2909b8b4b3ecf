"""Uploads through the pages and the command: refused with a German message, nothing stored."""

import io
import json

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from clubs.importing import ImportFileError, read_player_file
from clubs.models import PlayerImport
from common import limits
from tests.security import bombs


def test_openpyxl_parses_with_defusedxml():
    assert openpyxl.DEFUSEDXML is True


def test_openpyxl_alone_refuses_entities():
    """The second line of defence: even if the scan were skipped, defusedxml refuses."""
    from defusedxml import EntitiesForbidden

    for bomb in (bombs.billion_laughs_xlsx(), bombs.xxe_xlsx()):
        with pytest.raises(ValueError) as caught:
            openpyxl.load_workbook(io.BytesIO(bomb))
        assert isinstance(caught.value.__context__, EntitiesForbidden)


def test_plain_file_still_reads():
    parsed = read_player_file("list.xlsx", bombs.plain_xlsx([("7", "Berta", "Bär")]))
    assert [r.values["given_name"] for r in parsed.rows] == ["Berta"]


@pytest.mark.parametrize(
    ("name", "content", "said"),
    [
        ("x.xlsx", bombs.xxe_xlsx(), "DTD"),
        ("x.xlsx", bombs.modest_long_cell(), "mehr als 1000 Zeichen"),
        ("x.csv", b"Spielernummer;Vorname;Nachname\n" + b"1;A;B\n" * 1000 + b"2;\x00;C\n", "NUL"),
        ("x.xlsx", b"PK\x03\x04 not a zip", "Excel-Datei"),
    ],
)
def test_reader_names_the_limit(settings, name, content, said):
    settings.LANGUAGE_CODE = "de"
    from django.utils import translation

    with translation.override("de"), pytest.raises(ImportFileError) as caught:
        read_player_file(name, content)
    assert said in str(caught.value)


def test_control_characters_in_csv_cells_are_a_row_error():
    parsed = read_player_file("x.csv", b"Spielernummer;Vorname;Nachname\n1;An\x07na;Abel\n")
    (row,) = parsed.rows
    assert row.has_errors
    assert row.values["given_name"] == "Anna"


@pytest.mark.django_db
def test_upload_page_refuses_bomb_with_message(client, club_a, organiser_a):
    client.force_login(organiser_a)
    url = reverse("clubs:import_upload", args=[club_a.pk])
    upload = SimpleUploadedFile("bomb.xlsx", bombs.shared_string_bomb(64 * bombs.MIB))
    response = client.post(url, {"file": upload}, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 200
    assert "zip bomb" in response.content.decode()
    assert not PlayerImport.objects.exists()


@pytest.mark.django_db
def test_upload_page_checks_size_before_reading(client, club_a, organiser_a, settings):
    settings.UPLOAD_LIMITS = {"player_file_bytes": 1000}
    client.force_login(organiser_a)
    url = reverse("clubs:import_upload", args=[club_a.pk])
    upload = SimpleUploadedFile("big.csv", b"Spielernummer;Vorname;Nachname\n" + b"1;A;B\n" * 500)
    response = client.post(url, {"file": upload}, HTTP_ACCEPT_LANGUAGE="de")
    assert "hochgeladen werden" in response.content.decode()
    assert not PlayerImport.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("content", "said"),
    [
        (bombs.deep_json(10_000), "verschachtelt"),
        (bombs.huge_number_json(5000), "Ziffern"),
        (b'{"format": "a\\u0000b"}', "Steuerzeichen"),
        (b'{"format": NaN}', "keine Zahl"),
        (b"\xff\xfe{}", "Cannot read"),
    ],
)
def test_import_command_refuses_with_message(tmp_path, content, said):
    path = tmp_path / "archive.json"
    path.write_bytes(content)
    with pytest.raises(CommandError) as caught:
        call_command("import_event", str(path))
    assert said in str(caught.value)


def test_archive_size_is_checked_before_reading(tmp_path, settings):
    settings.UPLOAD_LIMITS = {"archive_bytes": 10}
    path = tmp_path / "archive.json"
    path.write_text(json.dumps({"format": "x" * 100}))
    with pytest.raises(CommandError, match="höchstens"):
        call_command("import_event", str(path))


def test_limits_can_be_overridden(settings):
    settings.UPLOAD_LIMITS = {"player_rows": 3}
    assert limits.limit("player_rows") == 3
    assert limits.limit("cell_chars") == limits.DEFAULTS["cell_chars"]
