"""Export: the standings of an event (overall, per series, per day, pairs, teams).

Read through `scoring.standings.selectors` exactly as the standings pages do (the event's
chain, playoffs, lots), never re-aggregated here, so the screen, the workbook and the PDF
agree. The director's view: every confirmed sheet counts, published or not; entered but
unconfirmed sheets never do (what hangs on the wall is final)."""

from __future__ import annotations

from typing import ClassVar

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.permissions import SCORER
from scoring.exports.grids import event_facts, grids
from scoring.exports.parts import ranking_parts
from scoring.exports.registry import Exporter, register
from scoring.exports.tables import Column, ExportTable
from scoring.models import Sheet
from scoring.standings import labels, selectors
from scoring.standings.labels import tie_policy_label
from tournaments.models import Group, Participant, Seat, Series


def pending_series(event) -> dict[int, set[int]]:
    """Participant id -> numbers of the regular series in which the sheet of the player's
    table is not confirmed yet (no sheet, draft or entered): their totals there are still
    missing from the confirmed standings (1 query)."""
    pending: dict[int, set[int]] = {}
    seats = (
        Seat.objects.filter(series__event=event, series__kind=Series.Kind.REGULAR)
        .exclude(table__sheet__status=Sheet.Status.CONFIRMED)
        .values_list("participant_id", "series__number")
    )
    for participant_id, number in seats:
        pending.setdefault(participant_id, set()).add(number)
    return pending


def standing_table(standing, pending: dict[int, set[int]], title: str, sheet_name: str, waiting=()):
    """One ExportTable of an `EventStanding` (`scoring.standings.selectors`), rows in the
    standing's order; then the `waiting` rows (`waiting_rows`), without rank or total."""
    group = standing.competition != labels.INDIVIDUAL
    series_numbers = standing.counted_series if standing.scope != labels.SERIES else []
    counted = set(standing.counted_series)
    metric_keys = [k for k in standing.chain if k != "total"]
    if any(selectors.core.PLAYOFF in row.values for row in standing.rows):
        metric_keys.append(selectors.core.PLAYOFF)

    def pending_of(row) -> list[int]:
        ids = [m["participant_id"] for m in row.members] if group else [row.participant_id]
        numbers = set()
        for pid in ids:
            numbers |= pending.get(pid, set()) & counted
        return sorted(numbers)

    rows = []
    for row in standing.rows:
        missing = pending_of(row)
        data = {
            "rank": row.rank,
            "name": row.name,
            "club": row.club,
            "total": row.total,
            "provisional": ", ".join(_("S%(number)d") % {"number": n} for n in missing),
        }
        if group:
            data["members"] = ", ".join(m["name"] for m in row.members)
        for n in series_numbers:
            data[f"s{n}"] = row.series_totals.get(n)
        for key in metric_keys:
            data[f"m_{key}"] = row.values.get(key)
        rows.append(data)
    rows += waiting

    name_header = {
        labels.INDIVIDUAL: _("Player"),
        labels.PAIR: _("Pair"),
        labels.TEAM: _("Team"),
    }
    columns = [
        Column("rank", _("Rank"), "int", width=7),
        Column("name", name_header[standing.competition], width=28 if not group else 14),
    ]
    if group:
        columns.append(Column("members", _("Members"), width=40))
    columns.append(Column("club", _("Club"), width=12))
    columns += [
        Column(f"s{n}", _("S%(number)d") % {"number": n}, "int", width=8) for n in series_numbers
    ]
    columns.append(Column("total", _("Total"), "int", width=9))
    columns += [
        Column(f"m_{key}", labels.metric_label(key), "int", width=12) for key in metric_keys
    ]
    provisional = any(r["provisional"] for r in rows)
    if provisional:
        columns.append(Column("provisional", _("Provisional: sheets not confirmed"), width=14))
        title = f"{title} (" + _("provisional") + ")"
    title = f"{title} · {tie_policy_label(standing.ties_policy)}"
    return ExportTable(title, columns, rows, sheet_name=sheet_name)


