"""The event archive: every raw fact of one event as JSON, and back (see docs/event-format.md).

``export_event(event)`` builds the document, ``import_event(data)`` checks it (the JSON
Schema in ``archive_schema.json`` first, then what a schema cannot say) and rebuilds the
event in one transaction, or refuses it with :class:`ArchiveError`, which names the
JSON path of the first bad field ("$.series[1].tables[3].sheet.versions[0].grid...").

Only raw facts travel: no ``Hand``/``HandSeat`` rows. The importing installation stores
the hands of each sheet's current content (its newest non-blind version) the way a save
does (``scoring.services._store_hands``), so every point is derived by its own
``scoring.rules``.

Model fields are read from ``_meta`` at run time, so a field added to Event, Series,
Participant, Sheet and the others travels without a change here. Foreign keys to users
travel as usernames; participants are referred to by ``ref`` (1, 2, ... in the order of
their ids, so lots drawn from the stored seed come out the same after an import).
"""

from __future__ import annotations

import datetime as dt
import decimal
import json
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.utils import timezone
from simple_history.utils import bulk_create_with_history

from clubs.models import Club, Player
from romme import limits
from scoring.rules import PRESETS, RuleSetError, ruleset_from
from tournaments.models import (
    Event,
    Group,
    GroupMember,
    Participant,
    Season,
    Seat,
    Series,
    Table,
)

from . import selectors
from .messages import problem_message
from .models import Sheet, SheetVersion
from .selectors import GridError

FORMAT = "romme-ledger-event"
VERSION = 1
SCHEMA_PATH = Path(__file__).with_name("archive_schema.json")
REGULAR_TABLE_SIZES = (3, 5)  # what the draw seats; playoffs follow the rule set's limits
MESSAGE_LIMIT = 240


class ArchiveError(Exception):
    """The file is refused; ``path`` is the JSON path of the first bad field."""

    def __init__(self, path: str, message: str):
        self.path = path
        self.message = message
        super().__init__(f"{path}: {message}")


@dataclass
class ImportResult:
    event: Event
    warnings: list[str] = field(default_factory=list)
    created: dict[str, int] = field(default_factory=dict)


# ----- paths ---------------------------------------------------------------------------------


def json_path(parts) -> str:
    """``["series", 1, "tables"]`` -> ``"$.series[1].tables"``."""
    out = "$"
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def _short(text: str) -> str:
    return text if len(text) <= MESSAGE_LIMIT else text[: MESSAGE_LIMIT - 1] + "…"


# ----- generic fields --------------------------------------------------------------------------


def _user_model():
    return get_user_model()


def _is_user_fk(f) -> bool:
    return f.is_relation and f.many_to_one and f.related_model is _user_model()


def _fields(model, skip=()) -> list:
    """The concrete fields that travel: no primary key, no relation other than to a user,
    nothing the model computes itself (``editable=False``, e.g. ``Player.name_key``)
    except automatic timestamps, which are kept for the audit trail."""
    out = []
    for f in model._meta.concrete_fields:
        if f.primary_key or f.name in skip:
            continue
        if f.is_relation and not _is_user_fk(f):
            continue
        auto_time = getattr(f, "auto_now_add", False) or getattr(f, "auto_now", False)
        if not f.editable and not auto_time:
            continue
        out.append(f)
    return out


def _plain(value) -> Any:
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, decimal.Decimal | uuid.UUID):
        return str(value)
    return value


def _dump_fields(obj, model, skip=(), usernames: dict[int, str] | None = None) -> dict:
    data = {}
    for f in _fields(model, skip):
        if _is_user_fk(f):
            user_id = getattr(obj, f.attname)
            data[f.name] = None if user_id is None else usernames[user_id]
        else:
            data[f.name] = _plain(getattr(obj, f.attname))
    return data


