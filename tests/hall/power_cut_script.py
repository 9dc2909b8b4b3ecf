"""The power-cut test's helper, run in a subprocess against the hall's data folder (the
test's own process uses the test database):

    python -m tests.hall.power_cut_script setup DIR        # director, event, table links
    python -m tests.hall.power_cut_script restore DIR ID FILE  # manage.py restore_backup FILE,
                                                           # then the event against it

Both print one JSON object.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

TABLES = 6
ROUNDS = 2  # 8 hands at a table of four
PASSWORD = "Saal-Leitung-2026!"
EVENT = "Saalturnier Stromausfall"


def _django(folder: Path) -> None:
    os.environ.update(
        HALL_MODE="1", ROMME_DATA=str(folder), DJANGO_SETTINGS_MODULE="romme.settings"
    )
    os.environ.pop("DEBUG", None)
    os.environ.pop("DATABASE_URL", None)
    import django

    django.setup()


def setup(folder: Path) -> dict:
    """A fresh data folder: the director (as the first start makes him), 24 players, series 1
    confirmed, series 2 in play with a link per table."""
    _django(folder)
    import datetime as dt

    from django.core.management import call_command

    from clubs.models import Membership, Player
    from hall.services import first_start
    from scoring.demo.generate import Plan, generate_event
    from scoring.sheets.table.links import create_table_links

    call_command("migrate", verbosity=0)
    director, club = first_start(
        username="leitung", password=PASSWORD, club_name="Rommé-Club Hameln",
        club_short_name="RC Hameln",
    )  # fmt: skip
    players = []
    for i in range(TABLES * 4):
        player = Player.objects.create(
            given_name=f"Jürgen{i}", family_name=f"Saalmann{i:02d}", player_number=f"S{i:04d}"
        )
        Membership.objects.create(player=player, club=club, valid_from=dt.date(2020, 1, 1))
        players.append(player)
    event = generate_event(
        Plan(name=EVENT, club=club, players=players, series=2, rounds=ROUNDS,
             confirmed_series=1, seed=26)
    )  # fmt: skip
    links = create_table_links(director, event.series.get(number=2))
    return {
        "event": event.pk,
        "ruleset": event.ruleset_slug,
        "links": [
            {"table": link.table.number, "token": link.token, "codes": link.seat_codes}
            for link in sorted(links, key=lambda link: link.table.number)
        ],
    }


def restore(folder: Path, event_id: int, backup: str) -> dict:
    """`manage.py restore_backup <backup>` (one Django start less than a process of its own),
    then the event and its restored copy ("… (Sicherung hh:mm)"): their archives without
    what must differ (the name, the export time) and the archive test's standings helper."""
    _django(folder)
    from io import StringIO

    from django.core.management import call_command

    from scoring.archive.dump import dumps, export_event
    from tests.archive.test_archive import results
    from tournaments.models import Event

    said = StringIO()
    call_command("restore_backup", backup, stdout=said)
    original = Event.objects.get(pk=event_id)
    restored = Event.objects.filter(name__startswith=f"{original.name} (").latest("pk")
    documents = []
    for event in (original, restored):
        data = json.loads(dumps(export_event(event)))
        data.pop("exported_at")
        data["event"].pop("name")
        documents.append(data)
    differing = sorted(k for k in documents[0] if documents[0][k] != documents[1].get(k))
    mine, theirs = results(original), results(restored)
    return {
        "said": said.getvalue(),
        "restored": restored.pk,
        "name": restored.name,
        "archive_equal": documents[0] == documents[1],
        "differing": differing,
        "results_equal": mine == theirs,
        "differing_results": sorted(k for k in mine if mine[k] != theirs.get(k)),
        "hands": mine["hands"],
    }


if __name__ == "__main__":
    command, folder = sys.argv[1], Path(sys.argv[2])
    if command == "setup":
        print(json.dumps(setup(folder)))
    else:
        print(json.dumps(restore(folder, int(sys.argv[3]), sys.argv[4])))
