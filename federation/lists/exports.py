"""The members' prints through the one exporter registry (scoring.exports.registry): the
ranking list (national or of one regional association) and a player's card, each as A4 PDF
in German, XLSX and print page (the qualification list: `federation.championships.exports`).

Their scopes are served by the federation's own pages (`federation.lists.views`), which
check the roles per association; the generic export pages never serve them. Registered by
`federation.apps.FederationConfig.ready`; the tables come from the selectors the pages use."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import ClassVar

from django.http import Http404, HttpResponse
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.http import content_disposition_header, urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.models import Player
from federation.associations.models import Association
from federation.lists.selectors import player_card, ranking_list
from federation.rankings.models import Ranking
from federation.rankings.selectors import setting_lines
from scoring.exports.registry import AppScope, Exporter, register, register_scope
from scoring.exports.rendering import ATTACHMENTS, render_export
from scoring.exports.tables import Column, ExportTable

FORMATS = ("pdf", "xlsx", "html")


def decimal_or_none(text: str) -> Decimal | None:
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


def _ranking_url(doc: RankingListDoc, slug: str = "", fmt: str = "") -> str:
    name = "federation:ranking_lines_export" if slug else "federation:ranking_lines"
    url = reverse(name, args=[doc.ranking.pk, fmt] if slug else [doc.ranking.pk])
    return url + ("?" + urlencode({"region": doc.region.pk}) if doc.region else "")


def _card_url(doc: PlayerCardDoc, slug: str = "", fmt: str = "") -> str:
    args = [doc.ranking.pk, doc.player.pk]
    if slug:
        return reverse("federation:player_card_export", args=[*args, fmt])
    return reverse("federation:player_card", args=args)


register_scope(AppScope(RankingListDoc.export_scope, gettext_lazy("ranking list"), _ranking_url))
register_scope(AppScope(PlayerCardDoc.export_scope, gettext_lazy("player card"), _card_url))


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
                "points": decimal_or_none(ln["value"]),
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
                "points": decimal_or_none(ln["value"]),
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
    template = "federation/lists/print_ranking_list.html"
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
                "points": decimal_or_none(r["points"]),
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
    template = "federation/lists/print_player_card.html"
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


def export_response(request, exporter, doc, fmt: str) -> HttpResponse:
    """A print's answer to a page's request (404 for a format the exporter lacks): shown
    inline as a print page, the PDF and workbook as their files."""
    if fmt not in exporter.formats:
        raise Http404
    nonce = getattr(request, "csp_nonce", "") if fmt == "html" else ""
    content, filename, content_type = render_export(exporter.slug, doc, fmt, csp_nonce=nonce)
    response = HttpResponse(content, content_type=content_type)
    if fmt != "html":
        response["Content-Disposition"] = content_disposition_header(fmt in ATTACHMENTS, filename)
    return response