class _Loader:
    """Sets model fields from archive objects, collecting the fields this installation
    does not know (one warning per model and field)."""

    def __init__(self, users: dict[str, Any]):
        self.users = users
        self.unknown: dict[str, set[str]] = defaultdict(set)

    def fill(self, obj, data: dict, path: list, *, skip=(), extra=()) -> Any:
        model = type(obj)
        known = {f.name: f for f in _fields(model, skip)}
        for key, value in data.items():
            if key in skip or key in extra:
                continue
            f = known.get(key)
            if f is None:
                self.unknown[model._meta.model_name].add(key)
                continue
            if _is_user_fk(f):
                setattr(obj, f.attname, None if value is None else self.users[value].pk)
                continue
            try:
                python = f.to_python(value)
                if python is None and not f.null:
                    raise ValidationError("may not be null")
                if not f.blank and python in f.empty_values and not isinstance(python, bool):
                    raise ValidationError("may not be empty")
                if f.choices and python not in {c[0] for c in f.flatchoices} and python != "":
                    raise ValidationError(f"{python!r} is not one of the choices")
                if python not in f.empty_values:
                    for validator in f.validators:
                        validator(python)
            except (ValidationError, TypeError, ValueError) as err:
                text = "; ".join(err.messages) if isinstance(err, ValidationError) else str(err)
                raise ArchiveError(json_path([*path, key]), _short(text)) from err
            if (
                settings.USE_TZ
                and isinstance(f, models.DateTimeField)
                and python
                and timezone.is_naive(python)
            ):
                python = timezone.make_aware(python, dt.UTC)
            setattr(obj, f.attname, python)
        return obj

    def warnings(self) -> list[str]:
        return [
            f"{model}: field {name!r} is not known here and was ignored"
            for model, names in sorted(self.unknown.items())
            for name in sorted(names)
        ]


# ----- export ------------------------------------------------------------------------------


def _remap(value, mapping: dict[int, int]):
    """Participant ids inside series JSON (draw violations, playoffs) as refs, or back."""
    if isinstance(value, list):
        return [mapping.get(v) if isinstance(v, int) else v for v in value]
    return value


def _remap_series_json(data: dict, mapping: dict[int, int]) -> None:
    violations = data.get("draw_violations")
    if isinstance(violations, list):
        data["draw_violations"] = [
            {**v, "players": _remap(v.get("players"), mapping)}
            if isinstance(v, dict) and "players" in v
            else v
            for v in violations
        ]
    playoff = data.get("playoff_of")
    if isinstance(playoff, dict) and "participants" in playoff:
        data["playoff_of"] = {**playoff, "participants": _remap(playoff["participants"], mapping)}


def _club_dict(club: Club) -> dict:
    return _dump_fields(club, Club)


def export_event(event: Event) -> dict:
    """The archive of ``event`` as plain data (``json.dumps`` it; see :func:`dumps`)."""
    event = Event.objects.select_related("club", "season").get(pk=event.pk)
    User = _user_model()
    participants = list(
        Participant.objects.filter(event=event).select_related("player", "club").order_by("pk")
    )
    ref_of = {p.pk: ref for ref, p in enumerate(participants, start=1)}
    series_list = list(Series.objects.filter(event=event).order_by("number"))
    tables = list(Table.objects.filter(series__event=event).order_by("series__number", "number"))
    seats = defaultdict(list)
    for seat in Seat.objects.filter(series__event=event).order_by("table_id", "position"):
        seats[seat.table_id].append(ref_of[seat.participant_id])
    sheets = {s.table_id: s for s in Sheet.objects.filter(table__series__event=event)}
    versions = defaultdict(list)
    for version in SheetVersion.objects.filter(sheet__table__series__event=event).order_by(
        "sheet_id", "number"
    ):
        versions[version.sheet_id].append(version)

    user_ids = {event.created_by_id}
    for s in series_list:
        user_ids.update(getattr(s, f.attname) for f in _fields(Series) if _is_user_fk(f))
    for sheet in sheets.values():
        user_ids.update(getattr(sheet, f.attname) for f in _fields(Sheet) if _is_user_fk(f))
    for vs in versions.values():
        user_ids.update(v.created_by_id for v in vs)
    user_ids.discard(None)
    usernames = dict(User.objects.filter(pk__in=user_ids).values_list("pk", User.USERNAME_FIELD))

    event_data = _dump_fields(
        event, Event, skip=("ruleset_slug", "ruleset_overrides"), usernames=usernames
    )
    event_data["ruleset"] = {"slug": event.ruleset_slug, "overrides": event.ruleset_overrides or {}}
    event_data["club"] = _club_dict(event.club)
    event_data["season"] = _dump_fields(event.season, Season) if event.season else None

    other_clubs = {p.club_id: p.club for p in participants if p.club and p.club_id != event.club_id}
    players = sorted({p.player for p in participants}, key=lambda p: p.player_number)

    groups = []
    members = defaultdict(list)
    for m in GroupMember.objects.filter(group__event=event).order_by("group_id", "pk"):
        members[m.group_id].append(ref_of[m.participant_id])
    for group in Group.objects.filter(event=event).order_by("pk"):
        data = _dump_fields(group, Group)
        data["members"] = members[group.pk]
        groups.append(data)

    tables_of = defaultdict(list)
    for table in tables:
        data = _dump_fields(table, Table)
        data["seats"] = seats[table.pk]
        sheet = sheets.get(table.pk)
        if sheet is None:
            data["sheet"] = None
        else:
            sheet_data = _dump_fields(sheet, Sheet, usernames=usernames)
            sheet_data["versions"] = [
                _dump_fields(v, SheetVersion, usernames=usernames) for v in versions[sheet.pk]
            ]
            data["sheet"] = sheet_data
        tables_of[table.series_id].append(data)

    series_out = []
    for s in series_list:
        data = _dump_fields(s, Series, usernames=usernames)
        _remap_series_json(data, ref_of)
        data["tables"] = tables_of[s.pk]
        series_out.append(data)

    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "exported_from": getattr(settings, "SITE_NAME", "") or "Rommé Ledger",
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
    }


