"""Rankings of an association: an officer creates and edits them (name, settings, date,
public). One transaction each, the officer's role checked here, the history keeps who,
when and why; a change asks for the list to be computed again once committed."""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from common.history import save_with_history
from federation.associations.models import Association
from federation.associations.permissions import require_manage
from federation.associations.services import clean_reason
from federation.rankings import compute
from federation.rankings.models import Ranking
from rules.ranking import RankingError, RankingSettings


def checked_settings(raw) -> dict:
    """Stored settings after the rules' own checks; their message in German otherwise."""
    try:
        settings = raw if isinstance(raw, RankingSettings) else RankingSettings.from_json(raw)
    except RankingError as error:
        raise ValidationError({"settings": error.message(_)}) from error
    return settings.as_json()


def _unique_name(association, name: str, exclude=None) -> str:
    name = (name or "").strip()
    if not name:
        raise ValidationError({"name": _("Give the ranking a name.")})
    taken = Ranking.objects.filter(association=association, name=name)
    if exclude is not None:
        taken = taken.exclude(pk=exclude)
    if taken.exists():
        raise ValidationError({"name": _("This association already has a ranking of this name.")})
    return name


@transaction.atomic
def create_ranking(
    actor,
    association: Association,
    *,
    name: str,
    settings,
    as_of: dt.date | None = None,
    public: bool = True,
    reason: str,
) -> Ranking:
    require_manage(actor, association)
    reason = clean_reason(reason)
    ranking = Ranking(
        association=association,
        name=_unique_name(association, name),
        settings=checked_settings(settings),
        as_of=as_of,
        public=public,
    )
    save_with_history(ranking, actor, reason)
    compute.schedule_recompute(ranking.pk, "created")
    return ranking


@transaction.atomic
def update_ranking(
    actor,
    ranking: Ranking,
    *,
    name: str,
    settings,
    as_of: dt.date | None,
    public: bool,
    reason: str,
) -> Ranking:
    ranking = Ranking.objects.select_for_update().select_related("association").get(pk=ranking.pk)
    require_manage(actor, ranking.association)
    reason = clean_reason(reason)
    ranking.name = _unique_name(ranking.association, name, exclude=ranking.pk)
    ranking.settings = checked_settings(settings)
    ranking.as_of = as_of
    ranking.public = public
    save_with_history(ranking, actor, reason)
    compute.schedule_recompute(ranking.pk, "settings changed")
    return ranking


@transaction.atomic
def ask_recompute(actor, ranking: Ranking) -> None:
    """The officer's button: the list computed again (by the worker)."""
    require_manage(actor, ranking.association)
    compute.schedule_recompute(ranking.pk, "asked by an officer")
