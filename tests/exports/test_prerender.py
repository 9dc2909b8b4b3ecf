"""The standings PDF rendered ahead (issue 29 item 5): a worker renders it once the results
have settled, the click serves it while it matches the event's results, never a stale one."""

import copy
import datetime as dt

import pytest
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from scoring.exports import prerender
from scoring.exports import views as export_views
from scoring.models import ExportJob, PrerenderedExport
from scoring.sheets import services as sheet_services
from scoring.standings import selectors
from tests.exports.conftest import pdf_text, run_worker
from tests.factories import seated_table
from tests.sheets.conftest import make_series, random_grid, scorer
from tournaments.models import Event, Participant, Series
from tournaments.results import bump_results_version

TASK = "scoring.exports.prerender.prerender_standings"


@pytest.fixture
def ahead(settings, database_tasks):
    """The app's database queue; every event rendered ahead, at once, in German and English."""
    settings.STANDINGS_PRERENDER_SETTLE = 0
    settings.STANDINGS_PRERENDER_MIN_PARTICIPANTS = 0
    settings.STANDINGS_PRERENDER_LANGUAGES = ("de", "en")
    return settings


def _confirmed(club, table, grid, entering, checking):
    sheet_services.save_sheet(entering, table, grid, expected_version=0, submit=True)
    sheet_services.confirm_sheet(checking, table, copy.deepcopy(grid), expected_version=1)


def _waiting_renders():
    return DBTaskResult.objects.filter(task_path=TASK, status=TaskResultStatus.READY)


def _version(event_id) -> int:
    return Event.objects.values_list("results_version", flat=True).get(pk=event_id)


def _click(client, event_id, language="de"):
    url = reverse("exports:export", args=["event", event_id, "standings", "pdf"])
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    return response.content


def _german(number: int) -> str:
    return f"{number:,}".replace(",", ".")


def _total_of(event, name: str) -> int:
    standing = selectors.event_standing(Event.objects.get(pk=event.pk), only_published=False)
    return next(row.total for row in standing.rows if row.name == name)


@pytest.mark.django_db(transaction=True)
def test_a_confirmation_renders_ahead_and_the_click_serves_that_file(
    client, club_a, scorer_a, organiser_a, ahead, monkeypatch
):
    series, tables = make_series(club_a, tables=2)
    _confirmed(club_a, tables[0], random_grid(seed=3), scorer_a, scorer(club_a, "checker"))
    assert _waiting_renders().count() == 1  # asked for after the commit, not rendered yet
    assert not PrerenderedExport.objects.exists()
    run_worker()
    version = _version(series.event_id)
    stored = {r.language: r for r in PrerenderedExport.objects.all()}
    assert set(stored) == {"de", "en"}
    assert {r.results_version for r in stored.values()} == {version}
    assert "Wertung (alle bestätigten Spiellisten)" in pdf_text(bytes(stored["de"].content))
    assert "Standings (all confirmed sheets)" in pdf_text(bytes(stored["en"].content))

    def no_render(*args, **kwargs):
        raise AssertionError("the click rendered although a fresh file was stored")

    monkeypatch.setattr(export_views, "render_export", no_render)
    client.force_login(organiser_a)
    assert _click(client, series.event_id, "de") == bytes(stored["de"].content)
    assert _click(client, series.event_id, "en") == bytes(stored["en"].content)


@pytest.mark.django_db(transaction=True)
def test_a_changed_hand_is_never_answered_with_the_stored_file(
    client, club_a, scorer_a, organiser_a, ahead
):
    series, tables = make_series(club_a, tables=2)
    grid = random_grid(seed=5)
    _confirmed(club_a, tables[0], grid, scorer_a, scorer(club_a, "checker"))
    run_worker()
    old = bytes(PrerenderedExport.objects.get(language="de").content)
    before = _total_of(series.event, "Anna Müller")  # seat 0 of table 1
    # The director corrects a hand of the confirmed sheet: Anna Müller loses 13 more points.
    corrected = copy.deepcopy(grid)
    hand = next(h for h in corrected["hands"] if h["winner"] != 0)
    hand["seats"][0]["hand_points"] += 13
    sheet_services.save_sheet(
        organiser_a, tables[0], corrected, expected_version=2, submit=True, reason="Tippfehler"
    )
    after = _total_of(series.event, "Anna Müller")
    assert after != before
    client.force_login(organiser_a)
    fresh = _click(client, series.event_id)  # before any worker ran again
    assert fresh != old
    assert f"Anna Müller {_german(after)}" in pdf_text(fresh)
    assert f"Anna Müller {_german(before)}" in pdf_text(old)
    # The worker catches up: the stored file is the new results' file.
    run_worker()
    row = PrerenderedExport.objects.get(language="de")
    assert row.results_version == _version(series.event_id)
    assert f"Anna Müller {_german(after)}" in pdf_text(bytes(row.content))


