"""The server applies what a laptop sends (`live.shared.protocol`): the first batch creates the
event (:func:`create_event`), every later one brings it up to date (:func:`apply_batch`).

A part is the current state of one piece of the laptop's event, so applying is making the
server's copy equal to it: the server's event is read back as an archive document in the
laptop's participant refs (`current_document`), the batch's parts are laid over it
(`overlay`), the result is checked as a whole by the archive's own checks
(`scoring.archive.validate`: schema, references, seats, every touched sheet against the
rules), and only then are the differences written (`live.server.apply_rows`). Applying the same
parts again finds no difference and writes nothing. Refusals are `ApplyError` (German
message, path), with nothing written; the caller (`live.server.api`) answers 400.

Players are matched by player number and never merged: a number this server knows under
another name (or birth year, or gender) refuses the batch, naming the number, unless the
player was created here by a push of the same laptop (then the laptop's correction is
taken). The laptop's participant ids are used only to find the participant within this
event (``ReceivedEvent.refs``).
"""

from __future__ import annotations

import copy
import re

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _

from clubs.models import Player
from common.gc_tuning import cycle_collection_paused
from common.history import save_with_history
from live.models import LiveToken, ReceivedEvent
from live.server.apply_errors import ApplyError
from live.server.apply_rows import Refs, Writer, player_differs, player_text
from live.server.services import applying_live
from live.shared import protocol
from live.shared.parts import ROSTER_KEYS, KeptVersions, assemble
from scoring.archive import sections
from scoring.archive.dump import _dump_section, export_event
from scoring.archive.fields import remap, remap_series_json
from scoring.archive.load import import_event
from scoring.archive.validate import ArchiveError, validate
from tournaments.models import Event, Participant

__all__ = ["ApplyError", "apply_batch", "create_event"]


def reason() -> str:
    return _("Received live from the hall")


# ----- reading a batch -------------------------------------------------------------------------


def read_parts(batch) -> tuple[dict[str, object], list[str]]:
    """The batch's parts by their key (written the protocol's way) and its removed keys."""
    if not isinstance(batch, dict):
        raise ApplyError(_("The batch is not a JSON object."), "$")
    items, removed = batch.get("parts", []), batch.get("removed", [])
    if not isinstance(items, list):
        raise ApplyError(_("“parts” must be a list."), "$.parts")
    if not isinstance(removed, list):
        raise ApplyError(_("“removed” must be a list."), "$.removed")
    parts: dict[str, object] = {}
    for i, item in enumerate(items):
        if not isinstance(item, dict) or "key" not in item or "data" not in item:
            raise ApplyError(_("A part needs a “key” and its “data”."), f"$.parts[{i}]")
        key = _canonical(item["key"], f"$.parts[{i}].key")
        if key in parts:
            raise ApplyError(
                _("The part %(key)s appears twice in the batch.") % {"key": key},
                f"$.parts[{i}].key",
            )
        parts[key] = item["data"]
    gone = []
    for i, key in enumerate(removed):
        key = _canonical(key, f"$.removed[{i}]")
        if key in (protocol.EVENT, protocol.ROSTER):
            raise ApplyError(
                _("The part %(key)s cannot be removed.") % {"key": key}, f"$.removed[{i}]"
            )
        gone.append(key)
    return parts, gone


def _canonical(key, path: str) -> str:
    try:
        kind, args = protocol.parse_key(key if isinstance(key, str) else "")
    except ValueError:
        raise ApplyError(_("%(key)s is not a part key.") % {"key": repr(key)[:60]}, path) from None
    if kind == protocol.SERIES:
        return protocol.series_key(*args)
    if kind == protocol.SHEET:
        return protocol.sheet_key(*args)
    if kind == protocol.SECTION:
        if args[0] not in sections.SECTIONS:
            raise ApplyError(_("There is no section %(name)s.") % {"name": repr(args[0])}, path)
        return protocol.section_key(args[0])
    return kind


