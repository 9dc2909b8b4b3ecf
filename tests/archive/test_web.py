"""The event archive on the web: a director downloads it from the event page (an export job)
and an organiser imports it on the import page (a task); who may do which, hostile uploads,
the dry run and a failing worker. German pages unless a test says otherwise."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scoring.archive import jobs
from scoring.demo.generate import Plan, generate_event
from scoring.models import ArchiveImport
from tests.archive.test_archive import results, row_counts
from tests.factories import (
    IMMEDIATE_TASKS,
    ClubFactory,
    MembershipFactory,
    PlayerFactory,
    user_with_role,
)
from tournaments.models import Event

pytestmark = pytest.mark.django_db

DE = {"HTTP_ACCEPT_LANGUAGE": "de-DE,de;q=0.9"}
IMPORT = "/archive/import/"


@pytest.fixture(autouse=True)
def immediate_tasks(settings):
    settings.TASKS = IMMEDIATE_TASKS


@pytest.fixture
def event(club_a, club_b):
    """Club A's event: eight players of club A and two guests of club B, a pair, series 1
    confirmed, series 2 with an entered sheet and a draft."""
    players = []
    for i in range(12):
        player = PlayerFactory(player_number=f"W{i:04d}", given_name=f"Jürgen{i}")
        MembershipFactory(player=player, club=club_b if i in (3, 7) else club_a)
        players.append(player)
    return generate_event(
        Plan(name="Kasseler Herbstturnier", club=club_a, players=players, series=2, rounds=1,
             pairs=1, confirmed_series=1, entered_tables=1, draft_tables=1)
    )  # fmt: skip


def archive_of(client, event, **headers) -> tuple[bytes, str]:
    """Download the event's archive as the page does: start the job, poll, fetch."""
    url = reverse("exports:job_start", args=["event", event.pk, "event-archive", "json"])
    response = client.post(url, HTTP_ACCEPT="application/json", **headers)
    assert response.status_code == 202, response.status_code
    status = client.get(response.json()["status_url"], **headers).json()
    assert status["state"] == "done" and status["percent"] == 100
    download = client.get(status["download_url"], **headers)
    assert download.status_code == 200
    assert download["Content-Type"] == "application/json"
    assert download["Content-Disposition"].startswith("attachment;")
    return b"".join(download.streaming_content), status["filename"]


def upload(client, content: bytes, name="archiv.json", **fields):
    data = {"file": SimpleUploadedFile(name, content, content_type="application/json")}
    data.update(fields)
    return client.post(IMPORT, data, **DE)


def page_text(response) -> str:
    return response.content.decode()


def standings(client, event) -> list[dict]:
    """The standings JSON (provisional: every entered sheet), without this installation's ids."""
    url = reverse("standings:api", args=[event.pk])
    rows = client.get(url, {"provisional": "1"}).json()["rows"]
    for row in rows:
        row["player"].pop("participant_id")
    return rows


# ----- download ----------------------------------------------------------------------------


def test_round_trip_through_the_web(client, event, organiser_a):
    client.force_login(organiser_a)
    page = page_text(client.get(event.get_absolute_url(), **DE))
    assert "Veranstaltungsarchiv (JSON) herunterladen" in page and "data-export-job" in page
    content, filename = archive_of(client, event, **DE)
    assert filename == "kasseler-herbstturnier-veranstaltungsarchiv.json"
    data = json.loads(content)
    assert data["format"] == "romme-ledger-event" and data["event"]["name"] == event.name

    response = upload(client, content, filename, rename="Kasseler Herbstturnier (Kopie)")
    assert response.status_code == 302
    job = ArchiveImport.objects.get()
    assert response["Location"] == reverse("archive:import_job", args=[job.pk])
    assert job.state == "done" and job.text == "" and job.language == "de"
    new = Event.objects.get(name="Kasseler Herbstturnier (Kopie)")
    assert job.event == new and new.club == event.club

    shown = page_text(client.get(response["Location"], **DE))
    assert "Importiert als „Kasseler Herbstturnier (Kopie)“." in shown
    assert f'href="{new.get_absolute_url()}"' in shown
    assert "Neue Veranstaltung „Kasseler Herbstturnier (Kopie)“ öffnen" in shown
    # The same points, derived here again from the raw facts; the same standings.
    before, after = results(event), results(new)
    assert after["totals"] == before["totals"] and after["per_series"] == before["per_series"]
    assert after["sheets"] == before["sheets"] and after["seating"] == before["seating"]
    assert standings(client, new) == standings(client, event)
    # The history names the importing user; the results version counts the import.
    assert new.history.earliest().history_user == organiser_a
    reason = new.history.earliest().history_change_reason
    assert reason == "Aus einem Veranstaltungsarchiv importiert"
    assert new.results_version >= 1


