"""The table link pages: the phone page of a table (no account; the token is the key) and
the director's page of a series' links.

A token opens its own table's sheet and nothing else: every phone URL starts from the
link of the token, the table comes from the link, never from the request. A seat makes
itself known with its code once per phone (kept in the session); writes name the seat.
Closed links answer with a German page: 404 (no such link), 403 (locked by the director),
410 (the series is over), 429 (too many wrong seat codes).
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.permissions import ORGANISER, require_role
from common.lan import address_change, phone_base_url
from scoring.models import TableLink
from scoring.sheets.codes import absolute, link_problem, qr_data_uri
from scoring.sheets.messages import problem_dicts
from scoring.sheets.services import SheetInvalid
from scoring.sheets.table import entry as table_entry
from scoring.sheets.table import links as table_links
from scoring.sheets.table import pins as player_pins
from scoring.sheets.table import selectors as table_selectors
from scoring.sheets.table.forms import fields_of_hand, hand_from_post
from scoring.sheets.table.links import LinkClosed, TooManyTries, phone_path
from tournaments.models import Series, Table

CLOSED_STATUS = {"revoked": 403, "expired": 410, "missing": 404, "throttled": 429}


def _closed(request, reason: str):
    status = CLOSED_STATUS[reason]
    if _wants_json(request):
        return JsonResponse({"ok": False, "closed": reason}, status=status)
    return render(request, "scoring/table_closed.html", {"reason": reason}, status=status)


def _wants_json(request) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def _session_key(link: TableLink) -> str:
    return f"table-seat-{link.pk}"


def _my_seat(request, link: TableLink) -> int | None:
    seat = request.session.get(_session_key(link))
    return seat if isinstance(seat, int) and 0 <= seat < len(link.seat_codes) else None


def _open_link(request, token):
    """The link of ``token`` if it works, else the page that says why (never a 500)."""
    link = table_links.link_for_token(token)
    if link is None:
        return None, _closed(request, "missing")
    state = table_links.link_state(link)
    if state:
        return None, _closed(request, state)
    return link, None


def _seat_fields(view, values: dict, form_id: str) -> list[dict]:
    ruleset = view.series.event.ruleset
    return [
        {
            "k": k,
            "name": name,
            "points": values.get(f"points-{k}", ""),
            "cards": values.get(f"cards-{k}", ""),
            "melded": values.get(f"melded-{k}", ""),
            "winner": values.get("winner") == str(k),
            "id": f"{form_id}-{k}",
            "needs_melded": ruleset.needs_melded,
        }
        for k, name in enumerate(view.seat_names, start=1)
    ]


def _page(request, link, *, errors=(), values=None, status=200):
    view = table_selectors.phone_table(link)
    seat = _my_seat(request, link)
    values = values or {}
    hands = []
    for hand in view.hands:
        mine = hand.writer is not None and hand.writer == seat
        hands.append(
            {
                "hand": hand,
                "cells": list(zip(hand.entries, hand.points, hand.running, strict=False)),
                "lines": list(zip(view.seat_names, hand.entries, hand.points, strict=False)),
                "mine": mine,
                "may_decide": seat is not None and hand.status == "entered" and not mine,
                "may_correct": mine and hand.status == "entered",
                "fields": _seat_fields(view, fields_of_hand(hand), f"h{hand.number}"),
                "winner_name": view.seat_names[hand.winner] if hand.winner is not None else "",
            }
        )
    open_status = view.status not in ("confirmed", "disputed")
    context = {
        "link": link,
        "view": view,
        "table": view.table,
        "series": view.series,
        "event": view.series.event,
        "seat": seat,
        "seat_name": view.seat_names[seat] if seat is not None else "",
        "hands": hands,
        "totals": view.totals,
        "can_enter": seat is not None and open_status and view.next_number <= view.planned_hands,
        "open": open_status,
        "pending": sum(1 for h in view.hands if h.status == "entered"),
        "pending_others": sum(
            1 for h in view.hands if h.status == "entered" and h.writer not in (None, seat)
        ),
        "fields": _seat_fields(view, values, "new"),
        "first_dealer": values.get("first_dealer", str(view.next_dealer + 1)),
        "client_id": uuid.uuid4().hex,
        "errors": errors,
    }
    return render(request, "scoring/table_phone.html", context, status=status)


def table_phone(request, token):
    link, refused = _open_link(request, token)
    if refused:
        return refused
    return _page(request, link)


@require_POST
def table_seat(request, token):
    """A phone names its seat with the seat's code (or forgets it: ``leave``)."""
    link, refused = _open_link(request, token)
    if refused:
        return refused
    if request.POST.get("leave"):
        request.session.pop(_session_key(link), None)
        return redirect("scoring:table_phone", token=token)
    number = request.POST.get("player_number", "").strip()
    try:
        if number:  # the player's number and PIN instead of the seat code
            seat = player_pins.seat_for_pin(link, number, request.POST.get("pin", ""))
        else:
            seat = table_links.seat_for_code(link, request.POST.get("code", ""))
    except TooManyTries:
        return _closed(request, "throttled")
    if seat is None:
        error = _("This is not a seat code of this table.")
        if number:
            error = _("This player number and PIN do not match a seat of this table.")
        return _page(request, link, errors=[error], status=400)
    request.session[_session_key(link)] = seat
    return redirect("scoring:table_phone", token=token)


