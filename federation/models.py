"""The federation's models, one set for the one app `federation`: each room keeps its own
models beside its services and pages, and Django finds them all here.

clubs knows nothing of this app: the affiliation points at the club, never the other way.
Code inside the app imports each room's models directly (`federation.<room>.models`); this
module is for Django and for the apps above."""

from federation.associations.models import Affiliation, Association, AssociationRole
from federation.championships.models import Championship, Wildcard
from federation.rankings.models import (
    EventVersion,
    OfficialResult,
    PublicHiding,
    Ranking,
    RankingSnapshot,
    RankingStatus,
    SnapshotLine,
)
from federation.submissions.models import PlayerMatch, Submission

__all__ = [
    "Affiliation",
    "Association",
    "AssociationRole",
    "Championship",
    "EventVersion",
    "OfficialResult",
    "PlayerMatch",
    "PublicHiding",
    "Ranking",
    "RankingSnapshot",
    "RankingStatus",
    "SnapshotLine",
    "Submission",
    "Wildcard",
]
