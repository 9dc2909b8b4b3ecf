"""django-tables2 tables of the standings pages. Rows are plain dicts (no queries)."""

from __future__ import annotations

import django_tables2 as tables
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

from scoring.standings import labels, season, selectors

# Columns a phone hides: it shows rank, name and total, and opens the rest of a row
# below it on tap (static/js/standings.js, the .detail rules in app.css).
DETAIL = {"th": {"class": "detail"}, "td": {"class": "detail"}}
NUM_DETAIL = {"th": {"class": "detail"}, "td": {"class": "num detail"}}


class ReasonColumn(tables.Column):
    """Why the row stands above the next: the metric as a tooltip and expandable text."""

    def render(self, value, record):
        reason = record["reason"]
        if reason is None:
            return ""
        label = _("shared") if reason.metric == "shared" else labels.metric_label(reason.metric)
        return format_html(
            '<details class="reason"><summary title="{}">{}</summary>{}</details>',
            value,
            label,
            value,
        )


class StandingTable(tables.Table):
    rank = tables.Column(verbose_name=_("Rank"), attrs={"td": {"class": "num rank"}})
    name = tables.Column(verbose_name=_("Name"), attrs={"td": {"class": "name"}})
    club = tables.Column(verbose_name=_("Club"), attrs=DETAIL)
    total = tables.Column(verbose_name=_("Total"), attrs={"td": {"class": "num total"}})
    reason_text = ReasonColumn(verbose_name=_("Ahead because"), orderable=False, attrs=DETAIL)

    class Meta:
        attrs = {"class": "data-table compact standings phone-rows"}
        row_attrs = {"class": lambda record: "provisional" if record["provisional"] else ""}
        empty_text = _("No results yet.")
        order_by = ("rank",)
        # Header and sorting by django-tables2; the body is built in one Python pass
        # (body_html), since rendering 400 rows x 15 cells cell by cell through the
        # template engine takes most of a second.
        template_name = "standings/table.html"

    def __init__(self, rows, *, series_numbers=(), metrics=(), link_players=False, **kwargs):
        extra = [
            (
                f"s{n}",
                tables.Column(
                    verbose_name=_("S%(number)d") % {"number": n},
                    attrs=NUM_DETAIL,
                    default="–",
                ),
            )
            for n in series_numbers
        ]
        extra += [
            (
                f"m_{key}",
                tables.Column(
                    verbose_name=labels.metric_label(key),
                    attrs=NUM_DETAIL,
                    default="–",
                ),
            )
            for key in metrics
        ]
        self.link_players = link_players
        super().__init__(rows, extra_columns=extra, **kwargs)
        self.sequence = ["rank", "name", "club", *(c for c, _col in extra), "total", "reason_text"]

    def body_html(self):
        """The rows in the table's current order as HTML (values escaped)."""
        columns = list(self.columns)
        renderers = []
        for column in columns:
            name = column.name
            td = column.attrs.get("td", {}).get("class", "")
            cls = f' class="{td}"' if td else ""
            custom = getattr(self, f"render_{name}", None)
            if isinstance(column.column, ReasonColumn):
                custom = column.column.render
            renderers.append((name, cls, custom, column.column.default))
        out = []
        for record in self.data:
            cells = []
            for name, cls, custom, default in renderers:
                value = record.get(name)
                if custom is not None:
                    html = conditional_escape(custom(value=value, record=record))
                elif value is None or value == "":
                    html = conditional_escape(default if default is not None else "–")
                else:
                    html = conditional_escape(value)
                cells.append(f"<td{cls}>{html}</td>")
            row_class = ' class="provisional"' if record["provisional"] else ""
            numbers = record.get("numbers")
            if numbers:
                row_class += f' data-numbers="{conditional_escape(numbers)}"'
            out.append(f"<tr{row_class}>{''.join(cells)}</tr>")
        return mark_safe("\n".join(out))

    def render_rank(self, value, record):
        if record["provisional"]:
            return format_html(
                '{} <span class="badge provisional" title="{}">{}</span>',
                value,
                _("includes unconfirmed sheets"),
                _("provisional"),
            )
        return value

    def render_name(self, value, record):
        name = self._name_html(value, record)
        if record.get("disqualified"):  # stays in the standing, marked (wins no prize)
            return format_html('{} <span class="badge disqualified">{}</span>', name,
                               _("disqualified"))  # fmt: skip
        return name

    def _name_html(self, value, record):
        members = record.get("members_text")
        if self.link_players and record.get("player_id"):
            url = reverse("standings:player", args=[record["player_id"]])
            return format_html('<a href="{}">{}</a>', url, value)
        if members:
            return format_html('{} <span class="muted">({})</span>', value, members)
        return value


def table_rows(standing: selectors.EventStanding, rows) -> list[dict]:
    """Flat dicts for StandingTable (series totals as s<n>, chain values as m_<key>)."""
    out = []
    for r in rows:
        d = {
            "rank": r.rank,
            "name": r.name,
            "club": r.club,
            "total": r.total,
            "reason": r.reason,
            "reason_text": r.reason_text if r.reason is not None else "",
            "provisional": r.provisional,
            "player_id": r.player_id,
            "members_text": ", ".join(m["name"] for m in r.members),
            "numbers": " ".join(r.numbers),
            "disqualified": r.disqualified,
        }
        for n, total in r.series_totals.items():
            d[f"s{n}"] = total
        for key, value in r.values.items():
            d[f"m_{key}"] = value
        out.append(d)
    return out


class SeasonTable(tables.Table):
    rank = tables.Column(
        verbose_name=_("Rank"), attrs={"td": {"class": "num rank"}}, order_by=("sort_rank",)
    )
    name = tables.Column(verbose_name=_("Name"), attrs={"td": {"class": "name"}})
    played = tables.Column(verbose_name=_("Series played"), attrs=NUM_DETAIL)
    counted_total = tables.Column(
        verbose_name=_("Counted total"), attrs={"td": {"class": "num total"}}
    )
    average = tables.Column(verbose_name=_("Average"), attrs=NUM_DETAIL)
    dropped = tables.Column(verbose_name=_("Dropped results"), orderable=False, attrs=DETAIL)
    reason_text = ReasonColumn(verbose_name=_("Ahead because"), orderable=False, attrs=DETAIL)

    class Meta:
        attrs = {"class": "data-table compact standings phone-rows"}
        row_attrs = {
            "class": lambda record: "" if record["qualified"] else "not-qualified",
            "data-numbers": lambda record: record["number"],
        }
        empty_text = _("No results yet.")

    def render_rank(self, value, record):
        return value if value is not None else _("not yet ranked")

    def render_average(self, value):
        return number_format(value, 2)  # 12,50 in German

    def render_dropped(self, value):
        if not value:
            return "–"
        return format_html(
            "{}",
            ", ".join(f"{d.total} ({d.event_name}, {d.number})" for d in value),
        )


def season_rows(standing: season.SeasonStanding) -> list[dict]:
    return [
        {
            # Unranked rows sort after every rank.
            "rank": line.row.rank,
            "sort_rank": line.row.rank if line.row.rank is not None else 10**9,
            "name": line.name,
            "played": line.row.played,
            "counted_total": line.row.counted_total,
            "average": line.row.average,
            "dropped": line.dropped,
            "reason": line.row.reason,
            "reason_text": line.reason_text,
            "qualified": line.row.qualified,
            "player_id": line.player_id,
            "number": line.number,
        }
        for line in standing.lines
    ]
