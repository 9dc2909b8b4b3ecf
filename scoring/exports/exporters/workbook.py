"""Export: the whole-event workbook: the standings tables plus every hand of every confirmed
sheet, one sheet per series."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.permissions import SCORER
from scoring.exports.exporters.standings import print_context, standing_pages, standings_tables
from scoring.exports.parts import ranking_parts
from scoring.exports.registry import Exporter, register
from scoring.exports.tables import Column, ExportTable
from scoring.exports.textlists import text_lists
from scoring.models import Hand, HandSeat, Sheet
from tournaments.models import Participant, Series


def _names(event) -> dict[int, str]:
    """Participant id -> "Given Family", as the standings show names (1 query)."""
    return {
        pid: f"{given} {family}"
        for pid, given, family in Participant.objects.filter(event=event).values_list(
            "id", "player__given_name", "player__family_name"
        )
    }


def hand_tables(event) -> list[ExportTable]:
    """One table per series: every hand of every confirmed sheet, one row per hand, with
    each seat's player, hand points, melded value (when the rules need it) and points.
    Hand points and points are the stored derived values (HandSeat.held_points, .points;
    2 queries for the whole event)."""
    needs_melded = event.ruleset.needs_melded
    names = _names(event)
    series_list = list(Series.objects.filter(event=event).order_by("number"))
    seats = (
        HandSeat.objects.filter(
            hand__sheet__table__series__event=event,
            hand__sheet__status=Sheet.Status.CONFIRMED,
        )
        .order_by(
            "hand__sheet__table__series__number",
            "hand__sheet__table__number",
            "hand__number",
            "position",
        )
        .values_list(
            "hand__sheet__table__series_id",
            "hand__sheet__table__number",
            "hand_id",
            "hand__number",
            "hand__dealer",
            "hand__winner",
            "hand__hand_romme",
            "position",
            "participant_id",
            "held_points",
            "melded",
            "points",
        )
    )
    hands_by_series: dict[int, list[dict]] = {s.pk: [] for s in series_list}
    seat_count: dict[int, int] = {}
    current = None
    current_id = None
    seat_names: dict[int, str] = {}

    def finish():
        if current is not None:
            current["dealer"] = seat_names.get(current.pop("_dealer"), "")
            winner = current.pop("_winner")
            current["winner"] = "" if winner is None else seat_names.get(winner, "")

    for (
        series_id, table, hand_id, number, dealer, winner, romme,
        position, participant_id, hand_points, melded, points,
    ) in seats:  # fmt: skip
        if hand_id != current_id:
            finish()
            current_id = hand_id
            seat_names = {}
            current = {
                "table": table,
                "hand": number,
                "_dealer": dealer,
                "_winner": winner,
                "romme": _("yes") if romme else "",
            }
            hands_by_series[series_id].append(current)
        name = names.get(participant_id, "?")
        seat_names[position] = name
        seat = position + 1
        current[f"p{seat}"] = name
        current[f"h{seat}"] = hand_points
        current[f"m{seat}"] = melded
        current[f"s{seat}"] = points
        seat_count[series_id] = max(seat_count.get(series_id, 0), seat)
    finish()

    result = []
    for series in series_list:
        hands = hands_by_series[series.pk]
        if not hands:
            continue  # nothing confirmed yet
        columns = [
            Column("table", _("Table"), "int", width=7),
            Column("hand", _("Hand"), "int", width=7),
            Column("dealer", _("Dealer"), width=22),
            Column("winner", _("Went out"), width=22),
            Column("romme", _("Hand Rommé"), width=8),
        ]
        for seat in range(1, seat_count[series.pk] + 1):
            columns.append(Column(f"p{seat}", _("Seat %(seat)d") % {"seat": seat}, width=22))
            columns.append(
                Column(f"h{seat}", _("%(seat)d: hand points") % {"seat": seat}, "int", width=9)
            )
            if needs_melded:
                columns.append(
                    Column(f"m{seat}", _("%(seat)d: melded") % {"seat": seat}, "int", width=9)
                )
            columns.append(
                Column(f"s{seat}", _("%(seat)d: points") % {"seat": seat}, "int", width=9)
            )
        label = _("Series %(number)d") % {"number": series.number}
        if series.is_playoff:
            label = f"{label} (" + _("playoff") + ")"
        result.append(
            ExportTable(
                _("%(series)s – every hand (confirmed sheets)") % {"series": label},
                columns,
                hands,
                sheet_name=_("Series %(number)d – hands") % {"number": series.number},
                group_by="table",
            )
        )
    return result


def _confirmed_hands(event) -> int:
    return Hand.objects.filter(
        sheet__table__series__event=event, sheet__status=Sheet.Status.CONFIRMED
    ).count()


@register
class EventWorkbookExporter(Exporter):
    slug = "event-workbook"
    name = gettext_lazy("Whole-event workbook")
    scope = "event"
    permission = SCORER
    description = gettext_lazy(
        "One sheet per series with every hand of every table and the points per seat, "
        "plus the standings (all confirmed sheets). Meant for Excel; the PDF is long."
    )
    # The hands as text lists on landscape pages (a row holds every seat: 10,000 hands would
    # be 170,000 grid cells, minutes in WeasyPrint), then the standings as bordered grids.
    template = "exports/ranking.html"

    def header_text(self, event):
        return event.name

    def title(self, event):
        return _("Whole-event workbook (all confirmed sheets)") + f" – {event}"

    def tables(self, event) -> list[ExportTable]:
        return hand_tables(event) + standings_tables(event)

    def context(self, event, *, base_url: str = ""):
        return print_context(
            event, standings_tables(event), text_lists=text_lists(hand_tables(event))
        )

    def pdf_parts(self, context, workers):
        return ranking_parts(context, workers)

    def expected_pages(self, event) -> int:
        series = Series.objects.filter(event=event).count()
        return _confirmed_hands(event) // 32 + series + standing_pages(event)

    def is_long(self, event, fmt) -> bool:
        hands = _confirmed_hands(event)
        return hands > 200 if fmt == "pdf" else hands > 3000
