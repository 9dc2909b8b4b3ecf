"""Every federation URL for every kind of user: 404 for an association the user may not see,
403 for one they see but may not change, the page for those who may; anonymous users go to
the login. Empty posts change nothing; real posts do only what the role allows."""

import datetime as dt

import pytest
from django.urls import get_resolver, reverse

from federation.models import Affiliation, Association, AssociationRole

pytestmark = pytest.mark.django_db

# name -> (object kind the pk names, GET allowed, needs manage)
URLS = {
    "association_list": (None, True, False),
    "association_create": (None, True, True),
    "association_detail": ("association", True, False),
    "association_edit": ("association", True, True),
    "association_history": ("association", True, True),
    "affiliate": ("association", False, True),
    "role_grant": ("association", False, True),
    "role_revoke": ("role", False, True),
    "affiliation_detail": ("affiliation", True, True),
    "affiliation_move": ("affiliation", False, True),
    "affiliation_end": ("affiliation", False, True),
}


def _snapshot():
    return [
        sorted(map(repr, model.objects.values_list()))
        for base in (Association, Affiliation, AssociationRole)
        for model in (base, base.history.model)
    ]


@pytest.fixture
def fed(national, region_a, region_b, affiliation_a, affiliation_b, officer_b, superuser,
        national_officer, officer_a, viewer_region_a, organiser_a):  # fmt: skip
    role_b = AssociationRole.objects.get(user=officer_b)
    role_a = AssociationRole.objects.get(user=viewer_region_a)
    targets = {
        "national": {"association": national.pk, "role": None, "affiliation": None},
        "A": {"association": region_a.pk, "role": role_a.pk, "affiliation": affiliation_a.pk},
        "B": {"association": region_b.pk, "role": role_b.pk, "affiliation": affiliation_b.pk},
    }
    everything = {"national", "A", "B"}
    users = {
        # user: (what they see, what they manage)
        "superuser": (superuser, everything, everything),
        "national officer": (national_officer, everything, everything),
        "officer of region A": (officer_a, {"A"}, {"A"}),
        "viewer of region A": (viewer_region_a, {"A"}, set()),
        "club organiser without role": (organiser_a, set(), set()),
    }
    return targets, users


def _cases(targets):
    for name, (kind, _get, _manage) in URLS.items():
        if kind is None:
            yield name, None, reverse(f"federation:{name}")
            continue
        for where, ids in targets.items():
            if ids[kind] is not None:
                yield name, where, reverse(f"federation:{name}", args=[ids[kind]])


def test_every_federation_url_is_in_the_matrix():
    resolver = get_resolver()
    names = {
        name.split(":", 1)[1]
        for name in resolver.reverse_dict.keys()  # noqa: SIM118
        if isinstance(name, str) and name.startswith("federation:")
    }
    namespaced = set(get_resolver().namespace_dict["federation"][1].reverse_dict.keys())
    names |= {n for n in namespaced if isinstance(n, str)}
    # Rankings, status and review: walked per role in rankings/test_ranking_pages.py and the URL
    # walk. Lists, cards, championships: lists/test_lists.py, lists/test_list_exports.py,
    # championships/test_qualification_pages.py.
    from federation.championships import urls as championship_urls
    from federation.lists import urls as list_urls
    from federation.rankings import urls as ranking_urls

    names -= {p.name for p in ranking_urls.urlpatterns}
    names -= {p.name for p in list_urls.urlpatterns}
    names -= {p.name for p in championship_urls.urlpatterns}
    assert names == set(URLS)


@pytest.mark.parametrize(
    "who",
    ["superuser", "national officer", "officer of region A", "viewer of region A",
     "club organiser without role"],
)  # fmt: skip
def test_the_permission_matrix(client, fed, who):
    targets, users = fed
    user, sees, manages = users[who]
    client.force_login(user)
    checked = 0
    for name, where, url in _cases(targets):
        kind, gettable, needs_manage = URLS[name]
        if kind is None:
            superuser_only = needs_manage
            allowed = user.is_superuser if superuser_only else True
            expected = 200 if allowed else 403
        elif where not in sees:
            expected = 404
        elif needs_manage and where not in manages:
            expected = 403
        else:
            expected = 200
        before = _snapshot()
        get = client.get(url)
        if gettable:
            assert get.status_code == expected, (who, name, where, "GET", get.status_code)
        else:
            assert get.status_code in ({405} if expected == 200 else {404, 403, 405}), (
                who, name, where, "GET", get.status_code)  # fmt: skip
        post = client.post(url, {})
        if expected == 200:
            # A form without data is shown again with its errors (or the role page says why).
            assert post.status_code in (200, 302), (who, name, where, "POST", post.status_code)
        else:
            assert post.status_code == expected, (who, name, where, "POST", post.status_code)
        assert _snapshot() == before, (who, name, where, "POST changed data")
        checked += 1
    assert checked == 25


def test_anonymous_users_go_to_the_login(client, fed):
    targets, _users = fed
    login = reverse("login")
    for name, where, url in _cases(targets):
        for method in ("get", "post"):
            response = getattr(client, method)(url)
            assert response.status_code == 302, (name, where, method)
            assert response["Location"].startswith(login)


def test_an_officer_admits_and_moves_a_club_of_their_region_only(client, fed, club_a, club_b,
                                                                 region_a, region_b):  # fmt: skip
    _targets, users = fed
    officer_a = users["officer of region A"][0]
    Affiliation.objects.filter(club=club_a).delete()
    client.force_login(officer_a)
    post = {"club": club_a.pk, "since": "2025-02-01", "note": "", "reason": "Aufnahme"}
    assert client.post(reverse("federation:affiliate", args=[region_b.pk]), post).status_code \
        == 404  # fmt: skip
    response = client.post(reverse("federation:affiliate", args=[region_a.pk]), post)
    assert response.status_code == 302
    made = Affiliation.objects.get(club=club_a)
    assert made.association == region_a and made.since == dt.date(2025, 2, 1)
    # Moving club A to region B, which the officer does not manage: the choice is refused.
    url = reverse("federation:affiliation_move", args=[made.pk])
    page = client.post(url, {"move-association": region_b.pk, "move-since": "2025-03-01",
                             "move-reason": "Weg"})  # fmt: skip
    assert page.status_code == 200
    assert Affiliation.objects.get(club=club_a).association == region_a


def test_a_viewer_is_refused_a_real_post(client, fed, club_a, region_a):
    _targets, users = fed
    Affiliation.objects.filter(club=club_a).delete()
    client.force_login(users["viewer of region A"][0])
    post = {"club": club_a.pk, "since": "2025-02-01", "reason": "Aufnahme"}
    assert client.post(reverse("federation:affiliate", args=[region_a.pk]), post).status_code \
        == 403  # fmt: skip
    assert not Affiliation.objects.filter(club=club_a).exists()
