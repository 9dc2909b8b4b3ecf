"""Hostile content inside a sent archive: whatever the request or the worker finds, the
answer is German JSON, never a 500, and nothing of the event changes. Text that PostgreSQL
cannot store in JSON (a NUL character) and nesting just under the parser's limit are the
cases the request must not pass to the database unchecked."""

import json

import pytest
from django.core.cache import cache

from federation.models import Submission
from live.server.tokens import issue_token
from tests.factories import IMMEDIATE_TASKS
from tests.federation.submit_helpers import body, elsewhere, people, post
from tournaments.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _setup(settings):
    cache.clear()
    settings.TASKS = IMMEDIATE_TASKS


def _nested(depth: int):
    value: object = "x"
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize(
    "spoil",
    [
        lambda a: a["event"].__setitem__("name", "Turnier\u0000"),
        lambda a: a["event"].__setitem__("venue", "\u0000" * 3),
        lambda a: a.__setitem__("extra", _nested(900)),
        lambda a: a["event"].__setitem__("name", "\ud800"),
    ],
    ids=["nul-in-name", "nul-in-venue", "nested-900", "lone-surrogate"],
)
def test_hostile_text_in_an_archive_is_refused_in_german(client, club_a, spoil):
    token = issue_token(club_a, label="Vereinsserver")[1]
    archive = elsewhere(club_a, people(club_a))
    spoil(archive)
    events = Event.objects.count()
    response = post(client, token, body(archive))
    assert response.status_code in (200, 202, 400), response.content
    answer = response.json()
    if response.status_code == 400:
        assert answer["error"] and answer["code"] == "invalid"
    else:
        assert answer["state"] == Submission.State.REFUSED, answer
        assert answer["message"]
    assert Event.objects.count() == events


@pytest.mark.parametrize(
    "raw, refused",
    [
        (b'{"a": "\\ud800"}', True),
        (b'{"a": "x\\udfff"}', True),
        (b'{"a": "Turnier\\u0000"}', True),
        (b'{"a": "\\ud83d\\ude00"}', False),  # a pair: one character, stored as UTF-8
    ],
)
def test_the_archive_limits_refuse_lone_surrogates_and_control_characters(raw, refused):
    from common import limits

    if refused:
        with pytest.raises(limits.LimitExceeded):
            limits.load_json(raw)
    else:
        assert limits.load_json(raw) == {"a": "\U0001f600"}


@pytest.mark.parametrize("number", ["1e999", "-1e999"])
def test_a_number_beyond_a_float_is_refused_in_german(client, club_a, number):
    """ "1e999" is short enough for the digit limit and reads as infinity, which no JSON
    column stores (before: an IntegrityError, a 500)."""
    token = issue_token(club_a, label="Vereinsserver")[1]
    archive = elsewhere(club_a, people(club_a))
    archive["event"]["lots_seed"] = 7654321
    content = json.dumps(body(archive)).replace("7654321", number)
    events, submissions = Event.objects.count(), Submission.objects.count()
    response = post(client, token, content, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 400, response.content
    assert f"„{number}“ ist keine Zahl, die gespeichert werden kann" in response.json()["error"]
    assert (Event.objects.count(), Submission.objects.count()) == (events, submissions)


@pytest.mark.parametrize("number", ["1e999", "-1E400", "1.8e308"])
def test_the_json_limits_refuse_an_infinite_number(number):
    from common import limits

    for parse in (limits.load_json, limits.parse_json_numbers):
        with pytest.raises(limits.LimitExceeded):
            parse(f'{{"a": [1, {number}]}}')
    assert limits.load_json('{"a": 1.5e307}') == {"a": 1.5e307}
