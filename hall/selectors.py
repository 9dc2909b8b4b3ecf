"""What the hall's pages read: the phones' address with its QR, the hall settings and the
backups' state; the events a phone may open."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from django.conf import settings

from common import datafolder, lan
from scoring.sheets.codes import qr_data_uri
from tournaments.models import Event


@dataclass
class StartPanel:
    url: str
    qr: str
    others: tuple[str, ...]
    from_setting: bool
    local_only: bool
    change: lan.AddressChange | None
    data_folder: str
    settings: object
    backups: object
    update: dict | None = None


def update_notice() -> dict | None:
    """{"previous", "version", "copy"} when this start of the hall updated the data folder
    (romme.upgrade wrote version.json's "previous" after the hall process started)."""
    from hall.backups import hall_started

    stamp = datafolder.read_stamp(Path(settings.HALL_DATA_DIR))
    try:
        migrated = datetime.fromisoformat(stamp["migrated_at"])
    except (KeyError, TypeError, ValueError):
        return None
    if not stamp.get("previous") or migrated < hall_started().replace(microsecond=0):
        return None
    return {k: stamp.get(k, "") for k in ("previous", "version", "copy")}


def start_panel() -> StartPanel | None:
    """The laptop's start page in the hall mode; None elsewhere."""
    if not settings.HALL_MODE:
        return None
    from hall import backups, services

    found = lan.hall_address()
    return StartPanel(
        url=found.url,
        qr=qr_data_uri(found.url + "/") if found.url else "",
        others=found.others,
        from_setting=found.from_setting,
        local_only=bool(found.url) and lan.points_to_this_machine(found.url),
        change=lan.address_change(),
        data_folder=str(settings.HALL_DATA_DIR),
        settings=services.load(),
        backups=backups.status(),
        update=update_notice(),
    )


def phone_events():
    """Events with at least one published series: what a phone opening the laptop's address
    can follow (the public page and the hall display)."""
    return (
        Event.objects.filter(series__published=True)
        .distinct()
        .select_related("club")
        .order_by("-start_date", "name")
    )
