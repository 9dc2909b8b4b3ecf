"""The worker's part of a submission (issue 27, point 4), and the archive upload's way in.

The request (`federation.submissions.api`, or the import page's "as a submission to the federation")
checks what is cheap, stores the arrival as "received" (`submissions.store`) and enqueues
`read_submission` on the default queue; the status URL shows the state meanwhile. The
worker reads the archive: the archive limits of `common.limits` (the request parsed it
with the number limits only: the file's full limits take 1.5 s for a 15 MB archive), the
archive's own checks (`checks.check_archive`, seconds, outside any transaction and
lock), then matching and taking in (`submissions.take`, one transaction). A refusal on
the way is kept on the submission with its German message (`submissions.refuse`), and
nothing of the event is changed. An arrival already replaced by a later one of the same
event is not read at all.
"""

from __future__ import annotations

import hashlib
import logging

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_tasks import task

from clubs.models import Club
from clubs.permissions import ORGANISER, clubs_with_role
from common import limits
from federation.associations.models import Affiliation
from federation.associations.permissions import OFFICER, associations_for
from federation.submissions import checks
from federation.submissions import services as submissions
from federation.submissions.club_tokens import may_manage_tokens
from federation.submissions.models import Submission
from scoring.archive.handoff import Handoff
from scoring.archive.validate import ArchiveError

log = logging.getLogger(__name__)

FORBIDDEN = "forbidden"  # as scoring.archive.jobs.FORBIDDEN: the page answers 403
CLUB_PATH = "$.event.club.short_name"


def archive_refusal(error: ArchiveError) -> str:
    return _("The archive cannot be taken in – at %(path)s: %(message)s") % {
        "path": error.path,
        "message": error.message,
    }


