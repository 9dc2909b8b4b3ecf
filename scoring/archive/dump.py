"""Event -> archive: every raw fact of one event as a JSON document (`export_event`, `dumps`).

Only raw facts travel: no ``Hand``/``HandSeat`` rows; the importing installation derives
them with its own rules (`scoring.archive.load`). See docs/event-format.md."""

from __future__ import annotations

import datetime as dt
import decimal
import json
import uuid
from collections import defaultdict
from types import SimpleNamespace
from typing import Any

from django.conf import settings
from django.utils import timezone

from clubs.models import Club, Player
from common.version import __version__
from scoring.archive import sections
from scoring.archive.fields import (
    field_plan,
    remap_series_json,
    user_model,
)
from scoring.archive.validate import FORMAT, VERSION
from scoring.models import Sheet, SheetVersion
from tournaments.models import Event, Group, GroupMember, Participant, Season, Seat, Series, Table


def exported_from() -> str:
    """The archive's `exported_from`: the site's name (SITE_NAME) and the app's version,
    e.g. "Rommé Ledger 1.0.0" (a string the format already has: older readers take it)."""
    name = getattr(settings, "SITE_NAME", "") or "Rommé Ledger"
    return f"{name} {__version__}"


def _plain(value) -> Any:
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, decimal.Decimal | uuid.UUID):
        return str(value)
    return value


def _dump_fields(obj, model, skip=(), usernames: dict[int, str] | None = None) -> dict:
    data = {}
    for name, attname, is_user in field_plan(model, tuple(skip)):
        if is_user:
            user_id = getattr(obj, attname)
            data[name] = None if user_id is None else usernames[user_id]
        else:
            data[name] = _plain(getattr(obj, attname))
    return data


def _club_dict(club: Club) -> dict:
    return _dump_fields(club, Club)


def export_event(
    event: Event, *, refs: str = "position", version_dumps: dict[tuple, dict] | None = None
) -> dict:
    """The archive of ``event`` as plain data (``json.dumps`` it; see :func:`dumps`).

    ``refs``: how participants are numbered: ``"position"`` 1, 2, … in id order (the
    archive file); ``"id"`` their ids here, the same from one dump to the next (the parts
    live results send, ``live.shared.parts``). Both keep the id order the import relies on.

    ``version_dumps``: sheet versions already dumped, by (id, created_at), kept by a caller
    that dumps the same event again and again (the live sender): a version is never
    changed, so only new ones are read with their grids (reading every grid again was a
    third of a push's dump). The time in the key tells a reused id (a restored backup)
    from the version dumped before. It is left holding the event's versions as they are
    now; the caller must not change its values."""
    if refs not in ("position", "id"):
        raise ValueError(f"refs must be 'position' or 'id', not {refs!r}")
    event = Event.objects.select_related("club", "season").get(pk=event.pk)
    User = user_model()
    participants = _participants(event)
    if refs == "id":
        ref_of = {p.pk: p.pk for p in participants}
    else:
        ref_of = {p.pk: ref for ref, p in enumerate(participants, start=1)}
    series_list = list(Series.objects.filter(event=event).order_by("number"))
    tables = _rows(
        Table.objects.filter(series__event=event).order_by("series__number", "number"),
        Table,
        "pk",
        "series_id",
    )
    seats = defaultdict(list)
    seat_rows = Seat.objects.filter(series__event=event).order_by("table_id", "position")
    for table_id, participant_id in seat_rows.values_list("table_id", "participant_id"):
        seats[table_id].append(ref_of[participant_id])
    sheet_of = dump_sheets(
        {"table__series__event": event}, version_dumps=version_dumps, whole_event=True
    )

    user_ids = {event.created_by_id}
    users = [attname for _name, attname, is_user in field_plan(Series) if is_user]
    user_ids.update(getattr(row, attname) for row in series_list for attname in users)
    user_ids.discard(None)
    usernames = dict(User.objects.filter(pk__in=user_ids).values_list("pk", User.USERNAME_FIELD))

    event_data = _dump_fields(
        event, Event, skip=("ruleset_slug", "ruleset_overrides"), usernames=usernames
    )
    event_data["ruleset"] = {"slug": event.ruleset_slug, "overrides": event.ruleset_overrides or {}}
    event_data["club"] = _club_dict(event.club)
    event_data["season"] = _dump_fields(event.season, Season) if event.season else None

    other_clubs = {p.club_id: p.club for p in participants if p.club and p.club_id != event.club_id}
    players = {p.player_id: p.player for p in participants}.values()
    players = sorted(players, key=lambda p: p.player_number)

    groups = []
    members = defaultdict(list)
    member_rows = GroupMember.objects.filter(group__event=event).order_by("group_id", "pk")
    for group_id, participant_id in member_rows.values_list("group_id", "participant_id"):
        members[group_id].append(ref_of[participant_id])
    for group in _rows(Group.objects.filter(event=event).order_by("pk"), Group, "pk"):
        data = _dump_fields(group, Group)
        data["members"] = members[group.pk]
        groups.append(data)

    tables_of = defaultdict(list)
    for table in tables:
        data = _dump_fields(table, Table)
        data["seats"] = seats[table.pk]
        data["sheet"] = sheet_of.get(table.pk)
        tables_of[table.series_id].append(data)

    series_out = []
    for s in series_list:
        data = _dump_fields(s, Series, usernames=usernames)
        remap_series_json(data, ref_of)
        data["tables"] = tables_of[s.pk]
        series_out.append(data)

    section_data = sections.dump_all(event, sections.DumpContext(ref_of, _dump_section))
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "exported_from": exported_from(),
        "event": event_data,
        "clubs": [_club_dict(c) for c in sorted(other_clubs.values(), key=lambda c: c.short_name)],
        "players": [_dump_fields(p, Player) for p in players],
        "participants": [
            {
                "ref": ref_of[p.pk],
                "player_number": p.player.player_number,
                "club_short_name": p.club.short_name if p.club else None,
                **_dump_fields(p, Participant),
            }
            for p in participants
        ],
        "groups": groups,
        "series": series_out,
        **section_data,
    }


