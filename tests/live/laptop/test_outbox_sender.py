"""The laptop's outbox (gapless change numbers in the write's transaction) and its sender
(parts in batches, acknowledgements, gaps, refusals, backoff) against a fake server that
answers as live.shared.protocol says."""

import urllib.error
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult, get_date_max

from clubs.permissions import ORGANISER
from live import receivers
from live.laptop import dumps, sender, transport
from live.models import LiveChange, LiveLink
from live.shared.parts import event_parts
from scoring.demo.generate import Plan, generate_event
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, user_with_role
from tournaments import services
from tournaments.models import Event, Series
from tournaments.results import bump_results_version

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def outbox_connected():
    receivers.connect()  # what live.apps does; connecting twice is harmless


@pytest.fixture
def club():
    return ClubFactory(name="Herz Dame Kassel", short_name="HDK")


@pytest.fixture
def director(club):
    return user_with_role(club, ORGANISER, username="leitung")


@pytest.fixture
def event(club):
    players = []
    for i in range(8):
        player = PlayerFactory(player_number=f"K{i:04d}")
        MembershipFactory(player=player, club=club)
        players.append(player)
    event = generate_event(
        Plan(name="Live-Turnier", club=club, players=players, series=2, rounds=1,
             confirmed_series=1, entered_tables=1)
    )  # fmt: skip
    return Event.objects.get(pk=event.pk)


@pytest.fixture
def link(event):
    return LiveLink.objects.create(
        event=event, server_url="https://ergebnisse.example", token="tok-123"
    )


def change_venue(director, event, venue):
    services.update_event(director, Event.objects.get(pk=event.pk), venue=venue)


def seqs(event):
    return list(
        LiveChange.objects.filter(event=event).order_by("seq").values_list("seq", flat=True)
    )


def waiting_pushes(event):
    return DBTaskResult.objects.filter(
        task_path=sender.push_live.module_path,
        status=TaskResultStatus.READY,
        args_kwargs__kwargs__event_id=event.pk,
    )


def marks(link, task) -> bool:
    """The link's push_after is the waiting task's time (now, for a task due at once)."""
    push_after = LiveLink.objects.get(pk=link.pk).push_after
    if task.run_after == get_date_max():
        return push_after <= timezone.now()
    return push_after == task.run_after


# ----- the outbox --------------------------------------------------------------------------


def test_an_event_without_a_link_costs_one_lookup_and_records_nothing(event):
    with CaptureQueriesContext(connection) as queries, transaction.atomic():
        bump_results_version(event.pk)
    touching = [
        q["sql"]
        for q in queries
        if '"live_livelink"' in q["sql"] or '"live_livechange"' in q["sql"]
    ]
    assert len(touching) == 1 and "live_livelink" in touching[0]
    assert not LiveChange.objects.exists()


