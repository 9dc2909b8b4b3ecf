"""The members' ranking list sorted by a column reads one page in the database's order
(SnapshotLine's sort columns): the same rows in the same order as sorting every line in
Python, for every sortable column both ways, with umlauts, ties and a club left empty."""

import random

import pytest
from django.test import RequestFactory
from django.urls import reverse
from django_tables2 import RequestConfig

from federation.lists.selectors import ranking_list
from federation.lists.tables import RankingLinesTable
from federation.models import RankingSnapshot
from federation.rankings.snapshots import decorate
from tests.federation.list_helpers import AS_OF
from tests.federation.status_helpers import make_ranking

GIVEN = ["Änne", "Anna", "Ole", "Öztürk", "Zoë", "Jürgen", "Jurgen", "Bernd", "ßara", "Ida"]
FAMILY = ["Müller", "Mueller", "Muller", "Weiß", "Weiss", "Özdemir", "Adler", "Zander"]
CLUBS = ["KSL Kassel", "Rommé Fulda", "", "Ärzte-Rommé", "rc Ulm"]


def lines(count: int, regions) -> list[dict]:
    rng = random.Random(28)
    out, rank, value = [], 0, 2000
    for i in range(count):
        if rng.random() > 0.3:  # else tied with the line before
            rank, value = i + 1, value - rng.randint(1, 40)
        out.append({
            "player": 9_000_000 + i, "name": f"{rng.choice(GIVEN)} {rng.choice(FAMILY)}",
            "club": rng.choice(CLUBS), "regions": [rng.choice(regions).pk], "rank": rank,
            "value": f"{value}.{rng.choice(['00', '50'])}", "listed": True, "hidden": False,
            "events_counted": rng.randint(1, 5), "best": "9", "reason": "", "results": [],
        })  # fmt: skip
    return out


@pytest.fixture
def long_list(national, region_a, region_b):
    ranking = make_ranking(national, "Sortiert")
    RankingSnapshot.objects.create(ranking=ranking, number=1, as_of=AS_OF,
                                   settings=ranking.settings,
                                   lines=lines(260, [region_a, region_b]))  # fmt: skip
    return ranking


def _names(table) -> list:
    return [(row.record["player"], row.record["name"]) for row in table.page.object_list]


SORTS = ["rank", "-rank", "name", "-name", "club", "-club",
         "events_counted", "-events_counted", "points", "-points"]  # fmt: skip


@pytest.mark.parametrize("sort", SORTS)
def test_a_page_sorted_by_the_database_equals_python_sorting_every_line(long_list, superuser, sort):
    page = ranking_list(superuser, long_list, results=False, lazy=True)
    everything = [decorate(line) for line in page.listed.everything()]
    assert len(everything) == 260
    for number in (1, 2, 3):
        request = RequestFactory().get("/", {"sort": sort, "page": number})
        lazy = RankingLinesTable(ranking_list(superuser, long_list, results=False,
                                              lazy=True).listed, long_list)  # fmt: skip
        plain = RankingLinesTable(list(everything), long_list)
        for table in (lazy, plain):
            RequestConfig(request, paginate={"per_page": 100}).configure(table)
        assert _names(lazy) == _names(plain), (sort, number)
        assert _names(lazy)  # a page with rows (3 pages of 100, 100, 60)


def test_the_sorted_members_page_shows_the_database_order(client, long_list, superuser):
    client.force_login(superuser)
    url = reverse("federation:ranking_lines", args=[long_list.pk])
    body = client.get(url, {"sort": "name"}, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    page = ranking_list(superuser, long_list, sort="name", results=False, lazy=True)
    names = [decorate(line)["name"] for line in page.listed[:3]]
    assert names[0].startswith(("Änne", "Anna")) and names[0] in body
    positions = [body.index(name) for name in names]
    assert positions == sorted(positions)