@pytest.mark.django_db(transaction=True)
def test_a_seating_draw_makes_the_stored_file_stale(club_a, scorer_a, ahead):
    """Seating series 2 adds "provisional: S2" to everybody without a new results version."""
    series, tables = make_series(club_a, tables=2)
    _confirmed(club_a, tables[0], random_grid(seed=7), scorer_a, scorer(club_a, "checker"))
    _confirmed(club_a, tables[1], random_grid(seed=8), scorer_a, scorer(club_a, "checker2"))
    run_worker()
    event = series.event
    assert prerender.fresh_file("standings", event, "pdf", "de") is not None
    version = _version(event.pk)
    second = Series.objects.create(event=event, number=2, planned_rounds=5, status="seated")
    people = list(Participant.objects.filter(event=event).order_by("pk"))
    seated_table(second, people[:4], number=1)
    seated_table(second, people[4:], number=2)
    assert _version(event.pk) == version
    assert prerender.fresh_file("standings", event, "pdf", "de") is None


@pytest.mark.django_db(transaction=True)
def test_one_render_waits_per_event_and_a_later_change_pushes_it_back(club_a, ahead):
    ahead.STANDINGS_PRERENDER_SETTLE = 60
    series, _tables = make_series(club_a, tables=2)
    event_id = series.event_id
    for _ in range(3):
        with transaction.atomic():
            bump_results_version(event_id)
    waiting = _waiting_renders()
    assert waiting.count() == 1
    first = waiting.get()
    assert first.args_kwargs == {"args": [], "kwargs": {"event_id": event_id}}
    assert first.run_after <= timezone.now()  # asked for at once: the task decides
    # No file of the version before: the changes are a run, the task waits the settle time.
    run_worker()
    task = _waiting_renders().get()
    assert task.pk != first.pk and not PrerenderedExport.objects.exists()
    soon = timezone.now() + dt.timedelta(seconds=60)
    assert abs((task.run_after - soon).total_seconds()) < 5
    run_worker()  # not due: nothing runs
    assert _waiting_renders().count() == 1 and not PrerenderedExport.objects.exists()
    # Due, but the results moved 10 s ago: the task asks again for 50 s from now, once.
    ten_ago = timezone.now() - dt.timedelta(seconds=10)
    Event.objects.filter(pk=event_id).update(results_changed_at=ten_ago)
    waiting.update(run_after=timezone.now() - dt.timedelta(seconds=1))
    run_worker()
    assert _waiting_renders().count() == 1 and not PrerenderedExport.objects.exists()
    again = _waiting_renders().get()
    assert abs((again.run_after - (ten_ago + dt.timedelta(seconds=60))).total_seconds()) < 1
    assert again.pk != task.pk
    # Still for the settle time: rendered.
    Event.objects.filter(pk=event_id).update(
        results_changed_at=timezone.now() - dt.timedelta(minutes=2)
    )
    _waiting_renders().update(run_after=timezone.now() - dt.timedelta(seconds=1))
    run_worker()
    assert not _waiting_renders().exists()
    assert PrerenderedExport.objects.filter(results_version=_version(event_id)).count() == 2