def _seat_or_code(request, link) -> int | None:
    """The seat that acts: another seat's code typed on this phone, else this phone's seat."""
    code = request.POST.get("code", "").strip()
    if code:
        return table_links.seat_for_code(link, code)
    return _my_seat(request, link)


def _answer(request, token, *, ok_message=None, errors=None, link=None, values=None, data=None):
    if errors:
        if _wants_json(request):
            return JsonResponse({"ok": False, "errors": errors}, status=400)
        return _page(request, link, errors=errors, values=values, status=400)
    if _wants_json(request):
        return JsonResponse({"ok": True, **(data or {})})
    if ok_message:
        messages.success(request, ok_message)
    return redirect("scoring:table_phone", token=token)


def _problem_texts(table, problems) -> list[str]:
    names = table_selectors.seat_names(table)
    return [
        d["message"] for d in problem_dicts(problems, table_number=table.number, seat_names=names)
    ]


def _number(value) -> int | None:
    try:
        number = int(value)
    except (TypeError, ValueError):
        return None
    return number if 1 <= number <= 500 else None


@require_POST
def table_hand(request, token):
    """The writer's phone sends one hand (new, or a correction of its own hand ``number``)."""
    link, refused = _open_link(request, token)
    if refused:
        return refused
    seat = _my_seat(request, link)
    if seat is None:
        return _answer(request, token, link=link, errors=[_("First enter your seat code.")])
    number = _number(request.POST.get("number"))
    size = len(link.seat_codes)
    shown_number = number or _number(request.POST.get("append_as"))
    shown_number = shown_number or table_selectors.phone_table(link).next_number
    hand, problems = hand_from_post(request.POST, table_size=size, number=shown_number)
    values = request.POST.dict()
    if problems:
        errors = _problem_texts(link.table, problems)
        return _answer(request, token, link=link, errors=errors, values=values)
    try:
        saved = table_entry.enter_hand(
            link,
            seat,
            request.POST.get("client_id", ""),
            hand,
            number=number,
            append_as=_number(request.POST.get("append_as")),
        )
    except LinkClosed as closed:
        return _closed(request, closed.reason)
    except SheetInvalid as invalid:
        errors = _problem_texts(link.table, invalid.problems)
        return _answer(request, token, link=link, errors=errors, values=values)
    except table_entry.HandTaken as taken:
        if _wants_json(request):
            return JsonResponse({"ok": False, "errors": taken.messages, "taken": True}, status=409)
        return _answer(request, token, link=link, errors=taken.messages, values=values)
    except ValidationError as error:
        return _answer(request, token, link=link, errors=error.messages, values=values)
    entry = saved.entry
    return _answer(
        request,
        token,
        ok_message=_("Hand %(hand)d saved.") % {"hand": entry.number},
        data={"number": entry.number, "created": saved.created, "client_id": entry.client_id},
    )


@require_POST
def table_confirm(request, token):
    """A seat confirms one hand (``number``) or every hand it did not write."""
    link, refused = _open_link(request, token)
    if refused:
        return refused
    try:
        seat = _seat_or_code(request, link)
    except TooManyTries:
        return _closed(request, "throttled")
    if seat is None:
        return _answer(
            request, token, link=link, errors=[_("This is not a seat code of this table.")]
        )
    number = _number(request.POST.get("number"))
    try:
        count = table_entry.confirm_hands(link, seat, [number] if number else None)
    except LinkClosed as closed:
        return _closed(request, closed.reason)
    except ValidationError as error:
        return _answer(request, token, link=link, errors=error.messages)
    if not count:
        return _answer(request, token, link=link, errors=[_("There is nothing to confirm.")])
    text = _("Hands confirmed: %(count)d.") % {"count": count}
    return _answer(request, token, ok_message=text, data={"confirmed": count})


