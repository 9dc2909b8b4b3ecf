"""The built-in exports: player registry, seating list, pre-filled sheets, standings, season
ranking and the whole-event workbook."""

from __future__ import annotations

import textwrap
import unicodedata
from dataclasses import dataclass, field

from django.db.models import Prefetch
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from clubs.permissions import SCORER
from clubs.selectors import club_members
from scoring import ranking
from scoring.messages_rules import tie_policy_label
from scoring.models import Hand, HandSeat, Sheet
from tournaments.models import Group, Participant, Season, Seat, Series, Table

from .base import Column, Exporter, ExportTable, register
from .codes import absolute, qr_data_uri, sheet_code, sheet_entry_path
from .rendering import DisplayTable


def collation_key(text: str) -> str:
    """German phone-book-free order: "Äbersold" next to "Abel", "Weiß" as "Weiss"."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def player_key(player) -> tuple[str, str, str]:
    return (
        collation_key(player.family_name),
        collation_key(player.given_name),
        player.player_number,
    )


# ----- player registry ---------------------------------------------------------------------


@register
class PlayerRegistryExporter(Exporter):
    slug = "players"
    name = gettext_lazy("Player registry")
    scope = "club"
    description = gettext_lazy("The club's current members: number, name, birth year, status.")

    def header_text(self, club):
        return club.name

    def tables(self, club) -> list[ExportTable]:
        players = sorted(club_members(club), key=player_key)
        columns = [
            Column("number", _("Number"), width=12),
            Column("family_name", _("Family name")),
            Column("given_name", _("Given name")),
            Column("birth_year", _("Birth year"), "int", width=11, number_format="0"),
            Column("club", _("Club")),
            Column("active", _("Active"), width=8),
        ]
        rows = [
            {
                "number": p.player_number,
                "family_name": p.family_name,
                "given_name": p.given_name,
                "birth_year": p.birth_year,
                "club": p.current_club_short or "",
                "active": _("yes") if p.active else _("no"),
            }
            for p in players
        ]
        count = len(rows)
        footer = {
            "number": _("Total"),
            "family_name": ngettext("%(count)d player", "%(count)d players", count)
            % {"count": count},
        }
        return [ExportTable(_("Player registry"), columns, rows, footer)]

    def expected_pages(self, club) -> int:
        return max(1, club_members(club).count() // 40 + 1)


# ----- seating list ------------------------------------------------------------------------


def _seats(series: Series) -> list[Seat]:
    return list(
        Seat.objects.filter(series=series)
        .select_related("table", "participant__player", "participant__club")
        .order_by("table__number", "position")
    )


def _club_short(participant) -> str:
    return participant.club.short_name if participant.club_id else ""


@register
class SeatingListExporter(Exporter):
    slug = "seating"
    name = gettext_lazy("Seating list")
    scope = "series"
    description = gettext_lazy("Who sits where: by table, and by name to hang up at the door.")

    def header_text(self, series):
        return series.event.name

    def title(self, series):
        return _("Seating list") + f" – {series}"

    def tables(self, series) -> list[ExportTable]:
        seats = _seats(series)
        by_table = ExportTable(
            _("By table"),
            [
                Column("table", _("Table"), "int", width=8),
                Column("seat", _("Seat"), "int", width=8),
                Column("player", _("Player"), width=32),
                Column("club", _("Club"), width=14),
            ],
            [
                {
                    "table": seat.table.number,
                    "seat": seat.position + 1,
                    "player": str(seat.participant.player),
                    "club": _club_short(seat.participant),
                }
                for seat in seats
            ],
            group_by="table",
        )
        table_count = len({seat.table_id for seat in seats})
        by_table.footer = {
            "table": _("Total"),
            "player": ngettext(
                "%(players)d player at %(tables)d tables",
                "%(players)d players at %(tables)d tables",
                len(seats),
            )
            % {"players": len(seats), "tables": table_count},
        }
        alphabetical = sorted(seats, key=lambda seat: player_key(seat.participant.player))
        by_name = ExportTable(
            _("By name"),
            [
                Column("player", _("Player"), width=32),
                Column("table", _("Table"), "int", width=8),
                Column("seat", _("Seat"), "int", width=8),
            ],
            [
                {
                    "player": str(seat.participant.player),
                    "table": seat.table.number,
                    "seat": seat.position + 1,
                }
                for seat in alphabetical
            ],
        )
        return [by_table, by_name]

    def expected_pages(self, series) -> int:
        seats = Seat.objects.filter(series=series).count()
        return max(1, 2 * (seats // 45 + 1))

    def is_long(self, series, fmt) -> bool:
        return fmt == "pdf" and Seat.objects.filter(series=series).count() > 200


# ----- pre-filled score sheets -------------------------------------------------------------


@dataclass
class SheetPlayer:
    seat: int
    name: str
    club: str
    number: str


@dataclass
class SheetHand:
    number: int
    dealer: int  # seat position, 0-based

    dealer_name: str = ""


@dataclass
class PrefilledSheet:
    table: int
    players: list[SheetPlayer]
    first_dealer: int
    hands: list[SheetHand] = field(default_factory=list)
    code: str = ""
    url: str = ""
    short_url: str = ""
    qr: str = ""


def prefilled_sheets(series: Series, *, base_url: str = "", with_qr: bool = True):
    """Every table of a series with players in seat order and the dealer of each hand
    (2 queries)."""
    seats = Seat.objects.select_related("participant__player", "participant__club").order_by(
        "position"
    )
    tables = (
        Table.objects.filter(series=series)
        .select_related("sheet")
        .prefetch_related(Prefetch("seats", queryset=seats))
        .order_by("number")
    )
    sheets = []
    for table in tables:
        players = [
            SheetPlayer(
                seat=seat.position + 1,
                name=str(seat.participant.player),
                club=_club_short(seat.participant),
                number=seat.participant.player.player_number,
            )
            for seat in table.seats.all()
        ]
        size = len(players)
        sheet = getattr(table, "sheet", None)
        first_dealer = sheet.first_dealer if sheet is not None and size else 0
        if size:
            first_dealer %= size
        hands = []
        for i in range(series.planned_rounds * size):
            dealer = (first_dealer + i) % size
            hands.append(SheetHand(i + 1, dealer, players[dealer].name))
        code = sheet_code(series.pk, table.number)
        path = sheet_entry_path(series.pk, table.number)
        url = absolute(base_url, path)
        sheets.append(
            PrefilledSheet(
                table=table.number,
                players=players,
                first_dealer=first_dealer,
                hands=hands,
                code=code,
                url=url,
                short_url=absolute(base_url, reverse("exports:sheet_code", args=[code])),
                qr=qr_data_uri(url) if with_qr else "",
            )
        )
    return sheets


@register
class ScoreSheetsExporter(Exporter):
    slug = "score-sheets"
    name = gettext_lazy("Pre-filled score sheets")
    scope = "series"
    description = gettext_lazy(
        "One sheet per table: players in seat order, the dealer of each hand, an empty grid, "
        "signature lines and a QR code to the sheet's entry page."
    )
    template = "exports/score_sheets.html"

    def header_text(self, series):
        return series.event.name

    def title(self, series):
        return _("Score sheets") + f" – {series}"

    def tables(self, series) -> list[ExportTable]:
        needs_melded = series.event.ruleset.needs_melded
        result = []
        for sheet in prefilled_sheets(series, with_qr=False):
            columns = [
                Column("hand", _("Hand"), "int", width=7),
                Column("dealer", _("Dealer"), width=24),
            ]
            for player in sheet.players:
                columns.append(Column(f"p{player.seat}", f"{player.seat}. {player.name}", "int"))
                if needs_melded:
                    columns.append(
                        Column(f"m{player.seat}", f"{player.seat}. " + _("melded"), "int")
                    )
            rows = [{"hand": hand.number, "dealer": hand.dealer_name} for hand in sheet.hands]
            label = _("Table %(number)d") % {"number": sheet.table}
            result.append(
                ExportTable(
                    f"{label} ({sheet.code})",
                    columns,
                    rows,
                    footer={"hand": _("Total")},
                    sheet_name=label,
                )
            )
        return result

    def context(self, series, *, base_url: str = ""):
        sheets = prefilled_sheets(series, base_url=base_url)
        hands = max((len(s.hands) for s in sheets), default=0)
        # The grid fills what the header, signatures and margins leave of an A4 page.
        row_mm = max(4.4, min(7.5, 132 / hands)) if hands else 8.0
        return {
            "series": series,
            "event": series.event,
            "sheets": sheets,
            "needs_melded": series.event.ruleset.needs_melded,
            "row_height": f"{row_mm:.1f}mm",
        }

    def expected_pages(self, series) -> int:
        return max(1, Table.objects.filter(series=series).count())

    def is_long(self, series, fmt) -> bool:
        return fmt == "pdf" and Table.objects.filter(series=series).count() > 4


# ----- long lists as text lines (PDF and print page) -----------------------------------------
#
# WeasyPrint spends about half a millisecond on every table cell (style, line layout,
# drawing): the standings of a 400-player event are 25,000 cells, 15 s as a grid. Long lists
# are therefore laid out as one monospaced text line per row (aligned in Python, numbers
# right-aligned, formatted as in the grid), one cell per row: 2,500 rows in about 2.5 s.
# The workbook still comes from the same ExportTables, cell by cell.

MONO_ADVANCE = 0.602  # DejaVu Sans Mono: advance of one character, in em
LINE_WIDTH_PT = 765.0  # A4 landscape (842 pt) less the page margins and cell padding
MAX_FONT_PT, MIN_FONT_PT = 8.0, 5.0
MAX_TEXT = 34  # longer text cells are cut with "…" in the PDF (never in the workbook)
GAP = "  "


@dataclass
class TextList:
    """An ExportTable as aligned text lines, as templates/exports/text_lists.html reads it."""

    title: str
    header: str  # one or two lines
    rows: list[tuple[str, bool]]  # (text, starts a group)
    footer: str | None
    font_size: str  # CSS length that fits the longest line on the page


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _header_lines(header: str, width: int) -> tuple[list[str], int]:
    """The header wrapped at spaces into at most two lines of at least `width` characters."""
    words = header.split()
    width = max(width, *(len(w) for w in words)) if words else width
    while True:
        lines: list[str] = []
        for word in words:
            if lines and len(lines[-1]) + 1 + len(word) <= width:
                lines[-1] += " " + word
            else:
                lines.append(word)
        if len(lines) <= 2:
            return lines or [""], width
        width += 1


def text_lists(tables: list[ExportTable], *, detail_keys=()) -> list[TextList]:
    """Lay out tables as text lines. Columns in `detail_keys` (long texts such as the
    members of a team) go on a second line under the row, indented to the second column."""
    return [_text_list(table, set(detail_keys)) for table in tables]


def _text_list(table: ExportTable, detail_keys: set[str]) -> TextList:
    shown = DisplayTable.of(table)
    keep = [i for i, c in enumerate(table.columns) if c.key not in detail_keys]
    details = [i for i, c in enumerate(table.columns) if c.key in detail_keys]
    columns = [table.columns[i] for i in keep]
    numeric = [c.numeric for c in columns]

    def cells(row_cells):
        texts = [row_cells[i][0] for i in keep]
        return [t if numeric[n] else _cut(t, MAX_TEXT) for n, t in enumerate(texts)]

    body = [(cells(row.cells), row) for row in shown.rows]
    footer = cells(shown.footer) if shown.footer else None
    widths, headers = [], []
    for n, column in enumerate(columns):
        data = max((len(texts[n]) for texts, _row in body), default=0)
        if footer:
            data = max(data, len(footer[n]))
        lines, width = _header_lines(str(column.header), data)
        widths.append(width)
        headers.append(lines)

    def line(texts):
        parts = [
            text.rjust(width) if numeric[n] else text.ljust(width)
            for n, (text, width) in enumerate(zip(texts, widths, strict=True))
        ]
        return GAP.join(parts).rstrip()

    # Header lines bottom-aligned, so one-line headers sit on the second line.
    depth = max((len(h) for h in headers), default=1)
    padded = [[""] * (depth - len(h)) + h for h in headers]
    header = "\n".join(line([h[d] for h in padded]) for d in range(depth))
    total_width = sum(widths) + len(GAP) * max(0, len(widths) - 1)
    indent = " " * (widths[0] + len(GAP)) if len(widths) > 1 else ""
    room = max(20, total_width - len(indent))
    rows = []
    for texts, row in body:
        text = line(texts)
        for i in details:
            detail = row.cells[i][0]
            if detail:
                label = f"{table.columns[i].header}: {detail}"
                text += "".join(f"\n{indent}{chunk}" for chunk in textwrap.wrap(label, room))
        rows.append((text, row.group_start))
    font = LINE_WIDTH_PT / (MONO_ADVANCE * max(total_width, 1))
    font = max(MIN_FONT_PT, min(MAX_FONT_PT, font))
    return TextList(
        title=shown.title,
        header=header,
        rows=rows,
        footer=line(footer) if footer else None,
        font_size=f"{font:.2f}pt",
    )


# ----- standings -----------------------------------------------------------------------------
#
# Read through scoring.ranking exactly as the standings pages do (event_standing with the
# event's chain, playoffs, lots), never re-aggregated here, so the screen, the workbook and
# the PDF agree. The director's view: every confirmed sheet counts, published or not; entered
# but unconfirmed sheets never do (what hangs on the wall is final).


def _pending_series(event) -> dict[int, set[int]]:
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


def _standing_table(standing, pending: dict[int, set[int]], title: str, sheet_name: str):
    """One ExportTable of a scoring.ranking.EventStanding (rows in the standing's order)."""
    group = standing.competition != ranking.INDIVIDUAL
    series_numbers = standing.counted_series if standing.scope != ranking.SERIES else []
    counted = set(standing.counted_series)
    metric_keys = [k for k in standing.chain if k != "total"]
    if any(ranking.core.PLAYOFF in row.values for row in standing.rows):
        metric_keys.append(ranking.core.PLAYOFF)

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

    name_header = {
        ranking.INDIVIDUAL: _("Player"),
        ranking.PAIR: _("Pair"),
        ranking.TEAM: _("Team"),
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
        Column(f"m_{key}", ranking.metric_label(key), "int", width=12) for key in metric_keys
    ]
    provisional = any(r["provisional"] for r in rows)
    if provisional:
        columns.append(Column("provisional", _("Provisional: sheets not confirmed"), width=14))
        title = f"{title} (" + _("provisional") + ")"
    title = f"{title} · {tie_policy_label(standing.ties_policy)}"
    return ExportTable(title, columns, rows, sheet_name=sheet_name)


def standings_tables(event) -> list[ExportTable]:
    """Overall individual, pairs and teams, then every series and (on several days) every
    day: one table each, from confirmed sheets of every series (published or not)."""

    def standing(competition=ranking.INDIVIDUAL, scope=ranking.OVERALL, number=None):
        return ranking.event_standing(
            event,
            competition=competition,
            scope=scope,
            number=number,
            include_entered=False,
            only_published=False,
        )

    pending = _pending_series(event)
    overall = standing()
    result = [
        _standing_table(overall, pending, _("Individual – overall standing"), str(_("Overall")))
    ]
    for competition, sheet in ((ranking.PAIR, _("Pairs")), (ranking.TEAM, _("Teams"))):
        if not Group.objects.filter(event=event, kind=competition).exists():
            continue
        label = ranking.COMPETITION_LABELS[competition]
        result.append(
            _standing_table(
                standing(competition),
                pending,
                _("%(competition)s – overall standing") % {"competition": label},
                str(sheet),
            )
        )
    regular = [s for s in overall.series if s["kind"] == Series.Kind.REGULAR]
    for s in regular:
        number = s["number"]
        label = _("Series %(number)d") % {"number": number}
        series_standing = standing(scope=ranking.SERIES, number=number)
        if not series_standing.rows:
            continue  # not played (or no sheet confirmed) yet
        result.append(
            _standing_table(
                series_standing,
                pending,
                _("Individual – standing of series %(number)d") % {"number": number},
                label,
            )
        )
    if len(overall.days) > 1:
        for day in overall.days:
            day_standing = standing(scope=ranking.DAY, number=day)
            if not day_standing.rows:
                continue
            result.append(
                _standing_table(
                    day_standing,
                    pending,
                    _("Individual – standing of day %(day)d") % {"day": day},
                    _("Day %(day)d") % {"day": day},
                )
            )
    return result


def _standing_pages(event) -> int:
    """A cheap guess of the standings' PDF pages (counts only, no ranking)."""
    participants = Participant.objects.filter(event=event).count()
    groups = Group.objects.filter(event=event).count()
    series = Series.objects.filter(event=event, kind=Series.Kind.REGULAR).count()
    days = Series.objects.filter(event=event).values("day").distinct().count()
    rows = participants * (1 + series + (days if days > 1 else 0)) + groups
    return max(1, rows // 42 + 2 + series + days)


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
    # Landscape text lists: a grid of 25,000 cells would take WeasyPrint 15 s.
    template = "exports/text_lists.html"

    def header_text(self, event):
        return event.name

    def title(self, event):
        return _("Standings (all confirmed sheets)") + f" – {event}"

    def tables(self, event) -> list[ExportTable]:
        return standings_tables(event)

    def context(self, event, *, base_url: str = ""):
        return {"text_lists": text_lists(self.tables(event), detail_keys=("members",))}

    def expected_pages(self, event) -> int:
        return _standing_pages(event)

    def is_long(self, event, fmt) -> bool:
        return fmt == "pdf" and Participant.objects.filter(event=event).count() > 120


# ----- season ranking --------------------------------------------------------------------------


@register
class SeasonRankingExporter(Exporter):
    """Exports have no season scope (club, event, series): the club's newest season."""

    slug = "season-ranking"
    name = gettext_lazy("Season ranking")
    scope = "club"
    # Like the season page for directors: unpublished series count too.
    permission = SCORER
    description = gettext_lazy(
        "The club's newest season: rank, series played, counted total and average, "
        "dropped results. All confirmed sheets count, published or not."
    )

    def season(self, club):
        return Season.objects.filter(club=club).order_by("-start_date", "-pk").first()

    def header_text(self, club):
        return club.name

    def title(self, club):
        season = self.season(club)
        label = season.name if season is not None else _("no season yet")
        return _("Season ranking") + f" {label} – {club}"

    def tables(self, club) -> list[ExportTable]:
        season = self.season(club)
        columns = [
            Column("rank", _("Rank"), "int", width=7),
            Column("player", _("Player"), width=28),
            Column("played", _("Series played"), "int", width=10),
            Column("counted_total", _("Counted total"), "int", width=11),
            Column("average", _("Average"), "decimal", width=10),
            Column("dropped_count", _("Dropped"), "int", width=9),
            Column("dropped", _("Dropped results"), width=40),
            Column("note", _("Note"), width=16),
        ]
        if season is None:
            return [ExportTable(_("Season ranking"), columns, [])]
        standing = ranking.season_standing(season, only_published=False)
        rows = []
        for line in standing.lines:
            row = line.row
            rows.append(
                {
                    "rank": row.rank,
                    "player": line.name,
                    "played": row.played,
                    "counted_total": row.counted_total,
                    "average": round(row.average, 2),
                    "dropped_count": len(line.dropped),
                    "dropped": "; ".join(_dropped_text(d) for d in line.dropped),
                    "note": "" if row.qualified else _("not yet ranked"),
                }
            )
        mode = season.get_ranking_mode_display()
        title = _("Season %(season)s, ranked by %(mode)s") % {"season": season.name, "mode": mode}
        title = f"{title} · " + _("ties: shared rank")
        return [
            ExportTable(
                title,
                columns,
                rows,
                sheet_name=_("Season %(season)s") % {"season": season.name},
            )
        ]


def _dropped_text(result) -> str:
    series = _("Series %(number)d") % {"number": result.number}
    return f"{result.total} ({result.event_name}, {series})"


# ----- whole-event workbook ------------------------------------------------------------------


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
    # Landscape text lists: a row holds every seat; 10,000 hands are 170,000 cells.
    template = "exports/text_lists.html"

    def header_text(self, event):
        return event.name

    def title(self, event):
        return _("Whole-event workbook (all confirmed sheets)") + f" – {event}"

    def tables(self, event) -> list[ExportTable]:
        return hand_tables(event) + standings_tables(event)

    def context(self, event, *, base_url: str = ""):
        return {"text_lists": text_lists(self.tables(event), detail_keys=("members",))}

    def expected_pages(self, event) -> int:
        series = Series.objects.filter(event=event).count()
        return _confirmed_hands(event) // 32 + series + _standing_pages(event)

    def is_long(self, event, fmt) -> bool:
        hands = _confirmed_hands(event)
        return hands > 200 if fmt == "pdf" else hands > 3000
