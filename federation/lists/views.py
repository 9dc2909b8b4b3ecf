"""The members' ranking list and a player's card, and their prints (PDF, XLSX, print page
through the one exporter registry). Thin: selectors read. 404 for what the user may not see
(federation.associations.permissions)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from django_tables2 import RequestConfig

from federation.associations.permissions import require_view
from federation.lists.exports import (
    PlayerCardDoc,
    PlayerCardExporter,
    RankingListDoc,
    RankingListExporter,
    export_response,
)
from federation.lists.selectors import UnknownRegion, player_card, ranking_list
from federation.lists.tables import RankingLinesTable
from federation.rankings.models import Ranking
from federation.rankings.snapshots import add_results

LIST_PAGE_SIZE = 100  # lines a page (the prints hold the whole list)


def _ranking(request, pk) -> Ranking:
    ranking = get_object_or_404(Ranking.objects.select_related("association"), pk=pk)
    require_view(request.user, ranking.association)
    return ranking


def _list_page(request, ranking, *, results=True, lazy=False):
    try:
        return ranking_list(
            request.user, ranking, request.GET.get("region"), results=results, lazy=lazy
        )
    except UnknownRegion as error:
        raise Http404(_("This ranking has no such regional association.")) from error


@login_required
@require_GET
def ranking_lines(request, pk):
    ranking = _ranking(request, pk)
    page = _list_page(request, ranking, results=False, lazy=True)
    table = RankingLinesTable(page.listed, ranking, regional=page.region is not None)
    RequestConfig(request, paginate={"per_page": LIST_PAGE_SIZE}).configure(table)
    # The results of the lines shown (one page, the unlisted ones): one more query.
    shown = [row.record for row in table.page.object_list] if page.listed else []
    add_results(page.snapshot, shown + page.unlisted, page.region and page.region.pk)
    championships = list(ranking.championships.order_by("name"))
    context = {"page": page, "table": table, "championships": championships}
    return render(request, "federation/lists/ranking.html", context)


@login_required
@require_GET
def ranking_lines_export(request, pk, fmt):
    ranking = _ranking(request, pk)
    page = _list_page(request, ranking)
    return export_response(request, RankingListExporter, RankingListDoc(ranking, page.region), fmt)


def _card(request, pk, player_pk):
    ranking = _ranking(request, pk)
    card = player_card(request.user, ranking, player_pk)
    if card is None:
        raise Http404(_("This player has no result in this ranking."))
    return ranking, card


@login_required
@require_GET
def player_card_page(request, pk, player_pk):
    _ranking_obj, card = _card(request, pk, player_pk)
    return render(request, "federation/lists/player_card.html", {"card": card})


@login_required
@require_GET
def player_card_export(request, pk, player_pk, fmt):
    ranking, card = _card(request, pk, player_pk)
    return export_response(request, PlayerCardExporter, PlayerCardDoc(ranking, card.player), fmt)