@require_POST
def table_dispute(request, token):
    """A seat disagrees with hand ``number`` and sends its own version of it."""
    link, refused = _open_link(request, token)
    if refused:
        return refused
    seat = _my_seat(request, link)
    number = _number(request.POST.get("number"))
    if seat is None or number is None:
        return _answer(request, token, link=link, errors=[_("First enter your seat code.")])
    hand, problems = hand_from_post(request.POST, table_size=len(link.seat_codes), number=number)
    if problems:
        errors = _problem_texts(link.table, problems)
        return _answer(request, token, link=link, errors=errors)
    try:
        table_entry.dispute_hand(link, seat, number, hand)
    except LinkClosed as closed:
        return _closed(request, closed.reason)
    except SheetInvalid as invalid:
        return _answer(
            request,
            token,
            link=link,
            errors=_problem_texts(link.table, invalid.problems),
        )
    except ValidationError as error:
        return _answer(request, token, link=link, errors=error.messages)
    text = _("Hand %(hand)d is disputed. The tournament director decides it.") % {"hand": number}
    return _answer(request, token, ok_message=text, data={"disputed": number})


# ----- the director's page -----------------------------------------------------------------


@login_required
def series_table_links(request, pk):
    """Each table's link as a QR with the seat codes (printable), the phones' progress, and
    the buttons to make links and to lock a table."""
    series = get_object_or_404(Series.objects.select_related("event__club"), pk=pk)
    require_role(request.user, series.event.club, ORGANISER)
    if request.method == "POST":
        try:
            made = table_links.create_table_links(request.user, series)
        except ValidationError as error:
            for text in error.messages:
                messages.error(request, text)
        else:
            messages.success(request, _("Table links made: %(count)d.") % {"count": len(made)})
        return redirect("scoring:table_links", pk=pk)
    rows = table_selectors.series_links(series)
    # The phones' address (in the hall the laptop's LAN address, not this browser's).
    base_url = phone_base_url(request)
    problem = link_problem(base_url)
    change = address_change() if settings.HALL_MODE else None
    stale = False
    for row in rows:
        row.url = row.qr = ""
        if row.link:
            row.url = absolute(base_url, phone_path(row.link))
            if not problem:
                row.qr = qr_data_uri(row.url)
            stale = stale or bool(change and row.link.created_at < change.since)
    context = {
        "series": series,
        "event": series.event,
        "rows": rows,
        "base_url": base_url,
        "qr_problem": problem,
        "address_change": change if stale else None,
        "in_play": series.status == Series.Status.IN_PLAY,
        "missing": any(r.link is None and r.seats for r in rows),
        "pins": player_pins.pin_history(series.event),
    }
    return render(request, "scoring/table_links.html", context)


@login_required
@require_POST
def table_link_pin(request, pk):
    """A director sets (or clears) a player's PIN for the table links of the event."""
    series = get_object_or_404(Series.objects.select_related("event__club"), pk=pk)
    number = request.POST.get("player_number", "")
    try:
        row = player_pins.set_player_pin(
            request.user, series.event, number, request.POST.get("pin", "")
        )
    except ValidationError as error:
        for text in error.messages:
            messages.error(request, text)
    else:
        name = row.participant.player
        if row.pin_hash:
            messages.success(request, _("PIN of %(player)s set.") % {"player": name})
        else:
            messages.success(request, _("PIN of %(player)s cleared.") % {"player": name})
    return redirect("scoring:table_links", pk=pk)


@login_required
@require_POST
def table_link_revoke(request, pk, link_pk):
    link = get_object_or_404(
        TableLink.objects.select_related("table__series__event__club"),
        pk=link_pk,
        table__series_id=pk,
    )
    table_links.revoke_table_link(request.user, link)
    messages.success(
        request,
        _("The link of table %(table)d is locked; continue on the sheet page.")
        % {"table": link.table.number},
    )
    return redirect("scoring:table_links", pk=pk)


@login_required
@require_POST
def table_hand_settle(request, pk, number, hand):
    """A director settles a hand disputed at the table; the table plays on."""
    table = get_object_or_404(
        Table.objects.select_related("series__event__club"), series_id=pk, number=number
    )
    try:
        table_entry.settle_hand(request.user, table, hand, request.POST.get("take", ""))
    except SheetInvalid as invalid:
        for text in _problem_texts(table, invalid.problems):
            messages.error(request, text)
    except ValidationError as error:
        for text in error.messages:
            messages.error(request, text)
    else:
        messages.success(
            request,
            _("Hand %(hand)d of table %(table)d is settled; the table plays on.")
            % {"hand": hand, "table": table.number},
        )
    return redirect("scoring:table_links", pk=pk)
