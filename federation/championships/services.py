"""Championships qualified for from a ranking, their title holders and the officer's
wildcards. One transaction each, the officer's role in the ranking's association checked
here, and the history keeps who, when and why (`common.history`)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from clubs.models import Player
from common.history import delete_with_history, save_with_history
from federation.associations.permissions import require_manage
from federation.associations.services import clean_reason
from federation.championships.models import Championship, Wildcard
from federation.rankings.models import Ranking
from federation.rankings.selectors import regions_of
from rules.ranking_settings import MAX_COUNT

WILDCARD_REASON_MAX = 200


def _count(value, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_COUNT:
        raise ValidationError(
            {field: _("Enter a whole number from 0 to %(max)d.") % {"max": MAX_COUNT}}
        )
    return value


def _region_places(ranking: Ranking, region_places) -> dict[str, int]:
    """{"<region id>": places} for regions of the ranking only (a JSON object's keys)."""
    known = {str(region.pk): region for region in regions_of(ranking)}
    out = {}
    for key, places in (region_places or {}).items():
        if str(key) not in known:
            raise ValidationError(
                {
                    "region_places": _("This ranking has no regional association %(id)s.")
                    % {"id": key}
                }
            )
        if places is not None:
            out[str(key)] = _count(places, "region_places")
    return out


def _fields(ranking, name, places_per_region, region_places, reserves_per_region) -> dict:
    name = (name or "").strip()
    if not name:
        raise ValidationError({"name": _("Give the championship a name.")})
    return {
        "name": name[:200],
        "places_per_region": _count(places_per_region, "places_per_region"),
        "region_places": _region_places(ranking, region_places),
        "reserves_per_region": _count(reserves_per_region, "reserves_per_region"),
    }


@transaction.atomic
def create_championship(
    actor,
    ranking: Ranking,
    *,
    name: str,
    places_per_region: int = 4,
    region_places=None,
    reserves_per_region: int = 3,
    reason: str,
) -> Championship:
    require_manage(actor, ranking.association)
    reason = clean_reason(reason)
    fields = _fields(ranking, name, places_per_region, region_places, reserves_per_region)
    return save_with_history(Championship(ranking=ranking, **fields), actor, reason)


@transaction.atomic
def update_championship(
    actor,
    championship: Championship,
    *,
    name: str,
    places_per_region: int,
    region_places=None,
    reserves_per_region: int,
    reason: str,
) -> Championship:
    championship = (
        Championship.objects.select_for_update()
        .select_related("ranking__association")
        .get(pk=championship.pk)
    )
    require_manage(actor, championship.ranking.association)
    reason = clean_reason(reason)
    fields = _fields(
        championship.ranking, name, places_per_region, region_places, reserves_per_region
    )
    for key, value in fields.items():
        setattr(championship, key, value)
    return save_with_history(championship, actor, reason)


def players_by_number(numbers) -> list[Player]:
    """Players for pass numbers in the order given; a German message names any unknown."""
    wanted = [n.strip() for n in numbers if n and n.strip()]
    found = {p.player_number: p for p in Player.objects.filter(player_number__in=wanted)}
    missing = [n for n in wanted if n not in found]
    if missing:
        raise ValidationError(
            _("No player has the number %(numbers)s.") % {"numbers": ", ".join(missing)}
        )
    out, seen = [], set()
    for number in wanted:
        if number in seen:
            raise ValidationError(
                _("Player number %(number)s is named twice.") % {"number": number}
            )
        seen.add(number)
        out.append(found[number])
    return out


@transaction.atomic
def set_title_holders(actor, championship: Championship, players, *, reason: str):
    """The title holders (they qualify directly); the history keeps the change."""
    championship = (
        Championship.objects.select_for_update()
        .select_related("ranking__association")
        .get(pk=championship.pk)
    )
    require_manage(actor, championship.ranking.association)
    reason = clean_reason(reason)
    players = list(players)
    if len({p.pk for p in players}) != len(players):
        raise ValidationError(_("A player is named twice as title holder."))
    championship._history_user = actor
    championship._change_reason = reason
    championship.title_holders.set(players)
    # A row in the history with the reason (the m2m change alone records no reason).
    save_with_history(championship, actor, reason)
    return championship


@transaction.atomic
def add_wildcard(actor, championship: Championship, player: Player, *, reason: str) -> Wildcard:
    """A wildcard for a player; `reason` is the wildcard's own reason, shown on the list."""
    championship = (
        Championship.objects.select_for_update()
        .select_related("ranking__association")
        .get(pk=championship.pk)
    )
    require_manage(actor, championship.ranking.association)
    text = (reason or "").strip()
    if not text:
        raise ValidationError({"reason": _("A wildcard needs a reason.")})
    if len(text) > WILDCARD_REASON_MAX:
        raise ValidationError(
            {"reason": _("The reason may have at most %(max)d characters.")
             % {"max": WILDCARD_REASON_MAX}}
        )  # fmt: skip
    if Wildcard.objects.filter(championship=championship, player=player).exists():
        raise ValidationError(
            {"player": _("%(player)s already has a wildcard.") % {"player": player}}
        )
    wildcard = Wildcard(championship=championship, player=player, reason=text, granted_by=actor)
    return save_with_history(wildcard, actor, clean_reason(text[:100]))


@transaction.atomic
def remove_wildcard(actor, wildcard: Wildcard, *, reason: str) -> None:
    wildcard = Wildcard.objects.select_related("championship__ranking__association").get(
        pk=wildcard.pk
    )
    require_manage(actor, wildcard.championship.ranking.association)
    delete_with_history(wildcard, actor, clean_reason(reason))