def check_limits(data) -> None:
    """The archive limits `common.limits.load_json` applies to a file (depth, list length,
    text length, control characters), on the parsed document: 0.2 s for 400 players
    instead of 1.5 s for writing and reading it again. Raises LimitExceeded."""
    max_depth, max_items = limits.limit("archive_depth"), limits.limit("archive_array_items")
    max_chars = limits.limit("archive_string_chars")
    stack = [(data, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if len(item) > max_chars:
                raise limits.LimitExceeded(
                    _("A text is longer than %(max)d characters.") % {"max": max_chars},
                    "archive_string_chars",
                )
            limits.check_text(item)
            continue
        if not isinstance(item, dict | list):
            continue
        if depth > max_depth:
            raise limits.LimitExceeded(
                _("The data are nested deeper than %(max)d levels.") % {"max": max_depth},
                "archive_depth",
            )
        if isinstance(item, dict):
            for key, value in item.items():
                stack.append((key, depth))
                stack.append((value, depth + 1))
        else:
            if len(item) > max_items:
                raise limits.LimitExceeded(
                    _("A list holds more than %(max)d entries.") % {"max": max_items},
                    "archive_array_items",
                )
            stack.extend((value, depth + 1) for value in item)


def enqueue(submission: Submission) -> None:
    """Ask the worker to read the stored arrival (called once it is committed: the
    database backend's task row shares its transaction)."""
    read_submission.enqueue(submission_id=submission.pk)


@task()
def read_submission(submission_id: int) -> dict:
    row = process(submission_id)
    return {"state": row.state if row is not None else "gone"}


def process(pk: int) -> Submission | None:
    """Read one arrival: checks, matching, taking in; a refusal is kept on the row, in the
    installation's language (German), as the endpoint answers."""
    with translation.override(settings.LANGUAGE_CODE):
        return _process(pk)


def _process(pk: int) -> Submission | None:
    if submissions.skip_replaced(pk):
        return Submission.objects.defer("data").filter(pk=pk).first()
    row = Submission.objects.select_related("club").filter(pk=pk).first()
    try:
        if row.source != Submission.Source.UPLOAD:  # the import page read it within them
            check_limits(row.data)
        plans = checks.check_archive(row.data, row.club)
        return submissions.take(pk, plans, row.data)
    except ArchiveError as error:
        return submissions.refuse(pk, archive_refusal(error))
    except limits.LimitExceeded as error:
        return submissions.refuse(pk, str(error))
    except PermissionDenied as error:
        return submissions.refuse(pk, str(error))
    except ValidationError as error:
        return submissions.refuse(pk, "; ".join(error.messages))
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
        # Content the checks did not expect: refused like bad content, nothing kept.
        log.warning("federation: submission %s refused: %r", pk, error, exc_info=True)
        return submissions.refuse(pk, _("The archive could not be read."))
    except Exception as error:
        submissions.refuse(
            pk,
            _(
                "The submission stopped in the federation's background worker (%(error)s); "
                "nothing was taken in. Send it again or tell the federation."
            )
            % {"error": type(error).__name__},
        )
        raise  # the task result keeps the traceback for the operator


# ----- the archive upload: "as a submission to the federation" -------------------------------


def upload_offered(user) -> bool:
    """The import page offers the choice to superusers, organisers of a club that belongs
    to a regional association, and ranking officers."""
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    clubs = clubs_with_role(user, ORGANISER)
    if Affiliation.objects.filter(club__in=clubs).exists():
        return True
    return associations_for(user, OFFICER).exists()


def upload_origin(club: Club, data: dict) -> tuple[str, int]:
    """An uploaded archive names no installation: the club stands for it, and the event's
    name and date for its id there, so uploading the same event again replaces it."""
    event = data.get("event") if isinstance(data.get("event"), dict) else {}
    key = f"{event.get('name')}\n{event.get('start_date')}".encode()
    return f"upload-{club.pk}", int.from_bytes(hashlib.sha256(key).digest()[:7], "big") + 1


HANDOFF = Handoff(
    label=gettext_lazy("as a submission to the federation"),
    help_text=gettext_lazy(
        "Instead of a plain import: the event goes to its club's regional association, its "
        "players are matched by the ranking officer, and a ranking status of the event gets "
        "a version for review. Uploading the same event again replaces it. The new name "
        "and “check only” do not apply."
    ),
    offered=upload_offered,
    take=lambda user, data: submit_upload(user, data),
)


def _club_short_name(data: dict) -> str | None:
    event = data.get("event")
    club = event.get("club") if isinstance(event, dict) else None
    short = club.get("short_name") if isinstance(club, dict) else None
    return short if isinstance(short, str) and short else None


def submit_upload(user, data: dict) -> str:
    """Store an uploaded archive (limits and outline checked by the import page) as a
    submission of its club and queue its reading; returns the submission's page. Raises
    ArchiveError (code FORBIDDEN: a club the user may not submit for), nothing stored."""
    short = _club_short_name(data)
    club = Club.objects.select_related("affiliation").filter(short_name=short or "").first()
    if club is None:
        raise ArchiveError(
            CLUB_PATH,
            _("there is no club with the short name %(club)s here") % {"club": repr(short)},
            code=FORBIDDEN,
        )
    if not may_manage_tokens(user, club):
        raise ArchiveError(
            CLUB_PATH,
            _(
                "only the organisers of the club “%(club)s” and the ranking officer of its "
                "region submit its events"
            )
            % {"club": club.name},
            code=FORBIDDEN,
        )
    if getattr(club, "affiliation", None) is None:
        raise ArchiveError(
            CLUB_PATH,
            _(
                "the club “%(club)s” belongs to no regional association: there is nobody to "
                "submit its event to (import it without this choice)"
            )
            % {"club": club.name},
        )
    origin, origin_event = upload_origin(club, data)
    try:
        checks.check_sender(None, club, data, origin=origin, origin_event=origin_event)
    except PermissionDenied as error:
        raise ArchiveError(CLUB_PATH, str(error), code=FORBIDDEN) from None
    submission = submissions.store(
        None,
        club,
        data,
        origin=origin,
        origin_event=origin_event,
        source=Submission.Source.UPLOAD,
        actor=user,
    )
    enqueue(submission)
    return reverse("federation_submit:submission", args=[submission.pk])