def _origin(batch: dict) -> tuple[str, int]:
    origin, event = batch.get("origin"), batch.get("event")
    if not isinstance(origin, str) or not origin or len(origin) > 32:
        raise ApplyError(_("The batch does not name its installation."), "$.origin")
    if not isinstance(event, int) or isinstance(event, bool) or event < 1:
        raise ApplyError(_("The batch does not name its event."), "$.event")
    return origin, event


# ----- documents ---------------------------------------------------------------------------------


# The sheet versions of the events this app server applied batches to last: a batch's read
# of the server's copy reads only new versions' grids. About 11 MB for 500 versions of a
# 400-player event: a few events, not every event a federation receives.
_KEPT = KeptVersions(events=4)


def current_document(event: Event, refs: Refs) -> dict:
    """The server's copy of the event as an archive document, participants named by the
    laptop's refs (as the parts name them). Its values may be shared with later reads:
    not to be changed (`_copy_for_overlay`)."""
    data = export_event(event, refs="id", version_dumps=_KEPT.of(event.pk))
    laptop = refs.laptop_of()
    for participant in data["participants"]:
        if participant["ref"] not in laptop:
            raise ApplyError(
                _("This server's copy holds a participant the laptop did not send."),
                "$.roster",
            )
        participant["ref"] = laptop[participant["ref"]]
    for group in data["groups"]:
        group["members"] = remap(group["members"], laptop)
    for series in data["series"]:
        remap_series_json(series, laptop)
        for table in series["tables"]:
            table["seats"] = remap(table["seats"], laptop)
    # Sections name participants their own way: dumped again with the laptop's refs.
    data.update(sections.dump_all(event, sections.DumpContext(laptop, _dump_section)))
    return data


def overlay(document: dict, parts: dict, removed: list[str]) -> dict:
    """``document`` with the parts laid over it and the removed parts taken out (changed
    in place and returned). A sheet needs its series and table; a series part keeps the
    sheets of the tables it still has."""
    series_of = {s["number"]: s for s in document["series"]}
    sheets = []
    for key, data in parts.items():
        kind, args = protocol.parse_key(key)
        if kind == protocol.EVENT:
            document["event"] = data
        elif kind == protocol.ROSTER:
            if not isinstance(data, dict):
                raise ApplyError(_("The part is not a JSON object."), f"{key} $")
            for name in ROSTER_KEYS:
                document[name] = data.get(name, [])
        elif kind == protocol.SERIES:
            series_of[args[0]] = _series(key, args[0], data, series_of.get(args[0]))
        elif kind == protocol.SHEET:
            sheets.append((key, args, data))
        else:
            document[args[0]] = data
    for key in removed:
        kind, args = protocol.parse_key(key)
        if kind == protocol.SERIES:
            series_of.pop(args[0], None)
        elif kind == protocol.SHEET:
            table = _table(series_of, args)
            if table is not None:
                table["sheet"] = None
        else:
            document.pop(args[0], None)
    for key, args, data in sheets:
        if key in removed:
            continue
        table = _table(series_of, args)
        if table is None:
            raise ApplyError(
                _("Series %(series)s has no table %(table)s here: its sheet cannot be stored.")
                % {"series": args[0], "table": args[1]},
                f"{key} $",
            )
        table["sheet"] = data
    document["series"] = [series_of[number] for number in sorted(series_of)]
    return document


def _copy_for_overlay(document: dict) -> dict:
    """A copy of ``document`` that `overlay` may change without changing ``document``: it
    replaces the top level's values and the series' tables, and sets a table's sheet, so
    those levels are copied and everything below them is shared (a deep copy of a
    400-player event was half of the server's apply of a batch: docs/performance-log.md)."""
    copied = dict(document)
    copied["series"] = [{**s, "tables": [dict(t) for t in s["tables"]]} for s in document["series"]]
    return copied