def test_the_archive_file_name_is_in_the_readers_language(client, event, organiser_a):
    client.force_login(organiser_a)
    _content, filename = archive_of(client, event, HTTP_ACCEPT_LANGUAGE="en")
    assert filename == "kasseler-herbstturnier-event-archive.json"


def test_download_needs_a_director_of_the_events_club(client, event, club_a, club_b, superuser):
    job_start = reverse("exports:job_start", args=["event", event.pk, "event-archive", "json"])
    direct = reverse("exports:export", args=["event", event.pk, "event-archive", "json"])
    response = client.post(job_start)
    assert response.status_code == 302 and response["Location"].startswith("/login/")
    assert client.get(direct).status_code == 302
    for user in (
        user_with_role(club_a, "viewer", username="v"),
        user_with_role(club_a, "scorer", username="s"),
        user_with_role(club_b, "organiser", username="o_b"),
    ):
        client.force_login(user)
        assert client.post(job_start, HTTP_ACCEPT="application/json").status_code == 403
        assert client.get(direct).status_code == 403
        assert "event-archive" not in page_text(client.get(f"/exports/event/{event.pk}/"))
        assert "herunterladen" not in page_text(client.get(event.get_absolute_url(), **DE))
    for user in (user_with_role(club_a, "organiser", username="o_a"), superuser):
        client.force_login(user)
        assert client.post(job_start, HTTP_ACCEPT="application/json").status_code == 202
        response = client.get(direct)
        assert response.status_code == 200
        assert json.loads(response.content)["event"]["name"] == "Kasseler Herbstturnier"
        assert "event-archive" in page_text(client.get(f"/exports/event/{event.pk}/"))


# ----- import: who may -------------------------------------------------------------------


def test_the_import_page_is_for_organisers_and_superusers(client, club_a, club_b, superuser):
    response = client.get(IMPORT)
    assert response.status_code == 302 and response["Location"].startswith("/login/")
    assert client.post(IMPORT).status_code == 302
    for user in (
        user_with_role(club_a, "viewer", username="v"),
        user_with_role(club_a, "scorer", username="s"),
    ):
        client.force_login(user)
        assert client.get(IMPORT, **DE).status_code == 403
        assert upload(client, b"{}").status_code == 403
        assert "Veranstaltungsarchiv importieren" not in page_text(client.get("/events/", **DE))
    for user in (user_with_role(club_b, "organiser", username="o_b"), superuser):
        client.force_login(user)
        page = page_text(client.get(IMPORT, **DE))
        assert "Veranstaltungsarchiv importieren" in page
        assert 'enctype="multipart/form-data"' in page
        assert 'href="/archive/import/"' in page_text(client.get("/events/", **DE))
    organiser_a = user_with_role(club_a, "organiser", username="o_a")
    client.force_login(organiser_a)
    assert 'href="/archive/import/"' in page_text(client.get(club_a.get_absolute_url(), **DE))
    assert 'href="/archive/import/"' not in page_text(client.get(club_b.get_absolute_url(), **DE))


