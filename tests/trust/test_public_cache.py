"""Public standings behind ETags and a shared cache (issue 19): a 304 costs one query,
nothing unpublished or unconfirmed reaches a public cache entry, a correction is never
hidden by an old entry, and anonymous public responses set no cookie and are compressed."""

import gzip
import pickle

import pytest
from django.core.cache import cache
from django.urls import reverse

from scoring.sheets.services import save_sheet
from scoring.standings.services import set_series_published
from tests.trust.conftest import secret_grid, shown

pytestmark = pytest.mark.django_db

PUBLIC = ("standings:public", "standings:display", "standings:api")


def _url(name, event, query=""):
    return reverse(name, args=[event.pk]) + query


def _cached_texts() -> list[str]:
    """Every body in the local-memory cache of the test settings, as text."""
    texts = []
    for value in cache._cache.values():  # LocMemCache keeps pickled values
        entry = pickle.loads(value)
        if isinstance(entry, tuple) and len(entry) == 2 and isinstance(entry[1], bytes):
            body = entry[1]  # the plain and the gzip entry: both are read
            texts.append((gzip.decompress(body) if body[:2] == b"\x1f\x8b" else body).decode())
    return texts


@pytest.mark.parametrize("name", PUBLIC)
def test_anonymous_public_responses_are_cacheable_and_cookie_free(client, world, name):
    response = client.get(_url(name, world["event"]), HTTP_ACCEPT_ENCODING="gzip, br")
    assert response.status_code == 200
    assert response["ETag"].startswith('"') and response["ETag"].endswith('-gz"')
    assert response["Last-Modified"]
    assert response["Cache-Control"] == "public, max-age=5"
    assert response["Content-Encoding"] == "gzip"
    vary = [v.strip().lower() for v in response["Vary"].split(",")]
    assert "cookie" not in vary and "accept-encoding" in vary
    assert not response.cookies, response.cookies
    gzip.decompress(response.content)  # a real gzip body


@pytest.mark.parametrize("name", PUBLIC)
def test_a_matching_etag_answers_304_after_one_query(client, world, name,
                                                     django_assert_max_num_queries):  # fmt: skip
    url = _url(name, world["event"])
    etag = client.get(url)["ETag"]
    with django_assert_max_num_queries(1):
        response = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 304 and response["ETag"] == etag
    # The second full GET is a cache hit: one query as well, no standing computed.
    with django_assert_max_num_queries(1):
        assert client.get(url).status_code == 200


def test_the_etag_depends_on_language_view_and_query(client, world):
    event = world["event"]
    tags = {
        client.get(_url("standings:public", event, q))["ETag"]
        for q in ("", "?lang=en", "?competition=pair", "?scope=series&n=1")
    }
    tags.add(client.get(_url("standings:display", event))["ETag"])
    assert len(tags) == 5
    # Unknown parameters neither split the cache nor reach the page.
    plain = client.get(_url("standings:public", event))
    junk = client.get(_url("standings:public", event, "?utm=evil&x=1"))
    assert junk["ETag"] == plain["ETag"] and b"evil" not in junk.content


def test_logged_in_and_provisional_views_are_private(client, world, organiser_a):
    event = world["event"]
    # Only what these requests cache counts: entries of earlier tests may hold any number
    # (ids grow on PostgreSQL, player numbers are on the pages).
    cache.clear()
    assert "private" in client.get(_url("standings:api", event, "?provisional=1"))["Cache-Control"]
    client.force_login(organiser_a)
    for name in PUBLIC:
        response = client.get(_url(name, event), HTTP_ACCEPT_ENCODING="gzip")
        assert "private" in response["Cache-Control"]
        assert not response.has_header("ETag") and not response.has_header("Content-Encoding")
    data = client.get(_url("standings:api", event, "?provisional=1")).json()
    assert data["provisional"] is True
    assert not shown(" ".join(_cached_texts()), world["secrets"])


def test_nothing_unpublished_or_unconfirmed_reaches_a_public_cache_entry(client, world,
                                                                         organiser_a):  # fmt: skip
    event = world["event"]
    cache.clear()
    # The director reads everything first; then the public reads every view and query.
    client.force_login(organiser_a)
    for query in ("?provisional=1", ""):
        client.get(_url("standings:api", event, query))
        client.get(_url("standings:public", event, query))
    client.logout()
    for name in PUBLIC:
        for query in ("", "?provisional=1", "?competition=pair", "?series=1", "?lang=en"):
            client.get(_url(name, event, query))
    texts = _cached_texts()
    assert texts, "the public views were cached"
    assert not shown(" ".join(texts), world["secrets"])
    # Published: the confirmed sheet is public, the entered one still is not.
    set_series_published(organiser_a, world["series"], True)
    for name in PUBLIC:
        client.get(_url(name, event))
    fresh = " ".join(_cached_texts())
    assert shown(fresh, world["confirmed"]) == world["confirmed"]
    assert not shown(fresh, world["hidden"])


