"""The federation's prints through the one exporter registry (scoring.exports.registry):
the ranking list (national or of one regional association), a player's card and a
championship's qualification list, each as A4 PDF in German, XLSX and print page.

Their scopes are served by the federation's own pages (`federation.list_views`), which
check the roles per association; the generic export pages never serve them. Registered by
`federation.apps.FederationConfig.ready`; the tables come from the selectors the pages use."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import ClassVar

from django.urls import reverse
from django.utils import formats, timezone
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.models import Player
from scoring.exports.registry import AppScope, Exporter, register, register_scope
from scoring.exports.tables import Column, ExportTable

from .championship_selectors import qualification_page
from .lists import player_card, ranking_list
from .models import Association, Championship, Ranking
from .ranking_selectors import setting_lines

FORMATS = ("pdf", "xlsx", "html")


def _number(text: str) -> Decimal | None:
    return Decimal(text) if text not in (None, "") else None


@dataclass(frozen=True)
class RankingListDoc:
    """The ranking list of `ranking`, of all players or of one region's."""

    ranking: Ranking
    region: Association | None = None
    export_scope: ClassVar[str] = "federation-ranking"

    @property
    def pk(self) -> int:
        return self.ranking.pk

    def __str__(self) -> str:
        return f"{self.ranking.name} – {self.region.name}" if self.region else self.ranking.name


@dataclass(frozen=True)
class PlayerCardDoc:
    ranking: Ranking
    player: Player
    export_scope: ClassVar[str] = "federation-player"

    @property
    def pk(self) -> int:
        return self.player.pk

    def __str__(self) -> str:
        return f"{self.player.given_name} {self.player.family_name}"


@dataclass(frozen=True)
class QualificationDoc:
    championship: Championship
    export_scope: ClassVar[str] = "federation-qualification"

    @property
    def pk(self) -> int:
        return self.championship.pk

    def __str__(self) -> str:
        return self.championship.name


def _ranking_url(doc: RankingListDoc, slug: str = "", fmt: str = "") -> str:
    name = "federation:ranking_lines_export" if slug else "federation:ranking_lines"
    url = reverse(name, args=[doc.ranking.pk, fmt] if slug else [doc.ranking.pk])
    return url + ("?" + urlencode({"region": doc.region.pk}) if doc.region else "")


def _card_url(doc: PlayerCardDoc, slug: str = "", fmt: str = "") -> str:
    args = [doc.ranking.pk, doc.player.pk]
    if slug:
        return reverse("federation:player_card_export", args=[*args, fmt])
    return reverse("federation:player_card", args=args)


def _qualification_url(doc: QualificationDoc, slug: str = "", fmt: str = "") -> str:
    if slug:
        return reverse("federation:championship_export", args=[doc.championship.pk, fmt])
    return reverse("federation:championship_detail", args=[doc.championship.pk])


register_scope(AppScope(RankingListDoc.export_scope, gettext_lazy("ranking list"), _ranking_url))
register_scope(AppScope(PlayerCardDoc.export_scope, gettext_lazy("player card"), _card_url))
register_scope(
    AppScope(QualificationDoc.export_scope, gettext_lazy("qualification list"), _qualification_url)
)


def snapshot_facts(ranking: Ranking, snapshot) -> list[str]:
    facts = [ranking.association.name]
    if snapshot is not None:
        facts.append(
            _("as of %(date)s") % {"date": formats.date_format(snapshot.as_of, "SHORT_DATE_FORMAT")}
        )
        facts.append(
            _("computed on %(when)s (version %(number)s)")
            % {
                "when": formats.date_format(
                    timezone.localtime(snapshot.computed_at), "SHORT_DATETIME_FORMAT"
                ),
                "number": snapshot.number,
            }
        )
    return facts