def test_who_may_import_which_archive(client, event, club_a, club_b, organiser_a, superuser):
    content = json.dumps(_archive(client, event, organiser_a)).encode()
    outsider = user_with_role(club_b, "organiser", username="o_b")
    client.force_login(outsider)
    counts = row_counts()
    response = upload(client, content, rename="Kopie")
    assert response.status_code == 403
    text = page_text(response)
    assert "Abgelehnt, nichts importiert – an der Stelle $.event.club.short_name der Datei" in text
    assert "Sie brauchen die Rolle „Organisation“ im Verein „Herz Dame Kassel“" in text
    assert row_counts() == counts and not ArchiveImport.objects.exists()

    for user, name in ((organiser_a, "Kopie A"), (superuser, "Kopie S")):
        client.force_login(user)
        assert upload(client, content, rename=name).status_code == 302
        assert Event.objects.get(name=name).club == club_a


def _archive(client, event, user) -> dict:
    client.force_login(user)
    content, _name = archive_of(client, event)
    client.logout()
    return json.loads(content)


def test_an_organiser_creates_no_club(client, event, organiser_a, superuser):
    data = _archive(client, event, organiser_a)
    # The guests' club is unknown here: only an administrator may create it.
    data["clubs"][0]["short_name"] = "NEU"
    for participant in data["participants"]:
        if participant["club_short_name"] == "KBF":
            participant["club_short_name"] = "NEU"
    client.force_login(organiser_a)
    response = upload(client, json.dumps(data).encode(), rename="Kopie")
    assert response.status_code == 403
    assert "an der Stelle $.clubs[0].short_name der Datei" in page_text(response)
    assert "nur ein Administrator darf" in page_text(response)
    # A club the file organises under: unknown here, so nobody here organises it.
    data["event"]["club"]["short_name"] = "ZZZ"
    for participant in data["participants"]:
        if participant["club_short_name"] == "HDK":
            participant["club_short_name"] = "ZZZ"
    response = upload(client, json.dumps(data).encode(), rename="Kopie")
    assert response.status_code == 403
    assert "$.event.club.short_name" in page_text(response)
    assert not ArchiveImport.objects.exists()
    client.force_login(superuser)
    assert upload(client, json.dumps(data).encode(), rename="Kopie").status_code == 302
    job = ArchiveImport.objects.get()
    assert job.state == "done", (job.error_path, job.error)
    assert Event.objects.get(name="Kopie").club.short_name == "ZZZ"


def test_the_worker_checks_the_role_again(client, event, organiser_a, settings):
    from clubs.models import ClubRole

    content = json.dumps(_archive(client, event, organiser_a)).encode()
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    client.force_login(organiser_a)
    assert upload(client, content, rename="Kopie").status_code == 302
    job = ArchiveImport.objects.get()
    assert job.state == "queued" and job.text
    status = client.get(reverse("archive:import_status", args=[job.pk]), **DE).json()
    assert status["message"] == "Wartet auf einen freien Hintergrunddienst …"
    ClubRole.objects.filter(user=organiser_a).delete()  # the role went while it waited
    jobs.run_archive_import.call(job.pk)
    job.refresh_from_db()
    assert job.state == "failed" and job.error_path == "$.event.club.short_name"
    assert "Organisation" in job.error and not Event.objects.filter(name="Kopie").exists()


def test_an_import_is_its_users_own(client, event, organiser_a, club_a):
    content = json.dumps(_archive(client, event, organiser_a)).encode()
    client.force_login(organiser_a)
    upload(client, content, rename="Kopie")
    job = ArchiveImport.objects.get()
    urls = [reverse(f"archive:{name}", args=[job.pk]) for name in ("import_job", "import_status")]
    assert [client.get(url).status_code for url in urls] == [200, 200]
    client.force_login(user_with_role(club_a, "organiser", username="o_a2"))
    assert [client.get(url).status_code for url in urls] == [404, 404]
    assert client.get("/archive/imports/..%2F..%2Fetc/status/").status_code == 404


# ----- import: what it does ----------------------------------------------------------------