def confirmed_standings(event, competitions, scope: str, number: int | None):
    """`selectors.event_standings` of the prints: every confirmed sheet, published or not;
    entered, unconfirmed ones never."""
    return selectors.event_standings(
        event,
        competitions=competitions,
        scope=scope,
        number=number,
        include_entered=False,
        only_published=False,
    )


def standings_tables(event, *, detail: bool = True) -> list[ExportTable]:
    """Overall individual, pairs and teams, then (`detail`) every series and (on several
    days) every day: one table each, from confirmed sheets of every series (published or
    not)."""

    # Every scope from one read (the prints' sheets: confirmed, published or not).
    inputs = selectors.standing_inputs(event, include_entered=False, only_published=False)

    def standing(competition=labels.INDIVIDUAL, scope=labels.OVERALL, number=None):
        return inputs.standings(scope, number, (competition,))[competition]

    pending = pending_series(event)
    overall = standing()
    result = [
        standing_table(overall, pending, _("Individual – overall standing"), str(_("Overall")))
    ]
    for competition, sheet in ((labels.PAIR, _("Pairs")), (labels.TEAM, _("Teams"))):
        if not Group.objects.filter(event=event, kind=competition).exists():
            continue
        label = labels.COMPETITION_LABELS[competition]
        result.append(
            standing_table(
                standing(competition),
                pending,
                _("%(competition)s – overall standing") % {"competition": label},
                str(sheet),
            )
        )
    if not detail:
        return result
    regular = [s for s in overall.series if s["kind"] == Series.Kind.REGULAR]
    for s in regular:
        number = s["number"]
        label = _("Series %(number)d") % {"number": number}
        series_standing = standing(scope=labels.SERIES, number=number)
        if not series_standing.rows:
            continue  # not played (or no sheet confirmed) yet
        result.append(
            standing_table(
                series_standing,
                pending,
                _("Individual – standing of series %(number)d") % {"number": number},
                label,
            )
        )
    if len(overall.days) > 1:
        for day in overall.days:
            day_standing = standing(scope=labels.DAY, number=day)
            if not day_standing.rows:
                continue
            result.append(
                standing_table(
                    day_standing,
                    pending,
                    _("Individual – standing of day %(day)d") % {"day": day},
                    _("Day %(day)d") % {"day": day},
                )
            )
    return result


def waiting_rows(standing, pending: dict[int, set[int]]) -> list[dict]:
    """Players without a row in a series' or day's standing because the sheet of each of
    their tables there is not confirmed yet: listed after the ranked rows, without rank
    or total, naming the series they wait for (1 query when there are any)."""
    counted = set(standing.counted_series)
    shown = {row.participant_id for row in standing.rows}
    ids = [pid for pid, numbers in pending.items() if numbers & counted and pid not in shown]
    if not ids:
        return []
    people = Participant.objects.filter(pk__in=ids).values_list(
        "id", "player__given_name", "player__family_name", "club__short_name"
    )  # ordered by the player's sort key (Meta)
    return [
        {
            "name": f"{given} {family}",
            "club": club or "",
            "provisional": ", ".join(
                _("S%(number)d") % {"number": n} for n in sorted(pending[pid] & counted)
            ),
        }
        for pid, given, family, club in people
    ]


def competitions_of(event) -> list[str]:
    """Individual, then pairs and teams when the event has them (1 query)."""
    kinds = set(Group.objects.filter(event=event).values_list("kind", flat=True).distinct())
    return [c for c in labels.COMPETITIONS if c == labels.INDIVIDUAL or c in kinds]


def scope_tables(event, scope: str, number: int, label: str) -> list[ExportTable]:
    """The standing of one series or one day (`scope` "series" or "day", `number` the
    series' number or the day), individual, then pairs and teams when the event has them,
    laid out as the overall tables; `label` ("Series 3") names the tables. The same
    confirmed sheets as `standings_tables`, read once for all competitions. Players whose
    table there is not confirmed yet have no total: they follow the individual ranking,
    marked (the print says "VORLÄUFIG")."""
    competitions = competitions_of(event)
    standings = confirmed_standings(event, competitions, scope, number)
    pending = pending_series(event)
    out = []
    for competition in competitions:
        standing, name = standings[competition], str(labels.COMPETITION_LABELS[competition])
        waiting = waiting_rows(standing, pending) if competition == labels.INDIVIDUAL else ()
        out.append(standing_table(standing, pending, f"{name} – {label}", name, waiting))
    return out


