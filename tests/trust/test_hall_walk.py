"""The URL walk against the hall mode as another device (issue 26, item 3): a phone on the
hall's Wi-Fi reaches the table links, the public results and the hall display, and nothing
else, even with a director's login; the laptop itself reaches everything as before."""

import pytest

from tests.trust.test_url_walk import PUBLIC, TOKEN, _federation, _snapshot, _urls  # noqa: F401

# (_federation: the walk's federation rows, an autouse fixture there and here)

pytestmark = pytest.mark.django_db

PHONE = "192.168.1.50"
HOST = "192.168.1.23:8000"
# What a phone may open: the table links (a token opens its own table only), the public
# results, hall display and JSON, and the start page that leads to them.
FOR_PHONES = {
    *TOKEN,
    "home",
    "set_language",
    "about",
    "favicon",
    "standings:public",
    "standings:display",
    "standings:api",
    "standings:version",
    "prizes:public_prizes",  # who won which prize, when the director shows it: a public page
    # The federation's public pages are under /public/ too (empty on a club's laptop).
    *(f"federation_public:{n}" for n in ("index", "calendar", "archive", "ranking", "card")),
    # So are the league's public pages (their JSON under /api/ligen/ is not for phones).
    *(
        f"leagues_public:{n}"
        for n in ("index", "season", "division", "division_export", "match_day", "team")
    ),
}
REFUSAL = "opens on the tournament director's laptop only"


def _body(response) -> str:
    if response.streaming:
        return b"".join(response.streaming_content).decode(errors="replace")
    return response.content.decode(errors="replace")


def _get(client, url, method="get", remote=PHONE):
    return getattr(client, method)(url, REMOTE_ADDR=remote, HTTP_HOST=HOST)


def test_a_phone_reaches_only_the_pages_for_phones(client, world, organiser_a, hall_mode):
    client.force_login(organiser_a)  # a director's login on a phone opens nothing more
    refused = opened = 0
    for name, url in _urls(world["ids"]):
        for method in ("get", "post"):
            before = _snapshot() if method == "post" else None
            response = _get(client, url, method)
            assert response.status_code != 500, (name, url, method)
            text = _body(response)
            if name in FOR_PHONES:
                assert REFUSAL not in text, (name, url, method)
                opened += 1
                continue
            assert response.status_code == 403, (name, url, method, response.status_code)
            assert REFUSAL in text, (name, url, method)
            if before is not None:
                assert _snapshot() == before, (name, url, "POST changed data")
            refused += 1
    assert refused > 80 and opened > 10
    # The admin is not in the walk's URLconf list; it is refused all the same.
    assert _get(client, "/admin/").status_code == 403
    assert _get(client, "/admin/login/", "post").status_code == 403


def test_remote_direction_opens_the_directors_pages_but_never_the_admin(
    client, world, organiser_a, superuser, hall_mode
):
    from hall.services import update_settings

    update_settings(superuser, remote_direction=True, backup_folder="")
    client.force_login(organiser_a)
    event = world["event"]
    assert _get(client, f"/events/{event.pk}/").status_code == 200
    assert _get(client, "/login/").status_code == 200
    for laptop_only in ("/admin/", "/hall/setup/", "/hall/settings/", "/healthz"):
        assert _get(client, laptop_only).status_code == 403, laptop_only
    assert set(PUBLIC) - FOR_PHONES  # the walk's own public pages are more than the phones'


def test_the_laptop_itself_reaches_everything(client, world, organiser_a, hall_mode):
    client.force_login(organiser_a)
    for name, url in _urls(world["ids"]):
        response = _get(client, url, remote="127.0.0.1")
        assert REFUSAL not in _body(response), (name, url)