def test_changes_are_numbered_without_gaps_and_wake_one_push(
    event, link, director, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        for venue in ("Bürgerhaus", "Stadthalle", "Turnhalle"):
            change_venue(director, event, venue)
    assert seqs(event) == [1, 2, 3]
    link.refresh_from_db()
    assert link.next_seq == 4 and link.acked_seq == 0
    assert waiting_pushes(event).count() == 1  # one waiting push per event


def test_the_push_is_asked_for_in_the_change_s_own_transaction(event, link, director):
    """The task row commits with the change (the director's write commits once, and a
    committed change never lacks its push); a write that rolls back leaves none."""
    with pytest.raises(RuntimeError), transaction.atomic():
        change_venue(director, event, "Stadthalle")
        assert waiting_pushes(event).count() == 1
        raise RuntimeError("the disk is full")
    assert waiting_pushes(event).count() == 0
    assert LiveLink.objects.get(pk=link.pk).push_after is None  # rolled back with the task
    change_venue(director, event, "Bürgerhaus")  # (this test runs no on-commit callbacks)
    change_venue(director, event, "Turnhalle")
    assert waiting_pushes(event).count() == 1


def test_a_change_while_a_push_is_due_soon_writes_no_task_row(event, link, director):
    change_venue(director, event, "Stadthalle")  # asks for the push
    with CaptureQueriesContext(connection) as queries:
        change_venue(director, event, "Bürgerhaus")
    task_writes = [
        q["sql"]
        for q in queries
        if "push_live" in q["sql"] and not q["sql"].lstrip().upper().startswith("SELECT")
    ]
    assert task_writes == [] and waiting_pushes(event).count() == 1
    assert seqs(event) == [1, 2]
    # The receiver's lookup tells that the push waits: the task table is not read, and the
    # change costs the lookup, the number's UPDATE and the change's INSERT.
    assert not [q for q in queries if "dbtaskresult" in q["sql"]]
    live = [q["sql"] for q in queries if '"live_' in q["sql"]]
    assert len(live) == 3, live


def test_a_running_push_keeps_the_marker_and_its_end_asks_for_what_came_in_meanwhile(
    event, link, director, server, monkeypatch
):
    """While a push runs, the link is marked: a change then writes no task row (the
    director's save stays short, issue 38); the push's end sees the change and asks for
    the next push itself."""
    change_venue(director, event, "Stadthalle")
    waiting = waiting_pushes(event).get()
    assert marks(link, waiting)
    during = {}

    def post_json(url, token, payload, timeout):  # the change lands while the batch travels
        if not during:
            with CaptureQueriesContext(connection) as queries:
                change_venue(director, event, "Bürgerhaus")
            during["marker"] = LiveLink.objects.get(pk=link.pk).push_after
            during["task_writes"] = [q["sql"] for q in queries if "dbtaskresult" in q["sql"]]
        return server(url, token, payload, timeout)

    monkeypatch.setattr(transport, "post_json", post_json)
    DBTaskResult.objects.filter(pk=waiting.pk).update(status=TaskResultStatus.RUNNING)
    result = sender.push_live.call(event_id=event.pk)
    assert result["state"] == "done" and result["more"] is True
    assert during["marker"] is not None and during["marker"] <= timezone.now()
    assert during["task_writes"] == []  # the change asked for no push of its own
    assert server.last_seq == 1  # the first change went; the second waits for the next push
    assert marks(link, waiting_pushes(event).get())  # asked for by the push's end
    # The next push sends it, and with nothing left its end clears the marker.
    DBTaskResult.objects.filter(task_path=sender.push_live.module_path).update(
        status=TaskResultStatus.SUCCESSFUL
    )
    result = sender.push_live.call(event_id=event.pk)
    assert result["state"] == "done" and result["more"] is False
    assert server.last_seq == 2


def _finish_waiting(event):
    DBTaskResult.objects.filter(task_path=sender.push_live.module_path).update(
        status=TaskResultStatus.SUCCESSFUL
    )


def test_follow_up_pushes_while_it_sends_and_none_after_a_quiet_while(
    event, link, director, server, monkeypatch
):
    """A push that sent something asks for a follow-up PUSH_GAP_S later, which the next
    change finds waiting (no task row of its own); a follow-up that finds nothing dumps
    nothing; once nothing was sent for FOLLOW_UP_S the marker is cleared."""
    made = []
    real = dumps.event_parts
    monkeypatch.setattr(dumps, "event_parts", lambda *a, **k: made.append(1) or real(*a, **k))
    assert sender.push_live.call(event_id=event.pk)["state"] == "done"
    follow_up = waiting_pushes(event).get()
    assert marks(link, follow_up)
    assert follow_up.run_after > timezone.now() + timedelta(seconds=sender.PUSH_GAP_S - 1)
    with CaptureQueriesContext(connection) as queries:
        change_venue(director, event, "Stadthalle")
    assert not [q for q in queries if "dbtaskresult" in q["sql"]]
    _finish_waiting(event)
    assert sender.push_live.call(event_id=event.pk)["state"] == "done"
    assert server.last_seq == 2 and waiting_pushes(event).count() == 1
    _finish_waiting(event)
    before = len(made)
    assert sender.push_live.call(event_id=event.pk)["state"] == "nothing"
    assert len(made) == before  # nothing dumped
    assert marks(link, waiting_pushes(event).get())  # still sent lately: another follow-up
    _finish_waiting(event)
    quiet = timezone.now() - timedelta(seconds=sender.FOLLOW_UP_S + 1)
    LiveLink.objects.filter(pk=link.pk).update(last_sent_at=quiet)
    assert sender.push_live.call(event_id=event.pk)["state"] == "nothing"
    assert LiveLink.objects.get(pk=link.pk).push_after is None
    assert waiting_pushes(event).count() == 0
    # A change after that asks for its push (a task row and the marker again).
    change_venue(director, event, "Turnhalle")
    assert marks(link, waiting_pushes(event).get())


def test_a_push_that_sends_nothing_or_is_refused_clears_the_marker(event, link, server):
    sender.push_live.call(event_id=event.pk)  # the first push numbers a change and sends
    _finish_waiting(event)  # its follow-up
    quiet = timezone.now() - timedelta(seconds=sender.FOLLOW_UP_S + 1)
    LiveLink.objects.filter(pk=link.pk).update(last_sent_at=quiet)
    assert sender.push_live.call(event_id=event.pk)["state"] == "nothing"
    assert LiveLink.objects.get(pk=link.pk).push_after is None
    LiveLink.objects.filter(pk=link.pk).update(refused="Zugangsschlüssel widerrufen")
    assert sender.push_live.call(event_id=event.pk)["state"] == "refused"
    assert LiveLink.objects.get(pk=link.pk).push_after is None
    assert waiting_pushes(event).count() == 0


def test_a_push_that_fails_with_an_error_clears_the_marker(event, link, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(sender, "push", broken)
    with pytest.raises(RuntimeError):
        sender.push_live.call(event_id=event.pk)
    assert LiveLink.objects.get(pk=link.pk).push_after is None


def test_a_change_reads_the_waiting_push_under_the_row_s_lock(event, link, director, monkeypatch):
    """What the outbox's UPDATE reads back, not an earlier read, decides whether the change
    asks for a push: a push's end that cleared the marker in between is seen (on
    PostgreSQL the UPDATE waits for that end's row lock, then reads its outcome); also
    without RETURNING (SQLite before 3.35)."""
    from live.laptop import outbox

    window = sender.push_window()
    LiveLink.objects.filter(pk=link.pk).update(push_after=timezone.now())
    with transaction.atomic():
        assert outbox.add_change(event.pk, window) == outbox.Numbered(1)
    LiveLink.objects.filter(pk=link.pk).update(push_after=None)
    with transaction.atomic():
        assert outbox.add_change(event.pk, window) == outbox.Numbered(None)
    monkeypatch.setattr(connection.features, "can_return_columns_from_insert", False)
    LiveLink.objects.filter(pk=link.pk).update(push_after=timezone.now() + timedelta(minutes=5))
    with transaction.atomic():
        assert outbox.add_change(event.pk, window) == outbox.Numbered(0)
    LiveLink.objects.filter(pk=link.pk).update(enabled=False)
    with transaction.atomic():
        assert outbox.add_change(event.pk, window) is None
    assert seqs(event) == [1, 2, 3]


def test_a_marker_without_its_task_is_not_trusted_for_long(event, link, director):
    """A push time far in the past (its worker gone, or the task removed by hand) makes the
    next change ask the task table, which finds none waiting and asks for one."""
    past = timezone.now() - timedelta(seconds=sender.PUSH_OVERDUE_S + 5)
    LiveLink.objects.filter(pk=link.pk).update(push_after=past)
    change_venue(director, event, "Stadthalle")
    assert marks(link, waiting_pushes(event).get())
    assert LiveLink.objects.get(pk=link.pk).push_after > past
    # Within the window the marker is trusted: a second change adds no task.
    change_venue(director, event, "Bürgerhaus")
    assert waiting_pushes(event).count() == 1


def test_a_change_leaves_a_later_retry_of_a_failing_link_as_it_is(event, link, director):
    LiveLink.objects.filter(pk=link.pk).update(failures=3)
    sender.schedule_push(event.pk, 8.0)  # the failed push's retry
    later = waiting_pushes(event).get().run_after
    assert later > timezone.now() + timedelta(seconds=7)
    assert LiveLink.objects.get(pk=link.pk).push_after == later
    change_venue(director, event, "Stadthalle")
    assert waiting_pushes(event).get().run_after == later
    LiveLink.objects.filter(pk=link.pk).update(failures=0)  # healthy: brought forward
    change_venue(director, event, "Bürgerhaus")
    assert waiting_pushes(event).get().run_after <= timezone.now()


def test_another_task_backend_is_asked_only_after_the_commit(
    event, link, director, settings, monkeypatch, django_capture_on_commit_callbacks
):
    from tests.factories import IMMEDIATE_TASKS

    settings.TASKS = IMMEDIATE_TASKS  # an immediate backend would push inside the write
    pushed = []
    monkeypatch.setattr(sender, "schedule_push", lambda *a, **k: pushed.append(a))
    with django_capture_on_commit_callbacks() as callbacks:
        change_venue(director, event, "Stadthalle")
    assert pushed == [] and callbacks
    for callback in callbacks:
        callback()
    assert pushed == [(event.pk,)]


def test_old_task_results_are_removed_at_most_every_ten_minutes(event, link, monkeypatch):
    from django_tasks_db.models import DBTaskResult

    old = timezone.now() - sender.TASK_RESULTS_KEPT - timedelta(minutes=1)

    def finished_push():
        result = sender.push_live.enqueue(event_id=event.pk)
        DBTaskResult.objects.filter(pk=result.id).update(
            status=TaskResultStatus.SUCCESSFUL, finished_at=old
        )

    clock = [1000.0]
    monkeypatch.setattr(sender, "_clock", lambda: clock[0])
    monkeypatch.setattr(sender, "_last_removal", [0.0])
    finished_push()
    sender._remove_old_task_results()
    assert not DBTaskResult.objects.filter(finished_at=old).exists()
    finished_push()
    clock[0] += sender.REMOVE_EVERY_S - 1
    sender._remove_old_task_results()  # a push a moment later writes nothing
    assert DBTaskResult.objects.filter(finished_at=old).count() == 1
    clock[0] += 2
    sender._remove_old_task_results()
    assert not DBTaskResult.objects.filter(finished_at=old).exists()


def test_a_rolled_back_write_leaves_no_row_and_no_gap(event, link, director):
    change_venue(director, event, "Bürgerhaus")
    with pytest.raises(RuntimeError), transaction.atomic():
        change_venue(director, event, "Stadthalle")
        raise RuntimeError("the disk is full")
    change_venue(director, event, "Turnhalle")
    assert seqs(event) == [1, 2]
    assert LiveLink.objects.get(pk=link.pk).next_seq == 3


def test_a_link_switched_off_records_nothing(event, link, director):
    LiveLink.objects.filter(pk=link.pk).update(enabled=False)
    change_venue(director, event, "Bürgerhaus")
    assert seqs(event) == []


# ----- the sender ----------------------------------------------------------------------------


def test_the_first_push_sends_everything_and_the_second_nothing(event, link, server):
    result = sender.push(event)

    assert result.state == "done" and result.ok
    assert len(server.batches) == 1
    batch = server.batches[0]
    assert batch["protocol"] == "romme-live" and batch["version"] == 1
    assert batch["event"] == event.pk and batch["final"] is True
    assert (batch["from_seq"], batch["to_seq"]) == (1, 1)  # a change numbered for the content
    assert [p["key"] for p in batch["parts"]][:2] == ["event", "roster"]
    assert server.parts == event_parts(event)
    link.refresh_from_db()
    assert link.acked_seq == 1 and link.next_seq == 2 and link.last_sent_at
    assert not LiveChange.objects.exists()  # acknowledged rows are removed

    again = sender.push(event)
    assert again.state == "nothing" and len(server.batches) == 1


def test_a_change_between_the_first_dump_and_its_number_is_not_taken_as_sent(
    event, link, server, director, monkeypatch
):
    """The first push numbers a change for what it dumped (no change was numbered yet). A
    director's change that commits between the dump and that number must not be counted
    as sent: before, the number covered it, the server acknowledged it without the change,
    and the next pushes (a sheet's alone) never sent it (CI: a confirmed sheet missing on
    the server after convergence)."""
    real_dump, done = dumps.dump, []

    def dump_then_change(*args, **kwargs):
        dumped = real_dump(*args, **kwargs)
        if not done:  # the director's save lands while the push is under way
            done.append(True)
            change_venue(director, event, "Stadthalle")
        return dumped

    monkeypatch.setattr(dumps, "dump", dump_then_change)
    sender.push(event)
    sender.push(event)

    assert server.parts == event_parts(Event.objects.get(pk=event.pk))
    assert server.parts["event"]["venue"] == "Stadthalle"
    link.refresh_from_db()
    assert link.acked_seq == link.next_seq - 1 == server.last_seq


def test_a_change_sends_only_the_parts_it_touched(event, link, server, director):
    sender.push(event)
    change_venue(director, event, "Stadthalle")
    change_venue(director, event, "Bürgerhaus")

    result = sender.push(event)

    batch = server.batches[-1]
    assert (batch["from_seq"], batch["to_seq"]) == (2, 3)
    assert [p["key"] for p in batch["parts"]] == ["event"] and result.sent == 1
    assert server.parts["event"]["venue"] == "Bürgerhaus"
    assert LiveLink.objects.get(pk=link.pk).acked_seq == 3


def test_a_lots_seed_drawn_by_a_standings_read_is_numbered_and_sent(event, link, server):
    """The seed is drawn by a read (the standings, the prerendered PDF), after the last
    change maybe: it is a change of its own, or the server's ties would be drawn apart."""
    from scoring.standings.lots import ensure_lots_seed

    Event.objects.filter(pk=event.pk).update(lots_seed=None)
    sender.push(event)
    seed = ensure_lots_seed(Event.objects.get(pk=event.pk))
    assert waiting_pushes(event).count() == 1  # (asked for with the numbered change)

    sender.push(event)

    assert [p["key"] for p in server.batches[-1]["parts"]] == ["event"]
    assert server.parts["event"]["lots_seed"] == seed
    ensure_lots_seed(Event.objects.get(pk=event.pk))  # drawn once: nothing more to number
    assert LiveLink.objects.get(pk=link.pk).next_seq == server.last_seq + 1


def test_a_removed_part_is_sent_as_removed(event, link, server, director):
    sender.push(event)
    series = Series.objects.get(event=event, number=2)
    with transaction.atomic():
        Series.objects.filter(pk=series.pk).delete()
        bump_results_version(event.pk)

    sender.push(event)

    removed = server.batches[-1]["removed"]
    assert "series:2" in removed and "sheet:2:1" in removed
    assert server.parts == event_parts(event)
    assert "series:2" not in LiveLink.objects.get(pk=link.pk).sent_parts


def test_a_large_backlog_goes_in_batches(event, link, server, monkeypatch):
    monkeypatch.setattr(sender, "BATCH_BYTES", 3000)

    result = sender.push(event)

    assert result.ok and result.batches == len(server.batches) > 2
    assert [b["final"] for b in server.batches] == [False] * (result.batches - 1) + [True]
    assert {(b["from_seq"], b["to_seq"]) for b in server.batches} == {(1, 1)}
    assert all(b["removed"] == [] for b in server.batches[:-1])
    keys = [p["key"] for b in server.batches for p in b["parts"]]
    assert keys.index("roster") < keys.index("series:1") < keys.index("sheet:1:1")
    assert server.parts == event_parts(event)


@pytest.mark.parametrize(
    "failure, words",
    [
        ((500, {}), "HTTP 500"),
        ((503, {"error": "Wartung"}), "HTTP 503"),
        (TimeoutError("timed out"), "nicht rechtzeitig"),
        (urllib.error.URLError(ConnectionRefusedError(111, "refused")), "Keine Verbindung"),
        ((400, {"error": "Feld fehlt", "code": "invalid"}), "Feld fehlt"),
    ],
)
def test_network_faults_are_retried_with_backoff(event, link, server, failure, words):
    server.script = [failure, failure]
    first = sender.push(event)
    second = sender.push(event)

    assert first.state == second.state == "retry"
    assert 1.6 <= first.retry_in <= 2.4 and 3.2 <= second.retry_in <= 4.8
    link.refresh_from_db()
    assert link.failures == 2 and link.failing_since and words in link.last_error
    assert link.acked_seq == 0 and link.sent_parts == {}

    third = sender.push(event)  # the network is back
    assert third.state == "done"
    link.refresh_from_db()
    assert (link.failures, link.failing_since, link.last_error) == (0, None, "")
    assert server.parts == event_parts(event)


def test_too_many_requests_waits_at_least_as_asked(event, link, server):
    server.script = [(429, {"error": "Zu viele", "retry_after": 30})]
    result = sender.push(event)
    assert result.state == "retry" and result.retry_in >= 30


def test_the_backoff_grows_to_a_few_seconds():
    # 2, 4, 8 s, then every 8 s (±20 %): a server that is back is found within ~10 s.
    assert [round(sender.backoff_seconds(n) / 2**n) for n in (1, 2, 3)] == [1] * 3
    assert all(6.4 <= sender.backoff_seconds(n) <= 9.6 for n in (4, 9, 40))
    assert sender.backoff_seconds(1, retry_after="abc") <= 2.4


def test_a_restored_server_gets_everything_again(event, link, server, director):
    sender.push(event)
    change_venue(director, event, "Stadthalle")
    sender.push(event)
    assert server.last_seq == 2
    server.last_seq, server.parts = 0, {}  # restored from a backup made before the first push

    change_venue(director, event, "Turnhalle")
    gap = sender.push(event)
    assert gap.state == "retry" and gap.retry_in == 0 and gap.last_seq == 0
    link.refresh_from_db()
    assert link.acked_seq == 0 and link.sent_parts == {}

    again = sender.push(event)
    assert again.state == "done"
    assert server.parts == event_parts(event) and server.last_seq == 3


def test_a_lost_acknowledgement_goes_on_from_the_servers_number(event, link, server, director):
    sender.push(event)
    change_venue(director, event, "Stadthalle")
    server.script = [TimeoutError("timed out")]
    sender.push(event)  # the server never saw it: the laptop retries
    # The server applied the next push but its answer was lost.
    change_venue(director, event, "Turnhalle")
    server(
        "https://ergebnisse.example/api/live/v1/batches", "tok-123",
        {"from_seq": 2, "to_seq": 3, "final": True, "removed": [],
         "parts": [{"key": "event", "data": event_parts(event)["event"]}]}, 5,
    )  # fmt: skip
    LiveLink.objects.filter(pk=link.pk).update(acked_seq=1)
    result = sender.push(event)  # to_seq 3 <= the server's 3: 200, nothing changes
    assert result.state == "done"
    assert LiveLink.objects.get(pk=link.pk).acked_seq == 3


@pytest.mark.parametrize(
    "status, answer",
    [
        (409, {"error": "Übernommen am 14.03. von Anna", "code": "taken_over", "by": "anna"}),
        (401, {"error": "Der Schlüssel wurde zurückgezogen.", "code": "token"}),
        (403, {"code": "token"}),
    ],
)
def test_a_refusal_stops_the_sending_and_is_shown(event, link, server, status, answer):
    server.script = [(status, answer)]
    result = sender.push(event)
    assert result.state == "refused"
    link.refresh_from_db()
    assert link.refused == (
        answer.get("error") or f"Der Server lehnt das Token ab (HTTP {status})."
    )
    assert link.history.first().refused == link.refused  # the director's log

    again = sender.push(event)
    assert again.state == "refused" and len(server.batches) == 1  # nothing sent again


def test_no_push_without_an_enabled_link(event, server):
    assert sender.push(event).state == "off"
    LiveLink.objects.create(event=event, server_url="https://x.example", token="t", enabled=False)
    assert sender.push(event).state == "off" and server.batches == []


@pytest.mark.parametrize(
    "url, ok",
    [
        ("https://ergebnisse.example", True),
        ("https://ergebnisse.example:8443/liga/", True),
        ("http://localhost:8380", True),
        ("http://127.0.0.5:8381/", True),
        ("http://[::1]:8382", True),
        ("http://ergebnisse.example", False),
        ("http://192.168.1.10:8000", False),
        ("ftp://ergebnisse.example", False),
        ("https://user:pw@ergebnisse.example", False),
        ("https://ergebnisse.example:99999", False),
        ("ergebnisse.example", False),
        ("", False),
    ],
)
def test_only_https_or_plain_http_to_this_machine(url, ok):
    assert (transport.url_problem(url) is None) is ok


def test_the_task_pushes_and_asks_again_after_a_failure(event, link, server):
    server.script = [(502, {})]
    outcome = sender.push_live.call(event_id=event.pk)
    assert outcome["state"] == "retry"
    waiting = waiting_pushes(event).get()
    assert waiting.run_after > timezone.now() + timedelta(seconds=1)
    # A change while the network is down does not bring the retry forward.
    sender.schedule_push(event.pk, wake=True)
    assert waiting_pushes(event).get().run_after == waiting.run_after

    assert sender.push_live.call(event_id=event.pk)["state"] == "done"
    assert sender.push_live.call(event_id=0) == {"state": "gone"}


def test_a_wake_brings_a_waiting_push_forward_when_the_link_is_healthy(event, link):
    sender.schedule_push(event.pk, 50)
    sender.schedule_push(event.pk, wake=True)
    waiting = waiting_pushes(event).get()
    assert waiting.run_after <= timezone.now()


@pytest.mark.django_db(transaction=True)
def test_two_writers_at_once_get_distinct_numbers_without_a_gap(club, director):
    """Two threads write to one event at the same time: the link's row lock hands out
    1..2N, each once (PostgreSQL; SQLite writes one at a time anyway)."""
    import threading

    if connection.vendor != "postgresql":
        pytest.skip("row locks: PostgreSQL")
    event = Event.objects.create(club=club, name="Gleichzeitig", start_date="2026-03-14")
    LiveLink.objects.create(event=event, server_url="https://e.example", token="t")
    rounds, errors = 15, []
    start = threading.Barrier(2)

    def writer():
        try:
            start.wait()
            for _i in range(rounds):
                with transaction.atomic():  # the outbox's lock is the write's first
                    bump_results_version(event.pk)
        except Exception as error:  # pragma: no cover - shown by the assertion below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=writer) for _n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert seqs(event) == list(range(1, 2 * rounds + 1))
    assert LiveLink.objects.get(event=event).next_seq == 2 * rounds + 1


def test_a_failing_link_asks_the_status_first_and_sends_nothing_while_it_is_away(
    event, link, server
):
    server.script = [TimeoutError("timed out")]
    assert sender.push(event).state == "retry"  # the batch itself timed out
    sent = len(server.batches)
    server.script = [OSError("unreachable")]
    assert sender.push(event).state == "retry"  # the probe failed: no dump, no batch
    assert len(server.batches) == sent and len(server.probes) == 1
    result = sender.push(event)  # the server is back: the probe answers, the batch goes
    assert result.state == "done" and len(server.probes) == 2
    assert LiveLink.objects.get(pk=link.pk).failures == 0


def test_a_rename_numbers_a_change_of_every_event_sent_live_in_one_lookup(event, link, club):
    from tournaments.results import bump_for_names

    other = generate_event(
        Plan(name="Vereinsabend", club=club, players=list(PlayerFactory.create_batch(4)),
             series=1, rounds=1, confirmed_series=1)
    )  # fmt: skip
    with CaptureQueriesContext(connection) as queries, transaction.atomic():
        bump_for_names(None, club_ids=[club.pk])
    lookups = [q["sql"] for q in queries if '"live_livelink"' in q["sql"] and "SELECT" in q["sql"]]
    # One lookup for both events (not one per event); only the linked one is numbered, and
    # its push asked for in the same transaction.
    assert len(lookups) == 3  # the receiver's lookup, the change's INSERT … SELECT, its last send
    assert list(LiveChange.objects.values_list("event_id", "seq")) == [(event.pk, 1)]
    assert not LiveChange.objects.filter(event_id=other.pk).exists()