def dumps(data: dict) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1, sort_keys=False) + "\n"


# ----- checks ------------------------------------------------------------------------------


@cache
def schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def _document_order(instance, path) -> tuple:
    """Where a path lies in the document (keys in file order, then list indices)."""
    key, node = [], instance
    for part in path:
        if isinstance(node, dict):
            keys = list(node)
            key.append(keys.index(part) if part in keys else len(keys))
            node = node.get(part)
        elif isinstance(node, list) and isinstance(part, int):
            key.append(part)
            node = node[part] if 0 <= part < len(node) else None
        else:
            key.append(0)
            node = None
    return tuple(key)


def check_schema(data) -> None:
    """Raise ArchiveError for the first place (in document order) that breaks the schema."""
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(schema())
    errors = list(validator.iter_errors(data))
    if not errors:
        return
    first = min(errors, key=lambda e: (_document_order(data, e.absolute_path), len(e.path)))
    # anyOf/oneOf: the branch error is more telling than "not valid under any".
    if first.context:
        deepest = max(first.context, key=lambda e: len(e.absolute_path))
        if len(deepest.absolute_path) > len(first.absolute_path):
            first = deepest
    raise ArchiveError(json_path(first.absolute_path), _short(first.message))


@dataclass
class _SheetPlan:
    """What the semantic check learnt about one sheet, reused by the import."""

    path: list
    check: selectors.GridCheck | None
    numbers: list[int]