def test_a_correction_is_never_hidden_by_a_cached_entry(client, world, organiser_a):
    event, table = world["event"], world["tables"][0]
    set_series_published(organiser_a, world["series"], True)
    before = {name: client.get(_url(name, event)) for name in PUBLIC}
    assert shown(before["standings:public"].content.decode(), world["confirmed"])
    corrected, totals = secret_grid(900)
    save_sheet(organiser_a, table, corrected, expected_version=2, submit=True, reason="Tippfehler")
    new = [str(abs(t)) for t in totals]
    for name in PUBLIC:
        response = client.get(_url(name, event), HTTP_IF_NONE_MATCH=before[name]["ETag"])
        assert response.status_code == 200, name
        assert response["ETag"] != before[name]["ETag"]
        text = response.content.decode()
        assert shown(text, new) == new, name


def test_the_version_endpoint_is_a_cheap_public_counter(client, world, organiser_a,
                                                        django_assert_max_num_queries):  # fmt: skip
    url = _url("standings:version", world["event"])
    response = client.get(url)
    assert response.json() == {"version": 1}  # the one confirmation of the world
    assert not response.cookies and "Cookie" not in response.get("Vary", "")
    with django_assert_max_num_queries(1):
        assert client.get(url, HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304
    set_series_published(organiser_a, world["series"], True)
    assert client.get(url, HTTP_IF_NONE_MATCH=response["ETag"]).json() == {"version": 2}


def test_the_public_page_offers_languages_as_links_not_a_form(client, world):
    response = client.get(_url("standings:public", world["event"], "?lang=en"))
    text = response.content.decode()
    assert "csrfmiddlewaretoken" not in text and "set_language" not in text
    assert "?lang=de" in text and 'lang="en"' in text
    assert "Standings" in text  # English, chosen by the link


def test_an_error_answer_is_neither_cached_nor_public(client, world, organiser_a):
    set_series_published(organiser_a, world["series"], True)
    cache.clear()
    response = client.get(_url("standings:api", world["event"], "?series=9"))
    assert response.status_code == 404
    assert "public" not in response.get("Cache-Control", "") and not response.has_header("ETag")
    assert not _cached_texts()


def test_a_waiting_reader_takes_the_entry_another_one_renders(client, world, organiser_a):
    """While one app server renders an entry (its lock taken), another request does not
    rank the field again: it waits for the entry and serves it."""
    from scoring.standings import public

    set_series_published(organiser_a, world["series"], True)
    url = _url("standings:api", world["event"])
    first = client.get(url)
    key = next(
        k for k in cache._cache if ":public:api:" in k and not k.endswith((":gz", ":lock"))
    ).split(":", 2)[2]
    entry = cache.get(key)
    cache.delete(key)
    cache.add(f"{key}:lock", 1)

    def render():
        raise AssertionError("rendered although another request holds the lock")

    import threading

    threading.Timer(0.2, lambda: cache.set(key, entry)).start()
    assert public._render_once(key, render, False) == entry
    assert first.status_code == 200


def test_the_results_state_query_reads_what_the_orm_reads(world, organiser_a):
    """The 304's query is plain SQL: same version and aware datetimes on either database."""
    from tournaments.models import Event
    from tournaments.results import results_state

    event = world["event"]
    set_series_published(organiser_a, world["series"], True)  # bumps the version
    orm = (
        Event.objects.filter(pk=event.pk)
        .values_list("results_version", "results_changed_at", "created_at")
        .get()
    )
    assert orm[0] > 0 and orm[1] is not None
    assert results_state(event.pk) == orm
    assert all(value.tzinfo is not None for value in results_state(event.pk)[1:])
    assert results_state(event.pk + 10_000) is None


def _public_state(client, event):
    response = client.get(_url("standings:public", event))
    return response["ETag"], response.content.decode()


def test_renaming_a_player_or_club_reaches_the_public_page(client, world, organiser_a):
    """Names come from the registry (clubs), which tournaments' results version hears of
    through ``clubs.signals``: a rename is never hidden by a cached page."""
    from clubs import services as clubs
    from clubs.models import PlayerImport

    event = world["event"]
    set_series_published(organiser_a, world["series"], True)
    # Someone at the confirmed table, whose line the published page certainly shows.
    participant = world["tables"][0].seats.select_related("participant__player").first().participant
    player, club = participant.player, participant.club
    etag, _text = _public_state(client, event)

    clubs.update_player(organiser_a, player, given_name="Zacharias", family_name="Quendel")
    etag_2, text = _public_state(client, event)
    assert etag_2 != etag and "Zacharias Quendel" in text

    clubs.update_player(organiser_a, player, birth_year=1970)  # not shown: same version
    assert _public_state(client, event)[0] == etag_2

    clubs.update_club(organiser_a, club, short_name="RC Quendel")
    etag_3, text = _public_state(client, event)
    assert etag_3 != etag_2 and "RC Quendel" in text

    rows = f"Spielernummer;Vorname;Nachname\n{player.player_number};Zacharias;Quitte\n"
    upload = clubs.upload_player_file(organiser_a, club, "spieler.csv", rows.encode())
    clubs.apply_player_import(organiser_a, PlayerImport.objects.get(pk=upload.pk))
    etag_4, text = _public_state(client, event)
    assert etag_4 != etag_3 and "Zacharias Quitte" in text


@pytest.mark.parametrize(
    ("name", "query"),
    [
        *((name, query) for name in PUBLIC for query in ("", "?lang=en")),
        ("standings:public", "?competition=pair&scope=series&n=1"),
        ("standings:api", "?competition=pair&series=1"),
    ],
)
def test_the_early_answer_is_the_full_stacks_answer(
    client, world, settings, organiser_a, name, query
):
    """PublicCacheMiddleware answers a cache hit or a 304 before the session, locale, CSRF,
    auth and message middleware: with the same headers and body as the full stack."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from scoring.standings import public

    set_series_published(organiser_a, world["series"], True)
    url = _url(name, world["event"], query)
    first = client.get(url, HTTP_ACCEPT_ENCODING="gzip")  # renders and caches
    assert first.status_code == 200

    def both(**extra):
        calls = []
        real = public.PublicCacheMiddleware._answer

        def spy(self, request):
            answer = real(self, request)
            calls.append(answer is not None)
            return answer

        public.PublicCacheMiddleware._answer = spy
        try:
            early = client.get(url, **extra)
        finally:
            public.PublicCacheMiddleware._answer = real
        original = list(settings.MIDDLEWARE)
        settings.MIDDLEWARE = [m for m in original if "PublicCacheMiddleware" not in m]
        # A new client: a client builds its middleware chain once, at its first request.
        full = Client(HTTP_ACCEPT_LANGUAGE="en").get(url, **extra)
        settings.MIDDLEWARE = original
        return calls, early, full

    for extra in ({"HTTP_ACCEPT_ENCODING": "gzip"}, {}):
        calls, early, full = both(**extra)
        assert calls == [True], "the early path did not answer the cache hit"
        assert early.status_code == full.status_code == 200
        assert early.content == full.content
        headers = {k: v for k, v in early.headers.items() if k != "Date"}
        assert headers == {k: v for k, v in full.headers.items() if k != "Date"}
        assert not early.cookies
    etag = first["ETag"]
    calls, early, full = both(HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=etag)
    assert calls == [True] and early.status_code == full.status_code == 304
    assert dict(early.headers.items()) | {"Date": ""} == dict(full.headers.items()) | {"Date": ""}
    with CaptureQueriesContext(connection) as queries:
        assert (
            client.get(url, HTTP_IF_NONE_MATCH=etag, HTTP_ACCEPT_ENCODING="gzip").status_code == 304
        )
    assert len(queries) == 1  # the version, nothing else (no session, no user)


def test_the_early_answer_leaves_private_and_odd_requests_to_the_full_stack(client, world):
    from scoring.standings import public

    url = _url("standings:public", world["event"])
    assert client.get(url).status_code == 200
    middleware = public.PublicCacheMiddleware(lambda request: None)
    from django.test import RequestFactory

    factory = RequestFactory(HTTP_ACCEPT_LANGUAGE="en")  # as the client fixture asks
    for query in (
        "?provisional=1",
        "?x=1",
        "?series=%00",
        "?series=1&series=2",
        "?lang=" + "e" * 50,
    ):
        assert middleware._answer(factory.get(url + query)) is None, query
    request = factory.get(url)
    request.COOKIES["sessionid"] = "abc"
    assert middleware(request) is None  # a session: the full stack (here: the dummy)
    assert middleware._answer(factory.get("/events/")) is None
    assert middleware._answer(factory.get(url)) is not None
