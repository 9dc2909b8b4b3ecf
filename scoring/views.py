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

from . import selectors, services
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


def _modes(request, page) -> dict:
    """What this user may do with this sheet now."""
    user = request.user
    club = page.event.club
    is_scorer = has_role(user, club, SCORER)
    is_organiser = has_role(user, club, ORGANISER)
    status = page.status
    sheet = page.sheet
    entered_by_me = sheet is not None and sheet.entered_by_id == user.pk
    blind = (
        is_scorer
        and status == Sheet.Status.ENTERED
        and page.event.blind_confirmation
        and not entered_by_me
    )
    can_edit = is_organiser if status == Sheet.Status.CONFIRMED else is_scorer
    return {
        "is_scorer": is_scorer,
        "is_organiser": is_organiser,
        "blind": blind,
        "can_edit": can_edit and page.table_size > 0,
        "correction": status == Sheet.Status.CONFIRMED,
        "entered": status == Sheet.Status.ENTERED,
        "entered_by_me": entered_by_me,
        "can_confirm": is_scorer
        and status == Sheet.Status.ENTERED
        and not page.event.blind_confirmation
        and not entered_by_me,
    }


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
):
    modes = _modes(request, page)
    size = page.table_size
    ruleset = page.ruleset
    blind_version = page.latest_blind()
    if typed is None:
        if modes["blind"]:
            mine = page.latest_blind(by=request.user)
            grid = mine.grid if mine else selectors.empty_grid()
        else:
            grid = page.current_grid()
        typed = typed_from_grid(grid, table_size=size, rows=page.planned_hands)
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

    # Cells where a blind re-entry and the entry differ: both scorers see them.
    differs = set()
    differences = []
    if blind_version is not None:
        differences = selectors.diff_grids(page.current_grid(), blind_version.grid, ruleset=ruleset)
        differs = {(c.hand, c.seat if c.field != "hand_romme" else "romme") for c in differences}
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
                    "differs": (number, index) in differs,
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
                "romme_differs": (number, "romme") in differs,
                "problem": (number, None) in problem_cells,
                "cells": cells,
            }
        )
    messages_ = problem_dicts(problems, table_number=page.table.number, seat_names=names)
    conflict_changes = []
    if conflict is not None and not modes["blind"]:
        conflict_changes = [change_message(c, seat_names=names) for c in conflict.changes]
    history = [
        {
            "version": entry["version"],
            "changes": [change_message(c, seat_names=names) for c in entry["changes"]],
        }
        for entry in selectors.version_history(page, hide_cells=modes["blind"])
    ]
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
        "conflict_changes": conflict_changes,
        "differences": []
        if modes["blind"]
        else [change_message(c, seat_names=names) for c in differences],
        "difference_count": len(differences),
        "history": history,
        "expected_version": conflict.current_version if conflict else page.version,
        "reason": reason,
        **modes,
    }
    return render(request, "scoring/sheet_entry.html", context, status=status)


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
    if action == "blind":
        if result.confirmed:
            messages.success(
                request, _("Your entry agrees with the first one: the sheet is confirmed.")
            )
        else:
            messages.warning(
                request,
                _("%(count)d cells differ from the first entry; they are highlighted.")
                % {"count": len(result.differences)},
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
        messages.success(
            request,
            _("Sheet saved as version %(version)d (%(kind)s).")
            % {"version": result.version.number, "kind": result.version.get_kind_display()},
        )
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
    page = selectors.sheet_page(series_pk, number)
    require_role(request.user, page.event.club, SCORER)
    form = ConfirmForm(request.POST)
    if not form.is_valid():
        return _render_sheet(request, page, errors=[_("The page is out of date.")], status=400)
    try:
        services.confirm_sheet(
            request.user, page.table, expected_version=form.cleaned_data["expected_version"]
        )
    except services.SheetConflict as conflict:
        page = selectors.sheet_page(series_pk, number)
        return _render_sheet(request, page, conflict=conflict, status=409)
    except ValidationError as error:
        return _render_sheet(request, page, errors=error.messages, status=400)
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