def _check_semantics(data: dict) -> dict[tuple[int, int], _SheetPlan]:
    """What a schema cannot say; raises ArchiveError at the first problem. Returns the
    checked grid of every sheet, keyed by (series index, table index)."""
    event = data["event"]
    try:
        if event["ruleset"]["slug"] not in PRESETS:
            raise ArchiveError(
                "$.event.ruleset.slug",
                f"unknown rule set {event['ruleset']['slug']!r} (known: {', '.join(PRESETS)})",
            )
        ruleset = ruleset_from(event["ruleset"]["slug"], event["ruleset"]["overrides"])
    except RuleSetError as err:
        codes = ", ".join(p.code for p in err.problems)
        raise ArchiveError("$.event.ruleset.overrides", f"not a valid rule set ({codes})") from err

    club_names = {event["club"]["short_name"]}
    for i, club in enumerate(data.get("clubs", [])):
        if club["short_name"] in club_names:
            raise ArchiveError(json_path(["clubs", i, "short_name"]), "club listed twice")
        club_names.add(club["short_name"])

    numbers = set()
    for i, player in enumerate(data["players"]):
        if player["player_number"] in numbers:
            raise ArchiveError(
                json_path(["players", i, "player_number"]),
                f"player number {player['player_number']!r} appears twice",
            )
        numbers.add(player["player_number"])

    refs: dict[int, dict] = {}
    seen_players = set()
    for i, participant in enumerate(data["participants"]):
        path = ["participants", i]
        if participant["ref"] in refs:
            raise ArchiveError(json_path([*path, "ref"]), f"ref {participant['ref']} appears twice")
        refs[participant["ref"]] = participant
        number = participant["player_number"]
        if number not in numbers:
            raise ArchiveError(
                json_path([*path, "player_number"]), f"no player {number!r} in $.players"
            )
        if number in seen_players:
            raise ArchiveError(
                json_path([*path, "player_number"]), f"player {number!r} takes part twice"
            )
        seen_players.add(number)
        short = participant["club_short_name"]
        if short is not None and short not in club_names:
            raise ArchiveError(
                json_path([*path, "club_short_name"]),
                f"club {short!r} is neither the event's club nor in $.clubs",
            )

    def ref_exists(ref, path):
        if ref not in refs:
            raise ArchiveError(json_path(path), f"no participant with ref {ref}")

    group_names, grouped = set(), set()
    for i, group in enumerate(data["groups"]):
        if (group["kind"], group["name"]) in group_names:
            raise ArchiveError(
                json_path(["groups", i, "name"]), f"two {group['kind']}s named {group['name']!r}"
            )
        group_names.add((group["kind"], group["name"]))
        for j, ref in enumerate(group["members"]):
            ref_exists(ref, ["groups", i, "members", j])
            if (group["kind"], ref) in grouped:
                raise ArchiveError(
                    json_path(["groups", i, "members", j]),
                    f"participant {ref} is in two {group['kind']}s",
                )
            grouped.add((group["kind"], ref))

    plans: dict[tuple[int, int], _SheetPlan] = {}
    series_numbers = set()
    for si, series in enumerate(data["series"]):
        spath = ["series", si]
        if series["number"] in series_numbers:
            raise ArchiveError(
                json_path([*spath, "number"]), f"series {series['number']} appears twice"
            )
        series_numbers.add(series["number"])
        playoff = series.get("kind") == Series.Kind.PLAYOFF
        low, high = (ruleset.players_min, ruleset.players_max) if playoff else REGULAR_TABLE_SIZES
        seated, table_numbers = set(), set()
        for ti, table in enumerate(series["tables"]):
            tpath = [*spath, "tables", ti]
            if table["number"] in table_numbers:
                raise ArchiveError(
                    json_path([*tpath, "number"]), f"table {table['number']} appears twice"
                )
            table_numbers.add(table["number"])
            if not low <= len(table["seats"]) <= high:
                raise ArchiveError(
                    json_path([*tpath, "seats"]),
                    f"{len(table['seats'])} seats; a table seats {low} to {high} players",
                )
            for k, ref in enumerate(table["seats"]):
                ref_exists(ref, [*tpath, "seats", k])
                if ref in seated:
                    raise ArchiveError(
                        json_path([*tpath, "seats", k]),
                        f"participant {ref} is seated twice in series {series['number']}",
                    )
                seated.add(ref)
            if table["sheet"] is not None:
                plans[(si, ti)] = _check_sheet(
                    table["sheet"], [*tpath, "sheet"], ruleset, len(table["seats"]),
                    series["planned_rounds"], table["number"],
                )  # fmt: skip
    return plans


def _check_sheet(sheet, path, ruleset, size, planned_rounds, table_number) -> _SheetPlan:
    versions = sheet["versions"]
    seen = set()
    grids = []
    for k, version in enumerate(versions):
        vpath = [*path, "versions", k]
        if version["number"] in seen:
            raise ArchiveError(
                json_path([*vpath, "number"]), f"version {version['number']} appears twice"
            )
        seen.add(version["number"])
        try:
            grids.append(selectors.normalise_grid(version["grid"], size))
        except GridError as err:
            raise ArchiveError(json_path([*vpath, "grid"]), str(err)) from err
        for index, hand in enumerate(version["grid"]["hands"]):
            if len(hand["seats"]) != size:
                raise ArchiveError(
                    json_path([*vpath, "grid", "hands", index, "seats"]),
                    f"{len(hand['seats'])} seats, but {size} players sit at the table",
                )
    if sheet["version"] != max(seen, default=0):
        raise ArchiveError(
            json_path([*path, "version"]),
            f"the sheet is at version {sheet['version']} but its newest version is "
            f"{max(seen, default=0)}",
        )
    if sheet.get("confirmed_by") and sheet.get("confirmed_by") == sheet.get("entered_by"):
        raise ArchiveError(
            json_path([*path, "confirmed_by"]), "the one who entered a sheet cannot confirm it"
        )
    content = [
        (k, grid)
        for k, (version, grid) in enumerate(zip(versions, grids, strict=True))
        if version["kind"] != SheetVersion.Kind.BLIND
    ]
    if not content:
        if sheet["status"] != Sheet.Status.DRAFT:
            raise ArchiveError(
                json_path([*path, "versions"]),
                f"an {sheet['status']} sheet needs a version holding its content",
            )
        return _SheetPlan(path, None, [])
    k, grid = max(content, key=lambda item: versions[item[0]]["number"])
    draft = sheet["status"] == Sheet.Status.DRAFT
    check = selectors.check_grid(
        grid, ruleset=ruleset, table_size=size, planned_rounds=planned_rounds, partial=draft
    )
    problems = check.malformed if draft else check.problems
    if problems:
        problem = problems[0]
        where = [*path, "versions", k, "grid"]
        if problem.hand is not None:
            where += ["hands", problem.hand - 1]
            if problem.seat is not None:
                where += ["seats", problem.seat]
        text = problem_message(problem, table_number=table_number, seat_names=[])
        raise ArchiveError(json_path(where), _short(text))
    numbers = check.valid_hands if draft else list(range(1, len(check.grid["hands"]) + 1))
    return _SheetPlan(path, check, numbers)


