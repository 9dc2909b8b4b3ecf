"""Writing the differences between the server's copy of an event and the checked document
the laptop's parts make of it (`live.server.apply`): the event's fields, the roster (clubs,
players, participants, pairs and teams), series with their tables and seats, sheets with
their versions and hands, the sections. Rows that already hold what the document says are
left alone, so a part applied twice writes nothing. Derived values (hands, points, seat
totals) are written by `scoring.sheets.storage` as the archive import writes them.
"""

from __future__ import annotations

from django.db.models import ProtectedError
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history

from clubs.models import Player
from live.models import ReceivedEvent
from live.server.apply_errors import ApplyError
from live.shared import protocol
from prizes.models import EntryFee, EntryPayment, PrizePlan
from scoring.archive import sections
from scoring.archive.fields import remap_series_json
from scoring.archive.load import ImportResult, _club, _season, _users
from scoring.archive.rows import Loader, create_versions
from scoring.models import Hand, Sheet, SheetVersion
from scoring.sheets.storage import refresh_seat_totals, store_hands
from tournaments.models import Category, Group, GroupMember, Participant, Seat, Series, Table
from tournaments.results import bump_results_version

PLAYER_FIELDS = ("given_name", "family_name", "birth_year", "gender")


class Refs:
    """``ReceivedEvent.refs``: {"participant": {"<laptop ref>": server id}, "players":
    [player numbers a push of this laptop created here]}. Within this event only."""

    def __init__(self, data: dict):
        self.data = data

    def participants(self) -> dict[int, int]:
        return {int(ref): pk for ref, pk in self.data.get("participant", {}).items()}

    def laptop_of(self) -> dict[int, int]:
        return {pk: ref for ref, pk in self.participants().items()}

    def set_participants(self, mapping: dict[int, int]) -> None:
        self.data["participant"] = {str(ref): pk for ref, pk in sorted(mapping.items())}

    def add_players(self, numbers) -> None:
        self.data["players"] = sorted(set(self.data.get("players", [])) | set(numbers))

    @staticmethod
    def players_of_origin(origin: str) -> set[str]:
        mine: set[str] = set()
        for refs in ReceivedEvent.objects.filter(origin=origin).values_list("refs", flat=True):
            mine.update((refs or {}).get("players", []))
        return mine


def player_differs(player: Player, data: dict) -> bool:
    return any(getattr(player, name) != data.get(name, getattr(player, name)) for name in
               PLAYER_FIELDS)  # fmt: skip


def player_text(player: Player, data: dict) -> str:
    def shown(given, family, year):
        return f"{given} {family}, {year or '?'}"

    return _(
        "Player number %(number)s is “%(here)s” here, but the laptop sends “%(sent)s”. "
        "Players are never merged: make the two agree (on the laptop or in this server's "
        "register)."
    ) % {
        "number": player.player_number,
        "here": shown(player.given_name, player.family_name, player.birth_year),
        "sent": shown(data.get("given_name"), data.get("family_name"), data.get("birth_year")),
    }


def _clear_categories(event) -> None:
    Category.objects.filter(event=event).delete()


def _clear_prizes(event) -> None:
    EntryPayment.objects.filter(participant__event=event).delete()
    EntryFee.objects.filter(event=event).delete()
    PrizePlan.objects.filter(event=event).delete()


# What replacing a section first removes (sections.py knows how to load, not to remove).
CLEAR = {"categories": _clear_categories, "prizes": _clear_prizes}


def _without_sheets(series: dict) -> dict:
    return {**series, "tables": [{**t, "sheet": None} for t in series["tables"]]}


