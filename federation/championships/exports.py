"""The qualification list's print through the one exporter registry
(scoring.exports.registry): title holders, each region's qualified players with the cut line,
wildcards, reserves and the explanation, as A4 PDF in German, XLSX and print page.

Its scope is served by the championship's own page (`federation.championships.views`), which
checks the roles per association; the generic export pages never serve it. Registered by
`federation.apps.FederationConfig.ready`, after the ranking list and the player card."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from federation.championships.models import Championship
from federation.championships.selectors import qualification_page
from federation.lists.exports import FORMATS, decimal_or_none, snapshot_facts
from scoring.exports.registry import AppScope, Exporter, register, register_scope
from scoring.exports.tables import Column, ExportTable


@dataclass(frozen=True)
class QualificationDoc:
    championship: Championship
    export_scope: ClassVar[str] = "federation-qualification"

    @property
    def pk(self) -> int:
        return self.championship.pk

    def __str__(self) -> str:
        return self.championship.name


def _qualification_url(doc: QualificationDoc, slug: str = "", fmt: str = "") -> str:
    if slug:
        return reverse("federation:championship_export", args=[doc.championship.pk, fmt])
    return reverse("federation:championship_detail", args=[doc.championship.pk])


register_scope(
    AppScope(QualificationDoc.export_scope, gettext_lazy("qualification list"), _qualification_url)
)


def _entry_row(way, region, entry) -> dict:
    return {
        "way": way, "region": region, "rank": entry.rank, "name": entry.name,
        "club": entry.club, "points": decimal_or_none(entry.value), "note": entry.note,
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
         "points": decimal_or_none(e.value)}
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
    template = "federation/championships/print_qualification.html"
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
