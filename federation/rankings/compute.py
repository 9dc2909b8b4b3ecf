"""Computing a ranking list (issue 27, point 2): every approved EventVersion of the ranking
through the pure rules (`rules.ranking.compute_ranking`) into a new RankingSnapshot, whose
`lines` (rows, `federation.rankings.snapshot_rows`) every page, print and JSON reads (format
in docs/federation.md). A fixed number of queries read what it needs however many events and
players: the versions with their events, the results of the versions not kept parsed from an
earlier computation, the players with club and region, the hidden players. It also writes
the players' OfficialResult rows of newly approved versions (and removes those of versions
no longer approved).

A running worker keeps between computations what does not change with one approval: each
version's results parsed and checked, the last list computed and its lines' packed results.
After one approval only the new version's results are checked, only its players' lines are
computed and built again; the others are taken from the last list (the same rows as a
computation from nothing: tests/federation/rankings/test_compute_kept.py). 10,000 players
and 230,000 results, after one approval: 0.81 s (SQLite) and 1.02 s (PostgreSQL) median,
about 0.4 s of it storing the 10,000 rows, the cyclic garbage collector paused
(common.gc_tuning; `python -m bench federation-scale`, docs/performance.md).

`schedule_recompute` asks the task worker for it once the approval, rejection or settings
change is committed: one waiting task per ranking, no request waits for it."""

from __future__ import annotations

import datetime as dt
import logging
from fractions import Fraction
from typing import NamedTuple

from django.db import transaction
from django.db.models import Count, Exists, Max, OuterRef, Q
from django_tasks import TaskResultStatus, task

from clubs.models import Membership, Player, fold_german
from common.gc_tuning import cycle_collection_paused
from common.id_lists import among_ids
from common.json_text import json_text
from federation.rankings.models import (
    EventVersion,
    OfficialResult,
    PublicHiding,
    Ranking,
    RankingSnapshot,
    SnapshotLine,
)
from federation.rankings.snapshot_rows import insert
from rules.ranking import (
    DISQUALIFIED,
    FIELD_SMALL,
    MIN_EVENTS,
    MIN_HANDS,
    SERIES_FEW,
    UNITS,
    Checked,
    EventResult,
    RankingError,
    RankingSettings,
    check_key,
    check_results,
    compute_ranking,
    shown,
)
from rules.ranking_settings import gettext_noop

log = logging.getLogger(__name__)

# Why a result does not count, or a player is not listed: English msgids, the pages
# translate them (the snapshot keeps them language-free).
REASONS = {
    "dropped": gettext_noop("dropped: not among the best results"),
    FIELD_SMALL: gettext_noop("the field was smaller than the minimum"),
    SERIES_FEW: gettext_noop("fewer series than the minimum"),
    DISQUALIFIED: gettext_noop("disqualified"),
    MIN_EVENTS: gettext_noop("fewer events than the minimum"),
    MIN_HANDS: gettext_noop("fewer hands than the minimum"),
}


# A result's status as (counted, reason) in the lines.
_STATUS = {"counted": (True, "")} | {key: (False, text) for key, text in REASONS.items()}


def _today() -> dt.date:
    from django.utils import timezone

    return timezone.localdate()