@pytest.mark.django_db(transaction=True)
def test_a_change_after_a_still_spell_renders_at_once_and_a_run_waits(club_a, ahead):
    """Issue 38: the director clicks ten seconds after a lone confirmation; the settle time
    holds back only a run of changes."""
    ahead.STANDINGS_PRERENDER_SETTLE = 60
    series, _tables = make_series(club_a, tables=2)
    event_id = series.event_id

    def change():
        with transaction.atomic():
            bump_results_version(event_id)

    def stored_versions():
        return set(PrerenderedExport.objects.values_list("results_version", flat=True))

    change()
    run_worker()  # the first change: no file before it, so it waits
    assert not PrerenderedExport.objects.exists()
    Event.objects.filter(pk=event_id).update(
        results_changed_at=timezone.now() - dt.timedelta(minutes=2)
    )
    _waiting_renders().update(run_after=timezone.now())
    run_worker()
    assert stored_versions() == {_version(event_id)}
    # Still for longer than the settle time since that file: the next change renders at once.
    PrerenderedExport.objects.update(rendered_at=timezone.now() - dt.timedelta(seconds=61))
    change()
    run_worker()
    assert stored_versions() == {_version(event_id)} and not _waiting_renders().exists()
    # A change soon after the last file (a run of confirmations) waits the settle time.
    change()
    run_worker()
    assert stored_versions() == {_version(event_id) - 1}
    waiting = _waiting_renders().get()
    assert waiting.run_after > timezone.now() + dt.timedelta(seconds=55)


