"""Score-sheet pages. Thin: forms read the cells, services write, selectors read.

Boards and sheets are read by members of the event's club only (an unconfirmed sheet by its
scorers and organisers, ``scoring.visibility``); every write (and every page that only
exists to write) checks the role here and again in the service.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from clubs.permissions import ORGANISER, SCORER, has_role, require_role
from common.forms import add_validation_errors
from scoring.models import Sheet
from scoring.sheets import disputes, policy, presenters, ruleset_jobs, selectors, services
from scoring.sheets import grid as sheets_grid
from scoring.sheets.forms import (
    ConfirmForm,
    RulesetForm,
    SheetActionForm,
    grid_from_typed,
    typed_from_grid,
    typed_from_post,
)
from scoring.sheets.messages import change_message, problem_dicts
from scoring.visibility import require_sheet_reader
from tournaments import seating
from tournaments.models import Event, Series


@login_required
def series_board(request, pk):
    board = selectors.series_board(pk)
    series = board.series
    require_sheet_reader(request.user, series.event, None, published=series.published)
    context = {
        "board": board,
        "series": series,
        "event": series.event,
        "counts": board.counts,
        "is_organiser": has_role(request.user, series.event.club, ORGANISER),
        # A viewer is offered only the sheets he may read (`require_sheet_reader`).
        "is_scorer": has_role(request.user, series.event.club, SCORER),
        # Offer the draw only where draw_series would accept it: before the start, no sheets.
        "can_draw": series.status in (Series.Status.PLANNED, Series.Status.SEATED)
        and all(row.status == "missing" for row in board.rows),
    }
    return render(request, "scoring/series_board.html", context)


@login_required
@require_POST
def series_draw(request, pk):
    series = get_object_or_404(Series.objects.select_related("event__club"), pk=pk)
    require_role(request.user, series.event.club, ORGANISER)
    order = selectors.running_order(series.event, before_series=series.number)
    try:
        seating.draw_series(request.user, series, seed=None, running_order=order)
    except ValidationError as error:
        for text in error.messages:
            messages.error(request, text)
    else:
        messages.success(
            request, _("The seating of series %(number)d is drawn.") % {"number": series.number}
        )
    return redirect("scoring:series_board", pk=pk)


# ----- the score sheet ---------------------------------------------------------------------


def _initial_grid(request, page, modes) -> dict:
    if modes["blind"]:
        mine = page.latest_blind(by=request.user)
        return mine.grid if mine else sheets_grid.empty_grid()
    if modes["hide_values"]:
        return sheets_grid.empty_grid()
    return page.current_grid()


def _render_sheet(
    request,
    page,
    *,
    typed=None,
    extra_problems=(),
    conflict=None,
    errors=(),
    reason="",
    status=200,
    compare=False,
):
    """The entry page. ``compare``: list the cells where the typed grid differs from the
    stored version (as after a conflict), e.g. when a confirm was refused for them."""
    modes = policy.sheet_actions(request.user, page)
    errors = list(errors)
    size = page.table_size
    ruleset = page.ruleset
    typed_kept = typed is not None  # else the grid shows what is stored, not what was sent
    if typed is None:
        typed = typed_from_grid(
            _initial_grid(request, page, modes), table_size=size, rows=page.planned_hands
        )
    grid, input_problems, check = presenters.typed_check(page, typed)
    problems = list(extra_problems) or [*input_problems, *(check.problems if check else [])]
    dispute = presenters.dispute_context(page, request.user)
    names = page.seat_names
    messages_ = problem_dicts(problems, table_number=page.table.number, seat_names=names)
    rows = presenters.sheet_rows(page, typed, grid, check, messages_, dispute)
    secret = modes["blind"] or modes["hide_values"]
    conflict_cells = []
    if (conflict is not None or compare) and not secret and size:
        conflict_cells = presenters.conflict_cells(page, sheets_grid.normalise_grid(grid, size))
    stored = None
    if not secret and size:
        stored = presenters.stored_fields(
            page.current_grid(), table_size=size, rows=max(page.planned_hands, len(typed.rows))
        )
    matches_stored = bool(
        size and page.sheet and not sheets_grid.diff_grids(page.current_grid(), grid)
    )
    history = [
        {
            "version": entry["version"],
            "changes": [change_message(c, seat_names=names) for c in entry["changes"]],
        }
        for entry in selectors.version_history(page, hide_cells=secret)
    ]
    confirmer_names, more_confirmers = ([], 0)
    if modes["entered_by_me"] and modes["entered"]:
        confirmer_names, more_confirmers = presenters.confirmers(page)
    saved = request.session.get(_SAVED_KEY, "")
    if saved.startswith(f"{page.table.pk}:"):
        request.session.pop(_SAVED_KEY)
    else:
        saved = ""
    context = {
        "page": page,
        "table": page.table,
        "series": page.series,
        "event": page.event,
        "sheet": page.sheet,
        "ruleset": ruleset,
        "needs_melded": ruleset.needs_melded,
        "seat_names": names,
        "first_dealer": typed.first_dealer,
        "rows": rows,
        "totals": check.totals if check else [],
        "ready": bool(check and check.ready and not input_problems),
        "problems": messages_,
        "first_dealer_described_by": presenters.described_by(messages_).get("first-dealer", ""),
        "errors": errors,
        # A refused save or confirmation: what was refused is summed up above the grid.
        "refused": status == 400,
        "refused_count": len(errors) + len(messages_),
        "typed_kept": typed_kept,
        "conflict": conflict,
        "dispute": dispute,
        "conflict_cells": conflict_cells,
        "stored_fields": stored,
        "matches_stored": matches_stored,
        "history": history,
        "expected_version": conflict.current_version if conflict else page.version,
        "reason": reason,
        "confirmer_names": confirmer_names,
        "more_confirmers": more_confirmers,
        "draft_key": f"romme-sheet-draft:{request.user.pk}:{page.series.pk}:{page.table.number}",
        "draft_saved": saved.partition(":")[2],
        **modes,
    }
    return render(request, "scoring/sheet_entry.html", context, status=status)


# Set after a successful save: the page then drops the browser's draft of that version.
_SAVED_KEY = "sheet_draft_saved"


def _saved(request, page, expected: int):
    request.session[_SAVED_KEY] = f"{page.table.pk}:{expected}"


@login_required
def sheet_entry(request, series_pk, number):
    page = selectors.sheet_page(series_pk, number)
    require_sheet_reader(request.user, page.event, page.status, published=page.series.published)
    if request.method != "POST":
        return _render_sheet(request, page)
    club = page.event.club
    require_role(request.user, club, SCORER)
    if not page.table_size:
        return _render_sheet(
            request, page, errors=[_("Nobody is seated at this table yet.")], status=400
        )
    form = SheetActionForm(request.POST)
    typed = typed_from_post(request.POST, table_size=page.table_size, rows=page.planned_hands)
    reason = request.POST.get("reason", "")
    if not form.is_valid():
        errors = [e for errs in form.errors.values() for e in errs]
        return _render_sheet(request, page, typed=typed, errors=errors, reason=reason, status=400)
    action = form.cleaned_data["action"] or "draft"
    expected = form.cleaned_data["expected_version"]
    grid, input_problems = grid_from_typed(typed, table_size=page.table_size)
    if input_problems:
        return _render_sheet(
            request, page, typed=typed, extra_problems=input_problems, reason=reason, status=400
        )
    try:
        if action == "blind":
            result = services.blind_confirm(
                request.user, page.table, grid, expected_version=expected
            )
        elif action == "resolve":
            result = disputes.resolve_dispute(
                request.user, page.table, grid, expected_version=expected, reason=reason
            )
        else:
            result = services.save_sheet(
                request.user,
                page.table,
                grid,
                expected_version=expected,
                submit=action == "submit",
                reason=form.cleaned_data["reason"],
            )
    except services.SheetConflict as conflict:
        page = selectors.sheet_page(series_pk, number)
        return _render_sheet(
            request, page, typed=typed, conflict=conflict, reason=reason, status=409
        )
    except services.SheetInvalid as invalid:
        return _render_sheet(
            request, page, typed=typed, extra_problems=invalid.problems, reason=reason, status=400
        )
    except ValidationError as error:
        return _render_sheet(
            request, page, typed=typed, errors=error.messages, reason=reason, status=400
        )
    _saved(request, page, expected)
    if action == "blind":
        if result.confirmed:
            messages.success(
                request, _("Your entry agrees with the first one: the sheet is confirmed.")
            )
        else:
            # No count, no cells: the second entry is final and must not be tuned to match.
            messages.warning(
                request,
                _(
                    "Your entry differs from the first one. Both are stored and the sheet is "
                    "now disputed: a director or the scorer who entered it first decides "
                    "against the paper sheet. It counts nowhere until then."
                ),
            )
    elif action == "resolve":
        messages.success(
            request,
            _("The dispute is resolved: the sheet is confirmed as shown (version %(version)d).")
            % {"version": result.number},
        )
    elif result.sheet.status == Sheet.Status.DRAFT:
        count = len(result.check.problems)
        text = _("Draft saved as version %(version)d: %(hands)d complete hands.") % {
            "version": result.version.number,
            "hands": result.stored_hands,
        }
        if count:
            text += " " + _("%(count)d problems remain before it can be submitted.") % {
                "count": count
            }
        messages.success(request, text)
    else:
        text = _("Sheet saved as version %(version)d (%(kind)s).") % {
            "version": result.version.number,
            "kind": result.version.get_kind_display(),
        }
        if result.sheet.status == Sheet.Status.ENTERED:
            text += " " + _("A second person must now confirm it.")
        messages.success(request, text)
    return redirect("scoring:sheet_entry", series_pk=series_pk, number=number)


@login_required
@require_POST
def sheet_check(request, series_pk, number):
    """Check the grid typed so far with the rules engine: problems, totals, card readings."""
    page = selectors.sheet_page(series_pk, number)
    require_role(request.user, page.event.club, SCORER)
    size = page.table_size
    if not size:
        return JsonResponse({"problems": [], "totals": [], "running": [], "readings": []})
    typed = typed_from_post(request.POST, table_size=size, rows=page.planned_hands)
    return JsonResponse(presenters.check_json(page, *presenters.typed_check(page, typed)))


@login_required
@require_POST
def sheet_confirm(request, series_pk, number):
    """Confirm exactly the grid the page shows, from the version it was loaded with."""
    page = selectors.sheet_page(series_pk, number)
    require_role(request.user, page.event.club, SCORER)
    form = ConfirmForm(request.POST)
    if not form.is_valid():
        return _render_sheet(request, page, errors=[_("The page is out of date.")], status=400)
    size = page.table_size
    typed = typed_from_post(request.POST, table_size=size, rows=page.planned_hands)
    grid, input_problems = grid_from_typed(typed, table_size=size)
    if input_problems:
        return _render_sheet(request, page, typed=typed, extra_problems=input_problems, status=400)
    try:
        services.confirm_sheet(
            request.user, page.table, grid, expected_version=form.cleaned_data["expected_version"]
        )
    except services.SheetConflict as conflict:
        page = selectors.sheet_page(series_pk, number)
        return _render_sheet(request, page, typed=typed, conflict=conflict, status=409)
    except ValidationError as error:
        modes = policy.sheet_actions(request.user, page)
        if modes["blind"] or modes["hide_values"]:
            # Blind confirmation was switched on since the page was opened: the grid sent is
            # the first entry, which the blind page must not show (nor send back as a match).
            return _render_sheet(request, page, errors=error.messages, status=400)
        return _render_sheet(
            request, page, typed=typed, errors=error.messages, status=400, compare=True
        )
    _saved(request, page, form.cleaned_data["expected_version"])
    messages.success(request, _("The sheet is confirmed."))
    return redirect("scoring:sheet_entry", series_pk=series_pk, number=number)


# ----- rule set ----------------------------------------------------------------------------


def _change_status(change) -> dict:
    """A rule-set change as exports.js polls it (the same shape as an export job)."""
    done = change.state == change.State.DONE
    if done:
        counts = change.result
        message = _(
            "The rule set is changed: %(changed)d of %(seats)d results on %(sheets)d sheets "
            "were recomputed."
        ) % {**counts, "seats": counts["hand_seats"]}
        if counts["problems"] or counts["unscorable"]:
            message += (
                " "
                + _(
                    "Under the new rule set the stored hands have %(problems)d problems; "
                    "%(unscorable)d hands could not be scored and keep their points."
                )
                % counts
            )
    elif change.state == change.State.FAILED:
        message = _("The rule set was not changed: %(error)s") % {"error": change.error}
    elif change.state == change.State.QUEUED:
        message = _("Waiting for a free background worker …")
    else:
        message = _("The results are being recomputed …")
    return {
        "state": change.state,
        "percent": 100 if done else 0,
        "message": message,
        "download_url": None,
    }


@login_required
def event_ruleset(request, pk):
    event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
    require_role(request.user, event.club, ORGANISER)
    form = RulesetForm(request.POST or None, initial=RulesetForm.initial_for(event))
    if request.method == "POST" and form.is_valid():
        try:
            ruleset_jobs.queue_ruleset_change(
                request.user,
                event,
                form.cleaned_data["slug"],
                form.overrides(event),
                form.cleaned_data["reason"],
            )
        except ValidationError as error:
            add_validation_errors(form, error)
        else:
            return redirect("scoring:event_ruleset", pk=pk)
    history = (
        event.history.exclude(history_change_reason__isnull=True)
        .exclude(history_change_reason="")
        .select_related("history_user")
        .order_by("-history_date")[:20]
    )
    change = ruleset_jobs.latest_change(event)
    context = {
        "event": event,
        "form": form,
        "ruleset": event.ruleset,
        "history": history,
        "change": change,
        "change_status": _change_status(change) if change else None,
        "change_pending": change is not None and change.state in ruleset_jobs.PENDING,
    }
    return render(request, "scoring/event_ruleset.html", context)


@login_required
@require_GET
def ruleset_change_status(request, pk, change_id):
    """JSON for the rule-set page's progress: organisers of the event's club only."""
    event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
    require_role(request.user, event.club, ORGANISER)
    change = ruleset_jobs.latest_change(event)
    if change is None or change.pk != change_id:
        raise Http404
    response = JsonResponse(_change_status(change))
    response["Cache-Control"] = "no-store"
    return response