class ScopedStandingsExporter(Exporter):
    """Base of the A4 prints of one series' or one day's standing (the series scope: a
    day is named by any of its series). Subclasses set `slug`, `name`, `description` and
    `scoped(series) -> (scope, number, label)`."""

    scope = "series"
    # Unpublished series count, as in the director's standings export: the same role.
    permission = SCORER
    template = "exports/ranking.html"
    heading: ClassVar = ""

    def scoped(self, series) -> tuple[str, int, str]:
        raise NotImplementedError

    def label(self, series) -> str:
        return self.scoped(series)[2]

    def header_text(self, series):
        return series.event.name

    def title(self, series):
        return f"{self.heading} – {self.label(series)} – {series.event}"

    def tables(self, series) -> list[ExportTable]:
        return scope_tables(series.event, *self.scoped(series))

    def context(self, series, *, base_url: str = ""):
        return print_context(series.event, self.tables(series))

    def pdf_parts(self, context, workers):
        return ranking_parts(context, workers)

    def expected_pages(self, series) -> int:
        rows = Participant.objects.filter(event=series.event).count()
        rows += Group.objects.filter(event=series.event).count()
        return max(1, rows // 50 + 1)


def standing_pages(event, *, detail: bool = True) -> int:
    """A cheap guess of the standings' PDF pages (counts only, no ranking)."""
    participants = Participant.objects.filter(event=event).count()
    groups = Group.objects.filter(event=event).count()
    series = Series.objects.filter(event=event, kind=Series.Kind.REGULAR).count()
    days = Series.objects.filter(event=event).values("day").distinct().count()
    if not detail:
        series = days = 0
    rows = participants * (1 + series + (days if days > 1 else 0)) + groups
    return max(1, rows // 50 + 2 + series + days)


def tie_break_keys(table: ExportTable) -> list[str]:
    return [c.key for c in table.columns if c.key.startswith("m_")]


def print_context(event, tables: list[ExportTable], *, notes=(), **extra) -> dict:
    """What templates/exports/ranking.html needs besides the title: the grids (tie-break
    values only where totals are equal, as printed result lists do), the event's facts and
    whether anything in them is provisional."""
    shown = grids(tables, only_on_ties=tie_break_keys)
    notes = [_("Tie-break values are shown only where totals are equal."), *notes]
    return {
        "grids": shown,
        "facts": event_facts(event),
        "provisional": any(g.provisional for g in shown),
        "note": " ".join(str(n) for n in notes),
        **extra,
    }


@register
class StandingsExporter(Exporter):
    slug = "standings"
    name = gettext_lazy("Standings")
    scope = "event"
    # The director's export: it counts unpublished series as well (like the director's page).
    permission = SCORER
    description = gettext_lazy(
        "Overall, pairs, teams, every series and every day, with the tie-break values. "
        "All confirmed sheets count, published or not; unconfirmed ones never do."
    )
    # Bordered grids, A4 portrait. The PDF and print page hold the overall standings only:
    # every series and day as well would be 23,000 cells for 400 players (WeasyPrint lays
    # out about 1,000 cells a second); those are in the XLSX and the workbook's PDF.
    template = "exports/ranking.html"

    def header_text(self, event):
        return event.name

    def title(self, event):
        return _("Standings (all confirmed sheets)") + f" – {event}"

    def tables(self, event) -> list[ExportTable]:
        return standings_tables(event)

    def context(self, event, *, base_url: str = ""):
        note = _(
            "The standing of each series and each day: in the XLSX of this export and in the "
            "whole-event workbook."
        )
        return print_context(event, standings_tables(event, detail=False), notes=[note])

    def pdf_parts(self, context, workers):
        return ranking_parts(context, workers)

    def expected_pages(self, event) -> int:
        return standing_pages(event, detail=False)

    def is_long(self, event, fmt) -> bool:
        return fmt == "pdf" and Participant.objects.filter(event=event).count() > 120


# ----- season ranking --------------------------------------------------------------------------
