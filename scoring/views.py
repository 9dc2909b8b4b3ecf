"""Score-sheet pages. Thin: forms read the cells, services write, selectors read.

Boards and sheets are read by members of the event's club only (an unconfirmed sheet by its
scorers and organisers, ``scoring.visibility``); every write (and every page that only
exists to write) checks the role here and again in the service.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.permissions import ORGANISER, SCORER, has_role, require_role
from romme.forms import add_validation_errors
from tournaments.models import Event, Series

from . import disputes, selectors, services, sheet_context
from .forms import (
    ConfirmForm,
    RulesetForm,
    SheetActionForm,
    grid_from_typed,
    typed_from_grid,
    typed_from_post,
)
from .messages import change_message, problem_dicts
from .models import Sheet
from .visibility import require_sheet_reader

# ----- series board ------------------------------------------------------------------------


@login_required
def series_board(request, pk):
    board = selectors.series_board(pk)
    series = board.series
    require_sheet_reader(request.user, series.event, None)
    context = {
        "board": board,
        "series": series,
        "event": series.event,
        "counts": board.counts,
        "is_organiser": has_role(request.user, series.event.club, ORGANISER),
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
    try:
        from tournaments.services import draw_series
    except ImportError:
        messages.error(request, _("The seating draw is not available yet."))
        return redirect("scoring:series_board", pk=pk)
    order = selectors.running_order(series.event, before_series=series.number)
    try:
        draw_series(request.user, series, seed=None, running_order=order)
    except ValidationError as error:
        for text in error.messages:
            messages.error(request, text)
    else:
        messages.success(
            request, _("The seating of series %(number)d is drawn.") % {"number": series.number}
        )
    return redirect("scoring:series_board", pk=pk)


# ----- the score sheet ---------------------------------------------------------------------


def _started(page) -> bool:
    return page.series.status in (Series.Status.IN_PLAY, Series.Status.COMPLETE)


def _modes(request, page) -> dict:
    """What this user may do with this sheet now."""
    user = request.user
    club = page.event.club
    is_scorer = has_role(user, club, SCORER)
    is_organiser = has_role(user, club, ORGANISER)
    status = page.status
    sheet = page.sheet
    started = _started(page)
    entered_by_me = sheet is not None and sheet.entered_by_id == user.pk
    dispute = sheet_context.dispute_context(page, user)
    resolve = bool(dispute and dispute["may_resolve"])
    blind = (
        is_scorer
        and status == Sheet.Status.ENTERED
        and page.event.blind_confirmation
        and not entered_by_me
    )
    if status == Sheet.Status.DISPUTED:
        can_edit = resolve
    elif status == Sheet.Status.CONFIRMED:
        can_edit = is_organiser
    else:
        can_edit = is_scorer
    return {
        "is_scorer": is_scorer,
        "is_organiser": is_organiser,
        "started": started,
        "blind": blind,
        "dispute": dispute,
        "resolve": resolve,
        # A disputed sheet's entries are shown only to those who may resolve it.
        "hide_values": status == Sheet.Status.DISPUTED and not resolve,
        "can_edit": can_edit and page.table_size > 0 and started,
        "correction": status == Sheet.Status.CONFIRMED,
        "entered": status == Sheet.Status.ENTERED,
        "disputed": status == Sheet.Status.DISPUTED,
        "entered_by_me": entered_by_me,
        "can_confirm": is_scorer
        and started
        and status == Sheet.Status.ENTERED
        and not page.event.blind_confirmation
        and not entered_by_me,
    }


def _initial_grid(request, page, modes) -> dict:
    if modes["blind"]:
        mine = page.latest_blind(by=request.user)
        return mine.grid if mine else selectors.empty_grid()
    if modes["hide_values"]:
        return selectors.empty_grid()
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
    modes = _modes(request, page)
    size = page.table_size
    ruleset = page.ruleset
    if typed is None:
        typed = typed_from_grid(
            _initial_grid(request, page, modes), table_size=size, rows=page.planned_hands
        )
    grid, input_problems = grid_from_typed(typed, table_size=size) if size else ({}, [])
    check = None
    if size:
        check = selectors.check_grid(
            selectors.normalise_grid(grid, size),
            ruleset=ruleset,
            table_size=size,
            planned_rounds=page.series.planned_rounds,
        )
    problems = list(extra_problems) or [*input_problems, *(check.problems if check else [])]

    # Cells where the two entries of a disputed sheet differ: the resolver sees both.
    dispute = modes["dispute"]
    differs = {}
    for cell in dispute["cells"] if dispute else []:
        key = (cell["hand"], cell["seat"] if cell["field"] != "hand_romme" else "romme")
        differs[key] = cell
    problem_cells = {(p.hand, p.seat) for p in problems}
    names = page.seat_names
    rows = []
    for number, row in enumerate(typed.rows, start=1):
        data = grid["hands"][number - 1]
        running = None
        if check and number - 1 < len(check.running):
            running = check.running[number - 1]
        cells = []
        for index in range(size):
            cells.append(
                {
                    "seat": index + 1,
                    "name": names[index],
                    "text": row.cells[index],
                    "melded": row.melded[index],
                    "reading": check.readings.get((number, index), "") if check else "",
                    "running": "" if running is None else running[index],
                    "differs": differs.get((number, index)),
                    "problem": (number, index) in problem_cells,
                    "winner": data["winner"] == index,
                }
            )
        rows.append(
            {
                "number": number,
                "dealer": names[data["dealer"]] if size else "",
                "dealer_index": data["dealer"],
                "hand_romme": row.hand_romme,
                "romme_differs": differs.get((number, "romme")),
                "problem": (number, None) in problem_cells,
                "cells": cells,
            }
        )
    messages_ = problem_dicts(problems, table_number=page.table.number, seat_names=names)
    secret = modes["blind"] or modes["hide_values"]
    conflict_cells = []
    if (conflict is not None or compare) and not secret and size:
        conflict_cells = sheet_context.conflict_cells(page, selectors.normalise_grid(grid, size))
    stored = None
    if not secret and size:
        stored = sheet_context.stored_fields(
            page.current_grid(), table_size=size, rows=max(page.planned_hands, len(typed.rows))
        )
    matches_stored = bool(
        size and page.sheet and not selectors.diff_grids(page.current_grid(), grid)
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
        confirmer_names, more_confirmers = sheet_context.confirmers(page)
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
        "errors": list(errors),
        "conflict": conflict,
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
    require_sheet_reader(request.user, page.event, page.status)
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
    grid, input_problems = grid_from_typed(typed, table_size=size)
    check = selectors.check_grid(
        selectors.normalise_grid(grid, size),
        ruleset=page.ruleset,
        table_size=size,
        planned_rounds=page.series.planned_rounds,
    )
    problems = [*input_problems, *check.problems]
    return JsonResponse(
        {
            "problems": problem_dicts(
                problems, table_number=page.table.number, seat_names=page.seat_names
            ),
            "totals": check.totals,
            "running": check.running,
            "readings": [
                {"hand": hand, "seat": seat, "text": text}
                for (hand, seat), text in sorted(check.readings.items())
            ],
            "dealers": [h["dealer"] for h in grid["hands"]],
            "winners": [h["winner"] for h in grid["hands"]],
            "ready": check.ready and not input_problems,
        }
    )


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
        return _render_sheet(
            request, page, typed=typed, errors=error.messages, status=400, compare=True
        )
    _saved(request, page, form.cleaned_data["expected_version"])
    messages.success(request, _("The sheet is confirmed."))
    return redirect("scoring:sheet_entry", series_pk=series_pk, number=number)


# ----- rule set ----------------------------------------------------------------------------


@login_required
def event_ruleset(request, pk):
    event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
    require_role(request.user, event.club, ORGANISER)
    form = RulesetForm(request.POST or None, initial=RulesetForm.initial_for(event))
    if request.method == "POST" and form.is_valid():
        try:
            result = services.change_ruleset(
                request.user,
                event,
                form.cleaned_data["slug"],
                form.overrides(event),
                form.cleaned_data["reason"],
            )
        except ValidationError as error:
            add_validation_errors(form, error)
        else:
            text = _(
                "The rule set is changed: %(changed)d of %(seats)d results on %(sheets)d sheets "
                "were recomputed."
            ) % {"changed": result.changed, "seats": result.hand_seats, "sheets": result.sheets}
            messages.success(request, text)
            if result.problems or result.unscorable:
                messages.warning(
                    request,
                    _(
                        "Under the new rule set the stored hands have %(problems)d problems; "
                        "%(unscorable)d hands could not be scored and keep their points."
                    )
                    % {"problems": result.problems, "unscorable": result.unscorable},
                )
            return redirect("scoring:event_ruleset", pk=pk)
    history = (
        event.history.exclude(history_change_reason__isnull=True)
        .exclude(history_change_reason="")
        .select_related("history_user")
        .order_by("-history_date")[:20]
    )
    context = {"event": event, "form": form, "ruleset": event.ruleset, "history": history}
    return render(request, "scoring/event_ruleset.html", context)