def _series(key: str, number: int, data, old: dict | None) -> dict:
    if not isinstance(data, dict):
        raise ApplyError(_("The part is not a JSON object."), f"{key} $")
    if data.get("number") != number:
        raise ApplyError(_("The series' number differs from its key."), f"{key} $.number")
    tables = data.get("tables", [])
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise ApplyError(_("“tables” must be a list of objects."), f"{key} $.tables")
    kept = {t.get("number"): t.get("sheet") for t in (old or {}).get("tables", [])}
    series = dict(data)
    series["tables"] = [{**t, "sheet": kept.get(t.get("number"))} for t in tables]
    return series


def _table(series_of: dict, args: tuple) -> dict | None:
    series = series_of.get(args[0])
    for table in (series or {}).get("tables", []):
        if table.get("number") == args[1]:
            return table
    return None


def check(document: dict, *, all_sheets: bool, touched: set[tuple[int, int]]) -> dict:
    """Validate the document as the archive import does; the sheets not touched by the
    batch were checked when they came and are left out (unless the rule set changed).
    Returns the checked plan of each checked sheet by (series number, table number)."""
    shown = dict(document)
    shown["series"] = [
        {
            **s,
            "tables": [
                t if all_sheets or (s.get("number"), t.get("number")) in touched
                else {**t, "sheet": None}
                for t in s.get("tables", [])
            ],
        }
        if isinstance(s, dict) else s
        for s in document["series"]
    ]  # fmt: skip
    try:
        plans = validate(shown)
    except ArchiveError as err:
        raise ApplyError(err.message, part_path(document, err.path)) from None
    return {
        (document["series"][si]["number"], document["series"][si]["tables"][ti]["number"]): plan
        for (si, ti), plan in plans.items()
    }


def part_path(document: dict, path: str) -> str:
    """An archive path ("$.series[1].tables[3].sheet.versions[0]") as the laptop's part
    and the path inside it ("sheet:2:4 $.versions[0]")."""
    found = re.match(r"^\$\.series\[(\d+)\](?:\.tables\[(\d+)\](\.sheet)?)?(.*)$", path)
    if found is None:
        for name in ROSTER_KEYS:
            if path == f"$.{name}" or path.startswith((f"$.{name}[", f"$.{name}.")):
                return f"{protocol.ROSTER} $.{path[2:]}"
        if path.startswith("$.event"):
            return f"{protocol.EVENT} ${path[7:]}"
        section = re.match(r"^\$\.([A-Za-z_]\w*)(.*)$", path)
        if section and section.group(1) in sections.SECTIONS:
            return f"{protocol.section_key(section.group(1))} ${section.group(2)}"
        return path
    si, ti, sheet, rest = found.groups()
    try:
        series = document["series"][int(si)]
        if ti is None:
            return f"{protocol.series_key(series['number'])} ${rest}"
        table = series["tables"][int(ti)]
        if sheet:
            return f"{protocol.sheet_key(series['number'], table['number'])} ${rest}"
        return f"{protocol.series_key(series['number'])} $.tables[{ti}]{rest}"
    except (IndexError, KeyError, TypeError):
        return path


# ----- the entry points --------------------------------------------------------------------------


