"""The federation's read-only JSON for club and federation websites (issue 27, point 5):
``/api/federation/v1/rankings/``, ``…/rankings/<id>/?region=<id>`` and
``…/rankings/<id>/players/<player id>/``. Public rankings only (404 otherwise), cached per
snapshot like the public standings JSON (federation.public.cache: ETag, 304,
``Cache-Control: public, max-age=5``). Names, clubs and results only; a hidden player keeps
rank and points, without name, club, id or results."""

from __future__ import annotations

import hashlib

import orjson
from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, HttpResponse
from django.urls import reverse
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from common.forms import parse_int
from federation.public import selectors as public
from federation.public.cache import snapshot_view
from federation.rankings.public_lines import public_line, public_results

MAX_AGE = 5


_ENCODER = DjangoJSONEncoder()
_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_NON_STR_KEYS


def _json(data, status=200) -> HttpResponse:
    """JSON in UTF-8 as JsonResponse writes it; orjson, with Django's encoder for what it
    does not write itself (dates, decimals): a national list of 10,000 lines in a few ms."""
    body = orjson.dumps(data, default=_ENCODER.default, option=_OPTIONS)
    return HttpResponse(body, status=status, content_type="application/json")


def _snapshot_json(state) -> dict | None:
    if state.snapshot_id is None:
        return None
    return {"number": state.number, "computed_at": state.computed_at.isoformat()}


@require_safe
def rankings(request):
    """Every public ranking with its regions and newest snapshot; small, so its ETag is the
    body's hash."""
    data = {
        "rankings": [
            {
                "id": item["ranking"].pk,
                "name": item["ranking"].name,
                "association": {
                    "id": item["ranking"].association_id,
                    "name": item["ranking"].association.name,
                    "short_name": item["ranking"].association.short_name,
                },
                "regions": [
                    {"id": r.pk, "name": r.name, "short_name": r.short_name}
                    for r in item["regions"]
                ],
                "snapshot": None
                if not item["ranking"].snap_number
                else {
                    "number": item["ranking"].snap_number,
                    "computed_at": item["ranking"].snap_at.isoformat(),
                    "as_of": item["ranking"].snap_as_of.isoformat(),
                },
                "url": reverse("federation_api:ranking", args=[item["ranking"].pk]),
            }
            for item in public.public_rankings()
        ]
    }
    response = _json(data)
    etag = '"' + hashlib.sha256(response.content).hexdigest()[:32] + '"'
    response = get_conditional_response(request, etag=etag, response=response) or response
    response["ETag"] = etag
    patch_cache_control(response, public=True, max_age=MAX_AGE)
    return response


def _line_json(line: dict) -> dict:
    out = public_line(line)
    if out.get("reason"):
        out["reason"] = _(out["reason"])
    return out


@require_safe
@snapshot_view("api", ("region",))
def ranking(request, state):
    region_id = None
    wanted = request.GET.get("region")
    if wanted not in (None, ""):
        region_id = parse_int(wanted)
        if region_id is None:
            return _json({"error": _("region must be the number of a regional association")}, 400)
        if region_id not in {r.pk for r in public.ranking_regions(state)}:
            raise Http404("no such region")
    head = {
        "ranking": {"id": state.pk, "name": state.name},
        "association": {"id": state.association_id, "name": state.association_name},
        "region": region_id,
        "snapshot": _snapshot_json(state),
    }
    if region_id is not None:
        lines = public.region_lines(state, region_id)
        return _json(head | {"lines": [_line_json(line) for line in lines]})
    # The whole list: the lines' stored texts spliced into the answer, not parsed and
    # encoded again (10,000 of them); the same bytes as _json writes.
    body = _json(head | {"lines": []}).content
    texts = ",".join(public.public_texts(state, _)).encode()
    return HttpResponse(body[:-3] + b"[" + texts + b"]}", content_type="application/json")


@require_safe
@snapshot_view("api-player")
def player(request, state, player):
    line = public.snapshot_line(state.snapshot_id, player)
    if line is None or line.get("hidden"):
        raise Http404("no public card")
    results = public_results(line)
    for result in results:
        if result.get("reason"):
            result["reason"] = _(result["reason"])
    out = _line_json(line)
    return _json(
        {
            "ranking": {"id": state.pk, "name": state.name},
            "snapshot": _snapshot_json(state),
            "player": out,
            "results": results,
        }
    )
