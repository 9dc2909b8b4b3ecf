"""Archive -> event: `loads` reads the text, `import_event` checks the document
(`scoring.archive.validate`) and rebuilds the event in one transaction, or refuses it with
`ArchiveError`, which names the JSON path of the first bad field
("$.series[1].tables[3].sheet.versions[0].grid...").

Only raw facts travel: no ``Hand``/``HandSeat`` rows. The importing installation stores the
hands of each sheet's current content (its newest non-blind version) the way a save does
(`scoring.sheets.storage.store_hands`), so every point is derived by its own
``rules``. Ids are renumbered; the lots seed travels with the event (so lots drawn
from the stored seed come out the same after an import).
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import formats, translation
from django.utils.dateparse import parse_date
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history

from clubs.models import Club, Player
from common import limits
from scoring.archive import sections
from scoring.archive.fields import is_user_fk, model_fields, remap, user_model
from scoring.archive.rows import Loader as _Loader
from scoring.archive.rows import create_versions
from scoring.archive.validate import ArchiveError, json_reason, validate
from scoring.models import Sheet, SheetVersion
from scoring.sheets.storage import store_hands
from tournaments.models import Event, Group, GroupMember, Participant, Season, Seat, Series, Table
from tournaments.results import bump_results_version


@dataclass
class ImportResult:
    event: Event
    warnings: list[str] = field(default_factory=list)
    created: dict[str, int] = field(default_factory=dict)


# ----- export ------------------------------------------------------------------------------


def _users(data: dict, result: ImportResult) -> dict[str, Any]:
    names = set()
    event = data["event"]
    for f in model_fields(Event):
        if is_user_fk(f) and event.get(f.name):
            names.add(event[f.name])
    series_users = [f.name for f in model_fields(Series) if is_user_fk(f)]
    sheet_users = [f.name for f in model_fields(Sheet) if is_user_fk(f)]
    version_users = [f.name for f in model_fields(SheetVersion) if is_user_fk(f)]
    for series in data["series"]:
        names.update(series[key] for key in series_users if series.get(key))
        for table in series["tables"]:
            sheet = table["sheet"]
            if not sheet:
                continue
            names.update(sheet[key] for key in sheet_users if sheet.get(key))
            for version in sheet["versions"]:
                names.update(version[key] for key in version_users if version.get(key))
    names.update(sections.usernames(data))
    User = user_model()
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
                _("club %(club)s: named %(here)s here, %(file)s in the file (kept)")
                % {"club": club.short_name, "here": repr(club.name), "file": repr(data["name"])}
            )
        return club
    club = loader.fill(Club(), data, path)
    if Club.objects.filter(name=club.name).exists():
        result.warnings.append(
            _("club %(club)s: another club here is named %(name)s; created as %(new)s")
            % {
                "club": club.short_name,
                "name": repr(club.name),
                "new": f"{club.name} ({club.short_name})",
            }
        )
        club.name = f"{club.name} ({club.short_name})"
    number = club.association_number
    if number and Club.objects.filter(association_number=number).exists():
        result.warnings.append(
            _(
                "club %(club)s: association number %(number)s belongs to another club here; "
                "left blank"
            )
            % {"club": club.short_name, "number": number}
        )
        club.association_number = ""
    club._change_reason = result_reason(result)
    club._history_user = loader.actor
    club.save()
    result.created["clubs"] = result.created.get("clubs", 0) + 1
    return club


def result_reason(result: ImportResult) -> str:
    return _("Imported from an event archive")


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
                _("season %(season)s: dates differ from the file; the existing season is used")
                % {"season": season.name}
            )
        return season
    season = loader.fill(Season(club=club), data, ["event", "season"], skip=("club",))
    season._change_reason = result_reason(result)
    season._history_user = loader.actor
    season.save()
    result.created["seasons"] = 1
    return season


class _CheckedOnly(Exception):
    """Rolls a check-only import back, carrying what it would have created."""

    def __init__(self, result: ImportResult):
        self.result = result


def import_event(
    data, *, rename: str | None = None, actor=None, plans=None, check_only: bool = False
) -> ImportResult:
    """Check ``data`` and rebuild its event here, all or nothing.

    Raises ArchiveError (schema, semantics, a duplicate event, a value this installation
    refuses), with nothing written. Players are matched by player number and clubs by
    short name (existing ones are reused as they are); users are matched by username
    and created inactive, without a usable password, when missing. ``plans``: what
    ``validate(data)`` returned for this very document, when the caller checked it first.
    ``check_only`` runs the whole import and rolls it back: the same warnings and counts
    (the command's ``--check``, the import page's "check only"), nothing kept.
    """
    try:
        with transaction.atomic():
            result = _rebuild(data, rename=rename, actor=actor, plans=plans)
            if check_only:
                raise _CheckedOnly(result)
    except _CheckedOnly as checked:
        return checked.result
    return result


def _rebuild(data, *, rename: str | None, actor, plans) -> ImportResult:
    if plans is None:
        plans = validate(data)
    event_data = data["event"]
    if rename is not None:
        rename = rename.strip()
        if not rename:
            raise ArchiveError("$.event.name", _("the new name is empty"))
        if len(rename) > Event._meta.get_field("name").max_length:
            raise ArchiveError("$.event.name", _("the new name is too long"))
    name = rename or event_data["name"]

    club = Club.objects.filter(short_name=event_data["club"]["short_name"]).first()
    if club is not None:
        duplicate = Event.objects.filter(
            club=club, name=name, start_date=event_data["start_date"]
        ).first()
        if duplicate is not None:
            raise ArchiveError(
                "$.event.name",
                _(
                    "%(club)s already has an event %(name)s on %(date)s (id %(id)s); "
                    "import it under another name"
                )
                % {
                    "club": club.short_name,
                    "name": repr(name),
                    "date": _shown_date(event_data["start_date"]),
                    "id": duplicate.pk,
                },
                code="duplicate",
            )

    result = ImportResult(event=None)  # type: ignore[arg-type]
    reason = result_reason(result)
    users = _users(data, result)
    loader = _Loader(users, actor)
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
                    _("player %(number)s: %(here)s here, %(file)s in the file (kept)")
                    % {
                        "number": number,
                        "here": repr(player.full_name),
                        "file": repr(f"{pdata['given_name']} {pdata['family_name']}"),
                    }
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

    version_objs = create_versions(
        loader,
        (
            (sheet, enumerate(t["sheet"]["versions"]), path)
            for sheet, (_table, t, _plan, path) in zip(sheet_objs, sheet_rows, strict=True)
        ),
    )

    # Derived rows: the hands of each sheet's current content, scored by this installation.
    seats_by_table = defaultdict(list)
    for seat in seats:
        seats_by_table[seat.table_id].append(seat.participant_id)
    hands = 0
    for sheet, (table, _t, plan, _path) in zip(sheet_objs, sheet_rows, strict=True):
        if plan.check is not None and plan.numbers:
            hands += store_hands(
                sheet, plan.check, seats_by_table[table.pk], plan.numbers, event.ruleset
            )

    context = sections.LoadContext(event, pid, users, actor, reason, loader.fill, result.created)
    sections.load_all(data, context)
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
    bump_results_version(event.pk)
    return result


def _shown_date(iso: str) -> str:
    """A date of the file as the reader writes it (14.03.2026); ISO without a language."""
    day = parse_date(iso) if translation.get_language() else None
    return formats.date_format(day, "SHORT_DATE_FORMAT") if day else iso


def _refs_to_ids(violations, pid: dict[int, int]):
    if not isinstance(violations, list):
        return violations
    return [
        {**v, "players": remap(v.get("players"), pid)}
        if isinstance(v, dict) and "players" in v
        else v
        for v in violations
    ]


def _refs_to_ids_playoff(playoff, pid: dict[int, int]):
    if isinstance(playoff, dict) and "participants" in playoff:
        return {**playoff, "participants": remap(playoff["participants"], pid)}
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
        reason = json_reason(err.msg)
        where = {"line": err.lineno, "column": err.colno}
        if reason:
            message = _("not JSON: %(reason)s (line %(line)d, column %(column)d)") % {
                "reason": reason,
                **where,
            }
        else:
            message = _("not JSON: an error at line %(line)d, column %(column)d") % where
        raise ArchiveError("$", message) from None
    except UnicodeDecodeError:
        raise ArchiveError("$", _("not a text file in UTF-8")) from None
    except RecursionError:
        raise ArchiveError("$", _("not JSON: nested too deeply")) from None
    except ValueError:
        raise ArchiveError("$", _("not JSON")) from None
