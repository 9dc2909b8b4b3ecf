"""Reading an event played on this installation into the figures a ranking counts (issue 27,
point 3): the overall standing's places (shared places for ties), total scores, hands
played, withdrawn and disqualified players, the field size and the number of series, and
the problems that block an officer's approval (in German, naming series and table).

Reads only; `federation.rankings.status_services.submit_event` stores the result as an EventVersion.
A fixed number of queries whatever the field size: the standing's own few, one for the
hands per participant, one for the withdrawn, one for the series and one for their tables."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count
from django.utils import translation
from django.utils.translation import gettext as _

from scoring.models import HandSeat, Sheet
from scoring.standings.selectors import event_standing
from tournaments.models import Event, Participant, Series, Table


@dataclass
class ReadEvent:
    """What `read_event` found: `results` in the EventVersion.results format."""

    results: list[dict] = field(default_factory=list)
    field_size: int = 0
    series_count: int = 0
    results_version: int = 0
    problems: list[str] = field(default_factory=list)


def read_event(event: Event) -> ReadEvent:
    """The event's stored derived values as a ranking reads them (module docstring)."""
    event = Event.objects.get(pk=event.pk)  # the newest results_version, read first
    version = event.results_version
    series = list(
        Series.objects.filter(event=event)
        .order_by("number")
        .values("id", "number", "kind", "status", "published")
    )
    tables = list(
        Table.objects.filter(series__event=event)
        .order_by("series__number", "number")
        .values("series__number", "number", "sheet__status")
    )
    regular = [s for s in series if s["kind"] == Series.Kind.REGULAR]
    problems = _problems(series, tables)
    # Confirmed sheets of every series (published or not: an unpublished one is a problem).
    standing = event_standing(event, only_published=False)
    hands = dict(
        HandSeat.objects.filter(
            hand__sheet__table__series__event=event,
            hand__sheet__table__series__kind=Series.Kind.REGULAR,
            hand__sheet__status=Sheet.Status.CONFIRMED,
        )
        .values_list("participant_id")
        .annotate(n=Count("id"))
        .order_by()
    )
    withdrawn = set(
        Participant.objects.filter(event=event, withdrawn_from_series__isnull=False).values_list(
            "id", flat=True
        )
    )
    results = []
    place, previous = 0, None
    # Only who played a hand is in the field; places are numbered again over them so that
    # a tie keeps its shared place and the next place follows it (1, 2, 2, 4).
    played = [row for row in standing.rows if hands.get(row.participant_id, 0) > 0]
    for index, row in enumerate(played, 1):
        if row.rank != previous:
            place, previous = index, row.rank
        results.append(
            {
                "player": row.player_id,
                "place": place,
                "score": int(row.total),
                "hands": hands[row.participant_id],
                "withdrawn": row.participant_id in withdrawn,
                "disqualified": bool(row.disqualified),
            }
        )
    if not results and not problems:
        with translation.override("de"):
            problems.append(_("Nobody has played a hand on a confirmed score sheet."))
    return ReadEvent(
        results=results,
        field_size=len(results),
        series_count=len(regular),
        results_version=version,
        problems=problems,
    )


def _problems(series: list[dict], tables: list[dict]) -> list[str]:
    """German texts of what blocks an approval, by series and table."""
    out = []
    with translation.override("de"):
        if not series:
            out.append(_("The event has no series."))
        for s in series:
            number = {"series": s["number"]}
            if s["status"] != Series.Status.COMPLETE:
                out.append(_("Series %(series)d is not complete.") % number)
            if not s["published"]:
                out.append(_("Series %(series)d is not published.") % number)
        for t in tables:
            where = {"series": t["series__number"], "table": t["number"]}
            status = t["sheet__status"]
            if status is None:
                out.append(_("Series %(series)d, table %(table)d: no score sheet.") % where)
            elif status == Sheet.Status.DISPUTED:
                out.append(
                    _("Series %(series)d, table %(table)d: the score sheet is disputed.") % where
                )
            elif status != Sheet.Status.CONFIRMED:
                out.append(
                    _("Series %(series)d, table %(table)d: the score sheet is not confirmed.")
                    % where
                )
    return out