def test_check_only_runs_the_import_and_keeps_nothing(client, event, organiser_a):
    content = json.dumps(_archive(client, event, organiser_a)).encode()
    client.force_login(organiser_a)
    counts = row_counts()
    response = upload(client, content, rename="Probe", check_only="on")
    assert response.status_code == 302
    assert row_counts() == counts
    job = ArchiveImport.objects.get()
    assert job.state == "done" and job.check_only and job.event is None
    assert job.result["created"]["events"] == 1 and job.result["created"]["sheets"] > 0
    page = page_text(client.get(response["Location"], **DE))
    assert "Nur geprüft: Das Archiv lässt sich als „Probe“ importieren" in page
    assert "Was der Import anlegen würde" in page and "öffnen" not in page


def test_a_second_import_needs_a_new_name(client, event, organiser_a):
    content = json.dumps(_archive(client, event, organiser_a)).encode()
    client.force_login(organiser_a)
    counts = row_counts()
    response = upload(client, content)
    job = ArchiveImport.objects.get()
    assert job.state == "failed" and job.error_path == "$.event.name"
    page = page_text(client.get(response["Location"], **DE))
    assert "Abgelehnt, nichts importiert – an der Stelle $.event.name der Datei" in page
    assert "importieren Sie sie unter einem anderen Namen" in page
    assert row_counts() == counts


def test_warnings_are_shown_in_german(client, event, organiser_a):
    from clubs.models import Player

    data = _archive(client, event, organiser_a)
    data["event"]["future_field"] = 1
    Player.objects.filter(player_number="W0001").update(given_name="Anders")
    client.force_login(organiser_a)
    response = upload(client, json.dumps(data).encode(), rename="Kopie")
    page = page_text(client.get(response["Location"], **DE))
    assert "event: das Feld &#x27;future_field&#x27; ist hier unbekannt" in page
    assert "Spieler W0001: hier" in page and "(beibehalten)" in page


def test_a_bad_field_deep_in_the_file_fails_with_its_path(client, event, organiser_a):
    data = _archive(client, event, organiser_a)
    data["series"][0]["tables"][1]["sheet"]["versions"][0]["grid"]["hands"][0]["winner"] = 7
    client.force_login(organiser_a)
    counts = row_counts()
    response = upload(client, json.dumps(data).encode(), rename="Kopie")
    assert row_counts() == counts
    status = client.get(response["Location"].rstrip("/") + "/status/", **DE).json()
    assert status["state"] == "failed" and status["event_url"] is None
    assert status["message"] == (
        "Abgelehnt, nichts importiert – an der Stelle "
        "$.series[0].tables[1].sheet.versions[0].grid.hands[0].winner der Datei: "
        "7 ist größer als das Maximum 5"
    )


def test_a_failing_worker_leaves_a_failed_row_with_a_german_message(
    client, event, organiser_a, monkeypatch
):
    content = json.dumps(_archive(client, event, organiser_a)).encode()

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(jobs, "import_event", broken)
    client.force_login(organiser_a)
    counts = row_counts()
    response = upload(client, content, rename="Kopie")
    assert response.status_code == 302 and row_counts() == counts
    job = ArchiveImport.objects.get()
    assert job.state == "failed" and job.text == "" and job.error_path == ""
    expected = (
        "Der Import ist im Hintergrunddienst abgebrochen (RuntimeError); es wurde nichts "
        "importiert. Bitte erneut versuchen oder einem Administrator Bescheid geben."
    )
    assert job.error == expected
    status = client.get(reverse("archive:import_status", args=[job.pk]), **DE).json()
    assert status["state"] == "failed" and status["message"] == expected
    assert expected in page_text(client.get(response["Location"], **DE))


# ----- hostile uploads ---------------------------------------------------------------------