def ranking_tables(page) -> list[ExportTable]:
    listed = ExportTable(
        _("Ranking list"),
        [
            Column("rank", _("Rank"), "int", width=6),
            Column("name", _("Name"), width=28),
            Column("club", _("Club"), width=14),
            Column("events", _("Events counted"), "int", width=9),
            Column("points", _("Points"), "decimal", width=10),
            Column("results", _("Results (dropped in brackets)"), width=34),
            Column("note", _("Note"), width=14),
        ],
        [
            {
                "rank": ln["rank"],
                "name": ln["name"],
                "club": ln["club"],
                "events": ln["events_counted"],
                "points": _number(ln["value"]),
                "results": ln["results_text"],
                "note": _("not public") if ln["hidden"] else "",
            }
            for ln in page.listed
        ],
        sheet_name=str(_("Ranking list")),
    )
    unlisted = ExportTable(
        _("Not listed"),
        [
            Column("name", _("Name"), width=28),
            Column("club", _("Club"), width=14),
            Column("events", _("Events"), "int", width=9),
            Column("points", _("Points"), "decimal", width=10),
            Column("reason", _("Why not listed"), width=40),
        ],
        [
            {
                "name": ln["name"] + (f" ({_('not public')})" if ln["hidden"] else ""),
                "club": ln["club"],
                "events": ln["events_counted"] + ln["dropped"],
                "points": _number(ln["value"]),
                "reason": ln["reason_text"],
            }
            for ln in page.unlisted
        ],
        sheet_name=str(_("Not listed")),
    )
    return [listed, unlisted]


@register
class RankingListExporter(Exporter):
    slug = "federation-ranking-list"
    name = gettext_lazy("Ranking list")
    scope = RankingListDoc.export_scope
    description = gettext_lazy(
        "Rank, name, club, events counted, points and the results (dropped ones in brackets); "
        "the players not listed below, with the reason."
    )
    template = "federation/print_ranking_list.html"
    formats = FORMATS

    def title(self, doc):
        return _("Ranking list") + f" – {doc}"

    def header_text(self, doc):
        return doc.ranking.association.name

    def label(self, doc):
        return str(doc)

    def tables(self, doc) -> list[ExportTable]:
        return ranking_tables(
            ranking_list(None, doc.ranking, doc.region.pk if doc.region else None)
        )

    def context(self, doc, *, base_url: str = ""):
        page = ranking_list(None, doc.ranking, doc.region.pk if doc.region else None)
        return {
            "page": page,
            "facts": snapshot_facts(doc.ranking, page.snapshot),
            "settings": setting_lines(doc.ranking.settings),
        }

    def expected_pages(self, doc) -> int:
        return 1


def card_tables(card) -> list[ExportTable]:
    results = card.line["results"] if card.line else []
    in_list = ExportTable(
        _("Results in this ranking"),
        [
            Column("date", _("Date"), "date", width=11),
            Column("event", _("Event"), width=32),
            Column("place", _("Place"), "int", width=7),
            Column("field", _("Players"), "int", width=8),
            Column("points", _("Points"), "decimal", width=10),
            Column("status", _("Counted"), width=30),
        ],
        [
            {
                "date": r["day"],
                "event": r["event_name"],
                "place": r["place"],
                "field": r["field"],
                "points": _number(r["points"]),
                "status": _("counted") if r["counted"] else r["reason_text"],
            }
            for r in results
        ],
        sheet_name=str(_("Ranking")),
    )
    official = ExportTable(
        _("All official results"),
        [
            Column("date", _("Date"), "date", width=11),
            Column("event", _("Event"), width=30),
            Column("club", _("Club"), width=12),
            Column("ranking", _("Ranking"), width=22),
            Column("place", _("Place"), "int", width=7),
            Column("field", _("Players"), "int", width=8),
        ],
        [
            {
                "date": o.date,
                "event": o.event_name,
                "club": o.club,
                "ranking": o.ranking,
                "place": o.place,
                "field": o.field,
            }
            for o in card.official
        ],
        sheet_name=str(_("Official results")),
    )
    return [in_list, official]


