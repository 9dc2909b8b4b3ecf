"""The national list of the federation JSON spliced from the texts stored with the rows
(issue 38, target 6): the same bytes as the lines built and encoded per request, in
either language, and for rows written before the texts."""

import gzip

import orjson
import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import translation

from federation.models import SnapshotLine
from federation.public import api
from federation.public import selectors as public
from federation.rankings.snapshots import newest_snapshot, snapshot_lines
from tests.federation.public_helpers import build

pytestmark = pytest.mark.django_db


@pytest.fixture
def fed(national, region_a, region_b, club_a, club_b, affiliation_a, affiliation_b):
    cache.clear()
    return build(national, region_a, region_b, club_a, club_b)


def built_per_request(ranking, language: str) -> bytes:
    """The answer as the view wrote it before the texts: every line through
    `public_line` and the reason translated, the whole encoded by `api._json`."""
    state = public.ranking_state(ranking.pk)
    lines = snapshot_lines(newest_snapshot(ranking), results=False)
    with translation.override(language):
        head = {
            "ranking": {"id": state.pk, "name": state.name},
            "association": {"id": state.association_id, "name": state.association_name},
            "region": None,
            "snapshot": api._snapshot_json(state),
            "lines": [api._line_json(line) for line in lines],
        }
        return api._json(head).content


def national(ranking, language: str) -> bytes:
    cache.clear()
    address = reverse("federation_api:ranking", args=[ranking.pk]) + f"?lang={language}"
    response = Client().get(address)
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    return response.content


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_spliced_list_is_the_built_one_byte_for_byte(fed, language):
    expected = built_per_request(fed["ranking"], language)
    assert national(fed["ranking"], language) == expected
    data = orjson.loads(expected)
    assert [line["hidden"] for line in data["lines"]] == [False, True, False, False]
    assert [bool(line.get("reason")) for line in data["lines"]] == [False] * 3 + [True]


def test_the_reason_is_in_the_readers_language(fed):
    german, english = (orjson.loads(national(fed["ranking"], code)) for code in ("de", "en"))
    assert german["lines"][3]["reason"] != english["lines"][3]["reason"]


def test_rows_written_before_the_texts_give_the_same_bytes(fed):
    expected = built_per_request(fed["ranking"], "de")
    rows = SnapshotLine.objects.filter(snapshot=newest_snapshot(fed["ranking"]))
    assert rows.update(public="") == 4
    assert national(fed["ranking"], "de") == expected


def test_the_stored_text_is_the_public_line_only(fed):
    rows = SnapshotLine.objects.filter(snapshot=newest_snapshot(fed["ranking"]))
    texts = rows.order_by("position").values_list("public", flat=True)
    hidden = orjson.loads(texts[1])
    assert hidden["hidden"] and hidden["player"] is None and hidden["name"] is None
    for text in texts:
        assert "regions" not in text and "birth_year" not in text and "results" not in text


def test_the_gzip_form_is_made_when_asked_for_from_the_plain_render(fed, django_assert_num_queries):
    cache.clear()
    address = reverse("federation_api:ranking", args=[fed["ranking"].pk])
    client = Client()
    plain = client.get(address)
    assert "Content-Encoding" not in plain
    with django_assert_num_queries(1):  # the ranking's state only: the list not read again
        packed = client.get(address, HTTP_ACCEPT_ENCODING="gzip")
    assert packed["Content-Encoding"] == "gzip" and packed["ETag"] == plain["ETag"][:-1] + '-gz"'
    assert gzip.decompress(packed.content) == plain.content
    again = client.get(address, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=packed["ETag"])
    assert again.status_code == 304


def test_the_stored_text_never_carries_a_regional_rank():
    from federation.rankings.public_lines import public_text

    line = {"player": 7, "name": "Anna", "club": "HDK", "rank": 1, "value": "40.5",
            "listed": True, "events_counted": 3, "best": "29", "regions": [3]}  # fmt: skip
    assert public_text(line | {"region_rank": 1}) == public_text(line)
    assert list(orjson.loads(public_text(line))) == [
        "rank", "value", "listed", "events_counted", "best", "hidden", "player", "name", "club"
    ]  # fmt: skip