def validate(data) -> dict[tuple[int, int], _SheetPlan]:
    """Schema, then semantics; raises ArchiveError naming the first bad field."""
    check_schema(data)
    return _check_semantics(data)


# ----- import ------------------------------------------------------------------------------


def _users(data: dict, result: ImportResult) -> dict[str, Any]:
    names = set()
    event = data["event"]
    for f in _fields(Event):
        if _is_user_fk(f) and event.get(f.name):
            names.add(event[f.name])
    series_users = [f.name for f in _fields(Series) if _is_user_fk(f)]
    sheet_users = [f.name for f in _fields(Sheet) if _is_user_fk(f)]
    version_users = [f.name for f in _fields(SheetVersion) if _is_user_fk(f)]
    for series in data["series"]:
        names.update(series[key] for key in series_users if series.get(key))
        for table in series["tables"]:
            sheet = table["sheet"]
            if not sheet:
                continue
            names.update(sheet[key] for key in sheet_users if sheet.get(key))
            for version in sheet["versions"]:
                names.update(version[key] for key in version_users if version.get(key))
    User = _user_model()
    users = {getattr(u, User.USERNAME_FIELD): u for u in User.objects.filter(
        **{f"{User.USERNAME_FIELD}__in": names}
    )}  # fmt: skip
    for name in sorted(names - set(users)):
        user = User(**{User.USERNAME_FIELD: name}, is_active=False)
        user.set_unusable_password()
        user.save()
        users[name] = user
        result.created["users"] = result.created.get("users", 0) + 1
    return users


def _club(data: dict, path: list, loader: _Loader, result: ImportResult) -> Club:
    club = Club.objects.filter(short_name=data["short_name"]).first()
    if club is not None:
        if club.name != data["name"]:
            result.warnings.append(
                f"club {club.short_name}: named {club.name!r} here, {data['name']!r} in the file"
                " (kept)"
            )
        return club
    club = loader.fill(Club(), data, path)
    if Club.objects.filter(name=club.name).exists():
        result.warnings.append(
            f"club {club.short_name}: another club here is named {club.name!r}; created as"
            f" {club.name} ({club.short_name})"
        )
        club.name = f"{club.name} ({club.short_name})"
    number = club.association_number
    if number and Club.objects.filter(association_number=number).exists():
        result.warnings.append(
            f"club {club.short_name}: association number {number} belongs to another club here;"
            " left blank"
        )
        club.association_number = ""
    club._change_reason = result_reason(result)
    club.save()
    result.created["clubs"] = result.created.get("clubs", 0) + 1
    return club


def result_reason(result: ImportResult) -> str:
    return "Imported from an event archive"


def _season(data, club, loader, result) -> Season | None:
    if data is None:
        return None
    season = Season.objects.filter(club=club, name=data["name"]).first()
    if season is not None:
        if (season.start_date.isoformat(), season.end_date.isoformat()) != (
            data["start_date"],
            data["end_date"],
        ):
            result.warnings.append(
                f"season {season.name}: dates differ from the file; the existing season is used"
            )
        return season
    season = loader.fill(Season(club=club), data, ["event", "season"], skip=("club",))
    season._change_reason = result_reason(result)
    season.save()
    result.created["seasons"] = 1
    return season