def create_event(token: LiveToken, batch) -> ReceivedEvent:
    """The first batch of a laptop's event: create the event on the token's club through
    the archive import (parts "event" and "roster" at least), note where it comes from and
    the laptop's participant refs, and bind the token to it. Call inside the endpoint's
    transaction. Raises ApplyError (bad content, a player number known here under another
    name, a duplicate event) or PermissionDenied (another club's event, a token already
    bound to an event), with nothing written."""
    parts, removed = read_parts(batch)
    origin, origin_event = _origin(batch)
    if token.event_id is not None:
        raise PermissionDenied(_("This token belongs to another event."))
    if protocol.EVENT not in parts or protocol.ROSTER not in parts:
        raise ApplyError(
            _("The first batch of an event must bring its parts “event” and “roster”."),
            "$.parts",
        )
    base = {protocol.EVENT: parts[protocol.EVENT], protocol.ROSTER: parts[protocol.ROSTER]}
    try:
        document = overlay(assemble(base), parts, removed)
    except (AttributeError, TypeError):
        raise ApplyError(_("The part is not a JSON object."), f"{protocol.ROSTER} $") from None
    plans = check(document, all_sheets=True, touched=set())
    club = document["event"]["club"]["short_name"]
    if club != token.club.short_name:
        raise PermissionDenied(
            _("This token sends events of %(mine)s, not of %(other)s.")
            % {"mine": token.club.short_name, "other": club}
        )
    actor = token.created_by
    with applying_live(), transaction.atomic():
        created = _check_players(document, origin)
        try:
            result = import_event(
                document,
                actor=actor,
                plans={
                    (si, ti): plans[(s["number"], t["number"])]
                    for si, s in enumerate(document["series"])
                    for ti, t in enumerate(s["tables"])
                    if (s["number"], t["number"]) in plans
                },
            )
        except ArchiveError as err:
            raise ApplyError(err.message, part_path(document, err.path)) from None
        event = result.event
        ids = Participant.objects.filter(event=event).order_by("pk").values_list("pk", flat=True)
        laptop = sorted(p["ref"] for p in document["participants"])
        refs = Refs({})
        refs.set_participants(dict(zip(laptop, ids, strict=True)))
        refs.add_players(created)
        received = ReceivedEvent(
            event=event, origin=origin, origin_event=origin_event, token=token, refs=refs.data
        )
        save_with_history(received, actor, reason(), clean=False)
        token.event = event
        save_with_history(token, actor, reason(), clean=False)
    return received


def _check_players(document: dict, origin: str) -> list[str]:
    """Refuse a player number known here with other details (unless this laptop created
    it); returns the numbers the import will create."""
    wanted = {p["player_number"]: (i, p) for i, p in enumerate(document["players"])}
    known = Player.objects.filter(player_number__in=wanted)
    mine = Refs.players_of_origin(origin)
    for player in known:
        i, data = wanted[player.player_number]
        if player_differs(player, data) and player.player_number not in mine:
            raise ApplyError(player_text(player, data), f"{protocol.ROSTER} $.players[{i}]")
    return sorted(set(wanted) - {p.player_number for p in known})


def apply_batch(received: ReceivedEvent, batch) -> None:
    """Bring the server's copy up to the batch's parts, in one transaction (call inside
    the endpoint's): the same parts again write nothing. The results version moves once
    when anything changed. Raises ApplyError with nothing written."""
    parts, removed = read_parts(batch)
    if not parts and not removed:
        return
    actor = received.token.created_by if received.token_id else None
    # (The collector paused: the documents are some 100,000 objects without cycles.)
    with applying_live(), transaction.atomic(), cycle_collection_paused():
        # The event's row only (the season is an outer join, which PostgreSQL cannot lock).
        event = Event.objects.select_for_update(of=("self",)).select_related("club", "season")
        event = event.get(pk=received.event_id)
        refs = Refs(copy.deepcopy(received.refs or {}))
        current = current_document(event, refs)
        try:
            new = overlay(_copy_for_overlay(current), parts, removed)
        except (AttributeError, TypeError):
            raise ApplyError(_("A part does not have the archive's form."), "$.parts") from None
        all_sheets = _ruleset(new) != _ruleset(current)
        series_of = {s["number"]: s for s in new["series"]}
        touched = set()
        for key in parts:
            kind, args = protocol.parse_key(key)
            if kind == protocol.SHEET:
                touched.add(args)
            elif kind == protocol.SERIES and args[0] in series_of:
                touched.update((args[0], t.get("number")) for t in series_of[args[0]]["tables"])
        plans = check(new, all_sheets=all_sheets, touched=touched)
        writer = Writer(event, received, refs, current, new, plans, actor, reason())
        try:
            changed = writer.run(ruleset_changed=all_sheets)
        except ArchiveError as err:
            raise ApplyError(err.message, part_path(new, err.path)) from None
        if changed:
            ReceivedEvent.objects.filter(pk=received.pk).update(refs=refs.data)
            received.refs = refs.data
            writer.bump()


def _ruleset(document: dict):
    event = document.get("event")
    return event.get("ruleset") if isinstance(event, dict) else None