@pytest.mark.django_db(transaction=True)
def test_the_job_button_answers_at_once_with_the_stored_file(
    client, club_a, scorer_a, organiser_a, ahead
):
    series, tables = make_series(club_a, tables=2)
    _confirmed(club_a, tables[0], random_grid(seed=3), scorer_a, scorer(club_a, "checker"))
    run_worker()
    client.force_login(organiser_a)
    url = reverse("exports:job_start", args=["event", series.event_id, "standings", "pdf"])
    response = client.post(url, HTTP_ACCEPT="application/json", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 202
    status = client.get(response.json()["status_url"], HTTP_ACCEPT_LANGUAGE="de").json()
    assert status["state"] == "done" and status["percent"] == 100
    download = client.get(status["download_url"])
    content = b"".join(download.streaming_content)
    assert content == bytes(PrerenderedExport.objects.get(language="de").content)
    assert not _waiting_renders().exists()  # no render queued for the click
    assert ExportJob.objects.get().user == organiser_a
    # Another club's organiser gets nothing of it.
    from tests.factories import ClubFactory, user_with_role

    other = user_with_role(ClubFactory(name="Pik As Kiel"), "organiser", username="kiel")
    client.force_login(other)
    assert client.post(url, HTTP_ACCEPT="application/json").status_code == 403
    assert client.get(status["download_url"]).status_code == 404


@pytest.mark.django_db(transaction=True)
def test_a_change_reads_once_whether_to_ask_for_a_render(club_a, ahead):
    """Issue 38: after each confirmation one read decides (participants and a waiting
    render together), not one round trip for each."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    ahead.STANDINGS_PRERENDER_SETTLE = 60
    series, _tables = make_series(club_a, tables=2)
    event_id = series.event_id
    ahead.STANDINGS_PRERENDER_MIN_PARTICIPANTS = 9  # 8 players: too small
    with CaptureQueriesContext(connection) as small:
        prerender.on_results_changed(None, event_id=event_id)
    assert len(small.captured_queries) == 1 and not _waiting_renders().exists()
    ahead.STANDINGS_PRERENDER_MIN_PARTICIPANTS = 8
    prerender.on_results_changed(None, event_id=event_id)
    assert _waiting_renders().count() == 1
    with CaptureQueriesContext(connection) as waiting:
        prerender.on_results_changed(None, event_id=event_id)
    assert len(waiting.captured_queries) == 1 and _waiting_renders().count() == 1
    assert prerender.on_results_changed(None, event_id=event_id + 1000) is None
    assert _waiting_renders().count() == 1


@pytest.mark.django_db(transaction=True)
def test_small_events_and_queues_without_a_clock_render_nothing_ahead(club_a, scorer_a, ahead):
    ahead.STANDINGS_PRERENDER_MIN_PARTICIPANTS = 100  # the default: 8 players are fewer
    series, tables = make_series(club_a, tables=2)
    _confirmed(club_a, tables[0], random_grid(seed=3), scorer_a, scorer(club_a, "checker"))
    assert not _waiting_renders().exists()
    from tests.factories import IMMEDIATE_TASKS

    ahead.STANDINGS_PRERENDER_MIN_PARTICIPANTS = 0
    ahead.TASKS = IMMEDIATE_TASKS  # renders in the request: never for a confirmation
    _confirmed(club_a, tables[1], random_grid(seed=4), scorer_a, scorer(club_a, "checker2"))
    assert not PrerenderedExport.objects.exists() and not _waiting_renders().exists()
    ahead.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    ahead.STANDINGS_PRERENDER_SETTLE = None  # switched off
    with transaction.atomic():
        bump_results_version(series.event_id)
    assert not _waiting_renders().exists()
    assert prerender.fresh_file("standings", series.event, "pdf", "de") is None


@pytest.mark.django_db(transaction=True)
def test_a_failing_receiver_never_fails_the_confirmation(club_a, scorer_a, ahead, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("queue gone")

    monkeypatch.setattr(prerender, "schedule", broken)
    series, tables = make_series(club_a, tables=2)
    _confirmed(club_a, tables[0], random_grid(seed=3), scorer_a, scorer(club_a, "checker"))
    assert tables[0].sheet.status == "confirmed"
    assert _version(series.event_id) == 1


@pytest.mark.django_db(transaction=True)
def test_a_click_during_the_render_waits_for_its_file(club_a, scorer_a, ahead, monkeypatch):
    """A worker rendering from the current results: the click takes that file when it is
    stored, rather than laying the PDF out a second time beside it."""
    ahead.STANDINGS_PRERENDER_SETTLE = 60  # the render stays queued: we play the worker
    series, tables = make_series(club_a, tables=2)
    _confirmed(club_a, tables[0], random_grid(seed=3), scorer_a, scorer(club_a, "checker"))
    event = Event.objects.select_related("club").get(pk=series.event_id)
    _waiting_renders().update(status=TaskResultStatus.RUNNING, started_at=timezone.now())
    version, key = _version(event.pk), prerender.seating_key(event.pk)
    naps = []

    def worker_stores_while_we_wait(seconds):
        naps.append(seconds)
        result = (b"%PDF-1.7 rendered by the worker", "wertung.pdf", "application/pdf")
        prerender._store(event.pk, "de", version, key, result, 1.0)

    monkeypatch.setattr(prerender.time, "sleep", worker_stores_while_we_wait)
    stored = prerender.fresh_file_soon("standings", event, "pdf", "de")
    assert stored.content == b"%PDF-1.7 rendered by the worker" and len(naps) == 1
    # A render that started before the last change renders older results: no waiting.
    PrerenderedExport.objects.all().delete()
    Event.objects.filter(pk=event.pk).update(
        results_changed_at=timezone.now() + dt.timedelta(seconds=1)
    )
    naps.clear()
    assert prerender.fresh_file_soon("standings", event, "pdf", "de") is None and not naps


@pytest.mark.django_db(transaction=True)
def test_a_click_that_lays_the_pdf_out_keeps_it_for_the_worker_and_the_next_click(
    client, club_a, scorer_a, organiser_a, ahead, monkeypatch
):
    """No fresh file at the click: it lays the PDF out itself and keeps it as the worker
    would, so the render waiting in the queue skips it and a second click gets it at once."""
    ahead.STANDINGS_PRERENDER_LANGUAGES = ("de",)
    series, tables = make_series(club_a, tables=2)
    _confirmed(club_a, tables[0], random_grid(seed=3), scorer_a, scorer(club_a, "checker"))
    assert _waiting_renders().count() == 1 and not PrerenderedExport.objects.exists()
    client.force_login(organiser_a)
    first = _click(client, series.event_id, "de")
    row = PrerenderedExport.objects.get()
    assert bytes(row.content) == first and row.results_version == _version(series.event_id)
    assert row.language == "de" and row.seating == prerender.seating_key(series.event_id)
    run_worker()
    result = DBTaskResult.objects.get(task_path=TASK)
    assert result.return_value["languages"] == []  # the worker found it kept
    assert PrerenderedExport.objects.get().rendered_at == row.rendered_at

    def no_render(*args, **kwargs):
        raise AssertionError("the second click rendered although the first kept its file")

    monkeypatch.setattr(export_views, "render_export", no_render)
    assert _click(client, series.event_id, "de") == first
    # English is not rendered ahead here: a click in English is laid out and not kept.
    monkeypatch.undo()
    _click(client, series.event_id, "en")
    assert PrerenderedExport.objects.count() == 1
