"""live.shared.parts.fingerprints with what the sender keeps from push to push (KeptDumps):
after every kind of change the parts and their fingerprints equal a full dump's, and only
the sheets that changed are fingerprinted again."""

import copy

import pytest

from live.shared import parts as parts_module
from live.shared.parts import KeptDumps, event_parts, fingerprints
from scoring.models import Sheet
from scoring.sheets.services import change_ruleset, save_sheet
from tests.live.server.test_apply import laptop_event
from tests.live.test_convergence import Laptop
from tournaments.models import Seat, Series
from tournaments.seating import swap_seats

pytestmark = pytest.mark.django_db


def kept_dump(event, kept: KeptDumps, fingerprinted: list | None = None) -> dict[str, str]:
    """The sender's dump with ``kept``, checked against a dump that keeps nothing;
    ``fingerprinted``: the parts it fingerprinted afresh."""
    parts = event_parts(event, kept.versions)
    if fingerprinted is not None:
        fingerprinted.clear()
    prints = fingerprints(parts, kept)
    count = None if fingerprinted is None else len(fingerprinted)
    full = event_parts(event)
    assert parts == full
    assert prints == fingerprints(full)
    if fingerprinted is not None:
        del fingerprinted[count:]
    return prints


def save_draft(laptop: Laptop, k: int) -> None:
    """A new version of the draft sheet (a helper's save)."""
    sheet = laptop._sheets(Sheet.Status.DRAFT)[0]
    grid = sheet.versions.order_by("-number").first().grid
    grid = {**grid, "first_dealer": (grid.get("first_dealer", 0) + k) % len(_seats(sheet))}
    save_sheet(laptop.leader, sheet.table, grid, expected_version=sheet.version)


def _seats(sheet) -> list:
    return list(Seat.objects.filter(table=sheet.table))


def swap(laptop: Laptop, k: int) -> None:
    """Two players swapped between the tables of the newest series (seated, not started)."""
    series = Series.objects.filter(event=laptop.event).order_by("-number").first()
    seats = list(Seat.objects.filter(series=series).order_by("table__number", "position"))
    swap_seats(laptop.leader, series, seats[0].participant_id, seats[-1].participant_id)


def ruleset(laptop: Laptop, k: int) -> None:
    change_ruleset(laptop.leader, laptop.event, "german-minus", {"win_points": 7}, "Hausregel")


def delete_draft(laptop: Laptop, k: int) -> None:
    laptop._sheets(Sheet.Status.DRAFT)[0].delete()


def correct(laptop: Laptop, k: int) -> None:
    """A confirmed sheet corrected: a loser's hand points one more."""
    sheet = laptop._sheets(Sheet.Status.CONFIRMED)[k]
    grid = copy.deepcopy(sheet.versions.order_by("-number").first().grid)
    hand = grid["hands"][0]
    loser = next(i for i, s in enumerate(hand["seats"]) if i != hand["winner"])
    hand["seats"][loser]["hand_points"] = (hand["seats"][loser]["hand_points"] or 0) + 1
    hand["seats"][loser]["cards"] = None
    save_sheet(
        laptop.leader, sheet.table, grid, expected_version=sheet.version, reason="Tippfehler"
    )


def laptop_step(name: str):
    return lambda laptop, k: getattr(laptop, name)(k)


STEPS = [
    ("save", save_draft, {"sheet:3:2"}),
    ("confirm", laptop_step("confirm"), {"sheet:3:1"}),
    ("correct", correct, {"sheet:2:2"}),  # the 6th confirmed sheet (k = 5)
    ("seat", laptop_step("seat"), set()),  # a new series: its part is new
    ("swap", swap, {"series:5"}),
    ("ruleset", ruleset, None),  # the event, and the sheets recomputed
    ("register", laptop_step("register"), {"roster"}),
    ("delete", delete_draft, set()),  # the sheet's part is gone
    ("unseat", laptop_step("unseat"), set()),  # the series' part is gone
]


def test_kept_fingerprints_equal_a_full_dumps_after_each_change(monkeypatch):
    event = laptop_event(players=13, series=4)
    laptop = Laptop(event)
    kept = KeptDumps()
    before = kept_dump(event, kept)
    fingerprinted = []
    real = parts_module.fingerprint

    def counted(data):
        fingerprinted.append(data)
        return real(data)

    monkeypatch.setattr(parts_module, "fingerprint", counted)
    for k, (name, change, expected) in enumerate(STEPS, start=3):
        change(laptop, k)
        now = kept_dump(event, kept, fingerprinted)
        differ = {key for key in now.keys() & before.keys() if now[key] != before[key]}
        assert differ or now.keys() != before.keys(), name
        if expected is not None:
            assert differ == expected, name
        # Fingerprinted afresh: every part but the sheets, and the sheets new or changed.
        sheets = {key for key in now if key.startswith("sheet:")}
        fresh = sheets & (differ | (now.keys() - before.keys()))
        assert len(fingerprinted) == len(now) - len(sheets) + len(fresh), name
        before = now


def test_a_sheet_kept_is_fingerprinted_again_once_it_changes():
    event = laptop_event(players=13, series=4)
    kept = KeptDumps()
    parts = event_parts(event, kept.versions)
    prints = fingerprints(parts, kept)
    changed = {**parts, "sheet:3:1": {**parts["sheet:3:1"], "status": "confirmed"}}
    again = fingerprints(changed, kept)
    assert again["sheet:3:1"] != prints["sheet:3:1"]
    assert {k: v for k, v in again.items() if k != "sheet:3:1"} == {
        k: v for k, v in prints.items() if k != "sheet:3:1"
    }
    assert set(kept.sheets) == {k for k in parts if k.startswith("sheet:")}
    # A part whose key is gone is forgotten: it comes back fingerprinted afresh.
    fingerprints({k: v for k, v in parts.items() if k != "sheet:3:2"}, kept)
    assert "sheet:3:2" not in kept.sheets