@transaction.atomic
def import_event(data, *, rename: str | None = None, actor=None) -> ImportResult:
    """Check ``data`` and rebuild its event here, all or nothing.

    Raises ArchiveError (schema, semantics, a duplicate event, a value this installation
    refuses), with nothing written. Players are matched by player number and clubs by
    short name (existing ones are reused as they are); users are matched by username
    and created inactive, without a usable password, when missing.
    """
    plans = validate(data)
    event_data = data["event"]
    if rename is not None:
        rename = rename.strip()
        if not rename:
            raise ArchiveError("$.event.name", "the new name is empty")
        if len(rename) > Event._meta.get_field("name").max_length:
            raise ArchiveError("$.event.name", "the new name is too long")
    name = rename or event_data["name"]

    club = Club.objects.filter(short_name=event_data["club"]["short_name"]).first()
    if club is not None:
        duplicate = Event.objects.filter(
            club=club, name=name, start_date=event_data["start_date"]
        ).first()
        if duplicate is not None:
            raise ArchiveError(
                "$.event.name",
                f"{club.short_name} already has an event {name!r} on {event_data['start_date']}"
                f" (id {duplicate.pk}); import it under another name with --rename NEW_NAME",
            )

    result = ImportResult(event=None)  # type: ignore[arg-type]
    reason = result_reason(result)
    users = _users(data, result)
    loader = _Loader(users)
    club = _club(event_data["club"], ["event", "club"], loader, result)
    clubs = {club.short_name: club}
    for i, other in enumerate(data.get("clubs", [])):
        clubs[other["short_name"]] = _club(other, ["clubs", i], loader, result)
    season = _season(event_data["season"], club, loader, result)

    event = Event(club=club, season=season)
    loader.fill(
        event,
        event_data,
        ["event"],
        skip=("club", "season", "ruleset_slug", "ruleset_overrides"),
        extra=("ruleset",),
    )
    event.name = name
    event.ruleset_slug = event_data["ruleset"]["slug"]
    event.ruleset_overrides = event_data["ruleset"]["overrides"]
    created_at = event.created_at
    event._history_user = actor
    event._change_reason = reason
    event.save()
    if created_at:
        Event.objects.filter(pk=event.pk).update(created_at=created_at)
        event.created_at = created_at
    result.event = event

    # Players: matched by number, never overwritten.
    wanted = {p["player_number"]: (i, p) for i, p in enumerate(data["players"])}
    existing = {p.player_number: p for p in Player.objects.filter(player_number__in=wanted)}
    players = {}
    for number, (i, pdata) in wanted.items():
        player = existing.get(number)
        if player is not None:
            if (player.given_name, player.family_name) != (
                pdata["given_name"],
                pdata["family_name"],
            ):
                result.warnings.append(
                    f"player {number}: {player.full_name!r} here, "
                    f"{pdata['given_name']} {pdata['family_name']!r} in the file (kept)"
                )
            players[number] = player
            continue
        player = loader.fill(Player(), pdata, ["players", i])
        player._history_user = actor
        player._change_reason = reason
        player.save()
        players[number] = player
        result.created["players"] = result.created.get("players", 0) + 1

    # Participants in ref order: ids keep their relative order, and so do lots.
    ordered = sorted(enumerate(data["participants"]), key=lambda item: item[1]["ref"])
    participants = [
        loader.fill(
            Participant(
                event=event,
                player=players[p["player_number"]],
                club=clubs[p["club_short_name"]] if p["club_short_name"] else None,
            ),
            p,
            ["participants", i],
            extra=("ref", "player_number", "club_short_name"),
        )
        for i, p in ordered
    ]
    participants = bulk_create_with_history(
        participants, Participant, default_user=actor, default_change_reason=reason
    )
    pid = {p["ref"]: obj.pk for (_i, p), obj in zip(ordered, participants, strict=True)}

    groups = [
        loader.fill(Group(event=event), g, ["groups", i], extra=("members",))
        for i, g in enumerate(data["groups"])
    ]
    groups = bulk_create_with_history(
        groups, Group, default_user=actor, default_change_reason=reason
    )
    GroupMember.objects.bulk_create(
        GroupMember(group=group, participant_id=pid[ref], kind=group.kind)
        for group, g in zip(groups, data["groups"], strict=True)
        for ref in g["members"]
    )

    series_objs = []
    for si, s in enumerate(data["series"]):
        obj = loader.fill(Series(event=event), s, ["series", si], extra=("tables",))
        obj.draw_violations = _refs_to_ids(obj.draw_violations, pid)
        if getattr(obj, "playoff_of", None):
            obj.playoff_of = _refs_to_ids_playoff(obj.playoff_of, pid)
        series_objs.append(obj)
    series_objs = bulk_create_with_history(
        series_objs, Series, default_user=actor, default_change_reason=reason
    )

    table_objs, table_data = [], []
    for si, (series, s) in enumerate(zip(series_objs, data["series"], strict=True)):
        for ti, t in enumerate(s["tables"]):
            table_objs.append(
                loader.fill(
                    Table(series=series), t, ["series", si, "tables", ti], extra=("seats", "sheet")
                )
            )
            table_data.append((si, ti, t))
    table_objs = Table.objects.bulk_create(table_objs)
    seats = [
        Seat(table=table, series_id=table.series_id, position=position, participant_id=pid[ref])
        for table, (_si, _ti, t) in zip(table_objs, table_data, strict=True)
        for position, ref in enumerate(t["seats"])
    ]
    bulk_create_with_history(seats, Seat, default_user=actor, default_change_reason=reason)

    sheet_objs, sheet_rows = [], []
    for table, (si, ti, t) in zip(table_objs, table_data, strict=True):
        if t["sheet"] is None:
            continue
        path = ["series", si, "tables", ti, "sheet"]
        sheet = loader.fill(Sheet(table=table), t["sheet"], path, extra=("versions",))
        sheet_objs.append(sheet)
        sheet_rows.append((table, t, plans[(si, ti)], path))
    sheet_objs = Sheet.objects.bulk_create(sheet_objs)

    version_objs, stamps = [], []
    for sheet, (_table, t, _plan, path) in zip(sheet_objs, sheet_rows, strict=True):
        for k, v in enumerate(t["sheet"]["versions"]):
            version = loader.fill(
                SheetVersion(sheet=sheet), v, [*path, "versions", k], skip=("sheet",)
            )
            stamps.append(version.created_at)
            version_objs.append(version)
    version_objs = SheetVersion.objects.bulk_create(version_objs)
    # auto_now_add stamped "now" on insert; the audit trail keeps the original times.
    for version, stamp in zip(version_objs, stamps, strict=True):
        version.created_at = stamp
    SheetVersion.objects.bulk_update(version_objs, ["created_at"], batch_size=500)

    # Derived rows: the hands of each sheet's current content, scored by this installation.
    from .services import _store_hands

    seats_by_table = defaultdict(list)
    for seat in seats:
        seats_by_table[seat.table_id].append(seat.participant_id)
    hands = 0
    for sheet, (table, _t, plan, _path) in zip(sheet_objs, sheet_rows, strict=True):
        if plan.check is not None and plan.numbers:
            hands += _store_hands(
                sheet, plan.check, seats_by_table[table.pk], plan.numbers, event.ruleset
            )

    result.created.update(
        events=1,
        participants=len(participants),
        groups=len(groups),
        series=len(series_objs),
        tables=len(table_objs),
        sheets=len(sheet_objs),
        versions=len(version_objs),
        hands=hands,
    )
    result.warnings.extend(loader.warnings())
    return result


def _refs_to_ids(violations, pid: dict[int, int]):
    if not isinstance(violations, list):
        return violations
    return [
        {**v, "players": _remap(v.get("players"), pid)}
        if isinstance(v, dict) and "players" in v
        else v
        for v in violations
    ]


def _refs_to_ids_playoff(playoff, pid: dict[int, int]):
    if isinstance(playoff, dict) and "participants" in playoff:
        return {**playoff, "participants": _remap(playoff["participants"], pid)}
    return playoff


def loads(text: str | bytes) -> Any:
    """Parse an archive file within the limits of ``romme.limits`` (size, depth, list
    length, number and text length, no control characters); a file that is not JSON or
    breaks a limit is refused at ``$``."""
    try:
        return limits.load_json(text)
    except limits.LimitExceeded as err:
        raise ArchiveError("$", str(err)) from None
    except json.JSONDecodeError as err:
        raise ArchiveError("$", f"not JSON: {err}") from None
    except (ValueError, RecursionError) as err:
        raise ArchiveError("$", f"not JSON: {str(err)[:200]}") from None