def _decimal(value) -> str:
    if value is None:
        return ""
    if isinstance(value, Fraction) and UNITS % value.denominator == 0:
        return _points(value.numerator * (UNITS // value.denominator))  # points: kept
    return str(shown(value))


_POINTS: dict[int, str] = {}


def _points(units: int) -> str:
    """The text of event points given in units (200,000 results, a few values: kept)."""
    text = _POINTS.get(units)
    if text is None:
        text = _POINTS[units] = str(shown(Fraction(units, UNITS)))
    return text


def _players(ids, on: dt.date) -> dict[int, dict]:
    """Name, club short name and region of each player on the ranking date: the players and
    their memberships valid that day, two flat queries (a subquery per player, as before,
    took 1.2 s for 10,000 players on PostgreSQL once it had statistics: two nested plans per
    row; performance log, session 18), the ids as one parameter (`common.id_lists`). Of two
    memberships valid that day the later one counts (the same day: the newer row)."""
    current = (
        Membership.objects.filter(among_ids("player_id", ids), valid_from__lte=on)
        .filter(Q(valid_until__isnull=True) | Q(valid_until__gte=on))
        .order_by("valid_from", "pk")
        .values_list("player_id", "club__short_name", "club__affiliation__association_id")
    )
    clubs = {player: (club, region) for player, club, region in current}  # the last wins
    out = {}
    for pk, given, family in Player.objects.filter(among_ids("pk", ids)).values_list(
        "pk", "given_name", "family_name"
    ):
        club, region = clubs.get(pk, ("", None))
        out[pk] = {
            "name": f"{given} {family}",
            "club": club or "",
            "regions": [region] if region else [],
        }
    return out


def _results(line, index: dict, age: list[int]) -> list[list]:
    """A line's results, newest first, packed against the snapshot's events (`index`:
    event -> its position there; `age`: position -> the event's place newest first;
    federation.rankings.snapshot_rows)."""
    points = _POINTS  # 230,000 results: a look-up, no call, for the few values there are
    dropped = _STATUS["dropped"][1]
    out = [[index[r.event], r.place, points.get(u) or _points(u), True, ""]
           for r, u, _tied, _status in line.counted]  # fmt: skip
    out += [[index[r.event], r.place, points.get(u) or _points(u), False, dropped]
            for r, u, _tied, _status in line.dropped]  # fmt: skip
    out += [[index[r.event], r.place, points.get(u) or _points(u),
             *(_STATUS.get(status) or (False, status))]
            for r, u, _tied, status in line.excluded]  # fmt: skip
    out.sort(key=lambda result: age[result[0]])  # newest first (one result per event)
    return out


def build_lines(
    ranking, versions, players: dict, hidden, kept: dict | None = None
) -> tuple[list[dict], list[list], tuple | None]:
    """The snapshot's lines from the computed list (`rules.ranking.Ranking`) and
    its events, the lines' results packed against them (federation.rankings.snapshot_rows),
    and the snapshot whose rows the lines share results with (or None).
    `kept`: what the last call for this ranking left there (and this one leaves): a line
    the rules took unchanged from the last list (the same results) has its packed results
    and texts taken from it, renumbered against these events if a version went; not
    renumbered, it shares the results of the row that holds them (``results_from``, if the
    last snapshot's rows were read back: `_keep_holders`).

    The events stand in the order of their versions' ids: an approval adds the newest
    version at the end, so the packed results of the lines taken keep their numbers and
    their JSON text (a line's results are ordered newest first by `age`)."""
    ordered = sorted(versions, key=lambda v: v.pk)
    events = [[v.pk, v.event, v.event_name, v.start_date.isoformat(), v.field_size]
              for v in ordered]  # fmt: skip
    index = {v.event: position for position, v in enumerate(ordered)}
    age = [0] * len(ordered)
    newest = sorted(range(len(ordered)), key=lambda n: (ordered[n].start_date, ordered[n].event))
    for place, position in enumerate(reversed(newest)):
        age[position] = place
    kept = {} if kept is None else kept
    # One value read and written whole: two computations at once never mix theirs.
    last_events, before, holders = kept.get("last", (None, {}, None))
    renumber = None
    if last_events is not None:  # old position -> new; None: the event is gone
        renumber = [index.get(pk) for pk in last_events]
        if renumber == list(range(len(renumber))):
            renumber = None  # the events before kept their places: nothing renumbered
        elif None in renumber:
            before = {}
    if renumber is not None or not before:
        holders = None  # every text written again
    rows = holders[2] if holders is not None else {}
    now, out = {}, []
    for line in (*ranking.lines, *ranking.unlisted):
        person = players.get(line.player, {"name": "?", "club": "", "regions": []})
        got = before.get(line.player)
        shared = None
        if (
            got is None
            or got[0] is not line.counted
            or got[1] is not line.dropped
            or (got[2] is not line.excluded)
        ):
            packed = _results(line, index, age)
            got = (line.counted, line.dropped, line.excluded, packed, _decimal(line.value),
                   _decimal(line.best), json_text(packed))  # fmt: skip
        elif renumber is not None:
            packed = [[renumber[e], place, points, counted, why]
                      for e, place, points, counted, why in got[3]]  # fmt: skip
            got = (*got[:3], packed, *got[4:6], json_text(packed))
        else:
            shared = rows.get(line.player)
        now[line.player] = got
        out.append(
            {
                "player": line.player,
                "name": person["name"],
                "club": person["club"],
                "regions": person["regions"],
                "rank": line.rank,
                "value": got[4],
                "listed": line.listed,
                "hidden": line.player in hidden,
                "events_counted": line.events_counted,
                "best": got[5],
                "reason": REASONS.get(line.reason, line.reason) if line.reason else "",
                "results": got[6],  # as JSON text (snapshot_rows.pack)
                "results_from": shared,
            }
        )
    kept["last"] = ([e[1] for e in events], now, None)
    # Listed by rank, the unlisted after them; then by name (a shared rank too).
    out.sort(key=lambda ln: (not ln["listed"], ln["rank"] or 0, fold_german(ln["name"])))
    return out, events, None if holders is None else holders[:2]


def _keep_holders(kept: dict, snapshot: RankingSnapshot) -> None:
    """After the snapshot is written: which row holds each player's results (its own or
    the one it shares), so that the next computation's unchanged lines share them (one
    query of 10,000 numbers). Kept with the lines it belongs to."""
    last = kept.get("last")
    if last is None:
        return
    rows = SnapshotLine.objects.filter(snapshot=snapshot)
    rows = rows.values_list("player", "pk", "results_from")
    holders = {player: source or pk for player, pk, source in rows}
    kept["last"] = (*last[:2], (snapshot.pk, snapshot.computed_at, holders))


# A version's results never change once submitted (a correction is a new version), so the
# worker keeps them parsed between computations: after one approval only the new version
# is read and parsed. Keyed with what may change around them (the event's date, the class)
# and the submission time (a rebuilt database reuses ids); with the version's players.
_PARSED: dict[int, tuple[tuple, list[EventResult], int, frozenset]] = {}
# And checked (`rules.ranking.check_results`): version -> (its parsed results, the check).
_CHECKED: dict[int, tuple[list[EventResult], Checked]] = {}
# The last list computed of each ranking, with the checks and hidden players it was computed
# from: the next one takes from it the lines of the players whose events are the same.
_LAST: dict[int, tuple[dict[int, Checked], frozenset, object]] = {}
# And its lines' packed results (`build_lines`'s `kept`).
_BUILT: dict[int, dict] = {}


class Version(NamedTuple):
    """What a computation reads of an approved version and its event (one row each: 1,500
    model instances with their status and event took a tenth of a second)."""

    pk: int
    event: int
    event_name: str
    start_date: dt.date
    event_class: str
    field_size: int
    series_count: int
    submitted_at: dt.datetime
    official: bool  # its OfficialResult rows are written


def _facts(version: Version) -> tuple:
    return (version.event, version.start_date, version.event_class, version.field_size,
            version.series_count, version.submitted_at)  # fmt: skip


def _parse(version: Version, rows: list[dict]) -> list[EventResult]:
    event, day, klass, size, series, _at = _facts(version)
    return [
        EventResult(row["player"], event, day, klass, size, row["place"],
                    int(row.get("score", 0)), int(row.get("hands", 0)), series,
                    bool(row.get("disqualified", False)))
        for row in rows
    ]  # fmt: skip


def _read(ranking: Ranking):
    """The ranking's approved versions (without their results), each one's EventResults,
    the results of the versions read now (those not kept from an earlier computation or
    whose official results are not written yet) and every player of the versions (two
    queries)."""
    written = OfficialResult.objects.filter(version=OuterRef("pk"))
    rows = (
        EventVersion.objects.filter(status__ranking=ranking, state=EventVersion.State.APPROVED)
        .annotate(official=Exists(written))
        .values_list("pk", "status__event_id", "status__event__name",
                     "status__event__start_date", "status__event_class", "field_size",
                     "series_count", "submitted_at", "official")
    )  # fmt: skip
    versions = [Version._make(row) for row in rows]
    parsed, players, todo = {}, [], []
    for version in versions:
        kept = _PARSED.get(version.pk)
        if kept is not None and version.official and kept[0] == _facts(version):
            parsed[version.pk] = kept[1]
            players.append(kept[3])
        else:
            todo.append(version)
    read = EventVersion.objects.filter(pk__in=[v.pk for v in todo]).values_list("pk", "results")
    read = dict(read) if todo else {}
    for version in todo:
        parsed[version.pk] = results = _parse(version, read[version.pk])
        players.append(frozenset(result.player for result in results))
        _PARSED[version.pk] = (_facts(version), results, ranking.pk, players[-1])
    for pk in [pk for pk, kept in _PARSED.items() if kept[2] == ranking.pk and pk not in parsed]:
        del _PARSED[pk]  # no longer approved
        _CHECKED.pop(pk, None)
    return versions, parsed, read, set().union(*players)


def _checked(pk: int, results: list[EventResult], settings: RankingSettings) -> Checked:
    """A version's results checked, kept while they are the same parsed results and the
    settings check them the same way: a computation checks only the new versions."""
    kept = _CHECKED.get(pk)
    if kept is not None and kept[0] is results and kept[1].key == check_key(settings):
        return kept[1]
    checked = check_results(results, settings)
    _CHECKED[pk] = (results, checked)
    return checked


def _previous(ranking_pk: int, parts: dict[int, Checked], hidden: set):
    """The ranking's last list computed here and the players whose lines may differ from
    it: those of the versions added, removed or checked again, and those hidden or shown
    since (the rules take it only if computed with the same settings and date)."""
    last = _LAST.get(ranking_pk)
    if last is None:
        return None, ()
    before, hidden_before, computed = last
    moved = [part for pk, part in parts.items() if before.get(pk) is not part]
    moved += [part for pk, part in before.items() if parts.get(pk) is not part]
    changed = {r.player for part in moved for entry in part.events.values() for r in entry[2]}
    return computed, changed | (hidden ^ hidden_before)


def recompute(ranking: Ranking, reason: str = "") -> RankingSnapshot:
    """A new snapshot of the ranking from its approved versions (module docstring)."""
    settings = RankingSettings.from_json(ranking.settings or {})
    as_of = ranking.as_of or _today()
    # `ids`: every player of the versions (a class no longer counted too: their official
    # results).
    versions, parsed, read, ids = _read(ranking)
    # A class this ranking no longer counts: not in the list (its official results are).
    counted = [v.pk for v in versions if v.event_class in settings.class_factors]
    # The few players hidden from public lists, all of them (a list of 10,000 ids in the
    # query cost more than the table).
    hidden = set(PublicHiding.objects.values_list("player_id", flat=True)) & ids if ids else set()
    try:
        parts = {pk: _checked(pk, parsed[pk], settings) for pk in counted}
    except RankingError:  # checked all together again: the error as the rules number it
        results = [result for pk in counted for result in parsed[pk]]
        compute_ranking(results, settings, as_of, hidden=hidden)
        raise
    previous, changed = _previous(ranking.pk, parts, hidden)
    computed = compute_ranking((), settings, as_of, hidden=hidden, checked=parts.values(),
                               previous=previous, changed=changed)  # fmt: skip
    _LAST[ranking.pk] = (parts, frozenset(hidden), computed)
    players = _players(ids, as_of) if ids else {}
    kept = _BUILT.setdefault(ranking.pk, {})
    lines, events, sharing = build_lines(computed, versions, players, hidden, kept)
    with transaction.atomic():
        _official_results(ranking, versions, read, players)
        # The ranking's row lock gives each computation its own number.
        Ranking.objects.select_for_update().filter(pk=ranking.pk).first()
        # And whether the rows whose results the lines share are still those this worker
        # read back (not so after a database was restored): in the same query.
        pk, at = sharing or (None, None)
        found = ranking.snapshots.aggregate(
            n=Max("number"), sharing=Count("pk", filter=Q(pk=pk, computed_at=at))
        )
        number = (found["n"] or 0) + 1
        if sharing is not None and not found["sharing"]:
            for line in lines:
                line["results_from"] = None
        snapshot = RankingSnapshot.objects.create(
            ranking=ranking,
            number=number,
            as_of=as_of,
            settings=settings.as_json(),
            versions=sorted(v.pk for v in versions),
            events=events,
            lines=lines,
            reason=(reason or "")[:200],
        )
        _keep_holders(kept, snapshot)
    return snapshot


def _official_results(ranking: Ranking, versions, read: dict, players: dict) -> None:
    """The players' OfficialResult rows of the ranking's approved versions: those of a
    version no longer approved go, a newly approved version's come (`read`: the results of
    the versions read now; two queries)."""
    OfficialResult.objects.filter(version__status__ranking=ranking).exclude(
        version__state=EventVersion.State.APPROVED
    ).delete()
    rows = [
        (version.pk, row["player"], version.start_date.isoformat(), row.get("place"))
        for version in versions
        if not version.official
        for row in read[version.pk]
        if row["player"] in players
    ]
    insert(OfficialResult, ("version", "player", "date", "place"), rows, casts={"date": "date"},
           skip_conflicts=True)  # fmt: skip


# ----- the task ----------------------------------------------------------------------------


def _database_backend():
    from django_tasks_db.backend import DatabaseBackend

    return DatabaseBackend


def _enqueue(ranking_id: int, reason: str) -> None:
    backend = recompute_ranking.get_backend()
    if isinstance(backend, _database_backend()):
        from django_tasks_db.models import DBTaskResult

        waiting = DBTaskResult.objects.filter(
            task_path=recompute_ranking.module_path,
            status=TaskResultStatus.READY,
            args_kwargs__kwargs__ranking_id=ranking_id,
        )
        if waiting.exists():
            return  # the waiting one reads everything committed by the time it runs
    recompute_ranking.enqueue(ranking_id=ranking_id, reason=reason)


def schedule_recompute(ranking_id: int, reason: str = "") -> None:
    """Ask the worker for a computation of the ranking once the current transaction is
    committed (at once outside one)."""
    transaction.on_commit(lambda: _enqueue(ranking_id, reason))


@task()
def recompute_ranking(ranking_id: int, reason: str = "") -> dict:
    ranking = Ranking.objects.filter(pk=ranking_id).first()
    if ranking is None:
        return {"state": "gone"}
    with cycle_collection_paused():
        snapshot = recompute(ranking, reason)
    log.info("ranking %s computed: snapshot %s", ranking_id, snapshot.number)
    # A list page reads one page of the snapshot's rows and a card one row: no first
    # reader waits for the whole snapshot, so nothing is read into the cache here.
    return {"state": "done", "number": snapshot.number, "lines": snapshot.rows.count()}
