"""The prize plan page, the prize list and the public prize winners.

Thin: forms parse, `services.save_plan` writes (and checks the role), `selectors.prize_list`
reads. The plan page and the list are the directors' (organisers of the event's club):
anyone else gets 403 (anonymous users the login page), on GET as well as on POST.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe
from django_tables2 import RequestConfig

from clubs.permissions import ORGANISER, require_role
from clubs.selectors import history_of
from common.forms import parse_int
from prizes.plan import selectors, services, texts
from prizes.plan.forms import (
    MORE_ROWS,
    PlanRulesForm,
    PrizeLineFormSet,
    initial_lines,
    rules_initial,
)
from prizes.plan.tables import PrizeTable, rows_of
from scoring.standings.public import public_event, public_view
from tournaments.models import Category, Event


def _event(pk) -> Event:
    return get_object_or_404(Event.objects.select_related("club"), pk=pk)


def _formset(event, categories, data=None, plan=None):
    kwargs = {"form_kwargs": {"categories": categories}, "prefix": "lines"}
    if data is not None:
        return PrizeLineFormSet(data, **kwargs)
    return PrizeLineFormSet(initial=initial_lines(plan), **kwargs)


def _more_rows(data):
    """The posted form with MORE_ROWS empty rows more (nothing typed is lost)."""
    data = data.copy()
    total = max(0, parse_int(data.get("lines-TOTAL_FORMS"), 0))  # (hostile: no 500)
    data["lines-TOTAL_FORMS"] = str(total + MORE_ROWS)
    data["lines-INITIAL_FORMS"] = "0"
    return data


@login_required
def plan_edit(request, pk):
    event = _event(pk)
    require_role(request.user, event.club, ORGANISER)
    plan = selectors.plan_of(event)
    categories = list(Category.objects.filter(event=event))
    errors: list[str] = []
    over_pot = ""
    if request.method == "POST" and "add_rows" in request.POST:
        formset = _formset(event, categories, _more_rows(request.POST))
        rules = PlanRulesForm(request.POST)
    elif request.method == "POST":
        formset = _formset(event, categories, request.POST)
        rules = PlanRulesForm(request.POST)
        if formset.is_valid() and rules.is_valid():
            data = rules.cleaned_data
            try:
                services.save_plan(
                    request.user,
                    event,
                    lines=formset.lines(),
                    one_prize_per_player=data["one_prize_per_player"],
                    precedence=rules.precedence(),
                    costs=data["costs"],
                    costs_note=data["costs_note"],
                    public_winners=data["public_winners"],
                    public_amounts=data["public_amounts"],
                    confirmed=data["confirm_over_pot"],
                    seen=data["seen"],
                )
            except services.PlanChanged as changed:
                errors = changed.messages
                # Saving this page again, after a look at the saved plan, is meant.
                rules.data = rules.data.copy()
                rules.data["seen"] = changed.stamp
            except services.PlanOverPot as warning:
                over_pot = " ".join(warning.messages)
            except ValidationError as error:
                errors = error.messages
            else:
                messages.success(request, _("The prize plan is saved."))
                return redirect("prizes:plan", pk=event.pk)
        else:
            errors = [_("The plan was not saved: please correct the marked fields.")]
    else:
        formset = _formset(event, categories, plan=plan)
        rules = PlanRulesForm(initial=rules_initial(plan, services.plan_stamp(plan)))
    context = {
        "event": event,
        "plan": plan,
        "formset": formset,
        "rules": rules,
        "errors": errors,
        "over_pot": over_pot,
        "history": history_of(plan) if plan else [],
    }
    context.update(_plan_facts(event, plan))
    return render(request, "prizes/plan/plan.html", context)


def _plan_facts(event, plan) -> dict:
    """The stored plan in sentences, its total against the pot and its warnings."""
    if plan is None:
        return {"sentences": [], "rules_text": [], "check": None, "warnings": []}
    names = selectors.category_names(event)
    lines = selectors.plan_lines(plan, names)
    check = services.check_plan(event, lines, plan.costs)
    listing = selectors.prize_list(event) if lines else None
    return {
        "sentences": [texts.line_sentence(line, names) for line in lines],
        "rules_text": texts.rule_sentences(plan),
        "check": check,
        "warnings": listing.warnings if listing else [],
    }


@login_required
@require_safe
def prize_list_page(request, pk):
    event = _event(pk)
    require_role(request.user, event.club, ORGANISER)
    listing = selectors.prize_list(event, include_entered=True)
    table = PrizeTable(rows_of(listing))
    RequestConfig(request, paginate=False).configure(table)
    rules_text = texts.rule_sentences(listing.plan) if listing.plan else []
    return render(
        request,
        "prizes/plan/list.html",
        {"event": event, "listing": listing, "table": table, "rules_text": rules_text},
    )


@require_safe
@public_view("prizes", ("sort",))
def public_prizes(request, pk):
    """Who won which prize place, for everyone when the director shows it (published series
    only; amounts only when the director turns them on); 404 otherwise."""
    event = public_event(request, pk)
    plan = selectors.plan_of(event)
    if plan is None or not plan.public_winners or not plan.prizes:
        raise Http404
    listing = selectors.prize_list(event, include_entered=False, only_published=True)
    amounts = plan.public_amounts
    table = PrizeTable(rows_of(listing, amounts=amounts), exclude=() if amounts else ("amount",))
    RequestConfig(request, paginate=False).configure(table)
    unfinished = selectors.unpublished_series(event)
    return render(
        request,
        "prizes/plan/public.html",
        {
            "event": event,
            "listing": listing,
            "table": table,
            "amounts": amounts,
            "provisional": listing.provisional or unfinished,
        },
    )