def dump_sheets(
    where: dict, *, version_dumps: dict[tuple, dict] | None = None, whole_event: bool = False
) -> dict[int, dict]:
    """The sheets the filter ``where`` (on Sheet) selects, each as the archive writes it
    (its fields and its versions), by table id: `export_event`'s for its event, and the
    live sender's for the few tables a change touched (`live.shared.parts.sheet_parts`).

    ``version_dumps``: see `export_event`; ``whole_event``: the filter selects all of one
    event's sheets, so versions kept there but no longer found are dropped from it."""
    sheet_rows = _rows(Sheet.objects.filter(**where), Sheet, "pk", "table_id")
    version_where = {f"sheet__{name}": value for name, value in where.items()}
    event_versions = SheetVersion.objects.filter(**version_where).order_by("sheet_id", "number")
    # (id, created, sheet, author) of every version in order; the rows where not known.
    if version_dumps is None:  # (one read of the rows, nothing kept)
        rows = list(event_versions)
        version_keys = [(v.pk, v.created_at, v.sheet_id, v.created_by_id) for v in rows]
    else:
        version_keys = list(
            event_versions.values_list("pk", "created_at", "sheet_id", "created_by_id")
        )
        new_ids = [pk for pk, at, _sheet, _by in version_keys if (pk, at) not in version_dumps]
        rows = event_versions if len(new_ids) == len(version_keys) else _rows_by_id(new_ids)
    known = version_dumps if version_dumps is not None else {}

    users = [attname for _name, attname, is_user in field_plan(Sheet) if is_user]
    user_ids = {getattr(row, attname) for row in sheet_rows for attname in users}
    user_ids.update(key[3] for key in version_keys)
    user_ids.discard(None)
    User = user_model()
    usernames = dict(User.objects.filter(pk__in=user_ids).values_list("pk", User.USERNAME_FIELD))

    dumped = {
        (v.pk, v.created_at): _dump_fields(v, SheetVersion, usernames=usernames) for v in rows
    }
    if version_dumps is not None:
        if whole_event:  # holds this event's versions now, nothing gone since
            current = {(pk, at) for pk, at, _sheet, _by in version_keys}
            for gone in version_dumps.keys() - current:
                del version_dumps[gone]
        version_dumps.update(dumped)
    versions = defaultdict(list)
    for pk, at, sheet_id, by in version_keys:
        data = dumped.get((pk, at)) or known[pk, at]
        if data["created_by"] != usernames[by]:  # the user was renamed since
            data = {**data, "created_by": usernames[by]}
        versions[sheet_id].append(data)
    out = {}
    for sheet in sheet_rows:
        data = _dump_fields(sheet, Sheet, usernames=usernames)
        data["versions"] = versions[sheet.pk]
        out[sheet.table_id] = data
    return out


def _rows(queryset, model, *extra: str) -> list[SimpleNamespace]:
    """The rows with the fields that travel (and ``extra``) as plain values, not model
    instances: building the instances was a third of a live push's dump of a 400-player
    event (the same values: the fields' converters run either way)."""
    names = [*extra, *(attname for _name, attname, _user in field_plan(model))]
    return [
        SimpleNamespace(**dict(zip(names, row, strict=True)))
        for row in queryset.values_list(*names)
    ]


def _participants(event: Event) -> list[SimpleNamespace]:
    """The event's participants in id order as plain values (see `_rows`), each with its
    ``player`` and ``club`` (None without one); a player or club is one object for all."""
    own = [attname for _name, attname, _user in field_plan(Participant)]
    related = {
        "player": [attname for _name, attname, _user in field_plan(Player)],
        "club": [attname for _name, attname, _user in field_plan(Club)],
    }
    names = ["pk", "player_id", "club_id", *own]
    for prefix, fields in related.items():
        names += [f"{prefix}__{attname}" for attname in fields]
    found: dict[tuple[str, int], SimpleNamespace] = {}
    out = []
    query = Participant.objects.filter(event=event).order_by("pk").values_list(*names)
    for row in query:
        values = dict(zip(names, row, strict=True))
        participant = SimpleNamespace(**{name: values[name] for name in names[: 3 + len(own)]})
        for prefix, fields in related.items():
            pk = values[f"{prefix}_id"]
            if pk is not None and (prefix, pk) not in found:
                data = {attname: values[f"{prefix}__{attname}"] for attname in fields}
                found[prefix, pk] = SimpleNamespace(pk=pk, **data)
            setattr(participant, prefix, None if pk is None else found[prefix, pk])
        out.append(participant)
    return out


def _rows_by_id(ids: list[int]):
    for start in range(0, len(ids), 500):  # (SQLite's limit of parameters in one query)
        yield from SheetVersion.objects.filter(pk__in=ids[start : start + 500])


def _dump_section(obj, model, skip=()) -> dict:
    """A section's row with its users as usernames (read from the row's own users)."""
    names = {}
    for name, attname, is_user in field_plan(model, tuple(skip)):
        if is_user and getattr(obj, attname) is not None:
            names[getattr(obj, attname)] = getattr(obj, name).get_username()
    return _dump_fields(obj, model, skip, usernames=names)


def dumps(data: dict) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1, sort_keys=False) + "\n"


# ----- checks ------------------------------------------------------------------------------