HOSTILE = [
    ("not-json", b"{nicht json", "kein JSON: ein Name in doppelten Anf"),
    ("empty", b"", "Die übertragene Datei ist leer"),
    ("not-utf-8", '{"a": "Müller"}'.encode("latin-1"), "keine Textdatei in UTF-8"),
    ("deep", b"[" * 5000 + b"]" * 5000, "tiefer als 32 Ebenen verschachtelt"),
    ("wide", b"[" + b"0," * 200_000 + b"0]", "mehr als 100000 Einträge"),
    ("long-number", b'{"a": 1' + b"0" * 400 + b"}", "mehr als 20 Ziffern"),
    ("nan", b'{"a": NaN}', "keine Zahl, die gespeichert werden kann"),
    ("control-char", b'{"format": "romme-ledger-event\\u0000"}', "Steuerzeichen (Code 0)"),
    ("raw-nul", b'{"a": "\x00"}', "in einem Text steht ein Steuerzeichen"),
    ("a-list", b"[1, 2, 3]", "die Datei enthält kein Veranstaltungsarchiv"),
    ("wrong-format", b'{"format": "excel", "version": 1}', "$.format der Datei: erwartet"),
    ("wrong-version", b'{"format": "romme-ledger-event", "version": 99}', "$.version"),
]


@pytest.mark.parametrize(("name", "content", "words"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_uploads_are_refused_in_german_and_nothing_is_written(
    client, organiser_a, name, content, words
):
    client.force_login(organiser_a)
    counts = row_counts()
    response = upload(client, content)
    assert response.status_code == 400
    text = page_text(response)
    assert "Das Formular wurde nicht gespeichert" in text
    assert words in text.replace("&quot;", '"').replace("&#x27;", "'"), text[-3000:]
    assert row_counts() == counts and not ArchiveImport.objects.exists()


def test_an_oversized_file_is_refused_before_it_is_read(client, organiser_a, settings):
    settings.UPLOAD_LIMITS = {"archive_bytes": 1024 * 1024}
    client.force_login(organiser_a)
    response = upload(client, b" " * (1024 * 1024 + 1))
    assert response.status_code == 400
    assert "höchstens 1 MB" in page_text(response)
    assert not ArchiveImport.objects.exists()


def test_a_form_without_a_file_is_a_400(client, organiser_a):
    client.force_login(organiser_a)
    response = client.post(IMPORT, {"rename": "x"}, **DE)
    assert response.status_code == 400
    assert "Dieses Feld ist erforderlich" in page_text(response)


# ----- rows ----------------------------------------------------------------------------------


def test_old_imports_are_removed_and_quiet_ones_read_as_failed(client, event, organiser_a):
    import datetime as dt

    from django.utils import timezone

    content = json.dumps(_archive(client, event, organiser_a)).encode()
    client.force_login(organiser_a)
    upload(client, content, rename="Eins", check_only="on")
    old = ArchiveImport.objects.get()
    ArchiveImport.objects.filter(pk=old.pk).update(
        updated_at=timezone.now() - dt.timedelta(hours=2)
    )
    upload(client, content, rename="Zwei", check_only="on")
    assert list(ArchiveImport.objects.values_list("rename", flat=True)) == ["Zwei"]
    quiet = timezone.now() - jobs.JOB_STALE_AFTER - dt.timedelta(seconds=1)
    ArchiveImport.objects.update(state="running", updated_at=quiet)
    job = ArchiveImport.objects.get()
    status = client.get(reverse("archive:import_status", args=[job.pk]), **DE).json()
    assert status["state"] == "failed"
    assert status["message"] == "Kein Hintergrunddienst hat geantwortet."


def test_the_permission_follows_the_clubs_the_file_names(club_a):
    """A club B organiser's own archive is fine: the permission follows the file's club."""
    other = ClubFactory(name="Pik As Kiel", short_name="PAK")
    user = user_with_role(other, "organiser", username="o_k")
    data = {"event": {"club": {"short_name": "PAK"}}, "clubs": [{"short_name": "HDK"}]}
    jobs.check_permission(user, data)  # both clubs exist, the user organises the event's
    data["clubs"].append({"short_name": "NOPE"})
    with pytest.raises(jobs.ArchiveError) as info:
        jobs.check_permission(user, data)
    assert info.value.path == "$.clubs[1].short_name" and info.value.code == jobs.FORBIDDEN
