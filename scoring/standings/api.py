"""The read-only standings JSON (``/api/events/<pk>/standings``): published series for
everyone, unconfirmed sheets for the directors alone."""

from __future__ import annotations

from django.http import Http404, JsonResponse
from django.views.decorators.http import require_safe

from common.forms import parse_int
from scoring.standings import labels, selectors
from scoring.standings.categories import page_cut
from scoring.standings.public import public_event, public_view


def _row_json(row: selectors.StandingRow, competition: str) -> dict:
    data = {
        "rank": row.rank,
        "total": row.total,
        "tie_break": {k: v for k, v in row.values.items() if k != "total"},
        "provisional": row.provisional,
        "disqualified": row.disqualified,
        "reason": None
        if row.reason is None
        else {"metric": row.reason.metric, "this": row.reason.this, "next": row.reason.next},
    }
    if competition == labels.INDIVIDUAL:
        data["player"] = {
            "id": row.player_id,
            "participant_id": row.participant_id,
            "name": row.name,
            "club": row.club,
        }
    else:
        data["group"] = {"id": row.group_id, "name": row.name, "members": row.members}
    return data


@require_safe
@public_view("api", ("competition", "series", "category"), private_params=("provisional",))
def api_standings(request, pk):
    """``GET /api/events/<id>/standings?competition=individual|pair|team&series=<n>``;
    ``category=<id>``: that category's members of the individual standing, re-ranked.

    Readers outside the event's club get published series only; ``provisional=1`` adds
    unconfirmed sheets for the directors alone (403 otherwise; ``scoring.visibility``).
    """
    event = public_event(request, pk)
    competition = request.GET.get("competition", labels.INDIVIDUAL)
    if competition not in labels.COMPETITIONS:
        return JsonResponse({"error": "unknown competition"}, status=400)
    director = selectors.is_director(request.user, event)
    insider = selectors.sees_unpublished(request.user, event)
    wants_provisional = request.GET.get("provisional") == "1"
    if wants_provisional and not director:
        return JsonResponse({"error": "provisional standings are for the director"}, status=403)
    number = request.GET.get("series")
    scope = labels.OVERALL
    if number not in (None, ""):
        number = parse_int(number)
        if number is None:
            return JsonResponse({"error": "series must be a number"}, status=400)
        scope = labels.SERIES
    else:
        number = None
    standing = selectors.event_standing(
        event,
        competition=competition,
        scope=scope,
        number=number,
        include_entered=wants_provisional,
        only_published=not insider,
    )
    if scope == labels.SERIES and number not in standing.counted_series:
        raise Http404("no such series")
    category, rows = None, standing.rows
    if request.GET.get("category") and competition == labels.INDIVIDUAL:
        cut = page_cut(event, standing, request.GET["category"])["cut"]
        if cut is None:
            raise Http404("no such category")
        category = {"id": cut.category.id, "name": cut.category.name, "kind": cut.category.kind}
        rows = cut.rows
    body = {} if category is None else {"category": category}  # only when asked for
    return JsonResponse(
        {
            **body,
            "event": {"id": event.pk, "name": event.name},
            "competition": competition,
            "series": number,
            "series_counted": standing.counted_series,
            "provisional": standing.provisional,
            # Series whose open tables have no points yet: the standing is not final.
            "incomplete_series": standing.incomplete_series,
            "chain": list(standing.chain),
            "ties": {"policy": standing.ties_policy, "text": standing.ties_policy_text},
            "lots_seed": standing.lots_seed,
            "rows": [_row_json(r, competition) for r in rows],
        },
        json_dumps_params={"ensure_ascii": False},
    )


# --------------------------------------------------------------------------- player