@register
class PlayerCardExporter(Exporter):
    slug = "federation-player-card"
    name = gettext_lazy("Player card")
    scope = PlayerCardDoc.export_scope
    description = gettext_lazy("A player's results in the ranking and all official results.")
    template = "federation/print_player_card.html"
    formats = FORMATS

    def title(self, doc):
        return _("Player card") + f" – {doc}"

    def header_text(self, doc):
        return doc.ranking.name

    def _card(self, doc):
        return player_card(None, doc.ranking, doc.player.pk)

    def tables(self, doc) -> list[ExportTable]:
        return card_tables(self._card(doc))

    def context(self, doc, *, base_url: str = ""):
        card = self._card(doc)
        return {"card": card, "facts": snapshot_facts(doc.ranking, card.snapshot if card else None)}

    def expected_pages(self, doc) -> int:
        return 1


def _entry_row(way, region, entry) -> dict:
    return {
        "way": way, "region": region, "rank": entry.rank, "name": entry.name,
        "club": entry.club, "points": _number(entry.value), "note": entry.note,
    }  # fmt: skip


def qualification_tables(page) -> list[ExportTable]:
    columns = [
        Column("way", _("Qualified as"), width=16),
        Column("region", _("Regional association"), width=22),
        Column("rank", _("Rank"), "int", width=6),
        Column("name", _("Name"), width=26),
        Column("club", _("Club"), width=12),
        Column("points", _("Points"), "decimal", width=10),
        Column("note", _("Note"), width=30),
    ]
    rows = [_entry_row(_("title holder"), "", e) for e in page.titles]
    for block in page.blocks:
        for e in block.qualified:
            note = _("shares the rank at the cut line") if e.tied else ""
            rows.append(_entry_row(_("place"), block.region.name, e) | {"note": note})
    rows += [_entry_row(_("wildcard"), "", e) for e in page.wildcards]
    reserve_columns = [
        Column("region", _("Regional association"), width=22),
        Column("position", _("Reserve"), "int", width=8),
        Column("rank", _("Rank"), "int", width=6),
        Column("name", _("Name"), width=26),
        Column("club", _("Club"), width=12),
        Column("points", _("Points"), "decimal", width=10),
    ]
    reserves = [
        {"region": b.region.name, "position": i, "rank": e.rank, "name": e.name, "club": e.club,
         "points": _number(e.value)}
        for b in page.blocks for i, e in enumerate(b.reserves, 1)
    ]  # fmt: skip
    notes = [Column("text", _("Explanation"), width=100)]
    return [
        ExportTable(_("Qualified"), columns, rows, sheet_name=str(_("Qualified"))),
        ExportTable(
            _("Reserves"),
            reserve_columns,
            reserves,
            sheet_name=str(_("Reserves")),
            group_by="region",
        ),
        ExportTable(_("Explanation"), notes, [{"text": t} for t in page.explanations]),
    ]


@register
class QualificationExporter(Exporter):
    slug = "federation-qualification"
    name = gettext_lazy("Qualification list")
    scope = QualificationDoc.export_scope
    description = gettext_lazy(
        "Title holders, the qualified players of each regional association with the cut "
        "line, wildcards and the reserves in order."
    )
    template = "federation/print_qualification.html"
    formats = FORMATS

    def title(self, doc):
        return _("Qualification list") + f" – {doc}"

    def header_text(self, doc):
        return doc.championship.ranking.association.name

    def tables(self, doc) -> list[ExportTable]:
        return qualification_tables(qualification_page(None, doc.championship))

    def context(self, doc, *, base_url: str = ""):
        page = qualification_page(None, doc.championship)
        ranking = doc.championship.ranking
        return {"q": page, "facts": [ranking.name, *snapshot_facts(ranking, page.snapshot)[1:]]}

    def expected_pages(self, doc) -> int:
        return 1
