"""Shared by the submission tests: an event "played elsewhere" (generated here, exported
as an archive, then deleted, so only its players stay in the register), and a POST to the
submissions endpoint with a club token."""

import json

from django.urls import reverse
from django.utils import translation

from scoring.archive.dump import dumps, export_event
from scoring.archive.load import loads
from scoring.demo.generate import Plan, generate_event
from scoring.models import Hand, Sheet
from tests.factories import MembershipFactory, PlayerFactory
from tournaments.models import Event, Series

ORIGIN = "b" * 32
URL = "/api/federation/v1/submissions"


def people(club, count=8, prefix="S"):
    found = []
    for i in range(count):
        player = PlayerFactory(
            player_number=f"{prefix}{i:04d}", given_name=f"Vorname{i}", family_name=f"Name{i}"
        )
        MembershipFactory(player=player, club=club)
        found.append(player)
    return found


def played(club, players, *, name="Verbandsturnier", series=2, seed=1) -> Event:
    event = generate_event(
        Plan(name=name, club=club, players=players, series=series, rounds=1, seed=seed)
    )
    return Event.objects.get(pk=event.pk)


def archive_of(event) -> dict:
    return loads(dumps(export_event(event)))


def elsewhere(club, players, **kwargs) -> dict:
    """The archive of an event that exists only on the sending installation."""
    event = played(club, players, **kwargs)
    data = archive_of(event)
    Hand.objects.filter(sheet__table__series__event=event).delete()
    Sheet.objects.filter(table__series__event=event).delete()
    Series.objects.filter(event=event).delete()
    event.delete()
    return data


def body(archive, *, origin=ORIGIN, event=7) -> dict:
    return {"origin": origin, "event": event, "archive": archive}


def post(client, token, payload, **extra):
    content = payload if isinstance(payload, bytes | str) else json.dumps(payload)
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return client.post(URL, content, content_type="application/json", **headers, **extra)


def matching_url():
    return reverse("federation_submit:matching_list")


def german(msgid):
    """The German text the server answers."""
    with translation.override("de"):
        return translation.gettext(msgid)