class Writer:
    """Makes the server's event equal to ``new`` (checked), knowing it equals ``current``."""

    def __init__(self, event, received, refs: Refs, current, new, plans, actor, reason):
        self.event, self.received, self.refs = event, received, refs
        self.current, self.new, self.plans = current, new, plans
        self.actor, self.reason = actor, reason
        self.result = ImportResult(event=event)
        self.loader: Loader | None = None
        self.pid = refs.participants()
        self.gone: set[int] = set()  # server ids of participants the laptop removed
        self.reseated: set[tuple[int, int]] = set()  # tables whose players changed
        self.written: set[tuple[int, int]] = set()  # sheets written from their part
        self.changed = False

    def run(self, *, ruleset_changed: bool) -> bool:
        self.loader = Loader(_users(self.new, self.result), self.actor)
        if self.new["event"] != self.current["event"]:
            self.event_fields()
        if any(self.new[k] != self.current[k] for k in ("clubs", "players", "participants")):
            self.roster()
        if self.new["groups"] != self.current["groups"]:
            self.groups()
        self.series()
        self.sheets(ruleset_changed)
        self.sections()
        self.remove_participants()
        return self.changed

    def bump(self) -> None:
        bump_results_version(self.event.pk)

    def _history(self, obj):
        obj._history_user = self.actor
        obj._change_reason = self.reason
        return obj

    # ----- the event and its roster -----------------------------------------------------------

    def event_fields(self) -> None:
        data, event = self.new["event"], self.event
        if data["club"]["short_name"] != event.club.short_name:
            raise ApplyError(
                _("The event belongs to %(here)s here; it cannot move to another club.")
                % {"here": event.club.short_name},
                f"{protocol.EVENT} $.club.short_name",
            )
        event.season = _season(data["season"], event.club, self.loader, self.result)
        self.loader.fill(
            event,
            data,
            ["event"],
            skip=("club", "season", "ruleset_slug", "ruleset_overrides"),
            extra=("ruleset",),
        )
        event.ruleset_slug = data["ruleset"]["slug"]
        event.ruleset_overrides = data["ruleset"]["overrides"]
        event.__dict__.pop("ruleset", None)
        self._history(event).save()
        self.changed = True

    def roster(self) -> None:
        new = self.new
        clubs = {self.event.club.short_name: self.event.club}
        for i, data in enumerate(new["clubs"]):
            clubs[data["short_name"]] = _club(data, ["clubs", i], self.loader, self.result)
        players = self._players()
        old = {p["ref"]: p for p in self.current["participants"]}
        wanted = {p["ref"]: (i, p) for i, p in enumerate(new["participants"])}
        self.gone = {self.pid[ref] for ref in set(old) - set(wanted)}
        # Those no seat, hand or total names go first: the player may be registered again.
        free = Participant.objects.filter(
            pk__in=self.gone, seats__isnull=True, hand_seats__isnull=True, seat_totals__isnull=True
        ).distinct()
        for participant in free:
            self._history(participant).delete()
        self.gone -= {p.pk for p in free}
        for ref in set(old) - set(wanted):
            self.pid.pop(ref)
        created = []
        for ref in sorted(wanted):
            i, data = wanted[ref]
            if old.get(ref) == data:
                continue
            participant = (
                Participant.objects.get(pk=self.pid[ref])
                if ref in self.pid
                else Participant(event=self.event)
            )
            participant.player = players[data["player_number"]]
            short = data["club_short_name"]
            participant.club = clubs[short] if short else None
            self.loader.fill(
                participant,
                data,
                ["participants", i],
                extra=("ref", "player_number", "club_short_name"),
            )
            if participant.pk is None:
                created.append((ref, participant))
            else:
                self._history(participant).save()
        objs = bulk_create_with_history(
            [p for _ref, p in created],
            Participant,
            default_user=self.actor,
            default_change_reason=self.reason,
        )
        for (ref, _p), obj in zip(created, objs, strict=True):
            self.pid[ref] = obj.pk
        self.refs.set_participants(self.pid)
        self.changed = True

    def _players(self) -> dict[str, Player]:
        wanted = {p["player_number"]: (i, p) for i, p in enumerate(self.new["players"])}
        known = {p.player_number: p for p in Player.objects.filter(player_number__in=wanted)}
        mine = Refs.players_of_origin(self.received.origin)
        created = []
        for number, (i, data) in wanted.items():
            player = known.get(number)
            if player is not None and not player_differs(player, data):
                continue
            if player is not None and number not in mine:
                raise ApplyError(player_text(player, data), f"{protocol.ROSTER} $.players[{i}]")
            player = self.loader.fill(player or Player(), data, ["players", i])
            if player.pk is None:
                created.append(number)
            self._history(player).save()
            known[number] = player
        self.refs.add_players(created)
        return known

    def groups(self) -> None:
        Group.objects.filter(event=self.event).delete()
        groups = [
            self.loader.fill(Group(event=self.event), g, ["groups", i], extra=("members",))
            for i, g in enumerate(self.new["groups"])
        ]
        groups = bulk_create_with_history(
            groups, Group, default_user=self.actor, default_change_reason=self.reason
        )
        GroupMember.objects.bulk_create(
            GroupMember(group=group, participant_id=self.pid[ref], kind=group.kind)
            for group, g in zip(groups, self.new["groups"], strict=True)
            for ref in g["members"]
        )
        self.changed = True

    def remove_participants(self) -> None:
        if not self.gone:
            return
        try:
            for participant in Participant.objects.filter(pk__in=self.gone):
                self._history(participant).delete()
        except ProtectedError:
            raise ApplyError(
                _("A participant the laptop removed is still named by a seat or a sheet here."),
                f"{protocol.ROSTER} $.participants",
            ) from None
        self.changed = True

    # ----- series, tables, seats --------------------------------------------------------------

    def series(self) -> None:
        old = {s["number"]: s for s in self.current["series"]}
        new = {s["number"]: s for s in self.new["series"]}
        gone = set(old) - set(new)
        if gone:
            for series in Series.objects.filter(event=self.event, number__in=gone):
                self._history(series).delete()
            self.changed = True
        for index, data in enumerate(self.new["series"]):
            number = data["number"]
            if number in old and _without_sheets(old[number]) == _without_sheets(data):
                continue
            self._one_series(index, data, old.get(number))
            self.changed = True

    def _one_series(self, index: int, data: dict, old: dict | None) -> None:
        path = ["series", index]
        obj = Series.objects.filter(event=self.event, number=data["number"]).first()
        obj = obj or Series(event=self.event)
        fields = dict(data)
        remap_series_json(fields, self.pid)
        self.loader.fill(obj, fields, path, extra=("tables",))
        self._history(obj).save()
        tables = {t.number: t for t in Table.objects.filter(series=obj)}
        wanted = {t["number"]: t for t in data["tables"]}
        Table.objects.filter(pk__in=[t.pk for n, t in tables.items() if n not in wanted]).delete()
        before = {t["number"]: t["seats"] for t in (old or {}).get("tables", [])}
        new_tables = [
            self.loader.fill(Table(series=obj), t, [*path, "tables", ti], extra=("seats", "sheet"))
            for ti, t in enumerate(data["tables"])
            if t["number"] not in tables
        ]
        for table in Table.objects.bulk_create(new_tables):
            tables[table.number] = table
        changed = [n for n, t in wanted.items() if before.get(n) != t["seats"]]
        if not changed:
            return
        for seat in Seat.objects.filter(table__in=[tables[n] for n in changed]):
            self._history(seat).delete()
        seats = [
            Seat(table=tables[n], series=obj, position=position, participant_id=self.pid[ref])
            for n in changed
            for position, ref in enumerate(wanted[n]["seats"])
        ]
        bulk_create_with_history(
            seats, Seat, default_user=self.actor, default_change_reason=self.reason
        )
        self.reseated.update((data["number"], n) for n in changed if n in before)

    # ----- sheets -----------------------------------------------------------------------------

    def sheets(self, ruleset_changed: bool) -> None:
        old = _sheets_of(self.current)
        new = _sheets_of(self.new)
        tables = {
            (t.series.number, t.number): t
            for t in Table.objects.filter(series__event=self.event).select_related("series")
        }
        stored = {s.table_id: s for s in Sheet.objects.filter(table__series__event=self.event)}
        for key in set(old) - set(new):
            table = tables.get(key)
            if table is not None and table.pk in stored:
                stored.pop(table.pk).delete()
                self.changed = True
        for key, (path, data) in new.items():
            same = key in old and old[key][1] == data
            if same and key not in self.reseated and not ruleset_changed:
                continue
            table = tables[key]
            same = same and table.pk in stored
            if same:
                self._rescore(stored[table.pk], key)
            else:
                self._write_sheet(table, stored.get(table.pk), old.get(key), data, path)
            self.changed = True

    def _write_sheet(self, table, sheet, old, data: dict, path: list) -> None:
        versions = data["versions"]
        kept = old[1]["versions"] if old is not None and sheet is not None else []
        if kept != versions[: len(kept)]:
            SheetVersion.objects.filter(sheet=sheet).delete()
            kept = []
        sheet = sheet or Sheet(table=table)
        self.loader.fill(sheet, data, path, extra=("versions",))
        sheet.save()
        start = len(kept)
        create_versions(self.loader, [(sheet, list(enumerate(versions))[start:], path)])
        self._rescore(sheet, (table.series.number, table.number))

    def _rescore(self, sheet: Sheet, key: tuple[int, int]) -> None:
        """The sheet's hands from its current content, with the players now seated."""
        plan = self.plans[key]
        if plan.check is not None and plan.numbers:
            seats = Seat.objects.filter(table_id=sheet.table_id).order_by("position")
            participants = list(seats.values_list("participant_id", flat=True))
            store_hands(sheet, plan.check, participants, plan.numbers, self.event.ruleset)
        else:
            Hand.objects.filter(sheet=sheet).delete()
            refresh_seat_totals([sheet.pk])

    # ----- sections ---------------------------------------------------------------------------

    def sections(self) -> None:
        names = [s.name for s in sections.registered()]
        if all(self.new.get(name) == self.current.get(name) for name in names):
            return
        for section in reversed(sections.registered()):
            clear = CLEAR.get(section.name)
            if clear is None:
                raise ApplyError(
                    _("The section %(name)s cannot be replaced here.") % {"name": section.name},
                    protocol.section_key(section.name),
                )
            clear(self.event)
        context = sections.LoadContext(
            self.event,
            self.pid,
            self.loader.users,
            self.actor,
            self.reason,
            self.loader.fill,
            self.result.created,
        )
        sections.load_all(self.new, context)
        self.changed = True


def _sheets_of(document: dict) -> dict[tuple[int, int], tuple[list, dict]]:
    return {
        (s["number"], t["number"]): (["series", si, "tables", ti, "sheet"], t["sheet"])
        for si, s in enumerate(document["series"])
        for ti, t in enumerate(s["tables"])
        if t["sheet"] is not None
    }
